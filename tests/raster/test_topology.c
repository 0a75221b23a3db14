/* Primitive assembly and fragment inputs: list, strip and fan order (Vulkan),
 * the provoking vertex for flat varyings, front faces and culling,
 * primitive_id and front_facing, indexed and instanced draws, gl_FragCoord
 * and perspective-correct varyings. */
#include "trtest.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { W = 32, H = 32 };

typedef struct target {
    tr_context *ctx;
    tr_image *img;
} target;

static target make_target(tr_format fmt)
{
    target t;
    t.ctx = trt_context(2);
    t.img = trt_image(t.ctx, fmt, W, H);
    return t;
}

static void read_float(const target *t, float *px)
{
    trt_download(t->img, 0, 0, TR_ASPECT_DEFAULT, px);
}

static const float *at(const float *px, float x, float y)
{
    return &px[((int)y * W + (int)x) * 4];
}

static trt_vertex vc(float x, float y, float r, float g, float b)
{
    const float c[4] = {r, g, b, 1};
    return trt_vpx(x, y, 0.5f, W, H, c);
}

/* Draws `v` with the pipeline into a float target cleared to -1. */
static void draw_float(const tr_pipeline_desc *pd, const trt_vertex *v, uint32_t n, float *px)
{
    target t = make_target(TR_FORMAT_R32G32B32A32_SFLOAT);
    tr_pipeline *p = trt_pipeline(t.ctx, pd);
    static const float clear[4] = {-1, -1, -1, -1};
    trt_begin_color(t.ctx, t.img, clear);
    TRT_OK(tr_cmd_bind_pipeline(t.ctx, p));
    trt_draw(t.ctx, v, n);
    TRT_OK(tr_cmd_end_render_pass(t.ctx, NULL));
    read_float(&t, px);
    tr_context_destroy(t.ctx);
}

/* ---- provoking vertex ----------------------------------------------------------------------- */

Test(raster, list_flat_varying_from_first_vertex)
{
    trt_vertex v[6] = {
        vc(1, 1, 0.1f, 0, 0), vc(15, 1, 0.2f, 0, 0), vc(1, 15, 0.3f, 0, 0),
        vc(31, 31, 0.4f, 0, 0), vc(17, 31, 0.5f, 0, 0), vc(31, 17, 0.6f, 0, 0),
    };
    tr_pipeline_desc pd = {0};
    pd.flat_mask = 1;
    static float px[W * H * 4];
    draw_float(&pd, v, 6, px);
    cr_expect_eq(at(px, 4, 4)[0], 0.1f);
    cr_expect_eq(at(px, 27, 27)[0], 0.4f);
}

Test(raster, strip_triangles_and_provoking_vertex)
{
    /* Zigzag strip v0..v5 (top row even, bottom row odd).  Vulkan:
     * triangle i = (i, i+1+i%2, i+2-i%2), provoking vertex v_i; every
     * triangle winds the same way, so back-face culling keeps all of them. */
    trt_vertex v[6] = {
        vc(1, 1, 0.0f, 0, 0), vc(1, 31, 0.1f, 0, 0), vc(11, 1, 0.2f, 0, 0),
        vc(11, 31, 0.3f, 0, 0), vc(21, 1, 0.4f, 0, 0), vc(21, 31, 0.5f, 0, 0),
    };
    tr_pipeline_desc pd = {0};
    pd.topology = TR_TOPOLOGY_TRIANGLE_STRIP;
    pd.flat_mask = 1;
    static float px[W * H * 4];
    for (int cull = 0; cull < 3; cull++) {
        /* the first triangle (v0, v1, v2) is counter-clockwise on screen */
        pd.cull_mode = cull == 0 ? TR_CULL_NONE : cull == 1 ? TR_CULL_BACK : TR_CULL_FRONT;
        draw_float(&pd, v, 6, px);
        for (int i = 0; i < 4; i++) {
            /* centroid of triangle i */
            float cx = 0, cy = 0;
            for (int k = 0; k < 3; k++) {
                cx += (v[i + k].pos[0] + 1) * 0.5f * W / 3;
                cy += (v[i + k].pos[1] + 1) * 0.5f * H / 3;
            }
            float want = cull == 2 ? -1.0f : v[i].color[0];
            cr_expect_eq(at(px, cx, cy)[0], want, "cull %d, triangle %d at (%g,%g): %g, want %g",
                         cull, i, cx, cy, at(px, cx, cy)[0], want);
        }
    }
}

