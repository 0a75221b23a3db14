/* Sampler feedback's exact mode against a brute-force model (feedback.h,
 * "What a write records"; texture.h, "Sampling arithmetic" and "Footprint").
 *
 * The model is the test-side sampler of tests/common/ref_sampling.c (LOD,
 * levels, taps, addressing, written from texture.h alone), instrumented: per
 * live lane it lists every texel the sample reads (each tap's 1 or 2x2
 * texels, in level_hi and, where mipmap linear has a fraction, level_lo;
 * border texels read nothing) and marks the region (x / rw, y / rh) of its
 * level.  tr_fs_write_feedback is called on hand-built blocks (no render
 * pass) with random textures, region sizes, samplers, quads, shader
 * arguments and live masks, into a MipRegionUsed and a MinMip map; every
 * decoded level must equal the model exactly, and MinMip the smear of the
 * model's marks.  On a mismatch the failing lane is found by writing the
 * lanes one at a time, and the message describes it.  Also: the examples
 * of feedback.h by hand, and tr_feedback_map_dropped_writes. */
#include "ref_sampling.h"
#include "trtest.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

enum {
    LANES = TR_FS_LANES,
    CASES = 10000,      /* random cases: ~0.6 s in Release, ~11 s with the sanitizers (2 cores) */
    MAX_SIZE = 256,     /* texture sizes: 8 .. MAX_SIZE per axis */
    MAX_LEVELS = 6,
    MAX_LAYERS = 3,
    MAX_WRITES = 3,     /* writes per case, into the same maps */
    GRID = MAX_SIZE / TR_FEEDBACK_MIN_REGION, /* the largest region grid per axis */
};

static tr_context *g_ctx;

static void fini(void)
{
    tr_context_destroy(g_ctx); /* and every image, sampler and map in it */
    g_ctx = NULL;
}

TestSuite(feedback_exact, .fini = fini);

static uint32_t lvl(uint32_t size, uint32_t level)
{
    return size >> level ? size >> level : 1u;
}

static uint32_t ceil_div(uint32_t a, uint32_t b)
{
    return (a + b - 1) / b;
}

/* ==== a case ================================================================================== */

typedef struct fb_write {
    uint32_t count;
    uint64_t live;
    uint32_t tslot;     /* texture slot written through */
    int sampler;        /* which of the case's samplers that slot holds */
    const char *mode;   /* how the LOD is given, for messages */
    float s[LANES], t[LANES], layer[LANES], bias[LANES], lod[LANES], lod_clamp[LANES];
    float dsdx[LANES], dtdx[LANES], dsdy[LANES], dtdy[LANES];
    tr_sample_args args; /* points into the arrays above */
} fb_write;

typedef struct fb_case {
    uint32_t index;
    uint32_t w, h, levels, layers, rw, rh;
    uint32_t grid_w[MAX_LEVELS], grid_h[MAX_LEVELS];
    trref_sampler sm[2];
    uint32_t fslot_used, fslot_min; /* feedback slots of the two maps */
    uint32_t writes;
    fb_write wr[MAX_WRITES];
} fb_case;

/* The model's marks: [layer][level][y * grid_w + x], 1 = read. */
typedef uint8_t fb_marks[MAX_LAYERS][MAX_LEVELS][GRID * GRID];

/* What the random cases reached, asserted at the end so that the inputs
 * keep covering the rules. */
static struct {
    uint64_t lanes, helpers, past_count, taps[TR_MAX_ANISOTROPY + 1], lo_reads, border, marks[MAX_LEVELS];
    uint64_t linear, nearest, mag, layers_hit[MAX_LAYERS], smear_wider, mismatched_grid;
} g_seen;

static fb_case g_case;
static fb_marks g_want, g_lane_want;
static uint8_t g_got[GRID * GRID];

static void describe_sampler(const tr_sampler_desc *d, char *buf, size_t size)
{
    snprintf(buf, size, "mag %d min %d mip %d addr %d/%d aniso %u bias %a min_lod %a max_lod %a", (int)d->mag_filter,
             (int)d->min_filter, (int)d->mipmap_mode, (int)d->address_u, (int)d->address_v, d->max_anisotropy,
             (double)d->lod_bias, (double)d->min_lod, (double)d->max_lod);
}

static void describe_case(const fb_case *c, char *buf, size_t size)
{
    char s0[160], s1[160];
    describe_sampler(&c->sm[0].d, s0, sizeof(s0));
    describe_sampler(&c->sm[1].d, s1, sizeof(s1));
    snprintf(buf, size,
             "case %u: texture %ux%u, %u levels, %u layers, regions %ux%u; sampler 0 {%s}; sampler 1 {%s}; "
             "%u writes",
             c->index, c->w, c->h, c->levels, c->layers, c->rw, c->rh, s0, s1, c->writes);
}

/* ==== the model ================================================================================== */

/* Texel (x, y) of `level` read: mark its region (border texels read nothing). */
static void mark(const fb_case *c, fb_marks m, uint32_t layer, uint32_t level, int64_t x, int64_t y)
{
    if (x < 0 || y < 0) {
        g_seen.border++;
        return;
    }
    g_seen.marks[level]++;
    cr_assert(x < lvl(c->w, level) && y < lvl(c->h, level), "model: texel (%" PRId64 ", %" PRId64 ") outside level %u",
              x, y, level);
    m[layer][level][(uint32_t)y / c->rh * c->grid_w[level] + (uint32_t)x / c->rw] = 1;
}

/* texture.h steps 7-8 for one tap in one level. */
static void mark_tap(const fb_case *c, const trref_sampler *sm, fb_marks m, uint32_t layer, uint32_t level, float s,
                     float t, const int32_t off[2], bool linear)
{
    const uint32_t w = lvl(c->w, level), h = lvl(c->h, level);
    int64_t U, V; /* with the texel offset, in this level's texels (texture.h step 7) */
    trref_texel_coords(s, t, w, h, off, &U, &V);
    const tr_address_mode au = sm->d.address_u, av = sm->d.address_v;
    if (!linear) {
        mark(c, m, layer, level, trref_address(trref_floor_div256(U), w, au),
             trref_address(trref_floor_div256(V), h, av));
        return;
    }
    const int64_t i0 = trref_floor_div256(U - 128), j0 = trref_floor_div256(V - 128);
    for (int k = 0; k < 4; k++)
        mark(c, m, layer, level, trref_address(i0 + k % 2, w, au), trref_address(j0 + k / 2, h, av));
}

