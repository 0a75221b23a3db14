/* Small helpers shared by tilerast-render and tilerast-bench (not part of
 * the library's API). */
#ifndef TILERAST_TOOL_COMMON_H
#define TILERAST_TOOL_COMMON_H

#include <stdio.h>
#include <time.h>

#include <tilerast/tilerast.h>

/* Prints a string as a JSON string literal. */
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

static inline double tool_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

#endif
