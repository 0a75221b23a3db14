#version 450
// Twin of examples/mip_levels.c: vertex_shader.  The same arithmetic:
// view_proj * world is the C four-term sum (world.y * m4 adds 0 exactly as
// in C); the uv scale by UV_PER_UNIT (1.0) is kept.
layout(push_constant) uniform Uniforms {
    mat4 view_proj;
} u;

const vec2 corners[4] = vec2[4](vec2(-1.0, -1.0), vec2(1.0, -1.0), vec2(1.0, 1.0), vec2(-1.0, 1.0));
const int corner_of[6] = int[6](0, 1, 2, 0, 2, 3);
const float PLANE_HALF = 200.0;
const float UV_PER_UNIT = 1.0;

layout(location = 0) out vec4 v_uv;

void main()
{
    vec2 c = corners[corner_of[gl_VertexIndex]];
    vec4 world = vec4(c.x * PLANE_HALF, 0.0, c.y * PLANE_HALF, 1.0);
    gl_Position = u.view_proj * world;
    v_uv = vec4(world.x * UV_PER_UNIT, world.z * UV_PER_UNIT, 0.0, 0.0);
}
