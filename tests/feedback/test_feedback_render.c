/* Sampler feedback written from render passes: a shader's writes equal the
 * same writes made by hand on the blocks it was given, side effects run the
 * shader on every covered fragment (tests after it, no LRZ), and a scene
 * that writes three maps (exact MinMip, exact MipRegionUsed on an array,
 * conservative MinMip) decodes to the same bytes for every thread count,
 * SIMD level, GMEM budget (bin size), single bin and LRZ on or off. */
#include "trtest.h"

#include <stdlib.h>
#include <string.h>

enum { W = 96, H = 72 };

typedef struct cfg {
    uint32_t threads, gmem, ctx_flags, pass_flags;
    tr_simd_level simd;
} cfg;

/* varying 0: (s, t, layer, bias).  Slot 0: a 256x256 chain (map slots 0 and
 * 2), slot 1: a 3-layer 32x16 chain (map slot 1). */
static void fs_feedback(tr_fs_block *b)
{
    static _Thread_local float out[4][TR_FS_LANES];
    const float *s = b->varyings[0][0], *t = b->varyings[0][1];
    const tr_sample_args plain = {.s = s, .t = t};
    tr_fs_sample(b, 0, &plain, out);
    tr_fs_write_feedback(b, 0, 0, &plain);
    tr_fs_write_feedback(b, 2, 0, &plain);
    const tr_sample_args arr = {.s = t, .t = s, .layer = b->varyings[0][2], .bias = b->varyings[0][3]};
    tr_fs_write_feedback(b, 1, 1, &arr);
    for (int k = 0; k < 4; k++)
        for (uint32_t l = 0; l < b->count; l++)
            b->color[0][k][l] = out[k][l];
}

typedef struct result {
    uint8_t px[W * H * 4];
    uint8_t min_mip[32 * 32], used[3][3][8 * 4], conservative[32 * 32];
    uint64_t shaded;
} result;

static tr_image *texture(tr_context *ctx, uint32_t w, uint32_t h, uint32_t layers)
{
    tr_image_desc d = {TR_FORMAT_R8G8B8A8_UNORM, w, h, layers, TR_LEVELS_ALL, 0, 0};
    tr_image *img = NULL;
    TRT_OK(tr_image_create(ctx, &d, &img));
    trt_rng rng = {7};
    uint8_t *b = malloc((size_t)w * h * 4);
    for (size_t i = 0; i < (size_t)w * h * 4; i++)
        b[i] = (uint8_t)trt_rand_u32(&rng);
    for (uint32_t a = 0; a < layers; a++)
        TRT_OK(tr_image_upload(img, &(tr_subresource){0, a, TR_ASPECT_COLOR, 0}, b, 0));
    free(b);
    TRT_OK(tr_image_generate_mips(img));
    return img;
}

