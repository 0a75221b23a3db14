/* tilerast LRZ stage: the buffer, the direction state machine, the binning
 * write and the rendering test (include/tilerast/lrz.h states the rules).
 *
 * Why an LRZ rejection never changes the image, under LESS (GREATER is the
 * mirror).  Let fragment F have depth z_F > bound, and let triangle O have
 * tightened the bound: O covers F's block completely, every fragment of O in
 * it has depth <= bound, and O's draw writes depth and replaces every colour
 * attachment (no blending, full masks, no discard, no stencil kill).
 *   - O before F: after O every depth in the block is <= bound (depth only
 *     decreases: a writing draw in another direction invalidates LRZ), so F
 *     fails its depth test anyway.
 *   - O after F: at O's fragment, either it passes and replaces F's colour
 *     and depth, or the depth is already <= z_O < z_F, lowered by some
 *     fragment G between F and O that passed.  G replaced F's colour unless
 *     G's draw writes depth without replacing colour -- and such a draw turns
 *     LRZ writes off for the rest of the pass, O's included.
 * The comparison is strict (z_F > bound), and bounds carry a margin for the
 * float rounding of the depth plane, so an exact tie never rejects.  A
 * rejected fragment must also have no other effect: no test for draws whose
 * shader has side effects, whose depth the shader writes, or whose stencil
 * ops write on failure. */
#include <math.h>
#include <string.h>

#include "lrz/lrz_internal.h"
#include "pass_plan.h"
#include "walk/walk_internal.h"

/* ---- the buffer ---------------------------------------------------------------------------- */

void tr__lrz_free(tr_context *ctx, tr__lrz_buffer *b)
{
    if (!b)
        return;
    tr__free(ctx, b->bound);
    tr__free(ctx, (void *)b->group_written);
    tr__free(ctx, b->rejected);
    tr__free(ctx, b);
}

/* Sizes a buffer for the pixels [0, w) x [0, h) of each of `views` views
 * at `samples` per pixel: its bounds, rejection counts and fast-clear
 * groups (contents undefined). */
static bool size_buffer(tr_context *ctx, tr__lrz_buffer *b, uint32_t w, uint32_t h, uint32_t samples, uint32_t views)
{
    uint8_t twl, thl;
    tr__lrz_texel_shape(samples, &twl, &thl);
    const uint32_t tw = ((w - 1) >> twl) + 1, th = ((h - 1) >> thl) + 1;
    const uint32_t gw = (tw + TR_LRZ_GROUP_W - 1) / TR_LRZ_GROUP_W, gh = (th + TR_LRZ_GROUP_H - 1) / TR_LRZ_GROUP_H;
    const size_t texels = (size_t)tw * th * views, groups = (size_t)gw * gh * views;
    if (texels > b->texel_cap) {
        float *nb = tr__alloc(ctx, texels * sizeof(float));
        uint32_t *nr = tr__alloc(ctx, texels * sizeof(uint32_t));
        if (!nb || !nr) {
            tr__free(ctx, nb);
            tr__free(ctx, nr);
            return false;
        }
        tr__free(ctx, b->bound);
        tr__free(ctx, b->rejected);
        b->bound = nb;
        b->rejected = nr;
        b->texel_cap = texels;
    }
    if (groups > b->group_cap) {
        _Atomic(uint8_t) *ng = tr__alloc(ctx, groups * sizeof(_Atomic(uint8_t)));
        if (!ng)
            return false;
        tr__free(ctx, (void *)b->group_written);
        b->group_written = ng;
        b->group_cap = groups;
    }
    b->w = tw;
    b->h = th;
    b->tw_log2 = twl;
    b->th_log2 = thl;
    b->gw = gw;
    b->gh = gh;
    b->views = views;
    return true;
}

/* Sizes the image's buffer for this pass's depth view. */
static tr__lrz_buffer *buffer_for(tr_context *ctx, const tr__pass_plan *plan, tr_image *img)
{
    tr__lrz_buffer *b = img->lrz;
    if (!b) {
        b = tr__calloc(ctx, sizeof(*b));
        if (!b)
            return NULL;
        img->lrz = b;
    }
    return size_buffer(ctx, b, plan->fb_w, plan->fb_h, plan->samples, plan->view_count) ? b : NULL;
}

/* ---- the rendering-space scratch of scaled bins ---------------------------------------------- */

bool tr__lrz_scratch_reserve(tr_context *ctx, tr__lrz_scratch *s, uint32_t w, uint32_t h, uint32_t samples)
{
    if (!size_buffer(ctx, &s->buf, w, h, samples, 1))
        return false;
    const uint32_t tw = s->buf.w, th = s->buf.h;
    /* groups are reset per bin view (tr__lrz_scratch_begin), never read
     * before; the partial-block scratch has a texel each */
    const size_t texels = (size_t)tw * th;
    if (texels > s->part_cap) {
        uint64_t *nm = tr__alloc(ctx, texels * sizeof(uint64_t));
        float *np = tr__alloc(ctx, texels * sizeof(float));
        if (!nm || !np) {
            tr__free(ctx, nm);
            tr__free(ctx, np);
            return false;
        }
        tr__free(ctx, s->part_mask);
        tr__free(ctx, s->part_bound);
        s->part_mask = nm;
        s->part_bound = np;
        s->part_cap = texels;
    }
    return true;
}

