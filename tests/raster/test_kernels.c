/* Block kernels against their scalar references, on random inputs: the
 * bytes must be identical.  (The kernels are internal; the tests see them
 * through src/.) */
#include "trtest.h"

#include <math.h>
#include <string.h>

#include "internal.h"
#include "raster/raster_internal.h"

/* The 8-lane kernels are built and this CPU runs them. */
static bool avx2_here(void)
{
    return tr__cpu_has_avx2();
}

/* The kernel tables (tr__kernels_for): the scalar reference, or (simd) the
 * four lanes. */
static const tr__kernels *ks(bool simd)
{
    return tr__kernels_for(simd ? TR_SIMD_SSE : TR_SIMD_SCALAR);
}

/* The walk's kernels: 0 the scalar reference, 1 four lanes, 2 AVX2. */
static const tr__walk_kernels *walk_k(int i)
{
    return tr__kernels_for(i == 2 ? TR_SIMD_AVX2 : i == 1 ? TR_SIMD_SSE : TR_SIMD_SCALAR)->walk;
}

static float random_component(trt_rng *r)
{
    switch (trt_rand_u32(r) % 16) {
    case 0: return NAN;
    case 1: return INFINITY;
    case 2: return -INFINITY;
    case 3: return -(float)trt_rand_range(r, 0, 2);
    case 4: return 1.0f + (float)trt_rand_range(r, 0, 2);
    case 5: return 0.0f;
    case 6: return 1.0f;
    case 7: return (float)(trt_rand_u32(r) % 256) / 255.0f; /* exact codes */
    case 8: return ((float)(trt_rand_u32(r) % 256) + 0.5f) / 255.0f; /* rounding ties */
    default: return (float)trt_rand_range(r, 0, 1);
    }
}

/* The tile's resolve of a row (tr__resolve_row: UNORM8 formats in SIMD)
 * against tr__resolve_texel texel by texel, on random samples: every
 * sample count, rows of every length up to 3 vectors and a tail, and the
 * per-texel formats beside them. */
Test(raster, resolve_row_equals_texel_resolve)
{
    tr_context *ctx = trt_context(1);
    trt_rng rng = {2026};
    static const tr_format fmts[] = {TR_FORMAT_R8G8B8A8_UNORM, TR_FORMAT_B8G8R8A8_UNORM, TR_FORMAT_R8G8_UNORM,
                                     TR_FORMAT_R8_UNORM, TR_FORMAT_R8G8B8A8_SRGB, TR_FORMAT_A2B10G10R10_UNORM_PACK32};
    enum { MAX_TEXELS = 53, MAX_BYTES = MAX_TEXELS * 4 };
    static uint8_t src[16][MAX_BYTES], row[MAX_BYTES + 1], ref[MAX_BYTES];
    uint64_t checked = 0;
    for (size_t f = 0; f < sizeof fmts / sizeof fmts[0]; f++) {
        const uint32_t texel = fmts[f] == TR_FORMAT_R8G8_UNORM ? 2 : fmts[f] == TR_FORMAT_R8_UNORM ? 1 : 4;
        for (uint32_t n = 2; n <= 16; n *= 2)
            for (uint32_t count = 1; count <= MAX_TEXELS; count++) {
                for (uint32_t i = 0; i < n; i++)
                    for (uint32_t b = 0; b < MAX_BYTES; b++) /* the extremes often: they carry */
                        src[i][b] = (uint8_t)(trt_rand_u32(&rng) % 3 == 0 ? 255 * (trt_rand_u32(&rng) & 1)
                                                                            : trt_rand_u32(&rng));
                memset(row, 0xa5, sizeof row);
                tr__resolve_row(ctx, fmts[f], src[0], sizeof src[0], n, count, row);
                for (uint32_t x = 0; x < count; x++)
                    tr__resolve_texel(ctx, fmts[f], src[0] + x * texel, sizeof src[0], n, ref + x * texel);
                cr_assert_eq(memcmp(row, ref, (size_t)count * texel), 0, "format %d, %u samples, %u texels",
                             (int)fmts[f], n, count);
                cr_assert_eq(row[count * texel], 0xa5, "wrote past the row");
                checked += count;
            }
    }
    cr_assert_eq(checked, 6u * 4u * (MAX_TEXELS * (MAX_TEXELS + 1) / 2));
    tr_context_destroy(ctx);
}

Test(raster, blend_block_kernel_equals_reference)
{
    tr_context *ctx = trt_context(1);
    trt_rng rng = {31337};
    static const tr_format fmts[] = {TR_FORMAT_R8G8B8A8_UNORM, TR_FORMAT_R8G8B8A8_SRGB};
    tr_fs_block *fs = calloc(1, sizeof *fs);
    cr_assert_not_null(fs);
    uint64_t checked = 0;
    for (int iter = 0; iter < 20000; iter++) {
        tr_format fmt = fmts[iter & 1];
        tr_blend_state bs;
        memset(&bs, 0, sizeof bs);
        bs.enable = trt_rand_u32(&rng) % 4 != 0;
        bs.src_color = (tr_blend_factor)(1 + trt_rand_u32(&rng) % TR_BLEND_ONE_MINUS_SRC1_ALPHA);
        bs.dst_color = (tr_blend_factor)(1 + trt_rand_u32(&rng) % TR_BLEND_ONE_MINUS_SRC1_ALPHA);
        bs.src_alpha = (tr_blend_factor)(1 + trt_rand_u32(&rng) % TR_BLEND_ONE_MINUS_SRC1_ALPHA);
        bs.dst_alpha = (tr_blend_factor)(1 + trt_rand_u32(&rng) % TR_BLEND_ONE_MINUS_SRC1_ALPHA);
        bs.color_op = (tr_blend_op)(trt_rand_u32(&rng) % (TR_BLEND_OP_MAX + 1));
        bs.alpha_op = (tr_blend_op)(trt_rand_u32(&rng) % (TR_BLEND_OP_MAX + 1));
        bs.write_mask = 1 + trt_rand_u32(&rng) % 15;
        float k[4];
        for (int c = 0; c < 4; c++)
            k[c] = random_component(&rng);
        for (int a = 0; a < 2; a++)
            for (int c = 0; c < 4; c++)
                for (int l = 0; l < (int)TR_FS_LANES; l++)
                    fs->color[a][c][l] = random_component(&rng);
        uint64_t live = ((uint64_t)trt_rand_u32(&rng) << 32) | trt_rand_u32(&rng);
        if (iter % 7 == 0)
            live = ~0ull;
        /* A 16 x 16 texel patch; lanes land on distinct random texels. */
        uint8_t ref[16 * 16 * 4], got[16 * 16 * 4];
        for (size_t i = 0; i < sizeof ref; i++)
            ref[i] = (uint8_t)trt_rand_u32(&rng);
        memcpy(got, ref, sizeof ref);
        uint32_t idx[TR_FS_LANES];
        uint8_t used[256] = {0};
        for (uint32_t l = 0; l < TR_FS_LANES; l++) {
            uint32_t t;
            do
                t = trt_rand_u32(&rng) % 256;
            while (used[t]);
            used[t] = 1;
            idx[l] = t;
        }
        ctx->simd = TR_SIMD_SSE;
        cr_assert(tr__blend_block(ctx, fmt, &bs, fs, 0, live, idx, k, got));
        for (uint64_t m = live; m; m &= m - 1) {
            uint32_t l = (uint32_t)__builtin_ctzll(m);
            float src[4], src1[4];
            for (int c = 0; c < 4; c++) {
                src[c] = fs->color[0][c][l];
                src1[c] = fs->color[1][c][l];
            }
            tr__blend_write(ctx, fmt, &bs, src, src1, k, ref + (size_t)idx[l] * 4);
        }
        if (memcmp(ref, got, sizeof ref) != 0) {
            for (size_t i = 0; i < sizeof ref; i++)
                if (ref[i] != got[i])
                    cr_assert_fail("iteration %d (%s, blend %d, factors %d %d %d %d, ops %d %d, mask 0x%x): "
                                   "texel %zu byte %zu is %u, the reference %u",
                                   iter, tr_format_name(fmt), bs.enable, bs.src_color, bs.dst_color, bs.src_alpha,
                                   bs.dst_alpha, bs.color_op, bs.alpha_op, bs.write_mask, i / 4, i % 4, got[i], ref[i]);
        }
        checked += (uint64_t)__builtin_popcountll(live);
    }
    /* The scalar cap turns the kernel off. */
    ctx->simd = TR_SIMD_SCALAR;
    uint8_t texel[4] = {0};
    uint32_t idx0[TR_FS_LANES] = {0};
    tr_blend_state bs = {0};
    bs.write_mask = 0xf;
    const float k0[4] = {0};
    cr_expect(!tr__blend_block(ctx, TR_FORMAT_R8G8B8A8_UNORM, &bs, fs, 0, 1, idx0, k0, texel));
    cr_expect_gt(checked, 100000);
    free(fs);
    tr_context_destroy(ctx);
}

/* Alpha blending (the scene format's BLEND_ALPHA): rgb = s * a + d * (1 - a),
 * a = s.a + d.a * (1 - s.a). */
