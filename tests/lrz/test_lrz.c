/* Low-resolution Z: every scene is rendered twice, with LRZ on and off, and
 * the colour, depth and stencil bytes must be identical; the statistics then
 * show what LRZ did (how many fragments it rejected, whether it wrote, its
 * state), which is checked against counts worked out here.
 *
 * The target is 64 x 64 (64 LRZ blocks, all whole); quads are given in
 * pixels with a depth at their left and right edges. */
#define _POSIX_C_SOURCE 200809L /* mkstemp */
#include "trtest.h"

#include "trt_stb_image.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { W = 64, H = 64, N = W * H };

/* Pipelines the scenes use. */
enum {
    P_LESS,            /* LESS, depth write, opaque colour */
    P_LEQUAL,
    P_LESS_NOWRITE,    /* LESS, no depth write */
    P_GREATER,         /* GREATER with depth write */
    P_GREATER_NOWRITE,
    P_EQUAL,
    P_ALWAYS,          /* ALWAYS with depth write */
    P_ALWAYS_NOWRITE,
    P_NOT_EQUAL,       /* NOT_EQUAL with depth write */
    P_DISCARD,         /* LESS + write, discards every other pixel */
    P_DISCARD_EARLY,   /* the same with TR_FS_EARLY_TESTS */
    P_SHADER_DEPTH,    /* writes depth = uniforms.depth */
    P_SIDE_EFFECTS,    /* counts its invocations */
    P_BLEND,           /* LESS + write, additive blending */
    P_MASK_RED,        /* LESS + write, writes red only */
    P_DEPTH_ONLY,      /* LESS + write, no fragment shader */
    P_STENCIL_KILL,    /* LESS + write, stencil NOT_EQUAL 1 (kills where stencil is 1) */
    P_STENCIL_MARK,    /* depth ALWAYS no write, stencil REPLACE on pass (marks ref) */
    P_STENCIL_FAILOP,  /* LESS + write, stencil ALWAYS, depth_fail_op INCR */
    P_COUNT
};

typedef struct lrz_uniforms {
    trt_uniforms base;    /* first: the trt shaders read it */
    uint64_t *invocations;
} lrz_uniforms;

static void fs_count(tr_fs_block *b)
{
    const lrz_uniforms *u = (const lrz_uniforms *)b->uniforms;
    trt_fs_uniform(b);
    /* bins run on several threads */
    __atomic_add_fetch(u->invocations, (uint64_t)__builtin_popcountll(b->live), __ATOMIC_RELAXED);
}

static tr_pipeline_desc pipeline_desc(int which)
{
    tr_pipeline_desc d;
    memset(&d, 0, sizeof d);
    d.fragment_shader = trt_fs_uniform;
    d.depth_test = 1;
    d.depth_write = 1;
    d.depth_compare = TR_COMPARE_LESS;
    switch (which) {
    case P_LEQUAL: d.depth_compare = TR_COMPARE_LESS_OR_EQUAL; break;
    case P_LESS_NOWRITE: d.depth_write = 0; break;
    case P_GREATER: d.depth_compare = TR_COMPARE_GREATER; break;
    case P_GREATER_NOWRITE: d.depth_compare = TR_COMPARE_GREATER; d.depth_write = 0; break;
    case P_EQUAL: d.depth_compare = TR_COMPARE_EQUAL; break;
    case P_ALWAYS: d.depth_compare = TR_COMPARE_ALWAYS; break;
    case P_ALWAYS_NOWRITE: d.depth_compare = TR_COMPARE_ALWAYS; d.depth_write = 0; break;
    case P_NOT_EQUAL: d.depth_compare = TR_COMPARE_NOT_EQUAL; break;
    case P_DISCARD: d.fragment_shader = trt_fs_discard; d.fs_flags = TR_FS_MAY_DISCARD; break;
    case P_DISCARD_EARLY:
        d.fragment_shader = trt_fs_discard;
        d.fs_flags = TR_FS_MAY_DISCARD | TR_FS_EARLY_TESTS;
        break;
    case P_SHADER_DEPTH: d.fragment_shader = trt_fs_depth_uniform; d.fs_flags = TR_FS_WRITES_DEPTH; break;
    case P_SIDE_EFFECTS: d.fragment_shader = fs_count; d.fs_flags = TR_FS_SIDE_EFFECTS; break;
    case P_BLEND:
        d.blend[0].enable = 1;
        d.blend[0].src_color = d.blend[0].dst_color = TR_BLEND_ONE;
        d.blend[0].src_alpha = d.blend[0].dst_alpha = TR_BLEND_ONE;
        break;
    case P_MASK_RED: d.blend[0].write_mask = 1; break;
    case P_DEPTH_ONLY: d.fragment_shader = NULL; break;
    case P_STENCIL_KILL:
        d.stencil_test = 1;
        d.stencil_front.compare = d.stencil_back.compare = TR_COMPARE_NOT_EQUAL;
        break;
    case P_STENCIL_MARK:
        d.depth_compare = TR_COMPARE_ALWAYS;
        d.depth_write = 0;
        d.stencil_test = 1;
        d.stencil_front.pass_op = d.stencil_back.pass_op = TR_STENCIL_OP_REPLACE;
        break;
    case P_STENCIL_FAILOP:
        d.stencil_test = 1;
        d.stencil_front.depth_fail_op = d.stencil_back.depth_fail_op = TR_STENCIL_OP_INCREMENT_AND_CLAMP;
        break;
    default: break;
    }
    return d;
}

typedef struct quad {
    int pipe;
    float x0, y0, x1, y1;  /* pixels */
    float z_left, z_right; /* depth at x0 and x1 */
    float color[4];
    uint32_t stencil_ref;
    float shader_depth;    /* P_SHADER_DEPTH's output */
} quad;

#define Q(p, x0, y0, x1, y1, zl, zr, r, g, b) {p, x0, y0, x1, y1, zl, zr, {r, g, b, 1}, 1, 0}
#define FULL(p, z, r, g, b) Q(p, 0, 0, W, H, z, z, r, g, b)

