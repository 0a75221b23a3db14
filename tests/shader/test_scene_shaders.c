/* Scene files that name their shaders (version 3, "SRSCENE3"; scene.h,
 * README.md "The scene file"): written and read back field for field, drawn
 * through the GLSL twins they name (shaders/scene.vert and scene.frag,
 * copied beside the scene and compiled with shaderc) byte for byte like the
 * built-in C shaders; malformed path sections refused with
 * TR_ERROR_BAD_FILE and the field named, by the parser and the streaming
 * loader alike; scenes without shaders still written as version 1 or 2,
 * byte for byte what they were; and tilerast-render drawing such a file
 * (GLSL, SPIR-V and HLSL) when it is built beside this test.
 *
 * The bench's GLSL reader and shaderc helper are compiled in here, as in
 * test_scene_spirv.c (tests/CMakeLists.txt builds one file per test). */
#define _POSIX_C_SOURCE 200809L

#include "trtest.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../bench/bench_glsl.c"
#include "../../bench/bench_glsl_spirv.c"
#include "shaderc_warm.h" /* one compiler for the process: timing only */

enum { W = 96, H = 64, NTRI = 4 };

/* ---- files ------------------------------------------------------------------- */

static void shaders_dir(char *out, size_t cap)
{
    const char *f = __FILE__;
    const char *slash = strrchr(f, '/');
    cr_assert_not_null(slash, "__FILE__ (%s) is not a path", f);
    int n = snprintf(out, cap, "%.*s/../../shaders", (int)(slash - f), f);
    cr_assert(n > 0 && (size_t)n < cap);
}

static void make_tmpdir(char *dir, size_t cap)
{
    const char *t = getenv("TMPDIR");
    snprintf(dir, cap, "%s/trscnXXXXXX", t && t[0] ? t : "/tmp");
    cr_assert_not_null(mkdtemp(dir), "mkdtemp %s", dir);
}

static uint8_t *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc(n > 0 ? (size_t)n : 1);
    cr_assert(b && fread(b, 1, (size_t)n, f) == (size_t)n);
    fclose(f);
    *size = (size_t)n;
    return b;
}

static void write_file(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f, "cannot create %s", path);
    cr_assert_eq(fwrite(data, 1, size, f), size);
    cr_assert_eq(fclose(f), 0);
}

static void copy_file(const char *from, const char *to)
{
    size_t n;
    uint8_t *b = read_file(from, &n);
    write_file(to, b, n);
    free(b);
}

static void join(char *out, size_t cap, const char *dir, const char *file)
{
    int n = snprintf(out, cap, "%s/%s", dir, file);
    cr_assert(n > 0 && (size_t)n < cap);
}

/* ---- scenes ------------------------------------------------------------------ */

/* NTRI overlapping triangles with depth, distinct colours. */
static tr_scene make_scene(uint32_t flags, tr_scene_vertex *v)
{
    for (uint32_t t = 0; t < NTRI; t++)
        for (uint32_t k = 0; k < 3; k++) {
            tr_scene_vertex *p = &v[3 * t + k];
            const float s = 0.3f + 0.15f * (float)t;
            p->x = (k == 0 ? -s : k == 1 ? s : 0.1f * (float)t) - 0.2f + 0.12f * (float)t;
            p->y = (k == 2 ? s : -s) + 0.05f * (float)t;
            p->z = 0.8f - 0.15f * (float)t + 0.05f * (float)k;
            p->w = 1.0f + 0.25f * (float)k; /* perspective: the varyings are interpolated */
            p->x *= p->w, p->y *= p->w, p->z *= p->w;
            p->r = (uint8_t)(40 + 50 * t + 60 * k);
            p->g = (uint8_t)(200 - 40 * t + 20 * k);
            p->b = (uint8_t)(17 * (t + 1) * (k + 2));
            p->a = 255;
        }
    tr_scene s;
    memset(&s, 0, sizeof s);
    s.width = W;
    s.height = H;
    s.flags = flags;
    s.clear_color[0] = 10, s.clear_color[1] = 20, s.clear_color[2] = 30, s.clear_color[3] = 255;
    s.clear_depth = 1.0f;
    s.triangle_count = NTRI;
    s.vertices = v;
    s.size = 1.0f;
    return s;
}

