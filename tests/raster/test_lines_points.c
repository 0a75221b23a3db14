/* Lines and points (pipeline.h, "lines and points"): Bresenham lines by
 * the diamond-exit rule against a reference written pixel by pixel,
 * rectangular lines against the reference triangle rasterizer on their
 * snapped corners, points and their point coordinate, attributes along a
 * line, clipping, the same bits for every thread count, bin size and SIMD
 * level with LRZ on and off, LRZ tested but not written, multisampling,
 * and the errors. */
#include "trtest.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { W = 64, H = 48 };

/* Vertices in pixels (z, colour), and per-vertex point sizes. */
typedef struct lp_uniforms {
    const trt_vertex *v;
    const float *size; /* NULL: the vertex shader leaves the preset */
} lp_uniforms;

static void vs_lp(tr_vs_batch *b)
{
    const lp_uniforms *u = (const lp_uniforms *)b->uniforms;
    for (uint32_t i = 0; i < b->count; i++) {
        const trt_vertex *v = &u->v[b->vertex_index[i]];
        for (int c = 0; c < 4; c++) {
            b->position[c][i] = v->pos[c];
            b->varyings[0][c][i] = v->color[c];
        }
        if (u->size)
            b->point_size[i] = u->size[b->vertex_index[i]];
    }
}

/* Colour = varying 0; with points, green and blue are the point coordinate. */
static void fs_point_coord(tr_fs_block *b)
{
    for (uint32_t l = 0; l < b->count; l++) {
        b->color[0][0][l] = b->varyings[0][0][l];
        b->color[0][1][l] = b->point_coord[0][l];
        b->color[0][2][l] = b->point_coord[1][l];
        b->color[0][3][l] = 1.0f;
    }
}

static trt_vertex vpx(float x, float y, float r)
{
    const float c[4] = {r, 0, 0, 1};
    return trt_vpx(x, y, 0.5f, W, H, c);
}

typedef struct lp_opts {
    uint32_t threads;      /* 0 = 1 */
    uint32_t gmem_bytes;   /* 0 = default */
    tr_simd_level simd;    /* 0 = best */
    uint32_t pass_flags;
    float density;         /* > 0: a density map of this density everywhere */
    tr_device device;      /* 0 = default */
    uint32_t samples;      /* 0 = 1 (crc_scene) */
} lp_opts;

/* Draws n vertices with pd into a W x H float target cleared to -1;
 * px gets the RGBA floats. */
static void draw_lp(const tr_pipeline_desc *pd_in, const trt_vertex *v, uint32_t n, const float *sizes,
                    const lp_opts *o, float *px)
{
    tr_context_desc cd = {0};
    cd.threads = o && o->threads ? o->threads : 1;
    cd.gmem_bytes = o ? o->gmem_bytes : 0;
    cd.simd = o ? o->simd : TR_SIMD_DEFAULT;
    tr_context *ctx = trt_context_desc(&cd);
    tr_image *img = trt_image(ctx, TR_FORMAT_R32G32B32A32_SFLOAT, W, H);
    tr_pipeline_desc pd = *pd_in;
    pd.vertex_shader = vs_lp;
    tr_pipeline *p = trt_pipeline(ctx, &pd);
    static const float clear[4] = {-1, -1, -1, -1};
    tr_render_pass_desc rp = trt_pass_desc(img, NULL);
    memcpy(rp.color[0].clear_color, clear, sizeof clear);
    rp.flags |= o ? o->pass_flags : 0;
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
    TRT_OK(tr_cmd_bind_pipeline(ctx, p));
    const lp_uniforms u = {v, sizes};
    TRT_OK(tr_cmd_set_uniforms(ctx, &u, sizeof u));
    TRT_OK(tr_cmd_draw(ctx, n, 1, 0, 0));
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    trt_download(img, 0, 0, TR_ASPECT_DEFAULT, px);
    tr_context_destroy(ctx);
}

static void coverage(const float *px, uint8_t *map)
{
    for (int i = 0; i < W * H; i++)
        map[i] = px[4 * i] != -1.0f;
}

/* ---- reference: Bresenham lines, pixel by pixel ----------------------------------------------- */

static int64_t snap256(float p)
{
    return trt_snap((double)p);
}

static int64_t fdiv256(int64_t a)
{
    return a >= 0 ? a / 256 : -((-a + 255) / 256);
}

static bool diamond(int64_t x, int64_t y)
{
    const int64_t cx = fdiv256(x) * 256 + 128, cy = fdiv256(y) * 256 + 128;
    return llabs(x - cx) + llabs(y - cy) < 128;
}

/* Adds the pixels of a Bresenham line a -> b (pixels), width `width`, by
 * the rule of pipeline.h, one pixel at a time with exact integers. */
