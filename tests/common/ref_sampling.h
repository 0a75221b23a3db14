/* The test-side model of texture.h's "Sampling arithmetic": fixed-point LOD
 * (steps 1-5), tap positions (step 6), sub-texel coordinates and
 * addressing (steps 7-8), array layers.  Written from the header alone; it
 * calls no library sampling function, so the suites that compare the
 * library against it (texture/test_sampling.c's filtering reference,
 * feedback/test_feedback_exact.c's footprint) do not share its bugs.
 * Filtering and texel decoding stay in the suites that need them. */
#ifndef REF_SAMPLING_H
#define REF_SAMPLING_H

#include <stdbool.h>
#include <stdint.h>

#include <tilerast/tilerast.h>

/* Step 3's thresholds 2^((2i - 1) / 256), i = 1..128, in long double. */
long double trref_threshold(int i);
/* fx(x): floor(x * 256 + 1/2) after clamping x to [-2^20, 2^20]; NaN: 0. */
int32_t trref_fx(float x);
/* L(r) = round(128 log2 r) in 1/256 units (step 3); L(0) = -2^16,
 * L(+inf) = 2^16, NaN and negative values as 0. */
int32_t trref_L(float r);

/* What a test knows of a sampler: its descriptor and the fixed-point LOD
 * parameters the header derives from it. */
typedef struct trref_sampler {
    tr_sampler *s;   /* the library's object (NULL: none was created) */
    tr_sampler_desc d;
    int32_t bias_fx, min_fx, max_fx;
    uint32_t aniso;  /* A, 1 = off */
} trref_sampler;

/* Fills o from d; with a context, also creates the library's sampler
 * (asserting success), which the caller destroys.  ctx NULL: o->s = NULL,
 * the model of a slot whose sampler is NULL when d is zeroed. */
void trref_sampler_create(trref_sampler *o, tr_context *ctx, const tr_sampler_desc *d);

/* Step 8.  The index on an axis of size n, or -1 for a border texel. */
int64_t trref_address(int64_t i, uint32_t n, tr_address_mode mode);
/* Step 7: floor(u * 256) as an integer, u * 256 clamped to +-2^62, NaN 0. */
int64_t trref_subtexel(float u);
/* floor(v / 256) for any sign (the same as v >> 8). */
int64_t trref_floor_div256(int64_t v);
/* A texel offset component clamped to [-8, 7] (TR_MIN/MAX_TEXEL_OFFSET). */
int32_t trref_texel_offset(int32_t o);
/* Step 7 at a level of size w x h: U = floor(s * w * 256) + 256 * o_i,
 * V = floor(t * h * 256) + 256 * o_j, with off (NULL: {0, 0}) clamped. */
void trref_texel_coords(float s, float t, uint32_t w, uint32_t h, const int32_t *off, int64_t *U, int64_t *V);

/* A texture as the reference reads it: level l's texels decoded to RGBA
 * float, [layer][y][x][4], in dec[l]; level sizes max(1, w >> l). */
typedef struct trref_texels {
    uint32_t w, h;
    const float *const *dec;
} trref_texels;
/* The three border colours, as floats (tr_border_color order). */
extern const float trref_border_rgba[3][4];
/* a <op> b, Vulkan's compare ops. */
bool trref_compare(tr_compare_op op, float a, float b);
/* Steps 8-9 for texel (i, j) of a level: addressed, read (or the border),
 * compared against dref when the sampler compares. */
void trref_texel(const trref_texels *tx, const trref_sampler *sm, uint32_t level, uint32_t layer, int64_t i,
                 int64_t j, float dref, float out[4]);
/* Steps 7-10 in one level: the texel coordinates with the offset (NULL:
 * none), then NEAREST or the 2x2 LINEAR filter in 1/256 weights. */
void trref_filter(const trref_texels *tx, const trref_sampler *sm, uint32_t level, uint32_t layer, float s, float t,
                  const int32_t *off, bool linear, float dref, float out[4]);

/* Steps 2-3: lambda_base, the tap count N and the major axis. */
typedef struct trref_lod {
    int32_t lambda; /* lambda_base */
    uint32_t taps;  /* N */
    bool major_x;
} trref_lod;

trref_lod trref_lod_grad(uint32_t W, uint32_t H, uint32_t A, float dsdx, float dtdx, float dsdy, float dtdy);

/* Steps 4-5: lambda', lambda, magnification and the levels read. */
typedef struct trref_mip_plan {
    int32_t lambda_prime, lambda;
    bool mag;
    uint32_t hi, lo, delta; /* mipmap nearest: hi = lo, delta 0 */
} trref_mip_plan;

/* base: lambda_base; shader_bias: 0 where there is none; lod_clamp: NULL
 * for none, else the lower clamp that joins min_lod (step 4). */
trref_mip_plan trref_plan(const trref_sampler *sm, uint32_t levels, int32_t base, float shader_bias,
                          const float *lod_clamp);

/* The array layer of coordinate a: nearest, ties to even, clamped; NaN 0. */
uint32_t trref_layer(float a, uint32_t layers);

/* Step 6: tap i (1..taps) of a sample at (s, t) whose major-axis
 * derivative is (dsda, dtda). */
void trref_tap(float s, float t, float dsda, float dtda, uint32_t taps, uint32_t i, float *si, float *ti);

/* Steps 1-6 for one lane of a tr_fs_sample (or tr_fs_write_feedback) call
 * with `args` on a W x H texture of `levels` levels and `layers` layers,
 * in a block of `count` lanes (lanes at or beyond count count as their
 * quad's lane 0, step 1). */
typedef struct trref_read {
    float dsdx, dtdx, dsdy, dtdy; /* the derivatives (the quad's with an explicit LOD, unused) */
    trref_lod lod;
    trref_mip_plan plan;
    bool linear;                  /* the filter of plan.mag */
    uint32_t layer;
    float s, t, dsda, dtda;       /* the centre and the major axis's derivative */
    int32_t offset[2];            /* args->offset, clamped (step 7) */
} trref_read;

/* The levels of a full mip chain of a w x h texture. */
uint32_t trref_full_chain(uint32_t w, uint32_t h);

trref_read trref_read_lane(const trref_sampler *sm, uint32_t W, uint32_t H, uint32_t levels, uint32_t layers,
                           const tr_sample_args *args, uint32_t count, uint32_t lane);

#endif
