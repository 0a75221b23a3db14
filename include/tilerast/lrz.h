/* tilerast: low-resolution Z (LRZ), as Adreno's turnip driver runs it.
 *
 * A depth attachment has an LRZ buffer: one float per 8x8-pixel block of
 * each view (blocks aligned to the framebuffer), holding a conservative
 * bound on every depth value in the block at the end of the pass: the
 * farthest (largest) under a LESS/LEQUAL direction, the nearest under
 * GREATER/GEQUAL.
 *
 * Multisampled passes (multisample.h): a texel covers an 8x8 block of the
 * supersampled footprint, as turnip lays it out: 8x4 pixels at 2 samples,
 * 4x4 at 4 and 4x2 at 8 (the footprint is 1x2, 2x2 and 2x4 samples per
 * pixel).  A triangle writes a texel when it holds the whole area of its
 * pixels (so every sample, whatever the tie rules), with a bound over that
 * area; partly covered texels are not gathered.  The test compares each
 * texel of a block with the triangle's depth range over the texel's area
 * and rejects the covered samples of the texels beyond their bound; there
 * is no per-sample test.  No LRZ write by a draw whose sample mask lacks a
 * sample or that uses alpha to coverage; alpha to coverage with
 * TR_FS_EARLY_TESTS and depth write turns LRZ writes off for the rest of
 * the pass (its dropped samples keep the depth written for them).  Counts
 * in tr_pass_stats are then per texel and per sample.
 *
 * Written by the binning pass.  Each binned triangle of a draw that may
 * write LRZ tightens the bound of every block it covers completely (all 64
 * pixel centres, inside the scissor and render area): under LESS, bound =
 * min(bound, the triangle's largest depth in the block).  The write sees
 * every primitive of the pass before any fragment of the block is drawn, so
 * a fragment can be rejected by an occluder submitted after it.  tilerast
 * performs it per bin, on the bin's thread, from the bin's visibility
 * stream in submission order, just before the bin renders; each block lies
 * in one bin, so this is the same buffer a global pass would write, built in
 * parallel, and it does not depend on the bin size or the thread count.
 *
 * Tested while rendering.  For each (triangle, block) the triangle's
 * smallest depth in the block (under LESS) is compared with the bound: if it
 * is strictly beyond it, the whole block is rejected before any per-pixel
 * work.  Otherwise each fragment's interpolated depth is compared, exactly,
 * before the stencil and depth tests and before shading.  Every bound
 * carries a rounding margin, so LRZ never rejects a fragment whose colour,
 * depth or stencil could reach the image: images are bit-identical with LRZ
 * on and off (the tests check this with every rule below in play).
 *
 * Fragment density maps (fdm.h): bins at 1 x 1 use LRZ as usual.  A bin
 * view rendered at a reduced scale:
 *   - without hardware bin scaling (a6xx: TR_DEVICE_DEFAULT, A630, A660)
 *     neither writes nor tests LRZ (turnip cannot use it there); its
 *     blocks keep their bounds, which stay conservative;
 *   - with it (TR_DEVICE_A740, at most 6 views, no shared viewport; turnip
 *     sets GRAS_BIN_FOVEAT and the LRZ offset o' = b_cs - (b_s + b_o) / f
 *     per view, seed 000) tests LRZ in its scaled space.  tilerast builds
 *     that LRZ from the bin's own triangles as they are drawn (set up again
 *     in rendering space, one texel per 8 x 8 coarse fragments, the same
 *     rules and margins as above), not from the full-scale bounds the
 *     binning pass wrote: those bound the full-scale depths, not the
 *     coarse ones a re-snapped triangle gives, and LRZ must never reject
 *     a fragment the depth test would pass.  It starts from the depth
 *     clear: a pass that loads depth has no LRZ in scaled bins.  Scaled
 *     bins' rejections do not show in tr_image_write_lrz_png.
 *   - With an FDM offset the first bin column and row have no LRZ (o' is
 *     not representable there), and a depth image created with
 *     TR_IMAGE_FDM_OFFSET never reuses the previous pass's LRZ (turnip's
 *     LRZ image of it is shifted by b_o).
 *
 * Direction, per draw with the depth test on (REFERENCE.md section 3):
 *   LESS/LEQUAL -> less, GREATER/GEQUAL -> greater; EQUAL/NEVER -> no LRZ for
 *   the draw; ALWAYS/NOT_EQUAL -> with depth write the buffer becomes
 *   invalid, without it no LRZ for the draw; a direction unlike the buffer's
 *   -> with depth write invalid, without it no LRZ for the draw.  Only
 *   writing draws set the direction.  Invalid lasts until the depth
 *   attachment is cleared by a pass's LOAD_OP_CLEAR.
 * No LRZ test for a draw whose fragment shader has side effects or writes
 * depth (unless TR_FS_EARLY_TESTS), or whose stencil test can write stencil
 * on a failing fragment (fail_op or depth_fail_op other than KEEP).
 * No LRZ write by a draw that can discard or write the sample mask
 * (TR_FS_MAY_DISCARD, TR_FS_WRITES_SAMPLE_MASK), that does not write depth,
 * that has the stencil test on, or that has no LRZ test.
 * No LRZ write for the rest of the pass after a depth-writing draw whose
 * colour writes do not replace every colour attachment completely (blending
 * on, a partial write mask, no fragment shader, or a shader that discards or
 * writes the sample mask with TR_FS_EARLY_TESTS, whose depth is written
 * where its colour is dropped),
 * or a draw whose stencil
 * test can kill fragments or writes stencil on depth failure.
 *
 * Fast clear: a pass that clears the depth attachment marks every group of
 * 16x4 LRZ texels (128x32 pixels) as "still the clear value" with one bit;
 * the first write to a group materialises it.
 *
 * Across passes: a pass that LOADs depth reuses the LRZ left by the previous
 * pass on the same image when the same view (level, base layer, view count)
 * is bound, the direction is still valid and the image has not been changed
 * since (upload, fill, or a pass that rendered to it without LRZ).  Otherwise
 * LRZ is off for that pass.  DONT_CARE loads have no LRZ.
 *
 * LRZ can be turned off per context (TR_CONTEXT_NO_LRZ) or per pass
 * (TR_PASS_NO_LRZ). */
