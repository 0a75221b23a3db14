/* tilerast vertex stage: clipping and the viewport transform.
 *
 * Clipping is Sutherland-Hodgman in homogeneous clip space against
 * 0 <= z <= w (Vulkan), w >= TR_W_MIN and the x/y guard band, in double
 * precision (clipping is rare; the trivial accept stays cheap).  An edge that
 * crosses a plane is always interpolated from its inside vertex toward its
 * outside vertex, so two triangles sharing the edge get bit-identical new
 * vertices whichever way round they walk it (watertightness).
 *
 * Noperspective varyings (tr_pipeline_desc.noperspective_mask) must stay
 * linear in the framebuffer, which clip-space interpolation breaks: such a
 * value a is carried as a * w, which is linear in clip space exactly when
 * a is linear in x/w, y/w, interpolated as the other values are, and
 * divided by the new vertex's w at the end (every vertex left has
 * w >= TR_W_MIN).  An input vertex gets its a back exactly (a float times
 * a float is exact in double). */
#include <math.h>

#include "vertex/vertex_internal.h"

enum { PLANE_NEAR, PLANE_FAR, PLANE_W, PLANE_LEFT, PLANE_RIGHT, PLANE_TOP, PLANE_BOTTOM, PLANE_COUNT };

/* Distances are computed in double: any finite float input stays finite
 * (|x| + gb * |w| < 2^149), so huge triangles clip exactly as small ones. */
static inline double plane_dist(int plane, const double *v, double gb_x, double gb_y)
{
    switch (plane) {
    case PLANE_NEAR: return v[2];
    case PLANE_FAR: return v[3] - v[2];
    case PLANE_W: return v[3] - (double)TR_W_MIN;
    case PLANE_LEFT: return v[0] + gb_x * v[3];
    case PLANE_RIGHT: return gb_x * v[3] - v[0];
    case PLANE_TOP: return v[1] + gb_y * v[3];
    default: return gb_y * v[3] - v[1];
    }
}

static inline uint32_t outcode(const float *f, double gb_x, double gb_y)
{
    double v[4] = {f[0], f[1], f[2], f[3]};
    uint32_t c = 0;
    for (int p = 0; p < PLANE_COUNT; p++)
        if (!(plane_dist(p, v, gb_x, gb_y) >= 0.0))
            c |= 1u << p;
    return c;
}


void tr__vertex_guard_band(const tr_viewport *vp, float *gb_x, float *gb_y)
{
    /* window x = cx + hw * x/w with |cx| + |hw| * gb <= TR_GUARD_BAND. */
    float hw = fabsf(vp->width) * 0.5f, hh = fabsf(vp->height) * 0.5f;
    float cx = fabsf(vp->x + vp->width * 0.5f), cy = fabsf(vp->y + vp->height * 0.5f);
    *gb_x = (TR_GUARD_BAND - cx) / hw;
    *gb_y = (TR_GUARD_BAND - cy) / hh;
}

/* Lands a clipped vertex exactly on the plane that made it. */
static void land_on_plane(int plane, double *o, double gb_x, double gb_y)
{
    switch (plane) {
    case PLANE_NEAR: o[2] = 0.0; break;
    case PLANE_FAR: o[2] = o[3]; break;
    case PLANE_W: o[3] = (double)TR_W_MIN; break;
    case PLANE_LEFT: o[0] = -gb_x * o[3]; break;
    case PLANE_RIGHT: o[0] = gb_x * o[3]; break;
    case PLANE_TOP: o[1] = -gb_y * o[3]; break;
    default: o[1] = gb_y * o[3]; break;
    }
}

/* Is component k of a vertex (position then varyings) a noperspective
 * varying's? */
static inline bool np_component(uint32_t noperspective_mask, uint32_t k)
{
    return k >= 4 && ((noperspective_mask >> ((k - 4) / 4)) & 1);
}

