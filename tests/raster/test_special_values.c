/* NaN, infinities, signed zeros, subnormals and out-of-range values written
 * by a fragment shader reach every colour format as its conversion rules
 * say: UNORM and sRGB clamp (NaN is 0), halves round to nearest even and
 * overflow to infinity, and every NaN a float format stores is the
 * canonical quiet NaN, whatever the sign and payload the shader made; the
 * same through blending. */
#include "trtest.h"

#include <float.h>
#include <string.h>

static float from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static uint32_t bits_of(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

enum { N = 14 };

/* The value the shader writes at pixel x, and what each format stores. */
typedef struct special {
    uint32_t in;             /* float bits */
    uint8_t unorm, srgb;
    uint16_t half;
    uint32_t f32;            /* float bits stored */
} special;

static const special values[N] = {
    {0x7fc00000u, 0, 0, 0x7e00, 0x7fc00000u},   /* quiet NaN */
    {0xffc00000u, 0, 0, 0x7e00, 0x7fc00000u},   /* negative NaN (x86's default) */
    {0x7f800001u, 0, 0, 0x7e00, 0x7fc00000u},   /* signalling NaN payload */
    {0xffbadbadu, 0, 0, 0x7e00, 0x7fc00000u},   /* negative NaN with a payload */
    {0x7f800000u, 255, 255, 0x7c00, 0x7f800000u}, /* +inf */
    {0xff800000u, 0, 0, 0xfc00, 0xff800000u},   /* -inf */
    {0x7149f2cau, 255, 255, 0x7c00, 0x7149f2cau}, /* 1e30 */
    {0xf149f2cau, 0, 0, 0xfc00, 0xf149f2cau},   /* -1e30 */
    {0x80000000u, 0, 0, 0x8000, 0x80000000u},   /* -0 */
    {0x3f000000u, 128, 188, 0x3800, 0x3f000000u}, /* 0.5 */
    {0x00400000u, 0, 0, 0x0000, 0x00400000u},   /* a float subnormal: half underflows to +0 */
    {0x477ff000u, 255, 255, 0x7c00, 0x477ff000u}, /* 65520: the tie above 65504 rounds to even: inf */
    {0x477fef00u, 255, 255, 0x7bff, 0x477fef00u}, /* 65519: 65504 */
    {0x33800000u, 0, 0, 0x0001, 0x33800000u},   /* 2^-24: the smallest half subnormal */
};

static void fs_specials(tr_fs_block *b)
{
    for (uint32_t l = 0; l < b->count; l++) {
        const uint32_t x = (uint32_t)b->frag_x[l] % N;
        const float v = from_bits(values[x].in);
        for (int a = 0; a < 5; a++)
            for (int c = 0; c < 4; c++)
                b->color[a][c][l] = c == 3 && a < 2 ? 1.0f : v;
    }
}

static void check(int blend)
{
    tr_context *ctx = trt_context(2);
    const tr_format fmts[5] = {TR_FORMAT_R8G8B8A8_UNORM, TR_FORMAT_R8G8B8A8_SRGB, TR_FORMAT_R16G16B16A16_SFLOAT,
                               TR_FORMAT_R32_SFLOAT, TR_FORMAT_R32G32B32A32_SFLOAT};
    tr_image *img[5];
    for (int a = 0; a < 5; a++)
        img[a] = trt_image(ctx, fmts[a], N, 3);
    tr_pipeline_desc pd = {0};
    pd.fragment_shader = fs_specials;
    for (int a = 0; a < 5 && blend; a++) {
        /* src * 1 + dst * 0: NaN and infinities pass through the blend's float arithmetic */
        pd.blend[a].enable = 1;
        pd.blend[a].src_color = pd.blend[a].src_alpha = TR_BLEND_ONE;
        pd.blend[a].dst_color = pd.blend[a].dst_alpha = TR_BLEND_ZERO;
    }
    tr_pipeline *pl = trt_pipeline(ctx, &pd);
    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.color_count = 5;
    for (int a = 0; a < 5; a++) {
        rp.color[a].image = img[a];
        rp.color[a].load_op = TR_LOAD_OP_CLEAR;
    }
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
    TRT_OK(tr_cmd_bind_pipeline(ctx, pl));
    trt_vertex v[3] = {trt_vpx(-1, -1, 0.5f, N, 3, NULL), trt_vpx(3 * N, -1, 0.5f, N, 3, NULL),
                       trt_vpx(-1, 9, 0.5f, N, 3, NULL)};
    trt_draw(ctx, v, 3);
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));

    uint8_t u8[N * 3 * 4], s8[N * 3 * 4];
    uint16_t h[N * 3 * 4];
    float r32[N * 3], f32[N * 3 * 4];
    trt_download(img[0], 0, 0, TR_ASPECT_COLOR, u8);
    trt_download(img[1], 0, 0, TR_ASPECT_COLOR, s8);
    trt_download(img[2], 0, 0, TR_ASPECT_COLOR, h);
    trt_download(img[3], 0, 0, TR_ASPECT_COLOR, r32);
    trt_download(img[4], 0, 0, TR_ASPECT_COLOR, f32);
    for (uint32_t y = 0; y < 3; y++)
        for (uint32_t x = 0; x < N; x++) {
            const special *e = &values[x];
            const uint32_t p = y * N + x;
            /* Blending adds dst * 0: -0 + 0 is +0, everything else is unchanged. */
            const int negzero = blend && e->in == 0x80000000u;
            const uint16_t want_h = negzero ? 0 : e->half;
            const uint32_t want_f = negzero ? 0 : e->f32;
            for (int c = 0; c < 3; c++) {
                cr_expect_eq(u8[4 * p + c], e->unorm, "unorm x %u: %u", x, u8[4 * p + c]);
                cr_expect_eq(s8[4 * p + c], e->srgb, "srgb x %u: %u", x, s8[4 * p + c]);
            }
            cr_expect_eq(u8[4 * p + 3], 255);
            for (int c = 0; c < 4; c++) {
                cr_expect_eq(h[4 * p + c], want_h, "half x %u c %d: 0x%04x, want 0x%04x", x, c, h[4 * p + c], want_h);
                cr_expect_eq(bits_of(f32[4 * p + c]), want_f, "f32 x %u: 0x%08x, want 0x%08x", x,
                             bits_of(f32[4 * p + c]), want_f);
            }
            cr_expect_eq(bits_of(r32[p]), want_f, "r32 x %u: 0x%08x", x, bits_of(r32[p]));
        }
    tr_context_destroy(ctx);
}

