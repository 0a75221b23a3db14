/* tilerast FDM stage: the per-bin, per-view transform, draw patching and
 * the scaled load and store (fdm_view.h states each rule and its source in
 * turnip). */
#include <math.h>
#include <string.h>

#include "fdm/fdm_view.h"

void tr__fdm_view_make(tr_extent2d area, const int32_t bcs[2], const int32_t bo[2], const int32_t origin[2],
                       uint32_t bin_w, uint32_t bin_h, tr__fdm_view *v)
{
    v->f[0] = area.width;
    v->f[1] = area.height;
    const uint32_t size[2] = {bin_w, bin_h};
    for (int k = 0; k < 2; k++) {
        /* tu_bin_offset's grid: every bin moves back by b_o, the first
         * only shrinks; b_s / f is exact (fdm.h) */
        v->bs[k] = TR_MAX(origin[k], bcs[k] - bo[k]);
        v->fb[k] = v->bs[k];
        v->fb[k + 2] = bcs[k] + (int32_t)size[k] - bo[k];
        v->o[k] = bcs[k] - v->bs[k] / (int32_t)v->f[k];
        v->bin[k] = bcs[k];
        v->bin[k + 2] = bcs[k] + (v->fb[k + 2] - v->bs[k]) / (int32_t)v->f[k];
    }
}

void tr__fdm_rect(const tr__fdm_view *v, const int32_t r[4], int32_t out[4])
{
    for (int k = 0; k < 2; k++) {
        const int32_t f = (int32_t)v->f[k];
        out[k] = r[k] / f + v->o[k];
        out[k + 2] = (r[k + 2] + f - 1) / f + v->o[k];
    }
}

void tr__fdm_patch_draw(const tr__fdm_view *v, const tr__draw *d, tr__draw *out)
{
    *out = *d;
    int32_t s[4];
    tr__fdm_rect(v, d->area_scissor, s);
    s[0] = TR_MAX(s[0], v->bin[0]);
    s[1] = TR_MAX(s[1], v->bin[1]);
    s[2] = TR_MIN(s[2], v->bin[2]);
    s[3] = TR_MIN(s[3], v->bin[3]);
    if (!d->clear_atts) {
        /* x' = x / f + o: the scaled viewport (exact, f a power of two), o
         * added after the window transform (win_offset), so that the
         * float arithmetic does not depend on o: a triangle snaps the same
         * in every bin, merged or not, shifted or not.  The viewport's
         * rectangle bounds the scissor in the same two steps. */
        const float sx = 1.0f / (float)v->f[0], sy = 1.0f / (float)v->f[1];
        out->viewport.x = sx * d->viewport.x;
        out->viewport.y = sy * d->viewport.y;
        out->viewport.width = d->viewport.width * sx;
        out->viewport.height = d->viewport.height * sy;
        out->win_offset[0] = v->o[0];
        out->win_offset[1] = v->o[1];
        /* GL's lower-left origin: rows flip about the scaled height */
        out->flip_sub = d->flip_sub / (int32_t)v->f[1];
        const int32_t back[4] = {s[0] - v->o[0], s[1] - v->o[1], s[2] - v->o[0], s[3] - v->o[1]};
        tr__draw_scissor(back, &out->viewport, (float)d->flip_y / (float)v->f[1], out->scissor);
        out->scissor[0] += v->o[0];
        out->scissor[1] += v->o[1];
        out->scissor[2] += v->o[0];
        out->scissor[3] += v->o[1];
    } else {
        memcpy(out->scissor, s, sizeof s);
    }
    memcpy(out->area_scissor, s, sizeof s);
    memcpy(out->bin_scissor, out->scissor, sizeof out->scissor);
    out->fdm = 0;
}

void tr__fdm_load(const tr__fdm_view *v, const tr__attachment_state *a, uint32_t layer, uint32_t sample,
                  const int32_t r[4], uint8_t *gmem, const int32_t origin[2], uint32_t pitch)
{
    const tr_image *img = a->image;
    const uint32_t w = TR_MAX(1u, img->desc.width >> a->level), h = TR_MAX(1u, img->desc.height >> a->level);
    const uint32_t cpp = a->cpp;
    for (int32_t y = r[1]; y < r[3]; y++) {
        const uint32_t sy = tr__fdm_load_texel(y, v->bin[1], v->bs[1], v->f[1], h);
        uint8_t *g = gmem + ((size_t)(y - origin[1]) * pitch + (size_t)(r[0] - origin[0])) * cpp;
        for (int32_t x = r[0]; x < r[2]; x++, g += cpp)
            memcpy(g, tr__att_sample_texel(a, layer, sample, tr__fdm_load_texel(x, v->bin[0], v->bs[0], v->f[0], w), sy),
                   cpp);
    }
}

