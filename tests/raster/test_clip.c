/* Clipping: triangles crossing the viewport edges, the near and far planes
 * and w = 0, triangles entirely outside, enormous and NaN coordinates.
 * Expected images come from the triangle itself (reference rasterizer or an
 * exact homogeneous inside test in double), never from the library. */
#include "trtest.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- viewport edges: an "infinite" viewport ------------------------------------------- */

Test(raster, viewport_edges_match_shifted_larger_target)
{
    enum { SW = 32, SH = 32, SHIFT = 64, BW = 160, BH = 160, N = 40 };
    trt_rng rng = {77};
    float small[3 * N][2], big[3 * N][2];
    uint8_t want[SW * SH] = {0};
    for (int t = 0; t < N; t++) {
        for (int k = 0; k < 3; k++) {
            float x = trt_rand_coord(&rng, -48, 80), y = trt_rand_coord(&rng, -48, 80);
            small[3 * t + k][0] = x;
            small[3 * t + k][1] = y;
            big[3 * t + k][0] = x + SHIFT;
            big[3 * t + k][1] = y + SHIFT;
        }
        trt_ref_triangle((const float(*)[2])small[3 * t], TR_TIE_TOP_LEFT, SW, SH, want);
    }
    uint8_t got[SW * SH], *whole = malloc(BW * BH), crop[SW * SH];
    cr_assert_not_null(whole);
    trt_hit_opts o = {0};
    o.threads = 2;
    trt_hit_counts(&o, SW, SH, (const float(*)[2])small, 3 * N, got, NULL);
    trt_hit_counts(&o, BW, BH, (const float(*)[2])big, 3 * N, whole, NULL);
    for (int y = 0; y < SH; y++)
        for (int x = 0; x < SW; x++)
            crop[y * SW + x] = whole[(y + SHIFT) * BW + x + SHIFT];
    trt_assert_maps_eq(got, crop, SW, SH, "32x32 vs the same area of a shifted 160x160 target");
    trt_assert_maps_eq(got, want, SW, SH, "32x32 vs reference");
    free(whole);
}

Test(raster, viewport_edges_bottom_left_rule)
{
    enum { SW = 24, SH = 40, N = 30 };
    trt_rng rng = {78};
    float pts[3 * N][2];
    uint8_t want[SW * SH] = {0}, got[SW * SH];
    for (int t = 0; t < N; t++) {
        for (int k = 0; k < 3; k++) {
            /* half-pixel grid: centres on edges and on the target border */
            pts[3 * t + k][0] = (float)((int)(trt_rand_u32(&rng) % 140) - 50) * 0.5f;
            pts[3 * t + k][1] = (float)((int)(trt_rand_u32(&rng) % 200) - 60) * 0.5f;
        }
        trt_ref_triangle((const float(*)[2])pts[3 * t], TR_TIE_BOTTOM_LEFT, SW, SH, want);
    }
    trt_hit_opts o = {0};
    o.tie_rule = TR_TIE_BOTTOM_LEFT;
    trt_hit_counts(&o, SW, SH, (const float(*)[2])pts, 3 * N, got, NULL);
    trt_assert_maps_eq(got, want, SW, SH, "edge-crossing triangles, BOTTOM_LEFT");
}

/* Distance from p to the line a-b (pixels). */
static double line_dist(const double p[2], const double a[2], const double b[2])
{
    double dx = b[0] - a[0], dy = b[1] - a[1];
    return fabs(dx * (p[1] - a[1]) - dy * (p[0] - a[0])) / sqrt(dx * dx + dy * dy);
}

/* Checks a count map against a triangle given in pixel coordinates (double),
 * ignoring pixels whose centre is within 1/64 px of an edge line: those
 * depend on how far the clipper's new vertices moved. */
static void check_far_from_edges(const double tri[3][2], const uint8_t *got, uint32_t w,
                                 uint32_t h, const char *what)
{
    uint32_t checked = 0;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            double p[2] = {x + 0.5, y + 0.5}, s[3];
            double dmin = 1e300;
            for (int e = 0; e < 3; e++) {
                const double *a = tri[e], *b = tri[(e + 1) % 3];
                s[e] = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
                double d = line_dist(p, a, b);
                if (d < dmin)
                    dmin = d;
            }
            if (dmin <= 1.0 / 64)
                continue;
            int in = (s[0] > 0 && s[1] > 0 && s[2] > 0) || (s[0] < 0 && s[1] < 0 && s[2] < 0);
            cr_assert_eq(got[y * w + x], in, "%s: pixel (%u,%u) is %u, expected %d", what, x, y,
                         got[y * w + x], in);
            checked++;
        }
    cr_assert_gt(checked, w * h / 2, "%s: too few pixels checked", what);
}

