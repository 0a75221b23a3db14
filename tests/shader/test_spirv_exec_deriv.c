/* SPIR-V execution: derivatives from the 2x2 quad (pipeline.h's shader
 * contract; issue 30: plain OpDPdx / OpDPdy are fine derivatives).  Fine: in
 * the quad with top-left pixel (x0, y0), dFdx at (x, y) = v(x0 + 1, y) -
 * v(x0, y) and dFdy = v(x, y0 + 1) - v(x, y0) (the lane's own row / column).
 * Coarse: every lane of the quad gets v(x0 + 1, y0) - v(x0, y0) and
 * v(x0, y0 + 1) - v(x0, y0) (lane 1 - lane 0, lane 2 - lane 0, as
 * texture.h's implicit derivatives).  fwidth = |dFdx| + |dFdy|.  Helper
 * lanes are computed like live ones. */
#include "spv_harness.h"

/* The quadratic of the pixel centre that every test differentiates, in the
 * order GLSL evaluates it. */
static float qv(uint32_t x, uint32_t y)
{
    const float fx = (float)x + 0.5f, fy = (float)y + 0.5f;
    return fx * fx * 0.37f + fy * fy * 1.3f - fx * fy * 0.71f + fy * 0.1f;
}

#define QV_GLSL                                                                                                 \
    "float qv() { float x = gl_FragCoord.x, y = gl_FragCoord.y;\n"                                            \
    "    return x * x * 0.37 + y * y * 1.3 - x * y * 0.71 + y * 0.1; }\n"

static const char *const deriv_fs = "#version 450\n"
                                    "layout(location = 0) out uvec4 o0;\n"
                                    "layout(location = 1) out uvec4 o1;\n" QV_GLSL
                                    "void main() {\n"
                                    "    float v = qv();\n"
                                    "    o0 = floatBitsToUint(vec4(dFdx(v), dFdy(v), dFdxCoarse(v), dFdyCoarse(v)));\n"
                                    "    o1 = floatBitsToUint(vec4(fwidth(v), fwidthFine(v), fwidthCoarse(v), dFdxFine(v)));\n"
                                    "}\n";

/* Rearranges two attachments' pixels into 8 words a pixel. */
static uint32_t *interleave2(const uint32_t *px, uint32_t w, uint32_t h)
{
    uint32_t *out = malloc((size_t)w * h * 32);
    for (uint32_t i = 0; i < w * h; i++) {
        memcpy(out + 8 * i, px + 4 * i, 16);
        memcpy(out + 8 * i + 4, px + 4 * ((size_t)w * h + i), 16);
    }
    return out;
}

static const uint32_t *px8(const uint32_t *px, uint32_t w, uint32_t x, uint32_t y)
{
    return px + 8 * ((size_t)y * w + x);
}

Test(spirv_deriv, fine_coarse_fwidth_of_a_quadratic)
{
    spvh_draw d;
    memset(&d, 0, sizeof d);
    d.w = 40;
    d.h = 24;
    d.color_count = 2;
    d.fs = deriv_fs;
    uint32_t *raw = spvh_render(&d);
    uint32_t *px = interleave2(raw, 40, 24);
    for (uint32_t y = 0; y < 24; y++)
        for (uint32_t x = 0; x < 40; x++) {
            const uint32_t *p = px8(px, 40, x, y);
            const uint32_t x0 = x & ~1u, y0 = y & ~1u;
            const float fdx = qv(x0 + 1, y) - qv(x0, y), fdy = qv(x, y0 + 1) - qv(x, y0);
            const float cdx = qv(x0 + 1, y0) - qv(x0, y0), cdy = qv(x0, y0 + 1) - qv(x0, y0);
            SPVH_EXPECT_F32(p[0], fdx, "dFdx (fine) at (%u, %u)", x, y);
            SPVH_EXPECT_F32(p[1], fdy, "dFdy (fine) at (%u, %u)", x, y);
            SPVH_EXPECT_F32(p[2], cdx, "dFdxCoarse at (%u, %u)", x, y);
            SPVH_EXPECT_F32(p[3], cdy, "dFdyCoarse at (%u, %u)", x, y);
            SPVH_EXPECT_F32(p[4], fabsf(fdx) + fabsf(fdy), "fwidth at (%u, %u)", x, y);
            SPVH_EXPECT_F32(p[5], fabsf(fdx) + fabsf(fdy), "fwidthFine at (%u, %u)", x, y);
            SPVH_EXPECT_F32(p[6], fabsf(cdx) + fabsf(cdy), "fwidthCoarse at (%u, %u)", x, y);
            SPVH_EXPECT_F32(p[7], fdx, "dFdxFine at (%u, %u)", x, y);
        }
    /* the fine derivatives really differ between the rows of a quad */
    cr_expect_neq(px8(px, 40, 4, 4)[1], px8(px, 40, 5, 4)[1], "dFdy differs between the columns of a quad");
    free(px);
    free(raw);
}

