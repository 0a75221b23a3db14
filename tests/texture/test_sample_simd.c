/* The SIMD twin of sampling (src/texture/sample.c: RGBA8 UNORM and sRGB
 * texels, four channels at a time, used at every SIMD level but
 * TR_SIMD_SCALAR) returns the scalar reference's exact floats: every filter
 * and mipmap mode, every address mode on each axis, border colours, odd
 * and power-of-two sizes, texel offsets, bias, explicit LOD, gradients with
 * anisotropy (several taps), array layers, partial blocks and coordinates
 * far outside the texture or not numbers at all.  Compared as bit
 * patterns, so -0 and NaN count too. */
#include "trtest.h"

#include <math.h>
#include <string.h>

typedef struct side {
    tr_context *ctx;
    tr_image *tex;
} side;

static side make_side(tr_simd_level simd, tr_format f, uint32_t w, uint32_t h, uint32_t layers, uint64_t seed)
{
    tr_context_desc cd = {0};
    cd.threads = 1;
    cd.simd = simd;
    side sd;
    sd.ctx = trt_context_desc(&cd);
    sd.tex = trt_random_texture(sd.ctx, f, w, h, layers, TR_LEVELS_ALL, seed);
    return sd;
}

/* A coordinate for lane l: mostly on [-2.5, 3.5), some special values. */
static float coordinate(trt_rng *rng)
{
    static const float special[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 1e30f, -1e30f, INFINITY, -INFINITY, NAN,
                                    0x1p-140f, 0.99999994f};
    const uint32_t k = trt_rand_u32(rng) % 40;
    if (k < sizeof special / sizeof special[0])
        return special[k];
    return (float)trt_rand_range(rng, -2.5, 3.5);
}

/* One call of tr_fs_sample on both sides with the same lanes. */
static uint32_t compare_call(const side sides[2], const tr_sampler *const smp[2], const tr_sample_args *a,
                             uint32_t count, const char *what)
{
    static float out[2][4][TR_FS_LANES];
    for (int k = 0; k < 2; k++) {
        static tr_fs_block b[2];
        static tr_texture_binding slots[2][TR_MAX_TEXTURES];
        memset(&b[k], 0, sizeof b[k]);
        memset(slots[k], 0, sizeof slots[k]);
        slots[k][5] = (tr_texture_binding){sides[k].tex, (tr_sampler *)smp[k]};
        b[k].textures = slots[k];
        b[k].count = count;
        memset(out[k], 0x5a, sizeof out[k]);
        tr_fs_sample(&b[k], 5, a, out[k]);
    }
    uint32_t bad = 0;
    for (int c = 0; c < 4; c++)
        for (uint32_t l = 0; l < TR_FS_LANES; l++)
            if (memcmp(&out[0][c][l], &out[1][c][l], 4) != 0) {
                if (!bad)
                    cr_log_error("%s: lane %u channel %d: scalar %a, SIMD %a", what, l, c, (double)out[0][c][l],
                                 (double)out[1][c][l]);
                bad++;
            }
    return bad;
}

static void sweep_format(tr_format f, uint32_t w, uint32_t h, uint32_t layers, uint64_t seed)
{
    const side sides[2] = {make_side(TR_SIMD_SCALAR, f, w, h, layers, seed),
                           make_side(TR_SIMD_DEFAULT, f, w, h, layers, seed)};
    trt_rng rng = {seed * 7919u + 1};
    static float s[TR_FS_LANES], t[TR_FS_LANES], layer[TR_FS_LANES], bias[TR_FS_LANES], lod[TR_FS_LANES];
    static float g[4][TR_FS_LANES];
    uint32_t bad = 0, calls = 0;
    for (uint32_t mode = 0; mode < 2 * 2 * 2 * 4 * 4; mode++) {
        tr_sampler_desc d = {0};
        d.mag_filter = (tr_filter)(mode & 1);
        d.min_filter = (tr_filter)((mode >> 1) & 1);
        d.mipmap_mode = (tr_mipmap_mode)((mode >> 2) & 1);
        d.address_u = (tr_address_mode)((mode >> 3) & 3);
        d.address_v = (tr_address_mode)((mode >> 5) & 3);
        d.border_color = (tr_border_color)(mode % 3);
        d.max_anisotropy = mode % 5 == 0 ? 8 : 1;
        d.lod_bias = mode % 7 == 0 ? 0.75f : 0.0f;
        const tr_sampler *smp[2];
        for (int k = 0; k < 2; k++)
            TRT_OK(tr_sampler_create(sides[k].ctx, &d, (tr_sampler **)&smp[k]));
        for (uint32_t variant = 0; variant < 6; variant++) {
            /* Quads at several scales, so the implicit LOD spans magnification to the last level. */
            const float scale = (float)(1u << (variant * 2)) / (float)w;
            for (uint32_t q = 0; q < TR_FS_LANES; q += 4) {
                const float s0 = coordinate(&rng), t0 = coordinate(&rng);
                for (uint32_t l = q; l < q + 4; l++) {
                    s[l] = trt_rand_u32(&rng) % 16 ? s0 + (float)(l & 1) * scale : coordinate(&rng);
                    t[l] = trt_rand_u32(&rng) % 16 ? t0 + (float)((l >> 1) & 1) * scale * 0.7f : coordinate(&rng);
                    layer[l] = (float)trt_rand_range(&rng, -0.7, (double)layers + 0.7);
                    bias[l] = (float)trt_rand_range(&rng, -2.0, 2.0);
                    lod[l] = (float)trt_rand_range(&rng, -1.0, 10.0);
                    for (int k = 0; k < 4; k++)
                        g[k][l] = (float)trt_rand_range(&rng, -0.3, 0.3);
                }
            }
            tr_sample_args a = {.s = s, .t = t};
            if (layers > 1)
                a.layer = layer;
            if (variant & 1)
                a.offset[0] = (int32_t)(trt_rand_u32(&rng) % 17) - 9, a.offset[1] = (int32_t)(trt_rand_u32(&rng) % 17) - 9;
            if (variant == 2)
                a.bias = bias;
            if (variant == 3)
                a.lod = lod;
            if (variant == 4)
                a.dsdx = g[0], a.dtdx = g[1], a.dsdy = g[2], a.dtdy = g[3];
            const uint32_t count = variant == 5 ? 1 + trt_rand_u32(&rng) % TR_FS_LANES : TR_FS_LANES;
            char what[96];
            snprintf(what, sizeof what, "format %d %ux%u, sampler mode %u, variant %u", (int)f, w, h, mode, variant);
            bad += compare_call(sides, smp, &a, count, what);
            calls++;
        }
        for (int k = 0; k < 2; k++)
            tr_sampler_destroy((tr_sampler *)smp[k]);
    }
    cr_expect_eq(bad, 0u, "%u channel values in %u calls differ between scalar and SIMD", bad, calls);
    for (int k = 0; k < 2; k++)
        tr_context_destroy(sides[k].ctx);
}

