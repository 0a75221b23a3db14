/* tilerast executor: the tile pass.
 *
 * tr_cmd_end_render_pass renders every bin inside a per-thread GMEM tile
 * buffer, bins in parallel with OpenMP: for each view, load (clear or
 * restore), the LRZ write of the bin's triangles, draw the bin's stream in
 * submission order, store (resolve).  The raster stage gets what it needs
 * as a tr__raster_pass (the same for every bin) and a tr__raster_bin (one
 * view of one bin); it never reads the pass. */
#include <math.h>

#ifdef TILERAST_HAVE_OPENMP
#include <omp.h>
#endif

#include "bin/bin_internal.h"
#include "fdm/fdm_internal.h"
#include "fdm/fdm_view.h"
#include "lrz/lrz_internal.h"
#include "pass.h"
#include "raster/raster_internal.h"

static tr_result prepare_workers(tr_context *ctx, uint32_t threads, size_t tile_bytes)
{
    if (ctx->worker_count < threads) {
        tr__worker *w = tr__calloc(ctx, threads * sizeof(tr__worker));
        if (!w)
            return TR_ERROR_OUT_OF_MEMORY;
        if (ctx->workers) {
            memcpy(w, ctx->workers, ctx->worker_count * sizeof(tr__worker));
            tr__free(ctx, ctx->workers);
        }
        ctx->workers = w;
        ctx->worker_count = threads;
    }
    for (uint32_t i = 0; i < threads; i++) {
        tr__worker *w = &ctx->workers[i];
        if (!w->fs && !(w->fs = tr__calloc(ctx, sizeof(tr_fs_block))))
            return TR_ERROR_OUT_OF_MEMORY;
        if (!w->scratch_tri && !(w->scratch_tri = tr__alloc(ctx, tr__tri_bytes(TR_MAX_VARYINGS))))
            return TR_ERROR_OUT_OF_MEMORY;
        if (w->tile_cap < tile_bytes) {
            tr__free(ctx, w->tile);
            w->tile_cap = 0;
            if (!(w->tile = tr__alloc(ctx, tile_bytes)))
                return TR_ERROR_OUT_OF_MEMORY;
            w->tile_cap = tile_bytes;
        }
        memset(&w->stats, 0, sizeof(w->stats));
    }
    return TR_OK;
}

void tr__pass_release_workers(tr_context *ctx)
{
    for (uint32_t i = 0; i < ctx->worker_count; i++) {
        tr__free(ctx, ctx->workers[i].tile);
        tr__free(ctx, ctx->workers[i].fs);
        tr__free(ctx, ctx->workers[i].scratch_tri);
    }
    tr__free(ctx, ctx->workers);
    ctx->workers = NULL;
    ctx->worker_count = 0;
}

/* How many stream entries ahead the tile pass prefetches triangles. */
#define TR_PREFETCH_TRIS 4

/* The cache lines a triangle's rasterization reads first: edges, box,
 * barycentric planes, then the depth and 1/w planes. */
static inline void prefetch_tri(const tr__tri *t)
{
    __builtin_prefetch(t);
    __builtin_prefetch((const char *)t + 64);
    __builtin_prefetch((const char *)t + 128);
}

/* For a small triangle (a box of at most 16x16 pixels in the bin), the
 * GMEM lines of its box rows in every attachment: small triangles land
 * anywhere in a bin much larger than the caches. */
