/* Texel offsets (tr_sample_args.offset, tr_fs_texel_fetch_offset): step 7
 * of include/tilerast/texture.h's "Sampling arithmetic", U = floor(u * 256)
 * + 256 * o_i at every level read, before the LINEAR shift and the
 * addressing; offsets clamped to [TR_MIN_TEXEL_OFFSET, TR_MAX_TEXEL_OFFSET].
 *
 * The library is compared bit for bit with a reference written from the
 * header (steps 1-7 from tests/common/ref_sampling.c, filtering below), and
 * with itself where an offset has a simple equivalent: an offset of one
 * texel equals a coordinate one texel further, in the texels of the level
 * read. */
#include "ref_sampling.h"
#include "trtest.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

enum { LANES = TR_FS_LANES, SLOT = 3, MAXL = 8 };

/* ==== textures and the reference ========================================================== */

typedef struct otex {
    tr_image *img;
    tr_format fmt;
    uint32_t w, h, layers, levels;
    float *dec[MAXL]; /* [layer][y][x][4], as the header decodes them */
} otex;

static tr_context *g_ctx;
static otex g_tex[4];

static void suite_fini(void)
{
    for (size_t i = 0; i < sizeof(g_tex) / sizeof(g_tex[0]); i++)
        for (uint32_t l = 0; l < MAXL; l++) {
            free(g_tex[i].dec[l]);
            g_tex[i].dec[l] = NULL;
        }
    tr_context_destroy(g_ctx);
    g_ctx = NULL;
}

TestSuite(texel_offsets, .fini = suite_fini);

static uint32_t lw(const otex *t, uint32_t l)
{
    return t->w >> l ? t->w >> l : 1u;
}

static uint32_t lh(const otex *t, uint32_t l)
{
    return t->h >> l ? t->h >> l : 1u;
}

static const float *texel_at(const otex *t, uint32_t level, uint32_t layer, uint32_t x, uint32_t y)
{
    return t->dec[level] + (((size_t)layer * lh(t, level) + y) * lw(t, level) + x) * 4;
}

/* A texture of random contents (RGBA8 UNORM, RGBA32F or D32), uploaded
 * and decoded for the reference; slot i of g_tex, released by the fini. */
static otex *make_tex(uint32_t slot, tr_format fmt, uint32_t w, uint32_t h, uint32_t layers, uint32_t levels,
                      trt_rng *r)
{
    if (!g_ctx)
        g_ctx = trt_context(1);
    otex *t = &g_tex[slot];
    for (uint32_t l = 0; l < MAXL; l++) {
        free(t->dec[l]);
        t->dec[l] = NULL;
    }
    tr_image_destroy(t->img);
    memset(t, 0, sizeof(*t));
    tr_image_desc d = {0};
    d.format = fmt;
    d.width = w;
    d.height = h;
    d.layers = layers;
    d.levels = levels;
    TRT_OK(tr_image_create(g_ctx, &d, &t->img));
    t->fmt = fmt;
    t->w = w;
    t->h = h;
    t->layers = layers;
    t->levels = tr_image_get_desc(t->img).levels;
    cr_assert(t->levels <= MAXL);
    const uint32_t tb = fmt == TR_FORMAT_R32G32B32A32_SFLOAT ? 16 : 4;
    for (uint32_t l = 0; l < t->levels; l++) {
        const size_t n = (size_t)layers * lw(t, l) * lh(t, l);
        t->dec[l] = calloc(n * 4, sizeof(float));
        uint8_t *raw = calloc(n, tb);
        cr_assert(t->dec[l] && raw);
        for (size_t i = 0; i < n; i++) {
            float *o = t->dec[l] + 4 * i;
            uint8_t *p = raw + tb * i;
            if (fmt == TR_FORMAT_R8G8B8A8_UNORM) {
                for (int c = 0; c < 4; c++) {
                    p[c] = (uint8_t)trt_rand_u32(r);
                    o[c] = (float)p[c] / 255.0f;
                }
            } else if (fmt == TR_FORMAT_R32G32B32A32_SFLOAT) {
                for (int c = 0; c < 4; c++)
                    o[c] = (float)trt_rand_range(r, -4.0, 4.0);
                memcpy(p, o, 16);
            } else { /* D32: (d, 0, 0, 1) */
                o[0] = (float)(trt_rand_u32(r) % 9) / 8.0f;
                o[1] = o[2] = 0.0f;
                o[3] = 1.0f;
                memcpy(p, o, 4);
            }
        }
        for (uint32_t a = 0; a < layers; a++) {
            const tr_subresource sub = {l, a, TR_ASPECT_DEFAULT, 0};
            TRT_OK(tr_image_upload(t->img, &sub, raw + (size_t)a * lw(t, l) * lh(t, l) * tb, 0));
        }
        free(raw);
    }
    return t;
}

