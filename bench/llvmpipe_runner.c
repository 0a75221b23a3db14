/* tilerast-llvmpipe: draws an SRSCENE1 file with Mesa's llvmpipe through
 * OSMesa and times it, so that tilerast-bench can put llvmpipe beside
 * tilerast on exactly the same triangles.
 *
 *   tilerast-llvmpipe [--frames N] [--warmup N] [--samples N] [--raw OUT.rgba]
 *                     [--glsl DIR] [--clear R,G,B,A] SCENE.scn
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
 * resolved bytes may be one below tilerast's where coverage is the same.
 *
 * --glsl DIR draws with GLSL instead of the fixed-function pipeline:
 * DIR/scene.vert and DIR/scene.frag (the twins of tilerast's C scene
 * shaders, shaders/ in the repository), with SCENE_FLAT defined for flat
 * scenes, in an OpenGL 4.5 core profile context
 * (OSMesaCreateContextAttribs), the vertices in a vertex buffer object
 * (location 0: four floats, location 1: four normalised unsigned bytes,
 * 20 bytes a vertex, uploaded once before the frames), the point size in
 * the uniform at location 0 with GL_PROGRAM_POINT_SIZE.  Everything else
 * (framebuffer object, clip control, provoking vertex, tests, blending) is
 * as above.  The JSON gains "shader":"glsl" (else "fixed").
 *
 * --heavy (with --glsl DIR; built with bench/bench_heavy.c) draws the
 * shader-heavy scene instead of a scene file: its mesh, uniforms (the
 * std140 block at binding 0), three mipmapped RGBA8 textures (units 0-2,
 * trilinear, repeat) and GLSL (DIR/bench/heavy.vert, heavy.frag) as
 * bench_heavy.h exposes them, 1920x1080, cleared to (0, 0, 0, 255).
 *
 * --clear R,G,B,A replaces the scene's clear colour (bytes), so that a
 * comparison can tell written pixels from cleared ones (tilerast-bench
 * --compare-llvmpipe).
 *
 * --model FILE (with --glsl DIR; built with assimp) draws a model instead
 * of a scene file: the draws tilerast-render draws (tools/tool_model.h:
 * the same import, vertices, uniform bytes, texels of every mip level,
 * drawing order and state) with DIR/model.vert and DIR/model.frag, at
 * 1024x768 (--camera N: the file's camera N, as tilerast-render's), into
 * an SRGB8_ALPHA8 colour renderbuffer with GL_FRAMEBUFFER_SRGB enabled
 * (tilerast's R8G8B8A8_SRGB target), cleared to tool_model_clear. */
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

#include "bench_glsl.h"
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

/* A compiled shader of `kind` from `src`, or 0 after printing the log. */
static GLuint compile_shader(GLenum kind, const char *src, const char *name)
{
    GLuint sh = glCreateShader(kind);
    glShaderSource(sh, 1, &src, NULL);
    glCompileShader(sh);
    GLint ok = GL_FALSE;
    glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[4096] = "";
        glGetShaderInfoLog(sh, sizeof log, NULL, log);
        fprintf(stderr, PROG ": %s: %s\n", name, log);
        glDeleteShader(sh);
        return 0;
    }
    return sh;
}

/* A GL program from two sources, or 0 after printing the logs. */
static GLuint link_program(const char *vs_src, const char *fs_src, const char *what)
{
    GLuint vs = compile_shader(GL_VERTEX_SHADER, vs_src, what);
    GLuint fs = vs ? compile_shader(GL_FRAGMENT_SHADER, fs_src, what) : 0;
    if (!fs)
        return 0;
    GLuint prog = glCreateProgram();
    glAttachShader(prog, vs);
    glAttachShader(prog, fs);
    glLinkProgram(prog);
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint ok = GL_FALSE;
    glGetProgramiv(prog, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[4096] = "";
        glGetProgramInfoLog(prog, sizeof log, NULL, log);
        fprintf(stderr, PROG ": linking %s: %s\n", what, log);
        glDeleteProgram(prog);
        return 0;
    }
    return prog;
}

