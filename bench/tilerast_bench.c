/* tilerast-bench: times the standard scenes (bench/SCENES.md) or given scene
 * files with tr_scene_render, and exports the standard scenes as .scn files
 * so that another renderer (llvmpipe) can draw the same triangles.
 *
 * Per scene and thread count: a fresh context, 2 warm-up frames, then N timed
 * frames; the median is the headline figure because the machines are noisy.
 *
 * Where it finds what it runs (so that a copy carried to another machine,
 * as bench/device_sidebyside.sh packs it, or installed with cmake --install,
 * works without this build tree):
 *   - the llvmpipe runner (tilerast-llvmpipe): $TILERAST_LLVMPIPE if set and
 *     not empty, else tilerast-llvmpipe in the directory of this executable
 *     (/proc/self/exe) if it is executable there, else the path compiled in
 *     at build time;
 *   - the bunny of the mesh scene: $TILERAST_BENCH_BUNNY if set and not
 *     empty, else bunny.obj in the directory of this executable if it is
 *     readable there, else the compiled-in BENCH_BUNNY_PATH (Debian's
 *     glmark2-data);
 *   - the GLSL scene shaders (scene.vert, scene.frag) of --shader spirv|both
 *     and --compare-llvmpipe: --shaders DIR, else $TILERAST_SHADERS if set
 *     and not empty, else shaders/ in the directory of this executable if
 *     it holds scene.vert, else the installed copy (BENCH_INSTALLED_SHADERS,
 *     ../share/tilerast/shaders from that directory) if it holds
 *     scene.vert, else the repository's shaders/ compiled in
 *     (TILERAST_SHADERS_DIR).  tilerast compiles them with shaderc at
 *     startup (for Vulkan); the llvmpipe runner compiles the same text
 *     with OpenGL 4.5 core (tilerast-llvmpipe --glsl).
 *
 * --shader both times the C callbacks and the SPIR-V modules in the same
 * process, frame by frame alternated (as --lrz both), and prints the ratio
 * SPIR-V / C; with llvmpipe, the runner then draws the same GLSL.
 * --compare-llvmpipe renders each scene once with tilerast (SPIR-V and C)
 * and llvmpipe (GLSL and fixed-function), twice each with two clear
 * colours so that written pixels are told from cleared ones, and counts
 * the pixels whose coverage or colour differ. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bench_glsl.h"
#include "bench_scenes.h"
#ifdef TILERAST_BENCH_HEAVY
#include "bench_heavy.h"

/* Where bench_heavy.c reads its GLSL (bench_heavy_dir.h): set in main. */
char bench_heavy_shader_dir[1024];
#endif
#include "tilerast/tilerast.h"
#include "tool_common.h"
#ifdef TILERAST_HAVE_ASSIMP
#include "tool_model.h"
#endif

#define PROG "tilerast-bench"
#define BENCH_WARMUP_FRAMES 2u
#define BENCH_MAX_THREAD_COUNTS 32u
#define BENCH_MAX_FRAMES 100000u
#define BENCH_MAX_CONFIGS 4u /* LRZ on/off x C/SPIR-V */
#define SHADERS_ENV "TILERAST_SHADERS"
/* Where cmake --install puts the shaders, relative to the installed
 * executable's folder (bench/CMakeLists.txt defines it from the install
 * directories). */
#ifndef BENCH_INSTALLED_SHADERS
#define BENCH_INSTALLED_SHADERS "../share/tilerast/shaders"
#endif

enum { BENCH_SHADER_C = 0, BENCH_SHADER_SPIRV = 1, BENCH_SHADER_BOTH = 2 };

typedef struct bench_options {
    uint32_t threads[BENCH_MAX_THREAD_COUNTS];
    uint32_t thread_count_n; /* 0: one run with the context default (all cores) */
    uint32_t frames;
    int json;
    int lrz;                 /* 1 on (default), 0 off, 2 both, alternating frame by frame */
    int llvmpipe;            /* time llvmpipe beside tilerast (when built with OSMesa) */
    uint32_t samples;        /* --samples: 1 (default), 2, 4 or 8 */
    int shader;              /* BENCH_SHADER_*: C callbacks (default), SPIR-V, both alternated */
    int compare;             /* --compare-llvmpipe */
    const char *shaders_dir; /* --shaders */
    int no_heavy;            /* --no-heavy: the six standard scenes only */
    const char *only;        /* --scene NAME: that scene alone (a standard one or "heavy") */
    const char *export_dir;
    char **files;
    int file_count;
} bench_options;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: " PROG " [--threads N[,N...]] [--frames N] [--samples N] [--json] [--export DIR]\n"
            "                     [--shader c|spirv|both] [--shaders DIR] [--compare-llvmpipe]\n"
            "                     [FILE.scn|MODEL ...]\n"
            "\n"
            "Times the six standard scenes, the shader-heavy one and the model scene\n"
            "\"engine\" (or the given scene files and models) with tilerast.\n"
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
            "  --shader c|spirv|both  the scene shaders: the C callbacks (default), the\n"
            "                  GLSL twins shaders/scene.vert and scene.frag compiled to\n"
            "                  SPIR-V with shaderc, or both alternated frame by frame with\n"
            "                  the ratio SPIR-V / C; with spirv or both, llvmpipe draws the\n"
            "                  same GLSL in an OpenGL 4.5 core context\n"
            "  --shaders DIR   where scene.vert and scene.frag are (default below); the\n"
            "                  heavy scene's GLSL is DIR/bench/heavy.vert and heavy.frag\n"
            "  --scene NAME    that scene alone (tri_small, ..., heavy, engine)\n"
            "  --no-heavy      skip the shader-heavy scene \"heavy\" (bench_heavy.c, when\n"
            "                  built in), which follows the six standard scenes: C and/or\n"
            "                  SPIR-V as --shader says, llvmpipe drawing its GLSL; and the\n"
            "                  model scene \"engine\" (2CylinderEngine.glb of Debian's\n"
            "                  assimp-testmodels, drawn as tilerast-render draws models)\n"
            "  MODEL           a .gltf, .glb, .obj or other file assimp reads: drawn as\n"
            "                  tilerast-render draws it (1024x768, shaders/model.*), with\n"
            "                  llvmpipe drawing the same draws and GLSL\n"
            "  --compare-llvmpipe  render each scene once with tilerast (SPIR-V, C) and\n"
            "                  llvmpipe (GLSL, fixed function) and count the pixels whose\n"
            "                  coverage or colour differ (|d| = 1, 2..3, >3); no timing\n"
            "  --export DIR    write the six standard scenes as DIR/<name>.scn (creating\n"
            "                  DIR and its parents when missing) and exit\n"
            "  -h, --help      show this help\n"
            "\n"
            "Scene files: the standard scenes are generated in this program, not read\n"
            "from disk; --export DIR writes them as .scn files (SRSCENE1, one per scene),\n"
            "which this program (FILE.scn ...), tilerast-render and the llvmpipe runner\n"
            "read.  The heavy scene is drawn by this program only (no file).\n"
            "bench/SCENES.md in the source tree describes the scenes and the file format.\n"
            "\n"
            "Environment:\n"
            "  TILERAST_LLVMPIPE     the llvmpipe runner (bench built with OSMesa); when\n"
            "                        unset or empty, tilerast-llvmpipe next to this\n"
            "                        executable, else the one it was built with\n"
            "  TILERAST_BENCH_BUNNY  the mesh scene's bunny.obj; when unset or empty,\n"
            "                        bunny.obj next to this executable, else\n"
            "                        %s\n"
            "  TILERAST_SHADERS      the folder of scene.vert and scene.frag (and of\n"
            "                        bench/heavy.vert, heavy.frag) when --shaders is not\n"
            "                        given; when unset or empty, shaders/ next to this\n"
            "                        executable, else " BENCH_INSTALLED_SHADERS "\n"
            "                        from its folder (where cmake --install puts them),\n"
            "                        else %s\n"
            "  LP_NUM_THREADS        not read: the bench sets it for each llvmpipe run\n",
            BENCH_WARMUP_FRAMES, BENCH_BUNNY_PATH, TILERAST_SHADERS_DIR);
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
        if (strcmp(a, "--scene") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, PROG ": --scene needs a value\n");
                return 2;
            }
            o->only = argv[++i];
            if (bench_scene_find(o->only) < 0 && strcmp(o->only, "heavy") != 0 && strcmp(o->only, "engine") != 0) {
                fprintf(stderr, PROG ": --scene: no scene '%s'\n", o->only);
                return 2;
            }
            continue;
        }
        if (strcmp(a, "--no-heavy") == 0) {
            o->no_heavy = 1;
            continue;
        }
        if (strcmp(a, "--compare-llvmpipe") == 0) {
            o->compare = 1;
            continue;
        }
        if (strcmp(a, "--shader") == 0) {
            const char *v = i + 1 < argc ? argv[++i] : "";
            if (strcmp(v, "c") == 0)
                o->shader = BENCH_SHADER_C;
            else if (strcmp(v, "spirv") == 0)
                o->shader = BENCH_SHADER_SPIRV;
            else if (strcmp(v, "both") == 0)
                o->shader = BENCH_SHADER_BOTH;
            else {
                fprintf(stderr, PROG ": --shader wants c, spirv or both, not '%s'\n", v);
                return 2;
            }
            continue;
        }
        if (strcmp(a, "--shaders") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, PROG ": --shaders needs a value\n");
                return 2;
            }
            o->shaders_dir = argv[++i];
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

