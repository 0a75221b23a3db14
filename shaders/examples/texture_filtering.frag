#version 450
// Twin of examples/texture_filtering.c: fragment_shader.  The same
// arithmetic: texture() of slot 0 with implicit LOD (tr_fs_texture).
layout(binding = 0) uniform sampler2D tex;

layout(location = 0) in vec4 v_uv;
layout(location = 0) out vec4 o_color;

void main()
{
    o_color = texture(tex, v_uv.xy);
}