Test(raster, large_triangles_crossing_the_target)
{
    /* Clip-space triangles of growing size (w = 1) whose edges still cross
     * the 32x32 target, so that any clipping they need shows. */
    enum { SW = 32, SH = 32 };
    /* 1e6 puts the vertices near 1.6e7 px, far outside the guard band. */
    static const double scales[] = {3, 30, 300, 3000, 3e4, 3e5, 1e6};
    for (size_t i = 0; i < sizeof scales / sizeof scales[0]; i++) {
        double S = scales[i];
        /* an edge along y = 0.3 x + 0.1 crosses the target; the other two
         * vertices lie far out */
        double ndc[3][2] = {{-S, -0.3 * S + 0.1}, {S, 0.3 * S + 0.1}, {-S, S}};
        trt_vertex v[3];
        double px[3][2];
        for (int k = 0; k < 3; k++) {
            memset(&v[k], 0, sizeof v[k]);
            v[k].pos[0] = (float)ndc[k][0];
            v[k].pos[1] = (float)ndc[k][1];
            v[k].pos[2] = 0.5f;
            v[k].pos[3] = 1.0f;
            px[k][0] = ((double)v[k].pos[0] + 1) * 0.5 * SW;
            px[k][1] = ((double)v[k].pos[1] + 1) * 0.5 * SH;
        }
        uint8_t got[SW * SH];
        trt_hit_counts_clip(NULL, SW, SH, v, 3, got, NULL);
        check_far_from_edges((const double(*)[2])px, got, SW, SH, "large triangle");
    }
}

/* ---- near and far planes -------------------------------------------------------------------- */

typedef struct depth_target {
    tr_context *ctx;
    tr_image *color, *depth;
    tr_pipeline *pipe;
} depth_target;

static depth_target depth_setup(uint32_t w, uint32_t h, tr_compare_op op)
{
    depth_target t;
    t.ctx = trt_context(2);
    t.color = trt_image(t.ctx, TR_FORMAT_R8G8B8A8_UNORM, w, h);
    t.depth = trt_image(t.ctx, TR_FORMAT_D32_SFLOAT, w, h);
    tr_pipeline_desc pd = {0};
    pd.depth_test = 1;
    pd.depth_write = 1;
    pd.depth_compare = op;
    t.pipe = trt_pipeline(t.ctx, &pd);
    return t;
}

static void depth_begin(depth_target *t, float clear_depth)
{
    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.color_count = 1;
    rp.color[0].image = t->color;
    rp.color[0].load_op = TR_LOAD_OP_CLEAR;
    rp.depth.image = t->depth;
    rp.depth.depth_load_op = TR_LOAD_OP_CLEAR;
    rp.depth.clear_depth = clear_depth;
    TRT_OK(tr_cmd_begin_render_pass(t->ctx, &rp));
    TRT_OK(tr_cmd_bind_pipeline(t->ctx, t->pipe));
}

Test(raster, near_and_far_planes_clip_depth)
{
    /* z = (x - 8) / 16 in pixels, w = 1: the part with z < 0 (x < 8) and the
     * part with z > 1 (x > 24) are clipped; the clip lines lie on pixel
     * borders, so columns 8..23 are drawn with depth (x + 0.5 - 8) / 16. */
    enum { SW = 32, SH = 32 };
    depth_target t = depth_setup(SW, SH, TR_COMPARE_ALWAYS);
    static const float white[4] = {1, 1, 1, 1};
    trt_vertex v[3] = {
        trt_vpx(-16, -16, (-16 - 8) / 16.0f, SW, SH, white),
        trt_vpx(80, -16, (80 - 8) / 16.0f, SW, SH, white),
        trt_vpx(-16, 80, (-16 - 8) / 16.0f, SW, SH, white),
    };
    depth_begin(&t, 1.0f);
    trt_draw(t.ctx, v, 3);
    tr_pass_stats st;
    TRT_OK(tr_cmd_end_render_pass(t.ctx, &st));
    uint8_t rgba[SW * SH * 4];
    float depth[SW * SH];
    trt_download(t.color, 0, 0, TR_ASPECT_DEFAULT, rgba);
    trt_download(t.depth, 0, 0, TR_ASPECT_DEPTH, depth);
    for (int y = 0; y < SH; y++)
        for (int x = 0; x < SW; x++) {
            int in = x >= 8 && x <= 23;
            cr_assert_eq(rgba[(y * SW + x) * 4], in ? 255 : 0, "pixel (%d,%d)", x, y);
            float want = in ? (x + 0.5f - 8.0f) / 16.0f : 1.0f;
            cr_assert_float_eq(depth[y * SW + x], want, 1e-5, "depth at (%d,%d) is %.8g, want %.8g",
                               x, y, depth[y * SW + x], want);
        }
    cr_expect_eq(st.fragments_rasterized, 16 * SH);
    cr_expect_geq(st.primitives_clipped, 1);
    tr_context_destroy(t.ctx);
}

