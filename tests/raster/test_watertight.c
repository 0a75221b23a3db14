/* Watertightness: meshes whose triangles share edges are drawn with additive
 * blending of 1/255 into RGBA8, so every byte counts the triangles that
 * covered the pixel.  Inside the union every pixel must be hit exactly once,
 * for both tie rules, across bin borders, with vertices at arbitrary
 * sub-pixel positions (fixed-seed PRNG). */
#include "trtest.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- geometry helpers ---------------------------------------------------------- */

static double seg_dist(double px, double py, double ax, double ay, double bx, double by)
{
    double dx = bx - ax, dy = by - ay;
    double t = ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy);
    if (t < 0) t = 0;
    if (t > 1) t = 1;
    double qx = ax + t * dx - px, qy = ay + t * dy - py;
    return sqrt(qx * qx + qy * qy);
}

static double signed_area(const float t[3][2])
{
    return (t[1][0] - t[0][0]) * (double)(t[2][1] - t[0][1]) -
           (t[2][0] - t[0][0]) * (double)(t[1][1] - t[0][1]);
}

/* ---- fans around a centre point --------------------------------------------------- */

enum { FW = 64, FH = 64 };

typedef struct fan {
    float c[2];
    uint32_t n;
    float p[64][2];
} fan;

#define TRT_PI 3.14159265358979323846

static void make_fan(trt_rng *rng, fan *f)
{
    f->c[0] = trt_rand_coord(rng, 29, 35);
    f->c[1] = trt_rand_coord(rng, 29, 35);
    f->n = 5 + trt_rand_u32(rng) % 40;
    /* angles jittered around an even spacing: consecutive gaps stay below
     * pi, so the outline is a star around c and the fan winds one way */
    double phase = trt_rand_range(rng, 0, 2 * TRT_PI);
    for (uint32_t i = 0; i < f->n; i++) {
        double a = phase + 2 * TRT_PI * (i + trt_rand_range(rng, 0, 0.8)) / f->n;
        double r = trt_rand_range(rng, 8, 27);
        f->p[i][0] = trt_untie((float)(floor((f->c[0] + r * cos(a)) * 1024) / 1024));
        f->p[i][1] = trt_untie((float)(floor((f->c[1] + r * sin(a)) * 1024) / 1024));
    }
}

/* Even-odd test against the outline p_0 .. p_n-1. */
static int in_outline(const fan *f, double px, double py)
{
    int in = 0;
    for (uint32_t i = 0, j = f->n - 1; i < f->n; j = i++) {
        double xi = f->p[i][0], yi = f->p[i][1], xj = f->p[j][0], yj = f->p[j][1];
        if ((yi > py) != (yj > py) && px < (xj - xi) * (py - yi) / (yj - yi) + xi)
            in = !in;
    }
    return in;
}

/* Triangle i of the fan as a list: (c, p_i, p_i+1). */
static void fan_tri(const fan *f, uint32_t i, float t[3][2])
{
    t[0][0] = f->c[0]; t[0][1] = f->c[1];
    memcpy(t[1], f->p[i], sizeof t[1]);
    memcpy(t[2], f->p[(i + 1) % f->n], sizeof t[2]);
}

static void check_fan(const fan *f, tr_tie_rule tie, const uint8_t *got, const char *what)
{
    uint8_t *want = calloc(FW * FH, 1);
    cr_assert_not_null(want);
    for (uint32_t i = 0; i < f->n; i++) {
        float t[3][2];
        fan_tri(f, i, t);
        trt_ref_triangle((const float(*)[2])t, tie, FW, FH, want);
    }
    for (uint32_t y = 0; y < FH; y++) {
        for (uint32_t x = 0; x < FW; x++) {
            uint8_t g = got[y * FW + x];
            cr_assert_leq(g, 1, "%s: pixel (%u,%u) hit %u times", what, x, y, g);
            double px = x + 0.5, py = y + 0.5;
            int inside = in_outline(f, px, py);
            double dmin = 1e9;
            for (uint32_t i = 0; i < f->n; i++) {
                float t[3][2];
                fan_tri(f, i, t);
                double d = seg_dist(px, py, t[1][0], t[1][1], t[2][0], t[2][1]);
                if (d < dmin)
                    dmin = d;
            }
            /* Away from the outline (snapping moves it by < 1/512 px) the
             * answer does not depend on the tie rule. */
            if (dmin > 1.0 / 64)
                cr_assert_eq(g, inside, "%s: pixel (%u,%u) hit %u times, expected %d", what, x, y,
                             g, inside);
        }
    }
    trt_assert_maps_eq(got, want, FW, FH, what);
    free(want);
}

