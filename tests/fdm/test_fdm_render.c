/* FDM: rendering with a fragment density map (fdm.h), through the public
 * API only.
 *
 * The strongest statement the rules allow: with one fragment area (fx, fy)
 * over the whole pass, a scene whose vertices lie on a 1/16-pixel lattice
 * renders EXACTLY the same scene drawn without a density map into a
 * W/fx x H/fy image with the viewport scaled, each coarse fragment stored to
 * its fx x fy pixels: image(x, y) == reference(x / fx, y / fy), colour and
 * depth bytes (both tie rules, scissors, textures with derivatives from
 * neighbouring coarse fragments, multiview with an area per view).  A map
 * that is not uniform renders each bin as its own area's reference, the
 * same bytes for every thread count, SIMD level and GMEM budget that gives
 * the same bins.  Then FragCoord and FragSize, LOAD into scaled bins,
 * clears, DONT_CARE stores, invisible views and the FDM statistics. */
#include "trtest.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The framebuffer of every test (multiples of 16: 1, 2 and 4 divide it),
 * the density map over it (32-pixel texels: 256 / 8 = 192 / 6 = 32, so the
 * texel size does not depend on how the division rounds) and the GMEM
 * budget (small, so that there are several bins). */
enum { W = 256, H = 192, MAP_W = 8, MAP_H = 6, GMEM = 64 * 1024 };

/* Density bytes per area: 255 -> 1, 127 -> 2, 63 -> 4 (raw areas 1,
 * 2.0079 and 4.0476; checked by area_of_test_bytes). */
static uint8_t density_byte(uint32_t area)
{
    return area == 1 ? 255 : area == 2 ? 127 : 63;
}

/* 1 -> 0, 2 -> 1, 4 -> 2: the index of an area in fdm_bin_views. */
static uint32_t area_index(uint32_t a)
{
    return a == 1 ? 0 : a == 2 ? 1 : 2;
}

/* ---- density maps ------------------------------------------------------------------------------ */

typedef struct map_spec {
    uint32_t w, h, layers;
    uint8_t bytes[4][MAP_H][MAP_W][2]; /* [layer][y][x][R, G]; w <= MAP_W, h <= MAP_H */
} map_spec;

static void map_uniform_layer(map_spec *m, uint32_t layer, uint8_t bx, uint8_t by)
{
    for (uint32_t j = 0; j < MAP_H; j++)
        for (uint32_t i = 0; i < MAP_W; i++) {
            m->bytes[layer][j][i][0] = bx;
            m->bytes[layer][j][i][1] = by;
        }
}

/* A MAP_W x MAP_H map with one layer of density bytes (bx, by) everywhere. */
static map_spec map_uniform(uint8_t bx, uint8_t by)
{
    map_spec m;
    memset(&m, 0, sizeof m);
    m.w = MAP_W;
    m.h = MAP_H;
    m.layers = 1;
    map_uniform_layer(&m, 0, bx, by);
    return m;
}

/* The uniform map whose area is fx x fy. */
static map_spec map_area(uint32_t fx, uint32_t fy)
{
    return map_uniform(density_byte(fx), density_byte(fy));
}

/* A foveated map: full density at the centre, coarser outwards, with
 * different radii per axis so that mixed areas (2x1, 4x2) appear too. */
static map_spec map_radial(void)
{
    map_spec m;
    memset(&m, 0, sizeof m);
    m.w = MAP_W;
    m.h = MAP_H;
    m.layers = 1;
    for (uint32_t j = 0; j < MAP_H; j++)
        for (uint32_t i = 0; i < MAP_W; i++) {
            const double dx = (double)i + 0.5 - MAP_W / 2.0, dy = (double)j + 0.5 - MAP_H / 2.0;
            const double r = sqrt(dx * dx + dy * dy);
            m.bytes[0][j][i][0] = r < 1.5 ? 255 : r < 2.6 ? 127 : 63;
            m.bytes[0][j][i][1] = r < 2.2 ? 255 : r < 3.2 ? 127 : 63;
        }
    return m;
}

/* An image of `layers` layers created with creation flags. */
static tr_image *flagged_image(tr_context *ctx, tr_format f, uint32_t w, uint32_t h, uint32_t layers, uint32_t flags)
{
    tr_image *img = NULL;
    tr_image_desc d = {f, w, h, layers, 1, flags, 0};
    TRT_OK(tr_image_create(ctx, &d, &img));
    return img;
}

static tr_image *map_image(tr_context *ctx, const map_spec *m, uint32_t flags)
{
    tr_image *img = flagged_image(ctx, TR_FORMAT_R8G8_UNORM, m->w, m->h, m->layers, flags);
    uint8_t buf[MAP_H * MAP_W * 2];
    for (uint32_t l = 0; l < m->layers; l++) {
        for (uint32_t j = 0; j < m->h; j++)
            memcpy(buf + (size_t)j * m->w * 2, m->bytes[l][j], (size_t)m->w * 2);
        tr_subresource sub = {0, l, TR_ASPECT_COLOR, 0};
        TRT_OK(tr_image_upload(img, &sub, buf, 0));
    }
    return img;
}

/* ---- what a pass looks like -------------------------------------------------------------------- */

typedef struct scene scene;

typedef struct run_cfg {
    uint32_t fb_w, fb_h;         /* attachments */
    uint32_t views;              /* 1: no multiview; 2: view_mask 0b11, attachments of 2 layers */
    uint32_t threads, gmem;
    tr_simd_level simd;
    tr_format color_format;
    int depth;                   /* a D32_SFLOAT attachment */
    const map_spec *map;         /* NULL: no density map */
    uint32_t map_base_layer;
    uint32_t pass_flags, pipeline_flags;
    tr_load_op color_load, depth_load;
    tr_store_op color_store, depth_store;
    float clear_color[4];
    float clear_depth;
    uint64_t init_seed;          /* != 0: attachments start with random contents */
    const scene *sc;             /* NULL: no commands */
    /* FDM offset: offsets per view (offset_count 0: none) and the images'
     * creation flags (TR_IMAGE_FDM_OFFSET on every attachment and the map) */
    uint32_t offset_count;
    tr_offset2d offsets[2];
    uint32_t image_flags;
    tr_device device;            /* the GPU modelled (DEFAULT: an a630's numbers) */
    uint32_t ctx_flags;          /* TR_CONTEXT_* */
    uint32_t tile_align;         /* both bin alignments (0: the device's) */
    uint32_t ref_fx, ref_fy;     /* the scene's viewport and scissors scaled down by this */
    tr_tie_rule tie;
} run_cfg;

static run_cfg cfg_default(void)
{
    run_cfg c;
    memset(&c, 0, sizeof c);
    c.fb_w = W;
    c.fb_h = H;
    c.views = 1;
    c.threads = 1;
    c.gmem = GMEM;
    c.color_format = TR_FORMAT_R8G8B8A8_UNORM;
    c.color_load = TR_LOAD_OP_CLEAR;
    c.depth_load = TR_LOAD_OP_CLEAR;
    c.color_store = TR_STORE_OP_STORE;
    c.depth_store = TR_STORE_OP_STORE;
    c.clear_color[0] = 0.125f;
    c.clear_color[1] = 0.25f;
    c.clear_color[2] = 0.5f;
    c.clear_color[3] = 1.0f;
    c.clear_depth = 1.0f;
    c.ref_fx = c.ref_fy = 1;
    return c;
}

/* The downscaled reference of c: no density map, a W/fx x H/fy framebuffer,
 * the scene's viewport and scissors scaled. */
static run_cfg cfg_ref(const run_cfg *c, uint32_t fx, uint32_t fy)
{
    run_cfg r = *c;
    r.map = NULL;
    r.map_base_layer = 0;
    r.pass_flags &= ~TR_PASS_FDM_SHARED_VIEWPORT;
    r.fb_w = W / fx;
    r.fb_h = H / fy;
    r.ref_fx = fx;
    r.ref_fy = fy;
    return r;
}

typedef struct pass_objs {
    tr_context *ctx;
    tr_image *color, *depth, *map;
    tr_render_pass_desc rp;
} pass_objs;

static void objs_create(const run_cfg *c, pass_objs *p)
{
    memset(p, 0, sizeof *p);
    tr_context_desc cd = {0};
    cd.threads = c->threads;
    cd.gmem_bytes = c->gmem;
    cd.simd = c->simd;
    cd.device = c->device;
    cd.flags = c->ctx_flags;
    cd.tile_align_w = cd.tile_align_h = c->tile_align;
    p->ctx = trt_context_desc(&cd);
    p->color = flagged_image(p->ctx, c->color_format, c->fb_w, c->fb_h, c->views, c->image_flags);
    if (c->depth)
        p->depth = flagged_image(p->ctx, TR_FORMAT_D32_SFLOAT, c->fb_w, c->fb_h, c->views, c->image_flags);
    if (c->map)
        p->map = map_image(p->ctx, c->map, c->image_flags);
    tr_render_pass_desc *rp = &p->rp;
    rp->color_count = 1;
    rp->color[0].image = p->color;
    rp->color[0].load_op = c->color_load;
    rp->color[0].store_op = c->color_store;
    memcpy(rp->color[0].clear_color, c->clear_color, sizeof c->clear_color);
    if (p->depth) {
        rp->depth.image = p->depth;
        rp->depth.depth_load_op = c->depth_load;
        rp->depth.depth_store_op = c->depth_store;
        rp->depth.clear_depth = c->clear_depth;
    }
    rp->view_mask = c->views > 1 ? (1u << c->views) - 1 : 0;
    rp->flags = c->pass_flags;
    rp->density_map.image = p->map;
    rp->density_map.base_layer = c->map_base_layer;
    rp->density_map.offset_count = c->offset_count;
    memcpy(rp->density_map.offsets, c->offsets, sizeof c->offsets);
}

/* The bin layout the pass of c gets. */
static tr_bin_layout layout_of(const run_cfg *c)
{
    pass_objs p;
    objs_create(c, &p);
    tr_bin_layout l;
    TRT_OK(tr_compute_bin_layout(p.ctx, &p.rp, &l));
    tr_context_destroy(p.ctx);
    return l;
}

/* ---- scenes -------------------------------------------------------------------------------------- */

typedef struct scene_env {
    const run_cfg *cfg;
    tr_context *ctx;
    tr_pipeline *pl[4];
    tr_image *tex;
    tr_sampler *smp;
} scene_env;

struct scene {
    void (*prepare)(scene_env *e); /* before the pass: pipelines, textures (may be NULL) */
    void (*record)(scene_env *e);  /* inside the pass */
};

/* Per-view offsets in clip space (x += dx * w) for multiview passes: whole
 * pixels in the framebuffer (view 0: -8, +3; view 1: +16, -6), so that the
 * lattice holds.  Single-view passes draw without them. */
static const float VIEW_OFFSET[2][2] = {{-0.0625f, 0.03125f}, {0.125f, -0.0625f}};

static void scene_draw(scene_env *e, const trt_vertex *v, uint32_t n, const float *color)
{
    trt_uniforms u;
    memset(&u, 0, sizeof u);
    for (int k = 0; k < 2 && e->cfg->views > 1; k++) {
        u.view_offset[k][0] = VIEW_OFFSET[k][0];
        u.view_offset[k][1] = VIEW_OFFSET[k][1];
    }
    if (color)
        memcpy(u.color[0], color, sizeof u.color[0]);
    trt_draw_u(e->ctx, &u, v, n);
}

/* The viewport over the W x H framebuffer, scaled down for a reference. */
static void scene_viewport(scene_env *e)
{
    tr_viewport vp = {0.0f, 0.0f, (float)(W / e->cfg->ref_fx), (float)(H / e->cfg->ref_fy), 0.0f, 1.0f};
    TRT_OK(tr_cmd_set_viewport(e->ctx, &vp));
}

/* A scissor in framebuffer pixels; for a reference it becomes
 * [floor(x / fx), ceil((x + w) / fx)) (likewise y), what the rendering-space
 * scissor of an FDM bin covers. */
static void scene_scissor(scene_env *e, uint32_t x, uint32_t y, uint32_t w, uint32_t h)
{
    const uint32_t fx = e->cfg->ref_fx, fy = e->cfg->ref_fy;
    const uint32_t x0 = x / fx, y0 = y / fy;
    const uint32_t x1 = (x + w + fx - 1) / fx, y1 = (y + h + fy - 1) / fy;
    tr_rect r = {(int32_t)x0, (int32_t)y0, x1 - x0, y1 - y0};
    TRT_OK(tr_cmd_set_scissor(e->ctx, &r));
}

