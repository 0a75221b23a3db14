/* tilerast FDM stage: the per-bin, per-view transform, draw patching and
 * the scaled load and store (fdm_view.h states each rule and its source in
 * turnip). */
#include "fdm/fdm_view.h"

void tr__fdm_view_make(tr_extent2d area, const int32_t start[2], uint32_t bin_w, uint32_t bin_h, tr__fdm_view *v)
{
    v->f[0] = area.width;
    v->f[1] = area.height;
    const uint32_t size[2] = {bin_w, bin_h};
    for (int k = 0; k < 2; k++) {
        /* b_s / f is exact: bins start on multiples of 8 and f divides 4 */
        v->bs[k] = start[k];
        v->o[k] = start[k] - v->bs[k] / (int32_t)v->f[k];
        v->bin[k] = start[k];
        v->bin[k + 2] = start[k] + (int32_t)(size[k] / v->f[k]);
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
        const float sx = 1.0f / (float)v->f[0], sy = 1.0f / (float)v->f[1];
        out->viewport.x = sx * d->viewport.x + (float)v->o[0];
        out->viewport.y = sy * d->viewport.y + (float)v->o[1];
        out->viewport.width = d->viewport.width * sx;
        out->viewport.height = d->viewport.height * sy;
        tr__draw_scissor(s, &out->viewport, out->scissor);
    } else {
        memcpy(out->scissor, s, sizeof s);
    }
    memcpy(out->area_scissor, s, sizeof s);
    memcpy(out->bin_scissor, out->scissor, sizeof out->scissor);
    out->fdm = 0;
}

void tr__fdm_load(const tr__fdm_view *v, const tr__attachment_state *a, uint32_t layer, const int32_t r[4],
                  uint8_t *gmem, const int32_t origin[2], uint32_t pitch)
{
    const tr_image *img = a->image;
    const uint32_t w = TR_MAX(1u, img->desc.width >> a->level), h = TR_MAX(1u, img->desc.height >> a->level);
    const uint32_t cpp = a->cpp;
    for (int32_t y = r[1]; y < r[3]; y++) {
        const uint32_t sy = tr__fdm_load_texel(y, v->bin[1], v->bs[1], v->f[1], h);
        uint8_t *g = gmem + ((size_t)(y - origin[1]) * pitch + (size_t)(r[0] - origin[0])) * cpp;
        for (int32_t x = r[0]; x < r[2]; x++, g += cpp)
            memcpy(g, tr__att_texel(a, layer, tr__fdm_load_texel(x, v->bin[0], v->bs[0], v->f[0], w), sy), cpp);
    }
}

void tr__fdm_store(const tr__fdm_view *v, const tr__attachment_state *a, uint32_t layer, const int32_t fb[4],
                   const uint8_t *gmem, const int32_t origin[2], uint32_t pitch)
{
    const uint32_t cpp = a->cpp;
    for (int32_t y = fb[1]; y < fb[3]; y++) {
        const int32_t gy = tr__fdm_store_source(y, v->bin[1], v->bs[1], v->f[1]);
        const uint8_t *row = gmem + (size_t)(gy - origin[1]) * pitch * cpp;
        uint8_t *dst = tr__att_texel(a, layer, (uint32_t)fb[0], (uint32_t)y);
        for (int32_t x = fb[0]; x < fb[2]; x++, dst += cpp)
            memcpy(dst, row + (size_t)(tr__fdm_store_source(x, v->bin[0], v->bs[0], v->f[0]) - origin[0]) * cpp, cpp);
    }
}