Test(raster, special_values_reach_every_format_by_its_rules)
{
    check(0);
}

Test(raster, special_values_through_blending)
{
    check(1);
}

/* Depth a shader writes is clamped to the viewport's depth range: NaN
 * becomes min_depth, infinities the ends. */
static void fs_special_depth(tr_fs_block *b)
{
    static const uint32_t d[4] = {0x7fc00000u, 0xffbadbadu, 0x7f800000u, 0xff800000u};
    for (uint32_t l = 0; l < b->count; l++) {
        b->depth[l] = from_bits(d[(uint32_t)b->frag_x[l] % 4]);
        for (int c = 0; c < 4; c++)
            b->color[0][c][l] = 1.0f;
    }
}

Test(raster, special_shader_depth_is_clamped)
{
    tr_context *ctx = trt_context(2);
    tr_image *c = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, 8, 8);
    tr_image *z = trt_image(ctx, TR_FORMAT_D32_SFLOAT, 8, 8);
    tr_pipeline_desc pd = {0};
    pd.fragment_shader = fs_special_depth;
    pd.fs_flags = TR_FS_WRITES_DEPTH;
    pd.depth_test = pd.depth_write = 1;
    pd.depth_compare = TR_COMPARE_ALWAYS;
    tr_pipeline *pl = trt_pipeline(ctx, &pd);
    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.color_count = 1;
    rp.color[0].image = c;
    rp.color[0].load_op = TR_LOAD_OP_CLEAR;
    rp.depth.image = z;
    rp.depth.depth_load_op = TR_LOAD_OP_CLEAR;
    rp.depth.clear_depth = 0.5f;
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
    TRT_OK(tr_cmd_bind_pipeline(ctx, pl));
    const tr_viewport vp = {0, 0, 8, 8, 0.25f, 0.75f};
    TRT_OK(tr_cmd_set_viewport(ctx, &vp));
    trt_vertex v[3] = {trt_vpx(-1, -1, 0.5f, 8, 8, NULL), trt_vpx(30, -1, 0.5f, 8, 8, NULL),
                       trt_vpx(-1, 30, 0.5f, 8, 8, NULL)};
    trt_draw(ctx, v, 3);
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    float zs[64];
    trt_download(z, 0, 0, TR_ASPECT_DEPTH, zs);
    const float want[4] = {0.25f, 0.25f, 0.75f, 0.25f};
    for (int i = 0; i < 64; i++)
        cr_expect_eq(zs[i], want[i % 8 % 4], "pixel %d: %g", i, (double)zs[i]);
    tr_context_destroy(ctx);
}

/* Clears and fills convert the same way. */
Test(raster, special_values_in_clears_and_fills)
{
    tr_context *ctx = trt_context(1);
    tr_image *h = trt_image(ctx, TR_FORMAT_R16G16B16A16_SFLOAT, 4, 4);
    tr_image *f = trt_image(ctx, TR_FORMAT_R32G32B32A32_SFLOAT, 4, 4);
    const float v[4] = {from_bits(0xffc00001u), from_bits(0x7f800000u), -0.0f, from_bits(0x7fa00000u)};
    TRT_OK(tr_image_fill(h, NULL, v));
    uint16_t hp[4 * 16];
    trt_download(h, 0, 0, TR_ASPECT_COLOR, hp);
    cr_expect_eq(hp[0], 0x7e00);
    cr_expect_eq(hp[1], 0x7c00);
    cr_expect_eq(hp[2], 0x8000);
    cr_expect_eq(hp[3], 0x7e00);
    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.color_count = 1;
    rp.color[0].image = f;
    rp.color[0].load_op = TR_LOAD_OP_CLEAR;
    memcpy(rp.color[0].clear_color, v, sizeof v);
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    float fp[4 * 16];
    trt_download(f, 0, 0, TR_ASPECT_COLOR, fp);
    cr_expect_eq(bits_of(fp[0]), 0x7fc00000u);
    cr_expect_eq(bits_of(fp[1]), 0x7f800000u);
    cr_expect_eq(bits_of(fp[2]), 0x80000000u);
    cr_expect_eq(bits_of(fp[3]), 0x7fc00000u);
    tr_context_destroy(ctx);
}
