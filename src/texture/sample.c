/* tilerast: sampling textures from fragment shaders.  Implements the
 * arithmetic documented in include/tilerast/texture.h, step by step; the
 * step numbers in the comments are that header's. */
#include <math.h>
#include <simde/x86/sse2.h>

#include "subsample/subsample_internal.h"
#include "texture/texture_internal.h"

/* ---- LOD arithmetic (steps 2-5) ------------------------------------------------------------ */

/* Step 3's thresholds: ceil((2^((2i - 1) / 256) - 1) * 2^23) for i = 1..128,
 * the 23-bit mantissa fractions at which round(128 * log2(m)) reaches i.
 * Computed with 60-digit decimal arithmetic; tests/texture checks each one
 * against log2 in long double. */
static const uint32_t log2_threshold[128] = {
    0x0058d8, 0x010b41, 0x01bea2, 0x0272fc, 0x032851, 0x03dea2, 0x0495f0, 0x054e3d,
    0x06078b, 0x06c1da, 0x077d2b, 0x083982, 0x08f6de, 0x09b541, 0x0a74ad, 0x0b3523,
    0x0bf6a5, 0x0cb933, 0x0d7cd0, 0x0e417d, 0x0f073b, 0x0fce0d, 0x1095f2, 0x115eee,
    0x122900, 0x12f42c, 0x13c072, 0x148dd4, 0x155c54, 0x162bf2, 0x16fcb1, 0x17ce93,
    0x18a198, 0x1975c2, 0x1a4b14, 0x1b218e, 0x1bf932, 0x1cd201, 0x1dabfe, 0x1e872b,
    0x1f6387, 0x204117, 0x211fda, 0x21ffd2, 0x22e103, 0x23c36c, 0x24a710, 0x258bf0,
    0x26720e, 0x27596d, 0x28420c, 0x292bf0, 0x2a1718, 0x2b0387, 0x2bf13f, 0x2ce042,
    0x2dd090, 0x2ec22d, 0x2fb51a, 0x30a958, 0x319ee9, 0x3295d0, 0x338e0f, 0x3487a6,
    0x358298, 0x367ee7, 0x377c95, 0x387ba4, 0x397c15, 0x3a7dea, 0x3b8126, 0x3c85ca,
    0x3d8bd9, 0x3e9354, 0x3f9c3d, 0x40a696, 0x41b261, 0x42bfa1, 0x43ce57, 0x44de86,
    0x45f02e, 0x470353, 0x4817f7, 0x492e1b, 0x4a45c2, 0x4b5eed, 0x4c79a0, 0x4d95db,
    0x4eb3a1, 0x4fd2f5, 0x50f3d8, 0x52164d, 0x533a55, 0x545ff3, 0x55872a, 0x56affa,
    0x57da68, 0x590674, 0x5a3421, 0x5b6372, 0x5c9468, 0x5dc706, 0x5efb4f, 0x603144,
    0x6168e7, 0x62a23c, 0x63dd45, 0x651a03, 0x66587a, 0x6798ab, 0x68da9a, 0x6a1e48,
    0x6b63b8, 0x6caaec, 0x6df3e7, 0x6f3eac, 0x708b3c, 0x71d99a, 0x7329ca, 0x747bcc,
    0x75cfa5, 0x772556, 0x787ce1, 0x79d64b, 0x7b3194, 0x7c8ec1, 0x7dedd2, 0x7f4ecc,
};

int32_t tr__lod_fx(float x)
{
    if (x != x)
        return 0;
    x = x > 0x1p20f ? 0x1p20f : x < -0x1p20f ? -0x1p20f : x;
    const float y = x * 256.0f; /* exact */
    const float f = floorf(y);
    return (int32_t)f + (y - f >= 0.5f); /* y - f is exact below 2^28 */
}

