#version 450
/* The scene vertex shader (bench/SCENES.md scenes), the GLSL twin of
 * src/scene/scene_render.c's C vertex shader: clip-space position passed
 * through, the unorm8 colour as varying 0, the scene's point size.
 *
 * Compiles for Vulkan (shaderc / glslang, which define VULKAN) and for
 * desktop OpenGL 4.5 core (llvmpipe through bench/llvmpipe_runner.c):
 *   - attributes: location 0 the position (vec4 of floats), location 1 the
 *     colour (four normalised unsigned bytes: c / 255), as tr_scene_vertex
 *     lays them out (20 bytes a vertex);
 *   - the point size: Vulkan, the push-constant block's float at offset 0
 *     (tr_cmd_set_uniforms); OpenGL, the uniform at location 0 (read only
 *     with GL_PROGRAM_POINT_SIZE enabled).
 * Define SCENE_FLAT (glslc -DSCENE_FLAT, or a "#define SCENE_FLAT 1" line
 * after #version) for scenes with TR_SCENE_FLAT: the colour is then `flat`
 * (the provoking, first, vertex's).  The fragment shader must be compiled
 * the same way, since a pipeline takes flat from the fragment module. */
#ifdef SCENE_FLAT
#define SCENE_INTERP flat
#else
#define SCENE_INTERP
#endif

layout(location = 0) in vec4 a_position;
layout(location = 1) in vec4 a_color;

layout(location = 0) SCENE_INTERP out vec4 v_color;

#ifdef VULKAN
layout(push_constant) uniform SceneConstants {
    float point_size;
} u_scene;
#define SCENE_POINT_SIZE u_scene.point_size
#else
layout(location = 0) uniform float u_point_size;
#define SCENE_POINT_SIZE u_point_size
#endif

void main()
{
    gl_Position = a_position;
    v_color = a_color;
    gl_PointSize = SCENE_POINT_SIZE; /* read for point lists only */
}
