/* SPIR-V execution: built-ins and the interface.  gl_FragCoord,
 * gl_FrontFacing, gl_PrimitiveID, gl_VertexIndex / gl_InstanceIndex,
 * gl_PointSize / gl_PointCoord, gl_FragDepth, gl_SampleID /
 * gl_SamplePosition / gl_SampleMaskIn / gl_SampleMask in a 4x pass, vertex
 * attributes at locations (float and integer formats), flat /
 * noperspective / centroid varyings (against a C pipeline with flat_mask
 * and noperspective_mask: the library interpolates both), several colour
 * outputs of different formats, and an HLSL pair. */
#include "spv_harness.h"

#define CLEAR 0xdeadbeefu

static void clear_sentinel(spvh_draw *d)
{
    for (int c = 0; c < 4; c++)
        d->clear_bits[c] = CLEAR;
}

Test(spirv_builtins, frag_coord_xyzw)
{
    spvh_draw d;
    memset(&d, 0, sizeof d);
    d.w = 24;
    d.h = 20;
    d.vs = "#version 450\n"
           "void main() {\n"
           "    vec2 p = vec2(float((gl_VertexIndex & 1) * 4) - 1.0, float((gl_VertexIndex & 2) * 2) - 1.0);\n"
           "    gl_Position = vec4(p * 2.0, 0.5, 2.0);\n" /* w = 2: z / w = 0.25, 1 / w = 0.5 */
           "}\n";
    d.fs = "#version 450\nlayout(location = 0) out uvec4 o;\nvoid main() { o = floatBitsToUint(gl_FragCoord); }\n";
    uint32_t *px = spvh_render(&d);
    for (uint32_t y = 0; y < 20; y++)
        for (uint32_t x = 0; x < 24; x++) {
            const uint32_t *p = spvh_px(px, 24, x, y);
            SPVH_EXPECT_F32(p[0], (float)x + 0.5f, "gl_FragCoord.x at (%u, %u)", x, y);
            SPVH_EXPECT_F32(p[1], (float)y + 0.5f, "gl_FragCoord.y at (%u, %u)", x, y);
            SPVH_EXPECT_F32(p[2], 0.25f, "gl_FragCoord.z at (%u, %u)", x, y);
            SPVH_EXPECT_F32(p[3], 0.5f, "gl_FragCoord.w = 1 / w at (%u, %u)", x, y);
        }
    free(px);
}

/* Two triangles: the first (0,0) (16,0) (0,16) in pixels, clockwise as seen
 * in the framebuffer (y down), so back-facing under the default
 * counter-clockwise front face; the second, (16,16) (16,0) (0,16),
 * counter-clockwise: front-facing. */
static const char *const two_tris_vs =
    "#version 450\n"
    "const vec2 P[6] = vec2[6](vec2(-1, -1), vec2(1, -1), vec2(-1, 1), vec2(1, 1), vec2(1, -1), vec2(-1, 1));\n"
    "void main() { gl_Position = vec4(P[gl_VertexIndex], 0.0, 1.0); }\n";

static void c_two_tris_vs(tr_vs_batch *b)
{
    static const float P[6][2] = {{-1, -1}, {1, -1}, {-1, 1}, {1, 1}, {1, -1}, {-1, 1}};
    for (uint32_t l = 0; l < b->count; l++) {
        b->position[0][l] = P[b->vertex_index[l]][0];
        b->position[1][l] = P[b->vertex_index[l]][1];
        b->position[2][l] = 0.0f;
        b->position[3][l] = 1.0f;
    }
}

static void c_facing_fs(tr_fs_block *b)
{
    for (uint32_t l = 0; l < b->count; l++) {
        const uint32_t v[4] = {b->front_facing ? 1u : 0u, b->primitive_id, 0, 0};
        for (int c = 0; c < 4; c++)
            memcpy(&b->color[0][c][l], &v[c], 4);
    }
}

Test(spirv_builtins, front_facing_and_primitive_id)
{
    spvh_draw d;
    memset(&d, 0, sizeof d);
    d.vs = two_tris_vs;
    d.vertex_count = 6;
    d.fs = "#version 450\nlayout(location = 0) out uvec4 o;\n"
           "void main() { o = uvec4(gl_FrontFacing ? 1u : 0u, uint(gl_PrimitiveID), 0u, 0u); }\n";
    uint32_t *px = spvh_render(&d);

    /* the C path over the same triangles */
    tr_context *ctx = spvh_context(1, 0);
    tr_pipeline_desc pd = {0};
    pd.vertex_shader = c_two_tris_vs;
    pd.fragment_shader = c_facing_fs;
    tr_pipeline *pl = NULL;
    TRT_OK(tr_pipeline_create(ctx, &pd, &pl));
    tr_image *img = trt_image(ctx, TR_FORMAT_R32G32B32A32_UINT, 16, 16);
    trt_begin_color(ctx, img, NULL);
    TRT_OK(tr_cmd_bind_pipeline(ctx, pl));
    TRT_OK(tr_cmd_draw(ctx, 6, 1, 0, 0));
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    uint32_t *ref = malloc(16 * 16 * 16);
    trt_download(img, 0, 0, TR_ASPECT_COLOR, ref);

    for (uint32_t y = 0; y < 16; y++)
        for (uint32_t x = 0; x < 16; x++) {
            const int second = x + y > 15; /* centre (x + .5, y + .5) past the diagonal x + y = 16 */
            const uint32_t *p = spvh_px(px, 16, x, y);
            SPVH_EXPECT_U32(p[0], spvh_px(ref, 16, x, y)[0], "front_facing of the C path at (%u, %u)", x, y);
            SPVH_EXPECT_U32(p[1], spvh_px(ref, 16, x, y)[1], "primitive_id of the C path at (%u, %u)", x, y);
            if (x + y == 15)
                continue; /* centres on the shared edge: the tie rule's */
            SPVH_EXPECT_U32(p[0], second ? 1u : 0u, "gl_FrontFacing at (%u, %u)", x, y);
            SPVH_EXPECT_U32(p[1], second ? 1u : 0u, "gl_PrimitiveID at (%u, %u)", x, y);
        }
    free(ref);
    free(px);
    tr_image_destroy(img);
    tr_pipeline_destroy(pl);
    tr_context_destroy(ctx);
}

/* Two instances of two triangles, first vertex 10 and first instance 3:
 * instance i covers columns [4 i, 4 i + 4) (0.5 wide in clip space).  Flat varyings carry the
 * provoking (first) vertex's gl_VertexIndex and its gl_InstanceIndex. */
Test(spirv_builtins, vertex_and_instance_index)
{
    spvh_draw d;
    memset(&d, 0, sizeof d);
    d.vs = "#version 450\n"
           "const vec2 P[6] = vec2[6](vec2(0, 0), vec2(1, 0), vec2(0, 1), vec2(1, 0), vec2(1, 1), vec2(0, 1));\n"
           "layout(location = 0) flat out uvec2 ids;\n"
           "void main() {\n"
           "    vec2 p = P[gl_VertexIndex - 10];\n"
           "    float x0 = float(gl_InstanceIndex - 3) * 0.5;\n"
           "    gl_Position = vec4(-1.0 + x0 + p.x * 0.5, -1.0 + p.y * 2.0, 0.0, 1.0);\n"
           "    ids = uvec2(gl_VertexIndex, gl_InstanceIndex);\n"
           "}\n";
    d.fs = "#version 450\nlayout(location = 0) out uvec4 o;\nlayout(location = 0) flat in uvec2 ids;\n"
           "void main() { o = uvec4(ids, 0u, 0u); }\n";
    d.vertex_count = 6;
    d.instance_count = 2;
    d.first_vertex = 10;
    d.first_instance = 3;
    uint32_t *px = spvh_render(&d);
    for (uint32_t y = 0; y < 16; y++)
        for (uint32_t x = 0; x < 16; x++) {
            const uint32_t *p = spvh_px(px, 16, x, y);
            const uint32_t inst = x / 4; /* clip width 0.5 = 4 columns */
            if (inst > 1) {
                SPVH_EXPECT_U32(p[0], 0u, "(%u, %u) not covered", x, y);
                continue;
            }
            /* local coordinates in the instance's unit square */
            const double u = ((double)x + 0.5 - 4.0 * inst) / 4.0, v = ((double)y + 0.5) / 16.0;
            const uint32_t tri = u + v < 1.0 ? 0u : 1u;
            SPVH_EXPECT_U32(p[0], 10u + 3u * tri, "gl_VertexIndex of the provoking vertex at (%u, %u)", x, y);
            SPVH_EXPECT_U32(p[1], 3u + inst, "gl_InstanceIndex at (%u, %u)", x, y);
        }
    free(px);
}