static tr_shader_module *compile_file(tr_context *ctx, const char *dir, const char *file, int fragment, int flat)
{
    char msg[4096];
    static const char *const flat_defs[] = {"SCENE_FLAT", NULL};
    char *src = bench_glsl_source(dir, file, flat ? flat_defs : NULL, msg, sizeof msg);
    cr_assert_not_null(src, "%s", msg);
    size_t words = 0;
    uint32_t *code = bench_glsl_spirv(src, file, fragment, &words, msg, sizeof msg);
    cr_assert_not_null(code, "%s: %s", file, msg);
    tr_shader_module *m = NULL;
    const tr_shader_module_desc d = {.code = code, .code_size = words * 4};
    tr_result r = tr_shader_module_create(ctx, &d, &m);
    cr_assert_eq(r, TR_OK, "%s: %s (%s)", file, tr_result_string(r), tr_context_last_error(ctx));
    free(code);
    free(src);
    return m;
}

static void render(tr_context *ctx, const tr_scene *scene, const tr_scene_render_options *o, uint8_t *rgba)
{
    tr_image *img = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, scene->width, scene->height);
    tr_result r = tr_scene_render_with(ctx, scene, o, img, NULL, NULL);
    cr_assert_eq(r, TR_OK, "tr_scene_render_with: %s (%s)", tr_result_string(r), tr_context_last_error(ctx));
    trt_download(img, 0, 0, TR_ASPECT_DEFAULT, rgba);
    tr_image_destroy(img);
}

static void expect_same_scene(const tr_scene *a, const tr_scene *b)
{
    cr_expect_eq(a->width, b->width);
    cr_expect_eq(a->height, b->height);
    cr_expect_eq(a->flags, b->flags);
    cr_expect_eq(memcmp(a->clear_color, b->clear_color, 4), 0);
    cr_expect_eq(a->clear_depth, b->clear_depth);
    cr_expect_eq(a->triangle_count, b->triangle_count);
    cr_expect_eq(a->size, b->size);
    cr_expect_str_eq(a->vertex_shader, b->vertex_shader);
    cr_expect_str_eq(a->fragment_shader, b->fragment_shader);
    const size_t n = (size_t)tr_scene_prim_vertices(a->flags) * a->triangle_count;
    cr_expect_eq(memcmp(a->vertices, b->vertices, n * sizeof *a->vertices), 0, "vertices differ");
}

/* Writes a version-3 scene naming the GLSL twins (copied into a fresh
 * folder) and reads it back; renders it through the files it names. */
