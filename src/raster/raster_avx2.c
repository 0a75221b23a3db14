/* tilerast raster stage: the 8-lane (AVX2) kernels, two 2x2 quads per
 * vector.  This file alone is compiled with -mavx2 (CMakeLists.txt, on
 * x86-64), and its functions run only when the context's SIMD level is
 * TR_SIMD_AVX2, which tr_context_create picks only on a CPU that has AVX2.
 * Each does per lane the IEEE operations, in the order, of its 4-lane twin
 * in raster_quad.c (and so of the scalar reference): tests/raster/
 * test_kernels.c compares all three bit for bit. */
#include "raster/raster_internal.h"

#include <math.h>

#if TILERAST_AVX2_KERNELS
#include <simde/x86/avx2.h>

#include "walk/walk_avx2.h"

typedef simde__m256 v8f;
typedef simde__m256i v8i;

/* tr__clamp_depth on two quads: z >= lo ? (z <= hi ? z : hi) : lo, NaN -> lo
 * (ordered compares and selects, as clamp_depth4). */
static inline v8f clamp_depth8(v8f z, v8f lo, v8f hi)
{
    const v8f t = simde_mm256_blendv_ps(hi, z, simde_mm256_cmp_ps(z, hi, SIMDE_CMP_LE_OQ));
    return simde_mm256_blendv_ps(lo, t, simde_mm256_cmp_ps(z, lo, SIMDE_CMP_GE_OQ));
}

/* A triangle's barycentric and depth planes and the depth range,
 * broadcast: lanes_setup's constants. */
typedef struct planes8 {
    v8f l1a, l1b, l2a, l2b, a0, a1, a2, lo, hi;
} planes8;

static inline planes8 planes_of(const tr__tri *t, float depth_min, float depth_max)
{
    const float *at = t->attr;
    return (planes8){simde_mm256_set1_ps(t->l1_a), simde_mm256_set1_ps(t->l1_b), simde_mm256_set1_ps(t->l2_a),
                     simde_mm256_set1_ps(t->l2_b), simde_mm256_set1_ps(at[0]),   simde_mm256_set1_ps(at[1]),
                     simde_mm256_set1_ps(at[2]),   simde_mm256_set1_ps(depth_min), simde_mm256_set1_ps(depth_max)};
}

/* lanes_setup's vector-path condition: offsets from vertex 0 of a block at
 * (x, y) (a block's or its first quad's corner) within int32's range. */
static inline bool vector_offsets(const tr__tri *t, int32_t x, int32_t y)
{
    const int64_t dx0 = (int64_t)x * TR_SUBPIXEL_ONE - t->x0, dy0 = (int64_t)y * TR_SUBPIXEL_ONE - t->y0;
    const int64_t lim = (int64_t)1 << 30;
    return dx0 > -lim && dx0 < lim && dy0 > -lim && dy0 < lim;
}

/* The barycentrics of quads j (lanes 0-3) and k (4-7) of ln, as
 * lanes_setup computes them. */
static inline void pair_bary(const planes8 *P, const tr__tri *t, const tr__lanes *ln, uint32_t j, uint32_t k, v8f *l1,
                             v8f *l2)
{
    /* lane offsets of two quads, in subpixels */
    const v8i sx = simde_mm256_slli_epi32(simde_mm256_setr_epi32(0, 1, 0, 1, 0, 1, 0, 1), TR_SUBPIXEL_BITS);
    const v8i sy = simde_mm256_slli_epi32(simde_mm256_setr_epi32(0, 0, 1, 1, 0, 0, 1, 1), TR_SUBPIXEL_BITS);
    const int32_t x0 = (int32_t)((int64_t)ln->qx[j] * TR_SUBPIXEL_ONE + TR_SUBPIXEL_HALF - t->x0);
    const int32_t y0 = (int32_t)((int64_t)ln->qy[j] * TR_SUBPIXEL_ONE + TR_SUBPIXEL_HALF - t->y0);
    const int32_t x1 = (int32_t)((int64_t)ln->qx[k] * TR_SUBPIXEL_ONE + TR_SUBPIXEL_HALF - t->x0);
    const int32_t y1 = (int32_t)((int64_t)ln->qy[k] * TR_SUBPIXEL_ONE + TR_SUBPIXEL_HALF - t->y0);
    const v8f dx = simde_mm256_cvtepi32_ps(simde_mm256_add_epi32(simde_mm256_setr_epi32(x0, x0, x0, x0, x1, x1, x1, x1), sx));
    const v8f dy = simde_mm256_cvtepi32_ps(simde_mm256_add_epi32(simde_mm256_setr_epi32(y0, y0, y0, y0, y1, y1, y1, y1), sy));
    *l1 = simde_mm256_add_ps(simde_mm256_mul_ps(P->l1a, dx), simde_mm256_mul_ps(P->l1b, dy));
    *l2 = simde_mm256_add_ps(simde_mm256_mul_ps(P->l2a, dx), simde_mm256_mul_ps(P->l2b, dy));
}

/* The clamped depth at barycentrics l1, l2. */
static inline v8f plane_z(const planes8 *P, v8f l1, v8f l2)
{
    return clamp_depth8(simde_mm256_add_ps(simde_mm256_add_ps(P->a0, simde_mm256_mul_ps(l1, P->a1)),
                                           simde_mm256_mul_ps(l2, P->a2)),
                        P->lo, P->hi);
}

