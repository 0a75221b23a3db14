/* The scene shaders' GLSL twins (shaders/scene.vert, shaders/scene.frag,
 * compiled with shaderc) draw the same bytes as src/scene/scene_render.c's
 * C shaders: the six standard scenes of the bench, scaled down to 480x270
 * (the same clip-space triangles, fewer pixels) so that the test stays
 * quick; a point and a line scene (the point size is the modules' push
 * constant); each stage alone as SPIR-V; and a smooth module refused for a
 * flat scene.
 *
 * The bench's scene generator and GLSL reader are compiled in here (this
 * suite links shaderc; tests/CMakeLists.txt builds one file per test). */
#include "trtest.h"

#include <stdlib.h>
#include <string.h>

#include "../../bench/bench_glsl.c"
#include "../../bench/bench_glsl_spirv.c"
#include "../../bench/bench_obj.c"
#include "../../bench/bench_scenes.c"
#include "shaderc_warm.h" /* one compiler for the process: timing only */

enum { W = 480, H = 270 };

typedef struct scene_modules {
    tr_shader_module *vs, *fs;
} scene_modules;

/* shaders/ beside tests/: this file is tests/shader/test_scene_spirv.c. */
static void shaders_dir(char *out, size_t cap)
{
    const char *f = __FILE__;
    const char *slash = strrchr(f, '/');
    cr_assert_not_null(slash, "__FILE__ (%s) is not a path", f);
    int n = snprintf(out, cap, "%.*s/../../shaders", (int)(slash - f), f);
    cr_assert(n > 0 && (size_t)n < cap);
}

static tr_shader_module *compile(tr_context *ctx, const char *file, int flat)
{
    char dir[4096], msg[4096];
    shaders_dir(dir, sizeof dir);
    static const char *const flat_defs[] = {"SCENE_FLAT", NULL};
    char *src = bench_glsl_source(dir, file, flat ? flat_defs : NULL, msg, sizeof msg);
    cr_assert_not_null(src, "%s", msg);
    size_t words = 0;
    uint32_t *code = bench_glsl_spirv(src, file, strstr(file, ".frag") != NULL, &words, msg, sizeof msg);
    cr_assert_not_null(code, "%s: %s", file, msg);
    tr_shader_module *m = NULL;
    const tr_shader_module_desc d = {.code = code, .code_size = words * 4};
    tr_result r = tr_shader_module_create(ctx, &d, &m);
    cr_assert_eq(r, TR_OK, "%s: %s (%s)", file, tr_result_string(r), tr_context_last_error(ctx));
    free(code);
    free(src);
    return m;
}

static scene_modules modules(tr_context *ctx, int flat)
{
    scene_modules m = {compile(ctx, "scene.vert", flat), compile(ctx, "scene.frag", flat)};
    return m;
}

/* The scene into rgba (W x H) with `o` (NULL: the C shaders). */
static void render(tr_context *ctx, const tr_scene *scene, const tr_scene_render_options *o, uint8_t *rgba)
{
    tr_image *img = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, scene->width, scene->height);
    tr_result r = tr_scene_render_with(ctx, scene, o, img, NULL, NULL);
    cr_assert_eq(r, TR_OK, "tr_scene_render_with: %s (%s)", tr_result_string(r), tr_context_last_error(ctx));
    trt_download(img, 0, 0, TR_ASPECT_DEFAULT, rgba);
    tr_image_destroy(img);
}

/* C shaders against both modules (and, when `stages`, each module alone):
 * byte for byte.  Returns how many pixels are not the clear colour. */
static size_t compare_paths(tr_context *ctx, const tr_scene *scene, const char *name, int stages)
{
    const size_t bytes = (size_t)scene->width * scene->height * 4;
    uint8_t *c = malloc(bytes), *s = malloc(bytes);
    cr_assert(c && s);
    const int flat = (scene->flags & TR_SCENE_FLAT) != 0;
    scene_modules m = modules(ctx, flat);
    render(ctx, scene, NULL, c);
    tr_scene_render_options o;
    memset(&o, 0, sizeof o);
    o.vertex_module = m.vs;
    o.fragment_module = m.fs;
    render(ctx, scene, &o, s);
    size_t first = 0;
    while (first < bytes && c[first] == s[first])
        first++;
    cr_expect_eq(first, bytes, "%s: SPIR-V differs from C first at pixel (%zu, %zu): C %u %u %u %u, SPIR-V %u %u %u %u",
                 name, first / 4 % scene->width, first / 4 / scene->width, c[first & ~3u], c[(first & ~3u) + 1],
                 c[(first & ~3u) + 2], c[(first & ~3u) + 3], s[first & ~3u], s[(first & ~3u) + 1],
                 s[(first & ~3u) + 2], s[(first & ~3u) + 3]);
    if (stages) {
        /* one stage SPIR-V, the other C */
        o.fragment_module = NULL;
        render(ctx, scene, &o, s);
        cr_expect_eq(memcmp(c, s, bytes), 0, "%s: the vertex module alone differs from C", name);
        o.vertex_module = NULL;
        o.fragment_module = m.fs;
        render(ctx, scene, &o, s);
        cr_expect_eq(memcmp(c, s, bytes), 0, "%s: the fragment module alone differs from C", name);
    }
    size_t drawn = 0;
    for (size_t i = 0; i < bytes / 4; i++)
        drawn += memcmp(c + 4 * i, scene->clear_color, 4) != 0;
    tr_shader_module_destroy(m.vs);
    tr_shader_module_destroy(m.fs);
    free(c);
    free(s);
    return drawn;
}

