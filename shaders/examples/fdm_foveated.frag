#version 450
// Twin of examples/fdm_foveated.c: fragment_shader.  The same arithmetic:
// texture() of slot 0 (tr_fs_texture), the Lambert term with its sums in
// the C order, each channel times (tint * light) as the C `*=` does.
layout(push_constant) uniform Uniforms {
    mat4 view_proj[2];
    mat4 model;
    vec4 light_dir;
    vec4 tint;
    float ambient;
} u;

layout(binding = 0) uniform sampler2D tex;

layout(location = 0) in vec4 v_normal;
layout(location = 1) in vec4 v_uv;
layout(location = 0) out vec4 o_color;

void main()
{
    vec4 t = texture(tex, v_uv.xy);
    float nx = v_normal.x, ny = v_normal.y, nz = v_normal.z;
    float len = sqrt(nx * nx + ny * ny + nz * nz);
    float inv = len > 0.0 ? 1.0 / len : 0.0;
    float ndotl = (nx * u.light_dir.x + ny * u.light_dir.y + nz * u.light_dir.z) * inv;
    float light = u.ambient + (1.0 - u.ambient) * (ndotl > 0.0 ? ndotl : 0.0);
    o_color = vec4(t.x * (u.tint.x * light), t.y * (u.tint.y * light), t.z * (u.tint.z * light), 1.0);
}
