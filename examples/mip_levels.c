/* mip_levels: which mip level does the sampler read where?
 *
 * A ground plane receding to the horizon (as in texture_filtering, with the
 * texture repeated twice as often), sampled through a texture whose mip
 * levels are each filled with one flat colour: level 0 red, 1 orange,
 * 2 yellow, 3 green, ... (the legend is printed).  The colour seen at a pixel
 * is therefore the level of detail the sampler chose there, and with a
 * linear mipmap mode neighbouring levels blend into each other, so the bands
 * fade smoothly.  Near the camera the texture is magnified (level 0); towards
 * the horizon each band is further away and covers fewer rows.
 *
 * A second texture, a faint grey checkerboard with its own mip chain, is
 * multiplied in so that the plane still reads as a surface; it has the same
 * size and coordinates, so it is filtered at the same levels and fades to
 * flat grey where the tint turns blue.  The fragment shader samples two
 * slots, so the pipeline's texture_mask has two bits.
 * Writes mip_levels.png (or argv[1]), 1024x512.
 *
 * Everything is UNORM: the tints are display colours, written as they are. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <tilerast/tilerast.h>

#define WIDTH 1024
#define HEIGHT 512
#define TEX_SIZE 256       /* 256x256 down to 1x1: 9 levels */
#define PLANE_HALF 200.0f  /* the plane spans x and z in [-PLANE_HALF, PLANE_HALF] */
#define UV_PER_UNIT 1.0f   /* texture repeats per world unit */
#define PI 3.14159265358979f

/* One tint per level (UNORM RGBA). */
static const struct { const char *name; float rgba[4]; } tints[] = {
    {"red",     {0.90f, 0.10f, 0.10f, 1.0f}},
    {"orange",  {1.00f, 0.55f, 0.05f, 1.0f}},
    {"yellow",  {0.95f, 0.90f, 0.10f, 1.0f}},
    {"green",   {0.20f, 0.75f, 0.20f, 1.0f}},
    {"cyan",    {0.10f, 0.80f, 0.85f, 1.0f}},
    {"blue",    {0.15f, 0.30f, 0.95f, 1.0f}},
    {"purple",  {0.55f, 0.20f, 0.85f, 1.0f}},
    {"magenta", {0.95f, 0.30f, 0.75f, 1.0f}},
    {"white",   {1.00f, 1.00f, 1.00f, 1.0f}},
};
#define TINT_COUNT (sizeof tints / sizeof tints[0])

/* ---- camera (column-major matrices, m[col * 4 + row]) -------------------- */

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

/* Eye at height eye_y above the origin, looking down -z, pitched down. */
static mat4 mat4_camera(float eye_y, float pitch)
{
    float c = cosf(pitch), s = sinf(pitch);
    return (mat4){{
        1.0f, 0.0f, 0.0f, 0.0f,
        0.0f, c,    s,    0.0f,
        0.0f, -s,   c,    0.0f,
        0.0f, -c * eye_y, -s * eye_y, 1.0f }};
}

/* Vulkan-style: depth 0..1, y flipped for the y-down framebuffer. */
static mat4 mat4_perspective(float fovy, float aspect, float znear, float zfar)
{
    float f = 1.0f / tanf(fovy * 0.5f);
    return (mat4){{
        f / aspect, 0.0f, 0.0f, 0.0f,
        0.0f, -f, 0.0f, 0.0f,
        0.0f, 0.0f, zfar / (znear - zfar), -1.0f,
        0.0f, 0.0f, znear * zfar / (znear - zfar), 0.0f }};
}

/* ---- shaders ------------------------------------------------------------------------------ */

typedef struct uniforms {
    mat4 view_proj;
} uniforms;

