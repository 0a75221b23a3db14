/* Texture sampling, checked bit for bit against the arithmetic that
 * include/tilerast/texture.h documents ("Sampling arithmetic", steps 1-12).
 *
 * The reference sampler is written from the header alone and calls no
 * library sampling function: fixed-point LOD with L(r) from long-double
 * thresholds 2^((2i - 1) / 256), level selection, tap positions and address
 * modes come from tests/common/ref_sampling.c (shared with sampler
 * feedback's footprint test); texel decoding (half floats by hand, sRGB
 * from the double-precision formula), bilinear / trilinear / anisotropic
 * filtering and compare samplers are below.  The library's sampler is
 * called directly on a tr_fs_block (no render pass) with per-lane
 * coordinates, and every result must equal the reference's exactly (same
 * bits, or both NaN).  Hand-computed values back the reference up where
 * the arithmetic is simple enough to do by hand.
 * Also: tr_fs_query_lod (incl. the L(r) threshold table, found by binary
 * search), texel fetch, texture size, array layers, the lod_clamp argument
 * and tr_sampler_create's validation. */
#include "ref_sampling.h"
#include "trtest.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

enum { LANES = TR_FS_LANES, SLOT = 5 };

/* ==== what a test owns ============================================================================ */

/* Each test's context and the test's own texel arrays are released by the
 * suite's fini, so that a failed assertion leaves no leak behind (the
 * sanitizer build runs this suite too). */
static tr_context *g_ctx;
static void *g_mem[256];

static tr_context *test_context(void)
{
    g_ctx = trt_context(1);
    return g_ctx;
}

static void *test_calloc(size_t n, size_t size)
{
    void *p = calloc(n, size);
    cr_assert_not_null(p);
    for (size_t i = 0; i < sizeof(g_mem) / sizeof(g_mem[0]); i++)
        if (!g_mem[i]) {
            g_mem[i] = p;
            return p;
        }
    cr_assert_fail("test_calloc: too many blocks");
    return NULL;
}

static void test_free(void *p)
{
    for (size_t i = 0; p && i < sizeof(g_mem) / sizeof(g_mem[0]); i++)
        if (g_mem[i] == p)
            g_mem[i] = NULL;
    free(p);
}

static void suite_fini(void)
{
    for (size_t i = 0; i < sizeof(g_mem) / sizeof(g_mem[0]); i++) {
        free(g_mem[i]);
        g_mem[i] = NULL;
    }
    tr_context_destroy(g_ctx); /* and every image and sampler in it */
    g_ctx = NULL;
}

TestSuite(sampling, .fini = suite_fini);

/* ==== the reference sampler (texture.h, "Sampling arithmetic") =============================== */

/* A texture: the image, its texels as uploaded and as the test decodes them. */
typedef struct rtex {
    tr_image *img;
    tr_format fmt;
    uint32_t w, h, layers, levels, tb;
    uint8_t *raw[TR_MAX_IMAGE_LEVELS]; /* [layer][y][x], texel bytes */
    float *dec[TR_MAX_IMAGE_LEVELS];   /* [layer][y][x][4] */
} rtex;

static uint32_t lvl_w(const rtex *t, uint32_t l)
{
    return t->w >> l ? t->w >> l : 1u;
}

static uint32_t lvl_h(const rtex *t, uint32_t l)
{
    return t->h >> l ? t->h >> l : 1u;
}

static const float *rtex_dec(const rtex *t, uint32_t level, uint32_t layer, uint32_t x, uint32_t y)
{
    return t->dec[level] + (((size_t)layer * lvl_h(t, level) + y) * lvl_w(t, level) + x) * 4;
}

static uint8_t *rtex_raw(const rtex *t, uint32_t level, uint32_t layer, uint32_t x, uint32_t y)
{
    return t->raw[level] + (((size_t)layer * lvl_h(t, level) + y) * lvl_w(t, level) + x) * t->tb;
}

/* Step 9, written out: half floats by hand, sRGB from the formula in double. */
static float ref_half(uint16_t h)
{
    const int e = (h >> 10) & 31, m = h & 1023;
    double v = e == 0 ? ldexp((double)m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp((double)(1024 + m), e - 25);
    return (float)(h & 0x8000u ? -v : v);
}

static float ref_srgb(uint32_t c)
{
    const double v = c / 255.0;
    return (float)(v < 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4));
}

static void ref_decode(tr_format f, const uint8_t *p, float out[4])
{
    switch (f) {
    case TR_FORMAT_R8G8B8A8_UNORM:
        for (int c = 0; c < 4; c++)
            out[c] = (float)p[c] / 255.0f;
        break;
    case TR_FORMAT_R8G8B8A8_SRGB:
        for (int c = 0; c < 3; c++)
            out[c] = ref_srgb(p[c]);
        out[3] = (float)p[3] / 255.0f;
        break;
    case TR_FORMAT_R16G16B16A16_SFLOAT:
        for (int c = 0; c < 4; c++) {
            uint16_t h;
            memcpy(&h, p + 2 * c, 2);
            out[c] = ref_half(h);
        }
        break;
    case TR_FORMAT_R32G32B32A32_SFLOAT:
        memcpy(out, p, 16);
        break;
    default: /* R32_SFLOAT as (r, 0, 0, 1), depth as (d, 0, 0, 1) */
        memcpy(out, p, 4);
        out[1] = out[2] = 0.0f;
        out[3] = 1.0f;
        break;
    }
}


static void rtex_create(rtex *t, tr_context *ctx, tr_format fmt, uint32_t w, uint32_t h, uint32_t layers,
                        uint32_t levels)
{
    memset(t, 0, sizeof(*t));
    tr_image_desc d = {0};
    d.format = fmt;
    d.width = w;
    d.height = h;
    d.layers = layers;
    d.levels = levels;
    TRT_OK(tr_image_create(ctx, &d, &t->img));
    t->fmt = fmt;
    t->w = w;
    t->h = h;
    t->layers = layers ? layers : 1;
    t->levels = levels == TR_LEVELS_ALL ? trref_full_chain(w, h) : levels ? levels : 1;
    cr_assert_eq(tr_image_get_desc(t->img).levels, t->levels);
    t->tb = fmt == TR_FORMAT_R16G16B16A16_SFLOAT ? 8 : fmt == TR_FORMAT_R32G32B32A32_SFLOAT ? 16 : 4;
    for (uint32_t l = 0; l < t->levels; l++) {
        const size_t n = (size_t)t->layers * lvl_w(t, l) * lvl_h(t, l);
        t->raw[l] = test_calloc(n, t->tb);
        t->dec[l] = test_calloc(n * 4, sizeof(float));
    }
}

/* Uploads every level and layer separately and decodes them for the reference. */
static void rtex_commit(rtex *t)
{
    for (uint32_t l = 0; l < t->levels; l++)
        for (uint32_t a = 0; a < t->layers; a++) {
            const tr_subresource sub = {l, a, TR_ASPECT_DEFAULT, 0};
            TRT_OK(tr_image_upload(t->img, &sub, rtex_raw(t, l, a, 0, 0), 0));
            for (uint32_t y = 0; y < lvl_h(t, l); y++)
                for (uint32_t x = 0; x < lvl_w(t, l); x++)
                    ref_decode(t->fmt, rtex_raw(t, l, a, x, y), (float *)rtex_dec(t, l, a, x, y));
        }
}

static void rtex_set_f(rtex *t, uint32_t level, uint32_t layer, uint32_t x, uint32_t y, const float v[4])
{
    memcpy(rtex_raw(t, level, layer, x, y), v, t->tb);
}

/* Random contents, every level different; finite values only. */
static void rtex_random(rtex *t, trt_rng *r)
{
    for (uint32_t l = 0; l < t->levels; l++)
        for (uint32_t a = 0; a < t->layers; a++)
            for (uint32_t y = 0; y < lvl_h(t, l); y++)
                for (uint32_t x = 0; x < lvl_w(t, l); x++) {
                    uint8_t *p = rtex_raw(t, l, a, x, y);
                    float v[4];
                    switch (t->fmt) {
                    case TR_FORMAT_R8G8B8A8_UNORM:
                    case TR_FORMAT_R8G8B8A8_SRGB:
                        for (int c = 0; c < 4; c++)
                            p[c] = (uint8_t)trt_rand_u32(r);
                        break;
                    case TR_FORMAT_R16G16B16A16_SFLOAT:
                        for (int c = 0; c < 4; c++) {
                            uint16_t h;
                            do
                                h = (uint16_t)trt_rand_u32(r);
                            while (((h >> 10) & 31) == 31);
                            memcpy(p + 2 * c, &h, 2);
                        }
                        break;
                    case TR_FORMAT_D32_SFLOAT:
                        v[0] = trt_rand_u32(r) & 1 ? (float)(trt_rand_u32(r) % 9) / 8.0f
                                                   : (float)trt_rand_range(r, 0.0, 1.0);
                        memcpy(p, v, 4);
                        break;
                    default:
                        for (int c = 0; c < 4; c++)
                            v[c] = (float)trt_rand_range(r, -4.0, 4.0);
                        memcpy(p, v, t->tb);
                        break;
                    }
                }
}

static void rtex_destroy(rtex *t)
{
    tr_image_destroy(t->img);
    for (uint32_t l = 0; l < t->levels; l++) {
        test_free(t->raw[l]);
        test_free(t->dec[l]);
    }
    memset(t, 0, sizeof(*t));
}

/* Steps 7-10 in one level (tests/common/ref_sampling.c). */
static void ref_filter(const rtex *tx, const trref_sampler *sm, uint32_t level, uint32_t layer, float s, float t,
                       bool linear, float dref, float out[4])
{
    const trref_texels view = {tx->w, tx->h, (const float *const *)tx->dec};
    trref_filter(&view, sm, level, layer, s, t, NULL, linear, dref, out);
}

static uint32_t ref_taps_seen[TR_MAX_ANISOTROPY + 1];

/* Steps 6-12 for one lane. */
static void ref_sample_one(const rtex *tx, const trref_sampler *sm, const trref_mip_plan *p, uint32_t taps, float dsda,
                           float dtda, uint32_t layer, float s, float t, float dref, float out[4])
{
    const bool linear = (p->mag ? sm->d.mag_filter : sm->d.min_filter) == TR_FILTER_LINEAR;
    float acc[4] = {0, 0, 0, 0};
    ref_taps_seen[taps]++;
    for (uint32_t i = 1; i <= taps; i++) {
        float si, ti;
        trref_tap(s, t, dsda, dtda, taps, i, &si, &ti);
        float tau[4];
        ref_filter(tx, sm, p->hi, layer, si, ti, linear, dref, tau);
        if (p->delta) {
            float lo[4];
            ref_filter(tx, sm, p->lo, layer, si, ti, linear, dref, lo);
            for (int c = 0; c < 4; c++)
                tau[c] = ((float)(256 - p->delta) * tau[c] + (float)p->delta * lo[c]) * 0x1p-8f;
        }
        for (int c = 0; c < 4; c++)
            acc[c] = i == 1 ? tau[c] : acc[c] + tau[c];
    }
    for (int c = 0; c < 4; c++)
        out[c] = taps > 1 ? acc[c] / (float)taps : acc[c];
}

/* tr_fs_sample as the header describes it, for lanes [0, n): steps 1-6
 * from the shared model, steps 6-12 here. */
static void ref_sample(const rtex *tx, const trref_sampler *sm, const tr_sample_args *a, uint32_t n,
                       float out[4][LANES])
{
    for (uint32_t l = 0; l < n; l++) {
        const trref_read r = trref_read_lane(sm, tx->w, tx->h, tx->levels, tx->layers, a, n, l);
        float res[4];
        ref_sample_one(tx, sm, &r.plan, r.lod.taps, r.dsda, r.dtda, r.layer, r.s, r.t, a->dref ? a->dref[l] : 0.0f,
                       res);
        for (int c = 0; c < 4; c++)
            out[c][l] = res[c];
    }
}

/* tr_fs_query_lod as the header describes it. */
static void ref_query(const rtex *tx, const trref_sampler *sm, const float *s, const float *t, uint32_t n,
                      float out[2][LANES])
{
    for (uint32_t q = 0; q < n; q += 4) {
        const trref_lod lb = trref_lod_grad(tx->w, tx->h, sm->aniso, s[q + 1] - s[q], t[q + 1] - t[q], s[q + 2] - s[q],
                                     t[q + 2] - t[q]);
        const trref_mip_plan p = trref_plan(sm, tx->levels, lb.lambda, 0.0f, NULL);
        const int32_t top = 256 * (int32_t)(tx->levels - 1);
        const int32_t d = p.lambda < 0 ? 0 : p.lambda > top ? top : p.lambda;
        for (uint32_t l = q; l < q + 4; l++) {
            out[0][l] = (float)d / 256.0f;
            out[1][l] = (float)p.lambda_prime / 256.0f;
        }
    }
}

/* ==== running the library and comparing ======================================================= */

static tr_fs_block g_blk;
static tr_texture_binding g_slots[TR_MAX_TEXTURES];
static float g_got[4][LANES], g_want[4][LANES];

static const tr_fs_block *bind_block(const rtex *tx, const trref_sampler *sm, uint32_t n)
{
    memset(g_slots, 0, sizeof(g_slots));
    g_slots[SLOT].image = tx ? tx->img : NULL;
    g_slots[SLOT].sampler = sm ? sm->s : NULL;
    g_blk.count = n;
    g_blk.live = n >= 64 ? ~0ull : (1ull << n) - 1;
    g_blk.textures = g_slots;
    return &g_blk;
}

static bool same_float(float a, float b)
{
    uint32_t x, y;
    memcpy(&x, &a, 4);
    memcpy(&y, &b, 4);
    return x == y || (a != a && b != b);
}

static void describe(const tr_sample_args *a, uint32_t l, char *buf, size_t size)
{
    size_t k = (size_t)snprintf(buf, size, "s %a t %a", (double)a->s[l], (double)a->t[l]);
    if (a->lod && k < size)
        k += (size_t)snprintf(buf + k, size - k, " lod %a", (double)a->lod[l]);
    if (a->dsdx && k < size)
        k += (size_t)snprintf(buf + k, size - k, " grad (%a %a %a %a)", (double)a->dsdx[l], (double)a->dtdx[l],
                              (double)a->dsdy[l], (double)a->dtdy[l]);
    if (a->bias && k < size)
        k += (size_t)snprintf(buf + k, size - k, " bias %a", (double)a->bias[l]);
    if (a->layer && k < size)
        k += (size_t)snprintf(buf + k, size - k, " layer %a", (double)a->layer[l]);
    if (a->lod_clamp && k < size)
        k += (size_t)snprintf(buf + k, size - k, " lod_clamp %a", (double)a->lod_clamp[l]);
    if (a->dref && k < size)
        snprintf(buf + k, size - k, " dref %a", (double)a->dref[l]);
}

