/* Binning: the bin layout against turnip's rules computed here from scratch
 * (REFERENCE.md section 5), and the visibility streams (through the debug
 * callback) against each triangle's exact coverage and bounding box. */
#include "trtest.h"

#include <stdlib.h>
#include <string.h>

/* ---- the layout rules, written out independently ------------------------------------------- */

static uint32_t align_up(uint32_t v, uint32_t a)
{
    return (v + a - 1) / a * a;
}

static uint32_t div_up(uint32_t a, uint32_t b)
{
    return (a + b - 1) / b;
}

/* Attachments as turnip sees them: colours, then depth; a D32_SFLOAT_S8_UINT
 * depth attachment has cpp 4 plus a separate stencil plane of cpp 1. */
typedef struct ref_att {
    uint32_t cpp;
    int separate_stencil;
} ref_att;

static uint32_t att_cpps(const tr_render_pass_desc *rp, ref_att *att)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < rp->color_count; i++) {
        if (!rp->color[i].image)
            continue;
        att[n].separate_stencil = 0;
        switch (tr_image_get_desc(rp->color[i].image).format) {
        case TR_FORMAT_R8G8B8A8_UNORM:
        case TR_FORMAT_R8G8B8A8_SRGB:
        case TR_FORMAT_R32_SFLOAT: att[n++].cpp = 4; break;
        case TR_FORMAT_R16G16B16A16_SFLOAT: att[n++].cpp = 8; break;
        case TR_FORMAT_R32G32B32A32_SFLOAT: att[n++].cpp = 16; break;
        default: cr_assert_fail("unexpected colour format");
        }
    }
    if (rp->depth.image) {
        att[n].cpp = 4;
        att[n++].separate_stencil =
            tr_image_get_desc(rp->depth.image).format == TR_FORMAT_D32_SFLOAT_S8_UINT;
    }
    return n;
}

typedef struct ref_params {
    uint32_t gmem_bytes, align_w, align_h, max_w, max_h;
} ref_params;

/* Returns 0 if the budget cannot hold the attachments.  The GMEM split is
 * turnip's tu_render_pass_gmem_config: the block size comes from the
 * device alignment; each cpp-1 plane (here only a separate stencil) doubles
 * tile_align_w while it is not a multiple of 64 and lowers the block
 * alignment shift; the stencil plane's share is not aligned. */
static int ref_layout(const ref_params *p, const ref_att *att, uint32_t n, uint32_t fb_w,
                      uint32_t fb_h, uint32_t views, tr_bin_layout *out)
{
    memset(out, 0, sizeof *out);
    uint32_t align_w = p->align_w, align_h = p->align_h, shift = 3;
    const uint64_t block = (1u << 3) * (uint64_t)p->align_w * p->align_h;
    uint32_t cpp_total = 0;
    for (uint32_t i = 0; i < n; i++) {
        int cpp1 = att[i].cpp == 1;
        cpp_total += att[i].cpp;
        if (att[i].separate_stencil) {
            cpp1 = 1;
            cpp_total += 1;
        }
        if (cpp1 && align_w % 64 != 0) {
            align_w *= 2;
            shift--;
        }
    }
    uint64_t gmem_pixels;
    if (cpp_total == 0) {
        gmem_pixels = 1024 * 1024;
    } else {
        uint64_t blocks = p->gmem_bytes / block;
        uint64_t pixels = UINT64_MAX;
        for (uint32_t i = 0; i < n; i++) {
            uint64_t al = att[i].cpp >> shift > 1 ? att[i].cpp >> shift : 1;
            uint64_t nb = (blocks * att[i].cpp / cpp_total) & ~(al - 1);
            if (nb < al)
                nb = al;
            if (nb > blocks)
                return 0;
            blocks -= nb;
            cpp_total -= att[i].cpp;
            if (nb * block / att[i].cpp < pixels)
                pixels = nb * block / att[i].cpp;
            if (att[i].separate_stencil) {
                nb = blocks * 1 / cpp_total;
                if (nb > blocks)
                    return 0;
                blocks -= nb;
                cpp_total -= 1;
                if (nb * block < pixels)
                    pixels = nb * block;
            }
        }
        if (pixels == 0)
            return 0;
        gmem_pixels = pixels;
    }
    out->gmem_pixels = (uint32_t)gmem_pixels;
    out->tile_align_w = align_w;
    out->tile_align_h = align_h;
    out->views = views;

    uint32_t best = UINT32_MAX, best_w = 0, best_h = 0, best_nx = 0, best_ny = 0;
    uint32_t wmax = p->max_w < align_up(fb_w, align_w) ? p->max_w : align_up(fb_w, align_w);
    uint32_t hmax = p->max_h < align_up(fb_h, align_h) ? p->max_h : align_up(fb_h, align_h);
    for (uint32_t w = align_w; w <= wmax; w += align_w) {
        uint64_t h = gmem_pixels / ((uint64_t)w * views);
        if (h > hmax)
            h = hmax;
        h = h / align_h * align_h;
        if (h == 0)
            continue;
        uint32_t nx = div_up(fb_w, w), ny = div_up(fb_h, (uint32_t)h);
        uint32_t hh = align_up(div_up(fb_h, ny), align_h);
        uint32_t tiles = nx * ny;
        int d = abs((int)w - (int)hh), bd = abs((int)best_w - (int)best_h);
        if (tiles < best || (tiles == best && d < bd)) {
            best = tiles;
            best_w = w;
            best_h = hh;
            best_nx = nx;
            best_ny = ny;
        }
    }
    if (best == UINT32_MAX)
        return 0;
    out->bin_w = best_w;
    out->bin_h = best_h;
    out->bins_x = best_nx;
    out->bins_y = best_ny;
    uint32_t pw = 1, ph = 1;
    while (div_up(best_nx, pw) * div_up(best_ny, ph) > TR_MAX_VSC_PIPES) {
        if (pw < ph)
            pw++;
        else
            ph++;
    }
    out->pipe_w = pw;
    out->pipe_h = ph;
    out->pipes_x = div_up(best_nx, pw);
    out->pipes_y = div_up(best_ny, ph);
    return 1;
}