typedef struct result {
    uint8_t color[N * 4];
    float depth[N];
    uint8_t stencil[N];
    tr_pass_stats st;
    uint64_t invocations;
} result;

typedef struct scene {
    const quad *quads;
    int count;
    float clear_depth;
    uint32_t threads, gmem;
} scene;

static void draw_quads(tr_context *ctx, tr_pipeline **pipes, const quad *qs, int count, uint64_t *inv)
{
    for (int i = 0; i < count; i++) {
        const quad *q = &qs[i];
        trt_vertex v[6] = {
            trt_vpx(q->x0, q->y0, q->z_left, W, H, NULL),  trt_vpx(q->x1, q->y0, q->z_right, W, H, NULL),
            trt_vpx(q->x1, q->y1, q->z_right, W, H, NULL), trt_vpx(q->x0, q->y0, q->z_left, W, H, NULL),
            trt_vpx(q->x1, q->y1, q->z_right, W, H, NULL), trt_vpx(q->x0, q->y1, q->z_left, W, H, NULL),
        };
        lrz_uniforms u;
        memset(&u, 0, sizeof u);
        u.base.vertices = v;
        memcpy(u.base.color[0], q->color, sizeof q->color);
        u.base.depth = q->shader_depth;
        u.base.discard_parity = 0;
        u.invocations = inv;
        TRT_OK(tr_cmd_bind_pipeline(ctx, pipes[q->pipe]));
        TRT_OK(tr_cmd_set_stencil_reference(ctx, q->stencil_ref, q->stencil_ref));
        TRT_OK(tr_cmd_set_uniforms(ctx, &u, sizeof u));
        TRT_OK(tr_cmd_draw(ctx, 6, 1, 0, 0));
    }
}

static void create_pipelines(tr_context *ctx, tr_pipeline **pipes)
{
    for (int p = 0; p < P_COUNT; p++) {
        tr_pipeline_desc d = pipeline_desc(p);
        d.vertex_shader = trt_vs; /* created directly: P_DEPTH_ONLY keeps its NULL shader */
        d.varying_count = 1;
        TRT_OK(tr_pipeline_create(ctx, &d, &pipes[p]));
    }
}

static void begin(tr_context *ctx, tr_image *color, tr_image *depth, tr_load_op load, float clear_depth,
                  uint32_t flags)
{
    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.color_count = 1;
    rp.color[0].image = color;
    rp.color[0].load_op = load;
    rp.depth.image = depth;
    rp.depth.depth_load_op = load;
    rp.depth.stencil_load_op = load;
    rp.depth.clear_depth = clear_depth;
    rp.flags = flags;
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
}

/* The depth format render() uses (the D16 / D24 test changes it). */
static tr_format depth_format = TR_FORMAT_D32_SFLOAT_S8_UINT;

static void render(const scene *sc, uint32_t ctx_flags, result *out)
{
    tr_context_desc cd = {0};
    cd.threads = sc->threads ? sc->threads : 2;
    cd.gmem_bytes = sc->gmem;
    cd.flags = ctx_flags;
    tr_context *ctx = trt_context_desc(&cd);
    tr_image *color = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, W, H);
    tr_image *depth = trt_image(ctx, depth_format, W, H);
    tr_pipeline *pipes[P_COUNT];
    create_pipelines(ctx, pipes);
    out->invocations = 0;
    begin(ctx, color, depth, TR_LOAD_OP_CLEAR, sc->clear_depth, 0);
    draw_quads(ctx, pipes, sc->quads, sc->count, &out->invocations);
    TRT_OK(tr_cmd_end_render_pass(ctx, &out->st));
    trt_download(color, 0, 0, TR_ASPECT_DEFAULT, out->color);
    trt_download(depth, 0, 0, TR_ASPECT_DEPTH, out->depth);
    if (tr_format_has_stencil(depth_format))
        trt_download(depth, 0, 0, TR_ASPECT_STENCIL, out->stencil);
    else
        memset(out->stencil, 0, sizeof out->stencil);
    tr_context_destroy(ctx);
}

/* Renders with LRZ on and off, asserts identical bytes, returns the
 * LRZ-on result (and the LRZ-off one in *off if not NULL). */
static void render_both(const scene *sc, result *on, result *off_out, const char *what)
{
    result *off = off_out ? off_out : malloc(sizeof *off);
    cr_assert_not_null(off);
    render(sc, 0, on);
    render(sc, TR_CONTEXT_NO_LRZ, off);
    cr_assert_eq(off->st.lrz_state, TR_LRZ_STATE_OFF);
    cr_assert_eq(off->st.fragments_lrz_rejected, 0);
    cr_assert_eq(memcmp(on->color, off->color, sizeof on->color), 0, "%s: colour differs with LRZ", what);
    cr_assert_eq(memcmp(on->depth, off->depth, sizeof on->depth), 0, "%s: depth differs with LRZ", what);
    cr_assert_eq(memcmp(on->stencil, off->stencil, sizeof on->stencil), 0, "%s: stencil differs with LRZ", what);
    cr_assert_eq(on->invocations, off->invocations, "%s: side-effect invocations differ", what);
    cr_assert_eq(on->st.fragments_rasterized, off->st.fragments_rasterized, "%s", what);
    /* Everything LRZ rejected, the depth test would have rejected or a
     * later draw would have hidden: depth-rejected + LRZ-rejected with LRZ
     * on never exceeds what both reject without it plus the hidden ones. */
    if (!off_out)
        free(off);
}

static result *alloc_result(void)
{
    result *r = calloc(1, sizeof *r);
    cr_assert_not_null(r);
    return r;
}

#define SCENE(arr, cd) ((scene){arr, (int)(sizeof arr / sizeof arr[0]), cd, 0, 0})

/* ---- what LRZ rejects ------------------------------------------------------------------------ */

