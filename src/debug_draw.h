/* tilerast: drawing the legends of the debug pictures (lrz.h's
 * tr_image_write_lrz_png, fdm.h's tr_fdm_write_png, subsample.h's
 * tr_subsampled_write_png, feedback.h's tr_feedback_map_write_png): a heat
 * scale, colour bars, swatches and text in a 3x5-pixel font, into RGBA8
 * buffers. */
#ifndef TILERAST_DEBUG_DRAW_H
#define TILERAST_DEBUG_DRAW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tilerast/tilerast.h"

/* Blue (0) -> cyan -> green (0.5) -> yellow -> red (1); t clamped, NaN 0. */
void tr__heat(float t, uint8_t rgb[3]);

/* The colour of a fragment area (fdm.h's areas, also a subsampled bin's
 * scale), by the pixels a coarse fragment stands for: 2 (2x1, 1x2) blue
 * {70, 130, 255}, 4 as 2x2 green {40, 200, 60}, 4 as 4x1 or 1x4 cyan
 * {0, 210, 230}, 8 yellow {250, 220, 0}, 16 red {240, 40, 30}; any other
 * grey {160, 160, 160}.  1x1 is white and returns false (no tint). */
bool tr__area_rgb(uint32_t w, uint32_t h, uint8_t rgb[3]);

/* An RGBA8 picture being drawn: w x h pixels, row-major, top row first. */
typedef struct tr__canvas {
    uint8_t *px;
    uint32_t w, h;
} tr__canvas;

void tr__canvas_fill(const tr__canvas *c, uint32_t x, uint32_t y, uint32_t w, uint32_t h, const uint8_t rgb[3]);
/* Text of digits, '.', '-', '+', ':', 'x', spaces and the lower-case
 * letters a b d e g i l m n o p r s t u at (x, y), each glyph 3x5 pixels
 * times `scale`, one blank column between glyphs; other characters draw as
 * spaces.  Returns the width drawn. */
uint32_t tr__canvas_text(const tr__canvas *c, uint32_t x, uint32_t y, uint32_t scale, const char *s,
                         const uint8_t rgb[3]);
/* The width tr__canvas_text would draw. */
uint32_t tr__text_width(const char *s, uint32_t scale);
/* A heat bar from x to x + w - 1 (t = 0 .. 1 left to right), h tall. */
void tr__canvas_heat_bar(const tr__canvas *c, uint32_t x, uint32_t y, uint32_t w, uint32_t h);

/* ---- legends under a picture --------------------------------------------
 *
 * tr__write_png_legend writes a picture with a black strip below it:
 *   - with marks, a row 7s tall of labels at given x (s: the legend's
 *     scale, tr__legend_scale), their text at y = h + 2s;
 *   - then the entries, left to right, wrapped into rows 9s apart starting
 *     2s below: each a swatch 7s square at x, then its label 9s further
 *     right and s lower, in white; the first at x = 2s, each next one 6s
 *     after the previous label; 2s of black below the last row.
 * The canvas is the picture's width, or wider (black beside the picture)
 * when an entry would not fit otherwise. */

typedef enum tr__swatch {
    TR__SWATCH_FILL = 0, /* a grey {96, 96, 96} border s wide around rgb */
    TR__SWATCH_FRAME,    /* an rgb border s wide around black */
    TR__SWATCH_HATCH     /* a grey border around black, rgb where (i + j) % 4 < 2 (inside offsets i, j) */
} tr__swatch;

typedef struct tr__legend_entry {
    uint8_t rgb[3];
    tr__swatch swatch;
    char label[48];
} tr__legend_entry;

/* e's label: "<what>: <count> <unit>", unit plural unless count is 1
 * ("merged: 2 tiles"); the area form "<w>x<h>: <count> <unit>s". */
void tr__legend_count(tr__legend_entry *e, const char *what, uint32_t count, const char *unit);
void tr__legend_area_count(tr__legend_entry *e, uint32_t w, uint32_t h, uint32_t count, const char *unit);

/* Bins counted per fragment area, for a legend. */
typedef struct tr__area_count {
    uint32_t w, h, count;
} tr__area_count;

/* Counts one of area w x h in list[0 .. *n) (a new area appended while
 * *n < cap). */
void tr__area_count_add(tr__area_count *list, size_t *n, size_t cap, uint32_t w, uint32_t h);
/* Sorts the areas, fewest pixels per fragment first (ties: the wider
 * first), and writes an entry for each to e: "<w>x<h>: <count> bins", a
 * `swatch` in tr__area_rgb's colour, 1x1 a frame in one_rgb.  Returns n. */
size_t tr__legend_areas(tr__legend_entry *e, tr__area_count *list, size_t n, tr__swatch swatch,
                        const uint8_t one_rgb[3]);

/* A label under the picture at x (drawn only where it ends before the next
 * mark and inside the picture). */
typedef struct tr__legend_mark {
    uint32_t x;
    char label[12];
} tr__legend_mark;

typedef struct tr__legend {
    const tr__legend_entry *entries;
    size_t entry_count;
    const tr__legend_mark *marks;  /* in increasing x */
    size_t mark_count;
} tr__legend;

/* The legend's scale for a picture w wide: max(1, min(4, w / 256)). */
uint32_t tr__legend_scale(uint32_t w);

/* Writes px (w x h RGBA8) with the legend below it as a PNG at path.
 * Errors are reported on ctx as "<who>: out of memory" or "<who>: cannot
 * write <path>". */
tr_result tr__write_png_legend(tr_context *ctx, const char *who, const char *path, const uint8_t *px, uint32_t w,
                               uint32_t h, const tr__legend *legend);

#endif
