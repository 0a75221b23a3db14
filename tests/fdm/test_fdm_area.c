/* FDM: density -> fragment area.  tr_fdm_fragment_area against the rule
 * restated here as a search over candidate areas (REFERENCE.md section 2,
 * turnip's tu_calc_frag_area), hand-computed spot values, and the per-bin
 * sampling of a density map (tu_fragment_density_map_sample): texel size,
 * sample point, clamping, layers per view and the shared-viewport minimum. */
#include "trtest.h"

#include <math.h>
#include <stdlib.h>

#include "fdm/fdm_internal.h"

#define EXPECT_AREA(got, w, h, what)                                                               \
    do {                                                                                           \
        tr_extent2d g_ = (got);                                                                    \
        cr_expect(g_.width == (w) && g_.height == (h), "%s: got %ux%u, expected %ux%u", what,       \
                  g_.width, g_.height, (uint32_t)(w), (uint32_t)(h));                              \
    } while (0)

/* The raw area a density byte gives: 1 / (byte / 255), in float. */
static float raw(uint32_t byte)
{
    return 1.0f / ((float)byte / 255.0f);
}

/* ---- the rule, restated -------------------------------------------------------------------- */

/* The largest of the candidate sizes 4, 2, 1 that fits under `grown` (the
 * axis after the +1 step), under the caps (8 with an FDM offset, then the
 * hardware's 4) and divides the bin; 1 always qualifies. */
static uint32_t ref_pick(double grown, uint32_t bin, bool fdm_offset)
{
    static const uint32_t candidates[] = {8, 4, 2, 1};
    uint32_t cap = fdm_offset ? 8 : 1024;
    if (cap > 4)
        cap = 4;
    for (size_t k = 0; k < sizeof(candidates) / sizeof(candidates[0]); k++) {
        uint32_t c = candidates[k];
        if (c <= cap && (double)c <= grown && bin % c == 0)
            return c;
    }
    return 1;
}

/* Areas from density bytes: a zero byte on either axis is invisible; else
 * grow the axis whose raw value has the larger fractional part (y on ties)
 * when the grown integer rectangle still fits in the raw (float) area, and
 * pick the largest candidate per axis. */
static tr_extent2d ref_area(uint32_t bx, uint32_t by, uint32_t bin_w, uint32_t bin_h, bool fdm_offset)
{
    if (bx == 0 || by == 0)
        return (tr_extent2d){0, 0};
    float ax = raw(bx), ay = raw(by);
    float area = ax * ay;
    double ix = trunc(ax), iy = trunc(ay);
    double fx = ax - ix, fy = ay - iy;
    double gx = ix, gy = iy;
    if (fx > fy) {
        if ((ix + 1) * iy <= area)
            gx = ix + 1;
    } else if (ix * (iy + 1) <= area) {
        gy = iy + 1;
    }
    return (tr_extent2d){ref_pick(gx, bin_w, fdm_offset), ref_pick(gy, bin_h, fdm_offset)};
}

Test(fdm, area_matches_restated_rule_for_every_byte_pair)
{
    static const tr_extent2d bins[] = {{96, 32}, {128, 64}, {98, 18}};
    for (size_t b = 0; b < sizeof(bins) / sizeof(bins[0]); b++) {
        for (int off = 0; off < 2; off++) {
            uint32_t bad = 0;
            for (uint32_t x = 0; x < 256; x++) {
                for (uint32_t y = 0; y < 256; y++) {
                    tr_extent2d got = tr_fdm_fragment_area(raw(x), raw(y), bins[b], off);
                    tr_extent2d want = ref_area(x, y, bins[b].width, bins[b].height, off);
                    if (got.width != want.width || got.height != want.height) {
                        if (bad++ < 8)
                            cr_log_error("bin %ux%u offset %d bytes (%u, %u): got %ux%u, expected %ux%u",
                                         bins[b].width, bins[b].height, off, x, y, got.width, got.height,
                                         want.width, want.height);
                    }
                }
            }
            cr_expect_eq(bad, 0, "bin %ux%u offset %d: %u byte pairs differ", bins[b].width, bins[b].height, off,
                         bad);
        }
    }
}

