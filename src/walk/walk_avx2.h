/* tilerast triangle walk: the edge rows of a window (tr__window) in AVX2
 * vectors, for the files compiled with -mavx2 (walk_avx2.c's window_mask,
 * raster_avx2.c's window_raster, which tests each row as it makes it).
 * Include only under TILERAST_AVX2_KERNELS. */
#ifndef TILERAST_WALK_AVX2_H
#define TILERAST_WALK_AVX2_H

#include <simde/x86/avx2.h>

#include "walk/walk_internal.h"

/* An edge's value at a block's first tested centre (px, py), in units of
 * 256 subpixels: floor(E / 256), clamped to +-2^30 (the sign holds over
 * the block, or the window). */
static inline __attribute__((always_inline)) int32_t tr__walk_first_centre(int64_t c, int64_t a, int64_t b, int64_t px,
                                                                          int64_t py)
{
    const int64_t big = (int64_t)1 << 30;
    int64_t e = c + a * px + b * py;
    e >>= TR_SUBPIXEL_BITS; /* floor(E0 / 256): arithmetic shift (checked in walk_coverage.c) */
    return (int32_t)(e > big ? big : e < -big ? -big : e);
}

/* The columns of a row's 8 centres inside all three edges (values >= 0:
 * the sign bit of their OR clear): bit c for column c. */
static inline __attribute__((always_inline)) uint32_t tr__walk_row_bits(const simde__m256i row[3])
{
    const simde__m256i any_neg = simde_mm256_or_si256(simde_mm256_or_si256(row[0], row[1]), row[2]);
    return ~(uint32_t)simde_mm256_movemask_ps(simde_mm256_castsi256_ps(any_neg)) & 0xffu;
}

/* The three edges over a window's 16 x 16 centres, a row at a time: the
 * block kernel's integers, columns 0-7 in left, 8-15 in right.  With
 * |a|, |b| <= 2^25 the window spans under 30 * 2^25 < 2^30 of each edge:
 * the first centre's value clamped to +-2^30 keeps its sign over the
 * window, and every sum stays inside int32. */
typedef struct tr__window_edges {
    simde__m256i left[3], right[3], step_y[3];
    uint32_t cols;             /* the window's columns l[0]..l[2] as a 16-bit mask */
} tr__window_edges;

/* The edges at row l[1] of window w; false for edges beyond the range. */
static inline __attribute__((always_inline)) bool tr__window_edges_begin(const tr__tri *t, const tr__window *w,
                                                                        tr__window_edges *e)
{
    if (!tr__window_edges_ok(t))
        return false;
    const int64_t px = (int64_t)w->x * TR_SUBPIXEL_ONE + TR_SUBPIXEL_HALF;
    const int64_t py = (int64_t)(w->y + (int32_t)w->l[1]) * TR_SUBPIXEL_ONE + TR_SUBPIXEL_HALF;
    const simde__m256i col = simde_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    for (int k = 0; k < 3; k++) {
        const int32_t a = (int32_t)t->edge_a[k], b = (int32_t)t->edge_b[k];
        e->left[k] = simde_mm256_add_epi32(simde_mm256_set1_epi32(tr__walk_first_centre(t->edge_c[k], a, b, px, py)),
                                           simde_mm256_mullo_epi32(col, simde_mm256_set1_epi32(a)));
        e->right[k] = simde_mm256_add_epi32(e->left[k], simde_mm256_set1_epi32(8 * a));
        e->step_y[k] = simde_mm256_set1_epi32(b);
    }
    e->cols = w->l[0] < w->l[2] ? (0xffffu >> (16 - w->l[2])) & (0xffffu << w->l[0]) : 0;
    return true;
}

/* The current row's covered columns of l (16 bits: bit c column c; the
 * halves only where `left`, `right`), and on to the next row. */
static inline __attribute__((always_inline)) uint32_t tr__window_edges_row(tr__window_edges *e, bool left, bool right)
{
    uint32_t bits = 0;
    if (left)
        bits = tr__walk_row_bits(e->left);
    if (right)
        bits |= tr__walk_row_bits(e->right) << 8;
    for (int k = 0; k < 3; k++) {
        e->left[k] = simde_mm256_add_epi32(e->left[k], e->step_y[k]);
        e->right[k] = simde_mm256_add_epi32(e->right[k], e->step_y[k]);
    }
    return bits & e->cols;
}

#endif
