/* tilerast subsample stage: the aprons of a subsampled image (turnip's
 * tu_calc_subsampled_aprons and tu_blit_subsampled_apron).  After a pass
 * stored its tiles, each pair of neighbouring tiles whose rectangles do not
 * touch gets, on each side, a strip of TR_SUBSAMPLED_APRON pixels copied
 * from the other tile's edge (scaled by the ratio of their areas), so that
 * bilinear sampling near a tile's edge reads its neighbour's content.  A
 * strip is extended by the apron at an end where the neighbour continues
 * past the shared edge (the corners).  Nothing is copied past the last
 * column or row: there the tiles are pinned to the image's edge. */
#include "subsample/subsample_internal.h"

static const tr__tile *owner_of(const tr__tile *tiles, uint32_t i)
{
    while (tiles[i].merged != TR__TILE_NONE)
        i = tiles[i].merged;
    return &tiles[i];
}

/* get_effective_frag_area: the area where the view is stored reduced. */
static tr_extent2d eff(const tr__tile *t, const tr__subsampled_tile *st, uint32_t v)
{
    return st->views & (1u << v) ? t->area[v] : (tr_extent2d){1, 1};
}

/* calc_tile_vert_pos (axis 1) / calc_tile_horiz_pos (axis 0): the image
 * coordinate of the tile's edge `k` bins into it along the axis. */
static int32_t tile_pos(const tr__subsampled_grid *g, const tr__tile *t, const tr__subsampled_tile *st, uint32_t v,
                        int axis, int32_t k)
{
    const int32_t tile0 = (int32_t)(axis ? g->bin.height : g->bin.width);
    const int32_t pos = (int32_t)(axis ? t->y : t->x);
    int32_t px = 0;
    if (pos == 0 && k > 0) { /* the first row or column is short by b_o */
        px += tile0 - g->bo[v][axis];
        k--;
    }
    px += tile0 * k;
    const tr_rect *r = &st->rect[v];
    const int32_t start = axis ? r->y : r->x, size = (int32_t)(axis ? r->height : r->width);
    const tr_extent2d f = eff(t, st, v);
    const int32_t p = start + px / (int32_t)(axis ? f.height : f.width);
    return TR_MIN(p, start + size);
}

/* calc_shared_*_edge: where the edge tile shares with other runs, in tile's
 * image coordinates along `axis`. */
static void shared_edge(const tr__subsampled_grid *g, const tr__tile *t, const tr__subsampled_tile *st,
                        const tr__tile *o, uint32_t v, int axis, int32_t *s, int32_t *e)
{
    const int32_t tp = (int32_t)(axis ? t->y : t->x), op = (int32_t)(axis ? o->y : o->x);
    const int32_t te = tp + (int32_t)(axis ? t->eh : t->ew), oe = op + (int32_t)(axis ? o->eh : o->ew);
    *s = tile_pos(g, t, st, v, axis, TR_MAX(op - tp, 0));
    *e = tile_pos(g, t, st, v, axis, TR_MIN(te, oe) - tp);
}

/* handle_*_corners: extend the strip by the apron at an end where the
 * source tile continues past the shared edge.  axis: the strip's long axis
 * (1: a vertical strip). */
static void corners(const tr__tile *dt, const tr__subsampled_tile *dst_st, const tr__tile *sti,
                    const tr__subsampled_tile *src_st, uint32_t v, int axis, tr__apron_copy *c)
{
    const tr_extent2d df = eff(dt, dst_st, v), sf = eff(sti, src_st, v);
    const float ext = (float)TR_SUBSAMPLED_APRON * (float)(axis ? df.height : df.width) /
                      (float)(axis ? sf.height : sf.width);
    const tr_rect *sr = &src_st->rect[v];
    const uint32_t s_start = (uint32_t)(axis ? sr->y : sr->x), s_size = axis ? sr->height : sr->width;
    float *lo = axis ? &c->src[1] : &c->src[0], *hi = axis ? &c->src[3] : &c->src[2];
    int32_t *d_pos = axis ? &c->dst[1] : &c->dst[0], *d_size = axis ? &c->dst[3] : &c->dst[2];
    if ((uint32_t)*lo > s_start) {
        *d_pos -= (int32_t)TR_SUBSAMPLED_APRON;
        *d_size += (int32_t)TR_SUBSAMPLED_APRON;
        *lo -= ext;
    }
    if ((uint32_t)*hi < s_start + s_size) {
        *d_size += (int32_t)TR_SUBSAMPLED_APRON;
        *hi += ext;
    }
}

/* The two strips between tile t and its neighbour o (o right of t when
 * axis is 0, below it when 1). */
