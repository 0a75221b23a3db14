/* tilerast raster stage: blending a whole fragment block into GMEM.
 *
 * tr__blend_write (raster_ops.c) is the reference: one fragment, one
 * attachment, every format.  tr__blend_block does the same work for all the
 * live lanes of a block at once for the 8-bit formats, with the per-state
 * choices (factors, ops, mask) hoisted out of the lane loops so that the
 * loops are straight-line float code the compiler can vectorise.  Every
 * value is computed by the same operations in the same order as the
 * reference, so the bytes are identical; tests/raster/test_kernels.c runs
 * random inputs through both.  With the context's SIMD level capped to
 * TR_SIMD_SCALAR (tr_context_desc.simd or TR_SIMD=scalar) the reference
 * runs instead. */
#include "raster/raster_internal.h"

static inline float clamp01(float x)
{
    return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; /* NaN -> 0 */
}

/* tr__float_to_unorm8, without branches so that loops of it vectorise:
 * NaN and f <= 0 give 0.5 -> 0, f >= 1 gives 255.5 -> 255, and between the
 * same f * 255 + 0.5 truncated. */
static inline uint8_t to_unorm8(float f)
{
    return (uint8_t)(int32_t)(clamp01(f) * 255.0f + 0.5f);
}

/* Factor f for channel c of n lanes (the reference's factor(), hoisted). */
static void factor_lanes(tr_blend_factor f, int c, uint32_t n, float (*s)[TR_FS_LANES],
                         float (*s1)[TR_FS_LANES], float (*d)[TR_FS_LANES], const float k[4], float *out)
{
    uint32_t i;
    switch (f) {
    case TR_BLEND_ZERO: for (i = 0; i < n; i++) out[i] = 0.0f; break;
    case TR_BLEND_ONE: for (i = 0; i < n; i++) out[i] = 1.0f; break;
    case TR_BLEND_SRC_COLOR: for (i = 0; i < n; i++) out[i] = s[c][i]; break;
    case TR_BLEND_ONE_MINUS_SRC_COLOR: for (i = 0; i < n; i++) out[i] = 1.0f - s[c][i]; break;
    case TR_BLEND_DST_COLOR: for (i = 0; i < n; i++) out[i] = d[c][i]; break;
    case TR_BLEND_ONE_MINUS_DST_COLOR: for (i = 0; i < n; i++) out[i] = 1.0f - d[c][i]; break;
    case TR_BLEND_SRC_ALPHA: for (i = 0; i < n; i++) out[i] = s[3][i]; break;
    case TR_BLEND_ONE_MINUS_SRC_ALPHA: for (i = 0; i < n; i++) out[i] = 1.0f - s[3][i]; break;
    case TR_BLEND_DST_ALPHA: for (i = 0; i < n; i++) out[i] = d[3][i]; break;
    case TR_BLEND_ONE_MINUS_DST_ALPHA: for (i = 0; i < n; i++) out[i] = 1.0f - d[3][i]; break;
    case TR_BLEND_CONSTANT_COLOR: for (i = 0; i < n; i++) out[i] = k[c]; break;
    case TR_BLEND_ONE_MINUS_CONSTANT_COLOR: for (i = 0; i < n; i++) out[i] = 1.0f - k[c]; break;
    case TR_BLEND_CONSTANT_ALPHA: for (i = 0; i < n; i++) out[i] = k[3]; break;
    case TR_BLEND_ONE_MINUS_CONSTANT_ALPHA: for (i = 0; i < n; i++) out[i] = 1.0f - k[3]; break;
    case TR_BLEND_SRC_ALPHA_SATURATE:
        for (i = 0; i < n; i++) {
            float a = 1.0f - d[3][i];
            out[i] = c == 3 ? 1.0f : (s[3][i] < a ? s[3][i] : a);
        }
        break;
    case TR_BLEND_SRC1_COLOR: for (i = 0; i < n; i++) out[i] = s1[c][i]; break;
    case TR_BLEND_ONE_MINUS_SRC1_COLOR: for (i = 0; i < n; i++) out[i] = 1.0f - s1[c][i]; break;
    case TR_BLEND_SRC1_ALPHA: for (i = 0; i < n; i++) out[i] = s1[3][i]; break;
    case TR_BLEND_ONE_MINUS_SRC1_ALPHA: for (i = 0; i < n; i++) out[i] = 1.0f - s1[3][i]; break;
    default: for (i = 0; i < n; i++) out[i] = 1.0f; break;
    }
}

