/* FDM offset (fdm.h, "FDM offset"): the pure functions tr_fdm_bin_offset
 * and tr_fdm_bin_transform, worked by hand from seed 000's formulas, and
 * the validation of tr_density_map's offsets.  Rendering with offsets is
 * in test_fdm_render.c (section 11). */
#include "trtest.h"

#include <math.h>
#include <string.h>

#define EXPECT_OFFSET(got, ex, ey, what)                                                                  \
    cr_expect((got).x == (ex) && (got).y == (ey), "%s: (%d, %d), expected (%d, %d)", what, (got).x, (got).y, \
              (int)(ex), (int)(ey))

#define EXPECT_RECT(got, ex, ey, ew, eh, what)                                                             \
    cr_expect((got).x == (ex) && (got).y == (ey) && (got).width == (uint32_t)(ew) && (got).height == (uint32_t)(eh), \
              "%s: (%d, %d %ux%u), expected (%d, %d %ux%u)", what, (got).x, (got).y, (got).width, (got).height,    \
              (int)(ex), (int)(ey), (unsigned)(ew), (unsigned)(eh))

Test(fdm_offset, bin_offset_is_the_euclidean_remainder_of_minus_the_offset)
{
    const tr_extent2d bin = {192, 160};
    static const struct {
        tr_offset2d off;
        int32_t x, y;
    } cases[] = {
        {{0, 0}, 0, 0},          {{8, 0}, 184, 0},       {{-8, 0}, 8, 0},
        {{40, -24}, 152, 24},    {{200, -168}, 184, 8},  {{-400, 328}, 16, 152},
        {{192, 160}, 0, 0},      {{-192, -160}, 0, 0},   {{384, -320}, 0, 0},
        {{16384, -16384}, 128, 64},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char what[64];
        snprintf(what, sizeof what, "offset (%d, %d)", cases[i].off.x, cases[i].off.y);
        EXPECT_OFFSET(tr_fdm_bin_offset(cases[i].off, bin), cases[i].x, cases[i].y, what);
    }
    /* an extent of 0 gives 0 on that axis */
    EXPECT_OFFSET(tr_fdm_bin_offset((tr_offset2d){40, -24}, (tr_extent2d){0, 160}), 0, 24, "width 0");
    /* 2^31 = 128 (mod 192); -(2^31 - 1) = 33 (mod 160) */
    EXPECT_OFFSET(tr_fdm_bin_offset((tr_offset2d){INT32_MIN, INT32_MAX}, bin), 128, 33, "the int32 ends");
}

static tr_fdm_bin_desc bin_desc(uint32_t bx, uint32_t by, uint32_t f, tr_offset2d bo)
{
    tr_fdm_bin_desc d;
    memset(&d, 0, sizeof d);
    d.bin_x = bx;
    d.bin_y = by;
    d.bin = (tr_extent2d){192, 160};
    d.framebuffer = (tr_extent2d){1000, 600};
    d.frag_area = (tr_extent2d){f, f};
    d.bin_offset = bo;
    d.viewport = (tr_viewport){0.0f, 0.0f, 1000.0f, 600.0f, 0.0f, 1.0f};
    d.scissor = (tr_rect){0, 0, 1000, 600};
    return d;
}

