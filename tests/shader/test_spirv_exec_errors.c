/* SPIR-V through the public API: what is refused, with which code, and a
 * message naming the thing at fault (shader.h; pipeline.h).  Module
 * creation (bad binaries, the validator, unsupported features), pipeline
 * creation (both a callback and a module, interface mismatches between the
 * stages, a desc contradicting what the module derives, a missing entry
 * point) and draws (an unbound uniform buffer or texture the shader reads). */
#include "spv_harness.h"

static const char *const vs_src = "#version 450\n"
                                  "layout(location = 0) out vec4 color;\n"
                                  "layout(location = 1) out vec2 uv;\n"
                                  "void main() {\n"
                                  "    vec2 p = vec2(float((gl_VertexIndex & 1) * 4) - 1.0, float((gl_VertexIndex & 2) * 2) - 1.0);\n"
                                  "    gl_Position = vec4(p, 0.0, 1.0); color = vec4(p, 0.0, 1.0); uv = p;\n"
                                  "}\n";

static const char *const fs_src = "#version 450\n"
                                  "layout(location = 0) in vec4 color;\n"
                                  "layout(location = 0) out vec4 o;\n"
                                  "void main() { o = color; }\n";

/* The message right after the last tr_pipeline_create of try_pipeline. */
static char pipeline_msg[1024];

static void expect_msg(tr_context *ctx, const char *needle)
{
    const char *m = tr_context_last_error(ctx);
    cr_expect(m && strstr(m, needle) != NULL, "message \"%s\" lacks \"%s\"", m ? m : "(null)", needle);
}

static void expect_pipeline_msg(const char *needle)
{
    const char *m = pipeline_msg;
    cr_expect(m && strstr(m, needle) != NULL, "message \"%s\" lacks \"%s\"", m ? m : "(null)", needle);
}

/* Compiles src and expects module creation to fail with code, naming needle. */
static void expect_module_refused(tr_context *ctx, const char *src, shaderc_shader_kind kind, tr_result code,
                                  const char *needle)
{
    size_t n = 0;
    uint32_t *words = spvh_compile(src, kind, &n);
    cr_assert_not_null(words);
    tr_shader_module *m = (tr_shader_module *)(uintptr_t)1;
    const tr_result r = spvh_module_words(ctx, words, n, &m);
    cr_expect_eq(r, code, "%s: got %s (%s)", needle, tr_result_string(r), tr_context_last_error(ctx));
    cr_expect_null(m, "*out is NULL on failure");
    expect_msg(ctx, needle);
    if (r == TR_OK)
        tr_shader_module_destroy(m);
    free(words);
}

/* ---- module creation ---------------------------------------------------------------------- */

Test(spirv_errors, module_arguments)
{
    tr_context *ctx = spvh_context(1, 0);
    size_t n = 0;
    uint32_t *words = spvh_compile(fs_src, shaderc_fragment_shader, &n);
    tr_shader_module *m = NULL;
    tr_shader_module_desc d = {words, n * 4};
    TRT_EXPECT(tr_shader_module_create(NULL, &d, &m), TR_ERROR_INVALID_ARGUMENT);
    TRT_EXPECT(tr_shader_module_create(ctx, NULL, &m), TR_ERROR_INVALID_ARGUMENT);
    TRT_EXPECT(tr_shader_module_create(ctx, &d, NULL), TR_ERROR_INVALID_ARGUMENT);
    d.code = NULL;
    TRT_EXPECT(tr_shader_module_create(ctx, &d, &m), TR_ERROR_INVALID_ARGUMENT);
    /* code_size not a multiple of 4 */
    d.code = words;
    d.code_size = n * 4 - 2;
    TRT_EXPECT(tr_shader_module_create(ctx, &d, &m), TR_ERROR_INVALID_ARGUMENT);
    expect_msg(ctx, "code_size");
    cr_expect_null(m);
    d.code_size = 0;
    TRT_EXPECT(tr_shader_module_create(ctx, &d, &m), TR_ERROR_INVALID_ARGUMENT);
    /* the real thing works, and the caller's words may go at once */
    d.code_size = n * 4;
    TRT_OK(tr_shader_module_create(ctx, &d, &m));
    cr_expect_str_eq(tr_context_last_error(ctx), "");
    memset(words, 0xff, n * 4);
    free(words);
    tr_shader_module *vm = spvh_module(ctx, vs_src, shaderc_vertex_shader);
    tr_pipeline_desc pd = {0};
    pd.vertex_module = vm;
    pd.fragment_module = m;
    tr_pipeline *pl = NULL;
    TRT_OK(tr_pipeline_create(ctx, &pd, &pl));
    tr_shader_module_destroy(m);
    tr_shader_module_destroy(vm);
    tr_shader_module_destroy(NULL);
    TRT_OK(tr_pipeline_destroy(pl));
    tr_context_destroy(ctx);
}