/* ---- layout tests ----------------------------------------------------------------------------- */

typedef struct att_set {
    const char *name;
    tr_format color[4];
    uint32_t color_count;
    tr_format depth;
} att_set;

static const att_set sets[] = {
    {"RGBA8", {TR_FORMAT_R8G8B8A8_UNORM}, 1, 0},
    {"RGBA8+D32", {TR_FORMAT_R8G8B8A8_UNORM}, 1, TR_FORMAT_D32_SFLOAT},
    {"RGBA8+D32S8", {TR_FORMAT_R8G8B8A8_UNORM}, 1, TR_FORMAT_D32_SFLOAT_S8_UINT},
    {"RGBA16F+R32F+D32", {TR_FORMAT_R16G16B16A16_SFLOAT, TR_FORMAT_R32_SFLOAT}, 2,
     TR_FORMAT_D32_SFLOAT},
    {"RGBA32F+RGBA8+D32S8", {TR_FORMAT_R32G32B32A32_SFLOAT, TR_FORMAT_R8G8B8A8_UNORM}, 2,
     TR_FORMAT_D32_SFLOAT_S8_UINT},
    {"4xRGBA8+D32",
     {TR_FORMAT_R8G8B8A8_UNORM, TR_FORMAT_R8G8B8A8_SRGB, TR_FORMAT_R8G8B8A8_UNORM,
      TR_FORMAT_R8G8B8A8_UNORM},
     4, TR_FORMAT_D32_SFLOAT},
    {"D32 only", {0}, 0, TR_FORMAT_D32_SFLOAT},
    {"RGBA32F", {TR_FORMAT_R32G32B32A32_SFLOAT}, 1, 0},
};

static const struct { uint32_t w, h; } sizes[] = {
    {64, 64}, {200, 150}, {1920, 1080}, {1000, 17}, {33, 1000}, {1, 1}, {2048, 1536}};

static const ref_params params[] = {
    {0, 32, 16, 1024, 1024},                   /* defaults: a630, 1 MiB */
    {16 * 1024, 32, 16, 1024, 1024},
    {64 * 1024, 32, 16, 1024, 1024},
    {256 * 1024, 32, 16, 1024, 1024},
    {3 * 1024 * 1024, 96, 32, 2016, 2032},     /* a740 */
    {1536 * 1024, 96, 16, 1024, 1024},         /* a660 */
    {512 * 1024, 40, 24, 1000, 1000},          /* odd alignments and maxima */
};

