/* tilerast executor: recording a render pass.
 *
 * tr_cmd_begin_render_pass validates the attachments and picks the bin grid
 * and VSC pipes from them and the GMEM budget; the tr_cmd_* calls between
 * it and tr_cmd_end_render_pass record draw records (pipeline plus dynamic
 * state) and hand each draw's primitives to the front end (pass_front.c),
 * which shades, clips, sets up and bins them at once.  The tile pass
 * (pass_tile.c) renders the bins when the pass ends. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <math.h>
#include <stdio.h>
#include <time.h>

#include "bin/bin_internal.h"
#include "fdm/fdm_internal.h"
#include "feedback/feedback_internal.h"
#include "lrz/lrz_internal.h"
#include "pass.h"
#include "raster/raster_internal.h"
#include "vertex/vertex_internal.h"

double tr__now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* ---- validation and attachments ------------------------------------------------ */

static bool valid_load(tr_load_op op) { return (unsigned)op <= TR_LOAD_OP_DONT_CARE; }
static bool valid_store(tr_store_op op) { return (unsigned)op <= TR_STORE_OP_DONT_CARE; }

static tr_result check_view(tr_context *ctx, const tr_image *img, uint32_t level, uint32_t base_layer,
                            uint32_t layers_needed, const char *name, uint32_t *w, uint32_t *h, uint32_t *samples)
{
    if (img->ctx != ctx)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "%s.image belongs to another context", name);
    /* one sample count for every attachment (multisample.h) */
    if (*samples && img->desc.samples != *samples)
        return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR,
                         "%s has %u sample(s) but the other attachments have %u (a pass's attachments share one "
                         "sample count)", name, img->desc.samples, *samples);
    *samples = img->desc.samples;
    if (level >= img->desc.levels)
        return tr__error(ctx, TR_ERROR_OUT_OF_RANGE, "%s.level = %u but the image has %u level(s)", name, level,
                         img->desc.levels);
    if ((uint64_t)base_layer + layers_needed > img->desc.layers)
        return tr__error(ctx, TR_ERROR_OUT_OF_RANGE,
                         "%s: layers %u..%u are needed but the image has %u layer(s)", name, base_layer,
                         base_layer + layers_needed - 1, img->desc.layers);
    uint32_t lw = TR_MAX(1u, img->desc.width >> level), lh = TR_MAX(1u, img->desc.height >> level);
    if (*w == 0) {
        *w = lw;
        *h = lh;
    } else if (lw != *w || lh != *h) {
        return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR,
                         "%s is %ux%u but the other attachments are %ux%u", name, lw, lh, *w, *h);
    }
    return TR_OK;
}

/* The density map's offsets (fdm.h, "FDM offset"): their count, range
 * and granularity, and whether the pass honours them (the map and every
 * attachment created with TR_IMAGE_FDM_OFFSET); per view slot the offset
 * sampling moves by.  The attachments are in p->att. */
static tr_result check_offsets(tr_context *ctx, const tr_render_pass_desc *d, uint32_t layers_needed, tr__pass *p)
{
    const tr_density_map *m = &d->density_map;
    const char *mn = "tr_render_pass_desc.density_map";
    if (m->offset_count == 0)
        return TR_OK;
    if (m->offset_count != layers_needed)
        return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR,
                         "%s.offset_count = %u: it must be 0 or the pass's layer count, %u (one offset per view)", mn,
                         m->offset_count, layers_needed);
    const int32_t g = (int32_t)TR_FDM_OFFSET_GRANULARITY;
    for (uint32_t i = 0; i < m->offset_count; i++) {
        const tr_offset2d o = m->offsets[i];
        if (o.x < -TR_FDM_MAX_OFFSET || o.x > TR_FDM_MAX_OFFSET || o.y < -TR_FDM_MAX_OFFSET ||
            o.y > TR_FDM_MAX_OFFSET)
            return tr__error(ctx, TR_ERROR_LIMIT_EXCEEDED, "%s.offsets[%u] = (%d, %d) is beyond +-%d", mn, i, o.x,
                             o.y, TR_FDM_MAX_OFFSET);
        if (o.x % g || o.y % g)
            return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR,
                             "%s.offsets[%u] = (%d, %d) is not a multiple of the granularity, %d", mn, i, o.x, o.y, g);
    }
    /* Vulkan asks every attachment and the map to be created with the
     * offset flag; here a pass that lacks it on any of them ignores its
     * offsets, as if they were (0, 0) (fdm.h) */
    bool flagged = (m->image->desc.flags & TR_IMAGE_FDM_OFFSET) != 0;
    for (uint32_t i = 0; i < p->att_count; i++)
        flagged &= (p->att[i].image->desc.flags & TR_IMAGE_FDM_OFFSET) != 0;
    if (!flagged)
        return TR_OK;
    p->fdm_offset = true;
    for (uint32_t v = 0; v < p->view_count; v++)
        p->fdm_user_offset[v] = m->offsets[p->view_ids[v]];
    return TR_OK;
}

/* Each view's bin offset b_o from its offset and the layout's bin size. */
static void set_bin_offsets(tr__pass *p)
{
    const tr_extent2d bin = {p->layout.bin_w, p->layout.bin_h};
    for (uint32_t v = 0; v < p->view_count; v++) {
        const tr_offset2d bo = tr_fdm_bin_offset(p->fdm_user_offset[v], bin);
        p->fdm_bo[v][0] = bo.x;
        p->fdm_bo[v][1] = bo.y;
    }
}

/* Vulkan: the attachments of a subpass may not alias (renderpass.h,
 * "Aliasing"); other levels or layers of one image are other
 * subresources.  The earlier colour attachment whose subresources colour
 * attachment i overlaps (each spans `layers` layers), or -1. */
static int aliased_colour(const tr_render_pass_desc *d, const tr__pass *p, uint32_t i, uint32_t layers)
{
    const tr_color_attachment *c = &d->color[i];
    for (uint32_t j = 0; j < i; j++) {
        const tr_color_attachment *o = &d->color[j];
        if (p->color_att[j] >= 0 && o->image == c->image && o->level == c->level &&
            o->base_layer < c->base_layer + layers && c->base_layer < o->base_layer + layers)
            return (int)j;
    }
    return -1;
}

