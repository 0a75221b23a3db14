/* SPIR-V execution: sampling.  Every GLSL sampling call is compared bit for
 * bit with texture.h's C calls given the same arguments on hand-built 2x2
 * quads (the C side is the reference: the same texels, the same
 * arithmetic, the same implicit derivatives from the quad).  Coordinates,
 * biases, LODs and gradients are float expressions of the pixel centre,
 * evaluated in the same order on both sides. */
#include "spv_harness.h"

enum { W = 40, H = 32 };


static tr_sampler *sampler(tr_context *ctx, const tr_sampler_desc *d)
{
    tr_sampler *s = NULL;
    TRT_OK(tr_sampler_create(ctx, d, &s));
    return s;
}

static tr_context *ctx;

/* ---- the comparison ------------------------------------------------------------------------- */

/* Texture coordinates from the pixel centre (both sides). */
static float cs(float x, float y) { return x * 0.0131f + y * 0.0023f - 0.3f; }
static float ct(float x, float y) { return y * 0.0171f - x * 0.0009f + 0.1f; }

#define ST_GLSL                                                                                                 \
    "vec2 st() { float x = gl_FragCoord.x, y = gl_FragCoord.y;\n"                                             \
    "    return vec2(x * 0.0131 + y * 0.0023 - 0.3, y * 0.0171 - x * 0.0009 + 0.1); }\n"

/* The reference for one quad: lanes 0..3 with frag_x / frag_y set; writes
 * the four output words of each lane. */
typedef void (*ref_fn)(const tr_fs_block *b, uint32_t out[4][TR_FS_LANES]);

static void fbits(uint32_t out[4][TR_FS_LANES], float f[4][TR_FS_LANES])
{
    memcpy(out, f, sizeof(float) * 4 * TR_FS_LANES);
}

/* Push constants for the next compare() (NULL: none). */
static const void *cmp_push;
static size_t cmp_push_size;

/* Draws fs over W x H with the textures bound, then compares every pixel
 * with ref on the pixel's quad; components of `mask` are compared. */
static void compare(const char *fs, const char *vs, const spvh_tex *tex, ref_fn ref, uint32_t mask, const char *what)
{
    spvh_draw d;
    memset(&d, 0, sizeof d);
    d.w = W;
    d.h = H;
    d.fs = fs;
    d.vs = vs;
    for (int i = 0; i < 4; i++)
        d.tex[i] = tex[i];
    d.push = cmp_push;
    d.push_size = cmp_push_size;
    uint32_t *px = calloc((size_t)W * H, 16);
    const tr_result r = spvh_render_ctx(ctx, &d, px);
    cr_assert_eq(d.draw_result, TR_OK, "%s: draw: %s", what, tr_context_last_error(ctx));
    cr_assert_eq(r, TR_OK, "%s: end pass: %s", what, tr_context_last_error(ctx));

    static tr_fs_block b;
    static tr_texture_binding slots[TR_MAX_TEXTURES];
    memset(&b, 0, sizeof b);
    memset(slots, 0, sizeof slots);
    for (int i = 0; i < 4; i++)
        if (tex[i].image)
            slots[tex[i].slot] = (tr_texture_binding){tex[i].image, tex[i].sampler};
    b.textures = slots;
    b.count = 4;
    b.live = 0xf;
    b.sample_index = -1;
    b.frag_size_x = b.frag_size_y = 1;
    static uint32_t out[4][TR_FS_LANES];
    uint32_t mismatches = 0, nonzero = 0;
    for (uint32_t qy = 0; qy < H; qy += 2)
        for (uint32_t qx = 0; qx < W; qx += 2) {
            for (uint32_t l = 0; l < 4; l++) {
                b.frag_x[l] = (float)(qx + (l & 1)) + 0.5f;
                b.frag_y[l] = (float)(qy + (l >> 1)) + 0.5f;
            }
            memset(out, 0, sizeof out);
            ref(&b, out);
            for (uint32_t l = 0; l < 4; l++) {
                const uint32_t x = qx + (l & 1), y = qy + (l >> 1);
                const uint32_t *p = spvh_px(px, W, x, y);
                for (int c = 0; c < 4; c++) {
                    if (!(mask >> c & 1u))
                        continue;
                    nonzero += p[c] != 0;
                    if (p[c] != out[c][l]) {
                        if (mismatches < 8)
                            cr_log_error("%s: (%u, %u) component %d: got 0x%08x (%a), want 0x%08x (%a)", what, x, y,
                                         c, p[c], (double)spvh_u2f(p[c]), out[c][l], (double)spvh_u2f(out[c][l]));
                        mismatches++;
                    }
                }
            }
        }
    cr_expect_eq(mismatches, 0u, "%s: %u components differ from the C calls", what, mismatches);
    cr_expect_gt(nonzero, W * H / 4, "%s: mostly zeros: nothing sampled?", what);
    free(px);
}

