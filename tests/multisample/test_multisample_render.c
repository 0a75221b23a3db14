/* Multisampled rendering (multisample.h): coverage per sample worked out by
 * hand at the standard positions, tie rules on sample positions, watertight
 * meshes, the sample mask and alpha to coverage, depth per sample, and the
 * same bits for every thread count, SIMD level and GMEM budget. */
#include <math.h>
#include <string.h>

#include "trtest.h"

static tr_pipeline *ms_pipeline(tr_context *ctx, uint32_t samples, const tr_pipeline_desc *base)
{
    tr_pipeline_desc pd = base ? *base : (tr_pipeline_desc){0};
    pd.multisample.samples = samples;
    return trt_pipeline(ctx, &pd);
}

/* Two triangles covering the rectangle [x0, x1) x [y0, y1) in pixels. */
static void rect_tris(float x0, float y0, float x1, float y1, uint32_t w, uint32_t h, const float col[4],
                      trt_vertex out[6])
{
    out[0] = trt_vpx(x0, y0, 0.5f, w, h, col);
    out[1] = trt_vpx(x1, y0, 0.5f, w, h, col);
    out[2] = trt_vpx(x0, y1, 0.5f, w, h, col);
    out[3] = trt_vpx(x1, y0, 0.5f, w, h, col);
    out[4] = trt_vpx(x1, y1, 0.5f, w, h, col);
    out[5] = trt_vpx(x0, y1, 0.5f, w, h, col);
}

/* Red channel of every sample: out[s][y * w + x]. */
static void sample_reds(const tr_image *img, uint32_t n, uint32_t w, uint32_t h, uint8_t out[][64])
{
    uint8_t px[64 * 4];
    for (uint32_t s = 0; s < n; s++) {
        TRT_OK(tr_image_download(img, &(tr_subresource){.sample = s}, px, 0));
        for (uint32_t i = 0; i < w * h; i++)
            out[s][i] = px[4 * i];
    }
}

/* The rectangle [0.375, 2.375) x [0, 1.5) at 4x over a 4x2 framebuffer.
 * 4x positions, x: s0 0.375, s1 0.875, s2 0.125, s3 0.625; y: 0.125,
 * 0.375, 0.625, 0.875.  By hand, per pixel, samples covered:
 * - x: pixel 0 keeps s0 (on the left edge: a left edge owns its samples),
 *   s1, s3 (s2 at 0.125 is left of it); pixels 1 all; pixel 2 only s2
 *   (2.125; s0 at 2.375 lies on the right edge, which does not own it);
 *   pixel 3 none.
 * - y: row 0 all; row 1 (y 1.125, 1.375 in, 1.625, 1.875 out) s0 and s1.
 * A sample is covered when both say so. */
Test(multisample_render, coverage_by_hand_with_ties_at_4x)
{
    tr_context *ctx = trt_context(1);
    const uint32_t W = 4, H = 2;
    tr_image *img = trt_image_ms(ctx, TR_FORMAT_R8G8B8A8_UNORM, W, H, 4);
    const float zero[4] = {0, 0, 0, 0}, white[4] = {1, 1, 1, 1};
    trt_begin_color(ctx, img, zero);
    TRT_OK(tr_cmd_bind_pipeline(ctx, ms_pipeline(ctx, 4, NULL)));
    trt_vertex v[6];
    rect_tris(0.375f, 0.0f, 2.375f, 1.5f, W, H, white, v);
    trt_draw(ctx, v, 6);
    tr_pass_stats st;
    TRT_OK(tr_cmd_end_render_pass(ctx, &st));
    /* bit s: sample s covered */
    const uint32_t col_mask[4] = {0xB /* s0 s1 s3 */, 0xF, 0x4 /* s2 */, 0x0};
    const uint32_t row_mask[2] = {0xF, 0x3 /* s0 s1 */};
    uint8_t red[4][64];
    sample_reds(img, 4, W, H, red);
    uint32_t covered = 0;
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++)
            for (uint32_t s = 0; s < 4; s++) {
                const bool in = ((col_mask[x] & row_mask[y]) >> s) & 1;
                covered += in;
                cr_expect_eq(red[s][y * W + x], in ? 255 : 0, "pixel (%u, %u) sample %u: %u, want %s", x, y, s,
                             red[s][y * W + x], in ? "covered" : "not covered");
            }
    cr_expect_eq(st.fragments_rasterized, covered, "rasterized %llu samples, %u by hand",
                 (unsigned long long)st.fragments_rasterized, covered);
    cr_expect_eq(st.fragments_written, covered);
    /* resolved: (sum + 2) / 4 of 255s: 3 samples 191.25 -> 191, 2 -> 127.5 -> 128, 1 -> 64 */
    uint8_t px[8 * 4];
    TRT_OK(tr_image_read_rgba8(img, NULL, px));
    const uint8_t want_resolved[8] = {191, 255, 64, 0, 128, 128, 0, 0};
    for (uint32_t i = 0; i < W * H; i++)
        cr_expect_eq(px[4 * i], want_resolved[i], "resolved pixel %u: %u, want %u", i, px[4 * i], want_resolved[i]);
    tr_context_destroy(ctx);
}