static void alpha_blend(tr_blend_state *b)
{
    b->enable = 1;
    b->src_color = TR_BLEND_SRC_ALPHA;
    b->dst_color = TR_BLEND_ONE_MINUS_SRC_ALPHA;
    b->src_alpha = TR_BLEND_ONE;
    b->dst_alpha = TR_BLEND_ONE_MINUS_SRC_ALPHA;
}

Test(raster, scalar_and_block_paths_render_the_same_scenes)
{
    /* TR_SIMD_SCALAR (the reference everywhere) and the default level give
     * the same bytes on blended, masked and sRGB targets. */
    trt_rng rng = {8};
    enum { W = 40, H = 40, NT = 60 };
    trt_vertex v[3 * NT];
    for (int i = 0; i < 3 * NT; i++) {
        float col[4] = {(float)trt_rand_range(&rng, -0.2, 1.2), (float)trt_rand_range(&rng, 0, 1),
                        (float)trt_rand_range(&rng, 0, 1), (float)trt_rand_range(&rng, 0, 1)};
        v[i] = trt_vpx(trt_rand_coord(&rng, -10, 50), trt_rand_coord(&rng, -10, 50), 0.5f, W, H, col);
    }
    static const tr_format fmts[] = {TR_FORMAT_R8G8B8A8_UNORM, TR_FORMAT_R8G8B8A8_SRGB};
    for (int f = 0; f < 2; f++)
        for (int variant = 0; variant < 3; variant++) {
            uint8_t px[2][W * H * 4];
            for (int scalar = 0; scalar < 2; scalar++) {
                tr_context_desc cd = {0};
                cd.threads = 2;
                cd.simd = scalar ? TR_SIMD_SCALAR : TR_SIMD_DEFAULT;
                tr_context *ctx = trt_context_desc(&cd);
                tr_image *img = trt_image(ctx, fmts[f], W, H);
                tr_pipeline_desc pd = {0};
                alpha_blend(&pd.blend[0]);
                pd.blend[0].enable = variant > 0;
                pd.blend[0].write_mask = variant == 2 ? 0x5 : 0;
                tr_pipeline *p = trt_pipeline(ctx, &pd);
                const float clear[4] = {0.2f, 0.3f, 0.4f, 0.5f};
                trt_begin_color(ctx, img, clear);
                TRT_OK(tr_cmd_bind_pipeline(ctx, p));
                trt_draw(ctx, v, 3 * NT);
                TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
                trt_download(img, 0, 0, TR_ASPECT_DEFAULT, px[scalar]);
                tr_context_destroy(ctx);
            }
            cr_assert_eq(memcmp(px[0], px[1], sizeof px[0]), 0, "format %d variant %d: SIMD and scalar differ", f,
                         variant);
        }
}

/* A triangle's edge functions as setup makes them (positive inside). */
static void make_edges(tr__tri *t, const int64_t X[3], const int64_t Y[3], unsigned bias_bits)
{
    int64_t area = (X[1] - X[0]) * (Y[2] - Y[0]) - (X[2] - X[0]) * (Y[1] - Y[0]);
    int o[3] = {0, 1, 2};
    if (area < 0) {
        o[1] = 2;
        o[2] = 1;
    }
    for (int k = 0; k < 3; k++) {
        int i = o[(k + 1) % 3], j = o[(k + 2) % 3];
        int64_t dx = X[j] - X[i], dy = Y[j] - Y[i];
        t->edge_a[k] = -dy;
        t->edge_b[k] = dx;
        t->edge_c[k] = -dx * Y[i] + dy * X[i] - (int64_t)((bias_bits >> k) & 1); /* either tie rule */
    }
}

Test(raster, coverage_kernel_equals_reference)
{
    trt_rng rng = {2718};
    tr__tri *t = calloc(1, sizeof(tr__tri) + 64);
    cr_assert_not_null(t);
    uint64_t partial = 0, blocks = 0;
    for (int iter = 0; iter < 200000; iter++) {
        /* Small, medium and huge triangles (edges beyond |a|, |b| = 2^26,
         * past the guard band, use the scalar path inside the kernel too). */
        double span = iter % 3 == 0 ? 12 : iter % 3 == 1 ? 200 : 400000;
        int64_t X[3], Y[3];
        for (int k = 0; k < 3; k++) {
            X[k] = (int64_t)(trt_rand_range(&rng, -span, span) * 256);
            Y[k] = (int64_t)(trt_rand_range(&rng, -span, span) * 256);
        }
        make_edges(t, X, Y, trt_rand_u32(&rng));
        /* a block near one of the vertices, where edges cross blocks */
        int v = (int)(trt_rand_u32(&rng) % 3);
        int32_t bx = (int32_t)((X[v] >> 8) & ~7) + ((int32_t)(trt_rand_u32(&rng) % 3) - 1) * 8;
        int32_t by = (int32_t)((Y[v] >> 8) & ~7) + ((int32_t)(trt_rand_u32(&rng) % 3) - 1) * 8;
        int32_t r[4] = {bx + (int32_t)(trt_rand_u32(&rng) % 10) - 1, by + (int32_t)(trt_rand_u32(&rng) % 10) - 1,
                        bx + (int32_t)(trt_rand_u32(&rng) % 12), by + (int32_t)(trt_rand_u32(&rng) % 12)};
        if (iter % 2)
            r[0] = r[1] = -100000, r[2] = r[3] = 100000;
        uint64_t ref = tr__walk_block_coverage(t, bx, by, r, walk_k(0));
        uint64_t got = tr__walk_block_coverage(t, bx, by, r, walk_k(1));
        if (ref != got)
            cr_assert_fail("iteration %d: block (%d,%d): SIMD mask %016llx, reference %016llx", iter, bx, by,
                           (unsigned long long)got, (unsigned long long)ref);
        if (avx2_here()) {
            got = tr__walk_block_coverage(t, bx, by, r, walk_k(2));
            if (ref != got)
                cr_assert_fail("iteration %d: block (%d,%d): AVX2 mask %016llx, reference %016llx", iter, bx, by,
                               (unsigned long long)got, (unsigned long long)ref);
        }
        blocks++;
        partial += ref != 0 && ref != ~0ull;
    }
    cr_expect_gt(partial, blocks / 20, "too few partly covered blocks: %llu", (unsigned long long)partial);
    free(t);
}

/* The multisampled path's coverage of a block for every sample at once
 * (samples_mask) against tr__walk_block_coverage sample by sample: a small
 * triangle moved to each of 4 sample positions (as raster_triangle_ms
 * moves it), a random sample mask and box, every kernel table. */
Test(raster, samples_mask_kernel_equals_block_coverage)
{
    trt_rng rng = {1618};
    enum { N = 4 };
    static const int32_t pos16[N][2] = {{6, 2}, {14, 6}, {2, 10}, {10, 14}}; /* Vulkan's standard 4x */
    tr__tri *tris[N];
    for (int s = 0; s < N; s++) {
        tris[s] = calloc(1, sizeof(tr__tri) + 64);
        cr_assert_not_null(tris[s]);
    }
    uint64_t partial = 0, blocks = 0;
    for (int iter = 0; iter < 60000; iter++) {
        const double span = iter % 3 == 0 ? 6 : iter % 3 == 1 ? 40 : 400000;
        int64_t X[3], Y[3];
        for (int k = 0; k < 3; k++) {
            X[k] = (int64_t)(trt_rand_range(&rng, -span, span) * 256);
            Y[k] = (int64_t)(trt_rand_range(&rng, -span, span) * 256);
        }
        const unsigned bias = trt_rand_u32(&rng);
        for (int s = 0; s < N; s++) {
            int64_t MX[3], MY[3]; /* the sample's position moved onto the pixel centre */
            for (int k = 0; k < 3; k++) {
                MX[k] = X[k] - (pos16[s][0] * 16 - 128);
                MY[k] = Y[k] - (pos16[s][1] * 16 - 128);
            }
            make_edges(tris[s], MX, MY, bias);
        }
        const int v = (int)(trt_rand_u32(&rng) % 3);
        const int32_t bx = (int32_t)((X[v] >> 8) & ~7) + ((int32_t)(trt_rand_u32(&rng) % 3) - 1) * 8;
        const int32_t by = (int32_t)((Y[v] >> 8) & ~7) + ((int32_t)(trt_rand_u32(&rng) % 3) - 1) * 8;
        int32_t r[4] = {bx + (int32_t)(trt_rand_u32(&rng) % 10) - 1, by + (int32_t)(trt_rand_u32(&rng) % 10) - 1,
                        bx + (int32_t)(trt_rand_u32(&rng) % 12), by + (int32_t)(trt_rand_u32(&rng) % 12)};
        if (iter % 2)
            r[0] = r[1] = -100000, r[2] = r[3] = 100000;
        const uint32_t keep = iter % 4 ? 0xfu : trt_rand_u32(&rng);
        uint64_t ref[N];
        for (int s = 0; s < N; s++)
            ref[s] = (keep >> s) & 1u ? tr__walk_block_coverage(tris[s], bx, by, r, walk_k(0)) : 0;
        for (int k = 0; k < (avx2_here() ? 3 : 2); k++) {
            uint64_t got[N];
            walk_k(k)->samples_mask((const tr__tri *const *)tris, N, keep, bx, by, r, got);
            for (int s = 0; s < N; s++)
                if (got[s] != ref[s])
                    cr_assert_fail("iteration %d, kernels %d, sample %d: block (%d,%d): mask %016llx, reference "
                                   "%016llx",
                                   iter, k, s, bx, by, (unsigned long long)got[s], (unsigned long long)ref[s]);
        }
        for (int s = 0; s < N; s++) {
            blocks++;
            partial += ref[s] != 0 && ref[s] != ~0ull;
        }
    }
    cr_expect_gt(partial, blocks / 20, "too few partly covered blocks: %llu", (unsigned long long)partial);
    for (int s = 0; s < N; s++)
        free(tris[s]);
}

