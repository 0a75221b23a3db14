/* tilerast-render: draws a neutral scene file ("SRSCENE1", "SRSCENE2" or
 * "SRSCENE3"; README.md, "The scene file") with tilerast and writes the image
 * as PNG and/or raw RGBA8.  The shader files a scene names (version 3) or
 * --vertex-shader / --fragment-shader give are compiled (tool_shader.h) and
 * drawn with instead of the built-in C shaders.
 *
 * It is the command-line face of tr_scene_load + tr_scene_render_with: what
 * a conformance script or a side-by-side comparison with another renderer
 * calls.  --stats prints the pass statistics as one JSON line;
 * --density-map renders with a fragment density map read from a PNG, or
 * built by the tool (radial: a fovea per view, tool_density.h); --compare
 * checks the render against a golden PNG (tool_compare.h).  Models
 * (tool_model.h) take the same outputs, several views (--views) and, with a
 * density map, print the fragments shaded against a render at full
 * density. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tilerast/tilerast.h"
#include "tool_common.h"
#include "tool_compare.h"
#include "tool_density.h"
#include "tool_model.h"
#include "tool_shader.h"

#define PROG "tilerast-render"

typedef struct render_options {
    const char *scene_path;
    const char *png_path;
    const char *raw_path;
    uint32_t threads;    /* 0 = all cores */
    uint32_t gmem_bytes; /* 0 = library default */
    int stats;
    int no_lrz;
    const char *lrz_png;
    tr_device device;        /* TR_DEVICE_DEFAULT unless --device */
    const char *density_map; /* PNG whose red and green channels are the density map, or radial[:...] */
    int radial;              /* density_map is "radial[:...]": built from radial_params */
    tool_density_radial radial_params;
    uint32_t views;          /* --views N: models' view count (0 = 1) */
    const char *fdm_png;
    const char *subsampled;  /* PNG of the raw subsampled image (tr_subsampled_write_png) */
    int fdm_offset;          /* --fdm-offset given */
    uint32_t samples;        /* --samples: 0 or 1 = single-sampled */
    int32_t fdm_offset_x, fdm_offset_y;
    const char *vertex_shader;   /* --vertex-shader: NULL = the scene's, "" = built-in */
    const char *fragment_shader; /* --fragment-shader: likewise */
    const char *compare;         /* --compare: the golden PNG, NULL = no comparison */
    const char *diff;            /* --diff: the diff picture to write (needs --compare) */
    uint32_t tolerance;          /* --tolerance: largest channel difference passed, 0..255 */
    int tolerance_given;
    uint32_t camera;             /* --camera N: the model's camera N, plus one; 0 = automatic */
} render_options;

