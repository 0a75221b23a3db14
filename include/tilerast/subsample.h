/* tilerast: subsampled images (VK_EXT_fragment_density_map's SUBSAMPLED
 * images), as Adreno's turnip lays them out.
 *
 * With a fragment density map (fdm.h) a bin rendered at fragment area f is
 * f times smaller than its part of the framebuffer.  A subsampled image
 * keeps each such bin at its reduced size, somewhere in the image, instead
 * of scaling it back up: "subsampled space".  Where each bin goes is the
 * layout below (turnip's tu_calc_subsampled); a shader that samples the
 * image finds a framebuffer position's texel through per-bin metadata
 * (tu_get_subsampled_coordinates):
 *
 *   bin    = int(uv * header.scale + header.offset)    (bx, by)
 *   uv'    = uv * bins[by * header.bin_stride + bx].scale
 *               + bins[...].offset
 *
 * Neighbouring bins are kept apart so that each can have an apron: a
 * border of TR_SUBSAMPLED_APRON pixels around it, filled after the pass
 * from its neighbours, so that bilinear sampling near a bin edge reads the
 * neighbour's content.
 *
 * This header holds the layout rule as a pure function; the pass that
 * stores into subsampled images, the aprons and sampling through the
 * metadata build on it. */
#ifndef TILERAST_SUBSAMPLE_H
#define TILERAST_SUBSAMPLE_H

#include <stdbool.h>
#include <stdint.h>

#include "geometry.h"
#include "image.h"
#include "result.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Pixels of apron on each side of a subsampled bin (turnip's APRON_SIZE);
 * two bins' rectangles need 2 * TR_SUBSAMPLED_APRON pixels between them
 * on x or on y. */
#define TR_SUBSAMPLED_APRON 2u
/* Above this many bins nothing is subsampled: every bin is stored at its
 * framebuffer position at full size, and the metadata is one identity bin
 * (TU_SUBSAMPLED_MAX_BINS). */
#define TR_SUBSAMPLED_MAX_BINS 512u
/* The most layers (views) a subsampled image's metadata describes
 * (TU_SUBSAMPLED_MAX_LAYERS). */
#define TR_SUBSAMPLED_MAX_LAYERS 6u

/* One view of a pass, as the layout sees it.  The grid starts at
 * framebuffer (0, 0); the image is the framebuffer's size (plus the tile
 * alignment on each axis when fdm_offset is set: turnip pads subsampled
 * images made for FDM offsets by that much). */
typedef struct tr_subsampled_layout_desc {
    tr_extent2d framebuffer;   /* width, height in pixels, 1..TR_MAX_IMAGE_SIZE */
    tr_extent2d bin;           /* tile0: every bin's size (tr_bin_layout.bin_w/h) */
    tr_extent2d tile_align;    /* the device's tile alignment (tr_context_desc.tile_align_w/h): the
                                  step by which a bin is shifted to make room for aprons, when
                                  larger than 2 * TR_SUBSAMPLED_APRON, the alignment of b_o and,
                                  with fdm_offset, the padding.  Not a pass's
                                  tr_bin_layout.tile_align_w, which a cpp-1 attachment (an R8
                                  colour attachment, D32S8's stencil plane) doubles for the bin
                                  search only: turnip reads phys_dev->info->tile_align_w/h */
    uint32_t bins_x, bins_y;   /* the grid (with FDM offsets, including its extra column and row) */
    const tr_extent2d *areas;  /* bins_x * bins_y fragment areas, row-major ({0, 0}: the view is
                                  invisible in that bin; {1, 1}: full scale); a bin shifted
                                  wholly past the framebuffer is invisible whatever its area */
    tr_offset2d bin_offset;    /* b_o (tr_fdm_bin_offset), each axis in [0, bin); (0, 0) without */
    bool fdm_offset;           /* the pass honours FDM offsets (the bins are shifted by b_o, even a
                                  b_o of 0, and the image is padded) */
} tr_subsampled_layout_desc;

/* The metadata header of one layer (tu_subsampled_header):
 * bin = int(uv * scale + offset), row stride bin_stride. */
typedef struct tr_subsampled_header {
    float scale[2];            /* framebuffer size / bin size: uv to bins */
    float offset[2];           /* b_o / bin size: the grid's shift, in bins */
    uint32_t bin_stride;       /* bins per row of the metadata (bins_x; 1 above 512 bins) */
} tr_subsampled_header;

