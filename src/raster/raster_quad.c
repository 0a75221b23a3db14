/* tilerast raster stage: the per-fragment work of a block, one 2x2 quad per
 * vector.
 *
 * A quad's four lanes (lane = 4*quad + 2*dy + dx) are two pixels of one GMEM
 * row and the two below them, so a quad of RGBA8 texels or of 32-bit depths
 * is two 8-byte loads and two 8-byte stores, and a quad of floats is one
 * SIMDe vector (SSE2 where the CPU has it, plain C elsewhere).
 *
 * Each kernel here has a scalar twin in the same function (simd == false):
 * the per-lane loop the renderer used before the kernel existed.  Both do
 * the same IEEE operations in the same order on every lane, so their bytes
 * are identical; tests/raster/test_kernels.c runs random inputs through
 * both, and the renderer takes the scalar twins when the context's SIMD
 * level is capped to TR_SIMD_SCALAR. */
#include "raster/raster_internal.h"

#include <simde/x86/sse2.h>
#include <string.h>

typedef simde__m128 v4f;
typedef simde__m128i v4i;

/* Lane offsets inside a quad, in pixels. */
static inline v4i quad_dx(void)
{
    return simde_mm_setr_epi32(0, 1, 0, 1);
}

static inline v4i quad_dy(void)
{
    return simde_mm_setr_epi32(0, 0, 1, 1);
}

/* All-ones in lane s where bit s of the 4-bit mask m is set. */
static inline v4i lane_mask(uint32_t m)
{
    const v4i bits = simde_mm_setr_epi32(1, 2, 4, 8);
    return simde_mm_cmpeq_epi32(simde_mm_and_si128(simde_mm_set1_epi32((int32_t)m), bits), bits);
}

static inline v4i select_i(v4i m, v4i a, v4i b) /* m ? a : b */
{
    return simde_mm_or_si128(simde_mm_and_si128(m, a), simde_mm_andnot_si128(m, b));
}

static inline v4f select_f(v4f m, v4f a, v4f b)
{
    return simde_mm_or_ps(simde_mm_and_ps(m, a), simde_mm_andnot_ps(m, b));
}

/* The GMEM texel of quad j's top-left pixel (pitch texels per row, origin
 * at texel 0). */
static inline size_t quad_texel(const tr__lanes *ln, uint32_t j, const int32_t origin[2], uint32_t pitch)
{
    return (size_t)(ln->qy[j] - origin[1]) * pitch + (size_t)(ln->qx[j] - origin[0]);
}

/* A quad of 32-bit texels: row y's two, then row y+1's two. */
static inline v4i load_quad(const uint8_t *p, size_t row_bytes)
{
    return simde_mm_unpacklo_epi64(simde_mm_loadl_epi64((const void *)p),
                                   simde_mm_loadl_epi64((const void *)(p + row_bytes)));
}

static inline void store_quad(uint8_t *p, size_t row_bytes, v4i v)
{
    simde_mm_storel_epi64((void *)p, v);
    simde_mm_storel_epi64((void *)(p + row_bytes), simde_mm_srli_si128(v, 8));
}

/* tr__clamp_depth on a quad: z >= lo ? (z <= hi ? z : hi) : lo, NaN -> lo
 * (selects, not min/max, so that -0 and +0 keep the scalar's choice). */
static inline v4f clamp_depth4(v4f z, v4f lo, v4f hi)
{
    v4f t = select_f(simde_mm_cmple_ps(z, hi), z, hi);
    return select_f(simde_mm_cmpge_ps(z, lo), t, lo);
}


/* ---- lane set-up ---------------------------------------------------------------------------- */

/* The lane set-up's body: the scalar reference (vector false), the four
 * lanes, or `wide`'s eight (NULL: none) where the offsets allow vectors. */
static inline __attribute__((always_inline)) void lanes_setup_body(const tr__tri *t, float depth_min, float depth_max,
                                                                  tr__lanes *ln, uint32_t what, bool vector,
                                                                  tr__lanes_setup_wide_fn *wide)
{
    ln->zq = false;
    const float *at = t->attr;
    bool simd = vector;
    /* The vector path computes pixel offsets from vertex 0 in int32; the
     * lanes of one block are within 8 pixels of each other, so one test on
     * the first quad bounds them all. */
    if (simd && ln->nq && what) {
        int64_t dx0 = (int64_t)ln->qx[0] * TR_SUBPIXEL_ONE - t->x0, dy0 = (int64_t)ln->qy[0] * TR_SUBPIXEL_ONE - t->y0;
        const int64_t lim = (int64_t)1 << 30;
        simd = dx0 > -lim && dx0 < lim && dy0 > -lim && dy0 < lim;
    }
    const bool bary = (what & TR__LANES_BARY) != 0, depth = (what & TR__LANES_Z) == TR__LANES_Z;
    if (!bary)
        return;
    if (!simd) {
        for (uint32_t j = 0; j < ln->nq; j++)
            for (uint32_t s = 0; s < 4; s++) {
                uint32_t i = 4 * j + s;
                float dx = (float)((int64_t)tr__lane_x(ln, i) * TR_SUBPIXEL_ONE + TR_SUBPIXEL_HALF - t->x0);
                float dy = (float)((int64_t)tr__lane_y(ln, i) * TR_SUBPIXEL_ONE + TR_SUBPIXEL_HALF - t->y0);
                ln->l1[i] = t->l1_a * dx + t->l1_b * dy;
                ln->l2[i] = t->l2_a * dx + t->l2_b * dy;
                if (depth)
                    ln->z[i] = tr__clamp_depth(at[0] + ln->l1[i] * at[1] + ln->l2[i] * at[2], depth_min, depth_max);
            }
        return;
    }
    if (wide) {
        wide(t, depth_min, depth_max, ln, depth);
        return;
    }
    const v4f l1a = simde_mm_set1_ps(t->l1_a), l1b = simde_mm_set1_ps(t->l1_b);
    const v4f l2a = simde_mm_set1_ps(t->l2_a), l2b = simde_mm_set1_ps(t->l2_b);
    const v4f a0 = simde_mm_set1_ps(at[0]), a1 = simde_mm_set1_ps(at[1]), a2 = simde_mm_set1_ps(at[2]);
    const v4f lo = simde_mm_set1_ps(depth_min), hi = simde_mm_set1_ps(depth_max);
    const v4i sx = simde_mm_slli_epi32(quad_dx(), TR_SUBPIXEL_BITS), sy = simde_mm_slli_epi32(quad_dy(), TR_SUBPIXEL_BITS);
    for (uint32_t j = 0; j < ln->nq; j++) {
        int32_t bxs = (int32_t)((int64_t)ln->qx[j] * TR_SUBPIXEL_ONE + TR_SUBPIXEL_HALF - t->x0);
        int32_t bys = (int32_t)((int64_t)ln->qy[j] * TR_SUBPIXEL_ONE + TR_SUBPIXEL_HALF - t->y0);
        v4f dx = simde_mm_cvtepi32_ps(simde_mm_add_epi32(simde_mm_set1_epi32(bxs), sx));
        v4f dy = simde_mm_cvtepi32_ps(simde_mm_add_epi32(simde_mm_set1_epi32(bys), sy));
        v4f l1 = simde_mm_add_ps(simde_mm_mul_ps(l1a, dx), simde_mm_mul_ps(l1b, dy));
        v4f l2 = simde_mm_add_ps(simde_mm_mul_ps(l2a, dx), simde_mm_mul_ps(l2b, dy));
        simde_mm_storeu_ps(&ln->l1[4 * j], l1);
        simde_mm_storeu_ps(&ln->l2[4 * j], l2);
        if (!depth)
            continue;
        v4f z = simde_mm_add_ps(simde_mm_add_ps(a0, simde_mm_mul_ps(l1, a1)), simde_mm_mul_ps(l2, a2));
        simde_mm_storeu_ps(&ln->z[4 * j], clamp_depth4(z, lo, hi));
    }
}

/* ---- LRZ, per fragment ---------------------------------------------------------------------- */

