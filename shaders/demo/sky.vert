#version 450
// Twin of examples/demo.c: sky_vs.  The same arithmetic: a full-screen
// triangle from gl_VertexIndex, varying 0 = (0.5 * (y + 1), 0, 0, 0).
layout(location = 0) out vec4 v_t;

void main()
{
    float x = gl_VertexIndex == 1 ? 3.0 : -1.0, y = gl_VertexIndex == 2 ? 3.0 : -1.0;
    gl_Position = vec4(x, y, 1.0, 1.0);
    v_t = vec4(0.5 * (y + 1.0), 0.0, 0.0, 0.0);
}
