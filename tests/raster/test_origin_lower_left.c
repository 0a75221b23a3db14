/* GL's lower-left origin (TR_PASS_ORIGIN_LOWER_LEFT, renderpass.h): window
 * y computed bottom-up, snapped, then flipped to image rows; rectangles,
 * gl_FragCoord.y, the front face and the sample positions in window
 * coordinates. */
#include <math.h>
#include <string.h>

#include "trtest.h"

enum { W = 256, H = 256 };

/* 1/256 pixel snapping, ties to even (what tilerast and llvmpipe do). */
static int64_t snap_even(float p)
{
    return (int64_t)nearbyint((double)p * 256.0);
}

/* The window y of NDC y, snapped, in image rows (1/256 pixel): bottom-up
 * (GL's lower-left origin) or top-down (a flipped viewport: y = H,
 * height = -H), each in float as tr__vertex_window computes it. */
static int64_t image_y(float yd, bool bottom_up)
{
    if (bottom_up)
        return (int64_t)H * 256 - snap_even(fmaf(H * 0.5f, yd, H * 0.5f));
    return snap_even(fmaf(-H * 0.5f, yd, (float)H - H * 0.5f));
}

/* Random triangles, each with a vertex whose window y rounds to another
 * 1/256 bottom-up than top-down (float rounding at different magnitudes):
 * the pass must cover what the bottom-up reference covers, and the two
 * references must differ somewhere (or the scene proves nothing). */
Test(origin_lower_left, snapped_bottom_up_then_flipped)
{
    enum { TRIS = 300 };
    static trt_vertex v[TRIS * 3];
    trt_rng rng = {512};
    uint32_t moved = 0;
    for (uint32_t t = 0; t < TRIS; t++) {
        float yd;
        do
            yd = (float)trt_rand_range(&rng, -0.99, 0.99);
        while (image_y(yd, true) == image_y(yd, false));
        const float xd = (float)trt_rand_range(&rng, -0.9, 0.9);
        for (int k = 0; k < 3; k++) {
            trt_vertex *p = &v[3 * t + k];
            memset(p, 0, sizeof *p);
            p->pos[0] = k ? xd + (float)trt_rand_range(&rng, -0.3, 0.3) : xd;
            p->pos[1] = k ? yd + (float)trt_rand_range(&rng, -0.3, 0.3) : yd;
            p->pos[2] = 0.5f;
            p->pos[3] = 1.0f;
        }
        moved++;
    }
    static uint8_t got[W * H], want[W * H], flipped_viewport[W * H];
    const trt_hit_opts o = {.pass_flags = TR_PASS_ORIGIN_LOWER_LEFT};
    trt_hit_counts_clip(&o, W, H, v, TRIS * 3, got, NULL);
    memset(want, 0, sizeof want);
    memset(flipped_viewport, 0, sizeof flipped_viewport);
    for (uint32_t t = 0; t < TRIS; t++) {
        float a[3][2], b[3][2];
        for (int k = 0; k < 3; k++) {
            const trt_vertex *p = &v[3 * t + k];
            a[k][0] = b[k][0] = (float)((double)snap_even(fmaf(W * 0.5f, p->pos[0], W * 0.5f)) / 256.0);
            a[k][1] = (float)((double)image_y(p->pos[1], true) / 256.0);
            b[k][1] = (float)((double)image_y(p->pos[1], false) / 256.0);
        }
        trt_ref_triangle((const float(*)[2])a, TR_TIE_TOP_LEFT, W, H, want);
        trt_ref_triangle((const float(*)[2])b, TR_TIE_TOP_LEFT, W, H, flipped_viewport);
    }
    trt_assert_maps_eq(got, want, W, H, "lower-left origin against the bottom-up reference");
    uint32_t differ = 0;
    for (uint32_t i = 0; i < W * H; i++)
        differ += want[i] != flipped_viewport[i];
    cr_expect_gt(differ, 0, "%u moved vertices, yet bottom-up and top-down cover the same pixels", moved);
    cr_log_info("bottom-up and top-down references differ in %u pixels", differ);
}