static inline __attribute__((always_inline)) uint64_t lanes_lrz_reject_body(const tr__lanes *ln, uint64_t live,
                                                                            tr_lrz_direction dir, bool simd)
{
    uint64_t rej = 0;
    if (!simd) {
        for (uint64_t m = live; m; m &= m - 1) {
            uint32_t i = (uint32_t)__builtin_ctzll(m), j = i / 4;
            if (ln->lrz_test[j] && (dir == TR_LRZ_DIRECTION_LESS ? ln->z[i] > ln->lrz_bound[j] : ln->z[i] < ln->lrz_bound[j]))
                rej |= 1ull << i;
        }
        return rej;
    }
    for (uint32_t j = 0; j < ln->nq; j++) {
        if (!ln->lrz_test[j])
            continue;
        v4f z = simde_mm_loadu_ps(&ln->z[4 * j]), b = simde_mm_set1_ps(ln->lrz_bound[j]);
        v4f r = dir == TR_LRZ_DIRECTION_LESS ? simde_mm_cmpgt_ps(z, b) : simde_mm_cmplt_ps(z, b);
        rej |= (uint64_t)(uint32_t)simde_mm_movemask_ps(r) << (4 * j);
    }
    return rej & live;
}

/* ---- depth test without stencil ------------------------------------------------------------- */

static inline v4f depth_pass4(tr_compare_op op, v4f z, v4f d)
{
    switch (op) {
    case TR_COMPARE_NEVER: return simde_mm_setzero_ps();
    case TR_COMPARE_LESS: return simde_mm_cmplt_ps(z, d);
    case TR_COMPARE_EQUAL: return simde_mm_cmpeq_ps(z, d);
    case TR_COMPARE_LESS_OR_EQUAL: return simde_mm_cmple_ps(z, d);
    case TR_COMPARE_GREATER: return simde_mm_cmpgt_ps(z, d);
    case TR_COMPARE_NOT_EQUAL: return simde_mm_cmpneq_ps(z, d);
    case TR_COMPARE_GREATER_OR_EQUAL: return simde_mm_cmpge_ps(z, d);
    default: return simde_mm_castsi128_ps(simde_mm_set1_epi32(-1));
    }
}

/* The vector path for one compare (inlined with op constant). */
static inline __attribute__((always_inline)) uint64_t depth_quads_op(float *dbuf, uint32_t pitch,
                                                                     const int32_t origin[2], const tr__lanes *ln,
                                                                     uint64_t live, tr_compare_op op, bool write)
{
    uint64_t fail = 0;
    const size_t row = (size_t)pitch * 4;
    for (uint32_t j = 0; j < ln->nq; j++) {
        uint32_t qm = (uint32_t)(live >> (4 * j)) & 0xfu;
        if (!qm)
            continue;
        uint8_t *p = (uint8_t *)(dbuf + quad_texel(ln, j, origin, pitch));
        v4f d = simde_mm_castsi128_ps(load_quad(p, row));
        v4f z = simde_mm_loadu_ps(&ln->z[4 * j]);
        v4f pass = depth_pass4(op, z, d);
        uint32_t pm = (uint32_t)simde_mm_movemask_ps(pass) & qm;
        fail |= (uint64_t)(qm & ~pm) << (4 * j);
        if (write && pm)
            store_quad(p, row, simde_mm_castps_si128(select_f(simde_mm_castsi128_ps(lane_mask(pm)), z, d)));
    }
    return fail;
}

static inline __attribute__((always_inline)) uint64_t depth_quads_body(float *dbuf, uint32_t pitch, const int32_t origin[2],
                                                                       const tr__lanes *ln, uint64_t live,
                                                                       tr_compare_op op, bool write, bool simd)
{
    uint64_t fail = 0;
    if (!simd) {
        for (uint64_t m = live; m; m &= m - 1) {
            uint32_t i = (uint32_t)__builtin_ctzll(m);
            size_t off = (size_t)(tr__lane_y(ln, i) - origin[1]) * pitch + (size_t)(tr__lane_x(ln, i) - origin[0]);
            if (!tr__compare(op, ln->z[i], dbuf[off])) { /* the reference compare */
                fail |= 1ull << i;
                continue;
            }
            if (write)
                dbuf[off] = ln->z[i];
        }
        return fail;
    }
    /* The compare chosen once, outside the quad loop. */
    switch (op) {
    case TR_COMPARE_LESS: return depth_quads_op(dbuf, pitch, origin, ln, live, TR_COMPARE_LESS, write);
    case TR_COMPARE_LESS_OR_EQUAL:
        return depth_quads_op(dbuf, pitch, origin, ln, live, TR_COMPARE_LESS_OR_EQUAL, write);
    case TR_COMPARE_GREATER: return depth_quads_op(dbuf, pitch, origin, ln, live, TR_COMPARE_GREATER, write);
    case TR_COMPARE_GREATER_OR_EQUAL:
        return depth_quads_op(dbuf, pitch, origin, ln, live, TR_COMPARE_GREATER_OR_EQUAL, write);
    default: return depth_quads_op(dbuf, pitch, origin, ln, live, op, write);
    }
}

/* ---- stencil and depth together ---------------------------------------------------------------- */

static inline uint8_t stencil_write1(const tr_stencil_face *f, tr_stencil_op op, uint8_t s, uint8_t ref)
{
    uint8_t n = tr__stencil_apply(op, s, ref);
    return (uint8_t)((s & ~f->write_mask) | (n & f->write_mask));
}

/* The compare on 32-bit lanes holding 0..255 (signed compares are exact). */
static inline v4i compare4i(tr_compare_op op, v4i a, v4i b)
{
    const v4i ones = simde_mm_set1_epi32(-1);
    switch (op) {
    case TR_COMPARE_NEVER: return simde_mm_setzero_si128();
    case TR_COMPARE_LESS: return simde_mm_cmplt_epi32(a, b);
    case TR_COMPARE_EQUAL: return simde_mm_cmpeq_epi32(a, b);
    case TR_COMPARE_LESS_OR_EQUAL: return simde_mm_xor_si128(simde_mm_cmpgt_epi32(a, b), ones);
    case TR_COMPARE_GREATER: return simde_mm_cmpgt_epi32(a, b);
    case TR_COMPARE_NOT_EQUAL: return simde_mm_xor_si128(simde_mm_cmpeq_epi32(a, b), ones);
    case TR_COMPARE_GREATER_OR_EQUAL: return simde_mm_xor_si128(simde_mm_cmplt_epi32(a, b), ones);
    default: return ones;
    }
}

/* stencil_write1 on lanes holding 0..255. */
static inline v4i stencil_write4(const tr_stencil_face *f, tr_stencil_op op, v4i s, v4i ref)
{
    const v4i byte = simde_mm_set1_epi32(0xff), one = simde_mm_set1_epi32(1);
    v4i n;
    switch (op) {
    case TR_STENCIL_OP_ZERO: n = simde_mm_setzero_si128(); break;
    case TR_STENCIL_OP_REPLACE: n = ref; break;
    case TR_STENCIL_OP_INCREMENT_AND_CLAMP: n = select_i(simde_mm_cmpeq_epi32(s, byte), s, simde_mm_add_epi32(s, one)); break;
    case TR_STENCIL_OP_DECREMENT_AND_CLAMP:
        n = select_i(simde_mm_cmpeq_epi32(s, simde_mm_setzero_si128()), s, simde_mm_sub_epi32(s, one));
        break;
    case TR_STENCIL_OP_INVERT: n = simde_mm_xor_si128(s, byte); break;
    case TR_STENCIL_OP_INCREMENT_AND_WRAP: n = simde_mm_and_si128(simde_mm_add_epi32(s, one), byte); break;
    case TR_STENCIL_OP_DECREMENT_AND_WRAP: n = simde_mm_and_si128(simde_mm_sub_epi32(s, one), byte); break;
    default: n = s; break;
    }
    const v4i wm = simde_mm_set1_epi32((int32_t)(f->write_mask & 0xffu));
    return simde_mm_or_si128(simde_mm_andnot_si128(wm, s), simde_mm_and_si128(n, wm));
}