Test(spirv_builtins, point_size_and_point_coord)
{
    tr_pipeline_desc base;
    memset(&base, 0, sizeof base);
    base.topology = TR_TOPOLOGY_POINT_LIST;
    spvh_draw d;
    memset(&d, 0, sizeof d);
    d.base = &base;
    d.vertex_count = 1;
    d.vs = "#version 450\nvoid main() { gl_Position = vec4(0.0, 0.0, 0.0, 1.0); gl_PointSize = 4.0; }\n";
    d.fs = "#version 450\nlayout(location = 0) out uvec4 o;\n"
           "void main() { o = uvec4(floatBitsToUint(gl_PointCoord), 1u, 2u); }\n";
    clear_sentinel(&d);
    uint32_t *px = spvh_render(&d);
    for (uint32_t y = 0; y < 16; y++)
        for (uint32_t x = 0; x < 16; x++) {
            const uint32_t *p = spvh_px(px, 16, x, y);
            const int in = x >= 6 && x < 10 && y >= 6 && y < 10;
            if (!in) {
                SPVH_EXPECT_U32(p[0], CLEAR, "(%u, %u) outside the 4-pixel point", x, y);
                continue;
            }
            SPVH_EXPECT_F32(p[0], ((float)x + 0.5f - 6.0f) * 0.25f, "gl_PointCoord.x at (%u, %u)", x, y);
            SPVH_EXPECT_F32(p[1], ((float)y + 0.5f - 6.0f) * 0.25f, "gl_PointCoord.y at (%u, %u)", x, y);
            SPVH_EXPECT_U32(p[2], 1u, "(%u, %u)", x, y);
        }
    free(px);
}

/* gl_FragDepth, clamped to the viewport's depth range [0, 1]. */
Test(spirv_builtins, frag_depth)
{
    tr_context *ctx = spvh_context(2, 0);
    tr_image *depth = trt_image(ctx, TR_FORMAT_D32_SFLOAT, 16, 16);
    tr_pipeline_desc base;
    memset(&base, 0, sizeof base);
    base.depth_test = 1;
    base.depth_write = 1;
    base.depth_compare = TR_COMPARE_ALWAYS;
    spvh_draw d;
    memset(&d, 0, sizeof d);
    d.base = &base;
    d.depth = depth;
    d.fs = "#version 450\nlayout(location = 0) out uvec4 o;\n"
           "void main() {\n"
           "    float x = gl_FragCoord.x, y = gl_FragCoord.y;\n"
           "    gl_FragDepth = x * 0.1 - y * 0.013 - 0.2;\n"
           "    o = uvec4(7u);\n"
           "}\n";
    uint32_t *px = calloc(256, 16);
    TRT_OK(spvh_render_ctx(ctx, &d, px));
    TRT_OK(d.draw_result);
    float *z = malloc(256 * sizeof(float));
    trt_download(depth, 0, 0, TR_ASPECT_DEPTH, z);
    for (uint32_t y = 0; y < 16; y++)
        for (uint32_t x = 0; x < 16; x++) {
            const float fx = (float)x + 0.5f, fy = (float)y + 0.5f;
            float want = fx * 0.1f - fy * 0.013f - 0.2f;
            want = want < 0.0f ? 0.0f : want > 1.0f ? 1.0f : want;
            SPVH_EXPECT_F32(spvh_f2u(z[y * 16 + x]), want, "depth at (%u, %u)", x, y);
            SPVH_EXPECT_U32(spvh_px(px, 16, x, y)[0], 7u, "(%u, %u)", x, y);
        }
    free(z);
    free(px);
    tr_image_destroy(depth);
    tr_context_destroy(ctx);
}

/* 4x MSAA: reading gl_SampleID shades per sample (Vulkan: only the shaded
 * sample's bit is in gl_SampleMaskIn); gl_SamplePosition is the standard
 * position (y down); gl_FragCoord is at the sample. */
Test(spirv_builtins, sample_id_position_mask_in)
{
    static const float pos[4][2] = {{0.375f, 0.125f}, {0.875f, 0.375f}, {0.125f, 0.625f}, {0.625f, 0.875f}};
    spvh_draw d;
    memset(&d, 0, sizeof d);
    d.samples = 4;
    d.color_count = 2;
    d.fs = "#version 450\nlayout(location = 0) out uvec4 o;\nlayout(location = 1) out uvec4 o1;\n"
           "void main() {\n"
           "    o = uvec4(uint(gl_SampleID), floatBitsToUint(gl_SamplePosition), uint(gl_SampleMaskIn[0]));\n"
           "    o1 = uvec4(floatBitsToUint(gl_FragCoord.xy), 0u, 0u);\n"
           "}\n";
    uint32_t *px = spvh_render(&d);
    for (uint32_t s = 0; s < 4; s++)
        for (uint32_t y = 0; y < 16; y++)
            for (uint32_t x = 0; x < 16; x++) {
                const uint32_t *p = px + 4 * ((size_t)s * 256 + y * 16 + x);
                const uint32_t *q = px + 4 * ((size_t)(4 + s) * 256 + y * 16 + x);
                SPVH_EXPECT_U32(p[0], s, "gl_SampleID of sample %u at (%u, %u)", s, x, y);
                SPVH_EXPECT_F32(p[1], pos[s][0], "gl_SamplePosition.x of sample %u", s);
                SPVH_EXPECT_F32(p[2], pos[s][1], "gl_SamplePosition.y of sample %u", s);
                SPVH_EXPECT_U32(p[3], 1u << s, "gl_SampleMaskIn of sample %u at (%u, %u)", s, x, y);
                SPVH_EXPECT_F32(q[0], (float)x + pos[s][0], "gl_FragCoord.x of sample %u", s);
                SPVH_EXPECT_F32(q[1], (float)y + pos[s][1], "gl_FragCoord.y of sample %u", s);
            }
    free(px);
}

/* gl_SampleMask keeps the samples of its bits (pixel rate: one invocation
 * for all four, gl_SampleMaskIn = 0xf on a fully covered pixel). */
Test(spirv_builtins, sample_mask_output)
{
    spvh_draw d;
    memset(&d, 0, sizeof d);
    d.samples = 4;
    clear_sentinel(&d);
    d.fs = "#version 450\nlayout(location = 0) out uvec4 o;\n"
           "void main() {\n"
           "    ivec2 p = ivec2(gl_FragCoord.xy);\n"
           "    gl_SampleMask[0] = ((p.x + p.y) & 1) == 0 ? 0x5 : 0xa;\n"
           "    o = uvec4(uint(gl_SampleMaskIn[0]), 7u, 8u, 9u);\n"
           "}\n";
    uint32_t *px = spvh_render(&d);
    for (uint32_t s = 0; s < 4; s++)
        for (uint32_t y = 0; y < 16; y++)
            for (uint32_t x = 0; x < 16; x++) {
                const uint32_t *p = px + 4 * ((size_t)s * 256 + y * 16 + x);
                const uint32_t m = ((x + y) & 1) == 0 ? 0x5u : 0xau;
                if (m >> s & 1u) {
                    SPVH_EXPECT_U32(p[0], 0xfu, "gl_SampleMaskIn at (%u, %u)", x, y);
                    SPVH_EXPECT_U32(p[1], 7u, "sample %u at (%u, %u) kept", s, x, y);
                } else {
                    SPVH_EXPECT_U32(p[1], CLEAR, "sample %u at (%u, %u) masked off", s, x, y);
                }
            }
    free(px);
}

/* ---- vertex attributes and interpolation --------------------------------------------------- */

typedef struct vtx {
    float pos[4];
    float attr[4];
    uint32_t id[4];
    float uv[2];
} vtx;

/* A triangle with different w at each vertex, so perspective correction matters. */
static const vtx tri[3] = {
    {{-0.9f, -0.95f, 0.2f, 1.0f}, {1.0f, 0.0f, 0.25f, -3.0f}, {11, 12, 13, 0xfffffff0u}, {0.5f, 0.25f}},
    {{3.2f, -1.8f, 0.5f, 4.0f}, {0.0f, 1.0f, 0.5f, 7.0f}, {21, 22, 23, 24}, {1.5f, -2.0f}},
    {{-1.1f, 2.3f, 0.9f, 2.0f}, {0.3f, 0.7f, 100.0f, 0.1f}, {31, 32, 33, 34}, {-0.5f, 8.0f}}};

