/* tilerast LRZ stage (include/tilerast/lrz.h has the rules).
 * Consumes: the pass's depth attachment and load op, each recorded draw's
 * pipeline state, each set-up triangle (binning pass), and each (triangle,
 * 8x8 block) and fragment depth while rendering.  Produces: the LRZ buffer
 * of the depth image (one float bound per 8x8 block per view, fast-clear
 * bits per 16x4 texels), per-draw LRZ decisions and per-block rejections.
 *
 * LRZ space is the supersampled footprint divided by 8 (turnip's layout):
 * a texel covers 8x8 pixels single-sampled, 8x4 at 2x, 4x4 at 4x and 4x2
 * at 8x (tr__lrz_texel_shape).  Under FDM a scaled bin keeps its LRZ in
 * rendering space (tr__lrz_scratch).  Every access goes through
 * tr__lrz_texel() so that mapping has one home; the row walkers
 * (tr__lrz_row_*) step 8 pixels and serve single-sampled passes only. */
#ifndef TILERAST_LRZ_INTERNAL_H
#define TILERAST_LRZ_INTERNAL_H

#include <math.h>
#include <stdatomic.h>

#include "pass_plan.h"
#include "record.h"
#include "walk/walk_internal.h"

#define TR_LRZ_BLOCK 8     /* pixels per LRZ texel side */
#define TR_LRZ_GROUP_W 16  /* fast-clear group: 16 x 4 LRZ texels (128 x 32 pixels) */
#define TR_LRZ_GROUP_H 4
#define TR_LRZ_UNION_MIN 32 /* triangles at least this wide and tall join partial-block unions */

/* The LRZ buffer a depth image owns (image->lrz). */
struct tr__lrz_buffer {
    float *bound;            /* [view][h][w] */
    /* [view][gh][gw]: 0 = the group still holds clear_value, 2 = being
     * materialised, 1 = its texels hold the bounds.  Atomic: a group spans
     * several bins, and bins write LRZ on their own threads. */
    _Atomic(uint8_t) *group_written;
    uint32_t *rejected;      /* [view][h][w]: fragments rejected in the last pass (the picture) */
    size_t texel_cap, group_cap;
    uint32_t w, h, gw, gh, views;
    uint8_t tw_log2, th_log2; /* a texel's pixels: (1 << tw_log2) x (1 << th_log2) */
    uint32_t level, base_layer;
    float clear_value;
    tr_lrz_direction dir;
    bool valid;              /* bounds hold for the image's current contents */
    bool broken;             /* the last pass made it invalid (for the picture) */
    uint64_t image_version;  /* image->version the bounds describe */
};

/* The LRZ state of the pass being recorded and rendered (tr__pass.lrz). */
typedef struct tr__lrz_pass {
    tr__lrz_buffer *buf;   /* the depth image's buffer; NULL: LRZ off for the pass */
    tr_lrz_direction dir;  /* set by depth-writing draws */
    bool invalid;          /* a writing draw broke the direction: no test in this pass */
    bool write_off;        /* no more LRZ writes in this pass */
    const tr__walk_kernels *walk; /* the context's walk kernels (the write's block coverage) */
    /* Blocks that writing triangles cover only in part: the pixels
     * covered so far and their depth bound; written once all 64 are. */
    uint64_t *part_mask;   /* [view][h][w] */
    float *part_bound;
    size_t part_cap;
} tr__lrz_pass;

/* LRZ in a scaled bin (a device with hardware bin scaling, fdm.h): a
 * buffer in rendering space, one texel per 8x8 coarse fragments, that the
 * bin's own rendering-space triangles write before it draws, with the same
 * rules and arithmetic as the pass's buffer.  One per worker, over the
 * whole rendering space (tr__lrz_texel's absolute texels); each bin view
 * resets only its rectangle's texels. */
typedef struct tr__lrz_scratch {
    tr__lrz_buffer buf;
    uint64_t *part_mask;
    float *part_bound;
    size_t part_cap;
} tr__lrz_scratch;

