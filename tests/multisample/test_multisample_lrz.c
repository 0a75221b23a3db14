/* LRZ in multisampled passes (lrz.h, multisample.h): a texel covers an
 * 8x8 block of the supersampled footprint (8x8 pixels at 1x, 8x4 at 2x,
 * 4x4 at 4x, 4x2 at 8x), so the counts of texels written and rejected are
 * worked out here per sample count; alpha to coverage and a partial sample
 * mask keep a draw from writing; and every scene gives the same bits with
 * LRZ on and off, for every thread count, SIMD level, GMEM budget and with
 * a density map. */
#include <string.h>

#include "trtest.h"

enum { W = 64, H = 64 };

/* LESS, depth write, opaque colour from the vertices; ms given. */
static tr_pipeline *opaque(tr_context *ctx, tr_multisample_state ms, uint32_t fs_flags)
{
    tr_pipeline_desc pd = {.depth_test = 1, .depth_write = 1, .depth_compare = TR_COMPARE_LESS};
    pd.multisample = ms;
    pd.fs_flags = fs_flags;
    return trt_pipeline(ctx, &pd);
}

/* A triangle holding the whole 64x64 target, at depth z. */
static void cover_all(float z, const float col[4], trt_vertex v[3])
{
    v[0] = trt_vpx(0, 0, z, W, H, col);
    v[1] = trt_vpx(2 * W, 0, z, W, H, col);
    v[2] = trt_vpx(0, 2 * H, z, W, H, col);
}

/* The LRZ texel of n samples per pixel, in pixels. */
static void texel_size(uint32_t n, uint32_t *tw, uint32_t *th)
{
    *tw = n >= 4 ? 4 : 8;
    *th = n >= 8 ? 2 : n >= 2 ? 4 : 8;
}

/* Renders draws into a 64x64 n-sample colour + depth pass; returns the
 * CRC of every sample's colour and depth. */
typedef void (*draw_fn)(tr_context *ctx, uint32_t n);

static uint32_t render(uint32_t n, uint32_t ctx_flags, draw_fn draws, tr_pass_stats *st)
{
    tr_context_desc cd = {.threads = 2, .flags = ctx_flags};
    tr_context *ctx = trt_context_desc(&cd);
    tr_image *col = trt_image_ms(ctx, TR_FORMAT_R8G8B8A8_UNORM, W, H, n);
    tr_image *dep = trt_image_ms(ctx, TR_FORMAT_D32_SFLOAT, W, H, n);
    trt_begin_color_depth(ctx, col, dep, 0);
    draws(ctx, n);
    TRT_OK(tr_cmd_end_render_pass(ctx, st));
    const uint32_t crc = trt_crc_samples(col, dep, n);
    tr_context_destroy(ctx);
    return crc;
}

/* An occluder over everything at 0.25, then a triangle over everything
 * behind it at 0.75. */
static void occluder_then_behind(tr_context *ctx, uint32_t n)
{
    const float red[4] = {1, 0, 0, 1}, green[4] = {0, 1, 0, 1};
    TRT_OK(tr_cmd_bind_pipeline(ctx, opaque(ctx, (tr_multisample_state){.samples = n}, 0)));
    trt_vertex v[3];
    cover_all(0.25f, red, v);
    trt_draw(ctx, v, 3);
    cover_all(0.75f, green, v);
    trt_draw(ctx, v, 3);
}

/* Every texel is written once and every sample of the second triangle is
 * rejected: W*H/(tw*th) texels, W*H*n samples. */