void tr__lrz_scratch_free(tr_context *ctx, tr__lrz_scratch *s)
{
    tr__free(ctx, s->buf.bound);
    tr__free(ctx, s->buf.rejected);
    tr__free(ctx, (void *)s->buf.group_written);
    tr__free(ctx, s->part_mask);
    tr__free(ctx, s->part_bound);
    memset(s, 0, sizeof *s);
}

void tr__lrz_scratch_begin(tr__lrz_scratch *s, const tr__lrz_pass *pass, const int32_t rect[4], tr__lrz_pass *out)
{
    tr__lrz_buffer *b = &s->buf;
    b->clear_value = pass->buf->clear_value;
    b->dir = pass->dir;
    uint32_t tx0, ty0, tx1, ty1;
    tr__lrz_texel(b, rect[0], rect[1], &tx0, &ty0);
    tr__lrz_texel(b, rect[2] - 1, rect[3] - 1, &tx1, &ty1);
    /* fast clear: the groups the rectangle touches (this worker's alone) */
    for (uint32_t gy = ty0 / TR_LRZ_GROUP_H; gy <= ty1 / TR_LRZ_GROUP_H; gy++)
        for (uint32_t gx = tx0 / TR_LRZ_GROUP_W; gx <= tx1 / TR_LRZ_GROUP_W; gx++)
            atomic_store_explicit(&b->group_written[(size_t)gy * b->gw + gx], 0, memory_order_relaxed);
    for (uint32_t ty = ty0; ty <= ty1; ty++) {
        memset(&s->part_mask[tr__lrz_texel_index(b, 0, tx0, ty)], 0, (tx1 - tx0 + 1) * sizeof(uint64_t));
        memset(&b->rejected[tr__lrz_texel_index(b, 0, tx0, ty)], 0, (tx1 - tx0 + 1) * sizeof(uint32_t));
    }
    *out = *pass;
    out->buf = b;
    out->part_mask = s->part_mask;
    out->part_bound = s->part_bound;
    out->part_cap = s->part_cap;
}

/* The depth attachment's tr__attachment_state (not the stencil plane). */
static const tr__attachment_state *depth_state(const tr__pass_plan *plan)
{
    return plan->depth_att >= 0 ? &plan->att[plan->depth_att] : NULL;
}

/* Does the buffer's texel grid cover exactly this pass's framebuffer? */
static bool same_extent(const tr__lrz_buffer *b, const tr__pass_plan *plan)
{
    uint8_t twl, thl;
    tr__lrz_texel_shape(plan->samples, &twl, &thl);
    return b->tw_log2 == twl && b->th_log2 == thl && b->w == ((plan->fb_w - 1) >> twl) + 1 &&
           b->h == ((plan->fb_h - 1) >> thl) + 1;
}

/* Scratch for partly covered blocks, all empty. */
static bool reset_parts(tr_context *ctx, tr__lrz_pass *lz, const tr__lrz_buffer *b)
{
    size_t texels = (size_t)b->w * b->h * b->views;
    if (texels > lz->part_cap) {
        uint64_t *m = tr__alloc(ctx, texels * sizeof(uint64_t));
        float *f = tr__alloc(ctx, texels * sizeof(float));
        if (!m || !f) {
            tr__free(ctx, m);
            tr__free(ctx, f);
            return false;
        }
        tr__free(ctx, lz->part_mask);
        tr__free(ctx, lz->part_bound);
        lz->part_mask = m;
        lz->part_bound = f;
        lz->part_cap = texels;
    }
    memset(lz->part_mask, 0, texels * sizeof(uint64_t));
    return true;
}

