/* libFuzzer target: the model import path (issue 31): tool_model_render
 * (tools/tool_model.c: assimp's aiImportFile, then our checks;
 * tools/tool_model_render.c: the draws through tilerast) on mutated glTF
 * 2.0 files.  Seed corpus: ours (corpus/fuzz_model: each case of the
 * issue, and more) and Debian's assimp-testmodels, which scripts/fuzz.sh
 * copies in at run time.
 *
 * assimp imports from a file name, so each input is written to a file of
 * its own folder (under $TMPDIR, else /dev/shm, else /tmp): "model.glb"
 * when it starts with the magic "glTF", "model.gltf" when its first
 * non-blank byte is '{'; any other input is skipped.  Files it names
 * beside itself (buffers, textures) are missing unless the input points
 * elsewhere, which is a case to handle too.  OBJ only with $FUZZ_MODEL_OBJ
 * set (then any other input is "model.obj"): assimp's OBJ importer fills
 * a 16 MiB buffer for every file, which under ASan costs ~140 ms an input
 * against ~20 ms for glTF, too slow for CI's runs (a mutated .gltf that is
 * no longer JSON can still reach it, through assimp's search of every
 * importer, but seldom).  The render is 64 x 48, with shaders/model.vert
 * and model.frag compiled once at start-up, one context and one thread
 * for the whole run; an odd-sized input that says "cameras" is drawn
 * through the file's first camera, any other through the automatic one.
 *
 * The contract: 0 with a 64 x 48 R8G8B8A8_SRGB image (and info saying so),
 * or -1 with *out NULL and a message, terminated and not empty, that names
 * the file.  Never a crash, a sanitizer report or a hang; no leak: not of
 * malloc (LeakSanitizer, assimp's own allocations aside: see the wrappers
 * below), not of assimp's scenes (each one released) and not of the
 * context's blocks (every block the context's allocator grants during a
 * call is freed by the end of it, once the image is destroyed).
 *
 * What is assimp's is kept apart, so that every finding is ours:
 *   - assimp itself crashes on some mutated files (a heap overflow in its
 *     glTF importer, found by this target) and may hang on others, which
 *     we cannot fix: each input is first imported by a probe, a second
 *     process (this program, started again) that runs tool_model.c's own
 *     aiImportFile call; an input that kills the probe or keeps it past
 *     PROBE_MS is skipped and counted (the count is printed at exit);
 *   - assimp leaks on some of its error paths: what it allocates inside
 *     an import is left out of leak checking (the wrappers below);
 *   - a .glb's lengths (the header's total and each chunk's) that exceed
 *     the input are cut to at most 255 bytes past it before the file is
 *     written: assimp allocates a chunk's stated length before reading it
 *     (1 GiB takes seconds, 4 GiB is past ASan's limit), and a length a
 *     little past the end still makes a truncated file, the case that
 *     matters. */
#define _GNU_SOURCE /* memmem, pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <assimp/cimport.h>
#include <sanitizer/lsan_interface.h>
#include <tilerast/tilerast.h>

#include "bench_glsl.h"
#include "tool_model.h"

#ifndef TILERAST_MODEL_SHADER_DIR
#error "TILERAST_MODEL_SHADER_DIR: the folder of model.vert and model.frag (tests/fuzz/CMakeLists.txt sets it)"
#endif

#define W 64u
#define H 48u
/* The context's memory limit: a 64 x 48 pass needs well under 1 MiB; a
 * model's textures (up to tool_model.c's side limit) take the rest, and
 * past this they fail with a message instead of growing the process
 * towards libFuzzer's -rss_limit_mb. */
#define MEMORY_LIMIT (256u << 20)
/* How long the probe may take over one import: assimp takes milliseconds
 * on these inputs; well under fuzz.sh's -timeout=20. */
#define PROBE_MS 5000
/* The probe's environment variable: set, this program is the probe. */
#define PROBE_ENV "FUZZ_MODEL_PROBE"

extern char **environ;

static int probing;      /* this process is the probe */
static int verbose;      /* $FUZZ_MODEL_VERBOSE set: print each result (to see what an input does) */
static int with_obj;     /* $FUZZ_MODEL_OBJ set: OBJ too */

