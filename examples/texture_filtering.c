/* texture_filtering: trilinear against anisotropic filtering.
 *
 * A large textured ground plane recedes to the horizon, seen from a camera a
 * little above it.  The same scene is drawn twice, side by side, into one
 * 1024x512 sRGB image (texture_filtering.png, or argv[1]):
 *   left   trilinear: linear mag/min filters, linear between mip levels;
 *   right  the same plus max_anisotropy 16.
 * Far away the plane is seen at a grazing angle: a pixel covers many texels
 * along the view direction but few across it.  Trilinear filtering picks the
 * mip level from the longer axis, so the far field turns to grey mush;
 * anisotropic filtering picks it from the shorter axis and takes up to 16
 * taps along the longer one, so the checks and lines stay sharp much longer.
 *
 * The texture is generated here (a checkerboard with grid lines), uploaded
 * to level 0, and its mip chain is built by tr_image_generate_mips.  Both
 * halves are drawn in one render pass: the viewport picks the half, and
 * tr_cmd_bind_texture swaps the sampler between the two draws. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <tilerast/tilerast.h>

#define WIDTH 1024         /* the whole image; each view is WIDTH/2 x HEIGHT */
#define HEIGHT 512
#define TEX_SIZE 256       /* texels on a side of the texture */
#define CHECKS 8           /* checks on a side of the texture */
#define PLANE_HALF 200.0f  /* the plane spans x and z in [-PLANE_HALF, PLANE_HALF] */
#define UV_PER_UNIT 0.5f   /* texture repeats per world unit */
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

/* A camera at height `eye_y` above the origin, looking down the -z axis,
 * tilted down by `pitch` radians. */
static mat4 mat4_camera(float eye_y, float pitch)
{
    float c = cosf(pitch), s = sinf(pitch);
    /* rotation about x by +pitch (world -> view), then the eye's offset */
    return (mat4){{
        1.0f, 0.0f, 0.0f, 0.0f,
        0.0f, c,    s,    0.0f,
        0.0f, -s,   c,    0.0f,
        0.0f, -c * eye_y, -s * eye_y, 1.0f }};
}

/* Vulkan-style perspective: depth 0 at the near plane, 1 at the far plane,
 * y flipped because the framebuffer's y points down. */
static mat4 mat4_perspective(float fovy, float aspect, float znear, float zfar)
{
    float f = 1.0f / tanf(fovy * 0.5f);
    return (mat4){{
        f / aspect, 0.0f, 0.0f, 0.0f,
        0.0f, -f, 0.0f, 0.0f,
        0.0f, 0.0f, zfar / (znear - zfar), -1.0f,
        0.0f, 0.0f, znear * zfar / (znear - zfar), 0.0f }};
}

/* ---- the texture ------------------------------------------------------------------------------ */

/* RGBA8 sRGB texels: cream and slate checks, each check outlined by a thin
 * dark line, and a red line along the texture's edges (once per repeat). */
static uint8_t texels[TEX_SIZE * TEX_SIZE * 4];

static void make_texture(void)
{
    const int cell = TEX_SIZE / CHECKS;
    for (int y = 0; y < TEX_SIZE; y++)
        for (int x = 0; x < TEX_SIZE; x++) {
            static const uint8_t light[3] = {235, 225, 200}, dark[3] = {60, 75, 95};
            static const uint8_t line[3] = {20, 20, 25}, edge[3] = {200, 30, 30};
            int cx = x % cell, cy = y % cell;
            const uint8_t *c = ((x / cell + y / cell) & 1) ? dark : light;
            if (cx == 0 || cy == 0)
                c = line;
            if (x < 2 || y < 2)
                c = edge;
            uint8_t *t = &texels[(y * TEX_SIZE + x) * 4];
            t[0] = c[0], t[1] = c[1], t[2] = c[2], t[3] = 255;
        }
}

/* ---- shaders ------------------------------------------------------------------------------ */

typedef struct uniforms {
    mat4 view_proj;   /* world -> clip */
} uniforms;

/* The plane is two triangles in y = 0; vertex i of the draw is corner
 * corner_of[i].  varying 0 holds the texture coordinates (u, v): the
 * rasterizer interpolates them perspective-correctly. */
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

/* One call samples texture slot 0 for every lane of the block, with the
 * level of detail taken from each 2x2 quad's derivatives, and writes the
 * RGBA result straight into colour attachment 0. */
static void fragment_shader(tr_fs_block *b)
{
    tr_fs_texture(b, 0, b->varyings[0][0], b->varyings[0][1], b->color[0]);
}

/* ---- main ------------------------------------------------------------------------------ */

