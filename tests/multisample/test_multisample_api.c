/* Multisampling, first part (multisample.h): the standard sample positions,
 * multisampled images (per-sample upload and download, fill, the resolve of
 * tr_image_read_rgba8), the pass's sample count and its GMEM budget, the
 * pipeline's multisample state, and the errors for each. */
#include <math.h>
#include <string.h>

#include "trtest.h"

/* ---- sample positions ------------------------------------------------------------------ */

/* Vulkan's table of standard sample locations, typed in from the spec. */
static const float vk_positions[4][8][2] = {
    {{0.5f, 0.5f}},
    {{0.75f, 0.75f}, {0.25f, 0.25f}},
    {{0.375f, 0.125f}, {0.875f, 0.375f}, {0.125f, 0.625f}, {0.625f, 0.875f}},
    {{0.5625f, 0.3125f},
     {0.4375f, 0.6875f},
     {0.8125f, 0.5625f},
     {0.3125f, 0.1875f},
     {0.1875f, 0.8125f},
     {0.0625f, 0.4375f},
     {0.6875f, 0.9375f},
     {0.9375f, 0.0625f}},
};

Test(multisample, standard_positions_are_vulkans)
{
    for (uint32_t l = 0; l < 4; l++) {
        const uint32_t n = 1u << l;
        for (uint32_t i = 0; i < n; i++) {
            float p[2] = {-1.0f, -1.0f};
            TRT_OK(tr_sample_position(n, i, p));
            cr_expect_eq(p[0], vk_positions[l][i][0], "%ux sample %u: x %g, want %g", n, i, (double)p[0],
                         (double)vk_positions[l][i][0]);
            cr_expect_eq(p[1], vk_positions[l][i][1], "%ux sample %u: y %g, want %g", n, i, (double)p[1],
                         (double)vk_positions[l][i][1]);
        }
    }
}

/* Each pattern is centred on the pixel centre, and at 4 and 8 samples no
 * two samples share a column or a row of the 1/16 grid (a sparse, "n
 * rooks" pattern): what makes a near-vertical edge move coverage one
 * sample at a time. */
Test(multisample, standard_positions_are_centred_sparse_sixteenths)
{
    for (uint32_t n = 2; n <= 8; n *= 2) {
        uint32_t sx = 0, sy = 0, cols = 0, rows = 0;
        for (uint32_t i = 0; i < n; i++) {
            float p[2];
            TRT_OK(tr_sample_position(n, i, p));
            const float fx = p[0] * 16.0f, fy = p[1] * 16.0f;
            cr_assert_eq(fx, floorf(fx), "%ux sample %u: x is not a sixteenth", n, i);
            cr_assert_eq(fy, floorf(fy), "%ux sample %u: y is not a sixteenth", n, i);
            cr_assert(fx > 0 && fx < 16 && fy > 0 && fy < 16, "%ux sample %u lies on the pixel's edge", n, i);
            sx += (uint32_t)fx;
            sy += (uint32_t)fy;
            cols |= 1u << (uint32_t)fx;
            rows |= 1u << (uint32_t)fy;
        }
        cr_expect_eq(sx, 8 * n, "%ux: mean x is not the centre", n);
        cr_expect_eq(sy, 8 * n, "%ux: mean y is not the centre", n);
        if (n >= 4) {
            cr_expect_eq((uint32_t)__builtin_popcount(cols), n, "%ux: two samples share a column", n);
            cr_expect_eq((uint32_t)__builtin_popcount(rows), n, "%ux: two samples share a row", n);
        }
    }
}

Test(multisample, sample_position_errors)
{
    float p[2];
    TRT_EXPECT(tr_sample_position(0, 0, p), TR_ERROR_INVALID_ARGUMENT);
    TRT_EXPECT(tr_sample_position(3, 0, p), TR_ERROR_INVALID_ARGUMENT);
    TRT_EXPECT(tr_sample_position(16, 0, p), TR_ERROR_INVALID_ARGUMENT);
    TRT_EXPECT(tr_sample_position(4, 4, p), TR_ERROR_OUT_OF_RANGE);
    TRT_EXPECT(tr_sample_position(1, 1, p), TR_ERROR_OUT_OF_RANGE);
    TRT_EXPECT(tr_sample_position(4, 0, NULL), TR_ERROR_INVALID_ARGUMENT);
    cr_expect(tr_sample_count_valid(8) && !tr_sample_count_valid(6) && !tr_sample_count_valid(0));
}

