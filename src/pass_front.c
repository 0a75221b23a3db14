/* tilerast executor: the front end of a draw (vertex -> set-up -> binning).
 *
 * A draw's primitives are cut into chunks of TR_FRONT_CHUNK; a wave of
 * chunks is shaded, clipped and set up in parallel, each chunk into its own
 * slot, then binned in submission order into the per-(view, pipe)
 * visibility streams.  Nothing depends on the thread count. */
#include <math.h>

#ifdef TILERAST_HAVE_OPENMP
#include <omp.h>
#endif

#include "bin/bin_internal.h"
#include "lrz/lrz_internal.h"
#include "pass.h"
#include "raster/raster_internal.h"
#include "vertex/vertex_internal.h"

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

/* Slots are filled by different threads at once: each starts on its own
 * cache line, so that one thread's writes to its slot's last fields never
 * evict the next slot's first ones from another core (false sharing cost
 * the front end most of a second thread). */
struct tr__front_slot {
    _Alignas(64) tr__arena arena; /* this slot's triangles, for the whole pass */
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
    tr__vwin *vwin;           /* the shaded vertices placed in the window (front_draw.placed) */
    size_t vwin_cap;
    bool oom;
};
typedef struct tr__front_slot tr__front_slot;

/* The front end's state between draws (pass.h). */
struct tr__front {
    tr__front_slot *slots;     /* one per chunk of a wave */
    uint32_t slot_count;
    float *vtx;                /* vertex scratch: the shaded vertex a fan's primitives share */
    size_t vtx_cap;
    tr__vwin first_win;        /* that vertex placed (front_draw.placed) */
};

void tr__front_reset(tr__front *f)
{
    for (uint32_t w = 0; f && w < f->slot_count; w++)
        tr__arena_reset(&f->slots[w].arena);
}

void tr__front_release_arenas(tr_context *ctx, tr__front *f)
{
    for (uint32_t w = 0; f && w < f->slot_count; w++)
        tr__arena_release(ctx, &f->slots[w].arena);
}

uint64_t tr__front_arena_bytes(const tr__front *f)
{
    uint64_t bytes = 0;
    for (uint32_t w = 0; f && w < f->slot_count; w++)
        bytes += f->slots[w].arena.bytes_used;
    return bytes;
}

void tr__front_free(tr_context *ctx, tr__front *f)
{
    if (!f)
        return;
    tr__front_release_arenas(ctx, f);
    tr__free(ctx, f->vtx);
    for (uint32_t w = 0; w < f->slot_count; w++) {
        tr__free(ctx, f->slots[w].vtx);
        tr__free(ctx, f->slots[w].vwin);
        tr__free(ctx, f->slots[w].bins);
        tr__free(ctx, f->slots[w].sorted);
    }
    tr__free(ctx, f->slots);
    tr__free(ctx, f);
}

/* Vertices per primitive of a topology. */
static inline uint32_t prim_verts(tr_topology t)
{
    return t == TR_TOPOLOGY_POINT_LIST ? 1 : t >= TR_TOPOLOGY_LINE_LIST ? 2 : 3;
}

/* Stream positions of primitive `i` (Vulkan's ordering; the first is the provoking vertex). */
static inline void prim_positions(tr_topology t, uint32_t i, uint32_t pos[3])
{
    switch (t) {
    case TR_TOPOLOGY_TRIANGLE_STRIP:
        pos[0] = i;
        pos[1] = i + 1 + (i & 1);
        pos[2] = i + 2 - (i & 1);
        break;
    case TR_TOPOLOGY_TRIANGLE_FAN:
        pos[0] = i + 1;
        pos[1] = i + 2;
        pos[2] = 0;
        break;
    case TR_TOPOLOGY_POINT_LIST:
        pos[0] = pos[1] = pos[2] = i;
        break;
    case TR_TOPOLOGY_LINE_LIST:
        pos[0] = 2 * i;
        pos[1] = pos[2] = 2 * i + 1;
        break;
    case TR_TOPOLOGY_LINE_STRIP:
        pos[0] = i;
        pos[1] = pos[2] = i + 1;
        break;
    default:
        pos[0] = 3 * i;
        pos[1] = 3 * i + 1;
        pos[2] = 3 * i + 2;
        break;
    }
}

/* Primitives per chunk: a line or point makes up to two pieces (quad
 * halves), so its chunks are half as long and a slot holds them all. */