/* Two triangles in y = 0; varying 0 = texture coordinates (u, v). */
static void vertex_shader(tr_vs_batch *b)
{
    static const float corners[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    static const int corner_of[6] = {0, 1, 2, 0, 2, 3};
    const uniforms *u = b->uniforms;
    for (uint32_t i = 0; i < b->count; i++) {
        const float *c = corners[corner_of[b->vertex_index[i]]];
        float world[4] = {c[0] * PLANE_HALF, 0.0f, c[1] * PLANE_HALF, 1.0f};
        for (int r = 0; r < 4; r++)
            b->position[r][i] = u->view_proj.m[0 * 4 + r] * world[0] + u->view_proj.m[1 * 4 + r] * world[1] +
                                u->view_proj.m[2 * 4 + r] * world[2] + u->view_proj.m[3 * 4 + r] * world[3];
        b->varyings[0][0][i] = world[0] * UV_PER_UNIT;
        b->varyings[0][1][i] = world[2] * UV_PER_UNIT;
        b->varyings[0][2][i] = 0.0f;
        b->varyings[0][3][i] = 0.0f;
    }
}

/* Slot 0: the level tints; slot 1: the faint checker.  Each tr_fs_texture
 * call fills a whole SoA result for the block; the product is the colour. */
static void fragment_shader(tr_fs_block *b)
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

/* ---- main ------------------------------------------------------------------------------ */

#define CHECK(call)                                                              \
    do {                                                                         \
        tr_result r_ = (call);                                                   \
        if (r_ != TR_OK) {                                                       \
            fprintf(stderr, "mip_levels: %s failed: %s (%s)\n", #call,           \
                    tr_result_string(r_), ctx ? tr_context_last_error(ctx) : ""); \
            goto fail;                                                           \
        }                                                                        \
    } while (0)

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "mip_levels.png";
    tr_context *ctx = NULL;
    tr_image *color = NULL, *tint = NULL, *checker = NULL;
    tr_sampler *sampler = NULL;
    tr_pipeline *pipeline = NULL;
    static uint8_t texels[TEX_SIZE * TEX_SIZE * 4];
    int status = EXIT_FAILURE;

    CHECK(tr_context_create(NULL, &ctx));
    CHECK(tr_image_create(ctx, &(tr_image_desc){
        .format = TR_FORMAT_R8G8B8A8_UNORM, .width = WIDTH, .height = HEIGHT }, &color));

    /* The tint texture: every level filled with its own flat colour.  Mip
     * levels are ordinary subresources, addressed by tr_subresource.level. */
    CHECK(tr_image_create(ctx, &(tr_image_desc){
        .format = TR_FORMAT_R8G8B8A8_UNORM, .width = TEX_SIZE, .height = TEX_SIZE,
        .levels = TR_LEVELS_ALL }, &tint));
    const uint32_t levels = tr_image_get_desc(tint).levels;
    if (levels > TINT_COUNT) {
        fprintf(stderr, "mip_levels: %u levels but only %u tints\n", levels, (unsigned)TINT_COUNT);
        goto fail;
    }
    for (uint32_t l = 0; l < levels; l++)
        CHECK(tr_image_fill(tint, &(tr_subresource){ .level = l }, tints[l].rgba));

    /* The checker: 8x8 checks of 1.0 and 0.75 grey in level 0, and a mip
     * chain averaged down from it (towards 0.875 grey). */
    for (int y = 0; y < TEX_SIZE; y++)
        for (int x = 0; x < TEX_SIZE; x++) {
            uint8_t v = ((x / (TEX_SIZE / 8) + y / (TEX_SIZE / 8)) & 1) ? 191 : 255;
            uint8_t *p = &texels[(y * TEX_SIZE + x) * 4];
            p[0] = p[1] = p[2] = v;
            p[3] = 255;
        }
    CHECK(tr_image_create(ctx, &(tr_image_desc){
        .format = TR_FORMAT_R8G8B8A8_UNORM, .width = TEX_SIZE, .height = TEX_SIZE,
        .levels = TR_LEVELS_ALL }, &checker));
    CHECK(tr_image_upload(checker, NULL, texels, 0));
    CHECK(tr_image_generate_mips(checker));

    /* Trilinear, repeating; one sampler serves both slots. */
    CHECK(tr_sampler_create(ctx, &(tr_sampler_desc){
        .mag_filter = TR_FILTER_LINEAR, .min_filter = TR_FILTER_LINEAR,
        .mipmap_mode = TR_MIPMAP_LINEAR }, &sampler));
    CHECK(tr_pipeline_create(ctx, &(tr_pipeline_desc){
        .vertex_shader = vertex_shader,
        .fragment_shader = fragment_shader,
        .texture_mask = (1u << 0) | (1u << 1),
        .varying_count = 1 }, &pipeline));

    uniforms u = {
        .view_proj = mat4_mul(mat4_perspective(60.0f * PI / 180.0f, (float)WIDTH / HEIGHT, 0.05f, 1000.0f),
                              mat4_camera(1.0f, 12.0f * PI / 180.0f)),
    };

    CHECK(tr_cmd_begin_render_pass(ctx, &(tr_render_pass_desc){
        .color = {{ .image = color, .load_op = TR_LOAD_OP_CLEAR,
                    .clear_color = {0.12f, 0.12f, 0.14f, 1.0f} }},
        .color_count = 1 }));
    CHECK(tr_cmd_bind_pipeline(ctx, pipeline));
    CHECK(tr_cmd_set_uniforms(ctx, &u, sizeof u));
    CHECK(tr_cmd_bind_texture(ctx, 0, tint, sampler));
    CHECK(tr_cmd_bind_texture(ctx, 1, checker, sampler));
    CHECK(tr_cmd_draw(ctx, 6, 1, 0, 0));
    CHECK(tr_cmd_end_render_pass(ctx, NULL));

    CHECK(tr_image_write_png(color, NULL, path));
    printf("mip_levels: %ux%u plane, trilinear sampling of a %ux%u texture; wrote %s\n"
           "legend (level: size colour):\n", WIDTH, HEIGHT, TEX_SIZE, TEX_SIZE, path);
    for (uint32_t l = 0; l < levels; l++)
        printf("  %u: %3ux%-3u %s\n", l, tr_image_level_width(tint, l), tr_image_level_height(tint, l),
               tints[l].name);
    status = EXIT_SUCCESS;
fail:
    if (ctx) tr_context_destroy(ctx); /* frees images, sampler and pipeline too */
    return status;
}
