/* tilerast: texture images: mip-chain generation and loading image files
 * (stb_image from libstb-dev). */
#include <stdio.h>
#include <stdlib.h>

#include "texture/texture_internal.h"

#if defined(__GNUC__)
/* Debian's stb_image.h declares a static function it never defines; the
 * warning comes at the end of the file, so it stays off for all of it. */
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"
#endif
#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#define STBI_NO_HDR    /* 8-bit images only: HDR would need a float target */
#define STBI_NO_LINEAR
#include <stb/stb_image.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

/* The average of n = 2 or 4 texels of img's format into dst, by the rules
 * tr_image_generate_mips documents. */
static void average(const tr_image *img, const uint8_t *const src[4], uint32_t n, uint8_t *dst)
{
    const tr_format f = img->desc.format;
    if (f == TR_FORMAT_R8G8B8A8_UNORM || f == TR_FORMAT_R8G8B8A8_SRGB || f == TR_FORMAT_R8G8_UNORM) {
        const int channels = f == TR_FORMAT_R8G8_UNORM ? 2 : 4;
        for (int c = 0; c < channels; c++) {
            const uint32_t sum = n == 4 ? src[0][c] + src[1][c] + src[2][c] + src[3][c] : src[0][c] + src[1][c];
            dst[c] = (uint8_t)(n == 4 ? (sum + 2) >> 2 : (sum + 1) >> 1);
        }
        if (f != TR_FORMAT_R8G8B8A8_SRGB)
            return;
        for (int c = 0; c < 3; c++) { /* sRGB colour: in linear light */
            const float *lin = img->ctx->srgb_decode;
            const float v = n == 4 ? ((lin[src[0][c]] + lin[src[1][c]]) + (lin[src[2][c]] + lin[src[3][c]])) * 0.25f
                                   : (lin[src[0][c]] + lin[src[1][c]]) * 0.5f;
            dst[c] = tr__linear_to_srgb8(img->ctx, v);
        }
        return;
    }
    float t[4][4], avg[4];
    for (uint32_t i = 0; i < n; i++)
        tr__color_decode(img->ctx, f, src[i], t[i]);
    for (int c = 0; c < 4; c++)
        avg[c] = n == 4 ? ((t[0][c] + t[1][c]) + (t[2][c] + t[3][c])) * 0.25f : (t[0][c] + t[1][c]) * 0.5f;
    tr__color_encode(img->ctx, f, avg, dst);
}

tr_result tr_image_generate_mips(tr_image *img)
{
    tr__api_enter(img ? img->ctx : NULL);
    if (!img)
        return tr__error(NULL, TR_ERROR_INVALID_ARGUMENT, "tr_image_generate_mips: image is NULL");
    tr_context *ctx = img->ctx;
    if (img->fmt->depth || img->fmt->is_int)
        return tr__error(ctx, TR_ERROR_UNSUPPORTED_FORMAT, "tr_image_generate_mips: %s is not a %s format",
                         img->fmt->name, img->fmt->depth ? "colour" : "filterable (non-integer)");
    if ((img->pass_uses || img->texture_uses) && ctx->in_pass)
        return tr__error(ctx, TR_ERROR_INVALID_STATE, "tr_image_generate_mips: image is used by the recording pass");
    const size_t tb = img->fmt->texel;
    for (uint32_t l = 1; l < img->desc.levels; l++) {
        const uint32_t sw = TR_MAX(1u, img->desc.width >> (l - 1)), sh = TR_MAX(1u, img->desc.height >> (l - 1));
        const uint32_t dw = TR_MAX(1u, sw >> 1), dh = TR_MAX(1u, sh >> 1);
        const uint32_t dx = sw > 1, dy = sh > 1; /* the second texel's step on each axis */
        const uint32_t n = (dx && dy) ? 4 : 2;
        for (uint32_t layer = 0; layer < img->desc.layers; layer++) {
            const uint8_t *s = img->data + (img->level_offset[l - 1] + (size_t)layer * sw * sh) * tb;
            uint8_t *d = img->data + (img->level_offset[l] + (size_t)layer * dw * dh) * tb;
            for (uint32_t y = 0; y < dh; y++) {
                for (uint32_t x = 0; x < dw; x++) {
                    const size_t sx = (size_t)x << dx, sy = (size_t)y << dy;
                    const uint8_t *t00 = s + (sy * sw + sx) * tb;
                    const uint8_t *src[4] = {t00, t00, t00, t00};
                    src[1] = dx ? t00 + tb : t00 + sw * tb; /* right, or (one wide) below */
                    if (n == 4) {
                        src[2] = t00 + sw * tb;
                        src[3] = t00 + (sw + 1) * tb;
                    }
                    average(img, src, n, d + ((size_t)y * dw + x) * tb);
                }
            }
        }
    }
    img->version++;
    return TR_OK;
}

tr_result tr_image_load(tr_context *ctx, const char *path, tr_format format, uint32_t levels, tr_image **out)
{
    tr__api_enter(ctx);
    if (!out)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_image_load: out is NULL");
    *out = NULL;
    if (!ctx || !path)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_image_load: %s is NULL", ctx ? "path" : "ctx");
    if (format == TR_FORMAT_UNDEFINED)
        format = TR_FORMAT_R8G8B8A8_SRGB;
    if (format != TR_FORMAT_R8G8B8A8_SRGB && format != TR_FORMAT_R8G8B8A8_UNORM && format != TR_FORMAT_R8G8_UNORM)
        return tr__error(ctx, TR_ERROR_UNSUPPORTED_FORMAT,
                         "tr_image_load: files load as R8G8B8A8_SRGB, R8G8B8A8_UNORM or R8G8_UNORM, not %s",
                         tr_format_name(format));
    FILE *f = fopen(path, "rb");
    if (!f)
        return tr__error(ctx, TR_ERROR_IO, "tr_image_load: cannot open %s", path);
    int w = 0, h = 0, comp = 0;
    /* Always RGBA: stb_image's two-channel output is grey + alpha, not red +
     * green, so R8G8_UNORM takes the first two bytes of each RGBA texel. */
    stbi_uc *px = stbi_load_from_file(f, &w, &h, &comp, 4);
    fclose(f);
    if (!px)
        return tr__error(ctx, TR_ERROR_BAD_FILE, "tr_image_load: %s: %s", path, stbi_failure_reason());
    if (format == TR_FORMAT_R8G8_UNORM) /* compact in place: texel i's rg move to 2i, never ahead of 4i */
        for (size_t i = 0, n = (size_t)w * (size_t)h; i < n; i++) {
            px[2 * i] = px[4 * i];
            px[2 * i + 1] = px[4 * i + 1];
        }
    tr_image_desc d = {format, (uint32_t)w, (uint32_t)h, 1, levels, 0, 0};
    tr_image *img = NULL;
    tr_result r = tr_image_create(ctx, &d, &img);
    if (r == TR_OK)
        r = tr_image_upload(img, NULL, px, 0);
    if (r == TR_OK)
        r = tr_image_generate_mips(img);
    stbi_image_free(px);
    if (r != TR_OK) {
        tr__saved_error saved;
        tr__error_save(&saved);
        tr_image_destroy(img);
        return tr__error_restore(ctx, r, &saved);
    }
    *out = img;
    return TR_OK;
}