static inline __attribute__((always_inline)) uint64_t depth_stencil_quads_body(const tr__ds_state *ds, const tr__lanes *ln,
                                                                               uint64_t live, uint64_t *stencil_rejected,
                                                                               uint64_t *depth_rejected, bool simd)
{
    const tr_stencil_face *f = ds->face;
    const uint32_t pitch = ds->pitch, cm = f->compare_mask;
    uint64_t out = live;
    if (!simd) {
        /* The reference: lane by lane. */
        for (uint64_t m = live; m; m &= m - 1) {
            uint32_t i = (uint32_t)__builtin_ctzll(m);
            size_t off = (size_t)(tr__lane_y(ln, i) - ds->origin[1]) * pitch + (size_t)(tr__lane_x(ln, i) - ds->origin[0]);
            uint8_t *sp = ds->sbuf ? ds->sbuf + off : NULL;
            /* (stencil values are 0..255: exact as floats, so the depth
             * compare serves) */
            if (sp && !tr__compare(f->compare, (float)(ds->ref & cm), (float)(*sp & cm))) {
                *sp = stencil_write1(f, f->fail_op, *sp, ds->ref);
                out &= ~(1ull << i);
                (*stencil_rejected)++;
                continue;
            }
            float *dp = ds->dbuf ? ds->dbuf + off : NULL;
            if (dp && !tr__compare(ds->depth_compare, ln->z[i], *dp)) {
                if (sp)
                    *sp = stencil_write1(f, f->depth_fail_op, *sp, ds->ref);
                out &= ~(1ull << i);
                (*depth_rejected)++;
                continue;
            }
            if (sp)
                *sp = stencil_write1(f, f->pass_op, *sp, ds->ref);
            if (dp && ds->depth_write)
                *dp = ln->z[i];
        }
        return out;
    }
    const v4i ones = simde_mm_set1_epi32(-1), refv = simde_mm_set1_epi32(ds->ref);
    const v4i cmv = simde_mm_set1_epi32((int32_t)(cm & 0xffu)), refc = simde_mm_and_si128(refv, cmv);
    const size_t row = (size_t)pitch * 4;
    out = 0;
    for (uint32_t j = 0; j < ln->nq; j++) {
        const uint32_t qm = (uint32_t)(live >> (4 * j)) & 0xfu;
        if (!qm)
            continue;
        const size_t off = quad_texel(ln, j, ds->origin, pitch);
        const v4i lanes = lane_mask(qm);
        v4i s = simde_mm_setzero_si128(), sp = ones, dp = ones;
        uint8_t *sb = ds->sbuf ? ds->sbuf + off : NULL;
        if (sb) {
            s = simde_mm_setr_epi32(sb[0], sb[1], sb[pitch], sb[pitch + 1]);
            sp = compare4i(f->compare, refc, simde_mm_and_si128(s, cmv));
        }
        v4f z = simde_mm_loadu_ps(&ln->z[4 * j]), d = simde_mm_setzero_ps();
        uint8_t *db = ds->dbuf ? (uint8_t *)(ds->dbuf + off) : NULL;
        if (db) {
            d = simde_mm_castsi128_ps(load_quad(db, row));
            dp = simde_mm_castps_si128(depth_pass4(ds->depth_compare, z, d));
        }
        const v4i sfail = simde_mm_andnot_si128(sp, lanes), spass = simde_mm_and_si128(sp, lanes);
        const v4i dfail = simde_mm_andnot_si128(dp, spass), pass = simde_mm_and_si128(dp, spass);
        if (sb) {
            v4i n = select_i(sfail, stencil_write4(f, f->fail_op, s, refv), s);
            n = select_i(dfail, stencil_write4(f, f->depth_fail_op, s, refv), n);
            n = select_i(pass, stencil_write4(f, f->pass_op, s, refv), n);
            int32_t b[4];
            simde_mm_storeu_si128((void *)b, n);
            sb[0] = (uint8_t)b[0];
            sb[1] = (uint8_t)b[1];
            sb[pitch] = (uint8_t)b[2];
            sb[pitch + 1] = (uint8_t)b[3];
        }
        const uint32_t pm = (uint32_t)simde_mm_movemask_ps(simde_mm_castsi128_ps(pass));
        if (db && ds->depth_write && pm)
            store_quad(db, row, select_i(pass, simde_mm_castps_si128(z), simde_mm_castps_si128(d)));
        *stencil_rejected += (uint64_t)tr__popcount64((uint64_t)(uint32_t)simde_mm_movemask_ps(simde_mm_castsi128_ps(sfail)));
        *depth_rejected += (uint64_t)tr__popcount64((uint64_t)(uint32_t)simde_mm_movemask_ps(simde_mm_castsi128_ps(dfail)));
        out |= (uint64_t)pm << (4 * j);
    }
    return out;
}

/* ---- fragment shader inputs ----------------------------------------------------------------- */

/* The perspective weights of smooth varyings at barycentrics l1, l2 (count
 * lanes): p_k = l_k * (1/w_k) / (1/w), 1/w interpolated there; the
 * operations, in order, of tr__fs_inputs' own. */
static inline __attribute__((always_inline)) void perspective_weights(const float *at, const float *l1, const float *l2,
                                                                     uint32_t count, float *p1, float *p2, bool simd)
{
    if (!simd) {
        for (uint32_t i = 0; i < count; i++) {
            const float w = at[3] + l1[i] * at[4] + l2[i] * at[5];
            p1[i] = l1[i] * at[6] / w;
            p2[i] = l2[i] * at[7] / w;
        }
        return;
    }
    const v4f a3 = simde_mm_set1_ps(at[3]), a4 = simde_mm_set1_ps(at[4]), a5 = simde_mm_set1_ps(at[5]);
    const v4f iw1 = simde_mm_set1_ps(at[6]), iw2 = simde_mm_set1_ps(at[7]);
    for (uint32_t i = 0; i < count; i += 4) {
        const v4f a = simde_mm_loadu_ps(&l1[i]), b = simde_mm_loadu_ps(&l2[i]);
        const v4f iw = simde_mm_add_ps(simde_mm_add_ps(a3, simde_mm_mul_ps(a, a4)), simde_mm_mul_ps(b, a5));
        simde_mm_storeu_ps(&p1[i], simde_mm_div_ps(simde_mm_mul_ps(a, iw1), iw));
        simde_mm_storeu_ps(&p2[i], simde_mm_div_ps(simde_mm_mul_ps(b, iw2), iw));
    }
}

/* The weights varying v is made from: the screen-space barycentrics
 * (noperspective) or the perspective weights, at the centre or, for
 * centroid_mask's varyings when lc is given, at the centroid. */
typedef struct weights {
    const float *l1, *l2, *p1, *p2;    /* at the lanes' centres */
    const float *cl1, *cl2, *cp1, *cp2; /* at their centroids (NULL: none) */
} weights;

static inline void varying_weights(const weights *wt, uint32_t v, uint32_t noperspective_mask,
                                   uint32_t centroid_mask, const float **b1, const float **b2)
{
    const bool np = (noperspective_mask >> v) & 1, cen = wt->cl1 && ((centroid_mask >> v) & 1);
    *b1 = np ? (cen ? wt->cl1 : wt->l1) : (cen ? wt->cp1 : wt->p1);
    *b2 = np ? (cen ? wt->cl2 : wt->l2) : (cen ? wt->cp2 : wt->p2);
}