/* The reference's blend_op over n lanes. */
static void op_lanes(tr_blend_op op, uint32_t n, const float *s, const float *sf, const float *d, const float *df,
                     float *out)
{
    uint32_t i;
    switch (op) {
    case TR_BLEND_OP_SUBTRACT: for (i = 0; i < n; i++) out[i] = s[i] * sf[i] - d[i] * df[i]; break;
    case TR_BLEND_OP_REVERSE_SUBTRACT: for (i = 0; i < n; i++) out[i] = d[i] * df[i] - s[i] * sf[i]; break;
    case TR_BLEND_OP_MIN: for (i = 0; i < n; i++) out[i] = s[i] < d[i] ? s[i] : d[i]; break;
    case TR_BLEND_OP_MAX: for (i = 0; i < n; i++) out[i] = s[i] > d[i] ? s[i] : d[i]; break;
    default: for (i = 0; i < n; i++) out[i] = s[i] * sf[i] + d[i] * df[i]; break;
    }
}

bool tr__blend_block(const tr_context *ctx, tr_format fmt, const tr_blend_state *bs, const tr_fs_block *fs,
                     uint32_t att, uint64_t live, const uint32_t *texel_index, const float constants[4], uint8_t *gmem)
{
    if (ctx->simd == TR_SIMD_SCALAR || (fmt != TR_FORMAT_R8G8B8A8_UNORM && fmt != TR_FORMAT_R8G8B8A8_SRGB))
        return false; /* the caller runs the reference */
    const bool srgb = fmt == TR_FORMAT_R8G8B8A8_SRGB;
    /* Gather the live lanes (compacted). */
    uint32_t n = 0, lane[TR_FS_LANES];
    for (uint64_t m = live; m; m &= m - 1)
        lane[n++] = (uint32_t)__builtin_ctzll(m);
    float s[4][TR_FS_LANES], s1[4][TR_FS_LANES], d[4][TR_FS_LANES], out[4][TR_FS_LANES];
    /* A full block's lanes are in order: contiguous loops. */
    const bool dense = n == TR_FS_LANES;
    for (int c = 0; c < 4; c++) {
        const float *src = fs->color[att][c];
        if (dense)
            for (uint32_t i = 0; i < TR_FS_LANES; i++)
                s[c][i] = clamp01(src[i]);
        else
            for (uint32_t i = 0; i < n; i++)
                s[c][i] = clamp01(src[lane[i]]);
    }
    if (bs->enable) {
        float k[4], sf[TR_FS_LANES], df[TR_FS_LANES];
        /* Source 1 only when a factor reads it (dual-source blending). */
        const bool dual = bs->src_color >= TR_BLEND_SRC1_COLOR || bs->dst_color >= TR_BLEND_SRC1_COLOR ||
                          bs->src_alpha >= TR_BLEND_SRC1_COLOR || bs->dst_alpha >= TR_BLEND_SRC1_COLOR;
        for (int c = 0; c < 4; c++) {
            k[c] = clamp01(constants[c]);
            if (!dual)
                continue;
            const float *src1 = fs->color[1][c];
            for (uint32_t i = 0; i < n; i++)
                s1[c][i] = clamp01(src1[dense ? i : lane[i]]);
        }
        const float *rgb = srgb ? ctx->srgb_decode : ctx->unorm8_decode;
        for (uint32_t i = 0; i < n; i++) {
            const uint8_t *t = gmem + (size_t)texel_index[lane[i]] * 4;
            for (int c = 0; c < 3; c++)
                d[c][i] = rgb[t[c]];
            d[3][i] = ctx->unorm8_decode[t[3]];
        }
        for (int c = 0; c < 4; c++) {
            tr_blend_factor fsrc = c < 3 ? bs->src_color : bs->src_alpha;
            tr_blend_factor fdst = c < 3 ? bs->dst_color : bs->dst_alpha;
            factor_lanes(fsrc, c, n, s, s1, d, k, sf);
            factor_lanes(fdst, c, n, s, s1, d, k, df);
            op_lanes(c < 3 ? bs->color_op : bs->alpha_op, n, s[c], sf, d[c], df, out[c]);
        }
    }
    float(*res)[TR_FS_LANES] = bs->enable ? out : s;
    const uint32_t mask = bs->write_mask & 0xfu;
    if (!srgb && mask == 0xfu) {
        /* Encode all four channels in straight loops, then store texels. */
        uint8_t enc[4][TR_FS_LANES];
        for (int c = 0; c < 4; c++)
            for (uint32_t i = 0; i < n; i++)
                enc[c][i] = to_unorm8(res[c][i]);
        for (uint32_t i = 0; i < n; i++) {
            uint8_t *t = gmem + (size_t)texel_index[lane[i]] * 4;
            t[0] = enc[0][i];
            t[1] = enc[1][i];
            t[2] = enc[2][i];
            t[3] = enc[3][i];
        }
        return true;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint8_t *t = gmem + (size_t)texel_index[lane[i]] * 4;
        for (int c = 0; c < 4; c++) {
            if (!((mask >> c) & 1))
                continue;
            t[c] = srgb && c < 3 ? tr__linear_to_srgb8(ctx, res[c][i]) : to_unorm8(res[c][i]);
        }
    }
    return true;
}