tr_result tr__lrz_begin_pass(tr_context *ctx, const tr__pass_plan *plan, const tr__walk_kernels *walk,
                             tr__lrz_pass *lz)
{
    uint64_t *part_mask = lz->part_mask;
    float *part_bound = lz->part_bound;
    size_t part_cap = lz->part_cap;
    memset(lz, 0, sizeof(*lz));
    lz->part_mask = part_mask;
    lz->part_bound = part_bound;
    lz->part_cap = part_cap;
    lz->walk = walk;
    const tr__attachment_state *da = depth_state(plan);
    if (!da)
        return TR_OK;
    tr_image *img = da->image;
    tr__lrz_buffer *old = img->lrz;
    bool off = (ctx->desc.flags & TR_CONTEXT_NO_LRZ) || (plan->desc.flags & TR_PASS_NO_LRZ);
    if (off || da->load == TR_LOAD_OP_DONT_CARE) {
        if (old)
            old->valid = false;
        return TR_OK;
    }
    if (da->load == TR_LOAD_OP_LOAD) {
        /* Reuse only what describes exactly this view of the current texels;
         * never for an image made for FDM offsets (turnip's
         * tu_lrz_init_state: its LRZ image is shifted by b_o). */
        if (!old || !old->valid || (img->desc.flags & TR_IMAGE_FDM_OFFSET) || old->image_version != img->version || old->level != da->level ||
            old->base_layer != da->base_layer || old->views != plan->view_count || !same_extent(old, plan)) {
            if (old)
                old->valid = false;
            return TR_OK;
        }
        lz->buf = old;
        lz->dir = old->dir;
    } else {
        /* LOAD_OP_CLEAR: a fast clear, one bit per group. */
        tr__lrz_buffer *b = buffer_for(ctx, plan, img);
        if (!b)
            return tr__error(ctx, TR_ERROR_OUT_OF_MEMORY, "tr_cmd_begin_render_pass: out of memory for LRZ");
        for (size_t g = 0; g < (size_t)b->gw * b->gh * b->views; g++)
            atomic_init(&b->group_written[g], 0);
        float c;
        memcpy(&c, da->clear_texel, sizeof c);
        b->clear_value = c;
        b->dir = TR_LRZ_DIRECTION_UNKNOWN;
        b->level = da->level;
        b->base_layer = da->base_layer;
        lz->buf = b;
        lz->dir = TR_LRZ_DIRECTION_UNKNOWN;
    }
    /* (the multisampled write gathers no partly covered texels) */
    if (plan->samples == 1 && !reset_parts(ctx, lz, lz->buf)) {
        lz->buf->valid = false;
        lz->buf = NULL;
        return tr__error(ctx, TR_ERROR_OUT_OF_MEMORY, "tr_cmd_begin_render_pass: out of memory for LRZ");
    }
    /* While the pass records, the buffer describes nothing reusable. */
    lz->buf->valid = false;
    lz->buf->broken = false;
    memset(lz->buf->rejected, 0, (size_t)lz->buf->w * lz->buf->h * lz->buf->views * sizeof(uint32_t));
    return TR_OK;
}

/* ---- per draw: direction and disable rules ------------------------------------------------------ */

static tr_lrz_direction direction_of(tr_compare_op op)
{
    switch (op) {
    case TR_COMPARE_LESS:
    case TR_COMPARE_LESS_OR_EQUAL: return TR_LRZ_DIRECTION_LESS;
    case TR_COMPARE_GREATER:
    case TR_COMPARE_GREATER_OR_EQUAL: return TR_LRZ_DIRECTION_GREATER;
    default: return TR_LRZ_DIRECTION_UNKNOWN;
    }
}

/* Can this stencil face write stencil for a fragment that fails? */
static bool stencil_writes_on_fail(const tr_stencil_face *f)
{
    return f->write_mask && (f->fail_op != TR_STENCIL_OP_KEEP || f->depth_fail_op != TR_STENCIL_OP_KEEP);
}

/* Does every colour attachment get its texels replaced by each fragment? */
static bool replaces_colour(const tr__pass_plan *plan, const tr_pipeline_desc *pd)
{
    for (uint32_t a = 0; a < plan->desc.color_count; a++) {
        if (plan->color_att[a] < 0)
            continue;
        if (!pd->fragment_shader || pd->blend[a].enable || pd->blend[a].write_mask != 0xfu)
            return false;
    }
    return true;
}

