/* Textures sampled inside render passes: a shader's samples equal direct
 * calls on quads built by hand (the block wiring: slots, quads, helper
 * lanes, derivatives), and a textured scene (anisotropic trilinear sRGB,
 * an array texture, a shadow-map compare) renders the same bytes for every
 * thread count, SIMD level, GMEM budget, single bin and LRZ on or off. */
#include "trtest.h"

#include <stdlib.h>
#include <string.h>

enum { W = 96, H = 72 };


static tr_sampler *sampler(tr_context *ctx, const tr_sampler_desc *d)
{
    tr_sampler *s = NULL;
    TRT_OK(tr_sampler_create(ctx, d, &s));
    return s;
}

/* ---- a shader's samples equal direct calls ------------------------------------------------- */

/* Coordinates from the pixel centre, so the test can rebuild them. */
static void coords(float x, float y, float *s, float *t)
{
    *s = x * 0.0131f + y * 0.0023f - 0.3f;
    *t = y * 0.0171f - x * 0.0009f + 0.1f;
}

static void fs_sample_coords(tr_fs_block *b)
{
    float s[TR_FS_LANES], t[TR_FS_LANES];
    for (uint32_t l = 0; l < b->count; l++)
        coords(b->frag_x[l], b->frag_y[l], &s[l], &t[l]);
    tr_fs_texture(b, 3, s, t, b->color[0]);
}

Test(texture_render, shader_samples_equal_direct_calls)
{
    tr_context *ctx = trt_context(2);
    tr_image *rt = trt_image(ctx, TR_FORMAT_R32G32B32A32_SFLOAT, W, H);
    tr_image *tex = trt_random_texture(ctx, TR_FORMAT_R8G8B8A8_SRGB, 64, 32, 1, TR_LEVELS_ALL, 11);
    tr_sampler_desc sd = {.mag_filter = TR_FILTER_LINEAR, .min_filter = TR_FILTER_LINEAR,
                          .mipmap_mode = TR_MIPMAP_LINEAR, .address_v = TR_ADDRESS_MIRRORED_REPEAT,
                          .max_anisotropy = 16};
    tr_sampler *smp = sampler(ctx, &sd);

    tr_pipeline_desc pd = {0};
    pd.fragment_shader = fs_sample_coords;
    pd.texture_mask = 1u << 3;
    tr_pipeline *pl = trt_pipeline(ctx, &pd);
    trt_begin_color(ctx, rt, NULL);
    TRT_OK(tr_cmd_bind_pipeline(ctx, pl));
    TRT_OK(tr_cmd_bind_texture(ctx, 3, tex, smp));
    /* One triangle over the whole target (partial blocks at its edges
     * still shade whole quads). */
    trt_vertex v[3] = {trt_vpx(-1, -1, 0, W, H, NULL), trt_vpx(3 * W, -1, 0, W, H, NULL),
                       trt_vpx(-1, 3 * H, 0, W, H, NULL)};
    trt_draw(ctx, v, 3);
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    float *got = malloc(sizeof(float) * 4 * W * H);
    trt_download(rt, 0, 0, TR_ASPECT_COLOR, got);

    static tr_fs_block b;
    tr_texture_binding slots[TR_MAX_TEXTURES] = {{0}};
    slots[3] = (tr_texture_binding){tex, smp};
    b.textures = slots;
    b.count = 4;
    static float s[TR_FS_LANES], t[TR_FS_LANES], out[4][TR_FS_LANES];
    uint32_t nonzero = 0;
    for (uint32_t i = 0; i < 4 * W * H; i++)
        nonzero += got[i] != 0.0f;
    cr_expect_gt(nonzero, 3 * W * H, "the texture was not sampled");
    uint32_t mismatches = 0;
    for (uint32_t qy = 0; qy < H; qy += 2)
        for (uint32_t qx = 0; qx < W; qx += 2) {
            for (uint32_t l = 0; l < 4; l++)
                coords((float)(qx + (l & 1)) + 0.5f, (float)(qy + (l >> 1)) + 0.5f, &s[l], &t[l]);
            tr_fs_texture(&b, 3, s, t, out);
            for (uint32_t l = 0; l < 4; l++) {
                const float *px = got + 4 * ((qy + (l >> 1)) * W + qx + (l & 1));
                for (int c = 0; c < 4; c++)
                    mismatches += px[c] != out[c][l];
            }
        }
    cr_expect_eq(mismatches, 0u, "%u channel values differ from direct sampling", mismatches);
    free(got);
    tr_context_destroy(ctx);
}