/* A triangle of one depth: a1 = a2 = 0 with finite barycentric planes
 * (|l| below 2^96 over the int32 offsets) and a0 not zero.  Then every
 * lane's plane_z is a0 + (+-0) + (+-0) = a0, and *z gets it clamped
 * without the barycentrics.  False otherwise: with a0 = 0 the lanes'
 * signs would pick +0 or -0, with infinite planes NaN. */
static inline bool flat_depth(const tr__tri *t, const planes8 *P, v8f *z)
{
    const float *at = t->attr, lim = 0x1p64f;
    if (!(at[1] == 0.0f && at[2] == 0.0f && at[0] != 0.0f && fabsf(t->l1_a) <= lim && fabsf(t->l1_b) <= lim &&
          fabsf(t->l2_a) <= lim && fabsf(t->l2_b) <= lim))
        return false;
    *z = clamp_depth8(P->a0, P->lo, P->hi);
    return true;
}

/* Quads j and k's barycentrics (one quad when k == j) into ln, as
 * lanes_setup8 and depth_lanes8 store them. */
static inline void store_pair(tr__lanes *ln, uint32_t j, uint32_t k, v8f l1, v8f l2)
{
    if (k != j) {
        simde_mm256_storeu_ps(&ln->l1[4 * j], l1);
        simde_mm256_storeu_ps(&ln->l2[4 * j], l2);
    } else {
        simde_mm_storeu_ps(&ln->l1[4 * j], simde_mm256_castps256_ps128(l1));
        simde_mm_storeu_ps(&ln->l2[4 * j], simde_mm256_castps256_ps128(l2));
    }
}

/* lanes_setup's vector path, 8 lanes at a time (depth: TR__LANES_Z). */
static void lanes_setup8(const tr__tri *t, float depth_min, float depth_max, tr__lanes *ln, bool depth)
{
    const planes8 P = planes_of(t, depth_min, depth_max);
    for (uint32_t j = 0; j < ln->nq; j += 2) {
        /* An odd last quad is computed twice and stored once. */
        const uint32_t k = j + 1 < ln->nq ? j + 1 : j;
        v8f l1, l2;
        pair_bary(&P, t, ln, j, k, &l1, &l2);
        const v8f z = depth ? plane_z(&P, l1, l2) : simde_mm256_setzero_ps();
        store_pair(ln, j, k, l1, l2);
        if (depth) {
            if (k != j)
                simde_mm256_storeu_ps(&ln->z[4 * j], z);
            else
                simde_mm_storeu_ps(&ln->z[4 * j], simde_mm256_castps256_ps128(z));
        }
    }
}

/* TR__SPREAD_ROW of every row mask, by table (walk_coverage.c). */
#define spread_row tr__spread_row

/* One row: depths computed as tr__lanes_setup computes them, tested (and,
 * when `write`, written) against the GMEM row; returns the row's pass mask. */
#define DEPTH_ROW(CMP)                                                                                              \
    do {                                                                                                            \
        v8f z = zc;                                                                                                 \
        if (!flat) {                                                                                                \
            const v8f dy = simde_mm256_cvtepi32_ps(simde_mm256_set1_epi32(ys + (int32_t)(r << TR_SUBPIXEL_BITS))); \
            const v8f l1 = simde_mm256_add_ps(xl1, simde_mm256_mul_ps(P.l1b, dy));                                  \
            const v8f l2 = simde_mm256_add_ps(xl2, simde_mm256_mul_ps(P.l2b, dy));                                  \
            z = plane_z(&P, l1, l2);                                                                                \
        }                                                                                                           \
        float *row = dbuf + (size_t)r * pitch;                                                                      \
        const v8f d = simde_mm256_loadu_ps(row);                                                                    \
        const v8f ok = simde_mm256_cmp_ps(z, d, CMP);                                                               \
        const uint32_t m = (uint32_t)simde_mm256_movemask_ps(ok);                                                   \
        if (write && m)                                                                                             \
            simde_mm256_storeu_ps(row, simde_mm256_blendv_ps(d, z, ok));                                            \
        bits |= (uint64_t)spread_row[m] << (16 * (r >> 1) + 2 * (r & 1));                                           \
    } while (0)

/* tr__kernels.depth_block (raster_internal.h). */
static bool depth_block8(const tr__tri *t, float depth_min, float depth_max, float *dbuf, uint32_t pitch,
                         int32_t bx, int32_t by, tr_compare_op op, bool write, uint64_t *pass)
{
    /* tr__lanes_setup's int32 offsets (its vector-path condition) */
    if (!vector_offsets(t, bx, by))
        return false;
    if (op != TR_COMPARE_LESS && op != TR_COMPARE_LESS_OR_EQUAL && op != TR_COMPARE_GREATER &&
        op != TR_COMPARE_GREATER_OR_EQUAL)
        return false;
    const planes8 P = planes_of(t, depth_min, depth_max);
    const int32_t xs = (int32_t)((int64_t)bx * TR_SUBPIXEL_ONE - t->x0 + TR_SUBPIXEL_HALF);
    const int32_t ys = (int32_t)((int64_t)by * TR_SUBPIXEL_ONE - t->y0 + TR_SUBPIXEL_HALF);
    const v8f dx = simde_mm256_cvtepi32_ps(simde_mm256_add_epi32(
        simde_mm256_set1_epi32(xs), simde_mm256_slli_epi32(simde_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
                                                           TR_SUBPIXEL_BITS)));
    const v8f xl1 = simde_mm256_mul_ps(P.l1a, dx), xl2 = simde_mm256_mul_ps(P.l2a, dx);
    v8f zc = simde_mm256_setzero_ps();
    const bool flat = flat_depth(t, &P, &zc);
    uint64_t bits = 0;
    /* ordered compares, as depth_pass4's; the predicate must be a constant,
     * so one loop per op */
    switch (op) {
    case TR_COMPARE_LESS:
        for (uint32_t r = 0; r < 8; r++)
            DEPTH_ROW(SIMDE_CMP_LT_OQ);
        break;
    case TR_COMPARE_LESS_OR_EQUAL:
        for (uint32_t r = 0; r < 8; r++)
            DEPTH_ROW(SIMDE_CMP_LE_OQ);
        break;
    case TR_COMPARE_GREATER:
        for (uint32_t r = 0; r < 8; r++)
            DEPTH_ROW(SIMDE_CMP_GT_OQ);
        break;
    default:
        for (uint32_t r = 0; r < 8; r++)
            DEPTH_ROW(SIMDE_CMP_GE_OQ);
        break;
    }
    *pass = bits;
    return true;
}
#undef DEPTH_ROW