void tr__lrz_draw_state(const tr__pass_plan *plan, tr__lrz_pass *lz, tr__draw *d)
{
    const tr_pipeline_desc *pd = &d->pipeline->desc;
    d->lrz_test_dir = TR_LRZ_DIRECTION_UNKNOWN;
    d->lrz_write = 0;
    if (!lz->buf || lz->invalid || !pd->depth_test)
        return;
    const bool write = pd->depth_write != 0;
    const bool stencil = pd->stencil_test && plan->stencil_att >= 0;
    /* Rest-of-pass rules first: they hold whatever this draw's direction.
     * A discarding shader (or one that writes the sample mask) with early
     * tests writes depth where it then drops the colour: as much a depth
     * write that does not replace colour as blending is. */
    const bool early_discard = pd->fragment_shader &&
                               (pd->fs_flags & (TR_FS_MAY_DISCARD | TR_FS_WRITES_SAMPLE_MASK)) &&
                               (pd->fs_flags & TR_FS_EARLY_TESTS);
    /* Alpha to coverage with early tests drops samples whose depth was
     * written: as a discard does. */
    const tr_multisample_state *ms = &pd->multisample;
    const bool early_a2c = plan->samples > 1 && ms->alpha_to_coverage && (pd->fs_flags & TR_FS_EARLY_TESTS);
    if (write && (!replaces_colour(plan, pd) || early_discard || early_a2c))
        lz->write_off = true;
    if (stencil && (pd->stencil_front.compare != TR_COMPARE_ALWAYS || pd->stencil_back.compare != TR_COMPARE_ALWAYS ||
                    (pd->stencil_front.write_mask && pd->stencil_front.depth_fail_op != TR_STENCIL_OP_KEEP) ||
                    (pd->stencil_back.write_mask && pd->stencil_back.depth_fail_op != TR_STENCIL_OP_KEEP)))
        lz->write_off = true;

    tr_lrz_direction dir = direction_of(pd->depth_compare);
    if (dir == TR_LRZ_DIRECTION_UNKNOWN) {
        /* EQUAL/NEVER: skip.  ALWAYS/NOT_EQUAL: invalid if they write depth. */
        if (write && (pd->depth_compare == TR_COMPARE_ALWAYS || pd->depth_compare == TR_COMPARE_NOT_EQUAL))
            lz->invalid = true;
        return;
    }
    if (lz->dir != TR_LRZ_DIRECTION_UNKNOWN && dir != lz->dir) {
        if (write)
            lz->invalid = true;
        return; /* without write: skip this draw */
    }
    if (write)
        lz->dir = dir;

    const uint32_t flags = pd->fs_flags;
    bool test = true;
    if (pd->fragment_shader && (flags & TR_FS_SIDE_EFFECTS))
        test = false;
    if (pd->fragment_shader && (flags & TR_FS_WRITES_DEPTH) && !(flags & TR_FS_EARLY_TESTS))
        test = false;
    if (stencil && (stencil_writes_on_fail(&pd->stencil_front) || stencil_writes_on_fail(&pd->stencil_back)))
        test = false;
    d->lrz_test_dir = test ? (uint8_t)dir : (uint8_t)TR_LRZ_DIRECTION_UNKNOWN;
    /* Writers: every fragment of a covered block must reach the depth
     * buffer and replace the colour (stencil on: conservatively never). */
    /* Multisampled, every sample too: a draw that alpha to coverage or its
     * sample mask keeps off some samples writes no LRZ (turnip: alpha to
     * coverage turns the write off for the draw). */
    const uint32_t all = (1u << plan->samples) - 1u;
    const bool every_sample = plan->samples == 1 || (!ms->alpha_to_coverage && (ms->sample_mask == 0 || (ms->sample_mask & all) == all));
    /* Lines and points test LRZ and never write it (turnip). */
    const bool triangles = pd->topology < TR_TOPOLOGY_POINT_LIST;
    d->lrz_write = test && write && !lz->write_off && replaces_colour(plan, pd) &&
                   !(pd->fragment_shader && (flags & (TR_FS_MAY_DISCARD | TR_FS_WRITES_SAMPLE_MASK))) && !stencil &&
                   every_sample && triangles;
}

bool tr__lrz_tests(const tr__lrz_pass *lz, const tr__draw *d)
{
    if (!lz->buf || lz->invalid || d->lrz_test_dir == TR_LRZ_DIRECTION_UNKNOWN)
        return false;
    /* A buffer that no writing draw gave a direction holds only the clear
     * (or the reused) value, a bound in both directions. */
    return lz->dir == TR_LRZ_DIRECTION_UNKNOWN || d->lrz_test_dir == lz->dir;
}

/* fmax without the libm call (no NaN can reach it: see finite). */
static inline double dmax(double a, double b)
{
    return a > b ? a : b;
}

/* ---- the depth plane over a block ----------------------------------------------------------- */

/* The rasterizer computes a fragment's depth in float (raster_tri.c:
 * l1 = l1_a*dx + l1_b*dy, l2 likewise, z = at0 + l1*at1 + l2*at2, then the
 * viewport clamp).  Here that plane is taken exactly (in double) as
 * z = a + bx*px + by*py over integer pixel coordinates, and `margin` bounds
 * how far the float evaluation can stray from it anywhere in `region`: a
 * handful of operations, each within 2^-24 of its operands' magnitude,
 * covered many times over. */
typedef tr__lrz_plane_t depth_plane;