/* Every texel lane `lane` of write `w` reads. */
static trref_read model_lane(const fb_case *c, const fb_write *w, uint32_t lane, fb_marks m)
{
    const trref_sampler *sm = &c->sm[w->sampler];
    const trref_read r = trref_read_lane(sm, c->w, c->h, c->levels, c->layers, &w->args, w->count, lane);
    g_seen.lanes++;
    g_seen.taps[r.lod.taps]++;
    g_seen.lo_reads += r.plan.delta != 0;
    g_seen.linear += r.linear;
    g_seen.nearest += !r.linear;
    g_seen.mag += r.plan.mag;
    g_seen.layers_hit[r.layer]++;
    for (uint32_t i = 1; i <= r.lod.taps; i++) {
        float s, t;
        trref_tap(r.s, r.t, r.dsda, r.dtda, r.lod.taps, i, &s, &t);
        mark_tap(c, sm, m, r.layer, r.plan.hi, s, t, r.offset, r.linear);
        if (r.plan.delta)
            mark_tap(c, sm, m, r.layer, r.plan.lo, s, t, r.offset, r.linear);
    }
    return r;
}

/* The lanes that write: live, and below count. */
static uint64_t written_lanes(const fb_write *w)
{
    return w->live & (w->count >= 64 ? ~0ull : (1ull << w->count) - 1);
}

/* MinMip's smear (feedback.h, "Decoding"): level-m region i covers
 * [i rw / w_m, min((i + 1) rw, w_m) / w_m) on an axis; does it overlap
 * LOD-0 region X with a positive length?  Exact, in integers. */
static bool overlaps(uint32_t i, uint32_t w_m, uint32_t X, uint32_t W, uint32_t r)
{
    const uint64_t a0 = (uint64_t)i * r, a1 = (uint64_t)((i + 1) * r < w_m ? (i + 1) * r : w_m);
    const uint64_t b0 = (uint64_t)X * r, b1 = (uint64_t)((X + 1) * r < W ? (X + 1) * r : W);
    return a0 * W < b1 * w_m && b0 * w_m < a1 * W;
}

/* The decoded MinMip of one layer from the model's marks. */
static void model_min_mip(const fb_case *c, fb_marks m, uint32_t layer, uint8_t *out)
{
    const uint32_t g0w = c->grid_w[0], g0h = c->grid_h[0];
    memset(out, TR_FEEDBACK_NONE, (size_t)g0w * g0h);
    for (uint32_t lv = c->levels; lv-- > 0;) { /* coarse to fine: the finest wins */
        const uint32_t wm = lvl(c->w, lv), hm = lvl(c->h, lv);
        for (uint32_t j = 0; j < c->grid_h[lv]; j++)
            for (uint32_t i = 0; i < c->grid_w[lv]; i++) {
                if (!m[layer][lv][j * c->grid_w[lv] + i])
                    continue;
                uint32_t nx = 0;
                for (uint32_t Y = 0; Y < g0h; Y++) {
                    if (!overlaps(j, hm, Y, c->h, c->rh))
                        continue;
                    nx = 0;
                    for (uint32_t X = 0; X < g0w; X++)
                        if (overlaps(i, wm, X, c->w, c->rw)) {
                            out[Y * g0w + X] = (uint8_t)lv;
                            nx++;
                        }
                }
                g_seen.smear_wider += nx > (1u << lv); /* the non-power-of-two extra column */
            }
    }
}

/* ==== comparing ================================================================================ */

typedef struct fb_diff {
    bool found;
    bool min_mip;               /* in the MinMip map (else MipRegionUsed) */
    uint32_t layer, level, x, y;
    uint8_t got, want;
} fb_diff;

/* Decodes both maps and compares them with the model's marks m. */
static fb_diff compare_maps(const fb_case *c, tr_feedback_map *used, tr_feedback_map *minmip, fb_marks m)
{
    fb_diff d = {0};
    static uint8_t want_min[GRID * GRID];
    for (uint32_t a = 0; a < c->layers; a++) {
        for (uint32_t lv = 0; lv < c->levels; lv++) {
            const uint32_t gw = c->grid_w[lv], gh = c->grid_h[lv];
            memset(g_got, 0xAB, sizeof(g_got));
            TRT_OK(tr_feedback_map_decode(used, a, lv, g_got, gw));
            for (uint32_t y = 0; y < gh; y++)
                for (uint32_t x = 0; x < gw; x++) {
                    const uint8_t want = m[a][lv][y * gw + x] ? TR_FEEDBACK_USED : 0;
                    if (g_got[y * gw + x] != want)
                        return (fb_diff){true, false, a, lv, x, y, g_got[y * gw + x], want};
                }
        }
        const uint32_t gw = c->grid_w[0], gh = c->grid_h[0];
        memset(g_got, 0xAB, sizeof(g_got));
        TRT_OK(tr_feedback_map_decode(minmip, a, 0, g_got, gw));
        model_min_mip(c, m, a, want_min);
        for (uint32_t y = 0; y < gh; y++)
            for (uint32_t x = 0; x < gw; x++)
                if (g_got[y * gw + x] != want_min[y * gw + x])
                    return (fb_diff){true, true, a, 0, x, y, g_got[y * gw + x], want_min[y * gw + x]};
    }
    return d;
}

static void describe_diff(const fb_diff *d, char *buf, size_t size)
{
    snprintf(buf, size, "%s layer %u level %u region (%u, %u): got %#x, want %#x",
             d->min_mip ? "MinMip" : "MipRegionUsed", d->layer, d->level, d->x, d->y, d->got, d->want);
}