static inline __attribute__((always_inline)) void fs_inputs_body(const tr__tri *t, uint32_t varying_count, uint32_t flat_mask,
                                                                uint32_t noperspective_mask, uint32_t centroid_mask,
                                                                const tr__lanes *ln, const tr__lanes *lc,
                                                                tr_fs_block *fs, bool frag_coord, bool depth, bool simd)
{
    const float *at = t->attr;
    const uint32_t count = 4 * ln->nq;
    const uint32_t all = varying_count ? (uint32_t)((1ull << varying_count) - 1) : 0;
    if (t->flags & TR__TRI_POINT) { /* the point coordinate: l1, l2 (raster_prims.c) */
        memcpy(fs->point_coord[0], ln->l1, sizeof(float) * count);
        memcpy(fs->point_coord[1], ln->l2, sizeof(float) * count);
    }
    /* Perspective weights p1, p2 are needed by the varyings neither flat
     * nor noperspective; noperspective ones read the screen-space l1, l2
     * in their place (pipeline.h, noperspective_mask).  Centroid varyings
     * (lc given) read the same made from lc's barycentrics. */
    const bool smooth = ((flat_mask | noperspective_mask) & all) != all;
    const bool need_w = frag_coord || smooth;
    if (!lc || !(centroid_mask & ~flat_mask & all))
        lc = NULL;
    float p1[TR_FS_LANES], p2[TR_FS_LANES], w[TR_FS_LANES], cp1[TR_FS_LANES], cp2[TR_FS_LANES];
    const weights wt = {ln->l1, ln->l2, p1, p2, lc ? lc->l1 : NULL, lc ? lc->l2 : NULL, cp1, cp2};
    if (lc && (centroid_mask & ~(flat_mask | noperspective_mask) & all))
        perspective_weights(at, lc->l1, lc->l2, count, cp1, cp2, simd);
    if (!simd) {
        for (uint32_t i = 0; i < count; i++) {
            if (need_w)
                w[i] = at[3] + ln->l1[i] * at[4] + ln->l2[i] * at[5];
            if (frag_coord) {
                fs->frag_x[i] = (float)tr__lane_x(ln, i) + 0.5f;
                fs->frag_y[i] = (float)tr__lane_y(ln, i) + 0.5f;
                fs->frag_z[i] = ln->z[i];
                fs->frag_w[i] = w[i];
            }
            if (depth)
                fs->depth[i] = ln->z[i];
        }
        if (smooth)
            for (uint32_t i = 0; i < count; i++) {
                p1[i] = ln->l1[i] * at[6] / w[i];
                p2[i] = ln->l2[i] * at[7] / w[i];
            }
        for (uint32_t v = 0; v < varying_count; v++) {
            bool flat = (flat_mask >> v) & 1;
            const float *b1, *b2;
            varying_weights(&wt, v, noperspective_mask, centroid_mask, &b1, &b2);
            for (uint32_t c = 0; c < 4; c++) {
                const float *pl = at + 8 + 3 * (4 * v + c);
                float *o = fs->varyings[v][c];
                for (uint32_t i = 0; i < count; i++)
                    o[i] = flat ? pl[0] : pl[0] + b1[i] * pl[1] + b2[i] * pl[2];
            }
        }
        return;
    }
    const v4f a3 = simde_mm_set1_ps(at[3]), a4 = simde_mm_set1_ps(at[4]), a5 = simde_mm_set1_ps(at[5]);
    const v4f iw1 = simde_mm_set1_ps(at[6]), iw2 = simde_mm_set1_ps(at[7]), half = simde_mm_set1_ps(0.5f);
    for (uint32_t i = 0; i < count && (need_w || depth); i += 4) {
        v4f iw = simde_mm_setzero_ps();
        if (need_w) {
            v4f l1 = simde_mm_loadu_ps(&ln->l1[i]), l2 = simde_mm_loadu_ps(&ln->l2[i]);
            iw = simde_mm_add_ps(simde_mm_add_ps(a3, simde_mm_mul_ps(l1, a4)), simde_mm_mul_ps(l2, a5));
            if (smooth) {
                simde_mm_storeu_ps(&p1[i], simde_mm_div_ps(simde_mm_mul_ps(l1, iw1), iw));
                simde_mm_storeu_ps(&p2[i], simde_mm_div_ps(simde_mm_mul_ps(l2, iw2), iw));
            }
        }
        if (frag_coord) {
            v4i x = simde_mm_add_epi32(simde_mm_set1_epi32(ln->qx[i / 4]), quad_dx());
            v4i y = simde_mm_add_epi32(simde_mm_set1_epi32(ln->qy[i / 4]), quad_dy());
            simde_mm_storeu_ps(&fs->frag_x[i], simde_mm_add_ps(simde_mm_cvtepi32_ps(x), half));
            simde_mm_storeu_ps(&fs->frag_y[i], simde_mm_add_ps(simde_mm_cvtepi32_ps(y), half));
            simde_mm_storeu_ps(&fs->frag_z[i], simde_mm_loadu_ps(&ln->z[i]));
            simde_mm_storeu_ps(&fs->frag_w[i], iw);
        }
        if (depth)
            simde_mm_storeu_ps(&fs->depth[i], simde_mm_loadu_ps(&ln->z[i]));
    }
    for (uint32_t v = 0; v < varying_count; v++) {
        bool flat = (flat_mask >> v) & 1;
        const float *b1, *b2;
        varying_weights(&wt, v, noperspective_mask, centroid_mask, &b1, &b2);
        for (uint32_t c = 0; c < 4; c++) {
            const float *pl = at + 8 + 3 * (4 * v + c);
            float *o = fs->varyings[v][c];
            const v4f c0 = simde_mm_set1_ps(pl[0]), c1 = simde_mm_set1_ps(pl[1]), c2 = simde_mm_set1_ps(pl[2]);
            if (flat) {
                uint32_t i = 0;
                for (; i + 16 <= count; i += 16) {
                    simde_mm_storeu_ps(&o[i], c0);
                    simde_mm_storeu_ps(&o[i + 4], c0);
                    simde_mm_storeu_ps(&o[i + 8], c0);
                    simde_mm_storeu_ps(&o[i + 12], c0);
                }
                for (; i < count; i += 4)
                    simde_mm_storeu_ps(&o[i], c0);
                continue;
            }
            for (uint32_t i = 0; i < count; i += 4) {
                v4f a = simde_mm_mul_ps(simde_mm_loadu_ps(&b1[i]), c1);
                v4f b = simde_mm_mul_ps(simde_mm_loadu_ps(&b2[i]), c2);
                simde_mm_storeu_ps(&o[i], simde_mm_add_ps(simde_mm_add_ps(c0, a), b));
            }
        }
    }
}

/* ---- blending into RGBA8 UNORM -------------------------------------------------------------- */

/* clamp01 of raster_ops.c: x > 0 ? (x < 1 ? x : 1) : 0, NaN -> 0.
 * maxps(x, 0) is x > 0 ? x : 0 (NaN -> 0, -0 -> +0), minps(t, 1) is
 * t < 1 ? t : 1: the same choices. */
static inline v4f clamp01_4(v4f x)
{
    return simde_mm_min_ps(simde_mm_max_ps(x, simde_mm_setzero_ps()), simde_mm_set1_ps(1.0f));
}

/* The reference's factor() for channel c of n quads, the choice made once:
 * s, s1, d are [channel][quad] vectors, k the clamped constants. */