/* Steps 7-10 in one level, with the texel offset (tests/common/ref_sampling.c). */
static void ref_filter(const otex *tx, const trref_sampler *sm, uint32_t level, uint32_t layer, float s, float t,
                       const int32_t off[2], bool linear, float dref, float out[4])
{
    const trref_texels view = {tx->w, tx->h, (const float *const *)tx->dec};
    trref_filter(&view, sm, level, layer, s, t, off, linear, dref, out);
}

/* tr_fs_sample as the header describes it, steps 1-12, for lanes [0, n). */
static void ref_sample(const otex *tx, const trref_sampler *sm, const tr_sample_args *a, uint32_t n,
                       float out[4][LANES])
{
    for (uint32_t l = 0; l < n; l++) {
        const trref_read r = trref_read_lane(sm, tx->w, tx->h, tx->levels, tx->layers, a, n, l);
        const float dref = a->dref ? a->dref[l] : 0.0f;
        float acc[4] = {0, 0, 0, 0};
        for (uint32_t i = 1; i <= r.lod.taps; i++) {
            float si, ti, tau[4];
            trref_tap(r.s, r.t, r.dsda, r.dtda, r.lod.taps, i, &si, &ti);
            ref_filter(tx, sm, r.plan.hi, r.layer, si, ti, r.offset, r.linear, dref, tau);
            if (r.plan.delta) {
                float lo[4];
                ref_filter(tx, sm, r.plan.lo, r.layer, si, ti, r.offset, r.linear, dref, lo);
                for (int c = 0; c < 4; c++)
                    tau[c] = ((float)(256 - r.plan.delta) * tau[c] + (float)r.plan.delta * lo[c]) * 0x1p-8f;
            }
            for (int c = 0; c < 4; c++)
                acc[c] = i == 1 ? tau[c] : acc[c] + tau[c];
        }
        for (int c = 0; c < 4; c++)
            out[c][l] = r.lod.taps > 1 ? acc[c] / (float)r.lod.taps : acc[c];
    }
}

/* ==== running the library ================================================================= */

static tr_fs_block g_blk;
static tr_texture_binding g_slots[TR_MAX_TEXTURES];

static const tr_fs_block *bind(const otex *tx, const trref_sampler *sm, uint32_t n)
{
    memset(g_slots, 0, sizeof(g_slots));
    g_slots[SLOT].image = tx ? tx->img : NULL;
    g_slots[SLOT].sampler = sm ? sm->s : NULL;
    g_blk.count = n;
    g_blk.live = n >= 64 ? ~0ull : (1ull << n) - 1;
    g_blk.textures = g_slots;
    return &g_blk;
}

static void sample(const otex *tx, const trref_sampler *sm, const tr_sample_args *a, uint32_t n, float out[4][LANES])
{
    for (int c = 0; c < 4; c++)
        for (uint32_t l = 0; l < LANES; l++)
            out[c][l] = -12345.0f;
    tr_fs_sample(bind(tx, sm, n), SLOT, a, out);
}

/* Same bits (results are never NaN here). */
static void expect_same(float got[4][LANES], float want[4][LANES], uint32_t n, const char *what)
{
    for (uint32_t l = 0; l < n; l++)
        for (int c = 0; c < 4; c++)
            cr_assert(memcmp(&got[c][l], &want[c][l], sizeof(float)) == 0,
                      "%s: lane %u channel %d: got %a (%.9g), want %a (%.9g)", what, l, c, (double)got[c][l],
                      (double)got[c][l], (double)want[c][l], (double)want[c][l]);
}