static inline void prefetch_gmem(const tr__raster_bin *rb, const tr__tri *t)
{
    const int32_t x0 = TR_MAX(t->bbox[0], rb->rect[0]), x1 = TR_MIN(t->bbox[2], rb->rect[2]);
    const int32_t y0 = TR_MAX(t->bbox[1], rb->rect[1]), y1 = TR_MIN(t->bbox[3], rb->rect[3]);
    if (x0 >= x1 || y0 >= y1 || x1 - x0 > 16 || y1 - y0 > 16)
        return;
    const tr__raster_pass *p = rb->rp;
    for (uint32_t i = 0; i < p->att_count; i++) {
        const uint32_t cpp = p->att[i].cpp;
        const uint8_t *g = rb->gmem[i] + ((size_t)(y0 - rb->origin[1]) * rb->gmem_pitch + (size_t)(x0 - rb->origin[0])) * cpp;
        const size_t pitch = (size_t)rb->gmem_pitch * cpp, span = (size_t)(x1 - x0 - 1) * cpp;
        for (int32_t y = y0; y < y1; y++, g += pitch) {
            __builtin_prefetch(g, 1);
            if (((uintptr_t)g ^ (uintptr_t)(g + span)) >= 64) /* the row's end in another line */
                __builtin_prefetch(g + span, 1);
        }
    }
}

/* Renders slice `slice` of `slices` of bin b: the bin's rows cut at block
 * rows (multiples of 8, so no 2x2 quad, 8x8 block or LRZ texel straddles
 * two slices), each slice drawing every triangle of the bin that reaches
 * its rows, in submission order.  A pixel's result depends only on the
 * triangles that cover it, in order, so slices change nothing but which
 * thread does the work; per-bin counts are made by the bin's first slice. */
static uint32_t log2_area(uint32_t f)
{
    return f == 4 ? 2u : f == 2 ? 1u : 0u;
}

