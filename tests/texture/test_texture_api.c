/* Textures outside the shader: binding rules and their errors, objects held
 * by the recording pass, mip-chain generation (exact texels for every
 * colour format and odd sizes) and loading PNG and JPEG files. */
#include "trtest.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#endif
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

static tr_sampler *make_sampler(tr_context *ctx, const tr_sampler_desc *d)
{
    tr_sampler *s = NULL;
    tr_sampler_desc zero = {0};
    TRT_OK(tr_sampler_create(ctx, d ? d : &zero, &s));
    return s;
}

static tr_image *make_texture(tr_context *ctx, tr_format f, uint32_t w, uint32_t h, uint32_t levels)
{
    tr_image_desc d = {f, w, h, 1, levels, 0};
    tr_image *img = NULL;
    TRT_OK(tr_image_create(ctx, &d, &img));
    return img;
}

/* ---- binding ------------------------------------------------------------------------------ */

Test(texture_api, bind_errors)
{
    tr_context *ctx = trt_context(1);
    tr_image *rt = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, 16, 16);
    tr_image *tex = make_texture(ctx, TR_FORMAT_R8G8B8A8_UNORM, 8, 8, 1);
    tr_image *depth = make_texture(ctx, TR_FORMAT_D32_SFLOAT, 8, 8, 1);
    tr_sampler *plain = make_sampler(ctx, NULL);
    tr_sampler_desc cd = {.compare = TR_COMPARE_LESS};
    tr_sampler *cmp = make_sampler(ctx, &cd);

    TRT_EXPECT(tr_cmd_bind_texture(ctx, 0, tex, plain), TR_ERROR_INVALID_STATE); /* no pass */
    trt_begin_color(ctx, rt, NULL);
    TRT_EXPECT(tr_cmd_bind_texture(ctx, TR_MAX_TEXTURES, tex, plain), TR_ERROR_OUT_OF_RANGE);
    TRT_EXPECT(tr_cmd_bind_texture(ctx, 0, tex, cmp), TR_ERROR_UNSUPPORTED_FORMAT);
    cr_expect(strstr(tr_context_last_error(ctx), "depth") != NULL, "message: %s", tr_context_last_error(ctx));
    TRT_EXPECT(tr_cmd_bind_texture(ctx, 0, rt, plain), TR_ERROR_INVALID_STATE); /* an attachment */
    TRT_OK(tr_cmd_bind_texture(ctx, 0, depth, cmp));
    TRT_OK(tr_cmd_bind_texture(ctx, 1, depth, plain)); /* depth as (d, 0, 0, 1) */
    TRT_OK(tr_cmd_bind_texture(ctx, 2, tex, NULL));    /* the default sampler */
    TRT_OK(tr_cmd_bind_texture(ctx, 2, NULL, NULL));   /* unbind */

    /* A pipeline that declares slot 2 cannot draw while slot 2 is empty. */
    tr_pipeline_desc pd = {.texture_mask = 1u << 2};
    tr_pipeline *pl = trt_pipeline(ctx, &pd);
    TRT_OK(tr_cmd_bind_pipeline(ctx, pl));
    trt_vertex v[3] = {trt_vpx(0, 0, 0, 16, 16, NULL), trt_vpx(16, 0, 0, 16, 16, NULL),
                       trt_vpx(0, 16, 0, 16, 16, NULL)};
    trt_uniforms u = {.vertices = v};
    TRT_OK(tr_cmd_set_uniforms(ctx, &u, sizeof u));
    TRT_EXPECT(tr_cmd_draw(ctx, 3, 1, 0, 0), TR_ERROR_INVALID_STATE);
    cr_expect(strstr(tr_context_last_error(ctx), "slot 2") != NULL, "message: %s", tr_context_last_error(ctx));
    TRT_OK(tr_cmd_bind_texture(ctx, 2, tex, plain));
    TRT_OK(tr_cmd_draw(ctx, 3, 1, 0, 0));
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));

    tr_pipeline_desc bad = {.texture_mask = 1u << TR_MAX_TEXTURES};
    bad.vertex_shader = trt_vs;
    tr_pipeline *p2 = NULL;
    TRT_EXPECT(tr_pipeline_create(ctx, &bad, &p2), TR_ERROR_INVALID_DESCRIPTOR);
    tr_context_destroy(ctx);
}