static size_t pair(const tr__subsampled_grid *g, const tr__tile *t, const tr__subsampled_tile *ts, const tr__tile *o,
                   const tr__subsampled_tile *os, uint32_t v, int axis, tr__apron_copy *out)
{
    const int edge = 1 - axis; /* the shared edge runs along the other axis */
    int32_t t0, t1, o0, o1;
    shared_edge(g, t, ts, o, v, edge, &t0, &t1);
    shared_edge(g, o, os, t, v, edge, &o0, &o1);
    const tr_extent2d tf = eff(t, ts, v), of = eff(o, os, v);
    const tr_rect *tr = &ts->rect[v], *orr = &os->rect[v];
    const float a = (float)TR_SUBSAMPLED_APRON;
    /* (1) t's apron beyond its far edge, from o's near edge */
    tr__apron_copy c1, c2;
    if (axis == 0) {
        c1 = (tr__apron_copy){{tr->x + (int32_t)tr->width, t0, (int32_t)TR_SUBSAMPLED_APRON, t1 - t0},
                              {(float)orr->x, (float)o0, (float)orr->x + a * (float)tf.width / (float)of.width,
                               (float)o1}};
        c2 = (tr__apron_copy){{orr->x - (int32_t)TR_SUBSAMPLED_APRON, o0, (int32_t)TR_SUBSAMPLED_APRON, o1 - o0},
                              {(float)(tr->x + (int32_t)tr->width) - a * (float)of.width / (float)tf.width, (float)t0,
                               (float)(tr->x + (int32_t)tr->width), (float)t1}};
    } else {
        c1 = (tr__apron_copy){{t0, tr->y + (int32_t)tr->height, t1 - t0, (int32_t)TR_SUBSAMPLED_APRON},
                              {(float)o0, (float)orr->y, (float)o1,
                               (float)orr->y + a * (float)tf.height / (float)of.height}};
        c2 = (tr__apron_copy){{o0, orr->y - (int32_t)TR_SUBSAMPLED_APRON, o1 - o0, (int32_t)TR_SUBSAMPLED_APRON},
                              {(float)t0, (float)(tr->y + (int32_t)tr->height) - a * (float)of.height / (float)tf.height,
                               (float)t1, (float)(tr->y + (int32_t)tr->height)}};
    }
    corners(t, ts, o, os, v, edge, &c1);
    corners(o, os, t, ts, v, edge, &c2);
    out[0] = c1;
    out[1] = c2;
    return 2;
}

size_t tr__subsampled_aprons(const tr__subsampled_grid *g, const tr__tile *tiles, const tr__subsampled_tile *st,
                             uint32_t v, tr__apron_copy *out)
{
    const uint32_t nx = g->bins_x, ny = g->bins_y, bit = 1u << v;
    size_t n = 0;
    if ((size_t)nx * ny > TR_SUBSAMPLED_MAX_BINS)
        return 0;
    for (uint32_t i = 0; i < nx * ny; i++) {
        const tr__tile *t = &tiles[i];
        if (t->merged != TR__TILE_NONE || !(t->visible & bit) || !st[i].subsampled)
            continue;
        const tr_rect *tr = &st[i].rect[v];
        /* right neighbours: rows y - 1 .. y + height (diagonals) */
        const uint32_t xn = t->x + t->ew;
        if (xn < nx)
            for (int32_t y = TR_MAX((int32_t)t->y - 1, 0); y <= (int32_t)TR_MIN(t->y + t->eh, ny - 1);) {
                const tr__tile *o = owner_of(tiles, (uint32_t)y * nx + xn);
                y = (int32_t)(o->y + o->eh);
                const tr__subsampled_tile *os = &st[o - tiles];
                if (!(o->visible & bit) || !os->subsampled)
                    continue;
                if (tr->x + (int32_t)tr->width == os->rect[v].x) /* touching: nothing between */
                    continue;
                if (o->x < t->x + t->ew)
                    continue;
                n += pair(g, t, &st[i], o, os, v, 0, out + n);
            }
        /* bottom neighbours: the columns directly below */
        const uint32_t yn = t->y + t->eh;
        if (yn < ny)
            for (uint32_t x = t->x; x < t->x + t->ew;) {
                const tr__tile *o = owner_of(tiles, yn * nx + x);
                x = o->x + o->ew;
                const tr__subsampled_tile *os = &st[o - tiles];
                if (!(o->visible & bit) || !os->subsampled)
                    continue;
                if (tr->y + (int32_t)tr->height == os->rect[v].y)
                    continue;
                if (o->y < t->y + t->eh)
                    continue;
                n += pair(g, t, &st[i], o, os, v, 1, out + n);
            }
    }
    return n;
}

void tr__subsampled_copy_aprons(tr_image *img, uint32_t layer, const tr__apron_copy *c, size_t n)
{
    const uint32_t w = tr__image_stored_w(img, 0), h = tr__image_stored_h(img, 0), cpp = img->fmt->texel;
    for (size_t k = 0; k < n; k++) {
        const int32_t *d = c[k].dst;
        if (d[2] <= 0 || d[3] <= 0)
            continue;
        const float sx = (c[k].src[2] - c[k].src[0]) / (float)d[2], sy = (c[k].src[3] - c[k].src[1]) / (float)d[3];
        for (int32_t y = 0; y < d[3]; y++) {
            const int32_t dy = d[1] + y;
            if (dy < 0 || dy >= (int32_t)h)
                continue;
            /* NEAREST at the strip pixel's centre, clamped to the image */
            const float fy = c[k].src[1] + ((float)y + 0.5f) * sy;
            const int32_t ty = TR_MIN(TR_MAX((int32_t)floorf(fy), 0), (int32_t)h - 1);
            for (int32_t x = 0; x < d[2]; x++) {
                const int32_t dx = d[0] + x;
                if (dx < 0 || dx >= (int32_t)w)
                    continue;
                const float fx = c[k].src[0] + ((float)x + 0.5f) * sx;
                const int32_t tx = TR_MIN(TR_MAX((int32_t)floorf(fx), 0), (int32_t)w - 1);
                memmove(img->data + tr__image_texel_index(img, 0, layer, (uint32_t)dx, (uint32_t)dy) * cpp,
                        img->data + tr__image_texel_index(img, 0, layer, (uint32_t)tx, (uint32_t)ty) * cpp, cpp);
            }
        }
    }
}