Test(lrz, occluder_before_and_after)
{
    /* A far quad, then a near one: the far one fails its depth test anyway
     * (f2b).  Drawn the other way round (b2f), LRZ rejects the far quad's
     * fragments although the occluder comes later. */
    static const quad f2b[] = {FULL(P_LESS, 0.25f, 1, 0, 0), FULL(P_LESS, 0.75f, 0, 1, 0)};
    static const quad b2f[] = {FULL(P_LESS, 0.75f, 0, 1, 0), FULL(P_LESS, 0.25f, 1, 0, 0)};
    result *on = alloc_result(), *off = alloc_result();
    render_both(&SCENE(f2b, 1.0f), on, off, "front to back");
    cr_expect_eq(on->st.lrz_state, TR_LRZ_STATE_ON);
    cr_expect_eq(on->st.lrz_direction, TR_LRZ_DIRECTION_LESS);
    cr_expect_eq(on->st.fragments_lrz_rejected, N);
    /* each triangle of the far quad touches 36 blocks (the 8 diagonal
     * ones twice): 72 (triangle, block) pairs, all rejected whole */
    cr_expect_eq(on->st.lrz_blocks_tested, 144, "both quads are tested");
    cr_expect_eq(on->st.lrz_blocks_rejected, 72);
    cr_expect_eq(on->st.fragments_depth_rejected, 0);
    cr_expect_eq(off->st.fragments_depth_rejected, N);
    cr_expect_eq(on->st.fragments_shaded, N);
    render_both(&SCENE(b2f, 1.0f), on, off, "back to front");
    cr_expect_eq(on->st.fragments_lrz_rejected, N, "the later occluder rejects the earlier quad");
    cr_expect_eq(on->st.fragments_shaded, N);
    cr_expect_eq(off->st.fragments_shaded, 2 * N);
    /* Every block twice: by a triangle covering it whole, or (the 8
     * diagonal ones) once both triangles of the quad have covered it. */
    cr_expect_eq(on->st.lrz_blocks_written, 2 * 64);
    free(on);
    free(off);
}

Test(lrz, exact_ties_are_not_rejected)
{
    /* Two quads at exactly the same depth under LEQUAL: the second passes
     * (z == d) and must stay visible; LRZ rejects only strictly behind. */
    static const quad q[] = {FULL(P_LEQUAL, 0.5f, 1, 0, 0), FULL(P_LEQUAL, 0.5f, 0, 0, 1)};
    result *on = alloc_result();
    render_both(&SCENE(q, 1.0f), on, NULL, "coplanar LEQUAL");
    cr_expect_eq(on->st.fragments_lrz_rejected, 0);
    cr_expect_eq(on->color[2], 255, "the second quad is visible");
    /* The fast-clear value is exact: a LEQUAL quad at exactly the clear
     * depth passes and must not be rejected. */
    static const quad at_clear[] = {FULL(P_LEQUAL, 0.5f, 0, 1, 0)};
    render_both(&SCENE(at_clear, 0.5f), on, NULL, "LEQUAL at the clear value");
    cr_expect_eq(on->st.fragments_lrz_rejected, 0);
    cr_expect_eq(on->color[1], 255);
    free(on);
}

Test(lrz, coplanar_multipass_with_slopes)
{
    /* A sloped plane drawn twice under LEQUAL (multipass, decals): the
     * second pass must win at every pixel.  The bounds' rounding margin is
     * what keeps LRZ from rejecting pixels whose float depth rounds above
     * the exact plane. */
    trt_rng rng = {99};
    quad q[2 * 24];
    for (int i = 0; i < 24; i++) {
        float zl = (float)trt_rand_range(&rng, 0.01, 0.99), zr = (float)trt_rand_range(&rng, 0.01, 0.99);
        float x0 = trt_rand_coord(&rng, -20, 0), x1 = trt_rand_coord(&rng, 64, 90);
        quad a = {P_LEQUAL, x0, 0, x1, H, zl, zr, {1, 0, 0, 1}, 1, 0};
        quad b = a;
        b.color[0] = 0;
        b.color[1] = 1;
        q[2 * i] = a;
        q[2 * i + 1] = b;
    }
    result *on = alloc_result();
    for (int i = 0; i < 24; i++) {
        scene sc = {&q[2 * i], 2, 1.0f, 0, 0};
        render_both(&sc, on, NULL, "coplanar slopes");
        for (int k = 0; k < N; k++)
            cr_assert_eq(on->color[4 * k + 1], 255, "plane %d, pixel %d: the second pass was lost", i, k);
    }
    free(on);
}

Test(lrz, fast_clear_value_is_a_bound)
{
    /* Nothing writes LRZ, but the fast-cleared value 0.5 already rejects a
     * quad at 0.7 everywhere, and a sloped quad where it is behind 0.5. */
    static const quad q[] = {FULL(P_LESS_NOWRITE, 0.7f, 1, 0, 0),
                             Q(P_LESS_NOWRITE, 0, 0, W, H, 0.0f, 1.0f, 0, 1, 0)};
    result *on = alloc_result(), *off = alloc_result();
    render_both(&SCENE(q, 0.5f), on, off, "fast clear");
    cr_expect_eq(on->st.lrz_blocks_written, 0);
    cr_expect_eq(on->st.lrz_direction, TR_LRZ_DIRECTION_UNKNOWN);
    /* All of the first quad; of the slope z = x / 64 (at x + 0.5), the
     * columns with z > 0.5: x >= 32 (x = 31.5 + 0.5 = 32 gives 0.5, not
     * beyond): 32 columns. */
    cr_expect_eq(on->st.fragments_lrz_rejected, N + 32 * H);
    cr_expect_eq(on->st.fragments_depth_rejected + on->st.fragments_lrz_rejected, off->st.fragments_depth_rejected);
    free(on);
    free(off);
}

Test(lrz, greater_direction)
{
    /* Reverse-Z: clear to 0, GREATER; b2f in that sense is near-to-far. */
    static const quad q[] = {FULL(P_GREATER, 0.25f, 1, 0, 0), FULL(P_GREATER, 0.75f, 0, 1, 0)};
    result *on = alloc_result();
    render_both(&SCENE(q, 0.0f), on, NULL, "greater");
    cr_expect_eq(on->st.lrz_direction, TR_LRZ_DIRECTION_GREATER);
    cr_expect_eq(on->st.fragments_lrz_rejected, N);
    free(on);
}

