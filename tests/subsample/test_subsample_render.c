/* Subsampled images through a render pass (subsample.h): a density-mapped
 * pass into a TR_IMAGE_SUBSAMPLED attachment against the same pass into an
 * ordinary one.  The framebuffer-space picture (tr_image_download) equals
 * the ordinary image byte for byte; with density 255 the stored texels do
 * too; unused space keeps what the image held; NEAREST sampling at texel
 * centres reads the ordinary image's texels; LINEAR sampling never reads
 * unused space (two different markers there give the same picture); the
 * same bytes for every thread count; and the errors. */
#include "trtest.h"

#include <stdlib.h>
#include <string.h>

enum { W = 256, H = 192, MAP_W = 8, MAP_H = 6, GMEM = 32 * 1024 };

static const float MARKER_A[4] = {1.0f, 0.0f, 1.0f, 1.0f}, MARKER_B[4] = {0.0f, 1.0f, 0.0f, 0.0f};

typedef struct cfg {
    uint32_t threads;
    tr_device device;            /* A740: merged tiles */
    const uint8_t (*map)[MAP_W]; /* density byte per texel (both axes) */
    bool subsampled;
    const float *marker;         /* the image's contents before the pass */
    tr_offset2d offset;          /* != (0, 0): an FDM offset, every image made for it */
} cfg;

typedef struct out {
    uint8_t color[W * H * 4];    /* tr_image_download (framebuffer space) */
    uint8_t raw[(W + 64) * (H + 64) * 4]; /* tr_image_download_raw (the stored extent) */
    tr_subsampled_header hdr;
    tr_subsampled_bin bins[TR_SUBSAMPLED_MAX_BINS];
    size_t bin_count;
    tr_pass_stats stats;
} out;

static tr_image *map_image_flags(tr_context *ctx, const uint8_t (*m)[MAP_W], uint32_t flags)
{
    tr_image *img = NULL;
    TRT_OK(tr_image_create(ctx, &(tr_image_desc){TR_FORMAT_R8G8_UNORM, MAP_W, MAP_H, 1, 1, flags, 0}, &img));
    uint8_t buf[MAP_H][MAP_W][2];
    for (int j = 0; j < MAP_H; j++)
        for (int i = 0; i < MAP_W; i++)
            buf[j][i][0] = buf[j][i][1] = m[j][i];
    TRT_OK(tr_image_upload(img, NULL, buf, 0));
    return img;
}

static tr_image *map_image(tr_context *ctx, const uint8_t (*m)[MAP_W])
{
    return map_image_flags(ctx, m, 0);
}

/* 60 triangles on a 1/16-pixel lattice with random colours over the
 * framebuffer, and a full-screen quad behind them. */
static void draw_scene(tr_context *ctx)
{
    static trt_vertex v[6 + 180];
    trt_rng rng = {0x5ab5ull};
    const float bg[2][4] = {{0.2f, 0.3f, 0.4f, 1.0f}, {0.6f, 0.5f, 0.1f, 1.0f}};
    v[0] = trt_vpx(0, 0, 0.5f, W, H, bg[0]), v[1] = trt_vpx(W, 0, 0.5f, W, H, bg[1]);
    v[2] = trt_vpx(0, H, 0.5f, W, H, bg[1]), v[3] = trt_vpx(W, 0, 0.5f, W, H, bg[1]);
    v[4] = trt_vpx(W, H, 0.5f, W, H, bg[0]), v[5] = trt_vpx(0, H, 0.5f, W, H, bg[1]);
    for (int i = 6; i < 6 + 180; i++) {
        const float c[4] = {(float)(trt_rand_u32(&rng) % 256) / 255.0f, (float)(trt_rand_u32(&rng) % 256) / 255.0f,
                            (float)(trt_rand_u32(&rng) % 256) / 255.0f, 1.0f};
        const float x = (float)(trt_rand_u32(&rng) % (16 * W)) / 16.0f, y = (float)(trt_rand_u32(&rng) % (16 * H)) / 16.0f;
        v[i] = trt_vpx(x, y, 0.5f, W, H, c);
    }
    TRT_OK(tr_cmd_bind_pipeline(ctx, trt_pipeline(ctx, NULL)));
    trt_draw(ctx, v, 6 + 180);
}

