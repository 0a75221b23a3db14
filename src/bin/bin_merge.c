/* tilerast binning stage: the tiles a pass renders, and a7xx bin merging.
 *
 * Without merging every bin is a tile of its own.  A device with bin masks
 * (CP_SET_BIN_DATA5's mask, the a7xx feature; turnip's has_bin_mask) may
 * render neighbouring scaled bins of one VSC pipe as one tile: their
 * visibility streams are merged by the mask and the tile is drawn once, in
 * rendering space, into GMEM that unscaled would hold a single bin.  The
 * rules are turnip's try_merge_tiles and tu_merge_tiles (tu_tile_config.cc;
 * REFERENCE.md section 2, "Bin merging"), each named below. */
#include "bin/bin_internal.h"

void tr__bin_tiles_init(const tr_bin_layout *l, const int32_t area[4], const int32_t (*bo)[2],
                        const tr_extent2d *areas, uint32_t views, tr__tile *tiles)
{
    const bool masks = l->pipe_w * l->pipe_h <= 32;
    for (uint32_t by = 0; by < l->bins_y; by++)
        for (uint32_t bx = 0; bx < l->bins_x; bx++) {
            const size_t b = (size_t)by * l->bins_x + bx;
            tr__tile *t = &tiles[b];
            memset(t, 0, sizeof *t);
            t->x = bx;
            t->y = by;
            t->ew = t->eh = t->gmem_h = 1;
            t->pipe = (by / l->pipe_h) * l->pipes_x + bx / l->pipe_w;
            const uint32_t slot = (by % l->pipe_h) * l->pipe_w + bx % l->pipe_w;
            t->slot_mask = masks ? 1u << slot : 0u;
            t->merged = TR__TILE_NONE;
            /* tu_calc_bin_visibility: a view sees the bin when its shifted
             * rectangle meets the render area; tu_calc_frag_area: and its
             * density is not 0 there. */
            for (uint32_t v = 0; v < views; v++) {
                int32_t r[4];
                tr__bin_rect(l, area, bo[v], bx, by, r);
                t->area[v] = areas ? areas[b * views + v] : (tr_extent2d){1, 1};
                if (r[0] < r[2] && r[1] < r[3]) {
                    t->present |= 1u << v;
                    if (t->area[v].width)
                        t->visible |= 1u << v;
                }
            }
        }
}

/* try_merge_tiles(dst, src): dst is the tile being walked, src its left or
 * upper neighbour (the owner of that cell); on success dst absorbs src and
 * takes its top-left. */
static bool try_merge(tr__tile *tiles, uint32_t dst_i, uint32_t src_i, uint32_t views, bool shared_viewport)
{
    tr__tile *dst = &tiles[dst_i], *src = &tiles[src_i];
    /* Equal fragment areas in every view visible in both. */
    for (uint32_t v = 0; v < views; v++)
        if ((dst->visible & src->visible & (1u << v)) &&
            (dst->area[v].width != src->area[v].width || dst->area[v].height != src->area[v].height))
            return false;
    /* The same column with the same width, or the same row with the same
     * height: the union is a rectangle.  (REFERENCE.md's rule; upstream
     * turnip compares the extent along the merge instead, which limits
     * merges to 2 x 2.) */
    if (dst->x == src->x) {
        if (dst->ew != src->ew)
            return false;
    } else if (dst->y == src->y) {
        if (dst->eh != src->eh)
            return false;
    } else {
        return false;
    }
    /* The same GMEM extent. */
    if (dst->gmem_h != src->gmem_h)
        return false;
    /* Without an absolute bin mask (has_abs_bin_mask, an a750 feature) the
     * mask the hardware gets, shifted down to its lowest slot, has 16 bits. */
    const uint32_t slots = dst->slot_mask | src->slot_mask;
    if ((slots >> __builtin_ctz(slots)) > 0xffffu)
        return false;
    /* The merged extent in bins (src lies left of or above dst). */
    const uint32_t ew = dst->ew + (dst->x - src->x), eh = dst->eh + (dst->y - src->y);
    /* With only view 0 visible (and more views) the GMEM of the other
     * views is free: the tile may be that many bins tall. */
    const uint32_t visible = dst->visible | src->visible;
    const uint32_t mult = visible == 1u && views > 1 && dst->gmem_h == 1 && !shared_viewport ? views : dst->gmem_h;
    /* Every visible view's rendered size stays within the GMEM extent:
     * extent (in bins) <= fragment area, per axis. */
    for (uint32_t v = 0; v < views; v++) {
        const uint32_t bit = 1u << v;
        if ((dst->visible & bit) && (dst->area[v].width < ew || dst->area[v].height * mult < eh))
            return false;
        if ((src->visible & bit) && (src->area[v].width < ew || src->area[v].height * mult < eh))
            return false;
    }
    for (uint32_t v = 0; v < views; v++) {
        const uint32_t bit = 1u << v;
        if (src->visible & ~dst->visible & bit)
            dst->area[v] = src->area[v];
        if ((visible & bit) && dst->area[v].height < eh)
            dst->gmem_h = mult;
    }
    dst->ew = ew;
    dst->eh = eh;
    dst->visible = visible;
    dst->x = src->x;
    dst->y = src->y;
    dst->slot_mask = slots;
    src->merged = dst_i;
    return true;
}

uint32_t tr__bin_merge_tiles(const tr_bin_layout *l, uint32_t views, bool shared_viewport, tr__tile *tiles)
{
    if (l->pipe_w * l->pipe_h > 32)
        return 0; /* no masks for pipes this large (tr__bin_layout falls back to them) */
    uint32_t merged = 0;
    /* tu_merge_tiles: per pipe, its bins row-major; left, then up (unless
     * the upper one is already merged into its right neighbour). */
    for (uint32_t py = 0; py < l->pipes_y; py++)
        for (uint32_t px = 0; px < l->pipes_x; px++) {
            const uint32_t x0 = px * l->pipe_w, y0 = py * l->pipe_h;
            const uint32_t x1 = TR_MIN(x0 + l->pipe_w, l->bins_x), y1 = TR_MIN(y0 + l->pipe_h, l->bins_y);
            for (uint32_t y = y0; y < y1; y++)
                for (uint32_t x = x0; x < x1; x++) {
                    const uint32_t i = y * l->bins_x + x;
                    if (!tiles[i].visible)
                        continue;
                    if (x > x0 && try_merge(tiles, i, i - 1, views, shared_viewport))
                        merged++;
                    if (y > y0 && tiles[i - l->bins_x].merged == TR__TILE_NONE &&
                        try_merge(tiles, i, i - l->bins_x, views, shared_viewport))
                        merged++;
                }
        }
    return merged;
}
