/* The render pass: output identical for every thread count, GMEM budget,
 * SIMD level and TR_PASS_SINGLE_BIN on a random scene (depth, blending,
 * several attachments, two views); load and store ops; the render area;
 * the GMEM traffic statistics. */
#include "trtest.h"

#include <stdlib.h>
#include <string.h>

/* ---- the scene -------------------------------------------------------------------------------- */

enum { SW = 200, SH = 150, VIEWS = 2 };

typedef struct scene_cfg {
    uint32_t threads, gmem, flags;
    tr_simd_level simd;
    uint32_t align_w, align_h, max_w, max_h; /* 0: defaults */
} scene_cfg;

/* threads, gmem, flags, simd with default bin alignment and size */
#define CFG(t, g, f, s) {(t), (g), (f), (s), 0, 0, 0, 0}

/* varying 0 to colour 0; its square to colour 1 (so the attachments differ) */
static void fs_two(tr_fs_block *b)
{
    for (int c = 0; c < 4; c++)
        for (uint32_t l = 0; l < b->count; l++) {
            float v = b->varyings[0][c][l];
            b->color[0][c][l] = v;
            b->color[1][c][l] = v * v + (float)b->view_index * 0.125f;
        }
}

static void random_tris(trt_rng *rng, trt_vertex *v, uint32_t count, float zlo, float zhi,
                        float size)
{
    for (uint32_t i = 0; i < count; i += 3) {
        float cx = (float)trt_rand_range(rng, -20, SW + 20);
        float cy = (float)trt_rand_range(rng, -20, SH + 20);
        float s = (float)trt_rand_range(rng, 1, size);
        for (uint32_t k = 0; k < 3 && i + k < count; k++) {
            float col[4];
            for (int c = 0; c < 4; c++)
                col[c] = (float)trt_rand_range(rng, 0, 1);
            v[i + k] = trt_vpx(cx + (float)trt_rand_range(rng, -s, s),
                               cy + (float)trt_rand_range(rng, -s, s),
                               (float)trt_rand_range(rng, zlo, zhi), SW, SH, col);
        }
    }
}

