/* tilerast: the debugging picture of a feedback map
 * (tr_feedback_map_write_png).
 * Consumes: a map that no recording pass holds, and a layer.  Produces: a
 * PNG at the paired texture's resolution, one pixel per texel, each region
 * painted as its decoded byte says.  It only calls the public decode, so it
 * shows what any client would be told. */
#include <stdio.h>

#include "debug_draw.h"
#include "feedback/feedback_internal.h"

/* MinMip: the levels present in the layer coloured by rank among
 * themselves on debug_draw.h's heat scale (blue the finest ... red the
 * coarsest; one level alone green), so that neighbouring levels differ
 * however few or many there are; nothing requested black. */
typedef struct level_colours {
    uint8_t rgb[TR_MAX_IMAGE_LEVELS][3];
    bool present[TR_MAX_IMAGE_LEVELS];
    bool none;   /* a region with nothing requested */
    uint32_t count;
} level_colours;

static void rank_levels(const uint8_t *codes, size_t n, level_colours *lc)
{
    memset(lc, 0, sizeof *lc);
    for (size_t i = 0; i < n; i++) {
        if (codes[i] == TR_FEEDBACK_NONE)
            lc->none = true;
        else
            lc->present[TR_MIN(codes[i], TR_MAX_IMAGE_LEVELS - 1)] = true; /* decode gives levels < the map's */
    }
    for (uint32_t l = 0; l < TR_MAX_IMAGE_LEVELS; l++)
        lc->count += lc->present[l];
    uint32_t rank = 0;
    for (uint32_t l = 0; l < TR_MAX_IMAGE_LEVELS; l++)
        if (lc->present[l]) {
            tr__heat(lc->count > 1 ? (float)rank / (float)(lc->count - 1) : 0.5f, lc->rgb[l]);
            rank++;
        }
}

static void level_colour(const level_colours *lc, uint8_t level, uint8_t rgb[3])
{
    if (level == TR_FEEDBACK_NONE)
        rgb[0] = rgb[1] = rgb[2] = 0;
    else
        memcpy(rgb, lc->rgb[TR_MIN(level, TR_MAX_IMAGE_LEVELS - 1)], 3);
}

/* MipRegionUsed: used regions white, the others dark grey; pixels of the
 * picture below a level narrower than level 0 stay black. */
#define FEEDBACK_PNG_UNUSED 64u

static void put_px(uint8_t *px, uint32_t W, uint32_t x, uint32_t y, const uint8_t rgb[3])
{
    uint8_t *o = px + ((size_t)y * W + x) * 4;
    o[0] = rgb[0], o[1] = rgb[1], o[2] = rgb[2], o[3] = 255;
}