static void plane_of(const tr__tri *t, const tr__draw *d, const int32_t region[4], depth_plane *pl)
{
    const float *at = t->attr;
    const double l1a = t->l1_a, l1b = t->l1_b, l2a = t->l2_a, l2b = t->l2_b;
    const double a0 = at[0], a1 = at[1], a2 = at[2];
    /* dx = px * 256 + 128 - x0 */
    const double ox = 128.0 - (double)t->x0, oy = 128.0 - (double)t->y0;
    pl->bx = 256.0 * (a1 * l1a + a2 * l2a);
    pl->by = 256.0 * (a1 * l1b + a2 * l2b);
    pl->a = a0 + a1 * (l1a * ox + l1b * oy) + a2 * (l2a * ox + l2b * oy);
    double mag1 = 0, mag2 = 0;
    for (int k = 0; k < 4; k++) {
        double dx = (double)region[k & 1 ? 2 : 0] * 256.0 + ox, dy = (double)region[k & 2 ? 3 : 1] * 256.0 + oy;
        mag1 = dmax(mag1, fabs(l1a * dx) + fabs(l1b * dy));
        mag2 = dmax(mag2, fabs(l2a * dx) + fabs(l2b * dy));
    }
    pl->margin = 0x1p-19 * (fabs(a0) + 2.0 * (mag1 * fabs(a1) + mag2 * fabs(a2))) + 0x1p-126;
    pl->zmin_clamp = d->depth_min;
    pl->zmax_clamp = d->depth_max;
    pl->qmax = d->depth_qmax;
    pl->finite = isfinite(pl->a) && isfinite(pl->bx) && isfinite(pl->by) && isfinite(pl->margin);
}

/* ---- binning: the write ----------------------------------------------------------------------- */

/* Materialises a fast-cleared group before its first write.  Another bin
 * may want the same group at the same time: one thread fills it (0 -> 2 ->
 * 1), the others wait for 1. */
static inline void materialise(tr__lrz_buffer *b, uint32_t view, uint32_t tx, uint32_t ty)
{
    _Atomic(uint8_t) *g = &b->group_written[tr__lrz_group_index(b, view, tx, ty)];
    if (atomic_load_explicit(g, memory_order_acquire) == 1)
        return;
    uint8_t expect = 0;
    if (atomic_compare_exchange_strong_explicit(g, &expect, 2, memory_order_acq_rel, memory_order_acquire)) {
        uint32_t x0 = tx / TR_LRZ_GROUP_W * TR_LRZ_GROUP_W, y0 = ty / TR_LRZ_GROUP_H * TR_LRZ_GROUP_H;
        for (uint32_t y = y0; y < TR_MIN(y0 + TR_LRZ_GROUP_H, b->h); y++)
            for (uint32_t x = x0; x < TR_MIN(x0 + TR_LRZ_GROUP_W, b->w); x++)
                b->bound[tr__lrz_texel_index(b, view, x, y)] = b->clear_value;
        atomic_store_explicit(g, 1, memory_order_release);
        return;
    }
    while (atomic_load_explicit(g, memory_order_acquire) != 1)
        ; /* another bin is filling it: 64 stores */
}

/* nextafterf(x, +inf) without the libm call (x is never NaN here). */
static inline float next_up(float x)
{
    if (x == INFINITY)
        return x;
    if (x == 0.0f)
        return 0x1p-149f; /* the smallest subnormal, from either zero */
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    u = x > 0.0f ? u + 1 : u - 1;
    memcpy(&x, &u, sizeof x);
    return x;
}

/* Tightens one texel's bound, `cur` now, to `z` (a bound on the depth of
 * every pixel of the block after the pass), rounded outward to float. */
static inline void tighten(tr__lrz_buffer *b, uint32_t view, uint32_t tx, uint32_t ty, float cur, double z, bool less,
                    uint64_t *blocks_written)
{
    float nb = (float)z;
    if (less) {
        if ((double)nb < z)
            nb = next_up(nb);
        if (!(nb < cur))
            return;
    } else {
        if ((double)nb > z)
            nb = -next_up(-nb); /* nextafterf(nb, -inf) */
        if (!(nb > cur))
            return;
    }
    materialise(b, view, tx, ty);
    b->bound[tr__lrz_texel_index(b, view, tx, ty)] = nb;
    (*blocks_written)++;
}