/* The program of dir/scene.vert and dir/scene.frag (SCENE_FLAT defined
 * when flat), or 0 after saying why. */
static GLuint scene_program(const char *dir, int flat)
{
    static const char *const flat_defs[] = {"SCENE_FLAT", NULL};
    char msg[512];
    char *vs_src = bench_glsl_source(dir, "scene.vert", flat ? flat_defs : NULL, msg, sizeof msg);
    char *fs_src = vs_src ? bench_glsl_source(dir, "scene.frag", flat ? flat_defs : NULL, msg, sizeof msg) : NULL;
    if (!vs_src || !fs_src) {
        fprintf(stderr, PROG ": %s\n", msg);
        free(vs_src);
        return 0;
    }
    const GLuint prog = link_program(vs_src, fs_src, "the scene shaders");
    free(vs_src);
    free(fs_src);
    return prog;
}

/* "R,G,B,A" bytes into c; 0 on success. */
static int parse_rgba(const char *s, unsigned char c[4])
{
    for (int i = 0; i < 4; i++) {
        char *end;
        errno = 0;
        if (*s < '0' || *s > '9')
            return -1;
        unsigned long v = strtoul(s, &end, 10);
        if (errno || v > 255 || *end != (i < 3 ? ',' : '\0'))
            return -1;
        c[i] = (unsigned char)v;
        s = end + 1;
    }
    return 0;
}

#ifdef TILERAST_BENCH_HEAVY
#include "bench_heavy.h"

/* Where bench_heavy.c reads its GLSL (bench_heavy_dir.h): DIR/bench. */
char bench_heavy_shader_dir[1024];


/* The heavy scene's GL objects, made from bench_heavy's data (a tilerast
 * context makes it; only its arrays are used here).  Returns the index
 * count, 0 on failure. */
static GLsizei heavy_setup(const char *glsl_dir)
{
    const size_t len = strlen(glsl_dir);
    if (len + sizeof "/bench" > sizeof bench_heavy_shader_dir) {
        fprintf(stderr, PROG ": %s: path too long\n", glsl_dir);
        return 0;
    }
    memcpy(bench_heavy_shader_dir, glsl_dir, len);
    memcpy(bench_heavy_shader_dir + len, "/bench", sizeof "/bench");
    tr_context *tctx = NULL;
    bench_heavy *h = NULL;
    if (tr_context_create(&(tr_context_desc){.threads = 1}, &tctx) != TR_OK ||
        bench_heavy_create(tctx, &h) != TR_OK) {
        fprintf(stderr, PROG ": cannot build the heavy scene (%s)\n", tctx ? tr_context_last_error(tctx) : "");
        return 0;
    }
    GLuint prog = link_program(bench_heavy_glsl(h, 0), bench_heavy_glsl(h, 1), "the heavy scene's GLSL");
    if (!prog)
        return 0;
    glUseProgram(prog);
    uint32_t nv, ni;
    const bench_heavy_vertex *v = bench_heavy_vertices(h, &nv);
    const uint32_t *idx = bench_heavy_indices(h, &ni);
    GLuint vao, buf[3];
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(3, buf);
    glBindBuffer(GL_ARRAY_BUFFER, buf[0]);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(nv * sizeof *v), v, GL_STATIC_DRAW);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, buf[1]);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)(ni * sizeof *idx), idx, GL_STATIC_DRAW);
    const GLsizei stride = (GLsizei)sizeof(bench_heavy_vertex);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, stride, (const void *)0);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, stride, (const void *)12);
    glVertexAttribPointer(2, 4, GL_FLOAT, GL_FALSE, stride, (const void *)24);
    glVertexAttribPointer(3, 2, GL_FLOAT, GL_FALSE, stride, (const void *)40);
    for (GLuint a = 0; a < 4; a++)
        glEnableVertexAttribArray(a);
    glBindBuffer(GL_UNIFORM_BUFFER, buf[2]);
    glBufferData(GL_UNIFORM_BUFFER, sizeof(bench_heavy_uniforms), bench_heavy_uniform_data(h), GL_STATIC_DRAW);
    glBindBufferBase(GL_UNIFORM_BUFFER, 0, buf[2]);
    GLuint tex[BENCH_HEAVY_TEXTURES];
    glGenTextures(BENCH_HEAVY_TEXTURES, tex);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    const uint32_t levels = bench_heavy_levels(h);
    for (uint32_t t = 0; t < BENCH_HEAVY_TEXTURES; t++) {
        glActiveTexture(GL_TEXTURE0 + t);
        glBindTexture(GL_TEXTURE_2D, tex[t]);
        glTexStorage2D(GL_TEXTURE_2D, (GLsizei)levels, GL_RGBA8, BENCH_HEAVY_TEX_SIZE, BENCH_HEAVY_TEX_SIZE);
        for (uint32_t l = 0; l < levels; l++) {
            uint32_t size;
            const uint8_t *texels = bench_heavy_texels(h, t, l, &size);
            /* row 0 is v = 0 in both APIs: the rows go as they are */
            glTexSubImage2D(GL_TEXTURE_2D, (GLint)l, 0, 0, (GLsizei)size, (GLsizei)size, GL_RGBA, GL_UNSIGNED_BYTE,
                            texels);
        }
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
    }
    bench_heavy_destroy(h);
    tr_context_destroy(tctx);
    GLenum e = glGetError();
    if (e != GL_NO_ERROR) {
        fprintf(stderr, PROG ": setting up the heavy scene: GL error 0x%x\n", e);
        return 0;
    }
    return (GLsizei)ni;
}
#endif