Test(lrz, partially_covered_blocks_test_per_fragment)
{
    /* An occluder at 0.2 over the left 37 columns; a far quad at 0.6 over
     * everything.  Blocks 0..3 of each row are whole under the occluder
     * (written); block 4 (x 32..39) is not, so its bound stays 1.0.  The far
     * quad is rejected in the 4 whole blocks per block row; the rest reaches
     * the depth test. */
    static const quad q[] = {FULL(P_LESS, 0.6f, 0, 1, 0), Q(P_LESS, 0, 0, 37, H, 0.2f, 0.2f, 1, 0, 0)};
    result *on = alloc_result(), *off = alloc_result();
    render_both(&SCENE(q, 1.0f), on, off, "partial blocks");
    cr_expect_eq(on->st.fragments_lrz_rejected, 32 * H);
    cr_expect_eq(on->st.fragments_lrz_rejected + on->st.fragments_depth_rejected,
                 off->st.fragments_depth_rejected + 32 * H);
    free(on);
    free(off);
}

/* ---- the rules that turn LRZ writes off ---------------------------------------------------- */

/* A far opaque quad, then a near occluder with pipeline `p` that must not
 * write LRZ: the far quad's colour shows through it (blend, mask, discard,
 * depth only) and LRZ must not reject it. */
static void check_occluder_does_not_write(int p, const char *what, uint64_t expect_written)
{
    quad q[3] = {FULL(P_LESS, 0.75f, 0.0f, 0.5f, 1.0f), FULL(p, 0.25f, 0.5f, 0.0f, 0.0f),
                 FULL(P_LESS_NOWRITE, 0.9f, 1, 1, 1)};
    scene sc = {q, 3, 1.0f, 0, 0};
    result *on = alloc_result(), *off = alloc_result();
    render_both(&sc, on, off, what);
    cr_expect_eq(on->st.lrz_blocks_written, expect_written, "%s: blocks written", what);
    free(on);
    free(off);
}

Test(lrz, blending_occluder_does_not_write)
{
    /* The first quad writes (64 blocks); the blended one turns writes off. */
    check_occluder_does_not_write(P_BLEND, "blend", 64);
}

Test(lrz, partial_mask_occluder_does_not_write)
{
    check_occluder_does_not_write(P_MASK_RED, "red mask", 64);
}

Test(lrz, depth_only_occluder_does_not_write)
{
    check_occluder_does_not_write(P_DEPTH_ONLY, "depth only", 64);
}

Test(lrz, discarding_occluder_does_not_write)
{
    /* The discard draw itself does not write; later draws still may. */
    check_occluder_does_not_write(P_DISCARD, "discard", 64);
    check_occluder_does_not_write(P_DISCARD_EARLY, "discard, early tests", 64);
}

Test(lrz, occluders_after_a_blended_depth_write_do_not_write)
{
    /* colour A far; a blended depth-writing quad in the middle; then an
     * opaque occluder: it may not write either (rest of the pass). */
    static const quad q[] = {FULL(P_LESS, 0.8f, 0, 0, 1), FULL(P_BLEND, 0.5f, 0.2f, 0, 0),
                             FULL(P_LESS, 0.2f, 0, 1, 0), FULL(P_LESS, 0.9f, 1, 1, 1)};
    result *on = alloc_result();
    render_both(&SCENE(q, 1.0f), on, NULL, "rest of pass");
    cr_expect_eq(on->st.lrz_blocks_written, 64, "only the first quad wrote");
    free(on);
}

Test(lrz, stencil_kill_and_stencil_ops)
{
    /* Mark the left half with stencil 1; an occluder that stencil kills
     * there must not write LRZ (the far quad shows through on the left). */
    static const quad kill[] = {Q(P_STENCIL_MARK, 0, 0, 32, H, 0.5f, 0.5f, 0, 0, 0),
                                FULL(P_LESS, 0.75f, 0, 0, 1), FULL(P_STENCIL_KILL, 0.25f, 1, 0, 0)};
    result *on = alloc_result();
    render_both(&SCENE(kill, 1.0f), on, NULL, "stencil kill");
    cr_expect_eq(on->st.lrz_blocks_written, 64, "only the plain quad wrote");
    /* A quad behind an occluder whose stencil depth_fail_op counts: LRZ may
     * not skip it (the stencil must still count the failures). */
    static const quad failop[] = {FULL(P_LESS, 0.25f, 1, 0, 0), FULL(P_STENCIL_FAILOP, 0.75f, 0, 1, 0),
                                  FULL(P_STENCIL_FAILOP, 0.8f, 0, 1, 0)};
    render_both(&SCENE(failop, 1.0f), on, NULL, "stencil depth_fail_op");
    cr_expect_eq(on->st.fragments_lrz_rejected, 0);
    cr_expect_eq(on->stencil[0], 2, "two depth failures counted");
    free(on);
}

/* ---- the rules that turn the LRZ test off ------------------------------------------------------ */

Test(lrz, shader_depth_and_side_effects_are_not_tested)
{
    /* Behind the occluder by interpolated depth, but the shader writes 0.1:
     * it must pass.  A side-effect shader must run exactly as often. */
    quad q[] = {FULL(P_LESS, 0.25f, 1, 0, 0), FULL(P_SHADER_DEPTH, 0.75f, 0, 1, 0),
                FULL(P_SIDE_EFFECTS, 0.9f, 0, 0, 1)};
    q[1].shader_depth = 0.1f;
    scene sc = {q, 3, 1.0f, 0, 0};
    result *on = alloc_result();
    render_both(&sc, on, NULL, "shader depth, side effects");
    cr_expect_eq(on->color[1], 255, "the shader-depth quad is in front");
    cr_expect_eq(on->st.fragments_lrz_rejected, 0);
    free(on);
}

/* ---- direction ---------------------------------------------------------------------------- */