/* Creates dir and its missing parents, as mkdir -p does: a part that
 * exists must be a directory.  0 on success, else -1 after saying on
 * stderr which part failed and why. */
static int make_dirs(const char *dir)
{
    char path[4096];
    const size_t len = strlen(dir);
    if (len == 0 || len >= sizeof path) {
        fprintf(stderr, PROG ": --export: %s\n", len ? "directory path too long" : "empty directory path");
        return -1;
    }
    memcpy(path, dir, len + 1);
    /* each prefix ending before a '/' (not the root's), then the whole path */
    for (size_t i = 1; i <= len; i++) {
        if (i < len && (path[i] != '/' || path[i - 1] == '/'))
            continue;
        const char keep = path[i];
        path[i] = '\0';
        struct stat st;
        if (mkdir(path, 0777) != 0) {
            const int e = errno;
            if (e != EEXIST) {
                fprintf(stderr, PROG ": --export: cannot create directory '%s': %s\n", path, strerror(e));
                return -1;
            }
            if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
                fprintf(stderr, PROG ": --export: '%s' exists and is not a directory\n", path);
                return -1;
            }
        }
        path[i] = keep;
    }
    return 0;
}

/* Writes the six standard scenes as dir/<name>.scn, creating dir first. */
static int export_scenes(const char *dir)
{
    int status = 0;
    if (make_dirs(dir) != 0)
        return 1;
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

/* ---- the SPIR-V scene shaders -------------------------------------------- */

/* SPIR-V words of shaders/scene.vert and scene.frag, [flat][fragment],
 * compiled once at startup (bench_spirv_compile). */
static struct {
    uint32_t *code[2][2];
    size_t words[2][2];
    char dir[4096];
} spv;

/* Writes "<directory of this executable>/<name>" to out.  0 on success. */
static int beside_self(const char *name, char *out, size_t cap);

/* The folder of the scene shaders: --shaders, $TILERAST_SHADERS, shaders/
 * beside this executable, the installed ones (BENCH_INSTALLED_SHADERS from
 * this executable's folder), the source tree's. */
static const char *shaders_dir(const bench_options *o)
{
    if (spv.dir[0] == '\0') {
        const char *env = getenv(SHADERS_ENV);
        char probe[4096];
        if (o->shaders_dir != NULL)
            snprintf(spv.dir, sizeof spv.dir, "%s", o->shaders_dir);
        else if (env != NULL && env[0] != '\0')
            snprintf(spv.dir, sizeof spv.dir, "%s", env);
        else if ((beside_self("shaders/scene.vert", probe, sizeof probe) == 0 && access(probe, R_OK) == 0) ||
                 (beside_self(BENCH_INSTALLED_SHADERS "/scene.vert", probe, sizeof probe) == 0 &&
                  access(probe, R_OK) == 0)) {
            *strrchr(probe, '/') = '\0'; /* the folder */
            memcpy(spv.dir, probe, strlen(probe) + 1);
        } else
            snprintf(spv.dir, sizeof spv.dir, "%s", TILERAST_SHADERS_DIR);
    }
    return spv.dir;
}

/* Compiles both stages, smooth and flat, with shaderc.  0 on success. */
static int bench_spirv_compile(const bench_options *o)
{
    static const char *const flat_defs[] = {"SCENE_FLAT", NULL};
    static const char *const files[2] = {"scene.vert", "scene.frag"};
    const char *dir = shaders_dir(o);
    for (int flat = 0; flat < 2; flat++) {
        for (int st = 0; st < 2; st++) {
            char msg[4096];
            char *src = bench_glsl_source(dir, files[st], flat ? flat_defs : NULL, msg, sizeof msg);
            if (src == NULL) {
                fprintf(stderr, PROG ": %s (--shaders DIR or $" SHADERS_ENV " names the folder)\n", msg);
                return -1;
            }
            spv.code[flat][st] = bench_glsl_spirv(src, files[st], st, &spv.words[flat][st], msg, sizeof msg);
            free(src);
            if (spv.code[flat][st] == NULL) {
                fprintf(stderr, PROG ": %s/%s%s: %s\n", dir, files[st], flat ? " (SCENE_FLAT)" : "", msg);
                return -1;
            }
        }
    }
    return 0;
}

static void bench_spirv_free(void)
{
    for (int flat = 0; flat < 2; flat++)
        for (int st = 0; st < 2; st++)
            free(spv.code[flat][st]);
}

/* The scene's modules in ctx (the flat pair for a flat scene), into
 * ropts.  0 on success. */
static int bench_spirv_modules(tr_context *ctx, const tr_scene *scene, tr_shader_module *m[2],
                               tr_scene_render_options *ropts)
{
    const int flat = (scene->flags & TR_SCENE_FLAT) != 0;
    for (int st = 0; st < 2; st++) {
        const tr_shader_module_desc d = {.code = spv.code[flat][st], .code_size = spv.words[flat][st] * 4};
        tr_result r = tr_shader_module_create(ctx, &d, &m[st]);
        if (r != TR_OK) {
            fprintf(stderr, PROG ": the %s module: %s (%s)\n", st ? "fragment" : "vertex", tr_result_string(r),
                    tr_context_last_error(ctx));
            return -1;
        }
    }
    ropts->vertex_module = m[0];
    ropts->fragment_module = m[1];
    return 0;
}

/* ---- timing ------------------------------------------------------------- */

/* One configuration of bench_run: context flags and which shaders. */
typedef struct bench_conf {
    uint32_t flags; /* context flags (TR_CONTEXT_NO_LRZ) */
    int spirv;      /* the SPIR-V modules instead of the C callbacks */
} bench_conf;

typedef struct bench_result {
    uint32_t threads; /* as the context reports it */
    uint32_t frames;
    uint32_t flags;   /* context flags (TR_CONTEXT_NO_LRZ) */
    int spirv;        /* drawn through the SPIR-V modules */
    uint32_t samples; /* per pixel */
    double median_ms, min_ms, max_ms;
    tr_pass_stats stats; /* of the last timed frame */
} bench_result;

/* A result's frame figures from its n frame times t (sorted here). */
static void summarise(bench_result *r, double *t, uint32_t n)
{
    r->frames = n;
    r->median_ms = median_of(t, n);
    r->min_ms = t[0];
    r->max_ms = t[n - 1];
}

/* Renders one scene warm-up + frames times in a fresh context per
 * configuration (context flags and shaders); with several configurations
 * the frames alternate between them, so that the machine's noise falls on
 * all alike.  The colour and depth images are made once per context and
 * kept across frames, as the llvmpipe runner's OSMesa context keeps its
 * buffers (a depth image made per frame would time the allocator: 8 MB of
 * fresh pages zeroed every frame, which the depth pass itself never
 * touches, its store being DONT_CARE).  A SPIR-V configuration makes its
 * modules once per context; each frame's tr_scene_render_with makes its
 * pipeline (translating the modules) inside the timing, as the C one makes
 * its own.  times holds frames doubles per configuration. */
static int bench_run(const tr_scene *scene, uint32_t threads, uint32_t samples, uint32_t frames, uint32_t nconf,
                     const bench_conf *conf, double *times, bench_result *out)
{
    tr_context *ctx[BENCH_MAX_CONFIGS] = {NULL};
    tr_image *image[BENCH_MAX_CONFIGS] = {NULL};
    tr_image *depth[BENCH_MAX_CONFIGS] = {NULL};
    tr_shader_module *mod[BENCH_MAX_CONFIGS][2] = {{NULL}};
    tr_scene_render_options ropts[BENCH_MAX_CONFIGS];
    int status = -1;
    for (uint32_t c = 0; c < nconf; c++) {
        memset(&ropts[c], 0, sizeof ropts[c]);
        ropts[c].samples = samples;
        tr_context_desc cd;
        memset(&cd, 0, sizeof cd);
        cd.threads = threads;
        cd.flags = conf[c].flags;
        tr_result r = tr_context_create(&cd, &ctx[c]);
        if (r != TR_OK) {
            fprintf(stderr, PROG ": creating a context: %s\n", tr_result_string(r));
            goto done;
        }
        if (conf[c].spirv && bench_spirv_modules(ctx[c], scene, mod[c], &ropts[c]) != 0)
            goto done;
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
        out[c].flags = conf[c].flags;
        out[c].spirv = conf[c].spirv;
        out[c].samples = samples;
    }
    for (uint32_t f = 0; f < BENCH_WARMUP_FRAMES + frames; f++) {
        for (uint32_t c = 0; c < nconf; c++) {
            double t0 = tool_now_ms();
            tr_result r = tr_scene_render_with(ctx[c], scene, &ropts[c], image[c], depth[c], &out[c].stats);
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
    for (uint32_t c = 0; c < nconf; c++) {
        tr_shader_module_destroy(mod[c][0]);
        tr_shader_module_destroy(mod[c][1]);
        if (ctx[c])
            tr_context_destroy(ctx[c]); /* destroys the images too */
    }
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
        printf(",\"renderer\":\"tilerast\",\"shader\":\"%s\",\"samples\":%u,\"lrz\":%s,\"width\":%u,\"height\":%u,\"triangles\":%u,"
               "\"flags\":%u,\"threads\":%u,\"frames\":%u,\"median_ms\":%.3f,\"min_ms\":%.3f,"
               "\"max_ms\":%.3f,\"mtri_s\":%.3f,\"mpix_s\":%.3f",
               res->spirv ? "spirv" : "c", res->samples, (res->flags & TR_CONTEXT_NO_LRZ) ? "false" : "true",
               scene->width, scene->height,
               scene->triangle_count, scene->flags, res->threads, res->frames, res->median_ms, res->min_ms,
               res->max_ms, mtri, mpix);
        fputs(",\"stats\":", stdout);
        tool_json_stats(stdout, s);
        fputs("}\n", stdout);
    } else {
        printf("%-16s threads %-3u lrz %-3s %-6s median %9.2f ms  min %9.2f  max %9.2f  %8.2f Mtri/s  "
               "%8.1f Mpix/s",
               name, res->threads, (res->flags & TR_CONTEXT_NO_LRZ) ? "off" : "on", res->spirv ? "SPIR-V" : "C",
               res->median_ms, res->min_ms, res->max_ms, mtri, mpix);
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

/* llvmpipe's line beside tilerast's results res[0] (and res[1], SPIR-V,
 * with two shaders): its median over the nf frames of lp, and the speed-ups. */
static void print_llvmpipe(const bench_options *o, const char *name, const char *lp_shader,
                           const bench_result *res, uint32_t nshader, double *lp, uint32_t nf)
{
    double lmed = median_of(lp, nf);
    double speedup = res[0].median_ms > 0 ? lmed / res[0].median_ms : 0.0;
    double sp_speedup = nshader == 2 && res[1].median_ms > 0 ? lmed / res[1].median_ms : 0.0;
    if (o->json) {
        fputs("{\"scene\":", stdout);
        tool_json_string(stdout, name);
        printf(",\"renderer\":\"llvmpipe\",\"shader\":\"%s\",\"threads\":%u,\"frames\":%u,\"median_ms\":%.3f,"
               "\"min_ms\":%.3f,\"max_ms\":%.3f,\"speedup_vs_llvmpipe\":%.3f",
               lp_shader, res[0].threads, nf, lmed, lp[0], lp[nf - 1], speedup);
        if (nshader == 2)
            printf(",\"spirv_speedup_vs_llvmpipe\":%.3f", sp_speedup);
        fputs("}\n", stdout);
    } else {
        printf("%-16s threads %-3u llvmpipe (%s) median %9.2f ms  min %9.2f  max %9.2f"
               "  -> tilerast%s is %.2fx llvmpipe's speed",
               name, res[0].threads, lp_shader, lmed, lp[0], lp[nf - 1],
               nshader == 2 ? " (C)" : res[0].spirv ? " (SPIR-V)" : "", speedup);
        if (nshader == 2)
            printf(", SPIR-V %.2fx", sp_speedup);
        putchar('\n');
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

/* Appends `arg` to the command at *q in single quotes (a quote inside is
 * closed, escaped and reopened), then a space. */
static void shell_arg(char **q, const char *arg)
{
    char *w = *q;
    *w++ = '\'';
    for (const char *p = arg; *p; p++) {
        if (*p == '\'') {
            memcpy(w, "'\\''", 4);
            w += 4;
        } else {
            *w++ = *p;
        }
    }
    *w++ = '\'';
    *w++ = ' ';
    *w = '\0';
    *q = w;
}

/* Runs tilerast-llvmpipe on a scene file with LP_NUM_THREADS set for
 * `threads` (1: LP_NUM_THREADS=0, everything on one core, as SCENES.md
 * measures it) and the runner's options `args` (NULL-terminated; NULL for
 * none); stores its frame times (times may be NULL).  0 on success. */
static int run_llvmpipe(const char *scn_path, uint32_t threads, uint32_t samples, uint32_t frames,
                        const char *const *args, double *times)
{
    char lp[16];
    snprintf(lp, sizeof lp, "%u", threads <= 1 ? 0u : threads);
    if (setenv("LP_NUM_THREADS", lp, 1) != 0)
        return -1;
    const char *runner = llvmpipe_runner();
    char nums[64];
    snprintf(nums, sizeof nums, "--frames %u --samples %u ", frames, samples);
    size_t cap = 4 * strlen(runner) + (scn_path ? 4 * strlen(scn_path) : 0) + sizeof nums + 16;
    for (const char *const *a = args; a && *a; a++)
        cap += 4 * strlen(*a) + 3;
    char *cmd = malloc(cap), *q;
    if (!cmd)
        return -1;
    q = cmd;
    shell_arg(&q, runner);
    q += sprintf(q, "%s", nums);
    for (const char *const *a = args; a && *a; a++)
        shell_arg(&q, *a);
    if (scn_path)
        shell_arg(&q, scn_path);
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
    for (uint32_t i = 0; i < frames && times; i++) {
        char *end;
        times[i] = strtod(t, &end);
        if (end == t)
            return -1;
        t = end + 1; /* past ',' or ']' */
    }
    return 0;
}

/* run_llvmpipe for the heavy scene (the runner's --heavy in args). */
static int run_llvmpipe_heavy(uint32_t threads, uint32_t frames, const char *const *args, double *times)
{
    return run_llvmpipe(NULL, threads, 1, frames, args, times);
}
#endif

/* Writes the scene to a temporary file for llvmpipe (path: 64 bytes).
 * 0 on success. */
static int temp_scene(const tr_scene *scene, char *path)
{
    strcpy(path, "/tmp/tilerast-bench-XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0) {
        path[0] = '\0';
        return -1;
    }
    close(fd);
    if (tr_scene_save(scene, path) != TR_OK) {
        remove(path);
        path[0] = '\0';
        return -1;
    }
    return 0;
}

/* Times one scene at every requested thread count.  scn_path: the scene
 * as a file (for llvmpipe), or NULL to write a temporary one. */
static int bench_scene(const bench_options *o, const char *name, const tr_scene *scene,
                       const char *scn_path, double *times)
{
    uint32_t n = o->thread_count_n ? o->thread_count_n : 1;
    int status = 0;
    int llvmpipe = 0;
    char tmp_path[64] = "";
    /* llvmpipe draws the GLSL when tilerast draws SPIR-V */
    const char *lp_args[3] = {NULL, NULL, NULL};
    if (o->shader != BENCH_SHADER_C) {
        lp_args[0] = "--glsl";
        lp_args[1] = shaders_dir(o);
    }
#ifdef TILERAST_LLVMPIPE_RUNNER
    llvmpipe = o->llvmpipe;
    if (llvmpipe && !scn_path) {
        if (temp_scene(scene, tmp_path) != 0) {
            fprintf(stderr, PROG ": %s: cannot write a temporary scene file for llvmpipe\n", name);
            llvmpipe = 0;
        }
        scn_path = tmp_path;
    }
#else
    static int told;
    if (o->llvmpipe && !told++)
        fprintf(stderr, PROG ": llvmpipe side by side skipped: built without OSMesa "
                        "(Debian: libosmesa6-dev)\n");
#endif
    /* The configurations, alternated frame by frame: LRZ modes x shaders. */
    bench_conf conf[BENCH_MAX_CONFIGS];
    uint32_t nconf = 0;
    const uint32_t lrz_flags[2] = {o->lrz == 0 ? TR_CONTEXT_NO_LRZ : 0u, TR_CONTEXT_NO_LRZ};
    const uint32_t nlrz = o->lrz == 2 ? 2 : 1;
    const uint32_t nshader = o->shader == BENCH_SHADER_BOTH ? 2 : 1;
    for (uint32_t l = 0; l < nlrz; l++)
        for (uint32_t sh = 0; sh < nshader; sh++) {
            conf[nconf].flags = lrz_flags[l];
            conf[nconf].spirv = o->shader == BENCH_SHADER_SPIRV || sh == 1;
            nconf++;
        }
    const uint32_t rounds = llvmpipe ? 2 : 1;
    /* tl: tilerast's times [configuration][round * frames + frame] */
    double *tl = malloc(sizeof(double) * o->frames * rounds * nconf), *lp = malloc(sizeof(double) * o->frames * rounds);
    if (!tl || !lp) {
        free(tl);
        free(lp);
        return 1;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t threads = o->thread_count_n ? o->threads[i] : 0;
        bench_result res[BENCH_MAX_CONFIGS];
        int failed = 0, lp_ok = llvmpipe;
        /* Rounds alternate the two renderers so that the machine's noise
         * falls on both. */
        for (uint32_t r = 0; r < rounds && !failed; r++) {
            if (bench_run(scene, threads, o->samples, o->frames, nconf, conf, times, res) != 0) {
                failed = 1;
                break;
            }
            for (uint32_t c = 0; c < nconf; c++)
                memcpy(tl + ((size_t)c * rounds + r) * o->frames, times + (size_t)c * o->frames,
                       sizeof(double) * o->frames);
#ifdef TILERAST_LLVMPIPE_RUNNER
            if (lp_ok && run_llvmpipe(scn_path, res[0].threads, o->samples, o->frames, lp_args,
                                      lp + (size_t)r * o->frames) != 0) {
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
            /* tilerast's figures over every round */
            for (uint32_t c = 0; c < nconf; c++)
                summarise(&res[c], tl + (size_t)c * rounds * o->frames, o->frames * rounds);
        }
        for (uint32_t c = 0; c < nconf; c++)
            print_result(o, name, scene, &res[c]);
        if (nlrz == 2) {
            /* LRZ off over on, for each shader */
            for (uint32_t sh = 0; sh < nshader; sh++) {
                const bench_result *on = &res[sh], *off = &res[nshader + sh];
                if (on->median_ms <= 0)
                    continue;
                double ratio = off->median_ms / on->median_ms;
                if (o->json)
                    printf("{\"scene\":\"%s\",\"threads\":%u,\"shader\":\"%s\",\"lrz_off_over_on\":%.3f}\n", name,
                           on->threads, on->spirv ? "spirv" : "c", ratio);
                else
                    printf("    LRZ (%s): off %.2f ms / on %.2f ms = %.2fx (medians, frames alternated)\n",
                           on->spirv ? "SPIR-V" : "C", off->median_ms, on->median_ms, ratio);
            }
        }
        if (nshader == 2) {
            /* SPIR-V over C, for each LRZ mode */
            for (uint32_t l = 0; l < nlrz; l++) {
                const bench_result *c = &res[2 * l], *sp = &res[2 * l + 1];
                if (c->median_ms <= 0)
                    continue;
                double ratio = sp->median_ms / c->median_ms;
                if (o->json)
                    printf("{\"scene\":\"%s\",\"threads\":%u,\"lrz\":%s,\"spirv_over_c\":%.3f}\n", name, c->threads,
                           (c->flags & TR_CONTEXT_NO_LRZ) ? "false" : "true", ratio);
                else
                    printf("    SPIR-V / C (lrz %s): %.2f ms / %.2f ms = %.2fx (medians, frames alternated)\n",
                           (c->flags & TR_CONTEXT_NO_LRZ) ? "off" : "on", sp->median_ms, c->median_ms, ratio);
            }
        }
        if (lp_ok) /* against the first LRZ mode: C (or SPIR-V alone) first, SPIR-V second with both */
            print_llvmpipe(o, name, o->shader != BENCH_SHADER_C ? "glsl" : "fixed", res, nshader, lp,
                           o->frames * rounds);
    }
    free(tl);
    free(lp);
    if (tmp_path[0])
        remove(tmp_path);
    return status;
}

/* ---- comparing images with llvmpipe ------------------------------------- */

/* Pixel counts of one comparison of renderer a against renderer b. */
typedef struct compare_counts {
    uint64_t pixels;       /* compared */
    uint64_t covered_a, covered_b;
    uint64_t coverage;     /* covered by one renderer only */
    uint64_t same;         /* covered by both, the same bytes */
    uint64_t d1, d2_3, dbig; /* covered by both: the largest channel difference is 1, 2..3, >3 */
    uint32_t max_d;
} compare_counts;

/* A pixel is covered when it is not the clear colour in either image: the
 * scene drawn once over its own clear colour (x0) and once over another
 * (x1, clear1), so that a primitive that happens to write the clear colour
 * is still seen.  Colours are those of the first image. */
static compare_counts compare_images(const uint8_t *a0, const uint8_t *a1, const uint8_t *b0, const uint8_t *b1,
                                     const uint8_t clear0[4], const uint8_t clear1[4], size_t npix)
{
    compare_counts k;
    memset(&k, 0, sizeof k);
    k.pixels = npix;
    for (size_t i = 0; i < npix; i++) {
        const uint8_t *pa = a0 + 4 * i, *pb = b0 + 4 * i;
        int ca = memcmp(pa, clear0, 4) != 0 || memcmp(a1 + 4 * i, clear1, 4) != 0;
        int cb = memcmp(pb, clear0, 4) != 0 || memcmp(b1 + 4 * i, clear1, 4) != 0;
        k.covered_a += (uint64_t)ca;
        k.covered_b += (uint64_t)cb;
        if (ca != cb) {
            k.coverage++;
            continue;
        }
        if (!ca)
            continue;
        uint32_t d = 0;
        for (int c = 0; c < 4; c++) {
            uint32_t e = pa[c] > pb[c] ? (uint32_t)(pa[c] - pb[c]) : (uint32_t)(pb[c] - pa[c]);
            d = e > d ? e : d;
        }
        if (d == 0)
            k.same++;
        else if (d == 1)
            k.d1++;
        else if (d <= 3)
            k.d2_3++;
        else
            k.dbig++;
        k.max_d = d > k.max_d ? d : k.max_d;
    }
    return k;
}

/* The scene drawn by tilerast (SPIR-V when spirv) over clear colour
 * `clear`, into rgba (top row first).  0 on success. */
static int tilerast_image(const tr_scene *scene, uint32_t threads, int spirv, const uint8_t clear[4], uint8_t *rgba)
{
    tr_scene sc = *scene;
    memcpy(sc.clear_color, clear, 4);
    tr_context *ctx = NULL;
    tr_image *img = NULL;
    tr_shader_module *m[2] = {NULL, NULL};
    tr_scene_render_options ro;
    memset(&ro, 0, sizeof ro);
    int status = -1;
    tr_context_desc cd;
    memset(&cd, 0, sizeof cd);
    cd.threads = threads;
    if (tr_context_create(&cd, &ctx) != TR_OK)
        return -1;
    const tr_image_desc id = {.format = TR_FORMAT_R8G8B8A8_UNORM, .width = sc.width, .height = sc.height};
    tr_result r = tr_image_create(ctx, &id, &img);
    if (r == TR_OK && spirv && bench_spirv_modules(ctx, &sc, m, &ro) != 0)
        goto done;
    if (r == TR_OK)
        r = tr_scene_render_with(ctx, &sc, &ro, img, NULL, NULL);
    if (r == TR_OK)
        r = tr_image_read_rgba8(img, NULL, rgba);
    if (r != TR_OK) {
        fprintf(stderr, PROG ": rendering: %s (%s)\n", tr_result_string(r), tr_context_last_error(ctx));
        goto done;
    }
    status = 0;
done:
    tr_shader_module_destroy(m[0]);
    tr_shader_module_destroy(m[1]);
    tr_context_destroy(ctx);
    return status;
}

#ifdef TILERAST_LLVMPIPE_RUNNER
/* The scene file drawn by llvmpipe (GLSL when glsl_dir is not NULL) over
 * clear colour `clear`, into rgba (top row first).  0 on success. */
static int llvmpipe_image(const char *scn_path, size_t bytes, uint32_t threads, const char *glsl_dir,
                          const uint8_t clear[4], uint8_t *rgba)
{
    char raw[64] = "/tmp/tilerast-bench-raw-XXXXXX";
    int fd = mkstemp(raw);
    if (fd < 0)
        return -1;
    close(fd);
    char cl[32];
    snprintf(cl, sizeof cl, "%u,%u,%u,%u", clear[0], clear[1], clear[2], clear[3]);
    const char *args[8] = {"--warmup", "0", "--raw", raw, "--clear", cl, NULL, NULL};
    if (glsl_dir) {
        args[6] = "--glsl";
        args[7] = glsl_dir;
    }
    const char *argv_nul[9];
    memcpy(argv_nul, args, sizeof args);
    argv_nul[8] = NULL;
    int status = run_llvmpipe(scn_path, threads, 1, 1, argv_nul, NULL);
    if (status == 0) {
        FILE *f = fopen(raw, "rb");
        status = f && fread(rgba, 1, bytes, f) == bytes ? 0 : -1;
        if (f)
            fclose(f);
    }
    remove(raw);
    return status;
}
#endif

static void print_counts(const bench_options *o, const char *name, const char *what, const compare_counts *k)
{
    if (o->json) {
        fputs("{\"scene\":", stdout);
        tool_json_string(stdout, name);
        printf(",\"compare\":\"%s\",\"pixels\":%llu,\"covered_a\":%llu,\"covered_b\":%llu,\"coverage_differs\":%llu,"
               "\"same\":%llu,\"d1\":%llu,\"d2_3\":%llu,\"d_over_3\":%llu,\"max_d\":%u}\n",
               what, (unsigned long long)k->pixels, (unsigned long long)k->covered_a,
               (unsigned long long)k->covered_b, (unsigned long long)k->coverage, (unsigned long long)k->same,
               (unsigned long long)k->d1, (unsigned long long)k->d2_3, (unsigned long long)k->dbig, k->max_d);
    } else {
        printf("%-16s %-34s pixels %8llu covered %8llu / %8llu  coverage differs %6llu | "
               "same %8llu  |d|=1 %6llu  2..3 %6llu  >3 %6llu (max %u)\n",
               name, what, (unsigned long long)k->pixels, (unsigned long long)k->covered_a,
               (unsigned long long)k->covered_b, (unsigned long long)k->coverage, (unsigned long long)k->same,
               (unsigned long long)k->d1, (unsigned long long)k->d2_3, (unsigned long long)k->dbig, k->max_d);
    }
    fflush(stdout);
}

/* --compare-llvmpipe for one scene: tilerast SPIR-V against llvmpipe GLSL,
 * and for reference tilerast C against llvmpipe fixed function, tilerast
 * SPIR-V against C and llvmpipe GLSL against fixed function. */
static int compare_scene(const bench_options *o, const char *name, const tr_scene *scene, const char *scn_path)
{
#ifdef TILERAST_LLVMPIPE_RUNNER
    const uint32_t threads = o->thread_count_n ? o->threads[0] : 0;
    const size_t npix = (size_t)scene->width * scene->height, bytes = npix * 4;
    uint8_t clear[2][4];
    memcpy(clear[0], scene->clear_color, 4);
    for (int c = 0; c < 4; c++) /* the complement: no channel the same */
        clear[1][c] = (uint8_t)(255 - scene->clear_color[c]);
    /* [renderer][clear]: tilerast SPIR-V, tilerast C, llvmpipe GLSL, llvmpipe fixed */
    uint8_t *img[4][2] = {{NULL}};
    int status = 1;
    char tmp_path[64] = "";
    if (!scn_path) {
        if (temp_scene(scene, tmp_path) != 0) {
            fprintf(stderr, PROG ": %s: cannot write a temporary scene file for llvmpipe\n", name);
            return 1;
        }
        scn_path = tmp_path;
    }
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 2; c++)
            if (!(img[r][c] = malloc(bytes)))
                goto done;
    for (int c = 0; c < 2; c++) {
        if (tilerast_image(scene, threads, 1, clear[c], img[0][c]) != 0 ||
            tilerast_image(scene, threads, 0, clear[c], img[1][c]) != 0) {
            fprintf(stderr, PROG ": %s: tilerast failed\n", name);
            goto done;
        }
        if (llvmpipe_image(scn_path, bytes, threads, shaders_dir(o), clear[c], img[2][c]) != 0 ||
            llvmpipe_image(scn_path, bytes, threads, NULL, clear[c], img[3][c]) != 0) {
            fprintf(stderr, PROG ": %s: the llvmpipe runner (%s) failed\n", name, llvmpipe_runner());
            goto done;
        }
    }
    static const struct {
        int a, b;
        const char *what;
    } pairs[] = {
        {0, 2, "tilerast SPIR-V vs llvmpipe GLSL"},
        {1, 3, "tilerast C vs llvmpipe fixed"},
        {0, 1, "tilerast SPIR-V vs tilerast C"},
        {2, 3, "llvmpipe GLSL vs llvmpipe fixed"},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        compare_counts k = compare_images(img[pairs[i].a][0], img[pairs[i].a][1], img[pairs[i].b][0],
                                          img[pairs[i].b][1], clear[0], clear[1], npix);
        print_counts(o, name, pairs[i].what, &k);
    }
    status = 0;
done:
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 2; c++)
            free(img[r][c]);
    if (tmp_path[0])
        remove(tmp_path);
    return status;
#else
    (void)scene;
    (void)scn_path;
    fprintf(stderr, PROG ": %s: --compare-llvmpipe needs the bench built with OSMesa (Debian: libosmesa6-dev)\n",
            name);
    (void)o;
    return 1;
#endif
}

#ifdef TILERAST_BENCH_HEAVY
/* ---- the shader-heavy scene ---------------------------------------------- */

/* One frame of the heavy scene into image: a pass over the colour only,
 * GL's lower-left origin (as the scenes and the llvmpipe runner), cleared
 * to `clear`. */
static tr_result heavy_frame(tr_context *ctx, bench_heavy *h, tr_image *image, int spirv, const uint8_t clear[4],
                             tr_pass_stats *stats)
{
    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.flags = TR_PASS_ORIGIN_LOWER_LEFT;
    rp.color_count = 1;
    rp.color[0].image = image;
    rp.color[0].load_op = TR_LOAD_OP_CLEAR;
    rp.color[0].store_op = TR_STORE_OP_STORE;
    for (int i = 0; i < 4; i++)
        rp.color[0].clear_color[i] = (float)clear[i] / 255.0f;
    tr_result r = tr_cmd_begin_render_pass(ctx, &rp);
    if (r != TR_OK)
        return r;
    const tr_viewport vp = {0.0f, 0.0f, (float)BENCH_HEAVY_WIDTH, (float)BENCH_HEAVY_HEIGHT, 0.0f, 1.0f};
    tr_result rec = tr_cmd_set_viewport(ctx, &vp);
    if (rec == TR_OK)
        rec = bench_heavy_draw(ctx, h, spirv != 0);
    r = tr_cmd_end_render_pass(ctx, stats);
    return rec != TR_OK ? rec : r;
}

static const uint8_t heavy_clear[4] = {0, 0, 0, 255}; /* as the runner's --heavy */

/* The heavy scene at every thread count: C and/or SPIR-V (o->shader),
 * frames alternated in one process, and llvmpipe drawing its GLSL, in two
 * rounds as bench_scene. */
static int bench_heavy_scene(const bench_options *o, double *times)
{
    const char *name = "heavy";
    uint32_t n = o->thread_count_n ? o->thread_count_n : 1;
    const uint32_t nshader = o->shader == BENCH_SHADER_BOTH ? 2 : 1;
    int llvmpipe = 0;
#ifdef TILERAST_LLVMPIPE_RUNNER
    llvmpipe = o->llvmpipe;
#endif
    const uint32_t rounds = llvmpipe ? 2 : 1;
    double *tl = malloc(sizeof(double) * o->frames * rounds * nshader), *lp = malloc(sizeof(double) * o->frames * rounds);
    int status = 0;
    if (!tl || !lp) {
        free(tl);
        free(lp);
        return 1;
    }
    /* the scene's size and primitive count, for print_result */
    tr_scene info;
    memset(&info, 0, sizeof info);
    info.width = BENCH_HEAVY_WIDTH;
    info.height = BENCH_HEAVY_HEIGHT;
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t threads = o->thread_count_n ? o->threads[i] : 0;
        bench_result res[2];
        int failed = 0, lp_ok = llvmpipe;
        for (uint32_t r = 0; r < rounds && !failed; r++) {
            tr_context *ctx[2] = {NULL, NULL};
            bench_heavy *h[2] = {NULL, NULL};
            tr_image *img[2] = {NULL, NULL};
            for (uint32_t c = 0; c < nshader && !failed; c++) {
                tr_context_desc cd;
                memset(&cd, 0, sizeof cd);
                cd.threads = threads;
                cd.flags = o->lrz == 0 ? TR_CONTEXT_NO_LRZ : 0u;
                const tr_image_desc id = {.format = TR_FORMAT_R8G8B8A8_UNORM, .width = BENCH_HEAVY_WIDTH,
                                          .height = BENCH_HEAVY_HEIGHT};
                if (tr_context_create(&cd, &ctx[c]) != TR_OK || bench_heavy_create(ctx[c], &h[c]) != TR_OK ||
                    tr_image_create(ctx[c], &id, &img[c]) != TR_OK) {
                    fprintf(stderr, PROG ": heavy: setting up: %s\n", ctx[c] ? tr_context_last_error(ctx[c]) : "");
                    failed = 1;
                    break;
                }
                uint32_t ni;
                bench_heavy_indices(h[c], &ni);
                info.triangle_count = ni / 3;
                memset(&res[c], 0, sizeof res[c]);
                res[c].threads = tr_context_get_desc(ctx[c]).threads;
                res[c].frames = o->frames;
                res[c].flags = cd.flags;
                res[c].spirv = o->shader == BENCH_SHADER_SPIRV || c == 1;
                res[c].samples = 1;
            }
            for (uint32_t f = 0; f < BENCH_WARMUP_FRAMES + o->frames && !failed; f++)
                for (uint32_t c = 0; c < nshader; c++) {
                    double t0 = tool_now_ms();
                    tr_result e = heavy_frame(ctx[c], h[c], img[c], res[c].spirv, heavy_clear, &res[c].stats);
                    double t1 = tool_now_ms();
                    if (e != TR_OK) {
                        fprintf(stderr, PROG ": heavy: rendering: %s (%s)\n", tr_result_string(e),
                                tr_context_last_error(ctx[c]));
                        failed = 1;
                        break;
                    }
                    if (f >= BENCH_WARMUP_FRAMES)
                        tl[((size_t)c * rounds + r) * o->frames + f - BENCH_WARMUP_FRAMES] = t1 - t0;
                }
            for (uint32_t c = 0; c < nshader; c++) {
                bench_heavy_destroy(h[c]);
                if (ctx[c])
                    tr_context_destroy(ctx[c]);
            }
#ifdef TILERAST_LLVMPIPE_RUNNER
            if (!failed && lp_ok) {
                const char *args[] = {"--glsl", shaders_dir(o), "--heavy", NULL};
                if (run_llvmpipe_heavy(res[0].threads, o->frames, args, lp + (size_t)r * o->frames) != 0) {
                    fprintf(stderr, PROG ": heavy: the llvmpipe runner (%s) failed\n", llvmpipe_runner());
                    lp_ok = 0;
                }
            }
#endif
        }
        if (failed) {
            status = 1;
            continue;
        }
        for (uint32_t c = 0; c < nshader; c++) {
            summarise(&res[c], tl + (size_t)c * rounds * o->frames, o->frames * rounds);
            print_result(o, name, &info, &res[c]);
        }
        if (nshader == 2 && res[0].median_ms > 0) {
            double ratio = res[1].median_ms / res[0].median_ms;
            if (o->json)
                printf("{\"scene\":\"%s\",\"threads\":%u,\"lrz\":%s,\"spirv_over_c\":%.3f}\n", name, res[0].threads,
                       o->lrz == 0 ? "false" : "true", ratio);
            else
                printf("    SPIR-V / C: %.2f ms / %.2f ms = %.2fx (medians, frames alternated)\n", res[1].median_ms,
                       res[0].median_ms, ratio);
        }
        if (lp_ok)
            print_llvmpipe(o, name, "glsl", res, nshader, lp, o->frames * rounds);
    }
    free(tl);
    free(lp);
    return status;
}

/* --compare-llvmpipe for the heavy scene: tilerast SPIR-V against llvmpipe
 * GLSL, and SPIR-V against C. */
static int compare_heavy(const bench_options *o)
{
    const uint32_t threads = o->thread_count_n ? o->threads[0] : 0;
    const size_t npix = (size_t)BENCH_HEAVY_WIDTH * BENCH_HEAVY_HEIGHT, bytes = npix * 4;
    uint8_t clear[2][4];
    memcpy(clear[0], heavy_clear, 4);
    for (int c = 0; c < 4; c++)
        clear[1][c] = (uint8_t)(255 - heavy_clear[c]);
    uint8_t *img[3][2] = {{NULL}}; /* tilerast SPIR-V, tilerast C, llvmpipe GLSL */
    int status = 1;
    tr_context *ctx = NULL;
    bench_heavy *h = NULL;
    tr_image *image = NULL;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 2; c++)
            if (!(img[r][c] = malloc(bytes)))
                goto done;
    const tr_image_desc id = {.format = TR_FORMAT_R8G8B8A8_UNORM, .width = BENCH_HEAVY_WIDTH,
                              .height = BENCH_HEAVY_HEIGHT};
    if (tr_context_create(&(tr_context_desc){.threads = threads}, &ctx) != TR_OK ||
        bench_heavy_create(ctx, &h) != TR_OK || tr_image_create(ctx, &id, &image) != TR_OK) {
        fprintf(stderr, PROG ": heavy: setting up: %s\n", ctx ? tr_context_last_error(ctx) : "");
        goto done;
    }
    for (int sp = 0; sp < 2; sp++)
        for (int c = 0; c < 2; c++) {
            tr_result e = heavy_frame(ctx, h, image, sp == 0, clear[c], NULL);
            if (e == TR_OK)
                e = tr_image_read_rgba8(image, NULL, img[sp][c]);
            if (e != TR_OK) {
                fprintf(stderr, PROG ": heavy: %s (%s)\n", tr_result_string(e), tr_context_last_error(ctx));
                goto done;
            }
        }
#ifdef TILERAST_LLVMPIPE_RUNNER
    for (int c = 0; c < 2; c++) {
        char raw[64] = "/tmp/tilerast-bench-raw-XXXXXX", cl[32];
        int fd = mkstemp(raw);
        if (fd < 0)
            goto done;
        close(fd);
        snprintf(cl, sizeof cl, "%u,%u,%u,%u", clear[c][0], clear[c][1], clear[c][2], clear[c][3]);
        const char *args[] = {"--glsl", shaders_dir(o), "--heavy", "--warmup", "0", "--raw", raw, "--clear", cl, NULL};
        int ok = run_llvmpipe_heavy(threads, 1, args, NULL) == 0;
        FILE *f = ok ? fopen(raw, "rb") : NULL;
        ok = f && fread(img[2][c], 1, bytes, f) == bytes;
        if (f)
            fclose(f);
        remove(raw);
        if (!ok) {
            fprintf(stderr, PROG ": heavy: the llvmpipe runner (%s) failed\n", llvmpipe_runner());
            goto done;
        }
    }
    compare_counts k = compare_images(img[0][0], img[0][1], img[2][0], img[2][1], clear[0], clear[1], npix);
    print_counts(o, "heavy", "tilerast SPIR-V vs llvmpipe GLSL", &k);
#endif
    compare_counts kc = compare_images(img[0][0], img[0][1], img[1][0], img[1][1], clear[0], clear[1], npix);
    print_counts(o, "heavy", "tilerast SPIR-V vs tilerast C", &kc);
    status = 0;
done:
    bench_heavy_destroy(h);
    if (ctx)
        tr_context_destroy(ctx);
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 2; c++)
            free(img[r][c]);
    return status;
}
#endif

#ifdef TILERAST_HAVE_ASSIMP
/* ---- models (tools/tool_model.h): the bench scene "engine" and model files -- */

/* The bench's model scene: 2CylinderEngine from Debian's assimp-testmodels
 * (about 121,000 triangles in 115 draws, mostly small). */
#define BENCH_ENGINE_MODEL "/usr/share/assimp/models/glTF2/2CylinderEngine-glTF-Binary/2CylinderEngine.glb"
#define BENCH_ENGINE_ENV "TILERAST_BENCH_ENGINE" /* another copy of it (bench/device_sidebyside.sh packs one) */

static const char *engine_model(void)
{
    const char *env = getenv(BENCH_ENGINE_ENV);
    return env != NULL && env[0] != '\0' ? env : BENCH_ENGINE_MODEL;
}

static tr_result model_shaders(tr_context *ctx, const bench_options *o, tool_model_options *mo)
{
    char msg[4096];
    for (int fragment = 0; fragment < 2; fragment++) {
        char *src = bench_glsl_source(shaders_dir(o), fragment ? "model.frag" : "model.vert", NULL, msg, sizeof msg);
        size_t words = 0;
        uint32_t *code = src ? bench_shaderc_spirv(src, fragment ? "model.frag" : "model.vert", fragment, 0, 0, &words,
                                                   msg, sizeof msg)
                             : NULL;
        free(src);
        if (code == NULL) {
            fprintf(stderr, PROG ": %s\n", msg);
            return TR_ERROR_INVALID_ARGUMENT;
        }
        const tr_shader_module_desc d = {.code = code, .code_size = words * 4};
        tr_result r = tr_shader_module_create(ctx, &d, fragment ? &mo->fragment_module : &mo->vertex_module);
        free(code);
        if (r != TR_OK)
            return r;
    }
    return TR_OK;
}

/* A model loaded and ready to draw in its own context. */
typedef struct bench_model {
    tr_context *ctx;
    tool_model *model;
    tool_model_renderer *renderer;
    tool_model_options mo;
    tr_image *image;
} bench_model;

static void bench_model_free(bench_model *b)
{
    tool_model_renderer_destroy(b->renderer);
    tool_model_free(b->model);
    tr_shader_module_destroy(b->mo.vertex_module);
    tr_shader_module_destroy(b->mo.fragment_module);
    if (b->ctx)
        tr_context_destroy(b->ctx);
    memset(b, 0, sizeof *b);
}

static int bench_model_make(const bench_options *o, const char *path, uint32_t threads, const float *clear,
                            bench_model *b)
{
    memset(b, 0, sizeof *b);
    tr_context_desc cd;
    memset(&cd, 0, sizeof cd);
    cd.threads = threads;
    cd.flags = o->lrz == 0 ? TR_CONTEXT_NO_LRZ : 0u;
    char msg[4400] = "";
    b->mo.clear = clear;
    const tr_image_desc id = {.format = TR_FORMAT_R8G8B8A8_SRGB, .width = TOOL_MODEL_WIDTH, .height = TOOL_MODEL_HEIGHT};
    if (tr_context_create(&cd, &b->ctx) != TR_OK || model_shaders(b->ctx, o, &b->mo) != TR_OK ||
        tool_model_load(b->ctx, path, -1, TOOL_MODEL_WIDTH, TOOL_MODEL_HEIGHT, &b->model, msg, sizeof msg) != 0 ||
        tool_model_renderer_create(b->ctx, &b->mo, &b->renderer, msg, sizeof msg) != 0 ||
        tr_image_create(b->ctx, &id, &b->image) != TR_OK) {
        /* the model's messages name the file */
        if (msg[0])
            fprintf(stderr, PROG ": %s\n", msg);
        else
            fprintf(stderr, PROG ": %s: %s\n", path, b->ctx ? tr_context_last_error(b->ctx) : "cannot create a context");
        bench_model_free(b);
        return -1;
    }
    return 0;
}

/* A model timed like the other scenes: tilerast (SPIR-V) at every thread
 * count and llvmpipe drawing the same draws with the same GLSL, two
 * rounds each. */
static int bench_model_scene(const bench_options *o, const char *name, const char *path, double *times)
{
    const uint32_t n = o->thread_count_n ? o->thread_count_n : 1;
    int llvmpipe = 0;
#ifdef TILERAST_LLVMPIPE_RUNNER
    llvmpipe = o->llvmpipe;
#endif
    const uint32_t rounds = llvmpipe ? 2 : 1;
    double *lp = malloc(sizeof(double) * o->frames * rounds);
    if (lp == NULL)
        return 1;
    int status = 0;
    tr_scene info;
    memset(&info, 0, sizeof info);
    info.width = TOOL_MODEL_WIDTH;
    info.height = TOOL_MODEL_HEIGHT;
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t threads = o->thread_count_n ? o->threads[i] : 0;
        bench_result res;
        memset(&res, 0, sizeof res);
        int failed = 0, lp_ok = llvmpipe;
        for (uint32_t r = 0; r < rounds && !failed; r++) {
            bench_model b;
            if (bench_model_make(o, path, threads, NULL, &b) != 0) {
                failed = 1;
                break;
            }
            const tool_model_draw *draws = NULL;
            const uint32_t nd = tool_model_draws(b.model, &draws);
            info.triangle_count = 0;
            for (uint32_t d = 0; d < nd; d++)
                info.triangle_count += draws[d].index_count / 3;
            res.threads = tr_context_get_desc(b.ctx).threads;
            res.flags = o->lrz == 0 ? TR_CONTEXT_NO_LRZ : 0u;
            res.spirv = 1;
            res.samples = 1;
            for (uint32_t f = 0; f < BENCH_WARMUP_FRAMES + o->frames && !failed; f++) {
                char msg[4400];
                double t0 = tool_now_ms();
                int e = tool_model_renderer_draw(b.renderer, path, b.model, b.image, &res.stats, msg, sizeof msg);
                double t1 = tool_now_ms();
                if (e != 0) {
                    fprintf(stderr, PROG ": %s\n", msg);
                    failed = 1;
                }
                if (f >= BENCH_WARMUP_FRAMES)
                    times[(size_t)r * o->frames + f - BENCH_WARMUP_FRAMES] = t1 - t0;
            }
            bench_model_free(&b);
#ifdef TILERAST_LLVMPIPE_RUNNER
            if (!failed && lp_ok) {
                const char *args[] = {"--glsl", shaders_dir(o), "--model", path, NULL};
                if (run_llvmpipe(NULL, res.threads, 1, o->frames, args, lp + (size_t)r * o->frames) != 0) {
                    fprintf(stderr, PROG ": %s: the llvmpipe runner (%s) failed\n", name, llvmpipe_runner());
                    lp_ok = 0;
                }
            }
#endif
        }
        if (failed) {
            status = 1;
            continue;
        }
        summarise(&res, times, o->frames * rounds);
        print_result(o, name, &info, &res);
        if (lp_ok)
            print_llvmpipe(o, name, "glsl", &res, 1, lp, o->frames * rounds);
    }
    free(lp);
    return status;
}

/* --compare-llvmpipe for a model: tilerast against llvmpipe, the same
 * draws and GLSL, each over two clear colours (linear 0 and 1: bytes 0 and
 * 255 exactly in both, so that "covered" is exact). */
static int compare_model(const bench_options *o, const char *name, const char *path)
{
#ifdef TILERAST_LLVMPIPE_RUNNER
    const uint32_t threads = o->thread_count_n ? o->threads[0] : 0;
    const size_t npix = (size_t)TOOL_MODEL_WIDTH * TOOL_MODEL_HEIGHT, bytes = npix * 4;
    static const float clear_f[2][4] = {{0, 0, 0, 0}, {1, 1, 1, 1}};
    static const uint8_t clear[2][4] = {{0, 0, 0, 0}, {255, 255, 255, 255}};
    uint8_t *img[2][2] = {{NULL}}; /* tilerast, llvmpipe; per clear */
    int status = 1;
    for (int r = 0; r < 2; r++)
        for (int c = 0; c < 2; c++)
            if ((img[r][c] = malloc(bytes)) == NULL)
                goto done;
    for (int c = 0; c < 2; c++) {
        bench_model b;
        if (bench_model_make(o, path, threads, clear_f[c], &b) != 0)
            goto done;
        char msg[4400];
        int e = tool_model_renderer_draw(b.renderer, path, b.model, b.image, NULL, msg, sizeof msg);
        if (e != 0)
            fprintf(stderr, PROG ": %s\n", msg);
        else if (tr_image_read_rgba8(b.image, NULL, img[0][c]) != TR_OK)
            e = -1;
        bench_model_free(&b);
        if (e != 0)
            goto done;
        char raw[64] = "/tmp/tilerast-bench-raw-XXXXXX", cl[32];
        int fd = mkstemp(raw);
        if (fd < 0)
            goto done;
        close(fd);
        snprintf(cl, sizeof cl, "%u,%u,%u,%u", clear[c][0], clear[c][1], clear[c][2], clear[c][3]);
        const char *args[] = {"--warmup", "0", "--raw", raw, "--clear", cl, "--glsl", shaders_dir(o), "--model", path, NULL};
        int lr = run_llvmpipe(NULL, threads, 1, 1, args, NULL);
        FILE *f = lr == 0 ? fopen(raw, "rb") : NULL;
        lr = f && fread(img[1][c], 1, bytes, f) == bytes ? 0 : -1;
        if (f)
            fclose(f);
        remove(raw);
        if (lr != 0) {
            fprintf(stderr, PROG ": %s: the llvmpipe runner (%s) failed\n", name, llvmpipe_runner());
            goto done;
        }
    }
    compare_counts k = compare_images(img[0][0], img[0][1], img[1][0], img[1][1], clear[0], clear[1], npix);
    print_counts(o, name, "tilerast SPIR-V vs llvmpipe GLSL", &k);
    status = 0;
done:
    for (int r = 0; r < 2; r++)
        for (int c = 0; c < 2; c++)
            free(img[r][c]);
    return status;
#else
    fprintf(stderr, PROG ": %s: --compare-llvmpipe needs the bench built with OSMesa (Debian: libosmesa6-dev)\n",
            name);
    (void)o;
    (void)path;
    return 1;
#endif
}
#endif /* TILERAST_HAVE_ASSIMP */

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
                        "[--shader c|spirv|both] [--shaders DIR] [--compare-llvmpipe] [--export DIR] "
                        "[FILE.scn ...]\nTry '" PROG " --help' for more.\n");
        free(o.files);
        return 2;
    }
    find_bunny();
    if (o.export_dir != NULL)
        return export_scenes(o.export_dir);

    if ((o.shader != BENCH_SHADER_C || o.compare) && bench_spirv_compile(&o) != 0) {
        bench_spirv_free();
        free(o.files);
        return 1;
    }
