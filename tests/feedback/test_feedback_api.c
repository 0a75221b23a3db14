/* Sampler feedback outside the shader: map creation and its errors (the
 * specification's region rule), decoded sizes (the R8 chain padding),
 * encode and decode round trips, and the binding rules of a pass. */
#include "trtest.h"

#include <string.h>

static tr_context *g_ctx;

static tr_context *ctx1(void)
{
    if (!g_ctx)
        g_ctx = trt_context(1);
    return g_ctx;
}

static void fini(void)
{
    tr_context_destroy(g_ctx);
    g_ctx = NULL;
}

TestSuite(feedback_api, .fini = fini);

static tr_feedback_map *make_map(tr_feedback_kind kind, uint32_t w, uint32_t h, uint32_t levels, uint32_t layers,
                                 uint32_t rw, uint32_t rh)
{
    tr_feedback_map_desc d = {kind, w, h, levels, layers, rw, rh};
    tr_feedback_map *m = NULL;
    TRT_OK(tr_feedback_map_create(ctx1(), &d, &m));
    return m;
}

static void expect_create_error(tr_feedback_map_desc d, tr_result code, const char *words)
{
    tr_feedback_map *m = (tr_feedback_map *)&d; /* must be reset to NULL */
    TRT_EXPECT(tr_feedback_map_create(ctx1(), &d, &m), code);
    cr_expect_null(m);
    cr_expect(strstr(tr_context_last_error(ctx1()), words) != NULL, "message '%s' lacks '%s'",
              tr_context_last_error(ctx1()), words);
}

Test(feedback_api, region_rule)
{
    /* 32x32 allows 4..16, 100x100 4..32; both axes on their own. */
    for (uint32_t r = 4; r <= 16; r *= 2)
        tr_feedback_map_destroy(make_map(TR_FEEDBACK_MIN_MIP, 32, 32, 1, 1, r, r));
    tr_feedback_map_destroy(make_map(TR_FEEDBACK_MIN_MIP, 100, 100, 1, 1, 32, 32));
    tr_feedback_map_destroy(make_map(TR_FEEDBACK_MIN_MIP, 100, 16, 1, 1, 32, 8));
    const tr_feedback_kind k = TR_FEEDBACK_MIN_MIP;
    expect_create_error((tr_feedback_map_desc){k, 32, 32, 1, 1, 32, 4}, TR_ERROR_INVALID_DESCRIPTOR, "region_width");
    expect_create_error((tr_feedback_map_desc){k, 100, 100, 1, 1, 64, 4}, TR_ERROR_INVALID_DESCRIPTOR, "half");
    expect_create_error((tr_feedback_map_desc){k, 32, 32, 1, 1, 4, 2}, TR_ERROR_INVALID_DESCRIPTOR, "region_height");
    expect_create_error((tr_feedback_map_desc){k, 32, 32, 1, 1, 4, 0}, TR_ERROR_INVALID_DESCRIPTOR, "power of two");
    expect_create_error((tr_feedback_map_desc){k, 32, 32, 1, 1, 6, 4}, TR_ERROR_INVALID_DESCRIPTOR, "power of two");
    expect_create_error((tr_feedback_map_desc){k, 32, 32, 1, 1, 12, 4}, TR_ERROR_INVALID_DESCRIPTOR, "power of two");
    expect_create_error((tr_feedback_map_desc){k, 7, 64, 1, 1, 4, 4}, TR_ERROR_INVALID_DESCRIPTOR, "half");
}

