/* The depth test per 8x8 block against GMEM (raster_tri.c:
 * gmem_block_direction, gmem_block_rejects, and the per-bin-view cache of
 * block depth ranges, tr__zblock, forgotten by depth writes and clears): a
 * block whose every possible fragment depth lies beyond the farthest depth
 * stored in its GMEM block is rejected whole, counted as the per-fragment
 * test would count it.  It must be invisible.
 *
 * Each scene here is random but seeded, built to make the block test fire
 * a lot (large overlapping triangles front to back) and to sit on its edges
 * (exact ties, ties at the ends of the depth range, every compare op,
 * depth loaded with NaN, infinities, -0 and values outside [0, 1], narrow
 * and reversed depth ranges, unaligned render areas and scissors, depth
 * clears inside the pass, discard, shader depth, early tests, stencil, two
 * views, a second pass that reuses LRZ).  It is rendered by the scalar
 * reference path (TR_SIMD_SCALAR, 1 thread: never uses the block test) and
 * by the default SIMD path at 1, 2 and 3 threads (and SSE at 2), with the
 * default GMEM budget and a small one (16 KiB: many bins, blocks at bin
 * edges), LRZ on and off.  Colour, depth and stencil bytes must all be the
 * same, and every statistic of tr_pass_stats (times zeroed; the tile and
 * peak memory only between equal thread counts) must equal that of the
 * scalar reference of the same GMEM budget and LRZ setting (run_scene).
 * A mismatch is logged as "MISMATCH scene (seed): configuration: what,
 * where, value, reference value". */
#include "trtest.h"

#include <criterion/logging.h>

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum { W = 150, H = 110, MAX_VIEWS = 2, MAX_PASSES = 2 };

/* ---- shaders ------------------------------------------------------------------------------- */

static uint32_t pixel_hash(const tr_fs_block *b, uint32_t l)
{
    uint32_t x = (uint32_t)(int32_t)floorf(b->frag_x[l]), y = (uint32_t)(int32_t)floorf(b->frag_y[l]);
    uint32_t h = x * 0x9E3779B1u ^ (y + 0x7F4A7C15u) * 0x85EBCA77u ^ b->primitive_id * 0xC2B2AE3Du;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    return h;
}

/* varying colour; discards about a third of the pixels */
static void fs_discard(tr_fs_block *b)
{
    trt_fs_varying(b);
    for (uint32_t l = 0; l < b->count; l++)
        if (pixel_hash(b, l) % 3u == 0)
            b->discard |= (uint64_t)1 << l;
}

/* varying colour; depth = frag_z moved by a pixel pattern (clamped by the
 * library to the viewport's range) */
static void fs_depth(tr_fs_block *b)
{
    trt_fs_varying(b);
    for (uint32_t l = 0; l < b->count; l++)
        b->depth[l] = b->frag_z[l] * 0.75f + 0.125f * (float)(pixel_hash(b, l) & 3u) - 0.05f;
}

/* ---- scenes ---------------------------------------------------------------------------------- */

typedef enum shader_kind {
    SH_VARYING,   /* colour = varying (smooth) */
    SH_FLAT,      /* flat varying, no frag coord: the uniform-block path */
    SH_NONE,      /* no fragment shader: depth/stencil only */
    SH_DISCARD,   /* fs_discard, TR_FS_MAY_DISCARD */
    SH_DEPTH,     /* fs_depth, TR_FS_WRITES_DEPTH */
    SH_COUNT
} shader_kind;

typedef struct gd_draw {
    shader_kind shader;
    uint32_t fs_extra;       /* TR_FS_EARLY_TESTS or 0 */
    int depth_test, depth_write;
    tr_compare_op compare;
    int stencil_test;
    tr_stencil_face front, back;
    uint32_t stencil_ref;
    int blend;
    tr_viewport vp;
    tr_rect scissor;
    uint32_t first, count;   /* vertices */
    int clear;               /* tr_cmd_clear_attachments of depth (and stencil) over `scissor` */
    float clear_depth;
} gd_draw;

typedef struct gd_pass {
    tr_load_op depth_load;   /* CLEAR, or LOAD (depth_init before pass 0, or the previous pass) */
    float clear_depth;
    uint32_t clear_stencil;
    tr_rect area;            /* width 0: whole framebuffer */
    uint32_t first_draw, draw_count;
} gd_pass;

typedef struct gd_scene {
    char name[96];
    uint32_t views;
    tr_format depth_format;
    float *depth_init;       /* W * H * views texels uploaded before pass 0, or NULL */
    gd_pass pass[MAX_PASSES];
    uint32_t pass_count;
    gd_draw *draws;
    uint32_t draw_count, draw_cap;
    trt_vertex *v;
    uint32_t nv, v_cap;
    float view_offset[MAX_VIEWS][2];
} gd_scene;

static void scene_init(gd_scene *s, const char *name, uint32_t seed)
{
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "%s (seed %u)", name, seed);
    s->views = 1;
    s->depth_format = TR_FORMAT_D32_SFLOAT;
    s->pass_count = 1;
    s->pass[0].depth_load = TR_LOAD_OP_CLEAR;
    s->pass[0].clear_depth = 1.0f;
}

static void scene_free(gd_scene *s)
{
    free(s->draws);
    free(s->v);
    free(s->depth_init);
}

static gd_draw *new_draw(gd_scene *s)
{
    if (s->draw_count == s->draw_cap) {
        s->draw_cap = s->draw_cap ? 2 * s->draw_cap : 64;
        s->draws = realloc(s->draws, sizeof *s->draws * s->draw_cap);
        cr_assert_not_null(s->draws);
    }
    gd_draw *d = &s->draws[s->draw_count++];
    memset(d, 0, sizeof *d);
    d->depth_test = 1;
    d->depth_write = 1;
    d->vp = (tr_viewport){0, 0, W, H, 0.0f, 1.0f};
    d->scissor = (tr_rect){0, 0, W, H};
    d->first = s->nv;
    s->pass[s->pass_count - 1].draw_count++;
    return d;
}

static void push_vertex(gd_scene *s, float x, float y, float z, trt_rng *rng)
{
    if (s->nv == s->v_cap) {
        s->v_cap = s->v_cap ? 2 * s->v_cap : 1024;
        s->v = realloc(s->v, sizeof *s->v * s->v_cap);
        cr_assert_not_null(s->v);
    }
    float c[4];
    for (int k = 0; k < 4; k++)
        c[k] = (float)trt_rand_range(rng, 0.0, 1.0);
    c[3] = 0.35f + 0.5f * c[3];
    s->v[s->nv++] = trt_vpx(x, y, z, W, H, c);
}

/* A triangle of the current draw: three corners in pixels, depths z[3]. */
static void push_tri(gd_scene *s, const float x[3], const float y[3], const float z[3], trt_rng *rng)
{
    for (int k = 0; k < 3; k++)
        push_vertex(s, x[k], y[k], z[k], rng);
    s->draws[s->draw_count - 1].count += 3;
}

/* A triangle around (cx, cy) of radius about r (corners at three spread
 * angles), depth zc with slope up to `slope` at the corners. */
static void push_random_tri(gd_scene *s, trt_rng *rng, float cx, float cy, float r, float zc, float slope)
{
    float x[3], y[3], z[3];
    double a0 = trt_rand_range(rng, 0, 6.283185307179586);
    for (int k = 0; k < 3; k++) {
        double a = a0 + k * 2.0943951023931953 + trt_rand_range(rng, -0.6, 0.6);
        double rr = r * trt_rand_range(rng, 0.6, 1.0);
        x[k] = (float)(cx + rr * cos(a));
        y[k] = (float)(cy + rr * sin(a));
        z[k] = zc + (float)trt_rand_range(rng, -slope, slope);
    }
    push_tri(s, x, y, z, rng);
}

/* Two triangles covering the framebuffer (and then some), depth zl at the
 * left edge and zr at the right. */
