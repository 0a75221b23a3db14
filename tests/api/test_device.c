/* Device profiles (tr_context_desc.device): each sets the defaults of the
 * GMEM budget, bin alignment and largest bin, a field given explicitly
 * still wins, an unknown device is refused, the internal feature record
 * says what the a7xx has, and the bin layout of one 1080p pass follows the
 * device.  The expected layouts are worked out by hand from
 * src/bin/bin_layout.c's algorithm (turnip's, REFERENCE.md section 5). */
#include "trtest.h"

#include <string.h>

#include "internal.h" /* struct tr_context: the feature record */

typedef struct profile {
    tr_device device;
    uint32_t gmem_bytes, align_w, align_h, max_w, max_h;
} profile;

/* The table in context.h (tr_context_desc.device). */
static const profile profiles[] = {
    {TR_DEVICE_DEFAULT, 1048576, 32, 16, 1024, 1024},
    {TR_DEVICE_A630, 1048576, 32, 16, 1024, 1024},
    {TR_DEVICE_A660, 1572864, 96, 16, 1024, 1024},
    {TR_DEVICE_A740, 3145728, 96, 32, 2016, 2032},
};

static tr_context *device_context(tr_device dev)
{
    tr_context_desc d = {0};
    d.threads = 1;
    d.device = dev;
    return trt_context_desc(&d);
}

Test(api, device_profiles_set_the_defaults)
{
    for (size_t i = 0; i < sizeof profiles / sizeof profiles[0]; i++) {
        const profile *p = &profiles[i];
        tr_context *ctx = device_context(p->device);
        const tr_context_desc g = tr_context_get_desc(ctx);
        cr_expect_eq(g.device, p->device, "device %d reads back as %d", (int)p->device, (int)g.device);
        cr_expect_eq(g.gmem_bytes, p->gmem_bytes, "device %d: gmem_bytes %u", (int)p->device, g.gmem_bytes);
        cr_expect_eq(g.tile_align_w, p->align_w, "device %d: tile_align_w %u", (int)p->device, g.tile_align_w);
        cr_expect_eq(g.tile_align_h, p->align_h, "device %d: tile_align_h %u", (int)p->device, g.tile_align_h);
        cr_expect_eq(g.tile_max_w, p->max_w, "device %d: tile_max_w %u", (int)p->device, g.tile_max_w);
        cr_expect_eq(g.tile_max_h, p->max_h, "device %d: tile_max_h %u", (int)p->device, g.tile_max_h);
        tr_context_destroy(ctx);
    }
    /* No descriptor at all is the DEFAULT device. */
    tr_context *ctx = NULL;
    TRT_OK(tr_context_create(NULL, &ctx));
    const tr_context_desc g = tr_context_get_desc(ctx);
    cr_expect_eq(g.device, TR_DEVICE_DEFAULT);
    cr_expect_eq(g.gmem_bytes, 1048576u);
    cr_expect_eq(g.tile_align_w, 32u);
    cr_expect_eq(g.tile_align_h, 16u);
    tr_context_destroy(ctx);
}