/* 2x (0.75, 0.75), (0.25, 0.25), 4x and 8x, on a diagonal edge: the
 * triangle (0, 0), (4, 0), (0, 4) covers points with x + y < 4 (the
 * hypotenuse, a right edge, does not own its points).  By hand for pixel
 * (1, 2): 2x: s0 at (1.75, 2.75), sum 4.5 out; s1 (1.25, 2.25), 3.5 in.
 * For every pixel and sample the test checks x + y + sx + sy < 4 in
 * sixteenths.  At 4x (samples at x + y = 0.5, 1.25, 0.75, 1.5 in the
 * pixel) s0 and s2 are covered where the pixel's x + y <= 3, s1 and s3
 * where it is <= 2: 10 + 10 + 6 + 6 = 32 samples in 10 pixels. */
Test(multisample_render, diagonal_edge_at_2x_4x_and_8x)
{
    const uint32_t W = 4, H = 4;
    for (uint32_t n = 2; n <= 8; n *= 2) {
        tr_context *ctx = trt_context(1);
        tr_image *img = trt_image_ms(ctx, TR_FORMAT_R8G8B8A8_UNORM, W, H, n);
        const float zero[4] = {0, 0, 0, 0}, white[4] = {1, 1, 1, 1};
        trt_begin_color(ctx, img, zero);
        TRT_OK(tr_cmd_bind_pipeline(ctx, ms_pipeline(ctx, n, NULL)));
        const trt_vertex v[3] = {trt_vpx(0, 0, 0.5f, W, H, white), trt_vpx(4, 0, 0.5f, W, H, white),
                                 trt_vpx(0, 4, 0.5f, W, H, white)};
        trt_draw(ctx, v, 3);
        tr_pass_stats st;
        TRT_OK(tr_cmd_end_render_pass(ctx, &st));
        uint8_t red[8][64];
        sample_reds(img, n, W, H, red);
        uint32_t any[16] = {0};
        for (uint32_t s = 0; s < n; s++) {
            float pos[2];
            TRT_OK(tr_sample_position(n, s, pos));
            const int sx16 = (int)(pos[0] * 16), sy16 = (int)(pos[1] * 16);
            for (uint32_t y = 0; y < H; y++)
                for (uint32_t x = 0; x < W; x++) {
                    const int sum16 = (int)(16 * x) + sx16 + (int)(16 * y) + sy16;
                    const bool in = sum16 < 64;
                    any[y * W + x] |= in;
                    cr_expect_eq(red[s][y * W + x], in ? 255 : 0, "%ux pixel (%u, %u) sample %u", n, x, y, s);
                }
        }
        /* the shader ran once per pixel with a covered sample */
        uint32_t pixels = 0;
        for (uint32_t i = 0; i < W * H; i++)
            pixels += any[i];
        cr_expect_eq(st.fragments_shaded, pixels, "%ux: shaded %llu, %u pixels have a covered sample", n,
                     (unsigned long long)st.fragments_shaded, pixels);
        if (n == 4) {
            cr_expect_eq(st.fragments_rasterized, 32, "4x: %llu samples, 32 by hand",
                         (unsigned long long)st.fragments_rasterized);
            cr_expect_eq(pixels, 10);
        }
        if (n == 2) {
            cr_expect_eq(red[0][2 * W + 1], 0);
            cr_expect_eq(red[1][2 * W + 1], 255);
        }
        tr_context_destroy(ctx);
    }
}

/* A mesh of jittered grid triangles over the framebuffer, drawn with
 * additive blending of 1/255: every sample of every pixel ends at 1. */
