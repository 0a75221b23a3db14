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

#include "fdm/fdm_internal.h"
#include "pass.h"
#include "raster/raster_internal.h"
#include "tile_plan.h"

tr_result tr__tile_workers_prepare(tr_context *ctx, uint32_t threads, size_t tile_bytes)
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
        for (int k = 0; k < 2; k++)
            if (!w->scratch_piece[k] && !(w->scratch_piece[k] = tr__alloc(ctx, tr__tri_bytes(TR_MAX_VARYINGS))))
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

void tr__tile_workers_release(tr_context *ctx)
{
    for (uint32_t i = 0; i < ctx->worker_count; i++) {
        tr__lrz_scratch_free(ctx, &ctx->workers[i].lrz_scratch);
        tr__free(ctx, ctx->workers[i].tile);
        tr__free(ctx, ctx->workers[i].zblocks);
        tr__free(ctx, ctx->workers[i].zvalid);
        tr__free(ctx, ctx->workers[i].fs);
        tr__free(ctx, ctx->workers[i].scratch_tri);
        tr__free(ctx, ctx->workers[i].scratch_piece[0]);
        tr__free(ctx, ctx->workers[i].scratch_piece[1]);
    }
    tr__free(ctx, ctx->workers);
    ctx->workers = NULL;
    ctx->worker_count = 0;
}

/* How many stream entries ahead the tile pass prefetches triangles. */
#define TR_PREFETCH_TRIS 4

/* The cache lines a triangle's rasterization reads: edges, box and
 * barycentric planes, the depth and 1/w planes, then the first varying's
 * planes (a flat block reads only their first floats).  Triangles are
 * 16-byte aligned in the arena, so the four lines from the one holding the
 * triangle's start (not three lines from the start itself). */
