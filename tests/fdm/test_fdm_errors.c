/* FDM: what bad density-map input gets.  Each error comes from the call
 * that received it, with its code (and, where the rule names it, a message
 * naming the field); after every refused tr_cmd_begin_render_pass nothing
 * is recording, the map is not left held by the failed pass, an image
 * rendered before is intact, and the next valid pass (plain, then with a
 * density map) renders exactly what it should. */
#include "trtest.h"

#include <stdlib.h>
#include <string.h>

enum { W = 64, H = 48 };

/* The message names `field` (a substring). */
static void expect_message(tr_context *ctx, const char *field)
{
    const char *m = tr_context_last_error(ctx);
    cr_assert_not_null(m);
    cr_expect(strstr(m, field) != NULL, "message \"%s\" does not name %s", m, field);
}

/* An R8G8_UNORM density map of w x h x layers with (bx, by) everywhere. */
static tr_image *density_map(tr_context *ctx, uint32_t w, uint32_t h, uint32_t layers, uint8_t bx, uint8_t by)
{
    tr_image *img = trt_image_layers(ctx, TR_FORMAT_R8G8_UNORM, w, h, layers);
    uint8_t *b = malloc((size_t)w * h * 2);
    cr_assert_not_null(b);
    for (size_t i = 0; i < (size_t)w * h; i++) {
        b[2 * i] = bx;
        b[2 * i + 1] = by;
    }
    for (uint32_t l = 0; l < layers; l++) {
        tr_subresource sub = {0, l, TR_ASPECT_COLOR, 0};
        TRT_OK(tr_image_upload(img, &sub, b, 0));
    }
    free(b);
    return img;
}

/* A pass into `color` (one colour attachment, CLEAR, STORE) with `map`. */
static tr_render_pass_desc pass_desc(tr_image *color, tr_image *map, uint32_t base_layer)
{
    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.color_count = 1;
    rp.color[0].image = color;
    rp.color[0].load_op = TR_LOAD_OP_CLEAR;
    rp.color[0].store_op = TR_STORE_OP_STORE;
    rp.density_map.image = map;
    rp.density_map.base_layer = base_layer;
    return rp;
}

/* ---- a known picture --------------------------------------------------------------------------- */

/* Cleared to `bg`, the left half [0, W/2) drawn in `fg`: with every
 * fragment area up to 4 x 4 the same picture, since W/2 = 32 is aligned. */
static void draw_half(tr_context *ctx, const float fg[4])
{
    tr_pipeline_desc pd = {0};
    pd.fragment_shader = trt_fs_uniform;
    tr_pipeline *p = trt_pipeline(ctx, &pd);
    TRT_OK(tr_cmd_bind_pipeline(ctx, p));
    trt_vertex v[6] = {trt_vpx(0, 0, 0.5f, W, H, NULL),     trt_vpx(W / 2, 0, 0.5f, W, H, NULL),
                       trt_vpx(0, H, 0.5f, W, H, NULL),     trt_vpx(W / 2, 0, 0.5f, W, H, NULL),
                       trt_vpx(W / 2, H, 0.5f, W, H, NULL), trt_vpx(0, H, 0.5f, W, H, NULL)};
    trt_uniforms u;
    memset(&u, 0, sizeof u);
    memcpy(u.color[0], fg, sizeof u.color[0]);
    trt_draw_u(ctx, &u, v, 6);
}

static void render_half(tr_context *ctx, tr_image *color, tr_image *map, const float bg[4], const float fg[4])
{
    tr_render_pass_desc rp = pass_desc(color, map, 0);
    memcpy(rp.color[0].clear_color, bg, sizeof rp.color[0].clear_color);
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
    draw_half(ctx, fg);
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
}

static void expect_half(const tr_image *color, const uint8_t bg[4], const uint8_t fg[4], const char *what)
{
    uint8_t px[W * H * 4];
    trt_download(color, 0, 0, TR_ASPECT_COLOR, px);
    size_t bad = 0;
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++)
            bad += memcmp(px + 4 * (y * W + x), x < W / 2 ? fg : bg, 4) != 0;
    cr_expect_eq(bad, 0u, "%s: %zu pixels wrong", what, bad);
}

