/* SPIR-V execution: arithmetic (shader.h, "Arithmetic: the same bits
 * everywhere").  Each pixel reads its own operands from a uniform buffer
 * (lane = y * 16 + x), so the 64 lanes of a block all differ; results come
 * back as bits through an R32G32B32A32_UINT attachment and are compared with
 * C's IEEE float32 / two's-complement arithmetic, bit for bit. */
#include "spv_harness.h"

#include <float.h>
#include <limits.h>

#define HEAD SPVH_LANES_HEAD(256)

static uint32_t in[256][4];

/* ---- float ----------------------------------------------------------------------------------- */

static const float fspecial[16] = {0.0f, -0.0f, 1.0f, -1.0f, 1.5f, 3.0f, 0.1f, 1e30f,
                                   1e-40f /* denormal */, -0x1p-149f, 0x1p-126f, FLT_MAX,
                                   -FLT_MAX, INFINITY, -INFINITY, NAN};

static void fill_float_pairs(void)
{
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++) {
            in[i * 16 + j][0] = spvh_f2u(fspecial[i]);
            in[i * 16 + j][1] = spvh_f2u(fspecial[j]);
            in[i * 16 + j][2] = in[i * 16 + j][3] = 0;
        }
}

SPVH_TEST2(spirv_arith, float_add_sub_mul_div, .disabled = 0)
{
    fill_float_pairs();
    uint32_t *px = spvh_run_lanes(HEAD "void main() {\n"
                                       "    uvec4 a = arg(); float x = uintBitsToFloat(a.x), y = uintBitsToFloat(a.y);\n"
                                       "    o = uvec4(floatBitsToUint(x + y), floatBitsToUint(x - y),\n"
                                       "              floatBitsToUint(x * y), floatBitsToUint(x / y));\n"
                                       "}\n",
                                  in, 256);
    for (int l = 0; l < 256; l++) {
        volatile float x = spvh_u2f(in[l][0]), y = spvh_u2f(in[l][1]);
        SPVH_EXPECT_F32(px[4 * l + 0], x + y, "%a + %a", (double)x, (double)y);
        SPVH_EXPECT_F32(px[4 * l + 1], x - y, "%a - %a", (double)x, (double)y);
        SPVH_EXPECT_F32(px[4 * l + 2], x * y, "%a * %a", (double)x, (double)y);
        SPVH_EXPECT_F32(px[4 * l + 3], x / y, "%a / %a", (double)x, (double)y);
    }
    /* spot checks of what the rules imply */
    SPVH_EXPECT_F32(px[4 * (8 * 16 + 2) + 2], 1e-40f, "denormal * 1 is kept, not flushed");
    SPVH_EXPECT_F32(px[4 * (0 * 16 + 1) + 0], 0.0f, "0 + -0 = +0");
    SPVH_EXPECT_F32(px[4 * (1 * 16 + 1) + 0], -0.0f, "-0 + -0 = -0");
    SPVH_EXPECT_F32(px[4 * (2 * 16 + 1) + 3], -INFINITY, "1 / -0 = -inf");
    free(px);
}

/* No contraction: x * y + z is two roundings, never an FMA. */
Test(spirv_arith, no_contraction)
{
    for (int l = 0; l < 256; l++) {
        const float x = 1.0f + (float)l * 0x1p-12f, y = 1.0f - (float)(l + 1) * 0x1p-13f;
        volatile float p = x * y;
        in[l][0] = spvh_f2u(x);
        in[l][1] = spvh_f2u(y);
        in[l][2] = spvh_f2u(-p);
        in[l][3] = 0;
    }
    uint32_t *px = spvh_run_lanes(HEAD "void main() {\n"
                                       "    uvec4 a = arg();\n"
                                       "    float x = uintBitsToFloat(a.x), y = uintBitsToFloat(a.y), z = uintBitsToFloat(a.z);\n"
                                       "    float r = x * y + z;\n"
                                       "    float s = z + x * y;\n"
                                       "    o = uvec4(floatBitsToUint(r), floatBitsToUint(s), floatBitsToUint(-x), 0u);\n"
                                       "}\n",
                                  in, 256);
    for (int l = 0; l < 256; l++) {
        volatile float x = spvh_u2f(in[l][0]), y = spvh_u2f(in[l][1]), z = spvh_u2f(in[l][2]);
        volatile float p = x * y;
        SPVH_EXPECT_F32(px[4 * l + 0], p + z, "lane %d: x*y+z must be exactly 0 (fma would give the rounding error)", l);
        SPVH_EXPECT_F32(px[4 * l + 1], z + p, "lane %d", l);
        SPVH_EXPECT_F32(px[4 * l + 2], -x, "lane %d", l);
    }
    free(px);
}