/* ---- images ------------------------------------------------------------------------------ */

static tr_image *ms_image(tr_context *ctx, tr_format f, uint32_t w, uint32_t h, uint32_t samples)
{
    const tr_image_desc d = {.format = f, .width = w, .height = h, .samples = samples};
    tr_image *img = NULL;
    TRT_OK(tr_image_create(ctx, &d, &img));
    return img;
}

static void expect_error(tr_context *ctx, tr_result got, tr_result want, const char *needle)
{
    cr_expect_eq(got, want, "returned %s, expected %s", tr_result_string(got), tr_result_string(want));
    const char *msg = tr_context_last_error(ctx);
    cr_expect(msg && strstr(msg, needle), "message '%s' does not mention '%s'", msg ? msg : "(null)", needle);
}

Test(multisample, image_creation_errors)
{
    tr_context *ctx = trt_context(1);
    tr_image *img = NULL;
    tr_image_desc d = {.format = TR_FORMAT_R8G8B8A8_UNORM, .width = 8, .height = 8, .samples = 3};
    expect_error(ctx, tr_image_create(ctx, &d, &img), TR_ERROR_INVALID_DESCRIPTOR, "samples = 3");
    d.samples = 16;
    expect_error(ctx, tr_image_create(ctx, &d, &img), TR_ERROR_INVALID_DESCRIPTOR, "must be 1, 2, 4 or 8");
    d.samples = 4;
    d.levels = 2;
    expect_error(ctx, tr_image_create(ctx, &d, &img), TR_ERROR_INVALID_DESCRIPTOR, "one level");
    d.levels = 1;
    d.flags = TR_IMAGE_SUBSAMPLED;
    expect_error(ctx, tr_image_create(ctx, &d, &img), TR_ERROR_INVALID_DESCRIPTOR, "TR_IMAGE_SUBSAMPLED");
    cr_expect_null(img);
    /* 0 reads back as 1; a count is kept */
    d.flags = 0;
    d.samples = 0;
    TRT_OK(tr_image_create(ctx, &d, &img));
    cr_expect_eq(tr_image_get_desc(img).samples, 1u);
    tr_image *ms = ms_image(ctx, TR_FORMAT_D32_SFLOAT_S8_UINT, 8, 8, 8);
    cr_expect_eq(tr_image_get_desc(ms).samples, 8u);
    tr_context_destroy(ctx);
}

/* Every sample's plane round-trips on its own; fill writes all of them. */
Test(multisample, per_sample_upload_download_and_fill)
{
    tr_context *ctx = trt_context(1);
    const uint32_t W = 5, H = 3, N = 4;
    tr_image *img = ms_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, W, H, N);
    uint8_t in[4][5 * 3 * 4], out[5 * 3 * 4];
    for (uint32_t s = 0; s < N; s++) {
        for (uint32_t i = 0; i < W * H * 4; i++)
            in[s][i] = (uint8_t)(s * 61 + i * 7 + 1);
        const tr_subresource sub = {.sample = s};
        TRT_OK(tr_image_upload(img, &sub, in[s], 0));
    }
    for (uint32_t s = 0; s < N; s++) {
        const tr_subresource sub = {.sample = s};
        TRT_OK(tr_image_download(img, &sub, out, 0));
        cr_expect_arr_eq(out, in[s], sizeof out, "sample %u does not round-trip", s);
    }
    const tr_subresource past = {.sample = N};
    expect_error(ctx, tr_image_download(img, &past, out, 0), TR_ERROR_OUT_OF_RANGE, "sample 4");
    expect_error(ctx, tr_image_upload(img, &past, in[0], 0), TR_ERROR_OUT_OF_RANGE, "4 samples");
    /* a single-sample image has only sample 0 */
    tr_image *one = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, W, H);
    const tr_subresource s1 = {.sample = 1};
    expect_error(ctx, tr_image_download(one, &s1, out, 0), TR_ERROR_OUT_OF_RANGE, "1 sample)");

    const float v[4] = {1.0f, 0.0f, 0.2f, 1.0f};
    TRT_OK(tr_image_fill(img, &(tr_subresource){.sample = 2}, v));
    for (uint32_t s = 0; s < N; s++) {
        TRT_OK(tr_image_download(img, &(tr_subresource){.sample = s}, out, 0));
        for (uint32_t i = 0; i < W * H; i++) {
            cr_assert_eq(out[4 * i + 0], 255);
            cr_assert_eq(out[4 * i + 1], 0);
            cr_assert_eq(out[4 * i + 2], 51, "sample %u texel %u: %u", s, i, out[4 * i + 2]);
            cr_assert_eq(out[4 * i + 3], 255);
        }
    }
    tr_context_destroy(ctx);
}