/* ---- the fixtures ------------------------------------------------------------------------- */

static tr_image *rgba, *half_img, *depth, *layered;
static tr_sampler *aniso, *linear, *nearest_clamp, *shadow_less;

static void setup(void)
{
    ctx = spvh_context(2, 0);
    rgba = trt_random_texture(ctx, TR_FORMAT_R8G8B8A8_SRGB, 64, 32, 1, TR_LEVELS_ALL, 11);
    half_img = trt_random_texture(ctx, TR_FORMAT_R16G16B16A16_SFLOAT, 32, 32, 1, TR_LEVELS_ALL, 12);
    depth = trt_random_texture(ctx, TR_FORMAT_D32_SFLOAT, 32, 16, 1, 1, 13);
    layered = trt_random_texture(ctx, TR_FORMAT_R8G8B8A8_UNORM, 16, 16, 4, TR_LEVELS_ALL, 14);
    tr_sampler_desc sd = {.mag_filter = TR_FILTER_LINEAR, .min_filter = TR_FILTER_LINEAR,
                          .mipmap_mode = TR_MIPMAP_LINEAR, .address_v = TR_ADDRESS_MIRRORED_REPEAT,
                          .max_anisotropy = 16};
    aniso = sampler(ctx, &sd);
    tr_sampler_desc ld = {.mag_filter = TR_FILTER_LINEAR, .min_filter = TR_FILTER_LINEAR,
                          .mipmap_mode = TR_MIPMAP_LINEAR, .lod_bias = 0.25f};
    linear = sampler(ctx, &ld);
    tr_sampler_desc nd = {.address_u = TR_ADDRESS_CLAMP_TO_EDGE, .address_v = TR_ADDRESS_CLAMP_TO_BORDER,
                          .border_color = TR_BORDER_OPAQUE_WHITE};
    nearest_clamp = sampler(ctx, &nd);
    tr_sampler_desc cd = {.mag_filter = TR_FILTER_LINEAR, .min_filter = TR_FILTER_LINEAR,
                          .compare = TR_COMPARE_LESS, .address_u = TR_ADDRESS_CLAMP_TO_EDGE,
                          .address_v = TR_ADDRESS_CLAMP_TO_EDGE};
    shadow_less = sampler(ctx, &cd);
}

static void teardown(void)
{
    tr_context_destroy(ctx);
}

TestSuite(spirv_texture, .init = setup, .fini = teardown);

/* ---- texture(): implicit LOD, anisotropic trilinear sRGB ---------------------------------- */

static void ref_texture(const tr_fs_block *b, uint32_t out[4][TR_FS_LANES])
{
    float s[TR_FS_LANES], t[TR_FS_LANES], o[4][TR_FS_LANES];
    for (uint32_t l = 0; l < 4; l++)
        s[l] = cs(b->frag_x[l], b->frag_y[l]), t[l] = ct(b->frag_x[l], b->frag_y[l]);
    tr_fs_texture(b, 3, s, t, o);
    fbits(out, o);
}

Test(spirv_texture, texture_implicit_lod)
{
    const spvh_tex tex[4] = {{3, rgba, aniso}};
    compare("#version 450\nlayout(location = 0) out uvec4 o;\n"
            "layout(binding = 3) uniform sampler2D tex;\n" ST_GLSL
            "void main() { o = floatBitsToUint(texture(tex, st())); }\n",
            NULL, tex, ref_texture, 0xf, "texture()");
}

/* The same through a function that takes the sampler as a parameter. */
Test(spirv_texture, texture_through_a_function_parameter)
{
    const spvh_tex tex[4] = {{3, rgba, aniso}};
    compare("#version 450\nlayout(location = 0) out uvec4 o;\n"
            "layout(binding = 3) uniform sampler2D tex;\n" ST_GLSL
            "vec4 sampleIt(sampler2D s, vec2 uv) { return texture(s, uv); }\n"
            "void main() { o = floatBitsToUint(sampleIt(tex, st())); }\n",
            NULL, tex, ref_texture, 0xf, "texture() via a function");
}

/* ---- bias -------------------------------------------------------------------------------- */

static float bias_of(float x, float y) { return x * 0.05f - y * 0.03f; }

static void ref_bias(const tr_fs_block *b, uint32_t out[4][TR_FS_LANES])
{
    float s[TR_FS_LANES], t[TR_FS_LANES], bias[TR_FS_LANES], o[4][TR_FS_LANES];
    for (uint32_t l = 0; l < 4; l++) {
        s[l] = cs(b->frag_x[l], b->frag_y[l]) * 3.0f;
        t[l] = ct(b->frag_x[l], b->frag_y[l]) * 2.0f;
        bias[l] = bias_of(b->frag_x[l], b->frag_y[l]);
    }
    tr_sample_args a;
    memset(&a, 0, sizeof a);
    a.s = s, a.t = t, a.bias = bias;
    tr_fs_sample(b, 1, &a, o);
    fbits(out, o);
}