uint32_t tr__vertex_clip(const float *const in[3], uint32_t stride, uint32_t noperspective_mask, float gb_xf,
                         float gb_yf, float *out, tr__clip_poly *poly, bool *clipped)
{
    const double gb_x = gb_xf, gb_y = gb_yf;
    uint32_t c0 = outcode(in[0], gb_x, gb_y), c1 = outcode(in[1], gb_x, gb_y), c2 = outcode(in[2], gb_x, gb_y);
    *clipped = false;
    if (c0 & c1 & c2)
        return 0; /* all outside one plane */
    if (!(c0 | c1 | c2)) {
        for (int i = 0; i < 3; i++)
            poly->exact[i] = false;
        return poly->count = 3;
    }
    *clipped = true;
    /* Two ping-pong polygons of doubles; each vertex carries one more value,
     * 1.0 if clipping made it. */
    const uint32_t vs = stride + 1;
    double buf[2][TR_CLIP_MAX_VERTS * (5 + 4 * TR_MAX_VARYINGS)];
    uint32_t n = 3;
    for (int i = 0; i < 3; i++) {
        for (uint32_t k = 0; k < stride; k++)
            buf[0][i * vs + k] = in[i][k];
        if (noperspective_mask)
            for (uint32_t k = 4; k < stride; k++)
                if (np_component(noperspective_mask, k))
                    buf[0][i * vs + k] *= (double)in[i][3];
        buf[0][i * vs + stride] = 0.0;
    }
    uint32_t codes = c0 | c1 | c2;
    int cur = 0;
    for (int plane = 0; plane < PLANE_COUNT; plane++) {
        if (!(codes & (1u << plane)))
            continue;
        const double *src = buf[cur];
        double *dst = buf[cur ^ 1];
        uint32_t m = 0;
        for (uint32_t i = 0; i < n; i++) {
            const double *a = src + i * vs;
            const double *b = src + ((i + 1) % n) * vs;
            double da = plane_dist(plane, a, gb_x, gb_y), db = plane_dist(plane, b, gb_x, gb_y);
            bool ain = da >= 0.0, bin = db >= 0.0;
            if (ain)
                memcpy(dst + (m++) * vs, a, vs * sizeof(double));
            if (ain != bin) {
                const double *vin = ain ? a : b, *vout = ain ? b : a;
                double din = ain ? da : db, dout = ain ? db : da;
                double t = din / (din - dout);
                double *o = dst + (m++) * vs;
                for (uint32_t k = 0; k < stride; k++)
                    o[k] = vin[k] + t * (vout[k] - vin[k]);
                o[stride] = 1.0;
                land_on_plane(plane, o, gb_x, gb_y);
            }
        }
        n = m;
        cur ^= 1;
        if (n < 3)
            return 0;
    }
    for (uint32_t i = 0; i < n; i++) {
        const double *v = buf[cur] + i * vs;
        for (uint32_t k = 0; k < stride; k++)
            out[i * stride + k] = (float)(np_component(noperspective_mask, k) ? v[k] / v[3] : v[k]);
        poly->exact[i] = v[stride] != 0.0;
        memcpy(poly->pos[i], v, sizeof(poly->pos[i]));
    }
    return poly->count = n;
}

bool tr__vertex_clip_line(const float *const in[2], uint32_t stride, uint32_t noperspective_mask, float gb_xf,
                          float gb_yf, float *out, tr__clip_poly *poly, bool *clipped)
{
    const double gb_x = gb_xf, gb_y = gb_yf;
    const uint32_t c0 = outcode(in[0], gb_x, gb_y), c1 = outcode(in[1], gb_x, gb_y);
    *clipped = false;
    poly->count = 2;
    poly->exact[0] = poly->exact[1] = false;
    if (c0 & c1)
        return false;
    if (!(c0 | c1))
        return true; /* out untouched: the inputs are the line */
    *clipped = true;
    /* Liang-Barsky: the part t in [t0, t1] of a + t (b - a) inside every
     * plane; each end moved by the last plane that cut it. */
    double a[4], b[4];
    for (int k = 0; k < 4; k++)
        a[k] = in[0][k], b[k] = in[1][k];
    double t0 = 0.0, t1 = 1.0;
    int p0 = -1, p1 = -1;
    for (int plane = 0; plane < PLANE_COUNT; plane++) {
        if (!((c0 | c1) & (1u << plane)))
            continue;
        const double da = plane_dist(plane, a, gb_x, gb_y), db = plane_dist(plane, b, gb_x, gb_y);
        const double t = da / (da - db);
        if (da < 0.0 && t > t0)
            t0 = t, p0 = plane;
        else if (db < 0.0 && t < t1)
            t1 = t, p1 = plane;
    }
    if (!(t0 < t1))
        return false;
    /* each new end from the inside end toward the outside one */
    const double ts[2] = {t0, t1};
    const int planes[2] = {p0, p1};
    for (int e = 0; e < 2; e++) {
        const float *from = in[e], *to = in[e ^ 1];
        float *o = out + (size_t)e * stride;
        if (planes[e] < 0) {
            memcpy(o, from, sizeof(float) * stride);
            continue;
        }
        const double t = e ? 1.0 - ts[e] : ts[e];
        double pos[4];
        for (uint32_t k = 0; k < stride; k++) {
            const double val = (double)from[k] + t * ((double)to[k] - (double)from[k]);
            if (k < 4)
                pos[k] = val;
            o[k] = (float)val;
        }
        land_on_plane(planes[e], pos, gb_x, gb_y);
        for (int k = 0; k < 4; k++)
            o[k] = (float)pos[k];
        /* noperspective varyings: a * w interpolated, over the new w */
        for (uint32_t k = 4; noperspective_mask && k < stride; k++)
            if (np_component(noperspective_mask, k)) {
                const double af = (double)from[k] * (double)from[3], at = (double)to[k] * (double)to[3];
                o[k] = (float)((af + t * (at - af)) / pos[3]);
            }
        poly->exact[e] = true;
        memcpy(poly->pos[e], pos, sizeof(pos));
    }
    return true;
}

