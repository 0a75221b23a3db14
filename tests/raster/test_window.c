/* The small-triangle path's window kernels (raster_tri.c's raster_window
 * and ss_window: the walk's window_mask, window_raster and window_fill of
 * the AVX2 table)
 * against the block walk's kernels they stand for, on random inputs: the
 * same pixels, the same depth buffer, the same texels, bit for bit.  (The
 * kernels are internal; the tests see them through src/.) */
#include "trtest.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "raster/raster_internal.h"

#if TILERAST_AVX2_KERNELS

/* A block mask in tr__lanes' quad order (bit 4 quad + 2 dy + dx) as the
 * window's row-major one (bit 8 y + x), and back. */
static uint64_t quad_to_rows(uint64_t q)
{
    uint64_t m = 0;
    for (uint32_t y = 0; y < 8; y++)
        for (uint32_t x = 0; x < 8; x++)
            if ((q >> (4 * (4 * (y / 2) + x / 2) + 2 * (y & 1) + (x & 1))) & 1)
                m |= 1ull << (8 * y + x);
    return m;
}

/* A random triangle's edges (as make_edges in test_kernels.c) with its
 * vertices near (cx, cy) pixels, spread over `span` pixels. */
static void small_edges(trt_rng *r, tr__tri *t, double cx, double cy, double span)
{
    int64_t X[3], Y[3];
    for (int k = 0; k < 3; k++) {
        X[k] = (int64_t)((cx + trt_rand_range(r, -span, span)) * 256);
        Y[k] = (int64_t)((cy + trt_rand_range(r, -span, span)) * 256);
    }
    int64_t area = (X[1] - X[0]) * (Y[2] - Y[0]) - (X[2] - X[0]) * (Y[1] - Y[0]);
    int o[3] = {0, 1, 2};
    if (area < 0)
        o[1] = 2, o[2] = 1;
    const unsigned bias = trt_rand_u32(r);
    for (int k = 0; k < 3; k++) {
        int i = o[(k + 1) % 3], j = o[(k + 2) % 3];
        int64_t dx = X[j] - X[i], dy = Y[j] - Y[i];
        t->edge_a[k] = -dy;
        t->edge_b[k] = dx;
        t->edge_c[k] = -dx * Y[i] + dy * X[i] - (int64_t)((bias >> k) & 1);
    }
    t->x0 = (int32_t)X[o[0]];
    t->y0 = (int32_t)Y[o[0]];
}

/* A random window at a multiple of 8 and pixels l inside it. */
static void random_window(trt_rng *r, tr__window *w, int32_t x, int32_t y)
{
    w->x = x;
    w->y = y;
    uint32_t a = trt_rand_u32(r) % 17, b = trt_rand_u32(r) % 17, c = trt_rand_u32(r) % 17, d = trt_rand_u32(r) % 17;
    if (trt_rand_u32(r) % 3 == 0)
        a = 0, b = 16, c = 0, d = 16;
    w->l[0] = a < b ? a : b;
    w->l[2] = a < b ? b : a;
    w->l[1] = c < d ? c : d;
    w->l[3] = c < d ? d : c;
}

/* window_mask against tr__walk_block_coverage (the scalar reference) of
 * each block cut to the window's pixels: small, long thin and huge
 * triangles (beyond |a|, |b| = 2^25 the kernel declines). */
