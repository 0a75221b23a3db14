/* tilerast: fragment density maps (VK_EXT_fragment_density_map), as
 * Adreno's turnip driver runs them.
 *
 * A render pass may name a density map (tr_render_pass_desc.density_map):
 * an R8G8_UNORM image whose texels say, per region of the framebuffer, how
 * densely to shade (density = texel / 255 per axis).  When the pass ends,
 * the map is read on the CPU (as turnip reads it when the command buffer is
 * built) and every bin gets, per view, a fragment area (fx, fy) in
 * {1, 2, 4} x {1, 2, 4}.  The bin is then rendered into a tile of
 * bin_w / fx x bin_h / fy pixels ("rendering space"): the draw's viewport
 * and scissor are patched for that bin and view and its triangles are set
 * up again from their clipped positions, one fragment-shader invocation
 * runs per coarse fragment, and the store writes each coarse fragment to
 * every framebuffer pixel of its area.  The coordinate spaces are seed
 * 000's ("Coordinate Space Soup"); the rules are turnip's (REFERENCE.md
 * section 2 and the functions named below):
 *
 *   - Rendering space.  A bin whose top-left framebuffer pixel is b (the
 *     common bin start, GMEM pixel 0) maps x to x' = x / fx + o with
 *     o = b - b / fx (tu_fdm_per_bin_offset); likewise y.  The bin covers
 *     [b, b + bin_w / fx) there.
 *   - Viewport: x' = x * (1 / fx) + o, width / fx (float; exact, fx being a
 *     power of two), depth range unchanged (fdm_apply_viewports).  Each
 *     triangle is set up again from its clipped vertices with it: snapped
 *     to 1/256 of a coarse pixel, culled and tie-ruled in rendering space,
 *     as the hardware rasterizes the patched state.
 *   - Scissor: [floor(sx / fx) + o, ceil((sx + sw) / fx) + o), cut to the
 *     bin in rendering space (fdm_apply_scissors), then to the patched
 *     viewport's rectangle: every coarse fragment the scissor touches.
 *   - Shading: one fragment-shader invocation per coarse fragment.
 *     tr_fs_block.frag_size_x/y = (fx, fy) (FragSizeEXT); frag_x/y =
 *     (x' + 0.5 - o) * f, the centre of the coarse fragment's area in
 *     framebuffer space; frag_z/w unchanged (tu_nir_lower_fdm).
 *     Derivatives, and so texture LOD, come from neighbouring coarse
 *     fragments.  Depth, stencil and blending happen at the coarse
 *     resolution in GMEM.
 *   - LRZ in scaled bin views: off without hardware bin scaling (a6xx),
 *     in rendering space with it (a740); lrz.h has the rules.
 *   - LOAD (restore) into a scaled bin: coarse fragment k (x' = b + k)
 *     reads framebuffer texel b + k * fx + fx / 2, clamped to the image:
 *     turnip's load_3d_blit samples the unscaled bin with NEAREST at the
 *     coarse centre, u = b + (k + 0.5) fx, which for fx = 2 lies on the
 *     boundary of two texels and takes the right one (fdm_apply_load_
 *     coords).  CLEAR fills the whole reduced tile; DONT_CARE does nothing.
 *   - STORE (resolve): framebuffer pixel x of the bin (inside the render
 *     area) gets coarse fragment (x - b) / fx, each replicated fx x fy
 *     (store_cp_blit, nearest, fdm_apply_store_coords).
 *   - tr_cmd_clear_attachments: the rectangle in rendering space is
 *     [floor(x / fx) + o, ceil((x + w) / fx) + o), cut to the bin
 *     (fdm_apply_gmem_clear_coords): whole coarse fragments.
 *   - A view with a density of 0 in a bin is invisible there: nothing is
 *     loaded, drawn or stored for it; its pixels keep what the image held.
 *   - Binning is in framebuffer space at full scale (as turnip bins with
 *     the unpatched viewport), conservatively: a triangle that covers no
 *     pixel centre, or is culled, at full scale may still cover a coarse
 *     fragment's centre, so it is binned for scaled bins (and skipped by
 *     bins at 1 x 1).  With a density map of 255 everywhere the image is
 *     identical to the pass without one; statistics of the binning
 *     (primitives_culled, primitives_binned, bin_primitive_refs, LRZ
 *     counts) may differ, since more is binned.
 *   - The tile search adds 1000 bins to a bin more than twice as long as
 *     it is wide or the reverse (tu_tiling_config_update_tile_layout), so
 *     tr_compute_bin_layout gives a pass with a density map its own grid.
 *   - TR_PASS_SINGLE_BIN cannot have a density map (no FDM without bins).
 *
 * FDM offset (VK_EXT_fragment_density_map_offset; tr_density_map.offsets):
 *   - Honoured when the density map and every attachment were created with
 *     TR_IMAGE_FDM_OFFSET; otherwise the offsets are ignored, as if (0, 0)
 *     (Vulkan makes the flag a requirement; here its absence is a rule).
 *   - The grid gets one more column and row.  View v's bins move back by
 *     b_o = tr_fdm_bin_offset(offset[v], bin) (tu_bin_offset): bin (i, j)
 *     covers [b_cs - b_o, b_cs + bin - b_o), the first column and row
 *     start at the grid's origin and only shrink; b_s = max(origin,
 *     b_cs - b_o), o = b_cs - b_s / f (tu_fdm_per_bin_offset).
 *   - Binning uses each view's shifted bins (turnip bins with the
 *     viewport moved by +b_o), so the visibility streams match them.
 *   - The density map is sampled at ((x1 + x2) / 2 - (offset + b_o)) for
 *     the unshifted bin [x1, x2 = x1 + bin) (x2 not cut to the
 *     framebuffer; the texel index clamped to the map); areas are
 *     clamped to 8, then to 4 (tu_calc_frag_area).
 *   - A shared viewport (TR_PASS_FDM_SHARED_VIEWPORT, or a draw whose
 *     pipeline writes the viewport index) cannot move bins per view: b_o
 *     is 0 and only the sampling position moves by the offset.  A draw
 *     that makes the pass share its viewport after others were binned in
 *     shifted bins has them binned again.
 *   - A bin at 1 x 1 is drawn in framebuffer space (its rendering space
 *     is the framebuffer moved by the integer o); scaled bins as above.
 *   - LRZ is off in the first column and row (turnip: their LRZ offset
 *     o' is not representable).
 *
 * Bin merging (a7xx: a device with bin masks, TR_DEVICE_A740; off with
 * TR_CONTEXT_NO_BIN_MERGING), turnip's tu_merge_tiles / try_merge_tiles:
 *   - Under FDM the VSC pipes are 4 x 8 bins (when that needs at most 32
 *     pipes).  Within each pipe, bins row-major, each tile tries to absorb
 *     its left neighbour, then its upper one (unless that one was merged
 *     into its right neighbour).  A merge needs: the same fragment area in
 *     every view visible in both; the same column and width, or the same
 *     row and height; the same GMEM height; the combined slot mask,
 *     shifted down to its first slot, within 16 bits (no absolute bin
 *     mask on an a740); and per visible view an extent in bins at most the
 *     area, per axis.  When view 0 alone is visible (of several views, no
 *     shared viewport) the height budget is multiplied by the view count
 *     and the tile uses the other views' GMEM.
 *   - A merged tile is rendered once, as one bin whose b_cs is its
 *     top-left bin's, drawing every triangle any of its bins' streams
 *     holds.  Its store writes only the bins where the view is visible
 *     (turnip would also write the merged-in bins of density 0; here
 *     density 0 keeps the image's pixels with and without merging). */
