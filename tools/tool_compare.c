/* Golden-image comparison for tilerast-render --compare (tool_compare.h):
 * the golden PNG is read with stb_image and the diff picture written with
 * stb_image_write, both from Debian's libstb-dev (tool_stb.c). */
#define _POSIX_C_SOURCE 200809L /* tool_common.h's clock_gettime */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tool_common.h"
#include "tool_compare.h"

#include "tool_stb.h"

/* The diff picture's colours: beyond the tolerance, and different but
 * within it.  Saturated hues no dimmed grey can be mistaken for. */
static const uint8_t BEYOND_RGB[3] = {255, 0, 255}; /* magenta */
static const uint8_t WITHIN_RGB[3] = {255, 255, 0}; /* yellow */

/* Whether f starts with the 8-byte PNG signature (PNG spec, 5.2); f is
 * rewound either way.  -1 when f cannot be read at all. */
static int has_png_signature(FILE *f)
{
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    unsigned char head[8];
    size_t n = fread(head, 1, sizeof head, f);
    int err = ferror(f) ? (errno ? errno : EIO) : 0; /* before rewind may change errno */
    rewind(f);
    if (err) {
        errno = err;
        return -1;
    }
    return n == sizeof head && memcmp(head, sig, sizeof sig) == 0;
}

/* stb_image's reason for a failure, which is terse ("outofdata"), so it
 * follows a message of ours. */
static const char *stb_reason(void)
{
    const char *r = stbi_failure_reason();
    return r != NULL ? r : "no reason given";
}

/* Opens and checks the golden before anything is decoded, so that a file
 * of the wrong size or kind costs no memory.  Returns the open file, or
 * NULL with a message naming the file. */
static FILE *open_golden(const char *path, uint32_t width, uint32_t height, char *msg, size_t msg_size)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        snprintf(msg, msg_size, "golden %s: %s", path, strerror(errno));
        return NULL;
    }
    int x = 0, y = 0, comp = 0;
    int sig = has_png_signature(f);
    if (sig < 0)
        snprintf(msg, msg_size, "golden %s: cannot be read (%s)", path, strerror(errno));
    else if (sig == 0)
        snprintf(msg, msg_size, "golden %s: not a PNG file", path);
    else if (!stbi_info_from_file(f, &x, &y, &comp))
        snprintf(msg, msg_size, "golden %s: not a readable PNG (stb_image: %s)", path, stb_reason());
    else if (stbi_is_16_bit_from_file(f))
        /* Reducing to 8 bits would be a rounding rule of our own; the
         * tool writes 8 bits, so a golden it wrote has 8 too. */
        snprintf(msg, msg_size, "golden %s: 16 bits per channel; the render is 8-bit RGBA", path);
    else if ((uint32_t)x != width || (uint32_t)y != height)
        snprintf(msg, msg_size, "golden %s is %dx%d, the render is %ux%u: sizes differ", path, x, y,
                 width, height);
    else
        return f;
    fclose(f);
    return NULL;
}

/* The golden's pixels as 8-bit RGBA, top row first: stb_image expands a
 * grey golden to R = G = B and gives alpha 255 to a golden without an
 * alpha channel, which is how a viewer shows them.  NULL with a message on failure. */
static stbi_uc *load_golden(const char *path, uint32_t width, uint32_t height, char *msg, size_t msg_size)
{
    FILE *f = open_golden(path, width, height, msg, msg_size);
    if (f == NULL)
        return NULL;
    int x = 0, y = 0, comp = 0;
    stbi_uc *px = stbi_load_from_file(f, &x, &y, &comp, 4);
    fclose(f);
    if (px == NULL)
        snprintf(msg, msg_size, "golden %s: not a readable PNG (stb_image: %s)", path, stb_reason());
    return px;
}

/* The largest difference of one texel's four channels. */
static uint32_t texel_difference(const uint8_t *a, const uint8_t *b)
{
    uint32_t m = 0;
    for (int c = 0; c < 4; c++) {
        uint32_t d = a[c] > b[c] ? (uint32_t)(a[c] - b[c]) : (uint32_t)(b[c] - a[c]);
        m = d > m ? d : m;
    }
    return m;
}

/* Counts differing pixels and the largest channel difference; the verdict
 * rests on the largest difference alone, so one pixel far off fails where
 * many pixels one step off pass a tolerance of 1. */