static void shaders_round_trip(uint32_t flags)
{
    char dir[512], sdir[4096], path[1024], from[4096 + 64], to[1024], sub[600];
    make_tmpdir(dir, sizeof dir);
    shaders_dir(sdir, sizeof sdir);
    join(sub, sizeof sub, dir, "glsl");
    cr_assert_eq(mkdir(sub, 0700), 0);
    join(from, sizeof from, sdir, "scene.vert");
    join(to, sizeof to, sub, "scene.vert");
    copy_file(from, to);
    join(from, sizeof from, sdir, "scene.frag");
    join(to, sizeof to, sub, "scene.frag");
    copy_file(from, to);

    tr_scene_vertex v[3 * NTRI];
    tr_scene scene = make_scene(flags, v);
    strcpy(scene.vertex_shader, "glsl/scene.vert");
    strcpy(scene.fragment_shader, "glsl/scene.frag");
    join(path, sizeof path, dir, "named.scn");
    TRT_OK(tr_scene_save(&scene, path));

    size_t size;
    uint8_t *bytes = read_file(path, &size);
    cr_assert_eq(memcmp(bytes, "SRSCENE3", 8), 0, "a scene with shaders is version 3");
    const size_t paths = 4 + strlen(scene.vertex_shader) + 4 + strlen(scene.fragment_shader);
    cr_assert_eq(size, 40 + paths + 60u * NTRI, "file size %zu", size);

    tr_scene loaded, parsed;
    char msg[256];
    TRT_OK(tr_scene_load(path, &loaded, msg, sizeof msg));
    expect_same_scene(&scene, &loaded);
    TRT_OK(tr_scene_parse(bytes, size, &parsed, msg, sizeof msg));
    expect_same_scene(&scene, &parsed);
    tr_scene_free(&parsed);
    free(bytes);

    /* The paths resolve against the scene file's folder. */
    tr_context *ctx = trt_context(2);
    const int flat = (flags & TR_SCENE_FLAT) != 0;
    char vdir[4096], vfile[256];
    snprintf(to, sizeof to, "%s/%s", dir, loaded.vertex_shader);
    const char *slash = strrchr(to, '/');
    snprintf(vdir, sizeof vdir, "%.*s", (int)(slash - to), to);
    snprintf(vfile, sizeof vfile, "%s", slash + 1);
    tr_shader_module *vs = compile_file(ctx, vdir, vfile, 0, flat);
    snprintf(to, sizeof to, "%s/%s", dir, loaded.fragment_shader);
    slash = strrchr(to, '/');
    snprintf(vdir, sizeof vdir, "%.*s", (int)(slash - to), to);
    snprintf(vfile, sizeof vfile, "%s", slash + 1);
    tr_shader_module *fs = compile_file(ctx, vdir, vfile, 1, flat);

    static uint8_t c_img[W * H * 4], s_img[W * H * 4];
    render(ctx, &loaded, NULL, c_img);
    const tr_scene_render_options o = {.vertex_module = vs, .fragment_module = fs};
    render(ctx, &loaded, &o, s_img);
    size_t drawn = 0;
    for (size_t i = 0; i < (size_t)W * H; i++)
        drawn += memcmp(c_img + 4 * i, loaded.clear_color, 4) != 0;
    cr_expect_gt(drawn, (size_t)W * H / 8, "the scene covers only %zu pixels", drawn);
    cr_expect_eq(memcmp(c_img, s_img, sizeof c_img), 0, "the named shaders draw other bytes than the C shaders");

    tr_shader_module_destroy(vs);
    tr_shader_module_destroy(fs);
    tr_context_destroy(ctx);
    tr_scene_free(&loaded);
    remove(path);
    join(to, sizeof to, sub, "scene.vert");
    remove(to);
    join(to, sizeof to, sub, "scene.frag");
    remove(to);
    rmdir(sub);
    rmdir(dir);
}

Test(shader, scene_file_names_shaders_and_draws_like_the_c_shaders)
{
    shaders_round_trip(TR_SCENE_DEPTH);
}

Test(shader, flat_scene_file_names_shaders_and_draws_like_the_c_shaders)
{
    shaders_round_trip(TR_SCENE_DEPTH | TR_SCENE_FLAT);
}

/* ---- byte layout, versions 1 and 2 unchanged ------------------------------------ */

static void put_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
}

static void put_f32(uint8_t *p, float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    put_u32(p, u);
}

/* The file as version 1 / 2 encode it, independently of scene_io.c. */
static size_t encode_v12(const tr_scene *s, uint8_t *b)
{
    const int v2 = (s->flags & (TR_SCENE_LINES | TR_SCENE_POINTS)) != 0;
    memcpy(b, v2 ? "SRSCENE2" : "SRSCENE1", 8);
    put_u32(b + 8, s->width);
    put_u32(b + 12, s->height);
    put_u32(b + 16, s->flags);
    memcpy(b + 20, s->clear_color, 4);
    put_f32(b + 24, s->clear_depth);
    put_u32(b + 28, s->triangle_count);
    size_t o = 32;
    if (v2) {
        put_f32(b + 32, s->size);
        put_u32(b + 36, 0);
        o = 40;
    }
    const size_t n = (size_t)tr_scene_prim_vertices(s->flags) * s->triangle_count;
    for (size_t i = 0; i < n; i++, o += 20) {
        put_f32(b + o, s->vertices[i].x);
        put_f32(b + o + 4, s->vertices[i].y);
        put_f32(b + o + 8, s->vertices[i].z);
        put_f32(b + o + 12, s->vertices[i].w);
        memcpy(b + o + 16, &s->vertices[i].r, 4);
    }
    return o;
}

