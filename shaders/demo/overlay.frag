#version 450
// Twin of examples/demo.c: overlay_fs.  No arithmetic: the colour of
// overlay_uniforms (its first 16 bytes) is written.
layout(push_constant) uniform Uniforms {
    vec4 color;
} u;

layout(location = 0) out vec4 o_color;

void main()
{
    o_color = u.color;
}
