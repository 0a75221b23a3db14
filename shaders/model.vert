#version 450
/* tilerast-render's model vertex shader (tools/tool_model.c; README.md,
 * "Models (glTF, OBJ)"): one draw per mesh instance of the node tree.
 *
 * Vertex buffer 0, 32 bytes a vertex: location 0 the position (vec3, the
 * mesh's own space), location 1 the normal (vec3), location 2 texture
 * coordinate set 0 (vec2, top-left origin: the tool imports with
 * aiProcess_FlipUVs, so that t = 0 is the image's first row).
 * The push-constant block is the same in both stages (tool_model.c's
 * model_constants lays out the same bytes, std430):
 *   clip_from_model  projection * view * the node's world matrix; the
 *                    projection is Vulkan's (clip y down, depth 0..1);
 *   world_normal     the inverse transpose of the world matrix's 3x3
 *                    (columns 0-2; column 3 unused), so that non-uniform
 *                    scales keep normals perpendicular;
 *   base_color       the material's base colour factor, linear RGBA;
 *   light_dir        xyz: unit vector towards the light, world space;
 *                    w: the ambient term;
 *   light_color      rgb: the directional light's colour. */
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_uv;

layout(location = 0) out vec3 v_normal;
layout(location = 1) out vec2 v_uv;

layout(push_constant) uniform ModelConstants {
    mat4 clip_from_model;
    mat4 world_normal;
    vec4 base_color;
    vec4 light_dir;
    vec4 light_color;
} u;

void main()
{
    gl_Position = u.clip_from_model * vec4(a_position, 1.0);
    v_normal = mat3(u.world_normal) * a_normal;
    v_uv = a_uv;
}