/* Renders the scene; returns every byte of every attachment and layer. */
static uint8_t *render_scene(const scene_cfg *cfg, size_t *len, tr_pass_stats *stats)
{
    tr_context_desc cd = {0};
    cd.threads = cfg->threads;
    cd.gmem_bytes = cfg->gmem;
    cd.simd = cfg->simd;
    cd.tile_align_w = cfg->align_w;
    cd.tile_align_h = cfg->align_h;
    cd.tile_max_w = cfg->max_w;
    cd.tile_max_h = cfg->max_h;
    tr_context *ctx = trt_context_desc(&cd);
    tr_image *c0 = trt_image_layers(ctx, TR_FORMAT_R8G8B8A8_UNORM, SW, SH, VIEWS);
    tr_image *c1 = trt_image_layers(ctx, TR_FORMAT_R16G16B16A16_SFLOAT, SW, SH, VIEWS);
    tr_image *ds = trt_image_layers(ctx, TR_FORMAT_D32_SFLOAT, SW, SH, VIEWS);

    tr_pipeline_desc pd = {0};
    pd.fragment_shader = fs_two;
    pd.depth_test = 1;
    pd.depth_write = 1;
    tr_pipeline *opaque = trt_pipeline(ctx, &pd);

    pd.depth_write = 0;
    pd.blend[0].enable = 1;
    pd.blend[0].src_color = TR_BLEND_SRC_ALPHA;
    pd.blend[0].dst_color = TR_BLEND_ONE_MINUS_SRC_ALPHA;
    pd.blend[0].src_alpha = TR_BLEND_ONE;
    pd.blend[0].dst_alpha = TR_BLEND_ONE_MINUS_SRC_ALPHA;
    pd.blend[1].enable = 1;
    pd.blend[1].src_color = pd.blend[1].dst_color = TR_BLEND_ONE;
    pd.blend[1].src_alpha = pd.blend[1].dst_alpha = TR_BLEND_ONE;
    tr_pipeline *blended = trt_pipeline(ctx, &pd);

    pd.topology = TR_TOPOLOGY_TRIANGLE_STRIP;
    pd.cull_mode = TR_CULL_BACK;
    pd.tie_rule = TR_TIE_BOTTOM_LEFT;
    tr_pipeline *strip = trt_pipeline(ctx, &pd);

    tr_pipeline_desc pf = {0};
    pf.fragment_shader = fs_two;
    pf.topology = TR_TOPOLOGY_TRIANGLE_FAN;
    pf.depth_test = 1;
    pf.depth_write = 1;
    pf.depth_compare = TR_COMPARE_LESS_OR_EQUAL;
    pf.blend[1].write_mask = TR_COLOR_MASK_R | TR_COLOR_MASK_B;
    tr_pipeline *fan = trt_pipeline(ctx, &pf);

    tr_pipeline_desc pdis = {0};
    pdis.fragment_shader = trt_fs_discard;
    pdis.fs_flags = TR_FS_MAY_DISCARD;
    pdis.depth_test = 1;
    pdis.depth_write = 1;
    pdis.depth_compare = TR_COMPARE_GREATER_OR_EQUAL;
    tr_pipeline *discard = trt_pipeline(ctx, &pdis);

    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.color_count = 2;
    rp.color[0].image = c0;
    rp.color[0].load_op = TR_LOAD_OP_CLEAR;
    rp.color[0].clear_color[0] = 0.1f;
    rp.color[0].clear_color[3] = 1.0f;
    rp.color[1].image = c1;
    rp.color[1].load_op = TR_LOAD_OP_CLEAR;
    rp.depth.image = ds;
    rp.depth.depth_load_op = TR_LOAD_OP_CLEAR;
    rp.depth.clear_depth = 1.0f;
    rp.view_mask = (1u << VIEWS) - 1;
    rp.flags = cfg->flags;
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));

    trt_rng rng = {2024};
    enum { NV = 3 * 700 };
    trt_vertex *v = malloc(sizeof *v * NV); /* not static: threads render scenes at once */
    uint16_t *idx = malloc(sizeof *idx * 1500);
    cr_assert(v && idx);
    trt_uniforms u;
    memset(&u, 0, sizeof u);
    u.view_offset[1][0] = 0.05f;
    u.view_offset[1][1] = -0.03f;

    /* 1: opaque, depth-tested, some crossing the near plane */
    random_tris(&rng, v, NV, -0.2f, 1.0f, 30);
    TRT_OK(tr_cmd_bind_pipeline(ctx, opaque));
    trt_draw_u(ctx, &u, v, NV);
    /* 2: alpha blended over it, instanced */
    random_tris(&rng, v, 3 * 300, 0.0f, 1.0f, 25);
    TRT_OK(tr_cmd_bind_pipeline(ctx, blended));
    u.vertices = v;
    u.instance_dx = 0.02f;
    TRT_OK(tr_cmd_set_uniforms(ctx, &u, sizeof u));
    TRT_OK(tr_cmd_draw(ctx, 3 * 300, 2, 0, 0));
    u.instance_dx = 0;
    /* 3: a long strip, back faces culled */
    random_tris(&rng, v, 600, 0.1f, 0.9f, 15);
    TRT_OK(tr_cmd_bind_pipeline(ctx, strip));
    trt_draw_u(ctx, &u, v, 600);
    /* 4: a fan */
    random_tris(&rng, v, 200, 0.2f, 0.6f, 80);
    TRT_OK(tr_cmd_bind_pipeline(ctx, fan));
    trt_draw_u(ctx, &u, v, 200);
    /* 5: indexed, reusing vertices out of order */
    random_tris(&rng, v, 900, 0.0f, 1.0f, 40);
    for (int i = 0; i < 1500; i++)
        idx[i] = (uint16_t)(trt_rand_u32(&rng) % 900);
    TRT_OK(tr_cmd_bind_pipeline(ctx, opaque));
    u.vertices = v;
    TRT_OK(tr_cmd_set_uniforms(ctx, &u, sizeof u));
    TRT_OK(tr_cmd_bind_index_buffer(ctx, idx, 1500 * sizeof idx[0], 0, TR_INDEX_U16));
    TRT_OK(tr_cmd_draw_indexed(ctx, 1500, 1, 0, 0, 0));
    /* 6: discarding, GEQUAL */
    random_tris(&rng, v, 3 * 100, 0.3f, 0.7f, 30);
    TRT_OK(tr_cmd_bind_pipeline(ctx, discard));
    u.color[0][0] = 0.9f;
    u.color[0][1] = 0.2f;
    u.color[1][2] = 0.7f;
    trt_draw_u(ctx, &u, v, 3 * 100);

    TRT_OK(tr_cmd_end_render_pass(ctx, stats));
    free(v);
    free(idx);

    size_t n0 = trt_subresource_bytes(c0, TR_ASPECT_DEFAULT);
    size_t n1 = trt_subresource_bytes(c1, TR_ASPECT_DEFAULT);
    size_t nd = trt_subresource_bytes(ds, TR_ASPECT_DEPTH);
    *len = (n0 + n1 + nd) * VIEWS;
    uint8_t *out = malloc(*len), *p = out;
    cr_assert_not_null(out);
    for (uint32_t layer = 0; layer < VIEWS; layer++) {
        trt_download(c0, 0, layer, TR_ASPECT_DEFAULT, p);
        p += n0;
        trt_download(c1, 0, layer, TR_ASPECT_DEFAULT, p);
        p += n1;
        trt_download(ds, 0, layer, TR_ASPECT_DEPTH, p);
        p += nd;
    }
    tr_context_destroy(ctx);
    return out;
}

static void expect_same(const uint8_t *a, const uint8_t *b, size_t n, const char *what)
{
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i]) {
            size_t diffs = 0;
            for (size_t j = i; j < n; j++)
                diffs += a[j] != b[j];
            cr_assert_fail("%s differs from the reference: first at byte %zu (%u vs %u), %zu "
                           "bytes differ (crc %08x vs %08x)",
                           what, i, a[i], b[i], diffs, trt_crc32(a, n, 0), trt_crc32(b, n, 0));
        }
}