static void ref_bresenham(float ax, float ay, float bx, float by, int width, tr_tie_rule tie, uint8_t *acc)
{
    int64_t xa = snap256(ax), ya = snap256(ay), xb = snap256(bx), yb = snap256(by);
    const bool xmaj = llabs(xb - xa) >= llabs(yb - ya);
    if (!xmaj) { /* work x-major: swap the axes (the tie rule too, below) */
        int64_t t = xa;
        xa = ya, ya = t, t = xb, xb = yb, yb = t;
    }
    const int64_t dx = xb - xa, dy = yb - ya, h = (int64_t)width * 128;
    if (dx == 0)
        return;
    const bool a_in = diamond(xa, ya), b_in = diamond(xb, yb);
    const int64_t ka = fdiv256(xa), kb = fdiv256(xb), ra = fdiv256(ya), rb = fdiv256(yb);
    for (int64_t k = -2; k < (xmaj ? W : H) + 2; k++) {
        const int64_t xc = 256 * k + 128;
        bool col = (xc >= (xa < xb ? xa : xb) && xc <= (xa < xb ? xb : xa)) || (a_in && k == ka);
        if (b_in && k == kb)
            col = false;
        if (!col)
            continue;
        (void)ra, (void)rb;
        for (int64_t r = -2; r < (xmaj ? H : W) + 2; r++) {
            const int64_t yc = 256 * r + 128;
            /* (yc - line(xc)) * dx, with dx made positive */
            int64_t num = yc * dx - (ya * dx + dy * (xc - xa)), den = dx;
            if (den < 0)
                num = -num, den = -den;
            const double slope = (double)dy / (double)dx;
            bool in = num > -h * den && num < h * den;
            /* on the near side (smaller minor coordinate) or the far side:
             * owned as the strip's edge is.  In the swapped (y-major) frame
             * the roles of x and y exchange: "top" there is "left" here. */
            if (num == -h * den || num == h * den) {
                const bool near = num < 0;
                if (xmaj) {
                    /* top edge (interior below): left edge when the slope is
                     * negative; horizontal: a top edge */
                    in = tie == TR_TIE_TOP_LEFT ? (near ? slope <= 0 : slope > 0) : (near ? slope < 0 : slope >= 0);
                } else {
                    /* here "near" is the left side in the image: a left edge
                     * always owns; the right side owns never */
                    in = near;
                }
            }
            if (!in)
                continue;
            const int64_t px = xmaj ? k : r, py = xmaj ? r : k;
            if (px >= 0 && px < W && py >= 0 && py < H)
                acc[py * W + px]++;
        }
    }
}

/* ---- Bresenham ------------------------------------------------------------------------------ */

Test(lines, bresenham_by_hand)
{
    /* From pixel centre to pixel centre: the start's pixel, not the end's. */
    trt_vertex v[4] = {vpx(2.5f, 5.5f, 0.5f), vpx(10.5f, 5.5f, 0.5f), vpx(20.5f, 30.5f, 0.5f), vpx(20.5f, 22.5f, 0.5f)};
    tr_pipeline_desc pd = {0};
    pd.topology = TR_TOPOLOGY_LINE_LIST;
    pd.line_mode = TR_LINE_BRESENHAM;
    static float px[W * H * 4];
    draw_lp(&pd, v, 4, NULL, NULL, px);
    uint8_t got[W * H], want[W * H];
    coverage(px, got);
    memset(want, 0, sizeof want);
    for (int x = 2; x < 10; x++)
        want[5 * W + x] = 1;
    for (int y = 23; y <= 30; y++) /* upward: from row 30 to 23 */
        want[y * W + 20] = 1;
    trt_assert_maps_eq(got, want, W, H, "bresenham by hand");
}

Test(lines, bresenham_matches_reference)
{
    trt_rng rng = {11};
    for (int tie = 0; tie < 2; tie++)
        for (int width = 1; width <= 3; width++) {
            enum { N = 60 };
            trt_vertex v[2 * N];
            uint8_t want[W * H] = {0}, got[W * H];
            static float px[W * H * 4];
            for (int i = 0; i < N; i++) {
                /* a third of the endpoints on pixel centres, edges or the grid's ties */
                float c[4];
                for (int k = 0; k < 4; k++) {
                    const float lim = k & 1 ? H : W;
                    c[k] = trt_rand_coord(&rng, -4, lim + 4);
                    if (i % 3 == 0)
                        c[k] = floorf(c[k]) + (k < 2 ? 0.5f : 0.0f);
                }
                v[2 * i] = vpx(c[0], c[1], 1);
                v[2 * i + 1] = vpx(c[2], c[3], 1);
                memset(want, 0, sizeof want);
                ref_bresenham(c[0], c[1], c[2], c[3], width, (tr_tie_rule)tie, want);
                tr_pipeline_desc pd = {0};
                pd.topology = TR_TOPOLOGY_LINE_LIST;
                pd.line_mode = TR_LINE_BRESENHAM;
                pd.line_width = (float)width;
                pd.tie_rule = (tr_tie_rule)tie;
                draw_lp(&pd, &v[2 * i], 2, NULL, NULL, px);
                coverage(px, got);
                char what[128];
                snprintf(what, sizeof what, "line %d (%g,%g)-(%g,%g) width %d tie %d", i, c[0], c[1], c[2], c[3],
                         width, tie);
                trt_assert_maps_eq(got, want, W, H, what);
            }
        }
}