/* ---- a textured scene is identical for every configuration -------------------------------- */

typedef struct cfg {
    uint32_t threads, gmem, ctx_flags, pass_flags;
    tr_simd_level simd;
} cfg;

/* varying 0: (s, t, layer, dref); three slots mixed into colour 0. */
static void fs_scene(tr_fs_block *b)
{
    static _Thread_local float a[4][TR_FS_LANES], c[4][TR_FS_LANES], d[4][TR_FS_LANES], bias[TR_FS_LANES];
    const float *s = b->varyings[0][0], *t = b->varyings[0][1];
    tr_fs_texture(b, 0, s, t, a);
    for (uint32_t l = 0; l < b->count; l++)
        bias[l] = b->varyings[0][3][l] * 2.0f - 1.0f;
    tr_sample_args args = {.s = s, .t = t, .layer = b->varyings[0][2], .bias = bias};
    tr_fs_sample(b, 1, &args, c);
    tr_sample_args sh = {.s = t, .t = s, .dref = b->varyings[0][3]};
    tr_fs_sample(b, 2, &sh, d);
    for (int k = 0; k < 4; k++)
        for (uint32_t l = 0; l < b->count; l++)
            b->color[0][k][l] = 0.5f * a[k][l] + 0.3f * c[k][l] + 0.2f * d[0][l];
}

static uint8_t *render_scene(const cfg *cf)
{
    tr_context_desc cd = {0};
    cd.threads = cf->threads;
    cd.gmem_bytes = cf->gmem;
    cd.simd = cf->simd;
    cd.flags = cf->ctx_flags;
    tr_context *ctx = trt_context_desc(&cd);
    tr_image *rt = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, W, H);
    tr_image *ds = trt_image(ctx, TR_FORMAT_D32_SFLOAT, W, H);
    tr_image *t0 = trt_random_texture(ctx, TR_FORMAT_R8G8B8A8_SRGB, 64, 64, 1, TR_LEVELS_ALL, 1);
    tr_image *t1 = trt_random_texture(ctx, TR_FORMAT_R16G16B16A16_SFLOAT, 32, 16, 3, TR_LEVELS_ALL, 2);
    tr_image *t2 = trt_random_texture(ctx, TR_FORMAT_D32_SFLOAT, 32, 32, 1, 1, 3);
    const tr_sampler_desc s0 = {.mag_filter = TR_FILTER_LINEAR, .min_filter = TR_FILTER_LINEAR,
                                .mipmap_mode = TR_MIPMAP_LINEAR, .max_anisotropy = 16};
    const tr_sampler_desc s1 = {.min_filter = TR_FILTER_LINEAR, .address_u = TR_ADDRESS_MIRRORED_REPEAT,
                                .address_v = TR_ADDRESS_CLAMP_TO_EDGE, .lod_bias = 0.75f, .max_lod = 3.0f};
    const tr_sampler_desc s2 = {.mag_filter = TR_FILTER_LINEAR, .min_filter = TR_FILTER_LINEAR,
                                .address_u = TR_ADDRESS_CLAMP_TO_BORDER, .address_v = TR_ADDRESS_CLAMP_TO_BORDER,
                                .border_color = TR_BORDER_OPAQUE_WHITE, .compare = TR_COMPARE_LESS_OR_EQUAL};
    tr_sampler *smp[3] = {sampler(ctx, &s0), sampler(ctx, &s1), sampler(ctx, &s2)};

    tr_pipeline_desc pd = {0};
    pd.fragment_shader = fs_scene;
    pd.texture_mask = 7;
    pd.depth_test = pd.depth_write = 1;
    tr_pipeline *pl = trt_pipeline(ctx, &pd);

    enum { TRIS = 60 };
    trt_vertex v[3 * TRIS];
    trt_rng rng = {99};
    for (uint32_t i = 0; i < 3 * TRIS; i++) {
        const float w = (float)trt_rand_range(&rng, 0.3, 4.0);
        const float x = (float)trt_rand_range(&rng, -1.3, 1.3), y = (float)trt_rand_range(&rng, -1.3, 1.3);
        const float z = (float)trt_rand_range(&rng, 0.0, 1.0);
        v[i] = (trt_vertex){{x * w, y * w, z * w, w},
                            {(float)trt_rand_range(&rng, -3, 4), (float)trt_rand_range(&rng, -3, 4),
                             (float)trt_rand_range(&rng, -0.5, 3.5), (float)trt_rand_range(&rng, 0, 1)}};
    }
    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.color_count = 1;
    rp.color[0].image = rt;
    rp.color[0].load_op = TR_LOAD_OP_CLEAR;
    rp.depth.image = ds;
    rp.depth.depth_load_op = TR_LOAD_OP_CLEAR;
    rp.depth.clear_depth = 1.0f;
    rp.flags = cf->pass_flags;
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
    TRT_OK(tr_cmd_bind_pipeline(ctx, pl));
    TRT_OK(tr_cmd_bind_texture(ctx, 0, t0, smp[0]));
    TRT_OK(tr_cmd_bind_texture(ctx, 1, t1, smp[1]));
    TRT_OK(tr_cmd_bind_texture(ctx, 2, t2, smp[2]));
    trt_draw(ctx, v, 3 * TRIS / 2);
    TRT_OK(tr_cmd_bind_texture(ctx, 0, t1, smp[0])); /* a rebind between draws */
    trt_draw(ctx, v + 3 * TRIS / 2, 3 * TRIS / 2);
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    uint8_t *px = malloc(W * H * 4);
    trt_download(rt, 0, 0, TR_ASPECT_COLOR, px);
    tr_context_destroy(ctx);
    return px;
}