/* A quad's four depth texels (rows pitch texels apart) in tr__lanes
 * order, and back. */
static inline simde__m128 load_quad_texels(const float *p, uint32_t pitch)
{
    return simde_mm_loadh_pi(simde_mm_loadl_pi(simde_mm_setzero_ps(), (const simde__m64 *)(const void *)p),
                             (const simde__m64 *)(const void *)(p + pitch));
}

static inline void store_quad_texels(float *p, uint32_t pitch, simde__m128 v)
{
    simde_mm_storel_pi((simde__m64 *)(void *)p, v);
    simde_mm_storeh_pi((simde__m64 *)(void *)(p + pitch), v);
}

/* tr__kernels.depth_lanes (raster_internal.h): lanes_setup8's depths of
 * two quads at a time, only for pairs with a live lane, each pair's depth
 * texels gathered, compared and written back as depth_quads_op does;
 * with `bary`, every pair's barycentrics stored (store_pair). */
#define DEPTH_PAIRS(CMP)                                                                                            \
    do {                                                                                                            \
        for (uint32_t j = 0; j < ln->nq; j += 2) {                                                                  \
            const uint32_t k = j + 1 < ln->nq ? j + 1 : j;                                                          \
            const uint32_t qm = (uint32_t)(live >> (4 * j)) & (k != j ? 0xffu : 0xfu);                              \
            v8f z = zc;                                                                                             \
            if (bary || (qm && !flat)) {                                                                            \
                v8f l1, l2;                                                                                         \
                pair_bary(&P, t, ln, j, k, &l1, &l2);                                                               \
                if (bary)                                                                                           \
                    store_pair(ln, j, k, l1, l2);                                                                   \
                if (!flat)                                                                                          \
                    z = plane_z(&P, l1, l2);                                                                        \
            }                                                                                                       \
            if (!qm)                                                                                                \
                continue;                                                                                           \
            float *p = dbuf + (size_t)(ln->qy[j] - origin[1]) * pitch + (size_t)(ln->qx[j] - origin[0]);           \
            float *q = dbuf + (size_t)(ln->qy[k] - origin[1]) * pitch + (size_t)(ln->qx[k] - origin[0]);           \
            const v8f d = simde_mm256_set_m128(load_quad_texels(q, pitch), load_quad_texels(p, pitch));            \
            const uint32_t pm = (uint32_t)simde_mm256_movemask_ps(simde_mm256_cmp_ps(z, d, CMP)) & qm;              \
            fail |= (uint64_t)(qm & ~pm) << (4 * j);                                                                \
            if (write && pm) {                                                                                      \
                const v8i sel = simde_mm256_cmpgt_epi32(                                                            \
                    simde_mm256_and_si256(simde_mm256_set1_epi32((int32_t)pm), lane_bit), simde_mm256_setzero_si256()); \
                const v8f out = simde_mm256_blendv_ps(d, z, simde_mm256_castsi256_ps(sel));                         \
                store_quad_texels(p, pitch, simde_mm256_castps256_ps128(out));                                      \
                if (k != j)                                                                                         \
                    store_quad_texels(q, pitch, simde_mm256_extractf128_ps(out, 1));                                \
            }                                                                                                       \
        }                                                                                                           \
    } while (0)

static inline __attribute__((always_inline)) bool depth_lanes8(const tr__tri *t, float depth_min, float depth_max,
                                                               float *dbuf, uint32_t pitch, const int32_t origin[2],
                                                               tr__lanes *ln, uint64_t live, tr_compare_op op,
                                                               bool write, bool bary, uint64_t *fail_out)
{
    /* lanes_setup's vector-path condition, on the first quad */
    if (!ln->nq || !vector_offsets(t, ln->qx[0], ln->qy[0]))
        return false;
    const planes8 P = planes_of(t, depth_min, depth_max);
    v8f zc = simde_mm256_setzero_ps();
    const bool flat = flat_depth(t, &P, &zc);
    const v8i lane_bit = simde_mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    uint64_t fail = 0;
    /* ordered compares, as depth_pass4's; one loop per op (a constant predicate) */
    switch (op) {
    case TR_COMPARE_LESS: DEPTH_PAIRS(SIMDE_CMP_LT_OQ); break;
    case TR_COMPARE_LESS_OR_EQUAL: DEPTH_PAIRS(SIMDE_CMP_LE_OQ); break;
    case TR_COMPARE_GREATER: DEPTH_PAIRS(SIMDE_CMP_GT_OQ); break;
    case TR_COMPARE_GREATER_OR_EQUAL: DEPTH_PAIRS(SIMDE_CMP_GE_OQ); break;
    default: return false;
    }
    *fail_out = fail;
    return true;
}
#undef DEPTH_PAIRS