Test(raster, depth_exactly_on_near_and_far_is_kept)
{
    /* z = 0 and z = w exactly are inside the clip volume. */
    enum { SW = 16, SH = 16 };
    depth_target t = depth_setup(SW, SH, TR_COMPARE_ALWAYS);
    for (int far = 0; far < 2; far++) {
        float z = far ? 1.0f : 0.0f;
        trt_vertex v[6] = {
            trt_vpx(0, 0, z, SW, SH, NULL), trt_vpx(16, 0, z, SW, SH, NULL),
            trt_vpx(16, 16, z, SW, SH, NULL), trt_vpx(0, 0, z, SW, SH, NULL),
            trt_vpx(16, 16, z, SW, SH, NULL), trt_vpx(0, 16, z, SW, SH, NULL),
        };
        depth_begin(&t, 0.5f);
        trt_draw(t.ctx, v, 6);
        TRT_OK(tr_cmd_end_render_pass(t.ctx, NULL));
        float depth[SW * SH];
        trt_download(t.depth, 0, 0, TR_ASPECT_DEPTH, depth);
        for (int i = 0; i < SW * SH; i++)
            cr_assert_eq(depth[i], z, "z = %g: depth[%d] = %g", z, i, depth[i]);
    }
    tr_context_destroy(t.ctx);
}

/* ---- homogeneous reference: w = 0 crossings ------------------------------------------------ */

/* Inverse of M = [x_i; y_i; w_i] in homogeneous pixel coordinates
 * (x_px_h = (x + w) * W/2): beta = Minv * (px, py, 1) gives the (scaled)
 * barycentrics of the point of the triangle seen through that pixel; the
 * pixel sees the triangle in front of the eye iff every beta > 0. */
typedef struct homog {
    double inv[3][3];
} homog;

static homog homog_setup(const trt_vertex v[3], uint32_t w, uint32_t h)
{
    double m[3][3];
    for (int k = 0; k < 3; k++) {
        double x = v[k].pos[0], y = v[k].pos[1], ww = v[k].pos[3];
        m[0][k] = (x + ww) * 0.5 * w;
        m[1][k] = (y + ww) * 0.5 * h;
        m[2][k] = ww;
    }
    double det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
                 m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
                 m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
    cr_assert(fabs(det) > 1e-9);
    homog r;
    r.inv[0][0] = (m[1][1] * m[2][2] - m[1][2] * m[2][1]) / det;
    r.inv[0][1] = (m[0][2] * m[2][1] - m[0][1] * m[2][2]) / det;
    r.inv[0][2] = (m[0][1] * m[1][2] - m[0][2] * m[1][1]) / det;
    r.inv[1][0] = (m[1][2] * m[2][0] - m[1][0] * m[2][2]) / det;
    r.inv[1][1] = (m[0][0] * m[2][2] - m[0][2] * m[2][0]) / det;
    r.inv[1][2] = (m[0][2] * m[1][0] - m[0][0] * m[1][2]) / det;
    r.inv[2][0] = (m[1][0] * m[2][1] - m[1][1] * m[2][0]) / det;
    r.inv[2][1] = (m[0][1] * m[2][0] - m[0][0] * m[2][1]) / det;
    r.inv[2][2] = (m[0][0] * m[1][1] - m[0][1] * m[1][0]) / det;
    return r;
}

/* beta at pixel centre; returns the distance (pixels) to the nearest line
 * beta_k = 0. */
static double homog_beta(const homog *hm, double px, double py, double beta[3])
{
    double dmin = 1e300;
    for (int k = 0; k < 3; k++) {
        beta[k] = hm->inv[k][0] * px + hm->inv[k][1] * py + hm->inv[k][2];
        double g = sqrt(hm->inv[k][0] * hm->inv[k][0] + hm->inv[k][1] * hm->inv[k][1]);
        double d = g > 0 ? fabs(beta[k]) / g : 1e300;
        if (d < dmin)
            dmin = d;
    }
    return dmin;
}

static void check_homog(const trt_vertex v[3], uint32_t w, uint32_t h, const uint8_t *got,
                        const char *what, uint32_t *inside_count)
{
    homog hm = homog_setup(v, w, h);
    uint32_t checked = 0, inside = 0;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            double b[3];
            if (homog_beta(&hm, x + 0.5, y + 0.5, b) <= 1.0 / 64)
                continue;
            int in = b[0] > 0 && b[1] > 0 && b[2] > 0;
            cr_assert_eq(got[y * w + x], in, "%s: pixel (%u,%u) is %u, expected %d", what, x, y,
                         got[y * w + x], in);
            checked++;
            inside += in;
        }
    cr_assert_gt(checked, w * h / 2, "%s: too few pixels checked", what);
    if (inside_count)
        *inside_count = inside;
}

static trt_vertex cv(float x, float y, float w)
{
    trt_vertex v;
    memset(&v, 0, sizeof v);
    v.pos[0] = x;
    v.pos[1] = y;
    v.pos[2] = 0.5f * w; /* z/w = 0.5 wherever w > 0 */
    v.pos[3] = w;
    v.color[0] = v.color[1] = v.color[2] = v.color[3] = 1;
    return v;
}