#ifndef TILERAST_LRZ_H
#define TILERAST_LRZ_H

#include <stdint.h>

#include "image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How LRZ ended a pass (tr_pass_stats.lrz_state). */
typedef enum tr_lrz_state {
    TR_LRZ_STATE_OFF = 0,      /* no depth attachment, turned off, or nothing to reuse */
    TR_LRZ_STATE_ON,           /* tested and written; valid for the next pass */
    TR_LRZ_STATE_INVALID       /* a writing draw broke the direction: no test in this pass */
} tr_lrz_state;

typedef enum tr_lrz_direction {
    TR_LRZ_DIRECTION_UNKNOWN = 0,
    TR_LRZ_DIRECTION_LESS,     /* bounds are block maxima */
    TR_LRZ_DIRECTION_GREATER   /* bounds are block minima */
} tr_lrz_direction;

/* Writes a picture of a depth image's LRZ buffer, as the last pass that
 * rendered to it left it, for view `view`.  Each LRZ texel is a square of
 * at most 8x8 pixels (so a multisampled pass's picture shows the
 * supersampled footprint: 2x stretched vertically).
 *   - Left, the bounds: black where a texel still holds the clear value;
 *     the written bounds coloured by rank among themselves (equalised,
 *     blue the nearest ... red the farthest under LESS), since a scene's
 *     depths crowd into a sliver of [0, 1]; groups still fast-cleared
 *     hatched, an invalid buffer striped magenta.
 *   - Right, fragments LRZ rejected per texel: black none, then blue (1)
 *     to red (the most any texel has) on a log scale.
 *   - Below each half, its legend: a black box with the clear value (left)
 *     or 0 (right), a colour bar, and the numbers at its ends (left: the
 *     lowest and highest bound written, and the median between; right: 1
 *     and the most rejections), in a 3x5-pixel font.
 * TR_ERROR_INVALID_STATE if the image has no LRZ buffer yet. */
TR_API tr_result tr_image_write_lrz_png(const tr_image *depth, uint32_t view, const char *path);

#ifdef __cplusplus
}
#endif
#endif