static trt_vertex vtx(float px, float py, float z, const float *col)
{
    return trt_vpx(px, py, z, W, H, col);
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

/* Two triangles over [0, W] x [0, H] at depth z, Gouraud. */
static void full_quad(trt_vertex *v, float z, trt_rng *r)
{
    float c[4][4];
    for (int k = 0; k < 4; k++)
        rand_color(r, c[k], 1, 1);
    v[0] = vtx(0, 0, z, c[0]);
    v[1] = vtx(W, 0, z, c[1]);
    v[2] = vtx(0, H, z, c[3]);
    v[3] = vtx(W, 0, z, c[1]);
    v[4] = vtx(W, H, z, c[2]);
    v[5] = vtx(0, H, z, c[3]);
}

/* The lattice scene: 40 triangles with vertices on the 1/16-pixel lattice:
 * a full-screen background (2), a jittered 4 x 3 grid of quads whose
 * triangles share edges and vertices (24), and 14 random triangles, some
 * of them tiny and some past the framebuffer's edges; random colours and
 * depths.  Returns the vertex count (LAT_VERTS). */
enum { LAT_BG = 6, LAT_GRID = 72, LAT_RAND = 42, LAT_VERTS = LAT_BG + LAT_GRID + LAT_RAND };

static uint32_t lattice_scene(trt_vertex *v)
{
    trt_rng rng = {0xfd3a11ce};
    uint32_t n = 0;
    full_quad(v, 0.999f, &rng);
    n += LAT_BG;
    enum { GX = 4, GY = 3 };
    trt_vertex g[GY + 1][GX + 1];
    for (uint32_t j = 0; j <= GY; j++)
        for (uint32_t i = 0; i <= GX; i++) {
            float c[4];
            rand_color(&rng, c, 1, 1);
            g[j][i] = vtx(16.0f + 56.0f * (float)i + lat(&rng, -6, 6), 16.0f + 53.0f * (float)j + lat(&rng, -6, 6),
                          (float)trt_rand_range(&rng, 0.35, 0.65), c);
        }
    for (uint32_t j = 0; j < GY; j++)
        for (uint32_t i = 0; i < GX; i++) {
            const trt_vertex a = g[j][i], b = g[j][i + 1], c = g[j + 1][i + 1], d = g[j + 1][i];
            if ((i + j) & 1) {
                v[n++] = a, v[n++] = b, v[n++] = c;
                v[n++] = a, v[n++] = c, v[n++] = d;
            } else {
                v[n++] = a, v[n++] = b, v[n++] = d;
                v[n++] = b, v[n++] = c, v[n++] = d;
            }
        }
    for (uint32_t t = 0; t < LAT_RAND / 3; t++) {
        const float cx = lat(&rng, -8, W + 8), cy = lat(&rng, -8, H + 8);
        const float s = t % 4 == 3 ? (float)trt_rand_range(&rng, 0.5, 3) : (float)trt_rand_range(&rng, 4, 60);
        for (int k = 0; k < 3; k++) {
            float c[4];
            rand_color(&rng, c, 1, 1);
            v[n++] = vtx(lat(&rng, fmaxf(-8, cx - s), fminf(W + 8, cx + s)),
                         lat(&rng, fmaxf(-8, cy - s), fminf(H + 8, cy + s)),
                         (float)trt_rand_range(&rng, 0.05, 0.95), c);
        }
    }
    cr_assert_eq(n, (uint32_t)LAT_VERTS);
    return n;
}

static tr_pipeline *pipe_gouraud_depth(scene_env *e, tr_compare_op cmp, uint32_t fs_flags)
{
    tr_pipeline_desc pd = {0};
    pd.fragment_shader = trt_fs_varying;
    pd.fs_flags = fs_flags;
    pd.tie_rule = e->cfg->tie;
    pd.flags = e->cfg->pipeline_flags;
    pd.depth_test = 1;
    pd.depth_write = 1;
    pd.depth_compare = cmp;
    return trt_pipeline(e->ctx, &pd);
}

static void prep_lattice(scene_env *e)
{
    e->pl[0] = pipe_gouraud_depth(e, TR_COMPARE_LESS, 0);
}

static void rec_lattice(scene_env *e)
{
    trt_vertex v[LAT_VERTS];
    const uint32_t n = lattice_scene(v);
    TRT_OK(tr_cmd_bind_pipeline(e->ctx, e->pl[0]));
    scene_viewport(e);
    scene_draw(e, v, n, NULL);
}

static const scene SC_LATTICE = {prep_lattice, rec_lattice};

/* The lattice scene drawn in parts under scissors that cut coarse
 * fragments (x = 5, w = 37 with fx = 4 starts and ends inside one), some
 * crossing bin edges, some one pixel wide; then a full-screen quad in front
 * under four small scissors. */
static void prep_scissor(scene_env *e)
{
    e->pl[0] = pipe_gouraud_depth(e, TR_COMPARE_LESS, TR_FS_NO_FRAG_COORD);
}

static void rec_scissor(scene_env *e)
{
    trt_vertex v[LAT_VERTS];
    lattice_scene(v);
    TRT_OK(tr_cmd_bind_pipeline(e->ctx, e->pl[0]));
    scene_viewport(e);
    scene_scissor(e, 0, 0, W, H);
    scene_draw(e, v, LAT_BG, NULL);
    scene_scissor(e, 5, 3, 37, 129);
    scene_draw(e, v + LAT_BG, LAT_GRID / 2, NULL);
    scene_scissor(e, 101, 50, 70, 90);
    scene_draw(e, v + LAT_BG + LAT_GRID / 2, LAT_GRID / 2, NULL);
    scene_scissor(e, 63, 17, 190, 161);
    scene_draw(e, v + LAT_BG + LAT_GRID, LAT_RAND, NULL);
    trt_rng rng = {77};
    trt_vertex q[6];
    full_quad(q, 0.001f, &rng);
    static const uint32_t rects[4][4] = {{130, 71, 1, 1}, {250, 5, 6, 2}, {37, 150, 3, 41}, {61, 29, 7, 13}};
    for (int k = 0; k < 4; k++) {
        scene_scissor(e, rects[k][0], rects[k][1], rects[k][2], rects[k][3]);
        scene_draw(e, q, 6, NULL);
    }
}

static const scene SC_SCISSOR = {prep_scissor, rec_scissor};

/* Flat colours: eight triangles, each its own draw and uniform colour. */
static void prep_flat(scene_env *e)
{
    tr_pipeline_desc pd = {0};
    pd.fragment_shader = trt_fs_uniform;
    pd.tie_rule = e->cfg->tie;
    e->pl[0] = trt_pipeline(e->ctx, &pd);
}

static void rec_flat(scene_env *e)
{
    trt_rng rng = {11};
    TRT_OK(tr_cmd_bind_pipeline(e->ctx, e->pl[0]));
    for (int t = 0; t < 8; t++) {
        trt_vertex v[3];
        for (int k = 0; k < 3; k++)
            v[k] = vtx(lat(&rng, -8, W + 8), lat(&rng, -8, H + 8), 0.5f, NULL);
        float c[4];
        rand_color(&rng, c, 1, 1);
        scene_draw(e, v, 3, c);
    }
}

static const scene SC_FLAT = {prep_flat, rec_flat};

/* Gouraud colours: sixteen triangles in one draw, no depth. */
static void prep_gouraud(scene_env *e)
{
    tr_pipeline_desc pd = {0};
    pd.tie_rule = e->cfg->tie;
    e->pl[0] = trt_pipeline(e->ctx, &pd);
}

static void rec_gouraud(scene_env *e)
{
    trt_rng rng = {12};
    trt_vertex v[48];
    for (int k = 0; k < 48; k++) {
        float c[4];
        rand_color(&rng, c, 0, 1);
        v[k] = vtx(lat(&rng, -8, W + 8), lat(&rng, -8, H + 8), 0.5f, c);
    }
    TRT_OK(tr_cmd_bind_pipeline(e->ctx, e->pl[0]));
    scene_draw(e, v, 48, NULL);
}

static const scene SC_GOURAUD = {prep_gouraud, rec_gouraud};

/* Alpha blending: an opaque background, then twelve translucent triangles
 * (SRC_ALPHA, ONE_MINUS_SRC_ALPHA). */
static void prep_blend(scene_env *e)
{
    tr_pipeline_desc pd = {0};
    pd.tie_rule = e->cfg->tie;
    e->pl[0] = trt_pipeline(e->ctx, &pd);
    pd.blend[0].enable = 1;
    pd.blend[0].src_color = TR_BLEND_SRC_ALPHA;
    pd.blend[0].dst_color = TR_BLEND_ONE_MINUS_SRC_ALPHA;
    pd.blend[0].src_alpha = TR_BLEND_ONE;
    pd.blend[0].dst_alpha = TR_BLEND_ONE_MINUS_SRC_ALPHA;
    e->pl[1] = trt_pipeline(e->ctx, &pd);
}

static void rec_blend(scene_env *e)
{
    trt_rng rng = {13};
    trt_vertex bg[6], v[36];
    full_quad(bg, 0.5f, &rng);
    for (int k = 0; k < 36; k++) {
        float c[4];
        rand_color(&rng, c, 0.2f, 0.8f);
        v[k] = vtx(lat(&rng, -8, W + 8), lat(&rng, -8, H + 8), 0.5f, c);
    }
    TRT_OK(tr_cmd_bind_pipeline(e->ctx, e->pl[0]));
    scene_draw(e, bg, 6, NULL);
    TRT_OK(tr_cmd_bind_pipeline(e->ctx, e->pl[1]));
    scene_draw(e, v, 36, NULL);
}

static const scene SC_BLEND = {prep_blend, rec_blend};

/* A textured quad in perspective (w = 1, 2, 4, 1: the LOD changes across
 * it) and a small, strongly minified triangle, sampled trilinear and 4x
 * anisotropic with implicit LOD from varyings only (no FragCoord). */
static void fs_texture(tr_fs_block *b)
{
    tr_fs_texture(b, 0, b->varyings[0][0], b->varyings[0][1], b->color[0]);
}

static void prep_texture(scene_env *e)
{
    tr_image_desc d = {TR_FORMAT_R8G8B8A8_UNORM, 64, 64, 1, TR_LEVELS_ALL, 0, 0};
    TRT_OK(tr_image_create(e->ctx, &d, &e->tex));
    d = tr_image_get_desc(e->tex);
    trt_rng rng = {21};
    static uint8_t texels[64 * 64 * 4];
    for (uint32_t l = 0; l < d.levels; l++) {
        const size_t n = (size_t)tr_image_level_width(e->tex, l) * tr_image_level_height(e->tex, l) * 4;
        for (size_t i = 0; i < n; i++)
            texels[i] = (uint8_t)trt_rand_u32(&rng);
        tr_subresource sub = {l, 0, TR_ASPECT_COLOR, 0};
        TRT_OK(tr_image_upload(e->tex, &sub, texels, 0));
    }
    tr_sampler_desc sd = {.mag_filter = TR_FILTER_LINEAR, .min_filter = TR_FILTER_LINEAR,
                          .mipmap_mode = TR_MIPMAP_LINEAR, .max_anisotropy = 4};
    TRT_OK(tr_sampler_create(e->ctx, &sd, &e->smp));
    tr_pipeline_desc pd = {0};
    pd.fragment_shader = fs_texture;
    pd.fs_flags = TR_FS_NO_FRAG_COORD;
    pd.texture_mask = 1;
    pd.tie_rule = e->cfg->tie;
    e->pl[0] = trt_pipeline(e->ctx, &pd);
}

/* A vertex at framebuffer pixel (px, py) with clip w (a power of two, so
 * that x / w lands exactly back on the lattice) and varying (s, t). */
static trt_vertex vtx_w(float px, float py, float w, float s, float t)
{
    const float st[4] = {s, t, 0, 1};
    trt_vertex v = vtx(px, py, 0.5f, st);
    for (int k = 0; k < 4; k++)
        v.pos[k] *= w;
    return v;
}

static void rec_texture(scene_env *e)
{
    trt_vertex v[9] = {
        vtx_w(16, 16, 1, 0, 0),     vtx_w(240, 24, 2, 4, 0),     vtx_w(232, 176, 4, 4, 4),
        vtx_w(16, 16, 1, 0, 0),     vtx_w(232, 176, 4, 4, 4),    vtx_w(24, 168, 1, 0, 4),
        vtx_w(100, 100, 1, 0, 0),   vtx_w(116.5f, 100, 1, 9, 0), vtx_w(100, 108.25f, 1, 0, 9),
    };
    TRT_OK(tr_cmd_bind_pipeline(e->ctx, e->pl[0]));
    TRT_OK(tr_cmd_bind_texture(e->ctx, 0, e->tex, e->smp));
    scene_viewport(e);
    scene_draw(e, v, 9, NULL);
}

static const scene SC_TEXTURE = {prep_texture, rec_texture};

/* ---- running a pass ------------------------------------------------------------------------------ */

typedef struct run_out {
    uint32_t w, h, layers, texel;
    uint8_t *color, *color_init;   /* [layer][y][x] texels; _init: contents before the pass */
    float *depth, *depth_init;     /* NULL without a depth attachment */
    tr_pass_stats stats;
    tr_bin_layout layout;          /* tr_compute_bin_layout before the pass */
} run_out;

static void run(const run_cfg *c, run_out *o)
{
    memset(o, 0, sizeof *o);
    pass_objs p;
    objs_create(c, &p);
    o->w = c->fb_w;
    o->h = c->fb_h;
    o->layers = c->views;
    o->texel = tr_format_texel_size(c->color_format, TR_ASPECT_COLOR);
    const size_t px = (size_t)c->fb_w * c->fb_h;
    o->color = malloc(px * o->texel * c->views);
    o->color_init = calloc(px * o->texel * c->views, 1);
    cr_assert(o->color && o->color_init);
    if (c->depth) {
        o->depth = malloc(px * sizeof(float) * c->views);
        o->depth_init = calloc(px * c->views, sizeof(float));
        cr_assert(o->depth && o->depth_init);
    }
    if (c->init_seed) {
        trt_rng rng = {c->init_seed};
        for (uint32_t l = 0; l < c->views; l++) {
            uint8_t *col = o->color_init + l * px * o->texel;
            for (size_t i = 0; i < px * o->texel; i++)
                col[i] = (uint8_t)trt_rand_u32(&rng);
            tr_subresource sub = {0, l, TR_ASPECT_COLOR, 0};
            TRT_OK(tr_image_upload(p.color, &sub, col, 0));
            if (c->depth) {
                float *z = o->depth_init + l * px;
                for (size_t i = 0; i < px; i++)
                    z[i] = (float)trt_rand_range(&rng, 0, 1);
                tr_subresource zs = {0, l, TR_ASPECT_DEPTH, 0};
                TRT_OK(tr_image_upload(p.depth, &zs, z, 0));
            }
        }
    }
    scene_env e;
    memset(&e, 0, sizeof e);
    e.cfg = c;
    e.ctx = p.ctx;
    if (c->sc && c->sc->prepare)
        c->sc->prepare(&e);
    TRT_OK(tr_compute_bin_layout(p.ctx, &p.rp, &o->layout));
    TRT_OK(tr_cmd_begin_render_pass(p.ctx, &p.rp));
    if (c->sc)
        c->sc->record(&e);
    TRT_OK(tr_cmd_end_render_pass(p.ctx, &o->stats));
    for (uint32_t l = 0; l < c->views; l++) {
        trt_download(p.color, 0, l, TR_ASPECT_COLOR, o->color + l * px * o->texel);
        if (c->depth)
            trt_download(p.depth, 0, l, TR_ASPECT_DEPTH, o->depth + l * px);
    }
    tr_context_destroy(p.ctx);
}

static void run_free(run_out *o)
{
    free(o->color);
    free(o->color_init);
    free(o->depth);
    free(o->depth_init);
    memset(o, 0, sizeof *o);
}

/* References per area, rendered on first use. */
typedef struct ref_set {
    run_cfg base;
    run_out r[3][3];
    bool have[3][3];
} ref_set;

static const run_out *ref_get(ref_set *s, uint32_t fx, uint32_t fy)
{
    const uint32_t i = area_index(fx), j = area_index(fy);
    if (!s->have[j][i]) {
        run_cfg c = cfg_ref(&s->base, fx, fy);
        run(&c, &s->r[j][i]);
        s->have[j][i] = true;
    }
    return &s->r[j][i];
}

static void refs_free(ref_set *s)
{
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 3; i++)
            if (s->have[j][i])
                run_free(&s->r[j][i]);
}