static void check_layout_case(const att_set *s, uint32_t fw, uint32_t fh, const ref_params *pp,
                              uint32_t views)
{
    tr_context_desc cd = {0};
    cd.threads = 1;
    cd.gmem_bytes = pp->gmem_bytes;
    cd.tile_align_w = pp->align_w == 32 ? 0 : pp->align_w;
    cd.tile_align_h = pp->align_h == 16 ? 0 : pp->align_h;
    cd.tile_max_w = pp->max_w == 1024 ? 0 : pp->max_w;
    cd.tile_max_h = pp->max_h == 1024 ? 0 : pp->max_h;
    tr_context *ctx = trt_context_desc(&cd);
    ref_params p = *pp;
    if (!p.gmem_bytes)
        p.gmem_bytes = 1024 * 1024;
    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.color_count = s->color_count;
    for (uint32_t i = 0; i < s->color_count; i++)
        rp.color[i].image = trt_image_layers(ctx, s->color[i], fw, fh, views);
    if (s->depth)
        rp.depth.image = trt_image_layers(ctx, s->depth, fw, fh, views);
    rp.view_mask = views > 1 ? (1u << views) - 1 : 0;

    ref_att cpp[16];
    uint32_t n = att_cpps(&rp, cpp);
    tr_bin_layout want, got;
    int possible = ref_layout(&p, cpp, n, fw, fh, views, &want);
    memset(&got, 0xAB, sizeof got);
    tr_result r = tr_compute_bin_layout(ctx, &rp, &got);
    char what[160];
    snprintf(what, sizeof what, "%s %ux%u gmem %u align %ux%u max %ux%u views %u", s->name, fw,
             fh, p.gmem_bytes, p.align_w, p.align_h, p.max_w, p.max_h, views);
    if (!possible) {
        cr_expect_neq(r, TR_OK, "%s: impossible budget accepted (bins %ux%u)", what, got.bin_w,
                      got.bin_h);
        tr_context_destroy(ctx);
        return;
    }
    cr_assert_eq(r, TR_OK, "%s: %s (%s)", what, tr_result_string(r), tr_context_last_error(ctx));
#define F(field) \
    cr_expect_eq(got.field, want.field, "%s: " #field " = %u, want %u", what, (unsigned)got.field, \
                 (unsigned)want.field)
    F(gmem_pixels);
    F(tile_align_w);
    F(tile_align_h);
    F(bin_w);
    F(bin_h);
    F(bins_x);
    F(bins_y);
    F(pipe_w);
    F(pipe_h);
    F(pipes_x);
    F(pipes_y);
    F(views);
#undef F
    cr_expect_eq(got.origin_x, 0);
    cr_expect_eq(got.origin_y, 0);
    /* invariants, whatever the search picked */
    cr_expect_leq(got.pipes_x * got.pipes_y, TR_MAX_VSC_PIPES, "%s", what);
    cr_expect_geq(got.bins_x * got.bin_w, fw, "%s: bins do not cover the width", what);
    cr_expect_geq(got.bins_y * got.bin_h, fh, "%s: bins do not cover the height", what);
    cr_expect_lt((got.bins_x - 1) * got.bin_w, fw, "%s: an empty bin column", what);
    cr_expect_lt((got.bins_y - 1) * got.bin_h, fh, "%s: an empty bin row", what);
    cr_expect_leq((uint64_t)got.bin_w * got.bin_h * got.views, got.gmem_pixels,
                  "%s: a bin exceeds GMEM", what);
    cr_expect_eq(got.bin_w % got.tile_align_w, 0, "%s", what);
    cr_expect_eq(got.bin_h % got.tile_align_h, 0, "%s", what);
    tr_context_destroy(ctx);
}

Test(bin, layout_matches_turnip_rules)
{
    for (size_t s = 0; s < sizeof sets / sizeof sets[0]; s++)
        for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++)
            for (size_t p = 0; p < sizeof params / sizeof params[0]; p++)
                check_layout_case(&sets[s], sizes[z].w, sizes[z].h, &params[p], 1);
}

Test(bin, layout_with_multiview)
{
    for (size_t s = 0; s < 4; s++)
        for (uint32_t views = 2; views <= 3; views++)
            for (size_t p = 0; p < 4; p++) {
                check_layout_case(&sets[s], 200, 150, &params[p], views);
                check_layout_case(&sets[s], 640, 480, &params[p], views);
            }
}

Test(bin, layout_hand_checked)
{
    /* 1920x1080, RGBA8 + D32, 1 MiB, a630 alignment: blocks of 8*32*16 =
     * 4096 bytes, 256 blocks split 128/128 (4 and 4 bytes per pixel), so
     * gmem_pixels = 128*4096/4 = 131072.  w = 480: h = 131072/480 = 273 ->
     * 272, 4 x ceil(1080/272) = 4 x 4 = 16 bins, re-balanced h =
     * align(270, 16) = 272.  No width gives fewer than 16 bins (w = 512:
     * h = 256, 4 x 5; w = 640: h = 204 -> 192, 3 x 6 = 18; w = 384: h = 341
     * -> 336, 5 x 4 = 20; w = 960: h = 136 -> 128, 2 x 9 = 18). */
    tr_context *ctx = trt_context(1);
    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.color_count = 1;
    rp.color[0].image = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, 1920, 1080);
    rp.depth.image = trt_image(ctx, TR_FORMAT_D32_SFLOAT, 1920, 1080);
    tr_bin_layout l;
    TRT_OK(tr_compute_bin_layout(ctx, &rp, &l));
    cr_expect_eq(l.gmem_pixels, 131072);
    cr_expect_eq(l.bin_w, 480);
    cr_expect_eq(l.bin_h, 272);
    cr_expect_eq(l.bins_x, 4);
    cr_expect_eq(l.bins_y, 4);
    cr_expect_eq(l.pipe_w, 1);
    cr_expect_eq(l.pipe_h, 1);
    cr_expect_eq(l.pipes_x, 4);
    cr_expect_eq(l.pipes_y, 4);
    tr_context_destroy(ctx);
}

