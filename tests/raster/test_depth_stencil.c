/* Depth and stencil: every compare op, depth writes, the viewport depth
 * range and its clamp, all eight stencil ops with compare and write masks,
 * front and back faces.  Expected values come from the test's own
 * implementation of the Vulkan rules, checked per pixel. */
#include "trtest.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { W = 16, H = 16 };

typedef struct ds {
    tr_context *ctx;
    tr_image *color, *ds;
} ds;

static ds ds_make(tr_format depth_format)
{
    ds t;
    t.ctx = trt_context(2);
    t.color = trt_image(t.ctx, TR_FORMAT_R8G8B8A8_UNORM, W, H);
    t.ds = depth_format ? trt_image(t.ctx, depth_format, W, H) : NULL;
    return t;
}

/* Begins a pass: colour cleared to 0; depth/stencil cleared or loaded. */
static void ds_begin(ds *t, tr_load_op depth_load, float clear_depth, tr_load_op stencil_load,
                     uint32_t clear_stencil)
{
    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.color_count = 1;
    rp.color[0].image = t->color;
    rp.color[0].load_op = TR_LOAD_OP_CLEAR;
    rp.depth.image = t->ds;
    rp.depth.depth_load_op = depth_load;
    rp.depth.stencil_load_op = stencil_load;
    rp.depth.clear_depth = clear_depth;
    rp.depth.clear_stencil = clear_stencil;
    TRT_OK(tr_cmd_begin_render_pass(t->ctx, &rp));
}

/* A rectangle of two triangles at constant z; ccw: counter-clockwise on
 * screen (front-facing with the default TR_FRONT_FACE_CCW). */
static void draw_rect(tr_context *ctx, float x0, float y0, float x1, float y1, float z, int ccw)
{
    trt_vertex v[6];
    if (ccw) {
        v[0] = trt_vpx(x0, y0, z, W, H, NULL); v[1] = trt_vpx(x0, y1, z, W, H, NULL);
        v[2] = trt_vpx(x1, y1, z, W, H, NULL); v[3] = trt_vpx(x0, y0, z, W, H, NULL);
        v[4] = trt_vpx(x1, y1, z, W, H, NULL); v[5] = trt_vpx(x1, y0, z, W, H, NULL);
    } else {
        v[0] = trt_vpx(x0, y0, z, W, H, NULL); v[1] = trt_vpx(x1, y0, z, W, H, NULL);
        v[2] = trt_vpx(x1, y1, z, W, H, NULL); v[3] = trt_vpx(x0, y0, z, W, H, NULL);
        v[4] = trt_vpx(x1, y1, z, W, H, NULL); v[5] = trt_vpx(x0, y1, z, W, H, NULL);
    }
    trt_draw(ctx, v, 6);
}

static void read_color_r(const ds *t, uint8_t *r)
{
    uint8_t px[W * H * 4];
    trt_download(t->color, 0, 0, TR_ASPECT_DEFAULT, px);
    for (int i = 0; i < W * H; i++)
        r[i] = px[i * 4];
}

/* ---- the test's own Vulkan rules ------------------------------------------------------------ */

static int compare(tr_compare_op op, float a, float b)
{
    switch (op) {
    case TR_COMPARE_NEVER: return 0;
    case TR_COMPARE_DEFAULT: /* LESS for depth */
    case TR_COMPARE_LESS: return a < b;
    case TR_COMPARE_EQUAL: return a == b;
    case TR_COMPARE_LESS_OR_EQUAL: return a <= b;
    case TR_COMPARE_GREATER: return a > b;
    case TR_COMPARE_NOT_EQUAL: return a != b;
    case TR_COMPARE_GREATER_OR_EQUAL: return a >= b;
    case TR_COMPARE_ALWAYS: return 1;
    }
    return -1;
}

static int stencil_compare(tr_compare_op op, uint32_t ref, uint32_t s, uint32_t cmask)
{
    if (op == TR_COMPARE_DEFAULT)
        op = TR_COMPARE_ALWAYS;
    /* Vulkan: (reference & compareMask) op (stored & compareMask) */
    return compare(op, (float)(ref & cmask), (float)(s & cmask));
}

static uint32_t mask_value(uint32_t m)
{
    return m == 0 ? 0xFFu : m == TR_MASK_NONE ? 0u : (m & 0xFFu);
}