Test(fdm, area_spot_values)
{
    const tr_extent2d bin = {96, 32};
    /* 255: density 1, raw 1 -> 1x1. */
    EXPECT_AREA(tr_fdm_fragment_area(raw(255), raw(255), bin, false), 1, 1, "bytes 255");
    /* 128: raw 1.99218738 per axis; floors 1, 1 with equal fractions, so the
     * tie grows y: 1 * 2 = 2 <= 3.9688 -> 1x2. */
    EXPECT_AREA(tr_fdm_fragment_area(raw(128), raw(128), bin, false), 1, 2, "bytes 128");
    /* 127: raw 2.0078740; floors 2, 2; growing y gives 6 > 4.0316 -> 2x2. */
    EXPECT_AREA(tr_fdm_fragment_area(raw(127), raw(127), bin, false), 2, 2, "bytes 127");
    /* 85: raw exactly 3.0f; floors 3, 3; 3 * 4 = 12 > 9 -> 3x3, powers of
     * two -> 2x2. */
    EXPECT_AREA(tr_fdm_fragment_area(raw(85), raw(85), bin, false), 2, 2, "bytes 85");
    /* 64: raw 3.9843748; floors 3, 3; tie grows y: 12 <= 15.875 -> 3x4,
     * powers of two -> 2x4. */
    EXPECT_AREA(tr_fdm_fragment_area(raw(64), raw(64), bin, false), 2, 4, "bytes 64");
    /* 63: raw 4.0476189; floors 4, 4; 4 * 5 = 20 > 16.383 -> 4x4. */
    EXPECT_AREA(tr_fdm_fragment_area(raw(63), raw(63), bin, false), 4, 4, "bytes 63");
    /* 43: raw 5.9302325; floors 5, 5; 30 <= 35.168 -> 5x6 -> 4x4. */
    EXPECT_AREA(tr_fdm_fragment_area(raw(43), raw(43), bin, false), 4, 4, "bytes 43");
    /* 1: raw 254.99998; clamped to the hardware's 4. */
    EXPECT_AREA(tr_fdm_fragment_area(raw(1), raw(1), bin, false), 4, 4, "bytes 1");
    /* One axis only: (128, 255) is 1.99 x 1; x has the larger fraction but
     * 2 * 1 = 2 > 1.99 -> 1x1.  (64, 255): 3.98 x 1, 4 > 3.98 -> 3x1 -> 2x1.
     * (255, 64): the same on y -> 1x2. */
    EXPECT_AREA(tr_fdm_fragment_area(raw(128), raw(255), bin, false), 1, 1, "bytes (128, 255)");
    EXPECT_AREA(tr_fdm_fragment_area(raw(64), raw(255), bin, false), 2, 1, "bytes (64, 255)");
    EXPECT_AREA(tr_fdm_fragment_area(raw(255), raw(64), bin, false), 1, 2, "bytes (255, 64)");
    /* 127 x 63: 2.0079 x 4.0476, y's fraction is larger; 2 * 5 = 10 >
     * 8.127 -> 2x4. */
    EXPECT_AREA(tr_fdm_fragment_area(raw(127), raw(63), bin, false), 2, 4, "bytes (127, 63)");
    /* The grown product may equal the raw one: 1.6f * 2.5f rounds to 4.0f
     * and growing x gives 2 * 2 = 4 <= 4 -> 2x2 (kept on equality). */
    EXPECT_AREA(tr_fdm_fragment_area(1.6f, 2.5f, bin, false), 2, 2, "1.6 x 2.5");
    /* The raw product is taken in float, as turnip does: 0x1.024e1ep+0 x
     * 0x1.fb6e4cp+1 (1.0090045 x 3.9643035) is 3.99999996 exactly but 4.0f
     * in float, so growing y (1 * 4 <= 4) holds -> 1x4 (1x3 -> 1x2 with an
     * exact product). */
    EXPECT_AREA(tr_fdm_fragment_area(0x1.024e1ep+0f, 0x1.fb6e4cp+1f, bin, false), 1, 4, "product rounds to 4");
    /* Equal fractions with different floors: 3.5 x 3.5 grows y (3 * 4 =
     * 12 <= 12.25) -> 3x4 -> 2x4, never 4x2. */
    EXPECT_AREA(tr_fdm_fragment_area(3.5f, 3.5f, bin, false), 2, 4, "3.5 x 3.5");
    /* 0 on either axis: density 0, raw +inf -> invisible. */
    EXPECT_AREA(tr_fdm_fragment_area(raw(0), raw(0), bin, false), 0, 0, "bytes 0");
    EXPECT_AREA(tr_fdm_fragment_area(raw(0), raw(255), bin, false), 0, 0, "bytes (0, 255)");
    EXPECT_AREA(tr_fdm_fragment_area(raw(255), raw(0), bin, true), 0, 0, "bytes (255, 0)");
    /* NaN on either axis, and inf * 0 (NaN): invisible. */
    EXPECT_AREA(tr_fdm_fragment_area(NAN, 1.0f, bin, false), 0, 0, "NaN x 1");
    EXPECT_AREA(tr_fdm_fragment_area(2.0f, NAN, bin, false), 0, 0, "2 x NaN");
    EXPECT_AREA(tr_fdm_fragment_area(INFINITY, 0.0f, bin, false), 0, 0, "inf x 0");
    /* Finite values under 1 floor to 0, which counts as 1. */
    EXPECT_AREA(tr_fdm_fragment_area(0.5f, 0.25f, bin, false), 1, 1, "0.5 x 0.25");
    /* A huge finite axis clamps like any other. */
    EXPECT_AREA(tr_fdm_fragment_area(1e30f, 1.0f, bin, false), 4, 1, "1e30 x 1");
}