Test(raster, fan_triangles_and_provoking_vertex)
{
    /* Vulkan: triangle i = (v_i+1, v_i+2, v_0), provoking vertex v_i+1. */
    trt_vertex v[6] = {
        vc(16, 16, 0.9f, 0, 0), vc(30, 16, 0.1f, 0, 0), vc(23, 30, 0.2f, 0, 0),
        vc(9, 30, 0.3f, 0, 0), vc(2, 16, 0.4f, 0, 0), vc(9, 2, 0.5f, 0, 0),
    };
    tr_pipeline_desc pd = {0};
    pd.topology = TR_TOPOLOGY_TRIANGLE_FAN;
    pd.flat_mask = 1;
    static float px[W * H * 4];
    for (int cull = 0; cull < 2; cull++) {
        /* v0 -> v1 -> v2 runs clockwise on screen: back-facing */
        pd.cull_mode = cull ? TR_CULL_FRONT : TR_CULL_NONE;
        draw_float(&pd, v, 6, px);
        for (int i = 0; i < 4; i++) {
            float cx = (16 + (v[i + 1].pos[0] + 1) * 0.5f * W + (v[i + 2].pos[0] + 1) * 0.5f * W) / 3;
            float cy = (16 + (v[i + 1].pos[1] + 1) * 0.5f * H + (v[i + 2].pos[1] + 1) * 0.5f * H) / 3;
            cr_expect_eq(at(px, cx, cy)[0], v[i + 1].color[0], "triangle %d: %g, want %g", i,
                         at(px, cx, cy)[0], v[i + 1].color[0]);
        }
    }
}

Test(raster, smooth_varyings_interpolate)
{
    /* w = 1: screen-space linear; check the centroid of a triangle with
     * colours (1,0,0), (0,1,0), (0,0,1) at a pixel centre. */
    trt_vertex v[3] = {vc(0.5f, 0.5f, 1, 0, 0), vc(30.5f, 0.5f, 0, 1, 0), vc(0.5f, 30.5f, 0, 0, 1)};
    static float px[W * H * 4];
    draw_float(NULL, v, 3, px);
    /* pixel (10,10): centre (10.5,10.5): b1 = 10/30, b2 = 10/30 */
    const float *p = at(px, 10, 10);
    cr_expect_float_eq(p[0], 1.0f / 3, 1e-5);
    cr_expect_float_eq(p[1], 1.0f / 3, 1e-5);
    cr_expect_float_eq(p[2], 1.0f / 3, 1e-5);
    cr_expect_float_eq(p[3], 1.0f, 1e-6);
    p = at(px, 0, 0); /* exactly at v0 */
    cr_expect_float_eq(p[0], 1.0f, 1e-5);
    cr_expect_float_eq(p[1], 0.0f, 1e-5);
}

Test(raster, varyings_are_perspective_correct)
{
    /* A quad receding in depth: varying u = 0 at the near edge (w = 1),
     * 1 at the far edge (w = 4); at a screen point, u = (s/w1) / ((1-s)/w0
     * + s/w1) for the screen-space fraction s. */
    const float w0 = 1, w1 = 4;
    trt_vertex v[6];
    /* near edge at pixel y = 2, far edge at y = 30 (after the divide) */
    float yn = 2.0f / H * 2 - 1, yf = 30.0f / H * 2 - 1;
    float xs[2] = {2.0f / W * 2 - 1, 30.0f / W * 2 - 1};
    const int order[6] = {0, 1, 3, 0, 3, 2};
    trt_vertex q[4];
    for (int k = 0; k < 4; k++) {
        int far = k >= 2;
        float w = far ? w1 : w0;
        memset(&q[k], 0, sizeof q[k]);
        q[k].pos[0] = xs[k & 1] * w;
        q[k].pos[1] = (far ? yf : yn) * w;
        q[k].pos[2] = 0.5f * w;
        q[k].pos[3] = w;
        q[k].color[0] = far ? 1.0f : 0.0f;
        q[k].color[3] = 1;
    }
    for (int i = 0; i < 6; i++)
        v[i] = q[order[i]];
    static float px[W * H * 4];
    draw_float(NULL, v, 6, px);
    for (int y = 2; y < 30; y++) {
        double s = (y + 0.5 - 2) / 28.0;
        double u = (s / w1) / ((1 - s) / w0 + s / w1);
        cr_expect_float_eq(at(px, 16, y)[0], u, 2e-5, "row %d: %g, want %g", y, at(px, 16, y)[0], u);
    }
}

