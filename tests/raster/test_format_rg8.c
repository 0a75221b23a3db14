/* TR_FORMAT_R8G8_UNORM, everywhere a colour format goes, with exact bytes:
 * transfers, fills and the RGBA8 read-back, PNG output and loading, load-op
 * clears, triangles written and blended into an R8G8 attachment (through
 * the reference per-texel path, at every SIMD level), sampling (nearest,
 * bilinear, mip levels, texel fetch), mip generation, and the UNORM
 * conversion of out-of-range, infinite and NaN values.  R8G8 reads as
 * (r, g, 0, 1); its UNORM rules are R8G8B8A8_UNORM's, channel by channel.
 * Expected bytes come from the rules (Vulkan's UNORM8: round(clamp(x) *
 * 255), NaN -> 0) evaluated here in double, at values far from a rounding
 * tie. */
#include "trtest.h"

#include <math.h>
#include <string.h>
#include <unistd.h>

/* Vulkan's float -> UNORM8, in double. */
static uint8_t ref_unorm8(double x)
{
    if (!(x > 0.0))
        return 0;
    if (x >= 1.0)
        return 255;
    return (uint8_t)floor(x * 255.0 + 0.5);
}

static tr_image *rg8_image(tr_context *ctx, uint32_t w, uint32_t h, uint32_t layers, uint32_t levels)
{
    tr_image_desc d = {TR_FORMAT_R8G8_UNORM, w, h, layers, levels, 0, 0};
    tr_image *img = NULL;
    TRT_OK(tr_image_create(ctx, &d, &img));
    return img;
}

/* ---- the format and transfers ---------------------------------------------------------------- */

Test(raster, rg8_format_queries)
{
    cr_expect_eq(tr_format_texel_size(TR_FORMAT_R8G8_UNORM, TR_ASPECT_DEFAULT), 2u);
    cr_expect_eq(tr_format_texel_size(TR_FORMAT_R8G8_UNORM, TR_ASPECT_COLOR), 2u);
    cr_expect_eq(tr_format_texel_size(TR_FORMAT_R8G8_UNORM, TR_ASPECT_DEPTH), 0u);
    cr_expect_eq(tr_format_texel_size(TR_FORMAT_R8G8_UNORM, TR_ASPECT_STENCIL), 0u);
    cr_expect_str_eq(tr_format_name(TR_FORMAT_R8G8_UNORM), "R8G8_UNORM");
    cr_expect_eq(tr_format_is_depth(TR_FORMAT_R8G8_UNORM), 0);
    cr_expect_eq(tr_format_has_stencil(TR_FORMAT_R8G8_UNORM), 0);

    tr_context *ctx = trt_context(1);
    tr_image *img = rg8_image(ctx, 9, 7, 3, TR_LEVELS_ALL);
    tr_image_desc d = tr_image_get_desc(img);
    cr_expect_eq(d.format, TR_FORMAT_R8G8_UNORM);
    cr_expect_eq(d.levels, 4u); /* 9x7, 4x3, 2x1, 1x1 */
    cr_expect_eq(trt_subresource_bytes(img, TR_ASPECT_COLOR), 9u * 7u * 2u);
    uint8_t buf[8] = {0};
    tr_subresource depth = {0, 0, TR_ASPECT_DEPTH, 0};
    TRT_EXPECT(tr_image_download(img, &depth, buf, 0), TR_ERROR_INVALID_ARGUMENT);
    tr_context_destroy(ctx);
}