/* A pass clearing one colour and one depth attachment. */
static void begin_color_depth(tr_context *ctx, tr_image *color, tr_image *depth, float clear_depth)
{
    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.color_count = 1;
    rp.color[0].image = color;
    rp.color[0].load_op = TR_LOAD_OP_CLEAR;
    rp.depth.image = depth;
    rp.depth.depth_load_op = TR_LOAD_OP_CLEAR;
    rp.depth.clear_depth = clear_depth;
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
}

/* The 64 pixel centres of block (bx, by) inside the triangle, one edge
 * evaluation each, in lane order (4*quad + 2*dy + dx): the test's own
 * model. */
static uint64_t coverage_model(const tr__tri *t, int32_t bx, int32_t by)
{
    uint64_t m = 0;
    for (int ly = 0; ly < 8; ly++)
        for (int lx = 0; lx < 8; lx++) {
            int64_t px = (int64_t)(bx + lx) * 256 + 128, py = (int64_t)(by + ly) * 256 + 128;
            bool in = true;
            for (int k = 0; k < 3; k++)
                in &= t->edge_a[k] * px + t->edge_b[k] * py + t->edge_c[k] >= 0;
            int lane = 4 * ((ly / 2) * 4 + lx / 2) + 2 * (ly & 1) + (lx & 1);
            m |= (uint64_t)in << lane;
        }
    return m;
}

Test(raster, block_walk_equals_block_coverage)
{
    /* The walk's classes (stepping edge values by whole blocks) and the
     * masks they lead to, against a per-pixel model, over every block of
     * a region around random triangles. */
    trt_rng rng = {1618};
    tr__tri *t = calloc(1, sizeof(tr__tri) + 64);
    cr_assert_not_null(t);
    const int32_t all[4] = {-1000000, -1000000, 1000000, 1000000};
    uint64_t classes[3] = {0, 0, 0};
    for (int iter = 0; iter < 3000; iter++) {
        double span = iter % 3 == 0 ? 12 : iter % 3 == 1 ? 80 : 3000;
        int64_t X[3], Y[3];
        for (int k = 0; k < 3; k++) {
            X[k] = (int64_t)(trt_rand_range(&rng, -span, span) * 256);
            Y[k] = (int64_t)(trt_rand_range(&rng, -span, span) * 256);
        }
        make_edges(t, X, Y, trt_rand_u32(&rng));
        const int32_t bx0 = -8 * (int32_t)(trt_rand_u32(&rng) % 8 + 2), by0 = -8 * (int32_t)(trt_rand_u32(&rng) % 8 + 2);
        tr__block_walk w;
        tr__block_walk_begin(t, &w);
        for (int32_t by = by0; by < -by0; by += 8) {
            tr__block_walk_row(t, &w, bx0, by);
            for (int32_t bx = bx0; bx < -bx0; bx += 8) {
                const int cls = tr__block_walk_step(&w);
                const uint64_t ref = coverage_model(t, bx, by);
                classes[cls]++;
                if (cls == 0)
                    cr_assert_eq(ref, 0, "iteration %d block (%d,%d): walked outside, covers %016llx", iter, bx, by,
                                 (unsigned long long)ref);
                else if (cls == 2)
                    cr_assert_eq(ref, ~0ull, "iteration %d block (%d,%d): walked inside, covers %016llx", iter, bx,
                                 by, (unsigned long long)ref);
                if (cls != 0)
                    cr_assert_eq(tr__walk_block_mask(t, bx, by, all, all, cls == 2,
                                                     walk_k(avx2_here() ? iter % 3 : iter & 1)),
                                 ref,
                                 "iteration %d block (%d,%d): class %d", iter, bx, by, cls);
            }
        }
    }
    cr_expect(classes[0] > 1000 && classes[1] > 1000 && classes[2] > 1000, "classes %llu %llu %llu",
              (unsigned long long)classes[0], (unsigned long long)classes[1], (unsigned long long)classes[2]);
    free(t);
}

/* tr__block_walk_ranges finds a row's class-1-or-2 and class-2 blocks by
 * division: the same blocks as stepping, for rows of any length and edges
 * of any size up to the guard band (tiny, huge, axis-aligned). */
Test(raster, block_walk_ranges_equal_stepping)
{
    trt_rng rng = {2718};
    tr__tri *t = calloc(1, sizeof(tr__tri) + 64);
    cr_assert_not_null(t);
    uint64_t rows = 0, nonempty = 0;
    for (int iter = 0; iter < 4000; iter++) {
        const double span = iter % 4 == 0 ? 20 : iter % 4 == 1 ? 400 : iter % 4 == 2 ? 5000 : 30000;
        int64_t X[3], Y[3];
        for (int k = 0; k < 3; k++) {
            X[k] = (int64_t)(trt_rand_range(&rng, -span, span) * 256);
            Y[k] = (int64_t)(trt_rand_range(&rng, -span, span) * 256);
        }
        if (iter % 5 == 4) /* on the pixel centres at block corners: edge values of exactly 0 */
            for (int k = 0; k < 3; k++) {
                X[k] = (int64_t)(8 * ((int32_t)(trt_rand_u32(&rng) % 101) - 50) + 7 * (int32_t)(trt_rand_u32(&rng) % 2)) * 256 + 128;
                Y[k] = (int64_t)(8 * ((int32_t)(trt_rand_u32(&rng) % 101) - 50) + 7 * (int32_t)(trt_rand_u32(&rng) % 2)) * 256 + 128;
            }
        if (iter % 7 == 0)
            Y[1] = Y[0]; /* a horizontal edge: a zero step */
        if (iter % 11 == 0)
            X[2] = X[1];
        make_edges(t, X, Y, trt_rand_u32(&rng));
        const int32_t n = 1 + (int32_t)(trt_rand_u32(&rng) % 300);
        const int32_t bx0 = -8 * (int32_t)(trt_rand_u32(&rng) % (iter % 5 == 4 ? 60 : 400));
        const int32_t by = 8 * ((int32_t)(trt_rand_u32(&rng) % (iter % 5 == 4 ? 101 : 801)) - (iter % 5 == 4 ? 50 : 400));
        tr__block_walk w;
        tr__block_walk_begin(t, &w);
        tr__block_walk_row(t, &w, bx0, by);
        int64_t nz[2], in[2];
        tr__block_walk_ranges(&w, n, nz, in);
        for (int32_t i = 0; i < n; i++) {
            const int cls = tr__block_walk_step(&w);
            const bool in_nz = i >= nz[0] && i < nz[1], in_in = i >= in[0] && i < in[1];
            if (in_nz != (cls != 0) || in_in != (cls == 2))
                cr_assert_fail("iteration %d block %d of %d: class %d, ranges [%lld,%lld) [%lld,%lld)", iter, i, n,
                               cls, (long long)nz[0], (long long)nz[1], (long long)in[0], (long long)in[1]);
        }
        rows++;
        nonempty += in[0] < in[1] && (in[0] > 0 || in[1] < n);
    }
    cr_expect_gt(nonempty, rows / 20, "rows with a class-2 run that starts or ends inside: %llu of %llu",
                 (unsigned long long)nonempty, (unsigned long long)rows);
    free(t);
}