/* ---- facing and culling ----------------------------------------------------------------------- */

static void fs_facing(tr_fs_block *b)
{
    for (uint32_t l = 0; l < b->count; l++) {
        b->color[0][0][l] = b->front_facing ? 1.0f : 0.0f;
        b->color[0][1][l] = b->front_facing ? 0.0f : 1.0f;
        b->color[0][2][l] = 0;
        b->color[0][3][l] = 1;
    }
}

Test(raster, front_face_and_cull_modes)
{
    /* Left: counter-clockwise on screen; right: clockwise. */
    trt_vertex v[6] = {
        vc(1, 1, 0, 0, 0), vc(1, 15, 0, 0, 0), vc(15, 1, 0, 0, 0),
        vc(17, 1, 0, 0, 0), vc(31, 1, 0, 0, 0), vc(17, 15, 0, 0, 0),
    };
    static float px[W * H * 4];
    for (int ff = 0; ff < 2; ff++)
        for (int cull = 0; cull < 4; cull++) {
            tr_pipeline_desc pd = {0};
            pd.fragment_shader = fs_facing;
            pd.front_face = (tr_front_face)ff;
            pd.cull_mode = (tr_cull_mode)cull;
            draw_float(&pd, v, 6, px);
            int left_front = ff == TR_FRONT_FACE_CCW;
            for (int side = 0; side < 2; side++) {
                int front = side == 0 ? left_front : !left_front;
                int culled = cull == TR_CULL_FRONT_AND_BACK || (cull == TR_CULL_FRONT && front) ||
                             (cull == TR_CULL_BACK && !front);
                const float *p = at(px, side ? 20 : 4, 4);
                float want_r = culled ? -1.0f : front ? 1.0f : 0.0f;
                cr_expect_eq(p[0], want_r, "front_face %d cull %d side %d: r %g, want %g", ff, cull,
                             side, p[0], want_r);
            }
        }
}

Test(raster, flipped_viewport_flips_facing)
{
    /* A negative viewport height mirrors y, so the winding in the
     * framebuffer (what Vulkan tests) flips too. */
    target t = make_target(TR_FORMAT_R32G32B32A32_SFLOAT);
    tr_pipeline_desc pd = {0};
    pd.fragment_shader = fs_facing;
    tr_pipeline *p = trt_pipeline(t.ctx, &pd);
    trt_vertex v[3] = {vc(1, 1, 0, 0, 0), vc(1, 15, 0, 0, 0), vc(15, 1, 0, 0, 0)}; /* CCW */
    trt_begin_color(t.ctx, t.img, NULL);
    TRT_OK(tr_cmd_bind_pipeline(t.ctx, p));
    tr_viewport vp = {0, H, W, -(float)H, 0, 1};
    TRT_OK(tr_cmd_set_viewport(t.ctx, &vp));
    trt_draw(t.ctx, v, 3);
    TRT_OK(tr_cmd_end_render_pass(t.ctx, NULL));
    static float px[W * H * 4];
    read_float(&t, px);
    /* mirrored: it now lies at the bottom left, clockwise on screen */
    cr_expect_eq(at(px, 4, 27)[0], 0.0f, "front_facing should be 0");
    cr_expect_eq(at(px, 4, 27)[1], 1.0f);
    tr_context_destroy(t.ctx);
}

/* ---- primitive ids, indices, instances ------------------------------------------------------- */

static void fs_prim_id(tr_fs_block *b)
{
    for (uint32_t l = 0; l < b->count; l++) {
        b->color[0][0][l] = (float)b->primitive_id;
        b->color[0][1][l] = b->varyings[0][0][l];
        b->color[0][2][l] = 0;
        b->color[0][3][l] = 1;
    }
}

Test(raster, primitive_id_counts_triangles_in_a_draw)
{
    trt_vertex v[12];
    for (int i = 0; i < 4; i++) {
        float x = (float)(i * 8);
        v[3 * i + 0] = vc(x, 0, 0, 0, 0);
        v[3 * i + 1] = vc(x, 8, 0, 0, 0);
        v[3 * i + 2] = vc(x + 8, 0, 0, 0, 0);
    }
    tr_pipeline_desc pd = {0};
    pd.fragment_shader = fs_prim_id;
    static float px[W * H * 4];
    draw_float(&pd, v, 12, px);
    for (int i = 0; i < 4; i++)
        cr_expect_eq(at(px, i * 8 + 1, 1)[0], (float)i, "triangle %d: id %g", i,
                     at(px, i * 8 + 1, 1)[0]);
}

