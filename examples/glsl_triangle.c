/* glsl_triangle: shaders written in GLSL instead of C.
 *
 * The same picture as hello_triangle, but the vertex and fragment shaders
 * are GLSL 4.50 (Vulkan flavour), compiled to SPIR-V at run time with
 * shaderc (Debian's libshaderc-dev) and handed to tilerast as shader
 * modules.  The vertex positions come from a vertex buffer (location 0),
 * the colours from a uniform block (binding 0), and a push constant dims
 * the result: the three ways data reaches a SPIR-V shader (shader.h).
 * Writes glsl_triangle.png, or argv[1]. */
#include <shaderc/shaderc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tilerast/tilerast.h>

static const char vertex_glsl[] =
    "#version 450\n"
    "layout(location = 0) in vec4 position;\n"
    "layout(binding = 0) uniform Colors { vec4 corner[3]; } colors;\n"
    "layout(location = 0) out vec4 color;\n"
    "void main() {\n"
    "    gl_Position = position;\n"
    "    color = colors.corner[gl_VertexIndex % 3];\n"
    "}\n";

static const char fragment_glsl[] =
    "#version 450\n"
    "layout(push_constant) uniform Push { float brightness; } push;\n"
    "layout(location = 0) in vec4 color;\n"
    "layout(location = 0) out vec4 result;\n"
    "void main() {\n"
    "    result = vec4(color.rgb * push.brightness, color.a);\n"
    "}\n";

/* Clip-space positions; Vulkan's y points down, so y = -0.8 is near the top. */
static const float positions[3][4] = {
    { 0.0f, -0.8f, 0.5f, 1.0f},
    {-0.8f,  0.8f, 0.5f, 1.0f},
    { 0.8f,  0.8f, 0.5f, 1.0f},
};
/* std140: an array of vec4 is 16 bytes an element, as in C. */
static const float corners[3][4] = {
    {1.0f, 0.0f, 0.0f, 1.0f},
    {0.0f, 1.0f, 0.0f, 1.0f},
    {0.0f, 0.0f, 1.0f, 1.0f},
};

/* GLSL to a tilerast module; NULL (after printing why) on failure. */
static tr_shader_module *compile(tr_context *ctx, shaderc_compiler_t compiler, const char *src,
                                 shaderc_shader_kind kind, const char *name)
{
    shaderc_compile_options_t opts = shaderc_compile_options_initialize();
    shaderc_compile_options_set_target_env(opts, shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_1);
    shaderc_compilation_result_t res = shaderc_compile_into_spv(compiler, src, strlen(src), kind, name, "main", opts);
    tr_shader_module *module = NULL;
    if (shaderc_result_get_compilation_status(res) != shaderc_compilation_status_success) {
        fprintf(stderr, "glsl_triangle: %s: %s\n", name, shaderc_result_get_error_message(res));
    } else {
        const tr_shader_module_desc desc = {
            .code = (const uint32_t *)shaderc_result_get_bytes(res),
            .code_size = shaderc_result_get_length(res),
        };
        /* the module copies the words: the compiler's result can go */
        if (tr_shader_module_create(ctx, &desc, &module) != TR_OK)
            fprintf(stderr, "glsl_triangle: %s: %s\n", name, tr_context_last_error(ctx));
    }
    shaderc_result_release(res);
    shaderc_compile_options_release(opts);
    return module;
}

#define CHECK(call)                                                              \
    do {                                                                         \
        tr_result r_ = (call);                                                   \
        if (r_ != TR_OK) {                                                       \
            fprintf(stderr, "glsl_triangle: %s failed: %s (%s)\n", #call,        \
                    tr_result_string(r_), ctx ? tr_context_last_error(ctx) : ""); \
            goto fail;                                                           \
        }                                                                        \
    } while (0)

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "glsl_triangle.png";
    tr_context *ctx = NULL;
    tr_image *color = NULL;
    tr_pipeline *pipeline = NULL;
    tr_shader_module *vs = NULL, *fs = NULL;
    int status = EXIT_FAILURE;
    shaderc_compiler_t compiler = shaderc_compiler_initialize();

    CHECK(tr_context_create(NULL, &ctx));
    vs = compile(ctx, compiler, vertex_glsl, shaderc_vertex_shader, "triangle.vert");
    fs = compile(ctx, compiler, fragment_glsl, shaderc_fragment_shader, "triangle.frag");
    if (!vs || !fs)
        goto fail;
    CHECK(tr_image_create(ctx, &(tr_image_desc){
        .format = TR_FORMAT_R8G8B8A8_UNORM, .width = 256, .height = 256 }, &color));
    /* The module says what a C pipeline would state by hand (varyings,
     * flat or not, textures, discard): only the fixed-function state and
     * the vertex input layout are given here. */
    CHECK(tr_pipeline_create(ctx, &(tr_pipeline_desc){
        .vertex_module = vs,
        .fragment_module = fs,
        .bindings = {{ .stride = sizeof positions[0] }},
        .attributes = {{ .format = TR_VERTEX_FORMAT_R32G32B32A32_SFLOAT, .binding = 0 }} }, &pipeline));
    /* Pipelines keep what they need: the modules may go now. */
    tr_shader_module_destroy(vs);
    tr_shader_module_destroy(fs);
    vs = fs = NULL;

    const float brightness = 0.9f;
    CHECK(tr_cmd_begin_render_pass(ctx, &(tr_render_pass_desc){
        .color = {{ .image = color, .load_op = TR_LOAD_OP_CLEAR,
                    .clear_color = {0.1f, 0.1f, 0.12f, 1.0f} }},
        .color_count = 1 }));
    CHECK(tr_cmd_bind_pipeline(ctx, pipeline));
    CHECK(tr_cmd_bind_vertex_buffer(ctx, 0, positions, sizeof positions, 0));
    CHECK(tr_cmd_bind_uniform_buffer(ctx, 0, corners, sizeof corners));
    CHECK(tr_cmd_set_uniforms(ctx, &brightness, sizeof brightness));
    CHECK(tr_cmd_draw(ctx, 3, 1, 0, 0));
    CHECK(tr_cmd_end_render_pass(ctx, NULL));

    CHECK(tr_image_write_png(color, NULL, path));
    printf("glsl_triangle: wrote %s\n", path);
    status = EXIT_SUCCESS;
fail:
    tr_shader_module_destroy(vs);
    tr_shader_module_destroy(fs);
    if (pipeline) tr_pipeline_destroy(pipeline);
    if (color) tr_image_destroy(color);
    if (ctx) tr_context_destroy(ctx);
    shaderc_compiler_release(compiler);
    return status;
}
