/* Subsampled images: tr_compute_subsampled_layout (subsample.h) on
 * hand-made grids, each worked from turnip's tu_calc_subsampled rules:
 * default rectangles, the border pinning, conflicts resolved by a shift or
 * by storing both bins at full size (corner neighbours included), the
 * 512-bin limit, FDM offsets and the metadata; then the rule's invariants
 * on random grids. */
#include "trtest.h"

#include <string.h>

#define EXPECT_RECT(b, ex, ey, ew, eh, what)                                                                  \
    cr_expect((b).rect.x == (ex) && (b).rect.y == (ey) && (b).rect.width == (uint32_t)(ew) &&                  \
                  (b).rect.height == (uint32_t)(eh),                                                           \
              "%s: rect (%d,%d %ux%u), expected (%d,%d %ux%u)", what, (b).rect.x, (b).rect.y, (b).rect.width, \
              (b).rect.height, (int)(ex), (int)(ey), (unsigned)(ew), (unsigned)(eh))

enum { MAXB = 1100 };

typedef struct layout_out {
    tr_subsampled_header h;
    tr_subsampled_bin b[MAXB];
} layout_out;

static void layout(uint32_t fw, uint32_t fh, uint32_t bw, uint32_t bh, uint32_t ax, uint32_t ay, uint32_t nx,
                   uint32_t ny, const tr_extent2d *areas, tr_offset2d bo, bool offset, layout_out *o)
{
    tr_subsampled_layout_desc d = {{fw, fh}, {bw, bh}, {ax, ay}, nx, ny, areas, bo, offset};
    TRT_OK(tr_compute_subsampled_layout(&d, &o->h, o->b));
}

static tr_extent2d sq(uint32_t f)
{
    return (tr_extent2d){f, f};
}

/* The closing note's grid: 1000x600, 192x160 bins (6 x 4), alignment
 * 64x32, no offset. */
Test(subsample, layout_of_the_issue_grid)
{
    static const uint32_t g[4][6] = {{1, 1, 1, 1, 1, 1}, {1, 2, 2, 2, 1, 1}, {1, 2, 4, 4, 2, 1}, {1, 1, 2, 2, 4, 4}};
    tr_extent2d a[24];
    for (int i = 0; i < 24; i++)
        a[i] = sq(g[i / 6][i % 6]);
    static layout_out o;
    layout(1000, 600, 192, 160, 64, 32, 6, 4, a, (tr_offset2d){0, 0}, false, &o);
    cr_expect(o.h.scale[0] == 1000.0f / 192.0f && o.h.scale[1] == 600.0f / 160.0f && o.h.offset[0] == 0.0f &&
                  o.h.offset[1] == 0.0f && o.h.bin_stride == 6,
              "header");
    /* full-size bins keep their framebuffer rectangle; column 5 and row 3
     * reach the edges (border) */
    EXPECT_RECT(o.b[0], 0, 0, 192, 160, "bin 0");
    EXPECT_RECT(o.b[5], 960, 0, 40, 160, "bin 5");
    cr_expect(o.b[5].border && !o.b[5].subsampled && !o.b[0].border);
    EXPECT_RECT(o.b[18], 0, 480, 192, 120, "bin 18");
    /* bin 7 (1,1), area 2: default (192,160 96x80) touches bin 6 on its
     * left: shifted right by max(4, 64) (ends at 352 <= 384); touches bin 1
     * above: shifted down by max(4, 32) (ends at 272 <= 320) */
    EXPECT_RECT(o.b[7], 256, 192, 96, 80, "bin 7");
    cr_expect(o.b[7].subsampled && !o.b[7].border);
    cr_expect(o.b[7].scale[0] == 0.5f && o.b[7].scale[1] == 0.5f, "bin 7 scale");
    /* offset = (rect.x - b_s.x / 2) / 1000 = (256 - 96) / 1000 */
    cr_expect(o.b[7].offset[0] == (float)(256 - 96) / 1000.0f && o.b[7].offset[1] == (float)(192 - 80) / 600.0f,
              "bin 7 offset (%.9g, %.9g)", o.b[7].offset[0], o.b[7].offset[1]);
    /* bin 23 (5,3), area 4: pinned to both ends: x from 1000 - ceil(40 / 4),
     * y from 600 - ceil(120 / 4) */
    EXPECT_RECT(o.b[23], 990, 570, 10, 30, "bin 23");
    cr_expect(o.b[23].subsampled && o.b[23].border);
    cr_expect(o.b[23].scale[0] == 0.25f && o.b[23].offset[0] == (float)(990 - 960 / 4) / 1000.0f &&
                  o.b[23].offset[1] == (float)(570 - 480 / 4) / 600.0f,
              "bin 23 metadata (%.9g, %.9g)", o.b[23].offset[0], o.b[23].offset[1]);
    /* bin 14 (2,2), area 4: its default (384,320 48x40) is 32 from bin 13 */
    EXPECT_RECT(o.b[14], 384, 320, 48, 40, "bin 14");
    /* bin 20 (2,3), area 2, pinned in y, shifted right by 64 */
    EXPECT_RECT(o.b[20], 448, 540, 96, 60, "bin 20");
    cr_expect(o.b[20].subsampled && o.b[20].border);
}

