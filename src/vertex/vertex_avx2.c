/* tilerast vertex stage: placing a shaded batch's vertices in the window,
 * 8 lanes at a time with AVX2 and FMA.  Compiled with -mavx2 -mfma on
 * x86-64 (CMakeLists.txt; -ffp-contract=off still keeps the compiler from
 * fusing anything itself) and run only where tr__cpu_has_avx2_fma says
 * so.  Each lane gets tr__vertex_place_lanes' floats bit for bit
 * (tests/vertex/test_place.c): the same IEEE operations in the same
 * order, fmaf as one fused multiply-add (both round once), the clip
 * planes in double. */
#include "vertex/vertex_internal.h"

#if TILERAST_AVX2_KERNELS
#include <simde/x86/avx2.h>
#include <simde/x86/fma.h>

typedef simde__m256 v8f;
typedef simde__m256d v4d;

/* The clip planes of tr__vertex_clip (plane_dist >= 0 for all seven) of
 * four lanes, in double: a mask of 4 bits. */
static inline uint32_t inside4(simde__m128 xf, simde__m128 yf, simde__m128 zf, simde__m128 wf, v4d gbx, v4d gby)
{
    const v4d x = simde_mm256_cvtps_pd(xf), y = simde_mm256_cvtps_pd(yf), z = simde_mm256_cvtps_pd(zf),
              w = simde_mm256_cvtps_pd(wf);
    const v4d zero = simde_mm256_setzero_pd();
    const v4d gx = simde_mm256_mul_pd(gbx, w), gy = simde_mm256_mul_pd(gby, w);
    v4d in = simde_mm256_cmp_pd(z, zero, SIMDE_CMP_GE_OQ);
    in = simde_mm256_and_pd(in, simde_mm256_cmp_pd(simde_mm256_sub_pd(w, z), zero, SIMDE_CMP_GE_OQ));
    in = simde_mm256_and_pd(in, simde_mm256_cmp_pd(simde_mm256_sub_pd(w, simde_mm256_set1_pd((double)TR_W_MIN)), zero,
                                                   SIMDE_CMP_GE_OQ));
    in = simde_mm256_and_pd(in, simde_mm256_cmp_pd(simde_mm256_add_pd(x, gx), zero, SIMDE_CMP_GE_OQ));
    in = simde_mm256_and_pd(in, simde_mm256_cmp_pd(simde_mm256_sub_pd(gx, x), zero, SIMDE_CMP_GE_OQ));
    in = simde_mm256_and_pd(in, simde_mm256_cmp_pd(simde_mm256_add_pd(y, gy), zero, SIMDE_CMP_GE_OQ));
    in = simde_mm256_and_pd(in, simde_mm256_cmp_pd(simde_mm256_sub_pd(gy, y), zero, SIMDE_CMP_GE_OQ));
    return (uint32_t)simde_mm256_movemask_pd(in);
}

/* |v| < infinity: finite (NaN compares false). */
static inline v8f finite8(v8f v)
{
    const v8f mag = simde_mm256_andnot_ps(simde_mm256_set1_ps(-0.0f), v);
    return simde_mm256_cmp_ps(mag, simde_mm256_set1_ps(INFINITY), SIMDE_CMP_LT_OQ);
}

/* tr__snap_subpixel of 8 window coordinates into out[], for those within
 * twice the guard band (the mask returned; the others' values are not
 * used): round to nearest, ties to even, by the instruction's own
 * rounding mode (not the environment's), of w * 256 in double. */
static inline uint32_t snap8(v8f w, int32_t out[8])
{
    const v4d scale = simde_mm256_set1_pd((double)TR_SUBPIXEL_ONE), lim = simde_mm256_set1_pd(2.0 * TR_GUARD_BAND);
    const v4d sign = simde_mm256_set1_pd(-0.0);
    uint32_t band = 0;
    for (int h = 0; h < 2; h++) {
        const v4d d = simde_mm256_cvtps_pd(h ? simde_mm256_extractf128_ps(w, 1) : simde_mm256_castps256_ps128(w));
        const v4d ok = simde_mm256_cmp_pd(simde_mm256_andnot_pd(sign, d), lim, SIMDE_CMP_LE_OQ);
        band |= (uint32_t)simde_mm256_movemask_pd(ok) << (4 * h);
        /* (out of band: 0, not converted) */
        const v4d r = simde_mm256_and_pd(
            simde_mm256_round_pd(simde_mm256_mul_pd(d, scale), SIMDE_MM_FROUND_TO_NEAREST_INT | SIMDE_MM_FROUND_NO_EXC), ok);
        simde_mm_storeu_si128((void *)(out + 4 * h), simde_mm256_cvtpd_epi32(r));
    }
    return band;
}