#ifdef TILERAST_BENCH_HEAVY
    {
        const char *sd = shaders_dir(&o);
        const size_t len = strlen(sd);
        if (len + sizeof "/bench" <= sizeof bench_heavy_shader_dir) {
            memcpy(bench_heavy_shader_dir, sd, len);
            memcpy(bench_heavy_shader_dir + len, "/bench", sizeof "/bench");
        }
    }
#endif
    double *times = malloc(BENCH_MAX_CONFIGS * (size_t)o.frames * sizeof *times);
    if (times == NULL) {
        fprintf(stderr, PROG ": out of memory\n");
        free(o.files);
        return 1;
    }
    int status = 0;
    if (o.file_count > 0) {
        for (int i = 0; i < o.file_count; i++) {
#ifdef TILERAST_HAVE_ASSIMP
            if (tool_model_is_model(o.files[i])) {
                if ((o.compare ? compare_model(&o, o.files[i], o.files[i])
                               : bench_model_scene(&o, o.files[i], o.files[i], times)) != 0)
                    status = 1;
                continue;
            }
#endif
            tr_scene scene;
            char msg[256];
            tr_result r = tr_scene_load(o.files[i], &scene, msg, sizeof msg);
            if (r != TR_OK) {
                fprintf(stderr, PROG ": %s: %s\n", o.files[i], msg);
                status = 1;
                continue;
            }
            if ((o.compare ? compare_scene(&o, o.files[i], &scene, o.files[i])
                           : bench_scene(&o, o.files[i], &scene, o.files[i], times)) != 0)
                status = 1;
            tr_scene_free(&scene);
        }
    } else {
        for (int id = 0; id < BENCH_SCENE_COUNT; id++) {
            const char *name = bench_scene_name((bench_scene_id)id);
            if (o.only && strcmp(o.only, name) != 0)
                continue;
            tr_scene scene;
            int g = generate_standard(id, &scene);
            if (g != 0) {
                status |= g < 0;
                continue;
            }
            if ((o.compare ? compare_scene(&o, name, &scene, NULL) : bench_scene(&o, name, &scene, NULL, times)) != 0)
                status = 1;
            tr_scene_free(&scene);
        }
#ifdef TILERAST_BENCH_HEAVY
        /* and the shader-heavy scene (its own draw: not a scene file) */
        if (!o.no_heavy && (!o.only || strcmp(o.only, "heavy") == 0) && (o.compare ? compare_heavy(&o) : bench_heavy_scene(&o, times)) != 0)
            status = 1;
#endif
#ifdef TILERAST_HAVE_ASSIMP
        /* and the model scene, when Debian's assimp-testmodels is there */
        if (!o.no_heavy && (!o.only || strcmp(o.only, "engine") == 0)) {
            if (access(engine_model(), R_OK) != 0)
                fprintf(stderr, PROG ": engine: skipped: no %s (Debian's assimp-testmodels, or set " BENCH_ENGINE_ENV ")\n",
                        engine_model());
            else if ((o.compare ? compare_model(&o, "engine", engine_model())
                                : bench_model_scene(&o, "engine", engine_model(), times)) != 0)
                status = 1;
        }
#endif
    }
    free(times);
    free(o.files);
    bench_spirv_free();
    return status;
}
