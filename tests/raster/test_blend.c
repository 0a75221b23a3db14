/* Blending and fragment outputs: every blend factor and op on float and
 * UNORM targets (expected values computed here, in the same order of
 * operations: result = src*srcfactor OP dst*dstfactor), colour write masks,
 * multiple attachments, sRGB, dual-source, discard and shader-written depth,
 * early versus late depth tests. */
#include "trtest.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { BW = 32, BH = 32 };

/* ---- the test's own blender --------------------------------------------------------------- */

typedef struct blend_in {
    float s[4], s1[4], d[4], c[4];
} blend_in;

static float factor(tr_blend_factor f, int ch, const blend_in *in, int is_src)
{
    const float *S = in->s, *S1 = in->s1, *D = in->d, *C = in->c;
    switch (f) {
    case TR_BLEND_DEFAULT: return is_src ? 1.0f : 0.0f;
    case TR_BLEND_ZERO: return 0.0f;
    case TR_BLEND_ONE: return 1.0f;
    case TR_BLEND_SRC_COLOR: return S[ch];
    case TR_BLEND_ONE_MINUS_SRC_COLOR: return 1.0f - S[ch];
    case TR_BLEND_DST_COLOR: return D[ch];
    case TR_BLEND_ONE_MINUS_DST_COLOR: return 1.0f - D[ch];
    case TR_BLEND_SRC_ALPHA: return S[3];
    case TR_BLEND_ONE_MINUS_SRC_ALPHA: return 1.0f - S[3];
    case TR_BLEND_DST_ALPHA: return D[3];
    case TR_BLEND_ONE_MINUS_DST_ALPHA: return 1.0f - D[3];
    case TR_BLEND_CONSTANT_COLOR: return C[ch];
    case TR_BLEND_ONE_MINUS_CONSTANT_COLOR: return 1.0f - C[ch];
    case TR_BLEND_CONSTANT_ALPHA: return C[3];
    case TR_BLEND_ONE_MINUS_CONSTANT_ALPHA: return 1.0f - C[3];
    case TR_BLEND_SRC_ALPHA_SATURATE: {
        if (ch == 3)
            return 1.0f;
        float a = 1.0f - D[3];
        return S[3] < a ? S[3] : a;
    }
    case TR_BLEND_SRC1_COLOR: return S1[ch];
    case TR_BLEND_ONE_MINUS_SRC1_COLOR: return 1.0f - S1[ch];
    case TR_BLEND_SRC1_ALPHA: return S1[3];
    case TR_BLEND_ONE_MINUS_SRC1_ALPHA: return 1.0f - S1[3];
    }
    return NAN;
}

static float blend_channel(const tr_blend_state *b, int ch, const blend_in *in)
{
    if (!b->enable)
        return in->s[ch];
    tr_blend_factor sf = ch < 3 ? b->src_color : b->src_alpha;
    tr_blend_factor df = ch < 3 ? b->dst_color : b->dst_alpha;
    tr_blend_op op = ch < 3 ? b->color_op : b->alpha_op;
    float s = in->s[ch], d = in->d[ch];
    float fs = factor(sf, ch, in, 1), fd = factor(df, ch, in, 0);
    float a = s * fs, c = d * fd;
    switch (op) {
    case TR_BLEND_OP_ADD: return a + c;
    case TR_BLEND_OP_SUBTRACT: return a - c;
    case TR_BLEND_OP_REVERSE_SUBTRACT: return c - a;
    case TR_BLEND_OP_MIN: return s < d ? s : d;
    case TR_BLEND_OP_MAX: return s > d ? s : d;
    }
    return NAN;
}

static uint32_t mask_bits(uint32_t m)
{
    return m == 0 ? 0xFu : (m & TR_COLOR_MASK_NONE) ? 0u : (m & 0xFu);
}

static float clamp01(float x)
{
    return x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x;
}

static uint8_t to_unorm8(float x)
{
    return (uint8_t)floorf(clamp01(x) * 255.0f + 0.5f);
}

/* ---- drawing: one pixel per blend state ------------------------------------------------------ */

/* Draws states[i] at pixel (i % BW, i / BW) of a BW x BH target of `format`
 * cleared to `dst`; every draw outputs s (colour 0) and s1 (colour 1). */
static void run_states(tr_format format, const tr_blend_state *states, uint32_t n,
                       const float s[4], const float s1[4], const float dst[4],
                       const float constants[4], void *out)
{
    cr_assert_leq(n, BW * BH);
    tr_context *ctx = trt_context(2);
    tr_image *img = trt_image(ctx, format, BW, BH);
    tr_pipeline **pipes = malloc(sizeof *pipes * n);
    cr_assert_not_null(pipes);
    for (uint32_t i = 0; i < n; i++) {
        tr_pipeline_desc pd = {0};
        pd.fragment_shader = trt_fs_uniform;
        pd.blend[0] = states[i];
        pipes[i] = trt_pipeline(ctx, &pd);
    }
    trt_begin_color(ctx, img, dst);
    if (constants)
        TRT_OK(tr_cmd_set_blend_constants(ctx, constants));
    trt_uniforms u;
    memset(&u, 0, sizeof u);
    memcpy(u.color[0], s, sizeof u.color[0]);
    memcpy(u.color[1], s1, sizeof u.color[1]);
    for (uint32_t i = 0; i < n; i++) {
        float x = (float)(i % BW), y = (float)(i / BW);
        trt_vertex v[6] = {
            trt_vpx(x, y, 0.5f, BW, BH, NULL), trt_vpx(x + 1, y, 0.5f, BW, BH, NULL),
            trt_vpx(x + 1, y + 1, 0.5f, BW, BH, NULL), trt_vpx(x, y, 0.5f, BW, BH, NULL),
            trt_vpx(x + 1, y + 1, 0.5f, BW, BH, NULL), trt_vpx(x, y + 1, 0.5f, BW, BH, NULL),
        };
        TRT_OK(tr_cmd_bind_pipeline(ctx, pipes[i]));
        trt_draw_u(ctx, &u, v, 6);
    }
    tr_pass_stats st;
    TRT_OK(tr_cmd_end_render_pass(ctx, &st));
    cr_expect_eq(st.fragments_written, n, "fragments_written %llu, want %u",
                 (unsigned long long)st.fragments_written, n);
    trt_download(img, 0, 0, TR_ASPECT_DEFAULT, out);
    free(pipes);
    tr_context_destroy(ctx);
}

