/* tilerast subsample stage (include/tilerast/subsample.h has the rules).
 * Consumes: a pass's bin grid and tiles (src/bin: each tile's views,
 * fragment areas and merged extent) and the views' bin offsets.
 * Produces: where each tile is stored in a subsampled image, per view, and
 * the metadata sampling reads (for now the layout; storing, aprons and
 * sampling follow). */
#ifndef TILERAST_SUBSAMPLE_INTERNAL_H
#define TILERAST_SUBSAMPLE_INTERNAL_H

#include "bin/bin_internal.h"
#include "tilerast/subsample.h"

/* The pass's geometry, as the layout sees it. */
typedef struct tr__subsampled_grid {
    tr_extent2d framebuffer, bin, tile_align;
    uint32_t bins_x, bins_y;
    uint32_t views;
    int32_t bo[TR__VIEWS_MAX][2]; /* b_o per view slot */
    bool fdm_offset;              /* offsets honoured: the image is padded by tile_align */
} tr__subsampled_grid;

/* Per tile (its owner's index in the grid): turnip's tu_tile_config
 * subsampled fields. */
typedef struct tr__subsampled_tile {
    bool subsampled;              /* a visible owner tile: stored at rect[v], not its framebuffer place */
    bool border;                  /* pinned to the image's right or bottom end */
    uint32_t views;               /* bit v: view v stored at its reduced size */
    tr_rect rect[TR__VIEWS_MAX];  /* per view: where the tile is stored */
} tr__subsampled_tile;

/* Bytes of scratch tr__subsampled_layout needs for n bins. */
size_t tr__subsampled_scratch_bytes(size_t n);

/* tu_calc_subsampled over every view at once (one worklist, views checked
 * innermost, merged tiles through their owners), into out[bin] for each
 * owner tile; nothing above TR_SUBSAMPLED_MAX_BINS bins.  tiles are
 * tr__bin_tiles_init's (merged or not); scratch has
 * tr__subsampled_scratch_bytes(bins) bytes. */
void tr__subsampled_layout(const tr__subsampled_grid *g, tr__tile *tiles, void *scratch, tr__subsampled_tile *out);

/* tu_emit_subsampled_metadata for view v: the header and bins[bin] (every
 * bin of a merged tile gets its owner's). */
void tr__subsampled_metadata(const tr__subsampled_grid *g, tr__tile *tiles, const tr__subsampled_tile *st, uint32_t v,
                             tr_subsampled_header *h, tr_subsampled_bin *bins);

#endif