/* Ordered comparisons (GLSL's <, <=, >, >=, ==), isnan, isinf, and != */
SPVH_TEST2(spirv_arith, float_compare_ordered, .disabled = 0)
{
    fill_float_pairs();
    static const char *const fs = HEAD "void main() {\n"
                                       "    uvec4 a = arg(); float x = uintBitsToFloat(a.x), y = uintBitsToFloat(a.y);\n"
                                       "    uint c = 0u;\n"
                                       "    if (x < y) c |= 1u;\n"
                                       "    if (x <= y) c |= 2u;\n"
                                       "    if (x > y) c |= 4u;\n"
                                       "    if (x >= y) c |= 8u;\n"
                                       "    if (x == y) c |= 16u;\n"
                                       "    if (isnan(x)) c |= 64u;\n"
                                       "    if (isinf(x)) c |= 128u;\n"
                                       "    o = uvec4(c, (x != y) ? 1u : 0u, floatBitsToUint(-x), 0u);\n"
                                       "}\n";
    /* != is OpFUnordNotEqual (true with a NaN) in recent glslang, OpFOrdNotEqual in old ones */
    size_t nw = 0;
    uint32_t *words = spvh_compile(fs, shaderc_fragment_shader, &nw);
    char *text = spvh_disassemble(words, nw);
    const int unord_ne = strstr(text, "OpFUnordNotEqual") != NULL;
    cr_assert(unord_ne || strstr(text, "OpFOrdNotEqual"), "no float != in:\n%s", text);
    free(text);
    free(words);
    uint32_t *px = spvh_run_lanes(fs, in, 256);
    for (int l = 0; l < 256; l++) {
        const float x = spvh_u2f(in[l][0]), y = spvh_u2f(in[l][1]);
        const uint32_t c = (x < y) | (x <= y) << 1 | (x > y) << 2 | (x >= y) << 3 | (x == y) << 4 |
                           (isnan(x) != 0) << 6 | (isinf(x) != 0) << 7;
        SPVH_EXPECT_U32(px[4 * l], c, "compare %a %a", (double)x, (double)y);
        const uint32_t ne = unord_ne ? (uint32_t)(x != y) : (uint32_t)(!isnan(x) && !isnan(y) && x != y);
        SPVH_EXPECT_U32(px[4 * l + 1], ne, "%a != %a (%s)", (double)x, (double)y,
                        unord_ne ? "OpFUnordNotEqual" : "OpFOrdNotEqual");
        SPVH_EXPECT_F32(px[4 * l + 2], -x, "-%a", (double)x);
        if (isnan(x))
            cr_expect_eq(px[4 * l + 2] >> 31, (spvh_f2u(x) >> 31) ^ 1u, "OpFNegate flips the sign of a NaN");
    }
    free(px);
}

/* The unordered and ordered forms of every comparison (GLSL emits only
 * some of them: the others are patched in). */
SPVH_TEST2(spirv_arith, float_compare_unordered, .disabled = 0)
{
    fill_float_pairs();
    static const char *const from[] = {"OpFOrdLessThan ", "OpFOrdGreaterThanEqual ", "OpFOrdEqual "};
    static const char *const to[] = {"OpFUnordLessThan ", "OpFUnordGreaterThanEqual ", "OpFUnordEqual "};
    size_t n = 0;
    uint32_t *words = spvh_compile_patched(HEAD "void main() {\n"
                                                "    uvec4 a = arg(); float x = uintBitsToFloat(a.x), y = uintBitsToFloat(a.y);\n"
                                                "    uint c = 0u;\n"
                                                "    if (x < y) c |= 1u;\n"
                                                "    if (x >= y) c |= 2u;\n"
                                                "    if (x == y) c |= 4u;\n"
                                                "    o = uvec4(c, 0u, 0u, 0u);\n"
                                                "}\n",
                                           shaderc_fragment_shader, from, to, 3, &n);
    spvh_draw d;
    memset(&d, 0, sizeof d);
    d.fs_words = words;
    d.fs_word_count = n;
    d.fs = "(patched)";
    d.ubo[0] = (spvh_ubo){0, in, sizeof in};
    uint32_t *px = spvh_render(&d);
    for (int l = 0; l < 256; l++) {
        const float x = spvh_u2f(in[l][0]), y = spvh_u2f(in[l][1]);
        const uint32_t un = isnan(x) || isnan(y);
        const uint32_t c = ((x < y) | un) | ((x >= y) | un) << 1 | ((x == y) | un) << 2;
        SPVH_EXPECT_U32(px[4 * l], c, "unordered compare %a %a", (double)x, (double)y);
    }
    free(px);
    free(words);
}

/* ---- integers ---------------------------------------------------------------------------------- */

static const int32_t ispecial[16] = {0, 1, -1, 2, -2, 7, -7, 3, 31, 32, 33, INT32_MAX, INT32_MIN, 0x12345678,
                                     -100, 1000000};

static void fill_int_pairs(void)
{
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++) {
            in[i * 16 + j][0] = (uint32_t)ispecial[i];
            in[i * 16 + j][1] = (uint32_t)ispecial[j];
            in[i * 16 + j][2] = in[i * 16 + j][3] = 0;
        }
}

static uint32_t sdiv(int32_t x, int32_t y)
{
    if (y == 0)
        return 0;
    if (x == INT32_MIN && y == -1)
        return (uint32_t)INT32_MIN;
    return (uint32_t)(x / y);
}

SPVH_TEST2(spirv_arith, int_add_mul_div_wrap, .disabled = 0)
{
    fill_int_pairs();
    uint32_t *px = spvh_run_lanes(HEAD "void main() {\n"
                                       "    ivec4 a = ivec4(arg()); int x = a.x, y = a.y;\n"
                                       "    o = uvec4(x + y, x * y, x / y, x - y);\n"
                                       "}\n",
                                  in, 256);
    for (int l = 0; l < 256; l++) {
        const int32_t x = (int32_t)in[l][0], y = (int32_t)in[l][1];
        SPVH_EXPECT_U32(px[4 * l + 0], (uint32_t)x + (uint32_t)y, "%d + %d wraps", x, y);
        SPVH_EXPECT_U32(px[4 * l + 1], (uint32_t)x * (uint32_t)y, "%d * %d wraps", x, y);
        SPVH_EXPECT_U32(px[4 * l + 2], sdiv(x, y), "%d / %d (by 0: 0; INT_MIN / -1: INT_MIN)", x, y);
        SPVH_EXPECT_U32(px[4 * l + 3], (uint32_t)x - (uint32_t)y, "%d - %d wraps", x, y);
    }
    free(px);
}

static uint32_t shl(uint32_t x, uint32_t s) { return s >= 32 ? 0 : x << s; }
static uint32_t shr(uint32_t x, uint32_t s) { return s >= 32 ? 0 : x >> s; }
static uint32_t sar(int32_t x, uint32_t s)
{
    if (s >= 32)
        return x < 0 ? 0xffffffffu : 0u;
    return x < 0 ? ~(~(uint32_t)x >> s) : (uint32_t)x >> s;
}

