/* libFuzzer target: the scene reader, then a small render of what it
 * accepted.  Anything tr_scene_parse accepts must render without a crash,
 * a sanitizer report or a hang; scenes larger than 64x64 or 256 triangles
 * are cut down to that before rendering (the parser sees them whole), so
 * that every input stays fast. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <tilerast/tilerast.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tr_scene scene;
    char msg[256];
    if (tr_scene_parse(data, size, &scene, msg, sizeof msg) != TR_OK) {
        if (!memchr(msg, 0, sizeof msg) || !msg[0]) { /* a refusal always names its reason */
            fprintf(stderr, "refused without a message\n");
            __builtin_trap();
        }
        return 0;
    }
    if (scene.width > 64)
        scene.width = 64;
    if (scene.height > 64)
        scene.height = 64;
    const uint32_t all = scene.triangle_count;
    if (scene.triangle_count > 256)
        scene.triangle_count = 256;
    static tr_context *ctx;
    if (!ctx) {
        tr_context_desc d = {0};
        d.threads = 2;
        d.gmem_bytes = 8192; /* many bins */
        if (tr_context_create(&d, &ctx) != TR_OK)
            __builtin_trap();
    }
    tr_image *color = NULL;
    tr_image_desc id = {TR_FORMAT_R8G8B8A8_UNORM, scene.width, scene.height, 1, 1, 0};
    if (tr_image_create(ctx, &id, &color) != TR_OK)
        __builtin_trap();
    tr_pass_stats st;
    const tr_result r = tr_scene_render(ctx, &scene, color, &st);
    if (r != TR_OK) { /* a parsed scene always renders */
        fprintf(stderr, "render: %s: %s\n", tr_result_string(r), tr_context_last_error(ctx));
        __builtin_trap();
    }
    if (st.primitives_in != scene.triangle_count) {
        fprintf(stderr, "primitives_in %llu, triangles %u\n", (unsigned long long)st.primitives_in,
                scene.triangle_count);
        __builtin_trap();
    }
    tr_image_destroy(color);
    scene.triangle_count = all;
    tr_scene_free(&scene);
    return 0;
}
