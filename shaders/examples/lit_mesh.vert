#version 450
// Twin of examples/lit_mesh.c: vertex_shader.  The C shader fetches its
// vertex from a pointer in the uniforms (u->verts[gl_VertexIndex]); the twin
// reads the same position and normal as vertex attributes 0 and 1 (a
// binding over the same `vertex` array).  The push constants are the C
// `uniforms` struct's bytes (the pointer after `ambient` is not declared).
// The same arithmetic: mvp * vec4(pos, 1.0) is ((m0*x + m4*y) + m8*z) +
// m12*1.0, the C sum with an exact *1.0; mat3(model) * normal is the C
// three-term sum.
layout(push_constant) uniform Uniforms {
    mat4 mvp;
    mat4 model;
    vec4 light_dir;
    vec4 base_color;
    float ambient;
} u;

layout(location = 0) in vec3 a_pos;
layout(location = 1) in vec3 a_normal;

layout(location = 0) out vec4 v_normal;

void main()
{
    gl_Position = u.mvp * vec4(a_pos, 1.0);
    v_normal = vec4(mat3(u.model) * a_normal, 0.0);
}
