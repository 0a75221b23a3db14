/* tilerast triangle walk: the coverage of one 8x8 block.
 *
 * A block the walk finds inside all three edges is covered whole; one it
 * finds partly inside is tested pixel centre by pixel centre, by the
 * scalar reference or a vector kernel (SIMDe's four lanes, AVX2's eight in
 * walk_avx2.c) that gives the same bits (tests/raster/test_kernels.c). */
#include "walk/walk_internal.h"

#include <simde/x86/sse2.h>

#define BLOCK 8

/* TR__SPREAD_ROW of every row mask. */
#define SPREAD(b) TR__SPREAD_ROW(b)
#define SPREAD4(b) SPREAD(b), SPREAD((b) + 1), SPREAD((b) + 2), SPREAD((b) + 3)
#define SPREAD16(b) SPREAD4(b), SPREAD4((b) + 4), SPREAD4((b) + 8), SPREAD4((b) + 12)
#define SPREAD64(b) SPREAD16(b), SPREAD16((b) + 16), SPREAD16((b) + 32), SPREAD16((b) + 48)
const uint16_t tr__spread_row[256] = {SPREAD64(0u), SPREAD64(64u), SPREAD64(128u), SPREAD64(192u)};
#undef SPREAD64
#undef SPREAD16
#undef SPREAD4
#undef SPREAD

/* The lanes (bits of a 16-lane row of quads) of the pixels set in the
 * 8-bit row mask r (bit lx) of row y: pixel pairs go to bits 0-1, 4-5,
 * 8-9, 12-13, shifted by 2 on odd rows (lane = 4*quad + 2*dy + dx). */
static inline uint64_t row_spread(uint32_t r, uint32_t y)
{
    return (uint64_t)TR__SPREAD_ROW(r) << (2 * (y & 1) + 16 * (y >> 1));
}

/* The pixel centres of a block that is neither outside an edge nor inside
 * all three, in 64-bit integers (the reference). */
static uint64_t partial_coverage_scalar(const tr__tri *t, int64_t pxmin, int64_t pymin, uint32_t ly0, uint32_t ly1)
{
    /* Row by row: an 8-bit row mask (bit lx) built without branches, then
     * spread into the quad-major lane order. */
    uint64_t m = 0;
    const int64_t s0 = t->edge_a[0] * TR_SUBPIXEL_ONE, s1 = t->edge_a[1] * TR_SUBPIXEL_ONE,
                  s2 = t->edge_a[2] * TR_SUBPIXEL_ONE;
    for (uint32_t ly = ly0; ly < ly1; ly++) {
        int64_t py = pymin + (int64_t)ly * TR_SUBPIXEL_ONE;
        int64_t e0 = t->edge_c[0] + t->edge_a[0] * pxmin + t->edge_b[0] * py;
        int64_t e1 = t->edge_c[1] + t->edge_a[1] * pxmin + t->edge_b[1] * py;
        int64_t e2 = t->edge_c[2] + t->edge_a[2] * pxmin + t->edge_b[2] * py;
        uint32_t row = 0;
        for (uint32_t lx = 0; lx < BLOCK; lx++) {
            row |= (uint32_t)((e0 | e1 | e2) >= 0) << lx;
            e0 += s0;
            e1 += s1;
            e2 += s2;
        }
        m |= row_spread(row, ly);
    }
    return m;
}

/* The same with 32-bit lanes, a 2x2 quad per vector (SIMDe: SSE2 where the
 * CPU has it, plain C elsewhere).  Pixel centres lie 256 subpixels apart,
 * so an edge value there is E0 + 256 k for the block's first centre's E0,
 * and E0 + 256 k >= 0 exactly when floor(E0 / 256) + k >= 0: the edges are
 * stepped in those units, by a and b per pixel.  With |a|, |b| <= 2^26 (far
 * beyond the guard band's edges), a block spans less than 14 * 2^26 < 2^30
 * of each, so a value beyond +-2^30 at the first centre keeps its sign over
 * the block and can be clamped there, and every sum stays inside int32.
 * The signs, hence the mask, are the scalar ones.  Returns false for
 * larger edges, leaving the block to the scalar path. */