static void short_usage(FILE *f)
{
    fprintf(f,
            "usage: " PROG " SCENE.scn|MODEL -o OUT.png [--raw OUT.rgba] [--threads N]\n"
            "                       [--gmem BYTES] [--device a630|a660|a740] [--stats]\n"
            "                       [--no-lrz] [--lrz-png FILE] [--density-map MAP.png|radial[:...]]\n"
            "                       [--fdm-png FILE] [--fdm-offset X,Y] [--subsampled RAW.png]\n"
            "                       [--samples N] [--vertex-shader FILE] [--camera N] [--views N]\n"
            "                       [--fragment-shader FILE]\n"
            "                       [--compare GOLDEN.png [--tolerance N] [--diff DIFF.png]]\n"
            "Try '" PROG " --help' for more.\n");
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: " PROG " SCENE.scn|MODEL -o OUT.png [--raw OUT.rgba] [--threads N]\n"
            "                       [--gmem BYTES] [--device a630|a660|a740] [--stats]\n"
            "                       [--no-lrz] [--lrz-png FILE] [--density-map MAP.png|radial[:...]]\n"
            "                       [--fdm-png FILE] [--fdm-offset X,Y] [--subsampled RAW.png]\n"
            "                       [--samples N] [--vertex-shader FILE] [--camera N] [--views N]\n"
            "                       [--fragment-shader FILE]\n"
            "                       [--compare GOLDEN.png [--tolerance N] [--diff DIFF.png]]\n"
            "\n"
            "Renders a scene file (SRSCENE1 triangles, SRSCENE2 lines and points,\n"
            "SRSCENE3 any of them with shader files; README.md, \"The scene file\")\n"
            "with tilerast.  Shader files, named by the scene (relative to the scene\n"
            "file's folder) or by the options below (relative to the current folder),\n"
            "replace the built-in shaders: FILE.spv is SPIR-V; FILE.hlsl is HLSL\n"
            "(shaderc's HLSL front end, entry point main); any other name is GLSL\n"
            "for Vulkan (#version 450 when the file has none), compiled with shaderc.\n"
            "SCENE_FLAT is defined to 1 for flat scenes.  The interface the shaders\n"
            "must have is scene.h's (tr_scene_render_options); shaders/scene.vert\n"
            "and shaders/scene.frag draw what the built-in shaders draw.\n"
            "A model (.gltf, .glb, .obj or another format assimp reads) instead of\n"
            "SCENE.scn is drawn at 1024x768 with shaders/model.vert and model.frag,\n"
            "an automatic camera and a default light (README.md, \"Models\").\n"
            "  --camera N         models: view through the file's camera N (from 0)\n"
            "                     instead of the automatic one\n"
            "  --views N          models: render N views (1..6, multiview, each through the\n"
            "                     same camera, each with its own layer of a radial map);\n"
            "                     -o, --raw, --fdm-png and --subsampled write view 0 to\n"
            "                     FILE and view v to FILE with .view<v> before the\n"
            "                     extension (out.png, out.view1.png); --compare checks\n"
            "                     view 0\n"
            "  -o, --output FILE  write the image as PNG\n"
            "  --raw FILE         write width*height*4 bytes of RGBA8, top row first\n"
            "  --threads N        threads for the bins (0 = all cores, the default)\n"
            "  --gmem BYTES       GMEM budget per tile (suffix K or M for KiB, MiB;\n"
            "                     0 = the device's, 1 MiB by default)\n"
            "  --device NAME      the Adreno modelled: a630, a660 or a740 (GMEM size,\n"
            "                     bin alignment and largest bin; default: a630's numbers)\n"
            "  --stats            print the pass statistics as one JSON line on stdout\n"
            "  --no-lrz           render without low-resolution Z (same image)\n"
            "  --samples N        multisample with N = 1, 2, 4 or 8 samples per pixel at\n"
            "                     the standard positions; the image written is the\n"
            "                     resolve (the average of each pixel's samples)\n"
            "  --lrz-png FILE     write a picture of the LRZ buffer and its rejections\n"
            "  --density-map MAP.png\n"
            "                     render with a fragment density map: the file's red and\n"
            "                     green channels are the x and y densities (255 = full\n"
            "                     rate, 127 = half, 63 = a quarter, 0 = skip).  A texel\n"
            "                     covers at least 32x32 pixels: a map of ceil(W/32) x\n"
            "                     ceil(H/32) texels covers a W x H scene.  For a model,\n"
            "                     prints the fragments shaded against the same render at\n"
            "                     full density (on stderr with --stats; the JSON's \"fdm\")\n"
            "  --density-map radial[:KEY=VALUE[:KEY=VALUE...]]\n"
            "                     build a foveated map instead: density 255 within inner of\n"
            "                     the fovea, 127 within outer, 63 beyond; r in half widths\n"
            "                     and half heights.  Keys: centre=X,Y (fractions of the\n"
            "                     width and height from the top left, default 0.5,0.5),\n"
            "                     inner=R (default 0.55), outer=R (default 0.8),\n"
            "                     shift=S (with N views view v's fovea moves\n"
            "                     S*(1-2v/(N-1)) of the width: +S for view 0, the left\n"
            "                     eye, towards the nose; default 0.05), texel=N (pixels\n"
            "                     per texel, a power of two 32..1024; default auto: the\n"
            "                     finest with a bin at most 4 texels across)\n"
            "  --fdm-offset X,Y   offset the density map by X,Y pixels (multiples of 8,\n"
            "                     within +-16384; VK_EXT_fragment_density_map_offset:\n"
            "                     the bins follow it; needs --density-map)\n"
            "  --subsampled RAW.png\n"
            "                     render into a subsampled image (TR_IMAGE_SUBSAMPLED; needs\n"
            "                     --density-map): -o and --raw get its framebuffer-space\n"
            "                     picture, RAW.png the texels as stored, bins and aprons\n"
            "                     outlined\n"
            "  --fdm-png FILE     write the image with the bin grid and each bin's\n"
            "                     fragment area drawn over it (needs --density-map)\n"
            "  --vertex-shader FILE, --fragment-shader FILE\n"
            "                     draw with this shader file instead of the scene's\n"
            "                     (an empty FILE: the built-in shader of that stage)\n"
            "  --compare GOLDEN.png\n"
            "                     compare the render (the 8-bit RGBA that -o writes, all\n"
            "                     four channels) with a golden PNG of the same size (grey\n"
            "                     read as R = G = B; no alpha channel: alpha 255; 8 bits\n"
            "                     per channel only) and print one line:\n"
            "                       compare: WxH, N pixels differ (largest channel\n"
            "                       difference D, tolerance T): ok|FAIL (golden PATH)\n"
            "                     on stdout (on stderr with --stats, whose JSON then has a\n"
            "                     \"compare\" object).  A pixel differs if any channel\n"
            "                     differs at all; the render fails if the largest channel\n"
            "                     difference D is greater than the tolerance T.  The other\n"
            "                     outputs are written first, whatever the verdict\n"
            "  --tolerance N      the largest channel difference that passes (0..255,\n"
            "                     default 0: any difference fails; needs --compare)\n"
            "  --diff DIFF.png    write a picture of the differences (needs --compare):\n"
            "                     the render in dimmed grey, pixels beyond the tolerance in\n"
            "                     magenta, pixels that differ within it in yellow\n"
            "  -h, --help         show this help\n"
            "At least one of -o, --raw, --stats, --lrz-png, --fdm-png and --compare is\n"
            "required.\n"
            "Exit status: 0 done (and equal within the tolerance), 1 an error, 2 a usage\n"
            "error, 3 the render differs from the golden beyond the tolerance, 4 the\n"
            "golden cannot be compared (missing, unreadable, not an 8-bit PNG, or not\n"
            "the render's size).\n");
}

/* Parses a decimal count with an optional K/M suffix; 0 on success. */
static int parse_u32(const char *s, uint32_t max, int allow_suffix, uint32_t *out)
{
    if (s == NULL || *s < '0' || *s > '9')
        return -1; /* strtoull would accept "-1" and " 1" */
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno != 0 || end == s)
        return -1;
    unsigned long long scale = 1;
    if (allow_suffix && (*end == 'K' || *end == 'k')) {
        scale = 1024;
        end++;
    } else if (allow_suffix && (*end == 'M' || *end == 'm')) {
        scale = 1024 * 1024;
        end++;
    }
    if (*end != '\0' || v > max / scale)
        return -1;
    *out = (uint32_t)(v * scale);
    return 0;
}