SPVH_TEST2(spirv_arith, shifts_and_unsigned_div, .disabled = 0)
{
    fill_int_pairs();
    uint32_t *px = spvh_run_lanes(HEAD "void main() {\n"
                                       "    uvec4 a = arg(); int xi = int(a.x); uint xu = a.x, yu = a.y; int s = int(a.y);\n"
                                       "    o = uvec4(uint(xi << s), uint(xi >> s), xu >> yu, xu / yu);\n"
                                       "}\n",
                                  in, 256);
    for (int l = 0; l < 256; l++) {
        const uint32_t x = in[l][0], s = in[l][1];
        SPVH_EXPECT_U32(px[4 * l + 0], shl(x, s), "0x%x << %u (>= 32: 0)", x, s);
        SPVH_EXPECT_U32(px[4 * l + 1], sar((int32_t)x, s), "%d >> %u arithmetic (>= 32: the sign)", (int32_t)x, s);
        SPVH_EXPECT_U32(px[4 * l + 2], shr(x, s), "0x%x >> %u logical", x, s);
        SPVH_EXPECT_U32(px[4 * l + 3], s ? x / s : 0u, "%u / %u unsigned (by 0: 0)", x, s);
    }
    free(px);
}

SPVH_TEST2(spirv_arith, remainders_negate_not, .disabled = 0)
{
    fill_int_pairs();
    uint32_t *px = spvh_run_lanes(HEAD "void main() {\n"
                                       "    uvec4 a = arg(); int x = int(a.x), y = int(a.y);\n"
                                       "    o = uvec4(uint(x % y), a.x % a.y, uint(-x), uint(~x));\n"
                                       "}\n",
                                  in, 256);
    for (int l = 0; l < 256; l++) {
        const int32_t x = (int32_t)in[l][0], y = (int32_t)in[l][1];
        if (x >= 0 && y > 0) /* GLSL leaves % of negative operands undefined */
            SPVH_EXPECT_U32(px[4 * l + 0], (uint32_t)(x % y), "%d %% %d", x, y);
        if (y != 0)
            SPVH_EXPECT_U32(px[4 * l + 1], in[l][0] % in[l][1], "%u %% %u", in[l][0], in[l][1]);
        SPVH_EXPECT_U32(px[4 * l + 2], 0u - (uint32_t)x, "-%d wraps (INT_MIN stays)", x);
        SPVH_EXPECT_U32(px[4 * l + 3], ~(uint32_t)x, "~%d", x);
    }
    free(px);
}

/* ---- conversions ------------------------------------------------------------------------------- */

static const float cvt_in[32] = {0.0f, -0.0f, 2.7f, -2.7f, 0.5f, -0.5f, -0.99999994f, 1e10f, -1e10f, 3e9f, -3e9f,
                                 2147483520.0f, 2147483648.0f, -2147483648.0f, -2147483904.0f, 4294967040.0f,
                                 4294967296.0f, INFINITY, -INFINITY, NAN, -NAN, 1e-40f, 16777217.0f, 123456.789f,
                                 -1.0f, 1.0f, 65535.5f, -65535.5f, FLT_MAX, -FLT_MAX, 0x1p-149f, 7.0f};

static uint32_t f2i(float f)
{
    if (isnan(f))
        return 0;
    if (f >= 2147483648.0f)
        return (uint32_t)INT32_MAX;
    if (f < -2147483648.0f)
        return (uint32_t)INT32_MIN;
    return (uint32_t)(int32_t)f;
}

static uint32_t f2u(float f)
{
    if (isnan(f) || f <= -1.0f)
        return 0;
    if (f >= 4294967296.0f)
        return UINT32_MAX;
    return f < 0 ? 0u : (uint32_t)f;
}

static const int32_t icvt[8] = {16777217, -16777217, INT32_MAX, INT32_MIN, 0x7fffffc0, 3, -1, 0x0123457};

SPVH_TEST2(spirv_arith, conversions_saturate, .disabled = 0)
{
    for (int l = 0; l < 256; l++) {
        in[l][0] = spvh_f2u(cvt_in[l % 32]);
        in[l][1] = (uint32_t)icvt[l % 8];
        in[l][2] = l < 128 ? (uint32_t)icvt[(l / 8) % 8] : 0xffffffffu - (uint32_t)l * 977u;
        in[l][3] = 0;
    }
    uint32_t *px = spvh_run_lanes(HEAD "void main() {\n"
                                       "    uvec4 a = arg(); float x = uintBitsToFloat(a.x);\n"
                                       "    o = uvec4(uint(int(x)), uint(x), floatBitsToUint(float(int(a.y))),\n"
                                       "              floatBitsToUint(float(a.z)));\n"
                                       "}\n",
                                  in, 256);
    for (int l = 0; l < 256; l++) {
        const float x = spvh_u2f(in[l][0]);
        SPVH_EXPECT_U32(px[4 * l + 0], f2i(x), "int(%a) saturates, NaN -> 0", (double)x);
        SPVH_EXPECT_U32(px[4 * l + 1], f2u(x), "uint(%a) saturates, NaN -> 0", (double)x);
        SPVH_EXPECT_F32(px[4 * l + 2], (float)(int32_t)in[l][1], "float(%d), round to nearest even",
                        (int32_t)in[l][1]);
        SPVH_EXPECT_F32(px[4 * l + 3], (float)in[l][2], "float(%uu)", in[l][2]);
    }
    free(px);
}

