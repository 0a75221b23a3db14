/* gl_SampleMaskIn and gl_SampleMask for C shaders (pipeline.h:
 * tr_fs_block.sample_mask_in with TR_FS_READS_SAMPLE_MASK, .sample_mask
 * with TR_FS_WRITES_SAMPLE_MASK): the input is each pixel's covered samples
 * (worked out by the reference rasterizer at every sample position), kept
 * by the pipeline's sample mask, or the shaded sample's bit when shading
 * per sample; the output drops the samples of its clear bits.  Every
 * sample is read back with tr_image_download, in 4x and single-sampled
 * passes, and the images are the same for every thread count, SIMD level
 * and GMEM budget. */
#include <math.h>
#include <string.h>

#include "trtest.h"

#define W 16u
#define H 16u
#define N 4u

/* A triangle crossing pixels at slants, its corners on the 1/256 grid (so
 * that moving it by a sample's offset, whole sixteenths, keeps it there). */
static const float tri[3][2] = {{0.5f, 0.25f}, {15.75f, 3.125f}, {4.0625f, 15.5f}};

/* The reference coverage of the test's triangle (trt_ref_sample_coverage). */
static void ref_coverage(uint32_t n, uint8_t cov[W * H])
{
    trt_ref_sample_coverage(tri, n, W, H, cov);
}

/* Colour: red = sample_mask_in / 255 (exact in UNORM8), green 1. */
static void fs_mask_in(tr_fs_block *b)
{
    for (uint32_t i = 0; i < b->count; i++) {
        b->color[0][0][i] = (float)b->sample_mask_in[i] / 255.0f;
        b->color[0][1][i] = 1.0f;
        b->color[0][2][i] = 0.0f;
        b->color[0][3][i] = 1.0f;
    }
}

/* The output mask of pixel (x, y): 0x5 where x + y is even, else 0xa. */
static uint32_t out_mask(uint32_t x, uint32_t y)
{
    return ((x + y) & 1u) == 0 ? 0x5u : 0xau;
}

/* Writes out_mask of its pixel (and, in red, the input mask, so both meet
 * in one draw); green 1. */
static void fs_mask_out(tr_fs_block *b)
{
    for (uint32_t i = 0; i < b->count; i++) {
        const uint32_t x = (uint32_t)floorf(b->frag_x[i]), y = (uint32_t)floorf(b->frag_y[i]);
        b->sample_mask[i] = out_mask(x, y);
        b->color[0][0][i] = (float)b->sample_mask_in[i] / 255.0f;
        b->color[0][1][i] = 1.0f;
        b->color[0][2][i] = 0.0f;
        b->color[0][3][i] = 1.0f;
    }
}

/* Per sample: keeps only sample (x & 3) of pixel x.  A call that shades
 * one sample reads only that sample's bit, so the mask of a dropped sample
 * sets every other bit, and a kept one's no other bit.  Blue: the shaded
 * sample. */
static void fs_mask_out_per_sample(tr_fs_block *b)
{
    for (uint32_t i = 0; i < b->count; i++) {
        const uint32_t x = (uint32_t)floorf(b->frag_x[i]);
        const uint32_t s = (uint32_t)b->sample_index;
        b->sample_mask[i] = (x & 3u) == s ? 1u << s : ~(1u << s);
        b->color[0][0][i] = (float)b->sample_mask_in[i] / 255.0f;
        b->color[0][1][i] = 1.0f;
        b->color[0][2][i] = (float)s / 255.0f;
        b->color[0][3][i] = 1.0f;
    }
}

typedef struct cfg {
    uint32_t threads, gmem_bytes; /* gmem_bytes 0: one bin; else with 8 x 8 tile alignment, several */
    tr_simd_level simd;
} cfg;

/* Draws the triangle with fs / fs_flags (and the pipeline's sample_mask
 * ms_mask) into an n-sample RGBA8 image cleared to 0; returns every
 * sample's texels, px[s][4 * (y * W + x)]. */