static void check_lanes(const tr_sample_args *a, uint32_t n, const char *what)
{
    for (uint32_t l = 0; l < n; l++)
        for (int c = 0; c < 4; c++)
            if (!same_float(g_got[c][l], g_want[c][l])) {
                char buf[512];
                describe(a, l, buf, sizeof(buf));
                cr_assert_fail("%s: lane %u channel %d: got %a (%.9g), want %a (%.9g); %s", what, l, c,
                               (double)g_got[c][l], (double)g_got[c][l], (double)g_want[c][l],
                               (double)g_want[c][l], buf);
            }
}

/* Samples with the library into g_got and the reference into g_want, and
 * compares every lane. */
static void sample_check(const rtex *tx, const trref_sampler *sm, const tr_sample_args *a, uint32_t n,
                         const char *what)
{
    for (int c = 0; c < 4; c++)
        for (uint32_t l = 0; l < LANES; l++)
            g_got[c][l] = -12345.0f;
    tr_fs_sample(bind_block(tx, sm, n), SLOT, a, g_got);
    ref_sample(tx, sm, a, n, g_want);
    check_lanes(a, n, what);
}

/* Asserts lane l of g_got equals v exactly. */
static void expect_lane(uint32_t l, const float v[4], const char *what)
{
    for (int c = 0; c < 4; c++)
        cr_assert(same_float(g_got[c][l], v[c]), "%s: lane %u channel %d: got %a (%.9g), want %a (%.9g)", what, l, c,
                  (double)g_got[c][l], (double)g_got[c][l], (double)v[c], (double)v[c]);
}

/* Lanes 4q..4q+3 (lane = 4q + 2dy + dx) of a quad with the given derivatives. */
static void set_quad(float *s, float *t, uint32_t q, float s0, float t0, float dsdx, float dtdx, float dsdy,
                     float dtdy)
{
    s[4 * q + 0] = s0;
    s[4 * q + 1] = s0 + dsdx;
    s[4 * q + 2] = s0 + dsdy;
    s[4 * q + 3] = s0 + dsdx + dsdy;
    t[4 * q + 0] = t0;
    t[4 * q + 1] = t0 + dtdx;
    t[4 * q + 2] = t0 + dtdy;
    t[4 * q + 3] = t0 + dtdx + dtdy;
}

static tr_sampler_desc sdesc(tr_filter mag, tr_filter min, tr_mipmap_mode mip, tr_address_mode au, tr_address_mode av)
{
    tr_sampler_desc d = {0};
    d.mag_filter = mag;
    d.min_filter = min;
    d.mipmap_mode = mip;
    d.address_u = au;
    d.address_v = av;
    return d;
}

static const tr_address_mode all_modes[4] = {TR_ADDRESS_REPEAT, TR_ADDRESS_MIRRORED_REPEAT, TR_ADDRESS_CLAMP_TO_EDGE,
                                             TR_ADDRESS_CLAMP_TO_BORDER};

/* A texture whose level l holds (l, -l, 0.5, 1) everywhere: with mipmap
 * linear a sample's red is d / 256 exactly, so it shows the LOD used. */
static void probe_texture(rtex *t, tr_context *ctx, uint32_t w, uint32_t h)
{
    rtex_create(t, ctx, TR_FORMAT_R32G32B32A32_SFLOAT, w, h, 1, TR_LEVELS_ALL);
    for (uint32_t l = 0; l < t->levels; l++)
        for (uint32_t y = 0; y < lvl_h(t, l); y++)
            for (uint32_t x = 0; x < lvl_w(t, l); x++) {
                const float v[4] = {(float)l, -(float)l, 0.5f, 1.0f};
                rtex_set_f(t, l, 0, x, y, v);
            }
    rtex_commit(t);
}

/* Library query_lod into out, checked against the reference. */
static void query_check(const rtex *tx, const trref_sampler *sm, const float *s, const float *t, uint32_t n,
                        float out[2][LANES])
{
    float want[2][LANES];
    tr_fs_query_lod(bind_block(tx, sm, n), SLOT, s, t, out);
    ref_query(tx, sm, s, t, n, want);
    for (uint32_t l = 0; l < n; l++)
        for (int k = 0; k < 2; k++)
            cr_assert(same_float(out[k][l], want[k][l]),
                      "query_lod lane %u out[%d]: got %a, want %a (s %a %a %a, t %a %a %a)", l, k, (double)out[k][l],
                      (double)want[k][l], (double)s[l & ~3u], (double)s[(l & ~3u) + 1], (double)s[(l & ~3u) + 2],
                      (double)t[l & ~3u], (double)t[(l & ~3u) + 1], (double)t[(l & ~3u) + 2]);
}

/* ==== 1. nearest filtering and address modes ======================================================= */

Test(sampling, nearest_address_modes)
{
    tr_context *ctx = test_context();
    rtex tx;
    rtex_create(&tx, ctx, TR_FORMAT_R32G32B32A32_SFLOAT, 5, 3, 1, 1);
    for (uint32_t y = 0; y < 3; y++)
        for (uint32_t x = 0; x < 5; x++) {
            const float v[4] = {(float)(x + 10 * y + 1), 100.0f + (float)x, 200.0f + (float)y, 0.5f + (float)(x * y)};
            rtex_set_f(&tx, 0, 0, x, y, v);
        }
    rtex_commit(&tx);

    /* 16 s values: far outside, negative, texel boundaries (k / 5 and its
     * neighbours), non-finite; 4 t values likewise. */
    const float S[16] = {37.3f, -1000.6f, -0.0001f, 0.0f, -0.0f, 0.2f, nextafterf(0.2f, 0.0f), 0.6f,
                         nextafterf(0.6f, 1.0f), 1.0f, nextafterf(1.0f, 0.0f), -0.2f, -1.0f, 3.0e38f, -INFINITY, NAN};
    const float T[4] = {0.5f, -0.0001f, 1.0f / 3.0f, -37.3f};
    float s[LANES], t[LANES], lod[LANES];
    for (uint32_t l = 0; l < LANES; l++) {
        s[l] = S[l % 16];
        t[l] = T[l / 16];
        lod[l] = 0.0f;
    }
    for (int mu = 0; mu < 4; mu++)
        for (int mv = 0; mv < 4; mv++)
            for (int bc = 0; bc < 3; bc++) {
                if (bc && mu != 3 && mv != 3)
                    continue;
                tr_sampler_desc d = sdesc(TR_FILTER_NEAREST, TR_FILTER_NEAREST, TR_MIPMAP_NEAREST, all_modes[mu],
                                          all_modes[mv]);
                d.border_color = (tr_border_color)bc;
                trref_sampler sm;
                trref_sampler_create(&sm, ctx, &d);
                char what[96];
                snprintf(what, sizeof(what), "nearest, address %d/%d, border %d, lod 0", mu, mv, bc);
                const tr_sample_args a = {.s = s, .t = t, .lod = lod};
                sample_check(&tx, &sm, &a, LANES, what);

                /* Hand-computed texels of s = 37.3, -1000.6, -0.0001 at t = 0.5
                 * (row 1): u = 186.5, -5003, -0.0005 -> i = 186, -5003, -1. */
                static const int expect_i[4][3] = {{1, 2, 4}, {3, 2, 0}, {4, 0, 0}, {-1, -1, -1}};
                for (int k = 0; k < 3; k++) {
                    const int i = expect_i[mu][k];
                    const float *v = i < 0 ? trref_border_rgba[bc] : rtex_dec(&tx, 0, 0, (uint32_t)i, 1);
                    expect_lane((uint32_t)k, v, what);
                }

                /* The same with implicit LOD: constant coordinates per quad
                 * (zero derivatives, L(0), so magnification at level 0). */
                float qs[LANES], qt[LANES];
                for (uint32_t l = 0; l < LANES; l++) {
                    qs[l] = S[l / 4];
                    qt[l] = T[(l / 4) % 4];
                }
                snprintf(what, sizeof(what), "nearest, address %d/%d, border %d, implicit", mu, mv, bc);
                const tr_sample_args b = {.s = qs, .t = qt};
                sample_check(&tx, &sm, &b, LANES, what);
                tr_sampler_destroy(sm.s);
            }
    rtex_destroy(&tx);
}

/* ==== 2. bilinear ================================================================================= */

Test(sampling, bilinear_formula)
{
    tr_context *ctx = test_context();
    trt_rng rng = {0x5eed0001};
    const tr_format fmts[3] = {TR_FORMAT_R8G8B8A8_UNORM, TR_FORMAT_R16G16B16A16_SFLOAT,
                               TR_FORMAT_R32G32B32A32_SFLOAT};
    for (int f = 0; f < 3; f++) {
        rtex tx;
        rtex_create(&tx, ctx, fmts[f], 7, 5, 1, 1);
        rtex_random(&tx, &rng);
        rtex_commit(&tx);
        for (int mu = 0; mu < 4; mu++)
            for (int mv = 0; mv < 4; mv++)
                for (int bc = 0; bc < 3; bc++) {
                    if (bc && mu != 3 && mv != 3)
                        continue;
                    tr_sampler_desc d = sdesc(TR_FILTER_LINEAR, TR_FILTER_NEAREST, TR_MIPMAP_NEAREST, all_modes[mu],
                                              all_modes[mv]);
                    d.border_color = (tr_border_color)bc;
                    trref_sampler sm;
                    trref_sampler_create(&sm, ctx, &d);
                    char what[96];
                    snprintf(what, sizeof(what), "bilinear %s, address %d/%d, border %d", tr_format_name(fmts[f]), mu,
                             mv, bc);
                    for (int batch = 0; batch < 4; batch++) {
                        float s[LANES], t[LANES], lod[LANES];
                        for (uint32_t l = 0; l < LANES; l++) {
                            /* random floats, and every fourth lane on the 1/1024 grid
                             * (sub-texel fractions 0 and 128 included) */
                            s[l] = l % 4 ? (float)trt_rand_range(&rng, -2.5, 3.5) : trt_rand_coord(&rng, -2.0f, 3.0f);
                            t[l] = l % 4 ? (float)trt_rand_range(&rng, -2.5, 3.5) : trt_rand_coord(&rng, -2.0f, 3.0f);
                            /* negative LODs: still magnification (lambda clamps at min_lod 0) */
                            lod[l] = batch == 3 ? -(float)trt_rand_range(&rng, 0.0, 3.0) : 0.0f;
                        }
                        const tr_sample_args a = {.s = s, .t = t, .lod = lod};
                        sample_check(&tx, &sm, &a, LANES, what);
                    }
                    tr_sampler_destroy(sm.s);
                }
        rtex_destroy(&tx);
    }

    /* All four texels are read even when a weight is 0: at a texel centre
     * (a = b = 0) an infinite neighbour still makes w11 * t11 = 0 * inf = NaN. */
    rtex tx;
    rtex_create(&tx, ctx, TR_FORMAT_R32G32B32A32_SFLOAT, 2, 2, 1, 1);
    for (uint32_t i = 0; i < 4; i++) {
        const float v[4] = {i == 3 ? INFINITY : 1.0f, 2.0f, 3.0f, 4.0f};
        rtex_set_f(&tx, 0, 0, i % 2, i / 2, v);
    }
    rtex_commit(&tx);
    const tr_sampler_desc d = sdesc(TR_FILTER_LINEAR, TR_FILTER_LINEAR, TR_MIPMAP_NEAREST, TR_ADDRESS_CLAMP_TO_EDGE,
                                    TR_ADDRESS_CLAMP_TO_EDGE);
    trref_sampler sm;
    trref_sampler_create(&sm, ctx, &d);
    float s[4] = {0.25f, 0.25f, 0.25f, 0.25f}, t[4] = {0.25f, 0.25f, 0.25f, 0.25f}, lod[4] = {0, 0, 0, 0};
    const tr_sample_args a = {.s = s, .t = t, .lod = lod};
    sample_check(&tx, &sm, &a, 4, "bilinear, zero-weight infinite texel");
    cr_assert(isnan(g_got[0][0]), "zero-weight infinite texel: red %a, want NaN", (double)g_got[0][0]);
    const float gba[4] = {NAN, 2.0f, 3.0f, 4.0f};
    expect_lane(0, gba, "bilinear, zero-weight infinite texel");
    tr_sampler_destroy(sm.s);
    rtex_destroy(&tx);
}

/* ==== 3. trilinear ================================================================================= */

typedef struct cfg {
    tr_filter mag, min;
    tr_mipmap_mode mip;
    tr_address_mode au, av;
    tr_border_color border;
    float bias, min_lod, max_lod;
    uint32_t aniso;
} cfg;

static void make_cfg(trref_sampler *sm, tr_context *ctx, const cfg *c)
{
    tr_sampler_desc d = sdesc(c->mag, c->min, c->mip, c->au, c->av);
    d.border_color = c->border;
    d.lod_bias = c->bias;
    d.min_lod = c->min_lod;
    d.max_lod = c->max_lod;
    d.max_anisotropy = c->aniso;
    trref_sampler_create(sm, ctx, &d);
}

/* Random derivative: sign * 2^[lo, hi). */
static float rand_deriv(trt_rng *r, double lo, double hi)
{
    const double m = exp2(trt_rand_range(r, lo, hi));
    return (float)(trt_rand_u32(r) & 1 ? m : -m);
}

