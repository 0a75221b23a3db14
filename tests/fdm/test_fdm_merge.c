/* FDM: a7xx bin merging (src/bin/bin_merge.c, turnip's tu_merge_tiles and
 * try_merge_tiles), through the public API only.
 *
 * Every pass here runs on TR_DEVICE_A740 (the device with bin masks) with
 * explicit tiling fields, so that the bins are small and fixed:
 *
 *   framebuffer 320 x 288, RGBA8 colour + D32 depth, gmem_bytes 64 KiB,
 *   tile_align 32 x 32, tile_max 32 x 32.
 *
 * tr_compute_bin_layout gives (checked by layout_is_10x9_with_4x8_pipes):
 *
 *   bin 32 x 32, bins 10 x 9, origin (0, 0), gmem_pixels 8192 (the same
 *   bins with 2 views), pipes of 4 x 8 bins, 3 x 2 pipes:
 *
 *            bx: 0 1 2 3 | 4 5 6 7 | 8 9
 *     by 0..7:   pipe 0  | pipe 1  | pipe 2     (4x8, 4x8, 2x8 bins)
 *     by 8   :   pipe 3  | pipe 4  | pipe 5     (4x1, 4x1, 2x1 bins)
 *
 *   slot of bin (bx, by) in its pipe: (by % 8) * 4 + bx % 4.
 *   With TR_CONTEXT_NO_BIN_MERGING (or a device without merging): the same
 *   bins, pipes of 2 x 2 bins (5 x 5 pipes).
 *
 * The density maps are 10 x 9 texels: 2^ceil(log2(ceil(320 / 10))) = 32 =
 * 2^ceil(log2(ceil(288 / 9))), so texel (i, j) is exactly bin (i, j) (the
 * bin centre (32 i + 16, 32 j + 16) >> 5).  Density bytes: 255 -> area 1,
 * 127 -> 2, 63 -> 4, 0 -> invisible.
 *
 * The merge rules, per pipe, bins row-major, each visible bin tries its
 * left neighbour, then its upper one unless that one is already merged
 * away; a merge needs: equal areas in views visible in both; same column
 * with equal width or same row with equal height; equal GMEM height; the
 * union's slot mask >> its lowest bit fits 16 bits; merged extent (bins)
 * <= area per axis for every visible view, the height budget times the view
 * count when only view 0 is visible (views > 1, no shared viewport, GMEM
 * height 1), and a tile that needed that gets GMEM height = view count.
 * The expected counts below are derived by hand from these rules. */
#include "trtest.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

enum { W = 320, H = 288, BIN = 32, BX = 10, BY = 9, NBINS = BX * BY, GMEM = 64 * 1024, MAXV = 2 };

/* ---- density maps: one texel per bin ----------------------------------------------------------- */

typedef struct bin_map {
    uint32_t layers;                     /* 1: every view reads layer 0; 2: view i reads layer i */
    uint8_t bytes[MAXV][BY][BX][2];      /* [layer][by][bx][R, G] */
} bin_map;

/* 0 -> invisible (density 0), 1 -> 255, 2 -> 127, 4 -> 63. */
static uint8_t density_byte(uint32_t area)
{
    return area == 0 ? 0 : area == 1 ? 255 : area == 2 ? 127 : 63;
}

static void map_set(bin_map *m, uint32_t layer, uint32_t bx, uint32_t by, uint32_t fx, uint32_t fy)
{
    m->bytes[layer][by][bx][0] = density_byte(fx);
    m->bytes[layer][by][bx][1] = density_byte(fy);
}

static void map_fill(bin_map *m, uint32_t layer, uint32_t fx, uint32_t fy)
{
    for (uint32_t by = 0; by < BY; by++)
        for (uint32_t bx = 0; bx < BX; bx++)
            map_set(m, layer, bx, by, fx, fy);
}

/* One layer, area fx x fy everywhere. */
static bin_map map_uniform(uint32_t fx, uint32_t fy)
{
    bin_map m;
    memset(&m, 0, sizeof m);
    m.layers = 1;
    map_fill(&m, 0, fx, fy);
    return m;
}

/* Two layers: view 0 fx0 x fy0, view 1 fx1 x fy1 (0 x 0: invisible). */
static bin_map map_two(uint32_t fx0, uint32_t fy0, uint32_t fx1, uint32_t fy1)
{
    bin_map m;
    memset(&m, 0, sizeof m);
    m.layers = 2;
    map_fill(&m, 0, fx0, fy0);
    map_fill(&m, 1, fx1, fy1);
    return m;
}

/* Foveated: area 1 at the centre, 2x1 / 1x2, 2x2, 4x2 / 2x4, 4x4 outwards. */
static bin_map map_mixed(void)
{
    bin_map m;
    memset(&m, 0, sizeof m);
    m.layers = 1;
    for (uint32_t by = 0; by < BY; by++)
        for (uint32_t bx = 0; bx < BX; bx++) {
            const double dx = (double)bx - 4.5, dy = (double)by - 4.0, r = dx * dx + dy * dy;
            const bool wide = fabs(dx) > fabs(dy);
            if (r < 3)
                map_set(&m, 0, bx, by, 1, 1);
            else if (r < 8)
                map_set(&m, 0, bx, by, wide ? 2 : 1, wide ? 1 : 2);
            else if (r < 16)
                map_set(&m, 0, bx, by, 2, 2);
            else if (r < 25)
                map_set(&m, 0, bx, by, wide ? 4 : 2, wide ? 2 : 4);
            else
                map_set(&m, 0, bx, by, 4, 4);
        }
    return m;
}

/* Uniform 2x2 with a few bins of density 0 (some left of / above scaled
 * bins of their pipe, some at pipe edges). */
static bin_map map_holes(void)
{
    bin_map m = map_uniform(2, 2);
    static const uint32_t holes[][2] = {{0, 0}, {5, 3}, {3, 6}, {8, 8}, {9, 2}};
    for (size_t k = 0; k < sizeof holes / sizeof holes[0]; k++)
        map_set(&m, 0, holes[k][0], holes[k][1], 0, 0);
    return m;
}

/* ---- running a pass ---------------------------------------------------------------------------- */