Test(multisample_lrz, texel_per_8x8_supersampled_block)
{
    for (uint32_t n = 1; n <= 8; n *= 2) {
        uint32_t tw, th;
        texel_size(n, &tw, &th);
        const uint64_t texels = (uint64_t)(W / tw) * (H / th), samples = (uint64_t)W * H * n;
        cr_assert_eq(texels, 64u * n, "the supersampled footprint has 64 n texels");
        tr_pass_stats on, off;
        const uint32_t a = render(n, 0, occluder_then_behind, &on);
        const uint32_t b = render(n, TR_CONTEXT_NO_LRZ, occluder_then_behind, &off);
        cr_expect_eq(a, b, "%ux: LRZ on and off differ", n);
        cr_expect_eq(on.lrz_state, TR_LRZ_STATE_ON, "%ux: LRZ state %u", n, on.lrz_state);
        cr_expect_eq(off.lrz_state, TR_LRZ_STATE_OFF);
        cr_expect_eq(on.lrz_blocks_written, texels, "%ux: %llu texels written, want %llu", n,
                     (unsigned long long)on.lrz_blocks_written, (unsigned long long)texels);
        cr_expect_eq(on.lrz_blocks_rejected, texels, "%ux: %llu texels rejected, want %llu", n,
                     (unsigned long long)on.lrz_blocks_rejected, (unsigned long long)texels);
        cr_expect_eq(on.fragments_lrz_rejected, samples, "%ux: %llu samples rejected, want %llu", n,
                     (unsigned long long)on.fragments_lrz_rejected, (unsigned long long)samples);
        cr_expect_eq(off.fragments_depth_rejected, samples, "%ux: without LRZ the depth test rejects them", n);
        cr_expect_eq(on.fragments_depth_rejected, 0);
        cr_expect_eq(on.fragments_rasterized, off.fragments_rasterized);
        cr_expect_eq(on.fragments_written, off.fragments_written);
    }
}

/* The rectangle [0, 64) x [0, 64) as two triangles split along x + y = 64:
 * a texel is written by one of them when every corner of its pixels' area
 * lies on that triangle's side, line included (its samples are then
 * strictly inside); the texels the diagonal cuts are not written. */
static void quad_occluder(tr_context *ctx, uint32_t n)
{
    const float red[4] = {1, 0, 0, 1};
    TRT_OK(tr_cmd_bind_pipeline(ctx, opaque(ctx, (tr_multisample_state){.samples = n}, 0)));
    const trt_vertex v[6] = {trt_vpx(0, 0, 0.25f, W, H, red),  trt_vpx(64, 0, 0.25f, W, H, red),
                             trt_vpx(0, 64, 0.25f, W, H, red), trt_vpx(64, 0, 0.25f, W, H, red),
                             trt_vpx(64, 64, 0.25f, W, H, red), trt_vpx(0, 64, 0.25f, W, H, red)};
    trt_draw(ctx, v, 6);
}

Test(multisample_lrz, texels_a_triangle_holds_whole)
{
    for (uint32_t n = 2; n <= 8; n *= 2) {
        uint32_t tw, th;
        texel_size(n, &tw, &th);
        uint64_t want = 0;
        for (uint32_t y = 0; y < H; y += th)
            for (uint32_t x = 0; x < W; x += tw)
                want += x + tw + y + th <= 64 || x + y >= 64;
        tr_pass_stats st;
        render(n, 0, quad_occluder, &st);
        cr_expect_eq(st.lrz_blocks_written, want, "%ux: %llu texels written, by hand %llu", n,
                     (unsigned long long)st.lrz_blocks_written, (unsigned long long)want);
    }
}

/* Alpha to coverage, or a sample mask without every sample: the draw
 * writes no LRZ; with early tests alpha to coverage also stops the
 * writes of every later draw (its samples keep depths without colour). */
static uint32_t g_case;

static void partial_occluders(tr_context *ctx, uint32_t n)
{
    const float red[4] = {1, 0, 0, 1}, blue[4] = {0, 0, 1, 1};
    tr_multisample_state ms = {.samples = n};
    uint32_t flags = 0;
    if (g_case == 0)
        ms.alpha_to_coverage = 1;
    else if (g_case == 1)
        ms.sample_mask = (1u << n) - 2u; /* all but sample 0 */
    else {
        ms.alpha_to_coverage = 1;
        flags = TR_FS_EARLY_TESTS;
    }
    TRT_OK(tr_cmd_bind_pipeline(ctx, opaque(ctx, ms, flags)));
    trt_vertex v[3];
    cover_all(0.5f, red, v);
    trt_draw(ctx, v, 3);
    /* then a full occluder */
    TRT_OK(tr_cmd_bind_pipeline(ctx, opaque(ctx, (tr_multisample_state){.samples = n}, 0)));
    cover_all(0.25f, blue, v);
    trt_draw(ctx, v, 3);
}

