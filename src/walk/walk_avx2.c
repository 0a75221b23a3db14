/* tilerast triangle walk: the 8-lane (AVX2) partial coverage of a block,
 * a row of 8 pixel centres per vector.  Compiled with -mavx2 on x86-64
 * (CMakeLists.txt) and run only at TR_SIMD_AVX2, which tr_context_create
 * picks only on a CPU that has AVX2; the same bits as the scalar
 * reference (tests/raster/test_kernels.c). */
#include "walk/walk_internal.h"

#if TILERAST_AVX2_KERNELS
#include "walk/walk_avx2.h"

typedef simde__m256i v8i;

#define first_centre tr__walk_first_centre

/* A row's 8 centres inside all three edges (values >= 0), spread to the
 * lane order of its quads (shifted into place by the caller). */
static inline __attribute__((always_inline)) uint64_t row_inside(const v8i row[3])
{
    return tr__spread_row[tr__walk_row_bits(row)];
}

/* The pixel centres of rows [ly0, ly1) of a block (its first centre at
 * subpixel (pxmin, pymin)) inside all three edges, a row of 8 per vector,
 * in tr__lanes order: the four-lane kernel's integers and masks (false,
 * nothing done, for edges beyond its range). */
bool tr__walk_partial_coverage_avx2(const tr__tri *t, int64_t pxmin, int64_t pymin, uint32_t ly0, uint32_t ly1,
                                    uint64_t *out)
{
    /* As the four-lane kernel (walk_coverage.c): edge values at centres in units of 256
     * subpixels, floor(E0 / 256) + a i + b j, clamped to +-2^30 at the
     * first centre (the sign holds over the block), inside int32. */
    const int64_t lim = (int64_t)1 << 26;
    v8i row[3], step_y[3];
    const v8i col = simde_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    for (int k = 0; k < 3; k++) {
        const int64_t a = t->edge_a[k], b = t->edge_b[k];
        if (a > lim || a < -lim || b > lim || b < -lim)
            return false;
        const int32_t e = first_centre(t->edge_c[k], a, b, pxmin, pymin + (int64_t)ly0 * TR_SUBPIXEL_ONE);
        row[k] = simde_mm256_add_epi32(simde_mm256_set1_epi32(e),
                                       simde_mm256_mullo_epi32(col, simde_mm256_set1_epi32((int32_t)a)));
        step_y[k] = simde_mm256_set1_epi32((int32_t)b);
    }
    uint64_t bits = 0;
    for (uint32_t r = ly0; r < ly1; r++) {
        bits |= row_inside(row) << (16 * (r >> 1) + 2 * (r & 1));
        for (int k = 0; k < 3; k++)
            row[k] = simde_mm256_add_epi32(row[k], step_y[k]);
    }
    *out = bits;
    return true;
}

/* tr__walk_kernels.window_mask (walk_internal.h): the block kernel's
 * integers over the window's rows (tr__window_edges), a row of 8 per
 * vector, the vectors of columns 0-7 and 8-15 only where l reaches them. */
bool tr__walk_window_mask_avx2(const tr__tri *t, tr__window *w)
{
    tr__window_edges e;
    if (!tr__window_edges_begin(t, w, &e))
        return false;
    w->m[0] = w->m[1] = w->m[2] = w->m[3] = 0;
    const uint32_t x0 = w->l[0], y0 = w->l[1], x1 = w->l[2], y1 = w->l[3];
    if (x0 >= x1 || y0 >= y1)
        return true;
    const bool do_left = x0 < 8, do_right = x1 > 8;
    for (uint32_t y = y0; y < y1; y++) {
        const uint32_t bits = tr__window_edges_row(&e, do_left, do_right);
        const uint32_t blk = (y >> 3) * 2;
        if (w->quads) {
            const uint32_t shift = 16 * ((y & 7) >> 1) + 2 * (y & 1);
            w->m[blk] |= (uint64_t)tr__spread_row[bits & 0xffu] << shift;
            w->m[blk + 1] |= (uint64_t)tr__spread_row[bits >> 8] << shift;
        } else {
            const uint32_t shift = 8 * (y & 7);
            w->m[blk] |= (uint64_t)(bits & 0xffu) << shift;
            w->m[blk + 1] |= (uint64_t)(bits >> 8) << shift;
        }
    }
    return true;
}