/* ---- expected fragment areas --------------------------------------------------------------------- */

/* The areas of every bin and view, restated from fdm.h (tr_compute_fdm_
 * areas): one sample per bin at ((x1 + min(x2, fb_w)) / 2, likewise y);
 * texels of 2^ceil(log2(ceil(fb / map))) pixels, clamped to [32, 1024];
 * view i reads layer base_layer + i (base_layer for every view of a
 * one-layer map); raw area 1 / (byte / 255); tr_fdm_fragment_area with the
 * bin size; then the shared-viewport minimum over the visible views.
 * out[(by * bins_x + bx) * views + v]. */
static uint32_t texel_shift(uint32_t fb, uint32_t map)
{
    const uint32_t px = (fb + map - 1) / map;
    uint32_t s = 0;
    while ((1u << s) < px)
        s++;
    return s < 5 ? 5 : s > 10 ? 10 : s;
}

static float raw_area(uint8_t byte)
{
    return 1.0f / ((float)byte / 255.0f);
}

/* Does the pass of c honour its FDM offsets (offsets given, every image
 * flagged)? */
static bool model_offsets(const run_cfg *c)
{
    return c->map && c->offset_count && (c->image_flags & TR_IMAGE_FDM_OFFSET);
}

/* b_o along an axis: (-offset) mod bin, in [0, bin). */
static int32_t model_bo(int32_t offset, uint32_t bin)
{
    const int64_t r = -(int64_t)offset % (int64_t)bin;
    return (int32_t)(r < 0 ? r + bin : r);
}

static tr_extent2d *model_areas(const run_cfg *c, const tr_bin_layout *L)
{
    const uint32_t views = c->views;
    tr_extent2d *out = calloc((size_t)L->bins_x * L->bins_y * views, sizeof *out);
    cr_assert_not_null(out);
    const map_spec *m = c->map;
    const uint32_t sx = texel_shift(c->fb_w, m->w), sy = texel_shift(c->fb_h, m->h);
    const bool shared = (c->pass_flags & TR_PASS_FDM_SHARED_VIEWPORT) ||
                        (c->pipeline_flags & TR_PIPELINE_WRITES_VIEWPORT_INDEX);
    const tr_extent2d bin = {L->bin_w, L->bin_h};
    const bool offsets = model_offsets(c);
    for (uint32_t by = 0; by < L->bins_y; by++)
        for (uint32_t bx = 0; bx < L->bins_x; bx++) {
            const int64_t x1 = L->origin_x + (int64_t)bx * L->bin_w, y1 = L->origin_y + (int64_t)by * L->bin_h;
            const int64_t x2 = x1 + L->bin_w, y2 = y1 + L->bin_h;
            tr_extent2d *a = out + ((size_t)by * L->bins_x + bx) * views;
            for (uint32_t v = 0; v < views; v++) {
                /* the centre of bin and framebuffer; with offsets, of the
                 * unshifted bin moved back by offset + b_o */
                int64_t cx = (x1 + (x2 < c->fb_w ? x2 : c->fb_w)) / 2;
                int64_t cy = (y1 + (y2 < c->fb_h ? y2 : c->fb_h)) / 2;
                if (offsets) {
                    const int32_t bo[2] = {shared ? 0 : model_bo(c->offsets[v].x, L->bin_w),
                                           shared ? 0 : model_bo(c->offsets[v].y, L->bin_h)};
                    cx = (x1 + x2) / 2 - (c->offsets[v].x + bo[0]);
                    cy = (y1 + y2) / 2 - (c->offsets[v].y + bo[1]);
                }
                int64_t ti = cx < 0 ? 0 : cx >> sx, tj = cy < 0 ? 0 : cy >> sy;
                ti = ti >= m->w ? m->w - 1 : ti;
                tj = tj >= m->h ? m->h - 1 : tj;
                const uint32_t layer = m->layers == 1 ? c->map_base_layer : c->map_base_layer + v;
                const uint8_t *t = m->bytes[layer][tj][ti];
                a[v] = tr_fdm_fragment_area(raw_area(t[0]), raw_area(t[1]), bin, offsets);
            }
            if (shared && views > 1) {
                uint32_t mw = 0, mh = 0;
                for (uint32_t v = 0; v < views; v++)
                    if (a[v].width) {
                        mw = mw == 0 || a[v].width < mw ? a[v].width : mw;
                        mh = mh == 0 || a[v].height < mh ? a[v].height : mh;
                    }
                for (uint32_t v = 0; v < views; v++)
                    if (a[v].width)
                        a[v] = (tr_extent2d){mw, mh};
            }
        }
    return out;
}

typedef struct bin_rect {
    uint32_t x0, y0, x1, y1;
} bin_rect;

static bin_rect bin_of(const run_out *o, uint32_t bx, uint32_t by)
{
    const tr_bin_layout *L = &o->layout;
    int64_t x0 = L->origin_x + (int64_t)bx * L->bin_w, y0 = L->origin_y + (int64_t)by * L->bin_h;
    int64_t x1 = x0 + L->bin_w, y1 = y0 + L->bin_h;
    bin_rect r = {(uint32_t)(x0 < 0 ? 0 : x0), (uint32_t)(y0 < 0 ? 0 : y0), (uint32_t)(x1 > o->w ? o->w : x1),
                  (uint32_t)(y1 > o->h ? o->h : y1)};
    return r;
}

/* The layout is sane for FDM: one bin origin at (0, 0), bins whose size 4
 * divides (so a uniform map gives every bin the same area), several bins. */
static void expect_fdm_layout(const run_out *o)
{
    const tr_bin_layout *L = &o->layout;
    cr_assert_eq(L->origin_x, 0);
    cr_assert_eq(L->origin_y, 0);
    cr_assert_eq(L->bin_w % 4, 0u, "bin width %u", L->bin_w);
    cr_assert_eq(L->bin_h % 4, 0u, "bin height %u", L->bin_h);
    cr_assert_gt(L->bins_x * L->bins_y, 1u, "only one bin: the test would not cross bin edges");
    cr_expect_eq(o->stats.layout.bin_w, L->bin_w);
    cr_expect_eq(o->stats.layout.bin_h, L->bin_h);
    cr_expect_eq(o->stats.bins, L->bins_x * L->bins_y);
}

/* ---- comparisons ---------------------------------------------------------------------------------- */

static const uint8_t *texel_at(const run_out *o, const uint8_t *base, uint32_t layer, uint32_t x, uint32_t y)
{
    return base + (((size_t)layer * o->h + y) * o->w + x) * o->texel;
}

static const float *depth_at(const run_out *o, const float *base, uint32_t layer, uint32_t x, uint32_t y)
{
    return base + ((size_t)layer * o->h + y) * o->w + x;
}

/* got(x, y) == ref(x / fx, y / fy) over rect, colour and depth bytes. */
static void expect_scaled(const run_out *got, uint32_t layer, const run_out *ref, uint32_t ref_layer, uint32_t fx,
                          uint32_t fy, bin_rect r, const char *what)
{
    size_t bad = 0;
    uint32_t bx = 0, by = 0;
    for (uint32_t y = r.y0; y < r.y1; y++)
        for (uint32_t x = r.x0; x < r.x1; x++) {
            bool ok = memcmp(texel_at(got, got->color, layer, x, y), texel_at(ref, ref->color, ref_layer, x / fx, y / fy),
                             got->texel) == 0;
            if (got->depth && ref->depth)
                ok = ok && memcmp(depth_at(got, got->depth, layer, x, y),
                                  depth_at(ref, ref->depth, ref_layer, x / fx, y / fy), sizeof(float)) == 0;
            if (!ok && bad++ == 0)
                bx = x, by = y;
        }
    if (bad) {
        const uint8_t *g = texel_at(got, got->color, layer, bx, by);
        const uint8_t *w = texel_at(ref, ref->color, ref_layer, bx / fx, by / fy);
        cr_expect_fail("%s: area %ux%u, layer %u, pixels [%u,%u)x[%u,%u): %zu differ from the reference; first "
                       "(%u,%u): %02x%02x%02x%02x vs reference (%u,%u) %02x%02x%02x%02x%s%a vs %a",
                       what, fx, fy, layer, r.x0, r.x1, r.y0, r.y1, bad, bx, by, g[0], g[1], g[2], g[3], bx / fx,
                       by / fy, w[0], w[1], w[2], w[3], got->depth && ref->depth ? ", depth " : ", ",
                       got->depth && ref->depth ? (double)*depth_at(got, got->depth, layer, bx, by) : 0.0,
                       got->depth && ref->depth ? (double)*depth_at(ref, ref->depth, ref_layer, bx / fx, by / fy)
                                                : 0.0);
    }
}

/* got == what the image held before the pass, over rect. */
static void expect_unchanged(const run_out *got, uint32_t layer, bin_rect r, const char *what)
{
    size_t bad = 0;
    for (uint32_t y = r.y0; y < r.y1; y++)
        for (uint32_t x = r.x0; x < r.x1; x++) {
            bool ok = memcmp(texel_at(got, got->color, layer, x, y), texel_at(got, got->color_init, layer, x, y),
                             got->texel) == 0;
            if (got->depth)
                ok = ok && memcmp(depth_at(got, got->depth, layer, x, y),
                                  depth_at(got, got->depth_init, layer, x, y), sizeof(float)) == 0;
            bad += !ok;
        }
    cr_expect_eq(bad, 0u, "%s: layer %u, pixels [%u,%u)x[%u,%u): %zu changed but should hold the old contents",
                 what, layer, r.x0, r.x1, r.y0, r.y1, bad);
}

/* Every bin and view of got equals the reference of its area (expected
 * areas: `areas`, model_areas' order); an invisible view keeps the old
 * contents.  Returns nothing; fails per bin. */
static void expect_bins(const run_out *got, const tr_extent2d *areas, ref_set *refs, const char *what)
{
    const tr_bin_layout *L = &got->layout;
    for (uint32_t by = 0; by < L->bins_y; by++)
        for (uint32_t bx = 0; bx < L->bins_x; bx++)
            for (uint32_t v = 0; v < got->layers; v++) {
                const tr_extent2d a = areas[((size_t)by * L->bins_x + bx) * got->layers + v];
                const bin_rect r = bin_of(got, bx, by);
                if (a.width == 0)
                    expect_unchanged(got, v, r, what);
                else
                    expect_scaled(got, v, ref_get(refs, a.width, a.height), v, a.width, a.height, r, what);
            }
}

/* The statistics of bin views agree with the areas. */
static void expect_bin_view_stats(const tr_pass_stats *st, const tr_extent2d *areas, size_t n, const char *what)
{
    uint32_t hist[3][3] = {{0}}, invisible = 0;
    for (size_t k = 0; k < n; k++) {
        if (areas[k].width == 0)
            invisible++;
        else
            hist[area_index(areas[k].height)][area_index(areas[k].width)]++;
    }
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 3; i++)
            cr_expect_eq(st->fdm_bin_views[j][i], hist[j][i], "%s: fdm_bin_views[%d][%d] (area %ux%u) = %u, expected %u",
                         what, j, i, 1u << i, 1u << j, st->fdm_bin_views[j][i], hist[j][i]);
    cr_expect_eq(st->fdm_bin_views_invisible, invisible, "%s: fdm_bin_views_invisible = %u, expected %u", what,
                 st->fdm_bin_views_invisible, invisible);
}