static uint8_t stencil_op(tr_stencil_op op, uint8_t s, uint32_t ref, uint32_t wmask)
{
    uint32_t v;
    switch (op) {
    case TR_STENCIL_OP_KEEP: v = s; break;
    case TR_STENCIL_OP_ZERO: v = 0; break;
    case TR_STENCIL_OP_REPLACE: v = ref & 0xFF; break;
    case TR_STENCIL_OP_INCREMENT_AND_CLAMP: v = s == 255 ? 255 : s + 1; break;
    case TR_STENCIL_OP_DECREMENT_AND_CLAMP: v = s == 0 ? 0 : s - 1; break;
    case TR_STENCIL_OP_INVERT: v = (~s) & 0xFF; break;
    case TR_STENCIL_OP_INCREMENT_AND_WRAP: v = (s + 1) & 0xFF; break;
    case TR_STENCIL_OP_DECREMENT_AND_WRAP: v = (s + 255) & 0xFF; break;
    default: v = 0x1234;
    }
    return (uint8_t)((s & ~wmask) | (v & wmask));
}

static const char *const op_names[] = {"DEFAULT", "NEVER", "LESS", "EQUAL", "LESS_OR_EQUAL",
                                       "GREATER", "NOT_EQUAL", "GREATER_OR_EQUAL", "ALWAYS"};

/* ---- depth compare ops ----------------------------------------------------------------------- */

/* Stored depth per pixel: values around the incoming z, down to one ulp. */
static void depth_pattern(float z, float *d)
{
    const float vals[] = {0.0f, 0.25f, nextafterf(z, 0.0f), z, nextafterf(z, 1.0f), 0.75f, 1.0f};
    for (int i = 0; i < W * H; i++)
        d[i] = vals[(i * 5 + i / W) % 7];
}

static void depth_op_case(tr_compare_op op, float z, int write)
{
    ds t = ds_make(TR_FORMAT_D32_SFLOAT);
    float stored[W * H];
    depth_pattern(z, stored);
    TRT_OK(tr_image_upload(t.ds, NULL, stored, 0));
    tr_pipeline_desc pd = {0};
    pd.depth_test = 1;
    pd.depth_write = write;
    pd.depth_compare = op;
    tr_pipeline *p = trt_pipeline(t.ctx, &pd);
    ds_begin(&t, TR_LOAD_OP_LOAD, 0, TR_LOAD_OP_DONT_CARE, 0);
    TRT_OK(tr_cmd_bind_pipeline(t.ctx, p));
    draw_rect(t.ctx, 0, 0, W, H, z, 1);
    tr_pass_stats st;
    TRT_OK(tr_cmd_end_render_pass(t.ctx, &st));
    uint8_t r[W * H];
    float d[W * H];
    read_color_r(&t, r);
    trt_download(t.ds, 0, 0, TR_ASPECT_DEPTH, d);
    uint32_t rejected = 0;
    for (int i = 0; i < W * H; i++) {
        int pass = compare(op, z, stored[i]);
        rejected += !pass;
        cr_assert_eq(r[i], pass ? 255 : 0, "%s z=%.9g stored=%.9g: colour %u", op_names[op], z,
                     stored[i], r[i]);
        float want = pass && write ? z : stored[i];
        cr_assert_eq(d[i], want, "%s z=%.9g stored=%.9g write=%d: depth %.9g, want %.9g",
                     op_names[op], z, stored[i], write, d[i], want);
    }
    cr_expect_eq(st.fragments_depth_rejected, rejected, "%s: depth_rejected %llu, want %u",
                 op_names[op], (unsigned long long)st.fragments_depth_rejected, rejected);
    tr_context_destroy(t.ctx);
}

Test(raster, depth_compare_ops_with_write)
{
    for (int op = TR_COMPARE_DEFAULT; op <= TR_COMPARE_ALWAYS; op++) {
        depth_op_case((tr_compare_op)op, 0.5f, 1);
        depth_op_case((tr_compare_op)op, 0.25f, 1);
    }
}

Test(raster, depth_compare_ops_without_write)
{
    for (int op = TR_COMPARE_DEFAULT; op <= TR_COMPARE_ALWAYS; op++)
        depth_op_case((tr_compare_op)op, 0.75f, 0);
}