typedef struct run_cfg {
    uint32_t views;      /* 1: no multiview; 2: view_mask 0b11, attachments of 2 layers */
    uint32_t threads;    /* 0 = 1 */
    tr_device device;    /* 0 = TR_DEVICE_A740 */
    uint32_t ctx_flags;  /* TR_CONTEXT_* */
    uint32_t pass_flags; /* TR_PASS_* */
    const bin_map *map;
    bool draw;           /* record the lattice scene */
    bool load;           /* LOAD_OP_LOAD over random contents (else CLEAR) */
    uint32_t render_w, render_h; /* render area [0, w) x [0, h); 0 = the framebuffer */
} run_cfg;

typedef struct run_out {
    tr_pass_stats stats;
    tr_bin_layout layout;                /* tr_compute_bin_layout before the pass */
    tr_extent2d areas[NBINS * MAXV];     /* tr_compute_fdm_areas */
    uint32_t visible_bins;               /* bins with some view of a nonzero area */
    uint8_t *color, *color_init;         /* [layer][y][x] RGBA8 */
    float *depth, *depth_init;
} run_out;

static tr_context *make_context(const run_cfg *c)
{
    tr_context_desc cd;
    memset(&cd, 0, sizeof cd);
    cd.threads = c->threads ? c->threads : 1;
    cd.device = c->device ? c->device : TR_DEVICE_A740;
    cd.gmem_bytes = GMEM;
    cd.tile_align_w = BIN;
    cd.tile_align_h = BIN;
    cd.tile_max_w = BIN;
    cd.tile_max_h = BIN;
    cd.flags = c->ctx_flags;
    return trt_context_desc(&cd);
}

static tr_image *map_image(tr_context *ctx, const bin_map *m)
{
    tr_image *img = trt_image_layers(ctx, TR_FORMAT_R8G8_UNORM, BX, BY, m->layers);
    for (uint32_t l = 0; l < m->layers; l++) {
        tr_subresource sub = {0, l, TR_ASPECT_COLOR, 0};
        TRT_OK(tr_image_upload(img, &sub, m->bytes[l], 0));
    }
    return img;
}

/* The lattice scene: every vertex on the 1/16-pixel lattice, positions
 * exact in clip space under a 512 x 512 viewport at the origin (clip =
 * px / 256 - 1), so that the window coordinates of every bin and tile in
 * rendering space are exact: a background, a jittered grid of Gouraud
 * quads and random triangles with depth test and write, then translucent
 * triangles blended over them (depth test LESS_OR_EQUAL, no write). */
typedef struct scene_env {
    tr_context *ctx;
    tr_pipeline *opaque, *blend;
    uint32_t views;
} scene_env;

static trt_vertex vtx(float px, float py, float z, const float c[4])
{
    trt_vertex v;
    memset(&v, 0, sizeof v);
    v.pos[0] = px / 256.0f - 1.0f;
    v.pos[1] = py / 256.0f - 1.0f;
    v.pos[2] = z;
    v.pos[3] = 1.0f;
    memcpy(v.color, c, sizeof v.color);
    return v;
}

/* A coordinate k / 16 in [lo, hi]. */
static float lat(trt_rng *r, float lo, float hi)
{
    const int32_t a = (int32_t)ceilf(lo * 16.0f), b = (int32_t)floorf(hi * 16.0f);
    return (float)(a + (int32_t)(trt_rand_u32(r) % (uint32_t)(b - a + 1))) / 16.0f;
}

static void rand_color(trt_rng *r, float *c, float alpha_lo, float alpha_hi)
{
    for (int k = 0; k < 3; k++)
        c[k] = (float)trt_rand_range(r, 0, 1);
    c[3] = (float)trt_rand_range(r, alpha_lo, alpha_hi);
}

static void scene_prepare(scene_env *e)
{
    tr_pipeline_desc pd = {0};
    pd.fragment_shader = trt_fs_varying;
    pd.depth_test = 1;
    pd.depth_write = 1;
    pd.depth_compare = TR_COMPARE_LESS;
    e->opaque = trt_pipeline(e->ctx, &pd);
    pd.depth_write = 0;
    pd.depth_compare = TR_COMPARE_LESS_OR_EQUAL;
    pd.blend[0].enable = 1;
    pd.blend[0].src_color = TR_BLEND_SRC_ALPHA;
    pd.blend[0].dst_color = TR_BLEND_ONE_MINUS_SRC_ALPHA;
    pd.blend[0].src_alpha = TR_BLEND_ONE;
    pd.blend[0].dst_alpha = TR_BLEND_ONE_MINUS_SRC_ALPHA;
    e->blend = trt_pipeline(e->ctx, &pd);
}

/* Whole-pixel offsets per view (view 0: -8, +3; view 1: +16, -6), exact in
 * clip space (p / 256). */
static const float VIEW_OFFSET[2][2] = {{-0.03125f, 0.01171875f}, {0.0625f, -0.0234375f}};

static void scene_draw(scene_env *e, const trt_vertex *v, uint32_t n)
{
    trt_uniforms u;
    memset(&u, 0, sizeof u);
    for (uint32_t k = 0; k < 2 && e->views > 1; k++) {
        u.view_offset[k][0] = VIEW_OFFSET[k][0];
        u.view_offset[k][1] = VIEW_OFFSET[k][1];
    }
    trt_draw_u(e->ctx, &u, v, n);
}

enum { GX = 5, GY = 4, N_BG = 6, N_GRID = GX * GY * 6, N_RAND = 16 * 3, N_BLEND = 14 * 3 };