/* Texel i of a 1-row image takes the samples in vals[i][s] on every channel. */
static tr_image *unorm_row(tr_context *ctx, uint32_t n, uint32_t w, const uint8_t (*vals)[8])
{
    tr_image *img = ms_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, w, 1, n);
    uint8_t row[16 * 4];
    for (uint32_t s = 0; s < n; s++) {
        for (uint32_t i = 0; i < w; i++)
            for (int c = 0; c < 4; c++)
                row[4 * i + c] = vals[i][s];
        TRT_OK(tr_image_upload(img, &(tr_subresource){.sample = s}, row, 0));
    }
    return img;
}

/* UNORM: (sum + n/2) / n per channel, worked out here by hand. */
Test(multisample, resolve_unorm_rounds_half_up)
{
    tr_context *ctx = trt_context(1);
    const uint8_t v4[6][8] = {{1, 0, 0, 0}, {1, 1, 0, 0}, {1, 2, 0, 0}, {0, 1, 2, 255}, {255, 255, 255, 254},
                              {10, 20, 30, 40}};
    const uint8_t want4[6] = {0 /* 0.25 */, 1 /* 0.5 up */, 1 /* 0.75 */, 65 /* 64.5 up */, 255 /* 254.75 */,
                              25 /* 25 */};
    tr_image *img = unorm_row(ctx, 4, 6, v4);
    uint8_t px[6 * 4];
    TRT_OK(tr_image_read_rgba8(img, NULL, px));
    for (int i = 0; i < 6; i++)
        for (int c = 0; c < 4; c++)
            cr_expect_eq(px[4 * i + c], want4[i], "4x texel %d channel %d: %u, want %u", i, c, px[4 * i + c],
                         want4[i]);
    const uint8_t v2[2][8] = {{1, 0}, {200, 51}};
    const uint8_t want2[2] = {1 /* 0.5 up */, 126 /* 125.5 up */};
    img = unorm_row(ctx, 2, 2, v2);
    TRT_OK(tr_image_read_rgba8(img, NULL, px));
    cr_expect_eq(px[0], want2[0]);
    cr_expect_eq(px[4], want2[1], "2x: %u", px[4]);
    const uint8_t v8[1][8] = {{0, 0, 0, 0, 0, 0, 0, 4}};
    img = unorm_row(ctx, 8, 1, v8);
    TRT_OK(tr_image_read_rgba8(img, NULL, px));
    cr_expect_eq(px[0], 1, "8x: 0.5 rounds up, got %u", px[0]); /* (4 + 4) / 8 */
    tr_context_destroy(ctx);
}

