/* tilerast raster stage: set-up of lines and points (pipeline.h, "lines
 * and points").
 *
 * Both become set-up triangles, so binning, LRZ, the tile raster and the
 * fragment shader treat them as they treat triangles.  A rectangular line
 * or a point is a quad whose corners lie on the subpixel grid, split along
 * a diagonal into two triangles (the fill rule owns each pixel centre of
 * the diagonal once).  A Bresenham line is one "triangle" whose edges are
 * the strip's two long sides and an edge that holds everywhere; its ends
 * are the exact column (or row) range of the diamond-exit rule, kept in
 * its box, which the tile raster then cuts to (TR__TRI_BOX_CLIP).
 *
 * Interpolation does not follow the quad: vertex 0 of the planes is the
 * line's first endpoint, l1 is t, the projection of the pixel centre on the
 * segment, and l2 is 0, so attributes, 1/w and depth vary along the line
 * only.  A point's l1, l2 are the position in its square (0..1), which is
 * also its point coordinate; its attributes are constant. */
#include <math.h>
#include <stdlib.h>

#include "raster/raster_internal.h"
#include "vertex/vertex_internal.h"

/* Room for a proto triangle of any draw (its planes, before its edges). */
#define PROTO_BYTES (sizeof(tr__tri) + sizeof(float) * TR_TRI_ATTR_FLOATS(TR_MAX_VARYINGS) + 16)

/* Where set-up puts its pieces: allocated from an arena (the front end),
 * or into a tile worker's scratch triangles (a pass with a density map
 * sets a line or point up again in every bin: tr__raster_setup_prim_again). */
typedef struct piece_sink {
    tr_context *ctx;
    tr__arena *arena;
    tr__tri *const *into;  /* [2], or NULL: allocate */
} piece_sink;

/* Piece k: a copy of the proto's planes, facing front. */
static tr__tri *new_piece(const piece_sink *sink, int k, const tr__draw *draw, uint32_t draw_index,
                          const tr__tri *proto, uint8_t flags)
{
    const size_t bytes = tr__tri_bytes(draw->pipeline->desc.varying_count);
    tr__tri *t = sink->into ? sink->into[k] : tr__arena_alloc(sink->ctx, sink->arena, bytes);
    if (!t)
        return NULL;
    memcpy(t, proto, bytes);
    t->draw = draw_index;
    t->front_facing = 1;
    t->flags = (uint8_t)(flags | (draw->samples > 1 ? TR__TRI_SAMPLES : 0));
    return t;
}

/* The box cut to the draw's scissor; false when nothing is left. */
static bool cut_box(const tr__draw *draw, const int64_t box[4], tr__tri *t)
{
    int64_t b[4] = {TR_MAX(box[0], draw->scissor[0]), TR_MAX(box[1], draw->scissor[1]),
                    TR_MIN(box[2], draw->scissor[2]), TR_MIN(box[3], draw->scissor[3])};
    if (b[0] >= b[2] || b[1] >= b[3])
        return false;
    for (int i = 0; i < 4; i++)
        t->bbox[i] = (int32_t)b[i];
    return true;
}

/* The attribute block of a line: planes along t from vertex a (values
 * va, window wa) to vertex b; l2's column is 0. */
static void line_planes(tr__tri *t, uint32_t nv, const double wa[4], const double wb[4], const float *va,
                        const float *vb)
{
    float *at = t->attr;
    const float z0 = (float)wa[2], z1 = (float)wb[2], q0 = (float)wa[3], q1 = (float)wb[3];
    at[0] = z0;
    at[1] = z1 - z0;
    at[2] = 0.0f;
    at[3] = q0;
    at[4] = q1 - q0;
    at[5] = 0.0f;
    at[6] = q1;
    at[7] = q0;
    for (uint32_t c = 0; c < 4 * nv; c++) {
        float *p = at + 8 + 3 * c;
        p[0] = va[4 + c];
        p[1] = vb[4 + c] - va[4 + c];
        p[2] = 0.0f;
    }
}

