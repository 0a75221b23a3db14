#version 450
// Twin of examples/demo.c: mesh_vs (used by the lit and the glass
// pipelines).  The C shader fetches its vertex through the pointer at the
// end of mesh_uniforms; the twin reads the same position, normal and uv as
// vertex attributes 0, 1 and 2; the push constants are mesh_uniforms' bytes
// up to `checker`.  The same arithmetic: mvp * vec4(pos, 1) and model *
// vec4(pos, 1) are the C four-term sums (an exact *1.0 on the
// translation); the normal is written as the C three-term sum over all
// four rows (model * vec4(n, 0) would add translation * 0, which can turn
// a -0 into +0).
layout(push_constant) uniform Uniforms {
    mat4 mvp;
    mat4 model;
    vec4 eye;
    vec4 light_dir;
    vec4 color;
    float ambient, specular, shininess;
    int checker;
} u;

layout(location = 0) in vec3 a_pos;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_uv;

layout(location = 0) out vec4 v_normal;
layout(location = 1) out vec4 v_world;
layout(location = 2) out vec4 v_uv;

void main()
{
    gl_Position = u.mvp * vec4(a_pos, 1.0);
    v_world = u.model * vec4(a_pos, 1.0);
    v_normal = u.model[0] * a_normal.x + u.model[1] * a_normal.y + u.model[2] * a_normal.z;
    v_uv = vec4(a_uv, 0.0, 1.0);
}