/* Every level and layer keeps its own bytes, with and without a row pitch. */
Test(raster, rg8_upload_download_round_trip)
{
    enum { W = 7, H = 5, L = 2 };
    tr_context *ctx = trt_context(1);
    tr_image *img = rg8_image(ctx, W, H, L, 2);
    uint8_t src[L][2][H][W * 2];
    for (int l = 0; l < L; l++)
        for (int lv = 0; lv < 2; lv++)
            for (int y = 0; y < H; y++)
                for (int x = 0; x < W * 2; x++)
                    src[l][lv][y][x] = (uint8_t)(l * 101 + lv * 57 + y * 31 + x * 7 + 3);
    for (uint32_t l = 0; l < L; l++)
        for (uint32_t lv = 0; lv < 2; lv++) {
            /* level 1 is 3x2: uploaded from the same rows with the full row as pitch */
            tr_subresource s = {lv, l, TR_ASPECT_COLOR, 0};
            TRT_OK(tr_image_upload(img, &s, src[l][lv], W * 2));
        }
    for (uint32_t l = 0; l < L; l++)
        for (uint32_t lv = 0; lv < 2; lv++) {
            const uint32_t w = tr_image_level_width(img, lv), h = tr_image_level_height(img, lv);
            uint8_t tight[H * W * 2], pitched[H][W * 2 + 5];
            trt_download(img, lv, l, TR_ASPECT_COLOR, tight);
            memset(pitched, 0xee, sizeof pitched);
            tr_subresource s = {lv, l, TR_ASPECT_COLOR, 0};
            TRT_OK(tr_image_download(img, &s, pitched, sizeof pitched[0]));
            for (uint32_t y = 0; y < h; y++) {
                cr_expect_arr_eq(tight + y * w * 2, src[l][lv][y], w * 2, "layer %u level %u row %u", l, lv, y);
                cr_expect_arr_eq(pitched[y], src[l][lv][y], w * 2, "pitched: layer %u level %u row %u", l, lv, y);
                cr_expect_eq(pitched[y][w * 2], 0xee, "download wrote past the row");
            }
        }
    tr_context_destroy(ctx);
}

/* tr_image_fill converts as UNORM8 channel by channel; blue and alpha have no
 * storage and are ignored; the RGBA8 read-back is (r, g, 0, 255). */
Test(raster, rg8_fill_and_read_rgba8)
{
    tr_context *ctx = trt_context(1);
    tr_image *img = rg8_image(ctx, 5, 3, 2, 1);
    const float v[4] = {0.35f, 0.8f, 0.6f, 0.1f};
    const tr_subresource layer1 = {0, 1, TR_ASPECT_DEFAULT, 0};
    TRT_OK(tr_image_fill(img, &layer1, v));
    uint8_t l0[5 * 3 * 2], l1[5 * 3 * 2];
    trt_download(img, 0, 0, TR_ASPECT_COLOR, l0);
    trt_download(img, 0, 1, TR_ASPECT_COLOR, l1);
    const uint8_t want[2] = {ref_unorm8(0.35), ref_unorm8(0.8)}; /* 89.25 -> 89, 204 */
    cr_assert_eq(want[0], 89);
    cr_assert_eq(want[1], 204);
    for (int i = 0; i < 5 * 3; i++) {
        cr_expect_eq(l0[2 * i], 0, "layer 0 was not filled");
        cr_expect_eq(l0[2 * i + 1], 0);
        cr_expect_arr_eq(l1 + 2 * i, want, 2, "texel %d: %u %u", i, l1[2 * i], l1[2 * i + 1]);
    }

    uint8_t px[5 * 3 * 2];
    for (int i = 0; i < 5 * 3 * 2; i++)
        px[i] = (uint8_t)(i * 17 + 250);
    TRT_OK(tr_image_upload(img, NULL, px, 0));
    uint8_t rgba[5 * 3 * 4];
    TRT_OK(tr_image_read_rgba8(img, NULL, rgba));
    for (int i = 0; i < 5 * 3; i++) {
        const uint8_t w4[4] = {px[2 * i], px[2 * i + 1], 0, 255};
        cr_expect_arr_eq(rgba + 4 * i, w4, 4, "texel %d", i);
    }
    TRT_OK(tr_image_read_rgba8(img, &layer1, rgba));
    for (int i = 0; i < 5 * 3; i++) {
        const uint8_t w4[4] = {89, 204, 0, 255};
        cr_expect_arr_eq(rgba + 4 * i, w4, 4, "layer 1 texel %d", i);
    }
    tr_context_destroy(ctx);
}

/* Clamping, NaN and rounding of the conversion, through tr_image_fill (the
 * same encoder serves clears, blending and the store). */