static const float RED[4] = {1, 0, 0, 1}, BLUE[4] = {0, 0, 1, 1}, GREEN[4] = {0, 1, 0, 1}, WHITE[4] = {1, 1, 1, 1};
static const uint8_t RED8[4] = {255, 0, 0, 255}, BLUE8[4] = {0, 0, 255, 255}, GREEN8[4] = {0, 255, 0, 255},
                     WHITE8[4] = {255, 255, 255, 255};

/* The world as it stood before a refused begin. */
typedef struct before {
    tr_context *ctx;
    tr_image *earlier; /* rendered before the refused call: left half red on blue */
    tr_image *next;    /* for the passes after it */
} before;

static before setup(void)
{
    before b;
    b.ctx = trt_context(2);
    b.earlier = trt_image(b.ctx, TR_FORMAT_R8G8B8A8_UNORM, W, H);
    b.next = trt_image(b.ctx, TR_FORMAT_R8G8B8A8_UNORM, W, H);
    render_half(b.ctx, b.earlier, NULL, BLUE, RED);
    return b;
}

/* After a refused begin: nothing is recording; the map (if any) is not held
 * by the failed pass; the earlier image is intact; a plain pass and a pass
 * with a 2x2 density map render their pictures. */
static void expect_nothing_lost(before *b, tr_image *map)
{
    TRT_EXPECT(tr_cmd_draw(b->ctx, 3, 1, 0, 0), TR_ERROR_INVALID_STATE);
    TRT_EXPECT(tr_cmd_end_render_pass(b->ctx, NULL), TR_ERROR_INVALID_STATE);
    if (map && tr_image_get_desc(map).format == TR_FORMAT_R8G8_UNORM) {
        const tr_image_desc d = tr_image_get_desc(map);
        uint8_t *bytes = calloc((size_t)d.width * d.height, 2);
        cr_assert_not_null(bytes);
        tr_subresource sub = {0, 0, TR_ASPECT_COLOR, 0};
        TRT_EXPECT(tr_image_upload(map, &sub, bytes, 0), TR_OK);
        free(bytes);
    }
    expect_half(b->earlier, BLUE8, RED8, "the image rendered before the refused call");
    render_half(b->ctx, b->next, NULL, GREEN, WHITE);
    expect_half(b->next, GREEN8, WHITE8, "a plain pass after the refused call");
    tr_image *good = density_map(b->ctx, 8, 8, 1, 127, 127);
    render_half(b->ctx, b->next, good, WHITE, GREEN);
    expect_half(b->next, WHITE8, GREEN8, "a 2x2 FDM pass after the refused call");
    tr_context_destroy(b->ctx);
}

/* ---- the map's format --------------------------------------------------------------------------- */

Test(fdm, density_map_of_wrong_format)
{
    static const tr_format bad[] = {TR_FORMAT_R8G8B8A8_UNORM, TR_FORMAT_R32_SFLOAT, TR_FORMAT_D32_SFLOAT};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        before b = setup();
        tr_image *map = trt_image(b.ctx, bad[k], 8, 8);
        tr_render_pass_desc rp = pass_desc(b.next, map, 0);
        TRT_EXPECT(tr_cmd_begin_render_pass(b.ctx, &rp), TR_ERROR_UNSUPPORTED_FORMAT);
        expect_message(b.ctx, "density_map");
        expect_nothing_lost(&b, map);
    }
}

/* ---- layers ------------------------------------------------------------------------------------- */

