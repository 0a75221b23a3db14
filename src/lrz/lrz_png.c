/* tilerast LRZ stage: the debug picture (tr_image_write_lrz_png). */
#include <math.h>

#include <stdio.h>
#include <stdlib.h>

#include "debug_draw.h"
#include "lrz/lrz_internal.h"

static int cmp_float(const void *a, const void *b)
{
    const float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

TR_API tr_result tr_image_write_lrz_png(const tr_image *depth, uint32_t view, const char *path)
{
    tr__api_enter(depth ? depth->ctx : NULL);
    if (!depth || !path)
        return tr__error(depth ? depth->ctx : NULL, TR_ERROR_INVALID_ARGUMENT, "tr_image_write_lrz_png: %s is NULL",
                         depth ? "path" : "depth");
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
    const uint32_t half = b->w * s, gap = s, W = 2 * half + gap, top = b->h * s;
    /* The ranges present: the bounds written (texels still at the clear
     * value are drawn black), coloured by rank among them (equalised: the
     * depths of a scene crowd into a sliver of [0, 1], which a linear
     * scale would show as one colour), and rejections per texel. */
    float *written = tr__alloc(ctx, (size_t)b->w * b->h * sizeof(float) + 1);
    if (!written)
        return tr__error(ctx, TR_ERROR_OUT_OF_MEMORY, "tr_image_write_lrz_png: out of memory");
    size_t nw = 0;
    uint32_t most = 0;
    for (uint32_t ty = 0; ty < b->h; ty++)
        for (uint32_t tx = 0; tx < b->w; tx++) {
            const float v = tr__lrz_bound_at(b, view, tx, ty);
            if (v != b->clear_value)
                written[nw++] = v;
            const uint32_t n = b->rejected[tr__lrz_texel_index(b, view, tx, ty)];
            most = n > most ? n : most;
        }
    float lo = INFINITY, hi = -INFINITY, mid = 0.0f;
    if (nw) {
        qsort(written, nw, sizeof(float), cmp_float);
        lo = written[0];
        hi = written[nw - 1];
        mid = written[(nw - 1) / 2];
    }
    /* The legend below: two bars and the numbers at their ends. */
    const uint32_t fs = half >= 200 ? 2 : 1, bar_h = 3 * fs + 3, legend = 3 + bar_h + 2 + 5 * fs + 3;
    const uint32_t H = top + legend;
    uint8_t *px = tr__alloc(ctx, (size_t)W * H * 4);
    if (!px) {
        tr__free(ctx, written);
        return tr__error(ctx, TR_ERROR_OUT_OF_MEMORY, "tr_image_write_lrz_png: out of memory");
    }
    memset(px, 0, (size_t)W * H * 4);
    const tr__canvas cv = {px, W, H};
    for (size_t i = 0; i < (size_t)W * H; i++)
        px[4 * i + 3] = 255;
    for (uint32_t ty = 0; ty < b->h; ty++)
        for (uint32_t tx = 0; tx < b->w; tx++) {
            const size_t ti = tr__lrz_texel_index(b, view, tx, ty);
            const bool cleared =
                atomic_load_explicit(&b->group_written[tr__lrz_group_index(b, view, tx, ty)], memory_order_relaxed) != 1;
            const float bound = tr__lrz_bound_at(b, view, tx, ty);
            uint8_t c[3] = {0, 0, 0}, q[3] = {0, 0, 0};
            /* bounds by rank: the first written value not below it */
            if (bound != b->clear_value) {
                size_t l = 0, u = nw;
                while (l < u) {
                    const size_t m = l + (u - l) / 2;
                    if (written[m] < bound)
                        l = m + 1;
                    else
                        u = m;
                }
                tr__heat(nw > 1 ? (float)l / (float)(nw - 1) : 0.5f, c);
            }
            /* rejections on a log scale up to the most any texel has */
            const uint32_t n = b->rejected[ti];
            if (n)
                tr__heat(most > 1 ? logf((float)n) / logf((float)most) : 1.0f, q);
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
                    uint8_t *r = px + ((size_t)Y * W + half + gap + X) * 4;
                    r[0] = q[0], r[1] = q[1], r[2] = q[2];
                }
        }
    static const uint8_t grey[3] = {96, 96, 96}, white[3] = {255, 255, 255};
    tr__canvas_fill(&cv, half, 0, gap, top, grey); /* the gap */
    const uint32_t by = top + 3, ty = by + bar_h + 2;
    char a[32], z[32];
    /* left: the clear value (black), then the bounds written, lowest to
     * highest; right: rejected fragments per texel: 0 black, then 1 to
     * the most on a log scale */
    const uint32_t x0 = half + gap, zero_w = half / 4 > 4 ? half / 4 : 4;
    tr__canvas_fill(&cv, 0, by, zero_w, bar_h, (const uint8_t[3]){0, 0, 0});
    tr__canvas_fill(&cv, 0, by + bar_h - 1, zero_w, 1, grey);
    snprintf(a, sizeof a, "%.6g", (double)b->clear_value);
    tr__canvas_text(&cv, 0, ty, fs, a, white);
    if (lo <= hi) {
        tr__canvas_heat_bar(&cv, zero_w + 1, by, half - zero_w - 1, bar_h);
        snprintf(a, sizeof a, "%.6g", (double)lo);
        snprintf(z, sizeof z, "%.6g", (double)hi);
        tr__canvas_text(&cv, zero_w + 1, ty, fs, a, white);
        const uint32_t bar0 = zero_w + 1, bar_w = half - zero_w - 1;
        if (hi > lo && tr__text_width(a, fs) + tr__text_width(z, fs) + 4 * fs <= bar_w)
            tr__canvas_text(&cv, half - tr__text_width(z, fs), ty, fs, z, white);
        /* the median at the middle, when it fits between the ends */
        char m[32];
        snprintf(m, sizeof m, "%.6g", (double)mid);
        const uint32_t mw = tr__text_width(m, fs), mx = bar0 + bar_w / 2 - mw / 2;
        if (hi > lo && mx > bar0 + tr__text_width(a, fs) + 4 * fs &&
            mx + mw + 4 * fs < half - tr__text_width(z, fs))
            tr__canvas_text(&cv, mx, ty, fs, m, white);
    }
    tr__free(ctx, written);
    tr__canvas_fill(&cv, x0, by, zero_w, bar_h, (const uint8_t[3]){0, 0, 0});
    tr__canvas_fill(&cv, x0, by + bar_h - 1, zero_w, 1, grey);
    tr__canvas_text(&cv, x0, ty, fs, "0", white);
    if (most) {
        tr__canvas_heat_bar(&cv, x0 + zero_w + 1, by, half - zero_w - 1, bar_h);
        snprintf(z, sizeof z, "%u", most);
        tr__canvas_text(&cv, x0 + zero_w + 1, ty, fs, "1", white);
        if (most > 1 && tr__text_width(z, fs) + 8 * fs + zero_w <= half)
            tr__canvas_text(&cv, x0 + half - tr__text_width(z, fs), ty, fs, z, white);
    }
    tr_result r = tr__write_png_rgba8(path, W, H, px);
    tr__free(ctx, px);
    if (r != TR_OK)
        return tr__error(ctx, r, "tr_image_write_lrz_png: cannot write %s", path);
    return TR_OK;
}
