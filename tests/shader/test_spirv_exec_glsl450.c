/* SPIR-V execution: every GLSL.std.450 instruction glslang emits (and
 * NMin / NMax / NClamp, patched in), each over many lanes of inputs.
 * Exactly defined results (rounding to integers, abs, sign, min / max /
 * clamp, step, frexp / ldexp / modf, packing, integer bit searches,
 * determinants and inverses of small integer matrices) are compared bit for
 * bit; transcendental functions against a double-precision reference
 * within Vulkan's required precision ("Precision and Operation of SPIR-V
 * Instructions"), which shader.h promises.  Cases GLSL leaves undefined
 * (NaN into min/max, halves for round, negative log) are not asserted
 * except where shader.h or the instruction's definition fixes them. */
#include "spv_harness.h"

#include <float.h>
#include <limits.h>

#define N 1024
#define HEAD SPVH_LANES_HEAD(1024)
#define PI_D 3.14159265358979323846

static uint32_t in[N][4];

/* The shader: x, y, z from the lane's words, o = the four expressions' bits. */
#define FLOAT4(e0, e1, e2, e3)                                                                                  \
    HEAD "void main() {\n"                                                                                    \
         "    uvec4 a = arg(); float x = uintBitsToFloat(a.x), y = uintBitsToFloat(a.y), z = uintBitsToFloat(a.z);\n" \
         "    o = floatBitsToUint(vec4(" e0 ", " e1 ", " e2 ", " e3 "));\n"                                   \
         "}\n"

static void fill(double lo, double hi, uint64_t seed, const float *special, int nspecial)
{
    trt_rng rng = {seed};
    for (int l = 0; l < N; l++) {
        for (int c = 0; c < 3; c++)
            in[l][c] = spvh_f2u((float)trt_rand_range(&rng, lo, hi));
        in[l][3] = 0;
    }
    for (int i = 0; i < nspecial && i < N; i++)
        in[i][0] = spvh_f2u(special[i]);
}

static float X(int l) { return spvh_u2f(in[l][0]); }
static float Y(int l) { return spvh_u2f(in[l][1]); }
static float Z(int l) { return spvh_u2f(in[l][2]); }
static float G(const uint32_t *px, int l, int c) { return spvh_u2f(px[4 * l + c]); }

/* got within `ulps` ULP or `abs_tol` of the double reference */
#define EXPECT_NEAR(got, ref, ulps, abs_tol, ...)                                                              \
    do {                                                                                                      \
        const float g_ = (got);                                                                               \
        const double r_ = (ref);                                                                              \
        const int ok_ = spvh_ulp_err(g_, r_) <= (ulps) || (!isnan(r_) && fabs((double)g_ - r_) <= (abs_tol)); \
        if (!ok_) {                                                                                           \
            char m_[512];                                                                                     \
            snprintf(m_, sizeof m_, __VA_ARGS__);                                                             \
            cr_expect(0, "got %a, reference %a (%.3g ULP, tolerance %g ULP / %g): %s", (double)g_, r_,       \
                      spvh_ulp_err(g_, r_), (double)(ulps), (double)(abs_tol), m_);                           \
        }                                                                                                     \
    } while (0)

/* ---- rounding, abs, sign -------------------------------------------------------------------- */

static const float round_special[] = {-2.5f, -1.5f, -0.5f, 0.5f, 1.5f, 2.5f, 1.3f, -1.7f, 1e-40f, -1e-40f,
                                      8388607.5f, 1e20f, INFINITY, -INFINITY, NAN, 0.0f, -0.0f, -0.49999997f,
                                      0.49999997f, 4194304.5f, -8388607.5f, 3.5f, -3.5f, 16777216.0f};

static int is_half(float x) { return isfinite(x) && x - truncf(x) != 0.0f && fabsf(x - truncf(x)) == 0.5f; }

SPVH_TEST2(spirv_glsl450, round_trunc_floor_ceil, .disabled = 0)
{
    fill(-100.0, 100.0, 1, round_special, (int)(sizeof round_special / sizeof *round_special));
    uint32_t *px = spvh_run_lanes(FLOAT4("round(x)", "roundEven(x)", "trunc(x)", "floor(x)"), in, N);
    for (int l = 0; l < N; l++) {
        const float x = X(l);
        if (is_half(x))
            cr_expect(spvh_same_f32(px[4 * l], roundf(x)) || spvh_same_f32(px[4 * l], rintf(x)),
                      "round(%a): a half rounds either way (GLSL), got %a", (double)x, (double)G(px, l, 0));
        else
            SPVH_EXPECT_F32(px[4 * l], roundf(x), "round(%a)", (double)x);
        SPVH_EXPECT_F32(px[4 * l + 1], rintf(x), "roundEven(%a)", (double)x);
        SPVH_EXPECT_F32(px[4 * l + 2], truncf(x), "trunc(%a)", (double)x);
        SPVH_EXPECT_F32(px[4 * l + 3], floorf(x), "floor(%a)", (double)x);
    }
    free(px);
}

SPVH_TEST2(spirv_glsl450, ceil_fract_abs_sign, .disabled = 0)
{
    fill(-100.0, 100.0, 2, round_special, (int)(sizeof round_special / sizeof *round_special));
    uint32_t *px = spvh_run_lanes(FLOAT4("ceil(x)", "fract(x)", "abs(x)", "sign(x)"), in, N);
    for (int l = 0; l < N; l++) {
        const float x = X(l);
        SPVH_EXPECT_F32(px[4 * l], ceilf(x), "ceil(%a)", (double)x);
        if (isfinite(x))
            SPVH_EXPECT_F32(px[4 * l + 1], x - floorf(x), "fract(%a) = x - floor(x)", (double)x);
        SPVH_EXPECT_F32(px[4 * l + 2], fabsf(x), "abs(%a)", (double)x);
        if (isnan(x))
            continue;
        if (x == 0.0f)
            cr_expect_eq(G(px, l, 3), 0.0f, "sign(%a)", (double)x);
        else
            SPVH_EXPECT_F32(px[4 * l + 3], x > 0 ? 1.0f : -1.0f, "sign(%a)", (double)x);
    }
    free(px);
}

