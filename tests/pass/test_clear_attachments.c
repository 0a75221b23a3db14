/* tr_cmd_clear_attachments: rectangles cleared in submission order, in
 * every bin and view, exactly the rectangle, and the errors. */
#include "trtest.h"

#include <math.h>
#include <string.h>

enum { W = 48, H = 40 };

static void full_quad(tr_context *ctx, float z, const float rgba[4])
{
    trt_vertex v[6] = {trt_vpx(0, 0, z, W, H, rgba), trt_vpx(W, 0, z, W, H, rgba), trt_vpx(W, H, z, W, H, rgba),
                       trt_vpx(0, 0, z, W, H, rgba), trt_vpx(W, H, z, W, H, rgba), trt_vpx(0, H, z, W, H, rgba)};
    trt_draw(ctx, v, 6);
}

static int in_rect(int x, int y, const tr_rect *r)
{
    return x >= r->x && y >= r->y && x < r->x + (int)r->width && y < r->y + (int)r->height;
}

/* Red everywhere, then a green clear of two rectangles, then a blue quad
 * over the left 10 columns: checked pixel by pixel, for several bin sizes
 * and thread counts (the rectangles cross bins). */
Test(pass, clear_attachments_colour_in_order)
{
    static const uint32_t gmem[] = {0, 8192, 16384};
    const tr_rect rects[2] = {{5, 3, 30, 20}, {20, 30, 28, 10}};
    for (int g = 0; g < 3; g++) {
        tr_context_desc cd = {0};
        cd.threads = 1 + (uint32_t)g;
        cd.gmem_bytes = gmem[g];
        tr_context *ctx = trt_context_desc(&cd);
        tr_image *img = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, W, H);
        tr_pipeline *p = trt_pipeline(ctx, NULL);
        trt_begin_color(ctx, img, NULL);
        TRT_OK(tr_cmd_bind_pipeline(ctx, p));
        const float red[4] = {1, 0, 0, 1}, blue[4] = {0, 0, 1, 1};
        full_quad(ctx, 0.5f, red);
        tr_clear_attachment ca = {0};
        ca.aspects = TR_CLEAR_COLOR;
        ca.color[1] = 1;
        ca.color[3] = 1;
        TRT_OK(tr_cmd_clear_attachments(ctx, 1, &ca, 2, rects));
        trt_vertex v[6] = {trt_vpx(0, 0, 0.5f, W, H, blue), trt_vpx(10, 0, 0.5f, W, H, blue),
                           trt_vpx(10, H, 0.5f, W, H, blue), trt_vpx(0, 0, 0.5f, W, H, blue),
                           trt_vpx(10, H, 0.5f, W, H, blue), trt_vpx(0, H, 0.5f, W, H, blue)};
        trt_draw(ctx, v, 6);
        tr_pass_stats st;
        TRT_OK(tr_cmd_end_render_pass(ctx, &st));
        uint8_t px[W * H * 4];
        trt_download(img, 0, 0, TR_ASPECT_DEFAULT, px);
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                const uint8_t *c = &px[(y * W + x) * 4];
                uint8_t want[3] = {255, 0, 0};
                if (in_rect(x, y, &rects[0]) || in_rect(x, y, &rects[1]))
                    want[0] = 0, want[1] = 255;
                if (x < 10)
                    want[0] = 0, want[1] = 0, want[2] = 255;
                cr_assert(c[0] == want[0] && c[1] == want[1] && c[2] == want[2],
                          "gmem %u: pixel (%d,%d) = %u,%u,%u", gmem[g], x, y, c[0], c[1], c[2]);
            }
        /* the GMEM bytes cleared: the load-op clear plus both rectangles */
        cr_expect_eq(st.gmem_bytes_cleared, (uint64_t)(W * H + 30 * 20 + 28 * 10) * 4);
        tr_context_destroy(ctx);
    }
}

Test(pass, clear_attachments_depth_and_stencil)
{
    tr_context *ctx = trt_context(2);
    tr_image *img = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, W, H);
    tr_image *ds = trt_image(ctx, TR_FORMAT_D32_SFLOAT_S8_UINT, W, H);
    tr_pipeline_desc pd = {0};
    pd.depth_test = 1;
    pd.depth_write = 1;
    tr_pipeline *p = trt_pipeline(ctx, &pd);
    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.color_count = 1;
    rp.color[0].image = img;
    rp.color[0].load_op = TR_LOAD_OP_CLEAR;
    rp.depth.image = ds;
    rp.depth.depth_load_op = TR_LOAD_OP_CLEAR;
    rp.depth.stencil_load_op = TR_LOAD_OP_CLEAR;
    rp.depth.clear_depth = 1.0f;
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
    TRT_OK(tr_cmd_bind_pipeline(ctx, p));
    const float red[4] = {1, 0, 0, 1}, green[4] = {0, 1, 0, 1};
    full_quad(ctx, 0.25f, red);
    /* depth back to 1 and stencil 7 in a rectangle: the far green quad then
     * shows there only */
    const tr_rect r = {8, 8, 17, 9};
    tr_clear_attachment ca = {0};
    ca.aspects = TR_CLEAR_DEPTH | TR_CLEAR_STENCIL;
    ca.depth = 1.0f;
    ca.stencil = 0x107; /* low 8 bits */
    TRT_OK(tr_cmd_clear_attachments(ctx, 1, &ca, 1, &r));
    full_quad(ctx, 0.5f, green);
    tr_pass_stats st;
    TRT_OK(tr_cmd_end_render_pass(ctx, &st));
    cr_expect_eq(st.lrz_state, TR_LRZ_STATE_INVALID, "a depth clear inside the pass invalidates LRZ");
    uint8_t px[W * H * 4], sten[W * H];
    float dep[W * H];
    trt_download(img, 0, 0, TR_ASPECT_DEFAULT, px);
    trt_download(ds, 0, 0, TR_ASPECT_DEPTH, dep);
    trt_download(ds, 0, 0, TR_ASPECT_STENCIL, sten);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int in = in_rect(x, y, &r), i = y * W + x;
            cr_assert_eq(px[i * 4 + 1], in ? 255 : 0, "(%d,%d)", x, y);
            cr_assert_eq(px[i * 4 + 0], in ? 0 : 255, "(%d,%d)", x, y);
            cr_assert_eq(dep[i], in ? 0.5f : 0.25f, "(%d,%d)", x, y);
            cr_assert_eq(sten[i], in ? 7 : 0, "(%d,%d)", x, y);
        }
    tr_context_destroy(ctx);
}

