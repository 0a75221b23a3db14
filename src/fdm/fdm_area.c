/* tilerast FDM stage: from density to fragment area, as turnip computes it on
 * the CPU when the pass ends (tu_calc_frag_area in tu_tile_config.cc and
 * tu_fragment_density_map_sample in tu_image.cc; REFERENCE.md section 2).
 * One sample per bin and view, at the centre of the bin's part of the
 * framebuffer; no minimum over the bin. */
#include <math.h>

#include "fdm/fdm_internal.h"

/* The map's texel size per axis is 2^shift pixels, shift clamped to these:
 * turnip's MIN_FDM_TEXEL_SIZE_LOG2 / MAX_FDM_TEXEL_SIZE_LOG2 (32 to 1024
 * pixels). */
#define TR_FDM_MIN_TEXEL_LOG2 5u
#define TR_FDM_MAX_TEXEL_LOG2 10u

/* Above this an axis only ever clamps down to TR_FDM_MAX_FRAGMENT_AREA; it
 * bounds the float -> integer conversion of huge finite areas. */
#define TR_FDM_AREA_CAP 1024.0f

/* One axis after step 2: at least 1 (an axis whose floor is 0, or a
 * negative one, is 1: turnip's util_logbase2(0) is 0), rounded down to a
 * power of two (step 3: "make sure all operations are exact"), then
 * clamped (step 4). */
static uint32_t area_axis(float floor_v, uint32_t max_area)
{
    uint32_t v = floor_v < 1.0f ? 1u : floor_v > TR_FDM_AREA_CAP ? (uint32_t)TR_FDM_AREA_CAP : (uint32_t)floor_v;
    uint32_t p = 1;
    while (p * 2 <= v)
        p *= 2;
    return TR_MIN(p, max_area);
}

tr_extent2d tr_fdm_fragment_area(float area_x, float area_y, tr_extent2d bin, bool fdm_offset)
{
    /* Step 1 (tu_calc_frag_area): `if (!isfinite(area))` marks the view
     * invisible -- "the blob driver skips rendering tiles with 0 density".
     * A NaN axis makes the product NaN, and so does inf * 0: both are
     * caught by the one test. */
    float area = area_x * area_y;
    if (!isfinite(area))
        return (tr_extent2d){0, 0};

    /* Step 2 (tu_calc_frag_area): modff splits each axis; +1 on the axis with
     * the larger fraction (y on a tie), kept if the new product, in float,
     * is at most the raw product:
     *   (frac_x > frac_y ? (floor_x + 1.f) * floor_y
     *                    : floor_x * (floor_y + 1.f)) <= area */
    float floor_x, floor_y;
    float frac_x = modff(area_x, &floor_x);
    float frac_y = modff(area_y, &floor_y);
    float grown = frac_x > frac_y ? (floor_x + 1.0f) * floor_y : floor_x * (floor_y + 1.0f);
    if (grown <= area) {
        if (frac_x > frac_y)
            floor_x += 1.0f;
        else
            floor_y += 1.0f;
    }

    /* Steps 3 and 4 (tu_calc_frag_area): power of two, then
     * MIN2(.., TU_FDM_OFFSET_GRANULARITY) with an FDM offset, then MIN2(.., 4)
     * ("HW viewport scaling supports a maximum fragment width/height of
     * 4"; turnip applies it for views <= MAX_HW_SCALED_VIEWS, i.e. always).
     * Since 4 < 8 the offset clamp never shows in the result; it is kept so
     * that the code reads as the rule. */
    uint32_t max_area = fdm_offset ? TR_FDM_OFFSET_GRANULARITY : UINT32_MAX;
    max_area = TR_MIN(max_area, TR_FDM_MAX_FRAGMENT_AREA);
    tr_extent2d a = {area_axis(floor_x, max_area), area_axis(floor_y, max_area)};

    /* A bin of width or height 0 covers no pixel: turnip's `0 % w` would
     * keep any area, we answer {1, 1} (visible, unscaled) instead. */
    if (bin.width == 0 || bin.height == 0)
        return (tr_extent2d){1, 1};

    /* Step 5 (tu_calc_frag_area): halve until the area divides tile0, so
     * that no coarse fragment straddles a bin edge. */
    while (a.width > 1 && bin.width % a.width != 0)
        a.width /= 2;
    while (a.height > 1 && bin.height % a.height != 0)
        a.height /= 2;
    return a;
}

/* ceil(log2(n)) for n >= 1; 0 for n <= 1 (util_logbase2_ceil). */
static uint32_t log2_ceil(uint32_t n)
{
    uint32_t s = 0;
    while (s < 32 && ((uint64_t)1 << s) < n)
        s++;
    return s;
}

/* log2 of the texel size along an axis of fb pixels covered by a map of
 * map_n texels (tu_fragment_density_map_sample):
 *   util_logbase2_ceil(DIV_ROUND_UP(width, fdm->vk.extent.width)), clamped.
 * The division rounds up before the log2 does: 1080 over 33 gives 33 -> 64
 * pixels, not 32. */