static void attributes(tr_pipeline_desc *pd)
{
    pd->bindings[0].stride = sizeof(vtx);
    pd->attributes[0] = (tr_vertex_attribute){TR_VERTEX_FORMAT_R32G32B32A32_SFLOAT, 0, offsetof(vtx, pos)};
    pd->attributes[1] = (tr_vertex_attribute){TR_VERTEX_FORMAT_R32G32B32A32_SFLOAT, 0, offsetof(vtx, attr)};
    pd->attributes[2] = (tr_vertex_attribute){TR_VERTEX_FORMAT_R32G32B32A32_UINT, 0, offsetof(vtx, id)};
    pd->attributes[3] = (tr_vertex_attribute){TR_VERTEX_FORMAT_R32G32_SFLOAT, 0, offsetof(vtx, uv)};
}

static void c_attr_vs(tr_vs_batch *b)
{
    for (uint32_t l = 0; l < b->count; l++)
        for (int c = 0; c < 4; c++) {
            b->position[c][l] = b->attrib.f[0][c][l];
            for (int v = 0; v < 4; v++)
                b->varyings[v][c][l] = b->attrib.f[1][c][l];
        }
}

static void c_attr_fs(tr_fs_block *b)
{
    for (int v = 0; v < 4; v++)
        for (uint32_t l = 0; l < b->count; l++)
            for (int c = 0; c < 4; c++)
                b->color[v][c][l] = b->varyings[v][c][l];
}

Test(spirv_builtins, varyings_flat_noperspective_centroid)
{
    tr_pipeline_desc base;
    memset(&base, 0, sizeof base);
    attributes(&base);
    spvh_draw d;
    memset(&d, 0, sizeof d);
    d.base = &base;
    d.w = d.h = 32;
    d.vbuf = tri;
    d.vbuf_size = sizeof tri;
    d.color_count = 4;
    clear_sentinel(&d);
    d.vs = "#version 450\n"
           "layout(location = 0) in vec4 pos;\n"
           "layout(location = 1) in vec4 attr;\n"
           "layout(location = 0) out vec4 v_smooth;\n"
           "layout(location = 1) flat out vec4 v_flat;\n"
           "layout(location = 2) noperspective out vec4 v_np;\n"
           "layout(location = 3) centroid out vec4 v_centroid;\n"
           "void main() { gl_Position = pos; v_smooth = attr; v_flat = attr; v_np = attr; v_centroid = attr; }\n";
    d.fs = "#version 450\n"
           "layout(location = 0) in vec4 v_smooth;\n"
           "layout(location = 1) flat in vec4 v_flat;\n"
           "layout(location = 2) noperspective in vec4 v_np;\n"
           "layout(location = 3) centroid in vec4 v_centroid;\n"
           "layout(location = 0) out uvec4 o0;\n"
           "layout(location = 1) out uvec4 o1;\n"
           "layout(location = 2) out uvec4 o2;\n"
           "layout(location = 3) out uvec4 o3;\n"
           "void main() {\n"
           "    o0 = floatBitsToUint(v_smooth); o1 = floatBitsToUint(v_flat);\n"
           "    o2 = floatBitsToUint(v_np); o3 = floatBitsToUint(v_centroid);\n"
           "}\n";
    uint32_t *px = spvh_render(&d);

    /* the C path: flat_mask and noperspective_mask over the same draw */
    tr_context *ctx = spvh_context(1, 0);
    tr_pipeline_desc pd = base;
    pd.vertex_shader = c_attr_vs;
    pd.fragment_shader = c_attr_fs;
    pd.varying_count = 4;
    pd.flat_mask = 1u << 1;
    pd.noperspective_mask = 1u << 2;
    tr_pipeline *pl = NULL;
    TRT_OK(tr_pipeline_create(ctx, &pd, &pl));
    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.color_count = 4;
    tr_image *img[4];
    for (int a = 0; a < 4; a++) {
        img[a] = trt_image(ctx, TR_FORMAT_R32G32B32A32_UINT, 32, 32);
        rp.color[a].image = img[a];
        rp.color[a].load_op = TR_LOAD_OP_CLEAR;
        for (int c = 0; c < 4; c++)
            rp.color[a].clear_color[c] = spvh_u2f(CLEAR);
    }
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
    TRT_OK(tr_cmd_bind_pipeline(ctx, pl));
    TRT_OK(tr_cmd_bind_vertex_buffer(ctx, 0, tri, sizeof tri, 0));
    TRT_OK(tr_cmd_draw(ctx, 3, 1, 0, 0));
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    uint32_t *ref = malloc(4 * 32 * 32 * 16);
    for (int a = 0; a < 4; a++)
        trt_download(img[a], 0, 0, TR_ASPECT_COLOR, ref + (size_t)a * 32 * 32 * 4);

    uint32_t covered = 0, np_differs = 0, mismatches = 0;
    for (uint32_t i = 0; i < 32 * 32; i++) {
        const uint32_t *s = px + 4 * i;
        if (s[0] == CLEAR && s[1] == CLEAR)
            continue;
        covered++;
        for (int a = 0; a < 4; a++)
            for (int c = 0; c < 4; c++)
                mismatches += px[(size_t)a * 4096 + 4 * i + c] != ref[(size_t)a * 4096 + 4 * i + c];
        for (int c = 0; c < 4; c++) {
            SPVH_EXPECT_F32(px[4096 + 4 * i + c], tri[0].attr[c], "flat: the first vertex's, pixel %u", i);
            SPVH_EXPECT_U32(px[3 * 4096 + 4 * i + c], s[c], "centroid in a single-sampled pass = centre, pixel %u", i);
        }
        np_differs += px[2 * 4096 + 4 * i] != s[0];
    }
    cr_expect_gt(covered, 100u);
    cr_expect_eq(mismatches, 0u, "SPIR-V varyings differ from the C path's (flat_mask, noperspective_mask)");
    cr_expect_gt(np_differs, covered / 2, "noperspective differs from perspective-correct");
    free(ref);
    free(px);
    for (int a = 0; a < 4; a++)
        tr_image_destroy(img[a]);
    tr_pipeline_destroy(pl);
    tr_context_destroy(ctx);
}

/* Vertex attributes: an integer format read as uvec4, a two-component
 * format read as vec4 (0, 0, 0, 1 filled in), a location the shader does
 * not read bound and ignored. */
Test(spirv_builtins, vertex_attribute_formats)
{
    tr_pipeline_desc base;
    memset(&base, 0, sizeof base);
    attributes(&base);
    spvh_draw d;
    memset(&d, 0, sizeof d);
    d.base = &base;
    d.vbuf = tri;
    d.vbuf_size = sizeof tri;
    clear_sentinel(&d);
    d.color_count = 2;
    d.vs = "#version 450\n"
           "layout(location = 0) in vec4 pos;\n"
           "layout(location = 2) in uvec4 id;\n"
           "layout(location = 3) in vec4 uv;\n"
           "layout(location = 0) flat out uvec4 v_id;\n"
           "layout(location = 1) flat out vec4 v_uv;\n"
           "void main() { gl_Position = pos; v_id = id + uvec4(gl_VertexIndex); v_uv = uv; }\n";
    d.fs = "#version 450\n"
           "layout(location = 0) flat in uvec4 v_id;\n"
           "layout(location = 1) flat in vec4 v_uv;\n"
           "layout(location = 0) out uvec4 o0;\n"
           "layout(location = 1) out uvec4 o1;\n"
           "void main() { o0 = v_id; o1 = floatBitsToUint(v_uv); }\n";
    uint32_t *px = spvh_render(&d);
    uint32_t covered = 0;
    for (uint32_t i = 0; i < 256; i++) {
        if (px[4 * i] == CLEAR)
            continue;
        covered++;
        for (int c = 0; c < 4; c++)
            SPVH_EXPECT_U32(px[4 * i + c], tri[0].id[c], "integer attribute of the provoking vertex, pixel %u", i);
        SPVH_EXPECT_F32(px[1024 + 4 * i + 0], tri[0].uv[0], "uv.x");
        SPVH_EXPECT_F32(px[1024 + 4 * i + 1], tri[0].uv[1], "uv.y");
        SPVH_EXPECT_F32(px[1024 + 4 * i + 2], 0.0f, "a missing component reads 0");
        SPVH_EXPECT_F32(px[1024 + 4 * i + 3], 1.0f, "a missing w reads 1");
    }
    cr_expect_gt(covered, 20u);
    free(px);
}

