/* tr_pass_stats_to_json: the exact text, snprintf-style truncation, and
 * non-finite times. */
#include "trtest.h"

#include <math.h>
#include <string.h>

/* Every field gets a distinct value so that a field printed twice or under
 * the wrong name shows. */
static tr_pass_stats numbered_stats(void)
{
    tr_pass_stats s;
    memset(&s, 0, sizeof s);
    s.layout.bin_w = 1;
    s.layout.bin_h = 2;
    s.layout.bins_x = 3;
    s.layout.bins_y = 4;
    s.layout.pipe_w = 5;
    s.layout.pipe_h = 6;
    s.layout.pipes_x = 7;
    s.layout.pipes_y = 8;
    s.layout.gmem_pixels = 9;
    s.layout.tile_align_w = 10;
    s.layout.tile_align_h = 11;
    s.layout.views = 12;
    s.layout.origin_x = -13;
    s.layout.origin_y = 14;
    s.bins = 15;
    s.pipes = 16;
    s.draws = 17;
    s.vertex_linear_ids = 98;
    s.vertex_linear_ids = 98;
    s.primitives_in = 18;
    s.primitives_culled = 19;
    s.primitives_nonfinite = 99;
    s.primitives_clipped = 20;
    s.primitives_binned = 21;
    s.bin_primitive_refs = 22;
    s.visibility_stream_bytes = 23;
    s.fragments_rasterized = 24;
    s.fragments_depth_rejected = 25;
    s.fragments_stencil_rejected = 26;
    s.fragments_lrz_rejected = 27;
    s.fragments_shaded = 28;
    s.fragments_discarded = 29;
    s.fragments_written = 30;
    s.gmem_bytes_loaded = 31;
    s.gmem_bytes_cleared = 32;
    s.gmem_bytes_stored = UINT64_MAX;
    s.gmem_bytes_resolved = 39;
    s.memory_binning_bytes = 40;
    s.memory_tile_bytes = 41;
    s.memory_peak_bytes = 42;
    s.lrz_state = 33;
    s.lrz_direction = 34;
    s.lrz_blocks_written = 35;
    s.lrz_blocks_tested = 36;
    s.lrz_blocks_rejected = 37;
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 3; i++)
            s.fdm_bin_views[j][i] = (uint32_t)(50 + 3 * j + i);
    s.fdm_bin_views_invisible = 60;
    s.tiles = 66;
    s.fdm_bins_merged = 67;
    s.fdm_fragments_shaded_scaled = 61;
    s.fdm_pixels_shaded_scaled = 62;
    s.fdm_gmem_bytes_loaded_full = 63;
    s.fdm_gmem_bytes_cleared_full = 64;
    s.fdm_gmem_bytes_stored_full = 65;
    s.ms_vertex = 1.5;
    s.ms_binning = 0.0625;
    s.ms_render = 1234.5678;
    return s;
}

static const char expected[] =
    "{\"layout\":{\"bin_w\":1,\"bin_h\":2,\"bins_x\":3,\"bins_y\":4,\"pipe_w\":5,\"pipe_h\":6,"
    "\"pipes_x\":7,\"pipes_y\":8,\"gmem_pixels\":9,\"tile_align_w\":10,\"tile_align_h\":11,"
    "\"views\":12,\"origin_x\":-13,\"origin_y\":14},\"bins\":15,\"pipes\":16,\"draws\":17,\"vertex_linear_ids\":98,"
    "\"primitives_in\":18,\"primitives_culled\":19,\"primitives_nonfinite\":99,\"primitives_clipped\":20,"
    "\"primitives_binned\":21,\"bin_primitive_refs\":22,\"visibility_stream_bytes\":23,"
    "\"fragments_rasterized\":24,\"fragments_depth_rejected\":25,"
    "\"fragments_stencil_rejected\":26,\"fragments_lrz_rejected\":27,\"fragments_shaded\":28,"
    "\"fragments_discarded\":29,\"fragments_written\":30,\"gmem_bytes_loaded\":31,"
    "\"gmem_bytes_cleared\":32,\"gmem_bytes_stored\":18446744073709551615,\"gmem_bytes_resolved\":39,"
    "\"memory_binning_bytes\":40,\"memory_tile_bytes\":41,\"memory_peak_bytes\":42,"
    "\"lrz_state\":33,\"lrz_direction\":34,\"lrz_blocks_written\":35,\"lrz_blocks_tested\":36,"
    "\"lrz_blocks_rejected\":37,"
    "\"fdm_bin_views\":[[50,51,52],[53,54,55],[56,57,58]],\"fdm_bin_views_invisible\":60,"
    "\"tiles\":66,\"fdm_bins_merged\":67,"
    "\"fdm_fragments_shaded_scaled\":61,\"fdm_pixels_shaded_scaled\":62,"
    "\"fdm_gmem_bytes_loaded_full\":63,\"fdm_gmem_bytes_cleared_full\":64,"
    "\"fdm_gmem_bytes_stored_full\":65,"
    "\"ms_vertex\":1.500,\"ms_binning\":0.062,\"ms_render\":1234.568}";