Test(feedback_api, descriptor_errors)
{
    const tr_feedback_kind k = TR_FEEDBACK_MIP_REGION_USED;
    expect_create_error((tr_feedback_map_desc){(tr_feedback_kind)2, 32, 32, 1, 1, 4, 4}, TR_ERROR_INVALID_ARGUMENT,
                        "kind");
    expect_create_error((tr_feedback_map_desc){k, 0, 32, 1, 1, 4, 4}, TR_ERROR_INVALID_DESCRIPTOR, "size");
    expect_create_error((tr_feedback_map_desc){k, 32, 32 * 1024, 1, 1, 4, 4}, TR_ERROR_INVALID_DESCRIPTOR, "size");
    /* 65x65: 7 levels (65, 32, 16, 8, 4, 2, 1); an eighth is beyond the chain. */
    tr_feedback_map_destroy(make_map(k, 65, 65, 7, 1, 4, 4));
    expect_create_error((tr_feedback_map_desc){k, 65, 65, 8, 1, 4, 4}, TR_ERROR_INVALID_DESCRIPTOR, "levels");
    expect_create_error((tr_feedback_map_desc){k, 32, 32, 1, TR_MAX_IMAGE_LAYERS + 1, 4, 4},
                        TR_ERROR_INVALID_DESCRIPTOR, "layers");
    tr_feedback_map *m = NULL;
    TRT_EXPECT(tr_feedback_map_create(ctx1(), NULL, &m), TR_ERROR_INVALID_ARGUMENT);
    TRT_EXPECT(tr_feedback_map_create(ctx1(), &(tr_feedback_map_desc){k, 32, 32, 1, 1, 4, 4}, NULL),
               TR_ERROR_INVALID_ARGUMENT);
    /* Defaults: levels and layers 0 read 1. */
    m = make_map(k, 32, 16, 0, 0, 8, 4);
    const tr_feedback_map_desc got = tr_feedback_map_get_desc(m);
    cr_expect_eq(got.levels, 1);
    cr_expect_eq(got.layers, 1);
    tr_feedback_map_destroy(m);
}

Test(feedback_api, decoded_sizes)
{
    /* MinMip: level 0's grid only. */
    tr_feedback_map *mm = make_map(TR_FEEDBACK_MIN_MIP, 15, 15, 2, 1, 4, 4);
    uint32_t w = 0, h = 0;
    TRT_OK(tr_feedback_map_decoded_size(mm, 0, &w, &h));
    cr_expect(w == 4 && h == 4, "15x15 / 4x4: %ux%u", w, h);
    TRT_EXPECT(tr_feedback_map_decoded_size(mm, 1, &w, &h), TR_ERROR_OUT_OF_RANGE);
    cr_expect(strstr(tr_context_last_error(ctx1()), "MinMip") != NULL, "%s", tr_context_last_error(ctx1()));
    tr_feedback_map_destroy(mm);

    /* MipRegionUsed: each level's own grid.  36 wide, 8-wide regions: level
     * 1 (18 texels) has 3 regions where an R8 chain from 5 would have 2. */
    tr_feedback_map *mu = make_map(TR_FEEDBACK_MIP_REGION_USED, 36, 20, 3, 1, 8, 4);
    static const uint32_t want[3][2] = {{5, 5}, {3, 3}, {2, 2}}; /* 36x20, 18x10, 9x5 */
    for (uint32_t l = 0; l < 3; l++) {
        TRT_OK(tr_feedback_map_decoded_size(mu, l, &w, &h));
        cr_expect(w == want[l][0] && h == want[l][1], "level %u: %ux%u", l, w, h);
        cr_expect(w >= (5u >> l ? 5u >> l : 1u), "never smaller than the R8 chain");
    }
    TRT_EXPECT(tr_feedback_map_decoded_size(mu, 3, &w, &h), TR_ERROR_OUT_OF_RANGE);
    tr_feedback_map_destroy(mu);

    /* 65x65, 3 levels, 4x4 regions: 17, 8, 4. */
    tr_feedback_map *m65 = make_map(TR_FEEDBACK_MIP_REGION_USED, 65, 65, 3, 1, 4, 4);
    for (uint32_t l = 0; l < 3; l++) {
        TRT_OK(tr_feedback_map_decoded_size(m65, l, &w, &h));
        static const uint32_t want65[3] = {17, 8, 4};
        cr_expect_eq(w, want65[l]);
        cr_expect_eq(h, w);
    }
    tr_feedback_map_destroy(m65);
}

