/* tilerast executor: the render pass's lifecycle, in one place.
 *
 * tr_cmd_begin_render_pass makes the pass plan (pass_plan.c), checks the
 * scratch it needs against the memory limit, resets the recording and the
 * dynamic state, and starts LRZ.  The tr_cmd_* calls in between record
 * (pass_record.c, with the front end in pass_front.c).
 * tr_cmd_end_render_pass makes the tile plan (tile_plan.c), renders it
 * (pass_tile.c), finishes the subsampled attachments, LRZ and the
 * statistics, and releases what the pass held.  A pass that cannot render
 * ends through one exit, end_unrendered.  tr__pass_release frees it all
 * when the context goes. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdio.h>
#include <time.h>

#include "pass.h"
#include "raster/raster_internal.h"

double tr__now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* ---- begin ----------------------------------------------------------------------- */

/* The least scratch the pass will need (context.h, memory_limit): a GMEM
 * tile for every thread, the depth attachment's LRZ (tr__lrz_bytes), and per
 * bin a tile and its place in the tile list, per pipe and view a stream. */
static uint64_t pass_scratch_bytes(const tr_context *ctx, const tr__pass_plan *plan)
{
    const tr_bin_layout *l = &plan->layout;
    uint64_t bytes = (uint64_t)ctx->desc.threads * plan->tile_bytes;
    if (plan->depth_att >= 0 && !(ctx->desc.flags & TR_CONTEXT_NO_LRZ))
        bytes += tr__lrz_bytes(plan->fb_w, plan->fb_h, plan->samples, plan->view_count);
    bytes += (uint64_t)l->bins_x * l->bins_y * (sizeof(tr__tile) + sizeof(uint32_t));
    bytes += (uint64_t)l->pipes_x * l->pipes_y * plan->view_count * sizeof(tr__stream);
    return bytes;
}

/* The images the pass writes or reads when it ends are held unchanged
 * while it records (delta 1), and released when it ends (-1). */
static void set_uses(tr__pass *p, int delta)
{
    for (uint32_t i = 0; i < p->plan.att_count; i++) {
        if (!p->plan.att[i].stencil_plane)
            p->plan.att[i].image->pass_uses += (uint32_t)delta;
        if (p->plan.att[i].resolve)
            p->plan.att[i].resolve->pass_uses += (uint32_t)delta;
    }
    if (p->plan.desc.density_map.image) /* read when the pass ends: held unchanged until then */
        p->plan.desc.density_map.image->pass_uses += (uint32_t)delta;
}

/* An empty recording for the plan: a stream per view and pipe. */
static tr_result recording_begin(tr_context *ctx, tr__pass *p)
{
    tr__recording *rec = &p->rec;
    const size_t slots = (size_t)p->plan.view_count * p->plan.layout.pipes_x * p->plan.layout.pipes_y;
    if (slots > rec->stream_slots) {
        tr__stream *s = tr__calloc(ctx, slots * sizeof(tr__stream));
        if (!s)
            return TR_ERROR_OUT_OF_MEMORY;
        if (rec->streams) {
            memcpy(s, rec->streams, rec->stream_slots * sizeof(tr__stream));
            tr__free(ctx, rec->streams);
        }
        rec->streams = s;
        rec->stream_slots = slots;
    }
    for (size_t i = 0; i < rec->stream_slots; i++)
        rec->streams[i].count = 0;
    tr__arena_reset(&rec->arena);
    tr__front_reset(p->front);
    rec->draw_count = 0;
    rec->tri_count = 0;
    rec->fdm_shared_viewport = false;
    memcpy(rec->bo, p->plan.fdm_bo, sizeof rec->bo);
    return TR_OK;
}

/* The bound state at the start of a pass: nothing bound, the render area's
 * viewport and scissor. */
static void bound_state_begin(tr__pass *p)
{
    const int32_t *a = p->plan.area;
    p->bound.pipeline = NULL;
    /* the render area's rectangle (a viewport in the pass's window
     * coordinates, a scissor in the framebuffer's) */
    p->bound.viewport = (tr_viewport){(float)a[0], (float)(p->plan.origin_flip ? p->plan.origin_flip - a[3] : a[1]),
                                (float)(a[2] - a[0]), (float)(a[3] - a[1]), 0.0f, 1.0f};
    p->bound.scissor = (tr_rect){a[0], a[1], (uint32_t)(a[2] - a[0]), (uint32_t)(a[3] - a[1])};
    p->bound.stencil_ref[0] = p->bound.stencil_ref[1] = 0;
    memset(p->bound.blend_constants, 0, sizeof(p->bound.blend_constants));
    p->bound.uniforms = NULL;
    p->bound.uniforms_size = 0;
    memset(p->bound.ubo, 0, sizeof p->bound.ubo);
    memset(p->bound.ubo_size, 0, sizeof p->bound.ubo_size);
    memset(p->bound.textures, 0, sizeof(p->bound.textures));
    p->bound.textures_copy = NULL;
    memset(p->bound.feedback, 0, sizeof(p->bound.feedback));
    p->bound.feedback_copy = NULL;
    p->bound.index_buffer = (tr__vertex_buffer){NULL, 0};
    p->bound.index_type = TR_INDEX_U16;
    p->bound.held_count = 0;
}

