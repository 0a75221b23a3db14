/* SPIR-V execution: structured control flow that diverges inside 2x2
 * quads (if/else, loops with per-lane trip counts, break/continue, switch
 * with fallthrough, early returns, calls with out/inout parameters, OpPhi),
 * discard (OpKill, OpDemoteToHelperInvocation) and the instruction budget
 * (shader.h, "The instruction budget").  Every lane's expected value is the
 * same control flow written in C. */
#include "spv_harness.h"

#define HEAD SPVH_LANES_HEAD(256)

static uint32_t in[256][4];

static void fill_lanes(void)
{
    trt_rng rng = {99};
    for (int l = 0; l < 256; l++) {
        in[l][0] = (uint32_t)l;
        in[l][1] = trt_rand_u32(&rng) % 23u;
        in[l][2] = trt_rand_u32(&rng);
        in[l][3] = 0;
    }
}

SPVH_TEST2(spirv_flow, if_else_divergent_in_quads, .disabled = 0)
{
    fill_lanes();
    uint32_t *px = spvh_run_lanes(HEAD "void main() {\n"
                                       "    uvec4 a = arg(); uint l = a.x, r = a.y; uint v = 0u;\n"
                                       "    if ((l & 1u) == 0u) {\n"
                                       "        v = 10u;\n"
                                       "        if ((l & 2u) != 0u) v += 5u; else v += 7u;\n"
                                       "    } else if (r > 11u) {\n"
                                       "        v = r * 3u;\n"
                                       "    } else {\n"
                                       "        v = 1000u;\n"
                                       "        if (r == 0u) { o = uvec4(1u, 2u, 3u, 4u); return; }\n"
                                       "    }\n"
                                       "    o = uvec4(v, l, r, 0u);\n"
                                       "}\n",
                                  in, 256);
    for (uint32_t l = 0; l < 256; l++) {
        const uint32_t r = in[l][1];
        uint32_t want[4];
        uint32_t v;
        if ((l & 1) == 0)
            v = 10 + ((l & 2) ? 5 : 7);
        else if (r > 11)
            v = r * 3;
        else
            v = 1000;
        want[0] = v, want[1] = l, want[2] = r, want[3] = 0;
        if ((l & 1) && r <= 11 && r == 0)
            want[0] = 1, want[1] = 2, want[2] = 3, want[3] = 4;
        for (int c = 0; c < 4; c++)
            SPVH_EXPECT_U32(px[4 * l + c], want[c], "lane %u component %d", l, c);
    }
    free(px);
}

static uint32_t loop_ref(uint32_t l, uint32_t n, uint32_t seed)
{
    uint32_t acc = seed & 0xffu;
    for (uint32_t i = 0; i < n; i++) {
        if (i % 3 == 1)
            continue;
        if (acc > 5000u + l)
            break;
        uint32_t j = 0;
        while (j < (i & 3u)) {
            acc += j * i + 1u;
            j++;
        }
        acc = acc * 3u + i;
    }
    uint32_t k = 0;
    do {
        acc ^= k << 3;
        k++;
    } while (k < (l & 7u));
    return acc;
}

SPVH_TEST2(spirv_flow, loops_per_lane_trip_counts_break_continue, .disabled = 0)
{
    fill_lanes();
    uint32_t *px = spvh_run_lanes(HEAD "void main() {\n"
                                       "    uvec4 a = arg(); uint l = a.x, n = a.y; uint acc = a.z & 0xffu;\n"
                                       "    for (uint i = 0u; i < n; i++) {\n"
                                       "        if (i % 3u == 1u) continue;\n"
                                       "        if (acc > 5000u + l) break;\n"
                                       "        uint j = 0u;\n"
                                       "        while (j < (i & 3u)) { acc += j * i + 1u; j++; }\n"
                                       "        acc = acc * 3u + i;\n"
                                       "    }\n"
                                       "    uint k = 0u;\n"
                                       "    do { acc ^= k << 3; k++; } while (k < (l & 7u));\n"
                                       "    o = uvec4(acc, n, 0u, 0u);\n"
                                       "}\n",
                                  in, 256);
    for (uint32_t l = 0; l < 256; l++) {
        SPVH_EXPECT_U32(px[4 * l], loop_ref(l, in[l][1], in[l][2]), "lane %u, %u iterations", l, in[l][1]);
        SPVH_EXPECT_U32(px[4 * l + 1], in[l][1], "lane %u", l);
    }
    free(px);
}