static void scene_record(scene_env *e)
{
    static trt_vertex v[N_BG + N_GRID + N_RAND], b[N_BLEND];
    trt_rng rng = {0x3e76e};
    uint32_t n = 0;
    float c[4][4];
    for (int k = 0; k < 4; k++)
        rand_color(&rng, c[k], 1, 1);
    v[n++] = vtx(0, 0, 0.999f, c[0]), v[n++] = vtx(W, 0, 0.999f, c[1]), v[n++] = vtx(0, H, 0.999f, c[3]);
    v[n++] = vtx(W, 0, 0.999f, c[1]), v[n++] = vtx(W, H, 0.999f, c[2]), v[n++] = vtx(0, H, 0.999f, c[3]);
    trt_vertex g[GY + 1][GX + 1];
    for (uint32_t j = 0; j <= GY; j++)
        for (uint32_t i = 0; i <= GX; i++) {
            float col[4];
            rand_color(&rng, col, 1, 1);
            g[j][i] = vtx(12.0f + 59.0f * (float)i + lat(&rng, -7, 7), 10.0f + 67.0f * (float)j + lat(&rng, -7, 7),
                          (float)trt_rand_range(&rng, 0.3, 0.7), col);
        }
    for (uint32_t j = 0; j < GY; j++)
        for (uint32_t i = 0; i < GX; i++) {
            const trt_vertex p = g[j][i], q = g[j][i + 1], r = g[j + 1][i + 1], s = g[j + 1][i];
            if ((i + j) & 1) {
                v[n++] = p, v[n++] = q, v[n++] = r;
                v[n++] = p, v[n++] = r, v[n++] = s;
            } else {
                v[n++] = p, v[n++] = q, v[n++] = s;
                v[n++] = q, v[n++] = r, v[n++] = s;
            }
        }
    for (uint32_t t = 0; t < N_RAND / 3; t++) {
        const float cx = lat(&rng, -8, W + 8), cy = lat(&rng, -8, H + 8);
        const float sz = t % 4 == 3 ? (float)trt_rand_range(&rng, 0.5, 3) : (float)trt_rand_range(&rng, 4, 70);
        for (int k = 0; k < 3; k++) {
            float col[4];
            rand_color(&rng, col, 1, 1);
            v[n++] = vtx(lat(&rng, fmaxf(-8, cx - sz), fminf(W + 8, cx + sz)),
                         lat(&rng, fmaxf(-8, cy - sz), fminf(H + 8, cy + sz)), (float)trt_rand_range(&rng, 0.05, 0.95),
                         col);
        }
    }
    cr_assert_eq(n, (uint32_t)(N_BG + N_GRID + N_RAND));
    for (uint32_t k = 0; k < N_BLEND; k++) {
        float col[4];
        rand_color(&rng, col, 0.2f, 0.8f);
        b[k] = vtx(lat(&rng, -8, W + 8), lat(&rng, -8, H + 8), (float)trt_rand_range(&rng, 0.1, 0.6), col);
    }
    const tr_viewport vp = {0.0f, 0.0f, 512.0f, 512.0f, 0.0f, 1.0f};
    TRT_OK(tr_cmd_bind_pipeline(e->ctx, e->opaque));
    TRT_OK(tr_cmd_set_viewport(e->ctx, &vp));
    scene_draw(e, v, n);
    TRT_OK(tr_cmd_bind_pipeline(e->ctx, e->blend));
    scene_draw(e, b, N_BLEND);
}

static void run(const run_cfg *c, run_out *o)
{
    memset(o, 0, sizeof *o);
    const uint32_t views = c->views ? c->views : 1;
    tr_context *ctx = make_context(c);
    tr_image *color = trt_image_layers(ctx, TR_FORMAT_R8G8B8A8_UNORM, W, H, views);
    tr_image *depth = trt_image_layers(ctx, TR_FORMAT_D32_SFLOAT, W, H, views);
    tr_image *map = c->map ? map_image(ctx, c->map) : NULL;
    const size_t px = (size_t)W * H;
    o->color = malloc(px * 4 * views);
    o->color_init = calloc(px * 4 * views, 1);
    o->depth = malloc(px * sizeof(float) * views);
    o->depth_init = calloc(px * views, sizeof(float));
    cr_assert(o->color && o->color_init && o->depth && o->depth_init);
    if (c->load) {
        trt_rng rng = {0x10ad5eed};
        for (uint32_t l = 0; l < views; l++) {
            uint8_t *col = o->color_init + l * px * 4;
            float *z = o->depth_init + l * px;
            for (size_t i = 0; i < px * 4; i++)
                col[i] = (uint8_t)trt_rand_u32(&rng);
            for (size_t i = 0; i < px; i++)
                z[i] = (float)trt_rand_range(&rng, 0.5, 1);
            tr_subresource cs = {0, l, TR_ASPECT_COLOR, 0}, zs = {0, l, TR_ASPECT_DEPTH, 0};
            TRT_OK(tr_image_upload(color, &cs, col, 0));
            TRT_OK(tr_image_upload(depth, &zs, z, 0));
        }
    }
    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.color_count = 1;
    rp.color[0].image = color;
    rp.color[0].load_op = c->load ? TR_LOAD_OP_LOAD : TR_LOAD_OP_CLEAR;
    rp.color[0].store_op = TR_STORE_OP_STORE;
    rp.color[0].clear_color[0] = 0.125f;
    rp.color[0].clear_color[1] = 0.25f;
    rp.color[0].clear_color[2] = 0.5f;
    rp.color[0].clear_color[3] = 1.0f;
    rp.depth.image = depth;
    rp.depth.depth_load_op = c->load ? TR_LOAD_OP_LOAD : TR_LOAD_OP_CLEAR;
    rp.depth.depth_store_op = TR_STORE_OP_STORE;
    rp.depth.clear_depth = 1.0f;
    rp.view_mask = views > 1 ? (1u << views) - 1 : 0;
    rp.flags = c->pass_flags;
    rp.density_map.image = map;
    rp.render_area = (tr_rect){0, 0, c->render_w, c->render_h};

    scene_env e = {ctx, NULL, NULL, views};
    if (c->draw)
        scene_prepare(&e);
    TRT_OK(tr_compute_bin_layout(ctx, &rp, &o->layout));
    if (map) {
        const uint32_t nb = o->layout.bins_x * o->layout.bins_y;
        cr_assert_leq(nb, (uint32_t)NBINS, "bins %ux%u", o->layout.bins_x, o->layout.bins_y);
        TRT_OK(tr_compute_fdm_areas(ctx, &rp, o->areas, NBINS * MAXV));
        for (uint32_t b = 0; b < nb; b++) {
            bool vis = false;
            for (uint32_t v = 0; v < views; v++)
                vis = vis || o->areas[b * views + v].width != 0;
            o->visible_bins += vis;
        }
    }
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
    if (c->draw)
        scene_record(&e);
    TRT_OK(tr_cmd_end_render_pass(ctx, &o->stats));
    for (uint32_t l = 0; l < views; l++) {
        trt_download(color, 0, l, TR_ASPECT_COLOR, o->color + l * px * 4);
        trt_download(depth, 0, l, TR_ASPECT_DEPTH, o->depth + l * px);
    }
    tr_context_destroy(ctx);
}