int32_t tr__lod_log2(float r)
{
    if (!(r > 0.0f))
        return TR__LOD_MIN; /* 0 and NaN */
    if (r > 0x1.fffffep127f)
        return TR__LOD_MAX;
    uint32_t bits;
    memcpy(&bits, &r, 4);
    int32_t e = (int32_t)(bits >> 23);
    uint32_t m = bits & 0x7fffffu;
    if (e == 0) { /* subnormal: move the leading bit to bit 23 */
        const int shift = __builtin_clz(m) - 8;
        m = (m << shift) & 0x7fffffu;
        e = 1 - shift;
    }
    uint32_t k = 0; /* thresholds that m reaches */
    for (uint32_t step = 64; step; step >>= 1)
        if (m >= log2_threshold[k + step - 1])
            k += step;
    if (k == 127 && m >= log2_threshold[127]) /* the steps add up to 127 only */
        k = 128;
    return 128 * (e - 127) + (int32_t)k;
}

tr__lod_base tr__lod_from_gradients(uint32_t width, uint32_t height, uint32_t max_aniso, float dsdx, float dtdx,
                                    float dsdy, float dtdy)
{
    const float mux = dsdx * (float)width, mvx = dtdx * (float)height;
    const float muy = dsdy * (float)width, mvy = dtdy * (float)height;
    float rx = mux * mux + mvx * mvx, ry = muy * muy + mvy * mvy;
    if (rx != rx)
        rx = 0.0f;
    if (ry != ry)
        ry = 0.0f;
    const bool major_x = rx > ry;
    const float rmax = major_x ? rx : ry, rmin = major_x ? ry : rx;
    if (max_aniso <= 1)
        return (tr__lod_base){tr__lod_log2(rmax), 1, major_x};
    uint32_t n = 1;
    while (n < max_aniso && (double)(n * n) * rmin < (double)rmax)
        n++;
    const bool capped = (double)(max_aniso * max_aniso) * rmin < (double)rmax;
    const int32_t lambda = capped ? tr__lod_log2(rmax / (float)(max_aniso * max_aniso)) : tr__lod_log2(rmin);
    return (tr__lod_base){lambda, n, major_x};
}

tr__sample_plan tr__plan_levels(const tr_sampler *s, uint32_t levels, int32_t lambda_base, float shader_bias,
                                int32_t clamp_fx)
{
    const int32_t max_bias = (int32_t)(TR_MAX_SAMPLER_LOD_BIAS * TR__LOD_ONE);
    int32_t bias = s->bias_fx + tr__lod_fx(shader_bias);
    bias = bias > max_bias ? max_bias : bias < -max_bias ? -max_bias : bias;
    tr__sample_plan p;
    p.lambda_prime = lambda_base + bias;
    const int32_t lo = clamp_fx > s->min_lod_fx ? clamp_fx : s->min_lod_fx;
    p.lambda = p.lambda_prime < lo ? lo : p.lambda_prime;
    p.lambda = p.lambda > s->max_lod_fx ? s->max_lod_fx : p.lambda;
    p.mag = p.lambda <= 0;
    const int32_t top = (int32_t)(levels - 1) * TR__LOD_ONE;
    const int32_t d = p.d = p.lambda < 0 ? 0 : p.lambda > top ? top : p.lambda;
    if (s->desc.mipmap_mode == TR_MIPMAP_LINEAR) {
        p.level_hi = (uint32_t)d >> 8;
        p.level_lo = TR_MIN(p.level_hi + 1, levels - 1);
        p.delta = (uint32_t)d & 255u;
    } else {
        p.level_hi = p.level_lo = (uint32_t)(d + 127) >> 8;
        p.delta = 0;
    }
    return p;
}

/* ---- texels (steps 7-9) ------------------------------------------------------------------- */

/* What one sampling call needs of its binding. */
typedef struct tex_state {
    const tr_context *ctx;
    const tr_image *img;
    const tr_sampler *smp;
    tr_format format;
    uint32_t texel_bytes;
    tr_compare_op compare;      /* DEFAULT: none */
    float border[4];
} tex_state;

/* One level of one layer. */
typedef struct tex_level {
    const uint8_t *data;
    uint32_t w, h;
} tex_level;

static bool bind_state(const tr_fs_block *b, uint32_t slot, tex_state *ts)
{
    if (!b || !b->textures || slot >= TR_MAX_TEXTURES || !b->textures[slot].image)
        return false;
    const tr_texture_binding *tb = &b->textures[slot];
    ts->img = tb->image;
    ts->ctx = tb->image->ctx;
    ts->smp = tb->sampler ? tb->sampler : tr__default_sampler();
    ts->format = tb->image->desc.format;
    ts->texel_bytes = tb->image->fmt->texel;
    ts->compare = ts->smp->desc.compare;
    static const float borders[3][4] = {{0, 0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1, 1}};
    memcpy(ts->border, borders[ts->smp->desc.border_color], sizeof(ts->border));
    return true;
}