Test(raster, depth_test_off_writes_nothing_and_passes_everything)
{
    /* depth_test = 0: Vulkan writes no depth even if depth_write is set. */
    ds t = ds_make(TR_FORMAT_D32_SFLOAT);
    tr_pipeline_desc pd = {0};
    pd.depth_write = 1;
    tr_pipeline *p = trt_pipeline(t.ctx, &pd);
    ds_begin(&t, TR_LOAD_OP_CLEAR, 0.125f, TR_LOAD_OP_DONT_CARE, 0);
    TRT_OK(tr_cmd_bind_pipeline(t.ctx, p));
    draw_rect(t.ctx, 0, 0, W, H, 0.5f, 1);
    TRT_OK(tr_cmd_end_render_pass(t.ctx, NULL));
    uint8_t r[W * H];
    float d[W * H];
    read_color_r(&t, r);
    trt_download(t.ds, 0, 0, TR_ASPECT_DEPTH, d);
    for (int i = 0; i < W * H; i++) {
        cr_assert_eq(r[i], 255);
        cr_assert_eq(d[i], 0.125f, "depth[%d] = %g", i, d[i]);
    }
    tr_context_destroy(t.ctx);
}

Test(raster, depth_test_without_depth_attachment_passes)
{
    ds t = ds_make(TR_FORMAT_UNDEFINED);
    tr_pipeline_desc pd = {0};
    pd.depth_test = 1;
    pd.depth_write = 1;
    pd.depth_compare = TR_COMPARE_NEVER;
    tr_pipeline *p = trt_pipeline(t.ctx, &pd);
    ds_begin(&t, TR_LOAD_OP_CLEAR, 0, TR_LOAD_OP_CLEAR, 0);
    TRT_OK(tr_cmd_bind_pipeline(t.ctx, p));
    draw_rect(t.ctx, 0, 0, W, H, 0.5f, 1);
    TRT_OK(tr_cmd_end_render_pass(t.ctx, NULL));
    uint8_t r[W * H];
    read_color_r(&t, r);
    for (int i = 0; i < W * H; i++)
        cr_assert_eq(r[i], 255, "pixel %d", i);
    tr_context_destroy(t.ctx);
}

Test(raster, nearer_triangle_wins_in_either_order)
{
    /* LESS: the z = 0.25 rectangle covers the z = 0.75 one whatever the
     * submission order; with GREATER the farther one wins. */
    for (int order = 0; order < 2; order++)
        for (int greater = 0; greater < 2; greater++) {
            ds t = ds_make(TR_FORMAT_D32_SFLOAT);
            tr_pipeline_desc pd = {0};
            pd.depth_test = 1;
            pd.depth_write = 1;
            pd.depth_compare = greater ? TR_COMPARE_GREATER : TR_COMPARE_LESS;
            pd.fragment_shader = trt_fs_uniform;
            tr_pipeline *p = trt_pipeline(t.ctx, &pd);
            ds_begin(&t, TR_LOAD_OP_CLEAR, greater ? 0.0f : 1.0f, TR_LOAD_OP_DONT_CARE, 0);
            TRT_OK(tr_cmd_bind_pipeline(t.ctx, p));
            for (int k = 0; k < 2; k++) {
                int near = (k == 0) != (order == 1);
                trt_uniforms u;
                memset(&u, 0, sizeof u);
                u.color[0][0] = near ? 0.2f : 0.8f;
                trt_vertex v[6];
                float z = near ? 0.25f : 0.75f;
                float x0 = near ? 0 : 4, x1 = near ? 12 : 16;
                v[0] = trt_vpx(x0, 0, z, W, H, NULL); v[1] = trt_vpx(x1, 0, z, W, H, NULL);
                v[2] = trt_vpx(x1, H, z, W, H, NULL); v[3] = trt_vpx(x0, 0, z, W, H, NULL);
                v[4] = trt_vpx(x1, H, z, W, H, NULL); v[5] = trt_vpx(x0, H, z, W, H, NULL);
                trt_draw_u(t.ctx, &u, v, 6);
            }
            TRT_OK(tr_cmd_end_render_pass(t.ctx, NULL));
            uint8_t r[W * H];
            float d[W * H];
            read_color_r(&t, r);
            trt_download(t.ds, 0, 0, TR_ASPECT_DEPTH, d);
            for (int y = 0; y < H; y++)
                for (int x = 0; x < W; x++) {
                    int in_near = x < 12, in_far = x >= 4;
                    int near_wins = in_near && (!in_far || !greater);
                    uint8_t want = near_wins ? 51 : in_far ? 204 : 0;
                    cr_assert_eq(r[y * W + x], want, "order %d greater %d (%d,%d): %u", order,
                                 greater, x, y, r[y * W + x]);
                    float wd = near_wins ? 0.25f : in_far ? 0.75f : (greater ? 0.0f : 1.0f);
                    cr_assert_eq(d[y * W + x], wd);
                }
            tr_context_destroy(t.ctx);
        }
}

