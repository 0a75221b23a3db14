#version 450
// Twin of examples/instancing.c: vertex_shader.  The same arithmetic: one
// add per position component, one multiply per colour component.
layout(location = 0) in vec2 a_corner;  // binding 0, per vertex
layout(location = 1) in vec4 a_shade;   // binding 0, RGBA8 UNORM
layout(location = 2) in vec2 a_centre;  // binding 1, per instance
layout(location = 3) in vec4 a_row;     // binding 2, per 12 instances, RGBA8 UNORM

layout(location = 0) out vec4 v_color;

void main()
{
    gl_Position = vec4(a_corner.x + a_centre.x, a_corner.y + a_centre.y, 0.5, 1.0);
    v_color = a_shade * a_row;
}