static void describe_lane(const fb_case *c, const fb_write *w, uint32_t lane, const trref_read *r, char *buf,
                          size_t size)
{
    const tr_sample_args *a = &w->args;
    const uint32_t q = lane & ~3u;
    size_t k = (size_t)snprintf(buf, size,
                                "write %u (%s, texture slot %u, sampler %d, count %u, live %#" PRIx64 ") lane %u: "
                                "s %a t %a; quad s (%a %a %a %a) t (%a %a %a %a)",
                                (unsigned)(w - c->wr), w->mode, w->tslot, w->sampler, w->count, w->live, lane,
                                (double)a->s[lane], (double)a->t[lane], (double)a->s[q], (double)a->s[q + 1],
                                (double)a->s[q + 2], (double)a->s[q + 3], (double)a->t[q], (double)a->t[q + 1],
                                (double)a->t[q + 2], (double)a->t[q + 3]);
    if (a->dsdx && k < size)
        k += (size_t)snprintf(buf + k, size - k, "; grad (%a %a %a %a)", (double)a->dsdx[lane],
                              (double)a->dtdx[lane], (double)a->dsdy[lane], (double)a->dtdy[lane]);
    if (a->lod && k < size)
        k += (size_t)snprintf(buf + k, size - k, "; lod %a", (double)a->lod[lane]);
    if (a->bias && k < size)
        k += (size_t)snprintf(buf + k, size - k, "; bias %a", (double)a->bias[lane]);
    if (a->lod_clamp && k < size)
        k += (size_t)snprintf(buf + k, size - k, "; lod_clamp %a", (double)a->lod_clamp[lane]);
    if (a->layer && k < size)
        k += (size_t)snprintf(buf + k, size - k, "; layer %a", (double)a->layer[lane]);
    if (k < size)
        snprintf(buf + k, size - k,
                 "; model: lambda_base %d, N %u, major %c, lambda' %d, lambda %d, %s, levels %u/%u delta %u, "
                 "layer %u",
                 r->lod.lambda, r->lod.taps, r->lod.major_x ? 'x' : 'y', r->plan.lambda_prime, r->plan.lambda,
                 r->linear ? "linear" : "nearest", r->plan.hi, r->plan.lo, r->plan.delta, r->layer);
}

/* A mismatch: rewrite every written lane alone into the cleared maps and
 * fail on the first lane whose marks differ from the model's for it. */
static void find_failing_lane(const fb_case *c, tr_feedback_map *used, tr_feedback_map *minmip, tr_fs_block *blk,
                              const fb_diff *whole)
{
    char cbuf[512], dbuf[160], lbuf[1024];
    describe_case(c, cbuf, sizeof(cbuf));
    describe_diff(whole, dbuf, sizeof(dbuf));
    for (uint32_t wi = 0; wi < c->writes; wi++) {
        const fb_write *w = &c->wr[wi];
        for (uint64_t bits = written_lanes(w); bits; bits &= bits - 1) {
            const uint32_t lane = (uint32_t)__builtin_ctzll(bits);
            TRT_OK(tr_feedback_map_clear(used));
            TRT_OK(tr_feedback_map_clear(minmip));
            blk->count = w->count;
            blk->live = 1ull << lane;
            tr_fs_write_feedback(blk, c->fslot_used, w->tslot, &w->args);
            tr_fs_write_feedback(blk, c->fslot_min, w->tslot, &w->args);
            memset(g_lane_want, 0, sizeof(g_lane_want));
            const trref_read r = model_lane(c, w, lane, g_lane_want);
            const fb_diff d = compare_maps(c, used, minmip, g_lane_want);
            if (d.found) {
                describe_diff(&d, dbuf, sizeof(dbuf));
                describe_lane(c, w, lane, &r, lbuf, sizeof(lbuf));
                cr_assert_fail("%s\n  %s\n  (written alone) %s", cbuf, lbuf, dbuf);
            }
        }
    }
    cr_assert_fail("%s\n  all lanes together: %s; every written lane alone agrees (did a helper lane or a lane past "
                   "count write?)",
                   cbuf, dbuf);
}

/* ==== random inputs ============================================================================= */

static uint32_t rnd(trt_rng *r, uint32_t n)
{
    return trt_rand_u32(r) % n;
}

static float rnd_f(trt_rng *r, double lo, double hi)
{
    return (float)trt_rand_range(r, lo, hi);
}

/* sign * 2^[lo, hi) */
static float rnd_pow2(trt_rng *r, double lo, double hi)
{
    const float m = (float)exp2(trt_rand_range(r, lo, hi));
    return trt_rand_u32(r) & 1 ? m : -m;
}


/* A texture size per axis: NPOT mostly, powers of two and 8 at times. */
static uint32_t rnd_size(trt_rng *r)
{
    switch (rnd(r, 8)) {
    case 0: return 1u << (3 + rnd(r, 6)); /* 8 .. 256 */
    case 1: return 8 + rnd(r, 8);
    case 2: return (1u << (3 + rnd(r, 5))) + 1;
    default: return 8 + rnd(r, MAX_SIZE - 7);
    }
}

/* A region size on an axis of n texels: a power of two in [4, n / 2]. */
static uint32_t rnd_region(trt_rng *r, uint32_t n)
{
    uint32_t count = 0;
    for (uint32_t g = TR_FEEDBACK_MIN_REGION; 2 * g <= n; g *= 2)
        count++;
    return TR_FEEDBACK_MIN_REGION << rnd(r, count);
}

static tr_sampler_desc rnd_sampler(trt_rng *r)
{
    tr_sampler_desc d = {0};
    d.mag_filter = (tr_filter)rnd(r, 2);
    d.min_filter = (tr_filter)rnd(r, 2);
    d.mipmap_mode = (tr_mipmap_mode)rnd(r, 2);
    d.address_u = (tr_address_mode)rnd(r, 4);
    d.address_v = rnd(r, 3) ? (tr_address_mode)rnd(r, 4) : d.address_u;
    d.border_color = (tr_border_color)rnd(r, 3);
    d.max_anisotropy = rnd(r, 3) ? 0 : rnd(r, 17); /* 0, 1: off; 2..16 */
    switch (rnd(r, 4)) {
    case 0: d.lod_bias = 0.0f; break;
    case 1: d.lod_bias = rnd_f(r, -15.0, 15.0); break;
    default: d.lod_bias = rnd_f(r, -1.5, 1.5); break;
    }
    d.min_lod = rnd(r, 2) ? 0.0f : rnd_f(r, -3.0, 4.0);
    switch (rnd(r, 4)) {
    case 0: d.max_lod = 0.0f; break; /* no clamp */
    case 1:
        d.max_lod = d.min_lod <= 0.0f ? TR_MAX_LOD_ZERO : d.min_lod;
        break;
    default: {
        const float lo = d.min_lod > 0.0f ? d.min_lod : 0.0f;
        d.max_lod = lo + rnd_f(r, 0.0, 6.0);
        if (d.max_lod == 0.0f)
            d.max_lod = TR_MAX_LOD_ZERO;
        break;
    }
    }
    return d;
}