Test(shader, scenes_without_shaders_are_written_as_before)
{
    char dir[512], path[1024];
    make_tmpdir(dir, sizeof dir);
    join(path, sizeof path, dir, "plain.scn");
    tr_scene_vertex v[3 * NTRI];
    static const uint32_t flag_sets[] = {0, TR_SCENE_DEPTH | TR_SCENE_FLAT, TR_SCENE_LINES, TR_SCENE_POINTS};
    for (size_t k = 0; k < sizeof flag_sets / sizeof *flag_sets; k++) {
        tr_scene s = make_scene(flag_sets[k] | TR_SCENE_BLEND_ALPHA, v);
        if (flag_sets[k] & TR_SCENE_POINTS)
            s.size = 3.0f;
        TRT_OK(tr_scene_save(&s, path));
        size_t size;
        uint8_t *got = read_file(path, &size);
        uint8_t want[40 + 60 * NTRI];
        const size_t want_size = encode_v12(&s, want);
        cr_expect_eq(memcmp(got, (flag_sets[k] & (TR_SCENE_LINES | TR_SCENE_POINTS)) ? "SRSCENE2" : "SRSCENE1", 8),
                     0, "flags 0x%x: magic %.8s", s.flags, (const char *)got);
        cr_expect_eq(size, want_size, "flags 0x%x: %zu bytes, version 1/2 wrote %zu", s.flags, size, want_size);
        cr_expect(size == want_size && memcmp(got, want, size) == 0, "flags 0x%x: other bytes", s.flags);
        free(got);
    }
    remove(path);
    rmdir(dir);
}

Test(shader, one_shader_named_is_version_3_with_an_empty_path)
{
    char dir[512], path[1024];
    make_tmpdir(dir, sizeof dir);
    join(path, sizeof path, dir, "frag_only.scn");
    tr_scene_vertex v[3 * NTRI];
    tr_scene s = make_scene(TR_SCENE_POINTS, v);
    s.size = 5.0f;
    strcpy(s.fragment_shader, "shaders/\xc3\xa9t\xc3\xa9.frag"); /* UTF-8 is kept as it is */
    TRT_OK(tr_scene_save(&s, path));
    size_t size;
    uint8_t *b = read_file(path, &size);
    cr_assert_eq(memcmp(b, "SRSCENE3", 8), 0);
    const uint32_t vlen = (uint32_t)(b[40] | b[41] << 8 | b[42] << 16 | (uint32_t)b[43] << 24);
    cr_expect_eq(vlen, 0, "empty vertex path (length %u)", vlen);
    const uint32_t flen = (uint32_t)(b[44] | b[45] << 8 | b[46] << 16 | (uint32_t)b[47] << 24);
    cr_expect_eq(flen, strlen(s.fragment_shader));
    cr_expect_eq(memcmp(b + 48, s.fragment_shader, flen), 0);
    cr_expect_eq(size, 48 + flen + 20u * NTRI);
    tr_scene r;
    char msg[256];
    TRT_OK(tr_scene_parse(b, size, &r, msg, sizeof msg));
    expect_same_scene(&s, &r);
    tr_scene_free(&r);
    free(b);
    remove(path);
    rmdir(dir);
}