SPVH_TEST2(spirv_arith, bitcasts, .disabled = 0)
{
    for (int l = 0; l < 256; l++) {
        in[l][0] = 0x9e3779b9u * (uint32_t)l;
        in[l][1] = spvh_f2u(cvt_in[l % 32]);
        in[l][2] = in[l][3] = 0;
    }
    uint32_t *px = spvh_run_lanes(HEAD "void main() {\n"
                                       "    uvec4 a = arg();\n"
                                       "    float f = intBitsToFloat(int(a.x));\n"
                                       "    int i = floatBitsToInt(uintBitsToFloat(a.y));\n"
                                       "    o = uvec4(floatBitsToUint(f), uint(i), uint(floatBitsToInt(f)) ^ a.x, 0u);\n"
                                       "}\n",
                                  in, 256);
    for (int l = 0; l < 256; l++) {
        SPVH_EXPECT_U32(px[4 * l + 0], in[l][0], "a bitcast keeps every bit (NaN payloads included)");
        SPVH_EXPECT_U32(px[4 * l + 1], in[l][1], "lane %d", l);
        SPVH_EXPECT_U32(px[4 * l + 2], 0u, "lane %d", l);
    }
    free(px);
}

/* ---- bit operations ---------------------------------------------------------------------------- */

static uint32_t mask(uint32_t bits) { return bits >= 32 ? 0xffffffffu : (1u << bits) - 1u; }

static uint32_t ext_u(uint32_t x, uint32_t off, uint32_t bits) { return bits ? (x >> off) & mask(bits) : 0u; }

static uint32_t ext_s(uint32_t x, uint32_t off, uint32_t bits)
{
    if (!bits)
        return 0;
    const uint32_t v = ext_u(x, off, bits);
    return (v >> (bits - 1)) & 1u ? v | ~mask(bits) : v;
}

static uint32_t insert(uint32_t base, uint32_t ins, uint32_t off, uint32_t bits)
{
    if (!bits)
        return base;
    const uint32_t m = mask(bits) << off;
    return (base & ~m) | ((ins << off) & m);
}

static uint32_t reverse(uint32_t x)
{
    uint32_t r = 0;
    for (int i = 0; i < 32; i++)
        r |= ((x >> i) & 1u) << (31 - i);
    return r;
}

static void fill_bits(void)
{
    trt_rng rng = {1234};
    for (int l = 0; l < 256; l++) {
        const uint32_t off = (uint32_t)(l * 7) % 32u, bits = (uint32_t)l % (33u - off);
        in[l][0] = trt_rand_u32(&rng);
        in[l][1] = l % 5 == 0 ? 0xffffffffu : trt_rand_u32(&rng);
        in[l][2] = off;
        in[l][3] = bits;
    }
    in[0][0] = 0;
    in[1][0] = 0xffffffffu;
}

SPVH_TEST2(spirv_arith, bitfield_extract_insert, .disabled = 0)
{
    fill_bits();
    uint32_t *px = spvh_run_lanes(HEAD "void main() {\n"
                                       "    uvec4 a = arg(); int off = int(a.z), bits = int(a.w);\n"
                                       "    o = uvec4(bitfieldExtract(a.x, off, bits), uint(bitfieldExtract(int(a.x), off, bits)),\n"
                                       "              bitfieldInsert(a.x, a.y, off, bits), uint(bitfieldInsert(int(a.y), int(a.x), off, bits)));\n"
                                       "}\n",
                                  in, 256);
    for (int l = 0; l < 256; l++) {
        const uint32_t x = in[l][0], y = in[l][1], off = in[l][2], bits = in[l][3];
        SPVH_EXPECT_U32(px[4 * l + 0], ext_u(x, off, bits), "bitfieldExtract(0x%x, %u, %u)", x, off, bits);
        SPVH_EXPECT_U32(px[4 * l + 1], ext_s(x, off, bits), "bitfieldExtract(int 0x%x, %u, %u)", x, off, bits);
        SPVH_EXPECT_U32(px[4 * l + 2], insert(x, y, off, bits), "bitfieldInsert(0x%x, 0x%x, %u, %u)", x, y, off, bits);
        SPVH_EXPECT_U32(px[4 * l + 3], insert(y, x, off, bits), "bitfieldInsert(int 0x%x, 0x%x, %u, %u)", y, x, off,
                        bits);
    }
    free(px);
}

SPVH_TEST2(spirv_arith, bitcount_reverse_logic, .disabled = 0)
{
    fill_bits();
    uint32_t *px = spvh_run_lanes(HEAD "void main() {\n"
                                       "    uvec4 a = arg();\n"
                                       "    o = uvec4(uint(bitCount(a.x)) | (uint(bitCount(int(a.y))) << 8), bitfieldReverse(a.x),\n"
                                       "              uint(bitfieldReverse(int(a.y))), (a.x & a.y) ^ (a.x | ~a.y));\n"
                                       "}\n",
                                  in, 256);
    for (int l = 0; l < 256; l++) {
        const uint32_t x = in[l][0], y = in[l][1];
        SPVH_EXPECT_U32(px[4 * l + 0], (uint32_t)__builtin_popcount(x) | (uint32_t)__builtin_popcount(y) << 8,
                        "bitCount(0x%x), bitCount(0x%x)", x, y);
        SPVH_EXPECT_U32(px[4 * l + 1], reverse(x), "bitfieldReverse(0x%x)", x);
        SPVH_EXPECT_U32(px[4 * l + 2], reverse(y), "bitfieldReverse(0x%x)", y);
        SPVH_EXPECT_U32(px[4 * l + 3], (x & y) ^ (x | ~y), "lane %d", l);
    }
    free(px);
}

/* ---- bools ---------------------------------------------------------------------------------------- */

