/* Sampler feedback against vkd3d-proton's tests/d3d12_sampler_feedback.c
 * and the D3D12 specification's NPOT example.  Each case has the same
 * texture, regions, sampler and writes as vkd3d-proton's, written through
 * hand-built fragment blocks, and its expected decoded values written out
 * here.  vkd3d-proton accepts two MinMip behaviours (NVIDIA's and Intel's
 * "smear" of a coarse write over every LOD-0 region it covers, AMD's single
 * texel); tilerast gives the smear, and the expectations below are that.
 *
 * A D3D12 SRV can show fewer levels than the texture has; tilerast has no
 * views, so where vkd3d-proton's view has 5 of 6 levels the sampler's
 * max_lod = 4 does the same clamp. */
#include "trtest.h"

#include <math.h>
#include <string.h>

static tr_context *g_ctx;

static tr_context *ctx1(void)
{
    if (!g_ctx)
        g_ctx = trt_context(1);
    return g_ctx;
}

static void fini(void)
{
    tr_context_destroy(g_ctx); /* maps, images and samplers with it */
    g_ctx = NULL;
}

TestSuite(feedback_vkd3d, .fini = fini);

#define NONE 0xFF

/* ---- set-up ------------------------------------------------------------------------------ */

typedef struct fcase {
    tr_image *tex;
    tr_sampler *smp;
    tr_feedback_map *map;
    tr_texture_binding slots[TR_MAX_TEXTURES];
    tr_feedback_map *maps[TR_MAX_FEEDBACK_MAPS];
} fcase;

/* A texture (its texels do not matter: two bytes each keep 4096x2048 small)
 * with its map and sampler, in texture slot 0 and feedback slot 0. */
static void fcase_init(fcase *c, tr_feedback_kind kind, uint32_t w, uint32_t h, uint32_t levels, uint32_t layers,
                       uint32_t rw, uint32_t rh, const tr_sampler_desc *sd)
{
    memset(c, 0, sizeof(*c));
    const tr_image_desc id = {TR_FORMAT_R8G8_UNORM, w, h, layers, levels, 0, 0};
    TRT_OK(tr_image_create(ctx1(), &id, &c->tex));
    TRT_OK(tr_sampler_create(ctx1(), sd, &c->smp));
    const tr_feedback_map_desc fd = {kind, w, h, levels, layers, rw, rh};
    TRT_OK(tr_feedback_map_create(ctx1(), &fd, &c->map));
    c->slots[0] = (tr_texture_binding){c->tex, c->smp};
    c->maps[0] = c->map;
}

static void fcase_fini(fcase *c)
{
    tr_feedback_map_destroy(c->map);
    tr_sampler_destroy(c->smp);
    tr_image_destroy(c->tex);
}

/* One quad: lanes (ix, iy) at s[i], t[i]; `live` lanes write, the others
 * are helpers. */
static void write_quad(fcase *c, const float s[4], const float t[4], uint64_t live, const float *lod,
                       const float *bias, const float *layer)
{
    static tr_fs_block b; /* large: not on the stack */
    memset(&b, 0, sizeof(b));
    b.count = 4;
    b.live = live;
    b.textures = c->slots;
    b.feedback_maps = c->maps;
    float lod4[4], bias4[4], layer4[4];
    for (int i = 0; i < 4; i++) {
        lod4[i] = lod ? *lod : 0.0f;
        bias4[i] = bias ? *bias : 0.0f;
        layer4[i] = layer ? *layer : 0.0f;
    }
    const tr_sample_args a = {.s = s, .t = t, .lod = lod ? lod4 : NULL, .bias = bias ? bias4 : NULL,
                              .layer = layer ? layer4 : NULL};
    tr_fs_write_feedback(&b, 0, 0, &a);
}

/* WriteSamplerFeedbackLevel at (u, v) from one live lane. */
static void write_level(fcase *c, float u, float v, float lod, const float *layer)
{
    const float s[4] = {u, u, u, u}, t[4] = {v, v, v, v};
    write_quad(c, s, t, 1, &lod, NULL, layer);
}

static uint8_t g_out[64 * 64];

static const uint8_t *decode(const fcase *c, uint32_t layer, uint32_t level, uint32_t *w, uint32_t *h)
{
    TRT_OK(tr_feedback_map_decoded_size(c->map, level, w, h));
    cr_assert(*w * *h <= sizeof(g_out));
    TRT_OK(tr_feedback_map_decode(c->map, layer, level, g_out, *w));
    return g_out;
}

/* The expected decoded texels as rectangles painted in order over a
 * background; later ones win. */
typedef struct paint {
    uint32_t x0, y0, x1, y1; /* inclusive */
    uint8_t value;
} paint;