Test(raster, depth_fast_path_equals_reference)
{
    /* The depth-only path (any level above SCALAR) against the general
     * depth/stencil loop (SCALAR), for every depth compare, with and
     * without writes: colour and depth bytes identical. */
    trt_rng rng = {99};
    enum { W = 48, H = 40, NT = 80 };
    /* Every triangle twice, the copy in another colour: exact depth ties. */
    trt_vertex v[6 * NT];
    for (int i = 0; i < 3 * NT; i++) {
        float col[4] = {(float)trt_rand_range(&rng, 0, 1), (float)trt_rand_range(&rng, 0, 1),
                        (float)trt_rand_range(&rng, 0, 1), 1};
        v[i] = trt_vpx(trt_rand_coord(&rng, -10, 58), trt_rand_coord(&rng, -10, 50),
                       (float)trt_rand_range(&rng, 0, 1), W, H, col);
        v[3 * NT + i] = v[i];
        v[3 * NT + i].color[0] = 1.0f - col[0];
    }
    for (int op = TR_COMPARE_NEVER; op <= TR_COMPARE_ALWAYS; op++)
        for (int write = 0; write < 2; write++) {
            uint8_t px[2][W * H * 4];
            float dep[2][W * H];
            for (int scalar = 0; scalar < 2; scalar++) {
                tr_context_desc cd = {0};
                cd.threads = 2;
                cd.simd = scalar ? TR_SIMD_SCALAR : TR_SIMD_DEFAULT;
                tr_context *ctx = trt_context_desc(&cd);
                tr_image *img = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, W, H);
                tr_image *ds = trt_image(ctx, TR_FORMAT_D32_SFLOAT, W, H);
                tr_pipeline_desc pd = {0};
                pd.depth_test = 1;
                pd.depth_write = write;
                pd.depth_compare = (tr_compare_op)op;
                tr_pipeline *p = trt_pipeline(ctx, &pd);
                begin_color_depth(ctx, img, ds, 0.5f);
                TRT_OK(tr_cmd_bind_pipeline(ctx, p));
                trt_draw(ctx, v, 6 * NT);
                TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
                trt_download(img, 0, 0, TR_ASPECT_DEFAULT, px[scalar]);
                trt_download(ds, 0, 0, TR_ASPECT_DEPTH, dep[scalar]);
                tr_context_destroy(ctx);
            }
            cr_assert_eq(memcmp(px[0], px[1], sizeof px[0]), 0, "compare %d write %d: colour differs", op, write);
            cr_assert_eq(memcmp(dep[0], dep[1], sizeof dep[0]), 0, "compare %d write %d: depth differs", op, write);
        }
}

/* ---- the quad kernels (raster_quad.c) against their scalar twins ---------------------------- */

/* A float that is often a hard case: NaN, infinities, signed zeros, huge. */
static float random_float(trt_rng *r, double lo, double hi)
{
    switch (trt_rand_u32(r) % 12) {
    case 0: return NAN;
    case 1: return trt_rand_u32(r) & 1 ? INFINITY : -INFINITY;
    case 2: return trt_rand_u32(r) & 1 ? 0.0f : -0.0f;
    case 3: return (float)trt_rand_range(r, -1e30, 1e30);
    default: return (float)trt_rand_range(r, lo, hi);
    }
}

/* A random set of quads in the block at (bx, by), as shade_quads gets them. */
static uint64_t random_quads(trt_rng *r, int32_t bx, int32_t by, tr__lanes *ln)
{
    uint64_t live = 0;
    uint32_t quads = trt_rand_u32(r) % 3 == 0 ? 0xffffu : trt_rand_u32(r) & 0xffffu;
    ln->nq = 0;
    for (uint32_t q = 0; q < 16; q++) {
        if (!((quads >> q) & 1))
            continue;
        ln->qx[ln->nq] = bx + (int32_t)(q & 3) * 2;
        ln->qy[ln->nq] = by + (int32_t)(q >> 2) * 2;
        uint64_t qm = trt_rand_u32(r) % 4 == 0 ? (trt_rand_u32(r) & 0xfu) : 0xfu;
        live |= qm << (4 * ln->nq);
        ln->nq++;
    }
    return live;
}

static void random_tri(trt_rng *r, tr__tri *t, uint32_t varyings)
{
    /* vertex 0 anywhere in the guard band, sometimes far from the block */
    t->x0 = (int32_t)trt_rand_range(r, -(1 << 28), 1 << 28);
    t->y0 = (int32_t)trt_rand_range(r, -(1 << 28), 1 << 28);
    if (trt_rand_u32(r) % 2) {
        t->x0 = (int32_t)trt_rand_range(r, -4096, 4096);
        t->y0 = (int32_t)trt_rand_range(r, -4096, 4096);
    }
    t->l1_a = random_float(r, -1e-3, 1e-3);
    t->l1_b = random_float(r, -1e-3, 1e-3);
    t->l2_a = random_float(r, -1e-3, 1e-3);
    t->l2_b = random_float(r, -1e-3, 1e-3);
    for (uint32_t i = 0; i < TR_TRI_ATTR_FLOATS(varyings); i++)
        t->attr[i] = random_float(r, -2, 2);
}

/* Makes t a triangle of one depth (z1 - z0 = z2 - z0 = 0, either sign of
 * zero), which the depth kernels take without barycentrics: a depth of
 * zero (either sign), a NaN, an infinity, one of the buffer's values (a
 * tie) or one outside the depth range; sometimes with barycentric planes
 * large enough that a lane's barycentric overflows. */
static void one_depth(trt_rng *r, tr__tri *t)
{
    static const float z0[] = {0.0f, -0.0f, NAN, INFINITY, -INFINITY, 0.25f, 0.5f, 0.75f, 1.0f, 1.5f, -0.5f};
    t->attr[1] = trt_rand_u32(r) & 1 ? 0.0f : -0.0f;
    t->attr[2] = trt_rand_u32(r) & 1 ? 0.0f : -0.0f;
    t->attr[0] = trt_rand_u32(r) % 3 ? z0[trt_rand_u32(r) % 11] : random_float(r, -2, 2);
    if (trt_rand_u32(r) % 8 == 0)
        t->l1_a = trt_rand_u32(r) & 1 ? 1e30f : 0x1p64f;
}

#define EXPECT_SAME(a, b, n, what)                                                                                 \
    cr_assert_eq(memcmp((a), (b), (n)), 0, "iteration %d: %s differs", iter, what)

/* Float arrays equal bit for bit, except that any NaN equals any NaN: IEEE
 * leaves the payload of a NaN made from two NaNs to the operand order,
 * which compilers may swap in a commutative operation.  (Every format
 * conversion maps all NaNs alike.) */
static bool same_floats(const float *a, const float *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (memcmp(&a[i], &b[i], sizeof(float)) != 0 && !(isnan(a[i]) && isnan(b[i])))
            return false;
    return true;
}

Test(raster, quad_lane_setup_equals_reference)
{
    trt_rng rng = {4242};
    const bool avx2 = tr__cpu_has_avx2(); /* else the third run is SSE again */
    tr__tri *t = calloc(1, sizeof(tr__tri) + TR_TRI_ATTR_FLOATS(0) * sizeof(float));
    cr_assert_not_null(t);
    uint64_t lanes = 0;
    for (int iter = 0; iter < 50000; iter++) {
        random_tri(&rng, t, 0);
        int32_t bx = (int32_t)(trt_rand_u32(&rng) % 2048) * 8, by = (int32_t)(trt_rand_u32(&rng) % 2048) * 8;
        tr__lanes a, b;
        memset(&a, 0, sizeof a);
        random_quads(&rng, bx, by, &a);
        b = a;
        float lo = random_float(&rng, 0, 0.5), hi = random_float(&rng, 0.5, 1);
        if (iter % 5 == 0)
            lo = -0.0f, hi = 0.0f;
        static const uint32_t whats[] = {0, TR__LANES_BARY, TR__LANES_Z};
        uint32_t what = whats[iter % 3];
        tr__lanes c = a;
        tr__kernels_for(TR_SIMD_SCALAR)->lanes_setup(t, lo, hi, &a, what);
        tr__kernels_for(TR_SIMD_SSE)->lanes_setup(t, lo, hi, &b, what);
        tr__kernels_for(avx2 ? TR_SIMD_AVX2 : TR_SIMD_SSE)->lanes_setup(t, lo, hi, &c, what); /* 8 lanes, odd quad counts too */
        if (what & TR__LANES_BARY) {
            cr_assert(same_floats(a.l1, b.l1, 4 * a.nq), "iteration %d: l1 differs", iter);
            cr_assert(same_floats(a.l2, b.l2, 4 * a.nq), "iteration %d: l2 differs", iter);
            cr_assert(same_floats(a.l1, c.l1, 4 * a.nq), "iteration %d: AVX2 l1 differs", iter);
            cr_assert(same_floats(a.l2, c.l2, 4 * a.nq), "iteration %d: AVX2 l2 differs", iter);
        }
        if (what == TR__LANES_Z) {
            cr_assert(same_floats(a.z, b.z, 4 * a.nq), "iteration %d: z differs", iter);
            cr_assert(same_floats(a.z, c.z, 4 * a.nq), "iteration %d: AVX2 z differs", iter);
        }
        lanes += 4 * a.nq;
    }
    cr_expect_gt(lanes, 1000000);
    free(t);
}

/* A random early depth test for the one-step depth kernels' tests: a
 * depth range with ends the buffer may hold, a buffer (da, copied to db)
 * of ties, NaNs and infinities, a compare the kernels take, the write on
 * or off. */
typedef struct depth_case {
    float lo, hi;
    tr_compare_op op;
    bool write;
} depth_case;

static depth_case random_depth_case(trt_rng *rng, float *da, float *db, size_t n)
{
    static const float pool[] = {0.0f, -0.0f, 0.25f, 0.5f, 0.75f, 1.0f, NAN, INFINITY};
    static const float ends[] = {0.0f, 0.25f, 0.5f, 0.75f, 1.0f};
    static const tr_compare_op ops[] = {TR_COMPARE_LESS, TR_COMPARE_LESS_OR_EQUAL, TR_COMPARE_GREATER,
                                        TR_COMPARE_GREATER_OR_EQUAL};
    depth_case c;
    c.lo = ends[trt_rand_u32(rng) % 5];
    c.hi = ends[trt_rand_u32(rng) % 5];
    if (c.lo > c.hi) {
        const float x = c.lo;
        c.lo = c.hi, c.hi = x;
    }
    for (size_t i = 0; i < n; i++)
        da[i] = trt_rand_u32(rng) % 3 ? pool[trt_rand_u32(rng) % 8] : (float)trt_rand_range(rng, 0, 1);
    memcpy(db, da, n * sizeof *da);
    c.op = ops[trt_rand_u32(rng) % 4];
    c.write = trt_rand_u32(rng) & 1;
    return c;
}