bool tr__depth_lanes_avx2(const tr__tri *t, float depth_min, float depth_max, float *dbuf, uint32_t pitch,
                          const int32_t origin[2], tr__lanes *ln, uint64_t live, tr_compare_op op, bool write,
                          bool bary, uint64_t *fail)
{
    /* one body with barycentrics and one without (constants once inlined) */
    return bary ? depth_lanes8(t, depth_min, depth_max, dbuf, pitch, origin, ln, live, op, write, true, fail)
                : depth_lanes8(t, depth_min, depth_max, dbuf, pitch, origin, ln, live, op, write, false, fail);
}

/* ---- the small-triangle path's window (raster_tri.c) ------------------------------------------ */

/* The lanes of an 8-bit row mask (bit c: lane c), as a select. */
static inline v8i row_select(uint32_t bits)
{
    const v8i lane_bit = simde_mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    return simde_mm256_cmpgt_epi32(simde_mm256_and_si256(simde_mm256_set1_epi32((int32_t)bits), lane_bit),
                                   simde_mm256_setzero_si256());
}

/* GMEM texel (x, y) of a buffer whose texel (0, 0) is at origin, as an
 * address (it may lie before the buffer for a block that starts left of
 * the bin: only its pixels inside are read). */
static inline uintptr_t texel_at(const void *base, size_t cpp, uint32_t pitch, const int32_t origin[2], int32_t x,
                                 int32_t y)
{
    return (uintptr_t)base + (uintptr_t)(((intptr_t)(y - origin[1]) * (intptr_t)pitch + (x - origin[0])) *
                                         (intptr_t)cpp);
}

/* The ordered compare of depth_pass4 for op (a constant once inlined). */
static inline __attribute__((always_inline)) v8f depth_cmp8(tr_compare_op op, v8f z, v8f d)
{
    switch (op) {
    case TR_COMPARE_LESS: return simde_mm256_cmp_ps(z, d, SIMDE_CMP_LT_OQ);
    case TR_COMPARE_LESS_OR_EQUAL: return simde_mm256_cmp_ps(z, d, SIMDE_CMP_LE_OQ);
    case TR_COMPARE_GREATER: return simde_mm256_cmp_ps(z, d, SIMDE_CMP_GT_OQ);
    default: return simde_mm256_cmp_ps(z, d, SIMDE_CMP_GE_OQ);
    }
}

/* What window_half does to the pixels of one block (window_raster_body
 * works them out once per block row). */
typedef struct window_block {
    bool reject, lrz, inside;
    v8f bound;
    uint64_t reject_m;         /* the pixels rejected before the tests (tr__window_tests.reject_m) */
} window_block;

static inline window_block window_block_of(const tr__window_tests *wt, uint32_t k)
{
    return (window_block){(wt->reject >> k) & 1, (wt->lrz_test >> k) & 1, (wt->inside >> k) & 1,
                          simde_mm256_set1_ps(wt->lrz_bound[k]), wt->reject_m ? wt->reject_m[k] : 0};
}

/* One half of a window row (a block's row r, its pixels cov): the LRZ
 * test where the block has one, then the depth test and write where
 * there is a depth buffer; returns the survivors' lanes. */
static inline __attribute__((always_inline)) uint32_t window_half(const tr__window_tests *wt, const window_block *b,
                                                                  uint32_t r, v8f cov, v8f z, float *row, bool test,
                                                                  bool less, tr_compare_op op, uint64_t *rej)
{
    v8f live = cov;
    if (b->reject_m)
        live = simde_mm256_andnot_ps(simde_mm256_castsi256_ps(row_select((uint32_t)(b->reject_m >> (8 * r)) & 0xffu)),
                                     live);
    if (b->lrz) {
        const v8f beyond = less ? simde_mm256_cmp_ps(z, b->bound, SIMDE_CMP_GT_OQ)
                                : simde_mm256_cmp_ps(z, b->bound, SIMDE_CMP_LT_OQ);
        *rej |= (uint64_t)(uint32_t)simde_mm256_movemask_ps(simde_mm256_and_ps(beyond, live)) << (8 * r);
        live = simde_mm256_andnot_ps(beyond, live);
    }
    if (test) {
        if (b->inside) {
            const v8f d = simde_mm256_loadu_ps(row);
            live = simde_mm256_and_ps(live, depth_cmp8(op, z, d));
            if (wt->write)
                simde_mm256_storeu_ps(row, simde_mm256_blendv_ps(d, z, live));
        } else {
            const v8f d = simde_mm256_maskload_ps(row, simde_mm256_castps_si256(live));
            live = simde_mm256_and_ps(live, depth_cmp8(op, z, d));
            if (wt->write)
                simde_mm256_maskstore_ps(row, simde_mm256_castps_si256(live), z);
        }
    }
    return (uint32_t)simde_mm256_movemask_ps(live);
}