Test(raster, rg8_encode_out_of_range_and_nan)
{
    static const struct {
        float r, g, b, a;
        uint8_t want_r, want_g;
    } cases[] = {
        {-0.5f, 1.5f, 0, 1, 0, 255},
        {NAN, -NAN, 0.5f, 0.5f, 0, 0},
        {INFINITY, -INFINITY, NAN, NAN, 255, 0},   /* NaN in b and a: ignored */
        {1e30f, -1e30f, -7.0f, 9.0f, 255, 0},
        {-0.0f, 1.0f, 0, 0, 0, 255},
        {0.5f, 0.25f, 0, 1, 128, 64},              /* 127.5 + 0.5 -> 128; 63.75 + 0.5 -> 64 */
        {0.0019f, 0.0021f, 0, 1, 0, 1},            /* 0.4845 -> 0; 0.5355 -> 1 */
        {0.9979f, 0.9981f, 0, 1, 254, 255},        /* 254.46 -> 254; 254.52 -> 255 */
        {0x1p-149f, 0.999f, 0, 1, 0, 255},         /* the smallest subnormal; 254.7 -> 255 */
    };
    tr_context *ctx = trt_context(1);
    tr_image *img = rg8_image(ctx, 2, 2, 1, 1);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const float v[4] = {cases[i].r, cases[i].g, cases[i].b, cases[i].a};
        TRT_OK(tr_image_fill(img, NULL, v));
        uint8_t got[8];
        trt_download(img, 0, 0, TR_ASPECT_COLOR, got);
        for (int t = 0; t < 4; t++) {
            cr_expect_eq(got[2 * t], cases[i].want_r, "case %zu: r %u, want %u", i, got[2 * t], cases[i].want_r);
            cr_expect_eq(got[2 * t + 1], cases[i].want_g, "case %zu: g %u, want %u", i, got[2 * t + 1],
                         cases[i].want_g);
        }
    }
    tr_context_destroy(ctx);
}

/* ---- PNG out, files in ----------------------------------------------------------------------- */

Test(raster, rg8_png_and_load)
{
    enum { W = 11, H = 6 };
    tr_context *ctx = trt_context(1);
    tr_image *img = rg8_image(ctx, W, H, 1, 1);
    uint8_t px[W * H * 2];
    for (int i = 0; i < W * H * 2; i++)
        px[i] = (uint8_t)(i * 41 + 9);
    TRT_OK(tr_image_upload(img, NULL, px, 0));
    char path[256];
    snprintf(path, sizeof path, "/tmp/tilerast_rg8_%d.png", (int)getpid());
    TRT_OK(tr_image_write_png(img, NULL, path));

    /* The PNG holds (r, g, 0, 255). */
    tr_image *rgba = NULL;
    TRT_OK(tr_image_load(ctx, path, TR_FORMAT_R8G8B8A8_UNORM, 1, &rgba));
    uint8_t back[W * H * 4];
    trt_download(rgba, 0, 0, TR_ASPECT_COLOR, back);
    for (int i = 0; i < W * H; i++) {
        const uint8_t w4[4] = {px[2 * i], px[2 * i + 1], 0, 255};
        cr_expect_arr_eq(back + 4 * i, w4, 4, "png texel %d", i);
    }

    /* Loaded as R8G8_UNORM: the file's red and green, and the whole chain
     * equals generating it on an uploaded copy. */
    tr_image *rg = NULL;
    TRT_OK(tr_image_load(ctx, path, TR_FORMAT_R8G8_UNORM, TR_LEVELS_ALL, &rg));
    const tr_image_desc d = tr_image_get_desc(rg);
    cr_expect_eq(d.format, TR_FORMAT_R8G8_UNORM);
    cr_expect_eq(d.width, (uint32_t)W);
    cr_expect_eq(d.height, (uint32_t)H);
    cr_expect_eq(d.levels, 4u);
    uint8_t rgb[W * H * 2];
    trt_download(rg, 0, 0, TR_ASPECT_COLOR, rgb);
    cr_expect_arr_eq(rgb, px, sizeof px);
    tr_image *ref = rg8_image(ctx, W, H, 1, TR_LEVELS_ALL);
    TRT_OK(tr_image_upload(ref, NULL, px, 0));
    TRT_OK(tr_image_generate_mips(ref));
    for (uint32_t l = 1; l < 4; l++) {
        uint8_t a[W * H * 2], b[W * H * 2];
        trt_download(rg, l, 0, TR_ASPECT_COLOR, a);
        trt_download(ref, l, 0, TR_ASPECT_COLOR, b);
        cr_expect_arr_eq(a, b, (size_t)tr_image_level_width(rg, l) * tr_image_level_height(rg, l) * 2, "level %u",
                         l);
    }
    unlink(path);
    tr_context_destroy(ctx);
}

/* ---- mip generation ---------------------------------------------------------------------------- */

