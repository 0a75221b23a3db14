/* tilerast-texture-bench: what sampling costs.
 *
 * A ground plane receding to the horizon fills the bottom 40% of a
 * 1024x768 RGBA8 target (311 184 fragments), its 512x512 sRGB texture
 * (full mip chain) repeated 32 times across it and 80 times into the distance: near pixels magnify, far ones minify strongly and
 * anisotropically, as in a game's floor.  The same plane is drawn with
 * several samplers in one process, alternating them frame by frame, and each
 * is reported as the median time and as a ratio to the first row, which
 * writes the texture coordinates as colour and samples nothing (the cost of
 * everything but sampling).  The last two rows sample trilinearly and also
 * write sampler feedback (a MinMip map with 32x32 regions, cleared before
 * each frame): exact, then conservative; compare them with "trilinear".
 *
 *   tilerast-texture-bench [--threads 1,2] [--frames 7] [--json] [--png FILE]
 *
 * --png writes the last sampler's image (of the last thread count).
 *
 * Uses the public API only. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <tilerast/tilerast.h>

enum { W = 1024, H = 768, TEX = 512, MAX_THREADS = 16, MAX_FRAMES = 101 };

typedef struct config {
    const char *name;
    int sample;              /* 0: the UV-as-colour baseline */
    tr_sampler_desc sampler;
    int feedback;            /* 1: also writes an exact MinMip map, 2: a conservative one */
} config;

static const config configs[] = {
    {"uv_only", 0, {0}, 0},
    {"nearest", 1, {.max_lod = TR_MAX_LOD_ZERO}, 0},
    {"bilinear", 1, {.mag_filter = TR_FILTER_LINEAR, .min_filter = TR_FILTER_LINEAR, .max_lod = TR_MAX_LOD_ZERO}, 0},
    {"trilinear", 1, {.mag_filter = TR_FILTER_LINEAR, .min_filter = TR_FILTER_LINEAR, .mipmap_mode = TR_MIPMAP_LINEAR}, 0},
    {"aniso4", 1,
     {.mag_filter = TR_FILTER_LINEAR, .min_filter = TR_FILTER_LINEAR, .mipmap_mode = TR_MIPMAP_LINEAR,
      .max_anisotropy = 4}, 0},
    {"aniso16", 1,
     {.mag_filter = TR_FILTER_LINEAR, .min_filter = TR_FILTER_LINEAR, .mipmap_mode = TR_MIPMAP_LINEAR,
      .max_anisotropy = 16}, 0},
    {"trilin+fb", 1,
     {.mag_filter = TR_FILTER_LINEAR, .min_filter = TR_FILTER_LINEAR, .mipmap_mode = TR_MIPMAP_LINEAR}, 1},
    {"trilin+fbc", 1,
     {.mag_filter = TR_FILTER_LINEAR, .min_filter = TR_FILTER_LINEAR, .mipmap_mode = TR_MIPMAP_LINEAR}, 2},
};
enum { NCONF = sizeof configs / sizeof configs[0] };

/* Clip-space corners of the plane: world (x, 0, z) seen from (0, 1, 0),
 * looking down -z with a 90-degree horizontal field of view.  View y is
 * -1 for every point of the plane; the horizon sits at 60% of the height
 * (y_ndc = 0.2). */
typedef struct vertex {
    float clip[4];
    float uv[2];
} vertex;

static void make_plane(vertex v[6])
{
    const float corner[4][2] = {{-80, -0.5f}, {80, -0.5f}, {80, -400}, {-80, -400}};
    const int order[6] = {0, 1, 2, 0, 2, 3};
    for (int i = 0; i < 6; i++) {
        const float x = corner[order[i]][0], z = corner[order[i]][1];
        const float depth = -z; /* distance along the view axis */
        /* x_ndc = x / depth; y_ndc = 0.2 + 1 / depth (below the horizon at 0.2), y down */
        v[i].clip[0] = x;
        v[i].clip[1] = 0.2f * depth + (float)W / H;
        v[i].clip[2] = 0.5f * depth;
        v[i].clip[3] = depth;
        v[i].uv[0] = x * 0.2f;
        v[i].uv[1] = z * 0.2f;
    }
}