static void expect_painted(const uint8_t *got, uint32_t w, uint32_t h, uint8_t background, const paint *p, size_t n,
                           const char *what)
{
    uint32_t bad = 0;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint8_t want = background;
            for (size_t i = 0; i < n; i++)
                if (x >= p[i].x0 && x <= p[i].x1 && y >= p[i].y0 && y <= p[i].y1)
                    want = p[i].value;
            if (got[y * w + x] != want && bad++ < 8)
                cr_expect_fail("%s: texel (%u,%u) is 0x%02x, expected 0x%02x", what, x, y, got[y * w + x], want);
        }
    cr_expect_eq(bad, 0, "%s: %u texels differ", what, bad);
}

static tr_sampler_desc point(tr_address_mode mode)
{
    return (tr_sampler_desc){.address_u = mode, .address_v = mode};
}

/* ---- min_mip_level (-Level, MinMip) ---------------------------------------------------- */

/* 4096x2048, 6 levels, 128x64 regions (a 32x32 map); point, clamp; the
 * view's 5 levels as max_lod 4.  Writes at texel centres {x, y, lod, layer}. */
static const float min_mip_coords[9][4] = {
    {0, 0, 0, 0},        {3968, 0, 0, 1},       {3968, 1984, 0, 0},   {128, 64, 0, 1}, {0, 1984, 0, 0},
    {2563, 1089, 1, 1},  {2693, 1220, 2, 0},    {2823, 1602, 3, 1},   {256, 192, 5, 0},
};

static void min_mip_writes(fcase *c, bool array)
{
    for (int i = 0; i < 9; i++) {
        const float *k = min_mip_coords[i];
        /* vkd3d-proton sends layer + 0.5 for even layers: 0.5 rounds to 0 (ties to even). */
        const float layer = ((int)k[3] % 2 == 0) ? k[3] + 0.5f : k[3];
        write_level(c, (k[0] + 0.5f) / 4096.0f, (k[1] + 0.5f) / 2048.0f, k[2], array ? &layer : NULL);
    }
}

Test(feedback_vkd3d, min_mip_level)
{
    fcase c;
    tr_sampler_desc sd = point(TR_ADDRESS_CLAMP_TO_EDGE);
    sd.max_lod = 4.0f;
    fcase_init(&c, TR_FEEDBACK_MIN_MIP, 4096, 2048, 6, 1, 128, 64, &sd);
    min_mip_writes(&c, false);
    uint32_t w, h;
    const uint8_t *got = decode(&c, 0, 0, &w, &h);
    cr_assert(w == 32 && h == 32);
    /* lod 5 clamps to 4: a 16x16 block; lod 3 an 8x8 block, lod 2 4x4, lod 1 2x2. */
    static const paint want[] = {
        {0, 0, 15, 15, 4},   {16, 24, 23, 31, 3}, {20, 16, 23, 19, 2}, {20, 16, 21, 17, 1},
        {0, 0, 0, 0, 0},     {31, 0, 31, 0, 0},   {31, 31, 31, 31, 0}, {1, 1, 1, 1, 0},     {0, 31, 0, 31, 0},
    };
    expect_painted(got, w, h, NONE, want, sizeof want / sizeof want[0], "min_mip_level");
    fcase_fini(&c);
}

Test(feedback_vkd3d, min_mip_level_array)
{
    fcase c;
    tr_sampler_desc sd = point(TR_ADDRESS_CLAMP_TO_EDGE);
    sd.max_lod = 4.0f;
    fcase_init(&c, TR_FEEDBACK_MIN_MIP, 4096, 2048, 6, 2, 128, 64, &sd);
    min_mip_writes(&c, true);
    uint32_t w, h;
    static const paint layer0[] = {
        {0, 0, 15, 15, 4}, {20, 16, 23, 19, 2}, {0, 0, 0, 0, 0}, {31, 31, 31, 31, 0}, {0, 31, 0, 31, 0},
    };
    static const paint layer1[] = {
        {16, 24, 23, 31, 3}, {20, 16, 21, 17, 1}, {31, 0, 31, 0, 0}, {1, 1, 1, 1, 0},
    };
    const uint8_t *got = decode(&c, 0, 0, &w, &h);
    expect_painted(got, w, h, NONE, layer0, 5, "min_mip_level_array layer 0");
    got = decode(&c, 1, 0, &w, &h);
    expect_painted(got, w, h, NONE, layer1, 4, "min_mip_level_array layer 1");
    fcase_fini(&c);
}

/* ---- npot_min_mip_level and the specification's example ------------------------------- */

/* 65x65, 3 levels, 4x4 regions: a 17x17 map.  Level 1 (32x32) region 4
 * covers LOD-0 regions 8..10, level 2 (16x16) region 1 covers 4..8: the
 * 3x3 and 5x5 reach of non-power-of-two sizes. */