static const char *const factor_names[] = {
    "DEFAULT", "ZERO", "ONE", "SRC_COLOR", "1-SRC_COLOR", "DST_COLOR", "1-DST_COLOR",
    "SRC_ALPHA", "1-SRC_ALPHA", "DST_ALPHA", "1-DST_ALPHA", "CONST_COLOR", "1-CONST_COLOR",
    "CONST_ALPHA", "1-CONST_ALPHA", "SRC_ALPHA_SAT", "SRC1_COLOR", "1-SRC1_COLOR",
    "SRC1_ALPHA", "1-SRC1_ALPHA"};
static const char *const bop_names[] = {"ADD", "SUBTRACT", "REV_SUBTRACT", "MIN", "MAX"};

#define NFACTORS 20 /* DEFAULT .. ONE_MINUS_SRC1_ALPHA */

/* Every (src factor, dst factor) pair with `op`, colour and alpha alike,
 * plus every op with separate alpha factors. */
static uint32_t all_states(tr_blend_op op, tr_blend_state *st)
{
    uint32_t n = 0;
    for (int sf = 0; sf < NFACTORS; sf++)
        for (int df = 0; df < NFACTORS; df++) {
            tr_blend_state b;
            memset(&b, 0, sizeof b);
            b.enable = 1;
            b.src_color = b.src_alpha = (tr_blend_factor)sf;
            b.dst_color = b.dst_alpha = (tr_blend_factor)df;
            b.color_op = b.alpha_op = op;
            st[n++] = b;
        }
    return n;
}

static void check_float(const tr_blend_state *states, uint32_t n, const blend_in *in,
                        const float *px)
{
    for (uint32_t i = 0; i < n; i++)
        for (int ch = 0; ch < 4; ch++) {
            float want = blend_channel(&states[i], ch, in);
            float got = px[i * 4 + ch];
            cr_assert(got == want || (isnan(got) && isnan(want)),
                      "src %s dst %s op %s (alpha: %s %s %s), channel %d: got %.9g, want %.9g",
                      factor_names[states[i].src_color], factor_names[states[i].dst_color],
                      bop_names[states[i].color_op], factor_names[states[i].src_alpha],
                      factor_names[states[i].dst_alpha], bop_names[states[i].alpha_op], ch, got,
                      want);
        }
}

static const blend_in float_in = {
    {0.3f, 0.65f, 0.9f, 0.45f},   /* s */
    {0.15f, 0.55f, 0.8f, 0.35f},  /* s1 */
    {0.25f, 0.5f, 0.125f, 0.6f},  /* d (exact in every format) */
    {0.1f, 0.35f, 0.7f, 0.2f},    /* constants */
};

Test(raster, blend_every_factor_pair_add_float)
{
    static tr_blend_state st[NFACTORS * NFACTORS];
    uint32_t n = all_states(TR_BLEND_OP_ADD, st);
    static float px[BW * BH * 4];
    const blend_in *in = &float_in;
    run_states(TR_FORMAT_R32G32B32A32_SFLOAT, st, n, in->s, in->s1, in->d, in->c, px);
    check_float(st, n, in, px);
}

Test(raster, blend_every_factor_pair_subtract_float)
{
    static tr_blend_state st[NFACTORS * NFACTORS];
    static float px[BW * BH * 4];
    const blend_in *in = &float_in;
    for (int op = TR_BLEND_OP_SUBTRACT; op <= TR_BLEND_OP_REVERSE_SUBTRACT; op++) {
        uint32_t n = all_states((tr_blend_op)op, st);
        run_states(TR_FORMAT_R32G32B32A32_SFLOAT, st, n, in->s, in->s1, in->d, in->c, px);
        check_float(st, n, in, px);
    }
}

Test(raster, blend_min_max_ignore_factors_float)
{
    static tr_blend_state st[NFACTORS * NFACTORS];
    static float px[BW * BH * 4];
    /* source above and below the destination in different channels */
    const blend_in in = {{0.3f, 0.75f, 0.0625f, 0.9f}, {0.5f, 0.5f, 0.5f, 0.5f},
                         {0.25f, 0.8f, 0.125f, 0.6f}, {0.1f, 0.2f, 0.3f, 0.4f}};
    for (int op = TR_BLEND_OP_MIN; op <= TR_BLEND_OP_MAX; op++) {
        uint32_t n = all_states((tr_blend_op)op, st);
        run_states(TR_FORMAT_R32G32B32A32_SFLOAT, st, n, in.s, in.s1, in.d, in.c, px);
        check_float(st, n, &in, px);
    }
}

