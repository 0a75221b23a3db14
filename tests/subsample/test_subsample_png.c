/* The subsampled image's picture (tr_subsampled_write_png), read back from
 * the PNG: a 256x192 image stored by a density-mapped pass in 64x64 bins
 * of four scales (1x1, 2x2, 4x4, invisible): each bin outlined in its
 * scale's colour, the aprons in magenta, and the legend below ("<scale>:
 * <n> bins" per scale, "apron: 2 px") exactly where subsample.h says; a new
 * image (the identity metadata) as one full-size bin; the errors. */
#include "trtest.h"

#include <stdlib.h>
#include <string.h>

#include "trt_picture.h"

enum { W = 256, H = 192, MAP_W = 8, MAP_H = 6 };

/* Each 64x64 bin's density byte (both axes; 2x2 map texels of 32 pixels). */
static const uint8_t bin_bytes[3][4] = {
    {255, 127, 63, 0},
    {255, 255, 127, 127},
    {255, 255, 255, 255},
};

static tr_context *context(void)
{
    /* 16 KiB and 32x16 alignment: 64x64 bins */
    return trt_context_desc(&(tr_context_desc){.threads = 1, .gmem_bytes = 16 * 1024, .tile_align_w = 32,
                                               .tile_align_h = 16});
}

static tr_image *subsampled_image(tr_context *ctx)
{
    tr_image *img = NULL;
    TRT_OK(tr_image_create(ctx, &(tr_image_desc){TR_FORMAT_R8G8B8A8_UNORM, W, H, 1, 1, TR_IMAGE_SUBSAMPLED, 0},
                           &img));
    TRT_OK(tr_image_fill(img, NULL, (const float[4]){0, 0, 0, 1}));
    return img;
}

/* A pass that clears the image to dark blue (0, 0, 64) through the map. */
static void store(tr_context *ctx, tr_image *color)
{
    tr_image *map = trt_image(ctx, TR_FORMAT_R8G8_UNORM, MAP_W, MAP_H);
    uint8_t bytes[MAP_H][MAP_W][2];
    for (int y = 0; y < MAP_H; y++)
        for (int x = 0; x < MAP_W; x++)
            bytes[y][x][0] = bytes[y][x][1] = bin_bytes[y / 2][x / 2];
    TRT_OK(tr_image_upload(map, NULL, bytes, 0));
    tr_render_pass_desc rp = trt_pass_desc(color, NULL);
    rp.color[0].load_op = TR_LOAD_OP_CLEAR;
    memcpy(rp.color[0].clear_color, (const float[4]){0, 0, 64.0f / 255.0f, 1}, sizeof(float[4]));
    rp.density_map.image = map;
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
}

static uint8_t *picture(const tr_image *img, int *w, int *h)
{
    char path[] = "/tmp/tilerast_subsampled_png_XXXXXX";
    trt_temp_file(path);
    TRT_OK(tr_subsampled_write_png(img, 0, path));
    return trt_png_take(path, w, h);
}

