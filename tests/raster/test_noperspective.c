/* Noperspective varyings (tr_pipeline_desc.noperspective_mask): linear in
 * the framebuffer, against a double-precision reference of screen-space
 * barycentric interpolation, while a perspective varying at the same
 * pixels differs; the same image as a perspective varying when every w is
 * 1; the same bits at every SIMD level and thread count; multisampled 4x
 * (per sample), lines (both modes) and clipped triangles; the errors.
 *
 * The tolerance.  The library promises the float arithmetic of pipeline.h:
 * v0 + l1 * (v1 - v0) + l2 * (v2 - v0) with l1, l2 the float barycentric
 * planes (coefficients rounded once from double, evaluated at offsets
 * exact in float).  For the fat triangles used here (|l1_a dx|, |l1_b dy|
 * and the like stay below 4) each l is within 16 * 2^-24 of the exact
 * barycentric, and the values are at most 20 in magnitude, so the varying
 * is within about 2^-14 * S of the exact value, S = |v0| + |v1 - v0| +
 * |v2 - v0| (a few ulp of rounding in the sums added).  TOL below is 2^-12 * S:
 * four times that, and still thousands of times smaller than the gap
 * between perspective and noperspective interpolation in these scenes
 * (checked: the perspective varying misses the reference by more than
 * 0.01). */
#include "trtest.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { W = 64, H = 64 };

typedef struct np_vertex {
    float pos[4]; /* clip space */
    float a[4];   /* varying 0 and varying 1 both get it */
} np_vertex;

typedef struct np_uniforms {
    const np_vertex *v;
} np_uniforms;

static void vs_np(tr_vs_batch *b)
{
    const np_uniforms *u = (const np_uniforms *)b->uniforms;
    for (uint32_t i = 0; i < b->count; i++) {
        const np_vertex *v = &u->v[b->vertex_index[i]];
        for (int c = 0; c < 4; c++) {
            b->position[c][i] = v->pos[c];
            b->varyings[0][c][i] = v->a[c];
            b->varyings[1][c][i] = v->a[c];
        }
    }
}

/* colour = (varying 1's x, y, varying 0's x, y) */
static void fs_np(tr_fs_block *b)
{
    for (uint32_t l = 0; l < b->count; l++) {
        b->color[0][0][l] = b->varyings[1][0][l];
        b->color[0][1][l] = b->varyings[1][1][l];
        b->color[0][2][l] = b->varyings[0][0][l];
        b->color[0][3][l] = b->varyings[0][1][l];
    }
}

/* A vertex at pixel (x, y), window depth z, clip w (powers of two keep
 * everything exact: the window position is (x, y) again). */
static np_vertex vtx(float x, float y, float z, float w, float a0, float a1)
{
    np_vertex v;
    memset(&v, 0, sizeof v);
    v.pos[0] = (float)((double)x * 2.0 / W - 1.0) * w;
    v.pos[1] = (float)((double)y * 2.0 / H - 1.0) * w;
    v.pos[2] = z * w;
    v.pos[3] = w;
    v.a[0] = a0;
    v.a[1] = a1;
    return v;
}

typedef struct np_opts {
    uint32_t threads;   /* 0 = 1 */
    tr_simd_level simd; /* 0 = best */
    uint32_t samples;   /* 0 = 1 */
} np_opts;

/* Draws n vertices with pd (shaders set here) into a W x H RGBA float
 * target cleared to -1; px gets samples * W * H * 4 floats, sample by
 * sample. */