static inline uint32_t chunk_prims(tr_topology t)
{
    return prim_verts(t) == 3 ? TR_FRONT_CHUNK : TR_FRONT_CHUNK / 2;
}

_Static_assert(TR_FRONT_PIECES == TR_CLIP_MAX_VERTS - 2, "a slot holds every piece clipping can make");

/* Clips and sets up one assembled triangle into `arena`, appending the
 * pieces to out[] (at most TR_FRONT_PIECES).  Returns the number of pieces,
 * or -1 when the arena cannot grow.  Touches nothing shared: the parallel
 * front end runs it on several threads. */
static int setup_triangle(tr_context *ctx, tr__arena *arena, const tr__draw *d, uint32_t draw_index,
                          const float *v[3], uint32_t instance, uint32_t prim, uint16_t view, float gb_x, float gb_y,
                          float *clipbuf, float *flatbuf, tr__tri **out, setup_counts *sc)
{
    const tr_pipeline_desc *pd = &d->pipeline->desc;
    const uint32_t stride = 4 + 4 * pd->varying_count;
    sc->in++;
    if (tr__vertex_nonfinite(v[0]) || tr__vertex_nonfinite(v[1]) || tr__vertex_nonfinite(v[2])) {
        sc->culled++;
        sc->nonfinite++;
        return 0;
    }
    const float *in[3] = {v[0], v[1], v[2]};
    if (pd->flat_mask) {
        /* Flat varyings take the provoking (first) vertex's values everywhere. */
        for (int i = 1; i < 3; i++) {
            float *f = flatbuf + (size_t)(i - 1) * stride;
            memcpy(f, v[i], stride * sizeof(float));
            for (uint32_t k = 0; k < pd->varying_count; k++)
                if ((pd->flat_mask >> k) & 1)
                    memcpy(f + 4 + 4 * k, v[0] + 4 + 4 * k, 4 * sizeof(float));
            in[i] = f;
        }
    }
    bool clipped;
    tr__clip_poly poly;
    uint32_t n = tr__vertex_clip(in, stride, pd->noperspective_mask, gb_x, gb_y, clipbuf, &poly, &clipped);
    if (clipped)
        sc->clipped++;
    int made = 0;
    for (uint32_t i = 1; i + 1 < n; i++) {
        const float *tv[3] = {clipbuf, clipbuf + (size_t)i * stride, clipbuf + (size_t)(i + 1) * stride};
        if (!clipped) /* the polygon is the triangle itself (nothing copied) */
            tv[0] = in[0], tv[1] = in[1], tv[2] = in[2];
        const double *ex[3] = {poly.exact[0] ? poly.pos[0] : NULL, poly.exact[i] ? poly.pos[i] : NULL,
                               poly.exact[i + 1] ? poly.pos[i + 1] : NULL};
        tr__tri *t;
        tr__setup_status s = tr__raster_setup(ctx, arena, d, draw_index, tv, ex, &t);
        if (s == TR__SETUP_OOM)
            return -1;
        if (s == TR__SETUP_CULLED)
            continue;
        t->instance = instance;
        t->primitive = prim;
        t->view = view;
        out[made++] = t;
    }
    /* Culling is decided before binning, so it does not depend on the bins. */
    if (made == 0)
        sc->culled++;
    return made;
}

/* setup_triangle for a triangle whose vertices clipping leaves alone
 * (tr__vwin.inside), set up from their window positions w[] (front_draw.placed):
 * the same triangle and counts. */
static int setup_placed(tr_context *ctx, tr__arena *arena, const tr__draw *d, uint32_t draw_index,
                        const float *v[3], const tr__vwin *w[3], uint32_t instance, uint32_t prim, uint16_t view,
                        tr__tri **out, setup_counts *sc)
{
    sc->in++;
    const float *win[3] = {w[0]->win, w[1]->win, w[2]->win};
    const int32_t *sub[3] = {w[0]->sub, w[1]->sub, w[2]->sub};
    tr__tri *t;
    const tr__setup_status s =
        tr__raster_setup_placed(ctx, arena, d, draw_index, v, win, sub, d->pipeline->desc.flat_mask, &t);
    if (s == TR__SETUP_OOM)
        return -1;
    if (s == TR__SETUP_CULLED) {
        sc->culled++;
        return 0;
    }
    t->instance = instance;
    t->primitive = prim;
    t->view = view;
    out[0] = t;
    return 1;
}

/* setup_triangle for a line or a point: culls points outside the view
 * volume, clips lines, copies the provoking vertex's flat varyings. */
