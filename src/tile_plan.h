/* tilerast executor: the tile plan, made once when recording ends.
 * Consumes the pass plan, the recording and the pass's LRZ state.
 * Produces what rendering the tiles needs: each bin and view's fragment
 * area (the density map read now), the tiles (bins merged on a device that
 * merges them) and the list of those to render, the subsampled layout,
 * and for each tile to render and each view a bin view: its transform,
 * rectangles, subsampled placement and LRZ mode, computed once, as turnip
 * builds its tile config once per render pass (tu_tile_config).  Rendering
 * a tile then only reads it (pass_tile.c). */
#ifndef TILERAST_TILE_PLAN_H
#define TILERAST_TILE_PLAN_H

#include "bin/bin_internal.h"
#include "fdm/fdm_view.h"
#include "lrz/lrz_internal.h"
#include "pass_plan.h"
#include "subsample/subsample_internal.h"

/* Which LRZ a bin view tests and writes. */
typedef enum tr__bin_view_lrz {
    TR__BIN_LRZ_OFF,           /* none (LRZ off or invalid, or no LRZ at this scale or place) */
    TR__BIN_LRZ_PASS,          /* the pass's buffer, at full scale */
    TR__BIN_LRZ_SCALED         /* a scaled bin on a device with hardware bin scaling: the
                                  worker's rendering-space buffer (tr__lrz_scratch) */
} tr__bin_view_lrz;

/* One view of one tile to render. */
typedef struct tr__bin_view {
    bool visible;              /* false: the view renders nothing in the tile and keeps its pixels
                                  (density 0, or its shifted bins outside the render area) */
    bool scaled;               /* the fragment area is not 1 x 1: drawn in rendering space */
    uint8_t lrz;               /* tr__bin_view_lrz */
    tr_extent2d area;          /* the fragment area */
    tr__fdm_view fv;           /* the transform (b_s, o; fdm_view.h) */
    int32_t rect[4];           /* its part of the framebuffer, inside the render area */
    /* Subsampled attachments (src/subsample): where the scaled view is
     * stored at its reduced size (NULL: stored as usual), and the full-size
     * store's shift (its layout rectangle - b_s). */
    const tr_rect *ss_rect;
    int32_t ss_shift[2];
} tr__bin_view;

typedef struct tr__tile_plan {
    tr_extent2d *fdm_areas;    /* [bin][view slot] (a pass with a density map) */
    size_t fdm_areas_cap;
    tr__tile *tiles;           /* [bin] (src/bin) */
    size_t tiles_cap;
    uint32_t *tile_list;       /* the tiles to render, by index into tiles, row-major */
    size_t tile_list_cap;
    uint32_t tile_count;
    tr__subsampled_tile *ss_tiles; /* [bin] (a pass with a subsampled attachment) */
    size_t ss_tiles_cap;
    tr__bin_view *views;       /* [tile_list index][view slot] */
    size_t views_cap;
    bool shared_viewport;      /* one fragment area for every view (TR_PASS_FDM_SHARED_VIEWPORT, or a
                                  draw writes the viewport index) */
    bool scaled_lrz;           /* scaled bins test LRZ in rendering space (a7xx bin scaling) */
} tr__tile_plan;

/* Makes *tp for the recorded pass (reusing its arrays), and counts the
 * bin statistics (bins, fdm_bin_views*, fdm_bins_merged, tiles) into
 * *stats.  TR_ERROR_OUT_OF_MEMORY with *what set to the part that could not
 * be made ("tile buffers", "the subsampled layout"); *what is left alone
 * on success. */
tr_result tr__tile_plan_make(tr_context *ctx, const tr__pass_plan *plan, const tr__recording *rec,
                             const tr__lrz_pass *lz, tr__tile_plan *tp, tr_pass_stats *stats, const char **what);

/* The bin view of the tile at tile_list[k] and view slot vs. */
static inline const tr__bin_view *tr__tile_plan_view(const tr__tile_plan *tp, const tr__pass_plan *plan, uint32_t k,
                                                     uint32_t vs)
{
    return &tp->views[(size_t)k * plan->view_count + vs];
}

/* The subsampled layout's geometry.  Its tile alignment is the device's
 * (the context's), not the pass's: turnip's tu_calc_subsampled and
 * get_default_tile_pos read phys_dev->info->tile_align_w/h, which a cpp-1
 * attachment does not double (that doubling is the pass's, for the bin
 * search only), and the image is padded by it. */
tr__subsampled_grid tr__tile_plan_grid(const tr_context *ctx, const tr__pass_plan *plan, const tr__recording *rec);

/* Frees the plan's arrays (context destruction). */
void tr__tile_plan_free(tr_context *ctx, tr__tile_plan *tp);

#endif
