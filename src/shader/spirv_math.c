/* GLSL.std.450 kernels over lane arrays (spirv_math.h says what each does and
 * how precise it is).  Every lane is computed by the same straight-line
 * float32 code (selects, no lane-dependent control flow except sin / cos /
 * tan's rare large-argument fix-up), so vectorising the lane loop cannot
 * change a bit.  NaN tests that pin result bits are integer tests (see
 * canon).  Polynomial coefficients are near-minimax Chebyshev fits
 * (mpmath.chebyfit at 40 digits) of the remainder function named beside
 * each, on the interval stated, rounded to float; the other constants are
 * the named values rounded, or split as stated, at 120 digits. */
#include "shader/spirv_math.h"

#include <math.h>
#include <string.h>

#define LANES(l) for (uint32_t l = 0; l < n; l++)

/* ---- bits -------------------------------------------------------------------- */

static inline uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static inline float bitsf(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

#define QNAN_BITS 0x7fc00000u
#define INF_BITS 0x7f800000u
#define SIGN_BIT 0x80000000u

static inline float qnan(void) { return bitsf(QNAN_BITS); }
static inline float inf(void) { return bitsf(INF_BITS); }
static inline float fabs_(float x) { return bitsf(fbits(x) & ~SIGN_BIT); }
/* |mag| with sgn's sign */
static inline float copysign_(float mag, float sgn)
{
    return bitsf((fbits(mag) & ~SIGN_BIT) | (fbits(sgn) & SIGN_BIT));
}
/* NaN -> the canonical quiet NaN.  Tested on the bits: compilers treat a
 * NaN's sign and payload as unspecified (clang folds "x < 0 ? NaN :
 * sqrtf(x)" into sqrtss, whose NaN is 0xffc00000), so only an integer test
 * of the final bits pins them down. */
static inline int isnan_bits(float x) { return (fbits(x) & ~SIGN_BIT) > INF_BITS; }
static inline float canon(float x) { return bitsf(isnan_bits(x) ? QNAN_BITS : fbits(x)); }
/* r, or x itself (bits unchanged, signalling or not) when x is NaN */
static inline float keepnan(float x, float r) { return bitsf(isnan_bits(x) ? fbits(x) : fbits(r)); }
/* 2^e for e in [-126, 127] */
static inline float pow2i(int32_t e) { return bitsf((uint32_t)(e + 127) << 23); }

/* Adding then subtracting 1.5 * 2^23 rounds |x| < 2^22 to an integer (ties
 * to even); the sum's low mantissa bits hold that integer. */
#define MAGIC 0x1.8p23f
#define MAGIC_BITS 0x4b400000u

/* ---- rounding -------------------------------------------------------------------- */

static inline float trunc_(float x)
{
    const uint32_t u = fbits(x);
    const int32_t e = (int32_t)((u >> 23) & 0xffu) - 127;
    const uint32_t keep = e < 0 ? SIGN_BIT : e >= 23 ? 0xffffffffu : ~(0x007fffffu >> e);
    return bitsf(u & keep);
}

static inline float floor_(float x)
{
    const float t = trunc_(x);
    return keepnan(x, t > x ? t - 1.0f : t); /* |t| < 2^23 when t > x: exact */
}

static inline float ceil_(float x)
{
    const float t = trunc_(x);
    return keepnan(x, t < x ? t + 1.0f : t);
}

static inline float roundeven_(float x)
{
    const float a = fabs_(x);
    const float r = a < 0x1p23f ? (a + 0x1p23f) - 0x1p23f : a;
    return keepnan(x, copysign_(r, x));
}

static inline float round_(float x)
{
    const float t = trunc_(x);
    const float frac = fabs_(x - t); /* exact; NaN for inf and NaN */
    return keepnan(x, frac >= 0.5f ? t + copysign_(1.0f, x) : t);
}

/* ---- exp ------------------------------------------------------------------------- */

/* p * 2^k for p in [0.5, 2], k in [-160, 140]: the first product is exact,
 * the second rounds once (to a denormal or infinity where due). */
static inline float scale2(float p, int32_t k)
{
    const int32_t k1 = k / 2;
    return (p * pow2i(k1)) * pow2i(k - k1);
}

/* 2^r - 1 = r * Q(r), r in [-0.5, 0.5]; rel. err of Q 2.2e-8 */
#define EXP2_C0 0x1.62e43p-1f
#define EXP2_C1 0x1.ebfbep-3f
#define EXP2_C2 0x1.c6af6cp-5f
#define EXP2_C3 0x1.3b2a54p-7f
#define EXP2_C4 0x1.5f089p-10f
#define EXP2_C5 0x1.44138ap-13f

static inline float exp2_(float x)
{
    x = x > 129.0f ? 129.0f : x; /* NaN passes both */
    x = x < -152.0f ? -152.0f : x;
    const float t = x + MAGIC;
    const int32_t k = (int32_t)(fbits(t) - MAGIC_BITS);
    const float r = x - (t - MAGIC); /* exact, in [-0.5, 0.5] */
    const float q = EXP2_C0 + r * (EXP2_C1 + r * (EXP2_C2 + r * (EXP2_C3 + r * (EXP2_C4 + r * EXP2_C5))));
    return canon(scale2(1.0f + r * q, k));
}

/* e^r = 1 + (r + r^2 * Q(r)), r in [-ln2/2, ln2/2] (+0.001); rel. err of Q 1.4e-7 */
#define EXP_C0 0x1p-1f
#define EXP_C1 0x1.5554dcp-3f
#define EXP_C2 0x1.555518p-5f
#define EXP_C3 0x1.120cd4p-7f
#define EXP_C4 0x1.6d127p-10f
#define LOG2E 0x1.715476p+0f
/* ln 2 split: LN2_HI has 16 significant bits, so k * LN2_HI is exact for |k| < 256 */
#define LN2_HI 0x1.62e4p-1f
#define LN2_LO 0x1.7f7d1cp-20f
#define LN2 0x1.62e43p-1f

/* e^x * 2^s (s in {-1, 0}) without overflowing early: Cody-Waite reduction
 * x = k ln2 + r, then the polynomial, then scale2 by 2^(k + s). */
static inline float expk(float x, int32_t s)
{
    x = x > 90.0f ? 90.0f : x;
    x = x < -104.0f ? -104.0f : x;
    const float t = x * LOG2E + MAGIC;
    const int32_t k = (int32_t)(fbits(t) - MAGIC_BITS);
    const float kf = t - MAGIC;
    const float r = (x - kf * LN2_HI) - kf * LN2_LO;
    const float q = EXP_C0 + r * (EXP_C1 + r * (EXP_C2 + r * (EXP_C3 + r * EXP_C4)));
    return scale2(1.0f + (r + (r * r) * q), k + s);
}

/* ---- log ------------------------------------------------------------------------- */

/* log1p(f) = f - s * (f - w * W(w)), s = f / (2 + f), w = s^2, |s| <= 0.1716;
 * W(w) = (2 atanh(s) / s - 2) / w; rel. err of W 3.3e-8 */
#define LOG_C0 0x1.555556p-1f
#define LOG_C1 0x1.9999eep-2f
#define LOG_C2 0x1.245b28p-2f
#define LOG_C3 0x1.de0b02p-3f

/* x = 2^e * (1 + f), f in [sqrt(1/2) - 1, sqrt(2) - 1), for finite x > 0
 * (denormals too); returns log1p(f) and sets *e. */
static inline float log_core(float x, float *e)
{
    uint32_t u = fbits(x);
    const int32_t sub = u < 0x00800000u ? 23 : 0;
    u = sub ? fbits(x * 0x1p23f) : u;
    const uint32_t mb = u & 0x007fffffu;
    const int32_t big = mb > 0x3504f3u; /* mantissa >= sqrt(2) */
    *e = (float)((int32_t)(u >> 23) - 127 - sub + big);
    const float f = bitsf(mb | (big ? 0x3f000000u : 0x3f800000u)) - 1.0f; /* exact */
    const float s = f / (2.0f + f);
    const float w = s * s;
    const float R = w * (LOG_C0 + w * (LOG_C1 + w * (LOG_C2 + w * LOG_C3)));
    return f - s * (f - R);
}

/* the special values of log and log2 (x NaN, <= 0, inf) */
static inline float log_special(float x, float v)
{
    v = x == inf() ? x : v;
    v = x == 0.0f ? -inf() : v;
    v = x < 0.0f ? qnan() : v;
    return isnan_bits(x) ? qnan() : canon(v);
}

static inline float log_(float x)
{
    float e;
    const float lp = log_core(x, &e);
    return log_special(x, e * LN2_HI + (lp + e * LN2_LO));
}

static inline float log2_(float x)
{
    float e;
    const float lp = log_core(x, &e);
    return log_special(x, e + lp * LOG2E);
}

/* log(1 + u) for u >= -1 finite: log of c = 1 + u, plus the rounding error
 * of that sum (TwoSum) divided by c. */
static inline float log1p_(float u)
{
    const float c = 1.0f + u;
    const float bb = c - 1.0f;
    const float err = (1.0f - (c - bb)) + (u - bb);
    float e;
    const float lp = log_core(c, &e);
    return e * LN2_HI + ((lp + err / c) + e * LN2_LO);
}

/* ---- sin, cos, tan --------------------------------------------------------------- */

/* sin r = r + (r z) S(z), cos r = (1 - z/2) + z^2 C(z), z = r^2, |r| <= pi/4
 * (+0.2%); rel. err of S, C 3.1e-8 */
#define SIN_C0 -0x1.555556p-3f
#define SIN_C1 0x1.11110ep-7f
#define SIN_C2 -0x1.a0139ap-13f
#define SIN_C3 0x1.6db9d4p-19f
#define COS_C0 0x1.555556p-5f
#define COS_C1 -0x1.6c16cp-10f
#define COS_C2 0x1.a015bcp-16f
#define COS_C3 -0x1.25218p-22f
#define TWO_OVER_PI 0x1.45f306p-1f
/* pi/2 as 8 parts of 7 significant bits each (each rounded from what the
 * previous left; residual 1.4e-21), so k * part is exact for k < 2^17. */
#define PIO2_P0 0x1.94p+0f
#define PIO2_P1 -0x1.ep-8f
#define PIO2_P2 -0x1.2cp-18f
#define PIO2_P3 0x1.1p-26f
#define PIO2_P4 0x1.0cp-34f
#define PIO2_P5 -0x1.74p-43f
#define PIO2_P6 0x1.1cp-54f
#define PIO2_P7 -0x1.9cp-62f
/* Cody-Waite covers |x| below this; beyond, trig_reduce_big */
#define TRIG_CW_LIMIT 0x1p17f

/* x = (4m + q) pi/2 + r, |r| <= pi/4 (a hair more), for |x| < 2^17 */
static inline float trig_reduce(float x, uint32_t *q)
{
    const float t = x * TWO_OVER_PI + MAGIC;
    const float k = t - MAGIC;
    *q = fbits(t) & 3u;
    float r = x - k * PIO2_P0; /* exact (Sterbenz), as the next few are */
    r = r - k * PIO2_P1;
    r = r - k * PIO2_P2;
    r = r - k * PIO2_P3;
    r = r - k * PIO2_P4;
    r = r - k * PIO2_P5;
    r = r - k * PIO2_P6;
    r = r - k * PIO2_P7;
    return k == 0.0f ? x : r; /* keeps -0 */
}

/* 2/pi to 256 bits: floor(2/pi * 2^256), most significant word first */
static const uint32_t two_over_pi_bits[8] = {
    0xa2f9836eu, 0x4e441529u, 0xfc2757d1u, 0xf534ddc0u,
    0xdb629599u, 0x3c439041u, 0xfe5163abu, 0xdebbc561u,
};
/* pi/2 * 2^-64, rounded */
#define PIO2_2M64 0x1.921fb6p-64f

/* The same reduction for finite |x| >= 2^17 (Payne-Hanek): with x = m 2^e
 * (m a 24-bit integer, e >= -6), x * 2/pi mod 4 is m times 128 bits of 2/pi
 * starting past the bits whose product with m 2^e is a multiple of 4.  The
 * product is exact integer arithmetic; r comes from its top 64 fraction
 * bits (one int64 -> float conversion, one multiply). */
static float trig_reduce_big(float x, uint32_t *q)
{
    const uint32_t u = fbits(x) & ~SIGN_BIT;
    const int32_t e = (int32_t)(u >> 23) - 150;
    const uint64_t m = (u & 0x007fffffu) | 0x00800000u;
    const int32_t b = e > 2 ? e - 2 : 0; /* 2/pi bits above b give multiples of 4 */
    const uint32_t sh = (uint32_t)(2 - (e - b)); /* 0 .. 8 */
    const uint32_t w = (uint32_t)b >> 5, s = (uint32_t)b & 31u;
    uint32_t f[4];
    for (uint32_t i = 0; i < 4; i++)
        f[i] = s ? (two_over_pi_bits[w + i] << s) | (two_over_pi_bits[w + i + 1] >> (32 - s))
                 : two_over_pi_bits[w + i];
    /* P = m * F, 152 bits; the binary point of x * 2/pi sits at bit 126 + sh */
    const uint64_t p3 = m * f[3];
    const uint64_t p2 = m * f[2] + (p3 >> 32);
    const uint64_t p1 = m * f[1] + (p2 >> 32);
    const uint64_t p0 = m * f[0] + (p1 >> 32);
    const uint64_t top = (p0 << (32 - sh)) | ((p1 & 0xffffffffu) >> sh); /* bits 64+sh .. 127+sh */
    const uint64_t frac = top << 2;
    uint32_t quad = (uint32_t)(top >> 62) + (uint32_t)(frac >> 63); /* round to nearest quadrant */
    int64_t sf;
    memcpy(&sf, &frac, sizeof sf); /* fraction - 1 when >= 1/2 */
    float r = (float)sf * PIO2_2M64;
    if (fbits(x) & SIGN_BIT) {
        r = -r;
        quad = 0u - quad;
    }
    *q = quad & 3u;
    return r;
}

static inline void sincos_poly(float r, float *s, float *c)
{
    const float z = r * r;
    const float sp = r + (r * z) * (SIN_C0 + z * (SIN_C1 + z * (SIN_C2 + z * SIN_C3)));
    *s = r == 0.0f ? r : sp; /* keeps -0 */
    *c = (1.0f - 0.5f * z) + (z * z) * (COS_C0 + z * (COS_C1 + z * (COS_C2 + z * COS_C3)));
}

/* which: 0 sin, 1 cos, 2 tan */
static inline float trig_from(float r, uint32_t q, int which)
{
    float s, c;
    sincos_poly(r, &s, &c);
    q = (q + (which == 1)) & 3u; /* cos x = sin(x + pi/2) */
    if (which == 2)
        return (q & 1u) ? -c / s : s / c;
    const float v = (q & 1u) ? c : s;
    return (q & 2u) ? -v : v;
}

/* ---- inverse trigonometry -------------------------------------------------------- */

/* atan t = t + (t z) A(z), z = t^2, |t| <= tan(pi/8) (+0.2%); rel. err 3.8e-8 */
#define ATAN_C0 -0x1.555556p-2f
#define ATAN_C1 0x1.99997ap-3f
#define ATAN_C2 -0x1.2489f8p-3f
#define ATAN_C3 0x1.c57746p-4f
#define ATAN_C4 -0x1.612388p-4f
#define ATAN_C5 0x1.9ce274p-5f
#define TAN_PI8 0x1.a8279ap-2f
#define TAN_3PI8 0x1.3504f4p+1f
/* pi/2, pi, pi/4 as float + float remainder */
#define PIO2_HI 0x1.921fb6p+0f
#define PIO2_LO -0x1.777a5cp-25f
#define PI_HI 0x1.921fb6p+1f
#define PI_LO -0x1.777a5cp-24f
#define PIO4_HI 0x1.921fb6p-1f
#define PIO4_LO -0x1.777a5cp-26f

/* K pi/4 (K = 0..4) as float + float remainder */
#define PI4K_HI(K) ((K) == 0 ? 0.0f : (K) == 1 ? PIO4_HI : (K) == 2 ? PIO2_HI : (K) == 3 ? 0x1.2d97c8p+1f : PI_HI)
#define PI4K_LO(K) ((K) == 0 ? 0.0f : (K) == 1 ? PIO4_LO : (K) == 2 ? PIO2_LO : (K) == 3 ? -0x1.99bc5cp-28f : PI_LO)

/* atan(a) = K pi/4 + p for a >= 0 or NaN (inf: K = 2, p = -0): a > tan(3pi/8)
 * uses pi/2 + atan(-1/a), a > tan(pi/8) uses pi/4 + atan((a - 1) / (a + 1)). */
static inline float atan_red(float a, int32_t *K)
{
    const int hi = a > TAN_3PI8, mid = a > TAN_PI8;
    const float num = hi ? -1.0f : mid ? a - 1.0f : a;
    const float den = hi ? a : mid ? a + 1.0f : 1.0f;
    const float t = num / den;
    const float z = t * t;
    *K = hi ? 2 : mid ? 1 : 0;
    return t + (t * z) * (ATAN_C0 + z * (ATAN_C1 + z * (ATAN_C2 + z * (ATAN_C3 + z * (ATAN_C4 + z * ATAN_C5)))));
}

/* the angle K pi/4 + p, rounded once at the end: hi(K) + (lo(K) + p) */
static inline float angle(int32_t K, float p) { return PI4K_HI(K) + (PI4K_LO(K) + p); }

/* asin v = v + (v z) B(z), z = v^2 <= 0.25 (+0.1%); rel. err 6e-8 */
#define ASIN_C0 0x1.555554p-3f
#define ASIN_C1 0x1.333432p-4f
#define ASIN_C2 0x1.6d5b4ap-5f
#define ASIN_C3 0x1.fd98dp-6f
#define ASIN_C4 0x1.18bf3p-6f
#define ASIN_C5 0x1.1432a4p-5f

/* For a = |x| <= 1: a <= 1/2 gives w = asin(a); above, w = asin(sqrt((1 - a) / 2)),
 * so asin(a) = pi/2 - 2w and acos(a) = 2w.  *small says which. */
static inline float asin_core(float a, int *small)
{
    *small = a <= 0.5f;
    const float z = *small ? a * a : (1.0f - a) * 0.5f; /* exact when a > 1/2 */
    const float v = *small ? a : sqrtf(z);
    return v + (v * z) * (ASIN_C0 + z * (ASIN_C1 + z * (ASIN_C2 + z * (ASIN_C3 + z * (ASIN_C4 + z * ASIN_C5)))));
}

/* ---- hyperbolic ------------------------------------------------------------------- */

/* sinh a = a + (a z) H(z), z = a^2 <= 1; rel. err 3.2e-8 */
#define SINH_C0 0x1.555556p-3f
#define SINH_C1 0x1.11111ep-7f
#define SINH_C2 0x1.a009p-13f
#define SINH_C3 0x1.78a70ep-19f
/* tanh a = a + (a z) T(z), z = a^2 <= 0.625^2; rel. err 3.9e-8 */
#define TANH_C0 -0x1.555556p-2f
#define TANH_C1 0x1.1110eap-3f
#define TANH_C2 -0x1.ba08c4p-5f
#define TANH_C3 0x1.64a976p-6f
#define TANH_C4 -0x1.116a16p-7f
#define TANH_C5 0x1.2c83cp-9f

/* ---- kernels: rounding and simple arithmetic --------------------------------------- */

#define KERNEL1(name, expr)                                                     \
    void tr__m_##name(float *d, const float *a, uint32_t n)                     \
    {                                                                           \
        LANES(l) {                                                              \
            const float x = a[l];                                               \
            d[l] = (expr);                                                      \
        }                                                                       \
    }

KERNEL1(round, round_(x))
KERNEL1(roundeven, roundeven_(x))
KERNEL1(trunc, trunc_(x))
KERNEL1(fabs, fabs_(x))
KERNEL1(fsign, keepnan(x, x > 0.0f ? 1.0f : x < 0.0f ? -1.0f : x))
KERNEL1(floor, floor_(x))
KERNEL1(ceil, ceil_(x))
KERNEL1(fract, canon(x - floor_(x)))
KERNEL1(radians, canon(x * 0x1.1df46ap-6f))
KERNEL1(degrees, canon(x * 0x1.ca5dc2p+5f))
KERNEL1(sqrt, canon(sqrtf(x)))
KERNEL1(inversesqrt, x == 0.0f ? inf() : canon(1.0f / sqrtf(x)))
KERNEL1(exp2, exp2_(x))
KERNEL1(exp, canon(expk(x, 0)))
KERNEL1(log, log_(x))
KERNEL1(log2, log2_(x))

/* ---- kernels: trigonometry ----------------------------------------------------------- */

static void trig_kernel(float *d, const float *a, uint32_t n, int which)
{
    float x_big[TR__M_MAX_LANES];
    uint32_t big = 0;
    LANES(l) {
        const float x = a[l];
        x_big[l] = x;
        big |= !(fabs_(x) < TRIG_CW_LIMIT);
        uint32_t q;
        const float r = trig_reduce(x, &q);
        d[l] = canon(trig_from(r, q, which));
    }
    if (!big)
        return;
    for (uint32_t l = 0; l < n; l++) {
        const float x = x_big[l];
        if (fabs_(x) < TRIG_CW_LIMIT)
            continue;
        if (!(fabs_(x) < inf())) {
            d[l] = qnan(); /* inf, NaN */
            continue;
        }
        uint32_t q;
        const float r = trig_reduce_big(x, &q);
        d[l] = canon(trig_from(r, q, which));
    }
}

void tr__m_sin(float *d, const float *a, uint32_t n) { trig_kernel(d, a, n, 0); }
void tr__m_cos(float *d, const float *a, uint32_t n) { trig_kernel(d, a, n, 1); }
void tr__m_tan(float *d, const float *a, uint32_t n) { trig_kernel(d, a, n, 2); }

void tr__m_asin(float *d, const float *a, uint32_t n)
{
    LANES(l) {
        const float x = a[l], ax = fabs_(x);
        int small;
        const float w = asin_core(ax, &small);
        const float r = small ? w : (PIO2_HI - 2.0f * w) + PIO2_LO;
        d[l] = ax > 1.0f || isnan_bits(x) ? qnan() : canon(copysign_(r, x));
    }
}

void tr__m_acos(float *d, const float *a, uint32_t n)
{
    LANES(l) {
        const float x = a[l], ax = fabs_(x);
        int small;
        const float w = asin_core(ax, &small);
        /* small: pi/2 - asin(x); x > 1/2: 2w; x < -1/2: pi - 2w */
        const float r = small ? (PIO2_HI - copysign_(w, x)) + PIO2_LO
                      : x > 0.0f ? 2.0f * w
                                 : (PI_HI - 2.0f * w) + PI_LO;
        d[l] = ax > 1.0f || isnan_bits(x) ? qnan() : canon(r);
    }
}

void tr__m_atan(float *d, const float *a, uint32_t n)
{
    LANES(l) {
        const float x = a[l];
        int32_t K;
        const float p = atan_red(fabs_(x), &K);
        d[l] = canon(copysign_(angle(K, p), x));
    }
}

/* t = min(|y|, |x|) / max(|y|, |x|) in [0, 1]; atan(t) = K pi/4 + p, then
 * pi/2 - that if |y| > |x|, then pi - that if x has its sign bit (each
 * step reflects K and p exactly), then the one rounding of angle(), then
 * y's sign. */
void tr__m_atan2(float *d, const float *a, const float *b, uint32_t n)
{
    LANES(l) {
        const float y = a[l], x = b[l];
        const float ay = fabs_(y), ax = fabs_(x);
        const int swap = ay > ax;
        float t = (swap ? ax : ay) / (swap ? ay : ax);
        t = ay == ax ? (ax == 0.0f ? 0.0f : 1.0f) : t; /* 0/0, inf/inf */
        int32_t K;
        float p = atan_red(t, &K);
        K = swap ? 2 - K : K;
        p = swap ? -p : p;
        K = (fbits(x) & SIGN_BIT) ? 4 - K : K;
        p = (fbits(x) & SIGN_BIT) ? -p : p;
        d[l] = isnan_bits(x) || isnan_bits(y) ? qnan() : canon(copysign_(angle(K, p), y));
    }
}

/* ---- kernels: hyperbolic ------------------------------------------------------------- */

/* |x| < 1: the polynomial; else e^|x|/2 - (1/4) / (e^|x|/2) */
void tr__m_sinh(float *d, const float *a, uint32_t n)
{
    LANES(l) {
        const float x = a[l], ax = fabs_(x);
        const float z = ax * ax;
        const float p = ax + (ax * z) * (SINH_C0 + z * (SINH_C1 + z * (SINH_C2 + z * SINH_C3)));
        const float h = expk(ax, -1);
        const float r = ax < 1.0f ? p : h - 0.25f / h;
        d[l] = canon(copysign_(r, x));
    }
}

/* e^|x|/2 + (1/4) / (e^|x|/2) */
void tr__m_cosh(float *d, const float *a, uint32_t n)
{
    LANES(l) {
        const float h = expk(fabs_(a[l]), -1);
        d[l] = canon(h + 0.25f / h);
    }
}

/* |x| < 0.625: the polynomial; else 1 - 2 / (e^(2|x|) + 1) */
void tr__m_tanh(float *d, const float *a, uint32_t n)
{
    LANES(l) {
        const float x = a[l], ax = fabs_(x);
        const float z = ax * ax;
        const float p = ax + (ax * z) * (TANH_C0 + z * (TANH_C1 + z * (TANH_C2 + z * (TANH_C3 + z * (TANH_C4 + z * TANH_C5)))));
        const float e = expk(2.0f * ax, 0);
        const float r = ax < 0.625f ? p : 1.0f - 2.0f / (e + 1.0f);
        d[l] = canon(copysign_(r, x));
    }
}

/* |x| > 2^12: log|x| + ln 2; else log1p(|x| + x^2 / (sqrt(x^2 + 1) + 1)) */
void tr__m_asinh(float *d, const float *a, uint32_t n)
{
    LANES(l) {
        const float x = a[l], ax = fabs_(x);
        const float z = ax * ax;
        const float small = log1p_(ax + z / (sqrtf(z + 1.0f) + 1.0f));
        const float r = ax > 0x1p12f ? log_(ax) + LN2 : small;
        d[l] = canon(copysign_(r, x));
    }
}

/* x > 2^12: log x + ln 2; else log1p((x - 1) + sqrt((x - 1) * (x + 1))) */
void tr__m_acosh(float *d, const float *a, uint32_t n)
{
    LANES(l) {
        const float x = a[l];
        const float t = x - 1.0f;
        const float small = log1p_(t + sqrtf(t * (x + 1.0f)));
        const float r = x > 0x1p12f ? log_(x) + LN2 : small;
        d[l] = x < 1.0f || isnan_bits(x) ? qnan() : canon(r);
    }
}

/* 0.5 * log1p(2|x| / (1 - |x|)) with x's sign */
void tr__m_atanh(float *d, const float *a, uint32_t n)
{
    LANES(l) {
        const float x = a[l], ax = fabs_(x);
        const float r = 0.5f * log1p_((2.0f * ax) / (1.0f - ax));
        const float v = ax == 1.0f ? inf() : r;
        d[l] = ax > 1.0f || isnan_bits(x) ? qnan() : canon(copysign_(v, x));
    }
}

/* ---- kernels: binary ------------------------------------------------------------------ */

void tr__m_pow(float *d, const float *a, const float *b, uint32_t n)
{
    LANES(l) {
        const float x = a[l], y = b[l];
        float r = exp2_(y * log2_(x));
        r = x == 0.0f ? (y > 0.0f ? 0.0f : inf()) : r;
        r = y == 0.0f || x == 1.0f ? 1.0f : r;
        r = x < 0.0f ? qnan() : r;
        d[l] = isnan_bits(x) || isnan_bits(y) ? qnan() : canon(r);
    }
}

/* IEEE minNum / maxNum; equal operands (+-0 included) merge their sign bits */
static inline float nmin_(float x, float y)
{
    const float m = x < y ? x : y < x ? y : bitsf(fbits(x) | fbits(y));
    return isnan_bits(y) ? x : isnan_bits(x) ? y : m;
}

static inline float nmax_(float x, float y)
{
    const float m = x > y ? x : y > x ? y : bitsf(fbits(x) & fbits(y));
    return isnan_bits(y) ? x : isnan_bits(x) ? y : m;
}

void tr__m_fmin(float *d, const float *a, const float *b, uint32_t n) { LANES(l) d[l] = nmin_(a[l], b[l]); }
void tr__m_fmax(float *d, const float *a, const float *b, uint32_t n) { LANES(l) d[l] = nmax_(a[l], b[l]); }
void tr__m_nmin(float *d, const float *a, const float *b, uint32_t n) { LANES(l) d[l] = nmin_(a[l], b[l]); }
void tr__m_nmax(float *d, const float *a, const float *b, uint32_t n) { LANES(l) d[l] = nmax_(a[l], b[l]); }
void tr__m_step(float *d, const float *a, const float *b, uint32_t n) { LANES(l) d[l] = b[l] < a[l] ? 0.0f : 1.0f; }

static inline float ldexp_(float x, int32_t e)
{
    const uint32_t u = fbits(x), sign = u & SIGN_BIT;
    uint32_t ax = u & ~SIGN_BIT;
    const int32_t sub = ax < 0x00800000u ? 24 : 0; /* normalise denormals */
    ax = sub ? fbits(bitsf(ax) * 0x1p24f) : ax;
    e = e > 400 ? 400 : e < -400 ? -400 : e;
    int32_t E = (int32_t)(ax >> 23) - sub + e; /* biased exponent of the result */
    const uint32_t mant = ax & 0x007fffffu;
    const float normal = bitsf(sign | ((uint32_t)(E > 0 ? E : 1) << 23) | mant);
    E = E < -30 ? -30 : E; /* below 2^-157: rounds to 0 all the same */
    const float tiny = bitsf(fbits(bitsf(((uint32_t)(E + 64) << 23) | mant) * 0x1p-64f) | sign);
    const float r = E >= 255 ? bitsf(sign | INF_BITS) : E >= 1 ? normal : tiny;
    return (u & ~SIGN_BIT) == 0 || (u & ~SIGN_BIT) >= INF_BITS ? x : r;
}

void tr__m_ldexp(float *d, const float *a, const int32_t *b, uint32_t n) { LANES(l) d[l] = ldexp_(a[l], b[l]); }

/* ---- kernels: ternary ------------------------------------------------------------------ */

void tr__m_fclamp(float *d, const float *a, const float *b, const float *c, uint32_t n)
{
    LANES(l) d[l] = nmin_(nmax_(a[l], b[l]), c[l]);
}

void tr__m_nclamp(float *d, const float *a, const float *b, const float *c, uint32_t n)
{
    LANES(l) d[l] = nmin_(nmax_(a[l], b[l]), c[l]);
}

void tr__m_fmix(float *d, const float *a, const float *b, const float *c, uint32_t n)
{
    LANES(l) d[l] = canon(a[l] * (1.0f - c[l]) + b[l] * c[l]);
}

void tr__m_smoothstep(float *d, const float *a, const float *b, const float *c, uint32_t n)
{
    LANES(l) {
        const float t = nmin_(nmax_((c[l] - a[l]) / (b[l] - a[l]), 0.0f), 1.0f);
        d[l] = canon((t * t) * (3.0f - 2.0f * t));
    }
}

void tr__m_fma(float *d, const float *a, const float *b, const float *c, uint32_t n)
{
    LANES(l) d[l] = canon(fmaf(a[l], b[l], c[l]));
}

/* ---- kernels: integer ------------------------------------------------------------------- */

void tr__m_sabs(int32_t *d, const int32_t *a, uint32_t n)
{
    LANES(l) {
        const uint32_t u = (uint32_t)a[l];
        d[l] = (int32_t)(a[l] < 0 ? 0u - u : u); /* INT_MIN stays */
    }
}

void tr__m_ssign(int32_t *d, const int32_t *a, uint32_t n) { LANES(l) d[l] = (a[l] > 0) - (a[l] < 0); }
void tr__m_umin(uint32_t *d, const uint32_t *a, const uint32_t *b, uint32_t n) { LANES(l) d[l] = b[l] < a[l] ? b[l] : a[l]; }
void tr__m_smin(int32_t *d, const int32_t *a, const int32_t *b, uint32_t n) { LANES(l) d[l] = b[l] < a[l] ? b[l] : a[l]; }
void tr__m_umax(uint32_t *d, const uint32_t *a, const uint32_t *b, uint32_t n) { LANES(l) d[l] = b[l] > a[l] ? b[l] : a[l]; }
void tr__m_smax(int32_t *d, const int32_t *a, const int32_t *b, uint32_t n) { LANES(l) d[l] = b[l] > a[l] ? b[l] : a[l]; }

void tr__m_uclamp(uint32_t *d, const uint32_t *a, const uint32_t *b, const uint32_t *c, uint32_t n)
{
    LANES(l) {
        const uint32_t t = a[l] > b[l] ? a[l] : b[l];
        d[l] = t < c[l] ? t : c[l];
    }
}

void tr__m_sclamp(int32_t *d, const int32_t *a, const int32_t *b, const int32_t *c, uint32_t n)
{
    LANES(l) {
        const int32_t t = a[l] > b[l] ? a[l] : b[l];
        d[l] = t < c[l] ? t : c[l];
    }
}

static inline int32_t umsb(uint32_t v) { return v ? 31 - __builtin_clz(v) : -1; }

void tr__m_findilsb(int32_t *d, const uint32_t *a, uint32_t n) { LANES(l) d[l] = a[l] ? __builtin_ctz(a[l]) : -1; }
void tr__m_findumsb(int32_t *d, const uint32_t *a, uint32_t n) { LANES(l) d[l] = umsb(a[l]); }
void tr__m_findsmsb(int32_t *d, const int32_t *a, uint32_t n)
{
    LANES(l) {
        const uint32_t u = (uint32_t)a[l];
        d[l] = umsb(a[l] < 0 ? ~u : u);
    }
}

/* ---- kernels: two results ------------------------------------------------------------------ */

void tr__m_modf(float *whole, float *frac, const float *a, uint32_t n)
{
    LANES(l) {
        const float x = a[l];
        const float w = trunc_(x);
        const float f = fabs_(x) == inf() ? 0.0f : x - w;
        frac[l] = keepnan(x, copysign_(f, x));
        whole[l] = w;
    }
}

void tr__m_frexp(float *mant, int32_t *exp, const float *a, uint32_t n)
{
    LANES(l) {
        const float x = a[l];
        const uint32_t u = fbits(x), ax = u & ~SIGN_BIT;
        const int32_t sub = ax < 0x00800000u ? 24 : 0;
        const uint32_t v = sub ? fbits(bitsf(ax) * 0x1p24f) : ax;
        const int special = ax == 0 || ax >= INF_BITS;
        mant[l] = special ? x : bitsf((u & SIGN_BIT) | 0x3f000000u | (v & 0x007fffffu));
        exp[l] = special ? 0 : (int32_t)(v >> 23) - 126 - sub;
    }
}

/* ---- kernels: packing ------------------------------------------------------------------------ */

/* roundeven(v * scale) for v * scale in (-2^22, 2^22), as an int */
static inline int32_t rne_int(float v) { return (int32_t)(fbits(v + MAGIC) - MAGIC_BITS); }
static inline float unorm(float c) { return c > 0.0f ? (c < 1.0f ? c : 1.0f) : 0.0f; } /* NaN: 0 */
static inline float snorm(float c) { return isnan_bits(c) ? 0.0f : c > -1.0f ? (c < 1.0f ? c : 1.0f) : -1.0f; }

void tr__m_packunorm4x8(uint32_t *d, const float *const *v, uint32_t n)
{
    LANES(l) {
        uint32_t r = 0;
        for (uint32_t c = 0; c < 4; c++)
            r |= ((uint32_t)rne_int(unorm(v[c][l]) * 255.0f) & 0xffu) << (8 * c);
        d[l] = r;
    }
}

void tr__m_packsnorm4x8(uint32_t *d, const float *const *v, uint32_t n)
{
    LANES(l) {
        uint32_t r = 0;
        for (uint32_t c = 0; c < 4; c++)
            r |= ((uint32_t)rne_int(snorm(v[c][l]) * 127.0f) & 0xffu) << (8 * c);
        d[l] = r;
    }
}

void tr__m_packunorm2x16(uint32_t *d, const float *const *v, uint32_t n)
{
    LANES(l) {
        d[l] = ((uint32_t)rne_int(unorm(v[0][l]) * 65535.0f) & 0xffffu) |
               (((uint32_t)rne_int(unorm(v[1][l]) * 65535.0f) & 0xffffu) << 16);
    }
}

void tr__m_packsnorm2x16(uint32_t *d, const float *const *v, uint32_t n)
{
    LANES(l) {
        d[l] = ((uint32_t)rne_int(snorm(v[0][l]) * 32767.0f) & 0xffffu) |
               (((uint32_t)rne_int(snorm(v[1][l]) * 32767.0f) & 0xffffu) << 16);
    }
}

/* float -> half bits, round to nearest even */
static inline uint32_t f2h(float f)
{
    const uint32_t u = fbits(f), sign = (u >> 16) & 0x8000u, a = u & ~SIGN_BIT;
    const uint32_t nan = 0x7e00u | ((a >> 13) & 0x3ffu);
    const uint32_t rounded = a + 0x0fffu + ((a >> 13) & 1u);
    const uint32_t normal = (rounded - 0x38000000u) >> 13; /* rebias 127 -> 15 */
    /* below 2^-14: 0.5 + |f| rounds to a multiple of 2^-24, the half denormal */
    const uint32_t denorm = fbits(bitsf(a < 0x38800000u ? a : 0u) + 0.5f) - 0x3f000000u;
    const uint32_t h = a > INF_BITS ? nan : a >= 0x477ff000u ? 0x7c00u : a >= 0x38800000u ? normal : denorm;
    return sign | h;
}

static inline float h2f(uint32_t h)
{
    const uint32_t sign = (h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    const float den = (float)m * 0x1p-24f; /* exact */
    const uint32_t r = e == 31u ? INF_BITS | (m << 13) : e == 0u ? fbits(den) : ((e + 112u) << 23) | (m << 13);
    return bitsf(sign | r);
}

void tr__m_packhalf2x16(uint32_t *d, const float *const *v, uint32_t n)
{
    LANES(l) d[l] = f2h(v[0][l]) | (f2h(v[1][l]) << 16);
}

void tr__m_unpackunorm4x8(float *const *d, const uint32_t *a, uint32_t n)
{
    LANES(l) {
        const uint32_t p = a[l];
        for (uint32_t c = 0; c < 4; c++)
            d[c][l] = (float)((p >> (8 * c)) & 0xffu) / 255.0f;
    }
}

void tr__m_unpacksnorm4x8(float *const *d, const uint32_t *a, uint32_t n)
{
    LANES(l) {
        const uint32_t p = a[l];
        for (uint32_t c = 0; c < 4; c++) {
            const float v = (float)(int8_t)(uint8_t)(p >> (8 * c)) / 127.0f;
            d[c][l] = v < -1.0f ? -1.0f : v;
        }
    }
}

void tr__m_unpackunorm2x16(float *const *d, const uint32_t *a, uint32_t n)
{
    LANES(l) {
        const uint32_t p = a[l];
        d[0][l] = (float)(p & 0xffffu) / 65535.0f;
        d[1][l] = (float)(p >> 16) / 65535.0f;
    }
}

void tr__m_unpacksnorm2x16(float *const *d, const uint32_t *a, uint32_t n)
{
    LANES(l) {
        const uint32_t p = a[l];
        const float v0 = (float)(int16_t)(uint16_t)p / 32767.0f;
        const float v1 = (float)(int16_t)(uint16_t)(p >> 16) / 32767.0f;
        d[0][l] = v0 < -1.0f ? -1.0f : v0;
        d[1][l] = v1 < -1.0f ? -1.0f : v1;
    }
}

void tr__m_unpackhalf2x16(float *const *d, const uint32_t *a, uint32_t n)
{
    LANES(l) {
        const uint32_t p = a[l];
        d[0][l] = h2f(p & 0xffffu);
        d[1][l] = h2f(p >> 16);
    }
}

/* ---- kernels: vectors ----------------------------------------------------------------------- */

static inline float dot_at(const float *const *x, const float *const *y, uint32_t comps, uint32_t l)
{
    float s = x[0][l] * y[0][l];
    for (uint32_t c = 1; c < comps; c++)
        s = s + x[c][l] * y[c][l];
    return s;
}

void tr__m_dot(float *d, const float *const *x, const float *const *y, uint32_t comps, uint32_t n)
{
    LANES(l) d[l] = canon(dot_at(x, y, comps, l));
}

void tr__m_length(float *d, const float *const *x, uint32_t comps, uint32_t n)
{
    LANES(l) d[l] = canon(sqrtf(dot_at(x, x, comps, l)));
}

void tr__m_distance(float *d, const float *const *x, const float *const *y, uint32_t comps, uint32_t n)
{
    LANES(l) {
        float s = 0.0f;
        for (uint32_t c = 0; c < comps; c++) {
            const float t = x[c][l] - y[c][l];
            s = c ? s + t * t : t * t;
        }
        d[l] = canon(sqrtf(s));
    }
}

void tr__m_cross(float *const *d, const float *const *x, const float *const *y, uint32_t n)
{
    LANES(l) {
        const float x0 = x[0][l], x1 = x[1][l], x2 = x[2][l];
        const float y0 = y[0][l], y1 = y[1][l], y2 = y[2][l];
        d[0][l] = canon(x1 * y2 - y1 * x2);
        d[1][l] = canon(x2 * y0 - y2 * x0);
        d[2][l] = canon(x0 * y1 - y0 * x1);
    }
}

void tr__m_normalize(float *const *d, const float *const *x, uint32_t comps, uint32_t n)
{
    LANES(l) {
        const float len = sqrtf(dot_at(x, x, comps, l));
        for (uint32_t c = 0; c < comps; c++)
            d[c][l] = canon(x[c][l] / len);
    }
}

void tr__m_faceforward(float *const *d, const float *const *N, const float *const *I,
                       const float *const *Nref, uint32_t comps, uint32_t n)
{
    LANES(l) {
        const int keep = dot_at(Nref, I, comps, l) < 0.0f;
        for (uint32_t c = 0; c < comps; c++) {
            const float v = N[c][l];
            d[c][l] = keep ? v : bitsf(fbits(v) ^ SIGN_BIT);
        }
    }
}

void tr__m_reflect(float *const *d, const float *const *I, const float *const *N, uint32_t comps,
                   uint32_t n)
{
    LANES(l) {
        const float t = 2.0f * dot_at(N, I, comps, l);
        for (uint32_t c = 0; c < comps; c++)
            d[c][l] = canon(I[c][l] - t * N[c][l]);
    }
}

void tr__m_refract(float *const *d, const float *const *I, const float *const *N, const float *eta,
                   uint32_t comps, uint32_t n)
{
    LANES(l) {
        const float e = eta[l];
        const float dt = dot_at(N, I, comps, l);
        const float k = 1.0f - (e * e) * (1.0f - dt * dt);
        const float s = e * dt + sqrtf(k < 0.0f ? 0.0f : k);
        for (uint32_t c = 0; c < comps; c++)
            d[c][l] = k < 0.0f ? 0.0f : canon(e * I[c][l] - s * N[c][l]);
    }
}

/* ---- kernels: matrices ------------------------------------------------------------------------ */

/* determinant of the k x k matrix a[r][c] (k = 1..4), expanded along column 0
 * as spirv_math.h writes it */
static float det_k(const float a[4][4], uint32_t k)
{
    if (k == 1)
        return a[0][0];
    if (k == 2)
        return a[0][0] * a[1][1] - a[0][1] * a[1][0];
    float s = 0.0f;
    for (uint32_t r = 0; r < k; r++) {
        float minor[4][4];
        for (uint32_t i = 0, mi = 0; i < k; i++) {
            if (i == r)
                continue;
            for (uint32_t j = 1; j < k; j++)
                minor[mi][j - 1] = a[i][j];
            mi++;
        }
        const float t = a[r][0] * det_k(minor, k - 1);
        s = r == 0 ? t : (r & 1u) ? s - t : s + t;
    }
    return s;
}

static void gather(float a[4][4], const float *const *m, uint32_t dim, uint32_t l)
{
    for (uint32_t c = 0; c < dim; c++)
        for (uint32_t r = 0; r < dim; r++)
            a[r][c] = m[c * dim + r][l];
}

void tr__m_determinant(float *d, const float *const *m, uint32_t dim, uint32_t n)
{
    LANES(l) {
        float a[4][4];
        gather(a, m, dim, l);
        d[l] = canon(det_k(a, dim));
    }
}

void tr__m_inverse(float *const *d, const float *const *m, uint32_t dim, uint32_t n)
{
    LANES(l) {
        float a[4][4], inv[4][4];
        gather(a, m, dim, l);
        const float det = det_k(a, dim);
        for (uint32_t j = 0; j < dim; j++) {     /* removed row */
            for (uint32_t i = 0; i < dim; i++) { /* removed column */
                float minor[4][4];
                for (uint32_t r = 0, mr = 0; r < dim; r++) {
                    if (r == j)
                        continue;
                    for (uint32_t c = 0, mc = 0; c < dim; c++)
                        if (c != i)
                            minor[mr][mc++] = a[r][c];
                    mr++;
                }
                const float md = det_k(minor, dim - 1);
                const float cof = ((i + j) & 1u) ? -md : md;
                inv[i][j] = canon(cof / det); /* row i, column j of the inverse */
            }
        }
        for (uint32_t c = 0; c < dim; c++)
            for (uint32_t r = 0; r < dim; r++)
                d[c * dim + r][l] = inv[r][c];
    }
}
