/* The formats of issue 20 (image.h states each conversion): R8_UNORM,
 * B8G8R8A8_UNORM / _SRGB, R16G16_SFLOAT, R16_SFLOAT, R32_UINT,
 * R32G32B32A32_UINT, A2B10G10R10_UNORM_PACK32, B10G11R11_UFLOAT_PACK32,
 * D16_UNORM and D24_UNORM_S8_UINT.  Expected values are computed here from
 * the rules, independently of the library where that is possible (integer
 * arithmetic for the UNORM depth codes, ldexp for the small floats), or
 * against an older format's tested path (the sRGB curve of
 * R8G8B8A8_SRGB). */
#include "trtest.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers ------------------------------------------------------------------------------------ */

static tr_image *image(tr_context *ctx, tr_format f, uint32_t w, uint32_t h)
{
    tr_image_desc d = {f, w, h, 1, 1, 0, 0};
    tr_image *img = NULL;
    TRT_OK(tr_image_create(ctx, &d, &img));
    return img;
}

/* Shader outputs per pixel column: colour = table[x] (bits copied). */
typedef struct table_uniforms {
    trt_uniforms base; /* first: trt_vs reads it */
    const float (*table)[4];
} table_uniforms;

static void fs_table(tr_fs_block *b)
{
    const table_uniforms *u = (const table_uniforms *)b->uniforms;
    for (uint32_t l = 0; l < b->count; l++) {
        const int x = (int)floorf(b->frag_x[l]);
        for (int c = 0; c < 4; c++)
            memcpy(&b->color[0][c][l], &u->table[x][c], 4);
    }
}

/* Draws the whole w x h image with fs_table (blend state bs, or none),
 * the clear colour given as bits in clear. */
/* The draw's message (the calls after it clear the context's: result.h). */
static char draw_message[512];

static tr_result draw_table(tr_context *ctx, tr_image *img, uint32_t w, uint32_t h, const float (*table)[4],
                            const tr_blend_state *bs, const float clear[4])
{
    tr_pipeline_desc pd = {0};
    pd.fragment_shader = fs_table;
    if (bs)
        pd.blend[0] = *bs;
    tr_pipeline *pl = trt_pipeline(ctx, &pd);
    tr_render_pass_desc rp = {0};
    rp.color_count = 1;
    rp.color[0].image = img;
    rp.color[0].load_op = TR_LOAD_OP_CLEAR;
    rp.color[0].store_op = TR_STORE_OP_STORE;
    memcpy(rp.color[0].clear_color, clear, 16);
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
    TRT_OK(tr_cmd_bind_pipeline(ctx, pl));
    trt_vertex v[6] = {
        trt_vpx(0, 0, 0.5f, w, h, NULL), trt_vpx((float)w, 0, 0.5f, w, h, NULL),
        trt_vpx((float)w, (float)h, 0.5f, w, h, NULL), trt_vpx(0, 0, 0.5f, w, h, NULL),
        trt_vpx((float)w, (float)h, 0.5f, w, h, NULL), trt_vpx(0, (float)h, 0.5f, w, h, NULL),
    };
    table_uniforms u;
    memset(&u, 0, sizeof u);
    u.base.vertices = v;
    u.table = table;
    TRT_OK(tr_cmd_set_uniforms(ctx, &u, sizeof u));
    const tr_result r = tr_cmd_draw(ctx, 6, 1, 0, 0);
    snprintf(draw_message, sizeof draw_message, "%s", tr_context_last_error(ctx));
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    tr_pipeline_destroy(pl);
    return r;
}

/* texelFetch of texels (x, y0), x = x0 .. x0 + 3, of an image (level 0). */
static void fetch4y(tr_image *img, int32_t x0, int32_t y0, float out[4][TR_FS_LANES])
{
    tr_texture_binding slots[TR_MAX_TEXTURES];
    memset(slots, 0, sizeof slots);
    slots[0].image = img;
    tr_fs_block blk;
    memset(&blk, 0, sizeof blk);
    blk.count = 4;
    blk.live = 0xf;
    blk.textures = slots;
    const int32_t x[4] = {x0, x0 + 1, x0 + 2, x0 + 3}, y[4] = {y0, y0, y0, y0};
    tr_fs_texel_fetch(&blk, 0, x, y, NULL, NULL, out);
}

static void fetch4(tr_image *img, int32_t x0, float out[4][TR_FS_LANES])
{
    fetch4y(img, x0, 0, out);
}