static void render_scene(const cfg *cf, result *res)
{
    tr_context_desc cd = {0};
    cd.threads = cf->threads;
    cd.gmem_bytes = cf->gmem;
    cd.simd = cf->simd;
    cd.flags = cf->ctx_flags;
    tr_context *ctx = trt_context_desc(&cd);
    tr_image *rt = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, W, H);
    tr_image *ds = trt_image(ctx, TR_FORMAT_D32_SFLOAT, W, H);
    tr_image *t0 = texture(ctx, 256, 256, 1), *t1 = texture(ctx, 32, 16, 3);
    const tr_sampler_desc s0 = {.mag_filter = TR_FILTER_LINEAR, .min_filter = TR_FILTER_LINEAR,
                                .mipmap_mode = TR_MIPMAP_LINEAR, .max_anisotropy = 8};
    const tr_sampler_desc s1 = {.min_filter = TR_FILTER_LINEAR, .address_u = TR_ADDRESS_MIRRORED_REPEAT,
                                .address_v = TR_ADDRESS_CLAMP_TO_EDGE, .lod_bias = 0.5f};
    tr_sampler *smp0 = NULL, *smp1 = NULL;
    TRT_OK(tr_sampler_create(ctx, &s0, &smp0));
    TRT_OK(tr_sampler_create(ctx, &s1, &smp1));
    tr_feedback_map *maps[3] = {NULL, NULL, NULL};
    TRT_OK(tr_feedback_map_create(ctx, &(tr_feedback_map_desc){TR_FEEDBACK_MIN_MIP, 256, 256, 9, 1, 8, 8}, &maps[0]));
    TRT_OK(tr_feedback_map_create(ctx, &(tr_feedback_map_desc){TR_FEEDBACK_MIP_REGION_USED, 32, 16, 6, 3, 4, 4},
                                  &maps[1]));
    TRT_OK(tr_feedback_map_create(ctx, &(tr_feedback_map_desc){TR_FEEDBACK_MIN_MIP, 256, 256, 9, 1, 8, 8}, &maps[2]));
    TRT_OK(tr_feedback_map_set_mode(maps[2], TR_FEEDBACK_CONSERVATIVE));

    tr_pipeline_desc pd = {0};
    pd.fragment_shader = fs_feedback;
    pd.texture_mask = 3;
    pd.feedback_mask = 7;
    pd.depth_test = pd.depth_write = 1;
    tr_pipeline *pl = trt_pipeline(ctx, &pd);

    /* Triangles whose uv spread ranges from a five-hundredth of the texture to
     * several repeats, so every level of the chain is read somewhere. */
    enum { TRIS = 60 };
    trt_vertex v[3 * TRIS];
    trt_rng rng = {1234};
    for (uint32_t i = 0; i < 3 * TRIS; i++) {
        const float w = (float)trt_rand_range(&rng, 0.3, 4.0);
        const float x = (float)trt_rand_range(&rng, -1.3, 1.3), y = (float)trt_rand_range(&rng, -1.3, 1.3);
        const float z = (float)trt_rand_range(&rng, 0.0, 1.0);
        const float spread = 0.002f * (float)(1u << (i / 3 % 11)); /* 0.002 .. 2.048 */
        const float su = (float)trt_rand_range(&rng, 0, 1), sv = (float)trt_rand_range(&rng, 0, 1);
        v[i] = (trt_vertex){{x * w, y * w, z * w, w},
                            {su + spread * (float)trt_rand_range(&rng, -1, 1),
                             sv + spread * (float)trt_rand_range(&rng, -1, 1), (float)trt_rand_range(&rng, -0.5, 2.5),
                             (float)trt_rand_range(&rng, -2, 2)}};
        if (i % 3) /* one base per triangle */
            v[i].color[0] += v[i - i % 3].color[0] - su, v[i].color[1] += v[i - i % 3].color[1] - sv;
    }
    trt_begin_color_depth(ctx, rt, ds, cf->pass_flags);
    TRT_OK(tr_cmd_bind_pipeline(ctx, pl));
    TRT_OK(tr_cmd_bind_texture(ctx, 0, t0, smp0));
    TRT_OK(tr_cmd_bind_texture(ctx, 1, t1, smp1));
    for (uint32_t k = 0; k < 3; k++)
        TRT_OK(tr_cmd_bind_feedback_map(ctx, k, maps[k]));
    trt_draw(ctx, v, 3 * TRIS);
    tr_pass_stats st;
    TRT_OK(tr_cmd_end_render_pass(ctx, &st));
    res->shaded = st.fragments_shaded;
    trt_download(rt, 0, 0, TR_ASPECT_COLOR, res->px);
    TRT_OK(tr_feedback_map_decode(maps[0], 0, 0, res->min_mip, 32));
    TRT_OK(tr_feedback_map_decode(maps[2], 0, 0, res->conservative, 32));
    memset(res->used, 0, sizeof res->used);
    for (uint32_t a = 0; a < 3; a++)
        for (uint32_t l = 0; l < 3; l++)
            TRT_OK(tr_feedback_map_decode(maps[1], a, l, res->used[a][l], 8)); /* 8x4, 4x2, 2x1 regions */
    for (uint32_t k = 0; k < 3; k++)
        cr_expect_eq(tr_feedback_map_dropped_writes(maps[k]), 0);
    tr_context_destroy(ctx);
}

static uint32_t distinct_values(const uint8_t *p, size_t n)
{
    bool seen[256] = {false};
    uint32_t d = 0;
    for (size_t i = 0; i < n; i++)
        if (!seen[p[i]])
            seen[p[i]] = true, d++;
    return d;
}

