/* tilerast subsample stage: the debugging picture of a subsampled image --
 * its stored texels as they lie, each bin's rectangle outlined in the
 * colour of the scale it is stored at (debug_draw.h's area colours: white
 * at full size), around a subsampled bin the outer edge of its apron
 * (magenta), and a legend below: the bins per scale, and the apron. */
#include <stdio.h>

#include "debug_draw.h"
#include "subsample/subsample_internal.h"

/* The apron's outline. */
static const uint8_t apron_rgb[3] = {255, 0, 255};

static void frame(uint8_t *px, uint32_t w, uint32_t h, int64_t x0, int64_t y0, int64_t x1, int64_t y1,
                  const uint8_t c[3])
{
    for (int64_t y = y0; y < y1; y++)
        for (int64_t x = x0; x < x1; x++) {
            if (x < 0 || y < 0 || x >= (int64_t)w || y >= (int64_t)h)
                continue;
            if (x != x0 && y != y0 && x != x1 - 1 && y != y1 - 1)
                continue;
            uint8_t *o = px + ((size_t)y * w + (size_t)x) * 4;
            o[0] = c[0], o[1] = c[1], o[2] = c[2], o[3] = 255;
        }
}

tr_result tr_subsampled_write_png(const tr_image *image, uint32_t layer, const char *path)
{
    tr__api_enter(image ? image->ctx : NULL);
    if (!image)
        return tr__error(NULL, TR_ERROR_INVALID_ARGUMENT, "tr_subsampled_write_png: image is NULL");
    tr_context *ctx = image->ctx;
    if (!path)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_subsampled_write_png: path is NULL");
    if (!image->subsampled)
        return tr__error(ctx, TR_ERROR_INVALID_STATE, "tr_subsampled_write_png: the image is not TR_IMAGE_SUBSAMPLED");
    if (layer >= image->desc.layers)
        return tr__error(ctx, TR_ERROR_OUT_OF_RANGE, "tr_subsampled_write_png: layer %u of %u", layer,
                         image->desc.layers);
    const uint32_t w = tr__image_stored_w(image, 0), h = tr__image_stored_h(image, 0); /* padding included */
    uint8_t *px = tr__alloc(ctx, (size_t)w * h * 4);
    if (!px)
        return tr__error(ctx, TR_ERROR_OUT_OF_MEMORY, "tr_subsampled_write_png: out of memory");
    tr_result r = tr__image_read_rgba8(image, &(tr_subresource){0, layer, TR_ASPECT_COLOR, 0}, px, true);
    if (r == TR_OK) {
        const tr__subsampled_meta *m = &image->subsampled[layer];
        const int64_t a = TR_SUBSAMPLED_APRON;
        /* a bin's stored scale f: its metadata scale is 1 / f times the
         * framebuffer's share of the stored width (subsample.h) */
        const float ratio_x = (float)image->desc.width / (float)w, ratio_y = (float)image->desc.height / (float)h;
        tr__area_count scales[10];
        size_t kinds = 0;
        uint32_t invisible = 0, reduced = 0;
        for (uint32_t b = 0; b < m->bin_count; b++) {
            const tr_subsampled_bin *bin = &m->bins[b];
            tr_rect q = bin->rect;
            if (m->bin_count == 1 && (!q.width || !q.height))
                q = (tr_rect){0, 0, image->desc.width, image->desc.height}; /* the identity: one full-size bin */
            if (!q.width || !q.height) {
                invisible++;
                continue;
            }
            uint32_t fx = 1, fy = 1;
            if (bin->subsampled) {
                fx = (uint32_t)(ratio_x / bin->scale[0] + 0.5f);
                fy = (uint32_t)(ratio_y / bin->scale[1] + 0.5f);
                reduced++;
            }
            tr__area_count_add(scales, &kinds, TR_ARRAY_SIZE(scales), fx, fy);
            uint8_t rgb[3];
            tr__area_rgb(fx, fy, rgb);
            const int64_t x1 = (int64_t)q.x + q.width, y1 = (int64_t)q.y + q.height;
            if (bin->subsampled)
                frame(px, w, h, q.x - a, q.y - a, x1 + a, y1 + a, apron_rgb);
            frame(px, w, h, q.x, q.y, x1, y1, rgb);
        }
        tr__legend_entry e[TR_ARRAY_SIZE(scales) + 2];
        size_t n = tr__legend_areas(e, scales, kinds, TR__SWATCH_FRAME, (const uint8_t[3]){255, 255, 255});
        if (invisible) {
            e[n] = (tr__legend_entry){{0, 0, 0}, TR__SWATCH_FILL, ""}; /* nothing drawn */
            tr__legend_area_count(&e[n++], 0, 0, invisible, "bin");
        }
        if (reduced) {
            e[n] = (tr__legend_entry){{apron_rgb[0], apron_rgb[1], apron_rgb[2]}, TR__SWATCH_FRAME, ""};
            snprintf(e[n++].label, sizeof e[0].label, "apron: %u px", (unsigned)TR_SUBSAMPLED_APRON);
        }
        r = tr__write_png_legend(ctx, "tr_subsampled_write_png", path, px, w, h, &(tr__legend){e, n, NULL, 0});
    }
    tr__free(ctx, px);
    return r;
}