Test(spirv_errors, garbage_words)
{
    tr_context *ctx = spvh_context(1, 0);
    uint32_t junk[64];
    trt_rng rng = {7};
    for (int i = 0; i < 64; i++)
        junk[i] = trt_rand_u32(&rng);
    tr_shader_module *m = NULL;
    TRT_EXPECT(spvh_module_words(ctx, junk, 64, &m), TR_ERROR_INVALID_ARGUMENT);
    cr_expect_null(m);
    cr_expect_neq(strlen(tr_context_last_error(ctx)), 0u);
    /* a good header followed by garbage */
    size_t n = 0;
    uint32_t *words = spvh_compile(fs_src, shaderc_fragment_shader, &n);
    for (size_t i = 5; i < n; i++)
        words[i] = trt_rand_u32(&rng);
    const tr_result r = spvh_module_words(ctx, words, n, &m);
    cr_expect(r == TR_ERROR_INVALID_ARGUMENT || r == TR_ERROR_UNSUPPORTED_FORMAT, "%s", tr_result_string(r));
    cr_expect_null(m);
    free(words);
    tr_context_destroy(ctx);
}

/* A module the front end can walk but the validator refuses (OpIAdd on
 * floats): TR_ERROR_INVALID_ARGUMENT quoting the validator. */
Test(spirv_errors, validator_complaint)
{
    static const char *const text = "OpCapability Shader\n"
                                    "OpMemoryModel Logical GLSL450\n"
                                    "OpEntryPoint Fragment %main \"main\" %o\n"
                                    "OpExecutionMode %main OriginUpperLeft\n"
                                    "OpDecorate %o Location 0\n"
                                    "%void = OpTypeVoid\n"
                                    "%fn = OpTypeFunction %void\n"
                                    "%float = OpTypeFloat 32\n"
                                    "%v4 = OpTypeVector %float 4\n"
                                    "%ptr = OpTypePointer Output %v4\n"
                                    "%o = OpVariable %ptr Output\n"
                                    "%c1 = OpConstant %float 1\n"
                                    "%main = OpFunction %void None %fn\n"
                                    "%l = OpLabel\n"
                                    "%bad = OpIAdd %float %c1 %c1\n"
                                    "%v = OpCompositeConstruct %v4 %bad %bad %bad %bad\n"
                                    "OpStore %o %v\n"
                                    "OpReturn\n"
                                    "OpFunctionEnd\n";
    size_t n = 0;
    uint32_t *words = spvh_assemble(text, &n);
    tr_context *ctx = spvh_context(1, 0);
    tr_shader_module *m = NULL;
    TRT_EXPECT(spvh_module_words(ctx, words, n, &m), TR_ERROR_INVALID_ARGUMENT);
    expect_msg(ctx, "IAdd");
    free(words);
    tr_context_destroy(ctx);
}