Test(multisample_render, watertight_mesh_covers_each_sample_once)
{
    const uint32_t W = 48, H = 40, G = 7;
    for (uint32_t n = 2; n <= 8; n *= 2) {
        tr_context *ctx = trt_context(2);
        tr_image *img = trt_image_ms(ctx, TR_FORMAT_R8G8B8A8_UNORM, W, H, n);
        const float zero[4] = {0, 0, 0, 0};
        trt_begin_color(ctx, img, zero);
        tr_pipeline_desc pd = {0};
        pd.blend[0] = (tr_blend_state){.enable = 1, .src_color = TR_BLEND_ONE, .dst_color = TR_BLEND_ONE,
                                       .color_op = TR_BLEND_OP_ADD, .src_alpha = TR_BLEND_ONE,
                                       .dst_alpha = TR_BLEND_ONE, .alpha_op = TR_BLEND_OP_ADD, .write_mask = 0xf};
        TRT_OK(tr_cmd_bind_pipeline(ctx, ms_pipeline(ctx, n, &pd)));
        /* grid points from -4 to W + 4, interior ones moved by up to a
         * pixel in sixteenths, so that edges pass through sample positions */
        float gx[8][8], gy[8][8];
        trt_rng rng = {0x1234u + n};
        for (uint32_t j = 0; j <= G; j++)
            for (uint32_t i = 0; i <= G; i++) {
                gx[j][i] = -4.0f + (float)i * (W + 8) / G;
                gy[j][i] = -4.0f + (float)j * (H + 8) / G;
                if (i && j && i < G && j < G) {
                    gx[j][i] = floorf(gx[j][i]) + (float)(trt_rand_u32(&rng) % 16) / 16.0f;
                    gy[j][i] = floorf(gy[j][i]) + (float)(trt_rand_u32(&rng) % 16) / 16.0f;
                }
            }
        const float c[4] = {1.0f / 255, 1.0f / 255, 1.0f / 255, 1.0f / 255};
        trt_vertex v[7 * 7 * 6];
        uint32_t k = 0;
        for (uint32_t j = 0; j < G; j++)
            for (uint32_t i = 0; i < G; i++) {
                const trt_vertex a = trt_vpx(gx[j][i], gy[j][i], 0.5f, W, H, c);
                const trt_vertex b = trt_vpx(gx[j][i + 1], gy[j][i + 1], 0.5f, W, H, c);
                const trt_vertex d = trt_vpx(gx[j + 1][i], gy[j + 1][i], 0.5f, W, H, c);
                const trt_vertex e = trt_vpx(gx[j + 1][i + 1], gy[j + 1][i + 1], 0.5f, W, H, c);
                v[k++] = a, v[k++] = b, v[k++] = e;
                v[k++] = a, v[k++] = e, v[k++] = d;
            }
        trt_draw(ctx, v, k);
        TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
        uint8_t px[48 * 40 * 4];
        for (uint32_t s = 0; s < n; s++) {
            TRT_OK(tr_image_download(img, &(tr_subresource){.sample = s}, px, 0));
            for (uint32_t i = 0; i < W * H * 4; i++)
                cr_assert_eq(px[i], 1, "%ux: sample %u of pixel (%u, %u) channel %u is %u", n, s, (i / 4) % W,
                             (i / 4) / W, i % 4, px[i]);
        }
        tr_context_destroy(ctx);
    }
}

/* The sample mask keeps only its samples; alpha to coverage keeps samples
 * 0 .. floor(a * n + 1/2) - 1: alpha 0.5 -> s0, s1; 0.3 -> s0 (1.7 -> 1);
 * 0.9 -> all (4.1 -> 4); 0.1 -> none (0.9 -> 0). */
Test(multisample_render, sample_mask_and_alpha_to_coverage)
{
    const uint32_t W = 8, H = 8;
    tr_context *ctx = trt_context(1);
    tr_image *img = trt_image_ms(ctx, TR_FORMAT_R8G8B8A8_UNORM, W, H, 4);
    const float zero[4] = {0, 0, 0, 0};
    trt_begin_color(ctx, img, zero);
    tr_pipeline_desc pd = {0};
    pd.multisample.sample_mask = 0x5; /* s0, s2 */
    TRT_OK(tr_cmd_bind_pipeline(ctx, ms_pipeline(ctx, 4, &pd)));
    trt_vertex v[6];
    const float red[4] = {1, 0, 0, 1};
    rect_tris(0, 0, 8, 4, W, H, red, v); /* rows 0-3 */
    trt_draw(ctx, v, 6);
    pd.multisample.sample_mask = 0;
    pd.multisample.alpha_to_coverage = 1;
    TRT_OK(tr_cmd_bind_pipeline(ctx, ms_pipeline(ctx, 4, &pd)));
    const float alphas[4] = {0.5f, 0.3f, 0.9f, 0.1f};
    for (int q = 0; q < 4; q++) { /* columns 2q, 2q + 1 of rows 4-7 */
        const float g[4] = {0, 1, 0, alphas[q]};
        rect_tris((float)(2 * q), 4, (float)(2 * q + 2), 8, W, H, g, v);
        trt_draw(ctx, v, 6);
    }
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    const uint32_t a2c_mask[4] = {0x3, 0x1, 0xF, 0x0};
    uint8_t px[8 * 8 * 4];
    for (uint32_t s = 0; s < 4; s++) {
        TRT_OK(tr_image_download(img, &(tr_subresource){.sample = s}, px, 0));
        for (uint32_t y = 0; y < H; y++)
            for (uint32_t x = 0; x < W; x++) {
                const uint8_t *t = px + 4 * (y * W + x);
                if (y < 4) {
                    const bool in = (0x5 >> s) & 1;
                    cr_expect_eq(t[0], in ? 255 : 0, "mask: pixel (%u, %u) sample %u", x, y, s);
                } else {
                    const bool in = (a2c_mask[x / 2] >> s) & 1;
                    cr_expect_eq(t[1], in ? 255 : 0, "a2c: pixel (%u, %u) sample %u (alpha %g)", x, y, s,
                                 (double)alphas[x / 2]);
                }
            }
    }
    tr_context_destroy(ctx);
}

