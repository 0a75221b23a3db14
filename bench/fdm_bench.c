/* tilerast-fdm-bench: what a fragment density map saves.
 *
 * Standard scenes (bench/SCENES.md; tri_large and mesh by default) are
 * rendered through tr_scene_render_with with a foveated density map and
 * without one, alternating frame by frame in one process so that the
 * machine's noise falls on both alike.  Per scene and thread count it
 * prints the median times, their ratio (FDM time / full-rate time) and the
 * fragments shaded either way.
 *
 * The map (R8G8_UNORM, both channels equal): ceil(W/32) x ceil(H/32)
 * texels, so that each texel covers 32x32 pixels (the smallest texel
 * size; 60x34 for the 1920x1080 scenes).  Texel (i, j) has its centre at
 * pixel (32i + 16, 32j + 16); with dx = (x - W/2) / (W/2) and
 * dy = (y - H/2) / (H/2) there, r^2 = dx^2 + dy^2 (an ellipse touching the
 * framebuffer's edges at r = 1) and the texel is
 *   255 (1x1 fragments) for r < 0.5, 127 (2x2) for 0.5 <= r < 0.85,
 *   63 (4x4) beyond.
 * Each bin takes the texel under its centre (fdm.h): with the default
 * device's 4x4 grid of 480x272 bins the middle four bins are 1x1, the
 * other edge bins 2x2 and the corners 4x4.
 *
 *   tilerast-fdm-bench [--threads 1,2] [--frames 7] [--scenes tri_large,mesh]
 *                      [--device a630|a660|a740] [--lrz on|off] [--merge on|off]
 *                      [--json] [--png-dir DIR]
 *
 * --png-dir writes DIR/<scene>_fdm.png (the FDM image) and
 * DIR/<scene>_fdm_areas.png (tr_fdm_write_png) for the last thread count.
 * Uses the public API only. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_scenes.h"
#include "tilerast/tilerast.h"
#include "tool_common.h"

#define PROG "tilerast-fdm-bench"
#define WARMUP_FRAMES 2u
#define MAX_THREAD_COUNTS 16u
#define MAX_FRAMES 101u
#define MAP_TEXEL 32u /* pixels per map texel, per axis */

typedef struct options {
    uint32_t threads[MAX_THREAD_COUNTS];
    uint32_t nthreads;
    uint32_t frames;
    int scene_on[BENCH_SCENE_COUNT];
    tr_device device;
    int json;
    int no_lrz;
    int no_merge;
    const char *png_dir;
} options;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: " PROG " [--threads 1,2] [--frames 7] [--scenes tri_large,mesh]\n"
            "                          [--device a630|a660|a740] [--lrz on|off] [--merge on|off]\n"
            "                          [--json] [--png-dir DIR]\n"
            "\n"
            "Times standard scenes with a foveated fragment density map (255 within\n"
            "r < 0.5 of the centre, 127 to r < 0.85, 63 beyond; r = 1 at the edges'\n"
            "midpoints) against the same scenes without one, alternating frame by frame.\n"
            "  --threads LIST  thread counts, comma separated (0 = all cores; default 1,2)\n"
            "  --frames N      timed frames per side after %u warm-up frames (default 7)\n"
            "  --scenes LIST   standard scenes, comma separated (default tri_large,mesh)\n"
            "  --device NAME   the Adreno modelled (default: a630's numbers)\n"
            "  --lrz on|off    low-resolution Z for both sides (default on; scaled bins\n"
            "                  use it only on a740, which scales bins in hardware)\n"
            "  --merge on|off  a7xx bin merging (default on; a740 only merges)\n"
            "  --json          one JSON object per line\n"
            "  --png-dir DIR   write DIR/<scene>_fdm.png and DIR/<scene>_fdm_areas.png\n",
            WARMUP_FRAMES);
}

static int parse_u32(const char *s, char **end, uint32_t max, uint32_t *out)
{
    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
    unsigned long long v = strtoull(s, end, 10);
    if (errno != 0 || v > max)
        return -1;
    *out = (uint32_t)v;
    return 0;
}