Test(lrz, direction_rules)
{
    result *on = alloc_result();
    /* LESS writes, then a GREATER write: invalid for the pass, no tests. */
    static const quad change[] = {FULL(P_LESS, 0.5f, 1, 0, 0), FULL(P_GREATER, 0.75f, 0, 1, 0),
                                  FULL(P_LESS, 0.9f, 0, 0, 1)};
    render_both(&SCENE(change, 1.0f), on, NULL, "direction change with write");
    cr_expect_eq(on->st.lrz_state, TR_LRZ_STATE_INVALID);
    cr_expect_eq(on->st.lrz_blocks_tested, 0);
    /* A GREATER draw without write is skipped; the LESS draws still test. */
    static const quad skip[] = {FULL(P_LESS, 0.5f, 1, 0, 0), FULL(P_GREATER_NOWRITE, 0.75f, 0, 1, 0),
                                FULL(P_LESS, 0.9f, 0, 0, 1)};
    render_both(&SCENE(skip, 1.0f), on, NULL, "direction change without write");
    cr_expect_eq(on->st.lrz_state, TR_LRZ_STATE_ON);
    cr_expect_eq(on->st.fragments_lrz_rejected, N, "the last quad only");
    /* EQUAL: skipped.  ALWAYS without write: skipped. */
    static const quad eq[] = {FULL(P_LESS, 0.5f, 1, 0, 0), FULL(P_EQUAL, 0.5f, 0, 1, 0),
                              FULL(P_ALWAYS_NOWRITE, 0.9f, 0, 0, 1)};
    render_both(&SCENE(eq, 1.0f), on, NULL, "equal, always without write");
    cr_expect_eq(on->st.lrz_state, TR_LRZ_STATE_ON);
    cr_expect_eq(on->st.fragments_lrz_rejected, 0);
    cr_expect_eq(on->color[2], 255, "ALWAYS draws on top");
    /* ALWAYS and NOT_EQUAL with write: invalid. */
    static const quad always[] = {FULL(P_LESS, 0.5f, 1, 0, 0), FULL(P_ALWAYS, 0.9f, 0, 1, 0),
                                  FULL(P_LESS, 0.95f, 0, 0, 1)};
    render_both(&SCENE(always, 1.0f), on, NULL, "always with write");
    cr_expect_eq(on->st.lrz_state, TR_LRZ_STATE_INVALID);
    static const quad ne[] = {FULL(P_LESS, 0.5f, 1, 0, 0), FULL(P_NOT_EQUAL, 0.9f, 0, 1, 0),
                              FULL(P_LESS, 0.95f, 0, 0, 1)};
    render_both(&SCENE(ne, 1.0f), on, NULL, "not equal with write");
    cr_expect_eq(on->st.lrz_state, TR_LRZ_STATE_INVALID);
    free(on);
}

/* ---- every rule at once, random scenes ------------------------------------------------------- */

Test(lrz, random_scenes_with_every_rule)
{
    trt_rng rng = {4242};
    enum { QUADS = 60, SCENES = 40 };
    quad *q = malloc(QUADS * sizeof *q);
    cr_assert_not_null(q);
    result *on = alloc_result(), *off = alloc_result();
    uint64_t rejected = 0;
    for (int s = 0; s < SCENES; s++) {
        /* Mostly LESS-family draws (so that LRZ stays valid and works), with
         * every disabling pipeline mixed in; some scenes also break the
         * direction. */
        for (int i = 0; i < QUADS; i++) {
            int p = P_LESS;
            uint32_t r = trt_rand_u32(&rng) % 20;
            static const int mix[] = {P_LEQUAL, P_LESS_NOWRITE, P_DISCARD, P_DISCARD_EARLY, P_SHADER_DEPTH,
                                      P_SIDE_EFFECTS, P_BLEND, P_MASK_RED, P_DEPTH_ONLY, P_STENCIL_KILL,
                                      P_STENCIL_MARK, P_STENCIL_FAILOP, P_EQUAL, P_ALWAYS_NOWRITE};
            if (r >= 6)
                p = mix[trt_rand_u32(&rng) % (sizeof mix / sizeof mix[0])];
            if (s % 5 == 4 && i == QUADS / 2)
                p = (s % 10 == 4) ? P_GREATER : P_ALWAYS;
            float x0 = trt_rand_coord(&rng, -8, 60), y0 = trt_rand_coord(&rng, -8, 60);
            float x1 = x0 + trt_rand_coord(&rng, 4, 60), y1 = y0 + trt_rand_coord(&rng, 4, 60);
            quad qq = {p, x0, y0, x1, y1, (float)trt_rand_range(&rng, 0.05, 0.95),
                       (float)trt_rand_range(&rng, 0.05, 0.95),
                       {(float)trt_rand_range(&rng, 0, 1), (float)trt_rand_range(&rng, 0, 1),
                        (float)trt_rand_range(&rng, 0, 1), 1},
                       trt_rand_u32(&rng) % 3, (float)trt_rand_range(&rng, 0, 1)};
            q[i] = qq;
        }
        scene sc = {q, QUADS, 1.0f, 1 + (uint32_t)s % 3, s % 2 ? 16384u : 0u};
        render_both(&sc, on, off, "random scene");
        rejected += on->st.fragments_lrz_rejected;
    }
    cr_expect_gt(rejected, 0, "LRZ never rejected anything: the test proves little");
    free(q);
    free(on);
    free(off);
}

/* D16 and D24: depth tested as codes (image.h).  Scenes whose depths sit
 * within a few codes of each other - many exactly on a code, many within
 * half a code of one - so that a depth z with z > bound but the same code
 * as the bound is common: LRZ must compare codes as the depth test does.
 * LESS, LESS_OR_EQUAL, GREATER and GREATER_OR_EQUAL scenes, sloped and flat
 * quads, several thread counts and bin sizes; LRZ on and off must give the
 * same bytes, and LRZ must reject something. */