/* Bound images, samplers and pipelines cannot change under recorded draws;
 * after the pass they can. */
Test(texture_api, bound_objects_are_held_by_the_pass)
{
    tr_context *ctx = trt_context(1);
    tr_image *rt = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, 8, 8);
    tr_image *tex = make_texture(ctx, TR_FORMAT_R8G8B8A8_UNORM, 8, 8, TR_LEVELS_ALL);
    tr_sampler *smp = make_sampler(ctx, NULL);
    tr_pipeline *pl = trt_pipeline(ctx, NULL);
    uint8_t px[8 * 8 * 4] = {0};
    const float one[4] = {1, 1, 1, 1};

    trt_begin_color(ctx, rt, NULL);
    TRT_OK(tr_cmd_bind_pipeline(ctx, pl));
    TRT_OK(tr_cmd_bind_texture(ctx, 0, tex, smp));
    TRT_EXPECT(tr_image_upload(tex, NULL, px, 0), TR_ERROR_INVALID_STATE);
    TRT_EXPECT(tr_image_fill(tex, NULL, one), TR_ERROR_INVALID_STATE);
    TRT_EXPECT(tr_image_generate_mips(tex), TR_ERROR_INVALID_STATE);
    TRT_OK(tr_image_download(tex, NULL, px, 0)); /* reading is fine */
    tr_image_destroy(tex);
    cr_expect(strstr(tr_context_last_error(ctx), "bound texture") != NULL, "%s", tr_context_last_error(ctx));
    tr_sampler_destroy(smp);
    cr_expect(strstr(tr_context_last_error(ctx), "bound") != NULL, "%s", tr_context_last_error(ctx));
    tr_pipeline_destroy(pl);
    cr_expect(strstr(tr_context_last_error(ctx), "recording pass") != NULL, "%s", tr_context_last_error(ctx));
    /* Still alive: they can be bound again. */
    TRT_OK(tr_cmd_bind_texture(ctx, 1, tex, smp));
    TRT_OK(tr_cmd_bind_pipeline(ctx, pl));
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));

    TRT_OK(tr_image_upload(tex, NULL, px, 0));
    TRT_OK(tr_image_generate_mips(tex));
    tr_sampler_destroy(smp);
    tr_pipeline_destroy(pl);
    tr_image_destroy(tex);
    tr_context_destroy(ctx);
}

Test(texture_api, levels_all_is_the_full_chain)
{
    tr_context *ctx = trt_context(1);
    tr_image *img = make_texture(ctx, TR_FORMAT_R8G8B8A8_UNORM, 100, 7, TR_LEVELS_ALL);
    cr_expect_eq(tr_image_get_desc(img).levels, 7u); /* 100 -> 50 25 12 6 3 1 */
    tr_sampler_desc d = {.max_lod = TR_MAX_LOD_ZERO};
    tr_sampler *s = make_sampler(ctx, &d);
    cr_expect_eq(tr_sampler_get_desc(s).max_lod, TR_MAX_LOD_ZERO);
    tr_sampler *s2 = make_sampler(ctx, NULL);
    cr_expect_eq(tr_sampler_get_desc(s2).max_lod, TR_LOD_CLAMP_NONE);
    cr_expect_eq(tr_sampler_get_desc(s2).max_anisotropy, 1u);
    tr_context_destroy(ctx);
}

/* ---- mip generation ---------------------------------------------------------------------- */

