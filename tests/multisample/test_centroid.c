/* Centroid interpolation (pipeline.h, tr_pipeline_desc.centroid_mask): in
 * a 4x pass, a pixel the triangle covers wholly reads its centroid
 * varyings at the centre, bit for bit as without the mask, and a partly
 * covered one at its lowest covered sample, bit for bit what shading that
 * sample (TR_FS_SAMPLE_RATE) interpolates there, and for a varying affine
 * in the framebuffer the position itself.  The coverage counted is the
 * primitive's, kept by the sample mask, before the depth test.  A
 * single-sampled pass and per-sample shading are untouched.  SPIR-V
 * `centroid in` gives the C pipeline's image; interpolateAtCentroid moves
 * other inputs there.  Images are the same for every thread count, SIMD
 * level and GMEM budget. */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "spv_harness.h"

#define W 16u
#define H 16u
#define N 4u
#define PX (W * H * 4u) /* words of one sample plane of one attachment */

/* The triangle of tests/multisample/test_sample_mask.c: edges crossing
 * pixels at slants, corners on the 1/256 grid. */
static const float tri_px[3][2] = {{0.5f, 0.25f}, {15.75f, 3.125f}, {4.0625f, 15.5f}};

typedef struct vtx {
    float pos[4];   /* clip space */
    float attr[4];  /* every varying */
} vtx;

/* The triangle's vertices: w 1 (`persp` false: every varying affine in the
 * framebuffer) or 1, 3, 2; the attribute is the vertex's pixel position
 * (x, y, x / 4, 1 + y), exact in float. */
static void make_tri(bool persp, vtx v[3])
{
    static const float ws[2][3] = {{1.0f, 1.0f, 1.0f}, {1.0f, 3.0f, 2.0f}};
    for (int k = 0; k < 3; k++) {
        const float x = tri_px[k][0], y = tri_px[k][1], w = ws[persp][k];
        v[k] = (vtx){{(2.0f * x / W - 1.0f) * w, (2.0f * y / H - 1.0f) * w, 0.5f * w, w},
                     {x, y, 0.25f * x, 1.0f + y}};
    }
}

static void bind_attributes(tr_pipeline_desc *pd)
{
    pd->bindings[0].stride = sizeof(vtx);
    pd->attributes[0] = (tr_vertex_attribute){TR_VERTEX_FORMAT_R32G32B32A32_SFLOAT, 0, offsetof(vtx, pos)};
    pd->attributes[1] = (tr_vertex_attribute){TR_VERTEX_FORMAT_R32G32B32A32_SFLOAT, 0, offsetof(vtx, attr)};
}

static void vs(tr_vs_batch *b)
{
    for (uint32_t l = 0; l < b->count; l++)
        for (int c = 0; c < 4; c++) {
            b->position[c][l] = b->attrib.f[0][c][l];
            for (int v = 0; v < 4; v++)
                b->varyings[v][c][l] = b->attrib.f[1][c][l];
        }
}

/* Colour attachment v (R32G32B32A32_UINT: the floats' bits) = varying v. */
static void fs(tr_fs_block *b)
{
    for (int v = 0; v < 4; v++)
        for (int c = 0; c < 4; c++)
            memcpy(b->color[v][c], b->varyings[v][c], b->count * sizeof(float));
}

/* The varyings: 0 smooth, 1 noperspective, 2 smooth, 3 flat; the usual
 * centroid ones are 0, 1 and 3 (2 stays at the centre, 3 is flat). */
#define NOPERSP 0x2u
#define FLAT 0x8u
#define CENTROID 0xbu

typedef struct cfg {
    uint32_t threads, gmem_bytes; /* gmem_bytes 0: one bin; else, times the samples, the budget of
                                     several bins (8 x 8 tile alignment) */
    tr_simd_level simd;
} cfg;

typedef struct run {
    uint32_t n;        /* samples */
    uint32_t centroid; /* centroid_mask */
    uint32_t fs_flags; /* TR_FS_SAMPLE_RATE: per sample */
    uint32_t ms_mask;  /* multisample.sample_mask */
    bool persp;        /* make_tri's w */
    bool hide;         /* a nearer rectangle over x < 6.5 is drawn first (depth test on) */
} run;

static const uint32_t SENTINEL = 0xdeadbeefu;

/* Draws the triangle as r says into four n-sample R32G32B32A32_UINT
 * attachments cleared to SENTINEL; px[a][s] gets attachment a's sample s. */