static void render_bin(tr_context *ctx, const tr__pass *p, const tr__raster_pass *rp, tr__worker *w, uint32_t b,
                       uint32_t slice, uint32_t slices)
{
    const tr_bin_layout *l = &p->layout;
    const uint32_t bx = b % l->bins_x, by = b / l->bins_x;
    int32_t rect[4];
    tr__bin_rect(l, p->area, bx, by, rect);
    if (rect[0] >= rect[2] || rect[1] >= rect[3])
        return;
    bool first = true;
    if (slices > 1) {
        const int32_t top = rect[1] & ~7, rows = (rect[3] - top + 7) / 8;
        const int32_t k0 = rows * (int32_t)slice / (int32_t)slices, k1 = rows * (int32_t)(slice + 1) / (int32_t)slices;
        if (k0 == k1)
            return;
        first = k0 == 0;
        rect[1] = TR_MAX(rect[1], top + 8 * k0);
        rect[3] = TR_MIN(rect[3], top + 8 * k1);
    }
    if (first)
        w->stats.bins++;
    const uint32_t pipe = (by / l->pipe_h) * l->pipes_x + bx / l->pipe_w;
    const uint32_t bit = (by % l->pipe_h) * l->pipe_w + bx % l->pipe_w;
    const size_t view_texels = (size_t)l->bin_w * l->bin_h;
    const int32_t start[2] = {l->origin_x + (int32_t)(bx * l->bin_w), l->origin_y + (int32_t)(by * l->bin_h)};
    for (uint32_t vs = 0; vs < p->view_count; vs++) {
        /* The view's fragment area (fdm.h): {0, 0} renders nothing and
         * leaves the view's pixels as they were. */
        const tr_extent2d area = p->fdm ? p->fdm_areas[(size_t)b * p->view_count + vs] : (tr_extent2d){1, 1};
        if (!area.width) {
            w->stats.fdm_bin_views_invisible += first;
            continue;
        }
        if (p->fdm && first)
            w->stats.fdm_bin_views[log2_area(area.height)][log2_area(area.width)]++;
        const bool scaled = area.width != 1 || area.height != 1;
        tr__raster_bin rb;
        rb.ctx = ctx;
        rb.rp = rp;
        rb.worker = w;
        rb.view_slot = vs;
        memcpy(rb.rect, rect, sizeof rect);
        memcpy(rb.fb_rect, rect, sizeof rect);
        rb.origin[0] = start[0];
        rb.origin[1] = start[1];
        rb.gmem_pitch = l->bin_w;
        rb.frag_w = area.width;
        rb.frag_h = area.height;
        rb.fdm = NULL;
        tr__fdm_view fv;
        if (scaled) {
            /* Rendering space: the bin (this slice of it) at 1 / f, LRZ off
             * (a6xx without hardware bin scaling does the same). */
            tr__fdm_view_make(area, start, l->bin_w, l->bin_h, &fv);
            tr__fdm_rect(&fv, rect, rb.rect);
            rb.rect[2] = TR_MIN(rb.rect[2], fv.bin[2]);
            rb.rect[3] = TR_MIN(rb.rect[3], fv.bin[3]);
            rb.fdm = &fv;
        }
        const bool lrz = !scaled && p->lrz.buf && !p->lrz.invalid;
        rb.lrz = lrz;
        for (uint32_t i = 0; i < p->att_count; i++)
            rb.gmem[i] = w->tile + p->att[i].gmem_offset + (size_t)vs * view_texels * p->att[i].cpp;
        tr__raster_load(&rb);
        const tr__stream *s = &p->streams[(size_t)vs * l->pipes_x * l->pipes_y + pipe];
        /* The LRZ write of the binning pass, for this bin's blocks: every
         * triangle of the bin in submission order, before any is drawn. */
        tr__lrz_bin_write bw = {0.0f, true};
        if (lrz)
            for (size_t e = 0; e < s->count; e += 1 + p->mask_words)
                if (p->lrz_cand[s->words[e]] && ((s->words[e + 1 + (bit >> 5)] >> (bit & 31)) & 1)) {
                    const tr__tri *t = p->tris[s->words[e]];
                    if (!(t->flags & TR__TRI_FB_CULLED))
                        tr__lrz_write_triangle(&p->lrz, &p->draws[t->draw], t, vs, rb.rect, &bw,
                                               &w->stats.lrz_blocks_written);
                }
        /* The bounds are final now: the farthest of them, for rejecting
         * whole triangles in the bin. */
        rb.lrz_far = lrz ? tr__lrz_far_bound(&p->lrz, vs, rb.rect) : 0.0f;
        const size_t step = 1 + p->mask_words, ahead = TR_PREFETCH_TRIS * step;
        uint32_t patched_for = UINT32_MAX; /* the draw `patched` holds */
        tr__draw patched;
        for (size_t e = 0; e < s->count; e += step) {
            /* Triangles were written by the front end long ago: fetch the
             * ones a few entries on while this one is drawn. */
            if (e + 2 * ahead < s->count)
                __builtin_prefetch(&p->tris[s->words[e + 2 * ahead]]);
            if (e + ahead < s->count)
                prefetch_tri(p->tris[s->words[e + ahead]]);
            /* and, half way, the GMEM texels a small one will touch */
            if (!scaled && e + ahead / 2 < s->count)
                prefetch_gmem(&rb, p->tris[s->words[e + ahead / 2]]);
            if (!((s->words[e + 1 + (bit >> 5)] >> (bit & 31)) & 1))
                continue;
            w->stats.bin_primitive_refs += first;
            const tr__tri *t = p->tris[s->words[e]];
            const tr__draw *d = &p->draws[t->draw];
            if (!scaled) {
                if (!(t->flags & TR__TRI_FB_CULLED))
                    tr__raster_triangle(&rb, t, d);
                continue;
            }
            /* A scaled bin view sets the triangle up again in rendering
             * space, with the draw's viewport and scissor patched for it,
             * as the hardware rasterizes what the patched state gives. */
            if (t->draw != patched_for) {
                tr__fdm_patch_draw(&fv, d, &patched);
                patched_for = t->draw;
            }
            if (d->clear_atts)
                tr__raster_triangle(&rb, t, &patched);
            else if (tr__raster_setup_again(&patched, t, w->scratch_tri) == TR__SETUP_OK)
                tr__raster_triangle(&rb, w->scratch_tri, &patched);
        }
        tr__raster_store(&rb);
    }
}