/* Returns 0 to go on, 1 for --help (exit 0), 2 for a usage error. */
static int parse_args(int argc, char **argv, render_options *o)
{
    memset(o, 0, sizeof *o);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = NULL;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)
            return 1;
        int takes_value = strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0 ||
                          strcmp(a, "--raw") == 0 || strcmp(a, "--threads") == 0 ||
                          strcmp(a, "--gmem") == 0 || strcmp(a, "--lrz-png") == 0 ||
                          strcmp(a, "--device") == 0 || strcmp(a, "--density-map") == 0 ||
                          strcmp(a, "--fdm-png") == 0 || strcmp(a, "--fdm-offset") == 0 ||
                          strcmp(a, "--subsampled") == 0 || strcmp(a, "--samples") == 0 ||
                          strcmp(a, "--vertex-shader") == 0 || strcmp(a, "--fragment-shader") == 0 ||
                          strcmp(a, "--compare") == 0 || strcmp(a, "--tolerance") == 0 ||
                          strcmp(a, "--diff") == 0 || strcmp(a, "--camera") == 0 ||
                          strcmp(a, "--views") == 0;
        if (takes_value) {
            if (i + 1 >= argc) {
                fprintf(stderr, PROG ": %s needs a value\n", a);
                return 2;
            }
            val = argv[++i];
        }
        if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
            o->png_path = val;
        } else if (strcmp(a, "--raw") == 0) {
            o->raw_path = val;
        } else if (strcmp(a, "--threads") == 0) {
            if (parse_u32(val, TR_MAX_THREADS, 0, &o->threads) != 0) {
                fprintf(stderr, PROG ": --threads wants 0..%u, not '%s'\n", TR_MAX_THREADS, val);
                return 2;
            }
        } else if (strcmp(a, "--gmem") == 0) {
            if (parse_u32(val, UINT32_MAX, 1, &o->gmem_bytes) != 0) {
                fprintf(stderr, PROG ": --gmem wants a byte count, not '%s'\n", val);
                return 2;
            }
        } else if (strcmp(a, "--camera") == 0) {
            if (parse_u32(val, 65535, 0, &o->camera) != 0) {
                fprintf(stderr, PROG ": --camera wants a camera index of the model 0..65535, not '%s'\n", val);
                return 2;
            }
            o->camera++;
        } else if (strcmp(a, "--samples") == 0) {
            if (parse_u32(val, 8, 0, &o->samples) != 0 || !tr_sample_count_valid(o->samples)) {
                fprintf(stderr, PROG ": --samples wants 1, 2, 4 or 8, not '%s'\n", val);
                return 2;
            }
        } else if (strcmp(a, "--stats") == 0) {
            o->stats = 1;
        } else if (strcmp(a, "--no-lrz") == 0) {
            o->no_lrz = 1;
        } else if (strcmp(a, "--lrz-png") == 0) {
            o->lrz_png = val;
        } else if (strcmp(a, "--device") == 0) {
            if (tool_parse_device(val, &o->device) != 0) {
                fprintf(stderr, PROG ": --device wants a630, a660 or a740, not '%s'\n", val);
                return 2;
            }
        } else if (strcmp(a, "--density-map") == 0) {
            o->density_map = val;
            o->radial = tool_density_is_radial(val);
            char msg[400];
            if (o->radial && tool_density_parse(val, &o->radial_params, msg, sizeof msg) != 0) {
                fprintf(stderr, PROG ": %s\n", msg);
                return 2;
            }
        } else if (strcmp(a, "--views") == 0) {
            if (parse_u32(val, TR_MAX_VIEWS, 0, &o->views) != 0 || o->views == 0) {
                fprintf(stderr, PROG ": --views wants a view count 1..%u, not '%s'\n", TR_MAX_VIEWS, val);
                return 2;
            }
        } else if (strcmp(a, "--fdm-png") == 0) {
            o->fdm_png = val;
        } else if (strcmp(a, "--subsampled") == 0) {
            o->subsampled = val;
        } else if (strcmp(a, "--vertex-shader") == 0) {
            o->vertex_shader = val;
        } else if (strcmp(a, "--fragment-shader") == 0) {
            o->fragment_shader = val;
        } else if (strcmp(a, "--compare") == 0) {
            o->compare = val;
        } else if (strcmp(a, "--diff") == 0) {
            o->diff = val;
        } else if (strcmp(a, "--tolerance") == 0) {
            if (parse_u32(val, 255, 0, &o->tolerance) != 0) {
                fprintf(stderr, PROG ": --tolerance wants a channel difference 0..255, not '%s'\n", val);
                return 2;
            }
            o->tolerance_given = 1;
        } else if (strcmp(a, "--fdm-offset") == 0) {
            char *end = NULL;
            errno = 0;
            long x = strtol(val, &end, 10), y = 0;
            int ok = errno == 0 && end != val && *end == ',';
            if (ok) {
                const char *ys = end + 1;
                y = strtol(ys, &end, 10);
                ok = errno == 0 && end != ys && *end == '\0';
            }
            if (!ok || x < -TR_FDM_MAX_OFFSET || x > TR_FDM_MAX_OFFSET || y < -TR_FDM_MAX_OFFSET ||
                y > TR_FDM_MAX_OFFSET) {
                fprintf(stderr, PROG ": --fdm-offset wants X,Y (integers within +-%d), not '%s'\n",
                        TR_FDM_MAX_OFFSET, val);
                return 2;
            }
            o->fdm_offset = 1;
            o->fdm_offset_x = (int32_t)x;
            o->fdm_offset_y = (int32_t)y;
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, PROG ": unknown option '%s'\n", a);
            return 2;
        } else if (o->scene_path == NULL) {
            o->scene_path = a;
        } else {
            fprintf(stderr, PROG ": more than one scene file ('%s', '%s')\n", o->scene_path, a);
            return 2;
        }
    }
    if (o->scene_path == NULL) {
        fprintf(stderr, PROG ": no scene file given\n");
        return 2;
    }
    if (o->subsampled != NULL && o->density_map == NULL) {
        fprintf(stderr, PROG ": --subsampled stores a density-mapped pass: give --density-map\n");
        return 2;
    }
    if (o->fdm_offset && o->density_map == NULL) {
        fprintf(stderr, PROG ": --fdm-offset moves a density map: give --density-map\n");
        return 2;
    }
    if (o->fdm_png != NULL && o->density_map == NULL) {
        fprintf(stderr, PROG ": --fdm-png draws the fragment areas of a density map: give --density-map\n");
        return 2;
    }
    if ((o->tolerance_given || o->diff != NULL) && o->compare == NULL) {
        fprintf(stderr, PROG ": %s applies to a comparison: give --compare GOLDEN.png\n",
                o->diff != NULL ? "--diff" : "--tolerance");
        return 2;
    }
    if (o->png_path == NULL && o->raw_path == NULL && !o->stats && o->lrz_png == NULL &&
        o->fdm_png == NULL && o->subsampled == NULL && o->compare == NULL) {
        fprintf(stderr, PROG ": nothing to do: give -o, --raw, --stats, --lrz-png, --fdm-png or --compare\n");
        return 2;
    }
    return 0;
}