#ifdef TILERAST_HAVE_ASSIMP
#include "tool_model.h"

/* A model's GL objects: per draw a vertex array (its own buffers), a range
 * of one uniform buffer, its textures and state. */
typedef struct gl_model_draw {
    GLuint vao, buf[2];
    GLsizei indices;
    GLintptr ubo_offset;
    GLuint textures[TOOL_MODEL_TEXTURES];
    int cull_back, front_ccw, blend;
} gl_model_draw;

typedef struct gl_model {
    GLuint program, ubo;
    gl_model_draw *draws;
    uint32_t draw_count;
    GLuint *textures; /* one per distinct tilerast image */
    const tr_image **images;
    uint32_t texture_count;
} gl_model;

/* The GL texture holding `image`'s texels, every level, as they are in
 * tilerast (so that both sample the same mip chain). */
static GLuint model_texture(gl_model *g, const tr_image *image)
{
    for (uint32_t i = 0; i < g->texture_count; i++)
        if (g->images[i] == image)
            return g->textures[i];
    const tr_image_desc d = tr_image_get_desc(image);
    GLuint tex = 0;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    const uint32_t levels = d.levels ? d.levels : 1;
    glTexStorage2D(GL_TEXTURE_2D, (GLsizei)levels, d.format == TR_FORMAT_R8G8B8A8_SRGB ? GL_SRGB8_ALPHA8 : GL_RGBA8,
                   (GLsizei)d.width, (GLsizei)d.height);
    uint8_t *texels = malloc((size_t)d.width * d.height * 4);
    for (uint32_t l = 0; texels && l < levels; l++) {
        const uint32_t w = d.width >> l ? d.width >> l : 1, h = d.height >> l ? d.height >> l : 1;
        const tr_subresource sub = {.level = l};
        if (tr_image_download(image, &sub, texels, 0) != TR_OK)
            break;
        /* row 0 is t = 0 in both APIs: the rows go as they are */
        glTexSubImage2D(GL_TEXTURE_2D, (GLint)l, 0, 0, (GLsizei)w, (GLsizei)h, GL_RGBA, GL_UNSIGNED_BYTE, texels);
    }
    free(texels);
    /* tool_model_render.c's sampler: trilinear, repeating */
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
    GLuint *textures = realloc(g->textures, (g->texture_count + 1) * sizeof *textures);
    if (textures != NULL)
        g->textures = textures;
    const tr_image **images = textures ? realloc(g->images, (g->texture_count + 1) * sizeof *images) : NULL;
    if (images == NULL)
        return tex; /* not kept: a later draw of the image makes its own (out of memory only) */
    g->images = images;
    g->textures[g->texture_count] = tex;
    g->images[g->texture_count++] = image;
    return tex;
}