Test(spirv_texture, texture_bias)
{
    const spvh_tex tex[4] = {{1, half_img, linear}};
    compare("#version 450\nlayout(location = 0) out uvec4 o;\n"
            "layout(binding = 1) uniform sampler2D tex;\n" ST_GLSL
            "void main() {\n"
            "    float x = gl_FragCoord.x, y = gl_FragCoord.y;\n"
            "    vec2 uv = st() * vec2(3.0, 2.0);\n"
            "    o = floatBitsToUint(texture(tex, uv, x * 0.05 - y * 0.03));\n"
            "}\n",
            NULL, tex, ref_bias, 0xf, "texture(s, uv, bias)");
}

/* ---- explicit LOD, with and without an offset ----------------------------------------------- */

static float lod_of(float x, float y) { return x * 0.11f - 0.5f + y * 0.02f; }

static void ref_lod(const tr_fs_block *b, uint32_t out[4][TR_FS_LANES], int with_offset)
{
    float s[TR_FS_LANES], t[TR_FS_LANES], lod[TR_FS_LANES], o[4][TR_FS_LANES];
    for (uint32_t l = 0; l < 4; l++) {
        s[l] = cs(b->frag_x[l], b->frag_y[l]);
        t[l] = ct(b->frag_x[l], b->frag_y[l]);
        lod[l] = lod_of(b->frag_x[l], b->frag_y[l]);
    }
    tr_sample_args a;
    memset(&a, 0, sizeof a);
    a.s = s, a.t = t, a.lod = lod;
    if (with_offset)
        a.offset[0] = -3, a.offset[1] = 2;
    tr_fs_sample(b, 0, &a, o);
    fbits(out, o);
}

static void ref_lod0(const tr_fs_block *b, uint32_t out[4][TR_FS_LANES]) { ref_lod(b, out, 0); }
static void ref_lod1(const tr_fs_block *b, uint32_t out[4][TR_FS_LANES]) { ref_lod(b, out, 1); }

Test(spirv_texture, texture_lod)
{
    const spvh_tex tex[4] = {{0, rgba, linear}};
    compare("#version 450\nlayout(location = 0) out uvec4 o;\n"
            "layout(binding = 0) uniform sampler2D tex;\n" ST_GLSL
            "void main() { float x = gl_FragCoord.x, y = gl_FragCoord.y;\n"
            "    o = floatBitsToUint(textureLod(tex, st(), x * 0.11 - 0.5 + y * 0.02)); }\n",
            NULL, tex, ref_lod0, 0xf, "textureLod");
}

Test(spirv_texture, texture_lod_offset)
{
    const spvh_tex tex[4] = {{0, rgba, linear}};
    compare("#version 450\nlayout(location = 0) out uvec4 o;\n"
            "layout(binding = 0) uniform sampler2D tex;\n" ST_GLSL
            "void main() { float x = gl_FragCoord.x, y = gl_FragCoord.y;\n"
            "    o = floatBitsToUint(textureLodOffset(tex, st(), x * 0.11 - 0.5 + y * 0.02, ivec2(-3, 2))); }\n",
            NULL, tex, ref_lod1, 0xf, "textureLodOffset");
}

/* ---- textureOffset (implicit LOD, constant offset) ----------------------------------------------- */

static void ref_offset(const tr_fs_block *b, uint32_t out[4][TR_FS_LANES])
{
    float s[TR_FS_LANES], t[TR_FS_LANES], o[4][TR_FS_LANES];
    for (uint32_t l = 0; l < 4; l++)
        s[l] = cs(b->frag_x[l], b->frag_y[l]), t[l] = ct(b->frag_x[l], b->frag_y[l]);
    tr_sample_args a;
    memset(&a, 0, sizeof a);
    a.s = s, a.t = t;
    a.offset[0] = 1, a.offset[1] = -2;
    tr_fs_sample(b, 3, &a, o);
    fbits(out, o);
}

Test(spirv_texture, texture_offset)
{
    const spvh_tex tex[4] = {{3, rgba, aniso}};
    compare("#version 450\nlayout(location = 0) out uvec4 o;\n"
            "layout(binding = 3) uniform sampler2D tex;\n" ST_GLSL
            "void main() { o = floatBitsToUint(textureOffset(tex, st(), ivec2(1, -2))); }\n",
            NULL, tex, ref_offset, 0xf, "textureOffset");
}

/* ---- gradients ------------------------------------------------------------------------------- */

