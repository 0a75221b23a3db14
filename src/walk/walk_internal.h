/* tilerast triangle walk: where a set-up triangle's edges put pixel
 * centres, shared by the stages that look at a triangle block by block.
 * Consumes: a set-up triangle (record.h: fixed-point edge functions) and
 * 8x8 pixel blocks.  Produces: each block's class (outside an edge, partly
 * inside, inside all three), the runs of a row's blocks of each class, and
 * the coverage mask of a block.  The raster stage draws what this walks;
 * LRZ writes the bounds of blocks it finds covered; binning uses the
 * subpixel grid.  Below raster/, lrz/ and bin/ (src/README.md). */
#ifndef TILERAST_WALK_INTERNAL_H
#define TILERAST_WALK_INTERNAL_H

#include "record.h"

/* Subpixel precision: 8 bits (1/256 pixel), the Vulkan minimum on most
 * desktop parts and what llvmpipe uses. */
#define TR_SUBPIXEL_BITS 8
#define TR_SUBPIXEL_ONE (1 << TR_SUBPIXEL_BITS)
#define TR_SUBPIXEL_HALF (TR_SUBPIXEL_ONE / 2)

/* A window coordinate w (pixels) on the subpixel grid: round(w * 256),
 * ties to even (as llvmpipe's lrintf), without depending on the
 * floating-point environment.  |w| < 2^23 (the guard band keeps it far
 * inside), so the truncation is exact and one step corrects it for
 * negative values; branch-free, as the fraction is data. */
static inline int64_t tr__snap_subpixel(double w)
{
    const double v = w * TR_SUBPIXEL_ONE; /* exact: a power-of-two scale */
    int64_t i = (int64_t)v;
    i -= (double)i > v;
    const double r = v - (double)i;
    i += (r > 0.5) | ((r == 0.5) & (int)(i & 1));
    return i;
}

/* An 8-bit row mask of a block (bit c: column c) spread to the lane order
 * of a row of quads (lane 4 (c / 2) + (c & 1)): bits 0-1, 4-5, 8-9, 12-13;
 * an odd row's lanes are 2 higher. */
#define TR__SPREAD_ROW(b)                                                                                          \
    ((uint16_t)(((b) & 0x3u) | (((b) & 0xcu) << 2) | (((b) & 0x30u) << 4) | (((b) & 0xc0u) << 6)))

/* The walk's kernels, a table chosen once per context (the raster stage's
 * tr__kernels holds it), each one generic body (walk_coverage.c) stamped
 * out for the scalar reference, four lanes (SIMDe) and eight (AVX2), which
 * give the same masks bit for bit (tests/raster/test_kernels.c):
 * - block_mask: tr__walk_block_mask's slow case (below);
 * - samples_mask: m[s] = tr__walk_block_coverage(t[s], bx, by, r) for the
 *   n triangles t[] (a multisampled triangle moved to each sample), 0 for
 *   those whose bit of `keep` is clear. */
/* A window of up to 2 x 2 8x8 blocks at (x, y) (multiples of 8), the unit
 * of the small-triangle path (raster_tri.c): its pixels are those of
 * columns [l[0], l[2]) and rows [l[1], l[3]) (0..16, from its top-left),
 * and its masks are per block, row-major (bit 8 * row + column: unlike
 * tr__lanes' quad order), blocks (x, y), (x + 8, y), (x, y + 8) and
 * (x + 8, y + 8); a block outside l has mask 0. */
typedef struct tr__window {
    int32_t x, y;
    uint32_t l[4];
    uint64_t m[4];
    bool quads;         /* window_mask gives the masks in tr__lanes' quad order instead */
} tr__window;

/* Whether window_mask (and the raster's window kernels) take t's edges:
 * |a|, |b| <= 2^25 (walk_avx2.h says why). */
static inline bool tr__window_edges_ok(const tr__tri *t)
{
    const int64_t lim = (int64_t)1 << 25;
    for (int k = 0; k < 3; k++)
        if (t->edge_a[k] > lim || t->edge_a[k] < -lim || t->edge_b[k] > lim || t->edge_b[k] < -lim)
            return false;
    return true;
}

/* Window block k's top-left pixel. */
static inline int32_t tr__window_bx(const tr__window *w, uint32_t k)
{
    return w->x + (int32_t)(k & 1) * 8;
}
static inline int32_t tr__window_by(const tr__window *w, uint32_t k)
{
    return w->y + (int32_t)(k >> 1) * 8;
}

typedef struct tr__walk_kernels {
    uint64_t (*block_mask)(const tr__tri *t, int32_t bx, int32_t by, const int32_t r[4], const int32_t cut[4],
                           bool full);
    void (*samples_mask)(const tr__tri *const t[], uint32_t n, uint32_t keep, int32_t bx, int32_t by,
                         const int32_t r[4], uint64_t m[]);
    /* window_mask (AVX2 table only, NULL elsewhere): w->m[] = the pixel
     * centres of w's pixels (w->l) that t covers: in each block, what
     * tr__walk_block_coverage gives cut to l, in row-major order (or with
     * w->quads, in its own quad order).  false (nothing done) for edges
     * beyond its range (|a|, |b| > 2^25). */
    bool (*window_mask)(const tr__tri *t, tr__window *w);
} tr__walk_kernels;

