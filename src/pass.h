/* tilerast: the executor's state of the render pass being recorded.
 * Consumes tr_cmd_* calls; holds the pass plan (pass_plan.h), the bound
 * dynamic state, the recording (record.h: draws, set-up triangles and the
 * per-(view, pipe) visibility streams) and the front end's slots, which the
 * tile pass (pass_tile.c) renders bin by bin.  Only the executor's files
 * include this header: the stages get the plan and the recording. */
#ifndef TILERAST_PASS_H
#define TILERAST_PASS_H

#include "internal.h"
#include "lrz/lrz_internal.h"
#include "pass_plan.h"
#include "record.h"

/* Counters the set-up half of the front end keeps (merged in order). */
typedef struct setup_counts {
    uint64_t in, culled, nonfinite, clipped;
} setup_counts;

/* The parallel front end (pass_front.c): chunks of TR_FRONT_CHUNK primitives are
 * shaded, clipped and set up in parallel, one slot per chunk of a wave. */
#define TR_FRONT_CHUNK 256u
#define TR_FRONT_PIECES 8u /* triangles clipping can make of one (TR_CLIP_MAX_VERTS - 2) */
/* The set-up triangles a slot holds: a piece per primitive, a quarter more,
 * and one primitive's worst case. */
#define TR_FRONT_SLOT_TRIS (TR_FRONT_CHUNK + TR_FRONT_CHUNK / 4 + TR_FRONT_PIECES)

struct tr__front_slot {
    tr__arena arena;          /* this slot's triangles, for the whole pass */
    tr__tri *tris[TR_FRONT_SLOT_TRIS];
    uint32_t count;
    /* their stream entries (tr__bin_classify), one after the other;
     * UINT32_MAX: did not fit, classified again while binning */
    uint32_t bin_words[TR_FRONT_SLOT_TRIS];
    uint8_t lrz_cand[TR_FRONT_SLOT_TRIS];
    uint32_t tri_index[TR_FRONT_SLOT_TRIS]; /* in p->tris, once binned */
    uint32_t pipe_entries[TR_MAX_VSC_PIPES]; /* stream entries per pipe in bins */
    uint32_t deferred;        /* triangles whose entries did not fit */
    /* With several threads: the entries again, pipe by pipe (each pipe's
     * in triangle order from pipe_off[pipe]), the triangle's place in this
     * slot in the first word; and how many of the slot's triangles reach a
     * bin, and the first index in p->tris they get. */
    uint32_t *sorted;
    size_t sorted_cap;
    uint32_t pipe_off[TR_MAX_VSC_PIPES + 1];
    uint32_t binned;
    size_t tri_base;
    uint32_t *bins;
    size_t bins_cap, bins_used;
    setup_counts counts;
    uint32_t stop;            /* the first primitive of the chunk phase A left undone */
    float *vtx;               /* shaded vertices, clip and flat scratch */
    size_t vtx_cap;
    bool oom;
};
typedef struct tr__front_slot tr__front_slot;

struct tr__pass {
    tr__pass_plan plan;        /* what the descriptor decided (pass_plan.h) */

    /* current dynamic state */
    tr_pipeline *pipeline;
    tr_viewport viewport;
    tr_rect scissor;
    uint32_t stencil_ref[2];
    float blend_constants[4];
    const void *uniforms;
    size_t uniforms_size;
    const void *ubo[TR_MAX_UNIFORM_BUFFERS]; /* tr_cmd_bind_uniform_buffer's copies */
    uint32_t ubo_size[TR_MAX_UNIFORM_BUFFERS];
    tr__vertex_buffer vertex_buffers[TR_MAX_VERTEX_BINDINGS];
    tr__vertex_buffer index_buffer;
    tr_index_type index_type;
    tr_texture_binding textures[TR_MAX_TEXTURES];
    const tr_texture_binding *textures_copy; /* arena copy of textures for draws; NULL after a change */
    tr_feedback_map *feedback[TR_MAX_FEEDBACK_MAPS];
    tr_feedback_map *const *feedback_copy;   /* arena copy of feedback for draws; NULL after a change */
    /* Objects bound in this pass (pipelines, samplers, texture images): their
     * pass-use counters, set while the pass records and cleared when it ends,
     * so that they cannot be changed or destroyed under recorded draws. */
    uint32_t **held;
    size_t held_count, held_cap;