Test(fdm, base_layer_and_views_past_the_map)
{
    static const struct {
        uint32_t layers, view_mask, base_layer;
        tr_result want;
    } cases[] = {
        {1, 0, 1, TR_ERROR_OUT_OF_RANGE},     /* one view, layer 1 of 1 */
        {2, 0, 2, TR_ERROR_OUT_OF_RANGE},     /* one view, layer 2 of 2 */
        {2, 3, 1, TR_ERROR_OUT_OF_RANGE},     /* views 0, 1 read layers 1, 2 of 2 */
        {3, 5, 1, TR_ERROR_OUT_OF_RANGE},     /* view 2 reads layer 3 of 3 */
        {1, 3, 1, TR_ERROR_OUT_OF_RANGE},     /* a one-layer map still needs base_layer 0 */
        {2, 3, 0, TR_OK},                     /* layers 0, 1 */
        {3, 5, 0, TR_OK},                     /* layers 0, 2 */
        {1, 3, 0, TR_OK},                     /* one layer for every view */
        {3, 0, 2, TR_OK},                     /* one view, the last layer */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        before b = setup();
        tr_image *color = trt_image_layers(b.ctx, TR_FORMAT_R8G8B8A8_UNORM, W, H, 3);
        tr_image *map = density_map(b.ctx, 8, 8, cases[k].layers, 127, 127);
        tr_render_pass_desc rp = pass_desc(color, map, cases[k].base_layer);
        rp.view_mask = cases[k].view_mask;
        const tr_result r = tr_cmd_begin_render_pass(b.ctx, &rp);
        cr_expect_eq(r, cases[k].want, "case %zu (%u layer(s), view mask %#x, base layer %u): %s, expected %s", k,
                     cases[k].layers, cases[k].view_mask, cases[k].base_layer, tr_result_string(r),
                     tr_result_string(cases[k].want));
        if (r == TR_OK) {
            TRT_OK(tr_cmd_end_render_pass(b.ctx, NULL));
            tr_context_destroy(b.ctx);
        } else {
            expect_nothing_lost(&b, map);
        }
    }
}

/* ---- the map used otherwise in its own pass ---------------------------------------------------- */

Test(fdm, map_as_color_attachment_of_its_pass)
{
    before b = setup();
    tr_image *map = density_map(b.ctx, W, H, 1, 127, 127);
    tr_render_pass_desc rp = pass_desc(b.next, map, 0);
    rp.color_count = 2;
    rp.color[1].image = map;
    rp.color[1].load_op = TR_LOAD_OP_LOAD;
    const tr_result r = tr_cmd_begin_render_pass(b.ctx, &rp);
    /* either code is right: the pass is inconsistent (INVALID_DESCRIPTOR)
     * or the image is in use in two roles (INVALID_STATE) */
    cr_expect(r == TR_ERROR_INVALID_STATE || r == TR_ERROR_INVALID_DESCRIPTOR,
              "tr_cmd_begin_render_pass returned %s, expected TR_ERROR_INVALID_STATE or TR_ERROR_INVALID_DESCRIPTOR",
              tr_result_string(r));
    expect_nothing_lost(&b, map);
}

Test(fdm, map_bound_as_texture_in_its_pass)
{
    tr_context *ctx = trt_context(2);
    tr_image *color = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, W, H);
    tr_image *map = density_map(ctx, 8, 8, 1, 127, 127);
    tr_sampler *smp = NULL;
    tr_sampler_desc sd = {0};
    TRT_OK(tr_sampler_create(ctx, &sd, &smp));
    tr_render_pass_desc rp = pass_desc(color, map, 0);
    memcpy(rp.color[0].clear_color, BLUE, sizeof BLUE);
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
    TRT_EXPECT(tr_cmd_bind_texture(ctx, 0, map, smp), TR_ERROR_INVALID_STATE);
    /* the pass goes on: nothing it recorded is lost */
    draw_half(ctx, RED);
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    expect_half(color, BLUE8, RED8, "the pass around the refused binding");
    /* outside its pass the map is an ordinary texture */
    tr_image *other = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, W, H);
    tr_render_pass_desc plain = pass_desc(other, NULL, 0);
    TRT_OK(tr_cmd_begin_render_pass(ctx, &plain));
    TRT_EXPECT(tr_cmd_bind_texture(ctx, 0, map, smp), TR_OK);
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    tr_context_destroy(ctx);
}

Test(fdm, map_held_unchanged_while_its_pass_records)
{
    /* The map is read when the pass ends, so it cannot change before. */
    tr_context *ctx = trt_context(1);
    tr_image *color = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, W, H);
    tr_image *map = density_map(ctx, 8, 8, 1, 127, 127);
    tr_render_pass_desc rp = pass_desc(color, map, 0);
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
    uint8_t bytes[8 * 8 * 2] = {0};
    tr_subresource sub = {0, 0, TR_ASPECT_COLOR, 0};
    TRT_EXPECT(tr_image_upload(map, &sub, bytes, 0), TR_ERROR_INVALID_STATE);
    const float zero[4] = {0};
    TRT_EXPECT(tr_image_fill(map, &sub, zero), TR_ERROR_INVALID_STATE);
    draw_half(ctx, RED);
    tr_pass_stats st;
    TRT_OK(tr_cmd_end_render_pass(ctx, &st));
    /* the pass used the map as it was: 2x2 everywhere */
    const uint32_t bins = st.layout.bins_x * st.layout.bins_y;
    cr_expect_eq(st.fdm_bin_views[1][1], bins, "fdm_bin_views[1][1] = %u, expected %u", st.fdm_bin_views[1][1], bins);
    cr_expect_eq(st.fdm_bin_views_invisible, 0u);
    /* and after it the map can change */
    TRT_EXPECT(tr_image_upload(map, &sub, bytes, 0), TR_OK);
    tr_context_destroy(ctx);
}