Test(raster, blend_separate_alpha_and_mixed_ops_float)
{
    /* Colour and alpha with different factors and ops, pseudo-randomly. */
    enum { N = 600 };
    static tr_blend_state st[N];
    static float px[BW * BH * 4];
    trt_rng rng = {99};
    for (int i = 0; i < N; i++) {
        tr_blend_state b;
        memset(&b, 0, sizeof b);
        b.enable = 1;
        b.src_color = (tr_blend_factor)(trt_rand_u32(&rng) % NFACTORS);
        b.dst_color = (tr_blend_factor)(trt_rand_u32(&rng) % NFACTORS);
        b.src_alpha = (tr_blend_factor)(trt_rand_u32(&rng) % NFACTORS);
        b.dst_alpha = (tr_blend_factor)(trt_rand_u32(&rng) % NFACTORS);
        b.color_op = (tr_blend_op)(trt_rand_u32(&rng) % 5);
        b.alpha_op = (tr_blend_op)(trt_rand_u32(&rng) % 5);
        st[i] = b;
    }
    /* values outside [0,1]: float targets do not clamp */
    const blend_in in = {{1.5f, -0.25f, 0.75f, 0.375f}, {-0.5f, 2.0f, 0.25f, 0.625f},
                         {0.5f, 3.0f, -1.0f, 0.8125f}, {0.0625f, 0.5f, 0.875f, 0.3125f}};
    run_states(TR_FORMAT_R32G32B32A32_SFLOAT, st, N, in.s, in.s1, in.d, in.c, px);
    check_float(st, N, &in, px);
}

Test(raster, blend_disabled_writes_source_unchanged_float)
{
    tr_blend_state st[2];
    memset(st, 0, sizeof st);
    st[1].src_color = TR_BLEND_ZERO; /* factors are ignored when disabled */
    st[1].dst_color = TR_BLEND_ONE;
    static float px[BW * BH * 4];
    const float s[4] = {-2.5f, 0.1f, 1e10f, 7.0f}, s1[4] = {0}, d[4] = {1, 1, 1, 1};
    run_states(TR_FORMAT_R32G32B32A32_SFLOAT, st, 2, s, s1, d, NULL, px);
    for (int i = 0; i < 2; i++)
        for (int ch = 0; ch < 4; ch++)
            cr_assert_eq(px[i * 4 + ch], s[ch], "state %d channel %d: %g", i, ch, px[i * 4 + ch]);
    /* the rest keeps the clear colour */
    for (int ch = 0; ch < 4; ch++)
        cr_assert_eq(px[2 * 4 + ch], 1.0f);
}

/* ---- UNORM8 ------------------------------------------------------------------------------------- */

static void check_unorm(const tr_blend_state *states, uint32_t n, const blend_in *raw,
                        const uint8_t *px, const char *what)
{
    /* UNORM: sources, constants and factors are clamped to [0,1]; the
     * destination comes back from its byte. */
    blend_in in = *raw;
    uint8_t dbytes[4];
    for (int ch = 0; ch < 4; ch++) {
        in.s[ch] = clamp01(raw->s[ch]);
        in.s1[ch] = clamp01(raw->s1[ch]);
        in.c[ch] = clamp01(raw->c[ch]);
        dbytes[ch] = to_unorm8(raw->d[ch]);
        in.d[ch] = (float)dbytes[ch] / 255.0f;
    }
    for (uint32_t i = 0; i < n; i++)
        for (int ch = 0; ch < 4; ch++) {
            float r = clamp01(blend_channel(&states[i], ch, &in)) * 255.0f;
            uint8_t got = px[i * 4 + ch];
            uint8_t want = (uint8_t)floorf(r + 0.5f);
            /* a result within 1e-3 of a rounding tie may go either way */
            int tie = fabsf(r - floorf(r) - 0.5f) < 1e-3f;
            int ok = got == want || (tie && (got == (uint8_t)floorf(r) || got == (uint8_t)ceilf(r)));
            cr_assert(ok, "%s: src %s dst %s op %s, channel %d: got %u, want %u (%.5f)", what,
                      factor_names[states[i].src_color], factor_names[states[i].dst_color],
                      bop_names[states[i].color_op], ch, got, want, r);
        }
}

static const blend_in unorm_in = {
    {0.3f, 0.65f, 0.9f, 0.45f},
    {0.15f, 0.55f, 0.8f, 0.35f},
    {0.2f, 0.4f, 0.6f, 0.8f},     /* bytes 51, 102, 153, 204 */
    {0.1f, 0.35f, 0.7f, 0.2f},
};

Test(raster, blend_every_factor_pair_and_op_unorm8)
{
    static tr_blend_state st[NFACTORS * NFACTORS];
    static uint8_t px[BW * BH * 4];
    for (int op = 0; op < 5; op++) {
        uint32_t n = all_states((tr_blend_op)op, st);
        run_states(TR_FORMAT_R8G8B8A8_UNORM, st, n, unorm_in.s, unorm_in.s1, unorm_in.d,
                   unorm_in.c, px);
        check_unorm(st, n, &unorm_in, px, bop_names[op]);
    }
}

Test(raster, unorm8_sources_and_constants_are_clamped)
{
    static tr_blend_state st[NFACTORS * NFACTORS];
    static uint8_t px[BW * BH * 4];
    const blend_in in = {{1.5f, -0.5f, 0.25f, 1.25f}, {-1.0f, 0.5f, 2.0f, -0.75f},
                         {0.2f, 0.4f, 0.6f, 0.8f}, {0.1f, 0.35f, 0.7f, 0.2f}};
    for (int op = 0; op < 3; op++) {
        uint32_t n = all_states((tr_blend_op)op, st);
        run_states(TR_FORMAT_R8G8B8A8_UNORM, st, n, in.s, in.s1, in.d, in.c, px);
        check_unorm(st, n, &in, px, "clamped sources");
    }
}