static tr_context *context(uint32_t threads, tr_device device)
{
    tr_context_desc cd = {0};
    cd.threads = threads;
    cd.gmem_bytes = GMEM;
    cd.device = device;
    cd.tile_align_w = cd.tile_align_h = device ? 32 : 0; /* small bins on the a740 too */
    return trt_context_desc(&cd);
}

static tr_image *color_image(tr_context *ctx, bool subsampled, const float *marker, uint32_t flags)
{
    tr_image *img = NULL;
    TRT_OK(tr_image_create(ctx, &(tr_image_desc){TR_FORMAT_R8G8B8A8_UNORM, W, H, 1, 1,
                                                  (subsampled ? TR_IMAGE_SUBSAMPLED : 0u) | flags, 0}, &img));
    if (marker)
        TRT_OK(tr_image_fill(img, NULL, marker));
    return img;
}

static tr_render_pass_desc pass_of(tr_image *color, tr_image *map)
{
    tr_render_pass_desc rp = {0};
    rp.color_count = 1;
    rp.color[0].image = color;
    rp.color[0].load_op = TR_LOAD_OP_CLEAR;
    rp.color[0].clear_color[0] = 0.05f;
    rp.color[0].clear_color[3] = 1.0f;
    rp.density_map.image = map;
    return rp;
}

static void run(const cfg *c, out *o, tr_context **keep_ctx, tr_image **keep_img)
{
    tr_context *ctx = context(c->threads, c->device);
    const bool off = c->offset.x || c->offset.y;
    const uint32_t flags = off ? TR_IMAGE_FDM_OFFSET : 0u;
    tr_image *color = color_image(ctx, c->subsampled, c->marker, flags);
    tr_image *map = map_image_flags(ctx, c->map, flags);
    tr_render_pass_desc rp = pass_of(color, map);
    if (off) {
        rp.density_map.offset_count = 1;
        rp.density_map.offsets[0] = c->offset;
    }
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
    draw_scene(ctx);
    TRT_OK(tr_cmd_end_render_pass(ctx, &o->stats));
    TRT_OK(tr_image_download(color, NULL, o->color, 0));
    TRT_OK(tr_image_download_raw(color, NULL, o->raw, 0));
    o->bin_count = 0;
    if (c->subsampled)
        TRT_OK(tr_image_get_subsampled_metadata(color, 0, &o->hdr, o->bins, TR_SUBSAMPLED_MAX_BINS, &o->bin_count));
    if (keep_ctx) {
        *keep_ctx = ctx;
        *keep_img = color;
    } else {
        tr_context_destroy(ctx);
    }
}

static const uint8_t MAP_ONE[MAP_H][MAP_W] = {
    {255, 255, 255, 255, 255, 255, 255, 255}, {255, 255, 255, 255, 255, 255, 255, 255},
    {255, 255, 255, 255, 255, 255, 255, 255}, {255, 255, 255, 255, 255, 255, 255, 255},
    {255, 255, 255, 255, 255, 255, 255, 255}, {255, 255, 255, 255, 255, 255, 255, 255}};
/* 4x4 at the edges, 2x2 between, 1x1 in the middle, and one texel of
 * density 0 in the corner */
static const uint8_t MAP_MIXED[MAP_H][MAP_W] = {
    {0, 63, 63, 63, 63, 63, 63, 63},       {63, 127, 127, 127, 127, 127, 127, 63},
    {63, 127, 255, 255, 255, 255, 127, 63}, {63, 127, 255, 255, 255, 255, 127, 63},
    {63, 127, 127, 127, 127, 127, 127, 63}, {63, 63, 63, 63, 63, 63, 63, 63}};

static size_t count_diff(const uint8_t *a, const uint8_t *b, size_t n)
{
    size_t d = 0;
    for (size_t i = 0; i < n; i++)
        d += a[i] != b[i];
    return d;
}

Test(subsample, density_255_stores_the_ordinary_image)
{
    static out s, o;
    cfg c = {1, TR_DEVICE_DEFAULT, MAP_ONE, true, MARKER_A, {0, 0}};
    run(&c, &s, NULL, NULL);
    c.subsampled = false;
    run(&c, &o, NULL, NULL);
    cr_expect_eq(count_diff(s.raw, o.raw, sizeof s.raw), 0u, "stored texels differ from the ordinary image");
    cr_expect_eq(count_diff(s.color, o.color, sizeof s.color), 0u, "the picture differs");
    for (size_t b = 0; b < s.bin_count; b++)
        cr_expect(!s.bins[b].subsampled && s.bins[b].scale[0] == 1.0f && s.bins[b].offset[0] == 0.0f,
                  "bin %zu is not the identity", b);
}