Test(fdm_offset, transform_of_bin_1_1_at_area_2_without_an_offset)
{
    tr_fdm_bin_desc d = bin_desc(1, 1, 2, (tr_offset2d){0, 0});
    tr_fdm_bin_transform_result r;
    TRT_OK(tr_fdm_bin_transform(&d, &r));
    EXPECT_OFFSET(r.b_cs, 192, 160, "b_cs");
    EXPECT_OFFSET(r.b_s, 192, 160, "b_s");
    /* o = b_cs - b_s / f = 192 - 96, 160 - 80 */
    EXPECT_OFFSET(r.o, 96, 80, "o");
    EXPECT_RECT(r.framebuffer_rect, 192, 160, 192, 160, "framebuffer rect");
    EXPECT_RECT(r.rendering_bin, 192, 160, 96, 80, "rendering bin");
    /* viewport x' = 0 / 2 + 96, width 500 */
    cr_expect(r.viewport.x == 96.0f && r.viewport.y == 80.0f && r.viewport.width == 500.0f &&
                  r.viewport.height == 300.0f && r.viewport.min_depth == 0.0f && r.viewport.max_depth == 1.0f,
              "viewport (%g, %g %gx%g)", r.viewport.x, r.viewport.y, r.viewport.width, r.viewport.height);
    /* scissor [0 + 96, 500 + 96) cut to [192, 288), likewise y */
    EXPECT_RECT(r.scissor, 192, 160, 96, 80, "scissor");
}

Test(fdm_offset, transform_of_bin_1_1_at_area_2_with_offset_40_minus_24)
{
    const tr_offset2d bo = tr_fdm_bin_offset((tr_offset2d){40, -24}, (tr_extent2d){192, 160});
    EXPECT_OFFSET(bo, 152, 24, "b_o");
    tr_fdm_bin_desc d = bin_desc(1, 1, 2, bo);
    tr_fdm_bin_transform_result r;
    TRT_OK(tr_fdm_bin_transform(&d, &r));
    EXPECT_OFFSET(r.b_cs, 192, 160, "b_cs");
    EXPECT_OFFSET(r.b_s, 40, 136, "b_s = b_cs - b_o");
    EXPECT_OFFSET(r.o, 172, 92, "o = b_cs - b_s / 2");
    EXPECT_RECT(r.framebuffer_rect, 40, 136, 192, 160, "framebuffer rect");
    EXPECT_RECT(r.rendering_bin, 192, 160, 96, 80, "rendering bin");
    cr_expect(r.viewport.x == 172.0f && r.viewport.y == 92.0f && r.viewport.width == 500.0f &&
                  r.viewport.height == 300.0f,
              "viewport (%g, %g %gx%g)", r.viewport.x, r.viewport.y, r.viewport.width, r.viewport.height);
    EXPECT_RECT(r.scissor, 192, 160, 96, 80, "scissor");

    /* a scissor inside the bin, cutting coarse fragments: [51, 51 + 37) x
     * [141, 141 + 9) -> [floor(51/2) + 172, ceil(88/2) + 172) = [197, 216),
     * y [floor(141/2) + 92, ceil(150/2) + 92) = [162, 167) */
    d.scissor = (tr_rect){51, 141, 37, 9};
    TRT_OK(tr_fdm_bin_transform(&d, &r));
    EXPECT_RECT(r.scissor, 197, 162, 19, 5, "inner scissor");
    /* a scissor outside the bin: empty */
    d.scissor = (tr_rect){600, 400, 10, 10};
    TRT_OK(tr_fdm_bin_transform(&d, &r));
    cr_expect(r.scissor.width == 0 && r.scissor.height == 0, "outer scissor: %ux%u", r.scissor.width,
              r.scissor.height);
}