static void push_fullscreen(gd_scene *s, trt_rng *rng, float zl, float zr)
{
    const float x0 = -4, y0 = -4, x1 = W + 4, y1 = H + 4;
    const float ax[3] = {x0, x1, x1}, ay[3] = {y0, y0, y1}, az[3] = {zl, zr, zr};
    const float bx[3] = {x0, x1, x0}, by[3] = {y0, y1, y1}, bz[3] = {zl, zr, zl};
    push_tri(s, ax, ay, az, rng);
    push_tri(s, bx, by, bz, rng);
}

static uint32_t pick(trt_rng *rng, uint32_t n)
{
    return trt_rand_u32(rng) % n;
}

static int chance(trt_rng *rng, double p)
{
    return trt_rand_range(rng, 0, 1) < p;
}

/* A random rectangle inside the framebuffer with unaligned edges. */
static tr_rect random_rect(trt_rng *rng, uint32_t min_w, uint32_t min_h)
{
    uint32_t w = min_w + pick(rng, W - min_w + 1), h = min_h + pick(rng, H - min_h + 1);
    int32_t x = (int32_t)pick(rng, W - w + 1), y = (int32_t)pick(rng, H - h + 1);
    return (tr_rect){x, y, w, h};
}

/* A shader kind with its flags, from weights of VARYING, FLAT, NONE,
 * DISCARD (late), DISCARD (early), DEPTH (late), DEPTH (early). */
static void random_shader(gd_draw *d, trt_rng *rng, const uint32_t weights[7])
{
    uint32_t total = 0;
    for (int i = 0; i < 7; i++)
        total += weights[i];
    uint32_t r = pick(rng, total), i = 0;
    while (r >= weights[i]) {
        r -= weights[i];
        i++;
    }
    static const shader_kind kinds[7] = {SH_VARYING, SH_FLAT, SH_NONE, SH_DISCARD, SH_DISCARD, SH_DEPTH, SH_DEPTH};
    d->shader = kinds[i];
    d->fs_extra = (i == 4 || i == 6) ? TR_FS_EARLY_TESTS : 0;
}

static void random_stencil(gd_draw *d, trt_rng *rng)
{
    d->stencil_test = 1;
    tr_stencil_face *f[2] = {&d->front, &d->back};
    for (int k = 0; k < 2; k++) {
        f[k]->compare = (tr_compare_op)pick(rng, 9);
        f[k]->fail_op = (tr_stencil_op)pick(rng, 8);
        f[k]->pass_op = (tr_stencil_op)pick(rng, 8);
        f[k]->depth_fail_op = (tr_stencil_op)pick(rng, 8);
        f[k]->compare_mask = chance(rng, 0.5) ? 0 : 1 + pick(rng, 255);
        f[k]->write_mask = chance(rng, 0.5) ? 0 : 1 + pick(rng, 255);
    }
    d->stencil_ref = pick(rng, 256);
}

/* ---- rendering ---------------------------------------------------------------------------------- */

typedef struct gd_cfg {
    uint32_t threads, gmem;
    tr_simd_level simd;
    int no_lrz;
} gd_cfg;

typedef struct gd_result {
    uint8_t *bytes;          /* colour, depth, stencil of every layer */
    size_t len;
    size_t color_len, depth_len, stencil_len; /* per layer */
    tr_pass_stats st[MAX_PASSES];
} gd_result;

static tr_pipeline *make_pipeline(tr_context *ctx, const gd_draw *g)
{
    tr_pipeline_desc d;
    memset(&d, 0, sizeof d);
    d.vertex_shader = trt_vs;
    d.varying_count = 1;
    switch (g->shader) {
    case SH_VARYING: d.fragment_shader = trt_fs_varying; break;
    case SH_FLAT:
        d.fragment_shader = trt_fs_varying;
        d.flat_mask = 1;
        d.fs_flags = TR_FS_NO_FRAG_COORD;
        break;
    case SH_NONE: d.fragment_shader = NULL; break;
    case SH_DISCARD: d.fragment_shader = fs_discard; d.fs_flags = TR_FS_MAY_DISCARD; break;
    case SH_DEPTH: d.fragment_shader = fs_depth; d.fs_flags = TR_FS_WRITES_DEPTH; break;
    default: break;
    }
    d.fs_flags |= g->fs_extra;
    d.depth_test = g->depth_test;
    d.depth_write = g->depth_write;
    d.depth_compare = g->compare;
    d.stencil_test = g->stencil_test;
    d.stencil_front = g->front;
    d.stencil_back = g->back;
    if (g->blend) {
        d.blend[0].enable = 1;
        d.blend[0].src_color = TR_BLEND_SRC_ALPHA;
        d.blend[0].dst_color = TR_BLEND_ONE_MINUS_SRC_ALPHA;
        d.blend[0].src_alpha = TR_BLEND_ONE;
        d.blend[0].dst_alpha = TR_BLEND_ONE_MINUS_SRC_ALPHA;
    }
    tr_pipeline *p = NULL;
    TRT_OK(tr_pipeline_create(ctx, &d, &p));
    return p;
}