Test(pass, identical_for_threads_budgets_and_single_bin, .timeout = 600)
{
    static const scene_cfg cfgs[] = {
        CFG(2, 0, 0, 0),
        CFG(3, 0, 0, 0),
        CFG(8, 0, 0, 0),
        CFG(2, 16 * 1024, 0, 0),
        CFG(3, 64 * 1024, 0, 0),
        CFG(1, 1024 * 1024, 0, 0),
        CFG(1, 0, TR_PASS_SINGLE_BIN, 0),
        CFG(3, 16 * 1024, TR_PASS_SINGLE_BIN, 0),
        CFG(2, 16 * 1024, 0, TR_SIMD_SCALAR),
        CFG(2, 0, 0, TR_SIMD_SSE),
        CFG(2, 0, 0, TR_SIMD_AVX2),
        {3, 0, 0, 0, 64, 32, 128, 64},   /* other alignments, small maximum bins */
        {2, 0, 0, 0, 96, 8, 96, 1024},
        CFG(1, 0, 0, TR_SIMD_SCALAR),
    };
    static const char *const names[] = {
        "threads 2", "threads 3", "threads 8", "16 KiB, threads 2", "64 KiB, threads 3",
        "1 MiB, threads 1", "single bin", "single bin, 16 KiB, threads 3",
        "scalar, 16 KiB", "SSE", "AVX2", "align 64x32, max 128x64", "align 96x8, max 96x1024",
        "scalar, threads 1"};
    scene_cfg ref = CFG(1, 0, 0, 0);
    size_t n_ref, n;
    tr_pass_stats st_ref, st;
    uint8_t *want = render_scene(&ref, &n_ref, &st_ref);
    /* the scene is not trivial: many fragments, blending, rejections */
    cr_assert_gt(st_ref.fragments_rasterized, 50000);
    cr_assert_gt(st_ref.fragments_depth_rejected, 1000);
    cr_assert_gt(st_ref.fragments_discarded, 100);
    cr_assert_gt(st_ref.primitives_clipped, 0);
    cr_assert_gt(st_ref.primitives_culled, 0);
    for (size_t i = 0; i < sizeof cfgs / sizeof cfgs[0]; i++) {
        uint8_t *got = render_scene(&cfgs[i], &n, &st);
        cr_assert_eq(n, n_ref);
        expect_same(got, want, n, names[i]);
        /* work that does not depend on the bins is the same too */
        cr_expect_eq(st.fragments_rasterized, st_ref.fragments_rasterized, "%s", names[i]);
        cr_expect_eq(st.fragments_shaded, st_ref.fragments_shaded, "%s", names[i]);
        cr_expect_eq(st.fragments_depth_rejected, st_ref.fragments_depth_rejected, "%s", names[i]);
        cr_expect_eq(st.fragments_discarded, st_ref.fragments_discarded, "%s", names[i]);
        cr_expect_eq(st.fragments_written, st_ref.fragments_written, "%s", names[i]);
        cr_expect_eq(st.primitives_in, st_ref.primitives_in, "%s", names[i]);
        cr_expect_eq(st.primitives_culled, st_ref.primitives_culled, "%s", names[i]);
        if (cfgs[i].flags & TR_PASS_SINGLE_BIN)
            cr_expect_eq(st.bins, 1, "%s: %u bins", names[i], st.bins);
        free(got);
    }
    free(want);
}

Test(pass, repeated_renders_are_identical)
{
    /* Same context configuration twice: no state leaks between runs. */
    scene_cfg c = CFG(3, 32 * 1024, 0, 0);
    size_t n1, n2;
    uint8_t *a = render_scene(&c, &n1, NULL);
    uint8_t *b = render_scene(&c, &n2, NULL);
    cr_assert_eq(n1, n2);
    expect_same(a, b, n1, "second run");
    free(a);
    free(b);
}

/* ---- a second scene: render area, stencil, LOAD ---------------------------------------------- */

enum { AW = 160, AH = 120 };

static void fs_depth_wave(tr_fs_block *b)
{
    trt_fs_varying(b);
    for (uint32_t l = 0; l < b->count; l++)
        b->depth[l] = b->frag_z[l] * 0.5f + 0.25f * (float)((int)b->frag_x[l] & 7) / 8.0f;
}