Test(fdm_offset, transform_of_the_first_and_extra_bins)
{
    const tr_offset2d bo = tr_fdm_bin_offset((tr_offset2d){40, -24}, (tr_extent2d){192, 160});
    tr_fdm_bin_transform_result r;
    /* bin (0, 0) only shrinks: b_s = 0, it ends at 192 - 152 = 40, 160 - 24 = 136 */
    tr_fdm_bin_desc d = bin_desc(0, 0, 4, (tr_offset2d){150, 24}); /* 150 is no multiple of 4: refused */
    cr_expect_eq(tr_fdm_bin_transform(&d, &r), TR_ERROR_INVALID_DESCRIPTOR);
    d = bin_desc(0, 0, 2, bo);
    TRT_OK(tr_fdm_bin_transform(&d, &r));
    EXPECT_OFFSET(r.b_s, 0, 0, "first bin b_s");
    EXPECT_OFFSET(r.o, 0, 0, "first bin o");
    EXPECT_RECT(r.framebuffer_rect, 0, 0, 40, 136, "first bin");
    EXPECT_RECT(r.rendering_bin, 0, 0, 20, 68, "first bin, rendering space");
    /* the extra column: ceil(1000 / 192) = 6 columns, plus one; bin 6
     * starts at 1152 - 152 = 1000: past the framebuffer */
    d = bin_desc(6, 1, 2, bo);
    TRT_OK(tr_fdm_bin_transform(&d, &r));
    EXPECT_RECT(r.framebuffer_rect, 1000, 136, 0, 160, "extra column");
    /* bin 5 reaches past 1000 by 192 - 152 - (1000 - 960) = 0: it ends there */
    d = bin_desc(5, 1, 2, bo);
    TRT_OK(tr_fdm_bin_transform(&d, &r));
    EXPECT_RECT(r.framebuffer_rect, 808, 136, 192, 160, "last column");
    d = bin_desc(7, 1, 2, bo);
    cr_expect_eq(tr_fdm_bin_transform(&d, &r), TR_ERROR_OUT_OF_RANGE, "past the extra column");
}

