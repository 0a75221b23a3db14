/* SPIRV-Tools' validator behind tr__spv_validate (src/shader/spirv_validate.c):
 * GLSL and HLSL compiled by shaderc validate; a small hand-assembled module
 * validates, and each one-point corruption of it (an id used but never
 * defined, mismatched OpFAdd operands, no OpMemoryModel, a SPIR-V version
 * that does not exist) is refused as TR_ERROR_INVALID_ARGUMENT quoting the
 * validator. */
#include "spv_harness.h"

#include <pthread.h>
#include <shaderc/shaderc.h>
#include <spirv/unified1/spirv.h>
#include <stdlib.h>
#include <string.h>

#include "shader/spirv_internal.h"

/* TR_OK, and no message left on the thread or the context. */
static void expect_valid(tr_context *ctx, const uint32_t *code, size_t n)
{
    TRT_OK(tr__spv_validate(ctx, "test_fn", code, n));
    cr_expect_str_eq(tr_last_error(), "");
    cr_expect_str_eq(tr_context_last_error(ctx), "");
}

/* TR_ERROR_INVALID_ARGUMENT, a message "test_fn: SPIR-V validation failed: ..."
 * on one line, holding `fragment` of the validator's text. */
static void expect_invalid(tr_context *ctx, const uint32_t *code, size_t n, const char *fragment)
{
    TRT_EXPECT(tr__spv_validate(ctx, "test_fn", code, n), TR_ERROR_INVALID_ARGUMENT);
    const char *msg = tr_last_error();
    cr_expect(strncmp(msg, "test_fn: SPIR-V validation failed: ", 35) == 0, "message: %s", msg);
    cr_expect(strstr(msg, fragment) != NULL, "no \"%s\" in: %s", fragment, msg);
    cr_expect(strchr(msg, '\n') == NULL, "the message is one line: %s", msg);
    cr_expect_str_eq(tr_context_last_error(ctx), msg);
}

/* ---- compiled by shaderc ------------------------------------------------------------------------ */

static const char *vertex_src = "#version 450\n"
                                "layout(location = 0) in vec4 pos;\n"
                                "layout(location = 1) in vec2 uv;\n"
                                "layout(set = 0, binding = 0) uniform Camera { mat4 view; vec3 eye; float t; } cam;\n"
                                "layout(location = 0) out vec2 out_uv;\n"
                                "void main() {\n"
                                "    gl_Position = cam.view * pos + vec4(cam.eye * cam.t, 0.0);\n"
                                "    out_uv = uv;\n"
                                "}\n";

static const char *fragment_src = "#version 450\n"
                                  "layout(location = 0) in vec2 uv;\n"
                                  "layout(set = 0, binding = 1) uniform sampler2D tex;\n"
                                  "layout(location = 0) out vec4 color;\n"
                                  "void main() {\n"
                                  "    color = texture(tex, uv);\n"
                                  "    if (color.a < 0.5) discard;\n"
                                  "}\n";

/* HLSL packs a cbuffer by its own rules: `dir` (a float3 after a float)
 * lands at offset 4, which std140 refuses and Vulkan 1.1's relaxed block
 * layout allows (spirv_validate.c). */
static const char *hlsl_src = "cbuffer Params : register(b0) {\n"
                              "    float scale; float3 dir; float2 off; float3 tint; float k;\n"
                              "    row_major float3x3 m; float weights[3];\n"
                              "};\n"
                              "Texture2D tex : register(t1);\n"
                              "SamplerState smp : register(s1);\n"
                              "float4 main(float4 pos : SV_Position, float2 uv : TEXCOORD0) : SV_Target {\n"
                              "    float4 c = tex.Sample(smp, uv + off);\n"
                              "    return c * scale + float4(mul(m, dir) + tint, k + weights[1]);\n"
                              "}\n";

Test(spirv_validate, glsl_vertex_and_fragment)
{
    tr_context *ctx = trt_context(1);
    size_t n = 0;
    uint32_t *vs = spvh_compile(vertex_src, shaderc_vertex_shader, &n);
    cr_assert_not_null(vs);
    expect_valid(ctx, vs, n);
    free(vs);
    uint32_t *fs = spvh_compile(fragment_src, shaderc_fragment_shader, &n);
    cr_assert_not_null(fs);
    expect_valid(ctx, fs, n);
    free(fs);
    tr_context_destroy(ctx);
}