SPVH_TEST2(spirv_arith, bools_select_mix_any_all, .disabled = 0)
{
    for (int l = 0; l < 256; l++) {
        in[l][0] = (uint32_t)l;
        in[l][1] = (uint32_t)(l * 37 % 256);
        in[l][2] = in[l][3] = 0;
    }
    uint32_t *px = spvh_run_lanes(HEAD "void main() {\n"
                                       "    uvec4 a = arg();\n"
                                       "    bvec4 b = bvec4((a.x & 1u) != 0u, (a.x & 2u) != 0u, (a.x & 4u) != 0u, (a.x & 8u) != 0u);\n"
                                       "    bvec4 c = lessThan(uvec4(a.x, a.y, a.x ^ a.y, 77u), uvec4(a.y, a.x, 100u, a.x));\n"
                                       "    vec4 m = mix(vec4(1.0, 2.0, 3.0, 4.0), vec4(-1.0, -2.0, -3.0, -4.0), b);\n"
                                       "    uvec4 s = mix(uvec4(10u), uvec4(20u, 21u, 22u, 23u), c);\n"
                                       "    bool x = (b.x ^^ c.y) || (b.z && !c.w);\n"
                                       "    uint bits = (any(b) ? 1u : 0u) | (all(c) ? 2u : 0u) | (x ? 4u : 0u) |\n"
                                       "                (any(equal(b, c)) ? 8u : 0u) | (all(not(b)) ? 16u : 0u);\n"
                                       "    uvec4 u = uvec4(b) + 2u * uvec4(c);\n"
                                       "    o = uvec4(floatBitsToUint(m.x + 10.0 * m.y + 100.0 * m.z + 1000.0 * m.w),\n"
                                       "              s.x + 100u * s.y + 10000u * s.z + 1000000u * s.w, bits,\n"
                                       "              u.x | (u.y << 4) | (u.z << 8) | (u.w << 12));\n"
                                       "}\n",
                                  in, 256);
    for (int l = 0; l < 256; l++) {
        const uint32_t ax = in[l][0], ay = in[l][1];
        const int b[4] = {(ax & 1) != 0, (ax & 2) != 0, (ax & 4) != 0, (ax & 8) != 0};
        const int c[4] = {ax < ay, ay < ax, (ax ^ ay) < 100, 77 < ax};
        float m[4];
        uint32_t s[4];
        for (int k = 0; k < 4; k++) {
            m[k] = b[k] ? -(float)(k + 1) : (float)(k + 1);
            s[k] = c[k] ? 20u + (uint32_t)k : 10u;
        }
        const int x = (b[0] != c[1]) || (b[2] && !c[3]);
        const uint32_t bits = (uint32_t)(b[0] | b[1] | b[2] | b[3]) | (uint32_t)(c[0] & c[1] & c[2] & c[3]) << 1 |
                              (uint32_t)x << 2 |
                              (uint32_t)(b[0] == c[0] || b[1] == c[1] || b[2] == c[2] || b[3] == c[3]) << 3 |
                              (uint32_t)(!b[0] && !b[1] && !b[2] && !b[3]) << 4;
        uint32_t u = 0;
        for (int k = 0; k < 4; k++)
            u |= (uint32_t)(b[k] + 2 * c[k]) << (4 * k);
        SPVH_EXPECT_F32(px[4 * l + 0], m[0] + 10.0f * m[1] + 100.0f * m[2] + 1000.0f * m[3], "mix(bvec) lane %d", l);
        SPVH_EXPECT_U32(px[4 * l + 1], s[0] + 100u * s[1] + 10000u * s[2] + 1000000u * s[3], "mix(uvec, bvec) lane %d",
                        l);
        SPVH_EXPECT_U32(px[4 * l + 2], bits, "bool ops lane %d", l);
        SPVH_EXPECT_U32(px[4 * l + 3], u, "uvec4(bvec4) lane %d", l);
    }
    free(px);
}

/* ---- vectors and matrices ---------------------------------------------------------------------- */

/* Entries are multiples of 1/2 below 8 in magnitude, so every product and
 * sum is exact: the order of a dot product's additions cannot change a bit
 * (shader.h does not state it). */
static float mval(int l, int c, int r) { return (float)((l + 3 * c + 5 * r) % 9 - 4) * 0.5f; }