static void render(const gd_scene *s, const gd_cfg *cfg, gd_result *out)
{
    tr_context_desc cd = {0};
    cd.threads = cfg->threads;
    cd.gmem_bytes = cfg->gmem;
    cd.simd = cfg->simd;
    cd.flags = cfg->no_lrz ? TR_CONTEXT_NO_LRZ : 0;
    tr_context *ctx = trt_context_desc(&cd);
    tr_image *color = trt_image_layers(ctx, TR_FORMAT_R8G8B8A8_UNORM, W, H, s->views);
    tr_image *depth = trt_image_layers(ctx, s->depth_format, W, H, s->views);
    const bool stencil = tr_format_has_stencil(s->depth_format) != 0;

    /* Known bytes outside the render area. */
    uint8_t *init = malloc((size_t)W * H * 4);
    cr_assert_not_null(init);
    for (uint32_t layer = 0; layer < s->views; layer++) {
        for (size_t i = 0; i < (size_t)W * H * 4; i++)
            init[i] = (uint8_t)(i * 7u + layer * 91u);
        tr_subresource sub = {0, layer, TR_ASPECT_COLOR, 0};
        TRT_OK(tr_image_upload(color, &sub, init, 0));
        if (s->depth_init) {
            tr_subresource ds = {0, layer, TR_ASPECT_DEPTH, 0};
            TRT_OK(tr_image_upload(depth, &ds, s->depth_init + (size_t)layer * W * H, 0));
        } else {
            tr_subresource ds = {0, layer, TR_ASPECT_DEPTH, 0};
            const float half[4] = {0.5f, 0, 0, 0};
            TRT_OK(tr_image_fill(depth, &ds, half));
        }
        if (stencil) {
            tr_subresource ss = {0, layer, TR_ASPECT_STENCIL, 0};
            TRT_OK(tr_image_upload(depth, &ss, init, 0)); /* (its first W * H bytes) */
        }
    }
    free(init);

    tr_pipeline **pipes = calloc(s->draw_count ? s->draw_count : 1, sizeof *pipes);
    cr_assert_not_null(pipes);
    for (uint32_t i = 0; i < s->draw_count; i++)
        if (!s->draws[i].clear)
            pipes[i] = make_pipeline(ctx, &s->draws[i]);

    for (uint32_t pi = 0; pi < s->pass_count; pi++) {
        const gd_pass *ps = &s->pass[pi];
        tr_render_pass_desc rp;
        memset(&rp, 0, sizeof rp);
        rp.color_count = 1;
        rp.color[0].image = color;
        rp.color[0].load_op = pi == 0 ? TR_LOAD_OP_CLEAR : TR_LOAD_OP_LOAD;
        rp.color[0].clear_color[0] = 0.1f;
        rp.color[0].clear_color[1] = 0.2f;
        rp.color[0].clear_color[2] = 0.3f;
        rp.color[0].clear_color[3] = 1.0f;
        rp.depth.image = depth;
        rp.depth.depth_load_op = ps->depth_load;
        rp.depth.stencil_load_op = pi == 0 ? TR_LOAD_OP_CLEAR : TR_LOAD_OP_LOAD;
        rp.depth.clear_depth = ps->clear_depth;
        rp.depth.clear_stencil = ps->clear_stencil;
        rp.render_area = ps->area;
        rp.view_mask = s->views > 1 ? (1u << s->views) - 1 : 0;
        TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
        for (uint32_t i = ps->first_draw; i < ps->first_draw + ps->draw_count; i++) {
            const gd_draw *g = &s->draws[i];
            if (g->clear) {
                tr_clear_attachment ca;
                memset(&ca, 0, sizeof ca);
                ca.aspects = TR_CLEAR_DEPTH | (stencil ? TR_CLEAR_STENCIL : 0);
                ca.depth = g->clear_depth;
                ca.stencil = g->stencil_ref;
                TRT_OK(tr_cmd_clear_attachments(ctx, 1, &ca, 1, &g->scissor));
                continue;
            }
            TRT_OK(tr_cmd_bind_pipeline(ctx, pipes[i]));
            TRT_OK(tr_cmd_set_viewport(ctx, &g->vp));
            TRT_OK(tr_cmd_set_scissor(ctx, &g->scissor));
            TRT_OK(tr_cmd_set_stencil_reference(ctx, g->stencil_ref, g->stencil_ref ^ 0x5Au));
            trt_uniforms u;
            memset(&u, 0, sizeof u);
            memcpy(u.view_offset, s->view_offset, sizeof s->view_offset);
            trt_draw_u(ctx, &u, s->v + g->first, g->count);
        }
        memset(&out->st[pi], 0, sizeof out->st[pi]);
        TRT_OK(tr_cmd_end_render_pass(ctx, &out->st[pi]));
    }
    free(pipes);

    out->color_len = trt_subresource_bytes(color, TR_ASPECT_COLOR);
    out->depth_len = trt_subresource_bytes(depth, TR_ASPECT_DEPTH);
    out->stencil_len = stencil ? trt_subresource_bytes(depth, TR_ASPECT_STENCIL) : 0;
    const size_t per = out->color_len + out->depth_len + out->stencil_len;
    out->len = per * s->views;
    out->bytes = malloc(out->len);
    cr_assert_not_null(out->bytes);
    for (uint32_t layer = 0; layer < s->views; layer++) {
        uint8_t *p = out->bytes + per * layer;
        trt_download(color, 0, layer, TR_ASPECT_COLOR, p);
        trt_download(depth, 0, layer, TR_ASPECT_DEPTH, p + out->color_len);
        if (stencil)
            trt_download(depth, 0, layer, TR_ASPECT_STENCIL, p + out->color_len + out->depth_len);
    }
    tr_context_destroy(ctx);
}

/* ---- comparing -------------------------------------------------------------------------------------- */

static int g_failures;

/* Logs a mismatch (the first 60 of a test; then only counts them). */
static void report(const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (g_failures < 60)
        cr_log_error("MISMATCH %s", msg);
    else if (g_failures == 60)
        cr_log_error("(further mismatches are counted, not shown)");
    g_failures++;
}

static void cfg_name(const gd_cfg *c, char *buf, size_t n)
{
    static const char *const simd[] = {"default", "scalar", "SSE", "AVX2"};
    snprintf(buf, n, "%s, %u thread%s, gmem %s, LRZ %s", simd[c->simd], c->threads, c->threads == 1 ? "" : "s",
             c->gmem ? "16 KiB" : "default", c->no_lrz ? "off" : "on");
}

/* The first differing bytes: which attachment, layer and pixel, both values,
 * and how many pixels of that attachment differ. */
static void compare_bytes(const gd_scene *s, const gd_result *got, const gd_result *want, const char *what)
{
    cr_assert_eq(got->len, want->len);
    if (!memcmp(got->bytes, want->bytes, got->len))
        return;
    const size_t per = want->color_len + want->depth_len + want->stencil_len;
    for (uint32_t layer = 0; layer < s->views; layer++) {
        const size_t base = per * layer;
        struct {
            const char *name;
            size_t off, len, texel;
        } parts[3] = {{"colour", 0, want->color_len, 4},
                      {"depth", want->color_len, want->depth_len, 4},
                      {"stencil", want->color_len + want->depth_len, want->stencil_len, 1}};
        for (int k = 0; k < 3; k++) {
            const uint8_t *a = got->bytes + base + parts[k].off, *b = want->bytes + base + parts[k].off;
            if (!parts[k].len || !memcmp(a, b, parts[k].len))
                continue;
            size_t first = SIZE_MAX, diffs = 0;
            for (size_t t = 0; t < parts[k].len / parts[k].texel; t++)
                if (memcmp(a + t * parts[k].texel, b + t * parts[k].texel, parts[k].texel)) {
                    if (first == SIZE_MAX)
                        first = t;
                    diffs++;
                }
            const uint32_t x = (uint32_t)(first % W), y = (uint32_t)(first / W);
            char va[96], vb[96];
            const uint8_t *pa = a + first * parts[k].texel, *pb = b + first * parts[k].texel;
            if (k == 1) {
                float fa, fb;
                uint32_t ua, ub;
                memcpy(&fa, pa, 4);
                memcpy(&fb, pb, 4);
                memcpy(&ua, pa, 4);
                memcpy(&ub, pb, 4);
                snprintf(va, sizeof va, "%.9g (0x%08x)", (double)fa, ua);
                snprintf(vb, sizeof vb, "%.9g (0x%08x)", (double)fb, ub);
            } else if (k == 0) {
                snprintf(va, sizeof va, "(%u,%u,%u,%u)", pa[0], pa[1], pa[2], pa[3]);
                snprintf(vb, sizeof vb, "(%u,%u,%u,%u)", pb[0], pb[1], pb[2], pb[3]);
            } else {
                snprintf(va, sizeof va, "%u", pa[0]);
                snprintf(vb, sizeof vb, "%u", pb[0]);
            }
            report("%s: %s: %s of layer %u differs: first at pixel (%u,%u) (8x8 block (%u,%u)): %s, reference %s; "
                   "%zu pixels differ",
                   s->name, what, parts[k].name, layer, x, y, x & ~7u, y & ~7u, va, vb, diffs);
        }
    }
}

/* Every field of the statistics (as tr_pass_stats_to_json writes them),
 * the times zeroed, the tile and peak memory too unless the thread counts
 * are equal (they scale with the threads). */
static void compare_stats(const gd_scene *s, const tr_pass_stats *got, const tr_pass_stats *want, bool same_threads,
                          uint32_t pass, const char *what)
{
    tr_pass_stats a = *got, b = *want;
    a.ms_vertex = a.ms_binning = a.ms_render = 0;
    b.ms_vertex = b.ms_binning = b.ms_render = 0;
    if (!same_threads) {
        a.memory_tile_bytes = b.memory_tile_bytes = 0;
        a.memory_peak_bytes = b.memory_peak_bytes = 0;
    }
    char ja[8192], jb[8192];
    cr_assert_lt(tr_pass_stats_to_json(&a, ja, sizeof ja), sizeof ja);
    cr_assert_lt(tr_pass_stats_to_json(&b, jb, sizeof jb), sizeof jb);
    if (!strcmp(ja, jb))
        return;
    /* Token by token: the objects have the same shape, only values differ. */
    const char *pa = ja, *pb = jb;
    char key[128] = "";
    while (*pa && *pb) {
        size_t la = strcspn(pa, ",{}[]"), lb = strcspn(pb, ",{}[]");
        const char *q = memchr(pa, '"', la);
        if (q) {
            const char *e = memchr(q + 1, '"', (size_t)(pa + la - q - 1));
            if (e && (size_t)(e - q - 1) < sizeof key) {
                memcpy(key, q + 1, (size_t)(e - q - 1));
                key[e - q - 1] = '\0';
            }
        }
        if (la != lb || memcmp(pa, pb, la)) {
            /* the value only: after the key's colon */
            const char *va = memchr(pa, ':', la), *vb = memchr(pb, ':', lb);
            va = va ? va + 1 : pa;
            vb = vb ? vb + 1 : pb;
            report("%s: %s: pass %u statistic %s = %.*s, reference %.*s", s->name, what, pass, key,
                   (int)(pa + la - va), va, (int)(pb + lb - vb), vb);
        }
        pa += la;
        pb += lb;
        if (*pa)
            pa++;
        if (*pb)
            pb++;
    }
}

