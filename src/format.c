/* tilerast: formats and the conversions between texels and floats.
 *
 * The rules are Vulkan's: UNORM8 = round-to-nearest of clamp(x, 0, 1) * 255
 * (NaN -> 0); sRGB encodes linear values to the nearest 8-bit code; half
 * floats round to nearest even; every NaN written to a float format is the
 * canonical quiet NaN.  One implementation serves upload, clears,
 * blending and resolve so that every path gives the same bytes. */
#include <math.h>

#include "internal.h"

static const tr__format_info formats[TR_FORMAT_COUNT] = {
    [TR_FORMAT_UNDEFINED] = {"UNDEFINED", 0, 0, false, false, false, false},
    [TR_FORMAT_R8G8B8A8_UNORM] = {"R8G8B8A8_UNORM", 4, 4, false, false, false, false},
    [TR_FORMAT_R8G8B8A8_SRGB] = {"R8G8B8A8_SRGB", 4, 4, false, false, true, false},
    [TR_FORMAT_R16G16B16A16_SFLOAT] = {"R16G16B16A16_SFLOAT", 8, 4, false, false, false, true},
    [TR_FORMAT_R32_SFLOAT] = {"R32_SFLOAT", 4, 1, false, false, false, true},
    [TR_FORMAT_R32G32B32A32_SFLOAT] = {"R32G32B32A32_SFLOAT", 16, 4, false, false, false, true},
    [TR_FORMAT_D32_SFLOAT] = {"D32_SFLOAT", 4, 1, true, false, false, true},
    [TR_FORMAT_D32_SFLOAT_S8_UINT] = {"D32_SFLOAT_S8_UINT", 4, 1, true, true, false, true},
    [TR_FORMAT_R8G8_UNORM] = {"R8G8_UNORM", 2, 2, false, false, false, false},
    [TR_FORMAT_R8_UNORM] = {"R8_UNORM", 1, 1, false, false, false, false},
    [TR_FORMAT_B8G8R8A8_UNORM] = {"B8G8R8A8_UNORM", 4, 4, false, false, false, false},
    [TR_FORMAT_B8G8R8A8_SRGB] = {"B8G8R8A8_SRGB", 4, 4, false, false, true, false},
    [TR_FORMAT_R16G16_SFLOAT] = {"R16G16_SFLOAT", 4, 2, false, false, false, true},
    [TR_FORMAT_R16_SFLOAT] = {"R16_SFLOAT", 2, 1, false, false, false, true},
    [TR_FORMAT_R32_UINT] = {"R32_UINT", 4, 1, false, false, false, false, true, 0},
    [TR_FORMAT_R32G32B32A32_UINT] = {"R32G32B32A32_UINT", 16, 4, false, false, false, false, true, 0},
    [TR_FORMAT_A2B10G10R10_UNORM_PACK32] = {"A2B10G10R10_UNORM_PACK32", 4, 4, false, false, false, false},
    [TR_FORMAT_B10G11R11_UFLOAT_PACK32] = {"B10G11R11_UFLOAT_PACK32", 4, 3, false, false, false, true},
    /* depth kept as the float k / (2^n - 1) (4 bytes a texel, in GMEM too) */
    [TR_FORMAT_D16_UNORM] = {"D16_UNORM", 4, 1, true, false, false, false, false, 65535u},
    [TR_FORMAT_D24_UNORM_S8_UINT] = {"D24_UNORM_S8_UINT", 4, 1, true, true, false, false, false, 16777215u},
};

bool tr__format_valid(tr_format f)
{
    return (unsigned)f > TR_FORMAT_UNDEFINED && (unsigned)f < TR_FORMAT_COUNT;
}

const tr__format_info *tr__format(tr_format f)
{
    return tr__format_valid(f) ? &formats[f] : &formats[TR_FORMAT_UNDEFINED];
}

bool tr__format_is_color(tr_format f)
{
    return tr__format_valid(f) && !formats[f].depth;
}

const char *tr_format_name(tr_format format)
{
    return (unsigned)format < TR_FORMAT_COUNT ? formats[format].name : "unknown";
}

int tr_format_is_depth(tr_format format)
{
    return tr__format_valid(format) && formats[format].depth;
}