/* The pixels one LRZ texel covers at `samples` per pixel (log2 per axis):
 * an 8x8 block of the supersampled footprint, which turnip lays out 1x1
 * (1 sample), 1x2 (2), 2x2 (4) and 2x4 (8) samples per pixel. */
static inline void tr__lrz_texel_shape(uint32_t samples, uint8_t *tw_log2, uint8_t *th_log2)
{
    *tw_log2 = samples >= 4 ? 2 : 3;
    *th_log2 = samples >= 8 ? 1 : samples >= 2 ? 2 : 3;
}

/* The bytes a pass's LRZ takes for a w x h framebuffer of `views` views:
 * per texel a bound and a rejection count (the buffer, lrz.c size_buffer)
 * and a partial-block mask and bound (the pass's scratch, reset_parts);
 * the fast-clear groups are a byte per 64 texels more (left out: this is
 * for the up-front size check, context.h memory_limit). */
static inline uint64_t tr__lrz_bytes(uint32_t w, uint32_t h, uint32_t samples, uint32_t views)
{
    uint8_t twl, thl;
    tr__lrz_texel_shape(samples, &twl, &thl);
    const uint64_t texels = (uint64_t)(((w - 1) >> twl) + 1) * (((h - 1) >> thl) + 1) * views;
    return texels * (sizeof(float) + sizeof(uint32_t) + sizeof(uint64_t) + sizeof(float));
}

/* Sizes the scratch for rendering space [0, w) x [0, h) (pixels) of a
 * pass with `samples` per pixel. */
bool tr__lrz_scratch_reserve(tr_context *ctx, tr__lrz_scratch *s, uint32_t w, uint32_t h, uint32_t samples);
void tr__lrz_scratch_free(tr_context *ctx, tr__lrz_scratch *s);
/* The LRZ state of one scaled bin view over rect (rendering space): the
 * pass's direction and rules (pass), the scratch buffer fast-cleared to the
 * pass buffer's clear value over rect, no partial blocks, no rejections. */
void tr__lrz_scratch_begin(tr__lrz_scratch *s, const tr__lrz_pass *pass, const int32_t rect[4], tr__lrz_pass *out);

/* Starts LRZ for a pass planned as `plan`: decides whether LRZ is on, and
 * clears or reuses the depth image's buffer, into *lz (whose partial-block
 * scratch is kept from pass to pass); walk: the kernels its write uses. */
tr_result tr__lrz_begin_pass(tr_context *ctx, const tr__pass_plan *plan, const tr__walk_kernels *walk,
                             tr__lrz_pass *lz);
/* The state machine and disable rules for one draw, in submission order:
 * sets d->lrz_test_dir and d->lrz_write. */
void tr__lrz_draw_state(const tr__pass_plan *plan, tr__lrz_pass *lz, tr__draw *d);
/* The LRZ write of one binned triangle, for the blocks inside rect (one
 * bin): tightens the bounds of every block it covers fully (or, for large
 * triangles, that a union of such triangles covers).  Run per bin, for the
 * bin's triangles in submission order, before the bin renders: each block
 * belongs to one bin, so bins write in parallel and the result does not
 * depend on the bin size.  Counts into *blocks_written.  bw carries the
 * bin's farthest bound from one triangle to the next (start it stale): a
 * triangle all of whose depths in the bin lie at or beyond it cannot
 * tighten any block and is skipped whole. */
typedef struct tr__lrz_bin_write {
    float far;                 /* at least as far as every bound of the bin (see tr__lrz_far_bound) */
    bool stale;                /* bounds were tightened since `far` was taken */
} tr__lrz_bin_write;
void tr__lrz_write_triangle(const tr__lrz_pass *lz, const tr__draw *d, const tr__tri *t, uint32_t view_slot,
                            const int32_t rect[4], tr__lrz_bin_write *bw, uint64_t *blocks_written);