/* Renders the scene with every configuration and compares.  The scalar
 * references (1 thread: default and small GMEM, LRZ off and on) must all
 * give the bytes of the first (default GMEM, LRZ off): LRZ and the bins
 * are invisible.  Each SIMD configuration must give the bytes and the
 * statistics of the reference of its GMEM budget and LRZ setting: the
 * block test, the SIMD kernels and the thread count are invisible.  (So a
 * difference that LRZ makes shows once, on the scalar reference's line.)
 * Returns the first reference's statistics for the scene's own checks. */
static void run_scene(const gd_scene *s, tr_pass_stats ref_out[MAX_PASSES])
{
    static const uint32_t gmems[2] = {0, 16 * 1024};
    gd_result master;
    bool have_master = false;
    for (int gi = 0; gi < 2; gi++)
        for (int lrz_off = 1; lrz_off >= 0; lrz_off--) {
            gd_cfg rc = {1, gmems[gi], TR_SIMD_SCALAR, lrz_off};
            gd_result ref;
            char name[160], rname[128];
            render(s, &rc, &ref);
            cfg_name(&rc, rname, sizeof rname);
            if (!have_master) {
                master = ref;
                have_master = true;
                memcpy(ref_out, ref.st, sizeof ref.st);
            } else {
                compare_bytes(s, &ref, &master, rname);
            }
            /* the SIMD paths, and one SSE-capped run */
            gd_cfg cfgs[4] = {{1, gmems[gi], TR_SIMD_DEFAULT, lrz_off},
                              {2, gmems[gi], TR_SIMD_DEFAULT, lrz_off},
                              {3, gmems[gi], TR_SIMD_DEFAULT, lrz_off},
                              {2, gmems[gi], TR_SIMD_SSE, lrz_off}};
            const int ncfg = (gi == 0 && !lrz_off) ? 4 : 3;
            for (int c = 0; c < ncfg; c++) {
                gd_result got;
                render(s, &cfgs[c], &got);
                cfg_name(&cfgs[c], name, sizeof name);
                strncat(name, " vs scalar", sizeof name - strlen(name) - 1);
                compare_bytes(s, &got, &ref, name);
                for (uint32_t p = 0; p < s->pass_count; p++)
                    compare_stats(s, &got.st[p], &ref.st[p], cfgs[c].threads == 1, p, name);
                free(got.bytes);
            }
            if (ref.bytes != master.bytes)
                free(ref.bytes);
        }
    free(master.bytes);
}

static double reject_share(const tr_pass_stats *st)
{
    return st->fragments_rasterized ? (double)st->fragments_depth_rejected / (double)st->fragments_rasterized : 0.0;
}

#define EXPECT_NO_MISMATCH()                                                                       \
    cr_assert_eq(g_failures, 0, "%d mismatches (the MISMATCH lines above name them)", g_failures)

/* ---- scene builders ------------------------------------------------------------------------------- */

typedef struct tri_spec {
    float cx, cy, r, zc, slope;
} tri_spec;

static int by_zc_up(const void *a, const void *b)
{
    float x = ((const tri_spec *)a)->zc, y = ((const tri_spec *)b)->zc;
    return x < y ? -1 : x > y;
}

static int by_zc_down(const void *a, const void *b)
{
    return by_zc_up(b, a);
}

/* n large triangles (radius rmin..rmax), sorted by centre depth (order > 0:
 * ascending, < 0: descending, 0: random), in draws of 1..4 triangles with
 * random pipelines drawn by `style`. */
typedef void (*draw_style)(gd_draw *d, trt_rng *rng, void *user);

static void add_big_tris(gd_scene *s, trt_rng *rng, uint32_t n, float rmin, float rmax, float zlo, float zhi,
                         float slope, int order, draw_style style, void *user)
{
    tri_spec *t = malloc(sizeof *t * n);
    cr_assert_not_null(t);
    for (uint32_t i = 0; i < n; i++) {
        t[i].cx = (float)trt_rand_range(rng, -15, W + 15);
        t[i].cy = (float)trt_rand_range(rng, -15, H + 15);
        t[i].r = (float)trt_rand_range(rng, rmin, rmax);
        t[i].zc = (float)trt_rand_range(rng, zlo, zhi);
        t[i].slope = chance(rng, 0.3) ? 0.0f : (float)trt_rand_range(rng, 0, slope);
    }
    if (order)
        qsort(t, n, sizeof *t, order > 0 ? by_zc_up : by_zc_down);
    for (uint32_t i = 0; i < n;) {
        gd_draw *d = new_draw(s);
        style(d, rng, user);
        uint32_t k = 1 + pick(rng, 4);
        for (uint32_t j = 0; j < k && i < n; j++, i++)
            push_random_tri(s, rng, t[i].cx, t[i].cy, t[i].r, t[i].zc, t[i].slope);
    }
    free(t);
}

/* ---- scene A: front to back (and back to front), LESS family ------------------------------------- */

typedef struct less_style {
    int narrow_viewport;
} less_style;

static void style_less(gd_draw *d, trt_rng *rng, void *user)
{
    const less_style *ls = user;
    static const tr_compare_op ops[3] = {TR_COMPARE_DEFAULT, TR_COMPARE_LESS, TR_COMPARE_LESS_OR_EQUAL};
    static const uint32_t w[7] = {70, 8, 4, 4, 6, 3, 5};
    d->compare = ops[pick(rng, 3)];
    d->depth_write = chance(rng, 0.85);
    random_shader(d, rng, w);
    d->blend = chance(rng, 0.15);
    if (chance(rng, 0.2))
        d->scissor = random_rect(rng, 20, 20);
    if (ls && ls->narrow_viewport) {
        d->vp.min_depth = 0.2f;
        d->vp.max_depth = 0.7f;
    }
}

static void build_front_to_back(gd_scene *s, uint32_t seed)
{
    scene_init(s, "front to back, LESS/LEQUAL", seed);
    const uint32_t v = (seed - 1) % 3 + 1; /* the variant; the seed picks the randomness */
    trt_rng rng = {0xF2B0 + seed};
    static const float clears[3] = {1.0f, 0.8f, 1.0f};
    s->pass[0].clear_depth = clears[v % 3];
    if (v % 2 == 0)
        s->pass[0].area = (tr_rect){3, 5, W - 3 - 7, H - 5 - 2};
    less_style ls = {v == 3};
    add_big_tris(s, &rng, 90, 25, 110, 0.02f, 0.98f, 0.2f, +1, style_less, &ls);
    /* and a few small ones far behind everything */
    add_big_tris(s, &rng, 20, 3, 12, 0.9f, 0.99f, 0.01f, 0, style_less, &ls);
}

Test(gmem_depth, front_to_back_less_family, .timeout = 900)
{
    for (uint32_t seed = 1; seed <= 6; seed++) {
        gd_scene s;
        build_front_to_back(&s, seed);
        tr_pass_stats ref[MAX_PASSES];
        run_scene(&s, ref);
        cr_expect_gt(ref[0].fragments_rasterized, 100000, "%s: %llu fragments", s.name,
                     (unsigned long long)ref[0].fragments_rasterized);
        cr_expect_gt(reject_share(&ref[0]), 0.5, "%s: only %.3f of the fragments depth-rejected", s.name,
                     reject_share(&ref[0]));
        scene_free(&s);
    }
    EXPECT_NO_MISMATCH();
}