static inline void prefetch_tri(const tr__tri *t)
{
    const char *line = (const char *)((uintptr_t)t & ~(uintptr_t)63);
    __builtin_prefetch(line);
    __builtin_prefetch(line + 64);
    __builtin_prefetch(line + 128);
    __builtin_prefetch(line + 192);
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

/* Does a stream entry (its mask words) reach the tile?  A tile of one bin
 * tests its bin's bit; a merged tile any of its slots (pipes of at most 32
 * bins: one mask word). */
static inline bool entry_reaches(const uint32_t *mask, const tr__tile *t, uint32_t bit)
{
    if (t->ew == 1 && t->eh == 1)
        return (mask[bit >> 5] >> (bit & 31)) & 1;
    return (mask[0] & t->slot_mask) != 0;
}

/* What every task of the tile pass reads: the same for all. */
typedef struct tile_job {
    tr_context *ctx;
    const tr__pass_plan *plan;
    const tr__recording *rec;
    const tr__lrz_pass *lz;
    const tr__tile_plan *tp;
    const tr__raster_pass *rp;
    uint32_t slices;
} tile_job;

/* One view of one tile (this slice of it) as a task draws it. */
typedef struct tile_view {
    const tr__tile *t;
    const tr__bin_view *bv;
    uint32_t bit;              /* a one-bin tile's slot in its pipe */
    bool first;                /* the slice that counts the tile's per-bin statistics */
    tr__raster_bin rb;
    tr__lrz_pass coarse;       /* a scaled bin's LRZ (TR__BIN_LRZ_SCALED) */
    uint32_t patched_for;      /* the draw `patched` holds, or UINT32_MAX */
    tr__draw patched;          /* that draw patched for this view (tr__fdm_patch_draw) */
} tile_view;

/* The draw of a scaled bin view: d patched for it, once per draw. */
static const tr__draw *patched_draw(tile_view *tv, const tr__draw *d, uint32_t draw_index)
{
    if (draw_index != tv->patched_for) {
        tr__fdm_patch_draw(&tv->bv->fv, d, &tv->patched);
        tv->patched_for = draw_index;
    }
    return &tv->patched;
}

/* Stores the bin view: a merged tile stores only the bins where the view
 * is visible (density 0 keeps the image's pixels, with merging as without
 * it), each bin's rows of this slice; subsampled attachments stored
 * reduced take the whole tile at once (its layout rectangle). */
static void store_view(const tile_job *job, tile_view *tv, uint32_t vs)
{
    tr__raster_bin *rb = &tv->rb;
    const tr__tile *t = tv->t;
    if ((t->ew == 1 && t->eh == 1) || !rb->fdm) {
        tr__raster_store(rb);
        return;
    }
    if (rb->ss_rect) {
        rb->store_set = 2;
        tr__raster_store(rb);
        rb->store_set = 1;
    }
    const tr_bin_layout *l = &job->plan->layout;
    const int32_t slice[4] = {rb->fb_rect[0], rb->fb_rect[1], rb->fb_rect[2], rb->fb_rect[3]};
    for (uint32_t by = t->y; by < t->y + t->eh; by++)
        for (uint32_t bx = t->x; bx < t->x + t->ew; bx++) {
            if (!job->tp->fdm_areas[((size_t)by * l->bins_x + bx) * job->plan->view_count + vs].width)
                continue;
            int32_t r[4];
            tr__bin_rect(l, job->plan->area, job->rec->bo[vs], bx, by, r);
            r[0] = TR_MAX(r[0], slice[0]);
            r[1] = TR_MAX(r[1], slice[1]);
            r[2] = TR_MIN(r[2], slice[2]);
            r[3] = TR_MIN(r[3], slice[3]);
            if (r[0] >= r[2] || r[1] >= r[3])
                continue;
            memcpy(rb->fb_rect, r, sizeof r);
            tr__fdm_rect(&tv->bv->fv, r, rb->rect);
            tr__raster_store(rb);
        }
}

/* The block depth ranges of a bin view (tr__raster_bin.zblocks), all
 * unknown: the depth attachment was just loaded or cleared.  None in a
 * scaled view, or when the worker's array cannot grow (then every block is
 * tested fragment by fragment, as without them). */
static void zblocks_begin(tr_context *ctx, tr__worker *w, tr__raster_bin *rb, bool scaled)
{
    rb->zblocks = NULL;
    rb->zvalid = NULL;
    if (scaled || rb->rp->depth_att < 0 || rb->rp->samples > 1)
        return;
    rb->zstride = (uint32_t)((rb->rect[2] - 1) >> 3) - (uint32_t)(rb->origin[0] >> 3) + 1;
    const size_t n = tr__zblock_rows(rb) * rb->zstride;
    if (n > w->zcap) {
        tr__free(ctx, w->zblocks);
        tr__free(ctx, w->zvalid);
        w->zcap = 0;
        w->zblocks = tr__alloc(ctx, n * sizeof(tr__zblock));
        w->zvalid = tr__alloc(ctx, n);
        if (!w->zblocks || !w->zvalid)
            return;
        w->zcap = n;
    }
    rb->zblocks = w->zblocks;
    rb->zvalid = w->zvalid;
    tr__zblocks_invalidate(rb, NULL, 0);
}

/* Begins view slot vs of the tile tile_list[k], slice `slice`: its raster
 * bin from the bin view.  false when the view draws nothing in the slice.
 * Each view's rows are cut at block rows (multiples of 8, so no 2x2 quad,
 * 8x8 block or LRZ texel straddles two slices). */
static bool begin_view(const tile_job *job, tr__worker *w, uint32_t k, uint32_t vs, uint32_t slice, tile_view *tv)
{
    const tr__pass_plan *plan = job->plan;
    const tr_bin_layout *l = &plan->layout;
    const tr__bin_view *bv = tr__tile_plan_view(job->tp, plan, k, vs);
    if (!bv->visible)
        return false;
    tv->t = &job->tp->tiles[job->tp->tile_list[k]];
    tv->bv = bv;
    tv->bit = (tv->t->y % l->pipe_h) * l->pipe_w + tv->t->x % l->pipe_w;
    tv->first = true;
    tv->patched_for = UINT32_MAX;
    int32_t rect[4] = {bv->rect[0], bv->rect[1], bv->rect[2], bv->rect[3]};
    if (job->slices > 1) {
        const int32_t top = rect[1] & ~7, rows = (rect[3] - top + 7) / 8;
        const int32_t k0 = rows * (int32_t)slice / (int32_t)job->slices;
        const int32_t k1 = rows * (int32_t)(slice + 1) / (int32_t)job->slices;
        if (k0 == k1)
            return false;
        tv->first = k0 == 0;
        rect[1] = TR_MAX(rect[1], top + 8 * k0);
        rect[3] = TR_MIN(rect[3], top + 8 * k1);
    }
    tr__raster_bin *rb = &tv->rb;
    rb->ctx = job->ctx;
    rb->rp = job->rp;
    rb->worker = w;
    rb->shade_pipeline = NULL;
    rb->tri_draw = UINT32_MAX;
    rb->view_slot = vs;
    memcpy(rb->rect, rect, sizeof rect);
    memcpy(rb->fb_rect, rect, sizeof rect);
    rb->gmem_pitch = l->bin_w;
    rb->frag_w = bv->area.width;
    rb->frag_h = bv->area.height;
    rb->fdm = NULL;
    /* At 1 x 1 the bin is drawn in framebuffer space: rendering space is
     * then the framebuffer moved by the integer o, and GMEM pixel (0, 0) is
     * b_s. */
    rb->origin[0] = bv->fv.bs[0];
    rb->origin[1] = bv->fv.bs[1];
    if (bv->scaled) {
        /* Rendering space: the tile (this slice of it) at 1 / f; GMEM pixel
         * (0, 0) is b_cs, the tile's top-left bin at full scale, where the
         * rendering-space bin starts. */
        tr__fdm_rect(&bv->fv, rect, rb->rect);
        rb->rect[2] = TR_MIN(rb->rect[2], bv->fv.bin[2]);
        rb->rect[3] = TR_MIN(rb->rect[3], bv->fv.bin[3]);
        rb->origin[0] = bv->fv.bin[0];
        rb->origin[1] = bv->fv.bin[1];
        rb->fdm = &bv->fv;
    }
    rb->ss_rect = bv->ss_rect;
    rb->store_set = 3;
    rb->ss_shift[0] = bv->ss_shift[0];
    rb->ss_shift[1] = bv->ss_shift[1];
    rb->lrz = bv->lrz != TR__BIN_LRZ_OFF;
    rb->lrz_pass = job->lz;
    rb->lrz_view = vs;
    if (bv->lrz == TR__BIN_LRZ_SCALED) {
        tr__lrz_scratch_begin(&w->lrz_scratch, job->lz, rb->rect, &tv->coarse);
        rb->lrz_pass = &tv->coarse;
        rb->lrz_view = 0;
    }
    const size_t view_texels = (size_t)l->bin_w * l->bin_h;
    for (uint32_t i = 0; i < plan->att_count; i++)
        rb->gmem[i] = w->tile + plan->att[i].gmem_offset + (size_t)vs * view_texels * plan->att[i].cpp * plan->samples;
    return true;
}

/* The LRZ write of the binning pass, for this bin view's blocks: every
 * triangle of the bin in submission order, before any is drawn.  Then the
 * farthest bound, for rejecting whole triangles in the bin. */
static void lrz_prepass(const tile_job *job, tr__worker *w, tile_view *tv, const tr__stream *s)
{
    const tr__recording *rec = job->rec;
    tr__raster_bin *rb = &tv->rb;
    const size_t step = 1 + job->plan->mask_words;
    tr__lrz_bin_write bw = {0.0f, true};
    if (tv->bv->lrz == TR__BIN_LRZ_PASS) {
        const size_t ahead = TR_PREFETCH_TRIS * step;
        for (size_t e = 0; e < s->count; e += step) {
            /* candidates are scattered through the front end's chunks */
            if (e + ahead < s->count && rec->lrz_cand[s->words[e + ahead]])
                prefetch_tri(rec->tris[s->words[e + ahead]]);
            if (rec->lrz_cand[s->words[e]] && entry_reaches(&s->words[e + 1], tv->t, tv->bit)) {
                const tr__tri *tri = rec->tris[s->words[e]];
                if (!(tri->flags & TR__TRI_FB_CULLED))
                    tr__lrz_write_triangle(job->lz, &rec->draws[tri->draw], tri, rb->view_slot, rb->rect, &bw,
                                           &w->stats.lrz_blocks_written);
            }
        }
    } else if (tv->bv->lrz == TR__BIN_LRZ_SCALED) {
        /* A scaled bin writes its rendering-space LRZ from the triangles it
         * will draw, set up again as they will be. */
        for (size_t e = 0; e < s->count; e += step) {
            if (!entry_reaches(&s->words[e + 1], tv->t, tv->bit))
                continue;
            const tr__tri *tri = rec->tris[s->words[e]];
            const tr__draw *d = &rec->draws[tri->draw];
            if (d->clear_atts || !d->lrz_write)
                continue;
            const tr__draw *pd = patched_draw(tv, d, tri->draw);
            if (tr__raster_setup_again(pd, tri, w->scratch_tri) == TR__SETUP_OK)
                tr__lrz_write_triangle(&tv->coarse, pd, w->scratch_tri, 0, rb->rect, &bw,
                                       &w->stats.lrz_blocks_written);
        }
    }
    rb->lrz_far = rb->lrz ? tr__lrz_far_bound(rb->lrz_pass, rb->lrz_view, rb->rect) : 0.0f;
    rb->lrz_near = rb->lrz ? tr__lrz_near_bound(rb->lrz_pass, rb->lrz_view, rb->rect) : 0.0f;
}

/* Draws the view's stream: its triangles reaching the tile, in submission
 * order; a scaled view sets each up again in rendering space, with the
 * draw's viewport and scissor patched for it, as the hardware rasterizes
 * what the patched state gives. */
static void draw_stream(const tile_job *job, tr__worker *w, tile_view *tv, const tr__stream *s)
{
    const tr__recording *rec = job->rec;
    const tr__tile *t = tv->t;
    tr__raster_bin *rb = &tv->rb;
    const bool scaled = tv->bv->scaled;
    const size_t step = 1 + job->plan->mask_words, ahead = TR_PREFETCH_TRIS * step;
    for (size_t e = 0; e < s->count; e += step) {
        /* Triangles were written by the front end long ago: fetch the ones
         * a few entries on while this one is drawn. */
        if (e + 2 * ahead < s->count)
            __builtin_prefetch(&rec->tris[s->words[e + 2 * ahead]]);
        if (e + ahead < s->count)
            prefetch_tri(rec->tris[s->words[e + ahead]]);
        /* and, half way, the GMEM texels a small one will touch */
        if (!scaled && e + ahead / 2 < s->count)
            prefetch_gmem(rb, rec->tris[s->words[e + ahead / 2]]);
        if (!entry_reaches(&s->words[e + 1], t, tv->bit))
            continue;
        if (tv->first) /* per bin: each of the tile's bins the entry reaches */
            w->stats.bin_primitive_refs +=
                t->ew == 1 && t->eh == 1 ? 1u : (uint32_t)__builtin_popcount(s->words[e + 1] & t->slot_mask);
        const tr__tri *tri = rec->tris[s->words[e]];
        const tr__draw *d = &rec->draws[tri->draw];
        if (tri->flags & TR__TRI_PROXY) {
            /* a line or point of a pass with a density map: set up again
             * in every bin, with the draw patched when scaled */
            const tr__draw *dd = scaled ? patched_draw(tv, d, tri->draw) : d;
            const int n = tr__raster_setup_prim_again(dd, tri, w->scratch_piece);
            for (int k = 0; k < n; k++)
                tr__raster_triangle(rb, w->scratch_piece[k], dd);
            continue;
        }
        if (!scaled) {
            if (!(tri->flags & TR__TRI_FB_CULLED))
                tr__raster_triangle(rb, tri, d);
            continue;
        }
        const tr__draw *pd = patched_draw(tv, d, tri->draw);
        if (d->clear_atts)
            tr__raster_triangle(rb, tri, pd);
        else if (tr__raster_setup_again(pd, tri, w->scratch_tri) == TR__SETUP_OK)
            tr__raster_triangle(rb, w->scratch_tri, pd);
    }
}

/* Renders slice `slice` of tile tile_list[k], every view it is visible in:
 * begin the view, load (clear or restore), the LRZ pre-pass, draw the
 * stream, store.  A pixel's result depends only on the triangles that
 * cover it, in order, so slices change nothing but which thread does the
 * work. */
static void render_tile(const tile_job *job, tr__worker *w, uint32_t k, uint32_t slice)
{
    const tr_bin_layout *l = &job->plan->layout;
    for (uint32_t vs = 0; vs < job->plan->view_count; vs++) {
        tile_view tv;
        if (!begin_view(job, w, k, vs, slice, &tv))
            continue;
        tr__raster_load(&tv.rb);
        const tr__stream *s = &job->rec->streams[(size_t)vs * l->pipes_x * l->pipes_y + tv.t->pipe];
        lrz_prepass(job, w, &tv, s);
        zblocks_begin(job->ctx, w, &tv.rb, tv.bv->scaled);
        draw_stream(job, w, &tv, s);
        store_view(job, &tv, vs);
    }
}

/* After the tiles: each stored subsampled attachment's metadata per view
 * and its aprons (src/subsample). */
tr_result tr__tile_pass_subsampled_finish(tr_context *ctx, const tr__pass_plan *plan, const tr__recording *rec,
                                          const tr__tile_plan *tp)
{
    const size_t nbins = (size_t)plan->layout.bins_x * plan->layout.bins_y;
    tr__apron_copy *aprons = tr__alloc(ctx, 8 * nbins * sizeof *aprons);
    if (!aprons)
        return TR_ERROR_OUT_OF_MEMORY;
    const tr__subsampled_grid g = tr__tile_plan_grid(ctx, plan, rec);
    for (uint32_t v = 0; v < plan->view_count; v++) {
        const size_t n = tr__subsampled_aprons(&g, tp->tiles, tp->ss_tiles, v, aprons);
        for (uint32_t i = 0; i < plan->att_count; i++) {
            const tr__attachment_state *a = &plan->att[i];
            if (!a->subsampled || a->store != TR_STORE_OP_STORE)
                continue;
            const uint32_t layer = a->base_layer + plan->view_ids[v];
            tr__subsampled_meta *m = &a->image->subsampled[layer];
            tr__subsampled_metadata(&g, tp->tiles, tp->ss_tiles, v, &m->header, m->bins, TR_SUBSAMPLED_MAX_BINS);
            m->bin_count = nbins > TR_SUBSAMPLED_MAX_BINS ? 1u : (uint32_t)nbins;
            tr__subsampled_copy_aprons(a->image, layer, aprons, n);
        }
    }
    tr__free(ctx, aprons);
    return TR_OK;
}

tr_result tr__tile_workers_reserve_lrz(tr_context *ctx, uint32_t threads, const tr__pass_plan *plan)
{
    /* rendering space ends before the last bin's end (views bins further
     * down for a tile that uses every view's GMEM) */
    const tr_bin_layout *l = &plan->layout;
    const uint32_t rw = (uint32_t)l->origin_x + l->bins_x * l->bin_w;
    const uint32_t rh = (uint32_t)l->origin_y + (l->bins_y + plan->view_count) * l->bin_h;
    for (uint32_t i = 0; i < threads; i++)
        if (!tr__lrz_scratch_reserve(ctx, &ctx->workers[i].lrz_scratch, rw, rh, plan->samples))
            return TR_ERROR_OUT_OF_MEMORY;
    return TR_OK;
}

/* Tasks per thread the tile pass is cut into.  Every slice of a tile walks
 * its pipe's whole stream, so slices cost a stream walk each: where a
 * tile's walk is short (a few large triangles: the fill-bound scenes,
 * whose tiles differ most in cost), small slices balance the threads for
 * little; where it is long (many small triangles), two per thread.  A
 * pass with a density map keeps two: a scaled bin's LRZ is rebuilt per
 * slice in rendering space, and its statistics count each slice's. */
#define TR_SLICE_SHORT_WALK 4096u /* stream entries per tile */
static uint32_t tasks_per_thread(const tr__pass_plan *plan, const tr__recording *rec, const tr__tile_plan *tp)
{
    if (plan->fdm)
        return 2;
    const tr_bin_layout *l = &plan->layout;
    const size_t npipes = (size_t)l->pipes_x * l->pipes_y, step = 1 + plan->mask_words;
    uint64_t walk = 0;
    for (uint32_t k = 0; k < tp->tile_count; k++)
        for (uint32_t vs = 0; vs < plan->view_count; vs++)
            walk += rec->streams[(size_t)vs * npipes + tp->tiles[tp->tile_list[k]].pipe].count / step;
    return tp->tile_count && walk / tp->tile_count < TR_SLICE_SHORT_WALK ? 8u : 2u;
}

double tr__tile_pass_render(tr_context *ctx, const tr__pass_plan *plan, const tr__recording *rec,
                            const tr__lrz_pass *lz, const tr__tile_plan *tp, uint32_t threads)
{
    const tr_bin_layout *l = &plan->layout;
    const int ntiles = (int)tp->tile_count;
    /* With fewer tiles than twice the threads, tiles are cut into slices
     * of block rows so that every thread has work (and some to balance). */
    const uint32_t per_thread = tasks_per_thread(plan, rec, tp);
    const uint32_t slices = threads > 1 && ntiles > 0
                                ? TR_MAX(1u, TR_MIN((per_thread * threads + (uint32_t)ntiles - 1) / (uint32_t)ntiles,
                                                    l->bin_h / 8))
                                : 1u;
    const int tasks = ntiles * (int)slices;
    const tr__raster_pass rp = {plan->att,       plan->att_count,   plan->color_att, plan->desc.color_count,
                                plan->depth_att, plan->stencil_att, plan->view_ids,  rec->draws,
                                lz,              plan->fdm,         plan->samples,   (size_t)l->bin_w * l->bin_h};
    const tile_job job = {ctx, plan, rec, lz, tp, &rp, slices};
    const double t0 = tr__now_ms();
#ifdef TILERAST_HAVE_OPENMP
#pragma omp parallel for schedule(dynamic, 1) num_threads((int)threads) if (threads > 1)
    for (int k = 0; k < tasks; k++)
        render_tile(&job, &ctx->workers[omp_get_thread_num()], (uint32_t)(k / (int)slices), (uint32_t)k % slices);
#else
    for (int k = 0; k < tasks; k++)
        render_tile(&job, &ctx->workers[0], (uint32_t)(k / (int)slices), (uint32_t)k % slices);
#endif
    return tr__now_ms() - t0;
}

void tr__tile_workers_add_stats(const tr_context *ctx, uint32_t threads, tr_pass_stats *dst)
{
    for (uint32_t i = 0; i < threads; i++) {
        const tr_pass_stats *s = &ctx->workers[i].stats;
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
        dst->gmem_bytes_resolved += s->gmem_bytes_resolved;
        dst->fdm_fragments_shaded_scaled += s->fdm_fragments_shaded_scaled;
        dst->fdm_pixels_shaded_scaled += s->fdm_pixels_shaded_scaled;
        dst->fdm_gmem_bytes_loaded_full += s->fdm_gmem_bytes_loaded_full;
        dst->fdm_gmem_bytes_cleared_full += s->fdm_gmem_bytes_cleared_full;
        dst->fdm_gmem_bytes_stored_full += s->fdm_gmem_bytes_stored_full;
    }
}