bool tr__vertex_point_inside(const float *v)
{
    const double x = v[0], y = v[1], z = v[2], w = v[3];
    return w > 0.0 && x >= -w && x <= w && y >= -w && y <= w && z >= 0.0 && z <= w;
}

void tr__vertex_window(const tr_viewport *vp, const float *clip, double win[4])
{
    /* Vulkan's x_f = (p_x / 2) * x_d + o_x, with the multiply-add fused.
     * fmaf is correctly rounded, so the result does not depend on the CPU.
     * llvmpipe evaluates the same fused form (its y flip included), so an
     * OpenGL scene drawn with a flipped viewport snaps exactly as llvmpipe
     * snaps it: measured identical on tri_small's 2,073,600 pixels. */
    float iw = 1.0f / clip[3];
    float xd = clip[0] * iw, yd = clip[1] * iw, zd = clip[2] * iw;
    win[0] = fmaf(vp->width * 0.5f, xd, vp->x + vp->width * 0.5f);
    win[1] = fmaf(vp->height * 0.5f, yd, vp->y + vp->height * 0.5f);
    win[2] = vp->min_depth + (vp->max_depth - vp->min_depth) * zd;
    win[3] = iw;
}

void tr__vertex_place_lanes(const tr__vertex_place *place, const tr_vs_batch *b, uint32_t n, tr__vwin *out)
{
    const double gb_x = place->gb_x, gb_y = place->gb_y;
    for (uint32_t l = 0; l < n; l++) {
        const float clip[4] = {b->position[0][l], b->position[1][l], b->position[2][l], b->position[3][l]};
        double win[4];
        tr__vertex_window(place->vp, clip, win);
        for (int c = 0; c < 4; c++)
            out[l].win[c] = (float)win[c]; /* (floats already) */
        const bool band = fabs(win[0]) <= 2.0 * TR_GUARD_BAND && fabs(win[1]) <= 2.0 * TR_GUARD_BAND;
        out[l].sub[0] = band ? (int32_t)tr__snap_subpixel(win[0]) : 0;
        out[l].sub[1] = band ? (int32_t)tr__snap_subpixel(win[1]) : 0;
        out[l].inside = band && !tr__vertex_nonfinite(clip) && outcode(clip, gb_x, gb_y) == 0;
    }
}

void tr__vertex_window_exact(const tr_viewport *vp, const double *clip, double win[4])
{
    double iw = 1.0 / clip[3];
    double hw = (double)vp->width * 0.5, hh = (double)vp->height * 0.5;
    win[0] = (clip[0] * iw) * hw + ((double)vp->x + hw);
    win[1] = (clip[1] * iw) * hh + ((double)vp->y + hh);
    win[2] = (float)(vp->min_depth + (vp->max_depth - vp->min_depth) * (float)(clip[2] * iw));
    win[3] = (float)iw;
}