static void run_free(run_out *o)
{
    free(o->color);
    free(o->color_init);
    free(o->depth);
    free(o->depth_init);
    memset(o, 0, sizeof *o);
}

/* ---- the bin layout ---------------------------------------------------------------------------- */

/* bins_x = 10 (9 with a render area 288 wide), bins_y = 9: pipes 3 x 2
 * of 4 x 8 bins with merging, 5 x 5 of 2 x 2 without. */
static void expect_layout_n(const tr_bin_layout *l, bool merging, uint32_t bins_x, const char *what)
{
    cr_expect_eq(l->bin_w, (uint32_t)BIN, "%s: bin_w %u", what, l->bin_w);
    cr_expect_eq(l->bin_h, (uint32_t)BIN, "%s: bin_h %u", what, l->bin_h);
    cr_expect_eq(l->bins_x, bins_x, "%s: bins_x %u", what, l->bins_x);
    cr_expect_eq(l->bins_y, (uint32_t)BY, "%s: bins_y %u", what, l->bins_y);
    cr_expect_eq(l->origin_x, 0);
    cr_expect_eq(l->origin_y, 0);
    if (merging) {
        cr_expect_eq(l->pipe_w, 4u, "%s: pipe_w %u", what, l->pipe_w);
        cr_expect_eq(l->pipe_h, 8u, "%s: pipe_h %u", what, l->pipe_h);
        cr_expect_eq(l->pipes_x, 3u, "%s: pipes_x %u", what, l->pipes_x);
        cr_expect_eq(l->pipes_y, 2u, "%s: pipes_y %u", what, l->pipes_y);
    } else {
        cr_expect_eq(l->pipe_w, 2u, "%s: pipe_w %u", what, l->pipe_w);
        cr_expect_eq(l->pipe_h, 2u, "%s: pipe_h %u", what, l->pipe_h);
        cr_expect_eq(l->pipes_x, 5u, "%s: pipes_x %u", what, l->pipes_x);
        cr_expect_eq(l->pipes_y, 5u, "%s: pipes_y %u", what, l->pipes_y);
    }
}

static void expect_layout(const tr_bin_layout *l, bool merging, const char *what)
{
    expect_layout_n(l, merging, BX, what);
}

Test(fdm_merge, layout_is_10x9_with_4x8_pipes)
{
    bin_map m = map_uniform(2, 2);
    for (uint32_t views = 1; views <= 2; views++) {
        run_cfg c = {.views = views, .map = &m};
        run_out o;
        run(&c, &o);
        expect_layout(&o.layout, true, views == 1 ? "A740, 1 view" : "A740, 2 views");
        expect_layout(&o.stats.layout, true, "stats.layout");
        cr_expect_eq(o.layout.gmem_pixels, 8192u, "gmem_pixels %u", o.layout.gmem_pixels);
        cr_expect_eq(o.stats.bins, (uint32_t)NBINS);
        run_free(&o);
        c.ctx_flags = TR_CONTEXT_NO_BIN_MERGING;
        run(&c, &o);
        expect_layout(&o.layout, false, "A740, TR_CONTEXT_NO_BIN_MERGING");
        run_free(&o);
        c.ctx_flags = 0;
        c.device = TR_DEVICE_A630;
        run(&c, &o);
        expect_layout(&o.layout, false, "A630");
        run_free(&o);
    }
    /* without a density map the pipes are not 4 x 8 (no merging without FDM) */
    run_cfg c = {.views = 1};
    run_out o;
    run(&c, &o);
    cr_expect_eq(o.layout.bins_x * o.layout.bins_y, (uint32_t)NBINS);
    cr_expect_neq(o.layout.pipe_w * 100 + o.layout.pipe_h, 408u, "pipes %ux%u without a density map",
                  o.layout.pipe_w, o.layout.pipe_h);
    cr_expect_eq(o.stats.fdm_bins_merged, 0u);
    run_free(&o);
}

/* ---- exact tile counts ------------------------------------------------------------------------- */

/* Runs c without draws and expects the counts. */
static void expect_counts(run_cfg c, uint32_t tiles, uint32_t merged, const char *what)
{
    run_out o;
    run(&c, &o);
    const bool merging = !(c.ctx_flags & TR_CONTEXT_NO_BIN_MERGING);
    const uint32_t bins_x = c.render_w ? (c.render_w + BIN - 1) / BIN : BX;
    expect_layout_n(&o.layout, merging, bins_x, what);
    cr_expect_eq(o.stats.bins, bins_x * BY, "%s: bins %u", what, o.stats.bins);
    cr_expect_eq(o.stats.tiles, tiles, "%s: tiles = %u, expected %u", what, o.stats.tiles, tiles);
    cr_expect_eq(o.stats.fdm_bins_merged, merged, "%s: fdm_bins_merged = %u, expected %u", what,
                 o.stats.fdm_bins_merged, merged);
    run_free(&o);
}

/* Uniform 2x2.  Each 4x8 pipe walks row-major:
 *   row 0: (1,0) takes (0,0) -> 2x1; (2,0) refuses (1,0)'s tile (width 3 > 2);
 *          (3,0) takes (2,0).
 *   row 1: (0,1) skips its upper one (merged away); (1,1) takes (0,1) and
 *          then (1,0)'s 2x1 tile -> 2x2; (2,1) refuses (1,1)'s tile (neither
 *          its row nor its column); (3,1) -> 2x2 likewise.
 *   row 2: (1,2) takes (0,2), then refuses (1,1)'s 2x2 (height 3 > 2); ...
 * so every pipe is tiled by 2x2 groups:
 *   pipes 0, 1 (4x8): 8 tiles, 24 merged each; pipe 2 (2x8): 4 tiles, 12;
 *   pipes 3, 4 (4x1): 2 tiles (2x1), 2 merged each; pipe 5 (2x1): 1, 1.
 *   tiles 8+8+4+2+2+1 = 25, merged 24+24+12+2+2+1 = 65 (25 + 65 = 90). */
