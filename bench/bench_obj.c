/* bench: the OBJ reader (see bench_obj.h).
 *
 * The text is copied once and split into NUL-terminated lines, so the
 * number parsers (strtof, strtoll) can never run past a line: strtod-style
 * functions skip leading newlines and would otherwise read the next line. */
#define _POSIX_C_SOURCE 200809L

#include "bench_obj.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A file larger than this is surely not a mesh we want to read whole. */
#define BENCH_OBJ_MAX_FILE_BYTES ((size_t)1 << 30)

static void obj_message(char *msg, size_t msg_size, const char *fmt, ...)
{
    if (msg == NULL || msg_size == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, msg_size, fmt, ap);
    va_end(ap);
}

static int obj_is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static const char *obj_skip_space(const char *p)
{
    while (obj_is_space(*p))
        p++;
    return p;
}

/* Grows *array (elements of elem bytes) so that it holds at least need
 * elements; capacity doubles.  0 on success. */
static int obj_reserve(void **array, uint32_t *capacity, uint64_t need, size_t elem)
{
    if (need <= *capacity)
        return 0;
    uint64_t cap = *capacity ? *capacity : 1024;
    while (cap < need)
        cap *= 2;
    if (cap > UINT32_MAX || cap > SIZE_MAX / elem)
        return -1;
    void *p = realloc(*array, (size_t)cap * elem);
    if (p == NULL)
        return -1;
    *array = p;
    *capacity = (uint32_t)cap;
    return 0;
}

/* Parses one `v` line's coordinates (p points after the keyword). */
static tr_result obj_parse_vertex(const char *p, float xyz[3], size_t line, char *msg,
                                  size_t msg_size)
{
    for (int i = 0; i < 3; i++) {
        p = obj_skip_space(p);
        if (*p == '\0') {
            obj_message(msg, msg_size, "line %zu: a vertex needs 3 coordinates", line);
            return TR_ERROR_BAD_FILE;
        }
        char *end;
        errno = 0;
        float v = strtof(p, &end);
        if (end == p || (*end != '\0' && !obj_is_space(*end))) {
            obj_message(msg, msg_size, "line %zu: coordinate %d is not a number", line, i + 1);
            return TR_ERROR_BAD_FILE;
        }
        if (!isfinite(v)) {
            obj_message(msg, msg_size, "line %zu: coordinate %d is not finite", line, i + 1);
            return TR_ERROR_BAD_FILE;
        }
        xyz[i] = v;
        p = end;
    }
    /* An optional w or per-vertex colour may follow; it is not used. */
    return TR_OK;
}

/* Parses one index of an `f` token ("7", "7/1", "7//3", "-2/1/1") into a
 * 0-based vertex number; p is advanced past the token. */
static tr_result obj_parse_index(const char **pp, uint32_t vertex_count, uint32_t *out,
                                 size_t line, char *msg, size_t msg_size)
{
    const char *p = *pp;
    char *end;
    errno = 0;
    long long n = strtoll(p, &end, 10);
    if (end == p || (*end != '\0' && *end != '/' && !obj_is_space(*end))) {
        obj_message(msg, msg_size, "line %zu: bad face index", line);
        return TR_ERROR_BAD_FILE;
    }
    if (errno == ERANGE || n == 0) {
        obj_message(msg, msg_size, "line %zu: face index %s", line,
                    n == 0 && errno != ERANGE ? "0 (OBJ counts from 1)" : "out of range");
        return TR_ERROR_BAD_FILE;
    }
    /* Positive: 1-based; negative: relative to the vertices read so far.
     * Either way it must name a vertex already defined. */
    long long idx = n > 0 ? n - 1 : (long long)vertex_count + n;
    if (idx < 0 || idx >= (long long)vertex_count) {
        obj_message(msg, msg_size, "line %zu: face index %lld names no vertex (%u defined)",
                    line, n, vertex_count);
        return TR_ERROR_BAD_FILE;
    }
    *out = (uint32_t)idx;
    /* Skip the texture and normal parts of the token. */
    p = end;
    while (*p != '\0' && !obj_is_space(*p))
        p++;
    *pp = p;
    return TR_OK;
}

typedef struct obj_builder {
    bench_obj obj;
    uint32_t position_capacity; /* in vertices */
    uint32_t index_capacity;    /* in triangles */
} obj_builder;

static tr_result obj_add_triangle(obj_builder *b, uint32_t i0, uint32_t i1, uint32_t i2,
                                  size_t line, char *msg, size_t msg_size)
{
    bench_obj *o = &b->obj;
    if (o->triangle_count >= BENCH_OBJ_MAX_TRIANGLES) {
        obj_message(msg, msg_size, "line %zu: more than %u triangles", line,
                    BENCH_OBJ_MAX_TRIANGLES);
        return TR_ERROR_LIMIT_EXCEEDED;
    }
    void *arr = o->indices;
    if (obj_reserve(&arr, &b->index_capacity, (uint64_t)o->triangle_count + 1,
                    3 * sizeof(uint32_t)) != 0) {
        obj_message(msg, msg_size, "line %zu: out of memory", line);
        return TR_ERROR_OUT_OF_MEMORY;
    }
    o->indices = arr;
    uint32_t *t = o->indices + 3u * (size_t)o->triangle_count;
    t[0] = i0;
    t[1] = i1;
    t[2] = i2;
    o->triangle_count++;
    return TR_OK;
}