static void render(const cfg *c, const run *r, uint32_t px[4][N][PX])
{
    tr_context *ctx = trt_context_desc(&(tr_context_desc){.threads = c->threads,
                                                           .gmem_bytes = c->gmem_bytes * r->n,
                                                           .tile_align_w = c->gmem_bytes ? 8u : 0u,
                                                           .tile_align_h = c->gmem_bytes ? 8u : 0u,
                                                           .simd = c->simd});
    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.color_count = 4;
    tr_image *img[4];
    for (int a = 0; a < 4; a++) {
        img[a] = trt_image_ms(ctx, TR_FORMAT_R32G32B32A32_UINT, W, H, r->n);
        rp.color[a].image = img[a];
        rp.color[a].load_op = TR_LOAD_OP_CLEAR;
        rp.color[a].store_op = TR_STORE_OP_STORE;
        for (int k = 0; k < 4; k++)
            memcpy(&rp.color[a].clear_color[k], &SENTINEL, 4);
    }
    if (r->hide) {
        rp.depth.image = trt_image_ms(ctx, TR_FORMAT_D32_SFLOAT, W, H, r->n);
        rp.depth.depth_load_op = TR_LOAD_OP_CLEAR;
        rp.depth.clear_depth = 1.0f;
    }
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
    tr_pipeline_desc pd = {.vertex_shader = vs, .fragment_shader = fs, .varying_count = 4};
    bind_attributes(&pd);
    pd.noperspective_mask = NOPERSP;
    pd.flat_mask = FLAT;
    pd.fs_flags = r->fs_flags;
    pd.multisample.samples = r->n;
    pd.multisample.sample_mask = r->ms_mask;
    pd.depth_test = pd.depth_write = r->hide;
    if (r->hide) { /* [0, 6.5) x [0, 16) at depth 0.2, before the triangle at 0.5 */
        static const float q[6][2] = {{0, 0}, {6.5f, 0}, {0, 16}, {6.5f, 0}, {6.5f, 16}, {0, 16}};
        static vtx rect[6];
        for (int k = 0; k < 6; k++)
            rect[k] = (vtx){{2.0f * q[k][0] / W - 1.0f, 2.0f * q[k][1] / H - 1.0f, 0.2f, 1.0f}, {0, 0, 0, 0}};
        TRT_OK(tr_cmd_bind_pipeline(ctx, trt_pipeline(ctx, &pd)));
        TRT_OK(tr_cmd_bind_vertex_buffer(ctx, 0, rect, sizeof rect, 0));
        TRT_OK(tr_cmd_draw(ctx, 6, 1, 0, 0));
    }
    pd.centroid_mask = r->centroid;
    TRT_OK(tr_cmd_bind_pipeline(ctx, trt_pipeline(ctx, &pd)));
    vtx v[3];
    make_tri(r->persp, v);
    TRT_OK(tr_cmd_bind_vertex_buffer(ctx, 0, v, sizeof v, 0));
    TRT_OK(tr_cmd_draw(ctx, 3, 1, 0, 0));
    tr_pass_stats st;
    TRT_OK(tr_cmd_end_render_pass(ctx, &st));
    cr_assert(!c->gmem_bytes || st.bins > 1, "gmem %u x %u: one bin", c->gmem_bytes, r->n);
    for (int a = 0; a < 4; a++)
        for (uint32_t s = 0; s < r->n; s++)
            TRT_OK(tr_image_download(img[a], &(tr_subresource){.sample = s}, px[a][s], 0));
    tr_context_destroy(ctx);
}

/* The reference coverage of the test's triangle (trt_ref_sample_coverage). */
static void ref_coverage(uint32_t n, uint8_t cov[W * H])
{
    trt_ref_sample_coverage(tri_px, n, W, H, cov);
}

/* Component c of pixel i of a plane, as a float and as bits. */
static float pf(const uint32_t *plane, uint32_t i, int c)
{
    return spvh_u2f(plane[4 * i + (uint32_t)c]);
}

static bool same_px(const uint32_t *a, const uint32_t *b, uint32_t i)
{
    return memcmp(a + 4 * i, b + 4 * i, 16) == 0;
}

static const cfg one = {1, 0, (tr_simd_level)0};
static uint32_t got[4][N][PX], centre[4][N][PX], sampled[4][N][PX];