static void factor_quads(tr_blend_factor f, int c, uint32_t n, v4f (*s)[16], v4f (*s1)[16], v4f (*d)[16],
                         const v4f *k, v4f *out)
{
    const v4f one = simde_mm_set1_ps(1.0f);
    uint32_t j;
    switch (f) {
    case TR_BLEND_ZERO: for (j = 0; j < n; j++) out[j] = simde_mm_setzero_ps(); break;
    case TR_BLEND_ONE: for (j = 0; j < n; j++) out[j] = one; break;
    case TR_BLEND_SRC_COLOR: for (j = 0; j < n; j++) out[j] = s[c][j]; break;
    case TR_BLEND_ONE_MINUS_SRC_COLOR: for (j = 0; j < n; j++) out[j] = simde_mm_sub_ps(one, s[c][j]); break;
    case TR_BLEND_DST_COLOR: for (j = 0; j < n; j++) out[j] = d[c][j]; break;
    case TR_BLEND_ONE_MINUS_DST_COLOR: for (j = 0; j < n; j++) out[j] = simde_mm_sub_ps(one, d[c][j]); break;
    case TR_BLEND_SRC_ALPHA: for (j = 0; j < n; j++) out[j] = s[3][j]; break;
    case TR_BLEND_ONE_MINUS_SRC_ALPHA: for (j = 0; j < n; j++) out[j] = simde_mm_sub_ps(one, s[3][j]); break;
    case TR_BLEND_DST_ALPHA: for (j = 0; j < n; j++) out[j] = d[3][j]; break;
    case TR_BLEND_ONE_MINUS_DST_ALPHA: for (j = 0; j < n; j++) out[j] = simde_mm_sub_ps(one, d[3][j]); break;
    case TR_BLEND_CONSTANT_COLOR: for (j = 0; j < n; j++) out[j] = k[c]; break;
    case TR_BLEND_ONE_MINUS_CONSTANT_COLOR: for (j = 0; j < n; j++) out[j] = simde_mm_sub_ps(one, k[c]); break;
    case TR_BLEND_CONSTANT_ALPHA: for (j = 0; j < n; j++) out[j] = k[3]; break;
    case TR_BLEND_ONE_MINUS_CONSTANT_ALPHA: for (j = 0; j < n; j++) out[j] = simde_mm_sub_ps(one, k[3]); break;
    case TR_BLEND_SRC_ALPHA_SATURATE:
        /* s.a < 1 - d.a ? s.a : 1 - d.a, which is minps */
        for (j = 0; j < n; j++)
            out[j] = c == 3 ? one : simde_mm_min_ps(s[3][j], simde_mm_sub_ps(one, d[3][j]));
        break;
    case TR_BLEND_SRC1_COLOR: for (j = 0; j < n; j++) out[j] = s1[c][j]; break;
    case TR_BLEND_ONE_MINUS_SRC1_COLOR: for (j = 0; j < n; j++) out[j] = simde_mm_sub_ps(one, s1[c][j]); break;
    case TR_BLEND_SRC1_ALPHA: for (j = 0; j < n; j++) out[j] = s1[3][j]; break;
    case TR_BLEND_ONE_MINUS_SRC1_ALPHA: for (j = 0; j < n; j++) out[j] = simde_mm_sub_ps(one, s1[3][j]); break;
    default: for (j = 0; j < n; j++) out[j] = one; break;
    }
}

/* The reference's blend_op over n quads. */
static void op_quads(tr_blend_op op, uint32_t n, const v4f *s, const v4f *sf, const v4f *d, const v4f *df, v4f *out)
{
    uint32_t j;
    switch (op) {
    case TR_BLEND_OP_SUBTRACT:
        for (j = 0; j < n; j++)
            out[j] = simde_mm_sub_ps(simde_mm_mul_ps(s[j], sf[j]), simde_mm_mul_ps(d[j], df[j]));
        break;
    case TR_BLEND_OP_REVERSE_SUBTRACT:
        for (j = 0; j < n; j++)
            out[j] = simde_mm_sub_ps(simde_mm_mul_ps(d[j], df[j]), simde_mm_mul_ps(s[j], sf[j]));
        break;
    case TR_BLEND_OP_MIN: for (j = 0; j < n; j++) out[j] = simde_mm_min_ps(s[j], d[j]); break; /* s < d ? s : d */
    case TR_BLEND_OP_MAX: for (j = 0; j < n; j++) out[j] = simde_mm_max_ps(s[j], d[j]); break; /* s > d ? s : d */
    default:
        for (j = 0; j < n; j++)
            out[j] = simde_mm_add_ps(simde_mm_mul_ps(s[j], sf[j]), simde_mm_mul_ps(d[j], df[j]));
        break;
    }
}

/* tr__float_to_unorm8 on a quad: (int)(clamp01(f) * 255 + 0.5), truncated. */
static inline v4i to_unorm8_4(v4f f)
{
    return simde_mm_cvttps_epi32(
        simde_mm_add_ps(simde_mm_mul_ps(clamp01_4(f), simde_mm_set1_ps(255.0f)), simde_mm_set1_ps(0.5f)));
}

/* The bytes of the channels in mask m (bit c: channel c) of RGBA8 texels. */
static inline v4i channel_bytes(uint32_t m)
{
    return simde_mm_set1_epi32((int32_t)((m & 1 ? 0xffu : 0) | (m & 2 ? 0xff00u : 0) | (m & 4 ? 0xff0000u : 0) |
                                         (m & 8 ? 0xff000000u : 0)));
}

/* Four RGBA8 texels from a quad's four channel vectors. */
static inline v4i pack_rgba8(v4f r, v4f g, v4f b, v4f a)
{
    return simde_mm_or_si128(simde_mm_or_si128(to_unorm8_4(r), simde_mm_slli_epi32(to_unorm8_4(g), 8)),
                             simde_mm_or_si128(simde_mm_slli_epi32(to_unorm8_4(b), 16),
                                               simde_mm_slli_epi32(to_unorm8_4(a), 24)));
}

/* Stores a quad's texels px over old, keeping dead lanes (qm) and the
 * channels outside the write mask (chans holds wm's bytes). */
static inline void store_live_quad(uint8_t *t, size_t row, uint32_t qm, uint32_t wm, v4i chans, v4i px, v4i old)
{
    v4i m = qm == 0xfu && wm == 0xfu ? simde_mm_set1_epi32(-1) : simde_mm_and_si128(lane_mask(qm), chans);
    store_quad(t, row, select_i(m, px, old));
}

/* ---- uniform sources: a table per channel ----------------------------------------------------- */

static inline bool is_dual(const tr_blend_state *bs)
{
    return bs->src_color >= TR_BLEND_SRC1_COLOR || bs->dst_color >= TR_BLEND_SRC1_COLOR ||
           bs->src_alpha >= TR_BLEND_SRC1_COLOR || bs->dst_alpha >= TR_BLEND_SRC1_COLOR;
}

/* Does channel c's result depend on no other channel's destination? */
static bool lut_state_ok(const tr_blend_state *bs)
{
    if (!bs->enable || is_dual(bs)) /* (no blending: the vector path is as quick) */
        return false;
    const tr_blend_factor f[2] = {bs->src_color, bs->dst_color};
    for (int i = 0; i < 2; i++)
        if (f[i] == TR_BLEND_DST_ALPHA || f[i] == TR_BLEND_ONE_MINUS_DST_ALPHA || f[i] == TR_BLEND_SRC_ALPHA_SATURATE)
            return false; /* colour channels reading destination alpha */
    return true;
}

static void blend_lanes(const tr_blend_state *bs, uint32_t n, v4f (*s)[16], v4f (*s1)[16], v4f (*d)[16], const v4f *k,
                        v4f (*res)[16]);
static void clamped_constants(const float constants[4], v4f k[4]);

/* The affine forms of a table t: an integer slope m and offset `add` with
 * floor(((b * m) >> shift + add) / unit) == t[b] for every byte b, m in
 * [0, m_max], add in [0, add_max].  Slopes are tried outward from the
 * table's own; false when none of them fits.  Exact by construction: each
 * candidate must satisfy all 256 entries.
 * - 32-bit form: shift 0, unit 2^15, m_max 32767: (b * m + add) >> 15;
 * - 16-bit form: shift 8, unit 2^8, m_max 65535: ((b * m) >> 8 + add) >> 8,
 *   where (b * m) >> 8 is mulhi_epu16(b << 8, m) and the sum, below
 *   256 (t[b] + 1), never leaves 16 bits. */
static bool affine_fit(const uint8_t t[256], int shift, int64_t unit, int64_t m_max, int64_t add_max, int64_t *mul,
                       int64_t *add)
{
    if (t[255] < t[0])
        return false;
    const int64_t m0 = ((int64_t)(t[255] - t[0]) * (unit << shift) + 127) / 255;
    for (int64_t d = 0; d <= 24 << (shift ? 1 : 0); d++)
        for (int sgn = 0; sgn < 2; sgn++) {
            const int64_t m = sgn ? m0 - d : m0 + d;
            if (m < 0 || m > m_max || (sgn && !d))
                continue;
            /* add must lie in [t*unit - f(b), (t+1)*unit - f(b)) for all b */
            int64_t lo = 0, hi = add_max;
            for (int64_t b = 0; b < 256 && lo <= hi; b++) {
                const int64_t base = (int64_t)t[b] * unit - ((b * m) >> shift);
                lo = base > lo ? base : lo;
                hi = base + unit - 1 < hi ? base + unit - 1 : hi;
            }
            if (lo <= hi) {
                *mul = m;
                *add = lo;
                return true;
            }
        }
    return false;
}