/* Every byte of colour (and depth) the same. */
static void expect_same_bytes(const run_out *a, const run_out *b, const char *what)
{
    cr_assert_eq(a->w, b->w);
    cr_assert_eq(a->h, b->h);
    cr_assert_eq(a->layers, b->layers);
    const size_t n = (size_t)a->w * a->h * a->layers * a->texel;
    size_t diffs = 0, first = 0;
    for (size_t i = 0; i < n; i++)
        if (a->color[i] != b->color[i] && diffs++ == 0)
            first = i;
    cr_expect_eq(diffs, 0u, "%s: %zu colour bytes differ, first at byte %zu (pixel %zu of layer %zu): %u vs %u",
                 what, diffs, first, (first / a->texel) % ((size_t)a->w * a->h), first / a->texel / ((size_t)a->w * a->h),
                 diffs ? a->color[first] : 0, diffs ? b->color[first] : 0);
    cr_assert_eq(a->depth != NULL, b->depth != NULL);
    if (a->depth) {
        const size_t nz = (size_t)a->w * a->h * a->layers;
        size_t zd = 0, zf = 0;
        for (size_t i = 0; i < nz; i++)
            if (memcmp(&a->depth[i], &b->depth[i], sizeof(float)) != 0 && zd++ == 0)
                zf = i;
        cr_expect_eq(zd, 0u, "%s: %zu depth values differ, first at pixel %zu: %a vs %a", what, zd, zf,
                     zd ? (double)a->depth[zf] : 0.0, zd ? (double)b->depth[zf] : 0.0);
    }
}

/* ---- the density bytes the tests use ------------------------------------------------------------- */

Test(fdm, area_of_test_bytes)
{
    /* Bins of the sizes the tests get (multiples of 16 and 32). */
    const tr_extent2d bins[] = {{128, 64}, {64, 32}, {32, 16}, {96, 48}};
    static const struct {
        uint8_t bx, by;
        uint32_t w, h;
    } cases[] = {
        {255, 255, 1, 1}, {127, 127, 2, 2}, {63, 63, 4, 4}, {127, 255, 2, 1}, {255, 127, 1, 2},
        {63, 255, 4, 1},  {255, 63, 1, 4},  {127, 63, 2, 4}, {63, 127, 4, 2}, {0, 255, 0, 0},
        {255, 0, 0, 0},   {0, 0, 0, 0},
    };
    for (size_t b = 0; b < sizeof bins / sizeof bins[0]; b++)
        for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
            const tr_extent2d a = tr_fdm_fragment_area(raw_area(cases[k].bx), raw_area(cases[k].by), bins[b], false);
            cr_expect(a.width == cases[k].w && a.height == cases[k].h,
                      "bytes (%u, %u), bin %ux%u: area %ux%u, expected %ux%u", cases[k].bx, cases[k].by,
                      bins[b].width, bins[b].height, a.width, a.height, cases[k].w, cases[k].h);
        }
    for (uint32_t fy = 1; fy <= 4; fy *= 2)
        for (uint32_t fx = 1; fx <= 4; fx *= 2) {
            const tr_extent2d a =
                tr_fdm_fragment_area(raw_area(density_byte(fx)), raw_area(density_byte(fy)), bins[0], false);
            cr_expect(a.width == fx && a.height == fy, "density_byte(%u), density_byte(%u): %ux%u", fx, fy, a.width,
                      a.height);
        }
}

/* tr_compute_fdm_areas gives the areas restated by model_areas, for
 * uniform maps (every bin the same), the radial map at three budgets,
 * multiview with a layer per view, a one-layer map for two views and the
 * shared viewport. */
static void expect_compute_areas(const run_cfg *c, const char *what)
{
    pass_objs p;
    objs_create(c, &p);
    tr_bin_layout L;
    TRT_OK(tr_compute_bin_layout(p.ctx, &p.rp, &L));
    const size_t n = (size_t)L.bins_x * L.bins_y * c->views;
    tr_extent2d *got = calloc(n, sizeof *got);
    cr_assert_not_null(got);
    TRT_OK(tr_compute_fdm_areas(p.ctx, &p.rp, got, n));
    tr_extent2d *want = model_areas(c, &L);
    size_t bad = 0, first = 0;
    for (size_t k = 0; k < n; k++)
        if ((got[k].width != want[k].width || got[k].height != want[k].height) && bad++ == 0)
            first = k;
    cr_expect_eq(bad, 0u, "%s: %zu of %zu areas differ; first [%zu]: %ux%u, expected %ux%u", what, bad, n, first,
                 got[first].width, got[first].height, want[first].width, want[first].height);
    free(got);
    free(want);
    tr_context_destroy(p.ctx);
}

Test(fdm, compute_areas_match_rule)
{
    run_cfg c = cfg_default();
    c.depth = 1;
    for (uint32_t fy = 1; fy <= 4; fy *= 2)
        for (uint32_t fx = 1; fx <= 4; fx *= 2) {
            map_spec m = map_area(fx, fy);
            c.map = &m;
            /* every bin gets (fx, fy) */
            pass_objs p;
            objs_create(&c, &p);
            tr_bin_layout L;
            TRT_OK(tr_compute_bin_layout(p.ctx, &p.rp, &L));
            const size_t n = (size_t)L.bins_x * L.bins_y;
            cr_assert_gt(n, 1u);
            tr_extent2d *a = calloc(n, sizeof *a);
            TRT_OK(tr_compute_fdm_areas(p.ctx, &p.rp, a, n));
            for (size_t k = 0; k < n; k++)
                cr_expect(a[k].width == fx && a[k].height == fy, "uniform %ux%u: bin %zu got %ux%u", fx, fy, k,
                          a[k].width, a[k].height);
            free(a);
            tr_context_destroy(p.ctx);
            expect_compute_areas(&c, "uniform");
        }
    map_spec radial = map_radial();
    c.map = &radial;
    const uint32_t budgets[] = {16 * 1024, 32 * 1024, 64 * 1024};
    for (int k = 0; k < 3; k++) {
        c.gmem = budgets[k];
        expect_compute_areas(&c, "radial");
    }
    /* two views: layers base_layer + i, a one-layer map, the shared viewport */
    map_spec two = map_radial();
    two.layers = 3;
    map_uniform_layer(&two, 1, 63, 127);
    map_uniform_layer(&two, 2, 127, 63);
    c.views = 2;
    c.map = &two;
    c.gmem = 32 * 1024;
    expect_compute_areas(&c, "two views, base layer 0");
    c.map_base_layer = 1;
    expect_compute_areas(&c, "two views, base layer 1");
    c.pass_flags = TR_PASS_FDM_SHARED_VIEWPORT;
    expect_compute_areas(&c, "two views, shared viewport");
    c.pass_flags = 0;
    c.map_base_layer = 0;
    c.map = &radial;
    expect_compute_areas(&c, "two views, one-layer map");
}

/* ---- 1. density 1 everywhere is no density map ---------------------------------------------------- */

static void expect_density_one_identical(run_cfg c, const char *what)
{
    map_spec one = map_uniform(255, 255);
    run_out plain, fdm;
    run(&c, &plain);
    c.map = &one;
    run(&c, &fdm);
    expect_same_bytes(&fdm, &plain, what);
    const uint32_t bins = fdm.layout.bins_x * fdm.layout.bins_y;
    cr_expect_eq(fdm.stats.fdm_bin_views[0][0], bins * c.views, "%s: fdm_bin_views[0][0] = %u, expected %u", what,
                 fdm.stats.fdm_bin_views[0][0], bins * c.views);
    cr_expect_eq(fdm.stats.fdm_fragments_shaded_scaled, 0u, "%s", what);
    cr_expect_eq(fdm.stats.fragments_shaded, plain.stats.fragments_shaded, "%s", what);
    cr_expect_gt(plain.stats.fragments_shaded, 1000u, "%s: the scene draws little", what);
    run_free(&plain);
    run_free(&fdm);
}

Test(fdm, density_one_flat_colors)
{
    run_cfg c = cfg_default();
    c.sc = &SC_FLAT;
    expect_density_one_identical(c, "flat colours");
}

Test(fdm, density_one_gouraud)
{
    run_cfg c = cfg_default();
    c.sc = &SC_GOURAUD;
    expect_density_one_identical(c, "Gouraud");
}

Test(fdm, density_one_textured)
{
    run_cfg c = cfg_default();
    c.sc = &SC_TEXTURE;
    expect_density_one_identical(c, "textured");
}

Test(fdm, density_one_blending)
{
    run_cfg c = cfg_default();
    c.sc = &SC_BLEND;
    expect_density_one_identical(c, "blending");
}

Test(fdm, density_one_depth)
{
    run_cfg c = cfg_default();
    c.sc = &SC_LATTICE;
    c.depth = 1;
    c.threads = 2;
    expect_density_one_identical(c, "depth-tested");
}

Test(fdm, density_one_multiview)
{
    run_cfg c = cfg_default();
    c.sc = &SC_LATTICE;
    c.depth = 1;
    c.views = 2;
    expect_density_one_identical(c, "multiview");
}

/* ---- 2. a uniform area renders the downscaled reference ------------------------------------------ */

static void expect_uniform_areas(tr_tie_rule tie)
{
    for (uint32_t fy = 1; fy <= 4; fy *= 2)
        for (uint32_t fx = 1; fx <= 4; fx *= 2)
            for (int no_lrz = 0; no_lrz < 2; no_lrz++) {
                run_cfg c = cfg_default();
                c.sc = &SC_LATTICE;
                c.depth = 1;
                c.tie = tie;
                c.pass_flags = no_lrz ? TR_PASS_NO_LRZ : 0;
                map_spec m = map_area(fx, fy);
                c.map = &m;
                run_out got, ref;
                run(&c, &got);
                run_cfg rc = cfg_ref(&c, fx, fy);
                run(&rc, &ref);
                expect_fdm_layout(&got);
                char what[80];
                snprintf(what, sizeof what, "uniform %ux%u, %s%s", fx, fy,
                         tie == TR_TIE_TOP_LEFT ? "top-left" : "bottom-left", no_lrz ? ", no LRZ" : "");
                expect_scaled(&got, 0, &ref, 0, fx, fy, (bin_rect){0, 0, W, H}, what);
                /* statistics: every bin at (fx, fy) */
                const uint32_t bins = got.layout.bins_x * got.layout.bins_y;
                for (int j = 0; j < 3; j++)
                    for (int i = 0; i < 3; i++)
                        cr_expect_eq(got.stats.fdm_bin_views[j][i],
                                     (1u << i) == fx && (1u << j) == fy ? bins : 0u,
                                     "%s: fdm_bin_views[%d][%d] = %u", what, j, i, got.stats.fdm_bin_views[j][i]);
                /* coarse fragments rasterized = the reference's pixels; without LRZ (which
                 * rejects by the depth the whole pass reaches, so it saves a different
                 * amount when bins are scaled) the same are shaded */
                cr_expect_eq(got.stats.fragments_rasterized, ref.stats.fragments_rasterized,
                             "%s: fragments_rasterized %llu, the reference %llu", what,
                             (unsigned long long)got.stats.fragments_rasterized,
                             (unsigned long long)ref.stats.fragments_rasterized);
                if (no_lrz)
                    cr_expect_eq(got.stats.fragments_shaded, ref.stats.fragments_shaded,
                                 "%s: fragments_shaded %llu, the reference %llu", what,
                                 (unsigned long long)got.stats.fragments_shaded,
                                 (unsigned long long)ref.stats.fragments_shaded);
                const uint64_t scaled = fx * fy > 1 ? got.stats.fragments_shaded : 0;
                cr_expect_eq(got.stats.fdm_fragments_shaded_scaled, scaled, "%s", what);
                cr_expect_eq(got.stats.fdm_pixels_shaded_scaled, scaled * fx * fy, "%s", what);
                run_free(&got);
                run_free(&ref);
            }
}

Test(fdm, uniform_area_equals_downscaled_reference_top_left)
{
    expect_uniform_areas(TR_TIE_TOP_LEFT);
}

Test(fdm, uniform_area_equals_downscaled_reference_bottom_left)
{
    expect_uniform_areas(TR_TIE_BOTTOM_LEFT);
}

/* ---- 3. scissors keep every coarse fragment they touch --------------------------------------------- */

Test(fdm, scissor_keeps_touched_coarse_fragments)
{
    for (uint32_t fy = 1; fy <= 4; fy *= 2)
        for (uint32_t fx = 1; fx <= 4; fx *= 2) {
            run_cfg c = cfg_default();
            c.sc = &SC_SCISSOR;
            c.depth = 1;
            map_spec m = map_area(fx, fy);
            c.map = &m;
            run_out got, ref;
            run(&c, &got);
            run_cfg rc = cfg_ref(&c, fx, fy);
            run(&rc, &ref);
            expect_fdm_layout(&got);
            char what[64];
            snprintf(what, sizeof what, "scissors, uniform %ux%u", fx, fy);
            expect_scaled(&got, 0, &ref, 0, fx, fy, (bin_rect){0, 0, W, H}, what);
            run_free(&got);
            run_free(&ref);
        }
}

/* ---- textures: derivatives from neighbouring coarse fragments -------------------------------------- */

Test(fdm, textured_uniform_area_equals_downscaled_reference)
{
    static const uint32_t areas[][2] = {{2, 2}, {4, 1}, {1, 4}, {4, 4}, {2, 4}};
    for (size_t k = 0; k < sizeof areas / sizeof areas[0]; k++) {
        const uint32_t fx = areas[k][0], fy = areas[k][1];
        run_cfg c = cfg_default();
        c.sc = &SC_TEXTURE;
        c.threads = 2;
        map_spec m = map_area(fx, fy);
        c.map = &m;
        run_out got, ref;
        run(&c, &got);
        run_cfg rc = cfg_ref(&c, fx, fy);
        run(&rc, &ref);
        expect_fdm_layout(&got);
        char what[64];
        snprintf(what, sizeof what, "textured, uniform %ux%u", fx, fy);
        expect_scaled(&got, 0, &ref, 0, fx, fy, (bin_rect){0, 0, W, H}, what);
        run_free(&got);
        run_free(&ref);
    }
}