/* tr__walk_partial_coverage_avx2 of up to 4 triangles that differ only in
 * their edges' c (a multisampled triangle moved to each sample), for
 * those of `keep` (m[s] = 0 for the others): a and b, and the columns'
 * steps, made once; each sample's rows stepped together.  The same
 * integers per sample, so the same bits; false (nothing done) for more
 * than 4, edges beyond the range, or edges that differ in a or b. */
bool tr__walk_samples_coverage_avx2(const tr__tri *const t[], uint32_t n, uint32_t keep, int64_t pxmin,
                                    int64_t pymin, uint32_t ly0, uint32_t ly1, uint64_t m[])
{
    enum { MAX = 4 };
    if (n > MAX)
        return false;
    const int64_t lim = (int64_t)1 << 26;
    const tr__tri *t0 = t[0];
    v8i cols[3], step_y[3], row[MAX][3];
    const v8i col = simde_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    for (int k = 0; k < 3; k++) {
        const int64_t a = t0->edge_a[k], b = t0->edge_b[k];
        if (a > lim || a < -lim || b > lim || b < -lim)
            return false;
        cols[k] = simde_mm256_mullo_epi32(col, simde_mm256_set1_epi32((int32_t)a));
        step_y[k] = simde_mm256_set1_epi32((int32_t)b);
    }
    const int64_t py = pymin + (int64_t)ly0 * TR_SUBPIXEL_ONE;
    for (uint32_t s = 0; s < n; s++) {
        m[s] = 0;
        for (int k = 0; k < 3; k++) {
            const int64_t a = t[s]->edge_a[k], b = t[s]->edge_b[k];
            if (a != t0->edge_a[k] || b != t0->edge_b[k])
                return false;
            row[s][k] = simde_mm256_add_epi32(simde_mm256_set1_epi32(first_centre(t[s]->edge_c[k], a, b, pxmin, py)),
                                              cols[k]);
        }
    }
    for (uint32_t r = ly0; r < ly1; r++) {
        const uint32_t shift = 16 * (r >> 1) + 2 * (r & 1);
        for (uint32_t s = 0; s < n; s++) {
            m[s] |= row_inside(row[s]) << shift;
            for (int k = 0; k < 3; k++)
                row[s][k] = simde_mm256_add_epi32(row[s][k], step_y[k]);
        }
    }
    for (uint32_t s = 0; s < n; s++)
        if (!((keep >> s) & 1u))
            m[s] = 0;
    return true;
}
#else
/* No AVX2 kernels in this build: no context reaches TR_SIMD_AVX2; the
 * eight-lane table then declines every block to the four lanes. */
bool tr__walk_samples_coverage_avx2(const tr__tri *const t[], uint32_t n, uint32_t keep, int64_t pxmin,
                                    int64_t pymin, uint32_t ly0, uint32_t ly1, uint64_t m[])
{
    (void)t, (void)n, (void)keep, (void)pxmin, (void)pymin, (void)ly0, (void)ly1, (void)m;
    return false;
}

bool tr__walk_partial_coverage_avx2(const tr__tri *t, int64_t pxmin, int64_t pymin, uint32_t ly0, uint32_t ly1,
                                    uint64_t *out)
{
    (void)t, (void)pxmin, (void)pymin, (void)ly0, (void)ly1, (void)out;
    return false;
}

bool tr__walk_window_mask_avx2(const tr__tri *t, tr__window *w)
{
    (void)t, (void)w;
    return false;
}
#endif