SPVH_TEST2(spirv_arith, matrices_exact, .disabled = 0)
{
    for (int l = 0; l < 256; l++) {
        in[l][0] = (uint32_t)l;
        in[l][1] = in[l][2] = in[l][3] = 0;
    }
    uint32_t *px = spvh_run_lanes(HEAD "float mval(int l, int c, int r) { return float((l + 3 * c + 5 * r) % 9 - 4) * 0.5; }\n"
                                       "void main() {\n"
                                       "    int l = int(arg().x);\n"
                                       "    mat4 m; mat3x2 n;\n"
                                       "    for (int c = 0; c < 4; c++) for (int r = 0; r < 4; r++) m[c][r] = mval(l, c, r);\n"
                                       "    for (int c = 0; c < 3; c++) for (int r = 0; r < 2; r++) n[c][r] = mval(l + 1, c, r);\n"
                                       "    vec4 v = vec4(mval(l, 7, 0), mval(l, 7, 1), mval(l, 7, 2), mval(l, 7, 3));\n"
                                       "    vec4 mv = m * v;\n"
                                       "    vec4 vm = v * m;\n"
                                       "    mat4 mm = m * transpose(m);\n"
                                       "    vec2 nv = n * v.xyz;\n"
                                       "    mat3 on = outerProduct(v.xyz, v.wzy);\n"
                                       "    mat4 cm = matrixCompMult(m, mm) * 0.5;\n"
                                       "    float d = dot(v, mv);\n"
                                       "    vec4 r = mv + 16.0 * vm;\n"
                                       "    o = uvec4(floatBitsToUint(r.x + r.y * 4096.0), floatBitsToUint(r.z + r.w * 4096.0),\n"
                                       "              floatBitsToUint(mm[1][2] + 256.0 * mm[3][0] + 65536.0 * (nv.x + 64.0 * nv.y)),\n"
                                       "              floatBitsToUint(d + 1024.0 * (on[2][1] + 64.0 * cm[2][3])));\n"
                                       "}\n",
                                  in, 256);
    for (int l = 0; l < 256; l++) {
        float m[4][4], n[3][2], v[4], mv[4], vm[4], mm[4][4], nv[2], on[3][3], cm[4][4];
        for (int c = 0; c < 4; c++)
            for (int r = 0; r < 4; r++)
                m[c][r] = mval(l, c, r);
        for (int c = 0; c < 3; c++)
            for (int r = 0; r < 2; r++)
                n[c][r] = mval(l + 1, c, r);
        for (int k = 0; k < 4; k++)
            v[k] = mval(l, 7, k);
        for (int r = 0; r < 4; r++) {
            mv[r] = m[0][r] * v[0] + m[1][r] * v[1] + m[2][r] * v[2] + m[3][r] * v[3];
            vm[r] = v[0] * m[r][0] + v[1] * m[r][1] + v[2] * m[r][2] + v[3] * m[r][3];
        }
        for (int c = 0; c < 4; c++) /* (m * m^T)[c][r] = sum_k m[k][r] * m^T[c][k] = sum_k m[k][r] * m[k][c] */
            for (int r = 0; r < 4; r++)
                mm[c][r] = m[0][r] * m[0][c] + m[1][r] * m[1][c] + m[2][r] * m[2][c] + m[3][r] * m[3][c];
        for (int r = 0; r < 2; r++)
            nv[r] = n[0][r] * v[0] + n[1][r] * v[1] + n[2][r] * v[2];
        const float w3[3] = {v[3], v[2], v[1]};
        for (int c = 0; c < 3; c++)
            for (int r = 0; r < 3; r++)
                on[c][r] = v[r] * w3[c];
        for (int c = 0; c < 4; c++)
            for (int r = 0; r < 4; r++)
                cm[c][r] = m[c][r] * mm[c][r] * 0.5f;
        const float d = v[0] * mv[0] + v[1] * mv[1] + v[2] * mv[2] + v[3] * mv[3];
        float r4[4];
        for (int k = 0; k < 4; k++)
            r4[k] = mv[k] + 16.0f * vm[k];
        SPVH_EXPECT_F32(px[4 * l + 0], r4[0] + r4[1] * 4096.0f, "m*v, v*m lane %d", l);
        SPVH_EXPECT_F32(px[4 * l + 1], r4[2] + r4[3] * 4096.0f, "m*v, v*m lane %d", l);
        SPVH_EXPECT_F32(px[4 * l + 2], mm[1][2] + 256.0f * mm[3][0] + 65536.0f * (nv[0] + 64.0f * nv[1]),
                        "m*transpose(m), mat3x2*vec3 lane %d", l);
        SPVH_EXPECT_F32(px[4 * l + 3], d + 1024.0f * (on[2][1] + 64.0f * cm[2][3]), "dot, outerProduct lane %d", l);
    }
    free(px);
}

/* ---- composites, structs, arrays, dynamic indexing ------------------------------------------------ */

SPVH_TEST2(spirv_arith, composites_and_dynamic_indexing, .disabled = 0)
{
    for (int l = 0; l < 256; l++) {
        in[l][0] = (uint32_t)l;
        in[l][1] = (uint32_t)(l * 13 % 256);
        in[l][2] = in[l][3] = 0;
    }
    uint32_t *px = spvh_run_lanes(HEAD "struct Inner { uint k; uvec2 p; };\n"
                                       "struct S { uint a; Inner in2[3]; uint arr[4]; };\n"
                                       "void main() {\n"
                                       "    uvec4 g = arg(); uint l = g.x, q = g.y;\n"
                                       "    uvec4 v = uvec4(l, l + 1u, l + 2u, l + 3u);\n"
                                       "    v.wx = v.xw;\n"                      /* swizzled store */
                                       "    v[2] = v.y * 10u;\n"                 /* insert */
                                       "    uvec3 sw = v.zyx + v.www;\n"
                                       "    S s = S(7u, Inner[3](Inner(1u, uvec2(2u, 3u)), Inner(4u, uvec2(5u, 6u)), Inner(8u, uvec2(9u, 10u))),\n"
                                       "            uint[4](11u, 12u, 13u, 14u));\n"
                                       "    s.in2[1].p.y = l;\n"
                                       "    s.arr[l % 4u] = 100u + q;\n"           /* dynamic store into a struct's array */
                                       "    uint local[16];\n"
                                       "    for (uint i = 0u; i < 16u; i++) local[i] = i * i + l;\n"
                                       "    local[q % 16u] = 999u;\n"
                                       "    uint pick = local[(l + q) % 16u];\n"  /* per-lane dynamic load */
                                       "    uvec4 vs[3] = uvec4[3](v, uvec4(sw, 0u), uvec4(q));\n"
                                       "    uint dyn = vs[l % 3u][q % 4u];\n"      /* two dynamic indices */
                                       "    o = uvec4(v.x | (v.y << 8) | (v.z << 16) ^ (v.w << 24), sw.x + sw.y * 1000u + sw.z * 1000000u,\n"
                                       "              s.a + s.in2[1].p.y * 10u + s.arr[0] * 10000u + s.arr[l % 4u] * 100000u + s.in2[2].p.x,\n"
                                       "              pick + (dyn << 16));\n"
                                       "}\n",
                                  in, 256);
    for (int li = 0; li < 256; li++) {
        const uint32_t l = in[li][0], q = in[li][1];
        uint32_t v[4] = {l, l + 1, l + 2, l + 3};
        const uint32_t t0 = v[0], t3 = v[3];
        v[3] = t0;
        v[0] = t3;
        v[2] = v[1] * 10u;
        const uint32_t sw[3] = {v[2] + v[3], v[1] + v[3], v[0] + v[3]};
        uint32_t arr[4] = {11, 12, 13, 14};
        arr[l % 4] = 100 + q;
        uint32_t local[16];
        for (uint32_t i = 0; i < 16; i++)
            local[i] = i * i + l;
        local[q % 16] = 999;
        const uint32_t pick = local[(l + q) % 16];
        const uint32_t vs[3][4] = {{v[0], v[1], v[2], v[3]}, {sw[0], sw[1], sw[2], 0}, {q, q, q, q}};
        const uint32_t dyn = vs[l % 3][q % 4];
        SPVH_EXPECT_U32(px[4 * li + 0], v[0] | (v[1] << 8) | ((v[2] << 16) ^ (v[3] << 24)), "swizzles lane %u", l);
        SPVH_EXPECT_U32(px[4 * li + 1], sw[0] + sw[1] * 1000u + sw[2] * 1000000u, "lane %u", l);
        SPVH_EXPECT_U32(px[4 * li + 2], 7u + l * 10u + arr[0] * 10000u + arr[l % 4] * 100000u + 9u, "struct lane %u", l);
        SPVH_EXPECT_U32(px[4 * li + 3], pick + (dyn << 16), "dynamic indexing lane %u", l);
    }
    free(px);
}