#if TILERAST_AVX2_KERNELS
/* The whole-block early depth test (raster_avx2.c: depth computed and
 * tested row by row) against its two steps, lane set-up then the quad
 * depth test: the same passing lanes and depth buffer, ties included
 * (depths clamped onto values the buffer holds). */
Test(raster, whole_block_depth_equals_lanes_then_quads)
{
    if (!tr__cpu_has_avx2())
        cr_skip_test("this CPU has no AVX2");
    trt_rng rng = {9090};
    enum { PITCH = 24, ROWS = 16 };
    const int32_t origin[2] = {8, 16};
    tr__tri *t = calloc(1, sizeof(tr__tri) + TR_TRI_ATTR_FLOATS(0) * sizeof(float));
    cr_assert_not_null(t);
    uint32_t done = 0, passed = 0;
    for (int iter = 0; iter < 40000; iter++) {
        random_tri(&rng, t, 0);
        if (iter % 3 == 0)
            one_depth(&rng, t);
        const int32_t bx = origin[0] + 8 * (int32_t)(trt_rand_u32(&rng) % 3);
        const int32_t by = origin[1] + 8 * (int32_t)(trt_rand_u32(&rng) % 2);
        tr__lanes ln;
        memset(&ln, 0, sizeof ln);
        ln.nq = 16;
        ln.block = true;
        for (uint32_t q = 0; q < 16; q++) {
            ln.qx[q] = bx + (int32_t)(q & 3) * 2;
            ln.qy[q] = by + (int32_t)(q >> 2) * 2;
        }
        float da[PITCH * ROWS], db[PITCH * ROWS];
        const depth_case c = random_depth_case(&rng, da, db, PITCH * ROWS);
        const float lo = c.lo, hi = c.hi;
        const tr_compare_op op = c.op;
        const bool write = c.write;
        tr__kernels_for(TR_SIMD_SSE)->lanes_setup(t, lo, hi, &ln, TR__LANES_Z);
        const uint64_t fail = ks(true)->depth_quads(da, PITCH, origin, &ln, ~0ull, op, write);
        uint64_t pass = 0;
        float *block = db + (size_t)(by - origin[1]) * PITCH + (size_t)(bx - origin[0]);
        if (!tr__depth_block_avx2(t, lo, hi, block, PITCH, bx, by, op, write, &pass))
            continue; /* offsets beyond the vector path: the caller takes the two steps */
        done++;
        passed += (uint32_t)tr__popcount64(pass);
        cr_assert_eq(pass, ~fail, "iteration %d (compare %d): passing lanes %016llx, two steps %016llx", iter, op,
                     (unsigned long long)pass, (unsigned long long)~fail);
        EXPECT_SAME(da, db, sizeof da, "depth buffer");
    }
    cr_expect_gt(done, 15000, "only %u blocks took the one-step path", done);
    cr_expect(passed > done * 8 && passed < done * 56, "%u lanes passed in %u blocks", passed, done);
    free(t);
}
#endif

/* The fused depth step (depth_lanes: depths made and tested in one go;
 * the multisampled path's, and the single-sampled quads') against lane
 * set-up then the quad depth test: the same failing lanes and depth
 * buffer, and with `bary` the same barycentrics of every quad, on random
 * quads, lanes and buffers with ties and NaNs. */
Test(raster, fused_lane_depth_equals_lanes_then_quads)
{
    if (!tr__cpu_has_avx2())
        cr_skip_test("this CPU has no AVX2");
    trt_rng rng = {4242};
    enum { PITCH = 24, ROWS = 16 };
    const int32_t origin[2] = {8, 16};
    tr__tri *t = calloc(1, sizeof(tr__tri) + TR_TRI_ATTR_FLOATS(0) * sizeof(float));
    cr_assert_not_null(t);
    uint32_t done = 0, odd = 0;
    uint64_t failed = 0, tested = 0;
    for (int iter = 0; iter < 40000; iter++) {
        random_tri(&rng, t, 0);
        if (iter % 3 == 0)
            one_depth(&rng, t);
        const int32_t bx = origin[0] + 8 * (int32_t)(trt_rand_u32(&rng) % 3);
        const int32_t by = origin[1] + 8 * (int32_t)(trt_rand_u32(&rng) % 2);
        tr__lanes a, b;
        memset(&a, 0, sizeof a);
        const uint64_t live = random_quads(&rng, bx, by, &a);
        b = a;
        float da[PITCH * ROWS], db[PITCH * ROWS];
        const depth_case c = random_depth_case(&rng, da, db, PITCH * ROWS);
        const float lo = c.lo, hi = c.hi;
        const tr_compare_op op = c.op;
        const bool write = c.write;
        tr__kernels_for(TR_SIMD_SSE)->lanes_setup(t, lo, hi, &a, TR__LANES_Z);
        const uint64_t fail = ks(true)->depth_quads(da, PITCH, origin, &a, live, op, write);
        uint64_t got = 0;
        const bool bary = iter % 2 == 0;
        if (!tr__depth_lanes_avx2(t, lo, hi, db, PITCH, origin, &b, live, op, write, bary, &got))
            continue; /* offsets beyond the vector path: the caller takes the two steps */
        done++;
        if (bary) {
            EXPECT_SAME(a.l1, b.l1, 4 * a.nq * sizeof a.l1[0], "l1");
            EXPECT_SAME(a.l2, b.l2, 4 * a.nq * sizeof a.l2[0], "l2");
        }
        odd += b.nq & 1;
        failed += (uint64_t)tr__popcount64(got);
        tested += (uint64_t)tr__popcount64(live);
        cr_assert_eq(got, fail, "iteration %d (compare %d, %u quads): failing lanes %016llx, two steps %016llx", iter,
                     op, b.nq, (unsigned long long)got, (unsigned long long)fail);
        EXPECT_SAME(da, db, sizeof da, "depth buffer");
    }
    cr_expect_gt(done, 15000, "only %u quad sets took the one-step path", done);
    cr_expect_gt(odd, done / 8, "only %u of %u quad sets had an odd count", odd, done);
    cr_expect(failed > tested / 8 && failed < tested * 7 / 8, "%llu of %llu lanes failed", (unsigned long long)failed,
              (unsigned long long)tested);
    free(t);
}

Test(raster, quad_lrz_and_depth_equal_reference)
{
    trt_rng rng = {777};
    enum { PITCH = 24, ROWS = 16 };
    const int32_t origin[2] = {8, 16};
    for (int iter = 0; iter < 40000; iter++) {
        tr__lanes ln;
        memset(&ln, 0, sizeof ln);
        int32_t bx = origin[0] + 8 * (int32_t)(trt_rand_u32(&rng) % 3), by = origin[1] + 8 * (int32_t)(trt_rand_u32(&rng) % 2);
        uint64_t live = random_quads(&rng, bx, by, &ln);
        /* depths drawn from a few values so that ties happen */
        static const float pool[] = {0.0f, -0.0f, 0.25f, 0.5f, 0.75f, 1.0f, NAN, INFINITY};
        for (uint32_t i = 0; i < 4 * ln.nq; i++)
            ln.z[i] = trt_rand_u32(&rng) % 3 ? pool[trt_rand_u32(&rng) % 8] : (float)trt_rand_range(&rng, 0, 1);
        /* each quad with its own bound, some quads not tested */
        for (uint32_t j = 0; j < ln.nq; j++) {
            ln.lrz_bound[j] = pool[trt_rand_u32(&rng) % 8];
            ln.lrz_test[j] = trt_rand_u32(&rng) % 4 != 0;
        }
        tr_lrz_direction dir = trt_rand_u32(&rng) & 1 ? TR_LRZ_DIRECTION_LESS : TR_LRZ_DIRECTION_GREATER;
        uint64_t ra = ks(false)->lanes_lrz_reject(&ln, live, dir);
        uint64_t rb = ks(true)->lanes_lrz_reject(&ln, live, dir);
        cr_assert_eq(ra, rb, "iteration %d: LRZ rejects %016llx, reference %016llx", iter, (unsigned long long)rb,
                     (unsigned long long)ra);

        float da[PITCH * ROWS], db[PITCH * ROWS];
        for (int i = 0; i < PITCH * ROWS; i++)
            da[i] = trt_rand_u32(&rng) % 3 ? pool[trt_rand_u32(&rng) % 8] : (float)trt_rand_range(&rng, 0, 1);
        memcpy(db, da, sizeof da);
        tr_compare_op op = (tr_compare_op)(trt_rand_u32(&rng) % (TR_COMPARE_ALWAYS + 1));
        bool write = trt_rand_u32(&rng) & 1;
        uint64_t fa = ks(false)->depth_quads(da, PITCH, origin, &ln, live, op, write);
        uint64_t fb = ks(true)->depth_quads(db, PITCH, origin, &ln, live, op, write);
        cr_assert_eq(fa, fb, "iteration %d (compare %d): failing lanes %016llx, reference %016llx", iter, op,
                     (unsigned long long)fb, (unsigned long long)fa);
        EXPECT_SAME(da, db, sizeof da, "depth buffer");
    }
}