/* Can the triangle tighten any LRZ bound (the size rules of
 * tr__lrz_write_triangle, which only this triangle decides)?  The binning
 * pass records the answer so that the per-bin write skips the others
 * without touching them. */
bool tr__lrz_may_write(const tr__draw *d, const tr__tri *t);
/* Is LRZ tested for this draw in the rendering pass? */
bool tr__lrz_tests(const tr__lrz_pass *lz, const tr__draw *d);
/* A triangle's depth plane, exact, with a margin that bounds the float
 * rounding of the rasterizer's depth anywhere in `region` (pixels x0, y0,
 * x1, y1) and the viewport clamp. */
typedef struct tr__lrz_plane_t {
    double a, bx, by, margin;
    double zmin_clamp, zmax_clamp;
    uint32_t qmax;   /* a D16 / D24 pass (tr__draw.depth_qmax): the ranges below are quantised */
    bool finite;
} tr__lrz_plane_t;

/* D16 / D24 (tr__lrz_plane_t.qmax): LRZ stays conservative under the
 * quantised depth test because everything it compares is quantised the
 * same way.  The depth and LRZ tests see a fragment's depth z as q(z)
 * (tr__depth_quantise), q monotonic non-decreasing and q(q(z)) = q(z).
 * The ranges below bound every fragment's float z by [zmin, zmax], so
 * [q(zmin), q(zmax)] bounds every q(z): a bound written from q(zmax) (LESS)
 * is at least every depth stored where the triangle wrote, the clear value
 * is stored quantised (so is every bound), and a rejection - q(zmin) > bound
 * for the block and triangle tests, q(z) > bound per fragment - implies
 * q(z) > every stored depth the bound covers: LESS and LESS_OR_EQUAL fail
 * (GREATER mirrored).  Comparing the unquantised z would not do: z > d can
 * hold with q(z) = d, which passes LESS_OR_EQUAL. */
static inline void tr__lrz_quantise_range(const tr__lrz_plane_t *pl, double *zmin, double *zmax)
{
    if (__builtin_expect(pl->qmax != 0, 0)) {
        *zmin = tr__depth_quantise_d(pl->qmax, *zmin);
        *zmax = tr__depth_quantise_d(pl->qmax, *zmax);
    }
}
void tr__lrz_plane(const tr__tri *t, const tr__draw *d, const int32_t region[4], tr__lrz_plane_t *out);

/* The rest is inline: the renderer calls it for every block. */

static inline size_t tr__lrz_texel_index(const tr__lrz_buffer *b, uint32_t view, uint32_t tx, uint32_t ty)
{
    return ((size_t)view * b->h + ty) * b->w + tx;
}

static inline size_t tr__lrz_group_index(const tr__lrz_buffer *b, uint32_t view, uint32_t tx, uint32_t ty)
{
    return ((size_t)view * b->gh + ty / TR_LRZ_GROUP_H) * b->gw + tx / TR_LRZ_GROUP_W;
}

/* LRZ texel of a pixel.  The one place that maps framebuffer (or a
 * scaled bin's rendering) space to LRZ space. */
static inline void tr__lrz_texel(const tr__lrz_buffer *b, int32_t px, int32_t py, uint32_t *tx, uint32_t *ty)
{
    *tx = (uint32_t)px >> b->tw_log2;
    *ty = (uint32_t)py >> b->th_log2;
}

/* tr__lrz_texel for a single-sampled buffer (8x8-pixel texels), with
 * constant shifts for the hot loops that only run single-sampled. */
static inline void tr__lrz_texel_1x(int32_t px, int32_t py, uint32_t *tx, uint32_t *ty)
{
    *tx = (uint32_t)px / TR_LRZ_BLOCK;
    *ty = (uint32_t)py / TR_LRZ_BLOCK;
}

/* The bound texel (tx, ty) of a view holds (the clear value until its
 * group is materialised). */