static void fan_case(uint64_t seed, tr_tie_rule tie)
{
    trt_rng rng = {seed};
    fan f;
    make_fan(&rng, &f);
    /* precondition: every (c, p_i, p_i+1) winds the same way */
    for (uint32_t i = 0; i < f.n; i++) {
        float t[3][2];
        fan_tri(&f, i, t);
        cr_assert(signed_area((const float(*)[2])t) > 0, "seed %llu: fan triangle %u",
                  (unsigned long long)seed, i);
    }

    uint8_t got[FW * FH];
    trt_hit_opts o = {0};
    o.tie_rule = tie;
    o.threads = 2;

    /* As a list: (c, p_i, p_i+1). */
    float (*list)[2] = malloc(sizeof(float[2]) * 3 * f.n);
    cr_assert_not_null(list);
    for (uint32_t i = 0; i < f.n; i++)
        fan_tri(&f, i, (float(*)[2])list[3 * i]);
    trt_hit_counts(&o, FW, FH, (const float(*)[2])list, 3 * f.n, got, NULL);
    check_fan(&f, tie, got, "fan as a triangle list");
    free(list);

    /* As TR_TOPOLOGY_TRIANGLE_FAN: c, p0 .. p(n-1), p0. */
    float (*pts)[2] = malloc(sizeof(float[2]) * (f.n + 2));
    cr_assert_not_null(pts);
    memcpy(pts[0], f.c, sizeof pts[0]);
    for (uint32_t i = 0; i < f.n; i++)
        memcpy(pts[1 + i], f.p[i], sizeof pts[0]);
    memcpy(pts[f.n + 1], f.p[0], sizeof pts[0]);
    o.topology = TR_TOPOLOGY_TRIANGLE_FAN;
    o.gmem_bytes = 16 * 1024; /* many bins */
    trt_hit_counts(&o, FW, FH, (const float(*)[2])pts, f.n + 2, got, NULL);
    check_fan(&f, tie, got, "TR_TOPOLOGY_TRIANGLE_FAN");
    free(pts);
}

Test(raster, fans_hit_every_pixel_once_top_left)
{
    for (uint64_t s = 1; s <= 12; s++)
        fan_case(s, TR_TIE_TOP_LEFT);
}

Test(raster, fans_hit_every_pixel_once_bottom_left)
{
    for (uint64_t s = 101; s <= 112; s++)
        fan_case(s, TR_TIE_BOTTOM_LEFT);
}

Test(raster, fan_with_centre_on_a_pixel_centre)
{
    /* Every spoke passes through the pixel centre (32.5, 32.5), and spokes
     * along the axes run through rows and columns of centres. */
    fan f;
    f.c[0] = 32.5f;
    f.c[1] = 32.5f;
    f.n = 16;
    for (uint32_t i = 0; i < f.n; i++) {
        static const float dir[16][2] = {
            {20, 0}, {20, 10}, {20, 20}, {10, 20}, {0, 20}, {-10, 20}, {-20, 20}, {-20, 10},
            {-20, 0}, {-20, -10}, {-20, -20}, {-10, -20}, {0, -20}, {10, -20}, {20, -20}, {20, -10}};
        f.p[i][0] = f.c[0] + dir[i][0];
        f.p[i][1] = f.c[1] + dir[i][1];
    }
    for (int rule = 0; rule < 2; rule++) {
        float (*list)[2] = malloc(sizeof(float[2]) * 3 * f.n);
        cr_assert_not_null(list);
        for (uint32_t i = 0; i < f.n; i++)
            fan_tri(&f, i, (float(*)[2])list[3 * i]);
        uint8_t got[FW * FH];
        trt_hit_opts o = {0};
        o.tie_rule = (tr_tie_rule)rule;
        trt_hit_counts(&o, FW, FH, (const float(*)[2])list, 3 * f.n, got, NULL);
        free(list);
        /* The square outline: [12.5, 52.5]^2 on centres; its inside is every
         * pixel from 13..51 plus the owned outline edges. */
        for (uint32_t y = 0; y < FH; y++)
            for (uint32_t x = 0; x < FW; x++) {
                int in_x = x >= 12 && x <= 51;              /* left owned, right not */
                int in_y = rule == TR_TIE_TOP_LEFT ? (y >= 12 && y <= 51) : (y >= 13 && y <= 52);
                cr_assert_eq(got[y * FW + x], in_x && in_y,
                             "rule %d: pixel (%u,%u) hit %u times", rule, x, y, got[y * FW + x]);
            }
        check_fan(&f, (tr_tie_rule)rule, got, "fan on centres");
    }
}