Test(raster, one_vertex_behind_the_eye)
{
    enum { SW = 48, SH = 40 };
    static const float cases[][3][3] = {
        {{-0.6f, -0.5f, 1.0f}, {0.7f, -0.2f, 1.5f}, {0.2f, 0.9f, -1.0f}},
        {{-0.9f, 0.3f, 0.5f}, {0.4f, -0.8f, 2.0f}, {-0.3f, -0.2f, -0.25f}},
        {{0.1f, 0.1f, 1.0f}, {0.3f, 0.05f, 1.0f}, {5.0f, 3.0f, -0.001f}},
        /* two vertices behind */
        {{-0.2f, -0.6f, 1.0f}, {0.5f, 0.4f, -2.0f}, {-0.8f, 0.7f, -0.5f}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        trt_vertex v[3];
        for (int k = 0; k < 3; k++)
            v[k] = cv(cases[i][k][0], cases[i][k][1], cases[i][k][2]);
        uint8_t got[SW * SH];
        tr_pass_stats st;
        trt_hit_counts_clip(NULL, SW, SH, v, 3, got, &st);
        uint32_t inside = 0;
        check_homog(v, SW, SH, got, "w crosses 0", &inside);
        cr_assert_gt(inside, 20, "case %zu: the visible part should cover pixels", i);
        cr_expect_geq(st.primitives_clipped, 1, "case %zu", i);
    }
}

Test(raster, varyings_stay_perspective_correct_after_clipping)
{
    /* Varying = (1,0,0), (0,1,0), (0,0,1): the output is the perspective-
     * correct barycentric b = beta / sum(beta), one vertex behind the eye. */
    enum { SW = 32, SH = 32 };
    tr_context *ctx = trt_context(2);
    tr_image *img = trt_image(ctx, TR_FORMAT_R32G32B32A32_SFLOAT, SW, SH);
    tr_pipeline *pipe = trt_pipeline(ctx, NULL);
    trt_vertex v[3] = {cv(-0.8f, -0.7f, 1.0f), cv(0.9f, -0.3f, 2.0f), cv(0.1f, 0.8f, -0.5f)};
    for (int k = 0; k < 3; k++) {
        memset(v[k].color, 0, sizeof v[k].color);
        v[k].color[k] = 1.0f;
        v[k].color[3] = 1.0f;
    }
    static const float clear[4] = {-1, -1, -1, -1};
    trt_begin_color(ctx, img, clear);
    TRT_OK(tr_cmd_bind_pipeline(ctx, pipe));
    trt_draw(ctx, v, 3);
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    float px[SW * SH * 4];
    trt_download(img, 0, 0, TR_ASPECT_DEFAULT, px);
    homog hm = homog_setup(v, SW, SH);
    uint32_t checked = 0;
    for (uint32_t y = 0; y < SH; y++)
        for (uint32_t x = 0; x < SW; x++) {
            double b[3];
            if (homog_beta(&hm, x + 0.5, y + 0.5, b) <= 1.0 / 16)
                continue;
            const float *p = &px[(y * SW + x) * 4];
            if (!(b[0] > 0 && b[1] > 0 && b[2] > 0)) {
                cr_assert_eq(p[0], -1.0f, "(%u,%u) outside but drawn", x, y);
                continue;
            }
            double s = b[0] + b[1] + b[2];
            for (int k = 0; k < 3; k++)
                cr_assert_float_eq(p[k], b[k] / s, 2e-3, "(%u,%u) varying %d = %g, want %g", x, y,
                                   k, p[k], b[k] / s);
            cr_assert_float_eq(p[3], 1.0f, 1e-5);
            checked++;
        }
    cr_assert_gt(checked, 50);
    tr_context_destroy(ctx);
}

/* ---- entirely outside ------------------------------------------------------------------------ */

Test(raster, triangles_entirely_outside_draw_nothing)
{
    enum { SW = 16, SH = 16 };
    static const float cases[][3][4] = {
        /* behind the eye */
        {{-0.5f, -0.5f, -0.5f, -1}, {0.5f, -0.5f, -0.5f, -1}, {0, 0.5f, -0.5f, -1}},
        /* behind, but x/w and y/w would land on screen */
        {{0.5f, 0.5f, -0.5f, -1}, {-0.5f, 0.5f, -0.5f, -1}, {0, -0.5f, -0.5f, -1}},
        /* w = 0 everywhere */
        {{0.5f, 0.5f, 0, 0}, {-0.5f, 0.5f, 0, 0}, {0, -0.5f, 0, 0}},
        /* in front of the near plane (z < 0) */
        {{-1, -1, -0.25f, 1}, {1, -1, -0.25f, 1}, {0, 1, -0.01f, 1}},
        /* beyond the far plane (z > w) */
        {{-1, -1, 1.25f, 1}, {1, -1, 1.01f, 1}, {0, 1, 2, 1}},
        /* right of the screen, past any guard band */
        {{1e4f, -1, 0.5f, 1}, {2e4f, -1, 0.5f, 1}, {1.5e4f, 1, 0.5f, 1}},
        /* just right of the screen */
        {{1.01f, -1, 0.5f, 1}, {3, -1, 0.5f, 1}, {2, 1, 0.5f, 1}},
        /* just above the screen */
        {{-1, -3, 0.5f, 1}, {1, -3, 0.5f, 1}, {0, -1.01f, 0.5f, 1}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        trt_vertex v[3];
        for (int k = 0; k < 3; k++) {
            memset(&v[k], 0, sizeof v[k]);
            memcpy(v[k].pos, cases[i][k], sizeof v[k].pos);
        }
        uint8_t got[SW * SH], want[SW * SH] = {0};
        tr_pass_stats st;
        trt_hit_counts_clip(NULL, SW, SH, v, 3, got, &st);
        trt_assert_maps_eq(got, want, SW, SH, "triangle outside the clip volume");
        cr_expect_eq(st.fragments_rasterized, 0, "case %zu", i);
        cr_expect_eq(st.primitives_in, 1, "case %zu", i);
    }
}

/* ---- enormous and invalid coordinates -------------------------------------------------------- */

enum { HW = 16, HH = 16 };

/* Draws `bad` (3 clip-space vertices) then a small sentinel triangle, and
 * returns tr_cmd_draw's result for `bad`; the pass itself must succeed. */
static tr_result draw_with_sentinel(const float bad[3][4], uint8_t *counts, tr_pass_stats *st)
{
    tr_context *ctx = trt_context(2);
    tr_image *img = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, HW, HH);
    tr_pipeline_desc pd = {0};
    pd.fragment_shader = trt_fs_uniform;
    pd.blend[0].enable = 1;
    pd.blend[0].src_color = pd.blend[0].dst_color = TR_BLEND_ONE;
    pd.blend[0].src_alpha = pd.blend[0].dst_alpha = TR_BLEND_ONE;
    tr_pipeline *pipe = trt_pipeline(ctx, &pd);
    trt_vertex v[3], s[3];
    for (int k = 0; k < 3; k++) {
        memset(&v[k], 0, sizeof v[k]);
        memcpy(v[k].pos, bad[k], sizeof v[k].pos);
    }
    /* sentinel: pixels (1..3, 1..3) region, i.e. (1,1),(4,1),(1,4) */
    s[0] = trt_vpx(1, 1, 0.5f, HW, HH, NULL);
    s[1] = trt_vpx(4, 1, 0.5f, HW, HH, NULL);
    s[2] = trt_vpx(1, 4, 0.5f, HW, HH, NULL);
    trt_uniforms u;
    memset(&u, 0, sizeof u);
    u.color[0][0] = u.color[0][1] = u.color[0][2] = u.color[0][3] = 1.0f / 255.0f;
    trt_begin_color(ctx, img, NULL);
    TRT_OK(tr_cmd_bind_pipeline(ctx, pipe));
    u.vertices = v;
    TRT_OK(tr_cmd_set_uniforms(ctx, &u, sizeof u));
    tr_result r = tr_cmd_draw(ctx, 3, 1, 0, 0);
    if (r != TR_OK)
        cr_expect_neq(tr_context_last_error(ctx)[0], '\0', "an error without a message");
    u.vertices = s;
    TRT_OK(tr_cmd_set_uniforms(ctx, &u, sizeof u));
    TRT_OK(tr_cmd_draw(ctx, 3, 1, 0, 0));
    TRT_OK(tr_cmd_end_render_pass(ctx, st));
    uint8_t px[HW * HH * 4];
    trt_download(img, 0, 0, TR_ASPECT_DEFAULT, px);
    for (int i = 0; i < HW * HH; i++)
        counts[i] = px[i * 4];
    tr_context_destroy(ctx);
    return r;
}

static void sentinel_map(uint8_t *m, int base)
{
    static const float tri[3][2] = {{1, 1}, {4, 1}, {1, 4}};
    memset(m, base, HW * HH);
    trt_ref_triangle(tri, TR_TIE_TOP_LEFT, HW, HH, m);
}

Test(raster, enormous_triangles_cover_the_screen_or_fail_cleanly)
{
    /* A triangle far larger than the screen and containing it.  Below 1e6
     * the image must be exact; beyond, the library may refuse the draw
     * with an error, but if it accepts it the image must still be right
     * ("never a silently wrong image"). */
    static const double sizes[] = {1e3, 1e6, 1e10, 1e20, 1e30, 3e38};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        float S = (float)sizes[i];
        const float bad[3][4] = {{-S, -S, 0.5f, 1}, {S, -S, 0.5f, 1}, {0, S, 0.5f, 1}};
        uint8_t got[HW * HH], want[HW * HH];
        tr_result r = draw_with_sentinel(bad, got, NULL);
        if (sizes[i] <= 1e6)
            cr_assert_eq(r, TR_OK, "S = %g: %s", sizes[i], tr_result_string(r));
        sentinel_map(want, r == TR_OK ? 1 : 0);
        trt_assert_maps_eq(got, want, HW, HH, "enormous triangle + sentinel");
    }
}

