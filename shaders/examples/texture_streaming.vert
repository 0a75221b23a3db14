#version 450
// Twin of examples/texture_streaming.c: vertex_shader.  The same
// arithmetic: world = ((uv.x * 2 - 1) * PLANE, 0, 2 - (1 - uv.y) * 2 * PLANE,
// 1) left to right, mvp * world the C four-term sum.  The C shader writes
// only components 0 and 1 of varying 0; so does this one (a vec2 output).
// examples/texture_streaming.c's fragment_shader has no twin: it writes
// sampler feedback (tr_fs_write_feedback), which SPIR-V cannot express.
layout(push_constant) uniform Uniforms {
    mat4 mvp;
} u;

const vec2 corner[6] = vec2[6](vec2(0.0, 0.0), vec2(1.0, 0.0), vec2(1.0, 1.0), vec2(0.0, 0.0), vec2(1.0, 1.0),
                               vec2(0.0, 1.0));
const float PLANE = 12.0;

layout(location = 0) out vec2 v_uv;

void main()
{
    vec2 uv = corner[gl_VertexIndex];
    vec4 world = vec4((uv.x * 2.0 - 1.0) * PLANE, 0.0, 2.0 - (1.0 - uv.y) * 2.0 * PLANE, 1.0);
    gl_Position = u.mvp * world;
    v_uv = uv;
}