static double srgb_to_linear(double c)
{
    return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

static double linear_to_srgb(double l)
{
    return l <= 0.0031308 ? 12.92 * l : 1.055 * pow(l, 1.0 / 2.4) - 0.055;
}

/* sRGB averages in linear light: three white samples and one black give
 * linear 0.75, which is sRGB byte 225 (224.61 unrounded), not 191 (the
 * average of the bytes).  Alpha is linear: 191.25 -> 191. */
Test(multisample, resolve_srgb_averages_linear_light)
{
    tr_context *ctx = trt_context(1);
    tr_image *img = ms_image(ctx, TR_FORMAT_R8G8B8A8_SRGB, 2, 1, 4);
    const uint8_t s[4][2] = {{255, 200}, {255, 10}, {255, 120}, {0, 64}};
    for (uint32_t k = 0; k < 4; k++) {
        const uint8_t row[8] = {s[k][0], s[k][0], s[k][0], s[k][0], s[k][1], s[k][1], s[k][1], s[k][1]};
        TRT_OK(tr_image_upload(img, &(tr_subresource){.sample = k}, row, 0));
    }
    uint8_t px[8];
    TRT_OK(tr_image_read_rgba8(img, NULL, px));
    /* texel 1 from the formulas, far from a rounding tie */
    double lin = 0.0;
    for (int k = 0; k < 4; k++)
        lin += srgb_to_linear(s[k][1] / 255.0);
    const double want1 = linear_to_srgb(lin / 4) * 255.0;
    cr_assert(fabs(want1 - floor(want1) - 0.5) > 0.05, "the test's value %g is too near a tie", want1);
    const double alpha1 = (200.0 + 10 + 120 + 64) / 4; /* 98.5: alpha is linear */
    cr_expect_eq(px[0], 225, "texel 0 red %u", px[0]);
    cr_expect_eq(px[2], 225);
    cr_expect_eq(px[3], 191, "texel 0 alpha %u", px[3]);
    cr_expect_eq(px[4], (uint8_t)lround(want1), "texel 1 red %u, want %g", px[4], want1);
    cr_expect_eq(px[7], 99, "texel 1 alpha %u (%g)", px[7], alpha1);
    tr_context_destroy(ctx);
}

/* Float formats sum in float and scale by 1/n: (1 + 0.5 + 0.25 + 0.125) / 4
 * = 0.46875, exact in half; read as RGBA8 round(0.46875 * 255) = 120. */
Test(multisample, resolve_float_and_depth_stencil)
{
    tr_context *ctx = trt_context(1);
    tr_image *img = ms_image(ctx, TR_FORMAT_R16G16B16A16_SFLOAT, 1, 1, 4);
    const uint16_t h[4] = {0x3C00, 0x3800, 0x3400, 0x3000}; /* 1, 0.5, 0.25, 0.125 */
    for (uint32_t k = 0; k < 4; k++) {
        const uint16_t t[4] = {h[k], h[k], 0, 0x3C00};
        TRT_OK(tr_image_upload(img, &(tr_subresource){.sample = k}, t, 0));
    }
    uint8_t px[4];
    TRT_OK(tr_image_read_rgba8(img, NULL, px));
    cr_expect_eq(px[0], 120, "half resolve %u", px[0]);
    cr_expect_eq(px[2], 0);
    cr_expect_eq(px[3], 255);

    /* depth and stencil resolve to sample 0 */
    tr_image *ds = ms_image(ctx, TR_FORMAT_D32_SFLOAT_S8_UINT, 1, 1, 4);
    const float z[4] = {0.25f, 1.0f, 1.0f, 1.0f};
    const uint8_t st[4] = {7, 200, 200, 200};
    for (uint32_t k = 0; k < 4; k++) {
        TRT_OK(tr_image_upload(ds, &(tr_subresource){.aspect = TR_ASPECT_DEPTH, .sample = k}, &z[k], 0));
        TRT_OK(tr_image_upload(ds, &(tr_subresource){.aspect = TR_ASPECT_STENCIL, .sample = k}, &st[k], 0));
    }
    TRT_OK(tr_image_read_rgba8(ds, NULL, px));
    cr_expect_eq(px[0], 64, "depth resolve %u (sample 0: 0.25)", px[0]);
    TRT_OK(tr_image_read_rgba8(ds, &(tr_subresource){.aspect = TR_ASPECT_STENCIL}, px));
    cr_expect_eq(px[0], 7, "stencil resolve %u (sample 0)", px[0]);
    tr_context_destroy(ctx);
}

/* ---- passes and pipelines ----------------------------------------------------------------- */

Test(multisample, pass_sample_count_errors)
{
    tr_context *ctx = trt_context(1);
    tr_image *c4 = ms_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, 64, 64, 4);
    tr_image *d1 = trt_image(ctx, TR_FORMAT_D32_SFLOAT, 64, 64);
    tr_image *d4 = ms_image(ctx, TR_FORMAT_D32_SFLOAT, 64, 64, 4);
    tr_render_pass_desc rp = trt_pass_desc(c4, d1);
    expect_error(ctx, tr_cmd_begin_render_pass(ctx, &rp), TR_ERROR_INVALID_DESCRIPTOR, "share one sample count");
    tr_bin_layout l;
    expect_error(ctx, tr_compute_bin_layout(ctx, &rp, &l), TR_ERROR_INVALID_DESCRIPTOR, "has 1 sample(s)");
    /* a multisampled density map */
    tr_image *c1 = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, 64, 64);
    tr_image *map = ms_image(ctx, TR_FORMAT_R8G8_UNORM, 2, 2, 2);
    rp = trt_pass_desc(c1, NULL);
    rp.density_map.image = map;
    expect_error(ctx, tr_cmd_begin_render_pass(ctx, &rp), TR_ERROR_INVALID_DESCRIPTOR, "a density map has one");
    /* a 4x pass with a 1x pipeline */
    rp = trt_pass_desc(c4, d4);
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
    TRT_OK(tr_cmd_bind_pipeline(ctx, trt_pipeline(ctx, NULL)));
    expect_error(ctx, tr_cmd_draw(ctx, 3, 1, 0, 0), TR_ERROR_INVALID_STATE, "rasterizes 1 sample(s)");
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    /* a multisampled texture */
    rp = trt_pass_desc(c1, NULL);
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
    tr_image *tex = ms_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, 4, 4, 4);
    expect_error(ctx, tr_cmd_bind_texture(ctx, 0, tex, NULL), TR_ERROR_INVALID_DESCRIPTOR, "cannot be sampled");
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    tr_context_destroy(ctx);
}