/* [1, 2, 1] in a row of 64x64 bins: the middle bin's default (64,32 32x32:
 * pinned in y) touches bin 0 and moves right by max(4, 16). */
Test(subsample, conflict_resolved_by_a_shift)
{
    const tr_extent2d a[3] = {sq(1), sq(2), sq(1)};
    static layout_out o;
    layout(192, 64, 64, 64, 16, 16, 3, 1, a, (tr_offset2d){0, 0}, false, &o);
    EXPECT_RECT(o.b[0], 0, 0, 64, 64, "bin 0");
    EXPECT_RECT(o.b[1], 80, 32, 32, 32, "bin 1");
    EXPECT_RECT(o.b[2], 128, 0, 64, 64, "bin 2");
    cr_expect(o.b[1].subsampled && o.b[1].border, "bin 1 stays subsampled, pinned in y");
}

/* The same with an alignment of 64: a shift of 64 would end at 160, past
 * the bin's own full-size rectangle (128): it is stored at full size. */
Test(subsample, conflict_resolved_by_storing_full_size)
{
    const tr_extent2d a[3] = {sq(1), sq(2), sq(1)};
    static layout_out o;
    layout(192, 64, 64, 64, 64, 16, 3, 1, a, (tr_offset2d){0, 0}, false, &o);
    EXPECT_RECT(o.b[1], 64, 0, 64, 64, "bin 1");
    cr_expect(!o.b[1].subsampled, "bin 1 un-subsampled");
    cr_expect(o.b[1].scale[0] == 1.0f && o.b[1].offset[0] == 0.0f, "bin 1 metadata: scale 1, offset 0");
    /* two subsampled neighbours that cannot separate both go full size:
     * [2, 2] with the second pinned: 0..32 and 96..128 are apart, so build
     * [2, 2, 1] with alignment 64 */
    const tr_extent2d b[3] = {sq(2), sq(2), sq(1)};
    layout(192, 64, 64, 64, 64, 16, 3, 1, b, (tr_offset2d){0, 0}, false, &o);
    /* bin 0: 0..32; bin 1: 64..96, 32 apart: no conflict; bin 1 and bin 2
     * (128..192) are 32 apart too: all stay */
    cr_expect(o.b[0].subsampled && o.b[1].subsampled);
    const tr_extent2d c[3] = {sq(4), sq(4), sq(1)};
    layout(96, 32, 32, 32, 64, 16, 3, 1, c, (tr_offset2d){0, 0}, false, &o);
    /* 32-wide bins at area 4: bin 0 0..8, bin 1 32..40: apart */
    cr_expect(o.b[0].subsampled && o.b[1].subsampled);
    /* bin 1 (area 2) right after a full-size bin 0, bin 2 full: bin 1
     * cannot move: full size; bin 0 stays full */
    const tr_extent2d e[3] = {sq(1), sq(4), sq(2)};
    layout(192, 64, 64, 64, 64, 16, 3, 1, e, (tr_offset2d){0, 0}, false, &o);
    cr_expect(!o.b[1].subsampled, "bin 1 (area 4) next to a full bin, no room to shift");
    EXPECT_RECT(o.b[1], 64, 0, 64, 64, "bin 1");
    /* bin 2 is pinned (128 + 64 - ceil(64/2) = 160..192), 32 from bin 1's
     * full rectangle: it stays subsampled */
    EXPECT_RECT(o.b[2], 160, 32, 32, 32, "bin 2");
    cr_expect(o.b[2].subsampled);
}