/* ---- flags ----------------------------------------------------------------------------------------- */

Test(fdm, single_bin_with_density_map)
{
    before b = setup();
    tr_image *map = density_map(b.ctx, 8, 8, 1, 255, 255);
    tr_render_pass_desc rp = pass_desc(b.next, map, 0);
    rp.flags = TR_PASS_SINGLE_BIN;
    TRT_EXPECT(tr_cmd_begin_render_pass(b.ctx, &rp), TR_ERROR_INVALID_DESCRIPTOR);
    expect_nothing_lost(&b, map);
}

/* ---- tr_compute_fdm_areas ------------------------------------------------------------------------ */

Test(fdm, compute_areas_count_too_small)
{
    tr_context_desc cd = {0};
    cd.threads = 1;
    cd.gmem_bytes = 8 * 1024; /* several bins over 64 x 48 */
    tr_context *ctx = trt_context_desc(&cd);
    tr_image *color = trt_image_layers(ctx, TR_FORMAT_R8G8B8A8_UNORM, W, H, 2);
    tr_image *map = density_map(ctx, 8, 8, 2, 127, 63);
    tr_render_pass_desc rp = pass_desc(color, map, 0);
    rp.view_mask = 3;
    tr_bin_layout l;
    TRT_OK(tr_compute_bin_layout(ctx, &rp, &l));
    const size_t need = (size_t)l.bins_x * l.bins_y * 2;
    cr_assert_gt(need, 2u);
    tr_extent2d *areas = calloc(need, sizeof *areas);
    cr_assert_not_null(areas);
    TRT_EXPECT(tr_compute_fdm_areas(ctx, &rp, areas, need - 1), TR_ERROR_OUT_OF_RANGE);
    char num[32];
    snprintf(num, sizeof num, "%zu", need);
    expect_message(ctx, num); /* the message says how many are needed */
    TRT_EXPECT(tr_compute_fdm_areas(ctx, &rp, areas, 0), TR_ERROR_OUT_OF_RANGE);
    /* nothing was written by the refused calls; enough works */
    for (size_t k = 0; k < need; k++)
        cr_expect(areas[k].width == 0 && areas[k].height == 0, "area %zu written by a refused call", k);
    TRT_EXPECT(tr_compute_fdm_areas(ctx, &rp, areas, need), TR_OK);
    for (size_t k = 0; k < need; k++)
        cr_expect(areas[k].width == 2 && areas[k].height == 4, "area %zu: %ux%u, expected 2x4", k, areas[k].width,
                  areas[k].height);
    free(areas);
    tr_context_destroy(ctx);
}

Test(fdm, compute_areas_without_density_map)
{
    tr_context *ctx = trt_context(1);
    tr_image *color = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, W, H);
    tr_render_pass_desc rp = pass_desc(color, NULL, 0);
    tr_extent2d areas[64];
    TRT_EXPECT(tr_compute_fdm_areas(ctx, &rp, areas, 64), TR_ERROR_INVALID_DESCRIPTOR);
    expect_message(ctx, "density_map");
    /* it recorded nothing: a pass still begins */
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    tr_context_destroy(ctx);
}

/* ---- the device profile ------------------------------------------------------------------------- */

Test(fdm, context_with_unknown_device)
{
    static const uint32_t bad[] = {99, TR_DEVICE_COUNT};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        tr_context_desc cd = {0};
        cd.device = (tr_device)bad[k];
        tr_context *ctx = (tr_context *)&cd; /* must be set to NULL */
        TRT_EXPECT(tr_context_create(&cd, &ctx), TR_ERROR_INVALID_ARGUMENT);
        cr_expect_null(ctx, "device %u: *out is not NULL after a failure", bad[k]);
    }
}
