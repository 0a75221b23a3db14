/* tilerast: the legends of the debug pictures (debug_draw.h). */
#include "debug_draw.h"

#include <string.h>

void tr__heat(float t, uint8_t rgb[3])
{
    if (!(t >= 0.0f))
        t = 0.0f;
    if (t > 1.0f)
        t = 1.0f;
    const float r = t < 0.5f ? 0.0f : (t - 0.5f) * 2.0f;
    const float g = t < 0.5f ? t * 2.0f : (1.0f - t) * 2.0f;
    const float b = t < 0.5f ? 1.0f - t * 2.0f : 0.0f;
    rgb[0] = (uint8_t)(r * 255.0f + 0.5f);
    rgb[1] = (uint8_t)(g * 255.0f + 0.5f);
    rgb[2] = (uint8_t)(b * 255.0f + 0.5f);
}

static void put(const tr__canvas *c, uint32_t x, uint32_t y, const uint8_t rgb[3])
{
    if (x >= c->w || y >= c->h)
        return;
    uint8_t *o = c->px + ((size_t)y * c->w + x) * 4;
    o[0] = rgb[0];
    o[1] = rgb[1];
    o[2] = rgb[2];
    o[3] = 255;
}

void tr__canvas_fill(const tr__canvas *c, uint32_t x, uint32_t y, uint32_t w, uint32_t h, const uint8_t rgb[3])
{
    for (uint32_t j = 0; j < h; j++)
        for (uint32_t i = 0; i < w; i++)
            put(c, x + i, y + j, rgb);
}

/* 3x5 glyphs, one row per 3 bits (bit 2 the left column), top row first. */
static const uint8_t *glyph(char ch)
{
    static const uint8_t digits[10][5] = {
        {7, 5, 5, 5, 7}, {2, 6, 2, 2, 7}, {7, 1, 7, 4, 7}, {7, 1, 7, 1, 7}, {5, 5, 7, 1, 1},
        {7, 4, 7, 1, 7}, {7, 4, 7, 5, 7}, {7, 1, 1, 1, 1}, {7, 5, 7, 5, 7}, {7, 5, 7, 1, 7},
    };
    static const uint8_t dot[5] = {0, 0, 0, 0, 2}, minus[5] = {0, 0, 7, 0, 0}, plus[5] = {0, 2, 7, 2, 0},
                         e[5] = {0, 7, 7, 4, 7}, x[5] = {0, 5, 2, 5, 0};
    if (ch >= '0' && ch <= '9')
        return digits[ch - '0'];
    switch (ch) {
    case '.': return dot;
    case '-': return minus;
    case '+': return plus;
    case 'e': return e;
    case 'x': return x;
    default: return NULL;
    }
}

uint32_t tr__text_width(const char *s, uint32_t scale)
{
    const size_t n = strlen(s);
    return n ? (uint32_t)(4 * n - 1) * scale : 0;
}

uint32_t tr__canvas_text(const tr__canvas *c, uint32_t x, uint32_t y, uint32_t scale, const char *s,
                         const uint8_t rgb[3])
{
    for (size_t k = 0; s[k]; k++) {
        const uint8_t *g = glyph(s[k]);
        if (g)
            for (uint32_t row = 0; row < 5; row++)
                for (uint32_t col = 0; col < 3; col++)
                    if ((g[row] >> (2 - col)) & 1)
                        tr__canvas_fill(c, x + (uint32_t)(4 * k + col) * scale, y + row * scale, scale, scale, rgb);
    }
    return tr__text_width(s, scale);
}

void tr__canvas_heat_bar(const tr__canvas *c, uint32_t x, uint32_t y, uint32_t w, uint32_t h)
{
    for (uint32_t i = 0; i < w; i++) {
        uint8_t rgb[3];
        tr__heat(w > 1 ? (float)i / (float)(w - 1) : 0.0f, rgb);
        tr__canvas_fill(c, x + i, y, 1, h, rgb);
    }
}