/* Depth per sample: a triangle with depth varying along x, stored at each
 * sample as the plane's value at the sample's position. */
Test(multisample_render, depth_is_interpolated_at_each_sample)
{
    const uint32_t W = 16, H = 8, N = 4;
    tr_context *ctx = trt_context(1);
    tr_image *col = trt_image_ms(ctx, TR_FORMAT_R8G8B8A8_UNORM, W, H, N);
    tr_image *dep = trt_image_ms(ctx, TR_FORMAT_D32_SFLOAT, W, H, N);
    trt_begin_color_depth(ctx, col, dep, 0);
    tr_pipeline_desc pd = {.depth_test = 1, .depth_write = 1};
    TRT_OK(tr_cmd_bind_pipeline(ctx, ms_pipeline(ctx, N, &pd)));
    /* z = x / 32 over the rectangle [0, 16) x [0, 8): two triangles of one plane */
    const float w1[4] = {1, 1, 1, 1};
    const trt_vertex v[6] = {trt_vpx(0, 0, 0.0f, W, H, w1),  trt_vpx(16, 0, 0.5f, W, H, w1),
                             trt_vpx(0, 8, 0.0f, W, H, w1),  trt_vpx(16, 0, 0.5f, W, H, w1),
                             trt_vpx(16, 8, 0.5f, W, H, w1), trt_vpx(0, 8, 0.0f, W, H, w1)};
    trt_draw(ctx, v, 6);
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    float z[16 * 8];
    for (uint32_t s = 0; s < N; s++) {
        float pos[2];
        TRT_OK(tr_sample_position(N, s, pos));
        TRT_OK(tr_image_download(dep, &(tr_subresource){.aspect = TR_ASPECT_DEPTH, .sample = s}, z, 0));
        for (uint32_t y = 0; y < H; y++)
            for (uint32_t x = 0; x < W; x++) {
                const double want = ((double)x + pos[0]) / 32.0;
                cr_expect(fabs(z[y * W + x] - want) < 1e-6, "sample %u pixel (%u, %u): z %.9g, want %.9g", s, x, y,
                          (double)z[y * W + x], want);
            }
    }
    tr_context_destroy(ctx);
}

/* ---- the same bits everywhere --------------------------------------------------------------- */

typedef struct scene_cfg {
    uint32_t threads, samples, gmem_bytes;
    tr_simd_level simd;
    int explicit_one; /* samples 1 given explicitly (images and pipeline) rather than left 0 */
    float density;    /* above 0: a density map of this value (fdm.h) */
} scene_cfg;

/* Random overlapping triangles with depth and alpha blending; returns a
 * CRC of every sample's colour and depth, and the statistics. */
