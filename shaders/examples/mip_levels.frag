#version 450
// Twin of examples/mip_levels.c: fragment_shader.  The same arithmetic:
// two texture() calls (texture slots 0 and 1, implicit LOD, as
// tr_fs_texture) and one multiply per colour channel.
layout(binding = 0) uniform sampler2D tints;
layout(binding = 1) uniform sampler2D checker;

layout(location = 0) in vec4 v_uv;
layout(location = 0) out vec4 o_color;

void main()
{
    vec4 tint = texture(tints, v_uv.xy);
    vec4 check = texture(checker, v_uv.xy);
    o_color = vec4(tint.x * check.x, tint.y * check.y, tint.z * check.z, 1.0);
}