static uint8_t *render_area_scene(const scene_cfg *cfg, size_t *len, tr_pass_stats *st)
{
    tr_context_desc cd = {0};
    cd.threads = cfg->threads;
    cd.gmem_bytes = cfg->gmem;
    cd.simd = cfg->simd;
    tr_context *ctx = trt_context_desc(&cd);
    tr_image *col = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, AW, AH);
    tr_image *ds = trt_image(ctx, TR_FORMAT_D32_SFLOAT_S8_UINT, AW, AH);
    uint8_t *init = malloc(AW * AH * 4);
    cr_assert_not_null(init);
    trt_rng rng = {777};
    for (int i = 0; i < AW * AH * 4; i++)
        init[i] = (uint8_t)trt_rand_u32(&rng);
    TRT_OK(tr_image_upload(col, NULL, init, 0));
    tr_subresource ss = {0, 0, TR_ASPECT_STENCIL, 0};
    TRT_OK(tr_image_upload(ds, &ss, init, 0)); /* first AW*AH bytes */
    free(init);

    tr_pipeline_desc pd = {0};
    pd.depth_test = 1;
    pd.depth_write = 1;
    pd.stencil_test = 1;
    pd.stencil_front.compare = TR_COMPARE_NOT_EQUAL;
    pd.stencil_front.compare_mask = 0xF0;
    pd.stencil_front.pass_op = TR_STENCIL_OP_INCREMENT_AND_WRAP;
    pd.stencil_front.fail_op = TR_STENCIL_OP_INVERT;
    pd.stencil_front.depth_fail_op = TR_STENCIL_OP_DECREMENT_AND_CLAMP;
    pd.stencil_back = pd.stencil_front;
    pd.stencil_back.compare = TR_COMPARE_LESS;
    pd.stencil_back.pass_op = TR_STENCIL_OP_REPLACE;
    pd.stencil_back.write_mask = 0x3C;
    tr_pipeline *p0 = trt_pipeline(ctx, &pd);
    pd.blend[0].enable = 1;
    pd.blend[0].src_color = TR_BLEND_DST_COLOR;
    pd.blend[0].dst_color = TR_BLEND_SRC_ALPHA;
    pd.blend[0].color_op = TR_BLEND_OP_REVERSE_SUBTRACT;
    pd.blend[0].src_alpha = TR_BLEND_ONE;
    pd.blend[0].dst_alpha = TR_BLEND_ONE;
    pd.blend[0].alpha_op = TR_BLEND_OP_MAX;
    pd.fragment_shader = fs_depth_wave;
    pd.fs_flags = TR_FS_WRITES_DEPTH;
    pd.depth_compare = TR_COMPARE_GREATER;
    tr_pipeline *p1 = trt_pipeline(ctx, &pd);

    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.color_count = 1;
    rp.color[0].image = col;
    rp.color[0].load_op = TR_LOAD_OP_LOAD;
    rp.depth.image = ds;
    rp.depth.depth_load_op = TR_LOAD_OP_CLEAR;
    rp.depth.clear_depth = 0.5f;
    rp.depth.stencil_load_op = TR_LOAD_OP_LOAD;
    rp.render_area = (tr_rect){17, 9, 121, 97};
    rp.flags = cfg->flags;
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
    tr_viewport vp = {0, 0, AW, AH, 0, 1};
    TRT_OK(tr_cmd_set_viewport(ctx, &vp));
    TRT_OK(tr_cmd_set_stencil_reference(ctx, 0x5A, 0xA5));
    const float bc[4] = {0.25f, 0.5f, 0.75f, 1.0f};
    TRT_OK(tr_cmd_set_blend_constants(ctx, bc));

    enum { N = 3 * 500 };
    trt_vertex *v = malloc(sizeof *v * N);
    cr_assert_not_null(v);
    for (int i = 0; i < N; i += 3) {
        float cx = (float)trt_rand_range(&rng, -10, AW + 10), cy = (float)trt_rand_range(&rng, -10, AH + 10);
        for (int k = 0; k < 3; k++) {
            float c[4];
            for (int j = 0; j < 4; j++)
                c[j] = (float)trt_rand_range(&rng, -0.2, 1.2);
            v[i + k] = trt_vpx(cx + (float)trt_rand_range(&rng, -25, 25),
                               cy + (float)trt_rand_range(&rng, -25, 25),
                               (float)trt_rand_range(&rng, 0, 1), AW, AH, c);
        }
    }
    TRT_OK(tr_cmd_bind_pipeline(ctx, p0));
    trt_draw(ctx, v, N / 2);
    TRT_OK(tr_cmd_bind_pipeline(ctx, p1));
    tr_rect sc = {30, 20, 90, 70};
    TRT_OK(tr_cmd_set_scissor(ctx, &sc));
    trt_draw(ctx, v + N / 2, N / 2);
    TRT_OK(tr_cmd_end_render_pass(ctx, st));
    free(v);

    *len = AW * AH * (4 + 4 + 1);
    uint8_t *out = malloc(*len);
    cr_assert_not_null(out);
    trt_download(col, 0, 0, TR_ASPECT_DEFAULT, out);
    trt_download(ds, 0, 0, TR_ASPECT_DEPTH, out + AW * AH * 4);
    trt_download(ds, 0, 0, TR_ASPECT_STENCIL, out + AW * AH * 8);
    tr_context_destroy(ctx);
    return out;
}

Test(pass, identical_with_render_area_stencil_and_load)
{
    static const scene_cfg cfgs[] = {
        CFG(2, 0, 0, 0),
        CFG(3, 32 * 1024, 0, 0),
        CFG(8, 48 * 1024, 0, 0),
        CFG(1, 0, TR_PASS_SINGLE_BIN, 0),
        CFG(2, 32 * 1024, 0, TR_SIMD_SCALAR),
    };
    scene_cfg ref = CFG(1, 0, 0, 0);
    size_t n_ref, n;
    tr_pass_stats st;
    uint8_t *want = render_area_scene(&ref, &n_ref, &st);
    cr_assert_gt(st.fragments_stencil_rejected, 1000);
    cr_assert_gt(st.fragments_depth_rejected, 1000);
    cr_assert_gt(st.fragments_written, 1000);
    for (size_t i = 0; i < sizeof cfgs / sizeof cfgs[0]; i++) {
        uint8_t *got = render_area_scene(&cfgs[i], &n, NULL);
        char what[64];
        snprintf(what, sizeof what, "config %zu", i);
        expect_same(got, want, n, what);
        free(got);
    }
    free(want);
}

/* ---- contexts used from several threads at once ------------------------------------------------- */

#include <pthread.h>

typedef struct job {
    scene_cfg cfg;
    uint8_t *out;
    size_t len;
} job;

static void *job_run(void *arg)
{
    job *j = (job *)arg;
    j->out = render_scene(&j->cfg, &j->len, NULL);
    return NULL;
}