Test(raster, enormous_w_and_tiny_w)
{
    /* Scaling a whole vertex by s changes nothing after the divide. */
    static const float scales[] = {1e-20f, 1e-6f, 1e-3f, 1e6f, 1e20f};
    for (size_t i = 0; i < sizeof scales / sizeof scales[0]; i++) {
        float s = scales[i];
        const float bad[3][4] = {{-2 * s, -2 * s, 0.5f * s, s},
                                 {4 * s, -2 * s, 0.5f * s, s},
                                 {-2 * s, 4 * s, 0.5f * s, s}};
        uint8_t got[HW * HH], want[HW * HH];
        tr_result r = draw_with_sentinel(bad, got, NULL);
        sentinel_map(want, r == TR_OK ? 1 : 0);
        trt_assert_maps_eq(got, want, HW, HH, "scaled full-screen triangle + sentinel");
    }
}

Test(raster, nan_and_inf_positions_draw_nothing)
{
    const float n = NAN, inf = INFINITY;
    const float cases[][3][4] = {
        {{n, -1, 0.5f, 1}, {1, -1, 0.5f, 1}, {0, 1, 0.5f, 1}},
        {{-1, -1, 0.5f, 1}, {1, n, 0.5f, 1}, {0, 1, 0.5f, 1}},
        {{-1, -1, 0.5f, 1}, {1, -1, n, 1}, {0, 1, 0.5f, 1}},
        {{-1, -1, 0.5f, 1}, {1, -1, 0.5f, 1}, {0, 1, 0.5f, n}},
        {{n, n, n, n}, {n, n, n, n}, {n, n, n, n}},
        {{-inf, -1, 0.5f, 1}, {1, -1, 0.5f, 1}, {0, 1, 0.5f, 1}},
        {{-inf, -inf, 0.5f, 1}, {inf, -inf, 0.5f, 1}, {0, inf, 0.5f, 1}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint8_t got[HW * HH], want[HW * HH];
        tr_pass_stats st;
        cr_assert_eq(draw_with_sentinel(cases[i], got, &st), TR_OK);
        sentinel_map(want, 0);
        trt_assert_maps_eq(got, want, HW, HH, "NaN/inf triangle + sentinel");
        /* discarded before clipping, counted, and the sentinel alone binned */
        cr_expect_eq(st.primitives_in, 2, "case %zu", i);
        cr_expect_eq(st.primitives_nonfinite, 1, "case %zu", i);
        cr_expect_eq(st.primitives_culled, 1, "case %zu", i);
        cr_expect_eq(st.primitives_clipped, 0, "case %zu", i);
    }
}

/* ---- viewport and scissor ------------------------------------------------------------------- */

Test(raster, negative_viewport_height_flips_y)
{
    /* Viewport (0, H, W, -H): window y = H - pixel y of the default mapping. */
    enum { SW = 32, SH = 32, N = 20 };
    trt_rng rng = {5};
    tr_context *ctx = trt_context(1);
    tr_image *img = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, SW, SH);
    trt_vertex v[3 * N];
    float flipped[3 * N][2];
    uint8_t want[SW * SH] = {0};
    for (int i = 0; i < 3 * N; i++) {
        float x = trt_rand_coord(&rng, -8, 40), y = trt_rand_coord(&rng, -8, 40);
        v[i] = trt_vpx(x, y, 0.5f, SW, SH, NULL);
        flipped[i][0] = x;
        flipped[i][1] = SH - y;
    }
    for (int t = 0; t < N; t++)
        trt_ref_triangle((const float(*)[2])flipped[3 * t], TR_TIE_TOP_LEFT, SW, SH, want);
    tr_pipeline_desc pd = {0};
    pd.fragment_shader = trt_fs_uniform;
    pd.blend[0].enable = 1;
    pd.blend[0].src_color = pd.blend[0].dst_color = TR_BLEND_ONE;
    pd.blend[0].src_alpha = pd.blend[0].dst_alpha = TR_BLEND_ONE;
    tr_pipeline *pipe = trt_pipeline(ctx, &pd);
    trt_begin_color(ctx, img, NULL);
    TRT_OK(tr_cmd_bind_pipeline(ctx, pipe));
    tr_viewport vp = {0, SH, SW, -(float)SH, 0, 1};
    TRT_OK(tr_cmd_set_viewport(ctx, &vp));
    trt_uniforms u;
    memset(&u, 0, sizeof u);
    u.color[0][0] = 1.0f / 255.0f;
    trt_draw_u(ctx, &u, v, 3 * N);
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    uint8_t px[SW * SH * 4], got[SW * SH];
    trt_download(img, 0, 0, TR_ASPECT_DEFAULT, px);
    for (int i = 0; i < SW * SH; i++)
        got[i] = px[i * 4];
    trt_assert_maps_eq(got, want, SW, SH, "flipped viewport");
    tr_context_destroy(ctx);
}

