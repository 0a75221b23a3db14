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
#include "subsample/subsample_internal.h"

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

void tr__pass_release_workers(tr_context *ctx)
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

static uint32_t log2_area(uint32_t f)
{
    return f == 4 ? 2u : f == 2 ? 1u : 0u;
}

/* Stores the bin view: a merged tile stores only the bins where the view
 * is visible (density 0 keeps the image's pixels, with merging as without
 * it), each bin's rows of this slice; subsampled attachments stored
 * reduced take the whole tile at once (its layout rectangle). */
static void store_view(const tr__pass *p, tr__raster_bin *rb, const tr__tile *t, const tr__fdm_view *fv, uint32_t vs)
{
    if ((t->ew == 1 && t->eh == 1) || !rb->fdm) {
        tr__raster_store(rb);
        return;
    }
    if (rb->ss_rect) {
        rb->store_set = 2;
        tr__raster_store(rb);
        rb->store_set = 1;
    }
    const tr_bin_layout *l = &p->plan.layout;
    const int32_t slice[4] = {rb->fb_rect[0], rb->fb_rect[1], rb->fb_rect[2], rb->fb_rect[3]};
    for (uint32_t by = t->y; by < t->y + t->eh; by++)
        for (uint32_t bx = t->x; bx < t->x + t->ew; bx++) {
            if (!p->fdm_areas[((size_t)by * l->bins_x + bx) * p->plan.view_count + vs].width)
                continue;
            int32_t r[4];
            tr__bin_rect(l, p->plan.area, p->rec.bo[vs], bx, by, r);
            r[0] = TR_MAX(r[0], slice[0]);
            r[1] = TR_MAX(r[1], slice[1]);
            r[2] = TR_MIN(r[2], slice[2]);
            r[3] = TR_MIN(r[3], slice[3]);
            if (r[0] >= r[2] || r[1] >= r[3])
                continue;
            memcpy(rb->fb_rect, r, sizeof r);
            tr__fdm_rect(fv, r, rb->rect);
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

/* Renders slice `slice` of `slices` of tile ti, every view it is visible
 * in: load, the LRZ write of its triangles, its triangles in submission
 * order, store.  Each view's rows are cut at block rows (multiples of 8,
 * so no 2x2 quad, 8x8 block or LRZ texel straddles two slices), each slice
 * drawing every triangle of the tile that reaches its rows.  A pixel's
 * result depends only on the triangles that cover it, in order, so slices
 * change nothing but which thread does the work. */
static void render_tile(tr_context *ctx, const tr__pass *p, const tr__raster_pass *rp, tr__worker *w, uint32_t ti,
                        uint32_t slice, uint32_t slices)
{
    const tr_bin_layout *l = &p->plan.layout;
    const tr__tile *t = &p->tiles[ti];
    const uint32_t bit = (t->y % l->pipe_h) * l->pipe_w + t->x % l->pipe_w; /* a one-bin tile's slot */
    const size_t view_texels = (size_t)l->bin_w * l->bin_h;
    /* b_cs: the tile's top-left bin at full scale, GMEM pixel (0, 0) */
    const int32_t bcs[2] = {l->origin_x + (int32_t)(t->x * l->bin_w), l->origin_y + (int32_t)(t->y * l->bin_h)};
    const int32_t grid_origin[2] = {l->origin_x, l->origin_y};
    for (uint32_t vs = 0; vs < p->plan.view_count; vs++) {
        /* A view invisible in the tile (density 0, or its shifted bins
         * outside the render area) renders nothing and leaves its pixels. */
        if (!(t->visible & (1u << vs)))
            continue;
        const tr_extent2d area = t->area[vs];
        /* The view's transform (b_s, o; fdm_view.h) and its part of the
         * framebuffer: with an FDM offset the view's bins are shifted back
         * by its b_o, the first row and column shrink. */
        tr__fdm_view fv;
        tr__fdm_view_make(area, bcs, p->rec.bo[vs], grid_origin, l->bin_w * t->ew, l->bin_h * t->eh, &fv);
        int32_t rect[4] = {TR_MAX(fv.fb[0], p->plan.area[0]), TR_MAX(fv.fb[1], p->plan.area[1]), TR_MIN(fv.fb[2], p->plan.area[2]),
                           TR_MIN(fv.fb[3], p->plan.area[3])};
        if (rect[0] >= rect[2] || rect[1] >= rect[3])
            continue;
        bool first = true; /* the slice that counts the tile's per-bin statistics */
        if (slices > 1) {
            const int32_t top = rect[1] & ~7, rows = (rect[3] - top + 7) / 8;
            const int32_t k0 = rows * (int32_t)slice / (int32_t)slices, k1 = rows * (int32_t)(slice + 1) / (int32_t)slices;
            if (k0 == k1)
                continue;
            first = k0 == 0;
            rect[1] = TR_MAX(rect[1], top + 8 * k0);
            rect[3] = TR_MIN(rect[3], top + 8 * k1);
        }
        const bool scaled = area.width != 1 || area.height != 1;
        tr__raster_bin rb;
        rb.ctx = ctx;
        rb.rp = rp;
        rb.worker = w;
        rb.view_slot = vs;
        memcpy(rb.rect, rect, sizeof rect);
        memcpy(rb.fb_rect, rect, sizeof rect);
        rb.gmem_pitch = l->bin_w;
        rb.frag_w = area.width;
        rb.frag_h = area.height;
        rb.fdm = NULL;
        /* At 1 x 1 the bin is drawn in framebuffer space: rendering space
         * is then the framebuffer moved by the integer o, and GMEM pixel
         * (0, 0) is b_s. */
        rb.origin[0] = fv.bs[0];
        rb.origin[1] = fv.bs[1];
        if (scaled) {
            /* Rendering space: the tile (this slice of it) at 1 / f. */
            tr__fdm_rect(&fv, rect, rb.rect);
            rb.rect[2] = TR_MIN(rb.rect[2], fv.bin[2]);
            rb.rect[3] = TR_MIN(rb.rect[3], fv.bin[3]);
            rb.origin[0] = bcs[0];
            rb.origin[1] = bcs[1];
            rb.fdm = &fv;
        }
        /* a subsampled attachment stores this view reduced where the
         * layout keeps it so (src/subsample) */
        rb.ss_rect = NULL;
        rb.store_set = 3;
        rb.ss_shift[0] = rb.ss_shift[1] = 0;
        if (p->plan.subsampled && p->ss_tiles[ti].subsampled) {
            const tr__subsampled_tile *st = &p->ss_tiles[ti];
            if (scaled && (st->views & (1u << vs)))
                rb.ss_rect = &st->rect[vs];
            /* at full size: the layout's rectangle, which with an FDM
             * offset need not be the framebuffer's place */
            rb.ss_shift[0] = st->rect[vs].x - fv.bs[0];
            rb.ss_shift[1] = st->rect[vs].y - fv.bs[1];
        }
        /* LRZ (fdm.h): a scaled bin has it only with hardware bin scaling
         * (a7xx), then in rendering space (tr__lrz_scratch); with an FDM
         * offset the first row and column have none (turnip: their LRZ
         * offset o' is not representable). */
        const bool lrz_edge = p->plan.fdm_offset && (t->x == 0 || t->y == 0);
        const bool lrz = (!scaled || p->fdm_scaled_lrz) && !lrz_edge && p->lrz.buf && !p->lrz.invalid;
        rb.lrz = lrz;
        rb.lrz_pass = &p->lrz;
        rb.lrz_view = vs;
        tr__lrz_pass coarse;
        if (lrz && scaled) {
            tr__lrz_scratch_begin(&w->lrz_scratch, &p->lrz, rb.rect, &coarse);
            rb.lrz_pass = &coarse;
            rb.lrz_view = 0;
        }
        for (uint32_t i = 0; i < p->plan.att_count; i++)
            rb.gmem[i] = w->tile + p->plan.att[i].gmem_offset + (size_t)vs * view_texels * p->plan.att[i].cpp * p->plan.samples;
        tr__raster_load(&rb);
        const tr__stream *s = &p->rec.streams[(size_t)vs * l->pipes_x * l->pipes_y + t->pipe];
        const size_t step = 1 + p->plan.mask_words;
        /* The LRZ write of the binning pass, for this bin's blocks: every
         * triangle of the bin in submission order, before any is drawn. */
        tr__lrz_bin_write bw = {0.0f, true};
        uint32_t patched_for = UINT32_MAX; /* the draw `patched` holds */
        tr__draw patched;
        if (lrz && !scaled) {
            const size_t ahead = TR_PREFETCH_TRIS * step;
            for (size_t e = 0; e < s->count; e += step) {
                /* candidates are scattered through the front end's chunks */
                if (e + ahead < s->count && p->rec.lrz_cand[s->words[e + ahead]])
                    prefetch_tri(p->rec.tris[s->words[e + ahead]]);
                if (p->rec.lrz_cand[s->words[e]] && entry_reaches(&s->words[e + 1], t, bit)) {
                    const tr__tri *tri = p->rec.tris[s->words[e]];
                    if (!(tri->flags & TR__TRI_FB_CULLED))
                        tr__lrz_write_triangle(&p->lrz, &p->rec.draws[tri->draw], tri, vs, rb.rect, &bw,
                                               &w->stats.lrz_blocks_written);
                }
            }
        } else if (lrz) {
            /* A scaled bin writes its rendering-space LRZ from the
             * triangles it will draw, set up again as they will be. */
            for (size_t e = 0; e < s->count; e += step) {
                if (!entry_reaches(&s->words[e + 1], t, bit))
                    continue;
                const tr__tri *tri = p->rec.tris[s->words[e]];
                const tr__draw *d = &p->rec.draws[tri->draw];
                if (d->clear_atts || !d->lrz_write)
                    continue;
                if (tri->draw != patched_for) {
                    tr__fdm_patch_draw(&fv, d, &patched);
                    patched_for = tri->draw;
                }
                if (tr__raster_setup_again(&patched, tri, w->scratch_tri) == TR__SETUP_OK)
                    tr__lrz_write_triangle(&coarse, &patched, w->scratch_tri, 0, rb.rect, &bw,
                                           &w->stats.lrz_blocks_written);
            }
        }
        /* The bounds are final now: the farthest of them, for rejecting
         * whole triangles in the bin. */
        rb.lrz_far = lrz ? tr__lrz_far_bound(rb.lrz_pass, rb.lrz_view, rb.rect) : 0.0f;
        zblocks_begin(ctx, w, &rb, scaled);
        const size_t ahead = TR_PREFETCH_TRIS * step;
        for (size_t e = 0; e < s->count; e += step) {
            /* Triangles were written by the front end long ago: fetch the
             * ones a few entries on while this one is drawn. */
            if (e + 2 * ahead < s->count)
                __builtin_prefetch(&p->rec.tris[s->words[e + 2 * ahead]]);
            if (e + ahead < s->count)
                prefetch_tri(p->rec.tris[s->words[e + ahead]]);
            /* and, half way, the GMEM texels a small one will touch */
            if (!scaled && e + ahead / 2 < s->count)
                prefetch_gmem(&rb, p->rec.tris[s->words[e + ahead / 2]]);
            if (!entry_reaches(&s->words[e + 1], t, bit))
                continue;
            if (first) /* per bin: each of the tile's bins the entry reaches */
                w->stats.bin_primitive_refs +=
                    t->ew == 1 && t->eh == 1 ? 1u : (uint32_t)__builtin_popcount(s->words[e + 1] & t->slot_mask);
            const tr__tri *tri = p->rec.tris[s->words[e]];
            const tr__draw *d = &p->rec.draws[tri->draw];
            if (tri->flags & TR__TRI_PROXY) {
                /* a line or point of a pass with a density map: set up
                 * again in every bin, with the draw patched when scaled */
                if (scaled && tri->draw != patched_for) {
                    tr__fdm_patch_draw(&fv, d, &patched);
                    patched_for = tri->draw;
                }
                const tr__draw *dd = scaled ? &patched : d;
                const int n = tr__raster_setup_prim_again(dd, tri, w->scratch_piece);
                for (int k = 0; k < n; k++)
                    tr__raster_triangle(&rb, w->scratch_piece[k], dd);
                continue;
            }
            if (!scaled) {
                if (!(tri->flags & TR__TRI_FB_CULLED))
                    tr__raster_triangle(&rb, tri, d);
                continue;
            }
            /* A scaled bin view sets the triangle up again in rendering
             * space, with the draw's viewport and scissor patched for it,
             * as the hardware rasterizes what the patched state gives. */
            if (tri->draw != patched_for) {
                tr__fdm_patch_draw(&fv, d, &patched);
                patched_for = tri->draw;
            }
            if (d->clear_atts)
                tr__raster_triangle(&rb, tri, &patched);
            else if (tr__raster_setup_again(&patched, tri, w->scratch_tri) == TR__SETUP_OK)
                tr__raster_triangle(&rb, w->scratch_tri, &patched);
        }
        store_view(p, &rb, t, &fv, vs);
    }
}

/* The per-bin statistics of the pass (bins with pixels in some view; per
 * bin and view, its fragment area or invisibility), from the tiles before
 * merging. */
static void bin_stats(tr__pass *p)
{
    const size_t nbins = (size_t)p->plan.layout.bins_x * p->plan.layout.bins_y;
    for (size_t b = 0; b < nbins; b++) {
        const tr__tile *t = &p->tiles[b];
        p->stats.bins += t->present != 0;
        for (uint32_t v = 0; v < p->plan.view_count; v++) {
            if (!(t->present & (1u << v)))
                continue;
            const tr_extent2d a = p->plan.fdm ? p->fdm_areas[b * p->plan.view_count + v] : (tr_extent2d){1, 1};
            if (!a.width)
                p->stats.fdm_bin_views_invisible++;
            else if (p->plan.fdm)
                p->stats.fdm_bin_views[log2_area(a.height)][log2_area(a.width)]++;
        }
    }
}

/* The tiles of the pass: one per bin, merged on a device that merges
 * bins (src/bin/bin_merge.c); p->tile_list gets those to render (not
 * merged into another, some view visible), row-major by their last bin.
 * Counts the bin statistics.  Returns how many. */
static uint32_t make_tiles(const tr_context *ctx, tr__pass *p)
{
    const tr_bin_layout *l = &p->plan.layout;
    const size_t nbins = (size_t)l->bins_x * l->bins_y;
    tr__bin_tiles_init(l, p->plan.area, (const int32_t(*)[2])p->rec.bo, p->plan.fdm ? p->fdm_areas : NULL, p->plan.view_count,
                       p->tiles);
    bin_stats(p);
    if (p->plan.fdm && ctx->features.bin_merging)
        p->stats.fdm_bins_merged = tr__bin_merge_tiles(
            l, p->plan.view_count, p->rec.fdm_shared_viewport || (p->plan.desc.flags & TR_PASS_FDM_SHARED_VIEWPORT), p->tiles);
    uint32_t n = 0;
    for (size_t b = 0; b < nbins; b++)
        if (p->tiles[b].merged == TR__TILE_NONE && p->tiles[b].visible)
            p->tile_list[n++] = (uint32_t)b;
    p->stats.tiles = n;
    return n;
}

/* The layout's geometry.  Its tile alignment is the device's (the
 * context's), not the pass's: turnip's tu_calc_subsampled and
 * get_default_tile_pos read phys_dev->info->tile_align_w/h, which a cpp-1
 * attachment does not double (that doubling is the pass's, for the bin
 * search only), and the image is padded by it. */
static tr__subsampled_grid subsampled_grid(const tr_context *ctx, const tr__pass *p)
{
    const tr_bin_layout *l = &p->plan.layout;
    tr__subsampled_grid g = {{p->plan.fb_w, p->plan.fb_h}, {l->bin_w, l->bin_h}, {ctx->desc.tile_align_w, ctx->desc.tile_align_h},
                             l->bins_x, l->bins_y, p->plan.view_count, {{0, 0}}, p->plan.fdm_offset};
    memcpy(g.bo, p->rec.bo, sizeof g.bo);
    return g;
}

/* Where each tile goes in the pass's subsampled attachments (before the
 * tiles are rendered). */
static tr_result subsampled_layout(tr_context *ctx, tr__pass *p)
{
    const size_t nbins = (size_t)p->plan.layout.bins_x * p->plan.layout.bins_y;
    if (!tr__grow(ctx, (void **)&p->ss_tiles, &p->ss_tiles_cap, nbins, sizeof(tr__subsampled_tile)))
        return TR_ERROR_OUT_OF_MEMORY;
    void *scratch = tr__alloc(ctx, tr__subsampled_scratch_bytes(nbins));
    if (!scratch)
        return TR_ERROR_OUT_OF_MEMORY;
    const tr__subsampled_grid g = subsampled_grid(ctx, p);
    tr__subsampled_layout(&g, p->tiles, scratch, p->ss_tiles);
    tr__free(ctx, scratch);
    return TR_OK;
}

/* After the tiles: each stored subsampled attachment's metadata per view
 * and its aprons (src/subsample). */
static tr_result subsampled_finish(tr_context *ctx, tr__pass *p)
{
    const size_t nbins = (size_t)p->plan.layout.bins_x * p->plan.layout.bins_y;
    tr__apron_copy *aprons = tr__alloc(ctx, 8 * nbins * sizeof *aprons);
    if (!aprons)
        return TR_ERROR_OUT_OF_MEMORY;
    const tr__subsampled_grid g = subsampled_grid(ctx, p);
    for (uint32_t v = 0; v < p->plan.view_count; v++) {
        const size_t n = tr__subsampled_aprons(&g, p->tiles, p->ss_tiles, v, aprons);
        for (uint32_t i = 0; i < p->plan.att_count; i++) {
            const tr__attachment_state *a = &p->plan.att[i];
            if (!a->subsampled || a->store != TR_STORE_OP_STORE)
                continue;
            const uint32_t layer = a->base_layer + p->plan.view_ids[v];
            tr__subsampled_meta *m = &a->image->subsampled[layer];
            tr__subsampled_metadata(&g, p->tiles, p->ss_tiles, v, &m->header, m->bins, TR_SUBSAMPLED_MAX_BINS);
            m->bin_count = nbins > TR_SUBSAMPLED_MAX_BINS ? 1u : (uint32_t)nbins;
            tr__subsampled_copy_aprons(a->image, layer, aprons, n);
        }
    }
    tr__free(ctx, aprons);
    return TR_OK;
}


static void report_visibility(const tr__pass *p)
{
    const tr_bin_layout *l = &p->plan.layout;
    for (uint32_t by = 0; by < l->bins_y; by++) {
        for (uint32_t bx = 0; bx < l->bins_x; bx++) {
            uint32_t pipe = (by / l->pipe_h) * l->pipes_x + bx / l->pipe_w;
            uint32_t bit = (by % l->pipe_h) * l->pipe_w + bx % l->pipe_w;
            for (uint32_t vs = 0; vs < p->plan.view_count; vs++) {
                const tr__stream *s = &p->rec.streams[(size_t)vs * l->pipes_x * l->pipes_y + pipe];
                for (size_t e = 0; e < s->count; e += 1 + p->plan.mask_words) {
                    if (!((s->words[e + 1 + (bit >> 5)] >> (bit & 31)) & 1))
                        continue;
                    const tr__tri *t = p->rec.tris[s->words[e]];
                    tr_visibility_entry ve = {p->plan.view_ids[vs], bx, by, pipe, t->draw, t->instance, t->primitive};
                    p->plan.desc.visibility_fn(p->plan.desc.visibility_user, &ve);
                }
            }
        }
    }
}

static void add_stats(tr_pass_stats *dst, const tr_pass_stats *s)
{
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

tr_result tr_cmd_end_render_pass(tr_context *ctx, tr_pass_stats *stats)
{
    tr__api_enter(ctx);
    REQUIRE_PASS(ctx, "tr_cmd_end_render_pass");
    tr__pass *p = ctx->pass;
    if (p->failed) {
        tr__lrz_end_pass(&p->plan, &p->lrz, false, &p->stats);
        tr__pass_release_recording(ctx, p);
        tr__pass_end_state(ctx);
        return tr__error(ctx, p->fail_code, "tr_cmd_end_render_pass: the pass failed while recording; "
                                            "nothing was rendered");
    }
    uint32_t threads = ctx->desc.threads;
    tr_result r = prepare_workers(ctx, threads, p->plan.tile_bytes);
    if (r == TR_OK && p->plan.fdm) {
        /* The density map is read now, as turnip reads it when the
         * command buffer is built (tu_cmd_render_tiles). */
        const size_t n = (size_t)p->plan.layout.bins_x * p->plan.layout.bins_y * p->plan.view_count;
        if (!tr__grow(ctx, (void **)&p->fdm_areas, &p->fdm_areas_cap, n, sizeof(tr_extent2d)))
            r = TR_ERROR_OUT_OF_MEMORY;
        else
            tr__pass_plan_fdm_areas(ctx, &p->plan, p->rec.fdm_shared_viewport || (p->plan.desc.flags & TR_PASS_FDM_SHARED_VIEWPORT),
                               p->fdm_areas);
    }
    /* LRZ in scaled bins (fdm.h): with hardware bin scaling (a7xx, at
     * most its scaled views, no shared viewport), from a depth clear. */
    const bool shared = p->rec.fdm_shared_viewport || (p->plan.desc.flags & TR_PASS_FDM_SHARED_VIEWPORT);
    p->fdm_scaled_lrz = p->plan.fdm && p->lrz.buf && ctx->features.hw_bin_scaling &&
                        p->plan.view_count <= ctx->features.max_scaled_views && !shared &&
                        p->plan.att[p->plan.depth_att].load == TR_LOAD_OP_CLEAR;
    if (r == TR_OK && p->fdm_scaled_lrz) {
        /* rendering space ends before the last bin's end (views bins
         * further down for a tile that uses every view's GMEM) */
        const tr_bin_layout *l = &p->plan.layout;
        const uint32_t rw = (uint32_t)l->origin_x + l->bins_x * l->bin_w;
        const uint32_t rh = (uint32_t)l->origin_y + (l->bins_y + p->plan.view_count) * l->bin_h;
        for (uint32_t i = 0; i < threads && r == TR_OK; i++)
            if (!tr__lrz_scratch_reserve(ctx, &ctx->workers[i].lrz_scratch, rw, rh, p->plan.samples))
                r = TR_ERROR_OUT_OF_MEMORY;
    }
    const size_t nbins = (size_t)p->plan.layout.bins_x * p->plan.layout.bins_y;
    if (r == TR_OK && (!tr__grow(ctx, (void **)&p->tiles, &p->tiles_cap, nbins, sizeof(tr__tile)) ||
                       !tr__grow(ctx, (void **)&p->tile_list, &p->tile_list_cap, nbins, sizeof(uint32_t))))
        r = TR_ERROR_OUT_OF_MEMORY;
    if (r != TR_OK) {
        tr__lrz_end_pass(&p->plan, &p->lrz, false, &p->stats);
        tr__pass_release_recording(ctx, p);
        tr__pass_end_state(ctx);
        return tr__error(ctx, r, "tr_cmd_end_render_pass: out of memory for tile buffers");
    }
    if (p->plan.desc.visibility_fn)
        report_visibility(p);
    const tr_bin_layout *l = &p->plan.layout;
    const int ntiles = (int)make_tiles(ctx, p);
    if (p->plan.subsampled && subsampled_layout(ctx, p) != TR_OK) {
        tr__lrz_end_pass(&p->plan, &p->lrz, false, &p->stats);
        tr__pass_release_recording(ctx, p);
        tr__pass_end_state(ctx);
        return tr__error(ctx, TR_ERROR_OUT_OF_MEMORY, "tr_cmd_end_render_pass: out of memory for the subsampled layout");
    }
    /* With fewer tiles than twice the threads, tiles are cut into slices
     * of block rows so that every thread has work (and some to balance). */
    const uint32_t slices = threads > 1 && ntiles > 0
                                ? TR_MAX(1u, TR_MIN((2 * threads + (uint32_t)ntiles - 1) / (uint32_t)ntiles, l->bin_h / 8))
                                : 1u;
    const int tasks = ntiles * (int)slices;
    const tr__raster_pass rp = {p->plan.att,       p->plan.att_count, p->plan.color_att, p->plan.desc.color_count,
                                p->plan.depth_att, p->plan.stencil_att, p->plan.view_ids, p->rec.draws,
                                &p->lrz,      p->plan.fdm,       p->plan.samples,   (size_t)l->bin_w * l->bin_h};
    double t0 = tr__now_ms();
#ifdef TILERAST_HAVE_OPENMP
#pragma omp parallel for schedule(dynamic, 1) num_threads((int)threads) if (threads > 1)
    for (int k = 0; k < tasks; k++)
        render_tile(ctx, p, &rp, &ctx->workers[omp_get_thread_num()], p->tile_list[k / (int)slices],
                    (uint32_t)k % slices, slices);
#else
    for (int k = 0; k < tasks; k++)
        render_tile(ctx, p, &rp, &ctx->workers[0], p->tile_list[k / (int)slices], (uint32_t)k % slices, slices);
#endif
    p->stats.ms_render = tr__now_ms() - t0;
    tr_result ss_r = p->plan.subsampled ? subsampled_finish(ctx, p) : TR_OK;
    for (uint32_t i = 0; i < threads; i++)
        add_stats(&p->stats, &ctx->workers[i].stats);
    /* Stored images have new texels (LRZ reuse and caches key on this). */
    for (uint32_t i = 0; i < p->plan.att_count; i++) {
        if (p->plan.att[i].store == TR_STORE_OP_STORE)
            p->plan.att[i].image->version++;
        if (p->plan.att[i].resolve)
            p->plan.att[i].resolve->version++;
    }
    tr__lrz_end_pass(&p->plan, &p->lrz, true, &p->stats);
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
                                    p->rec.tri_count * sizeof(tr__tri *);
    for (uint32_t w = 0; w < p->slot_count; w++)
        p->stats.memory_binning_bytes += p->slots[w].arena.bytes_used;
    p->stats.memory_tile_bytes = (uint64_t)threads * p->plan.tile_bytes;
    p->stats.memory_peak_bytes = __atomic_load_n(&ctx->mem_peak, __ATOMIC_RELAXED);
    p->stats.layout = *l;
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