/* ---- 4. multiview: an area per view, and the shared viewport --------------------------------------- */

/* A three-layer map read from base layer 1: view 0 at 2x2, view 1 at 4x1
 * (layer 0, 1x1, must not be read). */
static map_spec map_two_views(void)
{
    map_spec m = map_uniform(255, 255);
    m.layers = 3;
    map_uniform_layer(&m, 1, 127, 127);
    map_uniform_layer(&m, 2, 63, 255);
    return m;
}

static void expect_views(const run_cfg *c, const uint32_t area[2][2], const char *what)
{
    run_out got;
    run(c, &got);
    expect_fdm_layout(&got);
    const uint32_t bins = got.layout.bins_x * got.layout.bins_y;
    uint32_t hist[3][3] = {{0}};
    for (uint32_t v = 0; v < 2; v++) {
        run_cfg rc = cfg_ref(c, area[v][0], area[v][1]);
        run_out ref;
        run(&rc, &ref);
        char w2[96];
        snprintf(w2, sizeof w2, "%s, view %u", what, v);
        expect_scaled(&got, v, &ref, v, area[v][0], area[v][1], (bin_rect){0, 0, W, H}, w2);
        run_free(&ref);
        hist[area_index(area[v][1])][area_index(area[v][0])] += bins;
    }
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 3; i++)
            cr_expect_eq(got.stats.fdm_bin_views[j][i], hist[j][i], "%s: fdm_bin_views[%d][%d] = %u, expected %u",
                         what, j, i, got.stats.fdm_bin_views[j][i], hist[j][i]);
    run_free(&got);
}

Test(fdm, multiview_area_per_view)
{
    map_spec m = map_two_views();
    run_cfg c = cfg_default();
    c.sc = &SC_LATTICE;
    c.depth = 1;
    c.views = 2;
    c.map = &m;
    c.map_base_layer = 1;
    static const uint32_t area[2][2] = {{2, 2}, {4, 1}};
    expect_views(&c, area, "area per view");
}

Test(fdm, multiview_shared_viewport_takes_minimum)
{
    map_spec m = map_two_views();
    run_cfg c = cfg_default();
    c.sc = &SC_LATTICE;
    c.depth = 1;
    c.views = 2;
    c.map = &m;
    c.map_base_layer = 1;
    c.pass_flags = TR_PASS_FDM_SHARED_VIEWPORT;
    static const uint32_t area[2][2] = {{2, 1}, {2, 1}};
    expect_views(&c, area, "TR_PASS_FDM_SHARED_VIEWPORT");
}

Test(fdm, multiview_viewport_index_pipeline_shares_area)
{
    map_spec m = map_two_views();
    run_cfg c = cfg_default();
    c.sc = &SC_LATTICE;
    c.depth = 1;
    c.views = 2;
    c.map = &m;
    c.map_base_layer = 1;
    c.pipeline_flags = TR_PIPELINE_WRITES_VIEWPORT_INDEX;
    static const uint32_t area[2][2] = {{2, 1}, {2, 1}};
    expect_views(&c, area, "TR_PIPELINE_WRITES_VIEWPORT_INDEX");
}

Test(fdm, multiview_one_layer_map_serves_both_views)
{
    map_spec m = map_uniform(63, 127); /* 4x2 */
    run_cfg c = cfg_default();
    c.sc = &SC_LATTICE;
    c.depth = 1;
    c.views = 2;
    c.map = &m;
    static const uint32_t area[2][2] = {{4, 2}, {4, 2}};
    expect_views(&c, area, "one-layer map");
}

/* ---- 5. a radial map: the same bytes for every configuration -------------------------------------- */

static bool same_bins(const tr_bin_layout *a, const tr_bin_layout *b)
{
    return a->bin_w == b->bin_w && a->bin_h == b->bin_h && a->bins_x == b->bins_x && a->bins_y == b->bins_y &&
           a->origin_x == b->origin_x && a->origin_y == b->origin_y;
}

Test(fdm, radial_identical_for_threads_simd_and_budgets, .timeout = 300)
{
    map_spec m = map_radial();
    run_cfg base = cfg_default();
    base.sc = &SC_LATTICE;
    base.depth = 1;
    base.map = &m;
    base.gmem = 32 * 1024;
    const tr_bin_layout L0 = layout_of(&base);

    /* another budget with the same bins, and one with other bins */
    static const uint32_t candidates[] = {28 * 1024, 30 * 1024, 34 * 1024, 36 * 1024, 40 * 1024,
                                          44 * 1024, 24 * 1024, 48 * 1024, 20 * 1024, 56 * 1024};
    uint32_t same_gmem = 0;
    for (size_t k = 0; k < sizeof candidates / sizeof candidates[0] && !same_gmem; k++) {
        run_cfg c = base;
        c.gmem = candidates[k];
        const tr_bin_layout L = layout_of(&c);
        if (same_bins(&L, &L0))
            same_gmem = candidates[k];
    }
    cr_assert_neq(same_gmem, 0u, "no other budget gives the %ux%u bins of 32 KiB", L0.bin_w, L0.bin_h);
    uint32_t other_gmem = 0;
    static const uint32_t others[] = {16 * 1024, 64 * 1024, 12 * 1024, 96 * 1024};
    for (size_t k = 0; k < sizeof others / sizeof others[0] && !other_gmem; k++) {
        run_cfg c = base;
        c.gmem = others[k];
        const tr_bin_layout L = layout_of(&c);
        if (!same_bins(&L, &L0) && L.bin_w % 4 == 0 && L.bin_h % 4 == 0)
            other_gmem = others[k];
    }
    cr_assert_neq(other_gmem, 0u);

    ref_set refs;
    memset(&refs, 0, sizeof refs);
    refs.base = base;

    run_out want;
    run(&base, &want);
    expect_fdm_layout(&want);
    tr_extent2d *areas = model_areas(&base, &want.layout);
    const size_t nb = (size_t)want.layout.bins_x * want.layout.bins_y;
    /* the map gives this grid at least three different areas */
    uint32_t kinds = 0, seen[3][3] = {{0}};
    for (size_t k = 0; k < nb; k++)
        if (!seen[area_index(areas[k].height)][area_index(areas[k].width)]++)
            kinds++;
    cr_assert_geq(kinds, 3u, "the radial map gives only %u different areas over %zu bins", kinds, nb);
    expect_bins(&want, areas, &refs, "radial, threads 1");
    expect_bin_view_stats(&want.stats, areas, nb, "radial, threads 1");

    struct {
        uint32_t threads, gmem;
        tr_simd_level simd;
        const char *name;
    } cfgs[] = {
        {2, base.gmem, TR_SIMD_DEFAULT, "threads 2"},
        {3, base.gmem, TR_SIMD_DEFAULT, "threads 3"},
        {2, base.gmem, TR_SIMD_SCALAR, "scalar, threads 2"},
        {1, base.gmem, TR_SIMD_SCALAR, "scalar, threads 1"},
        {2, same_gmem, TR_SIMD_DEFAULT, "another budget, the same bins"},
    };
    for (size_t k = 0; k < sizeof cfgs / sizeof cfgs[0]; k++) {
        run_cfg c = base;
        c.threads = cfgs[k].threads;
        c.gmem = cfgs[k].gmem;
        c.simd = cfgs[k].simd;
        run_out got;
        run(&c, &got);
        cr_assert(same_bins(&got.layout, &want.layout), "%s: other bins", cfgs[k].name);
        expect_same_bytes(&got, &want, cfgs[k].name);
        for (int j = 0; j < 3; j++)
            for (int i = 0; i < 3; i++)
                cr_expect_eq(got.stats.fdm_bin_views[j][i], want.stats.fdm_bin_views[j][i], "%s", cfgs[k].name);
        cr_expect_eq(got.stats.fragments_shaded, want.stats.fragments_shaded, "%s", cfgs[k].name);
        cr_expect_eq(got.stats.fdm_fragments_shaded_scaled, want.stats.fdm_fragments_shaded_scaled, "%s",
                     cfgs[k].name);
        cr_expect_eq(got.stats.fdm_pixels_shaded_scaled, want.stats.fdm_pixels_shaded_scaled, "%s", cfgs[k].name);
        run_free(&got);
    }

    /* other bins: other areas, but each bin is still its area's reference */
    run_cfg c = base;
    c.gmem = other_gmem;
    c.threads = 2;
    run_out got;
    run(&c, &got);
    expect_fdm_layout(&got);
    tr_extent2d *areas2 = model_areas(&c, &got.layout);
    expect_bins(&got, areas2, &refs, "radial, other bins");
    expect_bin_view_stats(&got.stats, areas2, (size_t)got.layout.bins_x * got.layout.bins_y, "radial, other bins");
    free(areas2);
    run_free(&got);

    free(areas);
    run_free(&want);
    refs_free(&refs);
}

/* ---- 6. FragCoord and FragSize ------------------------------------------------------------------- */

static void fs_fragcoord(tr_fs_block *b)
{
    for (uint32_t l = 0; l < b->count; l++) {
        b->color[0][0][l] = b->frag_x[l];
        b->color[0][1][l] = b->frag_y[l];
        b->color[0][2][l] = (float)b->frag_size_x;
        b->color[0][3][l] = (float)b->frag_size_y;
    }
}

static void prep_fragcoord(scene_env *e)
{
    tr_pipeline_desc pd = {0};
    pd.fragment_shader = fs_fragcoord;
    e->pl[0] = trt_pipeline(e->ctx, &pd);
}

/* A full-screen quad under the default viewport. */
static void rec_fullscreen(scene_env *e)
{
    trt_rng rng = {5};
    trt_vertex q[6];
    full_quad(q, 0.5f, &rng);
    TRT_OK(tr_cmd_bind_pipeline(e->ctx, e->pl[0]));
    const float red[4] = {1, 0, 0, 1};
    scene_draw(e, q, 6, red);
}

static const scene SC_FRAGCOORD = {prep_fragcoord, rec_fullscreen};

/* Every pixel holds (centre of its coarse fragment's area, fx, fy): x
 * centre floor((x - b) / fx) * fx + b + fx / 2 for a bin starting at b. */
static void expect_fragcoord(const run_out *got, const tr_extent2d *areas, const char *what)
{
    const tr_bin_layout *L = &got->layout;
    size_t bad = 0;
    uint32_t fxb = 0, fyb = 0;
    float g[4] = {0}, w[4] = {0};
    for (uint32_t by = 0; by < L->bins_y; by++)
        for (uint32_t bx = 0; bx < L->bins_x; bx++) {
            const tr_extent2d a = areas ? areas[(size_t)by * L->bins_x + bx] : (tr_extent2d){1, 1};
            const bin_rect r = bin_of(got, bx, by);
            const uint32_t b0 = L->origin_x + bx * L->bin_w, b1 = L->origin_y + by * L->bin_h;
            for (uint32_t y = r.y0; y < r.y1; y++)
                for (uint32_t x = r.x0; x < r.x1; x++) {
                    const float want[4] = {(float)((x - b0) / a.width * a.width + b0) + (float)a.width / 2.0f,
                                           (float)((y - b1) / a.height * a.height + b1) + (float)a.height / 2.0f,
                                           (float)a.width, (float)a.height};
                    float px[4];
                    memcpy(px, texel_at(got, got->color, 0, x, y), sizeof px);
                    if (memcmp(px, want, sizeof px) != 0 && bad++ == 0) {
                        fxb = x, fyb = y;
                        memcpy(g, px, sizeof g);
                        memcpy(w, want, sizeof w);
                    }
                }
        }
    cr_expect_eq(bad, 0u, "%s: %zu pixels wrong; first (%u,%u): (%g, %g, %g, %g), expected (%g, %g, %g, %g)", what,
                 bad, fxb, fyb, (double)g[0], (double)g[1], (double)g[2], (double)g[3], (double)w[0], (double)w[1],
                 (double)w[2], (double)w[3]);
}

Test(fdm, fragcoord_without_fdm_is_pixel_centre)
{
    run_cfg c = cfg_default();
    c.sc = &SC_FRAGCOORD;
    c.color_format = TR_FORMAT_R32G32B32A32_SFLOAT;
    run_out got;
    run(&c, &got);
    expect_fragcoord(&got, NULL, "no FDM");
    run_free(&got);
}

Test(fdm, fragcoord_uniform_areas_is_coarse_centre)
{
    for (uint32_t fy = 1; fy <= 4; fy *= 2)
        for (uint32_t fx = 1; fx <= 4; fx *= 2) {
            run_cfg c = cfg_default();
            c.sc = &SC_FRAGCOORD;
            c.color_format = TR_FORMAT_R32G32B32A32_SFLOAT;
            map_spec m = map_area(fx, fy);
            c.map = &m;
            run_out got;
            run(&c, &got);
            expect_fdm_layout(&got);
            tr_extent2d *areas = model_areas(&c, &got.layout);
            for (size_t k = 0; k < (size_t)got.layout.bins_x * got.layout.bins_y; k++)
                cr_assert(areas[k].width == fx && areas[k].height == fy);
            char what[48];
            snprintf(what, sizeof what, "uniform %ux%u", fx, fy);
            expect_fragcoord(&got, areas, what);
            /* one shader invocation per coarse fragment */
            cr_expect_eq(got.stats.fragments_shaded, (uint64_t)(W / fx) * (H / fy), "%s: fragments_shaded %llu",
                         what, (unsigned long long)got.stats.fragments_shaded);
            free(areas);
            run_free(&got);
        }
}