Test(raster, quad_depth_stencil_equals_reference)
{
    trt_rng rng = {2024};
    enum { PITCH = 24, ROWS = 16 };
    const int32_t origin[2] = {8, 16};
    static const float pool[] = {0.0f, -0.0f, 0.25f, 0.5f, 0.75f, 1.0f, NAN, INFINITY};
    static const uint8_t spool[] = {0, 1, 2, 127, 128, 254, 255, 0x5a};
    uint64_t srej_total = 0, drej_total = 0, pass_total = 0;
    for (int iter = 0; iter < 40000; iter++) {
        tr__lanes ln;
        memset(&ln, 0, sizeof ln);
        int32_t bx = origin[0] + 8 * (int32_t)(trt_rand_u32(&rng) % 3), by = origin[1] + 8 * (int32_t)(trt_rand_u32(&rng) % 2);
        uint64_t live = random_quads(&rng, bx, by, &ln);
        for (uint32_t i = 0; i < 4 * ln.nq; i++)
            ln.z[i] = trt_rand_u32(&rng) % 3 ? pool[trt_rand_u32(&rng) % 8] : (float)trt_rand_range(&rng, 0, 1);
        float da[PITCH * ROWS], db[PITCH * ROWS];
        uint8_t sa[PITCH * ROWS], sb[PITCH * ROWS];
        for (int i = 0; i < PITCH * ROWS; i++) {
            da[i] = trt_rand_u32(&rng) % 3 ? pool[trt_rand_u32(&rng) % 8] : (float)trt_rand_range(&rng, 0, 1);
            sa[i] = trt_rand_u32(&rng) % 2 ? spool[trt_rand_u32(&rng) % 8] : (uint8_t)trt_rand_u32(&rng);
        }
        memcpy(db, da, sizeof da);
        memcpy(sb, sa, sizeof sa);
        tr_stencil_face face;
        face.fail_op = (tr_stencil_op)(trt_rand_u32(&rng) % 8);
        face.pass_op = (tr_stencil_op)(trt_rand_u32(&rng) % 8);
        face.depth_fail_op = (tr_stencil_op)(trt_rand_u32(&rng) % 8);
        face.compare = (tr_compare_op)(trt_rand_u32(&rng) % (TR_COMPARE_ALWAYS + 1));
        face.compare_mask = trt_rand_u32(&rng) % 2 ? 0xffu : trt_rand_u32(&rng) & 0xffu; /* resolved masks */
        face.write_mask = trt_rand_u32(&rng) % 2 ? 0xffu : trt_rand_u32(&rng) & 0xffu;
        const int planes = 1 + (int)(trt_rand_u32(&rng) % 3); /* 1 stencil, 2 depth, 3 both */
        tr__ds_state a, b;
        memset(&a, 0, sizeof a);
        a.pitch = PITCH;
        a.origin[0] = origin[0];
        a.origin[1] = origin[1];
        a.depth_compare = (tr_compare_op)(trt_rand_u32(&rng) % (TR_COMPARE_ALWAYS + 1));
        a.depth_write = trt_rand_u32(&rng) & 1;
        a.face = &face;
        a.ref = trt_rand_u32(&rng) % 2 ? spool[trt_rand_u32(&rng) % 8] : (uint8_t)trt_rand_u32(&rng);
        b = a;
        a.sbuf = planes & 1 ? sa : NULL;
        a.dbuf = planes & 2 ? da : NULL;
        b.sbuf = planes & 1 ? sb : NULL;
        b.dbuf = planes & 2 ? db : NULL;
        uint64_t srej_a = 0, drej_a = 0, srej_b = 0, drej_b = 0;
        uint64_t out_a = ks(false)->depth_stencil_quads(&a, &ln, live, &srej_a, &drej_a);
        uint64_t out_b = ks(true)->depth_stencil_quads(&b, &ln, live, &srej_b, &drej_b);
        cr_assert_eq(out_a, out_b, "iteration %d: survivors %016llx, reference %016llx", iter,
                     (unsigned long long)out_b, (unsigned long long)out_a);
        cr_assert_eq(srej_a, srej_b, "iteration %d: stencil rejections", iter);
        cr_assert_eq(drej_a, drej_b, "iteration %d: depth rejections", iter);
        EXPECT_SAME(sa, sb, sizeof sa, "stencil buffer");
        EXPECT_SAME(da, db, sizeof da, "depth buffer");
        srej_total += srej_a;
        drej_total += drej_a;
        pass_total += (uint64_t)__builtin_popcountll(out_a);
    }
    cr_expect(srej_total > 10000 && drej_total > 10000 && pass_total > 10000, "%llu %llu %llu",
              (unsigned long long)srej_total, (unsigned long long)drej_total, (unsigned long long)pass_total);
}

Test(raster, quad_fs_inputs_equal_reference)
{
    trt_rng rng = {1001};
    enum { NV = 3 };
    tr__tri *t = calloc(1, sizeof(tr__tri) + TR_TRI_ATTR_FLOATS(NV) * sizeof(float));
    tr_fs_block *fa = calloc(1, sizeof *fa), *fb = calloc(1, sizeof *fb), *fc = calloc(1, sizeof *fc);
    cr_assert(t && fa && fb && fc);
    for (int iter = 0; iter < 20000; iter++) {
        random_tri(&rng, t, NV);
        tr__lanes ln;
        memset(&ln, 0, sizeof ln);
        random_quads(&rng, 8 * (int32_t)(trt_rand_u32(&rng) % 512), 8 * (int32_t)(trt_rand_u32(&rng) % 512), &ln);
        tr__kernels_for(TR_SIMD_SCALAR)->lanes_setup(t, 0.0f, 1.0f, &ln, TR__LANES_Z);
        for (uint32_t i = 0; i < 4 * ln.nq; i++) { /* lanes in the usual range, and odd ones */
            ln.l1[i] = random_float(&rng, -0.5, 1.5);
            ln.l2[i] = random_float(&rng, -0.5, 1.5);
        }
        uint32_t nv = trt_rand_u32(&rng) % (NV + 1), flat = trt_rand_u32(&rng) & 7;
        const uint32_t np = trt_rand_u32(&rng) & 7 & ~flat; /* noperspective: screen-space weights */
        /* centroid varyings (every other iteration): barycentrics of their own */
        const uint32_t cen = iter % 2 ? trt_rand_u32(&rng) & 7 : 0;
        tr__lanes lc = ln;
        for (uint32_t i = 0; i < 4 * ln.nq; i++) {
            lc.l1[i] = random_float(&rng, -0.5, 1.5);
            lc.l2[i] = random_float(&rng, -0.5, 1.5);
        }
        memset(fa, 0x5a, sizeof *fa);
        memset(fb, 0x5a, sizeof *fb);
        bool coord = iter % 4 != 0, depth = iter % 3 != 0;
        ks(false)->fs_inputs(t, nv, flat, np, cen, &ln, cen ? &lc : NULL, fa, coord, depth);
        ks(true)->fs_inputs(t, nv, flat, np, cen, &ln, cen ? &lc : NULL, fb, coord, depth);
        if (cen) {
            /* a centroid varying is the varying made at lc's barycentrics, bit for bit */
            memset(fc, 0x5a, sizeof *fc);
            ks(iter % 4 < 2)->fs_inputs(t, nv, flat, np, 0, &lc, NULL, fc, false, false);
            for (uint32_t v = 0; v < nv; v++)
                for (int c = 0; c < 4 && ((cen & ~flat) >> v & 1); c++)
                    cr_assert(same_floats(fa->varyings[v][c], fc->varyings[v][c], 4 * ln.nq),
                              "iteration %d: centroid varying %u.%d is not the one at lc", iter, v, c);
        }
        size_t n = 4 * ln.nq * sizeof(float);
        /* (what is not asked for is left alone: still 0x5a bytes in both) */
        EXPECT_SAME(fa->frag_x, fb->frag_x, n, "frag_x");
        EXPECT_SAME(fa->frag_y, fb->frag_y, n, "frag_y");
        cr_assert(same_floats(fa->frag_z, fb->frag_z, 4 * ln.nq), "iteration %d: frag_z differs", iter);
        cr_assert(same_floats(fa->frag_w, fb->frag_w, 4 * ln.nq), "iteration %d: frag_w differs", iter);
        cr_assert(same_floats(fa->depth, fb->depth, 4 * ln.nq), "iteration %d: depth differs", iter);
        for (uint32_t v = 0; v < nv; v++)
            for (int c = 0; c < 4; c++)
                cr_assert(same_floats(fa->varyings[v][c], fb->varyings[v][c], 4 * ln.nq),
                          "iteration %d: varying %u.%d differs", iter, v, c);
    }
    free(t);
    free(fa);
    free(fb);
    free(fc);
}