Test(pass, independent_contexts_on_parallel_threads)
{
    scene_cfg serial = CFG(1, 0, 0, 0);
    size_t n_ref;
    uint8_t *want = render_scene(&serial, &n_ref, NULL);
    job jobs[3] = {{CFG(2, 0, 0, 0), NULL, 0}, {CFG(1, 16 * 1024, 0, 0), NULL, 0},
                   {CFG(2, 0, TR_PASS_SINGLE_BIN, 0), NULL, 0}};
    pthread_t th[3];
    for (int i = 0; i < 3; i++)
        cr_assert_eq(pthread_create(&th[i], NULL, job_run, &jobs[i]), 0);
    for (int i = 0; i < 3; i++)
        pthread_join(th[i], NULL);
    for (int i = 0; i < 3; i++) {
        cr_assert_not_null(jobs[i].out);
        cr_assert_eq(jobs[i].len, n_ref);
        expect_same(jobs[i].out, want, n_ref, "parallel context");
        free(jobs[i].out);
    }
    free(want);
}

/* ---- load and store ops ----------------------------------------------------------------------- */

enum { LW = 64, LH = 64 };

static void pattern(uint8_t *p, size_t n, uint32_t seed)
{
    trt_rng r = {seed};
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)trt_rand_u32(&r);
}

/* Draws the triangle (8,8),(40,8),(8,40) in colour (1, 0.5, 0, 1). */
static void draw_small_tri(tr_context *ctx)
{
    static const float col[4] = {1.0f, 0.5f, 0.0f, 1.0f}; /* 255, 128 (127.5: tie), 0, 255 */
    trt_vertex v[3] = {trt_vpx(8, 8, 0.5f, LW, LH, col), trt_vpx(40, 8, 0.5f, LW, LH, col),
                       trt_vpx(8, 40, 0.5f, LW, LH, col)};
    trt_draw(ctx, v, 3);
}

static int in_small_tri(int x, int y)
{
    /* centres with (x+.5) >= 8, (y+.5) >= 8 and x + y + 1 < 48 */
    return x >= 8 && y >= 8 && x + y < 47;
}

static void check_small_tri_pixel(const uint8_t *px, int x, int y)
{
    const uint8_t *p = &px[(y * LW + x) * 4];
    cr_assert_eq(p[0], 255, "(%d,%d)", x, y);
    cr_assert(p[1] == 127 || p[1] == 128, "(%d,%d) g = %u", x, y, p[1]);
    cr_assert_eq(p[2], 0, "(%d,%d)", x, y);
    cr_assert_eq(p[3], 255, "(%d,%d)", x, y);
}

static void load_store_pass(tr_context *ctx, tr_image *img, tr_load_op load, tr_store_op store,
                            const tr_rect *area, int full_screen)
{
    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.color_count = 1;
    rp.color[0].image = img;
    rp.color[0].load_op = load;
    rp.color[0].store_op = store;
    rp.color[0].clear_color[2] = 1.0f; /* (0, 0, 255, 0) */
    if (area)
        rp.render_area = *area;
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
    TRT_OK(tr_cmd_bind_pipeline(ctx, trt_pipeline(ctx, NULL)));
    /* begin sets the viewport to the render area; draw in framebuffer
     * coordinates and let the scissor (= render area) cut */
    tr_viewport vp = {0, 0, LW, LH, 0, 1};
    TRT_OK(tr_cmd_set_viewport(ctx, &vp));
    if (full_screen) {
        static const float col[4] = {0.2f, 0.4f, 0.6f, 0.8f};
        trt_vertex v[6] = {
            trt_vpx(0, 0, 0.5f, LW, LH, col), trt_vpx(LW, 0, 0.5f, LW, LH, col),
            trt_vpx(LW, LH, 0.5f, LW, LH, col), trt_vpx(0, 0, 0.5f, LW, LH, col),
            trt_vpx(LW, LH, 0.5f, LW, LH, col), trt_vpx(0, LH, 0.5f, LW, LH, col),
        };
        trt_draw(ctx, v, 6);
    } else {
        draw_small_tri(ctx);
    }
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
}

Test(pass, load_op_load_keeps_previous_content)
{
    for (uint32_t gmem = 0; gmem <= 16 * 1024; gmem += 16 * 1024) {
        tr_context_desc cd = {0};
        cd.threads = 2;
        cd.gmem_bytes = gmem;
        tr_context *ctx = trt_context_desc(&cd);
        tr_image *img = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, LW, LH);
        static uint8_t before[LW * LH * 4], px[LW * LH * 4];
        pattern(before, sizeof before, 1);
        TRT_OK(tr_image_upload(img, NULL, before, 0));
        load_store_pass(ctx, img, TR_LOAD_OP_LOAD, TR_STORE_OP_STORE, NULL, 0);
        trt_download(img, 0, 0, TR_ASPECT_DEFAULT, px);
        for (int y = 0; y < LH; y++)
            for (int x = 0; x < LW; x++) {
                if (in_small_tri(x, y))
                    check_small_tri_pixel(px, x, y);
                else
                    cr_assert(!memcmp(&px[(y * LW + x) * 4], &before[(y * LW + x) * 4], 4),
                              "gmem %u: (%d,%d) changed", gmem, x, y);
            }
        tr_context_destroy(ctx);
    }
}

