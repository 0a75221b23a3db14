/* fdm_foveated: foveated stereo rendering with a fragment density map.
 *
 * Two views (a left and a right eye, view_mask 0b11) of a lit, textured
 * scene -- five tori standing on a checkered ground plane -- are rendered
 * into the two layers of a 1920x1080 colour + depth attachment, once with a
 * fragment density map and once without.  The map (R8G8_UNORM, one layer
 * per view) is dense at each eye's lens centre and falls off radially to a
 * quarter of the rate at the edges, as a VR compositor's foveation map
 * does: tilerast then shades the outer bins at 2x2 or 4x4 pixels per
 * fragment (fdm.h).  Writes (argv[1] or fdm_foveated.png):
 *   fdm_foveated.png           the FDM render, left and right eye side by side;
 *   fdm_foveated_overlay.png   the same with each bin's fragment area drawn
 *                              over it (tr_fdm_write_png of each view);
 *   fdm_foveated_gaze_<k>.png  k = 0..GAZE_FRAMES-1: the left eye's overlay as
 *                              the gaze moves right and down, the density
 *                              map following it through FDM offsets
 *                              (VK_EXT_fragment_density_map_offset): the bin
 *                              grid slides with the map, so each bin's area
 *                              moves with the gaze instead of jumping a whole
 *                              bin at a time;
 * and prints what FDM saved: fragments shaded and GMEM bytes stored, with
 * and without, and per gaze frame its offset and bin offset b_o. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tilerast/tilerast.h>

#define WIDTH 1920
#define HEIGHT 1080
#define VIEWS 2
#define EYE_SEPARATION 0.3f /* world units between the eyes (exaggerated for the picture) */
#define TEX_SIZE 256
#define CHECKS 8
#define GAZE_FRAMES 5
#define GAZE_STEP_X 40 /* pixels the gaze moves per frame: multiples of the offset granularity, 8 */
#define GAZE_STEP_Y 16
/* A density-map texel covers 32x32 framebuffer pixels: turnip's smallest
 * texel, which a map of ceil(size / 32) texels per axis gets (fdm.h). */
#define MAP_TEXEL 32
#define MAP_W ((WIDTH + MAP_TEXEL - 1) / MAP_TEXEL)   /* 60 */
#define MAP_H ((HEIGHT + MAP_TEXEL - 1) / MAP_TEXEL)  /* 34 */
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

static mat4 mat4_translate(float x, float y, float z)
{
    return (mat4){{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1}};
}