/* A coordinate: mostly in and around [0, 1]; far outside, on the 1/1024
 * grid, at the edges, huge, and now and then not finite. */
static float rnd_coord(trt_rng *r)
{
    switch (rnd(r, 32)) {
    case 0: case 1: case 2: case 3: return rnd_f(r, -8.0, 8.0);
    case 4: case 5: case 6: return trt_rand_coord(r, -1.0f, 2.0f);
    case 7: case 8: return (float)rnd(r, 3) - 1.0f + rnd_f(r, -1e-4, 1e-4);
    case 9: return rnd_f(r, -1e4, 1e4);
    case 10: {
        static const float odd[6] = {NAN, INFINITY, -INFINITY, 1e30f, -1e30f, 0.0f};
        return rnd(r, 4) ? rnd_f(r, 0.0, 1.0) : odd[rnd(r, 6)];
    }
    default: return rnd_f(r, -0.25, 1.25);
    }
}

/* Derivatives of an ellipse (texels per pixel, then normalised): the
 * major length 2^[-6, 10) texels, ratio up to 2^6, any direction, at
 * times along the axes, round, zero or huge. */
static void rnd_derivs(trt_rng *r, uint32_t W, uint32_t H, float g[4])
{
    const uint32_t kind = rnd(r, 16);
    if (kind == 0) {
        g[0] = g[1] = g[2] = g[3] = 0.0f;
        return;
    }
    if (kind == 2 && rnd(r, 4) == 0) { /* not finite (step 2: NaN counts as 0) */
        static const float odd[4] = {NAN, INFINITY, -INFINITY, 0x1p100f};
        for (int k = 0; k < 4; k++)
            g[k] = rnd(r, 2) ? odd[rnd(r, 4)] : rnd_f(r, -1.0, 1.0);
        return;
    }
    if (kind == 1) { /* one huge or tiny axis */
        g[0] = rnd_pow2(r, -20, 20);
        g[1] = rnd(r, 2) ? 0.0f : rnd_pow2(r, -20, 20);
        g[2] = rnd(r, 2) ? 0.0f : rnd_pow2(r, -20, 20);
        g[3] = rnd_pow2(r, -20, 20);
        return;
    }
    const double th = kind < 5 ? (double)rnd(r, 4) * 1.5707963267948966 : trt_rand_range(r, 0.0, 6.283185307179586);
    const double m = exp2(trt_rand_range(r, -6.0, 10.0));
    const double ratio = kind < 7 ? 1.0 : exp2(trt_rand_range(r, 0.0, 6.0));
    const double major[2] = {m * cos(th), m * sin(th)}, minor[2] = {-m / ratio * sin(th), m / ratio * cos(th)};
    const bool swap = rnd(r, 2);
    const double *x = swap ? minor : major, *y = swap ? major : minor;
    g[0] = (float)(x[0] / W);
    g[1] = (float)(x[1] / H);
    g[2] = (float)(y[0] / W);
    g[3] = (float)(y[1] / H);
}

/* A value on 1/256 steps or a rounding tie of fx, or any float in [lo, hi). */
static float rnd_lod(trt_rng *r, double lo, double hi)
{
    switch (rnd(r, 4)) {
    case 0: return (float)(floor(trt_rand_range(r, lo, hi) * 256.0) + 0.5) / 256.0f;
    case 1: return (float)floor(trt_rand_range(r, lo, hi) * 256.0) / 256.0f;
    default: return rnd_f(r, lo, hi);
    }
}

static void rnd_write(trt_rng *r, const fb_case *c, fb_write *w, const uint32_t tslots[2])
{
    memset(w, 0, sizeof(*w));
    w->count = 4 * (1 + rnd(r, LANES / 4));
    switch (rnd(r, 4)) {
    case 0: w->live = ~0ull; break; /* bits past count too: they must not write */
    case 1: w->live = (uint64_t)trt_rand_u32(r) << 32 | trt_rand_u32(r); break;
    case 2: /* sparse */
        w->live = (uint64_t)trt_rand_u32(r) << 32 | trt_rand_u32(r);
        w->live &= (uint64_t)trt_rand_u32(r) << 32 | trt_rand_u32(r);
        break;
    default: w->live = 1ull << rnd(r, 64); break;
    }
    w->sampler = (int)rnd(r, 2);
    w->tslot = tslots[w->sampler];
    for (uint32_t q = 0; q < LANES; q += 4) {
        float g[4];
        rnd_derivs(r, c->w, c->h, g);
        const float s0 = rnd_coord(r), t0 = rnd_coord(r);
        w->s[q] = s0;
        w->s[q + 1] = s0 + g[0];
        w->s[q + 2] = s0 + g[2];
        w->s[q + 3] = s0 + g[0] + g[2];
        w->t[q] = t0;
        w->t[q + 1] = t0 + g[1];
        w->t[q + 2] = t0 + g[3];
        w->t[q + 3] = t0 + g[1] + g[3];
        switch (rnd(r, 4)) {
        case 0: /* lane 3 off the parallelogram (coarse derivatives do not see it) */
            w->s[q + 3] += rnd_f(r, -0.5, 0.5);
            w->t[q + 3] += rnd_f(r, -0.5, 0.5);
            break;
        case 1: /* every lane anywhere */
            for (uint32_t k = 0; k < 4; k++) {
                w->s[q + k] = rnd_coord(r);
                w->t[q + k] = rnd_coord(r);
            }
            break;
        default: break;
        }
    }
    for (uint32_t l = 0; l < LANES; l++) {
        float g[4];
        rnd_derivs(r, c->w, c->h, g);
        w->dsdx[l] = g[0];
        w->dtdx[l] = g[1];
        w->dsdy[l] = g[2];
        w->dtdy[l] = g[3];
        w->bias[l] = rnd(r, 8) ? rnd_lod(r, -3.0, 3.0) : rnd(r, 8) ? rnd_f(r, -20.0, 20.0) : rnd_coord(r);
        w->lod[l] = rnd(r, 16) ? rnd_lod(r, -2.0, (double)c->levels + 1.0) : rnd_coord(r);
        w->lod_clamp[l] = rnd(r, 32) ? rnd_lod(r, -2.0, (double)c->levels + 1.0) : rnd_coord(r);
        switch (rnd(r, 64) ? rnd(r, 4) : 4) {
        case 4: w->layer[l] = rnd_coord(r); break;
        case 0: w->layer[l] = (float)rnd(r, c->layers); break;
        case 1: w->layer[l] = (float)rnd(r, c->layers + 1) - 0.5f; break; /* ties to even */
        default: w->layer[l] = rnd_f(r, -1.5, (double)c->layers + 0.5); break;
        }
    }
    tr_sample_args *a = &w->args;
    a->s = w->s;
    a->t = w->t;
    a->layer = rnd(r, 4) ? w->layer : NULL;
    const uint32_t mode = rnd(r, 8);
    if (mode < 3) {
        w->mode = "implicit";
    } else if (mode < 6) {
        w->mode = "gradients";
        a->dsdx = w->dsdx;
        a->dtdx = w->dtdx;
        a->dsdy = w->dsdy;
        a->dtdy = w->dtdy;
    } else {
        w->mode = mode == 6 ? "explicit lod" : "explicit lod over gradients";
        a->lod = w->lod;
        if (mode == 7) { /* lod wins over gradients */
            a->dsdx = w->dsdx;
            a->dtdx = w->dtdx;
            a->dsdy = w->dsdy;
            a->dtdy = w->dtdy;
        }
    }
    /* a bias and a lod_clamp now and then; both are ignored with an explicit LOD */
    if (rnd(r, 2))
        a->bias = w->bias;
    if (rnd(r, 5) < 2)
        a->lod_clamp = w->lod_clamp;
    /* a texel offset in a third of the writes, out of range now and then (clamped) */
    if (rnd(r, 3) == 0) {
        a->offset[0] = (int32_t)rnd(r, 21) - 10;
        a->offset[1] = (int32_t)rnd(r, 21) - 10;
    }
}

