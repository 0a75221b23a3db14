/* tilerast raster stage: per-fragment operations, as the Vulkan spec
 * defines them: stencil ops and blending in float. */
#include "raster/raster_internal.h"

uint8_t tr__stencil_apply(tr_stencil_op op, uint8_t s, uint8_t ref)
{
    switch (op) {
    case TR_STENCIL_OP_ZERO: return 0;
    case TR_STENCIL_OP_REPLACE: return ref;
    case TR_STENCIL_OP_INCREMENT_AND_CLAMP: return s == 255 ? 255 : (uint8_t)(s + 1);
    case TR_STENCIL_OP_DECREMENT_AND_CLAMP: return s == 0 ? 0 : (uint8_t)(s - 1);
    case TR_STENCIL_OP_INVERT: return (uint8_t)~s;
    case TR_STENCIL_OP_INCREMENT_AND_WRAP: return (uint8_t)(s + 1);
    case TR_STENCIL_OP_DECREMENT_AND_WRAP: return (uint8_t)(s - 1);
    default: return s;
    }
}

static inline float clamp01(float x)
{
    return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; /* NaN -> 0 */
}

/* Blend factor for channel c (0..3) */
static inline float factor(tr_blend_factor f, int c, const float s[4], const float s1[4], const float d[4],
                           const float k[4])
{
    switch (f) {
    case TR_BLEND_ZERO: return 0.0f;
    case TR_BLEND_ONE: return 1.0f;
    case TR_BLEND_SRC_COLOR: return s[c];
    case TR_BLEND_ONE_MINUS_SRC_COLOR: return 1.0f - s[c];
    case TR_BLEND_DST_COLOR: return d[c];
    case TR_BLEND_ONE_MINUS_DST_COLOR: return 1.0f - d[c];
    case TR_BLEND_SRC_ALPHA: return s[3];
    case TR_BLEND_ONE_MINUS_SRC_ALPHA: return 1.0f - s[3];
    case TR_BLEND_DST_ALPHA: return d[3];
    case TR_BLEND_ONE_MINUS_DST_ALPHA: return 1.0f - d[3];
    case TR_BLEND_CONSTANT_COLOR: return k[c];
    case TR_BLEND_ONE_MINUS_CONSTANT_COLOR: return 1.0f - k[c];
    case TR_BLEND_CONSTANT_ALPHA: return k[3];
    case TR_BLEND_ONE_MINUS_CONSTANT_ALPHA: return 1.0f - k[3];
    case TR_BLEND_SRC_ALPHA_SATURATE: {
        if (c == 3)
            return 1.0f;
        float a = 1.0f - d[3];
        return s[3] < a ? s[3] : a;
    }
    case TR_BLEND_SRC1_COLOR: return s1[c];
    case TR_BLEND_ONE_MINUS_SRC1_COLOR: return 1.0f - s1[c];
    case TR_BLEND_SRC1_ALPHA: return s1[3];
    case TR_BLEND_ONE_MINUS_SRC1_ALPHA: return 1.0f - s1[3];
    default: return 1.0f;
    }
}

static inline float blend_op(tr_blend_op op, float s, float sf, float d, float df)
{
    switch (op) {
    case TR_BLEND_OP_SUBTRACT: return s * sf - d * df;
    case TR_BLEND_OP_REVERSE_SUBTRACT: return d * df - s * sf;
    case TR_BLEND_OP_MIN: return s < d ? s : d;
    case TR_BLEND_OP_MAX: return s > d ? s : d;
    default: return s * sf + d * df;
    }
}

void tr__blend_write(const tr_context *ctx, tr_format fmt, const tr_blend_state *bs, const float src_in[4],
                     const float src1_in[4], const float constants_in[4], uint8_t *texel)
{
    const tr__format_info *fi = tr__format(fmt);
    const uint32_t mask = bs->write_mask;
    if (!mask)
        return;
    float s[4], out[4];
    /* UNORM and SRGB clamp sources and constants (Vulkan 28.1); integer
     * outputs are bits, never clamped (and never blended: refused when a
     * draw records) */
    bool fixed = !fi->is_float && !fi->is_int;
    for (int c = 0; c < 4; c++)
        s[c] = fixed ? clamp01(src_in[c]) : src_in[c];
    if (bs->enable) {
        float d[4], s1[4], k[4];
        tr__color_decode(ctx, fmt, texel, d);
        for (int c = 0; c < 4; c++) {
            s1[c] = fixed ? clamp01(src1_in[c]) : src1_in[c];
            k[c] = fixed ? clamp01(constants_in[c]) : constants_in[c];
        }
        for (int c = 0; c < 3; c++)
            out[c] = blend_op(bs->color_op, s[c], factor(bs->src_color, c, s, s1, d, k), d[c],
                              factor(bs->dst_color, c, s, s1, d, k));
        out[3] = blend_op(bs->alpha_op, s[3], factor(bs->src_alpha, 3, s, s1, d, k), d[3],
                          factor(bs->dst_alpha, 3, s, s1, d, k));
    } else {
        memcpy(out, s, sizeof(out));
    }
    if ((mask & 0xf) == 0xf || (fi->channels == 1 && (mask & 1))) {
        tr__color_encode(ctx, fmt, out, texel);
        return;
    }
    /* Partial mask: encode, then keep only the written channels' bytes
     * (or bits, in a packed format). */
    uint8_t tmp[16];
    tr__color_encode(ctx, fmt, out, tmp);
    for (uint32_t c = 0; c < fi->channels; c++) {
        if (!(mask & (1u << c)))
            continue;
        uint32_t byte, bytes, bits;
        tr__format_channel_bits(fmt, c, &byte, &bytes, &bits);
        if (!bits) {
            memcpy(texel + byte, tmp + byte, bytes);
            continue;
        }
        uint32_t w, n;
        memcpy(&w, texel, 4);
        memcpy(&n, tmp, 4);
        w = (w & ~bits) | (n & bits);
        memcpy(texel, &w, 4);
    }
}