static tex_level level_of(const tex_state *ts, uint32_t level, uint32_t layer)
{
    const tr_image *img = ts->img;
    tex_level l;
    l.w = tr__image_stored_w(img, level); /* a padded subsampled image: its stored extent */
    l.h = tr__image_stored_h(img, level);
    l.data = img->data + (img->level_offset[level] + (size_t)layer * l.w * l.h) * ts->texel_bytes;
    return l;
}

static inline void decode(const tex_state *ts, const uint8_t *p, float out[4])
{
    switch (ts->format) {
    case TR_FORMAT_R8G8B8A8_UNORM: {
        const float *u = ts->ctx->unorm8_decode; /* c / 255.0f */
        out[0] = u[p[0]], out[1] = u[p[1]], out[2] = u[p[2]], out[3] = u[p[3]];
        break;
    }
    case TR_FORMAT_R8G8_UNORM: {
        const float *u = ts->ctx->unorm8_decode; /* c / 255.0f, as RGBA8 UNORM; blue 0, alpha 1 */
        out[0] = u[p[0]], out[1] = u[p[1]], out[2] = 0.0f, out[3] = 1.0f;
        break;
    }
    case TR_FORMAT_R8G8B8A8_SRGB: {
        const float *lin = ts->ctx->srgb_decode;
        out[0] = lin[p[0]], out[1] = lin[p[1]], out[2] = lin[p[2]], out[3] = ts->ctx->unorm8_decode[p[3]];
        break;
    }
    case TR_FORMAT_D32_SFLOAT:
    case TR_FORMAT_D32_SFLOAT_S8_UINT:
    case TR_FORMAT_D16_UNORM:        /* (the stored k / (2^n - 1)) */
    case TR_FORMAT_D24_UNORM_S8_UINT:
        memcpy(&out[0], p, 4);
        out[1] = out[2] = 0.0f;
        out[3] = 1.0f;
        break;
    default:
        tr__color_decode(ts->ctx, ts->format, p, out);
        break;
    }
}

/* Texel (x, y) of a level, already addressed (-1: border), decoded (step 9)
 * and compared to dref for compare samplers. */
static inline void texel(const tex_state *ts, const tex_level *l, int64_t x, int64_t y, float dref, float out[4])
{
    if (x < 0 || y < 0)
        memcpy(out, ts->border, sizeof(float) * 4);
    else
        decode(ts, l->data + ((size_t)y * l->w + (size_t)x) * ts->texel_bytes, out);
    if (ts->compare != TR_COMPARE_DEFAULT) {
        out[0] = tr__compare(ts->compare, dref, out[0]) ? 1.0f : 0.0f;
        out[1] = out[2] = 0.0f;
        out[3] = 1.0f;
    }
}

/* Steps 7-10 in one level; off: the clamped texel offset, in this level's
 * texels, added to the fixed-point coordinates before the LINEAR shift and
 * the addressing (|U| <= 2^62 + 2^11: no overflow). */
static void filter_level(const tex_state *ts, const tex_level *l, float s, float t, const int32_t off[2],
                         bool linear, float dref, float res[4])
{
    const int64_t u = tr__subtexel(s * (float)l->w) + (int64_t)off[0] * 256;
    const int64_t v = tr__subtexel(t * (float)l->h) + (int64_t)off[1] * 256;
    const tr_address_mode au = ts->smp->desc.address_u, av = ts->smp->desc.address_v;
    if (!linear) {
        texel(ts, l, tr__address(u >> 8, l->w, au), tr__address(v >> 8, l->h, av), dref, res);
        return;
    }
    const int64_t u0 = u - 128, v0 = v - 128;
    const int64_t i0 = u0 >> 8, j0 = v0 >> 8;
    const uint32_t a = (uint32_t)(u0 & 255), b = (uint32_t)(v0 & 255);
    const int64_t x0 = tr__address(i0, l->w, au), x1 = tr__address(i0 + 1, l->w, au);
    const int64_t y0 = tr__address(j0, l->h, av), y1 = tr__address(j0 + 1, l->h, av);
    float t00[4], t10[4], t01[4], t11[4];
    texel(ts, l, x0, y0, dref, t00);
    texel(ts, l, x1, y0, dref, t10);
    texel(ts, l, x0, y1, dref, t01);
    texel(ts, l, x1, y1, dref, t11);
    const float w00 = (float)((256 - a) * (256 - b)), w10 = (float)(a * (256 - b));
    const float w01 = (float)((256 - a) * b), w11 = (float)(a * b);
    for (int c = 0; c < 4; c++)
        res[c] = ((w00 * t00[c] + w10 * t10[c]) + (w01 * t01[c] + w11 * t11[c])) * 0x1p-16f;
}

