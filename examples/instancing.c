/* instancing: vertex buffers, per-instance attributes and Mali's records.
 *
 * A hexagon (a fan of 6 triangles, 18 vertices) is drawn 96 times in one
 * instanced draw, as a 12 x 8 grid.  Binding 0 holds the hexagon's corners
 * (per vertex), binding 1 each instance's grid position (divisor 1) and
 * binding 2 a palette read once per row of 12 instances (divisor 12).
 * Writes instancing.png (or argv[1]) and prints the attribute records a
 * Mali GPU would be given for this draw: 18 vertices pad to 18 slots, so
 * the grid positions are divided by 18 (not a power of two: magic) and the
 * palette by 18 x 12 = 216. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <tilerast/tilerast.h>

enum { COLS = 12, ROWS = 8, INSTANCES = COLS * ROWS, CORNERS = 18 };

typedef struct corner {
    float xy[2];
    uint8_t shade[4]; /* RGBA8, read as UNORM */
} corner;

/* locations: 0 corner position, 1 corner shade, 2 instance centre, 3 row colour */
static void vertex_shader(tr_vs_batch *b)
{
    for (uint32_t i = 0; i < b->count; i++) {
        b->position[0][i] = b->attrib.f[0][0][i] + b->attrib.f[2][0][i];
        b->position[1][i] = b->attrib.f[0][1][i] + b->attrib.f[2][1][i];
        b->position[2][i] = 0.5f;
        b->position[3][i] = 1.0f;
        for (int c = 0; c < 4; c++)
            b->varyings[0][c][i] = b->attrib.f[1][c][i] * b->attrib.f[3][c][i];
    }
}

static void fragment_shader(tr_fs_block *b)
{
    for (int c = 0; c < 4; c++)
        for (uint32_t i = 0; i < b->count; i++)
            b->color[0][c][i] = b->varyings[0][c][i];
}

static const char *mode_name(tr_attribute_mode m)
{
    switch (m) {
    case TR_ATTRIBUTE_MODE_LINEAR: return "LINEAR";
    case TR_ATTRIBUTE_MODE_POT_DIVISOR: return "POT_DIVISOR";
    case TR_ATTRIBUTE_MODE_MODULUS: return "MODULUS";
    default: return "NPOT_DIVISOR";
    }
}

static void print_record(const char *what, tr_input_rate rate, uint32_t divisor)
{
    tr_attribute_record r;
    if (tr_attribute_record_for(rate, divisor, CORNERS, INSTANCES, &r) != TR_OK)
        return;
    printf("  %-16s %-12s padded %u", what, mode_name(r.mode), r.padded_count);
    if (r.mode == TR_ATTRIBUTE_MODE_MODULUS || r.mode == TR_ATTRIBUTE_MODE_POT_DIVISOR)
        printf(", shift %u, odd %u (Divisor field 0x%02x)", r.shift, r.odd, r.divisor_field);
    if (r.mode == TR_ATTRIBUTE_MODE_NPOT_DIVISOR)
        printf(", divide by %u: magic 0x%08x shift %u extra %u", r.hw_divisor, r.magic.magic, r.magic.shift,
               r.magic.extra);
    printf("\n");
}