bool tr__lrz_may_write(const tr__draw *d, const tr__tri *t)
{
    /* d->lrz_write already holds the rest-of-pass rules as they stood when
     * the draw was recorded. */
    if (!d->lrz_write)
        return false;
    /* Pixels inside the triangle and the scissor. */
    const int32_t w = TR_MIN(t->bbox[2], d->scissor[2]) - TR_MAX(t->bbox[0], d->scissor[0]);
    const int32_t h = TR_MIN(t->bbox[3], d->scissor[3]) - TR_MAX(t->bbox[1], d->scissor[1]);
    /* A triangle narrower or shorter than a block covers no block alone;
     * gathering small pieces into unions costs the binning pass more than it
     * saves (measured on the mesh and tri_small scenes: +60% binning time for
     * under 1% of their fragments).  So triangles under a block write
     * nothing, triangles under TR_LRZ_UNION_MIN pixels write the blocks they
     * cover whole, and larger ones also join unions (the two halves of a
     * quad cover its diagonal blocks together). */
    if (d->samples > 1) {
        /* Multisampled: whole texels only (write_triangle_ms), each a
         * rectangle of pixel areas the triangle must hold. */
        uint8_t twl, thl;
        tr__lrz_texel_shape(d->samples, &twl, &thl);
        if (w < (1 << twl) || h < (1 << thl))
            return false;
        const int64_t twice_area = t->edge_a[0] * t->x0 + t->edge_b[0] * t->y0 + t->edge_c[0] + 1;
        return twice_area >= ((int64_t)2 << (twl + thl)) * TR_SUBPIXEL_ONE * TR_SUBPIXEL_ONE;
    }
    if (w < TR_LRZ_BLOCK || h < TR_LRZ_BLOCK)
        return false;
    if (w >= TR_LRZ_UNION_MIN && h >= TR_LRZ_UNION_MIN)
        return true;
    /* Covering a block whole means holding its 64 pixel centres, hence
     * their hull, a 7x7-pixel square: twice the area is at least 98 px^2.
     * Edge 0 at vertex 0 is twice the area (in 1/256 px units, less the
     * tie bias, added back). */
    const int64_t twice_area = t->edge_a[0] * t->x0 + t->edge_b[0] * t->y0 + t->edge_c[0] + 1;
    return twice_area >= (int64_t)98 * TR_SUBPIXEL_ONE * TR_SUBPIXEL_ONE;
}

/* The write of a multisampled pass: a texel's samples lie strictly inside
 * its pixels' area (tr__lrz_texel_shape), so a triangle none of whose
 * edges is negative at the area's four corners holds every one of them
 * strictly inside, whatever the tie rules; its depth at them lies within
 * the plane's range over the area.  Whole texels only: partly covered ones
 * are not gathered. */
static void write_triangle_ms(const tr__lrz_pass *lz, const tr__draw *d, const tr__tri *t, uint32_t view_slot,
                              const int32_t rect[4], tr__lrz_bin_write *bw, uint64_t *blocks_written)
{
    tr__lrz_buffer *b = lz->buf;
    /* pixels inside the triangle and the scissor; r cut to this bin */
    const int32_t whole[4] = {TR_MAX(t->bbox[0], d->scissor[0]), TR_MAX(t->bbox[1], d->scissor[1]),
                              TR_MIN(t->bbox[2], d->scissor[2]), TR_MIN(t->bbox[3], d->scissor[3])};
    const int32_t r[4] = {TR_MAX(whole[0], rect[0]), TR_MAX(whole[1], rect[1]), TR_MIN(whole[2], rect[2]),
                          TR_MIN(whole[3], rect[3])};
    const int32_t tw = 1 << b->tw_log2, th = 1 << b->th_log2;
    /* texels wholly inside r */
    const int32_t x0 = (r[0] + tw - 1) & ~(tw - 1), y0 = (r[1] + th - 1) & ~(th - 1);
    const int32_t x1 = r[2] & ~(tw - 1), y1 = r[3] & ~(th - 1);
    if (x0 >= x1 || y0 >= y1)
        return;
    /* The plane over the samples' pixel areas (a pixel's samples lie
     * within half a pixel of its centre), its margin taken over the whole
     * triangle, as single-sampled passes take it: the bounds must not
     * depend on the bin or on the slice of it a thread renders (the
     * statistics are the same for every thread count and bin size). */
    const int32_t region[4] = {whole[0] - 1, whole[1] - 1, whole[2] + 1, whole[3] + 1};
    depth_plane pl;
    plane_of(t, d, region, &pl);
    if (!pl.finite)
        return;
    const bool less = lz->dir != TR_LRZ_DIRECTION_GREATER;
    /* Nothing to tighten when the range over all these texels lies at or
     * beyond the bin's farthest bound (as for single-sampled passes). */
    if (bw->stale) {
        bw->far = tr__lrz_far_bound(lz, view_slot, rect);
        bw->stale = false;
    }
    {
        double lo, hi;
        tr__lrz_plane_area_range(&pl, x0, y0, x1 - x0, y1 - y0, &lo, &hi);
        if (less ? lo >= (double)bw->far : hi <= (double)bw->far)
            return;
    }
    /* edge_c holds the tie bias: -1 on edges that do not own their points
     * (raster_setup.c), so E >= owned - 1 is the unbiased E >= 0 */
    const bool top_left = d->pipeline->desc.tie_rule == TR_TIE_TOP_LEFT;
    int64_t least[3];
    for (int k = 0; k < 3; k++) {
        const int64_t a = t->edge_a[k], e = t->edge_b[k];
        least[k] = (a > 0 || (a == 0 && (top_left ? e > 0 : e < 0))) ? 0 : -1;
    }
    uint64_t written = 0;
    for (int32_t y = y0; y < y1; y += th)
        for (int32_t x = x0; x < x1; x += tw) {
            const int64_t ax = (int64_t)x * TR_SUBPIXEL_ONE, bx = ax + (int64_t)tw * TR_SUBPIXEL_ONE;
            const int64_t ay = (int64_t)y * TR_SUBPIXEL_ONE, by = ay + (int64_t)th * TR_SUBPIXEL_ONE;
            bool inside = true;
            for (int k = 0; k < 3 && inside; k++) {
                const int64_t a = t->edge_a[k], e = t->edge_b[k];
                inside = t->edge_c[k] + a * (a > 0 ? ax : bx) + e * (e > 0 ? ay : by) >= least[k];
            }
            if (!inside)
                continue;
            double zmin, zmax;
            tr__lrz_plane_area_range(&pl, x, y, tw, th, &zmin, &zmax);
            const double z = less ? zmax : zmin;
            uint32_t tx, ty;
            tr__lrz_texel(b, x, y, &tx, &ty);
            const float cur = tr__lrz_bound_at(b, view_slot, tx, ty);
            if (less ? z < (double)cur : z > (double)cur)
                tighten(b, view_slot, tx, ty, cur, z, less, &written);
        }
    *blocks_written += written;
    bw->stale |= written != 0;
}