static void compare_rgba8(const uint8_t *render, const uint8_t *golden, size_t pixels, uint32_t tolerance,
                          tool_compare_result *r)
{
    r->pixels_differing = 0;
    r->max_channel_difference = 0;
    for (size_t i = 0; i < pixels; i++) {
        uint32_t d = texel_difference(render + 4 * i, golden + 4 * i);
        r->pixels_differing += d != 0;
        if (d > r->max_channel_difference)
            r->max_channel_difference = d;
    }
    r->tolerance = tolerance;
    r->passed = r->max_channel_difference <= tolerance;
}

/* One texel of the diff picture: equal pixels as a dimmed grey of the
 * render (Rec. 601 luma in 8.8 fixed point, then 3/8 of it) so the scene
 * stays recognisable, differing ones in a colour by the tolerance. */
static void diff_texel(const uint8_t *render, uint32_t d, uint32_t tolerance, uint8_t *out)
{
    if (d == 0) {
        uint32_t luma = (77u * render[0] + 150u * render[1] + 29u * render[2] + 128u) >> 8;
        out[0] = out[1] = out[2] = (uint8_t)(luma * 3u / 8u);
    } else {
        memcpy(out, d > tolerance ? BEYOND_RGB : WITHIN_RGB, 3);
    }
    out[3] = 255; /* opaque, so the picture reads the same in every viewer */
}

/* Writes the diff picture; 0, or 1 with a message naming the file. */
static int write_diff(const char *path, const uint8_t *render, const uint8_t *golden, uint32_t width,
                      uint32_t height, uint32_t tolerance, char *msg, size_t msg_size)
{
    const size_t pixels = (size_t)width * height;
    uint8_t *px = malloc(pixels ? pixels * 4 : 1);
    if (px == NULL) {
        snprintf(msg, msg_size, "diff %s: out of memory", path);
        return 1;
    }
    for (size_t i = 0; i < pixels; i++)
        diff_texel(render + 4 * i, texel_difference(render + 4 * i, golden + 4 * i), tolerance, px + 4 * i);
    errno = 0;
    int ok = stbi_write_png(path, (int)width, (int)height, 4, px, (int)width * 4);
    free(px);
    if (!ok) {
        snprintf(msg, msg_size, "diff %s: cannot write (%s)", path, errno ? strerror(errno) : "stb_image_write failed");
        remove(path);
        return 1;
    }
    return 0;
}

int tool_compare(const char *golden_path, const uint8_t *render, uint32_t width, uint32_t height,
                 uint32_t tolerance, const char *diff_path, tool_compare_result *out, char *msg,
                 size_t msg_size)
{
    memset(out, 0, sizeof *out);
    stbi_uc *golden = load_golden(golden_path, width, height, msg, msg_size);
    if (golden == NULL)
        return TOOL_EXIT_GOLDEN;
    out->width = width;
    out->height = height;
    compare_rgba8(render, golden, (size_t)width * height, tolerance, out);
    int status = 0;
    if (diff_path != NULL)
        status = write_diff(diff_path, render, golden, width, height, tolerance, msg, msg_size);
    stbi_image_free(golden);
    return status;
}

void tool_compare_print_line(FILE *f, const char *golden_path, const tool_compare_result *r)
{
    fprintf(f, "compare: %ux%u, %llu %s (largest channel difference %u, tolerance %u): %s (golden %s)\n",
            r->width, r->height, (unsigned long long)r->pixels_differing,
            r->pixels_differing == 1 ? "pixel differs" : "pixels differ", r->max_channel_difference,
            r->tolerance, r->passed ? "ok" : "FAIL", golden_path);
}

void tool_compare_print_json(FILE *f, const char *golden_path, const char *diff_path,
                             const tool_compare_result *r)
{
    fputs("{\"golden\":", f);
    tool_json_string(f, golden_path);
    fputs(",\"diff\":", f);
    if (diff_path != NULL)
        tool_json_string(f, diff_path);
    else
        fputs("null", f);
    fprintf(f,
            ",\"width\":%u,\"height\":%u,\"pixels_differing\":%llu,\"max_channel_difference\":%u"
            ",\"tolerance\":%u,\"passed\":%s}",
            r->width, r->height, (unsigned long long)r->pixels_differing, r->max_channel_difference,
            r->tolerance, r->passed ? "true" : "false");
}