/* ---- scene B: back to front, exact ties ------------------------------------------------------------ */

static void build_back_to_front_ties(gd_scene *s, uint32_t seed)
{
    scene_init(s, "back to front with exact ties", seed);
    const uint32_t v = (seed - 1) % 3 + 1; /* the variant; the seed picks the randomness */
    trt_rng rng = {0xB2F0 + seed};
    static const float clears[3] = {0.5f, 1.0f, 0.75f};
    s->pass[0].clear_depth = clears[v % 3];
    if (v == 2)
        s->pass[0].area = (tr_rect){5, 3, W - 5 - 11, H - 3 - 4};
    static const float levels[4] = {0.25f, 0.5f, 0.75f, 1.0f};
    tri_spec t[70];
    for (int i = 0; i < 70; i++) {
        t[i].cx = (float)trt_rand_range(&rng, -15, W + 15);
        t[i].cy = (float)trt_rand_range(&rng, -15, H + 15);
        t[i].r = (float)trt_rand_range(&rng, 30, 120);
        t[i].zc = levels[pick(&rng, 4)];
        t[i].slope = chance(&rng, 0.6) ? 0.0f : 0.15f;
    }
    qsort(t, 70, sizeof t[0], by_zc_down);
    static const tr_compare_op ops[6] = {TR_COMPARE_LESS, TR_COMPARE_LESS_OR_EQUAL, TR_COMPARE_DEFAULT,
                                         TR_COMPARE_LESS, TR_COMPARE_LESS_OR_EQUAL, TR_COMPARE_EQUAL};
    uint32_t prev_first = 0, prev_count = 0;
    for (int i = 0; i < 70;) {
        gd_draw *d = new_draw(s);
        d->compare = ops[pick(&rng, 6)];
        d->depth_write = chance(&rng, 0.8);
        d->blend = chance(&rng, 0.3);
        if (v == 3) {
            d->vp.min_depth = 0.3f; /* a narrow range: the levels map inside it */
            d->vp.max_depth = 0.6f;
        }
        int k = 1 + (int)pick(&rng, 3);
        for (int j = 0; j < k && i < 70; j++, i++)
            push_random_tri(s, &rng, t[i].cx, t[i].cy, t[i].r, t[i].zc, t[i].slope);
        /* Now and then the previous draw again, vertex for vertex: exact
         * ties per pixel, sloped or not, under another op. */
        if (prev_count && chance(&rng, 0.35)) {
            gd_draw *r = new_draw(s);
            static const tr_compare_op again[5] = {TR_COMPARE_LESS, TR_COMPARE_LESS_OR_EQUAL, TR_COMPARE_EQUAL,
                                                   TR_COMPARE_GREATER_OR_EQUAL, TR_COMPARE_GREATER};
            r->compare = again[pick(&rng, 5)];
            r->depth_write = chance(&rng, 0.5);
            r->blend = 1;
            r->vp = d->vp;
            r->first = prev_first;
            r->count = prev_count;
        }
        prev_first = s->draws[s->draw_count - 1].first;
        prev_count = s->draws[s->draw_count - 1].count;
    }
}

Test(gmem_depth, back_to_front_and_exact_ties, .timeout = 900)
{
    for (uint32_t seed = 1; seed <= 6; seed++) {
        gd_scene s;
        build_back_to_front_ties(&s, seed);
        tr_pass_stats ref[MAX_PASSES];
        run_scene(&s, ref);
        cr_expect_gt(ref[0].fragments_rasterized, 100000, "%s", s.name);
        cr_expect_gt(reject_share(&ref[0]), 0.1, "%s: only %.3f of the fragments depth-rejected", s.name,
                     reject_share(&ref[0]));
        scene_free(&s);
    }
    EXPECT_NO_MISMATCH();
}

/* ---- scene C: GREATER family, reversed depth ranges -------------------------------------------------- */

typedef struct greater_style {
    float min_depth, max_depth;
} greater_style;

static void style_greater(gd_draw *d, trt_rng *rng, void *user)
{
    const greater_style *gs = user;
    static const uint32_t w[7] = {70, 8, 4, 4, 6, 3, 5};
    d->compare = chance(rng, 0.5) ? TR_COMPARE_GREATER : TR_COMPARE_GREATER_OR_EQUAL;
    d->depth_write = chance(rng, 0.85);
    random_shader(d, rng, w);
    d->blend = chance(rng, 0.15);
    if (chance(rng, 0.2))
        d->scissor = random_rect(rng, 16, 16);
    d->vp.min_depth = gs->min_depth;
    d->vp.max_depth = gs->max_depth;
}

static void build_greater_reversed(gd_scene *s, uint32_t seed)
{
    scene_init(s, "front to back, GREATER/GEQUAL, reversed depth range", seed);
    const uint32_t v = (seed - 1) % 3 + 1; /* the variant; the seed picks the randomness */
    trt_rng rng = {0x6EA7 + seed};
    static const greater_style gs[3] = {{1.0f, 0.0f}, {0.9f, 0.3f}, {0.0f, 1.0f}};
    static const float clears[3] = {0.0f, 0.2f, 0.0f};
    s->pass[0].clear_depth = clears[v - 1];
    if (v != 1)
        s->pass[0].area = (tr_rect){3, 5, W - 3 - 6, H - 5 - 1};
    /* reversed ranges: the nearest (largest window depth) has the smallest
     * ndc z: ascending ndc z is front to back; with [0, 1] descending is */
    const int order = gs[v - 1].min_depth > gs[v - 1].max_depth ? +1 : -1;
    add_big_tris(s, &rng, 90, 25, 110, 0.02f, 0.98f, 0.2f, order, style_greater, (void *)&gs[v - 1]);
}

Test(gmem_depth, greater_family_and_reversed_ranges, .timeout = 900)
{
    for (uint32_t seed = 1; seed <= 6; seed++) {
        gd_scene s;
        build_greater_reversed(&s, seed);
        tr_pass_stats ref[MAX_PASSES];
        run_scene(&s, ref);
        cr_expect_gt(ref[0].fragments_rasterized, 100000, "%s", s.name);
        cr_expect_gt(reject_share(&ref[0]), 0.5, "%s: only %.3f of the fragments depth-rejected", s.name,
                     reject_share(&ref[0]));
        scene_free(&s);
    }
    EXPECT_NO_MISMATCH();
}

/* ---- scene D: every compare op, stencil, discard, shader depth, clears ----------------------------- */