/* Deletes what model_setup made (the context must still be current). */
static void model_release(gl_model *g)
{
    for (uint32_t i = 0; i < g->draw_count && g->draws != NULL; i++) {
        glDeleteBuffers(2, g->draws[i].buf);
        glDeleteVertexArrays(1, &g->draws[i].vao);
    }
    if (g->texture_count)
        glDeleteTextures((GLsizei)g->texture_count, g->textures);
    glDeleteBuffers(1, &g->ubo);
    glDeleteProgram(g->program);
    free(g->draws);
    free(g->textures);
    free(g->images);
    memset(g, 0, sizeof *g);
}

/* Imports `path` as tilerast-render does (a tilerast context holds the
 * textures while they are copied) and makes the GL objects.  0, or -1
 * after a message. */
static int model_setup(const char *glsl_dir, const char *path, int camera, uint32_t w, uint32_t h, gl_model *g)
{
    char msg[4400];
    char *vs = bench_glsl_source(glsl_dir, "model.vert", NULL, msg, sizeof msg);
    char *fs = vs ? bench_glsl_source(glsl_dir, "model.frag", NULL, msg, sizeof msg) : NULL;
    if (!vs || !fs) {
        fprintf(stderr, PROG ": %s\n", msg);
        free(vs);
        return -1;
    }
    g->program = link_program(vs, fs, "the model shaders");
    free(vs);
    free(fs);
    if (!g->program)
        return -1;
    tr_context *tctx = NULL;
    tool_model *m = NULL;
    if (tr_context_create(&(tr_context_desc){.threads = 1}, &tctx) != TR_OK) {
        fprintf(stderr, PROG ": cannot create a tilerast context for the import\n");
        return -1;
    }
    if (tool_model_load(tctx, path, camera, w, h, &m, msg, sizeof msg) != 0) {
        fprintf(stderr, PROG ": %s\n", msg);
        tr_context_destroy(tctx);
        return -1;
    }
    const tool_model_draw *draws = NULL;
    g->draw_count = tool_model_draws(m, &draws);
    g->draws = calloc(g->draw_count, sizeof *g->draws);
    GLint align = 256;
    glGetIntegerv(GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT, &align);
    const size_t stride = (sizeof(tool_model_uniforms) + (size_t)align - 1) / (size_t)align * (size_t)align;
    uint8_t *ubo = calloc(g->draw_count ? g->draw_count : 1, stride);
    if (!g->draws || !ubo) {
        fprintf(stderr, PROG ": out of memory\n");
        free(ubo);
        tool_model_free(m);
        tr_context_destroy(tctx);
        return -1;
    }
    for (uint32_t i = 0; i < g->draw_count; i++) {
        const tool_model_draw *d = &draws[i];
        gl_model_draw *o = &g->draws[i];
        glGenVertexArrays(1, &o->vao);
        glBindVertexArray(o->vao);
        glGenBuffers(2, o->buf);
        glBindBuffer(GL_ARRAY_BUFFER, o->buf[0]);
        glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(d->vertex_count * sizeof(tool_model_vertex)), d->vertices,
                     GL_STATIC_DRAW);
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, o->buf[1]);
        glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)(d->index_count * sizeof(uint32_t)), d->indices,
                     GL_STATIC_DRAW);
        const GLsizei vstride = (GLsizei)sizeof(tool_model_vertex);
        glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, vstride, (const void *)offsetof(tool_model_vertex, position));
        glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, vstride, (const void *)offsetof(tool_model_vertex, normal));
        glVertexAttribPointer(2, 4, GL_FLOAT, GL_FALSE, vstride, (const void *)offsetof(tool_model_vertex, tangent));
        glVertexAttribPointer(3, 2, GL_FLOAT, GL_FALSE, vstride, (const void *)offsetof(tool_model_vertex, uv));
        for (GLuint a = 0; a < 4; a++)
            glEnableVertexAttribArray(a);
        o->indices = (GLsizei)d->index_count;
        o->ubo_offset = (GLintptr)(i * stride);
        memcpy(ubo + i * stride, &d->uniforms, sizeof d->uniforms);
        for (int t = 0; t < TOOL_MODEL_TEXTURES; t++)
            o->textures[t] = model_texture(g, d->textures[t]);
        o->cull_back = d->cull_back;
        o->front_ccw = d->front_ccw;
        o->blend = d->blend;
    }
    glGenBuffers(1, &g->ubo);
    glBindBuffer(GL_UNIFORM_BUFFER, g->ubo);
    glBufferData(GL_UNIFORM_BUFFER, (GLsizeiptr)(g->draw_count * stride), ubo, GL_STATIC_DRAW);
    free(ubo);
    tool_model_free(m);
    tr_context_destroy(tctx);
    GLenum e = glGetError();
    if (e != GL_NO_ERROR) {
        fprintf(stderr, PROG ": setting up the model: GL error 0x%x\n", e);
        return -1;
    }
    return 0;
}