/* A tiny triangle covering only the centre of pixel (5, 5), lane 3 of its
 * quad: the other three lanes are helpers, computed like live ones, so the
 * derivatives at (5, 5) are those of the full-screen draw; nothing else is
 * written. */
Test(spirv_deriv, helper_lanes_computed_like_live_ones)
{
    static const float tri[3][4] = {{0.0f, 0.0f, 0.0f, 1.0f}, {0.0f, 0.0f, 0.0f, 1.0f}, {0.0f, 0.0f, 0.0f, 1.0f}};
    float v[3][4];
    memcpy(v, tri, sizeof v);
    const float pts[3][2] = {{5.2f, 5.2f}, {5.9f, 5.2f}, {5.2f, 5.9f}};
    for (int i = 0; i < 3; i++) {
        v[i][0] = pts[i][0] * 2.0f / 16.0f - 1.0f;
        v[i][1] = pts[i][1] * 2.0f / 16.0f - 1.0f;
    }
    tr_pipeline_desc base;
    memset(&base, 0, sizeof base);
    base.bindings[0].stride = 16;
    base.attributes[0] = (tr_vertex_attribute){TR_VERTEX_FORMAT_R32G32B32A32_SFLOAT, 0, 0};
    spvh_draw d;
    memset(&d, 0, sizeof d);
    d.base = &base;
    d.vs = "#version 450\nlayout(location = 0) in vec4 pos;\nvoid main() { gl_Position = pos; }\n";
    d.vbuf = v;
    d.vbuf_size = sizeof v;
    d.color_count = 2;
    d.fs = deriv_fs;
    d.clear_bits[0] = d.clear_bits[1] = d.clear_bits[2] = d.clear_bits[3] = 0xdeadbeefu;
    tr_pass_stats st;
    d.stats = &st;
    uint32_t *raw = spvh_render(&d);
    uint32_t *px = interleave2(raw, 16, 16);
    cr_expect_eq(st.fragments_shaded, 1u, "one pixel covered");
    for (uint32_t y = 0; y < 16; y++)
        for (uint32_t x = 0; x < 16; x++)
            if (x != 5 || y != 5)
                for (int c = 0; c < 8; c++)
                    SPVH_EXPECT_U32(px8(px, 16, x, y)[c], 0xdeadbeefu, "(%u, %u) is not covered", x, y);
    const uint32_t *p = px8(px, 16, 5, 5);
    const float fdx = qv(5, 5) - qv(4, 5), fdy = qv(5, 5) - qv(5, 4);
    const float cdx = qv(5, 4) - qv(4, 4), cdy = qv(4, 5) - qv(4, 4);
    SPVH_EXPECT_F32(p[0], fdx, "dFdx against the helper at (4, 5)");
    SPVH_EXPECT_F32(p[1], fdy, "dFdy against the helper at (5, 4)");
    SPVH_EXPECT_F32(p[2], cdx, "dFdxCoarse from the helpers (4, 4), (5, 4)");
    SPVH_EXPECT_F32(p[3], cdy, "dFdyCoarse from the helpers (4, 4), (4, 5)");
    SPVH_EXPECT_F32(p[4], fabsf(fdx) + fabsf(fdy), "fwidth");
    SPVH_EXPECT_F32(p[6], fabsf(cdx) + fabsf(cdy), "fwidthCoarse");
    free(px);
    free(raw);
}

