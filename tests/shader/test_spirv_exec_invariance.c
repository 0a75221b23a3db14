/* SPIR-V execution: the same bits on every configuration (issue 30, "Rules
 * that keep golden images golden"): thread counts, SIMD levels (the scalar
 * reference included), bin sizes, a single bin, LRZ off.  One scene of
 * overlapping perspective triangles with depth testing, drawn by a shader
 * that diverges inside quads, loops, discards, takes derivatives and samples
 * a mipmapped texture with implicit LOD. */
#include "spv_harness.h"

enum { W = 72, H = 56, TRIS = 10 };

typedef struct vtx {
    float pos[4];
    float color[4];
} vtx;

static const char *const vs = "#version 450\n"
                              "layout(location = 0) in vec4 pos;\n"
                              "layout(location = 1) in vec4 color;\n"
                              "layout(location = 0) out vec4 c;\n"
                              "layout(location = 1) out vec2 uv;\n"
                              "layout(location = 2) flat out uint id;\n"
                              "void main() { gl_Position = pos; c = color; uv = pos.xy / pos.w * 0.7 + 0.3;\n"
                              "    id = uint(gl_VertexIndex / 3); }\n";

static const char *const fs = "#version 450\n"
                              "layout(location = 0) in vec4 c;\n"
                              "layout(location = 1) in vec2 uv;\n"
                              "layout(location = 2) flat in uint id;\n"
                              "layout(binding = 0) uniform sampler2D tex;\n"
                              "layout(location = 0) out uvec4 o;\n"
                              "void main() {\n"
                              "    ivec2 p = ivec2(gl_FragCoord.xy);\n"
                              "    vec4 t = texture(tex, uv * 3.0);\n"
                              "    float v = c.x * c.y + gl_FragCoord.x * 0.01;\n"
                              "    float dx = dFdx(v), dy = dFdyCoarse(c.z);\n"
                              "    if (((p.x * 7 + p.y * 3 + int(id)) % 11) == 0) discard;\n"
                              "    uint acc = id;\n"
                              "    for (int i = 0; i < (p.x ^ p.y) % 9; i++) {\n"
                              "        if ((i & 1) == 1) acc += uint(i) * 3u; else acc ^= acc << 5;\n"
                              "        if (acc > 100000u) break;\n"
                              "    }\n"
                              "    o = uvec4(floatBitsToUint(t.x + v), floatBitsToUint(dx + dy), acc, floatBitsToUint(sin(v) + exp2(c.w)));\n"
                              "}\n";

typedef struct variant {
    const char *name;
    tr_context_desc ctx;
    uint32_t pass_flags;
} variant;