Test(sampling, trilinear_formula)
{
    tr_context *ctx = test_context();
    trt_rng rng = {0x5eed0003};
    static const cfg cfgs[] = {
        {TR_FILTER_LINEAR, TR_FILTER_LINEAR, TR_MIPMAP_LINEAR, TR_ADDRESS_REPEAT, TR_ADDRESS_REPEAT, 0, 0, 0, 0, 0},
        {TR_FILTER_LINEAR, TR_FILTER_LINEAR, TR_MIPMAP_LINEAR, TR_ADDRESS_MIRRORED_REPEAT, TR_ADDRESS_CLAMP_TO_EDGE, 0,
         0.75f, -1.0f, 4.25f, 0},
        {TR_FILTER_NEAREST, TR_FILTER_LINEAR, TR_MIPMAP_LINEAR, TR_ADDRESS_CLAMP_TO_BORDER, TR_ADDRESS_REPEAT,
         TR_BORDER_OPAQUE_WHITE, -0.5f, 0.5f, 0, 0},
        {TR_FILTER_LINEAR, TR_FILTER_NEAREST, TR_MIPMAP_LINEAR, TR_ADDRESS_REPEAT, TR_ADDRESS_MIRRORED_REPEAT, 0, 0.3f,
         -3.0f, 100.0f, 0},
        {TR_FILTER_LINEAR, TR_FILTER_LINEAR, TR_MIPMAP_NEAREST, TR_ADDRESS_CLAMP_TO_EDGE, TR_ADDRESS_CLAMP_TO_BORDER,
         TR_BORDER_OPAQUE_BLACK, 0, 0, 0, 0},
        {TR_FILTER_NEAREST, TR_FILTER_LINEAR, TR_MIPMAP_LINEAR, TR_ADDRESS_REPEAT, TR_ADDRESS_REPEAT, 0, 1.0f, -2.0f,
         TR_MAX_LOD_ZERO, 0},
    };
    const tr_format fmts[3] = {TR_FORMAT_R32G32B32A32_SFLOAT, TR_FORMAT_R8G8B8A8_UNORM,
                               TR_FORMAT_R16G16B16A16_SFLOAT};
    for (int f = 0; f < 3; f++) {
        rtex tx;
        rtex_create(&tx, ctx, fmts[f], 37, 23, 1, TR_LEVELS_ALL); /* 6 levels, 37x23 .. 1x1 */
        cr_assert_eq(tx.levels, 6);
        rtex_random(&tx, &rng);
        rtex_commit(&tx);
        for (size_t c = 0; c < sizeof(cfgs) / sizeof(cfgs[0]); c++) {
            trref_sampler sm;
            make_cfg(&sm, ctx, &cfgs[c]);
            char what[96];
            for (int batch = 0; batch < 8; batch++) {
                float s[LANES], t[LANES], lod[LANES], bias[LANES];
                float gx[LANES], gy[LANES], gz[LANES], gw[LANES];
                if (batch < 3) { /* explicit LOD */
                    for (uint32_t l = 0; l < LANES; l++) {
                        s[l] = (float)trt_rand_range(&rng, -1.5, 2.5);
                        t[l] = (float)trt_rand_range(&rng, -1.5, 2.5);
                        /* random, and every fourth lane a rounding tie of fx */
                        lod[l] = l % 4 ? (float)trt_rand_range(&rng, -2.0, 7.5)
                                       : ((float)(trt_rand_u32(&rng) % 2048) - 512.0f + 0.5f) / 256.0f;
                    }
                    snprintf(what, sizeof(what), "trilinear %s cfg %zu explicit lod", tr_format_name(fmts[f]), c);
                    const tr_sample_args a = {.s = s, .t = t, .lod = lod};
                    sample_check(&tx, &sm, &a, LANES, what);
                } else if (batch < 6) { /* implicit, from quads, with and without shader bias */
                    for (uint32_t q = 0; q < LANES / 4; q++)
                        set_quad(s, t, q, (float)trt_rand_range(&rng, -1.0, 2.0), (float)trt_rand_range(&rng, -1.0, 2.0),
                                 rand_deriv(&rng, -10, 0), rand_deriv(&rng, -12, -2), rand_deriv(&rng, -12, -2),
                                 rand_deriv(&rng, -10, 0));
                    /* odd quads are not parallelograms: lane 3 moves, and coarse
                     * derivatives (lanes 1 - 0 and 2 - 0) must not see it */
                    for (uint32_t q = 1; q < LANES / 4; q += 2) {
                        s[4 * q + 3] += (float)trt_rand_range(&rng, -0.5, 0.5);
                        t[4 * q + 3] += (float)trt_rand_range(&rng, -0.5, 0.5);
                    }
                    for (uint32_t l = 0; l < LANES; l++)
                        bias[l] = (float)trt_rand_range(&rng, -3.0, 3.0);
                    snprintf(what, sizeof(what), "trilinear %s cfg %zu implicit%s", tr_format_name(fmts[f]), c,
                             batch == 5 ? " + bias" : "");
                    const tr_sample_args a = {.s = s, .t = t, .bias = batch == 5 ? bias : NULL};
                    sample_check(&tx, &sm, &a, LANES, what);
                } else { /* explicit gradients, per lane */
                    for (uint32_t l = 0; l < LANES; l++) {
                        s[l] = (float)trt_rand_range(&rng, -1.0, 2.0);
                        t[l] = (float)trt_rand_range(&rng, -1.0, 2.0);
                        gx[l] = rand_deriv(&rng, -10, 0);
                        gy[l] = rand_deriv(&rng, -12, -1);
                        gz[l] = rand_deriv(&rng, -12, -1);
                        gw[l] = rand_deriv(&rng, -10, 0);
                        bias[l] = (float)trt_rand_range(&rng, -2.0, 2.0);
                    }
                    snprintf(what, sizeof(what), "trilinear %s cfg %zu gradients", tr_format_name(fmts[f]), c);
                    const tr_sample_args a = {
                        .s = s, .t = t, .dsdx = gx, .dtdx = gy, .dsdy = gz, .dtdy = gw, .bias = batch == 7 ? bias : NULL};
                    sample_check(&tx, &sm, &a, LANES, what);
                }
            }
            tr_sampler_destroy(sm.s);
        }
        rtex_destroy(&tx);
    }
}

/* ==== 4. LOD selection ============================================================================== */

Test(sampling, lod_isotropic)
{
    tr_context *ctx = test_context();
    rtex tx;
    probe_texture(&tx, ctx, 64, 64); /* 7 levels */
    const tr_sampler_desc d = sdesc(TR_FILTER_LINEAR, TR_FILTER_LINEAR, TR_MIPMAP_LINEAR, TR_ADDRESS_REPEAT,
                                    TR_ADDRESS_REPEAT);
    trref_sampler sm;
    trref_sampler_create(&sm, ctx, &d);
    const float u = 1.0f / 64.0f;
    const int32_t L3 = (int32_t)lroundl(256.0L * log2l(3.0L)); /* round(256 log2 3) = 406 */
    cr_assert_eq(L3, 406);
    /* derivatives (dsdx, dtdx, dsdy, dtdy) in texels per pixel, and the lambda expected */
    static const struct {
        float d[4];
        int32_t lambda;
    } cases[] = {
        {{1, 0, 0, 1}, 0},      {{4, 0, 0, 1}, 512},   {{3, 0, 0, 3}, 406},    {{0, 3, 0, 0}, 406},
        {{0, 0, 2, 0}, 256},    {{1, 0, 0, 2}, 256},   {{0, 0.5f, 0.5f, 0}, -256}, {{8, 0, 0, 8}, 768},
        {{0.25f, 0, 0, 0.25f}, -512}, {{3, 4, 0, 1}, 594}, {{16, 0, 0, 1}, 1024}, {{64, 0, 0, 64}, 1536},
        {{0, 0, 0, 0}, -65536}, {{256, 0, 0, 1}, 2048}, {{0.5f, 0.5f, 0, 0}, -128}, {{1, 1, 1, 1}, 128},
    };
    const uint32_t n = sizeof(cases) / sizeof(cases[0]);
    cr_assert(n <= LANES / 4);
    cr_assert_eq(lroundl(128.0L * log2l(25.0L)), 594); /* |(3, 4)|^2 = 25 */
    float s[LANES], t[LANES], q[2][LANES];
    for (uint32_t i = 0; i < n; i++)
        set_quad(s, t, i, 0.25f, 0.5f, cases[i].d[0] * u, cases[i].d[1] * u, cases[i].d[2] * u, cases[i].d[3] * u);
    query_check(&tx, &sm, s, t, 4 * n, q);
    const tr_sample_args a = {.s = s, .t = t};
    sample_check(&tx, &sm, &a, 4 * n, "isotropic LOD, probe texture");
    for (uint32_t i = 0; i < n; i++) {
        const int32_t want = cases[i].lambda;
        const int32_t d = want < 0 ? 0 : want > 1536 ? 1536 : want;
        for (uint32_t l = 4 * i; l < 4 * i + 4; l++) {
            cr_assert(same_float(q[1][l], (float)want / 256.0f), "case %u: query_lod out[1] %a, want %a", i,
                      (double)q[1][l], (double)want / 256.0);
            cr_assert(same_float(q[0][l], (float)d / 256.0f), "case %u: query_lod out[0] %a, want %a", i,
                      (double)q[0][l], (double)d / 256.0);
            const float v[4] = {(float)d / 256.0f, -(float)d / 256.0f, 0.5f, 1.0f};
            expect_lane(l, v, "isotropic LOD, probe texture");
        }
    }

    /* A non-square texture: W and H scale their own axes. */
    rtex ns;
    probe_texture(&ns, ctx, 32, 8); /* 6 levels */
    set_quad(s, t, 0, 0.0f, 0.0f, 1.0f / 32.0f, 0.0f, 0.0f, 1.0f / 8.0f);  /* rx = ry = 1: 0 */
    set_quad(s, t, 1, 0.0f, 0.0f, 0.0f, 2.0f / 8.0f, 0.0f, 0.0f);          /* rx = 4: 1 */
    set_quad(s, t, 2, 0.0f, 0.0f, 0.0f, 0.0f, 8.0f / 32.0f, 0.0f);         /* ry = 64: 3 */
    query_check(&ns, &sm, s, t, 12, q);
    cr_assert(q[1][0] == 0.0f && q[1][4] == 1.0f && q[1][8] == 3.0f, "non-square: %g %g %g", (double)q[1][0],
              (double)q[1][4], (double)q[1][8]);
    tr_sampler_destroy(sm.s);
    rtex_destroy(&ns);
    rtex_destroy(&tx);
}

Test(sampling, lod_anisotropic)
{
    tr_context *ctx = test_context();
    trt_rng rng = {0x5eed0004};
    rtex tx, probe;
    rtex_create(&tx, ctx, TR_FORMAT_R32G32B32A32_SFLOAT, 64, 64, 1, TR_LEVELS_ALL);
    rtex_random(&tx, &rng);
    rtex_commit(&tx);
    probe_texture(&probe, ctx, 64, 64);
    const float u = 1.0f / 64.0f;
    /* derivatives in texels per pixel, A, expected N, lambda_base, major axis */
    static const struct {
        float d[4];
        uint32_t A, N;
        int32_t lambda;
        bool major_x;
    } cases[] = {
        {{4, 0, 0, 1}, 16, 4, 0, true},        /* ratio 4 < 16: N = 4, L(rmin) */
        {{4, 0, 0, 1}, 2, 2, 256, true},       /* ratio 4 > 2: N = A, L(16 / 4) */
        {{64, 0, 0, 1}, 16, 16, 512, true},    /* ratio 64 > 16: L(4096 / 256) */
        {{3, 0, 0, 1}, 16, 3, 0, true},        /* ratio 3: N = 3 */
        {{4, 0, 0, 2}, 4, 2, 256, true},       /* n^2 rmin == rmax exactly: N = 2 */
        {{1, 0, 0, 4}, 16, 4, 0, false},       /* major axis y */
        {{2, 0, 0, 2}, 16, 1, 256, false},     /* isotropic: N = 1, rx == ry: y */
        {{0, 0, 0, 0}, 16, 1, -65536, false},  /* zero: N = 1, L(0) */
        {{1, 0, 0, 0}, 16, 16, -1024, true},   /* rmin = 0: N = A, L(1 / 256) */
        {{5, 0, 0, 1}, 4, 4, 82, true},        /* 25 > 16: capped, L(25 / 16) */
        {{0, 8, 1, 0}, 8, 8, 0, true},         /* ratio 8 = A: N = 8, L(rmin) */
        {{0, 9, 1, 0}, 8, 8, 44, true},        /* ratio 9 > 8: L(81 / 64) */
    };
    const uint32_t n = sizeof(cases) / sizeof(cases[0]);
    cr_assert_eq(lroundl(128.0L * log2l(25.0L / 16.0L)), 82);
    cr_assert_eq(lroundl(128.0L * log2l(81.0L / 64.0L)), 44);
    for (uint32_t i = 0; i < n; i++) {
        tr_sampler_desc d = sdesc(TR_FILTER_LINEAR, TR_FILTER_LINEAR, TR_MIPMAP_LINEAR, TR_ADDRESS_REPEAT,
                                  TR_ADDRESS_MIRRORED_REPEAT);
        d.max_anisotropy = cases[i].A;
        trref_sampler sm;
        trref_sampler_create(&sm, ctx, &d);
        float s[LANES], t[LANES], q[2][LANES];
        /* bases on the 1/1024 grid, so that the quads' differences are exact */
        for (uint32_t k = 0; k < 16; k++)
            set_quad(s, t, k, trt_rand_coord(&rng, -1.0f, 2.0f), trt_rand_coord(&rng, -1.0f, 2.0f),
                     cases[i].d[0] * u, cases[i].d[1] * u, cases[i].d[2] * u, cases[i].d[3] * u);
        const int32_t want = cases[i].lambda;
        /* the reference's steps 2-3 agree with the hand values */
        const trref_lod lb = trref_lod_grad(64, 64, sm.aniso, cases[i].d[0] * u, cases[i].d[1] * u, cases[i].d[2] * u,
                                     cases[i].d[3] * u);
        cr_assert(lb.taps == cases[i].N && lb.lambda == want && lb.major_x == cases[i].major_x,
                  "case %u: reference N %u lambda %d major_x %d", i, lb.taps, lb.lambda, lb.major_x);
        /* lambda through query_lod */
        query_check(&probe, &sm, s, t, LANES, q);
        const int32_t dd = want < 0 ? 0 : want > 1536 ? 1536 : want;
        cr_assert(same_float(q[1][0], (float)want / 256.0f) && same_float(q[0][0], (float)dd / 256.0f),
                  "case %u: query_lod (%a, %a), want lambda %d", i, (double)q[0][0], (double)q[1][0], want);
        /* the taps: the library equals the reference with N taps ... */
        char what[64];
        snprintf(what, sizeof(what), "anisotropic case %u (N = %u)", i, cases[i].N);
        const tr_sample_args a = {.s = s, .t = t};
        sample_check(&tx, &sm, &a, LANES, what);
        /* ... and N matters: a single tap at the same lambda gives another answer */
        if (cases[i].N > 1) {
            bool differs = false;
            for (uint32_t l = 0; l < LANES && !differs; l++) {
                const trref_mip_plan p = trref_plan(&sm, tx.levels, want, 0.0f, NULL);
                float one[4];
                ref_sample_one(&tx, &sm, &p, 1, 0.0f, 0.0f, 0, s[l], t[l], 0.0f, one);
                for (int c = 0; c < 4; c++)
                    differs |= !same_float(one[c], g_got[c][l]);
            }
            cr_assert(differs, "case %u: %u taps look like one", i, cases[i].N);
        }
        tr_sampler_destroy(sm.s);
    }
    rtex_destroy(&probe);
    rtex_destroy(&tx);
}

