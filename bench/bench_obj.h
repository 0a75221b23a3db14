/* bench: a small, careful Wavefront OBJ reader for the `mesh` scene.
 *
 * Reads `v` and `f` lines only (everything else is skipped), triangulates
 * polygons as fans, resolves negative (relative) indices and refuses bad
 * input with a message naming the line instead of crashing on it. */
#ifndef TILERAST_BENCH_OBJ_H
#define TILERAST_BENCH_OBJ_H

#include <stddef.h>
#include <stdint.h>

#include "tilerast/result.h"

typedef struct bench_obj {
    float *positions;         /* x, y, z per vertex (a `v` line's w is ignored) */
    uint32_t vertex_count;
    uint32_t *indices;        /* 3 per triangle, 0-based, all < vertex_count */
    uint32_t triangle_count;
} bench_obj;

/* Limits that keep sizes far from overflow; larger files are refused. */
#define BENCH_OBJ_MAX_VERTICES (1u << 26)
#define BENCH_OBJ_MAX_TRIANGLES (1u << 26)

/* Parses OBJ text (size bytes, need not be NUL-terminated).  Returns TR_OK,
 * TR_ERROR_BAD_FILE (message names the line), TR_ERROR_LIMIT_EXCEEDED or
 * TR_ERROR_OUT_OF_MEMORY.  On error *out is empty (safe to free). */
tr_result bench_obj_parse(const char *text, size_t size, bench_obj *out, char *msg,
                          size_t msg_size);

/* Reads a file and parses it; TR_ERROR_IO if it cannot be read. */
tr_result bench_obj_load(const char *path, bench_obj *out, char *msg, size_t msg_size);

void bench_obj_free(bench_obj *obj);

#endif
