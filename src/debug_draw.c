/* tilerast: the legends of the debug pictures (debug_draw.h). */
#include "debug_draw.h"

#include <stdio.h>
#include <string.h>

#include "internal.h"

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

/* 3x5 glyphs, one row per 3 bits (bit 2 the left column), top row first:
 * the digits, the signs a number needs, and the letters the legends' words
 * use ("bins", "tiles", "merged", "apron", "px", "mip", "none", "used"). */
static const struct {
    char ch;
    uint8_t rows[5];
} glyphs[] = {
    {'0', {7, 5, 5, 5, 7}}, {'1', {2, 6, 2, 2, 7}}, {'2', {7, 1, 7, 4, 7}}, {'3', {7, 1, 7, 1, 7}},
    {'4', {5, 5, 7, 1, 1}}, {'5', {7, 4, 7, 1, 7}}, {'6', {7, 4, 7, 5, 7}}, {'7', {7, 1, 1, 1, 1}},
    {'8', {7, 5, 7, 5, 7}}, {'9', {7, 5, 7, 1, 7}}, {'.', {0, 0, 0, 0, 2}}, {'-', {0, 0, 7, 0, 0}},
    {'+', {0, 2, 7, 2, 0}}, {':', {0, 2, 0, 2, 0}}, {'x', {0, 5, 2, 5, 0}}, {'a', {0, 6, 3, 5, 7}},
    {'b', {4, 4, 7, 5, 7}}, {'d', {1, 1, 7, 5, 7}}, {'e', {0, 7, 7, 4, 7}}, {'g', {0, 3, 5, 3, 6}},
    {'i', {2, 0, 2, 2, 2}}, {'l', {4, 4, 4, 4, 6}}, {'m', {0, 7, 7, 5, 5}}, {'n', {0, 6, 5, 5, 5}},
    {'o', {0, 2, 5, 5, 2}}, {'p', {0, 7, 5, 7, 4}}, {'r', {0, 3, 4, 4, 4}}, {'s', {0, 3, 4, 1, 6}},
    {'t', {2, 7, 2, 2, 3}}, {'u', {0, 5, 5, 5, 7}},
};