Test(pass, load_op_clear_clears)
{
    tr_context *ctx = trt_context(2);
    tr_image *img = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, LW, LH);
    static uint8_t before[LW * LH * 4], px[LW * LH * 4];
    pattern(before, sizeof before, 2);
    TRT_OK(tr_image_upload(img, NULL, before, 0));
    load_store_pass(ctx, img, TR_LOAD_OP_CLEAR, TR_STORE_OP_STORE, NULL, 0);
    trt_download(img, 0, 0, TR_ASPECT_DEFAULT, px);
    for (int y = 0; y < LH; y++)
        for (int x = 0; x < LW; x++) {
            if (in_small_tri(x, y)) {
                check_small_tri_pixel(px, x, y);
            } else {
                static const uint8_t clear[4] = {0, 0, 255, 0};
                cr_assert(!memcmp(&px[(y * LW + x) * 4], clear, 4), "(%d,%d) not cleared", x, y);
            }
        }
    tr_context_destroy(ctx);
}

Test(pass, load_op_dont_care_with_full_coverage)
{
    /* DONT_CARE + STORE: undefined where nothing is drawn (must not crash),
     * exact where a full-screen draw covers everything. */
    tr_context *ctx = trt_context(2);
    tr_image *img = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, LW, LH);
    static uint8_t px[LW * LH * 4];
    load_store_pass(ctx, img, TR_LOAD_OP_DONT_CARE, TR_STORE_OP_STORE, NULL, 0);
    load_store_pass(ctx, img, TR_LOAD_OP_DONT_CARE, TR_STORE_OP_STORE, NULL, 1);
    trt_download(img, 0, 0, TR_ASPECT_DEFAULT, px);
    static const uint8_t want[4] = {51, 102, 153, 204};
    for (int i = 0; i < LW * LH; i++)
        cr_assert(!memcmp(&px[i * 4], want, 4), "pixel %d", i);
    tr_context_destroy(ctx);
}

Test(pass, store_op_dont_care_leaves_image_untouched)
{
    tr_context *ctx = trt_context(2);
    tr_image *img = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, LW, LH);
    tr_image *depth = trt_image(ctx, TR_FORMAT_D32_SFLOAT, LW, LH);
    static uint8_t before[LW * LH * 4], px[LW * LH * 4];
    static float dbefore[LW * LH], dpx[LW * LH];
    pattern(before, sizeof before, 3);
    for (int i = 0; i < LW * LH; i++)
        dbefore[i] = (float)i / (LW * LH);
    TRT_OK(tr_image_upload(img, NULL, before, 0));
    TRT_OK(tr_image_upload(depth, NULL, dbefore, 0));
    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.color_count = 1;
    rp.color[0].image = img;
    rp.color[0].load_op = TR_LOAD_OP_CLEAR;
    rp.color[0].store_op = TR_STORE_OP_DONT_CARE;
    rp.depth.image = depth;
    rp.depth.depth_load_op = TR_LOAD_OP_CLEAR;
    rp.depth.depth_store_op = TR_STORE_OP_DONT_CARE;
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
    tr_pipeline_desc pd = {0};
    pd.depth_test = 1;
    pd.depth_write = 1;
    TRT_OK(tr_cmd_bind_pipeline(ctx, trt_pipeline(ctx, &pd)));
    draw_small_tri(ctx);
    tr_pass_stats st;
    TRT_OK(tr_cmd_end_render_pass(ctx, &st));
    trt_download(img, 0, 0, TR_ASPECT_DEFAULT, px);
    trt_download(depth, 0, 0, TR_ASPECT_DEPTH, dpx);
    cr_assert(!memcmp(px, before, sizeof px), "colour changed by a DONT_CARE store");
    cr_assert(!memcmp(dpx, dbefore, sizeof dpx), "depth changed by a DONT_CARE store");
    cr_expect_eq(st.gmem_bytes_stored, 0);
    tr_context_destroy(ctx);
}

Test(pass, render_area_restricts_writes)
{
    static const tr_rect areas[] = {{13, 7, 30, 41}, {0, 0, 64, 64}, {40, 40, 24, 24},
                                    {31, 2, 1, 1}};
    for (size_t a = 0; a < sizeof areas / sizeof areas[0]; a++)
        for (uint32_t gmem = 0; gmem <= 16 * 1024; gmem += 16 * 1024) {
            tr_context_desc cd = {0};
            cd.threads = 3;
            cd.gmem_bytes = gmem;
            tr_context *ctx = trt_context_desc(&cd);
            tr_image *img = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, LW, LH);
            static uint8_t before[LW * LH * 4], px[LW * LH * 4];
            pattern(before, sizeof before, 4);
            TRT_OK(tr_image_upload(img, NULL, before, 0));
            load_store_pass(ctx, img, TR_LOAD_OP_CLEAR, TR_STORE_OP_STORE, &areas[a], 0);
            trt_download(img, 0, 0, TR_ASPECT_DEFAULT, px);
            const tr_rect *r = &areas[a];
            for (int y = 0; y < LH; y++)
                for (int x = 0; x < LW; x++) {
                    int inside = x >= r->x && x < r->x + (int)r->width && y >= r->y &&
                                 y < r->y + (int)r->height;
                    const uint8_t *p = &px[(y * LW + x) * 4];
                    if (!inside) {
                        cr_assert(!memcmp(p, &before[(y * LW + x) * 4], 4),
                                  "area %zu gmem %u: (%d,%d) outside the render area changed", a,
                                  gmem, x, y);
                    } else if (in_small_tri(x, y)) {
                        check_small_tri_pixel(px, x, y);
                    } else {
                        static const uint8_t clear[4] = {0, 0, 255, 0};
                        cr_assert(!memcmp(p, clear, 4), "area %zu: (%d,%d) not cleared", a, x, y);
                    }
                }
            tr_context_destroy(ctx);
        }
}