/* ---- grids of triangles sharing edges ------------------------------------------------ */

typedef struct grid {
    uint32_t n;          /* cells per side */
    float (*v)[2];       /* (n+1)^2 vertices */
} grid;

/* A grid over [lo, hi]^2 with interior vertices jittered by up to 0.2 cell
 * per axis (keeps every cell convex); outline vertices stay on the outline. */
static grid make_grid(trt_rng *rng, uint32_t n, float lo, float hi, int jitter)
{
    grid g;
    g.n = n;
    g.v = malloc(sizeof(float[2]) * (n + 1) * (n + 1));
    cr_assert_not_null(g.v);
    double cell = (hi - lo) / n;
    for (uint32_t j = 0; j <= n; j++)
        for (uint32_t i = 0; i <= n; i++) {
            double x = lo + i * cell, y = lo + j * cell;
            if (jitter && i > 0 && i < n)
                x += trt_rand_range(rng, -0.2, 0.2) * cell;
            if (jitter && j > 0 && j < n)
                y += trt_rand_range(rng, -0.2, 0.2) * cell;
            float fx = (i == 0 || i == n) ? (float)x : trt_untie((float)(floor(x * 1024) / 1024));
            float fy = (j == 0 || j == n) ? (float)y : trt_untie((float)(floor(y * 1024) / 1024));
            g.v[j * (n + 1) + i][0] = fx;
            g.v[j * (n + 1) + i][1] = fy;
        }
    return g;
}

/* Two triangles per cell, the diagonal alternating like a checkerboard. */
static uint32_t grid_indices(const grid *g, uint32_t *idx)
{
    uint32_t k = 0, s = g->n + 1;
    for (uint32_t j = 0; j < g->n; j++)
        for (uint32_t i = 0; i < g->n; i++) {
            uint32_t a = j * s + i, b = a + 1, c = a + s, d = c + 1;
            if ((i + j) & 1) {
                idx[k++] = a; idx[k++] = b; idx[k++] = d;
                idx[k++] = a; idx[k++] = d; idx[k++] = c;
            } else {
                idx[k++] = a; idx[k++] = b; idx[k++] = c;
                idx[k++] = b; idx[k++] = d; idx[k++] = c;
            }
        }
    return k;
}

static void assert_all_once(const uint8_t *got, uint32_t w, uint32_t h, const char *what)
{
    uint8_t *want = malloc((size_t)w * h);
    cr_assert_not_null(want);
    memset(want, 1, (size_t)w * h);
    trt_assert_maps_eq(got, want, w, h, what);
    free(want);
}