/* A right-handed view looking from eye to target, y up. */
static mat4 mat4_look_at(const float eye[3], const float target[3])
{
    float f[3] = {target[0] - eye[0], target[1] - eye[1], target[2] - eye[2]};
    float fl = sqrtf(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
    for (int i = 0; i < 3; i++) f[i] /= fl;
    float s[3] = {-f[2], 0.0f, f[0]}; /* f x (0, 1, 0) */
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

/* ---- the meshes: a torus and the ground, one vertex layout ------------- */

typedef struct vertex {
    float pos[3];
    float normal[3];
    float uv[2];
} vertex;

#define RING_SEGMENTS 64
#define TUBE_SEGMENTS 32
#define TORUS_VERTICES ((RING_SEGMENTS + 1) * (TUBE_SEGMENTS + 1))
#define TORUS_INDICES (RING_SEGMENTS * TUBE_SEGMENTS * 6)
#define GROUND_HALF 40.0f /* the ground spans x and z in [-40, 40] */

static vertex torus_vertices[TORUS_VERTICES];
static uint16_t torus_indices[TORUS_INDICES];
static vertex ground_vertices[4];
static const uint16_t ground_indices[6] = {0, 2, 1, 0, 3, 2};

/* A torus around the y axis, counter-clockwise seen from outside; the
 * texture wraps 8 times around the ring and twice around the tube. */
static void make_torus(float ring_radius, float tube_radius)
{
    for (int i = 0; i <= RING_SEGMENTS; i++) {
        float u = 2.0f * PI * (float)i / RING_SEGMENTS;
        for (int j = 0; j <= TUBE_SEGMENTS; j++) {
            float v = 2.0f * PI * (float)j / TUBE_SEGMENTS;
            vertex *vx = &torus_vertices[i * (TUBE_SEGMENTS + 1) + j];
            float n[3] = {cosf(v) * cosf(u), sinf(v), cosf(v) * sinf(u)};
            for (int c = 0; c < 3; c++)
                vx->normal[c] = n[c];
            vx->pos[0] = ring_radius * cosf(u) + tube_radius * n[0];
            vx->pos[1] = tube_radius * n[1];
            vx->pos[2] = ring_radius * sinf(u) + tube_radius * n[2];
            vx->uv[0] = 8.0f * (float)i / RING_SEGMENTS;
            vx->uv[1] = 2.0f * (float)j / TUBE_SEGMENTS;
        }
    }
    uint32_t k = 0;
    for (int i = 0; i < RING_SEGMENTS; i++)
        for (int j = 0; j < TUBE_SEGMENTS; j++) {
            uint16_t a = (uint16_t)(i * (TUBE_SEGMENTS + 1) + j);
            uint16_t b = (uint16_t)((i + 1) * (TUBE_SEGMENTS + 1) + j);
            uint16_t c = (uint16_t)(b + 1), d = (uint16_t)(a + 1);
            torus_indices[k++] = a; torus_indices[k++] = d; torus_indices[k++] = b;
            torus_indices[k++] = b; torus_indices[k++] = d; torus_indices[k++] = c;
        }
}

/* The ground: y = 0, facing up, one texture repeat per world unit. */
static void make_ground(void)
{
    static const float corners[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    for (int i = 0; i < 4; i++) {
        vertex *v = &ground_vertices[i];
        v->pos[0] = corners[i][0] * GROUND_HALF;
        v->pos[1] = 0.0f;
        v->pos[2] = corners[i][1] * GROUND_HALF;
        v->normal[0] = 0.0f, v->normal[1] = 1.0f, v->normal[2] = 0.0f;
        v->uv[0] = v->pos[0];
        v->uv[1] = v->pos[2];
    }
}

/* ---- the texture: checks with grid lines, sRGB, full mip chain -------- */

static uint8_t texels[TEX_SIZE * TEX_SIZE * 4];

static void make_texture(void)
{
    const int cell = TEX_SIZE / CHECKS;
    for (int y = 0; y < TEX_SIZE; y++)
        for (int x = 0; x < TEX_SIZE; x++) {
            static const uint8_t light[3] = {235, 228, 210}, dark[3] = {70, 90, 120}, line[3] = {25, 25, 30};
            const uint8_t *c = ((x / cell + y / cell) & 1) ? dark : light;
            if (x % cell == 0 || y % cell == 0)
                c = line;
            uint8_t *t = &texels[(y * TEX_SIZE + x) * 4];
            t[0] = c[0], t[1] = c[1], t[2] = c[2], t[3] = 255;
        }
}

/* ---- the density map ----------------------------------------------------
 *
 * One layer per view.  Each eye's lens centre sits a little towards the
 * nose (x = 54% of the width for the left eye, 46% for the right, half the
 * height).  At a texel centre p, r is the distance to that centre with x
 * measured in half widths and y in half heights; the density (both
 * channels) is 255 up to r = 0.25, then falls linearly to 63 at r = 1 and
 * stays there.  255 shades every pixel; 170 (r about 0.6) gives 1x2-pixel
 * fragments, 127 2x2, 85 2x4 and 63 4x4 (fdm.h's rule). */
static uint8_t density_texels[VIEWS][MAP_H][MAP_W][2];

static void make_density_map(void)
{
    for (int v = 0; v < VIEWS; v++) {
        const float cx = (v == 0 ? 0.54f : 0.46f) * WIDTH, cy = 0.5f * HEIGHT;
        for (int j = 0; j < MAP_H; j++)
            for (int i = 0; i < MAP_W; i++) {
                float dx = ((float)i + 0.5f) * MAP_TEXEL - cx, dy = ((float)j + 0.5f) * MAP_TEXEL - cy;
                dx /= 0.5f * WIDTH;
                dy /= 0.5f * HEIGHT;
                float r = sqrtf(dx * dx + dy * dy);
                float t = (r - 0.25f) / 0.75f;
                t = t < 0.0f ? 0.0f : t > 1.0f ? 1.0f : t;
                uint8_t d = (uint8_t)lrintf(255.0f - (255.0f - 63.0f) * t);
                density_texels[v][j][i][0] = d;
                density_texels[v][j][i][1] = d;
            }
    }
}

/* ---- shaders ------------------------------------------------------------ */

typedef struct uniforms {
    mat4 view_proj[VIEWS]; /* world -> clip, per eye */
    mat4 model;            /* object -> world (rotation and translation) */
    float light_dir[4];    /* world space, unit, towards the light */
    float tint[4];
    float ambient;
    const vertex *verts;   /* read while the draw is recorded */
} uniforms;

/* varying 0: world-space normal; varying 1: texture coordinates. */
static void vertex_shader(tr_vs_batch *b)
{
    const uniforms *u = b->uniforms;
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

/* The texture (slot 0, trilinear) times ambient + Lambert diffuse. */
static void fragment_shader(tr_fs_block *b)
{
    const uniforms *u = b->uniforms;
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

/* ---- main --------------------------------------------------------------- */

#define CHECK(call)                                                              \
    do {                                                                         \
        tr_result r_ = (call);                                                   \
        if (r_ != TR_OK) {                                                       \
            fprintf(stderr, "fdm_foveated: %s failed: %s (%s)\n", #call,         \
                    tr_result_string(r_), ctx ? tr_context_last_error(ctx) : ""); \
            goto fail;                                                           \
        }                                                                        \
    } while (0)

/* Where the tori stand, their tilt and colour. */
static const struct {
    float pos[3], tilt, spin, tint[3];
} tori[] = {
    {{0.0f, 1.05f, 0.0f}, 1.35f, 0.3f, {1.0f, 0.62f, 0.25f}},
    {{-2.6f, 0.5f, -1.8f}, 0.25f, 0.0f, {0.55f, 0.8f, 1.0f}},
    {{2.6f, 0.5f, -1.8f}, 0.25f, 0.8f, {0.6f, 1.0f, 0.6f}},
    {{-1.9f, 0.45f, 1.6f}, 0.15f, 1.2f, {1.0f, 0.6f, 0.8f}},
    {{1.9f, 0.45f, 1.6f}, 0.15f, 2.0f, {1.0f, 1.0f, 0.55f}},
};
#define TORUS_COUNT (sizeof tori / sizeof tori[0])

/* Records and ends one pass of the scene with `desc` (multiview, FDM or not). */
static tr_result render(tr_context *ctx, const tr_render_pass_desc *desc, tr_pipeline *pipeline, tr_image *texture,
                        tr_sampler *sampler, uniforms *u, tr_pass_stats *stats)
{
    tr_result r = tr_cmd_begin_render_pass(ctx, desc);
    if (r != TR_OK)
        return r;
    /* The pass is open: end it whatever fails, keep the first error. */
    tr_result rec = tr_cmd_bind_pipeline(ctx, pipeline);
    if (rec == TR_OK)
        rec = tr_cmd_bind_texture(ctx, 0, texture, sampler);
    /* The ground. */
    u->model = mat4_translate(0.0f, 0.0f, 0.0f);
    u->verts = ground_vertices;
    u->tint[0] = u->tint[1] = u->tint[2] = 1.0f;
    if (rec == TR_OK)
        rec = tr_cmd_set_uniforms(ctx, u, sizeof *u);
    if (rec == TR_OK)
        rec = tr_cmd_bind_index_buffer(ctx, ground_indices, sizeof ground_indices, 0, TR_INDEX_U16);
    if (rec == TR_OK)
        rec = tr_cmd_draw_indexed(ctx, 6, 1, 0, 0, 0);
    /* The tori. */
    if (rec == TR_OK)
        rec = tr_cmd_bind_index_buffer(ctx, torus_indices, sizeof torus_indices, 0, TR_INDEX_U16);
    for (size_t t = 0; t < TORUS_COUNT && rec == TR_OK; t++) {
        u->model = mat4_mul(mat4_translate(tori[t].pos[0], tori[t].pos[1], tori[t].pos[2]),
                            mat4_mul(mat4_rotate(tori[t].spin, 0.0f, 1.0f, 0.0f),
                                     mat4_rotate(tori[t].tilt, 1.0f, 0.0f, 0.0f)));
        u->verts = torus_vertices;
        memcpy(u->tint, tori[t].tint, sizeof tori[t].tint);
        rec = tr_cmd_set_uniforms(ctx, u, sizeof *u);
        if (rec == TR_OK)
            rec = tr_cmd_draw_indexed(ctx, TORUS_INDICES, 1, 0, 0, 0);
    }
    r = tr_cmd_end_render_pass(ctx, stats);
    return rec != TR_OK ? rec : r;
}

/* Puts layer layers[v] of images[v] side by side into one RGBA8 picture
 * of VIEWS * w x h pixels, v = 0 on the left, each image at most w x h
 * (the FDM pictures carry their legend below the framebuffer's pixels, so
 * they may differ in height); what no image covers is black. */
static tr_result side_by_side(const tr_image *const images[VIEWS], const uint32_t layers[VIEWS], uint32_t w,
                              uint32_t h, uint8_t *out)
{
    uint8_t *one = malloc((size_t)w * h * 4);
    if (!one)
        return TR_ERROR_OUT_OF_MEMORY;
    memset(out, 0, (size_t)w * VIEWS * h * 4);
    for (size_t i = 3; i < (size_t)w * VIEWS * h * 4; i += 4)
        out[i] = 255;
    tr_result r = TR_OK;
    for (uint32_t v = 0; v < VIEWS && r == TR_OK; v++) {
        const tr_image_desc d = tr_image_get_desc(images[v]);
        r = tr_image_read_rgba8(images[v], &(tr_subresource){.layer = layers[v]}, one);
        for (uint32_t y = 0; y < d.height && r == TR_OK; y++)
            memcpy(out + ((size_t)y * VIEWS * w + (size_t)v * w) * 4, one + (size_t)y * d.width * 4,
                   (size_t)d.width * 4);
    }
    free(one);
    return r;
}

static unsigned long long percent(uint64_t part, uint64_t whole)
{
    return whole ? (unsigned long long)((part * 100 + whole / 2) / whole) : 0;
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "fdm_foveated.png";
    /* The overlay's name: the output's with "_overlay" before ".png". */
    char overlay_path[4096];
    size_t stem = strlen(path);
    if (stem >= 4 && strcmp(path + stem - 4, ".png") == 0)
        stem -= 4;
    if ((size_t)snprintf(overlay_path, sizeof overlay_path, "%.*s_overlay.png", (int)stem, path) >=
        sizeof overlay_path) {
        fprintf(stderr, "fdm_foveated: %s: path too long\n", path);
        return EXIT_FAILURE;
    }

    tr_context *ctx = NULL;
    tr_image *color_fdm = NULL, *color_full = NULL, *depth = NULL, *texture = NULL, *map = NULL;
    tr_image *picture = NULL, *overlay[VIEWS] = {NULL, NULL}, *overlay_picture = NULL;
    uint8_t *overlay_px = NULL;
    tr_image *color_gaze = NULL, *depth_gaze = NULL, *map_gaze = NULL;
    tr_sampler *sampler = NULL;
    tr_pipeline *pipeline = NULL;
    uint8_t *pixels = malloc((size_t)WIDTH * VIEWS * HEIGHT * 4);
    int status = EXIT_FAILURE;
    if (!pixels) {
        fprintf(stderr, "fdm_foveated: out of memory\n");
        return EXIT_FAILURE;
    }

    make_torus(0.7f, 0.28f);
    make_ground();
    make_texture();
    make_density_map();

    CHECK(tr_context_create(NULL, &ctx));
    const tr_image_desc color_desc = {.format = TR_FORMAT_R8G8B8A8_SRGB, .width = WIDTH, .height = HEIGHT,
                                      .layers = VIEWS};
    CHECK(tr_image_create(ctx, &color_desc, &color_fdm));
    CHECK(tr_image_create(ctx, &color_desc, &color_full));
    CHECK(tr_image_create(ctx, &(tr_image_desc){
        .format = TR_FORMAT_D32_SFLOAT, .width = WIDTH, .height = HEIGHT, .layers = VIEWS }, &depth));
    CHECK(tr_image_create(ctx, &(tr_image_desc){
        .format = TR_FORMAT_R8G8B8A8_SRGB, .width = TEX_SIZE, .height = TEX_SIZE,
        .levels = TR_LEVELS_ALL }, &texture));
    CHECK(tr_image_upload(texture, NULL, texels, 0));
    CHECK(tr_image_generate_mips(texture));
    CHECK(tr_image_create(ctx, &(tr_image_desc){
        .format = TR_FORMAT_R8G8_UNORM, .width = MAP_W, .height = MAP_H, .layers = VIEWS }, &map));
    for (uint32_t v = 0; v < VIEWS; v++)
        CHECK(tr_image_upload(map, &(tr_subresource){.layer = v}, density_texels[v], 0));
    CHECK(tr_sampler_create(ctx, &(tr_sampler_desc){
        .mag_filter = TR_FILTER_LINEAR, .min_filter = TR_FILTER_LINEAR,
        .mipmap_mode = TR_MIPMAP_LINEAR, .max_anisotropy = 4 }, &sampler));
    CHECK(tr_pipeline_create(ctx, &(tr_pipeline_desc){
        .vertex_shader = vertex_shader,
        .fragment_shader = fragment_shader,
        .varying_count = 2,
        .texture_mask = 1u << 0,
        .cull_mode = TR_CULL_BACK,
        .depth_test = 1, .depth_write = 1 }, &pipeline));

    /* Parallel eyes EYE_SEPARATION apart, 1.7 above the ground, 6 back. */
    uniforms u = {
        .light_dir = {0.408f, 0.816f, 0.408f, 0.0f}, /* normalize(1, 2, 1) */
        .ambient = 0.2f,
    };
    const mat4 proj = mat4_perspective(60.0f * PI / 180.0f, (float)WIDTH / HEIGHT, 0.1f, 100.0f);
    for (int v = 0; v < VIEWS; v++) {
        const float dx = (v == 0 ? -0.5f : 0.5f) * EYE_SEPARATION;
        const float eye[3] = {dx, 1.7f, 6.0f}, target[3] = {dx, 0.6f, 0.0f};
        u.view_proj[v] = mat4_mul(proj, mat4_look_at(eye, target));
    }

    tr_render_pass_desc desc = {
        .color = {{ .image = color_full, .load_op = TR_LOAD_OP_CLEAR,
                    .clear_color = {0.45f, 0.62f, 0.85f, 1.0f} }},
        .color_count = 1,
        .depth = { .image = depth, .depth_load_op = TR_LOAD_OP_CLEAR, .clear_depth = 1.0f,
                   .depth_store_op = TR_STORE_OP_DONT_CARE, .stencil_load_op = TR_LOAD_OP_DONT_CARE,
                   .stencil_store_op = TR_STORE_OP_DONT_CARE },
        .view_mask = 0x3,  /* views 0 and 1 -> layers 0 and 1 */
    };
    tr_pass_stats full, fdm;
    CHECK(render(ctx, &desc, pipeline, texture, sampler, &u, &full));
    desc.color[0].image = color_fdm;
    desc.density_map = (tr_density_map){ .image = map, .base_layer = 0 }; /* view i reads layer i */
    CHECK(render(ctx, &desc, pipeline, texture, sampler, &u, &fdm));

    /* The FDM render, both eyes side by side. */
    CHECK(tr_image_create(ctx, &(tr_image_desc){
        .format = TR_FORMAT_R8G8B8A8_SRGB, .width = WIDTH * VIEWS, .height = HEIGHT }, &picture));
    CHECK(side_by_side((const tr_image *[VIEWS]){color_fdm, color_fdm}, (const uint32_t[VIEWS]){0, 1}, WIDTH, HEIGHT,
                       pixels));
    CHECK(tr_image_upload(picture, NULL, pixels, 0));
    CHECK(tr_image_write_png(picture, NULL, path));

    /* The overlays: tr_fdm_write_png draws one view into a file; each is
     * read back (the second overwrites the first's file) and the two are
     * put side by side into that file. */
    for (uint32_t v = 0; v < VIEWS; v++) {
        CHECK(tr_fdm_write_png(ctx, &desc, v, color_fdm, v, overlay_path));
        CHECK(tr_image_load(ctx, overlay_path, TR_FORMAT_R8G8B8A8_UNORM, 1, &overlay[v]));
    }
    {
        /* each overlay is the framebuffer's size plus its legend below */
        uint32_t ow = 0, oh = 0;
        for (uint32_t v = 0; v < VIEWS; v++) {
            const tr_image_desc d = tr_image_get_desc(overlay[v]);
            ow = d.width > ow ? d.width : ow;
            oh = d.height > oh ? d.height : oh;
        }
        overlay_px = malloc((size_t)ow * VIEWS * oh * 4);
        if (!overlay_px) {
            fprintf(stderr, "fdm_foveated: out of memory\n");
            goto fail;
        }
        CHECK(tr_image_create(ctx, &(tr_image_desc){.format = TR_FORMAT_R8G8B8A8_UNORM, .width = ow * VIEWS,
                                                    .height = oh}, &overlay_picture));
        CHECK(side_by_side((const tr_image *[VIEWS]){overlay[0], overlay[1]}, (const uint32_t[VIEWS]){0, 0}, ow, oh,
                           overlay_px));
        CHECK(tr_image_upload(overlay_picture, NULL, overlay_px, 0));
        CHECK(tr_image_write_png(overlay_picture, NULL, overlay_path));
    }

    /* How far the FDM image is from the full-rate one. */
    uint64_t differing = 0;
    {
        uint8_t *a = pixels, *b = pixels + (size_t)WIDTH * HEIGHT * 4;
        for (uint32_t v = 0; v < VIEWS; v++) {
            CHECK(tr_image_read_rgba8(color_full, &(tr_subresource){.layer = v}, a));
            CHECK(tr_image_read_rgba8(color_fdm, &(tr_subresource){.layer = v}, b));
            for (size_t i = 0; i < (size_t)WIDTH * HEIGHT; i++)
                differing += memcmp(a + i * 4, b + i * 4, 4) != 0;
        }
    }

    printf("fdm_foveated: %u views of %ux%u, a %ux%u density map per view "
           "(255 at each eye's centre, 63 at the edges)\n",
           VIEWS, WIDTH, HEIGHT, MAP_W, MAP_H);
    printf("  %-34s %14s %14s\n", "", "without FDM", "with FDM");
    printf("  %-34s %14llu %14llu  (%llu%%)\n", "fragments shaded", (unsigned long long)full.fragments_shaded,
           (unsigned long long)fdm.fragments_shaded, percent(fdm.fragments_shaded, full.fragments_shaded));
    printf("  %-34s %14llu %14llu  (%llu%%)\n", "GMEM bytes stored", (unsigned long long)full.gmem_bytes_stored,
           (unsigned long long)fdm.gmem_bytes_stored, percent(fdm.gmem_bytes_stored, full.gmem_bytes_stored));
    printf("  %-34s %14s %14llu\n", "  ... had every bin been full scale", "",
           (unsigned long long)fdm.fdm_gmem_bytes_stored_full);
    printf("  %-34s %14s %14llu\n", "coarse fragments (area above 1x1)", "",
           (unsigned long long)fdm.fdm_fragments_shaded_scaled);
    printf("  %-34s %14s %14llu\n", "  ... the pixels they stand for", "",
           (unsigned long long)fdm.fdm_pixels_shaded_scaled);
    printf("  bin views by fragment area (%u bins x %u views):", fdm.bins, VIEWS);
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 3; i++)
            if (fdm.fdm_bin_views[j][i])
                printf(" %ux%u: %u", 1u << i, 1u << j, fdm.fdm_bin_views[j][i]);
    printf(", invisible: %u\n", fdm.fdm_bin_views_invisible);
    printf("  pixels differing from the full-rate render: %llu of %llu\n", (unsigned long long)differing,
           (unsigned long long)WIDTH * HEIGHT * VIEWS);
    printf("wrote %s and %s\n", path, overlay_path);

    /* The gaze moves: the same map, offset by the gaze's movement (both
     * eyes alike).  Images honour offsets only when created for them. */
    CHECK(tr_image_create(ctx, &(tr_image_desc){.format = TR_FORMAT_R8G8B8A8_SRGB, .width = WIDTH, .height = HEIGHT,
                                                .layers = VIEWS, .flags = TR_IMAGE_FDM_OFFSET}, &color_gaze));
    CHECK(tr_image_create(ctx, &(tr_image_desc){.format = TR_FORMAT_D32_SFLOAT, .width = WIDTH, .height = HEIGHT,
                                                .layers = VIEWS, .flags = TR_IMAGE_FDM_OFFSET}, &depth_gaze));
    CHECK(tr_image_create(ctx, &(tr_image_desc){.format = TR_FORMAT_R8G8_UNORM, .width = MAP_W, .height = MAP_H,
                                                .layers = VIEWS, .flags = TR_IMAGE_FDM_OFFSET}, &map_gaze));
    for (uint32_t v = 0; v < VIEWS; v++)
        CHECK(tr_image_upload(map_gaze, &(tr_subresource){.layer = v}, density_texels[v], 0));
    desc.color[0].image = color_gaze;
    desc.depth.image = depth_gaze;
    desc.density_map = (tr_density_map){.image = map_gaze, .offset_count = VIEWS};
    printf("gaze frames (the map follows the gaze; bins move by b_o, the first column and row shrink):\n");
    for (int k = 0; k < GAZE_FRAMES; k++) {
        for (uint32_t v = 0; v < VIEWS; v++)
            desc.density_map.offsets[v] = (tr_offset2d){k * GAZE_STEP_X, k * GAZE_STEP_Y};
        tr_pass_stats gs;
        CHECK(render(ctx, &desc, pipeline, texture, sampler, &u, &gs));
        tr_offset2d bo[VIEWS];
        CHECK(tr_compute_fdm_bin_offsets(ctx, &desc, bo, VIEWS));
        char gaze_path[4200];
        snprintf(gaze_path, sizeof gaze_path, "%.*s_gaze_%d.png", (int)stem, path, k);
        CHECK(tr_fdm_write_png(ctx, &desc, 0, color_gaze, 0, gaze_path));
        printf("  %s: offset (%d, %d), b_o (%d, %d), %llu fragments shaded\n", gaze_path,
               desc.density_map.offsets[0].x, desc.density_map.offsets[0].y, bo[0].x, bo[0].y,
               (unsigned long long)gs.fragments_shaded);
    }
    status = EXIT_SUCCESS;
fail:
    free(pixels);
    free(overlay_px);
    if (ctx) tr_context_destroy(ctx); /* frees the images, sampler and pipeline too */
    return status;
}