Test(feedback_api, transfer_errors)
{
    tr_feedback_map *mm = make_map(TR_FEEDBACK_MIN_MIP, 32, 32, 3, 2, 8, 8);
    uint8_t buf[64];
    TRT_EXPECT(tr_feedback_map_decode(mm, 0, 1, buf, 4), TR_ERROR_OUT_OF_RANGE); /* MinMip has level 0 only */
    cr_expect(strstr(tr_context_last_error(ctx1()), "MinMip") != NULL, "%s", tr_context_last_error(ctx1()));
    TRT_EXPECT(tr_feedback_map_decode(mm, 2, 0, buf, 4), TR_ERROR_OUT_OF_RANGE);
    TRT_EXPECT(tr_feedback_map_decode(mm, 0, 0, buf, 3), TR_ERROR_INVALID_ARGUMENT);
    cr_expect(strstr(tr_context_last_error(ctx1()), "row_pitch") != NULL, "%s", tr_context_last_error(ctx1()));
    TRT_EXPECT(tr_feedback_map_decode(mm, 0, 0, NULL, 4), TR_ERROR_INVALID_ARGUMENT);
    TRT_EXPECT(tr_feedback_map_encode(mm, 0, 0, buf, 2), TR_ERROR_INVALID_ARGUMENT);
    TRT_EXPECT(tr_feedback_map_decode(NULL, 0, 0, buf, 4), TR_ERROR_INVALID_ARGUMENT);
    tr_feedback_map *mu = make_map(TR_FEEDBACK_MIP_REGION_USED, 32, 32, 3, 1, 8, 8);
    TRT_EXPECT(tr_feedback_map_decode(mu, 0, 3, buf, 4), TR_ERROR_OUT_OF_RANGE);
    TRT_OK(tr_feedback_map_decode(mu, 0, 2, buf, 1)); /* 8x8 level: 1x1 regions */
    cr_expect_eq(buf[0], 0);
    TRT_EXPECT(tr_feedback_map_set_mode(mu, (tr_feedback_mode)5), TR_ERROR_INVALID_ARGUMENT);
    tr_feedback_map_destroy(mm);
    tr_feedback_map_destroy(mu);
}

/* ---- encode and decode -------------------------------------------------------------------- */

Test(feedback_api, min_mip_round_trip)
{
    /* 80x64, 8x8 regions, 4 levels: a 10x8 grid.  Values 0..3 come back;
     * 4 and above (0xFF included) mean nothing requested. */
    tr_feedback_map *m = make_map(TR_FEEDBACK_MIN_MIP, 80, 64, 4, 1, 8, 8);
    uint8_t in[8][12], out[8][12];
    for (uint32_t y = 0; y < 8; y++)
        for (uint32_t x = 0; x < 12; x++)
            in[y][x] = (uint8_t)((x * 7 + y * 3) % 6 == 5 ? 0xFF : (x * 7 + y * 3) % 6); /* 0..4, 0xFF */
    TRT_OK(tr_feedback_map_encode(m, 0, 0, &in[0][0], 12));
    memset(out, 0xAB, sizeof out);
    TRT_OK(tr_feedback_map_decode(m, 0, 0, &out[0][0], 12));
    for (uint32_t y = 0; y < 8; y++)
        for (uint32_t x = 0; x < 12; x++) {
            const uint8_t want = x >= 10 ? 0xAB : in[y][x] < 4 ? in[y][x] : 0xFF;
            cr_expect_eq(out[y][x], want, "(%u,%u): in %u out %u want %u", x, y, in[y][x], out[y][x], want);
        }
    /* A clear empties it. */
    TRT_OK(tr_feedback_map_clear(m));
    TRT_OK(tr_feedback_map_decode(m, 0, 0, &out[0][0], 12));
    for (uint32_t y = 0; y < 8; y++)
        for (uint32_t x = 0; x < 10; x++)
            cr_expect_eq(out[y][x], 0xFF);
    tr_feedback_map_destroy(m);
}

/* ---- binding in a pass ---------------------------------------------------------------------- */

static void fs_nothing(tr_fs_block *b)
{
    (void)b;
}

