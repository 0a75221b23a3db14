#version 450
/* tilerast-render's model vertex shader (tools/tool_model.c; README.md,
 * "Models (glTF, OBJ)"): one draw per mesh instance of the node tree.
 * The same text is compiled for Vulkan (shaderc, tilerast's SPIR-V path)
 * and for OpenGL 4.5 (the llvmpipe runner), so it uses only what both
 * read: a std140 uniform block at binding 0 and explicit locations.
 *
 * Vertex buffer 0, 48 bytes a vertex (tool_model_vertex): location 0 the
 * position (the mesh's own space), 1 the normal, 2 the tangent (xyz, w the
 * bitangent's sign: bitangent = cross(normal, tangent) * w, glTF's rule),
 * 3 texture coordinate set 0 (t = 0 at the image's first row: the tool
 * imports with aiProcess_FlipUVs).
 *
 * The uniform block (tool_model_uniforms, the same bytes in C):
 *   clip_from_model   projection * view * the node's world matrix, OpenGL's
 *                     clip space drawn with the lower-left origin and
 *                     depth 0..1 (glClipControl(LOWER_LEFT, ZERO_TO_ONE));
 *   world_from_model  the node's world matrix;
 *   world_normal      the inverse transpose of its 3x3 (columns 0-2), so
 *                     that non-uniform scales keep normals perpendicular;
 *   the rest is the material and the lights: model.frag says. */
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec4 a_tangent;
layout(location = 3) in vec2 a_uv;

layout(location = 0) out vec3 v_world;
layout(location = 1) out vec3 v_normal;
layout(location = 2) out vec4 v_tangent;
layout(location = 3) out vec2 v_uv;

layout(std140, binding = 0) uniform Model {
    mat4 clip_from_model;
    mat4 world_from_model;
    mat4 world_normal;
    vec4 base_color;
    vec4 emissive;
    vec4 material;
    vec4 mode;
    vec4 eye;
    vec4 light[16];
} u;

void main()
{
    gl_Position = u.clip_from_model * vec4(a_position, 1.0);
    v_world = (u.world_from_model * vec4(a_position, 1.0)).xyz;
    v_normal = mat3(u.world_normal) * a_normal;
    /* Tangents follow the surface: the world matrix itself, not the
     * normal matrix. */
    v_tangent = vec4(mat3(u.world_from_model) * a_tangent.xyz, a_tangent.w);
    v_uv = a_uv;
}