/* cmp is NULL without --compare ("compare":null). */
static void print_stats_json(FILE *f, const render_options *o, const tr_scene *scene,
                             uint32_t threads, const tr_pass_stats *s, double wall_ms,
                             const tool_compare_result *cmp)
{
    fputs("{\"scene\":", f);
    tool_json_string(f, o->scene_path);
    fprintf(f, ",\"width\":%u,\"height\":%u,\"triangles\":%u,\"flags\":%u,\"threads\":%u",
            scene->width, scene->height, scene->triangle_count, scene->flags, threads);
    fprintf(f, ",\"device\":\"%s\",\"density_map\":", tool_device_name(o->device));
    if (o->density_map != NULL)
        tool_json_string(f, o->density_map);
    else
        fputs("null", f);
    if (o->fdm_offset)
        fprintf(f, ",\"fdm_offset\":[%d,%d]", o->fdm_offset_x, o->fdm_offset_y);
    else
        fputs(",\"fdm_offset\":null", f);
    fputs(",\"compare\":", f);
    if (cmp != NULL)
        tool_compare_print_json(f, o->compare, o->diff, cmp);
    else
        fputs("null", f);
    fprintf(f, ",\"wall_ms\":%.3f,\"stats\":", wall_ms);
    tool_json_stats(f, s);
    fputs("}\n", f);
}

/* Reports a failed library call with the context's message when it has one. */
static void report(tr_context *ctx, const char *what, tr_result r)
{
    const char *detail = ctx != NULL ? tr_context_last_error(ctx) : "";
    if (detail != NULL && detail[0] != '\0')
        fprintf(stderr, PROG ": %s: %s (%s)\n", what, tr_result_string(r), detail);
    else
        fprintf(stderr, PROG ": %s: %s\n", what, tr_result_string(r));
}

/* Writes layer `layer` of the image as raw RGBA8, top row first. */
static int write_raw(const tr_image *image, uint32_t layer, uint32_t w, uint32_t h, const char *path)
{
    size_t bytes = (size_t)w * h * 4u;
    uint8_t *pixels = malloc(bytes);
    if (pixels == NULL) {
        fprintf(stderr, PROG ": %s: out of memory\n", path);
        return -1;
    }
    tr_result r = tr_image_read_rgba8(image, &(tr_subresource){.layer = layer}, pixels);
    if (r != TR_OK) {
        fprintf(stderr, PROG ": reading the image back: %s\n", tr_result_string(r));
        free(pixels);
        return -1;
    }
    FILE *f = fopen(path, "wb");
    if (f == NULL) {
        fprintf(stderr, PROG ": %s: %s\n", path, strerror(errno));
        free(pixels);
        return -1;
    }
    int ok = fwrite(pixels, 1, bytes, f) == bytes;
    int saved_errno = errno;
    if (fclose(f) != 0 && ok) {
        ok = 0;
        saved_errno = errno;
    }
    free(pixels);
    if (!ok) {
        fprintf(stderr, PROG ": %s: %s\n", path, strerror(saved_errno));
        remove(path);
        return -1;
    }
    return 0;
}

/* --compare: compares the pixels -o writes (tr_image_read_rgba8, as
 * tr_image_write_png reads them) with the golden and prints the line.
 * Returns 0 (whatever the verdict, in *cmp) or the exit status of an
 * error, after a message naming the file. */
static int compare_with_golden(const render_options *o, const tr_image *image, uint32_t w, uint32_t h,
                               tool_compare_result *cmp)
{
    uint8_t *pixels = malloc((size_t)w * h * 4u);
    if (pixels == NULL) {
        fprintf(stderr, PROG ": comparing with %s: out of memory\n", o->compare);
        return 1;
    }
    tr_result r = tr_image_read_rgba8(image, NULL, pixels);
    if (r != TR_OK) {
        fprintf(stderr, PROG ": reading the image back: %s\n", tr_result_string(r));
        free(pixels);
        return 1;
    }
    char msg[4400];
    int status = tool_compare(o->compare, pixels, w, h, o->tolerance, o->diff, cmp, msg, sizeof msg);
    free(pixels);
    if (status != 0) {
        fprintf(stderr, PROG ": %s\n", msg);
        return status;
    }
    /* With --stats stdout carries the JSON line alone, so that it parses. */
    tool_compare_print_line(o->stats ? stderr : stdout, o->compare, cmp);
    return 0;
}

