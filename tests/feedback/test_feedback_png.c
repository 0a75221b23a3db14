/* Sampler feedback's picture (tr_feedback_map_write_png): MinMip maps
 * coloured by the rank of each level among those present (the heat scale)
 * with the region grid darkened, MipRegionUsed maps as their levels side by
 * side, both read back from the PNG with stb_image and checked pixel by
 * pixel, legends included (a swatch and "mip <n>" per level present and
 * "none"; "used", "unused" and each level's number under its strip); a map
 * written by a draw; and the errors. */
#define _POSIX_C_SOURCE 200809L
#include "trtest.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trt_picture.h"

/* ---- files ---------------------------------------------------------------------------------- */

static char g_dir[64];

static void init(void)
{
    strcpy(g_dir, "/tmp/tilerast_feedback_png_XXXXXX");
    cr_assert_not_null(mkdtemp(g_dir));
}

static void fini(void)
{
    static const char *const names[] = {"min_mip.png", "odd.png", "used0.png", "used1.png", "drawn.png", "x.png"};
    char path[128];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", g_dir, names[i]);
        unlink(path);
    }
    rmdir(g_dir);
}

TestSuite(feedback_png, .init = init, .fini = fini);

static const char *file(const char *name)
{
    static char path[128];
    snprintf(path, sizeof path, "%s/%s", g_dir, name);
    return path;
}

/* Writes layer `layer` of the map, reads it back as RGBA and checks its size. */
static uint8_t *write_and_read(const tr_feedback_map *m, uint32_t layer, const char *name, int want_w, int want_h)
{
    const char *path = file(name);
    TRT_OK(tr_feedback_map_write_png(m, layer, path));
    int w = 0, h = 0;
    uint8_t *px = trt_png_load(path, &w, &h);
    cr_assert(w == want_w && h == want_h, "%s is %dx%d, want %dx%d", name, w, h, want_w, want_h);
    return px;
}

#define expect_px trt_expect_px

static tr_feedback_map *make_map(tr_context *ctx, tr_feedback_kind kind, uint32_t w, uint32_t h, uint32_t levels,
                                 uint32_t layers, uint32_t rw, uint32_t rh)
{
    tr_feedback_map *m = NULL;
    TRT_OK(tr_feedback_map_create(ctx, &(tr_feedback_map_desc){kind, w, h, levels, layers, rw, rh}, &m));
    return m;
}

/* ---- MinMip ------------------------------------------------------------------------------------ */

Test(feedback_png, min_mip_colours_and_grid)
{
    /* 256x256, 9 levels, 8x8 regions: a 32x32 grid.  Row 0 holds levels
     * 0..8 in regions 0..8; everything else is "nothing requested". */
    tr_context *ctx = trt_context(1);
    tr_feedback_map *m = make_map(ctx, TR_FEEDBACK_MIN_MIP, 256, 256, 9, 1, 8, 8);
    uint8_t enc[32 * 32];
    memset(enc, TR_FEEDBACK_NONE, sizeof enc);
    for (uint32_t l = 0; l < 9; l++)
        enc[l] = (uint8_t)l;
    TRT_OK(tr_feedback_map_encode(m, 0, 0, enc, 32));
    /* 256 x 256, then the legend at scale 1: "mip 0" .. "mip 6" on the
     * first row (each entry 28 wide, 34 apart), "mip 7", "mip 8" and
     * "none" on the second: 2 + 2 * 9 rows. */
    uint8_t *px = write_and_read(m, 0, "min_mip.png", 256, 256 + 20);

    /* Nine levels present: level l at heat(l / 8), blue to red. */
    static const uint8_t rgb[9][3] = {
        {0, 0, 255},  {0, 64, 191},  {0, 128, 128}, {0, 191, 64}, {0, 255, 0},
        {64, 191, 0}, {128, 128, 0}, {191, 64, 0},  {255, 0, 0},
    };
    for (int l = 0; l < 9; l++) {
        const uint8_t *c = rgb[l];
        /* inside the region: the level's colour; on its first column and row: half of it */
        for (int y = 1; y < 8; y++)
            for (int x = 8 * l + 1; x < 8 * l + 8; x++)
                expect_px(px, 256, x, y, c[0], c[1], c[2], "a level's colour");
        expect_px(px, 256, 8 * l, 4, c[0] >> 1, c[1] >> 1, c[2] >> 1, "left border");
        expect_px(px, 256, 8 * l + 4, 0, c[0] >> 1, c[1] >> 1, c[2] >> 1, "top border");
        expect_px(px, 256, 8 * l, 0, c[0] >> 1, c[1] >> 1, c[2] >> 1, "corner");
    }
    trt_legend_want want[10];
    char labels[9][8];
    for (int l = 0; l < 9; l++) {
        snprintf(labels[l], sizeof labels[l], "mip %d", l);
        want[l] = (trt_legend_want){{rgb[l][0], rgb[l][1], rgb[l][2]}, TRT_SWATCH_FILL, labels[l]};
    }
    want[9] = (trt_legend_want){{0, 0, 0}, TRT_SWATCH_FILL, "none"};
    cr_expect_eq(trt_expect_legend(px, 256, 276, 256, 1, want, 10), 2);
    /* spelled out: "mip 4"'s swatch at x = 2 + 4 * 34, "none" third on the second row */
    expect_px(px, 256, 2 + 4 * 34 + 3, 256 + 5, 0, 255, 0, "mip 4's swatch");
    expect_px(px, 256, 2 + 2 * 34, 256 + 11, 96, 96, 96, "none's swatch: grey border");
    expect_px(px, 256, 2 + 2 * 34 + 3, 256 + 14, 0, 0, 0, "none's swatch: black");
    trt_expect_text(px, 256, 2 + 2 * 34 + 9, 256 + 12, 1, "none", "none's label");
    /* Nothing requested: black, borders included. */
    for (int y = 0; y < 8; y += 5)
        for (int x = 9 * 8; x < 256; x += 3)
            expect_px(px, 256, x, y, 0, 0, 0, "nothing requested (row 0)");
    for (int y = 8; y < 256; y += 3)
        for (int x = 0; x < 256; x += 7)
            expect_px(px, 256, x, y, 0, 0, 0, "nothing requested");
    trt_png_free(px);
    tr_context_destroy(ctx);
}

