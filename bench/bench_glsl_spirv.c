/* bench: GLSL into SPIR-V with shaderc (bench_glsl.h).  Debian's
 * libshaderc.so names no glslang library to load, so the programs link
 * the static archives (tilerast::shaderc, cmake/shaderc.cmake). */
#include "bench_glsl.h"

#include <shaderc/shaderc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint32_t *bench_shaderc_spirv(const char *source, const char *path, int fragment, int hlsl, int flat, size_t *words,
                             char *msg, size_t msg_size)
{
    shaderc_compiler_t c = shaderc_compiler_initialize();
    shaderc_compile_options_t o = shaderc_compile_options_initialize();
    uint32_t *out = NULL;
    if (!c || !o) {
        snprintf(msg, msg_size, "%s: cannot start shaderc", path);
        goto done;
    }
    /* No optimisation: the code as glslang emits it, as the tests run it. */
    shaderc_compile_options_set_target_env(o, shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_1);
    if (hlsl) {
        shaderc_compile_options_set_source_language(o, shaderc_source_language_hlsl);
        if (flat) /* GLSL gets it in the text, as the bench does */
            shaderc_compile_options_add_macro_definition(o, "SCENE_FLAT", 10, "1", 1);
    } else if (strstr(source, "#version") == NULL) {
        shaderc_compile_options_set_forced_version_profile(o, 450, shaderc_profile_core);
    }
    const shaderc_shader_kind kind = fragment ? shaderc_fragment_shader : shaderc_vertex_shader;
    shaderc_compilation_result_t r = shaderc_compile_into_spv(c, source, strlen(source), kind, path, "main", o);
    if (r != NULL && shaderc_result_get_compilation_status(r) == shaderc_compilation_status_success) {
        const size_t n = shaderc_result_get_length(r);
        out = malloc(n ? n : 1);
        if (out) {
            memcpy(out, shaderc_result_get_bytes(r), n);
            *words = n / 4;
        } else {
            snprintf(msg, msg_size, "%s: out of memory", path);
        }
    } else {
        /* shaderc's messages start with the name given, the path. */
        const char *e = r ? shaderc_result_get_error_message(r) : NULL;
        if (e != NULL && e[0] != '\0') {
            snprintf(msg, msg_size, "%s", e);
            /* one line: drop the trailing newline of the last message */
            size_t n = strlen(msg);
            while (n > 0 && msg[n - 1] == '\n')
                msg[--n] = '\0';
            if (strstr(msg, path) == NULL) {
                char tmp[1024];
                snprintf(tmp, sizeof tmp, "%s", msg);
                snprintf(msg, msg_size, "%s: %s", path, tmp);
            }
        } else {
            snprintf(msg, msg_size, "%s: shaderc failed without a message", path);
        }
    }
    if (r)
        shaderc_result_release(r);
done:
    if (o)
        shaderc_compile_options_release(o);
    if (c)
        shaderc_compiler_release(c);
    return out;
}

uint32_t *bench_glsl_spirv(const char *source, const char *name, int fragment, size_t *words, char *msg,
                           size_t msg_size)
{
    return bench_shaderc_spirv(source, name, fragment, 0, 0, words, msg, msg_size);
}