Test(shader, save_refuses_bad_paths)
{
    char dir[512], path[1024];
    make_tmpdir(dir, sizeof dir);
    join(path, sizeof path, dir, "bad.scn");
    tr_scene_vertex v[3 * NTRI];
    tr_scene s = make_scene(0, v);
    memset(s.vertex_shader, 'a', sizeof s.vertex_shader); /* no NUL */
    TRT_EXPECT(tr_scene_save(&s, path), TR_ERROR_INVALID_ARGUMENT);
    cr_expect(strstr(tr_last_error(), "vertex_shader") != NULL, "message: %s", tr_last_error());
    s.vertex_shader[0] = '\0';
    strcpy(s.fragment_shader, "bad\xff.frag");
    TRT_EXPECT(tr_scene_save(&s, path), TR_ERROR_INVALID_ARGUMENT);
    cr_expect(strstr(tr_last_error(), "fragment_shader") != NULL, "message: %s", tr_last_error());
    cr_expect_neq(access(path, F_OK), 0, "a refused scene leaves no file");
    rmdir(dir);
}

/* ---- malformed version-3 files ------------------------------------------------- */

/* A version-3 file of one triangle with the given path section (`paths`,
 * `paths_size` bytes, put between header and vertices). */
static size_t v3_file(uint8_t *b, const uint8_t *paths, size_t paths_size, int with_vertices)
{
    memset(b, 0, 40);
    memcpy(b, "SRSCENE3", 8);
    put_u32(b + 8, 8);
    put_u32(b + 12, 8);
    put_u32(b + 16, 0);
    b[23] = 255;
    put_f32(b + 24, 1.0f);
    put_u32(b + 28, 1);
    put_f32(b + 32, 1.0f);
    memcpy(b + 40, paths, paths_size);
    size_t o = 40 + paths_size;
    if (with_vertices)
        for (int i = 0; i < 3; i++, o += 20) {
            put_f32(b + o, i == 1 ? 1.0f : -1.0f);
            put_f32(b + o + 4, i == 2 ? 1.0f : -1.0f);
            put_f32(b + o + 8, 0.5f);
            put_f32(b + o + 12, 1.0f);
            memset(b + o + 16, 200, 4);
        }
    return o;
}

/* Feeds the bytes to tr_scene_parse and, through a file, tr_scene_load:
 * both must answer `code` with `field` in the message. */
static void expect_refused(const uint8_t *b, size_t size, tr_result code, const char *field, const char *what)
{
    tr_scene s;
    char msg[256];
    tr_result r = tr_scene_parse(b, size, &s, msg, sizeof msg);
    cr_expect_eq(r, code, "%s: parse: %s, expected %s (%s)", what, tr_result_string(r), tr_result_string(code), msg);
    cr_expect(strstr(msg, field) != NULL, "%s: parse message '%s' does not name %s", what, msg, field);
    cr_expect_eq(s.vertices, NULL);

    char dir[512], path[1024];
    make_tmpdir(dir, sizeof dir);
    join(path, sizeof path, dir, "bad.scn");
    write_file(path, b, size);
    r = tr_scene_load(path, &s, msg, sizeof msg);
    cr_expect_eq(r, code, "%s: load: %s, expected %s (%s)", what, tr_result_string(r), tr_result_string(code), msg);
    cr_expect(strstr(msg, field) != NULL, "%s: load message '%s' does not name %s", what, msg, field);
    remove(path);
    rmdir(dir);
}

Test(shader, v3_parses_a_good_file)
{
    uint8_t paths[64], b[256];
    put_u32(paths, 3);
    memcpy(paths + 4, "a.v", 3);
    put_u32(paths + 7, 0);
    const size_t n = v3_file(b, paths, 11, 1);
    tr_scene s;
    char msg[256];
    TRT_OK(tr_scene_parse(b, n, &s, msg, sizeof msg));
    cr_expect_str_eq(s.vertex_shader, "a.v");
    cr_expect_str_eq(s.fragment_shader, "");
    cr_expect_eq(s.vertices[1].x, 1.0f);
    tr_scene_free(&s);
}