/* frag_y (gl_FragCoord.y) into red: y / 8 */
static void fs_frag_y(tr_fs_block *b)
{
    for (uint32_t i = 0; i < b->count; i++) {
        b->color[0][0][i] = b->frag_y[i] / 8.0f;
        b->color[0][1][i] = 0.0f;
        b->color[0][2][i] = 0.0f;
        b->color[0][3][i] = 1.0f;
    }
}

/* A 16 x 8 target: the scissor (0, 0, 16, 2) keeps GL's bottom two rows
 * (image rows 6 and 7), where gl_FragCoord.y is 0.5 and 1.5; a clear of
 * the rectangle (0, 6, 16, 2) paints GL's top two rows (image rows 0, 1);
 * the render area (0, 0, 16, 7) in GL leaves image row 0 outside it, so
 * the clear's rectangle must lie inside and is refused at y = 6 height 2. */
Test(origin_lower_left, rectangles_and_frag_coord_in_window_coordinates)
{
    const uint32_t w = 16, h = 8;
    tr_context *ctx = trt_context(2);
    tr_image *img = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, w, h);
    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.color_count = 1;
    rp.color[0] = (tr_color_attachment){.image = img, .load_op = TR_LOAD_OP_CLEAR};
    rp.flags = TR_PASS_ORIGIN_LOWER_LEFT;
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
    tr_pipeline_desc pd = {.fragment_shader = fs_frag_y};
    TRT_OK(tr_cmd_bind_pipeline(ctx, trt_pipeline(ctx, &pd)));
    TRT_OK(tr_cmd_set_scissor(ctx, &(tr_rect){0, 0, w, 2}));
    trt_vertex v[6];
    const float c[4][2] = {{-1, -1}, {1, -1}, {-1, 1}, {1, 1}};
    const int idx[6] = {0, 1, 2, 1, 3, 2};
    for (int k = 0; k < 6; k++) {
        memset(&v[k], 0, sizeof v[k]);
        v[k].pos[0] = c[idx[k]][0];
        v[k].pos[1] = c[idx[k]][1];
        v[k].pos[3] = 1.0f;
    }
    trt_draw(ctx, v, 6);
    const tr_clear_attachment blue = {.aspects = TR_CLEAR_COLOR, .color_attachment = 0, .color = {0, 0, 1, 1}};
    TRT_OK(tr_cmd_clear_attachments(ctx, 1, &blue, 1, &(tr_rect){0, 6, w, 2}));
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    uint8_t px[16 * 8 * 4];
    trt_download(img, 0, 0, TR_ASPECT_DEFAULT, px);
    for (uint32_t r = 0; r < h; r++)
        for (uint32_t x = 0; x < w; x++) {
            const uint8_t *p = &px[(r * w + x) * 4];
            if (r < 2) {
                cr_expect(p[0] == 0 && p[2] == 255, "image row %u: the clear (GL rows 6-7), got %u %u %u", r, p[0],
                          p[1], p[2]);
            } else if (r >= 6) {
                const float fy = (float)h - (float)r - 0.5f; /* gl_FragCoord.y */
                const uint8_t want = (uint8_t)lrintf(fy / 8.0f * 255.0f);
                cr_expect_eq(p[0], want, "image row %u: frag_y %.1f gives red %u, got %u", r, (double)fy, want, p[0]);
                cr_expect_eq(p[2], 0);
            } else {
                cr_expect(p[0] == 0 && p[2] == 0, "image row %u: outside the scissor and the clear", r);
            }
        }
    /* the render area in window coordinates: GL rows [0, 7) are image rows [1, 8) */
    rp.render_area = (tr_rect){0, 0, w, 7};
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
    cr_expect_eq(tr_cmd_clear_attachments(ctx, 1, &blue, 1, &(tr_rect){0, 6, w, 2}), TR_ERROR_OUT_OF_RANGE,
                 "GL rows 6-7 reach past a render area of GL rows 0-6");
    TRT_OK(tr_cmd_clear_attachments(ctx, 1, &blue, 1, &(tr_rect){0, 5, w, 2}));
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    trt_download(img, 0, 0, TR_ASPECT_DEFAULT, px);
    cr_expect_eq(px[(0 * w) * 4 + 2], 255, "image row 0 lies outside the render area: the first pass's clear");
    cr_expect_eq(px[(1 * w) * 4 + 2], 255, "image row 1 is GL row 6");
    cr_expect_eq(px[(2 * w) * 4 + 2], 255, "image row 2 is GL row 5");
    cr_expect_eq(px[(3 * w) * 4 + 2], 0);
    cr_expect_eq(px[(7 * w) * 4 + 0], 0, "image row 7 (GL row 0) is inside the render area: cleared");
    tr_context_destroy(ctx);
}