static void ref_grad(const tr_fs_block *b, uint32_t out[4][TR_FS_LANES])
{
    float s[TR_FS_LANES], t[TR_FS_LANES], g[4][TR_FS_LANES], o[4][TR_FS_LANES];
    for (uint32_t l = 0; l < 4; l++) {
        const float x = b->frag_x[l], y = b->frag_y[l];
        s[l] = cs(x, y), t[l] = ct(x, y);
        g[0][l] = x * 0.001f;
        g[1][l] = y * -0.002f;
        g[2][l] = 0.03f - x * 0.0005f;
        g[3][l] = y * 0.004f;
    }
    tr_sample_args a;
    memset(&a, 0, sizeof a);
    a.s = s, a.t = t, a.dsdx = g[0], a.dtdx = g[1], a.dsdy = g[2], a.dtdy = g[3];
    tr_fs_sample(b, 3, &a, o);
    fbits(out, o);
}

Test(spirv_texture, texture_grad)
{
    const spvh_tex tex[4] = {{3, rgba, aniso}};
    compare("#version 450\nlayout(location = 0) out uvec4 o;\n"
            "layout(binding = 3) uniform sampler2D tex;\n" ST_GLSL
            "void main() { float x = gl_FragCoord.x, y = gl_FragCoord.y;\n"
            "    vec2 dx = vec2(x * 0.001, y * -0.002), dy = vec2(0.03 - x * 0.0005, y * 0.004);\n"
            "    o = floatBitsToUint(textureGrad(tex, st(), dx, dy)); }\n",
            NULL, tex, ref_grad, 0xf, "textureGrad");
}

/* ---- texelFetch, with and without an offset ----------------------------------------------------- */

static void fetch_coords(const tr_fs_block *b, int32_t *x, int32_t *y, int32_t *level)
{
    for (uint32_t l = 0; l < 4; l++) {
        const int32_t px = (int32_t)b->frag_x[l], py = (int32_t)b->frag_y[l];
        x[l] = px * 2 - 7;  /* some outside the level */
        y[l] = py - 3;
        level[l] = (px + py) % 8; /* some past the last level */
    }
}

static void ref_fetch(const tr_fs_block *b, uint32_t out[4][TR_FS_LANES])
{
    int32_t x[TR_FS_LANES], y[TR_FS_LANES], level[TR_FS_LANES];
    float o[4][TR_FS_LANES];
    fetch_coords(b, x, y, level);
    tr_fs_texel_fetch(b, 2, x, y, NULL, level, o);
    fbits(out, o);
}

static void ref_fetch_offset(const tr_fs_block *b, uint32_t out[4][TR_FS_LANES])
{
    int32_t x[TR_FS_LANES], y[TR_FS_LANES], level[TR_FS_LANES];
    float o[4][TR_FS_LANES];
    fetch_coords(b, x, y, level);
    const int32_t off[2] = {5, -4};
    tr_fs_texel_fetch_offset(b, 2, x, y, NULL, level, off, o);
    fbits(out, o);
}

#define FETCH_HEAD                                                                                              \
    "#version 450\nlayout(location = 0) out uvec4 o;\nlayout(binding = 2) uniform sampler2D tex;\n"             \
    "void coords(out ivec2 c, out int level) { ivec2 p = ivec2(gl_FragCoord.xy);\n"                           \
    "    c = ivec2(p.x * 2 - 7, p.y - 3); level = (p.x + p.y) % 8; }\n"

Test(spirv_texture, texel_fetch)
{
    const spvh_tex tex[4] = {{2, rgba, nearest_clamp}};
    compare(FETCH_HEAD "void main() { ivec2 c; int level; coords(c, level);\n"
                       "    o = floatBitsToUint(texelFetch(tex, c, level)); }\n",
            NULL, tex, ref_fetch, 0xf, "texelFetch");
}

Test(spirv_texture, texel_fetch_offset)
{
    const spvh_tex tex[4] = {{2, rgba, nearest_clamp}};
    compare(FETCH_HEAD "void main() { ivec2 c; int level; coords(c, level);\n"
                       "    o = floatBitsToUint(texelFetchOffset(tex, c, level, ivec2(5, -4))); }\n",
            NULL, tex, ref_fetch_offset, 0xf, "texelFetchOffset");
}

/* ---- queries ------------------------------------------------------------------------------ */

static void ref_size(const tr_fs_block *b, uint32_t out[4][TR_FS_LANES])
{
    for (uint32_t l = 0; l < 4; l++) {
        const uint32_t level = ((uint32_t)b->frag_x[l] + (uint32_t)b->frag_y[l]) % 6u;
        uint32_t w = 0, h = 0, layers = 0;
        const uint32_t levels = tr_fs_texture_size(b, 1, level, &w, &h, &layers);
        out[0][l] = w, out[1][l] = h, out[2][l] = levels;
        uint32_t w4 = 0, h4 = 0, layers4 = 0;
        tr_fs_texture_size(b, 4, 1, &w4, &h4, &layers4);
        out[3][l] = w4 | h4 << 8 | layers4 << 16;
    }
}

