/* Allocation failure, everywhere: a scene (context, images, mip chain,
 * sampler, pipelines, a render pass with LRZ, textures, blending and a
 * second pass) is run once for every allocation it makes, with an allocator
 * that fails exactly that one.  Every run must either report
 * TR_ERROR_OUT_OF_MEMORY from the call that could not allocate (and from
 * nothing before it), or succeed with the right image; it must not crash
 * or leak, and the same context must then render the scene correctly. */
#define _POSIX_C_SOURCE 200809L
#include "trtest.h"

#include <stdlib.h>
#include <string.h>

enum { W = 80, H = 56 };

/* Fails allocation number `fail_at` (0-based), counting from `count`;
 * -1 fails nothing.  Atomic: bins render on several threads. */
typedef struct counting_alloc {
    long count;
    long fail_at;
    long live;
} counting_alloc;

static void *ca_alloc(void *user, size_t size, size_t align)
{
    counting_alloc *c = user;
    const long n = __atomic_fetch_add(&c->count, 1, __ATOMIC_RELAXED);
    if (n == __atomic_load_n(&c->fail_at, __ATOMIC_RELAXED))
        return NULL;
    void *p = NULL;
    if (posix_memalign(&p, align < sizeof(void *) ? sizeof(void *) : align, size ? size : 1) != 0)
        return NULL;
    __atomic_fetch_add(&c->live, 1, __ATOMIC_RELAXED);
    return p;
}

static void ca_free(void *user, void *ptr)
{
    counting_alloc *c = user;
    if (ptr)
        __atomic_fetch_sub(&c->live, 1, __ATOMIC_RELAXED);
    free(ptr);
}

static void fs_textured(tr_fs_block *b)
{
    static _Thread_local float t[4][TR_FS_LANES];
    tr_fs_texture(b, 0, b->varyings[0][0], b->varyings[0][1], t);
    for (int c = 0; c < 4; c++)
        for (uint32_t l = 0; l < b->count; l++)
            b->color[0][c][l] = t[c][l] * b->varyings[0][c][l] + 0.25f * b->varyings[0][3 - c][l];
}

/* The results of one run: the first error and the call that returned it. */
typedef struct run_result {
    tr_result first;
    const char *where;
} run_result;

#define STEP(call)                                                                                 \
    do {                                                                                           \
        tr_result r_ = (call);                                                                     \
        if (r_ != TR_OK && res.first == TR_OK) {                                                   \
            res.first = r_;                                                                        \
            res.where = #call;                                                                     \
        }                                                                                          \
    } while (0)

/* Records and renders the scene on ctx; the colour image's bytes go to px
 * (zeros if it could not be made). */
static run_result scene(tr_context *ctx, uint8_t *px)
{
    run_result res = {TR_OK, NULL};
    memset(px, 0, W * H * 4);
    tr_image *rt = NULL, *ds = NULL, *tex = NULL;
    tr_sampler *smp = NULL;
    tr_pipeline *opaque = NULL, *blend = NULL;
    STEP(tr_image_create(ctx, &(tr_image_desc){TR_FORMAT_R8G8B8A8_SRGB, W, H, 1, 1, 0, 0}, &rt));
    STEP(tr_image_create(ctx, &(tr_image_desc){TR_FORMAT_D32_SFLOAT, W, H, 1, 1, 0, 0}, &ds));
    STEP(tr_image_create(ctx, &(tr_image_desc){TR_FORMAT_R8G8B8A8_UNORM, 16, 16, 1, TR_LEVELS_ALL, 0, 0}, &tex));
    if (tex) {
        uint8_t texels[16 * 16 * 4];
        for (int i = 0; i < 16 * 16 * 4; i++)
            texels[i] = (uint8_t)(i * 53 + 7);
        STEP(tr_image_upload(tex, NULL, texels, 0));
        STEP(tr_image_generate_mips(tex));
    }
    const tr_sampler_desc sd = {.mag_filter = TR_FILTER_LINEAR, .min_filter = TR_FILTER_LINEAR,
                                .mipmap_mode = TR_MIPMAP_LINEAR, .max_anisotropy = 4};
    STEP(tr_sampler_create(ctx, &sd, &smp));
    tr_pipeline_desc pd = {0};
    pd.vertex_shader = trt_vs;
    pd.fragment_shader = fs_textured;
    pd.varying_count = 1;
    pd.texture_mask = 1;
    pd.depth_test = pd.depth_write = 1;
    STEP(tr_pipeline_create(ctx, &pd, &opaque));
    pd.depth_write = 0;
    pd.blend[0] = (tr_blend_state){1, TR_BLEND_SRC_ALPHA, TR_BLEND_ONE_MINUS_SRC_ALPHA, TR_BLEND_OP_ADD,
                                   TR_BLEND_ONE, TR_BLEND_ONE_MINUS_SRC_ALPHA, TR_BLEND_OP_ADD, 0};
    STEP(tr_pipeline_create(ctx, &pd, &blend));
    if (res.first == TR_OK) {
        /* Two passes: the second loads the first's colour and depth. */
        trt_vertex v[3 * 24];
        trt_rng rng = {5};
        for (int i = 0; i < 3 * 24; i++) {
            float col[4];
            for (int c = 0; c < 4; c++)
                col[c] = (float)trt_rand_range(&rng, -0.5, 2.0);
            v[i] = trt_vpx((float)trt_rand_range(&rng, -10, W + 10), (float)trt_rand_range(&rng, -10, H + 10),
                           (float)trt_rand_range(&rng, 0, 1), W, H, col);
        }
        for (int pass = 0; pass < 2; pass++) {
            tr_render_pass_desc rp;
            memset(&rp, 0, sizeof rp);
            rp.color_count = 1;
            rp.color[0].image = rt;
            rp.color[0].load_op = pass ? TR_LOAD_OP_LOAD : TR_LOAD_OP_CLEAR;
            rp.depth.image = ds;
            rp.depth.depth_load_op = pass ? TR_LOAD_OP_LOAD : TR_LOAD_OP_CLEAR;
            rp.depth.clear_depth = 1.0f;
            tr_result begun = tr_cmd_begin_render_pass(ctx, &rp);
            STEP(begun);
            if (begun != TR_OK)
                break;
            trt_uniforms u;
            memset(&u, 0, sizeof u);
            u.vertices = v + pass * 36;
            STEP(tr_cmd_bind_texture(ctx, 0, tex, smp));
            STEP(tr_cmd_bind_pipeline(ctx, opaque));
            STEP(tr_cmd_set_uniforms(ctx, &u, sizeof u));
            STEP(tr_cmd_draw(ctx, 24, 1, 0, 0));
            STEP(tr_cmd_bind_pipeline(ctx, blend));
            STEP(tr_cmd_draw(ctx, 12, 1, 24, 0));
            STEP(tr_cmd_end_render_pass(ctx, NULL)); /* always ended, even after a failure */
        }
        if (res.first == TR_OK)
            STEP(tr_image_download(rt, NULL, px, 0));
    }
    tr_pipeline_destroy(blend);
    tr_pipeline_destroy(opaque);
    tr_sampler_destroy(smp);
    tr_image_destroy(tex);
    tr_image_destroy(ds);
    tr_image_destroy(rt);
    return res;
}

