#version 450
// Twin of examples/hello_triangle.c: vertex_shader.  The same arithmetic
// (none: table lookups by gl_VertexIndex).
const vec4 positions[3] = vec4[3](vec4(0.0, -0.8, 0.5, 1.0), vec4(-0.8, 0.8, 0.5, 1.0), vec4(0.8, 0.8, 0.5, 1.0));
const vec4 colors[3] = vec4[3](vec4(1.0, 0.0, 0.0, 1.0), vec4(0.0, 1.0, 0.0, 1.0), vec4(0.0, 0.0, 1.0, 1.0));

layout(location = 0) out vec4 v_color;

void main()
{
    gl_Position = positions[gl_VertexIndex];
    v_color = colors[gl_VertexIndex];
}