Test(lrz, random_scenes_d16_d24_quantised)
{
    static const tr_format fmts[2] = {TR_FORMAT_D16_UNORM, TR_FORMAT_D24_UNORM_S8_UINT};
    enum { QUADS = 48, SCENES = 24 };
    quad *q = malloc(QUADS * sizeof *q);
    cr_assert_not_null(q);
    result *on = alloc_result(), *off = alloc_result();
    for (int f = 0; f < 2; f++) {
        depth_format = fmts[f];
        const double step = f ? 1.0 / 16777215.0 : 1.0 / 65535.0;
        trt_rng rng = {777u + (uint64_t)f};
        uint64_t rejected = 0;
        for (int s = 0; s < SCENES; s++) {
            const bool greater = s % 4 >= 2;
            const double base = trt_rand_range(&rng, 0.2, 0.8);
            for (int i = 0; i < QUADS; i++) {
                const uint32_t r = trt_rand_u32(&rng) % 8;
                int p = greater ? (r < 4 ? P_GREATER : P_GREATER_NOWRITE) : (r < 3 ? P_LESS : r < 6 ? P_LEQUAL : P_LESS_NOWRITE);
                /* GREATER_OR_EQUAL has no pipeline of its own: GREATER with half a code of slack below */
                float zl, zr;
                {
                    const double k = floor(base / step) + (double)(trt_rand_u32(&rng) % 5) - 2.0;
                    const uint32_t kind = trt_rand_u32(&rng) % 3;
                    const double off1 = kind == 0 ? 0.0 : kind == 1 ? trt_rand_range(&rng, -0.49, 0.49)
                                                                    : trt_rand_range(&rng, -2.0, 2.0);
                    zl = (float)((k + off1) * step);
                    zr = trt_rand_u32(&rng) % 2 ? zl : (float)((k + trt_rand_range(&rng, -3.0, 3.0)) * step);
                }
                float x0 = trt_rand_coord(&rng, -8, 56), y0 = trt_rand_coord(&rng, -8, 56);
                float x1 = x0 + trt_rand_coord(&rng, 8, 64), y1 = y0 + trt_rand_coord(&rng, 8, 64);
                quad qq = {p, x0, y0, x1, y1, zl, zr,
                           {(float)trt_rand_range(&rng, 0, 1), (float)trt_rand_range(&rng, 0, 1),
                            (float)trt_rand_range(&rng, 0, 1), 1},
                           1, 0};
                q[i] = qq;
            }
            /* the clear value near the scene's depths too (a bound of its own) */
            const float clear = greater ? (float)(base - 3 * step) : (float)(base + 3 * step);
            scene sc = {q, QUADS, clear, 1 + (uint32_t)s % 3, s % 2 ? 16384u : 0u};
            render_both(&sc, on, off, f ? "D24 scene" : "D16 scene");
            rejected += on->st.fragments_lrz_rejected;
        }
        cr_expect_gt(rejected, 0, "%s: LRZ never rejected anything", tr_format_name(fmts[f]));
    }
    depth_format = TR_FORMAT_D32_SFLOAT_S8_UINT;
    free(q);
    free(on);
    free(off);
}

/* ---- across passes -------------------------------------------------------------------------- */

typedef struct two_pass {
    tr_context *ctx;
    tr_image *color, *depth;
    tr_pipeline *pipes[P_COUNT];
} two_pass;

static void tp_make(two_pass *t, uint32_t layers)
{
    t->ctx = trt_context(2);
    t->color = trt_image_layers(t->ctx, TR_FORMAT_R8G8B8A8_UNORM, W, H, layers);
    t->depth = trt_image_layers(t->ctx, TR_FORMAT_D32_SFLOAT_S8_UINT, W, H, layers);
    create_pipelines(t->ctx, t->pipes);
}

/* Pass 1 clears and draws an occluder at 0.25 and stores; `between` runs;
 * pass 2 loads and draws a far quad: returns pass 2's statistics. */
static tr_pass_stats reuse_case(void (*between)(two_pass *), tr_store_op store1, uint32_t base_layer2)
{
    two_pass t;
    tp_make(&t, 2);
    uint64_t inv = 0;
    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.color_count = 1;
    rp.color[0].image = t.color;
    rp.color[0].load_op = TR_LOAD_OP_CLEAR;
    rp.depth.image = t.depth;
    rp.depth.depth_load_op = TR_LOAD_OP_CLEAR;
    rp.depth.clear_depth = 1.0f;
    rp.depth.depth_store_op = store1;
    TRT_OK(tr_cmd_begin_render_pass(t.ctx, &rp));
    const quad occ[] = {FULL(P_LESS, 0.25f, 1, 0, 0)};
    draw_quads(t.ctx, t.pipes, occ, 1, &inv);
    tr_pass_stats st;
    TRT_OK(tr_cmd_end_render_pass(t.ctx, &st));
    cr_assert_eq(st.lrz_state, TR_LRZ_STATE_ON);
    if (between)
        between(&t);
    rp.color[0].load_op = TR_LOAD_OP_LOAD;
    rp.depth.depth_load_op = TR_LOAD_OP_LOAD;
    rp.depth.stencil_load_op = TR_LOAD_OP_LOAD;
    rp.depth.depth_store_op = TR_STORE_OP_STORE;
    rp.color[0].base_layer = rp.depth.base_layer = base_layer2;
    TRT_OK(tr_cmd_begin_render_pass(t.ctx, &rp));
    const quad far[] = {FULL(P_LESS, 0.75f, 0, 1, 0)};
    draw_quads(t.ctx, t.pipes, far, 1, &inv);
    TRT_OK(tr_cmd_end_render_pass(t.ctx, &st));
    tr_context_destroy(t.ctx);
    return st;
}

static void upload_depth(two_pass *t)
{
    float *d = malloc(N * sizeof *d);
    cr_assert_not_null(d);
    for (int i = 0; i < N; i++)
        d[i] = 1.0f;
    tr_subresource sub = {0};
    sub.aspect = TR_ASPECT_DEPTH;
    TRT_OK(tr_image_upload(t->depth, &sub, d, 0));
    free(d);
}

static void fill_depth(two_pass *t)
{
    tr_subresource sub = {0};
    sub.aspect = TR_ASPECT_DEPTH;
    const float one[4] = {1, 0, 0, 0};
    TRT_OK(tr_image_fill(t->depth, &sub, one));
}