void tr__fdm_store(const tr__fdm_view *v, const tr__attachment_state *a, uint32_t layer, uint32_t sample,
                   const int32_t fb[4], const uint8_t *gmem, const int32_t origin[2], uint32_t pitch,
                   const int32_t shift[2])
{
    const uint32_t cpp = a->cpp;
    for (int32_t y = fb[1]; y < fb[3]; y++) {
        const int32_t gy = tr__fdm_store_source(y, v->bin[1], v->bs[1], v->f[1]);
        const uint8_t *row = gmem + (size_t)(gy - origin[1]) * pitch * cpp;
        uint8_t *dst = tr__att_sample_texel(a, layer, sample, (uint32_t)(fb[0] + shift[0]), (uint32_t)(y + shift[1]));
        for (int32_t x = fb[0]; x < fb[2]; x++, dst += cpp)
            memcpy(dst, row + (size_t)(tr__fdm_store_source(x, v->bin[0], v->bs[0], v->f[0]) - origin[0]) * cpp, cpp);
    }
}

/* ---- the public pure functions (fdm.h, "FDM offset") ---- */

/* a mod m in [0, m) for m > 0 (turnip's Euclidean remainder) */
static int32_t eucl_rem(int64_t a, int64_t m)
{
    const int64_t r = a % m;
    return (int32_t)(r < 0 ? r + m : r);
}

tr_offset2d tr_fdm_bin_offset(tr_offset2d fdm_offset, tr_extent2d bin)
{
    tr_offset2d b = {0, 0};
    if (bin.width)
        b.x = eucl_rem(-(int64_t)fdm_offset.x, bin.width);
    if (bin.height)
        b.y = eucl_rem(-(int64_t)fdm_offset.y, bin.height);
    return b;
}

static bool valid_area(uint32_t f, uint32_t bin)
{
    return (f == 1 || f == 2 || f == 4) && bin % f == 0;
}