tr_result tr_cmd_begin_render_pass(tr_context *ctx, const tr_render_pass_desc *desc)
{
    tr__api_enter(ctx);
    if (!ctx)
        return tr__error(NULL, TR_ERROR_INVALID_ARGUMENT, "tr_cmd_begin_render_pass: ctx is NULL");
    if (!desc)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_cmd_begin_render_pass: desc is NULL");
    if (ctx->in_pass)
        return tr__error(ctx, TR_ERROR_INVALID_STATE, "tr_cmd_begin_render_pass: a render pass is already recording");
    tr__pass *p = ctx->pass;
    tr_result r = tr__pass_plan_make(ctx, desc, &p->plan);
    if (r == TR_OK)
        r = tr__check_bytes(ctx, "tr_cmd_begin_render_pass", "the pass's scratch (tile buffers, LRZ, bin tables)",
                            pass_scratch_bytes(ctx, &p->plan), true);
    if (r != TR_OK)
        return r;
    if (recording_begin(ctx, p) != TR_OK)
        return tr__error(ctx, TR_ERROR_OUT_OF_MEMORY, "tr_cmd_begin_render_pass: out of memory");
    p->failed = false;
    p->fail_code = TR_OK;
    bound_state_begin(p);
    memset(&p->stats, 0, sizeof(p->stats));
    p->stats.layout = p->plan.layout;
    r = tr__lrz_begin_pass(ctx, &p->plan, ctx->kernels->walk, &p->lrz);
    if (r != TR_OK)
        return r;
    set_uses(p, 1);
    __atomic_store_n(&ctx->mem_peak, __atomic_load_n(&ctx->mem_live, __ATOMIC_RELAXED), __ATOMIC_RELAXED);
    ctx->in_pass = true;
    return TR_OK;
}

tr_result tr__pass_fail(tr_context *ctx, const char *what)
{
    ctx->pass->failed = true;
    ctx->pass->fail_code = TR_ERROR_OUT_OF_MEMORY;
    return tr__error(ctx, TR_ERROR_OUT_OF_MEMORY, "%s: out of memory (the pass can only be ended)", what);
}

/* ---- end ------------------------------------------------------------------------- */

static void report_visibility(const tr__pass_plan *plan, const tr__recording *rec)
{
    const tr_bin_layout *l = &plan->layout;
    for (uint32_t by = 0; by < l->bins_y; by++) {
        for (uint32_t bx = 0; bx < l->bins_x; bx++) {
            uint32_t pipe = (by / l->pipe_h) * l->pipes_x + bx / l->pipe_w;
            uint32_t bit = (by % l->pipe_h) * l->pipe_w + bx % l->pipe_w;
            for (uint32_t vs = 0; vs < plan->view_count; vs++) {
                const tr__stream *s = &rec->streams[(size_t)vs * l->pipes_x * l->pipes_y + pipe];
                for (size_t e = 0; e < s->count; e += 1 + plan->mask_words) {
                    if (!((s->words[e + 1 + (bit >> 5)] >> (bit & 31)) & 1))
                        continue;
                    const tr__tri *t = rec->tris[s->words[e]];
                    tr_visibility_entry ve = {plan->view_ids[vs], bx, by, pipe, t->draw, t->instance, t->primitive};
                    plan->desc.visibility_fn(plan->desc.visibility_user, &ve);
                }
            }
        }
    }
}

/* The pass's totals after rendering: pipes used, stream and memory bytes. */
static void pass_totals(const tr_context *ctx, tr__pass *p, uint32_t threads)
{
    const tr_bin_layout *l = &p->plan.layout;
    p->stats.pipes = 0;
    uint64_t bytes = 0;
    const size_t pipes = (size_t)l->pipes_x * l->pipes_y;
    for (size_t pipe = 0; pipe < pipes; pipe++) {
        bool used = false;
        for (uint32_t v = 0; v < p->plan.view_count; v++) {
            bytes += p->rec.streams[v * pipes + pipe].count * sizeof(uint32_t);
            used |= p->rec.streams[v * pipes + pipe].count != 0;
        }
        p->stats.pipes += used;
    }
    p->stats.visibility_stream_bytes = bytes;
    p->stats.memory_binning_bytes = p->rec.arena.bytes_used + p->rec.draw_count * sizeof(tr__draw) +
                                    p->rec.tri_count * sizeof(tr__tri *) + tr__front_arena_bytes(p->front);
    p->stats.memory_tile_bytes = (uint64_t)threads * p->plan.tile_bytes;
    p->stats.memory_peak_bytes = __atomic_load_n(&ctx->mem_peak, __ATOMIC_RELAXED);
    p->stats.layout = *l;
}