Test(feedback_png, min_mip_odd_size)
{
    /* 20x12 with 8x4 regions: a 3x3 grid whose last column is 4 texels
     * wide; the picture is the texture's 20x12. */
    tr_context *ctx = trt_context(1);
    tr_feedback_map *m = make_map(ctx, TR_FEEDBACK_MIN_MIP, 20, 12, 3, 1, 8, 4);
    const uint8_t enc[9] = {0xFF, 0xFF, 0xFF, 0xFF, 2, 0xFF, 0xFF, 0xFF, 1};
    TRT_OK(tr_feedback_map_encode(m, 0, 0, enc, 3));
    /* The legend's entries ("mip 1" is 28 + 4 wide) widen the picture to
     * 32, one per row: 12 + 2 + 3 * 9 tall. */
    uint8_t *px = write_and_read(m, 0, "odd.png", 32, 41);
    /* two levels present: 1 blue (heat 0), 2 red (heat 1) */
    expect_px(px, 32, 9, 5, 255, 0, 0, "region (1,1) level 2, red");
    expect_px(px, 32, 15, 7, 255, 0, 0, "region (1,1) red, last texel");
    expect_px(px, 32, 8, 5, 127, 0, 0, "region (1,1) left border");
    expect_px(px, 32, 16, 8, 0, 0, 127, "region (2,2) corner");
    expect_px(px, 32, 19, 11, 0, 0, 255, "region (2,2) level 1, blue, the picture's last pixel");
    expect_px(px, 32, 17, 9, 0, 0, 255, "region (2,2) blue");
    expect_px(px, 32, 3, 10, 0, 0, 0, "region (0,2) black");
    expect_px(px, 32, 19, 1, 0, 0, 0, "region (2,0) black");
    expect_px(px, 32, 25, 5, 0, 0, 0, "beside the picture: black");
    static const trt_legend_want want[] = {
        {{0, 0, 255}, TRT_SWATCH_FILL, "mip 1"},
        {{255, 0, 0}, TRT_SWATCH_FILL, "mip 2"},
        {{0, 0, 0}, TRT_SWATCH_FILL, "none"},
    };
    cr_expect_eq(trt_expect_legend(px, 32, 41, 12, 1, want, 3), 3);
    trt_png_free(px);
    tr_context_destroy(ctx);
}

/* ---- a map a draw wrote ------------------------------------------------------------------------ */

/* Every lane samples (0.3, 0.3) at LOD 1 (nearest): level 1 (32x32) texel
 * (9, 9), region (1, 1) of level 1, which covers LOD-0 regions 2..3 on each
 * axis (8x8 regions of 64 texels). */
static void fs_feedback(tr_fs_block *b)
{
    float s[TR_FS_LANES], lod[TR_FS_LANES], out[4][TR_FS_LANES];
    for (uint32_t i = 0; i < b->count; i++)
        s[i] = 0.3f, lod[i] = 1.0f;
    const tr_sample_args a = {.s = s, .t = s, .lod = lod};
    tr_fs_sample(b, 0, &a, out);
    tr_fs_write_feedback(b, 0, 0, &a);
    for (int c = 0; c < 4; c++)
        for (uint32_t i = 0; i < b->count; i++)
            b->color[0][c][i] = out[c][i];
}