Test(window, mask_equals_block_coverage)
{
    if (!tr__cpu_has_avx2())
        cr_skip_test("this CPU has no AVX2");
    const tr__walk_kernels *ref = tr__kernels_for(TR_SIMD_SCALAR)->walk;
    const tr__walk_kernels *k = tr__kernels_for(TR_SIMD_AVX2)->walk;
    cr_assert_not_null(k->window_mask);
    trt_rng rng = {6060};
    tr__tri t;
    memset(&t, 0, sizeof t);
    uint64_t done = 0, declined = 0, partial = 0;
    for (int iter = 0; iter < 100000; iter++) {
        const int32_t wx = 8 * (int32_t)(trt_rand_u32(&rng) % 64) - 256, wy = 8 * (int32_t)(trt_rand_u32(&rng) % 64) - 256;
        const double span = iter % 4 == 0 ? 4 : iter % 4 == 1 ? 12 : iter % 4 == 2 ? 300 : 300000;
        small_edges(&rng, &t, wx + trt_rand_range(&rng, -4, 20), wy + trt_rand_range(&rng, -4, 20), span);
        tr__window w;
        random_window(&rng, &w, wx, wy);
        w.quads = iter & 1;
        if (!k->window_mask(&t, &w)) {
            declined++;
            continue;
        }
        done++;
        const int32_t r[4] = {wx + (int32_t)w.l[0], wy + (int32_t)w.l[1], wx + (int32_t)w.l[2], wy + (int32_t)w.l[3]};
        for (uint32_t b = 0; b < 4; b++) {
            const int32_t bx = tr__window_bx(&w, b), by = tr__window_by(&w, b);
            const uint64_t q = r[0] < r[2] && r[1] < r[3] ? tr__walk_block_coverage(&t, bx, by, r, ref) : 0;
            const uint64_t want = w.quads ? q : quad_to_rows(q);
            if (w.m[b] != want)
                cr_assert_fail("iteration %d: window (%d,%d) l %u..%u x %u..%u, block %u: %016llx, reference %016llx",
                               iter, wx, wy, w.l[0], w.l[2], w.l[1], w.l[3], b, (unsigned long long)w.m[b],
                               (unsigned long long)want);
            partial += want != 0 && want != ~0ull;
        }
    }
    cr_expect_gt(done, 70000, "only %llu windows drawn", (unsigned long long)done);
    cr_expect_gt(declined, 5000, "only %llu windows declined", (unsigned long long)declined);
    cr_expect_gt(partial, done / 4, "too few partly covered blocks: %llu", (unsigned long long)partial);
}

static float random_float(trt_rng *r, double lo, double hi)
{
    switch (trt_rand_u32(r) % 12) {
    case 0: return NAN;
    case 1: return trt_rand_u32(r) & 1 ? INFINITY : -INFINITY;
    case 2: return trt_rand_u32(r) & 1 ? 0.0f : -0.0f;
    case 3: return (float)trt_rand_range(r, -1e30, 1e30);
    default: return (float)trt_rand_range(r, lo, hi);
    }
}

/* The window's pixels as the walk hands them to shade_quads: the covered
 * quads of each block in ln (with their block's LRZ test and bound) and
 * their live lanes. */
static uint64_t window_quads(const tr__window *w, const tr__window_tests *wt, tr__lanes *ln)
{
    uint64_t live = 0;
    ln->nq = 0;
    for (uint32_t b = 0; b < 4; b++)
        for (uint32_t q = 0; q < 16; q++) {
            const uint32_t qx = 2 * (q & 3), qy = 2 * (q >> 2);
            uint32_t qm = 0;
            for (uint32_t i = 0; i < 4; i++)
                qm |= (uint32_t)((w->m[b] >> (8 * (qy + (i >> 1)) + qx + (i & 1))) & 1) << i;
            if (!qm)
                continue;
            ln->qx[ln->nq] = tr__window_bx(w, b) + (int32_t)qx;
            ln->qy[ln->nq] = tr__window_by(w, b) + (int32_t)qy;
            ln->lrz_test[ln->nq] = (wt->lrz_test >> b) & 1;
            ln->lrz_bound[ln->nq] = wt->lrz_bound[b];
            live |= (uint64_t)qm << (4 * ln->nq);
            ln->nq++;
        }
    return live;
}

/* The pixels of ln's lanes in `lanes` as a window's row-major masks. */
static void lanes_to_window(const tr__window *w, const tr__lanes *ln, uint64_t lanes, uint64_t m[4])
{
    m[0] = m[1] = m[2] = m[3] = 0;
    for (uint64_t s = lanes; s; s &= s - 1) {
        const uint32_t i = (uint32_t)__builtin_ctzll(s);
        const int32_t x = tr__lane_x(ln, i) - w->x, y = tr__lane_y(ln, i) - w->y;
        m[(y >> 3) * 2 + (x >> 3)] |= 1ull << (8 * (y & 7) + (x & 7));
    }
}

/* window_raster against the walk's steps for the same pixels: each block's
 * coverage (tr__walk_block_coverage, the scalar reference), then the
 * scalar lane set-up, LRZ's per-fragment test and the quad depth test (a
 * block at a time: at most 16 quads, as shade_quads gets them), on random
 * triangles (one depth among them), depth buffers of ties, NaNs and
 * infinities, every compare the kernel takes, the write on or off, LRZ
 * tests and whole rejections in random blocks, blocks inside and across
 * the bin. */
