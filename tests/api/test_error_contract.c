/* The error contract (result.h): every call that returns a tr_result
 * clears the thread's message and its context's when it begins, and sets
 * both when it fails; calls without a context (tr_context_create, the pure
 * helpers, the scene reader) leave theirs in tr_last_error.  Destroy calls
 * refuse objects the recording pass uses, and say so. */
#include "trtest.h"

#include <stdint.h>
#include <string.h>

static void expect_named(const char *message, const char *arg)
{
    cr_expect(message[0] != '\0', "no message (expected one naming %s)", arg);
    cr_expect(strstr(message, arg) != NULL, "message \"%s\" does not name %s", message, arg);
}

Test(error_contract, context_create_failures_have_a_message)
{
    static const struct {
        tr_context_desc desc;
        tr_result code;
        const char *arg;
    } cases[] = {
        {{.gmem_bytes = 1}, TR_ERROR_INVALID_DESCRIPTOR, "gmem_bytes"},
        {{.tile_max_w = 1}, TR_ERROR_INVALID_DESCRIPTOR, "tile_max_w"},
        {{.tile_align_w = 12}, TR_ERROR_INVALID_DESCRIPTOR, "tile_align_w"},
        {{.device = (tr_device)99}, TR_ERROR_INVALID_ARGUMENT, "device"},
        {{.threads = 100000}, TR_ERROR_LIMIT_EXCEEDED, "threads"},
        {{.flags = 0x80}, TR_ERROR_INVALID_ARGUMENT, "flags"},
        {{.simd = (tr_simd_level)9}, TR_ERROR_INVALID_ARGUMENT, "simd"},
        {{.allocator = {.user = NULL, .free = NULL, .alloc = NULL}, .memory_limit = 1}, TR_ERROR_OUT_OF_MEMORY,
         "memory_limit"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        tr_context *ctx = (tr_context *)&ctx; /* not NULL: the call must set it */
        cr_expect_eq(tr_context_create(&cases[i].desc, &ctx), cases[i].code, "case %zu", i);
        cr_expect_null(ctx);
        expect_named(tr_last_error(), cases[i].arg);
    }
    cr_expect_eq(tr_context_create(NULL, NULL), TR_ERROR_INVALID_ARGUMENT);
    expect_named(tr_last_error(), "out");
    /* the next call that succeeds clears it */
    tr_context *ctx = NULL;
    TRT_OK(tr_context_create(NULL, &ctx));
    cr_expect_str_eq(tr_last_error(), "");
    tr_context_destroy(ctx);
}

Test(error_contract, helpers_without_a_context_have_a_message)
{
    float pos[2];
    cr_expect_eq(tr_sample_position(3, 0, pos), TR_ERROR_INVALID_ARGUMENT);
    expect_named(tr_last_error(), "samples");
    cr_expect_eq(tr_sample_position(4, 4, pos), TR_ERROR_OUT_OF_RANGE);
    expect_named(tr_last_error(), "index");
    TRT_OK(tr_sample_position(4, 3, pos));
    cr_expect_str_eq(tr_last_error(), "");

    tr_attribute_record rec;
    cr_expect_eq(tr_attribute_record_for((tr_input_rate)7, 0, 3, 1, &rec), TR_ERROR_INVALID_ARGUMENT);
    expect_named(tr_last_error(), "rate");
    cr_expect_eq(tr_attribute_record_for(TR_INPUT_RATE_VERTEX, 0, 3, 1, NULL), TR_ERROR_INVALID_ARGUMENT);
    expect_named(tr_last_error(), "out");
    cr_expect_eq(tr_attribute_record_for(TR_INPUT_RATE_VERTEX, 0, 0x10001, 0x10001, &rec), TR_ERROR_LIMIT_EXCEEDED);
    expect_named(tr_last_error(), "instance_count");

    tr_fdm_bin_transform_result t;
    tr_fdm_bin_desc fd = {.bin = {64, 64}, .framebuffer = {128, 128}, .frag_area = {3, 1}};
    cr_expect_eq(tr_fdm_bin_transform(&fd, &t), TR_ERROR_INVALID_DESCRIPTOR);
    expect_named(tr_last_error(), "frag_area");
    fd.frag_area = (tr_extent2d){1, 1};
    fd.bin_x = 9;
    cr_expect_eq(tr_fdm_bin_transform(&fd, &t), TR_ERROR_OUT_OF_RANGE);
    expect_named(tr_last_error(), "bin_x");

    tr_scene sc;
    char msg[128];
    cr_expect_eq(tr_scene_parse("nope", 4, &sc, msg, sizeof msg), TR_ERROR_BAD_FILE);
    cr_expect_str_eq(tr_last_error(), msg, "the thread's message is the one the caller's buffer got");
    cr_expect_eq(tr_scene_load("/nonexistent/scene.scn", &sc, NULL, 0), TR_ERROR_IO);
    expect_named(tr_last_error(), "cannot open");
    cr_expect_eq(tr_scene_save(NULL, "x"), TR_ERROR_INVALID_ARGUMENT);
    expect_named(tr_last_error(), "scene");
}

/* The stale-message defect: after an error, a call that succeeds must not
 * leave the old text behind, on the context or the thread. */
Test(error_contract, a_call_that_succeeds_clears_the_message)
{
    tr_context *ctx = trt_context(1);
    tr_image *img = NULL;
    cr_expect_eq(tr_image_create(ctx, &(tr_image_desc){.format = TR_FORMAT_R8G8B8A8_UNORM}, &img),
                 TR_ERROR_INVALID_DESCRIPTOR);
    expect_named(tr_context_last_error(ctx), "width");
    cr_expect_str_eq(tr_context_last_error(ctx), tr_last_error());
    TRT_OK(tr_image_create(ctx, &(tr_image_desc){.format = TR_FORMAT_R8G8B8A8_UNORM, .width = 4, .height = 4},
                           &img));
    cr_expect_str_eq(tr_context_last_error(ctx), "");
    cr_expect_str_eq(tr_last_error(), "");
    /* calls through an object count as calls through its context */
    uint8_t px[64];
    cr_expect_eq(tr_image_download(img, &(tr_subresource){.level = 3}, px, 0), TR_ERROR_OUT_OF_RANGE);
    expect_named(tr_context_last_error(ctx), "level");
    TRT_OK(tr_image_download(img, NULL, px, 0));
    cr_expect_str_eq(tr_context_last_error(ctx), "");
    /* getters (no tr_result) leave the message alone */
    cr_expect_eq(tr_cmd_draw(ctx, 3, 1, 0, 0), TR_ERROR_INVALID_STATE);
    (void)tr_image_get_desc(img);
    (void)tr_context_get_desc(ctx);
    expect_named(tr_context_last_error(ctx), "no render pass");
    /* a context's message is its own: another context's success leaves it */
    tr_context *other = trt_context(1);
    TRT_OK(tr_image_fill(img, NULL, (const float[4]){0, 0, 0, 0}));
    cr_expect_str_eq(tr_context_last_error(ctx), "");
    cr_expect_eq(tr_cmd_draw(ctx, 3, 1, 0, 0), TR_ERROR_INVALID_STATE);
    tr_image *oimg = NULL;
    TRT_OK(tr_image_create(other, &(tr_image_desc){.format = TR_FORMAT_R8_UNORM, .width = 1, .height = 1}, &oimg));
    expect_named(tr_context_last_error(ctx), "no render pass");
    cr_expect_str_eq(tr_last_error(), "");
    tr_context_destroy(other);
    tr_context_destroy(ctx);
}

static void fs_white(tr_fs_block *b)
{
    for (int c = 0; c < 4; c++)
        for (uint32_t i = 0; i < b->count; i++)
            b->color[0][c][i] = 1.0f;
}

Test(error_contract, destroy_refuses_what_the_pass_uses_and_says_so)
{
    tr_context *ctx = trt_context(1);
    tr_image *img = NULL, *tex = NULL;
    TRT_OK(tr_image_create(ctx, &(tr_image_desc){.format = TR_FORMAT_R8G8B8A8_UNORM, .width = 8, .height = 8},
                           &img));
    TRT_OK(tr_image_create(ctx, &(tr_image_desc){.format = TR_FORMAT_R8G8B8A8_UNORM, .width = 8, .height = 8},
                           &tex));
    tr_pipeline *pipe = trt_pipeline(ctx, &(tr_pipeline_desc){.fragment_shader = fs_white});
    tr_sampler *smp = NULL;
    TRT_OK(tr_sampler_create(ctx, &(tr_sampler_desc){0}, &smp));
    tr_feedback_map *fb = NULL;
    TRT_OK(tr_feedback_map_create(ctx, &(tr_feedback_map_desc){.kind = TR_FEEDBACK_MIN_MIP, .width = 8, .height = 8,
                                                                .region_width = 4, .region_height = 4},
                                  &fb));
    TRT_OK(tr_cmd_begin_render_pass(ctx, &(tr_render_pass_desc){.color = {{.image = img}}, .color_count = 1}));
    TRT_OK(tr_cmd_bind_pipeline(ctx, pipe));
    TRT_OK(tr_cmd_bind_texture(ctx, 0, tex, smp));
    TRT_OK(tr_cmd_bind_feedback_map(ctx, 0, fb));
    cr_expect_eq(tr_image_destroy(img), TR_ERROR_INVALID_STATE);
    expect_named(tr_last_error(), "attachment");
    cr_expect_eq(tr_image_destroy(tex), TR_ERROR_INVALID_STATE);
    expect_named(tr_last_error(), "texture");
    cr_expect_eq(tr_pipeline_destroy(pipe), TR_ERROR_INVALID_STATE);
    expect_named(tr_last_error(), "tr_pipeline_destroy");
    cr_expect_eq(tr_sampler_destroy(smp), TR_ERROR_INVALID_STATE);
    expect_named(tr_last_error(), "tr_sampler_destroy");
    cr_expect_eq(tr_feedback_map_destroy(fb), TR_ERROR_INVALID_STATE);
    expect_named(tr_context_last_error(ctx), "tr_feedback_map_destroy");
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    /* nothing was freed: all still work, and now go */
    TRT_OK(tr_image_fill(img, NULL, (const float[4]){0, 0, 0, 0}));
    TRT_OK(tr_image_destroy(img));
    TRT_OK(tr_image_destroy(tex));
    TRT_OK(tr_pipeline_destroy(pipe));
    TRT_OK(tr_sampler_destroy(smp));
    TRT_OK(tr_feedback_map_destroy(fb));
    TRT_OK(tr_image_destroy(NULL));
    cr_expect_str_eq(tr_context_last_error(ctx), "");
    tr_context_destroy(ctx);
}

Test(error_contract, format_names)
{
    cr_expect_str_eq(tr_format_name(TR_FORMAT_R8G8B8A8_UNORM), "R8G8B8A8_UNORM");
    cr_expect_str_eq(tr_format_name(TR_FORMAT_UNDEFINED), "UNDEFINED");
    cr_expect_str_eq(tr_format_name((tr_format)999), "unknown");
    cr_expect_str_eq(tr_format_name((tr_format)-1), "unknown");
}