static uint32_t render_scene(const scene_cfg *c, tr_pass_stats *st)
{
    tr_context_desc cd = {.threads = c->threads, .gmem_bytes = c->gmem_bytes, .simd = c->simd};
    tr_context *ctx = trt_context_desc(&cd);
    const uint32_t W = 96, H = 80, N = c->samples;
    const uint32_t ns = c->explicit_one || N > 1 ? N : 0;
    tr_image *col = trt_image_ms(ctx, TR_FORMAT_R8G8B8A8_UNORM, W, H, ns);
    tr_image *dep = trt_image_ms(ctx, TR_FORMAT_D32_SFLOAT, W, H, ns);
    trt_begin_ms(ctx, col, dep, c->density, 0);
    tr_pipeline_desc pd = {.depth_test = 1, .depth_write = 1, .depth_compare = TR_COMPARE_LESS_OR_EQUAL};
    pd.blend[0] = (tr_blend_state){.enable = 1, .src_color = TR_BLEND_SRC_ALPHA,
                                   .dst_color = TR_BLEND_ONE_MINUS_SRC_ALPHA, .color_op = TR_BLEND_OP_ADD,
                                   .src_alpha = TR_BLEND_ONE, .dst_alpha = TR_BLEND_ZERO,
                                   .alpha_op = TR_BLEND_OP_ADD, .write_mask = 0xf};
    pd.multisample.samples = ns;
    TRT_OK(tr_cmd_bind_pipeline(ctx, trt_pipeline(ctx, &pd)));
    /* a scissor inside the target (a density map widens set-up's cut) */
    TRT_OK(tr_cmd_set_scissor(ctx, &(tr_rect){3, 5, 85, 70}));
    trt_rng rng = {77};
    trt_vertex v[600 * 3];
    for (uint32_t i = 0; i < 600 * 3; i++) {
        const float color[4] = {(float)trt_rand_range(&rng, 0, 1), (float)trt_rand_range(&rng, 0, 1),
                                (float)trt_rand_range(&rng, 0, 1), (float)trt_rand_range(&rng, 0.3, 1)};
        v[i] = trt_vpx(trt_rand_coord(&rng, -8, W + 8), trt_rand_coord(&rng, -8, H + 8),
                       (float)trt_rand_range(&rng, 0.1, 0.9), W, H, color);
        if (i % 3 == 2 && i % 2) { /* some small ones */
            v[i].pos[0] = v[i - 1].pos[0] + 0.05f;
            v[i].pos[1] = v[i - 2].pos[1] + 0.07f;
        }
    }
    trt_draw(ctx, v, 600 * 3);
    TRT_OK(tr_cmd_end_render_pass(ctx, st));
    const uint32_t crc = trt_crc_samples(col, dep, N);
    tr_context_destroy(ctx);
    return crc;
}

static void expect_same_stats(const tr_pass_stats *a, const tr_pass_stats *b, const char *what)
{
    cr_expect_eq(a->fragments_rasterized, b->fragments_rasterized, "%s: rasterized", what);
    cr_expect_eq(a->fragments_depth_rejected, b->fragments_depth_rejected, "%s: depth rejected", what);
    cr_expect_eq(a->fragments_shaded, b->fragments_shaded, "%s: shaded", what);
    cr_expect_eq(a->fragments_written, b->fragments_written, "%s: written", what);
}

Test(multisample_render, identical_for_threads_simd_and_gmem_budget)
{
    for (uint32_t n = 2; n <= 8; n *= 2) {
        tr_pass_stats ref_st, st;
        const scene_cfg ref = {1, n, 0, TR_SIMD_SCALAR, 0, 0.0f};
        const uint32_t want = render_scene(&ref, &ref_st);
        cr_assert_gt(ref_st.fragments_depth_rejected, 0, "the scene tests depth");
        const scene_cfg cfgs[] = {
            {2, n, 0, TR_SIMD_SSE, 0, 0.0f},         {3, n, 0, TR_SIMD_AVX2, 0, 0.0f},
            {1, n, 64u << 10, TR_SIMD_AVX2, 0, 0.0f}, {4, n, 48u << 10, TR_SIMD_SSE, 0, 0.0f},
            {2, n, 3u << 20, TR_SIMD_SCALAR, 0, 0.0f},
        };
        for (size_t k = 0; k < sizeof cfgs / sizeof cfgs[0]; k++) {
            const uint32_t got = render_scene(&cfgs[k], &st);
            cr_expect_eq(got, want, "%ux: threads %u, simd %d, gmem %u differ", n, cfgs[k].threads,
                         (int)cfgs[k].simd, cfgs[k].gmem_bytes);
            expect_same_stats(&st, &ref_st, "config");
        }
    }
}

/* A pass whose images and pipeline say samples = 1 is today's pass. */
Test(multisample_render, one_sample_equals_single_sample)
{
    tr_pass_stats a, b;
    const scene_cfg implicit = {2, 1, 0, TR_SIMD_AVX2, 0, 0.0f}, explicit_one = {2, 1, 0, TR_SIMD_AVX2, 1, 0.0f};
    cr_expect_eq(render_scene(&implicit, &a), render_scene(&explicit_one, &b));
    expect_same_stats(&a, &b, "samples 1");
}

/* ---- resolve attachments -------------------------------------------------------------------- */

/* Random blended triangles at 4x into a multisampled attachment `ms` that
 * resolves into `res` (store_op as given). */