/* A row's coverage of 8 pixels: the three edges' values >= 0 there (the
 * sign bit of their OR clear) and the columns of l (cm), as a lane mask
 * in the sign bits (what movemask, blendv and the masked loads read). */
static inline __attribute__((always_inline)) v8f cover8(v8i e0, v8i e1, v8i e2, v8f cm)
{
    const v8i any_neg = simde_mm256_or_si256(simde_mm256_or_si256(e0, e1), e2);
    return simde_mm256_andnot_ps(simde_mm256_castsi256_ps(any_neg), cm);
}

/* The current window row's coverage, its left and right vectors (cover8
 * with the columns cm0, cm1), and the edges moved on to the next row. */
static inline __attribute__((always_inline)) void window_row(v8i *l0, v8i *l1, v8i *l2, v8i *r0, v8i *r1, v8i *r2,
                                                             v8i s0, v8i s1, v8i s2, v8f cm0, v8f cm1, v8f *cl,
                                                             v8f *cr)
{
    *cl = cover8(*l0, *l1, *l2, cm0);
    *cr = cover8(*r0, *r1, *r2, cm1);
    *l0 = simde_mm256_add_epi32(*l0, s0), *l1 = simde_mm256_add_epi32(*l1, s1), *l2 = simde_mm256_add_epi32(*l2, s2);
    *r0 = simde_mm256_add_epi32(*r0, s0), *r1 = simde_mm256_add_epi32(*r1, s1), *r2 = simde_mm256_add_epi32(*r2, s2);
}

/* The rows [y0, y1) of one block row of a window (its blocks k0 and
 * k0 + 1; k0 a constant once inlined), 16 pixels each: two vectors, each
 * the row of one block (only those l reaches, `left` and `right`), the
 * coverage as lane masks, the depth of the pixels as depth_block8's rows
 * make it, then window_half for each block not rejected whole.  The edges
 * are kept in locals (registers), not e. */
static inline __attribute__((always_inline)) void window_rows(const planes8 *P, bool flat, v8f zc,
                                                              const tr__window_tests *wt, tr__window_edges *e,
                                                              uint32_t k0, uint32_t y0, uint32_t y1, bool left,
                                                              bool right, const v8f colmask[2], const v8f xl1[2],
                                                              const v8f xl2[2], int32_t ys0, float *row,
                                                              uint64_t out_m[4], uint32_t cov_n[4], uint64_t rej[4],
                                                              uint64_t cov_m[4], tr_compare_op op)
{
    const bool test = wt->dbuf != NULL, less = wt->lrz_dir == TR_LRZ_DIRECTION_LESS;
    const size_t pitch = wt->pitch;
    const window_block b0 = window_block_of(wt, k0), b1 = window_block_of(wt, k0 + 1);
    v8i l0 = e->left[0], l1 = e->left[1], l2 = e->left[2], r0 = e->right[0], r1 = e->right[1], r2 = e->right[2];
    const v8i s0 = e->step_y[0], s1 = e->step_y[1], s2 = e->step_y[2];
    const v8f cm0 = colmask[0], cm1 = colmask[1];
    uint64_t m0 = 0, m1 = 0, j0 = 0, j1 = 0, c0 = 0, c1 = 0;
    uint32_t n0 = 0, n1 = 0;
    if (flat && test && !b0.lrz && !b1.lrz && !b0.reject && !b1.reject && b0.inside && b1.inside && !b0.reject_m &&
        !b1.reject_m && !cov_m) {
        /* the common case: one depth, tested, every block inside the bin */
        const bool write = wt->write;
        for (uint32_t y = y0; y < y1; y++, row += pitch) {
            v8f cl, cr;
            window_row(&l0, &l1, &l2, &r0, &r1, &r2, s0, s1, s2, cm0, cm1, &cl, &cr);
            const uint32_t bl = left ? (uint32_t)simde_mm256_movemask_ps(cl) : 0u;
            const uint32_t bri = right ? (uint32_t)simde_mm256_movemask_ps(cr) : 0u;
            const uint32_t sh = 8 * (y & 7);
            if (bl) {
                n0 += (uint32_t)__builtin_popcount(bl);
                const v8f d = simde_mm256_loadu_ps(row);
                const v8f ok = simde_mm256_and_ps(cl, depth_cmp8(op, zc, d));
                if (write)
                    simde_mm256_storeu_ps(row, simde_mm256_blendv_ps(d, zc, ok));
                m0 |= (uint64_t)(uint32_t)simde_mm256_movemask_ps(ok) << sh;
            }
            if (bri) {
                n1 += (uint32_t)__builtin_popcount(bri);
                const v8f d = simde_mm256_loadu_ps(row + 8);
                const v8f ok = simde_mm256_and_ps(cr, depth_cmp8(op, zc, d));
                if (write)
                    simde_mm256_storeu_ps(row + 8, simde_mm256_blendv_ps(d, zc, ok));
                m1 |= (uint64_t)(uint32_t)simde_mm256_movemask_ps(ok) << sh;
            }
        }
    } else {
        /* row is NULL without a depth buffer: its rows are offsets from it
         * only where there is one */
        for (uint32_t y = y0; y < y1; y++) {
            v8f cl, cr;
            window_row(&l0, &l1, &l2, &r0, &r1, &r2, s0, s1, s2, cm0, cm1, &cl, &cr);
            const uint32_t bl = left ? (uint32_t)simde_mm256_movemask_ps(cl) : 0u;
            const uint32_t bri = right ? (uint32_t)simde_mm256_movemask_ps(cr) : 0u;
            if (!(bl | bri))
                continue;
            float *dr = row ? row + (size_t)(y - y0) * pitch : NULL;
            const uint32_t r = y & 7;
            c0 |= (uint64_t)bl << (8 * r);
            c1 |= (uint64_t)bri << (8 * r);
            v8f dy = simde_mm256_setzero_ps();
            if (!flat)
                dy = simde_mm256_cvtepi32_ps(simde_mm256_set1_epi32(ys0 + (int32_t)(y << TR_SUBPIXEL_BITS)));
            if (bl) {
                n0 += (uint32_t)__builtin_popcount(bl);
                if (!b0.reject) {
                    const v8f z = flat ? zc : plane_z(P, simde_mm256_add_ps(xl1[0], simde_mm256_mul_ps(P->l1b, dy)),
                                                      simde_mm256_add_ps(xl2[0], simde_mm256_mul_ps(P->l2b, dy)));
                    m0 |= (uint64_t)window_half(wt, &b0, r, cl, z, dr, test, less, op, &j0) << (8 * r);
                }
            }
            if (bri) {
                n1 += (uint32_t)__builtin_popcount(bri);
                if (!b1.reject) {
                    const v8f z = flat ? zc : plane_z(P, simde_mm256_add_ps(xl1[1], simde_mm256_mul_ps(P->l1b, dy)),
                                                      simde_mm256_add_ps(xl2[1], simde_mm256_mul_ps(P->l2b, dy)));
                    m1 |= (uint64_t)window_half(wt, &b1, r, cr, z, dr ? dr + 8 : NULL, test, less, op, &j1) << (8 * r);
                }
            }
        }
    }
    e->left[0] = l0, e->left[1] = l1, e->left[2] = l2, e->right[0] = r0, e->right[1] = r1, e->right[2] = r2;
    out_m[k0] = m0;
    out_m[k0 + 1] = m1;
    cov_n[k0] = n0;
    cov_n[k0 + 1] = n1;
    rej[k0] = j0;
    rej[k0 + 1] = j1;
    if (cov_m) {
        cov_m[k0] = c0;
        cov_m[k0 + 1] = c1;
    }
}

