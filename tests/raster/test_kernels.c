/* Block kernels against their scalar references, on random inputs: the
 * bytes must be identical.  (The kernels are internal; the tests see them
 * through src/.) */
#include "trtest.h"

#include <math.h>
#include <string.h>

#include "internal.h"
#include "raster/raster_internal.h"

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
                pd.blend[0].enable = variant > 0;
                pd.blend[0].src_color = TR_BLEND_SRC_ALPHA;
                pd.blend[0].dst_color = TR_BLEND_ONE_MINUS_SRC_ALPHA;
                pd.blend[0].src_alpha = TR_BLEND_ONE;
                pd.blend[0].dst_alpha = TR_BLEND_ONE_MINUS_SRC_ALPHA;
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
        /* Small, medium and huge triangles (steep edges use the scalar path
         * inside the kernel too). */
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
        uint64_t ref = tr__raster_block_coverage(t, bx, by, r, false);
        uint64_t got = tr__raster_block_coverage(t, bx, by, r, true);
        if (ref != got)
            cr_assert_fail("iteration %d: block (%d,%d): SIMD mask %016llx, reference %016llx", iter, bx, by,
                           (unsigned long long)got, (unsigned long long)ref);
        blocks++;
        partial += ref != 0 && ref != ~0ull;
    }
    cr_expect_gt(partial, blocks / 20, "too few partly covered blocks: %llu", (unsigned long long)partial);
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
                tr_render_pass_desc rp;
                memset(&rp, 0, sizeof rp);
                rp.color_count = 1;
                rp.color[0].image = img;
                rp.color[0].load_op = TR_LOAD_OP_CLEAR;
                rp.depth.image = ds;
                rp.depth.depth_load_op = TR_LOAD_OP_CLEAR;
                rp.depth.clear_depth = 0.5f;
                TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
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