int tr_format_has_stencil(tr_format format)
{
    return tr__format_valid(format) && formats[format].stencil;
}

uint32_t tr_format_texel_size(tr_format format, tr_aspect aspect)
{
    if (!tr__format_valid(format))
        return 0;
    const tr__format_info *fi = &formats[format];
    switch (aspect) {
    case TR_ASPECT_DEFAULT: return fi->texel;
    case TR_ASPECT_COLOR: return fi->depth ? 0 : fi->texel;
    case TR_ASPECT_DEPTH: return fi->depth ? 4 : 0;
    case TR_ASPECT_STENCIL: return fi->stencil ? 1 : 0;
    }
    return 0;
}

/* ---- scalar conversions ---------------------------------------------------- */

/* Every NaN a float format stores is this one (0x7fc00000; halves: 0x7e00),
 * whatever the sign and payload the arithmetic produced: x86 and ARM make
 * different NaNs for the same operation, and golden images must not care. */
static inline float canonical_nan(void)
{
    const uint32_t bits = 0x7fc00000u;
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

uint8_t tr__float_to_unorm8(float f)
{
    if (!(f > 0.0f))      /* also NaN */
        return 0;
    if (f >= 1.0f)
        return 255;
    return (uint8_t)(f * 255.0f + 0.5f);
}

uint8_t tr__linear_to_srgb8(const tr_context *ctx, float f)
{
    if (!(f > 0.0f))
        return 0;
    if (f >= 1.0f)
        return 255;
    /* Binary search for the number of thresholds <= f. */
    const float *t = ctx->srgb_encode_threshold;
    unsigned lo = 0, hi = 255;
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        if (f >= t[mid])
            lo = mid + 1;
        else
            hi = mid;
    }
    return (uint8_t)lo;
}

uint16_t tr__float_to_half(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t exp = (x >> 23) & 0xffu;
    uint32_t man = x & 0x7fffffu;
    if (exp == 0xff)                       /* Inf, or NaN: the canonical quiet NaN */
        return man ? (uint16_t)0x7e00u : (uint16_t)(sign | 0x7c00u);
    int32_t e = (int32_t)exp - 127 + 15;
    if (e >= 31)                           /* overflow to infinity */
        return (uint16_t)(sign | 0x7c00u);
    if (e <= 0) {                          /* subnormal half or zero */
        if (e < -10)
            return (uint16_t)sign;
        man |= 0x800000u;
        uint32_t shift = (uint32_t)(14 - e);
        uint32_t h = man >> shift;
        uint32_t rem = man & ((1u << shift) - 1);
        uint32_t half = 1u << (shift - 1);
        if (rem > half || (rem == half && (h & 1)))
            h++;
        return (uint16_t)(sign | h);
    }
    uint32_t h = ((uint32_t)e << 10) | (man >> 13);
    uint32_t rem = man & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1)))
        h++;                               /* may carry into the exponent: still right */
    return (uint16_t)(sign | h);
}

float tr__half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t man = h & 0x3ffu;
    uint32_t x;
    if (exp == 0) {
        if (man == 0) {
            x = sign;
        } else {                           /* subnormal: normalise */
            int e = -1;
            do {
                e++;
                man <<= 1;
            } while (!(man & 0x400u));
            x = sign | ((uint32_t)(127 - 15 - e) << 23) | ((man & 0x3ffu) << 13);
        }
    } else if (exp == 31) {
        x = sign | 0x7f800000u | (man << 13);
    } else {
        x = sign | ((exp - 15 + 127) << 23) | (man << 13);
    }
    float f;
    memcpy(&f, &x, 4);
    return f;
}


/* An unsigned small float (5-bit exponent, bias 15, `mb` mantissa bits:
 * 6 for the 11-bit, 5 for the 10-bit channels of B10G11R11_UFLOAT_PACK32)
 * from a float, as GL_EXT_packed_float and Vulkan state: negative values
 * and -inf -> 0 (-0 too), +inf -> inf (exponent 31, mantissa 0), any NaN
 * -> exponent 31, mantissa 1 (Mesa's code); finite values round to nearest
 * even, denormals included; a finite value above the largest finite
 * (65024 for 11 bits, 64512 for 10) -> that largest finite value, also
 * when rounding would carry it past (GL: "finite positive values greater
 * than 65024 are converted to 65024"). */