/* ==== the random cases ========================================================================== */

static void run_case(trt_rng *r, uint32_t index)
{
    tr_context *ctx = g_ctx;
    fb_case *c = &g_case;
    memset(c, 0, sizeof(*c));
    c->index = index;
    c->w = rnd_size(r);
    c->h = rnd(r, 4) ? rnd_size(r) : c->w;
    const uint32_t chain = trref_full_chain(c->w, c->h);
    c->levels = 1 + rnd(r, chain < MAX_LEVELS ? chain : MAX_LEVELS);
    c->layers = 1 + rnd(r, MAX_LAYERS);
    c->rw = rnd_region(r, c->w);
    c->rh = rnd(r, 2) ? rnd_region(r, c->h) : (c->rw * 2 <= c->h ? c->rw : rnd_region(r, c->h));
    for (uint32_t l = 0; l < c->levels; l++) {
        c->grid_w[l] = ceil_div(lvl(c->w, l), c->rw);
        c->grid_h[l] = ceil_div(lvl(c->h, l), c->rh);
        g_seen.mismatched_grid += c->grid_w[l] > lvl(c->grid_w[0], l); /* wider than an R8 chain's level */
    }

    tr_image_desc id = {0};
    id.format = TR_FORMAT_R8G8B8A8_UNORM;
    id.width = c->w;
    id.height = c->h;
    id.layers = c->layers;
    id.levels = c->levels;
    tr_image *img = NULL;
    TRT_OK(tr_image_create(ctx, &id, &img));
    for (int k = 0; k < 2; k++) {
        const tr_sampler_desc sd = rnd_sampler(r);
        trref_sampler_create(&c->sm[k], ctx, &sd);
    }

    tr_feedback_map_desc md = {TR_FEEDBACK_MIP_REGION_USED, c->w, c->h, c->levels, c->layers, c->rw, c->rh};
    tr_feedback_map *used = NULL, *minmip = NULL;
    TRT_OK(tr_feedback_map_create(ctx, &md, &used));
    md.kind = TR_FEEDBACK_MIN_MIP;
    TRT_OK(tr_feedback_map_create(ctx, &md, &minmip));
    for (uint32_t l = 0; l < c->levels; l++) {
        uint32_t gw = 0, gh = 0;
        TRT_OK(tr_feedback_map_decoded_size(used, l, &gw, &gh));
        cr_assert(gw == c->grid_w[l] && gh == c->grid_h[l], "case %u: level %u decodes to %ux%u, want %ux%u", index,
                  l, gw, gh, c->grid_w[l], c->grid_h[l]);
    }

    /* Slots: the image with sampler 0 and sampler 1 in two texture slots,
     * the maps in two feedback slots; the other slots empty. */
    tr_texture_binding textures[TR_MAX_TEXTURES];
    memset(textures, 0, sizeof(textures));
    uint32_t tslots[2];
    tslots[0] = rnd(r, TR_MAX_TEXTURES);
    tslots[1] = (tslots[0] + 1 + rnd(r, TR_MAX_TEXTURES - 1)) % TR_MAX_TEXTURES;
    for (int k = 0; k < 2; k++) {
        textures[tslots[k]].image = img;
        textures[tslots[k]].sampler = c->sm[k].s;
    }
    tr_feedback_map *maps[TR_MAX_FEEDBACK_MAPS] = {0};
    c->fslot_used = rnd(r, TR_MAX_FEEDBACK_MAPS);
    c->fslot_min = (c->fslot_used + 1 + rnd(r, TR_MAX_FEEDBACK_MAPS - 1)) % TR_MAX_FEEDBACK_MAPS;
    maps[c->fslot_used] = used;
    maps[c->fslot_min] = minmip;
    static tr_fs_block block; /* large: not on the stack */
    tr_fs_block *blk = &block;
    memset(blk, 0, sizeof(*blk));
    blk->textures = textures;
    blk->feedback_maps = maps;

    memset(g_want, 0, sizeof(g_want));
    c->writes = 1 + (rnd(r, 4) == 0) + (rnd(r, 8) == 0);
    for (uint32_t wi = 0; wi < c->writes; wi++) {
        fb_write *w = &c->wr[wi];
        rnd_write(r, c, w, tslots);
        blk->count = w->count;
        blk->live = w->live;
        tr_fs_write_feedback(blk, c->fslot_used, w->tslot, &w->args);
        tr_fs_write_feedback(blk, c->fslot_min, w->tslot, &w->args);
        const uint64_t in_count = w->count >= 64 ? ~0ull : (1ull << w->count) - 1;
        g_seen.helpers += (uint64_t)__builtin_popcountll(~w->live & in_count);
        g_seen.past_count += (uint64_t)__builtin_popcountll(w->live & ~in_count);
        for (uint64_t bits = written_lanes(w); bits; bits &= bits - 1)
            model_lane(c, w, (uint32_t)__builtin_ctzll(bits), g_want);
    }
    cr_assert(tr_feedback_map_dropped_writes(used) == 0 && tr_feedback_map_dropped_writes(minmip) == 0,
              "case %u: %" PRIu64 " / %" PRIu64 " writes dropped", index, tr_feedback_map_dropped_writes(used),
              tr_feedback_map_dropped_writes(minmip));
    const fb_diff d = compare_maps(c, used, minmip, g_want);
    if (d.found)
        find_failing_lane(c, used, minmip, blk, &d);

    tr_feedback_map_destroy(used);
    tr_feedback_map_destroy(minmip);
    tr_sampler_destroy(c->sm[0].s);
    tr_sampler_destroy(c->sm[1].s);
    tr_image_destroy(img);
}