static void draw_np(const tr_pipeline_desc *pd_in, const np_vertex *v, uint32_t n, const np_opts *o, float *px)
{
    tr_context_desc cd = {0};
    cd.threads = o && o->threads ? o->threads : 1;
    cd.simd = o ? o->simd : TR_SIMD_DEFAULT;
    tr_context *ctx = trt_context_desc(&cd);
    const uint32_t samples = o && o->samples ? o->samples : 1;
    tr_image *img = samples > 1 ? trt_image_ms(ctx, TR_FORMAT_R32G32B32A32_SFLOAT, W, H, samples)
                                : trt_image(ctx, TR_FORMAT_R32G32B32A32_SFLOAT, W, H);
    tr_pipeline_desc pd = *pd_in;
    pd.vertex_shader = vs_np;
    pd.fragment_shader = fs_np;
    pd.varying_count = 2;
    pd.multisample.samples = samples;
    tr_pipeline *p = trt_pipeline(ctx, &pd);
    static const float clear[4] = {-1, -1, -1, -1};
    tr_render_pass_desc rp = trt_pass_desc(img, NULL);
    memcpy(rp.color[0].clear_color, clear, sizeof clear);
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
    TRT_OK(tr_cmd_bind_pipeline(ctx, p));
    const np_uniforms u = {v};
    TRT_OK(tr_cmd_set_uniforms(ctx, &u, sizeof u));
    TRT_OK(tr_cmd_draw(ctx, n, 1, 0, 0));
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    for (uint32_t s = 0; s < samples; s++)
        TRT_OK(tr_image_download(img, &(tr_subresource){.sample = s}, px + (size_t)s * W * H * 4, 0));
    tr_context_destroy(ctx);
}

/* Screen-space barycentrics of (x, y) in the triangle of window positions
 * p[3] (double). */
static void bary(const double p[3][2], double x, double y, double l[3])
{
    const double area = (p[1][0] - p[0][0]) * (p[2][1] - p[0][1]) - (p[2][0] - p[0][0]) * (p[1][1] - p[0][1]);
    l[1] = ((x - p[0][0]) * (p[2][1] - p[0][1]) - (p[2][0] - p[0][0]) * (y - p[0][1])) / area;
    l[2] = ((p[1][0] - p[0][0]) * (y - p[0][1]) - (x - p[0][0]) * (p[1][1] - p[0][1])) / area;
    l[0] = 1.0 - l[1] - l[2];
}

/* The window position of a clip-space vertex, in double. */
static void window(const np_vertex *v, double out[2])
{
    out[0] = ((double)v->pos[0] / v->pos[3] + 1.0) * W / 2.0;
    out[1] = ((double)v->pos[1] / v->pos[3] + 1.0) * H / 2.0;
}

/* The exact noperspective and perspective values of component c of the
 * triangle v[0..2] at (x, y); *scale: S of the tolerance. */
static void ref_tri(const np_vertex *v, int c, double x, double y, double *np, double *persp, double *scale)
{
    double p[3][2], l[3];
    for (int i = 0; i < 3; i++)
        window(&v[i], p[i]);
    bary(p, x, y, l);
    *np = l[0] * v[0].a[c] + l[1] * v[1].a[c] + l[2] * v[2].a[c];
    const double q[3] = {l[0] / v[0].pos[3], l[1] / v[1].pos[3], l[2] / v[2].pos[3]};
    *persp = (q[0] * v[0].a[c] + q[1] * v[1].a[c] + q[2] * v[2].a[c]) / (q[0] + q[1] + q[2]);
    *scale = fabs(v[0].a[c]) + fabs(v[1].a[c] - v[0].a[c]) + fabs(v[2].a[c] - v[0].a[c]);
}

#define TOL(scale) (ldexp((scale), -12))

/* The triangle with very different w per vertex. */
static void big_w_triangle(np_vertex v[3])
{
    v[0] = vtx(4.0f, 4.0f, 0.5f, 1.0f, 0.0f, 20.0f);
    v[1] = vtx(60.0f, 8.0f, 0.5f, 8.0f, 1.0f, -3.0f);
    v[2] = vtx(12.0f, 60.0f, 0.5f, 0.25f, 0.25f, 7.5f);
}

/* Checks every covered sample of px (samples of the standard positions,
 * or the pixel centre when samples is 1) against ref_tri; returns how many
 * were checked, and how many had the perspective value off the reference
 * by more than 0.01 in *persp_far. */