static const uint8_t *glyph(char ch)
{
    for (size_t i = 0; i < TR_ARRAY_SIZE(glyphs); i++)
        if (glyphs[i].ch == ch)
            return glyphs[i].rows;
    return NULL;
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

bool tr__area_rgb(uint32_t w, uint32_t h, uint8_t rgb[3])
{
    static const struct {
        uint32_t w, h;
        uint8_t rgb[3];
    } tints[] = {
        {2, 1, {70, 130, 255}}, {1, 2, {70, 130, 255}}, {2, 2, {40, 200, 60}},
        {4, 1, {0, 210, 230}},  {1, 4, {0, 210, 230}},  {4, 2, {250, 220, 0}},
        {2, 4, {250, 220, 0}},  {4, 4, {240, 40, 30}},
    };
    for (size_t i = 0; i < TR_ARRAY_SIZE(tints); i++)
        if (tints[i].w == w && tints[i].h == h) {
            memcpy(rgb, tints[i].rgb, 3);
            return true;
        }
    const bool one = w == 1 && h == 1;
    rgb[0] = rgb[1] = rgb[2] = one ? 255 : 160; /* 1x1 untinted; an area fdm.h does not produce grey */
    return !one;
}

/* ---- legends ------------------------------------------------------------- */

static const uint8_t legend_grey[3] = {96, 96, 96}, legend_white[3] = {255, 255, 255},
                     legend_black[3] = {0, 0, 0};

uint32_t tr__legend_scale(uint32_t w)
{
    return TR_MAX(1u, TR_MIN(4u, w / 256u));
}

void tr__legend_count(tr__legend_entry *e, const char *what, uint32_t count, const char *unit)
{
    snprintf(e->label, sizeof e->label, "%.23s: %u %.8s%s", what, count, unit, count == 1 ? "" : "s");
}

void tr__legend_area_count(tr__legend_entry *e, uint32_t w, uint32_t h, uint32_t count, const char *unit)
{
    char what[24];
    snprintf(what, sizeof what, "%ux%u", w, h);
    tr__legend_count(e, what, count, unit);
}

void tr__area_count_add(tr__area_count *list, size_t *n, size_t cap, uint32_t w, uint32_t h)
{
    size_t k = 0;
    while (k < *n && (list[k].w != w || list[k].h != h))
        k++;
    if (k == *n) {
        if (*n == cap)
            return;
        list[(*n)++] = (tr__area_count){w, h, 0};
    }
    list[k].count++;
}

static bool area_before(const tr__area_count *a, const tr__area_count *b)
{
    const uint64_t pa = (uint64_t)a->w * a->h, pb = (uint64_t)b->w * b->h;
    return pa < pb || (pa == pb && a->w > b->w);
}

size_t tr__legend_areas(tr__legend_entry *e, tr__area_count *list, size_t n, tr__swatch swatch,
                        const uint8_t one_rgb[3])
{
    for (size_t i = 1; i < n; i++) /* insertion sort: a handful of areas */
        for (size_t j = i; j > 0 && area_before(&list[j], &list[j - 1]); j--) {
            const tr__area_count t = list[j];
            list[j] = list[j - 1];
            list[j - 1] = t;
        }
    for (size_t k = 0; k < n; k++) {
        e[k].swatch = tr__area_rgb(list[k].w, list[k].h, e[k].rgb) ? swatch : TR__SWATCH_FRAME;
        if (e[k].swatch == TR__SWATCH_FRAME && list[k].w == 1 && list[k].h == 1)
            memcpy(e[k].rgb, one_rgb, 3);
        tr__legend_area_count(&e[k], list[k].w, list[k].h, list[k].count, "bin");
    }
    return n;
}

static uint32_t entry_width(const tr__legend_entry *e, uint32_t s)
{
    return 9 * s + tr__text_width(e->label, s);
}

static void draw_swatch(const tr__canvas *c, uint32_t x, uint32_t y, uint32_t s, const tr__legend_entry *e)
{
    const uint32_t q = 7 * s;
    tr__canvas_fill(c, x, y, q, q, e->swatch == TR__SWATCH_FRAME ? e->rgb : legend_grey);
    for (uint32_t j = s; j < q - s; j++)
        for (uint32_t i = s; i < q - s; i++) {
            const bool lit = e->swatch == TR__SWATCH_FILL || (e->swatch == TR__SWATCH_HATCH && (i + j) % 4 < 2);
            tr__canvas_fill(c, x + i, y + j, 1, 1, lit ? e->rgb : legend_black);
        }
}

/* Lays the entries out in rows within w (drawing them when c is not NULL,
 * from y0); returns the rows. */
static uint32_t legend_rows(const tr__canvas *c, uint32_t w, uint32_t y0, uint32_t s, const tr__legend *l)
{
    uint32_t x = 2 * s, rows = l->entry_count ? 1 : 0;
    for (size_t k = 0; k < l->entry_count; k++) {
        const tr__legend_entry *e = &l->entries[k];
        const uint32_t ew = entry_width(e, s);
        if (x > 2 * s && x + ew + 2 * s > w) {
            x = 2 * s;
            rows++;
        }
        if (c) {
            const uint32_t y = y0 + 2 * s + 9 * s * (rows - 1);
            draw_swatch(c, x, y, s, e);
            tr__canvas_text(c, x + 9 * s, y + s, s, e->label, legend_white);
        }
        x += ew + 6 * s;
    }
    return rows;
}

tr_result tr__write_png_legend(tr_context *ctx, const char *who, const char *path, const uint8_t *px, uint32_t w,
                               uint32_t h, const tr__legend *legend)
{
    const uint32_t s = tr__legend_scale(w);
    uint32_t W = w;
    for (size_t k = 0; k < legend->entry_count; k++)
        W = TR_MAX(W, entry_width(&legend->entries[k], s) + 4 * s);
    const uint32_t marks_h = legend->mark_count ? 7 * s : 0;
    const uint32_t rows = legend_rows(NULL, W, 0, s, legend);
    const uint32_t H = h + marks_h + (rows ? 2 * s + 9 * s * rows : 0);
    uint8_t *out = tr__alloc(ctx, (size_t)W * H * 4);
    if (!out)
        return tr__error(ctx, TR_ERROR_OUT_OF_MEMORY, "%s: out of memory for a %ux%u picture", who, W, H);
    const tr__canvas cv = {out, W, H};
    tr__canvas_fill(&cv, 0, 0, W, H, legend_black);
    for (uint32_t y = 0; y < h; y++)
        memcpy(out + (size_t)y * W * 4, px + (size_t)y * w * 4, (size_t)w * 4);
    for (size_t k = 0; k < legend->mark_count; k++) {
        const tr__legend_mark *m = &legend->marks[k];
        const uint32_t end = k + 1 < legend->mark_count ? legend->marks[k + 1].x : w;
        if (m->x + tr__text_width(m->label, s) < end)
            tr__canvas_text(&cv, m->x, h + 2 * s, s, m->label, legend_white);
    }
    legend_rows(&cv, W, h + marks_h, s, legend);
    tr_result r = tr__write_png_rgba8(path, W, H, out);
    tr__free(ctx, out);
    if (r != TR_OK)
        return tr__error(ctx, r, "%s: cannot write %s", who, path);
    return TR_OK;
}
