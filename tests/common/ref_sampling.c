/* The reference model of texture.h's sampling arithmetic: see ref_sampling.h. */
#include "ref_sampling.h"

#include <math.h>
#include <string.h>

#include "trtest.h"

long double trref_threshold(int i)
{
    static long double t[129];
    static bool done;
    if (!done) {
        for (int k = 1; k <= 128; k++)
            t[k] = exp2l((long double)(2 * k - 1) / 256.0L);
        done = true;
    }
    return t[i];
}

/* In double x * 256 is exact and the + 1/2 cannot cross an integer. */
int32_t trref_fx(float x)
{
    if (x != x)
        return 0;
    double v = (double)x;
    v = v > 0x1p20 ? 0x1p20 : v < -0x1p20 ? -0x1p20 : v;
    return (int32_t)floor(v * 256.0 + 0.5);
}

/* L(r) = 128 * e + k, r = m * 2^e, k = thresholds that m reaches. */
int32_t trref_L(float r)
{
    if (r != r || r <= 0.0f)
        return -65536;
    if (isinf(r))
        return 65536;
    int e;
    const long double m = 2.0L * frexpl((long double)r, &e); /* r = m * 2^(e - 1) */
    int k = 0;
    for (int i = 1; i <= 128; i++)
        k += m >= trref_threshold(i);
    return 128 * (e - 1) + k;
}

void trref_sampler_create(trref_sampler *o, tr_context *ctx, const tr_sampler_desc *d)
{
    memset(o, 0, sizeof(*o));
    if (ctx)
        TRT_OK(tr_sampler_create(ctx, d, &o->s));
    o->d = *d;
    o->bias_fx = trref_fx(d->lod_bias);
    o->min_fx = trref_fx(d->min_lod);
    o->max_fx = d->max_lod == 0.0f            ? trref_fx(TR_LOD_CLAMP_NONE)
                : d->max_lod == TR_MAX_LOD_ZERO ? 0
                                                : trref_fx(d->max_lod);
    o->aniso = d->max_anisotropy > 1 ? d->max_anisotropy : 1;
}

int64_t trref_address(int64_t i, uint32_t n, tr_address_mode mode)
{
    const int64_t N = n;
    switch (mode) {
    case TR_ADDRESS_REPEAT:
        return ((i % N) + N) % N;
    case TR_ADDRESS_MIRRORED_REPEAT: {
        const int64_t k = ((i % (2 * N)) + 2 * N) % (2 * N) - N;
        return (N - 1) - (k >= 0 ? k : -(1 + k));
    }
    case TR_ADDRESS_CLAMP_TO_EDGE:
        return i < 0 ? 0 : i > N - 1 ? N - 1 : i;
    default:
        return i < 0 || i >= N ? -1 : i;
    }
}

int64_t trref_subtexel(float u)
{
    if (u != u)
        return 0;
    double y = (double)u * 256.0;
    y = y > 0x1p62 ? 0x1p62 : y < -0x1p62 ? -0x1p62 : y;
    return (int64_t)floor(y);
}

int64_t trref_floor_div256(int64_t v)
{
    return v >= 0 ? v / 256 : -((-v + 255) / 256);
}

int32_t trref_texel_offset(int32_t o)
{
    if (o < -8)
        return -8;
    if (o > 7)
        return 7;
    return o;
}

void trref_texel_coords(float s, float t, uint32_t w, uint32_t h, const int32_t *off, int64_t *U, int64_t *V)
{
    const int64_t oi = off ? trref_texel_offset(off[0]) : 0, oj = off ? trref_texel_offset(off[1]) : 0;
    *U = trref_subtexel(s * (float)w) + 256 * oi;
    *V = trref_subtexel(t * (float)h) + 256 * oj;
}

const float trref_border_rgba[3][4] = {{0, 0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1, 1}};

bool trref_compare(tr_compare_op op, float a, float b)
{
    switch (op) {
    case TR_COMPARE_NEVER: return false;
    case TR_COMPARE_LESS: return a < b;
    case TR_COMPARE_EQUAL: return a == b;
    case TR_COMPARE_LESS_OR_EQUAL: return a <= b;
    case TR_COMPARE_GREATER: return a > b;
    case TR_COMPARE_NOT_EQUAL: return a != b;
    case TR_COMPARE_GREATER_OR_EQUAL: return a >= b;
    case TR_COMPARE_ALWAYS: return true;
    default: cr_assert_fail("bad compare op %d", (int)op);
    }
    return false;
}