static int setup_line_or_point(tr_context *ctx, tr__arena *arena, const tr__draw *d, uint32_t draw_index,
                               const float *v[2], uint32_t instance, uint32_t prim, uint16_t view, float gb_x,
                               float gb_y, float *clipbuf, float *flatbuf, tr__tri **out, setup_counts *sc)
{
    const tr_pipeline_desc *pd = &d->pipeline->desc;
    const uint32_t stride = tr__vertex_stride(pd);
    const bool point = pd->topology == TR_TOPOLOGY_POINT_LIST;
    sc->in++;
    if (tr__vertex_nonfinite(v[0]) || (!point && tr__vertex_nonfinite(v[1]))) {
        sc->culled++;
        sc->nonfinite++;
        return 0;
    }
    tr__setup_status s;
    int made = 0;
    if (point) {
        if (!tr__vertex_point_inside(v[0])) {
            sc->culled++;
            return 0;
        }
        const double *ex[2] = {NULL, NULL};
        if (d->fdm) { /* set up again in every bin (raster_prims.c) */
            s = tr__raster_setup_prim_proxy(ctx, arena, d, draw_index, v, ex, &out[0]);
            made = s == TR__SETUP_OK;
        } else {
            s = tr__raster_setup_point(ctx, arena, d, draw_index, v[0], v[0][stride - 1], out, &made);
        }
    } else {
        const float *in[2] = {v[0], v[1]};
        if (pd->flat_mask) { /* the first vertex is the provoking one */
            memcpy(flatbuf, v[1], stride * sizeof(float));
            for (uint32_t k = 0; k < pd->varying_count; k++)
                if ((pd->flat_mask >> k) & 1)
                    memcpy(flatbuf + 4 + 4 * k, v[0] + 4 + 4 * k, 4 * sizeof(float));
            in[1] = flatbuf;
        }
        bool clipped;
        tr__clip_poly poly;
        if (!tr__vertex_clip_line(in, stride, pd->noperspective_mask, gb_x, gb_y, clipbuf, &poly, &clipped)) {
            sc->culled++;
            return 0;
        }
        if (clipped) {
            sc->clipped++;
            in[0] = clipbuf;
            in[1] = clipbuf + stride;
        }
        const double *ex[2] = {poly.exact[0] ? poly.pos[0] : NULL, poly.exact[1] ? poly.pos[1] : NULL};
        if (d->fdm) {
            s = tr__raster_setup_prim_proxy(ctx, arena, d, draw_index, in, ex, &out[0]);
            made = s == TR__SETUP_OK;
        } else {
            s = tr__raster_setup_line(ctx, arena, d, draw_index, in, ex, out, &made);
        }
    }
    if (s == TR__SETUP_OOM)
        return -1;
    for (int k = 0; k < made; k++) {
        out[k]->instance = instance;
        out[k]->primitive = prim;
        out[k]->view = view;
    }
    if (made == 0)
        sc->culled++;
    return made;
}

tr_result tr__front_unshift_bins(tr_context *ctx, tr__pass *p)
{
    memset(p->rec.bo, 0, sizeof p->rec.bo);
    for (size_t i = 0; i < p->rec.stream_slots; i++)
        p->rec.streams[i].count = 0;
    for (size_t i = 0; i < p->rec.tri_count; i++) {
        const tr__tri *t = p->rec.tris[i];
        uint32_t vs = 0;
        while (vs + 1 < p->plan.view_count && p->plan.view_ids[vs] != t->view)
            vs++;
        if (tr__bin_triangle(ctx, &p->plan, &p->rec, t, (uint32_t)i, vs) < 0)
            return TR_ERROR_OUT_OF_MEMORY;
    }
    return TR_OK;
}

/* Bins a slot's set-up triangles in submission order from the stream
 * entries the front end's threads made for them (LRZ is written per bin,
 * in render_tile).  A triangle that reaches no bin's pixel centre is simply
 * not binned.  false on OOM. */