Test(texture_render, identical_for_every_configuration, .timeout = 300)
{
    const cfg cfgs[] = {
        {1, 0, 0, 0, TR_SIMD_DEFAULT},
        {2, 0, 0, 0, TR_SIMD_DEFAULT},
        {3, 16384, 0, 0, TR_SIMD_DEFAULT},
        {8, 0, 0, 0, TR_SIMD_DEFAULT},
        {1, 0, 0, 0, TR_SIMD_SCALAR},
        {3, 0, 0, 0, TR_SIMD_SCALAR},
        {2, 0, 0, TR_PASS_SINGLE_BIN, TR_SIMD_DEFAULT},
        {2, 0, TR_CONTEXT_NO_LRZ, 0, TR_SIMD_DEFAULT},
    };
    const char *names[] = {"threads 1", "threads 2", "threads 3, 16 KiB", "threads 8", "scalar", "scalar, threads 3",
                           "single bin", "no LRZ"};
    uint8_t *ref = render_scene(&cfgs[0]);
    /* The scene is not trivial: many distinct colours were drawn. */
    uint32_t distinct = 0;
    for (uint32_t i = 1; i < W * H; i++)
        distinct += memcmp(ref + 4 * i, ref + 4 * (i - 1), 4) != 0;
    cr_expect_gt(distinct, W * H / 4, "only %u colour changes", distinct);
    for (size_t k = 1; k < sizeof cfgs / sizeof cfgs[0]; k++) {
        uint8_t *px = render_scene(&cfgs[k]);
        size_t first = 0;
        while (first < (size_t)W * H * 4 && px[first] == ref[first])
            first++;
        cr_expect_eq(first, (size_t)W * H * 4, "%s differs from threads 1 at byte %zu", names[k], first);
        free(px);
    }
    free(ref);
}

/* ---- several contexts rendering at once -------------------------------------------------------- */

#include <pthread.h>

typedef struct job {
    cfg cf;
    uint8_t *out;
} job;

static void *job_run(void *arg)
{
    job *j = arg;
    j->out = render_scene(&j->cf);
    return NULL;
}

/* The textured scene rendered by four contexts at once, on four threads,
 * each with its own thread count and SIMD level, equals the serial image. */
Test(texture_render, concurrent_contexts_are_identical, .timeout = 300)
{
    const cfg serial = {1, 0, 0, 0, TR_SIMD_DEFAULT};
    uint8_t *want = render_scene(&serial);
    job jobs[4] = {{{2, 0, 0, 0, TR_SIMD_DEFAULT}, NULL},
                   {{3, 16384, 0, 0, TR_SIMD_SCALAR}, NULL},
                   {{2, 0, TR_CONTEXT_NO_LRZ, TR_PASS_SINGLE_BIN, TR_SIMD_DEFAULT}, NULL},
                   {{1, 0, 0, 0, TR_SIMD_SCALAR}, NULL}};
    pthread_t th[4];
    for (int i = 0; i < 4; i++)
        cr_assert_eq(pthread_create(&th[i], NULL, job_run, &jobs[i]), 0);
    for (int i = 0; i < 4; i++)
        pthread_join(th[i], NULL);
    for (int i = 0; i < 4; i++) {
        cr_assert_not_null(jobs[i].out);
        cr_expect_arr_eq(jobs[i].out, want, (size_t)W * H * 4, "context %d differs", i);
        free(jobs[i].out);
    }
    free(want);
}