Test(raster, viewport_offset_and_scissor)
{
    /* Viewport (8, 4, 16, 16) inside a 32x32 area, triangles inside the
     * viewport's NDC square, scissor (5, 6, 13, 9). */
    enum { SW = 32, SH = 32, N = 12 };
    trt_rng rng = {6};
    tr_context *ctx = trt_context(2);
    tr_image *img = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, SW, SH);
    tr_pipeline_desc pd = {0};
    pd.fragment_shader = trt_fs_uniform;
    pd.blend[0].enable = 1;
    pd.blend[0].src_color = pd.blend[0].dst_color = TR_BLEND_ONE;
    pd.blend[0].src_alpha = pd.blend[0].dst_alpha = TR_BLEND_ONE;
    tr_pipeline *pipe = trt_pipeline(ctx, &pd);
    trt_vertex v[3 * N];
    float pts[3 * N][2];
    uint8_t want_vp[SW * SH] = {0}, want_sc[SW * SH] = {0};
    for (int i = 0; i < 3 * N; i++) {
        /* pixel coords inside the viewport, on the 1/1024 grid */
        float x = trt_rand_coord(&rng, 8, 24), y = trt_rand_coord(&rng, 4, 20);
        pts[i][0] = x;
        pts[i][1] = y;
        memset(&v[i], 0, sizeof v[i]);
        v[i].pos[0] = (x - 8) / 8 - 1; /* exact: (xw - 8) / 16 * 2 - 1 */
        v[i].pos[1] = (y - 4) / 8 - 1;
        v[i].pos[2] = 0.5f;
        v[i].pos[3] = 1;
    }
    for (int t = 0; t < N; t++)
        trt_ref_triangle((const float(*)[2])pts[3 * t], TR_TIE_TOP_LEFT, SW, SH, want_vp);
    for (int y = 0; y < SH; y++)
        for (int x = 0; x < SW; x++)
            if (x >= 5 && x < 18 && y >= 6 && y < 15)
                want_sc[y * SW + x] = want_vp[y * SW + x];
    trt_uniforms u;
    memset(&u, 0, sizeof u);
    u.color[0][0] = 1.0f / 255.0f;
    for (int sc = 0; sc < 2; sc++) {
        trt_begin_color(ctx, img, NULL);
        TRT_OK(tr_cmd_bind_pipeline(ctx, pipe));
        tr_viewport vp = {8, 4, 16, 16, 0, 1};
        TRT_OK(tr_cmd_set_viewport(ctx, &vp));
        if (sc) {
            tr_rect r = {5, 6, 13, 9};
            TRT_OK(tr_cmd_set_scissor(ctx, &r));
        }
        trt_draw_u(ctx, &u, v, 3 * N);
        TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
        uint8_t px[SW * SH * 4], got[SW * SH];
        trt_download(img, 0, 0, TR_ASPECT_DEFAULT, px);
        for (int i = 0; i < SW * SH; i++)
            got[i] = px[i * 4];
        trt_assert_maps_eq(got, sc ? want_sc : want_vp, SW, SH,
                           sc ? "viewport + scissor" : "offset viewport");
    }
    tr_context_destroy(ctx);
}