Test(fdm_merge, uniform_2x2_counts)
{
    bin_map m = map_uniform(2, 2);
    run_cfg c = {.map = &m};
    expect_counts(c, 25, 65, "uniform 2x2");
    run_out o;
    run(&c, &o);
    /* fdm_bin_views still counts bin views, not tiles */
    cr_expect_eq(o.stats.fdm_bin_views[1][1], (uint32_t)NBINS, "fdm_bin_views[1][1] = %u",
                 o.stats.fdm_bin_views[1][1]);
    run_free(&o);
    c.ctx_flags = TR_CONTEXT_NO_BIN_MERGING;
    expect_counts(c, 90, 0, "uniform 2x2, TR_CONTEXT_NO_BIN_MERGING");
    /* A render area 288 wide: 9 x 9 bins, pipe 2 one bin wide (bx 8):
     * pipes 0, 1: 8 tiles, 24 merged each; pipe 2 (1x8): 1x2 pairs, 4
     * tiles, 4 merged; pipes 3, 4: 2 tiles, 2 merged each; pipe 5: bin
     * (8,8) alone.  tiles 8+8+4+2+2+1 = 25, merged 24+24+4+2+2 = 56. */
    c.ctx_flags = 0;
    c.render_w = 288;
    c.render_h = H;
    expect_counts(c, 25, 56, "uniform 2x2, render area 288x288");
    c.render_w = c.render_h = 0;
    /* a device without bin masks never merges */
    c.ctx_flags = 0;
    c.device = TR_DEVICE_A660;
    run(&c, &o);
    cr_expect_eq(o.stats.tiles, 90u, "A660: tiles %u", o.stats.tiles);
    cr_expect_eq(o.stats.fdm_bins_merged, 0u, "A660: merged %u", o.stats.fdm_bins_merged);
    run_free(&o);
}

/* Uniform 4x4.  Row 0 of a 4-wide pipe becomes one 4x1 tile (widths 2, 3,
 * 4 <= 4); rows 1-3 each become 4x1 and take the tile above (heights 2, 3,
 * 4; slot mask 0xffff); row 4 refuses it (height 5 > 4) and starts over:
 *   pipes 0, 1: two 4x4 tiles, 30 merged each; pipe 2: two 2x4, 14 merged;
 *   pipes 3, 4: one 4x1, 3 merged each; pipe 5: one 2x1, 1 merged.
 *   tiles 2+2+2+1+1+1 = 9, merged 30+30+14+3+3+1 = 81. */
Test(fdm_merge, uniform_4x4_counts)
{
    bin_map m = map_uniform(4, 4);
    run_cfg c = {.map = &m};
    expect_counts(c, 9, 81, "uniform 4x4");
    c.ctx_flags = TR_CONTEXT_NO_BIN_MERGING;
    expect_counts(c, 90, 0, "uniform 4x4, TR_CONTEXT_NO_BIN_MERGING");
    /* Render area 288 wide (9 x 9 bins): pipe 2 is one column: two 1x4
     * runs (6 merged); pipe 5: bin (8,8) alone.
     * tiles 2+2+2+1+1+1 = 9, merged 30+30+6+3+3 = 72. */
    c.ctx_flags = 0;
    c.render_w = 288;
    c.render_h = H;
    expect_counts(c, 9, 72, "uniform 4x4, render area 288x288");
}

/* Anisotropic areas: the extent may not pass the area on either axis.
 *   2x1: horizontal pairs only: per bin row 2 + 2 + 1 pairs -> 45 tiles, 45 merged.
 *   1x2: vertical pairs only: per column 4 pairs in rows 0-7, row 8 alone
 *        -> 10 x 5 = 50 tiles, 40 merged.
 *   4x1: per bin row 4x1, 4x1, 2x1 -> 27 tiles, 63 merged.
 *   1x4: per column rows 0-3, 4-7 (slot masks 0x1111), row 8 -> 30 tiles, 60 merged.
 *   4x2: pipes 0, 1: four 4x2 each; pipe 2: four 2x2; row 8: 4x1, 4x1, 2x1
 *        -> 4+4+4+3 = 15 tiles, 75 merged.
 *   2x4: pipes 0, 1: four 2x4 each; pipe 2: two 2x4; row 8: five 2x1
 *        -> 4+4+2+5 = 15 tiles, 75 merged. */
Test(fdm_merge, anisotropic_areas_merge_along_their_long_axis_only)
{
    static const struct {
        uint32_t fx, fy, tiles, merged;
    } cases[] = {{2, 1, 45, 45}, {1, 2, 50, 40}, {4, 1, 27, 63}, {1, 4, 30, 60}, {4, 2, 15, 75}, {2, 4, 15, 75}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        bin_map m = map_uniform(cases[k].fx, cases[k].fy);
        run_cfg c = {.map = &m};
        char what[64];
        snprintf(what, sizeof what, "uniform %ux%u", cases[k].fx, cases[k].fy);
        expect_counts(c, cases[k].tiles, cases[k].merged, what);
    }
}

/* Neighbours with different areas never merge.
 * (a) Columns alternate: even bx 2x2, odd bx 4x4.  No horizontal merge;
 *     even columns: vertical pairs (4 per column in rows 0-7), odd columns:
 *     runs of 4 (2 per column); row 8 (pipes 3-5, one row): nothing.
 *     tiles 5*4 + 5*2 + 10 = 40, merged 5*4 + 5*6 = 50.
 * (b) Rows 0-3 4x4, rows 4-8 2x2.  Rows 0-3: 4x4, 4x4, 2x4 (15+15+7
 *     merged); rows 4-7: 2x2 groups, 4+4+2 (12+12+6); row 4 never takes
 *     the 4x4 tile above it; row 8: five 2x1 pairs (5).
 *     tiles 3 + 10 + 5 = 18, merged 37 + 30 + 5 = 72. */
Test(fdm_merge, refuse_different_areas)
{
    bin_map m;
    memset(&m, 0, sizeof m);
    m.layers = 1;
    for (uint32_t by = 0; by < BY; by++)
        for (uint32_t bx = 0; bx < BX; bx++)
            map_set(&m, 0, bx, by, bx % 2 ? 4 : 2, bx % 2 ? 4 : 2);
    run_cfg c = {.map = &m};
    expect_counts(c, 40, 50, "columns of 2x2 and 4x4");

    for (uint32_t by = 0; by < BY; by++)
        for (uint32_t bx = 0; bx < BX; bx++)
            map_set(&m, 0, bx, by, by < 4 ? 4 : 2, by < 4 ? 4 : 2);
    expect_counts(c, 18, 72, "rows 0-3 4x4, rows 4-8 2x2");
}