static tr_sampler_desc sdesc(tr_filter f, tr_mipmap_mode mip, tr_address_mode au, tr_address_mode av)
{
    tr_sampler_desc d = {0};
    d.mag_filter = d.min_filter = f;
    d.mipmap_mode = mip;
    d.address_u = au;
    d.address_v = av;
    return d;
}

static const tr_address_mode all_modes[4] = {TR_ADDRESS_REPEAT, TR_ADDRESS_MIRRORED_REPEAT, TR_ADDRESS_CLAMP_TO_EDGE,
                                             TR_ADDRESS_CLAMP_TO_BORDER};

/* ==== tests ================================================================================ */

/* NEAREST with offset (dx, dy) equals the sample at (s + dx / w, t + dy / h)
 * exactly, for coordinates on the 1/256-texel grid of a power-of-two
 * texture (where s * w and s + dx / w are exact), in every address mode. */
Test(texel_offsets, nearest_equals_shifted_coordinate)
{
    trt_rng rng = {0x0ff5e7001};
    const otex *tx = make_tex(0, TR_FORMAT_R8G8B8A8_UNORM, 8, 4, 1, 1, &rng);
    static const int32_t offs[][2] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}, {3, -2}, {-8, 7}, {7, -8}, {5, 5}};
    for (int m = 0; m < 4; m++)
        for (int f = 0; f < 2; f++) {
            trref_sampler sm;
            const tr_sampler_desc d = sdesc(f ? TR_FILTER_LINEAR : TR_FILTER_NEAREST, TR_MIPMAP_NEAREST,
                                            all_modes[m], all_modes[3 - m]);
            trref_sampler_create(&sm, g_ctx, &d);
            for (size_t k = 0; k < sizeof(offs) / sizeof(offs[0]); k++) {
                float s[LANES], t[LANES], s2[LANES], t2[LANES], lod[LANES];
                for (uint32_t l = 0; l < LANES; l++) {
                    /* u in [-3, 11), v in [-3, 7) on the 1/256 grid */
                    s[l] = (float)((int32_t)(trt_rand_u32(&rng) % (14 * 256)) - 3 * 256) / (256.0f * 8.0f);
                    t[l] = (float)((int32_t)(trt_rand_u32(&rng) % (10 * 256)) - 3 * 256) / (256.0f * 4.0f);
                    s2[l] = s[l] + (float)offs[k][0] / 8.0f;
                    t2[l] = t[l] + (float)offs[k][1] / 4.0f;
                    lod[l] = 0.0f;
                }
                const tr_sample_args a = {.s = s, .t = t, .lod = lod, .offset = {offs[k][0], offs[k][1]}};
                const tr_sample_args b = {.s = s2, .t = t2, .lod = lod};
                float got[4][LANES], want[4][LANES];
                sample(tx, &sm, &a, LANES, got);
                sample(tx, &sm, &b, LANES, want);
                expect_same(got, want, LANES, f ? "linear vs shifted s" : "nearest vs shifted s");
                ref_sample(tx, &sm, &a, LANES, want);
                expect_same(got, want, LANES, "vs reference");
            }
            tr_sampler_destroy(sm.s);
        }
}

/* Random samplers, coordinates, LOD modes and offsets (out-of-range ones
 * included), against the reference: nearest and linear, mipmap nearest and
 * linear, anisotropy, array layers, compare samplers, every address mode. */