Test(shader, v3_rejects_truncated_paths)
{
    uint8_t paths[64], b[256];
    put_u32(paths, 3);
    memcpy(paths + 4, "a.v", 3);
    put_u32(paths + 7, 5);
    memcpy(paths + 11, "b.frg", 5);
    /* the file ends in the vertex path's length word, in its string, in the
     * fragment path's length and in its string */
    size_t n = v3_file(b, paths, 16, 0);
    expect_refused(b, 40, TR_ERROR_BAD_FILE, "vertex_shader", "no path section");
    expect_refused(b, 42, TR_ERROR_BAD_FILE, "vertex_shader", "half a length word");
    expect_refused(b, 45, TR_ERROR_BAD_FILE, "vertex_shader", "vertex path cut");
    expect_refused(b, 49, TR_ERROR_BAD_FILE, "fragment_shader", "fragment length cut");
    expect_refused(b, 53, TR_ERROR_BAD_FILE, "fragment_shader", "fragment path cut");
    /* paths whole, the vertices missing or one byte too many */
    expect_refused(b, n, TR_ERROR_BAD_FILE, "truncated", "no vertices");
    n = v3_file(b, paths, 16, 1);
    b[n] = 0;
    expect_refused(b, n + 1, TR_ERROR_BAD_FILE, "trailing", "one trailing byte");
    expect_refused(b, n - 1, TR_ERROR_BAD_FILE, "truncated", "one byte short");
    /* a length that would run far past the end (and past 32 bits) */
    put_u32(paths + 7, 0xffffffffu);
    n = v3_file(b, paths, 11, 0);
    expect_refused(b, n, TR_ERROR_BAD_FILE, "fragment_shader", "huge length");
}

Test(shader, v3_rejects_over_long_paths)
{
    static uint8_t paths[600], b[700];
    put_u32(paths, TR_SCENE_MAX_PATH); /* one byte too many: the NUL would not fit */
    memset(paths + 4, 'p', TR_SCENE_MAX_PATH);
    put_u32(paths + 4 + TR_SCENE_MAX_PATH, 0);
    size_t n = v3_file(b, paths, 8 + TR_SCENE_MAX_PATH, 1);
    expect_refused(b, n, TR_ERROR_BAD_FILE, "vertex_shader", "256-byte vertex path");
    /* the longest that fits is accepted */
    put_u32(paths, TR_SCENE_MAX_PATH - 1);
    put_u32(paths + 4 + TR_SCENE_MAX_PATH - 1, 0);
    n = v3_file(b, paths, 8 + TR_SCENE_MAX_PATH - 1, 1);
    tr_scene s;
    char msg[256];
    TRT_OK(tr_scene_parse(b, n, &s, msg, sizeof msg));
    cr_expect_eq(strlen(s.vertex_shader), TR_SCENE_MAX_PATH - 1);
    tr_scene_free(&s);
    /* the fragment path likewise */
    put_u32(paths, 0);
    put_u32(paths + 4, TR_SCENE_MAX_PATH);
    memset(paths + 8, 'q', TR_SCENE_MAX_PATH);
    n = v3_file(b, paths, 8 + TR_SCENE_MAX_PATH, 1);
    expect_refused(b, n, TR_ERROR_BAD_FILE, "fragment_shader", "256-byte fragment path");
}

Test(shader, v3_rejects_nul_and_bad_utf8_in_paths)
{
    uint8_t paths[64], b[256];
    put_u32(paths, 4);
    memcpy(paths + 4, "a\0.v", 4);
    put_u32(paths + 8, 0);
    size_t n = v3_file(b, paths, 12, 1);
    expect_refused(b, n, TR_ERROR_BAD_FILE, "vertex_shader", "NUL inside the vertex path");
    put_u32(paths, 0);
    put_u32(paths + 4, 4);
    memcpy(paths + 8, "f.f\0", 4);
    n = v3_file(b, paths, 12, 1);
    expect_refused(b, n, TR_ERROR_BAD_FILE, "fragment_shader", "NUL ending the fragment path");
    static const char *const bad_utf8[] = {"\xff", "\xc0\xaf", "\xe0\x80\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xc3"};
    for (size_t k = 0; k < sizeof bad_utf8 / sizeof *bad_utf8; k++) {
        const uint32_t len = (uint32_t)strlen(bad_utf8[k]);
        put_u32(paths, len);
        memcpy(paths + 4, bad_utf8[k], len);
        put_u32(paths + 4 + len, 0);
        n = v3_file(b, paths, 8 + len, 1);
        expect_refused(b, n, TR_ERROR_BAD_FILE, "vertex_shader", "bad UTF-8");
    }
}