/* ---- assimp's calls, wrapped (-Wl,--wrap, tests/fuzz/CMakeLists.txt) -------------------------
 * assimp 5.2 leaks on some of its own error paths (the OBJ importer's
 * mesh when a face's index is out of range, found by this target): not
 * ours to fix, and LeakSanitizer would stop every run at it.  So what
 * assimp allocates inside an import is left out of leak checking
 * (__lsan_disable), and the scenes it returns are counted instead: every
 * one must go back through aiReleaseImport before tool_model_render
 * returns, which is the leak that would be ours.  In the probe an import
 * releases its scene at once and reports failure, so that tool_model.c
 * goes no further.  Only the calls in our code are wrapped; assimp's
 * calls to itself are not. */
const struct aiScene *__real_aiImportFile(const char *path, unsigned flags);
const struct aiScene *__real_aiImportFileEx(const char *path, unsigned flags, struct aiFileIO *io);
const struct aiScene *__real_aiImportFileExWithProperties(const char *path, unsigned flags, struct aiFileIO *io,
                                                          const struct aiPropertyStore *props);
const struct aiScene *__real_aiApplyPostProcessing(const struct aiScene *scene, unsigned flags);
void __real_aiReleaseImport(const struct aiScene *scene);

static long scenes; /* imported and not yet released */

static const struct aiScene *imported(const struct aiScene *s)
{
    __lsan_enable();
    if (probing) {
        __real_aiReleaseImport(s);
        return NULL;
    }
    scenes += s != NULL;
    return s;
}

const struct aiScene *__wrap_aiImportFile(const char *path, unsigned flags)
{
    __lsan_disable();
    return imported(__real_aiImportFile(path, flags));
}

const struct aiScene *__wrap_aiImportFileEx(const char *path, unsigned flags, struct aiFileIO *io)
{
    __lsan_disable();
    return imported(__real_aiImportFileEx(path, flags, io));
}

const struct aiScene *__wrap_aiImportFileExWithProperties(const char *path, unsigned flags, struct aiFileIO *io,
                                                          const struct aiPropertyStore *props)
{
    __lsan_disable();
    return imported(__real_aiImportFileExWithProperties(path, flags, io, props));
}

/* A failed step releases the scene itself. */
const struct aiScene *__wrap_aiApplyPostProcessing(const struct aiScene *scene, unsigned flags)
{
    __lsan_disable();
    const struct aiScene *s = __real_aiApplyPostProcessing(scene, flags);
    __lsan_enable();
    if (s == NULL && scene != NULL)
        scenes--;
    return s;
}

void __wrap_aiReleaseImport(const struct aiScene *scene)
{
    scenes -= scene != NULL;
    __real_aiReleaseImport(scene);
}

/* ---- the context's allocator: counts live blocks --------------------------------------------- */

static long live;

static void *count_alloc(void *user, size_t size, size_t align)
{
    (void)user;
    void *p = NULL;
    if (posix_memalign(&p, align < sizeof(void *) ? sizeof(void *) : align, size ? size : 1) != 0)
        return NULL;
    live++;
    return p;
}

static void count_free(void *user, void *p)
{
    (void)user;
    if (p != NULL)
        live--;
    free(p);
}

/* ---- the probe ----------------------------------------------------------------------------------
 * This program started again with PROBE_ENV set, before libFuzzer has set
 * anything up (LLVMFuzzerInitialize runs first): it reads file names, one
 * a line, from stdin, imports each through tool_model_load (so with
 * tool_model.c's own flags) and answers a byte on stdout.  A sanitizer
 * report or a signal ends it; the fuzzing process sees its pipe close
 * (or kills it past PROBE_MS), skips the input and starts a new probe for
 * the next one. */

static pid_t probe_pid = -1;
static int probe_in = -1, probe_out = -1; /* our ends: its stdin, its stdout */
static unsigned long probed, assimp_crashed, assimp_hung;

