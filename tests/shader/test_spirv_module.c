/* The SPIR-V front end (src/shader/spirv_internal.h): GLSL compiled with
 * shaderc is read back into its entry points, interface, decorations and
 * resources; what tilerast cannot run is refused by name; malformed
 * binaries are refused, never read past their end. */
#include "spv_harness.h"

#include <shaderc/shaderc.h>
#include <spirv/unified1/spirv.h>
#include <stdlib.h>
#include <string.h>

#include "shader/spirv_internal.h"

static const tr__spv_var *var_at(const tr__spv_module *m, uint32_t storage, uint32_t location)
{
    for (uint32_t i = 0; i < m->var_count; i++)
        if (m->vars[i].storage == storage && m->decor[m->vars[i].id].location == location)
            return &m->vars[i];
    return NULL;
}

static const tr__spv_var *var_bound(const tr__spv_module *m, uint32_t storage, uint32_t binding)
{
    for (uint32_t i = 0; i < m->var_count; i++)
        if (m->vars[i].storage == storage && m->decor[m->vars[i].id].binding == binding)
            return &m->vars[i];
    return NULL;
}

/* the type a variable points to */
static uint32_t pointee(const tr__spv_module *m, const tr__spv_var *v)
{
    return m->types[v->type].elem;
}

static const char *vertex_src = "#version 450\n"
                                "layout(location = 0) in vec4 pos;\n"
                                "layout(location = 1) in mat4 model;\n"
                                "layout(location = 5) in vec2 uv[3];\n"
                                "layout(set = 0, binding = 2) uniform Camera { mat4 view; } cam;\n"
                                "layout(push_constant) uniform Push { vec4 tint; } pc;\n"
                                "layout(location = 0) out vec4 color;\n"
                                "layout(location = 1) flat out int id;\n"
                                "void main() {\n"
                                "    gl_Position = cam.view * model * pos;\n"
                                "    gl_PointSize = 2.0;\n"
                                "    color = pc.tint + vec4(uv[0], uv[2]);\n"
                                "    id = gl_VertexIndex;\n"
                                "}\n";

Test(spirv, vertex_interface_and_resources)
{
    size_t n = 0;
    uint32_t *code = spvh_compile(vertex_src, shaderc_vertex_shader, &n);
    cr_assert_not_null(code);
    tr_context *ctx = trt_context(1);
    tr__spv_module m;
    TRT_OK(tr__spv_parse(ctx, "test", code, n, &m));
    cr_expect_eq(m.entry_count, 1u);
    const tr__spv_entry *e = tr__spv_find_entry(&m, SpvExecutionModelVertex, NULL);
    cr_assert_not_null(e);
    cr_expect_str_eq(e->name, "main");
    cr_expect_null(tr__spv_find_entry(&m, SpvExecutionModelFragment, NULL));
    cr_expect_null(tr__spv_find_entry(&m, SpvExecutionModelVertex, "other"));
    cr_expect_neq(m.glsl_std_450, 0u, "shaderc imports GLSL.std.450");
    /* inputs: a vec4, a mat4 (4 locations), a vec2[3] (3 locations) */
    const tr__spv_var *pos = var_at(&m, SpvStorageClassInput, 0), *model = var_at(&m, SpvStorageClassInput, 1),
                      *uv = var_at(&m, SpvStorageClassInput, 5);
    cr_assert(pos && model && uv);
    cr_expect_eq(tr__spv_locations(&m, pointee(&m, pos)), 1u);
    cr_expect_eq(tr__spv_locations(&m, pointee(&m, model)), 4u);
    cr_expect_eq(tr__spv_locations(&m, pointee(&m, uv)), 3u);
    cr_expect_eq(m.types[pointee(&m, model)].op, SpvOpTypeMatrix);
    /* outputs: color at 0, a flat int at 1 */
    const tr__spv_var *color = var_at(&m, SpvStorageClassOutput, 0), *id = var_at(&m, SpvStorageClassOutput, 1);
    cr_assert(color && id);
    cr_expect(m.decor[id->id].flat);
    cr_expect(!m.decor[color->id].flat);
    const tr__spv_type *it = &m.types[pointee(&m, id)];
    cr_expect(it->op == SpvOpTypeInt && it->width == 32 && it->sign == 1);
    /* gl_VertexIndex is a builtin input */
    bool vertex_index = false;
    for (uint32_t i = 0; i < m.var_count; i++)
        vertex_index |= m.vars[i].storage == SpvStorageClassInput &&
                        m.decor[m.vars[i].id].builtin == SpvBuiltInVertexIndex;
    cr_expect(vertex_index);
    /* the uniform block at binding 2, set 0; the push-constant block */
    const tr__spv_var *cam = var_bound(&m, SpvStorageClassUniform, 2);
    cr_assert_not_null(cam);
    cr_expect_eq(m.decor[cam->id].set, 0u);
    cr_expect(m.decor[pointee(&m, cam)].block);
    uint32_t push = 0;
    for (uint32_t i = 0; i < m.var_count; i++)
        push += m.vars[i].storage == SpvStorageClassPushConstant;
    cr_expect_eq(push, 1u);
    /* every interface id of the entry point is a global variable */
    cr_expect_gt(e->interfaces, 4u);
    for (uint32_t k = 0; k < e->interfaces; k++) {
        bool found = false;
        for (uint32_t i = 0; i < m.var_count; i++)
            found |= m.vars[i].id == m.interface_ids[e->interface0 + k];
        cr_expect(found, "interface id %u", m.interface_ids[e->interface0 + k]);
    }
    cr_expect_lt(m.code_begin, m.word_count);
    cr_expect_eq(m.words[m.code_begin] & 0xffffu, (uint32_t)SpvOpFunction);
    tr__spv_free(ctx, &m);
    free(code);
    tr_context_destroy(ctx);
}

