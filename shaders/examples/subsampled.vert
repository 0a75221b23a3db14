#version 450
// Twin of examples/subsampled.c: vertex_shader.  The C shader reads the
// vertex array the uniforms point at; the twin reads the same position and
// colour as vertex attributes 0 and 1.  No arithmetic.
layout(location = 0) in vec4 a_pos;
layout(location = 1) in vec4 a_color;

layout(location = 0) out vec4 v_color;

void main()
{
    gl_Position = a_pos;
    v_color = a_color;
}