Test(multisample, resolve_image_errors)
{
    tr_context *ctx = trt_context(1);
    tr_image *c4 = ms_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, 32, 32, 4);
    tr_image *c1 = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, 32, 32);
    tr_render_pass_desc rp = trt_pass_desc(c4, NULL);
    rp.color[0].resolve_image = ms_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, 32, 32, 2);
    expect_error(ctx, tr_cmd_begin_render_pass(ctx, &rp), TR_ERROR_INVALID_DESCRIPTOR, "a resolve image has one");
    rp.color[0].resolve_image = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, 32, 16);
    expect_error(ctx, tr_cmd_begin_render_pass(ctx, &rp), TR_ERROR_INVALID_DESCRIPTOR, "is 32x16");
    rp.color[0].resolve_image = trt_image(ctx, TR_FORMAT_R8G8B8A8_SRGB, 32, 32);
    expect_error(ctx, tr_cmd_begin_render_pass(ctx, &rp), TR_ERROR_UNSUPPORTED_FORMAT, "must match");
    rp.color[0].resolve_image = c1;
    rp.color[0].resolve_level = 1;
    expect_error(ctx, tr_cmd_begin_render_pass(ctx, &rp), TR_ERROR_OUT_OF_RANGE, "resolve_level = 1");
    rp.color[0].resolve_level = 0;
    rp.color[0].resolve_image = c4;
    expect_error(ctx, tr_cmd_begin_render_pass(ctx, &rp), TR_ERROR_INVALID_DESCRIPTOR, "has 4 samples");
    /* a single-sample attachment does not resolve */
    rp = trt_pass_desc(c1, NULL);
    rp.color[0].resolve_image = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, 32, 32);
    expect_error(ctx, tr_cmd_begin_render_pass(ctx, &rp), TR_ERROR_INVALID_DESCRIPTOR, "only a multisampled");
    /* a resolve image without an image in the slot */
    rp = trt_pass_desc(c4, NULL);
    rp.color_count = 2;
    rp.color[1].resolve_image = c1;
    expect_error(ctx, tr_cmd_begin_render_pass(ctx, &rp), TR_ERROR_INVALID_DESCRIPTOR, "without an image");
    /* a resolve image that is also the density map */
    rp = trt_pass_desc(c4, NULL);
    tr_image *rmap = trt_image(ctx, TR_FORMAT_R8G8_UNORM, 32, 32);
    rp.color[0].image = ms_image(ctx, TR_FORMAT_R8G8_UNORM, 32, 32, 4);
    rp.color[0].resolve_image = rmap;
    rp.density_map.image = rmap;
    expect_error(ctx, tr_cmd_begin_render_pass(ctx, &rp), TR_ERROR_INVALID_STATE, "resolve image of the pass");
    /* held by the pass: no upload while it records */
    rp = trt_pass_desc(c4, NULL);
    rp.color[0].resolve_image = c1;
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
    uint8_t px[32 * 32 * 4] = {0};
    TRT_EXPECT(tr_image_upload(c1, NULL, px, 0), TR_ERROR_INVALID_STATE);
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    TRT_OK(tr_image_upload(c1, NULL, px, 0));
    tr_context_destroy(ctx);
}