void tr__vertex_place_lanes_avx2(const tr__vertex_place *place, const tr_vs_batch *b, uint32_t n, tr__vwin *out)
{
    const tr_viewport *vp = place->vp;
    /* tr__vertex_window's constants, in its float operations */
    const v8f hw = simde_mm256_set1_ps(vp->width * 0.5f), cx = simde_mm256_set1_ps(vp->x + vp->width * 0.5f);
    const v8f hh = simde_mm256_set1_ps(vp->height * 0.5f), cy = simde_mm256_set1_ps(vp->y + vp->height * 0.5f);
    const v8f z0 = simde_mm256_set1_ps(vp->min_depth), zs = simde_mm256_set1_ps(vp->max_depth - vp->min_depth);
    const v4d gbx = simde_mm256_set1_pd((double)place->gb_x), gby = simde_mm256_set1_pd((double)place->gb_y);
    for (uint32_t l0 = 0; l0 < n; l0 += 8) {
        /* (lanes past n hold the batch's defaults: computed, not stored) */
        const v8f x = simde_mm256_loadu_ps(&b->position[0][l0]), y = simde_mm256_loadu_ps(&b->position[1][l0]);
        const v8f z = simde_mm256_loadu_ps(&b->position[2][l0]), w = simde_mm256_loadu_ps(&b->position[3][l0]);
        const v8f iw = simde_mm256_div_ps(simde_mm256_set1_ps(1.0f), w);
        const v8f wx = simde_mm256_fmadd_ps(hw, simde_mm256_mul_ps(x, iw), cx);
        const v8f wy = simde_mm256_fmadd_ps(hh, simde_mm256_mul_ps(y, iw), cy);
        const v8f wz = simde_mm256_add_ps(z0, simde_mm256_mul_ps(zs, simde_mm256_mul_ps(z, iw)));
        const v8f fin = simde_mm256_and_ps(simde_mm256_and_ps(finite8(x), finite8(y)),
                                           simde_mm256_and_ps(finite8(z), finite8(w)));
        const uint32_t in = (uint32_t)simde_mm256_movemask_ps(fin) &
                            (inside4(simde_mm256_castps256_ps128(x), simde_mm256_castps256_ps128(y),
                                     simde_mm256_castps256_ps128(z), simde_mm256_castps256_ps128(w), gbx, gby) |
                             inside4(simde_mm256_extractf128_ps(x, 1), simde_mm256_extractf128_ps(y, 1),
                                     simde_mm256_extractf128_ps(z, 1), simde_mm256_extractf128_ps(w, 1), gbx, gby)
                                 << 4);
        float v[4][8];
        int32_t sub[2][8];
        simde_mm256_storeu_ps(v[0], wx);
        simde_mm256_storeu_ps(v[1], wy);
        simde_mm256_storeu_ps(v[2], wz);
        simde_mm256_storeu_ps(v[3], iw);
        const uint32_t band = snap8(wx, sub[0]) & snap8(wy, sub[1]);
        const uint32_t m = n - l0 < 8 ? n - l0 : 8;
        for (uint32_t l = 0; l < m; l++) {
            tr__vwin *o = &out[l0 + l];
            o->win[0] = v[0][l];
            o->win[1] = v[1][l];
            o->win[2] = v[2][l];
            o->win[3] = v[3][l];
            o->sub[0] = (band >> l) & 1u ? sub[0][l] : 0;
            o->sub[1] = (band >> l) & 1u ? sub[1][l] : 0;
            o->inside = (in & band) >> l & 1u;
        }
    }
}

bool tr__cpu_has_avx2_fma(void)
{
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}
#else
void tr__vertex_place_lanes_avx2(const tr__vertex_place *place, const tr_vs_batch *b, uint32_t n, tr__vwin *out)
{
    tr__vertex_place_lanes(place, b, n, out);
}

bool tr__cpu_has_avx2_fma(void)
{
    return false;
}
#endif