Test(fdm, area_clamps_and_divides_the_bin)
{
    /* Raw 8x8: the FDM-offset clamp (8) leaves it at 8, the hardware clamp
     * makes it 4x4 -- with or without the offset. */
    EXPECT_AREA(tr_fdm_fragment_area(8.0f, 8.0f, (tr_extent2d){96, 32}, true), 4, 4, "8x8 with offset");
    EXPECT_AREA(tr_fdm_fragment_area(8.0f, 8.0f, (tr_extent2d){96, 32}, false), 4, 4, "8x8");
    EXPECT_AREA(tr_fdm_fragment_area(16.0f, 2.0f, (tr_extent2d){96, 32}, true), 4, 2, "16x2 with offset");
    /* 4x4 on bins whose sides 4 does not divide: halved until it does. */
    EXPECT_AREA(tr_fdm_fragment_area(4.0f, 4.0f, (tr_extent2d){96, 20}, false), 4, 4, "4x4 on 96x20 (20 = 5*4)");
    EXPECT_AREA(tr_fdm_fragment_area(4.0f, 4.0f, (tr_extent2d){96, 18}, false), 4, 2, "4x4 on 96x18");
    EXPECT_AREA(tr_fdm_fragment_area(4.0f, 4.0f, (tr_extent2d){98, 9}, false), 2, 1, "4x4 on 98x9");
    EXPECT_AREA(tr_fdm_fragment_area(2.0f, 4.0f, (tr_extent2d){7, 12}, false), 1, 4, "2x4 on 7x12");
    /* A bin with no pixels: visible areas are 1x1, invisible stays {0, 0}. */
    EXPECT_AREA(tr_fdm_fragment_area(4.0f, 4.0f, (tr_extent2d){0, 32}, false), 1, 1, "4x4 on 0x32");
    EXPECT_AREA(tr_fdm_fragment_area(4.0f, 2.0f, (tr_extent2d){32, 0}, false), 1, 1, "4x2 on 32x0");
    EXPECT_AREA(tr_fdm_fragment_area(INFINITY, 1.0f, (tr_extent2d){0, 0}, false), 0, 0, "inf on 0x0");
}