Test(fdm_offset, transform_refuses_bad_descriptors)
{
    tr_fdm_bin_transform_result r;
    tr_fdm_bin_desc ok = bin_desc(1, 1, 2, (tr_offset2d){0, 0});
    cr_expect_eq(tr_fdm_bin_transform(NULL, &r), TR_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(tr_fdm_bin_transform(&ok, NULL), TR_ERROR_INVALID_ARGUMENT);
    tr_fdm_bin_desc d = ok;
    d.frag_area.width = 3;
    cr_expect_eq(tr_fdm_bin_transform(&d, &r), TR_ERROR_INVALID_DESCRIPTOR, "area 3");
    d = ok;
    d.frag_area.height = 8;
    cr_expect_eq(tr_fdm_bin_transform(&d, &r), TR_ERROR_INVALID_DESCRIPTOR, "area 8");
    d = ok;
    d.bin.width = 0;
    cr_expect_eq(tr_fdm_bin_transform(&d, &r), TR_ERROR_INVALID_DESCRIPTOR, "bin width 0");
    d = ok;
    d.bin.height = 162; /* 2 divides it, 4 would not */
    d.frag_area.height = 4;
    cr_expect_eq(tr_fdm_bin_transform(&d, &r), TR_ERROR_INVALID_DESCRIPTOR, "area not dividing the bin");
    d = ok;
    d.bin_offset.x = 192;
    cr_expect_eq(tr_fdm_bin_transform(&d, &r), TR_ERROR_INVALID_DESCRIPTOR, "b_o past the bin");
    d = ok;
    d.bin_offset.y = -8;
    cr_expect_eq(tr_fdm_bin_transform(&d, &r), TR_ERROR_INVALID_DESCRIPTOR, "negative b_o");
    d = ok;
    d.viewport.width = NAN;
    cr_expect_eq(tr_fdm_bin_transform(&d, &r), TR_ERROR_INVALID_DESCRIPTOR, "NaN viewport");
    d = ok;
    d.scissor.x = -1;
    cr_expect_eq(tr_fdm_bin_transform(&d, &r), TR_ERROR_INVALID_DESCRIPTOR, "negative scissor");
    d = ok;
    d.framebuffer.width = TR_MAX_IMAGE_SIZE + 1;
    cr_expect_eq(tr_fdm_bin_transform(&d, &r), TR_ERROR_INVALID_DESCRIPTOR, "framebuffer too large");
}

/* ---- the offsets of a pass ---------------------------------------------------------------------- */

typedef struct offset_pass {
    tr_context *ctx;
    tr_image *color, *map;
    tr_render_pass_desc rp;
} offset_pass;

static void offset_pass_make(offset_pass *p, uint32_t layers, uint32_t flags)
{
    memset(p, 0, sizeof *p);
    p->ctx = trt_context(1);
    TRT_OK(tr_image_create(p->ctx, &(tr_image_desc){TR_FORMAT_R8G8B8A8_UNORM, 256, 192, layers, 1, flags, 0}, &p->color));
    TRT_OK(tr_image_create(p->ctx, &(tr_image_desc){TR_FORMAT_R8G8_UNORM, 8, 6, 1, 1, flags, 0}, &p->map));
    p->rp.color_count = 1;
    p->rp.color[0].image = p->color;
    p->rp.view_mask = layers > 1 ? (1u << layers) - 1 : 0;
    p->rp.density_map.image = p->map;
}

static void expect_refused(offset_pass *p, tr_result code, const char *words, const char *what)
{
    tr_bin_layout l;
    cr_expect_eq(tr_compute_bin_layout(p->ctx, &p->rp, &l), code, "%s", what);
    cr_expect_eq(tr_cmd_begin_render_pass(p->ctx, &p->rp), code, "%s", what);
    cr_expect(strstr(tr_context_last_error(p->ctx), words) != NULL, "%s: message '%s' lacks '%s'", what,
              tr_context_last_error(p->ctx), words);
}

Test(fdm_offset, pass_offsets_are_validated)
{
    offset_pass p;
    offset_pass_make(&p, 2, TR_IMAGE_FDM_OFFSET);
    p.rp.density_map.offset_count = 1; /* two views */
    expect_refused(&p, TR_ERROR_INVALID_DESCRIPTOR, "offset_count = 1", "fewer offsets than views");
    p.rp.density_map.offset_count = 3;
    expect_refused(&p, TR_ERROR_INVALID_DESCRIPTOR, "offset_count = 3", "more offsets than views");
    p.rp.density_map.offset_count = 2;
    p.rp.density_map.offsets[1] = (tr_offset2d){12, 0};
    expect_refused(&p, TR_ERROR_INVALID_DESCRIPTOR, "granularity", "an offset off the granularity");
    p.rp.density_map.offsets[1] = (tr_offset2d){0, -16392};
    expect_refused(&p, TR_ERROR_LIMIT_EXCEEDED, "offsets[1]", "an offset beyond -16384");
    p.rp.density_map.offsets[1] = (tr_offset2d){16384, -16384}; /* the ends are allowed */
    tr_bin_layout l;
    TRT_OK(tr_compute_bin_layout(p.ctx, &p.rp, &l));
    p.rp.density_map.image = NULL;
    expect_refused(&p, TR_ERROR_INVALID_DESCRIPTOR, "without a density map", "offsets without a map");
    tr_context_destroy(p.ctx);
}

Test(fdm_offset, image_flags_are_validated)
{
    tr_context *ctx = trt_context(1);
    tr_image *img = NULL;
    cr_expect_eq(tr_image_create(ctx, &(tr_image_desc){TR_FORMAT_R8G8B8A8_UNORM, 8, 8, 1, 1, 0x80u, 0}, &img),
                 TR_ERROR_INVALID_ARGUMENT);
    cr_expect_null(img);
    cr_expect(strstr(tr_context_last_error(ctx), "flags") != NULL, "%s", tr_context_last_error(ctx));
    TRT_OK(tr_image_create(ctx, &(tr_image_desc){TR_FORMAT_R8G8B8A8_UNORM, 8, 8, 1, 1, TR_IMAGE_FDM_OFFSET, 0}, &img));
    cr_expect_eq(tr_image_get_desc(img).flags, TR_IMAGE_FDM_OFFSET);
    tr_context_destroy(ctx);
}

Test(fdm_offset, honoured_offsets_add_a_column_and_a_row)
{
    offset_pass p;
    offset_pass_make(&p, 1, TR_IMAGE_FDM_OFFSET);
    tr_bin_layout plain, shifted;
    TRT_OK(tr_compute_bin_layout(p.ctx, &p.rp, &plain));
    p.rp.density_map.offset_count = 1;
    p.rp.density_map.offsets[0] = (tr_offset2d){40, -24};
    TRT_OK(tr_compute_bin_layout(p.ctx, &p.rp, &shifted));
    cr_expect_eq(shifted.bins_x, plain.bins_x + 1);
    cr_expect_eq(shifted.bins_y, plain.bins_y + 1);
    cr_expect_eq(shifted.bin_w, plain.bin_w);
    tr_offset2d bo;
    TRT_OK(tr_compute_fdm_bin_offsets(p.ctx, &p.rp, &bo, 1));
    EXPECT_OFFSET(bo, tr_fdm_bin_offset((tr_offset2d){40, -24}, (tr_extent2d){plain.bin_w, plain.bin_h}).x,
                  tr_fdm_bin_offset((tr_offset2d){40, -24}, (tr_extent2d){plain.bin_w, plain.bin_h}).y,
                  "tr_compute_fdm_bin_offsets");
    cr_expect_eq(tr_compute_fdm_bin_offsets(p.ctx, &p.rp, &bo, 0), TR_ERROR_OUT_OF_RANGE);
    /* a shared viewport keeps the grid (and its extra column and row) but not the shift */
    p.rp.flags = TR_PASS_FDM_SHARED_VIEWPORT;
    TRT_OK(tr_compute_fdm_bin_offsets(p.ctx, &p.rp, &bo, 1));
    EXPECT_OFFSET(bo, 0, 0, "shared viewport");
    tr_context_destroy(p.ctx);
}

/* A depth image made for FDM offsets never reuses the previous pass's LRZ
 * (turnip's tu_lrz_init_state); one without the flag does. */
static uint32_t second_pass_lrz_state(uint32_t flags)
{
    tr_context *ctx = trt_context(1);
    tr_image *color = NULL, *depth = NULL;
    TRT_OK(tr_image_create(ctx, &(tr_image_desc){TR_FORMAT_R8G8B8A8_UNORM, 64, 64, 1, 1, flags, 0}, &color));
    TRT_OK(tr_image_create(ctx, &(tr_image_desc){TR_FORMAT_D32_SFLOAT, 64, 64, 1, 1, flags, 0}, &depth));
    tr_pipeline_desc pd = {0};
    pd.fragment_shader = trt_fs_varying;
    pd.depth_test = 1;
    pd.depth_write = 1;
    pd.depth_compare = TR_COMPARE_LESS;
    tr_pipeline *pl = trt_pipeline(ctx, &pd);
    const float col[4] = {1, 0, 0, 1};
    trt_vertex v[3] = {trt_vpx(0, 0, 0.5f, 64, 64, col), trt_vpx(128, 0, 0.5f, 64, 64, col),
                       trt_vpx(0, 128, 0.5f, 64, 64, col)};
    tr_pass_stats st[2];
    for (int pass = 0; pass < 2; pass++) {
        tr_render_pass_desc rp = {0};
        rp.color_count = 1;
        rp.color[0].image = color;
        rp.depth.image = depth;
        rp.depth.depth_load_op = pass == 0 ? TR_LOAD_OP_CLEAR : TR_LOAD_OP_LOAD;
        rp.depth.clear_depth = 1.0f;
        TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
        TRT_OK(tr_cmd_bind_pipeline(ctx, pl));
        trt_draw(ctx, v, 3);
        TRT_OK(tr_cmd_end_render_pass(ctx, &st[pass]));
    }
    cr_expect_eq(st[0].lrz_state, TR_LRZ_STATE_ON);
    tr_context_destroy(ctx);
    return st[1].lrz_state;
}

Test(fdm_offset, offset_depth_images_do_not_reuse_lrz)
{
    cr_expect_eq(second_pass_lrz_state(0), TR_LRZ_STATE_ON, "a plain depth image reuses its LRZ");
    cr_expect_eq(second_pass_lrz_state(TR_IMAGE_FDM_OFFSET), TR_LRZ_STATE_OFF,
                 "an FDM-offset depth image does not");
}