/* The one exit of a pass that renders nothing: LRZ keeps nothing, the bulk
 * of the recording is given back, the objects the pass held are released,
 * and the error is reported. */
static tr_result end_unrendered(tr_context *ctx, tr__pass *p, tr_result code, const char *why)
{
    tr__lrz_end_pass(&p->plan, &p->lrz, false, &p->stats);
    tr__pass_release_recording(ctx, p);
    tr__pass_end_state(ctx);
    return tr__error(ctx, code, "tr_cmd_end_render_pass: %s", why);
}

tr_result tr_cmd_end_render_pass(tr_context *ctx, tr_pass_stats *stats)
{
    tr__api_enter(ctx);
    REQUIRE_PASS(ctx, "tr_cmd_end_render_pass");
    tr__pass *p = ctx->pass;
    if (p->failed)
        return end_unrendered(ctx, p, p->fail_code, "the pass failed while recording; nothing was rendered");
    const uint32_t threads = ctx->desc.threads;
    const char *what = "tile buffers";
    tr_result r = tr__tile_workers_prepare(ctx, threads, p->plan.tile_bytes);
    if (r == TR_OK)
        r = tr__tile_plan_make(ctx, &p->plan, &p->rec, &p->lrz, &p->tiles, &p->stats, &what);
    if (r == TR_OK && p->tiles.scaled_lrz)
        r = tr__tile_workers_reserve_lrz(ctx, threads, &p->plan);
    if (r != TR_OK) {
        char why[64];
        snprintf(why, sizeof why, "out of memory for %s", what);
        return end_unrendered(ctx, p, r, why);
    }
    if (p->plan.desc.visibility_fn)
        report_visibility(&p->plan, &p->rec);
    p->stats.ms_render = tr__tile_pass_render(ctx, &p->plan, &p->rec, &p->lrz, &p->tiles, threads);
    const tr_result ss_r = p->plan.subsampled ? tr__tile_pass_subsampled_finish(ctx, &p->plan, &p->rec, &p->tiles)
                                              : TR_OK;
    tr__tile_workers_add_stats(ctx, threads, &p->stats);
    /* Stored images have new texels (LRZ reuse and caches key on this). */
    for (uint32_t i = 0; i < p->plan.att_count; i++) {
        if (p->plan.att[i].store == TR_STORE_OP_STORE)
            p->plan.att[i].image->version++;
        if (p->plan.att[i].resolve)
            p->plan.att[i].resolve->version++;
    }
    tr__lrz_end_pass(&p->plan, &p->lrz, true, &p->stats);
    pass_totals(ctx, p, threads);
    if (stats)
        *stats = p->stats;
    /* a SPIR-V stage that ran past its budget (shader.h) */
    tr_result spv_r = TR_OK;
    for (size_t i = 0; i < p->rec.draw_count && spv_r == TR_OK; i++)
        spv_r = tr__spv_draw_check(ctx, "tr_cmd_end_render_pass", &p->rec.draws[i], 3u);
    tr__pass_end_state(ctx);
    if (spv_r != TR_OK)
        return spv_r;
    if (ss_r != TR_OK) /* the tiles are stored; aprons and metadata could not be */
        return tr__error(ctx, ss_r, "tr_cmd_end_render_pass: out of memory for the subsampled aprons");
    return TR_OK;
}

/* ---- release --------------------------------------------------------------------- */

/* After a failed pass: give back the bulk of what recording grew (the
 * triangle arenas and the visibility streams), so that memory the failure
 * took does not stay held against tr_context_desc.memory_limit. */
void tr__pass_release_recording(tr_context *ctx, tr__pass *p)
{
    tr__arena_release(ctx, &p->rec.arena);
    tr__front_release_arenas(ctx, p->front);
    for (size_t i = 0; i < p->rec.stream_slots; i++) {
        tr__free(ctx, p->rec.streams[i].words);
        p->rec.streams[i] = (tr__stream){NULL, 0, 0};
    }
}

void tr__pass_end_state(tr_context *ctx)
{
    set_uses(ctx->pass, -1);
    for (size_t i = 0; i < ctx->pass->bound.held_count; i++)
        *ctx->pass->bound.held[i] = 0;
    ctx->pass->bound.held_count = 0;
    ctx->in_pass = false;
}

void tr__pass_release(tr_context *ctx)
{
    tr__pass *p = ctx->pass;
    if (p) {
        tr__pass_release_recording(ctx, p); /* arenas and stream words */
        tr__free(ctx, p->rec.streams);
        tr__free(ctx, p->rec.draws);
        tr__free(ctx, p->rec.tris);
        tr__free(ctx, p->rec.lrz_cand);
        tr__front_free(ctx, p->front);
        p->front = NULL;
        tr__tile_plan_free(ctx, &p->tiles);
        tr__free(ctx, p->bound.held);
        tr__free(ctx, p->lrz.part_mask);
        tr__free(ctx, p->lrz.part_bound);
    }
    tr__tile_workers_release(ctx);
}
