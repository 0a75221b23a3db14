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
 * bin of a merged tile gets its owner's); above TR_SUBSAMPLED_MAX_BINS the
 * identity, in bins[0 .. min(bins, cap)). */
void tr__subsampled_metadata(const tr__subsampled_grid *g, tr__tile *tiles, const tr__subsampled_tile *st, uint32_t v,
                             tr_subsampled_header *h, tr_subsampled_bin *bins, size_t cap);

/* One apron strip: dst (x, y, width, height) in the image, copied with
 * NEAREST from the source rectangle src (x0, y0, x1, y1; float texels). */
typedef struct tr__apron_copy {
    int32_t dst[4];
    float src[4];
} tr__apron_copy;

/* tu_calc_subsampled_aprons for view v: the strips, row-major by tile,
 * right neighbours then bottom ones, two per pair; at most 8 per bin. */
size_t tr__subsampled_aprons(const tr__subsampled_grid *g, const tr__tile *tiles, const tr__subsampled_tile *st,
                             uint32_t v, tr__apron_copy *out);
/* Copies the strips within layer `layer` of the image (level 0). */
void tr__subsampled_copy_aprons(tr_image *img, uint32_t layer, const tr__apron_copy *c, size_t n);

/* A subsampled image's metadata, one per layer (tr_image.subsampled):
 * what the last pass that stored the layer wrote; the identity (one bin,
 * scale 1) until then. */
struct tr__subsampled_meta {
    tr_subsampled_header header;
    uint32_t bin_count;
    tr_subsampled_bin bins[TR_SUBSAMPLED_MAX_BINS];
};
typedef struct tr__subsampled_meta tr__subsampled_meta;

/* layers metadata blocks, each the identity; NULL when out of memory. */
tr__subsampled_meta *tr__subsampled_meta_create(tr_context *ctx, uint32_t layers);
void tr__subsampled_meta_identity(tr__subsampled_meta *m);

/* Where a shader's uv lands in the stored image (turnip's
 * tu_get_subsampled_coordinates and lower_tex_subsampled): uv clamped to
 * [0, 1 - 2^-15], bin = int(uv * header.scale + header.offset), uv' = uv *
 * bin.scale + bin.offset (the bin index kept inside the metadata). */
static inline void tr__subsampled_map(const tr__subsampled_meta *m, float u, float v, float *ou, float *ov)
{
    const float hi = 1.0f - 0x1p-15f;
    u = u > hi ? hi : u > 0.0f ? u : 0.0f; /* NaN -> 0 */
    v = v > hi ? hi : v > 0.0f ? v : 0.0f;
    const uint32_t bx = (uint32_t)(u * m->header.scale[0] + m->header.offset[0]);
    const uint32_t by = (uint32_t)(v * m->header.scale[1] + m->header.offset[1]);
    uint64_t idx = (uint64_t)by * m->header.bin_stride + bx;
    if (idx >= m->bin_count)
        idx = m->bin_count - 1;
    const tr_subsampled_bin *b = &m->bins[idx];
    *ou = u * b->scale[0] + b->offset[0];
    *ov = v * b->scale[1] + b->offset[1];
}

#endif
