#version 450
// The shader-heavy bench scene's vertex shader (bench/bench_heavy.c draws
// it; heavy_vs there is its C twin, the same operations in the same order:
// mvp * vec4(pos, 1) and model * vec4(pos, 1) are ((m0*x + m4*y) + m8*z) +
// m12*1.0, mat3(model) * v the three-term sums).
// Compiles for Vulkan (shaderc / glslang define VULKAN: the uniforms are
// push constants) and for desktop OpenGL 4.5 core (a std140 uniform block
// at binding 0; every member is a mat4 or vec4, so both layouts agree).
#ifdef VULKAN
layout(push_constant) uniform Uniforms {
#else
layout(std140, binding = 0) uniform Uniforms {
#endif
    mat4 mvp;
    mat4 model;
    vec4 eye;          // xyz: camera, world space
    vec4 light_dir;    // xyz: unit, towards the sun
    vec4 light_color;  // rgb: sun colour, w: ambient strength
    vec4 point_pos;    // xyz: point light, world; w: attenuation k (1 / (1 + k d^2))
    vec4 point_color;  // rgb
    vec4 fog;          // rgb: fog colour, w: fog per world unit
    vec4 params;       // x: detail uv scale, y: detail normal strength
} u;

layout(location = 0) in vec3 a_pos;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec4 a_tangent;  // xyz tangent, w handedness
layout(location = 3) in vec2 a_uv;

layout(location = 0) out vec4 v_world;
layout(location = 1) out vec4 v_normal;
layout(location = 2) out vec4 v_tangent;
layout(location = 3) out vec4 v_uv;      // xy: uv, zw: detail uv

void main()
{
    gl_Position = u.mvp * vec4(a_pos, 1.0);
    v_world = u.model * vec4(a_pos, 1.0);
    v_normal = vec4(mat3(u.model) * a_normal, 0.0);
    v_tangent = vec4(mat3(u.model) * a_tangent.xyz, a_tangent.w);
    v_uv = vec4(a_uv, a_uv * u.params.x);
}