Test(lines, bresenham_strip_draws_shared_ends_once)
{
    /* A strip of x-major segments with additive blending: the end of one
     * is the start of the next, drawn once; no column twice. */
    trt_rng rng = {5};
    enum { N = 24 };
    trt_vertex v[N + 1];
    float x = 1.3f;
    for (int i = 0; i <= N; i++) {
        const float y = trt_rand_coord(&rng, 10, 38);
        v[i] = vpx(x, y, 1.0f / 64);
        x += trt_rand_coord(&rng, 1.5f, 2.6f) + (i % 4 == 0 ? 0.5f : 0); /* |dx| >= |dy| needs care: */
        if (i > 0 && fabsf(v[i].pos[1] - v[i - 1].pos[1]) * H / 2 > fabsf(v[i].pos[0] - v[i - 1].pos[0]) * W / 2)
            v[i].pos[1] = v[i - 1].pos[1]; /* keep every segment x-major */
    }
    tr_pipeline_desc pd = {0};
    pd.topology = TR_TOPOLOGY_LINE_STRIP;
    pd.line_mode = TR_LINE_BRESENHAM;
    pd.blend[0].enable = 1;
    pd.blend[0].src_color = pd.blend[0].dst_color = TR_BLEND_ONE;
    pd.blend[0].src_alpha = pd.blend[0].dst_alpha = TR_BLEND_ONE;
    static float px[W * H * 4];
    draw_lp(&pd, v, N + 1, NULL, NULL, px);
    uint32_t cols[W] = {0};
    for (int i = 0; i < W * H; i++) {
        const float r = px[4 * i];
        if (r == -1.0f)
            continue;
        cr_assert_eq(r, -1.0f + 1.0f / 64, "pixel (%d,%d) drawn more than once: %g", i % W, i / W, r);
        cols[i % W]++;
    }
    for (int c = 0; c < W; c++)
        cr_expect_leq(cols[c], 1u, "column %d has %u pixels", c, cols[c]);
}

/* ---- rectangular lines ------------------------------------------------------------------------ */

/* The reference: the two triangles of the snapped quad (pipeline.h). */
static void ref_rect_line(float ax, float ay, float bx, float by, float width, uint8_t *acc)
{
    const int64_t xa = snap256(ax), ya = snap256(ay), xb = snap256(bx), yb = snap256(by);
    const double dx = (double)(xb - xa), dy = (double)(yb - ya);
    if (dx == 0 && dy == 0)
        return;
    const double s = (double)width * 0.5 * 256 / sqrt(dx * dx + dy * dy);
    const int64_t tx = (int64_t)floor(-dy * s + 0.5), ty = (int64_t)floor(dx * s + 0.5);
    const float q[4][2] = {{(float)(xa - tx) / 256, (float)(ya - ty) / 256},
                           {(float)(xb - tx) / 256, (float)(yb - ty) / 256},
                           {(float)(xb + tx) / 256, (float)(yb + ty) / 256},
                           {(float)(xa + tx) / 256, (float)(ya + ty) / 256}};
    const float t1[3][2] = {{q[0][0], q[0][1]}, {q[1][0], q[1][1]}, {q[2][0], q[2][1]}};
    const float t2[3][2] = {{q[0][0], q[0][1]}, {q[2][0], q[2][1]}, {q[3][0], q[3][1]}};
    trt_ref_triangle(t1, TR_TIE_TOP_LEFT, W, H, acc);
    trt_ref_triangle(t2, TR_TIE_TOP_LEFT, W, H, acc);
}