Test(spirv, fragment_interpolation_samplers_and_modes)
{
    const char *src = "#version 450\n"
                      "layout(early_fragment_tests) in;\n"
                      "layout(location = 0) in vec4 color;\n"
                      "layout(location = 1) flat in int id;\n"
                      "layout(location = 2) noperspective in vec2 screen;\n"
                      "layout(location = 3) centroid in float c;\n"
                      "layout(set = 0, binding = 3) uniform sampler2D tex;\n"
                      "layout(set = 0, binding = 4) uniform sampler2DShadow shadow;\n"
                      "layout(location = 0) out vec4 o0;\n"
                      "layout(location = 2) out vec4 o2;\n"
                      "void main() {\n"
                      "    o0 = color * texture(tex, screen) * float(id) * c;\n"
                      "    o2 = vec4(texture(shadow, vec3(screen, 0.5)), gl_FragCoord.xy, 1.0);\n"
                      "}\n";
    size_t n = 0;
    uint32_t *code = spvh_compile(src, shaderc_fragment_shader, &n);
    cr_assert_not_null(code);
    tr_context *ctx = trt_context(1);
    tr__spv_module m;
    TRT_OK(tr__spv_parse(ctx, "test", code, n, &m));
    const tr__spv_entry *e = tr__spv_find_entry(&m, SpvExecutionModelFragment, "main");
    cr_assert_not_null(e);
    cr_expect(e->origin_upper_left);
    cr_expect(e->early_tests);
    cr_expect(!e->depth_replacing);
    cr_expect(m.decor[var_at(&m, SpvStorageClassInput, 1)->id].flat);
    cr_expect(m.decor[var_at(&m, SpvStorageClassInput, 2)->id].noperspective);
    cr_expect(m.decor[var_at(&m, SpvStorageClassInput, 3)->id].centroid);
    cr_expect(!m.decor[var_at(&m, SpvStorageClassInput, 0)->id].noperspective);
    cr_expect_not_null(var_at(&m, SpvStorageClassOutput, 0));
    cr_expect_not_null(var_at(&m, SpvStorageClassOutput, 2));
    cr_expect_null(var_at(&m, SpvStorageClassOutput, 1));
    /* combined image samplers: a sampled 2D image, and a depth one */
    const tr__spv_var *tex = var_bound(&m, SpvStorageClassUniformConstant, 3),
                      *shadow = var_bound(&m, SpvStorageClassUniformConstant, 4);
    cr_assert(tex && shadow);
    const tr__spv_type *st = &m.types[pointee(&m, tex)];
    cr_assert_eq(st->op, SpvOpTypeSampledImage);
    cr_expect(m.types[st->elem].op == SpvOpTypeImage && m.types[st->elem].image_dim == SpvDim2D &&
              m.types[st->elem].image_depth == 0 && m.types[st->elem].image_sampled == 1);
    cr_expect_eq(m.types[m.types[pointee(&m, shadow)].elem].image_depth, 1u);
    /* gl_FragCoord */
    bool frag_coord = false;
    for (uint32_t i = 0; i < m.var_count; i++)
        frag_coord |= m.decor[m.vars[i].id].builtin == SpvBuiltInFragCoord;
    cr_expect(frag_coord);
    tr__spv_free(ctx, &m);
    free(code);
    tr_context_destroy(ctx);
}