/* (a + b + c + d + 2) / 4 and (a + b + 1) / 2 in integers, per channel, as
 * RGBA8 UNORM; 5x3 -> 2x1 -> 1x1 (the odd row and column do not count). */
Test(raster, rg8_mips_exact)
{
    tr_context *ctx = trt_context(1);
    tr_image *img = rg8_image(ctx, 5, 3, 1, TR_LEVELS_ALL);
    cr_assert_eq(tr_image_get_desc(img).levels, 3u);
    /* Row 0 then row 1 of level 0's first four columns carry the cases;
     * column 4 and row 2 hold 255s that must not leak in. */
    const uint8_t l0[3][5][2] = {
        {{0, 1}, {0, 1}, {1, 200}, {2, 100}, {255, 255}},
        {{0, 1}, {1, 0}, {2, 50}, {2, 51}, {255, 255}},
        {{255, 255}, {255, 255}, {255, 255}, {255, 255}, {255, 255}},
    };
    TRT_OK(tr_image_upload(img, NULL, l0, 0));
    TRT_OK(tr_image_generate_mips(img));
    uint8_t l1[2][2], l2[2];
    trt_download(img, 1, 0, TR_ASPECT_COLOR, l1);
    trt_download(img, 2, 0, TR_ASPECT_COLOR, l2);
    /* texel 0: r (0+0+0+1+2)/4 = 0, g (1+1+1+0+2)/4 = 1;
     * texel 1: r (1+2+2+2+2)/4 = 2, g (200+100+50+51+2)/4 = 403/4 = 100 */
    cr_expect_eq(l1[0][0], 0);
    cr_expect_eq(l1[0][1], 1);
    cr_expect_eq(l1[1][0], 2);
    cr_expect_eq(l1[1][1], 100);
    /* level 2 from a one-texel-high level: r (0+2+1)/2 = 1, g (1+100+1)/2 = 51 */
    cr_expect_eq(l2[0], 1);
    cr_expect_eq(l2[1], 51);

    /* Halves round up: r (1+1+0+0+2)/4 = 1 (0.5), g (255+255+254+254+2)/4 =
     * 255 (254.5). */
    tr_image *t = rg8_image(ctx, 2, 2, 1, 2);
    const uint8_t q[4][2] = {{1, 255}, {1, 255}, {0, 254}, {0, 254}};
    TRT_OK(tr_image_upload(t, NULL, q, 0));
    TRT_OK(tr_image_generate_mips(t));
    uint8_t m[2];
    trt_download(t, 1, 0, TR_ASPECT_COLOR, m);
    cr_expect_eq(m[0], 1);
    cr_expect_eq(m[1], 255);
    tr_context_destroy(ctx);
}

/* ---- rendering into an R8G8 attachment --------------------------------------------------------- */

enum { RW = 96, RH = 64 };

/* The triangle every render test draws, in pixel coordinates, and the
 * pixels the reference rasterizer says it covers. */
static const float tri_px[3][2] = {{5.3f, 2.7f}, {90.6f, 12.2f}, {14.1f, 61.4f}};

static void coverage(uint8_t *cov)
{
    memset(cov, 0, RW * RH);
    const uint32_t n = trt_ref_triangle(tri_px, TR_TIE_TOP_LEFT, RW, RH, cov);
    cr_assert_gt(n, 500u);
    cr_assert_lt(n, RW * RH - 500u);
}

/* Clears to `clear`, draws the triangle in the uniform colour `src` with
 * blend state `bs` (NULL: none), returns the R8G8 bytes. */
static void render(tr_simd_level simd, const float clear[4], const float src[4], const tr_blend_state *bs,
                   uint8_t *out)
{
    tr_context_desc cd = {0};
    cd.threads = 2;
    cd.simd = simd;
    cd.gmem_bytes = 8u << 10; /* 4096 R8G8 pixels: two 64x64 bins over the 96x64 target */
    tr_context *ctx = trt_context_desc(&cd);
    tr_image *img = rg8_image(ctx, RW, RH, 1, 1);
    tr_pipeline_desc pd = {0};
    pd.fragment_shader = trt_fs_uniform;
    if (bs)
        pd.blend[0] = *bs;
    tr_pipeline *pl = trt_pipeline(ctx, &pd);
    trt_begin_color(ctx, img, clear);
    TRT_OK(tr_cmd_bind_pipeline(ctx, pl));
    trt_vertex v[3];
    for (int i = 0; i < 3; i++)
        v[i] = trt_vpx(tri_px[i][0], tri_px[i][1], 0.5f, RW, RH, NULL);
    trt_uniforms u;
    memset(&u, 0, sizeof u);
    memcpy(u.color[0], src, sizeof u.color[0]);
    trt_draw_u(ctx, &u, v, 3);
    tr_pass_stats st;
    memset(&st, 0, sizeof st);
    TRT_OK(tr_cmd_end_render_pass(ctx, &st));
    cr_expect_gt(st.layout.bins_x * st.layout.bins_y, 1u);
    trt_download(img, 0, 0, TR_ASPECT_COLOR, out);
    tr_context_destroy(ctx);
}