Test(lines, rectangular_by_hand)
{
    /* Horizontal, width 2, from x = 2 to 10 at y = 5: rows 4 and 5,
     * columns 2..9; width 3 at y = 20.5: rows 19..21. */
    trt_vertex v[4] = {vpx(2, 5, 1), vpx(10, 5, 1), vpx(2, 20.5f, 1), vpx(10, 20.5f, 1)};
    tr_pipeline_desc pd = {0};
    pd.topology = TR_TOPOLOGY_LINE_LIST;
    pd.line_width = 2;
    static float px[W * H * 4];
    uint8_t got[W * H], want[W * H] = {0};
    draw_lp(&pd, v, 2, NULL, NULL, px);
    coverage(px, got);
    for (int y = 4; y <= 5; y++)
        for (int x = 2; x <= 9; x++)
            want[y * W + x] = 1;
    trt_assert_maps_eq(got, want, W, H, "width 2");
    pd.line_width = 3;
    draw_lp(&pd, v + 2, 2, NULL, NULL, px);
    coverage(px, got);
    memset(want, 0, sizeof want);
    for (int y = 19; y <= 21; y++)
        for (int x = 2; x <= 9; x++)
            want[y * W + x] = 1;
    trt_assert_maps_eq(got, want, W, H, "width 3");
}

Test(lines, rectangular_matches_reference)
{
    trt_rng rng = {23};
    for (int i = 0; i < 120; i++) {
        float c[4];
        for (int k = 0; k < 4; k++)
            c[k] = trt_rand_coord(&rng, -6, (k & 1 ? H : W) + 6);
        const float width = i % 4 == 0 ? 1.0f : (float)trt_rand_range(&rng, 1, 9);
        trt_vertex v[2] = {vpx(c[0], c[1], 1), vpx(c[2], c[3], 1)};
        tr_pipeline_desc pd = {0};
        pd.topology = TR_TOPOLOGY_LINE_STRIP;
        pd.line_width = width;
        static float px[W * H * 4];
        uint8_t got[W * H], want[W * H] = {0};
        draw_lp(&pd, v, 2, NULL, NULL, px);
        coverage(px, got);
        ref_rect_line(c[0], c[1], c[2], c[3], width, want);
        for (int p = 0; p < W * H; p++)
            cr_assert_leq(want[p], 1, "the quad's halves overlap at pixel %d", p);
        char what[128];
        snprintf(what, sizeof what, "line %d (%g,%g)-(%g,%g) width %g", i, c[0], c[1], c[2], c[3], (double)width);
        trt_assert_maps_eq(got, want, W, H, what);
    }
}

Test(lines, attributes_along_the_line_and_flat)
{
    /* Red from 0 to 1 over x = 0.5 .. 32.5: at pixel x's centre t = x / 32,
     * exact (a power of two); width 3 does not change it across. */
    trt_vertex v[2] = {vpx(0.5f, 10.5f, 0), vpx(32.5f, 10.5f, 1)};
    tr_pipeline_desc pd = {0};
    pd.topology = TR_TOPOLOGY_LINE_LIST;
    pd.line_width = 3;
    static float px[W * H * 4];
    draw_lp(&pd, v, 2, NULL, NULL, px);
    for (int y = 9; y <= 11; y++)
        for (int x = 0; x < 32; x++)
            cr_assert_eq(px[4 * (y * W + x)], (float)x / 32, "pixel (%d,%d): %g, want %g", x, y,
                         (double)px[4 * (y * W + x)], (double)x / 32);
    cr_expect_eq(px[4 * (10 * W + 32)], -1.0f, "the end's pixel");
    pd.flat_mask = 1;
    draw_lp(&pd, v, 2, NULL, NULL, px);
    for (int x = 0; x < 32; x++)
        cr_assert_eq(px[4 * (10 * W + x)], 0.0f, "flat: the first vertex's");
}

/* ---- points ----------------------------------------------------------------------------------- */

Test(points, squares_by_hand_and_point_coord)
{
    /* size 1 at a centre: that pixel; 2 at a corner: 2x2; 2 at a centre:
     * [4.5, 6.5]^2, whose left and top edges own the centres on them;
     * 3 at a centre: 3x3; 4 at (40, 8): columns and rows 38..41. */
    trt_vertex v[5] = {vpx(3.5f, 3.5f, 0.1f), vpx(10, 10, 0.2f), vpx(5.5f, 25.5f, 0.3f), vpx(20.5f, 20.5f, 0.4f),
                       vpx(40, 8, 0.5f)};
    const float sizes[5] = {1, 2, 2, 3, 4};
    tr_pipeline_desc pd = {0};
    pd.topology = TR_TOPOLOGY_POINT_LIST;
    pd.fragment_shader = fs_point_coord;
    static float px[W * H * 4];
    draw_lp(&pd, v, 5, sizes, NULL, px);
    uint8_t got[W * H], want[W * H] = {0};
    coverage(px, got);
    const int box[5][4] = {{3, 3, 3, 3}, {9, 9, 10, 10}, {4, 24, 5, 25}, {19, 19, 21, 21}, {38, 6, 41, 9}};
    for (int i = 0; i < 5; i++)
        for (int y = box[i][1]; y <= box[i][3]; y++)
            for (int x = box[i][0]; x <= box[i][2]; x++)
                want[y * W + x] = 1;
    trt_assert_maps_eq(got, want, W, H, "points");
    /* point coordinate of the size-4 point, square [38, 42] x [6, 10]:
     * ((x + 0.5 - 38) / 4, (y + 0.5 - 6) / 4), exact */
    for (int y = 6; y <= 9; y++)
        for (int x = 38; x <= 41; x++) {
            const float *p = &px[4 * (y * W + x)];
            cr_expect_eq(p[0], 0.5f);
            cr_expect_eq(p[1], ((float)x + 0.5f - 38) / 4, "pc.x at (%d,%d): %g", x, y, (double)p[1]);
            cr_expect_eq(p[2], ((float)y + 0.5f - 6) / 4, "pc.y at (%d,%d): %g", x, y, (double)p[2]);
        }
}

