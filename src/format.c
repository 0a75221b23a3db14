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
    return tr__format(format)->name;
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
        memcpy(rgba, b, 16);
        break;
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
    default:
        break;
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
