/* Writes a perspective test scene (SCENES.md's file): small triangles in
 * clip space with w from 0.5 to 4, each a flat colour of its own, so that
 * any pixel two renderers cover differently shows in the image.  Depth
 * off: the last triangle to cover a pixel wins in both.
 * KIND picks other primitives (SRSCENE2), each a colour of its own too:
 *   lines          Bresenham lines of width 1 between random points, w 0.5 to 4
 *   lines-centres  lines of width SIZE from pixel centre to pixel centre
 *   hlines-centres the same, horizontal (where tilerast and llvmpipe agree)
 *   points-centres points of size SIZE at pixel centres
 *   points-corners points of size SIZE at pixel corners
 * Usage: gen_perspective OUT.scn [COUNT [SEED [KIND [SIZE]]]] */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tilerast/tilerast.h>

static uint32_t rng_next(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 32);
}

static float uniform(uint64_t *s, float lo, float hi)
{
    return lo + (hi - lo) * (float)(rng_next(s) >> 8) * (1.0f / 16777216.0f);
}

/* A unique colour per primitive (i + 1 in 24 bits). */
static void colour(tr_scene_vertex *v, uint32_t i)
{
    v->r = (uint8_t)((i + 1) & 0xff);
    v->g = (uint8_t)(((i + 1) >> 8) & 0xff);
    v->b = (uint8_t)(((i + 1) >> 16) & 0xff);
    v->a = 255;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: gen_perspective OUT.scn [COUNT [SEED [KIND [SIZE]]]]\n");
        return 2;
    }
    const uint32_t n = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 10) : 5000u;
    uint64_t seed = argc > 3 ? strtoull(argv[3], NULL, 10) : 20261125u;
    const char *kind = argc > 4 ? argv[4] : "triangles";
    const float size = argc > 5 ? (float)atof(argv[5]) : 1.0f;
    const bool horizontal = strncmp(kind, "hlines", 6) == 0;
    const bool lines = strncmp(kind, "lines", 5) == 0 || horizontal, points = strncmp(kind, "points", 6) == 0;
    const bool centres = strstr(kind, "centres") != NULL, corners = strstr(kind, "corners") != NULL;
    if (!lines && !points && strcmp(kind, "triangles") != 0) {
        fprintf(stderr, "gen_perspective: unknown kind %s\n", kind);
        return 2;
    }
    const uint32_t nv = points ? 1 : lines ? 2 : 3;
    /* On pixel centres or corners: a 2048x1024 scene, where each such
     * position's NDC value is a float and the viewport transform exact
     * (llvmpipe's diamond tests read the unsnapped floats) */
    const uint32_t width = centres || corners ? 2048 : 1920, height = centres || corners ? 1024 : 1080;
    tr_scene sc = {.width = width, .height = height, .flags = TR_SCENE_FLAT, .clear_color = {0, 0, 0, 255},
                   .clear_depth = 1.0f, .triangle_count = n, .size = size};
    sc.flags |= lines ? TR_SCENE_LINES : points ? TR_SCENE_POINTS : 0;
    sc.vertices = calloc((size_t)n * nv, sizeof *sc.vertices);
    if (!sc.vertices)
        return 1;
    for (uint32_t i = 0; i < n; i++) {
        /* a centre in NDC, a size of a few pixels (lines: up to 40), one w per vertex */
        const float cx = uniform(&seed, -0.95f, 0.95f), cy = uniform(&seed, -0.95f, 0.95f);
        const float r = uniform(&seed, 2.0f, lines ? 40.0f : 12.0f) / 480.0f;
        for (uint32_t k = 0; k < nv; k++) {
            tr_scene_vertex *v = &sc.vertices[nv * i + k];
            colour(v, i);
            if (centres || corners) {
                /* a pixel centre (or corner) near the centre, w = 1, exactly */
                const float hw = 0.5f * (float)width, hh = 0.5f * (float)height;
                const float px = floorf((cx + uniform(&seed, -r, r) + 1.0f) * hw) + (centres ? 0.5f : 0.0f);
                const float py = floorf((cy + uniform(&seed, -r, r) + 1.0f) * hh) + (centres ? 0.5f : 0.0f);
                v->x = px / hw - 1.0f;
                v->y = horizontal && k ? sc.vertices[nv * i].y : py / hh - 1.0f;
                v->z = 0.5f;
                v->w = 1.0f;
                continue;
            }
            const float w = uniform(&seed, 0.5f, 4.0f);
            const float x = cx + uniform(&seed, -r, r), y = cy + uniform(&seed, -r, r);
            v->x = x * w;
            v->y = y * w;
            v->z = uniform(&seed, 0.1f, 0.9f) * w;
            v->w = w;
        }
    }
    const tr_result res = tr_scene_save(&sc, argv[1]);
    free(sc.vertices);
    if (res != TR_OK) {
        fprintf(stderr, "gen_perspective: cannot write %s\n", argv[1]);
        return 1;
    }
    return 0;
}