static uint32_t texel_shift(uint32_t fb, uint32_t map_n)
{
    uint32_t s = log2_ceil((uint32_t)(((uint64_t)fb + map_n - 1) / map_n));
    return TR_MIN(TR_MAX(s, TR_FDM_MIN_TEXEL_LOG2), TR_FDM_MAX_TEXEL_LOG2);
}

/* The texel coordinate of a sample: `x >> fdm_shift_x`, clamped to the
 * map (tu_fragment_density_map_sample: CLAMP(i, 0, extent - 1)). */
static uint32_t texel_coord(int64_t s, uint32_t shift, uint32_t map_n)
{
    if (s < 0)
        return 0;
    return (uint32_t)TR_MIN((uint64_t)s >> shift, (uint64_t)map_n - 1);
}

/* The sample coordinate along one axis of the bin [x1, x1 + bin): the
 * centre of the bin cut to the framebuffer, in integers
 * (tu_calc_frag_area without FDM offsets: (x1 + MIN2(x2, fb->width)) / 2). */
static int64_t sample_coord(int32_t origin, uint32_t index, uint32_t bin, uint32_t fb)
{
    int64_t x1 = (int64_t)origin + (int64_t)index * bin, x2 = x1 + bin;
    return (x1 + TR_MIN(x2, (int64_t)fb)) / 2;
}

/* The same with an FDM offset (tu_calc_frag_area with offsets): the
 * centre of the unshifted bin, x2 not cut to the framebuffer, moved back
 * by the view's offset and its bin offset: (x1 + x2) / 2 - (offset + b_o).
 * It may leave the map; texel_coord clamps it. */
static int64_t sample_coord_offset(int32_t origin, uint32_t index, uint32_t bin, int32_t offset, int32_t bo)
{
    int64_t x1 = (int64_t)origin + (int64_t)index * bin, x2 = x1 + bin;
    return (x1 + x2) / 2 - ((int64_t)offset + bo);
}

void tr__fdm_bin_areas(const tr_context *ctx, const tr_image *map, uint32_t base_layer, const uint32_t *view_ids,
                       uint32_t view_count, const tr_bin_layout *l, uint32_t fb_w, uint32_t fb_h, bool shared_viewport,
                       const tr__fdm_offsets *off, tr_extent2d *out)
{
    const uint32_t map_w = map->desc.width, map_h = map->desc.height;
    const uint32_t shift_x = texel_shift(fb_w, map_w), shift_y = texel_shift(fb_h, map_h);
    /* Upstream turnip reads layer base + view even from a one-layer map
     * (past its end); fdm.h follows the fix some trees carry
     * (`if (fdm->vk.layer_count == 1) layer = 0`): every view reads it. */
    const bool one_layer = map->desc.layers == 1;
    const uint32_t cpp = map->fmt->texel; /* 2: R = x density, G = y density */
    const tr_extent2d bin = {l->bin_w, l->bin_h};

    for (uint32_t by = 0; by < l->bins_y; by++) {
        for (uint32_t bx = 0; bx < l->bins_x; bx++) {
            tr_extent2d *a = out + ((size_t)by * l->bins_x + bx) * view_count;
            for (uint32_t v = 0; v < view_count; v++) {
                int64_t sx, sy;
                if (off) {
                    sx = sample_coord_offset(l->origin_x, bx, l->bin_w, off->offset[v].x, off->bo[v][0]);
                    sy = sample_coord_offset(l->origin_y, by, l->bin_h, off->offset[v].y, off->bo[v][1]);
                } else {
                    sx = sample_coord(l->origin_x, bx, l->bin_w, fb_w);
                    sy = sample_coord(l->origin_y, by, l->bin_h, fb_h);
                }
                const uint32_t i = texel_coord(sx, shift_x, map_w), j = texel_coord(sy, shift_y, map_h);
                uint32_t layer = base_layer + (one_layer ? 0 : view_ids ? view_ids[v] : v);
                const uint8_t *t = map->data + tr__image_texel_index(map, 0, layer, i, j) * cpp;
                /* tu_fragment_density_map_sample: the UNORM unpack (c / 255.0f,
                 * the context's table), then area = 1.0f / density per axis;
                 * a density of 0 gives +inf, which step 1 makes invisible. */
                float raw_x = 1.0f / ctx->unorm8_decode[t[0]];
                float raw_y = 1.0f / ctx->unorm8_decode[t[1]];
                a[v] = tr_fdm_fragment_area(raw_x, raw_y, bin, off != NULL);
            }
            if (!shared_viewport)
                continue;
            /* tu_calc_frag_area's shared-viewport rule: each axis becomes the
             * minimum over the views.  Turnip's invisible views hold
             * UINT32_MAX there, so they never lower it; they get the minimum
             * too but stay invisible (visible_views), which here means they
             * keep {0, 0}. */
            uint32_t mw = UINT32_MAX, mh = UINT32_MAX;
            for (uint32_t v = 0; v < view_count; v++) {
                if (a[v].width) {
                    mw = TR_MIN(mw, a[v].width);
                    mh = TR_MIN(mh, a[v].height);
                }
            }
            for (uint32_t v = 0; v < view_count; v++) {
                if (a[v].width)
                    a[v] = (tr_extent2d){mw, mh};
            }
        }
    }
}