/* ---- depth range ---------------------------------------------------------------------------- */

static void depth_range_case(float min_d, float max_d, float z, int shader_depth, float fs_depth)
{
    ds t = ds_make(TR_FORMAT_D32_SFLOAT);
    tr_pipeline_desc pd = {0};
    pd.depth_test = 1;
    pd.depth_write = 1;
    pd.depth_compare = TR_COMPARE_ALWAYS;
    if (shader_depth) {
        pd.fragment_shader = trt_fs_depth_uniform;
        pd.fs_flags = TR_FS_WRITES_DEPTH;
    }
    tr_pipeline *p = trt_pipeline(t.ctx, &pd);
    ds_begin(&t, TR_LOAD_OP_CLEAR, 0.5f, TR_LOAD_OP_DONT_CARE, 0);
    TRT_OK(tr_cmd_bind_pipeline(t.ctx, p));
    tr_viewport vp = {0, 0, W, H, min_d, max_d};
    TRT_OK(tr_cmd_set_viewport(t.ctx, &vp));
    trt_uniforms u;
    memset(&u, 0, sizeof u);
    u.depth = fs_depth;
    u.color[0][0] = 1;
    trt_vertex v[6] = {
        trt_vpx(0, 0, z, W, H, NULL), trt_vpx(W, 0, z, W, H, NULL), trt_vpx(W, H, z, W, H, NULL),
        trt_vpx(0, 0, z, W, H, NULL), trt_vpx(W, H, z, W, H, NULL), trt_vpx(0, H, z, W, H, NULL),
    };
    trt_draw_u(t.ctx, &u, v, 6);
    TRT_OK(tr_cmd_end_render_pass(t.ctx, NULL));
    float d[W * H];
    trt_download(t.ds, 0, 0, TR_ASPECT_DEPTH, d);
    float lo = min_d < max_d ? min_d : max_d, hi = min_d < max_d ? max_d : min_d;
    float want = shader_depth ? fs_depth : min_d + z * (max_d - min_d);
    want = want < lo ? lo : want > hi ? hi : want;
    for (int i = 0; i < W * H; i++) {
        if (shader_depth)
            cr_assert_eq(d[i], want, "range [%g,%g] shader depth %g: got %.9g, want %.9g", min_d,
                         max_d, fs_depth, d[i], want);
        else
            cr_assert_float_eq(d[i], want, 1e-6, "range [%g,%g] z %g: got %.9g, want %.9g",
                               min_d, max_d, z, d[i], want);
    }
    tr_context_destroy(t.ctx);
}

Test(raster, depth_range_maps_ndc_z)
{
    depth_range_case(0.2f, 0.6f, 0.5f, 0, 0);
    depth_range_case(0.2f, 0.6f, 0.0f, 0, 0);
    depth_range_case(0.2f, 0.6f, 1.0f, 0, 0);
    depth_range_case(0.0f, 0.5f, 0.75f, 0, 0);
    /* reversed range (min > max), allowed by Vulkan: zw = 1 - z */
    depth_range_case(1.0f, 0.0f, 0.25f, 0, 0);
    depth_range_case(0.9f, 0.1f, 0.5f, 0, 0);
}

Test(raster, shader_depth_is_clamped_to_the_depth_range)
{
    depth_range_case(0.2f, 0.6f, 0.5f, 1, 0.9f);  /* -> 0.6 */
    depth_range_case(0.2f, 0.6f, 0.5f, 1, 0.1f);  /* -> 0.2 */
    depth_range_case(0.2f, 0.6f, 0.5f, 1, 0.3f);  /* unchanged */
    depth_range_case(0.0f, 1.0f, 0.5f, 1, -0.5f); /* -> 0 */
    depth_range_case(0.0f, 1.0f, 0.5f, 1, 1.5f);  /* -> 1 */
    depth_range_case(0.8f, 0.4f, 0.5f, 1, 0.1f);  /* reversed: -> 0.4 */
}

/* ---- stencil ---------------------------------------------------------------------------------- */