/* One frame's draws, in tool_model's order and state. */
static void model_draw(const gl_model *g)
{
    glUseProgram(g->program);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    for (uint32_t i = 0; i < g->draw_count; i++) {
        const gl_model_draw *d = &g->draws[i];
        if (d->cull_back)
            glEnable(GL_CULL_FACE);
        else
            glDisable(GL_CULL_FACE);
        glCullFace(GL_BACK);
        glFrontFace(d->front_ccw ? GL_CCW : GL_CW);
        if (d->blend)
            glEnable(GL_BLEND);
        else
            glDisable(GL_BLEND);
        glDepthMask(d->blend ? GL_FALSE : GL_TRUE);
        glBindBufferRange(GL_UNIFORM_BUFFER, 0, g->ubo, d->ubo_offset, (GLsizeiptr)sizeof(tool_model_uniforms));
        for (int t = 0; t < TOOL_MODEL_TEXTURES; t++) {
            glActiveTexture(GL_TEXTURE1 + (GLenum)t);
            glBindTexture(GL_TEXTURE_2D, d->textures[t]);
        }
        glBindVertexArray(d->vao);
        glDrawElements(GL_TRIANGLES, d->indices, GL_UNSIGNED_INT, (const void *)0);
    }
    glDepthMask(GL_TRUE); /* so that the next frame's clear clears depth */
}
#endif

#define USAGE                                                                                                   \
    "usage: " PROG " [--frames N] [--warmup N] [--samples N] [--raw OUT.rgba] [--glsl DIR] [--clear R,G,B,A] " \
    "SCENE.scn | --glsl DIR --heavy | --glsl DIR --model FILE [--camera N] | --info\n"