Test(points, size_clamped_and_culled_outside_the_volume)
{
    /* 100 -> 64 (the whole 64-wide target, from a point at its centre);
     * 0.25, -3 and NaN -> 1; a point just outside the right edge is
     * discarded although its square would reach in. */
    trt_vertex v[5] = {vpx(32, 24, 1), vpx(3.5f, 3.5f, 1), vpx(7.5f, 3.5f, 1), vpx(11.5f, 3.5f, 1),
                       vpx(64.25f, 30, 1)};
    const float sizes[5] = {100, 0.25f, -3, NAN, 8};
    tr_pipeline_desc pd = {0};
    pd.topology = TR_TOPOLOGY_POINT_LIST;
    static float px[W * H * 4];
    uint8_t got[W * H], want[W * H] = {0};
    draw_lp(&pd, v + 1, 4, sizes + 1, NULL, px); /* (draws vertices 0..3 of v + 1) */
    coverage(px, got);
    want[3 * W + 3] = want[3 * W + 7] = want[3 * W + 11] = 1;
    trt_assert_maps_eq(got, want, W, H, "small and outside");
    draw_lp(&pd, v, 1, sizes, NULL, px);
    coverage(px, got);
    memset(want, 1, sizeof want);
    trt_assert_maps_eq(got, want, W, H, "size 100 clamped to 64 covers the 64x48 target");
}

/* ---- the same bits everywhere ------------------------------------------------------------------- */

static uint32_t crc_scene(tr_topology topo, tr_line_mode mode, const lp_opts *o, bool lrz)
{
    trt_rng rng = {99};
    enum { N = 400 };
    static trt_vertex v[N];
    static float sizes[N];
    for (int i = 0; i < N; i++) {
        const float c[4] = {(float)trt_rand_range(&rng, 0, 1), (float)trt_rand_range(&rng, 0, 1), 0.25f, 1};
        v[i] = trt_vpx(trt_rand_coord(&rng, -8, 160), trt_rand_coord(&rng, -8, 120), (float)trt_rand_range(&rng, 0, 1),
                       160, 120, c);
        v[i].pos[3] = (float)trt_rand_range(&rng, 0.5, 3);
        for (int k = 0; k < 3; k++)
            v[i].pos[k] *= v[i].pos[3];
        sizes[i] = (float)trt_rand_range(&rng, 1, 12);
    }
    tr_context_desc cd = {0};
    cd.threads = o->threads ? o->threads : 1;
    cd.gmem_bytes = o->gmem_bytes;
    cd.simd = o->simd;
    cd.device = o->device;
    tr_context *ctx = trt_context_desc(&cd);
    const uint32_t ns = o->samples ? o->samples : 1;
    tr_image *img = trt_image_ms(ctx, TR_FORMAT_R8G8B8A8_UNORM, 160, 120, ns);
    tr_image *dep = trt_image_ms(ctx, TR_FORMAT_D32_SFLOAT, 160, 120, ns);
    tr_pipeline_desc pd = {0};
    pd.vertex_shader = vs_lp;
    pd.topology = topo;
    pd.line_mode = mode;
    pd.line_width = mode == TR_LINE_BRESENHAM ? 2.0f : 2.5f;
    pd.depth_test = pd.depth_write = 1;
    pd.fragment_shader = topo == TR_TOPOLOGY_POINT_LIST ? fs_point_coord : NULL;
    pd.multisample.samples = ns;
    tr_pipeline *p = trt_pipeline(ctx, &pd);
    tr_pipeline_desc tri = {0};
    tri.vertex_shader = vs_lp;
    tri.depth_test = tri.depth_write = 1;
    tri.multisample.samples = ns;
    tr_pipeline *pt = trt_pipeline(ctx, &tri);
    trt_begin_ms(ctx, img, dep, o->density, lrz ? 0u : TR_PASS_NO_LRZ);
    const lp_uniforms u = {v, sizes};
    TRT_OK(tr_cmd_set_uniforms(ctx, &u, sizeof u));
    TRT_OK(tr_cmd_bind_pipeline(ctx, pt));
    TRT_OK(tr_cmd_draw(ctx, 30, 1, 0, 0)); /* ten triangles write LRZ */
    TRT_OK(tr_cmd_bind_pipeline(ctx, p));
    TRT_OK(tr_cmd_draw(ctx, N - 30, 1, 30, 0));
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    const uint32_t crc = trt_crc_samples(img, dep, ns);
    tr_context_destroy(ctx);
    return crc;
}