Test(api, device_explicit_fields_win)
{
    /* Every field explicit: the device changes none of them. */
    tr_context_desc d = {0};
    d.threads = 1;
    d.device = TR_DEVICE_A740;
    d.gmem_bytes = 1u << 20;
    d.tile_align_w = 32;
    d.tile_align_h = 16;
    d.tile_max_w = 512;
    d.tile_max_h = 256;
    tr_context *ctx = trt_context_desc(&d);
    tr_context_desc g = tr_context_get_desc(ctx);
    cr_expect_eq(g.device, TR_DEVICE_A740);
    cr_expect_eq(g.gmem_bytes, 1u << 20);
    cr_expect_eq(g.tile_align_w, 32u);
    cr_expect_eq(g.tile_align_h, 16u);
    cr_expect_eq(g.tile_max_w, 512u);
    cr_expect_eq(g.tile_max_h, 256u);
    tr_context_destroy(ctx);

    /* Some fields explicit: those win, the rest are the device's. */
    memset(&d, 0, sizeof d);
    d.threads = 1;
    d.device = TR_DEVICE_A660;
    d.gmem_bytes = 2u << 20;
    d.tile_align_h = 32;
    ctx = trt_context_desc(&d);
    g = tr_context_get_desc(ctx);
    cr_expect_eq(g.device, TR_DEVICE_A660);
    cr_expect_eq(g.gmem_bytes, 2u << 20);
    cr_expect_eq(g.tile_align_w, 96u); /* A660's */
    cr_expect_eq(g.tile_align_h, 32u);
    cr_expect_eq(g.tile_max_w, 1024u);
    cr_expect_eq(g.tile_max_h, 1024u);
    tr_context_destroy(ctx);

    /* The mix is validated as a whole: an explicit tile_max_w of 64 is
     * fine with the default 32-pixel alignment but below A740's 96. */
    memset(&d, 0, sizeof d);
    d.tile_max_w = 64;
    ctx = trt_context_desc(&d);
    tr_context_destroy(ctx);
    d.device = TR_DEVICE_A740;
    ctx = (tr_context *)0x1;
    TRT_EXPECT(tr_context_create(&d, &ctx), TR_ERROR_INVALID_DESCRIPTOR);
    cr_expect_null(ctx);
}

Test(api, device_unknown_is_refused)
{
    const int bad[] = {TR_DEVICE_COUNT, TR_DEVICE_COUNT + 1, 99, -1, -1000};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tr_context_desc d = {0};
        d.device = (tr_device)bad[i];
        tr_context *ctx = (tr_context *)0x1;
        TRT_EXPECT(tr_context_create(&d, &ctx), TR_ERROR_INVALID_ARGUMENT);
        cr_expect_null(ctx, "device %d: *out must be NULL on failure", bad[i]);
        if (ctx && ctx != (tr_context *)0x1)
            tr_context_destroy(ctx);
    }
    /* The last valid value is accepted. */
    tr_context *ctx = device_context((tr_device)(TR_DEVICE_COUNT - 1));
    tr_context_destroy(ctx);
}

/* The feature record later stages (src/fdm) read: only the a7xx scales and
 * merges bins in hardware (turnip: GRAS_BIN_FOVEAT, CP_SET_BIN_DATA5 bin
 * masks), for up to MAX_HW_SCALED_VIEWS = 6 views. */
Test(api, device_features)
{
    for (int dev = 0; dev < TR_DEVICE_COUNT; dev++) {
        tr_context *ctx = device_context((tr_device)dev);
        const bool a7xx = dev == TR_DEVICE_A740;
        cr_expect_eq(ctx->features.hw_bin_scaling, a7xx, "device %d: hw_bin_scaling", dev);
        cr_expect_eq(ctx->features.bin_merging, a7xx, "device %d: bin_merging", dev);
        cr_expect_eq(ctx->features.max_scaled_views, a7xx ? 6u : 0u, "device %d: max_scaled_views %u", dev,
                     ctx->features.max_scaled_views);
        tr_context_destroy(ctx);
    }
}

