/* bench: the six standard scenes of bench/SCENES.md (1920x1080).
 *
 * Each scene comes from a fixed seed through our own PCG32 generator and
 * only IEEE-exact float operations (+ - * / sqrt, no libm transcendentals),
 * so every machine generates the same bytes: the .scn files exported on one
 * host are the ones any other host (or llvmpipe) draws. */
#ifndef TILERAST_BENCH_SCENES_H
#define TILERAST_BENCH_SCENES_H

#include <stddef.h>
#include <stdint.h>

#include "tilerast/scene.h"

#define BENCH_SCENE_WIDTH 1920u
#define BENCH_SCENE_HEIGHT 1080u

/* Where the mesh scene finds the Stanford bunny (Debian's glmark2-data);
 * the environment variable TILERAST_BENCH_BUNNY overrides it. */
#define BENCH_BUNNY_PATH "/usr/share/glmark2/models/bunny.obj"
#define BENCH_BUNNY_ENV "TILERAST_BENCH_BUNNY"

typedef enum bench_scene_id {
    BENCH_SCENE_TRI_SMALL = 0,
    BENCH_SCENE_TRI_LARGE,
    BENCH_SCENE_OVERDRAW_BLEND,
    BENCH_SCENE_MESH,
    BENCH_SCENE_DEPTH_B2F,
    BENCH_SCENE_DEPTH_F2B,
    BENCH_SCENE_COUNT
} bench_scene_id;

/* "tri_small", ...; NULL for an id out of range. */
const char *bench_scene_name(bench_scene_id id);

/* The id of a name, or -1. */
int bench_scene_find(const char *name);

/* Generates a standard scene into *out (free with tr_scene_free).  Returns
 * TR_OK; TR_ERROR_IO when the mesh scene's OBJ file is missing (the caller
 * skips the scene: msg says why); TR_ERROR_BAD_FILE for a malformed OBJ;
 * TR_ERROR_OUT_OF_MEMORY. */
tr_result bench_scene_generate(bench_scene_id id, tr_scene *out, char *msg, size_t msg_size);

#endif