/* An odd size: 5x3 -> 2x1 -> 1x1.  Level 1 texel x averages level 0's
 * (2x..2x+1, 0..1); row 2 and column 4 do not contribute.  Level 2 (1x1)
 * comes from a one-texel-high level: the average of two. */
Test(texture_api, mips_unorm_exact)
{
    tr_context *ctx = trt_context(1);
    tr_image *img = make_texture(ctx, TR_FORMAT_R8G8B8A8_UNORM, 5, 3, TR_LEVELS_ALL);
    cr_assert_eq(tr_image_get_desc(img).levels, 3u);
    uint8_t l0[5 * 3 * 4];
    for (int i = 0; i < 5 * 3 * 4; i++)
        l0[i] = (uint8_t)(i * 37 + 11);
    TRT_OK(tr_image_upload(img, NULL, l0, 0));
    TRT_OK(tr_image_generate_mips(img));
    uint8_t l1[2 * 4], l2[4];
    trt_download(img, 1, 0, TR_ASPECT_COLOR, l1);
    trt_download(img, 2, 0, TR_ASPECT_COLOR, l2);
    for (int x = 0; x < 2; x++)
        for (int c = 0; c < 4; c++) {
            unsigned sum = l0[(2 * x) * 4 + c] + l0[(2 * x + 1) * 4 + c] + l0[(5 + 2 * x) * 4 + c] +
                           l0[(5 + 2 * x + 1) * 4 + c];
            cr_expect_eq(l1[x * 4 + c], (sum + 2) / 4, "level 1 x %d c %d", x, c);
        }
    for (int c = 0; c < 4; c++)
        cr_expect_eq(l2[c], (l1[c] + l1[4 + c] + 1) / 2, "level 2 c %d", c);
    tr_context_destroy(ctx);
}

/* sRGB averages in linear light, alpha as UNORM; a one-texel-wide image
 * averages vertical pairs. */
Test(texture_api, mips_srgb_in_linear_light)
{
    tr_context *ctx = trt_context(1);
    tr_image *img = make_texture(ctx, TR_FORMAT_R8G8B8A8_SRGB, 1, 4, TR_LEVELS_ALL);
    const uint8_t l0[4][4] = {{0, 255, 10, 0}, {255, 0, 200, 255}, {128, 64, 32, 1}, {128, 64, 33, 2}};
    TRT_OK(tr_image_upload(img, NULL, l0, 0));
    TRT_OK(tr_image_generate_mips(img));
    uint8_t l1[2][4];
    trt_download(img, 1, 0, TR_ASPECT_COLOR, l1);
    /* Black and white average to linear 0.5, which is sRGB code 188. */
    cr_expect_eq(l1[0][0], 188);
    cr_expect_eq(l1[0][1], 188);
    cr_expect_eq(l1[0][3], 128); /* (0 + 255 + 1) / 2 */
    cr_expect_eq(l1[1][0], 128);
    cr_expect_eq(l1[1][3], 2);   /* (1 + 2 + 1) / 2 */
    /* Blue: decode 10 and 200 as the sRGB EOTF (in double, rounded to
     * float), average in float, encode with the library's fill. */
    tr_image *one = make_texture(ctx, TR_FORMAT_R8G8B8A8_SRGB, 1, 1, 1);
    const float lin10 = (float)(10 / 255.0 / 12.92), lin200 = (float)pow((200 / 255.0 + 0.055) / 1.055, 2.4);
    const float avg[4] = {(lin10 + lin200) * 0.5f, 0, 0, 1};
    TRT_OK(tr_image_fill(one, NULL, avg));
    uint8_t want[4];
    trt_download(one, 0, 0, TR_ASPECT_COLOR, want);
    cr_expect_eq(l1[0][2], want[0], "blue %u vs %u", l1[0][2], want[0]);
    tr_context_destroy(ctx);
}