/* Fills lut->table for source s (clamped) and constants k (clamped): entry
 * b of channel c is what the vector path computes for a destination byte b
 * in channel c (the other channels' bytes cannot change it). */
static void lut_build(tr__blend_lut *lut, const tr__blend_key *key)
{
    const tr_blend_state *bs = &key->bs;
    const float *s0 = key->s, *constants = key->k;
    v4f s[4][16], s1[4][16], d[4][16], res[4][16], k[4];
    clamped_constants(constants, k);
    for (int c = 0; c < 4; c++)
        for (uint32_t j = 0; j < 16; j++) {
            s[c][j] = simde_mm_set1_ps(s0[c]);
            s1[c][j] = simde_mm_setzero_ps();
        }
    const v4f k255 = simde_mm_set1_ps(255.0f);
    for (int32_t b0 = 0; b0 < 256; b0 += 64) {
        for (uint32_t j = 0; j < 16; j++) {
            int32_t b = b0 + 4 * (int32_t)j;
            v4f dv = simde_mm_div_ps(simde_mm_cvtepi32_ps(simde_mm_setr_epi32(b, b + 1, b + 2, b + 3)), k255);
            for (int c = 0; c < 4; c++)
                d[c][j] = dv;
        }
        v4f(*out)[16] = s;
        if (bs->enable) {
            blend_lanes(bs, 16, s, s1, d, k, res);
            out = res;
        }
        for (int c = 0; c < 4; c++)
            for (uint32_t j = 0; j < 16; j++) {
                int32_t e[4];
                simde_mm_storeu_si128((void *)e, to_unorm8_4(out[c][j]));
                for (int i = 0; i < 4; i++)
                    lut->table[c][b0 + 4 * (int32_t)j + i] = (uint8_t)e[i];
            }
    }
    lut->key = *key;
    lut->valid = true;
    /* The 16-bit form when every channel has one, else the 32-bit one. */
    int64_t m = 0, a = 0;
    lut->affine16 = true;
    for (int c = 0; c < 4 && lut->affine16; c++) {
        lut->affine16 = affine_fit(lut->table[c], 8, 256, 65535, 65535, &m, &a);
        lut->mul16[c] = (uint16_t)m;
        lut->add16[c] = (uint16_t)a;
    }
    lut->affine = !lut->affine16;
    for (int c = 0; c < 4 && lut->affine; c++) {
        lut->affine = affine_fit(lut->table[c], 0, 32768, 32767, INT32_MAX - 255 * 32767, &m, &a);
        lut->mul[c] = (int32_t)m;
        lut->add[c] = (int32_t)a;
    }
}

/* Does the key hold this state, source (clamped, as a vector) and
 * constants?  Bits, not values: a key is exact.  (Vector loads of what
 * was stored as vectors: no store-to-load forwarding stall per block.) */
static inline bool same_key(const tr__blend_key *k, const tr_blend_state *bs, v4f s, const float c[4])
{
    v4i ds = simde_mm_xor_si128(simde_mm_loadu_si128((const void *)k->s), simde_mm_castps_si128(s));
    v4i dk = simde_mm_xor_si128(simde_mm_loadu_si128((const void *)k->k), simde_mm_loadu_si128((const void *)c));
    v4i eq = simde_mm_cmpeq_epi32(simde_mm_or_si128(ds, dk), simde_mm_setzero_si128());
    return simde_mm_movemask_epi8(eq) == 0xffff && k->bs.enable == bs->enable && k->bs.src_color == bs->src_color &&
           k->bs.dst_color == bs->dst_color && k->bs.color_op == bs->color_op && k->bs.src_alpha == bs->src_alpha &&
           k->bs.dst_alpha == bs->dst_alpha && k->bs.alpha_op == bs->alpha_op && k->bs.write_mask == bs->write_mask;
}

/* tr__kernels.blend_block_affine (raster_internal.h), four texels per
 * vector (SIMDe): the table's affine16 form, else its affine one. */
static void blend_block_affine_sse(uint8_t *p, size_t row, const tr__blend_lut *lut, uint32_t wm)
{
    if (lut->affine16) {
        /* 8 channels per vector: each byte b moved to the top of a 16-bit
         * lane (b << 8), mulhi by mul16 gives (b * mul16) >> 8, + add16,
         * >> 8, packed back; unwritten channels keep theirs. */
        const v4i mulv = simde_mm_setr_epi16((int16_t)lut->mul16[0], (int16_t)lut->mul16[1], (int16_t)lut->mul16[2],
                                             (int16_t)lut->mul16[3], (int16_t)lut->mul16[0], (int16_t)lut->mul16[1],
                                             (int16_t)lut->mul16[2], (int16_t)lut->mul16[3]);
        const v4i addv = simde_mm_setr_epi16((int16_t)lut->add16[0], (int16_t)lut->add16[1], (int16_t)lut->add16[2],
                                             (int16_t)lut->add16[3], (int16_t)lut->add16[0], (int16_t)lut->add16[1],
                                             (int16_t)lut->add16[2], (int16_t)lut->add16[3]);
        const v4i zero = simde_mm_setzero_si128();
        const v4i keep = channel_bytes(~wm & 0xfu);
        for (uint32_t y = 0; y < 8; y++, p += row)
            for (uint32_t h = 0; h < 32; h += 16) {
                v4i v = simde_mm_loadu_si128((const void *)(p + h));
                v4i lo = simde_mm_mulhi_epu16(simde_mm_unpacklo_epi8(zero, v), mulv);
                v4i hi = simde_mm_mulhi_epu16(simde_mm_unpackhi_epi8(zero, v), mulv);
                lo = simde_mm_srli_epi16(simde_mm_add_epi16(lo, addv), 8);
                hi = simde_mm_srli_epi16(simde_mm_add_epi16(hi, addv), 8);
                v4i out = simde_mm_packus_epi16(lo, hi);
                simde_mm_storeu_si128((void *)(p + h), wm == 0xfu ? out : select_i(keep, v, out));
            }
        return;
    }
    /* 4 texels per vector: bytes to 32-bit lanes, b * mul (madd of 16-bit
     * halves: b and mul both fit), + add, >> 15, packed back; unwritten
     * channels keep their bytes. */
    const v4i mulv = simde_mm_setr_epi32(lut->mul[0], lut->mul[1], lut->mul[2], lut->mul[3]);
    const v4i addv = simde_mm_setr_epi32(lut->add[0], lut->add[1], lut->add[2], lut->add[3]);
    const v4i zero = simde_mm_setzero_si128();
    const v4i keep = channel_bytes(~wm & 0xfu);
    for (uint32_t y = 0; y < 8; y++, p += row)
        for (uint32_t h = 0; h < 32; h += 16) {
            v4i v = simde_mm_loadu_si128((const void *)(p + h));
            v4i lo = simde_mm_unpacklo_epi8(v, zero), hi = simde_mm_unpackhi_epi8(v, zero);
            v4i t0 = simde_mm_unpacklo_epi16(lo, zero), t1 = simde_mm_unpackhi_epi16(lo, zero);
            v4i t2 = simde_mm_unpacklo_epi16(hi, zero), t3 = simde_mm_unpackhi_epi16(hi, zero);
            t0 = simde_mm_srli_epi32(simde_mm_add_epi32(simde_mm_madd_epi16(t0, mulv), addv), 15);
            t1 = simde_mm_srli_epi32(simde_mm_add_epi32(simde_mm_madd_epi16(t1, mulv), addv), 15);
            t2 = simde_mm_srli_epi32(simde_mm_add_epi32(simde_mm_madd_epi16(t2, mulv), addv), 15);
            t3 = simde_mm_srli_epi32(simde_mm_add_epi32(simde_mm_madd_epi16(t3, mulv), addv), 15);
            v4i out = simde_mm_packus_epi16(simde_mm_packs_epi32(t0, t1), simde_mm_packs_epi32(t2, t3));
            simde_mm_storeu_si128((void *)(p + h), select_i(keep, v, out));
        }
}