static const uint8_t npot_min_mip_want[17][17] = {
#define F NONE
    {F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F},
    {F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F},
    {F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F},
    {F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F},
    {F, F, F, F, 2, 2, 2, 2, 2, F, F, F, F, F, F, F, F},
    {F, F, F, F, 2, 2, 2, 2, 2, F, F, F, F, F, F, F, F},
    {F, F, F, F, 2, 2, 2, 2, 2, F, F, F, F, F, F, F, F},
    {F, F, F, F, 2, 2, 2, 2, 2, F, F, F, F, F, F, F, F},
    {F, F, F, F, 2, 2, 2, 2, 1, 1, 1, F, F, F, F, F, F},
    {F, F, F, F, F, F, F, F, 1, 1, 1, F, F, F, F, F, F},
    {F, F, F, F, F, F, F, F, 1, 1, 1, F, F, F, F, F, F},
    {F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F},
    {F, F, F, F, F, F, F, F, F, F, F, F, 0, F, F, F, F},
    {F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F},
    {F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F},
    {F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F},
    {F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F},
#undef F
};

Test(feedback_vkd3d, npot_min_mip_level)
{
    fcase c;
    const tr_sampler_desc sd = point(TR_ADDRESS_CLAMP_TO_EDGE);
    fcase_init(&c, TR_FEEDBACK_MIN_MIP, 65, 65, 3, 1, 4, 4, &sd);
    write_level(&c, 0.749f, 0.749f, 0, NULL);
    write_level(&c, 34.5f / 65, 34.5f / 65, 1, NULL);
    write_level(&c, 28.0f / 65, 28.0f / 65, 2, NULL);
    uint32_t w, h;
    const uint8_t *got = decode(&c, 0, 0, &w, &h);
    cr_assert(w == 17 && h == 17);
    for (uint32_t y = 0; y < 17; y++)
        for (uint32_t x = 0; x < 17; x++)
            cr_expect_eq(got[y * 17 + x], npot_min_mip_want[y][x], "(%u,%u): 0x%02x", x, y, got[y * 17 + x]);
    fcase_fini(&c);
}

Test(feedback_vkd3d, spec_npot_example)
{
    /* 15x15, 2 levels, 4x4 regions: a 4x4 map.  A level-1 (7x7) sample at
     * texel (4, 4) (u = 4.5 / 7 = 0.643) is in level-1 region (1, 1) and
     * lands in decoded texel (2, 2); tilerast's smear also shows it in the
     * other LOD-0 regions that level-1 region covers, (2..3, 2..3). */
    fcase c;
    const tr_sampler_desc sd = point(TR_ADDRESS_CLAMP_TO_EDGE);
    fcase_init(&c, TR_FEEDBACK_MIN_MIP, 15, 15, 2, 1, 4, 4, &sd);
    write_level(&c, 4.5f / 7, 4.5f / 7, 1, NULL);
    uint32_t w, h;
    static const paint want[] = {{2, 2, 3, 3, 1}};
    const uint8_t *got = decode(&c, 0, 0, &w, &h);
    expect_painted(got, w, h, NONE, want, 1, "spec example, MinMip");
    fcase_fini(&c);

    fcase_init(&c, TR_FEEDBACK_MIP_REGION_USED, 15, 15, 2, 1, 4, 4, &sd);
    write_level(&c, 4.5f / 7, 4.5f / 7, 1, NULL);
    static const paint used[] = {{1, 1, 1, 1, 0xFF}};
    got = decode(&c, 0, 1, &w, &h);
    expect_painted(got, w, h, 0, used, 1, "spec example, MipRegionUsed level 1");
    got = decode(&c, 0, 0, &w, &h);
    expect_painted(got, w, h, 0, NULL, 0, "spec example, MipRegionUsed level 0");
    fcase_fini(&c);
}

/* ---- decode_encode_min_mip and decode_encode_mip_used ---------------------------------- */

/* 80x64, 4 levels, 8x8 regions: a 10x8 map, 4 layers; layer i holds
 * reference[y * 10 + x + i]. */
static uint8_t min_mip_reference(uint32_t i)
{
    static const uint8_t head[18] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 31, 32, 0xFF, 0xFF, 0xFF};
    return i < 18 ? head[i] : 0;
}

static void encode_decode_min_mip(tr_feedback_mode mode, uint32_t limit)
{
    fcase c;
    const tr_sampler_desc sd = point(TR_ADDRESS_CLAMP_TO_EDGE);
    fcase_init(&c, TR_FEEDBACK_MIN_MIP, 80, 64, 4, 4, 8, 8, &sd);
    TRT_OK(tr_feedback_map_set_mode(c.map, mode));
    for (uint32_t layer = 0; layer < 4; layer++) {
        uint8_t in[80];
        for (uint32_t i = 0; i < 80; i++)
            in[i] = min_mip_reference(i + layer);
        TRT_OK(tr_feedback_map_encode(c.map, layer, 0, in, 10));
    }
    for (uint32_t layer = 0; layer < 4; layer++) {
        uint32_t w, h;
        const uint8_t *got = decode(&c, layer, 0, &w, &h);
        cr_assert(w == 10 && h == 8);
        for (uint32_t i = 0; i < 80; i++) {
            const uint8_t v = min_mip_reference(i + layer);
            cr_expect_eq(got[i], v < limit ? v : NONE, "mode %d layer %u texel %u: in %u out %u", (int)mode, layer, i,
                         v, got[i]);
        }
    }
    fcase_fini(&c);
}

