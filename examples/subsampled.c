/* subsampled: a foveated frame stored in a subsampled image, then sampled.
 *
 * Pass 1 renders a pinwheel of coloured triangles over a gradient into a
 * 1280x720 image created with TR_IMAGE_SUBSAMPLED, with a radial fragment
 * density map (full rate in the middle, 2x2 around it, 4x4 towards the
 * edges): each scaled bin is stored as rendered, at its reduced size, where
 * the subsampled layout puts it, with 2-pixel aprons copied from its
 * neighbours (subsample.h).  Pass 2 draws a full-screen quad that samples
 * that image bilinearly -- through its metadata, as a shader sampling a
 * subsampled image does -- into an ordinary image.  Writes (the stem is
 * argv[1] without ".png", default "subsampled"):
 *   <stem>_stored.png  the subsampled image as stored, bins and aprons
 *                      outlined (tr_subsampled_write_png);
 *   <stem>.png         the second pass's output;
 * and prints how many of the image's texels the bins and their aprons
 * use: the memory a subsampled image needs, against a full-size one. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tilerast/tilerast.h>

#define WIDTH 1280
#define HEIGHT 720
#define MAP_W (WIDTH / 32)       /* texels of 32 x 32 pixels */
#define MAP_H ((HEIGHT + 31) / 32)
#define BLADES 12
#define VERTS (6 + 3 * BLADES)

/* ---- the scene: clip-space positions and colours ------------------------ */

typedef struct vertex {
    float pos[4], color[4];
} vertex;

static vertex scene[VERTS];

static void make_scene(void)
{
    static const vertex bg[6] = {
        {{-1, -1, 0.5f, 1}, {0.10f, 0.12f, 0.30f, 1}}, {{1, -1, 0.5f, 1}, {0.30f, 0.10f, 0.25f, 1}},
        {{-1, 1, 0.5f, 1}, {0.05f, 0.25f, 0.20f, 1}},  {{1, -1, 0.5f, 1}, {0.30f, 0.10f, 0.25f, 1}},
        {{1, 1, 0.5f, 1}, {0.25f, 0.25f, 0.05f, 1}},   {{-1, 1, 0.5f, 1}, {0.05f, 0.25f, 0.20f, 1}},
    };
    memcpy(scene, bg, sizeof bg);
    const float aspect = (float)HEIGHT / WIDTH, r = 0.95f;
    for (int i = 0; i < BLADES; i++) {
        /* blade i: the centre and two points of a circle, coloured by angle */
        const float a0 = 6.2831853f * (float)i / BLADES, a1 = a0 + 6.2831853f / (2 * BLADES);
        const float h = (float)i / BLADES;
        vertex *v = &scene[6 + 3 * i];
        v[0] = (vertex){{0, 0, 0.4f, 1}, {1, 1, 1, 1}};
        v[1] = (vertex){{r * aspect * cosf(a0), r * sinf(a0), 0.4f, 1}, {1.0f - h, h, 0.5f, 1}};
        v[2] = (vertex){{r * aspect * cosf(a1), r * sinf(a1), 0.4f, 1}, {h, 0.3f, 1.0f - h, 1}};
    }
}

/* ---- shaders ----------------------------------------------------------- */

static void vertex_shader(tr_vs_batch *b)
{
    const vertex *v = b->uniforms;
    for (uint32_t i = 0; i < b->count; i++)
        for (int c = 0; c < 4; c++) {
            b->position[c][i] = v[b->vertex_index[i]].pos[c];
            b->varyings[0][c][i] = v[b->vertex_index[i]].color[c];
        }
}

static void color_shader(tr_fs_block *b)
{
    for (int c = 0; c < 4; c++)
        for (uint32_t i = 0; i < b->count; i++)
            b->color[0][c][i] = b->varyings[0][c][i];
}

/* Pass 2: the pixel centre as uv, sampled from texture slot 0 (through the
 * subsampled image's metadata: tr_fs_texture does it). */