/* One bin of the layout and its metadata (tu_subsampled_bin). */
typedef struct tr_subsampled_bin {
    tr_rect rect;              /* where the bin is stored in the image (pixels): at its reduced size
                                  when subsampled, else at full size; 0 x 0 for an invisible bin */
    bool subsampled;           /* stored at its reduced size (a visible bin whose area is above
                                  1 x 1 and that no apron conflict un-subsampled) */
    bool border;               /* the bin reaches the framebuffer's right or bottom edge: it is
                                  pinned to the image's end there (and may be unaligned) */
    float scale[2];            /* uv' = uv * scale + offset: (1 / f) * image width / padded width; */
    float offset[2];           /* offset = (rect.x - b_s.x / f) / padded width, likewise y, with f
                                  the area if subsampled, else 1 x 1; an invisible bin stores
                                  scale 1, offset 0 */
} tr_subsampled_bin;

/* The layout of one view (turnip's tu_calc_subsampled, per view, and
 * tu_emit_subsampled_metadata):
 *   1. Each visible bin gets its default rectangle for its area f: a bin
 *      reaching the right (bottom) framebuffer edge is pinned to the image
 *      end, end = W (+ tile_align with fdm_offset), start = end -
 *      ceil((W - b_s) / f), and gets the border flag; column (row) 0 starts
 *      at 0 and ends at (bin - b_o) / f; any other starts at
 *      pos * bin - align_down(b_o, tile_align), size bin / f.
 *   2. A FIFO worklist, seeded row-major with the visible bins, resolves
 *      conflicts: two neighbouring bins (left, right, up, down or
 *      diagonal), at least one subsampled, whose rectangles are less than
 *      2 * TR_SUBSAMPLED_APRON pixels apart on both axes.  Checking a bin's
 *      left and right columns, then the rows above and below: the right
 *      (lower) bin, if subsampled, moves right (down) by max(4, tile_align)
 *      when it then still ends inside its own 1 x 1 default rectangle, and
 *      is queued again; otherwise both bins that are subsampled become full
 *      size (their 1 x 1 default rectangle) and are queued again.
 *   3. Above TR_SUBSAMPLED_MAX_BINS bins: nothing is subsampled, every bin
 *      is at its framebuffer rectangle, the header is the identity (scale
 *      1, offset 0, stride 1) and every bin's metadata the identity bin
 *      (scale = image width / padded width, offset 0).
 * bins[by * bins_x + bx] receives each bin.  TR_ERROR_INVALID_ARGUMENT for
 * NULL pointers; TR_ERROR_INVALID_DESCRIPTOR for an extent of 0, a grid
 * that does not cover the framebuffer or is more than one bin larger, an
 * area that is not 0 x 0 or 1, 2, 4 per axis dividing the bin, a b_o
 * outside [0, bin), or a b_o with fdm_offset unset.  Pure: no context. */
TR_API tr_result tr_compute_subsampled_layout(const tr_subsampled_layout_desc *desc, tr_subsampled_header *header,
                                              tr_subsampled_bin *bins);

/* ---- subsampled images (image.h's TR_IMAGE_SUBSAMPLED) -------------------
 *
 * A colour attachment created with TR_IMAGE_SUBSAMPLED, in a pass with a
 * density map over the whole framebuffer (the render area must be all of
 * it), is stored in subsampled space: the pass lays its tiles out as above
 * (every view at once, merged tiles as one; a view of a tile stays
 * subsampled where its area is above 1 x 1 and no conflict undid it; with
 * the context's tile alignment, even where a cpp-1 attachment doubles the
 * pass's tr_bin_layout.tile_align_w), each
 * subsampled tile view is written as rendered at its rectangle, every other
 * as usual, then each layer's metadata is written and the aprons are
 * copied (turnip's tu_calc_subsampled_aprons: for each pair of neighbouring
 * tiles whose rectangles do not touch, 2-pixel strips from each other's
 * edge, scaled by the ratio of their areas, extended at the corners; NEAREST
 * from the same image, clamped to it).  Space no tile uses keeps what the
 * image held.
 *
 * Reading: tr_image_download, tr_image_read_rgba8 and tr_image_write_png
 * give the framebuffer-space picture (each pixel looked up through the
 * metadata at its centre, as a NEAREST sample); tr_image_download_raw the
 * stored texels.  tr_image_upload and tr_image_fill write stored texels and
 * leave the metadata.  Until a pass stores it, a layer's metadata is the
 * identity (one bin, scale 1, offset 0).
 *
 * With FDM offsets (the image made with TR_IMAGE_FDM_OFFSET too), the image
 * stores the context's tile alignment past its right and bottom edges
 * (tr_image_stored_extent): the bins pinned to the end sit up to that far
 * out, and the metadata addresses the stored extent. */

