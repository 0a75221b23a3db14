/* demo: one picture that shows what tilerast does.
 *
 * Pass 1 clears colour and depth, draws a sky gradient, a checkered floor and
 * three lit meshes (torus, UV sphere, cube: indexed, depth-tested,
 * back-face-culled, Lambert + ambient + Blinn-Phong specular), then a
 * translucent pane of glass in front of them with alpha blending.  Pass 2
 * LOADs the result and draws the tiler's own bin grid over it, read from the
 * first pass's statistics: thin white lines between bins, yellow lines
 * between VSC pipes.  The GMEM budget is set small so that the grid has
 * enough bins to see.  Writes argv[1] (default demo.png) and prints the
 * statistics a tiler model reports. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tilerast/tilerast.h>

#define WIDTH 1024
#define HEIGHT 576
#define PI 3.14159265358979f

/* ---- matrix maths (column-major, m[col * 4 + row]) --------------------- */

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

static mat4 mat4_translate_scale(float x, float y, float z, float s)
{
    return (mat4){{ s, 0, 0, 0,  0, s, 0, 0,  0, 0, s, 0,  x, y, z, 1 }};
}

static mat4 mat4_rotate(float angle, float x, float y, float z)
{
    float c = cosf(angle), s = sinf(angle), t = 1.0f - c;
    return (mat4){{
        t * x * x + c,     t * x * y + s * z, t * x * z - s * y, 0.0f,
        t * x * y - s * z, t * y * y + c,     t * y * z + s * x, 0.0f,
        t * x * z + s * y, t * y * z - s * x, t * z * z + c,     0.0f,
        0.0f,              0.0f,              0.0f,              1.0f }};
}

static void cross3(const float a[3], const float b[3], float out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

static void normalize3(float v[3])
{
    float l = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    v[0] /= l; v[1] /= l; v[2] /= l;
}

/* A right-handed view looking from eye to target, y up. */
static mat4 mat4_look_at(const float eye[3], const float target[3])
{
    const float up[3] = {0.0f, 1.0f, 0.0f};
    float f[3] = {target[0] - eye[0], target[1] - eye[1], target[2] - eye[2]}, s[3], u[3];
    normalize3(f);
    cross3(f, up, s);
    normalize3(s);
    cross3(s, f, u);
    return (mat4){{
        s[0], u[0], -f[0], 0.0f,
        s[1], u[1], -f[1], 0.0f,
        s[2], u[2], -f[2], 0.0f,
        -(s[0] * eye[0] + s[1] * eye[1] + s[2] * eye[2]),
        -(u[0] * eye[0] + u[1] * eye[1] + u[2] * eye[2]),
        f[0] * eye[0] + f[1] * eye[1] + f[2] * eye[2], 1.0f }};
}

/* Vulkan-style perspective: depth 0..1 from near to far, y flipped because
 * the framebuffer's y points down. */
static mat4 mat4_perspective(float fovy, float aspect, float znear, float zfar)
{
    float f = 1.0f / tanf(fovy * 0.5f);
    return (mat4){{
        f / aspect, 0.0f, 0.0f, 0.0f,
        0.0f, -f, 0.0f, 0.0f,
        0.0f, 0.0f, zfar / (znear - zfar), -1.0f,
        0.0f, 0.0f, znear * zfar / (znear - zfar), 0.0f }};
}

/* ---- meshes --------------------------------------------------------------- */

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

static int mesh_alloc(mesh *m, uint32_t vertex_count, uint32_t index_count)
{
    m->verts = calloc(vertex_count, sizeof *m->verts);
    m->indices = calloc(index_count, sizeof *m->indices);
    m->vertex_count = vertex_count;
    m->index_count = index_count;
    return m->verts && m->indices;
}

static void mesh_free(mesh *m)
{
    free(m->verts);
    free(m->indices);
}

/* Indices for a (rows+1) x (cols+1) vertex grid, wound counter-clockwise
 * seen from the side d(col) x d(row) points to. */
static void grid_indices(mesh *m, uint32_t rows, uint32_t cols)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < rows; i++)
        for (uint32_t j = 0; j < cols; j++) {
            uint32_t a = i * (cols + 1) + j, b = a + cols + 1;
            m->indices[k++] = a; m->indices[k++] = a + 1; m->indices[k++] = b;
            m->indices[k++] = b; m->indices[k++] = a + 1; m->indices[k++] = b + 1;
        }
}

