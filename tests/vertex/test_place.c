/* Placing shaded vertices in the window (vertex_internal.h, tr__vwin): the
 * AVX2 and FMA kernel against the scalar one, and the scalar one against
 * what set-up and clipping compute from the same vertex (tr__vertex_window,
 * tr__vertex_clip's trivial accept, the subpixel snap), on random batches
 * with the values that test each step: NaN and infinite positions, w at
 * and below the clip minimum, z outside [0, w], coordinates at the guard
 * band, window positions on snapping ties, flipped and fractional
 * viewports.  (The kernels are internal; the tests see them through src/.) */
#include "trtest.h"

#include <math.h>
#include <string.h>

#include "internal.h"
#include "vertex/vertex_internal.h"

static float pick(trt_rng *r, float scale)
{
    switch (trt_rand_u32(r) % 16) {
    case 0: return NAN;
    case 1: return trt_rand_u32(r) & 1 ? INFINITY : -INFINITY;
    case 2: return trt_rand_u32(r) & 1 ? 0.0f : -0.0f;
    case 3: return (float)trt_rand_range(r, -3e38, 3e38);
    case 4: return TR_W_MIN * (trt_rand_u32(r) & 1 ? 1.0f : 0.5f);
    default: return (float)trt_rand_range(r, -scale, scale);
    }
}

/* A random viewport: the usual, flipped, fractional, or off to one side. */
static tr_viewport random_viewport(trt_rng *r)
{
    tr_viewport vp = {0, 0, 1920, 1080, 0, 1};
    switch (trt_rand_u32(r) % 4) {
    case 1: vp.y = 1080, vp.height = -1080; break;
    case 2: vp = (tr_viewport){13.25f, -7.5f, 333.5f, 201.75f, 0.25f, 0.75f}; break;
    case 3: vp = (tr_viewport){-5000.0f, 4000.0f, 16384.0f, 16384.0f, 1.0f, 0.0f}; break;
    default: break;
    }
    return vp;
}

static bool same_float(float a, float b)
{
    return !memcmp(&a, &b, sizeof a) || (isnan(a) && isnan(b));
}

Test(vertex, placed_lanes_equal_window_clip_and_snap)
{
    trt_rng rng = {1357};
    const bool avx2 = tr__cpu_has_avx2_fma();
    uint64_t inside = 0, lanes = 0, ties = 0;
    for (int iter = 0; iter < 20000; iter++) {
        tr_viewport vp = random_viewport(&rng);
        float gb_x, gb_y;
        tr__vertex_guard_band(&vp, &gb_x, &gb_y);
        const tr__vertex_place place = {&vp, gb_x, gb_y, false};
        tr_vs_batch b;
        memset(&b, 0, sizeof b);
        const uint32_t n = 1 + trt_rand_u32(&rng) % TR_VS_LANES;
        for (uint32_t l = 0; l < TR_VS_LANES; l++) {
            const float w = iter % 3 ? (float)trt_rand_range(&rng, 0.5, 3) : pick(&rng, 3);
            const float s = trt_rand_u32(&rng) % 5 ? 1.2f : gb_x * 1.05f;
            b.position[0][l] = iter % 4 ? (float)trt_rand_range(&rng, -s, s) * w : pick(&rng, 2 * w);
            b.position[1][l] = iter % 4 ? (float)trt_rand_range(&rng, -s, s) * w : pick(&rng, 2 * w);
            b.position[2][l] = iter % 5 ? (float)trt_rand_range(&rng, -0.1, 1.1) * w : pick(&rng, w);
            b.position[3][l] = w;
            if (trt_rand_u32(&rng) % 8 == 0) {
                /* a window x on a snapping tie: (k + 1/2) / 256 pixel */
                const float wx = ((float)(trt_rand_u32(&rng) % 4096) + 0.5f) / 256.0f;
                b.position[0][l] = ((wx - (vp.x + vp.width * 0.5f)) / (vp.width * 0.5f)) * w;
                ties++;
            }
        }
        tr__vwin ref[TR_VS_LANES], got[TR_VS_LANES];
        memset(ref, 0xa5, sizeof ref);
        memset(got, 0xa5, sizeof got);
        tr__vertex_place_lanes(&place, &b, n, ref);
        if (avx2)
            tr__vertex_place_lanes_avx2(&place, &b, n, got);
        for (uint32_t l = 0; l < n; l++) {
            const float clip[4] = {b.position[0][l], b.position[1][l], b.position[2][l], b.position[3][l]};
            /* the scalar placement is the window and clip's own */
            double win[4];
            tr__vertex_window(&vp, clip, win);
            for (int c = 0; c < 4; c++)
                cr_assert(same_float(ref[l].win[c], (float)win[c]), "iteration %d lane %u: win[%d]", iter, l, c);
            const float *in[3] = {clip, clip, clip};
            float out[3 * 4 * TR_CLIP_MAX_VERTS];
            tr__clip_poly poly;
            bool clipped;
            const bool trivial = !tr__vertex_nonfinite(clip) &&
                                 tr__vertex_clip(in, 4, 0, gb_x, gb_y, out, &poly, &clipped) == 3 && !clipped;
            const bool band = fabs(win[0]) <= 2.0 * TR_GUARD_BAND && fabs(win[1]) <= 2.0 * TR_GUARD_BAND;
            cr_assert_eq(ref[l].inside, trivial && band, "iteration %d lane %u: inside", iter, l);
            if (band) {
                cr_assert_eq(ref[l].sub[0], (int32_t)tr__snap_subpixel(win[0]), "iteration %d lane %u: x", iter, l);
                cr_assert_eq(ref[l].sub[1], (int32_t)tr__snap_subpixel(win[1]), "iteration %d lane %u: y", iter, l);
            }
            inside += ref[l].inside;
            lanes++;
            if (!avx2)
                continue;
            /* the AVX2 and FMA kernel: the same bits */
            for (int c = 0; c < 4; c++)
                cr_assert(same_float(got[l].win[c], ref[l].win[c]), "iteration %d lane %u: AVX2 win[%d] %a, %a",
                          iter, l, c, (double)got[l].win[c], (double)ref[l].win[c]);
            cr_assert_eq(got[l].inside, ref[l].inside, "iteration %d lane %u: AVX2 inside", iter, l);
            cr_assert_eq(got[l].sub[0], ref[l].sub[0], "iteration %d lane %u: AVX2 x", iter, l);
            cr_assert_eq(got[l].sub[1], ref[l].sub[1], "iteration %d lane %u: AVX2 y", iter, l);
        }
        /* lanes past n untouched */
        for (uint32_t l = n; l < TR_VS_LANES && avx2; l++)
            cr_assert_eq(got[l].inside, 0xa5a5a5a5u, "iteration %d: lane %u past the batch written", iter, l);
    }
    cr_expect(inside > lanes / 3 && inside < lanes * 9 / 10, "%llu of %llu lanes inside", (unsigned long long)inside,
              (unsigned long long)lanes);
    cr_expect_gt(ties, 10000);
}