/* The clip volume ends at the viewport: a triangle reaching far outside its
 * NDC square draws only pixels whose centres lie inside the viewport
 * rectangle (integer, fractional and flipped viewports), even where the
 * render area and scissor allow more. */
Test(raster, viewport_bounds_fragments)
{
    enum { SW = 40, SH = 30 };
    tr_context *ctx = trt_context(2);
    tr_image *img = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, SW, SH);
    tr_pipeline_desc pd = {0};
    pd.fragment_shader = trt_fs_uniform;
    tr_pipeline *pipe = trt_pipeline(ctx, &pd);
    /* NDC x, y in [-3, 3]: covers the viewport and far beyond. */
    const trt_vertex v[3] = {{{-3, -3, 0.5f, 1}, {0}}, {{9, -3, 0.5f, 1}, {0}}, {{-3, 9, 0.5f, 1}, {0}}};
    const tr_viewport vps[] = {{6, 4, 20, 10, 0, 1}, {5.5f, 3.25f, 10.25f, 7.5f, 0, 1}, {2, 25, 30, -17, 0, 1}};
    for (size_t k = 0; k < sizeof vps / sizeof vps[0]; k++) {
        trt_begin_color(ctx, img, NULL);
        TRT_OK(tr_cmd_bind_pipeline(ctx, pipe));
        TRT_OK(tr_cmd_set_viewport(ctx, &vps[k]));
        trt_uniforms u;
        memset(&u, 0, sizeof u);
        u.color[0][0] = 1.0f;
        trt_draw_u(ctx, &u, v, 3);
        TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
        uint8_t px[SW * SH * 4], got[SW * SH], want[SW * SH];
        trt_download(img, 0, 0, TR_ASPECT_DEFAULT, px);
        const double y0 = fmin(vps[k].y, vps[k].y + vps[k].height), y1 = fmax(vps[k].y, vps[k].y + vps[k].height);
        for (int y = 0; y < SH; y++)
            for (int x = 0; x < SW; x++) {
                got[y * SW + x] = px[(y * SW + x) * 4] == 255;
                want[y * SW + x] = x + 0.5 >= vps[k].x && x + 0.5 < vps[k].x + vps[k].width && y + 0.5 >= y0 &&
                                   y + 0.5 < y1;
            }
        trt_assert_maps_eq(got, want, SW, SH, "viewport rectangle");
    }
    tr_context_destroy(ctx);
}