/* Counter-clockwise in window coordinates (y up) is the front face, as
 * glFrontFace(GL_CCW): with back faces culled, (0,0) (8,0) (0,8) is drawn
 * and its reverse is not. */
Test(origin_lower_left, front_face_in_window_coordinates)
{
    for (int reverse = 0; reverse < 2; reverse++) {
        tr_context *ctx = trt_context(1);
        tr_image *img = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, 16, 16);
        trt_begin_ms(ctx, img, NULL, 0.0f, TR_PASS_ORIGIN_LOWER_LEFT);
        tr_pipeline_desc pd = {.cull_mode = TR_CULL_BACK, .front_face = TR_FRONT_FACE_CCW};
        TRT_OK(tr_cmd_bind_pipeline(ctx, trt_pipeline(ctx, &pd)));
        const float white[4] = {1, 1, 1, 1};
        /* window (0,0), (8,0), (0,8): trt_vpx(px, py) lands at window
         * (px, py) in a lower-left pass (y_ndc = 2 py / h - 1) */
        trt_vertex v[3] = {trt_vpx(0, 0, 0.5f, 16, 16, white), trt_vpx(8, 0, 0.5f, 16, 16, white),
                           trt_vpx(0, 8, 0.5f, 16, 16, white)};
        if (reverse) {
            const trt_vertex t = v[1];
            v[1] = v[2];
            v[2] = t;
        }
        trt_draw(ctx, v, 3);
        tr_pass_stats st;
        TRT_OK(tr_cmd_end_render_pass(ctx, &st));
        cr_expect_eq(st.fragments_written > 0, !reverse, "%s: %llu fragments written",
                     reverse ? "clockwise (back)" : "counter-clockwise (front)",
                     (unsigned long long)st.fragments_written);
        if (!reverse) {
            /* window (0.5, 0.5) is image row 15 */
            uint8_t px[16 * 16 * 4];
            trt_download(img, 0, 0, TR_ASPECT_DEFAULT, px);
            cr_expect_eq(px[(15 * 16 + 0) * 4], 255, "window pixel (0, 0) is image row 15");
            cr_expect_eq(px[(0 * 16 + 0) * 4], 0, "image row 0 is window row 15, outside");
        }
        tr_context_destroy(ctx);
    }
}

/* 4x: the standard positions in window coordinates.  A rectangle over
 * window y in [0, 0.5) covers, in the bottom row, the samples whose y from
 * the pixel's bottom is below 0.5: s0 (0.125) and s1 (0.375). */
Test(origin_lower_left, sample_positions_in_window_coordinates)
{
    const uint32_t w = 8, h = 4, n = 4;
    tr_context *ctx = trt_context(1);
    tr_image *img = trt_image_ms(ctx, TR_FORMAT_R8G8B8A8_UNORM, w, h, n);
    trt_begin_ms(ctx, img, NULL, 0.0f, TR_PASS_ORIGIN_LOWER_LEFT);
    tr_pipeline_desc pd = {.multisample.samples = n};
    TRT_OK(tr_cmd_bind_pipeline(ctx, trt_pipeline(ctx, &pd)));
    const float white[4] = {1, 1, 1, 1};
    /* trt_vpx(px, py) lands at window (px, py) in a lower-left pass */
    const trt_vertex v[6] = {trt_vpx(0, 0, 0.5f, w, h, white), trt_vpx(8, 0, 0.5f, w, h, white),
                             trt_vpx(0, 0.5f, 0.5f, w, h, white), trt_vpx(8, 0, 0.5f, w, h, white),
                             trt_vpx(8, 0.5f, 0.5f, w, h, white), trt_vpx(0, 0.5f, 0.5f, w, h, white)};
    trt_draw(ctx, v, 6);
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    uint8_t px[8 * 4 * 4];
    for (uint32_t s = 0; s < n; s++) {
        TRT_OK(tr_image_download(img, &(tr_subresource){.sample = s}, px, 0));
        for (uint32_t r = 0; r < h; r++)
            for (uint32_t x = 0; x < w; x++) {
                const bool in = r == h - 1 && s < 2;
                cr_expect_eq(px[(r * w + x) * 4], in ? 255 : 0, "sample %u, image row %u, x %u", s, r, x);
            }
    }
    tr_context_destroy(ctx);
}