/* tr__window_raster_avx2 for one compare op and depth kind (flat: one
 * depth, zc): the window's two block rows (window_rows). */
static inline __attribute__((always_inline)) void window_raster_body(const tr__tri *t, const planes8 *P, bool flat,
                                                                     v8f zc, const tr__window_tests *wt,
                                                                     tr__window *w, tr__window_edges *e,
                                                                     tr__window_counts *n, uint64_t cov_m[4],
                                                                     tr_compare_op op)
{
    const v8i cols = simde_mm256_slli_epi32(simde_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), TR_SUBPIXEL_BITS);
    const uint32_t y0 = w->l[1], y1 = w->l[3];
    const bool left = w->l[0] < 8, right = w->l[2] > 8;
    const v8f colmask[2] = {simde_mm256_castsi256_ps(row_select(e->cols & 0xffu)),
                            simde_mm256_castsi256_ps(row_select(e->cols >> 8))};
    /* the barycentrics' x parts of each block column; y0's offset */
    v8f xl1[2], xl2[2];
    for (uint32_t c = 0; c < 2; c++) {
        const int32_t xs = (int32_t)((int64_t)(w->x + 8 * (int32_t)c) * TR_SUBPIXEL_ONE - t->x0 + TR_SUBPIXEL_HALF);
        const v8f dx = simde_mm256_cvtepi32_ps(simde_mm256_add_epi32(simde_mm256_set1_epi32(xs), cols));
        xl1[c] = simde_mm256_mul_ps(P->l1a, dx);
        xl2[c] = simde_mm256_mul_ps(P->l2a, dx);
    }
    const int32_t ys0 = (int32_t)((int64_t)w->y * TR_SUBPIXEL_ONE - t->y0 + TR_SUBPIXEL_HALF);
    float *row = wt->dbuf ? (float *)(void *)texel_at(wt->dbuf, 4, wt->pitch, wt->origin, w->x, w->y + (int32_t)y0)
                          : NULL;
    uint64_t out_m[4] = {0, 0, 0, 0}, rej[4] = {0, 0, 0, 0};
    uint32_t cov_n[4] = {0, 0, 0, 0};
    const uint32_t mid = y0 < 8 ? (y1 < 8 ? y1 : 8) : y0;
    if (cov_m)
        cov_m[0] = cov_m[1] = cov_m[2] = cov_m[3] = 0;
    if (y0 < mid)
        window_rows(P, flat, zc, wt, e, 0, y0, mid, left, right, colmask, xl1, xl2, ys0, row, out_m, cov_n, rej, cov_m,
                    op);
    if (mid < y1)
        window_rows(P, flat, zc, wt, e, 2, mid, y1, left, right, colmask, xl1, xl2, ys0,
                    row ? row + (size_t)(mid - y0) * wt->pitch : NULL, out_m, cov_n, rej, cov_m, op);
    for (uint32_t k = 0; k < 4; k++) {
        w->m[k] = out_m[k];
        n->covered[k] = cov_n[k];
        n->lrz_rejected[k] = (uint32_t)__builtin_popcountll(rej[k]);
        n->passed[k] = (uint32_t)__builtin_popcountll(out_m[k]);
    }
}