Test(bin, layout_cpp1_doubles_alignment)
{
    /* D32S8 (turnip's tu_render_pass_gmem_config): the block is fixed first,
     * 8 * 32 * 16 = 4096 bytes; the stencil plane (cpp 1) then doubles
     * tile_align_w to 64 and lowers the block alignment shift to 2.  64 KiB
     * = 16 blocks; RGBA8 (4), depth (4), stencil (1), cpp_total 9: colour
     * 16*4/9 = 7 blocks, depth 9*4/5 = 7, stencil 2*1/1 = 2 (unaligned);
     * pixels = min(7*4096/4, 7*4096/4, 2*4096) = 7168. */
    tr_context_desc cd = {0};
    cd.threads = 1;
    cd.gmem_bytes = 64 * 1024;
    tr_context *ctx = trt_context_desc(&cd);
    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.color_count = 1;
    rp.color[0].image = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, 256, 256);
    rp.depth.image = trt_image(ctx, TR_FORMAT_D32_SFLOAT_S8_UINT, 256, 256);
    tr_bin_layout l;
    TRT_OK(tr_compute_bin_layout(ctx, &rp, &l));
    cr_expect_eq(l.tile_align_w, 64);
    cr_expect_eq(l.tile_align_h, 16);
    cr_expect_eq(l.gmem_pixels, 7168);
    /* w = 64: h = 112, 4 x 3 bins, h = align(86, 16) = 96: 12 bins;
     * w = 128: h = 56 -> 48, 2 x 6 = 12 bins, h = align(43,16) = 48,
     * |128-48| = 80 versus |64-96| = 32: 64 x 96 wins; w = 192: h = 37 -> 32,
     * 2 x 8 = 16; w = 256: h = 28 -> 16, 1 x 16 = 16. */
    cr_expect_eq(l.bin_w, 64);
    cr_expect_eq(l.bin_h, 96);
    cr_expect_eq(l.bins_x, 4);
    cr_expect_eq(l.bins_y, 3);
    cr_expect_eq(l.pipe_w, 1);
    cr_expect_eq(l.pipe_h, 1);
    tr_context_destroy(ctx);
}

Test(bin, layout_pipes_grow_narrow_side_first)
{
    /* 2048x1536 RGBA8 with 16 KiB: 4 blocks of 4096 bytes, 4096 pixels;
     * 64x64 bins, 32 x 24 of them.  Pipes grow 1x1 -> 1x2 -> 2x2 -> ...
     * until ceil(32/pw) * ceil(24/ph) <= 32: 5x5 gives 7 x 5 = 35, 5x6 gives
     * 7 x 4 = 28. */
    tr_context_desc cd = {0};
    cd.threads = 1;
    cd.gmem_bytes = 16 * 1024;
    tr_context *ctx = trt_context_desc(&cd);
    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.color_count = 1;
    rp.color[0].image = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, 2048, 1536);
    tr_bin_layout l;
    TRT_OK(tr_compute_bin_layout(ctx, &rp, &l));
    cr_expect_eq(l.bin_w, 64);
    cr_expect_eq(l.bin_h, 64);
    cr_expect_eq(l.bins_x, 32);
    cr_expect_eq(l.bins_y, 24);
    cr_expect_eq(l.pipe_w, 5);
    cr_expect_eq(l.pipe_h, 6);
    cr_expect_eq(l.pipes_x, 7);
    cr_expect_eq(l.pipes_y, 4);
    uint32_t pw = 1, ph = 1;
    while (div_up(l.bins_x, pw) * div_up(l.bins_y, ph) > 32) {
        if (pw < ph)
            pw++;
        else
            ph++;
    }
    cr_expect_eq(l.pipe_w, pw);
    cr_expect_eq(l.pipe_h, ph);
    cr_expect_leq(l.pipes_x * l.pipes_y, 32);
    tr_context_destroy(ctx);
}

Test(bin, layout_with_render_area)
{
    /* The grid covers the render area, starting at or before its origin. */
    tr_context_desc cd = {0};
    cd.threads = 1;
    cd.gmem_bytes = 32 * 1024;
    tr_context *ctx = trt_context_desc(&cd);
    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.color_count = 1;
    rp.color[0].image = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, 300, 200);
    static const tr_rect areas[] = {{0, 0, 300, 200}, {37, 21, 150, 90}, {299, 199, 1, 1},
                                    {64, 32, 64, 32}};
    for (size_t i = 0; i < sizeof areas / sizeof areas[0]; i++) {
        rp.render_area = areas[i];
        tr_bin_layout l;
        TRT_OK(tr_compute_bin_layout(ctx, &rp, &l));
        const tr_rect *a = &areas[i];
        cr_expect_leq(l.origin_x, a->x, "area %zu", i);
        cr_expect_leq(l.origin_y, a->y, "area %zu", i);
        cr_expect_geq(l.origin_x + (int32_t)(l.bins_x * l.bin_w), a->x + (int32_t)a->width,
                      "area %zu: grid ends before the area", i);
        cr_expect_geq(l.origin_y + (int32_t)(l.bins_y * l.bin_h), a->y + (int32_t)a->height,
                      "area %zu: grid ends before the area", i);
        cr_expect_gt(l.origin_x + (int32_t)l.bin_w, a->x, "area %zu: empty first column", i);
        cr_expect_gt(l.origin_y + (int32_t)l.bin_h, a->y, "area %zu: empty first row", i);
        cr_expect_leq(l.pipes_x * l.pipes_y, TR_MAX_VSC_PIPES);
    }
    tr_context_destroy(ctx);
}