static const tr_simd_level levels[2] = {TR_SIMD_DEFAULT, TR_SIMD_SCALAR};

/* Each pixel: covered -> cov_rg, else clear_rg. */
static void expect_image(const uint8_t *got, const uint8_t *cov, const uint8_t clear_rg[2], const uint8_t cov_rg[2],
                         const char *what)
{
    for (int i = 0; i < RW * RH; i++) {
        const uint8_t *w = cov[i] ? cov_rg : clear_rg;
        cr_expect(got[2 * i] == w[0] && got[2 * i + 1] == w[1], "%s: pixel (%d, %d) is (%u, %u), want (%u, %u)",
                  what, i % RW, i / RW, got[2 * i], got[2 * i + 1], w[0], w[1]);
    }
}

/* LOAD_OP_CLEAR alone: the clear colour converted, out-of-range values
 * clamped and NaN made 0; LOAD keeps the image's bytes through GMEM. */
Test(raster, rg8_load_op_clear_and_load)
{
    tr_context *ctx = trt_context(2);
    tr_image *a = rg8_image(ctx, 13, 9, 1, 1), *b = rg8_image(ctx, 13, 9, 1, 1);
    uint8_t px[13 * 9 * 2];
    for (int i = 0; i < 13 * 9 * 2; i++)
        px[i] = (uint8_t)(i * 13 + 1);
    TRT_OK(tr_image_upload(b, NULL, px, 0));
    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.color_count = 2;
    rp.color[0].image = a;
    rp.color[0].load_op = TR_LOAD_OP_CLEAR;
    const float clear[4] = {0.25f, 0.75f, 0.9f, 0.1f};
    memcpy(rp.color[0].clear_color, clear, sizeof clear);
    rp.color[1].image = b;
    rp.color[1].load_op = TR_LOAD_OP_LOAD;
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    uint8_t got[13 * 9 * 2];
    trt_download(a, 0, 0, TR_ASPECT_COLOR, got);
    for (int i = 0; i < 13 * 9; i++) {
        cr_expect_eq(got[2 * i], 64, "texel %d r %u", i, got[2 * i]);       /* 63.75 + 0.5 */
        cr_expect_eq(got[2 * i + 1], 191, "texel %d g %u", i, got[2 * i + 1]); /* 191.25 + 0.5 */
    }
    trt_download(b, 0, 0, TR_ASPECT_COLOR, got);
    cr_expect_arr_eq(got, px, sizeof px);

    const float odd[4] = {-3.0f, NAN, 2.0f, -1.0f};
    memcpy(rp.color[0].clear_color, odd, sizeof odd);
    const float big[4] = {7.0f, -0.0f, NAN, NAN};
    memcpy(rp.color[1].clear_color, big, sizeof big);
    rp.color[1].load_op = TR_LOAD_OP_CLEAR;
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    trt_download(a, 0, 0, TR_ASPECT_COLOR, got);
    for (int i = 0; i < 13 * 9 * 2; i++)
        cr_expect_eq(got[i], 0, "byte %d: %u", i, got[i]);
    trt_download(b, 0, 0, TR_ASPECT_COLOR, got);
    for (int i = 0; i < 13 * 9; i++) {
        cr_expect_eq(got[2 * i], 255);
        cr_expect_eq(got[2 * i + 1], 0);
    }
    tr_context_destroy(ctx);
}

/* No blending: covered pixels get the shader's colour converted (blue and
 * alpha dropped; out-of-range values clamped), the rest keep the clear. */