Test(shader, scene_glsl_twins_match_c_on_standard_scenes, .timeout = 300)
{
    tr_context *ctx = trt_context(2);
    int rendered = 0;
    for (int id = 0; id < BENCH_SCENE_COUNT; id++) {
        const char *name = bench_scene_name((bench_scene_id)id);
        tr_scene scene;
        char msg[256];
        tr_result r = bench_scene_generate((bench_scene_id)id, &scene, msg, sizeof msg);
        if (r == TR_ERROR_IO) {
            cr_log_warn("%s skipped: %s", name, msg);
            continue;
        }
        cr_assert_eq(r, TR_OK, "%s: %s", name, msg);
        scene.width = W;
        scene.height = H;
        size_t drawn = compare_paths(ctx, &scene, name, id == BENCH_SCENE_OVERDRAW_BLEND || id == BENCH_SCENE_MESH);
        cr_expect_gt(drawn, (size_t)W * H / 10, "%s: only %zu pixels drawn", name, drawn);
        tr_scene_free(&scene);
        rendered++;
    }
    cr_expect_geq(rendered, BENCH_SCENE_COUNT - 1, "the mesh scene is the only one that may be skipped");
    tr_context_destroy(ctx);
}

/* A small scene of `kind` (TR_SCENE_POINTS or TR_SCENE_LINES) primitives
 * of random positions, w in [0.5, 2], colours and size. */
static tr_scene small_scene(uint32_t kind, uint32_t count, float size, uint32_t extra_flags)
{
    tr_scene s;
    memset(&s, 0, sizeof s);
    s.width = 160;
    s.height = 120;
    s.flags = kind | extra_flags;
    s.clear_color[3] = 255;
    s.clear_depth = 1.0f;
    s.triangle_count = count;
    s.size = size;
    const uint32_t nv = tr_scene_prim_vertices(s.flags) * count;
    s.vertices = calloc(nv, sizeof *s.vertices);
    cr_assert_not_null(s.vertices);
    uint64_t st = 12345;
    for (uint32_t i = 0; i < nv; i++) {
        tr_scene_vertex *v = &s.vertices[i];
        st = st * 6364136223846793005ull + 1442695040888963407ull;
        const float w = 0.5f + (float)(st >> 40) / 16777216.0f * 1.5f;
        st = st * 6364136223846793005ull + 1442695040888963407ull;
        v->x = ((float)(st >> 40) / 8388608.0f - 1.0f) * w;
        st = st * 6364136223846793005ull + 1442695040888963407ull;
        v->y = ((float)(st >> 40) / 8388608.0f - 1.0f) * w;
        v->z = 0.5f * w;
        v->w = w;
        st = st * 6364136223846793005ull + 1442695040888963407ull;
        v->r = (uint8_t)(st >> 56);
        v->g = (uint8_t)(st >> 48);
        v->b = (uint8_t)(st >> 40);
        v->a = 255;
    }
    return s;
}

Test(shader, scene_glsl_twins_match_c_on_points_and_lines, .timeout = 120)
{
    tr_context *ctx = trt_context(2);
    static const struct {
        uint32_t kind, flags;
        float size;
        const char *what;
    } cases[] = {
        {TR_SCENE_POINTS, 0, 5.0f, "points of size 5"},
        {TR_SCENE_POINTS, TR_SCENE_FLAT, 2.5f, "points of size 2.5, flat"},
        {TR_SCENE_LINES, 0, 1.0f, "Bresenham lines"},
        {TR_SCENE_LINES, TR_SCENE_FLAT | TR_SCENE_RECT_LINES, 3.0f, "rectangular lines of width 3, flat"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tr_scene s = small_scene(cases[i].kind, 300, cases[i].size, cases[i].flags);
        size_t drawn = compare_paths(ctx, &s, cases[i].what, 1);
        cr_expect_gt(drawn, 100u, "%s: only %zu pixels drawn", cases[i].what, drawn);
        tr_scene_free(&s);
    }
    tr_context_destroy(ctx);
}

Test(shader, scene_smooth_module_refused_for_flat_scene)
{
    tr_context *ctx = trt_context(1);
    tr_scene s = small_scene(TR_SCENE_POINTS, 10, 1.0f, TR_SCENE_FLAT);
    scene_modules m = modules(ctx, 0);
    tr_scene_render_options o;
    memset(&o, 0, sizeof o);
    o.vertex_module = m.vs;
    o.fragment_module = m.fs;
    tr_image *img = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, s.width, s.height);
    TRT_EXPECT(tr_scene_render_with(ctx, &s, &o, img, NULL, NULL), TR_ERROR_INVALID_DESCRIPTOR);
    cr_expect_not_null(strstr(tr_context_last_error(ctx), "flat_mask"), "the message names flat_mask: %s",
                       tr_context_last_error(ctx));
    tr_image_destroy(img);
    tr_shader_module_destroy(m.vs);
    tr_shader_module_destroy(m.fs);
    tr_scene_free(&s);
    tr_context_destroy(ctx);
}
