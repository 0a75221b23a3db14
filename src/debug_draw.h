/* tilerast: drawing the legends of the debug pictures (lrz.h's
 * tr_image_write_lrz_png and the others): a heat scale, colour bars and
 * numbers in a 3x5-pixel font, into RGBA8 buffers. */
#ifndef TILERAST_DEBUG_DRAW_H
#define TILERAST_DEBUG_DRAW_H

#include <stdint.h>

/* Blue (0) -> cyan -> green (0.5) -> yellow -> red (1); t clamped, NaN 0. */
void tr__heat(float t, uint8_t rgb[3]);

/* An RGBA8 picture being drawn: w x h pixels, row-major, top row first. */
typedef struct tr__canvas {
    uint8_t *px;
    uint32_t w, h;
} tr__canvas;

void tr__canvas_fill(const tr__canvas *c, uint32_t x, uint32_t y, uint32_t w, uint32_t h, const uint8_t rgb[3]);
/* Text of digits, '.', '-', '+', 'e', 'x' and spaces at (x, y), each glyph
 * 3x5 pixels times `scale`, one blank column between glyphs; other
 * characters draw as spaces.  Returns the width drawn. */
uint32_t tr__canvas_text(const tr__canvas *c, uint32_t x, uint32_t y, uint32_t scale, const char *s,
                         const uint8_t rgb[3]);
/* The width tr__canvas_text would draw. */
uint32_t tr__text_width(const char *s, uint32_t scale);
/* A heat bar from x to x + w - 1 (t = 0 .. 1 left to right), h tall. */
void tr__canvas_heat_bar(const tr__canvas *c, uint32_t x, uint32_t y, uint32_t w, uint32_t h);

#endif