int main(int argc, char **argv)
{
    unsigned long frames = 10, warmup = 2, samples = 1;
    const char *raw = NULL, *path = NULL, *glsl = NULL, *model = NULL;
    unsigned long camera = 0;
    bool camera_given = false;
    unsigned char clear[4];
    bool clear_given = false, heavy = false;
    if (argc == 2 && !strcmp(argv[1], "--info"))
        return print_info();
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if ((!strcmp(a, "--frames") || !strcmp(a, "--warmup") || !strcmp(a, "--raw") || !strcmp(a, "--samples") ||
             !strcmp(a, "--glsl") || !strcmp(a, "--clear") || !strcmp(a, "--model") || !strcmp(a, "--camera")) &&
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
        } else if (!strcmp(a, "--model")) {
            model = argv[++i];
        } else if (!strcmp(a, "--camera")) {
            if (parse_count(argv[++i], 65535, &camera)) {
                fprintf(stderr, PROG ": --camera wants a camera index 0..65535\n");
                return 2;
            }
            camera_given = true;
        } else if (!strcmp(a, "--heavy")) {
            heavy = true;
        } else if (!strcmp(a, "--glsl")) {
            glsl = argv[++i];
        } else if (!strcmp(a, "--clear")) {
            if (parse_rgba(argv[++i], clear)) {
                fprintf(stderr, PROG ": --clear wants R,G,B,A bytes\n");
                return 2;
            }
            clear_given = true;
        } else if (a[0] == '-') {
            fprintf(stderr, USAGE);
            return 2;
        } else {
            path = a;
        }
    }
    if (heavy || model ? (path || !glsl || (heavy && model)) : !path) {
        fprintf(stderr, USAGE);
        return 2;
    }
    if (model && samples > 1) {
        fprintf(stderr, PROG ": --model draws single-sampled (tilerast-render's models are)\n");
        return 2;
    }
    tr_scene sc;
    char msg[256];
    if (model) {
#ifdef TILERAST_HAVE_ASSIMP
        /* no primitives of its own: tilerast-render's model size */
        memset(&sc, 0, sizeof sc);
        sc.width = TOOL_MODEL_WIDTH;
        sc.height = TOOL_MODEL_HEIGHT;
        sc.clear_depth = 1.0f;
        sc.size = 1.0f;
#else
        fprintf(stderr, PROG ": --model: built without assimp (libassimp-dev)\n");
        return 1;
#endif
    } else if (heavy) {
#ifdef TILERAST_BENCH_HEAVY
        /* no primitives of its own: the size and clear of the heavy scene */
        memset(&sc, 0, sizeof sc);
        sc.width = BENCH_HEAVY_WIDTH;
        sc.height = BENCH_HEAVY_HEIGHT;
        sc.clear_color[3] = 255;
        sc.clear_depth = 1.0f;
        sc.size = 1.0f;
#else
        fprintf(stderr, PROG ": --heavy: built without bench/bench_heavy.c\n");
        return 1;
#endif
    } else if (tr_scene_load(path, &sc, msg, sizeof msg) != TR_OK) {
        fprintf(stderr, PROG ": %s: %s\n", path, msg);
        return 1;
    }
    if (clear_given)
        memcpy(sc.clear_color, clear, 4);
    OSMesaContext ctx;
    if (glsl) {
        /* OpenGL 4.5 core: what the scene shaders are written for */
        static const int attribs[] = {OSMESA_FORMAT, OSMESA_RGBA, OSMESA_DEPTH_BITS, 0,
                                      OSMESA_PROFILE, OSMESA_CORE_PROFILE, OSMESA_CONTEXT_MAJOR_VERSION, 4,
                                      OSMESA_CONTEXT_MINOR_VERSION, 5, 0};
        ctx = OSMesaCreateContextAttribs(attribs, NULL);
        if (!ctx) {
            fprintf(stderr, PROG ": this OSMesa cannot make an OpenGL 4.5 core profile context\n");
            return 1;
        }
    } else {
        ctx = OSMesaCreateContextExt(OSMESA_RGBA, 32, 0, 0, NULL);
    }
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
    /* a model's target is sRGB, as tilerast-render's (R8G8B8A8_SRGB) */
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, n, model ? GL_SRGB8_ALPHA8 : GL_RGBA8, (GLsizei)sc.width,
                                     (GLsizei)sc.height);
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
#ifdef TILERAST_HAVE_ASSIMP
    gl_model gm;
    memset(&gm, 0, sizeof gm);
    if (model) {
        /* linear values, encoded to sRGB on the way in, as tilerast does */
        glEnable(GL_FRAMEBUFFER_SRGB);
        if (!clear_given)
            glClearColor(tool_model_clear[0], tool_model_clear[1], tool_model_clear[2], tool_model_clear[3]);
        if (model_setup(glsl, model, camera_given ? (int)camera : -1, sc.width, sc.height, &gm) != 0)
            return 1;
    }