Test(window, raster_equals_coverage_lanes_lrz_and_quads)
{
    if (!tr__cpu_has_avx2())
        cr_skip_test("this CPU has no AVX2");
    const tr__kernels *ref = tr__kernels_for(TR_SIMD_SCALAR), *k = tr__kernels_for(TR_SIMD_AVX2);
    cr_assert_not_null(k->window_raster);
    trt_rng rng = {5151};
    enum { PITCH = 40, ROWS = 40 };
    const int32_t origin[2] = {-8, 16};
    tr__tri *t = calloc(1, sizeof(tr__tri) + TR_TRI_ATTR_FLOATS(0) * sizeof(float));
    cr_assert_not_null(t);
    static const float pool[] = {0.0f, -0.0f, 0.25f, 0.5f, 0.75f, 1.0f, NAN, INFINITY};
    static const float ends[] = {0.0f, 0.25f, 0.5f, 0.75f, 1.0f};
    static const tr_compare_op ops[] = {TR_COMPARE_LESS, TR_COMPARE_LESS_OR_EQUAL, TR_COMPARE_GREATER,
                                        TR_COMPARE_GREATER_OR_EQUAL};
    uint64_t lanes = 0, failed = 0, lrz_out = 0, done = 0, declined = 0, rejected = 0;
    for (int iter = 0; iter < 30000; iter++) {
        const int32_t wx = origin[0] + 8 * (int32_t)(trt_rand_u32(&rng) % 3);
        const int32_t wy = origin[1] + 8 * (int32_t)(trt_rand_u32(&rng) % 3);
        small_edges(&rng, t, wx + 8, wy + 8, iter % 50 == 0 ? 300000 : 10);
        /* planes and depths: random, or of one depth */
        t->l1_a = random_float(&rng, -1e-3, 1e-3);
        t->l1_b = random_float(&rng, -1e-3, 1e-3);
        t->l2_a = random_float(&rng, -1e-3, 1e-3);
        t->l2_b = random_float(&rng, -1e-3, 1e-3);
        for (uint32_t i = 0; i < TR_TRI_ATTR_FLOATS(0); i++)
            t->attr[i] = random_float(&rng, -2, 2);
        if (iter % 3 == 0) {
            t->attr[1] = trt_rand_u32(&rng) & 1 ? 0.0f : -0.0f;
            t->attr[2] = trt_rand_u32(&rng) & 1 ? 0.0f : -0.0f;
            t->attr[0] = pool[trt_rand_u32(&rng) % 8];
        }
        tr__window w;
        random_window(&rng, &w, wx, wy);
        w.quads = false;
        if (!tr__window_offsets_ok(t, wx, wy))
            continue;
        float lo = ends[trt_rand_u32(&rng) % 5], hi = ends[trt_rand_u32(&rng) % 5];
        if (lo > hi) {
            const float x = lo;
            lo = hi, hi = x;
        }
        float da[PITCH * ROWS], db[PITCH * ROWS];
        for (size_t i = 0; i < PITCH * ROWS; i++)
            da[i] = trt_rand_u32(&rng) % 3 ? pool[trt_rand_u32(&rng) % 8] : (float)trt_rand_range(&rng, 0, 1);
        memcpy(db, da, sizeof da);
        tr__window_tests wt = {.dbuf = trt_rand_u32(&rng) % 8 ? db : NULL,
                               .pitch = PITCH,
                               .origin = {origin[0], origin[1]},
                               .op = ops[trt_rand_u32(&rng) % 4],
                               .write = trt_rand_u32(&rng) & 1,
                               .inside = trt_rand_u32(&rng) & 0xfu,
                               .reject = trt_rand_u32(&rng) % 4 == 0 ? trt_rand_u32(&rng) & 0xfu : 0,
                               .lrz_test = trt_rand_u32(&rng) % 2 ? trt_rand_u32(&rng) & 0xfu : 0,
                               .lrz_dir = trt_rand_u32(&rng) & 1 ? TR_LRZ_DIRECTION_LESS : TR_LRZ_DIRECTION_GREATER};
        for (uint32_t b = 0; b < 4; b++)
            wt.lrz_bound[b] = ends[trt_rand_u32(&rng) % 5];
        /* pixels rejected before the tests (a multisampled pass's LRZ texels) */
        uint64_t reject_m[4];
        for (uint32_t b = 0; b < 4; b++)
            reject_m[b] = trt_rand_u32(&rng) % 3 ? 0 : ((uint64_t)trt_rand_u32(&rng) << 32) | trt_rand_u32(&rng);
        if (iter % 4 == 1)
            wt.reject_m = reject_m;
        tr__window_counts cnt;
        tr__window got = w;
        uint64_t got_covm[4];
        if (!k->window_raster(t, lo, hi, &wt, &got, &cnt, iter & 1 ? got_covm : NULL)) {
            declined++;
            continue;
        }
        done++;
        /* the walk's steps, block by block */
        const int32_t rr[4] = {wx + (int32_t)w.l[0], wy + (int32_t)w.l[1], wx + (int32_t)w.l[2], wy + (int32_t)w.l[3]};
        for (uint32_t b = 0; b < 4; b++) {
            const int32_t bx = tr__window_bx(&w, b), by = tr__window_by(&w, b);
            const uint64_t cov = rr[0] < rr[2] && rr[1] < rr[3]
                                     ? quad_to_rows(tr__walk_block_coverage(t, bx, by, rr, ref->walk))
                                     : 0;
            cr_assert_eq(cnt.covered[b], (uint32_t)tr__popcount64(cov), "iteration %d, block %u: %u covered, walk %u",
                         iter, b, cnt.covered[b], (uint32_t)tr__popcount64(cov));
            if (iter & 1)
                cr_assert_eq(got_covm[b], cov, "iteration %d, block %u: covered %016llx, walk %016llx", iter, b,
                             (unsigned long long)got_covm[b], (unsigned long long)cov);
            uint64_t want_pass = 0, want_rej = 0;
            const uint64_t tested = cov & ~(wt.reject_m ? wt.reject_m[b] : 0);
            if (tested && !((wt.reject >> b) & 1)) {
                tr__window one = w;
                for (uint32_t c = 0; c < 4; c++)
                    one.m[c] = c == b ? tested : 0;
                tr__lanes ln;
                memset(&ln, 0, sizeof ln);
                uint64_t live = window_quads(&one, &wt, &ln);
                ref->lanes_setup(t, lo, hi, &ln, TR__LANES_Z);
                const uint64_t rej = (wt.lrz_test >> b) & 1 ? ref->lanes_lrz_reject(&ln, live, wt.lrz_dir) : 0;
                live &= ~rej;
                const uint64_t fail = wt.dbuf ? ref->depth_quads(da, PITCH, origin, &ln, live, wt.op, wt.write) : 0;
                uint64_t m[4];
                lanes_to_window(&w, &ln, rej, m);
                want_rej = m[b];
                lanes_to_window(&w, &ln, live & ~fail, m);
                want_pass = m[b];
                lanes += (uint64_t)tr__popcount64(live);
                failed += (uint64_t)tr__popcount64(fail);
                lrz_out += (uint64_t)tr__popcount64(rej);
            } else if (cov) {
                rejected++;
            }
            cr_assert_eq(got.m[b], want_pass, "iteration %d (compare %d), block %u: survivors %016llx, walk %016llx",
                         iter, wt.op, b, (unsigned long long)got.m[b], (unsigned long long)want_pass);
            cr_assert_eq(cnt.lrz_rejected[b], (uint32_t)tr__popcount64(want_rej),
                         "iteration %d, block %u: LRZ rejected %u, walk %u", iter, b, cnt.lrz_rejected[b],
                         (uint32_t)tr__popcount64(want_rej));
            cr_assert_eq(cnt.passed[b], (uint32_t)tr__popcount64(want_pass), "iteration %d, block %u: %u passed",
                         iter, b, cnt.passed[b]);
        }
        if (wt.dbuf)
            cr_assert_eq(memcmp(da, db, sizeof da), 0, "iteration %d: depth buffer differs", iter);
    }
    cr_expect_gt(done, 20000, "only %llu windows tested", (unsigned long long)done);
    cr_expect_gt(declined, 100, "only %llu windows declined", (unsigned long long)declined);
    cr_expect_gt(rejected, 1000, "only %llu blocks rejected whole", (unsigned long long)rejected);
    cr_expect(failed > lanes / 8 && failed < lanes * 7 / 8, "%llu of %llu lanes failed", (unsigned long long)failed,
              (unsigned long long)lanes);
    cr_expect_gt(lrz_out, lanes / 50, "only %llu lanes rejected by LRZ", (unsigned long long)lrz_out);
    free(t);
}

