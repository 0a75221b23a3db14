/* Test helpers for the debug pictures: see trt_picture.h. */
#define _POSIX_C_SOURCE 200809L
#include "trt_picture.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "debug_draw.h"
#include "trt_stb_image.h"
#include "trtest.h"

uint8_t *trt_png_load(const char *path, int *w, int *h)
{
    int n = 0;
    uint8_t *px = stbi_load(path, w, h, &n, 4);
    cr_assert_not_null(px, "%s: %s", path, stbi_failure_reason());
    return px;
}

void trt_temp_file(char *tmpl)
{
    const int fd = mkstemp(tmpl);
    cr_assert_geq(fd, 0, "mkstemp(%s)", tmpl);
    close(fd);
}

uint8_t *trt_png_take(const char *path, int *w, int *h)
{
    uint8_t *px = trt_png_load(path, w, h);
    unlink(path);
    return px;
}

void trt_png_free(uint8_t *px)
{
    stbi_image_free(px);
}

void trt_expect_px(const uint8_t *px, int w, int x, int y, uint8_t r, uint8_t g, uint8_t b, const char *what)
{
    const uint8_t *p = px + ((size_t)y * (size_t)w + (size_t)x) * 4;
    cr_expect(p[0] == r && p[1] == g && p[2] == b && p[3] == 255, "%s (%d,%d): %u %u %u %u, want %u %u %u 255", what, x,
              y, p[0], p[1], p[2], p[3], r, g, b);
}

void trt_expect_text(const uint8_t *px, int w, int x, int y, uint32_t s, const char *text, const char *what)
{
    const uint32_t tw = tr__text_width(text, s), th = 5 * s;
    uint8_t *want = calloc((size_t)tw * th * 4 + 4, 1);
    cr_assert_not_null(want);
    static const uint8_t white[3] = {255, 255, 255};
    tr__canvas_text(&(tr__canvas){want, tw, th}, 0, 0, s, text, white);
    int bad = 0;
    for (uint32_t j = 0; j < th && bad < 4; j++)
        for (uint32_t i = 0; i < tw && bad < 4; i++) {
            const uint8_t v = want[((size_t)j * tw + i) * 4];
            const uint8_t *p = px + ((size_t)(y + (int)j) * (size_t)w + (size_t)(x + (int)i)) * 4;
            if (p[0] != v || p[1] != v || p[2] != v) {
                cr_expect_fail("%s: \"%s\" at (%d,%d): pixel (%u,%u) of the text is %u %u %u, want %u", what, text, x,
                               y, i, j, p[0], p[1], p[2], v);
                bad++;
            }
        }
    free(want);
}

static void expect_swatch(const uint8_t *px, int w, int x, int y, uint32_t s, const trt_legend_want *e)
{
    static const uint8_t grey[3] = {96, 96, 96}, black[3] = {0, 0, 0};
    const uint32_t q = 7 * s;
    int bad = 0;
    for (uint32_t j = 0; j < q && bad < 4; j++)
        for (uint32_t i = 0; i < q && bad < 4; i++) {
            const int border = i < s || j < s || i >= q - s || j >= q - s;
            const uint8_t *c;
            if (border)
                c = e->swatch == TRT_SWATCH_FRAME ? e->rgb : grey;
            else if (e->swatch == TRT_SWATCH_FILL || (e->swatch == TRT_SWATCH_HATCH && (i + j) % 4 < 2))
                c = e->rgb;
            else
                c = black;
            const uint8_t *p = px + ((size_t)(y + (int)j) * (size_t)w + (size_t)(x + (int)i)) * 4;
            if (p[0] != c[0] || p[1] != c[1] || p[2] != c[2]) {
                cr_expect_fail("swatch of \"%s\" at (%d,%d): pixel (%u,%u) is %u %u %u, want %u %u %u", e->label, x, y,
                               i, j, p[0], p[1], p[2], c[0], c[1], c[2]);
                bad++;
            }
        }
}

uint32_t trt_expect_legend(const uint8_t *px, int w, int h, uint32_t y0, uint32_t s, const trt_legend_want *want,
                           size_t n)
{
    uint32_t x = 2 * s, row = 0;
    for (size_t k = 0; k < n; k++) {
        const uint32_t ew = 9 * s + tr__text_width(want[k].label, s);
        if (x > 2 * s && x + ew + 2 * s > (uint32_t)w)
            x = 2 * s, row++;
        const uint32_t y = y0 + 2 * s + 9 * s * row;
        expect_swatch(px, w, (int)x, (int)y, s, &want[k]);
        trt_expect_text(px, w, (int)(x + 9 * s), (int)(y + s), s, want[k].label, "legend label");
        x += ew + 6 * s;
    }
    const uint32_t rows = n ? row + 1 : 0;
    cr_expect_eq((uint32_t)h, y0 + (rows ? 2 * s + 9 * s * rows : 0), "the PNG is %d tall, the legend ends at %u", h,
                 y0 + (rows ? 2 * s + 9 * s * rows : 0));
    return rows;
}
