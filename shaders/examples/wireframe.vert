#version 450
// Twin of examples/wireframe.c: vertex_shader.  The C shader reads its
// vertex through the pointer at the start of its uniforms; the twin reads
// the same position and colour as vertex attributes 0 and 1, and its push
// constants hold only the tint (the C struct's bytes from offset 8).  The
// same arithmetic: z - 0.004 * w for lines and dots.
layout(push_constant) uniform Uniforms {
    vec4 tint;  // w 0: the vertex colour
} u;

layout(location = 0) in vec4 a_pos;
layout(location = 1) in vec4 a_col;

layout(location = 0) out vec4 v_color;

void main()
{
    vec4 p = a_pos;
    v_color = u.tint.w > 0.0 ? u.tint : a_col;
    if (u.tint.w > 0.0)
        p.z = p.z - 0.004 * a_pos.w;
    gl_Position = p;
    gl_PointSize = 5.0;
}