/* ---- the front end's slots: chunks of clipped triangles ---------------------------------- */

/* Renders n triangles that each have one vertex behind the eye (clipped
 * into two pieces), with depth, on `threads` threads; returns the colour
 * bytes (malloc'd) and the statistics. */
static uint8_t *clipped_chunks(const trt_vertex *v, uint32_t n, uint32_t threads, uint32_t w, uint32_t h,
                               tr_pass_stats *st)
{
    tr_context *ctx = trt_context(threads);
    tr_image *color = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, w, h);
    tr_image *depth = trt_image(ctx, TR_FORMAT_D32_SFLOAT, w, h);
    tr_pipeline_desc pd = {0};
    pd.depth_test = 1;
    pd.depth_write = 1;
    tr_pipeline *pipe = trt_pipeline(ctx, &pd);
    trt_begin_color_depth(ctx, color, depth, 0);
    TRT_OK(tr_cmd_bind_pipeline(ctx, pipe));
    trt_draw(ctx, v, 3 * n);
    TRT_OK(tr_cmd_end_render_pass(ctx, st));
    uint8_t *px = malloc((size_t)w * h * 4);
    cr_assert_not_null(px);
    trt_download(color, 0, 0, TR_ASPECT_COLOR, px);
    tr_context_destroy(ctx);
    return px;
}

Test(raster, chunks_of_clipped_triangles_are_identical_for_every_thread_count)
{
    /* The parallel front end gives each chunk of primitives room for a
     * piece and a quarter per primitive; chunks whose triangles are all cut
     * in two by the near plane run out of it and are finished while
     * binning.  The result must not depend on where a chunk stopped, hence
     * on the thread count. */
    enum { SW = 160, SH = 120, N = 3000 };
    trt_vertex *v = malloc(sizeof(trt_vertex) * 3 * N);
    cr_assert_not_null(v);
    trt_rng rng = {0x5eed1234u};
    for (uint32_t t = 0; t < N; t++) {
        const int behind = (int)(trt_rand_u32(&rng) % 3);
        for (int k = 0; k < 3; k++) {
            const float wv = k == behind ? -(float)trt_rand_range(&rng, 0.1, 2.0) : (float)trt_rand_range(&rng, 0.5, 2.0);
            const float x = (float)trt_rand_range(&rng, -1.0, 1.0), y = (float)trt_rand_range(&rng, -1.0, 1.0);
            trt_vertex *o = &v[3 * t + (uint32_t)k];
            *o = cv(x * fabsf(wv), y * fabsf(wv), wv);
            o->pos[2] = (float)trt_rand_range(&rng, 0.1, 0.9) * wv;
            for (int c = 0; c < 3; c++)
                o->color[c] = (float)(trt_rand_u32(&rng) % 256) / 255.0f;
        }
    }
    tr_pass_stats ref;
    uint8_t *want = clipped_chunks(v, N, 1, SW, SH, &ref);
    cr_assert_eq(ref.primitives_in, N);
    cr_assert_eq(ref.primitives_clipped, N, "every triangle crosses the near plane");
    /* Most become two pieces: far more than the room of a piece and a
     * quarter per primitive, so the slots fill in most chunks. */
    cr_assert_gt(ref.primitives_binned, N * 3 / 2, "pieces binned: %llu", (unsigned long long)ref.primitives_binned);
    cr_assert_gt(ref.fragments_written, SW * SH / 2);
    for (uint32_t threads = 2; threads <= 5; threads++) {
        tr_pass_stats st;
        uint8_t *got = clipped_chunks(v, N, threads, SW, SH, &st);
        cr_assert_arr_eq(got, want, (size_t)SW * SH * 4, "%u threads: the image differs", threads);
        cr_assert_eq(st.primitives_culled, ref.primitives_culled, "%u threads", threads);
        cr_assert_eq(st.primitives_binned, ref.primitives_binned, "%u threads", threads);
        cr_assert_eq(st.bin_primitive_refs, ref.bin_primitive_refs, "%u threads", threads);
        cr_assert_eq(st.fragments_rasterized, ref.fragments_rasterized, "%u threads", threads);
        cr_assert_eq(st.fragments_depth_rejected, ref.fragments_depth_rejected, "%u threads", threads);
        cr_assert_eq(st.fragments_written, ref.fragments_written, "%u threads", threads);
        free(got);
    }
    free(want);
    free(v);
}