static void probe_serve(void)
{
    tr_context *pctx = NULL;
    if (tr_context_create(&(tr_context_desc){.threads = 1}, &pctx) != TR_OK)
        _exit(2);
    char path[4200], msg[1024];
    while (fgets(path, sizeof path, stdin) != NULL) {
        path[strcspn(path, "\n")] = '\0';
        tool_model *m = NULL;
        tool_model_load(pctx, path, -1, W, H, &m, msg, sizeof msg); /* fails after the import: the wrapper */
        tool_model_free(m);
        if (fputc('k', stdout) == EOF || fflush(stdout) != 0)
            break;
    }
    _exit(0); /* no LeakSanitizer pass: the probe's leaks are assimp's */
}

static void probe_stop(void)
{
    if (probe_pid > 0) {
        kill(probe_pid, SIGKILL);
        while (waitpid(probe_pid, NULL, 0) < 0 && errno == EINTR)
            ;
    }
    if (probe_in >= 0)
        close(probe_in);
    if (probe_out >= 0)
        close(probe_out);
    probe_pid = -1, probe_in = probe_out = -1;
}

static int probe_start(void)
{
    int to[2], from[2];
    if (pipe2(to, O_CLOEXEC) != 0)
        return -1;
    if (pipe2(from, O_CLOEXEC) != 0) {
        close(to[0]), close(to[1]);
        return -1;
    }
    size_t n = 0;
    while (environ[n] != NULL)
        n++;
    char **env = malloc((n + 2) * sizeof *env);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, to[0], 0);
    posix_spawn_file_actions_adddup2(&fa, from[1], 1);
    if (!verbose) /* the probe's sanitizer reports are assimp's */
        posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    int r = -1;
    if (env != NULL) {
        memcpy(env, environ, n * sizeof *env);
        env[n] = PROBE_ENV "=1";
        env[n + 1] = NULL;
        char *argv[] = {"fuzz_model (assimp probe)", NULL};
        r = posix_spawn(&probe_pid, "/proc/self/exe", &fa, NULL, argv, env);
    }
    posix_spawn_file_actions_destroy(&fa);
    free(env);
    close(to[0]), close(from[1]);
    if (r != 0) {
        close(to[1]), close(from[0]);
        probe_pid = -1;
        return -1;
    }
    probe_in = to[1], probe_out = from[0];
    return 0;
}

/* 0: assimp returned on `path` (a scene or an error) or there is no
 * probe; -1: it crashed or hung. */
static int probe(const char *path)
{
    if (probe_pid < 0 && probe_start() != 0)
        return 0;
    probed++;
    char line[4200];
    const int n = snprintf(line, sizeof line, "%s\n", path);
    int hung = 0;
    char c = 0;
    if (write(probe_in, line, (size_t)n) == n) {
        struct pollfd p = {.fd = probe_out, .events = POLLIN};
        int k;
        while ((k = poll(&p, 1, PROBE_MS)) < 0 && errno == EINTR)
            ;
        if (k == 0)
            hung = 1;
        else if (read(probe_out, &c, 1) == 1 && c == 'k')
            return 0;
    }
    probe_stop();
    if (hung)
        assimp_hung++;
    else
        assimp_crashed++;
    if (verbose)
        fprintf(stderr, "fuzz_model: %s: assimp %s, skipped\n", path, hung ? "hung" : "crashed");
    return -1;
}

/* ---- set-up, once ---------------------------------------------------------------------------- */

static tr_context *ctx;
static tr_shader_module *vs, *fs;
static char dir[4096];  /* this process's folder for the inputs */
static char file[4200]; /* the input last written, removed at exit */
static char warm_up_file[4200];

static void die(const char *what, const char *msg)
{
    fprintf(stderr, "fuzz_model: %s: %s\n", what, msg);
    abort();
}

static tr_shader_module *model_shader(const char *name, int fragment)
{
    char msg[4096], path[4096];
    snprintf(path, sizeof path, "%s/%s", TILERAST_MODEL_SHADER_DIR, name);
    char *src = bench_glsl_source(TILERAST_MODEL_SHADER_DIR, name, NULL, msg, sizeof msg);
    if (src == NULL)
        die(path, msg);
    size_t words = 0;
    uint32_t *code = bench_shaderc_spirv(src, path, fragment, 0, 0, &words, msg, sizeof msg);
    free(src);
    if (code == NULL)
        die(path, msg);
    tr_shader_module *m = NULL;
    const tr_shader_module_desc d = {.code = code, .code_size = words * 4};
    const tr_result r = tr_shader_module_create(ctx, &d, &m);
    free(code);
    if (r != TR_OK)
        die(path, tr_context_last_error(ctx));
    return m;
}

