/* tilerast-llvmpipe: draws an SRSCENE1 file with Mesa's llvmpipe through
 * OSMesa and times it, so that tilerast-bench can put llvmpipe beside
 * tilerast on exactly the same triangles.
 *
 *   tilerast-llvmpipe [--frames N] [--warmup N] [--samples N] [--raw OUT.rgba] SCENE.scn
 *   tilerast-llvmpipe --info
 *
 * --info prints OSMesa's GL_RENDERER and GL_VERSION on one line and exits:
 * a check that Mesa and its libraries load where the runner was carried to
 * (bench/device_sidebyside.sh), and that the driver is llvmpipe.
 *
 * Prints one JSON object: {"renderer":"llvmpipe","frames":N,"median_ms":...,
 * "min_ms":...,"max_ms":...,"times":[every frame's ms, sorted]}.  The thread count is llvmpipe's own
 * LP_NUM_THREADS environment variable (0 = everything on the calling thread),
 * which must be set before the process starts.
 *
 * Each frame is one glClear and one glDrawArrays of the whole scene,
 * finished with glFinish, into a framebuffer object of an RGBA8 colour and
 * a 32-bit float depth renderbuffer, in the conventions of SCENES.md:
 * glClipControl(LOWER_LEFT, ZERO_TO_ONE), first-vertex provoking, no
 * culling.  --raw writes the last frame's pixels top row first, as
 * tilerast-render --raw does.
 *
 * A framebuffer object, as a GL application draws off screen: gallium
 * rasterizes it with window y up, computed bottom-up, which is what
 * tilerast's TR_PASS_ORIGIN_LOWER_LEFT (and so tilerast-render) does.
 * OSMesa's own buffer is a window-system one, which gallium draws upside
 * down through a flipped viewport: its float rounding puts about one pixel
 * per 2,600 small perspective triangles elsewhere.
 *
 * --samples N (above 1): the renderbuffers have N samples and a
 * glBlitFramebuffer resolves them into a single-sample RGBA8 one every
 * frame, inside the timing (--raw reads that one back after the frames),
 * as tilerast-render --samples resolves in its tiles (llvmpipe has 4x
 * only).  Its resolve truncates where tilerast's rounds half up, so the
 * resolved bytes may be one below tilerast's where coverage is the same. */
#define _POSIX_C_SOURCE 200809L
#define GL_GLEXT_PROTOTYPES 1 /* glBlendFuncSeparate, framebuffer objects */

#include <GL/gl.h>
#include <GL/glext.h>
#include <GL/osmesa.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tilerast/tilerast.h"
#include "tool_common.h"

#define PROG "tilerast-llvmpipe"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int parse_count(const char *s, unsigned long max, unsigned long *out)
{
    char *end;
    errno = 0;
    if (!s || *s < '0' || *s > '9')
        return -1;
    unsigned long v = strtoul(s, &end, 10);
    if (errno || *end || v > max)
        return -1;
    *out = v;
    return 0;
}

/* --info: GL_RENDERER and GL_VERSION of a 1x1 OSMesa context. */
static int print_info(void)
{
    static unsigned char px[4];
    OSMesaContext ctx = OSMesaCreateContextExt(OSMESA_RGBA, 32, 0, 0, NULL);
    if (!ctx || !OSMesaMakeCurrent(ctx, px, GL_UNSIGNED_BYTE, 1, 1)) {
        fprintf(stderr, PROG ": cannot create an OSMesa context\n");
        return 1;
    }
    const char *renderer = (const char *)glGetString(GL_RENDERER);
    const char *version = (const char *)glGetString(GL_VERSION);
    printf("GL_RENDERER: %s; GL_VERSION: %s\n", renderer ? renderer : "?", version ? version : "?");
    OSMesaMakeCurrent(NULL, NULL, 0, 0, 0);
    OSMesaDestroyContext(ctx);
    return 0;
}