Test(lines, same_bits_for_threads_bins_simd_and_lrz)
{
    const tr_topology topos[3] = {TR_TOPOLOGY_LINE_LIST, TR_TOPOLOGY_LINE_STRIP, TR_TOPOLOGY_POINT_LIST};
    const lp_opts cfg[5] = {{1, 0, TR_SIMD_SCALAR, 0, 0, 0, 0}, {3, 0, TR_SIMD_DEFAULT, 0, 0, 0, 0},
                            {1, 48 * 1024, TR_SIMD_SSE, 0, 0, 0, 0}, {2, 96 * 1024, TR_SIMD_DEFAULT, 0, 0, 0, 0},
                            {3, 32 * 1024, TR_SIMD_SCALAR, 0, 0, 0, 0}};
    for (int t = 0; t < 3; t++)
        for (int m = 0; m < 2; m++) {
            const uint32_t ref = crc_scene(topos[t], (tr_line_mode)m, &cfg[0], false);
            for (int c = 0; c < 5; c++)
                for (int lrz = 0; lrz < 2; lrz++)
                    cr_expect_eq(crc_scene(topos[t], (tr_line_mode)m, &cfg[c], lrz), ref,
                                 "topology %d mode %d config %d lrz %d", t, m, c, lrz);
        }
}

/* ---- LRZ: tested, never written -------------------------------------------------------------- */

Test(lines, lrz_tested_not_written)
{
    tr_context *ctx = trt_context(1);
    tr_image *img = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, W, H);
    tr_image *dep = trt_image(ctx, TR_FORMAT_D32_SFLOAT, W, H);
    /* a full-screen quad at z 0.25, then wide lines at z 0.75 behind it */
    trt_vertex q[6];
    const float c[4] = {1, 0, 0, 1};
    const float xy[6][2] = {{0, 0}, {W, 0}, {0, H}, {W, 0}, {W, H}, {0, H}};
    for (int i = 0; i < 6; i++)
        q[i] = trt_vpx(xy[i][0], xy[i][1], 0.25f, W, H, c);
    trt_vertex l[4] = {trt_vpx(2, 10, 0.75f, W, H, c), trt_vpx(60, 12, 0.75f, W, H, c), trt_vpx(4, 30, 0.75f, W, H, c),
                       trt_vpx(50, 44, 0.75f, W, H, c)};
    tr_pipeline_desc pd = {0};
    pd.vertex_shader = vs_lp;
    pd.depth_test = pd.depth_write = 1;
    tr_pipeline *tri = trt_pipeline(ctx, &pd);
    pd.topology = TR_TOPOLOGY_LINE_LIST;
    pd.line_width = 6;
    tr_pipeline *lines = trt_pipeline(ctx, &pd);
    for (int occluder = 0; occluder < 2; occluder++) {
        tr_render_pass_desc rp = trt_pass_desc(img, dep);
        TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
        if (occluder) {
            const lp_uniforms u = {q, NULL};
            TRT_OK(tr_cmd_set_uniforms(ctx, &u, sizeof u));
            TRT_OK(tr_cmd_bind_pipeline(ctx, tri));
            TRT_OK(tr_cmd_draw(ctx, 6, 1, 0, 0));
        }
        const lp_uniforms u = {l, NULL};
        TRT_OK(tr_cmd_set_uniforms(ctx, &u, sizeof u));
        TRT_OK(tr_cmd_bind_pipeline(ctx, lines));
        TRT_OK(tr_cmd_draw(ctx, 4, 1, 0, 0));
        tr_pass_stats st;
        TRT_OK(tr_cmd_end_render_pass(ctx, &st));
        if (occluder) {
            /* the quad writes its 8x6 texels; the lines are rejected by them */
            cr_expect_eq(st.lrz_blocks_written, 48u);
            cr_expect_gt(st.lrz_blocks_rejected, 0u);
            cr_expect_eq(st.fragments_written, (uint64_t)W * H, "the quad's only");
        } else {
            cr_expect_eq(st.lrz_blocks_written, 0u, "lines write no LRZ");
            cr_expect_gt(st.fragments_written, 0u);
        }
    }
    tr_context_destroy(ctx);
}

/* ---- multisampling --------------------------------------------------------------------------- */