static void build_every_op(gd_scene *s, uint32_t seed)
{
    scene_init(s, "every compare op, stencil, discard, shader depth", seed);
    const uint32_t v = (seed - 1) % 3 + 1; /* the variant; the seed picks the randomness */
    trt_rng rng = {0xA110 + seed};
    s->depth_format = v == 2 ? TR_FORMAT_D32_SFLOAT : TR_FORMAT_D32_SFLOAT_S8_UINT;
    static const float clears[3] = {0.37f, 0.0f, 1.0f};
    s->pass[0].clear_depth = clears[v - 1];
    s->pass[0].clear_stencil = 0x35;
    s->pass[0].area = (tr_rect){3, 5, W - 3 - 9, H - 5 - 3};
    const tr_rect area = s->pass[0].area;
    static const uint32_t w[7] = {40, 8, 6, 10, 10, 8, 8};
    for (int i = 0; i < 110; i++) {
        gd_draw *d = new_draw(s);
        if (chance(&rng, 0.03)) {
            /* a depth (and stencil) clear of an unaligned rectangle inside the area */
            d->clear = 1;
            uint32_t cw = 8 + pick(&rng, area.width - 8), ch = 8 + pick(&rng, area.height - 8);
            d->scissor = (tr_rect){area.x + (int32_t)pick(&rng, area.width - cw + 1),
                                   area.y + (int32_t)pick(&rng, area.height - ch + 1), cw, ch};
            d->clear_depth = chance(&rng, 0.5) ? 1.0f : (float)trt_rand_range(&rng, 0, 1);
            d->stencil_ref = pick(&rng, 256);
            continue;
        }
        d->compare = (tr_compare_op)pick(&rng, 9);
        d->depth_test = chance(&rng, 0.9);
        d->depth_write = chance(&rng, 0.7);
        random_shader(d, &rng, w);
        d->blend = chance(&rng, 0.3);
        if (chance(&rng, 0.3))
            random_stencil(d, &rng);
        if (chance(&rng, 0.4))
            d->scissor = random_rect(&rng, 10, 10);
        switch (pick(&rng, 4)) {
        case 0: break;
        case 1: d->vp.min_depth = 1.0f; d->vp.max_depth = 0.0f; break;
        case 2:
            d->vp.min_depth = (float)trt_rand_range(&rng, 0, 0.5);
            d->vp.max_depth = (float)trt_rand_range(&rng, 0.5, 1);
            break;
        default:
            d->vp.min_depth = (float)trt_rand_range(&rng, 0.5, 1);
            d->vp.max_depth = (float)trt_rand_range(&rng, 0, 0.5);
            break;
        }
        const uint32_t k = 1 + pick(&rng, 3);
        for (uint32_t j = 0; j < k; j++) {
            if (chance(&rng, 0.15))
                push_random_tri(s, &rng, (float)trt_rand_range(&rng, 0, W), (float)trt_rand_range(&rng, 0, H),
                                (float)trt_rand_range(&rng, 0.5, 4), (float)trt_rand_range(&rng, 0, 1), 0.05f);
            else
                push_random_tri(s, &rng, (float)trt_rand_range(&rng, -10, W + 10),
                                (float)trt_rand_range(&rng, -10, H + 10), (float)trt_rand_range(&rng, 20, 110),
                                (float)trt_rand_range(&rng, -0.1, 1.1), chance(&rng, 0.3) ? 0.0f : 0.3f);
        }
    }
}

Test(gmem_depth, every_compare_op_and_state, .timeout = 900)
{
    for (uint32_t seed = 1; seed <= 6; seed++) {
        gd_scene s;
        build_every_op(&s, seed);
        tr_pass_stats ref[MAX_PASSES];
        run_scene(&s, ref);
        cr_expect_gt(ref[0].fragments_rasterized, 50000, "%s", s.name);
        cr_expect_gt(ref[0].fragments_depth_rejected, 5000, "%s", s.name);
        cr_expect_gt(ref[0].fragments_discarded, 100, "%s", s.name);
        if (s.depth_format == TR_FORMAT_D32_SFLOAT_S8_UINT)
            cr_expect_gt(ref[0].fragments_stencil_rejected, 100, "%s", s.name);
        scene_free(&s);
    }
    EXPECT_NO_MISMATCH();
}

/* ---- scene E: depth loaded from an image with special values --------------------------------------- */

/* Per 8x8 block (framebuffer-aligned, as the block test's blocks) one of
 * these patterns, so that a block's farthest value is often an odd one. */
static float special(trt_rng *rng)
{
    static const float v[] = {NAN, -NAN, INFINITY, -INFINITY, -0.0f, 0.0f, 1.0f, -1.5f, 2.5f, 0x1p-140f, 0.5f,
                              1.0000001f, -0x1p-140f};
    return v[pick(rng, sizeof v / sizeof v[0])];
}

static void fill_loaded_depth(float *d, trt_rng *rng)
{
    for (uint32_t by = 0; by < H; by += 8)
        for (uint32_t bx = 0; bx < W; bx += 8) {
            const uint32_t pattern = pick(rng, 10);
            const float base = chance(rng, 0.2) ? 0.5f : (float)trt_rand_range(rng, 0, 1);
            const float lo = (float)trt_rand_range(rng, 0.05, 0.35), hi = (float)trt_rand_range(rng, 0.65, 0.95);
            /* for patterns 3/4: one column with a NaN on the block's first
             * row above the block's single far (3) or near (4) texel */
            const uint32_t col = pick(rng, 8), row = 1 + pick(rng, 7);
            const float far_v = pattern == 3 ? (chance(rng, 0.5) ? hi : chance(rng, 0.5) ? INFINITY : 2.5f)
                                             : (chance(rng, 0.5) ? lo : chance(rng, 0.5) ? -INFINITY : -1.5f);
            for (uint32_t y = by; y < by + 8 && y < H; y++)
                for (uint32_t x = bx; x < bx + 8 && x < W; x++) {
                    const uint32_t lx = x - bx, ly = y - by;
                    float z;
                    switch (pattern) {
                    case 0: z = base; break;                                      /* flat */
                    case 1: z = base + (float)trt_rand_range(rng, -0.02, 0.02); break; /* noisy */
                    case 2: z = special(rng); break;                              /* all odd values */
                    case 3: /* LESS: low block, one far texel under a NaN */
                        z = lx == col && ly == 0 ? NAN : lx == col && ly == row ? far_v : lo;
                        break;
                    case 4: /* GREATER: high block, one near texel under a NaN */
                        z = lx == col && ly == 0 ? NAN : lx == col && ly == row ? far_v : hi;
                        break;
                    case 5: z = chance(rng, 0.1) ? special(rng) : base; break;    /* sprinkled */
                    case 6: z = (lx + ly) & 1 ? -0.0f : 0.0f; break;              /* zeros */
                    case 7: z = chance(rng, 0.05) ? NAN : base; break;            /* NaN holes */
                    case 8: z = lx == col && ly == row ? 1.0f : lo; break;        /* one far texel */
                    default: z = lx == col && ly == row ? 0.0f : hi; break;       /* one near texel */
                    }
                    d[(size_t)y * W + x] = z;
                }
        }
}

static void build_loaded(gd_scene *s, uint32_t seed)
{
    scene_init(s, "depth loaded with NaN, inf, -0 and values outside [0, 1]", seed);
    const uint32_t v = (seed - 1) % 3 + 1; /* the variant; the seed picks the randomness */
    trt_rng rng = {0x10AD + seed};
    s->views = v == 3 ? 2 : 1;
    s->depth_format = v == 2 ? TR_FORMAT_D32_SFLOAT_S8_UINT : TR_FORMAT_D32_SFLOAT;
    s->depth_init = malloc(sizeof(float) * W * H * s->views);
    cr_assert_not_null(s->depth_init);
    for (uint32_t l = 0; l < s->views; l++)
        fill_loaded_depth(s->depth_init + (size_t)l * W * H, &rng);
    s->pass[0].depth_load = TR_LOAD_OP_LOAD;
    if (v == 2)
        s->pass[0].area = (tr_rect){3, 5, W - 3 - 4, H - 5 - 8};
    if (s->views == 2) {
        s->view_offset[1][0] = 0.05f;
        s->view_offset[1][1] = -0.03f;
    }
    /* Full-screen layers that do not write depth: each meets the loaded
     * texels, every op, constant and sloped depths. */
    static const tr_compare_op ops[8] = {TR_COMPARE_LESS,    TR_COMPARE_LESS_OR_EQUAL,    TR_COMPARE_GREATER,
                                         TR_COMPARE_GREATER_OR_EQUAL, TR_COMPARE_DEFAULT, TR_COMPARE_EQUAL,
                                         TR_COMPARE_NOT_EQUAL, TR_COMPARE_ALWAYS};
    for (int i = 0; i < 24; i++) {
        gd_draw *d = new_draw(s);
        d->compare = i < 16 ? ops[i % 5] : ops[pick(&rng, 8)];
        d->depth_write = 0;
        d->blend = 1;
        if (i % 4 == 3)
            d->scissor = random_rect(&rng, 30, 30);
        if (i % 6 == 5) {
            d->vp.min_depth = 0.75f;
            d->vp.max_depth = 0.25f;
        }
        float zl, zr;
        switch (i % 4) {
        case 0: zl = zr = 0.5f; break;
        case 1: zl = zr = (float)trt_rand_range(&rng, 0, 1); break;
        case 2: zl = 0.0f; zr = 1.0f; break;
        default: zl = (float)trt_rand_range(&rng, 0.3, 0.7); zr = zl + (float)trt_rand_range(&rng, -0.05, 0.05); break;
        }
        push_fullscreen(s, &rng, zl, zr);
    }
    /* Then writing triangles of both families, front to back. */
    static const uint32_t w[7] = {60, 8, 4, 4, 8, 3, 6};
    tri_spec t[50];
    for (int i = 0; i < 50; i++) {
        t[i].cx = (float)trt_rand_range(&rng, -15, W + 15);
        t[i].cy = (float)trt_rand_range(&rng, -15, H + 15);
        t[i].r = (float)trt_rand_range(&rng, 25, 100);
        t[i].zc = (float)trt_rand_range(&rng, 0.05, 0.95);
        t[i].slope = chance(&rng, 0.4) ? 0.0f : 0.15f;
    }
    qsort(t, 50, sizeof t[0], by_zc_up);
    for (int i = 0; i < 50; i++) {
        gd_draw *d = new_draw(s);
        d->compare = ops[pick(&rng, 5)];
        d->depth_write = chance(&rng, 0.8);
        random_shader(d, &rng, w);
        d->blend = chance(&rng, 0.3);
        push_random_tri(s, &rng, t[i].cx, t[i].cy, t[i].r, t[i].zc, t[i].slope);
    }
}