static void draw_resolved(tr_context *ctx, tr_image *ms, tr_image *res, tr_store_op store, tr_image *map,
                          tr_pass_stats *st)
{
    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.density_map.image = map;
    rp.color_count = 1;
    rp.color[0] = (tr_color_attachment){.image = ms, .load_op = TR_LOAD_OP_CLEAR, .store_op = store,
                                        .clear_color = {0.1f, 0.2f, 0.3f, 1.0f}, .resolve_image = res};
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
    tr_pipeline_desc pd = {0};
    pd.blend[0] = (tr_blend_state){.enable = 1, .src_color = TR_BLEND_SRC_ALPHA,
                                   .dst_color = TR_BLEND_ONE_MINUS_SRC_ALPHA, .color_op = TR_BLEND_OP_ADD,
                                   .src_alpha = TR_BLEND_ONE, .dst_alpha = TR_BLEND_ZERO,
                                   .alpha_op = TR_BLEND_OP_ADD, .write_mask = 0xf};
    TRT_OK(tr_cmd_bind_pipeline(ctx, ms_pipeline(ctx, 4, &pd)));
    const tr_image_desc d = tr_image_get_desc(ms);
    trt_rng rng = {5};
    trt_vertex v[90];
    for (uint32_t i = 0; i < 90; i++) {
        const float c[4] = {(float)trt_rand_range(&rng, 0, 1), (float)trt_rand_range(&rng, 0, 1),
                            (float)trt_rand_range(&rng, 0, 1), (float)trt_rand_range(&rng, 0.2, 1)};
        v[i] = trt_vpx(trt_rand_coord(&rng, -4, (float)d.width + 4), trt_rand_coord(&rng, -4, (float)d.height + 4),
                       0.5f, d.width, d.height, c);
    }
    trt_draw(ctx, v, 90);
    TRT_OK(tr_cmd_end_render_pass(ctx, st));
}

/* The tile's resolve equals the image's (tr_image_read_rgba8 of the stored
 * multisampled image), for UNORM and half-float colour; with store_op
 * DONT_CARE only the resolve is written, and the statistics say so. */
Test(multisample_render, resolve_attachment_equals_image_resolve)
{
    const tr_format formats[2] = {TR_FORMAT_R8G8B8A8_UNORM, TR_FORMAT_R16G16B16A16_SFLOAT};
    const uint32_t W = 40, H = 24;
    for (int f = 0; f < 2; f++) {
        tr_context_desc cd = {.threads = 2, .gmem_bytes = 32u << 10}; /* several bins */
        tr_context *ctx = trt_context_desc(&cd);
        tr_image *ms = trt_image_ms(ctx, formats[f], W, H, 4);
        tr_image *res = trt_image(ctx, formats[f], W, H);
        tr_pass_stats st;
        draw_resolved(ctx, ms, res, TR_STORE_OP_STORE, NULL, &st);
        const uint32_t cpp = tr_format_texel_size(formats[f], TR_ASPECT_COLOR);
        cr_expect_eq(st.gmem_bytes_resolved, (uint64_t)W * H * cpp, "resolved %llu bytes",
                     (unsigned long long)st.gmem_bytes_resolved);
        cr_expect_eq(st.gmem_bytes_stored, (uint64_t)W * H * cpp * 4, "stored %llu bytes (4 samples)",
                     (unsigned long long)st.gmem_bytes_stored);
        static uint8_t a[40 * 24 * 4], b[40 * 24 * 4];
        TRT_OK(tr_image_read_rgba8(ms, NULL, a));
        TRT_OK(tr_image_read_rgba8(res, NULL, b));
        cr_expect_arr_eq(a, b, sizeof a, "%s: the tile's resolve differs from the image's", tr_format_name(formats[f]));
        /* the resolve holds the same bytes when the samples are not stored */
        static uint8_t full[40 * 24 * 8], again[40 * 24 * 8];
        TRT_OK(tr_image_download(res, NULL, full, 0));
        tr_image *res2 = trt_image(ctx, formats[f], W, H);
        tr_image *ms2 = trt_image_ms(ctx, formats[f], W, H, 4);
        draw_resolved(ctx, ms2, res2, TR_STORE_OP_DONT_CARE, NULL, &st);
        cr_expect_eq(st.gmem_bytes_stored, 0u);
        cr_expect_eq(st.gmem_bytes_resolved, (uint64_t)W * H * cpp);
        TRT_OK(tr_image_download(res2, NULL, again, 0));
        cr_expect_arr_eq(full, again, (size_t)W * H * cpp, "%s: resolve without the store differs",
                         tr_format_name(formats[f]));
        TRT_OK(tr_image_download(ms2, NULL, again, 0));
        for (uint32_t i = 0; i < W * H * cpp; i++)
            cr_assert_eq(again[i], 0, "the unstored multisampled image was written");
        /* half density: scaled bins resolve each pixel from its coarse
         * fragment's samples, as their store upscales them */
        tr_image *map = trt_image(ctx, TR_FORMAT_R8G8_UNORM, 4, 4);
        const float half[4] = {0.5f, 0.5f, 0, 0};
        TRT_OK(tr_image_fill(map, NULL, half));
        tr_image *ms3 = trt_image_ms(ctx, formats[f], W, H, 4), *res3 = trt_image(ctx, formats[f], W, H);
        draw_resolved(ctx, ms3, res3, TR_STORE_OP_STORE, map, &st);
        cr_expect_gt(st.fdm_fragments_shaded_scaled, 0);
        cr_expect_eq(st.gmem_bytes_resolved, (uint64_t)W * H * cpp);
        TRT_OK(tr_image_read_rgba8(ms3, NULL, a));
        TRT_OK(tr_image_read_rgba8(res3, NULL, b));
        cr_expect_arr_eq(a, b, sizeof a, "%s at half density: the tile's resolve differs from the image's",
                         tr_format_name(formats[f]));
        tr_context_destroy(ctx);
    }
}