Test(raster, rg8_triangle_no_blend)
{
    uint8_t cov[RW * RH], got[RW * RH * 2];
    coverage(cov);
    const float clear[4] = {0.25f, 0.75f, 0, 1};
    const uint8_t clear_rg[2] = {64, 191};
    const float src[4] = {0.35f, 0.8f, 0.1f, 0.6f};
    const uint8_t src_rg[2] = {ref_unorm8(0.35f), ref_unorm8(0.8f)};
    cr_assert_eq(src_rg[0], 89);
    cr_assert_eq(src_rg[1], 204);
    const float wild[4] = {1.7f, -0.4f, NAN, NAN};
    const uint8_t wild_rg[2] = {255, 0};
    for (int s = 0; s < 2; s++) {
        render(levels[s], clear, src, NULL, got);
        expect_image(got, cov, clear_rg, src_rg, s ? "no blend, scalar" : "no blend");
        render(levels[s], clear, wild, NULL, got);
        expect_image(got, cov, clear_rg, wild_rg, s ? "out of range, scalar" : "out of range");
    }
    /* A write mask of green alone keeps the clear's red. */
    tr_blend_state g_only = {0};
    g_only.write_mask = 0x2;
    const uint8_t masked[2] = {64, 204};
    for (int s = 0; s < 2; s++) {
        render(levels[s], clear, src, &g_only, got);
        expect_image(got, cov, clear_rg, masked, s ? "green mask, scalar" : "green mask");
    }
}

/* Blending reads the destination as (r, g, 0, 1): source-over uses the
 * source alpha (which R8G8 cannot store) and a destination-alpha blend sees
 * alpha 1. */
Test(raster, rg8_triangle_blend)
{
    uint8_t cov[RW * RH], got[RW * RH * 2];
    coverage(cov);
    const float clear[4] = {0.25f, 0.75f, 0, 1};
    const uint8_t clear_rg[2] = {64, 191};
    const float src[4] = {0.35f, 0.8f, 0.1f, 0.6f};

    /* src * a + dst * (1 - a): r 0.35*0.6 + (64/255)*0.4 = 0.310392 -> 79.15
     * -> 79; g 0.8*0.6 + (191/255)*0.4 = 0.779608 -> 198.80 -> 199. */
    tr_blend_state over = {0};
    over.enable = 1;
    over.src_color = TR_BLEND_SRC_ALPHA;
    over.dst_color = TR_BLEND_ONE_MINUS_SRC_ALPHA;
    over.src_alpha = TR_BLEND_ONE;
    over.dst_alpha = TR_BLEND_ZERO;
    const uint8_t over_rg[2] = {ref_unorm8(0.35 * 0.6 + 64.0 / 255.0 * 0.4),
                                ref_unorm8(0.8 * 0.6 + 191.0 / 255.0 * 0.4)};
    cr_assert_eq(over_rg[0], 79);
    cr_assert_eq(over_rg[1], 199);

    /* src * (1 - dst alpha) + dst * dst alpha = dst when dst alpha is 1. */
    tr_blend_state dst_alpha = {0};
    dst_alpha.enable = 1;
    dst_alpha.src_color = TR_BLEND_ONE_MINUS_DST_ALPHA;
    dst_alpha.dst_color = TR_BLEND_DST_ALPHA;

    /* Additive, clamped: r 64/255 + 0.35 = 0.60098 -> 153.25 -> 153; g
     * 191/255 + 0.8 > 1 -> 255. */
    tr_blend_state add = {0};
    add.enable = 1;
    add.src_color = add.dst_color = add.src_alpha = add.dst_alpha = TR_BLEND_ONE;
    const uint8_t add_rg[2] = {ref_unorm8(64.0 / 255.0 + 0.35), 255};
    cr_assert_eq(add_rg[0], 153);

    for (int s = 0; s < 2; s++) {
        render(levels[s], clear, src, &over, got);
        expect_image(got, cov, clear_rg, over_rg, s ? "source over, scalar" : "source over");
        render(levels[s], clear, src, &dst_alpha, got);
        expect_image(got, cov, clear_rg, clear_rg, s ? "dst alpha, scalar" : "dst alpha");
        render(levels[s], clear, src, &add, got);
        expect_image(got, cov, clear_rg, add_rg, s ? "additive, scalar" : "additive");
    }
}

/* ---- sampling ----------------------------------------------------------------------------------- */

/* A 2x2 texture of multiples of 51, so that every decoded value c / 255.0f
 * is the float nearest to a tenth: 0, 0.2f, 0.4f, 0.6f, 0.8f, 1. */