#ifndef TILERAST_FDM_H
#define TILERAST_FDM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "geometry.h"
#include "image.h"
#include "pipeline.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The density map of a render pass.  image NULL: no FDM.  Otherwise an
 * R8G8_UNORM image (level 0 is read): with multiview, view i reads layer
 * base_layer + i, or layer base_layer for every view when the image has a
 * single layer.  It may be any size; its texels cover the framebuffer as
 * turnip's rule says (tr_compute_fdm_areas).  It cannot be an attachment or
 * a bound texture of the same pass. */
typedef struct tr_density_map {
    tr_image *image;
    uint32_t base_layer;
    /* VK_EXT_fragment_density_map_offset ("FDM offset" above):
     * offsets[i] is the offset of layer (view) i, in framebuffer pixels,
     * each axis a multiple of TR_FDM_OFFSET_GRANULARITY within
     * +-TR_FDM_MAX_OFFSET.  offset_count 0: no offsets; otherwise it must
     * be the pass's layer count (its highest view + 1; 1 without
     * multiview).  Honoured only when the density map and every
     * attachment were created with TR_IMAGE_FDM_OFFSET; ignored (as (0, 0))
     * otherwise. */
    uint32_t offset_count;
    tr_offset2d offsets[TR_MAX_VIEWS];
} tr_density_map;