uint32_t tr__float_to_ufloat(float f, uint32_t mb)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    const uint32_t exp = (x >> 23) & 0xffu, man = x & 0x7fffffu;
    const uint32_t inf = 31u << mb, max_finite = (30u << mb) | ((1u << mb) - 1u);
    if (exp == 0xff)
        return man ? inf | 1u : (x >> 31) ? 0u : inf;
    if ((x >> 31) || (exp == 0 && man == 0))
        return 0; /* negative, or zero */
    int32_t e = (int32_t)exp - 127 + 15;  /* the small float's biased exponent */
    uint32_t m = man | (exp ? 0x800000u : 0u); /* 24-bit significand (float denormals: far below) */
    uint32_t shift = 23u - mb;                 /* normal: keep the top mb fraction bits */
    uint32_t base = 0;
    if (e <= 0) {                              /* a denormal small float (or 0) */
        shift += (uint32_t)(1 - e);
        e = 0;
        if (shift > 31)
            return 0;                          /* below half the smallest denormal */
    } else {
        m &= 0x7fffffu;
        base = (uint32_t)e << mb;
    }
    uint32_t q = m >> shift;
    const uint32_t rem = m & ((1u << shift) - 1u), half = 1u << (shift - 1u);
    if (rem > half || (rem == half && (q & 1u)))
        q++;                                   /* may carry into the exponent: still right */
    const uint32_t r = e > 0 ? base + q : q;
    return r > max_finite ? max_finite : r;    /* (e >= 31 lands here too) */
}

/* An unsigned small float to float (exact: every value is a float). */
float tr__ufloat_to_float(uint32_t v, uint32_t mb)
{
    const uint32_t e = v >> mb, m = v & ((1u << mb) - 1u);
    uint32_t x;
    if (e == 31) {
        x = 0x7f800000u | (m ? 0x400000u : 0u); /* inf, or a quiet NaN */
    } else if (e == 0) {
        return (float)m * 0x1p-14f / (float)(1u << mb); /* denormal: m * 2^(-14 - mb), exact */
    } else {
        x = ((e - 15u + 127u) << 23) | (m << (23u - mb));
    }
    float f;
    memcpy(&f, &x, 4);
    return f;
}