/* ---- min, max, clamp, mix, step, smoothstep, fma ---------------------------------------------- */

/* Values compare equal; a zero result may have either sign (SPIR-V leaves min(-0, +0) open). */
static int same_value(float got, float want) { return want == 0.0f ? got == 0.0f : spvh_same_f32(spvh_f2u(got), want); }

SPVH_TEST2(spirv_glsl450, float_min_max_clamp, .disabled = 0)
{
    const float sp[] = {0.0f, -0.0f, 1e-40f, -1e-40f, INFINITY, -INFINITY, FLT_MAX, -FLT_MAX};
    fill(-10.0, 10.0, 3, sp, 8);
    for (int l = 0; l < N; l += 7)
        in[l][1] = in[l][0]; /* equal operands */
    uint32_t *px = spvh_run_lanes(FLOAT4("min(x, y)", "max(x, y)", "clamp(x, min(y, z), max(y, z))", "clamp(x, -1.0, 1.0)"),
                                  in, N);
    for (int l = 0; l < N; l++) {
        const float x = X(l), y = Y(l), z = Z(l);
        const float lo = y < z ? y : z, hi = y < z ? z : y;
        cr_expect(same_value(G(px, l, 0), x < y ? x : y), "min(%a, %a) = %a", (double)x, (double)y, (double)G(px, l, 0));
        cr_expect(same_value(G(px, l, 1), x > y ? x : y), "max(%a, %a) = %a", (double)x, (double)y, (double)G(px, l, 1));
        const float c = x < lo ? lo : x > hi ? hi : x;
        cr_expect(same_value(G(px, l, 2), c), "clamp(%a, %a, %a) = %a", (double)x, (double)lo, (double)hi,
                  (double)G(px, l, 2));
        const float c1 = x < -1.0f ? -1.0f : x > 1.0f ? 1.0f : x;
        cr_expect(same_value(G(px, l, 3), c1), "clamp(%a, -1, 1) = %a", (double)x, (double)G(px, l, 3));
    }
    free(px);
}

/* NMin, NMax, NClamp: a NaN operand gives the other (IEEE minNum / maxNum). */
SPVH_TEST2(spirv_glsl450, nmin_nmax_nclamp, .disabled = 0)
{
    fill(-10.0, 10.0, 4, NULL, 0);
    for (int l = 0; l < N; l++) {
        if (l % 3 == 0)
            in[l][0] = spvh_f2u(NAN);
        if (l % 5 == 0)
            in[l][1] = spvh_f2u(NAN);
    }
    static const char *const from[] = {" FMin ", " FMax ", " FClamp "};
    static const char *const to[] = {" NMin ", " NMax ", " NClamp "};
    size_t nw = 0;
    uint32_t *words = spvh_compile_patched(FLOAT4("min(x, y)", "max(x, y)", "clamp(y, -2.0, 3.0)", "0.0"),
                                           shaderc_fragment_shader, from, to, 3, &nw);
    spvh_draw d;
    memset(&d, 0, sizeof d);
    d.fs = "(patched)";
    d.fs_words = words;
    d.fs_word_count = nw;
    d.w = 16;
    d.h = N / 16;
    d.ubo[0] = (spvh_ubo){0, in, sizeof in};
    uint32_t *px = spvh_render(&d);
    for (int l = 0; l < N; l++) {
        const float x = X(l), y = Y(l);
        const float mn = isnan(x) ? y : isnan(y) ? x : (x < y ? x : y);
        const float mx = isnan(x) ? y : isnan(y) ? x : (x > y ? x : y);
        cr_expect(same_value(G(px, l, 0), mn), "NMin(%a, %a) = %a", (double)x, (double)y, (double)G(px, l, 0));
        cr_expect(same_value(G(px, l, 1), mx), "NMax(%a, %a) = %a", (double)x, (double)y, (double)G(px, l, 1));
        /* NClamp(NaN, lo, hi) is lo or hi (SPIR-V: "may be either") */
        if (isnan(y))
            cr_expect(G(px, l, 2) == -2.0f || G(px, l, 2) == 3.0f, "NClamp(NaN, -2, 3) = %a", (double)G(px, l, 2));
        else
            cr_expect(same_value(G(px, l, 2), y < -2.0f ? -2.0f : y > 3.0f ? 3.0f : y), "NClamp(%a)", (double)y);
    }
    free(px);
    free(words);
}

SPVH_TEST2(spirv_glsl450, int_min_max_clamp_abs_sign, .disabled = 0)
{
    static const int32_t sp[] = {0, 1, -1, INT32_MAX, INT32_MIN, 5, -5, 1000};
    trt_rng rng = {5};
    for (int l = 0; l < N; l++) {
        in[l][0] = l < 64 ? (uint32_t)sp[l % 8] : trt_rand_u32(&rng);
        in[l][1] = l < 64 ? (uint32_t)sp[l / 8] : trt_rand_u32(&rng);
        in[l][2] = trt_rand_u32(&rng) % 2000u - 1000u;
        in[l][3] = 0;
    }
    uint32_t *px = spvh_run_lanes(HEAD "void main() {\n"
                                       "    uvec4 a = arg(); ivec4 s = ivec4(a);\n"
                                       "    int lo = min(s.z, 0), hi = max(s.z, 0);\n"
                                       "    o = uvec4(uint(min(s.x, s.y)) ^ min(a.x, a.y), uint(max(s.x, s.y)) + max(a.x, a.y) * 3u,\n"
                                       "              uint(clamp(s.x, lo, hi)) ^ (clamp(a.x, 100u, 200000u) << 1),\n"
                                       "              uint(abs(s.x)) + uint(sign(s.y)) * 7u);\n"
                                       "}\n",
                                  in, N);
    for (int l = 0; l < N; l++) {
        const int32_t x = (int32_t)in[l][0], y = (int32_t)in[l][1], z = (int32_t)in[l][2];
        const uint32_t ux = in[l][0], uy = in[l][1];
        const int32_t lo = z < 0 ? z : 0, hi = z > 0 ? z : 0;
        const int32_t cl = x < lo ? lo : x > hi ? hi : x;
        const uint32_t ucl = ux < 100u ? 100u : ux > 200000u ? 200000u : ux;
        const uint32_t ab = x < 0 ? 0u - (uint32_t)x : (uint32_t)x;
        const int32_t sg = y > 0 ? 1 : y < 0 ? -1 : 0;
        SPVH_EXPECT_U32(px[4 * l], (uint32_t)(x < y ? x : y) ^ (ux < uy ? ux : uy), "SMin / UMin (%d, %d)", x, y);
        SPVH_EXPECT_U32(px[4 * l + 1], (uint32_t)(x > y ? x : y) + (ux > uy ? ux : uy) * 3u, "SMax / UMax (%d, %d)", x, y);
        SPVH_EXPECT_U32(px[4 * l + 2], (uint32_t)cl ^ (ucl << 1), "SClamp / UClamp (%d)", x);
        SPVH_EXPECT_U32(px[4 * l + 3], ab + (uint32_t)sg * 7u, "SAbs(%d) (INT_MIN stays), SSign(%d)", x, y);
    }
    free(px);
}