/* What tilerast does not run is refused at once, by name. */
static void expect_refused(tr_context *ctx, const char *src, shaderc_shader_kind kind, tr_result code,
                           const char *needle)
{
    size_t n = 0;
    uint32_t *spv = spvh_compile(src, kind, &n);
    cr_assert_not_null(spv);
    tr__spv_module m;
    cr_expect_eq(tr__spv_parse(ctx, "test", spv, n, &m), code, "%s", needle);
    cr_expect(strstr(tr_context_last_error(ctx), needle) != NULL, "message \"%s\" lacks \"%s\"",
              tr_context_last_error(ctx), needle);
    cr_expect_null(m.words, "a refused module keeps nothing");
    free(spv);
}

Test(spirv, unsupported_features_are_named)
{
    tr_context *ctx = trt_context(1);
    expect_refused(ctx,
                   "#version 450\nlayout(location = 0) out vec4 o;\n"
                   "layout(location = 0) flat in dvec2 d;\nvoid main() { o = vec4(d.x); }\n",
                   shaderc_fragment_shader, TR_ERROR_UNSUPPORTED_FORMAT, "capability Float64");
    expect_refused(ctx,
                   "#version 450\nlayout(location = 0) out vec4 o;\n"
                   "layout(set = 1, binding = 0) uniform sampler2D second_set;\n"
                   "void main() { o = texture(second_set, vec2(0.5)); }\n",
                   shaderc_fragment_shader, TR_ERROR_UNSUPPORTED_FORMAT, "'second_set' is in descriptor set 1");
    expect_refused(ctx,
                   "#version 450\nlayout(location = 0) out vec4 o;\n"
                   "layout(set = 0, binding = 0) buffer Data { vec4 v[]; } data;\n"
                   "void main() { o = data.v[0]; }\n",
                   shaderc_fragment_shader, TR_ERROR_UNSUPPORTED_FORMAT, "storage");
    expect_refused(ctx,
                   "#version 450\nlayout(points) in;\nlayout(points, max_vertices = 1) out;\n"
                   "void main() { EmitVertex(); }\n",
                   shaderc_geometry_shader, TR_ERROR_UNSUPPORTED_FORMAT, "a Geometry entry point");
    expect_refused(ctx,
                   "#version 450\nlayout(location = 0) out vec4 o;\n"
                   "layout(set = 0, binding = 0, rgba8) uniform writeonly image2D img;\n"
                   "void main() { imageStore(img, ivec2(0), vec4(1)); o = vec4(0); }\n",
                   shaderc_fragment_shader, TR_ERROR_UNSUPPORTED_FORMAT, "storage image");
    tr_context_destroy(ctx);
}

