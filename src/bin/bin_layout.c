/* tilerast binning stage: the bin grid and VSC pipes.
 * The rules are turnip's (REFERENCE.md section 5): tu_render_pass_gmem_config
 * for the GMEM split, tu_tiling_config_update_tile_layout for the search and
 * tu_tiling_config_update_pipe_layout for the pipes. */
#include "bin/bin_internal.h"

static uint32_t div_up(uint32_t a, uint32_t b)
{
    return (a + b - 1) / b;
}

tr_result tr__bin_layout(const tr_context *ctx, const tr__bin_att *att, uint32_t att_count, const int32_t area[4],
                         uint32_t views, uint32_t flags, tr_bin_layout *out)
{
    const bool single_bin = flags & TR__LAYOUT_SINGLE_BIN, fdm = flags & TR__LAYOUT_FDM;
    tr_bin_layout l = {0};
    uint32_t align_w = ctx->desc.tile_align_w, align_h = ctx->desc.tile_align_h;
    /* The GMEM block is fixed from the device's alignment before a cpp-1
     * attachment widens it: 8 x align_w x align_h bytes, log2(8) = 3. */
    const uint64_t block = 8ull * align_w * align_h;
    uint32_t block_shift = 3;
    uint64_t cpp_total = 0;
    for (uint32_t i = 0; i < att_count; i++) {
        cpp_total += att[i].cpp;
        /* A cpp-1 attachment (the separate stencil plane) needs a width
         * alignment that is a multiple of 64: turnip doubles it once for each
         * such attachment while it is not, and halves the block alignment. */
        if (att[i].cpp == 1 && align_w % 64 != 0) {
            align_w *= 2;
            if (block_shift > 0)
                block_shift--;
        }
    }
    l.tile_align_w = align_w;
    l.tile_align_h = align_h;
    l.views = views;
    l.origin_x = area[0] & ~7;
    l.origin_y = area[1] & ~7;
    uint32_t fb_w = (uint32_t)(area[2] - l.origin_x), fb_h = (uint32_t)(area[3] - l.origin_y);

    /* GMEM pixels: each attachment gets blocks in proportion to its cpp,
     * rounded down to its block alignment (cpp >> block_shift); the separate
     * stencil plane takes its share unaligned. */
    uint64_t pixels = UINT32_MAX;
    if (cpp_total == 0) {
        pixels = 1024 * 1024; /* no attachments: any nonzero value (as turnip) */
    } else {
        uint64_t blocks = ctx->desc.gmem_bytes / block;
        uint64_t total = cpp_total;
        for (uint32_t i = 0; i < att_count; i++) {
            uint64_t cpp = att[i].cpp, n;
            if (att[i].separate_stencil) {
                n = blocks * cpp / total;
            } else {
                uint64_t al = TR_MAX(1u, cpp >> block_shift);
                n = TR_MAX((blocks * cpp / total) & ~(al - 1), al);
            }
            if (n > blocks || n == 0)
                return tr__error(ctx, TR_ERROR_LIMIT_EXCEEDED,
                                 "GMEM budget of %u bytes cannot hold the attachments (%llu bytes per pixel, "
                                 "blocks of %llu bytes)", ctx->desc.gmem_bytes, (unsigned long long)cpp_total,
                                 (unsigned long long)block);
            blocks -= n;
            total -= cpp;
            pixels = TR_MIN(pixels, n * block / cpp);
        }
    }
    l.gmem_pixels = (uint32_t)pixels;

    if (single_bin) {
        /* Whole 8x8 blocks, as every bin: the raster stage reads and
         * writes 2x2 quads and 8x8 blocks, which must not leave the tile. */
        l.bin_w = TR_ALIGN(fb_w, 8u);
        l.bin_h = TR_ALIGN(fb_h, 8u);
        l.bins_x = l.bins_y = 1;
    } else {
        uint32_t best_tiles = UINT32_MAX, best_diff = UINT32_MAX;
        uint32_t max_w = TR_MIN(ctx->desc.tile_max_w / align_w * align_w, TR_ALIGN(fb_w, align_w));
        uint32_t max_h = TR_MIN(ctx->desc.tile_max_h / align_h * align_h, TR_ALIGN(fb_h, align_h));
        for (uint32_t w = align_w; w <= max_w; w += align_w) {
            uint64_t h = pixels / ((uint64_t)w * views);
            h = TR_MIN(h, (uint64_t)max_h);
            h = h / align_h * align_h;
            if (h == 0)
                break; /* wider bins only get shorter */
            uint32_t nx = div_up(fb_w, w), ny = div_up(fb_h, (uint32_t)h);
            /* turnip's FDM penalty, judged on the height before it is
             * re-balanced (tu_tiling_config_update_tile_layout) */
            const uint32_t penalty = fdm && (w > 2 * h || h > 2 * (uint64_t)w) ? 1000u : 0u;
            uint32_t hh = TR_ALIGN(div_up(fb_h, ny), align_h);
            uint32_t tiles = nx * ny + penalty, diff = w > hh ? w - hh : hh - w;
            if (tiles < best_tiles || (tiles == best_tiles && diff < best_diff)) {
                best_tiles = tiles;
                best_diff = diff;
                l.bin_w = w;
                l.bin_h = hh;
                l.bins_x = nx;
                l.bins_y = ny;
            }
        }
        if (best_tiles == UINT32_MAX)
            return tr__error(ctx, TR_ERROR_LIMIT_EXCEEDED,
                             "GMEM budget of %u bytes cannot hold one %ux%u bin of %u view(s)",
                             ctx->desc.gmem_bytes, align_w, align_h, views);
    }
    /* With an FDM offset the grid gets one more column and row, into
     * which the shifted bins reach (turnip's fdm_offset tile counts). */
    if (flags & TR__LAYOUT_FDM_OFFSET) {
        l.bins_x++;
        l.bins_y++;
    }
    /* VSC pipes.  With a density map on a device that merges bins, pipe 0
     * is 4 x 8 bins (tu_tiling_config_update_pipe_layout), so that merges
     * have room; where that needs more than 32 pipes (turnip then cannot
     * bin at all) and otherwise, pipe 0 grows (the narrower side first)
     * until there are at most 32. */
    l.pipe_w = l.pipe_h = 1;
    if ((flags & TR__LAYOUT_FDM_PIPES) && div_up(l.bins_x, 4) * div_up(l.bins_y, 8) <= TR_MAX_VSC_PIPES) {
        l.pipe_w = 4;
        l.pipe_h = 8;
    }
    while (div_up(l.bins_x, l.pipe_w) * div_up(l.bins_y, l.pipe_h) > TR_MAX_VSC_PIPES) {
        if (l.pipe_w < l.pipe_h)
            l.pipe_w++;
        else
            l.pipe_h++;
    }
    l.pipes_x = div_up(l.bins_x, l.pipe_w);
    l.pipes_y = div_up(l.bins_y, l.pipe_h);
    *out = l;
    return TR_OK;
}

void tr__bin_rect(const tr_bin_layout *l, const int32_t area[4], const int32_t bo[2], uint32_t bx, uint32_t by,
                  int32_t rect[4])
{
    /* tu_bin_offset's grid: each bin moves back by b_o, the first column
     * and row start at the grid's origin (they only shrink) */
    const int32_t x0 = l->origin_x + (int32_t)(bx * l->bin_w) - bo[0];
    const int32_t y0 = l->origin_y + (int32_t)(by * l->bin_h) - bo[1];
    rect[0] = TR_MAX(x0, area[0]);
    rect[1] = TR_MAX(y0, area[1]);
    rect[2] = TR_MIN(x0 + (int32_t)l->bin_w, area[2]);
    rect[3] = TR_MIN(y0 + (int32_t)l->bin_h, area[3]);
}
