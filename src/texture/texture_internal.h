/* tilerast: the sampler's internals (src/texture).  The arithmetic is the
 * one documented in include/tilerast/texture.h ("Sampling arithmetic");
 * step numbers below refer to it.  Sampler feedback (src/feedback) uses
 * tr__sample_plan to know which levels and taps a sample reads. */
#ifndef TILERAST_TEXTURE_INTERNAL_H
#define TILERAST_TEXTURE_INTERNAL_H

#include <math.h>

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

/* clamp_fx: a lower LOD clamp in 1/256 units beside the sampler's min_lod
 * (tr_sample_args.lod_clamp), INT32_MIN for none. */
tr__sample_plan tr__plan_levels(const tr_sampler *s, uint32_t levels, int32_t lambda_base, float shader_bias,
                                int32_t clamp_fx);

/* Steps 1-6 for one lane of a tr_fs_sample call: what the sample reads. */
typedef struct tr__lane_read {
    float s, t;                     /* coordinates (a subsampled image's already mapped) */
    float dsdx, dtdx, dsdy, dtdy;   /* the derivatives used: the quad's, or the explicit ones */
    float dsda, dtda;               /* along the major axis (the taps' spread) */
    uint32_t layer;
    uint32_t taps;                  /* N */
    bool linear;                    /* the filter of plan.mag's side is LINEAR */
    int32_t offset[2];              /* the texel offset (o_i, o_j), clamped (step 7) */
    tr__sample_plan plan;
} tr__lane_read;

/* A texel offset component clamped to [TR_MIN_TEXEL_OFFSET, TR_MAX_TEXEL_OFFSET]. */
static inline int32_t tr__texel_offset(int32_t o)
{
    return o < TR_MIN_TEXEL_OFFSET ? TR_MIN_TEXEL_OFFSET : o > TR_MAX_TEXEL_OFFSET ? TR_MAX_TEXEL_OFFSET : o;
}

/* Plans lanes [0, block->count) of tr_fs_sample(block, ..., a) over img and
 * smp (a->s and a->t set); returns the lane count.  tr_fs_sample and
 * tr_fs_write_feedback both read through it, so feedback sees the texels
 * sampling reads, the texel offset (.offset) included. */
uint32_t tr__plan_sample(const tr_fs_block *b, const tr_image *img, const tr_sampler *smp, const tr_sample_args *a,
                         tr__lane_read out[TR_FS_LANES]);

/* Step 6: tap i (1..taps) of a lane. */
static inline void tr__tap_position(const tr__lane_read *r, uint32_t i, float *s, float *t)
{
    *s = r->s, *t = r->t;
    if (r->taps > 1) {
        const float o = (float)(2 * (int32_t)i - (int32_t)r->taps - 1) / (float)(2 * r->taps + 2);
        *s = r->s + o * r->dsda;
        *t = r->t + o * r->dtda;
    }
}

/* Step 7's fixed point: floor(x * 256) as a 64-bit integer. */
static inline int64_t tr__subtexel(float x)
{
    float y = x * 256.0f;
    if (y != y)
        return 0;
    y = y > 0x1p62f ? 0x1p62f : y < -0x1p62f ? -0x1p62f : y;
    return (int64_t)floorf(y);
}

/* Step 8: the texel index on an axis of size n, or -1 for a border texel. */
static inline int64_t tr__address(int64_t i, uint32_t n, tr_address_mode mode)
{
    if (i >= 0 && i < n)
        return i; /* inside: every mode agrees */
    switch (mode) {
    case TR_ADDRESS_REPEAT: {
        if (!(n & (n - 1)))
            return i & (int64_t)(n - 1); /* the non-negative remainder, in two's complement */
        const int64_t r = i % n;
        return r < 0 ? r + n : r;
    }
    case TR_ADDRESS_MIRRORED_REPEAT: {
        const int64_t n2 = 2 * (int64_t)n;
        int64_t r = i % n2;
        r = r < 0 ? r + n2 : r;
        const int64_t k = r - n;
        return (int64_t)n - 1 - (k >= 0 ? k : -(1 + k));
    }
    case TR_ADDRESS_CLAMP_TO_EDGE:
        return i < 0 ? 0 : (int64_t)n - 1;
    default:
        return -1;
    }
}

/* The sampler used for a binding without one: the zero descriptor's. */
const tr_sampler *tr__default_sampler(void);

#endif