bool tr__window_raster_avx2(const tr__tri *t, float depth_min, float depth_max, const tr__window_tests *wt,
                            tr__window *w, tr__window_counts *n, uint64_t cov_m[4])
{
    tr__window_edges e;
    if (!tr__window_edges_begin(t, w, &e))
        return false;
    if (w->l[0] >= w->l[2] || w->l[1] >= w->l[3]) {
        for (uint32_t k = 0; k < 4; k++) {
            n->covered[k] = n->lrz_rejected[k] = n->passed[k] = 0;
            w->m[k] = 0;
            if (cov_m)
                cov_m[k] = 0;
        }
        return true;
    }
    const planes8 P = planes_of(t, depth_min, depth_max);
    v8f zc = simde_mm256_setzero_ps();
    const bool flat = flat_depth(t, &P, &zc);
    /* one body per op and depth kind (constants once inlined) */
#define WINDOW_OP(OP)                                                                                               \
    (flat ? window_raster_body(t, &P, true, zc, wt, w, &e, n, cov_m, OP)                                          \
          : window_raster_body(t, &P, false, zc, wt, w, &e, n, cov_m, OP))
    switch (wt->op) {
    case TR_COMPARE_LESS: WINDOW_OP(TR_COMPARE_LESS); break;
    case TR_COMPARE_LESS_OR_EQUAL: WINDOW_OP(TR_COMPARE_LESS_OR_EQUAL); break;
    case TR_COMPARE_GREATER: WINDOW_OP(TR_COMPARE_GREATER); break;
    default: WINDOW_OP(TR_COMPARE_GREATER_OR_EQUAL); break;
    }
#undef WINDOW_OP
    return true;
}

void tr__window_fill_avx2(uint8_t *gmem, uint32_t pitch, const int32_t origin[2], uint32_t inside,
                          const tr__window *w, uint32_t texel)
{
    const v8i px = simde_mm256_set1_epi32((int32_t)texel);
    const size_t step = pitch;
    for (uint32_t k = 0; k < 4; k++) {
        uint64_t m = w->m[k];
        if (!m)
            continue;
        const int32_t bx = tr__window_bx(w, k), by = tr__window_by(w, k);
        const bool in = (inside >> k) & 1;
        /* from the first row with pixels */
        const uint32_t r0 = (uint32_t)__builtin_ctzll(m) >> 3;
        int32_t *row = (int32_t *)(void *)texel_at(gmem, 4, pitch, origin, bx, by + (int32_t)r0);
        for (m >>= 8 * r0; m; m >>= 8, row += step) {
            const uint32_t bits = (uint32_t)m & 0xffu;
            if (!bits)
                continue;
            if (in && bits == 0xffu)
                simde_mm256_storeu_si256((void *)row, px);
            else if (in)
                simde_mm256_storeu_si256((void *)row,
                                         simde_mm256_blendv_epi8(simde_mm256_loadu_si256((const void *)row), px,
                                                                 row_select(bits)));
            else
                simde_mm256_maskstore_epi32(row, row_select(bits), px);
        }
    }
}

/* tr__kernels.blend_block_affine, a row of 8 texels per vector: the
 * four-lane kernel's integer steps (raster_quad.c) in each 128-bit half
 * (the unpacks, mulhi, madd and packs keep to their halves, so the bytes
 * come back in place). */