Test(spirv_errors, unsupported_features_named)
{
    tr_context *ctx = spvh_context(1, 0);
    expect_module_refused(ctx,
                          "#version 450\nlayout(points) in;\nlayout(points, max_vertices = 1) out;\n"
                          "void main() { EmitVertex(); }\n",
                          shaderc_geometry_shader, TR_ERROR_UNSUPPORTED_FORMAT, "Geometry");
    expect_module_refused(ctx,
                          "#version 450\nlayout(location = 0) out vec4 o;\n"
                          "layout(location = 0) flat in dvec2 d;\nvoid main() { o = vec4(d.x); }\n",
                          shaderc_fragment_shader, TR_ERROR_UNSUPPORTED_FORMAT, "Float64");
    expect_module_refused(ctx,
                          "#version 450\nlayout(location = 0) out vec4 o;\n"
                          "layout(set = 1, binding = 0) uniform sampler2D second_set;\n"
                          "void main() { o = texture(second_set, vec2(0.5)); }\n",
                          shaderc_fragment_shader, TR_ERROR_UNSUPPORTED_FORMAT, "second_set");
    expect_msg(ctx, "set");
    expect_module_refused(ctx,
                          "#version 450\nlayout(location = 0) out vec4 o;\n"
                          "layout(set = 0, binding = 0) buffer Data { vec4 v[]; } data;\n"
                          "void main() { o = data.v[0]; }\n",
                          shaderc_fragment_shader, TR_ERROR_UNSUPPORTED_FORMAT, "storage");
    expect_module_refused(ctx,
                          "#version 450\nlayout(local_size_x = 1) in;\nvoid main() { }\n",
                          shaderc_compute_shader, TR_ERROR_UNSUPPORTED_FORMAT, "ompute");
    expect_module_refused(ctx,
                          "#version 450\n#extension GL_ARB_gpu_shader_int64 : require\n"
                          "layout(location = 0) out vec4 o;\nlayout(location = 0) flat in int x;\n"
                          "void main() { int64_t y = int64_t(x) * 3l; o = vec4(float(y)); }\n",
                          shaderc_fragment_shader, TR_ERROR_UNSUPPORTED_FORMAT, "Int64");
    tr_context_destroy(ctx);
}

/* ---- pipeline creation -------------------------------------------------------------------- */

static void dummy_vs(tr_vs_batch *b) { (void)b; }
static void dummy_fs(tr_fs_block *b) { (void)b; }

/* Creates a pipeline from the two sources with desc's other fields;
 * returns the result (and destroys a pipeline that was made). */
static tr_result try_pipeline(tr_context *ctx, const char *vs, const char *fs, const tr_pipeline_desc *base)
{
    tr_shader_module *vm = vs ? spvh_module(ctx, vs, shaderc_vertex_shader) : NULL;
    tr_shader_module *fm = fs ? spvh_module(ctx, fs, shaderc_fragment_shader) : NULL;
    tr_pipeline_desc pd;
    memset(&pd, 0, sizeof pd);
    if (base)
        pd = *base;
    pd.vertex_module = vm;
    pd.fragment_module = fm;
    tr_pipeline *pl = NULL;
    const tr_result r = tr_pipeline_create(ctx, &pd, &pl);
    snprintf(pipeline_msg, sizeof pipeline_msg, "%s", tr_context_last_error(ctx));
    if (r != TR_OK)
        cr_expect_str_eq(tr_last_error(), pipeline_msg, "the thread's message is the context's");
    if (r == TR_OK)
        tr_pipeline_destroy(pl);
    else
        cr_expect_null(pl);
    tr_shader_module_destroy(vm);
    tr_shader_module_destroy(fm);
    return r;
}