Test(texture_api, mips_float_exact)
{
    tr_context *ctx = trt_context(1);
    tr_image *img = make_texture(ctx, TR_FORMAT_R32G32B32A32_SFLOAT, 4, 2, TR_LEVELS_ALL);
    float l0[2][4][4];
    trt_rng rng = {7};
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < 4; x++)
            for (int c = 0; c < 4; c++)
                l0[y][x][c] = (float)trt_rand_range(&rng, -3, 3);
    TRT_OK(tr_image_upload(img, NULL, l0, 0));
    TRT_OK(tr_image_generate_mips(img));
    float l1[2][4], l2[4];
    trt_download(img, 1, 0, TR_ASPECT_COLOR, l1);
    trt_download(img, 2, 0, TR_ASPECT_COLOR, l2);
    for (int x = 0; x < 2; x++)
        for (int c = 0; c < 4; c++) {
            float want = ((l0[0][2 * x][c] + l0[0][2 * x + 1][c]) + (l0[1][2 * x][c] + l0[1][2 * x + 1][c])) * 0.25f;
            cr_expect_eq(l1[x][c], want, "level 1 x %d c %d", x, c);
        }
    for (int c = 0; c < 4; c++)
        cr_expect_eq(l2[c], (l1[0][c] + l1[1][c]) * 0.5f);

    tr_image *depth = make_texture(ctx, TR_FORMAT_D32_SFLOAT, 4, 4, 2);
    TRT_EXPECT(tr_image_generate_mips(depth), TR_ERROR_UNSUPPORTED_FORMAT);
    tr_context_destroy(ctx);
}

/* ---- loading files ------------------------------------------------------------------------- */

static void temp_path(char *buf, size_t n, const char *ext)
{
    snprintf(buf, n, "/tmp/tilerast_texture_%d_%s", (int)getpid(), ext);
}

Test(texture_api, load_png_round_trip_and_chain)
{
    tr_context *ctx = trt_context(1);
    enum { W = 13, H = 6 };
    uint8_t px[W * H * 4];
    for (int i = 0; i < W * H * 4; i++)
        px[i] = (uint8_t)(i * 29 + 3);
    char path[256];
    temp_path(path, sizeof path, "rgba.png");
    cr_assert(stbi_write_png(path, W, H, 4, px, W * 4));

    tr_image *img = NULL;
    TRT_OK(tr_image_load(ctx, path, TR_FORMAT_R8G8B8A8_UNORM, TR_LEVELS_ALL, &img));
    tr_image_desc d = tr_image_get_desc(img);
    cr_expect_eq(d.width, (uint32_t)W);
    cr_expect_eq(d.height, (uint32_t)H);
    cr_expect_eq(d.levels, 4u);
    cr_expect_eq(d.format, TR_FORMAT_R8G8B8A8_UNORM);
    uint8_t back[W * H * 4];
    trt_download(img, 0, 0, TR_ASPECT_COLOR, back);
    cr_expect_arr_eq(back, px, sizeof px);

    /* The chain equals generating it on an uploaded copy. */
    tr_image *ref = make_texture(ctx, TR_FORMAT_R8G8B8A8_UNORM, W, H, TR_LEVELS_ALL);
    TRT_OK(tr_image_upload(ref, NULL, px, 0));
    TRT_OK(tr_image_generate_mips(ref));
    for (uint32_t l = 1; l < 4; l++) {
        uint8_t a[W * H * 4], b[W * H * 4];
        trt_download(img, l, 0, TR_ASPECT_COLOR, a);
        trt_download(ref, l, 0, TR_ASPECT_COLOR, b);
        cr_expect_arr_eq(a, b, (size_t)tr_image_level_width(img, l) * tr_image_level_height(img, l) * 4);
    }

    /* Grey without alpha loads as (g, g, g, 255); the default format is sRGB. */
    uint8_t grey[W * H];
    for (int i = 0; i < W * H; i++)
        grey[i] = (uint8_t)(i * 3);
    cr_assert(stbi_write_png(path, W, H, 1, grey, W));
    tr_image *g = NULL;
    TRT_OK(tr_image_load(ctx, path, TR_FORMAT_UNDEFINED, 0, &g));
    cr_expect_eq(tr_image_get_desc(g).format, TR_FORMAT_R8G8B8A8_SRGB);
    cr_expect_eq(tr_image_get_desc(g).levels, 1u);
    trt_download(g, 0, 0, TR_ASPECT_COLOR, back);
    for (int i = 0; i < W * H; i++) {
        const uint8_t want[4] = {grey[i], grey[i], grey[i], 255};
        cr_expect_arr_eq(back + 4 * i, want, 4, "texel %d", i);
    }
    unlink(path);
    tr_context_destroy(ctx);
}