/* The module of one stage: the file the command line gives (relative to
 * the current folder), else the one the scene names (relative to the
 * scene's folder); *out stays NULL for the built-in shader.  0, or -1
 * after a message naming the file. */
/* The bin is the unit of density (README, "Fragment density maps"): each
 * bin reads the one map texel under its centre, so a map whose texels are
 * far smaller than the bins has most of its detail never read.  Warned
 * about (more than four texels across a bin on either axis), not refused:
 * the image is still what the pass defines.  A texel covers
 * 2^ceil(log2(ceil(fb / map))) pixels per axis, clamped to [32, 1024]
 * (fdm.h, tr_compute_fdm_areas). */
static uint32_t texel_span(uint32_t fb, uint32_t map)
{
    const uint32_t ratio = (fb + map - 1) / map;
    uint32_t span = 32; /* clamped to [32, 1024] */
    while (span < ratio && span < 1024)
        span *= 2;
    return span;
}

static void warn_fine_map(const char *path, const tr_image *map, uint32_t fb_w, uint32_t fb_h,
                          const tr_bin_layout *l)
{
    const tr_image_desc d = tr_image_get_desc(map);
    if (d.width == 0 || d.height == 0)
        return;
    const uint32_t tw = texel_span(fb_w, d.width), th = texel_span(fb_h, d.height);
    if (l->bin_w <= 4 * tw && l->bin_h <= 4 * th)
        return;
    fprintf(stderr,
            PROG ": warning: %s: a density texel covers %ux%u pixels, a bin %ux%u; each bin reads one texel, "
                 "at its centre, so the map's detail finer than the bins is not used (smaller bins: --gmem or "
                 "--device; README, \"Fragment density maps\")\n",
            path, tw, th, l->bin_w, l->bin_h);
}

static int load_module(tr_context *ctx, const render_options *o, const tr_scene *scene, int fragment,
                       tr_shader_module **out)
{
    const char *given = fragment ? o->fragment_shader : o->vertex_shader;
    const char *named = fragment ? scene->fragment_shader : scene->vertex_shader;
    char path[4096];
    if (given != NULL) {
        if (given[0] == '\0')
            return 0;
        snprintf(path, sizeof path, "%s", given);
    } else {
        if (named[0] == '\0')
            return 0;
        if (tool_shader_resolve(o->scene_path, named, path, sizeof path) != 0) {
            fprintf(stderr, PROG ": %s: %s '%s': path too long\n", o->scene_path,
                    fragment ? "fragment_shader" : "vertex_shader", named);
            return -1;
        }
    }
    char msg[4096];
    size_t words = 0;
    uint32_t *code = tool_shader_spirv(path, fragment, (scene->flags & TR_SCENE_FLAT) != 0, &words, msg, sizeof msg);
    if (code == NULL) {
        fprintf(stderr, PROG ": %s shader: %s\n", fragment ? "fragment" : "vertex", msg);
        return -1;
    }
    const tr_shader_module_desc d = {.code = code, .code_size = words * 4};
    tr_result r = tr_shader_module_create(ctx, &d, out);
    free(code);
    if (r != TR_OK) {
        char what[4200];
        snprintf(what, sizeof what, "%s: creating the %s shader module", path, fragment ? "fragment" : "vertex");
        report(ctx, what, r);
        *out = NULL;
        return -1;
    }
    return 0;
}

/* ---- models ------------------------------------------------------------ */

/* What the pass hands to model_after_pass: the pictures that need the
 * pass's descriptor (tr_fdm_write_png) or are drawn per layer. */
typedef struct model_pictures {
    const render_options *o;
    uint32_t views;
} model_pictures;

/* tool_model_options.after_pass: --fdm-png and --subsampled, one file per
 * view (tool_density_view_path), while the attachments live. */
static int model_after_pass(void *user, tr_context *ctx, const tr_render_pass_desc *rp, char *msg, size_t msg_size)
{
    const model_pictures *p = user;
    const tr_color_attachment *c = &rp->color[0];
    for (uint32_t v = 0; v < p->views; v++) {
        const char *what[2] = {p->o->fdm_png, p->o->subsampled};
        for (int k = 0; k < 2; k++) {
            if (what[k] == NULL)
                continue;
            char path[4200];
            if (tool_density_view_path(what[k], v, path, sizeof path) != 0) {
                snprintf(msg, msg_size, "%s: path too long", what[k]);
                return -1;
            }
            tr_result r = k == 0 ? tr_fdm_write_png(ctx, rp, v, c->image, c->base_layer + v, path)
                                 : tr_subsampled_write_png(c->image, c->base_layer + v, path);
            if (r != TR_OK) {
                snprintf(msg, msg_size, "%s: writing the %s picture of view %u: %s (%s)", path,
                         k == 0 ? "FDM" : "subsampled", v, tr_result_string(r), tr_context_last_error(ctx));
                return -1;
            }
        }
    }
    return 0;
}

/* 1234567 -> "1,234,567". */
static const char *group_digits(uint64_t n, char buf[32])
{
    char digits[24];
    int len = snprintf(digits, sizeof digits, "%llu", (unsigned long long)n), o = 0;
    for (int i = 0; i < len; i++) {
        if (i > 0 && (len - i) % 3 == 0)
            buf[o++] = ',';
        buf[o++] = digits[i];
    }
    buf[o] = '\0';
    return buf;
}