Test(spirv_errors, callback_and_module_for_one_stage)
{
    tr_context *ctx = spvh_context(1, 0);
    tr_pipeline_desc pd = {0};
    pd.vertex_shader = dummy_vs;
    TRT_EXPECT(try_pipeline(ctx, vs_src, fs_src, &pd), TR_ERROR_INVALID_DESCRIPTOR);
    expect_pipeline_msg("vertex_shader");
    memset(&pd, 0, sizeof pd);
    pd.fragment_shader = dummy_fs;
    TRT_EXPECT(try_pipeline(ctx, vs_src, fs_src, &pd), TR_ERROR_INVALID_DESCRIPTOR);
    expect_pipeline_msg("fragment_shader");
    /* mixing is fine: a C vertex shader with a SPIR-V fragment shader */
    memset(&pd, 0, sizeof pd);
    pd.vertex_shader = dummy_vs;
    pd.varying_count = 1;
    TRT_OK(try_pipeline(ctx, NULL, fs_src, &pd));
    tr_context_destroy(ctx);
}

Test(spirv_errors, fragment_input_not_written)
{
    tr_context *ctx = spvh_context(1, 0);
    TRT_EXPECT(try_pipeline(ctx, vs_src,
                            "#version 450\nlayout(location = 0) in vec4 color;\nlayout(location = 2) in vec4 missing;\n"
                            "layout(location = 0) out vec4 o;\nvoid main() { o = color + missing; }\n",
                            NULL),
               TR_ERROR_INVALID_DESCRIPTOR);
    expect_pipeline_msg("location 2");
    tr_context_destroy(ctx);
}

Test(spirv_errors, type_mismatch_at_a_location)
{
    tr_context *ctx = spvh_context(1, 0);
    TRT_EXPECT(try_pipeline(ctx, vs_src,
                            "#version 450\nlayout(location = 1) flat in ivec2 uv;\n"
                            "layout(location = 0) out vec4 o;\nvoid main() { o = vec4(uv, 0, 1); }\n",
                            NULL),
               TR_ERROR_INVALID_DESCRIPTOR);
    expect_pipeline_msg("location 1");
    /* the vertex stage writing more than the fragment stage reads is fine */
    TRT_OK(try_pipeline(ctx, vs_src, fs_src, NULL));
    tr_context_destroy(ctx);
}

Test(spirv_errors, desc_contradicting_the_module)
{
    tr_context *ctx = spvh_context(1, 0);
    static const char *const fs_tex = "#version 450\n"
                                      "layout(location = 0) in vec4 color;\n"
                                      "layout(location = 1) flat in vec2 uv;\n"
                                      "layout(binding = 2) uniform sampler2D tex;\n"
                                      "layout(location = 0) out vec4 o;\n"
                                      "void main() { o = color * texture(tex, uv); }\n";
    tr_pipeline_desc pd = {0};
    TRT_OK(try_pipeline(ctx, vs_src, fs_tex, &pd));
    /* what the module says, stated again: fine */
    pd.texture_mask = 1u << 2;
    pd.varying_count = 2;
    pd.flat_mask = 1u << 1;
    TRT_OK(try_pipeline(ctx, vs_src, fs_tex, &pd));
    memset(&pd, 0, sizeof pd);
    pd.texture_mask = 1u << 3;
    TRT_EXPECT(try_pipeline(ctx, vs_src, fs_tex, &pd), TR_ERROR_INVALID_DESCRIPTOR);
    expect_pipeline_msg("texture_mask");
    memset(&pd, 0, sizeof pd);
    pd.varying_count = 5;
    TRT_EXPECT(try_pipeline(ctx, vs_src, fs_tex, &pd), TR_ERROR_INVALID_DESCRIPTOR);
    expect_pipeline_msg("varying_count");
    memset(&pd, 0, sizeof pd);
    pd.flat_mask = 1u;
    TRT_EXPECT(try_pipeline(ctx, vs_src, fs_tex, &pd), TR_ERROR_INVALID_DESCRIPTOR);
    expect_pipeline_msg("flat_mask");
    memset(&pd, 0, sizeof pd);
    pd.noperspective_mask = 1u;
    TRT_EXPECT(try_pipeline(ctx, vs_src, fs_tex, &pd), TR_ERROR_INVALID_DESCRIPTOR);
    expect_pipeline_msg("noperspective_mask");
    memset(&pd, 0, sizeof pd);
    pd.fs_flags = TR_FS_MAY_DISCARD;
    TRT_EXPECT(try_pipeline(ctx, vs_src, fs_tex, &pd), TR_ERROR_INVALID_DESCRIPTOR);
    expect_pipeline_msg("fs_flags");
    tr_context_destroy(ctx);
}