Test(subsample_png, bins_per_scale_and_apron)
{
    tr_context *ctx = context();
    tr_image *img = subsampled_image(ctx);
    store(ctx, img);
    int w = 0, h = 0;
    uint8_t *px = picture(img, &w, &h);
    cr_assert_eq(w, W);
    /* The layout (tr_compute_subsampled_layout's rules): row 0's 2x2 bin
     * at (96, 0) 32x32, its 4x4 bin at (160, 0) 16x16, row 1's 2x2 bins at
     * (160, 64) and (224, 64) 32x32, every 1x1 bin at its place, the
     * invisible bin nowhere. */
    trt_expect_px(px, w, 0, 30, 255, 255, 255, "1x1 bin (0, 0): white outline");
    trt_expect_px(px, w, 63, 30, 255, 255, 255, "1x1 bin (0, 0): white outline, right side");
    trt_expect_px(px, w, 30, 30, 0, 0, 64, "inside a bin: the cleared texels");
    trt_expect_px(px, w, 96, 10, 40, 200, 60, "2x2 bin: green outline");
    trt_expect_px(px, w, 127, 31, 40, 200, 60, "2x2 bin: green outline, bottom-right");
    trt_expect_px(px, w, 94, 10, 255, 0, 255, "its apron: magenta, 2 texels outside");
    trt_expect_px(px, w, 110, 33, 255, 0, 255, "its apron, bottom side");
    trt_expect_px(px, w, 95, 10, 0, 0, 64, "between outline and apron: texels copied from the neighbour");
    trt_expect_px(px, w, 160, 8, 240, 40, 30, "4x4 bin: red outline");
    trt_expect_px(px, w, 158, 8, 255, 0, 255, "its apron");
    trt_expect_px(px, w, 240, 64, 40, 200, 60, "2x2 bin (3, 1)");
    trt_expect_px(px, w, 200, 40, 0, 0, 0, "space no bin uses: what the image held");
    static const trt_legend_want want[] = {
        {{255, 255, 255}, TRT_SWATCH_FRAME, "1x1: 7 bins"}, {{40, 200, 60}, TRT_SWATCH_FRAME, "2x2: 3 bins"},
        {{240, 40, 30}, TRT_SWATCH_FRAME, "4x4: 1 bin"},    {{0, 0, 0}, TRT_SWATCH_FILL, "0x0: 1 bin"},
        {{255, 0, 255}, TRT_SWATCH_FRAME, "apron: 2 px"},
    };
    cr_expect_eq(trt_expect_legend(px, w, h, H, 1, want, 5), 2);
    /* spelled out: the fourth swatch at x = 2 + 58 + 58 + 54 = 172, the
     * apron's on the second row; the PNG 192 + 2 + 2 * 9 tall */
    trt_expect_px(px, w, 172, H + 2, 96, 96, 96, "0x0's swatch: grey border");
    trt_expect_px(px, w, 175, H + 5, 0, 0, 0, "0x0's swatch: black (nothing drawn)");
    trt_expect_px(px, w, 2, H + 11, 255, 0, 255, "the apron's swatch, second row");
    trt_expect_text(px, w, 11, H + 12, 1, "apron: 2 px", "the apron's label");
    cr_expect_eq(h, H + 20);
    trt_png_free(px);
    tr_context_destroy(ctx);
}

Test(subsample_png, identity_is_one_full_size_bin)
{
    /* Before any pass the metadata is the identity: one bin at scale 1,
     * outlined around the whole image. */
    tr_context *ctx = context();
    tr_image *img = subsampled_image(ctx);
    int w = 0, h = 0;
    uint8_t *px = picture(img, &w, &h);
    cr_expect(w == W && h == H + 2 + 9, "%dx%d", w, h);
    trt_expect_px(px, w, 0, 0, 255, 255, 255, "top-left");
    trt_expect_px(px, w, W - 1, H - 1, 255, 255, 255, "bottom-right");
    trt_expect_px(px, w, 100, 100, 0, 0, 0, "inside");
    static const trt_legend_want want[] = {{{255, 255, 255}, TRT_SWATCH_FRAME, "1x1: 1 bin"}};
    trt_expect_legend(px, w, h, H, 1, want, 1);
    trt_png_free(px);
    tr_context_destroy(ctx);
}

Test(subsample_png, errors)
{
    tr_context *ctx = context();
    tr_image *img = subsampled_image(ctx);
    tr_image *plain = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, 8, 8);
    TRT_EXPECT(tr_subsampled_write_png(NULL, 0, "/tmp/x.png"), TR_ERROR_INVALID_ARGUMENT);
    TRT_EXPECT(tr_subsampled_write_png(img, 0, NULL), TR_ERROR_INVALID_ARGUMENT);
    TRT_EXPECT(tr_subsampled_write_png(plain, 0, "/tmp/x.png"), TR_ERROR_INVALID_STATE);
    TRT_EXPECT(tr_subsampled_write_png(img, 1, "/tmp/x.png"), TR_ERROR_OUT_OF_RANGE);
    TRT_EXPECT(tr_subsampled_write_png(img, 0, "/nonexistent-tilerast-dir/x.png"), TR_ERROR_IO);
    cr_expect(strstr(tr_context_last_error(ctx), "tr_subsampled_write_png: cannot write") != NULL, "%s",
              tr_context_last_error(ctx));
    tr_context_destroy(ctx);
}