/* ---- statistics --------------------------------------------------------------------------------- */

typedef struct gmem_case {
    tr_format depth_format;
    tr_load_op color_load, depth_load, stencil_load;
    tr_store_op color_store, depth_store, stencil_store;
    uint32_t gmem;
    tr_rect area;
    uint32_t views;
} gmem_case;

static tr_pass_stats gmem_pass(const gmem_case *c)
{
    tr_context_desc cd = {0};
    cd.threads = 2;
    cd.gmem_bytes = c->gmem;
    tr_context *ctx = trt_context_desc(&cd);
    uint32_t views = c->views ? c->views : 1;
    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.color_count = 1;
    rp.color[0].image = trt_image_layers(ctx, TR_FORMAT_R8G8B8A8_UNORM, LW, LH, views);
    rp.color[0].load_op = c->color_load;
    rp.color[0].store_op = c->color_store;
    if (c->depth_format) {
        rp.depth.image = trt_image_layers(ctx, c->depth_format, LW, LH, views);
        rp.depth.depth_load_op = c->depth_load;
        rp.depth.stencil_load_op = c->stencil_load;
        rp.depth.depth_store_op = c->depth_store;
        rp.depth.stencil_store_op = c->stencil_store;
        rp.depth.clear_depth = 1.0f;
    }
    rp.render_area = c->area;
    rp.view_mask = views > 1 ? (1u << views) - 1 : 0;
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
    TRT_OK(tr_cmd_bind_pipeline(ctx, trt_pipeline(ctx, NULL)));
    draw_small_tri(ctx);
    tr_pass_stats st;
    TRT_OK(tr_cmd_end_render_pass(ctx, &st));
    tr_context_destroy(ctx);
    return st;
}

#define EXPECT_BYTES(st, l, c, s, what)                                                            \
    do {                                                                                           \
        cr_expect_eq((st).gmem_bytes_loaded, (uint64_t)(l), "%s: loaded %llu, want %llu", what,    \
                     (unsigned long long)(st).gmem_bytes_loaded, (unsigned long long)(l));         \
        cr_expect_eq((st).gmem_bytes_cleared, (uint64_t)(c), "%s: cleared %llu, want %llu", what,  \
                     (unsigned long long)(st).gmem_bytes_cleared, (unsigned long long)(c));        \
        cr_expect_eq((st).gmem_bytes_stored, (uint64_t)(s), "%s: stored %llu, want %llu", what,    \
                     (unsigned long long)(st).gmem_bytes_stored, (unsigned long long)(s));         \
    } while (0)

Test(pass, gmem_traffic_statistics)
{
    const uint64_t px = LW * LH;
    for (uint32_t gmem = 0; gmem <= 32 * 1024; gmem += 32 * 1024) {
        gmem_case c;
        memset(&c, 0, sizeof c);
        c.gmem = gmem;
        /* RGBA8 + D32, CLEAR/STORE colour, CLEAR/DONT_CARE depth */
        c.depth_format = TR_FORMAT_D32_SFLOAT;
        c.color_load = TR_LOAD_OP_CLEAR;
        c.depth_load = TR_LOAD_OP_CLEAR;
        c.depth_store = TR_STORE_OP_DONT_CARE;
        tr_pass_stats st = gmem_pass(&c);
        EXPECT_BYTES(st, 0, px * 8, px * 4, "clear/store + clear/dont-care");
        /* depth stored too */
        c.depth_store = TR_STORE_OP_STORE;
        st = gmem_pass(&c);
        EXPECT_BYTES(st, 0, px * 8, px * 8, "clear/store both");
        /* colour loaded, depth cleared and dropped */
        c.color_load = TR_LOAD_OP_LOAD;
        c.depth_store = TR_STORE_OP_DONT_CARE;
        st = gmem_pass(&c);
        EXPECT_BYTES(st, px * 4, px * 4, px * 4, "load colour");
        /* DONT_CARE loads move nothing */
        c.color_load = TR_LOAD_OP_DONT_CARE;
        c.depth_load = TR_LOAD_OP_DONT_CARE;
        st = gmem_pass(&c);
        EXPECT_BYTES(st, 0, 0, px * 4, "dont-care loads");
        /* D32S8: depth 4 + stencil 1 bytes per pixel */
        c.depth_format = TR_FORMAT_D32_SFLOAT_S8_UINT;
        c.color_load = TR_LOAD_OP_CLEAR;
        c.depth_load = TR_LOAD_OP_CLEAR;
        c.stencil_load = TR_LOAD_OP_LOAD;
        c.color_store = TR_STORE_OP_DONT_CARE;
        c.depth_store = TR_STORE_OP_DONT_CARE;
        c.stencil_store = TR_STORE_OP_STORE;
        st = gmem_pass(&c);
        EXPECT_BYTES(st, px * 1, px * 8, px * 1, "D32S8, stencil load/store");
        /* colour only, no depth attachment */
        memset(&c, 0, sizeof c);
        c.gmem = gmem;
        c.color_load = TR_LOAD_OP_CLEAR;
        st = gmem_pass(&c);
        EXPECT_BYTES(st, 0, px * 4, px * 4, "colour only");
        /* render area: only its pixels move */
        c.area = (tr_rect){8, 8, 40, 24};
        c.color_load = TR_LOAD_OP_LOAD;
        st = gmem_pass(&c);
        EXPECT_BYTES(st, 40 * 24 * 4, 0, 40 * 24 * 4, "render area 40x24");
        /* two views: twice the bytes */
        memset(&c, 0, sizeof c);
        c.gmem = gmem;
        c.views = 2;
        c.color_load = TR_LOAD_OP_CLEAR;
        c.depth_format = TR_FORMAT_D32_SFLOAT;
        c.depth_load = TR_LOAD_OP_LOAD;
        st = gmem_pass(&c);
        EXPECT_BYTES(st, 2 * px * 4, 2 * px * 4, 2 * px * 8, "two views");
    }
}