/* window_fill against the texel written pixel by pixel: random masks,
 * blocks inside and across the bin, a padded buffer whose untouched bytes
 * must stay as they were. */
Test(window, fill_writes_exactly_its_pixels)
{
    if (!tr__cpu_has_avx2())
        cr_skip_test("this CPU has no AVX2");
    const tr__kernels *k = tr__kernels_for(TR_SIMD_AVX2);
    cr_assert_not_null(k->window_fill);
    trt_rng rng = {3131};
    enum { PITCH = 40, ROWS = 40 };
    const int32_t origin[2] = {-8, 16};
    uint32_t a[PITCH * ROWS], b[PITCH * ROWS];
    uint64_t written = 0;
    for (int iter = 0; iter < 20000; iter++) {
        tr__window w;
        w.x = origin[0] + 8 * (int32_t)(trt_rand_u32(&rng) % 3);
        w.y = origin[1] + 8 * (int32_t)(trt_rand_u32(&rng) % 3);
        for (uint32_t i = 0; i < 4; i++) {
            const uint32_t kind = trt_rand_u32(&rng) % 4;
            w.m[i] = kind == 0 ? 0 : kind == 1 ? ~0ull
                                               : ((uint64_t)trt_rand_u32(&rng) << 32 | trt_rand_u32(&rng)) &
                                                     ((uint64_t)trt_rand_u32(&rng) << 32 | trt_rand_u32(&rng));
        }
        for (size_t i = 0; i < PITCH * ROWS; i++)
            a[i] = trt_rand_u32(&rng);
        memcpy(b, a, sizeof a);
        const uint32_t texel = trt_rand_u32(&rng), inside = trt_rand_u32(&rng) & 0xfu;
        for (uint32_t i = 0; i < 4; i++)
            for (uint32_t p = 0; p < 64; p++)
                if ((w.m[i] >> p) & 1) {
                    const int32_t x = tr__window_bx(&w, i) + (int32_t)(p & 7), y = tr__window_by(&w, i) + (int32_t)(p >> 3);
                    a[(y - origin[1]) * PITCH + (x - origin[0])] = texel;
                    written++;
                }
        k->window_fill((uint8_t *)b, PITCH, origin, inside, &w, texel);
        cr_assert_eq(memcmp(a, b, sizeof a), 0, "iteration %d: texels differ", iter);
    }
    cr_expect_gt(written, 1000000);
}

