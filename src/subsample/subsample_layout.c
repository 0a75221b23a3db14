/* tilerast subsample stage: where each bin of an FDM pass is stored in a
 * subsampled image, and the metadata that finds it again
 * (include/tilerast/subsample.h states the rules).  The algorithm is
 * turnip's tu_calc_subsampled (tu_tile_config.cc): default rectangles, then
 * a FIFO worklist that resolves apron conflicts between neighbours by
 * shifting the right or lower bin or by storing both at full size; the
 * metadata is tu_emit_subsampled_metadata's.  Bins here are single bins
 * (turnip walks merged tiles the same way, with their extents). */
#include <stdlib.h>
#include <string.h>

#include "subsample/subsample_internal.h"

/* align_down(v, a) for v >= 0 */
static int32_t align_down(int32_t v, uint32_t a)
{
    return v / (int32_t)a * (int32_t)a;
}

static tr__tile *owner(tr__tile *tiles, uint32_t i)
{
    while (tiles[i].merged != TR__TILE_NONE)
        i = tiles[i].merged;
    return &tiles[i];
}

/* One axis of get_default_tile_pos for a tile at grid position pos of
 * extent ext (bins), fragment area f, bin offset bo: [start, end) in the
 * image; *pinned when it reaches the framebuffer's end (pinned to the
 * image's end, the size rounded up). */
static void default_span(const tr__subsampled_grid *g, int axis, int32_t pos, uint32_t ext, uint32_t f, int32_t bo,
                         int32_t *start, int32_t *end, bool *pinned)
{
    const int32_t tile0 = (int32_t)(axis ? g->bin.height : g->bin.width);
    const int32_t fb = (int32_t)(axis ? g->framebuffer.height : g->framebuffer.width);
    const uint32_t align = axis ? g->tile_align.height : g->tile_align.width;
    const int32_t fb_start = TR_MAX(pos * tile0 - bo, 0);
    const int32_t fb_end = (pos + (int32_t)ext) * tile0 - bo;
    *pinned = fb_end >= fb;
    if (*pinned) {
        *end = fb + (g->fdm_offset ? (int32_t)align : 0);
        *start = *end - (fb - fb_start + (int32_t)f - 1) / (int32_t)f;
    } else if (pos == 0) {
        *start = 0;
        *end = fb_end / (int32_t)f;
    } else {
        *start = pos * tile0 - align_down(bo, align);
        *end = *start + (int32_t)ext * tile0 / (int32_t)f;
    }
}

/* get_default_tile_pos: tile t's rectangle in view v at area f; sets the
 * tile's border flag when pinned on either axis. */
static tr_rect default_rect(const tr__subsampled_grid *g, tr__tile *t, tr__subsampled_tile *st, uint32_t v,
                            tr_extent2d f)
{
    int32_t x0, x1, y0, y1;
    bool px, py;
    default_span(g, 0, (int32_t)t->x, t->ew, f.width, g->bo[v][0], &x0, &x1, &px);
    default_span(g, 1, (int32_t)t->y, t->eh, f.height, g->bo[v][1], &y0, &y1, &py);
    st->border |= px || py;
    return (tr_rect){x0, y0, (uint32_t)(x1 - x0), (uint32_t)(y1 - y0)};
}

/* aprons_intersect: closer than 2 * TR_SUBSAMPLED_APRON on both axes. */
static bool aprons_intersect(const tr_rect *a, const tr_rect *b)
{
    const int64_t gap = 2 * TR_SUBSAMPLED_APRON;
    if ((int64_t)a->x + a->width + gap <= b->x || (int64_t)b->x + b->width + gap <= a->x)
        return false;
    if ((int64_t)a->y + a->height + gap <= b->y || (int64_t)b->y + b->height + gap <= a->y)
        return false;
    return true;
}

/* The worklist: a FIFO of tiles in which a tile is at most once (turnip's
 * u_worklist: pushing a queued tile does nothing). */
typedef struct worklist {
    uint32_t *ring;
    bool *queued;
    size_t n, head, count;
} worklist;

static void push(worklist *w, uint32_t b)
{
    if (w->queued[b])
        return;
    w->queued[b] = true;
    w->ring[(w->head + w->count++) % w->n] = b;
}

static uint32_t pop(worklist *w)
{
    const uint32_t b = w->ring[w->head];
    w->head = (w->head + 1) % w->n;
    w->count--;
    w->queued[b] = false;
    return b;
}