static uint32_t texels_w(const trref_texels *tx, uint32_t l)
{
    return tx->w >> l ? tx->w >> l : 1u;
}

static uint32_t texels_h(const trref_texels *tx, uint32_t l)
{
    return tx->h >> l ? tx->h >> l : 1u;
}

void trref_texel(const trref_texels *tx, const trref_sampler *sm, uint32_t level, uint32_t layer, int64_t i,
                 int64_t j, float dref, float out[4])
{
    const uint32_t w = texels_w(tx, level), h = texels_h(tx, level);
    const int64_t x = trref_address(i, w, sm->d.address_u);
    const int64_t y = trref_address(j, h, sm->d.address_v);
    if (x < 0 || y < 0)
        memcpy(out, trref_border_rgba[sm->d.border_color], sizeof(float) * 4);
    else
        memcpy(out, tx->dec[level] + (((size_t)layer * h + (size_t)y) * w + (size_t)x) * 4, sizeof(float) * 4);
    if (sm->d.compare != TR_COMPARE_DEFAULT) {
        out[0] = trref_compare(sm->d.compare, dref, out[0]) ? 1.0f : 0.0f;
        out[1] = out[2] = 0.0f;
        out[3] = 1.0f;
    }
}

void trref_filter(const trref_texels *tx, const trref_sampler *sm, uint32_t level, uint32_t layer, float s, float t,
                  const int32_t *off, bool linear, float dref, float out[4])
{
    int64_t U, V;
    trref_texel_coords(s, t, texels_w(tx, level), texels_h(tx, level), off, &U, &V);
    if (!linear) {
        trref_texel(tx, sm, level, layer, trref_floor_div256(U), trref_floor_div256(V), dref, out);
        return;
    }
    const int64_t i0 = trref_floor_div256(U - 128), j0 = trref_floor_div256(V - 128);
    const int64_t a = (U - 128) - 256 * i0, b = (V - 128) - 256 * j0;
    float t00[4], t10[4], t01[4], t11[4];
    trref_texel(tx, sm, level, layer, i0, j0, dref, t00);
    trref_texel(tx, sm, level, layer, i0 + 1, j0, dref, t10);
    trref_texel(tx, sm, level, layer, i0, j0 + 1, dref, t01);
    trref_texel(tx, sm, level, layer, i0 + 1, j0 + 1, dref, t11);
    const float w00 = (float)((256 - a) * (256 - b)), w10 = (float)(a * (256 - b));
    const float w01 = (float)((256 - a) * b), w11 = (float)(a * b);
    for (int c = 0; c < 4; c++)
        out[c] = ((w00 * t00[c] + w10 * t10[c]) + (w01 * t01[c] + w11 * t11[c])) * 0x1p-16f;
}

trref_lod trref_lod_grad(uint32_t W, uint32_t H, uint32_t A, float dsdx, float dtdx, float dsdy, float dtdy)
{
    const float mux = dsdx * (float)W, mvx = dtdx * (float)H;
    const float muy = dsdy * (float)W, mvy = dtdy * (float)H;
    float rx = mux * mux + mvx * mvx;
    float ry = muy * muy + mvy * mvy;
    if (rx != rx)
        rx = 0.0f;
    if (ry != ry)
        ry = 0.0f;
    trref_lod o;
    o.major_x = rx > ry;
    const float rmax = o.major_x ? rx : ry, rmin = o.major_x ? ry : rx;
    if (A < 2) {
        o.lambda = trref_L(rmax);
        o.taps = 1;
        return o;
    }
    o.taps = A;
    for (uint32_t n = 1; n <= A; n++)
        if ((double)(n * n) * (double)rmin >= (double)rmax) {
            o.taps = n;
            break;
        }
    o.lambda = (double)(A * A) * (double)rmin >= (double)rmax ? trref_L(rmin) : trref_L(rmax / (float)(A * A));
    return o;
}

