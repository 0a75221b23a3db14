/* libFuzzer target: the SPIR-V front end (src/shader/spirv_module.c) on
 * mutated modules (seed corpus: GLSL compiled with shaderc).  Every input
 * is parsed from a buffer of exactly its size (ASan bounds it); a refusal
 * must leave a message and nothing allocated; an accepted module must hold
 * together: interface ids and variables inside the bound, entry points
 * named, the code's start inside the module. */
#define _POSIX_C_SOURCE 200809L /* posix_memalign (fuzz_common.h) */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <tilerast/tilerast.h>

#define FUZZ_ALLOC_CAP (64u << 20)
#include "fuzz_common.h"
#include "shader/spirv_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tr_context *ctx = NULL;
    tr_context_desc cd = {.threads = 1};
    cd.allocator = (tr_allocator){cap_alloc, cap_free, NULL};
    if (tr_context_create(&cd, &ctx) != TR_OK)
        __builtin_trap();
    const size_t n = size / 4;
    uint32_t *words = malloc(n ? n * 4 : 1);
    memcpy(words, data, n * 4);
    const long before = live;
    tr__spv_module m;
    const tr_result r = tr__spv_parse(ctx, "fuzz", words, n, &m);
    if (r != TR_OK) {
        if (!tr_context_last_error(ctx)[0] || live != before || m.words)
            __builtin_trap();
    } else {
        if (!m.entry_count || m.code_begin > m.word_count || m.bound < 2)
            __builtin_trap();
        for (uint32_t i = 0; i < m.interface_count; i++)
            if (!m.interface_ids[i] || m.interface_ids[i] >= m.bound)
                __builtin_trap();
        for (uint32_t i = 0; i < m.var_count; i++)
            if (!m.vars[i].id || m.vars[i].id >= m.bound)
                __builtin_trap();
        for (uint32_t i = 0; i < m.entry_count; i++) {
            const tr__spv_entry *e = &m.entries[i];
            if (!memchr(e->name, 0, sizeof e->name) || e->interface0 + e->interfaces > m.interface_count)
                __builtin_trap();
        }
        for (uint32_t id = 1; id < m.bound; id++)
            (void)tr__spv_locations(&m, id); /* cycles and deep nesting must end */
        tr__spv_free(ctx, &m);
    }
    free(words);
    tr_context_destroy(ctx);
    if (live != 0)
        __builtin_trap();
    return 0;
}