Test(raster, unorm8_plain_write_rounds_to_nearest)
{
    /* No blending: round(clamp(x) * 255). */
    static const float vals[][4] = {
        {0.0f, 1.0f, 0.5f, 0.25f},          /* 0 255 128 64 (127.5 -> tie, 63.75) */
        {1.0f / 255, 2.5f / 255 - 1e-4f, 2.5f / 255 + 1e-4f, 254.4f / 255},
        {-3.0f, 7.0f, 0.999f, 0.001f},
    };
    static const uint8_t want[][4] = {{0, 255, 128, 64}, {1, 2, 3, 254}, {0, 255, 255, 0}};
    for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
        tr_blend_state st;
        memset(&st, 0, sizeof st);
        static uint8_t px[BW * BH * 4];
        const float z[4] = {0};
        run_states(TR_FORMAT_R8G8B8A8_UNORM, &st, 1, vals[i], z, z, NULL, px);
        for (int ch = 0; ch < 4; ch++) {
            if (i == 0 && ch == 2) /* 127.5: either neighbour is round-to-nearest */
                cr_assert(px[ch] == 127 || px[ch] == 128);
            else
                cr_assert_eq(px[ch], want[i][ch], "value %g: got %u, want %u", vals[i][ch], px[ch],
                             want[i][ch]);
        }
    }
}

/* ---- write masks ------------------------------------------------------------------------------ */

Test(raster, color_write_masks)
{
    /* masks 0 (all), every subset 1..15, and TR_COLOR_MASK_NONE; without and
     * with additive blending. */
    tr_blend_state st[34];
    memset(st, 0, sizeof st);
    uint32_t n = 0;
    for (int blend = 0; blend < 2; blend++)
        for (uint32_t m = 0; m <= 16; m++) {
            st[n].write_mask = m == 16 ? TR_COLOR_MASK_NONE : m;
            if (blend) {
                st[n].enable = 1;
                st[n].src_color = st[n].dst_color = TR_BLEND_ONE;
                st[n].src_alpha = st[n].dst_alpha = TR_BLEND_ONE;
            }
            n++;
        }
    static uint8_t px[BW * BH * 4];
    const float s[4] = {0.2f, 0.4f, 0.6f, 0.8f}, z[4] = {0};
    const float d[4] = {0.4f, 0.2f, 0.2f, 0.0f}; /* 102, 51, 51, 0 */
    run_states(TR_FORMAT_R8G8B8A8_UNORM, st, n, s, z, d, NULL, px);
    static const uint8_t sb[4] = {51, 102, 153, 204}, db[4] = {102, 51, 51, 0};
    for (uint32_t i = 0; i < n; i++) {
        uint32_t bits = mask_bits(st[i].write_mask);
        for (int ch = 0; ch < 4; ch++) {
            uint8_t v = st[i].enable ? (uint8_t)(sb[ch] + db[ch]) : sb[ch];
            uint8_t want = (bits >> ch) & 1 ? v : db[ch];
            cr_assert_eq(px[i * 4 + ch], want, "mask 0x%x blend %d channel %d: got %u, want %u",
                         st[i].write_mask, st[i].enable, ch, px[i * 4 + ch], want);
        }
    }
}

/* ---- other formats ---------------------------------------------------------------------------- */

static uint16_t half_bits(const void *p, int ch)
{
    uint16_t h;
    memcpy(&h, (const uint8_t *)p + ch * 2, 2);
    return h;
}

Test(raster, blend_rgba16f)
{
    /* dst (0.25, 0.5, -2, 1) + src (0.5, 0.125, 1, 0.5) with ONE/ONE:
     * (0.75, 0.625, -1, 1.5) exactly, as IEEE halves. */
    tr_blend_state st;
    memset(&st, 0, sizeof st);
    st.enable = 1;
    st.src_color = st.dst_color = st.src_alpha = st.dst_alpha = TR_BLEND_ONE;
    static uint16_t px[BW * BH * 4];
    const float s[4] = {0.5f, 0.125f, 1.0f, 0.5f}, d[4] = {0.25f, 0.5f, -2.0f, 1.0f}, z[4] = {0};
    run_states(TR_FORMAT_R16G16B16A16_SFLOAT, &st, 1, s, z, d, NULL, px);
    static const uint16_t want[4] = {0x3A00, 0x3900, 0xBC00, 0x3E00};
    for (int ch = 0; ch < 4; ch++)
        cr_assert_eq(half_bits(px, ch), want[ch], "channel %d: 0x%04x, want 0x%04x", ch,
                     half_bits(px, ch), want[ch]);
    /* the clear colour elsewhere */
    static const uint16_t clear[4] = {0x3400, 0x3800, 0xC000, 0x3C00};
    for (int ch = 0; ch < 4; ch++)
        cr_assert_eq(half_bits(px + 4, ch), clear[ch]);
}