/* A tile holds every sample: RGBA8 + D32 is 8 bytes a pixel, 32 at 4x.
 * The default 1 MiB GMEM is 256 blocks of 8 * 32 * 16 bytes; half to each
 * attachment gives 128 * 4096 / 4 = 131072 pixels at 1x and
 * 128 * 4096 / 16 = 32768 at 4x (REFERENCE.md section 5). */
Test(multisample, gmem_budget_counts_samples)
{
    tr_context *ctx = trt_context(1);
    tr_bin_layout l1, l4, l8;
    tr_render_pass_desc rp = trt_pass_desc(trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, 1920, 1080),
                                     trt_image(ctx, TR_FORMAT_D32_SFLOAT, 1920, 1080));
    TRT_OK(tr_compute_bin_layout(ctx, &rp, &l1));
    rp = trt_pass_desc(ms_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, 1920, 1080, 4),
                 ms_image(ctx, TR_FORMAT_D32_SFLOAT, 1920, 1080, 4));
    TRT_OK(tr_compute_bin_layout(ctx, &rp, &l4));
    rp = trt_pass_desc(ms_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, 1920, 1080, 8),
                 ms_image(ctx, TR_FORMAT_D32_SFLOAT, 1920, 1080, 8));
    TRT_OK(tr_compute_bin_layout(ctx, &rp, &l8));
    cr_expect_eq(l1.gmem_pixels, 131072u, "1x: %u pixels", l1.gmem_pixels);
    cr_expect_eq(l4.gmem_pixels, 32768u, "4x: %u pixels", l4.gmem_pixels);
    cr_expect_eq(l8.gmem_pixels, 16384u, "8x: %u pixels", l8.gmem_pixels);
    cr_expect(l4.bin_w * l4.bin_h <= l4.gmem_pixels && l8.bin_w * l8.bin_h <= l8.gmem_pixels);
    cr_expect_gt(l4.bins_x * l4.bins_y, l1.bins_x * l1.bins_y);
    cr_expect_gt(l8.bins_x * l8.bins_y, l4.bins_x * l4.bins_y);
    tr_context_destroy(ctx);
}

Test(multisample, pipeline_state_errors)
{
    tr_context *ctx = trt_context(1);
    tr_pipeline_desc pd = {.vertex_shader = trt_vs, .fragment_shader = trt_fs_varying, .varying_count = 1};
    tr_pipeline *pl = NULL;
    pd.multisample.samples = 6;
    expect_error(ctx, tr_pipeline_create(ctx, &pd, &pl), TR_ERROR_INVALID_DESCRIPTOR, "multisample.samples = 6");
    pd.multisample.samples = 4;
    pd.multisample.min_sample_shading = 1.5f;
    expect_error(ctx, tr_pipeline_create(ctx, &pd, &pl), TR_ERROR_INVALID_ARGUMENT, "min_sample_shading");
    pd.multisample.min_sample_shading = NAN;
    expect_error(ctx, tr_pipeline_create(ctx, &pd, &pl), TR_ERROR_INVALID_ARGUMENT, "min_sample_shading");
    pd.multisample.min_sample_shading = 0.5f;
    pl = trt_pipeline(ctx, &pd);
    /* a 4-sample pipeline cannot draw in a single-sample pass */
    trt_begin_color(ctx, trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, 16, 16), NULL);
    TRT_OK(tr_cmd_bind_pipeline(ctx, pl));
    expect_error(ctx, tr_cmd_draw(ctx, 3, 1, 0, 0), TR_ERROR_INVALID_STATE, "multisample.samples must match");
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    tr_context_destroy(ctx);
}