/* JPEG is lossy: a flat colour decodes to within a step or two. */
Test(texture_api, load_jpeg)
{
    tr_context *ctx = trt_context(1);
    enum { W = 24, H = 16 };
    uint8_t px[W * H * 3];
    for (int i = 0; i < W * H; i++) {
        px[3 * i] = 200;
        px[3 * i + 1] = 100;
        px[3 * i + 2] = 50;
    }
    char path[256];
    temp_path(path, sizeof path, "flat.jpg");
    cr_assert(stbi_write_jpg(path, W, H, 3, px, 95));
    tr_image *img = NULL;
    TRT_OK(tr_image_load(ctx, path, TR_FORMAT_R8G8B8A8_SRGB, 1, &img));
    cr_expect_eq(tr_image_get_desc(img).width, (uint32_t)W);
    cr_expect_eq(tr_image_get_desc(img).height, (uint32_t)H);
    uint8_t back[W * H * 4];
    trt_download(img, 0, 0, TR_ASPECT_COLOR, back);
    for (int i = 0; i < W * H; i++) {
        cr_expect(abs(back[4 * i] - 200) <= 2 && abs(back[4 * i + 1] - 100) <= 2 && abs(back[4 * i + 2] - 50) <= 2,
                  "texel %d: %u %u %u", i, back[4 * i], back[4 * i + 1], back[4 * i + 2]);
        cr_expect_eq(back[4 * i + 3], 255);
    }
    unlink(path);
    tr_context_destroy(ctx);
}

Test(texture_api, load_errors)
{
    tr_context *ctx = trt_context(1);
    tr_image *img = (tr_image *)(uintptr_t)1;
    TRT_EXPECT(tr_image_load(ctx, "/nonexistent/dir/none.png", 0, 1, &img), TR_ERROR_IO);
    cr_expect_null(img);
    cr_expect(strstr(tr_context_last_error(ctx), "none.png") != NULL, "%s", tr_context_last_error(ctx));

    char path[256];
    temp_path(path, sizeof path, "garbage.png");
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    fputs("\x89PNG\r\n\x1a\n this is not a png", f);
    fclose(f);
    TRT_EXPECT(tr_image_load(ctx, path, 0, 1, &img), TR_ERROR_BAD_FILE);
    TRT_EXPECT(tr_image_load(ctx, path, TR_FORMAT_R16G16B16A16_SFLOAT, 1, &img), TR_ERROR_UNSUPPORTED_FORMAT);
    TRT_EXPECT(tr_image_load(ctx, NULL, 0, 1, &img), TR_ERROR_INVALID_ARGUMENT);
    unlink(path);

    /* More levels than the chain has: the image descriptor's error. */
    uint8_t px[4 * 4 * 4] = {0};
    temp_path(path, sizeof path, "small.png");
    cr_assert(stbi_write_png(path, 4, 4, 4, px, 16));
    TRT_EXPECT(tr_image_load(ctx, path, 0, 4, &img), TR_ERROR_INVALID_DESCRIPTOR);
    TRT_OK(tr_image_load(ctx, path, 0, 3, &img));
    unlink(path);
    tr_context_destroy(ctx);
}