#define CHECK(call)                                                              \
    do {                                                                         \
        tr_result r_ = (call);                                                   \
        if (r_ != TR_OK) {                                                       \
            fprintf(stderr, "instancing: %s failed: %s (%s)\n", #call,           \
                    tr_result_string(r_), ctx ? tr_context_last_error(ctx) : ""); \
            goto fail;                                                           \
        }                                                                        \
    } while (0)

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "instancing.png";
    tr_context *ctx = NULL;
    tr_image *color = NULL;
    tr_pipeline *pipeline = NULL;
    int status = EXIT_FAILURE;

    /* The hexagon as a triangle list: centre, corner k, corner k + 1. */
    corner hex[CORNERS];
    const float r = 0.075f;
    for (int k = 0; k < 6; k++) {
        float a0 = (float)k * 1.0471976f, a1 = (float)(k + 1) * 1.0471976f;
        corner *t = &hex[3 * k];
        t[0] = (corner){{0.0f, 0.0f}, {255, 255, 255, 255}};
        t[1] = (corner){{r * cosf(a0), r * sinf(a0) * 1.5f}, {90, 90, 110, 255}};
        t[2] = (corner){{r * cosf(a1), r * sinf(a1) * 1.5f}, {90, 90, 110, 255}};
    }
    float centres[INSTANCES][2];
    for (int i = 0; i < INSTANCES; i++) {
        int col = i % COLS, row = i / COLS;
        centres[i][0] = -0.85f + 1.7f * (float)col / (COLS - 1) + (row % 2 ? 0.07f : 0.0f);
        centres[i][1] = -0.8f + 1.6f * (float)row / (ROWS - 1);
    }
    uint8_t palette[ROWS][4];
    for (int row = 0; row < ROWS; row++) {
        palette[row][0] = (uint8_t)(255 - 28 * row);
        palette[row][1] = (uint8_t)(60 + 24 * row);
        palette[row][2] = (uint8_t)(120 + 16 * row);
        palette[row][3] = 255;
    }

    CHECK(tr_context_create(NULL, &ctx));
    CHECK(tr_image_create(ctx, &(tr_image_desc){
        .format = TR_FORMAT_R8G8B8A8_UNORM, .width = 640, .height = 400 }, &color));
    CHECK(tr_pipeline_create(ctx, &(tr_pipeline_desc){
        .vertex_shader = vertex_shader,
        .fragment_shader = fragment_shader,
        .varying_count = 1,
        .bindings = {
            { .stride = sizeof(corner) },
            { .stride = sizeof centres[0], .input_rate = TR_INPUT_RATE_INSTANCE, .divisor = 1 },
            { .stride = sizeof palette[0], .input_rate = TR_INPUT_RATE_INSTANCE, .divisor = COLS },
        },
        .attributes = {
            { TR_VERTEX_FORMAT_R32G32_SFLOAT, 0, 0 },
            { TR_VERTEX_FORMAT_R8G8B8A8_UNORM, 0, sizeof(float) * 2 },
            { TR_VERTEX_FORMAT_R32G32_SFLOAT, 1, 0 },
            { TR_VERTEX_FORMAT_R8G8B8A8_UNORM, 2, 0 },
        } }, &pipeline));

    CHECK(tr_cmd_begin_render_pass(ctx, &(tr_render_pass_desc){
        .color = {{ .image = color, .load_op = TR_LOAD_OP_CLEAR,
                    .clear_color = {0.08f, 0.08f, 0.1f, 1.0f} }},
        .color_count = 1 }));
    CHECK(tr_cmd_bind_pipeline(ctx, pipeline));
    CHECK(tr_cmd_bind_vertex_buffer(ctx, 0, hex, sizeof hex, 0));
    CHECK(tr_cmd_bind_vertex_buffer(ctx, 1, centres, sizeof centres, 0));
    CHECK(tr_cmd_bind_vertex_buffer(ctx, 2, palette, sizeof palette, 0));
    CHECK(tr_cmd_draw(ctx, CORNERS, INSTANCES, 0, 0));
    tr_pass_stats stats;
    CHECK(tr_cmd_end_render_pass(ctx, &stats));

    printf("instancing: %u vertices x %u instances -> %llu linear ids, %llu triangles\n", CORNERS, INSTANCES,
           (unsigned long long)stats.vertex_linear_ids, (unsigned long long)stats.primitives_in);
    print_record("corners", TR_INPUT_RATE_VERTEX, 0);
    print_record("grid position", TR_INPUT_RATE_INSTANCE, 1);
    print_record("row colour", TR_INPUT_RATE_INSTANCE, COLS);

    CHECK(tr_image_write_png(color, NULL, path));
    printf("instancing: wrote %s\n", path);
    status = EXIT_SUCCESS;
fail:
    if (pipeline) tr_pipeline_destroy(pipeline);
    if (color) tr_image_destroy(color);
    if (ctx) tr_context_destroy(ctx);
    return status;
}