static bool partial_coverage_simd(const tr__tri *t, int64_t pxmin, int64_t pymin, uint32_t ly0, uint32_t ly1,
                                  uint32_t lx0, uint32_t lx1, uint64_t *out)
{
    /* A quad per vector: its four lanes are the mask's four bits for it.
     * Only the quads over rows [ly0, ly1) and columns [lx0, lx1). */
    const uint32_t qy0 = ly0 / 2, qy1 = (ly1 + 1) / 2, qx0 = lx0 / 2, qx1 = (lx1 + 1) / 2;
    const int64_t lim = (int64_t)1 << 26, big = (int64_t)1 << 30;
    simde__m128i row[3], qstep_x[3], qstep_y[3];
    _Static_assert((-1 >> 1) == -1, "arithmetic right shift (floor)");
    for (int k = 0; k < 3; k++) {
        const int64_t sx = t->edge_a[k], sy = t->edge_b[k];
        if (sx > lim || sx < -lim || sy > lim || sy < -lim)
            return false;
        int64_t e = t->edge_c[k] + t->edge_a[k] * (pxmin + (int64_t)(2 * qx0) * TR_SUBPIXEL_ONE) +
                    t->edge_b[k] * (pymin + (int64_t)(2 * qy0) * TR_SUBPIXEL_ONE);
        e >>= TR_SUBPIXEL_BITS; /* floor(E0 / 256) */
        e = e > big ? big : e < -big ? -big : e;
        int32_t x = (int32_t)sx, y = (int32_t)sy;
        row[k] = simde_mm_add_epi32(simde_mm_set1_epi32((int32_t)e), simde_mm_setr_epi32(0, x, y, x + y));
        qstep_x[k] = simde_mm_set1_epi32(2 * x);
        qstep_y[k] = simde_mm_set1_epi32(2 * y);
    }
    const simde__m128i neg1 = simde_mm_set1_epi32(-1);
    uint64_t m = 0;
    for (uint32_t qy = qy0; qy < qy1; qy++) {
        simde__m128i v0 = row[0], v1 = row[1], v2 = row[2];
        for (uint32_t qx = qx0; qx < qx1; qx++) {
            simde__m128i in = simde_mm_and_si128(
                simde_mm_and_si128(simde_mm_cmpgt_epi32(v0, neg1), simde_mm_cmpgt_epi32(v1, neg1)),
                simde_mm_cmpgt_epi32(v2, neg1));
            m |= (uint64_t)(uint32_t)simde_mm_movemask_ps(simde_mm_castsi128_ps(in)) << (4 * (4 * qy + qx));
            v0 = simde_mm_add_epi32(v0, qstep_x[0]);
            v1 = simde_mm_add_epi32(v1, qstep_x[1]);
            v2 = simde_mm_add_epi32(v2, qstep_x[2]);
        }
        for (int k = 0; k < 3; k++)
            row[k] = simde_mm_add_epi32(row[k], qstep_y[k]);
    }
    *out = m;
    return true;
}

/* The pixel centres of block (bx, by) inside the rectangle r. */
static uint64_t rect_mask(int32_t bx, int32_t by, const int32_t r[4])
{
    /* The rectangle: its columns as a row mask, kept on its rows. */
    int32_t x0 = TR_MAX(r[0] - bx, 0), x1 = TR_MIN(r[2] - bx, BLOCK);
    int32_t y0 = TR_MAX(r[1] - by, 0), y1 = TR_MIN(r[3] - by, BLOCK);
    uint64_t rm = 0;
    if (x0 < x1) {
        uint32_t cols = (0xFFu >> (BLOCK - (x1 - x0))) << x0;
        for (int32_t ly = y0; ly < y1; ly++)
            rm |= row_spread(cols, (uint32_t)ly);
    }
    return rm;
}

/* The tested rows [ly0, ly1) and columns [lx0, lx1) of block (bx, by):
 * r's, in the block (pixels outside r are outside the triangle's box or
 * cut afterwards). */
static inline void rows_in(int32_t bx, int32_t by, const int32_t r[4], uint32_t l[4])
{
    int32_t y0 = TR_MAX(r[1] - by, 0), y1 = TR_MIN(r[3] - by, BLOCK);
    int32_t x0 = TR_MAX(r[0] - bx, 0), x1 = TR_MIN(r[2] - bx, BLOCK);
    y0 = TR_MIN(y0, BLOCK);
    y1 = TR_MAX(y1, y0);
    x0 = TR_MIN(x0, BLOCK);
    x1 = TR_MAX(x1, x0);
    /* 0 <= ly0 <= ly1 <= 8, and the same for lx */
    l[0] = (uint32_t)x0, l[1] = (uint32_t)y0, l[2] = (uint32_t)x1, l[3] = (uint32_t)y1;
}

/* The per-pixel tests of rows l[1]..l[3] (and, in the four-lane kernel,
 * columns l[0]..l[2]) with the widest kernel of `lanes` that takes the
 * edges. */
static inline __attribute__((always_inline)) uint64_t partial_body(const tr__tri *t, int64_t pxmin, int64_t pymin,
                                                                   const uint32_t l[4], int lanes)
{
    uint64_t m;
    if (!(lanes == 8 && tr__walk_partial_coverage_avx2(t, pxmin, pymin, l[1], l[3], &m)) &&
        !(lanes >= 4 && partial_coverage_simd(t, pxmin, pymin, l[1], l[3], l[0], l[2], &m)))
        m = partial_coverage_scalar(t, pxmin, pymin, l[1], l[3]);
    return m;
}