/* ---- areas per bin from a density map ------------------------------------------------------ */

/* Density bytes whose areas are 1, 2 and 4 (see area_spot_values). */
static const uint8_t PAT[3] = {255, 127, 63};
static const uint32_t PAT_AREA[3] = {1, 2, 4};

static tr_bin_layout layout(uint32_t bin_w, uint32_t bin_h, uint32_t bins_x, uint32_t bins_y, int32_t ox, int32_t oy)
{
    tr_bin_layout l = {0};
    l.bin_w = bin_w;
    l.bin_h = bin_h;
    l.bins_x = bins_x;
    l.bins_y = bins_y;
    l.origin_x = ox;
    l.origin_y = oy;
    return l;
}

/* An R8G8_UNORM map whose texel (i, j) of layer k is (R, G) =
 * (PAT[(i + k) % 3], PAT[(j + 2k) % 3]): every texel's area names its
 * position modulo 3 (and the layer). */
static tr_image *pattern_map(tr_context *ctx, uint32_t w, uint32_t h, uint32_t layers)
{
    tr_image *img = trt_image_layers(ctx, TR_FORMAT_R8G8_UNORM, w, h, layers);
    uint8_t *px = malloc((size_t)w * h * 2);
    cr_assert_not_null(px);
    for (uint32_t k = 0; k < layers; k++) {
        for (uint32_t j = 0; j < h; j++) {
            for (uint32_t i = 0; i < w; i++) {
                px[((size_t)j * w + i) * 2 + 0] = PAT[(i + k) % 3];
                px[((size_t)j * w + i) * 2 + 1] = PAT[(j + 2 * k) % 3];
            }
        }
        TRT_OK(tr_image_upload(img, &(tr_subresource){.layer = k}, px, 0));
    }
    free(px);
    return img;
}

/* A 1x1 map with one (R, G) texel per layer. */
static tr_image *texel_map(tr_context *ctx, uint32_t layers, const uint8_t (*rg)[2])
{
    tr_image *img = trt_image_layers(ctx, TR_FORMAT_R8G8_UNORM, 1, 1, layers);
    for (uint32_t k = 0; k < layers; k++)
        TRT_OK(tr_image_upload(img, &(tr_subresource){.layer = k}, rg[k], 0));
    return img;
}

/* The sample coordinate and texel index along one axis, restated. */
static uint32_t ref_texel(int32_t origin, uint32_t b, uint32_t bin, uint32_t fb, uint32_t texel_px, uint32_t map_n)
{
    uint32_t x1 = (uint32_t)origin + b * bin, x2 = x1 + bin;
    uint32_t s = (x1 + (x2 < fb ? x2 : fb)) / 2;
    uint32_t t = s / texel_px;
    return t < map_n ? t : map_n - 1;
}

Test(fdm, bins_texel_size_rounds_the_division_up)
{
    /* 1080 rows over 33 texels: ceil(1080 / 33) = 33 -> 64-pixel texels (a
     * rounded-down division, 32, would give 32-pixel ones). */
    tr_context *ctx = trt_context(1);
    tr_image *map = pattern_map(ctx, 1, 33, 1);
    tr_bin_layout l = layout(64, 32, 1, 34, 0, 0);
    tr_extent2d out[34];
    tr__fdm_bin_areas(ctx, map, 0, NULL, 1, &l, 64, 1080, false, NULL, out);
    uint32_t differs_from_32 = 0;
    for (uint32_t by = 0; by < 34; by++) {
        uint32_t j = ref_texel(0, by, 32, 1080, 64, 33);
        differs_from_32 += j != ref_texel(0, by, 32, 1080, 32, 33);
        char what[64];
        snprintf(what, sizeof what, "bin row %u (texel row %u)", by, j);
        EXPECT_AREA(out[by], 1, PAT_AREA[j % 3], what);
    }
    cr_assert_gt(differs_from_32, 0, "the map must tell 32- from 64-pixel texels");
    /* Bin row 1 (rows 32..63) samples y 48: texel row 0 (row 1 with 32). */
    EXPECT_AREA(out[1], 1, 1, "bin row 1");
    /* The last bin row (1056..1087) is cut to 1080: y 1068, texel row 16. */
    EXPECT_AREA(out[33], 1, PAT_AREA[16 % 3], "bin row 33");
    tr_image_destroy(map);
    tr_context_destroy(ctx);
}