Test(sampling, lod_bias)
{
    tr_context *ctx = test_context();
    rtex tx;
    probe_texture(&tx, ctx, 64, 64); /* 7 levels: red = d / 256 */
    const float u = 1.0f / 64.0f;
    /* sampler bias, shader bias, derivative (isotropic, texels per pixel),
     * L of the derivative, expected lambda' (with the shader bias) */
    static const struct {
        float sb, hb, deriv;
        int32_t L, lambda_prime;
    } cases[] = {
        {1.5f, 0.0f, 1.0f, 0, 384},
        {1.5f, 0.25f, 1.0f, 0, 448},
        {0.0f, -0.75f, 4.0f, 512, 512 - 192},
        {15.0f, 3.0f, 0x1p-12f, -3072, -3072 + 3840},    /* 18 clamped to 15 */
        {-15.0f, -20.0f, 0x1p17f, 4352, 4352 - 3840},    /* -35 clamped to -15 */
        {-15.0f, 20.0f, 1.0f, 0, 5 * 256},               /* the sum is clamped, not each */
        {0.0f, 0.5f / 256.0f, 1.0f, 0, 1},               /* fx: halves up */
        {0.0f, -0.5f / 256.0f, 1.0f, 0, 0},
        {0.0f, -1.5f / 256.0f, 2.0f, 256, 256 - 1},
        {0.3f, 0.0f, 1.0f, 0, 77},                       /* fx(0.3) = round(76.8) */
        {0.3f, 0.3f, 2.0f, 256, 256 + 154},              /* fx of each, then summed */
        {2.0f / 3.0f, 1.0f / 3.0f, 1.0f, 0, 171 + 85},
    };
    const uint32_t n = sizeof(cases) / sizeof(cases[0]);
    for (uint32_t i = 0; i < n; i++) {
        tr_sampler_desc d = sdesc(TR_FILTER_LINEAR, TR_FILTER_LINEAR, TR_MIPMAP_LINEAR, TR_ADDRESS_REPEAT,
                                  TR_ADDRESS_REPEAT);
        d.lod_bias = cases[i].sb;
        d.min_lod = -20.0f;
        trref_sampler sm;
        trref_sampler_create(&sm, ctx, &d);
        float s[8], t[8], bias[8], q[2][LANES];
        const float g = cases[i].deriv * u;
        set_quad(s, t, 0, 0.25f, 0.5f, g, 0.0f, 0.0f, g);
        set_quad(s, t, 1, 0.25f, 0.5f, g, 0.0f, 0.0f, g);
        for (int l = 0; l < 8; l++)
            bias[l] = l < 4 ? cases[i].hb : 0.0f;
        const tr_sample_args a = {.s = s, .t = t, .bias = bias};
        sample_check(&tx, &sm, &a, 8, "LOD bias");
        const int32_t lp = cases[i].lambda_prime, dd = lp < 0 ? 0 : lp > 1536 ? 1536 : lp;
        const float v[4] = {(float)dd / 256.0f, -(float)dd / 256.0f, 0.5f, 1.0f};
        for (uint32_t l = 0; l < 4; l++)
            expect_lane(l, v, "LOD bias, probe");
        /* lanes 4..7 without the shader bias; query_lod: the sampler bias
         * only, lambda' not clamped */
        const int32_t lps = cases[i].L + trref_fx(cases[i].sb), ds = lps < 0 ? 0 : lps > 1536 ? 1536 : lps;
        const float vs[4] = {(float)ds / 256.0f, -(float)ds / 256.0f, 0.5f, 1.0f};
        for (uint32_t l = 4; l < 8; l++)
            expect_lane(l, vs, "sampler bias only, probe");
        query_check(&tx, &sm, s, t, 8, q);
        cr_assert(same_float(q[1][4], (float)lps / 256.0f) && same_float(q[0][4], (float)ds / 256.0f),
                  "case %u: query_lod (%a, %a), want (%d, %d) / 256", i, (double)q[0][4], (double)q[1][4], ds, lps);
        tr_sampler_destroy(sm.s);
    }
    /* query_lod's lambda' is not clamped to the levels: bias -15 at lambda 0 */
    tr_sampler_desc d = {0};
    d.lod_bias = -15.0f;
    trref_sampler sm;
    trref_sampler_create(&sm, ctx, &d);
    float s[4], t[4], q[2][LANES];
    set_quad(s, t, 0, 0.25f, 0.5f, u, 0.0f, 0.0f, u);
    query_check(&tx, &sm, s, t, 4, q);
    cr_assert(q[1][0] == -15.0f && q[0][0] == 0.0f, "bias -15: query_lod (%g, %g)", (double)q[0][0], (double)q[1][0]);
    tr_sampler_destroy(sm.s);
    rtex_destroy(&tx);
}

Test(sampling, lod_clamps)
{
    tr_context *ctx = test_context();
    trt_rng rng = {0x5eed0005};
    rtex tx, rnd;
    probe_texture(&tx, ctx, 64, 64);
    rtex_create(&rnd, ctx, TR_FORMAT_R32G32B32A32_SFLOAT, 64, 64, 1, TR_LEVELS_ALL);
    rtex_random(&rnd, &rng);
    rtex_commit(&rnd);
    const float u = 1.0f / 64.0f;
    /* min_lod, max_lod, derivative, expected out[0] * 256, out[1] * 256 */
    static const struct {
        float min_lod, max_lod, deriv;
        int32_t q0, q1;
    } cases[] = {
        {1.25f, 2.5f, 1.0f, 320, 0},
        {1.25f, 2.5f, 16.0f, 640, 1024},
        {1.25f, 2.5f, 4.0f, 512, 512},
        {-3.0f, TR_MAX_LOD_ZERO, 8.0f, 0, 768},     /* clamp at exactly 0 */
        {0.0f, 0.0f, 1024.0f, 1536, 2560},          /* 0 = no clamp; levels clamp to 6 */
        {-2.0f, 0.0f, 1.0f / 32.0f, 0, -1280},      /* lambda -2 < 0: magnification */
        {0.3f, 0.0f, 1.0f, 77, 0},                  /* fx(0.3) */
        {0.0f, 0.4f / 256.0f, 4.0f, 0, 512},        /* fx(max_lod) = 0 */
        {3.0f, 3.0f, 0.0f, 768, -65536},
    };
    const uint32_t n = sizeof(cases) / sizeof(cases[0]);
    for (uint32_t i = 0; i < n; i++) {
        tr_sampler_desc d = sdesc(TR_FILTER_NEAREST, TR_FILTER_LINEAR, TR_MIPMAP_LINEAR, TR_ADDRESS_REPEAT,
                                  TR_ADDRESS_REPEAT);
        d.min_lod = cases[i].min_lod;
        d.max_lod = cases[i].max_lod;
        trref_sampler sm;
        trref_sampler_create(&sm, ctx, &d);
        float s[LANES], t[LANES], q[2][LANES];
        for (uint32_t k = 0; k < 16; k++) /* bases on the 1/1024 grid: exact differences */
            set_quad(s, t, k, trt_rand_coord(&rng, 0.0f, 1.0f), trt_rand_coord(&rng, 0.0f, 1.0f),
                     cases[i].deriv * u, 0.0f, 0.0f, cases[i].deriv * u);
        query_check(&tx, &sm, s, t, LANES, q);
        cr_assert(same_float(q[0][0], (float)cases[i].q0 / 256.0f) &&
                      same_float(q[1][0], (float)cases[i].q1 / 256.0f),
                  "case %u: query_lod (%a, %a), want (%d, %d) / 256", i, (double)q[0][0], (double)q[1][0],
                  cases[i].q0, cases[i].q1);
        const tr_sample_args a = {.s = s, .t = t};
        sample_check(&tx, &sm, &a, LANES, "LOD clamps, probe");
        const float v[4] = {(float)cases[i].q0 / 256.0f, -(float)cases[i].q0 / 256.0f, 0.5f, 1.0f};
        expect_lane(0, v, "LOD clamps, probe");
        sample_check(&rnd, &sm, &a, LANES, "LOD clamps, random texture");
        if (cases[i].q0 == 0) { /* magnification: level 0, nearest: an exact texel of level 0 */
            for (uint32_t l = 0; l < LANES; l++) {
                const uint32_t x = (uint32_t)floor((double)s[l] * 64.0), y = (uint32_t)floor((double)t[l] * 64.0);
                expect_lane(l, rtex_dec(&rnd, 0, 0, x % 64, y % 64), "LOD clamps: magnification texel");
            }
        }
        tr_sampler_destroy(sm.s);
    }
    rtex_destroy(&rnd);
    rtex_destroy(&tx);
}

static void rand_ellipse(trt_rng *r, uint32_t W, uint32_t H, bool round, float g[4]);

/* lod_clamp (HLSL's MinMipClamp, SPIR-V's MinLod): step 4's lower clamp
 * lo = max(fx(min_lod), fx(lod_clamp)), with implicit derivatives, a shader
 * bias and gradients; ignored with an explicit LOD. */
Test(sampling, lod_clamp_argument)
{
    tr_context *ctx = test_context();
    trt_rng rng = {0x5eed000d};
    rtex probe, tx;
    probe_texture(&probe, ctx, 64, 64); /* 7 levels: red = d / 256 */
    rtex_create(&tx, ctx, TR_FORMAT_R32G32B32A32_SFLOAT, 37, 23, 2, TR_LEVELS_ALL); /* 6 levels */
    rtex_random(&tx, &rng);
    rtex_commit(&tx);

    /* By hand, on the probe (trilinear, min_lod per case, max_lod 3 in case 3):
     * derivative in texels per pixel, lod_clamp, expected d * 256. */
    static const struct {
        float min_lod, max_lod, deriv, clamp;
        int32_t d;
    } hand[] = {
        {0.0f, 0.0f, 1.0f, 2.5f, 640},           /* lambda 0 raised to 2.5 */
        {2.0f, 0.0f, 1.0f, 1.0f, 512},           /* min_lod is the larger bound */
        {0.0f, 0.0f, 16.0f, 1.0f, 1024},         /* lambda 4 above the clamp: unchanged */
        {0.0f, 3.0f, 1.0f, 9.0f, 768},           /* max_lod wins over lod_clamp */
        {0.0f, 0.0f, 1.0f, 0.5f / 256.0f, 1},    /* fx(lod_clamp): halves up */
        {0.0f, 0.0f, 1.0f, 100.0f, 1536},        /* clamped to the chain */
        {-4.0f, 0.0f, 1.0f / 8.0f, -1.0f, 0},    /* lambda' -3 raised to -1: magnification, d 0 */
    };
    const float u = 1.0f / 64.0f;
    for (uint32_t i = 0; i < sizeof(hand) / sizeof(hand[0]); i++) {
        tr_sampler_desc d = sdesc(TR_FILTER_LINEAR, TR_FILTER_LINEAR, TR_MIPMAP_LINEAR, TR_ADDRESS_REPEAT,
                                  TR_ADDRESS_REPEAT);
        d.min_lod = hand[i].min_lod;
        d.max_lod = hand[i].max_lod;
        trref_sampler sm;
        trref_sampler_create(&sm, ctx, &d);
        float s[8], t[8], clamp[8], gx[8], gy[8], gz[8], gw[8];
        const float g = hand[i].deriv * u;
        set_quad(s, t, 0, 0.25f, 0.5f, g, 0.0f, 0.0f, g);
        set_quad(s, t, 1, 0.75f, 0.25f, g, 0.0f, 0.0f, g);
        for (uint32_t l = 0; l < 8; l++) {
            clamp[l] = hand[i].clamp;
            gx[l] = gw[l] = g;
            gy[l] = gz[l] = 0.0f;
        }
        const float v[4] = {(float)hand[i].d / 256.0f, -(float)hand[i].d / 256.0f, 0.5f, 1.0f};
        const tr_sample_args a = {.s = s, .t = t, .lod_clamp = clamp};
        sample_check(&probe, &sm, &a, 8, "lod_clamp by hand, implicit");
        for (uint32_t l = 0; l < 8; l++)
            expect_lane(l, v, "lod_clamp by hand, implicit");
        const tr_sample_args b = {.s = s, .t = t, .dsdx = gx, .dtdx = gy, .dsdy = gz, .dtdy = gw, .lod_clamp = clamp};
        sample_check(&probe, &sm, &b, 8, "lod_clamp by hand, gradients");
        for (uint32_t l = 0; l < 8; l++)
            expect_lane(l, v, "lod_clamp by hand, gradients");
        tr_sampler_destroy(sm.s);
    }
    /* ignored with an explicit LOD: lod 1 stays 1 under a clamp of 5 */
    {
        const tr_sampler_desc d = sdesc(TR_FILTER_LINEAR, TR_FILTER_LINEAR, TR_MIPMAP_LINEAR, TR_ADDRESS_REPEAT,
                                        TR_ADDRESS_REPEAT);
        trref_sampler sm;
        trref_sampler_create(&sm, ctx, &d);
        float s[4] = {0.1f, 0.2f, 0.3f, 0.4f}, t[4] = {0.5f, 0.6f, 0.7f, 0.8f};
        float lod[4] = {1.0f, 1.0f, 1.0f, 1.0f}, clamp[4] = {5.0f, 5.0f, 5.0f, 5.0f};
        const tr_sample_args a = {.s = s, .t = t, .lod = lod, .lod_clamp = clamp};
        sample_check(&probe, &sm, &a, 4, "lod_clamp with an explicit LOD");
        const float v[4] = {1.0f, -1.0f, 0.5f, 1.0f};
        for (uint32_t l = 0; l < 4; l++)
            expect_lane(l, v, "lod_clamp ignored with an explicit LOD");
        tr_sampler_destroy(sm.s);
    }

    /* Random lanes against the reference: every filter and mipmap mode,
     * anisotropy, sampler clamps and bias; clamps around the LOD, fx
     * rounding ties, non-finite clamps (fx: NaN 0, +-inf at +-2^20). */
    static const cfg cfgs[] = {
        {TR_FILTER_LINEAR, TR_FILTER_LINEAR, TR_MIPMAP_LINEAR, TR_ADDRESS_REPEAT, TR_ADDRESS_REPEAT, 0, 0, 0, 0, 0},
        {TR_FILTER_NEAREST, TR_FILTER_LINEAR, TR_MIPMAP_NEAREST, TR_ADDRESS_MIRRORED_REPEAT, TR_ADDRESS_CLAMP_TO_EDGE,
         0, 0.5f, 0.75f, 4.25f, 0},
        {TR_FILTER_LINEAR, TR_FILTER_NEAREST, TR_MIPMAP_LINEAR, TR_ADDRESS_CLAMP_TO_BORDER, TR_ADDRESS_REPEAT,
         TR_BORDER_OPAQUE_WHITE, -0.75f, -2.0f, 0, 8},
        {TR_FILTER_LINEAR, TR_FILTER_LINEAR, TR_MIPMAP_LINEAR, TR_ADDRESS_REPEAT, TR_ADDRESS_MIRRORED_REPEAT, 0, 0,
         -3.0f, TR_MAX_LOD_ZERO, 16},
    };
    for (size_t c = 0; c < sizeof(cfgs) / sizeof(cfgs[0]); c++) {
        trref_sampler sm;
        make_cfg(&sm, ctx, &cfgs[c]);
        for (int batch = 0; batch < 10; batch++) {
            float s[LANES], t[LANES], bias[LANES], clamp[LANES], layer[LANES], lod[LANES];
            float gx[LANES], gy[LANES], gz[LANES], gw[LANES];
            for (uint32_t q = 0; q < LANES / 4; q++)
                set_quad(s, t, q, (float)trt_rand_range(&rng, -1.0, 2.0), (float)trt_rand_range(&rng, -1.0, 2.0),
                         rand_deriv(&rng, -9, 1), rand_deriv(&rng, -12, -2), rand_deriv(&rng, -12, -2),
                         rand_deriv(&rng, -9, 1));
            for (uint32_t l = 0; l < LANES; l++) {
                float g[4];
                rand_ellipse(&rng, 37, 23, l % 16 == 0, g);
                gx[l] = g[0];
                gy[l] = g[1];
                gz[l] = g[2];
                gw[l] = g[3];
                bias[l] = (float)trt_rand_range(&rng, -2.0, 2.0);
                layer[l] = (float)trt_rand_range(&rng, -0.5, 1.5);
                lod[l] = (float)trt_rand_range(&rng, -1.0, 6.0);
                clamp[l] = l % 4 == 1 ? ((float)(trt_rand_u32(&rng) % 2048) - 512.0f + 0.5f) / 256.0f
                                      : (float)trt_rand_range(&rng, -2.0, 7.0);
            }
            clamp[5] = NAN;
            clamp[9] = INFINITY;
            clamp[13] = -INFINITY;
            char what[96];
            snprintf(what, sizeof(what), "lod_clamp cfg %zu batch %d", c, batch);
            tr_sample_args a = {.s = s, .t = t, .layer = layer, .lod_clamp = clamp};
            if (batch % 2)
                a.bias = bias;
            if (batch >= 4 && batch < 8) {
                a.dsdx = gx;
                a.dtdx = gy;
                a.dsdy = gz;
                a.dtdy = gw;
            }
            if (batch >= 8)
                a.lod = lod;
            sample_check(&tx, &sm, &a, LANES, what);
        }
        tr_sampler_destroy(sm.s);
    }
    rtex_destroy(&tx);
    rtex_destroy(&probe);
}