Test(bin, layout_single_bin_flag)
{
    tr_context *ctx = trt_context(1);
    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.color_count = 1;
    rp.color[0].image = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, 1500, 900);
    rp.flags = TR_PASS_SINGLE_BIN;
    tr_bin_layout l;
    TRT_OK(tr_compute_bin_layout(ctx, &rp, &l));
    cr_expect_eq(l.bins_x, 1);
    cr_expect_eq(l.bins_y, 1);
    cr_expect_geq(l.bin_w, 1500);
    cr_expect_geq(l.bin_h, 900);
    cr_expect_eq(l.pipes_x * l.pipes_y, 1);
    tr_context_destroy(ctx);
}

/* ---- visibility streams ------------------------------------------------------------------------ */

typedef struct vis_log {
    tr_visibility_entry *e;
    uint32_t n, cap;
} vis_log;

static void vis_record(void *user, const tr_visibility_entry *entry)
{
    vis_log *l = (vis_log *)user;
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 1024;
        l->e = realloc(l->e, sizeof *l->e * l->cap);
        cr_assert_not_null(l->e);
    }
    l->e[l->n++] = *entry;
}

/* One triangle as the test knows it: id and pixel coordinates per view. */
typedef struct vis_tri {
    uint32_t draw, instance, prim, view;
    float xy[3][2];
    int culled;
} vis_tri;

enum { VW = 200, VH = 120 };

typedef struct vis_run {
    tr_bin_layout layout;
    vis_log log;
    tr_pass_stats stats;
} vis_run;

static uint32_t bin_of(const tr_bin_layout *l, int32_t x, int32_t y, uint32_t *bx, uint32_t *by)
{
    *bx = (uint32_t)(x - l->origin_x) / l->bin_w;
    *by = (uint32_t)(y - l->origin_y) / l->bin_h;
    return *by * l->bins_x + *bx;
}

static int find_entry(const vis_log *log, const vis_tri *t, uint32_t bx, uint32_t by)
{
    for (uint32_t i = 0; i < log->n; i++) {
        const tr_visibility_entry *e = &log->e[i];
        if (e->bin_x == bx && e->bin_y == by && e->draw == t->draw && e->instance == t->instance &&
            e->primitive == t->prim && e->view == t->view)
            return 1;
    }
    return 0;
}

/* Every bin holding a covered pixel has the triangle; every entry lies in a
 * bin its bounding box touches; culled triangles have no entries. */
static void check_visibility(const vis_run *run, const vis_tri *tris, uint32_t ntris,
                             uint32_t views, const tr_rect *area)
{
    const tr_bin_layout *l = &run->layout;
    uint8_t *cov = malloc(VW * VH);
    uint8_t *need = malloc(l->bins_x * l->bins_y);
    cr_assert(cov && need);
    for (uint32_t t = 0; t < ntris; t++) {
        const vis_tri *tri = &tris[t];
        if (tri->culled)
            continue;
        memset(cov, 0, VW * VH);
        memset(need, 0, l->bins_x * l->bins_y);
        trt_ref_triangle((const float(*)[2])tri->xy, TR_TIE_TOP_LEFT, VW, VH, cov);
        for (int y = 0; y < VH; y++)
            for (int x = 0; x < VW; x++)
                if (cov[y * VW + x] &&
                    (!area || (x >= area->x && x < area->x + (int)area->width && y >= area->y &&
                               y < area->y + (int)area->height))) {
                    uint32_t bx, by;
                    need[bin_of(l, x, y, &bx, &by)] = 1;
                }
        for (uint32_t b = 0; b < l->bins_x * l->bins_y; b++) {
            uint32_t bx = b % l->bins_x, by = b / l->bins_x;
            if (need[b])
                cr_assert(find_entry(&run->log, tri, bx, by),
                          "draw %u instance %u prim %u view %u covers pixels of bin (%u,%u) but "
                          "is not in its stream",
                          tri->draw, tri->instance, tri->prim, tri->view, bx, by);
        }
    }
    free(cov);
    free(need);

    for (uint32_t i = 0; i < run->log.n; i++) {
        const tr_visibility_entry *e = &run->log.e[i];
        cr_assert_lt(e->bin_x, l->bins_x);
        cr_assert_lt(e->bin_y, l->bins_y);
        cr_assert_lt(e->view, views);
        cr_expect_eq(e->pipe, (e->bin_y / l->pipe_h) * l->pipes_x + e->bin_x / l->pipe_w,
                     "bin (%u,%u) in pipe %u; pipes %ux%u of %ux%u bins", e->bin_x, e->bin_y,
                     e->pipe, l->pipes_x, l->pipes_y, l->pipe_w, l->pipe_h);
        const vis_tri *tri = NULL;
        for (uint32_t t = 0; t < ntris; t++)
            if (tris[t].draw == e->draw && tris[t].instance == e->instance &&
                tris[t].prim == e->primitive && tris[t].view == e->view)
                tri = &tris[t];
        cr_assert_not_null(tri, "entry for unknown draw %u instance %u prim %u view %u", e->draw,
                           e->instance, e->primitive, e->view);
        cr_assert(!tri->culled, "culled triangle draw %u prim %u in bin (%u,%u)", e->draw,
                  e->primitive, e->bin_x, e->bin_y);
        double minx = 1e30, maxx = -1e30, miny = 1e30, maxy = -1e30;
        for (int k = 0; k < 3; k++) {
            double x = trt_snap(tri->xy[k][0]) / 256.0, y = trt_snap(tri->xy[k][1]) / 256.0;
            minx = x < minx ? x : minx;
            maxx = x > maxx ? x : maxx;
            miny = y < miny ? y : miny;
            maxy = y > maxy ? y : maxy;
        }
        double bx0 = l->origin_x + (double)e->bin_x * l->bin_w, bx1 = bx0 + l->bin_w;
        double by0 = l->origin_y + (double)e->bin_y * l->bin_h, by1 = by0 + l->bin_h;
        cr_assert(maxx >= bx0 && minx <= bx1 && maxy >= by0 && miny <= by1,
                  "draw %u prim %u (bbox %.3f..%.3f x %.3f..%.3f) in bin (%u,%u) = "
                  "[%g,%g]x[%g,%g] its bounding box misses",
                  e->draw, e->primitive, minx, maxx, miny, maxy, e->bin_x, e->bin_y, bx0, bx1,
                  by0, by1);
    }
}