/* A 1920x1080 pass with an RGBA8 colour attachment (cpp 4) and a D32_SFLOAT
 * depth attachment (cpp 4), one view, on each device.  Worked out from
 * src/bin/bin_layout.c:
 *
 * GMEM split.  block = 8 * align_w * align_h bytes; blocks = gmem / block;
 * no cpp-1 attachment, so the alignment stays as it is and block_shift = 3,
 * and each cpp-4 attachment's block alignment is max(1, 4 >> 3) = 1.  The
 * colour attachment gets blocks * 4 / 8 = half the blocks, the depth one
 * the other half (remaining * 4 / 4); each holds half * block / 4 pixels:
 *   DEFAULT/A630: block 8*32*16 = 4096,   256 blocks, 128 each -> 131072 px
 *   A660:         block 8*96*16 = 12288,  128 blocks,  64 each -> 196608 px
 *   A740:         block 8*96*32 = 24576,  128 blocks,  64 each -> 393216 px
 *
 * Search.  For w = align_w .. max_w (max_w = min(tile_max_w rounded down to
 * align_w, 1920 rounded up to align_w)), h = min(px / w, max_h) rounded down
 * to align_h (max_h = min(tile_max_h rounded down, 1080 rounded up)),
 * nx = ceil(1920 / w), ny = ceil(1080 / h), then the bin height is
 * re-balanced to align(ceil(1080 / ny), align_h); the fewest nx * ny wins,
 * ties go to the smallest |w - height|, the first one found on equality.
 *   DEFAULT/A630 (w up to 1024, h up to 1024): 1920*1080 / 131072 = 15.8,
 *     so at least 16 bins.  16 = 4 x 4 needs w >= 480 and h >= 270 (272
 *     aligned), w * 272 <= 131072 -> w <= 481: only w = 480 (h = 273 -> 272,
 *     ny = 4).  2 x 8 needs h >= 144 with w >= 960: 138240 px, too many;
 *     8 x 2 needs 256 x 544 = 139264 px, too many; 16 x 1 needs h = 1088 >
 *     1024; 1 x 16 needs w = 1920 > 1024.  Bin 480 x align(270, 16) = 272,
 *     4 x 4 bins.
 *   A660 (w = 96k up to 960): 1920*1080 / 196608 = 10.5.  w = 288: 7 x 2 =
 *     14; 384: 5 x 3 = 15; 480: h = 409 -> 400, 4 x 3 = 12; 576: 4 x 4; 672:
 *     h = 288, 3 x 4 = 12; 768, 864: 3 x 5; 960: h = 192, 2 x 6 = 12.  Twelve
 *     first at w = 480 with height align(ceil(1080 / 3) = 360, 16) = 368
 *     (|480 - 368| = 112; 672 x 272 and 960 x 192 are less square).
 *     Bin 480 x 368, 4 x 3 bins.
 *   A740 (w = 96k up to 1920, h up to 1088): 1920*1080 / 393216 = 5.3.
 *     w = 288: h capped at 1088, 7 x 1 = 7; 480, 576: 4 x 2 = 8; 672:
 *     h = 585 -> 576, 3 x 2 = 6; 960: h = 409 -> 384, 2 x 3 = 6; 1920:
 *     h = 204 -> 192, 1 x 6 = 6; every other w gives more.  Six first at
 *     w = 672 with height align(ceil(1080 / 2) = 540, 32) = 544 (|672 - 544|
 *     = 128; 960 x 384 and 1920 x 192 are less square).  Bin 672 x 544,
 *     3 x 2 bins.
 *
 * Pipes: 16, 12 and 6 bins are all <= 32, so every bin is its own VSC pipe. */
Test(api, device_bin_layouts_1080p)
{
    static const struct {
        tr_device device;
        uint32_t gmem_pixels, align_w, align_h, bin_w, bin_h, bins_x, bins_y;
    } want[] = {
        {TR_DEVICE_DEFAULT, 131072, 32, 16, 480, 272, 4, 4},
        {TR_DEVICE_A630, 131072, 32, 16, 480, 272, 4, 4},
        {TR_DEVICE_A660, 196608, 96, 16, 480, 368, 4, 3},
        {TR_DEVICE_A740, 393216, 96, 32, 672, 544, 3, 2},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        tr_context *ctx = device_context(want[i].device);
        tr_image *color = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, 1920, 1080);
        tr_image *depth = trt_image(ctx, TR_FORMAT_D32_SFLOAT, 1920, 1080);
        tr_render_pass_desc rp;
        memset(&rp, 0, sizeof rp);
        rp.color[0].image = color;
        rp.color_count = 1;
        rp.depth.image = depth;
        tr_bin_layout l;
        memset(&l, 0, sizeof l);
        TRT_OK(tr_compute_bin_layout(ctx, &rp, &l));
        const int dev = (int)want[i].device;
        cr_expect_eq(l.gmem_pixels, want[i].gmem_pixels, "device %d: gmem_pixels %u", dev, l.gmem_pixels);
        cr_expect_eq(l.tile_align_w, want[i].align_w, "device %d: tile_align_w %u", dev, l.tile_align_w);
        cr_expect_eq(l.tile_align_h, want[i].align_h, "device %d: tile_align_h %u", dev, l.tile_align_h);
        cr_expect_eq(l.bin_w, want[i].bin_w, "device %d: bin_w %u", dev, l.bin_w);
        cr_expect_eq(l.bin_h, want[i].bin_h, "device %d: bin_h %u", dev, l.bin_h);
        cr_expect_eq(l.bins_x, want[i].bins_x, "device %d: bins_x %u", dev, l.bins_x);
        cr_expect_eq(l.bins_y, want[i].bins_y, "device %d: bins_y %u", dev, l.bins_y);
        cr_expect_eq(l.pipe_w, 1u, "device %d: pipe_w %u", dev, l.pipe_w);
        cr_expect_eq(l.pipe_h, 1u, "device %d: pipe_h %u", dev, l.pipe_h);
        cr_expect_eq(l.pipes_x, want[i].bins_x, "device %d: pipes_x %u", dev, l.pipes_x);
        cr_expect_eq(l.pipes_y, want[i].bins_y, "device %d: pipes_y %u", dev, l.pipes_y);
        cr_expect_eq(l.views, 1u);
        tr_context_destroy(ctx);
    }
}