static uint32_t bits_of(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static float float_of(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static const float zero4[4] = {0, 0, 0, 0};

/* ---- the enum and the queries ------------------------------------------------------------------ */

Test(raster, formats_appended_and_queries)
{
    /* values appended after R8G8_UNORM: programs linked against the old ones keep working */
    cr_expect_eq(TR_FORMAT_R8G8_UNORM, 8);
    static const struct {
        tr_format f;
        const char *name;
        uint32_t texel, depth, stencil;
    } q[] = {
        {TR_FORMAT_R8_UNORM, "R8_UNORM", 1, 0, 0},
        {TR_FORMAT_B8G8R8A8_UNORM, "B8G8R8A8_UNORM", 4, 0, 0},
        {TR_FORMAT_B8G8R8A8_SRGB, "B8G8R8A8_SRGB", 4, 0, 0},
        {TR_FORMAT_R16G16_SFLOAT, "R16G16_SFLOAT", 4, 0, 0},
        {TR_FORMAT_R16_SFLOAT, "R16_SFLOAT", 2, 0, 0},
        {TR_FORMAT_R32_UINT, "R32_UINT", 4, 0, 0},
        {TR_FORMAT_R32G32B32A32_UINT, "R32G32B32A32_UINT", 16, 0, 0},
        {TR_FORMAT_A2B10G10R10_UNORM_PACK32, "A2B10G10R10_UNORM_PACK32", 4, 0, 0},
        {TR_FORMAT_B10G11R11_UFLOAT_PACK32, "B10G11R11_UFLOAT_PACK32", 4, 0, 0},
        {TR_FORMAT_D16_UNORM, "D16_UNORM", 4, 1, 0},
        {TR_FORMAT_D24_UNORM_S8_UINT, "D24_UNORM_S8_UINT", 4, 1, 1},
    };
    for (uint32_t i = 0; i < sizeof q / sizeof q[0]; i++) {
        cr_expect_eq((int)q[i].f, 9 + (int)i, "%s", q[i].name);
        cr_expect_str_eq(tr_format_name(q[i].f), q[i].name);
        cr_expect_eq(tr_format_texel_size(q[i].f, TR_ASPECT_DEFAULT), q[i].texel, "%s", q[i].name);
        cr_expect_eq(tr_format_texel_size(q[i].f, TR_ASPECT_DEPTH), q[i].depth ? 4u : 0u, "%s", q[i].name);
        cr_expect_eq(tr_format_texel_size(q[i].f, TR_ASPECT_STENCIL), q[i].stencil, "%s", q[i].name);
        cr_expect_eq(tr_format_is_depth(q[i].f), (int)q[i].depth, "%s", q[i].name);
        cr_expect_eq(tr_format_has_stencil(q[i].f), (int)q[i].stencil, "%s", q[i].name);
    }
    cr_expect_eq(TR_FORMAT_COUNT, 9 + (int)(sizeof q / sizeof q[0]));
}

/* ---- 8-bit formats: every value ---------------------------------------------------------------- */

/* Every byte value through upload -> download, the RGBA8 read-back and
 * texel fetch (the sampler's decode), for R8, B8G8R8A8_UNORM and
 * B8G8R8A8_SRGB; sRGB decodes as R8G8B8A8_SRGB does with the same bytes. */
Test(raster, eight_bit_every_value_transfers_and_decode)
{
    tr_context *ctx = trt_context(1);
    uint8_t r8[256], bgra[256 * 4], back[256 * 4], rgba8[256 * 4];
    for (int v = 0; v < 256; v++) {
        r8[v] = (uint8_t)v;
        bgra[4 * v + 0] = (uint8_t)(v * 7 + 1); /* B */
        bgra[4 * v + 1] = (uint8_t)(255 - v);   /* G */
        bgra[4 * v + 2] = (uint8_t)v;           /* R */
        bgra[4 * v + 3] = (uint8_t)(v * 13);    /* A */
    }
    /* R8 */
    tr_image *a = image(ctx, TR_FORMAT_R8_UNORM, 256, 1);
    TRT_OK(tr_image_upload(a, NULL, r8, 0));
    trt_download(a, 0, 0, TR_ASPECT_COLOR, back);
    cr_expect_arr_eq(back, r8, 256);
    TRT_OK(tr_image_read_rgba8(a, NULL, rgba8));
    for (int v = 0; v < 256; v++) {
        const uint8_t want[4] = {(uint8_t)v, 0, 0, 255};
        cr_expect_arr_eq(rgba8 + 4 * v, want, 4, "R8 read_rgba8 %d", v);
    }
    for (int x = 0; x < 256; x += 4) {
        float out[4][TR_FS_LANES];
        fetch4(a, x, out);
        for (int l = 0; l < 4; l++) {
            const float want[4] = {(float)(x + l) / 255.0f, 0.0f, 0.0f, 1.0f};
            for (int c = 0; c < 4; c++)
                cr_expect(bits_of(out[c][l]) == bits_of(want[c]), "R8 fetch %d channel %d: %a", x + l, c,
                          (double)out[c][l]);
        }
    }
    /* B8G8R8A8: bytes as stored, read back and decoded swizzled */
    for (int s = 0; s < 2; s++) {
        const tr_format f = s ? TR_FORMAT_B8G8R8A8_SRGB : TR_FORMAT_B8G8R8A8_UNORM;
        tr_image *b = image(ctx, f, 256, 1);
        TRT_OK(tr_image_upload(b, NULL, bgra, 0));
        trt_download(b, 0, 0, TR_ASPECT_COLOR, back);
        cr_expect_arr_eq(back, bgra, sizeof bgra, "%s round trip", tr_format_name(f));
        TRT_OK(tr_image_read_rgba8(b, NULL, rgba8));
        /* the same texels in R8G8B8A8 order, for the reference decode */
        uint8_t rgba[256 * 4];
        for (int v = 0; v < 256; v++) {
            rgba[4 * v + 0] = bgra[4 * v + 2];
            rgba[4 * v + 1] = bgra[4 * v + 1];
            rgba[4 * v + 2] = bgra[4 * v + 0];
            rgba[4 * v + 3] = bgra[4 * v + 3];
        }
        cr_expect_arr_eq(rgba8, rgba, sizeof rgba, "%s read_rgba8 swizzles", tr_format_name(f));
        tr_image *ref = image(ctx, s ? TR_FORMAT_R8G8B8A8_SRGB : TR_FORMAT_R8G8B8A8_UNORM, 256, 1);
        TRT_OK(tr_image_upload(ref, NULL, rgba, 0));
        for (int x = 0; x < 256; x += 4) {
            float got[4][TR_FS_LANES], want[4][TR_FS_LANES];
            fetch4(b, x, got);
            fetch4(ref, x, want);
            for (int l = 0; l < 4; l++)
                for (int c = 0; c < 4; c++) {
                    cr_expect(bits_of(got[c][l]) == bits_of(want[c][l]), "%s fetch %d channel %d: %a, want %a",
                              tr_format_name(f), x + l, c, (double)got[c][l], (double)want[c][l]);
                    if (!s) /* UNORM: c / 255.0f */
                        cr_expect(got[c][l] == (float)rgba[4 * (x + l) + c] / 255.0f);
                }
        }
    }
    tr_context_destroy(ctx);
}

/* A shader writing k / 255.0f (UNORM) or the sRGB decode of k (SRGB,
 * taken from R8G8B8A8_SRGB's sampler) stores byte k, for every k, in every
 * channel, through the reference write path and through the pass. */
Test(raster, eight_bit_every_value_shader_write)
{
    tr_context *ctx = trt_context(2);
    float (*table)[4] = malloc(256 * sizeof *table);
    cr_assert_not_null(table);
    /* channel c of column x holds code (x + 64 c) & 255 */
    uint8_t rgba[256 * 4];
    for (int x = 0; x < 256; x++)
        for (int c = 0; c < 4; c++)
            rgba[4 * x + c] = (uint8_t)((x + 64 * c) & 255);
    tr_image *srgb_ref = image(ctx, TR_FORMAT_R8G8B8A8_SRGB, 256, 1);
    TRT_OK(tr_image_upload(srgb_ref, NULL, rgba, 0));
    for (int s = 0; s < 3; s++) {
        const tr_format f = s == 0 ? TR_FORMAT_R8_UNORM : s == 1 ? TR_FORMAT_B8G8R8A8_UNORM : TR_FORMAT_B8G8R8A8_SRGB;
        for (int x = 0; x < 256; x++)
            for (int c = 0; c < 4; c++)
                table[x][c] = (float)rgba[4 * x + c] / 255.0f;
        if (f == TR_FORMAT_B8G8R8A8_SRGB)
            for (int x = 0; x < 256; x += 4) {
                float lin[4][TR_FS_LANES];
                fetch4(srgb_ref, x, lin);
                for (int l = 0; l < 4; l++)
                    for (int c = 0; c < 3; c++) /* alpha stays linear */
                        table[x + l][c] = lin[c][l];
            }
        tr_image *img = image(ctx, f, 256, 1);
        cr_expect_eq(draw_table(ctx, img, 256, 1, (const float (*)[4])table, NULL, zero4), TR_OK);
        uint8_t got[256 * 4];
        trt_download(img, 0, 0, TR_ASPECT_COLOR, got);
        for (int x = 0; x < 256; x++) {
            const uint8_t *w = rgba + 4 * x;
            if (f == TR_FORMAT_R8_UNORM) {
                cr_expect_eq(got[x], w[0], "R8 column %d: %u", x, got[x]);
            } else {
                const uint8_t want[4] = {w[2], w[1], w[0], w[3]};
                cr_expect_arr_eq(got + 4 * x, want, 4, "%s column %d: %u %u %u %u", tr_format_name(f), x,
                                 got[4 * x], got[4 * x + 1], got[4 * x + 2], got[4 * x + 3]);
            }
        }
        /* a write mask of red alone touches byte 2 of a BGRA texel only */
        if (f != TR_FORMAT_R8_UNORM) {
            tr_blend_state red = {0};
            red.write_mask = 0x1;
            const float clear[4] = {0.0f, 1.0f, 1.0f, 1.0f};
            cr_expect_eq(draw_table(ctx, img, 256, 1, (const float (*)[4])table, &red, clear), TR_OK);
            trt_download(img, 0, 0, TR_ASPECT_COLOR, got);
            for (int x = 0; x < 256; x++) {
                const uint8_t want[4] = {255, 255, rgba[4 * x], 255};
                cr_expect_arr_eq(got + 4 * x, want, 4, "%s red mask column %d", tr_format_name(f), x);
            }
        }
    }
    free(table);
    tr_context_destroy(ctx);
}

/* ---- half floats -------------------------------------------------------------------------------- */

Test(raster, half_float_edge_cases)
{
    static const struct {
        float in;
        uint16_t want;
    } c[] = {
        {0.0f, 0x0000},          {-0.0f, 0x8000},         {1.0f, 0x3c00},
        {65504.0f, 0x7bff},      /* largest finite */
        {65519.0f, 0x7bff},      /* below the tie: down */
        {65520.0f, 0x7c00},      /* the tie with 65536: to even, which is infinity */
        {1e9f, 0x7c00},          {-1e9f, 0xfc00},          {INFINITY, 0x7c00}, {-INFINITY, 0xfc00},
        {NAN, 0x7e00},           {-NAN, 0x7e00},           /* canonical quiet NaN */
        {0x1p-24f, 0x0001},      /* smallest denormal */
        {0x1p-25f, 0x0000},      /* tie between 0 and 1: even */
        {0x3p-25f, 0x0002},      /* tie between 1 and 2: even */
        {0x1p-14f, 0x0400},      /* smallest normal */
        {0x1.002p0f, 0x3c00},    /* 1 + 2^-11: tie, even */
        {0x1.006p0f, 0x3c02},    /* 1 + 3 * 2^-11: tie, even */
        {-2.5f, 0xc100},
    };
    tr_context *ctx = trt_context(1);
    tr_image *r16 = image(ctx, TR_FORMAT_R16_SFLOAT, 1, 1), *rg16 = image(ctx, TR_FORMAT_R16G16_SFLOAT, 1, 1);
    for (uint32_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        const float v[4] = {c[i].in, -c[i].in, 0.5f, 0.5f};
        uint16_t got[2];
        TRT_OK(tr_image_fill(r16, NULL, v));
        trt_download(r16, 0, 0, TR_ASPECT_COLOR, got);
        cr_expect_eq(got[0], c[i].want, "R16 %a: 0x%04x, want 0x%04x", (double)c[i].in, got[0], c[i].want);
        TRT_OK(tr_image_fill(rg16, NULL, v));
        trt_download(rg16, 0, 0, TR_ASPECT_COLOR, got);
        const uint16_t neg = (c[i].want & 0x7fff) > 0x7c00 ? c[i].want : (uint16_t)(c[i].want ^ 0x8000);
        cr_expect_eq(got[0], c[i].want, "RG16 r %a", (double)c[i].in);
        cr_expect_eq(got[1], neg, "RG16 g %a: 0x%04x, want 0x%04x", (double)-c[i].in, got[1], neg);
    }
    /* Decoding: every half through texel fetch, exactly (NaN stays NaN). */
    enum { N = 65536, AW = 256 };
    tr_image *all = image(ctx, TR_FORMAT_R16G16_SFLOAT, AW, N / 2 / AW);
    uint16_t *h = malloc(N * sizeof *h);
    cr_assert_not_null(h);
    for (uint32_t i = 0; i < N; i++)
        h[i] = (uint16_t)i;
    TRT_OK(tr_image_upload(all, NULL, h, 0));
    uint32_t bad = 0;
    for (int32_t x = 0; x < N / 2; x += 4) {
        float out[4][TR_FS_LANES];
        fetch4y(all, x % AW, x / AW, out);
        for (int l = 0; l < 4; l++)
            for (int c2 = 0; c2 < 2; c2++) {
                const uint16_t v = h[2 * (x + l) + c2];
                const int e = (v >> 10) & 31, m = v & 1023;
                double want = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(1024 + m, e - 25);
                if (v & 0x8000)
                    want = -want;
                const float got = out[c2][l];
                bad += isnan(want) ? !isnan(got) : (double)got != want || !signbit(got) != !signbit(want);
            }
        bad += out[2][0] != 0.0f || out[3][0] != 1.0f;
    }
    cr_expect_eq(bad, 0u, "%u halves decoded wrong", bad);
    free(h);
    tr_context_destroy(ctx);
}

/* ---- B10G11R11_UFLOAT ---------------------------------------------------------------------------- */

/* The value of an unsigned small float with mb mantissa bits (NaN, inf included). */
static double ufloat_ref(uint32_t v, int mb)
{
    const int e = (int)(v >> mb), m = (int)(v & ((1u << mb) - 1));
    if (e == 31)
        return m ? NAN : INFINITY;
    return e == 0 ? ldexp(m, -14 - mb) : ldexp((1 << mb) + m, e - 15 - mb);
}

Test(raster, ufloat_11_10_edge_cases)
{
    static const struct {
        float in;
        uint32_t w11, w10; /* the 11-bit (R, G) and 10-bit (B) codes */
    } c[] = {
        {0.0f, 0, 0},
        {-0.0f, 0, 0},
        {-1.0f, 0, 0},                   /* negative -> 0 */
        {-INFINITY, 0, 0},
        {INFINITY, 0x7c0, 0x3e0},        /* the inf codes */
        {NAN, 0x7c1, 0x3e1},             /* NaN codes */
        {-NAN, 0x7c1, 0x3e1},
        {1.0f, 0x3c0, 0x1e0},
        {65024.0f, 0x7bf, 0x3df},        /* 11-bit largest finite; 10-bit: 64512 + 512 is a tie -> even (65536) -> saturates */
        {64512.0f, 0x7be, 0x3df},        /* 10-bit largest finite */
        {65535.0f, 0x7bf, 0x3df},        /* above the largest finite -> the largest finite (GL) */
        {1e30f, 0x7bf, 0x3df},
        {0x1p-20f, 0x001, 0x000},        /* 11-bit smallest denormal; for 10 bits the tie between 0 and 1 -> 0 */
        {0x1p-19f, 0x002, 0x001},        /* 10-bit smallest denormal */
        {0x1p-21f, 0x000, 0x000},        /* 11-bit tie between 0 and 1: even */
        {0x3p-21f, 0x002, 0x001},        /* 11-bit tie between 1 and 2: even (2); 10 bits: 0.75 of a step -> 1 */
        {0x1p-14f, 0x040, 0x020},        /* smallest normal */
        {0x1.02p0f, 0x3c0, 0x1e0},       /* 1 + 2^-7: 11-bit tie -> even (1); 10 bits: below half a step */
        {0x1.06p0f, 0x3c2, 0x1e1},       /* 1 + 3 * 2^-7: 11-bit tie -> even (1 + 2^-5); 10 bits: 0.75 ulp -> up */
        {0x1.04p0f, 0x3c1, 0x1e0},       /* 1 + 2^-6: 11 bits exact; 10-bit tie -> even (1) */
        {0x1.0cp0f, 0x3c3, 0x1e2},       /* 1 + 3 * 2^-6: 10-bit tie -> even (1 + 2^-4) */
        {0x1.fcp0f, 0x3ff, 0x200},       /* 2 - 2^-6: 11 bits exact; 10-bit tie with 2 -> even (2, carry) */
    };
    tr_context *ctx = trt_context(1);
    tr_image *img = image(ctx, TR_FORMAT_B10G11R11_UFLOAT_PACK32, 1, 1);
    for (uint32_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        const float v[4] = {c[i].in, c[i].in, c[i].in, 0.25f};
        uint32_t got;
        TRT_OK(tr_image_fill(img, NULL, v));
        trt_download(img, 0, 0, TR_ASPECT_COLOR, &got);
        const uint32_t want = c[i].w11 | c[i].w11 << 11 | c[i].w10 << 22;
        cr_expect_eq(got, want, "%a: 0x%08x, want 0x%08x", (double)c[i].in, got, want);
    }
    /* Every code decodes exactly, and encodes back to itself (NaN codes
     * to the NaN code): 2048 R codes, G the reverse, B every 10-bit code. */
    enum { N = 2048 };
    tr_image *all = image(ctx, TR_FORMAT_B10G11R11_UFLOAT_PACK32, N, 1);
    uint32_t words[N];
    for (uint32_t i = 0; i < N; i++)
        words[i] = i | (2047u - i) << 11 | (i & 1023u) << 22;
    TRT_OK(tr_image_upload(all, NULL, words, 0));
    uint32_t bad = 0;
    for (int32_t x = 0; x < N; x += 4) {
        float out[4][TR_FS_LANES];
        fetch4(all, x, out);
        for (int l = 0; l < 4; l++) {
            const uint32_t w = words[x + l];
            const uint32_t code[3] = {w & 2047u, (w >> 11) & 2047u, w >> 22};
            for (int ch = 0; ch < 3; ch++) {
                const int mb = ch == 2 ? 5 : 6;
                const double want = ufloat_ref(code[ch], mb);
                const float got = out[ch][l];
                bad += isnan(want) ? !isnan(got) : (double)got != want;
                /* encode the decoded value back */
                float v[4] = {0, 0, 0, 1};
                v[ch] = got;
                uint32_t enc;
                TRT_OK(tr_image_fill(img, NULL, v));
                trt_download(img, 0, 0, TR_ASPECT_COLOR, &enc);
                const uint32_t shift = ch == 0 ? 0 : ch == 1 ? 11 : 22, mask = ch == 2 ? 1023u : 2047u;
                const uint32_t e = (enc >> shift) & mask;
                const uint32_t nan_code = (31u << mb) | 1u;
                bad += isnan(want) ? e != nan_code : e != code[ch];
            }
            bad += out[3][l] != 1.0f;
        }
    }
    cr_expect_eq(bad, 0u, "%u codes decode or encode wrong", bad);
    /* read_rgba8: decoded, clamped, UNORM8 */
    const float v[4] = {0.5f, 2.0f, -1.0f, 0.0f};
    TRT_OK(tr_image_fill(img, NULL, v));
    uint8_t px[4];
    TRT_OK(tr_image_read_rgba8(img, NULL, px));
    const uint8_t want_px[4] = {128, 255, 0, 255};
    cr_expect_arr_eq(px, want_px, 4);
    tr_context_destroy(ctx);
}

/* ---- A2B10G10R10 -------------------------------------------------------------------------------- */

Test(raster, a2b10g10r10_packing)
{
    tr_context *ctx = trt_context(1);
    tr_image *img = image(ctx, TR_FORMAT_A2B10G10R10_UNORM_PACK32, 1, 1);
    static const struct {
        float v[4];
        uint32_t r, g, b, a;
    } c[] = {
        {{1.0f, 0.0f, 0.5f, 1.0f / 3.0f}, 1023, 0, 512, 1},       /* 511.5 -> 512; 1.0 -> 1 */
        {{NAN, -1.0f, 2.0f, INFINITY}, 0, 0, 1023, 3},
        {{0.25f, 0.75f, 0x1p-11f, 0.5f}, 256, 767, 0, 2},          /* 255.75, 767.25, 0.4995, 1.5 -> 2 */
        {{100.0f / 1023.0f, 0.0004887f, 0.0004888f, 0.83f}, 100, 0, 1, 2}, /* 0.49994 -> 0; 0.50004 -> 1; 2.49 -> 2 */
    };
    for (uint32_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        TRT_OK(tr_image_fill(img, NULL, c[i].v));
        uint32_t got;
        trt_download(img, 0, 0, TR_ASPECT_COLOR, &got);
        const uint32_t want = c[i].r | c[i].g << 10 | c[i].b << 20 | c[i].a << 30;
        cr_expect_eq(got, want, "case %u: 0x%08x, want 0x%08x", i, got, want);
    }
    /* every 10-bit code decodes to k / 1023.0f (R), G = 1023 - k, B = k,
     * alpha k & 3 / 3.0f; and a shader writing those values stores them */
    enum { N = 1024 };
    tr_image *all = image(ctx, TR_FORMAT_A2B10G10R10_UNORM_PACK32, N, 1);
    uint32_t words[N], got[N];
    for (uint32_t k = 0; k < N; k++)
        words[k] = k | (1023u - k) << 10 | k << 20 | (k & 3u) << 30;
    TRT_OK(tr_image_upload(all, NULL, words, 0));
    float (*table)[4] = malloc(N * sizeof *table);
    cr_assert_not_null(table);
    uint32_t bad = 0;
    for (int32_t x = 0; x < N; x += 4) {
        float out[4][TR_FS_LANES];
        fetch4(all, x, out);
        for (int l = 0; l < 4; l++) {
            const uint32_t k = (uint32_t)(x + l);
            const float want[4] = {(float)k / 1023.0f, (float)(1023 - k) / 1023.0f, (float)k / 1023.0f,
                                   (float)(k & 3) / 3.0f};
            for (int ch = 0; ch < 4; ch++) {
                bad += out[ch][l] != want[ch];
                table[k][ch] = out[ch][l];
            }
        }
    }
    cr_expect_eq(bad, 0u, "%u channels decoded wrong", bad);
    tr_image *dst = image(ctx, TR_FORMAT_A2B10G10R10_UNORM_PACK32, N, 1);
    cr_expect_eq(draw_table(ctx, dst, N, 1, (const float (*)[4])table, NULL, zero4), TR_OK);
    trt_download(dst, 0, 0, TR_ASPECT_COLOR, got);
    cr_expect_arr_eq(got, words, sizeof words, "shader write of the decoded codes");
    /* a write mask of green alone keeps the other bits of the clear */
    tr_blend_state g = {0};
    g.write_mask = 0x2;
    const float clear[4] = {1.0f, 0.0f, 1.0f, 0.0f};
    cr_expect_eq(draw_table(ctx, dst, N, 1, (const float (*)[4])table, &g, clear), TR_OK);
    trt_download(dst, 0, 0, TR_ASPECT_COLOR, got);
    bad = 0;
    for (uint32_t k = 0; k < N; k++)
        bad += got[k] != (1023u | (1023u - k) << 10 | 1023u << 20);
    cr_expect_eq(bad, 0u, "green mask: %u texels wrong", bad);
    /* read_rgba8 decodes and converts to UNORM8: k = 512 -> 512/1023 * 255 = 127.6 -> 128 */
    uint32_t one = 512u | 0u << 10 | 1023u << 20 | 2u << 30;
    TRT_OK(tr_image_upload(img, NULL, &one, 0));
    uint8_t px[4];
    TRT_OK(tr_image_read_rgba8(img, NULL, px));
    const uint8_t want_px[4] = {128, 0, 255, 170};
    cr_expect_arr_eq(px, want_px, 4, "%u %u %u %u", px[0], px[1], px[2], px[3]);
    free(table);
    tr_context_destroy(ctx);
}

/* ---- integer formats ---------------------------------------------------------------------------- */

static const uint32_t int_bits[8] = {0u, 1u, 255u, 256u, 0x7fc00001u /* a NaN pattern */, 0xffffffffu,
                                     0x80000000u, 0x7f800001u /* a signalling NaN pattern */};

Test(raster, integer_formats_bit_exact)
{
    tr_context *ctx = trt_context(2);
    enum { W = 8 };
    /* transfers */
    tr_image *r32 = image(ctx, TR_FORMAT_R32_UINT, W, 1), *rgba32 = image(ctx, TR_FORMAT_R32G32B32A32_UINT, W, 1);
    uint32_t q[W * 4], back[W * 4];
    for (uint32_t i = 0; i < W * 4; i++)
        q[i] = int_bits[i % 8] ^ (i / 8) * 0x01010101u;
    TRT_OK(tr_image_upload(rgba32, NULL, q, 0));
    trt_download(rgba32, 0, 0, TR_ASPECT_COLOR, back);
    cr_expect_arr_eq(back, q, sizeof q);
    TRT_OK(tr_image_upload(r32, NULL, int_bits, 0));
    trt_download(r32, 0, 0, TR_ASPECT_COLOR, back);
    cr_expect_arr_eq(back, int_bits, sizeof int_bits);
    /* sampling returns the bits (R32: (r, 0, 0, integer 1)) */
    for (int32_t x = 0; x < W; x += 4) {
        float o[4][TR_FS_LANES];
        fetch4(rgba32, x, o);
        for (int l = 0; l < 4; l++)
            for (int c = 0; c < 4; c++)
                cr_expect_eq(bits_of(o[c][l]), q[4 * (x + l) + c], "RGBA32 fetch %d.%d", x + l, c);
        fetch4(r32, x, o);
        for (int l = 0; l < 4; l++) {
            cr_expect_eq(bits_of(o[0][l]), int_bits[x + l]);
            cr_expect_eq(bits_of(o[1][l]), 0u);
            cr_expect_eq(bits_of(o[3][l]), 1u);
        }
    }
    /* fills: the floats' bits, NaN payloads kept */
    float fv[4];
    for (int c = 0; c < 4; c++)
        fv[c] = float_of(int_bits[4 + c]);
    TRT_OK(tr_image_fill(rgba32, NULL, fv));
    trt_download(rgba32, 0, 0, TR_ASPECT_COLOR, back);
    for (uint32_t i = 0; i < W; i++)
        cr_expect_arr_eq(back + 4 * i, int_bits + 4, 16, "fill texel %u", i);
    /* read_rgba8: each integer clamped to 255 */
    uint8_t px[W * 4];
    TRT_OK(tr_image_read_rgba8(r32, NULL, px));
    for (uint32_t i = 0; i < W; i++) {
        const uint8_t want[4] = {(uint8_t)(int_bits[i] > 255 ? 255 : int_bits[i]), 0, 0, 255};
        cr_expect_arr_eq(px + 4 * i, want, 4, "R32 read_rgba8 %u", i);
    }
    /* a shader writing integers' bits; the clear colour is bits too */
    float table[W][4];
    for (uint32_t x = 0; x < W; x++)
        for (int c = 0; c < 4; c++)
            table[x][c] = float_of(int_bits[(x + (uint32_t)c) % 8]);
    const float clear[4] = {float_of(0xdeadbeefu), float_of(0x7fc12345u), 0, 0};
    tr_render_pass_desc rp = {0};
    rp.color_count = 1;
    rp.color[0].image = rgba32;
    rp.color[0].load_op = TR_LOAD_OP_CLEAR;
    memcpy(rp.color[0].clear_color, clear, 16);
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    trt_download(rgba32, 0, 0, TR_ASPECT_COLOR, back);
    cr_expect_eq(back[0], 0xdeadbeefu);
    cr_expect_eq(back[1], 0x7fc12345u);
    for (int s = 0; s < 2; s++) {
        tr_image *dst = s ? r32 : rgba32;
        cr_expect_eq(draw_table(ctx, dst, W, 1, (const float (*)[4])table, NULL, zero4), TR_OK);
        trt_download(dst, 0, 0, TR_ASPECT_COLOR, back);
        for (uint32_t x = 0; x < W; x++)
            for (uint32_t c = 0; c < (s ? 1u : 4u); c++)
                cr_expect_eq(back[x * (s ? 1 : 4) + c], int_bits[(x + c) % 8], "%s shader write %u.%u: 0x%08x",
                             s ? "R32" : "RGBA32", x, c, back[x * (s ? 1 : 4) + c]);
    }
    tr_context_destroy(ctx);
}

/* Blending an integer attachment is refused where the pipeline meets the
 * pass (the draw), and so is a filtering sampler on an integer texture. */
Test(raster, integer_formats_refuse_blend_and_linear)
{
    tr_context *ctx = trt_context(1);
    tr_image *img = image(ctx, TR_FORMAT_R32_UINT, 4, 4);
    float table[4][4] = {{0}};
    tr_blend_state bs = {0};
    bs.enable = 1;
    bs.src_color = bs.dst_color = bs.src_alpha = bs.dst_alpha = TR_BLEND_ONE;
    cr_expect_eq(draw_table(ctx, img, 4, 4, (const float (*)[4])table, &bs, zero4), TR_ERROR_UNSUPPORTED_FORMAT);
    cr_expect(strstr(draw_message, "integer") != NULL, "message: %s", draw_message);
    /* the same pipeline into a UNORM attachment is fine */
    tr_image *unorm = image(ctx, TR_FORMAT_R8_UNORM, 4, 4);
    cr_expect_eq(draw_table(ctx, unorm, 4, 4, (const float (*)[4])table, &bs, zero4), TR_OK);

    tr_sampler *lin = NULL, *near = NULL, *mip = NULL;
    tr_sampler_desc sd = {0};
    TRT_OK(tr_sampler_create(ctx, &sd, &near));
    sd.mipmap_mode = TR_MIPMAP_LINEAR;
    TRT_OK(tr_sampler_create(ctx, &sd, &mip));
    sd.mipmap_mode = TR_MIPMAP_NEAREST;
    sd.mag_filter = TR_FILTER_LINEAR;
    TRT_OK(tr_sampler_create(ctx, &sd, &lin));
    tr_image *rt = image(ctx, TR_FORMAT_R8G8B8A8_UNORM, 4, 4);
    trt_begin_color(ctx, rt, zero4);
    TRT_EXPECT(tr_cmd_bind_texture(ctx, 0, img, lin), TR_ERROR_UNSUPPORTED_FORMAT);
    TRT_EXPECT(tr_cmd_bind_texture(ctx, 0, img, mip), TR_ERROR_UNSUPPORTED_FORMAT);
    TRT_OK(tr_cmd_bind_texture(ctx, 0, img, near));
    TRT_OK(tr_cmd_bind_texture(ctx, 1, unorm, lin));
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    tr_image_desc md = {TR_FORMAT_R32_UINT, 4, 4, 1, 3, 0, 0};
    tr_image *mips = NULL;
    TRT_OK(tr_image_create(ctx, &md, &mips));
    TRT_EXPECT(tr_image_generate_mips(mips), TR_ERROR_UNSUPPORTED_FORMAT);
    tr_context_destroy(ctx);
}

/* A multisampled integer attachment resolves to sample 0. */
Test(raster, integer_resolve_is_sample_zero)
{
    tr_context *ctx = trt_context(1);
    tr_image *ms = trt_image_ms(ctx, TR_FORMAT_R32_UINT, 2, 1, 4);
    const uint32_t v[4][2] = {{7, 1000}, {9, 2}, {11, 3}, {13, 4}};
    for (uint32_t s = 0; s < 4; s++) {
        tr_subresource sub = {0, 0, TR_ASPECT_COLOR, s};
        TRT_OK(tr_image_upload(ms, &sub, v[s], 0));
    }
    uint8_t px[8];
    TRT_OK(tr_image_read_rgba8(ms, NULL, px));
    const uint8_t want[8] = {7, 0, 0, 255, 255, 0, 0, 255};
    cr_expect_arr_eq(px, want, 8, "%u %u", px[0], px[4]);
    tr_context_destroy(ctx);
}

/* ---- D16 and D24 -------------------------------------------------------------------------------- */

/* Vulkan's code of z for n bits, in integers: floor(z * (2^n - 1) + 1/2)
 * with z = m * 2^-s exactly (z in [0, 1]). */
static uint32_t depth_code(float z, int n)
{
    if (!(z > 0.0f))
        return 0;
    if (z >= 1.0f)
        return (1u << n) - 1u;
    int e;
    const double fr = frexp((double)z, &e); /* z = fr * 2^e, fr in [0.5, 1) */
    const uint64_t m = (uint64_t)ldexp(fr, 24); /* z = m * 2^(e - 24), exact */
    const int s = 24 - e;                       /* z = m / 2^s, s >= 25 */
    const unsigned __int128 num = (unsigned __int128)m * ((1u << n) - 1u) * 2u + ((unsigned __int128)1 << s);
    return (uint32_t)(num >> (s + 1));
}

/* The float a depth code is stored as. */
static float depth_stored(uint32_t k, int n)
{
    return (float)((double)k / (double)((1u << n) - 1u));
}

/* D24: float(k / (2^24 - 1)) is strictly increasing in k (so float
 * comparisons of stored depths are the codes' comparisons) and gives k back. */
Test(raster, d24_stored_floats_are_injective_and_monotonic)
{
    float prev = -1.0f;
    uint32_t bad = 0;
    for (uint32_t k = 0; k < (1u << 24); k++) {
        const float f = depth_stored(k, 24);
        bad += !(f > prev) || depth_code(f, 24) != k;
        prev = f;
    }
    cr_expect_eq(bad, 0u, "%u codes", bad);
}

Test(raster, depth_unorm_quantisation_and_ties)
{
    tr_context *ctx = trt_context(1);
    for (int n = 16; n <= 24; n += 8) {
        const tr_format f = n == 16 ? TR_FORMAT_D16_UNORM : TR_FORMAT_D24_UNORM_S8_UINT;
        const uint32_t m = (1u << n) - 1u;
        enum { N = 4096 };
        tr_image *img = image(ctx, f, N, 1);
        float *in = malloc(N * sizeof *in), *out = malloc(N * sizeof *out);
        cr_assert(in && out);
        /* 0.5 is the one depth in (0, 1) exactly halfway between two codes
         * (0.5 * (2^n - 1) = k + 1/2): up, as every tie; its float
         * neighbours go either way; then random depths, NaN and out of range */
        in[0] = 0.5f;
        in[1] = nextafterf(0.5f, 0.0f);
        in[2] = nextafterf(0.5f, 1.0f);
        in[3] = NAN;
        in[4] = -0.25f;
        in[5] = 1.5f;
        in[6] = 1.0f;
        in[7] = 0.0f;
        trt_rng rng = {(uint64_t)n};
        for (int i = 8; i < N; i++) {
            /* half near code boundaries, half anywhere */
            const double k = floor(trt_rand_range(&rng, 0, m));
            in[i] = i & 1 ? (float)trt_rand_range(&rng, 0, 1)
                          : (float)((k + 0.5 + trt_rand_range(&rng, -1e-6, 1e-6) * (n == 16 ? 100 : 1)) / m);
        }
        cr_expect_eq(depth_code(0.5f, n), (m + 1) / 2, "the tie rounds up");
        cr_expect_eq(depth_code(in[1], n), (m - 1) / 2);
        cr_expect_eq(depth_code(in[2], n), (m + 1) / 2);
        TRT_OK(tr_image_upload(img, NULL, in, 0));
        trt_download(img, 0, 0, TR_ASPECT_DEPTH, out);
        uint32_t bad = 0;
        for (int i = 0; i < N; i++) {
            const uint32_t k = in[i] != in[i] ? 0u : depth_code(in[i], n);
            bad += bits_of(out[i]) != bits_of(depth_stored(k, n));
        }
        cr_expect_eq(bad, 0u, "%s: %u depths stored wrong by upload", tr_format_name(f), bad);
        /* tr_image_fill and a pass's clear quantise the same way */
        for (int i = 0; i < 8; i++) {
            const float v[4] = {in[i], 0, 0, 0};
            float d;
            tr_image *one = image(ctx, f, 1, 1);
            TRT_OK(tr_image_fill(one, NULL, v));
            trt_download(one, 0, 0, TR_ASPECT_DEPTH, &d);
            const uint32_t k = in[i] != in[i] ? 0u : depth_code(in[i], n);
            cr_expect_eq(bits_of(d), bits_of(depth_stored(k, n)), "%s fill %a", tr_format_name(f), (double)in[i]);
            if (!(in[i] >= 0.0f && in[i] <= 1.0f))
                continue; /* (clear depths outside [0, 1] are refused) */
            tr_image *rt = image(ctx, TR_FORMAT_R8_UNORM, 1, 1);
            tr_render_pass_desc rp = trt_pass_desc(rt, one);
            rp.depth.clear_depth = in[i];
            TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
            TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
            trt_download(one, 0, 0, TR_ASPECT_DEPTH, &d);
            cr_expect_eq(bits_of(d), bits_of(depth_stored(k, n)), "%s clear %a", tr_format_name(f), (double)in[i]);
        }
        free(in);
        free(out);
    }
    /* D24's stencil aspect is its own plane */
    tr_image *ds = image(ctx, TR_FORMAT_D24_UNORM_S8_UINT, 4, 1);
    const uint8_t st[4] = {0, 1, 128, 255};
    uint8_t sb[4];
    tr_subresource s = {0, 0, TR_ASPECT_STENCIL, 0};
    TRT_OK(tr_image_upload(ds, &s, st, 0));
    trt_download(ds, 0, 0, TR_ASPECT_STENCIL, sb);
    cr_expect_arr_eq(sb, st, 4);
    tr_context_destroy(ctx);
}

/* Two full-screen quads whose depths differ by less than one D16 step
 * (both round to code 32768): the second, nearer in float, fails LESS on
 * D16 (equal codes) but passes on D32 and D24; it passes LESS_OR_EQUAL on
 * D16.  Every SIMD level (the scalar reference, the vector paths). */
Test(raster, depth_test_sees_codes)
{
    enum { W = 24, H = 16 };
    const float z1 = (float)((32767.5 + 0.2) / 65535.0), z2 = (float)((32767.5 + 0.1) / 65535.0);
    cr_assert(z2 < z1);
    cr_assert_eq(depth_code(z1, 16), 32768u);
    cr_assert_eq(depth_code(z2, 16), 32768u);
    cr_assert_neq(depth_code(z1, 24), depth_code(z2, 24));
    static const tr_format fmts[3] = {TR_FORMAT_D32_SFLOAT, TR_FORMAT_D24_UNORM_S8_UINT, TR_FORMAT_D16_UNORM};
    static const tr_simd_level levels[2] = {TR_SIMD_SCALAR, TR_SIMD_DEFAULT};
    for (int lv = 0; lv < 2; lv++)
        for (int op = 0; op < 2; op++)
            for (int fi = 0; fi < 3; fi++) {
                tr_context_desc cd = {0};
                cd.threads = 2;
                cd.simd = levels[lv];
                tr_context *ctx = trt_context_desc(&cd);
                tr_image *color = image(ctx, TR_FORMAT_R8_UNORM, W, H), *depth = image(ctx, fmts[fi], W, H);
                tr_pipeline_desc pd = {0};
                pd.fragment_shader = trt_fs_uniform;
                pd.depth_test = 1;
                pd.depth_write = 1;
                pd.depth_compare = op ? TR_COMPARE_LESS_OR_EQUAL : TR_COMPARE_LESS;
                tr_pipeline *pl = trt_pipeline(ctx, &pd);
                trt_begin_color_depth(ctx, color, depth, 0);
                TRT_OK(tr_cmd_bind_pipeline(ctx, pl));
                for (int q = 0; q < 2; q++) {
                    const float z = q ? z2 : z1;
                    trt_vertex v[6] = {trt_vpx(0, 0, z, W, H, NULL), trt_vpx(W, 0, z, W, H, NULL),
                                       trt_vpx(W, H, z, W, H, NULL), trt_vpx(0, 0, z, W, H, NULL),
                                       trt_vpx(W, H, z, W, H, NULL), trt_vpx(0, H, z, W, H, NULL)};
                    trt_uniforms u;
                    memset(&u, 0, sizeof u);
                    u.color[0][0] = q ? 1.0f : 0.2f;
                    trt_draw_u(ctx, &u, v, 6);
                }
                tr_pass_stats st;
                TRT_OK(tr_cmd_end_render_pass(ctx, &st));
                uint8_t px[W * H];
                float d[W * H];
                trt_download(color, 0, 0, TR_ASPECT_COLOR, px);
                trt_download(depth, 0, 0, TR_ASPECT_DEPTH, d);
                const bool second_passes = fi < 2 || op == 1;
                const uint8_t want = second_passes ? 255 : 51;
                const float want_d = fi == 0 ? (second_passes ? z2 : z1)
                                     : fi == 1 ? depth_stored(depth_code(z2, 24), 24)
                                               : depth_stored(32768, 16);
                uint32_t bad = 0;
                for (int i = 0; i < W * H; i++)
                    bad += px[i] != want || bits_of(d[i]) != bits_of(want_d);
                cr_expect_eq(bad, 0u, "%s %s simd %d: %u pixels (colour %u, depth %a, want %u %a)",
                             tr_format_name(fmts[fi]), op ? "LEQUAL" : "LESS", (int)levels[lv], bad, px[0],
                             (double)d[0], want, (double)want_d);
                cr_expect_eq(st.fragments_depth_rejected, second_passes ? 0u : (uint64_t)W * H);
                tr_context_destroy(ctx);
            }
}

/* A shader reading frag_z sees the unquantised depth on D16 too. */
static void fs_frag_z(tr_fs_block *b)
{
    for (uint32_t l = 0; l < b->count; l++) {
        const float z = b->frag_z[l];
        memcpy(&b->color[0][0][l], &z, 4);
        b->color[0][1][l] = b->color[0][2][l] = b->color[0][3][l] = 0.0f;
    }
}

Test(raster, frag_z_is_not_quantised)
{
    enum { W = 8, H = 8 };
    const float z = 0.3f;
    tr_context *ctx = trt_context(1);
    tr_image *color = image(ctx, TR_FORMAT_R32_UINT, W, H), *depth = image(ctx, TR_FORMAT_D16_UNORM, W, H);
    tr_pipeline_desc pd = {0};
    pd.fragment_shader = fs_frag_z;
    pd.depth_test = 1;
    pd.depth_write = 1;
    tr_pipeline *pl = trt_pipeline(ctx, &pd);
    trt_begin_color_depth(ctx, color, depth, 0);
    TRT_OK(tr_cmd_bind_pipeline(ctx, pl));
    trt_vertex v[6] = {trt_vpx(0, 0, z, W, H, NULL), trt_vpx(W, 0, z, W, H, NULL), trt_vpx(W, H, z, W, H, NULL),
                       trt_vpx(0, 0, z, W, H, NULL), trt_vpx(W, H, z, W, H, NULL), trt_vpx(0, H, z, W, H, NULL)};
    trt_draw(ctx, v, 6);
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    uint32_t px[W * H];
    float d[W * H];
    trt_download(color, 0, 0, TR_ASPECT_COLOR, px);
    trt_download(depth, 0, 0, TR_ASPECT_DEPTH, d);
    for (int i = 0; i < W * H; i++) {
        cr_expect_eq(px[i], bits_of(z), "frag_z %a", (double)float_of(px[i]));
        cr_expect_eq(bits_of(d[i]), bits_of(depth_stored(depth_code(z, 16), 16)));
    }
    tr_context_destroy(ctx);
}