#endif
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
    GLuint program = 0, vao = 0, vbo = 0;
    GLsizei heavy_indices = 0;
    if (heavy) {
#ifdef TILERAST_BENCH_HEAVY
        heavy_indices = heavy_setup(glsl);
#endif
        if (!heavy_indices)
            return 1;
    } else if (model) {
        /* made above */
    } else if (glsl) {
        program = scene_program(glsl, (sc.flags & TR_SCENE_FLAT) != 0);
        if (!program)
            return 1;
        glUseProgram(program);
        glUniform1f(0, sc.size);
        glEnable(GL_PROGRAM_POINT_SIZE);
        glGenVertexArrays(1, &vao);
        glBindVertexArray(vao);
        glGenBuffers(1, &vbo);
        glBindBuffer(GL_ARRAY_BUFFER, vbo);
        glBufferData(GL_ARRAY_BUFFER,
                     (GLsizeiptr)((size_t)tr_scene_prim_vertices(sc.flags) * sc.triangle_count * sizeof(tr_scene_vertex)),
                     sc.vertices, GL_STATIC_DRAW);
        glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, (GLsizei)sizeof(tr_scene_vertex), (const void *)0);
        glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, (GLsizei)sizeof(tr_scene_vertex), (const void *)16);
        glEnableVertexAttribArray(0);
        glEnableVertexAttribArray(1);
        GLenum e = glGetError();
        if (e != GL_NO_ERROR) {
            fprintf(stderr, PROG ": setting up the GLSL program: GL error 0x%x\n", e);
            return 1;
        }
    } else {
        glShadeModel((sc.flags & TR_SCENE_FLAT) ? GL_FLAT : GL_SMOOTH);
    }
    /* Lines and points (SRSCENE2): GL's aliased lines are its diamond-exit
     * lines (tilerast's Bresenham), rectangles when multisampled; GL cannot
     * ask for single-sampled rectangular lines (RECT_LINES) without
     * smoothing them, so those are drawn aliased (a known difference). */
    const GLenum mode = (sc.flags & TR_SCENE_POINTS) ? GL_POINTS : (sc.flags & TR_SCENE_LINES) ? GL_LINES : GL_TRIANGLES;
    glLineWidth(sc.size);
    if (!glsl) {
        glPointSize(sc.size);
        glEnableClientState(GL_VERTEX_ARRAY);
        glEnableClientState(GL_COLOR_ARRAY);
        const unsigned char *v = (const unsigned char *)sc.vertices;
        glVertexPointer(4, GL_FLOAT, 20, v);
        glColorPointer(4, GL_UNSIGNED_BYTE, 20, v + 16);
    }
    for (unsigned long f = 0; f < warmup + frames; f++) {
        double t0 = tool_now_ms();
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        if (heavy)
            glDrawElements(GL_TRIANGLES, heavy_indices, GL_UNSIGNED_INT, (const void *)0);
#ifdef TILERAST_HAVE_ASSIMP
        else if (model)
            model_draw(&gm);
#endif
        else
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
    printf("{\"renderer\":\"llvmpipe\",\"shader\":\"%s\",\"frames\":%lu,\"median_ms\":%.3f,\"min_ms\":%.3f,"
           "\"max_ms\":%.3f,\"times\":[",
           glsl ? "glsl" : "fixed", frames, median, times[0], times[frames - 1]);
    for (unsigned long f = 0; f < frames; f++)
        printf("%s%.3f", f ? "," : "", times[f]);
    printf("]}\n");
    if (glsl && !heavy && !model) {
        glDeleteBuffers(1, &vbo);
        glDeleteVertexArrays(1, &vao);
        glDeleteProgram(program);
    }
#ifdef TILERAST_HAVE_ASSIMP
    model_release(&gm);
#endif
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
