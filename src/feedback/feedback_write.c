/* tilerast: WriteSamplerFeedback from fragment shaders (tr_fs_write_feedback).
 * The exact mode marks the regions of the texels tr_fs_sample reads, through
 * the sampler's own plan (tr__plan_sample); the conservative mode is
 * vkd3d-proton's estimate (feedback.h, tr_feedback_mode). */
#include "feedback/feedback_internal.h"
#include "texture/texture_internal.h"

/* One level of one layer, as a write sees it. */
typedef struct fb_level {
    uint8_t *marks;
    uint32_t grid_w, grid_h;
    uint32_t w, h;                /* the level's texels */
} fb_level;

static fb_level fb_level_of(const tr_feedback_map *m, uint32_t layer, uint32_t level)
{
    return (fb_level){tr__feedback_marks(m, layer, level), m->grid_w[level], m->grid_h[level],
                      tr__feedback_level_w(m, level), tr__feedback_level_h(m, level)};
}

/* Texel (x, y) of a level, addressed (-1: a border texel, which reads no
 * texel of the image). */
static inline void mark_texel(const tr_feedback_map *m, const fb_level *lv, int64_t x, int64_t y)
{
    if (x >= 0 && y >= 0)
        tr__feedback_mark(lv->marks, lv->grid_w, (uint32_t)x >> m->region_log2[0], (uint32_t)y >> m->region_log2[1]);
}

/* texture.h steps 7-8 in one level: the texels a tap reads, the texel
 * offset (clamped, in this level's texels) included. */
static void mark_tap(const tr_feedback_map *m, const tr_sampler_desc *sd, const fb_level *lv, float s, float t,
                     const int32_t off[2], bool linear)
{
    const int64_t u = tr__subtexel(s * (float)lv->w) + 256 * (int64_t)off[0];
    const int64_t v = tr__subtexel(t * (float)lv->h) + 256 * (int64_t)off[1];
    if (!linear) {
        mark_texel(m, lv, tr__address(u >> 8, lv->w, sd->address_u), tr__address(v >> 8, lv->h, sd->address_v));
        return;
    }
    const int64_t i0 = (u - 128) >> 8, j0 = (v - 128) >> 8;
    const int64_t x0 = tr__address(i0, lv->w, sd->address_u), x1 = tr__address(i0 + 1, lv->w, sd->address_u);
    const int64_t y0 = tr__address(j0, lv->h, sd->address_v), y1 = tr__address(j0 + 1, lv->h, sd->address_v);
    mark_texel(m, lv, x0, y0);
    mark_texel(m, lv, x1, y0);
    mark_texel(m, lv, x0, y1);
    mark_texel(m, lv, x1, y1);
}

static void write_exact(const tr_feedback_map *m, const tr_sampler_desc *sd, const tr__lane_read *r)
{
    const fb_level hi = fb_level_of(m, r->layer, r->plan.level_hi);
    const fb_level lo = fb_level_of(m, r->layer, r->plan.level_lo);
    for (uint32_t i = 1; i <= r->taps; i++) {
        float s, t;
        tr__tap_position(r, i, &s, &t);
        mark_tap(m, sd, &hi, s, t, r->offset, r->linear);
        if (r->plan.delta)
            mark_tap(m, sd, &lo, s, t, r->offset, r->linear);
    }
}

/* ---- the conservative mode (vkd3d-proton's) ------------------------------------------------- */

/* Which kind of write a call is (feedback.h, tr_feedback_mode). */
typedef enum fb_call {
    FB_IMPLICIT = 0, /* WriteSamplerFeedback and -Bias */
    FB_LEVEL,        /* -Level */
    FB_GRAD          /* -Grad */
} fb_call;

/* Level and Grad know nothing of the sampler: the LOD d (1/256 units) is
 * the explicit one or log2 of the longer gradient, clamped to the chain,
 * then raised to lod_clamp. */
static int32_t conservative_lod(const tr_feedback_map *m, fb_call call, const tr_sample_args *a, uint32_t lane,
                                const tr__lane_read *r)
{
    const int32_t top = (int32_t)(m->desc.levels - 1) * TR__LOD_ONE;
    int32_t d = call == FB_LEVEL ? tr__lod_fx(a->lod[lane])
                                 : tr__lod_from_gradients(m->desc.width, m->desc.height, 1, r->dsdx, r->dtdx, r->dsdy,
                                                          r->dtdy).lambda;
    d = d < 0 ? 0 : d > top ? top : d;
    if (a->lod_clamp && call == FB_GRAD) {
        const int32_t c = tr__lod_fx(a->lod_clamp[lane]);
        d = TR_MIN(TR_MAX(d, c), top);
    }
    return d;
}

/* Half the filter's reach in texels on one axis at a level of `size`
 * texels: from the larger derivative (normalised, bias applied), minus
 * 1/256 so that an exact power of two is not rounded up, rounded up to a
 * power of two: 0.5 * 2^clamp(e, 0, 4) with g = f * 2^e, f in [0.5, 1). */
static float implicit_extent(float deriv, uint32_t size)
{
    const float g = deriv * (float)size - 1.0f / 256.0f;
    int e = 0; /* frexp's exponent; 0 for g <= 0 and NaN, whose reach is the least */
    if (g > 0.0f) {
        uint32_t bits;
        memcpy(&bits, &g, 4);
        e = (int)(bits >> 23) - 126; /* normal g: g = f * 2^e, f in [0.5, 1); smaller ones clamp to 0 */
    }
    e = e < 0 ? 0 : e > 4 ? 4 : e;
    return 0.5f * (float)(1u << e);
}