/* Several outputs into attachments of different formats. */
Test(spirv_builtins, multiple_color_outputs)
{
    spvh_draw d;
    memset(&d, 0, sizeof d);
    d.color_count = 3;
    d.format[0] = TR_FORMAT_R32G32B32A32_UINT;
    d.format[1] = TR_FORMAT_R32G32B32A32_SFLOAT;
    d.format[2] = TR_FORMAT_R32_SFLOAT;
    d.fs = "#version 450\n"
           "layout(location = 0) out uvec4 o0;\n"
           "layout(location = 1) out vec4 o1;\n"
           "layout(location = 2) out float o2;\n"
           "void main() {\n"
           "    ivec2 p = ivec2(gl_FragCoord.xy);\n"
           "    o0 = uvec4(p, 5u, 6u);\n"
           "    o1 = vec4(gl_FragCoord.xy * 0.1, -1.5, 1e-40);\n"
           "    o2 = gl_FragCoord.x - gl_FragCoord.y;\n"
           "}\n";
    uint32_t *px = spvh_render(&d);
    for (uint32_t y = 0; y < 16; y++)
        for (uint32_t x = 0; x < 16; x++) {
            const uint32_t *p0 = px + 4 * (y * 16 + x), *p1 = px + 1024 + 4 * (y * 16 + x);
            const uint32_t *p2 = px + 2048 + y * 64 + x; /* R32: 4 bytes a pixel, rows of 16 * w bytes */
            SPVH_EXPECT_U32(p0[0], x, "o0 at (%u, %u)", x, y);
            SPVH_EXPECT_U32(p0[1], y, "o0 at (%u, %u)", x, y);
            SPVH_EXPECT_U32(p0[3], 6u, "o0");
            SPVH_EXPECT_F32(p1[0], ((float)x + 0.5f) * 0.1f, "o1.x at (%u, %u)", x, y);
            SPVH_EXPECT_F32(p1[1], ((float)y + 0.5f) * 0.1f, "o1.y at (%u, %u)", x, y);
            SPVH_EXPECT_F32(p1[2], -1.5f, "o1.z");
            SPVH_EXPECT_F32(p1[3], 1e-40f, "o1.w: a denormal is stored as it is");
            SPVH_EXPECT_F32(p2[0], (float)x - (float)y, "o2 at (%u, %u)", x, y);
        }
    free(px);
}

/* HLSL through shaderc's HLSL front end: SV_VertexID, SV_Position, SV_Target. */
Test(spirv_builtins, hlsl_vertex_and_pixel_shader)
{
    spvh_draw d;
    memset(&d, 0, sizeof d);
    d.format[0] = TR_FORMAT_R32G32B32A32_SFLOAT;
    d.vs_lang = d.fs_lang = SPVH_HLSL;
    d.vs = "float4 main(uint id : SV_VertexID) : SV_Position {\n"
           "    float2 p = float2(float((id & 1) * 4) - 1.0, float((id & 2) * 2) - 1.0);\n"
           "    return float4(p, 0.0, 1.0);\n"
           "}\n";
    d.fs = "cbuffer C : register(b0) { float4 k; };\n"
           "float4 main(float4 pos : SV_Position) : SV_Target {\n"
           "    return float4(pos.x * k.x, pos.y + k.y, max(pos.x, pos.y), k.w);\n"
           "}\n";
    const float k[4] = {0.5f, 100.0f, 0.0f, -2.0f};
    d.ubo[0] = (spvh_ubo){0, k, sizeof k};
    uint32_t *px = spvh_render(&d);
    for (uint32_t y = 0; y < 16; y++)
        for (uint32_t x = 0; x < 16; x++) {
            const uint32_t *p = spvh_px(px, 16, x, y);
            const float fx = (float)x + 0.5f, fy = (float)y + 0.5f;
            SPVH_EXPECT_F32(p[0], fx * 0.5f, "(%u, %u)", x, y);
            SPVH_EXPECT_F32(p[1], fy + 100.0f, "(%u, %u)", x, y);
            SPVH_EXPECT_F32(p[2], fx > fy ? fx : fy, "(%u, %u)", x, y);
            SPVH_EXPECT_F32(p[3], -2.0f, "(%u, %u)", x, y);
        }
    free(px);
}

/* Push constants (tr_cmd_set_uniforms) and a uniform block with std140
 * offsets, an array stride and a row-major matrix. */
Test(spirv_builtins, push_constants_and_std140_layout)
{
    struct {
        float a;          /* 0 */
        float pad[3];
        float v[4];       /* 16 */
        float arr[3][4];  /* 32: float arr[3], stride 16 */
        float m[3][4];    /* 80: row_major mat3x3? std140 row-major mat3: 3 rows of vec4 */
        uint32_t u;       /* 128 */
    } ubo;
    memset(&ubo, 0, sizeof ubo);
    ubo.a = 2.0f;
    for (int i = 0; i < 4; i++)
        ubo.v[i] = (float)(i + 1) * 10.0f;
    for (int i = 0; i < 3; i++)
        ubo.arr[i][0] = (float)(i + 1) * 100.0f;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            ubo.m[r][c] = (float)(r * 3 + c);
    ubo.u = 0xabcdef01u;
    const uint32_t push[2] = {5u, spvh_f2u(0.25f)};
    spvh_draw d;
    memset(&d, 0, sizeof d);
    d.fs = "#version 450\n"
           "layout(location = 0) out uvec4 o;\n"
           "layout(binding = 3, std140) uniform U { float a; vec4 v; float arr[3]; layout(row_major) mat3 m; uint u; } u;\n"
           "layout(push_constant) uniform P { uint k; float f; } pc;\n"
           "void main() {\n"
           "    int i = int(gl_FragCoord.x) % 3;\n"
           "    vec3 mv = u.m * vec3(1.0, 10.0, 100.0);\n"
           "    o = uvec4(floatBitsToUint(u.a * u.v.w + u.arr[i]), floatBitsToUint(mv.x + mv.y * 1000.0 + mv.z * 1000000.0),\n"
           "              u.u, pc.k + floatBitsToUint(pc.f));\n"
           "}\n";
    d.ubo[0] = (spvh_ubo){3, &ubo, sizeof ubo};
    d.push = push;
    d.push_size = sizeof push;
    uint32_t *px = spvh_render(&d);
    for (uint32_t y = 0; y < 16; y++)
        for (uint32_t x = 0; x < 16; x++) {
            const uint32_t *p = spvh_px(px, 16, x, y);
            /* row-major: row r of the matrix is ubo.m[r]; (m * v)[r] = sum_c m[r][c] * v[c] */
            float mv[3];
            for (int r = 0; r < 3; r++)
                mv[r] = ubo.m[r][0] * 1.0f + ubo.m[r][1] * 10.0f + ubo.m[r][2] * 100.0f;
            SPVH_EXPECT_F32(p[0], 2.0f * 40.0f + ubo.arr[x % 3][0], "(%u, %u)", x, y);
            SPVH_EXPECT_F32(p[1], mv[0] + mv[1] * 1000.0f + mv[2] * 1000000.0f, "row-major mat3");
            SPVH_EXPECT_U32(p[2], 0xabcdef01u, "uint member at offset 128");
            SPVH_EXPECT_U32(p[3], 5u + spvh_f2u(0.25f), "push constants");
        }
    free(px);
}

/* Bytes past what was bound read 0 (shader.h). */
Test(spirv_builtins, uniform_bytes_past_the_bound_size_read_zero)
{
    const float k[2] = {3.0f, 4.0f};
    spvh_draw d;
    memset(&d, 0, sizeof d);
    d.fs = "#version 450\n"
           "layout(location = 0) out uvec4 o;\n"
           "layout(binding = 0) uniform U { vec4 a; vec4 b; } u;\n"
           "void main() { o = floatBitsToUint(vec4(u.a.xy, u.a.z + u.b.x, u.b.w)); }\n";
    d.ubo[0] = (spvh_ubo){0, k, sizeof k};
    uint32_t *px = spvh_render(&d);
    for (uint32_t i = 0; i < 256; i++) {
        SPVH_EXPECT_F32(px[4 * i + 0], 3.0f, "bound byte");
        SPVH_EXPECT_F32(px[4 * i + 1], 4.0f, "bound byte");
        SPVH_EXPECT_F32(px[4 * i + 2], 0.0f, "past the bound size");
        SPVH_EXPECT_F32(px[4 * i + 3], 0.0f, "past the bound size");
    }
    free(px);
}

/* ---- the vertex stage diverges per lane ---------------------------------------------------- */

static uint32_t vertex_value(uint32_t i)
{
    uint32_t h = i * 2654435761u;
    for (uint32_t k = 0; k < (i % 13u); k++) {
        if ((h & 3u) == 1u)
            continue;
        h = h * 31u + k;
        if (h % 7u == 0u)
            break;
    }
    switch (i % 4u) {
    case 0:
        h ^= 0xabcu;
        break;
    case 1:
        h += 5u;
        /* fallthrough */
    default:
        h = (h << 3) | (h >> 29);
    }
    return h;
}

/* 300 points, one per pixel of a 20 x 15 target: each vertex of each batch
 * of 16 runs its own trip count and branches; gl_VertexIndex places it. */