/* The blend kernels' output against the reference, byte for byte. */
static void expect_same_texels(const uint8_t *ref, const uint8_t *got, size_t n, int iter, const tr_blend_state *bs)
{
    for (size_t i = 0; i < n; i++)
        if (ref[i] != got[i])
            cr_assert_fail("iteration %d (blend %d, factors %d %d %d %d, ops %d %d, mask 0x%x): texel %zu "
                           "byte %zu is %u, the reference %u",
                           iter, bs->enable, bs->src_color, bs->dst_color, bs->src_alpha, bs->dst_alpha, bs->color_op,
                           bs->alpha_op, bs->write_mask, i / 4, i % 4, got[i], ref[i]);
}

Test(raster, quad_blend_kernel_equals_reference)
{
    tr_context *ctx = trt_context(1);
    trt_rng rng = {5150};
    tr_fs_block *fs = calloc(1, sizeof *fs);
    cr_assert_not_null(fs);
    enum { PITCH = 16, ROWS = 8 };
    const int32_t origin[2] = {32, 64};
    uint64_t checked = 0, tables = 0;
    tr__blend_lut *lut = calloc(1, sizeof *lut);
    cr_assert_not_null(lut);
    tr_blend_state group_bs = {0};
    float group_k[4] = {0}, group_col[4] = {0};
    for (int iter = 0; iter < 30000; iter++) {
        tr_blend_state bs;
        memset(&bs, 0, sizeof bs);
        bs.enable = trt_rand_u32(&rng) % 4 != 0;
        bs.src_color = (tr_blend_factor)(trt_rand_u32(&rng) % (TR_BLEND_ONE_MINUS_SRC1_ALPHA + 1));
        bs.dst_color = (tr_blend_factor)(trt_rand_u32(&rng) % (TR_BLEND_ONE_MINUS_SRC1_ALPHA + 1));
        bs.src_alpha = (tr_blend_factor)(trt_rand_u32(&rng) % (TR_BLEND_ONE_MINUS_SRC1_ALPHA + 1));
        bs.dst_alpha = (tr_blend_factor)(trt_rand_u32(&rng) % (TR_BLEND_ONE_MINUS_SRC1_ALPHA + 1));
        bs.color_op = (tr_blend_op)(trt_rand_u32(&rng) % (TR_BLEND_OP_MAX + 1));
        bs.alpha_op = (tr_blend_op)(trt_rand_u32(&rng) % (TR_BLEND_OP_MAX + 1));
        bs.write_mask = trt_rand_u32(&rng) % 16;
        float k[4];
        for (int c = 0; c < 4; c++)
            k[c] = random_component(&rng);
        for (int a = 0; a < 2; a++)
            for (int c = 0; c < 4; c++)
                for (int l = 0; l < (int)TR_FS_LANES; l++)
                    fs->color[a][c][l] = random_component(&rng);
        tr__lanes ln;
        memset(&ln, 0, sizeof ln);
        uint64_t live = random_quads(&rng, origin[0] + 8 * (int32_t)(trt_rand_u32(&rng) % 2), origin[1], &ln);
        /* Every other block has one source colour on its live lanes (dead
         * lanes keep theirs); in each run of 8 blocks those four share the
         * state, constants and colour, so the table is made (at the 3rd)
         * and kept (the 4th). */
        uint32_t att = trt_rand_u32(&rng) & 1;
        if (iter % 2 == 0 && live) {
            uint32_t l0 = (uint32_t)__builtin_ctzll(live);
            if (iter % 8 == 6) { /* a whole block: the row-by-row path */
                ln.nq = 16;
                for (uint32_t q = 0; q < 16; q++) {
                    ln.qx[q] = ln.qx[0] - ln.qx[0] % 8 + (int32_t)(q & 3) * 2;
                    ln.qy[q] = ln.qy[0] - ln.qy[0] % 8 + (int32_t)(q >> 2) * 2;
                }
                live = ~0ull;
                l0 = 0;
                ln.block = true;
            }
            if (iter % 8 == 0) {
                if (iter % 16 == 0)
                    bs.write_mask = 0xf;
                group_bs = bs;
                memcpy(group_k, k, sizeof k);
                for (int c = 0; c < 4; c++)
                    group_col[c] = fs->color[att][c][l0];
            }
            bs = group_bs;
            memcpy(k, group_k, sizeof k);
            for (uint64_t m = live; m; m &= m - 1)
                for (int c = 0; c < 4; c++)
                    fs->color[att][c][__builtin_ctzll(m)] = group_col[c];
        }
        uint8_t ref[PITCH * ROWS * 4], got[PITCH * ROWS * 4];
        for (size_t i = 0; i < sizeof ref; i++)
            ref[i] = (uint8_t)trt_rand_u32(&rng);
        memcpy(got, ref, sizeof ref);
        ctx->simd = TR_SIMD_SSE;
        cr_assert(tr__blend_quads(ctx, TR_FORMAT_R8G8B8A8_UNORM, &bs, fs, att, live, false, &ln, origin, PITCH, k,
                                  iter % 4 == 3 ? NULL : lut, got));
        for (uint64_t m = live; m; m &= m - 1) {
            uint32_t l = (uint32_t)__builtin_ctzll(m), j = l / 4;
            int32_t x = ln.qx[j] + (int32_t)(l & 1), y = ln.qy[j] + (int32_t)((l >> 1) & 1);
            float src[4], src1[4];
            for (int c = 0; c < 4; c++) {
                src[c] = fs->color[att][c][l];
                src1[c] = fs->color[1][c][l];
            }
            tr__blend_write(ctx, TR_FORMAT_R8G8B8A8_UNORM, &bs, src, src1, k,
                            ref + ((size_t)(y - origin[1]) * PITCH + (size_t)(x - origin[0])) * 4);
        }
        expect_same_texels(ref, got, sizeof ref, iter, &bs);
        checked += (uint64_t)__builtin_popcountll(live);
        /* the table path ran when the kept table now has this block's key */
        tables += iter % 4 != 3 && lut->valid && memcmp(&lut->key.bs, &bs, sizeof bs) == 0 &&
                  memcmp(lut->key.k, k, sizeof k) == 0;
    }
    cr_expect_gt(checked, 500000);
    /* Other formats and the scalar cap leave the work to the reference. */
    tr__lanes ln = {0};
    uint8_t texel[4] = {0};
    tr_blend_state bs = {0};
    bs.write_mask = 0xf;
    const float k0[4] = {0};
    cr_expect(!tr__blend_quads(ctx, TR_FORMAT_R8G8B8A8_SRGB, &bs, fs, 0, 1, false, &ln, origin, PITCH, k0, lut, texel));
    ctx->simd = TR_SIMD_SCALAR;
    cr_expect(!tr__blend_quads(ctx, TR_FORMAT_R8G8B8A8_UNORM, &bs, fs, 0, 1, false, &ln, origin, PITCH, k0, lut, texel));
    cr_expect_gt(tables, 1000, "the table path ran %llu times", (unsigned long long)tables);
    free(lut);
    free(fs);
    tr_context_destroy(ctx);
}

/* A uniform block (every lane's source is lane 0's: a flat-shaded block
 * shaded as one quad): only lane 0 of the colours is read, the rest hold
 * garbage.  Runs of whole blocks with one state and colour reach the
 * table and its 16- and 32-bit affine forms; the reference blends lane
 * 0's colour into every live lane. */
