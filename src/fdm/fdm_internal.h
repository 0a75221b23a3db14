/* tilerast FDM stage: density map -> fragment areas (include/tilerast/fdm.h
 * has the rules, REFERENCE.md section 2 their source in turnip).
 * Consumes: the pass's density map (an R8G8_UNORM image, level 0), its bin
 * layout, framebuffer size and view ids.  Produces: per bin and view a
 * fragment area in {1, 2, 4} x {1, 2, 4}, or {0, 0} for a view that is
 * invisible in that bin (density 0). */
#ifndef TILERAST_FDM_INTERNAL_H
#define TILERAST_FDM_INTERNAL_H

#include "internal.h"

/* A pass's honoured FDM offsets, per view slot: the offset the density
 * map's sampling moves by, and b_o, the bins' shift (0 in a
 * shared-viewport pass, where bins cannot move per view). */
typedef struct tr__fdm_offsets {
    tr_offset2d offset[TR_MAX_VIEWS];
    int32_t bo[TR_MAX_VIEWS][2];
} tr__fdm_offsets;

/* The fragment area of every bin and view of a pass from its density map:
 * out[(by * l->bins_x + bx) * view_count + v], {0, 0} = invisible.
 * View slot v reads layer base_layer + view_ids[v] (view_ids NULL: + v), or
 * base_layer for every view when the map has a single layer; the caller has
 * checked the format, the layer range and that out holds bins_x * bins_y *
 * view_count elements.  fb_w x fb_h is the framebuffer, whose size sets the
 * map's texel size.  shared_viewport: every visible view of a bin gets the
 * per-axis minimum over that bin's visible views; invisible views stay
 * {0, 0}.  off NULL: no FDM offset, the sample point is the centre of
 * bin ∩ framebuffer; otherwise the centre of the unshifted bin moved back
 * by (offset + b_o), and tr_fdm_fragment_area's clamp to 8 applies. */
void tr__fdm_bin_areas(const tr_context *ctx, const tr_image *map, uint32_t base_layer, const uint32_t *view_ids,
                       uint32_t view_count, const tr_bin_layout *l, uint32_t fb_w, uint32_t fb_h, bool shared_viewport,
                       const tr__fdm_offsets *off, tr_extent2d *out);

#endif