Test(subsample, the_picture_is_the_ordinary_image_for_every_thread_count)
{
    static out s1, s3, o;
    cfg c = {1, TR_DEVICE_DEFAULT, MAP_MIXED, true, MARKER_A, {0, 0}};
    run(&c, &s1, NULL, NULL);
    c.threads = 3;
    run(&c, &s3, NULL, NULL);
    c.subsampled = false;
    run(&c, &o, NULL, NULL);
    cr_expect_eq(count_diff(s1.color, o.color, sizeof o.color), 0u, "picture vs the ordinary image");
    cr_expect_eq(count_diff(s1.raw, s3.raw, sizeof o.raw), 0u, "stored texels, 1 and 3 threads");
    /* the layout did subsample (and stored less than the ordinary image) */
    size_t sub = 0;
    for (size_t b = 0; b < s1.bin_count; b++)
        sub += s1.bins[b].subsampled;
    cr_expect_gt(sub, 0u, "no bin stayed subsampled");
    cr_expect_eq(s1.bin_count, (size_t)s1.stats.layout.bins_x * s1.stats.layout.bins_y);
    cr_expect_eq(s1.hdr.bin_stride, s1.stats.layout.bins_x);
    cr_expect_lt(s1.stats.gmem_bytes_stored, o.stats.gmem_bytes_stored + 1);
}

/* Every stored texel lies in a bin's rectangle or its 2-pixel apron; the
 * rest keeps the marker. */
Test(subsample, unused_space_keeps_the_image)
{
    static out s;
    cfg c = {2, TR_DEVICE_DEFAULT, MAP_MIXED, true, MARKER_A, {0, 0}};
    run(&c, &s, NULL, NULL);
    static uint8_t used[H][W];
    memset(used, 0, sizeof used);
    const int32_t a = (int32_t)TR_SUBSAMPLED_APRON;
    for (size_t b = 0; b < s.bin_count; b++) {
        const tr_rect *r = &s.bins[b].rect;
        for (int32_t y = r->y - a; y < r->y + (int32_t)r->height + a; y++)
            for (int32_t x = r->x - a; x < r->x + (int32_t)r->width + a; x++)
                if (x >= 0 && y >= 0 && x < W && y < H)
                    used[y][x] = 1;
    }
    /* the invisible corner bin keeps the marker at its framebuffer place too */
    size_t unused = 0, wrong = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            if (used[y][x])
                continue;
            unused++;
            const uint8_t *t = &s.raw[((size_t)y * W + x) * 4];
            wrong += !(t[0] == 255 && t[1] == 0 && t[2] == 255 && t[3] == 255);
        }
    cr_expect_gt(unused, 1000u, "the layout leaves no unused space");
    cr_expect_eq(wrong, 0u, "%zu unused texels were written", wrong);
}

/* A second pass samples the first's image over a full-screen quad. */
static void fs_sample(tr_fs_block *b)
{
    float u[TR_FS_LANES], v[TR_FS_LANES];
    for (uint32_t i = 0; i < b->count; i++) {
        u[i] = b->frag_x[i] / (float)W;
        v[i] = b->frag_y[i] / (float)H;
    }
    tr_fs_texture(b, 0, u, v, b->color[0]);
}