/* Stencil before the pass: every value 0..255 once (16x16). */
static void stencil_pattern(uint8_t *s)
{
    for (int i = 0; i < W * H; i++)
        s[i] = (uint8_t)(i * 37 + 11); /* 37 is odd: a permutation of 0..255 */
}

typedef struct stencil_case {
    tr_stencil_face face;
    uint32_t ref;
    float z;          /* rectangle depth; depth cleared to 0.5 with LESS */
    int depth_test;
} stencil_case;

static void run_stencil(const stencil_case *c, const char *what)
{
    ds t = ds_make(TR_FORMAT_D32_SFLOAT_S8_UINT);
    uint8_t before[W * H];
    stencil_pattern(before);
    tr_subresource sub = {0, 0, TR_ASPECT_STENCIL, 0};
    TRT_OK(tr_image_upload(t.ds, &sub, before, 0));
    tr_pipeline_desc pd = {0};
    pd.depth_test = c->depth_test;
    pd.depth_compare = TR_COMPARE_LESS;
    pd.stencil_test = 1;
    pd.stencil_front = c->face;
    pd.stencil_back = c->face;
    tr_pipeline *p = trt_pipeline(t.ctx, &pd);
    ds_begin(&t, TR_LOAD_OP_CLEAR, 0.5f, TR_LOAD_OP_LOAD, 0);
    TRT_OK(tr_cmd_bind_pipeline(t.ctx, p));
    TRT_OK(tr_cmd_set_stencil_reference(t.ctx, c->ref, c->ref));
    draw_rect(t.ctx, 0, 0, W, H, c->z, 1);
    tr_pass_stats st;
    TRT_OK(tr_cmd_end_render_pass(t.ctx, &st));
    uint8_t r[W * H], s[W * H];
    read_color_r(&t, r);
    trt_download(t.ds, 0, 0, TR_ASPECT_STENCIL, s);
    uint32_t cmask = mask_value(c->face.compare_mask), wmask = mask_value(c->face.write_mask);
    uint32_t srej = 0, drej = 0;
    for (int i = 0; i < W * H; i++) {
        int spass = stencil_compare(c->face.compare, c->ref, before[i], cmask);
        int dpass = !c->depth_test || compare(TR_COMPARE_LESS, c->z, 0.5f);
        tr_stencil_op op = !spass ? c->face.fail_op : !dpass ? c->face.depth_fail_op : c->face.pass_op;
        uint8_t want = stencil_op(op, before[i], c->ref, wmask);
        srej += !spass;
        drej += spass && !dpass;
        cr_assert_eq(r[i], spass && dpass ? 255 : 0, "%s: stored %u: colour %u", what, before[i],
                     r[i]);
        cr_assert_eq(s[i], want, "%s: stored %u ref %u: stencil %u, want %u", what, before[i],
                     c->ref, s[i], want);
    }
    cr_expect_eq(st.fragments_stencil_rejected, srej, "%s: stencil_rejected %llu, want %u", what,
                 (unsigned long long)st.fragments_stencil_rejected, srej);
    cr_expect_eq(st.fragments_depth_rejected, drej, "%s: depth_rejected %llu, want %u", what,
                 (unsigned long long)st.fragments_depth_rejected, drej);
    tr_context_destroy(t.ctx);
}

static const char *const sop_names[] = {"KEEP", "ZERO", "REPLACE", "INC_CLAMP", "DEC_CLAMP",
                                        "INVERT", "INC_WRAP", "DEC_WRAP"};

Test(raster, stencil_ops_on_pass)
{
    static const uint32_t wmasks[] = {0, 0xFF, 0x0F, 0xA5, TR_MASK_NONE};
    for (int op = 0; op < 8; op++)
        for (size_t m = 0; m < sizeof wmasks / sizeof wmasks[0]; m++) {
            stencil_case c;
            memset(&c, 0, sizeof c);
            c.face.pass_op = (tr_stencil_op)op;
            c.face.fail_op = TR_STENCIL_OP_KEEP;
            c.face.depth_fail_op = TR_STENCIL_OP_KEEP;
            c.face.compare = TR_COMPARE_ALWAYS;
            c.face.write_mask = wmasks[m];
            c.ref = 0x3C;
            c.z = 0.25f;
            char what[64];
            snprintf(what, sizeof what, "pass_op %s, write mask 0x%x", sop_names[op], wmasks[m]);
            run_stencil(&c, what);
        }
}