/* The heart: for the given draw (w, sample mask), the pixel-rate image with
 * the centroid mask against the one without it (the centre) and the
 * per-sample one (each sample's own position). */
static void check_against_centre_and_samples(bool persp, uint32_t ms_mask)
{
    const uint32_t keep = ms_mask ? ms_mask : (1u << N) - 1;
    uint8_t cov[W * H];
    ref_coverage(N, cov);
    render(&one, &(run){N, CENTROID, 0, ms_mask, persp, false}, got);
    render(&one, &(run){N, 0, 0, ms_mask, persp, false}, centre);
    render(&one, &(run){N, 0, TR_FS_SAMPLE_RATE, ms_mask, persp, false}, sampled);
    uint32_t partial = 0, full = 0;
    for (uint32_t i = 0; i < W * H; i++) {
        const uint32_t x = i % W, y = i / W, counted = cov[i] & keep;
        if (!counted)
            continue;
        const uint32_t s0 = (uint32_t)__builtin_ctz(counted);
        /* every written sample holds the pixel's one shading */
        for (uint32_t s = 0; s < N; s++)
            for (int a = 0; a < 4 && (counted >> s & 1u); a++)
                cr_assert(same_px(got[a][s], got[a][s0], i), "pixel (%u, %u): samples %u and %u differ", x, y, s, s0);
        /* the smooth non-centroid varying stays at the centre; the flat one is vertex 0's */
        cr_expect(same_px(got[2][s0], centre[2][s0], i), "pixel (%u, %u): varying 2 moved", x, y);
        cr_expect(same_px(got[3][s0], centre[3][s0], i), "pixel (%u, %u): the flat varying moved", x, y);
        if (counted == (1u << N) - 1) {
            full++;
            for (int a = 0; a < 2; a++)
                cr_expect(same_px(got[a][s0], centre[a][s0], i),
                          "pixel (%u, %u) wholly covered: varying %d is not the centre's", x, y, a);
            continue;
        }
        partial++;
        for (int a = 0; a < 2; a++)
            cr_expect(same_px(got[a][s0], sampled[a][s0], i),
                      "pixel (%u, %u) samples 0x%x: varying %d is not sample %u's (%.9g, not %.9g)", x, y, counted, a,
                      s0, pf(got[a][s0], i, 0), pf(sampled[a][s0], i, 0));
        if (!persp) { /* affine: the value is the position */
            float pos[2];
            TRT_OK(tr_sample_position(N, s0, pos));
            for (int a = 0; a < 2; a++) {
                cr_expect(fabsf(pf(got[a][s0], i, 0) - ((float)x + pos[0])) < 1e-4f,
                          "pixel (%u, %u) varying %d: x %.9g at sample %u (%g)", x, y, a, pf(got[a][s0], i, 0), s0,
                          (float)x + pos[0]);
                cr_expect(fabsf(pf(got[a][s0], i, 1) - ((float)y + pos[1])) < 1e-4f,
                          "pixel (%u, %u) varying %d: y %.9g at sample %u (%g)", x, y, a, pf(got[a][s0], i, 1), s0,
                          (float)y + pos[1]);
            }
        }
    }
    cr_expect_gt(partial, 20u, "the edges cross pixels");
    if (!ms_mask)
        cr_expect_gt(full, 30u);
}

Test(centroid, partial_pixels_read_the_lowest_covered_sample)
{
    check_against_centre_and_samples(false, 0);
}

Test(centroid, perspective_correct_at_the_sample)
{
    check_against_centre_and_samples(true, 0);
}

/* A sample mask without sample 1 (0xd): no pixel has all its samples
 * counted, so each reads its lowest kept covered sample (as llvmpipe). */
Test(centroid, the_sample_mask_decides_what_is_covered)
{
    check_against_centre_and_samples(false, 0xdu);
}

/* Shading per sample: every varying at the sample, centroid or not. */
Test(centroid, per_sample_shading_reads_the_sample)
{
    static uint32_t per[4][N][PX];
    render(&one, &(run){N, 0, TR_FS_SAMPLE_RATE, 0, true, false}, sampled);
    render(&one, &(run){N, CENTROID, TR_FS_SAMPLE_RATE, 0, true, false}, per);
    cr_expect(memcmp(per, sampled, sizeof per) == 0, "centroid_mask changed a per-sample image");
}

