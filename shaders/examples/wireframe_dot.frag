#version 450
// Twin of examples/wireframe.c: fs_dot.  The same arithmetic: the point
// coordinate's offset from the centre, squared and summed in the C order;
// lanes outside the inscribed disc are discarded.
layout(location = 0) in vec4 v_color;
layout(location = 0) out vec4 o_color;

void main()
{
    o_color = v_color;
    float dx = gl_PointCoord.x - 0.5, dy = gl_PointCoord.y - 0.5;
    if (dx * dx + dy * dy > 0.25)
        discard;
}