/* Validates a pass descriptor and fills the attachment part of `p`. */
static tr_result prepare_pass(tr_context *ctx, const tr_render_pass_desc *d, tr__pass *p)
{
    char name[64];
    if (d->color_count > TR_MAX_COLOR_ATTACHMENTS)
        return tr__error(ctx, TR_ERROR_LIMIT_EXCEEDED, "tr_render_pass_desc.color_count = %u exceeds %u",
                         d->color_count, TR_MAX_COLOR_ATTACHMENTS);
    if (d->view_mask >> TR_MAX_VIEWS)
        return tr__error(ctx, TR_ERROR_LIMIT_EXCEEDED,
                         "tr_render_pass_desc.view_mask = 0x%x: views above %u are not supported", d->view_mask,
                         TR_MAX_VIEWS - 1);
    if (d->flags & ~(TR_PASS_SINGLE_BIN | TR_PASS_NO_LRZ | TR_PASS_FDM_SHARED_VIEWPORT | TR_PASS_ORIGIN_LOWER_LEFT))
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_render_pass_desc.flags = 0x%x has unknown bits", d->flags);
    p->view_count = 0;
    uint32_t mask = d->view_mask ? d->view_mask : 1u;
    for (uint32_t i = 0; i < TR_MAX_VIEWS; i++)
        if (mask & (1u << i))
            p->view_ids[p->view_count++] = i;
    uint32_t layers_needed = p->view_ids[p->view_count - 1] + 1;
    uint32_t w = 0, h = 0, samples = 0;
    p->att_count = 0;
    p->depth_att = p->stencil_att = -1;
    for (uint32_t i = 0; i < TR_MAX_COLOR_ATTACHMENTS; i++) {
        p->color_att[i] = -1;
        const tr_color_attachment *c = &d->color[i];
        if (i >= d->color_count || !c->image)
            continue;
        snprintf(name, sizeof(name), "tr_render_pass_desc.color[%u]", i);
        if (!tr__format_is_color(c->image->desc.format))
            return tr__error(ctx, TR_ERROR_UNSUPPORTED_FORMAT, "%s: %s is not a colour format", name,
                             c->image->fmt->name);
        if (!valid_load(c->load_op) || !valid_store(c->store_op))
            return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "%s: load_op or store_op is not a valid op", name);
        tr_result r = check_view(ctx, c->image, c->level, c->base_layer, layers_needed, name, &w, &h, &samples);
        if (r != TR_OK)
            return r;
        const int j = aliased_colour(d, p, i, layers_needed);
        if (j >= 0)
            return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR,
                             "%s.image is also color[%d].image, at the same level (%u) with overlapping layers "
                             "(%u.. and %d..): attachments may not alias", name, j, c->level, c->base_layer,
                             (int)d->color[j].base_layer);
        tr__attachment_state *a = &p->att[p->att_count];
        memset(a, 0, sizeof(*a));
        a->image = c->image;
        a->level = c->level;
        a->base_layer = c->base_layer;
        a->format = c->image->desc.format;
        a->cpp = c->image->fmt->texel;
        a->load = c->load_op;
        a->store = c->store_op;
        a->subsampled = (c->image->desc.flags & TR_IMAGE_SUBSAMPLED) != 0;
        tr__color_encode(ctx, a->format, c->clear_color, a->clear_texel);
        p->color_att[i] = (int)p->att_count++;
    }
    const tr_depth_attachment *ds = &d->depth;
    if (ds->image) {
        const char *dn = "tr_render_pass_desc.depth";
        if (!ds->image->fmt->depth)
            return tr__error(ctx, TR_ERROR_UNSUPPORTED_FORMAT, "%s: %s is not a depth format", dn, ds->image->fmt->name);
        if (!valid_load(ds->depth_load_op) || !valid_store(ds->depth_store_op) || !valid_load(ds->stencil_load_op) ||
            !valid_store(ds->stencil_store_op))
            return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "%s: a load or store op is not valid", dn);
        if (!isfinite(ds->clear_depth) || ds->clear_depth < 0.0f || ds->clear_depth > 1.0f)
            return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "%s.clear_depth = %g is outside [0, 1]", dn,
                             (double)ds->clear_depth);
        tr_result r = check_view(ctx, ds->image, ds->level, ds->base_layer, layers_needed, dn, &w, &h, &samples);
        if (r != TR_OK)
            return r;
        tr__attachment_state *a = &p->att[p->att_count];
        memset(a, 0, sizeof(*a));
        a->image = ds->image;
        a->level = ds->level;
        a->base_layer = ds->base_layer;
        a->format = ds->image->desc.format;
        a->cpp = 4;
        a->load = ds->depth_load_op;
        a->store = ds->depth_store_op;
        const float cz = tr__depth_quantise(ds->image->fmt->depth_max, ds->clear_depth); /* D16 / D24 */
        memcpy(a->clear_texel, &cz, 4);
        p->depth_att = (int)p->att_count++;
        if (ds->image->fmt->stencil) {
            a = &p->att[p->att_count];
            *a = p->att[p->depth_att];
            a->cpp = 1;
            a->stencil_plane = true;
            a->load = ds->stencil_load_op;
            a->store = ds->stencil_store_op;
            memset(a->clear_texel, 0, sizeof(a->clear_texel));
            a->clear_texel[0] = (uint8_t)(ds->clear_stencil & 0xff);
            p->stencil_att = (int)p->att_count++;
        }
    }
    if (w == 0)
        return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR, "tr_render_pass_desc has no attachment");
    p->fb_w = w;
    p->fb_h = h;
    p->samples = samples;
    /* Resolve images (multisample.h) */
    for (uint32_t i = 0; i < TR_MAX_COLOR_ATTACHMENTS; i++) {
        const tr_color_attachment *c = &d->color[i];
        if (p->color_att[i] < 0) {
            if (i < d->color_count && c->resolve_image)
                return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR,
                                 "tr_render_pass_desc.color[%u].resolve_image without an image to resolve", i);
            continue;
        }
        tr__attachment_state *a = &p->att[p->color_att[i]];
        a->resolve = NULL;
        const tr_image *ri = c->resolve_image;
        if (!ri)
            continue;
        snprintf(name, sizeof(name), "tr_render_pass_desc.color[%u].resolve_image", i);
        if (ri->ctx != ctx)
            return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "%s belongs to another context", name);
        if (samples == 1)
            return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR,
                             "%s: the attachment has one sample; only a multisampled one resolves", name);
        if (ri->desc.samples != 1)
            return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR, "%s has %u samples: a resolve image has one", name,
                             ri->desc.samples);
        if (ri->desc.format != a->format)
            return tr__error(ctx, TR_ERROR_UNSUPPORTED_FORMAT, "%s is %s but the attachment is %s (they must match)",
                             name, ri->fmt->name, a->image->fmt->name);
        if (c->resolve_level >= ri->desc.levels)
            return tr__error(ctx, TR_ERROR_OUT_OF_RANGE, "%s: resolve_level = %u but the image has %u level(s)", name,
                             c->resolve_level, ri->desc.levels);
        if ((uint64_t)c->resolve_base_layer + layers_needed > ri->desc.layers)
            return tr__error(ctx, TR_ERROR_OUT_OF_RANGE, "%s: layers %u..%u are needed but the image has %u layer(s)",
                             name, c->resolve_base_layer, c->resolve_base_layer + layers_needed - 1, ri->desc.layers);
        const uint32_t rw = TR_MAX(1u, ri->desc.width >> c->resolve_level),
                       rh = TR_MAX(1u, ri->desc.height >> c->resolve_level);
        if (rw != w || rh != h)
            return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR, "%s is %ux%u but the attachments are %ux%u", name, rw,
                             rh, w, h);
        for (uint32_t k = 0; k < p->att_count; k++)
            if (p->att[k].image == ri || p->att[k].resolve == ri)
                return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR,
                                 "%s is also an attachment or another resolve image of the pass", name);
        a->resolve = (tr_image *)ri;
        a->resolve_level = c->resolve_level;
        a->resolve_base_layer = c->resolve_base_layer;
    }
    tr_rect ra = d->render_area;
    if (ra.width == 0 || ra.height == 0)
        ra = (tr_rect){0, 0, w, h};
    if (ra.x < 0 || ra.y < 0 || (uint64_t)ra.x + ra.width > w || (uint64_t)ra.y + ra.height > h)
        return tr__error(ctx, TR_ERROR_OUT_OF_RANGE,
                         "tr_render_pass_desc.render_area (%d,%d %ux%u) is outside the %ux%u framebuffer", ra.x,
                         ra.y, ra.width, ra.height, w, h);
    /* GL's lower-left origin: rectangles arrive in window coordinates */
    p->origin_flip = (d->flags & TR_PASS_ORIGIN_LOWER_LEFT) ? (int32_t)h : 0;
    ra = tr__pass_rect_to_fb(p, ra);
    p->area[0] = ra.x;
    p->area[1] = ra.y;
    p->area[2] = ra.x + (int32_t)ra.width;
    p->area[3] = ra.y + (int32_t)ra.height;

    /* The density map (fdm.h): read when the pass ends. */
    const tr_image *map = d->density_map.image;
    p->fdm = map != NULL;
    p->fdm_offset = false;
    memset(p->fdm_user_offset, 0, sizeof p->fdm_user_offset);
    if (map) {
        const char *mn = "tr_render_pass_desc.density_map";
        if (map->ctx != ctx)
            return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "%s.image belongs to another context", mn);
        if (map->desc.samples != 1)
            return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR, "%s.image has %u samples: a density map has one", mn,
                             map->desc.samples);
        if (map->desc.format != TR_FORMAT_R8G8_UNORM)
            return tr__error(ctx, TR_ERROR_UNSUPPORTED_FORMAT, "%s.image is %s: a density map is R8G8_UNORM", mn,
                             map->fmt->name);
        const uint32_t layers = map->desc.layers == 1 ? 1u : layers_needed;
        if ((uint64_t)d->density_map.base_layer + layers > map->desc.layers)
            return tr__error(ctx, TR_ERROR_OUT_OF_RANGE,
                             "%s: layers %u..%u are needed (view %u is the highest) but the image has %u layer(s)", mn,
                             d->density_map.base_layer, d->density_map.base_layer + layers - 1, layers_needed - 1,
                             map->desc.layers);
        for (uint32_t i = 0; i < p->att_count; i++)
            if (p->att[i].image == map || p->att[i].resolve == map)
                return tr__error(ctx, TR_ERROR_INVALID_STATE,
                                 "%s.image is also an attachment or resolve image of the pass (a density map is "
                                 "only read)", mn);
        if (d->flags & TR_PASS_SINGLE_BIN)
            return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR,
                             "%s with TR_PASS_SINGLE_BIN: a fragment density map needs bins (as on the hardware)",
                             mn);
        tr_result r = check_offsets(ctx, d, layers_needed, p);
        if (r != TR_OK)
            return r;
    } else if (d->density_map.offset_count) {
        return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR,
                         "tr_render_pass_desc.density_map.offset_count = %u without a density map image",
                         d->density_map.offset_count);
    }

    /* Subsampled colour attachments (subsample.h): stored in subsampled
     * space, which needs a density map and bins over the whole
     * framebuffer. */
    p->subsampled = false;
    for (uint32_t i = 0; i < p->att_count; i++)
        p->subsampled |= p->att[i].subsampled;
    if (p->subsampled && !map)
        return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR,
                         "tr_render_pass_desc.color: a TR_IMAGE_SUBSAMPLED attachment needs a density map");
    if (p->subsampled && (p->area[0] || p->area[1] || p->area[2] != (int32_t)w || p->area[3] != (int32_t)h))
        return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR,
                         "tr_render_pass_desc.render_area: a pass with a TR_IMAGE_SUBSAMPLED attachment renders "
                         "the whole %ux%u framebuffer", w, h);

    tr__bin_att batt[TR__MAX_ATTACHMENTS];
    for (uint32_t i = 0; i < p->att_count; i++) {
        /* a tile holds every sample: bytes per pixel times samples, as
         * turnip counts cpp (REFERENCE.md section 5) */
        batt[i].cpp = p->att[i].cpp * samples;
        batt[i].separate_stencil = p->att[i].stencil_plane;
    }
    const uint32_t lflags = (d->flags & TR_PASS_SINGLE_BIN ? TR__LAYOUT_SINGLE_BIN : 0u) |
                            (p->fdm ? TR__LAYOUT_FDM : 0u) | (p->fdm_offset ? TR__LAYOUT_FDM_OFFSET : 0u) |
                            (p->fdm && ctx->features.bin_merging ? TR__LAYOUT_FDM_PIPES : 0u);
    tr_result r = tr__bin_layout(ctx, batt, p->att_count, p->area, p->view_count, lflags, &p->layout);
    if (r != TR_OK)
        return r;
    /* b_o per view (tu_bin_offset); a shared viewport cannot shift bins per
     * view, so only the density map's sampling position moves (fdm.h) */
    memset(p->fdm_bo, 0, sizeof p->fdm_bo);
    if (p->fdm_offset && !(d->flags & TR_PASS_FDM_SHARED_VIEWPORT))
        set_bin_offsets(p);
    /* A subsampled attachment of a pass with FDM offsets (made with
     * TR_IMAGE_FDM_OFFSET, as every attachment must be for the offsets to
     * count) is padded by the device's tile alignment, the one its layout
     * pins bins with (src/pass_tile.c subsampled_grid): nothing to refuse,
     * even when a cpp-1 attachment doubles this pass's alignment (turnip
     * renders such a pass). */
    uint32_t bins_per_pipe = p->layout.pipe_w * p->layout.pipe_h;
    p->mask_words = (bins_per_pipe + 31) / 32;
    if (p->mask_words > 64)
        return tr__error(ctx, TR_ERROR_LIMIT_EXCEEDED,
                         "%u bins per VSC pipe (%ux%u bins of %ux%u): the GMEM budget is too small for this "
                         "framebuffer", bins_per_pipe, p->layout.bins_x, p->layout.bins_y, p->layout.bin_w,
                         p->layout.bin_h);
    size_t off = 0, slice = (size_t)p->layout.bin_w * p->layout.bin_h;
    for (uint32_t i = 0; i < p->att_count; i++) {
        p->att[i].gmem_offset = off;
        off += TR_ALIGN(slice * p->att[i].cpp * p->view_count * samples, 64);
    }
    p->tile_bytes = off;
    return TR_OK;
}