Test(feedback_render, identical_for_every_configuration, .timeout = 300)
{
    const cfg cfgs[] = {
        {1, 0, 0, 0, TR_SIMD_DEFAULT},       {2, 0, 0, 0, TR_SIMD_DEFAULT},
        {3, 16384, 0, 0, TR_SIMD_DEFAULT},   {8, 0, 0, 0, TR_SIMD_DEFAULT},
        {1, 0, 0, 0, TR_SIMD_SCALAR},        {3, 8192, 0, 0, TR_SIMD_SCALAR},
        {2, 0, 0, TR_PASS_SINGLE_BIN, TR_SIMD_DEFAULT}, {2, 0, TR_CONTEXT_NO_LRZ, 0, TR_SIMD_DEFAULT},
    };
    const char *names[] = {"threads 1", "threads 2", "threads 3, 16 KiB", "threads 8", "scalar",
                           "scalar, threads 3, 8 KiB", "single bin", "no LRZ"};
    static result ref, got;
    render_scene(&cfgs[0], &ref);
    /* Not trivial: several levels requested, regions used and unused. */
    cr_expect_geq(distinct_values(ref.min_mip, sizeof ref.min_mip), 3, "MinMip holds %u values",
                  distinct_values(ref.min_mip, sizeof ref.min_mip));
    cr_expect_geq(distinct_values(ref.conservative, sizeof ref.conservative), 2);
    cr_expect_eq(distinct_values(&ref.used[0][0][0], sizeof ref.used), 2);
    cr_expect_neq(memcmp(ref.min_mip, ref.conservative, sizeof ref.min_mip), 0, "the two modes differ");
    for (size_t k = 1; k < sizeof cfgs / sizeof cfgs[0]; k++) {
        render_scene(&cfgs[k], &got);
        cr_expect_eq(memcmp(got.px, ref.px, sizeof ref.px), 0, "%s: the image differs", names[k]);
        cr_expect_eq(memcmp(got.min_mip, ref.min_mip, sizeof ref.min_mip), 0, "%s: MinMip differs", names[k]);
        cr_expect_eq(memcmp(got.used, ref.used, sizeof ref.used), 0, "%s: MipRegionUsed differs", names[k]);
        cr_expect_eq(memcmp(got.conservative, ref.conservative, sizeof ref.conservative), 0,
                     "%s: the conservative map differs", names[k]);
        cr_expect_eq(got.shaded, ref.shaded, "%s: %llu fragments shaded, threads 1 shaded %llu", names[k],
                     (unsigned long long)got.shaded, (unsigned long long)ref.shaded);
    }
}

/* ---- the shader's writes are the direct calls' ------------------------------------------- */

/* Every block the shader sees is kept (inputs only), to be replayed by hand. */
typedef struct kept {
    tr_fs_block *blocks;
    size_t count, cap;
} kept;

static kept g_kept;

static void fs_keep(tr_fs_block *b)
{
    const tr_sample_args a = {.s = b->varyings[0][0], .t = b->varyings[0][1]};
    tr_fs_write_feedback(b, 0, 0, &a);
    if (g_kept.count == g_kept.cap) {
        g_kept.cap = g_kept.cap ? 2 * g_kept.cap : 64;
        g_kept.blocks = realloc(g_kept.blocks, g_kept.cap * sizeof(tr_fs_block));
    }
    g_kept.blocks[g_kept.count++] = *b;
}

Test(feedback_render, shader_writes_equal_direct_calls)
{
    tr_context *ctx = trt_context(1); /* one thread: fs_keep appends without a lock */
    tr_image *rt = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, W, H);
    tr_image *tex = texture(ctx, 64, 64, 1);
    tr_feedback_map_desc fd = {TR_FEEDBACK_MIP_REGION_USED, 64, 64, 7, 1, 4, 4};
    tr_feedback_map *in_pass = NULL, *by_hand = NULL;
    TRT_OK(tr_feedback_map_create(ctx, &fd, &in_pass));
    TRT_OK(tr_feedback_map_create(ctx, &fd, &by_hand));
    tr_pipeline_desc pd = {.fragment_shader = fs_keep, .texture_mask = 1, .feedback_mask = 1};
    tr_pipeline *pl = trt_pipeline(ctx, &pd);
    /* A receding plane (w from 1 to 12): many levels. */
    const float P[4][4] = {{-1, 1, 1, 0}, {1, 1, 1, 1}, {-1, -1, 12, 0}, {1, -1, 12, 1}}; /* x, y, w, u */
    trt_vertex q[4];
    for (int i = 0; i < 4; i++)
        q[i] = (trt_vertex){{P[i][0] * P[i][2], P[i][1], 0.5f * P[i][2], P[i][2]}, {P[i][3] * 4, i < 2 ? 0 : 6, 0, 0}};
    const trt_vertex v[6] = {q[0], q[1], q[2], q[2], q[1], q[3]};
    trt_begin_color(ctx, rt, NULL);
    TRT_OK(tr_cmd_bind_pipeline(ctx, pl));
    TRT_OK(tr_cmd_bind_texture(ctx, 0, tex, NULL));
    TRT_OK(tr_cmd_bind_feedback_map(ctx, 0, in_pass));
    trt_draw(ctx, v, 6);
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    cr_assert_gt(g_kept.count, 10);
    tr_texture_binding slots[TR_MAX_TEXTURES] = {{tex, NULL}};
    tr_feedback_map *maps[TR_MAX_FEEDBACK_MAPS] = {by_hand};
    for (size_t i = 0; i < g_kept.count; i++) {
        tr_fs_block *b = &g_kept.blocks[i];
        b->textures = slots;
        b->feedback_maps = maps;
        const tr_sample_args a = {.s = b->varyings[0][0], .t = b->varyings[0][1]};
        tr_fs_write_feedback(b, 0, 0, &a);
    }
    uint32_t used_levels = 0;
    for (uint32_t l = 0; l < 7; l++) {
        uint8_t x[16 * 16], y[16 * 16];
        uint32_t w, h;
        TRT_OK(tr_feedback_map_decoded_size(in_pass, l, &w, &h));
        TRT_OK(tr_feedback_map_decode(in_pass, 0, l, x, w));
        TRT_OK(tr_feedback_map_decode(by_hand, 0, l, y, w));
        cr_expect_eq(memcmp(x, y, (size_t)w * h), 0, "level %u differs", l);
        used_levels += memchr(x, 0xFF, (size_t)w * h) != NULL;
    }
    cr_expect_geq(used_levels, 3, "only %u levels were read", used_levels);
    free(g_kept.blocks);
    tr_context_destroy(ctx);
}

