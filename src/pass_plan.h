/* tilerast: the pass plan, everything a render pass descriptor decides.
 * Made once by tr__pass_plan_make (pass_plan.c), which validates the whole
 * descriptor before it fills anything: the framebuffer, the views, the
 * attachments and their places in a GMEM tile, the bin grid and VSC pipes,
 * the density map and its offsets.  Read-only afterwards: the executor
 * holds one per recording pass, the tr_compute_* queries one on the
 * stack, and the stages below get it as a const pointer. */
#ifndef TILERAST_PASS_PLAN_H
#define TILERAST_PASS_PLAN_H

#include "record.h"

typedef struct tr__pass_plan {
    tr_render_pass_desc desc;  /* the descriptor as given (density_map.offsets: the caller's) */
    uint32_t fb_w, fb_h;
    uint32_t samples;          /* of every attachment (multisample.h) */
    int32_t origin_flip;       /* TR_PASS_ORIGIN_LOWER_LEFT: fb_h (image row = fb_h - window y); else 0 */
    int32_t area[4];           /* render area x0, y0, x1, y1 (framebuffer rows) */
    uint32_t view_count;
    uint32_t view_ids[TR__VIEWS_MAX];
    /* attachments in GMEM order: colour 0..n-1, depth, stencil */
    tr__attachment_state att[TR__MAX_ATTACHMENTS];
    uint32_t att_count;
    int color_att[TR_MAX_COLOR_ATTACHMENTS]; /* index into att, or -1 */
    int depth_att, stencil_att;
    tr_bin_layout layout;
    uint32_t mask_words;       /* u32 words of bin bits per visibility stream entry */
    /* The layout's bin and pipe sizes for tr__div_small (base.h): binning
     * finds a coordinate's bin without a division */
    uint64_t bin_w_inv, bin_h_inv, pipe_w_inv, pipe_h_inv;
    size_t tile_bytes;         /* GMEM bytes of one tile (all attachments, all views) */

    /* fragment density map (src/fdm) and subsampled attachments (src/subsample) */
    bool fdm;                  /* the pass has a density map */
    bool fdm_offset;           /* the density map's offsets are honoured (fdm.h) */
    bool subsampled;           /* a colour attachment is TR_IMAGE_SUBSAMPLED */
    tr_offset2d fdm_user_offset[TR__VIEWS_MAX]; /* per view slot: the offset sampling moves by */
    int32_t fdm_bo[TR__VIEWS_MAX][2]; /* per view slot: b_o, the bins' shift; 0 without an
                                  offset and with TR_PASS_FDM_SHARED_VIEWPORT */
} tr__pass_plan;

/* Validates `d` (every rule of renderpass.h, multisample.h, fdm.h and
 * subsample.h, the first broken one reported through ctx) and only then
 * fills *plan: attachments, density map, bin layout and GMEM placement.
 * TR_ERROR_LIMIT_EXCEEDED when the GMEM budget cannot hold the framebuffer
 * in at most 64 x 32 bins per pipe. */
tr_result tr__pass_plan_make(tr_context *ctx, const tr_render_pass_desc *d, tr__pass_plan *plan);

/* The fragment area of every bin and view (fdm_internal.h) of a plan with
 * a density map, with its offsets when it honours them; shared_viewport:
 * one area for every view (a draw writes the viewport index). */
void tr__pass_plan_fdm_areas(const tr_context *ctx, const tr__pass_plan *plan, bool shared_viewport,
                             tr_extent2d *out);

/* A rectangle the user gave while recording, in the framebuffer's rows:
 * with GL's lower-left origin (TR_PASS_ORIGIN_LOWER_LEFT) window rows
 * [y, y + h) are image rows [fb_h - y - h, fb_h - y) (clamped into int32). */
static inline tr_rect tr__plan_rect_to_fb(const tr__pass_plan *plan, tr_rect r)
{
    if (plan->origin_flip) {
        const int64_t y = (int64_t)plan->origin_flip - r.y - (int64_t)r.height;
        r.y = (int32_t)(y < INT32_MIN ? INT32_MIN : y);
    }
    return r;
}

#endif