/* The least scratch the pass will need (context.h, memory_limit): a GMEM
 * tile for every thread, the depth attachment's LRZ (tr__lrz_bytes), and per bin
 * a tile and its place in the tile list, per pipe and view a stream. */
static uint64_t pass_scratch_bytes(const tr_context *ctx, const tr__pass *p)
{
    const tr_bin_layout *l = &p->layout;
    uint64_t bytes = (uint64_t)ctx->desc.threads * p->tile_bytes;
    if (p->depth_att >= 0 && !(ctx->desc.flags & TR_CONTEXT_NO_LRZ))
        bytes += tr__lrz_bytes(p->fb_w, p->fb_h, p->samples, p->view_count);
    bytes += (uint64_t)l->bins_x * l->bins_y * (sizeof(tr__tile) + sizeof(uint32_t));
    bytes += (uint64_t)l->pipes_x * l->pipes_y * p->view_count * sizeof(tr__stream);
    return bytes;
}

tr_result tr_compute_bin_layout(tr_context *ctx, const tr_render_pass_desc *desc, tr_bin_layout *out)
{
    tr__api_enter(ctx);
    if (!ctx)
        return tr__error(NULL, TR_ERROR_INVALID_ARGUMENT, "tr_compute_bin_layout: ctx is NULL");
    if (!desc || !out)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_compute_bin_layout: %s is NULL", desc ? "out" : "desc");
    tr__pass *tmp = tr__calloc(ctx, sizeof(tr__pass));
    if (!tmp)
        return tr__error(ctx, TR_ERROR_OUT_OF_MEMORY, "tr_compute_bin_layout: out of memory");
    tr_result r = prepare_pass(ctx, desc, tmp);
    if (r == TR_OK)
        *out = tmp->layout;
    tr__free(ctx, tmp);
    return r;
}

void tr__pass_fdm_areas(const tr_context *ctx, const tr__pass *p, bool shared_viewport, tr_extent2d *out)
{
    tr__fdm_offsets off;
    if (p->fdm_offset) {
        memcpy(off.offset, p->fdm_user_offset, sizeof off.offset);
        memcpy(off.bo, p->fdm_bo, sizeof off.bo);
    }
    tr__fdm_bin_areas(ctx, p->desc.density_map.image, p->desc.density_map.base_layer, p->view_ids, p->view_count,
                      &p->layout, p->fb_w, p->fb_h, shared_viewport, p->fdm_offset ? &off : NULL, out);
}

/* The start of every tr_compute_fdm_* call: the arguments, then the pass
 * the descriptor would make (its layout, views and offsets), in *out
 * (tr__free it). */
static tr_result fdm_query(tr_context *ctx, const tr_render_pass_desc *desc, const void *dst, const char *fn,
                           const char *dst_name, tr__pass **out)
{
    *out = NULL;
    if (!ctx)
        return tr__error(NULL, TR_ERROR_INVALID_ARGUMENT, "%s: ctx is NULL", fn);
    if (!desc || !dst)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", fn, desc ? dst_name : "desc");
    if (!desc->density_map.image)
        return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR, "%s: tr_render_pass_desc.density_map.image is NULL (no FDM)",
                         fn);
    tr__pass *tmp = tr__calloc(ctx, sizeof(tr__pass));
    if (!tmp)
        return tr__error(ctx, TR_ERROR_OUT_OF_MEMORY, "%s: out of memory", fn);
    tr_result r = prepare_pass(ctx, desc, tmp);
    if (r != TR_OK) {
        tr__free(ctx, tmp);
        return r;
    }
    tmp->desc = *desc;
    *out = tmp;
    return TR_OK;
}