Test(fdm, bins_texel_size_clamps_to_32)
{
    /* 256 pixels over 64 texels would be 4-pixel texels: clamped to 32. */
    tr_context *ctx = trt_context(1);
    tr_image *map = pattern_map(ctx, 64, 64, 1);
    tr_bin_layout l = layout(16, 16, 16, 16, 0, 0);
    tr_extent2d out[256];
    tr__fdm_bin_areas(ctx, map, 0, NULL, 1, &l, 256, 256, false, NULL, out);
    for (uint32_t by = 0; by < 16; by++) {
        for (uint32_t bx = 0; bx < 16; bx++) {
            /* centre (16 bx + 8) >> 5 = bx / 2 */
            char what[64];
            snprintf(what, sizeof what, "bin (%u, %u)", bx, by);
            EXPECT_AREA(out[by * 16 + bx], PAT_AREA[(bx / 2) % 3], PAT_AREA[(by / 2) % 3], what);
        }
    }
    tr_image_destroy(map);
    tr_context_destroy(ctx);
}

Test(fdm, bins_texel_size_clamps_to_1024_and_to_the_map)
{
    /* 4096 pixels over 2 texels would be 2048-pixel texels: clamped to
     * 1024, so x in [1024, 2048) reads texel 1, and x >= 2048 (texels 2
     * and 3) clamps to texel 1, the map's last. */
    tr_context *ctx = trt_context(1);
    tr_image *map = pattern_map(ctx, 2, 1, 1); /* R: texel 0 -> 1, texel 1 -> 2 */
    tr_bin_layout l = layout(256, 64, 16, 1, 0, 0);
    tr_extent2d out[16];
    tr__fdm_bin_areas(ctx, map, 0, NULL, 1, &l, 4096, 64, false, NULL, out);
    for (uint32_t bx = 0; bx < 16; bx++) {
        char what[32];
        snprintf(what, sizeof what, "bin column %u", bx);
        EXPECT_AREA(out[bx], bx < 4 ? 1 : 2, 1, what);
    }
    tr_image_destroy(map);
    tr_context_destroy(ctx);
}

Test(fdm, bins_sample_the_centre_of_bin_within_framebuffer)
{
    /* A 100x70 framebuffer over a 4x4 map: ceil(100 / 4) = 25 and ceil(70 /
     * 4) = 18, both 32-pixel texels.  Columns: bin 0 is x 0..63 (centre
     * 32, texel 1); bin 1 is x 64..127 cut to 100: centre 82, texel 2 (96,
     * texel 3, without the cut).  Rows start at the origin 8: bin 0 is y
     * 8..55 (centre 32, texel 1; 24 and texel 0 without the origin); bin 1
     * is y 56..103 cut to 70: centre 63, texel 1 (80, texel 2, without). */
    tr_context *ctx = trt_context(1);
    tr_image *map = pattern_map(ctx, 4, 4, 1);
    tr_bin_layout l = layout(64, 48, 2, 2, 0, 8);
    tr_extent2d out[4];
    tr__fdm_bin_areas(ctx, map, 0, NULL, 1, &l, 100, 70, false, NULL, out);
    EXPECT_AREA(out[0], PAT_AREA[1], PAT_AREA[1], "bin (0, 0)");
    EXPECT_AREA(out[1], PAT_AREA[2], PAT_AREA[1], "bin (1, 0)");
    EXPECT_AREA(out[2], PAT_AREA[1], PAT_AREA[1], "bin (0, 1)");
    EXPECT_AREA(out[3], PAT_AREA[2], PAT_AREA[1], "bin (1, 1)");
    for (uint32_t b = 0; b < 4; b++) {
        uint32_t bx = b % 2, by = b / 2;
        uint32_t i = ref_texel(0, bx, 64, 100, 32, 4), j = ref_texel(8, by, 48, 70, 32, 4);
        EXPECT_AREA(out[b], PAT_AREA[i % 3], PAT_AREA[j % 3], "restated");
    }
    tr_image_destroy(map);
    tr_context_destroy(ctx);
}