Test(fdm, fragcoord_radial_map_per_bin)
{
    map_spec m = map_radial();
    run_cfg c = cfg_default();
    c.sc = &SC_FRAGCOORD;
    c.color_format = TR_FORMAT_R32G32B32A32_SFLOAT;
    c.map = &m;
    c.gmem = 32 * 1024;
    c.threads = 2;
    run_out got;
    run(&c, &got);
    expect_fdm_layout(&got);
    tr_extent2d *areas = model_areas(&c, &got.layout);
    expect_fragcoord(&got, areas, "radial");
    free(areas);
    run_free(&got);
}

/* ---- 7. LOAD, clears and DONT_CARE -------------------------------------------------------------- */

/* After a LOAD + STORE pass without draws, pixel x of a bin starting at b
 * holds the old texel b + ((x - b) / fx) * fx + fx / 2 (clamped to the
 * image), likewise y: the coarse fragment's centre texel, nearest. */
static void expect_load_resampled(const run_out *got, const tr_extent2d *areas, const char *what)
{
    const tr_bin_layout *L = &got->layout;
    size_t bad = 0;
    uint32_t fxb = 0, fyb = 0;
    for (uint32_t by = 0; by < L->bins_y; by++)
        for (uint32_t bx = 0; bx < L->bins_x; bx++)
            for (uint32_t v = 0; v < got->layers; v++) {
                const tr_extent2d a = areas[((size_t)by * L->bins_x + bx) * got->layers + v];
                const bin_rect r = bin_of(got, bx, by);
                const uint32_t b0 = L->origin_x + bx * L->bin_w, b1 = L->origin_y + by * L->bin_h;
                for (uint32_t y = r.y0; y < r.y1; y++)
                    for (uint32_t x = r.x0; x < r.x1; x++) {
                        uint32_t sx = b0 + (x - b0) / a.width * a.width + a.width / 2;
                        uint32_t sy = b1 + (y - b1) / a.height * a.height + a.height / 2;
                        sx = sx >= got->w ? got->w - 1 : sx;
                        sy = sy >= got->h ? got->h - 1 : sy;
                        bool ok = memcmp(texel_at(got, got->color, v, x, y), texel_at(got, got->color_init, v, sx, sy),
                                         got->texel) == 0;
                        if (got->depth)
                            ok = ok && memcmp(depth_at(got, got->depth, v, x, y),
                                              depth_at(got, got->depth_init, v, sx, sy), sizeof(float)) == 0;
                        if (!ok && bad++ == 0)
                            fxb = x, fyb = y;
                    }
            }
    cr_expect_eq(bad, 0u, "%s: %zu pixels are not the old texel at their coarse fragment's centre; first (%u,%u)",
                 what, bad, fxb, fyb);
}

static void load_case(run_cfg c, const char *what)
{
    c.color_load = TR_LOAD_OP_LOAD;
    c.depth_load = TR_LOAD_OP_LOAD;
    c.init_seed = 0xb1a5;
    c.sc = NULL;
    run_out got;
    run(&c, &got);
    expect_fdm_layout(&got);
    tr_extent2d *areas = model_areas(&c, &got.layout);
    expect_load_resampled(&got, areas, what);
    free(areas);
    run_free(&got);
}

Test(fdm, load_into_scaled_bins_color)
{
    for (uint32_t fy = 1; fy <= 4; fy *= 2)
        for (uint32_t fx = 1; fx <= 4; fx *= 2) {
            run_cfg c = cfg_default();
            map_spec m = map_area(fx, fy);
            c.map = &m;
            char what[48];
            snprintf(what, sizeof what, "LOAD, uniform %ux%u", fx, fy);
            load_case(c, what);
        }
    map_spec r = map_radial();
    run_cfg c = cfg_default();
    c.map = &r;
    c.gmem = 16 * 1024;
    load_case(c, "LOAD, radial");
}

Test(fdm, load_into_scaled_bins_depth)
{
    static const uint32_t areas[][2] = {{2, 2}, {4, 1}, {1, 4}, {4, 4}};
    for (size_t k = 0; k < sizeof areas / sizeof areas[0]; k++) {
        run_cfg c = cfg_default();
        c.depth = 1;
        map_spec m = map_area(areas[k][0], areas[k][1]);
        c.map = &m;
        char what[48];
        snprintf(what, sizeof what, "LOAD colour + depth, uniform %ux%u", areas[k][0], areas[k][1]);
        load_case(c, what);
    }
}

Test(fdm, load_into_scaled_bins_multiview)
{
    map_spec m = map_two_views(); /* base layer 1: view 0 2x2, view 1 4x1 */
    run_cfg c = cfg_default();
    c.views = 2;
    c.map = &m;
    c.map_base_layer = 1;
    load_case(c, "LOAD, two views");
}

Test(fdm, load_op_clear_is_exact)
{
    map_spec uni = map_area(4, 2), rad = map_radial();
    const map_spec *maps[2] = {&uni, &rad};
    for (int k = 0; k < 2; k++) {
        run_cfg c = cfg_default();
        c.depth = 1;
        c.init_seed = 0xc1ea;
        c.clear_color[0] = 0.2f;
        c.clear_color[1] = 0.4f;
        c.clear_color[2] = 0.6f;
        c.clear_color[3] = 0.8f;
        c.clear_depth = 0.75f;
        c.gmem = 16 * 1024;
        c.map = maps[k];
        run_out got;
        run(&c, &got);
        size_t bad = 0;
        for (size_t i = 0; i < (size_t)W * H; i++) {
            static const uint8_t want[4] = {51, 102, 153, 204};
            bad += memcmp(got.color + 4 * i, want, 4) != 0 || got.depth[i] != 0.75f;
        }
        cr_expect_eq(bad, 0u, "%s map: %zu pixels not cleared to (51, 102, 153, 204), depth 0.75",
                     k ? "radial" : "4x2", bad);
        run_free(&got);
    }
}

/* tr_cmd_clear_attachments with rectangles not aligned to the area. */
static const tr_rect CLEAR_RECTS[] = {{5, 3, 37, 29}, {101, 50, 70, 90}, {130, 71, 1, 1}, {250, 187, 6, 5}, {0, 100, 2, 3}};
enum { N_CLEAR_RECTS = sizeof CLEAR_RECTS / sizeof CLEAR_RECTS[0] };

static void rec_clear_rects(scene_env *e)
{
    tr_clear_attachment a;
    memset(&a, 0, sizeof a);
    a.aspects = TR_CLEAR_COLOR;
    a.color_attachment = 0;
    a.color[0] = 1.0f;
    a.color[2] = 1.0f;
    a.color[3] = 1.0f;
    TRT_OK(tr_cmd_clear_attachments(e->ctx, 1, &a, N_CLEAR_RECTS, CLEAR_RECTS));
}

static const scene SC_CLEAR_RECTS = {NULL, rec_clear_rects};

/* Pixel (x, y) is (255, 0, 255, 255) when its coarse fragment's area
 * touches a rectangle, else the load-op clear colour (0, 0, 0, 255). */
static void expect_clear_rects(const run_out *got, const tr_extent2d *areas, const char *what)
{
    const tr_bin_layout *L = &got->layout;
    size_t bad = 0, cleared = 0;
    uint32_t fxb = 0, fyb = 0;
    for (uint32_t by = 0; by < L->bins_y; by++)
        for (uint32_t bx = 0; bx < L->bins_x; bx++) {
            const tr_extent2d a = areas ? areas[(size_t)by * L->bins_x + bx] : (tr_extent2d){1, 1};
            const bin_rect r = bin_of(got, bx, by);
            const uint32_t b0 = L->origin_x + bx * L->bin_w, b1 = L->origin_y + by * L->bin_h;
            for (uint32_t y = r.y0; y < r.y1; y++)
                for (uint32_t x = r.x0; x < r.x1; x++) {
                    const uint32_t cx0 = b0 + (x - b0) / a.width * a.width, cx1 = cx0 + a.width;
                    const uint32_t cy0 = b1 + (y - b1) / a.height * a.height, cy1 = cy0 + a.height;
                    bool hit = false;
                    for (int k = 0; k < N_CLEAR_RECTS; k++) {
                        const tr_rect *q = &CLEAR_RECTS[k];
                        hit = hit || ((uint32_t)q->x < cx1 && cx0 < (uint32_t)q->x + q->width &&
                                      (uint32_t)q->y < cy1 && cy0 < (uint32_t)q->y + q->height);
                    }
                    static const uint8_t magenta[4] = {255, 0, 255, 255}, black[4] = {0, 0, 0, 255};
                    cleared += hit;
                    if (memcmp(texel_at(got, got->color, 0, x, y), hit ? magenta : black, 4) != 0 && bad++ == 0)
                        fxb = x, fyb = y;
                }
        }
    cr_expect_eq(bad, 0u, "%s: %zu pixels wrong (%zu should be cleared); first (%u,%u)", what, bad, cleared, fxb,
                 fyb);
}

Test(fdm, clear_attachments_clears_touched_coarse_fragments)
{
    static const uint32_t areas[][2] = {{1, 1}, {4, 4}, {2, 1}, {1, 4}, {4, 2}, {2, 2}};
    for (size_t k = 0; k <= sizeof areas / sizeof areas[0]; k++) {
        run_cfg c = cfg_default();
        c.sc = &SC_CLEAR_RECTS;
        c.clear_color[0] = c.clear_color[1] = c.clear_color[2] = 0.0f;
        map_spec m = k < sizeof areas / sizeof areas[0] ? map_area(areas[k][0], areas[k][1]) : map_radial();
        if (k == sizeof areas / sizeof areas[0])
            c.gmem = 16 * 1024;
        c.map = &m;
        run_out got;
        run(&c, &got);
        tr_extent2d *a = model_areas(&c, &got.layout);
        char what[48];
        if (k < sizeof areas / sizeof areas[0])
            snprintf(what, sizeof what, "clear rects, uniform %ux%u", areas[k][0], areas[k][1]);
        else
            snprintf(what, sizeof what, "clear rects, radial");
        expect_clear_rects(&got, a, what);
        free(a);
        run_free(&got);
    }
    /* and without a density map: exactly the rectangles */
    run_cfg c = cfg_default();
    c.sc = &SC_CLEAR_RECTS;
    c.clear_color[0] = c.clear_color[1] = c.clear_color[2] = 0.0f;
    run_out got;
    run(&c, &got);
    expect_clear_rects(&got, NULL, "clear rects, no FDM");
    run_free(&got);
}

Test(fdm, store_dont_care_leaves_image)
{
    map_spec m = map_area(2, 2);
    run_cfg c = cfg_default();
    c.sc = &SC_LATTICE;
    c.depth = 1;
    c.map = &m;
    c.init_seed = 0xd0c4;
    c.color_store = TR_STORE_OP_DONT_CARE;
    c.depth_store = TR_STORE_OP_DONT_CARE;
    run_out got;
    run(&c, &got);
    expect_unchanged(&got, 0, (bin_rect){0, 0, W, H}, "DONT_CARE store");
    cr_expect_gt(got.stats.fragments_shaded, 0u, "nothing was drawn");
    run_free(&got);
}

/* ---- 8. density 0: the view is invisible in that bin -------------------------------------------- */

/* Zeros where some bins sample: (0, 255) in the top-left quadrant, (255, 0)
 * in the bottom-right corner; 255 elsewhere. */
static map_spec map_holes(void)
{
    map_spec m = map_uniform(255, 255);
    for (uint32_t j = 0; j < MAP_H; j++)
        for (uint32_t i = 0; i < MAP_W; i++) {
            if (i < 4 && j < 3)
                m.bytes[0][j][i][0] = 0;
            if (i >= 6 && j >= 4)
                m.bytes[0][j][i][1] = 0;
        }
    return m;
}

static void expect_invisible(run_cfg c, const char *what)
{
    ref_set refs;
    memset(&refs, 0, sizeof refs);
    refs.base = c;
    run_out got;
    run(&c, &got);
    expect_fdm_layout(&got);
    tr_extent2d *areas = model_areas(&c, &got.layout);
    const size_t n = (size_t)got.layout.bins_x * got.layout.bins_y * c.views;
    uint32_t invisible = 0;
    for (size_t k = 0; k < n; k++)
        invisible += areas[k].width == 0;
    cr_assert_gt(invisible, 0u, "%s: no bin samples a zero density", what);
    cr_assert_lt(invisible, (uint32_t)n, "%s: every bin is invisible", what);
    expect_bins(&got, areas, &refs, what);
    expect_bin_view_stats(&got.stats, areas, n, what);
    free(areas);
    run_free(&got);
    refs_free(&refs);
}

Test(fdm, invisible_bins_keep_old_pixels)
{
    map_spec m = map_holes();
    run_cfg c = cfg_default();
    c.sc = &SC_LATTICE;
    c.depth = 1;
    c.map = &m;
    c.init_seed = 0x0de5;
    expect_invisible(c, "density 0, LOAD_OP_CLEAR");
    c.gmem = 16 * 1024;
    c.threads = 2;
    expect_invisible(c, "density 0, LOAD_OP_CLEAR, 16 KiB");
    c.color_load = TR_LOAD_OP_LOAD;
    c.depth_load = TR_LOAD_OP_LOAD;
    expect_invisible(c, "density 0, LOAD_OP_LOAD");
}

Test(fdm, invisible_view_of_multiview)
{
    map_spec m = map_holes();
    m.layers = 2;
    map_uniform_layer(&m, 1, 255, 255); /* view 1 visible everywhere */
    run_cfg c = cfg_default();
    c.sc = &SC_LATTICE;
    c.depth = 1;
    c.views = 2;
    c.map = &m;
    c.init_seed = 0x71e3;
    expect_invisible(c, "density 0 in view 0 only");
}