tr_result tr_compute_fdm_areas(tr_context *ctx, const tr_render_pass_desc *desc, tr_extent2d *areas, size_t count)
{
    tr__api_enter(ctx);
    tr__pass *tmp;
    tr_result r = fdm_query(ctx, desc, areas, "tr_compute_fdm_areas", "areas", &tmp);
    if (r != TR_OK)
        return r;
    const size_t need = (size_t)tmp->layout.bins_x * tmp->layout.bins_y * tmp->view_count;
    if (count < need)
        r = tr__error(ctx, TR_ERROR_OUT_OF_RANGE,
                      "tr_compute_fdm_areas: count = %zu, the pass needs %zu (%u x %u bins, %u view(s))", count, need,
                      tmp->layout.bins_x, tmp->layout.bins_y, tmp->view_count);
    else
        tr__pass_fdm_areas(ctx, tmp, (desc->flags & TR_PASS_FDM_SHARED_VIEWPORT) != 0, areas);
    tr__free(ctx, tmp);
    return r;
}

tr_result tr_compute_fdm_bin_offsets(tr_context *ctx, const tr_render_pass_desc *desc, tr_offset2d *bin_offsets,
                                     size_t count)
{
    tr__api_enter(ctx);
    tr__pass *tmp;
    tr_result r = fdm_query(ctx, desc, bin_offsets, "tr_compute_fdm_bin_offsets", "bin_offsets", &tmp);
    if (r != TR_OK)
        return r;
    if (count < tmp->view_count)
        r = tr__error(ctx, TR_ERROR_OUT_OF_RANGE, "tr_compute_fdm_bin_offsets: count = %zu, the pass has %u view(s)",
                      count, tmp->view_count);
    else
        for (uint32_t v = 0; v < tmp->view_count; v++)
            bin_offsets[v] = (tr_offset2d){tmp->fdm_bo[v][0], tmp->fdm_bo[v][1]};
    tr__free(ctx, tmp);
    return r;
}

tr_result tr_compute_fdm_tiles(tr_context *ctx, const tr_render_pass_desc *desc, tr_fdm_tile *tiles, size_t capacity,
                               size_t *count)
{
    tr__api_enter(ctx);
    tr__pass *tmp;
    tr_result r = fdm_query(ctx, desc, count, "tr_compute_fdm_tiles", "count", &tmp);
    if (r != TR_OK)
        return r;
    const tr_bin_layout *l = &tmp->layout;
    const size_t nbins = (size_t)l->bins_x * l->bins_y;
    const bool shared = (desc->flags & TR_PASS_FDM_SHARED_VIEWPORT) != 0;
    tr_extent2d *areas = tr__alloc(ctx, nbins * tmp->view_count * sizeof *areas);
    tr__tile *t = tr__alloc(ctx, nbins * sizeof *t);
    if (!areas || !t) {
        r = tr__error(ctx, TR_ERROR_OUT_OF_MEMORY, "tr_compute_fdm_tiles: out of memory");
    } else {
        tr__pass_fdm_areas(ctx, tmp, shared, areas);
        tr__bin_tiles_init(l, tmp->area, (const int32_t(*)[2])tmp->fdm_bo, areas, tmp->view_count, t);
        if (ctx->features.bin_merging)
            tr__bin_merge_tiles(l, tmp->view_count, shared, t);
        size_t n = 0;
        for (size_t b = 0; b < nbins; b++) {
            if (t[b].merged != TR__TILE_NONE || !t[b].visible)
                continue;
            if (tiles && n < capacity) {
                tr_fdm_tile *o = &tiles[n];
                memset(o, 0, sizeof *o);
                o->bin_x = t[b].x;
                o->bin_y = t[b].y;
                o->bins_w = t[b].ew;
                o->bins_h = t[b].eh;
                o->gmem_bins_h = t[b].gmem_h;
                o->visible_views = t[b].visible;
                for (uint32_t v = 0; v < tmp->view_count; v++)
                    o->area[v] = t[b].visible & (1u << v) ? t[b].area[v] : (tr_extent2d){0, 0};
            }
            n++;
        }
        *count = n;
        if (tiles && n > capacity)
            r = tr__error(ctx, TR_ERROR_OUT_OF_RANGE, "tr_compute_fdm_tiles: capacity = %zu, the pass renders %zu tiles",
                          capacity, n);
    }
    tr__free(ctx, areas);
    tr__free(ctx, t);
    tr__free(ctx, tmp);
    return r;
}

/* ---- recording ------------------------------------------------------------------------ */

static void set_uses(tr__pass *p, int delta)
{
    for (uint32_t i = 0; i < p->att_count; i++) {
        if (!p->att[i].stencil_plane)
            p->att[i].image->pass_uses += (uint32_t)delta;
        if (p->att[i].resolve)
            p->att[i].resolve->pass_uses += (uint32_t)delta;
    }
    if (p->desc.density_map.image) /* read when the pass ends: held unchanged until then */
        p->desc.density_map.image->pass_uses += (uint32_t)delta;
}

tr_result tr_cmd_begin_render_pass(tr_context *ctx, const tr_render_pass_desc *desc)
{
    tr__api_enter(ctx);
    if (!ctx)
        return tr__error(NULL, TR_ERROR_INVALID_ARGUMENT, "tr_cmd_begin_render_pass: ctx is NULL");
    if (!desc)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_cmd_begin_render_pass: desc is NULL");
    if (ctx->in_pass)
        return tr__error(ctx, TR_ERROR_INVALID_STATE, "tr_cmd_begin_render_pass: a render pass is already recording");
    tr__pass *p = ctx->pass;
    tr_result r = prepare_pass(ctx, desc, p);
    if (r == TR_OK)
        r = tr__check_bytes(ctx, "tr_cmd_begin_render_pass", "the pass's scratch (tile buffers, LRZ, bin tables)",
                            pass_scratch_bytes(ctx, p), true);
    if (r != TR_OK)
        return r;
    p->desc = *desc;
    size_t slots = (size_t)p->view_count * p->layout.pipes_x * p->layout.pipes_y;
    if (slots > p->stream_slots) {
        tr__stream *s = tr__calloc(ctx, slots * sizeof(tr__stream));
        if (!s)
            return tr__error(ctx, TR_ERROR_OUT_OF_MEMORY, "tr_cmd_begin_render_pass: out of memory");
        if (p->streams) {
            memcpy(s, p->streams, p->stream_slots * sizeof(tr__stream));
            tr__free(ctx, p->streams);
        }
        p->streams = s;
        p->stream_slots = slots;
    }
    for (size_t i = 0; i < p->stream_slots; i++)
        p->streams[i].count = 0;
    tr__arena_reset(&p->arena);
    for (uint32_t w = 0; w < p->slot_count; w++)
        tr__arena_reset(&p->slots[w].arena);
    p->draw_count = 0;
    p->tri_count = 0;
    p->failed = false;
    p->fail_code = TR_OK;
    p->pipeline = NULL;
    /* the render area's rectangle (a viewport in the pass's window
     * coordinates, a scissor in the framebuffer's) */
    p->viewport = (tr_viewport){(float)p->area[0],
                                (float)(p->origin_flip ? p->origin_flip - p->area[3] : p->area[1]),
                                (float)(p->area[2] - p->area[0]), (float)(p->area[3] - p->area[1]), 0.0f, 1.0f};
    p->scissor = (tr_rect){p->area[0], p->area[1], (uint32_t)(p->area[2] - p->area[0]),
                           (uint32_t)(p->area[3] - p->area[1])};
    p->stencil_ref[0] = p->stencil_ref[1] = 0;
    memset(p->blend_constants, 0, sizeof(p->blend_constants));
    p->uniforms = NULL;
    p->uniforms_size = 0;
    memset(p->ubo, 0, sizeof p->ubo);
    memset(p->ubo_size, 0, sizeof p->ubo_size);
    memset(p->textures, 0, sizeof(p->textures));
    p->textures_copy = NULL;
    memset(p->feedback, 0, sizeof(p->feedback));
    p->feedback_copy = NULL;
    p->index_buffer = (tr__vertex_buffer){NULL, 0};
    p->index_type = TR_INDEX_U16;
    p->held_count = 0;
    p->fdm_shared_viewport = false;
    memset(&p->stats, 0, sizeof(p->stats));
    p->stats.layout = p->layout;
    r = tr__lrz_begin_pass(ctx, p);
    if (r != TR_OK)
        return r;
    set_uses(p, 1);
    __atomic_store_n(&ctx->mem_peak, __atomic_load_n(&ctx->mem_live, __ATOMIC_RELAXED), __ATOMIC_RELAXED);
    ctx->in_pass = true;
    return TR_OK;
}

