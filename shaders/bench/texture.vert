#version 450
// Twin of bench/texture_bench.c: vs.  The C shader reads the vertex array
// through the pointer its uniforms hold; the twin reads the same clip
// position and uv as vertex attributes 0 and 1.  No arithmetic.
layout(location = 0) in vec4 a_clip;
layout(location = 1) in vec2 a_uv;

layout(location = 0) out vec4 v_uv;

void main()
{
    gl_Position = a_clip;
    v_uv = vec4(a_uv, 0.0, 0.0);
}
