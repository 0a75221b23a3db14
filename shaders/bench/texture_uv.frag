#version 450
// Twin of bench/texture_bench.c: fs_uv.  The same arithmetic: x - floor(x)
// written out as the C code does (GLSL's fract is the same formula in
// tilerast, spelt out anyway).
layout(location = 0) in vec4 v_uv;
layout(location = 0) out vec4 o_color;

void main()
{
    o_color = vec4(v_uv.x - floor(v_uv.x), v_uv.y - floor(v_uv.y), 0.5, 1.0);
}