/* Marks an object as bound in the recording pass (until it ends). */
static bool hold(tr_context *ctx, uint32_t *uses)
{
    tr__pass *p = ctx->pass;
    if (*uses)
        return true;
    if (!tr__grow(ctx, (void **)&p->held, &p->held_cap, p->held_count + 1, sizeof(uint32_t *)))
        return false;
    *uses = 1;
    p->held[p->held_count++] = uses;
    return true;
}

tr_result tr_cmd_bind_pipeline(tr_context *ctx, tr_pipeline *pipeline)
{
    tr__api_enter(ctx);
    REQUIRE_PASS(ctx, "tr_cmd_bind_pipeline");
    if (!pipeline)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_cmd_bind_pipeline: pipeline is NULL");
    if (pipeline->ctx != ctx)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_cmd_bind_pipeline: pipeline belongs to another context");
    if (!hold(ctx, &pipeline->pass_uses))
        return tr__pass_fail(ctx, "tr_cmd_bind_pipeline");
    ctx->pass->pipeline = pipeline;
    return TR_OK;
}

tr_result tr_cmd_bind_texture(tr_context *ctx, uint32_t slot, const tr_image *image, const tr_sampler *sampler)
{
    tr__api_enter(ctx);
    REQUIRE_PASS(ctx, "tr_cmd_bind_texture");
    tr__pass *p = ctx->pass;
    if (slot >= TR_MAX_TEXTURES)
        return tr__error(ctx, TR_ERROR_OUT_OF_RANGE, "tr_cmd_bind_texture: slot %u is not below %u", slot,
                         TR_MAX_TEXTURES);
    if ((image && image->ctx != ctx) || (sampler && sampler->ctx != ctx))
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_cmd_bind_texture: %s belongs to another context",
                         image && image->ctx != ctx ? "image" : "sampler");
    if (image) {
        const bool compare = sampler && sampler->desc.compare != TR_COMPARE_DEFAULT;
        if (compare && !image->fmt->depth)
            return tr__error(ctx, TR_ERROR_UNSUPPORTED_FORMAT,
                             "tr_cmd_bind_texture: a compare sampler needs a depth image, not %s",
                             image->fmt->name);
        if (image->fmt->is_int && sampler &&
            (sampler->desc.mag_filter != TR_FILTER_NEAREST || sampler->desc.min_filter != TR_FILTER_NEAREST ||
             sampler->desc.mipmap_mode != TR_MIPMAP_NEAREST || sampler->desc.max_anisotropy > 1))
            return tr__error(ctx, TR_ERROR_UNSUPPORTED_FORMAT,
                             "tr_cmd_bind_texture: %s is an integer format: the sampler must filter NEAREST "
                             "(mag_filter, min_filter, mipmap_mode) without anisotropy",
                             image->fmt->name);
        if (image->desc.samples > 1)
            return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR,
                             "tr_cmd_bind_texture: the image has %u samples; a multisampled image cannot be "
                             "sampled", image->desc.samples);
        if (image == p->desc.density_map.image)
            return tr__error(ctx, TR_ERROR_INVALID_STATE,
                             "tr_cmd_bind_texture: the image is this pass's density map (read when the pass ends, "
                             "it cannot be sampled in it)");
        if (image->pass_uses)
            return tr__error(ctx, TR_ERROR_INVALID_STATE,
                             "tr_cmd_bind_texture: the image is an attachment of this pass (it cannot be read "
                             "while the pass draws into it)");
    }
    if (p->failed)
        return tr__error(ctx, p->fail_code, "tr_cmd_bind_texture: an earlier command of this pass failed");
    tr_image *img = (tr_image *)image;       /* only its use counter changes */
    tr_sampler *smp = (tr_sampler *)sampler;
    if ((img && !hold(ctx, &img->texture_uses)) || (smp && !hold(ctx, &smp->pass_uses)))
        return tr__pass_fail(ctx, "tr_cmd_bind_texture");
    p->textures[slot] = (tr_texture_binding){image, image ? sampler : NULL};
    p->textures_copy = NULL;
    return TR_OK;
}

tr_result tr_cmd_bind_feedback_map(tr_context *ctx, uint32_t slot, tr_feedback_map *map)
{
    tr__api_enter(ctx);
    REQUIRE_PASS(ctx, "tr_cmd_bind_feedback_map");
    tr__pass *p = ctx->pass;
    if (slot >= TR_MAX_FEEDBACK_MAPS)
        return tr__error(ctx, TR_ERROR_OUT_OF_RANGE, "tr_cmd_bind_feedback_map: slot %u is not below %u", slot,
                         TR_MAX_FEEDBACK_MAPS);
    if (map && map->ctx != ctx)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_cmd_bind_feedback_map: map belongs to another context");
    if (p->failed)
        return tr__error(ctx, p->fail_code, "tr_cmd_bind_feedback_map: an earlier command of this pass failed");
    if (map && !hold(ctx, &map->pass_uses))
        return tr__pass_fail(ctx, "tr_cmd_bind_feedback_map");
    p->feedback[slot] = map;
    p->feedback_copy = NULL;
    return TR_OK;
}

/* A draw's feedback maps: each slot the pipeline writes needs a map whose
 * size matches an image bound to one of its texture slots (D3D12 pairs the
 * two when the view is made). */
static tr_result check_feedback(tr_context *ctx, const char *fn, const tr__pass *p, const tr_pipeline_desc *pd)
{
    for (uint32_t m = pd->feedback_mask, slot = 0; m; m >>= 1, slot++) {
        if (!(m & 1u))
            continue;
        const tr_feedback_map *map = p->feedback[slot];
        if (!map)
            return tr__error(ctx, TR_ERROR_INVALID_STATE,
                             "%s: the pipeline writes feedback slot %u, which has no map bound", fn, slot);
        bool paired = false;
        for (uint32_t t = 0; t < TR_MAX_TEXTURES && !paired; t++)
            paired = (pd->texture_mask >> t & 1u) && tr__feedback_pairs(map, p->textures[t].image);
        if (!paired)
            return tr__error(ctx, TR_ERROR_INVALID_STATE,
                             "%s: the feedback map in slot %u (%ux%u, %u levels, %u layers) matches no "
                             "non-subsampled texture of the pipeline's texture_mask 0x%x",
                             fn, slot, map->desc.width, map->desc.height, map->desc.levels, map->desc.layers,
                             pd->texture_mask);
    }
    return TR_OK;
}

tr_result tr_cmd_set_viewport(tr_context *ctx, const tr_viewport *vp)
{
    tr__api_enter(ctx);
    REQUIRE_PASS(ctx, "tr_cmd_set_viewport");
    if (!vp)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_cmd_set_viewport: viewport is NULL");
    /* Vulkan's limits: sizes up to 32768, bounds within [-65536, 65536). */
    const float lim = 32768.0f, bound = 65536.0f;
    if (!isfinite(vp->x) || !isfinite(vp->y) || !isfinite(vp->width) || !isfinite(vp->height) ||
        !(vp->width > 0.0f) || vp->width > lim || vp->height == 0.0f || fabsf(vp->height) > lim ||
        fabsf(vp->x) >= bound || fabsf(vp->y) >= bound || fabsf(vp->x + vp->width) > bound ||
        fabsf(vp->y + vp->height) > bound)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT,
                         "tr_cmd_set_viewport: viewport (%g, %g, %g x %g) must be finite, 0 < width <= 32768, "
                         "0 < |height| <= 32768, within +-65536", (double)vp->x, (double)vp->y, (double)vp->width,
                         (double)vp->height);
    if (!isfinite(vp->min_depth) || !isfinite(vp->max_depth) || vp->min_depth < 0.0f || vp->min_depth > 1.0f ||
        vp->max_depth < 0.0f || vp->max_depth > 1.0f)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT,
                         "tr_cmd_set_viewport: min_depth = %g, max_depth = %g must lie in [0, 1]",
                         (double)vp->min_depth, (double)vp->max_depth);
    ctx->pass->viewport = *vp;
    return TR_OK;
}

