/* texture_streaming: sampler feedback drives texture streaming.
 *
 * A 1024x1024 texture with its full mip chain lies on a ground plane that
 * recedes from the camera.  Pass 1 renders the plane; its fragment shader
 * samples the texture and, with the same arguments, writes sampler feedback
 * into a MinMip map of 32x32-texel regions: the map learns which mip levels
 * of which regions the frame read (feedback.h).  The map is then decoded,
 * and a "streaming engine" builds a second texture that holds only what was
 * asked for -- for each region, its requested level and the coarser ones --
 * leaving every other texel magenta.  Pass 2 renders the same frame from
 * that texture.  Feedback records exactly the texels a sample reads, so the
 * second frame must equal the first byte for byte: no magenta may show.
 * (A coarse level's region covers many of level 0's -- level 4's 32-texel
 * region is half the texture -- so the map's far rows, and parts the camera
 * never sees, show level 4.)
 *
 * Writes into the directory argv[1] (default "."):
 *   texture_streaming.png           frame 1 | the decoded MinMip map, one cell per region
 *                                   (level 0 red, 1 orange, 2 yellow, 3 green, 4 cyan,
 *                                   5 blue, 6 violet, 7+ magenta; black: not requested)
 *   texture_streaming_map.png       the map as tr_feedback_map_write_png draws it
 *   texture_streaming_streamed.png  frame 2, from the streamed texture
 *   texture_streaming_level0.png    level 0 of the streamed texture (magenta: not loaded)
 * and prints, per level, how many texels were streamed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tilerast/tilerast.h>

#define WIDTH 640
#define HEIGHT 360
#define TEX 1024           /* texels on a side; 11 levels, 1024 .. 1 */
#define LEVELS 11
#define REGION 32          /* the map's region, texels on a side */
#define GRID (TEX / REGION) /* level 0's regions on a side: the decoded map is GRID x GRID */
#define CELL 11            /* pixels per map cell in texture_streaming.png */
#define PLANE 12.0f        /* the plane spans x in [-PLANE, PLANE], z in [-2 PLANE + 2, 2] */
#define PI 3.14159265358979f

/* ---- camera: column-major 4x4 matrices ------------------------------------ */

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

/* An eye at height eye_y looking down -z, pitched down, times a Vulkan
 * projection (depth 0..1, y down). */
static mat4 view_proj(float eye_y, float pitch, float fovy, float aspect, float zn, float zf)
{
    const float c = cosf(pitch), s = sinf(pitch), f = 1.0f / tanf(fovy * 0.5f);
    const mat4 view = {{1, 0, 0, 0, 0, c, s, 0, 0, -s, c, 0, 0, -c * eye_y, -s * eye_y, 1}};
    const mat4 proj = {{f / aspect, 0, 0, 0, 0, -f, 0, 0, 0, 0, zf / (zn - zf), -1, 0, 0, zn * zf / (zn - zf), 0}};
    return mat4_mul(proj, view);
}

/* ---- shaders --------------------------------------------------------------- */

/* Two triangles in y = 0; varying 0 = (u, v), the texture once over the
 * plane, v = 0 at the far edge. */
static void vertex_shader(tr_vs_batch *b)
{
    static const float corner[6][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 0}, {1, 1}, {0, 1}};
    const mat4 *mvp = b->uniforms;
    for (uint32_t i = 0; i < b->count; i++) {
        const float *uv = corner[b->vertex_index[i]];
        const float world[4] = {(uv[0] * 2 - 1) * PLANE, 0, 2 - (1 - uv[1]) * 2 * PLANE, 1};
        for (int r = 0; r < 4; r++)
            b->position[r][i] = mvp->m[r] * world[0] + mvp->m[4 + r] * world[1] + mvp->m[8 + r] * world[2] +
                                mvp->m[12 + r] * world[3];
        b->varyings[0][0][i] = uv[0];
        b->varyings[0][1][i] = uv[1];
    }
}

/* Sample texture slot 0 and tell feedback slot 0 what that sample read:
 * tr_fs_write_feedback takes exactly tr_fs_sample's arguments. */
static void fragment_shader(tr_fs_block *b)
{
    const tr_sample_args args = {.s = b->varyings[0][0], .t = b->varyings[0][1]};
    tr_fs_sample(b, 0, &args, b->color[0]);
    tr_fs_write_feedback(b, 0, 0, &args);
}

/* ---- main ------------------------------------------------------------------- */

#define CHECK(call)                                                              \
    do {                                                                         \
        tr_result r_ = (call);                                                   \
        if (r_ != TR_OK) {                                                       \
            fprintf(stderr, "texture_streaming: %s failed: %s (%s)\n", #call,    \
                    tr_result_string(r_), ctx ? tr_context_last_error(ctx) : ""); \
            goto fail;                                                           \
        }                                                                        \
    } while (0)

/* One frame: the plane sampled from `tex`, feedback into `map` (cleared
 * first; the pass writes it when it ends).  Returns the first error. */