Test(spirv_texture, texture_size_and_levels)
{
    const spvh_tex tex[4] = {{1, rgba, linear}, {4, layered, NULL}};
    compare("#version 450\nlayout(location = 0) out uvec4 o;\n"
            "layout(binding = 1) uniform sampler2D tex;\n"
            "layout(binding = 4) uniform sampler2DArray arr;\n"
            "void main() { ivec2 p = ivec2(gl_FragCoord.xy); int level = (p.x + p.y) % 6;\n"
            "    ivec2 sz = textureSize(tex, level); ivec3 sa = textureSize(arr, 1);\n"
            "    o = uvec4(uvec2(sz), uint(textureQueryLevels(tex)), uint(sa.x | sa.y << 8 | sa.z << 16)); }\n",
            NULL, tex, ref_size, 0xf, "textureSize, textureQueryLevels");
}

static void ref_query_lod(const tr_fs_block *b, uint32_t out[4][TR_FS_LANES])
{
    float s[TR_FS_LANES], t[TR_FS_LANES], q[2][TR_FS_LANES];
    for (uint32_t l = 0; l < 4; l++)
        s[l] = cs(b->frag_x[l], b->frag_y[l]) * 4.0f, t[l] = ct(b->frag_x[l], b->frag_y[l]);
    tr_fs_query_lod(b, 0, s, t, q);
    for (uint32_t l = 0; l < 4; l++) {
        memcpy(&out[0][l], &q[0][l], 4);
        memcpy(&out[1][l], &q[1][l], 4);
    }
}

Test(spirv_texture, texture_query_lod)
{
    const spvh_tex tex[4] = {{0, rgba, linear}};
    compare("#version 450\nlayout(location = 0) out uvec4 o;\n"
            "layout(binding = 0) uniform sampler2D tex;\n" ST_GLSL
            "void main() { o = uvec4(floatBitsToUint(textureQueryLod(tex, st() * vec2(4.0, 1.0))), 0u, 0u); }\n",
            NULL, tex, ref_query_lod, 0x3, "textureQueryLod");
}

/* ---- depth compare ------------------------------------------------------------------------ */

static float dref_of(float x, float y) { return x * 0.02f + y * 0.01f - 0.1f; }

static void ref_shadow(const tr_fs_block *b, uint32_t out[4][TR_FS_LANES])
{
    float s[TR_FS_LANES], t[TR_FS_LANES], dref[TR_FS_LANES], lod[TR_FS_LANES], o[4][TR_FS_LANES];
    for (uint32_t l = 0; l < 4; l++) {
        s[l] = cs(b->frag_x[l], b->frag_y[l]) * 2.0f;
        t[l] = ct(b->frag_x[l], b->frag_y[l]);
        dref[l] = dref_of(b->frag_x[l], b->frag_y[l]);
        lod[l] = 0.0f;
    }
    tr_sample_args a;
    memset(&a, 0, sizeof a);
    a.s = s, a.t = t, a.dref = dref;
    tr_fs_sample(b, 5, &a, o);
    memcpy(out[0], o[0], sizeof o[0]);
    a.offset[0] = 2, a.offset[1] = 1;
    tr_fs_sample(b, 5, &a, o);
    memcpy(out[1], o[0], sizeof o[0]);
    a.offset[0] = 0, a.offset[1] = 0;
    a.lod = lod;
    tr_fs_sample(b, 5, &a, o);
    memcpy(out[2], o[0], sizeof o[0]);
}

Test(spirv_texture, shadow_sampler_compare)
{
    const spvh_tex tex[4] = {{5, depth, shadow_less}};
    compare("#version 450\nlayout(location = 0) out uvec4 o;\n"
            "layout(binding = 5) uniform sampler2DShadow sh;\n" ST_GLSL
            "void main() { float x = gl_FragCoord.x, y = gl_FragCoord.y;\n"
            "    vec3 c = vec3(st() * vec2(2.0, 1.0), x * 0.02 + y * 0.01 - 0.1);\n"
            "    o = uvec4(floatBitsToUint(texture(sh, c)), floatBitsToUint(textureOffset(sh, c, ivec2(2, 1))),\n"
            "              floatBitsToUint(textureLod(sh, c, 0.0)), 0u); }\n",
            NULL, tex, ref_shadow, 0x7, "sampler2DShadow");
}

/* ---- array textures and arrays of samplers ---------------------------------------------------- */