/* Steps 6-12 for one lane. */
static void sample_lane(const tex_state *ts, const tr__lane_read *r, float dref, float res[4])
{
    const tr__sample_plan *p = &r->plan;
    const tex_level hi = level_of(ts, p->level_hi, r->layer);
    const tex_level lo = level_of(ts, p->level_lo, r->layer);
    memset(res, 0, sizeof(float) * 4);
    for (uint32_t i = 1; i <= r->taps; i++) {
        float si, ti;
        tr__tap_position(r, i, &si, &ti);
        float tau[4];
        filter_level(ts, &hi, si, ti, r->offset, r->linear, dref, tau);
        if (p->delta) {
            float tl[4];
            filter_level(ts, &lo, si, ti, r->offset, r->linear, dref, tl);
            const float wh = (float)(256 - p->delta), wl = (float)p->delta;
            for (int c = 0; c < 4; c++)
                tau[c] = (wh * tau[c] + wl * tl[c]) * 0x1p-8f;
        }
        for (int c = 0; c < 4; c++)
            res[c] = i == 1 ? tau[c] : res[c] + tau[c];
    }
    if (r->taps > 1)
        for (int c = 0; c < 4; c++)
            res[c] = res[c] / (float)r->taps;
}

/* ---- the SIMD twin of steps 7-12 (any SIMD level but TR_SIMD_SCALAR) ------------------------ */

/* filter_level and sample_lane for reads of 4-byte RGBA8 texels,
 * the four channels of a texel in one SSE register.  Each operation is the
 * reference's, in the reference's order, rounded once (SSE has no fused
 * multiply-add and SIMDe fuses nothing), so the result has the same bits;
 * tests/texture/test_texture_render.c renders every filter, address mode
 * and format both ways and compares the bytes.  What it saves is the
 * per-channel work: one load, widen and divide per texel instead of four
 * table reads, and four weights applied at once. */
static bool fast_format(const tex_state *ts)
{
    return ts->ctx->simd != TR_SIMD_SCALAR && ts->compare == TR_COMPARE_DEFAULT &&
           (ts->format == TR_FORMAT_R8G8B8A8_UNORM || ts->format == TR_FORMAT_R8G8B8A8_SRGB);
}

/* decode(): c / 255.0f is the table's value (both are the correctly
 * rounded quotient); sRGB reads its table, alpha as UNORM. */
static inline simde__m128 decode4(const tex_state *ts, const tex_level *l, int64_t x, int64_t y)
{
    if (x < 0 || y < 0)
        return simde_mm_loadu_ps(ts->border);
    const uint8_t *p = l->data + ((size_t)y * l->w + (size_t)x) * 4u;
    if (ts->format == TR_FORMAT_R8G8B8A8_SRGB) {
        const float *lin = ts->ctx->srgb_decode;
        return simde_mm_setr_ps(lin[p[0]], lin[p[1]], lin[p[2]], ts->ctx->unorm8_decode[p[3]]);
    }
    int32_t word;
    memcpy(&word, p, 4);
    const simde__m128i zero = simde_mm_setzero_si128();
    const simde__m128i c = simde_mm_unpacklo_epi16(simde_mm_unpacklo_epi8(simde_mm_cvtsi32_si128(word), zero), zero);
    return simde_mm_div_ps(simde_mm_cvtepi32_ps(c), simde_mm_set1_ps(255.0f));
}

/* tr__subtexel without the libm call: truncate, then step down where that
 * rounded up.  Exact: below 2^23 the integer converts back exactly, above
 * it y is already an integer.  NaN and the clamped range go the long way. */