Test(feedback_png, min_mip_from_a_draw)
{
    tr_context *ctx = trt_context(1);
    tr_image *rt = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, 16, 16);
    tr_image *tex = NULL;
    TRT_OK(tr_image_create(ctx, &(tr_image_desc){.format = TR_FORMAT_R8G8B8A8_UNORM, .width = 64, .height = 64, .layers = 1, .levels = 3}, &tex));
    tr_feedback_map *m = make_map(ctx, TR_FEEDBACK_MIN_MIP, 64, 64, 3, 1, 8, 8);
    tr_pipeline *pl = trt_pipeline(ctx, &(tr_pipeline_desc){.fragment_shader = fs_feedback, .texture_mask = 1,
                                                            .feedback_mask = 1});
    trt_begin_color(ctx, rt, NULL);
    TRT_OK(tr_cmd_bind_pipeline(ctx, pl));
    TRT_OK(tr_cmd_bind_texture(ctx, 0, tex, NULL));
    TRT_OK(tr_cmd_bind_feedback_map(ctx, 0, m));
    const trt_vertex v[3] = {trt_vpx(0, 0, 0, 16, 16, NULL), trt_vpx(16, 0, 0, 16, 16, NULL),
                             trt_vpx(0, 16, 0, 16, 16, NULL)};
    trt_draw(ctx, v, 3);
    /* While the pass holds the map, the picture fails as decode does. */
    TRT_EXPECT(tr_feedback_map_write_png(m, 0, file("drawn.png")), TR_ERROR_INVALID_STATE);
    cr_expect(strstr(tr_context_last_error(ctx), "bound in the recording pass") != NULL, "%s",
              tr_context_last_error(ctx));
    cr_expect(access(file("drawn.png"), F_OK) != 0, "nothing written while bound");
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));

    uint8_t *px = write_and_read(m, 0, "drawn.png", 64, 64 + 11);
    for (int y = 0; y < 64; y++)
        for (int x = 0; x < 64; x++) {
            const int rx = x / 8, ry = y / 8;
            const bool asked = rx >= 2 && rx <= 3 && ry >= 2 && ry <= 3, border = x % 8 == 0 || y % 8 == 0;
            if (!asked)
                expect_px(px, 64, x, y, 0, 0, 0, "not requested");
            else if (border)
                expect_px(px, 64, x, y, 0, 127, 0, "level 1, border");
            else
                expect_px(px, 64, x, y, 0, 255, 0, "level 1 alone: green (heat 0.5)");
        }
    static const trt_legend_want want[] = {{{0, 255, 0}, TRT_SWATCH_FILL, "mip 1"}, {{0, 0, 0}, TRT_SWATCH_FILL, "none"}};
    cr_expect_eq(trt_expect_legend(px, 64, 75, 64, 1, want, 2), 1);
    trt_png_free(px);
    tr_context_destroy(ctx);
}

/* ---- MipRegionUsed ----------------------------------------------------------------------------- */