static uint32_t switch_ref(uint32_t l)
{
    uint32_t r = 0;
    switch ((int)(l % 7u) - 1) {
    case 0:
        r += 1;
        /* fallthrough */
    case 1:
        r += 10;
        break;
    case 3:
        r += 100;
        /* fallthrough */
    default:
        r += 1000;
        /* fallthrough */
    case 5:
        r += 10000;
        break;
    case -1:
        r = 7;
    }
    return r;
}

SPVH_TEST2(spirv_flow, switch_fallthrough_default, .disabled = 0)
{
    fill_lanes();
    uint32_t *px = spvh_run_lanes(HEAD "void main() {\n"
                                       "    uint l = arg().x; uint r = 0u;\n"
                                       "    switch (int(l % 7u) - 1) {\n"
                                       "    case 0: r += 1u;\n"
                                       "    case 1: r += 10u; break;\n"
                                       "    case 3: r += 100u;\n"
                                       "    default: r += 1000u;\n"
                                       "    case 5: r += 10000u; break;\n"
                                       "    case -1: r = 7u;\n"
                                       "    }\n"
                                       "    o = uvec4(r, 0u, 0u, 0u);\n"
                                       "}\n",
                                  in, 256);
    for (uint32_t l = 0; l < 256; l++)
        SPVH_EXPECT_U32(px[4 * l], switch_ref(l), "lane %u: case %d", l, (int)(l % 7u) - 1);
    free(px);
}

/* Functions: early returns inside loops, out and inout parameters, nested calls. */
static uint32_t find_ref(uint32_t x, uint32_t *where)
{
    for (uint32_t i = 0; i < 32; i++)
        if ((x >> i) & 1u) {
            *where = i;
            return 1;
        }
    *where = 99;
    return 0;
}

static void bump_ref(uint32_t *a, uint32_t *b, uint32_t by)
{
    *a += by;
    if (*a > 200u)
        return;
    *b = *a * 2u;
}

static uint32_t outer_ref(uint32_t l, uint32_t x)
{
    uint32_t w = 0, a = l, b = 5;
    const uint32_t f = find_ref(x >> (l % 32u), &w);
    bump_ref(&a, &b, w);
    bump_ref(&a, &b, f * 100u);
    return a + b * 1000u + w * 1000000u;
}

SPVH_TEST2(spirv_flow, calls_early_return_out_inout, .disabled = 0)
{
    fill_lanes();
    for (int l = 0; l < 256; l += 5)
        in[l][2] = 0; /* find() finds nothing */
    uint32_t *px = spvh_run_lanes(HEAD "bool find(uint x, out uint where) {\n"
                                       "    for (uint i = 0u; i < 32u; i++)\n"
                                       "        if (((x >> i) & 1u) != 0u) { where = i; return true; }\n"
                                       "    where = 99u;\n"
                                       "    return false;\n"
                                       "}\n"
                                       "void bump(inout uint a, inout uint b, uint by) {\n"
                                       "    a += by;\n"
                                       "    if (a > 200u) return;\n"
                                       "    b = a * 2u;\n"
                                       "}\n"
                                       "uint outer(uint l, uint x) {\n"
                                       "    uint w = 0u, a = l, b = 5u;\n"
                                       "    uint f = find(x >> (l % 32u), w) ? 1u : 0u;\n"
                                       "    bump(a, b, w);\n"
                                       "    bump(a, b, f * 100u);\n"
                                       "    return a + b * 1000u + w * 1000000u;\n"
                                       "}\n"
                                       "void main() {\n"
                                       "    uvec4 g = arg();\n"
                                       "    o = uvec4(outer(g.x, g.z), 0u, 0u, 0u);\n"
                                       "}\n",
                                  in, 256);
    for (uint32_t l = 0; l < 256; l++)
        SPVH_EXPECT_U32(px[4 * l], outer_ref(l, in[l][2]), "lane %u x 0x%x", l, in[l][2]);
    free(px);
}

/* Short-circuit && and ||, and ternaries with side-effect-free but
 * non-trivial operands: glslang emits branches joined by OpPhi. */