static void sample_pass(tr_context *ctx, tr_image *src, tr_filter filter, uint8_t *pixels)
{
    tr_sampler *smp = NULL;
    TRT_OK(tr_sampler_create(ctx, &(tr_sampler_desc){.mag_filter = filter, .min_filter = filter,
                                                     .address_u = TR_ADDRESS_CLAMP_TO_EDGE,
                                                     .address_v = TR_ADDRESS_CLAMP_TO_EDGE}, &smp));
    tr_image *dst = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, W, H);
    tr_pipeline_desc pd = {0};
    pd.fragment_shader = fs_sample;
    pd.texture_mask = 1;
    tr_pipeline *pl = trt_pipeline(ctx, &pd);
    tr_render_pass_desc rp = {0};
    rp.color_count = 1;
    rp.color[0].image = dst;
    rp.color[0].load_op = TR_LOAD_OP_CLEAR;
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
    TRT_OK(tr_cmd_bind_pipeline(ctx, pl));
    TRT_OK(tr_cmd_bind_texture(ctx, 0, src, smp));
    const float c[4] = {1, 1, 1, 1};
    trt_vertex q[6] = {trt_vpx(0, 0, 0, W, H, c), trt_vpx(W, 0, 0, W, H, c), trt_vpx(0, H, 0, W, H, c),
                       trt_vpx(W, 0, 0, W, H, c), trt_vpx(W, H, 0, W, H, c), trt_vpx(0, H, 0, W, H, c)};
    trt_draw(ctx, q, 6);
    TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    TRT_OK(tr_image_download(dst, NULL, pixels, 0));
}

/* The pass of c, then a second pass sampling its image with `filter`. */
static void run_and_sample(const cfg *c, out *o, tr_filter filter, uint8_t *pixels)
{
    tr_context *ctx;
    tr_image *img;
    run(c, o, &ctx, &img);
    sample_pass(ctx, img, filter, pixels);
    tr_context_destroy(ctx);
}

Test(subsample, nearest_sampling_reads_the_ordinary_texels)
{
    static out s, o;
    static uint8_t got[W * H * 4];
    cfg c = {1, TR_DEVICE_DEFAULT, MAP_MIXED, true, MARKER_A, {0, 0}};
    run_and_sample(&c, &s, TR_FILTER_NEAREST, got);
    c.subsampled = false;
    run(&c, &o, NULL, NULL);
    cr_expect_eq(count_diff(got, o.color, sizeof got), 0u, "NEAREST through the metadata vs the ordinary image");
}

Test(subsample, linear_sampling_never_reads_unused_space)
{
    static out sa, sb;
    static uint8_t ga[W * H * 4], gb[W * H * 4];
    cfg c = {1, TR_DEVICE_DEFAULT, MAP_MIXED, true, MARKER_A, {0, 0}};
    run_and_sample(&c, &sa, TR_FILTER_LINEAR, ga);
    c.marker = MARKER_B;
    run_and_sample(&c, &sb, TR_FILTER_LINEAR, gb);
    cr_expect_gt(count_diff(sa.raw, sb.raw, sizeof sa.raw), 0u, "the markers left no trace: nothing to prove");
    cr_expect_eq(count_diff(ga, gb, sizeof ga), 0u, "LINEAR sampling read texels outside the bins and aprons");
}

Test(subsample, errors)
{
    tr_context *ctx = trt_context(1);
    tr_image *img = NULL;
    cr_expect_eq(tr_image_create(ctx, &(tr_image_desc){TR_FORMAT_D32_SFLOAT, W, H, 1, 1, TR_IMAGE_SUBSAMPLED, 0}, &img),
                 TR_ERROR_UNSUPPORTED_FORMAT);
    cr_expect_eq(tr_image_create(ctx, &(tr_image_desc){TR_FORMAT_R8G8B8A8_UNORM, W, H, 1, 2, TR_IMAGE_SUBSAMPLED, 0},
                                 &img), TR_ERROR_INVALID_DESCRIPTOR);
    cr_expect_eq(tr_image_create(ctx, &(tr_image_desc){TR_FORMAT_R8G8B8A8_UNORM, W, H, 7, 1, TR_IMAGE_SUBSAMPLED, 0},
                                 &img), TR_ERROR_LIMIT_EXCEEDED);
    cr_expect_null(img);
    /* with FDM offsets too: padded by the context's tile alignment (32 x 16) */
    TRT_OK(tr_image_create(ctx, &(tr_image_desc){TR_FORMAT_R8G8B8A8_UNORM, W, H, 1, 1,
                                                  TR_IMAGE_SUBSAMPLED | TR_IMAGE_FDM_OFFSET, 0}, &img));
    const tr_extent2d se = tr_image_stored_extent(img);
    cr_expect(se.width == W + 32 && se.height == H + 16, "stored %ux%u", se.width, se.height);
    const tr_extent2d pe = tr_image_stored_extent(map_image(ctx, MAP_MIXED));
    cr_expect(pe.width == MAP_W && pe.height == MAP_H, "an ordinary image stores its size");
    tr_image *color = color_image(ctx, true, NULL, 0);
    tr_image *map = map_image(ctx, MAP_MIXED);
    tr_render_pass_desc rp = pass_of(color, NULL);
    cr_expect_eq(tr_cmd_begin_render_pass(ctx, &rp), TR_ERROR_INVALID_DESCRIPTOR, "no density map");
    cr_expect(strstr(tr_context_last_error(ctx), "density map") != NULL, "%s", tr_context_last_error(ctx));
    rp = pass_of(color, map);
    rp.render_area = (tr_rect){0, 0, W / 2, H};
    cr_expect_eq(tr_cmd_begin_render_pass(ctx, &rp), TR_ERROR_INVALID_DESCRIPTOR, "part of the framebuffer");
    tr_subsampled_header h;
    size_t n;
    tr_subsampled_bin one;
    cr_expect_eq(tr_image_get_subsampled_metadata(map, 0, &h, NULL, 0, &n), TR_ERROR_INVALID_STATE);
    cr_expect_eq(tr_image_get_subsampled_metadata(color, 1, &h, NULL, 0, &n), TR_ERROR_OUT_OF_RANGE);
    TRT_OK(tr_image_get_subsampled_metadata(color, 0, &h, &one, 1, &n));
    cr_expect(n == 1 && h.bin_stride == 1 && one.scale[0] == 1.0f, "a new image's metadata is the identity");
    tr_context_destroy(ctx);
}