/* ---- whole passes: the window path against the scalar reference --------------------- */

enum { RW = 150, RH = 110, RN = 1500 }; /* (trt_crc_samples takes up to 160x120) */

typedef struct window_frame {
    uint8_t color[2][RW * RH * 4];
    uint8_t depth[RW * RH * 4];
    uint32_t lrz_png;      /* CRC of tr_image_write_lrz_png's file (LRZ's bounds and rejections per texel) */
    tr_pass_stats stats;
} window_frame;

/* The CRC of the depth image's LRZ picture, written to a file of this
 * process's own. */
static uint32_t lrz_picture_crc(const tr_image *depth)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/tilerast_test_window_%ld.png", (long)getpid());
    TRT_OK(tr_image_write_lrz_png(depth, 0, path));
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f);
    static uint8_t bytes[1 << 20];
    const size_t n = fread(bytes, 1, sizeof bytes, f);
    fclose(f);
    remove(path);
    cr_assert(n > 0 && n < sizeof bytes, "LRZ picture of %zu bytes", n);
    return trt_crc32(bytes, n, 0);
}

typedef struct window_case {
    tr_compare_op op;
    float clear_depth;
    bool lrz, write, two_colors, per_vertex_depth;
    tr_rect area;          /* the render area: unaligned, so blocks cross the bins' edges */
    uint32_t gmem;         /* small budgets: many bins */
    bool flip;             /* the second half of the small triangles with the opposite compare */
    uint32_t samples;      /* 0: single-sampled (then images are compared byte for byte, else
                              by trt_crc_samples) */
    uint32_t sample_mask;  /* 0: all */
} window_case;

/* Small flat triangles (most in one window, some larger) behind a few
 * large near ones drawn first (LRZ rejects blocks and fragments behind
 * them), into one or two RGBA8 attachments and D32. */