/* Corner neighbours count: bin (1,1) of a 3x3 grid, alone with bin (0,0)
 * visible, touches it only at a corner: it moves right. */
Test(subsample, corner_neighbours_conflict)
{
    tr_extent2d a[9];
    for (int i = 0; i < 9; i++)
        a[i] = (tr_extent2d){0, 0};
    a[0] = sq(1);
    a[4] = sq(2);
    static layout_out o;
    layout(192, 192, 64, 64, 16, 16, 3, 3, a, (tr_offset2d){0, 0}, false, &o);
    EXPECT_RECT(o.b[0], 0, 0, 64, 64, "bin 0");
    EXPECT_RECT(o.b[4], 80, 64, 32, 32, "bin (1,1)");
    cr_expect(o.b[4].subsampled);
    /* invisible bins: no rectangle, identity metadata */
    EXPECT_RECT(o.b[1], 0, 0, 0, 0, "invisible bin 1");
    cr_expect(!o.b[1].subsampled && o.b[1].scale[0] == 1.0f && o.b[1].scale[1] == 1.0f &&
              o.b[1].offset[0] == 0.0f && o.b[1].offset[1] == 0.0f);
}

/* Above 512 bins nothing is subsampled: 1024x1024 in 32x32 bins (1024). */
Test(subsample, more_than_512_bins_store_full_size)
{
    static tr_extent2d a[1024];
    for (int i = 0; i < 1024; i++)
        a[i] = sq(2);
    static layout_out o;
    layout(1024, 1024, 32, 32, 32, 16, 32, 32, a, (tr_offset2d){0, 0}, false, &o);
    cr_expect(o.h.scale[0] == 1.0f && o.h.scale[1] == 1.0f && o.h.offset[0] == 0.0f && o.h.bin_stride == 1,
              "identity header");
    for (int i = 0; i < 1024; i++) {
        cr_expect(!o.b[i].subsampled && !o.b[i].border);
        cr_expect(o.b[i].rect.x == (i % 32) * 32 && o.b[i].rect.y == (i / 32) * 32 && o.b[i].rect.width == 32);
        cr_expect(o.b[i].scale[0] == 1.0f && o.b[i].offset[0] == 0.0f);
    }
    /* 512 bins exactly still subsample: 512x1024 in 32x32 bins */
    layout(512, 1024, 32, 32, 32, 16, 16, 32, a, (tr_offset2d){0, 0}, false, &o);
    cr_expect_eq(o.h.bin_stride, 16u);
    cr_expect(o.b[0].subsampled);
}

/* An FDM offset: b_o (40, 24) on 64x64 bins, alignment 32x16, 256x128 with
 * the extra column and row (5 x 3); the image is padded by the alignment. */
Test(subsample, fdm_offset_shifts_and_pads)
{
    tr_extent2d a[15];
    for (int i = 0; i < 15; i++)
        a[i] = sq(2);
    static layout_out o;
    layout(256, 128, 64, 64, 32, 16, 5, 3, a, (tr_offset2d){40, 24}, true, &o);
    cr_expect(o.h.offset[0] == 40.0f / 64.0f && o.h.offset[1] == 24.0f / 64.0f && o.h.scale[0] == 4.0f &&
              o.h.bin_stride == 5, "header");
    /* column 0 ends at (64 - 40) / 2 = 12; row 0 at (64 - 24) / 2 = 20 */
    EXPECT_RECT(o.b[0], 0, 0, 12, 20, "bin 0");
    /* column 1 starts at 64 - align_down(40, 32) = 32, 32 wide: 20 from bin 0 */
    cr_expect_eq(o.b[1].rect.x, 32);
    cr_expect_eq(o.b[1].rect.width, 32u);
    /* the last column (4: 216..256 of the framebuffer) pins to 256 + 32 */
    cr_expect_eq(o.b[4].rect.x + (int32_t)o.b[4].rect.width, 288);
    cr_expect(o.b[4].border);
    /* the metadata divides by the padded size and scales by 256 / 288 */
    cr_expect(o.b[0].scale[0] == (float)(0.5 * (256.0f / 288.0f)), "scale %.9g", o.b[0].scale[0]);
    cr_expect(o.b[1].offset[0] == (float)(o.b[1].rect.x - (64 - 40) / 2) / 288.0f, "offset %.9g", o.b[1].offset[0]);
}

