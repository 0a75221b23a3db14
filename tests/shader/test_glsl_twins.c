/* GLSL twins of the C shaders (issue 30): every C shader of the examples and
 * bench/texture_bench.c has a GLSL 4.50 twin under shaders/; each test
 * draws the same geometry, fixed-function state, uniforms and textures once
 * with the C pipeline and once with the SPIR-V one (shaderc, unoptimised),
 * into R32G32B32A32_SFLOAT (every bit of the result compared), and asserts
 * the two images are byte-identical -- or, where the arithmetic differs
 * (libm's powf against tilerast's pow), the exact number of differing
 * pixels and the largest channel difference measured.
 *
 * The C shaders are copied here from their files, bodies unchanged (the
 * examples are programs with a main(), not libraries); each says where it
 * comes from.  Shaders whose C side reads a pointer from the uniforms keep
 * doing so here; their twins read the same bytes as vertex attributes.
 * Sampler-feedback shaders (texture_streaming's fragment_shader, the
 * bench's fs_texture_feedback) have no twin: SPIR-V has no instruction for
 * it.  The GLSL files are read from the source tree, found from __FILE__. */
#include "spv_harness.h"

#include <stdio.h>

/* The shader-heavy bench scene and its C twin (self-contained). */
#include "../../bench/bench_glsl_spirv.c"
#include "../../bench/bench_heavy.c"

enum { W = 128, H = 128 };

#define PI 3.14159265358979f

/* ---- files ----------------------------------------------------------------------------------- */

/* The repository root: this file is <root>/tests/shader/test_glsl_twins.c. */
static void repo_path(char *out, size_t n, const char *rel)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", __FILE__);
    for (int up = 0; up < 3; up++) {
        char *slash = strrchr(dir, '/');
        if (slash)
            *slash = 0;
        else
            snprintf(dir, sizeof dir, "%s", up == 2 ? "." : "..");
    }
    snprintf(out, n, "%s/%s", dir, rel);
}

static char *read_text(const char *rel)
{
    char path[1200];
    repo_path(path, sizeof path, rel);
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    const long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    cr_assert_eq(fread(s, 1, (size_t)n, f), (size_t)n);
    s[n] = 0;
    fclose(f);
    return s;
}

/* A module from a GLSL file under the repository (or, when `rel` starts
 * with "#version", from that source text). */
static tr_shader_module *glsl(tr_context *ctx, const char *rel, shaderc_shader_kind kind)
{
    if (!strncmp(rel, "#version", 8))
        return spvh_module(ctx, rel, kind);
    char *src = read_text(rel);
    tr_shader_module *m = spvh_module(ctx, src, kind);
    free(src);
    return m;
}

/* ---- pipelines ------------------------------------------------------------------------------- */

/* The pair's two pipelines from one desc: [0] with the C shaders and the
 * C-only fields as given, [1] with the GLSL files (NULL: that stage stays
 * the C one) and the fields a module derives left zero. */
typedef struct twin_pipes {
    tr_pipeline *p[2];
} twin_pipes;

static twin_pipes pipes(tr_context *ctx, const tr_pipeline_desc *base, const char *vs_glsl, const char *fs_glsl)
{
    twin_pipes t;
    tr_pipeline_desc d = *base;
    tr_result r = tr_pipeline_create(ctx, &d, &t.p[0]);
    cr_assert_eq(r, TR_OK, "C pipeline: %s", tr_context_last_error(ctx));
    tr_shader_module *vm = NULL, *fm = NULL;
    if (vs_glsl) {
        vm = glsl(ctx, vs_glsl, shaderc_vertex_shader);
        d.vertex_shader = NULL;
        d.vertex_module = vm;
    }
    if (fs_glsl) {
        fm = glsl(ctx, fs_glsl, shaderc_fragment_shader);
        d.fragment_shader = NULL;
        d.fragment_module = fm;
        d.varying_count = d.flat_mask = d.noperspective_mask = d.fs_flags = d.texture_mask = 0;
    }
    r = tr_pipeline_create(ctx, &d, &t.p[1]);
    cr_assert_eq(r, TR_OK, "SPIR-V pipeline (%s, %s): %s", vs_glsl ? vs_glsl : "C", fs_glsl ? fs_glsl : "C",
                 tr_context_last_error(ctx));
    tr_shader_module_destroy(vm);
    tr_shader_module_destroy(fm);
    return t;
}

/* ---- rendering and comparing ---------------------------------------------------------------- */

typedef void (*record_fn)(tr_context *ctx, int spirv, void *user);

typedef struct target {
    uint32_t w, h;      /* 0: W x H */
    uint32_t views;     /* 0: 1 (no multiview); else view_mask (1 << views) - 1 */
    int depth;          /* a D32 attachment cleared to 1 */
    float clear[4];
} target;

/* Renders one pass (the attachment cleared, `rec` recording its draws);
 * returns every layer's RGBA32F pixels (free()). */
static float *render(tr_context *ctx, const target *t, record_fn rec, void *user, int spirv)
{
    const uint32_t w = t->w ? t->w : W, h = t->h ? t->h : H, layers = t->views ? t->views : 1;
    tr_image *color = NULL, *depth = NULL;
    TRT_OK(tr_image_create(ctx, &(tr_image_desc){TR_FORMAT_R32G32B32A32_SFLOAT, w, h, layers, 1, 0, 0}, &color));
    tr_render_pass_desc rp = {.color_count = 1};
    rp.color[0] = (tr_color_attachment){.image = color, .load_op = TR_LOAD_OP_CLEAR};
    memcpy(rp.color[0].clear_color, t->clear, sizeof t->clear);
    if (t->depth) {
        TRT_OK(tr_image_create(ctx, &(tr_image_desc){TR_FORMAT_D32_SFLOAT, w, h, layers, 1, 0, 0}, &depth));
        rp.depth = (tr_depth_attachment){.image = depth, .depth_load_op = TR_LOAD_OP_CLEAR, .clear_depth = 1.0f,
                                         .depth_store_op = TR_STORE_OP_DONT_CARE};
    }
    if (t->views)
        rp.view_mask = (1u << t->views) - 1u;
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
    rec(ctx, spirv, user);
    const tr_result r = tr_cmd_end_render_pass(ctx, NULL);
    cr_assert_eq(r, TR_OK, "%s pass: %s", spirv ? "SPIR-V" : "C", tr_context_last_error(ctx));
    float *px = malloc((size_t)w * h * layers * 16);
    for (uint32_t l = 0; l < layers; l++) {
        tr_subresource sub = {0, l, TR_ASPECT_COLOR, 0};
        TRT_OK(tr_image_download(color, &sub, px + (size_t)l * w * h * 4, 16 * w));
    }
    tr_image_destroy(color);
    if (depth)
        tr_image_destroy(depth);
    return px;
}