static void grid_case(uint64_t seed, uint32_t w, uint32_t h, uint32_t n, float margin,
                      tr_tie_rule tie, uint32_t gmem, uint32_t threads)
{
    trt_rng rng = {seed};
    /* A square grid covering [-margin, max(w,h)+margin]^2 covers the target. */
    float hi = (float)(w > h ? w : h) + margin;
    grid g = make_grid(&rng, n, -margin, hi, 1);
    uint32_t *idx = malloc(sizeof(uint32_t) * 6 * n * n);
    cr_assert_not_null(idx);
    uint32_t count = grid_indices(&g, idx);
    /* precondition: no fold-over, every triangle has area */
    for (uint32_t t = 0; t < count; t += 3) {
        float tri[3][2];
        for (int k = 0; k < 3; k++)
            memcpy(tri[k], g.v[idx[t + k]], sizeof tri[k]);
        cr_assert(signed_area((const float(*)[2])tri) > 0, "grid triangle %u folds over", t / 3);
    }

    uint8_t *got = malloc((size_t)w * h);
    cr_assert_not_null(got);
    trt_hit_opts o = {0};
    o.tie_rule = tie;
    o.gmem_bytes = gmem;
    o.threads = threads;

    /* indexed list over the shared vertex array */
    o.indices = idx;
    o.index_count = count;
    trt_hit_counts(&o, w, h, (const float(*)[2])g.v, (n + 1) * (n + 1), got, NULL);
    assert_all_once(got, w, h, "indexed grid");

    /* the same as a flat list of 3 points per triangle */
    float (*flat)[2] = malloc(sizeof(float[2]) * count);
    cr_assert_not_null(flat);
    for (uint32_t k = 0; k < count; k++)
        memcpy(flat[k], g.v[idx[k]], sizeof flat[k]);
    o.indices = NULL;
    o.index_count = 0;
    trt_hit_counts(&o, w, h, (const float(*)[2])flat, count, got, NULL);
    assert_all_once(got, w, h, "grid as a list");

    /* one triangle strip per row, rows joined by two degenerate triangles */
    uint32_t s = n + 1, m = 0;
    uint32_t *strip = malloc(sizeof(uint32_t) * (2 * s + 2) * n);
    cr_assert_not_null(strip);
    for (uint32_t j = 0; j < n; j++) {
        if (j > 0)
            strip[m++] = j * s; /* repeat: degenerate joins */
        for (uint32_t i = 0; i < s; i++) {
            strip[m++] = j * s + i;
            strip[m++] = (j + 1) * s + i;
        }
        if (j + 1 < n)
            strip[m++] = (j + 1) * s + n;
    }
    o.topology = TR_TOPOLOGY_TRIANGLE_STRIP;
    o.indices = strip;
    o.index_count = m;
    trt_hit_counts(&o, w, h, (const float(*)[2])g.v, s * s, got, NULL);
    assert_all_once(got, w, h, "grid as strips");

    free(strip);
    free(flat);
    free(got);
    free(idx);
    free(g.v);
}

Test(raster, grid_hits_every_pixel_once_top_left)
{
    grid_case(11, 64, 64, 9, 0, TR_TIE_TOP_LEFT, 0, 1);
    grid_case(12, 64, 64, 40, 0, TR_TIE_TOP_LEFT, 0, 2);
}

Test(raster, grid_hits_every_pixel_once_bottom_left)
{
    grid_case(21, 64, 64, 9, 0, TR_TIE_BOTTOM_LEFT, 0, 1);
    grid_case(22, 64, 64, 40, 0, TR_TIE_BOTTOM_LEFT, 0, 2);
}

Test(raster, grid_beyond_the_target_hits_every_pixel_once)
{
    /* Outline outside the framebuffer: triangles crossing its edges. */
    grid_case(31, 48, 40, 7, 9.75f, TR_TIE_TOP_LEFT, 0, 2);
    grid_case(32, 48, 40, 7, 9.75f, TR_TIE_BOTTOM_LEFT, 0, 2);
}

Test(raster, grid_across_many_bins_hits_every_pixel_once)
{
    /* A 16 KiB budget gives small bins; 3 threads render them. */
    grid_case(41, 160, 96, 23, 0.5f, TR_TIE_TOP_LEFT, 16 * 1024, 3);
    grid_case(42, 160, 96, 23, 0.5f, TR_TIE_BOTTOM_LEFT, 16 * 1024, 3);
}

Test(raster, grid_with_vertices_on_pixel_centres)
{
    /* No jitter, lines through centres: 8 px cells offset by half a pixel,
     * outline beyond the target. */
    for (int rule = 0; rule < 2; rule++) {
        uint32_t n = 10;
        grid g = make_grid(NULL, n, -7.5f, 72.5f, 0);
        uint32_t *idx = malloc(sizeof(uint32_t) * 6 * n * n);
        cr_assert_not_null(idx);
        uint32_t count = grid_indices(&g, idx);
        uint8_t got[64 * 64];
        trt_hit_opts o = {0};
        o.tie_rule = (tr_tie_rule)rule;
        o.indices = idx;
        o.index_count = count;
        trt_hit_counts(&o, 64, 64, (const float(*)[2])g.v, (n + 1) * (n + 1), got, NULL);
        assert_all_once(got, 64, 64, "grid on centres");
        free(idx);
        free(g.v);
    }
}