/* Two triangles of the quad q[0..3] (corners in order around it), which
 * share everything but their edges and boxes; out[*made] on. */
static tr__setup_status quad_tris(const piece_sink *sink, const tr__draw *draw, uint32_t draw_index,
                                  const tr__tri *proto, const int64_t qx[4], const int64_t qy[4], uint8_t flags,
                                  tr__tri *out[2], int *made)
{
    const tr_pipeline_desc *pd = &draw->pipeline->desc;
    /* positive twice-area: the order the edges want, else reversed */
    const int64_t area = (qx[1] - qx[0]) * (qy[2] - qy[0]) - (qx[2] - qx[0]) * (qy[1] - qy[0]);
    const int o[4] = {0, area > 0 ? 1 : 3, 2, area > 0 ? 3 : 1};
    for (int half = 0; half < 2; half++) {
        const int v[3] = {o[0], o[1 + half], o[2 + half]};
        const int64_t x[3] = {qx[v[0]], qx[v[1]], qx[v[2]]}, y[3] = {qy[v[0]], qy[v[1]], qy[v[2]]};
        int64_t box[4];
        tr__setup_pixel_box(TR_MIN(x[0], TR_MIN(x[1], x[2])), TR_MIN(y[0], TR_MIN(y[1], y[2])),
                            TR_MAX(x[0], TR_MAX(x[1], x[2])), TR_MAX(y[0], TR_MAX(y[1], y[2])), draw->samples > 1,
                            box);
        tr__tri *t = new_piece(sink, *made, draw, draw_index, proto, flags);
        if (!t)
            return TR__SETUP_OOM;
        if (!cut_box(draw, box, t))
            continue; /* (the arena keeps the bytes: a pass's arena is freed whole) */
        for (int k = 0; k < 3; k++)
            tr__setup_edge(t, k, x[(k + 1) % 3], y[(k + 1) % 3], x[(k + 2) % 3], y[(k + 2) % 3], pd->tie_rule);
        out[(*made)++] = t;
    }
    return TR__SETUP_OK;
}

/* Is (X, Y) strictly inside the diamond |x - x_c| + |y - y_c| < 1/2 of the
 * pixel it lies in? */
static bool in_diamond(int64_t X, int64_t Y)
{
    const int64_t cx = tr__floor_div_subpixel(X) * TR_SUBPIXEL_ONE + TR_SUBPIXEL_HALF;
    const int64_t cy = tr__floor_div_subpixel(Y) * TR_SUBPIXEL_ONE + TR_SUBPIXEL_HALF;
    return llabs(X - cx) + llabs(Y - cy) < TR_SUBPIXEL_HALF;
}

/* The diamond-exit rule's pixel range along the major axis, for a segment
 * from a to b along it (1/256 pixel): [*lo, *hi) (pipeline.h). */
static void diamond_exit_range(int64_t a, int64_t b, bool a_inside, bool b_inside, int64_t *lo, int64_t *hi)
{
    const int64_t mn = TR_MIN(a, b), mx = TR_MAX(a, b);
    /* pixels whose centre lies on [mn, mx] */
    int64_t k0 = -tr__floor_div_subpixel(-(mn - TR_SUBPIXEL_HALF)), k1 = tr__floor_div_subpixel(mx - TR_SUBPIXEL_HALF);
    const int64_t ka = tr__floor_div_subpixel(a), kb = tr__floor_div_subpixel(b);
    if (a_inside) {
        k0 = TR_MIN(k0, ka);
        k1 = TR_MAX(k1, ka);
    }
    if (b_inside) {
        if (b >= a && k1 == kb)
            k1--;
        else if (b < a && k0 == kb)
            k0++;
    }
    *lo = k0;
    *hi = k1 + 1;
}