static void report_visibility(const tr__pass *p)
{
    const tr_bin_layout *l = &p->layout;
    for (uint32_t by = 0; by < l->bins_y; by++) {
        for (uint32_t bx = 0; bx < l->bins_x; bx++) {
            uint32_t pipe = (by / l->pipe_h) * l->pipes_x + bx / l->pipe_w;
            uint32_t bit = (by % l->pipe_h) * l->pipe_w + bx % l->pipe_w;
            for (uint32_t vs = 0; vs < p->view_count; vs++) {
                const tr__stream *s = &p->streams[(size_t)vs * l->pipes_x * l->pipes_y + pipe];
                for (size_t e = 0; e < s->count; e += 1 + p->mask_words) {
                    if (!((s->words[e + 1 + (bit >> 5)] >> (bit & 31)) & 1))
                        continue;
                    const tr__tri *t = p->tris[s->words[e]];
                    tr_visibility_entry ve = {p->view_ids[vs], bx, by, pipe, t->draw, t->instance, t->primitive};
                    p->desc.visibility_fn(p->desc.visibility_user, &ve);
                }
            }
        }
    }
}

static void add_stats(tr_pass_stats *dst, const tr_pass_stats *s)
{
    dst->bins += s->bins;
    dst->bin_primitive_refs += s->bin_primitive_refs;
    dst->fragments_rasterized += s->fragments_rasterized;
    dst->fragments_depth_rejected += s->fragments_depth_rejected;
    dst->fragments_stencil_rejected += s->fragments_stencil_rejected;
    dst->fragments_lrz_rejected += s->fragments_lrz_rejected;
    dst->lrz_blocks_tested += s->lrz_blocks_tested;
    dst->lrz_blocks_written += s->lrz_blocks_written;
    dst->lrz_blocks_rejected += s->lrz_blocks_rejected;
    dst->fragments_shaded += s->fragments_shaded;
    dst->fragments_discarded += s->fragments_discarded;
    dst->fragments_written += s->fragments_written;
    dst->gmem_bytes_loaded += s->gmem_bytes_loaded;
    dst->gmem_bytes_cleared += s->gmem_bytes_cleared;
    dst->gmem_bytes_stored += s->gmem_bytes_stored;
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 3; i++)
            dst->fdm_bin_views[j][i] += s->fdm_bin_views[j][i];
    dst->fdm_bin_views_invisible += s->fdm_bin_views_invisible;
    dst->fdm_fragments_shaded_scaled += s->fdm_fragments_shaded_scaled;
    dst->fdm_pixels_shaded_scaled += s->fdm_pixels_shaded_scaled;
    dst->fdm_gmem_bytes_loaded_full += s->fdm_gmem_bytes_loaded_full;
    dst->fdm_gmem_bytes_cleared_full += s->fdm_gmem_bytes_cleared_full;
    dst->fdm_gmem_bytes_stored_full += s->fdm_gmem_bytes_stored_full;
}