Test(raster, quad_blend_uniform_equals_reference)
{
    tr_context *ctx = trt_context(1);
    ctx->simd = TR_SIMD_SSE;
    trt_rng rng = {8088};
    tr_fs_block *fs = calloc(1, sizeof *fs);
    tr__blend_lut *lut = calloc(1, sizeof *lut);
    cr_assert(fs && lut);
    enum { PITCH = 16, ROWS = 8 };
    const int32_t origin[2] = {32, 64};
    uint64_t checked = 0, affine16 = 0, affine32 = 0, opaque = 0;
    tr_blend_state bs = {0};
    float k[4] = {0}, col[2][4] = {{0}};
    for (int iter = 0; iter < 20000; iter++) {
        if (iter % 8 == 0) { /* a new state and colour every 8 blocks */
            memset(&bs, 0, sizeof bs);
            bs.enable = trt_rand_u32(&rng) % 5 != 0;
            const bool common = trt_rand_u32(&rng) % 2; /* alpha blending, additive and the like */
            bs.src_color = (tr_blend_factor)(common ? TR_BLEND_SRC_ALPHA : trt_rand_u32(&rng) % (TR_BLEND_ONE_MINUS_SRC1_ALPHA + 1));
            bs.dst_color = (tr_blend_factor)(common ? TR_BLEND_ONE_MINUS_SRC_ALPHA : trt_rand_u32(&rng) % (TR_BLEND_ONE_MINUS_SRC1_ALPHA + 1));
            bs.src_alpha = (tr_blend_factor)(common ? TR_BLEND_ONE : trt_rand_u32(&rng) % (TR_BLEND_ONE_MINUS_SRC1_ALPHA + 1));
            bs.dst_alpha = (tr_blend_factor)(common ? TR_BLEND_ONE_MINUS_SRC_ALPHA : trt_rand_u32(&rng) % (TR_BLEND_ONE_MINUS_SRC1_ALPHA + 1));
            bs.color_op = (tr_blend_op)(common ? TR_BLEND_OP_ADD : trt_rand_u32(&rng) % (TR_BLEND_OP_MAX + 1));
            bs.alpha_op = (tr_blend_op)(common ? TR_BLEND_OP_ADD : trt_rand_u32(&rng) % (TR_BLEND_OP_MAX + 1));
            bs.write_mask = trt_rand_u32(&rng) % 2 ? 0xfu : trt_rand_u32(&rng) % 16;
            for (int c = 0; c < 4; c++) {
                k[c] = random_component(&rng);
                col[0][c] = common ? (float)trt_rand_range(&rng, 0, 1) : random_component(&rng);
                col[1][c] = random_component(&rng);
            }
        }
        for (int a = 0; a < 2; a++)
            for (int c = 0; c < 4; c++)
                for (int l = 0; l < (int)TR_FS_LANES; l++)
                    fs->color[a][c][l] = l == 0 ? col[a][c] : random_component(&rng);
        tr__lanes ln;
        memset(&ln, 0, sizeof ln);
        uint64_t live = random_quads(&rng, origin[0] + 8 * (int32_t)(trt_rand_u32(&rng) % 2), origin[1], &ln);
        if (trt_rand_u32(&rng) % 2) { /* a whole block */
            ln.nq = 16;
            for (uint32_t q = 0; q < 16; q++) {
                ln.qx[q] = ln.qx[0] - ln.qx[0] % 8 + (int32_t)(q & 3) * 2;
                ln.qy[q] = ln.qy[0] - ln.qy[0] % 8 + (int32_t)(q >> 2) * 2;
            }
            live = ~0ull;
            ln.block = true;
        }
        uint8_t ref[PITCH * ROWS * 4], got[PITCH * ROWS * 4];
        for (size_t i = 0; i < sizeof ref; i++)
            ref[i] = (uint8_t)trt_rand_u32(&rng);
        memcpy(got, ref, sizeof ref);
        cr_assert(tr__blend_quads(ctx, TR_FORMAT_R8G8B8A8_UNORM, &bs, fs, 0, live, true, &ln, origin, PITCH, k,
                                  iter % 16 == 15 ? NULL : lut, got));
        for (uint64_t m = live; m; m &= m - 1) {
            uint32_t l = (uint32_t)__builtin_ctzll(m), j = l / 4;
            int32_t x = ln.qx[j] + (int32_t)(l & 1), y = ln.qy[j] + (int32_t)((l >> 1) & 1);
            tr__blend_write(ctx, TR_FORMAT_R8G8B8A8_UNORM, &bs, col[0], col[1], k,
                            ref + ((size_t)(y - origin[1]) * PITCH + (size_t)(x - origin[0])) * 4);
        }
        expect_same_texels(ref, got, sizeof ref, iter, &bs);
        checked += (uint64_t)__builtin_popcountll(live);
        /* which whole-block path ran: the table's key is this block's */
        const bool keyed = iter % 16 != 15 && lut->valid && memcmp(&lut->key.bs, &bs, sizeof bs) == 0 &&
                           memcmp(lut->key.k, k, sizeof k) == 0 && ln.block;
        affine16 += keyed && lut->affine16;
        affine32 += keyed && lut->affine;
        opaque += !bs.enable && ln.block;
    }
    cr_log_info("uniform blocks: %llu lanes, %llu 16-bit affine, %llu 32-bit affine, %llu opaque",
                (unsigned long long)checked, (unsigned long long)affine16, (unsigned long long)affine32,
                (unsigned long long)opaque);
    cr_expect_gt(checked, 400000);
    cr_expect_gt(affine16, 500, "16-bit affine blocks: %llu", (unsigned long long)affine16);
    cr_expect_gt(affine32, 0, "32-bit affine blocks: %llu", (unsigned long long)affine32);
    cr_expect_gt(opaque, 500, "opaque uniform blocks: %llu", (unsigned long long)opaque);
    free(lut);
    free(fs);
    tr_context_destroy(ctx);
}

Test(raster, no_frag_coord_flag_changes_no_pixel)
{
    /* A shader that reads only its varying: TR_FS_NO_FRAG_COORD skips
     * frag_x/y/z/w (and, with no depth test, z itself), never the image.
     * Depth-tested and blended, Gouraud and flat, vector and scalar. */
    trt_rng rng = {4711};
    enum { W = 56, H = 40, NT = 90 };
    trt_vertex v[3 * NT];
    for (int i = 0; i < 3 * NT; i++) {
        float col[4] = {(float)trt_rand_range(&rng, 0, 1), (float)trt_rand_range(&rng, 0, 1),
                        (float)trt_rand_range(&rng, 0, 1), (float)trt_rand_range(&rng, 0.2, 0.8)};
        v[i] = trt_vpx(trt_rand_coord(&rng, -10, W + 10), trt_rand_coord(&rng, -10, H + 10),
                       (float)trt_rand_range(&rng, 0, 1), W, H, col);
        v[i].pos[3] = (float)trt_rand_range(&rng, 0.5, 2); /* perspective */
        for (int c = 0; c < 3; c++)
            v[i].pos[c] *= v[i].pos[3];
    }
    for (int variant = 0; variant < 4; variant++) {
        const bool depth = variant & 1, flat = variant & 2;
        for (int scalar = 0; scalar < 2; scalar++) {
            uint8_t px[2][W * H * 4];
            for (int no_coord = 0; no_coord < 2; no_coord++) {
                tr_context_desc cd = {0};
                cd.threads = 2;
                cd.simd = scalar ? TR_SIMD_SCALAR : TR_SIMD_DEFAULT;
                tr_context *ctx = trt_context_desc(&cd);
                tr_image *img = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, W, H);
                tr_image *ds = trt_image(ctx, TR_FORMAT_D32_SFLOAT, W, H);
                tr_pipeline_desc pd = {0};
                pd.fs_flags = no_coord ? TR_FS_NO_FRAG_COORD : 0;
                pd.flat_mask = flat ? 1u : 0u;
                pd.depth_test = depth;
                pd.depth_write = depth;
                pd.depth_compare = TR_COMPARE_LESS;
                alpha_blend(&pd.blend[0]);
                tr_pipeline *p = trt_pipeline(ctx, &pd);
                begin_color_depth(ctx, img, ds, 1.0f);
                TRT_OK(tr_cmd_bind_pipeline(ctx, p));
                trt_draw(ctx, v, 3 * NT);
                TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
                trt_download(img, 0, 0, TR_ASPECT_DEFAULT, px[no_coord]);
                tr_context_destroy(ctx);
            }
            cr_assert_eq(memcmp(px[0], px[1], sizeof px[0]), 0, "depth %d flat %d scalar %d: the flag changed pixels",
                         depth, flat, scalar);
        }
    }
}

#if TILERAST_AVX2_KERNELS
/* The whole-block blend through a table's affine forms (blend_block_affine:
 * 16-bit lanes, or 32-bit ones) of the AVX2 table against the four-lane
 * table's, on random blocks, slopes, offsets and write masks: the same
 * bytes, the texels beside the block untouched. */
Test(raster, blend_block_affine_equals_four_lanes)
{
    if (!tr__cpu_has_avx2())
        cr_skip_test("this CPU has no AVX2");
    const tr__kernels *k4 = tr__kernels_for(TR_SIMD_SSE), *k8 = tr__kernels_for(TR_SIMD_AVX2);
    cr_assert_not_null(k8->blend_block_affine);
    trt_rng rng = {8181};
    enum { ROW = 12 * 4 }; /* 12 texels a row: the block at texel 2 */
    uint8_t a[10 * ROW], b[10 * ROW];
    for (int iter = 0; iter < 20000; iter++) {
        tr__blend_lut lut;
        memset(&lut, 0, sizeof lut);
        lut.valid = true;
        lut.affine = true;
        lut.affine16 = trt_rand_u32(&rng) & 1;
        for (int c = 0; c < 4; c++) {
            lut.mul16[c] = (uint16_t)trt_rand_u32(&rng);
            lut.add16[c] = (uint16_t)(trt_rand_u32(&rng) % 0x8000u);
            lut.mul[c] = (int32_t)(trt_rand_u32(&rng) % 0x8000u);
            lut.add[c] = (int32_t)(trt_rand_u32(&rng) % (1u << 22));
        }
        for (size_t i = 0; i < sizeof a; i++)
            a[i] = (uint8_t)trt_rand_u32(&rng);
        memcpy(b, a, sizeof a);
        const uint32_t wm = trt_rand_u32(&rng) % 3 ? 0xfu : trt_rand_u32(&rng) & 0xfu;
        k4->blend_block_affine(a + ROW + 2 * 4, ROW, &lut, wm);
        k8->blend_block_affine(b + ROW + 2 * 4, ROW, &lut, wm);
        cr_assert_eq(memcmp(a, b, sizeof a), 0, "iteration %d (affine16 %d, write mask %x): bytes differ", iter,
                     lut.affine16, wm);
    }
}
#endif