Test(shader, v3_header_is_checked_like_version_2)
{
    uint8_t paths[8] = {0}, b[256];
    size_t n = v3_file(b, paths, 8, 1);
    tr_scene s;
    char msg[256];
    TRT_OK(tr_scene_parse(b, n, &s, msg, sizeof msg)); /* both paths empty: legal */
    cr_expect_str_eq(s.vertex_shader, "");
    tr_scene_free(&s);
    put_u32(b + 36, 1);
    expect_refused(b, n, TR_ERROR_BAD_FILE, "reserved", "reserved word");
    put_u32(b + 36, 0);
    put_f32(b + 32, 0.5f);
    expect_refused(b, n, TR_ERROR_LIMIT_EXCEEDED, "size", "size below 1");
    expect_refused(b, 36, TR_ERROR_BAD_FILE, "header", "36 bytes");
}

/* ---- tilerast-render --------------------------------------------------------- */

/* build/tools/tilerast-render beside build/tests/<this test>; "" if absent. */
static void render_tool(char *out, size_t cap)
{
    char self[2048];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    out[0] = '\0';
    if (n <= 0)
        return;
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    if (slash == NULL)
        return;
    *slash = '\0';
    snprintf(out, cap, "%s/../tools/tilerast-render", self);
    if (access(out, X_OK) != 0)
        out[0] = '\0';
}

static int run_quiet(const char *cmd)
{
    char full[8192 + 32];
    snprintf(full, sizeof full, "%s >/dev/null 2>&1", cmd);
    return system(full);
}

static const char hlsl_vert[] =
    "struct VSOut { float4 pos : SV_Position; [[vk::location(0)]] float4 color : COLOR0; };\n"
    "VSOut main([[vk::location(0)]] float4 pos : POSITION, [[vk::location(1)]] float4 color : COLOR0)\n"
    "{ VSOut o; o.pos = pos; o.color = color; return o; }\n";
static const char hlsl_frag[] =
    "#ifdef SCENE_FLAT\n#define INTERP nointerpolation\n#else\n#define INTERP\n#endif\n"
    "float4 main([[vk::location(0)]] INTERP float4 color : COLOR0) : SV_Target0 { return color; }\n";