static void ref_array(const tr_fs_block *b, uint32_t out[4][TR_FS_LANES])
{
    float s[TR_FS_LANES], t[TR_FS_LANES], layer[TR_FS_LANES], o[4][TR_FS_LANES];
    for (uint32_t l = 0; l < 4; l++) {
        s[l] = cs(b->frag_x[l], b->frag_y[l]);
        t[l] = ct(b->frag_x[l], b->frag_y[l]);
        layer[l] = b->frag_x[l] * 0.25f - 1.0f; /* halves: ties to even, and clamped */
    }
    tr_sample_args a;
    memset(&a, 0, sizeof a);
    a.s = s, a.t = t, a.layer = layer;
    tr_fs_sample(b, 4, &a, o);
    fbits(out, o);
}

Test(spirv_texture, array_texture_layers)
{
    const spvh_tex tex[4] = {{4, layered, linear}};
    compare("#version 450\nlayout(location = 0) out uvec4 o;\n"
            "layout(binding = 4) uniform sampler2DArray arr;\n" ST_GLSL
            "void main() { o = floatBitsToUint(texture(arr, vec3(st(), gl_FragCoord.x * 0.25 - 1.0))); }\n",
            NULL, tex, ref_array, 0xf, "sampler2DArray");
}

static void ref_sampler_array(const tr_fs_block *b, uint32_t out[4][TR_FS_LANES])
{
    float s[TR_FS_LANES], t[TR_FS_LANES], o1[4][TR_FS_LANES], o2[4][TR_FS_LANES];
    for (uint32_t l = 0; l < 4; l++)
        s[l] = cs(b->frag_x[l], b->frag_y[l]), t[l] = ct(b->frag_x[l], b->frag_y[l]);
    tr_fs_texture(b, 6, s, t, o1);
    tr_fs_texture(b, 7, s, t, o2);
    for (uint32_t l = 0; l < 4; l++)
        for (int c = 0; c < 4; c++) {
            const float v = o1[c][l] - o2[c][l];
            memcpy(&out[c][l], &v, 4);
        }
}

/* `sampler2D texs[2]` at binding 6 reads slots 6 and 7. */
Test(spirv_texture, array_of_samplers_consecutive_slots)
{
    const spvh_tex tex[4] = {{6, rgba, linear}, {7, half_img, aniso}};
    compare("#version 450\nlayout(location = 0) out uvec4 o;\n"
            "layout(binding = 6) uniform sampler2D texs[2];\n" ST_GLSL
            "void main() { vec2 uv = st(); o = floatBitsToUint(texture(texs[0], uv) - texture(texs[1], uv)); }\n",
            NULL, tex, ref_sampler_array, 0xf, "sampler2D[2]");
}

/* ---- the vertex stage samples with an explicit LOD and fetches --------------------------------- */

static void ref_vertex_lod(const tr_fs_block *b, uint32_t out[4][TR_FS_LANES])
{
    /* the provoking vertex 0's coordinates, in every lane: no derivatives */
    float s[TR_FS_LANES], t[TR_FS_LANES], lod[TR_FS_LANES], o[4][TR_FS_LANES];
    for (uint32_t l = 0; l < 4; l++)
        s[l] = 0.3f, t[l] = 0.7f, lod[l] = 1.3f;
    tr_fs_texture_lod(b, 2, s, t, lod, o);
    int32_t x[TR_FS_LANES] = {3, 3, 3, 3}, y[TR_FS_LANES] = {2, 2, 2, 2}, level[TR_FS_LANES] = {1, 1, 1, 1};
    float f[4][TR_FS_LANES];
    tr_fs_texel_fetch(b, 2, x, y, NULL, level, f);
    for (uint32_t l = 0; l < 4; l++) {
        memcpy(&out[0][l], &o[0][l], 4);
        memcpy(&out[1][l], &o[3][l], 4);
        memcpy(&out[2][l], &f[1][l], 4);
        memcpy(&out[3][l], &f[2][l], 4);
    }
}

Test(spirv_texture, vertex_shader_texture_lod_and_fetch)
{
    const spvh_tex tex[4] = {{2, rgba, linear}};
    compare("#version 450\nlayout(location = 0) out uvec4 o;\nlayout(location = 0) flat in vec4 c;\n"
            "void main() { o = floatBitsToUint(c); }\n",
            "#version 450\n"
            "layout(binding = 2) uniform sampler2D tex;\n"
            "layout(location = 0) flat out vec4 c;\n"
            "void main() {\n"
            "    vec2 p = vec2(float((gl_VertexIndex & 1) * 4) - 1.0, float((gl_VertexIndex & 2) * 2) - 1.0);\n"
            "    gl_Position = vec4(p, 0.0, 1.0);\n"
            "    vec4 s = textureLod(tex, vec2(0.3, 0.7) + float(gl_VertexIndex) * 0.01, 1.3);\n"
            "    vec4 f = texelFetch(tex, ivec2(3 + gl_VertexIndex, 2), 1);\n"
            "    c = vec4(s.x, s.w, f.y, f.z);\n"
            "}\n",
            tex, ref_vertex_lod, 0xf, "textureLod and texelFetch in the vertex shader");
}