void tr__blend_block_affine_avx2(uint8_t *p, size_t row, const tr__blend_lut *lut, uint32_t wm)
{
    const v8i zero = simde_mm256_setzero_si256();
    const uint32_t kb = (~wm & 1u ? 0xffu : 0) | (~wm & 2u ? 0xff00u : 0) | (~wm & 4u ? 0xff0000u : 0) |
                        (~wm & 8u ? 0xff000000u : 0);
    const v8i keep = simde_mm256_set1_epi32((int32_t)kb);
    if (lut->affine16) {
        const v8i mulv = simde_mm256_setr_epi16(
            (int16_t)lut->mul16[0], (int16_t)lut->mul16[1], (int16_t)lut->mul16[2], (int16_t)lut->mul16[3],
            (int16_t)lut->mul16[0], (int16_t)lut->mul16[1], (int16_t)lut->mul16[2], (int16_t)lut->mul16[3],
            (int16_t)lut->mul16[0], (int16_t)lut->mul16[1], (int16_t)lut->mul16[2], (int16_t)lut->mul16[3],
            (int16_t)lut->mul16[0], (int16_t)lut->mul16[1], (int16_t)lut->mul16[2], (int16_t)lut->mul16[3]);
        const v8i addv = simde_mm256_setr_epi16(
            (int16_t)lut->add16[0], (int16_t)lut->add16[1], (int16_t)lut->add16[2], (int16_t)lut->add16[3],
            (int16_t)lut->add16[0], (int16_t)lut->add16[1], (int16_t)lut->add16[2], (int16_t)lut->add16[3],
            (int16_t)lut->add16[0], (int16_t)lut->add16[1], (int16_t)lut->add16[2], (int16_t)lut->add16[3],
            (int16_t)lut->add16[0], (int16_t)lut->add16[1], (int16_t)lut->add16[2], (int16_t)lut->add16[3]);
        for (uint32_t y = 0; y < 8; y++, p += row) {
            const v8i v = simde_mm256_loadu_si256((const void *)p);
            v8i lo = simde_mm256_mulhi_epu16(simde_mm256_unpacklo_epi8(zero, v), mulv);
            v8i hi = simde_mm256_mulhi_epu16(simde_mm256_unpackhi_epi8(zero, v), mulv);
            lo = simde_mm256_srli_epi16(simde_mm256_add_epi16(lo, addv), 8);
            hi = simde_mm256_srli_epi16(simde_mm256_add_epi16(hi, addv), 8);
            const v8i out = simde_mm256_packus_epi16(lo, hi);
            simde_mm256_storeu_si256((void *)p, wm == 0xfu ? out : simde_mm256_blendv_epi8(out, v, keep));
        }
        return;
    }
    const v8i mulv = simde_mm256_setr_epi32(lut->mul[0], lut->mul[1], lut->mul[2], lut->mul[3], lut->mul[0],
                                            lut->mul[1], lut->mul[2], lut->mul[3]);
    const v8i addv = simde_mm256_setr_epi32(lut->add[0], lut->add[1], lut->add[2], lut->add[3], lut->add[0],
                                            lut->add[1], lut->add[2], lut->add[3]);
    for (uint32_t y = 0; y < 8; y++, p += row) {
        const v8i v = simde_mm256_loadu_si256((const void *)p);
        const v8i lo = simde_mm256_unpacklo_epi8(v, zero), hi = simde_mm256_unpackhi_epi8(v, zero);
        v8i t0 = simde_mm256_unpacklo_epi16(lo, zero), t1 = simde_mm256_unpackhi_epi16(lo, zero);
        v8i t2 = simde_mm256_unpacklo_epi16(hi, zero), t3 = simde_mm256_unpackhi_epi16(hi, zero);
        t0 = simde_mm256_srli_epi32(simde_mm256_add_epi32(simde_mm256_madd_epi16(t0, mulv), addv), 15);
        t1 = simde_mm256_srli_epi32(simde_mm256_add_epi32(simde_mm256_madd_epi16(t1, mulv), addv), 15);
        t2 = simde_mm256_srli_epi32(simde_mm256_add_epi32(simde_mm256_madd_epi16(t2, mulv), addv), 15);
        t3 = simde_mm256_srli_epi32(simde_mm256_add_epi32(simde_mm256_madd_epi16(t3, mulv), addv), 15);
        const v8i out = simde_mm256_packus_epi16(simde_mm256_packs_epi32(t0, t1), simde_mm256_packs_epi32(t2, t3));
        simde_mm256_storeu_si256((void *)p, simde_mm256_blendv_epi8(out, v, keep));
    }
}

void tr__lanes_setup_avx2(const tr__tri *t, float depth_min, float depth_max, tr__lanes *ln, uint32_t what)
{
    tr__lanes_setup_wide(t, depth_min, depth_max, ln, what, lanes_setup8);
}

bool tr__depth_block_avx2(const tr__tri *t, float depth_min, float depth_max, float *dbuf, uint32_t pitch, int32_t bx,
                          int32_t by, tr_compare_op op, bool write, uint64_t *pass)
{
    return depth_block8(t, depth_min, depth_max, dbuf, pitch, bx, by, op, write, pass);
}

bool tr__cpu_has_avx2(void)
{
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt");
}
#else
/* No AVX2 kernels in this build: tr__cpu_has_avx2 keeps every context
 * below TR_SIMD_AVX2, so the AVX2 table's entries are never called; they
 * are the four-lane path and "not done". */
bool tr__cpu_has_avx2(void)
{
    return false;
}

void tr__lanes_setup_avx2(const tr__tri *t, float depth_min, float depth_max, tr__lanes *ln, uint32_t what)
{
    tr__lanes_setup_wide(t, depth_min, depth_max, ln, what, NULL);
}

bool tr__depth_lanes_avx2(const tr__tri *t, float depth_min, float depth_max, float *dbuf, uint32_t pitch,
                          const int32_t origin[2], tr__lanes *ln, uint64_t live, tr_compare_op op, bool write,
                          bool bary, uint64_t *fail)
{
    (void)t, (void)depth_min, (void)depth_max, (void)dbuf, (void)pitch, (void)origin, (void)ln, (void)live, (void)op;
    (void)write, (void)bary, (void)fail;
    return false;
}

bool tr__depth_block_avx2(const tr__tri *t, float depth_min, float depth_max, float *dbuf, uint32_t pitch, int32_t bx,
                          int32_t by, tr_compare_op op, bool write, uint64_t *pass)
{
    (void)t, (void)depth_min, (void)depth_max, (void)dbuf, (void)pitch, (void)bx, (void)by, (void)op, (void)write;
    (void)pass;
    return false;
}

bool tr__window_raster_avx2(const tr__tri *t, float depth_min, float depth_max, const tr__window_tests *wt,
                            tr__window *w, tr__window_counts *n, uint64_t cov_m[4])
{
    (void)t, (void)depth_min, (void)depth_max, (void)wt, (void)w, (void)n, (void)cov_m;
    return false;
}

/* Never called: no context of this build reaches TR_SIMD_AVX2. */
void tr__blend_block_affine_avx2(uint8_t *p, size_t row, const tr__blend_lut *lut, uint32_t wm)
{
    (void)p, (void)row, (void)lut, (void)wm;
}

/* Never called: window_raster declines every window in this build. */

void tr__window_fill_avx2(uint8_t *gmem, uint32_t pitch, const int32_t origin[2], uint32_t inside,
                          const tr__window *w, uint32_t texel)
{
    (void)gmem, (void)pitch, (void)origin, (void)inside, (void)w, (void)texel;
}
#endif
