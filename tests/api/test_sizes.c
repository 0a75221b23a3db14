/* Sizes refused up front (context.h, TR_MAX_OBJECT_BYTES and
 * memory_limit): an object or a pass's scratch that cannot exist is
 * refused before anything is allocated, the message giving the bytes; the
 * allocator is never asked for it. */
#include "trtest.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* An allocator that records the largest request it saw. */
static size_t largest;

static void *alloc_counting(void *user, size_t size, size_t align)
{
    (void)user;
    if (size > largest)
        largest = size;
    return size > ((size_t)1 << 30) ? NULL : aligned_alloc(align, (size + align - 1) / align * align);
}

static void free_counting(void *user, void *p)
{
    (void)user;
    free(p);
}

static tr_context *counting_context(size_t memory_limit)
{
    largest = 0;
    return trt_context_desc(&(tr_context_desc){.threads = 1,
                                               .allocator = {alloc_counting, free_counting, NULL},
                                               .memory_limit = memory_limit});
}

static void expect_message(const char *needle)
{
    cr_expect(strstr(tr_last_error(), needle) != NULL, "message \"%s\" lacks \"%s\"", tr_last_error(), needle);
}

Test(sizes, an_8_tib_image_is_refused_before_the_allocator_sees_it)
{
    tr_context *ctx = counting_context(0);
    tr_image *img = (tr_image *)ctx;
    cr_expect_eq(tr_image_create(ctx,
                                 &(tr_image_desc){.format = TR_FORMAT_R32G32B32A32_SFLOAT, .width = 16384,
                                                  .height = 16384, .layers = 2048},
                                 &img),
                 TR_ERROR_LIMIT_EXCEEDED);
    cr_expect_null(img);
    /* 16384 * 16384 * 2048 * 16 = 2^43 */
    expect_message("8796093022208 bytes");
    expect_message("TR_MAX_OBJECT_BYTES");
    cr_expect_lt(largest, (size_t)1 << 20, "the allocator was asked for %zu bytes", largest);
    /* the same with 8 samples and D32S8's stencil plane on top */
    cr_expect_eq(tr_image_create(ctx,
                                 &(tr_image_desc){.format = TR_FORMAT_D32_SFLOAT_S8_UINT, .width = 16384,
                                                  .height = 16384, .layers = 2048, .samples = 8},
                                 &img),
                 TR_ERROR_LIMIT_EXCEEDED);
    expect_message("tr_image_create");
    cr_expect_lt(largest, (size_t)1 << 20);
    tr_context_destroy(ctx);
}

Test(sizes, memory_limit_refuses_objects_up_front)
{
    tr_context *ctx = counting_context((size_t)1 << 20); /* 1 MiB */
    tr_image *img = NULL;
    cr_expect_eq(tr_image_create(ctx,
                                 &(tr_image_desc){.format = TR_FORMAT_R8G8B8A8_UNORM, .width = 1024, .height = 1024},
                                 &img),
                 TR_ERROR_OUT_OF_MEMORY);
    expect_message("4194304 bytes");
    expect_message("memory_limit");
    cr_expect_lt(largest, (size_t)1 << 20, "the allocator was asked for %zu bytes", largest);
    /* what fits beside what is held is made; then the rest is refused */
    tr_image *a = NULL, *b = NULL;
    TRT_OK(tr_image_create(ctx, &(tr_image_desc){.format = TR_FORMAT_R8G8B8A8_UNORM, .width = 256, .height = 512},
                           &a));
    cr_expect_eq(tr_image_create(ctx,
                                 &(tr_image_desc){.format = TR_FORMAT_R8G8B8A8_UNORM, .width = 256, .height = 512},
                                 &b),
                 TR_ERROR_OUT_OF_MEMORY);
    expect_message("beside what the context holds");
    TRT_OK(tr_image_destroy(a));
    TRT_OK(tr_image_create(ctx, &(tr_image_desc){.format = TR_FORMAT_R8G8B8A8_UNORM, .width = 256, .height = 512},
                           &b));
    /* a feedback map too: 16384^2 with 4x4 regions and 2048 layers */
    tr_feedback_map *m = NULL;
    cr_expect_eq(tr_feedback_map_create(ctx,
                                        &(tr_feedback_map_desc){.kind = TR_FEEDBACK_MIP_REGION_USED, .width = 16384,
                                                                .height = 16384, .layers = 2048,
                                                                .region_width = 4, .region_height = 4},
                                        &m),
                 TR_ERROR_OUT_OF_MEMORY);
    expect_message("tr_feedback_map_create");
    expect_message("memory_limit");
    tr_context_destroy(ctx);
}

Test(sizes, a_pass_whose_scratch_exceeds_the_limit_is_refused_at_begin)
{
    /* 8 threads' GMEM tiles alone (8 x 1 MiB) exceed a 2 MiB limit */
    tr_context *ctx = trt_context_desc(&(tr_context_desc){.threads = 8, .memory_limit = (size_t)2 << 20});
    tr_image *color = NULL;
    TRT_OK(tr_image_create(ctx, &(tr_image_desc){.format = TR_FORMAT_R8G8B8A8_UNORM, .width = 512, .height = 512},
                           &color));
    const tr_context_desc cd = tr_context_get_desc(ctx);
    const tr_render_pass_desc rp = {.color = {{.image = color}}, .color_count = 1};
    if (cd.threads < 8) { /* built without OpenMP: one thread, one tile, which fits */
        TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
        TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    } else {
        cr_expect_eq(tr_cmd_begin_render_pass(ctx, &rp), TR_ERROR_OUT_OF_MEMORY);
        expect_message("the pass's scratch");
        expect_message("memory_limit");
        /* not recording: the context is usable */
        cr_expect_eq(tr_cmd_end_render_pass(ctx, NULL), TR_ERROR_INVALID_STATE);
    }
    tr_context_destroy(ctx);
}