int main(int argc, char **argv)
{
    unsigned long frames = 10, warmup = 2, samples = 1;
    const char *raw = NULL, *path = NULL;
    if (argc == 2 && !strcmp(argv[1], "--info"))
        return print_info();
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if ((!strcmp(a, "--frames") || !strcmp(a, "--warmup") || !strcmp(a, "--raw") || !strcmp(a, "--samples")) &&
            i + 1 >= argc) {
            fprintf(stderr, PROG ": %s needs a value\n", a);
            return 2;
        }
        if (!strcmp(a, "--frames")) {
            if (parse_count(argv[++i], 100000, &frames) || !frames) {
                fprintf(stderr, PROG ": --frames wants 1..100000\n");
                return 2;
            }
        } else if (!strcmp(a, "--warmup")) {
            if (parse_count(argv[++i], 1000, &warmup)) {
                fprintf(stderr, PROG ": --warmup wants 0..1000\n");
                return 2;
            }
        } else if (!strcmp(a, "--samples")) {
            if (parse_count(argv[++i], 64, &samples) || !samples) {
                fprintf(stderr, PROG ": --samples wants 1..64\n");
                return 2;
            }
        } else if (!strcmp(a, "--raw")) {
            raw = argv[++i];
        } else if (a[0] == '-') {
            fprintf(stderr, "usage: " PROG " [--frames N] [--warmup N] [--samples N] [--raw OUT.rgba] SCENE.scn | --info\n");
            return 2;
        } else {
            path = a;
        }
    }
    if (!path) {
        fprintf(stderr, "usage: " PROG " [--frames N] [--warmup N] [--samples N] [--raw OUT.rgba] SCENE.scn | --info\n");
        return 2;
    }
    tr_scene sc;
    char msg[256];
    if (tr_scene_load(path, &sc, msg, sizeof msg) != TR_OK) {
        fprintf(stderr, PROG ": %s: %s\n", path, msg);
        return 1;
    }
    OSMesaContext ctx = OSMesaCreateContextExt(OSMESA_RGBA, 32, 0, 0, NULL);
    unsigned char *buf = calloc((size_t)sc.width * sc.height, 4);
    double *times = malloc(frames * sizeof *times);
    if (!ctx || !buf || !times || !OSMesaMakeCurrent(ctx, buf, GL_UNSIGNED_BYTE, (GLsizei)sc.width,
                                                     (GLsizei)sc.height)) {
        fprintf(stderr, PROG ": cannot create an OSMesa context\n");
        return 1;
    }
    PFNGLCLIPCONTROLPROC clip_control = (PFNGLCLIPCONTROLPROC)OSMesaGetProcAddress("glClipControl");
    PFNGLPROVOKINGVERTEXPROC provoking = (PFNGLPROVOKINGVERTEXPROC)OSMesaGetProcAddress("glProvokingVertex");
    if (!clip_control || !provoking) {
        fprintf(stderr, PROG ": this Mesa lacks glClipControl or glProvokingVertex\n");
        return 1;
    }
    OSMesaPixelStore(OSMESA_Y_UP, 1); /* row 0 of buf is the bottom row */
    const bool ms = samples > 1;
    GLuint fbo = 0, rb[3] = {0, 0, 0}, resolved = 0;
    if (ms) {
        GLint max = 0;
        glGetIntegerv(GL_MAX_SAMPLES, &max);
        if ((GLint)samples > max) {
            fprintf(stderr, PROG ": %lu samples, but this GL has at most %d\n", samples, max);
            return 1;
        }
    }
    glGenRenderbuffers(3, rb);
    if (ms) {
        /* the single-sample target of the resolve */
        glGenFramebuffers(1, &resolved);
        glBindFramebuffer(GL_FRAMEBUFFER, resolved);
        glBindRenderbuffer(GL_RENDERBUFFER, rb[2]);
        glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, (GLsizei)sc.width, (GLsizei)sc.height);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb[2]);
    }
    /* the target: 0 samples is a single-sample renderbuffer */
    const GLsizei n = ms ? (GLsizei)samples : 0;
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glBindRenderbuffer(GL_RENDERBUFFER, rb[0]);
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, n, GL_RGBA8, (GLsizei)sc.width, (GLsizei)sc.height);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb[0]);
    glBindRenderbuffer(GL_RENDERBUFFER, rb[1]);
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, n, GL_DEPTH_COMPONENT32F, (GLsizei)sc.width,
                                     (GLsizei)sc.height);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, rb[1]);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        fprintf(stderr, PROG ": the %lu-sample framebuffer is not complete\n", samples);
        return 1;
    }
    if (ms)
        glEnable(GL_MULTISAMPLE);
    clip_control(GL_LOWER_LEFT, GL_ZERO_TO_ONE);
    provoking(GL_FIRST_VERTEX_CONVENTION);
    glViewport(0, 0, (GLsizei)sc.width, (GLsizei)sc.height);
    glClearColor(sc.clear_color[0] / 255.0f, sc.clear_color[1] / 255.0f, sc.clear_color[2] / 255.0f,
                 sc.clear_color[3] / 255.0f);
    float cd = sc.clear_depth < 0 ? 0.0f : sc.clear_depth > 1 ? 1.0f : sc.clear_depth;
    glClearDepth(cd);
    if (sc.flags & TR_SCENE_DEPTH) {
        glEnable(GL_DEPTH_TEST);
        glDepthFunc(GL_LESS);
    }
    if (sc.flags & TR_SCENE_BLEND_ALPHA) {
        glEnable(GL_BLEND);
        glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    }
    if (sc.flags & TR_SCENE_BLEND_ADD) {
        glEnable(GL_BLEND);
        glBlendFunc(GL_ONE, GL_ONE);
    }
    glShadeModel((sc.flags & TR_SCENE_FLAT) ? GL_FLAT : GL_SMOOTH);
    /* Lines and points (SRSCENE2): GL's aliased lines are its diamond-exit
     * lines (tilerast's Bresenham), rectangles when multisampled; GL cannot
     * ask for single-sampled rectangular lines (RECT_LINES) without
     * smoothing them, so those are drawn aliased (a known difference). */
    const GLenum mode = (sc.flags & TR_SCENE_POINTS) ? GL_POINTS : (sc.flags & TR_SCENE_LINES) ? GL_LINES : GL_TRIANGLES;
    glLineWidth(sc.size);
    glPointSize(sc.size);
    glEnableClientState(GL_VERTEX_ARRAY);
    glEnableClientState(GL_COLOR_ARRAY);
    const unsigned char *v = (const unsigned char *)sc.vertices;
    glVertexPointer(4, GL_FLOAT, 20, v);
    glColorPointer(4, GL_UNSIGNED_BYTE, 20, v + 16);
    for (unsigned long f = 0; f < warmup + frames; f++) {
        double t0 = tool_now_ms();
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        glDrawArrays(mode, 0, (GLsizei)(tr_scene_prim_vertices(sc.flags) * sc.triangle_count));
        if (ms) {
            /* the resolve */
            glBindFramebuffer(GL_DRAW_FRAMEBUFFER, resolved);
            glBlitFramebuffer(0, 0, (GLint)sc.width, (GLint)sc.height, 0, 0, (GLint)sc.width, (GLint)sc.height,
                              GL_COLOR_BUFFER_BIT, GL_NEAREST);
            GLenum e = glGetError();
            if (e != GL_NO_ERROR) {
                fprintf(stderr, PROG ": resolving the %lu-sample framebuffer: GL error 0x%x\n", samples, e);
                return 1;
            }
            glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo);
        }
        glFinish();
        double t1 = tool_now_ms();
        if (f >= warmup)
            times[f - warmup] = t1 - t0;
    }
    if (raw) {
        /* the (resolved) image into buf, bottom row first */
        glBindFramebuffer(GL_READ_FRAMEBUFFER, ms ? resolved : fbo);
        glPixelStorei(GL_PACK_ALIGNMENT, 1);
        glReadPixels(0, 0, (GLsizei)sc.width, (GLsizei)sc.height, GL_RGBA, GL_UNSIGNED_BYTE, buf);
    }
    if (raw) {
        /* row 0 is the bottom (GL window) row: write top first. */
        FILE *o = fopen(raw, "wb");
        if (!o) {
            fprintf(stderr, PROG ": %s: %s\n", raw, strerror(errno));
            return 1;
        }
        for (long r = (long)sc.height - 1; r >= 0; r--)
            fwrite(buf + (size_t)r * sc.width * 4, 4, sc.width, o);
        if (fclose(o)) {
            fprintf(stderr, PROG ": %s: write failed\n", raw);
            return 1;
        }
    }
    qsort(times, frames, sizeof *times, cmp_double);
    double median = frames % 2 ? times[frames / 2] : 0.5 * (times[frames / 2 - 1] + times[frames / 2]);
    printf("{\"renderer\":\"llvmpipe\",\"frames\":%lu,\"median_ms\":%.3f,\"min_ms\":%.3f,\"max_ms\":%.3f,\"times\":[",
           frames, median, times[0], times[frames - 1]);
    for (unsigned long f = 0; f < frames; f++)
        printf("%s%.3f", f ? "," : "", times[f]);
    printf("]}\n");
    glDeleteFramebuffers(1, &fbo);
    if (resolved)
        glDeleteFramebuffers(1, &resolved);
    glDeleteRenderbuffers(3, rb);
    OSMesaMakeCurrent(NULL, NULL, 0, 0, 0); /* releases the framebuffer OSMesa made for buf */
    OSMesaDestroyContext(ctx);
    free(buf);
    free(times);
    tr_scene_free(&sc);
    return 0;
}
