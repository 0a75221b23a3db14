/* tilerast binning stage.
 * Consumes: the pass's attachments (bytes per pixel), render area, view count
 * and GMEM budget; then each set-up triangle.  Produces: the bin grid and VSC
 * pipes (tr_bin_layout) and, per view and pipe, a visibility stream that lists
 * each triangle touching the pipe with a bit per bin it touches.  The binning
 * pass never draws. */
#ifndef TILERAST_BIN_INTERNAL_H
#define TILERAST_BIN_INTERNAL_H

#include "pass.h"

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
 * reverse) costs 1000 bins more in the search, as in turnip. */
tr_result tr__bin_layout(const tr_context *ctx, const tr__bin_att *att, uint32_t att_count, const int32_t area[4],
                         uint32_t views, bool single_bin, bool fdm, tr_bin_layout *out);

/* Bin rectangle (x0, y0, x1, y1) of bin (bx, by), cut to the render area. */
void tr__bin_rect(const tr_bin_layout *l, const int32_t area[4], uint32_t bx, uint32_t by, int32_t rect[4]);

/* Appends the triangle to the streams of every pipe it touches, with the
 * bins whose pixel centres its edges do not exclude.  Returns the number of
 * stream entries written (0: the triangle reaches no bin), or -1 on
 * allocation failure. */
int tr__bin_triangle(tr_context *ctx, tr__pass *pass, const tr__tri *t, uint32_t tri_index, uint32_t view_slot);

/* The same in two halves, so that the costly one runs on the front end's
 * threads.  tr__bin_classify writes the triangle's entries to out (per
 * pipe: the pipe's index, then mask_words words of bin bits), at most
 * `cap` words, touching nothing shared; it returns the words written, or
 * -1 when they do not fit (then use tr__bin_triangle).  tr__bin_append
 * puts such entries into the view's streams, in the order of the calls:
 * the number of entries, or -1 on allocation failure. */
int tr__bin_classify(const tr__pass *pass, const tr__tri *t, uint32_t *out, uint32_t cap);
int tr__bin_append(tr_context *ctx, tr__pass *pass, uint32_t tri_index, uint32_t view_slot, const uint32_t *words,
                   uint32_t n);

#endif