Test(sample_simd, rgba8_unorm_power_of_two)
{
    sweep_format(TR_FORMAT_R8G8B8A8_UNORM, 64, 32, 1, 3);
}

Test(sample_simd, rgba8_unorm_odd_sizes_and_layers)
{
    sweep_format(TR_FORMAT_R8G8B8A8_UNORM, 37, 23, 3, 4);
}

Test(sample_simd, rgba8_srgb)
{
    sweep_format(TR_FORMAT_R8G8B8A8_SRGB, 48, 64, 2, 5);
}

/* Both sides could agree on a wrong value: one bilinear read at the SIMD
 * level against texture.h's formula, computed here step by step. */
Test(sample_simd, bilinear_value_from_the_formula)
{
    side sd = make_side(TR_SIMD_DEFAULT, TR_FORMAT_R8G8B8A8_UNORM, 4, 4, 1, 9);
    uint8_t texels[4 * 4 * 4];
    trt_download(sd.tex, 0, 0, TR_ASPECT_COLOR, texels);
    tr_sampler *smp = NULL;
    TRT_OK(tr_sampler_create(sd.ctx, &(tr_sampler_desc){.mag_filter = TR_FILTER_LINEAR}, &smp));
    static tr_fs_block b;
    tr_texture_binding slots[TR_MAX_TEXTURES] = {{0}};
    slots[0] = (tr_texture_binding){sd.tex, smp};
    b.textures = slots;
    b.count = 4;
    /* s = 0.4 -> u = 1.6 texels: i0 = 1, a = 0.1 * 256 rounded down = 25 (u0 = 409.6 - 128, floor 281 -> 25);
     * t = 0.3 -> v = 1.2: j0 = 0, b = round-down(0.7 * 256) = 179.  A magnified quad (one spot). */
    static float s[TR_FS_LANES] = {0.4f, 0.4f, 0.4f, 0.4f}, t[TR_FS_LANES] = {0.3f, 0.3f, 0.3f, 0.3f};
    static float out[4][TR_FS_LANES];
    tr_fs_texture(&b, 0, s, t, out);
    const int64_t u = (int64_t)floorf(0.4f * 4.0f * 256.0f) - 128, v = (int64_t)floorf(0.3f * 4.0f * 256.0f) - 128;
    const uint32_t i0 = (uint32_t)(u >> 8), j0 = (uint32_t)(v >> 8), fa = (uint32_t)(u & 255), fb = (uint32_t)(v & 255);
    for (int c = 0; c < 4; c++) {
        const float t00 = (float)texels[4 * (j0 * 4 + i0) + c] / 255.0f;
        const float t10 = (float)texels[4 * (j0 * 4 + i0 + 1) + c] / 255.0f;
        const float t01 = (float)texels[4 * ((j0 + 1) * 4 + i0) + c] / 255.0f;
        const float t11 = (float)texels[4 * ((j0 + 1) * 4 + i0 + 1) + c] / 255.0f;
        const float want = (((float)((256 - fa) * (256 - fb)) * t00 + (float)(fa * (256 - fb)) * t10) +
                            ((float)((256 - fa) * fb) * t01 + (float)(fa * fb) * t11)) *
                           0x1p-16f;
        for (uint32_t l = 0; l < 4; l++)
            cr_expect_eq(out[c][l], want, "channel %d lane %u: %a, want %a", c, l, (double)out[c][l], (double)want);
    }
    tr_sampler_destroy(smp);
    tr_context_destroy(sd.ctx);
}
