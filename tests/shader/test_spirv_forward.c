/* Outputs that are plain copies (src/shader/spirv_forward.c): what the pass
 * forwards, and that a program run with it gives what the same program
 * gives without it -- the outputs' bits and the instruction budget's
 * verdict at every budget around the threshold.  Programs are translated
 * and run here directly (tr__spv_translate, tr__spv_run_fragment), so the
 * two ways can be compared on one block; the shapes the pass must leave
 * alone (an output written twice, read back, written in a branch) are
 * drawn through the public API and checked lane by lane. */
#include "spv_harness.h"

#include <spirv/unified1/spirv.h>

#include "shader/spirv_internal.h"
#include "shader/spirv_prog.h"

/* The fragment program of GLSL src's "main". */
static tr__spv_program *translate_fs(tr_context *ctx, const char *src)
{
    size_t nw = 0;
    uint32_t *code = spvh_compile(src, shaderc_fragment_shader, &nw);
    cr_assert(code);
    tr__spv_module m;
    memset(&m, 0, sizeof m);
    TRT_OK(tr__spv_parse(ctx, "test", code, nw, &m));
    tr__spv_program *p = NULL;
    TRT_OK(tr__spv_translate(ctx, "test", &m, SpvExecutionModelFragment, NULL, &p));
    tr__spv_free(ctx, &m);
    free(code);
    return p;
}

/* A full block of 64 lanes with varyings 0 and 1 set from a seed. */
static void fill_block(tr_fs_block *b, uint32_t seed)
{
    memset(b, 0, sizeof *b);
    b->count = TR_FS_LANES;
    b->live = ~0ull;
    trt_rng rng = {seed};
    for (uint32_t v = 0; v < 2; v++)
        for (uint32_t c = 0; c < 4; c++)
            for (uint32_t l = 0; l < TR_FS_LANES; l++)
                b->varyings[v][c][l] = (float)trt_rand_range(&rng, -4.0, 4.0);
}

/* Runs p over a fresh block at a budget: the result and colour 0's bits. */
static tr_result run_at(const tr__spv_program *p, uint32_t budget, uint32_t seed, uint32_t out[4][TR_FS_LANES])
{
    static tr_fs_block b;
    fill_block(&b, seed);
    tr__spv_resources res;
    memset(&res, 0, sizeof res);
    res.budget = budget;
    res.samples = 1;
    const tr_result r = tr__spv_run_fragment(p, &res, &b);
    memcpy(out, b.color[0], sizeof(float) * 4 * TR_FS_LANES);
    return r;
}

/* The smallest budget at which p runs (searched up to 64). */
static uint32_t threshold(const tr__spv_program *p)
{
    uint32_t out[4][TR_FS_LANES];
    for (uint32_t budget = 0; budget < 64; budget++)
        if (run_at(p, budget, 1, out) == TR_OK)
            return budget;
    return UINT32_MAX;
}

Test(spirv_forward, pass_through_runs_nothing_and_counts_the_same)
{
    tr_context *ctx = trt_context(1);
    tr__spv_program *p = translate_fs(ctx, "#version 450\n"
                                           "layout(location = 1) in vec4 v;\n"
                                           "layout(location = 0) out vec4 o;\n"
                                           "void main() { o = v; }\n");
    cr_expect(p->straight, "a pass-through shader has nothing left to run");
    for (uint32_t i = 0; i < p->output_count; i++) {
        cr_expect_neq(p->outputs[i].source, 0u, "output %u copies its input's array", i);
        if (p->outputs[i].source)
            cr_expect_eq(p->inputs[p->outputs[i].source - 1].comp, p->outputs[i].comp);
    }
    for (uint32_t i = 0; i < p->input_count; i++)
        cr_expect(p->inputs[i].unread, "input %u is not filled", i);
    /* The same program run the long way: same bits, same budget verdicts. */
    tr__spv_program slow = *p;
    slow.straight = false;
    const uint32_t t = threshold(p);
    cr_expect_eq(t, threshold(&slow), "the budget's threshold");
    cr_expect_eq((uint64_t)t, p->straight_cost);
    cr_expect_gt(t, 0u);
    uint32_t a[4][TR_FS_LANES], b[4][TR_FS_LANES];
    cr_expect_eq(run_at(p, t - 1, 7, a), TR_ERROR_LIMIT_EXCEEDED);
    cr_expect_eq(run_at(&slow, t - 1, 7, b), TR_ERROR_LIMIT_EXCEEDED);
    TRT_OK(run_at(p, t, 7, a));
    TRT_OK(run_at(&slow, t, 7, b));
    static tr_fs_block want;
    fill_block(&want, 7);
    cr_expect(memcmp(a, b, sizeof a) == 0, "the two ways differ");
    cr_expect(memcmp(a, want.varyings[1], sizeof a) == 0, "o is not v");
    tr__spv_program_free(ctx, p);
    tr_context_destroy(ctx);
}