/* Writes -o and --raw for every view (tool_density_view_path). */
static int write_model_views(tr_context *ctx, const render_options *o, const tr_image *image, uint32_t views,
                             uint32_t w, uint32_t h)
{
    for (uint32_t v = 0; v < views; v++) {
        char path[4200];
        if (o->png_path != NULL) {
            if (tool_density_view_path(o->png_path, v, path, sizeof path) != 0) {
                fprintf(stderr, PROG ": %s: path too long\n", o->png_path);
                return -1;
            }
            tr_result r = tr_image_write_png(image, &(tr_subresource){.layer = v}, path);
            if (r != TR_OK) {
                char what[4300];
                snprintf(what, sizeof what, "%s: writing the PNG", path);
                report(ctx, what, r);
                return -1;
            }
        }
        if (o->raw_path != NULL) {
            if (tool_density_view_path(o->raw_path, v, path, sizeof path) != 0) {
                fprintf(stderr, PROG ": %s: path too long\n", o->raw_path);
                return -1;
            }
            if (write_raw(image, v, w, h, path) != 0)
                return -1;
        }
    }
    return 0;
}

/* A model file (tool_model.h) instead of a scene: the same context and
 * outputs (-o, --raw, --compare, --stats), --views, and a density map (a
 * PNG, or radial built per view) with --fdm-png and --subsampled.  With a
 * map the model is rendered a second time without it, everything else the
 * same, and the fragments shaded are printed against that full-density
 * render.  Returns the exit status. */
static int render_model(const render_options *o)
{
    if (o->lrz_png != NULL || o->samples > 1 || o->fdm_offset) {
        fprintf(stderr, PROG ": %s: %s is not available for models yet\n", o->scene_path,
                o->lrz_png ? "--lrz-png" : o->samples > 1 ? "--samples" : "--fdm-offset");
        return 2;
    }
    tr_context_desc cdesc;
    memset(&cdesc, 0, sizeof cdesc);
    cdesc.threads = o->threads;
    cdesc.device = o->device;
    cdesc.gmem_bytes = o->gmem_bytes;
    cdesc.flags = o->no_lrz ? TR_CONTEXT_NO_LRZ : 0u;
    tr_context *ctx = NULL;
    tr_result r = tr_context_create(&cdesc, &ctx);
    if (r != TR_OK) {
        fprintf(stderr, PROG ": creating the context: %s\n", tr_result_string(r));
        return 1;
    }
    int status = 1;
    const uint32_t views = o->views > 1 ? o->views : 1u;
    const uint32_t w = TOOL_MODEL_WIDTH, h = TOOL_MODEL_HEIGHT;
    tr_image *image = NULL, *map = NULL;
    tr_pass_stats stats, full;
    memset(&stats, 0, sizeof stats);
    memset(&full, 0, sizeof full);
    tool_model_info info;
    memset(&info, 0, sizeof info);
    if (o->radial) {
        tr_bin_layout bins;
        const tool_model_options lo = {.views = views, .image_flags = o->subsampled ? TR_IMAGE_SUBSAMPLED : 0u};
        r = tool_model_fdm_layout(ctx, &lo, &bins);
        if (r == TR_OK)
            r = tool_density_build(ctx, &o->radial_params, w, h, views, &bins, 0, &map);
        if (r != TR_OK) {
            report(ctx, "--density-map radial: building the map", r);
            goto done;
        }
    } else if (o->density_map != NULL) {
        /* Red and green of the file, one layer (every view reads it). */
        r = tr_image_load(ctx, o->density_map, TR_FORMAT_R8G8_UNORM, 1, &map);
        if (r != TR_OK) {
            char what[300];
            snprintf(what, sizeof what, "%s: loading the density map", o->density_map);
            report(ctx, what, r);
            goto done;
        }
    }
    model_pictures pictures = {.o = o, .views = views};
    tool_model_options mo = {.vertex_shader = o->vertex_shader, .fragment_shader = o->fragment_shader,
                             .camera = (int)o->camera, .views = views, .density_map = map,
                             .image_flags = o->subsampled ? TR_IMAGE_SUBSAMPLED : 0u};
    if (o->fdm_png != NULL || o->subsampled != NULL) {
        mo.after_pass = model_after_pass;
        mo.user = &pictures;
    }
    char msg[4400];
    double t0 = tool_now_ms();
    if (tool_model_render(ctx, o->scene_path, &mo, &image, &stats, &info, msg, sizeof msg) != 0) {
        fprintf(stderr, PROG ": %s\n", msg);
        goto done;
    }
    double wall_ms = tool_now_ms() - t0;
    if (map != NULL)
        warn_fine_map(o->density_map, map, info.width, info.height, &stats.layout);
    if (write_model_views(ctx, o, image, views, info.width, info.height) != 0)
        goto done;
    if (map != NULL) {
        /* The same render at full density: no map, no subsampled store
         * (which changes where texels lie, not what is shaded), no
         * pictures. */
        tool_model_options fo = mo;
        fo.density_map = NULL;
        fo.image_flags = 0;
        fo.after_pass = NULL;
        fo.user = NULL;
        tr_image *full_image = NULL;
        if (tool_model_render(ctx, o->scene_path, &fo, &full_image, &full, NULL, msg, sizeof msg) != 0) {
            fprintf(stderr, PROG ": the render at full density: %s\n", msg);
            goto done;
        }
        tr_image_destroy(full_image);
        char a[32], b[32];
        FILE *f = o->stats ? stderr : stdout; /* with --stats stdout is the JSON line alone */
        if (o->radial)
            fputs("radial FDM: ", f);
        else
            fprintf(f, "FDM %s: ", o->density_map);
        fprintf(f, "%s fragments shaded of %s at full density (%.1f%%)", group_digits(stats.fragments_shaded, a),
                group_digits(full.fragments_shaded, b),
                full.fragments_shaded ? 100.0 * (double)stats.fragments_shaded / (double)full.fragments_shaded : 0.0);
        if (views > 1)
            fprintf(f, ", %u views", views);
        fputc('\n', f);
    }
    tool_compare_result cmp;
    if (o->compare != NULL) {
        int cs = compare_with_golden(o, image, info.width, info.height, &cmp);
        if (cs != 0) {
            status = cs;
            goto done;
        }
    }
    if (o->stats) {
        fputs("{\"model\":", stdout);
        tool_json_string(stdout, o->scene_path);
        fprintf(stdout,
                ",\"width\":%u,\"height\":%u,\"views\":%u,\"triangles\":%u,\"draws\":%u,\"textures\":%u,"
                "\"lights\":%u,\"threads\":%u",
                info.width, info.height, views, info.triangles, info.draws, info.textures, info.lights,
                tr_context_get_desc(ctx).threads);
        fputs(",\"density_map\":", stdout);
        if (o->density_map != NULL)
            tool_json_string(stdout, o->density_map);
        else
            fputs("null", stdout);
        if (map != NULL) {
            const tr_image_desc md = tr_image_get_desc(map);
            fprintf(stdout,
                    ",\"fdm\":{\"map_width\":%u,\"map_height\":%u,\"fragments_shaded\":%llu,\"full_density\":%llu,"
                    "\"fraction\":%.4f}",
                    md.width, md.height, (unsigned long long)stats.fragments_shaded,
                    (unsigned long long)full.fragments_shaded,
                    full.fragments_shaded ? (double)stats.fragments_shaded / (double)full.fragments_shaded : 0.0);
        } else {
            fputs(",\"fdm\":null", stdout);
        }
        fputs(",\"compare\":", stdout);
        if (o->compare != NULL)
            tool_compare_print_json(stdout, o->compare, o->diff, &cmp);
        else
            fputs("null", stdout);
        fprintf(stdout, ",\"wall_ms\":%.3f,\"stats\":", wall_ms);
        tool_json_stats(stdout, &stats);
        fputs("}\n", stdout);
    }
    status = fflush(stdout) != 0 ? 1 : o->compare != NULL && !cmp.passed ? TOOL_EXIT_MISMATCH : 0;
done:
    tr_context_destroy(ctx); /* also destroys the images */
    return status;
}