/* ---- 9. statistics ------------------------------------------------------------------------------ */

static void prep_flat_full(scene_env *e)
{
    tr_pipeline_desc pd = {0};
    pd.fragment_shader = trt_fs_uniform;
    e->pl[0] = trt_pipeline(e->ctx, &pd);
}

static const scene SC_FULL = {prep_flat_full, rec_fullscreen};

static run_out stats_run(const map_spec *m)
{
    run_cfg c = cfg_default();
    c.sc = &SC_FULL;
    c.map = m;
    run_out o;
    run(&c, &o);
    return o;
}

Test(fdm, stats_uniform_2x2)
{
    map_spec m = map_area(2, 2);
    run_out o = stats_run(&m);
    const tr_pass_stats *s = &o.stats;
    const uint32_t bins = o.layout.bins_x * o.layout.bins_y;
    cr_assert_gt(bins, 1u);
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 3; i++)
            cr_expect_eq(s->fdm_bin_views[j][i], i == 1 && j == 1 ? bins : 0u, "fdm_bin_views[%d][%d] = %u", j, i,
                         s->fdm_bin_views[j][i]);
    cr_expect_eq(s->fdm_bin_views_invisible, 0u);
    cr_expect_eq(s->fdm_gmem_bytes_stored_full, (uint64_t)W * H * 4);
    cr_expect_eq(s->gmem_bytes_stored, (uint64_t)W * H * 4 / 4, "gmem_bytes_stored = %llu",
                 (unsigned long long)s->gmem_bytes_stored);
    cr_expect_eq(s->fdm_gmem_bytes_cleared_full, (uint64_t)W * H * 4);
    cr_expect_eq(s->gmem_bytes_cleared, (uint64_t)W * H * 4 / 4, "gmem_bytes_cleared = %llu",
                 (unsigned long long)s->gmem_bytes_cleared);
    cr_expect_eq(s->gmem_bytes_loaded, 0u);
    cr_expect_eq(s->fdm_gmem_bytes_loaded_full, 0u);
    cr_expect_eq(s->fragments_shaded, (uint64_t)(W / 2) * (H / 2), "fragments_shaded = %llu",
                 (unsigned long long)s->fragments_shaded);
    cr_expect_eq(s->fdm_fragments_shaded_scaled, (uint64_t)(W / 2) * (H / 2));
    cr_expect_eq(s->fdm_pixels_shaded_scaled, 4 * s->fdm_fragments_shaded_scaled);
    cr_expect_eq(s->fdm_pixels_shaded_scaled, (uint64_t)W * H);
    /* and the picture: every pixel red */
    size_t bad = 0;
    for (size_t i = 0; i < (size_t)W * H; i++)
        bad += o.color[4 * i] != 255 || o.color[4 * i + 1] != 0 || o.color[4 * i + 2] != 0 || o.color[4 * i + 3] != 255;
    cr_expect_eq(bad, 0u, "%zu pixels are not red", bad);
    run_free(&o);
}

Test(fdm, stats_uniform_4x1_with_load)
{
    map_spec m = map_area(4, 1);
    run_cfg c = cfg_default();
    c.sc = &SC_FULL;
    c.map = &m;
    c.color_load = TR_LOAD_OP_LOAD;
    c.init_seed = 3;
    run_out o;
    run(&c, &o);
    const tr_pass_stats *s = &o.stats;
    const uint32_t bins = o.layout.bins_x * o.layout.bins_y;
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 3; i++)
            cr_expect_eq(s->fdm_bin_views[j][i], i == 2 && j == 0 ? bins : 0u, "fdm_bin_views[%d][%d] = %u", j, i,
                         s->fdm_bin_views[j][i]);
    cr_expect_eq(s->fdm_gmem_bytes_loaded_full, (uint64_t)W * H * 4);
    cr_expect_eq(s->gmem_bytes_loaded, (uint64_t)W * H * 4 / 4);
    cr_expect_eq(s->fdm_gmem_bytes_stored_full, (uint64_t)W * H * 4);
    cr_expect_eq(s->gmem_bytes_stored, (uint64_t)W * H * 4 / 4);
    cr_expect_eq(s->gmem_bytes_cleared, 0u);
    cr_expect_eq(s->fdm_gmem_bytes_cleared_full, 0u);
    cr_expect_eq(s->fragments_shaded, (uint64_t)(W / 4) * H);
    cr_expect_eq(s->fdm_fragments_shaded_scaled, (uint64_t)(W / 4) * H);
    cr_expect_eq(s->fdm_pixels_shaded_scaled, 4 * s->fdm_fragments_shaded_scaled);
    run_free(&o);
}

Test(fdm, stats_density_one_and_no_fdm)
{
    map_spec one = map_area(1, 1);
    run_out o = stats_run(&one);
    const uint32_t bins = o.layout.bins_x * o.layout.bins_y;
    cr_expect_eq(o.stats.fdm_bin_views[0][0], bins);
    cr_expect_eq(o.stats.fdm_fragments_shaded_scaled, 0u);
    cr_expect_eq(o.stats.fdm_pixels_shaded_scaled, 0u);
    cr_expect_eq(o.stats.fragments_shaded, (uint64_t)W * H);
    cr_expect_eq(o.stats.gmem_bytes_stored, (uint64_t)W * H * 4);
    cr_expect_eq(o.stats.fdm_gmem_bytes_stored_full, (uint64_t)W * H * 4);
    cr_expect_eq(o.stats.gmem_bytes_cleared, o.stats.fdm_gmem_bytes_cleared_full);
    run_free(&o);

    /* without a density map every FDM statistic is 0 */
    run_out p = stats_run(NULL);
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 3; i++)
            cr_expect_eq(p.stats.fdm_bin_views[j][i], 0u);
    cr_expect_eq(p.stats.fdm_bin_views_invisible, 0u);
    cr_expect_eq(p.stats.fdm_fragments_shaded_scaled, 0u);
    cr_expect_eq(p.stats.fdm_pixels_shaded_scaled, 0u);
    cr_expect_eq(p.stats.fdm_gmem_bytes_loaded_full, 0u);
    cr_expect_eq(p.stats.fdm_gmem_bytes_cleared_full, 0u);
    cr_expect_eq(p.stats.fdm_gmem_bytes_stored_full, 0u);
    cr_expect_eq(p.stats.gmem_bytes_stored, (uint64_t)W * H * 4);
    cr_expect_eq(p.stats.fragments_shaded, (uint64_t)W * H);
    run_free(&p);
}

/* ---- 11. FDM offset ------------------------------------------------------------------------------ */

/* Offsets the tests use: multiples of the granularity, 8 (view 0; view 1
 * of multiview passes gets the second). */
static const tr_offset2d OFFSETS[2] = {{40, -24}, {-72, 48}};

static run_cfg cfg_offsets(uint32_t views)
{
    run_cfg c = cfg_default();
    c.sc = &SC_LATTICE;
    c.depth = 1;
    c.views = views;
    c.offset_count = views;
    memcpy(c.offsets, OFFSETS, sizeof OFFSETS);
    c.image_flags = TR_IMAGE_FDM_OFFSET;
    return c;
}

/* View v's bin (bx, by) in the framebuffer: the grid moved back by b_o,
 * the first column and row starting at 0 (they only shrink), cut to the
 * framebuffer; empty (x0 == x1) past it. */
static bin_rect bin_shifted(const run_out *o, uint32_t bx, uint32_t by, int32_t box, int32_t boy)
{
    const tr_bin_layout *L = &o->layout;
    int64_t x0 = L->origin_x + (int64_t)bx * L->bin_w - box, y0 = L->origin_y + (int64_t)by * L->bin_h - boy;
    int64_t x1 = x0 + L->bin_w, y1 = y0 + L->bin_h;
    x0 = x0 < 0 ? 0 : x0;
    y0 = y0 < 0 ? 0 : y0;
    x1 = x1 > o->w ? o->w : x1;
    y1 = y1 > o->h ? o->h : y1;
    if (x0 >= x1 || y0 >= y1)
        return (bin_rect){0, 0, 0, 0};
    return (bin_rect){(uint32_t)x0, (uint32_t)y0, (uint32_t)x1, (uint32_t)y1};
}

/* b_o of view v of the pass of c, as the rules give it (0 without honoured
 * offsets or with a shared viewport). */
static void model_view_bo(const run_cfg *c, const tr_bin_layout *L, uint32_t v, int32_t bo[2])
{
    const bool shared = (c->pass_flags & TR_PASS_FDM_SHARED_VIEWPORT) ||
                        (c->pipeline_flags & TR_PIPELINE_WRITES_VIEWPORT_INDEX);
    bo[0] = bo[1] = 0;
    if (model_offsets(c) && !shared) {
        bo[0] = model_bo(c->offsets[v].x, L->bin_w);
        bo[1] = model_bo(c->offsets[v].y, L->bin_h);
    }
}

/* Every view's shifted bin holds its area's reference (or, invisible, the
 * old pixels); returns how many bin views had pixels. */
static uint32_t expect_shifted_bins(const run_out *got, const run_cfg *c, const tr_extent2d *areas, ref_set *refs,
                                    const char *what)
{
    const tr_bin_layout *L = &got->layout;
    uint32_t seen = 0;
    for (uint32_t v = 0; v < got->layers; v++) {
        int32_t bo[2];
        model_view_bo(c, L, v, bo);
        for (uint32_t by = 0; by < L->bins_y; by++)
            for (uint32_t bx = 0; bx < L->bins_x; bx++) {
                const bin_rect r = bin_shifted(got, bx, by, bo[0], bo[1]);
                if (r.x0 == r.x1)
                    continue;
                seen++;
                const tr_extent2d a = areas[((size_t)by * L->bins_x + bx) * got->layers + v];
                if (a.width == 0)
                    expect_unchanged(got, v, r, what);
                else
                    expect_scaled(got, v, ref_get(refs, a.width, a.height), v, a.width, a.height, r, what);
            }
    }
    return seen;
}

/* tr_compute_fdm_areas and tr_compute_fdm_bin_offsets give the model's. */
static void expect_offset_queries(const run_cfg *c, const tr_bin_layout *L, const tr_extent2d *want, const char *what)
{
    pass_objs p;
    objs_create(c, &p);
    const size_t n = (size_t)L->bins_x * L->bins_y * c->views;
    tr_extent2d *got = calloc(n, sizeof *got);
    cr_assert_not_null(got);
    TRT_OK(tr_compute_fdm_areas(p.ctx, &p.rp, got, n));
    for (size_t k = 0; k < n; k++)
        cr_expect(got[k].width == want[k].width && got[k].height == want[k].height,
                  "%s: bin view %zu: area %ux%u, the rule gives %ux%u", what, k, got[k].width, got[k].height,
                  want[k].width, want[k].height);
    tr_offset2d bo[2];
    TRT_OK(tr_compute_fdm_bin_offsets(p.ctx, &p.rp, bo, c->views));
    for (uint32_t v = 0; v < c->views; v++) {
        int32_t m[2];
        model_view_bo(c, L, v, m);
        cr_expect(bo[v].x == m[0] && bo[v].y == m[1], "%s: view %u: b_o (%d, %d), the rule gives (%d, %d)", what, v,
                  bo[v].x, bo[v].y, m[0], m[1]);
    }
    free(got);
    tr_context_destroy(p.ctx);
}

Test(fdm, offsets_with_density_one_give_the_image_without_a_map)
{
    for (uint32_t views = 1; views <= 2; views++) {
        run_cfg c = cfg_offsets(views);
        c.threads = 2;
        /* without LRZ, which an offset turns off in the first row and
         * column, the same fragments are shaded too */
        c.pass_flags = views == 2 ? TR_PASS_NO_LRZ : 0;
        map_spec one = map_uniform(255, 255);
        run_out plain, got;
        run_cfg pc = c;
        pc.offset_count = 0;
        run(&pc, &plain);
        c.map = &one;
        run(&c, &got);
        char what[64];
        snprintf(what, sizeof what, "density 1, offsets, %u view(s)", views);
        expect_same_bytes(&got, &plain, what);
        /* one more column and row, into which the shifted bins reach */
        cr_expect_eq(got.layout.bins_x, plain.layout.bins_x + 1, "%s: bins_x %u", what, got.layout.bins_x);
        cr_expect_eq(got.layout.bins_y, plain.layout.bins_y + 1, "%s: bins_y %u", what, got.layout.bins_y);
        if (views == 2)
            cr_expect_eq(got.stats.fragments_shaded, plain.stats.fragments_shaded, "%s", what);
        else
            cr_expect_geq(got.stats.fragments_shaded, plain.stats.fragments_shaded, "%s", what);
        /* every view's shifted bins with pixels were rendered at 1x1 */
        ref_set refs;
        memset(&refs, 0, sizeof refs);
        refs.base = c;
        refs.base.offset_count = 0;
        tr_extent2d *areas = model_areas(&c, &got.layout);
        const uint32_t seen = expect_shifted_bins(&got, &c, areas, &refs, what);
        cr_expect_eq(got.stats.fdm_bin_views[0][0], seen, "%s: fdm_bin_views[0][0] = %u, %u bin views have pixels",
                     what, got.stats.fdm_bin_views[0][0], seen);
        free(areas);
        refs_free(&refs);
        run_free(&plain);
        run_free(&got);
    }
}