Test(spirv_builtins, vertex_stage_divergence_over_many_vertices)
{
    tr_pipeline_desc base;
    memset(&base, 0, sizeof base);
    base.topology = TR_TOPOLOGY_POINT_LIST;
    spvh_draw d;
    memset(&d, 0, sizeof d);
    d.base = &base;
    d.w = 20;
    d.h = 15;
    d.vertex_count = 300;
    clear_sentinel(&d);
    d.vs = "#version 450\n"
           "layout(location = 0) flat out uint v;\n"
           "void main() {\n"
           "    uint i = uint(gl_VertexIndex);\n"
           "    uint h = i * 2654435761u;\n"
           "    for (uint k = 0u; k < (i % 13u); k++) {\n"
           "        if ((h & 3u) == 1u) continue;\n"
           "        h = h * 31u + k;\n"
           "        if (h % 7u == 0u) break;\n"
           "    }\n"
           "    switch (i % 4u) {\n"
           "    case 0u: h ^= 0xabcu; break;\n"
           "    case 1u: h += 5u;\n"
           "    default: h = (h << 3) | (h >> 29);\n"
           "    }\n"
           "    v = h;\n"
           "    float x = (float(i % 20u) + 0.5) * 0.1 - 1.0, y = (float(i / 20u) + 0.5) * (2.0 / 15.0) - 1.0;\n"
           "    gl_Position = vec4(x, y, 0.0, 1.0);\n"
           "    gl_PointSize = 1.0;\n"
           "}\n";
    d.fs = "#version 450\nlayout(location = 0) flat in uint v;\nlayout(location = 0) out uvec4 o;\n"
           "void main() { o = uvec4(v, uvec2(gl_FragCoord.xy), 1u); }\n";
    uint32_t *px = spvh_render(&d);
    for (uint32_t i = 0; i < 300; i++) {
        const uint32_t *p = spvh_px(px, 20, i % 20, i / 20);
        SPVH_EXPECT_U32(p[0], vertex_value(i), "vertex %u", i);
        SPVH_EXPECT_U32(p[1], i % 20, "vertex %u's pixel", i);
        SPVH_EXPECT_U32(p[2], i / 20, "vertex %u's pixel", i);
    }
    free(px);
}

/* ---- multiview --------------------------------------------------------------------------- */

/* view_mask 0b101: views 0 and 2 render into layers 0 and 2; both stages
 * see gl_ViewIndex. */
Test(spirv_builtins, view_index_multiview)
{
    tr_context *ctx = spvh_context(2, 0);
    tr_shader_module *vm = spvh_module(ctx,
                                       "#version 450\n#extension GL_EXT_multiview : require\n"
                                       "layout(location = 0) flat out uint vview;\n"
                                       "void main() {\n"
                                       "    vec2 p = vec2(float((gl_VertexIndex & 1) * 4) - 1.0, float((gl_VertexIndex & 2) * 2) - 1.0);\n"
                                       "    gl_Position = vec4(p, 0.0, 1.0); vview = gl_ViewIndex * 10u;\n"
                                       "}\n",
                                       shaderc_vertex_shader);
    tr_shader_module *fm = spvh_module(ctx,
                                       "#version 450\n#extension GL_EXT_multiview : require\n"
                                       "layout(location = 0) flat in uint vview;\n"
                                       "layout(location = 0) out uvec4 o;\n"
                                       "void main() { o = uvec4(gl_ViewIndex, vview, 7u, 8u); }\n",
                                       shaderc_fragment_shader);
    tr_pipeline_desc pd = {0};
    pd.vertex_module = vm;
    pd.fragment_module = fm;
    tr_pipeline *pl = NULL;
    TRT_OK(tr_pipeline_create(ctx, &pd, &pl));
    tr_image *img = trt_image_layers(ctx, TR_FORMAT_R32G32B32A32_UINT, 16, 16, 3);
    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.color_count = 1;
    rp.color[0].image = img;
    rp.color[0].load_op = TR_LOAD_OP_CLEAR;
    rp.view_mask = 0x5;
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
    TRT_OK(tr_cmd_bind_pipeline(ctx, pl));
    TRT_OK(tr_cmd_draw(ctx, 3, 1, 0, 0));
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    uint32_t *px = malloc(16 * 16 * 16);
    for (uint32_t layer = 0; layer < 3; layer += 2) {
        trt_download(img, 0, layer, TR_ASPECT_COLOR, px);
        for (uint32_t i = 0; i < 256; i++) {
            SPVH_EXPECT_U32(px[4 * i], layer, "gl_ViewIndex in the fragment stage, layer %u", layer);
            SPVH_EXPECT_U32(px[4 * i + 1], layer * 10u, "gl_ViewIndex in the vertex stage, layer %u", layer);
        }
    }
    free(px);
    tr_image_destroy(img);
    tr_pipeline_destroy(pl);
    tr_shader_module_destroy(vm);
    tr_shader_module_destroy(fm);
    tr_context_destroy(ctx);
}

/* Push constants use std430: a float array has a stride of 4. */
Test(spirv_builtins, push_constant_std430_arrays)
{
    const float push[6] = {1.5f, 2.5f, 3.5f, 4.5f, 5.5f, 6.5f};
    spvh_draw d;
    memset(&d, 0, sizeof d);
    d.fs = "#version 450\n"
           "layout(location = 0) out uvec4 o;\n"
           "layout(push_constant) uniform P { float a[4]; vec2 b; } pc;\n"
           "void main() { int i = int(gl_FragCoord.x) & 3;\n"
           "    o = floatBitsToUint(vec4(pc.a[i], pc.a[3], pc.b)); }\n";
    d.push = push;
    d.push_size = sizeof push;
    uint32_t *px = spvh_render(&d);
    for (uint32_t y = 0; y < 16; y++)
        for (uint32_t x = 0; x < 16; x++) {
            const uint32_t *p = spvh_px(px, 16, x, y);
            SPVH_EXPECT_F32(p[0], push[x & 3], "pc.a[%u]", x & 3);
            SPVH_EXPECT_F32(p[1], 4.5f, "pc.a[3]");
            SPVH_EXPECT_F32(p[2], 5.5f, "pc.b.x at offset 16");
            SPVH_EXPECT_F32(p[3], 6.5f, "pc.b.y");
        }
    free(px);
}

/* A `sample` varying shades per sample (4x) and is interpolated at the
 * sample: an affine varying equal to the framebuffer x reads x + the
 * sample's position. */
Test(spirv_builtins, sample_qualified_varying)
{
    static const float pos[4][2] = {{0.375f, 0.125f}, {0.875f, 0.375f}, {0.125f, 0.625f}, {0.625f, 0.875f}};
    spvh_draw d;
    memset(&d, 0, sizeof d);
    d.samples = 4;
    d.vs = "#version 450\n"
           "layout(location = 0) out vec2 fxy;\n"
           "void main() {\n"
           "    vec2 p = vec2(float((gl_VertexIndex & 1) * 4) - 1.0, float((gl_VertexIndex & 2) * 2) - 1.0);\n"
           "    gl_Position = vec4(p, 0.0, 1.0); fxy = (p + 1.0) * 8.0;\n"
           "}\n";
    d.fs = "#version 450\nlayout(location = 0) sample in vec2 fxy;\nlayout(location = 0) out uvec4 o;\n"
           "void main() { o = uvec4(floatBitsToUint(fxy), 0u, 0u); }\n";
    uint32_t *px = spvh_render(&d);
    for (uint32_t s = 0; s < 4; s++)
        for (uint32_t y = 0; y < 16; y++)
            for (uint32_t x = 0; x < 16; x++) {
                const uint32_t *p = px + 4 * ((size_t)s * 256 + y * 16 + x);
                const float gx = spvh_u2f(p[0]), gy = spvh_u2f(p[1]);
                cr_expect(fabsf(gx - ((float)x + pos[s][0])) < 1e-4f && fabsf(gy - ((float)y + pos[s][1])) < 1e-4f,
                          "sample %u at (%u, %u): (%a, %a), want (%g, %g)", s, x, y, (double)gx, (double)gy,
                          (double)((float)x + pos[s][0]), (double)((float)y + pos[s][1]));
            }
    free(px);
}

/* HLSL cbuffer packing (float3 after a float shares its 16 bytes: offset 4,
 * which Vulkan's relaxed block layout allows) and a float4x4 (row_major
 * in HLSL's default column_major memory = GLSL's row-major reading). */