Test(spirv_validate, hlsl_pixel_shader_with_cbuffer)
{
    tr_context *ctx = trt_context(1);
    size_t n = 0;
    uint32_t *ps = spvh_compile_lang(hlsl_src, shaderc_fragment_shader, SPVH_HLSL, NULL, &n);
    cr_assert_not_null(ps);
    expect_valid(ctx, ps, n);
    free(ps);
    tr_context_destroy(ctx);
}

/* The version word of shaderc's own output set to 2.0, then 1.7, versions
 * SPIR-V does not have: SPIRV-Tools refuses the header before anything else
 * is read (its text does not name the version). */
Test(spirv_validate, unknown_version)
{
    tr_context *ctx = trt_context(1);
    size_t n = 0;
    uint32_t *fs = spvh_compile(fragment_src, shaderc_fragment_shader, &n);
    cr_assert_not_null(fs);
    fs[1] = 0x00020000u;
    expect_invalid(ctx, fs, n, "Invalid SPIR-V header");
    fs[1] = 0x00010700u; /* 1.7: past every version SPIR-V has (Vulkan 1.3 takes up to 1.6) */
    expect_invalid(ctx, fs, n, "Invalid SPIR-V header");
    free(fs);
    tr_context_destroy(ctx);
}

/* ---- a hand-assembled fragment shader and its corruptions ---------------------------------------- */

#define OP(op, words) (((uint32_t)(words) << 16) | (uint32_t)(op))

/* ids */
enum { VOID = 1, FNTY, FLOAT, VEC4, PTR, OUT, ONE, INT, IONE, MAIN, LABEL, SUM, VEC, UNDEFINED, BOUND };

/* Writes the module into w (room for 128 words), returns its length.  `fadd_a`
 * is OpFAdd's first operand; without `memory_model` there is no
 * OpMemoryModel. */
static size_t assemble(uint32_t *w, uint32_t fadd_a, bool memory_model)
{
    size_t n = 0;
#define EMIT(...)                                                                                  \
    do {                                                                                           \
        const uint32_t ins_[] = {__VA_ARGS__};                                                     \
        memcpy(w + n, ins_, sizeof ins_);                                                          \
        n += sizeof ins_ / sizeof ins_[0];                                                         \
    } while (0)
    EMIT(SpvMagicNumber, 0x00010000u /* 1.0 */, 0, BOUND, 0);
    EMIT(OP(SpvOpCapability, 2), SpvCapabilityShader);
    if (memory_model)
        EMIT(OP(SpvOpMemoryModel, 3), SpvAddressingModelLogical, SpvMemoryModelGLSL450);
    /* "main" in little-endian words, NUL-terminated */
    EMIT(OP(SpvOpEntryPoint, 6), SpvExecutionModelFragment, MAIN, 0x6e69616du, 0, OUT);
    EMIT(OP(SpvOpExecutionMode, 3), MAIN, SpvExecutionModeOriginUpperLeft);
    EMIT(OP(SpvOpDecorate, 4), OUT, SpvDecorationLocation, 0);
    EMIT(OP(SpvOpTypeVoid, 2), VOID);
    EMIT(OP(SpvOpTypeFunction, 3), FNTY, VOID);
    EMIT(OP(SpvOpTypeFloat, 3), FLOAT, 32);
    EMIT(OP(SpvOpTypeVector, 4), VEC4, FLOAT, 4);
    EMIT(OP(SpvOpTypePointer, 4), PTR, SpvStorageClassOutput, VEC4);
    EMIT(OP(SpvOpVariable, 4), PTR, OUT, SpvStorageClassOutput);
    EMIT(OP(SpvOpConstant, 4), FLOAT, ONE, 0x3f800000u /* 1.0f */);
    EMIT(OP(SpvOpTypeInt, 4), INT, 32, 1);
    EMIT(OP(SpvOpConstant, 4), INT, IONE, 1);
    EMIT(OP(SpvOpFunction, 5), VOID, MAIN, SpvFunctionControlMaskNone, FNTY);
    EMIT(OP(SpvOpLabel, 2), LABEL);
    EMIT(OP(SpvOpFAdd, 5), FLOAT, SUM, fadd_a, ONE);
    EMIT(OP(SpvOpCompositeConstruct, 7), VEC4, VEC, SUM, SUM, SUM, ONE);
    EMIT(OP(SpvOpStore, 3), OUT, VEC);
    EMIT(OP(SpvOpReturn, 1));
    EMIT(OP(SpvOpFunctionEnd, 1));
#undef EMIT
    return n;
}

Test(spirv_validate, hand_assembled_module)
{
    tr_context *ctx = trt_context(1);
    uint32_t w[128];
    expect_valid(ctx, w, assemble(w, ONE, true));
    tr_context_destroy(ctx);
}