Test(fdm, offsets_uniform_area_equals_downscaled_reference)
{
    for (uint32_t fy = 1; fy <= 4; fy *= 2)
        for (uint32_t fx = 1; fx <= 4; fx *= 2) {
            run_cfg c = cfg_offsets(1);
            map_spec m = map_area(fx, fy);
            c.map = &m;
            run_out got, ref;
            run(&c, &got);
            run_cfg rc = cfg_ref(&c, fx, fy);
            rc.offset_count = 0;
            run(&rc, &ref);
            char what[64];
            snprintf(what, sizeof what, "uniform %ux%u, offset (40, -24)", fx, fy);
            /* b_s is a multiple of 8: the coarse fragments of the shifted
             * bins lie on the same grid as without an offset */
            expect_scaled(&got, 0, &ref, 0, fx, fy, (bin_rect){0, 0, W, H}, what);
            run_free(&got);
            run_free(&ref);
        }
}

Test(fdm, offsets_radial_bins_follow_the_offset, .timeout = 300)
{
    map_spec m = map_radial();
    for (uint32_t views = 1; views <= 2; views++) {
        run_cfg c = cfg_offsets(views);
        c.map = &m;
        c.gmem = 32 * 1024;
        run_out want;
        run(&c, &want);
        char what[64];
        snprintf(what, sizeof what, "radial, offsets, %u view(s)", views);
        tr_extent2d *areas = model_areas(&c, &want.layout);
        expect_offset_queries(&c, &want.layout, areas, what);
        ref_set refs;
        memset(&refs, 0, sizeof refs);
        refs.base = c;
        refs.base.offset_count = 0;
        expect_shifted_bins(&want, &c, areas, &refs, what);
        /* the same bytes for other thread counts and SIMD levels */
        static const struct {
            uint32_t threads;
            tr_simd_level simd;
        } k[] = {{3, TR_SIMD_DEFAULT}, {2, TR_SIMD_SCALAR}};
        for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
            run_cfg o = c;
            o.threads = k[i].threads;
            o.simd = k[i].simd;
            run_out got;
            run(&o, &got);
            expect_same_bytes(&got, &want, what);
            cr_expect_eq(got.stats.fragments_shaded, want.stats.fragments_shaded, "%s", what);
            run_free(&got);
        }
        free(areas);
        refs_free(&refs);
        run_free(&want);
    }
}

Test(fdm, offsets_ignored_without_the_image_flag)
{
    map_spec m = map_radial();
    run_cfg c = cfg_offsets(1);
    c.map = &m;
    c.image_flags = 0; /* Vulkan asks for the flag; without it the offsets are (0, 0) */
    run_cfg none = c;
    none.offset_count = 0;
    run_out got, want;
    run(&c, &got);
    run(&none, &want);
    expect_same_bytes(&got, &want, "offsets without TR_IMAGE_FDM_OFFSET");
    cr_expect(same_bins(&got.layout, &want.layout), "no extra column and row");
    tr_extent2d *areas = model_areas(&c, &got.layout);
    expect_offset_queries(&c, &got.layout, areas, "offsets without the flag");
    free(areas);
    /* the flag on the attachments alone is not enough: the map needs it too */
    pass_objs p;
    objs_create(&c, &p);
    tr_image *flagged = flagged_image(p.ctx, TR_FORMAT_R8G8B8A8_UNORM, W, H, 1, TR_IMAGE_FDM_OFFSET);
    p.rp.color[0].image = flagged;
    tr_bin_layout l;
    TRT_OK(tr_compute_bin_layout(p.ctx, &p.rp, &l));
    cr_expect(same_bins(&l, &want.layout), "offsets honoured without the flag on the map and the depth image");
    tr_context_destroy(p.ctx);
    run_free(&got);
    run_free(&want);
}

Test(fdm, offsets_with_a_shared_viewport_move_only_the_sampling)
{
    map_spec m = map_radial();
    run_cfg c = cfg_offsets(2);
    c.map = &m;
    c.pass_flags = TR_PASS_FDM_SHARED_VIEWPORT;
    run_out got;
    run(&c, &got);
    tr_extent2d *areas = model_areas(&c, &got.layout);
    /* b_o is 0 for both views; the sampling moved by each view's offset */
    expect_offset_queries(&c, &got.layout, areas, "shared viewport, offsets");
    ref_set refs;
    memset(&refs, 0, sizeof refs);
    refs.base = c;
    refs.base.offset_count = 0;
    expect_shifted_bins(&got, &c, areas, &refs, "shared viewport, offsets");
    /* and the areas differ from those without offsets somewhere */
    run_cfg none = c;
    none.offset_count = 0;
    tr_extent2d *plain = model_areas(&none, &got.layout);
    size_t differ = 0;
    for (size_t k = 0; k < (size_t)got.layout.bins_x * got.layout.bins_y * 2; k++)
        differ += areas[k].width != plain[k].width || areas[k].height != plain[k].height;
    cr_expect_gt(differ, 0u, "the offsets move no area");
    free(plain);
    free(areas);
    refs_free(&refs);
    run_free(&got);
}

/* The lattice in two draws, the second with a pipeline that writes the
 * viewport index: recorded after the first was binned in shifted bins. */
static void prep_late_viewport_index(scene_env *e)
{
    e->pl[0] = pipe_gouraud_depth(e, TR_COMPARE_LESS, 0);
    tr_pipeline_desc pd = {0};
    pd.fragment_shader = trt_fs_varying;
    pd.tie_rule = e->cfg->tie;
    pd.flags = TR_PIPELINE_WRITES_VIEWPORT_INDEX;
    pd.depth_test = 1;
    pd.depth_write = 1;
    pd.depth_compare = TR_COMPARE_LESS;
    e->pl[1] = trt_pipeline(e->ctx, &pd);
}

static void rec_late_viewport_index(scene_env *e)
{
    trt_vertex v[LAT_VERTS];
    const uint32_t n = lattice_scene(v);
    scene_viewport(e);
    TRT_OK(tr_cmd_bind_pipeline(e->ctx, e->pl[0]));
    scene_draw(e, v, LAT_BG + LAT_GRID, NULL);
    TRT_OK(tr_cmd_bind_pipeline(e->ctx, e->pl[1]));
    scene_draw(e, v + LAT_BG + LAT_GRID, n - (LAT_BG + LAT_GRID), NULL);
}

static const scene SC_LATE_VIEWPORT_INDEX = {prep_late_viewport_index, rec_late_viewport_index};

Test(fdm, offsets_late_viewport_index_draw_unshifts_the_bins)
{
    map_spec m = map_radial();
    run_cfg late = cfg_offsets(2);
    late.map = &m;
    late.sc = &SC_LATE_VIEWPORT_INDEX;
    late.threads = 2;
    run_cfg early = late;
    early.pass_flags = TR_PASS_FDM_SHARED_VIEWPORT;
    run_out a, b;
    run(&late, &a);
    run(&early, &b);
    expect_same_bytes(&a, &b, "a viewport-index draw after shifted binning, and the pass flag from the start");
    cr_expect_eq(a.stats.fragments_shaded, b.stats.fragments_shaded);
    run_free(&a);
    run_free(&b);
}

/* ---- 12. LRZ in scaled bins --------------------------------------------------------------------- */

/* The pass of c with LRZ and without: the same bytes; returns the LRZ
 * rejections with it. */
static uint64_t expect_lrz_exact(run_cfg c, const char *what)
{
    run_out on, off;
    run(&c, &on);
    c.pass_flags |= TR_PASS_NO_LRZ;
    run(&c, &off);
    expect_same_bytes(&on, &off, what);
    cr_expect_eq(off.stats.fragments_lrz_rejected, 0u, "%s", what);
    cr_expect_eq(on.stats.fragments_rasterized, off.stats.fragments_rasterized, "%s", what);
    const uint64_t rej = on.stats.fragments_lrz_rejected;
    /* LRZ only ever saves shading */
    cr_expect_eq(on.stats.fragments_shaded + rej >= off.stats.fragments_shaded, true, "%s", what);
    cr_expect_leq(on.stats.fragments_shaded, off.stats.fragments_shaded, "%s", what);
    run_free(&on);
    run_free(&off);
    return rej;
}

Test(fdm, lrz_in_scaled_bins_with_hardware_bin_scaling, .timeout = 300)
{
    static const struct {
        uint32_t fx, fy;
    } areas[] = {{2, 2}, {4, 4}, {4, 1}, {1, 2}};
    for (size_t k = 0; k < sizeof areas / sizeof areas[0]; k++) {
        run_cfg c = cfg_default();
        c.sc = &SC_LATTICE;
        c.depth = 1;
        c.threads = 2;
        map_spec m = map_area(areas[k].fx, areas[k].fy);
        c.map = &m;
        char what[64];
        /* a740: every bin is scaled and still rejects by LRZ */
        c.device = TR_DEVICE_A740;
        snprintf(what, sizeof what, "a740, uniform %ux%u", areas[k].fx, areas[k].fy);
        const uint64_t a740 = expect_lrz_exact(c, what);
        /* (at 4x4 an LRZ texel is 32x32 pixels, which no triangle of the
         * lattice covers whole: nothing to reject, but still exact) */
        if (areas[k].fx * areas[k].fy < 16)
            cr_expect_gt(a740, 0u, "%s: LRZ rejected nothing in scaled bins", what);
        /* a630: no hardware bin scaling, no LRZ in scaled bins */
        c.device = TR_DEVICE_A630;
        snprintf(what, sizeof what, "a630, uniform %ux%u", areas[k].fx, areas[k].fy);
        cr_expect_eq(expect_lrz_exact(c, what), 0u, "%s: LRZ in scaled bins", what);
        /* a740 with a shared viewport: no hardware scaling either */
        c.device = TR_DEVICE_A740;
        c.pass_flags = TR_PASS_FDM_SHARED_VIEWPORT;
        snprintf(what, sizeof what, "a740, shared viewport, uniform %ux%u", areas[k].fx, areas[k].fy);
        cr_expect_eq(expect_lrz_exact(c, what), 0u, "%s: LRZ in scaled bins", what);
    }
}

Test(fdm, lrz_in_scaled_bins_radial_offsets_merging_multiview, .timeout = 300)
{
    map_spec m = map_radial();
    for (uint32_t views = 1; views <= 2; views++) {
        run_cfg c = cfg_offsets(views);
        c.map = &m;
        c.device = TR_DEVICE_A740;
        c.threads = 3;
        char what[64];
        snprintf(what, sizeof what, "a740, radial, offsets, %u view(s)", views);
        cr_expect_gt(expect_lrz_exact(c, what), 0u, "%s: no LRZ rejection", what);
        c.offset_count = 0;
        snprintf(what, sizeof what, "a740, radial, %u view(s)", views);
        cr_expect_gt(expect_lrz_exact(c, what), 0u, "%s: no LRZ rejection", what);
    }
}

/* ---- 13. where a bin lies does not change a triangle ------------------------------------------- */

/* 300 triangles at random float positions (not on any lattice) and depths,
 * depth-tested: a bin view's o is added after the window transform, so the
 * same triangle snaps the same in every bin (fdm_view.h), and moving bins
 * (an offset) or merging them changes no byte. */
static void rec_random_floats(scene_env *e)
{
    enum { N = 300 };
    static trt_vertex v[3 * N];
    trt_rng rng = {0x5eedf00dull};
    for (uint32_t i = 0; i < 3 * N; i += 3) {
        float c[4];
        rand_color(&rng, c, 1.0f, 1.0f);
        const float cx = trt_rand_coord(&rng, -20.0f, W + 20.0f), cy = trt_rand_coord(&rng, -20.0f, H + 20.0f);
        const float z = (float)trt_rand_range(&rng, 0.05, 0.95);
        for (int k = 0; k < 3; k++)
            v[i + k] = vtx(cx + trt_rand_coord(&rng, -40.0f, 40.0f), cy + trt_rand_coord(&rng, -40.0f, 40.0f),
                           z + (float)trt_rand_range(&rng, -0.05, 0.05), c);
    }
    TRT_OK(tr_cmd_bind_pipeline(e->ctx, e->pl[0]));
    scene_viewport(e);
    scene_draw(e, v, 3 * N, NULL);
}

static const scene SC_RANDOM_FLOATS = {prep_lattice, rec_random_floats};

Test(fdm, bin_position_changes_no_byte_for_float_geometry, .timeout = 300)
{
    /* a uniform area: the offset moves every bin, the image stays */
    for (uint32_t f = 2; f <= 4; f *= 2) {
        run_cfg c = cfg_offsets(1);
        c.sc = &SC_RANDOM_FLOATS;
        map_spec m = map_area(f, f);
        c.map = &m;
        run_out shifted, plain;
        run(&c, &shifted);
        c.offset_count = 0;
        run(&c, &plain);
        char what[64];
        snprintf(what, sizeof what, "random floats, uniform %ux%u, offset (40, -24) and none", f, f);
        expect_same_bytes(&shifted, &plain, what);
        run_free(&shifted);
        run_free(&plain);
    }
    /* merging on the a740 (and its scaled LRZ) against neither */
    map_spec m = map_radial();
    run_cfg c = cfg_default();
    c.sc = &SC_RANDOM_FLOATS;
    c.depth = 1;
    c.map = &m;
    c.gmem = 32 * 1024;
    c.device = TR_DEVICE_A740;
    c.tile_align = 32; /* the a740's 96 x 32 would give few bins here */
    run_out merged, plain;
    run(&c, &merged);
    cr_expect_gt(merged.stats.fdm_bins_merged, 0u, "nothing merged");
    c.pass_flags = TR_PASS_NO_LRZ;
    run_cfg nm = c;
    nm.ctx_flags = TR_CONTEXT_NO_BIN_MERGING;
    run(&nm, &plain);
    cr_expect_eq(plain.stats.fdm_bins_merged, 0u);
    expect_same_bytes(&merged, &plain, "random floats, radial, a740 merged with LRZ, and neither");
    run_free(&merged);
    run_free(&plain);
}