/* The largest fragment area per axis: the hardware's viewport-scaling
 * limit (turnip clamps to 4 for every view count up to 6). */
#define TR_FDM_MAX_FRAGMENT_AREA 4u
/* With an FDM offset, areas are first clamped to this
 * (TU_FDM_OFFSET_GRANULARITY), then to TR_FDM_MAX_FRAGMENT_AREA.  It is
 * also the offsets' granularity (fragmentDensityOffsetGranularity): each
 * offset is a multiple of it, so that every shifted bin starts on a
 * multiple of its fragment area. */
#define TR_FDM_OFFSET_GRANULARITY 8u
/* The largest offset per axis, either sign (TR_MAX_IMAGE_SIZE). */
#define TR_FDM_MAX_OFFSET 16384

/* The fragment area turnip gives a bin for a raw area (1 / density per
 * axis, as floats):
 *   1. not finite (a density of 0, or NaN): {0, 0}, "invisible";
 *   2. w = floor(area_x), h = floor(area_y); then +1 on the axis with the
 *      larger fractional part (y when they tie), kept only if the new
 *      w * h <= area_x * area_y;
 *   3. each axis rounded down to a power of two (an axis below 1 is 1);
 *   4. with fdm_offset, clamped to 8; then clamped to 4;
 *   5. halved until it divides the bin's width (height).
 * Pure: no context. */
TR_API tr_extent2d tr_fdm_fragment_area(float area_x, float area_y, tr_extent2d bin, bool fdm_offset);

/* ---- FDM offset ------------------------------------------------------
 *
 * The bin offset b_o of a view whose density map is offset by fdm_offset
 * (tu_bin_offset): per axis the Euclidean remainder of -offset by the bin
 * size, in [0, bin): the bin grid moves the other way from the map, and
 * wraps to the next bin once the offset reaches a whole bin.  A bin
 * extent of 0 on an axis gives 0 there.  Pure: no context. */
TR_API tr_offset2d tr_fdm_bin_offset(tr_offset2d fdm_offset, tr_extent2d bin);

/* One bin of one view, as tr_fdm_bin_transform takes it.  The grid starts
 * at framebuffer (0, 0); with an FDM offset it has one more column and row
 * than the framebuffer needs. */
typedef struct tr_fdm_bin_desc {
    uint32_t bin_x, bin_y;       /* the bin's column and row in the grid */
    tr_extent2d bin;             /* tile0: the size of every bin (GMEM extent at area 1) */
    tr_extent2d framebuffer;     /* the framebuffer's size */
    tr_extent2d frag_area;       /* f: the bin's fragment area for the view, 1, 2 or 4 per axis,
                                    dividing bin and bin_offset (tr_fdm_fragment_area) */
    tr_offset2d bin_offset;      /* b_o (tr_fdm_bin_offset), each axis in [0, bin); (0, 0)
                                    without an offset */
    tr_viewport viewport;        /* a draw's viewport, framebuffer space */
    tr_rect scissor;             /* a draw's scissor, framebuffer space */
} tr_fdm_bin_desc;