typedef struct layout_state {
    const tr__subsampled_grid *g;
    tr__tile *tiles;
    tr__subsampled_tile *out;
    worklist w;
} layout_state;

static uint32_t index_of(const layout_state *s, const tr__tile *t)
{
    return (uint32_t)(t - s->tiles);
}

/* make_non_subsampled: full size in view v, its 1 x 1 default rectangle
 * (which also undoes any shift). */
static void make_full(layout_state *s, tr__tile *t, uint32_t v)
{
    tr__subsampled_tile *st = &s->out[index_of(s, t)];
    st->views &= ~(1u << v);
    st->rect[v] = default_rect(s->g, t, st, v, (tr_extent2d){1, 1});
}

/* One conflict in view v between the popped tile and `other`, `later` the
 * right (lower) one of the two: shift it along `axis` if it is subsampled
 * and stays inside its own full-size rectangle, else store both at full
 * size. */
static void resolve(layout_state *s, tr__tile *tile, tr__tile *other, tr__tile *later, uint32_t v, int axis)
{
    const uint32_t bit = 1u << v;
    tr__subsampled_tile *sl = &s->out[index_of(s, later)];
    if (sl->views & bit) {
        tr__subsampled_tile scratch = *sl;
        const tr_rect full = default_rect(s->g, later, &scratch, v, (tr_extent2d){1, 1});
        const uint32_t align = axis ? s->g->tile_align.height : s->g->tile_align.width;
        const int64_t shift = TR_MAX(2 * TR_SUBSAMPLED_APRON, align);
        tr_rect *r = &sl->rect[v];
        const int64_t end = axis ? (int64_t)r->y + r->height : (int64_t)r->x + r->width;
        const int64_t full_end = axis ? (int64_t)full.y + full.height : (int64_t)full.x + full.width;
        if (end + shift <= full_end) {
            if (axis)
                r->y += (int32_t)shift;
            else
                r->x += (int32_t)shift;
            push(&s->w, index_of(s, later));
            return;
        }
    }
    if (s->out[index_of(s, tile)].views & bit) {
        make_full(s, tile, v);
        push(&s->w, index_of(s, tile));
    }
    if (s->out[index_of(s, other)].views & bit) {
        make_full(s, other, v);
        push(&s->w, index_of(s, other));
    }
}

/* The popped tile's neighbours on one axis (turnip's two passes): axis 0,
 * the columns left and right of it, rows pos.y - 1 .. pos.y + height
 * (diagonals included); axis 1, the rows above and below, columns pos.x -
 * 1 .. pos.x + width.  Merged neighbours are visited once each, through
 * their owner. */
static void check_neighbours(layout_state *s, tr__tile *tile, int axis)
{
    const tr__subsampled_grid *g = s->g;
    const int32_t nx = (int32_t)g->bins_x, ny = (int32_t)g->bins_y;
    const int32_t pos_a = axis ? (int32_t)tile->y : (int32_t)tile->x; /* along the neighbours' side */
    const int32_t ext_a = (int32_t)(axis ? tile->eh : tile->ew);
    const int32_t pos_b = axis ? (int32_t)tile->x : (int32_t)tile->y; /* along the shared edge */
    const int32_t ext_b = (int32_t)(axis ? tile->ew : tile->eh);
    const int32_t n_a = axis ? ny : nx, n_b = axis ? nx : ny;
    for (int i = 0; i < 2; i++) {
        const int32_t a = pos_a + (i == 0 ? -1 : ext_a);
        if (a < 0 || a >= n_a)
            continue;
        const int32_t b0 = TR_MAX(pos_b - 1, 0), b1 = TR_MIN(pos_b + ext_b, n_b - 1);
        for (int32_t b = b0; b <= b1;) {
            const uint32_t cell = axis ? (uint32_t)(a * nx + b) : (uint32_t)(b * nx + a);
            tr__tile *other = owner(s->tiles, cell);
            b = axis ? (int32_t)(other->x + other->ew) : (int32_t)(other->y + other->eh);
            const uint32_t common = tile->visible & other->visible;
            const uint32_t sub = s->out[index_of(s, tile)].views | s->out[index_of(s, other)].views;
            if (!common || !(sub & common))
                continue;
            tr__tile *first = i == 0 ? other : tile, *later = i == 0 ? tile : other;
            const uint32_t first_end = axis ? first->y + first->eh : first->x + first->ew;
            if ((axis ? later->y : later->x) < first_end)
                continue; /* a merged tile reaching past: the other pass's */
            for (uint32_t v = 0; v < g->views; v++) {
                const uint32_t bit = 1u << v;
                const uint32_t now = s->out[index_of(s, tile)].views | s->out[index_of(s, other)].views;
                if (!(common & bit) || !(now & bit))
                    continue;
                if (!aprons_intersect(&s->out[index_of(s, tile)].rect[v], &s->out[index_of(s, other)].rect[v]))
                    continue;
                resolve(s, tile, other, later, v, axis);
            }
        }
    }
}