Test(raster, indexed_draw_with_first_index_and_vertex_offset)
{
    /* vertex_index = index + vertex_offset */
    target t = make_target(TR_FORMAT_R32G32B32A32_SFLOAT);
    tr_pipeline_desc pd = {0};
    pd.flat_mask = 1;
    tr_pipeline *p = trt_pipeline(t.ctx, &pd);
    trt_vertex v[8];
    for (int i = 0; i < 8; i++)
        v[i] = vc(0, 0, (float)i / 8, 0, 0);
    v[5] = vc(2, 2, 0.625f, 0, 0);
    v[6] = vc(2, 20, 0.75f, 0, 0);
    v[7] = vc(20, 2, 0.875f, 0, 0);
    static const uint32_t idx32[] = {9, 9, 9, 2, 3, 4, 9};
    static const uint16_t idx16[] = {7, 2, 4, 3};
    trt_begin_color(t.ctx, t.img, NULL);
    TRT_OK(tr_cmd_bind_pipeline(t.ctx, p));
    trt_uniforms u;
    memset(&u, 0, sizeof u);
    u.vertices = v;
    TRT_OK(tr_cmd_set_uniforms(t.ctx, &u, sizeof u));
    /* indices 2,3,4 + offset 3 -> vertices 5,6,7 */
    TRT_OK(tr_cmd_bind_index_buffer(t.ctx, idx32, sizeof idx32, 0, TR_INDEX_U32));
    TRT_OK(tr_cmd_draw_indexed(t.ctx, 3, 1, 3, 3, 0));
    TRT_OK(tr_cmd_end_render_pass(t.ctx, NULL));
    static float px[W * H * 4];
    read_float(&t, px);
    cr_expect_eq(at(px, 4, 4)[0], 0.625f, "got %g", at(px, 4, 4)[0]);

    trt_begin_color(t.ctx, t.img, NULL);
    TRT_OK(tr_cmd_bind_pipeline(t.ctx, p));
    TRT_OK(tr_cmd_set_uniforms(t.ctx, &u, sizeof u));
    /* indices {7,2,4,3} from first_index 1: 2,4,3 with offset +3 -> 5,7,6 */
    TRT_OK(tr_cmd_bind_index_buffer(t.ctx, idx16, sizeof idx16, 0, TR_INDEX_U16));
    TRT_OK(tr_cmd_draw_indexed(t.ctx, 3, 1, 1, 3, 0));
    TRT_OK(tr_cmd_end_render_pass(t.ctx, NULL));
    read_float(&t, px);
    cr_expect_eq(at(px, 4, 4)[0], 0.625f, "got %g", at(px, 4, 4)[0]);
    tr_context_destroy(t.ctx);
}

Test(raster, instanced_draw_with_first_instance)
{
    /* instance_index includes first_instance; trt_vs shifts by
     * instance_index * instance_dx and reads vertices[vi + ii * stride]. */
    target t = make_target(TR_FORMAT_R32G32B32A32_SFLOAT);
    tr_pipeline_desc pd = {0};
    pd.flat_mask = 1;
    tr_pipeline *p = trt_pipeline(t.ctx, &pd);
    trt_vertex v[15];
    for (int i = 0; i < 5; i++) {
        float c = 0.1f * (float)(i + 1);
        v[3 * i + 0] = vc(0, 0, c, 0, 0);
        v[3 * i + 1] = vc(0, 6, c, 0, 0);
        v[3 * i + 2] = vc(6, 0, c, 0, 0);
    }
    trt_begin_color(t.ctx, t.img, NULL);
    TRT_OK(tr_cmd_bind_pipeline(t.ctx, p));
    trt_uniforms u;
    memset(&u, 0, sizeof u);
    u.vertices = v;
    u.instance_stride = 3;
    u.instance_dx = 0.25f; /* 4 px per instance on a 32-wide target */
    TRT_OK(tr_cmd_set_uniforms(t.ctx, &u, sizeof u));
    TRT_OK(tr_cmd_draw(t.ctx, 3, 3, 0, 2)); /* instances 2, 3, 4 */
    tr_pass_stats st;
    TRT_OK(tr_cmd_end_render_pass(t.ctx, &st));
    static float px[W * H * 4];
    read_float(&t, px);
    for (int inst = 2; inst <= 4; inst++)
        cr_expect_eq(at(px, inst * 4 + 0.5f, 0.5f)[0], 0.1f * (float)(inst + 1),
                     "instance %d: %g", inst, at(px, inst * 4 + 0.5f, 0.5f)[0]);
    cr_expect_eq(at(px, 0, 0)[0], 0.0f, "instances 0 and 1 must not be drawn");
    cr_expect_eq(st.primitives_in, 3);
    tr_context_destroy(t.ctx);
}