Test(multisample_lrz, alpha_to_coverage_and_sample_mask_do_not_write)
{
    const uint32_t n = 4;
    for (g_case = 0; g_case < 3; g_case++) {
        tr_pass_stats on, off;
        const uint32_t a = render(n, 0, partial_occluders, &on);
        const uint32_t b = render(n, TR_CONTEXT_NO_LRZ, partial_occluders, &off);
        cr_expect_eq(a, b, "case %u: LRZ on and off differ", g_case);
        /* case 0 and 1: only the full occluder writes (every texel);
         * case 2: nothing after the early alpha to coverage */
        const uint64_t want = g_case == 2 ? 0 : 64u * n;
        cr_expect_eq(on.lrz_blocks_written, want, "case %u: %llu texels written, want %llu", g_case,
                     (unsigned long long)on.lrz_blocks_written, (unsigned long long)want);
    }
}

/* ---- LRZ on and off: the same bits -------------------------------------------------------- */

typedef struct scene_cfg {
    uint32_t threads, gmem_bytes;
    tr_simd_level simd;
    float density;  /* above 0: a density map of this value */
    tr_device device;
} scene_cfg;

/* Random opaque triangles of every size with sloped depth (LESS_OR_EQUAL,
 * writes), a draw with alpha to coverage, one with a sample mask, more
 * opaque triangles, and a blended draw last.  Returns the CRC of every
 * sample's colour and depth. */
static uint32_t random_scene(uint32_t n, uint32_t ctx_flags, const scene_cfg *c, tr_pass_stats *st)
{
    tr_context_desc cd = {.threads = c->threads, .gmem_bytes = c->gmem_bytes, .simd = c->simd, .flags = ctx_flags,
                          .device = c->device};
    tr_context *ctx = trt_context_desc(&cd);
    const uint32_t w = 160, h = 120;
    tr_image *col = trt_image_ms(ctx, TR_FORMAT_R8G8B8A8_UNORM, w, h, n);
    tr_image *dep = trt_image_ms(ctx, TR_FORMAT_D32_SFLOAT, w, h, n);
    trt_begin_ms(ctx, col, dep, c->density, 0);
    trt_rng rng = {4242};
    enum { TRIS = 300 };
    static trt_vertex v[TRIS * 3];
    for (int phase = 0; phase < 5; phase++) {
        tr_pipeline_desc pd = {.depth_test = 1, .depth_write = 1, .depth_compare = TR_COMPARE_LESS_OR_EQUAL};
        pd.multisample.samples = n;
        if (phase == 1)
            pd.multisample.alpha_to_coverage = 1;
        if (phase == 2)
            pd.multisample.sample_mask = 0x5;
        if (phase == 4)
            pd.blend[0] = (tr_blend_state){.enable = 1, .src_color = TR_BLEND_SRC_ALPHA,
                                           .dst_color = TR_BLEND_ONE_MINUS_SRC_ALPHA, .color_op = TR_BLEND_OP_ADD,
                                           .src_alpha = TR_BLEND_ONE, .dst_alpha = TR_BLEND_ZERO,
                                           .alpha_op = TR_BLEND_OP_ADD, .write_mask = 0xf};
        TRT_OK(tr_cmd_bind_pipeline(ctx, trt_pipeline(ctx, &pd)));
        const uint32_t count = phase == 0 || phase == 3 ? TRIS : TRIS / 4;
        for (uint32_t i = 0; i < count; i++) {
            /* sizes from under a pixel to most of the target */
            const float size = (float)trt_rand_range(&rng, 0.5, i % 5 == 0 ? 150.0 : 24.0);
            const float cx = trt_rand_coord(&rng, -10, (float)w + 10), cy = trt_rand_coord(&rng, -10, (float)h + 10);
            const float alpha = phase == 1 || phase == 4 ? (float)trt_rand_range(&rng, 0, 1) : 1.0f;
            /* one draw per statement: the order of an initializer's or a
             * call's arguments is unspecified, and the scene must be the
             * same whatever the compiler */
            float color[4];
            for (int c = 0; c < 3; c++)
                color[c] = (float)trt_rand_range(&rng, 0, 1);
            color[3] = alpha;
            for (int k = 0; k < 3; k++) {
                const float x = cx + trt_rand_coord(&rng, -size, size);
                const float y = cy + trt_rand_coord(&rng, -size, size);
                const float z = (float)trt_rand_range(&rng, 0.05, 0.95);
                v[3 * i + k] = trt_vpx(x, y, z, w, h, color);
            }
        }
        trt_draw(ctx, v, count * 3);
    }
    TRT_OK(tr_cmd_end_render_pass(ctx, st));
    const uint32_t crc = trt_crc_samples(col, dep, n);
    tr_context_destroy(ctx);
    return crc;
}