void tr__color_decode(const tr_context *ctx, tr_format f, const void *texel, float rgba[4])
{
    const uint8_t *b = texel;
    switch (f) {
    case TR_FORMAT_R8G8B8A8_UNORM:
        for (int i = 0; i < 4; i++)
            rgba[i] = (float)b[i] / 255.0f;
        break;
    case TR_FORMAT_R8G8_UNORM: /* the same division per channel; blue 0, alpha 1 */
        rgba[0] = (float)b[0] / 255.0f;
        rgba[1] = (float)b[1] / 255.0f;
        rgba[2] = 0.0f;
        rgba[3] = 1.0f;
        break;
    case TR_FORMAT_R8G8B8A8_SRGB:
        for (int i = 0; i < 3; i++)
            rgba[i] = ctx->srgb_decode[b[i]];
        rgba[3] = (float)b[3] / 255.0f;
        break;
    case TR_FORMAT_R16G16B16A16_SFLOAT:
        for (int i = 0; i < 4; i++) {
            uint16_t h;
            memcpy(&h, b + 2 * i, 2);
            rgba[i] = tr__half_to_float(h);
        }
        break;
    case TR_FORMAT_R32_SFLOAT:
        memcpy(&rgba[0], b, 4);
        rgba[1] = rgba[2] = 0.0f;
        rgba[3] = 1.0f;
        break;
    case TR_FORMAT_R32G32B32A32_SFLOAT:
    case TR_FORMAT_R32G32B32A32_UINT: /* the integers' bits */
        memcpy(rgba, b, 16);
        break;
    case TR_FORMAT_R8_UNORM:
        rgba[0] = (float)b[0] / 255.0f;
        rgba[1] = rgba[2] = 0.0f;
        rgba[3] = 1.0f;
        break;
    case TR_FORMAT_B8G8R8A8_UNORM: /* bytes B, G, R, A */
        rgba[0] = (float)b[2] / 255.0f;
        rgba[1] = (float)b[1] / 255.0f;
        rgba[2] = (float)b[0] / 255.0f;
        rgba[3] = (float)b[3] / 255.0f;
        break;
    case TR_FORMAT_B8G8R8A8_SRGB:
        rgba[0] = ctx->srgb_decode[b[2]];
        rgba[1] = ctx->srgb_decode[b[1]];
        rgba[2] = ctx->srgb_decode[b[0]];
        rgba[3] = (float)b[3] / 255.0f;
        break;
    case TR_FORMAT_R16G16_SFLOAT:
    case TR_FORMAT_R16_SFLOAT:
        for (int i = 0; i < 2; i++) {
            uint16_t h = 0;
            if (i == 0 || f == TR_FORMAT_R16G16_SFLOAT)
                memcpy(&h, b + 2 * i, 2);
            rgba[i] = tr__half_to_float(h);
        }
        rgba[2] = 0.0f;
        rgba[3] = 1.0f;
        break;
    case TR_FORMAT_R32_UINT: /* the integer's bits in red; (r, 0, 0, 1) with 1 the integer 1 */
        memcpy(&rgba[0], b, 4);
        rgba[1] = rgba[2] = 0.0f;
        {
            const uint32_t one = 1u;
            memcpy(&rgba[3], &one, 4);
        }
        break;
    case TR_FORMAT_A2B10G10R10_UNORM_PACK32: {
        uint32_t v;
        memcpy(&v, b, 4);
        rgba[0] = (float)(v & 0x3ffu) / 1023.0f;
        rgba[1] = (float)((v >> 10) & 0x3ffu) / 1023.0f;
        rgba[2] = (float)((v >> 20) & 0x3ffu) / 1023.0f;
        rgba[3] = (float)(v >> 30) / 3.0f;
        break;
    }
    case TR_FORMAT_B10G11R11_UFLOAT_PACK32: {
        uint32_t v;
        memcpy(&v, b, 4);
        rgba[0] = tr__ufloat_to_float(v & 0x7ffu, 6);
        rgba[1] = tr__ufloat_to_float((v >> 11) & 0x7ffu, 6);
        rgba[2] = tr__ufloat_to_float(v >> 22, 5);
        rgba[3] = 1.0f;
        break;
    }
    default:
        rgba[0] = rgba[1] = rgba[2] = 0.0f;
        rgba[3] = 1.0f;
        break;
    }
}