Test(feedback_exact, random_cases)
{
    g_ctx = trt_context(1);
    trt_rng rng = {0xfeedbac0ull}; /* fixed seed: a failure names its case index */
    memset(&g_seen, 0, sizeof(g_seen));
    for (uint32_t i = 0; i < CASES; i++)
        run_case(&rng, i);

    /* the random inputs reached every rule */
    cr_log_info("%" PRIu64 " lanes written (%" PRIu64 " helpers, %" PRIu64 " live bits past count), %" PRIu64
                " with level_lo, %" PRIu64 " magnified, %" PRIu64 " border texels; marks per level %" PRIu64
                " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64,
                g_seen.lanes, g_seen.helpers, g_seen.past_count, g_seen.lo_reads, g_seen.mag, g_seen.border,
                g_seen.marks[0], g_seen.marks[1], g_seen.marks[2], g_seen.marks[3], g_seen.marks[4], g_seen.marks[5]);
    for (uint32_t n = 1; n <= TR_MAX_ANISOTROPY; n++)
        cr_assert(g_seen.taps[n] > 0, "no lane with %u taps", n);
    for (uint32_t l = 0; l < MAX_LEVELS; l++)
        cr_assert(g_seen.marks[l] > 0, "no texel read at level %u", l);
    for (uint32_t a = 0; a < MAX_LAYERS; a++)
        cr_assert(g_seen.layers_hit[a] > 0, "no lane read layer %u", a);
    cr_assert(g_seen.lo_reads && g_seen.border && g_seen.linear && g_seen.nearest && g_seen.mag && g_seen.helpers &&
                  g_seen.past_count && g_seen.smear_wider && g_seen.mismatched_grid,
              "coverage: lo %" PRIu64 " border %" PRIu64 " linear %" PRIu64 " nearest %" PRIu64 " mag %" PRIu64
              " helpers %" PRIu64 " past count %" PRIu64 " smear %" PRIu64 " grid %" PRIu64,
              g_seen.lo_reads, g_seen.border, g_seen.linear, g_seen.nearest, g_seen.mag, g_seen.helpers,
              g_seen.past_count, g_seen.smear_wider, g_seen.mismatched_grid);
}

/* ==== by hand =================================================================================== */

/* One write of `n` lanes (count n, all live unless live != 0) into a fresh
 * MipRegionUsed and MinMip map of the given texture, through texture slot
 * 3 and feedback slots 1 (used) and 6 (MinMip); then the decoded level
 * `level` of layer 0 into used_out and MinMip into min_out. */
typedef struct hand_tex {
    uint32_t w, h, levels, rw, rh;
} hand_tex;

static void hand_write(const hand_tex *ht, const tr_sampler_desc *sd, const tr_sample_args *a, uint32_t n,
                       uint64_t live, uint32_t level, uint8_t *used_out, uint8_t *min_out)
{
    tr_context *ctx = g_ctx;
    tr_image_desc id = {TR_FORMAT_R8G8B8A8_UNORM, ht->w, ht->h, 1, ht->levels, 0, 0};
    tr_image *img = NULL;
    TRT_OK(tr_image_create(ctx, &id, &img));
    tr_sampler *smp = NULL;
    TRT_OK(tr_sampler_create(ctx, sd, &smp));
    tr_feedback_map_desc md = {TR_FEEDBACK_MIP_REGION_USED, ht->w, ht->h, ht->levels, 1, ht->rw, ht->rh};
    tr_feedback_map *used = NULL, *minmip = NULL;
    TRT_OK(tr_feedback_map_create(ctx, &md, &used));
    md.kind = TR_FEEDBACK_MIN_MIP;
    TRT_OK(tr_feedback_map_create(ctx, &md, &minmip));
    tr_texture_binding textures[TR_MAX_TEXTURES] = {0};
    textures[3] = (tr_texture_binding){img, smp};
    tr_feedback_map *maps[TR_MAX_FEEDBACK_MAPS] = {0};
    maps[1] = used;
    maps[6] = minmip;
    static tr_fs_block blk;
    memset(&blk, 0, sizeof(blk));
    blk.count = n;
    blk.live = live ? live : (n >= 64 ? ~0ull : (1ull << n) - 1);
    blk.textures = textures;
    blk.feedback_maps = maps;
    tr_fs_write_feedback(&blk, 1, 3, a);
    tr_fs_write_feedback(&blk, 6, 3, a);
    uint32_t gw, gh;
    TRT_OK(tr_feedback_map_decoded_size(used, level, &gw, &gh));
    TRT_OK(tr_feedback_map_decode(used, 0, level, used_out, gw));
    TRT_OK(tr_feedback_map_decoded_size(minmip, 0, &gw, &gh));
    TRT_OK(tr_feedback_map_decode(minmip, 0, 0, min_out, gw));
    tr_feedback_map_destroy(used);
    tr_feedback_map_destroy(minmip);
    tr_sampler_destroy(smp);
    tr_image_destroy(img);
}

/* Asserts a g x g decoded map holds `on` inside [x0, x1] x [y0, y1] and
 * `off` elsewhere. */
static void expect_rect(const uint8_t *m, uint32_t g, uint32_t x0, uint32_t x1, uint32_t y0, uint32_t y1, uint8_t on,
                        uint8_t off, const char *what)
{
    for (uint32_t y = 0; y < g; y++)
        for (uint32_t x = 0; x < g; x++) {
            const uint8_t want = x >= x0 && x <= x1 && y >= y0 && y <= y1 ? on : off;
            cr_assert_eq(m[y * g + x], want, "%s: region (%u, %u) is %#x, want %#x", what, x, y, m[y * g + x], want);
        }
}