static void pass_without_lrz(two_pass *t)
{
    uint64_t inv = 0;
    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.depth.image = t->depth;
    rp.flags = TR_PASS_NO_LRZ;
    TRT_OK(tr_cmd_begin_render_pass(t->ctx, &rp));
    TRT_OK(tr_cmd_end_render_pass(t->ctx, NULL));
    (void)inv;
}

Test(lrz, reused_across_passes)
{
    tr_pass_stats st = reuse_case(NULL, TR_STORE_OP_STORE, 0);
    cr_expect_eq(st.lrz_state, TR_LRZ_STATE_ON, "same view, nothing changed: reused");
    cr_expect_eq(st.fragments_lrz_rejected, N);
}

Test(lrz, not_reused_after_changes)
{
    tr_pass_stats st = reuse_case(upload_depth, TR_STORE_OP_STORE, 0);
    cr_expect_eq(st.lrz_state, TR_LRZ_STATE_OFF, "upload between the passes");
    cr_expect_eq(st.fragments_lrz_rejected, 0);
    st = reuse_case(fill_depth, TR_STORE_OP_STORE, 0);
    cr_expect_eq(st.lrz_state, TR_LRZ_STATE_OFF, "fill between the passes");
    st = reuse_case(pass_without_lrz, TR_STORE_OP_STORE, 0);
    cr_expect_eq(st.lrz_state, TR_LRZ_STATE_OFF, "a pass with TR_PASS_NO_LRZ");
    st = reuse_case(NULL, TR_STORE_OP_DONT_CARE, 0);
    cr_expect_eq(st.lrz_state, TR_LRZ_STATE_OFF, "depth not stored");
    st = reuse_case(NULL, TR_STORE_OP_STORE, 1);
    cr_expect_eq(st.lrz_state, TR_LRZ_STATE_OFF, "another layer");
}

Test(lrz, switches)
{
    static const quad q[] = {FULL(P_LESS, 0.75f, 0, 1, 0), FULL(P_LESS, 0.25f, 1, 0, 0)};
    result *r = alloc_result();
    render(&SCENE(q, 1.0f), TR_CONTEXT_NO_LRZ, r);
    cr_expect_eq(r->st.lrz_state, TR_LRZ_STATE_OFF);
    cr_expect_eq(r->st.lrz_blocks_tested + r->st.lrz_blocks_written, 0);
    free(r);
    two_pass t;
    tp_make(&t, 1);
    begin(t.ctx, t.color, t.depth, TR_LOAD_OP_CLEAR, 1.0f, TR_PASS_NO_LRZ);
    uint64_t inv = 0;
    draw_quads(t.ctx, t.pipes, q, 2, &inv);
    tr_pass_stats st;
    TRT_OK(tr_cmd_end_render_pass(t.ctx, &st));
    cr_expect_eq(st.lrz_state, TR_LRZ_STATE_OFF);
    cr_expect_eq(st.fragments_lrz_rejected, 0);
    tr_context_desc bad = {0};
    bad.flags = 0x80;
    tr_context *ctx = NULL;
    cr_expect_eq(tr_context_create(&bad, &ctx), TR_ERROR_INVALID_ARGUMENT);
    tr_context_destroy(t.ctx);
}

Test(lrz, multiview_layers_have_their_own_bounds)
{
    /* View 0 has the occluder, view 1 not (offset away): only view 0's far
     * quad is rejected. */
    two_pass t;
    tp_make(&t, 2);
    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.color_count = 1;
    rp.color[0].image = t.color;
    rp.color[0].load_op = TR_LOAD_OP_CLEAR;
    rp.depth.image = t.depth;
    rp.depth.clear_depth = 1.0f;
    rp.depth.depth_load_op = TR_LOAD_OP_CLEAR;
    rp.view_mask = 0x3;
    TRT_OK(tr_cmd_begin_render_pass(t.ctx, &rp));
    trt_vertex occ[6] = {trt_vpx(0, 0, 0.25f, W, H, NULL), trt_vpx(W, 0, 0.25f, W, H, NULL),
                         trt_vpx(W, H, 0.25f, W, H, NULL), trt_vpx(0, 0, 0.25f, W, H, NULL),
                         trt_vpx(W, H, 0.25f, W, H, NULL), trt_vpx(0, H, 0.25f, W, H, NULL)};
    trt_vertex far[6];
    for (int i = 0; i < 6; i++) {
        far[i] = occ[i];
        far[i].pos[2] = 0.75f;
    }
    trt_uniforms u;
    memset(&u, 0, sizeof u);
    TRT_OK(tr_cmd_bind_pipeline(t.ctx, t.pipes[P_LESS]));
    u.view_offset[1][0] = 10.0f; /* the occluder misses view 1 */
    trt_draw_u(t.ctx, &u, occ, 6);
    u.view_offset[1][0] = 0.0f;
    trt_draw_u(t.ctx, &u, far, 6);
    tr_pass_stats st;
    TRT_OK(tr_cmd_end_render_pass(t.ctx, &st));
    cr_expect_eq(st.fragments_lrz_rejected, N);
    cr_expect_eq(st.fragments_shaded, 2 * N);
    tr_context_destroy(t.ctx);
}

/* ---- the picture ------------------------------------------------------------------------------ */

