#version 450
// Twin of examples/subsampled.c: sample_shader.  The same arithmetic: the
// pixel centre divided by the example's WIDTH x HEIGHT (1280 x 720), then
// texture() of slot 0 (tr_fs_texture).
layout(binding = 0) uniform sampler2D src;

layout(location = 0) out vec4 o_color;

void main()
{
    o_color = texture(src, vec2(gl_FragCoord.x / 1280.0, gl_FragCoord.y / 720.0));
}
