/* bench: GLSL into SPIR-V with shaderc (bench_glsl.h).  Debian's
 * libshaderc.so names no glslang library to load, so the programs link
 * the static archives (tilerast::shaderc, cmake/shaderc.cmake). */
#include "bench_glsl.h"

#include <shaderc/shaderc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint32_t *bench_glsl_spirv(const char *source, const char *name, int fragment, size_t *words, char *msg,
                           size_t msg_size)
{
    shaderc_compiler_t c = shaderc_compiler_initialize();
    shaderc_compile_options_t o = shaderc_compile_options_initialize();
    uint32_t *out = NULL;
    if (!c || !o) {
        snprintf(msg, msg_size, "%s: cannot start shaderc", name);
        goto done;
    }
    /* No optimisation: the code as glslang emits it, as the tests run it. */
    shaderc_compile_options_set_target_env(o, shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_1);
    shaderc_compilation_result_t r =
        shaderc_compile_into_spv(c, source, strlen(source),
                                 fragment ? shaderc_glsl_fragment_shader : shaderc_glsl_vertex_shader, name, "main", o);
    if (shaderc_result_get_compilation_status(r) == shaderc_compilation_status_success) {
        const size_t n = shaderc_result_get_length(r);
        out = malloc(n);
        if (out) {
            memcpy(out, shaderc_result_get_bytes(r), n);
            *words = n / 4;
        } else {
            snprintf(msg, msg_size, "%s: out of memory", name);
        }
    } else {
        snprintf(msg, msg_size, "%s", shaderc_result_get_error_message(r));
    }
    shaderc_result_release(r);
done:
    if (o)
        shaderc_compile_options_release(o);
    if (c)
        shaderc_compiler_release(c);
    return out;
}