Test(pass, clear_attachments_every_view)
{
    tr_context *ctx = trt_context(1);
    tr_image *img = trt_image_layers(ctx, TR_FORMAT_R8G8B8A8_UNORM, W, H, 3);
    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.color_count = 1;
    rp.color[0].image = img;
    rp.color[0].load_op = TR_LOAD_OP_CLEAR;
    rp.view_mask = 0x5; /* views 0 and 2 */
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
    const tr_rect r = {0, 0, 4, 4};
    tr_clear_attachment ca = {0};
    ca.aspects = TR_CLEAR_COLOR;
    ca.color[0] = ca.color[3] = 1;
    TRT_OK(tr_cmd_clear_attachments(ctx, 1, &ca, 1, &r));
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    uint8_t px[W * H * 4];
    for (uint32_t layer = 0; layer < 3; layer++) {
        trt_download(img, 0, layer, TR_ASPECT_DEFAULT, px);
        cr_expect_eq(px[0], layer == 1 ? 0 : 255, "layer %u", layer);
        cr_expect_eq(px[4 * 4], 0, "layer %u: outside the rectangle", layer);
    }
    tr_context_destroy(ctx);
}

Test(pass, clear_attachments_errors)
{
    tr_context *ctx = trt_context(1);
    tr_image *img = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, W, H);
    tr_clear_attachment ca = {0};
    ca.aspects = TR_CLEAR_COLOR;
    tr_rect r = {0, 0, 4, 4};
    cr_expect_eq(tr_cmd_clear_attachments(ctx, 1, &ca, 1, &r), TR_ERROR_INVALID_STATE, "outside a pass");
    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.color_count = 1;
    rp.color[0].image = img;
    rp.render_area = (tr_rect){4, 4, 20, 20};
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
    cr_expect_eq(tr_cmd_clear_attachments(ctx, 1, &ca, 1, &r), TR_ERROR_OUT_OF_RANGE, "outside the render area");
    r = (tr_rect){4, 4, 0, 3};
    cr_expect_eq(tr_cmd_clear_attachments(ctx, 1, &ca, 1, &r), TR_ERROR_INVALID_ARGUMENT, "empty");
    r = (tr_rect){4, 4, 3, 3};
    cr_expect_eq(tr_cmd_clear_attachments(ctx, 1, NULL, 1, &r), TR_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(tr_cmd_clear_attachments(ctx, 1, &ca, 1, NULL), TR_ERROR_INVALID_ARGUMENT);
    ca.color_attachment = 1;
    cr_expect_eq(tr_cmd_clear_attachments(ctx, 1, &ca, 1, &r), TR_ERROR_OUT_OF_RANGE, "colour slot 1");
    ca.color_attachment = 0;
    ca.aspects = TR_CLEAR_COLOR | TR_CLEAR_DEPTH;
    cr_expect_eq(tr_cmd_clear_attachments(ctx, 1, &ca, 1, &r), TR_ERROR_INVALID_ARGUMENT, "colour and depth");
    ca.aspects = 0;
    cr_expect_eq(tr_cmd_clear_attachments(ctx, 1, &ca, 1, &r), TR_ERROR_INVALID_ARGUMENT, "no aspect");
    ca.aspects = TR_CLEAR_DEPTH;
    cr_expect_eq(tr_cmd_clear_attachments(ctx, 1, &ca, 1, &r), TR_ERROR_INVALID_STATE, "no depth attachment");
    ca.aspects = TR_CLEAR_COLOR;
    TRT_OK(tr_cmd_clear_attachments(ctx, 1, &ca, 1, &r));
    tr_pass_stats st;
    TRT_OK(tr_cmd_end_render_pass(ctx, &st));
    cr_expect_eq(st.draws, 0, "clears are not draws");
    tr_context_destroy(ctx);

    /* NaN depth */
    ctx = trt_context(1);
    tr_image *ds = trt_image(ctx, TR_FORMAT_D32_SFLOAT, W, H);
    memset(&rp, 0, sizeof rp);
    rp.depth.image = ds;
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
    ca.aspects = TR_CLEAR_DEPTH;
    ca.depth = NAN;
    cr_expect_eq(tr_cmd_clear_attachments(ctx, 1, &ca, 1, &r), TR_ERROR_INVALID_ARGUMENT, "NaN depth");
    ca.aspects = TR_CLEAR_STENCIL;
    cr_expect_eq(tr_cmd_clear_attachments(ctx, 1, &ca, 1, &r), TR_ERROR_INVALID_STATE, "no stencil");
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    tr_context_destroy(ctx);
}