static double srgb_decode(double c)
{
    return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

static double srgb_encode(double l)
{
    return l <= 0.0031308 ? l * 12.92 : 1.055 * pow(l, 1.0 / 2.4) - 0.055;
}

Test(raster, srgb_blends_in_linear_space)
{
    /* Cleared to linear 0.5 (stored encoded); additive 0.25, then
     * SRC_ALPHA/ONE_MINUS_SRC_ALPHA with alpha 0.5 over it.  Alpha is linear. */
    tr_blend_state st[3];
    memset(st, 0, sizeof st);
    st[1].enable = 1;
    st[1].src_color = st[1].dst_color = st[1].src_alpha = st[1].dst_alpha = TR_BLEND_ONE;
    st[2].enable = 1;
    st[2].src_color = TR_BLEND_SRC_ALPHA;
    st[2].dst_color = TR_BLEND_ONE_MINUS_SRC_ALPHA;
    st[2].src_alpha = TR_BLEND_ONE;
    st[2].dst_alpha = TR_BLEND_ZERO;
    static uint8_t px[BW * BH * 4];
    const float s[4] = {0.25f, 0.1f, 0.9f, 0.5f}, z[4] = {0}, d[4] = {0.5f, 0.5f, 0.5f, 0.6f};
    run_states(TR_FORMAT_R8G8B8A8_SRGB, st, 3, s, z, d, NULL, px);
    /* the clear, beyond the drawn pixels */
    uint8_t dbyte = (uint8_t)floor(srgb_encode(0.5) * 255 + 0.5); /* 187.5 -> 188 */
    cr_assert_eq(px[3 * 4 + 0], dbyte, "clear: %u, want %u", px[3 * 4 + 0], dbyte);
    cr_assert_eq(px[3 * 4 + 3], 153, "alpha is linear: %u", px[3 * 4 + 3]);
    double dl = srgb_decode(dbyte / 255.0);
    for (int i = 0; i < 3; i++)
        for (int ch = 0; ch < 3; ch++) {
            double lin = i == 0 ? s[ch] : i == 1 ? s[ch] + dl : s[ch] * 0.5 + dl * 0.5;
            double e = srgb_encode(lin < 0 ? 0 : lin > 1 ? 1 : lin) * 255;
            int want = (int)floor(e + 0.5);
            int got = px[i * 4 + ch];
            int tie = fabs(e - floor(e) - 0.5) < 0.02;
            cr_assert(got == want || (tie && abs(got - want) <= 1),
                      "state %d channel %d: got %d, want %d (%.3f)", i, ch, got, want, e);
        }
}

Test(raster, missing_destination_alpha_reads_as_one)
{
    /* R32_SFLOAT has no alpha: Vulkan treats destination alpha as 1, so
     * ONE_MINUS_DST_ALPHA is 0 and DST_ALPHA is 1.  result = s*0 + d*1. */
    enum { W = 8, H = 8 };
    tr_context *ctx = trt_context(1);
    tr_image *img = trt_image(ctx, TR_FORMAT_R32_SFLOAT, W, H);
    tr_pipeline_desc pd = {0};
    pd.fragment_shader = trt_fs_uniform;
    pd.blend[0].enable = 1;
    pd.blend[0].src_color = TR_BLEND_ONE_MINUS_DST_ALPHA;
    pd.blend[0].dst_color = TR_BLEND_DST_ALPHA;
    tr_pipeline *p = trt_pipeline(ctx, &pd);
    const float clear[4] = {0.375f, 0, 0, 0};
    trt_begin_color(ctx, img, clear);
    TRT_OK(tr_cmd_bind_pipeline(ctx, p));
    trt_uniforms u;
    memset(&u, 0, sizeof u);
    u.color[0][0] = 5.0f;
    u.color[0][3] = 0.5f;
    trt_vertex v[3] = {trt_vpx(0, 0, 0.5f, W, H, NULL), trt_vpx(16, 0, 0.5f, W, H, NULL),
                       trt_vpx(0, 16, 0.5f, W, H, NULL)};
    trt_draw_u(ctx, &u, v, 3);
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    float px[W * H];
    trt_download(img, 0, 0, TR_ASPECT_DEFAULT, px);
    for (int i = 0; i < W * H; i++)
        cr_assert_eq(px[i], 0.375f, "pixel %d: %g", i, px[i]);
    tr_context_destroy(ctx);
}

/* ---- dual source -------------------------------------------------------------------------------- */

Test(raster, dual_source_blending_reads_color1)
{
    /* result = s * s1 + d * (1 - s1) per channel (alpha: s1.a) */
    tr_blend_state st;
    memset(&st, 0, sizeof st);
    st.enable = 1;
    st.src_color = TR_BLEND_SRC1_COLOR;
    st.dst_color = TR_BLEND_ONE_MINUS_SRC1_COLOR;
    st.src_alpha = TR_BLEND_SRC1_ALPHA;
    st.dst_alpha = TR_BLEND_ONE_MINUS_SRC1_ALPHA;
    static float px[BW * BH * 4];
    const blend_in in = {{1.0f, 0.5f, 0.25f, 1.0f}, {0.25f, 0.5f, 0.75f, 0.125f},
                         {0.0f, 1.0f, 0.5f, 0.5f}, {0}};
    run_states(TR_FORMAT_R32G32B32A32_SFLOAT, &st, 1, in.s, in.s1, in.d, NULL, px);
    const float want[4] = {0.25f, 0.75f, 0.3125f, 0.5625f};
    for (int ch = 0; ch < 4; ch++)
        cr_assert_eq(px[ch], want[ch], "channel %d: %g, want %g", ch, px[ch], want[ch]);
}

/* ---- multiple colour attachments ------------------------------------------------------------------ */

Test(raster, multiple_color_attachments)
{
    /* 0: RGBA8, SRC_ALPHA over; 1: R32F, additive; 2: RGBA32F, no blend,
     * mask R|A; 3: RGBA8 with TR_COLOR_MASK_NONE. Colour k = uniforms color[k]. */
    enum { W = 16, H = 16 };
    tr_context *ctx = trt_context(2);
    tr_image *img[4] = {
        trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, W, H),
        trt_image(ctx, TR_FORMAT_R32_SFLOAT, W, H),
        trt_image(ctx, TR_FORMAT_R32G32B32A32_SFLOAT, W, H),
        trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, W, H),
    };
    static const float clear[4][4] = {
        {0.2f, 0.4f, 0.6f, 0.8f}, {2.5f, 0, 0, 0}, {-1, -2, -3, -4}, {1, 0, 1, 0}};
    tr_pipeline_desc pd = {0};
    pd.fragment_shader = trt_fs_uniform;
    pd.blend[0].enable = 1;
    pd.blend[0].src_color = TR_BLEND_SRC_ALPHA;
    pd.blend[0].dst_color = TR_BLEND_ONE_MINUS_SRC_ALPHA;
    pd.blend[0].src_alpha = TR_BLEND_ONE;
    pd.blend[0].dst_alpha = TR_BLEND_ONE_MINUS_SRC_ALPHA;
    pd.blend[1].enable = 1;
    pd.blend[1].src_color = pd.blend[1].dst_color = TR_BLEND_ONE;
    pd.blend[1].src_alpha = pd.blend[1].dst_alpha = TR_BLEND_ONE;
    pd.blend[2].write_mask = TR_COLOR_MASK_R | TR_COLOR_MASK_A;
    pd.blend[3].write_mask = TR_COLOR_MASK_NONE;
    tr_pipeline *p = trt_pipeline(ctx, &pd);
    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.color_count = 4;
    for (int k = 0; k < 4; k++) {
        rp.color[k].image = img[k];
        rp.color[k].load_op = TR_LOAD_OP_CLEAR;
        memcpy(rp.color[k].clear_color, clear[k], sizeof clear[k]);
    }
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
    TRT_OK(tr_cmd_bind_pipeline(ctx, p));
    trt_uniforms u;
    memset(&u, 0, sizeof u);
    const float c0[4] = {1.0f, 0.0f, 0.6f, 0.3f}, c1[4] = {0.75f, 9, 9, 9},
                c2[4] = {5, 6, 7, 8}, c3[4] = {0.5f, 0.5f, 0.5f, 0.5f};
    memcpy(u.color[0], c0, sizeof c0);
    memcpy(u.color[1], c1, sizeof c1);
    memcpy(u.color[2], c2, sizeof c2);
    memcpy(u.color[3], c3, sizeof c3);
    /* left half only */
    trt_vertex v[6] = {
        trt_vpx(0, 0, 0.5f, W, H, NULL), trt_vpx(8, 0, 0.5f, W, H, NULL),
        trt_vpx(8, H, 0.5f, W, H, NULL), trt_vpx(0, 0, 0.5f, W, H, NULL),
        trt_vpx(8, H, 0.5f, W, H, NULL), trt_vpx(0, H, 0.5f, W, H, NULL),
    };
    trt_draw_u(ctx, &u, v, 6);
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));

    uint8_t a0[W * H * 4], a3[W * H * 4];
    float a1[W * H], a2[W * H * 4];
    trt_download(img[0], 0, 0, TR_ASPECT_DEFAULT, a0);
    trt_download(img[1], 0, 0, TR_ASPECT_DEFAULT, a1);
    trt_download(img[2], 0, 0, TR_ASPECT_DEFAULT, a2);
    trt_download(img[3], 0, 0, TR_ASPECT_DEFAULT, a3);
    /* attachment 0, expected bytes from the rule */
    blend_in in;
    memset(&in, 0, sizeof in);
    memcpy(in.s, c0, sizeof c0);
    uint8_t d0[4] = {51, 102, 153, 204}, w0[4];
    for (int ch = 0; ch < 4; ch++)
        in.d[ch] = d0[ch] / 255.0f;
    for (int ch = 0; ch < 4; ch++)
        w0[ch] = to_unorm8(blend_channel(&pd.blend[0], ch, &in));
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int i = y * W + x, in_tri = x < 8;
            for (int ch = 0; ch < 4; ch++) {
                cr_assert_eq(a0[i * 4 + ch], in_tri ? w0[ch] : d0[ch], "att 0 (%d,%d) ch %d: %u",
                             x, y, ch, a0[i * 4 + ch]);
                float w2 = in_tri && (ch == 0 || ch == 3) ? c2[ch] : clear[2][ch];
                cr_assert_eq(a2[i * 4 + ch], w2, "att 2 (%d,%d) ch %d: %g", x, y, ch, a2[i * 4 + ch]);
                static const uint8_t c3b[4] = {255, 0, 255, 0};
                cr_assert_eq(a3[i * 4 + ch], c3b[ch], "att 3 must not be written");
            }
            cr_assert_eq(a1[i], in_tri ? 3.25f : 2.5f, "att 1 (%d,%d): %g", x, y, a1[i]);
        }
    tr_context_destroy(ctx);
}