#define CHECK(call)                                                              \
    do {                                                                         \
        tr_result r_ = (call);                                                   \
        if (r_ != TR_OK) {                                                       \
            fprintf(stderr, "texture_filtering: %s failed: %s (%s)\n", #call,    \
                    tr_result_string(r_), ctx ? tr_context_last_error(ctx) : ""); \
            goto fail;                                                           \
        }                                                                        \
    } while (0)

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "texture_filtering.png";
    tr_context *ctx = NULL;
    tr_image *color = NULL, *texture = NULL;
    tr_sampler *trilinear = NULL, *anisotropic = NULL;
    tr_pipeline *pipeline = NULL;
    int status = EXIT_FAILURE;

    CHECK(tr_context_create(NULL, &ctx));

    /* The target is sRGB like the texture: filtering happens on linear
     * values, and the result is encoded back to sRGB when it is written. */
    CHECK(tr_image_create(ctx, &(tr_image_desc){
        .format = TR_FORMAT_R8G8B8A8_SRGB, .width = WIDTH, .height = HEIGHT }, &color));

    /* The texture with its whole mip chain (256x256 down to 1x1: 9 levels). */
    make_texture();
    CHECK(tr_image_create(ctx, &(tr_image_desc){
        .format = TR_FORMAT_R8G8B8A8_SRGB, .width = TEX_SIZE, .height = TEX_SIZE,
        .levels = TR_LEVELS_ALL }, &texture));
    CHECK(tr_image_upload(texture, NULL, texels, 0));   /* NULL: level 0 */
    CHECK(tr_image_generate_mips(texture));             /* levels 1.. from level 0 */

    /* Two samplers that differ only in anisotropy.  Address modes default
     * to repeat, which tiles the texture across the plane. */
    CHECK(tr_sampler_create(ctx, &(tr_sampler_desc){
        .mag_filter = TR_FILTER_LINEAR, .min_filter = TR_FILTER_LINEAR,
        .mipmap_mode = TR_MIPMAP_LINEAR }, &trilinear));
    CHECK(tr_sampler_create(ctx, &(tr_sampler_desc){
        .mag_filter = TR_FILTER_LINEAR, .min_filter = TR_FILTER_LINEAR,
        .mipmap_mode = TR_MIPMAP_LINEAR, .max_anisotropy = 16 }, &anisotropic));

    /* texture_mask: the fragment shader samples slot 0, so every draw
     * checks that something is bound there. */
    CHECK(tr_pipeline_create(ctx, &(tr_pipeline_desc){
        .vertex_shader = vertex_shader,
        .fragment_shader = fragment_shader,
        .texture_mask = 1u << 0,
        .varying_count = 1 }, &pipeline));

    /* Eye 1 unit above the plane, pitched 12 degrees down; each view is
     * square, so the projection's aspect is 1. */
    uniforms u = {
        .view_proj = mat4_mul(mat4_perspective(60.0f * PI / 180.0f, 1.0f, 0.05f, 1000.0f),
                              mat4_camera(1.0f, 12.0f * PI / 180.0f)),
    };

    const uint32_t half = WIDTH / 2;
    const tr_sampler *samplers[2] = {trilinear, anisotropic};
    CHECK(tr_cmd_begin_render_pass(ctx, &(tr_render_pass_desc){
        .color = {{ .image = color, .load_op = TR_LOAD_OP_CLEAR,
                    .clear_color = {0.45f, 0.62f, 0.85f, 1.0f} }},  /* sky */
        .color_count = 1 }));
    CHECK(tr_cmd_bind_pipeline(ctx, pipeline));
    CHECK(tr_cmd_set_uniforms(ctx, &u, sizeof u));
    for (uint32_t side = 0; side < 2; side++) {
        /* The viewport maps clip space onto this half (and nothing is drawn
         * outside it). */
        CHECK(tr_cmd_set_viewport(ctx, &(tr_viewport){
            .x = (float)(side * half), .y = 0.0f, .width = (float)half, .height = HEIGHT,
            .min_depth = 0.0f, .max_depth = 1.0f }));
        CHECK(tr_cmd_bind_texture(ctx, 0, texture, samplers[side]));
        CHECK(tr_cmd_draw(ctx, 6, 1, 0, 0));
    }
    /* A dark 2-pixel divider between the halves. */
    CHECK(tr_cmd_clear_attachments(ctx, 1, &(tr_clear_attachment){
        .aspects = TR_CLEAR_COLOR, .color_attachment = 0, .color = {0.02f, 0.02f, 0.02f, 1.0f} },
        1, &(tr_rect){ (int32_t)half - 1, 0, 2, HEIGHT }));
    CHECK(tr_cmd_end_render_pass(ctx, NULL));

    CHECK(tr_image_write_png(color, NULL, path));
    printf("texture_filtering: %ux%u texture with %u mip levels on a plane; "
           "left trilinear, right 16x anisotropic, %ux%u each; wrote %s\n",
           TEX_SIZE, TEX_SIZE, tr_image_get_desc(texture).levels, half, HEIGHT, path);
    status = EXIT_SUCCESS;
fail:
    if (ctx) tr_context_destroy(ctx); /* frees images, samplers and the pipeline too */
    return status;
}