tr_result tr_feedback_map_write_png(const tr_feedback_map *m, uint32_t layer, const char *path)
{
    tr__api_enter(m ? m->ctx : NULL);
    if (!m)
        return tr__error(NULL, TR_ERROR_INVALID_ARGUMENT, "tr_feedback_map_write_png: map is NULL");
    tr_context *ctx = m->ctx;
    if (!path)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_feedback_map_write_png: path is NULL");
    if (layer >= m->desc.layers)
        return tr__error(ctx, TR_ERROR_OUT_OF_RANGE, "tr_feedback_map_write_png: layer %u of a map with %u layers",
                         layer, m->desc.layers);
    const bool min_mip = m->desc.kind == TR_FEEDBACK_MIN_MIP;
    const uint32_t levels = min_mip ? 1u : m->desc.levels;
    const uint32_t rw = m->desc.region_width, rh = m->desc.region_height;

    /* The decoded bytes of every level the picture shows, one after another,
     * and the picture's size: level 0's, or the levels side by side. */
    uint32_t gw[TR_MAX_IMAGE_LEVELS], gh[TR_MAX_IMAGE_LEVELS], x0[TR_MAX_IMAGE_LEVELS];
    size_t offset[TR_MAX_IMAGE_LEVELS], bytes = 0;
    uint32_t W = 0;
    const uint32_t H = m->desc.height;
    for (uint32_t l = 0; l < levels; l++) {
        tr_result r = tr_feedback_map_decoded_size(m, l, &gw[l], &gh[l]);
        if (r != TR_OK)
            return r;
        offset[l] = bytes;
        bytes += (size_t)gw[l] * gh[l];
        x0[l] = W;
        W += tr__feedback_level_w(m, l);
    }
    uint8_t *codes = tr__alloc(ctx, bytes);
    if (!codes)
        return tr__error(ctx, TR_ERROR_OUT_OF_MEMORY, "tr_feedback_map_write_png: out of memory for %zu bytes", bytes);
    for (uint32_t l = 0; l < levels; l++) {
        /* also refuses a map bound in the recording pass, with decode's message */
        tr_result r = tr_feedback_map_decode(m, layer, l, codes + offset[l], gw[l]);
        if (r != TR_OK) {
            tr__free(ctx, codes);
            return r;
        }
    }
    const size_t px_bytes = (size_t)W * H * 4;
    uint8_t *px = tr__alloc(ctx, px_bytes);
    if (!px) {
        tr__free(ctx, codes);
        return tr__error(ctx, TR_ERROR_OUT_OF_MEMORY, "tr_feedback_map_write_png: out of memory for a %ux%u picture",
                         W, H);
    }
    memset(px, 0, px_bytes);
    for (size_t i = 3; i < px_bytes; i += 4)
        px[i] = 255; /* opaque black where nothing is painted */

    level_colours lc;
    rank_levels(codes, bytes, &lc);
    for (uint32_t l = 0; l < levels; l++) {
        const uint32_t lw = tr__feedback_level_w(m, l), lh = tr__feedback_level_h(m, l);
        const uint8_t *code = codes + offset[l];
        for (uint32_t y = 0; y < lh; y++)
            for (uint32_t x = 0; x < lw; x++) {
                /* texel (x, y) of level l lies in region (x / rw, y / rh) */
                const uint8_t c = code[(size_t)(y / rh) * gw[l] + x / rw];
                uint8_t rgb[3];
                if (min_mip) {
                    level_colour(&lc, c, rgb);
                    if (x % rw == 0 || y % rh == 0) /* a region's first column and row: the grid */
                        rgb[0] >>= 1, rgb[1] >>= 1, rgb[2] >>= 1;
                } else {
                    rgb[0] = rgb[1] = rgb[2] = c ? 255 : FEEDBACK_PNG_UNUSED;
                }
                put_px(px, W, x0[l] + x, y, rgb);
            }
    }
    /* The legend: MinMip, each level present ("mip <n>") and nothing
     * requested ("none"); MipRegionUsed, the two shades and each level's
     * number under its strip. */
    tr__legend_entry e[TR_MAX_IMAGE_LEVELS + 1];
    tr__legend_mark marks[TR_MAX_IMAGE_LEVELS];
    size_t n = 0;
    if (min_mip) {
        for (uint32_t l = 0; l < TR_MAX_IMAGE_LEVELS; l++)
            if (lc.present[l]) {
                e[n] = (tr__legend_entry){{lc.rgb[l][0], lc.rgb[l][1], lc.rgb[l][2]}, TR__SWATCH_FILL, ""};
                snprintf(e[n++].label, sizeof e[0].label, "mip %u", l);
            }
        if (lc.none)
            e[n++] = (tr__legend_entry){{0, 0, 0}, TR__SWATCH_FILL, "none"};
    } else {
        e[n++] = (tr__legend_entry){{255, 255, 255}, TR__SWATCH_FILL, "used"};
        e[n++] = (tr__legend_entry){{FEEDBACK_PNG_UNUSED, FEEDBACK_PNG_UNUSED, FEEDBACK_PNG_UNUSED}, TR__SWATCH_FILL,
                                    "unused"};
        for (uint32_t l = 0; l < levels; l++) {
            marks[l].x = x0[l];
            snprintf(marks[l].label, sizeof marks[l].label, "%u", l);
        }
    }
    tr_result r = tr__write_png_legend(ctx, "tr_feedback_map_write_png", path, px, W, H,
                                       &(tr__legend){e, n, marks, min_mip ? 0 : levels});
    tr__free(ctx, px);
    tr__free(ctx, codes);
    return r;
}
