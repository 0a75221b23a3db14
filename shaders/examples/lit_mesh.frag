#version 450
// Twin of examples/lit_mesh.c: fragment_shader.  The same arithmetic, the
// sums written out in the C order (no dot(), no normalize()).
layout(push_constant) uniform Uniforms {
    mat4 mvp;
    mat4 model;
    vec4 light_dir;
    vec4 base_color;
    float ambient;
} u;

layout(location = 0) in vec4 v_normal;
layout(location = 0) out vec4 o_color;

void main()
{
    float nx = v_normal.x, ny = v_normal.y, nz = v_normal.z;
    float len = sqrt(nx * nx + ny * ny + nz * nz);
    float inv = len > 0.0 ? 1.0 / len : 0.0;
    float ndotl = (nx * u.light_dir.x + ny * u.light_dir.y + nz * u.light_dir.z) * inv;
    float light = u.ambient + (1.0 - u.ambient) * (ndotl > 0.0 ? ndotl : 0.0);
    o_color = vec4(u.base_color.x * light, u.base_color.y * light, u.base_color.z * light, 1.0);
}