int main(int argc, char **argv)
{
    render_options o;
    int pa = parse_args(argc, argv, &o);
    if (pa == 1) {
        usage(stdout);
        return 0;
    }
    if (pa != 0) {
        short_usage(stderr);
        return 2;
    }
    if (tool_model_is_model(o.scene_path))
        return render_model(&o);
    if (o.camera != 0) {
        fprintf(stderr, PROG ": %s: --camera picks a model's camera; a scene file has none\n", o.scene_path);
        return 2;
    }
    if (o.views > 1) {
        fprintf(stderr, PROG ": %s: --views renders a model's views; a scene file has one view\n", o.scene_path);
        return 2;
    }

    tr_scene scene;
    char msg[256];
    tr_result r = tr_scene_load(o.scene_path, &scene, msg, sizeof msg);
    if (r != TR_OK) {
        fprintf(stderr, PROG ": %s: %s\n", o.scene_path, msg[0] ? msg : tr_result_string(r));
        return 1;
    }

    int status = 1;
    tr_context *ctx = NULL;
    tr_image *image = NULL;
    tr_shader_module *vs = NULL, *fs = NULL;
    tr_context_desc cdesc;
    memset(&cdesc, 0, sizeof cdesc);
    cdesc.threads = o.threads;
    cdesc.device = o.device;
    cdesc.gmem_bytes = o.gmem_bytes;
    cdesc.flags = o.no_lrz ? TR_CONTEXT_NO_LRZ : 0u;
    r = tr_context_create(&cdesc, &ctx);
    if (r != TR_OK) {
        /* A context that failed to be created has no message to read. */
        fprintf(stderr, PROG ": creating the context (threads %u, gmem %u bytes, device %s): %s\n",
                o.threads, o.gmem_bytes, tool_device_name(o.device), tr_result_string(r));
        goto done;
    }
    tr_image_desc idesc;
    memset(&idesc, 0, sizeof idesc);
    idesc.format = TR_FORMAT_R8G8B8A8_UNORM;
    idesc.width = scene.width;
    idesc.height = scene.height;
    /* With an FDM offset every attachment and the map carry the flag
     * that lets the pass honour it (fdm.h). */
    const uint32_t image_flags = o.fdm_offset ? TR_IMAGE_FDM_OFFSET : 0u;
    idesc.flags = image_flags | (o.subsampled ? TR_IMAGE_SUBSAMPLED : 0u);
    r = tr_image_create(ctx, &idesc, &image);
    if (r != TR_OK) {
        report(ctx, "creating the image", r);
        goto done;
    }

    tr_scene_render_options ropts;
    memset(&ropts, 0, sizeof ropts);
    if (o.density_map != NULL && !o.radial) {
        /* Red and green of the file, one layer, level 0 only. */
        r = tr_image_load(ctx, o.density_map, TR_FORMAT_R8G8_UNORM, 1, &ropts.density_map.image);
        if (r == TR_OK && o.fdm_offset)
            r = tool_copy_with_flags(ctx, &ropts.density_map.image, TR_IMAGE_FDM_OFFSET);
        if (r != TR_OK) {
            char what[300];
            snprintf(what, sizeof what, "%s: loading the density map", o.density_map);
            report(ctx, what, r);
            goto done;
        }
    }

    if (load_module(ctx, &o, &scene, 0, &vs) != 0 || load_module(ctx, &o, &scene, 1, &fs) != 0)
        goto done;
    ropts.vertex_module = vs;
    ropts.fragment_module = fs;
    ropts.image_flags = image_flags;
    ropts.samples = o.samples;
    if (o.fdm_offset) {
        ropts.density_map.offset_count = 1;
        ropts.density_map.offsets[0] = (tr_offset2d){o.fdm_offset_x, o.fdm_offset_y};
    }

    /* The caller's depth image: to draw its LRZ buffer, and so that
     * --fdm-png can name the pass's depth attachment. */
    tr_image *depth = NULL;
    if (o.lrz_png != NULL || o.fdm_png != NULL || o.radial) {
        idesc.format = TR_FORMAT_D32_SFLOAT;
        idesc.flags = image_flags; /* never subsampled */
        idesc.samples = o.samples;
        r = tr_image_create(ctx, &idesc, &depth);
        if (r != TR_OK) {
            report(ctx, "creating the depth image", r);
            goto done;
        }
    }
    /* A radial map's texels follow the bins of the very pass (with the
     * depth image above, which has the scene's size and samples; a
     * multisampled pass is described with a multisampled colour image,
     * as tr_scene_pass_desc asks, made for the purpose). */
    if (o.radial) {
        tr_bin_layout bins;
        tr_image *ms = NULL;
        r = TR_OK;
        if (o.samples > 1) {
            idesc.format = TR_FORMAT_R8G8B8A8_UNORM;
            idesc.flags = image_flags;
            r = tr_image_create(ctx, &idesc, &ms);
        }
        if (r == TR_OK) {
            tr_render_pass_desc rp = tr_scene_pass_desc(&scene, ms ? ms : image, depth, &ropts);
            if (ms != NULL)
                rp.color[0].resolve_image = image;
            r = tool_density_layout(ctx, &rp, image_flags, &bins);
        }
        tr_image_destroy(ms);
        if (r == TR_OK)
            r = tool_density_build(ctx, &o.radial_params, scene.width, scene.height, 1, &bins, image_flags,
                                   &ropts.density_map.image);
        if (r != TR_OK) {
            report(ctx, "--density-map radial: building the map", r);
            goto done;
        }
    }

    tr_pass_stats stats;
    memset(&stats, 0, sizeof stats);
    double t0 = tool_now_ms();
    r = tr_scene_render_with(ctx, &scene, &ropts, image, depth, &stats);
    double wall_ms = tool_now_ms() - t0;
    if (r != TR_OK) {
        char what[300];
        snprintf(what, sizeof what, "%s: rendering", o.scene_path);
        report(ctx, what, r);
        goto done;
    }
    if (ropts.density_map.image != NULL)
        warn_fine_map(o.density_map, ropts.density_map.image, scene.width, scene.height, &stats.layout);

    if (o.png_path != NULL) {
        r = tr_image_write_png(image, NULL, o.png_path);
        if (r != TR_OK) {
            char what[300];
            snprintf(what, sizeof what, "%s: writing the PNG", o.png_path);
            report(ctx, what, r);
            goto done;
        }
    }
    if (o.raw_path != NULL && write_raw(image, 0, scene.width, scene.height, o.raw_path) != 0)
        goto done;
    if (o.lrz_png != NULL) {
        r = tr_image_write_lrz_png(depth, 0, o.lrz_png);
        if (r != TR_OK) {
            char what[300];
            snprintf(what, sizeof what, "%s: writing the LRZ picture (%s)", o.lrz_png,
                     (scene.flags & TR_SCENE_DEPTH) ? "LRZ was off" : "the scene has no depth");
            report(ctx, what, r);
            goto done;
        }
    }
    if (o.fdm_png != NULL) {
        tr_render_pass_desc rp = tr_scene_pass_desc(&scene, image, depth, &ropts);
        r = tr_fdm_write_png(ctx, &rp, 0, image, 0, o.fdm_png);
        if (r != TR_OK) {
            char what[300];
            snprintf(what, sizeof what, "%s: writing the FDM picture", o.fdm_png);
            report(ctx, what, r);
            goto done;
        }
    }
    if (o.subsampled != NULL) {
        r = tr_subsampled_write_png(image, 0, o.subsampled);
        if (r != TR_OK) {
            char what[300];
            snprintf(what, sizeof what, "%s: writing the subsampled image", o.subsampled);
            report(ctx, what, r);
            goto done;
        }
    }
    /* Last, so that a failed comparison still leaves every output (the
     * render to inspect, or to promote to golden). */
    tool_compare_result cmp;
    if (o.compare != NULL) {
        int cs = compare_with_golden(&o, image, scene.width, scene.height, &cmp);
        if (cs != 0) {
            status = cs;
            goto done;
        }
    }
    if (o.stats)
        print_stats_json(stdout, &o, &scene, tr_context_get_desc(ctx).threads, &stats,
                         wall_ms, o.compare != NULL ? &cmp : NULL);
    status = fflush(stdout) != 0 ? 1 : o.compare != NULL && !cmp.passed ? TOOL_EXIT_MISMATCH : 0;

done:
    tr_shader_module_destroy(vs);
    tr_shader_module_destroy(fs);
    if (ctx != NULL)
        tr_context_destroy(ctx); /* also destroys the images */
    tr_scene_free(&scene);
    return status;
}
