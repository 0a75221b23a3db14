/* Hostile API calls, table-driven: well over 100 distinct bad calls across
 * every public header, each refused with its exact code and a message naming
 * the argument or field, the thread's message equal to the context's, the
 * caller's output memory untouched, and the context cleared by the next call
 * that succeeds and still able to render (result.h, README.md "Errors"). */
#include "trtest.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- the fixture -------------------------------------------------------------------------- */

#define CANARY 0xA5
#define BUF_BYTES ((size_t)1 << 17)
/* Every path lies in a directory that does not exist: a call that wrongly
 * gets as far as writing fails with TR_ERROR_IO and leaves no file. */
#define NOWHERE "/nonexistent-tilerast-hostile/out.png"

static char sentinel_byte;
#define SENTINEL ((void *)&sentinel_byte)

typedef struct fixture {
    const char *name;                   /* the entry's, for setup failures */
    tr_context *ctx;                    /* one thread (see fixture_init): entries go through it ... */
    tr_context *used;                   /* ... unless the entry names another here */
    tr_context *other;                  /* objects of a second context */
    tr_context *limited;                /* a context an entry makes itself (memory_limit) */
    tr_image *rgba;                     /* R8G8B8A8_UNORM 64x64 */
    tr_image *ds;                       /* D32_SFLOAT_S8_UINT 64x64 */
    tr_image *ms, *ms2;                 /* R8G8B8A8_UNORM 64x64, 4 samples */
    tr_image *r8;                       /* R8_UNORM 64x64 */
    tr_image *sub;                      /* R8G8B8A8_UNORM 64x64, TR_IMAGE_SUBSAMPLED */
    tr_image *tex;                      /* R8G8B8A8_UNORM 64x64, the whole mip chain (7 levels) */
    tr_image *fdm;                      /* R8G8_UNORM 64x64 density map, density 1 */
    tr_image *small;                    /* R8G8B8A8_UNORM 32x32 */
    tr_image *u32;                      /* R32_UINT 8x8 */
    tr_pipeline *pipe;
    tr_sampler *smp, *cmp_smp, *lin_smp; /* default, compare LESS, linear */
    tr_feedback_map *fb;                /* MinMip paired with tex (64x64, 7 levels, 8x8 regions) */
    tr_feedback_map *fb_mru;            /* MipRegionUsed 64x64, 3 levels, 8x8 regions */
    tr_image *o_img;                    /* the second context's */
    tr_pipeline *o_pipe;
    tr_sampler *o_smp;
    tr_feedback_map *o_fb;
    uint8_t *buf;                       /* BUF_BYTES of CANARY: output a failed call must not touch */
    /* create outputs, preset to SENTINEL: a failed create sets its own to NULL */
    tr_context *ctx_out;
    tr_image *img_out;
    tr_pipeline *pipe_out;
    tr_sampler *smp_out;
    tr_feedback_map *fb_out;
    /* outputs a failed call may legitimately write (documented) */
    tr_scene scene;                     /* tr_scene_parse/load zero it */
    size_t count;                       /* tr_compute_fdm_tiles sets it */
    tr_attribute_record rec;            /* tr_attribute_record_for writes it on LIMIT_EXCEEDED */
    tr_subsampled_header hdr;
} fixture;

/* The entry's setup: a failure is reported under the entry's name and the
 * entry fails with an impossible code. */
#define SETUP(call)                                                                                  \
    do {                                                                                             \
        tr_result s_ = (call);                                                                       \
        if (s_ != TR_OK) {                                                                           \
            cr_expect(0, "%s: setup %s returned %s (%s)", f->name, #call, tr_result_string(s_),      \
                      tr_last_error());                                                              \
            return (tr_result)1;                                                                     \
        }                                                                                            \
    } while (0)

static tr_image *fx_image(tr_context *ctx, tr_image_desc d)
{
    tr_image *img = NULL;
    TRT_OK(tr_image_create(ctx, &d, &img));
    return img;
}

static tr_pipeline_desc plain_pipeline(void)
{
    return (tr_pipeline_desc){.vertex_shader = trt_vs, .fragment_shader = trt_fs_varying, .varying_count = 1};
}

static void fixture_init(fixture *f, const char *name)
{
    memset(f, 0, sizeof *f);
    f->name = name;
    /* One thread: with two, libgomp's spinning workers made this file four
     * times slower on a busy two-core machine, for no extra coverage here. */
    f->ctx = trt_context(1);
    f->used = f->ctx;
    f->other = trt_context(1);
    const tr_format RGBA = TR_FORMAT_R8G8B8A8_UNORM;
    f->rgba = fx_image(f->ctx, (tr_image_desc){.format = RGBA, .width = 64, .height = 64});
    f->ds = fx_image(f->ctx, (tr_image_desc){.format = TR_FORMAT_D32_SFLOAT_S8_UINT, .width = 64, .height = 64});
    f->ms = fx_image(f->ctx, (tr_image_desc){.format = RGBA, .width = 64, .height = 64, .samples = 4});
    f->ms2 = fx_image(f->ctx, (tr_image_desc){.format = RGBA, .width = 64, .height = 64, .samples = 4});
    f->r8 = fx_image(f->ctx, (tr_image_desc){.format = TR_FORMAT_R8_UNORM, .width = 64, .height = 64});
    f->sub = fx_image(f->ctx,
                      (tr_image_desc){.format = RGBA, .width = 64, .height = 64, .flags = TR_IMAGE_SUBSAMPLED});
    f->tex = fx_image(f->ctx, (tr_image_desc){.format = RGBA, .width = 64, .height = 64, .levels = TR_LEVELS_ALL});
    f->fdm = fx_image(f->ctx, (tr_image_desc){.format = TR_FORMAT_R8G8_UNORM, .width = 64, .height = 64});
    TRT_OK(tr_image_fill(f->fdm, NULL, (const float[4]){1, 1, 0, 0}));
    f->small = fx_image(f->ctx, (tr_image_desc){.format = RGBA, .width = 32, .height = 32});
    f->u32 = fx_image(f->ctx, (tr_image_desc){.format = TR_FORMAT_R32_UINT, .width = 8, .height = 8});
    tr_pipeline_desc pd = plain_pipeline();
    TRT_OK(tr_pipeline_create(f->ctx, &pd, &f->pipe));
    TRT_OK(tr_sampler_create(f->ctx, &(tr_sampler_desc){0}, &f->smp));
    TRT_OK(tr_sampler_create(f->ctx, &(tr_sampler_desc){.compare = TR_COMPARE_LESS}, &f->cmp_smp));
    TRT_OK(tr_sampler_create(f->ctx, &(tr_sampler_desc){.mag_filter = TR_FILTER_LINEAR, .min_filter = TR_FILTER_LINEAR},
                             &f->lin_smp));
    TRT_OK(tr_feedback_map_create(f->ctx,
                                  &(tr_feedback_map_desc){.kind = TR_FEEDBACK_MIN_MIP, .width = 64, .height = 64,
                                                          .levels = 7, .region_width = 8, .region_height = 8},
                                  &f->fb));
    TRT_OK(tr_feedback_map_create(f->ctx,
                                  &(tr_feedback_map_desc){.kind = TR_FEEDBACK_MIP_REGION_USED, .width = 64,
                                                          .height = 64, .levels = 3, .region_width = 8,
                                                          .region_height = 8},
                                  &f->fb_mru));
    f->o_img = fx_image(f->other, (tr_image_desc){.format = RGBA, .width = 64, .height = 64});
    TRT_OK(tr_pipeline_create(f->other, &pd, &f->o_pipe));
    TRT_OK(tr_sampler_create(f->other, &(tr_sampler_desc){0}, &f->o_smp));
    TRT_OK(tr_feedback_map_create(f->other,
                                  &(tr_feedback_map_desc){.kind = TR_FEEDBACK_MIN_MIP, .width = 64, .height = 64,
                                                          .region_width = 8, .region_height = 8},
                                  &f->o_fb));
    f->buf = malloc(BUF_BYTES);
    cr_assert_not_null(f->buf);
    memset(f->buf, CANARY, BUF_BYTES);
    f->ctx_out = SENTINEL;
    f->img_out = SENTINEL;
    f->pipe_out = SENTINEL;
    f->smp_out = SENTINEL;
    f->fb_out = SENTINEL;
}

static void fixture_fini(fixture *f)
{
    if (f->ctx_out && f->ctx_out != SENTINEL)
        tr_context_destroy(f->ctx_out); /* a create that wrongly succeeded */
    tr_scene_free(&f->scene);
    free(f->buf);
    tr_context_destroy(f->limited);
    tr_context_destroy(f->other);
    tr_context_destroy(f->ctx);
}

/* The pass IN_PASS entries run in: colour rgba, depth/stencil ds. */
static tr_result begin_pass(fixture *f)
{
    tr_render_pass_desc d = trt_pass_desc(f->rgba, f->ds);
    return tr_cmd_begin_render_pass(f->ctx, &d);
}

/* ---- the table ----------------------------------------------------------------------------- */

#define NO_CTX 1u    /* the call has no context: only tr_last_error() holds the message */
#define IN_PASS 2u   /* runs inside a begun pass (colour rgba, depth/stencil ds) */
#define BOUND 4u     /* IN_PASS, with pipe bound, tex + smp in texture slot 0, fb in feedback slot 0 */
#define OUT_CTX 8u   /* a failed create must leave its *out NULL: tr_context_create */
#define OUT_IMG 16u  /* tr_image_create, tr_image_load */
#define OUT_PIPE 32u /* tr_pipeline_create */
#define OUT_SMP 64u  /* tr_sampler_create */
#define OUT_FB 128u  /* tr_feedback_map_create */
#define OPENS_PASS 256u /* the entry begins a pass of its own before the call */

typedef struct entry {
    const char *header; /* the public header the call belongs to */
    const char *name;
    tr_result (*call)(fixture *f);
    tr_result code;
    const char *needle; /* what the message must contain (case-sensitive) */
    unsigned flags;
} entry;

/* An entry whose call is one expression. */
#define CALL(id, expr)                                                                               \
    static tr_result id(fixture *f)                                                                  \
    {                                                                                                \
        (void)f;                                                                                     \
        return (expr);                                                                               \
    }

/* ---- context.h ---- */

static void *never_alloc(void *user, size_t size, size_t align)
{
    (void)user, (void)size, (void)align;
    return NULL;
}

static tr_result ctx_create(fixture *f, tr_context_desc d)
{
    return tr_context_create(&d, &f->ctx_out);
}
#define CTX(...) ctx_create(f, (tr_context_desc){__VA_ARGS__})

CALL(ctx_out_null, tr_context_create(NULL, NULL))
CALL(ctx_gmem_bytes_1, CTX(.threads = 1, .gmem_bytes = 1))
CALL(ctx_gmem_bytes_below_two_blocks, CTX(.threads = 1, .gmem_bytes = 8192, .tile_align_w = 64))
CALL(ctx_tile_max_w_1, CTX(.threads = 1, .tile_max_w = 1))
CALL(ctx_tile_max_h_over_limit, CTX(.threads = 1, .tile_max_h = TR_MAX_IMAGE_SIZE + 1))
CALL(ctx_device_99, CTX(.threads = 1, .device = (tr_device)99))
CALL(ctx_device_count, CTX(.threads = 1, .device = TR_DEVICE_COUNT))
CALL(ctx_threads_over_limit, CTX(.threads = TR_MAX_THREADS + 1))
CALL(ctx_simd_out_of_enum, CTX(.threads = 1, .simd = (tr_simd_level)4))
CALL(ctx_flags_unknown, CTX(.threads = 1, .flags = 0x80))
CALL(ctx_tile_align_w_12, CTX(.threads = 1, .tile_align_w = 12))
CALL(ctx_tile_align_h_2048, CTX(.threads = 1, .tile_align_h = 2048))
CALL(ctx_allocator_alloc_only, CTX(.threads = 1, .allocator = {.alloc = never_alloc}))
CALL(ctx_memory_limit_1, CTX(.threads = 1, .memory_limit = 1))

/* ---- image.h ---- */

static const tr_image_desc good_image = {.format = TR_FORMAT_R8G8B8A8_UNORM, .width = 8, .height = 8};

static tr_result img_create(fixture *f, tr_image_desc d)
{
    return tr_image_create(f->ctx, &d, &f->img_out);
}
#define IMG(...) img_create(f, (tr_image_desc){__VA_ARGS__})
#define RGBA8 TR_FORMAT_R8G8B8A8_UNORM

static const tr_subresource *sub_at(uint32_t level, uint32_t layer, tr_aspect aspect, uint32_t sample)
{
    static _Thread_local tr_subresource s;
    s = (tr_subresource){level, layer, aspect, sample};
    return &s;
}

CALL(img_create_ctx_null, tr_image_create(NULL, &good_image, &f->img_out))
CALL(img_create_desc_null, tr_image_create(f->ctx, NULL, &f->img_out))
CALL(img_create_out_null, tr_image_create(f->ctx, &good_image, NULL))
CALL(img_create_format_count, IMG(.format = TR_FORMAT_COUNT, .width = 8, .height = 8))
CALL(img_create_format_negative, IMG(.format = (tr_format)-3, .width = 8, .height = 8))
CALL(img_create_format_undefined, IMG(.format = TR_FORMAT_UNDEFINED, .width = 8, .height = 8))
CALL(img_create_flags_unknown, IMG(.format = RGBA8, .width = 8, .height = 8, .flags = 4))
CALL(img_create_width_0, IMG(.format = RGBA8, .width = 0, .height = 8))
CALL(img_create_height_0, IMG(.format = RGBA8, .width = 8, .height = 0))
CALL(img_create_width_over_limit, IMG(.format = RGBA8, .width = TR_MAX_IMAGE_SIZE + 1, .height = 8))
CALL(img_create_height_uint_max, IMG(.format = RGBA8, .width = 8, .height = UINT32_MAX))
CALL(img_create_layers_over_limit, IMG(.format = RGBA8, .width = 8, .height = 8, .layers = TR_MAX_IMAGE_LAYERS + 1))
CALL(img_create_levels_over_limit, IMG(.format = RGBA8, .width = 8, .height = 8, .levels = TR_MAX_IMAGE_LEVELS + 1))
CALL(img_create_levels_past_chain, IMG(.format = RGBA8, .width = 64, .height = 64, .levels = 8))
CALL(img_create_samples_3, IMG(.format = RGBA8, .width = 8, .height = 8, .samples = 3))
CALL(img_create_samples_16, IMG(.format = RGBA8, .width = 8, .height = 8, .samples = 16))
CALL(img_create_ms_with_levels, IMG(.format = RGBA8, .width = 8, .height = 8, .samples = 4, .levels = 2))
CALL(img_create_ms_subsampled, IMG(.format = RGBA8, .width = 8, .height = 8, .samples = 2, .flags = TR_IMAGE_SUBSAMPLED))
CALL(img_create_subsampled_depth,
     IMG(.format = TR_FORMAT_D32_SFLOAT, .width = 8, .height = 8, .flags = TR_IMAGE_SUBSAMPLED))
CALL(img_create_subsampled_levels, IMG(.format = RGBA8, .width = 8, .height = 8, .levels = 2, .flags = TR_IMAGE_SUBSAMPLED))
CALL(img_create_subsampled_layers,
     IMG(.format = RGBA8, .width = 8, .height = 8, .layers = TR_SUBSAMPLED_MAX_LAYERS + 1, .flags = TR_IMAGE_SUBSAMPLED))