Test(feedback_vkd3d, decode_encode_min_mip)
{
    encode_decode_min_mip(TR_FEEDBACK_EXACT, 4);         /* levels 0..3 come back */
    encode_decode_min_mip(TR_FEEDBACK_CONSERVATIVE, 15); /* vkd3d-proton: 0..14 (12 with 4 levels too) */
}

Test(feedback_vkd3d, decode_encode_mip_used)
{
    /* 128x128, 3 levels, 4 layers, 8x8 regions: 16x16, 8x8, 4x4 per layer;
     * subresource i = level + 3 * layer holds 0xFF iff (y * 16 + x + i) & 4. */
    fcase c;
    const tr_sampler_desc sd = point(TR_ADDRESS_CLAMP_TO_EDGE);
    fcase_init(&c, TR_FEEDBACK_MIP_REGION_USED, 128, 128, 3, 4, 8, 8, &sd);
    uint8_t in[16 * 16];
    for (uint32_t layer = 0; layer < 4; layer++)
        for (uint32_t l = 0; l < 3; l++) {
            for (uint32_t y = 0; y < 16; y++)
                for (uint32_t x = 0; x < 16; x++)
                    in[y * 16 + x] = ((y * 16 + x + l + 3 * layer) & 4) ? 0xFF : 0;
            TRT_OK(tr_feedback_map_encode(c.map, layer, l, in, 16)); /* row pitch 16, as vkd3d-proton's */
        }
    for (uint32_t layer = 0; layer < 4; layer++)
        for (uint32_t l = 0; l < 3; l++) {
            uint32_t w, h;
            const uint8_t *got = decode(&c, layer, l, &w, &h);
            cr_assert(w == 16u >> l && h == 16u >> l);
            for (uint32_t y = 0; y < h; y++)
                for (uint32_t x = 0; x < w; x++)
                    cr_expect_eq(got[y * w + x], ((y * 16 + x + l + 3 * layer) & 4) ? 0xFF : 0,
                                 "layer %u level %u (%u,%u)", layer, l, x, y);
        }
    fcase_fini(&c);
}

/* ---- mip_used_region_level and npot_used_region (-Level, MipRegionUsed) ---------------- */

Test(feedback_vkd3d, mip_used_region_level)
{
    /* 4096x2048, 6 levels, 128x64 regions, point, repeat: (4224, 2112)
     * wraps to (128, 64); lod 6 clamps to 5. */
    fcase c;
    const tr_sampler_desc sd = point(TR_ADDRESS_REPEAT);
    fcase_init(&c, TR_FEEDBACK_MIP_REGION_USED, 4096, 2048, 6, 1, 128, 64, &sd);
    static const float coords[9][3] = {{0, 0, 0},       {3968, 0, 0},       {3968, 1984, 0},
                                       {4224, 2112, 0}, {0, 1984, 0},       {2563, 1089, 1},
                                       {2693, 1220, 2}, {2823, 1602, 3},    {256, 192, 6}};
    for (int i = 0; i < 9; i++)
        write_level(&c, (coords[i][0] + 0.5f) / 4096.0f, (coords[i][1] + 0.5f) / 2048.0f, coords[i][2], NULL);
    static const paint level0[] = {{0, 0, 0, 0, 0xFF}, {31, 0, 31, 0, 0xFF}, {31, 31, 31, 31, 0xFF},
                                   {1, 1, 1, 1, 0xFF}, {0, 31, 0, 31, 0xFF}};
    static const paint level1[] = {{10, 8, 10, 8, 0xFF}}, level2[] = {{5, 4, 5, 4, 0xFF}};
    static const paint level3[] = {{2, 3, 2, 3, 0xFF}}, level5[] = {{0, 0, 0, 0, 0xFF}};
    const struct {
        const paint *p;
        size_t n;
    } want[6] = {{level0, 5}, {level1, 1}, {level2, 1}, {level3, 1}, {NULL, 0}, {level5, 1}};
    for (uint32_t l = 0; l < 6; l++) {
        uint32_t w, h;
        const uint8_t *got = decode(&c, 0, l, &w, &h);
        cr_expect(w == 32u >> l && h == 32u >> l, "level %u: %ux%u", l, w, h);
        char what[64];
        snprintf(what, sizeof what, "mip_used_region_level, level %u", l);
        expect_painted(got, w, h, 0, want[l].p, want[l].n, what);
    }
    fcase_fini(&c);
}