tr_result tr_cmd_set_scissor(tr_context *ctx, const tr_rect *s)
{
    tr__api_enter(ctx);
    REQUIRE_PASS(ctx, "tr_cmd_set_scissor");
    if (!s)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_cmd_set_scissor: scissor is NULL");
    if (s->x < 0 || s->y < 0)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_cmd_set_scissor: x = %d, y = %d must not be negative",
                         s->x, s->y);
    ctx->pass->scissor = tr__pass_rect_to_fb(ctx->pass, *s);
    return TR_OK;
}

tr_result tr_cmd_set_stencil_reference(tr_context *ctx, uint32_t front, uint32_t back)
{
    tr__api_enter(ctx);
    REQUIRE_PASS(ctx, "tr_cmd_set_stencil_reference");
    ctx->pass->stencil_ref[0] = front;
    ctx->pass->stencil_ref[1] = back;
    return TR_OK;
}

tr_result tr_cmd_set_blend_constants(tr_context *ctx, const float rgba[4])
{
    tr__api_enter(ctx);
    REQUIRE_PASS(ctx, "tr_cmd_set_blend_constants");
    if (!rgba)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_cmd_set_blend_constants: rgba is NULL");
    memcpy(ctx->pass->blend_constants, rgba, sizeof(float) * 4);
    return TR_OK;
}

tr_result tr__pass_fail(tr_context *ctx, const char *what)
{
    ctx->pass->failed = true;
    ctx->pass->fail_code = TR_ERROR_OUT_OF_MEMORY;
    return tr__error(ctx, TR_ERROR_OUT_OF_MEMORY, "%s: out of memory (the pass can only be ended)", what);
}

tr_result tr_cmd_set_uniforms(tr_context *ctx, const void *data, size_t size)
{
    tr__api_enter(ctx);
    REQUIRE_PASS(ctx, "tr_cmd_set_uniforms");
    if (size > TR_MAX_UNIFORM_BYTES)
        return tr__error(ctx, TR_ERROR_LIMIT_EXCEEDED, "tr_cmd_set_uniforms: size %zu exceeds %u", size,
                         TR_MAX_UNIFORM_BYTES);
    if (size && !data)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_cmd_set_uniforms: data is NULL");
    if (ctx->pass->failed)
        return tr__error(ctx, ctx->pass->fail_code, "tr_cmd_set_uniforms: an earlier command of this pass failed");
    if (!size) {
        ctx->pass->uniforms = NULL;
        ctx->pass->uniforms_size = 0;
        return TR_OK;
    }
    void *copy = tr__arena_alloc(ctx, &ctx->pass->arena, size);
    if (!copy)
        return tr__pass_fail(ctx, "tr_cmd_set_uniforms");
    memcpy(copy, data, size);
    ctx->pass->uniforms = copy;
    ctx->pass->uniforms_size = size;
    return TR_OK;
}

tr_result tr_cmd_bind_uniform_buffer(tr_context *ctx, uint32_t binding, const void *data, size_t size)
{
    static const char fn[] = "tr_cmd_bind_uniform_buffer";
    tr__api_enter(ctx);
    REQUIRE_PASS(ctx, "tr_cmd_bind_uniform_buffer");
    tr__pass *p = ctx->pass;
    if (binding >= TR_MAX_UNIFORM_BUFFERS)
        return tr__error(ctx, TR_ERROR_OUT_OF_RANGE, "%s: binding = %u is not below TR_MAX_UNIFORM_BUFFERS (%u)", fn,
                         binding, TR_MAX_UNIFORM_BUFFERS);
    if (size > TR_MAX_UNIFORM_BUFFER_BYTES)
        return tr__error(ctx, TR_ERROR_LIMIT_EXCEEDED, "%s: size = %zu exceeds TR_MAX_UNIFORM_BUFFER_BYTES (%u)", fn,
                         size, TR_MAX_UNIFORM_BUFFER_BYTES);
    if (size && !data)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "%s: data is NULL with size %zu", fn, size);
    if (p->failed)
        return tr__error(ctx, p->fail_code, "%s: an earlier command of this pass failed", fn);
    if (!size) {
        p->ubo[binding] = NULL;
        p->ubo_size[binding] = 0;
        return TR_OK;
    }
    void *copy = tr__arena_alloc(ctx, &p->arena, size);
    if (!copy)
        return tr__pass_fail(ctx, fn);
    memcpy(copy, data, size);
    p->ubo[binding] = copy;
    p->ubo_size[binding] = (uint32_t)size;
    return TR_OK;
}

/* ---- draws ------------------------------------------------------------------------------ */

static uint32_t prim_count(tr_topology t, uint32_t n)
{
    switch (t) {
    case TR_TOPOLOGY_TRIANGLE_LIST: return n / 3;
    case TR_TOPOLOGY_POINT_LIST: return n;
    case TR_TOPOLOGY_LINE_LIST: return n / 2;
    case TR_TOPOLOGY_LINE_STRIP: return n >= 2 ? n - 1 : 0;
    default: return n >= 3 ? n - 2 : 0;
    }
}

