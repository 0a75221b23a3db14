#version 450
// The shader-heavy bench scene's fragment shader: per-pixel lighting with a
// normal map (plus a detail normal), five texture samples (albedo twice,
// normal map twice, a roughness / AO / specular map), a sun with
// Blinn-Phong and Schlick Fresnel, an attenuated point light, hemisphere
// ambient, rim light and distance fog.  No transcendental function: the
// specular powers are repeated squares, so bench/bench_heavy.c's C twin
// (heavy_fs) is the same operations in the same order -- byte-identical
// images (tests/shader/test_glsl_twins.c).  GLSL.std.450 calls as
// tilerast evaluates them (src/shader/spirv_math.h): normalize divides by
// sqrt(dot), dot is left to right, cross, mix = x*(1-a) + y*a, clamp =
// min(max()), inversesqrt = 1 / sqrt.
// Compiles for Vulkan (VULKAN defined: push constants) and for desktop
// OpenGL 4.5 core (a std140 uniform block at binding 0).
#ifdef VULKAN
layout(push_constant) uniform Uniforms {
#else
layout(std140, binding = 0) uniform Uniforms {
#endif
    mat4 mvp;
    mat4 model;
    vec4 eye;
    vec4 light_dir;
    vec4 light_color;
    vec4 point_pos;
    vec4 point_color;
    vec4 fog;
    vec4 params;
} u;

layout(binding = 0) uniform sampler2D albedo_map;
layout(binding = 1) uniform sampler2D normal_map;
layout(binding = 2) uniform sampler2D material_map; // r roughness, g ambient occlusion, b specular mask

layout(location = 0) in vec4 v_world;
layout(location = 1) in vec4 v_normal;
layout(location = 2) in vec4 v_tangent;
layout(location = 3) in vec4 v_uv;
layout(location = 0) out vec4 o_color;

void main()
{
    vec4 base = texture(albedo_map, v_uv.xy);
    vec4 detail = texture(albedo_map, v_uv.zw);
    vec4 nm = texture(normal_map, v_uv.xy);
    vec4 dn = texture(normal_map, v_uv.zw);
    vec4 mat = texture(material_map, v_uv.xy);

    // tangent-space normal: the map's, bent by the detail map's xy
    vec3 tn = nm.xyz * 2.0 - 1.0;
    tn.xy = tn.xy + (dn.xy * 2.0 - 1.0) * u.params.y;
    vec3 n0 = normalize(v_normal.xyz);
    vec3 t0 = normalize(v_tangent.xyz - n0 * dot(n0, v_tangent.xyz));
    vec3 b0 = cross(n0, t0) * v_tangent.w;
    vec3 n = normalize(t0 * tn.x + b0 * tn.y + n0 * tn.z);
    vec3 toeye = u.eye.xyz - v_world.xyz;
    vec3 v = normalize(toeye);
    vec3 albedo = base.xyz * (detail.xyz * 0.5 + 0.5);

    // the sun: Lambert + Blinn-Phong, exponent 64 (smooth) to 8 (rough), Schlick
    vec3 l = u.light_dir.xyz;
    vec3 h = normalize(l + v);
    float ndl = max(dot(n, l), 0.0);
    float s2 = max(dot(n, h), 0.0);
    s2 = s2 * s2;
    float s8 = s2 * s2;
    s8 = s8 * s8;
    float s64 = s8 * s8;
    s64 = s64 * s64;
    s64 = s64 * s64;
    float spec = mix(s64, s8, mat.x);
    float f = 1.0 - max(dot(v, h), 0.0);
    float f2 = f * f;
    float fres = 0.04 + 0.96 * (f2 * f2 * f);
    vec3 c = albedo * (u.light_color.xyz * ndl) + u.light_color.xyz * (spec * fres * mat.z);

    // the point light
    vec3 lp = u.point_pos.xyz - v_world.xyz;
    float d2 = dot(lp, lp);
    float att = 1.0 / (1.0 + d2 * u.point_pos.w);
    lp = lp * inversesqrt(d2);
    float ndlp = max(dot(n, lp), 0.0);
    float sp = clamp(dot(n, normalize(lp + v)), 0.0, 1.0);
    sp = sp * sp;
    sp = sp * sp;
    sp = sp * sp;
    c = c + (albedo * ndlp + sp * mat.z) * (u.point_color.xyz * att);

    // hemisphere ambient times occlusion, and a rim
    vec3 amb = mix(vec3(0.08, 0.07, 0.06), vec3(0.20, 0.24, 0.30), n.y * 0.5 + 0.5);
    c = c + albedo * (amb * (u.light_color.w * mat.y));
    float rim = 1.0 - max(dot(n, v), 0.0);
    c = c + rim * rim * rim * 0.25 * mat.y;

    // fog by distance
    float fog = clamp(length(toeye) * u.fog.w, 0.0, 1.0);
    c = mix(c, u.fog.xyz, fog);
    o_color = vec4(sqrt(clamp(c, 0.0, 1.0)), 1.0);
}