/* Single-sampled: the centroid is the centre, bit for bit. */
Test(centroid, single_sampled_is_the_centre)
{
    static uint32_t a[4][N][PX], b[4][N][PX];
    for (int persp = 0; persp < 2; persp++) {
        render(&one, &(run){1, CENTROID, 0, 0, persp, false}, a);
        render(&one, &(run){1, 0, 0, 0, persp, false}, b);
        uint32_t covered = 0;
        for (uint32_t i = 0; i < W * H; i++)
            covered += a[0][0][4 * i] != SENTINEL;
        cr_expect_gt(covered, 50u);
        cr_expect(memcmp(a[0][0], b[0][0], sizeof a[0][0]) == 0 && memcmp(a[1][0], b[1][0], sizeof a[1][0]) == 0,
                  "persp %d: centroid differs from the centre in a single-sampled pass", persp);
    }
}

/* The coverage is taken before the depth test: a nearer rectangle hides
 * x < 6.5 (samples 0 and 2 of column 6: x + 0.375, x + 0.125), yet a
 * column-6 pixel whose lowest covered sample is hidden still reads it, and
 * its visible samples hold what they hold without the rectangle. */
Test(centroid, coverage_is_taken_before_the_depth_test)
{
    uint8_t cov[W * H];
    ref_coverage(N, cov);
    render(&one, &(run){N, CENTROID, 0, 0, false, true}, got);
    render(&one, &(run){N, CENTROID, 0, 0, false, false}, centre);
    uint32_t seen = 0;
    for (uint32_t i = 0; i < W * H; i++) {
        const uint32_t x = i % W, y = i / W;
        const uint32_t hidden = x < 6 ? 0xfu : x == 6 ? 0x5u : 0u, visible = cov[i] & ~hidden;
        if (!visible)
            continue;
        const uint32_t s0 = (uint32_t)__builtin_ctz(cov[i]);
        seen += (hidden >> s0) & 1u && cov[i] != 0xfu;
        for (uint32_t s = 0; s < N; s++)
            for (int a = 0; a < 2 && (visible >> s & 1u); a++)
                cr_expect(same_px(got[a][s], centre[a][s], i), "pixel (%u, %u) sample %u: varying %d differs", x, y,
                          s, a);
    }
    cr_expect_gt(seen, 0u, "a pixel whose lowest covered sample is hidden");
}

/* A mask past varying_count is refused, naming the field. */
Test(centroid, mask_past_varyings_refused)
{
    tr_context *ctx = trt_context(1);
    tr_pipeline *p = NULL;
    TRT_EXPECT(tr_pipeline_create(ctx,
                                  &(tr_pipeline_desc){.vertex_shader = trt_vs, .fragment_shader = trt_fs_varying,
                                                      .varying_count = 1, .centroid_mask = 0x2},
                                  &p),
               TR_ERROR_INVALID_DESCRIPTOR);
    cr_expect_null(p);
    cr_expect(strstr(tr_context_last_error(ctx), "centroid_mask") != NULL, "%s", tr_context_last_error(ctx));
    tr_context_destroy(ctx);
}

/* The same bits for every thread count, SIMD level and GMEM budget. */
Test(centroid, identical_for_threads_simd_and_gmem_budget)
{
    /* (a sample holds 4 x 16 bytes of colour and 4 of depth: bins of 8 x 8 and 8 x 16) */
    static const cfg cfgs[] = {{1, 0, TR_SIMD_SCALAR}, {2, 0, TR_SIMD_SSE}, {3, 0, TR_SIMD_AVX2},
                               {1, 5u << 10, TR_SIMD_AVX2}, {2, 9u << 10, TR_SIMD_SCALAR}};
    static const run runs[] = {
        {N, CENTROID, 0, 0, false, false}, {N, CENTROID, 0, 0, true, false},  {N, CENTROID, 0, 0xdu, true, false},
        {N, CENTROID, 0, 0, true, true},   {N, CENTROID, TR_FS_SAMPLE_RATE, 0, true, false},
        {1, CENTROID, 0, 0, true, false},
    };
    for (uint32_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
        render(&cfgs[0], &runs[r], centre);
        for (uint32_t k = 1; k < sizeof cfgs / sizeof cfgs[0]; k++) {
            render(&cfgs[k], &runs[r], got);
            for (int a = 0; a < 4; a++)
                cr_expect(memcmp(centre[a], got[a], runs[r].n * sizeof got[a][0]) == 0,
                          "run %u attachment %d: threads %u, simd %d, gmem %u differ from the scalar reference", r, a,
                          cfgs[k].threads, (int)cfgs[k].simd, cfgs[k].gmem_bytes);
        }
    }
}