Test(texel_offsets, random_against_reference)
{
    trt_rng rng = {0x0ff5e7002};
    static const tr_format fmts[3] = {TR_FORMAT_R32G32B32A32_SFLOAT, TR_FORMAT_R8G8B8A8_UNORM, TR_FORMAT_D32_SFLOAT};
    static const uint32_t anisos[4] = {1, 2, 4, 16};
    for (int iter = 0; iter < 400; iter++) {
        const tr_format fmt = fmts[iter % 3];
        const uint32_t w = 1 + trt_rand_u32(&rng) % 13, h = 1 + trt_rand_u32(&rng) % 13;
        const uint32_t layers = 1 + trt_rand_u32(&rng) % 2;
        const otex *tx = make_tex(0, fmt, w, h, layers, TR_LEVELS_ALL, &rng);
        tr_sampler_desc d = {0};
        d.mag_filter = (tr_filter)(trt_rand_u32(&rng) % 2);
        d.min_filter = (tr_filter)(trt_rand_u32(&rng) % 2);
        d.mipmap_mode = (tr_mipmap_mode)(trt_rand_u32(&rng) % 2);
        d.address_u = all_modes[trt_rand_u32(&rng) % 4];
        d.address_v = all_modes[trt_rand_u32(&rng) % 4];
        d.border_color = (tr_border_color)(trt_rand_u32(&rng) % 3);
        d.max_anisotropy = anisos[trt_rand_u32(&rng) % 4];
        if (fmt == TR_FORMAT_D32_SFLOAT)
            d.compare = (tr_compare_op)(1 + trt_rand_u32(&rng) % 8);
        trref_sampler sm;
        trref_sampler_create(&sm, g_ctx, &d);
        float s[LANES], t[LANES], layer[LANES], lod[LANES], dref[LANES], g[4][LANES];
        for (uint32_t q = 0; q < LANES; q += 4) {
            const float ds = (float)trt_rand_range(&rng, -0.6, 0.6) / (float)w;
            const float dt = (float)trt_rand_range(&rng, -0.6, 0.6) / (float)h;
            const float es = (float)trt_rand_range(&rng, -2.0, 2.0) / (float)w;
            const float et = (float)trt_rand_range(&rng, -2.0, 2.0) / (float)h;
            const float s0 = trt_rand_coord(&rng, -1.5f, 2.5f), t0 = trt_rand_coord(&rng, -1.5f, 2.5f);
            for (uint32_t l = q; l < q + 4; l++) {
                s[l] = s0 + ((l & 1) ? ds : 0.0f) + ((l & 2) ? es : 0.0f);
                t[l] = t0 + ((l & 1) ? dt : 0.0f) + ((l & 2) ? et : 0.0f);
                layer[l] = (float)trt_rand_range(&rng, -0.5, 2.5);
                lod[l] = (float)trt_rand_range(&rng, -1.0, 5.0);
                dref[l] = (float)(trt_rand_u32(&rng) % 9) / 8.0f;
                for (int k = 0; k < 4; k++)
                    g[k][l] = (float)trt_rand_range(&rng, -3.0, 3.0) / (float)(k % 2 ? h : w);
            }
        }
        const int32_t off[2] = {(int32_t)(trt_rand_u32(&rng) % 21) - 10, (int32_t)(trt_rand_u32(&rng) % 21) - 10};
        const uint32_t n = 4 * (1 + trt_rand_u32(&rng) % 16);
        const float *dr = d.compare ? dref : NULL;
        const tr_sample_args modes[3] = {
            {.s = s, .t = t, .layer = layer, .dref = dr, .offset = {off[0], off[1]}},
            {.s = s, .t = t, .layer = layer, .lod = lod, .dref = dr, .offset = {off[0], off[1]}},
            {.s = s, .t = t, .layer = layer, .dsdx = g[0], .dtdx = g[1], .dsdy = g[2], .dtdy = g[3], .dref = dr,
             .offset = {off[0], off[1]}},
        };
        for (int m = 0; m < 3; m++) {
            float got[4][LANES], want[4][LANES];
            sample(tx, &sm, &modes[m], n, got);
            ref_sample(tx, &sm, &modes[m], n, want);
            char what[160];
            snprintf(what, sizeof(what), "iter %d mode %d: %ux%u fmt %d filters %d/%d mip %d addr %d/%d aniso %u off (%d, %d)",
                     iter, m, w, h, (int)fmt, (int)d.mag_filter, (int)d.min_filter, (int)d.mipmap_mode,
                     (int)d.address_u, (int)d.address_v, d.max_anisotropy, off[0], off[1]);
            expect_same(got, want, n, what);
        }
        tr_sampler_destroy(sm.s);
    }
}

