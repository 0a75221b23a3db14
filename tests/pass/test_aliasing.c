/* Attachments may not alias (renderpass.h, "Aliasing"): the same image
 * twice at overlapping layers, or a resolve image twice, is refused when the
 * pass begins; other layers of one image are other subresources and render
 * side by side. */
#include "trtest.h"

#include <string.h>

static void expect_message(tr_context *ctx, const char *needle)
{
    cr_expect(strstr(tr_context_last_error(ctx), needle) != NULL, "message \"%s\" lacks \"%s\"",
              tr_context_last_error(ctx), needle);
}

static tr_image *image(tr_context *ctx, uint32_t layers, uint32_t samples)
{
    tr_image *img = NULL;
    TRT_OK(tr_image_create(ctx,
                           &(tr_image_desc){.format = TR_FORMAT_R8G8B8A8_UNORM, .width = 16, .height = 16,
                                            .layers = layers, .samples = samples},
                           &img));
    return img;
}

Test(aliasing, the_same_image_twice_is_refused)
{
    tr_context *ctx = trt_context(1);
    tr_image *a = image(ctx, 2, 1);
    tr_render_pass_desc rp = {.color = {{.image = a, .load_op = TR_LOAD_OP_CLEAR},
                                        {.image = a, .load_op = TR_LOAD_OP_CLEAR}},
                              .color_count = 2};
    cr_expect_eq(tr_cmd_begin_render_pass(ctx, &rp), TR_ERROR_INVALID_DESCRIPTOR);
    expect_message(ctx, "color[1].image is also color[0].image");
    /* two views (layers 0..1 and 1..2) overlap at layer 1 */
    tr_image *b = image(ctx, 3, 1);
    rp.color[0].image = rp.color[1].image = b;
    rp.color[1].base_layer = 1;
    rp.view_mask = 3;
    cr_expect_eq(tr_cmd_begin_render_pass(ctx, &rp), TR_ERROR_INVALID_DESCRIPTOR);
    expect_message(ctx, "overlapping layers");
    /* still not recording: the context is usable */
    cr_expect_eq(tr_cmd_end_render_pass(ctx, NULL), TR_ERROR_INVALID_STATE);
    tr_context_destroy(ctx);
}

Test(aliasing, a_resolve_image_twice_is_refused)
{
    tr_context *ctx = trt_context(1);
    tr_image *ms0 = image(ctx, 1, 4), *ms1 = image(ctx, 1, 4), *single = image(ctx, 1, 1);
    tr_render_pass_desc rp = {.color = {{.image = ms0, .resolve_image = single}, {.image = ms1, .resolve_image = single}},
                              .color_count = 2};
    cr_expect_eq(tr_cmd_begin_render_pass(ctx, &rp), TR_ERROR_INVALID_DESCRIPTOR);
    expect_message(ctx, "color[1].resolve_image");
    tr_context_destroy(ctx);
}

/* Layers 0 and 1 of one image as two attachments: each gets its own clear. */
Test(aliasing, other_layers_of_one_image_render_side_by_side)
{
    tr_context *ctx = trt_context(1);
    tr_image *a = image(ctx, 2, 1);
    tr_render_pass_desc rp = {.color = {{.image = a, .load_op = TR_LOAD_OP_CLEAR, .clear_color = {1, 0, 0, 1}},
                                        {.image = a, .base_layer = 1, .load_op = TR_LOAD_OP_CLEAR,
                                         .clear_color = {0, 0, 1, 1}}},
                              .color_count = 2};
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    uint8_t px[16 * 16 * 4];
    TRT_OK(tr_image_download(a, &(tr_subresource){.layer = 0}, px, 0));
    cr_expect(px[0] == 255 && px[1] == 0 && px[2] == 0 && px[3] == 255);
    cr_expect_eq(memcmp(px, px + 4 * 255, 4), 0);
    TRT_OK(tr_image_download(a, &(tr_subresource){.layer = 1}, px, 0));
    cr_expect(px[0] == 0 && px[1] == 0 && px[2] == 255 && px[3] == 255);
    tr_context_destroy(ctx);
}
