#version 450
#extension GL_EXT_multiview : require
// Twin of examples/fdm_foveated.c: vertex_shader.  The C shader fetches its
// vertex through the pointer at the end of its uniforms; the twin reads the
// same position, normal and uv as vertex attributes 0, 1 and 2; the push
// constants are the C `uniforms` struct's bytes up to `ambient`.  The same
// arithmetic: model * vec4(pos, 1) and view_proj[view] * world are the C
// four-term sums (an exact *1.0 on the translation), mat3(model) * normal
// the C three-term sum.
layout(push_constant) uniform Uniforms {
    mat4 view_proj[2];
    mat4 model;
    vec4 light_dir;
    vec4 tint;
    float ambient;
} u;

layout(location = 0) in vec3 a_pos;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_uv;

layout(location = 0) out vec4 v_normal;
layout(location = 1) out vec4 v_uv;

void main()
{
    vec4 world = u.model * vec4(a_pos, 1.0);
    gl_Position = u.view_proj[gl_ViewIndex] * world;
    v_normal = vec4(mat3(u.model) * a_normal, 0.0);
    v_uv = vec4(a_uv, 0.0, 0.0);
}