/* The tables: the scalar reference, four lanes, eight lanes (in a build
 * without AVX2 kernels, where no context reaches TR_SIMD_AVX2, the same as
 * four lanes). */
extern const tr__walk_kernels tr__walk_kernels_scalar, tr__walk_kernels_sse, tr__walk_kernels_avx2;

/* The pixel centres of rows [ly0, ly1) of a block (its first centre at
 * subpixel (pxmin, pymin)) inside all three edges, a row of 8 per vector,
 * in tr__lanes order: the reference's masks; false (nothing done) for
 * edges beyond its range, and always in a build without AVX2 kernels
 * (walk_avx2.c). */
bool tr__walk_partial_coverage_avx2(const tr__tri *t, int64_t pxmin, int64_t pymin, uint32_t ly0, uint32_t ly1,
                                    uint64_t *out);
/* The same for up to 4 triangles that differ only in their edges' c (a
 * multisampled triangle moved to each sample), those of `keep` (the
 * others' m[s] = 0); false (nothing done) where a triangle's edges are
 * beyond the range, or differ in a or b. */
/* tr__walk_kernels.window_mask's AVX2 body (false in a build without
 * AVX2 kernels). */
bool tr__walk_window_mask_avx2(const tr__tri *t, tr__window *w);
bool tr__walk_samples_coverage_avx2(const tr__tri *const t[], uint32_t n, uint32_t keep, int64_t pxmin,
                                    int64_t pymin, uint32_t ly0, uint32_t ly1, uint64_t m[]);

/* Which pixel centres of the 8x8 block at (bx, by) (multiples of 8) the
 * triangle covers, restricted to the rectangle r (x0, y0, x1, y1); bit
 * 4*quad + 2*dy + dx, quads row-major.  ~0 when all 64 are covered.
 * k: the kernels (same result with any). */
uint64_t tr__walk_block_coverage(const tr__tri *t, int32_t bx, int32_t by, const int32_t r[4],
                                 const tr__walk_kernels *k);

/* Walking a triangle's 8x8 blocks along rows.  Each edge is evaluated at
 * the corner of the block lowest on it (lo) and the highest (hi), stepping
 * by whole blocks: the same integers tr__walk_block_coverage computes,
 * without its multiplies.  tr__block_walk_row starts a row at block
 * (bx0, by); tr__block_walk_step classifies the current block (0: outside
 * an edge, 1: partly inside, 2: inside all three) and moves one block on. */
typedef struct tr__block_walk {
    int64_t lo[3], hi[3], step[3];
    int64_t cx_lo[3], cx_hi[3], cy_lo[3], cy_hi[3];
} tr__block_walk;

static inline void tr__block_walk_begin(const tr__tri *t, tr__block_walk *w)
{
    const int64_t span = 7 * TR_SUBPIXEL_ONE;
    for (int k = 0; k < 3; k++) {
        const int64_t a = t->edge_a[k], b = t->edge_b[k];
        w->cx_lo[k] = a > 0 ? 0 : span;
        w->cx_hi[k] = a > 0 ? span : 0;
        w->cy_lo[k] = b > 0 ? 0 : span;
        w->cy_hi[k] = b > 0 ? span : 0;
        w->step[k] = a * 8 * TR_SUBPIXEL_ONE;
    }
}

static inline void tr__block_walk_row(const tr__tri *t, tr__block_walk *w, int32_t bx0, int32_t by)
{
    const int64_t px = (int64_t)bx0 * TR_SUBPIXEL_ONE + TR_SUBPIXEL_HALF;
    const int64_t py = (int64_t)by * TR_SUBPIXEL_ONE + TR_SUBPIXEL_HALF;
    for (int k = 0; k < 3; k++) {
        const int64_t a = t->edge_a[k], b = t->edge_b[k], c = t->edge_c[k];
        w->lo[k] = c + a * (px + w->cx_lo[k]) + b * (py + w->cy_lo[k]);
        w->hi[k] = c + a * (px + w->cx_hi[k]) + b * (py + w->cy_hi[k]);
    }
}

/* The class of the current block, without moving on. */
static inline int tr__block_walk_class(const tr__block_walk *w)
{
    return (w->hi[0] | w->hi[1] | w->hi[2]) < 0 ? 0 : (w->lo[0] | w->lo[1] | w->lo[2]) >= 0 ? 2 : 1;
}

static inline int tr__block_walk_step(tr__block_walk *w)
{
    const int cls = tr__block_walk_class(w);
    for (int k = 0; k < 3; k++) {
        w->lo[k] += w->step[k];
        w->hi[k] += w->step[k];
    }
    return cls;
}