static const uint8_t tex2x2[2][2][2] = {{{0, 255}, {255, 0}}, {{51, 102}, {204, 153}}};

typedef struct sample_rig {
    tr_context *ctx;
    tr_image *img;
    tr_sampler *smp;
    tr_texture_binding slots[TR_MAX_TEXTURES];
    tr_fs_block blk;
} sample_rig;

static void rig_init(sample_rig *r, tr_filter filter, uint32_t levels)
{
    memset(r, 0, sizeof *r);
    r->ctx = trt_context(1);
    r->img = rg8_image(r->ctx, 2, 2, 1, levels);
    TRT_OK(tr_image_upload(r->img, NULL, tex2x2, 0));
    if (levels > 1)
        TRT_OK(tr_image_generate_mips(r->img));
    tr_sampler_desc sd = {0};
    sd.mag_filter = sd.min_filter = filter;
    sd.address_u = sd.address_v = TR_ADDRESS_CLAMP_TO_EDGE;
    TRT_OK(tr_sampler_create(r->ctx, &sd, &r->smp));
    r->slots[3].image = r->img;
    r->slots[3].sampler = r->smp;
    r->blk.count = 4;
    r->blk.live = 0xf;
    r->blk.textures = r->slots;
}

static void expect_rgba(float out[4][TR_FS_LANES], uint32_t lane, float r, float g, const char *what)
{
    const float want[4] = {r, g, 0.0f, 1.0f};
    for (int c = 0; c < 4; c++)
        cr_expect(out[c][lane] == want[c], "%s: lane %u channel %d is %a, want %a", what, lane, c,
                  (double)out[c][lane], (double)want[c]);
}

Test(raster, rg8_sample_nearest)
{
    sample_rig r;
    rig_init(&r, TR_FILTER_NEAREST, 1);
    /* texel centres of (0,0), (1,0), (0,1), (1,1), at LOD 0 */
    const float s[4] = {0.25f, 0.75f, 0.25f, 0.75f}, t[4] = {0.25f, 0.25f, 0.75f, 0.75f}, lod[4] = {0, 0, 0, 0};
    float out[4][TR_FS_LANES];
    tr_fs_texture_lod(&r.blk, 3, s, t, lod, out);
    expect_rgba(out, 0, 0.0f, 1.0f, "nearest (0,0)");
    expect_rgba(out, 1, 1.0f, 0.0f, "nearest (1,0)");
    expect_rgba(out, 2, 0.2f, 0.4f, "nearest (0,1)");
    expect_rgba(out, 3, 0.8f, 0.6f, "nearest (1,1)");

    /* texelFetch decodes the same, and reads (0, 0, 0, 1) outside: R8G8
     * has no alpha. */
    const int32_t x[4] = {1, 0, 2, -1}, y[4] = {1, 1, 0, 0};
    tr_fs_texel_fetch(&r.blk, 3, x, y, NULL, NULL, out);
    expect_rgba(out, 0, 0.8f, 0.6f, "fetch (1,1)");
    expect_rgba(out, 1, 0.2f, 0.4f, "fetch (0,1)");
    expect_rgba(out, 2, 0.0f, 0.0f, "fetch outside");
    expect_rgba(out, 3, 0.0f, 0.0f, "fetch outside");
    tr_context_destroy(r.ctx);
}

/* texture.h steps 7 and 10 by hand on the 2x2 texture (clamp to edge):
 * - centre (0.5, 0.5): u = 1, U' = 256 - 128, a = b = 128, every weight
 *   16384; r = ((0 + 1) + (0.2f + 0.8f)) / 4 = 0.5 (0.2f + 0.8f rounds to 1),
 *   g = ((1 + 0) + (0.4f + 0.6f)) / 4 = 0.5, alpha (4 * 16384) / 65536 = 1;
 * - (0.625, 0.25): u = 1.25, U' = 192, a = 192; v = 0.5, V' = 0, b = 0:
 *   w00 = 64 * 256, w10 = 192 * 256, w01 = w11 = 0: r = 0.75, g = 0.25;
 * - (0.25, 0.625): likewise down the left column: 0.25 * (0, 1) + 0.75 *
 *   (0.2f, 0.4f) = (0.75 * 0.2f, 0.25 + 0.75 * 0.4f), computed here as the
 *   header orders it. */
