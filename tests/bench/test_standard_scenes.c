/* The six standard scenes of the bench (bench/bench_scenes.c), scaled down
 * to 240x135 so that the test stays quick: the same bytes from the scalar
 * reference on one thread without LRZ and from the vector kernels on
 * several threads, with LRZ, with other bin sizes, and with one bin drawn
 * in slices by several threads.  (The depth image only
 * carries LRZ here: tr_scene_render_depth does not store depth texels.) */
#include "trtest.h"

#include <string.h>

#include "bench_scenes.h"

enum { W = 240, H = 135 };

typedef struct config {
    uint32_t threads, gmem_bytes, flags;
    tr_simd_level simd;
    const char *what;
} config;

static void render(const tr_scene *scene, const config *c, uint8_t *rgba)
{
    tr_context_desc cd = {0};
    cd.threads = c->threads;
    cd.gmem_bytes = c->gmem_bytes;
    cd.flags = c->flags;
    cd.simd = c->simd;
    tr_context *ctx = trt_context_desc(&cd);
    tr_image *img = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, W, H);
    tr_image *ds = trt_image(ctx, TR_FORMAT_D32_SFLOAT, W, H);
    TRT_OK(tr_scene_render_depth(ctx, scene, img, ds, NULL));
    trt_download(img, 0, 0, TR_ASPECT_DEFAULT, rgba);
    tr_image_destroy(img);
    tr_image_destroy(ds);
    tr_context_destroy(ctx);
}

Test(bench, standard_scenes_identical_across_paths, .timeout = 600)
{
    static const config configs[] = {
        {1, 0, TR_CONTEXT_NO_LRZ, TR_SIMD_SCALAR, "reference: 1 thread, scalar, no LRZ"},
        {2, 0, 0, TR_SIMD_DEFAULT, "2 threads, vector kernels, LRZ"},
        {3, 64 * 1024, 0, TR_SIMD_SSE, "3 threads, SSE cap, LRZ, 64 KiB bins"},
        {2, 16 * 1024, TR_CONTEXT_NO_LRZ, TR_SIMD_DEFAULT, "2 threads, vector kernels, no LRZ, 16 KiB bins"},
        {3, 16u << 20, 0, TR_SIMD_DEFAULT, "3 threads, one bin cut into slices"},
    };
    enum { NC = sizeof configs / sizeof configs[0] };
    uint8_t *rgba[NC];
    for (int c = 0; c < NC; c++) {
        rgba[c] = malloc((size_t)W * H * 4);
        cr_assert_not_null(rgba[c]);
    }
    int rendered = 0;
    for (int id = 0; id < BENCH_SCENE_COUNT; id++) {
        tr_scene scene;
        char msg[256];
        tr_result r = bench_scene_generate((bench_scene_id)id, &scene, msg, sizeof msg);
        if (r == TR_ERROR_IO) {
            cr_log_warn("%s skipped: %s", bench_scene_name((bench_scene_id)id), msg);
            continue;
        }
        cr_assert_eq(r, TR_OK, "%s: %s", bench_scene_name((bench_scene_id)id), msg);
        scene.width = W; /* the same clip-space triangles, fewer pixels */
        scene.height = H;
        for (int c = 0; c < NC; c++)
            render(&scene, &configs[c], rgba[c]);
        /* Not a blank image: the scene drew something other than its clear. */
        size_t differ = 0;
        for (size_t i = 0; i < (size_t)W * H; i++)
            differ += memcmp(rgba[0] + 4 * i, scene.clear_color, 4) != 0;
        cr_expect_gt(differ, (size_t)W * H / 10, "%s: only %zu pixels drawn", bench_scene_name((bench_scene_id)id),
                     differ);
        for (int c = 1; c < NC; c++) {
            cr_expect_eq(memcmp(rgba[0], rgba[c], (size_t)W * H * 4), 0, "%s: colour differs with %s",
                         bench_scene_name((bench_scene_id)id), configs[c].what);
        }
        tr_scene_free(&scene);
        rendered++;
    }
    cr_expect_geq(rendered, BENCH_SCENE_COUNT - 1, "the mesh scene is the only one that may be skipped");
    for (int c = 0; c < NC; c++)
        free(rgba[c]);
}