/* ---- shading per sample ------------------------------------------------------------------------ */

/* red: (sample_index + 1) / 8; green: frag_x's fraction; blue: frag_y's. */
static void fs_sample_id(tr_fs_block *b)
{
    for (uint32_t i = 0; i < b->count; i++) {
        b->color[0][0][i] = (float)(b->sample_index + 1) / 8.0f;
        b->color[0][1][i] = b->frag_x[i] - floorf(b->frag_x[i]);
        b->color[0][2][i] = b->frag_y[i] - floorf(b->frag_y[i]);
        b->color[0][3][i] = 1.0f;
    }
}

/* TR_FS_SAMPLE_RATE: one call per covered sample, with sample_index and
 * frag_x / frag_y at the sample; sample shading at min 1 shades as often.
 * At min 0.25 of 4 samples the shader runs once per pixel (index -1). */
Test(multisample_render, shading_per_sample)
{
    const uint32_t W = 8, H = 8;
    for (int mode = 0; mode < 3; mode++) {
        for (uint32_t n = 2; n <= 8; n *= 2) {
            tr_context *ctx = trt_context(2);
            tr_image *img = trt_image_ms(ctx, TR_FORMAT_R8G8B8A8_UNORM, W, H, n);
            const float zero[4] = {0, 0, 0, 0};
            trt_begin_color(ctx, img, zero);
            tr_pipeline_desc pd = {.fragment_shader = fs_sample_id};
            if (mode == 0)
                pd.fs_flags = TR_FS_SAMPLE_RATE;
            pd.multisample.sample_shading = mode != 0;
            pd.multisample.min_sample_shading = mode == 1 ? 1.0f : 1.0f / (float)n;
            TRT_OK(tr_cmd_bind_pipeline(ctx, ms_pipeline(ctx, n, &pd)));
            const float w1[4] = {1, 1, 1, 1};
            const trt_vertex v[3] = {trt_vpx(0, 0, 0.5f, W, H, w1), trt_vpx(8, 0, 0.5f, W, H, w1),
                                     trt_vpx(0, 8, 0.5f, W, H, w1)};
            trt_draw(ctx, v, 3);
            tr_pass_stats st;
            TRT_OK(tr_cmd_end_render_pass(ctx, &st));
            const bool per_sample = mode != 2;
            if (per_sample)
                cr_expect_eq(st.fragments_shaded, st.fragments_rasterized, "mode %d %ux: shaded %llu, covered %llu",
                             mode, n, (unsigned long long)st.fragments_shaded,
                             (unsigned long long)st.fragments_rasterized);
            else
                cr_expect_lt(st.fragments_shaded, st.fragments_rasterized);
            uint8_t px[8 * 8 * 4];
            for (uint32_t s = 0; s < n; s++) {
                float pos[2];
                TRT_OK(tr_sample_position(n, s, pos));
                TRT_OK(tr_image_download(img, &(tr_subresource){.sample = s}, px, 0));
                for (uint32_t y = 0; y < H; y++)
                    for (uint32_t x = 0; x < W; x++) {
                        const uint8_t *t = px + 4 * (y * W + x);
                        const bool in = (float)x + pos[0] + (float)y + pos[1] < 8.0f;
                        if (!in) {
                            cr_expect_eq(t[3], 0, "mode %d %ux: (%u, %u) sample %u written", mode, n, x, y, s);
                            continue;
                        }
                        const uint8_t r = per_sample ? (uint8_t)lroundf((float)(s + 1) / 8.0f * 255.0f) : 0;
                        const uint8_t g = (uint8_t)lroundf((per_sample ? pos[0] : 0.5f) * 255.0f);
                        const uint8_t bl = (uint8_t)lroundf((per_sample ? pos[1] : 0.5f) * 255.0f);
                        cr_expect(t[0] == r && t[1] == g && t[2] == bl,
                                  "mode %d %ux: (%u, %u) sample %u: %u %u %u, want %u %u %u", mode, n, x, y, s, t[0],
                                  t[1], t[2], r, g, bl);
                    }
            }
            tr_context_destroy(ctx);
        }
    }
}