Test(spirv_builtins, hlsl_cbuffer_packing)
{
    float cb[4 + 16 + 4];
    memset(cb, 0, sizeof cb);
    cb[0] = 2.0f;                                     /* float a   @ 0 */
    cb[1] = 3.0f, cb[2] = 5.0f, cb[3] = 7.0f;         /* float3 b  @ 4 */
    for (int i = 0; i < 16; i++)
        cb[4 + i] = (float)(i + 1);                   /* float4x4 m @ 16 */
    cb[20] = 11.0f;                                   /* float c @ 80 */
    spvh_draw d;
    memset(&d, 0, sizeof d);
    d.format[0] = TR_FORMAT_R32G32B32A32_SFLOAT;
    d.fs_lang = SPVH_HLSL;
    d.fs = "cbuffer C : register(b1) { float a; float3 b; float4x4 m; float c; };\n"
           "float4 main(float4 pos : SV_Position) : SV_Target {\n"
           "    float4 v = mul(m, float4(1.0, 10.0, 100.0, 1000.0));\n"
           "    return float4(a * b.x + b.z, v.x, v.w, c + b.y);\n"
           "}\n";
    d.ubo[0] = (spvh_ubo){1, cb, sizeof cb};
    uint32_t *px = spvh_render(&d);
    /* HLSL column_major default: the bytes hold columns, so mul(m, v)[r] =
     * sum_c m[r][c] v[c] with m[r][c] at float 4 + 4 c + r */
    float v[4];
    for (int r = 0; r < 4; r++)
        v[r] = cb[4 + r] * 1.0f + cb[4 + 4 + r] * 10.0f + cb[4 + 8 + r] * 100.0f + cb[4 + 12 + r] * 1000.0f;
    for (uint32_t i = 0; i < 256; i++) {
        SPVH_EXPECT_F32(px[4 * i + 0], 2.0f * 3.0f + 7.0f, "a * b.x + b.z (float3 at offset 4)");
        SPVH_EXPECT_F32(px[4 * i + 1], v[0], "mul(m, v).x");
        SPVH_EXPECT_F32(px[4 * i + 2], v[3], "mul(m, v).w");
        SPVH_EXPECT_F32(px[4 * i + 3], 11.0f + 5.0f, "c + b.y");
    }
    free(px);
}

/* Uniform arrays of structs with matrices, indexed per lane. */
Test(spirv_builtins, uniform_array_of_structs_dynamic_index)
{
    /* std140: struct S { vec2 p; float k; mat2 m; } -> p @0, k @8, m @16 (2 columns of stride 16): 48 bytes */
    float ubo[8][12];
    memset(ubo, 0, sizeof ubo);
    for (int i = 0; i < 8; i++) {
        ubo[i][0] = (float)i, ubo[i][1] = (float)(i * 2), ubo[i][2] = 0.5f * (float)i;
        ubo[i][4] = 1.0f + (float)i, ubo[i][5] = 2.0f; /* column 0 */
        ubo[i][8] = 3.0f, ubo[i][9] = -(float)i;       /* column 1 */
    }
    spvh_draw d;
    memset(&d, 0, sizeof d);
    d.fs = "#version 450\n"
           "struct S { vec2 p; float k; mat2 m; };\n"
           "layout(binding = 5, std140) uniform U { S s[8]; } u;\n"
           "layout(location = 0) out uvec4 o;\n"
           "void main() { ivec2 q = ivec2(gl_FragCoord.xy); int i = (q.x + 3 * q.y) & 7;\n"
           "    S s = u.s[i];\n"
           "    vec2 mv = s.m * s.p;\n"
           "    o = floatBitsToUint(vec4(mv, s.k + u.s[(i + 1) & 7].p.y, u.s[i].m[1][1])); }\n";
    d.ubo[0] = (spvh_ubo){5, ubo, sizeof ubo};
    uint32_t *px = spvh_render(&d);
    for (uint32_t y = 0; y < 16; y++)
        for (uint32_t x = 0; x < 16; x++) {
            const int i = (int)((x + 3 * y) & 7), j = (i + 1) & 7;
            const float *s = ubo[i];
            const float mv0 = s[4] * s[0] + s[8] * s[1], mv1 = s[5] * s[0] + s[9] * s[1];
            const uint32_t *p = spvh_px(px, 16, x, y);
            SPVH_EXPECT_F32(p[0], mv0, "(%u, %u) s[%d]", x, y, i);
            SPVH_EXPECT_F32(p[1], mv1, "(%u, %u) s[%d]", x, y, i);
            SPVH_EXPECT_F32(p[2], s[2] + ubo[j][1], "(%u, %u)", x, y);
            SPVH_EXPECT_F32(p[3], s[9], "(%u, %u)", x, y);
        }
    free(px);
}

/* gl_SampleMaskIn at pixel rate in 4x: the covered samples of each pixel.
 * The shader reads no varying and no gl_FragCoord, so a library shortcut
 * that shades one quad for a whole block would be wrong at the triangle's
 * edge: every written sample must hold exactly the mask of the samples
 * written in its pixel. */
Test(spirv_builtins, sample_mask_in_at_partially_covered_pixels)
{
    spvh_draw d;
    memset(&d, 0, sizeof d);
    d.samples = 4;
    d.w = d.h = 32;
    clear_sentinel(&d);
    d.vs = "#version 450\n"
           "const vec2 P[3] = vec2[3](vec2(-1.0, -1.0), vec2(0.93, -0.61), vec2(-0.37, 0.97));\n"
           "void main() { gl_Position = vec4(P[gl_VertexIndex], 0.0, 1.0); }\n";
    d.fs = "#version 450\nlayout(location = 0) out uvec4 o;\n"
           "void main() { o = uvec4(uint(gl_SampleMaskIn[0]), 1u, 2u, 3u); }\n";
    uint32_t *px = spvh_render(&d);
    uint32_t partial = 0, full = 0;
    for (uint32_t i = 0; i < 32 * 32; i++) {
        uint32_t m = 0;
        for (uint32_t s = 0; s < 4; s++)
            m |= (px[4 * ((size_t)s * 1024 + i)] != CLEAR) << s;
        partial += m != 0 && m != 0xf;
        full += m == 0xf;
        for (uint32_t s = 0; s < 4; s++)
            if (m >> s & 1u)
                SPVH_EXPECT_U32(px[4 * ((size_t)s * 1024 + i)], m, "pixel (%u, %u) sample %u: gl_SampleMaskIn", i % 32,
                                i / 32, s);
    }
    cr_expect_gt(partial, 10u, "the edges cross pixels");
    cr_expect_gt(full, 100u);
    free(px);
}

/* Interface packing: a mat4 output takes locations 0-3, a vec2[3] 4-6,
 * two scalars share location 7 through Component decorations. */
Test(spirv_builtins, varying_locations_matrices_arrays_components)
{
    spvh_draw d;
    memset(&d, 0, sizeof d);
    d.color_count = 3;
    d.vs = "#version 450\n"
           "layout(location = 0) flat out mat4 m;\n"
           "layout(location = 4) flat out vec2 arr[3];\n"
           "layout(location = 7, component = 0) flat out float a;\n"
           "layout(location = 7, component = 1) flat out float b;\n"
           "layout(location = 7, component = 2) flat out vec2 cd;\n"
           "void main() {\n"
           "    vec2 p = vec2(float((gl_VertexIndex & 1) * 4) - 1.0, float((gl_VertexIndex & 2) * 2) - 1.0);\n"
           "    gl_Position = vec4(p, 0.0, 1.0);\n"
           "    for (int c = 0; c < 4; c++) for (int r = 0; r < 4; r++) m[c][r] = float(c * 4 + r);\n"
           "    arr[0] = vec2(100.0, 101.0); arr[1] = vec2(102.0, 103.0); arr[2] = vec2(104.0, 105.0);\n"
           "    a = 200.0; b = 201.0; cd = vec2(202.0, 203.0);\n"
           "}\n";
    d.fs = "#version 450\n"
           "layout(location = 0) flat in mat4 m;\n"
           "layout(location = 4) flat in vec2 arr[3];\n"
           "layout(location = 7, component = 0) flat in float a;\n"
           "layout(location = 7, component = 1) flat in float b;\n"
           "layout(location = 7, component = 2) flat in vec2 cd;\n"
           "layout(location = 0) out uvec4 o0;\n"
           "layout(location = 1) out uvec4 o1;\n"
           "layout(location = 2) out uvec4 o2;\n"
           "void main() {\n"
           "    int i = int(gl_FragCoord.x) % 3;\n"
           "    o0 = floatBitsToUint(vec4(m[1][2], m[3][0], m[2][3], m[int(gl_FragCoord.y) & 3][1]));\n"
           "    o1 = floatBitsToUint(vec4(arr[i], arr[2].y, arr[0].x));\n"
           "    o2 = floatBitsToUint(vec4(a, b, cd));\n"
           "}\n";
    uint32_t *px = spvh_render(&d);
    for (uint32_t y = 0; y < 16; y++)
        for (uint32_t x = 0; x < 16; x++) {
            const uint32_t i = y * 16 + x, k = x % 3;
            const uint32_t *p0 = px + 4 * i, *p1 = px + 1024 + 4 * i, *p2 = px + 2048 + 4 * i;
            SPVH_EXPECT_F32(p0[0], 6.0f, "m[1][2]");
            SPVH_EXPECT_F32(p0[1], 12.0f, "m[3][0]");
            SPVH_EXPECT_F32(p0[2], 11.0f, "m[2][3]");
            SPVH_EXPECT_F32(p0[3], (float)((y & 3) * 4 + 1), "m[dynamic][1] at (%u, %u)", x, y);
            SPVH_EXPECT_F32(p1[0], 100.0f + 2.0f * (float)k, "arr[%u].x", k);
            SPVH_EXPECT_F32(p1[1], 101.0f + 2.0f * (float)k, "arr[%u].y", k);
            SPVH_EXPECT_F32(p1[2], 105.0f, "arr[2].y");
            SPVH_EXPECT_F32(p1[3], 100.0f, "arr[0].x");
            SPVH_EXPECT_F32(p2[0], 200.0f, "component 0");
            SPVH_EXPECT_F32(p2[1], 201.0f, "component 1");
            SPVH_EXPECT_F32(p2[2], 202.0f, "components 2-3");
            SPVH_EXPECT_F32(p2[3], 203.0f, "components 2-3");
        }
    free(px);
}

