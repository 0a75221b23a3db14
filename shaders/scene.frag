#version 450
/* The scene fragment shader, the GLSL twin of src/scene/scene_render.c's C
 * fragment shader: colour attachment 0 takes varying 0 as interpolated.
 * Compiles for Vulkan (shaderc) and for desktop OpenGL 4.5 core alike.
 * Define SCENE_FLAT for scenes with TR_SCENE_FLAT, as for scene.vert: the
 * pipeline derives its flat_mask from this input's `flat`. */
#ifdef SCENE_FLAT
#define SCENE_INTERP flat
#else
#define SCENE_INTERP
#endif

layout(location = 0) SCENE_INTERP in vec4 v_color;

layout(location = 0) out vec4 o_color;

void main()
{
    o_color = v_color;
}