SPVH_TEST2(spirv_glsl450, mix_step_smoothstep_fma, .disabled = 0)
{
    fill(0.0, 10.0, 6, NULL, 0);
    for (int l = 0; l < N; l++)
        in[l][2] = spvh_f2u((float)(l % 67) / 66.0f); /* a in [0, 1] */
    uint32_t *px = spvh_run_lanes(FLOAT4("mix(x, y, z)", "step(y * 0.0625, z) + 2.0 * step(x, y)",
                                         "smoothstep(0.2, 0.8, z)", "fma(x, y, z)"),
                                  in, N);
    for (int l = 0; l < N; l++) {
        const float x = X(l), y = Y(l), a = Z(l);
        EXPECT_NEAR(G(px, l, 0), (double)x * (1.0 - a) + (double)y * a, 4, 0x1p-20 * (x > y ? x : y), "mix(%a, %a, %a)", (double)x,
                    (double)y, (double)a);
        const float e = y * 0.0625f;
        SPVH_EXPECT_F32(px[4 * l + 1], (a < e ? 0.0f : 1.0f) + 2.0f * (y < x ? 0.0f : 1.0f), "step lane %d", l);
        double t = ((double)a - 0.2) / 0.6;
        t = t < 0 ? 0 : t > 1 ? 1 : t;
        EXPECT_NEAR(G(px, l, 2), t * t * (3.0 - 2.0 * t), 8, 0x1p-21, "smoothstep(0.2, 0.8, %a)", (double)a);
        /* Vulkan: fma's precision is inherited from OpFMul then OpFAdd: fused or not */
        volatile float p = x * y;
        const float unfused = p + a, fused = fmaf(x, y, a);
        cr_expect(spvh_same_f32(px[4 * l + 3], fused) || spvh_same_f32(px[4 * l + 3], unfused),
                  "fma(%a, %a, %a) = %a: neither fused %a nor unfused %a", (double)x, (double)y, (double)a,
                  (double)G(px, l, 3), (double)fused, (double)unfused);
    }
    free(px);
}

/* ---- exponentials and roots ------------------------------------------------------------------ */

SPVH_TEST2(spirv_glsl450, exp_exp2_log_log2, .disabled = 0)
{
    fill(-20.0, 20.0, 7, NULL, 0);
    trt_rng rng = {77};
    for (int l = 0; l < N; l++) /* log operands: positive, over many binades */
        in[l][1] = spvh_f2u((float)exp2(trt_rand_range(&rng, -60.0, 60.0)));
    for (int l = 0; l < 64; l++) /* and near 1 */
        in[l][1] = spvh_f2u(0.5f + (float)l / 42.0f);
    uint32_t *px = spvh_run_lanes(FLOAT4("exp(x)", "exp2(x)", "log(y)", "log2(y)"), in, N);
    for (int l = 0; l < N; l++) {
        const float x = X(l), y = Y(l);
        EXPECT_NEAR(G(px, l, 0), exp((double)x), 3.0 + 2.0 * fabs(x), 0.0, "exp(%a)", (double)x);
        EXPECT_NEAR(G(px, l, 1), exp2((double)x), 3.0 + 2.0 * fabs(x), 0.0, "exp2(%a)", (double)x);
        const int near1 = y >= 0.5f && y <= 2.0f;
        EXPECT_NEAR(G(px, l, 2), log((double)y), near1 ? 0.0 : 3.0, near1 ? 0x1p-21 : 0.0, "log(%a)", (double)y);
        EXPECT_NEAR(G(px, l, 3), log2((double)y), near1 ? 0.0 : 3.0, near1 ? 0x1p-21 : 0.0, "log2(%a)", (double)y);
    }
    free(px);
}

SPVH_TEST2(spirv_glsl450, pow_sqrt_inversesqrt, .disabled = 0)
{
    fill(0.01, 100.0, 8, NULL, 0);
    trt_rng rng = {88};
    for (int l = 0; l < N; l++) {
        in[l][1] = spvh_f2u((float)trt_rand_range(&rng, -6.0, 6.0));
        in[l][2] = spvh_f2u((float)exp2(trt_rand_range(&rng, -100.0, 100.0)));
    }
    uint32_t *px = spvh_run_lanes(FLOAT4("pow(x, y)", "sqrt(z)", "inversesqrt(z)", "sqrt(x) * 0.0 + inversesqrt(4.0)"),
                                  in, N);
    for (int l = 0; l < N; l++) {
        const float x = X(l), y = Y(l), z = Z(l);
        /* inherited from exp2(y * log2(x)): exp2's 3 + 2|t| ULP at t = y * log2(x), plus
         * log2's error (3 ULP, or 2^-21 absolute near 1) times |y| carried into the
         * exponent (ln 2 * 2^23 ULP per unit): about 4 + 5|t| + 3|y| ULP */
        const double t = (double)y * log2((double)x);
        const double tol = 4.0 + 5.0 * fabs(t) + 3.0 * fabs(y);
        EXPECT_NEAR(G(px, l, 0), pow((double)x, (double)y), tol, 0.0, "pow(%a, %a)", (double)x, (double)y);
        EXPECT_NEAR(G(px, l, 1), sqrt((double)z), 3.0, 0.0, "sqrt(%a)", (double)z);
        EXPECT_NEAR(G(px, l, 2), 1.0 / sqrt((double)z), 2.0, 0.0, "inversesqrt(%a)", (double)z);
        EXPECT_NEAR(G(px, l, 3), 0.5, 2.0, 0.0, "inversesqrt(4)");
    }
    free(px);
}