/* ---- fragment inputs ----------------------------------------------------------------------------- */

static void fs_coords(tr_fs_block *b)
{
    for (uint32_t l = 0; l < b->count; l++) {
        b->color[0][0][l] = b->frag_x[l];
        b->color[0][1][l] = b->frag_y[l];
        b->color[0][2][l] = b->frag_z[l];
        b->color[0][3][l] = b->frag_w[l];
    }
}

Test(raster, frag_coord_is_the_pixel_centre)
{
    /* Full-screen at z/w = 0.25, w = 2: frag_w = 1/w = 0.5. */
    trt_vertex v[6];
    static const float q[6][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, -1}, {1, 1}, {-1, 1}};
    for (int i = 0; i < 6; i++) {
        memset(&v[i], 0, sizeof v[i]);
        v[i].pos[0] = q[i][0] * 2;
        v[i].pos[1] = q[i][1] * 2;
        v[i].pos[2] = 0.5f;
        v[i].pos[3] = 2;
    }
    tr_pipeline_desc pd = {0};
    pd.fragment_shader = fs_coords;
    static float px[W * H * 4];
    draw_float(&pd, v, 6, px);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            const float *p = at(px, (float)x, (float)y);
            cr_assert_eq(p[0], x + 0.5f, "frag_x at (%d,%d): %g", x, y, p[0]);
            cr_assert_eq(p[1], y + 0.5f, "frag_y at (%d,%d): %g", x, y, p[1]);
            cr_assert_float_eq(p[2], 0.25f, 1e-6, "frag_z at (%d,%d): %g", x, y, p[2]);
            cr_assert_float_eq(p[3], 0.5f, 1e-6, "frag_w at (%d,%d): %g", x, y, p[3]);
        }
}

static void fs_lanes(tr_fs_block *b)
{
    /* lane = 4*quad + 2*dy + dx: check the quad layout against frag_x/y */
    for (uint32_t l = 0; l < b->count; l++) {
        uint32_t q = l / 4, dx = l & 1, dy = (l >> 1) & 1;
        float x0 = b->frag_x[4 * q], y0 = b->frag_y[4 * q];
        int ok = b->frag_x[l] == x0 + (float)dx && b->frag_y[l] == y0 + (float)dy &&
                 fmodf(x0 - 0.5f, 2.0f) == 0.0f && fmodf(y0 - 0.5f, 2.0f) == 0.0f;
        b->color[0][0][l] = ok ? 1.0f : 0.0f;
        b->color[0][1][l] = (b->live >> l) & 1 ? 1.0f : 0.0f;
        b->color[0][2][l] = b->count % 4 == 0 && b->count <= TR_FS_LANES ? 1.0f : 0.0f;
        b->color[0][3][l] = 1;
    }
}

Test(raster, fragment_blocks_are_whole_quads)
{
    trt_vertex v[3] = {vc(0.3f, 0.7f, 0, 0, 0), vc(31.2f, 5.1f, 0, 0, 0), vc(7.7f, 30.9f, 0, 0, 0)};
    tr_pipeline_desc pd = {0};
    pd.fragment_shader = fs_lanes;
    static float px[W * H * 4];
    draw_float(&pd, v, 3, px);
    uint8_t cov[W * H] = {0};
    static const float tri[3][2] = {{0.3f, 0.7f}, {31.2f, 5.1f}, {7.7f, 30.9f}};
    trt_ref_triangle(tri, TR_TIE_TOP_LEFT, W, H, cov);
    for (int i = 0; i < W * H; i++) {
        if (!cov[i]) {
            cr_assert_eq(px[i * 4], -1.0f, "pixel %d written but not covered", i);
            continue;
        }
        cr_assert_eq(px[i * 4 + 0], 1.0f, "pixel %d: lane layout is not 4*quad + 2*dy + dx", i);
        cr_assert_eq(px[i * 4 + 1], 1.0f, "pixel %d: written from a lane not marked live", i);
        cr_assert_eq(px[i * 4 + 2], 1.0f, "pixel %d: block count not whole quads", i);
    }
}