/* Derivatives of a varying (perspective-correct, w = 1 everywhere so
 * interpolation is affine) and of values computed inside divergent control
 * flow: derivatives are taken where every lane of the quad is active. */
Test(spirv_deriv, derivatives_of_values_after_divergence)
{
    spvh_draw d;
    memset(&d, 0, sizeof d);
    d.w = 32;
    d.h = 32;
    d.fs = "#version 450\n"
           "layout(location = 0) out uvec4 o;\n" QV_GLSL
           "void main() {\n"
           "    float v = qv();\n"
           "    ivec2 p = ivec2(gl_FragCoord.xy);\n"
           "    float u = v;\n"
           "    if (((p.x ^ p.y) & 1) == 1) u = v * 2.0; else u = -v;\n"  /* diverges inside every quad */
           "    int n = (p.x + 3 * p.y) & 3;\n"
           "    for (int i = 0; i < n; i++) u += float(i) * 0.5;\n"
           "    o = floatBitsToUint(vec4(dFdx(u), dFdy(u), u, 0.0));\n"
           "}\n";
    uint32_t *px = spvh_render(&d);
    float u[32][32];
    for (uint32_t y = 0; y < 32; y++)
        for (uint32_t x = 0; x < 32; x++) {
            const float v = qv(x, y);
            float t = ((x ^ y) & 1) ? v * 2.0f : -v;
            const int n = (int)((x + 3 * y) & 3);
            for (int i = 0; i < n; i++)
                t += (float)i * 0.5f;
            u[y][x] = t;
        }
    for (uint32_t y = 0; y < 32; y++)
        for (uint32_t x = 0; x < 32; x++) {
            const uint32_t *p = spvh_px(px, 32, x, y);
            SPVH_EXPECT_F32(p[2], u[y][x], "u at (%u, %u)", x, y);
            SPVH_EXPECT_F32(p[0], u[y][x | 1] - u[y][x & ~1u], "dFdx(u) at (%u, %u)", x, y);
            SPVH_EXPECT_F32(p[1], u[y | 1][x] - u[y & ~1u][x], "dFdy(u) at (%u, %u)", x, y);
        }
    free(px);
}

/* In a TR_PASS_ORIGIN_LOWER_LEFT pass gl_FragCoord.y counts up from the
 * bottom and dFdy follows it (issue 30). */
Test(spirv_deriv, lower_left_origin_flips_frag_coord_and_dfdy)
{
    spvh_draw d;
    memset(&d, 0, sizeof d);
    d.pass_flags = TR_PASS_ORIGIN_LOWER_LEFT;
    d.fs = "#version 450\n"
           "layout(location = 0) out uvec4 o;\n"
           "void main() {\n"
           "    float y = gl_FragCoord.y; float v = y * y;\n"
           "    o = floatBitsToUint(vec4(gl_FragCoord.x, y, dFdy(v), dFdyCoarse(v)));\n"
           "}\n";
    uint32_t *px = spvh_render(&d);
    for (uint32_t row = 0; row < 16; row++)
        for (uint32_t x = 0; x < 16; x++) {
            const uint32_t *p = spvh_px(px, 16, x, row);
            const uint32_t gy = 15 - row; /* window y of this image row */
            const float y = (float)gy + 0.5f;
            /* the quad's lanes 0,1 are its upper image row = the higher window y */
            const uint32_t top_row = row & ~1u;
            const float y_top = (float)(15 - top_row) + 0.5f, y_bot = y_top - 1.0f;
            SPVH_EXPECT_F32(p[0], (float)x + 0.5f, "x at row %u", row);
            SPVH_EXPECT_F32(p[1], y, "gl_FragCoord.y at image row %u", row);
            /* dFdy is the step of window y (up): v(y_top) - v(y_bot), positive for y * y */
            SPVH_EXPECT_F32(p[2], y_top * y_top - y_bot * y_bot, "dFdy at image row %u", row);
            SPVH_EXPECT_F32(p[3], y_top * y_top - y_bot * y_bot, "dFdyCoarse at image row %u", row);
        }
    free(px);
}

/* Derivatives inside control flow that is uniform per quad but differs
 * between the quads of a block: each quad takes its own branch and loop
 * count, and its derivatives come from its own lanes. */