static bool bin_triangles(tr_context *ctx, tr__pass *p, const tr__front_slot *sl, uint32_t view_slot)
{
    /* Room for them all first: the slot's triangles, and each stream the
     * entries the slot made for it.  A slot with triangles to classify
     * again here (whose entries did not fit) grows the streams entry by
     * entry instead: those take room no count foresaw. */
    if (!tr__grow(ctx, (void **)&p->rec.tris, &p->rec.tri_cap, p->rec.tri_count + sl->count, sizeof(tr__tri *)) ||
        !tr__grow(ctx, (void **)&p->rec.lrz_cand, &p->rec.lrz_cand_cap, p->rec.tri_count + sl->count, 1))
        return false;
    const bool reserved = !sl->deferred;
    if (reserved && !tr__bin_reserve(ctx, &p->plan, &p->rec, view_slot, sl->pipe_entries))
        return false;
    const uint32_t *words = sl->bins;
    for (uint32_t i = 0; i < sl->count; i++) {
        p->rec.tris[p->rec.tri_count] = sl->tris[i];
        p->rec.lrz_cand[p->rec.tri_count] = sl->lrz_cand[i];
        int entries;
        if (sl->bin_words[i] == UINT32_MAX) {
            entries = tr__bin_triangle(ctx, &p->plan, &p->rec, sl->tris[i], (uint32_t)p->rec.tri_count, view_slot);
        } else {
            entries = reserved ? tr__bin_append_reserved(&p->plan, &p->rec, (uint32_t)p->rec.tri_count, view_slot,
                                                         words, sl->bin_words[i])
                               : tr__bin_append(ctx, &p->plan, &p->rec, (uint32_t)p->rec.tri_count, view_slot, words,
                                                sl->bin_words[i]);
            words += sl->bin_words[i];
        }
        if (entries < 0)
            return false;
        if (entries == 0)
            continue;
        p->rec.tri_count++;
        p->stats.primitives_binned++;
    }
    return true;
}

/* The slot's entries pipe by pipe, for bin_wave (runs on the slot's own
 * thread, while its entries are in that core's cache). */
static void sort_entries(const tr__pass *p, tr__front_slot *sl)
{
    const uint32_t mw = p->plan.mask_words, npipes = p->plan.layout.pipes_x * p->plan.layout.pipes_y;
    uint32_t cur[TR_MAX_VSC_PIPES];
    uint32_t off = 0;
    for (uint32_t pipe = 0; pipe < npipes; pipe++) {
        sl->pipe_off[pipe] = cur[pipe] = off;
        off += sl->pipe_entries[pipe] * (1 + mw);
    }
    sl->pipe_off[npipes] = off;
    sl->binned = 0;
    const uint32_t *words = sl->bins;
    for (uint32_t i = 0; i < sl->count; i++) {
        const uint32_t n = sl->bin_words[i];
        sl->binned += n != 0;
        for (uint32_t e = 0; e < n; e += 1 + mw) {
            uint32_t *dst = sl->sorted + cur[words[e]];
            dst[0] = i;
            memcpy(dst + 1, words + e + 1, sizeof(uint32_t) * mw);
            cur[words[e]] += 1 + mw;
        }
        words += n;
    }
}

/* bin_triangles for a whole wave of slots whose entries all fit and were
 * sorted by pipe, on several threads: each slot's triangles get their
 * indices (in submission order: slot by slot) in parallel, each stream is
 * grown for its share, then each pipe's stream takes its entries slot by
 * slot.  Streams come out as bin_triangles writes them.  false on OOM. */