static tr_result render(tr_context *ctx, tr_image *frame, tr_pipeline *pipe, tr_image *tex, tr_sampler *smp,
                        tr_feedback_map *map, const mat4 *mvp)
{
    tr_result r;
#define TRY(call) if ((r = (call)) != TR_OK) return r
    TRY(tr_feedback_map_clear(map));
    TRY(tr_cmd_begin_render_pass(ctx, &(tr_render_pass_desc){
        .color = {{.image = frame, .load_op = TR_LOAD_OP_CLEAR, .clear_color = {0.55f, 0.7f, 0.9f, 1}}},
        .color_count = 1}));
    TRY(tr_cmd_bind_pipeline(ctx, pipe));
    TRY(tr_cmd_set_uniforms(ctx, mvp, sizeof *mvp));
    TRY(tr_cmd_bind_texture(ctx, 0, tex, smp));
    TRY(tr_cmd_bind_feedback_map(ctx, 0, map));
    TRY(tr_cmd_draw(ctx, 6, 1, 0, 0));
#undef TRY
    return tr_cmd_end_render_pass(ctx, NULL);
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    static const uint8_t level_rgb[8][3] = {{255, 0, 0},   {255, 128, 0}, {255, 255, 0}, {0, 255, 0},
                                            {0, 255, 255}, {0, 0, 255},   {128, 0, 255}, {255, 0, 255}};
    static uint8_t texels[TEX * TEX * 4 * 4 / 3 + 64], streamed[sizeof texels], loaded[TEX * TEX * 4 / 3 + 16];
    static uint8_t pic[HEIGHT][WIDTH + HEIGHT][4], frame1[HEIGHT][WIDTH][4], frame2[HEIGHT][WIDTH][4];
    uint8_t minmip[GRID][GRID], again[GRID][GRID];
    size_t off[LEVELS + 1] = {0}; /* texel offset of each level in texels / streamed / loaded */
    char path[4][1024];
    const char *names[4] = {"texture_streaming.png", "texture_streaming_map.png", "texture_streaming_streamed.png",
                            "texture_streaming_level0.png"};
    for (int i = 0; i < 4; i++)
        snprintf(path[i], sizeof path[i], "%s/%s", dir, names[i]);
    tr_context *ctx = NULL;
    tr_image *frame = NULL, *side = NULL, *full = NULL, *partial = NULL;
    tr_sampler *smp = NULL;
    tr_pipeline *pipe = NULL;
    tr_feedback_map *map = NULL;
    int status = EXIT_FAILURE;

    CHECK(tr_context_create(NULL, &ctx));
    CHECK(tr_image_create(ctx, &(tr_image_desc){.format = TR_FORMAT_R8G8B8A8_UNORM, .width = WIDTH,
                                                .height = HEIGHT}, &frame));
    /* The texture: 64-texel checks over a red-green gradient, mips averaged down. */
    const tr_image_desc td = {.format = TR_FORMAT_R8G8B8A8_UNORM, .width = TEX, .height = TEX, .levels = LEVELS};
    for (uint32_t y = 0; y < TEX; y++)
        for (uint32_t x = 0; x < TEX; x++) {
            uint8_t *p = &texels[(y * TEX + x) * 4];
            const uint32_t k = ((x >> 6) ^ (y >> 6)) & 1 ? 255 : 110;
            p[0] = (uint8_t)(k * (64 + x / 5) / 255), p[1] = (uint8_t)(k * (64 + y / 5) / 255);
            p[2] = (uint8_t)(k * 3 / 5), p[3] = 255;
        }
    CHECK(tr_image_create(ctx, &td, &full));
    CHECK(tr_image_upload(full, NULL, texels, 0));
    CHECK(tr_image_generate_mips(full));
    for (uint32_t l = 0; l < LEVELS; l++) { /* keep every level on the CPU: the "disk" we stream from */
        off[l + 1] = off[l] + (size_t)(TEX >> l) * (TEX >> l);
        CHECK(tr_image_download(full, &(tr_subresource){.level = l}, texels + off[l] * 4, 0));
    }
    CHECK(tr_sampler_create(ctx, &(tr_sampler_desc){.mag_filter = TR_FILTER_LINEAR, .min_filter = TR_FILTER_LINEAR,
                                                    .mipmap_mode = TR_MIPMAP_LINEAR}, &smp));
    /* The map is paired with the texture: same size and chain. */
    CHECK(tr_feedback_map_create(ctx, &(tr_feedback_map_desc){.kind = TR_FEEDBACK_MIN_MIP, .width = TEX,
                                                               .height = TEX, .levels = LEVELS,
                                                               .region_width = REGION, .region_height = REGION}, &map));
    CHECK(tr_pipeline_create(ctx, &(tr_pipeline_desc){.vertex_shader = vertex_shader,
                                                      .fragment_shader = fragment_shader, .varying_count = 1,
                                                      .texture_mask = 1u << 0, .feedback_mask = 1u << 0}, &pipe));
    const mat4 mvp = view_proj(1.2f, 15.0f * PI / 180.0f, 60.0f * PI / 180.0f, (float)WIDTH / HEIGHT, 0.05f, 100.0f);

    /* Pass 1 from the full texture; then resolve the map (DECODE). */
    CHECK(render(ctx, frame, pipe, full, smp, map, &mvp));
    CHECK(tr_image_read_rgba8(frame, NULL, &frame1[0][0][0]));
    CHECK(tr_feedback_map_decode(map, 0, 0, &minmip[0][0], GRID));
    CHECK(tr_feedback_map_write_png(map, 0, path[1]));

    /* Frame and map side by side: each map cell CELL - 1 pixels, a 1-pixel gap. */
    memset(pic, 40, sizeof pic);
    for (uint32_t y = 0; y < HEIGHT; y++)
        for (uint32_t x = 0; x < WIDTH + HEIGHT; x++) {
            const uint32_t mx = x - WIDTH - 4, my = y - 4; /* unsigned: left of the map wraps */
            if (x < WIDTH)
                memcpy(pic[y][x], frame1[y][x], 4);
            else if (mx < GRID * CELL && my < GRID * CELL && mx % CELL && my % CELL) {
                const uint8_t m = minmip[my / CELL][mx / CELL];
                static const uint8_t none[3] = {0, 0, 0};
                memcpy(pic[y][x], m == TR_FEEDBACK_NONE ? none : level_rgb[m < 7 ? m : 7], 3);
            }
            pic[y][x][3] = 255;
        }
    CHECK(tr_image_create(ctx, &(tr_image_desc){.format = TR_FORMAT_R8G8B8A8_UNORM, .width = WIDTH + HEIGHT,
                                                .height = HEIGHT}, &side));
    CHECK(tr_image_upload(side, NULL, pic, 0));
    CHECK(tr_image_write_png(side, NULL, path[0]));

    /* Stream: every texel magenta, then for each LOD-0 region with MinMip m
     * load levels m .. LEVELS - 1 of the texels under it (at level l the
     * region's REGION x REGION texels shrink to REGION >> l, at least one). */
    for (size_t i = 0; i < off[LEVELS]; i++)
        memcpy(&streamed[i * 4], (const uint8_t[4]){255, 0, 255, 255}, 4);
    for (uint32_t ry = 0; ry < GRID; ry++)
        for (uint32_t rx = 0; rx < GRID; rx++)
            for (uint32_t l = minmip[ry][rx]; l < LEVELS; l++) { /* TR_FEEDBACK_NONE: no level */
                const uint32_t lw = TEX >> l, up = (1u << l) - 1;
                for (uint32_t y = (ry * REGION) >> l; y < ((ry + 1) * REGION + up) >> l; y++)
                    for (uint32_t x = (rx * REGION) >> l; x < ((rx + 1) * REGION + up) >> l; x++) {
                        const size_t t = off[l] + (size_t)y * lw + x;
                        memcpy(&streamed[t * 4], &texels[t * 4], 4);
                        loaded[t] = 1;
                    }
            }
    CHECK(tr_image_create(ctx, &td, &partial));
    size_t total = 0;
    printf("texture_streaming: %ux%u frame, %ux%u texture (%u levels), MinMip map of %ux%u-texel regions\n", WIDTH,
           HEIGHT, TEX, TEX, LEVELS, REGION, REGION);
    for (uint32_t l = 0; l < LEVELS; l++) {
        size_t n = 0;
        for (size_t t = off[l]; t < off[l + 1]; t++)
            n += loaded[t];
        total += n;
        printf("  level %2u %4ux%-4u streamed %7zu of %7zu texels (%5.1f%%)\n", l, TEX >> l, TEX >> l, n,
               off[l + 1] - off[l], 100.0 * (double)n / (double)(off[l + 1] - off[l]));
        CHECK(tr_image_upload(partial, &(tr_subresource){.level = l}, streamed + off[l] * 4, 0));
    }
    printf("  all levels        %7zu of %7zu texels (%5.1f%%)\n", total, off[LEVELS],
           100.0 * (double)total / (double)off[LEVELS]);

    /* Pass 2 from the streamed texture. */
    CHECK(render(ctx, frame, pipe, partial, smp, map, &mvp));
    CHECK(tr_image_read_rgba8(frame, NULL, &frame2[0][0][0]));
    CHECK(tr_feedback_map_decode(map, 0, 0, &again[0][0], GRID));
    CHECK(tr_image_write_png(frame, NULL, path[2]));
    CHECK(tr_image_write_png(partial, NULL, path[3]));
    size_t diff = 0;
    for (uint32_t y = 0; y < HEIGHT; y++)
        for (uint32_t x = 0; x < WIDTH; x++)
            diff += memcmp(frame1[y][x], frame2[y][x], 4) != 0;
    printf("  pass 2 asked for %s regions as pass 1\n", memcmp(minmip, again, sizeof minmip) ? "other" : "the same");
    if (diff) {
        printf("  FAIL: %zu pixels of the streamed frame differ: a sample read a texel that was not streamed\n", diff);
        goto fail;
    }
    printf("  the streamed frame equals the first byte for byte: every texel the samples read was streamed\n");
    printf("wrote %s, %s, %s and %s\n", path[0], path[1], path[2], path[3]);
    status = EXIT_SUCCESS;
fail:
    if (ctx)
        tr_context_destroy(ctx); /* frees images, sampler, pipeline and map too */
    return status;
}