/* One level: the region of the footprint's low corner and, where the
 * footprint reaches the next region on an axis, that one (vkd3d-proton's
 * horizontal, vertical and diagonal neighbour bits), inside the grid. */
static void mark_box(const tr_feedback_map *m, const fb_level *lv, float u, float v, float ex, float ey)
{
    /* Scaling by a power of two is exact: vkd3d-proton's ldexp. */
    const float inv_rw = 1.0f / (float)m->desc.region_width, inv_rh = 1.0f / (float)m->desc.region_height;
    const float rx = u * (float)lv->w * inv_rw, ry = v * (float)lv->h * inv_rh;
    const float hx = TR_MIN(ex * inv_rw, 0.5f), hy = TR_MIN(ey * inv_rh, 0.5f);
    const float lx = TR_MAX(rx - hx, 0.0f), ly = TR_MAX(ry - hy, 0.0f);
    const uint32_t x0 = (uint32_t)lx, y0 = (uint32_t)ly;
    const uint32_t x1 = (uint32_t)(rx + hx), y1 = (uint32_t)(ry + hy);
    for (uint32_t y = y0; y <= TR_MIN(y0 + (y1 != y0), lv->grid_h - 1); y++)
        for (uint32_t x = x0; x <= TR_MIN(x0 + (x1 != x0), lv->grid_w - 1); x++)
            tr__feedback_mark(lv->marks, lv->grid_w, x, y);
}

static float wrap01(float x)
{
    if (x != x || x - x != 0.0f)
        return 0.0f; /* NaN, infinities */
    const float f = x - floorf(x);
    return f < 1.0f ? f : 0.0f; /* a tiny negative x rounds up to 1 */
}

static void write_conservative(const tr_feedback_map *m, fb_call call, const tr_sample_args *a, uint32_t lane,
                               const tr__lane_read *r)
{
    uint32_t fine, coarse;
    bool trilinear;
    if (call == FB_IMPLICIT) {
        /* The sample's own levels: tr_fs_query_lod's, with the bias. */
        fine = r->plan.level_hi;
        coarse = r->plan.level_lo;
        trilinear = r->plan.delta != 0;
    } else {
        const int32_t d = conservative_lod(m, call, a, lane, r);
        fine = (uint32_t)d >> 8;
        coarse = TR_MIN(fine + 1, m->desc.levels - 1);
        trilinear = (d & 255) != 0 && coarse != fine;
    }
    /* The UV wraps (vkd3d-proton assumes WRAP for addressing). */
    const float u = wrap01(a->s[lane]), v = wrap01(a->t[lane]);
    float ds = 0.0f, dt = 0.0f;
    if (call == FB_IMPLICIT) {
        const float scale = a->bias ? (float)exp2((double)a->bias[lane]) : 1.0f; /* bias widens the reach too */
        ds = TR_MAX(fabsf(r->dsdx), fabsf(r->dsdy)) * scale;
        dt = TR_MAX(fabsf(r->dtdx), fabsf(r->dtdy)) * scale;
    }
    for (uint32_t k = 0; k < 1u + trilinear; k++) {
        const fb_level lv = fb_level_of(m, r->layer, k ? coarse : fine);
        const float ex = call == FB_IMPLICIT ? implicit_extent(ds, lv.w) : 0.5f;
        const float ey = call == FB_IMPLICIT ? implicit_extent(dt, lv.h) : 0.5f;
        mark_box(m, &lv, u, v, ex, ey);
    }
}

void tr_fs_write_feedback(const tr_fs_block *b, uint32_t feedback_slot, uint32_t texture_slot,
                          const tr_sample_args *a)
{
    if (!b || !a || !a->s || !a->t || !b->feedback_maps || feedback_slot >= TR_MAX_FEEDBACK_MAPS)
        return;
    tr_feedback_map *m = b->feedback_maps[feedback_slot];
    const uint32_t n = TR_MIN(b->count, TR_FS_LANES);
    const uint64_t live = b->live & (n == 64 ? ~0ull : (1ull << n) - 1);
    if (!m || !live)
        return;
    const tr_texture_binding *tb = b->textures && texture_slot < TR_MAX_TEXTURES ? &b->textures[texture_slot] : NULL;
    if (!tb || !tr__feedback_pairs(m, tb->image)) {
        __atomic_fetch_add(&m->dropped, (uint64_t)tr__popcount64(live), __ATOMIC_RELAXED);
        return;
    }
    const tr_sampler *smp = tb->sampler ? tb->sampler : tr__default_sampler();
    tr__lane_read reads[TR_FS_LANES];
    tr__plan_sample(b, tb->image, smp, a, reads);
    const fb_call call = a->lod ? FB_LEVEL : a->dsdx && a->dtdx && a->dsdy && a->dtdy ? FB_GRAD : FB_IMPLICIT;
    for (uint64_t bits = live; bits; bits &= bits - 1) {
        const uint32_t lane = (uint32_t)__builtin_ctzll(bits);
        if (m->mode == TR_FEEDBACK_CONSERVATIVE)
            write_conservative(m, call, a, lane, &reads[lane]);
        else
            write_exact(m, &smp->desc, &reads[lane]);
    }
}
