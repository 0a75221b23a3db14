/* tilerast subsample stage: the debugging picture of a subsampled image --
 * its stored texels as they lie, each bin's rectangle outlined (white: at
 * full size; cyan: subsampled), and around a subsampled bin the outer edge
 * of its apron (yellow). */
#include "subsample/subsample_internal.h"

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
    if (!image)
        return TR_ERROR_INVALID_ARGUMENT;
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
        static const uint8_t white[3] = {255, 255, 255}, cyan[3] = {0, 230, 255}, yellow[3] = {255, 220, 0};
        const tr__subsampled_meta *m = &image->subsampled[layer];
        const int64_t a = TR_SUBSAMPLED_APRON;
        for (uint32_t b = 0; b < m->bin_count; b++) {
            const tr_rect *q = &m->bins[b].rect;
            if (!q->width || !q->height)
                continue;
            const int64_t x1 = (int64_t)q->x + q->width, y1 = (int64_t)q->y + q->height;
            if (m->bins[b].subsampled)
                frame(px, w, h, q->x - a, q->y - a, x1 + a, y1 + a, yellow);
            frame(px, w, h, q->x, q->y, x1, y1, m->bins[b].subsampled ? cyan : white);
        }
        r = tr__write_png_rgba8(path, w, h, px);
        if (r != TR_OK)
            r = tr__error(ctx, r, "tr_subsampled_write_png: cannot write %s", path);
    }
    tr__free(ctx, px);
    return r;
}
