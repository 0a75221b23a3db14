#version 450
// Twin of examples/demo.c: sky_fs.  The same arithmetic: top + (bottom -
// top) * t per channel, with bottom - top the float difference of the two
// float constants, as the C compiler folds it.  top and bottom are plain
// variables, not `const`: glslang folds a constant expression in double
// from the decimal literals and rounds once to float, which differs from
// the float subtraction of the rounded floats (as `const` vectors, 14720
// of 16384 pixels of tests/shader/test_glsl_twins.c's draw were 1 ULP off).

layout(location = 0) in vec4 v_t;
layout(location = 0) out vec4 o_color;

void main()
{
    vec3 top = vec3(0.05, 0.07, 0.16), bottom = vec3(0.45, 0.55, 0.70);
    float t = v_t.x;
    o_color = vec4(top + (bottom - top) * t, 1.0);
}
