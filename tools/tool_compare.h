/* Golden-image comparison for tilerast-render --compare: reads a golden
 * PNG, compares it with the render's 8-bit RGBA (the bytes -o writes) and
 * writes a picture of the differences.  Not part of the library's API; the
 * rules printed by --help and README.md ("Golden images") are the ones
 * tool_compare_rgba8 implements. */
#ifndef TILERAST_TOOL_COMPARE_H
#define TILERAST_TOOL_COMPARE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* tilerast-render's exit codes beside 0 (done; images equal within the
 * tolerance), 1 (an error) and 2 (a usage error). */
#define TOOL_EXIT_MISMATCH 3 /* the render differs from the golden beyond the tolerance */
#define TOOL_EXIT_GOLDEN 4   /* the golden cannot be compared: missing, unreadable, not
                                an 8-bit PNG, or not the render's size */

typedef struct tool_compare_result {
    uint32_t width, height;
    uint64_t pixels_differing;       /* pixels with any channel different at all */
    uint32_t max_channel_difference; /* the largest |render - golden| of any channel, 0..255 */
    uint32_t tolerance;              /* the largest difference still passed */
    int passed;                      /* max_channel_difference <= tolerance */
} tool_compare_result;

/* Compares the render (width*height RGBA8 texels, top row first) with the
 * golden PNG at golden_path, and with diff_path not NULL writes the diff
 * picture there.  Returns 0 with *out filled (whatever the verdict);
 * TOOL_EXIT_GOLDEN when the golden cannot be compared, or 1 when the diff
 * picture cannot be written, each with a message naming the file in msg. */
int tool_compare(const char *golden_path, const uint8_t *render, uint32_t width, uint32_t height,
                 uint32_t tolerance, const char *diff_path, tool_compare_result *out, char *msg,
                 size_t msg_size);

/* The one line for a CI log, newline included:
 * "compare: WxH, N pixels differ (largest channel difference D, tolerance T): ok|FAIL (golden PATH)" */
void tool_compare_print_line(FILE *f, const char *golden_path, const tool_compare_result *r);

/* The comparison as a JSON object (for --stats): golden, diff (or null),
 * width, height, pixels_differing, max_channel_difference, tolerance, passed. */
void tool_compare_print_json(FILE *f, const char *golden_path, const char *diff_path,
                             const tool_compare_result *r);

#endif