static inline int64_t subtexel_fast(float x)
{
    const float y = x * 256.0f;
    if (!(y > -0x1p62f && y < 0x1p62f))
        return tr__subtexel(x);
    const int64_t i = (int64_t)y;
    return i - ((float)i > y);
}

static inline simde__m128 filter_level4(const tex_state *ts, const tex_level *l, float s, float t,
                                        const int32_t off[2], bool linear)
{
    const int64_t u = subtexel_fast(s * (float)l->w) + (int64_t)off[0] * 256;
    const int64_t v = subtexel_fast(t * (float)l->h) + (int64_t)off[1] * 256;
    const tr_address_mode au = ts->smp->desc.address_u, av = ts->smp->desc.address_v;
    if (!linear)
        return decode4(ts, l, tr__address(u >> 8, l->w, au), tr__address(v >> 8, l->h, av));
    const int64_t u0 = u - 128, v0 = v - 128;
    const int64_t i0 = u0 >> 8, j0 = v0 >> 8;
    const uint32_t a = (uint32_t)(u0 & 255), b = (uint32_t)(v0 & 255);
    const int64_t x0 = tr__address(i0, l->w, au), x1 = tr__address(i0 + 1, l->w, au);
    const int64_t y0 = tr__address(j0, l->h, av), y1 = tr__address(j0 + 1, l->h, av);
    const simde__m128 w00 = simde_mm_set1_ps((float)((256 - a) * (256 - b)));
    const simde__m128 w10 = simde_mm_set1_ps((float)(a * (256 - b)));
    const simde__m128 w01 = simde_mm_set1_ps((float)((256 - a) * b));
    const simde__m128 w11 = simde_mm_set1_ps((float)(a * b));
    const simde__m128 top = simde_mm_add_ps(simde_mm_mul_ps(w00, decode4(ts, l, x0, y0)),
                                            simde_mm_mul_ps(w10, decode4(ts, l, x1, y0)));
    const simde__m128 bottom = simde_mm_add_ps(simde_mm_mul_ps(w01, decode4(ts, l, x0, y1)),
                                               simde_mm_mul_ps(w11, decode4(ts, l, x1, y1)));
    return simde_mm_mul_ps(simde_mm_add_ps(top, bottom), simde_mm_set1_ps(0x1p-16f));
}

/* sample_lane; hi and lo are the plan's levels. */
static inline simde__m128 sample_lane4(const tex_state *ts, const tr__lane_read *r, const tex_level *hi,
                                       const tex_level *lo)
{
    const simde__m128 wh = simde_mm_set1_ps((float)(256 - r->plan.delta));
    const simde__m128 wl = simde_mm_set1_ps((float)r->plan.delta);
    simde__m128 res = simde_mm_setzero_ps();
    for (uint32_t i = 1; i <= r->taps; i++) {
        float si, ti;
        tr__tap_position(r, i, &si, &ti);
        simde__m128 tau = filter_level4(ts, hi, si, ti, r->offset, r->linear);
        if (r->plan.delta) {
            const simde__m128 tl = filter_level4(ts, lo, si, ti, r->offset, r->linear);
            tau = simde_mm_mul_ps(simde_mm_add_ps(simde_mm_mul_ps(wh, tau), simde_mm_mul_ps(wl, tl)),
                                  simde_mm_set1_ps(0x1p-8f));
        }
        res = i == 1 ? tau : simde_mm_add_ps(res, tau);
    }
    if (r->taps > 1)
        res = simde_mm_div_ps(res, simde_mm_set1_ps((float)r->taps));
    return res;
}

/* Lanes [0, n) through the twin, four at a time (the quads of a block
 * usually share their levels, so each quad looks them up once). */
