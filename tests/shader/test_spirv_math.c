/* GLSL.std.450 kernels (src/shader/spirv_math.h): error sweeps against
 * libm's double functions (the reference only), exact special cases, the
 * integer and packing functions, matrices, and bit-for-bit equality between
 * 64-lane calls and one-lane calls. */
#include "trtest.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#include "shader/spirv_math.h"

/* ---- helpers ----------------------------------------------------------------- */

static uint32_t fb(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static float bf(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

#define QNAN bf(0x7fc00000u)
#define DENORM_MIN bf(1u)

typedef void (*unary_fn)(float *, const float *, uint32_t);
typedef void (*binary_fn)(float *, const float *, const float *, uint32_t);
typedef double (*ref1_fn)(double);

static float call1(unary_fn f, float x)
{
    float d;
    f(&d, &x, 1);
    return d;
}

static float call2(binary_fn f, float x, float y)
{
    float d;
    f(&d, &x, &y, 1);
    return d;
}

/* expects the exact bits (NaN: the canonical 0x7fc00000 unless noted) */
#define EXPECT_BITS(got, want)                                                              \
    do {                                                                                    \
        float g_ = (got), w_ = (want);                                                      \
        cr_expect_eq(fb(g_), fb(w_), "%s = %a (0x%08x), expected %a (0x%08x)", #got, g_, fb(g_), \
                     w_, fb(w_));                                                           \
    } while (0)

/* one ULP of the float nearest ref, in double (denormal spacing below 2^-126) */
static double ulp_of(double ref)
{
    const double a = fabs(ref);
    if (a < 0x1p-126)
        return 0x1p-149;
    int e;
    frexp(a, &e);
    return ldexp(1.0, (e - 24) > 104 ? 104 : e - 24);
}

typedef struct errstat {
    double ulp, abs;   /* maxima */
    float ulp_at, abs_at;
    uint32_t nan_mismatch;
    float nan_at;
    uint32_t count;
} errstat;

static void account(errstat *s, float x, float got, double ref)
{
    s->count++;
    if (isnan(ref) || isnan(got)) {
        if (!(isnan(ref) && isnan(got))) {
            s->nan_mismatch++;
            s->nan_at = x;
        }
        return;
    }
    if (fabs(ref) >= 0x1.ffffffp127) /* rounds to infinity as a float */
        ref = copysign(INFINITY, ref);
    double g = got;
    if (isinf(got) && !isinf(ref))
        g = copysign(0x1p128, got);
    if (isinf(ref)) {
        if (g != ref) {
            s->nan_mismatch++;
            s->nan_at = x;
        }
        return;
    }
    const double ae = fabs(g - ref), ue = ae / ulp_of(ref);
    if (ue > s->ulp) {
        s->ulp = ue;
        s->ulp_at = x;
    }
    if (ae > s->abs) {
        s->abs = ae;
        s->abs_at = x;
    }
}

/* every 1021st bit pattern of both signs with lo <= x <= hi, plus lo, hi and
 * the special values in that range, in 64-lane calls */
static errstat sweep1(unary_fn f, ref1_fn ref, float lo, float hi)
{
    errstat s = {0};
    float in[64], out[64];
    uint32_t k = 0;
    const float extra[] = {lo, hi, 0.0f, -0.0f, DENORM_MIN, -DENORM_MIN, FLT_MIN, -FLT_MIN,
                           FLT_MAX, -FLT_MAX, 1.0f, -1.0f, 0.5f, -0.5f, 2.0f, -2.0f};
    for (uint32_t i = 0; i < sizeof extra / sizeof extra[0] + 2u * (0x7f800000u / 1021u + 1u); i++) {
        float x;
        if (i < sizeof extra / sizeof extra[0]) {
            x = extra[i];
        } else {
            const uint32_t j = i - (uint32_t)(sizeof extra / sizeof extra[0]);
            x = bf((j >> 1) * 1021u | ((j & 1u) << 31));
        }
        if (!(x >= lo && x <= hi))
            continue;
        in[k++] = x;
        if (k == 64) {
            f(out, in, 64);
            for (uint32_t l = 0; l < 64; l++)
                account(&s, in[l], out[l], ref(in[l]));
            k = 0;
        }
    }
    f(out, in, k);
    for (uint32_t l = 0; l < k; l++)
        account(&s, in[l], out[l], ref(in[l]));
    return s;
}

static void report(const char *name, const errstat *s)
{
    cr_log_info("%-12s %8u points: max %.3f ULP at %a, max abs %.3g at %a", name, s->count, s->ulp,
                s->ulp_at, s->abs, s->abs_at);
    cr_expect_eq(s->nan_mismatch, 0, "%s: %u NaN / infinity mismatches, e.g. at %a", name,
                 s->nan_mismatch, s->nan_at);
}

/* sweeps f over [lo, hi] and asserts the documented ULP bound */
#define SWEEP_ULP(fn, ref, lo, hi, bound)                                          \
    do {                                                                           \
        errstat s_ = sweep1(tr__m_##fn, ref, lo, hi);                              \
        report(#fn, &s_);                                                          \
        cr_expect(s_.ulp <= (bound), #fn ": %.3f ULP at %a exceeds %g", s_.ulp, s_.ulp_at, \
                  (double)(bound));                                                \
    } while (0)

/* ---- error sweeps (bounds: the table in spirv_math.h) ------------------------------- */

static double exp2_ref(double x) { return exp2(x); }
static double exp_ref(double x) { return exp(x); }
static double log_ref(double x) { return log(x); }
static double log2_ref(double x) { return log2(x); }
static double sin_ref(double x) { return sin(x); }
static double cos_ref(double x) { return cos(x); }
static double tan_ref(double x) { return tan(x); }
static double asin_ref(double x) { return asin(x); }
static double acos_ref(double x) { return acos(x); }
static double atan_ref(double x) { return atan(x); }
static double sinh_ref(double x) { return sinh(x); }
static double cosh_ref(double x) { return cosh(x); }
static double tanh_ref(double x) { return tanh(x); }
static double asinh_ref(double x) { return asinh(x); }
static double acosh_ref(double x) { return acosh(x); }
static double atanh_ref(double x) { return atanh(x); }
static double isqrt_ref(double x) { return x == 0 ? INFINITY : 1.0 / sqrt(x); }
static double radians_ref(double x) { return x * (3.14159265358979323846 / 180.0); }
static double degrees_ref(double x) { return x * (180.0 / 3.14159265358979323846); }

Test(spirv_math, exp_exp2_sweep)
{
    /* Vulkan: 3 + 2|x| ULP; ours is within 1.1 ULP everywhere */
    SWEEP_ULP(exp2, exp2_ref, -INFINITY, INFINITY, 1.1);
    SWEEP_ULP(exp, exp_ref, -INFINITY, INFINITY, 1.1);
}

Test(spirv_math, log_log2_sweep)
{
    /* Vulkan: 3 ULP outside [0.5, 2], absolute 2^-21 inside */
    SWEEP_ULP(log, log_ref, 0.0f, INFINITY, 1.0);
    SWEEP_ULP(log2, log2_ref, 0.0f, INFINITY, 2.0);
    errstat s = sweep1(tr__m_log, log_ref, 0.5f, 2.0f);
    cr_expect(s.abs <= 0x1p-24, "log: abs %g in [0.5, 2]", s.abs);
    s = sweep1(tr__m_log2, log2_ref, 0.5f, 2.0f);
    cr_expect(s.abs <= 0x1p-23, "log2: abs %g in [0.5, 2]", s.abs);
    /* every float in [0.5, 2], for the absolute bound Vulkan sets there */
    double worst = 0;
    for (uint32_t u = fb(0.5f); u <= fb(2.0f); u += 64) {
        float in[64], out[64];
        for (uint32_t l = 0; l < 64; l++)
            in[l] = bf(u + l);
        tr__m_log2(out, in, 64);
        for (uint32_t l = 0; l < 64; l++)
            worst = fmax(worst, fabs(out[l] - log2(in[l])));
    }
    cr_expect(worst <= 0x1p-23, "log2 abs %g in [0.5, 2] (every float)", worst);
}

Test(spirv_math, trig_sweep)
{
    /* Vulkan: absolute 2^-11 in [-pi, pi]; tan inherited from sin / cos */
    SWEEP_ULP(sin, sin_ref, -INFINITY, INFINITY, 3.0);
    SWEEP_ULP(cos, cos_ref, -INFINITY, INFINITY, 3.0);
    SWEEP_ULP(tan, tan_ref, -INFINITY, INFINITY, 5.0);
    errstat s = sweep1(tr__m_sin, sin_ref, -3.14159265f, 3.14159265f);
    cr_expect(s.abs <= 0x1p-23, "sin: abs %g in [-pi, pi]", s.abs);
    s = sweep1(tr__m_cos, cos_ref, -3.14159265f, 3.14159265f);
    cr_expect(s.abs <= 0x1p-23, "cos: abs %g in [-pi, pi]", s.abs);
    /* dense around the Cody-Waite / Payne-Hanek switch at 2^17 */
    errstat t = {0};
    for (uint32_t u = fb(0x1p17f) - 20000; u < fb(0x1p17f) + 20000; u++) {
        const float x = bf(u);
        account(&t, x, call1(tr__m_sin, x), sin(x));
        account(&t, x, call1(tr__m_cos, x), cos(x));
    }
    report("sin/cos@2^17", &t);
    cr_expect(t.ulp <= 3.0, "sin/cos near 2^17: %.3f ULP at %a", t.ulp, t.ulp_at);
}

Test(spirv_math, inverse_trig_sweep)
{
    /* Vulkan: atan 4096 ULP; asin / acos inherited from atan2 */
    SWEEP_ULP(asin, asin_ref, -1.0f, 1.0f, 2.0);
    SWEEP_ULP(acos, acos_ref, -1.0f, 1.0f, 2.0);
    SWEEP_ULP(atan, atan_ref, -INFINITY, INFINITY, 2.0);
    /* atan2 over a grid of both signs */
    errstat s = {0};
    const uint32_t step = 0x7f800000u / 700u;
    float ys[64], xs[64], out[64];
    uint32_t k = 0;
    for (uint32_t i = 0; i <= 0x7f800000u; i += step)
        for (uint32_t j = 0; j <= 0x7f800000u; j += step)
            for (uint32_t sg = 0; sg < 4; sg++) {
                ys[k] = bf(i | (sg & 1u) << 31);
                xs[k] = bf(j | (sg >> 1) << 31);
                if (++k == 64) {
                    tr__m_atan2(out, ys, xs, 64);
                    for (uint32_t l = 0; l < 64; l++)
                        account(&s, ys[l], out[l], atan2(ys[l], xs[l]));
                    k = 0;
                }
            }
    report("atan2", &s);
    cr_expect(s.ulp <= 3.0, "atan2: %.3f ULP at y = %a", s.ulp, s.ulp_at);
}

Test(spirv_math, hyperbolic_sweep)
{
    SWEEP_ULP(sinh, sinh_ref, -INFINITY, INFINITY, 2.0);
    SWEEP_ULP(cosh, cosh_ref, -INFINITY, INFINITY, 2.0);
    SWEEP_ULP(tanh, tanh_ref, -INFINITY, INFINITY, 2.0);
    SWEEP_ULP(asinh, asinh_ref, -INFINITY, INFINITY, 2.0);
    SWEEP_ULP(acosh, acosh_ref, 1.0f, INFINITY, 2.0);
    SWEEP_ULP(atanh, atanh_ref, -1.0f, 1.0f, 3.0);
}

Test(spirv_math, misc_sweep)
{
    SWEEP_ULP(inversesqrt, isqrt_ref, 0.0f, INFINITY, 1.5); /* Vulkan: 2 ULP */
    SWEEP_ULP(radians, radians_ref, -INFINITY, INFINITY, 1.0);
    SWEEP_ULP(degrees, degrees_ref, -INFINITY, INFINITY, 1.0);
}

/* pow: inherited from exp2(y * log2(x)); we assert POW_A + POW_B * |y log2 x|
 * ULP (the error of y * log2(x) as a float, magnified by exp2) */
#define POW_A 2.0
#define POW_B 2.5
Test(spirv_math, pow_sweep)
{
    static const float ys[] = {0.5f, -0.5f, 1.0f, -1.0f, 2.0f, -2.0f, 3.0f, 0.1f, -0.1f, 1.5f,
                               2.2f, 1.0f / 2.2f, 7.0f, -7.5f, 10.0f, 0.01f, 31.7f, -64.0f,
                               100.0f, 1e-5f, -3.3e-3f, 127.9f, 0.333f, 4.0f, 16.5f, 1000.0f, -900.0f};
    double worst = 0, worst_x = 0, worst_y = 0, worst_small = 0;
    float xs[64], yv[64], out[64];
    uint32_t k = 0;
    for (uint32_t u = 1; u < 0x7f800000u; u += 10007u)
        for (uint32_t i = 0; i < sizeof ys / sizeof ys[0]; i++) {
            xs[k] = bf(u);
            yv[k] = ys[i];
            if (++k < 64)
                continue;
            k = 0;
            tr__m_pow(out, xs, yv, 64);
            for (uint32_t l = 0; l < 64; l++) {
                const double ref = pow(xs[l], yv[l]);
                if (ref >= 0x1.ffffffp127 || ref < 0x1p-126) /* overflow / denormal results */
                    continue;
                const double t = fabs(yv[l] * log2(xs[l]));
                const double e = fabs(out[l] - ref) / ulp_of(ref);
                if (t <= 1.0 && e > worst_small)
                    worst_small = e;
                const double need = (e - POW_A) / t; /* the B this point needs */
                if (need > worst) {
                    worst = need;
                    worst_x = xs[l];
                    worst_y = yv[l];
                }
            }
        }
    cr_log_info("pow: max ULP %.3f where |y log2 x| <= 1; B needed %.3f at x = %a, y = %a", worst_small,
                worst, worst_x, worst_y);
    cr_expect(worst <= POW_B, "pow: needs %.3f |t| ULP at x = %a, y = %a", worst, worst_x, worst_y);
}

/* ---- exact cases --------------------------------------------------------------------- */

Test(spirv_math, rounding)
{
    const float xs[] = {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f, 0.3f, -0.3f, 0.7f, -0.7f,
                        0x1p23f + 1.0f, 0x1.fffffep22f, -0x1.fffffep22f, 1e30f, -0.0f, 0.0f,
                        DENORM_MIN, -DENORM_MIN, INFINITY, -INFINITY};
    for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++) {
        const float x = xs[i];
        EXPECT_BITS(call1(tr__m_trunc, x), truncf(x));
        EXPECT_BITS(call1(tr__m_floor, x), floorf(x));
        EXPECT_BITS(call1(tr__m_ceil, x), ceilf(x));
        EXPECT_BITS(call1(tr__m_round, x), roundf(x));
        EXPECT_BITS(call1(tr__m_roundeven, x), nearbyintf(x));
        EXPECT_BITS(call1(tr__m_fabs, x), fabsf(x));
    }
    EXPECT_BITS(call1(tr__m_round, -2.5f), -3.0f);
    EXPECT_BITS(call1(tr__m_roundeven, -2.5f), -2.0f);
    EXPECT_BITS(call1(tr__m_roundeven, 0.5f), 0.0f);
    EXPECT_BITS(call1(tr__m_round, -0.3f), -0.0f);
    /* bit-moving functions keep a NaN operand's bits */
    const float snan = bf(0xff800123u);
    EXPECT_BITS(call1(tr__m_trunc, snan), snan);
    EXPECT_BITS(call1(tr__m_floor, snan), snan);
    EXPECT_BITS(call1(tr__m_ceil, snan), snan);
    EXPECT_BITS(call1(tr__m_round, snan), snan);
    EXPECT_BITS(call1(tr__m_fabs, snan), bf(0x7f800123u));
    EXPECT_BITS(call1(tr__m_fsign, snan), snan);
    /* fsign */
    EXPECT_BITS(call1(tr__m_fsign, 3.0f), 1.0f);
    EXPECT_BITS(call1(tr__m_fsign, -DENORM_MIN), -1.0f);
    EXPECT_BITS(call1(tr__m_fsign, -0.0f), -0.0f);
    EXPECT_BITS(call1(tr__m_fsign, INFINITY), 1.0f);
    /* fract = x - floor(x) as written */
    EXPECT_BITS(call1(tr__m_fract, 1.25f), 0.25f);
    EXPECT_BITS(call1(tr__m_fract, -1.25f), 0.75f);
    EXPECT_BITS(call1(tr__m_fract, -DENORM_MIN), 1.0f);
    EXPECT_BITS(call1(tr__m_fract, INFINITY), QNAN);
    EXPECT_BITS(call1(tr__m_fract, 1e30f), 0.0f);
}

Test(spirv_math, exp_log_special)
{
    EXPECT_BITS(call1(tr__m_exp, 0.0f), 1.0f);
    EXPECT_BITS(call1(tr__m_exp, -0.0f), 1.0f);
    EXPECT_BITS(call1(tr__m_exp, -INFINITY), 0.0f);
    EXPECT_BITS(call1(tr__m_exp, INFINITY), INFINITY);
    EXPECT_BITS(call1(tr__m_exp, 89.0f), INFINITY);
    EXPECT_BITS(call1(tr__m_exp, -110.0f), 0.0f);
    EXPECT_BITS(call1(tr__m_exp, QNAN), QNAN);
    EXPECT_BITS(call1(tr__m_exp, bf(0xffc01234u)), QNAN);
    EXPECT_BITS(call1(tr__m_exp2, 0.0f), 1.0f);
    EXPECT_BITS(call1(tr__m_exp2, 10.0f), 1024.0f);
    EXPECT_BITS(call1(tr__m_exp2, -149.0f), DENORM_MIN);
    EXPECT_BITS(call1(tr__m_exp2, -150.0f), 0.0f); /* 2^-150: the tie rounds to even */
    EXPECT_BITS(call1(tr__m_exp2, -127.5f), bf(0x002d413du)); /* 2^-127.5, a denormal */
    EXPECT_BITS(call1(tr__m_exp2, 127.0f), 0x1p127f);
    EXPECT_BITS(call1(tr__m_exp2, 128.0f), INFINITY);
    EXPECT_BITS(call1(tr__m_exp2, -INFINITY), 0.0f);
    EXPECT_BITS(call1(tr__m_exp2, INFINITY), INFINITY);
    EXPECT_BITS(call1(tr__m_exp2, QNAN), QNAN);
    EXPECT_BITS(call1(tr__m_log, 1.0f), 0.0f);
    EXPECT_BITS(call1(tr__m_log, 0.0f), -INFINITY);
    EXPECT_BITS(call1(tr__m_log, -0.0f), -INFINITY);
    EXPECT_BITS(call1(tr__m_log, -1.0f), QNAN);
    EXPECT_BITS(call1(tr__m_log, -DENORM_MIN), QNAN);
    EXPECT_BITS(call1(tr__m_log, INFINITY), INFINITY);
    EXPECT_BITS(call1(tr__m_log, -INFINITY), QNAN);
    EXPECT_BITS(call1(tr__m_log, QNAN), QNAN);
    EXPECT_BITS(call1(tr__m_log2, 1.0f), 0.0f);
    EXPECT_BITS(call1(tr__m_log2, 8.0f), 3.0f);
    EXPECT_BITS(call1(tr__m_log2, 0x1p-140f), -140.0f);
    EXPECT_BITS(call1(tr__m_log2, DENORM_MIN), -149.0f);
    EXPECT_BITS(call1(tr__m_log2, 0x1p127f), 127.0f);
    EXPECT_BITS(call1(tr__m_log2, 0.0f), -INFINITY);
    EXPECT_BITS(call1(tr__m_log2, -2.0f), QNAN);
    EXPECT_BITS(call1(tr__m_log2, INFINITY), INFINITY);
    EXPECT_BITS(call1(tr__m_sqrt, 4.0f), 2.0f);
    EXPECT_BITS(call1(tr__m_sqrt, -0.0f), -0.0f);
    EXPECT_BITS(call1(tr__m_sqrt, -1.0f), QNAN);
    EXPECT_BITS(call1(tr__m_sqrt, INFINITY), INFINITY);
    EXPECT_BITS(call1(tr__m_inversesqrt, 0.0f), INFINITY);
    EXPECT_BITS(call1(tr__m_inversesqrt, -0.0f), INFINITY);
    EXPECT_BITS(call1(tr__m_inversesqrt, 4.0f), 0.5f);
    EXPECT_BITS(call1(tr__m_inversesqrt, -4.0f), QNAN);
    EXPECT_BITS(call1(tr__m_inversesqrt, INFINITY), 0.0f);
    EXPECT_BITS(call1(tr__m_inversesqrt, QNAN), QNAN);
}

Test(spirv_math, pow_special)
{
    EXPECT_BITS(call2(tr__m_pow, 2.0f, 10.0f), 1024.0f);
    EXPECT_BITS(call2(tr__m_pow, 4.0f, 0.5f), 2.0f);
    EXPECT_BITS(call2(tr__m_pow, -2.0f, 2.0f), QNAN);
    EXPECT_BITS(call2(tr__m_pow, -INFINITY, 2.0f), QNAN);
    EXPECT_BITS(call2(tr__m_pow, 0.0f, 2.0f), 0.0f);
    EXPECT_BITS(call2(tr__m_pow, -0.0f, 3.0f), 0.0f);
    EXPECT_BITS(call2(tr__m_pow, 0.0f, -1.0f), INFINITY);
    EXPECT_BITS(call2(tr__m_pow, 0.0f, 0.0f), 1.0f);
    EXPECT_BITS(call2(tr__m_pow, INFINITY, 0.0f), 1.0f);
    EXPECT_BITS(call2(tr__m_pow, 1.0f, INFINITY), 1.0f);
    EXPECT_BITS(call2(tr__m_pow, 1.0f, QNAN), QNAN);
    EXPECT_BITS(call2(tr__m_pow, QNAN, 0.0f), QNAN);
    EXPECT_BITS(call2(tr__m_pow, INFINITY, 2.0f), INFINITY);
    EXPECT_BITS(call2(tr__m_pow, INFINITY, -2.0f), 0.0f);
    EXPECT_BITS(call2(tr__m_pow, 2.0f, INFINITY), INFINITY);
    EXPECT_BITS(call2(tr__m_pow, 0.5f, INFINITY), 0.0f);
    EXPECT_BITS(call2(tr__m_pow, 2.0f, -INFINITY), 0.0f);
    EXPECT_BITS(call2(tr__m_pow, 0.5f, -INFINITY), INFINITY);
    EXPECT_BITS(call2(tr__m_pow, 2.0f, 200.0f), INFINITY);
}

Test(spirv_math, trig_special)
{
    const float fs[] = {0.0f, -0.0f, DENORM_MIN, -DENORM_MIN, 1e-30f};
    for (size_t i = 0; i < sizeof fs / sizeof fs[0]; i++) {
        EXPECT_BITS(call1(tr__m_sin, fs[i]), fs[i]);
        EXPECT_BITS(call1(tr__m_tan, fs[i]), fs[i]);
        EXPECT_BITS(call1(tr__m_asin, fs[i]), fs[i]);
        EXPECT_BITS(call1(tr__m_atan, fs[i]), fs[i]);
        EXPECT_BITS(call1(tr__m_sinh, fs[i]), fs[i]);
        EXPECT_BITS(call1(tr__m_tanh, fs[i]), fs[i]);
        EXPECT_BITS(call1(tr__m_asinh, fs[i]), fs[i]);
        EXPECT_BITS(call1(tr__m_atanh, fs[i]), fs[i]);
        EXPECT_BITS(call1(tr__m_cos, fs[i]), 1.0f);
        EXPECT_BITS(call1(tr__m_cosh, fs[i]), 1.0f);
    }
    const float bad[] = {INFINITY, -INFINITY, QNAN, bf(0xff812345u)};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        EXPECT_BITS(call1(tr__m_sin, bad[i]), QNAN);
        EXPECT_BITS(call1(tr__m_cos, bad[i]), QNAN);
        EXPECT_BITS(call1(tr__m_tan, bad[i]), QNAN);
        EXPECT_BITS(call1(tr__m_asin, bad[i]), QNAN);
        EXPECT_BITS(call1(tr__m_acos, bad[i]), QNAN);
    }
    EXPECT_BITS(call1(tr__m_asin, 1.0f), 0x1.921fb6p+0f);
    EXPECT_BITS(call1(tr__m_asin, -1.0f), -0x1.921fb6p+0f);
    EXPECT_BITS(call1(tr__m_asin, 1.0000001f), QNAN);
    EXPECT_BITS(call1(tr__m_acos, 1.0f), 0.0f);
    EXPECT_BITS(call1(tr__m_acos, -1.0f), 0x1.921fb6p+1f);
    EXPECT_BITS(call1(tr__m_acos, 0.0f), 0x1.921fb6p+0f);
    EXPECT_BITS(call1(tr__m_acos, -1.0000001f), QNAN);
    EXPECT_BITS(call1(tr__m_atan, INFINITY), 0x1.921fb6p+0f);
    EXPECT_BITS(call1(tr__m_atan, -INFINITY), -0x1.921fb6p+0f);
    EXPECT_BITS(call1(tr__m_atan, QNAN), QNAN);
    const float pi = 0x1.921fb6p+1f, pio2 = 0x1.921fb6p+0f, pio4 = 0x1.921fb6p-1f;
    EXPECT_BITS(call2(tr__m_atan2, 0.0f, 0.0f), 0.0f);
    EXPECT_BITS(call2(tr__m_atan2, -0.0f, 0.0f), -0.0f);
    EXPECT_BITS(call2(tr__m_atan2, 0.0f, -0.0f), pi);
    EXPECT_BITS(call2(tr__m_atan2, -0.0f, -0.0f), -pi);
    EXPECT_BITS(call2(tr__m_atan2, 0.0f, -1.0f), pi);
    EXPECT_BITS(call2(tr__m_atan2, 1.0f, 0.0f), pio2);
    EXPECT_BITS(call2(tr__m_atan2, -1.0f, -0.0f), -pio2);
    EXPECT_BITS(call2(tr__m_atan2, 1.0f, 1.0f), pio4);
    EXPECT_BITS(call2(tr__m_atan2, INFINITY, INFINITY), pio4);
    EXPECT_BITS(call2(tr__m_atan2, INFINITY, -INFINITY), 0x1.2d97c8p+1f); /* 3pi/4 */
    EXPECT_BITS(call2(tr__m_atan2, -5.0f, INFINITY), -0.0f);
    EXPECT_BITS(call2(tr__m_atan2, 5.0f, -INFINITY), pi);
    EXPECT_BITS(call2(tr__m_atan2, QNAN, 1.0f), QNAN);
    EXPECT_BITS(call2(tr__m_atan2, 1.0f, QNAN), QNAN);
    /* hyperbolic */
    EXPECT_BITS(call1(tr__m_sinh, INFINITY), INFINITY);
    EXPECT_BITS(call1(tr__m_sinh, -INFINITY), -INFINITY);
    EXPECT_BITS(call1(tr__m_sinh, 89.5f), INFINITY);
    EXPECT_BITS(call1(tr__m_cosh, -INFINITY), INFINITY);
    EXPECT_BITS(call1(tr__m_tanh, INFINITY), 1.0f);
    EXPECT_BITS(call1(tr__m_tanh, -20.0f), -1.0f);
    EXPECT_BITS(call1(tr__m_asinh, -INFINITY), -INFINITY);
    EXPECT_BITS(call1(tr__m_acosh, 1.0f), 0.0f);
    EXPECT_BITS(call1(tr__m_acosh, INFINITY), INFINITY);
    EXPECT_BITS(call1(tr__m_acosh, 0.5f), QNAN);
    EXPECT_BITS(call1(tr__m_acosh, -INFINITY), QNAN);
    EXPECT_BITS(call1(tr__m_atanh, 1.0f), INFINITY);
    EXPECT_BITS(call1(tr__m_atanh, -1.0f), -INFINITY);
    EXPECT_BITS(call1(tr__m_atanh, 1.5f), QNAN);
    const float hs[] = {QNAN, bf(0xffc00001u)};
    for (size_t i = 0; i < 2; i++) {
        EXPECT_BITS(call1(tr__m_sinh, hs[i]), QNAN);
        EXPECT_BITS(call1(tr__m_cosh, hs[i]), QNAN);
        EXPECT_BITS(call1(tr__m_tanh, hs[i]), QNAN);
        EXPECT_BITS(call1(tr__m_asinh, hs[i]), QNAN);
        EXPECT_BITS(call1(tr__m_acosh, hs[i]), QNAN);
        EXPECT_BITS(call1(tr__m_atanh, hs[i]), QNAN);
    }
    /* large arguments: reduced exactly (values from double libm's sin / cos) */
    EXPECT_BITS(call1(tr__m_sin, 0x1p17f), (float)sin(0x1p17));
    cr_expect(fabs(call1(tr__m_sin, FLT_MAX) - sin(FLT_MAX)) <= 2 * ulp_of(sin(FLT_MAX)));
    cr_expect(fabs(call1(tr__m_cos, -FLT_MAX) - cos(FLT_MAX)) <= 2 * ulp_of(cos(FLT_MAX)));
    EXPECT_BITS(call1(tr__m_radians, 180.0f), 0x1.921fb6p+1f);
    EXPECT_BITS(call1(tr__m_degrees, 0x1.921fb6p+1f), 180.0f);
}

Test(spirv_math, min_max_clamp)
{
    EXPECT_BITS(call2(tr__m_fmin, 1.0f, 2.0f), 1.0f);
    EXPECT_BITS(call2(tr__m_fmax, 1.0f, 2.0f), 2.0f);
    EXPECT_BITS(call2(tr__m_nmin, QNAN, 2.0f), 2.0f);
    EXPECT_BITS(call2(tr__m_nmin, 2.0f, QNAN), 2.0f);
    EXPECT_BITS(call2(tr__m_nmax, QNAN, -2.0f), -2.0f);
    EXPECT_BITS(call2(tr__m_fmin, QNAN, 2.0f), 2.0f);
    EXPECT_BITS(call2(tr__m_fmax, 2.0f, QNAN), 2.0f);
    EXPECT_BITS(call2(tr__m_nmin, bf(0x7fc00005u), bf(0x7fc00006u)), bf(0x7fc00005u));
    EXPECT_BITS(call2(tr__m_fmin, 0.0f, -0.0f), -0.0f);
    EXPECT_BITS(call2(tr__m_fmin, -0.0f, 0.0f), -0.0f);
    EXPECT_BITS(call2(tr__m_fmax, 0.0f, -0.0f), 0.0f);
    EXPECT_BITS(call2(tr__m_fmax, -0.0f, 0.0f), 0.0f);
    EXPECT_BITS(call2(tr__m_nmax, -INFINITY, -FLT_MAX), -FLT_MAX);
    float d, x = QNAN, lo = -1.0f, hi = 1.0f;
    tr__m_nclamp(&d, &x, &lo, &hi, 1);
    EXPECT_BITS(d, -1.0f);
    x = 5.0f;
    tr__m_fclamp(&d, &x, &lo, &hi, 1);
    EXPECT_BITS(d, 1.0f);
    x = -0.25f;
    tr__m_fclamp(&d, &x, &lo, &hi, 1);
    EXPECT_BITS(d, -0.25f);
    lo = QNAN;
    tr__m_nclamp(&d, &x, &lo, &hi, 1);
    EXPECT_BITS(d, -0.25f);
    EXPECT_BITS(call2(tr__m_step, 1.0f, 0.5f), 0.0f);
    EXPECT_BITS(call2(tr__m_step, 1.0f, 1.0f), 1.0f);
    EXPECT_BITS(call2(tr__m_step, 1.0f, QNAN), 1.0f);
    /* mix, smoothstep, fma */
    float a = 2.0f, b = 4.0f, t = 0.25f;
    tr__m_fmix(&d, &a, &b, &t, 1);
    EXPECT_BITS(d, 2.5f);
    a = 1e30f, b = -1e30f, t = 1.0f;
    tr__m_fmix(&d, &a, &b, &t, 1);
    EXPECT_BITS(d, -1e30f); /* x * (1 - a) + y * a: exact at a = 1 */
    float e0 = 0.0f, e1 = 2.0f, xs = 1.0f;
    tr__m_smoothstep(&d, &e0, &e1, &xs, 1);
    EXPECT_BITS(d, 0.5f);
    xs = 0.5f; /* t = 0.25: 0.0625 * 2.5 */
    tr__m_smoothstep(&d, &e0, &e1, &xs, 1);
    EXPECT_BITS(d, 0.15625f);
    xs = -3.0f;
    tr__m_smoothstep(&d, &e0, &e1, &xs, 1);
    EXPECT_BITS(d, 0.0f);
    xs = 7.0f;
    tr__m_smoothstep(&d, &e0, &e1, &xs, 1);
    EXPECT_BITS(d, 1.0f);
    a = 1.0f + 0x1p-12f, b = 1.0f - 0x1p-12f, t = -1.0f;
    tr__m_fma(&d, &a, &b, &t, 1);
    EXPECT_BITS(d, -0x1p-24f); /* fused: the product's low bits survive */
}

Test(spirv_math, modf_frexp_ldexp)
{
    const float xs[] = {3.75f, -3.75f, -3.0f, 0.5f, -0.0f, 0.0f, 1e30f, INFINITY, -INFINITY, DENORM_MIN};
    const float ws[] = {3.0f, -3.0f, -3.0f, 0.0f, -0.0f, 0.0f, 1e30f, INFINITY, -INFINITY, 0.0f};
    const float fs[] = {0.75f, -0.75f, -0.0f, 0.5f, -0.0f, 0.0f, 0.0f, 0.0f, -0.0f, DENORM_MIN};
    for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++) {
        float w, f;
        tr__m_modf(&w, &f, &xs[i], 1);
        EXPECT_BITS(w, ws[i]);
        EXPECT_BITS(f, fs[i]);
    }
    float w, f, nan = bf(0x7fc00042u);
    tr__m_modf(&w, &f, &nan, 1);
    EXPECT_BITS(w, nan);
    EXPECT_BITS(f, nan);

    const float fx[] = {1.0f, 8.0f, -0.75f, DENORM_MIN, -0x1.8p-140f, FLT_MAX, 0.0f, -0.0f, INFINITY, QNAN};
    const float fm[] = {0.5f, 0.5f, -0.75f, 0.5f, -0.75f, 0x1.fffffep-1f, 0.0f, -0.0f, INFINITY, QNAN};
    const int32_t fe[] = {1, 4, 0, -148, -139, 128, 0, 0, 0, 0};
    for (size_t i = 0; i < sizeof fx / sizeof fx[0]; i++) {
        float m;
        int32_t e;
        tr__m_frexp(&m, &e, &fx[i], 1);
        EXPECT_BITS(m, fm[i]);
        cr_expect_eq(e, fe[i], "frexp(%a) exponent %d, expected %d", fx[i], e, fe[i]);
    }

    struct { float x; int32_t e; float want; } ld[] = {
        {1.0f, 3, 8.0f}, {0.75f, -149, 0x1p-149f},   /* 0.75 * 2^-149 rounds up */
        {0.5f, -149, 0.0f},                          /* tie to even */
        {1.5f, -150, 0x1p-149f}, {1.0f, 128, INFINITY}, {-1.0f, 200, -INFINITY},
        {DENORM_MIN, 149, 1.0f}, {DENORM_MIN, 300, INFINITY}, {FLT_MAX, -300, 0.0f},
        {FLT_MAX, -253, 0x1.fffffep-126f}, {-3.0f, INT32_MIN, -0.0f}, {3.0f, INT32_MAX, INFINITY},
        {0x1.000002p-126f, -1, 0x1p-127f}, /* rounds once: 0x1.000002p-127 -> tie to even */
        {0.0f, 1000, 0.0f}, {-0.0f, -5, -0.0f}, {INFINITY, -1000, INFINITY},
    };
    for (size_t i = 0; i < sizeof ld / sizeof ld[0]; i++) {
        float d;
        tr__m_ldexp(&d, &ld[i].x, &ld[i].e, 1);
        cr_expect_eq(fb(d), fb(ld[i].want), "ldexp(%a, %d) = %a, expected %a", ld[i].x, ld[i].e, d,
                     ld[i].want);
        cr_expect_eq(fb(d), fb(ldexpf(ld[i].x, ld[i].e)), "ldexp(%a, %d) differs from ldexpf", ld[i].x,
                     ld[i].e);
    }
    /* against ldexpf over a grid of values and exponents */
    uint32_t bad = 0;
    for (uint32_t u = 0; u < 0x7f800000u; u += 999983u)
        for (int32_t e = -300; e <= 300; e += 7) {
            float x = bf(u | ((uint32_t)e & 1u) << 31), d;
            tr__m_ldexp(&d, &x, &e, 1);
            bad += fb(d) != fb(ldexpf(x, e));
        }
    cr_expect_eq(bad, 0, "%u ldexp results differ from ldexpf", bad);
}

Test(spirv_math, integer)
{
    int32_t s[] = {0, 1, -1, 5, -7, INT_MAX, INT_MIN}, d[7];
    tr__m_sabs(d, s, 7);
    const int32_t abs_want[] = {0, 1, 1, 5, 7, INT_MAX, INT_MIN};
    const int32_t sign_want[] = {0, 1, -1, 1, -1, 1, -1};
    const int32_t smsb_want[] = {-1, 0, -1, 2, 2, 30, 30};
    for (int i = 0; i < 7; i++)
        cr_expect_eq(d[i], abs_want[i], "sabs(%d) = %d", s[i], d[i]);
    tr__m_ssign(d, s, 7);
    for (int i = 0; i < 7; i++)
        cr_expect_eq(d[i], sign_want[i], "ssign(%d) = %d", s[i], d[i]);
    tr__m_findsmsb(d, s, 7);
    for (int i = 0; i < 7; i++)
        cr_expect_eq(d[i], smsb_want[i], "findsmsb(%d) = %d", s[i], d[i]);
    uint32_t u[] = {0, 1, 8, 0x80000000u, 0xffffffffu, 0x00f0f000u}, ud[6];
    const int32_t lsb_want[] = {-1, 0, 3, 31, 0, 12}, umsb_want[] = {-1, 0, 3, 31, 31, 23};
    int32_t id[6];
    tr__m_findilsb(id, u, 6);
    for (int i = 0; i < 6; i++)
        cr_expect_eq(id[i], lsb_want[i], "findilsb(0x%x) = %d", u[i], id[i]);
    tr__m_findumsb(id, u, 6);
    for (int i = 0; i < 6; i++)
        cr_expect_eq(id[i], umsb_want[i], "findumsb(0x%x) = %d", u[i], id[i]);
    uint32_t ub[] = {5, 5, 5, 5, 5, 5};
    tr__m_umin(ud, u, ub, 6);
    cr_expect(ud[0] == 0 && ud[3] == 5 && ud[4] == 5);
    tr__m_umax(ud, u, ub, 6);
    cr_expect(ud[0] == 5 && ud[3] == 0x80000000u && ud[4] == 0xffffffffu);
    int32_t sb[] = {-3, -3, -3, -3, -3, -3, -3};
    tr__m_smin(d, s, sb, 7);
    cr_expect(d[0] == -3 && d[4] == -7 && d[6] == INT_MIN && d[5] == -3);
    tr__m_smax(d, s, sb, 7);
    cr_expect(d[0] == 0 && d[4] == -3 && d[6] == -3 && d[5] == INT_MAX);
    int32_t lo[] = {-2, -2, -2, -2, -2, -2, -2}, hi[] = {3, 3, 3, 3, 3, 3, 3};
    tr__m_sclamp(d, s, lo, hi, 7);
    const int32_t sc_want[] = {0, 1, -1, 3, -2, 3, -2};
    for (int i = 0; i < 7; i++)
        cr_expect_eq(d[i], sc_want[i], "sclamp(%d) = %d", s[i], d[i]);
    uint32_t ulo[] = {2, 2, 2, 2, 2, 2}, uhi[] = {9, 9, 9, 9, 9, 9};
    tr__m_uclamp(ud, u, ulo, uhi, 6);
    const uint32_t uc_want[] = {2, 2, 8, 9, 9, 9};
    for (int i = 0; i < 6; i++)
        cr_expect_eq(ud[i], uc_want[i], "uclamp(0x%x) = %u", u[i], ud[i]);
}

Test(spirv_math, packing)
{
    float c0[] = {1.0f, 0.5f, -0.5f, QNAN}, c1[] = {0.0f, 2.0f, -2.0f, 0.25f};
    float c2[] = {0.5f, 1.0f / 255.0f, 0.2f, -INFINITY}, c3[] = {-1.0f, 0.998f, 1.0f, INFINITY};
    const float *v[4] = {c0, c1, c2, c3};
    uint32_t d[4];
    tr__m_packunorm4x8(d, v, 4);
    cr_expect_eq(d[0], 0x008000ffu, "packUnorm4x8 0x%08x", d[0]); /* 127.5 -> 128 (even) */
    cr_expect_eq(d[1], 0xfe01ff80u, "packUnorm4x8 0x%08x", d[1]); /* 0.5 * 255 = 127.5 -> 128 */
    cr_expect_eq(d[3], 0xff004000u, "packUnorm4x8 0x%08x", d[3]); /* NaN -> 0; 63.75 -> 64 */
    tr__m_packsnorm4x8(d, v, 4);
    cr_expect_eq(d[0], 0x8140007fu, "packSnorm4x8 0x%08x", d[0]); /* 63.5 -> 64; -1 -> -127 */
    cr_expect_eq(d[2], 0x7f1981c0u, "packSnorm4x8 0x%08x", d[2]);
    cr_expect_eq(d[3], 0x7f812000u, "packSnorm4x8 0x%08x", d[3]);
    tr__m_packunorm2x16(d, v, 4);
    cr_expect_eq(d[0], 0x0000ffffu, "packUnorm2x16 0x%08x", d[0]);
    cr_expect_eq(d[1], 0xffff8000u, "packUnorm2x16 0x%08x", d[1]); /* 32767.5 -> 32768 */
    tr__m_packsnorm2x16(d, v, 4);
    cr_expect_eq(d[0], 0x00007fffu, "packSnorm2x16 0x%08x", d[0]);
    cr_expect_eq(d[2], 0x8001c000u, "packSnorm2x16 0x%08x", d[2]); /* -16383.5 -> -16384 */
    tr__m_packhalf2x16(d, v, 4);
    cr_expect_eq(d[0], 0x00003c00u, "packHalf2x16 0x%08x", d[0]);
    cr_expect_eq(d[1], 0x40003800u, "packHalf2x16 0x%08x", d[1]);
    cr_expect_eq(d[3], 0x34007e00u, "packHalf2x16 0x%08x", d[3]);

    /* unpack: spec formulas */
    uint32_t p[] = {0x807f01ffu, 0x00000000u, 0xffffffffu};
    float u0[3], u1[3], u2[3], u3[3];
    float *o[4] = {u0, u1, u2, u3};
    tr__m_unpackunorm4x8(o, p, 3);
    EXPECT_BITS(u0[0], 1.0f);
    EXPECT_BITS(u1[0], 1.0f / 255.0f);
    EXPECT_BITS(u2[0], 127.0f / 255.0f);
    EXPECT_BITS(u3[0], 128.0f / 255.0f);
    tr__m_unpacksnorm4x8(o, p, 3);
    EXPECT_BITS(u0[0], -1.0f / 127.0f);
    EXPECT_BITS(u2[0], 1.0f);
    EXPECT_BITS(u3[0], -1.0f); /* -128 / 127 clamps */
    EXPECT_BITS(u0[2], -1.0f / 127.0f);
    tr__m_unpacksnorm2x16(o, p, 3);
    EXPECT_BITS(u0[0], 511.0f / 32767.0f);
    EXPECT_BITS(u1[0], -32641.0f / 32767.0f);
    tr__m_unpackunorm2x16(o, p, 3);
    EXPECT_BITS(u0[0], 511.0f / 65535.0f);
    EXPECT_BITS(u1[2], 1.0f);

    /* round trips: every 8-bit and 16-bit code survives unpack then pack */
    uint32_t bad = 0;
    for (uint32_t code = 0; code < 65536u; code += 64) {
        uint32_t in[64], back[64];
        float a0[64], a1[64], a2[64], a3[64];
        float *ov[4] = {a0, a1, a2, a3};
        const float *iv[4] = {a0, a1, a2, a3};
        for (uint32_t l = 0; l < 64; l++)
            in[l] = (code + l) * 0x00010001u;
        tr__m_unpackunorm2x16(ov, in, 64);
        tr__m_packunorm2x16(back, iv, 64);
        for (uint32_t l = 0; l < 64; l++)
            bad += back[l] != in[l];
        tr__m_unpacksnorm2x16(ov, in, 64);
        tr__m_packsnorm2x16(back, iv, 64);
        for (uint32_t l = 0; l < 64; l++)
            bad += back[l] != in[l] && (in[l] & 0xffffu) != 0x8000u; /* -32768 packs as -32767 */
        tr__m_unpackhalf2x16(ov, in, 64);
        tr__m_packhalf2x16(back, iv, 64);
        for (uint32_t l = 0; l < 64; l++) {
            const uint32_t e = (in[l] >> 10) & 0x1fu, m = in[l] & 0x3ffu;
            const uint32_t want = e == 31u && m ? (in[l] | 0x02000200u) : in[l]; /* NaNs come back quiet */
            bad += back[l] != want;
        }
        for (uint32_t l = 0; l < 64; l++)
            in[l] = (code + l) * 0x01010101u & 0xffffffffu;
        tr__m_unpackunorm4x8(ov, in, 64);
        tr__m_packunorm4x8(back, iv, 64);
        for (uint32_t l = 0; l < 64; l++)
            bad += back[l] != in[l];
    }
    cr_expect_eq(bad, 0, "%u codes did not round-trip", bad);

    /* half conversion against the exact value over a float sweep */
    uint32_t hbad = 0;
    for (uint32_t uu = 0; uu < 0x7f800000u; uu += 4099u) {
        const float x = bf(uu), y = -x;
        const float *hv[2] = {&x, &y};
        uint32_t h;
        tr__m_packhalf2x16(&h, hv, 1);
        float r0, r1;
        float *rv[2] = {&r0, &r1};
        tr__m_unpackhalf2x16(rv, &h, 1);
        /* nearest half: |r - x| <= half a half-ULP, and r = -r1 */
        const double hx = fabs((double)x) < 0x1p-14 ? 0x1p-24 : ulp_of(x) * 0x1p13;
        const int ok = (isinf(r0) ? x >= 65520.0f : fabs((double)r0 - x) <= hx / 2) && fb(r1) == (fb(r0) ^ 0x80000000u);
        hbad += !ok;
    }
    cr_expect_eq(hbad, 0, "%u floats packed to a half that is not the nearest", hbad);
}

static void vec_from(float (*store)[4], const float *vals, uint32_t comps)
{
    for (uint32_t c = 0; c < comps; c++)
        store[c][0] = vals[c];
}

Test(spirv_math, vectors)
{
    float xs[4][4], ys[4][4], zs[4][4], out[4][4], d[4];
    const float *x[4] = {xs[0], xs[1], xs[2], xs[3]}, *y[4] = {ys[0], ys[1], ys[2], ys[3]};
    const float *z[4] = {zs[0], zs[1], zs[2], zs[3]};
    float *o[4] = {out[0], out[1], out[2], out[3]};
    vec_from(xs, (const float[]){1.0f, 2.0f, 3.0f, 4.0f}, 4);
    vec_from(ys, (const float[]){5.0f, 6.0f, 7.0f, 8.0f}, 4);
    tr__m_dot(d, x, y, 4, 1);
    EXPECT_BITS(d[0], 70.0f);
    tr__m_dot(d, x, y, 2, 1);
    EXPECT_BITS(d[0], 17.0f);
    vec_from(xs, (const float[]){3.0f, 4.0f}, 2);
    tr__m_length(d, x, 2, 1);
    EXPECT_BITS(d[0], 5.0f);
    vec_from(ys, (const float[]){0.0f, 1.0f, 5.0f}, 3);
    vec_from(xs, (const float[]){2.0f, 2.0f, 1.0f}, 3);
    tr__m_distance(d, x, y, 3, 1);
    EXPECT_BITS(d[0], sqrtf(21.0f)); /* sqrt(4 + 1 + 16) */
    vec_from(xs, (const float[]){1.0f, 0.0f, 0.0f}, 3);
    vec_from(ys, (const float[]){0.0f, 1.0f, 0.0f}, 3);
    tr__m_cross(o, x, y, 1);
    EXPECT_BITS(out[0][0], 0.0f);
    EXPECT_BITS(out[1][0], 0.0f);
    EXPECT_BITS(out[2][0], 1.0f);
    vec_from(xs, (const float[]){0.0f, 3.0f, 0.0f, 4.0f}, 4);
    tr__m_normalize(o, x, 4, 1);
    EXPECT_BITS(out[1][0], 0.6f);
    EXPECT_BITS(out[3][0], 0.8f);
    vec_from(xs, (const float[]){0.0f, 0.0f}, 2);
    tr__m_normalize(o, x, 2, 1);
    EXPECT_BITS(out[0][0], QNAN);
    /* faceforward(N, I, Nref) */
    vec_from(xs, (const float[]){0.0f, 1.0f}, 2);  /* N */
    vec_from(ys, (const float[]){0.0f, -1.0f}, 2); /* I */
    vec_from(zs, (const float[]){0.0f, 1.0f}, 2);  /* Nref */
    tr__m_faceforward(o, x, y, z, 2, 1);
    EXPECT_BITS(out[1][0], 1.0f);
    EXPECT_BITS(out[0][0], 0.0f);
    vec_from(zs, (const float[]){0.0f, -1.0f}, 2);
    tr__m_faceforward(o, x, y, z, 2, 1);
    EXPECT_BITS(out[1][0], -1.0f);
    EXPECT_BITS(out[0][0], -0.0f);
    /* reflect(I, N) */
    vec_from(ys, (const float[]){1.0f, -1.0f}, 2);
    tr__m_reflect(o, y, x, 2, 1);
    EXPECT_BITS(out[0][0], 1.0f);
    EXPECT_BITS(out[1][0], 1.0f);
    /* refract(I, N, eta): eta = 1 passes straight through; total internal reflection gives 0 */
    float eta = 1.0f;
    vec_from(ys, (const float[]){0.6f, -0.8f}, 2);
    tr__m_refract(o, y, x, &eta, 2, 1);
    EXPECT_BITS(out[0][0], 0.6f);
    EXPECT_BITS(out[1][0], -0.8f);
    eta = 2.0f;
    tr__m_refract(o, y, x, &eta, 2, 1);
    EXPECT_BITS(out[0][0], 0.0f);
    EXPECT_BITS(out[1][0], 0.0f);
    eta = 0.5f; /* k = 1 - 0.25 * 0.36 = 0.91 */
    tr__m_refract(o, y, x, &eta, 2, 1);
    const float s = 0.5f * -0.8f + sqrtf(1.0f - (0.5f * 0.5f) * (1.0f - -0.8f * -0.8f));
    EXPECT_BITS(out[0][0], 0.5f * 0.6f - s * 0.0f);
    EXPECT_BITS(out[1][0], 0.5f * -0.8f - s * 1.0f);
}

/* runs tr__m_determinant / tr__m_inverse on one lane of a column-major
 * matrix given row by row */
static float det_of(const float *rows, uint32_t dim)
{
    float cols[16][1];
    const float *m[16];
    for (uint32_t c = 0; c < dim; c++)
        for (uint32_t r = 0; r < dim; r++) {
            cols[c * dim + r][0] = rows[r * dim + c];
            m[c * dim + r] = cols[c * dim + r];
        }
    float d;
    tr__m_determinant(&d, m, dim, 1);
    return d;
}

static void inverse_of(float *out_rows, const float *rows, uint32_t dim)
{
    float cols[16][1], inv[16][1];
    const float *m[16];
    float *o[16];
    for (uint32_t c = 0; c < dim; c++)
        for (uint32_t r = 0; r < dim; r++) {
            cols[c * dim + r][0] = rows[r * dim + c];
            m[c * dim + r] = cols[c * dim + r];
            o[c * dim + r] = inv[c * dim + r];
        }
    tr__m_inverse(o, m, dim, 1);
    for (uint32_t c = 0; c < dim; c++)
        for (uint32_t r = 0; r < dim; r++)
            out_rows[r * dim + c] = inv[c * dim + r][0];
}

Test(spirv_math, matrices)
{
    const float m2[] = {4.0f, 7.0f, 2.0f, 6.0f};
    EXPECT_BITS(det_of(m2, 2), 10.0f);
    const float m3[] = {1.0f, 2.0f, 3.0f, 0.0f, 1.0f, 4.0f, 5.0f, 6.0f, 0.0f};
    EXPECT_BITS(det_of(m3, 3), 1.0f);
    const float m4[] = {1.0f, 0.0f, 2.0f, -1.0f, 3.0f, 0.0f, 0.0f, 5.0f,
                        2.0f, 1.0f, 4.0f, -3.0f, 1.0f, 0.0f, 5.0f, 0.0f};
    EXPECT_BITS(det_of(m4, 4), 30.0f);
    const float sing[] = {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f, 9.0f};
    EXPECT_BITS(det_of(sing, 3), 0.0f);
    float inv[16];
    inverse_of(inv, m2, 2);
    const float inv2[] = {0.6f, -0.7f, -0.2f, 0.4f};
    for (int i = 0; i < 4; i++)
        EXPECT_BITS(inv[i], inv2[i]);
    inverse_of(inv, m3, 3);
    const float inv3[] = {-24.0f, 18.0f, 5.0f, 20.0f, -15.0f, -4.0f, -5.0f, 4.0f, 1.0f};
    for (int i = 0; i < 9; i++)
        EXPECT_BITS(inv[i], inv3[i] + 0.0f);
    /* 4x4: m * inverse(m) = identity to rounding */
    inverse_of(inv, m4, 4);
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) {
            double s = 0;
            for (int k = 0; k < 4; k++)
                s += (double)m4[r * 4 + k] * inv[k * 4 + c];
            cr_expect(fabs(s - (r == c)) < 1e-6, "(m * inverse(m))[%d][%d] = %g", r, c, s);
        }
    const float id4[] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    inverse_of(inv, id4, 4);
    for (int i = 0; i < 16; i++)
        cr_expect_eq(fabsf(inv[i]), id4[i]);
    inverse_of(inv, sing, 3);
    cr_expect(!isfinite(inv[0]), "singular inverse should not be finite: %g", inv[0]);
}

