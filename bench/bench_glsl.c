/* bench: reading the bench's GLSL shaders (bench_glsl.h).  No dependency
 * beyond libc: the llvmpipe runner links it too. */
#include "bench_glsl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *bench_glsl_source(const char *dir, const char *file, const char *const *defines, char *msg,
                        size_t msg_size)
{
    char path[4096];
    int n = snprintf(path, sizeof path, "%s/%s", dir, file);
    if (n < 0 || (size_t)n >= sizeof path) {
        snprintf(msg, msg_size, "%s/%s: path too long", dir, file);
        return NULL;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(msg, msg_size, "%s: %s", path, strerror(errno));
        return NULL;
    }
    char *text = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len + 4096 + 1 > cap) {
            cap = cap ? 2 * cap : 16384;
            char *t = realloc(text, cap);
            if (!t) {
                free(text);
                fclose(f);
                snprintf(msg, msg_size, "%s: out of memory", path);
                return NULL;
            }
            text = t;
        }
        size_t got = fread(text + len, 1, 4096, f);
        len += got;
        if (got < 4096)
            break;
    }
    int err = ferror(f);
    fclose(f);
    if (err || len == 0) {
        free(text);
        snprintf(msg, msg_size, "%s: %s", path, err ? "read error" : "empty file");
        return NULL;
    }
    text[len] = '\0';
    if (defines == NULL || defines[0] == NULL)
        return text;

    /* After the #version line (GLSL wants it first), before anything else. */
    const char *v = strstr(text, "#version");
    if (v == NULL) {
        free(text);
        snprintf(msg, msg_size, "%s: no #version line to put the defines after", path);
        return NULL;
    }
    const char *eol = strchr(v, '\n');
    size_t head = eol ? (size_t)(eol + 1 - text) : len;
    size_t extra = 0;
    for (const char *const *d = defines; *d; d++)
        extra += strlen(*d) + sizeof "#define  1\n";
    char *out = malloc(len + extra + 2);
    if (!out) {
        free(text);
        snprintf(msg, msg_size, "%s: out of memory", path);
        return NULL;
    }
    memcpy(out, text, head);
    size_t o = head;
    if (!eol)
        out[o++] = '\n';
    for (const char *const *d = defines; *d; d++)
        o += (size_t)sprintf(out + o, "#define %s 1\n", *d);
    memcpy(out + o, text + head, len - head + 1);
    free(text);
    return out;
}