static tr_result record_draw(tr_context *ctx, const char *fn, tr__vertex_source src, uint32_t count,
                             uint32_t instance_count, uint32_t first_instance)
{
    tr__pass *p = ctx->pass;
    if (p->failed)
        return tr__error(ctx, p->fail_code, "%s: an earlier command of this pass failed", fn);
    if (!p->pipeline)
        return tr__error(ctx, TR_ERROR_INVALID_STATE, "%s: no pipeline is bound", fn);
    if (count > TR_MAX_DRAW_VERTICES)
        return tr__error(ctx, TR_ERROR_LIMIT_EXCEEDED, "%s: %u vertices exceed TR_MAX_DRAW_VERTICES (%u)", fn, count,
                         TR_MAX_DRAW_VERTICES);
    if ((uint64_t)src.first + count > UINT32_MAX || (uint64_t)first_instance + instance_count > UINT32_MAX)
        return tr__error(ctx, TR_ERROR_OUT_OF_RANGE, "%s: first + count overflows 32 bits", fn);
    if (p->draw_count >= UINT32_MAX)
        return tr__error(ctx, TR_ERROR_LIMIT_EXCEEDED, "%s: too many draws in one pass", fn);
    const tr_pipeline *pl = p->pipeline;
    if (pl->desc.multisample.samples != p->samples)
        return tr__error(ctx, TR_ERROR_INVALID_STATE,
                         "%s: the pipeline rasterizes %u sample(s) but the pass's attachments have %u "
                         "(tr_pipeline_desc.multisample.samples must match)", fn, pl->desc.multisample.samples,
                         p->samples);
    const tr_pipeline_desc *pd = &pl->desc;
    for (uint32_t m = pd->texture_mask, slot = 0; m; m >>= 1, slot++)
        if ((m & 1u) && !p->textures[slot].image)
            return tr__error(ctx, TR_ERROR_INVALID_STATE,
                             "%s: the pipeline samples texture slot %u, which has no image bound", fn, slot);
    const tr_result fbr = check_feedback(ctx, fn, p, pd);
    if (fbr != TR_OK)
        return fbr;
    /* Integer attachments take no blending (Vulkan: no
     * VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BLEND_BIT); checked here, where
     * the pipeline meets the pass's formats. */
    for (uint32_t a = 0; a < p->desc.color_count && a < TR_MAX_COLOR_ATTACHMENTS; a++) {
        const int ai = p->color_att[a];
        if (ai >= 0 && pd->blend[a].enable && tr__format(p->att[ai].format)->is_int)
            return tr__error(ctx, TR_ERROR_UNSUPPORTED_FORMAT,
                             "%s: tr_pipeline_desc.blend[%u].enable: colour attachment %u is %s, an integer "
                             "format, which cannot be blended", fn, a, a, tr_format_name(p->att[ai].format));
    }
    uint32_t prims = prim_count(pd->topology, count);
    tr__fetch fetch;
    tr_result fr = tr__vertex_fetch_prepare(ctx, fn, pd, p->vertex_buffers, &src, count, instance_count,
                                            first_instance, &fetch);
    if (fr != TR_OK)
        return fr;
    src.fetch = &fetch;

    if (!tr__grow(ctx, (void **)&p->draws, &p->draw_cap, p->draw_count + 1, sizeof(tr__draw)))
        return tr__pass_fail(ctx, fn);
    uint32_t draw_index = (uint32_t)p->draw_count++;
    tr__draw *d = &p->draws[draw_index];
    d->pipeline = pl;
    d->clear_atts = 0;
    d->win_offset[0] = d->win_offset[1] = 0;
    d->viewport = p->viewport;
    d->flip_y = p->origin_flip;
    d->flip_sub = p->origin_flip * TR_SUBPIXEL_ONE;
    d->area_scissor[0] = TR_MAX(p->scissor.x, p->area[0]);
    d->area_scissor[1] = TR_MAX(p->scissor.y, p->area[1]);
    d->area_scissor[2] = (int32_t)TR_MIN((int64_t)p->scissor.x + p->scissor.width, (int64_t)p->area[2]);
    d->area_scissor[3] = (int32_t)TR_MIN((int64_t)p->scissor.y + p->scissor.height, (int64_t)p->area[3]);
    tr__draw_scissor(d->area_scissor, &d->viewport, (float)d->flip_y, d->scissor);
    d->fdm = p->fdm;
    d->samples = (uint8_t)p->samples;
    for (int k = 0; k < 4; k++) {
        /* With a density map a coarse fragment (up to 4 pixels a side,
         * aligned to its size) the scissor touches is drawn whole. */
        const int32_t m = (int32_t)TR_FDM_MAX_FRAGMENT_AREA;
        d->bin_scissor[k] = !p->fdm ? d->scissor[k] : k < 2 ? d->scissor[k] & ~(m - 1) : (d->scissor[k] + m - 1) & ~(m - 1);
    }
    if ((pd->flags & TR_PIPELINE_WRITES_VIEWPORT_INDEX) && !p->fdm_shared_viewport) {
        p->fdm_shared_viewport = true;
        bool shifted = false;
        for (uint32_t v = 0; v < p->view_count; v++)
            shifted |= p->fdm_bo[v][0] != 0 || p->fdm_bo[v][1] != 0;
        if (shifted && tr__front_unshift_bins(ctx, p) != TR_OK)
            return tr__pass_fail(ctx, fn);
    }
    d->stencil_ref[0] = p->stencil_ref[0];
    d->stencil_ref[1] = p->stencil_ref[1];
    memcpy(d->blend_constants, p->blend_constants, sizeof(d->blend_constants));
    d->uniforms = p->uniforms;
    if (!p->textures_copy) {
        tr_texture_binding *copy = tr__arena_alloc(ctx, &p->arena, sizeof(p->textures));
        if (!copy)
            return tr__pass_fail(ctx, fn);
        memcpy(copy, p->textures, sizeof(p->textures));
        p->textures_copy = copy;
    }
    d->textures = p->textures_copy;
    if (!p->feedback_copy) {
        tr_feedback_map **copy = tr__arena_alloc(ctx, &p->arena, sizeof(p->feedback));
        if (!copy)
            return tr__pass_fail(ctx, fn);
        memcpy(copy, p->feedback, sizeof(p->feedback));
        p->feedback_copy = copy;
    }
    d->feedback_maps = p->feedback_copy;
    tr__spv_bindings bind = {.push = p->uniforms, .push_size = p->uniforms_size, .samples = p->samples,
                             .flip_y = p->origin_flip != 0};
    memcpy(bind.ubo, p->ubo, sizeof bind.ubo);
    memcpy(bind.ubo_size, p->ubo_size, sizeof bind.ubo_size);
    const tr_result sr = tr__spv_draw_prepare(ctx, fn, &p->arena, pl, &bind, d);
    if (sr != TR_OK) {
        p->draw_count--;
        return sr == TR_ERROR_OUT_OF_MEMORY ? tr__pass_fail(ctx, fn) : sr;
    }
    d->depth_min = TR_MIN(d->viewport.min_depth, d->viewport.max_depth);
    d->depth_max = TR_MAX(d->viewport.min_depth, d->viewport.max_depth);
    d->depth_qmax = p->depth_att >= 0 ? tr__format(p->att[p->depth_att].format)->depth_max : 0u;
    tr__lrz_draw_state(p, d);
    p->stats.draws++;
    if (!prims || !instance_count)
        return TR_OK;
    p->stats.vertex_linear_ids += (uint64_t)fetch.padded_count * instance_count * p->view_count;
    const tr_result fr2 = tr__front_draw(ctx, fn, draw_index, &src, prims, instance_count, first_instance);
    if (fr2 != TR_OK)
        return fr2;
    return tr__spv_draw_check(ctx, fn, &p->draws[draw_index], 1u);
}


tr_result tr_cmd_clear_attachments(tr_context *ctx, uint32_t count, const tr_clear_attachment *atts,
                                   uint32_t rect_count, const tr_rect *rects)
{
    tr__api_enter(ctx);
    static const char fn[] = "tr_cmd_clear_attachments";
    REQUIRE_PASS(ctx, "tr_cmd_clear_attachments");
    tr__pass *p = ctx->pass;
    if (p->failed)
        return tr__error(ctx, p->fail_code, "%s: an earlier command of this pass failed", fn);
    if ((count && !atts) || (rect_count && !rects))
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", fn, !rects ? "rects" : "attachments");
    uint32_t which = 0;
    uint8_t texel[TR__MAX_ATTACHMENTS][16];
    bool depth_cleared = false;
    for (uint32_t i = 0; i < count; i++) {
        const tr_clear_attachment *a = &atts[i];
        if (!a->aspects || (a->aspects & ~(TR_CLEAR_COLOR | TR_CLEAR_DEPTH | TR_CLEAR_STENCIL)) ||
            ((a->aspects & TR_CLEAR_COLOR) && (a->aspects & ~TR_CLEAR_COLOR)))
            return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT,
                             "%s: attachments[%u].aspects = 0x%x: COLOR alone, or DEPTH and/or STENCIL", fn, i,
                             a->aspects);
        if (a->aspects & TR_CLEAR_COLOR) {
            if (a->color_attachment >= p->desc.color_count)
                return tr__error(ctx, TR_ERROR_OUT_OF_RANGE, "%s: attachments[%u].color_attachment = %u, the pass has %u",
                                 fn, i, a->color_attachment, p->desc.color_count);
            int ai = p->color_att[a->color_attachment];
            if (ai < 0)
                continue; /* an unused slot: ignored, as in Vulkan */
            tr__color_encode(ctx, p->att[ai].format, a->color, texel[ai]);
            which |= 1u << ai;
            continue;
        }
        if ((a->aspects & TR_CLEAR_DEPTH) && p->depth_att < 0)
            return tr__error(ctx, TR_ERROR_INVALID_STATE, "%s: attachments[%u] clears depth, the pass has none", fn, i);
        if ((a->aspects & TR_CLEAR_STENCIL) && p->stencil_att < 0)
            return tr__error(ctx, TR_ERROR_INVALID_STATE, "%s: attachments[%u] clears stencil, the pass has none", fn,
                             i);
        if (a->aspects & TR_CLEAR_DEPTH) {
            if (!(a->depth >= 0.0f && a->depth <= 1.0f))
                return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "%s: attachments[%u].depth = %g is outside [0, 1]", fn,
                                 i, (double)a->depth);
            const float cz = tr__depth_quantise(p->att[p->depth_att].image->fmt->depth_max, a->depth);
            memcpy(texel[p->depth_att], &cz, 4);
            which |= 1u << p->depth_att;
            depth_cleared = true;
        }
        if (a->aspects & TR_CLEAR_STENCIL) {
            texel[p->stencil_att][0] = (uint8_t)(a->stencil & 0xff);
            which |= 1u << p->stencil_att;
        }
    }
    for (uint32_t k = 0; k < rect_count; k++) {
        const tr_rect fr = tr__pass_rect_to_fb(p, rects[k]), *r = &fr;
        if (!r->width || !r->height)
            return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "%s: rects[%u] is empty", fn, k);
        if (r->x < p->area[0] || r->y < p->area[1] || (int64_t)r->x + r->width > p->area[2] ||
            (int64_t)r->y + r->height > p->area[3])
            return tr__error(ctx, TR_ERROR_OUT_OF_RANGE, "%s: rects[%u] (%d,%d %ux%u) is outside the render area", fn,
                             k, r->x, r->y, r->width, r->height);
    }
    if (p->draw_count >= UINT32_MAX)
        return tr__error(ctx, TR_ERROR_LIMIT_EXCEEDED, "%s: too many commands in one pass", fn);
    if (!which || !rect_count)
        return TR_OK;
    if (!tr__grow(ctx, (void **)&p->draws, &p->draw_cap, p->draw_count + 1, sizeof(tr__draw)))
        return tr__pass_fail(ctx, fn);
    uint32_t draw_index = (uint32_t)p->draw_count++;
    tr__draw *d = &p->draws[draw_index];
    memset(d, 0, sizeof(*d));
    d->clear_atts = which;
    d->win_offset[0] = d->win_offset[1] = 0;
    memcpy(d->clear_texel, texel, sizeof(texel));
    if (depth_cleared && p->lrz.buf)
        p->lrz.invalid = true; /* turnip: invalid until the next LOAD_OP_CLEAR */
    /* One "triangle" per rectangle and view: no edges (every centre is
     * inside), the rectangle as its bounding box. */
    for (uint32_t vs = 0; vs < p->view_count; vs++)
        for (uint32_t k = 0; k < rect_count; k++) {
            tr__tri *t = tr__arena_alloc(ctx, &p->arena, sizeof(tr__tri) + sizeof(float) * TR_TRI_ATTR_FLOATS(0));
            if (!t || !tr__grow(ctx, (void **)&p->tris, &p->tri_cap, p->tri_count + 1, sizeof(tr__tri *)) ||
                !tr__grow(ctx, (void **)&p->lrz_cand, &p->lrz_cand_cap, p->tri_count + 1, 1))
                return tr__pass_fail(ctx, fn);
            p->lrz_cand[p->tri_count] = 0; /* clears write no LRZ (they may invalidate it) */
            memset(t, 0, sizeof(*t) + sizeof(float) * TR_TRI_ATTR_FLOATS(0));
            const tr_rect r = tr__pass_rect_to_fb(p, rects[k]);
            t->bbox[0] = r.x;
            t->bbox[1] = r.y;
            t->bbox[2] = r.x + (int32_t)r.width;
            t->bbox[3] = r.y + (int32_t)r.height;
            t->draw = draw_index;
            t->primitive = k;
            t->view = (uint16_t)p->view_ids[vs];
            p->tris[p->tri_count] = t;
            int entries = tr__bin_triangle(ctx, p, t, (uint32_t)p->tri_count, vs);
            if (entries < 0)
                return tr__pass_fail(ctx, fn);
            p->tri_count++;
        }
    return TR_OK;
}