Test(raster, rg8_sample_bilinear)
{
    sample_rig r;
    rig_init(&r, TR_FILTER_LINEAR, 1);
    const float s[4] = {0.5f, 0.625f, 0.25f, 0.0f}, t[4] = {0.5f, 0.25f, 0.625f, 0.0f}, lod[4] = {0, 0, 0, 0};
    float out[4][TR_FS_LANES];
    tr_fs_texture_lod(&r.blk, 3, s, t, lod, out);
    expect_rgba(out, 0, 0.5f, 0.5f, "bilinear centre");
    expect_rgba(out, 1, 0.75f, 0.25f, "bilinear (0.625, 0.25)");
    const float w00 = 16384.0f, w01 = 49152.0f; /* (256 - 0) * (256 - 192), (256 - 0) * 192 */
    const float r2 = ((w00 * 0.0f + 0.0f * 1.0f) + (w01 * 0.2f + 0.0f * 0.8f)) * 0x1p-16f;
    const float g2 = ((w00 * 1.0f + 0.0f * 0.0f) + (w01 * 0.4f + 0.0f * 0.6f)) * 0x1p-16f;
    cr_expect(fabsf(r2 - 0.15f) < 1e-6f && fabsf(g2 - 0.55f) < 1e-6f);
    expect_rgba(out, 2, r2, g2, "bilinear (0.25, 0.625)");
    /* the corner, clamped to edge: all four taps are texel (0, 0) */
    expect_rgba(out, 3, 0.0f, 1.0f, "bilinear corner");
    tr_context_destroy(r.ctx);
}

/* Level 1 of the 2x2 texture is (0+255+51+204+2)/4 = 128 for red and
 * (255+0+102+153+2)/4 = 128 for green; an explicit LOD of 1 reads it, and
 * LOD 0.5 with mipmap linear mixes the two levels half and half. */
Test(raster, rg8_sample_mips)
{
    sample_rig r;
    rig_init(&r, TR_FILTER_NEAREST, 2);
    uint8_t l1[2];
    trt_download(r.img, 1, 0, TR_ASPECT_COLOR, l1);
    cr_expect_eq(l1[0], 128);
    cr_expect_eq(l1[1], 128);
    const float half = 128.0f / 255.0f;
    const float s[4] = {0.25f, 0.75f, 0.25f, 0.25f}, t[4] = {0.25f, 0.75f, 0.75f, 0.25f}, lod[4] = {1, 1, 3, 0.5f};
    float out[4][TR_FS_LANES];
    tr_fs_texture_lod(&r.blk, 3, s, t, lod, out);
    expect_rgba(out, 0, half, half, "level 1");
    expect_rgba(out, 1, half, half, "level 1");
    expect_rgba(out, 2, half, half, "LOD 3 clamps to level 1");
    /* mipmap nearest at LOD 0.5: level (128 + 127) >> 8 = 0 (halves down) */
    expect_rgba(out, 3, 0.0f, 1.0f, "LOD 0.5, mipmap nearest");

    tr_sampler_desc sd = {0};
    sd.mipmap_mode = TR_MIPMAP_LINEAR;
    tr_sampler *lin = NULL;
    TRT_OK(tr_sampler_create(r.ctx, &sd, &lin));
    r.slots[3].sampler = lin;
    const float s2[4] = {0.25f, 0.25f, 0.75f, 0.75f}, t2[4] = {0.25f, 0.25f, 0.75f, 0.75f};
    const float lod2[4] = {0.5f, 0.5f, 0.5f, 0.5f};
    tr_fs_texture_lod(&r.blk, 3, s2, t2, lod2, out);
    /* ((256 - 128) * tau_hi + 128 * tau_lo) * 2^-8, delta = 128 */
    const float r0 = (128.0f * 0.0f + 128.0f * half) * 0x1p-8f, g0 = (128.0f * 1.0f + 128.0f * half) * 0x1p-8f;
    const float r3 = (128.0f * 0.8f + 128.0f * half) * 0x1p-8f, g3 = (128.0f * 0.6f + 128.0f * half) * 0x1p-8f;
    expect_rgba(out, 0, r0, g0, "trilinear (0,0)");
    expect_rgba(out, 3, r3, g3, "trilinear (1,1)");
    r.slots[3].sampler = r.smp;
    tr_context_destroy(r.ctx);
}
