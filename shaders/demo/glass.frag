#version 450
// Twin of examples/demo.c: glass_fs.  The same arithmetic: min() is
// fminf for the non-NaN uvs of the pane.
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
    float s = v_uv.x, t = v_uv.y;
    float edge = min(min(s, 1.0 - s), min(t, 1.0 - t));
    bool rim = edge < 0.02;
    for (int a = 0; a < 3; a++)
        o_color[a] = rim ? 0.9 : u.color[a] * (0.7 + 0.3 * t);
    o_color.w = rim ? 0.9 : u.color.w * (0.6 + 0.6 * t);
}