Test(multisample_lrz, on_and_off_identical)
{
    const scene_cfg cfgs[] = {
        {1, 0, TR_SIMD_SCALAR, 0.0f, TR_DEVICE_DEFAULT}, {3, 0, TR_SIMD_AVX2, 0.0f, TR_DEVICE_DEFAULT},
        {2, 48u << 10, TR_SIMD_SSE, 0.0f, TR_DEVICE_DEFAULT},
        /* a density map: at 255 no scaling, at half density 2x2 coarse
         * fragments; the A740 keeps LRZ in its scaled bins */
        {2, 0, TR_SIMD_AVX2, 1.0f, TR_DEVICE_DEFAULT}, {2, 0, TR_SIMD_AVX2, 0.5f, TR_DEVICE_DEFAULT},
        {2, 0, TR_SIMD_AVX2, 0.5f, TR_DEVICE_A740},
    };
    for (uint32_t n = 2; n <= 8; n *= 2) {
        uint32_t ref_crc = 0;
        tr_pass_stats ref_on = {0};
        for (size_t k = 0; k < sizeof cfgs / sizeof cfgs[0]; k++) {
            tr_pass_stats on, off;
            const uint32_t a = random_scene(n, 0, &cfgs[k], &on);
            const uint32_t b = random_scene(n, TR_CONTEXT_NO_LRZ, &cfgs[k], &off);
            cr_expect_eq(a, b, "%ux config %zu: LRZ on and off differ", n, k);
            /* scaled bins have LRZ only with hardware bin scaling (fdm.h) */
            const bool lrz = cfgs[k].density != 0.5f || cfgs[k].device == TR_DEVICE_A740;
            cr_expect_eq(on.lrz_blocks_written > 0, lrz, "%ux config %zu: %llu texels written", n, k,
                         (unsigned long long)on.lrz_blocks_written);
            cr_expect_eq(on.fragments_lrz_rejected > 0, lrz, "%ux config %zu: %llu samples rejected", n, k,
                         (unsigned long long)on.fragments_lrz_rejected);
            if (k == 0) {
                ref_crc = a;
                ref_on = on;
            } else if (cfgs[k].density == 0.0f || cfgs[k].density == 1.0f) {
                /* without scaling: the same image and the same LRZ work */
                cr_expect_eq(a, ref_crc, "%ux config %zu differs from config 0", n, k);
                cr_expect_eq(on.lrz_blocks_written, ref_on.lrz_blocks_written, "%ux config %zu: texels written", n, k);
                cr_expect_eq(on.fragments_lrz_rejected, ref_on.fragments_lrz_rejected,
                             "%ux config %zu: samples rejected", n, k);
            }
        }
    }
}
