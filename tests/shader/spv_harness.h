/* Helpers shared by the SPIR-V execution tests (tests/shader/test_spirv_exec_*.c).
 *
 * - spvh_compile: GLSL 4.50 (Vulkan 1.1 target) or HLSL, through shaderc, into
 *   SPIR-V words (spvh_optimize: through spirv-opt); spvh_compile_patched: the
 *   same, disassembled, with text replaced and
 *   reassembled (for instructions no GLSL emits: NMin, OpFUnord*, ...);
 * - spvh_module: tr_shader_module_create on those words (asserts TR_OK);
 * - spvh_render: one draw of a vertex + fragment GLSL pair into W x H colour
 *   attachments (R32G32B32A32_UINT by default, so a `uvec4` output's bits
 *   come back exactly, NaN payloads included: float formats canonicalise
 *   NaNs), with optional uniform buffers, push constants, textures and a
 *   vertex buffer; downloads every attachment.  The default vertex shader
 *   draws one triangle over the whole target from gl_VertexIndex;
 * - comparisons: bit equality of floats (any NaN matches any NaN) and
 *   distance in ULP against a double reference.
 * Everything asserts on failure, so tests stay short.  Header-only: every
 * function is static. */
#ifndef SPV_HARNESS_H
#define SPV_HARNESS_H

#include "trtest.h"

#include <math.h>
#include <shaderc/shaderc.h>

#include "shaderc_warm.h"
/* libspirv.h defines `const uint32_t kDefaultMaxIdBound` at file scope, an
 * external definition in C that would clash with the library's own
 * (spirv_validate.c renames its copy the same way). */
#define kDefaultMaxIdBound spvh_default_max_id_bound
#include <spirv-tools/libspirv.h>
#undef kDefaultMaxIdBound
#include <stdlib.h>
#include <string.h>

#define SPVH_FN static __attribute__((unused))

/* ---- bits ---------------------------------------------------------------------------------- */