Test(lrz, debug_picture)
{
    two_pass t;
    tp_make(&t, 1);
    cr_expect_eq(tr_image_write_lrz_png(t.depth, 0, "lrz_never.png"), TR_ERROR_INVALID_STATE);
    begin(t.ctx, t.color, t.depth, TR_LOAD_OP_CLEAR, 1.0f, 0);
    static const quad q[] = {FULL(P_LESS, 0.75f, 0, 1, 0), Q(P_LESS, 0, 0, 40, 40, 0.25f, 0.25f, 1, 0, 0)};
    uint64_t inv = 0;
    draw_quads(t.ctx, t.pipes, q, 2, &inv);
    TRT_OK(tr_cmd_end_render_pass(t.ctx, NULL));
    char path[] = "/tmp/tilerast_lrz_XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    TRT_OK(tr_image_write_lrz_png(t.depth, 0, path));
    cr_expect_eq(tr_image_write_lrz_png(t.depth, 1, path), TR_ERROR_OUT_OF_RANGE);
    cr_expect_eq(tr_image_write_lrz_png(NULL, 0, path), TR_ERROR_INVALID_ARGUMENT);
    /* (2 * 8 + 1) * 8 x 8 * 8 pixels of texels, then a 19-pixel legend
     * (bars 6 tall at row 67, numbers below). */
    int pw = 0, ph = 0, comp = 0;
    uint8_t *png = stbi_load(path, &pw, &ph, &comp, 4);
    remove(path);
    cr_assert_not_null(png);
    cr_expect_eq(pw, (2 * 8 + 1) * 8);
    cr_expect_eq(ph, 8 * 8 + 19);
    /* Bounds by rank among the written ones: the 25 texels under the
     * 40x40 quad at 0.25 rank first (blue), the other 39 at 0.75 rank 25
     * of 63: heat(25/63) = (0, 202, 53). */
    const uint8_t *tl = &png[(4 * pw + 4) * 4], *br = &png[(60 * pw + 60) * 4];
    cr_expect(tl[0] == 0 && tl[1] == 0 && tl[2] == 255, "top-left texel: %u %u %u, want blue", tl[0], tl[1], tl[2]);
    cr_expect(br[0] == 0 && br[1] == 202 && br[2] == 53, "bottom-right texel: %u %u %u, want 0 202 53", br[0], br[1],
              br[2]);
    /* rejections: the full quad's 64 fragments in each texel under the
     * later occluder (the most: red), none elsewhere (black) */
    const uint8_t *rj = &png[(30 * pw + 72 + 30) * 4], *rn = &png[(60 * pw + 72 + 60) * 4];
    cr_expect(rj[0] == 255 && rj[1] == 0 && rj[2] == 0, "rejections under the occluder: %u %u %u, want red", rj[0],
              rj[1], rj[2]);
    cr_expect(rn[0] == 0 && rn[1] == 0 && rn[2] == 0, "no rejections: %u %u %u, want black", rn[0], rn[1], rn[2]);
    /* the legend: the clear value's black box (16 px), then the heat bar
     * blue to red over the rest of the left half */
    const uint8_t *b0 = &png[(67 * pw + 17) * 4], *b1 = &png[(67 * pw + 63) * 4], *cl = &png[(67 * pw + 3) * 4];
    cr_expect(b0[2] == 255 && b0[0] == 0, "the bar starts blue");
    cr_expect(b1[0] == 255 && b1[2] == 0, "the bar ends red");
    cr_expect(cl[0] == 0 && cl[1] == 0 && cl[2] == 0, "the clear value's box is black");
    stbi_image_free(png);
    tr_context_destroy(t.ctx);
}

Test(lrz, depth_clear_inside_the_pass_invalidates)
{
    /* Occluder at 0.25 (bounds 0.25), then depth cleared back to 1 in a
     * rectangle, then a far quad: it must show in the rectangle, so LRZ
     * must not reject it there. */
    uint8_t px[2][N * 4];
    tr_pass_stats st[2];
    for (int off = 0; off < 2; off++) {
        tr_context_desc cd = {0};
        cd.threads = 2;
        cd.flags = off ? TR_CONTEXT_NO_LRZ : 0;
        tr_context *ctx = trt_context_desc(&cd);
        tr_image *color = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, W, H);
        tr_image *depth = trt_image(ctx, TR_FORMAT_D32_SFLOAT, W, H);
        tr_pipeline *pipes[P_COUNT];
        create_pipelines(ctx, pipes);
        uint64_t inv = 0;
        begin(ctx, color, depth, TR_LOAD_OP_CLEAR, 1.0f, 0);
        static const quad occ[] = {FULL(P_LESS, 0.25f, 1, 0, 0)}, far[] = {FULL(P_LESS, 0.75f, 0, 1, 0)};
        draw_quads(ctx, pipes, occ, 1, &inv);
        tr_clear_attachment ca = {0};
        ca.aspects = TR_CLEAR_DEPTH;
        ca.depth = 1.0f;
        const tr_rect r = {16, 16, 24, 24};
        TRT_OK(tr_cmd_clear_attachments(ctx, 1, &ca, 1, &r));
        draw_quads(ctx, pipes, far, 1, &inv);
        TRT_OK(tr_cmd_end_render_pass(ctx, &st[off]));
        trt_download(color, 0, 0, TR_ASPECT_DEFAULT, px[off]);
        tr_context_destroy(ctx);
    }
    cr_expect_eq(memcmp(px[0], px[1], sizeof px[0]), 0, "LRZ changed the image");
    cr_expect_eq(st[0].lrz_state, TR_LRZ_STATE_INVALID);
    cr_expect_eq(px[0][(20 * W + 20) * 4 + 1], 255, "the far quad shows in the cleared rectangle");
}

Test(lrz, fast_clear_group_materialised_on_first_write)
{
    /* Clear to 0.5; an occluder at 0.2 over the 4x4 blocks of the top-left
     * 32x32 pixels materialises their 16x4-texel group (LRZ texels x 0..15,
     * y 0..3: on this 8-texel-wide target, the top four block rows).  A far
     * quad at 0.4 is then rejected under the occluder alone: the group's
     * other texels must still read 0.5 (0.4 < 0.5). */
    static const quad q[] = {Q(P_LESS, 0, 0, 32, 32, 0.2f, 0.2f, 1, 0, 0), FULL(P_LESS, 0.4f, 0, 1, 0)};
    result *on = alloc_result();
    render_both(&SCENE(q, 0.5f), on, NULL, "fast-clear group");
    cr_expect_eq(on->st.fragments_lrz_rejected, 16 * 64, "rejected %llu",
                 (unsigned long long)on->st.fragments_lrz_rejected);
    cr_expect_eq(on->st.lrz_blocks_written, 16 + 48, "the occluder's blocks, then every other block at 0.4");
    free(on);
}