static void sample_shader(tr_fs_block *b)
{
    float u[TR_FS_LANES], v[TR_FS_LANES];
    for (uint32_t i = 0; i < b->count; i++) {
        u[i] = b->frag_x[i] / (float)WIDTH;
        v[i] = b->frag_y[i] / (float)HEIGHT;
    }
    tr_fs_texture(b, 0, u, v, b->color[0]);
}

/* ---- main --------------------------------------------------------------- */

#define CHECK(call)                                                              \
    do {                                                                         \
        tr_result r_ = (call);                                                   \
        if (r_ != TR_OK) {                                                       \
            fprintf(stderr, "subsampled: %s failed: %s (%s)\n", #call,           \
                    tr_result_string(r_), ctx ? tr_context_last_error(ctx) : ""); \
            goto fail;                                                           \
        }                                                                        \
    } while (0)

int main(int argc, char **argv)
{
    const char *arg = argc > 1 ? argv[1] : "subsampled.png";
    size_t stem = strlen(arg);
    if (stem >= 4 && strcmp(arg + stem - 4, ".png") == 0)
        stem -= 4;
    char out_path[4096], stored_path[4096];
    if ((size_t)snprintf(out_path, sizeof out_path, "%.*s.png", (int)stem, arg) >= sizeof out_path ||
        (size_t)snprintf(stored_path, sizeof stored_path, "%.*s_stored.png", (int)stem, arg) >= sizeof stored_path) {
        fprintf(stderr, "subsampled: %s: path too long\n", arg);
        return EXIT_FAILURE;
    }
    make_scene();

    tr_context *ctx = NULL;
    tr_image *stored = NULL, *final = NULL, *map = NULL;
    tr_pipeline *draw = NULL, *resample = NULL;
    tr_sampler *sampler = NULL;
    int status = EXIT_FAILURE;
    /* a smaller GMEM than the default device's, so that the frame has many bins */
    CHECK(tr_context_create(&(tr_context_desc){.gmem_bytes = 256 * 1024}, &ctx));
    CHECK(tr_image_create(ctx, &(tr_image_desc){.format = TR_FORMAT_R8G8B8A8_UNORM, .width = WIDTH,
                                                .height = HEIGHT, .flags = TR_IMAGE_SUBSAMPLED}, &stored));
    CHECK(tr_image_create(ctx, &(tr_image_desc){.format = TR_FORMAT_R8G8B8A8_UNORM, .width = WIDTH,
                                                .height = HEIGHT}, &final));
    /* unused space stays black */
    CHECK(tr_image_fill(stored, NULL, (const float[4]){0, 0, 0, 1}));

    /* the density map: 255 within r < 0.35 of the centre, 127 to 0.7, 63 beyond */
    static uint8_t texels[MAP_H][MAP_W][2];
    for (int j = 0; j < MAP_H; j++)
        for (int i = 0; i < MAP_W; i++) {
            const float dx = ((float)i + 0.5f) / MAP_W * 2 - 1, dy = ((float)j + 0.5f) / MAP_H * 2 - 1;
            const float rr = dx * dx + dy * dy;
            texels[j][i][0] = texels[j][i][1] = rr < 0.35f * 0.35f ? 255 : rr < 0.7f * 0.7f ? 127 : 63;
        }
    CHECK(tr_image_create(ctx, &(tr_image_desc){.format = TR_FORMAT_R8G8_UNORM, .width = MAP_W,
                                                .height = MAP_H}, &map));
    CHECK(tr_image_upload(map, NULL, texels, 0));

    CHECK(tr_pipeline_create(ctx, &(tr_pipeline_desc){.vertex_shader = vertex_shader,
                                                      .fragment_shader = color_shader, .varying_count = 1}, &draw));
    CHECK(tr_pipeline_create(ctx, &(tr_pipeline_desc){.vertex_shader = vertex_shader,
                                                      .fragment_shader = sample_shader, .varying_count = 1,
                                                      .texture_mask = 1u << 0}, &resample));
    CHECK(tr_sampler_create(ctx, &(tr_sampler_desc){.mag_filter = TR_FILTER_LINEAR, .min_filter = TR_FILTER_LINEAR,
                                                    .address_u = TR_ADDRESS_CLAMP_TO_EDGE,
                                                    .address_v = TR_ADDRESS_CLAMP_TO_EDGE}, &sampler));

    /* Pass 1: the foveated frame, into the subsampled image. */
    tr_render_pass_desc p1 = {
        .color = {{.image = stored, .load_op = TR_LOAD_OP_CLEAR, .clear_color = {0, 0, 0, 1}}},
        .color_count = 1,
        .density_map = {.image = map},
    };
    tr_pass_stats s1;
    CHECK(tr_cmd_begin_render_pass(ctx, &p1));
    CHECK(tr_cmd_bind_pipeline(ctx, draw));
    CHECK(tr_cmd_set_uniforms(ctx, scene, sizeof scene));
    CHECK(tr_cmd_draw(ctx, VERTS, 1, 0, 0));
    CHECK(tr_cmd_end_render_pass(ctx, &s1));
    CHECK(tr_subsampled_write_png(stored, 0, stored_path));

    /* Pass 2: a full-screen quad (the background's two triangles) samples it. */
    tr_render_pass_desc p2 = {
        .color = {{.image = final, .load_op = TR_LOAD_OP_DONT_CARE}},
        .color_count = 1,
    };
    CHECK(tr_cmd_begin_render_pass(ctx, &p2));
    CHECK(tr_cmd_bind_pipeline(ctx, resample));
    CHECK(tr_cmd_bind_texture(ctx, 0, stored, sampler));
    CHECK(tr_cmd_set_uniforms(ctx, scene, sizeof scene));
    CHECK(tr_cmd_draw(ctx, 6, 1, 0, 0));
    CHECK(tr_cmd_end_render_pass(ctx, NULL));
    CHECK(tr_image_write_png(final, NULL, out_path));

    /* How much of the image the bins and their aprons use. */
    tr_subsampled_header hdr;
    static tr_subsampled_bin bins[TR_SUBSAMPLED_MAX_BINS];
    size_t count = 0;
    CHECK(tr_image_get_subsampled_metadata(stored, 0, &hdr, bins, TR_SUBSAMPLED_MAX_BINS, &count));
    static uint8_t used[HEIGHT][WIDTH];
    uint64_t texels_used = 0;
    uint32_t subsampled = 0;
    const int32_t a = (int32_t)TR_SUBSAMPLED_APRON;
    for (size_t b = 0; b < count; b++) {
        const tr_rect *q = &bins[b].rect;
        if (!q->width)
            continue;
        subsampled += bins[b].subsampled;
        const int32_t pad = bins[b].subsampled ? a : 0;
        for (int32_t y = q->y - pad; y < q->y + (int32_t)q->height + pad; y++)
            for (int32_t x = q->x - pad; x < q->x + (int32_t)q->width + pad; x++)
                if (x >= 0 && y >= 0 && x < WIDTH && y < HEIGHT && !used[y][x]) {
                    used[y][x] = 1;
                    texels_used++;
                }
    }
    printf("subsampled: %ux%u, %zu bins of %ux%u (%u stored subsampled), %llu fragments shaded\n", WIDTH, HEIGHT,
           count, s1.layout.bin_w, s1.layout.bin_h, subsampled, (unsigned long long)s1.fragments_shaded);
    printf("  texels the bins and aprons use: %llu of %u (%.1f%%); GMEM bytes stored %llu, at full size %llu\n",
           (unsigned long long)texels_used, WIDTH * HEIGHT, 100.0 * (double)texels_used / (WIDTH * HEIGHT),
           (unsigned long long)s1.gmem_bytes_stored, (unsigned long long)s1.fdm_gmem_bytes_stored_full);
    printf("wrote %s and %s\n", stored_path, out_path);
    status = EXIT_SUCCESS;
fail:
    if (ctx)
        tr_context_destroy(ctx);
    return status;
}