Test(spirv_errors, entry_point_not_found)
{
    tr_context *ctx = spvh_context(1, 0);
    tr_shader_module *vm = spvh_module(ctx, vs_src, shaderc_vertex_shader);
    tr_shader_module *fm = spvh_module(ctx, fs_src, shaderc_fragment_shader);
    tr_pipeline_desc pd = {0};
    pd.vertex_module = vm;
    pd.fragment_module = fm;
    pd.fragment_entry = "shade_it";
    tr_pipeline *pl = NULL;
    const tr_result r = tr_pipeline_create(ctx, &pd, &pl);
    cr_expect_neq(r, TR_OK);
    cr_expect_null(pl);
    expect_msg(ctx, "shade_it");
    /* a vertex module given as the fragment stage has no fragment entry point "main" */
    pd.fragment_entry = NULL;
    pd.fragment_module = vm;
    cr_expect_neq(tr_pipeline_create(ctx, &pd, &pl), TR_OK);
    expect_msg(ctx, "main");
    pd.fragment_module = fm;
    pd.vertex_entry = "main";
    TRT_OK(tr_pipeline_create(ctx, &pd, &pl));
    tr_pipeline_destroy(pl);
    tr_shader_module_destroy(vm);
    tr_shader_module_destroy(fm);
    tr_context_destroy(ctx);
}

/* HLSL with a named entry point: the module's entry is that name. */
Test(spirv_errors, hlsl_named_entry_point)
{
    tr_context *ctx = spvh_context(1, 0);
    size_t n = 0;
    uint32_t *words = spvh_compile_lang("float4 ps_main(float4 p : SV_Position) : SV_Target { return p; }\n",
                                        shaderc_fragment_shader, SPVH_HLSL, "ps_main", &n);
    cr_assert_not_null(words);
    tr_shader_module *fm = NULL;
    TRT_OK(spvh_module_words(ctx, words, n, &fm));
    tr_shader_module *vm = spvh_module(ctx, SPVH_FULLSCREEN_VS, shaderc_vertex_shader);
    tr_pipeline_desc pd = {0};
    pd.vertex_module = vm;
    pd.fragment_module = fm;
    tr_pipeline *pl = NULL;
    cr_expect_neq(tr_pipeline_create(ctx, &pd, &pl), TR_OK, "no entry point called main");
    pd.fragment_entry = "ps_main";
    TRT_OK(tr_pipeline_create(ctx, &pd, &pl));
    tr_pipeline_destroy(pl);
    tr_shader_module_destroy(vm);
    tr_shader_module_destroy(fm);
    free(words);
    tr_context_destroy(ctx);
}

/* ---- draws -------------------------------------------------------------------------------- */

