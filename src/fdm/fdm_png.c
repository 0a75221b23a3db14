/* tilerast FDM stage: the debugging picture of a pass's fragment areas
 * (tr_fdm_write_png).
 * Consumes: a pass descriptor with a density map, an image of the
 * framebuffer's size.  Produces: a PNG of the image, dimmed, with the bin
 * grid over it and each bin tinted and labelled by its fragment area in one
 * view, and a legend below (debug_draw.h) counting the bins per area.  It only calls the public queries (tr_compute_bin_layout,
 * tr_compute_fdm_areas), so it shows what any client would be told. */
#include "debug_draw.h"
#include "internal.h"

/* How much of the image's colour is kept (the rest is black), out of 256:
 * dim enough that the tints and the grid stand out, light enough that the
 * picture stays recognisable. */
#define FDM_PNG_DIM 192u
/* A tint's weight over the dimmed image, out of 256. */
#define FDM_PNG_TINT 110u

/* The legend's entries (debug_draw.h): the areas drawn in the view (at
 * most the 9 fdm.h produces and one other), then the invisible bins and
 * the merged tiles. */
#define FDM_PNG_ENTRIES 12

/* Writes "WxH" at (x0, y0) in glyphs scaled by s (debug_draw.h), white on
 * a black box, if it fits in the clip rectangle [x0, x1) x [y0, y1). */
static void draw_label(uint8_t *px, uint32_t W, uint32_t H, uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1,
                       tr_extent2d a, uint32_t s)
{
    const char text[4] = {(char)('0' + TR_MIN(a.width, 9u)), 'x', (char)('0' + TR_MIN(a.height, 9u)), 0};
    const uint32_t box_w = tr__text_width(text, s) + 2, box_h = 5 * s + 2;
    if (x0 + box_w > x1 || y0 + box_h > y1)
        return;
    const tr__canvas cv = {px, W, H};
    static const uint8_t black[3] = {0, 0, 0}, white[3] = {255, 255, 255};
    tr__canvas_fill(&cv, x0, y0, box_w, box_h, black);
    tr__canvas_text(&cv, x0 + 1, y0 + 1, s, text, white);
}

/* The framebuffer's size: the first attachment's level, as the pass takes
 * it (tr_compute_bin_layout has checked that they agree). */
static bool framebuffer_size(const tr_render_pass_desc *d, uint32_t *w, uint32_t *h)
{
    for (uint32_t i = 0; i < d->color_count && i < TR_MAX_COLOR_ATTACHMENTS; i++)
        if (d->color[i].image) {
            *w = tr_image_level_width(d->color[i].image, d->color[i].level);
            *h = tr_image_level_height(d->color[i].image, d->color[i].level);
            return true;
        }
    if (d->depth.image) {
        *w = tr_image_level_width(d->depth.image, d->depth.level);
        *h = tr_image_level_height(d->depth.image, d->depth.level);
        return true;
    }
    return false;
}