Test(points, multisampled_square_covers_its_samples)
{
    /* A size-2 point on a pixel corner at 4x covers the four pixels' every
     * sample (the square is their areas); a 1-wide rectangular line along
     * a pixel row's middle covers the samples within half a pixel. */
    tr_context *ctx = trt_context(1);
    tr_image *img = trt_image_ms(ctx, TR_FORMAT_R32G32B32A32_SFLOAT, W, H, 4);
    tr_pipeline_desc pd = {0};
    pd.vertex_shader = vs_lp;
    pd.topology = TR_TOPOLOGY_POINT_LIST;
    pd.multisample.samples = 4;
    tr_pipeline *p = trt_pipeline(ctx, &pd);
    pd.topology = TR_TOPOLOGY_LINE_LIST;
    pd.line_mode = TR_LINE_BRESENHAM;
    tr_pipeline *bad = NULL;
    cr_expect_eq(tr_pipeline_create(ctx, &pd, &bad), TR_ERROR_INVALID_DESCRIPTOR, "Bresenham at 4x");
    trt_begin_ms(ctx, img, NULL, 0, 0);
    trt_vertex v[1] = {vpx(10, 10, 1)};
    const float size = 2;
    const lp_uniforms u = {v, &size};
    TRT_OK(tr_cmd_set_uniforms(ctx, &u, sizeof u));
    TRT_OK(tr_cmd_bind_pipeline(ctx, p));
    TRT_OK(tr_cmd_draw(ctx, 1, 1, 0, 0));
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    for (uint32_t s = 0; s < 4; s++) {
        static float px[W * H * 4];
        tr_subresource sub = {0, 0, TR_ASPECT_DEFAULT, s};
        TRT_OK(tr_image_download(img, &sub, px, 0));
        for (int y = 7; y <= 12; y++)
            for (int x = 7; x <= 12; x++) {
                const bool in = x >= 9 && x <= 10 && y >= 9 && y <= 10;
                cr_expect_eq(px[4 * (y * W + x)], in ? 1.0f : 0.0f, "sample %u of (%d,%d)", s, x, y);
            }
    }
    tr_context_destroy(ctx);
}

/* ---- errors --------------------------------------------------------------------------------- */

Test(lines, errors)
{
    tr_context *ctx = trt_context(1);
    tr_pipeline_desc pd = {0};
    pd.vertex_shader = vs_lp;
    pd.topology = TR_TOPOLOGY_LINE_LIST;
    tr_pipeline *p = NULL;
    const float widths[4] = {0.5f, 64.5f, NAN, -1};
    for (int i = 0; i < 4; i++) {
        pd.line_width = widths[i];
        cr_expect_eq(tr_pipeline_create(ctx, &pd, &p), TR_ERROR_LIMIT_EXCEEDED, "width %g", (double)widths[i]);
        cr_expect_null(p);
        cr_expect_not_null(strstr(tr_context_last_error(ctx), "line_width"), "%s", tr_context_last_error(ctx));
    }
    pd.line_width = 64;
    TRT_OK(tr_pipeline_create(ctx, &pd, &p));
    tr_pipeline_destroy(p);
    pd.line_width = 1;
    pd.topology = (tr_topology)(TR_TOPOLOGY_LINE_STRIP + 1);
    cr_expect_eq(tr_pipeline_create(ctx, &pd, &p), TR_ERROR_INVALID_ARGUMENT);
    pd.topology = TR_TOPOLOGY_LINE_LIST;
    pd.line_mode = (tr_line_mode)7;
    cr_expect_eq(tr_pipeline_create(ctx, &pd, &p), TR_ERROR_INVALID_ARGUMENT);
    tr_context_destroy(ctx);
}

/* ---- fragment density maps ----------------------------------------------------------------- */

Test(lines, density_maps)
{
    /* Density 1.0 everywhere (255) draws what no map draws; at half
     * density (2x2 fragments) lines and points are set up again in each
     * bin, the same bits for every thread count, GMEM budget and with the
     * a740's bin scaling, and not the full-scale image. */
    const tr_topology topos[3] = {TR_TOPOLOGY_LINE_LIST, TR_TOPOLOGY_LINE_STRIP, TR_TOPOLOGY_POINT_LIST};
    for (int t = 0; t < 3; t++)
        for (int m = 0; m < 2; m++) {
            const lp_opts none = {1, 0, TR_SIMD_DEFAULT, 0, 0, 0, 0};
            const lp_opts full = {2, 0, TR_SIMD_DEFAULT, 0, 1.0f, 0, 0};
            const uint32_t ref = crc_scene(topos[t], (tr_line_mode)m, &none, true);
            cr_expect_eq(crc_scene(topos[t], (tr_line_mode)m, &full, true), ref, "density 1: topology %d mode %d", t,
                         m);
            const lp_opts half[4] = {{1, 0, TR_SIMD_DEFAULT, 0, 0.5f, 0, 0},
                                     {3, 0, TR_SIMD_DEFAULT, 0, 0.5f, 0, 0},
                                     {2, 48 * 1024, TR_SIMD_SCALAR, 0, 0.5f, 0, 0},
                                     {2, 0, TR_SIMD_DEFAULT, 0, 0.5f, TR_DEVICE_A740, 0}};
            const uint32_t h0 = crc_scene(topos[t], (tr_line_mode)m, &half[0], true);
            cr_expect_neq(h0, ref, "half density draws coarse fragments: topology %d mode %d", t, m);
            for (int c = 1; c < 4; c++)
                for (int lrz = 0; lrz < 2; lrz++)
                    cr_expect_eq(crc_scene(topos[t], (tr_line_mode)m, &half[c], lrz), h0,
                                 "half density: topology %d mode %d config %d lrz %d", t, m, c, lrz);
        }
}