Test(spirv_validate, id_used_but_not_defined)
{
    tr_context *ctx = trt_context(1);
    uint32_t w[128];
    const size_t n = assemble(w, UNDEFINED, true);
    expect_invalid(ctx, w, n, "has not been defined");
    /* the validator names the id */
    cr_expect(strstr(tr_last_error(), "14") != NULL, "%s", tr_last_error());
    tr_context_destroy(ctx);
}

Test(spirv_validate, fadd_operand_type_mismatch)
{
    tr_context *ctx = trt_context(1);
    uint32_t w[128];
    const size_t n = assemble(w, IONE, true); /* an int added to a float */
    expect_invalid(ctx, w, n, "Expected arithmetic operands to be of Result Type: FAdd");
    /* the instruction, disassembled on the validator's next line, joins the message */
    cr_expect(strstr(tr_last_error(), "OpFAdd") != NULL, "%s", tr_last_error());
    /* and where: the 17th instruction, at the word found by walking the module */
    size_t at = 0;
    for (size_t i = 5; i < n; i += w[i] >> 16)
        if ((w[i] & 0xffffu) == SpvOpFAdd)
            at = i;
    char word[64];
    snprintf(word, sizeof word, "(instruction 17, word %zu)", at);
    cr_expect(strstr(tr_last_error(), word) != NULL, "no \"%s\" in: %s", word, tr_last_error());
    tr_context_destroy(ctx);
}

/* Without OpMemoryModel, the validator's layout check stops at the first
 * instruction that must follow it; a module of only OpCapability reaches
 * the check for the instruction itself. */
Test(spirv_validate, missing_memory_model)
{
    tr_context *ctx = trt_context(1);
    uint32_t w[128];
    expect_invalid(ctx, w, assemble(w, ONE, false), "EntryPoint cannot appear before the memory model instruction");
    cr_expect(strstr(tr_last_error(), "(instruction 2, word 7)") != NULL, "%s", tr_last_error());
    expect_invalid(ctx, w, 7, "Missing required OpMemoryModel instruction");
    tr_context_destroy(ctx);
}

Test(spirv_validate, not_spirv)
{
    tr_context *ctx = trt_context(1);
    uint32_t w[128];
    const size_t n = assemble(w, ONE, true);
    expect_invalid(ctx, w, 3, "header"); /* shorter than the header */
    w[0] = 0x12345678u;
    expect_invalid(ctx, w, n, "Invalid SPIR-V magic number");
    expect_invalid(ctx, NULL, 4, "code is NULL");
    tr_context_destroy(ctx);
}

/* What SPIRV-Tools' parser refuses, before validation proper; the fifth
 * instruction (OpDecorate, at word 5 + 2 + 3 + 6 + 3) is broken. */
Test(spirv_validate, malformed_instructions)
{
    tr_context *ctx = trt_context(1);
    uint32_t w[128];
    size_t n = assemble(w, ONE, true);
    w[19] = OP(0x7fff, 4);
    expect_invalid(ctx, w, n, "Invalid opcode: 32767 (instruction 5, word 19)");
    n = assemble(w, ONE, true);
    w[19] = OP(SpvOpDecorate, 0);
    expect_invalid(ctx, w, n, "Invalid instruction word count: 0 (instruction 5, word 19)");
    n = assemble(w, ONE, true);
    expect_invalid(ctx, w, n - 1, "Missing OpFunctionEnd at end of module");
    tr_context_destroy(ctx);
}

/* Each call makes its own validator context: threads validate side by side
 * (with no tr_context, whose message buffer is not for several threads). */
static void *validate_many(void *arg)
{
    (void)arg;
    uint32_t w[128];
    for (int i = 0; i < 50; i++) {
        const bool good = i % 2 == 0;
        const size_t n = assemble(w, good ? ONE : IONE, true);
        if (tr__spv_validate(NULL, "thread", w, n) != (good ? TR_OK : TR_ERROR_INVALID_ARGUMENT))
            return (void *)1;
        if (!good && !strstr(tr_last_error(), "thread: SPIR-V validation failed: "))
            return (void *)1;
    }
    return NULL;
}

Test(spirv_validate, threads)
{
    pthread_t t[4];
    for (int i = 0; i < 4; i++)
        cr_assert_eq(pthread_create(&t[i], NULL, validate_many, NULL), 0);
    for (int i = 0; i < 4; i++) {
        void *bad = NULL;
        pthread_join(t[i], &bad);
        cr_expect_null(bad);
    }
}
