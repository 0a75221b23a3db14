/* Test helpers for the debug pictures (lrz.h, fdm.h, subsample.h and
 * feedback.h's *_write_png): reading a PNG back, checking pixels, and
 * checking a legend against the layout src/debug_draw.h documents (the
 * positions computed here from that description, the glyphs drawn by the
 * library's own font to compare the labels' text). */
#ifndef TRT_PICTURE_H
#define TRT_PICTURE_H

#include <stddef.h>
#include <stdint.h>

/* Reads a PNG as RGBA8 (asserts); free with trt_png_free. */
uint8_t *trt_png_load(const char *path, int *w, int *h);
void trt_png_free(uint8_t *px);

/* Makes the file named by a mkstemp template ("/tmp/name_XXXXXX") and
 * closes it (asserts), for a picture to be written to. */
void trt_temp_file(char *tmpl);
/* trt_png_load, then removes the file. */
uint8_t *trt_png_take(const char *path, int *w, int *h);

/* Expects pixel (x, y) of a w-wide RGBA8 picture to be (r, g, b, 255). */
void trt_expect_px(const uint8_t *px, int w, int x, int y, uint8_t r, uint8_t g, uint8_t b, const char *what);

/* Expects `text` in white on black at (x, y), glyphs scaled by s: every
 * pixel of the text's box as the library's 3x5 font draws it. */
void trt_expect_text(const uint8_t *px, int w, int x, int y, uint32_t s, const char *text, const char *what);

/* One legend entry as a test expects it: swatch 0 fill, 1 frame, 2 hatch
 * (debug_draw.h's tr__swatch). */
typedef struct trt_legend_want {
    uint8_t rgb[3];
    int swatch;
    const char *label;
} trt_legend_want;

enum { TRT_SWATCH_FILL, TRT_SWATCH_FRAME, TRT_SWATCH_HATCH };

/* Expects the legend entries of a picture w x h (the whole PNG) whose
 * entries start at y0 (below the picture and its marks), at scale s:
 * swatches and labels where debug_draw.h's layout puts them, and the PNG
 * exactly 2s below the last row.  Returns the rows. */
uint32_t trt_expect_legend(const uint8_t *px, int w, int h, uint32_t y0, uint32_t s, const trt_legend_want *want,
                           size_t n);

#endif