/* On the a740 neighbouring scaled bins merge: a merged tile is laid out
 * and stored as one. */
Test(subsample, merged_tiles_give_the_ordinary_image)
{
    static out s, o;
    cfg c = {2, TR_DEVICE_A740, MAP_MIXED, true, MARKER_A, {0, 0}};
    run(&c, &s, NULL, NULL);
    cr_expect_gt(s.stats.fdm_bins_merged, 0u, "nothing merged");
    c.subsampled = false;
    run(&c, &o, NULL, NULL);
    cr_expect_eq(count_diff(s.color, o.color, sizeof o.color), 0u, "picture vs the ordinary image, merged tiles");
    /* every bin of a merged tile carries its owner's metadata */
    size_t sub = 0;
    for (size_t b = 0; b < s.bin_count; b++)
        sub += s.bins[b].subsampled;
    cr_expect_gt(sub, 0u);
}

/* Two views, a map layer each (the second one mirrored), two layers of
 * metadata. */
Test(subsample, multiview_layers)
{
    tr_context *ctx = context(2, TR_DEVICE_DEFAULT);
    tr_image *sub = NULL, *plain = NULL, *map = NULL;
    TRT_OK(tr_image_create(ctx, &(tr_image_desc){TR_FORMAT_R8G8B8A8_UNORM, W, H, 2, 1, TR_IMAGE_SUBSAMPLED, 0}, &sub));
    TRT_OK(tr_image_create(ctx, &(tr_image_desc){TR_FORMAT_R8G8B8A8_UNORM, W, H, 2, 1, 0, 0}, &plain));
    TRT_OK(tr_image_create(ctx, &(tr_image_desc){TR_FORMAT_R8G8_UNORM, MAP_W, MAP_H, 2, 1, 0, 0}, &map));
    uint8_t buf[MAP_H][MAP_W][2];
    for (uint32_t l = 0; l < 2; l++) {
        for (int j = 0; j < MAP_H; j++)
            for (int i = 0; i < MAP_W; i++)
                buf[j][i][0] = buf[j][i][1] = MAP_MIXED[l ? MAP_H - 1 - j : j][l ? MAP_W - 1 - i : i];
        TRT_OK(tr_image_upload(map, &(tr_subresource){0, l, TR_ASPECT_COLOR, 0}, buf, 0));
    }
    static uint8_t a[W * H * 4], b[W * H * 4];
    for (int k = 0; k < 2; k++) {
        tr_render_pass_desc rp = pass_of(k ? plain : sub, map);
        rp.view_mask = 3;
        TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
        draw_scene(ctx);
        TRT_OK(tr_cmd_end_render_pass(ctx, NULL));
    }
    tr_subsampled_header h[2];
    size_t n[2];
    for (uint32_t l = 0; l < 2; l++) {
        TRT_OK(tr_image_download(sub, &(tr_subresource){0, l, TR_ASPECT_COLOR, 0}, a, 0));
        TRT_OK(tr_image_download(plain, &(tr_subresource){0, l, TR_ASPECT_COLOR, 0}, b, 0));
        cr_expect_eq(count_diff(a, b, sizeof a), 0u, "layer %u", l);
        TRT_OK(tr_image_get_subsampled_metadata(sub, l, &h[l], NULL, 0, &n[l]));
    }
    cr_expect(n[0] > 1 && n[0] == n[1], "metadata of both layers");
    tr_context_destroy(ctx);
}