Test(feedback_api, binding_rules)
{
    tr_context *ctx = trt_context(1);
    tr_image *rt = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, 16, 16);
    tr_image_desc td = {TR_FORMAT_R8G8B8A8_UNORM, 64, 64, 1, 3, 0, 0};
    tr_image *tex = NULL, *other = NULL;
    TRT_OK(tr_image_create(ctx, &td, &tex));
    td.width = 65;
    TRT_OK(tr_image_create(ctx, &td, &other));
    tr_feedback_map *map = NULL;
    TRT_OK(tr_feedback_map_create(ctx, &(tr_feedback_map_desc){TR_FEEDBACK_MIN_MIP, 64, 64, 3, 1, 8, 8}, &map));

    TRT_EXPECT(tr_cmd_bind_feedback_map(ctx, 0, map), TR_ERROR_INVALID_STATE); /* no pass */
    trt_begin_color(ctx, rt, NULL);
    TRT_EXPECT(tr_cmd_bind_feedback_map(ctx, TR_MAX_FEEDBACK_MAPS, map), TR_ERROR_OUT_OF_RANGE);
    tr_pipeline_desc pd = {.fragment_shader = fs_nothing, .texture_mask = 1u << 1, .feedback_mask = 1u << 2};
    tr_pipeline *pl = trt_pipeline(ctx, &pd);
    TRT_OK(tr_cmd_bind_pipeline(ctx, pl));
    trt_vertex v[3] = {trt_vpx(0, 0, 0, 16, 16, NULL), trt_vpx(16, 0, 0, 16, 16, NULL),
                       trt_vpx(0, 16, 0, 16, 16, NULL)};
    trt_uniforms u = {.vertices = v};
    TRT_OK(tr_cmd_set_uniforms(ctx, &u, sizeof u));
    TRT_OK(tr_cmd_bind_texture(ctx, 1, other, NULL));
    TRT_EXPECT(tr_cmd_draw(ctx, 3, 1, 0, 0), TR_ERROR_INVALID_STATE); /* slot 2 empty */
    cr_expect(strstr(tr_context_last_error(ctx), "feedback slot 2") != NULL, "%s", tr_context_last_error(ctx));
    TRT_OK(tr_cmd_bind_feedback_map(ctx, 2, map));
    TRT_EXPECT(tr_cmd_draw(ctx, 3, 1, 0, 0), TR_ERROR_INVALID_STATE); /* 64x64 map, 65x64 texture */
    cr_expect(strstr(tr_context_last_error(ctx), "64x64, 3 levels") != NULL, "%s", tr_context_last_error(ctx));
    TRT_OK(tr_cmd_bind_texture(ctx, 1, tex, NULL));
    TRT_OK(tr_cmd_draw(ctx, 3, 1, 0, 0));
    /* Held by the pass until it ends. */
    uint8_t buf[64];
    TRT_EXPECT(tr_feedback_map_decode(map, 0, 0, buf, 8), TR_ERROR_INVALID_STATE);
    TRT_EXPECT(tr_feedback_map_clear(map), TR_ERROR_INVALID_STATE);
    TRT_EXPECT(tr_feedback_map_encode(map, 0, 0, buf, 8), TR_ERROR_INVALID_STATE);
    TRT_EXPECT(tr_feedback_map_set_mode(map, TR_FEEDBACK_CONSERVATIVE), TR_ERROR_INVALID_STATE);
    tr_feedback_map_destroy(map);
    cr_expect(strstr(tr_context_last_error(ctx), "bound") != NULL, "%s", tr_context_last_error(ctx));
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    TRT_OK(tr_feedback_map_decode(map, 0, 0, buf, 8));

    /* Pipelines: slots beyond the limit; feedback without a fragment shader. */
    tr_pipeline *bad = NULL;
    tr_pipeline_desc bd = {.vertex_shader = trt_vs, .fragment_shader = fs_nothing, .feedback_mask = 1u << 8};
    TRT_EXPECT(tr_pipeline_create(ctx, &bd, &bad), TR_ERROR_INVALID_DESCRIPTOR);
    bd.feedback_mask = 1, bd.fragment_shader = NULL;
    TRT_EXPECT(tr_pipeline_create(ctx, &bd, &bad), TR_ERROR_INVALID_DESCRIPTOR);
    tr_context_destroy(ctx); /* destroys the map too */
}