/* Hand-computed results at the edges of a 4 x 1 texture: texel 3's centre
 * with offset +1 reads texel 0 (repeat), 3 (mirrored repeat, clamp to
 * edge) or the border; texel 0's centre with offset -1 likewise; linear at
 * u = 3.75 + 1 mixes texels "4" and "5" with weights 3/4, 1/4. */
Test(texel_offsets, wrap_at_edges)
{
    if (!g_ctx)
        g_ctx = trt_context(1);
    otex *tx = &g_tex[1];
    tr_image_destroy(tx->img);
    for (uint32_t l = 0; l < MAXL; l++)
        free(tx->dec[l]);
    memset(tx, 0, sizeof(*tx));
    tr_image_desc id = {0};
    id.format = TR_FORMAT_R32G32B32A32_SFLOAT;
    id.width = 4;
    id.height = 1;
    TRT_OK(tr_image_create(g_ctx, &id, &tx->img));
    const float texels[4][4] = {{0.5f, 1, 1, 1}, {0.25f, 2, 2, 2}, {0.125f, 4, 4, 4}, {0.0625f, 8, 8, 8}};
    const tr_subresource sub = {0, 0, TR_ASPECT_DEFAULT, 0};
    TRT_OK(tr_image_upload(tx->img, &sub, texels, 0));
    tx->w = 4, tx->h = 1, tx->layers = 1, tx->levels = 1;
    free(tx->dec[0]);
    tx->dec[0] = malloc(sizeof(texels));
    cr_assert_not_null(tx->dec[0]);
    memcpy(tx->dec[0], texels, sizeof(texels));
    float s[5] = {3.5f / 4, 0.5f / 4, 3.75f / 4, 0.25f / 4, 0.5f}, t[4] = {0.5f, 0.5f, 0.5f, 0.5f};
    float lod[4] = {0, 0, 0, 0};
    /* expected texel index per lane and mode (nearest), -1: border */
    static const int want_nearest[4][2] = {
        /* offset +1 at texel 3, offset -1 at texel 0 */
        {0, 3}, /* repeat */
        {3, 0}, /* mirrored repeat */
        {3, 0}, /* clamp to edge */
        {-1, -1}, /* clamp to border (transparent black) */
    };
    for (int m = 0; m < 4; m++) {
        trref_sampler sm;
        tr_sampler_desc d = sdesc(TR_FILTER_NEAREST, TR_MIPMAP_NEAREST, all_modes[m], TR_ADDRESS_CLAMP_TO_EDGE);
        trref_sampler_create(&sm, g_ctx, &d);
        float got[4][LANES];
        const tr_sample_args plus = {.s = s, .t = t, .lod = lod, .offset = {1, 0}};
        const tr_sample_args minus = {.s = s + 1, .t = t, .lod = lod, .offset = {-1, 0}};
        for (int k = 0; k < 2; k++) {
            sample(tx, &sm, k ? &minus : &plus, 4, got);
            const int i = want_nearest[m][k];
            for (int c = 0; c < 4; c++) {
                const float want = i < 0 ? 0.0f : texels[i][c];
                cr_assert(got[c][0] == want, "mode %d offset %s: channel %d got %g want %g", m, k ? "-1" : "+1", c,
                          (double)got[c][0], (double)want);
            }
        }
        tr_sampler_destroy(sm.s);

        /* linear at u = 3.75 + 1 (lane 2): U' = 4.25 * 256: i0 = 4, a = 64 */
        d = sdesc(TR_FILTER_LINEAR, TR_MIPMAP_NEAREST, all_modes[m], TR_ADDRESS_CLAMP_TO_EDGE);
        d.border_color = TR_BORDER_OPAQUE_WHITE;
        trref_sampler_create(&sm, g_ctx, &d);
        sample(tx, &sm, &plus, 4, got);
        static const int pair[4][2] = {{0, 1}, {3, 2}, {3, 3}, {-1, -1}};
        for (int c = 0; c < 4; c++) {
            const float a0 = pair[m][0] < 0 ? 1.0f : texels[pair[m][0]][c];
            const float a1 = pair[m][1] < 0 ? 1.0f : texels[pair[m][1]][c];
            /* v = 0.5: V' = 0, j0 = 0, b = 0: row j1 has weight 0 */
            const float w0 = 192.0f * 256.0f, w1 = 64.0f * 256.0f;
            const float want = ((w0 * a0 + w1 * a1) + (0.0f * a0 + 0.0f * a1)) * 0x1p-16f;
            cr_assert(got[c][2] == want, "linear mode %d channel %d: got %a want %a", m, c, (double)got[c][2],
                      (double)want);
        }
        float ref[4][LANES];
        ref_sample(tx, &sm, &plus, 4, ref);
        expect_same(got, ref, 4, "linear edges vs reference");
        tr_sampler_destroy(sm.s);
    }
}

