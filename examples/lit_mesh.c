/* lit_mesh: an indexed, lit, depth-tested mesh.
 *
 * A torus is generated in code (positions, normals, a 16-bit index buffer),
 * drawn with tr_cmd_draw_indexed through a perspective camera into a 640x480
 * RGBA8 image with a D32 depth buffer, and lit per fragment: ambient plus
 * Lambert diffuse from one directional light.  Writes lit_mesh.png or argv[1].
 *
 * tilerast has no vertex buffers: the vertex shader fetches its own inputs by
 * gl_VertexIndex, here through a pointer passed in the uniforms. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <tilerast/tilerast.h>

#define WIDTH 640
#define HEIGHT 480
#define PI 3.14159265358979f

/* ---- a little matrix maths (column-major, m[col * 4 + row]) ----------- */

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
    return (mat4){{
        t * x * x + c,     t * x * y + s * z, t * x * z - s * y, 0.0f,
        t * x * y - s * z, t * y * y + c,     t * y * z + s * x, 0.0f,
        t * x * z + s * y, t * y * z - s * x, t * z * z + c,     0.0f,
        0.0f,              0.0f,              0.0f,              1.0f }};
}

/* A right-handed view looking from eye to target, y up. */
static mat4 mat4_look_at(const float eye[3], const float target[3])
{
    float f[3] = {target[0] - eye[0], target[1] - eye[1], target[2] - eye[2]};
    float fl = sqrtf(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
    for (int i = 0; i < 3; i++) f[i] /= fl;
    float s[3] = {f[1] * 0.0f - f[2] * 1.0f, f[2] * 0.0f - f[0] * 0.0f, f[0] * 1.0f - f[1] * 0.0f};
    float sl = sqrtf(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
    for (int i = 0; i < 3; i++) s[i] /= sl;
    float u[3] = {s[1] * f[2] - s[2] * f[1], s[2] * f[0] - s[0] * f[2], s[0] * f[1] - s[1] * f[0]};
    return (mat4){{
        s[0], u[0], -f[0], 0.0f,
        s[1], u[1], -f[1], 0.0f,
        s[2], u[2], -f[2], 0.0f,
        -(s[0] * eye[0] + s[1] * eye[1] + s[2] * eye[2]),
        -(u[0] * eye[0] + u[1] * eye[1] + u[2] * eye[2]),
        f[0] * eye[0] + f[1] * eye[1] + f[2] * eye[2], 1.0f }};
}

/* Vulkan-style perspective: depth 0 at the near plane and 1 at the far
 * plane, and y flipped because the framebuffer's y points down. */
static mat4 mat4_perspective(float fovy, float aspect, float znear, float zfar)
{
    float f = 1.0f / tanf(fovy * 0.5f);
    return (mat4){{
        f / aspect, 0.0f, 0.0f, 0.0f,
        0.0f, -f, 0.0f, 0.0f,
        0.0f, 0.0f, zfar / (znear - zfar), -1.0f,
        0.0f, 0.0f, znear * zfar / (znear - zfar), 0.0f }};
}

/* ---- the mesh ----------------------------------------------------------- */

typedef struct vertex {
    float pos[3];
    float normal[3];
} vertex;

#define RING_SEGMENTS 64 /* around the torus' axis */
#define TUBE_SEGMENTS 32 /* around the tube */
#define VERTEX_COUNT ((RING_SEGMENTS + 1) * (TUBE_SEGMENTS + 1))
#define INDEX_COUNT (RING_SEGMENTS * TUBE_SEGMENTS * 6)

static vertex vertices[VERTEX_COUNT];
static uint16_t indices[INDEX_COUNT];

/* Torus around the y axis; triangles wound counter-clockwise seen from
 * outside, so back faces can be culled. */
static void make_torus(float ring_radius, float tube_radius)
{
    for (int i = 0; i <= RING_SEGMENTS; i++) {
        float u = 2.0f * PI * (float)i / RING_SEGMENTS;
        for (int j = 0; j <= TUBE_SEGMENTS; j++) {
            float v = 2.0f * PI * (float)j / TUBE_SEGMENTS;
            vertex *vx = &vertices[i * (TUBE_SEGMENTS + 1) + j];
            float n[3] = {cosf(v) * cosf(u), sinf(v), cosf(v) * sinf(u)};
            vx->normal[0] = n[0];
            vx->normal[1] = n[1];
            vx->normal[2] = n[2];
            vx->pos[0] = ring_radius * cosf(u) + tube_radius * n[0];
            vx->pos[1] = tube_radius * n[1];
            vx->pos[2] = ring_radius * sinf(u) + tube_radius * n[2];
        }
    }
    uint32_t k = 0;
    for (int i = 0; i < RING_SEGMENTS; i++)
        for (int j = 0; j < TUBE_SEGMENTS; j++) {
            uint16_t a = (uint16_t)(i * (TUBE_SEGMENTS + 1) + j);
            uint16_t b = (uint16_t)((i + 1) * (TUBE_SEGMENTS + 1) + j);
            uint16_t c = (uint16_t)(b + 1), d = (uint16_t)(a + 1);
            indices[k++] = a; indices[k++] = d; indices[k++] = b;
            indices[k++] = b; indices[k++] = d; indices[k++] = c;
        }
}

/* ---- shaders ------------------------------------------------------------ */

/* What both shaders read; tr_cmd_set_uniforms copies it for the draw. */
typedef struct uniforms {
    mat4 mvp;             /* object -> clip */
    mat4 model;           /* object -> world (a rotation: also the normal matrix) */
    float light_dir[4];   /* world space, unit, pointing towards the light */
    float base_color[4];
    float ambient;
    const vertex *verts;  /* read while the draw is recorded */
} uniforms;

/* varying 0: the world-space normal */
static void vertex_shader(tr_vs_batch *b)
{
    const uniforms *u = b->uniforms;
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

static void fragment_shader(tr_fs_block *b)
{
    const uniforms *u = b->uniforms;
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

/* ---- main --------------------------------------------------------------- */

#define CHECK(call)                                                              \
    do {                                                                         \
        tr_result r_ = (call);                                                   \
        if (r_ != TR_OK) {                                                       \
            fprintf(stderr, "lit_mesh: %s failed: %s (%s)\n", #call,             \
                    tr_result_string(r_), ctx ? tr_context_last_error(ctx) : ""); \
            goto fail;                                                           \
        }                                                                        \
    } while (0)

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "lit_mesh.png";
    tr_context *ctx = NULL;
    tr_image *color = NULL, *depth = NULL;
    tr_pipeline *pipeline = NULL;
    int status = EXIT_FAILURE;

    make_torus(1.0f, 0.4f);

    CHECK(tr_context_create(NULL, &ctx));
    CHECK(tr_image_create(ctx, &(tr_image_desc){
        .format = TR_FORMAT_R8G8B8A8_UNORM, .width = WIDTH, .height = HEIGHT }, &color));
    CHECK(tr_image_create(ctx, &(tr_image_desc){
        .format = TR_FORMAT_D32_SFLOAT, .width = WIDTH, .height = HEIGHT }, &depth));
    CHECK(tr_pipeline_create(ctx, &(tr_pipeline_desc){
        .vertex_shader = vertex_shader,
        .fragment_shader = fragment_shader,
        .varying_count = 1,
        .cull_mode = TR_CULL_BACK,       /* front faces are counter-clockwise */
        .depth_test = 1, .depth_write = 1 /* compare defaults to LESS */ }, &pipeline));

    const float eye[3] = {0.0f, 1.8f, 3.6f}, target[3] = {0.0f, 0.0f, 0.0f};
    mat4 model = mat4_mul(mat4_rotate(0.5f, 0.0f, 1.0f, 0.0f), mat4_rotate(0.6f, 1.0f, 0.0f, 0.0f));
    mat4 view_proj = mat4_mul(mat4_perspective(45.0f * PI / 180.0f, (float)WIDTH / HEIGHT, 0.1f, 20.0f),
                              mat4_look_at(eye, target));
    uniforms u = {
        .mvp = mat4_mul(view_proj, model),
        .model = model,
        .light_dir = {0.408f, 0.816f, 0.408f, 0.0f}, /* normalize(1, 2, 1) */
        .base_color = {0.95f, 0.55f, 0.15f, 1.0f},
        .ambient = 0.15f,
        .verts = vertices,
    };

    tr_pass_stats stats;
    CHECK(tr_cmd_begin_render_pass(ctx, &(tr_render_pass_desc){
        .color = {{ .image = color, .load_op = TR_LOAD_OP_CLEAR,
                    .clear_color = {0.08f, 0.09f, 0.12f, 1.0f} }},
        .color_count = 1,
        .depth = { .image = depth, .depth_load_op = TR_LOAD_OP_CLEAR, .clear_depth = 1.0f,
                   .depth_store_op = TR_STORE_OP_DONT_CARE } }));
    CHECK(tr_cmd_bind_pipeline(ctx, pipeline));
    CHECK(tr_cmd_set_uniforms(ctx, &u, sizeof u));
    CHECK(tr_cmd_bind_index_buffer(ctx, indices, sizeof indices, 0, TR_INDEX_U16));
    CHECK(tr_cmd_draw_indexed(ctx, INDEX_COUNT, 1, 0, 0, 0));
    CHECK(tr_cmd_end_render_pass(ctx, &stats));

    CHECK(tr_image_write_png(color, NULL, path));
    printf("lit_mesh: %u triangles in, %llu binned into %u bins (%ux%u px each), "
           "%llu fragments shaded; wrote %s\n",
           INDEX_COUNT / 3, (unsigned long long)stats.primitives_binned, stats.bins,
           stats.layout.bin_w, stats.layout.bin_h,
           (unsigned long long)stats.fragments_shaded, path);
    status = EXIT_SUCCESS;
fail:
    if (ctx) tr_context_destroy(ctx); /* frees the images and the pipeline too */
    return status;
}