/* tr__lrz_write_triangle's walk over the bin's blocks; returns the texels
 * written.  Inlined twice: with and without the D16 / D24 quantisation. */
static inline __attribute__((always_inline)) uint64_t
write_blocks(const tr__lrz_pass *lz, const tr__tri *t, uint32_t view_slot, const int32_t r[4], const int32_t q[4],
             const depth_plane pl_in, bool less, bool unions, bool quantised)
{
    /* a copy whose qmax is a constant in each inlined copy: without
     * D16 / D24 the blocks skip the quantisation's test */
    depth_plane pl = pl_in;
    if (!quantised)
        pl.qmax = 0;
    tr__lrz_buffer *b = lz->buf;
    uint64_t written = 0;
    tr__block_walk walk;
    tr__block_walk_begin(t, &walk);
    /* Rows of many blocks: the covered blocks by division, and the run of
     * whole blocks inside r (nothing to gather: each is tightened alone)
     * in a loop of its own.  The same blocks and bounds as one by one. */
    const int32_t qx0 = q[0] & ~(TR_LRZ_BLOCK - 1);
    const bool ranges = q[2] - qx0 > 4 * TR_LRZ_BLOCK;
    const int32_t r_x0 = (r[0] + TR_LRZ_BLOCK - 1) & ~(TR_LRZ_BLOCK - 1), r_x1 = r[2] & ~(TR_LRZ_BLOCK - 1);
    for (int32_t by = q[1] & ~(TR_LRZ_BLOCK - 1); by < q[3]; by += TR_LRZ_BLOCK) {
        tr__lrz_row row;
        tr__lrz_row_at(lz, view_slot, by, &row);
        int32_t xs, xe, in[2];
        if (!tr__block_walk_row_span(t, &walk, qx0, q[2], by, ranges, &xs, &xe, in))
            continue;
        int32_t whole0 = 0, whole1 = 0;
        if (by >= r[1] && by + TR_LRZ_BLOCK <= r[3]) {
            whole0 = TR_MAX(in[0], r_x0);
            whole1 = TR_MIN(in[1], r_x1);
        }
        for (int32_t bx = xs; bx < xe; bx += TR_LRZ_BLOCK) {
            if (bx == whole0 && whole1 > whole0) {
                for (; bx < whole1; bx += TR_LRZ_BLOCK) {
                    double zmin, zmax;
                    tr__lrz_plane_block_range(&pl, bx, by, &zmin, &zmax);
                    const double z = less ? zmax : zmin;
                    const float cur = tr__lrz_row_bound(&row, bx);
                    if (less ? z < (double)cur : z > (double)cur) {
                        uint32_t tx, ty;
                        tr__lrz_texel_1x(bx, by, &tx, &ty);
                        tighten(b, view_slot, tx, ty, cur, z, less, &written);
                    }
                }
                tr__block_walk_advance(&walk, (whole1 - whole0) / TR_LRZ_BLOCK);
                bx -= TR_LRZ_BLOCK;
                continue;
            }
            const int cls = tr__block_walk_step(&walk); /* the edges at this block */
            double zmin, zmax;
            tr__lrz_plane_block_range(&pl, bx, by, &zmin, &zmax);
            double z = less ? zmax : zmin;
            uint32_t tx, ty;
            tr__lrz_texel_1x(bx, by, &tx, &ty);
            /* Not tighter than the bound: neither alone nor in a union (whose
             * bound is the extreme of its parts) can it help.  Checked
             * before the coverage, which costs more. */
            const float cur = tr__lrz_row_bound(&row, bx);
            if (!(less ? z < (double)cur : z > (double)cur))
                continue;
            uint64_t m;
            if (!cls)
                continue;
            if (unions) {
                m = tr__walk_block_mask(t, bx, by, r, r, cls == 2, lz->walk);
                if (!m)
                    continue;
            } else {
                /* whole blocks only */
                if (bx < r[0] || by < r[1] || bx + TR_LRZ_BLOCK > r[2] || by + TR_LRZ_BLOCK > r[3] || cls != 2)
                    continue;
                m = ~0ull;
            }
            if (m != ~0ull) {
                /* Part of the block: gather until every pixel has a writing
                 * fragment; the bound is the extreme over all of them. */
                size_t i = tr__lrz_texel_index(b, view_slot, tx, ty);
                uint64_t *pm = &lz->part_mask[i];
                float *pb = &lz->part_bound[i];
                float zf = (float)z;
                if (less ? (double)zf < z : (double)zf > z)
                    zf = nextafterf(zf, less ? INFINITY : -INFINITY);
                *pb = !*pm ? zf : less ? fmaxf(*pb, zf) : fminf(*pb, zf);
                *pm |= m;
                if (*pm != ~0ull)
                    continue;
                z = *pb;
                *pm = 0;
            }
            tighten(b, view_slot, tx, ty, cur, z, less, &written);
        }
    }
    return written;
}