/* LINEAR sampling at pixel centres through the metadata stays within the
 * bound subsample.h states: per channel, at most the largest difference
 * between the ordinary image's pixel and its ordinary neighbours within
 * TR_SUBSAMPLED_LINEAR_REACH pixels, plus one for rounding; and in
 * full-rate bins away from their edges it is the ordinary texel exactly. */
Test(subsample, linear_sampling_within_the_bound)
{
    static out s, o;
    static uint8_t got[W * H * 4];
    cfg c = {1, TR_DEVICE_DEFAULT, MAP_MIXED, true, MARKER_A, {0, 0}};
    run_and_sample(&c, &s, TR_FILTER_LINEAR, got);
    c.subsampled = false;
    run(&c, &o, NULL, NULL);
    const int reach = (int)TR_SUBSAMPLED_LINEAR_REACH;
    size_t beyond = 0, exact_checked = 0, inexact = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            for (int ch = 0; ch < 4; ch++) {
                const int want = o.color[((size_t)y * W + x) * 4 + ch];
                int bound = 0;
                for (int dy = -reach; dy <= reach; dy++)
                    for (int dx = -reach; dx <= reach; dx++) {
                        const int nx = x + dx, ny = y + dy;
                        if (nx < 0 || ny < 0 || nx >= W || ny >= H)
                            continue;
                        const int d = abs(o.color[((size_t)ny * W + nx) * 4 + ch] - want);
                        bound = d > bound ? d : bound;
                    }
                const int diff = abs(got[((size_t)y * W + x) * 4 + ch] - want);
                beyond += diff > bound + 1;
            }
    /* full-rate bins: the stored texels are the ordinary ones at the same
     * place, and a pixel centre samples its texel alone */
    for (size_t b = 0; b < s.bin_count; b++) {
        const tr_rect *r = &s.bins[b].rect;
        if (s.bins[b].subsampled || !r->width || s.bins[b].scale[0] != 1.0f)
            continue;
        for (int32_t y = r->y + 1; y < r->y + (int32_t)r->height - 1; y++)
            for (int32_t x = r->x + 1; x < r->x + (int32_t)r->width - 1; x++) {
                exact_checked++;
                inexact += memcmp(&got[((size_t)y * W + x) * 4], &o.color[((size_t)y * W + x) * 4], 4) != 0;
            }
    }
    cr_expect_eq(beyond, 0u, "%zu channel values beyond the bound", beyond);
    cr_expect_gt(exact_checked, 1000u);
    cr_expect_eq(inexact, 0u, "%zu pixels of full-rate bins differ", inexact);
}

/* FDM offsets: the bins shift, the image is padded, the edge bins sit in
 * the padding; the picture is still the ordinary image's. */
Test(subsample, fdm_offsets_give_the_ordinary_image)
{
    static out s, o;
    cfg c = {2, TR_DEVICE_DEFAULT, MAP_MIXED, true, MARKER_A, {40, -24}};
    run(&c, &s, NULL, NULL);
    c.subsampled = false;
    run(&c, &o, NULL, NULL);
    cr_expect_eq(s.stats.layout.bins_x * s.stats.layout.bins_y, (uint32_t)s.bin_count);
    cr_expect(s.hdr.offset[0] != 0.0f, "the header carries b_o");
    cr_expect_eq(count_diff(s.color, o.color, sizeof o.color), 0u, "picture vs the ordinary image, with offsets");
    /* some pinned bin lies in the padding */
    bool padded = false;
    for (size_t b = 0; b < s.bin_count; b++)
        padded |= s.bins[b].rect.x + (int32_t)s.bins[b].rect.width > W ||
                  s.bins[b].rect.y + (int32_t)s.bins[b].rect.height > H;
    cr_expect(padded, "no bin reaches the padding");
}