/* At level l the offset counts level l's texels: with an explicit LOD the
 * result equals the sample at s + o / w_l, and mipmap linear offsets each of
 * its two levels by that level's texels. */
Test(texel_offsets, coarser_levels)
{
    trt_rng rng = {0x0ff5e7003};
    const otex *tx = make_tex(2, TR_FORMAT_R32G32B32A32_SFLOAT, 32, 16, 1, TR_LEVELS_ALL, &rng);
    for (int f = 0; f < 2; f++)
        for (uint32_t level = 0; level < tx->levels; level++) {
            trref_sampler sm;
            tr_sampler_desc d = sdesc(f ? TR_FILTER_LINEAR : TR_FILTER_NEAREST, TR_MIPMAP_NEAREST, TR_ADDRESS_REPEAT,
                                      TR_ADDRESS_REPEAT);
            trref_sampler_create(&sm, g_ctx, &d);
            const uint32_t w = lw(tx, level), h = lh(tx, level);
            float s[LANES], t[LANES], s2[LANES], t2[LANES], lod[LANES];
            const int32_t o[2] = {2, -3};
            for (uint32_t l = 0; l < LANES; l++) {
                s[l] = (float)(trt_rand_u32(&rng) % (w * 256)) / (256.0f * (float)w);
                t[l] = (float)(trt_rand_u32(&rng) % (h * 256)) / (256.0f * (float)h);
                s2[l] = s[l] + (float)o[0] / (float)w;
                t2[l] = t[l] + (float)o[1] / (float)h;
                lod[l] = (float)level;
            }
            const tr_sample_args a = {.s = s, .t = t, .lod = lod, .offset = {o[0], o[1]}};
            const tr_sample_args b = {.s = s2, .t = t2, .lod = lod};
            float got[4][LANES], want[4][LANES];
            sample(tx, &sm, &a, LANES, got);
            sample(tx, &sm, &b, LANES, want);
            expect_same(got, want, LANES, "level offset vs shifted coordinate");
            tr_sampler_destroy(sm.s);
        }

    /* mipmap linear at lod 1.5: (128 * level 1 at s + o/16 + 128 * level 2 at s + o/8) / 256 */
    trref_sampler sm, nearest;
    tr_sampler_desc d = sdesc(TR_FILTER_LINEAR, TR_MIPMAP_LINEAR, TR_ADDRESS_MIRRORED_REPEAT, TR_ADDRESS_CLAMP_TO_EDGE);
    trref_sampler_create(&sm, g_ctx, &d);
    d.mipmap_mode = TR_MIPMAP_NEAREST;
    trref_sampler_create(&nearest, g_ctx, &d);
    float s[LANES], t[LANES], s1[LANES], t1[LANES], s2[LANES], t2[LANES], lod[LANES], l1[LANES], l2[LANES];
    for (uint32_t l = 0; l < LANES; l++) {
        s[l] = (float)(trt_rand_u32(&rng) % 4096) / 4096.0f;
        t[l] = (float)(trt_rand_u32(&rng) % 4096) / 4096.0f;
        s1[l] = s[l] - 5.0f / 16.0f, t1[l] = t[l] + 1.0f / 8.0f;
        s2[l] = s[l] - 5.0f / 8.0f, t2[l] = t[l] + 1.0f / 4.0f;
        lod[l] = 1.5f, l1[l] = 1.0f, l2[l] = 2.0f;
    }
    const tr_sample_args a = {.s = s, .t = t, .lod = lod, .offset = {-5, 1}};
    const tr_sample_args b1 = {.s = s1, .t = t1, .lod = l1}, b2 = {.s = s2, .t = t2, .lod = l2};
    float got[4][LANES], hi[4][LANES], lo[4][LANES], want[4][LANES];
    sample(tx, &sm, &a, LANES, got);
    sample(tx, &nearest, &b1, LANES, hi);
    sample(tx, &nearest, &b2, LANES, lo);
    for (int c = 0; c < 4; c++)
        for (uint32_t l = 0; l < LANES; l++)
            want[c][l] = (128.0f * hi[c][l] + 128.0f * lo[c][l]) * 0x1p-8f;
    expect_same(got, want, LANES, "trilinear: each level offset in its own texels");
    ref_sample(tx, &sm, &a, LANES, want);
    expect_same(got, want, LANES, "trilinear vs reference");
    tr_sampler_destroy(sm.s);
    tr_sampler_destroy(nearest.s);
}

