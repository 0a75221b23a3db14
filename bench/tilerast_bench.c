/* tilerast-bench: times the standard scenes (bench/SCENES.md) or given scene
 * files with tr_scene_render, and exports the standard scenes as .scn files
 * so that another renderer (llvmpipe) can draw the same triangles.
 *
 * Per scene and thread count: a fresh context, 2 warm-up frames, then N timed
 * frames; the median is the headline figure because the machines are noisy.
 *
 * Where it finds what it runs (so that a copy carried to another machine,
 * as bench/device_sidebyside.sh packs it, works without this build tree):
 *   - the llvmpipe runner (tilerast-llvmpipe): $TILERAST_LLVMPIPE if set and
 *     not empty, else tilerast-llvmpipe in the directory of this executable
 *     (/proc/self/exe) if it is executable there, else the path compiled in
 *     at build time;
 *   - the bunny of the mesh scene: $TILERAST_BENCH_BUNNY if set and not
 *     empty, else bunny.obj in the directory of this executable if it is
 *     readable there, else the compiled-in BENCH_BUNNY_PATH (Debian's
 *     glmark2-data). */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_scenes.h"
#include "tilerast/tilerast.h"
#include "tool_common.h"

#define PROG "tilerast-bench"
#define BENCH_WARMUP_FRAMES 2u
#define BENCH_MAX_THREAD_COUNTS 32u
#define BENCH_MAX_FRAMES 100000u

typedef struct bench_options {
    uint32_t threads[BENCH_MAX_THREAD_COUNTS];
    uint32_t thread_count_n; /* 0: one run with the context default (all cores) */
    uint32_t frames;
    int json;
    int lrz;                 /* 1 on (default), 0 off, 2 both, alternating frame by frame */
    int llvmpipe;            /* time llvmpipe beside tilerast (when built with OSMesa) */
    uint32_t samples;        /* --samples: 1 (default), 2, 4 or 8 */
    const char *export_dir;
    char **files;
    int file_count;
} bench_options;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: " PROG " [--threads N[,N...]] [--frames N] [--samples N] [--json] [--export DIR]\n"
            "                     [FILE.scn ...]\n"
            "\n"
            "Times the six standard scenes (or the given scene files) with tilerast.\n"
            "  --threads LIST  thread counts to run, comma separated (0 = all cores;\n"
            "                  default: all cores)\n"
            "  --frames N      timed frames per run after %u warm-up frames (default 10)\n"
            "  --json          one JSON object per line instead of text\n"
            "  --no-llvmpipe   do not run llvmpipe beside tilerast (it runs when the bench\n"
            "                  was built with OSMesa: two rounds of each, alternating, at\n"
            "                  the same thread count through LP_NUM_THREADS)\n"
            "  --samples N     samples per pixel, 1 (default), 2, 4 or 8: tilerast resolves in\n"
            "                  its tiles, llvmpipe (4x only) into a second framebuffer\n"
            "  --lrz on|off|both  low-resolution Z (default on); both alternates an LRZ-on\n"
            "                  and an LRZ-off context frame by frame and prints the ratio\n"
            "  --export DIR    write the standard scenes as DIR/<name>.scn and exit\n"
            "  -h, --help      show this help\n"
            "\n"
            "Environment:\n"
            "  TILERAST_LLVMPIPE     the llvmpipe runner (bench built with OSMesa); when\n"
            "                        unset or empty, tilerast-llvmpipe next to this\n"
            "                        executable, else the one it was built with\n"
            "  TILERAST_BENCH_BUNNY  the mesh scene's bunny.obj; when unset or empty,\n"
            "                        bunny.obj next to this executable, else\n"
            "                        %s\n"
            "  LP_NUM_THREADS        not read: the bench sets it for each llvmpipe run\n",
            BENCH_WARMUP_FRAMES, BENCH_BUNNY_PATH);
}