Test(subsample, bad_descriptors)
{
    tr_extent2d a[4] = {sq(1), sq(2), sq(4), sq(1)};
    tr_subsampled_header h;
    tr_subsampled_bin b[4];
    tr_subsampled_layout_desc ok = {{128, 128}, {64, 64}, {32, 16}, 2, 2, a, {0, 0}, false};
    TRT_OK(tr_compute_subsampled_layout(&ok, &h, b));
    cr_expect_eq(tr_compute_subsampled_layout(NULL, &h, b), TR_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(tr_compute_subsampled_layout(&ok, NULL, b), TR_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(tr_compute_subsampled_layout(&ok, &h, NULL), TR_ERROR_INVALID_ARGUMENT);
    tr_subsampled_layout_desc d = ok;
    d.areas = NULL;
    cr_expect_eq(tr_compute_subsampled_layout(&d, &h, b), TR_ERROR_INVALID_ARGUMENT);
    d = ok;
    d.bins_x = 1; /* does not cover the framebuffer */
    cr_expect_eq(tr_compute_subsampled_layout(&d, &h, b), TR_ERROR_INVALID_DESCRIPTOR);
    d = ok;
    d.bin.width = 0;
    cr_expect_eq(tr_compute_subsampled_layout(&d, &h, b), TR_ERROR_INVALID_DESCRIPTOR);
    d = ok;
    d.bin_offset = (tr_offset2d){8, 0}; /* without fdm_offset */
    cr_expect_eq(tr_compute_subsampled_layout(&d, &h, b), TR_ERROR_INVALID_DESCRIPTOR);
    d.fdm_offset = true;
    d.bin_offset = (tr_offset2d){64, 0}; /* past the bin */
    cr_expect_eq(tr_compute_subsampled_layout(&d, &h, b), TR_ERROR_INVALID_DESCRIPTOR);
    tr_extent2d bad[4] = {sq(1), sq(3), sq(1), sq(1)};
    d = ok;
    d.areas = bad;
    cr_expect_eq(tr_compute_subsampled_layout(&d, &h, b), TR_ERROR_INVALID_DESCRIPTOR);
    bad[1] = (tr_extent2d){0, 2};
    cr_expect_eq(tr_compute_subsampled_layout(&d, &h, b), TR_ERROR_INVALID_DESCRIPTOR);
}

/* The rule's promises on random grids: every pair of neighbouring visible
 * bins (diagonals too) of which one is subsampled is at least 4 pixels
 * apart on x or y; every rectangle lies in the (padded) image; a
 * subsampled bin has its area's size, a full one its 1x1 size; the
 * metadata maps framebuffer positions of a bin into its rectangle. */
Test(subsample, random_grids_keep_aprons_apart)
{
    trt_rng rng = {0xa9e0ull};
    static const uint32_t areas[] = {0, 1, 1, 2, 2, 4};
    static tr_extent2d a[MAXB];
    static layout_out o;
    for (int round = 0; round < 200; round++) {
        const uint32_t bw = 32u << (trt_rand_u32(&rng) % 3), bh = 16u << (trt_rand_u32(&rng) % 3);
        const uint32_t nx0 = 1 + trt_rand_u32(&rng) % 9, ny0 = 1 + trt_rand_u32(&rng) % 9;
        const uint32_t fw = nx0 * bw - trt_rand_u32(&rng) % bw, fh = ny0 * bh - trt_rand_u32(&rng) % bh;
        const bool off = trt_rand_u32(&rng) & 1;
        const uint32_t nx = nx0 + off, ny = ny0 + off;
        const uint32_t ax = 16u << (trt_rand_u32(&rng) % 3), ay = 16u << (trt_rand_u32(&rng) % 2);
        const tr_offset2d bo = off ? (tr_offset2d){(int32_t)(8 * (trt_rand_u32(&rng) % (bw / 8))),
                                                   (int32_t)(8 * (trt_rand_u32(&rng) % (bh / 8)))}
                                   : (tr_offset2d){0, 0};
        for (uint32_t i = 0; i < nx * ny; i++) {
            a[i].width = areas[trt_rand_u32(&rng) % 6];
            a[i].height = a[i].width ? areas[1 + trt_rand_u32(&rng) % 5] : 0;
        }
        layout(fw, fh, bw, bh, ax, ay, nx, ny, a, bo, off, &o);
        const int32_t W0 = (int32_t)(fw + (off ? ax : 0)), H0 = (int32_t)(fh + (off ? ay : 0));
        for (uint32_t i = 0; i < nx * ny; i++) {
            const tr_subsampled_bin *p = &o.b[i];
            const bool past = (int64_t)(i % nx) * bw - bo.x >= fw || (int64_t)(i / nx) * bh - bo.y >= fh;
            if (past || !a[i].width) {
                cr_assert(!p->subsampled && p->rect.width == 0, "round %d bin %u: invisible but stored", round, i);
                continue;
            }
            /* its size: the area's when subsampled, else full */
            const tr_extent2d f = p->subsampled ? a[i] : (tr_extent2d){1, 1};
            cr_assert(p->subsampled == (p->subsampled && (a[i].width > 1 || a[i].height > 1)));
            const int64_t x0 = (int64_t)(i % nx) * bw - bo.x, x1 = x0 + bw;
            const int64_t xs = x0 < 0 ? 0 : x0;
            const bool pin_x = x1 >= fw;
            const int64_t want_w = pin_x ? ((int64_t)fw - xs + f.width - 1) / f.width
                                         : (i % nx == 0 ? x1 / f.width : (int64_t)bw / f.width);
            cr_assert_eq((int64_t)p->rect.width, want_w, "round %d bin %u: width %u, expected %lld", round, i,
                         p->rect.width, (long long)want_w);
            /* the metadata takes a framebuffer x of the bin to its texel:
             * image x = rect.x + (x - b_s) / f */
            const float u = ((float)xs + 0.5f) / (float)fw;
            const float t = (u * p->scale[0] + p->offset[0]) * (float)W0;
            cr_assert(t >= (float)p->rect.x && t < (float)p->rect.x + (float)p->rect.width + 0.01f,
                      "round %d bin %u: the first column maps to %g, rect %d..%u", round, i, (double)t, p->rect.x,
                      p->rect.width);
            cr_assert(p->rect.x >= 0 && p->rect.y >= 0 && p->rect.x + (int32_t)p->rect.width <= W0 &&
                          p->rect.y + (int32_t)p->rect.height <= H0,
                      "round %d bin %u: rect (%d,%d %ux%u) outside %dx%d", round, i, p->rect.x, p->rect.y,
                      p->rect.width, p->rect.height, W0, H0);
            for (uint32_t j = 0; j < nx * ny; j++) {
                const int32_t dx = (int32_t)(j % nx) - (int32_t)(i % nx), dy = (int32_t)(j / nx) - (int32_t)(i / nx);
                if (j == i || !a[j].width || !o.b[j].rect.width || dx < -1 || dx > 1 || dy < -1 || dy > 1)
                    continue;
                if (!p->subsampled && !o.b[j].subsampled)
                    continue;
                const tr_rect *r = &p->rect, *q = &o.b[j].rect;
                const bool apart = r->x + (int32_t)r->width + 4 <= q->x || q->x + (int32_t)q->width + 4 <= r->x ||
                                   r->y + (int32_t)r->height + 4 <= q->y || q->y + (int32_t)q->height + 4 <= r->y;
                cr_assert(apart, "round %d: bins %u and %u too close", round, i, j);
            }
        }
    }
}

/* ---- passes with a cpp-1 attachment ----------------------------------------
 *
 * A cpp-1 attachment (D32S8's separate stencil plane, or an R8 colour
 * attachment) doubles the pass's tile alignment (tr_bin_layout.tile_align_w,
 * 32 -> 64 on the default device) for the bin search; turnip's
 * tu_calc_subsampled and get_default_tile_pos still read the device's
 * alignment (phys_dev->info->tile_align_w/h, 32 x 16 here) for the shift
 * step, the offset alignment and the edge pinning, and the image is padded
 * by it.  The pass: 256x64, one view, an RGBA8 TR_IMAGE_SUBSAMPLED
 * attachment, a 2x1 density map of bytes 255 and 127: 64x64 bins, areas
 * 1, 1, 2, 2 (texels of 128 pixels). */

enum { CPP1_W = 256, CPP1_H = 64 };
typedef enum cpp1_kind { CPP1_STENCIL, CPP1_R8 } cpp1_kind;

typedef struct cpp1_out {
    tr_result begin, end;
    tr_bin_layout layout;
    tr_subsampled_header h;
    tr_subsampled_bin b[16];
    size_t count;
    uint8_t picture[CPP1_W * CPP1_H * 4];
} cpp1_out;

/* kind picks the cpp-1 attachment: D32S8 depth (GMEM 64 KiB) or an R8
 * colour attachment (GMEM 32 KiB, so that the bins stay 64x64);
 * subsampled: the RGBA8 attachment is TR_IMAGE_SUBSAMPLED; offset: an FDM
 * offset, every image made with TR_IMAGE_FDM_OFFSET.  A few triangles over
 * a clear. */
static void cpp1_pass(cpp1_kind kind, bool subsampled, const tr_offset2d *offset, cpp1_out *o)
{
    tr_context_desc cd = {0};
    cd.threads = 1;
    cd.gmem_bytes = kind == CPP1_STENCIL ? 65536u : 32768u;
    tr_context *ctx = trt_context_desc(&cd);
    const uint32_t off = offset ? TR_IMAGE_FDM_OFFSET : 0u;
    tr_image *color = NULL, *extra = NULL, *map = NULL;
    TRT_OK(tr_image_create(ctx, &(tr_image_desc){TR_FORMAT_R8G8B8A8_UNORM, CPP1_W, CPP1_H, 1, 1,
                                                  (subsampled ? TR_IMAGE_SUBSAMPLED : 0u) | off, 0}, &color));
    TRT_OK(tr_image_create(ctx, &(tr_image_desc){kind == CPP1_STENCIL ? TR_FORMAT_D32_SFLOAT_S8_UINT
                                                                      : TR_FORMAT_R8_UNORM,
                                                  CPP1_W, CPP1_H, 1, 1, off, 0}, &extra));
    TRT_OK(tr_image_create(ctx, &(tr_image_desc){TR_FORMAT_R8G8_UNORM, 2, 1, 1, 1, off, 0}, &map));
    const uint8_t texels[2][2] = {{255, 255}, {127, 127}};
    TRT_OK(tr_image_upload(map, NULL, texels, 0));
    tr_render_pass_desc rp = {0};
    rp.color_count = 1;
    rp.color[0].image = color;
    rp.color[0].load_op = TR_LOAD_OP_CLEAR;
    rp.color[0].store_op = TR_STORE_OP_STORE;
    rp.color[0].clear_color[0] = 0.25f;
    rp.color[0].clear_color[3] = 1.0f;
    if (kind == CPP1_STENCIL) {
        rp.depth.image = extra;
        rp.depth.depth_load_op = rp.depth.stencil_load_op = TR_LOAD_OP_CLEAR;
        rp.depth.depth_store_op = rp.depth.stencil_store_op = TR_STORE_OP_STORE;
        rp.depth.clear_depth = 1.0f;
    } else {
        rp.color_count = 2;
        rp.color[1].image = extra;
        rp.color[1].load_op = TR_LOAD_OP_CLEAR;
        rp.color[1].store_op = TR_STORE_OP_STORE;
    }
    rp.density_map.image = map;
    if (offset) {
        rp.density_map.offset_count = 1;
        rp.density_map.offsets[0] = *offset;
    }
    o->begin = tr_cmd_begin_render_pass(ctx, &rp);
    o->end = TR_ERROR_INVALID_STATE;
    if (o->begin == TR_OK) {
        static const float c0[4] = {0.9f, 0.1f, 0.2f, 1.0f}, c1[4] = {0.1f, 0.8f, 0.3f, 1.0f};
        const trt_vertex v[6] = {
            trt_vpx(10, 4, 0.5f, CPP1_W, CPP1_H, c0),   trt_vpx(250, 30, 0.5f, CPP1_W, CPP1_H, c1),
            trt_vpx(40, 60, 0.5f, CPP1_W, CPP1_H, c0),  trt_vpx(130, 2, 0.5f, CPP1_W, CPP1_H, c1),
            trt_vpx(255, 63, 0.5f, CPP1_W, CPP1_H, c0), trt_vpx(100, 50, 0.5f, CPP1_W, CPP1_H, c1)};
        TRT_OK(tr_cmd_bind_pipeline(ctx, trt_pipeline(ctx, NULL)));
        trt_draw(ctx, v, 6);
        tr_pass_stats stats;
        o->end = tr_cmd_end_render_pass(ctx, &stats);
        o->layout = stats.layout;
        TRT_OK(tr_image_download(color, NULL, o->picture, 0));
        o->count = 0;
        if (subsampled)
            TRT_OK(tr_image_get_subsampled_metadata(color, 0, &o->h, o->b, 16, &o->count));
    }
    tr_context_destroy(ctx);
}

static void expect_cpp1_grid(const cpp1_out *o, uint32_t bins_x, uint32_t bins_y, const char *what)
{
    cr_expect(o->layout.bin_w == 64 && o->layout.bin_h == 64 && o->layout.bins_x == bins_x &&
                  o->layout.bins_y == bins_y && o->layout.tile_align_w == 64 && o->layout.tile_align_h == 16,
              "%s: bins %ux%u (%u x %u), pass alignment %ux%u", what, o->layout.bin_w, o->layout.bin_h,
              o->layout.bins_x, o->layout.bins_y, o->layout.tile_align_w, o->layout.tile_align_h);
}

/* Without an offset: bin 2's default (128,32 32x32: pinned in y) touches
 * bin 1 and moves right by max(4, 32) to 160, which ends at 192 inside its
 * own full-size rectangle (128..192): it stays subsampled.  With the
 * pass's 64 it would have been stored at full size at (128,0). */
static void expect_cpp1_layout(cpp1_kind kind, const char *what)
{
    static cpp1_out o;
    cpp1_pass(kind, true, NULL, &o);
    cr_assert_eq(o.begin, TR_OK, "%s: begin", what);
    cr_assert_eq(o.end, TR_OK, "%s: end", what);
    expect_cpp1_grid(&o, 4, 1, what);
    cr_assert_eq(o.count, 4u, "%s: %zu bins", what, o.count);
    cr_expect(o.h.scale[0] == 4.0f && o.h.scale[1] == 1.0f && o.h.offset[0] == 0.0f && o.h.offset[1] == 0.0f &&
                  o.h.bin_stride == 4,
              "%s: header", what);
    EXPECT_RECT(o.b[0], 0, 0, 64, 64, what);
    EXPECT_RECT(o.b[1], 64, 0, 64, 64, what);
    EXPECT_RECT(o.b[2], 160, 32, 32, 32, what);
    EXPECT_RECT(o.b[3], 224, 32, 32, 32, what);
    cr_expect(!o.b[0].subsampled && !o.b[1].subsampled && o.b[2].subsampled && o.b[3].subsampled, "%s: flags",
              what);
    cr_expect(o.b[2].border && o.b[3].border && o.b[1].border, "%s: pinned in y", what);
    /* offset = (rect - b_s / 2) / size: ((160 - 64) / 256, (32 - 0) / 64) */
    cr_expect(o.b[2].scale[0] == 0.5f && o.b[2].scale[1] == 0.5f && o.b[2].offset[0] == 96.0f / 256.0f &&
                  o.b[2].offset[1] == 0.5f,
              "%s: bin 2 metadata (%.9g, %.9g)", what, o.b[2].offset[0], o.b[2].offset[1]);
    /* the picture is the same pass into an ordinary image */
    static cpp1_out plain;
    cpp1_pass(kind, false, NULL, &plain);
    cr_expect(memcmp(o.picture, plain.picture, sizeof o.picture) == 0, "%s: picture vs the ordinary image", what);
}

Test(subsample, separate_stencil_keeps_the_device_tile_alignment)
{
    expect_cpp1_layout(CPP1_STENCIL, "D32S8");
}

Test(subsample, r8_colour_attachment_keeps_the_device_tile_alignment)
{
    expect_cpp1_layout(CPP1_R8, "R8");
}

/* With an FDM offset of (16, 0): b_o = (48, 0), the grid 5 x 2 (row 1 lies
 * past the framebuffer), sampled at x = 64 i - 32: areas 1, 1, 1, 2, 2.
 * The image is padded by the device's 32 x 16 (288 x 80), which is all the
 * pinned bins need: turnip renders the pass.  Columns 1.. start at
 * 64 i - align_down(48, 32); every bin reaches the bottom edge (pinned to
 * 64 + 16).  Bin 3's default (160,48 32x32) touches bin 2 (96..160) and
 * moves right by 32 (ending at 224, its full-size end); bin 4 is pinned to
 * 288 - ceil(48 / 2). */
static void expect_cpp1_offset_layout(cpp1_kind kind, const char *what)
{
    static cpp1_out o;
    const tr_offset2d off = {16, 0};
    cpp1_pass(kind, true, &off, &o);
    cr_assert_eq(o.begin, TR_OK, "%s: begin", what);
    cr_assert_eq(o.end, TR_OK, "%s: end", what);
    expect_cpp1_grid(&o, 5, 2, what);
    cr_assert_eq(o.count, 10u, "%s: %zu bins", what, o.count);
    cr_expect(o.h.scale[0] == 4.0f && o.h.scale[1] == 1.0f && o.h.offset[0] == 0.75f && o.h.offset[1] == 0.0f &&
                  o.h.bin_stride == 5,
              "%s: header", what);
    EXPECT_RECT(o.b[0], 0, 16, 16, 64, what);
    EXPECT_RECT(o.b[1], 32, 16, 64, 64, what);
    EXPECT_RECT(o.b[2], 96, 16, 64, 64, what);
    EXPECT_RECT(o.b[3], 192, 48, 32, 32, what);
    EXPECT_RECT(o.b[4], 264, 48, 24, 32, what);
    for (int i = 5; i < 10; i++)
        EXPECT_RECT(o.b[i], 0, 0, 0, 0, what);
    cr_expect(!o.b[0].subsampled && !o.b[1].subsampled && !o.b[2].subsampled && o.b[3].subsampled &&
                  o.b[4].subsampled,
              "%s: flags", what);
    /* bin 3: scale 1/2 * 256/288 and 1/2 * 64/80; offset ((192 - 144 / 2) / 288, (48 - 0) / 80) */
    cr_expect(o.b[3].scale[0] == 0.5f * (256.0f / 288.0f) && o.b[3].scale[1] == 0.5f * (64.0f / 80.0f) &&
                  o.b[3].offset[0] == 120.0f / 288.0f && o.b[3].offset[1] == 48.0f / 80.0f,
              "%s: bin 3 metadata (%.9g, %.9g, %.9g, %.9g)", what, o.b[3].scale[0], o.b[3].scale[1],
              o.b[3].offset[0], o.b[3].offset[1]);
    static cpp1_out plain;
    cpp1_pass(kind, false, &off, &plain);
    cr_assert_eq(plain.end, TR_OK, "%s: the ordinary pass", what);
    cr_expect(memcmp(o.picture, plain.picture, sizeof o.picture) == 0, "%s: picture vs the ordinary image", what);
}

Test(subsample, separate_stencil_with_fdm_offset_renders)
{
    expect_cpp1_offset_layout(CPP1_STENCIL, "D32S8 with an offset");
}

Test(subsample, r8_colour_attachment_with_fdm_offset_renders)
{
    expect_cpp1_offset_layout(CPP1_R8, "R8 with an offset");
}