    tr__recording rec;         /* the recorded work (record.h) */

    /* vertex scratch (shaded vertices of one chunk) */
    float *vtx;
    size_t vtx_cap;
    /* the parallel front end: one slot per chunk of a wave (pass_front.c) */
    struct tr__front_slot *slots;
    uint32_t slot_count;

    tr__lrz_pass lrz;          /* low-resolution Z (src/lrz) */

    /* fragment density map (src/fdm) */
    tr_extent2d *fdm_areas;    /* [bin][view slot], made when the pass ends */
    bool fdm_scaled_lrz;       /* scaled bins test LRZ in rendering space (a7xx bin scaling) */
    struct tr__subsampled_tile *ss_tiles; /* [bin]: the subsampled layout, made when the pass ends */
    size_t ss_tiles_cap;
    size_t fdm_areas_cap;

    struct tr__tile *tiles;    /* [bin]: the tiles rendered (src/bin), made when the pass ends */
    size_t tiles_cap;
    uint32_t *tile_list;       /* the tiles to render, by index into tiles */
    size_t tile_list_cap;

    bool failed;               /* a draw ran out of memory: the pass can only be ended */
    tr_result fail_code;
    tr_pass_stats stats;
};

/* ---- shared by the executor's files (pass_record.c, pass_front.c, pass_tile.c) ---- */

#define REQUIRE_PASS(ctx, fn)                                                                      \
    do {                                                                                           \
        if (!(ctx))                                                                                \
            return tr__error(NULL, TR_ERROR_INVALID_ARGUMENT, fn ": ctx is NULL");                 \
        if (!(ctx)->in_pass)                                                                       \
            return tr__error((ctx), TR_ERROR_INVALID_STATE, fn ": no render pass is recording");   \
    } while (0)

/* Milliseconds on a monotonic clock (the stage times of tr_pass_stats). */
double tr__now_ms(void);

/* Marks the recording pass failed (out of memory: it can only be ended)
 * and reports it under `what`. */
tr_result tr__pass_fail(tr_context *ctx, const char *what);

/* The front end of draw `draw_index` (already recorded in p->draws): its
 * prims primitives of each instance and view are shaded, clipped, set up
 * and binned.  Errors are reported under `fn`. */
struct tr__vertex_source;
tr_result tr__front_draw(tr_context *ctx, const char *fn, uint32_t draw_index, const struct tr__vertex_source *src,
                         uint32_t prims, uint32_t instance_count, uint32_t first_instance);

/* A pass whose bins an FDM offset shifts gets a draw that writes the
 * viewport index: one fragment area for every view, so the bins cannot
 * move per view (fdm.h).  Every view's b_o becomes 0 and the triangles
 * recorded so far are binned again in submission order.
 * TR_ERROR_OUT_OF_MEMORY when a stream cannot grow. */
tr_result tr__front_unshift_bins(tr_context *ctx, tr__pass *p);

/* Gives back the bulk of what recording grew (triangle arenas, stream words). */
void tr__pass_release_recording(tr_context *ctx, tr__pass *p);
/* Ends the recording state: releases the objects the pass held. */
void tr__pass_end_state(tr_context *ctx);

/* Frees the per-thread tile buffers and fragment blocks (pass_tile.c). */
void tr__pass_release_workers(tr_context *ctx);

/* Frees everything the pass and the workers hold (context destruction). */
void tr__pass_release(tr_context *ctx);

#endif