static inline float tr__lrz_bound_at(const tr__lrz_buffer *b, uint32_t view, uint32_t tx, uint32_t ty)
{
    uint8_t g = atomic_load_explicit(&b->group_written[tr__lrz_group_index(b, view, tx, ty)], memory_order_acquire);
    return g == 1 ? b->bound[tr__lrz_texel_index(b, view, tx, ty)] : b->clear_value;
}

/* Bounds on the depth of every fragment in the 8x8 block at (bx, by). */
static inline void tr__lrz_plane_block_range(const tr__lrz_plane_t *pl, int32_t bx, int32_t by, double *zmin,
                                             double *zmax)
{
    if (!pl->finite) {
        *zmin = -INFINITY;
        *zmax = INFINITY;
        return;
    }
    const double s = TR_LRZ_BLOCK - 1;
    const double bxs = pl->bx * s, bys = pl->by * s;
    double z = pl->a + pl->bx * (double)bx + pl->by * (double)by;
    /* min(0, v) and max(0, v) as lrz.c's dmin(0.0, v), dmax(0.0, v) */
    double lo = z + (0.0 < bxs ? 0.0 : bxs) + (0.0 < bys ? 0.0 : bys) - pl->margin;
    double hi = z + (0.0 > bxs ? 0.0 : bxs) + (0.0 > bys ? 0.0 : bys) + pl->margin;
    /* The viewport clamp is monotonic. */
    lo = lo > pl->zmin_clamp ? lo : pl->zmin_clamp;
    hi = hi > pl->zmin_clamp ? hi : pl->zmin_clamp;
    *zmin = lo < pl->zmax_clamp ? lo : pl->zmax_clamp;
    *zmax = hi < pl->zmax_clamp ? hi : pl->zmax_clamp;
    tr__lrz_quantise_range(pl, zmin, zmax);
}

/* Bounds on the depth of every sample of a multisampled pass in the
 * pixels [x, x + w) x [y, y + h): its samples lie within half a pixel of
 * the pixel centres the plane is written over. */
static inline void tr__lrz_plane_area_range(const tr__lrz_plane_t *pl, int32_t x, int32_t y, int32_t w, int32_t h,
                                            double *zmin, double *zmax)
{
    if (!pl->finite) {
        *zmin = -INFINITY;
        *zmax = INFINITY;
        return;
    }
    const double bxs = pl->bx * (double)w, bys = pl->by * (double)h;
    const double z = pl->a + pl->bx * ((double)x - 0.5) + pl->by * ((double)y - 0.5);
    double lo = z + (0.0 < bxs ? 0.0 : bxs) + (0.0 < bys ? 0.0 : bys) - pl->margin;
    double hi = z + (0.0 > bxs ? 0.0 : bxs) + (0.0 > bys ? 0.0 : bys) + pl->margin;
    lo = lo > pl->zmin_clamp ? lo : pl->zmin_clamp;
    hi = hi > pl->zmin_clamp ? hi : pl->zmin_clamp;
    *zmin = lo < pl->zmax_clamp ? lo : pl->zmax_clamp;
    *zmax = hi < pl->zmax_clamp ? hi : pl->zmax_clamp;
    tr__lrz_quantise_range(pl, zmin, zmax);
}

/* Bounds on the depth of every fragment in every block of the region r
 * (pixels; its blocks from r's top-left block to the one holding its last
 * pixel): the block ranges at the four corner blocks (the plane is
 * linear), widened far beyond the rounding that separates one block's
 * evaluation from another's. */