Test(feedback_vkd3d, npot_used_region)
{
    /* W = 15, 17, .., 31 by W + 1; 3 levels, 4x4 regions; point, clamp; each
     * level written at the last texel.  vkd3d-proton's table of the region
     * per level. */
    static const uint32_t want[9][3][2] = {
        {{3, 3}, {1, 1}, {0, 0}}, {{4, 4}, {1, 2}, {0, 0}}, {{4, 4}, {2, 2}, {0, 1}},
        {{5, 5}, {2, 2}, {1, 1}}, {{5, 5}, {2, 2}, {1, 1}}, {{6, 6}, {2, 3}, {1, 1}},
        {{6, 6}, {3, 3}, {1, 1}}, {{7, 7}, {3, 3}, {1, 1}}, {{7, 7}, {3, 3}, {1, 1}},
    };
    for (uint32_t k = 0; k < 9; k++) {
        const uint32_t W = 15 + 2 * k, H = W + 1;
        fcase c;
        const tr_sampler_desc sd = point(TR_ADDRESS_CLAMP_TO_EDGE);
        fcase_init(&c, TR_FEEDBACK_MIP_REGION_USED, W, H, 3, 1, 4, 4, &sd);
        for (uint32_t l = 0; l < 3; l++)
            write_level(&c, ((float)W - 0.5f) / (float)W, ((float)H - 0.5f) / (float)H, (float)l, NULL);
        for (uint32_t l = 0; l < 3; l++) {
            uint32_t w, h;
            const uint8_t *got = decode(&c, 0, l, &w, &h);
            const paint p = {want[k][l][0], want[k][l][1], want[k][l][0], want[k][l][1], 0xFF};
            char what[64];
            snprintf(what, sizeof what, "npot_used_region %ux%u level %u", W, H, l);
            expect_painted(got, w, h, 0, &p, 1, what);
        }
        fcase_fini(&c);
    }
}

/* ---- implicit_lod and implicit_lod_bias (implicit LOD, MinMip) ------------------------------ */

/* 2048x2048, 3 levels, 32x32 regions (64x64 map); point, repeat.  A 2x2
 * viewport: four live lanes, uv + (ix, iy) * g / 2048. */
static void implicit_lod(bool biased)
{
    fcase c;
    const tr_sampler_desc sd = point(TR_ADDRESS_REPEAT);
    fcase_init(&c, TR_FEEDBACK_MIN_MIP, 2048, 2048, 3, 1, 32, 32, &sd);
    static const float coords[5][4] = {{16, 16, 2, 0}, {144, 16, 0, 14}, {16, 144, 2, -1}, {144, 144, 1, 3},
                                       {272, 144, 1, 1}};
    for (int i = 0; i < 5; i++) {
        const float u = (coords[i][0] + 0.5f) / 2048.0f, v = (coords[i][1] + 0.5f) / 2048.0f;
        const float g = coords[i][2] / 2048.0f;
        float s[4], t[4];
        for (int l = 0; l < 4; l++) {
            s[l] = u + (float)(l & 1) * g;
            t[l] = v + (float)(l >> 1) * g;
        }
        write_quad(&c, s, t, 0xF, NULL, biased ? &coords[i][3] : NULL, NULL);
    }
    uint32_t w, h;
    const uint8_t *got = decode(&c, 0, 0, &w, &h);
    cr_assert(w == 64 && h == 64);
    /* Levels: (int)max(log2(g) + bias, 0), at most 2. */
    static const paint plain[] = {{0, 0, 1, 1, 1}, {4, 0, 4, 0, 0}, {0, 4, 1, 5, 1}, {4, 4, 4, 4, 0}, {8, 4, 8, 4, 0}};
    static const paint bias[] = {{0, 0, 1, 1, 1}, {4, 0, 4, 0, 0}, {0, 4, 0, 4, 0}, {4, 4, 7, 7, 2}, {8, 4, 9, 5, 1}};
    expect_painted(got, w, h, NONE, biased ? bias : plain, 5, biased ? "implicit_lod_bias" : "implicit_lod");
    fcase_fini(&c);
}

Test(feedback_vkd3d, implicit_lod)
{
    implicit_lod(false);
}

Test(feedback_vkd3d, implicit_lod_bias)
{
    implicit_lod(true);
}

/* ---- implicit_lod_aniso (conservative mode, MipRegionUsed) ------------------------------- */

/* 2048x2048, 3 levels, 64x64 regions (32x32, 16x16, 8x8); 16x anisotropic,
 * clamp; a 1x1 viewport: one live lane and three helpers, at
 * (coord + ix * grad_x + iy * grad_y) / 2048.  Counts the used regions of
 * each level, as vkd3d-proton does; its expected counts are exact for
 * vkd3d-proton itself. */
static fcase g_aniso;

static void aniso_check(float cx, float cy, float gxx, float gxy, float gyx, float gyy, float bias,
                        const uint32_t want[3])
{
    fcase *c = &g_aniso;
    TRT_OK(tr_feedback_map_clear(c->map));
    float s[4], t[4];
    for (int l = 0; l < 4; l++) {
        const float ix = (float)(l & 1), iy = (float)(l >> 1);
        s[l] = (cx + ix * gxx + iy * gyx) / 2048.0f;
        t[l] = (cy + ix * gxy + iy * gyy) / 2048.0f;
    }
    write_quad(c, s, t, 1, NULL, &bias, NULL);
    for (uint32_t l = 0; l < 3; l++) {
        uint32_t w, h, n = 0;
        const uint8_t *got = decode(c, 0, l, &w, &h);
        for (uint32_t i = 0; i < w * h; i++)
            n += got[i] != 0;
        cr_expect_eq(n, want[l], "coord (%g,%g) grads (%g,%g),(%g,%g) bias %g: level %u has %u regions, expected %u",
                     (double)cx, (double)cy, (double)gxx, (double)gxy, (double)gyx, (double)gyy, (double)bias, l, n,
                     want[l]);
    }
}

