#version 450
// Twin of examples/demo.c: mesh_fs (ambient + Lambert + Blinn-Phong).  The
// same arithmetic, sums written out and accumulated from 0 in the C order,
// except one call: the C shader's specular term is libm's
// powf(ndoth, shininess), the twin's GLSL pow(), which tilerast computes as
// exp2(shininess * log2(ndoth)) with its own exp2 and log2
// (src/shader/spirv_math.h: within 2 + 2.5|t| ULP).  Lit pixels with a
// specular highlight can differ in the last bits, and by one step in RGBA8.
layout(push_constant) uniform Uniforms {
    mat4 mvp;
    mat4 model;
    vec4 eye;
    vec4 light_dir;
    vec4 color;
    float ambient, specular, shininess;
    int checker;
} u;

layout(location = 0) in vec4 v_normal;
layout(location = 1) in vec4 v_world;
layout(location = 2) in vec4 v_uv;
layout(location = 0) out vec4 o_color;

void main()
{
    vec3 n = v_normal.xyz, p = v_world.xyz;
    float nl = sqrt(n.x * n.x + n.y * n.y + n.z * n.z);
    vec3 vdir = vec3(u.eye.x - p.x, u.eye.y - p.y, u.eye.z - p.z);
    float vl = sqrt(vdir.x * vdir.x + vdir.y * vdir.y + vdir.z * vdir.z);
    vec3 h;
    float ndotl = 0.0, ndoth = 0.0, hl;
    for (int a = 0; a < 3; a++) {
        n[a] = nl > 0.0 ? n[a] / nl : 0.0;
        h[a] = u.light_dir[a] + (vl > 0.0 ? vdir[a] / vl : 0.0);
    }
    hl = sqrt(h.x * h.x + h.y * h.y + h.z * h.z);
    for (int a = 0; a < 3; a++) {
        ndotl += n[a] * u.light_dir[a];
        ndoth += n[a] * (hl > 0.0 ? h[a] / hl : 0.0);
    }
    float diffuse = ndotl > 0.0 ? ndotl : 0.0;
    float spec = ndotl > 0.0 && ndoth > 0.0 ? u.specular * pow(ndoth, u.shininess) : 0.0;
    vec3 base = u.color.xyz;
    if (u.checker != 0) {
        int odd = (int(floor(p.x)) + int(floor(p.z))) & 1;
        float fade = 0.3 + 1.4 / (1.0 + 0.04 * vl * vl); // darker far away
        fade = fade < 1.0 ? fade : 1.0;
        for (int a = 0; a < 3; a++)
            base[a] = (odd != 0 ? base[a] : base[a] * 0.35) * fade;
    }
    float light = u.ambient + (1.0 - u.ambient) * diffuse;
    for (int a = 0; a < 3; a++) {
        float c = base[a] * light + spec;
        o_color[a] = c < 1.0 ? c : 1.0;
    }
    o_color.w = 1.0;
}