static tr_result obj_parse_face(obj_builder *b, const char *p, size_t line, char *msg,
                                size_t msg_size)
{
    uint32_t first = 0, prev = 0, n = 0;
    for (;;) {
        p = obj_skip_space(p);
        if (*p == '\0')
            break;
        uint32_t idx;
        tr_result r = obj_parse_index(&p, b->obj.vertex_count, &idx, line, msg, msg_size);
        if (r != TR_OK)
            return r;
        /* A fan (first, prev, idx): right for the convex polygons OBJ
         * exporters write, and it keeps the polygon's winding. */
        if (n == 0)
            first = idx;
        else if (n >= 2) {
            r = obj_add_triangle(b, first, prev, idx, line, msg, msg_size);
            if (r != TR_OK)
                return r;
        }
        prev = idx;
        n++;
    }
    if (n < 3) {
        obj_message(msg, msg_size, "line %zu: a face needs at least 3 vertices, has %u", line, n);
        return TR_ERROR_BAD_FILE;
    }
    return TR_OK;
}

tr_result bench_obj_parse(const char *text, size_t size, bench_obj *out, char *msg,
                          size_t msg_size)
{
    obj_message(msg, msg_size, "%s", "");
    if (out == NULL || (text == NULL && size != 0))
        return TR_ERROR_INVALID_ARGUMENT;
    memset(out, 0, sizeof *out);
    if (size > BENCH_OBJ_MAX_FILE_BYTES) {
        obj_message(msg, msg_size, "file larger than %zu bytes", BENCH_OBJ_MAX_FILE_BYTES);
        return TR_ERROR_LIMIT_EXCEEDED;
    }

    char *buf = malloc(size + 1);
    if (buf == NULL) {
        obj_message(msg, msg_size, "out of memory");
        return TR_ERROR_OUT_OF_MEMORY;
    }
    if (size > 0)
        memcpy(buf, text, size);
    buf[size] = '\0';

    obj_builder b;
    memset(&b, 0, sizeof b);
    tr_result r = TR_OK;
    size_t line = 0;
    for (size_t pos = 0; pos < size && r == TR_OK;) {
        size_t start = pos;
        while (pos < size && buf[pos] != '\n')
            pos++;
        buf[pos] = '\0'; /* pos == size writes the terminator that is already there */
        pos++;
        line++;
        char *hash = strchr(buf + start, '#');
        if (hash != NULL)
            *hash = '\0';

        const char *p = obj_skip_space(buf + start);
        const char *kw = p;
        while (*p != '\0' && !obj_is_space(*p))
            p++;
        size_t kwlen = (size_t)(p - kw);
        if (kwlen == 1 && kw[0] == 'v') {
            if (b.obj.vertex_count >= BENCH_OBJ_MAX_VERTICES) {
                obj_message(msg, msg_size, "line %zu: more than %u vertices", line,
                            BENCH_OBJ_MAX_VERTICES);
                r = TR_ERROR_LIMIT_EXCEEDED;
                break;
            }
            float xyz[3];
            r = obj_parse_vertex(p, xyz, line, msg, msg_size);
            if (r != TR_OK)
                break;
            void *arr = b.obj.positions;
            if (obj_reserve(&arr, &b.position_capacity, (uint64_t)b.obj.vertex_count + 1,
                            3 * sizeof(float)) != 0) {
                obj_message(msg, msg_size, "line %zu: out of memory", line);
                r = TR_ERROR_OUT_OF_MEMORY;
                break;
            }
            b.obj.positions = arr;
            memcpy(b.obj.positions + 3u * (size_t)b.obj.vertex_count, xyz, sizeof xyz);
            b.obj.vertex_count++;
        } else if (kwlen == 1 && kw[0] == 'f') {
            r = obj_parse_face(&b, p, line, msg, msg_size);
        }
        /* vn, vt, o, g, s, usemtl, mtllib, l, p, blank lines: not needed */
    }
    free(buf);
    if (r == TR_OK && b.obj.triangle_count == 0) {
        obj_message(msg, msg_size, "no faces");
        r = TR_ERROR_BAD_FILE;
    }
    if (r != TR_OK) {
        bench_obj_free(&b.obj);
        return r;
    }
    *out = b.obj;
    return TR_OK;
}

tr_result bench_obj_load(const char *path, bench_obj *out, char *msg, size_t msg_size)
{
    obj_message(msg, msg_size, "%s", "");
    if (out == NULL || path == NULL)
        return TR_ERROR_INVALID_ARGUMENT;
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        obj_message(msg, msg_size, "cannot open: %s", strerror(errno));
        return TR_ERROR_IO;
    }
    char *text = NULL;
    size_t size = 0, cap = 0;
    tr_result r = TR_OK;
    for (;;) {
        if (size == cap) {
            if (cap >= BENCH_OBJ_MAX_FILE_BYTES) {
                obj_message(msg, msg_size, "file larger than %zu bytes",
                            BENCH_OBJ_MAX_FILE_BYTES);
                r = TR_ERROR_LIMIT_EXCEEDED;
                break;
            }
            size_t ncap = cap ? cap * 2 : (size_t)1 << 20;
            char *p = realloc(text, ncap);
            if (p == NULL) {
                obj_message(msg, msg_size, "out of memory");
                r = TR_ERROR_OUT_OF_MEMORY;
                break;
            }
            text = p;
            cap = ncap;
        }
        size_t k = fread(text + size, 1, cap - size, f);
        size += k;
        if (k == 0) {
            if (ferror(f)) {
                obj_message(msg, msg_size, "read error: %s", strerror(errno));
                r = TR_ERROR_IO;
            }
            break;
        }
    }
    fclose(f);
    if (r == TR_OK)
        r = bench_obj_parse(text, size, out, msg, msg_size);
    free(text);
    return r;
}

void bench_obj_free(bench_obj *obj)
{
    if (obj == NULL)
        return;
    free(obj->positions);
    free(obj->indices);
    memset(obj, 0, sizeof *obj);
}