Test(pass, fragment_statistics_for_one_triangle)
{
    /* (8,8),(40,8),(8,40): centres with x, y >= 8 and x + y < 47:
     * sum_{s=0}^{30} (s + 1) = 31 * 32 / 2 = 496 pixels. */
    gmem_case c;
    memset(&c, 0, sizeof c);
    c.color_load = TR_LOAD_OP_CLEAR;
    for (uint32_t gmem = 0; gmem <= 16 * 1024; gmem += 16 * 1024) {
        c.gmem = gmem;
        tr_pass_stats st = gmem_pass(&c);
        cr_expect_eq(st.fragments_rasterized, 496, "rasterized %llu",
                     (unsigned long long)st.fragments_rasterized);
        cr_expect_eq(st.fragments_shaded, 496);
        cr_expect_eq(st.fragments_written, 496);
        cr_expect_eq(st.fragments_depth_rejected, 0);
        cr_expect_eq(st.draws, 1);
        cr_expect_eq(st.primitives_in, 1);
        cr_expect_eq(st.primitives_culled, 0);
        cr_expect_eq(st.primitives_clipped, 0);
        cr_expect_eq(st.primitives_binned, 1);
        cr_expect_geq(st.bin_primitive_refs, 1);
        cr_expect_eq(st.layout.bins_x * st.layout.bins_y >= st.bins, 1);
    }
    /* with two views everything doubles */
    c.views = 2;
    tr_pass_stats st = gmem_pass(&c);
    cr_expect_eq(st.fragments_rasterized, 2 * 496);
    cr_expect_eq(st.primitives_in, 2);
}

/* ---- a single bin over an odd render area -------------------------------------------------- */

/* TR_PASS_SINGLE_BIN with a render area of odd height (and a tile of a
 * multiple of 64 bytes, so no alignment padding hides an overrun): the one
 * bin is still made of whole 8x8 blocks (fuzz_api found that the last
 * row's quads read a row past a tile buffer of the area's exact size), and
 * the image equals the binned one. */
static void odd_area(uint32_t flags, uint8_t *px, uint32_t w, uint32_t h)
{
    tr_context *ctx = trt_context(2);
    tr_image *img = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, w, h);
    tr_pipeline_desc pd = {0};
    tr_pipeline *opaque = trt_pipeline(ctx, &pd);
    pd.blend[0].enable = 1;
    pd.blend[0].src_color = TR_BLEND_SRC_ALPHA;
    pd.blend[0].dst_color = TR_BLEND_ONE_MINUS_SRC_ALPHA;
    tr_pipeline *pl = trt_pipeline(ctx, &pd);
    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.color_count = 1;
    rp.color[0].image = img;
    rp.color[0].load_op = TR_LOAD_OP_CLEAR;
    rp.color[0].clear_color[1] = 0.5f;
    rp.render_area = (tr_rect){0, 0, w, h - 8}; /* 48 x 61: the last row is half a quad */
    rp.flags = flags;
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
    TRT_OK(tr_cmd_bind_pipeline(ctx, pl));
    const float c[4] = {1.0f, 0.25f, 0.5f, 0.5f};
    trt_vertex v[6] = {trt_vpx(-5, -5, 0.5f, w, h, c), trt_vpx((float)w + 9, -3, 0.5f, w, h, c),
                       trt_vpx(-2, (float)h + 9, 0.5f, w, h, c), trt_vpx((float)w + 9, -3, 0.5f, w, h, c),
                       trt_vpx((float)w + 7, (float)h + 9, 0.5f, w, h, c), trt_vpx(-2, (float)h + 9, 0.5f, w, h, c)};
    TRT_OK(tr_cmd_bind_pipeline(ctx, opaque)); /* the opaque path, then the blending one */
    trt_draw(ctx, v, 6);
    TRT_OK(tr_cmd_bind_pipeline(ctx, pl));
    trt_draw(ctx, v, 6);
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    trt_download(img, 0, 0, TR_ASPECT_COLOR, px);
    tr_context_destroy(ctx);
}

Test(pass, single_bin_over_an_odd_area)
{
    enum { OW = 48, OH = 69 }; /* 48 x 61 x 4 bytes = 183 x 64 */
    static uint8_t single[OW * OH * 4], binned[OW * OH * 4];
    odd_area(TR_PASS_SINGLE_BIN, single, OW, OH);
    odd_area(0, binned, OW, OH);
    expect_same(single, binned, sizeof single, "single bin over an odd area");
    /* inside the area: blended; below it: untouched (zero) */
    cr_expect_eq(single[(60 * OW + 47) * 4 + 0], 255); /* 1 over 1: blending keeps 255 */
    cr_expect_eq(single[((OH - 1) * OW + 1) * 4 + 1], 0);
}