SPVH_TEST2(spirv_flow, phis_short_circuit_ternary, .disabled = 0)
{
    fill_lanes();
    uint32_t *px = spvh_run_lanes(HEAD "uint calls = 0u;\n"
                                       "bool probe(uint v, uint bit) { calls += bit; return (v & 1u) != 0u; }\n"
                                       "void main() {\n"
                                       "    uvec4 a = arg(); uint l = a.x, r = a.y;\n"
                                       "    bool c1 = probe(l, 1u) && probe(l >> 1, 2u);\n"
                                       "    bool c2 = probe(l >> 2, 4u) || probe(l >> 3, 8u);\n"
                                       "    bool c3 = (r > 10u && l > 100u) || (r < 3u && (l & 4u) != 0u);\n"
                                       "    uint t = c1 ? (c2 ? r * 7u : r + 1u) : (c3 ? l : l * l);\n"
                                       "    o = uvec4((c1 ? 1u : 0u) | (c2 ? 2u : 0u) | (c3 ? 4u : 0u), calls, t, 0u);\n"
                                       "}\n",
                                  in, 256);
    for (uint32_t l = 0; l < 256; l++) {
        const uint32_t r = in[l][1];
        uint32_t calls = 1;
        int c1 = (l & 1) != 0;
        if (c1) {
            calls += 2;
            c1 = ((l >> 1) & 1) != 0;
        }
        calls += 4;
        int c2 = ((l >> 2) & 1) != 0;
        if (!c2) {
            calls += 8;
            c2 = ((l >> 3) & 1) != 0;
        }
        const int c3 = (r > 10 && l > 100) || (r < 3 && (l & 4) != 0);
        const uint32_t t = c1 ? (c2 ? r * 7 : r + 1) : (c3 ? l : l * l);
        SPVH_EXPECT_U32(px[4 * l], (uint32_t)c1 | (uint32_t)c2 << 1 | (uint32_t)c3 << 2, "lane %u", l);
        SPVH_EXPECT_U32(px[4 * l + 1], calls, "short circuit: which calls ran, lane %u", l);
        SPVH_EXPECT_U32(px[4 * l + 2], t, "lane %u", l);
    }
    free(px);
}

/* OpKill: discarded pixels keep the clear colour; the others their value
 * computed after the discard point. */
SPVH_TEST2(spirv_flow, discard_per_pixel, .disabled = 0)
{
    fill_lanes();
    spvh_draw d;
    memset(&d, 0, sizeof d);
    d.fs = HEAD "void main() {\n"
                "    uvec4 a = arg();\n"
                "    if ((a.x % 3u) == 0u || a.y == 5u) discard;\n"
                "    uint v = 0u;\n"
                "    for (uint i = 0u; i < a.y; i++) v += i;\n"
                "    o = uvec4(v, a.x, 1u, 2u);\n"
                "}\n";
    d.ubo[0] = (spvh_ubo){0, in, sizeof in};
    d.clear_bits[0] = d.clear_bits[1] = d.clear_bits[2] = d.clear_bits[3] = 0xdeadbeefu;
    tr_pass_stats st;
    d.stats = &st;
    uint32_t *px = spvh_render(&d);
    uint32_t discarded = 0;
    for (uint32_t l = 0; l < 256; l++) {
        const int kill = l % 3 == 0 || in[l][1] == 5;
        discarded += (uint32_t)kill;
        const uint32_t n = in[l][1];
        const uint32_t want[4] = {n * (n - 1) / 2, l, 1, 2};
        for (int c = 0; c < 4; c++)
            SPVH_EXPECT_U32(px[4 * l + c], kill ? 0xdeadbeefu : want[c], "lane %u (%s)", l, kill ? "discarded" : "kept");
    }
    cr_expect_eq(st.fragments_discarded, discarded);
    cr_expect_eq(st.fragments_written, 256u - discarded);
    free(px);
}

/* OpTerminateInvocation (GL_EXT_terminate_invocation) and OpDemoteToHelperInvocation:
 * a demoted lane keeps running as a helper, so the derivatives of its quad
 * stay those of every lane's values; helperInvocationEXT() turns true for it. */