Test(raster, stencil_ops_on_stencil_fail)
{
    for (int op = 0; op < 8; op++) {
        stencil_case c;
        memset(&c, 0, sizeof c);
        c.face.fail_op = (tr_stencil_op)op;
        c.face.pass_op = TR_STENCIL_OP_INCREMENT_AND_WRAP;
        c.face.depth_fail_op = TR_STENCIL_OP_ZERO;
        c.face.compare = TR_COMPARE_GREATER; /* passes where ref > stored */
        c.ref = 0x80;
        c.z = 0.25f;
        c.depth_test = 1;
        char what[64];
        snprintf(what, sizeof what, "fail_op %s", sop_names[op]);
        run_stencil(&c, what);
    }
}

Test(raster, stencil_ops_on_depth_fail)
{
    for (int op = 0; op < 8; op++) {
        stencil_case c;
        memset(&c, 0, sizeof c);
        c.face.depth_fail_op = (tr_stencil_op)op;
        c.face.fail_op = TR_STENCIL_OP_REPLACE;
        c.face.pass_op = TR_STENCIL_OP_ZERO;
        c.face.compare = TR_COMPARE_LESS_OR_EQUAL; /* passes where ref <= stored */
        c.face.write_mask = 0x7E;
        c.ref = 0x61;
        c.z = 0.75f; /* behind the cleared 0.5: the depth test fails */
        c.depth_test = 1;
        char what[64];
        snprintf(what, sizeof what, "depth_fail_op %s", sop_names[op]);
        run_stencil(&c, what);
    }
}

Test(raster, stencil_compare_ops_and_compare_masks)
{
    static const uint32_t cmasks[] = {0, 0xF0, 0x0F, 0x81, TR_MASK_NONE};
    static const uint32_t refs[] = {0x00, 0x3C, 0x80, 0xFF};
    for (int op = TR_COMPARE_DEFAULT; op <= TR_COMPARE_ALWAYS; op++)
        for (size_t m = 0; m < sizeof cmasks / sizeof cmasks[0]; m++)
            for (size_t r = 0; r < sizeof refs / sizeof refs[0]; r++) {
                stencil_case c;
                memset(&c, 0, sizeof c);
                c.face.compare = (tr_compare_op)op;
                c.face.compare_mask = cmasks[m];
                c.face.fail_op = TR_STENCIL_OP_INVERT;
                c.face.pass_op = TR_STENCIL_OP_INCREMENT_AND_CLAMP;
                c.face.depth_fail_op = TR_STENCIL_OP_KEEP;
                c.ref = refs[r];
                c.z = 0.25f;
                char what[96];
                snprintf(what, sizeof what, "compare %s, mask 0x%x, ref 0x%x", op_names[op],
                         cmasks[m], refs[r]);
                run_stencil(&c, what);
            }
}

Test(raster, stencil_front_and_back_faces)
{
    /* Left half: counter-clockwise on screen; right half: clockwise.  Front
     * REPLACEs with its reference, back INVERTs, with different compare
     * functions; TR_FRONT_FACE_CW swaps which side is front. */
    for (int cw = 0; cw < 2; cw++) {
        ds t = ds_make(TR_FORMAT_D32_SFLOAT_S8_UINT);
        uint8_t before[W * H];
        stencil_pattern(before);
        tr_subresource sub = {0, 0, TR_ASPECT_STENCIL, 0};
        TRT_OK(tr_image_upload(t.ds, &sub, before, 0));
        tr_pipeline_desc pd = {0};
        pd.front_face = cw ? TR_FRONT_FACE_CW : TR_FRONT_FACE_CCW;
        pd.stencil_test = 1;
        pd.stencil_front.compare = TR_COMPARE_LESS;    /* ref < stored */
        pd.stencil_front.pass_op = TR_STENCIL_OP_REPLACE;
        pd.stencil_front.fail_op = TR_STENCIL_OP_KEEP;
        pd.stencil_back.compare = TR_COMPARE_GREATER;  /* ref > stored */
        pd.stencil_back.pass_op = TR_STENCIL_OP_INVERT;
        pd.stencil_back.fail_op = TR_STENCIL_OP_ZERO;
        pd.stencil_back.write_mask = 0xF0;
        tr_pipeline *p = trt_pipeline(t.ctx, &pd);
        ds_begin(&t, TR_LOAD_OP_CLEAR, 1.0f, TR_LOAD_OP_LOAD, 0);
        TRT_OK(tr_cmd_bind_pipeline(t.ctx, p));
        TRT_OK(tr_cmd_set_stencil_reference(t.ctx, 0x70, 0x90));
        draw_rect(t.ctx, 0, 0, W / 2, H, 0.5f, 1);
        draw_rect(t.ctx, W / 2, 0, W, H, 0.5f, 0);
        TRT_OK(tr_cmd_end_render_pass(t.ctx, NULL));
        uint8_t r[W * H], s[W * H];
        read_color_r(&t, r);
        trt_download(t.ds, 0, 0, TR_ASPECT_STENCIL, s);
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                int i = y * W + x;
                int ccw_side = x < W / 2;
                int front = ccw_side != cw;
                uint32_t ref = front ? 0x70 : 0x90;
                int pass = front ? ref < before[i] : ref > before[i];
                uint8_t want = front ? stencil_op(pass ? TR_STENCIL_OP_REPLACE : TR_STENCIL_OP_KEEP,
                                                  before[i], ref, 0xFF)
                                     : stencil_op(pass ? TR_STENCIL_OP_INVERT : TR_STENCIL_OP_ZERO,
                                                  before[i], ref, 0xF0);
                cr_assert_eq(r[i], pass ? 255 : 0, "cw %d (%d,%d) colour", cw, x, y);
                cr_assert_eq(s[i], want, "cw %d (%d,%d) stored %u: stencil %u, want %u", cw, x, y,
                             before[i], s[i], want);
            }
        tr_context_destroy(t.ctx);
    }
}

