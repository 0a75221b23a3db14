#version 450
/* tilerast-render's model fragment shader (tools/tool_model.c): Lambert
 * plus ambient on base colour factor x base colour texture.
 *
 * The texture at binding 0 is R8G8B8A8_SRGB (the file's texture, or 1x1
 * white for a material without one), so sampling returns linear values;
 * the colour attachment is R8G8B8A8_SRGB too, so the linear result is
 * encoded to sRGB when it is stored: no gamma arithmetic here.
 * Back faces (drawn for double-sided materials, and where culling is off)
 * are lit with the normal turned towards the viewer.  Alpha is written as
 * 1: alpha modes are not implemented yet (every material is OPAQUE). */
layout(location = 0) in vec3 v_normal;
layout(location = 1) in vec2 v_uv;

layout(location = 0) out vec4 o_color;

layout(binding = 0) uniform sampler2D u_base_color_tex;

layout(push_constant) uniform ModelConstants {
    mat4 clip_from_model;
    mat4 world_normal;
    vec4 base_color;
    vec4 light_dir;
    vec4 light_color;
} u;

void main()
{
    vec4 base = u.base_color * texture(u_base_color_tex, v_uv);
    /* A zero normal (degenerate file data) gets ambient only, not a NaN. */
    float len = length(v_normal);
    vec3 n = len > 0.0 ? v_normal / len : vec3(0.0);
    if (!gl_FrontFacing)
        n = -n;
    float lambert = max(dot(n, u.light_dir.xyz), 0.0);
    vec3 lit = base.rgb * (vec3(u.light_dir.w) + lambert * u.light_color.rgb);
    o_color = vec4(lit, 1.0);
}