tr_result tr_cmd_bind_vertex_buffer(tr_context *ctx, uint32_t binding, const void *data, size_t size,
                                    size_t offset)
{
    tr__api_enter(ctx);
    REQUIRE_PASS(ctx, "tr_cmd_bind_vertex_buffer");
    if (binding >= TR_MAX_VERTEX_BINDINGS)
        return tr__error(ctx, TR_ERROR_OUT_OF_RANGE, "tr_cmd_bind_vertex_buffer: binding %u is not below %u", binding,
                         TR_MAX_VERTEX_BINDINGS);
    if (!data && size)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_cmd_bind_vertex_buffer: data is NULL with size %zu",
                         size);
    if (offset > size)
        return tr__error(ctx, TR_ERROR_OUT_OF_RANGE,
                         "tr_cmd_bind_vertex_buffer: offset %zu is past the buffer's %zu bytes", offset, size);
    tr__vertex_buffer *b = &ctx->pass->vertex_buffers[binding];
    b->data = data ? (const uint8_t *)data + offset : NULL;
    b->size = data ? size - offset : 0;
    return TR_OK;
}

tr_result tr_cmd_draw(tr_context *ctx, uint32_t vertex_count, uint32_t instance_count, uint32_t first_vertex,
                      uint32_t first_instance)
{
    tr__api_enter(ctx);
    REQUIRE_PASS(ctx, "tr_cmd_draw");
    tr__vertex_source src = {.indices = NULL, .first = first_vertex};
    return record_draw(ctx, "tr_cmd_draw", src, vertex_count, instance_count, first_instance);
}

tr_result tr_cmd_bind_index_buffer(tr_context *ctx, const void *data, size_t size, size_t offset, tr_index_type type)
{
    tr__api_enter(ctx);
    REQUIRE_PASS(ctx, "tr_cmd_bind_index_buffer");
    if (!data && size)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_cmd_bind_index_buffer: data is NULL with size %zu", size);
    if ((unsigned)type > TR_INDEX_U32)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_cmd_bind_index_buffer: type = %d is not a tr_index_type",
                         (int)type);
    if (offset > size)
        return tr__error(ctx, TR_ERROR_OUT_OF_RANGE,
                         "tr_cmd_bind_index_buffer: offset %zu is past the buffer's %zu bytes", offset, size);
    tr__pass *p = ctx->pass;
    p->index_buffer.data = data ? (const uint8_t *)data + offset : NULL;
    p->index_buffer.size = data ? size - offset : 0;
    p->index_type = type;
    return TR_OK;
}

tr_result tr_cmd_draw_indexed(tr_context *ctx, uint32_t index_count, uint32_t instance_count, uint32_t first_index,
                              int32_t vertex_offset, uint32_t first_instance)
{
    tr__api_enter(ctx);
    REQUIRE_PASS(ctx, "tr_cmd_draw_indexed");
    const tr__pass *p = ctx->pass;
    if (!p->index_buffer.data)
        return tr__error(ctx, TR_ERROR_INVALID_STATE, "tr_cmd_draw_indexed: no index buffer is bound");
    const uint64_t isize = p->index_type == TR_INDEX_U16 ? 2 : 4;
    const uint64_t have = p->index_buffer.size / isize;
    if ((uint64_t)first_index + index_count > have)
        return tr__error(ctx, TR_ERROR_OUT_OF_RANGE,
                         "tr_cmd_draw_indexed: indices [%u, %llu) run past the bound buffer's %llu indices",
                         first_index, (unsigned long long)first_index + index_count, (unsigned long long)have);
    tr__vertex_source src = {.indices = p->index_buffer.data, .index_type = p->index_type, .first = first_index,
                             .vertex_offset = vertex_offset};
    return record_draw(ctx, "tr_cmd_draw_indexed", src, index_count, instance_count, first_instance);
}

/* After a failed pass: give back the bulk of what recording grew (the
 * triangle arenas and the visibility streams), so that memory the failure
 * took does not stay held against tr_context_desc.memory_limit. */
void tr__pass_release_recording(tr_context *ctx, tr__pass *p)
{
    tr__arena_release(ctx, &p->arena);
    for (uint32_t w = 0; w < p->slot_count; w++)
        tr__arena_release(ctx, &p->slots[w].arena);
    for (size_t i = 0; i < p->stream_slots; i++) {
        tr__free(ctx, p->streams[i].words);
        p->streams[i] = (tr__stream){NULL, 0, 0};
    }
}

void tr__pass_end_state(tr_context *ctx)
{
    set_uses(ctx->pass, -1);
    for (size_t i = 0; i < ctx->pass->held_count; i++)
        *ctx->pass->held[i] = 0;
    ctx->pass->held_count = 0;
    ctx->in_pass = false;
}

void tr__pass_release(tr_context *ctx)
{
    tr__pass *p = ctx->pass;
    if (p) {
        tr__pass_release_recording(ctx, p); /* arenas and stream words */
        tr__free(ctx, p->streams);
        tr__free(ctx, p->draws);
        tr__free(ctx, p->tris);
        tr__free(ctx, p->vtx);
        for (uint32_t w = 0; w < p->slot_count; w++) {
            tr__free(ctx, p->slots[w].vtx);
            tr__free(ctx, p->slots[w].bins);
            tr__free(ctx, p->slots[w].sorted);
        }
        tr__free(ctx, p->slots);
        tr__free(ctx, p->lrz_cand);
        tr__free(ctx, p->fdm_areas);
        tr__free(ctx, p->tiles);
        tr__free(ctx, p->tile_list);
        tr__free(ctx, p->ss_tiles);
        tr__free(ctx, p->held);
        tr__free(ctx, p->lrz.part_mask);
        tr__free(ctx, p->lrz.part_bound);
    }
    tr__pass_release_workers(ctx);
}