Test(raster, stencil_clear_and_reference_changes_between_draws)
{
    /* Cleared to 7; draw 1 REPLACEs with ref 0x21 on the left half, then
     * the reference changes to 0x21 and draw 2 (EQUAL, INCR_CLAMP) runs
     * over the whole target: only the left half passes. */
    ds t = ds_make(TR_FORMAT_D32_SFLOAT_S8_UINT);
    tr_pipeline_desc pd = {0};
    pd.stencil_test = 1;
    pd.stencil_front.pass_op = TR_STENCIL_OP_REPLACE;
    pd.stencil_back = pd.stencil_front;
    tr_pipeline *p1 = trt_pipeline(t.ctx, &pd);
    pd.stencil_front.compare = TR_COMPARE_EQUAL;
    pd.stencil_front.pass_op = TR_STENCIL_OP_INCREMENT_AND_CLAMP;
    pd.stencil_back = pd.stencil_front;
    pd.fragment_shader = trt_fs_uniform;
    tr_pipeline *p2 = trt_pipeline(t.ctx, &pd);
    ds_begin(&t, TR_LOAD_OP_CLEAR, 1.0f, TR_LOAD_OP_CLEAR, 7);
    TRT_OK(tr_cmd_bind_pipeline(t.ctx, p1));
    TRT_OK(tr_cmd_set_stencil_reference(t.ctx, 0x21, 0x21));
    draw_rect(t.ctx, 0, 0, W / 2, H, 0.5f, 1);
    TRT_OK(tr_cmd_bind_pipeline(t.ctx, p2));
    trt_uniforms u;
    memset(&u, 0, sizeof u);
    u.color[0][0] = 0.4f; /* 102 */
    trt_vertex v[6] = {
        trt_vpx(0, 0, 0.5f, W, H, NULL), trt_vpx(W, 0, 0.5f, W, H, NULL),
        trt_vpx(W, H, 0.5f, W, H, NULL), trt_vpx(0, 0, 0.5f, W, H, NULL),
        trt_vpx(W, H, 0.5f, W, H, NULL), trt_vpx(0, H, 0.5f, W, H, NULL),
    };
    trt_draw_u(t.ctx, &u, v, 6);
    TRT_OK(tr_cmd_end_render_pass(t.ctx, NULL));
    uint8_t r[W * H], s[W * H];
    read_color_r(&t, r);
    trt_download(t.ds, 0, 0, TR_ASPECT_STENCIL, s);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int left = x < W / 2;
            cr_assert_eq(s[y * W + x], left ? 0x22 : 7, "(%d,%d) stencil %u", x, y, s[y * W + x]);
            cr_assert_eq(r[y * W + x], left ? 102 : 0, "(%d,%d) colour %u", x, y, r[y * W + x]);
        }
    tr_context_destroy(t.ctx);
}