size_t tr__subsampled_scratch_bytes(size_t n)
{
    return n * (sizeof(uint32_t) + sizeof(bool));
}

void tr__subsampled_layout(const tr__subsampled_grid *g, tr__tile *tiles, void *scratch, tr__subsampled_tile *out)
{
    const size_t n = (size_t)g->bins_x * g->bins_y;
    layout_state s = {g, tiles, out, {(uint32_t *)scratch, (bool *)((uint32_t *)scratch + n), n, 0, 0}};
    memset(s.w.queued, 0, n * sizeof(bool));
    memset(out, 0, n * sizeof *out);
    if (n > TR_SUBSAMPLED_MAX_BINS)
        return; /* nothing subsampled, nothing moved */
    /* seed: every visible owner tile, row-major */
    for (uint32_t i = 0; i < n; i++) {
        tr__tile *t = &tiles[i];
        if (!t->visible || t->merged != TR__TILE_NONE)
            continue;
        tr__subsampled_tile *st = &out[i];
        for (uint32_t v = 0; v < g->views; v++) {
            if (!(t->visible & (1u << v)))
                continue;
            st->rect[v] = default_rect(g, t, st, v, t->area[v]);
            if (t->area[v].width != 1 || t->area[v].height != 1)
                st->views |= 1u << v;
        }
        st->subsampled = true;
        push(&s.w, i);
    }
    while (s.w.count) {
        tr__tile *t = &tiles[pop(&s.w)];
        check_neighbours(&s, t, 0);
        check_neighbours(&s, t, 1);
    }
}

void tr__subsampled_metadata(const tr__subsampled_grid *g, tr__tile *tiles, const tr__subsampled_tile *st, uint32_t v,
                             tr_subsampled_header *h, tr_subsampled_bin *bins, size_t cap)
{
    const size_t n = (size_t)g->bins_x * g->bins_y;
    const uint32_t width0 = g->framebuffer.width + (g->fdm_offset ? g->tile_align.width : 0);
    const uint32_t height0 = g->framebuffer.height + (g->fdm_offset ? g->tile_align.height : 0);
    const float ratio_x = (float)g->framebuffer.width / (float)width0;
    const float ratio_y = (float)g->framebuffer.height / (float)height0;
    if (n > TR_SUBSAMPLED_MAX_BINS) {
        *h = (tr_subsampled_header){{1.0f, 1.0f}, {0.0f, 0.0f}, 1};
        for (size_t b = 0; b < TR_MIN(n, cap); b++) {
            memset(&bins[b], 0, sizeof bins[b]);
            bins[b].scale[0] = ratio_x;
            bins[b].scale[1] = ratio_y;
            bins[b].offset[0] = bins[b].offset[1] = 0.0f;
        }
        return;
    }
    h->scale[0] = (float)g->framebuffer.width / (float)g->bin.width;
    h->scale[1] = (float)g->framebuffer.height / (float)g->bin.height;
    h->offset[0] = (float)g->bo[v][0] / (float)g->bin.width;
    h->offset[1] = (float)g->bo[v][1] / (float)g->bin.height;
    h->bin_stride = g->bins_x;
    for (size_t b = 0; b < n; b++) {
        const tr__tile *t = owner(tiles, (uint32_t)b);
        const tr__subsampled_tile *o = &st[t - tiles];
        tr_subsampled_bin *m = &bins[b];
        m->rect = o->subsampled && (t->visible & (1u << v)) ? o->rect[v] : (tr_rect){0, 0, 0, 0};
        m->subsampled = (o->views & (1u << v)) != 0;
        m->border = o->border;
        if (!(t->visible & (1u << v)) || !o->subsampled) {
            m->scale[0] = m->scale[1] = 1.0f;
            m->offset[0] = m->offset[1] = 0.0f;
            continue;
        }
        const tr_extent2d f = o->views & (1u << v) ? t->area[v] : (tr_extent2d){1, 1};
        const int32_t sx = TR_MAX((int32_t)(t->x * g->bin.width) - g->bo[v][0], 0);
        const int32_t sy = TR_MAX((int32_t)(t->y * g->bin.height) - g->bo[v][1], 0);
        /* turnip: 1.0 / frag * ratio in double, stored as float; the
         * offset's numerator in integers, then divided in float */
        m->scale[0] = (float)(1.0 / f.width * ratio_x);
        m->scale[1] = (float)(1.0 / f.height * ratio_y);
        m->offset[0] = (float)(o->rect[v].x - sx / (int32_t)f.width) / (float)width0;
        m->offset[1] = (float)(o->rect[v].y - sy / (int32_t)f.height) / (float)height0;
    }
}

