#version 450
// Twin of bench/texture_bench.c: fs_texture.  The same arithmetic:
// texture() of slot 0 with implicit LOD (tr_fs_texture).
// bench/texture_bench.c's fs_texture_feedback has no twin: it writes
// sampler feedback (tr_fs_write_feedback), which SPIR-V cannot express.
layout(binding = 0) uniform sampler2D tex;

layout(location = 0) in vec4 v_uv;
layout(location = 0) out vec4 o_color;

void main()
{
    o_color = texture(tex, v_uv.xy);
}