/* A per-instance mat4 attribute at locations 1-4 (binding 1, instance
 * rate) beside per-vertex positions at location 0, and an UNORM8 colour. */
Test(spirv_builtins, instanced_matrix_attribute)
{
    /* a unit quad (two triangles) in [0, 1]^2 */
    static const float quad[6][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 0}, {1, 1}, {0, 1}};
    /* instance i: scale 0.5, translate to quadrant i (clip space), as column-major mat4 */
    float inst[4][20];
    memset(inst, 0, sizeof inst);
    for (int i = 0; i < 4; i++) {
        float *m = inst[i];
        m[0] = 1.0f, m[5] = 2.0f, m[10] = 1.0f, m[15] = 1.0f; /* columns 0..3 */
        m[12] = -1.0f + (float)(i & 1), m[13] = -1.0f + (float)(i >> 1) * 1.0f;
        m[5] = 1.0f;
        uint8_t *rgba = (uint8_t *)&m[16];
        rgba[0] = (uint8_t)(50 * i + 3), rgba[1] = 255, rgba[2] = 0, rgba[3] = 128;
    }
    tr_pipeline_desc base;
    memset(&base, 0, sizeof base);
    base.bindings[0].stride = 8;
    base.bindings[1].stride = sizeof inst[0];
    base.bindings[1].input_rate = TR_INPUT_RATE_INSTANCE;
    base.attributes[0] = (tr_vertex_attribute){TR_VERTEX_FORMAT_R32G32_SFLOAT, 0, 0};
    for (uint32_t c = 0; c < 4; c++)
        base.attributes[1 + c] = (tr_vertex_attribute){TR_VERTEX_FORMAT_R32G32B32A32_SFLOAT, 1, 16 * c};
    base.attributes[5] = (tr_vertex_attribute){TR_VERTEX_FORMAT_R8G8B8A8_UNORM, 1, 64};
    spvh_draw d;
    memset(&d, 0, sizeof d);
    d.base = &base;
    d.vbuf = quad;
    d.vbuf_size = sizeof quad;
    d.vbuf1 = inst;
    d.vbuf1_size = sizeof inst;
    d.vertex_count = 6;
    d.instance_count = 4;
    clear_sentinel(&d);
    d.vs = "#version 450\n"
           "layout(location = 0) in vec2 p;\n"
           "layout(location = 1) in mat4 model;\n"
           "layout(location = 5) in vec4 color;\n"
           "layout(location = 0) flat out vec4 c;\n"
           "layout(location = 1) flat out uint inst;\n"
           "void main() { gl_Position = model * vec4(p, 0.0, 1.0); c = color; inst = uint(gl_InstanceIndex); }\n";
    d.fs = "#version 450\nlayout(location = 0) flat in vec4 c;\nlayout(location = 1) flat in uint inst;\n"
           "layout(location = 0) out uvec4 o;\n"
           "void main() { o = uvec4(inst, floatBitsToUint(c.x), floatBitsToUint(c.y), floatBitsToUint(c.w)); }\n";
    uint32_t *px = spvh_render(&d);
    for (uint32_t y = 0; y < 16; y++)
        for (uint32_t x = 0; x < 16; x++) {
            const uint32_t i = (x >= 8) + 2 * (y >= 8);
            const uint32_t *p = spvh_px(px, 16, x, y);
            SPVH_EXPECT_U32(p[0], i, "instance covering (%u, %u)", x, y);
            SPVH_EXPECT_F32(p[1], (float)(50 * i + 3) / 255.0f, "UNORM8 red of instance %u", i);
            SPVH_EXPECT_F32(p[2], 1.0f, "UNORM8 255");
            SPVH_EXPECT_F32(p[3], 128.0f / 255.0f, "UNORM8 alpha");
        }
    free(px);
}

/* early_fragment_tests (derived TR_FS_EARLY_TESTS): the depth test runs
 * before the shader, so fragments behind the first draw are never shaded,
 * even though the shader may discard.  Without it, the SPIR-V shader that
 * may discard is shaded as a C shader with TR_FS_MAY_DISCARD is (the
 * flags derived from the module are the C pipeline's). */
static void c_far_fs(tr_fs_block *b)
{
    for (uint32_t l = 0; l < b->count; l++)
        for (int c = 0; c < 4; c++) {
            const uint32_t two = 2;
            memcpy(&b->color[0][c][l], &two, 4);
        }
}

/* c_flags: -1 draws the far triangle with the SPIR-V shader, else with
 * c_far_fs and these fs_flags. */
static uint64_t shaded_behind(int early, int c_flags)
{
    tr_context *ctx = spvh_context(2, 0);
    tr_image *depth = trt_image(ctx, TR_FORMAT_D32_SFLOAT, 16, 16);
    tr_pipeline_desc base;
    memset(&base, 0, sizeof base);
    base.depth_test = 1;
    base.depth_write = 1;
    /* one pass: a near full-screen draw (z = 0.2), then the far one (z = 0.5) */
    tr_shader_module *vm = spvh_module(ctx,
                                       "#version 450\nlayout(push_constant) uniform P { float z; } pc;\n"
                                       "void main() {\n"
                                       "    vec2 p = vec2(float((gl_VertexIndex & 1) * 4) - 1.0, float((gl_VertexIndex & 2) * 2) - 1.0);\n"
                                       "    gl_Position = vec4(p, pc.z, 1.0);\n"
                                       "}\n",
                                       shaderc_vertex_shader);
    tr_shader_module *near_fs = spvh_module(ctx, "#version 450\nlayout(location = 0) out uvec4 o;\nvoid main() { o = uvec4(1u); }\n",
                                            shaderc_fragment_shader);
    tr_shader_module *far_fs = spvh_module(ctx,
                                           early ? "#version 450\nlayout(early_fragment_tests) in;\nlayout(location = 0) out uvec4 o;\n"
                                                   "void main() { if (gl_FragCoord.x > 100.0) discard; o = uvec4(2u); }\n"
                                                 : "#version 450\nlayout(location = 0) out uvec4 o;\n"
                                                   "void main() { if (gl_FragCoord.x > 100.0) discard; o = uvec4(2u); }\n",
                                           shaderc_fragment_shader);
    tr_pipeline_desc pd = base;
    pd.vertex_module = vm;
    pd.fragment_module = near_fs;
    tr_pipeline *pn = NULL, *pf = NULL;
    TRT_OK(tr_pipeline_create(ctx, &pd, &pn));
    pd.fragment_module = far_fs;
    if (c_flags >= 0) {
        pd.fragment_module = NULL;
        pd.fragment_shader = c_far_fs;
        pd.fs_flags = (uint32_t)c_flags;
    }
    TRT_OK(tr_pipeline_create(ctx, &pd, &pf));
    tr_image *img = trt_image(ctx, TR_FORMAT_R32G32B32A32_UINT, 16, 16);
    trt_begin_color_depth(ctx, img, depth, 0);
    const float zn = 0.2f, zf = 0.5f;
    TRT_OK(tr_cmd_bind_pipeline(ctx, pn));
    TRT_OK(tr_cmd_set_uniforms(ctx, &zn, sizeof zn));
    TRT_OK(tr_cmd_draw(ctx, 3, 1, 0, 0));
    TRT_OK(tr_cmd_bind_pipeline(ctx, pf));
    TRT_OK(tr_cmd_set_uniforms(ctx, &zf, sizeof zf));
    TRT_OK(tr_cmd_draw(ctx, 3, 1, 0, 0));
    tr_pass_stats st;
    TRT_OK(tr_cmd_end_render_pass(ctx, &st));
    uint32_t px[16 * 16 * 4];
    trt_download(img, 0, 0, TR_ASPECT_COLOR, px);
    for (int i = 0; i < 256; i++)
        SPVH_EXPECT_U32(px[4 * i], 1u, "the near draw stays in front (pixel %d)", i);
    tr_pipeline_destroy(pn);
    tr_pipeline_destroy(pf);
    tr_shader_module_destroy(vm);
    tr_shader_module_destroy(near_fs);
    tr_shader_module_destroy(far_fs);
    tr_image_destroy(img);
    tr_image_destroy(depth);
    tr_context_destroy(ctx);
    return st.fragments_shaded - 256u; /* the far draw's shader invocations */
}