/* ---- determinism: 64-lane calls equal one-lane calls, bit for bit ---------------------- */

static uint32_t rng_state = 12345u;
static uint32_t rnd(void)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return rng_state;
}

/* random floats: mostly moderate, some specials and wide magnitudes */
static float rnd_float(void)
{
    static const float specials[] = {0.0f, -0.0f, INFINITY, -INFINITY, 0x7fc00000, 1.0f, -1.0f, 0.5f};
    const uint32_t r = rnd();
    switch (r & 7u) {
    case 0:
        return r & 0x100u ? specials[(r >> 9) & 7u] : bf(0x7fc00000u);
    case 1:
        return bf(rnd()); /* any bits */
    default:
        return ((float)(rnd() & 0xffffffu) / 0x1p23f - 1.0f) * (float)(1u << ((r >> 3) & 7u));
    }
}

Test(spirv_math, lanes_match_single)
{
    static const struct { const char *name; unary_fn f; } un[] = {
#define U(n) {#n, tr__m_##n}
        U(round), U(roundeven), U(trunc), U(fabs), U(fsign), U(floor), U(ceil), U(fract),
        U(radians), U(degrees), U(sin), U(cos), U(tan), U(asin), U(acos), U(atan), U(sinh),
        U(cosh), U(tanh), U(asinh), U(acosh), U(atanh), U(exp), U(log), U(exp2), U(log2),
        U(sqrt), U(inversesqrt),
#undef U
    };
    static const struct { const char *name; binary_fn f; } bin[] = {
        {"atan2", tr__m_atan2}, {"pow", tr__m_pow}, {"fmin", tr__m_fmin}, {"fmax", tr__m_fmax},
        {"nmin", tr__m_nmin}, {"nmax", tr__m_nmax}, {"step", tr__m_step},
    };
    typedef void (*ternary_fn)(float *, const float *, const float *, const float *, uint32_t);
    static const struct { const char *name; ternary_fn f; } ter[] = {
        {"fclamp", tr__m_fclamp}, {"nclamp", tr__m_nclamp}, {"fmix", tr__m_fmix},
        {"smoothstep", tr__m_smoothstep}, {"fma", tr__m_fma},
    };
    for (int round = 0; round < 40; round++) {
        float a[64], b[64], c[64], wide[64], one[64], inplace[64];
        for (int l = 0; l < 64; l++) {
            a[l] = rnd_float();
            b[l] = rnd_float();
            c[l] = rnd_float();
        }
        if (round & 1) /* large arguments for the trig fix-up path */
            for (int l = 0; l < 64; l += 3)
                a[l] = bf(0x48000000u + (rnd() & 0x2fffffffu));
        for (size_t i = 0; i < sizeof un / sizeof un[0]; i++) {
            un[i].f(wide, a, 64);
            for (int l = 0; l < 64; l++)
                un[i].f(&one[l], &a[l], 1);
            memcpy(inplace, a, sizeof a);
            un[i].f(inplace, inplace, 64);
            cr_expect(memcmp(wide, one, sizeof wide) == 0, "%s: 64 lanes differ from 1 lane", un[i].name);
            cr_expect(memcmp(wide, inplace, sizeof wide) == 0, "%s: in place differs", un[i].name);
        }
        for (size_t i = 0; i < sizeof bin / sizeof bin[0]; i++) {
            bin[i].f(wide, a, b, 64);
            for (int l = 0; l < 64; l++)
                bin[i].f(&one[l], &a[l], &b[l], 1);
            cr_expect(memcmp(wide, one, sizeof wide) == 0, "%s: 64 lanes differ from 1 lane", bin[i].name);
        }
        for (size_t i = 0; i < sizeof ter / sizeof ter[0]; i++) {
            ter[i].f(wide, a, b, c, 64);
            for (int l = 0; l < 64; l++)
                ter[i].f(&one[l], &a[l], &b[l], &c[l], 1);
            cr_expect(memcmp(wide, one, sizeof wide) == 0, "%s: 64 lanes differ from 1 lane", ter[i].name);
        }
        /* a vector and a matrix function */
        float m[16][64], mo[16][64], m1[16][64];
        const float *mp[16];
        float *mop[16], *m1p[16];
        for (int i = 0; i < 16; i++) {
            for (int l = 0; l < 64; l++)
                m[i][l] = rnd_float();
            mp[i] = m[i];
            mop[i] = mo[i];
            m1p[i] = m1[i];
        }
        tr__m_inverse(mop, mp, 4, 64);
        for (int l = 0; l < 64; l++) {
            const float *lp[16];
            float *lo[16];
            for (int i = 0; i < 16; i++) {
                lp[i] = &m[i][l];
                lo[i] = &m1[i][l];
            }
            tr__m_inverse(lo, lp, 4, 1);
        }
        (void)m1p;
        cr_expect(memcmp(mo, m1, sizeof mo) == 0, "inverse: 64 lanes differ from 1 lane");
    }
}
