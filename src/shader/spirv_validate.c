/* tilerast: SPIRV-Tools' validator over a module (spirv_internal.h), through
 * its C API.  The structural rules (SSA, dominance, operand types, the
 * Vulkan environment's rules) are its job; spirv_module.c checks only what
 * its own walk relies on. */
#include <stdio.h>
#include <string.h>

/* libspirv.h (SPIRV-Tools 2023.1) defines `const uint32_t
 * kDefaultMaxIdBound = ...;` at file scope: in C that is an external
 * definition, which libtilerast.a would carry into its users' links and
 * clash with their own C file that includes the header.  Ours takes a tr__
 * name. */
#define kDefaultMaxIdBound tr__spv_default_max_id_bound
#include <spirv-tools/libspirv.h>
#undef kDefaultMaxIdBound
#include <spirv/unified1/spirv.h>

#include "shader/spirv_internal.h"

/* Vulkan 1.3 accepts SPIR-V 1.0 - 1.6 and, like every environment from
 * Vulkan 1.1 on, applies VK_KHR_relaxed_block_layout (core since 1.1): a
 * vector may start at any offset that is a multiple of its component size,
 * as long as it does not straddle 16 bytes.  That is exactly what glslang's
 * HLSL front end emits for cbuffer packing (a float3 after a float sits at
 * offset 4, which std140 refuses: SPV_ENV_VULKAN_1_0 rejects such modules).
 * So no validator option is relaxed beyond the environment's defaults;
 * tilerast reads uniform members at their Offset decorations whatever the
 * layout, but scalar layout is not what any front end we test emits.
 *
 * A context is one small allocation pointing at static tables (measured,
 * Release, one core: 15 ns to create and destroy, against 52 us to validate
 * a 198-word GLSL fragment shader and 110 us for a 400-word vertex shader;
 * the first call in a process takes 0.1 - 0.8 ms more, for SPIRV-Tools'
 * own static tables and cold caches, which a shared context would not
 * save), so
 * each call makes its own: nothing to share between threads. */
#define TR__SPV_ENV SPV_ENV_VULKAN_1_3

/* The word offset at which instruction k (1-based, after the 5-word
 * header) starts, or 0 when the binary cannot be walked that far. */
static size_t instruction_word(const uint32_t *words, size_t word_count, size_t k)
{
    if (word_count < 5 || words[0] != SpvMagicNumber)
        return 0;
    size_t at = 5;
    for (size_t i = 1; i < k; i++) {
        const uint32_t len = at < word_count ? words[at] >> SpvWordCountShift : 0;
        if (!len)
            return 0;
        at += len;
    }
    return at < word_count ? at : 0;
}

tr_result tr__spv_validate(tr_context *ctx, const char *fn, const uint32_t *words, size_t word_count)
{
    if (!words && word_count)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "%s: SPIR-V validation failed: code is NULL", fn);
    spv_context spv = spvContextCreate(TR__SPV_ENV);
    if (!spv)
        return tr__error(ctx, TR_ERROR_OUT_OF_MEMORY, "%s: SPIR-V validation: out of memory", fn);
    spv_diagnostic diag = NULL;
    const spv_result_t r = spvValidateBinary(spv, words, word_count, &diag);
    tr_result result = TR_OK;
    if (r == SPV_ERROR_OUT_OF_MEMORY) {
        result = tr__error(ctx, TR_ERROR_OUT_OF_MEMORY, "%s: SPIR-V validation: out of memory", fn);
    } else if (r != SPV_SUCCESS) {
        /* The validator's text is one line, often followed by the
         * disassembled instruction on lines of their own ("\n  %x = Op...");
         * the message joins them with "; " and drops the trailing newline.
         * 128 bytes of TR__ERROR_SIZE stay for "fn: SPIR-V validation
         * failed: " and " (instruction N, word N)". */
        char text[TR__ERROR_SIZE - 128];
        size_t n = 0;
        const char *s = diag && diag->error ? diag->error : "";
        for (; *s && n + 1 < sizeof text; s++) {
            if (*s != '\n') {
                text[n++] = *s;
                continue;
            }
            while (s[1] == ' ')
                s++;
            if (s[1] && n + 3 < sizeof text) {
                text[n++] = ';';
                text[n++] = ' ';
            }
        }
        text[n] = '\0';
        if (!n)
            snprintf(text, sizeof text, "spv_result_t %d", (int)r);
        /* The position's index is SPIRV-Tools' instruction number (1-based,
         * the header not counted; both its parser and its validator count
         * so); 0 means no instruction (the header, or a check of the whole
         * module).  The word offset is what spirv_module.c's messages name. */
        const size_t inst = diag ? diag->position.index : 0;
        const size_t word = inst ? instruction_word(words, word_count, inst) : 0;
        if (word)
            result = tr__error(ctx, TR_ERROR_INVALID_ARGUMENT,
                               "%s: SPIR-V validation failed: %s (instruction %zu, word %zu)", fn, text, inst, word);
        else if (inst)
            result = tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "%s: SPIR-V validation failed: %s (instruction %zu)",
                               fn, text, inst);
        else
            result = tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "%s: SPIR-V validation failed: %s", fn, text);
    }
    spvDiagnosticDestroy(diag); /* NULL is fine */
    spvContextDestroy(spv);
    return result;
}