/* vkd3d-proton's CONSERVATIVE_ANISO_EXTENT: 0.5 * 2^ceil(log2 r) * 2^bias. */
static float aniso_extent(float r, float bias)
{
    return 0.5f * exp2f(ceilf(log2f(r))) * exp2f(bias);
}

Test(feedback_vkd3d, implicit_lod_aniso)
{
    const tr_sampler_desc sd = {.mag_filter = TR_FILTER_LINEAR, .min_filter = TR_FILTER_LINEAR,
                                .mipmap_mode = TR_MIPMAP_LINEAR, .address_u = TR_ADDRESS_CLAMP_TO_EDGE,
                                .address_v = TR_ADDRESS_CLAMP_TO_EDGE, .max_anisotropy = 16};
    fcase_init(&g_aniso, TR_FEEDBACK_MIP_REGION_USED, 2048, 2048, 3, 1, 64, 64, &sd);
    TRT_OK(tr_feedback_map_set_mode(g_aniso.map, TR_FEEDBACK_CONSERVATIVE));
    static const uint32_t one0[3] = {1, 0, 0}, two0[3] = {2, 0, 0}, one01[3] = {1, 1, 0};
    static const uint32_t one1[3] = {0, 1, 0}, two1[3] = {0, 2, 0};
    aniso_check(63.49f, 63.49f, 1, 0, 0, 1, 0, one0);
    aniso_check(62.49f, 62.49f, 1, 0, 0, 1, 80.0f / 256, one01); /* trilinear */
    aniso_check(63.49f, 63.49f, 2, 0, 0, 1, 0, two0);
    aniso_check(63.49f, 63.49f, 1, 0, 0, 2, 0, two0);
    aniso_check(63.49f, 63.49f, 0, 2, 1, 0, 0, two0);
    aniso_check(63.49f, 63.49f, 0, 1, 2, 0, 0, two0);
    const float D = 0.70710678f;
    const float rot[4][4] = {{D, D, -D, D}, {-D, D, -D, -D}, {D, -D, -D, -D}, {D, D, D, -D}};
    for (int i = 0; i < 4; i++) {
        aniso_check(63.49f, 63.49f, rot[i][0], rot[i][1], rot[i][2], rot[i][3], 0, one0);
        aniso_check(63.49f, 63.49f, rot[i][0], rot[i][1], rot[i][2], rot[i][3], 0.4f, one01);
    }
    /* The reach rounds up to a power of two: just inside, one region; just
     * past, two. */
    for (float r = 1.0f; r <= 16.0f; r += 0.5f) {
        aniso_check(64.0f - aniso_extent(r, 0) - 0.01f, 63.49f, r, 0, 0, 1, 0, one0);
        aniso_check(64.0f - aniso_extent(r, 0) + 0.01f, 63.49f, r, 0, 0, 1, 0, two0);
    }
    for (float r = 2.0f; r <= 8.0f; r += 1.0f) {
        aniso_check(128.0f - aniso_extent(r, 0) - 0.01f, 63.49f, r, 0, 0, 2, 0, one1);
        aniso_check(128.0f - aniso_extent(r, 0) + 0.01f, 126.98f, r, 0, 0, 2, 0, two1);
        aniso_check(128.0f - aniso_extent(r, 1) - 0.01f, 63.49f, r, 0, 0, 1, 1, one1);
        aniso_check(128.0f - aniso_extent(r, 1) + 0.01f, 126.98f, r, 0, 0, 1, 1, two1);
        aniso_check(128.0f - aniso_extent(r, -1) - 0.01f, 63.49f, r, 0, 0, 2, -1, one0);
        aniso_check(128.0f - aniso_extent(r, -1) + 0.01f, 126.98f, r, 0, 0, 2, -1, two0);
    }
    /* Not reproduced: bias 1/512 at (63.49, 63.49), where vkd3d-proton
     * expects {1, 0, 0}.  tilerast's LOD has 8 fraction bits rounded to
     * nearest with halves up (texture.h step 4): 1/512 is half a step and
     * becomes 1/256, a fraction, so the write is trilinear: {1, 1, 0}. */
    static const uint32_t half_step[3] = {1, 1, 0};
    aniso_check(63.49f, 63.49f, 1, 0, 0, 1, 1.0f / 512, half_step);
    fcase_fini(&g_aniso);
}

/* ---- grad (-Grad, exact mode), against vkd3d-proton's AMD-derived table ---------------- */