/* The bin in framebuffer and rendering space, and the draw's state patched
 * for it (seed 000's symbols; x' = x / f + o maps framebuffer to rendering
 * space, per axis). */
typedef struct tr_fdm_bin_transform_result {
    tr_offset2d b_cs;            /* common bin start: (bin_x * bin.width, bin_y * bin.height), the
                                    rendering-space position of GMEM pixel (0, 0) for every view */
    tr_offset2d b_s;             /* the bin's start in framebuffer space: max(0, b_cs - b_o); the
                                    first column and row only shrink */
    tr_rect framebuffer_rect;    /* the framebuffer pixels the bin holds: [b_s, b_cs + bin - b_o)
                                    cut to the framebuffer; width or height 0 when it lies past it
                                    (the extra column or row with a zero offset) */
    tr_offset2d o;               /* b_cs - b_s / f (exact: b_s is a multiple of f) */
    tr_rect rendering_bin;       /* [b_cs, b_cs + (b_cs + bin - b_o - b_s) / f): the bin in
                                    rendering space, before the cut to the framebuffer */
    tr_viewport viewport;        /* x' = x / f + o, width / f, likewise y; depth unchanged */
    tr_rect scissor;             /* [floor(x / f) + o, ceil((x + width) / f) + o) likewise y,
                                    intersected with rendering_bin; width or height 0 if empty */
} tr_fdm_bin_transform_result;

/* Computes the transform of one bin and view (tu_fdm_per_bin_offset and the
 * viewport and scissor patching of fdm_apply_viewports / fdm_apply_scissors
 * in turnip).  TR_ERROR_INVALID_ARGUMENT for NULL pointers;
 * TR_ERROR_INVALID_DESCRIPTOR when an extent is 0, a fragment area is not
 * 1, 2 or 4 or does not divide the bin, b_o is outside [0, bin) or not a
 * multiple of the area, the viewport is not finite, or the scissor is
 * negative; TR_ERROR_OUT_OF_RANGE when the bin lies past the grid's extra
 * column or row.  Pure: no context. */
TR_API tr_result tr_fdm_bin_transform(const tr_fdm_bin_desc *desc, tr_fdm_bin_transform_result *out);

struct tr_render_pass_desc;

/* The fragment areas a pass with this descriptor would use, from the
 * density map's current contents (like tr_compute_bin_layout, nothing is
 * recorded): areas[(by * bins_x + bx) * views + v] for bin (bx, by) of the
 * layout tr_compute_bin_layout gives and view slot v (the v-th set bit of
 * view_mask, or 0), after the shared-viewport rule (TR_PASS_FDM_SHARED_
 * VIEWPORT: every view gets the per-axis minimum over the views).  {0, 0}
 * marks a view invisible in that bin (a density of 0 there).  count is the
 * number of elements areas holds: at least bins_x * bins_y * views
 * (TR_ERROR_OUT_OF_RANGE otherwise, with the number needed in the
 * message).  TR_ERROR_INVALID_DESCRIPTOR when desc has no density map.
 *
 * Per bin and view (REFERENCE.md section 2, turnip's tu_calc_frag_area and
 * tu_fragment_density_map_sample):
 *   - one sample at the bin centre, ((x1 + min(x2, fb_w)) / 2, likewise
 *     for y) in integers, x1 and x2 the bin's edges in framebuffer pixels;
 *   - the map's texels cover 2^ceil(log2(ceil(fb_w / map_w))) pixels per
 *     axis (the division rounds up first), clamped to [32, 1024]; the
 *     texel read is (x >> log2 size, y >> log2 size), clamped to the map;
 *   - density = byte / 255 (float), raw area = 1 / density per axis, then
 *     tr_fdm_fragment_area with the layout's bin size. */