/* ---- trigonometry ---------------------------------------------------------------------------- */

SPVH_TEST2(spirv_glsl450, sin_cos_tan_radians_degrees, .disabled = 0)
{
    fill(-PI_D, PI_D, 9, NULL, 0);
    for (int l = 0; l < N; l++) /* tan away from its poles */
        in[l][1] = spvh_f2u((float)((double)(l % 283) / 282.0 * 2.8 - 1.4));
    uint32_t *px = spvh_run_lanes(FLOAT4("sin(x)", "cos(x)", "tan(y)", "radians(z * 57.0) + degrees(y)"), in, N);
    for (int l = 0; l < N; l++) {
        const float x = X(l), y = Y(l), z = Z(l);
        EXPECT_NEAR(G(px, l, 0), sin((double)x), 0.0, 0x1p-11, "sin(%a)", (double)x);
        EXPECT_NEAR(G(px, l, 1), cos((double)x), 0.0, 0x1p-11, "cos(%a)", (double)x);
        /* inherited from sin / cos: each within 2^-11 */
        const double s = sin((double)y), c = cos((double)y);
        const double tan_tol = (0x1p-11 * (fabs(s) + fabs(c)) / (c * c - 0x1p-11 * fabs(c))) + 1e-7;
        EXPECT_NEAR(G(px, l, 2), tan((double)y), 4.0, tan_tol, "tan(%a)", (double)y);
        const float z57 = z * 57.0f;
        EXPECT_NEAR(G(px, l, 3), (double)z57 * (PI_D / 180.0) + (double)y * (180.0 / PI_D), 4.0, 4e-5,
                    "radians(%a) + degrees(%a)", (double)z57, (double)y);
    }
    free(px);
}

SPVH_TEST2(spirv_glsl450, asin_acos_atan_atan2, .disabled = 0)
{
    fill(-1.0, 1.0, 10, (const float[]){-1.0f, 1.0f, 0.0f, -0.0f, 0.5f, -0.5f}, 6);
    trt_rng rng = {1010};
    for (int l = 0; l < N; l++) {
        in[l][1] = spvh_f2u((float)(trt_rand_range(&rng, -1.0, 1.0) * exp2(trt_rand_range(&rng, -10.0, 10.0))));
        in[l][2] = spvh_f2u((float)trt_rand_range(&rng, -50.0, 50.0));
    }
    uint32_t *px = spvh_run_lanes(FLOAT4("asin(x)", "acos(x)", "atan(y)", "atan(y, z)"), in, N);
    for (int l = 0; l < N; l++) {
        const float x = X(l), y = Y(l), z = Z(l);
        /* asin / acos: inherited from atan2(x, sqrt(1 - x * x)) (4096 ULP) */
        EXPECT_NEAR(G(px, l, 0), asin((double)x), 4096.0, 0x1p-22, "asin(%a)", (double)x);
        EXPECT_NEAR(G(px, l, 1), acos((double)x), 4096.0, 0x1p-22, "acos(%a)", (double)x);
        EXPECT_NEAR(G(px, l, 2), atan((double)y), 4096.0, 0.0, "atan(%a)", (double)y);
        EXPECT_NEAR(G(px, l, 3), atan2((double)y, (double)z), 4096.0, 0.0, "atan(%a, %a)", (double)y, (double)z);
    }
    free(px);
}

SPVH_TEST2(spirv_glsl450, hyperbolic, .disabled = 0)
{
    fill(-8.0, 8.0, 11, (const float[]){0.0f, 1e-5f, -1e-5f, 1.0f}, 4);
    trt_rng rng = {1111};
    for (int l = 0; l < N; l++) {
        in[l][1] = spvh_f2u((float)trt_rand_range(&rng, 1.0, 1000.0));  /* acosh */
        in[l][2] = spvh_f2u((float)trt_rand_range(&rng, -0.99, 0.99)); /* atanh */
    }
    uint32_t *px = spvh_run_lanes(FLOAT4("sinh(x)", "cosh(x) + tanh(x) * 1000.0", "asinh(x) * 8.0 + acosh(y)",
                                         "atanh(z)"),
                                  in, N);
    for (int l = 0; l < N; l++) {
        const float x = X(l), y = Y(l), z = Z(l);
        /* inherited from the exp / log formulas: relative 2^-18, and absolute
         * near 0 where (e^x - e^-x) / 2 cancels */
        const double sh = sinh((double)x);
        EXPECT_NEAR(G(px, l, 0), sh, 0.0, fabs(sh) * 0x1p-18 + 0x1p-20, "sinh(%a)", (double)x);
        const float th = (float)tanh((double)x);
        const double r1 = cosh((double)x) + (double)(th * 1000.0f);
        EXPECT_NEAR(G(px, l, 1), r1, 0.0, fabs(r1) * 0x1p-18 + 1000.0 * 0x1p-18, "cosh(%a) + tanh(%a) * 1000",
                    (double)x, (double)x);
        const double r2 = asinh((double)x) * 8.0 + acosh((double)y);
        EXPECT_NEAR(G(px, l, 2), r2, 0.0, (fabs(r2) + 8.0) * 0x1p-17 + 0x1p-12, "asinh(%a) * 8 + acosh(%a)",
                    (double)x, (double)y);
        const double r3 = atanh((double)z);
        EXPECT_NEAR(G(px, l, 3), r3, 0.0, fabs(r3) * 0x1p-17 + 0x1p-20, "atanh(%a)", (double)z);
    }
    free(px);
}

/* ---- frexp, ldexp, modf -------------------------------------------------------------------- */