/* Renders the scene; returns colour words then depth floats (free()). */
static uint32_t *render(const variant *v)
{
    tr_context *ctx = trt_context_desc(&v->ctx);
    /* texture */
    tr_image_desc idesc = {TR_FORMAT_R8G8B8A8_UNORM, 32, 32, 1, TR_LEVELS_ALL, 0, 0};
    tr_image *tex = NULL;
    TRT_OK(tr_image_create(ctx, &idesc, &tex));
    uint8_t texels[32 * 32 * 4];
    trt_rng rng = {42};
    for (size_t i = 0; i < sizeof texels; i++)
        texels[i] = (uint8_t)trt_rand_u32(&rng);
    TRT_OK(tr_image_upload(tex, NULL, texels, 0));
    TRT_OK(tr_image_generate_mips(tex));
    tr_sampler_desc sd = {.mag_filter = TR_FILTER_LINEAR, .min_filter = TR_FILTER_LINEAR,
                          .mipmap_mode = TR_MIPMAP_LINEAR};
    tr_sampler *smp = NULL;
    TRT_OK(tr_sampler_create(ctx, &sd, &smp));
    /* geometry */
    vtx v3[3 * TRIS];
    trt_rng g = {7};
    for (int i = 0; i < 3 * TRIS; i++) {
        const float w = (float)trt_rand_range(&g, 0.5, 2.0);
        v3[i].pos[0] = (float)trt_rand_range(&g, -1.2, 1.2) * w;
        v3[i].pos[1] = (float)trt_rand_range(&g, -1.2, 1.2) * w;
        v3[i].pos[2] = (float)trt_rand_range(&g, 0.0, 1.0) * w;
        v3[i].pos[3] = w;
        for (int c = 0; c < 4; c++)
            v3[i].color[c] = (float)trt_rand_range(&g, -1.0, 1.0);
    }
    tr_pipeline_desc base;
    memset(&base, 0, sizeof base);
    base.bindings[0].stride = sizeof(vtx);
    base.attributes[0] = (tr_vertex_attribute){TR_VERTEX_FORMAT_R32G32B32A32_SFLOAT, 0, 0};
    base.attributes[1] = (tr_vertex_attribute){TR_VERTEX_FORMAT_R32G32B32A32_SFLOAT, 0, 16};
    base.depth_test = 1;
    base.depth_write = 1;
    tr_image *depth = trt_image(ctx, TR_FORMAT_D32_SFLOAT, W, H);
    spvh_draw d;
    memset(&d, 0, sizeof d);
    d.vs = vs;
    d.fs = fs;
    d.w = W;
    d.h = H;
    d.base = &base;
    d.vbuf = v3;
    d.vbuf_size = sizeof v3;
    d.vertex_count = 3 * TRIS;
    d.depth = depth;
    d.pass_flags = v->pass_flags;
    d.tex[0] = (spvh_tex){0, tex, smp};
    uint32_t *out = calloc((size_t)W * H, 16 + 4);
    const tr_result r = spvh_render_ctx(ctx, &d, out);
    cr_assert_eq(d.draw_result, TR_OK, "%s: draw: %s", v->name, d.draw_msg);
    cr_assert_eq(r, TR_OK, "%s: end pass: %s", v->name, d.end_msg);
    trt_download(depth, 0, 0, TR_ASPECT_DEPTH, out + (size_t)W * H * 4);
    tr_image_destroy(depth);
    tr_image_destroy(tex);
    tr_sampler_destroy(smp);
    tr_context_destroy(ctx);
    return out;
}

Test(spirv_invariance, same_bits_on_every_configuration)
{
    variant vars[] = {
        {"2 threads", {.threads = 2}, 0},
        {"1 thread", {.threads = 1}, 0},
        {"4 threads", {.threads = 4}, 0},
        {"scalar SIMD", {.threads = 2, .simd = TR_SIMD_SCALAR}, 0},
        {"SSE", {.threads = 3, .simd = TR_SIMD_SSE}, 0},
        {"small bins", {.threads = 3, .gmem_bytes = 32768}, 0},
        {"single bin", {.threads = 2}, TR_PASS_SINGLE_BIN},
        {"no LRZ", {.threads = 2}, TR_PASS_NO_LRZ},
    };
    uint32_t *ref = render(&vars[0]);
    uint32_t covered = 0;
    for (uint32_t i = 0; i < W * H; i++) {
        covered += ref[4 * i + 2] != 0 || ref[4 * i] != 0;
    }
    cr_expect_gt(covered, W * H / 3, "the scene covers the target");
    for (size_t k = 1; k < sizeof vars / sizeof *vars; k++) {
        uint32_t *got = render(&vars[k]);
        uint32_t diff = 0, first = UINT32_MAX;
        for (uint32_t i = 0; i < W * H * 5; i++)
            if (got[i] != ref[i]) {
                diff++;
                if (first == UINT32_MAX)
                    first = i;
            }
        cr_expect_eq(diff, 0u, "%s: %u words differ from %s (first: word %u, 0x%08x vs 0x%08x)", vars[k].name, diff,
                     vars[0].name, first, first == UINT32_MAX ? 0 : got[first], first == UINT32_MAX ? 0 : ref[first]);
        free(got);
    }
    free(ref);
}