Test(api, stats_json_exact_text)
{
    tr_pass_stats s = numbered_stats();
    char buf[2048];
    size_t n = tr_pass_stats_to_json(&s, buf, sizeof buf);
    cr_assert_eq(n, strlen(expected), "length %zu, expected %zu", n, strlen(expected));
    cr_assert_str_eq(buf, expected);
}

Test(api, stats_json_truncates_like_snprintf)
{
    tr_pass_stats s = numbered_stats();
    size_t need = tr_pass_stats_to_json(&s, NULL, 0);
    cr_assert_eq(need, strlen(expected));
    /* Every buffer size: NUL-terminated prefix, never a byte past size. */
    char buf[sizeof expected + 8];
    for (size_t size = 1; size <= sizeof expected + 1; size++) {
        memset(buf, 'x', sizeof buf);
        size_t n = tr_pass_stats_to_json(&s, buf, size);
        cr_assert_eq(n, need, "size %zu", size);
        size_t kept = size - 1 < need ? size - 1 : need;
        cr_assert_eq(strlen(buf), kept, "size %zu", size);
        cr_assert_eq(memcmp(buf, expected, kept), 0, "size %zu", size);
        cr_assert_eq(buf[size], 'x', "size %zu: wrote past the buffer", size);
    }
}

Test(api, stats_json_non_finite_times_are_null)
{
    tr_pass_stats s;
    memset(&s, 0, sizeof s);
    s.ms_vertex = NAN;
    s.ms_binning = INFINITY;
    s.ms_render = -INFINITY;
    char buf[2048];
    tr_pass_stats_to_json(&s, buf, sizeof buf);
    cr_assert(strstr(buf, ",\"ms_vertex\":null,\"ms_binning\":null,\"ms_render\":null}") != NULL,
              "%s", buf);
    cr_assert_eq(tr_pass_stats_to_json(NULL, buf, sizeof buf), 4);
    cr_assert_str_eq(buf, "null");
}

Test(api, stats_json_of_a_real_pass)
{
    /* One triangle: the text has the counts the pass returned. */
    tr_context *ctx = trt_context(1);
    tr_image *img = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, 16, 16);
    tr_pipeline *p = trt_pipeline(ctx, NULL);
    const float clear[4] = {0, 0, 0, 0};
    trt_begin_color(ctx, img, clear);
    TRT_OK(tr_cmd_bind_pipeline(ctx, p));
    trt_vertex v[3] = {trt_vpx(0, 0, 0.5f, 16, 16, NULL), trt_vpx(16.25f, 0, 0.5f, 16, 16, NULL),
                       trt_vpx(0, 16.25f, 0.5f, 16, 16, NULL)};
    trt_draw(ctx, v, 3);
    tr_pass_stats st;
    TRT_OK(tr_cmd_end_render_pass(ctx, &st));
    char buf[2048];
    tr_pass_stats_to_json(&st, buf, sizeof buf);
    cr_assert(strstr(buf, "\"draws\":1,\"vertex_linear_ids\":3,\"primitives_in\":1,") != NULL, "%s", buf);
    char frag[64];
    snprintf(frag, sizeof frag, "\"fragments_rasterized\":%llu,",
             (unsigned long long)st.fragments_rasterized);
    cr_assert_eq(st.fragments_rasterized, 136); /* centres with x + y < 16.25: 16 + 15 + ... + 1 */
    cr_assert(strstr(buf, frag) != NULL, "%s", buf);
    tr_context_destroy(ctx);
}