Test(sampling, mip_level_boundaries)
{
    tr_context *ctx = test_context();
    rtex tx;
    probe_texture(&tx, ctx, 64, 64); /* 7 levels, q = 6 */
    const tr_sampler_desc dn = sdesc(TR_FILTER_LINEAR, TR_FILTER_LINEAR, TR_MIPMAP_NEAREST, TR_ADDRESS_REPEAT,
                                     TR_ADDRESS_REPEAT);
    const tr_sampler_desc dl = sdesc(TR_FILTER_LINEAR, TR_FILTER_LINEAR, TR_MIPMAP_LINEAR, TR_ADDRESS_REPEAT,
                                     TR_ADDRESS_REPEAT);
    trref_sampler smn, sml;
    trref_sampler_create(&smn, ctx, &dn);
    trref_sampler_create(&sml, ctx, &dl);
    /* explicit LOD, level for mipmap nearest, d for mipmap linear */
    static const struct {
        float lod;
        uint32_t level;
        int32_t d;
    } cases[] = {
        {0.5f, 0, 128},                       /* halves round down */
        {0.5f + 1.0f / 256.0f, 1, 129},
        {0.5f - 1.0f / 256.0f, 0, 127},
        {1.5f, 1, 384},
        {1.5f + 1.0f / 256.0f, 2, 385},
        {0.5f + 0.4f / 256.0f, 0, 128},       /* fx rounds to 128 */
        {0.5f + 0.5f / 256.0f, 1, 129},       /* fx: halves up to 129 */
        {5.5f, 5, 1408},
        {5.5f + 1.0f / 256.0f, 6, 1409},
        {6.0f, 6, 1536},
        {100.0f, 6, 1536},
        {0.0f, 0, 0},
        {-3.0f, 0, 0},
        {2.75f, 3, 704},
        {2.0f + 127.5f / 256.0f, 2, 640},     /* fx 639.5 -> 640; (640 + 127) >> 8 = 2 */
        {NAN, 0, 0},                          /* fx(NaN) = 0 */
        {1e30f, 6, 1536},                     /* fx clamps at 2^20 */
        {-1e30f, 0, 0},
    };
    const uint32_t n = sizeof(cases) / sizeof(cases[0]);
    float s[LANES], t[LANES], lod[LANES];
    for (uint32_t l = 0; l < n; l++) {
        s[l] = 0.3f;
        t[l] = 0.7f;
        lod[l] = cases[l].lod;
    }
    for (uint32_t l = n; l < (n + 3) / 4 * 4; l++) {
        s[l] = t[l] = lod[l] = 0.0f;
    }
    const uint32_t count = (n + 3) / 4 * 4;
    const tr_sample_args a = {.s = s, .t = t, .lod = lod};
    sample_check(&tx, &smn, &a, count, "mipmap nearest levels");
    for (uint32_t l = 0; l < n; l++) {
        const float v[4] = {(float)cases[l].level, -(float)cases[l].level, 0.5f, 1.0f};
        expect_lane(l, v, "mipmap nearest level");
    }
    sample_check(&tx, &sml, &a, count, "mipmap linear levels");
    for (uint32_t l = 0; l < n; l++) {
        const float v[4] = {(float)cases[l].d / 256.0f, -(float)cases[l].d / 256.0f, 0.5f, 1.0f};
        expect_lane(l, v, "mipmap linear d");
    }
    tr_sampler_destroy(smn.s);
    tr_sampler_destroy(sml.s);
    rtex_destroy(&tx);
}

Test(sampling, mag_min_switch)
{
    tr_context *ctx = test_context();
    trt_rng rng = {0x5eed0006};
    rtex tx;
    rtex_create(&tx, ctx, TR_FORMAT_R32G32B32A32_SFLOAT, 8, 4, 1, 1);
    rtex_random(&tx, &rng);
    rtex_commit(&tx);
    /* mag nearest, min linear: lambda 0 is magnification, 1/256 minification */
    tr_sampler_desc d = sdesc(TR_FILTER_NEAREST, TR_FILTER_LINEAR, TR_MIPMAP_NEAREST, TR_ADDRESS_REPEAT,
                              TR_ADDRESS_REPEAT);
    d.min_lod = -1.0f;
    trref_sampler sm;
    trref_sampler_create(&sm, ctx, &d);
    const float s0 = 0.3f, t0 = 0.6f; /* u = 2.4, v = 2.4: not a texel centre */
    float near[4], lin[4];
    ref_filter(&tx, &sm, 0, 0, s0, t0, false, 0.0f, near);
    ref_filter(&tx, &sm, 0, 0, s0, t0, true, 0.0f, lin);
    cr_assert(!same_float(near[0], lin[0]), "pick a coordinate where the filters differ");
    for (int c = 0; c < 4; c++) /* nearest: texel (2, 2) */
        cr_assert(same_float(near[c], rtex_dec(&tx, 0, 0, 2, 2)[c]));
    float s[8], t[8], lod[8];
    const float lods[8] = {0.0f, 1.0f / 256.0f, -1.0f / 256.0f, 0.4f / 256.0f, 0.5f / 256.0f, -0.5f / 256.0f,
                           -0.6f / 256.0f, 0.25f};
    const bool linear[8] = {false, true, false, false, true, false, false, true};
    for (int l = 0; l < 8; l++) {
        s[l] = s0;
        t[l] = t0;
        lod[l] = lods[l];
    }
    const tr_sample_args a = {.s = s, .t = t, .lod = lod};
    sample_check(&tx, &sm, &a, 8, "mag/min switch, explicit LOD");
    for (int l = 0; l < 8; l++)
        expect_lane((uint32_t)l, linear[l] ? lin : near, "mag/min switch, explicit LOD");

    /* Implicit: derivative 1 texel per pixel gives lambda 0 (magnification);
     * a sampler bias of 1/256 makes it 1 (minification). */
    float qs[4], qt[4];
    set_quad(qs, qt, 0, s0, t0, 1.0f / 8.0f, 0.0f, 0.0f, 1.0f / 4.0f);
    const tr_sample_args b = {.s = qs, .t = qt};
    sample_check(&tx, &sm, &b, 4, "mag/min switch, implicit lambda 0");
    expect_lane(0, near, "mag/min switch, implicit lambda 0");
    trref_sampler sb;
    d.lod_bias = 1.0f / 256.0f;
    trref_sampler_create(&sb, ctx, &d);
    sample_check(&tx, &sb, &b, 4, "mag/min switch, implicit lambda 1/256");
    expect_lane(0, lin, "mag/min switch, implicit lambda 1/256");
    tr_sampler_destroy(sb.s);
    tr_sampler_destroy(sm.s);
    rtex_destroy(&tx);
}

/* ==== 5. the L(r) table ============================================================================= */

/* mux, mvx with fl(fl(mux * mux) + fl(mvx * mvx)) == r: the largest mux whose
 * square is at most r, and the rest from mvx. */
static void split_square(float r, float *mux, float *mvx)
{
    float a = sqrtf(r);
    while (a * a > r)
        a = nextafterf(a, 0.0f);
    const float rest = r - a * a;
    float b = sqrtf(rest);
    for (int k = 0; k < 16 && a * a + b * b != r; k++)
        b = a * a + b * b < r ? nextafterf(b, INFINITY) : nextafterf(b, 0.0f);
    cr_assert(a * a + b * b == r, "cannot make r = %a from two squares", (double)r);
    *mux = a;
    *mvx = b;
}

/* L(r[i]) through tr_fs_query_lod on a 1x1 texture (W = H = 1, no bias):
 * quad i has dsdx = mux, dtdx = mvx, dsdy = dtdy = 0, so rx = r and
 * out[1] = L(rx) / 256.  n <= 16. */
static void library_L(const rtex *one, const float *r, uint32_t n, int32_t *L)
{
    float s[LANES], t[LANES], out[2][LANES];
    for (uint32_t i = 0; i < n; i++) {
        float a, b;
        split_square(r[i], &a, &b);
        set_quad(s, t, i, 0.0f, 0.0f, a, b, 0.0f, 0.0f);
    }
    tr_fs_query_lod(bind_block(one, NULL, 4 * n), SLOT, s, t, out);
    for (uint32_t i = 0; i < n; i++) {
        const float v = out[1][4 * i] * 256.0f;
        cr_assert(v == floorf(v) && fabsf(v) <= 65536.0f, "L(%a) = %a / 256 is not an integer", (double)r[i],
                  (double)v);
        L[i] = (int32_t)v;
    }
}

/* The smallest mantissa M with 1 + M / 2^23 >= 2^((2k - 1) / 256). */
static uint32_t threshold_mantissa(int k)
{
    return (uint32_t)ceill((exp2l((long double)(2 * k - 1) / 256.0L) - 1.0L) * 0x1p23L);
}