Test(feedback_png, mip_region_used_strip)
{
    /* 32x16, 3 levels (32x16, 16x8, 8x4), 4x4 regions, 2 layers: the
     * picture is the levels side by side, 32 + 16 + 8 = 56 wide, 16 high,
     * level 1 from x = 32, level 2 from x = 48, black below the smaller levels. */
    tr_context *ctx = trt_context(1);
    tr_feedback_map *m = make_map(ctx, TR_FEEDBACK_MIP_REGION_USED, 32, 16, 3, 2, 4, 4);
    uint8_t l0[8 * 4] = {0}, l1[4 * 2] = {0}, l2[2 * 1] = {0};
    l0[0 * 8 + 1] = 0xFF; /* level 0 region (1, 0) */
    l0[3 * 8 + 7] = 1;    /* level 0 region (7, 3): any non-zero byte is "used" */
    l1[1 * 4 + 3] = 0xFF; /* level 1 region (3, 1) */
    l2[1] = 0xFF;         /* level 2 region (1, 0) */
    TRT_OK(tr_feedback_map_encode(m, 0, 0, l0, 8));
    TRT_OK(tr_feedback_map_encode(m, 0, 1, l1, 4));
    TRT_OK(tr_feedback_map_encode(m, 0, 2, l2, 2));
    /* layer 1: only level 2 region (0, 0) */
    const uint8_t l2b[2] = {0xFF, 0};
    TRT_OK(tr_feedback_map_encode(m, 1, 2, l2b, 2));

    /* 16 rows, the level numbers' row (7), then "used" and "unused" on
     * two rows (2 + 2 * 9) */
    uint8_t *px = write_and_read(m, 0, "used0.png", 56, 16 + 7 + 20);
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 56; x++) {
            /* which level's strip x is in, and the level's height */
            int level, lx, ly = y, lh;
            if (x < 32)
                level = 0, lx = x, lh = 16;
            else if (x < 48)
                level = 1, lx = x - 32, lh = 8;
            else
                level = 2, lx = x - 48, lh = 4;
            const int rx = lx / 4, ry = ly / 4;
            bool used = false;
            if (level == 0)
                used = (rx == 1 && ry == 0) || (rx == 7 && ry == 3);
            else if (level == 1)
                used = rx == 3 && ry == 1;
            else
                used = rx == 1 && ry == 0;
            if (ly >= lh)
                expect_px(px, 56, x, y, 0, 0, 0, "below the level");
            else if (used)
                expect_px(px, 56, x, y, 255, 255, 255, "used");
            else
                expect_px(px, 56, x, y, 64, 64, 64, "unused");
        }
    trt_expect_text(px, 56, 0, 18, 1, "0", "level 0's number");
    trt_expect_text(px, 56, 32, 18, 1, "1", "level 1's number");
    trt_expect_text(px, 56, 48, 18, 1, "2", "level 2's number");
    static const trt_legend_want want[] = {
        {{255, 255, 255}, TRT_SWATCH_FILL, "used"},
        {{64, 64, 64}, TRT_SWATCH_FILL, "unused"},
    };
    cr_expect_eq(trt_expect_legend(px, 56, 43, 16 + 7, 1, want, 2), 2);
    trt_png_free(px);

    px = write_and_read(m, 1, "used1.png", 56, 43);
    expect_px(px, 56, 48, 0, 255, 255, 255, "layer 1, level 2 region (0, 0)");
    expect_px(px, 56, 51, 3, 255, 255, 255, "layer 1, level 2 region (0, 0)");
    expect_px(px, 56, 52, 0, 64, 64, 64, "layer 1, level 2 region (1, 0)");
    expect_px(px, 56, 5, 1, 64, 64, 64, "layer 1, level 0 region (1, 0)");
    expect_px(px, 56, 47, 7, 64, 64, 64, "layer 1, level 1 region (3, 1)");
    expect_px(px, 56, 40, 12, 0, 0, 0, "layer 1, below level 1");
    trt_png_free(px);
    tr_context_destroy(ctx);
}

/* ---- errors ------------------------------------------------------------------------------------ */

Test(feedback_png, errors)
{
    tr_context *ctx = trt_context(1);
    tr_feedback_map *m = make_map(ctx, TR_FEEDBACK_MIN_MIP, 32, 32, 2, 2, 8, 8);
    TRT_EXPECT(tr_feedback_map_write_png(NULL, 0, file("x.png")), TR_ERROR_INVALID_ARGUMENT);
    TRT_EXPECT(tr_feedback_map_write_png(m, 0, NULL), TR_ERROR_INVALID_ARGUMENT);
    cr_expect(strstr(tr_context_last_error(ctx), "path") != NULL, "%s", tr_context_last_error(ctx));
    TRT_EXPECT(tr_feedback_map_write_png(m, 2, file("x.png")), TR_ERROR_OUT_OF_RANGE);
    cr_expect(strstr(tr_context_last_error(ctx), "layer 2") != NULL, "%s", tr_context_last_error(ctx));
    TRT_EXPECT(tr_feedback_map_write_png(m, 0, "/nonexistent-tilerast-dir/x.png"), TR_ERROR_IO);
    cr_expect(strstr(tr_context_last_error(ctx), "cannot write /nonexistent-tilerast-dir/x.png") != NULL, "%s",
              tr_context_last_error(ctx));
    TRT_OK(tr_feedback_map_write_png(m, 1, file("x.png")));
    tr_context_destroy(ctx);

    /* Out of memory: a 4096x4096 picture (64 MiB) under a 16 MiB limit;
     * the context goes on working. */
    ctx = trt_context_desc(&(tr_context_desc){.threads = 1, .memory_limit = 16u << 20});
    m = make_map(ctx, TR_FEEDBACK_MIP_REGION_USED, 4096, 4096, 1, 1, 2048, 2048);
    TRT_EXPECT(tr_feedback_map_write_png(m, 0, file("x.png")), TR_ERROR_OUT_OF_MEMORY);
    cr_expect(strstr(tr_context_last_error(ctx), "tr_feedback_map_write_png") != NULL, "%s",
              tr_context_last_error(ctx));
    tr_feedback_map *small = make_map(ctx, TR_FEEDBACK_MIP_REGION_USED, 64, 64, 1, 1, 8, 8);
    TRT_OK(tr_feedback_map_write_png(small, 0, file("x.png")));
    tr_context_destroy(ctx);
}