static tr_context *make_context(counting_alloc *ca)
{
    tr_context_desc d = {0};
    d.threads = 2;
    d.gmem_bytes = 16384; /* several bins and pipes */
    d.allocator = (tr_allocator){ca_alloc, ca_free, ca};
    tr_context *ctx = NULL;
    tr_context_create(&d, &ctx);
    return ctx;
}

Test(alloc_failure, every_allocation_of_a_scene, .timeout = 600)
{
    uint8_t ref[W * H * 4], px[W * H * 4];
    counting_alloc ca = {0, -1, 0};
    tr_context *ctx = make_context(&ca);
    cr_assert_not_null(ctx);
    run_result r = scene(ctx, ref);
    cr_assert_eq(r.first, TR_OK, "%s: %s", r.where ? r.where : "", tr_context_last_error(ctx));
    tr_context_destroy(ctx);
    const long total = ca.count;
    cr_assert_eq(ca.live, 0);
    cr_assert_gt(total, 20, "only %ld allocations", total);
    /* The scene draws something. */
    uint32_t lit = 0;
    for (int i = 0; i < W * H; i++)
        lit += ref[4 * i] | ref[4 * i + 1] | ref[4 * i + 2] ? 1 : 0;
    cr_assert_gt(lit, W * H / 3);

    uint32_t failures_reported = 0;
    for (long n = 0; n < total; n++) {
        counting_alloc c = {0, n, 0};
        tr_context *x = make_context(&c);
        if (!x) {
            cr_expect_eq(n, c.count - 1, "context creation failed at allocation %ld but counted %ld", n, c.count);
            cr_expect_eq(c.live, 0, "fail at %ld: context creation leaked %ld", n, c.live);
            failures_reported++;
            continue;
        }
        r = scene(x, px);
        if (r.first != TR_OK) {
            cr_expect_eq(r.first, TR_ERROR_OUT_OF_MEMORY, "fail at %ld: %s returned %s (%s)", n, r.where,
                         tr_result_string(r.first), tr_context_last_error(x));
            failures_reported++;
        } else {
            /* The allocation that failed was one the library could do without. */
            cr_expect_arr_eq(px, ref, sizeof px, "fail at %ld: no error, but a different image", n);
        }
        /* The context is still usable: the whole scene renders right. */
        c.fail_at = -1;
        r = scene(x, px);
        cr_expect_eq(r.first, TR_OK, "fail at %ld, then: %s: %s", n, r.where ? r.where : "",
                     tr_context_last_error(x));
        cr_expect_arr_eq(px, ref, sizeof px, "fail at %ld: the next run's image differs", n);
        tr_context_destroy(x);
        cr_expect_eq(c.live, 0, "fail at %ld: %ld allocations leaked", n, c.live);
    }
    cr_log_info("%ld allocations, %u failures reported as errors", total, failures_reported);
    cr_expect_gt(failures_reported, (uint32_t)(total / 2));
}
