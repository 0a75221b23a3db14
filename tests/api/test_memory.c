/* Memory: what a pass reports it used (binning data, tile buffers, the
 * peak), that a repeated pass reuses its buffers, and the context's
 * memory_limit: requests past it fail as TR_ERROR_OUT_OF_MEMORY naming
 * the limit, and the context goes on working. */
#include "trtest.h"

#include <string.h>

enum { W = 128, H = 96 };

/* Renders `tris` random triangles into img; returns the end's result. */
static tr_result render(tr_context *ctx, tr_image *img, uint32_t tris, tr_pass_stats *st)
{
    static trt_vertex v[3 * 16384];
    trt_rng rng = {3};
    for (uint32_t i = 0; i < 3 * tris; i++) {
        float col[4] = {(float)trt_rand_range(&rng, 0, 1), 0.5f, 0.25f, 1};
        v[i] = trt_vpx((float)trt_rand_range(&rng, -8, W + 8), (float)trt_rand_range(&rng, -8, H + 8), 0.5f, W, H,
                       col);
    }
    trt_begin_color(ctx, img, NULL);
    tr_pipeline *pl = trt_pipeline(ctx, NULL);
    TRT_OK(tr_cmd_bind_pipeline(ctx, pl));
    trt_uniforms u;
    memset(&u, 0, sizeof u);
    u.vertices = v;
    tr_result first = tr_cmd_set_uniforms(ctx, &u, sizeof u);
    for (uint32_t d = 0; d < tris && first == TR_OK; d += 64) {
        tr_result r = tr_cmd_draw(ctx, 3 * (tris - d < 64 ? tris - d : 64), 1, 3 * d, 0);
        if (r != TR_OK)
            first = r;
    }
    tr_result end = tr_cmd_end_render_pass(ctx, st);
    tr_pipeline_destroy(pl);
    return first != TR_OK ? first : end;
}

Test(memory, a_pass_reports_what_it_used)
{
    tr_context *ctx = trt_context(2);
    tr_image *img = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, W, H);
    tr_pass_stats small, big, again;
    TRT_OK(render(ctx, img, 100, &small));
    TRT_OK(render(ctx, img, 2000, &big));
    TRT_OK(render(ctx, img, 2000, &again));
    /* Binning data grows with the triangles kept for the bins. */
    cr_expect_gt(small.memory_binning_bytes, 100 * 64, "%llu", (unsigned long long)small.memory_binning_bytes);
    cr_expect_gt(big.memory_binning_bytes, 10 * small.memory_binning_bytes);
    cr_expect_eq(again.memory_binning_bytes, big.memory_binning_bytes);
    /* One tile buffer per thread: a tile's pixels x 4 bytes. */
    const uint64_t tile = (uint64_t)small.layout.bin_w * small.layout.bin_h * 4;
    cr_expect_eq(small.memory_tile_bytes, 2 * tile, "%llu vs 2 x %llu", (unsigned long long)small.memory_tile_bytes,
                 (unsigned long long)tile);
    /* The peak holds at least the image, the tiles and the binning data. */
    cr_expect_geq(big.memory_peak_bytes,
                  (uint64_t)W * H * 4 + big.memory_tile_bytes + big.memory_binning_bytes +
                      big.visibility_stream_bytes);
    /* The same pass again reuses what the first one grew: its peak is no higher. */
    cr_expect_leq(again.memory_peak_bytes, big.memory_peak_bytes);
    tr_context_destroy(ctx);
}

Test(memory, the_limit_refuses_and_the_context_goes_on)
{
    /* What a small pass needs, measured without a limit. */
    tr_pass_stats st;
    tr_context *ref = trt_context(2);
    tr_image *rimg = trt_image(ref, TR_FORMAT_R8G8B8A8_UNORM, W, H);
    TRT_OK(render(ref, rimg, 50, &st));
    uint8_t got[W * H * 4], want[W * H * 4];
    trt_download(rimg, 0, 0, TR_ASPECT_COLOR, want);
    const size_t need = (size_t)st.memory_peak_bytes;
    tr_context_destroy(ref);

    tr_context_desc d = {0};
    d.threads = 2;
    d.memory_limit = need + (256u << 10);
    tr_context *ctx = trt_context_desc(&d);
    cr_expect_eq(tr_context_get_desc(ctx).memory_limit, d.memory_limit);

    /* An image larger than the limit. */
    tr_image *huge = NULL;
    tr_image_desc id = {TR_FORMAT_R8G8B8A8_UNORM, 4096, 4096, 1, 1, 0, 0};
    TRT_EXPECT(tr_image_create(ctx, &id, &huge), TR_ERROR_OUT_OF_MEMORY);
    cr_expect(strstr(tr_context_last_error(ctx), "memory_limit") != NULL, "%s", tr_context_last_error(ctx));

    /* A pass whose binning data does not fit: a draw fails, the pass ends
     * with the error, and the small pass then renders right. */
    tr_image *img = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, W, H);
    tr_result r = render(ctx, img, 16384, &st);
    cr_expect_eq(r, TR_ERROR_OUT_OF_MEMORY, "%s", tr_result_string(r));
    for (int k = 0; k < 2; k++) {
        r = render(ctx, img, 50, &st);
        cr_assert_eq(r, TR_OK, "%s: %s", tr_result_string(r), tr_context_last_error(ctx));
        cr_expect_leq(st.memory_peak_bytes, (uint64_t)d.memory_limit);
        trt_download(img, 0, 0, TR_ASPECT_COLOR, got);
        cr_expect_arr_eq(got, want, sizeof got);
    }
    tr_context_destroy(ctx);
}
