/* hello_triangle: the smallest complete tilerast program.
 *
 * One triangle with a red, a green and a blue corner, drawn into a 256x256
 * RGBA8 image and written as a PNG (hello_triangle.png, or argv[1]).
 * The vertex shader takes its positions from a table indexed by
 * gl_VertexIndex; the fragment shader writes the interpolated colour. */
#include <stdio.h>
#include <stdlib.h>

#include <tilerast/tilerast.h>

/* Clip-space positions (x, y, z, w) and colours.  Vulkan's framebuffer has y
 * pointing down, so y = -0.8 is near the top of the image. */
static const float positions[3][4] = {
    { 0.0f, -0.8f, 0.5f, 1.0f},
    {-0.8f,  0.8f, 0.5f, 1.0f},
    { 0.8f,  0.8f, 0.5f, 1.0f},
};
static const float colors[3][4] = {
    {1.0f, 0.0f, 0.0f, 1.0f},
    {0.0f, 1.0f, 0.0f, 1.0f},
    {0.0f, 0.0f, 1.0f, 1.0f},
};

/* A batch holds up to TR_VS_LANES vertices as structure of arrays: one
 * loop over the lanes per output. */
static void vertex_shader(tr_vs_batch *b)
{
    for (uint32_t i = 0; i < b->count; i++) {
        uint32_t v = b->vertex_index[i];
        for (int c = 0; c < 4; c++) {
            b->position[c][i] = positions[v][c];
            b->varyings[0][c][i] = colors[v][c];
        }
    }
}

/* A block holds whole 2x2 quads (helper lanes included); writing every lane
 * is simpler than testing the live mask, and helpers' outputs are dropped. */
static void fragment_shader(tr_fs_block *b)
{
    for (int c = 0; c < 4; c++)
        for (uint32_t i = 0; i < b->count; i++)
            b->color[0][c][i] = b->varyings[0][c][i];
}

/* Prints a failed call's code and the context's message, and jumps out. */
#define CHECK(call)                                                              \
    do {                                                                         \
        tr_result r_ = (call);                                                   \
        if (r_ != TR_OK) {                                                       \
            fprintf(stderr, "hello_triangle: %s failed: %s (%s)\n", #call,       \
                    tr_result_string(r_), ctx ? tr_context_last_error(ctx) : ""); \
            goto fail;                                                           \
        }                                                                        \
    } while (0)

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "hello_triangle.png";
    tr_context *ctx = NULL;
    tr_image *color = NULL;
    tr_pipeline *pipeline = NULL;
    int status = EXIT_FAILURE;

    /* Every descriptor field left zero takes its default. */
    CHECK(tr_context_create(NULL, &ctx));
    CHECK(tr_image_create(ctx, &(tr_image_desc){
        .format = TR_FORMAT_R8G8B8A8_UNORM, .width = 256, .height = 256 }, &color));
    CHECK(tr_pipeline_create(ctx, &(tr_pipeline_desc){
        .vertex_shader = vertex_shader,
        .fragment_shader = fragment_shader,
        .varying_count = 1 }, &pipeline));

    CHECK(tr_cmd_begin_render_pass(ctx, &(tr_render_pass_desc){
        .color = {{ .image = color, .load_op = TR_LOAD_OP_CLEAR,
                    .clear_color = {0.1f, 0.1f, 0.12f, 1.0f} }},
        .color_count = 1 }));
    CHECK(tr_cmd_bind_pipeline(ctx, pipeline));
    CHECK(tr_cmd_draw(ctx, 3, 1, 0, 0));
    CHECK(tr_cmd_end_render_pass(ctx, NULL));

    CHECK(tr_image_write_png(color, NULL, path));
    printf("hello_triangle: wrote %s\n", path);
    status = EXIT_SUCCESS;
fail:
    /* Destroying the context would free these too; done here for clarity. */
    if (pipeline) tr_pipeline_destroy(pipeline);
    if (color) tr_image_destroy(color);
    if (ctx) tr_context_destroy(ctx);
    return status;
}