Test(sampling, log2_table)
{
    tr_context *ctx = test_context();
    rtex one;
    rtex_create(&one, ctx, TR_FORMAT_R8G8B8A8_UNORM, 1, 1, 1, 1);
    rtex_commit(&one);

    /* Binary search, for every k, of the smallest mantissa where L reaches
     * 128 e + k, at three exponents; 16 searches run side by side. */
    static const int exps[3] = {0, -9, 13};
    for (int ei = 0; ei < 3; ei++) {
        const int e = exps[ei];
        for (int k0 = 1; k0 <= 128; k0 += 16) {
            uint32_t lo[16], hi[16];
            for (int i = 0; i < 16; i++) {
                lo[i] = 0;          /* L < 128 e + k */
                hi[i] = 1u << 23;   /* L >= 128 e + k (that is 2^(e + 1)) */
            }
            for (int step = 0; step < 23; step++) {
                float r[16];
                int32_t L[16];
                for (int i = 0; i < 16; i++)
                    r[i] = (float)ldexp(1.0 + (double)((lo[i] + hi[i]) / 2) * 0x1p-23, e);
                library_L(&one, r, 16, L);
                for (int i = 0; i < 16; i++) {
                    const uint32_t mid = (lo[i] + hi[i]) / 2;
                    if (L[i] >= 128 * e + k0 + i)
                        hi[i] = mid;
                    else
                        lo[i] = mid;
                }
            }
            for (int i = 0; i < 16; i++) {
                const int k = k0 + i;
                cr_assert_eq(hi[i], lo[i] + 1);
                cr_assert_eq(hi[i], threshold_mantissa(k),
                             "2^%d: L reaches 128e + %d at mantissa %#x, want %#x (2^(%d/256))", e, k, hi[i],
                             threshold_mantissa(k), 2 * k - 1);
            }
        }
    }

    /* L at each threshold and just below it, at exponents from the normal
     * range's ends; the count k also checked against round(128 log2 m). */
    static const int exps2[6] = {-126, -1, 0, 1, 60, 126};
    for (int ei = 0; ei < 6; ei++) {
        const int e = exps2[ei];
        for (int k0 = 1; k0 <= 128; k0 += 8) {
            float r[16];
            int32_t L[16];
            for (int i = 0; i < 8; i++) {
                const uint32_t M = threshold_mantissa(k0 + i);
                const long double m0 = 1.0L + (long double)(M - 1) * 0x1p-23L, m1 = 1.0L + (long double)M * 0x1p-23L;
                cr_assert_eq(lroundl(128.0L * log2l(m0)), k0 + i - 1);
                cr_assert_eq(lroundl(128.0L * log2l(m1)), k0 + i);
                r[2 * i] = (float)ldexp((double)m0, e);
                r[2 * i + 1] = (float)ldexp((double)m1, e);
            }
            library_L(&one, r, 16, L);
            for (int i = 0; i < 16; i++) {
                const int32_t want = 128 * e + k0 + i / 2 - (i % 2 == 0);
                cr_assert_eq(L[i], want, "L(%a) = %d, want %d", (double)r[i], L[i], want);
                cr_assert_eq(trref_L(r[i]), want);
            }
        }
    }

    /* Powers of two over the whole range, subnormals included: L(2^e) = 128 e
     * (e odd: 2^e = 2^(e-1) + 2^(e-1)). */
    for (int e0 = -148; e0 <= 127; e0 += 16) {
        float s[LANES], t[LANES], out[2][LANES];
        uint32_t n = 0;
        for (int e = e0; e < e0 + 16 && e <= 127; e++, n++) {
            const float a = e % 2 == 0 ? ldexpf(1.0f, e / 2) : ldexpf(1.0f, (e - 1) / 2);
            const float b = e % 2 == 0 ? 0.0f : a;
            cr_assert(a * a + b * b == ldexpf(1.0f, e));
            set_quad(s, t, n, 0.0f, 0.0f, a, b, 0.0f, 0.0f);
        }
        tr_fs_query_lod(bind_block(&one, NULL, 4 * n), SLOT, s, t, out);
        for (uint32_t i = 0; i < n; i++)
            cr_assert(out[1][4 * i] == (float)(e0 + (int)i) / 2.0f, "L(2^%d) / 256 = %a", e0 + (int)i,
                      (double)out[1][4 * i]);
    }

    /* Subnormal r that are not powers of two: r = (p^2 + q^2) 2^-148. */
    {
        static const int pq[8][2] = {{1, 1}, {2, 1}, {3, 2}, {5, 7}, {11, 3}, {100, 1}, {1000, 999}, {2047, 1}};
        float s[32], t[32], out[2][LANES];
        for (int i = 0; i < 8; i++)
            set_quad(s, t, (uint32_t)i, 0.0f, 0.0f, ldexpf((float)pq[i][0], -74), ldexpf((float)pq[i][1], -74), 0.0f,
                     0.0f);
        tr_fs_query_lod(bind_block(&one, NULL, 32), SLOT, s, t, out);
        for (int i = 0; i < 8; i++) {
            const float r = (float)ldexp((double)(pq[i][0] * pq[i][0] + pq[i][1] * pq[i][1]), -148);
            const float a = s[4 * i + 1], b = t[4 * i + 1];
            cr_assert(a * a + b * b == r);
            const long double want = 128.0L * log2l((long double)r);
            cr_assert(same_float(out[1][4 * i], (float)trref_L(r) / 256.0f) &&
                          out[1][4 * i] * 256.0f == (float)lroundl(want),
                      "subnormal L(%a) / 256 = %a, want %Lg", (double)r, (double)out[1][4 * i], want / 256.0L);
        }
    }

    /* L(0) = -2^16, L(+inf) = 2^16; NaN counts as 0. */
    {
        float s[16] = {0, 0, 0, 0, 0, 0x1p64f, 0, 0x1p64f, 0, NAN, 0, NAN, 0, 1, 0, 1};
        float t[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, NAN, 0};
        float out[2][LANES];
        tr_fs_query_lod(bind_block(&one, NULL, 16), SLOT, s, t, out);
        cr_assert(out[1][0] == -256.0f, "L(0) / 256 = %g", (double)out[1][0]);
        cr_assert(out[1][4] == 256.0f, "L(inf) / 256 = %g", (double)out[1][4]);
        cr_assert(out[1][8] == -256.0f, "L(NaN) / 256 = %g", (double)out[1][8]);
        cr_assert(out[1][12] == 0.0f, "rx = 1, ry = NaN: L / 256 = %g", (double)out[1][12]);
        cr_assert(out[0][4] == 0.0f && out[0][12] == 0.0f); /* a 1-level image: d is 0 */
    }
    rtex_destroy(&one);
}

/* ==== 6. border colours ============================================================================= */

Test(sampling, border_colors)
{
    tr_context *ctx = test_context();
    trt_rng rng = {0x5eed0007};
    rtex tx, r32;
    rtex_create(&tx, ctx, TR_FORMAT_R32G32B32A32_SFLOAT, 4, 3, 1, 1);
    rtex_random(&tx, &rng);
    rtex_commit(&tx);
    rtex_create(&r32, ctx, TR_FORMAT_R32_SFLOAT, 4, 3, 1, 1);
    rtex_random(&r32, &rng);
    rtex_commit(&r32);
    for (int bc = 0; bc < 3; bc++) {
        tr_sampler_desc d = sdesc(TR_FILTER_LINEAR, TR_FILTER_LINEAR, TR_MIPMAP_NEAREST, TR_ADDRESS_CLAMP_TO_BORDER,
                                  TR_ADDRESS_CLAMP_TO_BORDER);
        d.border_color = (tr_border_color)bc;
        trref_sampler lin, near;
        trref_sampler_create(&lin, ctx, &d);
        d.mag_filter = d.min_filter = TR_FILTER_NEAREST;
        trref_sampler_create(&near, ctx, &d);
        const float *B = trref_border_rgba[bc];

        /* edges: left (half border), corner (3/4 border), right, bottom */
        float s[LANES], t[LANES], lod[LANES];
        const float es[4] = {0.0f, 0.0f, 1.0f, 0.625f}, et[4] = {0.5f, 0.0f, 0.5f, 1.0f};
        for (uint32_t l = 0; l < LANES; l++) {
            lod[l] = 0.0f;
            if (l < 4) {
                s[l] = es[l];
                t[l] = et[l];
            } else { /* random near the edges */
                s[l] = (float)trt_rand_range(&rng, -0.4, 1.4);
                t[l] = (float)trt_rand_range(&rng, -0.4, 1.4);
            }
        }
        char what[64];
        snprintf(what, sizeof(what), "bilinear border %d, RGBA32F", bc);
        const tr_sample_args a = {.s = s, .t = t, .lod = lod};
        sample_check(&tx, &lin, &a, LANES, what);
        /* by hand: power-of-two weights, so the sums are plain float sums */
        float v[4];
        for (int c = 0; c < 4; c++)
            v[c] = (B[c] + rtex_dec(&tx, 0, 0, 0, 1)[c]) * 0.5f;
        expect_lane(0, v, "left edge: half border");
        for (int c = 0; c < 4; c++)
            v[c] = ((B[c] + B[c]) + (B[c] + rtex_dec(&tx, 0, 0, 0, 0)[c])) * 0.25f;
        expect_lane(1, v, "corner: three quarters border");
        for (int c = 0; c < 4; c++)
            v[c] = (rtex_dec(&tx, 0, 0, 3, 1)[c] + B[c]) * 0.5f;
        expect_lane(2, v, "right edge: half border");
        for (int c = 0; c < 4; c++) /* s = 0.625: u = 2.5, texel 2 only; t = 1: row 2 and border */
            v[c] = (rtex_dec(&tx, 0, 0, 2, 2)[c] + B[c]) * 0.5f;
        expect_lane(3, v, "bottom edge: half border");

        /* R32_SFLOAT: the border replaces the whole RGBA, alpha included */
        snprintf(what, sizeof(what), "bilinear border %d, R32_SFLOAT", bc);
        sample_check(&r32, &lin, &a, LANES, what);
        const float T = rtex_dec(&r32, 0, 0, 0, 1)[0];
        const float w[4] = {(B[0] + T) * 0.5f, B[1] * 0.5f, B[2] * 0.5f, (B[3] + 1.0f) * 0.5f};
        expect_lane(0, w, "R32_SFLOAT left edge");
        float ns[4] = {-0.1f, 0.5f, 1.2f, 0.1f}, nt[4] = {0.5f, -2.0f, 0.5f, 0.5f}, nl[4] = {0, 0, 0, 0};
        const tr_sample_args b = {.s = ns, .t = nt, .lod = nl};
        sample_check(&r32, &near, &b, 4, "nearest border, R32_SFLOAT");
        for (uint32_t l = 0; l < 3; l++)
            expect_lane(l, B, "nearest border texel, R32_SFLOAT");
        const float in[4] = {rtex_dec(&r32, 0, 0, 0, 1)[0], 0.0f, 0.0f, 1.0f};
        expect_lane(3, in, "nearest inside, R32_SFLOAT");
        tr_sampler_destroy(lin.s);
        tr_sampler_destroy(near.s);
    }
    rtex_destroy(&r32);
    rtex_destroy(&tx);
}

/* ==== 7. sRGB ======================================================================================== */

Test(sampling, srgb_decode)
{
    tr_context *ctx = test_context();
    trt_rng rng = {0x5eed0008};
    rtex tx;
    rtex_create(&tx, ctx, TR_FORMAT_R8G8B8A8_SRGB, 256, 1, 1, 1);
    for (uint32_t x = 0; x < 256; x++) {
        uint8_t *p = rtex_raw(&tx, 0, 0, x, 0);
        p[0] = (uint8_t)x;
        p[1] = (uint8_t)(255 - x);
        p[2] = (uint8_t)(x * 7);
        p[3] = (uint8_t)x;
    }
    rtex_commit(&tx);
    const tr_sampler_desc dn = sdesc(TR_FILTER_NEAREST, TR_FILTER_NEAREST, TR_MIPMAP_NEAREST, TR_ADDRESS_REPEAT,
                                     TR_ADDRESS_REPEAT);
    trref_sampler near;
    trref_sampler_create(&near, ctx, &dn);
    for (uint32_t x0 = 0; x0 < 256; x0 += LANES) {
        float s[LANES], t[LANES], lod[LANES];
        for (uint32_t l = 0; l < LANES; l++) {
            s[l] = ((float)(x0 + l) + 0.5f) / 256.0f;
            t[l] = 0.5f;
            lod[l] = 0.0f;
        }
        const tr_sample_args a = {.s = s, .t = t, .lod = lod};
        sample_check(&tx, &near, &a, LANES, "sRGB nearest");
        for (uint32_t l = 0; l < LANES; l++) {
            const uint32_t c = x0 + l;
            /* the formula in double, rounded once to float */
            const double v[3] = {c / 255.0, (255 - c) / 255.0, ((c * 7) & 255) / 255.0};
            float want[4];
            for (int k = 0; k < 3; k++)
                want[k] = (float)(v[k] < 0.04045 ? v[k] / 12.92 : pow((v[k] + 0.055) / 1.055, 2.4));
            want[3] = (float)c / 255.0f;
            expect_lane(l, want, "sRGB decode");
        }
    }
    /* bilinear filters the decoded (linear) values */
    const tr_sampler_desc dl = sdesc(TR_FILTER_LINEAR, TR_FILTER_LINEAR, TR_MIPMAP_NEAREST, TR_ADDRESS_REPEAT,
                                     TR_ADDRESS_MIRRORED_REPEAT);
    trref_sampler lin;
    trref_sampler_create(&lin, ctx, &dl);
    float s[LANES], t[LANES], lod[LANES];
    for (uint32_t l = 0; l < LANES; l++) {
        s[l] = l == 0 ? 11.0f / 256.0f : (float)trt_rand_range(&rng, -0.5, 1.5);
        t[l] = l == 0 ? 0.5f : (float)trt_rand_range(&rng, -0.5, 1.5);
        lod[l] = 0.0f;
    }
    const tr_sample_args a = {.s = s, .t = t, .lod = lod};
    sample_check(&tx, &lin, &a, LANES, "sRGB bilinear");
    /* half way between codes 10 and 11 */
    const float half[4] = {(ref_srgb(10) + ref_srgb(11)) * 0.5f, (ref_srgb(245) + ref_srgb(244)) * 0.5f,
                           (ref_srgb(70) + ref_srgb(77)) * 0.5f, (10.0f / 255.0f + 11.0f / 255.0f) * 0.5f};
    expect_lane(0, half, "sRGB bilinear between codes 10 and 11");
    tr_sampler_destroy(near.s);
    tr_sampler_destroy(lin.s);
    rtex_destroy(&tx);
}

/* ==== 8. compare samplers ================================================================================ */