/* ---- SPIR-V ---------------------------------------------------------------------------------- */

static const char *const spv_vs = "#version 450\n"
                                  "layout(location = 0) in vec4 pos;\n"
                                  "layout(location = 1) in vec4 attr;\n"
                                  "layout(location = 0) centroid out vec4 v0;\n"
                                  "layout(location = 1) centroid noperspective out vec4 v1;\n"
                                  "layout(location = 2) out vec4 v2;\n"
                                  "layout(location = 3) centroid flat out vec4 v3;\n"
                                  "void main() { gl_Position = pos; v0 = attr; v1 = attr; v2 = attr; v3 = attr; }\n";

/* The spvh_render draw of make_tri(persp) with fragment shader fsrc. */
static uint32_t *spv_render(const char *fsrc, bool persp, uint32_t samples)
{
    static vtx v[3];
    make_tri(persp, v);
    static tr_pipeline_desc base;
    memset(&base, 0, sizeof base);
    bind_attributes(&base);
    spvh_draw d;
    memset(&d, 0, sizeof d);
    d.base = &base;
    d.vs = spv_vs;
    d.fs = fsrc;
    d.color_count = 4;
    d.samples = samples;
    d.vbuf = v;
    d.vbuf_size = sizeof v;
    for (int k = 0; k < 4; k++)
        d.clear_bits[k] = SENTINEL;
    return spvh_render(&d);
}

/* `centroid in` of SPIR-V is the C pipeline's centroid_mask (derived from
 * the decorations), at 4x and single-sampled, bit for bit. */
Test(centroid, spirv_centroid_inputs_match_the_c_pipeline)
{
    const char *fsrc = "#version 450\n"
                       "layout(location = 0) centroid in vec4 v0;\n"
                       "layout(location = 1) centroid noperspective in vec4 v1;\n"
                       "layout(location = 2) in vec4 v2;\n"
                       "layout(location = 3) centroid flat in vec4 v3;\n"
                       "layout(location = 0) out uvec4 o0;\n"
                       "layout(location = 1) out uvec4 o1;\n"
                       "layout(location = 2) out uvec4 o2;\n"
                       "layout(location = 3) out uvec4 o3;\n"
                       "void main() {\n"
                       "    o0 = floatBitsToUint(v0); o1 = floatBitsToUint(v1);\n"
                       "    o2 = floatBitsToUint(v2); o3 = floatBitsToUint(v3);\n"
                       "}\n";
    static const uint32_t ns[2] = {N, 1};
    for (int k = 0; k < 2; k++)
        for (int persp = 0; persp < 2; persp++) {
            uint32_t *px = spv_render(fsrc, persp, ns[k]);
            render(&one, &(run){ns[k], CENTROID, 0, 0, persp, false}, got);
            for (uint32_t a = 0; a < 4; a++)
                for (uint32_t s = 0; s < ns[k]; s++)
                    cr_expect(memcmp(px + (size_t)(a * ns[k] + s) * PX, got[a][s], sizeof got[a][s]) == 0,
                              "%ux, persp %d: attachment %u sample %u differs from the C pipeline's", ns[k], persp,
                              a, s);
            free(px);
        }
}

/* A desc whose centroid_mask contradicts the module's is refused, naming it. */
Test(centroid, spirv_contradicting_mask_refused)
{
    tr_context *ctx = spvh_context(1, 0);
    tr_pipeline_desc pd;
    memset(&pd, 0, sizeof pd);
    bind_attributes(&pd);
    pd.vertex_module = spvh_module(ctx, spv_vs, shaderc_vertex_shader);
    pd.fragment_module = spvh_module(ctx,
                                     "#version 450\n"
                                     "layout(location = 0) centroid in vec4 v0;\n"
                                     "layout(location = 0) out vec4 o;\n"
                                     "void main() { o = v0; }\n",
                                     shaderc_fragment_shader);
    pd.centroid_mask = 0x3;
    tr_pipeline *p = NULL;
    TRT_EXPECT(tr_pipeline_create(ctx, &pd, &p), TR_ERROR_INVALID_DESCRIPTOR);
    cr_expect_null(p);
    cr_expect(strstr(tr_context_last_error(ctx), "centroid_mask") != NULL, "%s", tr_context_last_error(ctx));
    pd.centroid_mask = 0x1; /* the module's own: fine */
    TRT_OK(tr_pipeline_create(ctx, &pd, &p));
    tr_pipeline_destroy(p);
    tr_shader_module_destroy((tr_shader_module *)pd.vertex_module);
    tr_shader_module_destroy((tr_shader_module *)pd.fragment_module);
    tr_context_destroy(ctx);
}