static void cleanup(void)
{
    probe_stop();
    if (probed != 0)
        fprintf(stderr, "fuzz_model: %lu inputs probed; assimp itself crashed on %lu and hung on %lu (skipped)\n",
                probed, assimp_crashed, assimp_hung);
    if (file[0] != '\0')
        unlink(file);
    if (warm_up_file[0] != '\0')
        unlink(warm_up_file);
    if (dir[0] != '\0')
        rmdir(dir);
    tr_shader_module_destroy(vs);
    tr_shader_module_destroy(fs);
    tr_context_destroy(ctx);
}

static int write_file(const char *path, const uint8_t *d, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (f == NULL)
        return -1;
    const size_t w = n ? fwrite(d, 1, n, f) : 0;
    return fclose(f) != 0 || w != n ? -1 : 0;
}

/* The first pass leaves the context's per-thread scratch (tile buffers,
 * LRZ and triangle scratch; kept for the next pass, replaced when a pass
 * needs larger): one render of a triangle at start-up, so that the block
 * count is level before the first input. */
static void warm_up(void)
{
    static const char triangle[] =
        "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"mesh\":0}],"
        "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0}}]}],"
        "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\","
        "\"min\":[0,0,0],\"max\":[1,1,0]}],\"bufferViews\":[{\"buffer\":0,\"byteLength\":36}],"
        "\"buffers\":[{\"byteLength\":36,"
        "\"uri\":\"data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA\"}]}\n";
    snprintf(warm_up_file, sizeof warm_up_file, "%s/warm-up.gltf", dir);
    if (write_file(warm_up_file, (const uint8_t *)triangle, sizeof triangle - 1) != 0)
        die(warm_up_file, "cannot write it");
    tool_model_options o = {0};
    o.width = W;
    o.height = H;
    o.vertex_module = vs;
    o.fragment_module = fs;
    tr_image *image = NULL;
    char msg[1024];
    if (tool_model_render(ctx, warm_up_file, &o, &image, NULL, NULL, msg, sizeof msg) != 0)
        die("warm-up", msg);
    tr_image_destroy(image);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    verbose = getenv("FUZZ_MODEL_VERBOSE") != NULL;
    with_obj = getenv("FUZZ_MODEL_OBJ") != NULL;
    if (getenv(PROBE_ENV) != NULL) {
        probing = 1;
        probe_serve();
    }
    signal(SIGPIPE, SIG_IGN); /* a probe that died while we write to it */
    const char *tmp = getenv("TMPDIR");
    struct stat st;
    if (tmp == NULL || tmp[0] == '\0')
        tmp = stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) && access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    snprintf(dir, sizeof dir, "%s/tilerast-fuzz_model.XXXXXX", tmp);
    if (mkdtemp(dir) == NULL) {
        perror(dir);
        abort();
    }
    tr_context_desc cd = {0};
    cd.threads = 1;
    cd.allocator = (tr_allocator){count_alloc, count_free, NULL};
    cd.memory_limit = MEMORY_LIMIT;
    if (tr_context_create(&cd, &ctx) != TR_OK)
        die("tr_context_create", tr_last_error());
    vs = model_shader("model.vert", 0);
    fs = model_shader("model.frag", 1);
    atexit(cleanup);
    warm_up();
    return 0;
}

/* ---- one input --------------------------------------------------------------------------------- */