static inline void tr__lrz_plane_region_range(const tr__lrz_plane_t *pl, const int32_t r[4], double *lo, double *hi)
{
    const int32_t bxl = (r[2] - 1) & ~(TR_LRZ_BLOCK - 1), byl = (r[3] - 1) & ~(TR_LRZ_BLOCK - 1);
    const int32_t cx[2] = {r[0] & ~(TR_LRZ_BLOCK - 1), bxl}, cy[2] = {r[1] & ~(TR_LRZ_BLOCK - 1), byl};
    double l = INFINITY, h = -INFINITY;
    for (int i = 0; i < 4; i++) {
        double zmin, zmax;
        tr__lrz_plane_block_range(pl, cx[i & 1], cy[i >> 1], &zmin, &zmax);
        l = zmin < l ? zmin : l;
        h = zmax > h ? zmax : h;
    }
    const double slack = 0x1p-40 * (fabs(pl->a) + fabs(pl->bx) * (double)bxl + fabs(pl->by) * (double)byl + 1.0);
    *lo = l - slack;
    *hi = h + slack;
}

/* The block test: -1 if every fragment the triangle can produce in the
 * block lies beyond the bound (direction `dir`), 0 if none can, 1 if some
 * may (then each fragment is tested). */
static inline int tr__lrz_block_classify(const tr__lrz_plane_t *pl, int32_t bx, int32_t by, float bound,
                                         tr_lrz_direction dir)
{
    double zmin, zmax;
    tr__lrz_plane_block_range(pl, bx, by, &zmin, &zmax);
    if (dir == TR_LRZ_DIRECTION_GREATER)
        return zmax < (double)bound ? -1 : zmin < (double)bound ? 1 : 0;
    return zmin > (double)bound ? -1 : zmax > (double)bound ? 1 : 0;
}

/* One row of LRZ texels of a view, for walking blocks along a row:
 * tr__lrz_row_at, then tr__lrz_row_bound / tr__lrz_row_rejected for each
 * block of the row (tr__lrz_texel's texels, as tr__lrz_count_rejected
 * addresses them).  Until a group is materialised (1), its texels read the
 * clear value: a texel of this bin can only have been written after that. */
typedef struct tr__lrz_row {
    const float *bound;
    const _Atomic(uint8_t) *group;
    uint32_t *rejected;
    float clear_value;
} tr__lrz_row;

static inline void tr__lrz_row_at(const tr__lrz_pass *lz, uint32_t view_slot, int32_t by, tr__lrz_row *r)
{
    const tr__lrz_buffer *b = lz->buf;
    uint32_t tx, ty;
    tr__lrz_texel(b, 0, by, &tx, &ty);
    r->bound = b->bound + tr__lrz_texel_index(b, view_slot, 0, ty);
    r->group = b->group_written + tr__lrz_group_index(b, view_slot, 0, ty);
    r->rejected = b->rejected + tr__lrz_texel_index(b, view_slot, 0, ty);
    r->clear_value = b->clear_value;
}

static inline float tr__lrz_row_bound(const tr__lrz_row *r, int32_t bx)
{
    uint32_t tx = (uint32_t)bx / TR_LRZ_BLOCK;
    uint8_t g = atomic_load_explicit(&r->group[tx / TR_LRZ_GROUP_W], memory_order_acquire);
    return g == 1 ? r->bound[tx] : r->clear_value;
}

static inline void tr__lrz_row_rejected(const tr__lrz_row *r, int32_t bx, uint32_t n)
{
    r->rejected[(uint32_t)bx / TR_LRZ_BLOCK] += n;
}

/* The farthest bound (largest for `less`, else smallest) of texels
 * [tx, tx1) of one row of a view (r->bound and r->group at its texel 0),
 * a fast-clear group at a time. */
static inline float tr__lrz_row_far_texels(const tr__lrz_row *r, uint32_t tx, uint32_t tx1, bool less)
{
    float far = less ? -INFINITY : INFINITY;
    while (tx < tx1) {
        const uint32_t g = tx / TR_LRZ_GROUP_W, end = TR_MIN(tx1, (g + 1) * TR_LRZ_GROUP_W);
        if (atomic_load_explicit(&r->group[g], memory_order_acquire) != 1) {
            far = less ? (r->clear_value > far ? r->clear_value : far) : (r->clear_value < far ? r->clear_value : far);
            tx = end;
            continue;
        }
        for (; tx < end; tx++) {
            const float b = r->bound[tx];
            if (b != b)
                return less ? INFINITY : -INFINITY; /* (never: bounds are numbers) */
            far = less ? (b > far ? b : far) : (b < far ? b : far);
        }
    }
    return far;
}