static void window_render(const window_case *c, bool scalar, uint32_t threads, window_frame *out)
{
    tr_context_desc cd = {0};
    cd.threads = threads;
    cd.simd = scalar ? TR_SIMD_SCALAR : TR_SIMD_DEFAULT;
    cd.gmem_bytes = c->gmem;
    tr_context *ctx = trt_context_desc(&cd);
    const uint32_t ns = c->samples ? c->samples : 1;
    tr_image *col[2] = {trt_image_ms(ctx, TR_FORMAT_R8G8B8A8_UNORM, RW, RH, ns),
                        trt_image_ms(ctx, TR_FORMAT_R8G8B8A8_UNORM, RW, RH, ns)};
    tr_image *ds = trt_image_ms(ctx, TR_FORMAT_D32_SFLOAT, RW, RH, ns);
    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.color_count = c->two_colors ? 2 : 1;
    for (uint32_t a = 0; a < rp.color_count; a++) {
        rp.color[a].image = col[a];
        rp.color[a].load_op = TR_LOAD_OP_CLEAR;
        rp.color[a].clear_color[2] = 0.5f;
        rp.color[a].clear_color[3] = 1.0f;
    }
    rp.depth.image = ds;
    rp.depth.depth_load_op = TR_LOAD_OP_CLEAR;
    rp.depth.clear_depth = c->clear_depth;
    rp.render_area = c->area;
    if (!c->lrz)
        rp.flags |= TR_PASS_NO_LRZ;
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
    tr_pipeline_desc pd = {0};
    pd.fragment_shader = trt_fs_varying;
    pd.fs_flags = TR_FS_NO_FRAG_COORD;
    pd.flat_mask = 1;
    pd.depth_test = 1;
    pd.depth_write = c->write;
    pd.depth_compare = c->op;
    pd.blend[0].write_mask = pd.blend[1].write_mask = 0xfu;
    pd.multisample.samples = ns;
    pd.multisample.sample_mask = c->sample_mask;
    tr_pipeline *near = trt_pipeline(ctx, &(tr_pipeline_desc){.fragment_shader = trt_fs_varying,
                                                               .fs_flags = TR_FS_NO_FRAG_COORD,
                                                               .flat_mask = 1,
                                                               .depth_test = 1,
                                                               .depth_write = 1,
                                                               .depth_compare = c->op,
                                                               .blend = {{.write_mask = 0xfu}, {.write_mask = 0xfu}},
                                                               .multisample = {.samples = ns}});
    tr_pipeline *p = trt_pipeline(ctx, &pd);
    trt_rng rng = {777};
    static trt_vertex v[3 * RN];
    const bool less = c->op == TR_COMPARE_LESS || c->op == TR_COMPARE_LESS_OR_EQUAL;
    /* large near triangles first: LRZ writes */
    for (int t = 0; t < 6; t++) {
        const float cx = trt_rand_coord(&rng, 0, RW), cy = trt_rand_coord(&rng, 0, RH);
        const float z = less ? 0.2f : 0.8f;
        const float colr[4] = {1, 0, 0, 1};
        for (int i = 0; i < 3; i++)
            v[3 * t + i] = trt_vpx(cx + trt_rand_coord(&rng, -60, 60), cy + trt_rand_coord(&rng, -60, 60), z, RW, RH, colr);
    }
    TRT_OK(tr_cmd_bind_pipeline(ctx, near));
    trt_draw(ctx, v, 18);
    for (int t = 0; t < RN; t++) {
        const float size = t % 10 == 0 ? 16.0f : t % 3 == 0 ? 1.5f : 4.5f;
        const float cx = trt_rand_coord(&rng, -4, RW + 4), cy = trt_rand_coord(&rng, -4, RH + 4);
        const float colr[4] = {(float)trt_rand_range(&rng, 0, 1), (float)trt_rand_range(&rng, 0, 1),
                               (float)trt_rand_range(&rng, 0, 1), 1.0f};
        /* one depth per triangle (the kernels' one-depth case) or one per corner */
        const float z = (float)trt_rand_range(&rng, 0, 1);
        for (int i = 0; i < 3; i++)
            v[3 * t + i] = trt_vpx(cx + trt_rand_coord(&rng, -size, size), cy + trt_rand_coord(&rng, -size, size),
                                   c->per_vertex_depth ? (float)trt_rand_range(&rng, 0, 1) : z, RW, RH, colr);
    }
    TRT_OK(tr_cmd_bind_pipeline(ctx, p));
    if (!c->flip) {
        trt_draw(ctx, v, 3 * RN);
    } else {
        /* the other direction over blocks whose depth ranges the first
         * half's GMEM block tests made and its window triangles changed */
        trt_draw(ctx, v, 3 * (RN / 2));
        pd.depth_compare = less ? TR_COMPARE_GREATER : TR_COMPARE_LESS;
        TRT_OK(tr_cmd_bind_pipeline(ctx, trt_pipeline(ctx, &pd)));
        trt_draw(ctx, v + 3 * (RN / 2), 3 * (RN - RN / 2));
    }
    TRT_OK(tr_cmd_end_render_pass(ctx, &out->stats));
    memset(out, 0, offsetof(window_frame, stats));
    if (c->lrz)
        out->lrz_png = lrz_picture_crc(ds);
    if (ns == 1) {
        for (uint32_t a = 0; a < rp.color_count; a++)
            trt_download(col[a], 0, 0, TR_ASPECT_DEFAULT, out->color[a]);
        trt_download(ds, 0, 0, TR_ASPECT_DEFAULT, out->depth);
    } else {
        /* every sample of both attachments (and depth), as CRCs */
        for (uint32_t a = 0; a < rp.color_count; a++) {
            const uint32_t crc = trt_crc_samples(col[a], ds, ns);
            memcpy(out->color[a], &crc, sizeof crc);
        }
    }
    tr_context_destroy(ctx);
}