/* ---- discard and shader depth --------------------------------------------------------------------- */

typedef struct fs_target {
    tr_context *ctx;
    tr_image *color, *depth;
} fs_target;

enum { FW = 16, FH = 16 };

static fs_target fs_make(void)
{
    fs_target t;
    t.ctx = trt_context(2);
    t.color = trt_image(t.ctx, TR_FORMAT_R8G8B8A8_UNORM, FW, FH);
    t.depth = trt_image(t.ctx, TR_FORMAT_D32_SFLOAT, FW, FH);
    return t;
}

/* Pass flags for fs_begin: the early/late tests below count depth-test
 * rejections, so they run without LRZ (tests/lrz checks it with LRZ on). */
static uint32_t fs_pass_flags;

static void fs_begin(fs_target *t, float clear_depth)
{
    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.flags = fs_pass_flags;
    rp.color_count = 1;
    rp.color[0].image = t->color;
    rp.color[0].load_op = TR_LOAD_OP_CLEAR;
    rp.depth.image = t->depth;
    rp.depth.depth_load_op = TR_LOAD_OP_CLEAR;
    rp.depth.clear_depth = clear_depth;
    TRT_OK(tr_cmd_begin_render_pass(t->ctx, &rp));
}

static void fs_fullscreen(tr_context *ctx, float z, const trt_uniforms *u)
{
    trt_vertex v[6] = {
        trt_vpx(0, 0, z, FW, FH, NULL), trt_vpx(FW, 0, z, FW, FH, NULL),
        trt_vpx(FW, FH, z, FW, FH, NULL), trt_vpx(0, 0, z, FW, FH, NULL),
        trt_vpx(FW, FH, z, FW, FH, NULL), trt_vpx(0, FH, z, FW, FH, NULL),
    };
    trt_draw_u(ctx, u, v, 6);
}