Test(sampling, compare_samplers)
{
    tr_context *ctx = test_context();
    trt_rng rng = {0x5eed0009};
    rtex tx;
    rtex_create(&tx, ctx, TR_FORMAT_D32_SFLOAT, 8, 4, 1, 1);
    rtex_random(&tx, &rng); /* multiples of 1/8 and random values in [0, 1) */
    rtex_commit(&tx);
    static const tr_compare_op ops[8] = {TR_COMPARE_NEVER,   TR_COMPARE_LESS,      TR_COMPARE_EQUAL,
                                         TR_COMPARE_LESS_OR_EQUAL, TR_COMPARE_GREATER, TR_COMPARE_NOT_EQUAL,
                                         TR_COMPARE_GREATER_OR_EQUAL, TR_COMPARE_ALWAYS};
    float s[LANES], t[LANES], lod[LANES], dref[LANES];
    for (int o = 0; o < 8; o++) {
        tr_sampler_desc d = sdesc(TR_FILTER_NEAREST, TR_FILTER_NEAREST, TR_MIPMAP_NEAREST, TR_ADDRESS_REPEAT,
                                  TR_ADDRESS_REPEAT);
        d.compare = ops[o];
        trref_sampler near, lin;
        trref_sampler_create(&near, ctx, &d);
        d.mag_filter = d.min_filter = TR_FILTER_LINEAR;
        trref_sampler_create(&lin, ctx, &d);
        char what[64];

        /* nearest at every texel centre, dref = the texel's depth and a
         * random one: (dref <op> d ? 1 : 0, 0, 0, 1) */
        for (uint32_t l = 0; l < LANES; l++) {
            const uint32_t x = l % 8, y = (l / 8) % 4;
            s[l] = ((float)x + 0.5f) / 8.0f;
            t[l] = ((float)y + 0.5f) / 4.0f;
            lod[l] = 0.0f;
            dref[l] = l < 32 ? rtex_dec(&tx, 0, 0, x, y)[0] : (float)(trt_rand_u32(&rng) % 9) / 8.0f;
        }
        snprintf(what, sizeof(what), "compare %d nearest", (int)ops[o]);
        const tr_sample_args a = {.s = s, .t = t, .lod = lod, .dref = dref};
        sample_check(&tx, &near, &a, LANES, what);
        for (uint32_t l = 0; l < LANES; l++) {
            const float dd = rtex_dec(&tx, 0, 0, l % 8, (l / 8) % 4)[0];
            const float v[4] = {trref_compare(ops[o], dref[l], dd) ? 1.0f : 0.0f, 0.0f, 0.0f, 1.0f};
            expect_lane(l, v, what);
        }

        /* bilinear at the corners between four texels: the count of passing
         * texels / 4; then random coordinates */
        for (uint32_t l = 0; l < LANES; l++) {
            const uint32_t x = l % 7, y = (l / 7) % 3;
            s[l] = (float)(x + 1) / 8.0f;
            t[l] = (float)(y + 1) / 4.0f;
            dref[l] = (float)(trt_rand_u32(&rng) % 9) / 8.0f;
        }
        snprintf(what, sizeof(what), "compare %d bilinear corners", (int)ops[o]);
        sample_check(&tx, &lin, &a, LANES, what);
        for (uint32_t l = 0; l < LANES; l++) {
            const uint32_t x = l % 7, y = (l / 7) % 3;
            int n = 0;
            for (uint32_t k = 0; k < 4; k++)
                n += trref_compare(ops[o], dref[l], rtex_dec(&tx, 0, 0, x + k % 2, y + k / 2)[0]);
            const float v[4] = {(float)n * 0.25f, 0.0f, 0.0f, 1.0f};
            expect_lane(l, v, what);
        }
        for (uint32_t l = 0; l < LANES; l++) {
            s[l] = (float)trt_rand_range(&rng, -1.0, 2.0);
            t[l] = (float)trt_rand_range(&rng, -1.0, 2.0);
            dref[l] = l % 2 ? (float)(trt_rand_u32(&rng) % 9) / 8.0f : (float)trt_rand_range(&rng, -0.1, 1.1);
        }
        snprintf(what, sizeof(what), "compare %d bilinear random", (int)ops[o]);
        sample_check(&tx, &lin, &a, LANES, what);
        tr_sampler_destroy(near.s);
        tr_sampler_destroy(lin.s);
    }

    /* border texels: the border colour's red is the depth compared */
    for (int bc = 0; bc < 3; bc++) {
        tr_sampler_desc d = sdesc(TR_FILTER_NEAREST, TR_FILTER_NEAREST, TR_MIPMAP_NEAREST, TR_ADDRESS_CLAMP_TO_BORDER,
                                  TR_ADDRESS_CLAMP_TO_BORDER);
        d.compare = TR_COMPARE_LESS_OR_EQUAL;
        d.border_color = (tr_border_color)bc;
        trref_sampler near, lin;
        trref_sampler_create(&near, ctx, &d);
        d.mag_filter = d.min_filter = TR_FILTER_LINEAR;
        trref_sampler_create(&lin, ctx, &d);
        for (uint32_t l = 0; l < 16; l++) {
            s[l] = l < 8 ? -0.5f : 0.0f;
            t[l] = l < 8 ? 0.5f : 0.125f; /* bilinear at s = 0: half border */
            lod[l] = 0.0f;
            dref[l] = (float)(l % 8) / 4.0f - 0.25f; /* -0.25 .. 1.5 */
        }
        const tr_sample_args a = {.s = s, .t = t, .lod = lod, .dref = dref};
        sample_check(&tx, &near, &a, 16, "compare border nearest");
        for (uint32_t l = 0; l < 8; l++) {
            const float v[4] = {dref[l] <= trref_border_rgba[bc][0] ? 1.0f : 0.0f, 0.0f, 0.0f, 1.0f};
            expect_lane(l, v, "compare border texel");
        }
        sample_check(&tx, &lin, &a, 16, "compare border bilinear");
        for (uint32_t l = 8; l < 16; l++) {
            const float v[4] = {((dref[l] <= trref_border_rgba[bc][0] ? 1.0f : 0.0f) +
                                 (dref[l] <= rtex_dec(&tx, 0, 0, 0, 0)[0] ? 1.0f : 0.0f)) *
                                    0.5f,
                                0.0f, 0.0f, 1.0f};
            expect_lane(l, v, "compare border, half border bilinear");
        }
        tr_sampler_destroy(near.s);
        tr_sampler_destroy(lin.s);
    }

    /* an ordinary sampler reads a depth texture as (d, 0, 0, 1) */
    const tr_sampler_desc dn = sdesc(TR_FILTER_NEAREST, TR_FILTER_LINEAR, TR_MIPMAP_NEAREST, TR_ADDRESS_REPEAT,
                                     TR_ADDRESS_REPEAT);
    trref_sampler plain;
    trref_sampler_create(&plain, ctx, &dn);
    for (uint32_t l = 0; l < 32; l++) {
        s[l] = ((float)(l % 8) + 0.5f) / 8.0f;
        t[l] = ((float)(l / 8) + 0.5f) / 4.0f;
        lod[l] = 0.0f;
    }
    const tr_sample_args a = {.s = s, .t = t, .lod = lod};
    sample_check(&tx, &plain, &a, 32, "depth texture, ordinary sampler");
    for (uint32_t l = 0; l < 32; l++) {
        const float v[4] = {rtex_dec(&tx, 0, 0, l % 8, l / 8)[0], 0.0f, 0.0f, 1.0f};
        expect_lane(l, v, "depth texture, ordinary sampler");
    }
    tr_sampler_destroy(plain.s);
    rtex_destroy(&tx);
}

/* ==== 9. anisotropic filtering ========================================================================= */

/* Gradients of a random ellipse: major length 2^[-3, 4) texels, ratio
 * 2^[0, 4.5), random direction, major along x or y; in normalised units.
 * round: a circle along the axes (rx == ry exactly, so N = 1). */
static void rand_ellipse(trt_rng *r, uint32_t W, uint32_t H, bool round, float g[4])
{
    const double th = round ? 0.0 : trt_rand_range(r, 0.0, 6.283185307179586);
    const double m = exp2(trt_rand_range(r, -3.0, 4.0)), ratio = round ? 1.0 : exp2(trt_rand_range(r, 0.0, 4.5));
    const double major[2] = {m * cos(th), m * sin(th)}, minor[2] = {-m / ratio * sin(th), m / ratio * cos(th)};
    const bool swap = trt_rand_u32(r) & 1;
    const double *x = swap ? minor : major, *y = swap ? major : minor;
    g[0] = (float)(x[0] / W);
    g[1] = (float)(x[1] / H);
    g[2] = (float)(y[0] / W);
    g[3] = (float)(y[1] / H);
}

Test(sampling, anisotropic_taps)
{
    tr_context *ctx = test_context();
    trt_rng rng = {0x5eed000a};
    rtex tx;
    rtex_create(&tx, ctx, TR_FORMAT_R32G32B32A32_SFLOAT, 32, 16, 1, TR_LEVELS_ALL); /* 6 levels */
    rtex_random(&tx, &rng);
    rtex_commit(&tx);
    static const cfg cfgs[] = {
        {TR_FILTER_LINEAR, TR_FILTER_LINEAR, TR_MIPMAP_LINEAR, TR_ADDRESS_REPEAT, TR_ADDRESS_REPEAT, 0, 0, 0, 0, 16},
        {TR_FILTER_NEAREST, TR_FILTER_LINEAR, TR_MIPMAP_LINEAR, TR_ADDRESS_MIRRORED_REPEAT, TR_ADDRESS_CLAMP_TO_BORDER,
         TR_BORDER_OPAQUE_WHITE, 0.5f, 0, 0, 16},
        {TR_FILTER_LINEAR, TR_FILTER_LINEAR, TR_MIPMAP_NEAREST, TR_ADDRESS_CLAMP_TO_EDGE, TR_ADDRESS_REPEAT, 0, 0, 0,
         3.0f, 4},
    };
    memset(ref_taps_seen, 0, sizeof(ref_taps_seen));
    for (size_t c = 0; c < sizeof(cfgs) / sizeof(cfgs[0]); c++) {
        trref_sampler sm;
        make_cfg(&sm, ctx, &cfgs[c]);
        char what[64];
        for (int batch = 0; batch < 12; batch++) {
            float s[LANES], t[LANES], gx[LANES], gy[LANES], gz[LANES], gw[LANES], bias[LANES];
            if (batch < 8) { /* explicit gradients */
                for (uint32_t l = 0; l < LANES; l++) {
                    float g[4];
                    rand_ellipse(&rng, 32, 16, l % 16 == 0, g);
                    s[l] = (float)trt_rand_range(&rng, -1.0, 2.0);
                    t[l] = (float)trt_rand_range(&rng, -1.0, 2.0);
                    gx[l] = g[0];
                    gy[l] = g[1];
                    gz[l] = g[2];
                    gw[l] = g[3];
                    bias[l] = (float)trt_rand_range(&rng, -1.0, 1.0);
                }
                snprintf(what, sizeof(what), "anisotropic cfg %zu gradients", c);
                const tr_sample_args a = {
                    .s = s, .t = t, .dsdx = gx, .dtdx = gy, .dsdy = gz, .dtdy = gw, .bias = batch & 1 ? bias : NULL};
                sample_check(&tx, &sm, &a, LANES, what);
            } else { /* implicit, from quads */
                for (uint32_t q = 0; q < LANES / 4; q++) {
                    float g[4];
                    rand_ellipse(&rng, 32, 16, q % 8 == 0, g);
                    set_quad(s, t, q, (float)trt_rand_range(&rng, -1.0, 2.0), (float)trt_rand_range(&rng, -1.0, 2.0),
                             g[0], g[1], g[2], g[3]);
                    if (q % 2) { /* lane 3 off the parallelogram */
                        s[4 * q + 3] += (float)trt_rand_range(&rng, -0.5, 0.5);
                        t[4 * q + 3] += (float)trt_rand_range(&rng, -0.5, 0.5);
                    }
                }
                snprintf(what, sizeof(what), "anisotropic cfg %zu implicit", c);
                const tr_sample_args a = {.s = s, .t = t};
                sample_check(&tx, &sm, &a, LANES, what);
            }
        }
        tr_sampler_destroy(sm.s);
    }
    /* the random ellipses reached every tap count */
    for (uint32_t n = 1; n <= 16; n++)
        cr_assert(ref_taps_seen[n] > 0, "no sample with %u taps", n);

    /* By hand: explicit gradients of 4 (or 3) texels per pixel along x and
     * 1 along y: N = 4 (3) taps, lambda L(1) = 0, magnification, nearest:
     * each tap an exact texel of level 0, summed in order, divided by N. */
    tr_sampler_desc d = sdesc(TR_FILTER_NEAREST, TR_FILTER_NEAREST, TR_MIPMAP_NEAREST, TR_ADDRESS_REPEAT,
                              TR_ADDRESS_REPEAT);
    d.max_anisotropy = 16;
    trref_sampler sm;
    trref_sampler_create(&sm, ctx, &d);
    float s[4] = {0.5f, 0.5f, 0.5f, 0.5f}, t[4] = {0.25f, 0.25f, 0.25f, 0.25f};
    float gx[4], gy[4] = {0, 0, 0, 0}, gz[4] = {0, 0, 0, 0}, gw[4];
    for (int l = 0; l < 4; l++) {
        gx[l] = 4.0f / 32.0f; /* 4 texels along x, 1 along y: N = 4 */
        gw[l] = 1.0f / 16.0f;
    }
    gx[1] = gx[3] = 3.0f / 32.0f; /* N = 3 */
    const tr_sample_args a = {.s = s, .t = t, .dsdx = gx, .dtdx = gy, .dsdy = gz, .dtdy = gw};
    sample_check(&tx, &sm, &a, 4, "anisotropic by hand");
    /* N = 4: o = -3/10, -1/10, 1/10, 3/10 of 4 texels: u = 16 + 4 o = 14.8, 15.6, 16.4, 17.2 */
    /* N = 3: o = -1/4, 0, 1/4 of 3 texels: u = 15.25, 16, 16.75 */
    static const uint32_t x4[4] = {14, 15, 16, 17}, x3[3] = {15, 16, 16};
    for (uint32_t l = 0; l < 2; l++) {
        float v[4];
        for (int c = 0; c < 4; c++) {
            if (l == 0)
                v[c] = (((rtex_dec(&tx, 0, 0, x4[0], 4)[c] + rtex_dec(&tx, 0, 0, x4[1], 4)[c]) +
                         rtex_dec(&tx, 0, 0, x4[2], 4)[c]) +
                        rtex_dec(&tx, 0, 0, x4[3], 4)[c]) /
                       4.0f;
            else
                v[c] = ((rtex_dec(&tx, 0, 0, x3[0], 4)[c] + rtex_dec(&tx, 0, 0, x3[1], 4)[c]) +
                        rtex_dec(&tx, 0, 0, x3[2], 4)[c]) /
                       3.0f;
        }
        expect_lane(l, v, l == 0 ? "4 taps by hand" : "3 taps by hand");
    }
    tr_sampler_destroy(sm.s);
    rtex_destroy(&tx);
}

/* ==== 10. texel fetch, size, layers ======================================================================= */