bool tr__blend_lut_holds(const tr__blend_lut *lut, const tr_blend_state *bs, const tr_fs_block *fs, uint32_t att,
                         const float constants[4])
{
    if (!lut->valid || !(lut->affine || lut->affine16) || !lut_state_ok(bs))
        return false;
    const v4f s0 = clamp01_4(
        simde_mm_setr_ps(fs->color[att][0][0], fs->color[att][1][0], fs->color[att][2][0], fs->color[att][3][0]));
    return same_key(&lut->key, bs, s0, constants);
}

/* The table path: false (nothing done) unless the live lanes' sources
 * are all equal and the state allows a table. */
static bool blend_uniform(const tr_blend_state *bs, uint32_t wm, const tr_fs_block *fs, uint32_t att, uint64_t live,
                          bool uniform, const tr__lanes *ln, const int32_t origin[2], uint32_t pitch,
                          const float constants[4], tr__blend_lut *lut, uint8_t *gmem,
                          tr__blend_block_affine_fn *blend_affine)
{
    if (!live || !lut_state_ok(bs))
        return false;
    /* The same bits as the first live lane's on every live lane (then the
     * clamped values are the same too; lanes whose values differ but clamp
     * alike just take the vector path).  A uniform block is lane 0. */
    const uint32_t l0 = uniform ? 0u : (uint32_t)__builtin_ctzll(live);
    const v4f s0 = clamp01_4(simde_mm_setr_ps(fs->color[att][0][l0], fs->color[att][1][l0], fs->color[att][2][l0],
                                              fs->color[att][3][l0]));
    v4i s0v[4];
    for (int c = 0; c < 4; c++)
        s0v[c] = simde_mm_castps_si128(simde_mm_set1_ps(fs->color[att][c][l0]));
    for (uint32_t j = 0; j < ln->nq && !uniform; j++) {
        uint32_t qm = (uint32_t)(live >> (4 * j)) & 0xfu;
        if (!qm)
            continue;
        v4i eq = simde_mm_set1_epi32(-1);
        for (int c = 0; c < 4; c++) {
            v4i v = simde_mm_loadu_si128((const void *)&fs->color[att][c][4 * j]);
            eq = simde_mm_and_si128(eq, simde_mm_cmpeq_epi32(v, s0v[c]));
        }
        if (((uint32_t)simde_mm_movemask_ps(simde_mm_castsi128_ps(eq)) | ~qm) != 0xffffffffu)
            return false;
    }
    /* The key: state, source, constants (the clamped constants decide the
     * table, but the raw ones are an exact, cheaper key). */
    if (!lut->valid || !same_key(&lut->key, bs, s0, constants)) {
        tr__blend_key key;
        memset(&key, 0, sizeof key);
        key.bs = *bs;
        simde_mm_storeu_ps(key.s, s0);
        memcpy(key.k, constants, sizeof key.k);
        /* A table costs about four blocks of the vector path: made when
         * a key comes back for the third block in a row. */
        if (memcmp(&lut->seen, &key, sizeof key) != 0) {
            lut->seen = key;
            lut->seen_count = 0;
        }
        if (++lut->seen_count < 3)
            return false;
        lut_build(lut, &key);
    }
    const uint8_t(*T)[256] = (const uint8_t(*)[256])lut->table;
    const size_t row = (size_t)pitch * 4;
    if (live == ~0ull && ln->block && (lut->affine16 || lut->affine)) {
        /* A whole block in the table's affine form (tr__kernels.blend_block_affine) */
        blend_affine(gmem + quad_texel(ln, 0, origin, pitch) * 4, row, lut, wm);
        return true;
    }
    if (live == ~0ull && ln->block && wm == 0xfu) {
        /* A whole block: its 8 rows of 8 texels, byte by byte (the quads
         * are in order, so quad 0 is the block's top-left). */
        uint8_t *p = gmem + quad_texel(ln, 0, origin, pitch) * 4;
        for (uint32_t y = 0; y < 8; y++, p += row)
            for (uint32_t i = 0; i < 32; i += 4) {
                p[i] = T[0][p[i]];
                p[i + 1] = T[1][p[i + 1]];
                p[i + 2] = T[2][p[i + 2]];
                p[i + 3] = T[3][p[i + 3]];
            }
        return true;
    }
    for (uint32_t j = 0; j < ln->nq; j++) {
        uint32_t qm = (uint32_t)(live >> (4 * j)) & 0xfu;
        if (!qm)
            continue;
        uint8_t *p = gmem + quad_texel(ln, j, origin, pitch) * 4;
        for (uint32_t i = 0; i < 4; i++) {
            if (!((qm >> i) & 1))
                continue;
            uint8_t *t = p + (i & 1) * 4 + (i >> 1) * row;
            if (wm == 0xfu) {
                t[0] = T[0][t[0]];
                t[1] = T[1][t[1]];
                t[2] = T[2][t[2]];
                t[3] = T[3][t[3]];
            } else {
                for (int c = 0; c < 4; c++)
                    if ((wm >> c) & 1)
                        t[c] = T[c][t[c]];
            }
        }
    }
    return true;
}

static void clamped_constants(const float constants[4], v4f k[4])
{
    for (int c = 0; c < 4; c++) {
        float kc = constants[c];
        k[c] = simde_mm_set1_ps(kc > 0.0f ? (kc < 1.0f ? kc : 1.0f) : 0.0f); /* clamp01, NaN -> 0 */
    }
}

/* The blend equation on n quads of [channel][quad] vectors. */
static void blend_lanes(const tr_blend_state *bs, uint32_t n, v4f (*s)[16], v4f (*s1)[16], v4f (*d)[16], const v4f *k,
                        v4f (*res)[16])
{
    v4f sf[16], df[16];
    for (int c = 0; c < 4; c++) {
        factor_quads(c < 3 ? bs->src_color : bs->src_alpha, c, n, s, s1, d, k, sf);
        factor_quads(c < 3 ? bs->dst_color : bs->dst_alpha, c, n, s, s1, d, k, df);
        op_quads(c < 3 ? bs->color_op : bs->alpha_op, n, s[c], sf, d[c], df, res[c]);
    }
}

/* Lane 0 of colour output att as four RGBA8 texels (tr__rgba8_texel's). */
static inline v4i rgba8_uniform(const tr_fs_block *fs, uint32_t att)
{
    v4f c[4];
    for (int ch = 0; ch < 4; ch++)
        c[ch] = clamp01_4(simde_mm_set1_ps(fs->color[att][ch][0]));
    return pack_rgba8(c[0], c[1], c[2], c[3]);
}

uint32_t tr__rgba8_texel(const tr_fs_block *fs, uint32_t att)
{
    return (uint32_t)simde_mm_cvtsi128_si32(rgba8_uniform(fs, att));
}