static int make_torus(mesh *m, float ring, float tube, uint32_t rings, uint32_t sides)
{
    if (!mesh_alloc(m, (rings + 1) * (sides + 1), rings * sides * 6))
        return 0;
    for (uint32_t i = 0; i <= rings; i++) {
        float u = 2.0f * PI * (float)i / (float)rings;
        for (uint32_t j = 0; j <= sides; j++) {
            float v = 2.0f * PI * (float)j / (float)sides;
            vertex *vx = &m->verts[i * (sides + 1) + j];
            float n[3] = {cosf(v) * cosf(u), sinf(v), cosf(v) * sinf(u)};
            memcpy(vx->normal, n, sizeof n);
            vx->pos[0] = ring * cosf(u) + tube * n[0];
            vx->pos[1] = tube * n[1];
            vx->pos[2] = ring * sinf(u) + tube * n[2];
            vx->uv[0] = (float)i / (float)rings;
            vx->uv[1] = (float)j / (float)sides;
        }
    }
    grid_indices(m, rings, sides);
    return 1;
}

/* Unit UV sphere: rows are stacks from the north pole, columns slices. */
static int make_sphere(mesh *m, uint32_t stacks, uint32_t slices)
{
    if (!mesh_alloc(m, (stacks + 1) * (slices + 1), stacks * slices * 6))
        return 0;
    for (uint32_t i = 0; i <= stacks; i++) {
        float theta = PI * (float)i / (float)stacks;
        for (uint32_t j = 0; j <= slices; j++) {
            float phi = 2.0f * PI * (float)j / (float)slices;
            vertex *vx = &m->verts[i * (slices + 1) + j];
            float n[3] = {sinf(theta) * cosf(phi), cosf(theta), sinf(theta) * sinf(phi)};
            memcpy(vx->normal, n, sizeof n);
            memcpy(vx->pos, n, sizeof n);
            vx->uv[0] = (float)j / (float)slices;
            vx->uv[1] = (float)i / (float)stacks;
        }
    }
    grid_indices(m, stacks, slices);
    return 1;
}

/* Appends a quad facing n, centred on c, spanning +-hu along u and +-hv
 * along n x u; counter-clockwise seen from the n side. */