CALL(img_destroy_colour_attachment, tr_image_destroy(f->rgba))
CALL(img_destroy_depth_attachment, tr_image_destroy(f->ds))
CALL(img_destroy_bound_texture, tr_image_destroy(f->tex))
CALL(upload_image_null, tr_image_upload(NULL, NULL, f->buf, 0))
CALL(upload_data_null, tr_image_upload(f->rgba, NULL, NULL, 0))
CALL(upload_level_1, tr_image_upload(f->rgba, sub_at(1, 0, TR_ASPECT_DEFAULT, 0), f->buf, 0))
CALL(upload_attachment_in_pass, tr_image_upload(f->rgba, NULL, f->buf, 0))
CALL(upload_bound_texture, tr_image_upload(f->tex, NULL, f->buf, 0))
CALL(upload_pitch_size_max, tr_image_upload(f->rgba, NULL, f->buf, SIZE_MAX))
CALL(upload_pitch_2_62, tr_image_upload(f->rgba, NULL, f->buf, (size_t)1 << 62))
CALL(upload_pitch_2_36_plus_1, tr_image_upload(f->rgba, NULL, f->buf, ((size_t)1 << 36) + 1))
CALL(upload_pitch_below_row, tr_image_upload(f->rgba, NULL, f->buf, 64 * 4 - 1))
CALL(download_image_null, tr_image_download(NULL, NULL, f->buf, 0))
CALL(download_data_null, tr_image_download(f->rgba, NULL, NULL, 0))
CALL(download_level_7, tr_image_download(f->tex, sub_at(7, 0, TR_ASPECT_DEFAULT, 0), f->buf, 0))
CALL(download_layer_1, tr_image_download(f->rgba, sub_at(0, 1, TR_ASPECT_DEFAULT, 0), f->buf, 0))
CALL(download_sample_4_of_4, tr_image_download(f->ms, sub_at(0, 0, TR_ASPECT_DEFAULT, 4), f->buf, 0))
CALL(download_sample_1_of_1, tr_image_download(f->rgba, sub_at(0, 0, TR_ASPECT_DEFAULT, 1), f->buf, 0))
CALL(download_aspect_out_of_enum, tr_image_download(f->rgba, sub_at(0, 0, (tr_aspect)9, 0), f->buf, 0))
CALL(download_stencil_of_colour, tr_image_download(f->rgba, sub_at(0, 0, TR_ASPECT_STENCIL, 0), f->buf, 0))
CALL(download_colour_of_depth, tr_image_download(f->ds, sub_at(0, 0, TR_ASPECT_COLOR, 0), f->buf, 0))
CALL(download_attachment_in_pass, tr_image_download(f->rgba, NULL, f->buf, 0))
CALL(download_pitch_size_max, tr_image_download(f->rgba, NULL, f->buf, SIZE_MAX))
CALL(download_pitch_2_62, tr_image_download(f->rgba, NULL, f->buf, (size_t)1 << 62))
CALL(download_pitch_2_36_plus_1, tr_image_download(f->rgba, NULL, f->buf, ((size_t)1 << 36) + 1))
CALL(download_pitch_below_row, tr_image_download(f->rgba, NULL, f->buf, 64 * 4 - 1))
CALL(download_depth_pitch_below_row, tr_image_download(f->ds, sub_at(0, 0, TR_ASPECT_DEPTH, 0), f->buf, 64 * 4 - 4))
CALL(fill_value_null, tr_image_fill(f->rgba, NULL, NULL))
CALL(fill_level_1, tr_image_fill(f->rgba, sub_at(1, 0, TR_ASPECT_DEFAULT, 0), (const float[4]){0, 0, 0, 0}))
CALL(fill_attachment_in_pass, tr_image_fill(f->rgba, NULL, (const float[4]){0, 0, 0, 0}))
CALL(read_rgba8_image_null, tr_image_read_rgba8(NULL, NULL, f->buf))
CALL(read_rgba8_out_null, tr_image_read_rgba8(f->rgba, NULL, NULL))
CALL(read_rgba8_layer_1, tr_image_read_rgba8(f->rgba, sub_at(0, 1, TR_ASPECT_DEFAULT, 0), f->buf))
CALL(write_png_image_null, tr_image_write_png(NULL, NULL, NOWHERE))
CALL(write_png_path_null, tr_image_write_png(f->rgba, NULL, NULL))
CALL(write_png_level_3, tr_image_write_png(f->rgba, sub_at(3, 0, TR_ASPECT_DEFAULT, 0), NOWHERE))

/* ---- pipeline.h ---- */