static void sample_lanes_fast(const tex_state *ts, const tr__lane_read *reads, uint32_t n,
                              float out[4][TR_FS_LANES])
{
    uint32_t key_hi = UINT32_MAX, key_lo = UINT32_MAX, key_layer = UINT32_MAX;
    tex_level hi = {0}, lo = {0};
    for (uint32_t l0 = 0; l0 < n; l0 += 4) {
        simde__m128 px[4];
        const uint32_t m = TR_MIN(4u, n - l0);
        for (uint32_t k = 0; k < m; k++) {
            const tr__lane_read *r = &reads[l0 + k];
            if (r->plan.level_hi != key_hi || r->plan.level_lo != key_lo || r->layer != key_layer) {
                key_hi = r->plan.level_hi, key_lo = r->plan.level_lo, key_layer = r->layer;
                hi = level_of(ts, key_hi, key_layer);
                lo = level_of(ts, key_lo, key_layer);
            }
            px[k] = sample_lane4(ts, r, &hi, &lo);
        }
        for (uint32_t k = m; k < 4; k++)
            px[k] = simde_mm_setzero_ps();
        SIMDE_MM_TRANSPOSE4_PS(px[0], px[1], px[2], px[3]);
        if (m == 4) {
            for (int c = 0; c < 4; c++)
                simde_mm_storeu_ps(&out[c][l0], px[c]);
        } else {
            float tmp[4];
            for (int c = 0; c < 4; c++) {
                simde_mm_storeu_ps(tmp, px[c]);
                memcpy(&out[c][l0], tmp, m * sizeof(float));
            }
        }
    }
}

/* The array layer of a coordinate: round to nearest, ties to even, clamped. */
static uint32_t layer_index(float a, uint32_t layers)
{
    if (!(a > 0.0f))
        return 0; /* also NaN */
    if (a >= (float)layers)
        return layers - 1;
    const float f = floorf(a), frac = a - f;
    uint32_t r = (uint32_t)f;
    if (frac > 0.5f || (frac == 0.5f && (r & 1u)))
        r++;
    return TR_MIN(r, layers - 1);
}

static uint32_t lane_count(const tr_fs_block *b)
{
    return b ? TR_MIN(b->count, TR_FS_LANES) : 0;
}

/* Step 1: the coarse derivatives of quad q (lanes q..q+3) of x; a lane
 * beyond the block's count (a hand-built block with a partial quad)
 * contributes no difference. */
static inline float quad_ddx(const float *x, uint32_t q, uint32_t n)
{
    return q + 1 < n ? x[q + 1] - x[q] : 0.0f;
}

static inline float quad_ddy(const float *x, uint32_t q, uint32_t n)
{
    return q + 2 < n ? x[q + 2] - x[q] : 0.0f;
}

static void clear_out(float out[4][TR_FS_LANES], uint32_t n, float alpha)
{
    for (int c = 0; c < 4; c++)
        for (uint32_t l = 0; l < n; l++)
            out[c][l] = c == 3 ? alpha : 0.0f;
}

/* ---- the shader calls ------------------------------------------------------------------- */