static int check_tri(const float *px, const np_vertex *v, uint32_t samples, int *persp_far)
{
    /* Vulkan's standard 4x positions, in sixteenths */
    static const int pos4[4][2] = {{6, 2}, {14, 6}, {2, 10}, {10, 14}};
    int checked = 0;
    *persp_far = 0;
    for (uint32_t s = 0; s < samples; s++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                const float *o = px + (size_t)s * W * H * 4 + 4 * ((size_t)y * W + x);
                if (o[0] == -1.0f)
                    continue;
                const double sx = x + (samples == 1 ? 0.5 : pos4[s][0] / 16.0);
                const double sy = y + (samples == 1 ? 0.5 : pos4[s][1] / 16.0);
                for (int c = 0; c < 2; c++) {
                    double np, persp, scale;
                    ref_tri(v, c, sx, sy, &np, &persp, &scale);
                    cr_assert(fabs((double)o[c] - np) <= TOL(scale),
                              "sample %u of (%d, %d), component %d: noperspective %.9g, reference %.9g", s, x, y, c,
                              (double)o[c], np);
                    cr_assert(fabs((double)o[2 + c] - persp) <= TOL(scale),
                              "sample %u of (%d, %d), component %d: perspective %.9g, reference %.9g", s, x, y, c,
                              (double)o[2 + c], persp);
                    if (fabs((double)o[2 + c] - np) > 0.01)
                        (*persp_far)++;
                }
                checked++;
            }
    return checked;
}

/* (a) */
Test(noperspective, screen_linear_against_reference)
{
    np_vertex v[3];
    big_w_triangle(v);
    tr_pipeline_desc pd = {0};
    pd.noperspective_mask = 2;
    static float px[W * H * 4];
    for (tr_simd_level simd = TR_SIMD_SCALAR; simd <= TR_SIMD_AVX2; simd++) {
        const np_opts o = {1, simd, 1};
        draw_np(&pd, v, 3, &o, px);
        int far;
        const int n = check_tri(px, v, 1, &far);
        cr_assert(n > 1000, "only %d pixels covered", n);
        cr_assert(far > n, "the perspective varying is far from the reference at only %d of %d pixels", far, n);
        /* one pixel by name: inside, where the two differ a lot */
        const float *o20 = px + 4 * (20 * W + 20);
        cr_assert(o20[0] != -1.0f && fabs((double)o20[0] - (double)o20[2]) > 0.05, "pixel (20, 20): %g vs %g",
                  (double)o20[0], (double)o20[2]);
    }
}

/* (b) */
Test(noperspective, w_one_same_as_perspective)
{
    np_vertex v[6] = {vtx(4, 4, 0.5f, 1, 0, 20),       vtx(60, 8, 0.5f, 1, 1, -3),
                      vtx(12, 60, 0.5f, 1, 0.25f, 7.5f), vtx(63.5f, 63, 0.2f, 1, -1.5f, 0.1f),
                      vtx(1, 40.25f, 0.7f, 1, 3, 3),   vtx(50, 20.75f, 0.1f, 1, 0.3f, -0.7f)};
    static float a[W * H * 4], b[W * H * 4];
    for (tr_simd_level simd = TR_SIMD_SCALAR; simd <= TR_SIMD_AVX2; simd++) {
        const np_opts o = {1, simd, 1};
        tr_pipeline_desc pd = {0};
        draw_np(&pd, v, 6, &o, a);
        pd.noperspective_mask = 3; /* both varyings */
        draw_np(&pd, v, 6, &o, b);
        cr_assert(memcmp(a, b, sizeof a) == 0, "w = 1: noperspective and perspective images differ (simd %d)",
                  (int)simd);
        pd.noperspective_mask = 2;
        draw_np(&pd, v, 6, &o, b);
        cr_assert(memcmp(a, b, sizeof a) == 0, "w = 1: mask 2 and mask 0 images differ (simd %d)", (int)simd);
    }
}

/* A scene of several triangles, w all over the place, one clipped by the
 * near plane. */
static uint32_t scene(np_vertex *v)
{
    big_w_triangle(v);
    v[3] = vtx(-10, 30, 0.3f, 2, 5, 1);
    v[4] = vtx(40, 2.5f, 0.3f, 0.5f, -2, 0.5f);
    v[5] = vtx(70, 70, 0.3f, 4, 0.125f, 9);
    v[6] = vtx(30, 10, -0.5f, 4, 1, 0); /* in front of the near plane */
    v[7] = vtx(62, 62, 0.5f, 0.5f, 0, 1);
    v[8] = vtx(2, 50, 0.5f, 2, 0.5f, 0.5f);
    return 9;
}

