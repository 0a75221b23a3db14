/* tilerast LRZ stage: the debug picture (tr_image_write_lrz_png). */
#include <math.h>

#include "lrz/lrz_internal.h"

/* Blue (0) -> cyan -> green (0.5) -> yellow -> red (1). */
static void heat(float t, uint8_t rgb[3])
{
    if (!(t >= 0.0f))
        t = 0.0f;
    if (t > 1.0f)
        t = 1.0f;
    float r = t < 0.5f ? 0.0f : (t - 0.5f) * 2.0f;
    float g = t < 0.5f ? t * 2.0f : (1.0f - t) * 2.0f;
    float b = t < 0.5f ? 1.0f - t * 2.0f : 0.0f;
    rgb[0] = (uint8_t)(r * 255.0f + 0.5f);
    rgb[1] = (uint8_t)(g * 255.0f + 0.5f);
    rgb[2] = (uint8_t)(b * 255.0f + 0.5f);
}

TR_API tr_result tr_image_write_lrz_png(const tr_image *depth, uint32_t view, const char *path)
{
    if (!depth || !path)
        return TR_ERROR_INVALID_ARGUMENT;
    tr_context *ctx = depth->ctx;
    const tr__lrz_buffer *b = depth->lrz;
    if (!b || !b->bound)
        return tr__error(ctx, TR_ERROR_INVALID_STATE,
                         "tr_image_write_lrz_png: the image has no LRZ buffer (no pass has used LRZ on it)");
    if (view >= b->views)
        return tr__error(ctx, TR_ERROR_OUT_OF_RANGE, "tr_image_write_lrz_png: view %u, but the buffer has %u",
                         view, b->views);
    /* Each texel as s x s pixels, s <= 8, the picture at most 8192 wide. */
    uint32_t s = 8;
    while (s > 1 && (uint64_t)(2 * b->w + 1) * s > 8192)
        s--;
    const uint32_t half = b->w * s, gap = s, W = 2 * half + gap, H = b->h * s;
    uint8_t *px = tr__alloc(ctx, (size_t)W * H * 4);
    if (!px)
        return tr__error(ctx, TR_ERROR_OUT_OF_MEMORY, "tr_image_write_lrz_png: out of memory");
    memset(px, 0, (size_t)W * H * 4);
    for (uint32_t ty = 0; ty < b->h; ty++)
        for (uint32_t tx = 0; tx < b->w; tx++) {
            size_t ti = ((size_t)view * b->h + ty) * b->w + tx;
            size_t gi = ((size_t)view * b->gh + ty / TR_LRZ_GROUP_H) * b->gw + tx / TR_LRZ_GROUP_W;
            bool cleared = atomic_load_explicit(&b->group_written[gi], memory_order_relaxed) != 1;
            float bound = cleared ? b->clear_value : b->bound[ti];
            uint8_t c[3];
            heat(bound, c);
            uint32_t n = b->rejected[ti];
            /* log scale: one fragment is dim, a whole block many times bright */
            uint8_t grey = n ? (uint8_t)fminf(255.0f, 48.0f + 24.0f * log2f((float)n)) : 0;
            for (uint32_t y = 0; y < s; y++)
                for (uint32_t x = 0; x < s; x++) {
                    uint32_t X = tx * s + x, Y = ty * s + y;
                    uint8_t *o = px + ((size_t)Y * W + X) * 4;
                    bool stripe = ((X + Y) % 4) == 0;
                    if (b->broken && stripe) {
                        o[0] = 255, o[1] = 0, o[2] = 255; /* invalid: magenta stripes */
                    } else if (cleared && stripe) {
                        o[0] = (uint8_t)(c[0] / 2), o[1] = (uint8_t)(c[1] / 2), o[2] = (uint8_t)(c[2] / 2);
                    } else {
                        o[0] = c[0], o[1] = c[1], o[2] = c[2];
                    }
                    o[3] = 255;
                    uint8_t *q = px + ((size_t)Y * W + half + gap + X) * 4;
                    q[0] = q[1] = q[2] = grey;
                    q[3] = 255;
                }
        }
    for (uint32_t Y = 0; Y < H; Y++) /* the gap: mid grey */
        for (uint32_t X = half; X < half + gap; X++) {
            uint8_t *o = px + ((size_t)Y * W + X) * 4;
            o[0] = o[1] = o[2] = 96;
            o[3] = 255;
        }
    tr_result r = tr__write_png_rgba8(path, W, H, px);
    tr__free(ctx, px);
    if (r != TR_OK)
        return tr__error(ctx, r, "tr_image_write_lrz_png: cannot write %s", path);
    return TR_OK;
}