SPVH_TEST2(spirv_glsl450, frexp_ldexp_modf, .disabled = 0)
{
    static const float sp[] = {0.0f, -0.0f, 1e-40f, -0x1p-149f, 1.0f, -1.5f, 0x1p-126f, FLT_MAX, 3.75f, -0.3f, 1024.0f,
                               123.456f};
    fill(-1e6, 1e6, 12, sp, 12);
    trt_rng rng = {1212};
    for (int l = 0; l < N; l++)
        in[l][1] = (uint32_t)(int32_t)(trt_rand_u32(&rng) % 321u) - 160u; /* exponent for ldexp */
    in[1][1] = (uint32_t)-149;
    in[2][1] = 200u;
    uint32_t *px = spvh_run_lanes(HEAD "void main() {\n"
                                       "    uvec4 a = arg(); float x = uintBitsToFloat(a.x); int e = int(a.y);\n"
                                       "    int ex; float m = frexp(x, ex);\n"
                                       "    float whole; float fr = modf(x, whole);\n"
                                       "    o = uvec4(floatBitsToUint(m), uint(ex), floatBitsToUint(ldexp(x, e)),\n"
                                       "              floatBitsToUint(fr) ^ floatBitsToUint(whole));\n"
                                       "}\n",
                                  in, N);
    for (int l = 0; l < N; l++) {
        const float x = X(l);
        const int32_t e = (int32_t)in[l][1];
        int ex = 0;
        const float m = frexpf(x, &ex);
        float whole = 0;
        const float fr = modff(x, &whole);
        SPVH_EXPECT_F32(px[4 * l], m, "frexp(%a) mantissa", (double)x);
        SPVH_EXPECT_U32(px[4 * l + 1], (uint32_t)ex, "frexp(%a) exponent", (double)x);
        SPVH_EXPECT_F32(px[4 * l + 2], ldexpf(x, e), "ldexp(%a, %d)", (double)x, e);
        SPVH_EXPECT_U32(px[4 * l + 3], spvh_f2u(fr) ^ spvh_f2u(whole), "modf(%a)", (double)x);
    }
    free(px);
}

/* ---- packing ----------------------------------------------------------------------------------- */

static float clampf(float x, float lo, float hi) { return x < lo ? lo : x > hi ? hi : x; }

/* round(v) where v is not a half (the inputs avoid halves); -1 marks a half */
static int64_t round_nohalf(float v)
{
    if (fabsf(v - truncf(v)) == 0.5f)
        return INT64_MIN;
    return (int64_t)roundf(v);
}

static uint16_t f2h(float f)
{
    const uint32_t u = spvh_f2u(f), sign = (u >> 16) & 0x8000u, a = u & 0x7fffffffu;
    if (a > 0x7f800000u)
        return (uint16_t)(sign | 0x7e00u);
    if (a >= 0x477ff000u) /* >= 65520: rounds to inf */
        return (uint16_t)(sign | 0x7c00u);
    if (a < 0x38800000u) /* below 2^-14: a half denormal (or 0) */
        return (uint16_t)(sign | (uint32_t)rintf(spvh_u2f(a) * 16777216.0f));
    const uint32_t b = a - 0x38000000u, rem = b & 0x1fffu;
    uint32_t h = b >> 13;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u)))
        h++;
    return (uint16_t)(sign | h);
}

static float h2f(uint16_t h)
{
    const uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 31u, m = h & 0x3ffu;
    if (e == 31)
        return spvh_u2f(sign | 0x7f800000u | (m << 13));
    if (e == 0) {
        const float v = (float)m * 0x1p-24f;
        return sign ? -v : v;
    }
    return spvh_u2f(sign | ((e + 112u) << 23) | (m << 13));
}

SPVH_TEST2(spirv_glsl450, pack_unpack, .disabled = 0)
{
    fill(-1.3, 1.3, 13, (const float[]){0.0f, -0.0f, 1.0f, -1.0f, 2.0f, -2.0f, 1e-5f}, 7);
    trt_rng rng = {1313};
    for (int l = 0; l < N; l++) {
        in[l][2] = trt_rand_u32(&rng); /* bits to unpack */
        /* half inputs: within range, some denormal halves, some beyond */
        const float hv = (float)(trt_rand_range(&rng, -1.0, 1.0) * exp2(trt_rand_range(&rng, -26.0, 17.0)));
        in[l][3] = spvh_f2u(hv);
    }
    uint32_t *px = spvh_run_lanes(HEAD "void main() {\n"
                                       "    uvec4 a = arg(); float x = uintBitsToFloat(a.x), y = uintBitsToFloat(a.y);\n"
                                       "    vec4 v = vec4(x, y, x * 0.5, y * -0.75);\n"
                                       "    o = uvec4(packUnorm4x8(v), packSnorm4x8(v),\n"
                                       "              packUnorm2x16(v.xy) ^ packSnorm2x16(v.zw),\n"
                                       "              packHalf2x16(vec2(uintBitsToFloat(a.w), x)));\n"
                                       "}\n",
                                  in, N);
    for (int l = 0; l < N; l++) {
        const float x = X(l), y = Y(l);
        const float v[4] = {x, y, x * 0.5f, y * -0.75f};
        uint32_t un = 0, sn = 0, u16 = 0, s16 = 0;
        int half_somewhere = 0;
        for (int c = 0; c < 4; c++) {
            const int64_t ru = round_nohalf(clampf(v[c], 0.0f, 1.0f) * 255.0f);
            const int64_t rs = round_nohalf(clampf(v[c], -1.0f, 1.0f) * 127.0f);
            half_somewhere |= ru == INT64_MIN || rs == INT64_MIN;
            un |= ((uint32_t)ru & 0xffu) << (8 * c);
            sn |= ((uint32_t)rs & 0xffu) << (8 * c);
        }
        for (int c = 0; c < 2; c++) {
            const int64_t ru = round_nohalf(clampf(v[c], 0.0f, 1.0f) * 65535.0f);
            const int64_t rs = round_nohalf(clampf(v[c + 2], -1.0f, 1.0f) * 32767.0f);
            half_somewhere |= ru == INT64_MIN || rs == INT64_MIN;
            u16 |= ((uint32_t)ru & 0xffffu) << (16 * c);
            s16 |= ((uint32_t)rs & 0xffffu) << (16 * c);
        }
        if (!half_somewhere) {
            SPVH_EXPECT_U32(px[4 * l], un, "packUnorm4x8(%a, %a)", (double)x, (double)y);
            SPVH_EXPECT_U32(px[4 * l + 1], sn, "packSnorm4x8(%a, %a)", (double)x, (double)y);
            SPVH_EXPECT_U32(px[4 * l + 2], u16 ^ s16, "packUnorm2x16 ^ packSnorm2x16 (%a, %a)", (double)x, (double)y);
        }
        const uint32_t h = (uint32_t)f2h(spvh_u2f(in[l][3])) | (uint32_t)f2h(x) << 16;
        SPVH_EXPECT_U32(px[4 * l + 3], h, "packHalf2x16(%a, %a)", (double)spvh_u2f(in[l][3]), (double)x);
    }
    free(px);

    uint32_t *up = spvh_run_lanes(HEAD "void main() {\n"
                                       "    uint b = arg().z;\n"
                                       "    vec4 u = unpackUnorm4x8(b), s = unpackSnorm4x8(b);\n"
                                       "    vec2 u2 = unpackUnorm2x16(b), s2 = unpackSnorm2x16(b), h = unpackHalf2x16(b);\n"
                                       "    o = uvec4(floatBitsToUint(u.y), floatBitsToUint(s.w), floatBitsToUint(u2.x + s2.y * 4.0),\n"
                                       "              floatBitsToUint(h.x) ^ (floatBitsToUint(h.y) >> 1));\n"
                                       "}\n",
                                  in, N);
    for (int l = 0; l < N; l++) {
        const uint32_t b = in[l][2];
        const float u_y = (float)((b >> 8) & 0xffu) / 255.0f;
        const float s_w = clampf((float)(int8_t)(b >> 24) / 127.0f, -1.0f, 1.0f);
        const float u2x = (float)(b & 0xffffu) / 65535.0f;
        const float s2y = clampf((float)(int16_t)(b >> 16) / 32767.0f, -1.0f, 1.0f);
        EXPECT_NEAR(G(up, l, 0), u_y, 1.0, 0.0, "unpackUnorm4x8(0x%08x).y", b);
        EXPECT_NEAR(G(up, l, 1), s_w, 1.0, 0.0, "unpackSnorm4x8(0x%08x).w", b);
        EXPECT_NEAR(G(up, l, 2), (double)u2x + (double)s2y * 4.0, 2.0, 0x1p-22, "unpack*2x16(0x%08x)", b);
        const float hx = h2f((uint16_t)b), hy = h2f((uint16_t)(b >> 16));
        if (!isnan(hx) && !isnan(hy))
            SPVH_EXPECT_U32(up[4 * l + 3], spvh_f2u(hx) ^ (spvh_f2u(hy) >> 1), "unpackHalf2x16(0x%08x)", b);
    }
    free(up);
}

