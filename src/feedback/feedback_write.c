/* tilerast: WriteSamplerFeedback from fragment shaders (tr_fs_write_feedback).
 * The exact mode marks the regions of the texels tr_fs_sample reads, through
 * the sampler's own plan (tr__plan_sample); the conservative mode is
 * vkd3d-proton's estimate (feedback.h, tr_feedback_mode). */
#include "feedback/feedback_internal.h"
#include "texture/texture_internal.h"

/* One level of one layer, as a write sees it. */
typedef struct fb_level {
    uint8_t *marks;
    uint32_t grid_w;
    uint32_t w, h;                /* the level's texels */
} fb_level;

static fb_level fb_level_of(const tr_feedback_map *m, uint32_t layer, uint32_t level)
{
    return (fb_level){tr__feedback_marks(m, layer, level), m->grid_w[level], tr__feedback_level_w(m, level),
                      tr__feedback_level_h(m, level)};
}

/* Texel (x, y) of a level, addressed (-1: a border texel, which reads no
 * texel of the image). */
static inline void mark_texel(const tr_feedback_map *m, const fb_level *lv, int64_t x, int64_t y)
{
    if (x >= 0 && y >= 0)
        tr__feedback_mark(lv->marks, lv->grid_w, (uint32_t)x >> m->region_log2[0], (uint32_t)y >> m->region_log2[1]);
}

/* texture.h steps 7-8 in one level: the texels a tap reads. */
static void mark_tap(const tr_feedback_map *m, const tr_sampler_desc *sd, const fb_level *lv, float s, float t,
                     bool linear)
{
    const int64_t u = tr__subtexel(s * (float)lv->w), v = tr__subtexel(t * (float)lv->h);
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
        mark_tap(m, sd, &hi, s, t, r->linear);
        if (r->plan.delta)
            mark_tap(m, sd, &lo, s, t, r->linear);
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
    for (uint64_t bits = live; bits; bits &= bits - 1) {
        const tr__lane_read *r = &reads[__builtin_ctzll(bits)];
        write_exact(m, &smp->desc, r);
    }
}