uint32_t tr__plan_sample(const tr_fs_block *b, const tr_image *img, const tr_sampler *smp, const tr_sample_args *a,
                         tr__lane_read out[TR_FS_LANES])
{
    const uint32_t n = lane_count(b);
    const uint32_t W = tr__image_stored_w(img, 0), H = tr__image_stored_h(img, 0), levels = img->desc.levels;
    const uint32_t aniso = smp->desc.max_anisotropy;
    const bool explicit_lod = a->lod != NULL;
    const bool grads = !explicit_lod && a->dsdx && a->dtdx && a->dsdy && a->dtdy;
    const tr_sampler_desc *sd = &smp->desc;
    /* An implicit LOD with no per-lane bias or clamp: one plan per quad. */
    const bool per_quad = !explicit_lod && !grads && !a->bias && !a->lod_clamp;
    for (uint32_t l = 0; l < n; l++) {
        out[l].layer = a->layer ? layer_index(a->layer[l], img->desc.layers) : 0;
        out[l].s = a->s[l];
        out[l].t = a->t[l];
        out[l].offset[0] = tr__texel_offset(a->offset[0]);
        out[l].offset[1] = tr__texel_offset(a->offset[1]);
    }
    /* A subsampled image (subsample.h): each lane's uv goes through its
     * layer's metadata first (turnip's lower_tex_subsampled); derivatives
     * then come from the transformed coordinates.  Clamped to border, a uv
     * outside [0, 1] stays as it was on that axis. */
    if (img->subsampled) {
        const bool border_u = sd->address_u == TR_ADDRESS_CLAMP_TO_BORDER;
        const bool border_v = sd->address_v == TR_ADDRESS_CLAMP_TO_BORDER;
        for (uint32_t l = 0; l < n; l++) {
            float ms, mt;
            tr__subsampled_map(&img->subsampled[out[l].layer], out[l].s, out[l].t, &ms, &mt);
            if (!border_u || (out[l].s >= 0.0f && out[l].s <= 1.0f))
                out[l].s = ms;
            if (!border_v || (out[l].t >= 0.0f && out[l].t <= 1.0f))
                out[l].t = mt;
        }
    }
    for (uint32_t q = 0; q < n; q += 4) {
        /* Step 1, implicit: the quad's coarse derivatives. */
        const float s0 = out[q].s, t0 = out[q].t;
        const float qsdx = q + 1 < n ? out[q + 1].s - s0 : 0.0f, qtdx = q + 1 < n ? out[q + 1].t - t0 : 0.0f;
        const float qsdy = q + 2 < n ? out[q + 2].s - s0 : 0.0f, qtdy = q + 2 < n ? out[q + 2].t - t0 : 0.0f;
        tr__lod_base quad_lod = {0, 1, true};
        tr__sample_plan quad_plan = {0};
        if (!explicit_lod && !grads) {
            quad_lod = tr__lod_from_gradients(W, H, aniso, qsdx, qtdx, qsdy, qtdy);
            if (per_quad) /* what the lanes would each compute */
                quad_plan = tr__plan_levels(smp, levels, quad_lod.lambda, 0.0f, INT32_MIN);
        }
        for (uint32_t l = q; l < q + 4 && l < n; l++) {
            tr__lane_read *r = &out[l];
            tr__lod_base lb = quad_lod;
            r->dsdx = qsdx, r->dtdx = qtdx, r->dsdy = qsdy, r->dtdy = qtdy;
            if (explicit_lod) {
                lb = (tr__lod_base){tr__lod_fx(a->lod[l]), 1, true};
            } else if (grads) {
                r->dsdx = a->dsdx[l], r->dtdx = a->dtdx[l], r->dsdy = a->dsdy[l], r->dtdy = a->dtdy[l];
                lb = tr__lod_from_gradients(W, H, aniso, r->dsdx, r->dtdx, r->dsdy, r->dtdy);
            }
            if (per_quad) {
                r->plan = quad_plan;
            } else {
                const float bias = a->bias && !explicit_lod ? a->bias[l] : 0.0f;
                const int32_t clamp = a->lod_clamp && !explicit_lod ? tr__lod_fx(a->lod_clamp[l]) : INT32_MIN;
                r->plan = tr__plan_levels(smp, levels, lb.lambda, bias, clamp);
            }
            r->taps = lb.taps;
            r->dsda = lb.major_x ? r->dsdx : r->dsdy;
            r->dtda = lb.major_x ? r->dtdx : r->dtdy;
            r->linear = (r->plan.mag ? sd->mag_filter : sd->min_filter) == TR_FILTER_LINEAR;
        }
    }
    return n;
}

void tr_fs_sample(const tr_fs_block *b, uint32_t slot, const tr_sample_args *a, float out[4][TR_FS_LANES])
{
    const uint32_t n = lane_count(b);
    tex_state ts;
    if (!out)
        return;
    if (!a || !a->s || !a->t || !bind_state(b, slot, &ts) || (ts.compare != TR_COMPARE_DEFAULT && !a->dref)) {
        clear_out(out, n, 0.0f);
        return;
    }
    tr__lane_read reads[TR_FS_LANES];
    tr__plan_sample(b, ts.img, ts.smp, a, reads);
    if (fast_format(&ts)) {
        sample_lanes_fast(&ts, reads, n, out);
        return;
    }
    for (uint32_t l = 0; l < n; l++) {
        float res[4];
        sample_lane(&ts, &reads[l], a->dref ? a->dref[l] : 0.0f, res);
        for (int c = 0; c < 4; c++)
            out[c][l] = res[c];
    }
}

void tr_fs_texture(const tr_fs_block *b, uint32_t slot, const float *s, const float *t, float out[4][TR_FS_LANES])
{
    const tr_sample_args a = {.s = s, .t = t};
    tr_fs_sample(b, slot, &a, out);
}