/* Fails the test on a recorded draw call's error. */
#define REC(call)                                                                                              \
    do {                                                                                                       \
        const tr_result rec_r_ = (call);                                                                       \
        cr_assert_eq(rec_r_, TR_OK, "%s: %s", #call, tr_context_last_error(ctx));                            \
    } while (0)

typedef struct diff {
    uint32_t pixels;    /* pixels with any channel's bits different */
    float max;          /* the largest |c - g| of a channel */
    uint32_t drawn;     /* pixels the C image changed from the clear colour */
} diff;

/* Draws both; counts the pixels whose bits differ. */
static diff twin_diff(tr_context *ctx, const target *t, record_fn rec, void *user)
{
    const uint32_t n = (t->w ? t->w : W) * (t->h ? t->h : H) * (t->views ? t->views : 1);
    float *c = render(ctx, t, rec, user, 0);
    float *g = render(ctx, t, rec, user, 1);
    diff d = {0, 0.0f, 0};
    for (uint32_t i = 0; i < n; i++) {
        int differs = memcmp(c + 4 * i, g + 4 * i, 16) != 0, drawn = 0;
        for (int k = 0; k < 4; k++) {
            const float e = fabsf(c[4 * i + k] - g[4 * i + k]);
            if (e > d.max)
                d.max = e;
            drawn |= c[4 * i + k] != t->clear[k];
        }
        d.pixels += (uint32_t)differs;
        d.drawn += (uint32_t)drawn;
    }
    free(c);
    free(g);
    return d;
}

/* Asserts byte identity, and that the draw covered a fair part of the target. */
static void expect_identical(tr_context *ctx, const target *t, record_fn rec, void *user, uint32_t min_drawn,
                             const char *what)
{
    const diff d = twin_diff(ctx, t, rec, user);
    cr_expect_eq(d.pixels, 0u, "%s: %u pixels differ (largest channel difference %g)", what, d.pixels,
                 (double)d.max);
    cr_expect_geq(d.drawn, min_drawn, "%s: only %u pixels drawn", what, d.drawn);
}

/* ---- a little matrix maths (column-major, m[col * 4 + row]; the examples' own) ---------------- */

typedef struct mat4 { float m[16]; } mat4;

static mat4 mat4_mul(mat4 a, mat4 b)
{
    mat4 r;
    for (int c = 0; c < 4; c++)
        for (int row = 0; row < 4; row++) {
            float s = 0.0f;
            for (int k = 0; k < 4; k++)
                s += a.m[k * 4 + row] * b.m[c * 4 + k];
            r.m[c * 4 + row] = s;
        }
    return r;
}

static mat4 mat4_rotate(float angle, float x, float y, float z)
{
    float c = cosf(angle), s = sinf(angle), t = 1.0f - c;
    return (mat4){{t * x * x + c, t * x * y + s * z, t * x * z - s * y, 0.0f, t * x * y - s * z, t * y * y + c,
                   t * y * z + s * x, 0.0f, t * x * z + s * y, t * y * z - s * x, t * z * z + c, 0.0f, 0.0f, 0.0f,
                   0.0f, 1.0f}};
}

static mat4 mat4_translate(float x, float y, float z)
{
    return (mat4){{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1}};
}

/* Eye at height eye_y above the origin, looking down -z, pitched down (mip_levels, texture_filtering). */
static mat4 mat4_camera(float eye_y, float pitch)
{
    float c = cosf(pitch), s = sinf(pitch);
    return (mat4){{1.0f, 0.0f, 0.0f, 0.0f, 0.0f, c, s, 0.0f, 0.0f, -s, c, 0.0f, 0.0f, -c * eye_y, -s * eye_y, 1.0f}};
}

static mat4 mat4_perspective(float fovy, float aspect, float znear, float zfar)
{
    float f = 1.0f / tanf(fovy * 0.5f);
    return (mat4){{f / aspect, 0.0f, 0.0f, 0.0f, 0.0f, -f, 0.0f, 0.0f, 0.0f, 0.0f, zfar / (znear - zfar), -1.0f, 0.0f,
                   0.0f, znear * zfar / (znear - zfar), 0.0f}};
}

/* A camera at `eye` looking at the origin: view-projection for a square target. */
static mat4 look_from(float ex, float ey, float ez)
{
    const float eye[3] = {ex, ey, ez};
    float f[3] = {-eye[0], -eye[1], -eye[2]};
    float fl = sqrtf(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
    for (int i = 0; i < 3; i++) f[i] /= fl;
    float s[3] = {-f[2], 0.0f, f[0]};
    float sl = sqrtf(s[0] * s[0] + s[2] * s[2]);
    s[0] /= sl, s[2] /= sl;
    float u[3] = {s[1] * f[2] - s[2] * f[1], s[2] * f[0] - s[0] * f[2], s[0] * f[1] - s[1] * f[0]};
    mat4 view = {{s[0], u[0], -f[0], 0.0f, s[1], u[1], -f[1], 0.0f, s[2], u[2], -f[2], 0.0f,
                  -(s[0] * eye[0] + s[1] * eye[1] + s[2] * eye[2]), -(u[0] * eye[0] + u[1] * eye[1] + u[2] * eye[2]),
                  f[0] * eye[0] + f[1] * eye[1] + f[2] * eye[2], 1.0f}};
    return mat4_mul(mat4_perspective(45.0f * PI / 180.0f, 1.0f, 0.1f, 40.0f), view);
}

/* ---- meshes and textures --------------------------------------------------------------------- */

typedef struct vertex {
    float pos[3];
    float normal[3];
    float uv[2];
} vertex;

typedef struct mesh {
    vertex *verts;
    uint32_t *indices;
    uint32_t vertex_count, index_count;
} mesh;

/* A torus around the y axis (the examples' make_torus), uv over the grid. */
static mesh torus(float ring, float tube, int rs, int ts)
{
    mesh m = {calloc((size_t)(rs + 1) * (ts + 1), sizeof(vertex)), calloc((size_t)rs * ts * 6, 4),
              (uint32_t)((rs + 1) * (ts + 1)), (uint32_t)(rs * ts * 6)};
    for (int i = 0; i <= rs; i++) {
        float u = 2.0f * PI * (float)i / (float)rs;
        for (int j = 0; j <= ts; j++) {
            float v = 2.0f * PI * (float)j / (float)ts;
            vertex *vx = &m.verts[i * (ts + 1) + j];
            float n[3] = {cosf(v) * cosf(u), sinf(v), cosf(v) * sinf(u)};
            memcpy(vx->normal, n, sizeof n);
            vx->pos[0] = ring * cosf(u) + tube * n[0];
            vx->pos[1] = tube * n[1];
            vx->pos[2] = ring * sinf(u) + tube * n[2];
            vx->uv[0] = (float)i / (float)rs * 4.0f;
            vx->uv[1] = (float)j / (float)ts;
        }
    }
    uint32_t k = 0;
    for (int i = 0; i < rs; i++)
        for (int j = 0; j < ts; j++) {
            uint32_t a = (uint32_t)(i * (ts + 1) + j), b = (uint32_t)((i + 1) * (ts + 1) + j), c = b + 1, d = a + 1;
            m.indices[k++] = a, m.indices[k++] = d, m.indices[k++] = b;
            m.indices[k++] = b, m.indices[k++] = d, m.indices[k++] = c;
        }
    return m;
}

/* A quad in y = y0 of half size `half`, normal +y, uv 0..1, wound counter-clockwise seen from above. */
static mesh floor_quad(float y0, float half)
{
    mesh m = {calloc(4, sizeof(vertex)), calloc(6, 4), 4, 6};
    const float c[4][2] = {{-1, -1}, {-1, 1}, {1, 1}, {1, -1}};
    for (int i = 0; i < 4; i++)
        m.verts[i] = (vertex){{c[i][0] * half, y0, c[i][1] * half}, {0, 1, 0}, {(c[i][0] + 1) / 2, (c[i][1] + 1) / 2}};
    const uint32_t idx[6] = {0, 1, 2, 0, 2, 3};
    memcpy(m.indices, idx, sizeof idx);
    return m;
}

static void mesh_free(mesh *m)
{
    free(m->verts);
    free(m->indices);
}

/* The vertex layout of `vertex` at binding 0: locations 0 pos, 1 normal, 2 uv. */
static void vertex_layout(tr_pipeline_desc *d)
{
    d->bindings[0] = (tr_vertex_binding){.stride = sizeof(vertex)};
    d->attributes[0] = (tr_vertex_attribute){TR_VERTEX_FORMAT_R32G32B32_SFLOAT, 0, 0};
    d->attributes[1] = (tr_vertex_attribute){TR_VERTEX_FORMAT_R32G32B32_SFLOAT, 0, 12};
    d->attributes[2] = (tr_vertex_attribute){TR_VERTEX_FORMAT_R32G32_SFLOAT, 0, 24};
}

/* An RGBA8 texture, every level random bytes (alpha opaque) or an 8x8 checker of 1.0 / 0.75. */
static tr_image *texture(tr_context *ctx, tr_format f, uint32_t size, uint64_t seed, int checker)
{
    tr_image *img = NULL;
    TRT_OK(tr_image_create(ctx, &(tr_image_desc){f, size, size, 1, TR_LEVELS_ALL, 0, 0}, &img));
    trt_rng rng = {seed};
    const uint32_t levels = tr_image_get_desc(img).levels;
    for (uint32_t l = 0; l < levels; l++) {
        const uint32_t s = tr_image_level_width(img, l);
        uint8_t *b = malloc((size_t)s * s * 4);
        for (uint32_t y = 0; y < s; y++)
            for (uint32_t x = 0; x < s; x++)
                for (int c = 0; c < 4; c++) {
                    uint8_t v = (uint8_t)trt_rand_u32(&rng);
                    if (checker)
                        v = s >= 8 ? (((x * 8 / s) + (y * 8 / s)) & 1 ? 255 : 191) : 223;
                    b[((size_t)y * s + x) * 4 + c] = c == 3 ? 255 : v;
                }
        TRT_OK(tr_image_upload(img, &(tr_subresource){l, 0, TR_ASPECT_COLOR, 0}, b, 0));
        free(b);
    }
    return img;
}

static tr_sampler *trilinear(tr_context *ctx, float aniso)
{
    tr_sampler *s = NULL;
    TRT_OK(tr_sampler_create(ctx, &(tr_sampler_desc){.mag_filter = TR_FILTER_LINEAR, .min_filter = TR_FILTER_LINEAR,
                                                     .mipmap_mode = TR_MIPMAP_LINEAR, .max_anisotropy = aniso},
                             &s));
    return s;
}

static tr_context *ctx;

static void setup(void)
{
    ctx = spvh_context(2, 0);
}

static void teardown(void)
{
    tr_context_destroy(ctx);
}

TestSuite(glsl_twins, .init = setup, .fini = teardown, .timeout = 120);

/* ==== examples/hello_triangle.c ============================================================== */

static const float ht_positions[3][4] = {{0.0f, -0.8f, 0.5f, 1.0f}, {-0.8f, 0.8f, 0.5f, 1.0f}, {0.8f, 0.8f, 0.5f, 1.0f}};
static const float ht_colors[3][4] = {{1.0f, 0.0f, 0.0f, 1.0f}, {0.0f, 1.0f, 0.0f, 1.0f}, {0.0f, 0.0f, 1.0f, 1.0f}};

/* examples/hello_triangle.c: vertex_shader */
static void ht_vs(tr_vs_batch *b)
{
    for (uint32_t i = 0; i < b->count; i++) {
        uint32_t v = b->vertex_index[i];
        for (int c = 0; c < 4; c++) {
            b->position[c][i] = ht_positions[v][c];
            b->varyings[0][c][i] = ht_colors[v][c];
        }
    }
}

/* examples/hello_triangle.c: fragment_shader (also instancing.c's, subsampled.c's color_shader and
 * wireframe.c's fs_colour: the same body) */
static void copy_fs(tr_fs_block *b)
{
    for (int c = 0; c < 4; c++)
        for (uint32_t i = 0; i < b->count; i++)
            b->color[0][c][i] = b->varyings[0][c][i];
}

static void rec_one_pipe(tr_context *c, int spirv, void *user)
{
    twin_pipes *p = user;
    REC(tr_cmd_bind_pipeline(c, p->p[spirv]));
    REC(tr_cmd_draw(c, 3, 1, 0, 0));
}

Test(glsl_twins, hello_triangle)
{
    twin_pipes p = pipes(ctx, &(tr_pipeline_desc){.vertex_shader = ht_vs, .fragment_shader = copy_fs, .varying_count = 1},
                         "shaders/examples/hello_triangle.vert", "shaders/examples/hello_triangle.frag");
    expect_identical(ctx, &(target){.clear = {0.1f, 0.1f, 0.12f, 1}}, rec_one_pipe, &p, W * H / 4, "hello_triangle");
}

/* ==== examples/instancing.c ================================================================== */

enum { COLS = 12, ROWS = 8, INSTANCES = COLS * ROWS, CORNERS = 18 };

typedef struct corner {
    float xy[2];
    uint8_t shade[4];
} corner;

/* examples/instancing.c: vertex_shader */
static void inst_vs(tr_vs_batch *b)
{
    for (uint32_t i = 0; i < b->count; i++) {
        b->position[0][i] = b->attrib.f[0][0][i] + b->attrib.f[2][0][i];
        b->position[1][i] = b->attrib.f[0][1][i] + b->attrib.f[2][1][i];
        b->position[2][i] = 0.5f;
        b->position[3][i] = 1.0f;
        for (int c = 0; c < 4; c++)
            b->varyings[0][c][i] = b->attrib.f[1][c][i] * b->attrib.f[3][c][i];
    }
}

typedef struct inst_scene {
    twin_pipes p;
    corner hex[CORNERS];
    float centres[INSTANCES][2];
    uint8_t palette[ROWS][4];
} inst_scene;

static void rec_instancing(tr_context *c, int spirv, void *user)
{
    inst_scene *s = user;
    REC(tr_cmd_bind_pipeline(c, s->p.p[spirv]));
    REC(tr_cmd_bind_vertex_buffer(c, 0, s->hex, sizeof s->hex, 0));
    REC(tr_cmd_bind_vertex_buffer(c, 1, s->centres, sizeof s->centres, 0));
    REC(tr_cmd_bind_vertex_buffer(c, 2, s->palette, sizeof s->palette, 0));
    REC(tr_cmd_draw(c, CORNERS, INSTANCES, 0, 0));
}

Test(glsl_twins, instancing)
{
    static inst_scene s;
    const float r = 0.075f;
    for (int k = 0; k < 6; k++) {
        float a0 = (float)k * 1.0471976f, a1 = (float)(k + 1) * 1.0471976f;
        corner *t = &s.hex[3 * k];
        t[0] = (corner){{0.0f, 0.0f}, {255, 255, 255, 255}};
        t[1] = (corner){{r * cosf(a0), r * sinf(a0) * 1.5f}, {90, 90, 110, 255}};
        t[2] = (corner){{r * cosf(a1), r * sinf(a1) * 1.5f}, {90, 90, 110, 255}};
    }
    for (int i = 0; i < INSTANCES; i++) {
        int col = i % COLS, row = i / COLS;
        s.centres[i][0] = -0.85f + 1.7f * (float)col / (COLS - 1) + (row % 2 ? 0.07f : 0.0f);
        s.centres[i][1] = -0.8f + 1.6f * (float)row / (ROWS - 1);
    }
    for (int row = 0; row < ROWS; row++) {
        s.palette[row][0] = (uint8_t)(255 - 28 * row);
        s.palette[row][1] = (uint8_t)(60 + 24 * row);
        s.palette[row][2] = (uint8_t)(120 + 16 * row);
        s.palette[row][3] = 255;
    }
    s.p = pipes(ctx,
                &(tr_pipeline_desc){
                    .vertex_shader = inst_vs, .fragment_shader = copy_fs, .varying_count = 1,
                    .bindings = {{.stride = sizeof(corner)},
                                 {.stride = sizeof s.centres[0], .input_rate = TR_INPUT_RATE_INSTANCE, .divisor = 1},
                                 {.stride = sizeof s.palette[0], .input_rate = TR_INPUT_RATE_INSTANCE, .divisor = COLS}},
                    .attributes = {{TR_VERTEX_FORMAT_R32G32_SFLOAT, 0, 0},
                                   {TR_VERTEX_FORMAT_R8G8B8A8_UNORM, 0, sizeof(float) * 2},
                                   {TR_VERTEX_FORMAT_R32G32_SFLOAT, 1, 0},
                                   {TR_VERTEX_FORMAT_R8G8B8A8_UNORM, 2, 0}}},
                "shaders/examples/instancing.vert", "shaders/examples/instancing.frag");
    expect_identical(ctx, &(target){.clear = {0.08f, 0.08f, 0.1f, 1}}, rec_instancing, &s, W * H / 8, "instancing");
}

/* ==== examples/lit_mesh.c ==================================================================== */

typedef struct lit_uniforms {
    mat4 mvp;
    mat4 model;
    float light_dir[4];
    float base_color[4];
    float ambient;
    const vertex *verts;
} lit_uniforms;

/* examples/lit_mesh.c: vertex_shader */
static void lit_vs(tr_vs_batch *b)
{
    const lit_uniforms *u = b->uniforms;
    for (uint32_t i = 0; i < b->count; i++) {
        const vertex *v = &u->verts[b->vertex_index[i]];
        for (int r = 0; r < 4; r++) {
            b->position[r][i] = u->mvp.m[0 * 4 + r] * v->pos[0] + u->mvp.m[1 * 4 + r] * v->pos[1] +
                                u->mvp.m[2 * 4 + r] * v->pos[2] + u->mvp.m[3 * 4 + r];
            b->varyings[0][r][i] = r < 3 ? u->model.m[0 * 4 + r] * v->normal[0] +
                                           u->model.m[1 * 4 + r] * v->normal[1] +
                                           u->model.m[2 * 4 + r] * v->normal[2]
                                         : 0.0f;
        }
    }
}

/* examples/lit_mesh.c: fragment_shader */
static void lit_fs(tr_fs_block *b)
{
    const lit_uniforms *u = b->uniforms;
    for (uint32_t i = 0; i < b->count; i++) {
        float nx = b->varyings[0][0][i], ny = b->varyings[0][1][i], nz = b->varyings[0][2][i];
        float len = sqrtf(nx * nx + ny * ny + nz * nz);
        float inv = len > 0.0f ? 1.0f / len : 0.0f;
        float ndotl = (nx * u->light_dir[0] + ny * u->light_dir[1] + nz * u->light_dir[2]) * inv;
        float light = u->ambient + (1.0f - u->ambient) * (ndotl > 0.0f ? ndotl : 0.0f);
        for (int c = 0; c < 3; c++)
            b->color[0][c][i] = u->base_color[c] * light;
        b->color[0][3][i] = 1.0f;
    }
}

typedef struct mesh_scene {
    twin_pipes p;
    const mesh *m;
    const void *uniforms;
    size_t uniforms_size;
    const tr_image *tex;
    const tr_sampler *smp;
} mesh_scene;

static void rec_mesh(tr_context *c, int spirv, void *user)
{
    mesh_scene *s = user;
    REC(tr_cmd_bind_pipeline(c, s->p.p[spirv]));
    if (s->tex)
        REC(tr_cmd_bind_texture(c, 0, s->tex, s->smp));
    REC(tr_cmd_set_uniforms(c, s->uniforms, s->uniforms_size));
    REC(tr_cmd_bind_vertex_buffer(c, 0, s->m->verts, s->m->vertex_count * sizeof(vertex), 0));
    REC(tr_cmd_bind_index_buffer(c, s->m->indices, s->m->index_count * 4, 0, TR_INDEX_U32));
    REC(tr_cmd_draw_indexed(c, s->m->index_count, 1, 0, 0, 0));
}

Test(glsl_twins, lit_mesh)
{
    mesh t = torus(1.0f, 0.4f, 48, 24);
    const mat4 model = mat4_mul(mat4_rotate(0.5f, 0.0f, 1.0f, 0.0f), mat4_rotate(0.6f, 1.0f, 0.0f, 0.0f));
    lit_uniforms u = {.mvp = mat4_mul(look_from(0.0f, 1.8f, 3.6f), model), .model = model,
                      .light_dir = {0.408f, 0.816f, 0.408f, 0.0f}, .base_color = {0.95f, 0.55f, 0.15f, 1.0f},
                      .ambient = 0.15f, .verts = t.verts};
    tr_pipeline_desc d = {.vertex_shader = lit_vs, .fragment_shader = lit_fs, .varying_count = 1,
                          .cull_mode = TR_CULL_BACK, .depth_test = 1, .depth_write = 1};
    vertex_layout(&d);
    mesh_scene s = {pipes(ctx, &d, "shaders/examples/lit_mesh.vert", "shaders/examples/lit_mesh.frag"), &t, &u,
                    sizeof u, NULL, NULL};
    expect_identical(ctx, &(target){.depth = 1, .clear = {0.08f, 0.09f, 0.12f, 1}}, rec_mesh, &s, W * H / 4,
                     "lit_mesh");
    mesh_free(&t);
}

/* ==== examples/mip_levels.c and texture_filtering.c ========================================== */

typedef struct plane_uniforms {
    mat4 view_proj;
} plane_uniforms;

/* examples/mip_levels.c: vertex_shader (PLANE_HALF 200, UV_PER_UNIT 1) */
static void mip_vs(tr_vs_batch *b)
{
    static const float corners[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    static const int corner_of[6] = {0, 1, 2, 0, 2, 3};
    const plane_uniforms *u = b->uniforms;
    for (uint32_t i = 0; i < b->count; i++) {
        const float *c = corners[corner_of[b->vertex_index[i]]];
        float world[4] = {c[0] * 200.0f, 0.0f, c[1] * 200.0f, 1.0f};
        for (int r = 0; r < 4; r++)
            b->position[r][i] = u->view_proj.m[0 * 4 + r] * world[0] + u->view_proj.m[1 * 4 + r] * world[1] +
                                u->view_proj.m[2 * 4 + r] * world[2] + u->view_proj.m[3 * 4 + r] * world[3];
        b->varyings[0][0][i] = world[0] * 1.0f;
        b->varyings[0][1][i] = world[2] * 1.0f;
        b->varyings[0][2][i] = 0.0f;
        b->varyings[0][3][i] = 0.0f;
    }
}

/* examples/mip_levels.c: fragment_shader */
static void mip_fs(tr_fs_block *b)
{
    float tint[4][TR_FS_LANES], checker[4][TR_FS_LANES];
    const float *s = b->varyings[0][0], *t = b->varyings[0][1];
    tr_fs_texture(b, 0, s, t, tint);
    tr_fs_texture(b, 1, s, t, checker);
    for (int c = 0; c < 3; c++)
        for (uint32_t i = 0; i < b->count; i++)
            b->color[0][c][i] = tint[c][i] * checker[c][i];
    for (uint32_t i = 0; i < b->count; i++)
        b->color[0][3][i] = 1.0f;
}

/* examples/texture_filtering.c: vertex_shader (PLANE_HALF 200, UV_PER_UNIT 0.5) */
static void filt_vs(tr_vs_batch *b)
{
    static const float corners[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    static const int corner_of[6] = {0, 1, 2, 0, 2, 3};
    const plane_uniforms *u = b->uniforms;
    for (uint32_t i = 0; i < b->count; i++) {
        const float *c = corners[corner_of[b->vertex_index[i]]];
        float world[4] = {c[0] * 200.0f, 0.0f, c[1] * 200.0f, 1.0f};
        for (int r = 0; r < 4; r++)
            b->position[r][i] = u->view_proj.m[0 * 4 + r] * world[0] + u->view_proj.m[1 * 4 + r] * world[1] +
                                u->view_proj.m[2 * 4 + r] * world[2] + u->view_proj.m[3 * 4 + r] * world[3];
        b->varyings[0][0][i] = world[0] * 0.5f;
        b->varyings[0][1][i] = world[2] * 0.5f;
        b->varyings[0][2][i] = 0.0f;
        b->varyings[0][3][i] = 0.0f;
    }
}

/* examples/texture_filtering.c: fragment_shader (and bench/texture_bench.c's fs_texture) */
static void tex_fs(tr_fs_block *b)
{
    tr_fs_texture(b, 0, b->varyings[0][0], b->varyings[0][1], b->color[0]);
}

typedef struct plane_scene {
    twin_pipes p;
    plane_uniforms u;
    const tr_image *tex[2];
    const tr_sampler *smp;
    uint32_t vertices;
    const void *vbuf;
    size_t vbuf_size;
} plane_scene;

static void rec_plane(tr_context *c, int spirv, void *user)
{
    plane_scene *s = user;
    REC(tr_cmd_bind_pipeline(c, s->p.p[spirv]));
    for (uint32_t i = 0; i < 2; i++)
        if (s->tex[i])
            REC(tr_cmd_bind_texture(c, i, s->tex[i], s->smp));
    REC(tr_cmd_set_uniforms(c, &s->u, sizeof s->u));
    if (s->vbuf)
        REC(tr_cmd_bind_vertex_buffer(c, 0, s->vbuf, s->vbuf_size, 0));
    REC(tr_cmd_draw(c, s->vertices ? s->vertices : 6, 1, 0, 0));
}

Test(glsl_twins, mip_levels)
{
    tr_image *tint = NULL, *checker = texture(ctx, TR_FORMAT_R8G8B8A8_UNORM, 64, 0, 1);
    TRT_OK(tr_image_create(ctx, &(tr_image_desc){TR_FORMAT_R8G8B8A8_UNORM, 64, 64, 1, TR_LEVELS_ALL, 0, 0}, &tint));
    static const float tints[7][4] = {{0.90f, 0.10f, 0.10f, 1}, {1.00f, 0.55f, 0.05f, 1}, {0.95f, 0.90f, 0.10f, 1},
                                      {0.20f, 0.75f, 0.20f, 1}, {0.10f, 0.80f, 0.85f, 1}, {0.15f, 0.30f, 0.95f, 1},
                                      {0.55f, 0.20f, 0.85f, 1}};
    for (uint32_t l = 0; l < 7; l++)
        TRT_OK(tr_image_fill(tint, &(tr_subresource){.level = l}, tints[l]));
    tr_sampler *smp = trilinear(ctx, 0);
    plane_scene s = {.u = {mat4_mul(mat4_perspective(60.0f * PI / 180.0f, 1.0f, 0.05f, 1000.0f),
                                    mat4_camera(1.0f, 12.0f * PI / 180.0f))},
                     .tex = {tint, checker}, .smp = smp};
    s.p = pipes(ctx, &(tr_pipeline_desc){.vertex_shader = mip_vs, .fragment_shader = mip_fs, .varying_count = 1,
                                         .texture_mask = 3},
                "shaders/examples/mip_levels.vert", "shaders/examples/mip_levels.frag");
    expect_identical(ctx, &(target){.clear = {0.5f, 0.6f, 0.8f, 1}}, rec_plane, &s, W * H / 3, "mip_levels");
}

Test(glsl_twins, texture_filtering)
{
    tr_image *tex = texture(ctx, TR_FORMAT_R8G8B8A8_SRGB, 64, 7, 0);
    tr_sampler *smp = trilinear(ctx, 16);
    plane_scene s = {.u = {mat4_mul(mat4_perspective(60.0f * PI / 180.0f, 1.0f, 0.05f, 1000.0f),
                                    mat4_camera(1.0f, 12.0f * PI / 180.0f))},
                     .tex = {tex}, .smp = smp};
    s.p = pipes(ctx, &(tr_pipeline_desc){.vertex_shader = filt_vs, .fragment_shader = tex_fs, .varying_count = 1,
                                         .texture_mask = 1},
                "shaders/examples/texture_filtering.vert", "shaders/examples/texture_filtering.frag");
    expect_identical(ctx, &(target){.clear = {0.5f, 0.6f, 0.8f, 1}}, rec_plane, &s, W * H / 3, "texture_filtering");
}

/* ==== examples/texture_streaming.c (vertex shader; the fragment shader writes feedback) ======= */

/* examples/texture_streaming.c: vertex_shader (PLANE 12) */
static void stream_vs(tr_vs_batch *b)
{
    static const float corner[6][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 0}, {1, 1}, {0, 1}};
    const mat4 *mvp = b->uniforms;
    for (uint32_t i = 0; i < b->count; i++) {
        const float *uv = corner[b->vertex_index[i]];
        const float world[4] = {(uv[0] * 2 - 1) * 12.0f, 0, 2 - (1 - uv[1]) * 2 * 12.0f, 1};
        for (int r = 0; r < 4; r++)
            b->position[r][i] = mvp->m[r] * world[0] + mvp->m[4 + r] * world[1] + mvp->m[8 + r] * world[2] +
                                mvp->m[12 + r] * world[3];
        b->varyings[0][0][i] = uv[0];
        b->varyings[0][1][i] = uv[1];
    }
}

/* The sampling half of examples/texture_streaming.c's fragment_shader (the
 * tr_fs_write_feedback call has no SPIR-V equivalent) */
static void stream_fs(tr_fs_block *b)
{
    const tr_sample_args args = {.s = b->varyings[0][0], .t = b->varyings[0][1]};
    tr_fs_sample(b, 0, &args, b->color[0]);
}

static const char stream_frag[] = "#version 450\n"
                                  "layout(binding = 0) uniform sampler2D tex;\n"
                                  "layout(location = 0) in vec2 v_uv;\n"
                                  "layout(location = 0) out vec4 o_color;\n"
                                  "void main() { o_color = texture(tex, v_uv); }\n";

Test(glsl_twins, texture_streaming_vs)
{
    tr_image *tex = texture(ctx, TR_FORMAT_R8G8B8A8_UNORM, 128, 9, 0);
    tr_sampler *smp = trilinear(ctx, 0);
    const float c = cosf(15.0f * PI / 180.0f), sn = sinf(15.0f * PI / 180.0f), eye_y = 1.2f;
    const mat4 view = {{1, 0, 0, 0, 0, c, sn, 0, 0, -sn, c, 0, 0, -c * eye_y, -sn * eye_y, 1}};
    plane_scene s = {.u = {mat4_mul(mat4_perspective(60.0f * PI / 180.0f, 1.0f, 0.05f, 100.0f), view)},
                     .tex = {tex}, .smp = smp};
    s.p = pipes(ctx, &(tr_pipeline_desc){.vertex_shader = stream_vs, .fragment_shader = stream_fs, .varying_count = 1,
                                         .texture_mask = 1},
                "shaders/examples/texture_streaming.vert", stream_frag);
    expect_identical(ctx, &(target){.clear = {0.5f, 0.6f, 0.8f, 1}}, rec_plane, &s, W * H / 3, "texture_streaming");
}

/* ==== examples/subsampled.c ================================================================== */

typedef struct sub_vertex {
    float pos[4], color[4];
} sub_vertex;

/* examples/subsampled.c: vertex_shader */
static void sub_vs(tr_vs_batch *b)
{
    const sub_vertex *v = b->uniforms;
    for (uint32_t i = 0; i < b->count; i++)
        for (int c = 0; c < 4; c++) {
            b->position[c][i] = v[b->vertex_index[i]].pos[c];
            b->varyings[0][c][i] = v[b->vertex_index[i]].color[c];
        }
}

/* examples/subsampled.c: sample_shader (WIDTH 1280, HEIGHT 720) */
static void sub_sample_fs(tr_fs_block *b)
{
    float u[TR_FS_LANES], v[TR_FS_LANES];
    for (uint32_t i = 0; i < b->count; i++) {
        u[i] = b->frag_x[i] / (float)1280;
        v[i] = b->frag_y[i] / (float)720;
    }
    tr_fs_texture(b, 0, u, v, b->color[0]);
}

enum { BLADES = 12, SUB_VERTS = 6 + 3 * BLADES };

static sub_vertex sub_scene[SUB_VERTS];

static void sub_make_scene(void)
{
    static const sub_vertex bg[6] = {
        {{-1, -1, 0.5f, 1}, {0.10f, 0.12f, 0.30f, 1}}, {{1, -1, 0.5f, 1}, {0.30f, 0.10f, 0.25f, 1}},
        {{-1, 1, 0.5f, 1}, {0.05f, 0.25f, 0.20f, 1}},  {{1, -1, 0.5f, 1}, {0.30f, 0.10f, 0.25f, 1}},
        {{1, 1, 0.5f, 1}, {0.25f, 0.25f, 0.05f, 1}},   {{-1, 1, 0.5f, 1}, {0.05f, 0.25f, 0.20f, 1}},
    };
    memcpy(sub_scene, bg, sizeof bg);
    const float aspect = 720.0f / 1280.0f, r = 0.95f;
    for (int i = 0; i < BLADES; i++) {
        const float a0 = 6.2831853f * (float)i / BLADES, a1 = a0 + 6.2831853f / (2 * BLADES);
        const float h = (float)i / BLADES;
        sub_vertex *v = &sub_scene[6 + 3 * i];
        v[0] = (sub_vertex){{0, 0, 0.4f, 1}, {1, 1, 1, 1}};
        v[1] = (sub_vertex){{r * aspect * cosf(a0), r * sinf(a0), 0.4f, 1}, {1.0f - h, h, 0.5f, 1}};
        v[2] = (sub_vertex){{r * aspect * cosf(a1), r * sinf(a1), 0.4f, 1}, {h, 0.3f, 1.0f - h, 1}};
    }
}

typedef struct sub_rec {
    twin_pipes p;
    uint32_t vertices;
    const tr_image *tex;
    const tr_sampler *smp;
} sub_rec;

static void rec_sub(tr_context *c, int spirv, void *user)
{
    sub_rec *s = user;
    REC(tr_cmd_bind_pipeline(c, s->p.p[spirv]));
    if (s->tex)
        REC(tr_cmd_bind_texture(c, 0, s->tex, s->smp));
    REC(tr_cmd_set_uniforms(c, sub_scene, sizeof sub_scene));
    REC(tr_cmd_bind_vertex_buffer(c, 0, sub_scene, sizeof sub_scene, 0));
    REC(tr_cmd_draw(c, s->vertices, 1, 0, 0));
}

static void sub_layout(tr_pipeline_desc *d)
{
    d->bindings[0] = (tr_vertex_binding){.stride = sizeof(sub_vertex)};
    d->attributes[0] = (tr_vertex_attribute){TR_VERTEX_FORMAT_R32G32B32A32_SFLOAT, 0, 0};
    d->attributes[1] = (tr_vertex_attribute){TR_VERTEX_FORMAT_R32G32B32A32_SFLOAT, 0, 16};
}

Test(glsl_twins, subsampled_color)
{
    sub_make_scene();
    tr_pipeline_desc d = {.vertex_shader = sub_vs, .fragment_shader = copy_fs, .varying_count = 1};
    sub_layout(&d);
    sub_rec s = {pipes(ctx, &d, "shaders/examples/subsampled.vert", "shaders/examples/subsampled_color.frag"),
                 SUB_VERTS, NULL, NULL};
    expect_identical(ctx, &(target){.clear = {0, 0, 0, 0}}, rec_sub, &s, W * H, "subsampled color_shader");
}

Test(glsl_twins, subsampled_sample)
{
    sub_make_scene();
    tr_image *tex = texture(ctx, TR_FORMAT_R8G8B8A8_UNORM, 64, 3, 0);
    tr_sampler *smp = NULL;
    TRT_OK(tr_sampler_create(ctx, &(tr_sampler_desc){.mag_filter = TR_FILTER_LINEAR, .min_filter = TR_FILTER_LINEAR},
                             &smp));
    tr_pipeline_desc d = {.vertex_shader = sub_vs, .fragment_shader = sub_sample_fs, .varying_count = 1,
                          .texture_mask = 1};
    sub_layout(&d);
    sub_rec s = {pipes(ctx, &d, "shaders/examples/subsampled.vert", "shaders/examples/subsampled_sample.frag"), 6,
                 tex, smp};
    expect_identical(ctx, &(target){.clear = {0, 0, 0, 0}}, rec_sub, &s, W * H, "subsampled sample_shader");
}

/* ==== examples/wireframe.c =================================================================== */

typedef struct vtx {
    float pos[4];
    float col[4];
} vtx;

typedef struct wire_uniforms {
    const vtx *v;
    float tint[4];
} wire_uniforms;

/* examples/wireframe.c: vertex_shader */
static void wire_vs(tr_vs_batch *b)
{
    const wire_uniforms *u = b->uniforms;
    for (uint32_t i = 0; i < b->count; i++) {
        const vtx *v = &u->v[b->vertex_index[i]];
        for (int c = 0; c < 4; c++) {
            b->position[c][i] = v->pos[c];
            b->varyings[0][c][i] = u->tint[3] > 0 ? u->tint[c] : v->col[c];
        }
        if (u->tint[3] > 0)
            b->position[2][i] -= 0.004f * v->pos[3];
        b->point_size[i] = 5.0f;
    }
}

/* examples/wireframe.c: fs_dot */
static void wire_dot_fs(tr_fs_block *b)
{
    copy_fs(b);
    for (uint32_t i = 0; i < b->count; i++) {
        const float dx = b->point_coord[0][i] - 0.5f, dy = b->point_coord[1][i] - 0.5f;
        if (dx * dx + dy * dy > 0.25f)
            b->discard |= 1ull << i;
    }
}

enum { SEG = 16, RINGS = 10 };

typedef struct wire_scene {
    twin_pipes fill, bres, rect, dots;
    vtx verts[2][(RINGS + 1) * (SEG + 1)];
    uint32_t tri_idx[RINGS * SEG * 6];
    uint32_t line_idx[RINGS * SEG * 4];
} wire_scene;

/* examples/wireframe.c: build() */
static void wire_build(wire_scene *s, vtx *verts, float cx)
{
    for (int r = 0; r <= RINGS; r++)
        for (int sg = 0; sg <= SEG; sg++) {
            const float th = 3.14159265f * (float)r / RINGS, ph = 6.2831853f * (float)sg / SEG + 0.4f;
            const float x = sinf(th) * cosf(ph), y = cosf(th), z = sinf(th) * sinf(ph);
            const float w = 2.6f + z;
            vtx *v = &verts[r * (SEG + 1) + sg];
            v->pos[0] = (x * 0.75f + cx) * 1.2f;
            v->pos[1] = -y * 1.2f;
            v->pos[2] = (0.5f + 0.3f * z) * w;
            v->pos[3] = w;
            v->col[0] = 0.25f + 0.35f * (1 - y);
            v->col[1] = 0.35f + 0.25f * (1 + y);
            v->col[2] = 0.6f;
            v->col[3] = 1;
        }
    uint32_t *t = s->tri_idx, *l = s->line_idx;
    for (int r = 0; r < RINGS; r++)
        for (int sg = 0; sg < SEG; sg++) {
            const uint32_t a = (uint32_t)(r * (SEG + 1) + sg), b = a + 1, c = a + SEG + 1, d = c + 1;
            *t++ = a, *t++ = c, *t++ = b, *t++ = b, *t++ = c, *t++ = d;
            *l++ = a, *l++ = b, *l++ = a, *l++ = c;
        }
}

/* The uniforms for a draw: the C struct, or (SPIR-V) its tint alone. */
static void wire_uniforms_set(tr_context *c, int spirv, const wire_uniforms *u)
{
    if (spirv)
        REC(tr_cmd_set_uniforms(c, u->tint, sizeof u->tint));
    else
        REC(tr_cmd_set_uniforms(c, u, sizeof *u));
}

static void rec_wire(tr_context *c, int spirv, void *user)
{
    wire_scene *s = user;
    for (int half = 0; half < 2; half++) {
        const vtx *verts = s->verts[half];
        wire_uniforms u = {verts, {0, 0, 0, 0}};
        REC(tr_cmd_bind_vertex_buffer(c, 0, verts, sizeof s->verts[half], 0));
        wire_uniforms_set(c, spirv, &u);
        REC(tr_cmd_bind_pipeline(c, s->fill.p[spirv]));
        REC(tr_cmd_bind_index_buffer(c, s->tri_idx, sizeof s->tri_idx, 0, TR_INDEX_U32));
        REC(tr_cmd_draw_indexed(c, RINGS * SEG * 6, 1, 0, 0, 0));
        u.tint[0] = 1, u.tint[1] = 0.9f, u.tint[2] = 0.3f, u.tint[3] = 1;
        wire_uniforms_set(c, spirv, &u);
        REC(tr_cmd_bind_pipeline(c, half ? s->rect.p[spirv] : s->bres.p[spirv]));
        REC(tr_cmd_bind_index_buffer(c, s->line_idx, sizeof s->line_idx, 0, TR_INDEX_U32));
        REC(tr_cmd_draw_indexed(c, RINGS * SEG * 4, 1, 0, 0, 0));
        u.tint[0] = 1, u.tint[1] = 0.3f, u.tint[2] = 0.25f;
        wire_uniforms_set(c, spirv, &u);
        REC(tr_cmd_bind_pipeline(c, s->dots.p[spirv]));
        REC(tr_cmd_draw(c, (RINGS + 1) * (SEG + 1), 1, 0, 0));
    }
}

Test(glsl_twins, wireframe)
{
    static wire_scene s;
    wire_build(&s, s.verts[0], -1.05f);
    wire_build(&s, s.verts[1], 1.05f);
    tr_pipeline_desc pd = {.vertex_shader = wire_vs, .fragment_shader = copy_fs, .varying_count = 1,
                           .depth_test = 1, .depth_write = 1, .cull_mode = TR_CULL_NONE};
    pd.bindings[0] = (tr_vertex_binding){.stride = sizeof(vtx)};
    pd.attributes[0] = (tr_vertex_attribute){TR_VERTEX_FORMAT_R32G32B32A32_SFLOAT, 0, 0};
    pd.attributes[1] = (tr_vertex_attribute){TR_VERTEX_FORMAT_R32G32B32A32_SFLOAT, 0, 16};
    const char *vs = "shaders/examples/wireframe.vert", *fs = "shaders/examples/wireframe.frag";
    s.fill = pipes(ctx, &pd, vs, fs);
    pd.topology = TR_TOPOLOGY_LINE_LIST;
    pd.depth_compare = TR_COMPARE_LESS_OR_EQUAL;
    pd.depth_write = 0;
    pd.line_mode = TR_LINE_BRESENHAM;
    s.bres = pipes(ctx, &pd, vs, fs);
    pd.line_mode = TR_LINE_RECTANGULAR;
    pd.line_width = 2.5f;
    s.rect = pipes(ctx, &pd, vs, fs);
    pd.topology = TR_TOPOLOGY_POINT_LIST;
    pd.fragment_shader = wire_dot_fs;
    pd.fs_flags = TR_FS_MAY_DISCARD;
    s.dots = pipes(ctx, &pd, vs, "shaders/examples/wireframe_dot.frag");
    expect_identical(ctx, &(target){.w = 256, .h = 192, .depth = 1, .clear = {0.08f, 0.08f, 0.1f, 1}}, rec_wire,
                     &s, 256 * 192 / 4, "wireframe");
}

/* ==== examples/fdm_foveated.c (two views, multiview) ======================================== */

typedef struct fdm_uniforms {
    mat4 view_proj[2];
    mat4 model;
    float light_dir[4];
    float tint[4];
    float ambient;
    const vertex *verts;
} fdm_uniforms;

/* examples/fdm_foveated.c: vertex_shader */
static void fdm_vs(tr_vs_batch *b)
{
    const fdm_uniforms *u = b->uniforms;
    const mat4 *vp = &u->view_proj[b->view_index];
    for (uint32_t i = 0; i < b->count; i++) {
        const vertex *v = &u->verts[b->vertex_index[i]];
        float world[4];
        for (int r = 0; r < 4; r++)
            world[r] = u->model.m[0 * 4 + r] * v->pos[0] + u->model.m[1 * 4 + r] * v->pos[1] +
                       u->model.m[2 * 4 + r] * v->pos[2] + u->model.m[3 * 4 + r];
        for (int r = 0; r < 4; r++) {
            b->position[r][i] = vp->m[0 * 4 + r] * world[0] + vp->m[1 * 4 + r] * world[1] +
                                vp->m[2 * 4 + r] * world[2] + vp->m[3 * 4 + r] * world[3];
            b->varyings[0][r][i] = r < 3 ? u->model.m[0 * 4 + r] * v->normal[0] +
                                           u->model.m[1 * 4 + r] * v->normal[1] +
                                           u->model.m[2 * 4 + r] * v->normal[2]
                                         : 0.0f;
        }
        b->varyings[1][0][i] = v->uv[0];
        b->varyings[1][1][i] = v->uv[1];
        b->varyings[1][2][i] = b->varyings[1][3][i] = 0.0f;
    }
}

/* examples/fdm_foveated.c: fragment_shader */
static void fdm_fs(tr_fs_block *b)
{
    const fdm_uniforms *u = b->uniforms;
    tr_fs_texture(b, 0, b->varyings[1][0], b->varyings[1][1], b->color[0]);
    for (uint32_t i = 0; i < b->count; i++) {
        float nx = b->varyings[0][0][i], ny = b->varyings[0][1][i], nz = b->varyings[0][2][i];
        float len = sqrtf(nx * nx + ny * ny + nz * nz);
        float inv = len > 0.0f ? 1.0f / len : 0.0f;
        float ndotl = (nx * u->light_dir[0] + ny * u->light_dir[1] + nz * u->light_dir[2]) * inv;
        float light = u->ambient + (1.0f - u->ambient) * (ndotl > 0.0f ? ndotl : 0.0f);
        for (int c = 0; c < 3; c++)
            b->color[0][c][i] *= u->tint[c] * light;
        b->color[0][3][i] = 1.0f;
    }
}

Test(glsl_twins, fdm_foveated_multiview)
{
    mesh t = torus(1.0f, 0.4f, 48, 24);
    tr_image *tex = texture(ctx, TR_FORMAT_R8G8B8A8_SRGB, 64, 0, 1);
    tr_sampler *smp = trilinear(ctx, 4);
    const mat4 model = mat4_mul(mat4_translate(0.0f, 0.1f, 0.0f), mat4_rotate(0.9f, 1.0f, 0.0f, 0.0f));
    fdm_uniforms u = {.view_proj = {mat4_mul(look_from(-0.15f, 1.6f, 3.6f), mat4_translate(0.15f, 0, 0)),
                                    mat4_mul(look_from(0.15f, 1.6f, 3.6f), mat4_translate(-0.15f, 0, 0))},
                      .model = model, .light_dir = {0.408f, 0.816f, 0.408f, 0.0f}, .tint = {1.0f, 0.9f, 0.8f, 1},
                      .ambient = 0.2f, .verts = t.verts};
    tr_pipeline_desc d = {.vertex_shader = fdm_vs, .fragment_shader = fdm_fs, .varying_count = 2, .texture_mask = 1,
                          .cull_mode = TR_CULL_BACK, .depth_test = 1, .depth_write = 1};
    vertex_layout(&d);
    mesh_scene s = {pipes(ctx, &d, "shaders/examples/fdm_foveated.vert", "shaders/examples/fdm_foveated.frag"), &t,
                    &u, sizeof u, tex, smp};
    expect_identical(ctx, &(target){.views = 2, .depth = 1, .clear = {0.3f, 0.4f, 0.5f, 1}}, rec_mesh, &s,
                     2 * W * H / 5, "fdm_foveated");
    mesh_free(&t);
}

/* ==== examples/demo.c ========================================================================== */

typedef struct mesh_uniforms {
    mat4 mvp;
    mat4 model;
    float eye[4];
    float light_dir[4];
    float color[4];
    float ambient, specular, shininess;
    int checker;
    const vertex *verts;
} mesh_uniforms;

/* examples/demo.c: mesh_vs */
static void mesh_vs(tr_vs_batch *b)
{
    const mesh_uniforms *u = b->uniforms;
    const float *mvp = u->mvp.m, *mdl = u->model.m;
    for (uint32_t i = 0; i < b->count; i++) {
        const vertex *v = &u->verts[b->vertex_index[i]];
        for (int r = 0; r < 4; r++) {
            b->position[r][i] = mvp[r] * v->pos[0] + mvp[4 + r] * v->pos[1] +
                                mvp[8 + r] * v->pos[2] + mvp[12 + r];
            b->varyings[1][r][i] = mdl[r] * v->pos[0] + mdl[4 + r] * v->pos[1] +
                                   mdl[8 + r] * v->pos[2] + mdl[12 + r];
            b->varyings[0][r][i] = mdl[r] * v->normal[0] + mdl[4 + r] * v->normal[1] +
                                   mdl[8 + r] * v->normal[2];
        }
        b->varyings[2][0][i] = v->uv[0];
        b->varyings[2][1][i] = v->uv[1];
        b->varyings[2][2][i] = 0.0f;
        b->varyings[2][3][i] = 1.0f;
    }
}

/* examples/demo.c: mesh_fs */
static void mesh_fs(tr_fs_block *b)
{
    const mesh_uniforms *u = b->uniforms;
    for (uint32_t i = 0; i < b->count; i++) {
        float n[3] = {b->varyings[0][0][i], b->varyings[0][1][i], b->varyings[0][2][i]};
        float p[3] = {b->varyings[1][0][i], b->varyings[1][1][i], b->varyings[1][2][i]};
        float nl = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        float vdir[3] = {u->eye[0] - p[0], u->eye[1] - p[1], u->eye[2] - p[2]};
        float vl = sqrtf(vdir[0] * vdir[0] + vdir[1] * vdir[1] + vdir[2] * vdir[2]);
        float h[3], ndotl = 0.0f, ndoth = 0.0f, hl;
        for (int a = 0; a < 3; a++) {
            n[a] = nl > 0.0f ? n[a] / nl : 0.0f;
            h[a] = u->light_dir[a] + (vl > 0.0f ? vdir[a] / vl : 0.0f);
        }
        hl = sqrtf(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]);
        for (int a = 0; a < 3; a++) {
            ndotl += n[a] * u->light_dir[a];
            ndoth += n[a] * (hl > 0.0f ? h[a] / hl : 0.0f);
        }
        float diffuse = ndotl > 0.0f ? ndotl : 0.0f;
        float spec = ndotl > 0.0f && ndoth > 0.0f ? u->specular * powf(ndoth, u->shininess) : 0.0f;
        float base[3] = {u->color[0], u->color[1], u->color[2]};
        if (u->checker) {
            int odd = ((int)floorf(p[0]) + (int)floorf(p[2])) & 1;
            float fade = 0.3f + 1.4f / (1.0f + 0.04f * vl * vl); /* darker far away */
            fade = fade < 1.0f ? fade : 1.0f;
            for (int a = 0; a < 3; a++)
                base[a] = (odd ? base[a] : base[a] * 0.35f) * fade;
        }
        float light = u->ambient + (1.0f - u->ambient) * diffuse;
        for (int a = 0; a < 3; a++) {
            float c = base[a] * light + spec;
            b->color[0][a][i] = c < 1.0f ? c : 1.0f;
        }
        b->color[0][3][i] = 1.0f;
    }
}

/* examples/demo.c: glass_fs */
static void glass_fs(tr_fs_block *b)
{
    const mesh_uniforms *u = b->uniforms;
    for (uint32_t i = 0; i < b->count; i++) {
        float s = b->varyings[2][0][i], t = b->varyings[2][1][i];
        float edge = fminf(fminf(s, 1.0f - s), fminf(t, 1.0f - t));
        int rim = edge < 0.02f;
        for (int a = 0; a < 3; a++)
            b->color[0][a][i] = rim ? 0.9f : u->color[a] * (0.7f + 0.3f * t);
        b->color[0][3][i] = rim ? 0.9f : u->color[3] * (0.6f + 0.6f * t);
    }
}

/* examples/demo.c: sky_vs */
static void sky_vs(tr_vs_batch *b)
{
    for (uint32_t i = 0; i < b->count; i++) {
        uint32_t v = b->vertex_index[i];
        float x = v == 1 ? 3.0f : -1.0f, y = v == 2 ? 3.0f : -1.0f;
        b->position[0][i] = x;
        b->position[1][i] = y;
        b->position[2][i] = 1.0f;
        b->position[3][i] = 1.0f;
        b->varyings[0][0][i] = 0.5f * (y + 1.0f);
        b->varyings[0][1][i] = b->varyings[0][2][i] = b->varyings[0][3][i] = 0.0f;
    }
}

/* examples/demo.c: sky_fs */
static void sky_fs(tr_fs_block *b)
{
    static const float top[3] = {0.05f, 0.07f, 0.16f}, bottom[3] = {0.45f, 0.55f, 0.70f};
    for (uint32_t i = 0; i < b->count; i++) {
        float t = b->varyings[0][0][i];
        for (int a = 0; a < 3; a++)
            b->color[0][a][i] = top[a] + (bottom[a] - top[a]) * t;
        b->color[0][3][i] = 1.0f;
    }
}

typedef struct overlay_uniforms {
    float color[4];
    const float (*pts)[2];
} overlay_uniforms;

/* examples/demo.c: overlay_vs (WIDTH 1024, HEIGHT 576) */
static void overlay_vs(tr_vs_batch *b)
{
    const overlay_uniforms *u = b->uniforms;
    for (uint32_t i = 0; i < b->count; i++) {
        const float *p = u->pts[b->vertex_index[i]];
        b->position[0][i] = p[0] / (float)1024 * 2.0f - 1.0f;
        b->position[1][i] = p[1] / (float)576 * 2.0f - 1.0f;
        b->position[2][i] = 0.0f;
        b->position[3][i] = 1.0f;
    }
}

/* examples/demo.c: overlay_fs */
static void overlay_fs(tr_fs_block *b)
{
    const overlay_uniforms *u = b->uniforms;
    for (int a = 0; a < 4; a++)
        for (uint32_t i = 0; i < b->count; i++)
            b->color[0][a][i] = u->color[a];
}

Test(glsl_twins, demo_sky)
{
    twin_pipes p = pipes(ctx, &(tr_pipeline_desc){.vertex_shader = sky_vs, .fragment_shader = sky_fs, .varying_count = 1},
                         "shaders/demo/sky.vert", "shaders/demo/sky.frag");
    expect_identical(ctx, &(target){.clear = {0, 0, 0, 0}}, rec_one_pipe, &p, W * H, "demo sky");
}

/* The lit meshes: a torus and the checkered floor, one draw each. */
typedef struct demo_scene {
    twin_pipes p;
    mesh m[2];
    mesh_uniforms u[2];
} demo_scene;

static void rec_demo(tr_context *c, int spirv, void *user)
{
    demo_scene *s = user;
    REC(tr_cmd_bind_pipeline(c, s->p.p[spirv]));
    for (int k = 0; k < 2; k++) {
        if (!s->m[k].verts)
            continue;
        REC(tr_cmd_set_uniforms(c, &s->u[k], sizeof s->u[k]));
        REC(tr_cmd_bind_vertex_buffer(c, 0, s->m[k].verts, s->m[k].vertex_count * sizeof(vertex), 0));
        REC(tr_cmd_bind_index_buffer(c, s->m[k].indices, s->m[k].index_count * 4, 0, TR_INDEX_U32));
        REC(tr_cmd_draw_indexed(c, s->m[k].index_count, 1, 0, 0, 0));
    }
}

static void demo_lit(demo_scene *s, float specular)
{
    const float eye[3] = {0.0f, 2.2f, 4.5f};
    const mat4 vp = look_from(eye[0], eye[1], eye[2]);
    float light_dir[3] = {-0.5f, 1.0f, 0.7f};
    const float l = sqrtf(light_dir[0] * light_dir[0] + light_dir[1] * light_dir[1] + light_dir[2] * light_dir[2]);
    for (int a = 0; a < 3; a++)
        light_dir[a] /= l;
    s->m[0] = torus(0.75f, 0.3f, 48, 24);
    s->m[1] = floor_quad(-1.0f, 6.0f);
    const mat4 models[2] = {mat4_mul(mat4_rotate(0.5f, 0, 1, 0), mat4_rotate(1.1f, 1, 0, 0)), mat4_translate(0, 0, 0)};
    for (int k = 0; k < 2; k++)
        s->u[k] = (mesh_uniforms){.mvp = mat4_mul(vp, models[k]), .model = models[k],
                                  .eye = {eye[0], eye[1], eye[2], 1},
                                  .light_dir = {light_dir[0], light_dir[1], light_dir[2], 0},
                                  .color = {k ? 0.85f : 0.95f, k ? 0.85f : 0.50f, k ? 0.8f : 0.12f, 1},
                                  .ambient = 0.18f, .specular = k ? 0.0f : specular, .shininess = k ? 1.0f : 32.0f,
                                  .checker = k, .verts = s->m[k].verts};
    tr_pipeline_desc d = {.vertex_shader = mesh_vs, .fragment_shader = mesh_fs, .varying_count = 3,
                          .cull_mode = TR_CULL_BACK, .depth_test = 1, .depth_write = 1};
    vertex_layout(&d);
    s->p = pipes(ctx, &d, "shaders/demo/mesh.vert", "shaders/demo/mesh.frag");
}

/* Without the specular term (specular 0: 0 * powf is 0, as 0 * pow) every
 * other operation of mesh_vs / mesh_fs is the same: identical. */
Test(glsl_twins, demo_mesh_without_specular)
{
    static demo_scene s;
    demo_lit(&s, 0.0f);
    expect_identical(ctx, &(target){.depth = 1, .clear = {0, 0, 0, 1}}, rec_demo, &s, W * H / 2, "demo mesh");
    mesh_free(&s.m[0]);
    mesh_free(&s.m[1]);
}

#define DEMO_POW_PIXELS 187u
#define DEMO_POW_MAX 0x1p-24f

/* With it, the twin's pow() (tilerast's exp2(y * log2(x))) and libm's powf
 * round differently for some arguments: measured, 128 x 128, RGBA32F. */
Test(glsl_twins, demo_mesh_specular_pow_differs)
{
    static demo_scene s;
    demo_lit(&s, 0.5f);
    const diff d = twin_diff(ctx, &(target){.depth = 1, .clear = {0, 0, 0, 1}}, rec_demo, &s);
    cr_log_info("demo mesh with specular: %u pixels differ, largest channel difference %a", d.pixels, (double)d.max);
    cr_expect_eq(d.pixels, DEMO_POW_PIXELS, "pixels that differ");
    cr_expect_eq(d.max, DEMO_POW_MAX, "largest channel difference %a", (double)d.max);
    mesh_free(&s.m[0]);
    mesh_free(&s.m[1]);
}

typedef struct glass_scene {
    twin_pipes p;
    mesh m;
    mesh_uniforms u;
} glass_scene;

static void rec_glass(tr_context *c, int spirv, void *user)
{
    glass_scene *s = user;
    REC(tr_cmd_bind_pipeline(c, s->p.p[spirv]));
    REC(tr_cmd_set_uniforms(c, &s->u, sizeof s->u));
    REC(tr_cmd_bind_vertex_buffer(c, 0, s->m.verts, s->m.vertex_count * sizeof(vertex), 0));
    REC(tr_cmd_bind_index_buffer(c, s->m.indices, s->m.index_count * 4, 0, TR_INDEX_U32));
    REC(tr_cmd_draw_indexed(c, s->m.index_count, 1, 0, 0, 0));
}

Test(glsl_twins, demo_glass)
{
    static glass_scene s;
    s.m = floor_quad(0.0f, 1.0f);
    const mat4 model = mat4_rotate(1.3f, 1, 0, 0);
    s.u = (mesh_uniforms){.mvp = mat4_mul(look_from(0.0f, 0.6f, 2.6f), model), .model = model,
                          .color = {0.85f, 0.15f, 0.35f, 0.45f}, .verts = s.m.verts};
    tr_pipeline_desc d = {.vertex_shader = mesh_vs, .fragment_shader = glass_fs, .varying_count = 3,
                          .depth_test = 1, .depth_write = 0,
                          .blend = {{.enable = 1, .src_color = TR_BLEND_SRC_ALPHA,
                                     .dst_color = TR_BLEND_ONE_MINUS_SRC_ALPHA, .src_alpha = TR_BLEND_ONE,
                                     .dst_alpha = TR_BLEND_ONE_MINUS_SRC_ALPHA}}};
    vertex_layout(&d);
    s.p = pipes(ctx, &d, "shaders/demo/mesh.vert", "shaders/demo/glass.frag");
    expect_identical(ctx, &(target){.depth = 1, .clear = {0.2f, 0.5f, 0.3f, 1}}, rec_glass, &s, W * H / 4,
                     "demo glass");
    mesh_free(&s.m);
}

typedef struct overlay_scene {
    twin_pipes p;
    float pts[60][2];
    uint32_t n;
} overlay_scene;

static void rec_overlay(tr_context *c, int spirv, void *user)
{
    overlay_scene *s = user;
    REC(tr_cmd_bind_pipeline(c, s->p.p[spirv]));
    REC(tr_cmd_bind_vertex_buffer(c, 0, s->pts, sizeof s->pts, 0));
    overlay_uniforms ou = {{1.0f, 1.0f, 1.0f, 0.45f}, (const float(*)[2])s->pts};
    REC(tr_cmd_set_uniforms(c, &ou, sizeof ou));
    REC(tr_cmd_draw(c, s->n / 2, 1, 0, 0));
    overlay_uniforms ou2 = {{1.0f, 0.85f, 0.1f, 0.8f}, (const float(*)[2])s->pts};
    REC(tr_cmd_set_uniforms(c, &ou2, sizeof ou2));
    REC(tr_cmd_draw(c, s->n - s->n / 2, 1, s->n / 2, 0));
}

Test(glsl_twins, demo_overlay)
{
    static overlay_scene s;
    /* ten overlapping rectangles in the demo's 1024 x 576 pixel space (clip = p / size * 2 - 1, so that space
       maps onto the whole 128 x 128 target), at fractional pixels */
    for (int k = 0; k < 10; k++) {
        const float x0 = 37.5f + 87.25f * (float)k, y0 = 11.0f + 51.5f * (float)k, x1 = x0 + 161.0f + 3.3f * (float)k,
                    y1 = y0 + 63.0f + 5.7f * (float)k;
        const float r[6][2] = {{x0, y0}, {x0, y1}, {x1, y0}, {x1, y0}, {x0, y1}, {x1, y1}};
        memcpy(s.pts[6 * k], r, sizeof r);
    }
    s.n = 60;
    tr_pipeline_desc d = {.vertex_shader = overlay_vs, .fragment_shader = overlay_fs,
                          .blend = {{.enable = 1, .src_color = TR_BLEND_SRC_ALPHA,
                                     .dst_color = TR_BLEND_ONE_MINUS_SRC_ALPHA, .src_alpha = TR_BLEND_ONE,
                                     .dst_alpha = TR_BLEND_ONE_MINUS_SRC_ALPHA}}};
    d.bindings[0] = (tr_vertex_binding){.stride = 8};
    d.attributes[0] = (tr_vertex_attribute){TR_VERTEX_FORMAT_R32G32_SFLOAT, 0, 0};
    s.p = pipes(ctx, &d, "shaders/demo/overlay.vert", "shaders/demo/overlay.frag");
    expect_identical(ctx, &(target){.clear = {0.1f, 0.2f, 0.3f, 1}}, rec_overlay, &s, W * H / 10, "demo overlay");
}

/* ==== bench/texture_bench.c ================================================================== */

typedef struct tb_vertex {
    float clip[4];
    float uv[2];
} tb_vertex;

/* bench/texture_bench.c: vs */
static void tb_vs(tr_vs_batch *b)
{
    const tb_vertex *v = *(const tb_vertex *const *)b->uniforms;
    for (uint32_t l = 0; l < b->count; l++) {
        const tb_vertex *x = &v[b->vertex_index[l]];
        for (int c = 0; c < 4; c++)
            b->position[c][l] = x->clip[c];
        b->varyings[0][0][l] = x->uv[0];
        b->varyings[0][1][l] = x->uv[1];
        b->varyings[0][2][l] = b->varyings[0][3][l] = 0.0f;
    }
}

/* bench/texture_bench.c: fs_uv */
static void tb_fs_uv(tr_fs_block *b)
{
    for (uint32_t l = 0; l < b->count; l++) {
        b->color[0][0][l] = b->varyings[0][0][l] - floorf(b->varyings[0][0][l]);
        b->color[0][1][l] = b->varyings[0][1][l] - floorf(b->varyings[0][1][l]);
        b->color[0][2][l] = 0.5f;
        b->color[0][3][l] = 1.0f;
    }
}

typedef struct tb_scene {
    twin_pipes p;
    tb_vertex v[6];
    const tr_image *tex;
    const tr_sampler *smp;
} tb_scene;

static void rec_tb(tr_context *c, int spirv, void *user)
{
    tb_scene *s = user;
    const tb_vertex *ptr = s->v;
    REC(tr_cmd_bind_pipeline(c, s->p.p[spirv]));
    if (s->tex)
        REC(tr_cmd_bind_texture(c, 0, s->tex, s->smp));
    REC(tr_cmd_set_uniforms(c, &ptr, sizeof ptr));
    REC(tr_cmd_bind_vertex_buffer(c, 0, s->v, sizeof s->v, 0));
    REC(tr_cmd_draw(c, 6, 1, 0, 0));
}

/* bench/texture_bench.c: make_plane (W / H of the bench's target: the same aspect here) */
static void tb_make_plane(tb_scene *s)
{
    const float corner[4][2] = {{-80, -0.5f}, {80, -0.5f}, {80, -400}, {-80, -400}};
    const int order[6] = {0, 1, 2, 0, 2, 3};
    for (int i = 0; i < 6; i++) {
        const float x = corner[order[i]][0], z = corner[order[i]][1];
        const float depth = -z;
        s->v[i].clip[0] = x;
        s->v[i].clip[1] = 0.2f * depth + (float)W / H;
        s->v[i].clip[2] = 0.5f * depth;
        s->v[i].clip[3] = depth;
        s->v[i].uv[0] = x * 0.2f;
        s->v[i].uv[1] = z * 0.2f;
    }
}

static void tb_layout(tr_pipeline_desc *d)
{
    d->bindings[0] = (tr_vertex_binding){.stride = sizeof(tb_vertex)};
    d->attributes[0] = (tr_vertex_attribute){TR_VERTEX_FORMAT_R32G32B32A32_SFLOAT, 0, 0};
    d->attributes[1] = (tr_vertex_attribute){TR_VERTEX_FORMAT_R32G32_SFLOAT, 0, 16};
}

Test(glsl_twins, texture_bench_uv)
{
    static tb_scene s;
    tb_make_plane(&s);
    tr_pipeline_desc d = {.vertex_shader = tb_vs, .fragment_shader = tb_fs_uv, .varying_count = 1,
                          .fs_flags = TR_FS_NO_FRAG_COORD};
    tb_layout(&d);
    s.p = pipes(ctx, &d, "shaders/bench/texture.vert", "shaders/bench/texture_uv.frag");
    expect_identical(ctx, &(target){.clear = {0, 0, 0, 0}}, rec_tb, &s, W * H / 3, "texture_bench fs_uv");
}

Test(glsl_twins, texture_bench_texture)
{
    static tb_scene s;
    tb_make_plane(&s);
    s.tex = texture(ctx, TR_FORMAT_R8G8B8A8_SRGB, 128, 5, 0);
    s.smp = trilinear(ctx, 4);
    tr_pipeline_desc d = {.vertex_shader = tb_vs, .fragment_shader = tex_fs, .varying_count = 1,
                          .fs_flags = TR_FS_NO_FRAG_COORD, .texture_mask = 1};
    tb_layout(&d);
    s.p = pipes(ctx, &d, "shaders/bench/texture.vert", "shaders/bench/texture.frag");
    expect_identical(ctx, &(target){.clear = {0, 0, 0, 0}}, rec_tb, &s, W * H / 3, "texture_bench fs_texture");
}

/* ==== the shader-heavy bench scene (bench/bench_heavy.c) ===================================== */

static void rec_heavy(tr_context *c, int spirv, void *user)
{
    REC(bench_heavy_draw(c, user, spirv != 0));
}

Test(glsl_twins, bench_heavy)
{
    bench_heavy *h = NULL;
    const tr_result r = bench_heavy_create(ctx, &h);
    cr_assert_eq(r, TR_OK, "bench_heavy_create: %s", tr_context_last_error(ctx));
    expect_identical(ctx, &(target){.w = 192, .h = 108, .depth = 1, .clear = {0, 0, 0, 1}}, rec_heavy, h,
                     192 * 108 * 3 / 4, "bench_heavy");
    bench_heavy_destroy(h);
}