/* ---- more sampling forms ------------------------------------------------------------------- */

static float clamp_of(float x, float y) { return x * 0.07f - y * 0.01f; }

static void ref_lod_clamp(const tr_fs_block *b, uint32_t out[4][TR_FS_LANES])
{
    float s[TR_FS_LANES], t[TR_FS_LANES], lc[TR_FS_LANES], o[4][TR_FS_LANES];
    for (uint32_t l = 0; l < 4; l++) {
        s[l] = cs(b->frag_x[l], b->frag_y[l]) * 2.0f;
        t[l] = ct(b->frag_x[l], b->frag_y[l]) * 2.0f;
        lc[l] = clamp_of(b->frag_x[l], b->frag_y[l]);
    }
    tr_sample_args a;
    memset(&a, 0, sizeof a);
    a.s = s, a.t = t, a.lod_clamp = lc;
    tr_fs_sample(b, 3, &a, o);
    fbits(out, o);
}

/* textureClampARB: SPIR-V's MinLod operand, texture.h's lod_clamp. */
Test(spirv_texture, texture_clamp_min_lod)
{
    const spvh_tex tex[4] = {{3, rgba, aniso}};
    compare("#version 450\n#extension GL_ARB_sparse_texture_clamp : require\n"
            "layout(location = 0) out uvec4 o;\n"
            "layout(binding = 3) uniform sampler2D tex;\n" ST_GLSL
            "void main() { float x = gl_FragCoord.x, y = gl_FragCoord.y; vec2 uv = st() * 2.0;\n"
            "    o = floatBitsToUint(textureClampARB(tex, uv, x * 0.07 - y * 0.01)); }\n",
            NULL, tex, ref_lod_clamp, 0xf, "textureClampARB");
}

static void ref_offset_bias(const tr_fs_block *b, uint32_t out[4][TR_FS_LANES])
{
    float s[TR_FS_LANES], t[TR_FS_LANES], bias[TR_FS_LANES], o[4][TR_FS_LANES];
    for (uint32_t l = 0; l < 4; l++) {
        s[l] = cs(b->frag_x[l], b->frag_y[l]) * 2.0f;
        t[l] = ct(b->frag_x[l], b->frag_y[l]) * 2.0f;
        bias[l] = -0.5f;
    }
    tr_sample_args a;
    memset(&a, 0, sizeof a);
    a.s = s, a.t = t, a.bias = bias;
    a.offset[0] = 7, a.offset[1] = -8;
    tr_fs_sample(b, 3, &a, o);
    fbits(out, o);
}

/* textureOffset with a bias, at the ends of the offset range. */
Test(spirv_texture, texture_offset_bias)
{
    const spvh_tex tex[4] = {{3, rgba, aniso}};
    compare("#version 450\nlayout(location = 0) out uvec4 o;\n"
            "layout(binding = 3) uniform sampler2D tex;\n" ST_GLSL
            "void main() { vec2 uv = st() * 2.0;\n"
            "    o = floatBitsToUint(textureOffset(tex, uv, ivec2(7, -8), -0.5)); }\n",
            NULL, tex, ref_offset_bias, 0xf, "textureOffset with bias");
}

static void ref_array_shadow(const tr_fs_block *b, uint32_t out[4][TR_FS_LANES])
{
    float s[TR_FS_LANES], t[TR_FS_LANES], layer[TR_FS_LANES], dref[TR_FS_LANES], g[4][TR_FS_LANES],
        o[4][TR_FS_LANES];
    for (uint32_t l = 0; l < 4; l++) {
        const float x = b->frag_x[l], y = b->frag_y[l];
        s[l] = cs(x, y), t[l] = ct(x, y);
        layer[l] = y * 0.125f;
        dref[l] = dref_of(x, y);
        g[0][l] = 0.01f, g[1][l] = 0.0f, g[2][l] = 0.0f, g[3][l] = x * 0.002f;
    }
    tr_sample_args a;
    memset(&a, 0, sizeof a);
    a.s = s, a.t = t, a.layer = layer, a.dref = dref;
    tr_fs_sample(b, 6, &a, o);
    memcpy(out[0], o[0], sizeof o[0]);
    memset(&a, 0, sizeof a);
    a.s = s, a.t = t, a.dref = dref, a.dsdx = g[0], a.dtdx = g[1], a.dsdy = g[2], a.dtdy = g[3];
    tr_fs_sample(b, 5, &a, o);
    memcpy(out[1], o[0], sizeof o[0]);
    int32_t fx[TR_FS_LANES], fy[TR_FS_LANES], fl[TR_FS_LANES], lv[TR_FS_LANES];
    for (uint32_t l = 0; l < 4; l++) {
        fx[l] = (int32_t)b->frag_x[l] % 17, fy[l] = (int32_t)b->frag_y[l] % 17;
        fl[l] = ((int32_t)b->frag_x[l] + (int32_t)b->frag_y[l]) % 5 - 1;
        lv[l] = 0;
    }
    float f[4][TR_FS_LANES];
    tr_fs_texel_fetch(b, 7, fx, fy, fl, lv, f);
    memcpy(out[2], f[0], sizeof f[0]);
    memcpy(out[3], f[3], sizeof f[3]);
}