/* 16x16, 2 levels, 4x4 regions; clamp.  T(x, y, sx, sy) is texel (x, y)'s
 * centre moved by (sx, sy) / 256 texels; g = 1/16 (one texel).  Each row
 * gives tilerast's used regions per level as (x0, y0, x1, y1) boxes, which
 * vkd3d-proton's table matches except where `amd` says otherwise. */
typedef struct grad_row { /* rows numbered as vkd3d-proton's */
    float x, y, sx, sy;
    float dx, dy;              /* dsdx = dx * g, dtdy = dy * g; dtdx = dsdy = 0 */
    tr_filter mag, min;
    tr_mipmap_mode mip;
    float bias, min_lod, max_lod; /* max_lod: TR_MAX_LOD_ZERO for D3D12's MaxLOD 0 */
    int8_t box0[4], box1[4];   /* {-1} for none */
    const char *amd;           /* NULL: AMD's result is the same */
} grad_row;

static const grad_row grad_rows[] = {
    /* 1 */ {4, 4, 0, 0, 0, 0, TR_FILTER_NEAREST, TR_FILTER_NEAREST, TR_MIPMAP_NEAREST, 0, 0, TR_MAX_LOD_ZERO, {1, 1, 1, 1}, {-1}, NULL},
    /* 2: linear at a texel centre reads texels 4 and 5 (texture.h step 7); AMD marks regions 0..1 */
    {4, 4, 0, 0, 0, 0, TR_FILTER_LINEAR, TR_FILTER_LINEAR, TR_MIPMAP_LINEAR, 0, 0, TR_MAX_LOD_ZERO, {1, 1, 1, 1}, {-1}, "x0..1,y0..1"},
    /* 3 */ {4, 4, 0, 0, 1, 1, TR_FILTER_NEAREST, TR_FILTER_LINEAR, TR_MIPMAP_NEAREST, 0, 0, 1, {1, 1, 1, 1}, {-1}, NULL},
    /* 4: minified (lambda 0.14), linear at the centre: texels 4 and 5 */
    {4, 4, 0, 0, 1.1f, 1.1f, TR_FILTER_NEAREST, TR_FILTER_LINEAR, TR_MIPMAP_NEAREST, 0, 0, 1, {1, 1, 1, 1}, {-1}, "x0..1,y0..1"},
    /* 5 */ {4, 4, 0, 0, 1.1f, 1.1f, TR_FILTER_NEAREST, TR_FILTER_LINEAR, TR_MIPMAP_NEAREST, -0.5f, 0, 1, {1, 1, 1, 1}, {-1}, NULL},
    /* 6: min_lod 0.1 minifies: linear at the centre, texels 4 and 5 */
    {4, 4, 0, 0, 0, 0, TR_FILTER_NEAREST, TR_FILTER_LINEAR, TR_MIPMAP_NEAREST, 0, 0.1f, 1, {1, 1, 1, 1}, {-1}, "x0..1,y0..1"},
    /* 7 */ {4, 4, 0, 0, 1.1f, 1.1f, TR_FILTER_NEAREST, TR_FILTER_LINEAR, TR_MIPMAP_NEAREST, 0, 0, TR_MAX_LOD_ZERO, {1, 1, 1, 1}, {-1}, NULL},
    /* 8 */ {8, 8, 0, 0, 1, 1, TR_FILTER_NEAREST, TR_FILTER_NEAREST, TR_MIPMAP_NEAREST, 0.49f, 0, 1, {2, 2, 2, 2}, {-1}, NULL},
    /* 9: lambda 0.5 rounds down to level 0 (Vulkan's rule); AMD (D3D12's floor(lod + 0.5)) reads level 1 */
    {8, 8, 0, 0, 1, 1, TR_FILTER_NEAREST, TR_FILTER_NEAREST, TR_MIPMAP_NEAREST, 0.5f, 0, 1, {2, 2, 2, 2}, {-1}, "level 1 (1,1)"},
    /* 10, 11 */ {8, 8, 0, 0, 1, 1, TR_FILTER_NEAREST, TR_FILTER_NEAREST, TR_MIPMAP_LINEAR, 0, 0, 1, {2, 2, 2, 2}, {-1}, NULL},
    {8, 8, 0, 0, 1, 1, TR_FILTER_NEAREST, TR_FILTER_NEAREST, TR_MIPMAP_LINEAR, 0.25f / 256, 0, 1, {2, 2, 2, 2}, {-1}, NULL},
    /* 12: half a 1/256 step rounds up to a fraction: level 1 too; AMD truncates */
    {8, 8, 0, 0, 1, 1, TR_FILTER_NEAREST, TR_FILTER_NEAREST, TR_MIPMAP_LINEAR, 0.5f / 256, 0, 1, {2, 2, 2, 2}, {1, 1, 1, 1}, "level 0 only"},
    /* 13, 14 */ {8, 8, 0, 0, 1, 1, TR_FILTER_NEAREST, TR_FILTER_NEAREST, TR_MIPMAP_LINEAR, 1.0f / 256, 0, 1, {2, 2, 2, 2}, {1, 1, 1, 1}, NULL},
    {8, 8, 0, 0, 1, 1, TR_FILTER_NEAREST, TR_FILTER_NEAREST, TR_MIPMAP_LINEAR, 255.0f / 256, 0, 1, {2, 2, 2, 2}, {1, 1, 1, 1}, NULL},
    /* 15, 16: 255.5/256 and 255.9/256 round to 1: level 1 alone; AMD truncates to 255/256 */
    {8, 8, 0, 0, 1, 1, TR_FILTER_NEAREST, TR_FILTER_NEAREST, TR_MIPMAP_LINEAR, 255.5f / 256, 0, 1, {-1}, {1, 1, 1, 1}, "levels 0 and 1"},
    {8, 8, 0, 0, 1, 1, TR_FILTER_NEAREST, TR_FILTER_NEAREST, TR_MIPMAP_LINEAR, 255.9f / 256, 0, 1, {-1}, {1, 1, 1, 1}, "levels 0 and 1"},
    /* 17 */ {8, 8, 0, 0, 1, 1, TR_FILTER_NEAREST, TR_FILTER_NEAREST, TR_MIPMAP_LINEAR, 1.0f, 0, 1, {-1}, {1, 1, 1, 1}, NULL},
    /* 18: texels 5 and 6, region 1; AMD also marks region 0 (its box in region space) */
    {5, 5, 125, 125, 0, 0, TR_FILTER_LINEAR, TR_FILTER_LINEAR, TR_MIPMAP_LINEAR, 0, 0, TR_MAX_LOD_ZERO, {1, 1, 1, 1}, {-1}, "x0..1,y0..1"},
    /* 19, 20 */ {5, 5, 126, 126, 0, 0, TR_FILTER_LINEAR, TR_FILTER_LINEAR, TR_MIPMAP_LINEAR, 0, 0, TR_MAX_LOD_ZERO, {1, 1, 1, 1}, {-1}, NULL},
    {6, 6, -126, -126, 0, 0, TR_FILTER_LINEAR, TR_FILTER_LINEAR, TR_MIPMAP_LINEAR, 0, 0, TR_MAX_LOD_ZERO, {1, 1, 1, 1}, {-1}, NULL},
    /* 21: texels 5 and 6 again; AMD marks regions 1..2 */
    {6, 6, -125, -125, 0, 0, TR_FILTER_LINEAR, TR_FILTER_LINEAR, TR_MIPMAP_LINEAR, 0, 0, TR_MAX_LOD_ZERO, {1, 1, 1, 1}, {-1}, "x1..2,y1..2"},
};

