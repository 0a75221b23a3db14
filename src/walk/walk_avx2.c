/* tilerast triangle walk: the 8-lane (AVX2) partial coverage of a block,
 * a row of 8 pixel centres per vector.  Compiled with -mavx2 on x86-64
 * (CMakeLists.txt) and run only at TR_SIMD_AVX2, which tr_context_create
 * picks only on a CPU that has AVX2; the same bits as the scalar
 * reference (tests/raster/test_kernels.c). */
#include "walk/walk_internal.h"

#if TILERAST_AVX2_KERNELS
#include <simde/x86/avx2.h>

typedef simde__m256i v8i;

/* The pixel centres of rows [ly0, ly1) of a block (its first centre at
 * subpixel (pxmin, pymin)) inside all three edges, a row of 8 per vector,
 * in tr__lanes order: the four-lane kernel's integers and masks (false,
 * nothing done, for edges beyond its range). */
static bool partial_coverage_avx2(const tr__tri *t, int64_t pxmin, int64_t pymin, uint32_t ly0, uint32_t ly1,
                                  uint64_t *out)
{
    /* As tr__walk_partial_coverage_sse: edge values at centres in units of 256
     * subpixels, floor(E0 / 256) + a i + b j, clamped to +-2^30 at the
     * first centre (the sign holds over the block), inside int32. */
    const int64_t lim = (int64_t)1 << 26, big = (int64_t)1 << 30;
    v8i row[3], step_y[3];
    const v8i col = simde_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    for (int k = 0; k < 3; k++) {
        const int64_t a = t->edge_a[k], b = t->edge_b[k];
        if (a > lim || a < -lim || b > lim || b < -lim)
            return false;
        int64_t e = t->edge_c[k] + a * pxmin + b * (pymin + (int64_t)ly0 * TR_SUBPIXEL_ONE);
        e >>= TR_SUBPIXEL_BITS; /* floor(E0 / 256): arithmetic shift (checked in walk_coverage.c) */
        e = e > big ? big : e < -big ? -big : e;
        row[k] = simde_mm256_add_epi32(simde_mm256_set1_epi32((int32_t)e),
                                       simde_mm256_mullo_epi32(col, simde_mm256_set1_epi32((int32_t)a)));
        step_y[k] = simde_mm256_set1_epi32((int32_t)b);
    }
    const v8i neg1 = simde_mm256_set1_epi32(-1);
    uint64_t bits = 0;
    for (uint32_t r = ly0; r < ly1; r++) {
        const v8i in = simde_mm256_and_si256(simde_mm256_and_si256(simde_mm256_cmpgt_epi32(row[0], neg1),
                                                                   simde_mm256_cmpgt_epi32(row[1], neg1)),
                                             simde_mm256_cmpgt_epi32(row[2], neg1));
        const uint32_t m = (uint32_t)simde_mm256_movemask_ps(simde_mm256_castsi256_ps(in));
        bits |= (uint64_t)tr__spread_row[m] << (16 * (r >> 1) + 2 * (r & 1));
        for (int k = 0; k < 3; k++)
            row[k] = simde_mm256_add_epi32(row[k], step_y[k]);
    }
    *out = bits;
    return true;
}
/* The table's entry: eight lanes, and for edges beyond them the four-lane
 * kernel (whose columns the eight-lane rows do not need). */
static bool partial_coverage_avx2_or_sse(const tr__tri *t, int64_t pxmin, int64_t pymin, uint32_t ly0,
                                         uint32_t ly1, uint32_t lx0, uint32_t lx1, uint64_t *out)
{
    return partial_coverage_avx2(t, pxmin, pymin, ly0, ly1, out) ||
           tr__walk_partial_coverage_sse(t, pxmin, pymin, ly0, ly1, lx0, lx1, out);
}

const tr__walk_kernels tr__walk_kernels_avx2 = {partial_coverage_avx2_or_sse};
#else
/* No AVX2 kernels in this build: no context reaches TR_SIMD_AVX2, and this
 * table is the four lanes'. */
const tr__walk_kernels tr__walk_kernels_avx2 = {tr__walk_partial_coverage_sse};
#endif