Test(lines, density_map_widens_in_framebuffer_pixels)
{
    /* A horizontal Bresenham line of width 1 in 2x2 fragments covers one
     * coarse row: two framebuffer rows, and whole coarse columns. */
    tr_context *ctx = trt_context(1);
    tr_image *img = trt_image(ctx, TR_FORMAT_R32G32B32A32_SFLOAT, W, H);
    tr_pipeline_desc pd = {0};
    pd.vertex_shader = vs_lp;
    pd.topology = TR_TOPOLOGY_LINE_LIST;
    pd.line_mode = TR_LINE_BRESENHAM;
    tr_pipeline *p = trt_pipeline(ctx, &pd);
    trt_begin_ms(ctx, img, NULL, 0.5f, 0);
    trt_vertex v[2] = {vpx(4.5f, 10.5f, 1), vpx(20.5f, 10.5f, 1)};
    const lp_uniforms u = {v, NULL};
    TRT_OK(tr_cmd_set_uniforms(ctx, &u, sizeof u));
    TRT_OK(tr_cmd_bind_pipeline(ctx, p));
    TRT_OK(tr_cmd_draw(ctx, 2, 1, 0, 0));
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    static float px[W * H * 4];
    trt_download(img, 0, 0, TR_ASPECT_DEFAULT, px);
    uint8_t got[W * H], want[W * H] = {0};
    for (int i = 0; i < W * H; i++) /* (cleared to 0; the line is 1) */
        got[i] = px[4 * i] == 1.0f;
    /* coarse pixels: x 2..9 (centres 5..19 in framebuffer pixels: from the
     * start's coarse pixel, 2.25 -> column 2, to before the end's, 10.25),
     * row 5 (framebuffer rows 10, 11) */
    for (int y = 10; y <= 11; y++)
        for (int x = 4; x < 20; x++)
            want[y * W + x] = 1;
    trt_assert_maps_eq(got, want, W, H, "a line at half density");
    tr_context_destroy(ctx);
}

Test(lines, multisampled_same_bits)
{
    /* 4x: rectangular lines and points, the same samples for every thread
     * count, budget and with LRZ on or off; density 1.0 as no map; half
     * density the same for two configurations. */
    const tr_topology topos[2] = {TR_TOPOLOGY_LINE_STRIP, TR_TOPOLOGY_POINT_LIST};
    for (int t = 0; t < 2; t++) {
        const lp_opts base = {1, 0, TR_SIMD_DEFAULT, 0, 0, 0, 4};
        const uint32_t ref = crc_scene(topos[t], TR_LINE_RECTANGULAR, &base, false);
        const lp_opts cfg[3] = {{3, 0, TR_SIMD_DEFAULT, 0, 0, 0, 4},
                                {2, 64 * 1024, TR_SIMD_SCALAR, 0, 0, 0, 4},
                                {2, 0, TR_SIMD_DEFAULT, 0, 1.0f, 0, 4}};
        for (int c = 0; c < 3; c++)
            for (int lrz = 0; lrz < 2; lrz++)
                cr_expect_eq(crc_scene(topos[t], TR_LINE_RECTANGULAR, &cfg[c], lrz), ref,
                             "4x topology %d config %d lrz %d", t, c, lrz);
        const lp_opts half[2] = {{1, 0, TR_SIMD_DEFAULT, 0, 0.5f, 0, 4}, {3, 64 * 1024, TR_SIMD_DEFAULT, 0, 0.5f, 0, 4}};
        const uint32_t h0 = crc_scene(topos[t], TR_LINE_RECTANGULAR, &half[0], true);
        cr_expect_neq(h0, ref);
        cr_expect_eq(crc_scene(topos[t], TR_LINE_RECTANGULAR, &half[1], false), h0, "4x half density, topology %d", t);
    }
}