static void render(const cfg *c, uint32_t n, tr_fragment_shader fs, uint32_t fs_flags, uint32_t ms_mask,
                   uint8_t px[][4 * W * H])
{
    tr_context *ctx = trt_context_desc(&(tr_context_desc){.threads = c->threads,
                                                           .gmem_bytes = c->gmem_bytes,
                                                           .tile_align_w = c->gmem_bytes ? 8u : 0u,
                                                           .tile_align_h = c->gmem_bytes ? 8u : 0u,
                                                           .simd = c->simd});
    tr_image *img = trt_image_ms(ctx, TR_FORMAT_R8G8B8A8_UNORM, W, H, n);
    const float zero[4] = {0, 0, 0, 0}, white[4] = {1, 1, 1, 1};
    trt_begin_color(ctx, img, zero);
    tr_pipeline_desc pd = {0};
    pd.fragment_shader = fs;
    pd.fs_flags = fs_flags;
    pd.flat_mask = 1; /* (a shader reading only flat inputs: the library must not shade one quad for all) */
    pd.multisample.samples = n;
    pd.multisample.sample_mask = ms_mask;
    TRT_OK(tr_cmd_bind_pipeline(ctx, trt_pipeline(ctx, &pd)));
    trt_vertex v[3];
    for (int k = 0; k < 3; k++)
        v[k] = trt_vpx(tri[k][0], tri[k][1], 0.5f, W, H, white);
    trt_draw(ctx, v, 3);
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    for (uint32_t s = 0; s < n; s++)
        TRT_OK(tr_image_download(img, &(tr_subresource){.sample = s}, px[s], 0));
    tr_context_destroy(ctx);
}

static const cfg one = {1, 0, (tr_simd_level)0};

/* 4x, pixel rate: every written sample holds its pixel's covered samples,
 * and the reference's coverage is what was written; with the pipeline's
 * sample mask 0xd, sample 1 is neither written nor in the input. */
Test(sample_mask, input_is_the_coverage_at_4x)
{
    uint8_t cov[W * H];
    ref_coverage(N, cov);
    const uint32_t masks[2] = {0, 0xdu};
    for (uint32_t k = 0; k < 2; k++) {
        const uint32_t keep = masks[k] ? masks[k] : 0xfu;
        static uint8_t px[N][4 * W * H];
        render(&one, N, fs_mask_in, TR_FS_READS_SAMPLE_MASK | TR_FS_NO_FRAG_COORD, masks[k], px);
        uint32_t partial = 0, full = 0;
        for (uint32_t i = 0; i < W * H; i++) {
            const uint32_t want = cov[i] & keep;
            partial += want != 0 && want != keep;
            full += want == keep;
            for (uint32_t s = 0; s < N; s++) {
                const uint8_t *p = &px[s][4 * i];
                if ((want >> s) & 1u) {
                    cr_expect_eq(p[1], 255, "mask 0x%x: pixel (%u, %u) sample %u covered, not written", keep,
                                 i % W, i / W, s);
                    cr_expect_eq(p[0], want, "mask 0x%x: pixel (%u, %u) sample %u: sample_mask_in 0x%x, want 0x%x",
                                 keep, i % W, i / W, s, p[0], want);
                } else {
                    cr_expect_eq(p[1], 0, "mask 0x%x: pixel (%u, %u) sample %u written, not covered", keep, i % W,
                                 i / W, s);
                }
            }
        }
        cr_expect_gt(partial, 10u, "the edges cross pixels");
        cr_expect_gt(full, 30u);
    }
}

/* 4x, pixel rate: the output mask keeps its bits of the coverage; the
 * input beside it is the whole coverage. */
Test(sample_mask, output_keeps_its_samples_at_4x)
{
    uint8_t cov[W * H];
    ref_coverage(N, cov);
    static uint8_t px[N][4 * W * H];
    render(&one, N, fs_mask_out, TR_FS_READS_SAMPLE_MASK | TR_FS_WRITES_SAMPLE_MASK, 0, px);
    uint32_t written = 0;
    for (uint32_t i = 0; i < W * H; i++) {
        const uint32_t x = i % W, y = i / W;
        for (uint32_t s = 0; s < N; s++) {
            const uint8_t *p = &px[s][4 * i];
            if ((cov[i] & out_mask(x, y)) >> s & 1u) {
                written++;
                cr_expect_eq(p[1], 255, "pixel (%u, %u) sample %u kept, not written", x, y, s);
                cr_expect_eq(p[0], cov[i], "pixel (%u, %u) sample %u: sample_mask_in 0x%x, want 0x%x", x, y, s, p[0],
                             cov[i]);
            } else {
                cr_expect_eq(p[1], 0, "pixel (%u, %u) sample %u written, masked off or not covered", x, y, s);
            }
        }
    }
    cr_expect_gt(written, 100u);
}

/* 4x, per sample (TR_FS_SAMPLE_RATE): the input is the shaded sample's
 * bit; the output's bit of that sample alone decides. */