/* The same over the row's blocks bx0, bx0 + 8, ..., below bx1 (multiples
 * of 8): what tr__lrz_row_bound reads for each. */
static inline float tr__lrz_row_far(const tr__lrz_row *r, int32_t bx0, int32_t bx1, bool less)
{
    return tr__lrz_row_far_texels(r, (uint32_t)bx0 / TR_LRZ_BLOCK, (uint32_t)bx1 / TR_LRZ_BLOCK, less);
}

/* The largest (`largest`) or smallest bound of the bin's texels (rect),
 * the clear value for texels no group holds yet; a NaN bound makes it
 * +infinity when `largest`, else -infinity. */
static inline float tr__lrz_bound_extreme(const tr__lrz_pass *lz, uint32_t view_slot, const int32_t rect[4],
                                          bool largest)
{
    const tr__lrz_buffer *b = lz->buf;
    float ext = largest ? -INFINITY : INFINITY;
    uint32_t tx0, ty0, tx1, ty1;
    tr__lrz_texel(b, rect[0], rect[1], &tx0, &ty0);
    tr__lrz_texel(b, rect[2] - 1, rect[3] - 1, &tx1, &ty1);
    for (uint32_t ty = ty0; ty <= ty1; ty++) {
        const tr__lrz_row row = {b->bound + tr__lrz_texel_index(b, view_slot, 0, ty),
                                 b->group_written + tr__lrz_group_index(b, view_slot, 0, ty), NULL, b->clear_value};
        const float v = tr__lrz_row_far_texels(&row, tx0, tx1 + 1, largest);
        ext = largest ? (v > ext ? v : ext) : (v < ext ? v : ext);
    }
    return ext;
}

/* The bound of the bin's texels (rect) farthest in the pass's direction:
 * the largest for LESS, the smallest for GREATER.  A triangle whose every
 * depth in the bin lies beyond it is rejected in every block. */
static inline float tr__lrz_far_bound(const tr__lrz_pass *lz, uint32_t view_slot, const int32_t rect[4])
{
    return tr__lrz_bound_extreme(lz, view_slot, rect, lz->dir != TR_LRZ_DIRECTION_GREATER);
}

/* ... and the nearest (the smallest for LESS, the largest for GREATER; a
 * NaN makes it infinitely near).  A draw whose every depth lies at or
 * nearer than it passes every block test there. */
static inline float tr__lrz_near_bound(const tr__lrz_pass *lz, uint32_t view_slot, const int32_t rect[4])
{
    return tr__lrz_bound_extreme(lz, view_slot, rect, lz->dir == TR_LRZ_DIRECTION_GREATER);
}

/* Counts fragments rejected in a block (for the picture).  Blocks belong
 * to one bin, and a bin to one thread: no race. */
static inline void tr__lrz_count_rejected(const tr__lrz_pass *lz, uint32_t view_slot, int32_t bx, int32_t by,
                                          uint32_t n)
{
    uint32_t tx, ty;
    tr__lrz_texel(lz->buf, bx, by, &tx, &ty);
    lz->buf->rejected[tr__lrz_texel_index(lz->buf, view_slot, tx, ty)] += n;
}

/* Ends the pass: records what the next pass may reuse and fills the stats.
 * `rendered` is false when the pass failed before rendering. */
void tr__lrz_end_pass(const tr__pass_plan *plan, tr__lrz_pass *lz, bool rendered, tr_pass_stats *stats);

/* Frees an image's buffer (image destruction). */
void tr__lrz_free(tr_context *ctx, tr__lrz_buffer *b);

#endif