/* feedback.h's examples, and the footprint rules on inputs simple enough
 * to work out by hand (backing up the model above). */
Test(feedback_exact, by_hand)
{
    g_ctx = trt_context(1);
    uint8_t used[GRID * GRID], minmip[GRID * GRID];
    tr_sampler_desc nearest = {0}; /* nearest, mipmap nearest, repeat */

    /* 15x15, 2 levels, 4x4 regions: a level-1 (7x7) sample reading texel
     * (4, 4) marks level-1 region (1, 1); in MinMip that region,
     * [4/7, 1) on each axis, covers LOD-0 regions 2 and 3 ([8/15, 12/15)
     * and [12/15, 1)), not 1 ([4/15, 8/15)). */
    {
        const hand_tex ht = {15, 15, 2, 4, 4};
        float s[4], t[4], lod[4];
        for (int l = 0; l < 4; l++) {
            s[l] = t[l] = 4.5f / 7.0f;
            lod[l] = 1.0f;
        }
        const tr_sample_args a = {.s = s, .t = t, .lod = lod};
        hand_write(&ht, &nearest, &a, 4, 0, 1, used, minmip);
        expect_rect(used, 2, 1, 1, 1, 1, TR_FEEDBACK_USED, 0, "15x15 level 1");
        expect_rect(minmip, 4, 2, 3, 2, 3, 1, TR_FEEDBACK_NONE, "15x15 MinMip");
    }
    /* 65x65, 4x4 regions: level-1 region 7 covers LOD-0 regions 14, 15
     * and 16 (texel 29 of level 1's 32). */
    {
        const hand_tex ht = {65, 65, 2, 4, 4};
        float s[4], t[4], lod[4];
        for (int l = 0; l < 4; l++) {
            s[l] = t[l] = 29.5f / 32.0f;
            lod[l] = 1.0f;
        }
        const tr_sample_args a = {.s = s, .t = t, .lod = lod};
        hand_write(&ht, &nearest, &a, 4, 0, 1, used, minmip);
        expect_rect(used, 8, 7, 7, 7, 7, TR_FEEDBACK_USED, 0, "65x65 level 1");
        expect_rect(minmip, 17, 14, 16, 14, 16, 1, TR_FEEDBACK_NONE, "65x65 MinMip");
    }
    /* MinMip is the minimum: level 2 at (0.6, 0.6) and level 0 at the same
     * place; 32x32, 4x4 regions: level 0 region (4, 4) shows 0, the rest of
     * level-2 region (1, 1) ([4/8, 8/8): LOD-0 regions 4..7) shows 2. */
    {
        const hand_tex ht = {32, 32, 3, 4, 4};
        float s[8], t[8], lod[8];
        for (int l = 0; l < 8; l++) {
            s[l] = t[l] = 0.6f;
            lod[l] = l < 4 ? 2.0f : 0.0f;
        }
        const tr_sample_args a = {.s = s, .t = t, .lod = lod};
        hand_write(&ht, &nearest, &a, 8, 0, 2, used, minmip);
        expect_rect(used, 2, 1, 1, 1, 1, TR_FEEDBACK_USED, 0, "32x32 level 2");
        for (uint32_t y = 0; y < 8; y++)
            for (uint32_t x = 0; x < 8; x++) {
                const uint8_t want = x == 4 && y == 4 ? 0 : x >= 4 && y >= 4 ? 2 : TR_FEEDBACK_NONE;
                cr_assert_eq(minmip[y * 8 + x], want, "MinMip minimum: (%u, %u) is %#x, want %#x", x, y,
                             minmip[y * 8 + x], want);
            }
    }
    /* Bilinear at the corner (0, 0) of a 16x16 texture, 4x4 regions: texels
     * -1 and 0 per axis.  Repeat wraps to texel 15 (regions 0 and 3 per
     * axis); clamp to edge, mirrored repeat (-1 mirrors to 0) and clamp to
     * border (texel -1 reads the border) stay in region 0. */
    {
        const hand_tex ht = {16, 16, 1, 4, 4};
        float s[4] = {0, 0, 0, 0}, t[4] = {0, 0, 0, 0}, lod[4] = {0, 0, 0, 0};
        const tr_sample_args a = {.s = s, .t = t, .lod = lod};
        for (int mode = 0; mode < 4; mode++) {
            tr_sampler_desc d = {0};
            d.mag_filter = d.min_filter = TR_FILTER_LINEAR;
            d.address_u = d.address_v = (tr_address_mode)mode;
            hand_write(&ht, &d, &a, 4, 0, 0, used, minmip);
            for (uint32_t y = 0; y < 4; y++)
                for (uint32_t x = 0; x < 4; x++) {
                    const bool on = mode == TR_ADDRESS_REPEAT ? (x == 0 || x == 3) && (y == 0 || y == 3)
                                                              : x == 0 && y == 0;
                    cr_assert_eq(used[y * 4 + x], on ? TR_FEEDBACK_USED : 0, "address mode %d: region (%u, %u) is %#x",
                                 mode, x, y, used[y * 4 + x]);
                }
        }
        /* Entirely in the border: nothing is read, nothing marked. */
        float bs[4] = {-0.5f, -0.5f, -0.5f, -0.5f};
        const tr_sample_args b = {.s = bs, .t = t, .lod = lod};
        tr_sampler_desc d = {0};
        d.address_u = d.address_v = TR_ADDRESS_CLAMP_TO_BORDER;
        hand_write(&ht, &d, &b, 4, 0, 0, used, minmip);
        expect_rect(used, 4, 1, 0, 1, 0, TR_FEEDBACK_USED, 0, "all border");
        expect_rect(minmip, 4, 1, 0, 1, 0, 0, TR_FEEDBACK_NONE, "all border, MinMip");
    }
    /* Helper lanes give the derivatives but write nothing: only lane 0 is
     * live; lanes 1 and 2 are 4 texels away (32x32), so lambda = 2 and lane
     * 0 reads level 2 (8x8) at u = 0.8: texel 0, region (0, 0), which
     * covers LOD-0 regions 0..3 per axis in MinMip. */
    {
        const hand_tex ht = {32, 32, 3, 4, 4};
        float s[4] = {0.1f, 0.1f + 4.0f / 32.0f, 0.1f, 0.1f + 4.0f / 32.0f};
        float t[4] = {0.1f, 0.1f, 0.1f + 4.0f / 32.0f, 0.1f + 4.0f / 32.0f};
        const tr_sample_args a = {.s = s, .t = t};
        hand_write(&ht, &nearest, &a, 4, 1, 2, used, minmip);
        expect_rect(used, 2, 0, 0, 0, 0, TR_FEEDBACK_USED, 0, "helper lanes, level 2");
        expect_rect(minmip, 8, 0, 3, 0, 3, 2, TR_FEEDBACK_NONE, "helper lanes, MinMip"); /* [0, 1/2) per axis */
    }
    /* 16 anisotropic taps along x: 64x64, 1 level, 4x4 regions, gradients
     * of 32 texels along x and 2 along y (ratio 16): taps at u = 32 +
     * 32 (2i - 17) / 34, texels 17 .. 46, regions 4 .. 11 of row 8. */
    {
        const hand_tex ht = {64, 64, 1, 4, 4};
        float s[4], t[4], gx[4], gy[4], gz[4], gw[4];
        for (int l = 0; l < 4; l++) {
            s[l] = t[l] = 0.5f;
            gx[l] = 0.5f;
            gw[l] = 2.0f / 64.0f;
            gy[l] = gz[l] = 0.0f;
        }
        tr_sampler_desc d = {0};
        d.max_anisotropy = 16;
        const tr_sample_args a = {.s = s, .t = t, .dsdx = gx, .dtdx = gy, .dsdy = gz, .dtdy = gw};
        hand_write(&ht, &d, &a, 4, 0, 0, used, minmip);
        expect_rect(used, 16, 4, 11, 8, 8, TR_FEEDBACK_USED, 0, "16 taps");
    }
}