Test(spirv_deriv, derivatives_in_quad_uniform_control_flow)
{
    spvh_draw d;
    memset(&d, 0, sizeof d);
    d.w = 32;
    d.h = 16;
    d.fs = "#version 450\n"
           "layout(location = 0) out uvec4 o;\n" QV_GLSL
           "void main() {\n"
           "    ivec2 q = ivec2(gl_FragCoord.xy) >> 1;\n"   /* the quad */
           "    float v = qv(), r = 0.0, s = 0.0;\n"
           "    if (((q.x + q.y) & 1) == 0) {\n"
           "        r = dFdx(v * 2.0);\n"
           "    } else {\n"
           "        r = dFdy(v) - 1.0;\n"
           "    }\n"
           "    for (int i = 0; i < (q.x % 4); i++) s += dFdxCoarse(v + float(i));\n"
           "    o = floatBitsToUint(vec4(r, s, 0.0, 0.0));\n"
           "}\n";
    uint32_t *px = spvh_render(&d);
    for (uint32_t y = 0; y < 16; y++)
        for (uint32_t x = 0; x < 32; x++) {
            const uint32_t qx = x >> 1, qy = y >> 1, x0 = x & ~1u, y0 = y & ~1u;
            const uint32_t *p = spvh_px(px, 32, x, y);
            float r;
            if (((qx + qy) & 1) == 0)
                r = qv(x0 + 1, y) * 2.0f - qv(x0, y) * 2.0f;
            else
                r = (qv(x, y0 + 1) - qv(x, y0)) - 1.0f;
            float s = 0.0f;
            for (uint32_t i = 0; i < qx % 4; i++)
                s += (qv(x0 + 1, y0) + (float)i) - (qv(x0, y0) + (float)i);
            SPVH_EXPECT_F32(p[0], r, "branch derivative at (%u, %u)", x, y);
            SPVH_EXPECT_F32(p[1], s, "loop derivative at (%u, %u)", x, y);
        }
    free(px);
}

/* gl_HelperInvocation is true in the helper lanes: seen through the
 * derivatives of the one live pixel (5, 5) of its quad. */
Test(spirv_deriv, helper_invocation_seen_through_derivatives)
{
    float v[3][4];
    const float pts[3][2] = {{5.2f, 5.2f}, {5.9f, 5.2f}, {5.2f, 5.9f}};
    for (int i = 0; i < 3; i++) {
        v[i][0] = pts[i][0] * 2.0f / 16.0f - 1.0f;
        v[i][1] = pts[i][1] * 2.0f / 16.0f - 1.0f;
        v[i][2] = 0.0f;
        v[i][3] = 1.0f;
    }
    tr_pipeline_desc base;
    memset(&base, 0, sizeof base);
    base.bindings[0].stride = 16;
    base.attributes[0] = (tr_vertex_attribute){TR_VERTEX_FORMAT_R32G32B32A32_SFLOAT, 0, 0};
    spvh_draw d;
    memset(&d, 0, sizeof d);
    d.base = &base;
    d.vs = "#version 450\nlayout(location = 0) in vec4 pos;\nvoid main() { gl_Position = pos; }\n";
    d.vbuf = v;
    d.vbuf_size = sizeof v;
    d.fs = "#version 450\nlayout(location = 0) out uvec4 o;\n"
           "void main() { float h = gl_HelperInvocation ? 1.0 : 0.0;\n"
           "    o = uvec4(floatBitsToUint(dFdx(h)), floatBitsToUint(dFdy(h)), floatBitsToUint(dFdxCoarse(h)), gl_HelperInvocation ? 1u : 0u); }\n";
    uint32_t *px = spvh_render(&d);
    const uint32_t *p = spvh_px(px, 16, 5, 5);
    SPVH_EXPECT_F32(p[0], -1.0f, "dFdx: live (5, 5) minus helper (4, 5)");
    SPVH_EXPECT_F32(p[1], -1.0f, "dFdy: live (5, 5) minus helper (5, 4)");
    SPVH_EXPECT_F32(p[2], 0.0f, "dFdxCoarse: helpers (5, 4) minus (4, 4)");
    SPVH_EXPECT_U32(p[3], 0u, "the live pixel is no helper");
    free(px);
}