Test(spirv_builtins, early_fragment_tests_derived)
{
    cr_expect_eq(shaded_behind(1, -1), 0u, "early tests: nothing behind is shaded");
    cr_expect_eq(shaded_behind(1, -1), shaded_behind(1, TR_FS_MAY_DISCARD | TR_FS_EARLY_TESTS), "as the C pipeline");
    cr_expect_eq(shaded_behind(0, -1), shaded_behind(0, TR_FS_MAY_DISCARD),
                 "late tests: the SPIR-V shader that may discard shades as a C one with TR_FS_MAY_DISCARD");
}

/* Uniform buffers are copied when bound: changing the caller's bytes
 * afterwards changes nothing; a rebind between draws changes only the
 * draws after it. */
Test(spirv_builtins, uniform_buffer_copied_at_bind_per_draw)
{
    tr_context *ctx = spvh_context(2, 0);
    tr_shader_module *vm = spvh_module(ctx,
                                       "#version 450\nlayout(push_constant) uniform P { float x0; } pc;\n"
                                       "const vec2 Q[6] = vec2[6](vec2(0, -1), vec2(1, -1), vec2(0, 1), vec2(1, -1), vec2(1, 1), vec2(0, 1));\n"
                                       "void main() { vec2 q = Q[gl_VertexIndex]; gl_Position = vec4(pc.x0 + q.x, q.y, 0.0, 1.0); }\n",
                                       shaderc_vertex_shader);
    tr_shader_module *fm = spvh_module(ctx,
                                       "#version 450\nlayout(location = 0) out uvec4 o;\n"
                                       "layout(binding = 4) uniform U { uvec4 v; } u;\n"
                                       "void main() { o = u.v; }\n",
                                       shaderc_fragment_shader);
    tr_pipeline_desc pd = {0};
    pd.vertex_module = vm;
    pd.fragment_module = fm;
    tr_pipeline *pl = NULL;
    TRT_OK(tr_pipeline_create(ctx, &pd, &pl));
    tr_image *img = trt_image(ctx, TR_FORMAT_R32G32B32A32_UINT, 16, 16);
    trt_begin_color(ctx, img, NULL);
    TRT_OK(tr_cmd_bind_pipeline(ctx, pl));
    uint32_t data[4] = {1, 2, 3, 4};
    const float left = -1.0f, right = 0.0f;
    TRT_OK(tr_cmd_bind_uniform_buffer(ctx, 4, data, sizeof data));
    data[0] = 100; /* after the bind: not seen */
    TRT_OK(tr_cmd_set_uniforms(ctx, &left, sizeof left));
    TRT_OK(tr_cmd_draw(ctx, 6, 1, 0, 0));
    data[1] = 200;
    TRT_OK(tr_cmd_bind_uniform_buffer(ctx, 4, data, sizeof data));
    data[2] = 300;
    TRT_OK(tr_cmd_set_uniforms(ctx, &right, sizeof right));
    TRT_OK(tr_cmd_draw(ctx, 6, 1, 0, 0));
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    uint32_t px[16 * 16 * 4];
    trt_download(img, 0, 0, TR_ASPECT_COLOR, px);
    for (uint32_t y = 0; y < 16; y++)
        for (uint32_t x = 0; x < 16; x++) {
            const uint32_t *p = spvh_px(px, 16, x, y);
            const uint32_t want[4] = {x < 8 ? 1u : 100u, x < 8 ? 2u : 200u, 3, 4};
            for (int c = 0; c < 4; c++)
                SPVH_EXPECT_U32(p[c], want[c], "(%u, %u) component %d (%s draw)", x, y, c, x < 8 ? "first" : "second");
        }
    tr_image_destroy(img);
    tr_pipeline_destroy(pl);
    tr_shader_module_destroy(vm);
    tr_shader_module_destroy(fm);
    tr_context_destroy(ctx);
}

/* ---- fragment density maps: FragSizeEXT beside the C path -------------------------------------- */

static void c_fragsize_fs(tr_fs_block *b)
{
    for (uint32_t l = 0; l < b->count; l++) {
        memcpy(&b->color[0][0][l], &b->frag_x[l], 4);
        memcpy(&b->color[0][1][l], &b->frag_y[l], 4);
        memcpy(&b->color[0][2][l], &b->frag_size_x, 4);
        memcpy(&b->color[0][3][l], &b->frag_size_y, 4);
    }
}

static void c_fullscreen_vs(tr_vs_batch *b)
{
    for (uint32_t l = 0; l < b->count; l++) {
        const uint32_t i = b->vertex_index[l];
        b->position[0][l] = (float)((i & 1) * 4) - 1.0f;
        b->position[1][l] = (float)((i & 2) * 2) - 1.0f;
        b->position[2][l] = 0.0f;
        b->position[3][l] = 1.0f;
    }
}

/* Renders 64 x 64 under a density map of `density` with either pipeline. */
static uint32_t *fdm_render(float density, int spirv)
{
    tr_context_desc cd = {0};
    cd.threads = 2;
    cd.device = TR_DEVICE_A740;
    tr_context *ctx = trt_context_desc(&cd);
    tr_pipeline_desc pd = {0};
    tr_shader_module *vm = NULL, *fm = NULL;
    if (spirv) {
        vm = spvh_module(ctx, SPVH_FULLSCREEN_VS, shaderc_vertex_shader);
        fm = spvh_module(ctx,
                         "#version 450\n#extension GL_EXT_fragment_invocation_density : require\n"
                         "layout(location = 0) out uvec4 o;\n"
                         "void main() { o = uvec4(floatBitsToUint(gl_FragCoord.xy), uvec2(gl_FragSizeEXT)); }\n",
                         shaderc_fragment_shader);
        pd.vertex_module = vm;
        pd.fragment_module = fm;
    } else {
        pd.vertex_shader = c_fullscreen_vs;
        pd.fragment_shader = c_fragsize_fs;
    }
    tr_pipeline *pl = NULL;
    TRT_OK(tr_pipeline_create(ctx, &pd, &pl));
    tr_image *img = trt_image(ctx, TR_FORMAT_R32G32B32A32_UINT, 64, 64);
    trt_begin_ms(ctx, img, NULL, density, 0);
    TRT_OK(tr_cmd_bind_pipeline(ctx, pl));
    TRT_OK(tr_cmd_draw(ctx, 3, 1, 0, 0));
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    uint32_t *px = malloc(64 * 64 * 16);
    trt_download(img, 0, 0, TR_ASPECT_COLOR, px);
    tr_image_destroy(img);
    tr_pipeline_destroy(pl);
    tr_shader_module_destroy(vm);
    tr_shader_module_destroy(fm);
    tr_context_destroy(ctx);
    return px;
}

Test(spirv_builtins, frag_size_under_a_density_map)
{
    uint32_t *got = fdm_render(0.25f, 1), *want = fdm_render(0.25f, 0);
    uint32_t diff = 0, coarse = 0;
    for (uint32_t i = 0; i < 64 * 64 * 4; i++)
        diff += got[i] != want[i];
    for (uint32_t i = 0; i < 64 * 64; i++)
        coarse += want[4 * i + 2] > 1u && want[4 * i + 3] > 1u;
    cr_expect_eq(diff, 0u, "gl_FragCoord / gl_FragSizeEXT differ from the C path's frag_x/y, frag_size in %u words", diff);
    cr_expect_gt(coarse, 1000u, "density 0.25 gives coarse fragments (%u pixels in them; first pixel's size %u x %u)",
                 coarse, want[2], want[3]);
    free(got);
    free(want);
}