/* ---- integer bit searches ------------------------------------------------------------------- */

static int32_t lsb(uint32_t x) { return x ? __builtin_ctz(x) : -1; }
static int32_t umsb(uint32_t x) { return x ? 31 - __builtin_clz(x) : -1; }
static int32_t smsb(int32_t x) { return umsb(x < 0 ? ~(uint32_t)x : (uint32_t)x); }

SPVH_TEST2(spirv_glsl450, find_lsb_msb, .disabled = 0)
{
    trt_rng rng = {1414};
    for (int l = 0; l < N; l++) {
        const uint32_t r = trt_rand_u32(&rng);
        in[l][0] = l < 40 ? (l < 33 ? (l == 32 ? 0u : 1u << l) : (uint32_t)-(l - 33)) : r >> (r & 31u);
        in[l][1] = in[l][2] = in[l][3] = 0;
    }
    uint32_t *px = spvh_run_lanes(HEAD "void main() {\n"
                                       "    uint x = arg().x;\n"
                                       "    o = uvec4(uint(findLSB(x)), uint(findMSB(x)), uint(findMSB(int(x))), uint(findLSB(int(x))));\n"
                                       "}\n",
                                  in, N);
    for (int l = 0; l < N; l++) {
        const uint32_t x = in[l][0];
        SPVH_EXPECT_U32(px[4 * l], (uint32_t)lsb(x), "findLSB(0x%x)", x);
        SPVH_EXPECT_U32(px[4 * l + 1], (uint32_t)umsb(x), "findMSB(uint 0x%x)", x);
        SPVH_EXPECT_U32(px[4 * l + 2], (uint32_t)smsb((int32_t)x), "findMSB(int 0x%x)", x);
        SPVH_EXPECT_U32(px[4 * l + 3], (uint32_t)lsb(x), "findLSB(int 0x%x)", x);
    }
    free(px);
}

/* ---- geometry ------------------------------------------------------------------------------ */

SPVH_TEST2(spirv_glsl450, length_distance_normalize_cross, .disabled = 0)
{
    fill(-10.0, 10.0, 15, NULL, 0);
    uint32_t *px = spvh_run_lanes(HEAD "void main() {\n"
                                       "    uvec4 a = arg(); float x = uintBitsToFloat(a.x), y = uintBitsToFloat(a.y), z = uintBitsToFloat(a.z);\n"
                                       "    vec3 p = vec3(x, y, z), q = vec3(z, 1.0, -x);\n"
                                       "    vec3 n = normalize(p);\n"
                                       "    ivec3 ip = ivec3(p), iq = ivec3(q);\n"
                                       "    vec3 c = cross(vec3(ip), vec3(iq));\n"
                                       "    o = floatBitsToUint(vec4(length(p), distance(p, q), n.x + 4.0 * n.y + 16.0 * n.z,\n"
                                       "                             c.x + 1000.0 * c.y + 1000000.0 * c.z));\n"
                                       "}\n",
                                  in, N);
    for (int l = 0; l < N; l++) {
        const double x = X(l), y = Y(l), z = Z(l);
        const double len = sqrt(x * x + y * y + z * z);
        EXPECT_NEAR(G(px, l, 0), len, 4.0, 0.0, "length(%g, %g, %g)", x, y, z);
        const double dx = x - z, dy = y - 1.0, dz = z + x;
        EXPECT_NEAR(G(px, l, 1), sqrt(dx * dx + dy * dy + dz * dz), 6.0, 0.0, "distance lane %d", l);
        EXPECT_NEAR(G(px, l, 2), x / len + 4.0 * y / len + 16.0 * z / len, 0.0, 4e-5, "normalize lane %d", l);
        const int32_t px_ = (int32_t)X(l), py = (int32_t)Y(l), pz = (int32_t)Z(l);
        const int32_t qx = (int32_t)Z(l), qy = 1, qz = (int32_t)(-X(l));
        const float cx = (float)(py * qz - pz * qy), cy = (float)(pz * qx - px_ * qz), cz = (float)(px_ * qy - py * qx);
        SPVH_EXPECT_F32(px[4 * l + 3], cx + 1000.0f * cy + 1000000.0f * cz, "cross of integer vectors lane %d", l);
    }
    free(px);
}