static void fetch_check(const rtex *tx, uint32_t n, const int32_t *x, const int32_t *y, const int32_t *layer,
                        const int32_t *level, const char *what)
{
    float out[4][LANES];
    tr_fs_texel_fetch(bind_block(tx, NULL, n), SLOT, x, y, layer, level, out);
    const bool has_alpha = tx->fmt != TR_FORMAT_R32_SFLOAT && tx->fmt != TR_FORMAT_D32_SFLOAT;
    for (uint32_t l = 0; l < n; l++) {
        const int32_t lv = level ? level[l] : 0, ly = layer ? layer[l] : 0;
        float want[4] = {0.0f, 0.0f, 0.0f, has_alpha ? 0.0f : 1.0f};
        if (lv >= 0 && (uint32_t)lv < tx->levels && ly >= 0 && (uint32_t)ly < tx->layers && x[l] >= 0 &&
            (uint32_t)x[l] < lvl_w(tx, (uint32_t)lv) && y[l] >= 0 && (uint32_t)y[l] < lvl_h(tx, (uint32_t)lv))
            memcpy(want, rtex_dec(tx, (uint32_t)lv, (uint32_t)ly, (uint32_t)x[l], (uint32_t)y[l]), sizeof(want));
        for (int c = 0; c < 4; c++)
            cr_assert(same_float(out[c][l], want[c]), "%s: fetch (%d, %d) layer %d level %d channel %d: got %a, want %a",
                      what, x[l], y[l], ly, lv, c, (double)out[c][l], (double)want[c]);
    }
}

Test(sampling, texel_fetch)
{
    tr_context *ctx = test_context();
    trt_rng rng = {0x5eed000b};
    static const struct {
        tr_format f;
        uint32_t w, h, layers, levels;
    } texs[] = {
        {TR_FORMAT_R8G8B8A8_UNORM, 5, 3, 2, 3},       {TR_FORMAT_R8G8B8A8_SRGB, 4, 4, 1, 2},
        {TR_FORMAT_R16G16B16A16_SFLOAT, 3, 3, 2, 2},  {TR_FORMAT_R32_SFLOAT, 3, 2, 2, 2},
        {TR_FORMAT_R32G32B32A32_SFLOAT, 6, 1, 1, 3},  {TR_FORMAT_D32_SFLOAT, 3, 2, 1, 1},
    };
    for (size_t i = 0; i < sizeof(texs) / sizeof(texs[0]); i++) {
        rtex tx;
        rtex_create(&tx, ctx, texs[i].f, texs[i].w, texs[i].h, texs[i].layers, texs[i].levels);
        rtex_random(&tx, &rng);
        rtex_commit(&tx);
        int32_t x[LANES], y[LANES], layer[LANES], level[LANES];
        uint32_t n = 0;
        /* every texel of every level and layer, and the coordinates just
         * outside; then levels and layers outside the image */
        for (int32_t lv = -1; lv <= (int32_t)tx.levels; lv++)
            for (int32_t ly = -1; ly <= (int32_t)tx.layers; ly++)
                for (int32_t yy = -1; yy <= (int32_t)texs[i].h; yy++)
                    for (int32_t xx = -1; xx <= (int32_t)texs[i].w; xx++) {
                        x[n] = xx;
                        y[n] = yy;
                        layer[n] = ly;
                        level[n] = lv;
                        if (++n == LANES) {
                            fetch_check(&tx, n, x, y, layer, level, tr_format_name(texs[i].f));
                            n = 0;
                        }
                    }
        while (n % 4) {
            x[n] = y[n] = layer[n] = level[n] = 0;
            n++;
        }
        if (n)
            fetch_check(&tx, n, x, y, layer, level, tr_format_name(texs[i].f));
        /* NULL layer and level read layer 0, level 0; far-out coordinates */
        for (uint32_t l = 0; l < 16; l++) {
            x[l] = l < 8 ? (int32_t)(l % texs[i].w) : l % 2 ? INT32_MIN : INT32_MAX;
            y[l] = l < 8 ? (int32_t)(l % texs[i].h) : -1000000;
        }
        fetch_check(&tx, 16, x, y, NULL, NULL, "fetch, NULL layer and level");
        rtex_destroy(&tx);
    }

    /* an empty slot reads (0, 0, 0, 0) from every call */
    float out[4][LANES], s[4] = {0.5f, 0.5f, 0.5f, 0.5f};
    int32_t zero[4] = {0, 0, 0, 0};
    for (int c = 0; c < 4; c++)
        for (int l = 0; l < 4; l++)
            out[c][l] = 7.0f;
    tr_fs_texel_fetch(bind_block(NULL, NULL, 4), SLOT, zero, zero, NULL, NULL, out);
    for (int c = 0; c < 4; c++)
        for (int l = 0; l < 4; l++)
            cr_assert(same_float(out[c][l], 0.0f), "empty slot fetch");
    tr_fs_texture(bind_block(NULL, NULL, 4), SLOT, s, s, out);
    for (int c = 0; c < 4; c++)
        for (int l = 0; l < 4; l++)
            cr_assert(same_float(out[c][l], 0.0f), "empty slot sample");
}

Test(sampling, texture_size)
{
    tr_context *ctx = test_context();
    rtex tx;
    rtex_create(&tx, ctx, TR_FORMAT_R8G8B8A8_UNORM, 37, 23, 4, TR_LEVELS_ALL);
    rtex_commit(&tx);
    static const uint32_t ws[6] = {37, 18, 9, 4, 2, 1}, hs[6] = {23, 11, 5, 2, 1, 1};
    for (uint32_t l = 0; l < 8; l++) {
        uint32_t w = 99, h = 99, layers = 99;
        const uint32_t levels = tr_fs_texture_size(bind_block(&tx, NULL, 4), SLOT, l, &w, &h, &layers);
        cr_assert_eq(levels, 6);
        cr_assert_eq(layers, 4);
        cr_assert_eq(w, l < 6 ? ws[l] : 0, "level %u width %u", l, w);
        cr_assert_eq(h, l < 6 ? hs[l] : 0, "level %u height %u", l, h);
    }
    uint32_t w = 99, h = 99, layers = 99;
    cr_assert_eq(tr_fs_texture_size(bind_block(NULL, NULL, 4), SLOT, 0, &w, &h, &layers), 0);
    cr_assert(w == 0 && h == 0);
    rtex_destroy(&tx);
}

Test(sampling, array_layers)
{
    tr_context *ctx = test_context();
    trt_rng rng = {0x5eed000c};
    rtex tx;
    rtex_create(&tx, ctx, TR_FORMAT_R32G32B32A32_SFLOAT, 3, 2, 4, 2);
    rtex_random(&tx, &rng);
    rtex_commit(&tx);
    const tr_sampler_desc dn = sdesc(TR_FILTER_NEAREST, TR_FILTER_NEAREST, TR_MIPMAP_NEAREST, TR_ADDRESS_REPEAT,
                                     TR_ADDRESS_REPEAT);
    trref_sampler near;
    trref_sampler_create(&near, ctx, &dn);
    /* layer coordinate -> layer: nearest, ties to even, clamped to [0, 3] */
    static const struct {
        float a;
        uint32_t layer;
    } cases[] = {
        {0.0f, 0},   {0.5f, 0},  {1.5f, 2},       {2.5f, 2},  {3.5f, 3},     {-0.5f, 0},  {-0.49f, 0}, {0.49f, 0},
        {0.51f, 1},  {1.49f, 1}, {2.5001f, 3},    {-7.0f, 0}, {3.4f, 3},     {4.6f, 3},   {1e9f, 3},   {-1e9f, 0},
        {2.0f, 2},   {3.0f, 3},  {1.50001f, 2},   {0.99f, 1}, {-0.0f, 0},    {2.49f, 2},  {INFINITY, 3}, {-INFINITY, 0},
    };
    const uint32_t n = sizeof(cases) / sizeof(cases[0]);
    float s[LANES], t[LANES], lod[LANES], layer[LANES];
    for (uint32_t l = 0; l < n; l++) {
        s[l] = 0.5f; /* texel (1, 1) */
        t[l] = 0.75f;
        lod[l] = 0.0f;
        layer[l] = cases[l].a;
    }
    const tr_sample_args a = {.s = s, .t = t, .lod = lod, .layer = layer};
    sample_check(&tx, &near, &a, n, "array layer selection");
    for (uint32_t l = 0; l < n; l++)
        expect_lane(l, rtex_dec(&tx, 0, cases[l].layer, 1, 1), "array layer selection");

    /* filtering happens within the chosen layer */
    const tr_sampler_desc dl = sdesc(TR_FILTER_LINEAR, TR_FILTER_LINEAR, TR_MIPMAP_LINEAR, TR_ADDRESS_MIRRORED_REPEAT,
                                     TR_ADDRESS_CLAMP_TO_BORDER);
    trref_sampler lin;
    trref_sampler_create(&lin, ctx, &dl);
    for (int batch = 0; batch < 4; batch++) {
        for (uint32_t l = 0; l < LANES; l++) {
            s[l] = (float)trt_rand_range(&rng, -1.0, 2.0);
            t[l] = (float)trt_rand_range(&rng, -1.0, 2.0);
            lod[l] = (float)trt_rand_range(&rng, -0.5, 1.5);
            layer[l] = (float)trt_rand_range(&rng, -1.0, 4.5);
        }
        sample_check(&tx, &lin, &a, LANES, "array layers, trilinear");
    }
    tr_sampler_destroy(near.s);
    tr_sampler_destroy(lin.s);
    rtex_destroy(&tx);
}

/* ==== sampler validation ==================================================================================== */

Test(sampling, sampler_validation)
{
    tr_context *ctx = test_context();
    tr_sampler *s = NULL;
    tr_sampler_desc d;

#define BAD(field, value, code)                                                                     \
    do {                                                                                            \
        d = (tr_sampler_desc){0};                                                                   \
        d.field = value;                                                                            \
        TRT_EXPECT(tr_sampler_create(ctx, &d, &s), code);                                           \
    } while (0)
#define GOOD(field, value)                                                                          \
    do {                                                                                            \
        d = (tr_sampler_desc){0};                                                                   \
        d.field = value;                                                                            \
        TRT_OK(tr_sampler_create(ctx, &d, &s));                                                     \
        tr_sampler_destroy(s);                                                                      \
    } while (0)

    /* values outside their enums */
    BAD(mag_filter, (tr_filter)2, TR_ERROR_INVALID_ARGUMENT);
    BAD(min_filter, (tr_filter)-1, TR_ERROR_INVALID_ARGUMENT);
    BAD(mipmap_mode, (tr_mipmap_mode)2, TR_ERROR_INVALID_ARGUMENT);
    BAD(address_u, (tr_address_mode)4, TR_ERROR_INVALID_ARGUMENT);
    BAD(address_v, (tr_address_mode)-1, TR_ERROR_INVALID_ARGUMENT);
    BAD(border_color, (tr_border_color)3, TR_ERROR_INVALID_ARGUMENT);
    BAD(compare, (tr_compare_op)9, TR_ERROR_INVALID_ARGUMENT);
    /* the LOD parameters */
    BAD(lod_bias, 15.001f, TR_ERROR_INVALID_DESCRIPTOR);
    BAD(lod_bias, -16.0f, TR_ERROR_INVALID_DESCRIPTOR);
    BAD(lod_bias, NAN, TR_ERROR_INVALID_DESCRIPTOR);
    BAD(lod_bias, INFINITY, TR_ERROR_INVALID_DESCRIPTOR);
    BAD(min_lod, NAN, TR_ERROR_INVALID_DESCRIPTOR);
    BAD(min_lod, -INFINITY, TR_ERROR_INVALID_DESCRIPTOR);
    BAD(max_lod, NAN, TR_ERROR_INVALID_DESCRIPTOR);
    BAD(max_lod, INFINITY, TR_ERROR_INVALID_DESCRIPTOR);
    BAD(min_lod, 1001.0f, TR_ERROR_INVALID_DESCRIPTOR); /* max_lod 0 = TR_LOD_CLAMP_NONE = 1000 */
    BAD(max_anisotropy, 17u, TR_ERROR_LIMIT_EXCEEDED);
    BAD(max_anisotropy, 1000u, TR_ERROR_LIMIT_EXCEEDED);
    d = (tr_sampler_desc){0};
    d.min_lod = 2.0f;
    d.max_lod = 1.0f;
    TRT_EXPECT(tr_sampler_create(ctx, &d, &s), TR_ERROR_INVALID_DESCRIPTOR);
    d.min_lod = 0.5f;
    d.max_lod = TR_MAX_LOD_ZERO; /* a clamp at 0, below min_lod */
    TRT_EXPECT(tr_sampler_create(ctx, &d, &s), TR_ERROR_INVALID_DESCRIPTOR);
    /* NULL arguments */
    TRT_EXPECT(tr_sampler_create(ctx, &d, NULL), TR_ERROR_INVALID_ARGUMENT);
    TRT_EXPECT(tr_sampler_create(ctx, NULL, &s), TR_ERROR_INVALID_ARGUMENT);
    d = (tr_sampler_desc){0};
    TRT_EXPECT(tr_sampler_create(NULL, &d, &s), TR_ERROR_INVALID_ARGUMENT);

    /* the limits themselves are fine */
    GOOD(lod_bias, 15.0f);
    GOOD(lod_bias, -15.0f);
    GOOD(max_anisotropy, 16u);
    GOOD(min_lod, 1000.0f);
    GOOD(compare, TR_COMPARE_ALWAYS);
    GOOD(border_color, TR_BORDER_OPAQUE_WHITE);
    d = (tr_sampler_desc){0};
    d.min_lod = -2.0f;
    d.max_lod = TR_MAX_LOD_ZERO;
    TRT_OK(tr_sampler_create(ctx, &d, &s));
    tr_sampler_destroy(s);
    d.min_lod = d.max_lod = 3.0f;
    TRT_OK(tr_sampler_create(ctx, &d, &s));
    tr_sampler_destroy(s);
    /* defaults: max_lod 0 reads TR_LOD_CLAMP_NONE */
    d = (tr_sampler_desc){0};
    TRT_OK(tr_sampler_create(ctx, &d, &s));
    cr_assert_eq(tr_sampler_get_desc(s).max_lod, TR_LOD_CLAMP_NONE);
    tr_sampler_destroy(s);
#undef BAD
#undef GOOD
}