/* Offsets outside [-8, 7] are clamped; offset {0, 0} is the sample without
 * one (tr_fs_texture, the zeroed args of existing callers). */
Test(texel_offsets, clamping_and_zero)
{
    trt_rng rng = {0x0ff5e7004};
    const otex *tx = make_tex(0, TR_FORMAT_R8G8B8A8_UNORM, 16, 16, 1, TR_LEVELS_ALL, &rng);
    cr_assert_eq(TR_MIN_TEXEL_OFFSET, -8);
    cr_assert_eq(TR_MAX_TEXEL_OFFSET, 7);
    trref_sampler sm;
    const tr_sampler_desc d = sdesc(TR_FILTER_LINEAR, TR_MIPMAP_LINEAR, TR_ADDRESS_REPEAT, TR_ADDRESS_CLAMP_TO_BORDER);
    trref_sampler_create(&sm, g_ctx, &d);
    float s[LANES], t[LANES];
    for (uint32_t q = 0; q < LANES; q += 4) {
        const float s0 = trt_rand_coord(&rng, -1.0f, 2.0f), t0 = trt_rand_coord(&rng, -0.5f, 1.5f);
        const float dd = (float)trt_rand_range(&rng, 0.01, 0.3);
        for (uint32_t l = q; l < q + 4; l++) {
            s[l] = s0 + ((l & 1) ? dd : 0.0f);
            t[l] = t0 + ((l & 2) ? dd * 0.5f : 0.0f);
        }
    }
    static const int32_t pairs[][4] = {
        {9, -20, 7, -8}, {8, -9, 7, -8}, {INT32_MIN, INT32_MAX, -8, 7}, {1000, 3, 7, 3}, {-5, 100, -5, 7},
    };
    for (size_t k = 0; k < sizeof(pairs) / sizeof(pairs[0]); k++) {
        const tr_sample_args a = {.s = s, .t = t, .offset = {pairs[k][0], pairs[k][1]}};
        const tr_sample_args b = {.s = s, .t = t, .offset = {pairs[k][2], pairs[k][3]}};
        float got[4][LANES], want[4][LANES];
        sample(tx, &sm, &a, LANES, got);
        sample(tx, &sm, &b, LANES, want);
        expect_same(got, want, LANES, "out-of-range offset vs clamped");
        ref_sample(tx, &sm, &a, LANES, want);
        expect_same(got, want, LANES, "out-of-range offset vs reference");
    }
    const tr_sample_args z = {.s = s, .t = t, .offset = {0, 0}};
    float got[4][LANES], want[4][LANES];
    sample(tx, &sm, &z, LANES, got);
    for (int c = 0; c < 4; c++)
        for (uint32_t l = 0; l < LANES; l++)
            want[c][l] = -12345.0f;
    tr_fs_texture(bind(tx, &sm, LANES), SLOT, s, t, want);
    expect_same(got, want, LANES, "offset {0, 0} vs tr_fs_texture");
    tr_sampler_destroy(sm.s);
}