/* ---- specialization constants (their default values) --------------------------------------------- */

SPVH_TEST2(spirv_arith, specialization_constants_defaults, .disabled = 0)
{
    for (int l = 0; l < 256; l++) {
        in[l][0] = (uint32_t)l;
        in[l][1] = in[l][2] = in[l][3] = 0;
    }
    uint32_t *px = spvh_run_lanes(HEAD "layout(constant_id = 0) const int K = 7;\n"
                                       "layout(constant_id = 1) const float F = 2.5;\n"
                                       "layout(constant_id = 2) const bool B = true;\n"
                                       "layout(constant_id = 3) const uint U = 0x80000000u;\n"
                                       "const int K3 = K * 3 + 1;\n"           /* OpSpecConstantOp */
                                       "void main() {\n"
                                       "    int l = int(arg().x);\n"
                                       "    float arr[K];\n"                      /* an array sized by a spec constant */
                                       "    for (int i = 0; i < K; i++) arr[i] = float(i) * F;\n"
                                       "    o = uvec4(uint(K3 + l), floatBitsToUint(arr[l % K]), B ? U | uint(l) : 0u, uint(arr.length()));\n"
                                       "}\n",
                                  in, 256);
    for (uint32_t l = 0; l < 256; l++) {
        SPVH_EXPECT_U32(px[4 * l + 0], 22u + l, "K * 3 + 1 + lane");
        SPVH_EXPECT_F32(px[4 * l + 1], (float)(l % 7) * 2.5f, "lane %u", l);
        SPVH_EXPECT_U32(px[4 * l + 2], 0x80000000u | l, "lane %u", l);
        SPVH_EXPECT_U32(px[4 * l + 3], 7u, "array length");
    }
    free(px);
}

/* ---- the lanes differ: a whole 64 x 64 target of one expression --------------------------------- */

Test(spirv_arith, frag_coord_expression_every_pixel)
{
    spvh_draw d;
    memset(&d, 0, sizeof d);
    d.w = 64;
    d.h = 48;
    d.fs = "#version 450\n"
           "layout(location = 0) out uvec4 o;\n"
           "void main() {\n"
           "    float x = gl_FragCoord.x, y = gl_FragCoord.y;\n"
           "    float v = x * 0.37 + y * y * 1.3 - x / (y + 0.1);\n"
           "    o = uvec4(floatBitsToUint(v), floatBitsToUint(gl_FragCoord.x), floatBitsToUint(gl_FragCoord.y),\n"
           "              uint(int(x) * 7 - int(y) * 1000));\n"
           "}\n";
    uint32_t *px = spvh_render(&d);
    for (uint32_t y = 0; y < 48; y++)
        for (uint32_t x = 0; x < 64; x++) {
            const float fx = (float)x + 0.5f, fy = (float)y + 0.5f;
            const float v = fx * 0.37f + fy * fy * 1.3f - fx / (fy + 0.1f);
            const uint32_t *p = spvh_px(px, 64, x, y);
            SPVH_EXPECT_F32(p[0], v, "(%u, %u)", x, y);
            SPVH_EXPECT_F32(p[1], fx, "gl_FragCoord.x at (%u, %u)", x, y);
            SPVH_EXPECT_F32(p[2], fy, "gl_FragCoord.y at (%u, %u)", x, y);
            SPVH_EXPECT_U32(p[3], (uint32_t)((int32_t)x * 7 - (int32_t)y * 1000), "(%u, %u)", x, y);
        }
    free(px);
}