tr_result tr_fdm_bin_transform(const tr_fdm_bin_desc *desc, tr_fdm_bin_transform_result *out)
{
    tr__api_enter(NULL);
    const char *fn = "tr_fdm_bin_transform";
    if (!desc || !out)
        return tr__error(NULL, TR_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", fn, desc ? "out" : "desc");
    const tr_fdm_bin_desc *d = desc;
    if (!d->bin.width || !d->bin.height || !d->framebuffer.width || !d->framebuffer.height ||
        d->bin.width > TR_MAX_IMAGE_SIZE || d->bin.height > TR_MAX_IMAGE_SIZE ||
        d->framebuffer.width > TR_MAX_IMAGE_SIZE || d->framebuffer.height > TR_MAX_IMAGE_SIZE)
        return tr__error(NULL, TR_ERROR_INVALID_DESCRIPTOR,
                         "%s: tr_fdm_bin_desc.bin = %ux%u / framebuffer = %ux%u: each must be 1..%u", fn,
                         d->bin.width, d->bin.height, d->framebuffer.width, d->framebuffer.height, TR_MAX_IMAGE_SIZE);
    if (!valid_area(d->frag_area.width, d->bin.width) || !valid_area(d->frag_area.height, d->bin.height))
        return tr__error(NULL, TR_ERROR_INVALID_DESCRIPTOR,
                         "%s: tr_fdm_bin_desc.frag_area = %ux%u: each must be 1, 2 or 4 and divide the bin (%ux%u)",
                         fn, d->frag_area.width, d->frag_area.height, d->bin.width, d->bin.height);
    if (d->bin_offset.x < 0 || (uint32_t)d->bin_offset.x >= d->bin.width || d->bin_offset.y < 0 ||
        (uint32_t)d->bin_offset.y >= d->bin.height || d->bin_offset.x % (int32_t)d->frag_area.width ||
        d->bin_offset.y % (int32_t)d->frag_area.height)
        return tr__error(NULL, TR_ERROR_INVALID_DESCRIPTOR,
                         "%s: tr_fdm_bin_desc.bin_offset = (%d, %d): must lie in the bin and be a multiple of "
                         "frag_area", fn, d->bin_offset.x, d->bin_offset.y);
    const tr_viewport *vp = &d->viewport;
    if (!isfinite(vp->x) || !isfinite(vp->y) || !isfinite(vp->width) || !isfinite(vp->height) ||
        !isfinite(vp->min_depth) || !isfinite(vp->max_depth))
        return tr__error(NULL, TR_ERROR_INVALID_DESCRIPTOR, "%s: tr_fdm_bin_desc.viewport has a value that is not "
                         "finite", fn);
    if (d->scissor.x < 0 || d->scissor.y < 0 || d->scissor.width > TR_MAX_IMAGE_SIZE ||
        d->scissor.height > TR_MAX_IMAGE_SIZE)
        return tr__error(NULL, TR_ERROR_INVALID_DESCRIPTOR,
                         "%s: tr_fdm_bin_desc.scissor = (%d, %d) %ux%u: the origin must be >= 0, the size at "
                         "most %u", fn, d->scissor.x, d->scissor.y, d->scissor.width, d->scissor.height,
                         TR_MAX_IMAGE_SIZE);
    /* the grid, with its extra column and row */
    const uint32_t cols = (d->framebuffer.width + d->bin.width - 1) / d->bin.width + 1;
    const uint32_t rows = (d->framebuffer.height + d->bin.height - 1) / d->bin.height + 1;
    if (d->bin_x >= cols || d->bin_y >= rows)
        return tr__error(NULL, TR_ERROR_OUT_OF_RANGE,
                         "%s: tr_fdm_bin_desc.bin_x/bin_y = (%u, %u) is outside the %ux%u grid (with the extra "
                         "column and row)", fn, d->bin_x, d->bin_y, cols, rows);

    const int32_t bcs[2] = {(int32_t)(d->bin_x * d->bin.width), (int32_t)(d->bin_y * d->bin.height)};
    const int32_t bo[2] = {d->bin_offset.x, d->bin_offset.y}, origin[2] = {0, 0};
    tr__fdm_view v;
    tr__fdm_view_make(d->frag_area, bcs, bo, origin, d->bin.width, d->bin.height, &v);

    tr_fdm_bin_transform_result r;
    memset(&r, 0, sizeof r);
    r.b_cs = (tr_offset2d){bcs[0], bcs[1]};
    r.b_s = (tr_offset2d){v.bs[0], v.bs[1]};
    r.o = (tr_offset2d){v.o[0], v.o[1]};
    const int32_t fx1 = TR_MIN(v.fb[2], (int32_t)d->framebuffer.width);
    const int32_t fy1 = TR_MIN(v.fb[3], (int32_t)d->framebuffer.height);
    r.framebuffer_rect = (tr_rect){v.fb[0], v.fb[1], fx1 > v.fb[0] ? (uint32_t)(fx1 - v.fb[0]) : 0u,
                                   fy1 > v.fb[1] ? (uint32_t)(fy1 - v.fb[1]) : 0u};
    r.rendering_bin = (tr_rect){v.bin[0], v.bin[1], (uint32_t)(v.bin[2] - v.bin[0]), (uint32_t)(v.bin[3] - v.bin[1])};

    /* The draw as tr__fdm_patch_draw patches it (one rule for both). */
    tr__draw draw;
    memset(&draw, 0, sizeof draw);
    draw.viewport = *vp;
    const int64_t sx1 = (int64_t)d->scissor.x + d->scissor.width, sy1 = (int64_t)d->scissor.y + d->scissor.height;
    draw.area_scissor[0] = d->scissor.x;
    draw.area_scissor[1] = d->scissor.y;
    draw.area_scissor[2] = (int32_t)TR_MIN(sx1, (int64_t)INT32_MAX);
    draw.area_scissor[3] = (int32_t)TR_MIN(sy1, (int64_t)INT32_MAX);
    tr__draw patched;
    tr__fdm_patch_draw(&v, &draw, &patched);
    r.viewport = patched.viewport;
    r.viewport.x += (float)patched.win_offset[0];
    r.viewport.y += (float)patched.win_offset[1];
    const int32_t *s = patched.area_scissor;
    r.scissor = (tr_rect){s[0], s[1], s[2] > s[0] ? (uint32_t)(s[2] - s[0]) : 0u, s[3] > s[1] ? (uint32_t)(s[3] - s[1]) : 0u};
    if (!r.scissor.width || !r.scissor.height)
        r.scissor.width = r.scissor.height = 0;
    *out = r;
    return TR_OK;
}
