/* tilerast-render: shader files into SPIR-V words (tool_shader.h). */
#define _POSIX_C_SOURCE 200809L

#include "tool_shader.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench_glsl.h"

/* The SPIR-V magic number (SPIR-V spec, 3.1), and as a file written in the
 * other byte order reads it. */
#define TOOL_SPIRV_MAGIC 0x07230203u
#define TOOL_SPIRV_MAGIC_SWAPPED 0x03022307u

int tool_shader_resolve(const char *scene_path, const char *file, char *out, size_t out_size)
{
    const char *slash = strrchr(scene_path, '/');
    int n;
    if (file[0] == '/' || slash == NULL)
        n = snprintf(out, out_size, "%s", file);
    else
        n = snprintf(out, out_size, "%.*s/%s", (int)(slash - scene_path), scene_path, file);
    return n >= 0 && (size_t)n < out_size ? 0 : -1;
}

static int tool_ends_with(const char *s, const char *suffix)
{
    const size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* A .spv file's words, in host byte order. */
static uint32_t *tool_read_spv(const char *path, size_t bytes, size_t *words, char *msg, size_t msg_size)
{
    if (bytes == 0 || bytes % 4 != 0) {
        snprintf(msg, msg_size, "%s: %zu bytes, not a positive multiple of 4 (SPIR-V words)", path, bytes);
        return NULL;
    }
    uint32_t *code = malloc(bytes);
    FILE *f = code ? fopen(path, "rb") : NULL;
    if (f == NULL) {
        snprintf(msg, msg_size, "%s: %s", path, code ? strerror(errno) : "out of memory");
        free(code);
        return NULL;
    }
    const size_t got = fread(code, 1, bytes, f);
    const int err = ferror(f);
    fclose(f);
    if (err || got != bytes) {
        snprintf(msg, msg_size, "%s: %s", path, err ? "read error" : "the file changed size while read");
        free(code);
        return NULL;
    }
    if (code[0] == TOOL_SPIRV_MAGIC_SWAPPED)
        for (size_t i = 0; i < bytes / 4; i++) {
            const uint32_t w = code[i];
            code[i] = (w >> 24) | ((w >> 8) & 0xff00u) | ((w << 8) & 0xff0000u) | (w << 24);
        }
    if (code[0] != TOOL_SPIRV_MAGIC) {
        snprintf(msg, msg_size, "%s: not SPIR-V (first word 0x%08x, not the magic 0x%08x)", path, code[0],
                 TOOL_SPIRV_MAGIC);
        free(code);
        return NULL;
    }
    *words = bytes / 4;
    return code;
}

uint32_t *tool_shader_spirv(const char *path, int fragment, int flat, size_t *words, char *msg, size_t msg_size)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        snprintf(msg, msg_size, "%s: %s", path, strerror(errno));
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(msg, msg_size, "%s: not a regular file", path);
        return NULL;
    }
    if ((unsigned long long)st.st_size > TOOL_SHADER_MAX_BYTES) {
        snprintf(msg, msg_size, "%s: %llu bytes, more than a shader file may have (%u)", path,
                 (unsigned long long)st.st_size, TOOL_SHADER_MAX_BYTES);
        return NULL;
    }
    if (tool_ends_with(path, ".spv"))
        return tool_read_spv(path, (size_t)st.st_size, words, msg, msg_size);

    /* bench_glsl_source reads dir/file: split the path at its last '/'. */
    char dir[4096];
    const char *slash = strrchr(path, '/');
    const char *file = slash ? slash + 1 : path;
    if (slash == NULL)
        snprintf(dir, sizeof dir, ".");
    else if (slash == path)
        snprintf(dir, sizeof dir, "%s", ""); /* "/x": dir "" gives "/x" back */
    else if ((size_t)(slash - path) < sizeof dir)
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    else {
        snprintf(msg, msg_size, "%s: path too long", path);
        return NULL;
    }
    const int hlsl = tool_ends_with(path, ".hlsl");
    static const char *const flat_defs[] = {"SCENE_FLAT", NULL};
    char *source = bench_glsl_source(dir, file, flat && !hlsl ? flat_defs : NULL, msg, msg_size);
    if (source == NULL)
        return NULL;
    uint32_t *code = bench_shaderc_spirv(source, path, fragment, hlsl, flat, words, msg, msg_size);
    free(source);
    return code;
}
