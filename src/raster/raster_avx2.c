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
        if (k != j) {
            simde_mm256_storeu_ps(&ln->l1[4 * j], l1);
            simde_mm256_storeu_ps(&ln->l2[4 * j], l2);
            if (depth)
                simde_mm256_storeu_ps(&ln->z[4 * j], z);
        } else {
            simde_mm_storeu_ps(&ln->l1[4 * j], simde_mm256_castps256_ps128(l1));
            simde_mm_storeu_ps(&ln->l2[4 * j], simde_mm256_castps256_ps128(l2));
            if (depth)
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
 * texels gathered, compared and written back as depth_quads_op does. */
#define DEPTH_PAIRS(CMP)                                                                                            \
    do {                                                                                                            \
        for (uint32_t j = 0; j < ln->nq; j += 2) {                                                                  \
            const uint32_t k = j + 1 < ln->nq ? j + 1 : j;                                                          \
            const uint32_t qm = (uint32_t)(live >> (4 * j)) & (k != j ? 0xffu : 0xfu);                              \
            if (!qm)                                                                                                \
                continue;                                                                                           \
            v8f z = zc;                                                                                             \
            if (!flat) {                                                                                            \
                v8f l1, l2;                                                                                         \
                pair_bary(&P, t, ln, j, k, &l1, &l2);                                                               \
                z = plane_z(&P, l1, l2);                                                                            \
            }                                                                                                       \
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

static inline __attribute__((always_inline)) bool depth_lanes8(const tr__tri *t, float depth_min, float depth_max, float *dbuf, uint32_t pitch,
                         const int32_t origin[2], const tr__lanes *ln, uint64_t live, tr_compare_op op, bool write,
                         uint64_t *fail_out)
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
                          const int32_t origin[2], const tr__lanes *ln, uint64_t live, tr_compare_op op, bool write,
                          uint64_t *fail)
{
    return depth_lanes8(t, depth_min, depth_max, dbuf, pitch, origin, ln, live, op, write, fail);
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

/* tr__window_depth_avx2 for one compare op and depth kind (flat: one
 * depth, zc), block by block, a row of 8 per vector: depth as
 * depth_block8's rows make it, the LRZ test where the block has one, the
 * depth test and write where there is a depth buffer. */
static inline __attribute__((always_inline)) void window_depth_body(const tr__tri *t, const planes8 *P, bool flat,
                                                                    v8f zc, const tr__window_tests *wt,
                                                                    tr__window *w, uint64_t lrz_rejected[4],
                                                                    tr_compare_op op)
{
    const bool test = wt->dbuf != NULL, less = wt->lrz_dir == TR_LRZ_DIRECTION_LESS;
    const v8i cols = simde_mm256_slli_epi32(simde_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), TR_SUBPIXEL_BITS);
    const size_t pitch = wt->pitch;
    for (uint32_t k = 0; k < 4; k++) {
        lrz_rejected[k] = 0;
        uint64_t m = w->m[k];
        if (!m)
            continue;
        const int32_t bx = tr__window_bx(w, k), by = tr__window_by(w, k);
        const bool lrz = (wt->lrz_test >> k) & 1, inside = (wt->inside >> k) & 1;
        const v8f bound = simde_mm256_set1_ps(wt->lrz_bound[k]);
        const int32_t xs = (int32_t)((int64_t)bx * TR_SUBPIXEL_ONE - t->x0 + TR_SUBPIXEL_HALF);
        const int32_t ys = (int32_t)((int64_t)by * TR_SUBPIXEL_ONE - t->y0 + TR_SUBPIXEL_HALF);
        const v8f dx = simde_mm256_cvtepi32_ps(simde_mm256_add_epi32(simde_mm256_set1_epi32(xs), cols));
        const v8f xl1 = simde_mm256_mul_ps(P->l1a, dx), xl2 = simde_mm256_mul_ps(P->l2a, dx);
        float *row0 = test ? (float *)(void *)texel_at(wt->dbuf, 4, wt->pitch, wt->origin, bx, by) : NULL;
        uint64_t out_m = 0, rej = 0;
        /* the first and last rows with pixels */
        const uint32_t r0 = (uint32_t)__builtin_ctzll(m) >> 3, r1 = (63u - (uint32_t)__builtin_clzll(m)) >> 3;
        for (uint32_t r = r0; r <= r1; r++) {
            uint32_t bits = (uint32_t)(m >> (8 * r)) & 0xffu;
            if (!bits)
                continue;
            v8f z = zc;
            if (!flat) {
                const v8f dy = simde_mm256_cvtepi32_ps(simde_mm256_set1_epi32(ys + (int32_t)(r << TR_SUBPIXEL_BITS)));
                z = plane_z(P, simde_mm256_add_ps(xl1, simde_mm256_mul_ps(P->l1b, dy)),
                            simde_mm256_add_ps(xl2, simde_mm256_mul_ps(P->l2b, dy)));
            }
            if (lrz) {
                const v8f beyond = less ? simde_mm256_cmp_ps(z, bound, SIMDE_CMP_GT_OQ)
                                        : simde_mm256_cmp_ps(z, bound, SIMDE_CMP_LT_OQ);
                const uint32_t out = (uint32_t)simde_mm256_movemask_ps(beyond) & bits;
                rej |= (uint64_t)out << (8 * r);
                bits &= ~out;
            }
            if (test && bits) {
                float *row = row0 + r * pitch;
                if (inside) {
                    const v8f d = simde_mm256_loadu_ps(row);
                    const v8f ok = depth_cmp8(op, z, d);
                    bits &= (uint32_t)simde_mm256_movemask_ps(ok);
                    if (wt->write && bits)
                        simde_mm256_storeu_ps(row, simde_mm256_blendv_ps(
                                                       d, z, simde_mm256_castsi256_ps(row_select(bits))));
                } else {
                    const v8i sel = row_select(bits);
                    const v8f d = simde_mm256_maskload_ps(row, sel);
                    bits &= (uint32_t)simde_mm256_movemask_ps(depth_cmp8(op, z, d));
                    if (wt->write && bits)
                        simde_mm256_maskstore_ps(row, row_select(bits), z);
                }
            }
            out_m |= (uint64_t)bits << (8 * r);
        }
        w->m[k] = out_m;
        lrz_rejected[k] = rej;
    }
}

void tr__window_depth_avx2(const tr__tri *t, float depth_min, float depth_max, const tr__window_tests *wt,
                           tr__window *w, uint64_t lrz_rejected[4])
{
    const planes8 P = planes_of(t, depth_min, depth_max);
    v8f zc = simde_mm256_setzero_ps();
    const bool flat = flat_depth(t, &P, &zc);
    /* one body per op and depth kind (constants once inlined) */
#define WINDOW_OP(OP)                                                                                               \
    (flat ? window_depth_body(t, &P, true, zc, wt, w, lrz_rejected, OP)                                            \
          : window_depth_body(t, &P, false, zc, wt, w, lrz_rejected, OP))
    switch (wt->op) {
    case TR_COMPARE_LESS: WINDOW_OP(TR_COMPARE_LESS); break;
    case TR_COMPARE_LESS_OR_EQUAL: WINDOW_OP(TR_COMPARE_LESS_OR_EQUAL); break;
    case TR_COMPARE_GREATER: WINDOW_OP(TR_COMPARE_GREATER); break;
    default: WINDOW_OP(TR_COMPARE_GREATER_OR_EQUAL); break;
    }
#undef WINDOW_OP
}

void tr__window_fill_avx2(uint8_t *gmem, uint32_t pitch, const int32_t origin[2], uint32_t inside,
                          const tr__window *w, uint32_t texel)
{
    const v8i px = simde_mm256_set1_epi32((int32_t)texel);
    for (uint32_t k = 0; k < 4; k++) {
        if (!w->m[k])
            continue;
        const int32_t bx = tr__window_bx(w, k), by = tr__window_by(w, k);
        const bool in = (inside >> k) & 1;
        for (uint32_t r = 0; r < 8; r++) {
            const uint32_t bits = (uint32_t)(w->m[k] >> (8 * r)) & 0xffu;
            if (!bits)
                continue;
            int32_t *row = (int32_t *)(void *)texel_at(gmem, 4, pitch, origin, bx, by + (int32_t)r);
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
    return __builtin_cpu_supports("avx2");
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
                          const int32_t origin[2], const tr__lanes *ln, uint64_t live, tr_compare_op op, bool write,
                          uint64_t *fail)
{
    (void)t, (void)depth_min, (void)depth_max, (void)dbuf, (void)pitch, (void)origin, (void)ln, (void)live, (void)op;
    (void)write, (void)fail;
    return false;
}

bool tr__depth_block_avx2(const tr__tri *t, float depth_min, float depth_max, float *dbuf, uint32_t pitch, int32_t bx,
                          int32_t by, tr_compare_op op, bool write, uint64_t *pass)
{
    (void)t, (void)depth_min, (void)depth_max, (void)dbuf, (void)pitch, (void)bx, (void)by, (void)op, (void)write;
    (void)pass;
    return false;
}

/* Never called: the small-triangle path needs the walk's window_mask,
 * which this build's AVX2 walk table lacks. */
void tr__window_depth_avx2(const tr__tri *t, float depth_min, float depth_max, const tr__window_tests *wt,
                           tr__window *w, uint64_t lrz_rejected[4])
{
    (void)t, (void)depth_min, (void)depth_max, (void)wt, (void)w, (void)lrz_rejected;
}

void tr__window_fill_avx2(uint8_t *gmem, uint32_t pitch, const int32_t origin[2], uint32_t inside,
                          const tr__window *w, uint32_t texel)
{
    (void)gmem, (void)pitch, (void)origin, (void)inside, (void)w, (void)texel;
}
#endif