trref_mip_plan trref_plan(const trref_sampler *sm, uint32_t levels, int32_t base, float shader_bias,
                          const float *lod_clamp)
{
    int32_t bias = sm->bias_fx + trref_fx(shader_bias);
    bias = bias > 15 * 256 ? 15 * 256 : bias < -15 * 256 ? -15 * 256 : bias;
    trref_mip_plan p;
    p.lambda_prime = base + bias;
    int32_t lo = sm->min_fx;
    if (lod_clamp && trref_fx(*lod_clamp) > lo)
        lo = trref_fx(*lod_clamp);
    int32_t l = p.lambda_prime;
    if (l < lo)
        l = lo;
    if (l > sm->max_fx)
        l = sm->max_fx;
    p.lambda = l;
    p.mag = l <= 0;
    const int32_t top = 256 * (int32_t)(levels - 1);
    const int32_t d = l < 0 ? 0 : l > top ? top : l;
    if (sm->d.mipmap_mode == TR_MIPMAP_LINEAR) {
        p.hi = (uint32_t)d / 256;
        p.lo = p.hi + 1 < levels ? p.hi + 1 : levels - 1;
        p.delta = (uint32_t)d % 256;
    } else {
        p.hi = p.lo = (uint32_t)(d + 127) / 256;
        p.delta = 0;
    }
    return p;
}

/* Nearest integer, ties to even (the default rounding mode), clamped. */
uint32_t trref_layer(float a, uint32_t layers)
{
    const double r = nearbyint((double)a);
    if (!(r > 0.0))
        return 0;
    return r > (double)(layers - 1) ? layers - 1 : (uint32_t)r;
}

void trref_tap(float s, float t, float dsda, float dtda, uint32_t taps, uint32_t i, float *si, float *ti)
{
    *si = s;
    *ti = t;
    if (taps > 1) {
        const float o = (float)(2 * (int32_t)i - (int32_t)taps - 1) / (float)(2 * taps + 2);
        *si = s + o * dsda;
        *ti = t + o * dtda;
    }
}

trref_read trref_read_lane(const trref_sampler *sm, uint32_t W, uint32_t H, uint32_t levels, uint32_t layers,
                           const tr_sample_args *a, uint32_t count, uint32_t lane)
{
    /* step 1: coarse derivatives of the quad; lanes past count read as lane 0 */
    const uint32_t q = lane & ~3u;
    const uint32_t l1 = q + 1 < count ? q + 1 : q, l2 = q + 2 < count ? q + 2 : q;
    trref_read r;
    r.dsdx = a->s[l1] - a->s[q];
    r.dtdx = a->t[l1] - a->t[q];
    r.dsdy = a->s[l2] - a->s[q];
    r.dtdy = a->t[l2] - a->t[q];
    r.lod = (trref_lod){0, 1, true};
    if (a->lod) {
        r.lod.lambda = trref_fx(a->lod[lane]);
    } else {
        if (a->dsdx) {
            r.dsdx = a->dsdx[lane];
            r.dtdx = a->dtdx[lane];
            r.dsdy = a->dsdy[lane];
            r.dtdy = a->dtdy[lane];
        }
        r.lod = trref_lod_grad(W, H, sm->aniso, r.dsdx, r.dtdx, r.dsdy, r.dtdy);
    }
    r.plan = trref_plan(sm, levels, r.lod.lambda, !a->lod && a->bias ? a->bias[lane] : 0.0f,
                        !a->lod && a->lod_clamp ? &a->lod_clamp[lane] : NULL);
    r.linear = (r.plan.mag ? sm->d.mag_filter : sm->d.min_filter) == TR_FILTER_LINEAR;
    r.layer = a->layer ? trref_layer(a->layer[lane], layers) : 0;
    r.s = a->s[lane];
    r.t = a->t[lane];
    r.dsda = r.lod.major_x ? r.dsdx : r.dsdy;
    r.dtda = r.lod.major_x ? r.dtdx : r.dtdy;
    r.offset[0] = trref_texel_offset(a->offset[0]);
    r.offset[1] = trref_texel_offset(a->offset[1]);
    return r;
}

uint32_t trref_full_chain(uint32_t w, uint32_t h)
{
    uint32_t m = w > h ? w : h, n = 1;
    while (m > 1) {
        m >>= 1;
        n++;
    }
    return n;
}