/* Some outputs forwarded, others computed: the program still runs, and the
 * forwarded one reads the block directly. */
Test(spirv_forward, mixed_outputs)
{
    tr_context *ctx = trt_context(1);
    tr__spv_program *p = translate_fs(ctx, "#version 450\n"
                                           "layout(location = 0) in vec4 u;\n"
                                           "layout(location = 1) in vec4 v;\n"
                                           "layout(location = 0) out vec4 o;\n"
                                           "layout(location = 1) out vec4 q;\n"
                                           "void main() { o = u; q = u * v; }\n");
    cr_expect(!p->straight);
    uint32_t forwarded = 0;
    for (uint32_t i = 0; i < p->output_count; i++)
        forwarded += p->outputs[i].source != 0;
    cr_expect_eq(forwarded, 4u, "o's four components");
    static tr_fs_block b;
    fill_block(&b, 3);
    tr__spv_resources res;
    memset(&res, 0, sizeof res);
    res.budget = 1000;
    res.samples = 1;
    TRT_OK(tr__spv_run_fragment(p, &res, &b));
    for (uint32_t c = 0; c < 4; c++)
        for (uint32_t l = 0; l < TR_FS_LANES; l++) {
            cr_expect_eq(b.color[0][c][l], b.varyings[0][c][l]);
            cr_expect_eq(b.color[1][c][l], b.varyings[0][c][l] * b.varyings[1][c][l]);
        }
    tr__spv_program_free(ctx, p);
    tr_context_destroy(ctx);
}

/* Shapes the pass must leave as they are, drawn and checked per lane: an
 * output overwritten in a branch, written only in a branch (the other
 * lanes keep the variable's zero), read back, or copying a variable that
 * changes after the copy. */
static const uint32_t (*lanes(void))[4]
{
    static uint32_t in[256][4];
    for (uint32_t l = 0; l < 256; l++)
        for (uint32_t c = 0; c < 4; c++)
            in[l][c] = l * 4 + c;
    return (const uint32_t(*)[4])in;
}

Test(spirv_forward, shapes_left_alone)
{
    const uint32_t(*in)[4] = lanes();
    uint32_t *px = spvh_run_lanes(SPVH_LANES_HEAD(256) "void main() {\n"
                                                       "    uvec4 a = arg();\n"
                                                       "    o = a;\n"
                                                       "    if ((a.x & 8u) != 0u) o = uvec4(7u);\n"
                                                       "}\n",
                                  in, 256);
    for (uint32_t l = 0; l < 256; l++)
        for (uint32_t c = 0; c < 4; c++)
            SPVH_EXPECT_U32(px[4 * l + c], (in[l][0] & 8u) ? 7u : in[l][c], "branch: lane %u", l);
    free(px);
    px = spvh_run_lanes(SPVH_LANES_HEAD(256) "void main() {\n"
                                             "    uvec4 a = arg();\n"
                                             "    if ((a.x & 4u) != 0u) o = a;\n"
                                             "}\n",
                        in, 256);
    for (uint32_t l = 0; l < 256; l++)
        for (uint32_t c = 0; c < 4; c++)
            SPVH_EXPECT_U32(px[4 * l + c], (in[l][0] & 4u) ? in[l][c] : 0u, "only in a branch: lane %u", l);
    free(px);
    px = spvh_run_lanes(SPVH_LANES_HEAD(256) "void main() {\n"
                                             "    o = arg();\n"
                                             "    o.x = o.y + o.w;\n"
                                             "}\n",
                        in, 256);
    for (uint32_t l = 0; l < 256; l++)
        SPVH_EXPECT_U32(px[4 * l], in[l][1] + in[l][3], "read back: lane %u", l);
    free(px);
    px = spvh_run_lanes(SPVH_LANES_HEAD(256) "void main() {\n"
                                             "    uvec4 t = arg();\n"
                                             "    o = t;\n"
                                             "    for (uint i = 0u; i < (t.x & 3u); i++) t += 1u;\n"
                                             "    o.y = t.y;\n"
                                             "}\n",
                        in, 256);
    for (uint32_t l = 0; l < 256; l++) {
        SPVH_EXPECT_U32(px[4 * l], in[l][0], "changed after the copy: lane %u x", l);
        SPVH_EXPECT_U32(px[4 * l + 1], in[l][1] + (in[l][0] & 3u), "changed after the copy: lane %u y", l);
    }
    free(px);
}