SPVH_TEST2(spirv_glsl450, faceforward_reflect_refract, .disabled = 0)
{
    fill(-4.0, 4.0, 16, NULL, 0);
    for (int l = 0; l < N; l++) /* quarters: reflect's products and sums are exact */
        for (int c = 0; c < 3; c++)
            in[l][c] = spvh_f2u(roundf(spvh_u2f(in[l][c]) * 4.0f) * 0.25f);
    uint32_t *px = spvh_run_lanes(HEAD "void main() {\n"
                                       "    uvec4 a = arg(); float x = uintBitsToFloat(a.x), y = uintBitsToFloat(a.y), z = uintBitsToFloat(a.z);\n"
                                       "    vec3 i = vec3(x, y, z), n = vec3(0.0, 1.0, 0.0), nr = vec3(z, x, 1.0);\n"
                                       "    vec3 f = faceforward(n, i, nr);\n"
                                       "    vec3 r = reflect(i, n);\n"
                                       "    vec3 iu = normalize(vec3(x, -abs(y) - 0.5, z));\n"
                                       "    vec3 t = refract(iu, n, 0.75);\n"
                                       "    o = floatBitsToUint(vec4(f.y, r.x + 16.0 * r.y + 256.0 * r.z, t.x + 4.0 * t.y, t.z));\n"
                                       "}\n",
                                  in, N);
    for (int l = 0; l < N; l++) {
        const float x = X(l), y = Y(l), z = Z(l);
        const float dnr = z * x + x * y + 1.0f * z; /* dot(nr, i): exact (quarters) */
        SPVH_EXPECT_F32(px[4 * l], dnr < 0.0f ? 1.0f : -1.0f, "faceforward lane %d", l);
        /* reflect(i, n) = i - 2 dot(n, i) n = (x, -y, z) */
        SPVH_EXPECT_F32(px[4 * l + 1], x + 16.0f * -y + 256.0f * z, "reflect lane %d", l);
        const double ny = -fabs((double)y) - 0.5, len = sqrt((double)x * x + ny * ny + (double)z * z);
        const double ix = x / len, iy = ny / len, iz = z / len, eta = 0.75;
        const double d = iy, k = 1.0 - eta * eta * (1.0 - d * d);
        double tx = 0, ty = 0, tz = 0;
        if (k >= 0) {
            const double m = eta * d + sqrt(k);
            tx = eta * ix, ty = eta * iy - m, tz = eta * iz;
        }
        EXPECT_NEAR(G(px, l, 2), tx + 4.0 * ty, 0.0, 2e-5, "refract lane %d", l);
        EXPECT_NEAR(G(px, l, 3), tz, 0.0, 1e-5, "refract lane %d", l);
    }
    free(px);
}

/* ---- matrices ------------------------------------------------------------------------------ */

/* A 4x4 integer matrix of determinant 1 (unit lower times unit upper
 * triangular), per lane: its inverse is an integer matrix. */
static void unimodular(int l, float m[4][4])
{
    trt_rng rng = {(uint64_t)l * 7919u + 1u};
    int lo[4][4] = {{0}}, up[4][4] = {{0}};
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            lo[i][j] = i == j ? 1 : i > j ? (int)(trt_rand_u32(&rng) % 5u) - 2 : 0;
            up[i][j] = i == j ? 1 : i < j ? (int)(trt_rand_u32(&rng) % 5u) - 2 : 0;
        }
    for (int c = 0; c < 4; c++) /* m[c][r] (column-major) = (lo * up)[r][c] */
        for (int r = 0; r < 4; r++) {
            int s = 0;
            for (int k = 0; k < 4; k++)
                s += lo[r][k] * up[k][c];
            m[c][r] = (float)s;
        }
}

static void inverse4(const float m[4][4], double inv[4][4])
{
    double a[4][8];
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) {
            a[r][c] = m[c][r];
            a[r][c + 4] = r == c;
        }
    for (int p = 0; p < 4; p++) {
        int best = p;
        for (int r = p + 1; r < 4; r++)
            if (fabs(a[r][p]) > fabs(a[best][p]))
                best = r;
        for (int c = 0; c < 8; c++) {
            const double t = a[p][c];
            a[p][c] = a[best][c];
            a[best][c] = t;
        }
        const double d = a[p][p];
        for (int c = 0; c < 8; c++)
            a[p][c] /= d;
        for (int r = 0; r < 4; r++)
            if (r != p) {
                const double f = a[r][p];
                for (int c = 0; c < 8; c++)
                    a[r][c] -= f * a[p][c];
            }
    }
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++)
            inv[c][r] = a[r][c + 4];
}