static void check_order(const vis_log *log, const tr_bin_layout *l)
{
    /* bins in row-major order; entries in submission order within a bin */
    for (uint32_t i = 1; i < log->n; i++) {
        const tr_visibility_entry *a = &log->e[i - 1], *b = &log->e[i];
        uint32_t ba = a->bin_y * l->bins_x + a->bin_x, bb = b->bin_y * l->bins_x + b->bin_x;
        cr_assert_leq(ba, bb, "entry %u: bin %u after bin %u", i, bb, ba);
        if (ba == bb && a->view == b->view) {
            uint64_t ka = ((uint64_t)a->draw << 40) | ((uint64_t)a->instance << 24) | a->primitive;
            uint64_t kb = ((uint64_t)b->draw << 40) | ((uint64_t)b->instance << 24) | b->primitive;
            cr_assert_lt(ka, kb, "entry %u: (draw %u, inst %u, prim %u) after (%u, %u, %u) in bin "
                         "(%u,%u)", i, b->draw, b->instance, b->primitive, a->draw, a->instance,
                         a->primitive, b->bin_x, b->bin_y);
        }
    }
}

/* Renders `ndraws` draws of random triangles into VW x VH (RGBA8 + D32) and
 * logs the streams. Draw 1 culls back faces; draw 2 has 3 instances shifted
 * by instance_dx. */
/* The radius of the scene's larger triangles, one in vis_large_one_in. */
static float vis_large_radius = 60;
static uint32_t vis_large_one_in = 4;

static void vis_scene(uint64_t seed, uint32_t gmem, uint32_t views, uint32_t flags,
                      const tr_rect *area, vis_run *run, vis_tri **out_tris, uint32_t *out_n)
{
    enum { PER_DRAW = 60 };
    trt_rng rng = {seed};
    tr_context_desc cd = {0};
    cd.threads = 2;
    cd.gmem_bytes = gmem;
    tr_context *ctx = trt_context_desc(&cd);
    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.color_count = 1;
    rp.color[0].image = trt_image_layers(ctx, TR_FORMAT_R8G8B8A8_UNORM, VW, VH, views);
    rp.color[0].load_op = TR_LOAD_OP_CLEAR;
    rp.depth.image = trt_image_layers(ctx, TR_FORMAT_D32_SFLOAT, VW, VH, views);
    rp.view_mask = views > 1 ? (1u << views) - 1 : 0;
    rp.flags = flags;
    if (area)
        rp.render_area = *area;
    memset(run, 0, sizeof *run);
    rp.visibility_fn = vis_record;
    rp.visibility_user = &run->log;
    TRT_OK(tr_compute_bin_layout(ctx, &rp, &run->layout));

    tr_pipeline *p0 = trt_pipeline(ctx, NULL);
    tr_pipeline_desc pd = {0};
    pd.cull_mode = TR_CULL_BACK;
    tr_pipeline *p1 = trt_pipeline(ctx, &pd);

    uint32_t cap = 3 * PER_DRAW * 5 * views, n = 0;
    vis_tri *tris = calloc(cap, sizeof *tris);
    cr_assert_not_null(tris);
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
    tr_viewport vp = {0, 0, VW, VH, 0, 1}; /* begin set it to the render area */
    TRT_OK(tr_cmd_set_viewport(ctx, &vp));
    const float view_dx = 0.25f; /* view 1: +25 px on a 200-wide target */
    for (uint32_t d = 0; d < 3; d++) {
        trt_vertex v[3 * PER_DRAW];
        float xy[3 * PER_DRAW][2];
        for (uint32_t i = 0; i < 3 * PER_DRAW; i += 3) {
            float cx = trt_rand_coord(&rng, -20, VW + 20), cy = trt_rand_coord(&rng, -20, VH + 20);
            float r = (trt_rand_u32(&rng) % vis_large_one_in == 0) ? vis_large_radius : 12;
            for (int k = 0; k < 3; k++) {
                xy[i + k][0] = trt_untie(cx + trt_rand_coord(&rng, -r, r));
                xy[i + k][1] = trt_untie(cy + trt_rand_coord(&rng, -r, r));
                v[i + k] = trt_vpx(xy[i + k][0], xy[i + k][1], 0.5f, VW, VH, NULL);
            }
        }
        trt_uniforms u;
        memset(&u, 0, sizeof u);
        u.view_offset[1][0] = view_dx;
        uint32_t instances = d == 2 ? 3 : 1;
        u.instance_dx = d == 2 ? 0.125f : 0.0f;
        TRT_OK(tr_cmd_bind_pipeline(ctx, d == 1 ? p1 : p0));
        u.vertices = v;
        TRT_OK(tr_cmd_set_uniforms(ctx, &u, sizeof u));
        TRT_OK(tr_cmd_draw(ctx, 3 * PER_DRAW, instances, 0, 0));
        for (uint32_t inst = 0; inst < instances; inst++)
            for (uint32_t view = 0; view < views; view++)
                for (uint32_t t = 0; t < PER_DRAW; t++) {
                    vis_tri *vt = &tris[n++];
                    vt->draw = d;
                    vt->instance = inst;
                    vt->prim = t;
                    vt->view = view;
                    /* clip x offset dx -> dx * VW / 2 pixels */
                    float sx = (view ? view_dx : 0) * VW / 2 + u.instance_dx * inst * VW / 2;
                    for (int k = 0; k < 3; k++) {
                        vt->xy[k][0] = xy[3 * t + k][0] + sx;
                        vt->xy[k][1] = xy[3 * t + k][1];
                    }
                    if (d == 1) {
                        /* back-facing (clockwise on screen: positive area) */
                        double a = (vt->xy[1][0] - vt->xy[0][0]) * (double)(vt->xy[2][1] - vt->xy[0][1]) -
                                   (vt->xy[2][0] - vt->xy[0][0]) * (double)(vt->xy[1][1] - vt->xy[0][1]);
                        vt->culled = a > 0;
                    }
                }
    }
    TRT_OK(tr_cmd_end_render_pass(ctx, &run->stats));
    tr_context_destroy(ctx);
    *out_tris = tris;
    *out_n = n;
}