Test(spirv_errors, draw_with_unbound_uniform_buffer)
{
    tr_context *ctx = spvh_context(1, 0);
    tr_shader_module *vm = spvh_module(ctx, SPVH_FULLSCREEN_VS, shaderc_vertex_shader);
    tr_shader_module *fm = spvh_module(ctx,
                                       "#version 450\nlayout(location = 0) out vec4 o;\n"
                                       "layout(binding = 0) uniform A { vec4 a; } ua;\n"
                                       "layout(binding = 2) uniform B { vec4 b; } ub;\n"
                                       "void main() { o = ua.a + ub.b; }\n",
                                       shaderc_fragment_shader);
    tr_pipeline_desc pd = {0};
    pd.vertex_module = vm;
    pd.fragment_module = fm;
    tr_pipeline *pl = NULL;
    TRT_OK(tr_pipeline_create(ctx, &pd, &pl));
    tr_image *img = trt_image(ctx, TR_FORMAT_R32G32B32A32_SFLOAT, 16, 16);
    const float v[4] = {1, 2, 3, 4};
    TRT_EXPECT(tr_cmd_bind_uniform_buffer(ctx, 0, v, sizeof v), TR_ERROR_INVALID_STATE); /* outside a pass */
    trt_begin_color(ctx, img, NULL);
    TRT_OK(tr_cmd_bind_pipeline(ctx, pl));
    TRT_OK(tr_cmd_bind_uniform_buffer(ctx, 0, v, sizeof v));
    TRT_EXPECT(tr_cmd_draw(ctx, 3, 1, 0, 0), TR_ERROR_INVALID_STATE);
    expect_msg(ctx, "binding 2");
    /* limits */
    cr_expect_neq(tr_cmd_bind_uniform_buffer(ctx, TR_MAX_UNIFORM_BUFFERS, v, sizeof v), TR_OK);
    static uint8_t big[TR_MAX_UNIFORM_BUFFER_BYTES + 16];
    cr_expect_neq(tr_cmd_bind_uniform_buffer(ctx, 2, big, sizeof big), TR_OK);
    TRT_OK(tr_cmd_bind_uniform_buffer(ctx, 2, big, TR_MAX_UNIFORM_BUFFER_BYTES));
    TRT_OK(tr_cmd_draw(ctx, 3, 1, 0, 0));
    /* unbinding makes the next draw fail again */
    TRT_OK(tr_cmd_bind_uniform_buffer(ctx, 2, NULL, 0));
    TRT_EXPECT(tr_cmd_draw(ctx, 3, 1, 0, 0), TR_ERROR_INVALID_STATE);
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    float px[4];
    tr_subresource sub = {0, 0, TR_ASPECT_COLOR, 0};
    float all[16 * 16 * 4];
    TRT_OK(tr_image_download(img, &sub, all, 0));
    memcpy(px, all, sizeof px);
    cr_expect(px[0] == 1.0f && px[1] == 2.0f && px[2] == 3.0f && px[3] == 4.0f, "the one good draw: %g %g %g %g",
              (double)px[0], (double)px[1], (double)px[2], (double)px[3]);
    tr_image_destroy(img);
    tr_pipeline_destroy(pl);
    tr_shader_module_destroy(vm);
    tr_shader_module_destroy(fm);
    tr_context_destroy(ctx);
}

Test(spirv_errors, draw_with_unbound_texture)
{
    tr_context *ctx = spvh_context(1, 0);
    tr_shader_module *vm = spvh_module(ctx, SPVH_FULLSCREEN_VS, shaderc_vertex_shader);
    tr_shader_module *fm = spvh_module(ctx,
                                       "#version 450\nlayout(location = 0) out vec4 o;\n"
                                       "layout(binding = 5) uniform sampler2D tex;\n"
                                       "void main() { o = texture(tex, gl_FragCoord.xy); }\n",
                                       shaderc_fragment_shader);
    tr_pipeline_desc pd = {0};
    pd.vertex_module = vm;
    pd.fragment_module = fm;
    tr_pipeline *pl = NULL;
    TRT_OK(tr_pipeline_create(ctx, &pd, &pl));
    tr_image *img = trt_image(ctx, TR_FORMAT_R32G32B32A32_SFLOAT, 16, 16);
    trt_begin_color(ctx, img, NULL);
    TRT_OK(tr_cmd_bind_pipeline(ctx, pl));
    const tr_result r = tr_cmd_draw(ctx, 3, 1, 0, 0);
    cr_expect_neq(r, TR_OK, "the shader samples slot 5 (texture_mask derived from the module)");
    expect_msg(ctx, "5");
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    tr_image_destroy(img);
    tr_pipeline_destroy(pl);
    tr_shader_module_destroy(vm);
    tr_shader_module_destroy(fm);
    tr_context_destroy(ctx);
}