Test(shader, tilerast_render_draws_the_named_shaders)
{
    char tool[4096];
    render_tool(tool, sizeof tool);
    if (!tool[0])
        cr_skip_test("tilerast-render is not built beside this test");
    char dir[512], sdir[4096], from[4200], to[1024], cmd[8192], out[1024], ref[1024];
    make_tmpdir(dir, sizeof dir);
    shaders_dir(sdir, sizeof sdir);
    static const char *const files[] = {"scene.vert", "scene.frag"};
    for (int i = 0; i < 2; i++) {
        join(from, sizeof from, sdir, files[i]);
        join(to, sizeof to, dir, files[i]);
        copy_file(from, to);
    }
    join(to, sizeof to, dir, "hl_vs.hlsl");
    write_file(to, hlsl_vert, sizeof hlsl_vert - 1);
    join(to, sizeof to, dir, "hl_fs.hlsl");
    write_file(to, hlsl_frag, sizeof hlsl_frag - 1);

    for (int flat = 0; flat < 2; flat++) {
        tr_scene_vertex v[3 * NTRI];
        tr_scene s = make_scene(TR_SCENE_DEPTH | (flat ? TR_SCENE_FLAT : 0), v);
        join(to, sizeof to, dir, "plain.scn");
        TRT_OK(tr_scene_save(&s, to));
        strcpy(s.vertex_shader, "scene.vert");
        strcpy(s.fragment_shader, "scene.frag");
        join(to, sizeof to, dir, "glsl.scn");
        TRT_OK(tr_scene_save(&s, to));
        strcpy(s.vertex_shader, "hl_vs.hlsl");
        strcpy(s.fragment_shader, "hl_fs.hlsl");
        join(to, sizeof to, dir, "hlsl.scn");
        TRT_OK(tr_scene_save(&s, to));
        strcpy(s.vertex_shader, "missing.vert");
        join(to, sizeof to, dir, "missing.scn");
        TRT_OK(tr_scene_save(&s, to));

        join(ref, sizeof ref, dir, "ref.rgba");
        snprintf(cmd, sizeof cmd, "%s %s/plain.scn --threads 2 --raw %s", tool, dir, ref);
        cr_assert_eq(run_quiet(cmd), 0, "%s", cmd);
        size_t ref_size;
        uint8_t *want = read_file(ref, &ref_size);
        cr_assert_eq(ref_size, (size_t)W * H * 4);

        /* the scene's GLSL, the scene's HLSL, the command line's GLSL
         * overriding a plain scene's built-in shaders, and SPIR-V */
        char spv[1024];
        join(spv, sizeof spv, dir, "vs.spv");
        {
            char msg[4096];
            static const char *const flat_defs[] = {"SCENE_FLAT", NULL};
            char *src = bench_glsl_source(dir, "scene.vert", flat ? flat_defs : NULL, msg, sizeof msg);
            cr_assert_not_null(src, "%s", msg);
            size_t words = 0;
            uint32_t *code = bench_glsl_spirv(src, "scene.vert", 0, &words, msg, sizeof msg);
            cr_assert_not_null(code, "%s", msg);
            write_file(spv, code, words * 4);
            free(code);
            free(src);
        }
        const char *variants[][2] = {
            {"glsl.scn", ""},
            {"hlsl.scn", ""},
            {"plain.scn", "--vertex-shader %s/scene.vert --fragment-shader %s/scene.frag"},
            {"missing.scn", "--vertex-shader %s/vs.spv --fragment-shader ''"},
        };
        for (size_t k = 0; k < sizeof variants / sizeof *variants; k++) {
            char extra[2048];
            snprintf(extra, sizeof extra, variants[k][1], dir, dir);
            join(out, sizeof out, dir, "out.rgba");
            snprintf(cmd, sizeof cmd, "%s %s/%s --threads 2 --raw %s %s", tool, dir, variants[k][0], out, extra);
            cr_assert_eq(run_quiet(cmd), 0, "%s", cmd);
            size_t got_size;
            uint8_t *got = read_file(out, &got_size);
            cr_expect(got_size == ref_size && memcmp(got, want, ref_size) == 0, "flat %d: %s draws other bytes",
                      flat, cmd);
            free(got);
            remove(out);
        }
        free(want);

        /* a missing file, a .spv of the wrong size: a failure naming the file */
        snprintf(cmd, sizeof cmd, "%s %s/missing.scn --raw %s/x.rgba 2>&1 | grep -q missing.vert", tool, dir, dir);
        cr_expect_eq(system(cmd), 0, "the error names missing.vert");
        snprintf(cmd, sizeof cmd, "%s %s/missing.scn --raw %s/x.rgba >/dev/null 2>&1", tool, dir, dir);
        cr_expect_neq(system(cmd), 0, "a missing shader file fails");
        join(to, sizeof to, dir, "odd.spv");
        write_file(to, "\x03\x02\x23\x07\x01", 5);
        snprintf(cmd, sizeof cmd, "%s %s/plain.scn --raw %s/x.rgba --fragment-shader %s 2>&1 | grep -q 'odd.spv.*multiple of 4'",
                 tool, dir, dir, to);
        cr_expect_eq(system(cmd), 0, "%s", cmd);
        join(to, sizeof to, dir, "broken.frag");
        write_file(to, "#version 450\nvoid main() { nonsense; }\n", 40);
        snprintf(cmd, sizeof cmd, "%s %s/plain.scn --raw %s/x.rgba --fragment-shader %s 2>&1 | grep -q 'broken.frag.*nonsense'",
                 tool, dir, dir, to);
        cr_expect_eq(system(cmd), 0, "%s", cmd);
    }
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_expect_eq(system(cmd), 0);
}