SPVH_TEST2(spirv_glsl450, determinant_and_inverse, .disabled = 0)
{
    /* the matrices travel as 16 signed bytes, a column a word */
    static uint32_t packed[N][4];
    for (int l = 0; l < N; l++) {
        float m[4][4];
        unimodular(l, m);
        for (int c = 0; c < 4; c++) {
            uint32_t w = 0;
            for (int r = 0; r < 4; r++)
                w |= ((uint32_t)(int8_t)m[c][r] & 0xffu) << (8 * r);
            packed[l][c] = w;
        }
    }
    uint32_t *px = spvh_run_lanes(HEAD "ivec4 bytes4(uint w) { int s = int(w);\n"
                                       "    return ivec4(bitfieldExtract(s, 0, 8), bitfieldExtract(s, 8, 8), bitfieldExtract(s, 16, 8), bitfieldExtract(s, 24, 8)); }\n"
                                       "void main() {\n"
                                       "    uvec4 a = arg(); mat4 m;\n"
                                       "    for (int c = 0; c < 4; c++) m[c] = vec4(bytes4(a[c]));\n"
                                       "    mat4 i = inverse(m);\n"
                                       "    mat3 m3 = mat3(m); mat2 m2 = mat2(m);\n"
                                       "    o = uvec4(floatBitsToUint(determinant(m)), floatBitsToUint(determinant(m3) + 1000.0 * determinant(m2)),\n"
                                       "              floatBitsToUint(i[1][2] + 1024.0 * i[3][0]),\n"
                                       "              floatBitsToUint((inverse(m2) * determinant(m2))[0][1] + 4096.0 * (inverse(m3) * determinant(m3))[2][0]));\n"
                                       "}\n",
                                  packed, N);
    for (int l = 0; l < N; l++) {
        float m[4][4];
        unimodular(l, m);
        double inv[4][4];
        inverse4(m, inv);
        const double d3 = (double)m[0][0] * ((double)m[1][1] * m[2][2] - (double)m[2][1] * m[1][2]) -
                          (double)m[1][0] * ((double)m[0][1] * m[2][2] - (double)m[2][1] * m[0][2]) +
                          (double)m[2][0] * ((double)m[0][1] * m[1][2] - (double)m[1][1] * m[0][2]);
        const double d2 = (double)m[0][0] * m[1][1] - (double)m[1][0] * m[0][1];
        EXPECT_NEAR(G(px, l, 0), 1.0, 0.0, 1e-4, "determinant(mat4) lane %d", l);
        EXPECT_NEAR(G(px, l, 1), d3 + 1000.0 * d2, 0.0, 1e-3, "determinant(mat3), (mat2) lane %d", l);
        const double i4 = inv[1][2] + 1024.0 * inv[3][0];
        EXPECT_NEAR(G(px, l, 2), i4, 0.0, 1e-4 * (fabs(inv[1][2]) + 1024.0 * fabs(inv[3][0])) + 1e-3,
                    "inverse(mat4) lane %d", l);
        /* the adjugates: adj(m2)[0][1] = -m[0][1]; adj(m3)[2][0] = m[1][0] m[2][1] - m[2][0] m[1][1] */
        const double a2 = -(double)m[0][1];
        const double a3 = (double)m[1][0] * m[2][1] - (double)m[2][0] * m[1][1];
        if (fabs(d2) > 0.5 && fabs(d3) > 0.5)
            EXPECT_NEAR(G(px, l, 3), a2 + 4096.0 * a3, 0.0, 1e-4 * (fabs(a2) + 4096.0 * fabs(a3)) + 1e-3,
                        "inverse(mat2), inverse(mat3) lane %d", l);
    }
    free(px);
}

/* ---- interpolation functions --------------------------------------------------------------- */

/* The varying is the framebuffer position of the vertex: affine (w = 1),
 * so at (x, y) + offset it is (x, y) + offset. */
static const char *const interp_vs = "#version 450\n"
                                     "layout(location = 0) out float fx;\n"
                                     "layout(location = 1) out vec2 fxy;\n"
                                     "void main() {\n"
                                     "    vec2 p = vec2(float((gl_VertexIndex & 1) * 4) - 1.0, float((gl_VertexIndex & 2) * 2) - 1.0);\n"
                                     "    gl_Position = vec4(p, 0.0, 1.0);\n"
                                     "    fx = (p.x + 1.0) * 8.0; fxy = (p + 1.0) * 8.0;\n"
                                     "}\n";

static void check_interp(const char *fs, uint32_t samples, const float want_off[4][2], const char *what)
{
    spvh_draw d;
    memset(&d, 0, sizeof d);
    d.vs = interp_vs;
    d.fs = fs;
    d.samples = samples;
    uint32_t *px = spvh_render(&d);
    for (uint32_t y = 0; y < 16; y++)
        for (uint32_t x = 0; x < 16; x++) {
            const uint32_t *p = spvh_px(px, 16, x, y);
            EXPECT_NEAR(spvh_u2f(p[0]), x + want_off[0][0], 0.0, 1e-4, "%s [0] at (%u, %u)", what, x, y);
            EXPECT_NEAR(spvh_u2f(p[1]), x + want_off[1][0], 0.0, 1e-4, "%s [1] at (%u, %u)", what, x, y);
            EXPECT_NEAR(spvh_u2f(p[2]), x + want_off[2][0], 0.0, 1e-4, "%s [2].x at (%u, %u)", what, x, y);
            EXPECT_NEAR(spvh_u2f(p[3]), y + want_off[2][1], 0.0, 1e-4, "%s [2].y at (%u, %u)", what, x, y);
        }
    free(px);
}

SPVH_TEST2(spirv_glsl450, interpolate_at_centroid_and_offset, .disabled = 0)
{
    static const float off[4][2] = {{0.5f, 0.5f}, {0.5f, 0.5f}, {0.75f, 0.125f}};
    check_interp("#version 450\n"
                 "layout(location = 0) in float fx;\n"
                 "layout(location = 1) in vec2 fxy;\n"
                 "layout(location = 0) out uvec4 o;\n"
                 "void main() {\n"
                 "    o = floatBitsToUint(vec4(interpolateAtCentroid(fx), fx, interpolateAtOffset(fxy, vec2(0.25, -0.375))));\n"
                 "}\n",
                 1, off, "interpolateAtCentroid / AtOffset");
}

/* 4x: sample 2 lies at (0.125, 0.625) of the pixel. */
SPVH_TEST2(spirv_glsl450, interpolate_at_sample, .disabled = 0)
{
    static const float off[4][2] = {{0.5f, 0.5f}, {0.125f, 0.625f}, {0.875f, 0.375f}};
    check_interp("#version 450\n"
                 "layout(location = 0) in float fx;\n"
                 "layout(location = 1) in vec2 fxy;\n"
                 "layout(location = 0) out uvec4 o;\n"
                 "void main() {\n"
                 "    o = floatBitsToUint(vec4(fx, interpolateAtSample(fx, 2), interpolateAtSample(fxy, 1)));\n"
                 "}\n",
                 4, off, "interpolateAtSample");
}
