/* tilerast binning stage.
 * Consumes: the pass's attachments (bytes per pixel), render area, view count
 * and GMEM budget; then each set-up triangle.  Produces: the bin grid and VSC
 * pipes (tr_bin_layout) and, per view and pipe, a visibility stream that lists
 * each triangle touching the pipe with a bit per bin it touches.  The binning
 * pass never draws. */
#ifndef TILERAST_BIN_INTERNAL_H
#define TILERAST_BIN_INTERNAL_H

#include "pass_plan.h"
#include "record.h"

/* One GMEM attachment as the tiling sees it. */
typedef struct tr__bin_att {
    uint32_t cpp;
    /* The stencil plane of D32_SFLOAT_S8_UINT (cpp 1), listed right after its
     * depth plane; turnip sizes it without block alignment. */
    bool separate_stencil;
} tr__bin_att;

/* Turnip's tiling: GMEM split among attachments, then the fewest (then the
 * squarest) aligned bins that fit, then VSC pipes grown until at most 32.
 * `origin` is the render area's top-left; the grid starts there aligned
 * down to 8 pixels so that 2x2 quads and 8x8 blocks never straddle a bin.
 * With a density map (fdm) a bin more than twice as long as wide (or the
 * reverse) costs 1000 bins more in the search, as in turnip; with an FDM
 * offset the grid has one more column and row; on a device that merges
 * bins, pipes are 4 x 8 bins (flags: TR__LAYOUT_*). */
#define TR__LAYOUT_SINGLE_BIN 1u /* one bin over the render area */
#define TR__LAYOUT_FDM 2u        /* a density map: the search's penalty for long bins */
#define TR__LAYOUT_FDM_OFFSET 4u /* its offsets are honoured: one more column and row */
#define TR__LAYOUT_FDM_PIPES 8u  /* the device merges bins: pipes of 4 x 8 bins */
tr_result tr__bin_layout(const tr_context *ctx, const tr__bin_att *att, uint32_t att_count, const int32_t area[4],
                         uint32_t views, uint32_t flags, tr_bin_layout *out);

/* Bin rectangle (x0, y0, x1, y1) of bin (bx, by) of a view whose bins are
 * shifted by bo (b_o, fdm.h; {0, 0} without an FDM offset), cut to the
 * render area. */
void tr__bin_rect(const tr_bin_layout *l, const int32_t area[4], const int32_t bo[2], uint32_t bx, uint32_t by,
                  int32_t rect[4]);

/* A tile: the bins a pass renders as one.  Without bin merging each bin
 * is a tile of 1 x 1 bins.  Positions and extents count bins. */
#define TR__TILE_NONE UINT32_MAX
typedef struct tr__tile {
    uint32_t x, y;             /* the top-left bin */
    uint32_t ew, eh;           /* bins covered (turnip's sysmem_extent) */
    uint32_t gmem_h;           /* GMEM height in bins (gmem_extent.height): above 1 when a tile
                                  with only view 0 visible uses the other views' GMEM */
    uint32_t pipe;             /* the VSC pipe holding its bins */
    uint32_t slot_mask;        /* its bins' slots in the pipe (pipes of at most 32 bins; else 0) */
    uint32_t present;          /* bit v: view slot v's shifted bin meets the render area */
    uint32_t visible;          /* bit v: present and not of density 0: view slot v is rendered */
    uint32_t merged;           /* the tile it was merged into, or TR__TILE_NONE */
    tr_extent2d area[TR__VIEWS_MAX]; /* per view slot ({0, 0}: invisible) */
} tr__tile;

/* One tile per bin, row-major: its view slots' areas (areas[bin * views +
 * v]; NULL: 1 x 1) and which views see it (a shifted rectangle, bo[v],
 * that meets the render area, and a density that is not 0). */
void tr__bin_tiles_init(const tr_bin_layout *l, const int32_t area[4], const int32_t (*bo)[2],
                        const tr_extent2d *areas, uint32_t views, tr__tile *tiles);

/* a7xx bin merging (turnip's tu_merge_tiles and try_merge_tiles): within
 * each VSC pipe, bins row-major, each merged with its left, then its upper
 * neighbour where every rule allows.  Returns the number of merges (bins
 * absorbed into another tile).  Pipes of more than 32 bins merge nothing. */
uint32_t tr__bin_merge_tiles(const tr_bin_layout *l, uint32_t views, bool shared_viewport, tr__tile *tiles);

/* Appends the triangle to the streams of every pipe it touches, with the
 * bins whose pixel centres its edges do not exclude (the view's bins:
 * with an FDM offset they are shifted by its b_o, rec->bo).  Returns the
 * number of stream entries written (0: the triangle reaches no bin), or -1
 * on allocation failure. */
int tr__bin_triangle(tr_context *ctx, const tr__pass_plan *plan, tr__recording *rec, const tr__tri *t,
                     uint32_t tri_index, uint32_t view_slot);

/* The same in two halves, so that the costly one runs on the front end's
 * threads.  tr__bin_classify writes the triangle's entries to out (per
 * pipe: the pipe's index, then mask_words words of bin bits), at most
 * `cap` words, touching nothing shared; it returns the words written, or
 * -1 when they do not fit (then use tr__bin_triangle).  tr__bin_append
 * puts such entries into the view's streams, in the order of the calls:
 * the number of entries, or -1 on allocation failure. */
int tr__bin_classify(const tr__pass_plan *plan, const tr__recording *rec, const tr__tri *t, uint32_t view_slot,
                     uint32_t *out, uint32_t cap);
int tr__bin_append(tr_context *ctx, const tr__pass_plan *plan, tr__recording *rec, uint32_t tri_index,
                   uint32_t view_slot, const uint32_t *words, uint32_t n);
/* Room in each of the view's streams for entries[pipe] more entries
 * (false on allocation failure); then tr__bin_append_reserved appends as
 * tr__bin_append does, without growing a stream, up to that many. */
bool tr__bin_reserve(tr_context *ctx, const tr__pass_plan *plan, tr__recording *rec, uint32_t view_slot,
                     const uint32_t *entries);
int tr__bin_append_reserved(const tr__pass_plan *plan, tr__recording *rec, uint32_t tri_index, uint32_t view_slot,
                            const uint32_t *words, uint32_t n);

#endif
