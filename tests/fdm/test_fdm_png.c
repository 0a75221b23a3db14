/* FDM's picture (tr_fdm_write_png): a pass over a 256x192 image in 64x64
 * bins whose map gives five kinds of bins (1x1, 2x1, 2x2, 4x4, invisible),
 * read back from the
 * PNG: the tints and hatching in the bins, and the legend below (a swatch
 * and "<area>: <n> bins" per kind present, exactly where fdm.h says). */
#include "trtest.h"

#include <stdlib.h>
#include <string.h>

#include "trt_picture.h"

enum { W = 256, H = 192, MAP_W = 8, MAP_H = 6 };

/* The area of each 64x64 bin (2x2 map texels of 32 pixels), as density
 * bytes: 255 -> 1, 127 -> 2, 63 -> 4, 0 invisible. */
enum { BINS_X = 4, BINS_Y = 3 };
static const uint8_t bin_bytes[BINS_Y][BINS_X][2] = {
    {{255, 255}, {255, 255}, {127, 127}, {63, 63}},
    {{255, 255}, {127, 255}, {127, 127}, {0, 0}},
    {{255, 255}, {255, 255}, {255, 255}, {0, 0}},
};

typedef struct fdm_pass {
    tr_context *ctx;
    tr_image *color, *map;
    tr_render_pass_desc rp;
} fdm_pass;

/* A mid-grey 256x192 image (bytes 128) and the map above; 16 KiB of GMEM
 * and a 32x16 tile alignment give 64x64 bins on every device. */
static void make_pass(fdm_pass *p, tr_device device, uint32_t flags)
{
    memset(p, 0, sizeof *p);
    p->ctx = trt_context_desc(&(tr_context_desc){.threads = 1, .gmem_bytes = 16 * 1024, .device = device,
                                                 .flags = flags, .tile_align_w = 32, .tile_align_h = 16});
    p->color = trt_image(p->ctx, TR_FORMAT_R8G8B8A8_UNORM, W, H);
    TRT_OK(tr_image_fill(p->color, NULL, (const float[4]){0.5f, 0.5f, 0.5f, 1.0f}));
    p->map = trt_image(p->ctx, TR_FORMAT_R8G8_UNORM, MAP_W, MAP_H);
    uint8_t bytes[MAP_H][MAP_W][2];
    for (int y = 0; y < MAP_H; y++)
        for (int x = 0; x < MAP_W; x++)
            memcpy(bytes[y][x], bin_bytes[y / 2][x / 2], 2);
    TRT_OK(tr_image_upload(p->map, NULL, bytes, 0));
    p->rp = trt_pass_desc(p->color, NULL);
    p->rp.density_map.image = p->map;
    tr_bin_layout l;
    TRT_OK(tr_compute_bin_layout(p->ctx, &p->rp, &l));
    cr_assert(l.bins_x == BINS_X && l.bins_y == BINS_Y && l.bin_w == 64 && l.bin_h == 64,
              "bins %ux%u of %ux%u, want 4x3 of 64x64", l.bins_x, l.bins_y, l.bin_w, l.bin_h);
}

/* Writes view 0's picture and reads it back. */
static uint8_t *picture(const fdm_pass *p, int *w, int *h)
{
    char path[] = "/tmp/tilerast_fdm_png_XXXXXX";
    trt_temp_file(path);
    TRT_OK(tr_fdm_write_png(p->ctx, &p->rp, 0, p->color, 0, path));
    return trt_png_take(path, w, h);
}

/* A pixel inside a bin: the image's 128 dimmed to 128 * 192 / 256 = 96
 * (fdm_png.c's FDM_PNG_DIM), then the tint mixed in at 110 / 256
 * (FDM_PNG_TINT). */
static uint8_t tinted(uint8_t tint)
{
    return (uint8_t)((96u * (256u - 110u) + tint * 110u) / 256u);
}