static void vis_case(uint64_t seed, uint32_t gmem, uint32_t views, uint32_t flags,
                     const tr_rect *area)
{
    vis_run run;
    vis_tri *tris;
    uint32_t n;
    vis_scene(seed, gmem, views, flags, area, &run, &tris, &n);
    cr_assert_gt(run.log.n, 0);
    cr_expect_eq(run.stats.layout.bin_w, run.layout.bin_w);
    cr_expect_eq(run.stats.layout.bin_h, run.layout.bin_h);
    cr_expect_eq(run.stats.layout.bins_x, run.layout.bins_x);
    cr_expect_eq(run.stats.layout.bins_y, run.layout.bins_y);
    if (flags & TR_PASS_SINGLE_BIN) {
        cr_expect_eq(run.layout.bins_x, 1);
        cr_expect_eq(run.layout.bins_y, 1);
    }
    check_visibility(&run, tris, n, views, area);
    if (views == 1)
        check_order(&run.log, &run.layout);
    /* the statistics agree with the streams (no triangle here is clipped
     * into pieces: all lie well inside the guard band and depth range) */
    cr_expect_eq(run.stats.bin_primitive_refs, run.log.n, "bin_primitive_refs %llu, entries %u",
                 (unsigned long long)run.stats.bin_primitive_refs, run.log.n);
    free(run.log.e);
    free(tris);
}

Test(bin, visibility_streams_small_bins)
{
    vis_case(1, 8 * 1024, 1, 0, NULL);
    vis_case(2, 16 * 1024, 1, 0, NULL);
}

Test(bin, visibility_streams_triangles_over_many_pipes)
{
    /* Triangles as large as the target in tiny bins: each reaches most of
     * the 32 pipes, more than the front end keeps room for per triangle,
     * so many are classified again while binning.  The streams are the
     * same. */
    vis_large_radius = 200;
    vis_large_one_in = 1;
    vis_case(11, 8 * 1024, 1, 0, NULL);
    vis_case(12, 8 * 1024, 2, 0, NULL);
    vis_large_radius = 60;
    vis_large_one_in = 4;
}

Test(bin, visibility_streams_default_budget)
{
    vis_case(3, 0, 1, 0, NULL);
}

Test(bin, visibility_streams_single_bin)
{
    vis_case(4, 16 * 1024, 1, TR_PASS_SINGLE_BIN, NULL);
}

Test(bin, visibility_streams_multiview)
{
    vis_case(5, 16 * 1024, 2, 0, NULL);
}

Test(bin, visibility_streams_with_render_area)
{
    /* The grid starts at the layout origin (at or before the area's); a
     * triangle must be in every bin where it covers pixels of the area. */
    const tr_rect a = {37, 13, 121, 90};
    vis_case(6, 8 * 1024, 1, 0, &a);
    vis_case(7, 16 * 1024, 2, 0, &a);
}