#define SAME_STAT(f) cr_assert_eq(got.stats.f, ref.stats.f, "case %zu, %u threads: " #f " %llu, reference %llu", i, \
                                  threads, (unsigned long long)got.stats.f, (unsigned long long)ref.stats.f)

/* Images and statistics of passes whose small triangles take the window
 * path equal the scalar reference's (which walks every triangle block by
 * block), at 1 and 3 threads: LESS and GREATER families, depth writes on
 * and off, LRZ on and off, one and two attachments, unaligned render
 * areas and small GMEM budgets (blocks across bins' edges), one depth per
 * triangle and one per corner. */
Test(window, passes_equal_the_reference, .timeout = 600)
{
    if (!tr__cpu_has_avx2())
        cr_skip_test("this CPU has no AVX2");
    static const window_case cases[] = {
        {TR_COMPARE_LESS, 1.0f, true, true, false, false, {0, 0, 0, 0}, 0, false, 0, 0},
        {TR_COMPARE_LESS_OR_EQUAL, 1.0f, true, true, true, true, {3, 5, 140, 97}, 16 * 1024, false, 0, 0},
        {TR_COMPARE_GREATER, 0.0f, true, true, false, false, {1, 2, 147, 105}, 24 * 1024, false, 0, 0},
        {TR_COMPARE_GREATER_OR_EQUAL, 0.0f, false, true, false, true, {0, 0, 0, 0}, 16 * 1024, false, 0, 0},
        {TR_COMPARE_LESS, 1.0f, false, false, true, false, {5, 0, 131, 110}, 0, false, 0, 0},
        {TR_COMPARE_LESS, 0.5f, true, true, false, true, {9, 7, 120, 90}, 32 * 1024, false, 0, 0},
        {TR_COMPARE_LESS, 0.5f, false, true, false, true, {0, 0, 0, 0}, 0, true, 0, 0},
        {TR_COMPARE_GREATER_OR_EQUAL, 0.5f, true, true, true, false, {2, 3, 141, 99}, 16 * 1024, true, 0, 0},
        /* multisampled: each sample's window (raster_window_ms), LRZ per texel */
        {TR_COMPARE_LESS, 1.0f, true, true, false, false, {0, 0, 0, 0}, 0, false, 4, 0},
        {TR_COMPARE_LESS_OR_EQUAL, 1.0f, true, true, true, true, {3, 5, 140, 97}, 32 * 1024, false, 2, 0},
        {TR_COMPARE_GREATER, 0.0f, true, true, false, false, {1, 2, 147, 105}, 0, false, 8, 0x5bu},
        {TR_COMPARE_LESS, 0.5f, false, true, true, true, {0, 0, 0, 0}, 64 * 1024, true, 4, 0x6u},
    };
    static window_frame ref, got;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        window_render(&cases[i], true, 1, &ref);
        cr_assert_gt(ref.stats.fragments_written, 2000, "case %zu", i);
        for (uint32_t threads = 1; threads <= 3; threads += 2) {
            window_render(&cases[i], false, threads, &got);
            for (int a = 0; a < 2; a++)
                cr_assert_eq(memcmp(ref.color[a], got.color[a], sizeof ref.color[a]), 0,
                             "case %zu, %u threads: attachment %d differs from the reference", i, threads, a);
            cr_assert_eq(memcmp(ref.depth, got.depth, sizeof ref.depth), 0, "case %zu, %u threads: depth differs", i,
                         threads);
            cr_assert_eq(got.lrz_png, ref.lrz_png, "case %zu, %u threads: the LRZ picture differs", i, threads);
            SAME_STAT(fragments_rasterized);
            SAME_STAT(fragments_depth_rejected);
            SAME_STAT(fragments_lrz_rejected);
            SAME_STAT(fragments_shaded);
            SAME_STAT(fragments_written);
            SAME_STAT(lrz_blocks_tested);
            SAME_STAT(lrz_blocks_rejected);
            SAME_STAT(lrz_blocks_written);
        }
        if (cases[i].lrz && !cases[i].flip)
            cr_expect_gt(ref.stats.fragments_lrz_rejected, 100, "case %zu: LRZ rejected only %llu", i,
                         (unsigned long long)ref.stats.fragments_lrz_rejected);
    }
}
#undef SAME_STAT

