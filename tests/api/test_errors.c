/* Bad input gets its error code (result.h) from the call that received it,
 * a message naming the field, and never a crash; nothing already recorded
 * is lost. */
#define _POSIX_C_SOURCE 200112L /* posix_memalign */
#include "trtest.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define EXPECT_CODE(call, code)                                                                 \
    do {                                                                                        \
        tr_result r_ = (call);                                                                  \
        cr_expect_eq(r_, (code), "%s returned %s, expected %s", #call, tr_result_string(r_),     \
                     tr_result_string(code));                                                   \
    } while (0)

/* The message names the field (case-insensitive substring). */
static void expect_message(tr_context *ctx, const char *field)
{
    const char *m = tr_context_last_error(ctx);
    cr_assert_not_null(m);
    cr_expect_neq(m[0], '\0', "no message after an error (expected one naming %s)", field);
    if (!field)
        return;
    size_t n = strlen(field);
    int found = 0;
    for (const char *p = m; *p && !found; p++) {
        size_t i = 0;
        while (i < n && p[i] && (p[i] | 32) == (field[i] | 32))
            i++;
        found = i == n;
    }
    cr_expect(found, "message \"%s\" does not name %s", m, field);
}

/* ---- result names --------------------------------------------------------------------------- */

Test(api, result_strings_name_every_code)
{
    static const struct { tr_result r; const char *name; } names[] = {
        {TR_OK, "TR_OK"},
        {TR_ERROR_INVALID_ARGUMENT, "TR_ERROR_INVALID_ARGUMENT"},
        {TR_ERROR_INVALID_DESCRIPTOR, "TR_ERROR_INVALID_DESCRIPTOR"},
        {TR_ERROR_UNSUPPORTED_FORMAT, "TR_ERROR_UNSUPPORTED_FORMAT"},
        {TR_ERROR_OUT_OF_MEMORY, "TR_ERROR_OUT_OF_MEMORY"},
        {TR_ERROR_OUT_OF_RANGE, "TR_ERROR_OUT_OF_RANGE"},
        {TR_ERROR_LIMIT_EXCEEDED, "TR_ERROR_LIMIT_EXCEEDED"},
        {TR_ERROR_INVALID_STATE, "TR_ERROR_INVALID_STATE"},
        {TR_ERROR_IO, "TR_ERROR_IO"},
        {TR_ERROR_BAD_FILE, "TR_ERROR_BAD_FILE"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *s = tr_result_string(names[i].r);
        cr_assert_not_null(s);
        cr_expect_str_eq(s, names[i].name);
    }
    cr_expect_str_eq(tr_result_string((tr_result)1), "TR_UNKNOWN_RESULT");
    cr_expect_str_eq(tr_result_string((tr_result)-10), "TR_UNKNOWN_RESULT");
    cr_expect_str_eq(tr_result_string((tr_result)-1000), "TR_UNKNOWN_RESULT");
    cr_expect_str_eq(tr_result_string((tr_result)0x7fffffff), "TR_UNKNOWN_RESULT");
}

Test(api, last_error_empty_then_set)
{
    tr_context *ctx = trt_context(1);
    cr_expect_str_eq(tr_context_last_error(ctx), "");
    tr_image *img = (tr_image *)0x1;
    tr_image_desc d = {TR_FORMAT_R8G8B8A8_UNORM, TR_MAX_IMAGE_SIZE + 1, 4, 0, 0, 0, 0};
    EXPECT_CODE(tr_image_create(ctx, &d, &img), TR_ERROR_LIMIT_EXCEEDED);
    expect_message(ctx, "width");
    tr_context_destroy(ctx);
}

/* ---- context ---------------------------------------------------------------------------------- */

Test(api, context_errors)
{
    EXPECT_CODE(tr_context_create(NULL, NULL), TR_ERROR_INVALID_ARGUMENT);
    tr_context *ctx = (tr_context *)0x1;
    tr_context_desc d = {0};
    d.threads = TR_MAX_THREADS + 1;
    EXPECT_CODE(tr_context_create(&d, &ctx), TR_ERROR_LIMIT_EXCEEDED);
    cr_expect_null(ctx, "*out must be NULL on failure");
    memset(&d, 0, sizeof d);
    d.simd = (tr_simd_level)99;
    EXPECT_CODE(tr_context_create(&d, &ctx), TR_ERROR_INVALID_ARGUMENT);
    memset(&d, 0, sizeof d);
    d.tile_align_w = 12; /* not a multiple of 8 */
    EXPECT_CODE(tr_context_create(&d, &ctx), TR_ERROR_INVALID_DESCRIPTOR);
    memset(&d, 0, sizeof d);
    d.tile_align_h = 20;
    EXPECT_CODE(tr_context_create(&d, &ctx), TR_ERROR_INVALID_DESCRIPTOR);

    /* defaults are applied and reported */
    TRT_OK(tr_context_create(NULL, &ctx));
    tr_context_desc g = tr_context_get_desc(ctx);
    cr_expect_eq(g.gmem_bytes, 1024 * 1024);
    cr_expect_eq(g.tile_align_w, 32);
    cr_expect_eq(g.tile_align_h, 16);
    cr_expect_eq(g.tile_max_w, 1024);
    cr_expect_eq(g.tile_max_h, 1024);
    cr_expect_geq(g.threads, 1);
    cr_expect_str_eq(tr_context_last_error(ctx), "");
    tr_context_destroy(ctx);
    tr_context_destroy(NULL); /* harmless */
}

/* An allocator that fails after `left` allocations. */
typedef struct fail_alloc {
    int left;
    int live;
} fail_alloc;

static void *fa_alloc(void *user, size_t size, size_t align)
{
    fail_alloc *f = (fail_alloc *)user;
    if (f->left == 0)
        return NULL;
    if (f->left > 0)
        f->left--;
    void *p = NULL;
    if (align < sizeof(void *))
        align = sizeof(void *);
    if (posix_memalign(&p, align, size ? size : 1) != 0)
        return NULL;
    f->live++;
    return p;
}

static void fa_free(void *user, void *ptr)
{
    fail_alloc *f = (fail_alloc *)user;
    if (ptr)
        f->live--;
    free(ptr);
}

Test(api, out_of_memory_is_reported)
{
    fail_alloc f = {0, 0};
    tr_context_desc d = {0};
    d.threads = 1;
    d.allocator.alloc = fa_alloc;
    d.allocator.free = fa_free;
    d.allocator.user = &f;
    tr_context *ctx = (tr_context *)0x1;
    EXPECT_CODE(tr_context_create(&d, &ctx), TR_ERROR_OUT_OF_MEMORY);
    cr_expect_null(ctx);
    cr_expect_eq(f.live, 0, "%d allocations leaked", f.live);

    /* a working context whose allocator then runs dry: an image fails
     * cleanly and the context keeps working */
    f.left = -1;
    TRT_OK(tr_context_create(&d, &ctx));
    f.left = 0;
    tr_image *img = (tr_image *)0x1;
    tr_image_desc id = {TR_FORMAT_R8G8B8A8_UNORM, 64, 64, 1, 1, 0, 0};
    EXPECT_CODE(tr_image_create(ctx, &id, &img), TR_ERROR_OUT_OF_MEMORY);
    cr_expect_null(img);
    expect_message(ctx, NULL);
    f.left = -1;
    TRT_OK(tr_image_create(ctx, &id, &img));
    tr_context_destroy(ctx);
    cr_expect_eq(f.live, 0, "%d allocations leaked", f.live);
}

/* ---- images ----------------------------------------------------------------------------------- */

Test(api, image_create_errors)
{
    tr_context *ctx = trt_context(1);
    tr_image *img = (tr_image *)0x1;
    tr_image_desc ok = {TR_FORMAT_R8G8B8A8_UNORM, 16, 16, 1, 1, 0, 0};
    tr_image_desc d;

    EXPECT_CODE(tr_image_create(NULL, &ok, &img), TR_ERROR_INVALID_ARGUMENT);
    EXPECT_CODE(tr_image_create(ctx, NULL, &img), TR_ERROR_INVALID_ARGUMENT);
    EXPECT_CODE(tr_image_create(ctx, &ok, NULL), TR_ERROR_INVALID_ARGUMENT);

    d = ok;
    d.format = TR_FORMAT_COUNT;
    EXPECT_CODE(tr_image_create(ctx, &d, &img), TR_ERROR_INVALID_ARGUMENT);
    cr_expect_null(img);
    d.format = (tr_format)-3;
    EXPECT_CODE(tr_image_create(ctx, &d, &img), TR_ERROR_INVALID_ARGUMENT);
    expect_message(ctx, "format");

    d = ok;
    d.format = TR_FORMAT_UNDEFINED; /* in the enum, but not a format an image can have */
    EXPECT_CODE(tr_image_create(ctx, &d, &img), TR_ERROR_UNSUPPORTED_FORMAT);
    expect_message(ctx, "format");

    /* size 0 is a descriptor field out of range, not a TR_MAX_* limit */
    d = ok;
    d.width = 0;
    EXPECT_CODE(tr_image_create(ctx, &d, &img), TR_ERROR_INVALID_DESCRIPTOR);
    expect_message(ctx, "width");
    d = ok;
    d.height = 0;
    EXPECT_CODE(tr_image_create(ctx, &d, &img), TR_ERROR_INVALID_DESCRIPTOR);
    expect_message(ctx, "height");
    d = ok;
    d.width = TR_MAX_IMAGE_SIZE + 1;
    EXPECT_CODE(tr_image_create(ctx, &d, &img), TR_ERROR_LIMIT_EXCEEDED);
    d = ok;
    d.height = 0xFFFFFFFFu;
    EXPECT_CODE(tr_image_create(ctx, &d, &img), TR_ERROR_LIMIT_EXCEEDED);
    d = ok;
    d.layers = TR_MAX_IMAGE_LAYERS + 1;
    EXPECT_CODE(tr_image_create(ctx, &d, &img), TR_ERROR_LIMIT_EXCEEDED);
    expect_message(ctx, "layers");
    /* context.h: requests over TR_MAX_* get LIMIT_EXCEEDED, checked up front */
    d = ok;
    d.levels = TR_MAX_IMAGE_LEVELS + 1;
    EXPECT_CODE(tr_image_create(ctx, &d, &img), TR_ERROR_LIMIT_EXCEEDED);
    expect_message(ctx, "levels");
    /* within the limit but longer than this image's chain: out of range */
    d = ok;
    d.levels = 6; /* 16x16 has a chain of 5 levels */
    EXPECT_CODE(tr_image_create(ctx, &d, &img), TR_ERROR_INVALID_DESCRIPTOR);
    expect_message(ctx, "levels");

    /* the limits themselves are accepted */
    d = ok;
    d.width = TR_MAX_IMAGE_SIZE;
    d.height = 1;
    d.levels = TR_MAX_IMAGE_LEVELS; /* 16384 wide: 15 levels */
    TRT_OK(tr_image_create(ctx, &d, &img));
    cr_expect_eq(tr_image_level_width(img, 14), 1);
    cr_expect_eq(tr_image_level_height(img, 14), 1);
    tr_image_destroy(img);
    d = ok;
    d.levels = 5;
    TRT_OK(tr_image_create(ctx, &d, &img));
    tr_image_desc g = tr_image_get_desc(img);
    cr_expect_eq(g.levels, 5);
    cr_expect_eq(tr_image_level_width(img, 4), 1);
    tr_image_destroy(img);
    tr_image_destroy(NULL);
    tr_context_destroy(ctx);
}

Test(api, image_transfer_errors)
{
    tr_context *ctx = trt_context(1);
    tr_image_desc d = {TR_FORMAT_R8G8B8A8_UNORM, 16, 8, 3, 2, 0, 0};
    tr_image *img;
    TRT_OK(tr_image_create(ctx, &d, &img));
    static uint8_t buf[16 * 8 * 16];
    tr_subresource sub = {0, 0, TR_ASPECT_DEFAULT, 0};

    EXPECT_CODE(tr_image_upload(NULL, &sub, buf, 0), TR_ERROR_INVALID_ARGUMENT);
    EXPECT_CODE(tr_image_upload(img, &sub, NULL, 0), TR_ERROR_INVALID_ARGUMENT);
    EXPECT_CODE(tr_image_download(NULL, &sub, buf, 0), TR_ERROR_INVALID_ARGUMENT);
    EXPECT_CODE(tr_image_download(img, &sub, NULL, 0), TR_ERROR_INVALID_ARGUMENT);
    EXPECT_CODE(tr_image_fill(img, &sub, NULL), TR_ERROR_INVALID_ARGUMENT);
    EXPECT_CODE(tr_image_read_rgba8(img, &sub, NULL), TR_ERROR_INVALID_ARGUMENT);

    sub.level = 2;
    EXPECT_CODE(tr_image_upload(img, &sub, buf, 0), TR_ERROR_OUT_OF_RANGE);
    EXPECT_CODE(tr_image_download(img, &sub, buf, 0), TR_ERROR_OUT_OF_RANGE);
    const float v[4] = {1, 1, 1, 1};
    EXPECT_CODE(tr_image_fill(img, &sub, v), TR_ERROR_OUT_OF_RANGE);
    expect_message(ctx, "level");
    sub.level = 1;
    sub.layer = 3;
    EXPECT_CODE(tr_image_upload(img, &sub, buf, 0), TR_ERROR_OUT_OF_RANGE);
    EXPECT_CODE(tr_image_download(img, &sub, buf, 0), TR_ERROR_OUT_OF_RANGE);
    expect_message(ctx, "layer");
    sub.layer = 2;
    TRT_OK(tr_image_download(img, &sub, buf, 0));
    sub.aspect = (tr_aspect)9;
    EXPECT_CODE(tr_image_download(img, &sub, buf, 0), TR_ERROR_INVALID_ARGUMENT);
    tr_context_destroy(ctx);
}

Test(api, image_round_trip_with_pitch_and_levels)
{
    /* Not an error case, but the transfers other tests rely on. */
    tr_context *ctx = trt_context(1);
    tr_image_desc d = {TR_FORMAT_R8G8B8A8_UNORM, 5, 3, 2, 3, 0, 0};
    tr_image *img;
    TRT_OK(tr_image_create(ctx, &d, &img));
    uint8_t in[3][32], out[5 * 3 * 4];
    for (int y = 0; y < 3; y++)
        for (int i = 0; i < 32; i++)
            in[y][i] = (uint8_t)(y * 32 + i);
    tr_subresource sub = {0, 1, TR_ASPECT_DEFAULT, 0};
    TRT_OK(tr_image_upload(img, &sub, in, 32));
    TRT_OK(tr_image_download(img, &sub, out, 0));
    for (int y = 0; y < 3; y++)
        cr_expect(!memcmp(&out[y * 20], in[y], 20), "row %d", y);
    /* level 1 of a 5x3 image is 2x1 */
    cr_expect_eq(tr_image_level_width(img, 1), 2);
    cr_expect_eq(tr_image_level_height(img, 1), 1);
    const float fill[4] = {1.0f, 0.0f, 0.2f, 0.4f};
    sub.level = 1;
    TRT_OK(tr_image_fill(img, &sub, fill));
    TRT_OK(tr_image_download(img, &sub, out, 0));
    static const uint8_t want[8] = {255, 0, 51, 102, 255, 0, 51, 102};
    cr_expect(!memcmp(out, want, 8));
    cr_expect_eq(tr_format_texel_size(TR_FORMAT_D32_SFLOAT_S8_UINT, TR_ASPECT_DEPTH), 4);
    cr_expect_eq(tr_format_texel_size(TR_FORMAT_D32_SFLOAT_S8_UINT, TR_ASPECT_STENCIL), 1);
    cr_expect_eq(tr_format_texel_size(TR_FORMAT_D32_SFLOAT, TR_ASPECT_STENCIL), 0);
    cr_expect_eq(tr_format_texel_size(TR_FORMAT_R16G16B16A16_SFLOAT, TR_ASPECT_DEFAULT), 8);
    cr_expect_eq(tr_format_texel_size(TR_FORMAT_R32G32B32A32_SFLOAT, TR_ASPECT_COLOR), 16);
    tr_context_destroy(ctx);
}

/* ---- pipelines -------------------------------------------------------------------------------- */

static tr_pipeline_desc good_pipeline(void)
{
    tr_pipeline_desc d;
    memset(&d, 0, sizeof d);
    d.vertex_shader = trt_vs;
    d.fragment_shader = trt_fs_varying;
    d.varying_count = 1;
    return d;
}

#define EXPECT_PIPE(field_stmt, code, field)                                                     \
    do {                                                                                         \
        tr_pipeline_desc d_ = good_pipeline();                                                   \
        tr_pipeline *p_ = (tr_pipeline *)0x1;                                                    \
        field_stmt;                                                                              \
        tr_result r_ = tr_pipeline_create(ctx, &d_, &p_);                                        \
        cr_expect_eq(r_, (code), "%s: %s, expected %s", #field_stmt, tr_result_string(r_),       \
                     tr_result_string(code));                                                    \
        cr_expect_null(p_, "%s: *out not NULL", #field_stmt);                                     \
        if (r_ != TR_OK)                                                                         \
            expect_message(ctx, field);                                                          \
    } while (0)

Test(api, pipeline_errors)
{
    tr_context *ctx = trt_context(1);
    tr_pipeline_desc ok = good_pipeline();
    tr_pipeline *p;
    EXPECT_CODE(tr_pipeline_create(NULL, &ok, &p), TR_ERROR_INVALID_ARGUMENT);
    EXPECT_CODE(tr_pipeline_create(ctx, NULL, &p), TR_ERROR_INVALID_ARGUMENT);
    EXPECT_CODE(tr_pipeline_create(ctx, &ok, NULL), TR_ERROR_INVALID_ARGUMENT);

    /* a required descriptor field missing */
    EXPECT_PIPE(d_.vertex_shader = NULL, TR_ERROR_INVALID_DESCRIPTOR, "vertex_shader");
    EXPECT_PIPE(d_.varying_count = TR_MAX_VARYINGS + 1, TR_ERROR_LIMIT_EXCEEDED, "varying_count");
    EXPECT_PIPE(d_.topology = (tr_topology)6, TR_ERROR_INVALID_ARGUMENT, "topology");
    EXPECT_PIPE(d_.cull_mode = (tr_cull_mode)4, TR_ERROR_INVALID_ARGUMENT, "cull_mode");
    EXPECT_PIPE(d_.front_face = (tr_front_face)2, TR_ERROR_INVALID_ARGUMENT, "front_face");
    EXPECT_PIPE(d_.tie_rule = (tr_tie_rule)2, TR_ERROR_INVALID_ARGUMENT, "tie_rule");
    EXPECT_PIPE(d_.depth_compare = (tr_compare_op)9, TR_ERROR_INVALID_ARGUMENT, "depth_compare");
    EXPECT_PIPE(d_.stencil_front.fail_op = (tr_stencil_op)8, TR_ERROR_INVALID_ARGUMENT, "stencil_front");
    EXPECT_PIPE(d_.stencil_back.pass_op = (tr_stencil_op)-1, TR_ERROR_INVALID_ARGUMENT, "stencil_back");
    EXPECT_PIPE(d_.stencil_back.depth_fail_op = (tr_stencil_op)100, TR_ERROR_INVALID_ARGUMENT,
                "stencil_back");
    EXPECT_PIPE(d_.stencil_front.compare = (tr_compare_op)9, TR_ERROR_INVALID_ARGUMENT,
                "stencil_front");
    EXPECT_PIPE(d_.blend[0].src_color = (tr_blend_factor)20, TR_ERROR_INVALID_ARGUMENT, "blend[0]");
    EXPECT_PIPE(d_.blend[3].dst_alpha = (tr_blend_factor)-2, TR_ERROR_INVALID_ARGUMENT, "blend[3]");
    EXPECT_PIPE(d_.blend[7].color_op = (tr_blend_op)5, TR_ERROR_INVALID_ARGUMENT, "blend[7]");
    EXPECT_PIPE(d_.blend[1].alpha_op = (tr_blend_op)77, TR_ERROR_INVALID_ARGUMENT, "blend[1]");

    /* limits themselves are fine */
    tr_pipeline_desc d = good_pipeline();
    d.varying_count = TR_MAX_VARYINGS;
    d.flat_mask = 0xFFFF;
    TRT_OK(tr_pipeline_create(ctx, &d, &p));
    tr_pipeline_destroy(p);
    d = good_pipeline();
    d.fragment_shader = NULL; /* depth-only is allowed */
    TRT_OK(tr_pipeline_create(ctx, &d, &p));
    tr_pipeline_destroy(p);
    tr_pipeline_destroy(NULL);
    tr_context_destroy(ctx);
}

/* ---- render passes ---------------------------------------------------------------------------- */

typedef struct pass_fixture {
    tr_context *ctx;
    tr_image *rgba, *rgba2, *rgba_small, *rgba_layers, *rgba_levels, *depth, *depth_small;
    tr_pipeline *pipe;
} pass_fixture;

static pass_fixture fixture(void)
{
    pass_fixture f;
    f.ctx = trt_context(1);
    f.rgba = trt_image(f.ctx, TR_FORMAT_R8G8B8A8_UNORM, 32, 32);
    f.rgba2 = trt_image(f.ctx, TR_FORMAT_R8G8B8A8_UNORM, 32, 32);
    f.rgba_small = trt_image(f.ctx, TR_FORMAT_R8G8B8A8_UNORM, 16, 32);
    f.rgba_layers = trt_image_layers(f.ctx, TR_FORMAT_R8G8B8A8_UNORM, 32, 32, 4);
    tr_image_desc d = {TR_FORMAT_R8G8B8A8_UNORM, 64, 64, 1, 2, 0, 0};
    TRT_OK(tr_image_create(f.ctx, &d, &f.rgba_levels));
    f.depth = trt_image(f.ctx, TR_FORMAT_D32_SFLOAT, 32, 32);
    f.depth_small = trt_image(f.ctx, TR_FORMAT_D32_SFLOAT, 32, 16);
    f.pipe = trt_pipeline(f.ctx, NULL);
    return f;
}

static tr_render_pass_desc simple_pass(const pass_fixture *f)
{
    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.color_count = 1;
    rp.color[0].image = f->rgba;
    rp.depth.image = f->depth;
    return rp;
}

#define EXPECT_PASS(stmt, code, field)                                                           \
    do {                                                                                         \
        tr_render_pass_desc rp_ = simple_pass(&f);                                               \
        stmt;                                                                                    \
        tr_result r_ = tr_cmd_begin_render_pass(f.ctx, &rp_);                                    \
        cr_expect_eq(r_, (code), "%s: %s, expected %s", #stmt, tr_result_string(r_),             \
                     tr_result_string(code));                                                    \
        if (r_ == TR_OK)                                                                         \
            tr_cmd_end_render_pass(f.ctx, NULL);                                                 \
        else                                                                                     \
            expect_message(f.ctx, field);                                                        \
        tr_bin_layout l_;                                                                        \
        tr_result r2_ = tr_compute_bin_layout(f.ctx, &rp_, &l_);                                 \
        cr_expect_eq(r2_, (code), "tr_compute_bin_layout, %s: %s, expected %s", #stmt,           \
                     tr_result_string(r2_), tr_result_string(code));                             \
    } while (0)

Test(api, render_pass_descriptor_errors)
{
    pass_fixture f = fixture();
    EXPECT_CODE(tr_cmd_begin_render_pass(NULL, NULL), TR_ERROR_INVALID_ARGUMENT);
    EXPECT_CODE(tr_cmd_begin_render_pass(f.ctx, NULL), TR_ERROR_INVALID_ARGUMENT);
    tr_render_pass_desc ok = simple_pass(&f);
    tr_bin_layout l;
    EXPECT_CODE(tr_compute_bin_layout(f.ctx, &ok, NULL), TR_ERROR_INVALID_ARGUMENT);
    EXPECT_CODE(tr_compute_bin_layout(f.ctx, NULL, &l), TR_ERROR_INVALID_ARGUMENT);

    EXPECT_PASS(rp_.color_count = TR_MAX_COLOR_ATTACHMENTS + 1, TR_ERROR_LIMIT_EXCEEDED,
                "color_count");
    EXPECT_PASS((rp_.color[0].image = f.depth, rp_.depth.image = NULL), TR_ERROR_UNSUPPORTED_FORMAT,
                "color[0]");
    EXPECT_PASS(rp_.depth.image = f.rgba2, TR_ERROR_UNSUPPORTED_FORMAT, "depth");
    EXPECT_PASS(rp_.color[0].image = f.rgba_small, TR_ERROR_INVALID_DESCRIPTOR, NULL);
    EXPECT_PASS(rp_.depth.image = f.depth_small, TR_ERROR_INVALID_DESCRIPTOR, NULL);
    EXPECT_PASS((rp_.color_count = 2, rp_.color[1].image = f.rgba_small),
                TR_ERROR_INVALID_DESCRIPTOR, NULL);
    EXPECT_PASS(rp_.color[0].level = 1, TR_ERROR_OUT_OF_RANGE, "level");
    EXPECT_PASS(rp_.depth.level = 1, TR_ERROR_OUT_OF_RANGE, "level");
    EXPECT_PASS(rp_.color[0].base_layer = 1, TR_ERROR_OUT_OF_RANGE, "layer");
    EXPECT_PASS(rp_.depth.base_layer = 5, TR_ERROR_OUT_OF_RANGE, "layer");
    EXPECT_PASS(rp_.color[0].load_op = (tr_load_op)3, TR_ERROR_INVALID_ARGUMENT, "color[0]");
    EXPECT_PASS(rp_.color[0].store_op = (tr_store_op)2, TR_ERROR_INVALID_ARGUMENT, "color[0]");
    EXPECT_PASS(rp_.depth.stencil_load_op = (tr_load_op)-1, TR_ERROR_INVALID_ARGUMENT, "depth");
    EXPECT_PASS(rp_.depth.depth_store_op = (tr_store_op)9, TR_ERROR_INVALID_ARGUMENT, "depth");
    /* render area outside the framebuffer */
    EXPECT_PASS(rp_.render_area = ((tr_rect){16, 0, 17, 32}), TR_ERROR_OUT_OF_RANGE, "render_area");
    EXPECT_PASS(rp_.render_area = ((tr_rect){-1, 0, 8, 8}), TR_ERROR_OUT_OF_RANGE, "render_area");
    EXPECT_PASS(rp_.render_area = ((tr_rect){0, 40, 8, 8}), TR_ERROR_OUT_OF_RANGE, "render_area");
    /* multiview: more than 6 views, a view beyond 5, a view beyond the layers */
    EXPECT_PASS((rp_.color[0].image = f.rgba_layers, rp_.depth.image = NULL, rp_.view_mask = 0x7F),
                TR_ERROR_LIMIT_EXCEEDED, "view_mask");
    EXPECT_PASS((rp_.color[0].image = f.rgba_layers, rp_.depth.image = NULL, rp_.view_mask = 0x40),
                TR_ERROR_LIMIT_EXCEEDED, "view_mask");
    EXPECT_PASS(rp_.view_mask = 0x3, TR_ERROR_OUT_OF_RANGE, "layer");
    EXPECT_PASS((rp_.color[0].image = f.rgba_layers, rp_.depth.image = NULL, rp_.view_mask = 0x3,
                 rp_.color[0].base_layer = 3),
                TR_ERROR_OUT_OF_RANGE, "layer");

    /* valid edge cases */
    EXPECT_PASS((rp_.color[0].image = f.rgba_layers, rp_.depth.image = NULL, rp_.view_mask = 0xF),
                TR_OK, NULL);
    EXPECT_PASS((rp_.color[0].image = f.rgba_layers, rp_.depth.image = NULL, rp_.view_mask = 0x3,
                 rp_.color[0].base_layer = 2),
                TR_OK, NULL);
    EXPECT_PASS((rp_.color[0].image = f.rgba_levels, rp_.color[0].level = 1, rp_.depth.image = NULL),
                TR_OK, NULL); /* level 1 of 64x64 is 32x32 */
    EXPECT_PASS((rp_.color[0].image = f.rgba_levels, rp_.color[0].level = 1), TR_OK, NULL);
    EXPECT_PASS((rp_.color_count = 3, rp_.color[2].image = f.rgba2), TR_OK, NULL); /* slot 1 unused */
    EXPECT_PASS(rp_.render_area = ((tr_rect){31, 31, 1, 1}), TR_OK, NULL);
    tr_context_destroy(f.ctx);
}

Test(api, command_state_errors)
{
    pass_fixture f = fixture();
    tr_context *ctx = f.ctx;
    trt_uniforms u;
    memset(&u, 0, sizeof u);

    /* outside a pass */
    EXPECT_CODE(tr_cmd_draw(ctx, 3, 1, 0, 0), TR_ERROR_INVALID_STATE);
    expect_message(ctx, NULL);
    uint16_t idx[3] = {0, 1, 2};
    EXPECT_CODE(tr_cmd_bind_index_buffer(ctx, idx, sizeof idx, 0, TR_INDEX_U16), TR_ERROR_INVALID_STATE);
    EXPECT_CODE(tr_cmd_draw_indexed(ctx, 3, 1, 0, 0, 0), TR_ERROR_INVALID_STATE);
    EXPECT_CODE(tr_cmd_end_render_pass(ctx, NULL), TR_ERROR_INVALID_STATE);
    EXPECT_CODE(tr_cmd_draw(NULL, 3, 1, 0, 0), TR_ERROR_INVALID_ARGUMENT);
    EXPECT_CODE(tr_cmd_end_render_pass(NULL, NULL), TR_ERROR_INVALID_ARGUMENT);

    tr_render_pass_desc rp = simple_pass(&f);
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
    /* begin inside a pass */
    EXPECT_CODE(tr_cmd_begin_render_pass(ctx, &rp), TR_ERROR_INVALID_STATE);
    /* writing into an attachment of the pass being recorded */
    static uint8_t pixels[32 * 32 * 4];
    const float one[4] = {1, 1, 1, 1};
    EXPECT_CODE(tr_image_upload(f.rgba, NULL, pixels, 0), TR_ERROR_INVALID_STATE);
    EXPECT_CODE(tr_image_fill(f.depth, NULL, one), TR_ERROR_INVALID_STATE);
    TRT_OK(tr_image_upload(f.rgba2, NULL, pixels, 0)); /* not an attachment */
    /* no pipeline bound */
    TRT_OK(tr_cmd_set_uniforms(ctx, &u, sizeof u));
    EXPECT_CODE(tr_cmd_draw(ctx, 3, 1, 0, 0), TR_ERROR_INVALID_STATE);
    expect_message(ctx, "pipeline");
    EXPECT_CODE(tr_cmd_bind_pipeline(ctx, NULL), TR_ERROR_INVALID_ARGUMENT);
    TRT_OK(tr_cmd_bind_pipeline(ctx, f.pipe));

    /* uniforms */
    static uint8_t big[TR_MAX_UNIFORM_BYTES + 1];
    EXPECT_CODE(tr_cmd_set_uniforms(ctx, big, TR_MAX_UNIFORM_BYTES + 1), TR_ERROR_LIMIT_EXCEEDED);
    expect_message(ctx, "size");
    EXPECT_CODE(tr_cmd_set_uniforms(ctx, NULL, 16), TR_ERROR_INVALID_ARGUMENT);

    /* viewport, scissor, constants */
    tr_viewport vp = {0, 0, 32, 32, 0, 1};
    TRT_OK(tr_cmd_set_viewport(ctx, &vp));
    EXPECT_CODE(tr_cmd_set_viewport(ctx, NULL), TR_ERROR_INVALID_ARGUMENT);
    tr_viewport bad = vp;
    bad.width = 0;
    EXPECT_CODE(tr_cmd_set_viewport(ctx, &bad), TR_ERROR_INVALID_ARGUMENT);
    expect_message(ctx, "width");
    bad = vp;
    bad.x = NAN;
    EXPECT_CODE(tr_cmd_set_viewport(ctx, &bad), TR_ERROR_INVALID_ARGUMENT);
    bad = vp;
    bad.height = INFINITY;
    EXPECT_CODE(tr_cmd_set_viewport(ctx, &bad), TR_ERROR_INVALID_ARGUMENT);
    bad = vp;
    bad.min_depth = NAN;
    EXPECT_CODE(tr_cmd_set_viewport(ctx, &bad), TR_ERROR_INVALID_ARGUMENT);
    bad = vp;
    bad.height = -32; /* negative height is valid (flips y) */
    bad.y = 32;
    TRT_OK(tr_cmd_set_viewport(ctx, &bad));
    TRT_OK(tr_cmd_set_viewport(ctx, &vp));
    EXPECT_CODE(tr_cmd_set_scissor(ctx, NULL), TR_ERROR_INVALID_ARGUMENT);
    EXPECT_CODE(tr_cmd_set_blend_constants(ctx, NULL), TR_ERROR_INVALID_ARGUMENT);

    /* draws */
    EXPECT_CODE(tr_cmd_draw(ctx, TR_MAX_DRAW_VERTICES + 1, 1, 0, 0), TR_ERROR_LIMIT_EXCEEDED);
    EXPECT_CODE(tr_cmd_draw_indexed(ctx, 3, 1, 0, 0, 0), TR_ERROR_INVALID_STATE);
    expect_message(ctx, "no index buffer");
    EXPECT_CODE(tr_cmd_bind_index_buffer(ctx, NULL, 6, 0, TR_INDEX_U16), TR_ERROR_INVALID_ARGUMENT);
    EXPECT_CODE(tr_cmd_bind_index_buffer(ctx, idx, sizeof idx, 0, (tr_index_type)2), TR_ERROR_INVALID_ARGUMENT);
    expect_message(ctx, "type");
    EXPECT_CODE(tr_cmd_bind_index_buffer(ctx, idx, sizeof idx, 7, TR_INDEX_U16), TR_ERROR_OUT_OF_RANGE);
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    /* after end: outside again */
    EXPECT_CODE(tr_cmd_draw(ctx, 3, 1, 0, 0), TR_ERROR_INVALID_STATE);
    tr_context_destroy(ctx);
}

Test(api, errors_inside_a_pass_lose_nothing)
{
    /* Draw A, then a series of rejected calls, then draw B: both visible. */
    enum { W = 16, H = 16 };
    tr_context *ctx = trt_context(1);
    tr_image *img = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, W, H);
    tr_pipeline *p = trt_pipeline(ctx, NULL);
    trt_begin_color(ctx, img, NULL);
    TRT_OK(tr_cmd_bind_pipeline(ctx, p));
    trt_vertex a[3] = {trt_vpx(0, 0, 0.5f, W, H, NULL), trt_vpx(8, 0, 0.5f, W, H, NULL),
                       trt_vpx(0, 8, 0.5f, W, H, NULL)};
    trt_vertex b[3] = {trt_vpx(16, 16, 0.5f, W, H, NULL), trt_vpx(8, 16, 0.5f, W, H, NULL),
                       trt_vpx(16, 8, 0.5f, W, H, NULL)};
    trt_draw(ctx, a, 3);
    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.color_count = 1;
    rp.color[0].image = img;
    cr_expect_neq(tr_cmd_begin_render_pass(ctx, &rp), TR_OK);
    cr_expect_neq(tr_cmd_draw_indexed(ctx, 3, 1, 0, 0, 0), TR_OK);
    cr_expect_neq(tr_cmd_set_uniforms(ctx, NULL, 4), TR_OK);
    cr_expect_neq(tr_cmd_draw(ctx, TR_MAX_DRAW_VERTICES + 1, 1, 0, 0), TR_OK);
    tr_viewport bad = {0, 0, 0, 16, 0, 1};
    cr_expect_neq(tr_cmd_set_viewport(ctx, &bad), TR_OK);
    trt_draw(ctx, b, 3);
    tr_pass_stats st;
    TRT_OK(tr_cmd_end_render_pass(ctx, &st));
    cr_expect_eq(st.draws, 2);
    uint8_t px[W * H * 4];
    trt_download(img, 0, 0, TR_ASPECT_DEFAULT, px);
    uint8_t got[W * H], want[W * H] = {0};
    for (int i = 0; i < W * H; i++)
        got[i] = px[i * 4] ? 1 : 0;
    static const float ta[3][2] = {{0, 0}, {8, 0}, {0, 8}}, tb[3][2] = {{16, 16}, {8, 16}, {16, 8}};
    trt_ref_triangle(ta, TR_TIE_TOP_LEFT, W, H, want);
    trt_ref_triangle(tb, TR_TIE_TOP_LEFT, W, H, want);
    trt_assert_maps_eq(got, want, W, H, "draws around rejected calls");
    tr_context_destroy(ctx);
}

Test(api, destroying_a_context_mid_pass_is_safe)
{
    /* Must not crash or leak (run under ASan in CI). */
    tr_context *ctx = trt_context(1);
    tr_image *img = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, 16, 16);
    trt_begin_color(ctx, img, NULL);
    TRT_OK(tr_cmd_bind_pipeline(ctx, trt_pipeline(ctx, NULL)));
    trt_vertex v[3] = {trt_vpx(0, 0, 0.5f, 16, 16, NULL), trt_vpx(8, 0, 0.5f, 16, 16, NULL),
                       trt_vpx(0, 8, 0.5f, 16, 16, NULL)};
    trt_draw(ctx, v, 3);
    tr_context_destroy(ctx);
}