static int parse_uint(const char *s, const char **end_out, uint32_t max, uint32_t *out)
{
    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno != 0 || v > max)
        return -1;
    *out = (uint32_t)v;
    *end_out = end;
    return 0;
}

/* Returns 0 to go on, 1 for --help, 2 for a usage error. */
static int parse_args(int argc, char **argv, bench_options *o)
{
    memset(o, 0, sizeof *o);
    o->frames = 10;
    o->lrz = 1;
    o->samples = 1;
    o->llvmpipe = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)
            return 1;
        if (strcmp(a, "--json") == 0) {
            o->json = 1;
            continue;
        }
        if (strcmp(a, "--no-llvmpipe") == 0) {
            o->llvmpipe = 0;
            continue;
        }
        if (strcmp(a, "--lrz") == 0) {
            const char *v = i + 1 < argc ? argv[++i] : "";
            if (strcmp(v, "on") == 0)
                o->lrz = 1;
            else if (strcmp(v, "off") == 0)
                o->lrz = 0;
            else if (strcmp(v, "both") == 0)
                o->lrz = 2;
            else {
                fprintf(stderr, PROG ": --lrz wants on, off or both, not '%s'\n", v);
                return 2;
            }
            continue;
        }
        if (strcmp(a, "--samples") == 0) {
            const char *v = i + 1 < argc ? argv[++i] : "";
            const char *end;
            if (parse_uint(v, &end, 8, &o->samples) != 0 || *end != '\0' || !tr_sample_count_valid(o->samples)) {
                fprintf(stderr, PROG ": --samples wants 1, 2, 4 or 8, not '%s'\n", v);
                return 2;
            }
            continue;
        }
        if (strcmp(a, "--threads") == 0 || strcmp(a, "--frames") == 0 ||
            strcmp(a, "--export") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, PROG ": %s needs a value\n", a);
                return 2;
            }
            const char *val = argv[++i];
            const char *end;
            if (strcmp(a, "--export") == 0) {
                o->export_dir = val;
            } else if (strcmp(a, "--frames") == 0) {
                if (parse_uint(val, &end, BENCH_MAX_FRAMES, &o->frames) != 0 || *end != '\0' ||
                    o->frames == 0) {
                    fprintf(stderr, PROG ": --frames wants 1..%u, not '%s'\n", BENCH_MAX_FRAMES,
                            val);
                    return 2;
                }
            } else {
                o->thread_count_n = 0;
                const char *p = val;
                for (;;) {
                    uint32_t t;
                    if (o->thread_count_n == BENCH_MAX_THREAD_COUNTS ||
                        parse_uint(p, &end, TR_MAX_THREADS, &t) != 0 ||
                        (*end != ',' && *end != '\0')) {
                        fprintf(stderr, PROG ": --threads wants a list of 0..%u, not '%s'\n",
                                TR_MAX_THREADS, val);
                        return 2;
                    }
                    o->threads[o->thread_count_n++] = t;
                    if (*end == '\0')
                        break;
                    p = end + 1;
                }
            }
            continue;
        }
        if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, PROG ": unknown option '%s'\n", a);
            return 2;
        }
        /* Scene files: the rest of argv from here, options still allowed. */
        if (o->files == NULL)
            o->files = calloc((size_t)argc, sizeof *o->files);
        if (o->files == NULL) {
            fprintf(stderr, PROG ": out of memory\n");
            return 2;
        }
        o->files[o->file_count++] = argv[i];
    }
    if (o->export_dir != NULL && o->file_count > 0) {
        fprintf(stderr, PROG ": --export writes the standard scenes; it takes no files\n");
        return 2;
    }
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of n values (sorts them in place). */
static double median_of(double *t, uint32_t n)
{
    qsort(t, n, sizeof *t, cmp_double);
    return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

/* Generates standard scene `id`.  0: done; 1: skipped (its data is not
 * installed, said on stderr); -1: failed (said on stderr). */
static int generate_standard(int id, tr_scene *scene)
{
    const char *name = bench_scene_name((bench_scene_id)id);
    char msg[512];
    tr_result r = bench_scene_generate((bench_scene_id)id, scene, msg, sizeof msg);
    if (r == TR_ERROR_IO) {
        fprintf(stderr, PROG ": skipping %s: %s\n", name, msg);
        return 1;
    }
    if (r != TR_OK) {
        fprintf(stderr, PROG ": %s: %s (%s)\n", name, msg, tr_result_string(r));
        return -1;
    }
    return 0;
}

/* ---- export ------------------------------------------------------------- */

static int export_scenes(const char *dir)
{
    int status = 0;
    for (int id = 0; id < BENCH_SCENE_COUNT; id++) {
        const char *name = bench_scene_name((bench_scene_id)id);
        tr_scene scene;
        int g = generate_standard(id, &scene);
        if (g != 0) {
            status |= g < 0;
            continue;
        }
        char path[4096];
        int n = snprintf(path, sizeof path, "%s/%s.scn", dir, name);
        if (n < 0 || (size_t)n >= sizeof path) {
            fprintf(stderr, PROG ": %s: path too long\n", dir);
            tr_scene_free(&scene);
            return 1;
        }
        tr_result r = tr_scene_save(&scene, path);
        if (r != TR_OK) {
            fprintf(stderr, PROG ": %s: cannot write (%s)\n", path, tr_result_string(r));
            status = 1;
        } else {
            printf("%s: %u triangles\n", path, scene.triangle_count);
        }
        tr_scene_free(&scene);
    }
    return status;
}

/* ---- timing ------------------------------------------------------------- */

typedef struct bench_result {
    uint32_t threads; /* as the context reports it */
    uint32_t frames;
    uint32_t flags;   /* context flags (TR_CONTEXT_NO_LRZ) */
    uint32_t samples; /* per pixel */
    double median_ms, min_ms, max_ms;
    tr_pass_stats stats; /* of the last timed frame */
} bench_result;

/* Renders one scene warm-up + frames times in a fresh context per
 * configuration (context flags); with several configurations the frames
 * alternate between them, so that the machine's noise falls on all alike.
 * The colour and depth images are made once per context and kept across
 * frames, as the llvmpipe runner's OSMesa context keeps its buffers (a
 * depth image made per frame would time the allocator: 8 MB of fresh pages
 * zeroed every frame, which the depth pass itself never touches, its store
 * being DONT_CARE).  times holds frames doubles per configuration. */
static int bench_run(const tr_scene *scene, uint32_t threads, uint32_t samples, uint32_t frames, uint32_t nconf,
                     const uint32_t *flags, double *times, bench_result *out)
{
    tr_context *ctx[2] = {NULL, NULL};
    tr_image *image[2] = {NULL, NULL};
    tr_image *depth[2] = {NULL, NULL};
    int status = -1;
    for (uint32_t c = 0; c < nconf; c++) {
        tr_context_desc cd;
        memset(&cd, 0, sizeof cd);
        cd.threads = threads;
        cd.flags = flags[c];
        tr_result r = tr_context_create(&cd, &ctx[c]);
        if (r != TR_OK) {
            fprintf(stderr, PROG ": creating a context: %s\n", tr_result_string(r));
            goto done;
        }
        tr_image_desc id;
        memset(&id, 0, sizeof id);
        id.format = TR_FORMAT_R8G8B8A8_UNORM;
        id.width = scene->width;
        id.height = scene->height;
        r = tr_image_create(ctx[c], &id, &image[c]);
        if (r != TR_OK) {
            fprintf(stderr, PROG ": creating the image: %s (%s)\n", tr_result_string(r),
                    tr_context_last_error(ctx[c]));
            goto done;
        }
        if (scene->flags & TR_SCENE_DEPTH) {
            id.format = TR_FORMAT_D32_SFLOAT;
            id.samples = samples; /* the colour's samples are the scene render's own image */
            r = tr_image_create(ctx[c], &id, &depth[c]);
            if (r != TR_OK) {
                fprintf(stderr, PROG ": creating the depth image: %s (%s)\n", tr_result_string(r),
                        tr_context_last_error(ctx[c]));
                goto done;
            }
        }
        memset(&out[c], 0, sizeof out[c]);
        out[c].threads = tr_context_get_desc(ctx[c]).threads;
        out[c].frames = frames;
        out[c].flags = flags[c];
        out[c].samples = samples;
    }
    const tr_scene_render_options ropts = {.samples = samples};
    for (uint32_t f = 0; f < BENCH_WARMUP_FRAMES + frames; f++) {
        for (uint32_t c = 0; c < nconf; c++) {
            double t0 = tool_now_ms();
            tr_result r = tr_scene_render_with(ctx[c], scene, &ropts, image[c], depth[c], &out[c].stats);
            double t1 = tool_now_ms();
            if (r != TR_OK) {
                fprintf(stderr, PROG ": rendering: %s (%s)\n", tr_result_string(r),
                        tr_context_last_error(ctx[c]));
                goto done;
            }
            if (f >= BENCH_WARMUP_FRAMES)
                times[c * frames + f - BENCH_WARMUP_FRAMES] = t1 - t0;
        }
    }
    for (uint32_t c = 0; c < nconf; c++) {
        double *t = times + c * frames;
        out[c].median_ms = median_of(t, frames);
        out[c].min_ms = t[0];
        out[c].max_ms = t[frames - 1];
    }
    status = 0;
done:
    for (uint32_t c = 0; c < nconf; c++)
        if (ctx[c])
            tr_context_destroy(ctx[c]); /* destroys the images too */
    return status;
}

static void print_result(const bench_options *o, const char *name, const tr_scene *scene,
                         const bench_result *res)
{
    const tr_pass_stats *s = &res->stats;
    const tr_bin_layout *l = &s->layout;
    double secs = res->median_ms * 1e-3;
    double mtri = secs > 0 ? (double)scene->triangle_count / secs * 1e-6 : 0.0;
    double mpix = secs > 0 ? (double)scene->width * scene->height / secs * 1e-6 : 0.0;
    if (o->json) {
        fputs("{\"scene\":", stdout);
        tool_json_string(stdout, name);
        printf(",\"renderer\":\"tilerast\",\"samples\":%u,\"lrz\":%s,\"width\":%u,\"height\":%u,\"triangles\":%u,"
               "\"flags\":%u,\"threads\":%u,\"frames\":%u,\"median_ms\":%.3f,\"min_ms\":%.3f,"
               "\"max_ms\":%.3f,\"mtri_s\":%.3f,\"mpix_s\":%.3f",
               res->samples, (res->flags & TR_CONTEXT_NO_LRZ) ? "false" : "true", scene->width, scene->height,
               scene->triangle_count, scene->flags, res->threads, res->frames, res->median_ms, res->min_ms,
               res->max_ms, mtri, mpix);
        fputs(",\"stats\":", stdout);
        tool_json_stats(stdout, s);
        fputs("}\n", stdout);
    } else {
        printf("%-16s threads %-3u lrz %-3s median %9.2f ms  min %9.2f  max %9.2f  %8.2f Mtri/s  "
               "%8.1f Mpix/s",
               name, res->threads, (res->flags & TR_CONTEXT_NO_LRZ) ? "off" : "on", res->median_ms, res->min_ms,
               res->max_ms, mtri, mpix);
        if (res->samples > 1)
            printf("  %ux", res->samples);
        putchar('\n');
        printf("    bins %u (%ux%u of %ux%u px) pipes %u | tris in %llu culled %llu clipped "
               "%llu binned %llu refs %llu | vs %.1f ms bin %.1f ms render %.1f ms\n",
               s->bins, l->bins_x, l->bins_y, l->bin_w, l->bin_h, s->pipes,
               (unsigned long long)s->primitives_in, (unsigned long long)s->primitives_culled,
               (unsigned long long)s->primitives_clipped,
               (unsigned long long)s->primitives_binned,
               (unsigned long long)s->bin_primitive_refs, s->ms_vertex, s->ms_binning,
               s->ms_render);
        printf("    frags rasterized %llu depth-rejected %llu lrz-rejected %llu shaded %llu "
               "written %llu | gmem cleared %llu loaded %llu stored %llu B\n",
               (unsigned long long)s->fragments_rasterized,
               (unsigned long long)s->fragments_depth_rejected,
               (unsigned long long)s->fragments_lrz_rejected,
               (unsigned long long)s->fragments_shaded,
               (unsigned long long)s->fragments_written,
               (unsigned long long)s->gmem_bytes_cleared,
               (unsigned long long)s->gmem_bytes_loaded,
               (unsigned long long)s->gmem_bytes_stored);
    }
    fflush(stdout);
}


/* ---- finding the runner and the bunny ----------------------------------- */

/* Writes "<directory of this executable>/<name>" to out.  0 on success. */
static int beside_self(const char *name, char *out, size_t cap)
{
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return -1;
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    if (slash == NULL)
        return -1;
    *slash = '\0';
    int w = snprintf(out, cap, "%s/%s", self, name);
    return w < 0 || (size_t)w >= cap ? -1 : 0;
}

/* The mesh scene reads $TILERAST_BENCH_BUNNY, else its compiled-in path;
 * a bunny.obj next to this executable comes in between. */
static void find_bunny(void)
{
    const char *env = getenv(BENCH_BUNNY_ENV);
    char path[4096];
    if ((env == NULL || env[0] == '\0') && beside_self("bunny.obj", path, sizeof path) == 0 &&
        access(path, R_OK) == 0)
        setenv(BENCH_BUNNY_ENV, path, 1);
}

#ifdef TILERAST_LLVMPIPE_RUNNER
#define LLVMPIPE_RUNNER_ENV "TILERAST_LLVMPIPE"

/* The llvmpipe runner: $TILERAST_LLVMPIPE, else tilerast-llvmpipe next to
 * this executable, else the one of this build (TILERAST_LLVMPIPE_RUNNER). */
static const char *llvmpipe_runner(void)
{
    static char path[4096];
    if (path[0] == '\0') {
        const char *env = getenv(LLVMPIPE_RUNNER_ENV);
        if (env != NULL && env[0] != '\0' && strlen(env) < sizeof path)
            strcpy(path, env);
        else if (beside_self("tilerast-llvmpipe", path, sizeof path) != 0 || access(path, X_OK) != 0)
            snprintf(path, sizeof path, "%s", TILERAST_LLVMPIPE_RUNNER);
    }
    return path;
}

/* Runs tilerast-llvmpipe on a scene file with LP_NUM_THREADS set for
 * `threads` (1: LP_NUM_THREADS=0, everything on one core, as SCENES.md
 * measures it); stores its frame times.  0 on success. */
static int run_llvmpipe(const char *scn_path, uint32_t threads, uint32_t samples, uint32_t frames, double *times)
{
    char lp[16];
    snprintf(lp, sizeof lp, "%u", threads <= 1 ? 0u : threads);
    if (setenv("LP_NUM_THREADS", lp, 1) != 0)
        return -1;
    /* The path is passed in single quotes; a quote inside is closed,
     * escaped and reopened. */
    const char *runner = llvmpipe_runner();
    size_t cap = 4 * strlen(runner) + 4 * strlen(scn_path) + 96;
    char *cmd = malloc(cap), *q;
    if (!cmd)
        return -1;
    q = cmd;
    *q++ = '\'';
    for (const char *p = runner; *p; p++) {
        if (*p == '\'') {
            memcpy(q, "'\\''", 4);
            q += 4;
        } else {
            *q++ = *p;
        }
    }
    q += sprintf(q, "' --frames %u --samples %u '", frames, samples);
    for (const char *p = scn_path; *p; p++) {
        if (*p == '\'') {
            memcpy(q, "'\\''", 4);
            q += 4;
        } else {
            *q++ = *p;
        }
    }
    strcpy(q, "'");
    FILE *f = popen(cmd, "r");
    free(cmd);
    if (!f)
        return -1;
    char line[1 << 16];
    size_t n = fread(line, 1, sizeof line - 1, f);
    line[n] = '\0';
    int rc = pclose(f);
    const char *t = strstr(line, "\"times\":[");
    if (rc != 0 || !t)
        return -1;
    t += 9;
    for (uint32_t i = 0; i < frames; i++) {
        char *end;
        times[i] = strtod(t, &end);
        if (end == t)
            return -1;
        t = end + 1; /* past ',' or ']' */
    }
    return 0;
}
#endif

/* Times one scene at every requested thread count.  scn_path: the scene
 * as a file (for llvmpipe), or NULL to write a temporary one. */
static int bench_scene(const bench_options *o, const char *name, const tr_scene *scene,
                       const char *scn_path, double *times)
{
    uint32_t n = o->thread_count_n ? o->thread_count_n : 1;
    int status = 0;
    int llvmpipe = 0;
    char tmp_path[64] = "";
#ifdef TILERAST_LLVMPIPE_RUNNER
    llvmpipe = o->llvmpipe;
    if (llvmpipe && !scn_path) {
        strcpy(tmp_path, "/tmp/tilerast-bench-XXXXXX");
        int fd = mkstemp(tmp_path);
        if (fd < 0 || tr_scene_save(scene, tmp_path) != TR_OK) {
            fprintf(stderr, PROG ": %s: cannot write a temporary scene file for llvmpipe\n", name);
            llvmpipe = 0;
        }
        if (fd >= 0)
            close(fd);
        scn_path = tmp_path;
    }
#else
    static int told;
    if (o->llvmpipe && !told++)
        fprintf(stderr, PROG ": llvmpipe side by side skipped: built without OSMesa "
                        "(Debian: libosmesa6-dev)\n");
#endif
    const uint32_t rounds = llvmpipe ? 2 : 1;
    double *tl = malloc(sizeof(double) * o->frames * rounds), *lp = malloc(sizeof(double) * o->frames * rounds);
    if (!tl || !lp) {
        free(tl);
        free(lp);
        return 1;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t threads = o->thread_count_n ? o->threads[i] : 0;
        bench_result res[2];
        const uint32_t both[2] = {0, TR_CONTEXT_NO_LRZ};
        const uint32_t one = o->lrz ? 0 : TR_CONTEXT_NO_LRZ;
        uint32_t nconf = o->lrz == 2 ? 2 : 1;
        int failed = 0, lp_ok = llvmpipe;
        /* Rounds alternate the two renderers so that the machine's noise
         * falls on both. */
        for (uint32_t r = 0; r < rounds && !failed; r++) {
            if (bench_run(scene, threads, o->samples, o->frames, nconf, nconf == 2 ? both : &one, times, res) != 0) {
                failed = 1;
                break;
            }
            memcpy(tl + (size_t)r * o->frames, times, sizeof(double) * o->frames);
#ifdef TILERAST_LLVMPIPE_RUNNER
            if (lp_ok && run_llvmpipe(scn_path, res[0].threads, o->samples, o->frames, lp + (size_t)r * o->frames) != 0) {
                fprintf(stderr, PROG ": %s: the llvmpipe runner (%s) failed\n", name, llvmpipe_runner());
                lp_ok = 0;
            }
#endif
        }
        if (failed) {
            fprintf(stderr, PROG ": %s: failed with %u threads\n", name, threads);
            status = 1;
            continue;
        }
        if (rounds > 1) {
            /* tilerast's figures over every round (the first configuration) */
            res[0].frames = o->frames * rounds;
            res[0].median_ms = median_of(tl, res[0].frames);
            res[0].min_ms = tl[0];
            res[0].max_ms = tl[res[0].frames - 1];
        }
        for (uint32_t c = 0; c < nconf; c++)
            print_result(o, name, scene, &res[c]);
        if (nconf == 2 && res[0].median_ms > 0) {
            double ratio = res[1].median_ms / res[0].median_ms;
            if (o->json)
                printf("{\"scene\":\"%s\",\"threads\":%u,\"lrz_off_over_on\":%.3f}\n", name, res[0].threads,
                       ratio);
            else
                printf("    LRZ: off %.2f ms / on %.2f ms = %.2fx (medians, frames alternated)\n",
                       res[1].median_ms, res[0].median_ms, ratio);
        }
        if (lp_ok) {
            uint32_t nf = o->frames * rounds;
            double lmed = median_of(lp, nf);
            double speedup = res[0].median_ms > 0 ? lmed / res[0].median_ms : 0.0;
            if (o->json) {
                fputs("{\"scene\":", stdout);
                tool_json_string(stdout, name);
                printf(",\"renderer\":\"llvmpipe\",\"threads\":%u,\"frames\":%u,\"median_ms\":%.3f,"
                       "\"min_ms\":%.3f,\"max_ms\":%.3f,\"speedup_vs_llvmpipe\":%.3f}\n",
                       res[0].threads, nf, lmed, lp[0], lp[nf - 1], speedup);
            } else {
                printf("%-16s threads %-3u llvmpipe median %9.2f ms  min %9.2f  max %9.2f"
                       "  -> tilerast is %.2fx llvmpipe's speed\n",
                       name, res[0].threads, lmed, lp[0], lp[nf - 1], speedup);
            }
            fflush(stdout);
        }
    }
    free(tl);
    free(lp);
    if (tmp_path[0])
        remove(tmp_path);
    return status;
}

int main(int argc, char **argv)
{
    bench_options o;
    int pa = parse_args(argc, argv, &o);
    if (pa == 1) {
        usage(stdout);
        free(o.files);
        return 0;
    }
    if (pa != 0) {
        fprintf(stderr, "usage: " PROG " [--threads N[,N...]] [--frames N] [--samples N] [--json] "
                        "[--export DIR] [FILE.scn ...]\nTry '" PROG " --help' for more.\n");
        free(o.files);
        return 2;
    }
    find_bunny();
    if (o.export_dir != NULL)
        return export_scenes(o.export_dir);

    double *times = malloc(2 * (size_t)o.frames * sizeof *times);
    if (times == NULL) {
        fprintf(stderr, PROG ": out of memory\n");
        free(o.files);
        return 1;
    }
    int status = 0;
    if (o.file_count > 0) {
        for (int i = 0; i < o.file_count; i++) {
            tr_scene scene;
            char msg[256];
            tr_result r = tr_scene_load(o.files[i], &scene, msg, sizeof msg);
            if (r != TR_OK) {
                fprintf(stderr, PROG ": %s: %s\n", o.files[i], msg);
                status = 1;
                continue;
            }
            if (bench_scene(&o, o.files[i], &scene, o.files[i], times) != 0)
                status = 1;
            tr_scene_free(&scene);
        }
    } else {
        for (int id = 0; id < BENCH_SCENE_COUNT; id++) {
            const char *name = bench_scene_name((bench_scene_id)id);
            tr_scene scene;
            int g = generate_standard(id, &scene);
            if (g != 0) {
                status |= g < 0;
                continue;
            }
            if (bench_scene(&o, name, &scene, NULL, times) != 0)
                status = 1;
            tr_scene_free(&scene);
        }
    }
    free(times);
    free(o.files);
    return status;
}