/* interpolateAtCentroid: of a centroid input, its value; of a
 * non-centroid one (affine here, w = 1), that input moved to the same
 * position by its derivatives: the centre's bits where the pixel is
 * wholly covered, the centroid value within rounding elsewhere. */
Test(centroid, spirv_interpolate_at_centroid)
{
    const char *fsrc = "#version 450\n"
                       "layout(location = 0) centroid in vec4 v0;\n"
                       "layout(location = 2) in vec4 v2;\n"
                       "layout(location = 0) out uvec4 o0;\n"
                       "layout(location = 1) out uvec4 o1;\n"
                       "layout(location = 2) out uvec4 o2;\n"
                       "layout(location = 3) out uvec4 o3;\n"
                       "void main() {\n"
                       "    o0 = floatBitsToUint(interpolateAtCentroid(v0)); o1 = floatBitsToUint(v0);\n"
                       "    o2 = floatBitsToUint(interpolateAtCentroid(v2)); o3 = floatBitsToUint(v2);\n"
                       "}\n";
    uint8_t cov[W * H];
    ref_coverage(N, cov);
    uint32_t *px = spv_render(fsrc, false, N);
    uint32_t partial = 0;
    for (uint32_t i = 0; i < W * H; i++) {
        const uint32_t x = i % W, y = i / W;
        if (!cov[i])
            continue;
        const uint32_t s0 = (uint32_t)__builtin_ctz(cov[i]);
        const uint32_t *p0 = px + (size_t)(0 * N + s0) * PX, *p1 = px + (size_t)(1 * N + s0) * PX;
        const uint32_t *p2 = px + (size_t)(2 * N + s0) * PX, *p3 = px + (size_t)(3 * N + s0) * PX;
        cr_expect(same_px(p0, p1, i), "pixel (%u, %u): interpolateAtCentroid of a centroid input", x, y);
        if (cov[i] == 0xfu) {
            cr_expect(same_px(p2, p3, i), "pixel (%u, %u) wholly covered: moved from the centre", x, y);
            continue;
        }
        partial++;
        for (int c = 0; c < 2; c++)
            cr_expect(fabsf(pf(p2, i, c) - pf(p1, i, c)) < 1e-4f,
                      "pixel (%u, %u) samples 0x%x: component %d %.9g, the centroid's %.9g", x, y, cov[i], c,
                      pf(p2, i, c), pf(p1, i, c));
    }
    cr_expect_gt(partial, 20u);
    free(px);
    /* shading per sample (it reads gl_SampleID): the input at its sample already */
    const char *per_sample = "#version 450\n"
                             "layout(location = 2) in vec4 v2;\n"
                             "layout(location = 0) out uvec4 o0;\n"
                             "layout(location = 1) out uvec4 o1;\n"
                             "layout(location = 2) out uvec4 o2;\n"
                             "layout(location = 3) out uvec4 o3;\n"
                             "void main() {\n"
                             "    o0 = uvec4(gl_SampleID); o1 = uvec4(0);\n"
                             "    o2 = floatBitsToUint(interpolateAtCentroid(v2)); o3 = floatBitsToUint(v2);\n"
                             "}\n";
    px = spv_render(per_sample, true, N);
    for (uint32_t s = 0; s < N; s++)
        for (uint32_t i = 0; i < W * H; i++)
            cr_expect(same_px(px + (size_t)(2 * N + s) * PX, px + (size_t)(3 * N + s) * PX, i),
                      "per sample: pixel %u sample %u: interpolateAtCentroid moved", i, s);
    free(px);
    /* single-sampled: the value itself */
    px = spv_render(fsrc, true, 1);
    for (uint32_t i = 0; i < W * H; i++)
        cr_expect(same_px(px + 2 * PX, px + 3 * PX, i), "1x pixel %u: interpolateAtCentroid moved", i);
    free(px);
}