Test(raster, discard_keeps_color_and_depth)
{
    for (uint32_t parity = 0; parity < 2; parity++) {
        fs_target t = fs_make();
        tr_pipeline_desc pd = {0};
        pd.fragment_shader = trt_fs_discard;
        pd.fs_flags = TR_FS_MAY_DISCARD;
        pd.depth_test = 1;
        pd.depth_write = 1;
        tr_pipeline *p = trt_pipeline(t.ctx, &pd);
        fs_begin(&t, 1.0f);
        TRT_OK(tr_cmd_bind_pipeline(t.ctx, p));
        trt_uniforms u;
        memset(&u, 0, sizeof u);
        u.color[0][0] = 1.0f;
        u.discard_parity = parity;
        fs_fullscreen(t.ctx, 0.25f, &u);
        tr_pass_stats st;
        TRT_OK(tr_cmd_end_render_pass(t.ctx, &st));
        uint8_t px[FW * FH * 4];
        float d[FW * FH];
        trt_download(t.color, 0, 0, TR_ASPECT_DEFAULT, px);
        trt_download(t.depth, 0, 0, TR_ASPECT_DEPTH, d);
        for (int y = 0; y < FH; y++)
            for (int x = 0; x < FW; x++) {
                int kept = (uint32_t)((x + y) & 1) != parity;
                cr_assert_eq(px[(y * FW + x) * 4], kept ? 255 : 0, "(%d,%d)", x, y);
                cr_assert_eq(d[y * FW + x], kept ? 0.25f : 1.0f, "(%d,%d) depth %g", x, y,
                             d[y * FW + x]);
            }
        cr_expect_eq(st.fragments_discarded, FW * FH / 2, "discarded %llu",
                     (unsigned long long)st.fragments_discarded);
        cr_expect_eq(st.fragments_shaded, FW * FH);
        cr_expect_eq(st.fragments_written, FW * FH / 2);
        tr_context_destroy(t.ctx);
    }
}

static void fs_depth_from_x(tr_fs_block *b)
{
    trt_fs_uniform(b);
    for (uint32_t l = 0; l < b->count; l++)
        b->depth[l] = b->frag_x[l] / (float)FW; /* (x + 0.5) / 16 */
}

Test(raster, shader_written_depth_replaces_interpolated_depth)
{
    /* Interpolated z = 0.9 would fail LESS against 0.5 everywhere; the
     * shader's depth (x + 0.5) / 16 passes for x <= 7 and is what is stored. */
    fs_target t = fs_make();
    tr_pipeline_desc pd = {0};
    pd.fragment_shader = fs_depth_from_x;
    pd.fs_flags = TR_FS_WRITES_DEPTH;
    pd.depth_test = 1;
    pd.depth_write = 1;
    tr_pipeline *p = trt_pipeline(t.ctx, &pd);
    fs_begin(&t, 0.5f);
    TRT_OK(tr_cmd_bind_pipeline(t.ctx, p));
    trt_uniforms u;
    memset(&u, 0, sizeof u);
    u.color[0][1] = 1.0f;
    fs_fullscreen(t.ctx, 0.9f, &u);
    TRT_OK(tr_cmd_end_render_pass(t.ctx, NULL));
    uint8_t px[FW * FH * 4];
    float d[FW * FH];
    trt_download(t.color, 0, 0, TR_ASPECT_DEFAULT, px);
    trt_download(t.depth, 0, 0, TR_ASPECT_DEPTH, d);
    for (int y = 0; y < FH; y++)
        for (int x = 0; x < FW; x++) {
            float sd = (x + 0.5f) / (float)FW;
            int pass = sd < 0.5f;
            cr_assert_eq(px[(y * FW + x) * 4 + 1], pass ? 255 : 0, "(%d,%d)", x, y);
            cr_assert_eq(d[y * FW + x], pass ? sd : 0.5f, "(%d,%d) depth %g", x, y, d[y * FW + x]);
        }
    tr_context_destroy(t.ctx);

    /* And the other way: interpolated 0.1 would pass, the shader's 0.7 fails. */
    t = fs_make();
    pd.fragment_shader = trt_fs_depth_uniform;
    p = trt_pipeline(t.ctx, &pd);
    fs_begin(&t, 0.5f);
    TRT_OK(tr_cmd_bind_pipeline(t.ctx, p));
    u.depth = 0.7f;
    fs_fullscreen(t.ctx, 0.1f, &u);
    TRT_OK(tr_cmd_end_render_pass(t.ctx, NULL));
    trt_download(t.color, 0, 0, TR_ASPECT_DEFAULT, px);
    trt_download(t.depth, 0, 0, TR_ASPECT_DEPTH, d);
    for (int i = 0; i < FW * FH; i++) {
        cr_assert_eq(px[i * 4 + 1], 0);
        cr_assert_eq(d[i], 0.5f);
    }
    tr_context_destroy(t.ctx);
}

