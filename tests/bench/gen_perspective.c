/* Writes a perspective test scene (SCENES.md's file): small triangles in
 * clip space with w from 0.5 to 4, each a flat colour of its own, so that
 * any pixel two renderers cover differently shows in the image.  Depth
 * off: the last triangle to cover a pixel wins in both.
 * Usage: gen_perspective OUT.scn [TRIANGLES [SEED]] */
#include <stdio.h>
#include <stdlib.h>

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

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: gen_perspective OUT.scn [TRIANGLES [SEED]]\n");
        return 2;
    }
    const uint32_t n = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 10) : 5000u;
    uint64_t seed = argc > 3 ? strtoull(argv[3], NULL, 10) : 20261125u;
    tr_scene sc = {.width = 1920, .height = 1080, .flags = TR_SCENE_FLAT, .clear_color = {0, 0, 0, 255},
                   .clear_depth = 1.0f, .triangle_count = n};
    sc.vertices = calloc((size_t)n * 3, sizeof *sc.vertices);
    if (!sc.vertices)
        return 1;
    for (uint32_t i = 0; i < n; i++) {
        /* a centre in NDC, a size of a few pixels, one w per vertex */
        const float cx = uniform(&seed, -0.95f, 0.95f), cy = uniform(&seed, -0.95f, 0.95f);
        const float r = uniform(&seed, 2.0f, 12.0f) / 480.0f;
        for (int k = 0; k < 3; k++) {
            tr_scene_vertex *v = &sc.vertices[3 * i + k];
            const float w = uniform(&seed, 0.5f, 4.0f);
            const float x = cx + uniform(&seed, -r, r), y = cy + uniform(&seed, -r, r);
            v->x = x * w;
            v->y = y * w;
            v->z = uniform(&seed, 0.1f, 0.9f) * w;
            v->w = w;
            /* a unique colour per triangle (i + 1 in 24 bits) */
            v->r = (uint8_t)((i + 1) & 0xff);
            v->g = (uint8_t)(((i + 1) >> 8) & 0xff);
            v->b = (uint8_t)(((i + 1) >> 16) & 0xff);
            v->a = 255;
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