/* Returns 0 to go on, 1 for --help, 2 for a usage error. */
static int parse_args(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->threads[0] = 1, o->threads[1] = 2, o->nthreads = 2;
    o->frames = 7;
    o->scene_on[BENCH_SCENE_TRI_LARGE] = o->scene_on[BENCH_SCENE_MESH] = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)
            return 1;
        if (strcmp(a, "--json") == 0) {
            o->json = 1;
            continue;
        }
        if (strcmp(a, "--threads") != 0 && strcmp(a, "--frames") != 0 && strcmp(a, "--scenes") != 0 &&
            strcmp(a, "--device") != 0 && strcmp(a, "--png-dir") != 0 && strcmp(a, "--lrz") != 0 &&
            strcmp(a, "--merge") != 0) {
            fprintf(stderr, PROG ": unknown argument '%s'\n", a);
            return 2;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, PROG ": %s needs a value\n", a);
            return 2;
        }
        char *val = argv[++i], *end;
        if (strcmp(a, "--frames") == 0) {
            if (parse_u32(val, &end, MAX_FRAMES, &o->frames) != 0 || *end != '\0' || o->frames == 0) {
                fprintf(stderr, PROG ": --frames wants 1..%u, not '%s'\n", MAX_FRAMES, val);
                return 2;
            }
        } else if (strcmp(a, "--threads") == 0) {
            o->nthreads = 0;
            for (char *p = val;; p = end + 1) {
                if (o->nthreads == MAX_THREAD_COUNTS ||
                    parse_u32(p, &end, TR_MAX_THREADS, &o->threads[o->nthreads]) != 0 ||
                    (*end != ',' && *end != '\0')) {
                    fprintf(stderr, PROG ": --threads wants a list of 0..%u, not '%s'\n", TR_MAX_THREADS, val);
                    return 2;
                }
                o->nthreads++;
                if (*end == '\0')
                    break;
            }
        } else if (strcmp(a, "--scenes") == 0) {
            memset(o->scene_on, 0, sizeof o->scene_on);
            for (char *p = strtok(val, ","); p != NULL; p = strtok(NULL, ",")) {
                int id = bench_scene_find(p);
                if (id < 0) {
                    fprintf(stderr, PROG ": --scenes: no standard scene '%s'\n", p);
                    return 2;
                }
                o->scene_on[id] = 1;
            }
        } else if (strcmp(a, "--device") == 0) {
            if (tool_parse_device(val, &o->device) != 0) {
                fprintf(stderr, PROG ": --device wants a630, a660 or a740, not '%s'\n", val);
                return 2;
            }
        } else if (strcmp(a, "--lrz") == 0) {
            if (strcmp(val, "on") != 0 && strcmp(val, "off") != 0) {
                fprintf(stderr, PROG ": --lrz wants on or off, not '%s'\n", val);
                return 2;
            }
            o->no_lrz = strcmp(val, "off") == 0;
        } else if (strcmp(a, "--merge") == 0) {
            if (strcmp(val, "on") != 0 && strcmp(val, "off") != 0) {
                fprintf(stderr, PROG ": --merge wants on or off, not '%s'\n", val);
                return 2;
            }
            o->no_merge = strcmp(val, "off") == 0;
        } else {
            o->png_dir = val;
        }
    }
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_of(double *t, uint32_t n)
{
    qsort(t, n, sizeof *t, cmp_double);
    return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

/* The foveated map of the header comment for a w x h framebuffer. */
static tr_result make_density_map(tr_context *ctx, uint32_t w, uint32_t h, tr_image **out)
{
    const uint32_t mw = (w + MAP_TEXEL - 1) / MAP_TEXEL, mh = (h + MAP_TEXEL - 1) / MAP_TEXEL;
    tr_result r = tr_image_create(ctx, &(tr_image_desc){.format = TR_FORMAT_R8G8_UNORM, .width = mw, .height = mh},
                                  out);
    if (r != TR_OK)
        return r;
    uint8_t *texels = malloc((size_t)mw * mh * 2);
    if (texels == NULL)
        return TR_ERROR_OUT_OF_MEMORY;
    for (uint32_t j = 0; j < mh; j++)
        for (uint32_t i = 0; i < mw; i++) {
            const double dx = ((double)(i * MAP_TEXEL + MAP_TEXEL / 2) - 0.5 * w) / (0.5 * w);
            const double dy = ((double)(j * MAP_TEXEL + MAP_TEXEL / 2) - 0.5 * h) / (0.5 * h);
            const double r2 = dx * dx + dy * dy;
            const uint8_t d = r2 < 0.5 * 0.5 ? 255 : r2 < 0.85 * 0.85 ? 127 : 63;
            texels[((size_t)j * mw + i) * 2] = texels[((size_t)j * mw + i) * 2 + 1] = d;
        }
    r = tr_image_upload(*out, NULL, texels, 0);
    free(texels);
    return r;
}

typedef struct side {
    double ms[MAX_FRAMES];
    double median_ms;
    tr_pass_stats stats; /* of the last frame */
} side;

#define CHECK(what, call)                                                                                   \
    do {                                                                                                    \
        tr_result r_ = (call);                                                                              \
        if (r_ != TR_OK) {                                                                                  \
            fprintf(stderr, PROG ": %s: %s: %s (%s)\n", name, what, tr_result_string(r_),                   \
                    tr_context_last_error(ctx));                                                            \
            goto done;                                                                                      \
        }                                                                                                   \
    } while (0)

/* Runs one scene at one thread count: side[0] without FDM, side[1] with. */
static int run(const options *o, const char *name, const tr_scene *scene, uint32_t threads, int write_png,
               side sides[2], uint32_t *threads_used)
{
    int status = -1;
    tr_context *ctx = NULL;
    tr_image *color = NULL, *depth = NULL;
    tr_scene_render_options with[2];
    memset(with, 0, sizeof with);
    tr_context_desc cd;
    memset(&cd, 0, sizeof cd);
    cd.threads = threads;
    cd.device = o->device;
    cd.flags = (o->no_lrz ? TR_CONTEXT_NO_LRZ : 0u) | (o->no_merge ? TR_CONTEXT_NO_BIN_MERGING : 0u);
    if (tr_context_create(&cd, &ctx) != TR_OK) {
        fprintf(stderr, PROG ": creating a context (threads %u, device %s) failed\n", threads,
                tool_device_name(o->device));
        return -1;
    }
    *threads_used = tr_context_get_desc(ctx).threads;
    CHECK("colour image", tr_image_create(ctx, &(tr_image_desc){.format = TR_FORMAT_R8G8B8A8_UNORM,
                                                                .width = scene->width, .height = scene->height},
                                          &color));
    /* One depth image for every frame, rather than a temporary per frame. */
    if (scene->flags & TR_SCENE_DEPTH)
        CHECK("depth image", tr_image_create(ctx, &(tr_image_desc){.format = TR_FORMAT_D32_SFLOAT,
                                                                   .width = scene->width,
                                                                   .height = scene->height},
                                             &depth));
    CHECK("density map", make_density_map(ctx, scene->width, scene->height, &with[1].density_map.image));

    for (uint32_t f = 0; f < WARMUP_FRAMES + o->frames; f++)
        for (int s = 0; s < 2; s++) {
            const double t0 = tool_now_ms();
            CHECK(s ? "rendering with FDM" : "rendering",
                  tr_scene_render_with(ctx, scene, &with[s], color, depth, &sides[s].stats));
            const double t1 = tool_now_ms();
            if (f >= WARMUP_FRAMES)
                sides[s].ms[f - WARMUP_FRAMES] = t1 - t0;
        }
    for (int s = 0; s < 2; s++)
        sides[s].median_ms = median_of(sides[s].ms, o->frames);

    if (write_png) {
        /* The last frame rendered was the FDM one. */
        char path[4096];
        snprintf(path, sizeof path, "%s/%s_fdm.png", o->png_dir, name);
        CHECK(path, tr_image_write_png(color, NULL, path));
        tr_render_pass_desc rp = tr_scene_pass_desc(scene, color, depth, &with[1]);
        snprintf(path, sizeof path, "%s/%s_fdm_areas.png", o->png_dir, name);
        CHECK(path, tr_fdm_write_png(ctx, &rp, 0, color, 0, path));
    }
    status = 0;
done:
    tr_context_destroy(ctx); /* and its images */
    return status;
}

static void print_result(const options *o, const char *name, uint32_t threads, const side sides[2])
{
    const tr_pass_stats *full = &sides[0].stats, *fdm = &sides[1].stats;
    const double ratio = sides[1].median_ms / sides[0].median_ms;
    if (o->json) {
        fputs("{\"scene\":", stdout);
        tool_json_string(stdout, name);
        printf(",\"threads\":%u,\"device\":\"%s\",\"frames\":%u,\"median_ms\":%.3f,\"fdm_median_ms\":%.3f,"
               "\"fdm_time_ratio\":%.3f,\"fragments_shaded\":%llu,\"fdm_fragments_shaded\":%llu,\"stats\":",
               threads, tool_device_name(o->device), o->frames, sides[0].median_ms, sides[1].median_ms, ratio,
               (unsigned long long)full->fragments_shaded, (unsigned long long)fdm->fragments_shaded);
        tool_json_stats(stdout, full);
        fputs(",\"fdm_stats\":", stdout);
        tool_json_stats(stdout, fdm);
        fputs("}\n", stdout);
        return;
    }
    printf("%-10s threads %-3u without %8.2f ms  with FDM %8.2f ms  ratio %.3f (speed-up %.2fx)\n", name, threads,
           sides[0].median_ms, sides[1].median_ms, ratio, ratio > 0 ? 1.0 / ratio : 0.0);
    printf("           fragments shaded %llu without, %llu with (%.1f%%); bins %u of %ux%u px; areas:",
           (unsigned long long)full->fragments_shaded, (unsigned long long)fdm->fragments_shaded,
           full->fragments_shaded ? 100.0 * (double)fdm->fragments_shaded / (double)full->fragments_shaded : 0.0,
           fdm->bins, fdm->layout.bin_w, fdm->layout.bin_h);
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 3; i++)
            if (fdm->fdm_bin_views[j][i])
                printf(" %ux%u: %u", 1u << i, 1u << j, fdm->fdm_bin_views[j][i]);
    printf("; tiles %u (%u bins merged); LRZ rejected %llu with, %llu without\n", fdm->tiles, fdm->fdm_bins_merged,
           (unsigned long long)fdm->fragments_lrz_rejected, (unsigned long long)full->fragments_lrz_rejected);
}