/* What tilerast does not run is refused when the module is created, by
 * name (issue 30: "refused at module creation with the unsupported
 * capability or instruction named"); a module that is accepted makes a
 * pipeline that draws. */
static void refused_early_or_runs(const char *vs, const char *fs, const char *what, const char *needle)
{
    tr_context *ctx = spvh_context(1, 0);
    size_t nv = 0, nf = 0;
    uint32_t *wv = spvh_compile(vs ? vs : SPVH_FULLSCREEN_VS, shaderc_vertex_shader, &nv);
    uint32_t *wf = spvh_compile(fs, shaderc_fragment_shader, &nf);
    cr_assert(wv && wf);
    tr_shader_module *vm = NULL, *fm = NULL;
    const tr_result rv = spvh_module_words(ctx, wv, nv, &vm);
    char msg[512];
    snprintf(msg, sizeof msg, "%s", tr_context_last_error(ctx));
    const tr_result rf = rv == TR_OK ? spvh_module_words(ctx, wf, nf, &fm) : TR_OK;
    if (rv == TR_OK)
        snprintf(msg, sizeof msg, "%s", tr_context_last_error(ctx));
    if (rv != TR_OK || rf != TR_OK) {
        cr_expect_eq(rv != TR_OK ? rv : rf, TR_ERROR_UNSUPPORTED_FORMAT, "%s: %s", what, msg);
        cr_log_info("%s: refused at module creation: %s", what, msg);
        cr_expect(strstr(msg, needle) != NULL, "%s: the message names the instruction / capability \"%s\": %s", what,
                  needle, msg);
    } else {
        tr_pipeline_desc pd = {0};
        pd.vertex_module = vm;
        pd.fragment_module = fm;
        tr_pipeline *pl = NULL;
        const tr_result rp = tr_pipeline_create(ctx, &pd, &pl);
        cr_expect_eq(rp, TR_OK, "%s: the modules were accepted, but tr_pipeline_create: %s", what,
                     tr_context_last_error(ctx));
        tr_pipeline_destroy(pl);
    }
    tr_shader_module_destroy(vm);
    tr_shader_module_destroy(fm);
    free(wv);
    free(wf);
    tr_context_destroy(ctx);
}

Test(spirv_errors, unsupported_refused_at_module_creation_gather)
{
    refused_early_or_runs(NULL,
                          "#version 450\nlayout(location = 0) out vec4 o;\nlayout(binding = 0) uniform sampler2D t;\n"
                          "void main() { o = textureGather(t, gl_FragCoord.xy * 0.1); }\n",
                          "textureGather", "ImageGather");
}

Test(spirv_errors, unsupported_refused_at_module_creation_clip_distance)
{
    refused_early_or_runs("#version 450\nvoid main() { gl_Position = vec4(0.0); gl_ClipDistance[0] = 1.0; }\n",
                          "#version 450\nlayout(location = 0) out vec4 o;\nvoid main() { o = vec4(1.0); }\n",
                          "gl_ClipDistance", "ClipDistance");
}

Test(spirv_errors, unsupported_refused_at_module_creation_sample_mask)
{
    refused_early_or_runs(NULL,
                          "#version 450\nlayout(location = 0) out vec4 o;\n"
                          "void main() { gl_SampleMask[0] = 1; o = vec4(1.0); }\n",
                          "gl_SampleMask", "SampleMask");
}

Test(spirv_errors, unsupported_refused_at_module_creation_interpolate_at)
{
    refused_early_or_runs("#version 450\nlayout(location = 0) out vec4 c;\n"
                          "void main() { gl_Position = vec4(0.0); c = vec4(1.0); }\n",
                          "#version 450\nlayout(location = 0) in vec4 c;\nlayout(location = 0) out vec4 o;\n"
                          "void main() { o = interpolateAtOffset(c, vec2(0.1)); }\n",
                          "interpolateAtOffset", "InterpolateAtOffset");
}
