/* tilerast vertex stage: clipping and the viewport transform.
 *
 * Clipping is Sutherland-Hodgman in homogeneous clip space against
 * 0 <= z <= w (Vulkan), w >= TR_W_MIN and the x/y guard band.  An edge that
 * crosses a plane is always interpolated from its inside vertex toward its
 * outside vertex, so two triangles sharing the edge get bit-identical new
 * vertices whichever way round they walk it (watertightness). */
#include <math.h>

#include "vertex/vertex_internal.h"

enum { PLANE_NEAR, PLANE_FAR, PLANE_W, PLANE_LEFT, PLANE_RIGHT, PLANE_TOP, PLANE_BOTTOM, PLANE_COUNT };

static inline float plane_dist(int plane, const float *v, float gb_x, float gb_y)
{
    switch (plane) {
    case PLANE_NEAR: return v[2];
    case PLANE_FAR: return v[3] - v[2];
    case PLANE_W: return v[3] - TR_W_MIN;
    case PLANE_LEFT: return v[0] + gb_x * v[3];
    case PLANE_RIGHT: return gb_x * v[3] - v[0];
    case PLANE_TOP: return v[1] + gb_y * v[3];
    default: return gb_y * v[3] - v[1];
    }
}

static inline uint32_t outcode(const float *v, float gb_x, float gb_y)
{
    uint32_t c = 0;
    for (int p = 0; p < PLANE_COUNT; p++)
        if (!(plane_dist(p, v, gb_x, gb_y) >= 0.0f))
            c |= 1u << p;
    return c;
}

bool tr__vertex_nonfinite(const float *v)
{
    return !isfinite(v[0]) || !isfinite(v[1]) || !isfinite(v[2]) || !isfinite(v[3]);
}

void tr__vertex_guard_band(const tr_viewport *vp, float *gb_x, float *gb_y)
{
    /* window x = cx + hw * x/w with |cx| + |hw| * gb <= TR_GUARD_BAND. */
    float hw = fabsf(vp->width) * 0.5f, hh = fabsf(vp->height) * 0.5f;
    float cx = fabsf(vp->x + vp->width * 0.5f), cy = fabsf(vp->y + vp->height * 0.5f);
    *gb_x = (TR_GUARD_BAND - cx) / hw;
    *gb_y = (TR_GUARD_BAND - cy) / hh;
}

uint32_t tr__vertex_clip(const float *const in[3], uint32_t stride, float gb_x, float gb_y, float *out,
                         bool *clipped)
{
    uint32_t c0 = outcode(in[0], gb_x, gb_y), c1 = outcode(in[1], gb_x, gb_y), c2 = outcode(in[2], gb_x, gb_y);
    *clipped = false;
    if (c0 & c1 & c2)
        return 0; /* all outside one plane */
    if (!(c0 | c1 | c2)) {
        for (int i = 0; i < 3; i++)
            memcpy(out + i * stride, in[i], stride * sizeof(float));
        return 3;
    }
    *clipped = true;
    /* Two ping-pong polygons in out: [0, MAX) and [MAX, 2*MAX) vertices. */
    float *buf[2] = {out, out + (size_t)TR_CLIP_MAX_VERTS * stride};
    uint32_t n = 3;
    for (int i = 0; i < 3; i++)
        memcpy(buf[0] + i * stride, in[i], stride * sizeof(float));
    uint32_t codes = c0 | c1 | c2;
    int cur = 0;
    for (int plane = 0; plane < PLANE_COUNT; plane++) {
        if (!(codes & (1u << plane)))
            continue;
        const float *src = buf[cur];
        float *dst = buf[cur ^ 1];
        uint32_t m = 0;
        for (uint32_t i = 0; i < n; i++) {
            const float *a = src + i * stride;
            const float *b = src + ((i + 1) % n) * stride;
            float da = plane_dist(plane, a, gb_x, gb_y), db = plane_dist(plane, b, gb_x, gb_y);
            bool ain = da >= 0.0f, bin = db >= 0.0f;
            if (ain)
                memcpy(dst + (m++) * stride, a, stride * sizeof(float));
            if (ain != bin) {
                const float *vin = ain ? a : b, *vout = ain ? b : a;
                float din = ain ? da : db, dout = ain ? db : da;
                float t = din / (din - dout);
                float *o = dst + (m++) * stride;
                for (uint32_t k = 0; k < stride; k++)
                    o[k] = vin[k] + t * (vout[k] - vin[k]);
                /* Land exactly on the plane that was crossed. */
                switch (plane) {
                case PLANE_NEAR: o[2] = 0.0f; break;
                case PLANE_FAR: o[2] = o[3]; break;
                default: break;
                }
            }
        }
        n = m;
        cur ^= 1;
        if (n < 3)
            return 0;
    }
    if (cur != 0)
        memcpy(out, buf[cur], (size_t)n * stride * sizeof(float));
    return n;
}

void tr__vertex_window(const tr_viewport *vp, const float *clip, float win[4])
{
    float iw = 1.0f / clip[3];
    float xd = clip[0] * iw, yd = clip[1] * iw, zd = clip[2] * iw;
    win[0] = vp->x + vp->width * 0.5f + vp->width * 0.5f * xd;
    win[1] = vp->y + vp->height * 0.5f + vp->height * 0.5f * yd;
    win[2] = vp->min_depth + (vp->max_depth - vp->min_depth) * zd;
    win[3] = iw;
}