Test(sample_mask, per_sample_input_and_output_at_4x)
{
    uint8_t cov[W * H];
    ref_coverage(N, cov);
    static uint8_t px[N][4 * W * H];
    render(&one, N, fs_mask_out_per_sample,
           TR_FS_SAMPLE_RATE | TR_FS_READS_SAMPLE_MASK | TR_FS_WRITES_SAMPLE_MASK, 0, px);
    uint32_t written = 0;
    for (uint32_t i = 0; i < W * H; i++) {
        const uint32_t x = i % W, y = i / W;
        for (uint32_t s = 0; s < N; s++) {
            const uint8_t *p = &px[s][4 * i];
            if (((cov[i] >> s) & 1u) && (x & 3u) == s) {
                written++;
                cr_expect_eq(p[1], 255, "pixel (%u, %u) sample %u kept, not written", x, y, s);
                cr_expect_eq(p[0], 1u << s, "pixel (%u, %u) sample %u: sample_mask_in 0x%x", x, y, s, p[0]);
                cr_expect_eq(p[2], s, "pixel (%u, %u) sample %u: shaded as sample %u", x, y, s, p[2]);
            } else {
                cr_expect_eq(p[1], 0, "pixel (%u, %u) sample %u written, masked off or not covered", x, y, s);
            }
        }
    }
    cr_expect_gt(written, 20u);
}

/* Single-sampled: the input is 1 for every covered pixel, and an output
 * whose bit 0 is clear (x + y odd: 0xa) drops the fragment. */
Test(sample_mask, single_sampled_input_and_output)
{
    uint8_t cov[W * H];
    ref_coverage(1, cov);
    static uint8_t px[2][1][4 * W * H];
    render(&one, 1, fs_mask_in, TR_FS_READS_SAMPLE_MASK | TR_FS_NO_FRAG_COORD, 0, px[0]);
    render(&one, 1, fs_mask_out, TR_FS_READS_SAMPLE_MASK | TR_FS_WRITES_SAMPLE_MASK, 0, px[1]);
    uint32_t covered = 0;
    for (uint32_t i = 0; i < W * H; i++) {
        const uint32_t x = i % W, y = i / W;
        covered += cov[i];
        const uint8_t *a = &px[0][0][4 * i], *b = &px[1][0][4 * i];
        cr_expect_eq(a[1], cov[i] ? 255 : 0, "input pass: pixel (%u, %u)", x, y);
        cr_expect_eq(a[0], cov[i], "input pass: pixel (%u, %u): sample_mask_in %u", x, y, a[0]);
        const bool kept = cov[i] && (out_mask(x, y) & 1u);
        cr_expect_eq(b[1], kept ? 255 : 0, "output pass: pixel (%u, %u) %s", x, y, kept ? "kept" : "dropped");
        if (kept)
            cr_expect_eq(b[0], 1, "output pass: pixel (%u, %u): sample_mask_in %u", x, y, b[0]);
    }
    cr_expect_gt(covered, 50u);
}

/* The input is the coverage before the depth test (no
 * PostDepthCoverage): a nearer rectangle [0, 6.5) x [0, 16) hides samples
 * s0 and s2 of column 6 (x + 0.375, x + 0.125 < 6.5; s1 and s3 lie right
 * of it) and every sample left of it.  With the tests before the shader
 * (it only reads the mask) and after it (it writes the mask too), the
 * samples written still see the hidden ones in their mask. */