/* Malformed binaries: refused, never read past their end (ASan). */
Test(spirv, malformed_binaries)
{
    size_t n = 0;
    uint32_t *good = spvh_compile(vertex_src, shaderc_vertex_shader, &n);
    cr_assert_not_null(good);
    tr_context *ctx = trt_context(1);
    tr__spv_module m;
    cr_expect_eq(tr__spv_parse(ctx, "test", good, 4, &m), TR_ERROR_INVALID_ARGUMENT);
    cr_expect(strstr(tr_context_last_error(ctx), "5-word header") != NULL);
    /* every truncation of a real module, each in a buffer of exactly its size */
    for (size_t k = 5; k < n; k++) {
        uint32_t *cut = malloc(k * 4);
        memcpy(cut, good, k * 4);
        const tr_result r = tr__spv_parse(ctx, "test", cut, k, &m);
        if (r == TR_OK) /* a cut between instructions after the functions began may still parse */
            tr__spv_free(ctx, &m);
        else
            cr_expect(r == TR_ERROR_INVALID_ARGUMENT || r == TR_ERROR_UNSUPPORTED_FORMAT, "cut at %zu: %s", k,
                      tr_result_string(r));
        free(cut);
    }
    uint32_t *bad = malloc(n * 4);
    memcpy(bad, good, n * 4);
    bad[0] = 0x03022307u; /* byte-swapped magic */
    cr_expect_eq(tr__spv_parse(ctx, "test", bad, n, &m), TR_ERROR_INVALID_ARGUMENT);
    cr_expect(strstr(tr_context_last_error(ctx), "other byte order") != NULL);
    memcpy(bad, good, n * 4);
    bad[1] = 0x00010700u;
    cr_expect_eq(tr__spv_parse(ctx, "test", bad, n, &m), TR_ERROR_UNSUPPORTED_FORMAT);
    memcpy(bad, good, n * 4);
    bad[5] = 0; /* an instruction of 0 words */
    cr_expect_eq(tr__spv_parse(ctx, "test", bad, n, &m), TR_ERROR_INVALID_ARGUMENT);
    cr_expect(strstr(tr_context_last_error(ctx), "word 5") != NULL, "%s", tr_context_last_error(ctx));
    memcpy(bad, good, n * 4);
    bad[5] = (0xffffu << 16) | SpvOpCapability; /* longer than the module */
    cr_expect_eq(tr__spv_parse(ctx, "test", bad, n, &m), TR_ERROR_INVALID_ARGUMENT);
    memcpy(bad, good, n * 4);
    bad[3] = 1; /* id bound */
    cr_expect_eq(tr__spv_parse(ctx, "test", bad, n, &m), TR_ERROR_INVALID_ARGUMENT);
    cr_expect(strstr(tr_context_last_error(ctx), "id bound") != NULL);
    /* an id past the bound: the first OpCapability's operand is no id, so
     * lower the bound under the ids the types use */
    memcpy(bad, good, n * 4);
    bad[3] = 3;
    cr_expect_eq(tr__spv_parse(ctx, "test", bad, n, &m), TR_ERROR_INVALID_ARGUMENT);
    cr_expect(strstr(tr_context_last_error(ctx), "outside 1..2") != NULL, "%s", tr_context_last_error(ctx));
    free(bad);
    free(good);
    tr_context_destroy(ctx);
}

/* A header whose id bound is far above what the words can define is
 * refused before any table is made for it. */
Test(spirv, bound_far_above_the_words_is_refused)
{
    size_t n = 0;
    uint32_t *code = spvh_compile("#version 450\nlayout(location = 0) out vec4 o;\nvoid main() { o = vec4(1.0); }\n",
                             shaderc_fragment_shader, &n);
    cr_assert_not_null(code);
    tr_context *ctx = trt_context(1);
    tr__spv_module m;
    code[3] = (uint32_t)(n * 4 + 4096 + 1);
    cr_expect_eq(tr__spv_parse(ctx, "test", code, n, &m), TR_ERROR_LIMIT_EXCEEDED);
    cr_expect(strstr(tr_last_error(), "id bound") != NULL, "%s", tr_last_error());
    code[3] = (uint32_t)(n * 4 + 4096);
    cr_expect_eq(tr__spv_parse(ctx, "test", code, n, &m), TR_OK, "%s", tr_last_error());
    tr__spv_free(ctx, &m);
    tr_context_destroy(ctx);
    free(code);
}