static tr__setup_status setup_line(const piece_sink *sink, const tr__draw *draw, uint32_t draw_index,
                                   const float *const v[2], const double *const exact_pos[2], tr__tri *out[2],
                                   int *made)
{
    const tr_pipeline_desc *pd = &draw->pipeline->desc;
    *made = 0;
    double wa[4], wb[4];
    int32_t xa, ya, xb, yb;
    if (!tr__raster_snap_vertex(draw, v[0], exact_pos[0], wa, &xa, &ya) ||
        !tr__raster_snap_vertex(draw, v[1], exact_pos[1], wb, &xb, &yb))
        return TR__SETUP_CULLED;
    const int64_t dx = (int64_t)xb - xa, dy = (int64_t)yb - ya;
    if (dx == 0 && dy == 0)
        return TR__SETUP_CULLED; /* no direction: Vulkan leaves it open; nothing, as llvmpipe */

    /* The planes, shared by the pieces: t = ((p - a) . (b - a)) / |b - a|^2. */
    _Alignas(16) unsigned char proto_bytes[PROTO_BYTES];
    tr__tri *proto = (tr__tri *)(void *)proto_bytes;
    const double len2 = (double)dx * (double)dx + (double)dy * (double)dy;
    proto->x0 = xa;
    proto->y0 = ya;
    proto->l1_a = (float)((double)dx / len2);
    proto->l1_b = (float)((double)dy / len2);
    proto->l2_a = proto->l2_b = 0.0f;
    proto->instance = proto->primitive = 0;
    proto->view = 0;
    line_planes(proto, pd->varying_count, wa, wb, v[0], v[1]);

    if (pd->line_mode == TR_LINE_RECTANGULAR) {
        /* half the width across the line, snapped: corners on the grid */
        const double s = (double)pd->line_width * 0.5 * TR_SUBPIXEL_ONE / sqrt(len2);
        const int64_t tx = (int64_t)floor(-(double)dy * s + 0.5), ty = (int64_t)floor((double)dx * s + 0.5);
        const int64_t qx[4] = {xa - tx, xb - tx, xb + tx, xa + tx}, qy[4] = {ya - ty, yb - ty, yb + ty, ya + ty};
        tr__setup_status st = quad_tris(sink, draw, draw_index, proto, qx, qy, 0, out, made);
        return st != TR__SETUP_OK ? st : *made ? TR__SETUP_OK : TR__SETUP_CULLED;
    }

    /* Bresenham: the strip of the rounded width across the major axis,
     * ends from the diamond-exit rule. */
    const bool xmajor = llabs(dx) >= llabs(dy);
    const int64_t h = (int64_t)floor((double)pd->line_width + 0.5) * TR_SUBPIXEL_HALF;
    const int64_t ox = xmajor ? 0 : h, oy = xmajor ? h : 0;
    const int64_t px[4] = {xa - ox, xb - ox, xb + ox, xa + ox}, py[4] = {ya - oy, yb - oy, yb + oy, ya + oy};
    const bool a_in = in_diamond(xa, ya), b_in = in_diamond(xb, yb);
    int64_t lo, hi;
    diamond_exit_range(xmajor ? xa : ya, xmajor ? xb : yb, a_in, b_in, &lo, &hi);
    if (lo >= hi)
        return TR__SETUP_CULLED;
    /* across: every pixel the strip can reach over that range (the edges
     * decide): the ends' extents and a pixel more each way, as the range
     * reaches at most a pixel past an end and the slope is at most 1 */
    const int64_t c0 = xmajor ? TR_MIN(ya, yb) : TR_MIN(xa, xb), c1 = xmajor ? TR_MAX(ya, yb) : TR_MAX(xa, xb);
    const int64_t across0 = tr__floor_div_subpixel(c0 - h) - 1, across1 = tr__floor_div_subpixel(c1 + h) + 2;
    const int64_t box[4] = {xmajor ? lo : across0, xmajor ? across0 : lo, xmajor ? hi : across1,
                            xmajor ? across1 : hi};
    tr__tri *t = new_piece(sink, 0, draw, draw_index, proto, TR__TRI_BOX_CLIP);
    if (!t)
        return TR__SETUP_OOM;
    if (!cut_box(draw, box, t))
        return TR__SETUP_CULLED;
    /* the long sides, each positive toward the other */
    const int64_t area = (px[1] - px[0]) * (py[2] - py[0]) - (px[2] - px[0]) * (py[1] - py[0]);
    if (area > 0) {
        tr__setup_edge(t, 0, px[0], py[0], px[1], py[1], pd->tie_rule);
        tr__setup_edge(t, 1, px[2], py[2], px[3], py[3], pd->tie_rule);
    } else {
        tr__setup_edge(t, 0, px[1], py[1], px[0], py[0], pd->tie_rule);
        tr__setup_edge(t, 1, px[3], py[3], px[2], py[2], pd->tie_rule);
    }
    t->edge_a[2] = t->edge_b[2] = 0;
    t->edge_c[2] = 0; /* holds everywhere */
    out[(*made)++] = t;
    return TR__SETUP_OK;
}