Test(sample_mask, input_is_taken_before_the_depth_test)
{
    uint8_t cov[W * H];
    ref_coverage(N, cov);
    for (uint32_t late = 0; late < 2; late++) {
        tr_context *ctx = trt_context(1);
        tr_image *img = trt_image_ms(ctx, TR_FORMAT_R8G8B8A8_UNORM, W, H, N);
        tr_image *depth = trt_image_ms(ctx, TR_FORMAT_D32_SFLOAT, W, H, N);
        trt_begin_ms(ctx, img, depth, 0.0f, 0);
        const float blue[4] = {0, 0, 1, 1}, white[4] = {1, 1, 1, 1};
        tr_pipeline_desc pd = {.depth_test = 1, .depth_write = 1};
        pd.multisample.samples = N;
        TRT_OK(tr_cmd_bind_pipeline(ctx, trt_pipeline(ctx, &pd)));
        trt_vertex r[6] = {trt_vpx(0, 0, 0.2f, W, H, blue),    trt_vpx(6.5f, 0, 0.2f, W, H, blue),
                           trt_vpx(0, 16, 0.2f, W, H, blue),   trt_vpx(6.5f, 0, 0.2f, W, H, blue),
                           trt_vpx(6.5f, 16, 0.2f, W, H, blue), trt_vpx(0, 16, 0.2f, W, H, blue)};
        trt_draw(ctx, r, 6);
        pd.fragment_shader = late ? fs_mask_out : fs_mask_in;
        /* late: the shader also writes out_mask, so the tests run after it */
        pd.fs_flags = TR_FS_READS_SAMPLE_MASK | (late ? TR_FS_WRITES_SAMPLE_MASK : TR_FS_NO_FRAG_COORD);
        TRT_OK(tr_cmd_bind_pipeline(ctx, trt_pipeline(ctx, &pd)));
        trt_vertex v[3];
        for (int k = 0; k < 3; k++)
            v[k] = trt_vpx(tri[k][0], tri[k][1], 0.5f, W, H, white);
        trt_draw(ctx, v, 3);
        TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
        static uint8_t px[N][4 * W * H];
        for (uint32_t s = 0; s < N; s++)
            TRT_OK(tr_image_download(img, &(tr_subresource){.sample = s}, px[s], 0));
        uint32_t seen = 0;
        for (uint32_t i = 0; i < W * H; i++) {
            const uint32_t x = i % W, y = i / W;
            const uint32_t hidden = x < 6 ? 0xfu : x == 6 ? 0x5u : 0u;
            const uint32_t kept = cov[i] & ~hidden & (late ? out_mask(x, y) : 0xfu);
            seen += x == 6 && kept && (cov[i] & hidden);
            for (uint32_t s = 0; s < N; s++) {
                const uint8_t *p = &px[s][4 * i];
                if ((kept >> s) & 1u) {
                    cr_expect_eq(p[1], 255, "late %u: pixel (%u, %u) sample %u not written", late, x, y, s);
                    cr_expect_eq(p[0], cov[i], "late %u: pixel (%u, %u) sample %u: sample_mask_in 0x%x, want 0x%x",
                                 late, x, y, s, p[0], cov[i]);
                } else {
                    cr_expect_eq(p[1], 0, "late %u: pixel (%u, %u) sample %u written", late, x, y, s);
                }
            }
        }
        cr_expect_gt(seen, 0u, "late %u: some pixel has a hidden and a written sample", late);
        tr_context_destroy(ctx);
    }
}

/* Writing the sample mask needs a fragment shader. */
Test(sample_mask, writes_without_a_shader_refused)
{
    tr_context *ctx = trt_context(1);
    tr_pipeline *p = NULL;
    TRT_EXPECT(tr_pipeline_create(ctx,
                                  &(tr_pipeline_desc){.vertex_shader = trt_vs, .varying_count = 1,
                                                      .fs_flags = TR_FS_WRITES_SAMPLE_MASK},
                                  &p),
               TR_ERROR_INVALID_DESCRIPTOR);
    cr_expect_null(p);
    cr_expect(strstr(tr_context_last_error(ctx), "fs_flags") != NULL, "%s", tr_context_last_error(ctx));
    tr_context_destroy(ctx);
}

/* The same bits for every thread count, SIMD level and GMEM budget, in
 * both the multisampled and single-sampled passes. */
Test(sample_mask, identical_for_threads_simd_and_gmem_budget)
{
    static const cfg cfgs[] = {{1, 0, TR_SIMD_SCALAR}, {2, 0, TR_SIMD_SSE}, {3, 0, TR_SIMD_AVX2},
                               {1, 2u << 10, TR_SIMD_AVX2}, {2, 1u << 10, TR_SIMD_SCALAR}};
    static const struct {
        uint32_t n;
        tr_fragment_shader fs;
        uint32_t flags;
    } runs[] = {
        {N, fs_mask_in, TR_FS_READS_SAMPLE_MASK | TR_FS_NO_FRAG_COORD},
        {N, fs_mask_out, TR_FS_READS_SAMPLE_MASK | TR_FS_WRITES_SAMPLE_MASK},
        {N, fs_mask_out_per_sample, TR_FS_SAMPLE_RATE | TR_FS_READS_SAMPLE_MASK | TR_FS_WRITES_SAMPLE_MASK},
        {1, fs_mask_in, TR_FS_READS_SAMPLE_MASK | TR_FS_NO_FRAG_COORD},
        {1, fs_mask_out, TR_FS_READS_SAMPLE_MASK | TR_FS_WRITES_SAMPLE_MASK},
    };
    static uint8_t ref[N][4 * W * H], got[N][4 * W * H];
    for (uint32_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
        render(&cfgs[0], runs[r].n, runs[r].fs, runs[r].flags, 0, ref);
        for (uint32_t k = 1; k < sizeof cfgs / sizeof cfgs[0]; k++) {
            render(&cfgs[k], runs[r].n, runs[r].fs, runs[r].flags, 0, got);
            cr_expect(memcmp(ref, got, (size_t)runs[r].n * sizeof ref[0]) == 0,
                      "run %u (%ux): threads %u, simd %d, gmem %u differ from the scalar reference", r, runs[r].n,
                      cfgs[k].threads, (int)cfgs[k].simd, cfgs[k].gmem_bytes);
        }
    }
}