/* sampler2DArrayShadow (layer and reference), textureGrad on a shadow
 * sampler, texelFetch from an array texture (layers outside read 0). */
Test(spirv_texture, array_shadow_grad_shadow_array_fetch)
{
    tr_image *depth_layers = trt_random_texture(ctx, TR_FORMAT_D32_SFLOAT, 16, 16, 3, 1, 21);
    const spvh_tex tex[4] = {{6, depth_layers, shadow_less}, {5, depth, shadow_less}, {7, layered, NULL}};
    compare("#version 450\nlayout(location = 0) out uvec4 o;\n"
            "layout(binding = 5) uniform sampler2DShadow sh;\n"
            "layout(binding = 6) uniform sampler2DArrayShadow sha;\n"
            "layout(binding = 7) uniform sampler2DArray arr;\n" ST_GLSL
            "void main() { float x = gl_FragCoord.x, y = gl_FragCoord.y; vec2 uv = st();\n"
            "    float dref = x * 0.02 + y * 0.01 - 0.1;\n"
            "    float a = texture(sha, vec4(uv, y * 0.125, dref));\n"
            "    float g = textureGrad(sh, vec3(uv, dref), vec2(0.01, 0.0), vec2(0.0, x * 0.002));\n"
            "    ivec2 p = ivec2(gl_FragCoord.xy);\n"
            "    vec4 f = texelFetch(arr, ivec3(p.x % 17, p.y % 17, (p.x + p.y) % 5 - 1), 0);\n"
            "    o = floatBitsToUint(vec4(a, g, f.x, f.w)); }\n",
            NULL, tex, ref_array_shadow, 0xf, "array shadow, shadow grad, array fetch");
    tr_image_destroy(depth_layers);
}

static void ref_dynamic_sampler_index(const tr_fs_block *b, uint32_t out[4][TR_FS_LANES])
{
    float s[TR_FS_LANES], t[TR_FS_LANES], o[4][TR_FS_LANES];
    for (uint32_t l = 0; l < 4; l++)
        s[l] = cs(b->frag_x[l], b->frag_y[l]), t[l] = ct(b->frag_x[l], b->frag_y[l]);
    tr_fs_texture(b, 9, s, t, o); /* texs[u.index = 2] at binding 7 */
    fbits(out, o);
}

/* An array of samplers indexed by a uniform value (dynamically uniform). */
Test(spirv_texture, sampler_array_uniform_index)
{
    static const int32_t index[1] = {2};
    const spvh_tex tex[4] = {{7, half_img, linear}, {8, half_img, aniso}, {9, rgba, aniso}};
    cmp_push = index;
    cmp_push_size = sizeof index;
    compare("#version 450\nlayout(location = 0) out uvec4 o;\n"
            "layout(binding = 7) uniform sampler2D texs[3];\n"
            "layout(push_constant) uniform P { int index; } pc;\n" ST_GLSL
            "void main() { o = floatBitsToUint(texture(texs[pc.index], st())); }\n",
            NULL, tex, ref_dynamic_sampler_index, 0xf, "texs[uniform index]");
    cmp_push = NULL;
    cmp_push_size = 0;
}

static void ref_proj(const tr_fs_block *b, uint32_t out[4][TR_FS_LANES])
{
    float s[TR_FS_LANES], t[TR_FS_LANES], o[4][TR_FS_LANES];
    for (uint32_t l = 0; l < 4; l++) {
        const float q = 1.5f + b->frag_x[l] * 0.01f;
        s[l] = (cs(b->frag_x[l], b->frag_y[l]) * q) / q;
        t[l] = (ct(b->frag_x[l], b->frag_y[l]) * q) / q;
    }
    tr_fs_texture(b, 3, s, t, o);
    fbits(out, o);
}

/* textureProj (OpImageSampleProjImplicitLod): the coordinates divided by q. */
Test(spirv_texture, texture_proj)
{
    const spvh_tex tex[4] = {{3, rgba, aniso}};
    compare("#version 450\nlayout(location = 0) out uvec4 o;\n"
            "layout(binding = 3) uniform sampler2D tex;\n" ST_GLSL
            "void main() { float q = 1.5 + gl_FragCoord.x * 0.01;\n"
            "    o = floatBitsToUint(textureProj(tex, vec3(st() * q, q))); }\n",
            NULL, tex, ref_proj, 0xf, "textureProj");
}