SPVH_TEST2(spirv_flow, demote_keeps_derivatives, .disabled = 0)
{
    spvh_draw d;
    memset(&d, 0, sizeof d);
    d.fs = "#version 450\n"
           "#extension GL_EXT_demote_to_helper_invocation : require\n"
           "layout(location = 0) out uvec4 o;\n"
           "void main() {\n"
           "    float x = gl_FragCoord.x, y = gl_FragCoord.y;\n"
           "    float v = x * x * 0.25 + y * 3.0;\n"
           "    if (((int(x) + int(y)) & 1) == 1) demote;\n"
           "    bool h = helperInvocationEXT();\n"
           "    o = uvec4(floatBitsToUint(dFdxFine(v)), floatBitsToUint(dFdyFine(v)), h ? 1u : 0u, 7u);\n"
           "}\n";
    d.clear_bits[0] = d.clear_bits[1] = d.clear_bits[2] = d.clear_bits[3] = 0xdeadbeefu;
    uint32_t *px = spvh_render(&d);
    for (uint32_t y = 0; y < 16; y++)
        for (uint32_t x = 0; x < 16; x++) {
            const uint32_t *p = spvh_px(px, 16, x, y);
#define V(X, Y) (((float)(X) + 0.5f) * ((float)(X) + 0.5f) * 0.25f + ((float)(Y) + 0.5f) * 3.0f)
            if ((x + y) & 1) {
                for (int c = 0; c < 4; c++)
                    SPVH_EXPECT_U32(p[c], 0xdeadbeefu, "(%u, %u) was demoted: nothing written", x, y);
                continue;
            }
            SPVH_EXPECT_F32(p[0], V(x | 1, y) - V(x & ~1u, y), "dFdxFine at (%u, %u)", x, y);
            SPVH_EXPECT_F32(p[1], V(x, y | 1) - V(x, y & ~1u), "dFdyFine at (%u, %u)", x, y);
            SPVH_EXPECT_U32(p[2], 0u, "(%u, %u) is no helper", x, y);
            SPVH_EXPECT_U32(p[3], 7u, "(%u, %u)", x, y);
#undef V
        }
    free(px);
}

SPVH_TEST2(spirv_flow, terminate_invocation, .disabled = 0)
{
    fill_lanes();
    spvh_draw d;
    memset(&d, 0, sizeof d);
    d.fs = "#version 450\n"
           "#extension GL_EXT_terminate_invocation : require\n"
           "layout(location = 0) out uvec4 o;\n"
           "void main() {\n"
           "    ivec2 p = ivec2(gl_FragCoord.xy);\n"
           "    o = uvec4(1u);\n"
           "    if (p.x == p.y) terminateInvocation;\n"
           "    o = uvec4(uint(p.x), uint(p.y), 2u, 3u);\n"
           "}\n";
    uint32_t *px = spvh_render(&d);
    for (uint32_t y = 0; y < 16; y++)
        for (uint32_t x = 0; x < 16; x++) {
            const uint32_t *p = spvh_px(px, 16, x, y);
            const uint32_t want[4] = {x, y, 2, 3};
            for (int c = 0; c < 4; c++)
                SPVH_EXPECT_U32(p[c], x == y ? 0u : want[c], "(%u, %u)", x, y);
        }
    free(px);
}

/* A loop that never ends (its exit needs a uniform value that never comes):
 * the pass ends with TR_ERROR_LIMIT_EXCEEDED naming the entry point, and
 * does not hang. */
SPVH_TEST2(spirv_flow, endless_loop_hits_the_budget, .timeout = 60)
{
    tr_context *ctx = spvh_context(2, 10000);
    cr_expect_eq(tr_context_get_desc(ctx).shader_budget, 10000u);
    const uint32_t stop[4] = {0, 0, 0, 0};
    spvh_draw d;
    memset(&d, 0, sizeof d);
    d.fs = "#version 450\n"
           "layout(location = 0) out uvec4 o;\n"
           "layout(binding = 0) uniform U { uint stop; } u;\n"
           "void main() {\n"
           "    uint i = 0u;\n"
           "    while (true) { i++; if (u.stop == 1u) break; }\n"
           "    o = uvec4(i);\n"
           "}\n";
    d.ubo[0] = (spvh_ubo){0, stop, sizeof stop};
    const tr_result r = spvh_render_ctx(ctx, &d, NULL);
    cr_expect(d.draw_result == TR_OK || d.draw_result == TR_ERROR_LIMIT_EXCEEDED, "draw: %s",
              tr_result_string(d.draw_result));
    cr_expect_eq(r, TR_ERROR_LIMIT_EXCEEDED, "end pass: %s (%s)", tr_result_string(r), d.end_msg);
    cr_expect(strstr(d.end_msg, "main") != NULL, "message names the entry point: \"%s\"", d.end_msg);
    /* the context stays usable: the same shader with the exit taken */
    const uint32_t go[4] = {1, 0, 0, 0};
    d.ubo[0] = (spvh_ubo){0, go, sizeof go};
    uint32_t *px = calloc(256, 16);
    TRT_OK(spvh_render_ctx(ctx, &d, px));
    SPVH_EXPECT_U32(px[0], 1u, "one iteration");
    free(px);
    tr_context_destroy(ctx);
}