/* A density map in a multisampled pass: at density 1 (every byte 255) the
 * same bits as without one; at half density (2x2 coarse fragments) the
 * same bits for every thread count, SIMD level and GMEM budget. */
Test(multisample_render, density_map_full_rate_equals_none)
{
    for (uint32_t n = 2; n <= 8; n *= 2) {
        tr_pass_stats a, b;
        const scene_cfg none = {2, n, 0, TR_SIMD_AVX2, 0, 0.0f}, full = {2, n, 0, TR_SIMD_AVX2, 0, 1.0f};
        cr_expect_eq(render_scene(&none, &a), render_scene(&full, &b), "%ux: density 255 differs from no map", n);
        expect_same_stats(&a, &b, "density 255");
        tr_pass_stats ref_st, st;
        const scene_cfg half = {1, n, 0, TR_SIMD_SCALAR, 0, 0.5f};
        const uint32_t want = render_scene(&half, &ref_st);
        cr_expect_gt(ref_st.fdm_fragments_shaded_scaled, 0, "%ux: no coarse fragment shaded", n);
        const scene_cfg others[] = {{3, n, 0, TR_SIMD_AVX2, 0, 0.5f}, {2, n, 48u << 10, TR_SIMD_SSE, 0, 0.5f}};
        for (size_t k = 0; k < 2; k++) {
            cr_expect_eq(render_scene(&others[k], &st), want, "%ux half density: config %zu differs", n, k);
            expect_same_stats(&st, &ref_st, "half density");
        }
    }
}

/* A shader that writes depth gives every sample of its pixel that depth:
 * over a quad at 0.5, shader depth 0.25 passes LESS at every sample and
 * 0.75 at none. */
Test(multisample_render, shader_depth_applies_to_every_sample)
{
    const uint32_t W = 16, H = 8, N = 4;
    tr_context *ctx = trt_context(1);
    tr_image *col = trt_image_ms(ctx, TR_FORMAT_R8G8B8A8_UNORM, W, H, N);
    tr_image *dep = trt_image_ms(ctx, TR_FORMAT_D32_SFLOAT, W, H, N);
    trt_begin_color_depth(ctx, col, dep, 0);
    trt_vertex v[6];
    const float red[4] = {1, 0, 0, 1};
    rect_tris(0, 0, 16, 8, W, H, red, v);
    tr_pipeline_desc pd = {.depth_test = 1, .depth_write = 1};
    TRT_OK(tr_cmd_bind_pipeline(ctx, ms_pipeline(ctx, N, &pd)));
    trt_draw(ctx, v, 6);
    pd.fragment_shader = trt_fs_depth_uniform;
    pd.fs_flags = TR_FS_WRITES_DEPTH;
    TRT_OK(tr_cmd_bind_pipeline(ctx, ms_pipeline(ctx, N, &pd)));
    trt_uniforms u = {0};
    u.color[0][1] = u.color[0][3] = 1.0f; /* green, left half: depth 0.25 */
    u.depth = 0.25f;
    rect_tris(0, 0, 8, 8, W, H, NULL, v);
    trt_draw_u(ctx, &u, v, 6);
    u.color[0][1] = 0.0f; /* blue, right half: depth 0.75 */
    u.color[0][2] = 1.0f;
    u.depth = 0.75f;
    rect_tris(8, 0, 16, 8, W, H, NULL, v);
    trt_draw_u(ctx, &u, v, 6);
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    uint8_t px[16 * 8 * 4];
    float z[16 * 8];
    for (uint32_t s = 0; s < N; s++) {
        TRT_OK(tr_image_download(col, &(tr_subresource){.sample = s}, px, 0));
        TRT_OK(tr_image_download(dep, &(tr_subresource){.aspect = TR_ASPECT_DEPTH, .sample = s}, z, 0));
        for (uint32_t i = 0; i < W * H; i++) {
            const bool left = i % W < 8;
            cr_assert_eq(px[4 * i + 0], left ? 0 : 255, "sample %u pixel %u red %u", s, i, px[4 * i]);
            cr_assert_eq(px[4 * i + 1], left ? 255 : 0, "sample %u pixel %u green", s, i);
            cr_assert_eq(z[i], left ? 0.25f : 0.5f, "sample %u pixel %u depth %g", s, i, (double)z[i]);
        }
    }
    tr_context_destroy(ctx);
}
