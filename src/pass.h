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
#include "tile_plan.h"
#include "record.h"

/* What the tr_cmd_bind_* and tr_cmd_set_* calls have bound: the state the
 * next draw is recorded with (pass_record.c), reset when a pass begins. */
typedef struct tr__bound_state {
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
} tr__bound_state;

struct tr__pass {
    tr__pass_plan plan;        /* what the descriptor decided (pass_plan.h) */

    tr__bound_state bound;     /* the dynamic state the next draw is recorded with */

    tr__recording rec;         /* the recorded work (record.h) */

    struct tr__front *front;   /* the front end's own state (pass_front.c), made by its first draw */

    tr__lrz_pass lrz;          /* low-resolution Z (src/lrz) */

    tr__tile_plan tiles;       /* made when recording ends (tile_plan.h) */

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

/* The front end's state between draws (NULL: none yet): tr__front_reset
 * empties its triangle arenas for a new pass, tr__front_release_arenas
 * gives their memory back, tr__front_arena_bytes counts what they hold
 * (memory_binning_bytes), tr__front_free frees it all. */
typedef struct tr__front tr__front;
void tr__front_reset(tr__front *f);
void tr__front_release_arenas(tr_context *ctx, tr__front *f);
uint64_t tr__front_arena_bytes(const tr__front *f);
void tr__front_free(tr_context *ctx, tr__front *f);

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

/* ---- the tile pass (pass_tile.c) ---- */

/* Makes sure `threads` workers have their tile buffers (tile_bytes each),
 * fragment blocks and scratch triangles, and clears their statistics. */
tr_result tr__tile_workers_prepare(tr_context *ctx, uint32_t threads, size_t tile_bytes);
/* Sizes each worker's rendering-space LRZ (tr__tile_plan.scaled_lrz). */
tr_result tr__tile_workers_reserve_lrz(tr_context *ctx, uint32_t threads, const tr__pass_plan *plan);
/* Adds the workers' statistics into *dst. */
void tr__tile_workers_add_stats(const tr_context *ctx, uint32_t threads, tr_pass_stats *dst);
/* Frees the per-thread tile buffers and fragment blocks. */
void tr__tile_workers_release(tr_context *ctx);
/* Renders every tile of the tile plan on `threads` threads (tiles, or
 * slices of them, in parallel); returns the milliseconds it took. */
double tr__tile_pass_render(tr_context *ctx, const tr__pass_plan *plan, const tr__recording *rec,
                            const tr__lrz_pass *lz, const tr__tile_plan *tp, uint32_t threads);
/* After the tiles: the subsampled attachments' metadata and aprons. */
tr_result tr__tile_pass_subsampled_finish(tr_context *ctx, const tr__pass_plan *plan, const tr__recording *rec,
                                          const tr__tile_plan *tp);

/* Frees everything the pass and the workers hold (context destruction). */
void tr__pass_release(tr_context *ctx);

#endif