bool tr__blend_quads(const tr_context *ctx, tr_format fmt, const tr_blend_state *bs, const tr_fs_block *fs,
                     uint32_t att, uint64_t live, bool uniform, const tr__lanes *ln, const int32_t origin[2],
                     uint32_t pitch, const float constants[4], tr__blend_lut *lut, uint8_t *gmem)
{
    if (ctx->simd == TR_SIMD_SCALAR || fmt != TR_FORMAT_R8G8B8A8_UNORM)
        return false; /* the caller runs the reference */
    const uint32_t wm = bs->write_mask & 0xfu;
    if (!wm)
        return true;
    if (lut && blend_uniform(bs, wm, fs, att, live, uniform, ln, origin, pitch, constants, lut, gmem,
                             ctx->kernels->blend_block_affine))
        return true;
    const uint32_t n = ln->nq;
    const size_t row = (size_t)pitch * 4;
    const v4i byte = simde_mm_set1_epi32(0xff);
    const v4i chans = channel_bytes(wm);
    if (uniform && !bs->enable) {
        /* One colour written everywhere: encoded once. */
        const v4i px = rgba8_uniform(fs, att);
        if (live == ~0ull && ln->block && wm == 0xfu) {
            uint8_t *p = gmem + quad_texel(ln, 0, origin, pitch) * 4;
            for (uint32_t y = 0; y < 8; y++, p += row) {
                simde_mm_storeu_si128((void *)p, px);
                simde_mm_storeu_si128((void *)(p + 16), px);
            }
            return true;
        }
        for (uint32_t j = 0; j < n; j++) {
            uint32_t qm = (uint32_t)(live >> (4 * j)) & 0xfu;
            if (!qm)
                continue;
            uint8_t *t = gmem + quad_texel(ln, j, origin, pitch) * 4;
            store_live_quad(t, row, qm, wm, chans, px, load_quad(t, row));
        }
        return true;
    }
    /* Pass 1: the quads' texels and clamped sources, [channel][quad]
     * (a uniform block's: lane 0's, broadcast). */
    uint8_t *texel[16];
    v4i old[16];
    v4f s[4][16], d[4][16], s1[4][16], res[4][16];
    for (uint32_t j = 0; j < n; j++) {
        texel[j] = gmem + quad_texel(ln, j, origin, pitch) * 4;
        old[j] = load_quad(texel[j], row);
        for (int c = 0; c < 4; c++)
            s[c][j] = clamp01_4(uniform ? simde_mm_set1_ps(fs->color[att][c][0])
                                        : simde_mm_loadu_ps(&fs->color[att][c][4 * j]));
    }
    v4f(*out)[16] = s;
    if (bs->enable) {
        /* unorm8 decode: c / 255, correctly rounded like the reference's
         * table of (float)c / 255.0f */
        const v4f k255 = simde_mm_set1_ps(255.0f);
        for (uint32_t j = 0; j < n; j++) {
            d[0][j] = simde_mm_div_ps(simde_mm_cvtepi32_ps(simde_mm_and_si128(old[j], byte)), k255);
            d[1][j] = simde_mm_div_ps(simde_mm_cvtepi32_ps(simde_mm_and_si128(simde_mm_srli_epi32(old[j], 8), byte)), k255);
            d[2][j] = simde_mm_div_ps(simde_mm_cvtepi32_ps(simde_mm_and_si128(simde_mm_srli_epi32(old[j], 16), byte)), k255);
            d[3][j] = simde_mm_div_ps(simde_mm_cvtepi32_ps(simde_mm_srli_epi32(old[j], 24)), k255);
        }
        if (is_dual(bs))
            for (uint32_t j = 0; j < n; j++)
                for (int c = 0; c < 4; c++)
                    s1[c][j] = clamp01_4(uniform ? simde_mm_set1_ps(fs->color[1][c][0])
                                                 : simde_mm_loadu_ps(&fs->color[1][c][4 * j]));
        v4f k[4];
        clamped_constants(constants, k);
        blend_lanes(bs, n, s, s1, d, k, res);
        out = res;
    }
    /* Pass 3: encode, keep the masked channels and dead lanes, store. */
    for (uint32_t j = 0; j < n; j++) {
        uint32_t qm = (uint32_t)(live >> (4 * j)) & 0xfu;
        if (!qm)
            continue;
        store_live_quad(texel[j], row, qm, wm, chans, pack_rgba8(out[0][j], out[1][j], out[2][j], out[3][j]), old[j]);
    }
    return true;
}

/* ---- the kernel tables ------------------------------------------------------------------------ */

/* Each kernel's body above stamped out twice, with its `simd` constant:
 * the scalar reference and the four-lane (SIMDe) twin. */
#define TR__STAMP(variant, simd)                                                                                    \
    static void lanes_setup_##variant(const tr__tri *t, float depth_min, float depth_max, tr__lanes *ln,            \
                                      uint32_t what)                                                                \
    {                                                                                                               \
        lanes_setup_body(t, depth_min, depth_max, ln, what, simd, NULL);                                            \
    }                                                                                                               \
    static uint64_t lanes_lrz_reject_##variant(const tr__lanes *ln, uint64_t live, tr_lrz_direction dir)            \
    {                                                                                                               \
        return lanes_lrz_reject_body(ln, live, dir, simd);                                                          \
    }                                                                                                               \
    static uint64_t depth_quads_##variant(float *dbuf, uint32_t pitch, const int32_t origin[2], const tr__lanes *ln, \
                                          uint64_t live, tr_compare_op op, bool write)                              \
    {                                                                                                               \
        return depth_quads_body(dbuf, pitch, origin, ln, live, op, write, simd);                                    \
    }                                                                                                               \
    static uint64_t depth_stencil_quads_##variant(const tr__ds_state *ds, const tr__lanes *ln, uint64_t live,       \
                                                  uint64_t *stencil_rejected, uint64_t *depth_rejected)             \
    {                                                                                                               \
        return depth_stencil_quads_body(ds, ln, live, stencil_rejected, depth_rejected, simd);                      \
    }                                                                                                               \
    static void fs_inputs_##variant(const tr__tri *t, uint32_t varying_count, uint32_t flat_mask,                   \
                                    uint32_t noperspective_mask, uint32_t centroid_mask, const tr__lanes *ln,       \
                                    const tr__lanes *lc, tr_fs_block *fs, bool frag_coord, bool depth)              \
    {                                                                                                               \
        fs_inputs_body(t, varying_count, flat_mask, noperspective_mask, centroid_mask, ln, lc, fs, frag_coord,      \
                       depth, simd);                                                                                \
    }
TR__STAMP(scalar, false)
TR__STAMP(sse, true)
#undef TR__STAMP

void tr__lanes_setup_wide(const tr__tri *t, float depth_min, float depth_max, tr__lanes *ln, uint32_t what,
                          tr__lanes_setup_wide_fn *wide)
{
    lanes_setup_body(t, depth_min, depth_max, ln, what, true, wide);
}

static const tr__kernels kernels_scalar = {
    .walk = &tr__walk_kernels_scalar,
    .lanes_setup = lanes_setup_scalar,
    .lanes_lrz_reject = lanes_lrz_reject_scalar,
    .depth_quads = depth_quads_scalar,
    .depth_stencil_quads = depth_stencil_quads_scalar,
    .fs_inputs = fs_inputs_scalar,
    .depth_block = NULL,
    .depth_lanes = NULL,
    .blend_block_affine = blend_block_affine_sse, /* (the reference never blends in blocks) */
};

static const tr__kernels kernels_sse = {
    .walk = &tr__walk_kernels_sse,
    .lanes_setup = lanes_setup_sse,
    .lanes_lrz_reject = lanes_lrz_reject_sse,
    .depth_quads = depth_quads_sse,
    .depth_stencil_quads = depth_stencil_quads_sse,
    .fs_inputs = fs_inputs_sse,
    .depth_block = NULL,
    .depth_lanes = NULL,
    .blend_block_affine = blend_block_affine_sse,
};

/* The four lanes' kernels with the eight-lane ones in place. */
static const tr__kernels kernels_avx2 = {
    .walk = &tr__walk_kernels_avx2,
    .lanes_setup = tr__lanes_setup_avx2,
    .lanes_lrz_reject = lanes_lrz_reject_sse,
    .depth_quads = depth_quads_sse,
    .depth_stencil_quads = depth_stencil_quads_sse,
    .fs_inputs = fs_inputs_sse,
    .depth_block = tr__depth_block_avx2,
    .depth_lanes = tr__depth_lanes_avx2,
    .blend_block_affine = tr__blend_block_affine_avx2,
    .window_raster = tr__window_raster_avx2,
    .window_fill = tr__window_fill_avx2,
};

const tr__kernels *tr__kernels_for(tr_simd_level level)
{
    return level >= TR_SIMD_AVX2 ? &kernels_avx2 : level >= TR_SIMD_SSE ? &kernels_sse : &kernels_scalar;
}