/* Moves the walk on by k blocks along its row (as k steps). */
static inline void tr__block_walk_advance(tr__block_walk *w, int64_t k)
{
    for (int e = 0; e < 3; e++) {
        w->lo[e] += w->step[e] * k;
        w->hi[e] += w->step[e] * k;
    }
}

/* The i in [0, n) with v0 + step * i >= 0, an interval [*a, *b): estimated
 * in double, then settled on the exact integers (|step * n| and |v0| stay
 * far inside int64 for guard-band edges and rows of a bin). */
static inline void tr__nonneg_range(int64_t v0, int64_t step, int64_t n, int64_t *a, int64_t *b)
{
    if (step == 0) {
        *a = 0;
        *b = v0 >= 0 ? n : 0;
        return;
    }
    double x = -(double)v0 / (double)step; /* the crossing */
    x = x < -1.0 ? -1.0 : x > (double)n + 1.0 ? (double)n + 1.0 : x;
    int64_t t = (int64_t)x; /* truncated: within 1 of floor and ceil */
    if (step > 0) { /* i >= crossing */
        t = t < 0 ? 0 : t > n ? n : t;
        while (t > 0 && v0 + step * (t - 1) >= 0)
            t--;
        while (t < n && v0 + step * t < 0)
            t++;
        *a = t;
        *b = n;
    } else { /* i <= crossing */
        t = t < -1 ? -1 : t > n - 1 ? n - 1 : t;
        while (t + 1 < n && v0 + step * (t + 1) >= 0)
            t++;
        while (t >= 0 && v0 + step * t < 0)
            t--;
        *a = 0;
        *b = t + 1;
    }
}

/* The n blocks of a row from the walk's current one: those of class 1 or
 * 2 are [nz[0], nz[1]), those of class 2 [in[0], in[1]) (empty: a >= b).
 * The classes tr__block_walk_step would give, found by division instead
 * of by stepping: for rows of many blocks. */
static inline void tr__block_walk_ranges(const tr__block_walk *w, int64_t n, int64_t nz[2], int64_t in[2])
{
    nz[0] = in[0] = 0;
    nz[1] = in[1] = n;
    for (int e = 0; e < 3; e++) {
        int64_t a, b;
        tr__nonneg_range(w->hi[e], w->step[e], n, &a, &b);
        nz[0] = a > nz[0] ? a : nz[0];
        nz[1] = b < nz[1] ? b : nz[1];
        tr__nonneg_range(w->lo[e], w->step[e], n, &a, &b);
        in[0] = a > in[0] ? a : in[0];
        in[1] = b < in[1] ? b : in[1];
    }
}

/* Starts row `by` of the walk at block x0 (a multiple of 8) for the blocks
 * below pixel x1.  *xs, *xe: the pixels whose blocks to visit, the walk at
 * the first; in[0], in[1]: the pixels of the run of class-2 blocks (empty
 * when not `ranges`).  With `ranges` (rows of many blocks) the blocks of
 * class 0 at either end are found by division and skipped; false when the
 * row has no other. */
static inline bool tr__block_walk_row_span(const tr__tri *t, tr__block_walk *w, int32_t x0, int32_t x1, int32_t by,
                                           bool ranges, int32_t *xs, int32_t *xe, int32_t in[2])
{
    tr__block_walk_row(t, w, x0, by);
    *xs = x0;
    *xe = x1;
    in[0] = in[1] = 0;
    if (!ranges)
        return true;
    int64_t nz[2], cl[2];
    tr__block_walk_ranges(w, (x1 - x0 + 7) / 8, nz, cl);
    if (nz[0] >= nz[1])
        return false;
    tr__block_walk_advance(w, nz[0]);
    *xs = x0 + (int32_t)nz[0] * 8;
    *xe = TR_MIN(x1, x0 + (int32_t)nz[1] * 8);
    in[0] = x0 + (int32_t)cl[0] * 8;
    in[1] = x0 + (int32_t)cl[1] * 8;
    return true;
}

/* The coverage of block (bx, by) given its class from the walk (1 or 2),
 * cut to r; pixels outside `cut` but inside r must be ones the triangle
 * cannot cover (pass r itself when unsure). */
static inline uint64_t tr__walk_block_mask(const tr__tri *t, int32_t bx, int32_t by, const int32_t r[4],
                                           const int32_t cut[4], bool full, const tr__walk_kernels *k)
{
    if (full && bx >= cut[0] && by >= cut[1] && bx + 8 <= cut[2] && by + 8 <= cut[3])
        return ~0ull; /* the common case, inline */
    return k->block_mask(t, bx, by, r, cut, full);
}

/* TR__SPREAD_ROW of every 8-bit row mask, by table (the AVX2 kernels). */
extern const uint16_t tr__spread_row[256];

#endif