/* (c) */
Test(noperspective, same_bits_every_simd_level_and_thread_count)
{
    np_vertex v[9];
    const uint32_t n = scene(v);
    tr_pipeline_desc pd = {0};
    pd.noperspective_mask = 2;
    static float ref[4 * W * H * 4], got[4 * W * H * 4];
    for (uint32_t samples = 1; samples <= 4; samples += 3)
        for (int rate = 0; rate < (samples > 1 ? 2 : 1); rate++) {
            pd.fs_flags = rate ? TR_FS_SAMPLE_RATE : 0;
            const size_t bytes = sizeof(float) * samples * W * H * 4;
            const np_opts o0 = {1, TR_SIMD_SCALAR, samples};
            draw_np(&pd, v, n, &o0, ref);
            for (uint32_t threads = 1; threads <= 3; threads += 2)
                for (tr_simd_level simd = TR_SIMD_SCALAR; simd <= TR_SIMD_AVX2; simd++) {
                    const np_opts o = {threads, simd, samples};
                    draw_np(&pd, v, n, &o, got);
                    cr_assert(memcmp(ref, got, bytes) == 0,
                              "samples %u, per-sample %d, %u threads, simd %d: not the scalar reference's bits",
                              samples, rate, threads, (int)simd);
                }
        }
}

/* (d) multisampled 4x, shaded per sample: each sample's value at its
 * position; shaded per pixel: at the pixel centre, for every sample. */
Test(noperspective, multisampled_4x)
{
    np_vertex v[3];
    big_w_triangle(v);
    tr_pipeline_desc pd = {0};
    pd.noperspective_mask = 2;
    static float px[4 * W * H * 4];
    pd.fs_flags = TR_FS_SAMPLE_RATE;
    const np_opts o = {1, TR_SIMD_DEFAULT, 4};
    draw_np(&pd, v, 3, &o, px);
    int far;
    int n = check_tri(px, v, 4, &far);
    cr_assert(n > 4000 && far > n, "%d samples checked, %d far", n, far);
    /* per pixel: every covered sample holds the centre's value */
    pd.fs_flags = 0;
    draw_np(&pd, v, 3, &o, px);
    n = 0;
    for (uint32_t s = 0; s < 4; s++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                const float *q = px + (size_t)s * W * H * 4 + 4 * ((size_t)y * W + x);
                if (q[0] == -1.0f)
                    continue;
                double np, persp, scale;
                ref_tri(v, 0, x + 0.5, y + 0.5, &np, &persp, &scale);
                /* (a pixel whose centre lies outside still gets the centre's
                 * extrapolated value, as a plane: the same formula) */
                cr_assert(fabs((double)q[0] - np) <= TOL(scale) * 4, "sample %u of (%d, %d): %.9g vs %.9g", s, x, y,
                          (double)q[0], np);
                n++;
            }
    cr_assert(n > 4000);
}

/* (d) lines: linear in t, the projection on the segment; both modes. */
Test(noperspective, lines)
{
    /* a horizontal line and a diagonal one, w 1 to 8 and 0.5 to 4 */
    const np_vertex v[4] = {vtx(4.5f, 10.5f, 0.5f, 1, 0, 10), vtx(60.5f, 10.5f, 0.5f, 8, 1, -6),
                            vtx(4.5f, 20.5f, 0.5f, 0.5f, 2, 0), vtx(44.5f, 60.5f, 0.5f, 4, -2, 1)};
    static float px[W * H * 4];
    for (int mode = 0; mode < 2; mode++)
        for (tr_simd_level simd = TR_SIMD_SCALAR; simd <= TR_SIMD_AVX2; simd++) {
            tr_pipeline_desc pd = {0};
            pd.noperspective_mask = 2;
            pd.topology = TR_TOPOLOGY_LINE_LIST;
            pd.line_mode = mode ? TR_LINE_BRESENHAM : TR_LINE_RECTANGULAR;
            const np_opts o = {1, simd, 1};
            draw_np(&pd, v, 4, &o, px);
            int checked = 0, far = 0;
            for (int y = 0; y < H; y++)
                for (int x = 0; x < W; x++) {
                    const float *q = px + 4 * ((size_t)y * W + x);
                    if (q[0] == -1.0f)
                        continue;
                    const int line = y < 15 ? 0 : 1;
                    const np_vertex *a = &v[2 * line], *b = &v[2 * line + 1];
                    double pa[2], pb[2];
                    window(a, pa);
                    window(b, pb);
                    const double dx = pb[0] - pa[0], dy = pb[1] - pa[1];
                    const double t = ((x + 0.5 - pa[0]) * dx + (y + 0.5 - pa[1]) * dy) / (dx * dx + dy * dy);
                    for (int c = 0; c < 2; c++) {
                        const double np = a->a[c] + t * (b->a[c] - a->a[c]);
                        const double scale = fabs(a->a[c]) + fabs(b->a[c] - a->a[c]);
                        cr_assert(fabs((double)q[c] - np) <= TOL(scale),
                                  "mode %d, (%d, %d), component %d: %.9g, reference %.9g", mode, x, y, c,
                                  (double)q[c], np);
                        if (fabs((double)q[2 + c] - np) > 0.01)
                            far++;
                    }
                    checked++;
                }
            cr_assert(checked > 80 && far > checked, "mode %d: %d fragments, %d far", mode, checked, far);
        }
}