void tr__color_encode(const tr_context *ctx, tr_format f, const float rgba[4], void *texel)
{
    uint8_t *b = texel;
    switch (f) {
    case TR_FORMAT_R8G8B8A8_UNORM:
        for (int i = 0; i < 4; i++)
            b[i] = tr__float_to_unorm8(rgba[i]);
        break;
    case TR_FORMAT_R8G8_UNORM: /* blue and alpha have no storage: ignored */
        b[0] = tr__float_to_unorm8(rgba[0]);
        b[1] = tr__float_to_unorm8(rgba[1]);
        break;
    case TR_FORMAT_R8G8B8A8_SRGB:
        for (int i = 0; i < 3; i++)
            b[i] = tr__linear_to_srgb8(ctx, rgba[i]);
        b[3] = tr__float_to_unorm8(rgba[3]);
        break;
    case TR_FORMAT_R16G16B16A16_SFLOAT:
        for (int i = 0; i < 4; i++) {
            uint16_t h = tr__float_to_half(rgba[i]);
            memcpy(b + 2 * i, &h, 2);
        }
        break;
    case TR_FORMAT_R32_SFLOAT:
    case TR_FORMAT_R32G32B32A32_SFLOAT:
        for (uint32_t i = 0; i < (f == TR_FORMAT_R32_SFLOAT ? 1u : 4u); i++) {
            const float v = rgba[i] == rgba[i] ? rgba[i] : canonical_nan();
            memcpy(b + 4 * i, &v, 4);
        }
        break;
    case TR_FORMAT_R8_UNORM:
        b[0] = tr__float_to_unorm8(rgba[0]);
        break;
    case TR_FORMAT_B8G8R8A8_UNORM:
        b[0] = tr__float_to_unorm8(rgba[2]);
        b[1] = tr__float_to_unorm8(rgba[1]);
        b[2] = tr__float_to_unorm8(rgba[0]);
        b[3] = tr__float_to_unorm8(rgba[3]);
        break;
    case TR_FORMAT_B8G8R8A8_SRGB:
        b[0] = tr__linear_to_srgb8(ctx, rgba[2]);
        b[1] = tr__linear_to_srgb8(ctx, rgba[1]);
        b[2] = tr__linear_to_srgb8(ctx, rgba[0]);
        b[3] = tr__float_to_unorm8(rgba[3]);
        break;
    case TR_FORMAT_R16G16_SFLOAT:
    case TR_FORMAT_R16_SFLOAT:
        for (uint32_t i = 0; i < (f == TR_FORMAT_R16_SFLOAT ? 1u : 2u); i++) {
            uint16_t h = tr__float_to_half(rgba[i]);
            memcpy(b + 2 * i, &h, 2);
        }
        break;
    case TR_FORMAT_R32_UINT: /* bit copies: no NaN canonicalisation */
        memcpy(b, rgba, 4);
        break;
    case TR_FORMAT_R32G32B32A32_UINT:
        memcpy(b, rgba, 16);
        break;
    case TR_FORMAT_A2B10G10R10_UNORM_PACK32: {
        const uint32_t v = tr__unorm_code(rgba[0], 1023u) | tr__unorm_code(rgba[1], 1023u) << 10 |
                           tr__unorm_code(rgba[2], 1023u) << 20 | tr__unorm_code(rgba[3], 3u) << 30;
        memcpy(b, &v, 4);
        break;
    }
    case TR_FORMAT_B10G11R11_UFLOAT_PACK32: {
        const uint32_t v = tr__float_to_ufloat(rgba[0], 6) | tr__float_to_ufloat(rgba[1], 6) << 11 |
                           tr__float_to_ufloat(rgba[2], 5) << 22;
        memcpy(b, &v, 4);
        break;
    }
    default:
        break;
    }
}

/* Which bits of a texel of colour format f channel c (0..3) occupies:
 * bytes [*byte, *byte + *bytes) when *bits is 0, else the bits `*bits` of
 * the 32-bit word at byte 0 (packed formats).  *bytes 0: no storage. */
void tr__format_channel_bits(tr_format f, uint32_t c, uint32_t *byte, uint32_t *bytes, uint32_t *bits)
{
    const tr__format_info *fi = tr__format(f);
    *bits = 0;
    *byte = 0;
    *bytes = 0;
    if (c >= fi->channels)
        return;
    switch (f) {
    case TR_FORMAT_B8G8R8A8_UNORM:
    case TR_FORMAT_B8G8R8A8_SRGB:
        *byte = c == 3 ? 3u : 2u - c;
        *bytes = 1;
        return;
    case TR_FORMAT_A2B10G10R10_UNORM_PACK32:
        *bytes = 4;
        *bits = c == 3 ? 0xc0000000u : 0x3ffu << (10 * c);
        return;
    case TR_FORMAT_B10G11R11_UFLOAT_PACK32:
        *bytes = 4;
        *bits = c == 0 ? 0x7ffu : c == 1 ? 0x7ffu << 11 : 0x3ffu << 22;
        return;
    default:
        *bytes = fi->texel / fi->channels;
        *byte = c * *bytes;
        return;
    }
}

/* a <op> b, as Vulkan's compare ops: the depth and stencil tests and
 * depth-compare samplers. */
bool tr__compare(tr_compare_op op, float a, float b)
{
    switch (op) {
    case TR_COMPARE_NEVER: return false;
    case TR_COMPARE_LESS: return a < b;
    case TR_COMPARE_EQUAL: return a == b;
    case TR_COMPARE_LESS_OR_EQUAL: return a <= b;
    case TR_COMPARE_GREATER: return a > b;
    case TR_COMPARE_NOT_EQUAL: return a != b;
    case TR_COMPARE_GREATER_OR_EQUAL: return a >= b;
    default: return true;
    }
}