/* The GMEM block depth test keeps each 8x8 block's depth range until a
 * depth write in the block: window triangles' writes must forget it too.
 * A far quad (LESS, rejected by the ranges it makes, [0.5, 0.5]), then
 * small near triangles (window path) at 0.1, then a quad at 0.3 tested
 * GREATER: it passes exactly where they wrote, as the reference finds. */
static void range_render(bool scalar, uint8_t *color)
{
    enum { W = 64, H = 48 };
    tr_context_desc cd = {0};
    cd.threads = 1;
    cd.simd = scalar ? TR_SIMD_SCALAR : TR_SIMD_DEFAULT;
    tr_context *ctx = trt_context_desc(&cd);
    tr_image *col = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, W, H), *ds = trt_image(ctx, TR_FORMAT_D32_SFLOAT, W, H);
    tr_render_pass_desc rp = trt_pass_desc(col, ds);
    rp.depth.clear_depth = 0.5f;
    rp.flags |= TR_PASS_NO_LRZ;
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
    tr_pipeline_desc pd = {.fragment_shader = trt_fs_varying, .fs_flags = TR_FS_NO_FRAG_COORD, .flat_mask = 1,
                           .depth_test = 1, .depth_write = 1, .depth_compare = TR_COMPARE_LESS,
                           .blend = {{.write_mask = 0xfu}}};
    tr_pipeline *less = trt_pipeline(ctx, &pd);
    pd.depth_compare = TR_COMPARE_GREATER;
    tr_pipeline *greater = trt_pipeline(ctx, &pd);
    static const float red[4] = {1, 0, 0, 1}, green[4] = {0, 1, 0, 1}, blue[4] = {0, 0, 1, 1};
    trt_vertex quad[6];
    const float qx[6] = {-4, W + 4, -4, -4, W + 4, W + 4}, qy[6] = {-4, -4, H + 4, H + 4, -4, H + 4};
    for (int i = 0; i < 6; i++)
        quad[i] = trt_vpx(qx[i], qy[i], 0.9f, W, H, red);
    TRT_OK(tr_cmd_bind_pipeline(ctx, less));
    trt_draw(ctx, quad, 6);
    trt_vertex small[3 * 40];
    for (int t = 0; t < 40; t++) {
        const float x = 3.0f + (float)(t % 8) * 7.5f, y = 2.0f + (float)(t / 8) * 9.0f;
        small[3 * t] = trt_vpx(x, y, 0.1f, W, H, green);
        small[3 * t + 1] = trt_vpx(x + 5.0f, y + 1.0f, 0.1f, W, H, green);
        small[3 * t + 2] = trt_vpx(x + 1.0f, y + 6.0f, 0.1f, W, H, green);
    }
    trt_draw(ctx, small, 3 * 40);
    for (int i = 0; i < 6; i++)
        quad[i] = trt_vpx(qx[i], qy[i], 0.3f, W, H, blue);
    TRT_OK(tr_cmd_bind_pipeline(ctx, greater));
    trt_draw(ctx, quad, 6);
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    trt_download(col, 0, 0, TR_ASPECT_DEFAULT, color);
    tr_context_destroy(ctx);
}

Test(window, depth_writes_forget_block_ranges)
{
    if (!tr__cpu_has_avx2())
        cr_skip_test("this CPU has no AVX2");
    static uint8_t ref[64 * 48 * 4], got[64 * 48 * 4];
    range_render(true, ref);
    range_render(false, got);
    uint32_t blue = 0;
    for (size_t i = 0; i < sizeof ref; i += 4)
        blue += ref[i + 2] == 255;
    cr_assert_gt(blue, 300, "the far quad's test should pass where the small triangles wrote (%u pixels)", blue);
    cr_assert_eq(memcmp(ref, got, sizeof ref), 0, "the image differs from the reference");
}

#else
Test(window, kernels_need_avx2)
{
    cr_skip_test("built without the AVX2 kernels");
}
#endif