/* The file's extension, or NULL for an input that is skipped (see the top). */
static const char *model_ext(const uint8_t *d, size_t n)
{
    if (n >= 4 && memcmp(d, "glTF", 4) == 0)
        return ".glb";
    size_t i = 0;
    while (i < n && (d[i] == ' ' || d[i] == '\t' || d[i] == '\r' || d[i] == '\n'))
        i++;
    if (i < n && d[i] == '{')
        return ".gltf";
    return with_obj ? ".obj" : NULL;
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void cut32(uint8_t *p, size_t size)
{
    const uint32_t v = get32(p);
    if (v > size) {
        const uint32_t c = (uint32_t)size + (v & 255u);
        p[0] = (uint8_t)c, p[1] = (uint8_t)(c >> 8), p[2] = (uint8_t)(c >> 16), p[3] = (uint8_t)(c >> 24);
    }
}

/* The repair (top): the header's length (bytes 8..11), the JSON chunk's
 * (12..15) and the one after it, where assimp looks for the BIN chunk. */
static void glb_cut_lengths(uint8_t *d, size_t n)
{
    if (n >= 12)
        cut32(d + 8, n);
    if (n >= 16) {
        cut32(d + 12, n);
        const size_t bin = 20 + (((size_t)get32(d + 12) + 3) & ~(size_t)3);
        if (bin + 4 <= n)
            cut32(d + bin, n);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *ext = model_ext(data, size);
    if (ext == NULL)
        return -1; /* not to be added to the corpus */
    uint8_t *copy = malloc(size ? size : 1);
    if (copy == NULL)
        return 0;
    memcpy(copy, data, size);
    if (strcmp(ext, ".glb") == 0)
        glb_cut_lengths(copy, size);
    if (file[0] != '\0')
        unlink(file);
    snprintf(file, sizeof file, "%s/model%s", dir, ext);
    if (write_file(file, copy, size) != 0) {
        perror(file);
        abort();
    }
    free(copy);
    if (probe(file) != 0)
        return -1; /* likewise: else the probe's first verdict, new code here, would add it */

    tool_model_options o = {0};
    o.width = W;
    o.height = H;
    o.vertex_module = vs;
    o.fragment_module = fs;
    o.camera = (size & 1) && memmem(data, size, "\"cameras\"", 9) != NULL ? 1 : 0;
    tr_image *image = NULL;
    tr_pass_stats stats;
    tool_model_info info;
    char msg[1024];
    memset(msg, 0x7f, sizeof msg);
    const long before = live;
    const int r = tool_model_render(ctx, file, &o, &image, &stats, &info, msg, sizeof msg);
    if (verbose && r == 0)
        fprintf(stderr, "fuzz_model: %s: %u draws, %u triangles, %u textures\n", file, info.draws, info.triangles,
                info.textures);
    else if (verbose && r == -1 && memchr(msg, 0, sizeof msg) != NULL)
        fprintf(stderr, "fuzz_model: %s\n", msg);
    if (r == 0) {
        if (image == NULL)
            die(file, "returned 0 without an image");
        const tr_image_desc d = tr_image_get_desc(image);
        if (d.width != W || d.height != H || d.format != TR_FORMAT_R8G8B8A8_SRGB || info.width != W ||
            info.height != H) {
            fprintf(stderr, "fuzz_model: %s: a %ux%u image (format %d), info %ux%u; asked for %ux%u\n", file, d.width,
                    d.height, (int)d.format, info.width, info.height, W, H);
            abort();
        }
        tr_image_destroy(image);
    } else if (r == -1) {
        if (memchr(msg, 0, sizeof msg) == NULL)
            die(file, "failed with a message that does not end");
        if (msg[0] == '\0')
            die(file, "failed without a message");
        if (strstr(msg, file) == NULL) {
            fprintf(stderr, "fuzz_model: %s: the message does not name the file: \"%s\"\n", file, msg);
            abort();
        }
        if (image != NULL)
            die(file, "failed but left an image");
    } else {
        fprintf(stderr, "fuzz_model: %s: returned %d (\"%.*s\")\n", file, r, (int)sizeof msg - 1, msg);
        abort();
    }
    if (scenes != 0) {
        fprintf(stderr, "fuzz_model: %s: %ld assimp scene%s not released (%s)\n", file, scenes, scenes == 1 ? "" : "s",
                r == 0 ? "rendered" : msg);
        abort();
    }
    if (live != before) {
        fprintf(stderr, "fuzz_model: %s: %ld of the context's blocks more after the call than before (%s)\n", file,
                live - before, r == 0 ? "rendered" : msg);
        abort();
    }
    return 0;
}