/* plain_pipeline() edited by one statement */
static tr_result pipe_with(fixture *f, void (*edit)(tr_pipeline_desc *d))
{
    tr_pipeline_desc d = plain_pipeline();
    edit(&d);
    return tr_pipeline_create(f->ctx, &d, &f->pipe_out);
}
#define PIPE_ENTRY(id, ...)                                                                         \
    static void id##_edit(tr_pipeline_desc *d) { __VA_ARGS__; }                                             \
    CALL(id, pipe_with(f, id##_edit))

CALL(pipe_create_ctx_null, tr_pipeline_create(NULL, &(tr_pipeline_desc){.vertex_shader = trt_vs}, &f->pipe_out))
CALL(pipe_create_desc_null, tr_pipeline_create(f->ctx, NULL, &f->pipe_out))
CALL(pipe_create_out_null, tr_pipeline_create(f->ctx, &(tr_pipeline_desc){.vertex_shader = trt_vs}, NULL))
PIPE_ENTRY(pipe_vertex_shader_null, d->vertex_shader = NULL)
PIPE_ENTRY(pipe_varying_count_over_limit, d->varying_count = TR_MAX_VARYINGS + 1)
PIPE_ENTRY(pipe_flat_mask_past_varyings, d->flat_mask = 0x2)
PIPE_ENTRY(pipe_noperspective_mask_past_varyings, d->noperspective_mask = 0x2)
PIPE_ENTRY(pipe_centroid_mask_past_varyings, d->centroid_mask = 0x2)
PIPE_ENTRY(pipe_flat_and_noperspective, d->varying_count = 1; d->flat_mask = 0x1; d->noperspective_mask = 0x1)
PIPE_ENTRY(pipe_flags_unknown, d->flags = 0x80)
PIPE_ENTRY(pipe_fs_flags_unknown, d->fs_flags = 0x400)
PIPE_ENTRY(pipe_fs_flags_without_shader, d->fragment_shader = NULL; d->fs_flags = TR_FS_MAY_DISCARD)
PIPE_ENTRY(pipe_fs_sample_mask_without_shader, d->fragment_shader = NULL; d->fs_flags = TR_FS_WRITES_SAMPLE_MASK)
PIPE_ENTRY(pipe_texture_mask_past_slots, d->texture_mask = 1u << TR_MAX_TEXTURES)
PIPE_ENTRY(pipe_feedback_mask_past_slots, d->feedback_mask = 1u << TR_MAX_FEEDBACK_MAPS)
PIPE_ENTRY(pipe_feedback_mask_without_shader, d->fragment_shader = NULL; d->feedback_mask = 1)
PIPE_ENTRY(pipe_topology_out_of_enum, d->topology = (tr_topology)6)
PIPE_ENTRY(pipe_line_mode_out_of_enum, d->line_mode = (tr_line_mode)2)
PIPE_ENTRY(pipe_line_width_65, d->line_width = 65.0f)
PIPE_ENTRY(pipe_line_width_nan, d->line_width = NAN)
PIPE_ENTRY(pipe_cull_mode_out_of_enum, d->cull_mode = (tr_cull_mode)4)
PIPE_ENTRY(pipe_front_face_out_of_enum, d->front_face = (tr_front_face)2)
PIPE_ENTRY(pipe_tie_rule_out_of_enum, d->tie_rule = (tr_tie_rule)2)
PIPE_ENTRY(pipe_depth_compare_out_of_enum, d->depth_compare = (tr_compare_op)9)
PIPE_ENTRY(pipe_stencil_front_fail_op, d->stencil_front.fail_op = (tr_stencil_op)8)
PIPE_ENTRY(pipe_stencil_back_compare, d->stencil_back.compare = (tr_compare_op)9)
PIPE_ENTRY(pipe_stencil_front_write_mask, d->stencil_front.write_mask = 0x1ff)
PIPE_ENTRY(pipe_multisample_samples_3, d->multisample.samples = 3)
PIPE_ENTRY(pipe_min_sample_shading_2, d->multisample.min_sample_shading = 2.0f)
PIPE_ENTRY(pipe_bresenham_multisampled, d->topology = TR_TOPOLOGY_LINE_LIST; d->line_mode = TR_LINE_BRESENHAM;
           d->multisample.samples = 4)
PIPE_ENTRY(pipe_blend_factor_out_of_enum, d->blend[2].src_color = (tr_blend_factor)99)
PIPE_ENTRY(pipe_blend_op_out_of_enum, d->blend[0].alpha_op = (tr_blend_op)9)
PIPE_ENTRY(pipe_blend_write_mask_unknown, d->blend[1].write_mask = 0x20)
PIPE_ENTRY(pipe_binding_input_rate_out_of_enum, d->bindings[3].input_rate = (tr_input_rate)5)
PIPE_ENTRY(pipe_binding_divisor_per_vertex, d->bindings[1].divisor = 2)
PIPE_ENTRY(pipe_attribute_format_out_of_enum, d->attributes[2].format = (tr_vertex_format)99)
PIPE_ENTRY(pipe_attribute_binding_16, d->attributes[0] = (tr_vertex_attribute){TR_VERTEX_FORMAT_R32_SFLOAT,
                                                                              TR_MAX_VERTEX_BINDINGS, 0})
CALL(pipe_destroy_bound, tr_pipeline_destroy(f->pipe))

/* ---- renderpass.h ---- */

static tr_result begin_with(fixture *f, void (*edit)(fixture *f, tr_render_pass_desc *d))
{
    tr_render_pass_desc d = trt_pass_desc(f->rgba, NULL);
    edit(f, &d);
    return tr_cmd_begin_render_pass(f->ctx, &d);
}
#define PASS_ENTRY(id, ...)                                                                         \
    static void id##_edit(fixture *f, tr_render_pass_desc *d) { (void)f; __VA_ARGS__; }                     \
    CALL(id, begin_with(f, id##_edit))

static const trt_vertex big_triangle[3] = {
    {{-1, -1, 0.5f, 1}, {1, 0, 0, 1}}, {{3, -1, 0.5f, 1}, {1, 0, 0, 1}}, {{-1, 3, 0.5f, 1}, {1, 0, 0, 1}}};

static tr_result set_triangle_uniforms(tr_context *ctx)
{
    const trt_uniforms u = {.vertices = big_triangle};
    return tr_cmd_set_uniforms(ctx, &u, sizeof u);
}

CALL(begin_ctx_null, tr_cmd_begin_render_pass(NULL, &(tr_render_pass_desc){0}))
CALL(begin_desc_null, tr_cmd_begin_render_pass(f->ctx, NULL))
CALL(begin_inside_a_pass, begin_pass(f))
PASS_ENTRY(begin_no_attachment, d->color[0].image = NULL)
PASS_ENTRY(begin_color_count_9, d->color_count = TR_MAX_COLOR_ATTACHMENTS + 1)
PASS_ENTRY(begin_view_mask_view_6, d->view_mask = 1u << TR_MAX_VIEWS)
PASS_ENTRY(begin_view_mask_needs_layers, d->view_mask = 0x3)
PASS_ENTRY(begin_flags_unknown, d->flags = 0x100)
PASS_ENTRY(begin_depth_image_as_colour, d->color[0].image = f->ds)
PASS_ENTRY(begin_color_load_op_out_of_enum, d->color[0].load_op = (tr_load_op)7)
PASS_ENTRY(begin_color_store_op_out_of_enum, d->color[0].store_op = (tr_store_op)2)
PASS_ENTRY(begin_color_level_1, d->color[0].level = 1)
PASS_ENTRY(begin_color_base_layer_1, d->color[0].base_layer = 1)
PASS_ENTRY(begin_color_sizes_differ, d->color_count = 2; d->color[1].image = f->small)
PASS_ENTRY(begin_color_samples_differ, d->color_count = 2; d->color[1].image = f->ms)
PASS_ENTRY(begin_color_other_context, d->color[0].image = f->o_img)
PASS_ENTRY(begin_colour_image_as_depth, d->depth.image = f->r8)
PASS_ENTRY(begin_depth_clear_depth_2, d->depth = (tr_depth_attachment){.image = f->ds, .clear_depth = 2.0f})
PASS_ENTRY(begin_depth_clear_depth_nan, d->depth = (tr_depth_attachment){.image = f->ds, .clear_depth = NAN})
PASS_ENTRY(begin_depth_stencil_load_op_out_of_enum,
           d->depth = (tr_depth_attachment){.image = f->ds, .stencil_load_op = (tr_load_op)5})
PASS_ENTRY(begin_depth_level_1, d->depth = (tr_depth_attachment){.image = f->ds, .level = 1})
PASS_ENTRY(begin_resolve_single_sample, d->color[0].resolve_image = f->small)
PASS_ENTRY(begin_resolve_multisampled, d->color[0].image = f->ms; d->color[0].resolve_image = f->ms2)
PASS_ENTRY(begin_resolve_format_differs, d->color[0].image = f->ms; d->color[0].resolve_image = f->r8)
PASS_ENTRY(begin_resolve_size_differs, d->color[0].image = f->ms; d->color[0].resolve_image = f->small)
PASS_ENTRY(begin_resolve_level_1, d->color[0].image = f->ms; d->color[0].resolve_image = f->rgba;
           d->color[0].resolve_level = 1)
PASS_ENTRY(begin_resolve_other_context, d->color[0].image = f->ms; d->color[0].resolve_image = f->o_img)
PASS_ENTRY(begin_resolve_without_image, d->color_count = 2; d->color[1].resolve_image = f->rgba)
PASS_ENTRY(begin_render_area_outside, d->render_area = (tr_rect){32, 32, 64, 64})
PASS_ENTRY(begin_render_area_negative, d->render_area = (tr_rect){-8, 0, 16, 16})
PASS_ENTRY(begin_density_map_format, d->density_map.image = f->r8)
PASS_ENTRY(begin_density_map_multisampled, d->density_map.image = f->ms)
PASS_ENTRY(begin_density_map_layer_1, d->density_map.image = f->fdm; d->density_map.base_layer = 1)
PASS_ENTRY(begin_density_map_single_bin, d->density_map.image = f->fdm; d->flags = TR_PASS_SINGLE_BIN)
PASS_ENTRY(begin_density_map_is_attachment, d->color[0].image = f->fdm; d->density_map.image = f->fdm)
PASS_ENTRY(begin_density_map_other_context, d->density_map.image = f->o_img)
PASS_ENTRY(begin_offset_count_without_map, d->density_map.offset_count = 1)
PASS_ENTRY(begin_offset_count_2_views_1, d->density_map.image = f->fdm; d->density_map.offset_count = 2)
PASS_ENTRY(begin_offset_not_multiple, d->density_map.image = f->fdm; d->density_map.offset_count = 1;
           d->density_map.offsets[0] = (tr_offset2d){3, 0})
PASS_ENTRY(begin_offset_beyond_max, d->density_map.image = f->fdm; d->density_map.offset_count = 1;
           d->density_map.offsets[0] = (tr_offset2d){0, -TR_FDM_MAX_OFFSET - 8})
PASS_ENTRY(begin_subsampled_without_map, d->color[0].image = f->sub)
CALL(bind_pipeline_outside_pass, tr_cmd_bind_pipeline(f->ctx, f->pipe))
CALL(bind_pipeline_null, tr_cmd_bind_pipeline(f->ctx, NULL))
CALL(bind_pipeline_other_context, tr_cmd_bind_pipeline(f->ctx, f->o_pipe))
CALL(bind_pipeline_ctx_null, tr_cmd_bind_pipeline(NULL, f->pipe))
CALL(viewport_null, tr_cmd_set_viewport(f->ctx, NULL))
CALL(viewport_width_0, tr_cmd_set_viewport(f->ctx, &(tr_viewport){0, 0, 0, 64, 0, 1}))
CALL(viewport_x_nan, tr_cmd_set_viewport(f->ctx, &(tr_viewport){NAN, 0, 64, 64, 0, 1}))
CALL(viewport_height_inf, tr_cmd_set_viewport(f->ctx, &(tr_viewport){0, 0, 64, INFINITY, 0, 1}))
CALL(viewport_min_depth_2, tr_cmd_set_viewport(f->ctx, &(tr_viewport){0, 0, 64, 64, 2, 1}))
CALL(viewport_outside_pass, tr_cmd_set_viewport(f->ctx, &(tr_viewport){0, 0, 64, 64, 0, 1}))
CALL(scissor_null, tr_cmd_set_scissor(f->ctx, NULL))
CALL(scissor_x_negative, tr_cmd_set_scissor(f->ctx, &(tr_rect){-1, 0, 8, 8}))
CALL(stencil_reference_outside_pass, tr_cmd_set_stencil_reference(f->ctx, 1, 1))
CALL(blend_constants_null, tr_cmd_set_blend_constants(f->ctx, NULL))
CALL(uniforms_over_limit, tr_cmd_set_uniforms(f->ctx, f->buf, TR_MAX_UNIFORM_BYTES + 1))
CALL(uniforms_data_null, tr_cmd_set_uniforms(f->ctx, NULL, 16))
CALL(uniforms_outside_pass, tr_cmd_set_uniforms(f->ctx, f->buf, 16))
static const tr_rect rect_8 = {0, 0, 8, 8};
static const tr_clear_attachment clear_color0 = {.aspects = TR_CLEAR_COLOR};
CALL(clear_attachments_null, tr_cmd_clear_attachments(f->ctx, 1, NULL, 1, &rect_8))
CALL(clear_rects_null, tr_cmd_clear_attachments(f->ctx, 1, &clear_color0, 1, NULL))
CALL(clear_aspects_0, tr_cmd_clear_attachments(f->ctx, 1, &(tr_clear_attachment){.aspects = 0}, 1, &rect_8))
CALL(clear_aspects_color_and_depth,
     tr_cmd_clear_attachments(f->ctx, 1, &(tr_clear_attachment){.aspects = TR_CLEAR_COLOR | TR_CLEAR_DEPTH}, 1,
                              &rect_8))
CALL(clear_color_attachment_3,
     tr_cmd_clear_attachments(f->ctx, 1, &(tr_clear_attachment){.aspects = TR_CLEAR_COLOR, .color_attachment = 3}, 1,
                              &rect_8))
CALL(clear_depth_2,
     tr_cmd_clear_attachments(f->ctx, 1, &(tr_clear_attachment){.aspects = TR_CLEAR_DEPTH, .depth = 2.0f}, 1,
                              &rect_8))
CALL(clear_rect_empty, tr_cmd_clear_attachments(f->ctx, 1, &clear_color0, 1, &(tr_rect){0, 0, 0, 8}))
CALL(clear_rect_outside, tr_cmd_clear_attachments(f->ctx, 1, &clear_color0, 1, &(tr_rect){60, 0, 8, 8}))
CALL(clear_outside_pass, tr_cmd_clear_attachments(f->ctx, 1, &clear_color0, 1, &rect_8))
static tr_result clear_stencil_without_attachment(fixture *f)
{
    tr_render_pass_desc d = trt_pass_desc(f->rgba, NULL);
    SETUP(tr_cmd_begin_render_pass(f->ctx, &d));
    return tr_cmd_clear_attachments(f->ctx, 1, &(tr_clear_attachment){.aspects = TR_CLEAR_STENCIL}, 1, &rect_8);
}
static tr_result clear_depth_without_attachment(fixture *f)
{
    tr_render_pass_desc d = trt_pass_desc(f->rgba, NULL);
    SETUP(tr_cmd_begin_render_pass(f->ctx, &d));
    return tr_cmd_clear_attachments(f->ctx, 1, &(tr_clear_attachment){.aspects = TR_CLEAR_DEPTH}, 1, &rect_8);
}
CALL(vertex_buffer_binding_16, tr_cmd_bind_vertex_buffer(f->ctx, TR_MAX_VERTEX_BINDINGS, f->buf, 16, 0))
CALL(vertex_buffer_data_null, tr_cmd_bind_vertex_buffer(f->ctx, 0, NULL, 16, 0))
CALL(vertex_buffer_offset_past_size, tr_cmd_bind_vertex_buffer(f->ctx, 0, f->buf, 16, 17))
CALL(vertex_buffer_outside_pass, tr_cmd_bind_vertex_buffer(f->ctx, 0, f->buf, 16, 0))
CALL(index_buffer_type_out_of_enum, tr_cmd_bind_index_buffer(f->ctx, f->buf, 16, 0, (tr_index_type)7))
CALL(index_buffer_data_null, tr_cmd_bind_index_buffer(f->ctx, NULL, 16, 0, TR_INDEX_U16))
CALL(index_buffer_offset_past_size, tr_cmd_bind_index_buffer(f->ctx, f->buf, 16, 32, TR_INDEX_U32))
CALL(draw_outside_pass, tr_cmd_draw(f->ctx, 3, 1, 0, 0))
CALL(draw_ctx_null, tr_cmd_draw(NULL, 3, 1, 0, 0))
CALL(draw_without_pipeline, tr_cmd_draw(f->ctx, 3, 1, 0, 0))
CALL(draw_vertices_over_limit, tr_cmd_draw(f->ctx, TR_MAX_DRAW_VERTICES + 1, 1, 0, 0))
CALL(draw_first_vertex_overflow, tr_cmd_draw(f->ctx, 3, 1, UINT32_MAX - 1, 0))
CALL(draw_first_instance_overflow, tr_cmd_draw(f->ctx, 3, 2, 0, UINT32_MAX))
static tr_result draw_multisampled_pipeline_in_1x_pass(fixture *f)
{
    tr_pipeline_desc pd = plain_pipeline();
    pd.multisample.samples = 4;
    tr_pipeline *p = NULL;
    SETUP(tr_pipeline_create(f->ctx, &pd, &p));
    SETUP(tr_cmd_bind_pipeline(f->ctx, p));
    SETUP(set_triangle_uniforms(f->ctx));
    return tr_cmd_draw(f->ctx, 3, 1, 0, 0);
}
static tr_result draw_texture_slot_empty(fixture *f)
{
    tr_pipeline_desc pd = plain_pipeline();
    pd.texture_mask = 0x2;
    tr_pipeline *p = NULL;
    SETUP(tr_pipeline_create(f->ctx, &pd, &p));
    SETUP(tr_cmd_bind_pipeline(f->ctx, p));
    SETUP(set_triangle_uniforms(f->ctx));
    return tr_cmd_draw(f->ctx, 3, 1, 0, 0);
}
static tr_result draw_blend_on_integer_attachment(fixture *f)
{
    tr_render_pass_desc d = trt_pass_desc(f->u32, NULL);
    SETUP(tr_cmd_begin_render_pass(f->ctx, &d));
    tr_pipeline_desc pd = plain_pipeline();
    pd.blend[0].enable = 1;
    tr_pipeline *p = NULL;
    SETUP(tr_pipeline_create(f->ctx, &pd, &p));
    SETUP(tr_cmd_bind_pipeline(f->ctx, p));
    SETUP(set_triangle_uniforms(f->ctx));
    return tr_cmd_draw(f->ctx, 3, 1, 0, 0);
}
/* A pipeline that fetches location 0 from binding 0 (16-byte elements). */
static tr_result bind_fetching_pipeline(fixture *f)
{
    tr_pipeline_desc pd = plain_pipeline();
    pd.bindings[0].stride = 16;
    pd.attributes[0] = (tr_vertex_attribute){TR_VERTEX_FORMAT_R32G32B32A32_SFLOAT, 0, 0};
    tr_pipeline *p = NULL;
    SETUP(tr_pipeline_create(f->ctx, &pd, &p));
    SETUP(tr_cmd_bind_pipeline(f->ctx, p));
    return set_triangle_uniforms(f->ctx);
}
static tr_result draw_attribute_binding_unbound(fixture *f)
{
    SETUP(bind_fetching_pipeline(f));
    return tr_cmd_draw(f->ctx, 3, 1, 0, 0);
}
static tr_result draw_attribute_past_buffer(fixture *f)
{
    SETUP(bind_fetching_pipeline(f));
    SETUP(tr_cmd_bind_vertex_buffer(f->ctx, 0, f->buf, 32, 0)); /* two elements of the three */
    return tr_cmd_draw(f->ctx, 3, 1, 0, 0);
}
static tr_result draw_indexed_without_index_buffer(fixture *f)
{
    SETUP(set_triangle_uniforms(f->ctx));
    return tr_cmd_draw_indexed(f->ctx, 3, 1, 0, 0, 0);
}
static const uint16_t indices_012[3] = {0, 1, 2};
static tr_result draw_indexed_past_index_buffer(fixture *f)
{
    SETUP(set_triangle_uniforms(f->ctx));
    SETUP(tr_cmd_bind_index_buffer(f->ctx, indices_012, sizeof indices_012, 0, TR_INDEX_U16));
    return tr_cmd_draw_indexed(f->ctx, 3, 1, 1, 0, 0);
}
CALL(draw_indexed_outside_pass, tr_cmd_draw_indexed(f->ctx, 3, 1, 0, 0, 0))
CALL(end_outside_pass, tr_cmd_end_render_pass(f->ctx, NULL))
CALL(end_ctx_null, tr_cmd_end_render_pass(NULL, NULL))
static tr_result bin_layout(fixture *f, void (*edit)(fixture *f, tr_render_pass_desc *d))
{
    tr_render_pass_desc d = trt_pass_desc(f->rgba, f->ds);
    if (edit)
        edit(f, &d);
    return tr_compute_bin_layout(f->ctx, &d, (tr_bin_layout *)f->buf);
}
static void no_attachment(fixture *f, tr_render_pass_desc *d) { (void)f; d->color[0].image = NULL; d->depth.image = NULL; }
static void depth_as_colour(fixture *f, tr_render_pass_desc *d) { d->color[0].image = f->ds; }
CALL(bin_layout_ctx_null, tr_compute_bin_layout(NULL, &(tr_render_pass_desc){0}, (tr_bin_layout *)f->buf))
CALL(bin_layout_desc_null, tr_compute_bin_layout(f->ctx, NULL, (tr_bin_layout *)f->buf))
static tr_result bin_layout_out_null(fixture *f)
{
    tr_render_pass_desc d = trt_pass_desc(f->rgba, NULL);
    return tr_compute_bin_layout(f->ctx, &d, NULL);
}
CALL(bin_layout_no_attachment, bin_layout(f, no_attachment))
CALL(bin_layout_depth_as_colour, bin_layout(f, depth_as_colour))
static tr_result bin_layout_gmem_too_small(fixture *f)
{
    SETUP(tr_context_create(&(tr_context_desc){.threads = 1, .gmem_bytes = 8192, .tile_align_w = 16,
                                                .tile_align_h = 16},
                            &f->limited));
    f->used = f->limited;
    tr_image *wide = NULL;
    SETUP(tr_image_create(f->limited,
                          &(tr_image_desc){.format = TR_FORMAT_R32G32B32A32_SFLOAT, .width = 64, .height = 64,
                                           .samples = 8},
                          &wide));
    tr_render_pass_desc d = trt_pass_desc(wide, NULL);
    return tr_compute_bin_layout(f->limited, &d, (tr_bin_layout *)f->buf);
}

/* ---- texture.h ---- */

static tr_result smp_create(fixture *f, tr_sampler_desc d)
{
    return tr_sampler_create(f->ctx, &d, &f->smp_out);
}
#define SMP(...) smp_create(f, (tr_sampler_desc){__VA_ARGS__})

CALL(sampler_ctx_null, tr_sampler_create(NULL, &(tr_sampler_desc){0}, &f->smp_out))
CALL(sampler_desc_null, tr_sampler_create(f->ctx, NULL, &f->smp_out))
CALL(sampler_out_null, tr_sampler_create(f->ctx, &(tr_sampler_desc){0}, NULL))
CALL(sampler_mag_filter_out_of_enum, SMP(.mag_filter = (tr_filter)2))
CALL(sampler_min_filter_out_of_enum, SMP(.min_filter = (tr_filter)-1))
CALL(sampler_mipmap_mode_out_of_enum, SMP(.mipmap_mode = (tr_mipmap_mode)2))
CALL(sampler_address_v_out_of_enum, SMP(.address_v = (tr_address_mode)4))
CALL(sampler_border_color_out_of_enum, SMP(.border_color = (tr_border_color)3))
CALL(sampler_compare_out_of_enum, SMP(.compare = (tr_compare_op)9))
CALL(sampler_lod_bias_nan, SMP(.lod_bias = NAN))
CALL(sampler_lod_bias_16, SMP(.lod_bias = 16.0f))
CALL(sampler_max_lod_negative, SMP(.max_lod = -2.0f))
CALL(sampler_min_lod_above_max_lod, SMP(.min_lod = 3.0f, .max_lod = 2.0f))
CALL(sampler_max_anisotropy_17, SMP(.max_anisotropy = TR_MAX_ANISOTROPY + 1))
CALL(sampler_destroy_bound, tr_sampler_destroy(f->smp))
CALL(bind_texture_slot_16, tr_cmd_bind_texture(f->ctx, TR_MAX_TEXTURES, f->tex, f->smp))
CALL(bind_texture_image_other_context, tr_cmd_bind_texture(f->ctx, 1, f->o_img, f->smp))
CALL(bind_texture_sampler_other_context, tr_cmd_bind_texture(f->ctx, 1, f->tex, f->o_smp))
CALL(bind_texture_compare_on_colour, tr_cmd_bind_texture(f->ctx, 1, f->r8, f->cmp_smp))
CALL(bind_texture_linear_on_integer, tr_cmd_bind_texture(f->ctx, 1, f->u32, f->lin_smp))
CALL(bind_texture_multisampled, tr_cmd_bind_texture(f->ctx, 1, f->ms, NULL))
CALL(bind_texture_attachment, tr_cmd_bind_texture(f->ctx, 1, f->rgba, NULL))
CALL(bind_texture_outside_pass, tr_cmd_bind_texture(f->ctx, 0, f->tex, f->smp))
static tr_result bind_texture_density_map(fixture *f)
{
    tr_render_pass_desc d = trt_pass_desc(f->rgba, NULL);
    d.density_map.image = f->fdm;
    SETUP(tr_cmd_begin_render_pass(f->ctx, &d));
    return tr_cmd_bind_texture(f->ctx, 0, f->fdm, NULL);
}
CALL(generate_mips_image_null, tr_image_generate_mips(NULL))
CALL(generate_mips_depth, tr_image_generate_mips(f->ds))
CALL(generate_mips_integer, tr_image_generate_mips(f->u32))
CALL(generate_mips_bound_texture, tr_image_generate_mips(f->tex))
CALL(generate_mips_attachment, tr_image_generate_mips(f->rgba))
CALL(image_load_missing_file, tr_image_load(f->ctx, "/nonexistent-tilerast-hostile/missing.png", 0, 1, &f->img_out))
CALL(image_load_path_null, tr_image_load(f->ctx, NULL, 0, 1, &f->img_out))
CALL(image_load_out_null, tr_image_load(f->ctx, "/nonexistent-tilerast-hostile/missing.png", 0, 1, NULL))
CALL(image_load_ctx_null, tr_image_load(NULL, "/nonexistent-tilerast-hostile/missing.png", 0, 1, &f->img_out))
CALL(image_load_depth_format,
     tr_image_load(f->ctx, "/nonexistent-tilerast-hostile/missing.png", TR_FORMAT_D32_SFLOAT, 1, &f->img_out))

/* ---- instancing.h ---- */

CALL(record_rate_out_of_enum, tr_attribute_record_for((tr_input_rate)7, 0, 3, 1, (tr_attribute_record *)f->buf))
CALL(record_rate_negative, tr_attribute_record_for((tr_input_rate)-1, 0, 3, 1, (tr_attribute_record *)f->buf))
CALL(record_out_null, tr_attribute_record_for(TR_INPUT_RATE_VERTEX, 0, 3, 1, NULL))
CALL(record_linear_ids_overflow,
     tr_attribute_record_for(TR_INPUT_RATE_VERTEX, 0, 0x10001, 0x10001, (tr_attribute_record *)f->buf))
CALL(record_linear_ids_overflow_into_scratch,
     tr_attribute_record_for(TR_INPUT_RATE_INSTANCE, 3, 1u << 28, 17, &f->rec))
CALL(record_padded_count_33_bits,
     tr_attribute_record_for(TR_INPUT_RATE_INSTANCE, 1, 0xE0000000u, 2, (tr_attribute_record *)f->buf))

/* ---- lrz.h ---- */

CALL(lrz_png_depth_null, tr_image_write_lrz_png(NULL, 0, NOWHERE))
CALL(lrz_png_path_null, tr_image_write_lrz_png(f->ds, 0, NULL))
CALL(lrz_png_no_buffer, tr_image_write_lrz_png(f->ds, 0, NOWHERE))
CALL(lrz_png_colour_image, tr_image_write_lrz_png(f->rgba, 0, NOWHERE))
static tr_result lrz_png_view_1_of_1(fixture *f)
{
    SETUP(begin_pass(f));
    SETUP(tr_cmd_end_render_pass(f->ctx, NULL));
    return tr_image_write_lrz_png(f->ds, 1, NOWHERE);
}

/* ---- fdm.h ---- */

static tr_result bin_transform(fixture *f, void (*edit)(tr_fdm_bin_desc *d))
{
    tr_fdm_bin_desc d = {.bin = {64, 64},
                         .framebuffer = {128, 128},
                         .frag_area = {1, 1},
                         .viewport = {0, 0, 128, 128, 0, 1},
                         .scissor = {0, 0, 128, 128}};
    edit(&d);
    return tr_fdm_bin_transform(&d, (tr_fdm_bin_transform_result *)f->buf);
}
#define BIN_ENTRY(id, ...)                                                                          \
    static void id##_edit(tr_fdm_bin_desc *d) { __VA_ARGS__; }                                              \
    CALL(id, bin_transform(f, id##_edit))

CALL(bin_transform_desc_null, tr_fdm_bin_transform(NULL, (tr_fdm_bin_transform_result *)f->buf))
CALL(bin_transform_out_null, tr_fdm_bin_transform(&(tr_fdm_bin_desc){.bin = {64, 64}}, NULL))
BIN_ENTRY(bin_transform_bin_width_0, d->bin.width = 0)
BIN_ENTRY(bin_transform_framebuffer_over_limit, d->framebuffer.width = TR_MAX_IMAGE_SIZE + 1)
BIN_ENTRY(bin_transform_frag_area_3, d->frag_area = (tr_extent2d){3, 1})
BIN_ENTRY(bin_transform_frag_area_not_dividing, d->bin.width = 2; d->frag_area = (tr_extent2d){4, 1})
BIN_ENTRY(bin_transform_bin_offset_outside, d->bin_offset = (tr_offset2d){64, 0})
BIN_ENTRY(bin_transform_bin_offset_not_multiple, d->frag_area = (tr_extent2d){2, 2};
          d->bin_offset = (tr_offset2d){1, 0})
BIN_ENTRY(bin_transform_viewport_nan, d->viewport.x = NAN)
BIN_ENTRY(bin_transform_scissor_negative, d->scissor.x = -1)
BIN_ENTRY(bin_transform_bin_x_past_grid, d->bin_x = 9)
BIN_ENTRY(bin_transform_bin_y_past_grid, d->bin_y = 3)

static tr_render_pass_desc fdm_pass(fixture *f)
{
    tr_render_pass_desc d = trt_pass_desc(f->rgba, NULL);
    d.density_map.image = f->fdm;
    return d;
}
static tr_result fdm_areas(fixture *f, void (*edit)(fixture *f, tr_render_pass_desc *d), size_t count)
{
    tr_render_pass_desc d = fdm_pass(f);
    if (edit)
        edit(f, &d);
    return tr_compute_fdm_areas(f->ctx, &d, (tr_extent2d *)f->buf, count);
}
static void no_density_map(fixture *f, tr_render_pass_desc *d) { (void)f; d->density_map.image = NULL; }
static void r8_density_map(fixture *f, tr_render_pass_desc *d) { d->density_map.image = f->r8; }
static void two_offsets_one_view(fixture *f, tr_render_pass_desc *d) { (void)f; d->density_map.offset_count = 2; }
CALL(fdm_areas_ctx_null, tr_compute_fdm_areas(NULL, &(tr_render_pass_desc){0}, (tr_extent2d *)f->buf, 64))
CALL(fdm_areas_desc_null, tr_compute_fdm_areas(f->ctx, NULL, (tr_extent2d *)f->buf, 64))
static tr_result fdm_areas_areas_null(fixture *f)
{
    tr_render_pass_desc d = fdm_pass(f);
    return tr_compute_fdm_areas(f->ctx, &d, NULL, 64);
}
CALL(fdm_areas_no_density_map, fdm_areas(f, no_density_map, 64))
CALL(fdm_areas_count_0, fdm_areas(f, NULL, 0))
CALL(fdm_areas_density_map_format, fdm_areas(f, r8_density_map, 64))
CALL(fdm_areas_offset_count, fdm_areas(f, two_offsets_one_view, 64))
static tr_result fdm_bin_offsets_count_0(fixture *f)
{
    tr_render_pass_desc d = fdm_pass(f);
    return tr_compute_fdm_bin_offsets(f->ctx, &d, (tr_offset2d *)f->buf, 0);
}
static tr_result fdm_bin_offsets_null(fixture *f)
{
    tr_render_pass_desc d = fdm_pass(f);
    return tr_compute_fdm_bin_offsets(f->ctx, &d, NULL, 8);
}
static tr_result fdm_tiles_capacity_0(fixture *f)
{
    tr_render_pass_desc d = fdm_pass(f);
    return tr_compute_fdm_tiles(f->ctx, &d, (tr_fdm_tile *)f->buf, 0, &f->count);
}
static tr_result fdm_tiles_count_null(fixture *f)
{
    tr_render_pass_desc d = fdm_pass(f);
    return tr_compute_fdm_tiles(f->ctx, &d, (tr_fdm_tile *)f->buf, 64, NULL);
}
static tr_result fdm_png(fixture *f, bool map, uint32_t view_slot, const tr_image *image, uint32_t layer,
                         const char *path)
{
    tr_render_pass_desc d = fdm_pass(f);
    if (!map)
        d.density_map.image = NULL;
    return tr_fdm_write_png(f->ctx, &d, view_slot, image, layer, path);
}
CALL(fdm_png_ctx_null, tr_fdm_write_png(NULL, &(tr_render_pass_desc){0}, 0, f->rgba, 0, NOWHERE))
CALL(fdm_png_desc_null, tr_fdm_write_png(f->ctx, NULL, 0, f->rgba, 0, NOWHERE))
CALL(fdm_png_image_null, fdm_png(f, true, 0, NULL, 0, NOWHERE))
CALL(fdm_png_path_null, fdm_png(f, true, 0, f->rgba, 0, NULL))
CALL(fdm_png_no_density_map, fdm_png(f, false, 0, f->rgba, 0, NOWHERE))
CALL(fdm_png_view_slot_1, fdm_png(f, true, 1, f->rgba, 0, NOWHERE))
CALL(fdm_png_layer_1, fdm_png(f, true, 0, f->rgba, 1, NOWHERE))
CALL(fdm_png_image_size, fdm_png(f, true, 0, f->small, 0, NOWHERE))

/* ---- subsample.h ---- */

static tr_result sub_layout(fixture *f, void (*edit)(tr_subsampled_layout_desc *d))
{
    static const tr_extent2d ones[4] = {{1, 1}, {1, 1}, {1, 1}, {1, 1}};
    static _Thread_local tr_extent2d areas[4];
    memcpy(areas, ones, sizeof areas);
    tr_subsampled_layout_desc d = {.framebuffer = {64, 64},
                                   .bin = {32, 32},
                                   .tile_align = {32, 16},
                                   .bins_x = 2,
                                   .bins_y = 2,
                                   .areas = areas};
    edit(&d);
    return tr_compute_subsampled_layout(&d, (tr_subsampled_header *)f->buf,
                                        (tr_subsampled_bin *)(f->buf + 4096));
}
#define SUB_ENTRY(id, ...)                                                                          \
    static void id##_edit(tr_subsampled_layout_desc *d) { __VA_ARGS__; }                                    \
    CALL(id, sub_layout(f, id##_edit))

CALL(sub_layout_desc_null,
     tr_compute_subsampled_layout(NULL, (tr_subsampled_header *)f->buf, (tr_subsampled_bin *)(f->buf + 4096)))
static tr_result sub_layout_header_null(fixture *f)
{
    static const tr_extent2d a[4] = {{1, 1}, {1, 1}, {1, 1}, {1, 1}};
    tr_subsampled_layout_desc d = {.framebuffer = {64, 64}, .bin = {32, 32}, .tile_align = {32, 16},
                                   .bins_x = 2, .bins_y = 2, .areas = a};
    return tr_compute_subsampled_layout(&d, NULL, (tr_subsampled_bin *)(f->buf + 4096));
}
static tr_result sub_layout_bins_null(fixture *f)
{
    static const tr_extent2d a[4] = {{1, 1}, {1, 1}, {1, 1}, {1, 1}};
    tr_subsampled_layout_desc d = {.framebuffer = {64, 64}, .bin = {32, 32}, .tile_align = {32, 16},
                                   .bins_x = 2, .bins_y = 2, .areas = a};
    return tr_compute_subsampled_layout(&d, (tr_subsampled_header *)f->buf, NULL);
}
SUB_ENTRY(sub_layout_areas_null, d->areas = NULL)
SUB_ENTRY(sub_layout_framebuffer_0, d->framebuffer.width = 0)
SUB_ENTRY(sub_layout_tile_align_0, d->tile_align.height = 0)
SUB_ENTRY(sub_layout_bins_x_short, d->bins_x = 1)
SUB_ENTRY(sub_layout_bins_y_two_extra, d->bins_y = 4)
SUB_ENTRY(sub_layout_bin_offset_without_fdm_offset, d->bin_offset = (tr_offset2d){32, 0})
SUB_ENTRY(sub_layout_bin_offset_outside_bin, d->fdm_offset = true; d->bins_x = 3; d->bins_y = 3;
          d->bin_offset = (tr_offset2d){0, 32})
static void area_3x1(tr_subsampled_layout_desc *d) { ((tr_extent2d *)d->areas)[1] = (tr_extent2d){3, 1}; }
static void area_0x1(tr_subsampled_layout_desc *d) { ((tr_extent2d *)d->areas)[2] = (tr_extent2d){0, 1}; }
CALL(sub_layout_area_3x1, sub_layout(f, area_3x1))
CALL(sub_layout_area_0x1, sub_layout(f, area_0x1))
CALL(download_raw_data_null, tr_image_download_raw(f->sub, NULL, NULL, 0))
CALL(download_raw_image_null, tr_image_download_raw(NULL, NULL, f->buf, 0))
CALL(download_raw_layer_1, tr_image_download_raw(f->sub, sub_at(0, 1, TR_ASPECT_DEFAULT, 0), f->buf, 0))
CALL(download_raw_pitch_size_max, tr_image_download_raw(f->sub, NULL, f->buf, SIZE_MAX))
CALL(download_raw_pitch_2_62, tr_image_download_raw(f->sub, NULL, f->buf, (size_t)1 << 62))
CALL(download_raw_pitch_2_36_plus_1, tr_image_download_raw(f->sub, NULL, f->buf, ((size_t)1 << 36) + 1))
CALL(download_raw_pitch_below_row, tr_image_download_raw(f->sub, NULL, f->buf, 64 * 4 - 1))
CALL(metadata_not_subsampled, tr_image_get_subsampled_metadata(f->rgba, 0, &f->hdr, NULL, 0, &f->count))
CALL(metadata_image_null, tr_image_get_subsampled_metadata(NULL, 0, &f->hdr, NULL, 0, &f->count))
CALL(metadata_layer_1, tr_image_get_subsampled_metadata(f->sub, 1, &f->hdr, NULL, 0, &f->count))
CALL(metadata_header_null, tr_image_get_subsampled_metadata(f->sub, 0, NULL, NULL, 0, &f->count))
CALL(metadata_count_null, tr_image_get_subsampled_metadata(f->sub, 0, &f->hdr, NULL, 0, NULL))
CALL(metadata_capacity_0, tr_image_get_subsampled_metadata(f->sub, 0, &f->hdr, (tr_subsampled_bin *)f->buf, 0,
                                                           &f->count))
CALL(sub_png_not_subsampled, tr_subsampled_write_png(f->rgba, 0, NOWHERE))
CALL(sub_png_image_null, tr_subsampled_write_png(NULL, 0, NOWHERE))
CALL(sub_png_layer_1, tr_subsampled_write_png(f->sub, 1, NOWHERE))
CALL(sub_png_path_null, tr_subsampled_write_png(f->sub, 0, NULL))

/* ---- feedback.h ---- */

/* A MinMip map of 64x64, 8x8 regions, but for the fields given. */
static tr_result fb_create(fixture *f, tr_feedback_kind kind, uint32_t w, uint32_t h, uint32_t levels, uint32_t layers,
                           uint32_t rw, uint32_t rh)
{
    const tr_feedback_map_desc d = {kind, w, h, levels, layers, rw, rh};
    return tr_feedback_map_create(f->ctx, &d, &f->fb_out);
}
static const tr_feedback_map_desc good_fb = {TR_FEEDBACK_MIN_MIP, 64, 64, 0, 0, 8, 8};
#define MM TR_FEEDBACK_MIN_MIP

CALL(fb_create_ctx_null, tr_feedback_map_create(NULL, &good_fb, &f->fb_out))
CALL(fb_create_desc_null, tr_feedback_map_create(f->ctx, NULL, &f->fb_out))
CALL(fb_create_out_null, tr_feedback_map_create(f->ctx, &good_fb, NULL))
CALL(fb_create_kind_out_of_enum, fb_create(f, (tr_feedback_kind)2, 64, 64, 0, 0, 8, 8))
CALL(fb_create_width_0, fb_create(f, MM, 0, 64, 0, 0, 8, 8))
CALL(fb_create_height_over_limit, fb_create(f, MM, 64, TR_MAX_IMAGE_SIZE + 1, 0, 0, 8, 8))
CALL(fb_create_levels_past_chain, fb_create(f, MM, 64, 64, 8, 0, 8, 8))
CALL(fb_create_layers_over_limit, fb_create(f, MM, 64, 64, 0, TR_MAX_IMAGE_LAYERS + 1, 8, 8))
CALL(fb_create_region_width_6, fb_create(f, MM, 64, 64, 0, 0, 6, 8))
CALL(fb_create_region_height_2, fb_create(f, MM, 64, 64, 0, 0, 8, 2))
CALL(fb_create_region_width_64, fb_create(f, MM, 64, 64, 0, 0, 64, 8))
CALL(fb_destroy_bound, tr_feedback_map_destroy(f->fb))
CALL(fb_clear_bound, tr_feedback_map_clear(f->fb))
CALL(fb_clear_null, tr_feedback_map_clear(NULL))
CALL(fb_set_mode_out_of_enum, tr_feedback_map_set_mode(f->fb, (tr_feedback_mode)2))
CALL(fb_set_mode_bound, tr_feedback_map_set_mode(f->fb, TR_FEEDBACK_CONSERVATIVE))
CALL(fb_set_mode_null, tr_feedback_map_set_mode(NULL, TR_FEEDBACK_EXACT))
CALL(fb_decoded_size_min_mip_level_1, tr_feedback_map_decoded_size(f->fb, 1, (uint32_t *)f->buf, (uint32_t *)f->buf + 1))
CALL(fb_decoded_size_mru_level_3, tr_feedback_map_decoded_size(f->fb_mru, 3, (uint32_t *)f->buf, (uint32_t *)f->buf + 1))
CALL(fb_decoded_size_null, tr_feedback_map_decoded_size(NULL, 0, (uint32_t *)f->buf, (uint32_t *)f->buf + 1))
CALL(fb_decode_null_map, tr_feedback_map_decode(NULL, 0, 0, f->buf, 0))
CALL(fb_decode_out_null, tr_feedback_map_decode(f->fb, 0, 0, NULL, 0))
CALL(fb_decode_layer_1, tr_feedback_map_decode(f->fb, 1, 0, f->buf, 0))
CALL(fb_decode_min_mip_level_1, tr_feedback_map_decode(f->fb, 0, 1, f->buf, 0))
CALL(fb_decode_mru_level_3, tr_feedback_map_decode(f->fb_mru, 0, 3, f->buf, 0))
CALL(fb_decode_bound, tr_feedback_map_decode(f->fb, 0, 0, f->buf, 0))
CALL(fb_decode_pitch_size_max, tr_feedback_map_decode(f->fb, 0, 0, f->buf, SIZE_MAX))
CALL(fb_decode_pitch_2_62, tr_feedback_map_decode(f->fb, 0, 0, f->buf, (size_t)1 << 62))
CALL(fb_decode_pitch_2_36_plus_1, tr_feedback_map_decode(f->fb, 0, 0, f->buf, ((size_t)1 << 36) + 1))
CALL(fb_decode_pitch_below_row, tr_feedback_map_decode(f->fb, 0, 0, f->buf, 7))
CALL(fb_decode_mru_pitch_below_row, tr_feedback_map_decode(f->fb_mru, 0, 1, f->buf, 3))
CALL(fb_encode_in_null, tr_feedback_map_encode(f->fb, 0, 0, NULL, 0))
CALL(fb_encode_layer_2, tr_feedback_map_encode(f->fb, 2, 0, f->buf, 0))
CALL(fb_encode_bound, tr_feedback_map_encode(f->fb, 0, 0, f->buf, 0))
CALL(fb_encode_pitch_size_max, tr_feedback_map_encode(f->fb, 0, 0, f->buf, SIZE_MAX))
CALL(fb_encode_pitch_2_62, tr_feedback_map_encode(f->fb, 0, 0, f->buf, (size_t)1 << 62))
CALL(fb_encode_pitch_2_36_plus_1, tr_feedback_map_encode(f->fb, 0, 0, f->buf, ((size_t)1 << 36) + 1))
CALL(fb_encode_pitch_below_row, tr_feedback_map_encode(f->fb, 0, 0, f->buf, 1))
CALL(fb_bind_slot_8, tr_cmd_bind_feedback_map(f->ctx, TR_MAX_FEEDBACK_MAPS, f->fb))
CALL(fb_bind_other_context, tr_cmd_bind_feedback_map(f->ctx, 1, f->o_fb))
CALL(fb_bind_outside_pass, tr_cmd_bind_feedback_map(f->ctx, 0, f->fb))
CALL(fb_png_layer_1, tr_feedback_map_write_png(f->fb, 1, NOWHERE))
CALL(fb_png_path_null, tr_feedback_map_write_png(f->fb, 0, NULL))
CALL(fb_png_map_null, tr_feedback_map_write_png(NULL, 0, NOWHERE))
static tr_result fb_draw(fixture *f, uint32_t feedback_mask)
{
    tr_pipeline_desc pd = plain_pipeline();
    pd.texture_mask = 1;
    pd.feedback_mask = feedback_mask;
    tr_pipeline *p = NULL;
    SETUP(tr_pipeline_create(f->ctx, &pd, &p));
    SETUP(tr_cmd_bind_pipeline(f->ctx, p));
    SETUP(set_triangle_uniforms(f->ctx));
    return tr_cmd_draw(f->ctx, 3, 1, 0, 0);
}
CALL(fb_draw_slot_unbound, fb_draw(f, 0x2))
static tr_result fb_draw_unpaired(fixture *f)
{
    SETUP(tr_cmd_bind_feedback_map(f->ctx, 0, f->fb_mru)); /* 3 levels: tex has 7 */
    return fb_draw(f, 0x1);
}

/* ---- multisample.h ---- */

CALL(sample_position_samples_3, tr_sample_position(3, 0, (float *)f->buf))
CALL(sample_position_samples_0, tr_sample_position(0, 0, (float *)f->buf))
CALL(sample_position_samples_16, tr_sample_position(16, 0, (float *)f->buf))
CALL(sample_position_index_4_of_4, tr_sample_position(4, 4, (float *)f->buf))
CALL(sample_position_index_1_of_1, tr_sample_position(1, 1, (float *)f->buf))
CALL(sample_position_pos_null, tr_sample_position(4, 0, NULL))

/* ---- scene.h ---- */

static void put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static void put_f32(uint8_t *p, float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    put_u32(p, u);
}
/* A scene header (SRSCENE2's when size > 0) into `b`; returns its size. */
static size_t scene_header(uint8_t *b, uint32_t w, uint32_t h, uint32_t flags, float depth, uint32_t count, float size)
{
    memcpy(b, size > 0 ? "SRSCENE2" : "SRSCENE1", 8);
    put_u32(b + 8, w);
    put_u32(b + 12, h);
    put_u32(b + 16, flags);
    put_u32(b + 20, 0);
    put_f32(b + 24, depth);
    put_u32(b + 28, count);
    if (size <= 0)
        return 32;
    put_f32(b + 32, size);
    put_u32(b + 36, 0);
    return 40;
}
static tr_result parse_header(fixture *f, uint32_t w, uint32_t h, uint32_t flags, float depth, uint32_t count,
                              float size)
{
    uint8_t b[40];
    const size_t n = scene_header(b, w, h, flags, depth, count, size);
    return tr_scene_parse(b, n, &f->scene, NULL, 0);
}
static const tr_scene empty_scene = {.width = 64, .height = 64, .clear_depth = 1.0f, .size = 1.0f};
static tr_result save_scene(fixture *f, tr_scene s)
{
    (void)f;
    return tr_scene_save(&s, NOWHERE);
}

CALL(scene_parse_short, tr_scene_parse("nope", 4, &f->scene, NULL, 0))
CALL(scene_parse_empty, tr_scene_parse("", 0, &f->scene, NULL, 0))
CALL(scene_parse_out_null, tr_scene_parse("nope", 4, NULL, NULL, 0))
CALL(scene_parse_data_null, tr_scene_parse(NULL, 32, &f->scene, NULL, 0))
CALL(scene_parse_magic, tr_scene_parse("SRSCENE9xxxxxxxxxxxxxxxxxxxxxxxx", 32, &f->scene, NULL, 0))
CALL(scene_parse_width_0, parse_header(f, 0, 64, 0, 1.0f, 0, 0))
CALL(scene_parse_height_over_limit, parse_header(f, 64, TR_MAX_IMAGE_SIZE + 1, 0, 1.0f, 0, 0))
CALL(scene_parse_flags_unknown, parse_header(f, 64, 64, 0x100, 1.0f, 0, 0))
CALL(scene_parse_v1_lines, parse_header(f, 64, 64, TR_SCENE_LINES, 1.0f, 0, 0))
CALL(scene_parse_lines_and_points, parse_header(f, 64, 64, TR_SCENE_LINES | TR_SCENE_POINTS, 1.0f, 0, 1.0f))
CALL(scene_parse_rect_lines_alone, parse_header(f, 64, 64, TR_SCENE_RECT_LINES, 1.0f, 0, 1.0f))
CALL(scene_parse_size_65, parse_header(f, 64, 64, TR_SCENE_POINTS, 1.0f, 0, 65.0f))
CALL(scene_parse_both_blends, parse_header(f, 64, 64, TR_SCENE_BLEND_ALPHA | TR_SCENE_BLEND_ADD, 1.0f, 0, 0))
CALL(scene_parse_clear_depth_nan, parse_header(f, 64, 64, 0, NAN, 0, 0))
CALL(scene_parse_triangles_over_limit, parse_header(f, 64, 64, 0, 1.0f, TR_SCENE_MAX_TRIANGLES + 1, 0))
CALL(scene_parse_truncated, parse_header(f, 64, 64, 0, 1.0f, 1, 0))
CALL(scene_load_missing, tr_scene_load("/nonexistent-tilerast-hostile/scene.scn", &f->scene, NULL, 0))
CALL(scene_load_path_null, tr_scene_load(NULL, &f->scene, NULL, 0))
CALL(scene_load_out_null, tr_scene_load("/nonexistent-tilerast-hostile/scene.scn", NULL, NULL, 0))
CALL(scene_save_scene_null, tr_scene_save(NULL, NOWHERE))
CALL(scene_save_path_null, tr_scene_save(&empty_scene, NULL))
CALL(scene_save_width_0, save_scene(f, (tr_scene){.height = 64, .clear_depth = 1.0f}))
CALL(scene_save_flags_unknown, save_scene(f, (tr_scene){.width = 64, .height = 64, .flags = 0x1000}))
CALL(scene_save_vertices_null, save_scene(f, (tr_scene){.width = 64, .height = 64, .triangle_count = 1}))
CALL(scene_save_width_over_limit, save_scene(f, (tr_scene){.width = TR_MAX_IMAGE_SIZE + 1, .height = 64}))
CALL(scene_render_ctx_null, tr_scene_render(NULL, &empty_scene, f->rgba, NULL))
CALL(scene_render_scene_null, tr_scene_render(f->ctx, NULL, f->rgba, NULL))
CALL(scene_render_color_null, tr_scene_render(f->ctx, &empty_scene, NULL, NULL))
CALL(scene_render_color_format, tr_scene_render(f->ctx, &empty_scene, f->r8, NULL))
CALL(scene_render_color_size, tr_scene_render(f->ctx, &empty_scene, f->small, NULL))
CALL(scene_render_scene_flags,
     tr_scene_render(f->ctx, &(tr_scene){.width = 64, .height = 64, .flags = 0x1000}, f->rgba, NULL))
CALL(scene_render_depth_format, tr_scene_render_depth(f->ctx, &empty_scene, f->rgba, f->ds, NULL))
CALL(scene_render_samples_3,
     tr_scene_render_with(f->ctx, &empty_scene, &(tr_scene_render_options){.samples = 3}, f->rgba, NULL, NULL))

/* ---- sizes and aliasing (context.h TR_MAX_OBJECT_BYTES, renderpass.h "Aliasing") ---- */

CALL(image_too_many_bytes,
     IMG(.format = TR_FORMAT_R32G32B32A32_SFLOAT, .width = TR_MAX_IMAGE_SIZE, .height = TR_MAX_IMAGE_SIZE,
         .layers = TR_MAX_IMAGE_LAYERS))
/* 16 MiB against an 8 MiB limit (room left for the pass the runner then
 * records: its arena takes 1 MiB blocks) */
static tr_result image_over_memory_limit(fixture *f)
{
    SETUP(tr_context_create(&(tr_context_desc){.threads = 1, .gmem_bytes = 64 * 1024, .memory_limit = 8u << 20},
                            &f->limited));
    f->used = f->limited;
    return tr_image_create(f->limited, &(tr_image_desc){.format = RGBA8, .width = 2048, .height = 2048},
                           &f->img_out);
}
PASS_ENTRY(color_same_image_twice, d->color_count = 2; d->color[1].image = f->rgba)
/* (A resolve image that is also an attachment cannot be asked for: a resolve
 * image has one sample, every attachment of a resolving pass more, and the
 * sample check speaks first.) */
PASS_ENTRY(two_resolves_one_image, d->color_count = 2; d->color[0].image = f->ms;
           d->color[0].resolve_image = f->rgba; d->color[1].image = f->ms2; d->color[1].resolve_image = f->rgba)

#define E(hdr, id, flags, code, needle) {hdr, #id, id, code, needle, flags}
#define IA TR_ERROR_INVALID_ARGUMENT
#define ID TR_ERROR_INVALID_DESCRIPTOR
#define UF TR_ERROR_UNSUPPORTED_FORMAT
#define OOM TR_ERROR_OUT_OF_MEMORY
#define OOR TR_ERROR_OUT_OF_RANGE
#define LIM TR_ERROR_LIMIT_EXCEEDED
#define IS TR_ERROR_INVALID_STATE

static const entry table[] = {
    /* context.h */
    E("context.h", ctx_out_null, NO_CTX, IA, "out is NULL"),
    E("context.h", ctx_gmem_bytes_1, NO_CTX | OUT_CTX, ID, "tr_context_desc.gmem_bytes"),
    E("context.h", ctx_gmem_bytes_below_two_blocks, NO_CTX | OUT_CTX, ID, "tr_context_desc.gmem_bytes"),
    E("context.h", ctx_tile_max_w_1, NO_CTX | OUT_CTX, ID, "tile_max_w"),
    E("context.h", ctx_tile_max_h_over_limit, NO_CTX | OUT_CTX, ID, "tile_max_w/h"),
    E("context.h", ctx_device_99, NO_CTX | OUT_CTX, IA, "tr_context_desc.device"),
    E("context.h", ctx_device_count, NO_CTX | OUT_CTX, IA, "tr_context_desc.device"),
    E("context.h", ctx_threads_over_limit, NO_CTX | OUT_CTX, LIM, "tr_context_desc.threads"),
    E("context.h", ctx_simd_out_of_enum, NO_CTX | OUT_CTX, IA, "tr_context_desc.simd"),
    E("context.h", ctx_flags_unknown, NO_CTX | OUT_CTX, IA, "tr_context_desc.flags"),
    E("context.h", ctx_tile_align_w_12, NO_CTX | OUT_CTX, ID, "tile_align_w"),
    E("context.h", ctx_tile_align_h_2048, NO_CTX | OUT_CTX, ID, "tile_align_w/h"),
    E("context.h", ctx_allocator_alloc_only, NO_CTX | OUT_CTX, ID, "tr_context_desc.allocator"),
    E("context.h", ctx_memory_limit_1, NO_CTX | OUT_CTX, OOM, "tr_context_desc.memory_limit"),
    /* image.h */
    E("image.h", img_create_ctx_null, NO_CTX | OUT_IMG, IA, "ctx is NULL"),
    E("image.h", img_create_desc_null, OUT_IMG, IA, "desc is NULL"),
    E("image.h", img_create_out_null, 0, IA, "out is NULL"),
    E("image.h", img_create_format_count, OUT_IMG, IA, "tr_image_desc.format"),
    E("image.h", img_create_format_negative, OUT_IMG, IA, "tr_image_desc.format"),
    E("image.h", img_create_format_undefined, OUT_IMG, UF, "tr_image_desc.format"),
    E("image.h", img_create_flags_unknown, OUT_IMG, IA, "tr_image_desc.flags"),
    E("image.h", img_create_width_0, OUT_IMG, ID, "tr_image_desc.width"),
    E("image.h", img_create_height_0, OUT_IMG, ID, "height"),
    E("image.h", img_create_width_over_limit, OUT_IMG, LIM, "tr_image_desc.width"),
    E("image.h", img_create_height_uint_max, OUT_IMG, LIM, "height"),
    E("image.h", img_create_layers_over_limit, OUT_IMG, LIM, "tr_image_desc.layers"),
    E("image.h", img_create_levels_over_limit, OUT_IMG, LIM, "tr_image_desc.levels"),
    E("image.h", img_create_levels_past_chain, OUT_IMG, ID, "tr_image_desc.levels"),
    E("image.h", img_create_samples_3, OUT_IMG, ID, "tr_image_desc.samples"),
    E("image.h", img_create_samples_16, OUT_IMG, ID, "tr_image_desc.samples"),
    E("image.h", img_create_ms_with_levels, OUT_IMG, ID, "tr_image_desc.levels"),
    E("image.h", img_create_ms_subsampled, OUT_IMG, ID, "tr_image_desc.flags"),
    E("image.h", img_create_subsampled_depth, OUT_IMG, UF, "tr_image_desc.flags"),
    E("image.h", img_create_subsampled_levels, OUT_IMG, ID, "tr_image_desc.levels"),
    E("image.h", img_create_subsampled_layers, OUT_IMG, LIM, "tr_image_desc.layers"),
    E("image.h", img_destroy_colour_attachment, IN_PASS, IS, "attachment of the recording pass"),
    E("image.h", img_destroy_depth_attachment, IN_PASS, IS, "attachment of the recording pass"),
    E("image.h", img_destroy_bound_texture, BOUND, IS, "bound texture"),
    E("image.h", upload_image_null, NO_CTX, IA, "image is NULL"),
    E("image.h", upload_data_null, 0, IA, "data is NULL"),
    E("image.h", upload_level_1, 0, OOR, "level 1"),
    E("image.h", upload_attachment_in_pass, IN_PASS, IS, "attachment of the recording pass"),
    E("image.h", upload_bound_texture, BOUND, IS, "bound texture"),
    E("image.h", upload_pitch_size_max, 0, LIM, "row_pitch"),
    E("image.h", upload_pitch_2_62, 0, LIM, "row_pitch"),
    E("image.h", upload_pitch_2_36_plus_1, 0, LIM, "row_pitch"),
    E("image.h", upload_pitch_below_row, 0, IA, "row_pitch"),
    E("image.h", download_image_null, NO_CTX, IA, "image is NULL"),
    E("image.h", download_data_null, 0, IA, "data is NULL"),
    E("image.h", download_level_7, 0, OOR, "level 7"),
    E("image.h", download_layer_1, 0, OOR, "layer 1"),
    E("image.h", download_sample_4_of_4, 0, OOR, "sample 4"),
    E("image.h", download_sample_1_of_1, 0, OOR, "sample 1"),
    E("image.h", download_aspect_out_of_enum, 0, IA, "aspect 9"),
    E("image.h", download_stencil_of_colour, 0, IA, "no such aspect"),
    E("image.h", download_colour_of_depth, 0, IA, "no such aspect"),
    E("image.h", download_attachment_in_pass, IN_PASS, IS, "attachment of the recording pass"),
    E("image.h", download_pitch_size_max, 0, LIM, "row_pitch"),
    E("image.h", download_pitch_2_62, 0, LIM, "row_pitch"),
    E("image.h", download_pitch_2_36_plus_1, 0, LIM, "row_pitch"),
    E("image.h", download_pitch_below_row, 0, IA, "row_pitch"),
    E("image.h", download_depth_pitch_below_row, 0, IA, "row_pitch"),
    E("image.h", fill_level_1, 0, OOR, "level 1"),
    E("image.h", fill_attachment_in_pass, IN_PASS, IS, "attachment of the recording pass"),
    E("image.h", read_rgba8_image_null, NO_CTX, IA, "image is NULL"),
    E("image.h", read_rgba8_layer_1, 0, OOR, "layer 1"),
    E("image.h", write_png_image_null, NO_CTX, IA, "image is NULL"),
    E("image.h", write_png_path_null, 0, IA, "path is NULL"),
    E("image.h", write_png_level_3, 0, OOR, "level 3"),
    /* pipeline.h */
    E("pipeline.h", pipe_create_ctx_null, NO_CTX | OUT_PIPE, IA, "ctx is NULL"),
    E("pipeline.h", pipe_create_desc_null, OUT_PIPE, IA, "desc is NULL"),
    E("pipeline.h", pipe_create_out_null, 0, IA, "out is NULL"),
    E("pipeline.h", pipe_vertex_shader_null, OUT_PIPE, ID, "vertex_shader"),
    E("pipeline.h", pipe_varying_count_over_limit, OUT_PIPE, LIM, "varying_count"),
    E("pipeline.h", pipe_flat_mask_past_varyings, OUT_PIPE, ID, "flat_mask"),
    E("pipeline.h", pipe_noperspective_mask_past_varyings, OUT_PIPE, ID, "noperspective_mask = 0x2"),
    E("pipeline.h", pipe_centroid_mask_past_varyings, OUT_PIPE, ID, "centroid_mask = 0x2"),
    E("pipeline.h", pipe_flat_and_noperspective, OUT_PIPE, ID, "flat_mask and tr_pipeline_desc.noperspective_mask"),
    E("pipeline.h", pipe_flags_unknown, OUT_PIPE, IA, "tr_pipeline_desc.flags"),
    E("pipeline.h", pipe_fs_flags_unknown, OUT_PIPE, IA, "fs_flags"),
    E("pipeline.h", pipe_fs_flags_without_shader, OUT_PIPE, ID, "fs_flags"),
    E("pipeline.h", pipe_fs_sample_mask_without_shader, OUT_PIPE, ID, "sample mask writes"),
    E("pipeline.h", pipe_texture_mask_past_slots, OUT_PIPE, ID, "texture_mask"),
    E("pipeline.h", pipe_feedback_mask_past_slots, OUT_PIPE, ID, "feedback_mask"),
    E("pipeline.h", pipe_feedback_mask_without_shader, OUT_PIPE, ID, "feedback_mask"),
    E("pipeline.h", pipe_topology_out_of_enum, OUT_PIPE, IA, "topology"),
    E("pipeline.h", pipe_line_mode_out_of_enum, OUT_PIPE, IA, "line_mode"),
    E("pipeline.h", pipe_line_width_65, OUT_PIPE, LIM, "line_width"),
    E("pipeline.h", pipe_line_width_nan, OUT_PIPE, LIM, "line_width"),
    E("pipeline.h", pipe_cull_mode_out_of_enum, OUT_PIPE, IA, "cull_mode"),
    E("pipeline.h", pipe_front_face_out_of_enum, OUT_PIPE, IA, "front_face"),
    E("pipeline.h", pipe_tie_rule_out_of_enum, OUT_PIPE, IA, "tie_rule"),
    E("pipeline.h", pipe_depth_compare_out_of_enum, OUT_PIPE, IA, "depth_compare"),
    E("pipeline.h", pipe_stencil_front_fail_op, OUT_PIPE, IA, "stencil_front"),
    E("pipeline.h", pipe_stencil_back_compare, OUT_PIPE, IA, "stencil_back"),
    E("pipeline.h", pipe_stencil_front_write_mask, OUT_PIPE, IA, "stencil_front"),
    E("pipeline.h", pipe_multisample_samples_3, OUT_PIPE, ID, "multisample.samples"),
    E("pipeline.h", pipe_min_sample_shading_2, OUT_PIPE, IA, "min_sample_shading"),
    E("pipeline.h", pipe_bresenham_multisampled, OUT_PIPE, ID, "line_mode"),
    E("pipeline.h", pipe_blend_factor_out_of_enum, OUT_PIPE, IA, "blend[2]"),
    E("pipeline.h", pipe_blend_op_out_of_enum, OUT_PIPE, IA, "blend[0]"),
    E("pipeline.h", pipe_blend_write_mask_unknown, OUT_PIPE, IA, "blend[1].write_mask"),
    E("pipeline.h", pipe_binding_input_rate_out_of_enum, OUT_PIPE, IA, "bindings[3].input_rate"),
    E("pipeline.h", pipe_binding_divisor_per_vertex, OUT_PIPE, ID, "bindings[1].divisor"),
    E("pipeline.h", pipe_attribute_format_out_of_enum, OUT_PIPE, IA, "attributes[2].format"),
    E("pipeline.h", pipe_attribute_binding_16, OUT_PIPE, ID, "attributes[0].binding"),
    E("pipeline.h", pipe_destroy_bound, BOUND, IS, "pipeline is used"),
    /* renderpass.h */
    E("renderpass.h", begin_ctx_null, NO_CTX, IA, "ctx is NULL"),
    E("renderpass.h", begin_desc_null, 0, IA, "desc is NULL"),
    E("renderpass.h", begin_inside_a_pass, IN_PASS, IS, "already"),
    E("renderpass.h", begin_no_attachment, 0, ID, "no attachment"),
    E("renderpass.h", begin_color_count_9, 0, LIM, "color_count"),
    E("renderpass.h", begin_view_mask_view_6, 0, LIM, "view_mask"),
    E("renderpass.h", begin_view_mask_needs_layers, 0, OOR, "color[0]"),
    E("renderpass.h", begin_flags_unknown, 0, IA, "tr_render_pass_desc.flags"),
    E("renderpass.h", begin_depth_image_as_colour, 0, UF, "color[0]"),
    E("renderpass.h", begin_color_load_op_out_of_enum, 0, IA, "color[0]"),
    E("renderpass.h", begin_color_store_op_out_of_enum, 0, IA, "color[0]"),
    E("renderpass.h", begin_color_level_1, 0, OOR, "color[0].level"),
    E("renderpass.h", begin_color_base_layer_1, 0, OOR, "color[0]"),
    E("renderpass.h", begin_color_sizes_differ, 0, ID, "color[1]"),
    E("renderpass.h", begin_color_samples_differ, 0, ID, "color[1]"),
    E("renderpass.h", begin_color_other_context, 0, IA, "color[0].image"),
    E("renderpass.h", begin_colour_image_as_depth, 0, UF, "tr_render_pass_desc.depth"),
    E("renderpass.h", begin_depth_clear_depth_2, 0, IA, "clear_depth"),
    E("renderpass.h", begin_depth_clear_depth_nan, 0, IA, "clear_depth"),
    E("renderpass.h", begin_depth_stencil_load_op_out_of_enum, 0, IA, "tr_render_pass_desc.depth"),
    E("renderpass.h", begin_depth_level_1, 0, OOR, "depth.level"),
    E("renderpass.h", begin_resolve_single_sample, 0, ID, "color[0].resolve_image"),
    E("renderpass.h", begin_resolve_multisampled, 0, ID, "color[0].resolve_image"),
    E("renderpass.h", begin_resolve_format_differs, 0, UF, "color[0].resolve_image"),
    E("renderpass.h", begin_resolve_size_differs, 0, ID, "color[0].resolve_image"),
    E("renderpass.h", begin_resolve_level_1, 0, OOR, "resolve_level"),
    E("renderpass.h", begin_resolve_other_context, 0, IA, "color[0].resolve_image"),
    E("renderpass.h", begin_resolve_without_image, 0, ID, "color[1].resolve_image"),
    E("renderpass.h", begin_render_area_outside, 0, OOR, "render_area"),
    E("renderpass.h", begin_render_area_negative, 0, OOR, "render_area"),
    E("renderpass.h", begin_density_map_format, 0, UF, "density_map"),
    E("renderpass.h", begin_density_map_multisampled, 0, ID, "density_map"),
    E("renderpass.h", begin_density_map_layer_1, 0, OOR, "density_map"),
    E("renderpass.h", begin_density_map_single_bin, 0, ID, "density_map"),
    E("renderpass.h", begin_density_map_is_attachment, 0, IS, "density_map"),
    E("renderpass.h", begin_density_map_other_context, 0, IA, "density_map"),
    E("renderpass.h", begin_offset_count_without_map, 0, ID, "offset_count"),
    E("renderpass.h", begin_offset_count_2_views_1, 0, ID, "offset_count"),
    E("renderpass.h", begin_offset_not_multiple, 0, ID, "offsets[0]"),
    E("renderpass.h", begin_offset_beyond_max, 0, LIM, "offsets[0]"),
    E("renderpass.h", begin_subsampled_without_map, 0, ID, "density map"),
    E("renderpass.h", bind_pipeline_outside_pass, 0, IS, "no render pass"),
    E("renderpass.h", bind_pipeline_null, IN_PASS, IA, "pipeline is NULL"),
    E("renderpass.h", bind_pipeline_other_context, IN_PASS, IA, "pipeline belongs"),
    E("renderpass.h", bind_pipeline_ctx_null, NO_CTX, IA, "ctx is NULL"),
    E("renderpass.h", viewport_null, IN_PASS, IA, "viewport is NULL"),
    E("renderpass.h", viewport_width_0, IN_PASS, IA, "viewport (0, 0, 0 x 64)"),
    E("renderpass.h", viewport_x_nan, IN_PASS, IA, "viewport (nan"),
    E("renderpass.h", viewport_height_inf, IN_PASS, IA, "viewport (0, 0, 64 x inf)"),
    E("renderpass.h", viewport_min_depth_2, IN_PASS, IA, "min_depth"),
    E("renderpass.h", viewport_outside_pass, 0, IS, "no render pass"),
    E("renderpass.h", scissor_null, IN_PASS, IA, "scissor is NULL"),
    E("renderpass.h", scissor_x_negative, IN_PASS, IA, "x = -1"),
    E("renderpass.h", stencil_reference_outside_pass, 0, IS, "no render pass"),
    E("renderpass.h", blend_constants_null, IN_PASS, IA, "rgba is NULL"),
    E("renderpass.h", uniforms_over_limit, IN_PASS, LIM, "size 65537"),
    E("renderpass.h", uniforms_data_null, IN_PASS, IA, "data is NULL"),
    E("renderpass.h", uniforms_outside_pass, 0, IS, "no render pass"),
    E("renderpass.h", clear_attachments_null, IN_PASS, IA, "attachments is NULL"),
    E("renderpass.h", clear_rects_null, IN_PASS, IA, "rects is NULL"),
    E("renderpass.h", clear_aspects_0, IN_PASS, IA, "aspects"),
    E("renderpass.h", clear_aspects_color_and_depth, IN_PASS, IA, "aspects"),
    E("renderpass.h", clear_color_attachment_3, IN_PASS, OOR, "color_attachment"),
    E("renderpass.h", clear_depth_2, IN_PASS, IA, "attachments[0].depth"),
    E("renderpass.h", clear_rect_empty, IN_PASS, IA, "rects[0]"),
    E("renderpass.h", clear_rect_outside, IN_PASS, OOR, "rects[0]"),
    E("renderpass.h", clear_outside_pass, 0, IS, "no render pass"),
    E("renderpass.h", clear_stencil_without_attachment, OPENS_PASS, IS, "clears stencil"),
    E("renderpass.h", clear_depth_without_attachment, OPENS_PASS, IS, "clears depth"),
    E("renderpass.h", vertex_buffer_binding_16, IN_PASS, OOR, "binding 16"),
    E("renderpass.h", vertex_buffer_data_null, IN_PASS, IA, "data is NULL"),
    E("renderpass.h", vertex_buffer_offset_past_size, IN_PASS, OOR, "offset 17"),
    E("renderpass.h", vertex_buffer_outside_pass, 0, IS, "no render pass"),
    E("renderpass.h", index_buffer_type_out_of_enum, IN_PASS, IA, "type = 7"),
    E("renderpass.h", index_buffer_data_null, IN_PASS, IA, "data is NULL"),
    E("renderpass.h", index_buffer_offset_past_size, IN_PASS, OOR, "offset 32"),
    E("renderpass.h", draw_outside_pass, 0, IS, "no render pass"),
    E("renderpass.h", draw_ctx_null, NO_CTX, IA, "ctx is NULL"),
    E("renderpass.h", draw_without_pipeline, IN_PASS, IS, "no pipeline"),
    E("renderpass.h", draw_vertices_over_limit, BOUND, LIM, "TR_MAX_DRAW_VERTICES"),
    E("renderpass.h", draw_first_vertex_overflow, BOUND, OOR, "first + count"),
    E("renderpass.h", draw_first_instance_overflow, BOUND, OOR, "first + count"),
    E("renderpass.h", draw_multisampled_pipeline_in_1x_pass, IN_PASS, IS, "multisample.samples"),
    E("renderpass.h", draw_texture_slot_empty, IN_PASS, IS, "texture slot 1"),
    E("renderpass.h", draw_blend_on_integer_attachment, OPENS_PASS, UF, "blend[0]"),
    E("renderpass.h", draw_attribute_binding_unbound, IN_PASS, IS, "binding 0"),
    E("renderpass.h", draw_attribute_past_buffer, IN_PASS, OOR, "binding 0"),
    E("renderpass.h", draw_indexed_without_index_buffer, BOUND, IS, "index buffer"),
    E("renderpass.h", draw_indexed_past_index_buffer, BOUND, OOR, "indices"),
    E("renderpass.h", draw_indexed_outside_pass, 0, IS, "no render pass"),
    E("renderpass.h", end_outside_pass, 0, IS, "no render pass"),
    E("renderpass.h", end_ctx_null, NO_CTX, IA, "ctx is NULL"),
    E("renderpass.h", bin_layout_ctx_null, NO_CTX, IA, "ctx is NULL"),
    E("renderpass.h", bin_layout_desc_null, 0, IA, "desc is NULL"),
    E("renderpass.h", bin_layout_out_null, 0, IA, "out is NULL"),
    E("renderpass.h", bin_layout_no_attachment, 0, ID, "no attachment"),
    E("renderpass.h", bin_layout_depth_as_colour, 0, UF, "color[0]"),
    E("renderpass.h", bin_layout_gmem_too_small, 0, LIM, "GMEM"),
    /* texture.h */
    E("texture.h", sampler_ctx_null, NO_CTX | OUT_SMP, IA, "ctx is NULL"),
    E("texture.h", sampler_desc_null, OUT_SMP, IA, "desc is NULL"),
    E("texture.h", sampler_out_null, 0, IA, "out is NULL"),
    E("texture.h", sampler_mag_filter_out_of_enum, OUT_SMP, IA, "mag_filter"),
    E("texture.h", sampler_min_filter_out_of_enum, OUT_SMP, IA, "min_filter"),
    E("texture.h", sampler_mipmap_mode_out_of_enum, OUT_SMP, IA, "mipmap_mode"),
    E("texture.h", sampler_address_v_out_of_enum, OUT_SMP, IA, "address_v"),
    E("texture.h", sampler_border_color_out_of_enum, OUT_SMP, IA, "border_color"),
    E("texture.h", sampler_compare_out_of_enum, OUT_SMP, IA, "tr_sampler_desc.compare"),
    E("texture.h", sampler_lod_bias_nan, OUT_SMP, ID, "lod_bias"),
    E("texture.h", sampler_lod_bias_16, OUT_SMP, ID, "lod_bias"),
    E("texture.h", sampler_max_lod_negative, OUT_SMP, ID, "max_lod"),
    E("texture.h", sampler_min_lod_above_max_lod, OUT_SMP, ID, "min_lod"),
    E("texture.h", sampler_max_anisotropy_17, OUT_SMP, LIM, "max_anisotropy"),
    E("texture.h", sampler_destroy_bound, BOUND, IS, "sampler is bound"),
    E("texture.h", bind_texture_slot_16, IN_PASS, OOR, "slot 16"),
    E("texture.h", bind_texture_image_other_context, IN_PASS, IA, "image belongs"),
    E("texture.h", bind_texture_sampler_other_context, IN_PASS, IA, "sampler belongs"),
    E("texture.h", bind_texture_compare_on_colour, IN_PASS, UF, "compare sampler"),
    E("texture.h", bind_texture_linear_on_integer, IN_PASS, UF, "R32_UINT"),
    E("texture.h", bind_texture_multisampled, IN_PASS, ID, "4 samples"),
    E("texture.h", bind_texture_attachment, IN_PASS, IS, "attachment of this pass"),
    E("texture.h", bind_texture_outside_pass, 0, IS, "no render pass"),
    E("texture.h", bind_texture_density_map, OPENS_PASS, IS, "density map"),
    E("texture.h", generate_mips_image_null, NO_CTX, IA, "image is NULL"),
    E("texture.h", generate_mips_depth, 0, UF, "colour"),
    E("texture.h", generate_mips_integer, 0, UF, "R32_UINT"),
    E("texture.h", generate_mips_bound_texture, BOUND, IS, "recording pass"),
    E("texture.h", generate_mips_attachment, IN_PASS, IS, "recording pass"),
    E("texture.h", image_load_missing_file, OUT_IMG, TR_ERROR_IO, "cannot open"),
    E("texture.h", image_load_path_null, OUT_IMG, IA, "path is NULL"),
    E("texture.h", image_load_out_null, 0, IA, "out is NULL"),
    E("texture.h", image_load_ctx_null, NO_CTX | OUT_IMG, IA, "ctx is NULL"),
    E("texture.h", image_load_depth_format, OUT_IMG, UF, "D32_SFLOAT"),
    /* instancing.h */
    E("instancing.h", record_rate_out_of_enum, NO_CTX, IA, "rate = 7"),
    E("instancing.h", record_rate_negative, NO_CTX, IA, "rate = -1"),
    E("instancing.h", record_out_null, NO_CTX, IA, "out is NULL"),
    E("instancing.h", record_linear_ids_overflow_into_scratch, NO_CTX, LIM, "instance_count"),
    /* lrz.h */
    E("lrz.h", lrz_png_depth_null, NO_CTX, IA, "depth is NULL"),
    E("lrz.h", lrz_png_path_null, 0, IA, "path is NULL"),
    E("lrz.h", lrz_png_no_buffer, 0, IS, "LRZ"),
    E("lrz.h", lrz_png_colour_image, 0, IS, "LRZ"),
    E("lrz.h", lrz_png_view_1_of_1, 0, OOR, "view 1"),
    /* fdm.h */
    E("fdm.h", bin_transform_desc_null, NO_CTX, IA, "desc is NULL"),
    E("fdm.h", bin_transform_out_null, NO_CTX, IA, "out is NULL"),
    E("fdm.h", bin_transform_bin_width_0, NO_CTX, ID, "tr_fdm_bin_desc.bin"),
    E("fdm.h", bin_transform_framebuffer_over_limit, NO_CTX, ID, "framebuffer"),
    E("fdm.h", bin_transform_frag_area_3, NO_CTX, ID, "frag_area"),
    E("fdm.h", bin_transform_frag_area_not_dividing, NO_CTX, ID, "frag_area"),
    E("fdm.h", bin_transform_bin_offset_outside, NO_CTX, ID, "bin_offset"),
    E("fdm.h", bin_transform_bin_offset_not_multiple, NO_CTX, ID, "bin_offset"),
    E("fdm.h", bin_transform_viewport_nan, NO_CTX, ID, "tr_fdm_bin_desc.viewport"),
    E("fdm.h", bin_transform_scissor_negative, NO_CTX, ID, "tr_fdm_bin_desc.scissor"),
    E("fdm.h", bin_transform_bin_x_past_grid, NO_CTX, OOR, "bin_x"),
    E("fdm.h", bin_transform_bin_y_past_grid, NO_CTX, OOR, "bin_y"),
    E("fdm.h", fdm_areas_ctx_null, NO_CTX, IA, "ctx is NULL"),
    E("fdm.h", fdm_areas_desc_null, 0, IA, "desc is NULL"),
    E("fdm.h", fdm_areas_areas_null, 0, IA, "areas is NULL"),
    E("fdm.h", fdm_areas_no_density_map, 0, ID, "density_map"),
    E("fdm.h", fdm_areas_count_0, 0, OOR, "count = 0"),
    E("fdm.h", fdm_areas_density_map_format, 0, UF, "density_map"),
    E("fdm.h", fdm_areas_offset_count, 0, ID, "offset_count"),
    E("fdm.h", fdm_bin_offsets_count_0, 0, OOR, "count = 0"),
    E("fdm.h", fdm_bin_offsets_null, 0, IA, "bin_offsets is NULL"),
    E("fdm.h", fdm_tiles_capacity_0, 0, OOR, "capacity = 0"),
    E("fdm.h", fdm_tiles_count_null, 0, IA, "count is NULL"),
    E("fdm.h", fdm_png_ctx_null, NO_CTX, IA, "ctx is NULL"),
    E("fdm.h", fdm_png_desc_null, 0, IA, "desc is NULL"),
    E("fdm.h", fdm_png_image_null, 0, IA, "image is NULL"),
    E("fdm.h", fdm_png_path_null, 0, IA, "path is NULL"),
    E("fdm.h", fdm_png_no_density_map, 0, ID, "density_map"),
    E("fdm.h", fdm_png_view_slot_1, 0, OOR, "view_slot"),
    E("fdm.h", fdm_png_layer_1, 0, OOR, "layer = 1"),
    E("fdm.h", fdm_png_image_size, 0, IA, "image is 32x32"),
    /* subsample.h */
    E("subsample.h", sub_layout_desc_null, NO_CTX, IA, "desc is NULL"),
    E("subsample.h", sub_layout_header_null, NO_CTX, IA, "header is NULL"),
    E("subsample.h", sub_layout_bins_null, NO_CTX, IA, "bins is NULL"),
    E("subsample.h", sub_layout_areas_null, NO_CTX, IA, "desc->areas is NULL"),
    E("subsample.h", sub_layout_framebuffer_0, NO_CTX, ID, "framebuffer"),
    E("subsample.h", sub_layout_tile_align_0, NO_CTX, ID, "tile_align"),
    E("subsample.h", sub_layout_bins_x_short, NO_CTX, ID, "bins_x"),
    E("subsample.h", sub_layout_bins_y_two_extra, NO_CTX, ID, "bins_y"),
    E("subsample.h", sub_layout_bin_offset_without_fdm_offset, NO_CTX, ID, "bin_offset"),
    E("subsample.h", sub_layout_bin_offset_outside_bin, NO_CTX, ID, "bin_offset"),
    E("subsample.h", sub_layout_area_3x1, NO_CTX, ID, "areas[1]"),
    E("subsample.h", sub_layout_area_0x1, NO_CTX, ID, "areas[2]"),
    E("subsample.h", download_raw_data_null, 0, IA, "data is NULL"),
    E("subsample.h", download_raw_image_null, NO_CTX, IA, "image is NULL"),
    E("subsample.h", download_raw_layer_1, 0, OOR, "layer 1"),
    E("subsample.h", download_raw_pitch_size_max, 0, LIM, "row_pitch"),
    E("subsample.h", download_raw_pitch_2_62, 0, LIM, "row_pitch"),
    E("subsample.h", download_raw_pitch_2_36_plus_1, 0, LIM, "row_pitch"),
    E("subsample.h", download_raw_pitch_below_row, 0, IA, "row_pitch"),
    E("subsample.h", metadata_not_subsampled, 0, IS, "TR_IMAGE_SUBSAMPLED"),
    E("subsample.h", metadata_image_null, NO_CTX, IA, "image is NULL"),
    E("subsample.h", metadata_layer_1, 0, OOR, "layer 1"),
    E("subsample.h", metadata_header_null, 0, IA, "header is NULL"),
    E("subsample.h", metadata_count_null, 0, IA, "count is NULL"),
    E("subsample.h", metadata_capacity_0, 0, OOR, "capacity 0"),
    E("subsample.h", sub_png_not_subsampled, 0, IS, "TR_IMAGE_SUBSAMPLED"),
    E("subsample.h", sub_png_image_null, NO_CTX, IA, "image is NULL"),
    E("subsample.h", sub_png_layer_1, 0, OOR, "layer 1"),
    E("subsample.h", sub_png_path_null, 0, IA, "path is NULL"),
    /* feedback.h */
    E("feedback.h", fb_create_ctx_null, NO_CTX | OUT_FB, IA, "ctx is NULL"),
    E("feedback.h", fb_create_desc_null, OUT_FB, IA, "desc is NULL"),
    E("feedback.h", fb_create_out_null, 0, IA, "out is NULL"),
    E("feedback.h", fb_create_kind_out_of_enum, OUT_FB, IA, "kind"),
    E("feedback.h", fb_create_width_0, OUT_FB, ID, "tr_feedback_map_desc: size"),
    E("feedback.h", fb_create_height_over_limit, OUT_FB, ID, "tr_feedback_map_desc: size"),
    E("feedback.h", fb_create_levels_past_chain, OUT_FB, ID, "levels"),
    E("feedback.h", fb_create_layers_over_limit, OUT_FB, ID, "layers"),
    E("feedback.h", fb_create_region_width_6, OUT_FB, ID, "region_width"),
    E("feedback.h", fb_create_region_height_2, OUT_FB, ID, "region_height"),
    E("feedback.h", fb_create_region_width_64, OUT_FB, ID, "region_width"),
    E("feedback.h", fb_destroy_bound, BOUND, IS, "map is bound"),
    E("feedback.h", fb_clear_bound, BOUND, IS, "map is bound"),
    E("feedback.h", fb_clear_null, NO_CTX, IA, "map is NULL"),
    E("feedback.h", fb_set_mode_out_of_enum, 0, IA, "mode 2"),
    E("feedback.h", fb_set_mode_bound, BOUND, IS, "map is bound"),
    E("feedback.h", fb_set_mode_null, NO_CTX, IA, "map is NULL"),
    E("feedback.h", fb_decoded_size_min_mip_level_1, 0, OOR, "level 1"),
    E("feedback.h", fb_decoded_size_mru_level_3, 0, OOR, "level 3"),
    E("feedback.h", fb_decoded_size_null, NO_CTX, IA, "map is NULL"),
    E("feedback.h", fb_decode_null_map, NO_CTX, IA, "map is NULL"),
    E("feedback.h", fb_decode_out_null, 0, IA, "R8 buffer is NULL"),
    E("feedback.h", fb_decode_layer_1, 0, OOR, "layer 1"),
    E("feedback.h", fb_decode_min_mip_level_1, 0, OOR, "level 1"),
    E("feedback.h", fb_decode_mru_level_3, 0, OOR, "level 3"),
    E("feedback.h", fb_decode_bound, BOUND, IS, "map is bound"),
    E("feedback.h", fb_decode_pitch_size_max, 0, LIM, "row_pitch"),
    E("feedback.h", fb_decode_pitch_2_62, 0, LIM, "row_pitch"),
    E("feedback.h", fb_decode_pitch_2_36_plus_1, 0, LIM, "row_pitch"),
    E("feedback.h", fb_decode_pitch_below_row, 0, IA, "row_pitch"),
    E("feedback.h", fb_decode_mru_pitch_below_row, 0, IA, "row_pitch"),
    E("feedback.h", fb_encode_in_null, 0, IA, "R8 buffer is NULL"),
    E("feedback.h", fb_encode_layer_2, 0, OOR, "layer 2"),
    E("feedback.h", fb_encode_bound, BOUND, IS, "map is bound"),
    E("feedback.h", fb_encode_pitch_size_max, 0, LIM, "row_pitch"),
    E("feedback.h", fb_encode_pitch_2_62, 0, LIM, "row_pitch"),
    E("feedback.h", fb_encode_pitch_2_36_plus_1, 0, LIM, "row_pitch"),
    E("feedback.h", fb_encode_pitch_below_row, 0, IA, "row_pitch"),
    E("feedback.h", fb_bind_slot_8, IN_PASS, OOR, "slot 8"),
    E("feedback.h", fb_bind_other_context, IN_PASS, IA, "map belongs"),
    E("feedback.h", fb_bind_outside_pass, 0, IS, "no render pass"),
    E("feedback.h", fb_png_layer_1, 0, OOR, "layer 1"),
    E("feedback.h", fb_png_path_null, 0, IA, "path is NULL"),
    E("feedback.h", fb_png_map_null, NO_CTX, IA, "map is NULL"),
    E("feedback.h", fb_draw_slot_unbound, BOUND, IS, "feedback slot 1"),
    E("feedback.h", fb_draw_unpaired, BOUND, IS, "matches no"),
    /* multisample.h */
    E("multisample.h", sample_position_samples_3, NO_CTX, IA, "samples = 3"),
    E("multisample.h", sample_position_samples_0, NO_CTX, IA, "samples = 0"),
    E("multisample.h", sample_position_samples_16, NO_CTX, IA, "samples = 16"),
    E("multisample.h", sample_position_index_4_of_4, NO_CTX, OOR, "index = 4"),
    E("multisample.h", sample_position_index_1_of_1, NO_CTX, OOR, "index = 1"),
    E("multisample.h", sample_position_pos_null, NO_CTX, IA, "pos is NULL"),
    /* scene.h */
    E("scene.h", scene_parse_short, NO_CTX, TR_ERROR_BAD_FILE, "header"),
    E("scene.h", scene_parse_empty, NO_CTX, TR_ERROR_BAD_FILE, "empty"),
    E("scene.h", scene_parse_out_null, NO_CTX, IA, "out is NULL"),
    E("scene.h", scene_parse_data_null, NO_CTX, IA, "data is NULL"),
    E("scene.h", scene_parse_magic, NO_CTX, TR_ERROR_BAD_FILE, "magic"),
    E("scene.h", scene_parse_width_0, NO_CTX, TR_ERROR_BAD_FILE, "width"),
    E("scene.h", scene_parse_height_over_limit, NO_CTX, LIM, "height"),
    E("scene.h", scene_parse_flags_unknown, NO_CTX, TR_ERROR_BAD_FILE, "flags"),
    E("scene.h", scene_parse_v1_lines, NO_CTX, TR_ERROR_BAD_FILE, "SRSCENE2"),
    E("scene.h", scene_parse_lines_and_points, NO_CTX, TR_ERROR_BAD_FILE, "LINES and POINTS"),
    E("scene.h", scene_parse_rect_lines_alone, NO_CTX, TR_ERROR_BAD_FILE, "RECT_LINES"),
    E("scene.h", scene_parse_size_65, NO_CTX, LIM, "point size"),
    E("scene.h", scene_parse_both_blends, NO_CTX, TR_ERROR_BAD_FILE, "BLEND_ALPHA"),
    E("scene.h", scene_parse_clear_depth_nan, NO_CTX, TR_ERROR_BAD_FILE, "clear depth"),
    E("scene.h", scene_parse_triangles_over_limit, NO_CTX, LIM, "triangle count"),
    E("scene.h", scene_parse_truncated, NO_CTX, TR_ERROR_BAD_FILE, "truncated"),
    E("scene.h", scene_load_missing, NO_CTX, TR_ERROR_IO, "cannot open"),
    E("scene.h", scene_load_path_null, NO_CTX, IA, "path is NULL"),
    E("scene.h", scene_load_out_null, NO_CTX, IA, "out is NULL"),
    E("scene.h", scene_save_scene_null, NO_CTX, IA, "scene is NULL"),
    E("scene.h", scene_save_path_null, NO_CTX, IA, "path is NULL"),
    E("scene.h", scene_save_width_0, NO_CTX, IA, "scene->width"),
    E("scene.h", scene_save_flags_unknown, NO_CTX, IA, "scene->flags"),
    E("scene.h", scene_save_vertices_null, NO_CTX, IA, "scene->vertices"),
    E("scene.h", scene_save_width_over_limit, NO_CTX, LIM, "scene->width"),
    E("scene.h", scene_render_ctx_null, NO_CTX, IA, "ctx is NULL"),
    E("scene.h", scene_render_scene_null, 0, IA, "scene is NULL"),
    E("scene.h", scene_render_color_null, 0, IA, "color is NULL"),
    E("scene.h", scene_render_color_format, 0, IA, "color is R8_UNORM"),
    E("scene.h", scene_render_color_size, 0, IA, "color is R8G8B8A8_UNORM 32x32"),
    E("scene.h", scene_render_scene_flags, 0, IA, "scene is not"),
    E("scene.h", scene_render_depth_format, 0, IA, "depth_image"),
    E("scene.h", scene_render_samples_3, 0, IA, "samples = 3"),

    /* sizes refused up front, aliasing attachments */
    E("image.h", image_too_many_bytes, OUT_IMG, LIM, "8796093022208 bytes"),
    E("image.h", image_over_memory_limit, OUT_IMG, OOM, "tr_context_desc.memory_limit"),
    E("renderpass.h", color_same_image_twice, 0, ID, "color[1].image is also color[0].image"),
    E("renderpass.h", two_resolves_one_image, 0, ID, "color[1].resolve_image"),

    /* found by this table: the message named another argument than the
     * header's, and a failed call wrote the caller's output */
    E("image.h", fill_value_null, 0, IA, "value is NULL"),
    E("image.h", read_rgba8_out_null, 0, IA, "out is NULL"),
    E("instancing.h", record_linear_ids_overflow, NO_CTX, LIM, "instance_count"),
    E("instancing.h", record_padded_count_33_bits, NO_CTX, LIM, "vertex_count"),
};
#define TABLE_SIZE (sizeof table / sizeof table[0])

/* ---- the runner ---------------------------------------------------------------------------- */

static bool all_canary(const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (b[i] != CANARY)
            return false;
    return true;
}

static void expect_out_null(const entry *e, unsigned flag, const void *out, const char *what)
{
    if (e->flags & flag)
        cr_expect_null(out, "%s: a failed call left %s = %p (must be NULL)", e->name, what, out);
}

/* The context still works: an image, a pipeline and a pass that draws a
 * triangle covering it, then its pixels read back. */
static void expect_usable(const char *name, tr_context *ctx)
{
    tr_image *img = NULL;
    tr_pipeline *p = NULL;
    tr_result r = tr_image_create(ctx, &(tr_image_desc){.format = RGBA8, .width = 16, .height = 16}, &img);
    cr_expect_eq(r, TR_OK, "%s: afterwards tr_image_create returned %s (%s)", name, tr_result_string(r),
                 tr_context_last_error(ctx));
    if (r != TR_OK)
        return;
    tr_pipeline_desc pd = plain_pipeline();
    r = tr_pipeline_create(ctx, &pd, &p);
    cr_expect_eq(r, TR_OK, "%s: afterwards tr_pipeline_create returned %s", name, tr_result_string(r));
    tr_render_pass_desc d = trt_pass_desc(img, NULL);
    tr_result steps[5];
    steps[0] = r == TR_OK ? tr_cmd_begin_render_pass(ctx, &d) : r;
    steps[1] = tr_cmd_bind_pipeline(ctx, p);
    steps[2] = set_triangle_uniforms(ctx);
    steps[3] = tr_cmd_draw(ctx, 3, 1, 0, 0);
    steps[4] = tr_cmd_end_render_pass(ctx, NULL);
    for (size_t i = 0; i < sizeof steps / sizeof *steps; i++)
        cr_expect_eq(steps[i], TR_OK, "%s: afterwards pass step %zu returned %s", name, i,
                     tr_result_string(steps[i]));
    uint8_t px[16 * 16 * 4];
    memset(px, 0, sizeof px);
    cr_expect_eq(tr_image_download(img, NULL, px, 0), TR_OK, "%s: afterwards download failed", name);
    cr_expect(px[(8 * 16 + 8) * 4] == 255 && px[(8 * 16 + 8) * 4 + 3] == 255,
              "%s: afterwards the pass drew nothing (%u %u %u %u)", name, px[(8 * 16 + 8) * 4],
              px[(8 * 16 + 8) * 4 + 1], px[(8 * 16 + 8) * 4 + 2], px[(8 * 16 + 8) * 4 + 3]);
    cr_expect_eq(tr_pipeline_destroy(p), TR_OK, "%s", name);
    cr_expect_eq(tr_image_destroy(img), TR_OK, "%s", name);
}

static void run_entry(const entry *e)
{
    fixture fx, *f = &fx;
    fixture_init(f, e->name);
    if (e->flags & (IN_PASS | BOUND))
        TRT_OK(begin_pass(f));
    if (e->flags & BOUND) {
        TRT_OK(tr_cmd_bind_pipeline(f->ctx, f->pipe));
        TRT_OK(tr_cmd_bind_texture(f->ctx, 0, f->tex, f->smp));
        TRT_OK(tr_cmd_bind_feedback_map(f->ctx, 0, f->fb));
    }

    const tr_result r = e->call(f);
    const char *msg = tr_last_error();
    if (getenv("TR_HOSTILE_VERBOSE")) /* the whole table's codes and messages, for review */
        fprintf(stderr, "%-13s %-44s %-28s %s\n", e->header, e->name, tr_result_string(r), msg);

    /* (1) the exact code, (2) a message naming the argument */
    cr_expect_eq(r, e->code, "%s: returned %s, expected %s (message \"%s\")", e->name, tr_result_string(r),
                 tr_result_string(e->code), msg);
    cr_expect(strstr(msg, e->needle) != NULL, "%s: message \"%s\" does not contain \"%s\"", e->name, msg,
              e->needle);
    /* (3) the context's message is the thread's */
    if (!(e->flags & NO_CTX))
        cr_expect_str_eq(tr_context_last_error(f->used), msg,
                         "%s: the context's message \"%s\" is not the thread's \"%s\"", e->name,
                         tr_context_last_error(f->used), msg);
    /* (4) the caller's memory: untouched, and *out NULL after a failed create */
    cr_expect(all_canary(f->buf, BUF_BYTES), "%s: the failed call wrote to the caller's buffer", e->name);
    expect_out_null(e, OUT_CTX, f->ctx_out, "*out (context)");
    expect_out_null(e, OUT_IMG, f->img_out, "*out (image)");
    expect_out_null(e, OUT_PIPE, f->pipe_out, "*out (pipeline)");
    expect_out_null(e, OUT_SMP, f->smp_out, "*out (sampler)");
    expect_out_null(e, OUT_FB, f->fb_out, "*out (feedback map)");

    /* (5) the next call that succeeds clears the message(s) */
    if (e->flags & NO_CTX) {
        float pos[2];
        cr_expect_eq(tr_sample_position(1, 0, pos), TR_OK, "%s", e->name);
        cr_expect_str_eq(tr_last_error(), "", "%s: tr_last_error() still \"%s\" after a call that succeeded",
                         e->name, tr_last_error());
    } else {
        tr_image *one = NULL;
        const tr_result ok =
            tr_image_create(f->used, &(tr_image_desc){.format = TR_FORMAT_R8_UNORM, .width = 1, .height = 1}, &one);
        cr_expect_eq(ok, TR_OK, "%s: a 1x1 image afterwards: %s", e->name, tr_result_string(ok));
        cr_expect_str_eq(tr_last_error(), "", "%s: tr_last_error() still \"%s\" after a call that succeeded",
                         e->name, tr_last_error());
        cr_expect_str_eq(tr_context_last_error(f->used), "",
                         "%s: tr_context_last_error() still \"%s\" after a call that succeeded", e->name,
                         tr_context_last_error(f->used));
        tr_image_destroy(one);
    }

    /* (6) the context still works: end the pass the entry ran in (a
     * refused begin must not have left one open), then render */
    const tr_result end = tr_cmd_end_render_pass(f->used, NULL);
    if (e->flags & (IN_PASS | BOUND | OPENS_PASS))
        cr_expect_eq(end, TR_OK, "%s: ending the pass afterwards returned %s (%s)", e->name, tr_result_string(end),
                     tr_last_error());
    else
        cr_expect_eq(end, TR_ERROR_INVALID_STATE, "%s: the failed call left a render pass recording", e->name);
    expect_usable(e->name, f->used);
    if (f->used != f->ctx)
        expect_usable(e->name, f->ctx);
    fixture_fini(f);
}

static size_t run_header(const char *header)
{
    size_t n = 0;
    for (size_t i = 0; i < TABLE_SIZE; i++)
        if (!strcmp(table[i].header, header)) {
            run_entry(&table[i]);
            n++;
        }
    return n;
}

/* ---- the tests ----------------------------------------------------------------------------- */

static const char *const headers[] = {"context.h", "image.h", "pipeline.h", "renderpass.h", "texture.h",
                                      "instancing.h", "lrz.h", "fdm.h", "subsample.h", "feedback.h",
                                      "multisample.h", "scene.h"};

Test(hostile, the_table_is_big_distinct_and_covers_every_header)
{
    size_t counted = 0;
    for (size_t h = 0; h < sizeof headers / sizeof *headers; h++) {
        size_t n = 0;
        for (size_t i = 0; i < TABLE_SIZE; i++)
            n += !strcmp(table[i].header, headers[h]);
        cr_expect_gt(n, 0, "no entry for %s", headers[h]);
        counted += n;
    }
    cr_expect_eq(counted, TABLE_SIZE, "an entry names a header outside the list");
    cr_expect_geq(TABLE_SIZE, 100);
    for (size_t i = 0; i < TABLE_SIZE; i++) {
        cr_expect(table[i].needle[0] != '\0', "%s: empty needle", table[i].name);
        for (size_t j = i + 1; j < TABLE_SIZE; j++) {
            cr_expect(strcmp(table[i].name, table[j].name) != 0, "two entries named %s", table[i].name);
            cr_expect(table[i].call != table[j].call, "%s and %s make the same call", table[i].name, table[j].name);
        }
    }
}

Test(hostile, context_h) { cr_expect_gt(run_header("context.h"), 0); }
Test(hostile, image_h) { cr_expect_gt(run_header("image.h"), 0); }
Test(hostile, pipeline_h) { cr_expect_gt(run_header("pipeline.h"), 0); }
Test(hostile, renderpass_h) { cr_expect_gt(run_header("renderpass.h"), 0); }
Test(hostile, texture_h) { cr_expect_gt(run_header("texture.h"), 0); }
Test(hostile, instancing_h) { cr_expect_gt(run_header("instancing.h"), 0); }
Test(hostile, lrz_h) { cr_expect_gt(run_header("lrz.h"), 0); }
Test(hostile, fdm_h) { cr_expect_gt(run_header("fdm.h"), 0); }
Test(hostile, subsample_h) { cr_expect_gt(run_header("subsample.h"), 0); }
Test(hostile, feedback_h) { cr_expect_gt(run_header("feedback.h"), 0); }
Test(hostile, multisample_h) { cr_expect_gt(run_header("multisample.h"), 0); }
Test(hostile, scene_h) { cr_expect_gt(run_header("scene.h"), 0); }

/* renderpass.h's tr_pass_stats_to_json returns a length, not a tr_result:
 * hostile sizes get snprintf's contract and never a write past `size`. */
Test(hostile, pass_stats_to_json_with_hostile_sizes)
{
    char b[8];
    memset(b, CANARY, sizeof b);
    cr_expect_eq(tr_pass_stats_to_json(NULL, NULL, 0), 4u); /* "null" */
    cr_expect_eq(tr_pass_stats_to_json(NULL, b, 3), 4u);
    cr_expect_str_eq(b, "nu");
    cr_expect_eq((uint8_t)b[3], CANARY, "wrote past size");
    const tr_pass_stats s = {0};
    const size_t need = tr_pass_stats_to_json(&s, NULL, 0);
    cr_expect_gt(need, 100u);
    memset(b, CANARY, sizeof b);
    cr_expect_eq(tr_pass_stats_to_json(&s, b, 1), need);
    cr_expect_eq(b[0], '\0');
    cr_expect_eq((uint8_t)b[1], CANARY, "wrote past size");
}