TR_API tr_result tr_fdm_write_png(tr_context *ctx, const tr_render_pass_desc *desc, uint32_t view_slot,
                                  const tr_image *image, uint32_t layer, const char *path)
{
    tr__api_enter(ctx);
    if (!ctx)
        return tr__error(NULL, TR_ERROR_INVALID_ARGUMENT, "tr_fdm_write_png: ctx is NULL");
    if (!desc || !image || !path)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_fdm_write_png: %s is NULL",
                         !desc ? "desc" : !image ? "image" : "path");
    if (!desc->density_map.image)
        return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR,
                         "tr_fdm_write_png: desc->density_map.image is NULL (the pass has no density map)");
    tr_bin_layout l;
    tr_result r = tr_compute_bin_layout(ctx, desc, &l); /* validates desc, with its message */
    if (r != TR_OK)
        return r;
    if (view_slot >= l.views)
        return tr__error(ctx, TR_ERROR_OUT_OF_RANGE, "tr_fdm_write_png: view_slot = %u but the pass has %u view(s)",
                         view_slot, l.views);
    uint32_t W, H;
    if (!framebuffer_size(desc, &W, &H))
        return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR, "tr_fdm_write_png: desc has no attachment");
    const tr_image_desc id = tr_image_get_desc(image);
    if (layer >= id.layers)
        return tr__error(ctx, TR_ERROR_OUT_OF_RANGE, "tr_fdm_write_png: layer = %u but the image has %u layer(s)",
                         layer, id.layers);
    if (id.width != W || id.height != H)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT,
                         "tr_fdm_write_png: image is %ux%u but the framebuffer is %ux%u", id.width, id.height, W, H);

    const size_t count = (size_t)l.bins_x * l.bins_y * l.views;
    tr_extent2d *areas = tr__alloc(ctx, count * sizeof *areas);
    tr_fdm_tile *tiles = tr__alloc(ctx, (size_t)l.bins_x * l.bins_y * sizeof *tiles);
    uint8_t *px = tr__alloc(ctx, (size_t)W * H * 4);
    size_t ntiles = 0;
    tr_offset2d bo[TR_MAX_VIEWS];
    if (!areas || !tiles || !px) {
        r = tr__error(ctx, TR_ERROR_OUT_OF_MEMORY, "tr_fdm_write_png: out of memory");
        goto done;
    }
    r = tr_compute_fdm_areas(ctx, desc, areas, count);
    if (r == TR_OK)
        r = tr_compute_fdm_bin_offsets(ctx, desc, bo, TR_MAX_VIEWS);
    if (r == TR_OK)
        r = tr_compute_fdm_tiles(ctx, desc, tiles, (size_t)l.bins_x * l.bins_y, &ntiles);
    if (r != TR_OK)
        goto done;
    r = tr_image_read_rgba8(image, &(tr_subresource){.level = 0, .layer = layer}, px);
    if (r != TR_OK)
        goto done;
    for (size_t i = 0; i < (size_t)W * H; i++) {
        for (int c = 0; c < 3; c++)
            px[i * 4 + c] = (uint8_t)(px[i * 4 + c] * FDM_PNG_DIM / 256u);
        px[i * 4 + 3] = 255;
    }

    /* The render area, which the bins cover (the grid starts at
     * l.origin_x/y, up to 7 pixels before it). */
    tr_rect ra = desc->render_area;
    if (ra.width == 0 || ra.height == 0)
        ra = (tr_rect){0, 0, W, H};
    const uint32_t ax0 = (uint32_t)ra.x, ay0 = (uint32_t)ra.y;
    const uint32_t ax1 = ax0 + ra.width, ay1 = ay0 + ra.height;
    /* Labels up to 4 times as large as bins leave room: at least 64 x 32
     * pixels of bin per step (the a630's smallest bins, 32 x 16, get 1). */
    const uint32_t scale = TR_MAX(1u, TR_MIN(4u, TR_MIN(l.bin_w / 64u, l.bin_h / 32u)));
    /* what the legend counts */
    tr__area_count seen[FDM_PNG_ENTRIES - 2];
    uint32_t invisible_bins = 0, merged_tiles = 0;
    size_t kinds = 0;

    for (uint32_t by = 0; by < l.bins_y; by++)
        for (uint32_t bx = 0; bx < l.bins_x; bx++) {
            /* the view's bins, shifted back by its b_o (FDM offset) */
            const int64_t bx0 = (int64_t)l.origin_x + (int64_t)bx * l.bin_w - bo[view_slot].x;
            const int64_t by0 = (int64_t)l.origin_y + (int64_t)by * l.bin_h - bo[view_slot].y;
            const uint32_t x0 = (uint32_t)TR_MAX(bx0, (int64_t)ax0), y0 = (uint32_t)TR_MAX(by0, (int64_t)ay0);
            const uint32_t x1 = (uint32_t)TR_MIN(bx0 + l.bin_w, (int64_t)ax1);
            const uint32_t y1 = (uint32_t)TR_MIN(by0 + l.bin_h, (int64_t)ay1);
            if (x0 >= x1 || y0 >= y1)
                continue;
            const tr_extent2d a = areas[((size_t)by * l.bins_x + bx) * l.views + view_slot];
            const bool invisible = a.width == 0 || a.height == 0;
            uint8_t tint[3] = {0, 0, 0};
            const bool tinted = !invisible && tr__area_rgb(a.width, a.height, tint);
            if (invisible)
                invisible_bins++;
            else
                tr__area_count_add(seen, &kinds, TR_ARRAY_SIZE(seen), a.width, a.height);
            for (uint32_t y = y0; y < y1; y++)
                for (uint32_t x = x0; x < x1; x++) {
                    uint8_t *o = px + ((size_t)y * W + x) * 4;
                    if (invisible) {
                        /* Hatched: magenta diagonals on a darker image. */
                        if (((x + y) & 7u) < 2u)
                            o[0] = 255, o[1] = 0, o[2] = 255;
                        else
                            o[0] = (uint8_t)(o[0] / 2), o[1] = (uint8_t)(o[1] / 2), o[2] = (uint8_t)(o[2] / 2);
                    } else if (tinted) {
                        for (int c = 0; c < 3; c++)
                            o[c] = (uint8_t)((o[c] * (256u - FDM_PNG_TINT) + tint[c] * FDM_PNG_TINT) / 256u);
                    }
                    /* The grid: each bin's top and left edges (inside
                     * the render area), and the area's right and bottom. */
                    if (x == x0 || y == y0 || x == ax1 - 1 || y == ay1 - 1)
                        o[0] = o[1] = o[2] = 235;
                }
            draw_label(px, W, H, x0 + 2, y0 + 2, x1, y1, a, scale); /* "0x0" when invisible */
        }

    /* Merged tiles (bin merging): a yellow frame, 2 pixels wide, inside
     * the bins they cover. */
    for (size_t i = 0; i < ntiles; i++) {
        const tr_fdm_tile *t = &tiles[i];
        if ((t->bins_w == 1 && t->bins_h == 1) || !(t->visible_views & (1u << view_slot)))
            continue;
        merged_tiles++;
        const int64_t tx0 = (int64_t)l.origin_x + (int64_t)t->bin_x * l.bin_w - bo[view_slot].x;
        const int64_t ty0 = (int64_t)l.origin_y + (int64_t)t->bin_y * l.bin_h - bo[view_slot].y;
        const int64_t x0 = TR_MAX(tx0, (int64_t)ax0), y0 = TR_MAX(ty0, (int64_t)ay0);
        const int64_t x1 = TR_MIN(tx0 + (int64_t)t->bins_w * l.bin_w, (int64_t)ax1);
        const int64_t y1 = TR_MIN(ty0 + (int64_t)t->bins_h * l.bin_h, (int64_t)ay1);
        for (int64_t y = y0; y < y1; y++)
            for (int64_t x = x0; x < x1; x++)
                if (x < x0 + 2 || y < y0 + 2 || x >= x1 - 2 || y >= y1 - 2) {
                    uint8_t *o = px + ((size_t)y * W + (size_t)x) * 4;
                    o[0] = 255, o[1] = 220, o[2] = 0;
                }
    }

    /* 1x1 has no tint: a frame in the grid's colour */
    tr__legend_entry entries[FDM_PNG_ENTRIES];
    size_t n = tr__legend_areas(entries, seen, kinds, TR__SWATCH_FILL, (const uint8_t[3]){235, 235, 235});
    if (invisible_bins) {
        entries[n] = (tr__legend_entry){{255, 0, 255}, TR__SWATCH_HATCH, ""};
        tr__legend_area_count(&entries[n++], 0, 0, invisible_bins, "bin");
    }
    if (merged_tiles) {
        entries[n] = (tr__legend_entry){{255, 220, 0}, TR__SWATCH_FRAME, ""};
        tr__legend_count(&entries[n++], "merged", merged_tiles, "tile");
    }
    r = tr__write_png_legend(ctx, "tr_fdm_write_png", path, px, W, H, &(tr__legend){entries, n, NULL, 0});
done:
    tr__free(ctx, areas);
    tr__free(ctx, tiles);
    tr__free(ctx, px);
    return r;
}