Test(raster, stencil_without_stencil_aspect_has_no_effect)
{
    /* D32_SFLOAT has no stencil: the stencil test passes (Vulkan). */
    ds t = ds_make(TR_FORMAT_D32_SFLOAT);
    tr_pipeline_desc pd = {0};
    pd.stencil_test = 1;
    pd.stencil_front.compare = TR_COMPARE_NEVER;
    pd.stencil_back.compare = TR_COMPARE_NEVER;
    tr_pipeline *p = trt_pipeline(t.ctx, &pd);
    ds_begin(&t, TR_LOAD_OP_CLEAR, 1.0f, TR_LOAD_OP_DONT_CARE, 0);
    TRT_OK(tr_cmd_bind_pipeline(t.ctx, p));
    draw_rect(t.ctx, 0, 0, W, H, 0.5f, 1);
    TRT_OK(tr_cmd_end_render_pass(t.ctx, NULL));
    uint8_t r[W * H];
    read_color_r(&t, r);
    for (int i = 0; i < W * H; i++)
        cr_assert_eq(r[i], 255, "pixel %d", i);
    tr_context_destroy(t.ctx);
}

Test(raster, depth_and_stencil_aspects_are_independent)
{
    /* Depth written, stencil KEEP: stencil unchanged, and vice versa. */
    ds t = ds_make(TR_FORMAT_D32_SFLOAT_S8_UINT);
    tr_pipeline_desc pd = {0};
    pd.depth_test = 1;
    pd.depth_write = 1;
    pd.stencil_test = 1;
    pd.stencil_front.pass_op = TR_STENCIL_OP_KEEP;
    pd.stencil_back = pd.stencil_front;
    tr_pipeline *p = trt_pipeline(t.ctx, &pd);
    ds_begin(&t, TR_LOAD_OP_CLEAR, 1.0f, TR_LOAD_OP_CLEAR, 0xC3);
    TRT_OK(tr_cmd_bind_pipeline(t.ctx, p));
    draw_rect(t.ctx, 0, 0, W, H, 0.375f, 1);
    TRT_OK(tr_cmd_end_render_pass(t.ctx, NULL));
    float d[W * H];
    uint8_t s[W * H];
    trt_download(t.ds, 0, 0, TR_ASPECT_DEPTH, d);
    trt_download(t.ds, 0, 0, TR_ASPECT_STENCIL, s);
    for (int i = 0; i < W * H; i++) {
        cr_assert_eq(d[i], 0.375f);
        cr_assert_eq(s[i], 0xC3);
    }
    tr_context_destroy(t.ctx);
}

Test(raster, depth_is_linear_in_screen_space)
{
    /* A quad receding from w = 1 (z/w = 0.2) to w = 4 (z/w = 0.8): window
     * depth is interpolated linearly in screen space (not perspective-
     * corrected), so at screen fraction s it is 0.2 + 0.6 s. */
    ds t = ds_make(TR_FORMAT_D32_SFLOAT);
    tr_pipeline_desc pd = {0};
    pd.depth_test = 1;
    pd.depth_write = 1;
    pd.depth_compare = TR_COMPARE_ALWAYS;
    tr_pipeline *p = trt_pipeline(t.ctx, &pd);
    trt_vertex q[4];
    for (int k = 0; k < 4; k++) {
        int far = k >= 2;
        float w = far ? 4.0f : 1.0f;
        memset(&q[k], 0, sizeof q[k]);
        q[k].pos[0] = ((k & 1) ? 1.0f : -1.0f) * w;
        q[k].pos[1] = (far ? 1.0f : -1.0f) * w;
        q[k].pos[2] = (far ? 0.8f : 0.2f) * w;
        q[k].pos[3] = w;
        q[k].color[0] = q[k].color[3] = 1;
    }
    trt_vertex v[6] = {q[0], q[1], q[3], q[0], q[3], q[2]};
    ds_begin(&t, TR_LOAD_OP_CLEAR, 1.0f, TR_LOAD_OP_DONT_CARE, 0);
    TRT_OK(tr_cmd_bind_pipeline(t.ctx, p));
    trt_draw(t.ctx, v, 6);
    TRT_OK(tr_cmd_end_render_pass(t.ctx, NULL));
    float d[W * H];
    trt_download(t.ds, 0, 0, TR_ASPECT_DEPTH, d);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            float want = 0.2f + 0.6f * (y + 0.5f) / H;
            cr_assert_float_eq(d[y * W + x], want, 2e-6, "(%d,%d): %.8g, want %.8g", x, y,
                               d[y * W + x], want);
        }
    tr_context_destroy(t.ctx);
}