static inline bool crosses(int32_t bx, int32_t by, const int32_t cut[4])
{
    return bx < cut[0] || by < cut[1] || bx + BLOCK > cut[2] || by + BLOCK > cut[3];
}

/* The coverage of a block that no edge excludes: ~0 when `full` (inside
 * all three edges), else the per-pixel tests on the block's rows inside r;
 * then cut to the rectangle `cut` where the block crosses it.  Pixels of r
 * are tested; callers pass in `cut` a rectangle that holds r's pixels the
 * triangle can cover (r itself, or the bin and scissor when r is that cut
 * with the triangle's bounding box).  lanes: the widest kernel to try, 8
 * (AVX2), 4 or 0 (the scalar reference); each declines edges beyond its
 * range to the next. */
static inline __attribute__((always_inline)) uint64_t block_mask_body(const tr__tri *t, int32_t bx, int32_t by,
                                                                      const int32_t r[4], const int32_t cut[4],
                                                                      bool full, int lanes)
{
    uint64_t m = ~0ull;
    if (!full) {
        uint32_t l[4];
        rows_in(bx, by, r, l);
        m = partial_body(t, (int64_t)bx * TR_SUBPIXEL_ONE + TR_SUBPIXEL_HALF,
                         (int64_t)by * TR_SUBPIXEL_ONE + TR_SUBPIXEL_HALF, l, lanes);
    }
    if (crosses(bx, by, cut))
        m &= rect_mask(bx, by, cut);
    return m;
}

/* tr__walk_block_coverage of several triangles (a multisampled triangle
 * moved to each sample) over one block: the rows, columns and rectangle
 * worked out once, no walk (its class only saves tests whose answer it
 * knows: the per-pixel tests give the same bits). */
static inline __attribute__((always_inline)) void samples_mask_body(const tr__tri *const t[], uint32_t n,
                                                                    uint32_t keep, int32_t bx, int32_t by,
                                                                    const int32_t r[4], uint64_t m[], int lanes)
{
    uint32_t l[4];
    rows_in(bx, by, r, l);
    const uint64_t cut = crosses(bx, by, r) ? rect_mask(bx, by, r) : ~0ull;
    const int64_t pxmin = (int64_t)bx * TR_SUBPIXEL_ONE + TR_SUBPIXEL_HALF;
    const int64_t pymin = (int64_t)by * TR_SUBPIXEL_ONE + TR_SUBPIXEL_HALF;
    if (lanes == 8 && tr__walk_samples_coverage_avx2(t, n, keep, pxmin, pymin, l[1], l[3], m)) {
        for (uint32_t s = 0; s < n; s++)
            m[s] &= cut;
        return;
    }
    for (uint32_t s = 0; s < n; s++)
        m[s] = (keep >> s) & 1u ? partial_body(t[s], pxmin, pymin, l, lanes) & cut : 0;
}

/* Coverage of the 8x8 block at (bx, by) restricted to [r0, r1) in x and y:
 * the block walk's class for this one block, then its mask. */
uint64_t tr__walk_block_coverage(const tr__tri *t, int32_t bx, int32_t by, const int32_t r[4],
                                 const tr__walk_kernels *k)
{
    tr__block_walk w;
    tr__block_walk_begin(t, &w);
    tr__block_walk_row(t, &w, bx, by);
    const int cls = tr__block_walk_step(&w);
    return cls ? tr__walk_block_mask(t, bx, by, r, r, cls == 2, k) : 0;
}

/* block_mask_body and samples_mask_body stamped out per kernel width. */
#define TR__STAMP(lanes)                                                                                           \
    static uint64_t block_mask_##lanes(const tr__tri *t, int32_t bx, int32_t by, const int32_t r[4],              \
                                       const int32_t cut[4], bool full)                                           \
    {                                                                                                             \
        return block_mask_body(t, bx, by, r, cut, full, lanes);                                                   \
    }                                                                                                             \
    static void samples_mask_##lanes(const tr__tri *const t[], uint32_t n, uint32_t keep, int32_t bx, int32_t by, \
                                     const int32_t r[4], uint64_t m[])                                            \
    {                                                                                                             \
        samples_mask_body(t, n, keep, bx, by, r, m, lanes);                                                       \
    }
TR__STAMP(0)
TR__STAMP(4)
TR__STAMP(8)
#undef TR__STAMP

const tr__walk_kernels tr__walk_kernels_scalar = {.block_mask = block_mask_0, .samples_mask = samples_mask_0};
const tr__walk_kernels tr__walk_kernels_sse = {.block_mask = block_mask_4, .samples_mask = samples_mask_4};
const tr__walk_kernels tr__walk_kernels_avx2 = {.block_mask = block_mask_8, .samples_mask = samples_mask_8,
                                                .window_mask = tr__walk_window_mask_avx2};