SPVH_FN uint32_t spvh_f2u(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

SPVH_FN float spvh_u2f(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* ---- compiling ------------------------------------------------------------------------------ */

typedef enum spvh_lang { SPVH_GLSL = 0, SPVH_HLSL = 1 } spvh_lang;

/* Non-zero: compile with shaderc's performance optimisation (spirv-opt:
 * variables become SSA values joined by OpPhi, branches become OpSelect,
 * loops keep their values in phis), so the same test runs over the shape
 * of SPIR-V an optimising compiler emits. */
static int spvh_optimize __attribute__((unused));

/* Source into SPIR-V words (free()); NULL (and the compiler's message
 * logged) on a compile error.  entry: HLSL's entry function (NULL: "main"). */
SPVH_FN uint32_t *spvh_compile_lang(const char *src, shaderc_shader_kind kind, spvh_lang lang, const char *entry,
                                   size_t *words)
{
    shaderc_compiler_t c = shaderc_compiler_initialize();
    shaderc_compile_options_t o = shaderc_compile_options_initialize();
    shaderc_compile_options_set_target_env(o, shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_1);
    if (lang == SPVH_HLSL)
        shaderc_compile_options_set_source_language(o, shaderc_source_language_hlsl);
    if (spvh_optimize)
        shaderc_compile_options_set_optimization_level(o, shaderc_optimization_level_performance);
    shaderc_compilation_result_t r = shaderc_compile_into_spv(c, src, strlen(src), kind,
                                                              lang == SPVH_HLSL ? "test.hlsl" : "test.glsl",
                                                              entry ? entry : "main", o);
    uint32_t *out = NULL;
    if (shaderc_result_get_compilation_status(r) == shaderc_compilation_status_success) {
        const size_t n = shaderc_result_get_length(r);
        out = malloc(n);
        memcpy(out, shaderc_result_get_bytes(r), n);
        *words = n / 4;
    } else {
        cr_log_error("shaderc: %s\n%s", shaderc_result_get_error_message(r), src);
    }
    shaderc_result_release(r);
    shaderc_compile_options_release(o);
    shaderc_compiler_release(c);
    return out;
}

SPVH_FN uint32_t *spvh_compile(const char *src, shaderc_shader_kind kind, size_t *words)
{
    return spvh_compile_lang(src, kind, SPVH_GLSL, NULL, words);
}

/* SPIR-V words to assembly text (free()). */
SPVH_FN char *spvh_disassemble(const uint32_t *words, size_t n)
{
    spv_context sc = spvContextCreate(SPV_ENV_VULKAN_1_1);
    spv_text text = NULL;
    spv_diagnostic diag = NULL;
    spv_result_t r = spvBinaryToText(sc, words, n, SPV_BINARY_TO_TEXT_OPTION_NO_HEADER, &text, &diag);
    cr_assert_eq(r, SPV_SUCCESS, "disassembly failed: %s", diag ? diag->error : "?");
    char *out = malloc(text->length + 1);
    memcpy(out, text->str, text->length);
    out[text->length] = 0;
    spvTextDestroy(text);
    spvDiagnosticDestroy(diag);
    spvContextDestroy(sc);
    return out;
}

/* Assembly text to words (free()). */
SPVH_FN uint32_t *spvh_assemble(const char *text, size_t *words)
{
    spv_context sc = spvContextCreate(SPV_ENV_VULKAN_1_1);
    spv_binary bin = NULL;
    spv_diagnostic diag = NULL;
    spv_result_t r = spvTextToBinary(sc, text, strlen(text), &bin, &diag);
    cr_assert_eq(r, SPV_SUCCESS, "assembly failed: %s\n%s", diag ? diag->error : "?", text);
    uint32_t *out = malloc(bin->wordCount * 4);
    memcpy(out, bin->code, bin->wordCount * 4);
    *words = bin->wordCount;
    spvBinaryDestroy(bin);
    spvDiagnosticDestroy(diag);
    spvContextDestroy(sc);
    return out;
}

/* Replaces every occurrence of `from` by `to` in a malloc'ed string. */
SPVH_FN char *spvh_replace(char *s, const char *from, const char *to)
{
    const size_t lf = strlen(from), lt = strlen(to);
    size_t count = 0;
    for (const char *p = strstr(s, from); p; p = strstr(p + lf, from))
        count++;
    char *out = malloc(strlen(s) + count * (lt > lf ? lt - lf : 0) + 1), *w = out;
    const char *p = s;
    for (const char *q = strstr(p, from); q; q = strstr(p, from)) {
        memcpy(w, p, (size_t)(q - p));
        w += q - p;
        memcpy(w, to, lt);
        w += lt;
        p = q + lf;
    }
    strcpy(w, p);
    free(s);
    return out;
}

/* GLSL compiled, disassembled, each of `n` pairs (from[i] -> to[i])
 * replaced, reassembled: for instructions GLSL does not emit.  Asserts
 * that every `from` occurred. */
SPVH_FN uint32_t *spvh_compile_patched(const char *src, shaderc_shader_kind kind, const char *const *from,
                                      const char *const *to, int n, size_t *words)
{
    size_t nw = 0;
    uint32_t *code = spvh_compile(src, kind, &nw);
    cr_assert_not_null(code);
    char *text = spvh_disassemble(code, nw);
    free(code);
    for (int i = 0; i < n; i++) {
        cr_assert_not_null(strstr(text, from[i]), "'%s' not in the disassembly:\n%s", from[i], text);
        text = spvh_replace(text, from[i], to[i]);
    }
    uint32_t *out = spvh_assemble(text, words);
    free(text);
    return out;
}

/* ---- modules and contexts ------------------------------------------------------------------- */

SPVH_FN tr_result spvh_module_words(tr_context *ctx, const uint32_t *words, size_t n, tr_shader_module **out)
{
    tr_shader_module_desc d = {words, n * 4};
    *out = NULL;
    return tr_shader_module_create(ctx, &d, out);
}

/* Compiles and creates a module; asserts both work. */
SPVH_FN tr_shader_module *spvh_module(tr_context *ctx, const char *src, shaderc_shader_kind kind)
{
    size_t n = 0;
    uint32_t *code = spvh_compile(src, kind, &n);
    cr_assert_not_null(code, "compile failed");
    tr_shader_module *m = NULL;
    const tr_result r = spvh_module_words(ctx, code, n, &m);
    cr_assert_eq(r, TR_OK, "tr_shader_module_create: %s: %s\n%s", tr_result_string(r), tr_context_last_error(ctx),
                 src);
    free(code);
    return m;
}

SPVH_FN tr_context *spvh_context(uint32_t threads, uint32_t budget)
{
    tr_context_desc d = {0};
    d.threads = threads;
    d.shader_budget = budget;
    return trt_context_desc(&d);
}

/* One triangle over the whole target: clip (-1,-1), (3,-1), (-1,3). */
#define SPVH_FULLSCREEN_VS                                                                                      \
    "#version 450\n"                                                                                          \
    "void main() {\n"                                                                                         \
    "    vec2 p = vec2(float((gl_VertexIndex & 1) * 4) - 1.0, float((gl_VertexIndex & 2) * 2) - 1.0);\n"      \
    "    gl_Position = vec4(p, 0.0, 1.0);\n"                                                                  \
    "}\n"

/* ---- one draw ------------------------------------------------------------------------------ */

typedef struct spvh_ubo {
    uint32_t binding;
    const void *data;   /* NULL: unused entry */
    size_t size;
} spvh_ubo;

typedef struct spvh_tex {
    uint32_t slot;
    const tr_image *image; /* NULL: unused entry */
    const tr_sampler *sampler;
} spvh_tex;

typedef struct spvh_draw {
    const char *vs;               /* GLSL vertex shader; NULL: SPVH_FULLSCREEN_VS */
    const char *fs;               /* GLSL fragment shader (required) */
    uint32_t w, h;                /* target size; 0: 16 x 16 */
    tr_format format[TR_MAX_COLOR_ATTACHMENTS]; /* 0: R32G32B32A32_UINT */
    uint32_t color_count;         /* 0: 1 */
    uint32_t clear_bits[4];       /* every attachment's clear colour, as bits */
    uint32_t vertex_count;        /* 0: 3 */
    uint32_t instance_count;      /* 0: 1 */
    uint32_t first_vertex, first_instance;
    const void *push;             /* tr_cmd_set_uniforms */
    size_t push_size;
    spvh_ubo ubo[4];
    spvh_tex tex[4];
    const tr_pipeline_desc *base; /* fixed-function state (modules and entries filled in) */
    const void *vbuf;             /* bound to vertex binding 0 */
    size_t vbuf_size;
    const void *vbuf1;            /* bound to vertex binding 1 */
    size_t vbuf1_size;
    uint32_t pass_flags;
    uint32_t samples;             /* 0: 1 */
    tr_image *depth;              /* a depth attachment (CLEAR to 1, STORE), or NULL */
    tr_pass_stats *stats;
    const uint32_t *vs_words, *fs_words; /* precompiled SPIR-V instead of vs / fs */
    size_t vs_word_count, fs_word_count;
    spvh_lang vs_lang, fs_lang;   /* what vs / fs are written in (HLSL: entry "main") */
    const char *vs_entry, *fs_entry; /* the pipeline's entry names (NULL: "main") */
    tr_result draw_result;        /* out: what tr_cmd_draw returned */
    char draw_msg[512];           /* out: tr_context_last_error after tr_cmd_draw */
    char end_msg[512];            /* out: tr_context_last_error after tr_cmd_end_render_pass */
} spvh_draw;

/* A module from precompiled words, or compiled from src in lang. */
SPVH_FN tr_shader_module *spvh_stage(tr_context *ctx, const char *src, spvh_lang lang, const uint32_t *words,
                                    size_t nw, shaderc_shader_kind kind)
{
    uint32_t *code = NULL;
    if (!words) {
        code = spvh_compile_lang(src, kind, lang, NULL, &nw);
        cr_assert_not_null(code, "compile failed");
        words = code;
    }
    tr_shader_module *m = NULL;
    const tr_result r = spvh_module_words(ctx, words, nw, &m);
    cr_assert_eq(r, TR_OK, "tr_shader_module_create: %s: %s\n%s", tr_result_string(r), tr_context_last_error(ctx),
                 src ? src : "(words)");
    free(code);
    return m;
}

SPVH_FN uint32_t spvh_w(const spvh_draw *d) { return d->w ? d->w : 16u; }
SPVH_FN uint32_t spvh_h(const spvh_draw *d) { return d->h ? d->h : 16u; }

/* Draws and ends the pass; returns what tr_cmd_end_render_pass returned.
 * out (may be NULL) receives attachment a's sample s at
 * out + ((a * samples + s) * h * w) * 16 bytes, 16 bytes a pixel (formats
 * with fewer bytes are downloaded as they are stored, at the same spacing
 * of w * h * 16 bytes per image). */
SPVH_FN tr_result spvh_render_ctx(tr_context *ctx, spvh_draw *d, void *out)
{
    const uint32_t w = spvh_w(d), h = spvh_h(d), nc = d->color_count ? d->color_count : 1u,
                   ns = d->samples ? d->samples : 1u;
    tr_shader_module *vm = spvh_stage(ctx, d->vs ? d->vs : SPVH_FULLSCREEN_VS, d->vs ? d->vs_lang : SPVH_GLSL,
                                      d->vs_words, d->vs_word_count, shaderc_vertex_shader);
    tr_shader_module *fm = spvh_stage(ctx, d->fs, d->fs_lang, d->fs_words, d->fs_word_count,
                                      shaderc_fragment_shader);
    tr_pipeline_desc pd;
    memset(&pd, 0, sizeof pd);
    if (d->base)
        pd = *d->base;
    pd.vertex_module = vm;
    pd.fragment_module = fm;
    pd.vertex_entry = d->vs_entry;
    pd.fragment_entry = d->fs_entry;
    pd.multisample.samples = ns;
    tr_pipeline *pl = NULL;
    const tr_result pr = tr_pipeline_create(ctx, &pd, &pl);
    cr_assert_eq(pr, TR_OK, "tr_pipeline_create: %s: %s", tr_result_string(pr), tr_context_last_error(ctx));
    tr_shader_module_destroy(vm); /* pipelines keep working (shader.h) */
    tr_shader_module_destroy(fm);

    tr_image *img[TR_MAX_COLOR_ATTACHMENTS] = {0};
    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.color_count = nc;
    for (uint32_t a = 0; a < nc; a++) {
        const tr_format f = d->format[a] ? d->format[a] : TR_FORMAT_R32G32B32A32_UINT;
        img[a] = trt_image_ms(ctx, f, w, h, ns);
        rp.color[a].image = img[a];
        rp.color[a].load_op = TR_LOAD_OP_CLEAR;
        rp.color[a].store_op = TR_STORE_OP_STORE;
        memcpy(rp.color[a].clear_color, d->clear_bits, 16);
    }
    if (d->depth) {
        rp.depth.image = d->depth;
        rp.depth.depth_load_op = TR_LOAD_OP_CLEAR;
        rp.depth.depth_store_op = TR_STORE_OP_STORE;
        rp.depth.clear_depth = 1.0f;
    }
    rp.flags = d->pass_flags;
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
    TRT_OK(tr_cmd_bind_pipeline(ctx, pl));
    if (d->push)
        TRT_OK(tr_cmd_set_uniforms(ctx, d->push, d->push_size));
    for (int i = 0; i < 4; i++) {
        if (d->ubo[i].data)
            TRT_OK(tr_cmd_bind_uniform_buffer(ctx, d->ubo[i].binding, d->ubo[i].data, d->ubo[i].size));
        if (d->tex[i].image)
            TRT_OK(tr_cmd_bind_texture(ctx, d->tex[i].slot, d->tex[i].image, d->tex[i].sampler));
    }
    if (d->vbuf)
        TRT_OK(tr_cmd_bind_vertex_buffer(ctx, 0, d->vbuf, d->vbuf_size, 0));
    if (d->vbuf1)
        TRT_OK(tr_cmd_bind_vertex_buffer(ctx, 1, d->vbuf1, d->vbuf1_size, 0));
    d->draw_result = tr_cmd_draw(ctx, d->vertex_count ? d->vertex_count : 3u,
                                 d->instance_count ? d->instance_count : 1u, d->first_vertex, d->first_instance);
    snprintf(d->draw_msg, sizeof d->draw_msg, "%s", tr_context_last_error(ctx));
    const tr_result r = tr_cmd_end_render_pass(ctx, d->stats);
    snprintf(d->end_msg, sizeof d->end_msg, "%s", tr_context_last_error(ctx));
    if (out && r == TR_OK) {
        for (uint32_t a = 0; a < nc; a++)
            for (uint32_t s = 0; s < ns; s++) {
                tr_subresource sub = {0, 0, TR_ASPECT_COLOR, s};
                TRT_OK(tr_image_download(img[a], &sub, (uint8_t *)out + (size_t)(a * ns + s) * w * h * 16, 16 * w));
            }
    }
    for (uint32_t a = 0; a < nc; a++)
        tr_image_destroy(img[a]);
    tr_pipeline_destroy(pl);
    return r;
}

/* spvh_render_ctx in a fresh context of 2 threads; asserts the draw and
 * the pass succeed; returns the pixels (free()). */
SPVH_FN uint32_t *spvh_render(spvh_draw *d)
{
    const uint32_t w = spvh_w(d), h = spvh_h(d), nc = d->color_count ? d->color_count : 1u,
                   ns = d->samples ? d->samples : 1u;
    uint32_t *px = calloc((size_t)nc * ns * w * h, 16);
    tr_context *ctx = spvh_context(2, 0);
    const tr_result r = spvh_render_ctx(ctx, d, px);
    cr_assert_eq(d->draw_result, TR_OK, "tr_cmd_draw: %s", tr_result_string(d->draw_result));
    cr_assert_eq(d->draw_result, TR_OK, "tr_cmd_draw: %s", d->draw_msg);
    cr_assert_eq(r, TR_OK, "tr_cmd_end_render_pass: %s: %s", tr_result_string(r), d->end_msg);
    tr_context_destroy(ctx);
    return px;
}

/* The pixel (x, y) of attachment 0 of a w-wide target: 4 words. */
SPVH_FN const uint32_t *spvh_px(const uint32_t *px, uint32_t w, uint32_t x, uint32_t y)
{
    return px + 4 * ((size_t)y * w + x);
}

/* Declares a test that runs twice: as glslang emits the shaders
 * (suite `suite`) and optimised by spirv-opt (suite `suite`_opt).  Only for
 * tests whose float expressions spirv-opt cannot change: without
 * NoContraction it folds x * y + z into GLSL.std.450 Fma and reassociates
 * products of constants, so tests of float expressions (derivatives,
 * texture coordinates, contraction) run unoptimised only. */
#define SPVH_TEST2(suite, name, ...)                                                                            \
    static void name##_body(void);                                                                            \
    Test(suite, name, __VA_ARGS__) { spvh_optimize = 0; name##_body(); }                                      \
    Test(suite##_opt, name, __VA_ARGS__) { spvh_optimize = 1; name##_body(); }                                \
    static void name##_body(void)

/* ---- per-lane inputs ------------------------------------------------------------------------ */

/* A fragment shader's head for per-lane tests: output `o` (uvec4 bits at
 * location 0), the uniform block `inp` at binding 0 holding N uvec4 (std140:
 * 16 bytes each), lane() = y * 16 + x of the pixel, arg() its uvec4. */
#define SPVH_LANES_HEAD(N)                                                                                      \
    "#version 450\n"                                                                                          \
    "layout(location = 0) out uvec4 o;\n"                                                                     \
    "layout(binding = 0, std140) uniform In { uvec4 v[" #N "]; } inp;\n"                                      \
    "int lane() { ivec2 p = ivec2(gl_FragCoord.xy); return p.y * 16 + p.x; }\n"                               \
    "uvec4 arg() { return inp.v[lane()]; }\n"

/* Draws fs over a 16 x (n / 16) target with in[0 .. n) bound as uniform
 * buffer 0; returns n x 4 words (free()), lane i's at 4 * i. */
SPVH_FN uint32_t *spvh_run_lanes(const char *fs, const uint32_t (*in)[4], uint32_t n)
{
    spvh_draw d;
    memset(&d, 0, sizeof d);
    d.fs = fs;
    d.w = 16;
    d.h = n / 16;
    d.ubo[0] = (spvh_ubo){0, in, (size_t)n * 16};
    d.clear_bits[0] = d.clear_bits[1] = d.clear_bits[2] = d.clear_bits[3] = 0xdeadbeefu;
    return spvh_render(&d);
}

/* ---- comparisons --------------------------------------------------------------------------- */

/* Bit equality, except that any NaN matches any NaN (a NaN's payload and
 * sign are not specified).  Returns 1 on a match. */
SPVH_FN int spvh_same_f32(uint32_t got, float want)
{
    if (isnan(want))
        return isnan(spvh_u2f(got));
    return got == spvh_f2u(want);
}

/* The caller's message (a format and its arguments) is formatted first, so
 * that its arguments never mix with the ones of the comparison's text. */
#define SPVH_EXPECT_F32(got, want, ...)                                                                         \
    do {                                                                                                      \
        const uint32_t spvh_g_ = (got);                                                                       \
        const float spvh_w_ = (want);                                                                         \
        if (!spvh_same_f32(spvh_g_, spvh_w_)) {                                                               \
            char spvh_m_[512];                                                                                \
            snprintf(spvh_m_, sizeof spvh_m_, __VA_ARGS__);                                                   \
            cr_expect(0, "got %a (0x%08x), want %a (0x%08x): %s", (double)spvh_u2f(spvh_g_), spvh_g_,         \
                      (double)spvh_w_, spvh_f2u(spvh_w_), spvh_m_);                                           \
        }                                                                                                     \
    } while (0)

#define SPVH_EXPECT_U32(got, want, ...)                                                                         \
    do {                                                                                                      \
        const uint32_t spvh_g_ = (got), spvh_w_ = (want);                                                     \
        if (spvh_g_ != spvh_w_) {                                                                             \
            char spvh_m_[512];                                                                                \
            snprintf(spvh_m_, sizeof spvh_m_, __VA_ARGS__);                                                   \
            cr_expect(0, "got 0x%08x (%d), want 0x%08x (%d): %s", spvh_g_, (int32_t)spvh_g_, spvh_w_,         \
                      (int32_t)spvh_w_, spvh_m_);                                                             \
        }                                                                                                     \
    } while (0)

/* ULP of a float value's magnitude at `ref` (the spacing of floats there). */
SPVH_FN double spvh_ulp_at(double ref)
{
    const double a = fabs(ref);
    if (a < 0x1p-126)
        return 0x1p-149;
    int e;
    frexp(a, &e); /* a = m * 2^e, m in [0.5, 1) */
    return ldexp(1.0, e - 24);
}

/* Error of `got` against the double reference, in ULP of the reference;
 * infinities and NaNs: 0 if they match, else a huge number. */
SPVH_FN double spvh_ulp_err(float got, double ref)
{
    if (isnan(ref) || isnan(got))
        return isnan(ref) && isnan(got) ? 0.0 : 1e30;
    if (isinf(ref) || isinf(got)) {
        if (isinf(got) && isinf(ref) && (got > 0) == (ref > 0))
            return 0.0;
        /* a reference past FLT_MAX that rounds to inf is fine */
        if (isinf(got) && fabs(ref) > 3.4028234663852886e38 && (got > 0) == (ref > 0))
            return 0.0;
        return 1e30;
    }
    return fabs((double)got - ref) / spvh_ulp_at(ref);
}

#endif