int main(int argc, char **argv)
{
    options o;
    int pa = parse_args(argc, argv, &o);
    if (pa == 1) {
        usage(stdout);
        return 0;
    }
    if (pa != 0) {
        usage(stderr);
        return 2;
    }
    if (!o.json)
        printf("%u timed frames per side after %u warm-up, alternating; device %s; LRZ %s; merging %s; medians\n",
               o.frames, WARMUP_FRAMES, tool_device_name(o.device), o.no_lrz ? "off" : "on",
               o.no_merge ? "off" : "on");
    int status = 0;
    for (int id = 0; id < BENCH_SCENE_COUNT; id++) {
        if (!o.scene_on[id])
            continue;
        const char *name = bench_scene_name((bench_scene_id)id);
        tr_scene scene;
        char msg[512];
        tr_result r = bench_scene_generate((bench_scene_id)id, &scene, msg, sizeof msg);
        if (r == TR_ERROR_IO) {
            fprintf(stderr, PROG ": skipping %s: %s\n", name, msg);
            continue;
        }
        if (r != TR_OK) {
            fprintf(stderr, PROG ": %s: %s (%s)\n", name, msg, tr_result_string(r));
            status = 1;
            continue;
        }
        for (uint32_t t = 0; t < o.nthreads; t++) {
            side sides[2];
            uint32_t threads_used = 0;
            if (run(&o, name, &scene, o.threads[t], o.png_dir != NULL && t + 1 == o.nthreads, sides,
                    &threads_used) != 0) {
                status = 1;
                break;
            }
            print_result(&o, name, threads_used, sides);
            fflush(stdout);
        }
        tr_scene_free(&scene);
    }
    return status;
}