Test(gmem_depth, depth_loaded_with_special_values, .timeout = 900)
{
    for (uint32_t seed = 1; seed <= 6; seed++) {
        gd_scene s;
        build_loaded(&s, seed);
        tr_pass_stats ref[MAX_PASSES];
        run_scene(&s, ref);
        cr_expect_gt(ref[0].fragments_rasterized, 100000, "%s", s.name);
        cr_expect_gt(reject_share(&ref[0]), 0.3, "%s: only %.3f of the fragments depth-rejected", s.name,
                     reject_share(&ref[0]));
        scene_free(&s);
    }
    EXPECT_NO_MISMATCH();
}

/* A hand-made case of the NaN-over-a-far-texel pattern, alone: a block of
 * 0.2 whose column 3 has NaN on its first row and 0.9 below it, and one
 * full-screen LESS layer at 0.5 that does not write depth.  The pixel over
 * 0.9 passes the depth test (0.5 < 0.9); the NaN pixel and the others fail. */
static void build_nan_column(gd_scene *s, uint32_t which)
{
    static const char *const names[4] = {"NaN over a far texel, LESS", "NaN over a near texel, GREATER",
                                         "far texel over a NaN, LESS", "NaN on row 0 of every column but one, LESS"};
    scene_init(s, names[which], 0);
    trt_rng rng = {0x4A4E + which};
    s->depth_init = malloc(sizeof(float) * W * H);
    cr_assert_not_null(s->depth_init);
    const bool greater = which == 1;
    for (uint32_t i = 0; i < W * H; i++)
        s->depth_init[i] = greater ? 0.8f : 0.2f;
    /* block (16, 8): column 3 */
    float *b = s->depth_init + (size_t)8 * W + 16;
    switch (which) {
    case 0: b[3] = NAN; b[5 * W + 3] = 0.9f; break;
    case 1: b[3] = NAN; b[5 * W + 3] = 0.1f; break;
    case 2: b[3] = 0.9f; b[5 * W + 3] = NAN; break;
    default:
        for (int x = 0; x < 8; x++)
            if (x != 6)
                b[x] = NAN;
        b[7 * W + 2] = 0.9f;
        break;
    }
    s->pass[0].depth_load = TR_LOAD_OP_LOAD;
    gd_draw *d = new_draw(s);
    d->compare = greater ? TR_COMPARE_GREATER : TR_COMPARE_LESS;
    d->depth_write = 0;
    push_fullscreen(s, &rng, 0.5f, 0.5f);
}

Test(gmem_depth, nan_texels_in_a_block, .timeout = 900)
{
    for (uint32_t which = 0; which < 4; which++) {
        gd_scene s;
        build_nan_column(&s, which);
        tr_pass_stats ref[MAX_PASSES];
        run_scene(&s, ref);
        /* the reference: every pixel but the one over the passing texel fails */
        cr_expect_eq(ref[0].fragments_rasterized, (uint64_t)W * H, "%s", s.name);
        cr_expect_eq(ref[0].fragments_written, 1, "%s: %llu written", s.name,
                     (unsigned long long)ref[0].fragments_written);
        scene_free(&s);
    }
    EXPECT_NO_MISMATCH();
}

/* ---- ties at the ends of the depth range -------------------------------------------------------- */

/* The block test's range is clamped to the viewport's depth range, as the
 * fragments' depths are: at its ends a triangle's range collapses to the
 * end itself, exactly the stored value when the depth was cleared to it or
 * written there, and LEQUAL/GEQUAL must then pass (the test is strict).
 * Flat layers at ndc z 0 and 1, sloped ones clipped by the near and far
 * planes, full, narrow and reversed ranges, cleared or written ends. */
static void build_range_end_ties(gd_scene *s, uint32_t seed)
{
    scene_init(s, "ties at the ends of the depth range", seed);
    const uint32_t v = (seed - 1) % 3 + 1; /* the variant; the seed picks the randomness */
    trt_rng rng = {0x7E5 + seed};
    static const float clears[3] = {0.0f, 1.0f, 0.25f};
    s->pass[0].clear_depth = clears[v - 1];
    if (v == 2)
        s->pass[0].area = (tr_rect){3, 5, W - 3 - 5, H - 5 - 2};
    static const tr_viewport vps[4] = {{0, 0, W, H, 0.0f, 1.0f}, {0, 0, W, H, 0.25f, 0.75f},
                                       {0, 0, W, H, 1.0f, 0.0f}, {0, 0, W, H, 0.75f, 0.25f}};
    static const tr_compare_op ops[6] = {TR_COMPARE_LESS_OR_EQUAL, TR_COMPARE_GREATER_OR_EQUAL, TR_COMPARE_LESS,
                                         TR_COMPARE_GREATER, TR_COMPARE_DEFAULT, TR_COMPARE_LESS_OR_EQUAL};
    for (int i = 0; i < 60; i++) {
        gd_draw *d = new_draw(s);
        d->vp = vps[v == 3 ? 1 + (uint32_t)(i & 1) * 2 : pick(&rng, 4)];
        d->compare = ops[pick(&rng, 6)];
        /* mostly layers that leave the depth as it is, blended so that
         * every fragment that passes shows */
        d->depth_write = (i % 10) == 9 || chance(&rng, 0.15);
        if ((i % 10) == 9)
            d->compare = TR_COMPARE_ALWAYS; /* writes a range end everywhere it covers */
        d->blend = 1;
        if (chance(&rng, 0.3))
            d->scissor = random_rect(&rng, 20, 20);
        const float end = chance(&rng, 0.5) ? 0.0f : 1.0f;
        switch (pick(&rng, 3)) {
        case 0: push_fullscreen(s, &rng, end, end); break;
        case 1: /* sloped through the near or far plane: clipped there */
            push_random_tri(s, &rng, (float)trt_rand_range(&rng, 0, W), (float)trt_rand_range(&rng, 0, H),
                            (float)trt_rand_range(&rng, 40, 120), end, 0.4f);
            break;
        default:
            for (int k = 0; k < 3; k++)
                push_random_tri(s, &rng, (float)trt_rand_range(&rng, 0, W), (float)trt_rand_range(&rng, 0, H),
                                (float)trt_rand_range(&rng, 30, 90), end, 0.0f);
            break;
        }
    }
}

