/* tilerast FDM stage: one view of one bin at a reduced scale.
 * Consumes: a bin's fragment area (fdm_area.c) and position, a recorded
 * draw, a GMEM tile.  Produces: the framebuffer -> rendering-space
 * transform x' = x / f + o (seed 000, "Coordinate Space Soup"), the draw
 * patched with it (viewport and scissor, as turnip's fdm_apply_viewports
 * and fdm_apply_scissors), rectangles mapped outward (clears, as
 * fdm_apply_gmem_clear_coords), and the scaled load and the upscaling
 * store of an attachment (turnip's load_3d_blit and store_cp_blit with
 * fdm_apply_load_coords / fdm_apply_store_coords). */
#ifndef TILERAST_FDM_VIEW_H
#define TILERAST_FDM_VIEW_H

#include "record.h"

typedef struct tr__fdm_view {
    uint32_t f[2];     /* the fragment area (fx, fy): 1, 2 or 4 each */
    int32_t o[2];      /* x' = x / f + o: o = b_cs - b_s / f */
    int32_t bs[2];     /* b_s: the bin's start in framebuffer space, max(grid origin, b_cs - b_o) */
    int32_t fb[4];     /* the bin in framebuffer space: [b_s, b_cs + bin - b_o), not cut */
    int32_t bin[4];    /* the rendering-space bin: [b_cs, b_cs + (fb width) / f) x ... */
} tr__fdm_view;

/* The transform of one view of the bin whose common start (b_cs, GMEM
 * pixel (0, 0) in rendering space) is bcs and whose size is bin_w x bin_h,
 * for fragment area `area` and bin offset bo (b_o, [0, bin), a multiple of
 * the area; 0 without an FDM offset).  The grid starts at `origin`: the
 * first column and row start there and only shrink (b_s = max(origin,
 * b_cs - b_o)).  origin, bcs and bo are multiples of the area. */
void tr__fdm_view_make(tr_extent2d area, const int32_t bcs[2], const int32_t bo[2], const int32_t origin[2],
                       uint32_t bin_w, uint32_t bin_h, tr__fdm_view *v);

/* A framebuffer rectangle (x0, y0, x1, y1) in rendering space, rounded
 * outward: [floor(x0 / fx) + ox, ceil(x1 / fx) + ox), likewise y; every
 * coarse fragment the rectangle touches.  Coordinates are >= 0. */
void tr__fdm_rect(const tr__fdm_view *v, const int32_t r[4], int32_t out[4]);

/* The draw as this bin view sees it: viewport x' = x * (1/fx) + ox,
 * width / fx, likewise y, depth unchanged; the viewport holds x / fx (float,
 * exact: fx is a power of two) and win_offset o, which set-up adds after
 * the window transform, so that a triangle's coarse vertices are the same
 * wherever its bin lies.  Scissor = the user's (area_scissor) mapped by
 * tr__fdm_rect, cut to the rendering-space bin and to the patched
 * viewport's rectangle (the rule of tr__draw_scissor).  Clear records
 * (clear_atts) get only the scissor. */
void tr__fdm_patch_draw(const tr__fdm_view *v, const tr__draw *d, tr__draw *out);

/* The framebuffer texel a coarse fragment x' loads from: turnip samples
 * the unscaled bin with NEAREST at the coarse centre, u = b_s + (k + 0.5) f
 * for k = x' - b_cs, which is texel b_s + k f + f / 2 (f = 2: the right
 * one of the pair, f = 4: the third), clamped to [0, size). */
static inline uint32_t tr__fdm_load_texel(int32_t x, int32_t bcs, int32_t bs, uint32_t f, uint32_t size)
{
    const int64_t t = (int64_t)bs + (int64_t)(x - bcs) * f + f / 2;
    return t < 0 ? 0u : t >= (int64_t)size ? size - 1 : (uint32_t)t;
}

/* The coarse fragment (rendering space) the store writes to framebuffer
 * pixel x: k = (x - b_s) / f, each coarse fragment replicated f x f. */
static inline int32_t tr__fdm_store_source(int32_t x, int32_t bcs, int32_t bs, uint32_t f)
{
    return bcs + (x - bs) / (int32_t)f;
}

/* Loads (LOAD_OP_LOAD) attachment a of view `layer` into GMEM over the
 * rendering-space rectangle r, and stores it over the framebuffer
 * rectangle fb (upscaling), moved by shift in the image (a subsampled
 * image's tile stored at full size where its layout puts it; 0 otherwise).
 * gmem: the view's slice, GMEM pixel (0, 0) at rendering-space `origin`,
 * `pitch` pixels per row; a multisampled pass's sample `sample` (gmem is
 * that sample's plane). */
void tr__fdm_load(const tr__fdm_view *v, const tr__attachment_state *a, uint32_t layer, uint32_t sample,
                  const int32_t r[4], uint8_t *gmem, const int32_t origin[2], uint32_t pitch);
void tr__fdm_store(const tr__fdm_view *v, const tr__attachment_state *a, uint32_t layer, uint32_t sample,
                   const int32_t fb[4], const uint8_t *gmem, const int32_t origin[2], uint32_t pitch,
                   const int32_t shift[2]);

#endif
