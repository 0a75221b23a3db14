/* Uniform blocks: a block whose shader reads only flat varyings is shaded as
 * one quad that stands for all, and a triangle's first such quad stands for
 * its later uniform blocks in the bin (raster_tri.c, shade_quads).  The scalar
 * reference shades every lane, so whole images and statistics must match
 * it: for shaders whose lanes are alike, for shaders whose four quad lanes
 * differ or discard by quad position (the contract of pipeline.h allows
 * both), and for attachments the vector blend does not handle (sRGB,
 * float), which get the quad's outputs copied to every lane. */
#include "trtest.h"

#include <string.h>

/* Each lane's colour is its varying, red raised by its place in the quad. */
static void fs_quad_position(tr_fs_block *b)
{
    for (uint32_t k = 0; k < 3; k++)
        for (int c = 0; c < 4; c++)
            for (uint32_t l = 0; l < b->count; l++)
                b->color[k][c][l] = b->varyings[0][c][l] + (c == 0 ? (float)(l & 3) * 0.125f : 0.0f);
}

/* The varying, and lane 2 of each quad discarded where green is above 1/2. */
static void fs_discard_by_position(tr_fs_block *b)
{
    for (uint32_t k = 0; k < 3; k++)
        for (int c = 0; c < 4; c++)
            for (uint32_t l = 0; l < b->count; l++)
                b->color[k][c][l] = b->varyings[0][c][l];
    for (uint32_t l = 0; l < b->count; l++)
        if ((l & 3) == 2 && b->varyings[0][1][l] > 0.5f)
            b->discard |= 1ull << l;
}

enum { W = 96, H = 72, NT = 160, ATTS = 3 };

static const tr_format formats[ATTS] = {TR_FORMAT_R8G8B8A8_UNORM, TR_FORMAT_R8G8B8A8_SRGB,
                                        TR_FORMAT_R16G16B16A16_SFLOAT};

typedef struct frame {
    uint8_t px[ATTS][W * H * 8];
    tr_pass_stats stats;
} frame;

static void render(const trt_vertex *v, tr_fragment_shader fs, uint32_t fs_flags, bool blend, bool scalar,
                   uint32_t threads, frame *out)
{
    tr_context_desc cd = {0};
    cd.threads = threads;
    cd.simd = scalar ? TR_SIMD_SCALAR : TR_SIMD_DEFAULT;
    tr_context *ctx = trt_context_desc(&cd);
    tr_image *img[ATTS];
    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.color_count = ATTS;
    for (int a = 0; a < ATTS; a++) {
        img[a] = trt_image(ctx, formats[a], W, H);
        rp.color[a].image = img[a];
        rp.color[a].load_op = TR_LOAD_OP_CLEAR;
        rp.color[a].clear_color[0] = 0.25f;
        rp.color[a].clear_color[3] = 1.0f;
    }
    tr_image *ds = trt_image(ctx, TR_FORMAT_D32_SFLOAT, W, H);
    rp.depth.image = ds;
    rp.depth.depth_load_op = TR_LOAD_OP_CLEAR;
    rp.depth.clear_depth = 1.0f;
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
    tr_pipeline_desc pd = {0};
    pd.fragment_shader = fs;
    pd.fs_flags = fs_flags;
    pd.flat_mask = 1;
    pd.depth_test = 1;
    pd.depth_write = 1;
    pd.depth_compare = TR_COMPARE_LESS;
    for (int a = 0; a < ATTS; a++) {
        tr_blend_state *b = &pd.blend[a];
        b->write_mask = a == 2 ? 0xbu : 0xfu; /* (green masked on the float target) */
        if (blend && a < 2) {
            b->enable = 1;
            b->src_color = TR_BLEND_SRC_ALPHA;
            b->dst_color = TR_BLEND_ONE_MINUS_SRC_ALPHA;
            b->color_op = TR_BLEND_OP_ADD;
            b->src_alpha = TR_BLEND_ONE;
            b->dst_alpha = TR_BLEND_ONE_MINUS_SRC_ALPHA;
            b->alpha_op = TR_BLEND_OP_ADD;
        }
    }
    tr_pipeline *p = trt_pipeline(ctx, &pd);
    TRT_OK(tr_cmd_bind_pipeline(ctx, p));
    trt_draw(ctx, v, 3 * NT);
    TRT_OK(tr_cmd_end_render_pass(ctx, &out->stats));
    memset(out->px, 0, sizeof out->px);
    for (int a = 0; a < ATTS; a++)
        trt_download(img[a], 0, 0, TR_ASPECT_DEFAULT, out->px[a]);
    tr_context_destroy(ctx);
}

Test(raster, uniform_blocks_render_as_the_reference)
{
    /* Triangles from a few pixels to most of the target: whole blocks and
     * gathered partial quads; depth tested, so some blocks lose lanes
     * before shading. */
    trt_rng rng = {90210};
    static trt_vertex v[3 * NT];
    for (int t = 0; t < NT; t++) {
        const float size = t % 4 == 0 ? 60.0f : 6.0f;
        const float cx = trt_rand_coord(&rng, 0, W), cy = trt_rand_coord(&rng, 0, H);
        const float col[4] = {(float)trt_rand_range(&rng, 0, 1), (float)trt_rand_range(&rng, 0, 1),
                              (float)trt_rand_range(&rng, 0, 1), (float)trt_rand_range(&rng, 0.2, 0.8)};
        for (int i = 0; i < 3; i++)
            v[3 * t + i] = trt_vpx(cx + trt_rand_coord(&rng, -size, size), cy + trt_rand_coord(&rng, -size, size),
                                   (float)trt_rand_range(&rng, 0, 1), W, H, col);
    }
    static const struct {
        tr_fragment_shader fs;
        uint32_t flags;
        const char *name;
    } shaders[] = {
        {trt_fs_varying, TR_FS_NO_FRAG_COORD, "lanes alike"},
        {fs_quad_position, TR_FS_NO_FRAG_COORD, "quad lanes differ"},
        {fs_discard_by_position, TR_FS_NO_FRAG_COORD | TR_FS_MAY_DISCARD, "discard by quad position"},
    };
    static frame ref, got;
    for (size_t s = 0; s < sizeof shaders / sizeof shaders[0]; s++)
        for (int blend = 0; blend < 2; blend++) {
            render(v, shaders[s].fs, shaders[s].flags, blend, true, 1, &ref);
            cr_assert_gt(ref.stats.fragments_written, 1000);
            for (uint32_t threads = 1; threads <= 3; threads += 2) {
                render(v, shaders[s].fs, shaders[s].flags, blend, false, threads, &got);
                for (int a = 0; a < ATTS; a++)
                    cr_assert_eq(memcmp(ref.px[a], got.px[a], sizeof ref.px[a]), 0,
                                 "%s, blend %d, %u threads: attachment %d differs from the reference",
                                 shaders[s].name, blend, threads, a);
                cr_assert_eq(got.stats.fragments_shaded, ref.stats.fragments_shaded, "%s", shaders[s].name);
                cr_assert_eq(got.stats.fragments_discarded, ref.stats.fragments_discarded, "%s", shaders[s].name);
                cr_assert_eq(got.stats.fragments_written, ref.stats.fragments_written, "%s", shaders[s].name);
            }
            if (shaders[s].flags & TR_FS_MAY_DISCARD)
                cr_assert_gt(ref.stats.fragments_discarded, 100);
        }
}