static void vs(tr_vs_batch *b)
{
    const vertex *v = *(const vertex *const *)b->uniforms;
    for (uint32_t l = 0; l < b->count; l++) {
        const vertex *x = &v[b->vertex_index[l]];
        for (int c = 0; c < 4; c++)
            b->position[c][l] = x->clip[c];
        b->varyings[0][0][l] = x->uv[0];
        b->varyings[0][1][l] = x->uv[1];
        b->varyings[0][2][l] = b->varyings[0][3][l] = 0.0f;
    }
}

static void fs_uv(tr_fs_block *b)
{
    for (uint32_t l = 0; l < b->count; l++) {
        b->color[0][0][l] = b->varyings[0][0][l] - floorf(b->varyings[0][0][l]);
        b->color[0][1][l] = b->varyings[0][1][l] - floorf(b->varyings[0][1][l]);
        b->color[0][2][l] = 0.5f;
        b->color[0][3][l] = 1.0f;
    }
}

static void fs_texture(tr_fs_block *b)
{
    tr_fs_texture(b, 0, b->varyings[0][0], b->varyings[0][1], b->color[0]);
}

/* Samples, and records the sample in feedback slot 0 (sampler feedback). */
static void fs_texture_feedback(tr_fs_block *b)
{
    const tr_sample_args a = {.s = b->varyings[0][0], .t = b->varyings[0][1]};
    tr_fs_sample(b, 0, &a, b->color[0]);
    tr_fs_write_feedback(b, 0, 0, &a);
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#define CHECK(call)                                                                                 \
    do {                                                                                            \
        tr_result r_ = (call);                                                                      \
        if (r_ != TR_OK) {                                                                          \
            fprintf(stderr, "%s: %s (%s)\n", #call, tr_result_string(r_), tr_context_last_error(ctx)); \
            exit(1);                                                                                \
        }                                                                                           \
    } while (0)

/* Renders the plane once with configuration k; returns the milliseconds
 * from the pass's begin to its end, and the fragments shaded. */
static double frame(tr_context *ctx, tr_image *rt, tr_pipeline *const pl[3], tr_image *tex, tr_sampler *const smp[],
                    tr_feedback_map *const maps[2], uint32_t k, const vertex *v, uint64_t *frags)
{
    const int fb = configs[k].feedback;
    if (fb)
        CHECK(tr_feedback_map_clear(maps[fb - 1]));
    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.color_count = 1;
    rp.color[0].image = rt;
    rp.color[0].load_op = TR_LOAD_OP_CLEAR;
    rp.color[0].store_op = TR_STORE_OP_STORE;
    const double t0 = now_ms();
    CHECK(tr_cmd_begin_render_pass(ctx, &rp));
    CHECK(tr_cmd_bind_pipeline(ctx, pl[fb ? 2 : configs[k].sample]));
    if (configs[k].sample)
        CHECK(tr_cmd_bind_texture(ctx, 0, tex, smp[k]));
    if (fb)
        CHECK(tr_cmd_bind_feedback_map(ctx, 0, maps[fb - 1]));
    CHECK(tr_cmd_set_uniforms(ctx, &v, sizeof v));
    CHECK(tr_cmd_draw(ctx, 6, 1, 0, 0));
    tr_pass_stats st;
    CHECK(tr_cmd_end_render_pass(ctx, &st));
    *frags = st.fragments_shaded;
    return now_ms() - t0;
}

int main(int argc, char **argv)
{
    uint32_t threads[MAX_THREADS] = {1, 2}, nthreads = 2, frames = 7;
    int json = 0;
    const char *png = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) {
            json = 1;
        } else if (strcmp(argv[i], "--png") == 0 && i + 1 < argc) {
            png = argv[++i];
        } else if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc) {
            frames = (uint32_t)strtoul(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
            nthreads = 0;
            for (char *s = argv[++i]; *s && nthreads < MAX_THREADS; s += *s == ',')
                threads[nthreads++] = (uint32_t)strtoul(s, &s, 10);
        } else {
            fprintf(stderr, "usage: %s [--threads 1,2] [--frames N] [--json] [--png FILE]\n", argv[0]);
            return 2;
        }
    }
    if (frames < 1 || frames > MAX_FRAMES) {
        fprintf(stderr, "--frames: 1..%d\n", MAX_FRAMES);
        return 2;
    }
    vertex v[6];
    make_plane(v);
    for (uint32_t ti = 0; ti < nthreads; ti++) {
        tr_context_desc cd = {0};
        cd.threads = threads[ti];
        tr_context *ctx = NULL;
        if (tr_context_create(&cd, &ctx) != TR_OK) {
            fprintf(stderr, "tr_context_create failed\n");
            return 1;
        }
        tr_image *rt, *tex;
        CHECK(tr_image_create(ctx, &(tr_image_desc){TR_FORMAT_R8G8B8A8_UNORM, W, H, 1, 1, 0, 0}, &rt));
        CHECK(tr_image_create(ctx, &(tr_image_desc){TR_FORMAT_R8G8B8A8_SRGB, TEX, TEX, 1, TR_LEVELS_ALL, 0, 0}, &tex));
        uint8_t *texels = malloc((size_t)TEX * TEX * 4);
        for (uint32_t y = 0; y < TEX; y++)
            for (uint32_t x = 0; x < TEX; x++) {
                uint8_t *t = texels + 4 * ((size_t)y * TEX + x);
                const int check = ((x >> 5) ^ (y >> 5)) & 1;
                t[0] = (uint8_t)(check ? 230 : 40 + (x & 31) * 3);
                t[1] = (uint8_t)(check ? 200 : 60 + (y & 31) * 3);
                t[2] = (uint8_t)((x * 7 + y * 3) & 255);
                t[3] = 255;
            }
        CHECK(tr_image_upload(tex, NULL, texels, 0));
        free(texels);
        CHECK(tr_image_generate_mips(tex));
        tr_sampler *smp[NCONF];
        for (uint32_t k = 0; k < NCONF; k++)
            CHECK(tr_sampler_create(ctx, &configs[k].sampler, &smp[k]));
        tr_pipeline *pl[3];
        tr_pipeline_desc pd = {0};
        pd.vertex_shader = vs;
        pd.varying_count = 1;
        pd.fs_flags = TR_FS_NO_FRAG_COORD;
        pd.fragment_shader = fs_uv;
        CHECK(tr_pipeline_create(ctx, &pd, &pl[0]));
        pd.fragment_shader = fs_texture;
        pd.texture_mask = 1;
        CHECK(tr_pipeline_create(ctx, &pd, &pl[1]));
        pd.fragment_shader = fs_texture_feedback;
        pd.feedback_mask = 1;
        CHECK(tr_pipeline_create(ctx, &pd, &pl[2]));
        tr_feedback_map *maps[2];
        const tr_feedback_map_desc fd = {TR_FEEDBACK_MIN_MIP, TEX, TEX, tr_image_get_desc(tex).levels, 1, 32, 32};
        CHECK(tr_feedback_map_create(ctx, &fd, &maps[0]));
        CHECK(tr_feedback_map_create(ctx, &fd, &maps[1]));
        CHECK(tr_feedback_map_set_mode(maps[1], TR_FEEDBACK_CONSERVATIVE));

        double t[NCONF][MAX_FRAMES];
        uint64_t frags = 0;
        for (uint32_t k = 0; k < NCONF; k++) /* warm-up */
            frame(ctx, rt, pl, tex, smp, maps, k, v, &frags);
        for (uint32_t f = 0; f < frames; f++) /* alternate: noise hits every row alike */
            for (uint32_t k = 0; k < NCONF; k++)
                t[k][f] = frame(ctx, rt, pl, tex, smp, maps, k, v, &frags);
        double med[NCONF];
        for (uint32_t k = 0; k < NCONF; k++) {
            qsort(t[k], frames, sizeof(double), cmp_double);
            med[k] = t[k][frames / 2];
        }
        if (!json)
            printf("threads %u, %ux%u, %llu fragments, median of %u frames\n", threads[ti], W, H,
                   (unsigned long long)frags, frames);
        for (uint32_t k = 0; k < NCONF; k++) {
            if (json)
                printf("{\"sampler\": \"%s\", \"threads\": %u, \"fragments\": %llu, \"median_ms\": %.3f, "
                       "\"ratio_to_uv_only\": %.3f, \"ns_per_fragment\": %.2f}\n",
                       configs[k].name, threads[ti], (unsigned long long)frags, med[k], med[k] / med[0],
                       med[k] * 1e6 / (double)frags);
            else
                printf("  %-10s %8.2f ms  %5.2fx uv_only  %6.1f ns/fragment\n", configs[k].name, med[k],
                       med[k] / med[0], med[k] * 1e6 / (double)frags);
        }
        if (png)
            CHECK(tr_image_write_png(rt, NULL, png));
        tr_context_destroy(ctx);
    }
    return 0;
}