Test(bin, visibility_culled_and_degenerate_not_binned)
{
    /* A back-facing triangle with CULL_BACK, a zero-area one and one
     * entirely behind the eye: no entries; a visible one: entries. */
    tr_context *ctx = trt_context(1);
    vis_log log = {0};
    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.color_count = 1;
    rp.color[0].image = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, 64, 64);
    rp.visibility_fn = vis_record;
    rp.visibility_user = &log;
    tr_pipeline_desc pd = {0};
    pd.cull_mode = TR_CULL_BACK;
    tr_pipeline *p = trt_pipeline(ctx, &pd);
    trt_vertex v[12] = {
        /* clockwise on screen: back */
        trt_vpx(4, 4, 0.5f, 64, 64, NULL), trt_vpx(60, 4, 0.5f, 64, 64, NULL),
        trt_vpx(4, 60, 0.5f, 64, 64, NULL),
        /* zero area */
        trt_vpx(4, 4, 0.5f, 64, 64, NULL), trt_vpx(30, 30, 0.5f, 64, 64, NULL),
        trt_vpx(60, 60, 0.5f, 64, 64, NULL),
        /* behind the eye (filled below) */
        trt_vpx(0, 0, 0, 64, 64, NULL), trt_vpx(0, 0, 0, 64, 64, NULL),
        trt_vpx(0, 0, 0, 64, 64, NULL),
        /* counter-clockwise on screen: front */
        trt_vpx(4, 4, 0.5f, 64, 64, NULL), trt_vpx(4, 60, 0.5f, 64, 64, NULL),
        trt_vpx(60, 4, 0.5f, 64, 64, NULL),
    };
    for (int k = 6; k < 9; k++) {
        v[k].pos[3] = -1;
        v[k].pos[2] = -0.5f;
    }
    v[6].pos[0] = -0.5f; v[6].pos[1] = -0.5f;
    v[7].pos[0] = 0.5f;  v[7].pos[1] = -0.5f;
    v[8].pos[0] = 0.0f;  v[8].pos[1] = 0.5f;
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
    TRT_OK(tr_cmd_bind_pipeline(ctx, p));
    trt_draw(ctx, v, 12);
    tr_pass_stats st;
    TRT_OK(tr_cmd_end_render_pass(ctx, &st));
    cr_assert_gt(log.n, 0);
    for (uint32_t i = 0; i < log.n; i++)
        cr_assert_eq(log.e[i].primitive, 3, "primitive %u binned", log.e[i].primitive);
    cr_expect_eq(st.primitives_in, 4);
    cr_expect_eq(st.primitives_culled, 3);
    cr_expect_eq(st.primitives_binned, 1);
    free(log.e);
    tr_context_destroy(ctx);
}

Test(bin, pipe_count_covers_every_view)
{
    /* Two views; the triangle lands in view 1's bins only (view 0 shifts it
     * off the target).  Small bins so that it reaches exactly one pipe:
     * stats.pipes counts pipes used by any view, and bins counts every bin
     * rendered, empty or not. */
    tr_context_desc cd = {0};
    cd.threads = 1;
    cd.gmem_bytes = 16 * 1024;
    tr_context *ctx = trt_context_desc(&cd);
    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.color_count = 1;
    rp.color[0].image = trt_image_layers(ctx, TR_FORMAT_R8G8B8A8_UNORM, 256, 256, 2);
    rp.color[0].load_op = TR_LOAD_OP_CLEAR;
    rp.view_mask = 0x3;
    tr_bin_layout l;
    TRT_OK(tr_compute_bin_layout(ctx, &rp, &l));
    cr_assert_gt(l.pipes_x * l.pipes_y, 1u, "the test needs several pipes");
    tr_pipeline *p = trt_pipeline(ctx, NULL);
    /* a small triangle inside bin (0, 0) */
    trt_vertex v[3] = {trt_vpx(2, 2, 0.5f, 256, 256, NULL), trt_vpx(6.25f, 2, 0.5f, 256, 256, NULL),
                       trt_vpx(2, 6.25f, 0.5f, 256, 256, NULL)};
    trt_uniforms u;
    memset(&u, 0, sizeof u);
    u.view_offset[0][0] = 10.0f; /* view 0: clip x + 10 w, far off to the right */
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
    TRT_OK(tr_cmd_bind_pipeline(ctx, p));
    trt_draw_u(ctx, &u, v, 3);
    tr_pass_stats st;
    TRT_OK(tr_cmd_end_render_pass(ctx, &st));
    cr_expect_eq(st.primitives_in, 2);   /* one per view */
    cr_expect_eq(st.primitives_culled, 1);
    cr_expect_eq(st.primitives_binned, 1);
    cr_expect_eq(st.pipes, 1);
    cr_expect_eq(st.bins, l.bins_x * l.bins_y);
    cr_expect_eq(st.fragments_rasterized, 10); /* centres (x+.5, y+.5), x, y >= 2, x + y <= 7: 1+2+3+4 */
    tr_context_destroy(ctx);
}