/* The same in a vertex shader. */
SPVH_TEST2(spirv_flow, endless_vertex_loop_hits_the_budget, .timeout = 60)
{
    tr_context *ctx = spvh_context(1, 10000);
    const uint32_t stop[4] = {0, 0, 0, 0};
    spvh_draw d;
    memset(&d, 0, sizeof d);
    d.vs = "#version 450\n"
           "layout(binding = 0) uniform U { uint stop; } u;\n"
           "void main() {\n"
           "    float x = 0.0;\n"
           "    while (true) { x += 1.0; if (u.stop == 1u) break; }\n"
           "    vec2 p = vec2(float((gl_VertexIndex & 1) * 4) - 1.0, float((gl_VertexIndex & 2) * 2) - 1.0);\n"
           "    gl_Position = vec4(p, 0.0, x);\n"
           "}\n";
    d.fs = "#version 450\nlayout(location = 0) out uvec4 o;\nvoid main() { o = uvec4(1u); }\n";
    d.ubo[0] = (spvh_ubo){0, stop, sizeof stop};
    const tr_result r = spvh_render_ctx(ctx, &d, NULL);
    cr_expect(d.draw_result == TR_OK || d.draw_result == TR_ERROR_LIMIT_EXCEEDED, "draw: %s",
              tr_result_string(d.draw_result));
    cr_expect_eq(r, TR_ERROR_LIMIT_EXCEEDED, "end pass: %s (%s)", tr_result_string(r), d.end_msg);
    tr_context_destroy(ctx);
}

/* A long but finite loop under the default budget runs to its end. */
SPVH_TEST2(spirv_flow, long_finite_loop_under_default_budget, .disabled = 0)
{
    fill_lanes();
    uint32_t *px = spvh_run_lanes(HEAD "void main() {\n"
                                       "    uvec4 a = arg(); uint h = a.z;\n"
                                       "    for (uint i = 0u; i < 2000u + a.x; i++) h = h * 1664525u + 1013904223u;\n"
                                       "    o = uvec4(h, 0u, 0u, 0u);\n"
                                       "}\n",
                                  in, 256);
    for (uint32_t l = 0; l < 256; l++) {
        uint32_t h = in[l][2];
        for (uint32_t i = 0; i < 2000 + l; i++)
            h = h * 1664525u + 1013904223u;
        SPVH_EXPECT_U32(px[4 * l], h, "lane %u", l);
    }
    free(px);
}

/* Only some lanes loop forever (inside a function): the budget still stops
 * the pass; the lanes that finish do not hide the one that does not. */
Test(spirv_flow, one_lane_endless_in_a_function, .timeout = 60)
{
    tr_context *ctx = spvh_context(2, 10000);
    spvh_draw d;
    memset(&d, 0, sizeof d);
    d.fs = "#version 450\n"
           "layout(location = 0) out uvec4 o;\n"
           "uint spin(uint n) { uint i = 0u; while (i != n) { i += 2u; } return i; }\n"
           "void main() {\n"
           "    ivec2 p = ivec2(gl_FragCoord.xy);\n"
           "    uint n = (p.x == 13 && p.y == 9) ? 7u : 8u;\n" /* odd: never reached */
           "    o = uvec4(spin(n));\n"
           "}\n";
    const tr_result r = spvh_render_ctx(ctx, &d, NULL);
    cr_expect_eq(r, TR_ERROR_LIMIT_EXCEEDED, "end pass: %s (%s)", tr_result_string(r), d.end_msg);
    tr_context_destroy(ctx);
}