/* ---- side effects: every covered fragment runs the shader ------------------------------- */

static void fs_count(tr_fs_block *b)
{
    const tr_sample_args a = {.s = b->varyings[0][0], .t = b->varyings[0][1]};
    tr_fs_write_feedback(b, 0, 0, &a);
    for (int k = 0; k < 4; k++)
        for (uint32_t l = 0; l < b->count; l++)
            b->color[0][k][l] = 1.0f;
}

Test(feedback_render, hidden_fragments_still_write)
{
    /* A near full-screen quad at depth 0.2 (uv in [0, 1/2)), then one
     * behind it at 0.8 (uv in [1/2, 1)): with feedback the second one's
     * fragments still run (tests after the shader) and record the right
     * half of the texture, though none of them is seen. */
    tr_context *ctx = trt_context(2);
    tr_image *rt = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, 64, 64);
    tr_image *ds = trt_image(ctx, TR_FORMAT_D32_SFLOAT, 64, 64);
    tr_image *tex = texture(ctx, 64, 64, 1);
    tr_feedback_map *map = NULL;
    TRT_OK(tr_feedback_map_create(ctx, &(tr_feedback_map_desc){TR_FEEDBACK_MIP_REGION_USED, 64, 64, 7, 1, 32, 32},
                                  &map));
    tr_pipeline_desc pd = {.fragment_shader = fs_count, .texture_mask = 1, .feedback_mask = 1, .depth_test = 1,
                           .depth_write = 1};
    tr_pipeline *pl = trt_pipeline(ctx, &pd);
    const float a0[4] = {0.1f, 0.1f, 0, 0}, a1[4] = {0.4f, 0.1f, 0, 0}, a2[4] = {0.1f, 0.4f, 0, 0};
    const float b0[4] = {0.6f, 0.6f, 0, 0}, b1[4] = {0.9f, 0.6f, 0, 0}, b2[4] = {0.6f, 0.9f, 0, 0};
    trt_vertex v[6] = {trt_vpx(0, 0, 0.2f, 64, 64, a0),  trt_vpx(128, 0, 0.2f, 64, 64, a1),
                       trt_vpx(0, 128, 0.2f, 64, 64, a2), trt_vpx(0, 0, 0.8f, 64, 64, b0),
                       trt_vpx(128, 0, 0.8f, 64, 64, b1), trt_vpx(0, 128, 0.8f, 64, 64, b2)};
    trt_begin_color_depth(ctx, rt, ds, 0);
    TRT_OK(tr_cmd_bind_pipeline(ctx, pl));
    TRT_OK(tr_cmd_bind_texture(ctx, 0, tex, NULL));
    TRT_OK(tr_cmd_bind_feedback_map(ctx, 0, map));
    trt_draw(ctx, v, 6);
    tr_pass_stats st;
    TRT_OK(tr_cmd_end_render_pass(ctx, &st));
    cr_expect_eq(st.fragments_shaded, 2u * 64 * 64, "both quads shaded every pixel: %llu",
                 (unsigned long long)st.fragments_shaded);
    cr_expect_eq(st.fragments_lrz_rejected, 0);
    uint8_t used[4];
    TRT_OK(tr_feedback_map_decode(map, 0, 0, used, 2));
    cr_expect(used[0] == 0xFF && used[3] == 0xFF && used[1] == 0 && used[2] == 0, "regions %02x %02x %02x %02x",
              used[0], used[1], used[2], used[3]);
    tr_context_destroy(ctx);
}