TR_API tr_result tr_compute_fdm_areas(tr_context *ctx, const struct tr_render_pass_desc *desc,
                                      tr_extent2d *areas, size_t count);

/* The bin offset b_o (tr_fdm_bin_offset) of each view slot of a pass with
 * this descriptor: bin_offsets[v]; (0, 0) when the pass does not honour
 * offsets or shares one viewport (TR_PASS_FDM_SHARED_VIEWPORT).  count is
 * the number of elements bin_offsets holds, at least the views
 * (TR_ERROR_OUT_OF_RANGE otherwise). */
TR_API tr_result tr_compute_fdm_bin_offsets(tr_context *ctx, const struct tr_render_pass_desc *desc,
                                            tr_offset2d *bin_offsets, size_t count);

/* One tile of an FDM pass: the bins rendered as one.  Without bin merging
 * (a device without it, or TR_CONTEXT_NO_BIN_MERGING) every bin with a
 * visible view is a tile of 1 x 1 bins. */
typedef struct tr_fdm_tile {
    uint32_t bin_x, bin_y;     /* its top-left bin */
    uint32_t bins_w, bins_h;   /* the bins it covers (turnip's sysmem_extent) */
    uint32_t gmem_bins_h;      /* GMEM height in bins (gmem_extent): above 1 only when view 0 alone
                                  is visible and uses the GMEM of the other views */
    uint32_t visible_views;    /* bit v: view slot v is rendered */
    tr_extent2d area[TR_MAX_VIEWS]; /* per view slot; {0, 0} where invisible */
} tr_fdm_tile;

/* The tiles a pass with this descriptor renders, in row-major order of
 * their last bin: *count of them, written to tiles[0..capacity) (tiles
 * may be NULL to learn the count; TR_ERROR_OUT_OF_RANGE, with *count set,
 * when more than capacity).  Merging follows "Bin merging" above. */
TR_API tr_result tr_compute_fdm_tiles(tr_context *ctx, const struct tr_render_pass_desc *desc, tr_fdm_tile *tiles,
                                      size_t capacity, size_t *count);

/* A debugging picture of a pass's fragment areas, as a PNG: `image`
 * (level 0, layer `layer`, as tr_image_read_rgba8 converts it; it must be
 * the framebuffer's size) with the bin grid drawn over it and each bin
 * tinted by its fragment area in view slot `view_slot` (1x1 none; 2x1 and
 * 1x2 blue, 2x2 green, 4x1 and 1x4 cyan, 4x2 and 2x4 yellow, 4x4 red), the
 * area written in the bin's corner; invisible bins are hatched magenta;
 * with an FDM offset the view's bins are drawn shifted, and merged tiles
 * get a yellow frame.  The areas, offsets and tiles are those
 * tr_compute_fdm_areas, tr_compute_fdm_bin_offsets and tr_compute_fdm_tiles
 * give for desc.
 * Below the image, a legend on black, in a 3x5-pixel font scaled by
 * s = max(1, min(4, width / 256)): one entry per area the view's bins have,
 * fewest pixels per fragment first, then invisible bins and merged tiles,
 * each a 7s-square swatch (the tint; for 1x1 a frame in the grid's colour;
 * hatched for invisible; a yellow frame for merged tiles) and a label such
 * as "2x2: 12 bins", "0x0: 3 bins" or "merged: 2 tiles".  Entries are laid
 * out left to right in rows 9s tall (the first swatch at (2s, height + 2s),
 * each label 9s right of its swatch and s lower, 6s between entries), so
 * the PNG is the framebuffer's width (wider only when one entry would not
 * fit) and height + 2s + 9s * rows tall. */
TR_API tr_result tr_fdm_write_png(tr_context *ctx, const struct tr_render_pass_desc *desc, uint32_t view_slot,
                                  const tr_image *image, uint32_t layer, const char *path);

#ifdef __cplusplus
}
#endif
#endif
