#version 450
// Twin of examples/demo.c: overlay_vs.  The C shader reads the rectangle
// corners through the pointer in overlay_uniforms; the twin reads the same
// pixel coordinates as vertex attribute 0.  The same arithmetic:
// p / WIDTH * 2 - 1 (WIDTH x HEIGHT = 1024 x 576), left to right.
layout(location = 0) in vec2 a_px;

void main()
{
    gl_Position = vec4(a_px.x / 1024.0 * 2.0 - 1.0, a_px.y / 576.0 * 2.0 - 1.0, 0.0, 1.0);
}