/* Structs and matrices through functions: by value, out, inout; a struct returned. */
SPVH_TEST2(spirv_arith, structs_and_matrices_through_functions, .disabled = 0)
{
    for (int l = 0; l < 256; l++) {
        in[l][0] = (uint32_t)l;
        in[l][1] = in[l][2] = in[l][3] = 0;
    }
    uint32_t *px = spvh_run_lanes(HEAD "struct P { ivec2 a; int arr[3]; };\n"
                                       "P make(int l) { P p; p.a = ivec2(l, -l); for (int i = 0; i < 3; i++) p.arr[i] = l * (i + 1); return p; }\n"
                                       "void twist(inout P p, out mat2 m, int k) { p.arr[k % 3] += 1000; p.a = p.a.yx; m = mat2(float(p.a.x), 1.0, 2.0, float(k)); }\n"
                                       "int sum(P p) { p.arr[0] = 0; return p.a.x + p.arr[1] + p.arr[2]; }\n"
                                       "void main() {\n"
                                       "    int l = int(arg().x);\n"
                                       "    P p = make(l); mat2 m;\n"
                                       "    twist(p, m, l);\n"
                                       "    int s = sum(p);\n"                                /* by value: p.arr[0] unchanged here */
                                       "    m[l & 1][1] = 5.0;\n"                               /* dynamic column of a local matrix */
                                       "    o = uvec4(uint(s), uint(p.arr[0]), floatBitsToUint(m[0][0] + m[1][1] * 16.0), floatBitsToUint(m[0][1] + m[1][0] * 16.0));\n"
                                       "}\n",
                                  in, 256);
    for (int l = 0; l < 256; l++) {
        int a0 = l, a1 = -l, arr[3] = {l, 2 * l, 3 * l};
        arr[l % 3] += 1000;
        const int t = a0;
        a0 = a1, a1 = t;
        float m[2][2] = {{(float)a0, 1.0f}, {2.0f, (float)l}};
        const int s = a0 + arr[1] + arr[2];
        m[l & 1][1] = 5.0f;
        SPVH_EXPECT_U32(px[4 * l], (uint32_t)s, "lane %d", l);
        SPVH_EXPECT_U32(px[4 * l + 1], (uint32_t)arr[0], "lane %d: a by-value parameter's change stays inside", l);
        SPVH_EXPECT_F32(px[4 * l + 2], m[0][0] + m[1][1] * 16.0f, "lane %d", l);
        SPVH_EXPECT_F32(px[4 * l + 3], m[0][1] + m[1][0] * 16.0f, "lane %d", l);
    }
    free(px);
}

/* mod() is OpFMod: x - y * floor(x / y), the sign of y (Vulkan: precision
 * inherited from that formula; values here make every step exact, so the
 * result is exact whatever the implementation's order). */
SPVH_TEST2(spirv_arith, fmod_exact_cases, .disabled = 0)
{
    for (int l = 0; l < 256; l++) {
        const float x = (float)((l * 37) % 401 - 200) * 0.25f, y = (float)((l % 15) - 7) * 0.5f;
        in[l][0] = spvh_f2u(x);
        in[l][1] = spvh_f2u(y == 0.0f ? 1.5f : y);
        in[l][2] = in[l][3] = 0;
    }
    uint32_t *px = spvh_run_lanes(HEAD "void main() {\n"
                                       "    uvec4 a = arg(); float x = uintBitsToFloat(a.x), y = uintBitsToFloat(a.y);\n"
                                       "    o = uvec4(floatBitsToUint(mod(x, y)), floatBitsToUint(mod(vec2(x), y).y), 0u, 0u);\n"
                                       "}\n",
                                  in, 256);
    for (int l = 0; l < 256; l++) {
        const double x = spvh_u2f(in[l][0]), y = spvh_u2f(in[l][1]);
        const double want = x - y * floor(x / y);
        cr_expect(spvh_u2f(px[4 * l]) == (float)want, "mod(%g, %g) = %a, want %g", x, y, (double)spvh_u2f(px[4 * l]),
                  want);
        SPVH_EXPECT_U32(px[4 * l + 1], px[4 * l], "mod(vec2, float) lane %d", l);
    }
    free(px);
}

/* uaddCarry, usubBorrow, umulExtended, imulExtended: OpIAddCarry,
 * OpISubBorrow, OpUMulExtended, OpSMulExtended. */
SPVH_TEST2(spirv_arith, extended_integer_ops, .disabled = 0)
{
    trt_rng rng = {31337};
    for (int l = 0; l < 256; l++) {
        in[l][0] = l < 16 ? 0xffffffffu - (uint32_t)l : trt_rand_u32(&rng);
        in[l][1] = l < 16 ? (uint32_t)l * 0x11111111u : trt_rand_u32(&rng);
        in[l][2] = in[l][3] = 0;
    }
    uint32_t *px = spvh_run_lanes(HEAD "void main() {\n"
                                       "    uvec4 a = arg(); uint carry, borrow, hi, lo; int shi, slo;\n"
                                       "    uint s = uaddCarry(a.x, a.y, carry);\n"
                                       "    uint d = usubBorrow(a.x, a.y, borrow);\n"
                                       "    umulExtended(a.x, a.y, hi, lo);\n"
                                       "    imulExtended(int(a.x), int(a.y), shi, slo);\n"
                                       "    o = uvec4(s ^ (carry << 31) ^ (borrow << 30), d, hi ^ lo, uint(shi) + uint(slo) * 3u);\n"
                                       "}\n",
                                  in, 256);
    for (int l = 0; l < 256; l++) {
        const uint32_t x = in[l][0], y = in[l][1];
        const uint64_t sum = (uint64_t)x + y, pu = (uint64_t)x * y;
        const int64_t ps = (int64_t)(int32_t)x * (int32_t)y;
        const uint32_t carry = (uint32_t)(sum >> 32), borrow = x < y;
        SPVH_EXPECT_U32(px[4 * l], (uint32_t)sum ^ (carry << 31) ^ (borrow << 30), "uaddCarry/usubBorrow(0x%x, 0x%x)", x, y);
        SPVH_EXPECT_U32(px[4 * l + 1], x - y, "usubBorrow(0x%x, 0x%x)", x, y);
        SPVH_EXPECT_U32(px[4 * l + 2], (uint32_t)(pu >> 32) ^ (uint32_t)pu, "umulExtended(0x%x, 0x%x)", x, y);
        SPVH_EXPECT_U32(px[4 * l + 3], (uint32_t)((uint64_t)ps >> 32) + (uint32_t)ps * 3u, "imulExtended(%d, %d)",
                        (int32_t)x, (int32_t)y);
    }
    free(px);
}