/* Clipping keeps a noperspective varying linear in the framebuffer: the
 * part of a triangle left by the near plane shows the values of the whole
 * triangle's screen-space interpolation.  The clipped vertices snap to
 * 1/256 pixel, which moves the planes a little: the bound is looser. */
Test(noperspective, clipped_by_near_plane)
{
    const np_vertex v[3] = {vtx(30, 4, -0.5f, 8, 1, 0), vtx(60, 60, 0.5f, 1, 0, 1), vtx(4, 50, 0.5f, 0.5f, 0, 0)};
    tr_pipeline_desc pd = {0};
    pd.noperspective_mask = 2;
    static float px[W * H * 4];
    const np_opts o = {1, TR_SIMD_DEFAULT, 1};
    draw_np(&pd, v, 3, &o, px);
    int checked = 0, far = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            const float *q = px + 4 * ((size_t)y * W + x);
            if (q[0] == -1.0f)
                continue;
            for (int c = 0; c < 2; c++) {
                double np, persp, scale;
                ref_tri(v, c, x + 0.5, y + 0.5, &np, &persp, &scale);
                cr_assert(fabs((double)q[c] - np) <= 1e-3, "(%d, %d), component %d: %.9g, reference %.9g", x, y, c,
                          (double)q[c], np);
                cr_assert(fabs((double)q[2 + c] - persp) <= 1e-3, "(%d, %d), component %d: perspective %.9g vs %.9g",
                          x, y, c, (double)q[2 + c], persp);
                if (fabs((double)q[2 + c] - np) > 0.01)
                    far++;
            }
            checked++;
        }
    cr_assert(checked > 300 && far > checked / 2, "%d pixels, %d far", checked, far);
}

/* (e) */
Test(noperspective, errors)
{
    tr_context *ctx = trt_context(1);
    tr_pipeline_desc pd = {0};
    pd.vertex_shader = vs_np;
    pd.fragment_shader = fs_np;
    pd.varying_count = 2;
    pd.flat_mask = 2;
    pd.noperspective_mask = 3;
    tr_pipeline *p = NULL;
    TRT_EXPECT(tr_pipeline_create(ctx, &pd, &p), TR_ERROR_INVALID_DESCRIPTOR);
    cr_expect(p == NULL);
    const char *msg = tr_context_last_error(ctx);
    cr_expect(msg && strstr(msg, "flat_mask") && strstr(msg, "noperspective_mask"), "message: %s", msg ? msg : "(null)");
    pd.flat_mask = 0;
    pd.noperspective_mask = 4; /* past varying_count, as flat_mask */
    TRT_EXPECT(tr_pipeline_create(ctx, &pd, &p), TR_ERROR_INVALID_DESCRIPTOR);
    msg = tr_context_last_error(ctx);
    cr_expect(msg && strstr(msg, "noperspective_mask"), "message: %s", msg ? msg : "(null)");
    pd.flat_mask = 1;
    pd.noperspective_mask = 2; /* different varyings: fine */
    TRT_OK(tr_pipeline_create(ctx, &pd, &p));
    TRT_OK(tr_pipeline_destroy(p));
    tr_context_destroy(ctx);
}