/* With a density map: at density 255 the pass equals one without a map,
 * and at half density (scaled bins flip about their scaled height) the
 * same bits for every thread count and GMEM budget; multisampled too. */
static uint32_t fdm_scene(uint32_t threads, uint32_t gmem, float density, uint32_t samples, tr_device device)
{
    tr_context_desc cd = {.threads = threads, .gmem_bytes = gmem, .device = device};
    tr_context *ctx = trt_context_desc(&cd);
    const uint32_t w = 160, h = 120;
    tr_image *col = trt_image_ms(ctx, TR_FORMAT_R8G8B8A8_UNORM, w, h, samples);
    tr_image *dep = trt_image_ms(ctx, TR_FORMAT_D32_SFLOAT, w, h, samples);
    trt_begin_ms(ctx, col, dep, density, TR_PASS_ORIGIN_LOWER_LEFT);
    tr_pipeline_desc pd = {.depth_test = 1, .depth_write = 1, .depth_compare = TR_COMPARE_LESS};
    pd.multisample.samples = samples;
    TRT_OK(tr_cmd_bind_pipeline(ctx, trt_pipeline(ctx, &pd)));
    TRT_OK(tr_cmd_set_scissor(ctx, &(tr_rect){3, 5, 150, 101}));
    trt_rng rng = {99};
    static trt_vertex v[400 * 3];
    for (uint32_t i = 0; i < 400 * 3; i++) {
        const float c[4] = {(float)trt_rand_range(&rng, 0, 1), (float)trt_rand_range(&rng, 0, 1),
                            (float)trt_rand_range(&rng, 0, 1), 1.0f};
        v[i] = trt_vpx(trt_rand_coord(&rng, -8, (float)w + 8), trt_rand_coord(&rng, -8, (float)h + 8),
                       (float)trt_rand_range(&rng, 0.1, 0.9), w, h, c);
    }
    trt_draw(ctx, v, 400 * 3);
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    const uint32_t crc = trt_crc_samples(col, dep, samples ? samples : 1);
    tr_context_destroy(ctx);
    return crc;
}

Test(origin_lower_left, density_maps)
{
    for (uint32_t n = 0; n <= 4; n += 4) {
        cr_expect_eq(fdm_scene(2, 0, 1.0f, n, TR_DEVICE_DEFAULT), fdm_scene(2, 0, 0.0f, n, TR_DEVICE_DEFAULT),
                     "%ux: density 255 differs from no map", n);
        const uint32_t half = fdm_scene(1, 0, 0.5f, n, TR_DEVICE_DEFAULT);
        cr_expect_eq(fdm_scene(3, 48u << 10, 0.5f, n, TR_DEVICE_DEFAULT), half, "%ux: half density, 3 threads", n);
        cr_expect_neq(half, fdm_scene(1, 0, 0.0f, n, TR_DEVICE_DEFAULT), "%ux: half density changed nothing", n);
        const uint32_t a740 = fdm_scene(1, 0, 0.5f, n, TR_DEVICE_A740);
        cr_expect_eq(fdm_scene(2, 0, 0.5f, n, TR_DEVICE_A740), a740, "%ux: A740 half density, 2 threads", n);
    }
}