/* The device moves bin edges, never pixels: the same triangles give the same
 * bytes on every device.  A 64 KiB GMEM override makes several bins of each
 * device's alignment cover the 200 x 120 target (A740: 2 blocks of 24576
 * bytes, 12288 pixels: three 96 x 128 bins). */
Test(api, device_does_not_change_the_image)
{
    enum { W = 200, H = 120 };
    static const float red[4] = {1, 0, 0, 0.5f}, green[4] = {0, 1, 0, 0.75f}, blue[4] = {0.2f, 0.4f, 1, 1};
    uint8_t ref[W * H * 4], got[W * H * 4];
    for (int dev = 0; dev < TR_DEVICE_COUNT; dev++) {
        tr_context_desc d = {0};
        d.threads = 2;
        d.device = (tr_device)dev;
        d.gmem_bytes = 64u << 10;
        tr_context *ctx = trt_context_desc(&d);
        tr_image *img = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, W, H);
        tr_pipeline_desc pd = {0};
        pd.blend[0].enable = 1;
        pd.blend[0].src_color = TR_BLEND_SRC_ALPHA;
        pd.blend[0].dst_color = TR_BLEND_ONE_MINUS_SRC_ALPHA;
        pd.blend[0].src_alpha = TR_BLEND_ONE;
        pd.blend[0].dst_alpha = TR_BLEND_ZERO;
        tr_pipeline *pl = trt_pipeline(ctx, &pd);
        const float clear[4] = {0.1f, 0.1f, 0.1f, 1};
        trt_begin_color(ctx, img, clear);
        TRT_OK(tr_cmd_bind_pipeline(ctx, pl));
        const trt_vertex v[9] = {
            trt_vpx(3.3f, 2.1f, 0.5f, W, H, red),    trt_vpx(190.7f, 20.4f, 0.5f, W, H, green),
            trt_vpx(40.2f, 117.9f, 0.5f, W, H, blue), trt_vpx(100.1f, 5.6f, 0.5f, W, H, green),
            trt_vpx(197.4f, 110.2f, 0.5f, W, H, blue), trt_vpx(20.8f, 80.3f, 0.5f, W, H, red),
            trt_vpx(0.0f, 60.0f, 0.5f, W, H, blue),  trt_vpx(200.0f, 60.0f, 0.5f, W, H, red),
            trt_vpx(100.0f, 120.0f, 0.5f, W, H, green),
        };
        trt_draw(ctx, v, 9);
        tr_pass_stats st;
        memset(&st, 0, sizeof st);
        TRT_OK(tr_cmd_end_render_pass(ctx, &st));
        cr_expect_gt(st.layout.bins_x * st.layout.bins_y, 1u, "device %d: one bin only", dev);
        cr_expect_eq(st.layout.tile_align_w, profiles[dev].align_w);
        trt_download(img, 0, 0, TR_ASPECT_COLOR, dev ? got : ref);
        if (dev)
            cr_expect(memcmp(got, ref, sizeof got) == 0, "device %d renders other bytes than DEFAULT", dev);
        tr_context_destroy(ctx);
    }
}