static tr__setup_status setup_point(const piece_sink *sink, const tr__draw *draw, uint32_t draw_index,
                                    const float *v, float size, tr__tri *out[2], int *made)
{
    const tr_pipeline_desc *pd = &draw->pipeline->desc;
    *made = 0;
    double w[4];
    int32_t x, y;
    if (!tr__raster_snap_vertex(draw, v, NULL, w, &x, &y))
        return TR__SETUP_CULLED;
    /* half the side in 1/256 pixel, rounded (exact for integer sizes) */
    const int64_t hs = (int64_t)floor((double)size * TR_SUBPIXEL_HALF + 0.5);
    const int64_t qx[4] = {x - hs, x + hs, x + hs, x - hs}, qy[4] = {y - hs, y - hs, y + hs, y + hs};
    _Alignas(16) unsigned char proto_bytes[PROTO_BYTES];
    tr__tri *proto = (tr__tri *)(void *)proto_bytes;
    /* l1, l2: the position in the square, from its top-left corner */
    const float inv = (float)(1.0 / (double)(2 * hs));
    proto->x0 = (int32_t)qx[0];
    proto->y0 = (int32_t)qy[0];
    proto->l1_a = inv;
    proto->l1_b = 0.0f;
    proto->l2_a = 0.0f;
    proto->l2_b = inv;
    proto->instance = proto->primitive = 0;
    proto->view = 0;
    line_planes(proto, pd->varying_count, w, w, v, v);
    tr__setup_status st = quad_tris(sink, draw, draw_index, proto, qx, qy, TR__TRI_POINT, out, made);
    return st != TR__SETUP_OK ? st : *made ? TR__SETUP_OK : TR__SETUP_CULLED;
}

tr__setup_status tr__raster_setup_line(tr_context *ctx, tr__arena *arena, const tr__draw *draw, uint32_t draw_index,
                                       const float *const v[2], const double *const exact_pos[2], tr__tri *out[2],
                                       int *made)
{
    const piece_sink sink = {ctx, arena, NULL};
    return setup_line(&sink, draw, draw_index, v, exact_pos, out, made);
}

tr__setup_status tr__raster_setup_point(tr_context *ctx, tr__arena *arena, const tr__draw *draw, uint32_t draw_index,
                                        const float *v, float size, tr__tri *out[2], int *made)
{
    const piece_sink sink = {ctx, arena, NULL};
    return setup_point(&sink, draw, draw_index, v, size, out, made);
}

/* ---- passes with a density map -------------------------------------------------------------- */