Test(gmem_depth, ties_at_the_ends_of_the_depth_range, .timeout = 900)
{
    for (uint32_t seed = 1; seed <= 6; seed++) {
        gd_scene s;
        build_range_end_ties(&s, seed);
        tr_pass_stats ref[MAX_PASSES];
        run_scene(&s, ref);
        cr_expect_gt(ref[0].fragments_written, 50000, "%s", s.name);
        cr_expect_gt(reject_share(&ref[0]), 0.2, "%s: only %.3f of the fragments depth-rejected", s.name,
                     reject_share(&ref[0]));
        scene_free(&s);
    }
    EXPECT_NO_MISMATCH();
}

/* ---- LRZ after a discarding draw with early tests --------------------------------------------- */

/* The smallest form of what front_to_back_less_family's seed 4 ran into
 * (there: draws 1-3, pixel (57,66)): with TR_FS_EARLY_TESTS a discarding
 * draw writes depth where its fragments are then discarded, so a nearer
 * depth than any colour write can reach the depth buffer.  An opaque layer
 * at 0.5, a discarding early-tests layer at 0.1 (depth 0.1 everywhere,
 * colour on two thirds), then an opaque LRZ writer at 0.3, which fails
 * everywhere but makes 0.3 the LRZ bound: LRZ then rejects the 0.5 layer,
 * whose colour must stay on the discarded third.  Images must be identical
 * with LRZ on and off (lrz.h); this tests it with every configuration of
 * the suite. */
static void build_early_discard_then_writer(gd_scene *s)
{
    scene_init(s, "opaque 0.5, early-tests discarding 0.1, opaque writer 0.3 (LRZ)", 0);
    trt_rng rng = {0xEAD};
    static const float z[3] = {0.5f, 0.1f, 0.3f};
    for (int i = 0; i < 3; i++) {
        gd_draw *d = new_draw(s);
        d->compare = TR_COMPARE_LESS;
        if (i == 1) {
            d->shader = SH_DISCARD;
            d->fs_extra = TR_FS_EARLY_TESTS;
        }
        push_fullscreen(s, &rng, z[i], z[i]);
    }
}

Test(gmem_depth, lrz_after_an_early_tests_discarding_depth_write, .timeout = 900)
{
    gd_scene s;
    build_early_discard_then_writer(&s);
    tr_pass_stats ref[MAX_PASSES];
    run_scene(&s, ref);
    /* the reference: the 0.5 layer everywhere, the discarding layer's
     * depth everywhere and its colour on about two thirds, the writer
     * rejected everywhere */
    cr_expect_eq(ref[0].fragments_rasterized, 3ull * W * H, "%s", s.name);
    cr_expect_eq(ref[0].fragments_depth_rejected, (uint64_t)W * H, "%s", s.name);
    cr_expect_gt(ref[0].fragments_discarded, W * H / 4, "%s", s.name);
    scene_free(&s);
    EXPECT_NO_MISMATCH();
}

/* ---- scene F: two views, tiny triangles, unaligned area ------------------------------------------ */

static void build_multiview_tiny(gd_scene *s, uint32_t seed)
{
    scene_init(s, "two views, tiny triangles", seed);
    const uint32_t v = (seed - 1) % 2 + 1; /* the variant; the seed picks the randomness */
    trt_rng rng = {0x7171 + seed};
    s->views = 2;
    s->view_offset[1][0] = 0.06f;
    s->view_offset[1][1] = -0.04f;
    s->pass[0].clear_depth = v == 2 ? 0.0f : 1.0f;
    s->pass[0].area = (tr_rect){5, 3, W - 5 - 7, H - 3 - 6};
    const bool greater = v == 2;
    const tr_compare_op op0 = greater ? TR_COMPARE_GREATER : TR_COMPARE_LESS;
    const tr_compare_op op1 = greater ? TR_COMPARE_GREATER_OR_EQUAL : TR_COMPARE_LESS_OR_EQUAL;
    /* near occluders, sloped */
    for (int i = 0; i < 6; i++) {
        gd_draw *d = new_draw(s);
        d->compare = op0;
        push_random_tri(s, &rng, (float)trt_rand_range(&rng, 0, W), (float)trt_rand_range(&rng, 0, H),
                        (float)trt_rand_range(&rng, 60, 120), greater ? 0.8f : 0.2f, 0.1f);
    }
    /* hundreds of tiny triangles at random depths, in a few draws */
    for (int dr = 0; dr < 8; dr++) {
        gd_draw *d = new_draw(s);
        d->compare = chance(&rng, 0.5) ? op0 : op1;
        d->depth_write = chance(&rng, 0.7);
        d->blend = chance(&rng, 0.5);
        if (dr & 1)
            d->scissor = random_rect(&rng, 40, 30);
        for (int i = 0; i < 60; i++)
            push_random_tri(s, &rng, (float)trt_rand_range(&rng, 0, W), (float)trt_rand_range(&rng, 0, H),
                            (float)trt_rand_range(&rng, 0.3, 5), (float)trt_rand_range(&rng, 0, 1), 0.02f);
    }
    /* big ones behind, front to back */
    greater_style gs = {0.0f, 1.0f};
    if (greater)
        add_big_tris(s, &rng, 40, 20, 90, 0.0f, 0.75f, 0.15f, -1, style_greater, &gs);
    else
        add_big_tris(s, &rng, 40, 20, 90, 0.25f, 1.0f, 0.15f, +1, style_less, NULL);
}

Test(gmem_depth, two_views_tiny_triangles_unaligned_area, .timeout = 900)
{
    for (uint32_t seed = 1; seed <= 4; seed++) {
        gd_scene s;
        build_multiview_tiny(&s, seed);
        tr_pass_stats ref[MAX_PASSES];
        run_scene(&s, ref);
        cr_expect_gt(ref[0].fragments_rasterized, 50000, "%s", s.name);
        cr_expect_gt(reject_share(&ref[0]), 0.4, "%s: only %.3f of the fragments depth-rejected", s.name,
                     reject_share(&ref[0]));
        scene_free(&s);
    }
    EXPECT_NO_MISMATCH();
}

/* ---- scene G: a second pass loads depth and reuses LRZ ---------------------------------------------- */

static void build_two_passes(gd_scene *s, uint32_t seed)
{
    scene_init(s, "two passes, the second loading depth (LRZ reused)", seed);
    const uint32_t v = (seed - 1) % 2 + 1; /* the variant; the seed picks the randomness */
    trt_rng rng = {0x2BA5 + seed};
    s->pass_count = 1;
    s->pass[0].clear_depth = 1.0f;
    add_big_tris(s, &rng, 30, 40, 110, 0.05f, 0.5f, 0.1f, +1, style_less, NULL);
    s->pass_count = 2;
    s->pass[1].depth_load = TR_LOAD_OP_LOAD;
    s->pass[1].first_draw = s->draw_count;
    if (v == 2)
        s->pass[1].area = (tr_rect){3, 5, W - 3 - 2, H - 5 - 9};
    add_big_tris(s, &rng, 60, 20, 100, 0.3f, 1.0f, 0.2f, +1, style_less, NULL);
}

Test(gmem_depth, second_pass_loads_depth, .timeout = 900)
{
    for (uint32_t seed = 1; seed <= 4; seed++) {
        gd_scene s;
        build_two_passes(&s, seed);
        tr_pass_stats ref[MAX_PASSES];
        run_scene(&s, ref);
        cr_expect_gt(ref[1].fragments_rasterized, 50000, "%s", s.name);
        cr_expect_gt(reject_share(&ref[1]), 0.5, "%s: only %.3f of the second pass's fragments depth-rejected",
                     s.name, reject_share(&ref[1]));
        scene_free(&s);
    }
    EXPECT_NO_MISMATCH();
}