/* tr_fs_texel_fetch_offset: the offset is added to (x, y) before the bounds
 * check, in 64 bits, clamped to [-8, 7]; NULL is no offset. */
Test(texel_offsets, texel_fetch)
{
    trt_rng rng = {0x0ff5e7005};
    const otex *tx = make_tex(0, TR_FORMAT_R32G32B32A32_SFLOAT, 5, 3, 2, 3, &rng);
    static const int32_t offs[][2] = {{1, -1}, {0, 0}, {-8, 7}, {7, -8}, {3, 2}, {100, -100}, {INT32_MIN, INT32_MAX}};
    for (size_t k = 0; k < sizeof(offs) / sizeof(offs[0]); k++) {
        const int32_t ox = trref_texel_offset(offs[k][0]), oy = trref_texel_offset(offs[k][1]);
        int32_t x[LANES], y[LANES], layer[LANES], level[LANES];
        uint32_t n = 0;
        for (int32_t lv = 0; lv <= 3; lv++)
            for (int32_t yy = -9; yy <= 11; yy++)
                for (int32_t xx = -9; xx <= 13; xx++) {
                    x[n] = xx;
                    y[n] = yy;
                    level[n] = lv;
                    layer[n] = (xx + yy) & 1;
                    if (++n < LANES && !(lv == 3 && yy == 11 && xx == 13))
                        continue;
                    float got[4][LANES];
                    tr_fs_texel_fetch_offset(bind(tx, NULL, n), SLOT, x, y, layer, level, offs[k], got);
                    for (uint32_t l = 0; l < n; l++) {
                        const int64_t fx = (int64_t)x[l] + ox, fy = (int64_t)y[l] + oy;
                        float want[4] = {0, 0, 0, 0};
                        if (level[l] < 3 && fx >= 0 && fx < lw(tx, (uint32_t)level[l]) && fy >= 0 &&
                            fy < lh(tx, (uint32_t)level[l]))
                            memcpy(want, texel_at(tx, (uint32_t)level[l], (uint32_t)layer[l], (uint32_t)fx, (uint32_t)fy),
                                   sizeof(want));
                        for (int c = 0; c < 4; c++)
                            cr_assert(got[c][l] == want[c],
                                      "fetch (%d, %d) level %d offset (%d, %d) channel %d: got %g want %g", x[l], y[l],
                                      level[l], offs[k][0], offs[k][1], c, (double)got[c][l], (double)want[c]);
                    }
                    n = 0;
                }
    }
    /* no wrap-around at the ends of int32 */
    int32_t x[4] = {INT32_MAX, INT32_MIN, INT32_MAX - 3, 0}, y[4] = {0, 0, 0, INT32_MIN};
    float got[4][LANES], want[4][LANES];
    const int32_t up[2] = {7, 7}, down[2] = {-8, -8};
    tr_fs_texel_fetch_offset(bind(tx, NULL, 4), SLOT, x, y, NULL, NULL, up, got);
    for (int c = 0; c < 4; c++)
        for (int l = 0; l < 4; l++)
            cr_assert(got[c][l] == 0.0f, "INT32_MAX + 7 reads outside");
    tr_fs_texel_fetch_offset(bind(tx, NULL, 4), SLOT, x, y, NULL, NULL, down, got);
    for (int c = 0; c < 4; c++)
        for (int l = 0; l < 4; l++)
            cr_assert(got[c][l] == 0.0f, "INT32_MIN - 8 reads outside");
    /* NULL offset = tr_fs_texel_fetch */
    int32_t fx[LANES], fy[LANES];
    for (uint32_t l = 0; l < LANES; l++) {
        fx[l] = (int32_t)(trt_rand_u32(&rng) % 9) - 2;
        fy[l] = (int32_t)(trt_rand_u32(&rng) % 7) - 2;
    }
    tr_fs_texel_fetch_offset(bind(tx, NULL, LANES), SLOT, fx, fy, NULL, NULL, NULL, got);
    tr_fs_texel_fetch(bind(tx, NULL, LANES), SLOT, fx, fy, NULL, NULL, want);
    expect_same(got, want, LANES, "NULL offset vs tr_fs_texel_fetch");
}