Test(feedback_vkd3d, grad)
{
    for (size_t i = 0; i < sizeof grad_rows / sizeof grad_rows[0]; i++) {
        const grad_row *r = &grad_rows[i];
        const tr_sampler_desc sd = {.mag_filter = r->mag, .min_filter = r->min, .mipmap_mode = r->mip,
                                    .address_u = TR_ADDRESS_CLAMP_TO_EDGE, .address_v = TR_ADDRESS_CLAMP_TO_EDGE,
                                    .lod_bias = r->bias, .min_lod = r->min_lod, .max_lod = r->max_lod};
        fcase c;
        fcase_init(&c, TR_FEEDBACK_MIP_REGION_USED, 16, 16, 2, 1, 4, 4, &sd);
        const float u = (r->x + 0.5f + r->sx / 256.0f) / 16.0f, v = (r->y + 0.5f + r->sy / 256.0f) / 16.0f;
        const float s[4] = {u, u, u, u}, t[4] = {v, v, v, v};
        float dsdx[4], dtdx[4] = {0}, dsdy[4] = {0}, dtdy[4];
        for (int l = 0; l < 4; l++)
            dsdx[l] = r->dx / 16.0f, dtdy[l] = r->dy / 16.0f;
        static tr_fs_block b;
        memset(&b, 0, sizeof b);
        b.count = 4;
        b.live = 1;
        b.textures = c.slots;
        b.feedback_maps = c.maps;
        const tr_sample_args a = {.s = s, .t = t, .dsdx = dsdx, .dtdx = dtdx, .dsdy = dsdy, .dtdy = dtdy};
        tr_fs_write_feedback(&b, 0, 0, &a);
        for (uint32_t l = 0; l < 2; l++) {
            const int8_t *box = l ? r->box1 : r->box0;
            const paint p = {(uint32_t)box[0], (uint32_t)box[1], (uint32_t)box[2], (uint32_t)box[3], 0xFF};
            uint32_t w, h;
            const uint8_t *got = decode(&c, 0, l, &w, &h);
            char what[96];
            snprintf(what, sizeof what, "grad row %zu level %u (AMD: %s)", i, l, r->amd ? r->amd : "the same");
            expect_painted(got, w, h, 0, &p, box[0] < 0 ? 0 : 1, what);
        }
        fcase_fini(&c);
    }
}
