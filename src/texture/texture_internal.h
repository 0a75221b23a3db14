/* tilerast: the sampler's internals (src/texture).  The arithmetic is the
 * one documented in include/tilerast/texture.h ("Sampling arithmetic");
 * step numbers below refer to it.  Sampler feedback (src/feedback) uses
 * tr__sample_plan to know which levels and taps a sample reads. */
#ifndef TILERAST_TEXTURE_INTERNAL_H
#define TILERAST_TEXTURE_INTERNAL_H

#include "internal.h"

#define TR__LOD_ONE 256            /* 1.0 in LOD units (8 fraction bits) */
#define TR__LOD_MIN (-(1 << 16))   /* L(0) */
#define TR__LOD_MAX (1 << 16)      /* L(+inf) */

/* fx(x): x in 1/256 units, rounded to nearest (step 4's notation). */
int32_t tr__lod_fx(float x);

/* L(r) = round(128 * log2(r)) for r >= 0 (step 3); NaN counts as 0. */
int32_t tr__lod_log2(float r);

/* Steps 2-3 for one set of derivatives (already in normalised units):
 * lambda_base in 1/256 units, the tap count and the major axis. */
typedef struct tr__lod_base {
    int32_t lambda;       /* lambda_base */
    uint32_t taps;        /* N, 1..16 */
    bool major_x;         /* taps are spread along x (else y) */
} tr__lod_base;

tr__lod_base tr__lod_from_gradients(uint32_t width, uint32_t height, uint32_t max_aniso, float dsdx, float dtdx,
                                    float dsdy, float dtdy);

/* Steps 4-5: the levels a sample reads. */
typedef struct tr__sample_plan {
    int32_t lambda_prime;  /* lambda' (before the min/max clamp) */
    int32_t lambda;        /* lambda (after it) */
    int32_t d;             /* clamp(lambda, 0, 256 * (levels - 1)): the level, with its fraction */
    bool mag;              /* lambda <= 0: mag_filter */
    uint32_t level_hi;     /* the (more detailed) level read */
    uint32_t level_lo;     /* the second level, read only when delta > 0 */
    uint32_t delta;        /* weight of level_lo in 1/256; 0 for mipmap nearest */
} tr__sample_plan;

tr__sample_plan tr__plan_levels(const tr_sampler *s, uint32_t levels, int32_t lambda_base, float shader_bias);

/* The sampler used for a binding without one: the zero descriptor's. */
const tr_sampler *tr__default_sampler(void);

#endif