/* Area 1x1 bins never merge (the extent 2 passes the area 1), neither
 * among themselves nor with scaled neighbours.
 * (a) Uniform 1x1: 90 tiles, 0 merged.
 * (b) Columns 0-1 1x1, columns 2-9 2x2: pipe 0: 16 single bins + four 2x2
 *     groups in columns 2-3 ((2,y) refuses (1,y): areas differ), 20 tiles,
 *     12 merged; pipe 1: 8 tiles, 24; pipe 2: 4, 12; pipe 3: (0,8), (1,8),
 *     (2,8)+(3,8): 3 tiles, 1 merged; pipe 4: 2, 2; pipe 5: 1, 1.
 *     tiles 20+8+4+3+2+1 = 38, merged 12+24+12+1+2+1 = 52. */
Test(fdm_merge, refuse_area_1)
{
    bin_map m = map_uniform(1, 1);
    run_cfg c = {.map = &m};
    expect_counts(c, 90, 0, "uniform 1x1");
    for (uint32_t by = 0; by < BY; by++)
        for (uint32_t bx = 0; bx < BX; bx++)
            map_set(&m, 0, bx, by, bx < 2 ? 1 : 2, bx < 2 ? 1 : 2);
    expect_counts(c, 38, 52, "columns 0-1 1x1, 2-9 2x2");
}

/* Bins in different VSC pipes never merge.  Area 1x1 everywhere except a
 * block of 2 x 2 bins of area 2x2:
 *   bx 2-3, by 2-3 (inside pipe 0): one 2x2 tile: 87 tiles, 3 merged;
 *   bx 3-4, by 2-3 (pipes 0 | 1): two 1x2 tiles: 88 tiles, 2 merged;
 *   bx 2-3, by 7-8 (pipes 0 / 3): two 2x1 tiles: 88 tiles, 2 merged;
 *   bx 7-8, by 7-8 (pipes 1, 2, 4, 5): four single bins: 90 tiles, 0 merged. */
Test(fdm_merge, refuse_across_pipes)
{
    static const struct {
        uint32_t x, y, tiles, merged;
    } cases[] = {{2, 2, 87, 3}, {3, 2, 88, 2}, {2, 7, 88, 2}, {7, 7, 90, 0}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        bin_map m = map_uniform(1, 1);
        for (uint32_t j = 0; j < 2; j++)
            for (uint32_t i = 0; i < 2; i++)
                map_set(&m, 0, cases[k].x + i, cases[k].y + j, 2, 2);
        run_cfg c = {.map = &m};
        char what[64];
        snprintf(what, sizeof what, "2x2 block at bins (%u..%u, %u..%u)", cases[k].x, cases[k].x + 1, cases[k].y,
                 cases[k].y + 1);
        expect_counts(c, cases[k].tiles, cases[k].merged, what);
    }
}

/* The height multiplier: 2 views (view_mask 0b11), view 1 of density 0
 * everywhere, so only view 0 is visible and a tile may be twice as tall as
 * view 0's area allows (its GMEM holds the unused view's slice).
 *
 * view 0 4x4: budget 4 wide x 8 tall, but a tile 4 wide and 5 tall spans
 *   slots 0..19 (mask 0xfffff > 16 bits): still 4x4 tiles, 9 tiles, 81
 *   merged, exactly as with view 1 visible at 4x4.
 * view 0 4x2: rows 0-1 -> 4x2 (GMEM height 1, 2 <= area 2); row 2 joins
 *   (height 3 <= 2*2, the tile's GMEM height becomes 2); row 3 refuses it
 *   (GMEM heights 1 and 2 differ); rows 3-5 and 6-7 alike.  Pipes 0, 1:
 *   3 tiles, 29 merged each; pipe 2: 3 tiles (2 wide), 13; row 8: 4x1,
 *   4x1, 2x1, 7 merged.  12 tiles, 78 merged; with view 1 visible at 4x2:
 *   15 tiles, 75 merged.
 * view 0 2x2: the same pattern 2 wide: per pipe column pair 3 tiles (rows
 *   0-2, 3-5, 6-7).  Pipes 0, 1: 6 tiles, 26 merged; pipe 2: 3, 13; row
 *   8: five pairs.  20 tiles, 70 merged; with view 1 visible: 25, 65.
 * view 0 1x1: vertical pairs (height 2 <= 1*2; GMEM height 2 then stops
 *   a third): per column 4 pairs + row 8: 50 tiles, 40 merged; with view
 *   1 visible at 1x1: 90 tiles, 0 merged.
 * Only view 0 counts: view 0 invisible and view 1 2x2 is 25 tiles, 65
 * merged (no multiplier); and the shared-viewport flag turns it off too
 * (view 0 2x2, view 1 invisible, TR_PASS_FDM_SHARED_VIEWPORT: 25, 65). */
Test(fdm_merge, height_multiplier_for_view_0_only)
{
    static const struct {
        uint32_t fx, fy, tiles, merged, tiles_both, merged_both;
    } cases[] = {{4, 4, 9, 81, 9, 81}, {4, 2, 12, 78, 15, 75}, {2, 2, 20, 70, 25, 65}, {1, 1, 50, 40, 90, 0}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const uint32_t fx = cases[k].fx, fy = cases[k].fy;
        char what[96];
        bin_map m = map_two(fx, fy, 0, 0);
        run_cfg c = {.views = 2, .map = &m};
        snprintf(what, sizeof what, "2 views: view 0 %ux%u, view 1 invisible", fx, fy);
        expect_counts(c, cases[k].tiles, cases[k].merged, what);
        bin_map both = map_two(fx, fy, fx, fy);
        c.map = &both;
        snprintf(what, sizeof what, "2 views: both %ux%u", fx, fy);
        expect_counts(c, cases[k].tiles_both, cases[k].merged_both, what);
    }
    bin_map m = map_two(0, 0, 2, 2);
    run_cfg c = {.views = 2, .map = &m};
    expect_counts(c, 25, 65, "2 views: view 0 invisible, view 1 2x2");
    m = map_two(2, 2, 0, 0);
    c.pass_flags = TR_PASS_FDM_SHARED_VIEWPORT;
    expect_counts(c, 25, 65, "2 views: view 0 2x2, view 1 invisible, shared viewport");
}