static void add_quad(mesh *m, uint32_t *vi, uint32_t *ii, const float c[3], const float n[3],
                     const float u[3], float hu, float hv)
{
    float v[3];
    cross3(n, u, v);
    static const float corner[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    for (int k = 0; k < 4; k++) {
        vertex *vx = &m->verts[*vi + (uint32_t)k];
        for (int a = 0; a < 3; a++) {
            vx->pos[a] = c[a] + corner[k][0] * hu * u[a] + corner[k][1] * hv * v[a];
            vx->normal[a] = n[a];
        }
        vx->uv[0] = 0.5f + 0.5f * corner[k][0];
        vx->uv[1] = 0.5f - 0.5f * corner[k][1];
    }
    static const uint32_t quad[6] = {0, 1, 2, 0, 2, 3};
    for (int k = 0; k < 6; k++)
        m->indices[*ii + (uint32_t)k] = *vi + quad[k];
    *vi += 4;
    *ii += 6;
}

static int make_cube(mesh *m)
{
    static const float faces[6][2][3] = { /* normal, u */
        {{ 1, 0, 0}, {0, 0, -1}}, {{-1, 0, 0}, {0, 0, 1}},
        {{ 0, 1, 0}, {1, 0, 0}},  {{ 0, -1, 0}, {1, 0, 0}},
        {{ 0, 0, 1}, {1, 0, 0}},  {{ 0, 0, -1}, {-1, 0, 0}},
    };
    if (!mesh_alloc(m, 24, 36))
        return 0;
    uint32_t vi = 0, ii = 0;
    for (int f = 0; f < 6; f++)
        add_quad(m, &vi, &ii, faces[f][0], faces[f][0], faces[f][1], 1.0f, 1.0f);
    return 1;
}

static int make_quad(mesh *m, const float c[3], const float n[3], const float u[3], float hu, float hv)
{
    if (!mesh_alloc(m, 4, 6))
        return 0;
    uint32_t vi = 0, ii = 0;
    add_quad(m, &vi, &ii, c, n, u, hu, hv);
    return 1;
}

/* ---- shaders -------------------------------------------------------------- */

/* Uniforms of a mesh draw (copied by tr_cmd_set_uniforms). */
typedef struct mesh_uniforms {
    mat4 mvp;            /* object -> clip */
    mat4 model;          /* object -> world: rotation, translation, uniform scale */
    float eye[4];        /* camera position, world space */
    float light_dir[4];  /* unit, towards the light */
    float color[4];      /* base colour; alpha used by the glass */
    float ambient, specular, shininess;
    int checker;         /* 1: a checkerboard in world x/z instead of the base colour */
    const vertex *verts; /* fetched by gl_VertexIndex while the draw is recorded */
} mesh_uniforms;

/* varyings: 0 = world normal, 1 = world position, 2 = uv */
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

/* Ambient + Lambert diffuse + Blinn-Phong specular, one directional light. */
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

/* The glass: base colour, more opaque towards the bottom, a bright rim. */
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

/* A full-screen triangle: vertices at clip (-1,-1), (3,-1), (-1,3). */
static void sky_vs(tr_vs_batch *b)
{
    for (uint32_t i = 0; i < b->count; i++) {
        uint32_t v = b->vertex_index[i];
        float x = v == 1 ? 3.0f : -1.0f, y = v == 2 ? 3.0f : -1.0f;
        b->position[0][i] = x;
        b->position[1][i] = y;
        b->position[2][i] = 1.0f;
        b->position[3][i] = 1.0f;
        b->varyings[0][0][i] = 0.5f * (y + 1.0f); /* 0 at the top row, 1 at the bottom */
        b->varyings[0][1][i] = b->varyings[0][2][i] = b->varyings[0][3][i] = 0.0f;
    }
}

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

/* The overlay: 2D rectangles in pixels, one flat colour per draw. */
typedef struct overlay_uniforms {
    float color[4];
    const float (*pts)[2]; /* pixel coordinates, 6 per rectangle */
} overlay_uniforms;

static void overlay_vs(tr_vs_batch *b)
{
    const overlay_uniforms *u = b->uniforms;
    for (uint32_t i = 0; i < b->count; i++) {
        const float *p = u->pts[b->vertex_index[i]];
        b->position[0][i] = p[0] / (float)WIDTH * 2.0f - 1.0f;
        b->position[1][i] = p[1] / (float)HEIGHT * 2.0f - 1.0f; /* y down, as the framebuffer */
        b->position[2][i] = 0.0f;
        b->position[3][i] = 1.0f;
    }
}

static void overlay_fs(tr_fs_block *b)
{
    const overlay_uniforms *u = b->uniforms;
    for (int a = 0; a < 4; a++)
        for (uint32_t i = 0; i < b->count; i++)
            b->color[0][a][i] = u->color[a];
}

/* Appends the two triangles of the rectangle [x0,x1) x [y0,y1). */
static uint32_t add_rect(float (*pts)[2], uint32_t n, float x0, float y0, float x1, float y1)
{
    const float r[6][2] = {{x0, y0}, {x0, y1}, {x1, y0}, {x1, y0}, {x0, y1}, {x1, y1}};
    memcpy(pts[n], r, sizeof r);
    return n + 6;
}

/* ---- main ---------------------------------------------------------------- */

#define CHECK(call)                                                              \
    do {                                                                         \
        tr_result r_ = (call);                                                   \
        if (r_ != TR_OK) {                                                       \
            fprintf(stderr, "demo: %s failed: %s (%s)\n", #call,                 \
                    tr_result_string(r_), ctx ? tr_context_last_error(ctx) : ""); \
            goto fail;                                                           \
        }                                                                        \
    } while (0)

typedef struct object {
    const mesh *mesh;
    mat4 model;
    float color[4];
    float specular, shininess;
    int checker;
} object;

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "demo.png";
    tr_context *ctx = NULL;
    tr_image *color = NULL, *depth = NULL;
    tr_pipeline *sky = NULL, *lit = NULL, *glass = NULL, *overlay = NULL;
    mesh torus = {0}, sphere = {0}, cube = {0}, floor_quad = {0}, pane = {0};
    float (*lines)[2] = NULL;
    int status = EXIT_FAILURE;

    static const float up[3] = {0, 1, 0}, toward[3] = {0, 0, 1}, xaxis[3] = {1, 0, 0};
    if (!make_torus(&torus, 0.75f, 0.3f, 64, 32) || !make_sphere(&sphere, 48, 64) ||
        !make_cube(&cube) ||
        !make_quad(&floor_quad, (const float[3]){0.0f, -1.0f, -2.0f}, up, xaxis, 9.0f, 7.0f) ||
        !make_quad(&pane, (const float[3]){-0.7f, 0.2f, 1.6f}, toward, xaxis, 1.3f, 0.85f)) {
        fprintf(stderr, "demo: out of memory\n");
        goto fail;
    }

    /* A small GMEM budget (64 KiB per tile, where an a630 has 1 MiB) so that
     * the picture has a grid of bins and pipes worth showing; the image is
     * the same for any budget. */
    CHECK(tr_context_create(&(tr_context_desc){ .gmem_bytes = 64u * 1024u }, &ctx));
    CHECK(tr_image_create(ctx, &(tr_image_desc){
        .format = TR_FORMAT_R8G8B8A8_UNORM, .width = WIDTH, .height = HEIGHT }, &color));
    CHECK(tr_image_create(ctx, &(tr_image_desc){
        .format = TR_FORMAT_D32_SFLOAT, .width = WIDTH, .height = HEIGHT }, &depth));

    CHECK(tr_pipeline_create(ctx, &(tr_pipeline_desc){
        .vertex_shader = sky_vs, .fragment_shader = sky_fs, .varying_count = 1 }, &sky));
    CHECK(tr_pipeline_create(ctx, &(tr_pipeline_desc){
        .vertex_shader = mesh_vs, .fragment_shader = mesh_fs, .varying_count = 3,
        .cull_mode = TR_CULL_BACK, .depth_test = 1, .depth_write = 1 }, &lit));
    CHECK(tr_pipeline_create(ctx, &(tr_pipeline_desc){
        .vertex_shader = mesh_vs, .fragment_shader = glass_fs, .varying_count = 3,
        .depth_test = 1, .depth_write = 0, /* tested against the meshes, hides nothing */
        .blend = {{ .enable = 1,
                    .src_color = TR_BLEND_SRC_ALPHA, .dst_color = TR_BLEND_ONE_MINUS_SRC_ALPHA,
                    .src_alpha = TR_BLEND_ONE, .dst_alpha = TR_BLEND_ONE_MINUS_SRC_ALPHA }} }, &glass));
    CHECK(tr_pipeline_create(ctx, &(tr_pipeline_desc){
        .vertex_shader = overlay_vs, .fragment_shader = overlay_fs,
        .blend = {{ .enable = 1,
                    .src_color = TR_BLEND_SRC_ALPHA, .dst_color = TR_BLEND_ONE_MINUS_SRC_ALPHA,
                    .src_alpha = TR_BLEND_ONE, .dst_alpha = TR_BLEND_ONE_MINUS_SRC_ALPHA }} }, &overlay));

    const float eye[3] = {0.0f, 2.2f, 6.5f}, target[3] = {0.0f, 0.0f, 0.0f};
    mat4 view_proj = mat4_mul(mat4_perspective(40.0f * PI / 180.0f, (float)WIDTH / HEIGHT, 0.5f, 40.0f),
                              mat4_look_at(eye, target));
    float light_dir[3] = {-0.5f, 1.0f, 0.7f};
    normalize3(light_dir);

    /* The floor goes last, so that the depth test has work to do (see the
     * depth-rejected count). */
    const object objects[] = {
        { &torus, mat4_mul(mat4_translate_scale(-2.4f, 0.0f, 0.3f, 1),
                           mat4_mul(mat4_rotate(0.5f, 0, 1, 0), mat4_rotate(1.1f, 1, 0, 0))),
          {0.95f, 0.50f, 0.12f, 1}, 0.5f, 32.0f, 0 },
        { &sphere, mat4_translate_scale(0.0f, 0.0f, -0.6f, 1), {0.25f, 0.45f, 0.95f, 1}, 0.6f, 64.0f, 0 },
        { &cube, mat4_mul(mat4_translate_scale(2.4f, -0.35f, 0.2f, 0.65f), mat4_rotate(0.6f, 0, 1, 0)),
          {0.30f, 0.80f, 0.35f, 1}, 0.25f, 16.0f, 0 },
        { &floor_quad, mat4_translate_scale(0, 0, 0, 1), {0.85f, 0.85f, 0.8f, 1}, 0.0f, 1.0f, 1 },
    };

    /* ---- pass 1: the scene ---- */
    tr_pass_stats stats;
    CHECK(tr_cmd_begin_render_pass(ctx, &(tr_render_pass_desc){
        .color = {{ .image = color, .load_op = TR_LOAD_OP_CLEAR, .store_op = TR_STORE_OP_STORE,
                    .clear_color = {0, 0, 0, 1} }},
        .color_count = 1,
        .depth = { .image = depth, .depth_load_op = TR_LOAD_OP_CLEAR, .clear_depth = 1.0f,
                   .depth_store_op = TR_STORE_OP_DONT_CARE } }));

    CHECK(tr_cmd_bind_pipeline(ctx, sky));
    CHECK(tr_cmd_draw(ctx, 3, 1, 0, 0));

    CHECK(tr_cmd_bind_pipeline(ctx, lit));
    for (size_t k = 0; k < sizeof objects / sizeof objects[0]; k++) {
        const object *o = &objects[k];
        mesh_uniforms u = {
            .mvp = mat4_mul(view_proj, o->model), .model = o->model,
            .eye = {eye[0], eye[1], eye[2], 1}, .light_dir = {light_dir[0], light_dir[1], light_dir[2], 0},
            .color = {o->color[0], o->color[1], o->color[2], o->color[3]},
            .ambient = 0.18f, .specular = o->specular, .shininess = o->shininess,
            .checker = o->checker, .verts = o->mesh->verts };
        CHECK(tr_cmd_set_uniforms(ctx, &u, sizeof u));
        CHECK(tr_cmd_bind_index_buffer(ctx, o->mesh->indices, o->mesh->index_count * sizeof(uint32_t), 0,
                                       TR_INDEX_U32));
        CHECK(tr_cmd_draw_indexed(ctx, o->mesh->index_count, 1, 0, 0, 0));
    }

    CHECK(tr_cmd_bind_pipeline(ctx, glass));
    mesh_uniforms gu = {
        .mvp = view_proj, .model = mat4_translate_scale(0, 0, 0, 1),
        .color = {0.85f, 0.15f, 0.35f, 0.45f}, .verts = pane.verts };
    CHECK(tr_cmd_set_uniforms(ctx, &gu, sizeof gu));
    CHECK(tr_cmd_bind_index_buffer(ctx, pane.indices, pane.index_count * sizeof(uint32_t), 0, TR_INDEX_U32));
    CHECK(tr_cmd_draw_indexed(ctx, pane.index_count, 1, 0, 0, 0));
    CHECK(tr_cmd_end_render_pass(ctx, &stats));

    /* ---- pass 2: LOAD the picture and draw the bin grid over it ---- */
    const tr_bin_layout *L = &stats.layout;
    uint32_t max_rects = L->bins_x + L->bins_y + 2;
    lines = calloc((size_t)max_rects * 6, sizeof *lines);
    if (!lines) {
        fprintf(stderr, "demo: out of memory\n");
        goto fail;
    }
    uint32_t nbin = 0, npipe;
    for (uint32_t x = 1; x < L->bins_x; x++) /* bin edges that are not pipe edges first */
        if (L->pipe_w == 0 || x % L->pipe_w) {
            float px = (float)L->origin_x + (float)(x * L->bin_w);
            nbin = add_rect(lines, nbin, px, 0.0f, px + 1.0f, (float)HEIGHT);
        }
    for (uint32_t y = 1; y < L->bins_y; y++)
        if (L->pipe_h == 0 || y % L->pipe_h) {
            float py = (float)L->origin_y + (float)(y * L->bin_h);
            nbin = add_rect(lines, nbin, 0.0f, py, (float)WIDTH, py + 1.0f);
        }
    npipe = nbin;
    for (uint32_t x = L->pipe_w; L->pipe_w && x < L->bins_x; x += L->pipe_w) {
        float px = (float)L->origin_x + (float)(x * L->bin_w);
        npipe = add_rect(lines, npipe, px - 1.0f, 0.0f, px + 1.0f, (float)HEIGHT);
    }
    for (uint32_t y = L->pipe_h; L->pipe_h && y < L->bins_y; y += L->pipe_h) {
        float py = (float)L->origin_y + (float)(y * L->bin_h);
        npipe = add_rect(lines, npipe, 0.0f, py - 1.0f, (float)WIDTH, py + 1.0f);
    }

    tr_pass_stats stats2;
    CHECK(tr_cmd_begin_render_pass(ctx, &(tr_render_pass_desc){
        .color = {{ .image = color, .load_op = TR_LOAD_OP_LOAD, .store_op = TR_STORE_OP_STORE }},
        .color_count = 1 }));
    CHECK(tr_cmd_bind_pipeline(ctx, overlay));
    if (nbin) {
        overlay_uniforms ou = { {1.0f, 1.0f, 1.0f, 0.45f}, (const float (*)[2])lines };
        CHECK(tr_cmd_set_uniforms(ctx, &ou, sizeof ou));
        CHECK(tr_cmd_draw(ctx, nbin, 1, 0, 0));
    }
    if (npipe > nbin) {
        overlay_uniforms ou = { {1.0f, 0.85f, 0.1f, 0.8f}, (const float (*)[2])lines };
        CHECK(tr_cmd_set_uniforms(ctx, &ou, sizeof ou));
        CHECK(tr_cmd_draw(ctx, npipe - nbin, 1, nbin, 0));
    }
    CHECK(tr_cmd_end_render_pass(ctx, &stats2));

    CHECK(tr_image_write_png(color, NULL, path));

    printf("demo: %ux%u, bins %ux%u of %ux%u px in %u VSC pipes (%ux%u bins each)\n",
           WIDTH, HEIGHT, L->bins_x, L->bins_y, L->bin_w, L->bin_h, stats.pipes, L->pipe_w, L->pipe_h);
    printf("pass 1: %llu draws, %llu triangles in, %llu culled, %llu clipped, %llu binned "
           "(%llu bin references, %llu visibility-stream bytes)\n",
           (unsigned long long)stats.draws, (unsigned long long)stats.primitives_in,
           (unsigned long long)stats.primitives_culled, (unsigned long long)stats.primitives_clipped,
           (unsigned long long)stats.primitives_binned, (unsigned long long)stats.bin_primitive_refs,
           (unsigned long long)stats.visibility_stream_bytes);
    printf("        %llu fragments rasterized, %llu depth-rejected, %llu shaded, %llu written\n",
           (unsigned long long)stats.fragments_rasterized,
           (unsigned long long)stats.fragments_depth_rejected,
           (unsigned long long)stats.fragments_shaded, (unsigned long long)stats.fragments_written);
    printf("        GMEM: %llu bytes cleared, %llu loaded, %llu stored; "
           "%.2f ms vertex, %.2f ms binning, %.2f ms render\n",
           (unsigned long long)stats.gmem_bytes_cleared, (unsigned long long)stats.gmem_bytes_loaded,
           (unsigned long long)stats.gmem_bytes_stored, stats.ms_vertex, stats.ms_binning,
           stats.ms_render);
    printf("pass 2 (LOAD): %llu GMEM bytes loaded, %llu stored, %.2f ms render\n",
           (unsigned long long)stats2.gmem_bytes_loaded, (unsigned long long)stats2.gmem_bytes_stored,
           stats2.ms_render);
    printf("demo: wrote %s\n", path);
    status = EXIT_SUCCESS;
fail:
    if (ctx) tr_context_destroy(ctx); /* frees images and pipelines */
    free(lines);
    mesh_free(&torus);
    mesh_free(&sphere);
    mesh_free(&cube);
    mesh_free(&floor_quad);
    mesh_free(&pane);
    return status;
}