Test(fdm, bins_multiview_reads_a_layer_per_view)
{
    tr_context *ctx = trt_context(1);
    static const uint8_t rg[4][2] = {{255, 255}, {127, 255}, {63, 63}, {255, 127}};
    tr_image *map = texel_map(ctx, 4, rg); /* layers: 1x1, 2x1, 4x4, 1x2 */
    tr_bin_layout l = layout(64, 64, 1, 1, 0, 0);
    tr_extent2d out[4];

    /* base 1, views 0 and 2: layers 1 and 3. */
    tr__fdm_bin_areas(ctx, map, 1, (const uint32_t[]){0, 2}, 2, &l, 64, 64, false, NULL, out);
    EXPECT_AREA(out[0], 2, 1, "base 1, view 0");
    EXPECT_AREA(out[1], 1, 2, "base 1, view 2");
    /* The slots follow view_ids' order. */
    tr__fdm_bin_areas(ctx, map, 1, (const uint32_t[]){2, 0}, 2, &l, 64, 64, false, NULL, out);
    EXPECT_AREA(out[0], 1, 2, "base 1, slot 0 = view 2");
    EXPECT_AREA(out[1], 2, 1, "base 1, slot 1 = view 0");
    /* base 0, views 0..3: every layer. */
    tr__fdm_bin_areas(ctx, map, 0, (const uint32_t[]){0, 1, 2, 3}, 4, &l, 64, 64, false, NULL, out);
    EXPECT_AREA(out[0], 1, 1, "layer 0");
    EXPECT_AREA(out[1], 2, 1, "layer 1");
    EXPECT_AREA(out[2], 4, 4, "layer 2");
    EXPECT_AREA(out[3], 1, 2, "layer 3");
    tr_image_destroy(map);

    /* Several bins and views: out[(by * bins_x + bx) * views + v]. */
    map = pattern_map(ctx, 2, 2, 2);
    l = layout(32, 32, 2, 2, 0, 0); /* 64x64 over 2x2 texels: 32-pixel texels, one per bin */
    tr_extent2d grid[8];
    tr__fdm_bin_areas(ctx, map, 0, (const uint32_t[]){0, 1}, 2, &l, 64, 64, false, false, grid);
    for (uint32_t by = 0; by < 2; by++) {
        for (uint32_t bx = 0; bx < 2; bx++) {
            for (uint32_t v = 0; v < 2; v++) {
                char what[48];
                snprintf(what, sizeof what, "bin (%u, %u) view %u", bx, by, v);
                EXPECT_AREA(grid[(by * 2 + bx) * 2 + v], PAT_AREA[(bx + v) % 3], PAT_AREA[(by + 2 * v) % 3],
                            what);
            }
        }
    }
    tr_image_destroy(map);
    tr_context_destroy(ctx);
}