static bool valid_area(tr_extent2d a, tr_extent2d bin)
{
    if (a.width == 0 && a.height == 0)
        return true;
    return (a.width == 1 || a.width == 2 || a.width == 4) && (a.height == 1 || a.height == 2 || a.height == 4) &&
           bin.width % a.width == 0 && bin.height % a.height == 0;
}

tr_result tr_compute_subsampled_layout(const tr_subsampled_layout_desc *desc, tr_subsampled_header *header,
                                       tr_subsampled_bin *bins)
{
    tr__api_enter(NULL);
    const char *fn = "tr_compute_subsampled_layout";
    if (!desc || !header || !bins || !desc->areas)
        return tr__error(NULL, TR_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", fn,
                         !desc ? "desc" : !header ? "header" : !bins ? "bins" : "desc->areas");
    const tr_subsampled_layout_desc *d = desc;
    if (!d->framebuffer.width || !d->framebuffer.height || d->framebuffer.width > TR_MAX_IMAGE_SIZE ||
        d->framebuffer.height > TR_MAX_IMAGE_SIZE || !d->bin.width || !d->bin.height ||
        d->bin.width > TR_MAX_IMAGE_SIZE || d->bin.height > TR_MAX_IMAGE_SIZE || !d->tile_align.width ||
        !d->tile_align.height || d->tile_align.width > TR_MAX_IMAGE_SIZE || d->tile_align.height > TR_MAX_IMAGE_SIZE)
        return tr__error(NULL, TR_ERROR_INVALID_DESCRIPTOR,
                         "%s: tr_subsampled_layout_desc.framebuffer = %ux%u / bin = %ux%u / tile_align = %ux%u: each "
                         "must be 1..%u", fn, d->framebuffer.width, d->framebuffer.height, d->bin.width, d->bin.height,
                         d->tile_align.width, d->tile_align.height, TR_MAX_IMAGE_SIZE);
    /* the grid covers the framebuffer (with b_o) and has at most the one
     * extra column and row FDM offsets add */
    const uint64_t need_x = ((uint64_t)d->framebuffer.width + d->bin.width - 1) / d->bin.width;
    const uint64_t need_y = ((uint64_t)d->framebuffer.height + d->bin.height - 1) / d->bin.height;
    if (d->bins_x < need_x || d->bins_y < need_y || d->bins_x > need_x + 1 || d->bins_y > need_y + 1)
        return tr__error(NULL, TR_ERROR_INVALID_DESCRIPTOR,
                         "%s: tr_subsampled_layout_desc.bins_x/bins_y = %ux%u: the framebuffer needs %llux%llu "
                         "(one more each with FDM offsets)", fn, d->bins_x, d->bins_y, (unsigned long long)need_x,
                         (unsigned long long)need_y);
    if (d->bin_offset.x < 0 || (uint32_t)d->bin_offset.x >= d->bin.width || d->bin_offset.y < 0 ||
        (uint32_t)d->bin_offset.y >= d->bin.height || (!d->fdm_offset && (d->bin_offset.x || d->bin_offset.y)))
        return tr__error(NULL, TR_ERROR_INVALID_DESCRIPTOR,
                         "%s: tr_subsampled_layout_desc.bin_offset = (%d, %d): must lie in the bin, and be (0, 0) "
                         "without fdm_offset", fn, d->bin_offset.x, d->bin_offset.y);
    const size_t n = (size_t)d->bins_x * d->bins_y;
    for (size_t b = 0; b < n; b++)
        if (!valid_area(d->areas[b], d->bin))
            return tr__error(NULL, TR_ERROR_INVALID_DESCRIPTOR,
                             "%s: tr_subsampled_layout_desc.areas[%zu] = %ux%u: each side must be 1, 2 or 4 and "
                             "divide the bin (0x0: invisible)", fn, b, d->areas[b].width, d->areas[b].height);
    tr__tile *tiles = malloc(n * sizeof *tiles);
    tr__subsampled_tile *st = malloc(n * sizeof *st);
    void *scratch = malloc(tr__subsampled_scratch_bytes(n));
    tr_result r = TR_OK;
    if (!tiles || !st || !scratch) {
        r = tr__error(NULL, TR_ERROR_OUT_OF_MEMORY, "%s: out of memory for %zu bins", fn, n);
    } else {
        tr__subsampled_grid g = {d->framebuffer, d->bin, d->tile_align, d->bins_x, d->bins_y, 1, {{0, 0}},
                                 d->fdm_offset};
        g.bo[0][0] = d->bin_offset.x;
        g.bo[0][1] = d->bin_offset.y;
        /* one view, every bin a tile of its own (tr__bin_tiles_init's
         * rules: a bin shifted wholly past the framebuffer is invisible) */
        for (uint32_t b = 0; b < n; b++) {
            const uint32_t bx = b % d->bins_x, by = b / d->bins_x;
            tr__tile *t = &tiles[b];
            memset(t, 0, sizeof *t);
            t->x = bx;
            t->y = by;
            t->ew = t->eh = t->gmem_h = 1;
            t->merged = TR__TILE_NONE;
            t->area[0] = d->areas[b];
            const bool inside = (int64_t)bx * d->bin.width - d->bin_offset.x < d->framebuffer.width &&
                                (int64_t)by * d->bin.height - d->bin_offset.y < d->framebuffer.height;
            t->visible = inside && d->areas[b].width ? 1u : 0u;
        }
        tr__subsampled_layout(&g, tiles, scratch, st);
        tr__subsampled_metadata(&g, tiles, st, 0, header, bins, n);
        for (uint32_t b = 0; b < n; b++) {
            tr_subsampled_bin *o = &bins[b];
            o->subsampled = (st[b].views & 1u) != 0;
            o->border = st[b].border;
            o->rect = st[b].subsampled ? st[b].rect[0] : (tr_rect){0, 0, 0, 0};
            if (n > TR_SUBSAMPLED_MAX_BINS && tiles[b].visible) {
                /* stored where the framebuffer has it, at full size */
                const int32_t x0 = TR_MAX((int32_t)(tiles[b].x * d->bin.width) - d->bin_offset.x, 0);
                const int32_t y0 = TR_MAX((int32_t)(tiles[b].y * d->bin.height) - d->bin_offset.y, 0);
                const int32_t x1 = TR_MIN((int32_t)((tiles[b].x + 1) * d->bin.width) - d->bin_offset.x,
                                          (int32_t)d->framebuffer.width);
                const int32_t y1 = TR_MIN((int32_t)((tiles[b].y + 1) * d->bin.height) - d->bin_offset.y,
                                          (int32_t)d->framebuffer.height);
                o->rect = (tr_rect){x0, y0, (uint32_t)TR_MAX(x1 - x0, 0), (uint32_t)TR_MAX(y1 - y0, 0)};
            }
        }
    }
    free(tiles);
    free(st);
    free(scratch);
    return r;
}

void tr__subsampled_meta_identity(tr__subsampled_meta *m)
{
    memset(m, 0, sizeof *m);
    m->header = (tr_subsampled_header){{1.0f, 1.0f}, {0.0f, 0.0f}, 1};
    m->bin_count = 1;
    m->bins[0].scale[0] = m->bins[0].scale[1] = 1.0f;
}

tr__subsampled_meta *tr__subsampled_meta_create(tr_context *ctx, uint32_t layers)
{
    tr__subsampled_meta *m = tr__alloc(ctx, layers * sizeof *m);
    if (m)
        for (uint32_t l = 0; l < layers; l++)
            tr__subsampled_meta_identity(&m[l]);
    return m;
}