tr__setup_status tr__raster_setup_prim_proxy(tr_context *ctx, tr__arena *arena, const tr__draw *draw,
                                             uint32_t draw_index, const float *const v[2],
                                             const double *const exact_pos[2], tr__tri **out)
{
    const tr_pipeline_desc *pd = &draw->pipeline->desc;
    const uint32_t nv = pd->varying_count, stride = tr__vertex_stride(pd);
    const bool point = pd->topology == TR_TOPOLOGY_POINT_LIST;
    const int n = point ? 1 : 2;
    /* the vertices' box at full scale */
    int64_t mn[2] = {INT64_MAX, INT64_MAX}, mx[2] = {INT64_MIN, INT64_MIN};
    for (int i = 0; i < n; i++) {
        double w[4];
        int32_t x, y;
        if (!tr__raster_snap_vertex(draw, v[i], exact_pos[i], w, &x, &y))
            return TR__SETUP_CULLED;
        mn[0] = TR_MIN(mn[0], x), mn[1] = TR_MIN(mn[1], y);
        mx[0] = TR_MAX(mx[0], x), mx[1] = TR_MAX(mx[1], y);
    }
    /* A bin of fragment area f draws the width (or size) in its own
     * pixels, f framebuffer pixels each: up to TR_FDM_MAX_FRAGMENT_AREA
     * times the half width, plus the rounding of the widths and a
     * Bresenham line's pixel past an end, plus the pixel every set-up
     * triangle of such a pass is widened by (record.h). */
    const double half = point ? 0.5 * (double)v[0][stride - 1] : 0.5 * floor((double)pd->line_width + 1.0);
    const int64_t m = (int64_t)ceil(half * TR_FDM_MAX_FRAGMENT_AREA * TR_SUBPIXEL_ONE) + 2 * TR_SUBPIXEL_ONE;
    const int64_t box[4] = {TR_MAX(tr__floor_div_subpixel(mn[0] - m) - 1, draw->bin_scissor[0]),
                            TR_MAX(tr__floor_div_subpixel(mn[1] - m) - 1, draw->bin_scissor[1]),
                            TR_MIN(tr__floor_div_subpixel(mx[0] + m) + 2, draw->bin_scissor[2]),
                            TR_MIN(tr__floor_div_subpixel(mx[1] + m) + 2, draw->bin_scissor[3])};
    if (box[0] >= box[2] || box[1] >= box[3])
        return TR__SETUP_CULLED;
    tr__tri *t = tr__arena_alloc(ctx, arena, tr__tri_bytes(nv) + tr__tri_src_bytes(nv));
    if (!t)
        return TR__SETUP_OOM;
    memset(t, 0, sizeof *t);
    for (int i = 0; i < 4; i++)
        t->bbox[i] = (int32_t)box[i];
    t->edge_c[0] = t->edge_c[1] = t->edge_c[2] = 0; /* every edge holds: binned by its box */
    t->draw = draw_index;
    t->front_facing = 1;
    t->flags = TR__TRI_CONSERVATIVE | TR__TRI_PROXY | (draw->samples > 1 ? TR__TRI_SAMPLES : 0);
    tr__tri_src *src = (tr__tri_src *)(void *)((char *)t + tr__tri_bytes(nv));
    for (int i = 0; i < n; i++) {
        src->exact[i] = exact_pos[i] != NULL;
        for (int c = 0; c < 4; c++)
            src->pos[i][c] = exact_pos[i] ? exact_pos[i][c] : 0.0;
        memcpy(src->v + (size_t)i * stride, v[i], sizeof(float) * stride);
    }
    *out = t;
    return TR__SETUP_OK;
}

int tr__raster_setup_prim_again(const tr__draw *draw, const tr__tri *proxy, tr__tri *const into[2])
{
    const tr_pipeline_desc *pd = &draw->pipeline->desc;
    const uint32_t stride = tr__vertex_stride(pd);
    const tr__tri_src *src = tr__tri_source(proxy, pd->varying_count);
    const piece_sink sink = {NULL, NULL, into};
    tr__tri *out[2];
    int made = 0;
    if (pd->topology == TR_TOPOLOGY_POINT_LIST) {
        (void)setup_point(&sink, draw, proxy->draw, src->v, src->v[stride - 1], out, &made);
    } else {
        const float *v[2] = {src->v, src->v + stride};
        const double *ex[2] = {src->exact[0] ? src->pos[0] : NULL, src->exact[1] ? src->pos[1] : NULL};
        (void)setup_line(&sink, draw, proxy->draw, v, ex, out, &made);
    }
    for (int k = 0; k < made; k++) {
        out[k]->instance = proxy->instance;
        out[k]->primitive = proxy->primitive;
        out[k]->view = proxy->view;
    }
    return made;
}