static bool bin_wave(tr_context *ctx, tr__pass *p, uint32_t nc, uint32_t view_slot, uint32_t threads)
{
    const uint32_t mw = p->plan.mask_words, npipes = p->plan.layout.pipes_x * p->plan.layout.pipes_y;
    size_t total = p->rec.tri_count;
    for (uint32_t w = 0; w < nc; w++) {
        p->front->slots[w].tri_base = total;
        total += p->front->slots[w].binned;
    }
    if (!tr__grow(ctx, (void **)&p->rec.tris, &p->rec.tri_cap, total, sizeof(tr__tri *)) ||
        !tr__grow(ctx, (void **)&p->rec.lrz_cand, &p->rec.lrz_cand_cap, total, 1))
        return false;
    tr__stream *streams = &p->rec.streams[(size_t)view_slot * npipes];
    for (uint32_t pipe = 0; pipe < npipes; pipe++) {
        size_t need = 0;
        for (uint32_t w = 0; w < nc; w++)
            need += p->front->slots[w].pipe_entries[pipe];
        tr__stream *st = &streams[pipe];
        if (need && !tr__grow(ctx, (void **)&st->words, &st->cap, st->count + need * (1 + mw), sizeof(uint32_t)))
            return false;
    }
    /* One chunk (a small draw, or one instance of a small mesh) is not worth
     * a team: thousands of instances would each pay a fork and a join. */
#ifdef TILERAST_HAVE_OPENMP
#pragma omp parallel num_threads((int)threads) if (nc > 1)
#endif
    {
#ifdef TILERAST_HAVE_OPENMP
#pragma omp for schedule(static)
#endif
        for (int w = 0; w < (int)nc; w++) {
            tr__front_slot *sl = &p->front->slots[w];
            size_t idx = sl->tri_base;
            for (uint32_t i = 0; i < sl->count; i++) {
                sl->tri_index[i] = UINT32_MAX;
                if (!sl->bin_words[i])
                    continue; /* reaches no bin */
                p->rec.tris[idx] = sl->tris[i];
                p->rec.lrz_cand[idx] = sl->lrz_cand[i];
                sl->tri_index[i] = (uint32_t)idx++;
            }
        }
#ifdef TILERAST_HAVE_OPENMP
#pragma omp for schedule(dynamic, 1)
#endif
        for (int pipe = 0; pipe < (int)npipes; pipe++) {
            /* (the count in a local: the streams' headers share cache
             * lines, and other threads fill the neighbouring pipes) */
            tr__stream *st = &streams[pipe];
            uint32_t *words = st->words;
            size_t count = st->count;
            for (uint32_t w = 0; w < nc; w++) {
                const tr__front_slot *sl = &p->front->slots[w];
                const uint32_t *e = sl->sorted + sl->pipe_off[pipe], *end = sl->sorted + sl->pipe_off[pipe + 1];
                for (; e < end; e += 1 + mw) {
                    words[count++] = sl->tri_index[e[0]];
                    memcpy(words + count, e + 1, sizeof(uint32_t) * mw);
                    count += mw;
                }
            }
            st->count = count;
        }
    }
    p->stats.primitives_binned += total - p->rec.tri_count;
    p->rec.tri_count = total;
    return true;
}

static void add_counts(tr_pass_stats *st, const setup_counts *sc)
{
    st->primitives_in += sc->in;
    st->primitives_culled += sc->culled;
    st->primitives_nonfinite += sc->nonfinite;
    st->primitives_clipped += sc->clipped;
}

/* The range of stream positions primitives [p0, p1) use. */
/* The range of stream positions primitives [p0, p1) use. */
static void chunk_positions(tr_topology topo, uint32_t p0, uint32_t p1, uint32_t *lo, uint32_t *hi)
{
    switch (topo) {
    case TR_TOPOLOGY_TRIANGLE_LIST:
        *lo = 3 * p0;
        *hi = 3 * p1;
        break;
    case TR_TOPOLOGY_TRIANGLE_STRIP:
        *lo = p0;
        *hi = p1 + 2;
        break;
    case TR_TOPOLOGY_POINT_LIST:
        *lo = p0;
        *hi = p1;
        break;
    case TR_TOPOLOGY_LINE_LIST:
        *lo = 2 * p0;
        *hi = 2 * p1;
        break;
    case TR_TOPOLOGY_LINE_STRIP:
        *lo = p0;
        *hi = p1 + 1;
        break;
    default:
        *lo = p0 + 1;
        *hi = p1 + 2;
        break;
    }
}

/* What every chunk of one draw, instance and view shares (front_chunk). */
typedef struct front_draw {
    tr__pass *p;
    const tr__draw *d;
    uint32_t draw_index;
    tr__vertex_source src;   /* its instance and view set */
    const float *first_vtx;  /* fans: stream position 0 */
    const tr__vwin *first_win; /* its placement (with `placed`) */
    /* Triangles of a draw without a density map: the shaded vertices are
     * placed in the window as they are shaded (tr__vwin), and a triangle
     * clipping leaves alone is set up from there (setup_placed). */
    bool placed;
    tr__vertex_place place;
    uint32_t inst, view_slot;
    uint16_t view;
    float gb_x, gb_y;
    uint32_t stride;         /* floats per shaded vertex */
    size_t piece_room;       /* arena bytes one primitive can take at most (every clipped piece) */
    size_t slot_room;        /* arena bytes reserved per chunk */
} front_draw;

/* Phase A for one slot: shades the chunk of primitives [p0, p1) into the
 * slot (when `shade`; else its vertices are there already), then clips,
 * sets up and classifies primitives from `from` on.  It stops before a
 * primitive whose pieces might not fit the slot's reserved arena room or
 * triangle list (clipping can make eight of one), and returns the first
 * primitive not done: p1 unless a chunk of many clipped primitives filled
 * the slot, which phase B then finishes (it may allocate).  Touches only
 * the slot: chunks run on several threads. */