Test(fdm, bins_one_layer_map_serves_every_view)
{
    tr_context *ctx = trt_context(1);
    static const uint8_t rg[1][2] = {{127, 63}};
    tr_image *map = texel_map(ctx, 1, rg);
    tr_bin_layout l = layout(64, 64, 1, 1, 0, 0);
    tr_extent2d out[3];
    /* View 3 would be past the only layer: it reads layer 0 like the rest. */
    tr__fdm_bin_areas(ctx, map, 0, (const uint32_t[]){0, 1, 3}, 3, &l, 64, 64, false, NULL, out);
    for (uint32_t v = 0; v < 3; v++)
        EXPECT_AREA(out[v], 2, 4, "one-layer map");
    tr_image_destroy(map);
    tr_context_destroy(ctx);
}

Test(fdm, bins_shared_viewport_takes_the_minimum_of_visible_views)
{
    tr_context *ctx = trt_context(1);
    tr_bin_layout l = layout(64, 64, 1, 1, 0, 0);
    const uint32_t views[3] = {0, 1, 2};
    tr_extent2d out[3];

    /* 2x1, 1x4 and an invisible view: per axis the minimum 1x1; the
     * invisible view's {0, 0} does not count and stays. */
    static const uint8_t a[3][2] = {{127, 255}, {255, 63}, {0, 0}};
    tr_image *map = texel_map(ctx, 3, a);
    tr__fdm_bin_areas(ctx, map, 0, views, 3, &l, 64, 64, false, NULL, out);
    EXPECT_AREA(out[0], 2, 1, "own, view 0");
    EXPECT_AREA(out[1], 1, 4, "own, view 1");
    EXPECT_AREA(out[2], 0, 0, "own, view 2");
    tr__fdm_bin_areas(ctx, map, 0, views, 3, &l, 64, 64, true, NULL, out);
    EXPECT_AREA(out[0], 1, 1, "shared, view 0");
    EXPECT_AREA(out[1], 1, 1, "shared, view 1");
    EXPECT_AREA(out[2], 0, 0, "shared, view 2 (invisible)");
    tr_image_destroy(map);

    /* 4x4, invisible (x density 0), 2x2: the invisible view sits between. */
    static const uint8_t b[3][2] = {{63, 63}, {0, 255}, {127, 127}};
    map = texel_map(ctx, 3, b);
    tr__fdm_bin_areas(ctx, map, 0, views, 3, &l, 64, 64, true, NULL, out);
    EXPECT_AREA(out[0], 2, 2, "shared, view 0");
    EXPECT_AREA(out[1], 0, 0, "shared, view 1 (invisible)");
    EXPECT_AREA(out[2], 2, 2, "shared, view 2");
    tr_image_destroy(map);

    /* Every view invisible: all stay {0, 0}. */
    static const uint8_t c[2][2] = {{0, 0}, {255, 0}};
    map = texel_map(ctx, 2, c);
    tr__fdm_bin_areas(ctx, map, 0, views, 2, &l, 64, 64, true, NULL, out);
    EXPECT_AREA(out[0], 0, 0, "all invisible, view 0");
    EXPECT_AREA(out[1], 0, 0, "all invisible, view 1");
    tr_image_destroy(map);
    tr_context_destroy(ctx);
}

Test(fdm, bins_halve_areas_to_divide_the_bin)
{
    /* 4x4 density on 40x18 bins: 40 = 10 * 4 keeps 4, 18 halves to 2. */
    tr_context *ctx = trt_context(1);
    static const uint8_t rg[1][2] = {{63, 63}};
    tr_image *map = texel_map(ctx, 1, rg);
    tr_bin_layout l = layout(40, 18, 2, 2, 0, 0);
    tr_extent2d out[4];
    /* with a zero FDM offset: the clamp to 8 comes first, then to 4 */
    const tr__fdm_offsets zero = {0};
    tr__fdm_bin_areas(ctx, map, 0, NULL, 1, &l, 80, 36, false, &zero, out);
    for (uint32_t b = 0; b < 4; b++)
        EXPECT_AREA(out[b], 4, 2, "40x18 bins");
    tr_image_destroy(map);
    tr_context_destroy(ctx);
}