/* What sampling a subsampled image gives against the same pass stored in
 * an ordinary image: NEAREST at pixel centres reads exactly the ordinary
 * texel; LINEAR reads exactly it in full-rate bins (away from their edges)
 * and elsewhere differs, per channel, by at most the largest difference
 * between the ordinary pixel and its ordinary neighbours within
 * TR_SUBSAMPLED_LINEAR_REACH pixels (a coarse texel's neighbour, or an
 * apron texel copied from the next bin's edge), plus one for rounding; and
 * it never reads space outside the bins and their aprons. */
#define TR_SUBSAMPLED_LINEAR_REACH 8u

/* The stored texels of a subresource, as tr_image_download gives any image
 * that is not subsampled: tr_image_stored_extent's texels per row and rows
 * (a subsampled image made with TR_IMAGE_FDM_OFFSET stores the context's
 * tile alignment past each edge, as turnip pads it; any other image its
 * size).  row_pitch 0: tightly packed; the pitch and buffer rules are
 * image.h's "Caller buffers". */
TR_API tr_result tr_image_download_raw(const tr_image *image, const tr_subresource *sub, void *data,
                                       size_t row_pitch);
/* Level 0's stored width and height (see tr_image_download_raw); {0, 0}
 * for NULL. */
TR_API tr_extent2d tr_image_stored_extent(const tr_image *image);

/* The metadata of layer `layer` of a subsampled image: the header, *count
 * bins (bins_x * bins_y of the last pass, or 1), copied into bins when it
 * is not NULL (capacity elements; TR_ERROR_OUT_OF_RANGE when too few).
 * TR_ERROR_INVALID_STATE for an image without TR_IMAGE_SUBSAMPLED. */
TR_API tr_result tr_image_get_subsampled_metadata(const tr_image *image, uint32_t layer,
                                                  tr_subsampled_header *header, tr_subsampled_bin *bins,
                                                  size_t capacity, size_t *count);

/* A debugging picture of layer `layer` of a subsampled image, as a PNG:
 * the stored texels as they lie (converted as tr_image_read_rgba8 converts
 * them; the stored extent, padding included), each bin's rectangle
 * outlined in the colour of the scale f it is stored at (f from its
 * metadata scale; fdm.h's area colours: 1x1 white, 2x1 and 1x2 blue, 2x2
 * green, 4x1 and 1x4 cyan, 4x2 and 2x4 yellow, 4x4 red) and a subsampled
 * bin's apron outlined in magenta, TR_SUBSAMPLED_APRON texels outside it.
 * Bins of merged tiles share a rectangle; the identity metadata (a layer no
 * pass has stored, or above TR_SUBSAMPLED_MAX_BINS bins) is one full-size
 * bin around the image.
 * Below, a legend on black in a 3x5-pixel font scaled by s = max(1, min(4,
 * stored width / 256)): per scale present, fewest pixels first, a 7s-square
 * framed swatch in its colour and "<f>: <n> bins" (the metadata's bins,
 * merged ones each counted); "0x0: <n> bins" for invisible bins (a black
 * swatch: nothing drawn); "apron: 2 px" when a bin is subsampled.  Entries
 * run left to right in rows 9s tall (the first swatch at (2s, stored
 * height + 2s), labels 9s right of their swatch and s lower, 6s between
 * entries), so the PNG is the stored width (wider only when one entry
 * would not fit) by stored height + 2s + 9s * rows.
 * TR_ERROR_INVALID_STATE for an image that is not subsampled. */
TR_API tr_result tr_subsampled_write_png(const tr_image *image, uint32_t layer, const char *path);

#ifdef __cplusplus
}
#endif
#endif