static uint32_t front_chunk(tr_context *ctx, const front_draw *fc, tr__front_slot *sl, uint32_t p0, uint32_t from,
                            uint32_t p1, bool shade)
{
    const tr__pass *p = fc->p;
    const tr__draw *d = fc->d;
    const tr_pipeline_desc *pd = &d->pipeline->desc;
    const uint32_t stride = fc->stride;
    uint32_t lo, hi;
    chunk_positions(pd->topology, p0, p1, &lo, &hi);
    float *chunk = sl->vtx;
    float *clipbuf = chunk + (size_t)(3 * TR_FRONT_CHUNK + 2) * stride;
    float *flatbuf = clipbuf + (size_t)(2 * TR_CLIP_MAX_VERTS) * stride;
    if (shade) {
        tr_vs_batch batch;
        tr__vertex_shade(d->pipeline, &fc->src, d->uniforms, d->spv, lo, hi, chunk, &batch,
                         fc->placed ? &fc->place : NULL, sl->vwin);
    }
    sl->count = 0;
    sl->bins_used = 0;
    sl->deferred = 0;
    memset(sl->pipe_entries, 0, sizeof sl->pipe_entries);
    sl->oom = false;
    memset(&sl->counts, 0, sizeof(sl->counts));
    for (uint32_t prim = from; prim < p1; prim++) {
        if (sl->count + TR_FRONT_PIECES > TR_FRONT_SLOT_TRIS || tr__arena_room(&sl->arena) < fc->piece_room)
            return prim;
        uint32_t pos[3];
        prim_positions(pd->topology, prim, pos);
        const float *v[3];
        const tr__vwin *w[3] = {NULL, NULL, NULL};
        for (int k = 0; k < 3; k++) {
            const bool first = pos[k] == 0 && pd->topology == TR_TOPOLOGY_TRIANGLE_FAN;
            v[k] = first ? fc->first_vtx : chunk + (size_t)(pos[k] - lo) * stride;
            if (fc->placed)
                w[k] = first ? fc->first_win : sl->vwin + (pos[k] - lo);
        }
        int made;
        if (fc->placed && (w[0]->inside & w[1]->inside & w[2]->inside))
            made = setup_placed(ctx, &sl->arena, d, fc->draw_index, v, w, fc->inst, prim, fc->view,
                                sl->tris + sl->count, &sl->counts);
        else if (prim_verts(pd->topology) == 3)
            made = setup_triangle(ctx, &sl->arena, d, fc->draw_index, v, fc->inst, prim, fc->view, fc->gb_x, fc->gb_y,
                                  clipbuf, flatbuf, sl->tris + sl->count, &sl->counts);
        else
            made = setup_line_or_point(ctx, &sl->arena, d, fc->draw_index, v, fc->inst, prim, fc->view, fc->gb_x,
                                       fc->gb_y, clipbuf, flatbuf, sl->tris + sl->count, &sl->counts);
        if (made < 0) {
            sl->oom = true; /* cannot happen: the room was checked */
            return prim;
        }
        /* The binning pass's costly half: which pipes and bins. */
        for (int k = 0; k < made; k++) {
            uint32_t i = sl->count + (uint32_t)k;
            sl->lrz_cand[i] = p->lrz.buf && tr__lrz_may_write(d, sl->tris[i]);
            int n = tr__bin_classify(&p->plan, &p->rec, sl->tris[i], fc->view_slot, sl->bins + sl->bins_used,
                                     (uint32_t)(sl->bins_cap - sl->bins_used));
            sl->bin_words[i] = n < 0 ? UINT32_MAX : (uint32_t)n;
            sl->deferred += n < 0;
            for (int e = 0; e < n; e += 1 + (int)p->plan.mask_words)
                sl->pipe_entries[sl->bins[sl->bins_used + (size_t)e]]++;
            sl->bins_used += n < 0 ? 0 : (size_t)n;
        }
        sl->count += (uint32_t)made;
    }
    return p1;
}