/* ---- images: merging changes nothing ----------------------------------------------------------- */

static void expect_same_images(const run_out *a, const run_out *b, uint32_t views, const char *what)
{
    const size_t px = (size_t)W * H;
    for (uint32_t l = 0; l < views; l++) {
        size_t bad = 0, first = 0;
        for (size_t i = 0; i < px; i++) {
            const bool ok = memcmp(a->color + (l * px + i) * 4, b->color + (l * px + i) * 4, 4) == 0 &&
                            memcmp(a->depth + l * px + i, b->depth + l * px + i, sizeof(float)) == 0;
            if (!ok && bad++ == 0)
                first = i;
        }
        cr_expect_eq(bad, 0u, "%s: layer %u: %zu pixels differ; first (%zu,%zu)", what, l, bad, first % W, first / W);
    }
}

/* Every view is visible in every bin or in none. */
static bool visibility_is_uniform(const tr_extent2d *areas, uint32_t nbins, uint32_t views)
{
    for (uint32_t v = 0; v < views; v++)
        for (uint32_t b = 1; b < nbins; b++)
            if ((areas[b * views + v].width != 0) != (areas[v].width != 0))
                return false;
    return true;
}

typedef struct image_case {
    const char *name;
    bin_map map;
    uint32_t views;
    bool load;
    uint32_t render_w; /* render area [0, render_w) x [0, H); 0 = the framebuffer */
} image_case;

static void image_case_run(const image_case *ic)
{
    run_cfg c = {.views = ic->views, .map = &ic->map, .draw = true, .load = ic->load, .threads = 1,
                 .render_w = ic->render_w, .render_h = ic->render_w ? H : 0};
    const uint32_t bins_x = ic->render_w ? (ic->render_w + BIN - 1) / BIN : BX;
    run_out merged, plain, merged3;
    run(&c, &merged);
    c.ctx_flags = TR_CONTEXT_NO_BIN_MERGING;
    run(&c, &plain);
    c.ctx_flags = 0;
    c.threads = 3;
    run(&c, &merged3);

    char what[128];
    snprintf(what, sizeof what, "%s: merging vs TR_CONTEXT_NO_BIN_MERGING", ic->name);
    expect_layout_n(&merged.layout, true, bins_x, what);
    expect_layout_n(&plain.layout, false, bins_x, what);
    cr_expect_gt(merged.stats.fdm_bins_merged, 0u, "%s: nothing merged", ic->name);
    cr_expect_lt(merged.stats.tiles, plain.stats.tiles, "%s: tiles %u with merging, %u without", ic->name,
                 merged.stats.tiles, plain.stats.tiles);
    cr_expect_eq(plain.stats.fdm_bins_merged, 0u, "%s: %u merged without merging", ic->name,
                 plain.stats.fdm_bins_merged);
    cr_expect_eq(plain.stats.tiles, plain.visible_bins, "%s: %u tiles without merging, %u bins visible", ic->name,
                 plain.stats.tiles, plain.visible_bins);
    cr_expect_gt(merged.stats.fragments_shaded, 0u, "%s: nothing drawn", ic->name);
    /* Where every view is visible in all bins or in none, a tile covers
     * exactly the coarse fragments of its bins (bins of density 0 absorbed
     * into a tile are drawn there: see invisible_bins_are_absorbed_as_in_
     * turnip).  Rasterized, not shaded: the a740's LRZ in scaled bins works
     * on blocks of 8x8 coarse fragments from the tile's corner, so a merged
     * tile's LRZ rejects other fragments than its bins would alone. */
    if (visibility_is_uniform(merged.areas, bins_x * BY, ic->views))
        cr_expect_eq(merged.stats.fragments_rasterized, plain.stats.fragments_rasterized,
                     "%s: %llu fragments rasterized with merging, %llu without", ic->name,
                     (unsigned long long)merged.stats.fragments_rasterized,
                     (unsigned long long)plain.stats.fragments_rasterized);
    cr_expect_eq(merged.stats.gmem_bytes_stored, plain.stats.gmem_bytes_stored, "%s: gmem_bytes_stored", ic->name);
    /* the scene covers most of the visible framebuffer */
    size_t changed = 0;
    for (size_t i = 0; i < (size_t)W * H * ic->views; i++)
        changed += memcmp(merged.color + 4 * i, merged.color_init + 4 * i, 4) != 0;
    cr_expect_gt(changed, (size_t)W * H / 2, "%s: only %zu pixels drawn", ic->name, changed);
    /* the same bin views at the same areas either way */
    cr_expect_eq(memcmp(merged.stats.fdm_bin_views, plain.stats.fdm_bin_views, sizeof plain.stats.fdm_bin_views), 0,
                 "%s: fdm_bin_views differ", ic->name);
    cr_expect_eq(merged.stats.fdm_bin_views_invisible, plain.stats.fdm_bin_views_invisible);
    expect_same_images(&merged, &plain, ic->views, what);

    snprintf(what, sizeof what, "%s: merging, 3 threads vs 1", ic->name);
    expect_same_images(&merged3, &merged, ic->views, what);
    cr_expect_eq(merged3.stats.tiles, merged.stats.tiles, "%s", what);
    cr_expect_eq(merged3.stats.fdm_bins_merged, merged.stats.fdm_bins_merged, "%s", what);
    cr_expect_eq(merged3.stats.fragments_shaded, merged.stats.fragments_shaded, "%s", what);

    /* invisible bin views keep the image's contents */
    const size_t px = (size_t)W * H;
    for (uint32_t l = 0; l < ic->views; l++)
        for (uint32_t by = 0; by < BY; by++)
            for (uint32_t bx = 0; bx < BX; bx++) {
                if (bx >= bins_x || merged.areas[((size_t)by * bins_x + bx) * ic->views + l].width)
                    continue;
                size_t bad = 0;
                for (uint32_t y = by * BIN; y < (by + 1) * BIN; y++)
                    for (uint32_t x = bx * BIN; x < (bx + 1) * BIN; x++) {
                        const size_t i = l * px + (size_t)y * W + x;
                        bad += memcmp(merged.color + i * 4, merged.color_init + i * 4, 4) != 0 ||
                               merged.depth[i] != merged.depth_init[i];
                    }
                cr_expect_eq(bad, 0u, "%s: invisible bin (%u,%u) of view %u: %zu pixels changed", ic->name, bx, by, l,
                             bad);
            }
    run_free(&merged);
    run_free(&plain);
    run_free(&merged3);
}

