/* Small helpers shared by tilerast-render, tilerast-bench and
 * tilerast-fdm-bench (not part of the library's API). */
#ifndef TILERAST_TOOL_COMMON_H
#define TILERAST_TOOL_COMMON_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <tilerast/tilerast.h>

/* Prints a string as a JSON string literal. */
/* printf into msg (msg_size bytes) and return -1: the tools' error exits. */
static inline int tool_fail(char *msg, size_t msg_size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static inline int tool_fail(char *msg, size_t msg_size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, msg_size, fmt, ap);
    va_end(ap);
    return -1;
}

static inline void tool_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

/* Prints the statistics as a JSON object (tr_pass_stats_to_json). */
static inline void tool_json_stats(FILE *f, const tr_pass_stats *s)
{
    char buf[4096];
    size_t n = tr_pass_stats_to_json(s, buf, sizeof buf);
    if (n < sizeof buf) {
        fputs(buf, f);
        return;
    }
    fputs("null", f); /* cannot happen for a real pass; stay valid JSON */
}

/* The --device names of tr_device: "a630", "a660", "a740" (and "default"
 * for TR_DEVICE_DEFAULT, printed but not parsed). */
static inline const char *tool_device_name(tr_device d)
{
    switch (d) {
    case TR_DEVICE_A630: return "a630";
    case TR_DEVICE_A660: return "a660";
    case TR_DEVICE_A740: return "a740";
    default: return "default";
    }
}

/* Parses a --device value; 0 on success, -1 for a name that is not one. */
static inline int tool_parse_device(const char *s, tr_device *out)
{
    for (int d = TR_DEVICE_A630; d < TR_DEVICE_COUNT; d++)
        if (s != NULL && strcmp(s, tool_device_name((tr_device)d)) == 0) {
            *out = (tr_device)d;
            return 0;
        }
    return -1;
}


/* Replaces *img by a copy of its level 0 (one layer) created with the
 * extra creation flags (tr_image_load takes none); the old image is
 * destroyed either way, *img is NULL on failure. */
static inline tr_result tool_copy_with_flags(tr_context *ctx, tr_image **img, uint32_t flags)
{
    tr_image_desc d = tr_image_get_desc(*img);
    const size_t bytes = (size_t)d.width * d.height * tr_format_texel_size(d.format, TR_ASPECT_COLOR);
    void *texels = malloc(bytes ? bytes : 1);
    tr_image *copy = NULL;
    tr_result r = texels ? tr_image_download(*img, NULL, texels, 0) : TR_ERROR_OUT_OF_MEMORY;
    d.layers = d.levels = 1;
    d.flags |= flags;
    if (r == TR_OK)
        r = tr_image_create(ctx, &d, &copy);
    if (r == TR_OK)
        r = tr_image_upload(copy, NULL, texels, 0);
    free(texels);
    tr_image_destroy(*img);
    if (r != TR_OK) {
        tr_image_destroy(copy);
        copy = NULL;
    }
    *img = copy;
    return r;
}

static inline double tool_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

#endif