void tr_fs_texture_lod(const tr_fs_block *b, uint32_t slot, const float *s, const float *t, const float *lod,
                       float out[4][TR_FS_LANES])
{
    const tr_sample_args a = {.s = s, .t = t, .lod = lod};
    tr_fs_sample(b, slot, &a, out);
}

void tr_fs_texel_fetch(const tr_fs_block *b, uint32_t slot, const int32_t *x, const int32_t *y,
                       const int32_t *layer, const int32_t *level, float out[4][TR_FS_LANES])
{
    tr_fs_texel_fetch_offset(b, slot, x, y, layer, level, NULL, out);
}

void tr_fs_texel_fetch_offset(const tr_fs_block *b, uint32_t slot, const int32_t *x, const int32_t *y,
                              const int32_t *layer, const int32_t *level, const int32_t offset[2],
                              float out[4][TR_FS_LANES])
{
    const uint32_t n = lane_count(b);
    tex_state ts;
    if (!out)
        return;
    if (!x || !y || !bind_state(b, slot, &ts)) {
        clear_out(out, n, 0.0f);
        return;
    }
    const tr_image *img = ts.img;
    const float outside_alpha = img->fmt->channels < 4 ? 1.0f : 0.0f;
    const int64_t ox = offset ? tr__texel_offset(offset[0]) : 0, oy = offset ? tr__texel_offset(offset[1]) : 0;
    for (uint32_t l = 0; l < n; l++) {
        const int32_t lv = level ? level[l] : 0, ly = layer ? layer[l] : 0;
        const int64_t xi = (int64_t)x[l] + ox, yi = (int64_t)y[l] + oy; /* before the bounds check */
        float res[4] = {0.0f, 0.0f, 0.0f, outside_alpha};
        if (lv >= 0 && (uint32_t)lv < img->desc.levels && ly >= 0 && (uint32_t)ly < img->desc.layers) {
            const tex_level tl = level_of(&ts, (uint32_t)lv, (uint32_t)ly);
            if (xi >= 0 && xi < (int64_t)tl.w && yi >= 0 && yi < (int64_t)tl.h)
                decode(&ts, tl.data + ((size_t)yi * tl.w + (size_t)xi) * ts.texel_bytes, res);
        }
        for (int c = 0; c < 4; c++)
            out[c][l] = res[c];
    }
}

uint32_t tr_fs_texture_size(const tr_fs_block *b, uint32_t slot, uint32_t level, uint32_t *width, uint32_t *height,
                            uint32_t *layers)
{
    tex_state ts;
    const bool bound = bind_state(b, slot, &ts);
    const tr_image *img = bound ? ts.img : NULL;
    const bool in = img && level < img->desc.levels;
    if (width)
        *width = in ? TR_MAX(1u, img->desc.width >> level) : 0;
    if (height)
        *height = in ? TR_MAX(1u, img->desc.height >> level) : 0;
    if (layers)
        *layers = img ? img->desc.layers : 0;
    return img ? img->desc.levels : 0;
}

void tr_fs_query_lod(const tr_fs_block *b, uint32_t slot, const float *s, const float *t, float out[2][TR_FS_LANES])
{
    const uint32_t n = lane_count(b);
    tex_state ts;
    if (!out)
        return;
    if (!s || !t || !bind_state(b, slot, &ts)) {
        for (uint32_t l = 0; l < n; l++)
            out[0][l] = out[1][l] = 0.0f;
        return;
    }
    const tr_image *img = ts.img;
    for (uint32_t q = 0; q < n; q += 4) {
        const tr__lod_base lb = tr__lod_from_gradients(img->desc.width, img->desc.height, ts.smp->desc.max_anisotropy,
                                                       quad_ddx(s, q, n), quad_ddx(t, q, n), quad_ddy(s, q, n),
                                                       quad_ddy(t, q, n));
        const tr__sample_plan p = tr__plan_levels(ts.smp, img->desc.levels, lb.lambda, 0.0f, INT32_MIN);
        for (uint32_t l = q; l < q + 4 && l < n; l++) {
            out[0][l] = (float)p.d * (1.0f / TR__LOD_ONE);
            out[1][l] = (float)p.lambda_prime * (1.0f / TR__LOD_ONE);
        }
    }
}