Test(fdm_merge, images_uniform_2x2)
{
    image_case ic = {"uniform 2x2", map_uniform(2, 2), 1, false, 0};
    image_case_run(&ic);
    image_case rc = {"uniform 2x2, render area 288x288", map_uniform(2, 2), 1, false, 288};
    image_case_run(&rc);
}

Test(fdm_merge, images_uniform_4x4)
{
    image_case ic = {"uniform 4x4", map_uniform(4, 4), 1, false, 0};
    image_case_run(&ic);
    image_case lc = {"uniform 4x4, LOAD", map_uniform(4, 4), 1, true, 0};
    image_case_run(&lc);
    image_case rc = {"uniform 4x4, LOAD, render area 288x288", map_uniform(4, 4), 1, true, 288};
    image_case_run(&rc);
}

Test(fdm_merge, images_mixed)
{
    image_case ic = {"foveated mixed areas", map_mixed(), 1, false, 0};
    image_case_run(&ic);
    image_case lc = {"foveated mixed areas, LOAD", map_mixed(), 1, true, 0};
    image_case_run(&lc);
}

Test(fdm_merge, images_density_0_bins)
{
    image_case ic = {"2x2 with holes, LOAD", map_holes(), 1, true, 0};
    image_case_run(&ic);
}

Test(fdm_merge, images_multiview_view_1_invisible)
{
    /* view 0 4x2 (tiles of GMEM height 2 through the multiplier) and 2x2;
     * view 1 invisible: its layer keeps the loaded contents */
    image_case a = {"2 views, view 0 4x2, view 1 invisible, LOAD", map_two(4, 2, 0, 0), 2, true, 0};
    image_case_run(&a);
    image_case b = {"2 views, view 0 2x2, view 1 invisible, LOAD", map_two(2, 2, 0, 0), 2, true, 0};
    image_case_run(&b);
    image_case d = {"2 views, view 0 1x1, view 1 invisible", map_two(1, 1, 0, 0), 2, false, 0};
    image_case_run(&d);
}

Test(fdm_merge, images_multiview_both_visible)
{
    image_case a = {"2 views, 2x2 and 4x4", map_two(2, 2, 4, 4), 2, false, 0};
    image_case_run(&a);
    /* per-layer mixed maps: view 0 foveated, view 1 uniform 4x2 */
    image_case b = {"2 views, foveated and 4x2", map_two(1, 1, 4, 2), 2, true, 0};
    const bin_map mixed = map_mixed();
    memcpy(b.map.bytes[0], mixed.bytes[0], sizeof mixed.bytes[0]);
    image_case_run(&b);
}

/* ---- tiles + merged = bins with a visible view ------------------------------------------------- */

static void expect_tile_sum(run_cfg c, const char *what)
{
    run_out o;
    run(&c, &o);
    cr_expect_eq(o.stats.tiles + o.stats.fdm_bins_merged, o.visible_bins,
                 "%s: tiles %u + fdm_bins_merged %u = %u, but %u bins have a visible view", what, o.stats.tiles,
                 o.stats.fdm_bins_merged, o.stats.tiles + o.stats.fdm_bins_merged, o.visible_bins);
    run_free(&o);
}

Test(fdm_merge, tiles_plus_merged_is_visible_bins)
{
    static const uint32_t areas[][2] = {{1, 1}, {2, 2}, {4, 4}, {2, 1}, {1, 4}, {4, 2}};
    for (size_t k = 0; k < sizeof areas / sizeof areas[0]; k++) {
        bin_map m = map_uniform(areas[k][0], areas[k][1]);
        char what[64];
        snprintf(what, sizeof what, "uniform %ux%u", areas[k][0], areas[k][1]);
        expect_tile_sum((run_cfg){.map = &m}, what);
    }
    bin_map mixed = map_mixed();
    expect_tile_sum((run_cfg){.map = &mixed}, "foveated");
    bin_map two = map_two(4, 2, 0, 0);
    expect_tile_sum((run_cfg){.views = 2, .map = &two}, "2 views, view 1 invisible");
    two = map_two(2, 2, 4, 1);
    expect_tile_sum((run_cfg){.views = 2, .map = &two}, "2 views, 2x2 and 4x1");
}

/* A bin invisible in every view is never walked, but a visible neighbour
 * absorbs it as turnip's try_merge_tiles does (no view is visible in both,
 * and only the visible views bound the extent): the merged tile draws its
 * area and stores nothing there (fdm.h).  So fdm_bins_merged counts it,
 * and tiles + merged is the visible bins plus the absorbed invisible ones.
 * Uniform 2x2 with (0,0) at density 0: (1,0) absorbs (0,0), the groups are
 * the uniform map's, 25 tiles and 65 merged = all 90 bins. */
Test(fdm_merge, invisible_bins_are_absorbed_as_in_turnip)
{
    bin_map m = map_uniform(2, 2);
    map_set(&m, 0, 0, 0, 0, 0);
    run_cfg c = {.map = &m};
    run_out o;
    run(&c, &o);
    cr_expect_eq(o.visible_bins, 89u);
    cr_expect_eq(o.stats.tiles, 25u, "tiles %u", o.stats.tiles);
    cr_expect_eq(o.stats.fdm_bins_merged, 65u, "fdm_bins_merged %u", o.stats.fdm_bins_merged);
    cr_expect_eq(o.stats.fdm_bin_views_invisible, 1u);
    run_free(&o);

    /* five holes, each absorbed by a neighbour's 2x2 group: 30 + 60 = 90 */
    bin_map holes = map_holes();
    run_cfg h = {.map = &holes};
    run(&h, &o);
    cr_expect_eq(o.visible_bins, 85u);
    cr_expect_eq(o.stats.tiles + o.stats.fdm_bins_merged, 90u, "holes: tiles %u + merged %u", o.stats.tiles,
                 o.stats.fdm_bins_merged);
    run_free(&o);
}