/* Occluder at z = 0.25, then a full-screen draw at 0.75 with `flags`:
 * returns the pass statistics. */
static tr_pass_stats occluded_pass(uint32_t flags, tr_fragment_shader fs)
{
    fs_target t = fs_make();
    tr_pipeline_desc pd = {0};
    pd.depth_test = 1;
    pd.depth_write = 1;
    pd.fragment_shader = trt_fs_uniform;
    tr_pipeline *occ = trt_pipeline(t.ctx, &pd);
    pd.fs_flags = flags;
    pd.fragment_shader = fs;
    tr_pipeline *p = trt_pipeline(t.ctx, &pd);
    fs_begin(&t, 1.0f);
    trt_uniforms u;
    memset(&u, 0, sizeof u);
    u.depth = 0.75f;
    u.discard_parity = 2; /* never matches: nothing discarded */
    u.color[0][0] = 1.0f; /* the occluder is red */
    TRT_OK(tr_cmd_bind_pipeline(t.ctx, occ));
    fs_fullscreen(t.ctx, 0.25f, &u);
    u.color[0][0] = 0.0f; /* the occluded draw blue */
    u.color[0][2] = 1.0f;
    TRT_OK(tr_cmd_bind_pipeline(t.ctx, p));
    fs_fullscreen(t.ctx, 0.75f, &u);
    tr_pass_stats st;
    TRT_OK(tr_cmd_end_render_pass(t.ctx, &st));
    uint8_t px[FW * FH * 4];
    trt_download(t.color, 0, 0, TR_ASPECT_DEFAULT, px);
    for (int i = 0; i < FW * FH; i++) {
        cr_assert_eq(px[i * 4 + 0], 255, "the occluder must be visible (flags 0x%x)", flags);
        cr_assert_eq(px[i * 4 + 2], 0, "the occluded draw must not be visible (flags 0x%x)", flags);
    }
    tr_context_destroy(t.ctx);
    return st;
}

Test(raster, early_and_late_depth_tests)
{
    const uint64_t n = FW * FH;
    fs_pass_flags = TR_PASS_NO_LRZ;
    /* early: the occluded draw's shader never runs */
    tr_pass_stats st = occluded_pass(0, trt_fs_uniform);
    cr_expect_eq(st.fragments_rasterized, 2 * n);
    cr_expect_eq(st.fragments_depth_rejected, n);
    cr_expect_eq(st.fragments_shaded, n, "early tests: shaded %llu", (unsigned long long)st.fragments_shaded);
    /* TR_FS_MAY_DISCARD: late tests, the shader runs first */
    st = occluded_pass(TR_FS_MAY_DISCARD, trt_fs_discard);
    cr_expect_eq(st.fragments_depth_rejected, n);
    cr_expect_eq(st.fragments_shaded, 2 * n, "discard: shaded %llu", (unsigned long long)st.fragments_shaded);
    /* TR_FS_WRITES_DEPTH: late */
    st = occluded_pass(TR_FS_WRITES_DEPTH, trt_fs_depth_uniform);
    cr_expect_eq(st.fragments_depth_rejected, n);
    cr_expect_eq(st.fragments_shaded, 2 * n, "writes depth: shaded %llu", (unsigned long long)st.fragments_shaded);
    /* TR_FS_EARLY_TESTS forces early tests despite MAY_DISCARD */
    st = occluded_pass(TR_FS_MAY_DISCARD | TR_FS_EARLY_TESTS, trt_fs_discard);
    cr_expect_eq(st.fragments_depth_rejected, n);
    cr_expect_eq(st.fragments_shaded, n, "forced early: shaded %llu", (unsigned long long)st.fragments_shaded);
}

Test(raster, discard_with_forced_early_tests)
{
    /* TR_FS_EARLY_TESTS | TR_FS_MAY_DISCARD: discarded fragments still
     * write no colour. */
    fs_target t = fs_make();
    tr_pipeline_desc pd = {0};
    pd.fragment_shader = trt_fs_discard;
    pd.fs_flags = TR_FS_MAY_DISCARD | TR_FS_EARLY_TESTS;
    tr_pipeline *p = trt_pipeline(t.ctx, &pd);
    fs_begin(&t, 1.0f);
    TRT_OK(tr_cmd_bind_pipeline(t.ctx, p));
    trt_uniforms u;
    memset(&u, 0, sizeof u);
    u.color[0][0] = 1.0f;
    u.discard_parity = 1;
    fs_fullscreen(t.ctx, 0.25f, &u);
    TRT_OK(tr_cmd_end_render_pass(t.ctx, NULL));
    uint8_t px[FW * FH * 4];
    trt_download(t.color, 0, 0, TR_ASPECT_DEFAULT, px);
    for (int y = 0; y < FH; y++)
        for (int x = 0; x < FW; x++)
            cr_assert_eq(px[(y * FW + x) * 4], ((x + y) & 1) ? 0 : 255, "(%d,%d)", x, y);
    tr_context_destroy(t.ctx);
}