void tr__lrz_write_triangle(const tr__lrz_pass *lz, const tr__draw *d, const tr__tri *t, uint32_t view_slot,
                            const int32_t rect[4], tr__lrz_bin_write *bw, uint64_t *blocks_written)
{
    if (lz->invalid || !tr__lrz_may_write(d, t))
        return;
    if (d->samples > 1) {
        write_triangle_ms(lz, d, t, view_slot, rect, bw, blocks_written);
        return;
    }
    /* Pixels inside the triangle, the scissor and the render area. */
    int32_t r[4] = {TR_MAX(t->bbox[0], d->scissor[0]), TR_MAX(t->bbox[1], d->scissor[1]),
                    TR_MIN(t->bbox[2], d->scissor[2]), TR_MIN(t->bbox[3], d->scissor[3])};
    const bool unions = r[2] - r[0] >= TR_LRZ_UNION_MIN && r[3] - r[1] >= TR_LRZ_UNION_MIN;
    const bool less = lz->dir != TR_LRZ_DIRECTION_GREATER;
    depth_plane pl_out;
    plane_of(t, d, r, &pl_out);
    if (!pl_out.finite)
        return;
    const depth_plane pl = pl_out; /* a copy no call can reach: stays in registers */
    /* The blocks of this bin (blocks never straddle bins).  The plane, its
     * margin and the size rules above use the whole triangle, so the
     * bounds do not depend on the bins. */
    const int32_t q[4] = {TR_MAX(r[0], rect[0]), TR_MAX(r[1], rect[1]), TR_MIN(r[2], rect[2]),
                          TR_MIN(r[3], rect[3])};
    if (q[0] >= q[2] || q[1] >= q[3])
        return;
    /* Nothing to tighten when every block's depth range lies at or beyond
     * the bin's farthest bound (each block tightens only if its range is
     * strictly nearer than its own bound).  The range over the bin is
     * taken at the corner blocks, widened far beyond the rounding between
     * blocks. */
    {
        if (bw->stale) {
            bw->far = tr__lrz_far_bound(lz, view_slot, rect);
            bw->stale = false;
        }
        double lo, hi;
        tr__lrz_plane_region_range(&pl, q, &lo, &hi);
        if (less ? lo >= (double)bw->far : hi <= (double)bw->far)
            return;
    }
    const uint64_t written = pl.qmax ? write_blocks(lz, t, view_slot, r, q, pl, less, unions, true)
                                     : write_blocks(lz, t, view_slot, r, q, pl, less, unions, false);
    *blocks_written += written;
    bw->stale |= written != 0;
}

/* ---- rendering: the test ---------------------------------------------------------------------- */

void tr__lrz_plane(const tr__tri *t, const tr__draw *d, const int32_t region[4], tr__lrz_plane_t *out)
{
    plane_of(t, d, region, out);
}

/* ---- the end of a pass ---------------------------------------------------------------------- */

void tr__lrz_end_pass(const tr__pass_plan *plan, tr__lrz_pass *lz, bool rendered, tr_pass_stats *stats)
{
    tr__lrz_buffer *b = lz->buf;
    stats->lrz_direction = (uint32_t)lz->dir;
    if (!b) {
        stats->lrz_state = TR_LRZ_STATE_OFF;
        return;
    }
    const tr__attachment_state *da = depth_state(plan);
    b->dir = lz->dir;
    b->broken = lz->invalid;
    stats->lrz_state = lz->invalid ? TR_LRZ_STATE_INVALID : TR_LRZ_STATE_ON;
    /* Reusable if the bounds hold for the depth texels the pass stored. */
    b->valid = rendered && !lz->invalid && da->store == TR_STORE_OP_STORE;
    b->image_version = da->image->version;
}