tr_result tr__front_draw(tr_context *ctx, const char *fn, uint32_t draw_index, const tr__vertex_source *source,
                         uint32_t prims, uint32_t instance_count, uint32_t first_instance)
{
    tr__pass *p = ctx->pass;
    const tr__draw *d = &p->rec.draws[draw_index];
    const tr_pipeline *pl = d->pipeline;
    const tr_pipeline_desc *pd = &pl->desc;
    tr__vertex_source src = *source;
    const uint32_t stride = tr__vertex_stride(pd);
    if (!p->front && !(p->front = tr__calloc(ctx, sizeof *p->front)))
        return tr__pass_fail(ctx, fn);
    if (!tr__grow(ctx, (void **)&p->front->vtx, &p->front->vtx_cap, stride, sizeof(float)))
        return tr__pass_fail(ctx, fn);
    float *first_vtx = p->front->vtx; /* fans: stream position 0, shaded once per instance and view */
    float gb_x, gb_y;
    tr__vertex_guard_band(&d->viewport, &gb_x, &gb_y);

    /* The parallel front end.  The primitives are cut into chunks of
     * TR_FRONT_CHUNK; a wave of chunks is shaded, clipped and set up in
     * parallel, each chunk into its own slot (its own arena, reserved
     * beforehand so that no thread calls the allocator, and its own list of
     * set-up triangles); then the slots are binned one after the other, in
     * submission order.  Nothing depends on the thread count.  A slot's
     * room holds a piece per primitive and a quarter more: a chunk of many
     * clipped primitives can fill it, and is then finished in phase B.  A
     * wave has eight chunks per thread: enough for dynamic scheduling to even them
     * out and to pay for the fork and join, few enough to keep the slots'
     * reserved arenas small.  The costly half of binning (which pipes and
     * bins a triangle reaches, tr__bin_classify) runs in phase A; phase B
     * only appends the entries to the streams. */
    const uint32_t threads = ctx->desc.threads ? ctx->desc.threads : 1;
    const uint32_t per_chunk = chunk_prims(pd->topology);
    const uint32_t chunks = (prims + per_chunk - 1) / per_chunk;
    const uint32_t wave = TR_MIN(chunks, threads > 1 ? 8 * threads : 1);
    if (wave > p->front->slot_count) {
        tr__front_slot *ns = tr__calloc(ctx, (size_t)wave * sizeof(tr__front_slot));
        if (!ns)
            return tr__pass_fail(ctx, fn);
        if (p->front->slots) {
            memcpy(ns, p->front->slots, (size_t)p->front->slot_count * sizeof(tr__front_slot));
            tr__free(ctx, p->front->slots);
        }
        p->front->slots = ns;
        p->front->slot_count = wave;
    }
    const size_t vtx_need = (size_t)(3 * TR_FRONT_CHUNK + 2 + 2 * TR_CLIP_MAX_VERTS + 2) * stride;
    const size_t tri_bytes = tr__tri_bytes(pd->varying_count) + (d->fdm ? tr__tri_src_bytes(pd->varying_count) : 0);
    /* A slot's arena room: a piece per primitive, a quarter more, and one
     * primitive's worst case (front_chunk stops before it runs short). */
    const size_t slot_room = (size_t)TR_FRONT_SLOT_TRIS * tri_bytes;
    /* Room for four pipes' entries per triangle; a triangle that touches
     * more (or finds the room gone) is classified again while binning. */
    const size_t bins_need = (size_t)TR_FRONT_CHUNK * 4 * (1 + p->plan.mask_words);
    /* Triangles of a draw without a density map are placed as they are
     * shaded (front_draw.placed); at every SIMD level but the scalar
     * reference, which sets every triangle up from its shaded vertices
     * (the equality tests compare the two). */
    const bool placeable = prim_verts(pd->topology) == 3 && !d->fdm;
    const bool placed = placeable && ctx->simd != TR_SIMD_SCALAR;
    const tr__vertex_place place = {&d->viewport, gb_x, gb_y, ctx->simd >= TR_SIMD_AVX2 && tr__cpu_has_avx2_fma()};
    /* (the reference gets the room too: the pass's memory statistics
     * must not depend on the SIMD level) */
    const size_t vwin_need = placeable ? (size_t)(3 * TR_FRONT_CHUNK + 2) : 0;
    for (uint32_t w = 0; w < wave; w++)
        if (!tr__grow(ctx, (void **)&p->front->slots[w].vtx, &p->front->slots[w].vtx_cap, vtx_need, sizeof(float)) ||
            !tr__grow(ctx, (void **)&p->front->slots[w].vwin, &p->front->slots[w].vwin_cap, vwin_need, sizeof(tr__vwin)) ||
            !tr__grow(ctx, (void **)&p->front->slots[w].bins, &p->front->slots[w].bins_cap, bins_need, sizeof(uint32_t)) ||
            (threads > 1 && !tr__grow(ctx, (void **)&p->front->slots[w].sorted, &p->front->slots[w].sorted_cap,
                                      p->front->slots[w].bins_cap, sizeof(uint32_t)))) /* room for all of bins */
            return tr__pass_fail(ctx, fn);

    for (uint32_t inst = 0; inst < instance_count; inst++) {
        for (uint32_t vs = 0; vs < p->plan.view_count; vs++) {
            src.instance = inst;
            src.instance_index = first_instance + inst;
            src.view_index = p->plan.view_ids[vs];
            if (pd->topology == TR_TOPOLOGY_TRIANGLE_FAN) {
                tr_vs_batch batch;
                tr__vertex_shade(pl, &src, d->uniforms, d->spv, 0, 1, first_vtx, &batch, placed ? &place : NULL,
                                 &p->front->first_win);
            }
            const front_draw fc = {.p = p, .d = d, .draw_index = draw_index, .src = src, .first_vtx = first_vtx,
                                   .first_win = &p->front->first_win, .placed = placed, .place = place,
                                   .inst = inst, .view_slot = vs, .view = (uint16_t)p->plan.view_ids[vs],
                                   .gb_x = gb_x, .gb_y = gb_y, .stride = stride,
                                   .piece_room = TR_FRONT_PIECES * tri_bytes, .slot_room = slot_room};
            for (uint32_t c0 = 0; c0 < chunks; c0 += wave) {
                const uint32_t nc = TR_MIN(wave, chunks - c0);
                /* Each slot's arena gets room for the worst case first. */
                for (uint32_t w = 0; w < nc; w++)
                    if (!tr__arena_reserve(ctx, &p->front->slots[w].arena, slot_room))
                        return tr__pass_fail(ctx, fn);
                double t0 = tr__now_ms();
                /* Phase A: shade, clip and set up, chunks in parallel. */
#ifdef TILERAST_HAVE_OPENMP
#pragma omp parallel for schedule(dynamic, 1) num_threads((int)threads) if (threads > 1 && nc > 1)
#endif
                for (int w = 0; w < (int)nc; w++) {
                    tr__front_slot *sl = &p->front->slots[w];
                    const uint32_t p0 = (c0 + (uint32_t)w) * per_chunk, p1 = TR_MIN(prims, p0 + per_chunk);
                    sl->stop = front_chunk(ctx, &fc, sl, p0, p0, p1, true);
                    if (threads > 1 && !sl->deferred && sl->stop == p1)
                        sort_entries(p, sl);
                }
                double t1 = tr__now_ms();
                p->stats.ms_vertex += t1 - t0;
                /* Phase B: bin, in submission order. */
                bool serial = threads == 1;
                for (uint32_t w = 0; w < nc; w++) {
                    const tr__front_slot *sl = &p->front->slots[w];
                    if (sl->oom)
                        return tr__pass_fail(ctx, fn);
                    serial |= sl->deferred != 0 || sl->stop < TR_MIN(prims, (c0 + w + 1) * per_chunk);
                }
                if (serial) {
                    /* One thread, or (rare) triangles over many pipes or a
                     * chunk whose clipped pieces filled its slot: one after
                     * the other, each chunk finished here (submission
                     * order) before the next is binned. */
                    for (uint32_t w = 0; w < nc; w++) {
                        tr__front_slot *sl = &p->front->slots[w];
                        const uint32_t p0 = (c0 + w) * per_chunk, p1 = TR_MIN(prims, p0 + per_chunk);
                        for (;;) {
                            add_counts(&p->stats, &sl->counts);
                            if (!bin_triangles(ctx, p, sl, vs))
                                return tr__pass_fail(ctx, fn);
                            if (sl->stop == p1)
                                break;
                            if (!tr__arena_reserve(ctx, &sl->arena, fc.slot_room))
                                return tr__pass_fail(ctx, fn);
                            sl->stop = front_chunk(ctx, &fc, sl, p0, sl->stop, p1, false);
                            if (sl->oom)
                                return tr__pass_fail(ctx, fn);
                        }
                    }
                } else {
                    for (uint32_t w = 0; w < nc; w++)
                        add_counts(&p->stats, &p->front->slots[w].counts);
                    if (!bin_wave(ctx, p, nc, vs, threads))
                        return tr__pass_fail(ctx, fn);
                }
                p->stats.ms_binning += tr__now_ms() - t1;
            }
        }
    }
    return TR_OK;
}