Test(fdm_png, legend_counts_each_area)
{
    fdm_pass p;
    make_pass(&p, TR_DEVICE_DEFAULT, TR_CONTEXT_NO_BIN_MERGING);
    int w = 0, h = 0;
    uint8_t *px = picture(&p, &w, &h);
    cr_assert_eq(w, W, "the legend fits: the picture keeps the framebuffer's width");
    /* the bins (away from the grid and the labels) */
    trt_expect_px(px, w, 32, 40, 96, 96, 96, "1x1: dimmed, no tint");
    trt_expect_px(px, w, 96, 100, tinted(70), tinted(130), tinted(255), "2x1: blue");
    trt_expect_px(px, w, 160, 40, tinted(40), tinted(200), tinted(60), "2x2: green");
    trt_expect_px(px, w, 224, 40, tinted(240), tinted(40), tinted(30), "4x4: red");
    trt_expect_px(px, w, 232, 160, 255, 0, 255, "invisible: a magenta diagonal ((x + y) % 8 < 2)");
    trt_expect_px(px, w, 234, 160, 48, 48, 48, "invisible: between the diagonals, 96 halved");
    /* The legend at scale 1 (256 / 256): fewest pixels per fragment first,
     * then the invisible bins; "0x0: 2 bins" does not fit after the
     * first four in 256 pixels, so it wraps... */
    static const trt_legend_want want[] = {
        {{235, 235, 235}, TRT_SWATCH_FRAME, "1x1: 6 bins"}, {{70, 130, 255}, TRT_SWATCH_FILL, "2x1: 1 bin"},
        {{40, 200, 60}, TRT_SWATCH_FILL, "2x2: 2 bins"},    {{240, 40, 30}, TRT_SWATCH_FILL, "4x4: 1 bin"},
        {{255, 0, 255}, TRT_SWATCH_HATCH, "0x0: 2 bins"},
    };
    cr_expect_eq(trt_expect_legend(px, w, h, H, 1, want, 5), 2, "two rows");
    /* ... which, spelled out: the first row's swatches at x = 2, 60, 114,
     * 172 (each entry 9 + 4 * chars - 1 wide, 6 apart; the fifth would end
     * at 278), the second's at 2, 9 pixels lower; labels 9 right of them. */
    trt_expect_px(px, w, 2, H + 2, 235, 235, 235, "1x1's frame");
    trt_expect_px(px, w, 5, H + 5, 0, 0, 0, "1x1's frame: black inside");
    trt_expect_px(px, w, 60 + 3, H + 2 + 3, 70, 130, 255, "2x1's swatch");
    trt_expect_px(px, w, 60, H + 2, 96, 96, 96, "2x1's swatch border");
    trt_expect_px(px, w, 114 + 3, H + 5, 40, 200, 60, "2x2's swatch");
    trt_expect_px(px, w, 172 + 3, H + 5, 240, 40, 30, "4x4's swatch");
    trt_expect_px(px, w, 2 + 1, H + 11 + 3, 255, 0, 255, "0x0's hatching (inside offsets 1, 3)");
    trt_expect_text(px, w, 11, H + 3, 1, "1x1: 6 bins", "first label");
    trt_expect_text(px, w, 11, H + 12, 1, "0x0: 2 bins", "second row's label");
    cr_expect_eq(h, H + 2 + 2 * 9);
    trt_png_free(px);
    tr_context_destroy(p.ctx);
}

Test(fdm_png, legend_counts_merged_tiles)
{
    /* An a740 merges the two 2x2 bins of column 2 (same area, one column,
     * 2 bins tall <= 2): one merged tile, framed in yellow. */
    fdm_pass p;
    make_pass(&p, TR_DEVICE_A740, 0);
    size_t ntiles = 0;
    TRT_OK(tr_compute_fdm_tiles(p.ctx, &p.rp, NULL, 0, &ntiles));
    cr_assert_eq(ntiles, BINS_X * BINS_Y - 3, "one merge (invisible bins are no tiles)");
    int w = 0, h = 0;
    uint8_t *px = picture(&p, &w, &h);
    trt_expect_px(px, w, 160, 1, 255, 220, 0, "the merged tile's frame, top side (2 pixels, inside its bins)");
    trt_expect_px(px, w, 160, 64, 235, 235, 235, "the grid between its bins");
    trt_expect_px(px, w, 129, 100, 255, 220, 0, "the merged tile's frame, left side");
    static const trt_legend_want want[] = {
        {{235, 235, 235}, TRT_SWATCH_FRAME, "1x1: 6 bins"}, {{70, 130, 255}, TRT_SWATCH_FILL, "2x1: 1 bin"},
        {{40, 200, 60}, TRT_SWATCH_FILL, "2x2: 2 bins"},    {{240, 40, 30}, TRT_SWATCH_FILL, "4x4: 1 bin"},
        {{255, 0, 255}, TRT_SWATCH_HATCH, "0x0: 2 bins"},   {{255, 220, 0}, TRT_SWATCH_FRAME, "merged: 1 tile"},
    };
    trt_expect_legend(px, w, h, H, 1, want, 6);
    trt_png_free(px);
    tr_context_destroy(p.ctx);
}