tr_result tr_cmd_end_render_pass(tr_context *ctx, tr_pass_stats *stats)
{
    REQUIRE_PASS(ctx, "tr_cmd_end_render_pass");
    tr__pass *p = ctx->pass;
    if (p->failed) {
        tr__lrz_end_pass(p, false);
        tr__pass_release_recording(ctx, p);
        tr__pass_end_state(ctx);
        return tr__error(ctx, p->fail_code, "tr_cmd_end_render_pass: the pass failed while recording; "
                                            "nothing was rendered");
    }
    uint32_t threads = ctx->desc.threads;
    tr_result r = prepare_workers(ctx, threads, p->tile_bytes);
    if (r == TR_OK && p->fdm) {
        /* The density map is read now, as turnip reads it when the
         * command buffer is built (tu_cmd_render_tiles). */
        const size_t n = (size_t)p->layout.bins_x * p->layout.bins_y * p->view_count;
        if (!tr__grow(ctx, (void **)&p->fdm_areas, &p->fdm_areas_cap, n, sizeof(tr_extent2d)))
            r = TR_ERROR_OUT_OF_MEMORY;
        else
            tr__fdm_bin_areas(ctx, p->desc.density_map.image, p->desc.density_map.base_layer, p->view_ids,
                              p->view_count, &p->layout, p->fb_w, p->fb_h,
                              p->fdm_shared_viewport || (p->desc.flags & TR_PASS_FDM_SHARED_VIEWPORT), false,
                              p->fdm_areas);
    }
    if (r != TR_OK) {
        tr__lrz_end_pass(p, false);
        tr__pass_release_recording(ctx, p);
        tr__pass_end_state(ctx);
        return tr__error(ctx, r, "tr_cmd_end_render_pass: out of memory for tile buffers");
    }
    if (p->desc.visibility_fn)
        report_visibility(p);
    const tr_bin_layout *l = &p->layout;
    const int nbins = (int)(l->bins_x * l->bins_y);
    /* With fewer bins than twice the threads, bins are cut into slices of
     * block rows so that every thread has work (and some to balance). */
    const uint32_t slices = threads > 1 ? TR_MAX(1u, TR_MIN((2 * threads + (uint32_t)nbins - 1) / (uint32_t)nbins,
                                                              l->bin_h / 8))
                                        : 1u;
    const int tasks = nbins * (int)slices;
    const tr__raster_pass rp = {p->att, p->att_count, p->color_att, p->desc.color_count, p->depth_att,
                                p->stencil_att, p->view_ids, p->draws, &p->lrz, p->fdm};
    double t0 = tr__now_ms();
#ifdef TILERAST_HAVE_OPENMP
#pragma omp parallel for schedule(dynamic, 1) num_threads((int)threads) if (threads > 1)
    for (int k = 0; k < tasks; k++)
        render_bin(ctx, p, &rp, &ctx->workers[omp_get_thread_num()], (uint32_t)k / slices, (uint32_t)k % slices, slices);
#else
    for (int k = 0; k < tasks; k++)
        render_bin(ctx, p, &rp, &ctx->workers[0], (uint32_t)k / slices, (uint32_t)k % slices, slices);
#endif
    p->stats.ms_render = tr__now_ms() - t0;
    for (uint32_t i = 0; i < threads; i++)
        add_stats(&p->stats, &ctx->workers[i].stats);
    /* Stored images have new texels (LRZ reuse and caches key on this). */
    for (uint32_t i = 0; i < p->att_count; i++)
        if (p->att[i].store == TR_STORE_OP_STORE)
            p->att[i].image->version++;
    tr__lrz_end_pass(p, true);
    p->stats.pipes = 0;
    uint64_t bytes = 0;
    const size_t pipes = (size_t)l->pipes_x * l->pipes_y;
    for (size_t pipe = 0; pipe < pipes; pipe++) {
        bool used = false;
        for (uint32_t v = 0; v < p->view_count; v++) {
            bytes += p->streams[v * pipes + pipe].count * sizeof(uint32_t);
            used |= p->streams[v * pipes + pipe].count != 0;
        }
        p->stats.pipes += used;
    }
    p->stats.visibility_stream_bytes = bytes;
    p->stats.memory_binning_bytes = p->arena.bytes_used + p->draw_count * sizeof(tr__draw) +
                                    p->tri_count * sizeof(tr__tri *);
    for (uint32_t w = 0; w < p->slot_count; w++)
        p->stats.memory_binning_bytes += p->slots[w].arena.bytes_used;
    p->stats.memory_tile_bytes = (uint64_t)threads * p->tile_bytes;
    p->stats.memory_peak_bytes = __atomic_load_n(&ctx->mem_peak, __ATOMIC_RELAXED);
    p->stats.layout = *l;
    if (stats)
        *stats = p->stats;
    tr__pass_end_state(ctx);
    return TR_OK;
}