/* ==== dropped writes ================================================================================ */

Test(feedback_exact, dropped_writes)
{
    tr_context *ctx = g_ctx = trt_context(1);
    /* The maps: 32x32, 3 levels, 2 layers.  Texture slots: 0 the paired
     * image, 1 nothing, 2..5 an image that differs in width, height,
     * levels or layers. */
    static const uint32_t sizes[6][4] = {
        {32, 32, 3, 2}, {0, 0, 0, 0}, {33, 32, 3, 2}, {32, 16, 3, 2}, {32, 32, 2, 2}, {32, 32, 3, 1},
    };
    tr_texture_binding textures[TR_MAX_TEXTURES] = {0};
    for (uint32_t k = 0; k < 6; k++) {
        if (!sizes[k][0])
            continue;
        tr_image_desc id = {TR_FORMAT_R8G8B8A8_UNORM, sizes[k][0], sizes[k][1], sizes[k][3], sizes[k][2], 0, 0};
        tr_image *img = NULL;
        TRT_OK(tr_image_create(ctx, &id, &img));
        textures[k].image = img;
    }
    tr_feedback_map_desc md = {TR_FEEDBACK_MIP_REGION_USED, 32, 32, 3, 2, 4, 4};
    tr_feedback_map *used = NULL, *minmip = NULL;
    TRT_OK(tr_feedback_map_create(ctx, &md, &used));
    md.kind = TR_FEEDBACK_MIN_MIP;
    TRT_OK(tr_feedback_map_create(ctx, &md, &minmip));
    tr_feedback_map *maps[TR_MAX_FEEDBACK_MAPS] = {used, NULL, minmip};
    static tr_fs_block blk;
    blk.textures = textures;
    blk.feedback_maps = maps;
    blk.count = 12;
    blk.live = 0x5b6ull | 1ull << 40; /* 7 live lanes below count; lane 40 is past it */
    float s[LANES], t[LANES];
    for (uint32_t l = 0; l < LANES; l++) {
        s[l] = (float)l / 64.0f;
        t[l] = 0.5f;
    }
    const tr_sample_args a = {.s = s, .t = t};
    uint64_t want = 0;
    for (uint32_t slot = 1; slot < 6; slot++) {
        tr_fs_write_feedback(&blk, 0, slot, &a);
        tr_fs_write_feedback(&blk, 2, slot, &a);
        want += 7;
        cr_assert_eq(tr_feedback_map_dropped_writes(used), want, "MipRegionUsed after slot %u: %" PRIu64 ", want %"
                     PRIu64, slot, tr_feedback_map_dropped_writes(used), want);
        cr_assert_eq(tr_feedback_map_dropped_writes(minmip), want, "MinMip after slot %u: %" PRIu64 ", want %" PRIu64,
                     slot, tr_feedback_map_dropped_writes(minmip), want);
    }
    /* helper lanes only: no lane writes, none is dropped */
    blk.live = 0xf000ull;
    tr_fs_write_feedback(&blk, 0, 1, &a);
    cr_assert_eq(tr_feedback_map_dropped_writes(used), want);
    /* an empty feedback slot writes nothing */
    blk.live = ~0ull;
    tr_fs_write_feedback(&blk, 1, 0, &a);
    tr_fs_write_feedback(&blk, 1, 1, &a);
    /* nothing was marked */
    uint8_t out[GRID * GRID];
    for (uint32_t layer = 0; layer < 2; layer++) {
        for (uint32_t lv = 0; lv < 3; lv++) {
            TRT_OK(tr_feedback_map_decode(used, layer, lv, out, 8 >> lv));
            expect_rect(out, 8 >> lv, 1, 0, 1, 0, TR_FEEDBACK_USED, 0, "dropped writes mark nothing");
        }
        TRT_OK(tr_feedback_map_decode(minmip, layer, 0, out, 8));
        expect_rect(out, 8, 1, 0, 1, 0, 0, TR_FEEDBACK_NONE, "dropped writes mark nothing (MinMip)");
    }
    /* the paired image writes and drops nothing */
    tr_fs_write_feedback(&blk, 0, 0, &a);
    cr_assert_eq(tr_feedback_map_dropped_writes(used), want);
    TRT_OK(tr_feedback_map_decode(used, 0, 0, out, 8));
    cr_assert_eq(out[4 * 8 + 0], TR_FEEDBACK_USED);
    /* a clear resets the count */
    TRT_OK(tr_feedback_map_clear(used));
    cr_assert_eq(tr_feedback_map_dropped_writes(used), 0);
    cr_assert_eq(tr_feedback_map_dropped_writes(minmip), want);
}
