/* tilerast executor: the pass plan (pass_plan.h) and the tr_compute_*
 * queries, which make one on the stack.
 *
 * tr__pass_plan_make checks the descriptor in the order its rules are
 * documented (limits and flags, colour attachments, depth, resolve images,
 * render area, density map, subsampled attachments), reports the first rule
 * broken, and only when all hold fills the plan: attachments, density map,
 * then the bin layout and GMEM placement (turnip's tiling, src/bin). */
#include <math.h>
#include <stdio.h>

#include "bin/bin_internal.h"
#include "fdm/fdm_internal.h"
#include "lrz/lrz_internal.h"
#include "pass_plan.h"

/* ---- validation ----------------------------------------------------------------- */

static bool valid_load(tr_load_op op) { return (unsigned)op <= TR_LOAD_OP_DONT_CARE; }
static bool valid_store(tr_store_op op) { return (unsigned)op <= TR_STORE_OP_DONT_CARE; }

/* The framebuffer the attachments agree on: size and sample count (0 until
 * the first attachment). */
typedef struct plan_fb {
    uint32_t w, h, samples;
} plan_fb;

static tr_result check_view(tr_context *ctx, const tr_image *img, uint32_t level, uint32_t base_layer,
                            uint32_t layers_needed, const char *name, plan_fb *fb)
{
    if (img->ctx != ctx)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "%s.image belongs to another context", name);
    /* one sample count for every attachment (multisample.h) */
    if (fb->samples && img->desc.samples != fb->samples)
        return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR,
                         "%s has %u sample(s) but the other attachments have %u (a pass's attachments share one "
                         "sample count)", name, img->desc.samples, fb->samples);
    fb->samples = img->desc.samples;
    if (level >= img->desc.levels)
        return tr__error(ctx, TR_ERROR_OUT_OF_RANGE, "%s.level = %u but the image has %u level(s)", name, level,
                         img->desc.levels);
    if ((uint64_t)base_layer + layers_needed > img->desc.layers)
        return tr__error(ctx, TR_ERROR_OUT_OF_RANGE,
                         "%s: layers %u..%u are needed but the image has %u layer(s)", name, base_layer,
                         base_layer + layers_needed - 1, img->desc.layers);
    uint32_t lw = TR_MAX(1u, img->desc.width >> level), lh = TR_MAX(1u, img->desc.height >> level);
    if (fb->w == 0) {
        fb->w = lw;
        fb->h = lh;
    } else if (lw != fb->w || lh != fb->h) {
        return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR,
                         "%s is %ux%u but the other attachments are %ux%u", name, lw, lh, fb->w, fb->h);
    }
    return TR_OK;
}

/* Colour attachment i is used: in range and with an image. */
static bool has_color(const tr_render_pass_desc *d, uint32_t i)
{
    return i < d->color_count && d->color[i].image;
}

/* Vulkan: the attachments of a subpass may not alias (renderpass.h,
 * "Aliasing"); other levels or layers of one image are other
 * subresources.  The earlier colour attachment whose subresources colour
 * attachment i overlaps (each spans `layers` layers), or -1. */
static int aliased_colour(const tr_render_pass_desc *d, uint32_t i, uint32_t layers)
{
    const tr_color_attachment *c = &d->color[i];
    for (uint32_t j = 0; j < i; j++) {
        const tr_color_attachment *o = &d->color[j];
        if (has_color(d, j) && o->image == c->image && o->level == c->level &&
            o->base_layer < c->base_layer + layers && c->base_layer < o->base_layer + layers)
            return (int)j;
    }
    return -1;
}

/* Is img one of the pass's attachments, or the resolve image of a colour
 * attachment below `resolves_below`? */
static bool is_attachment_or_resolve(const tr_render_pass_desc *d, const tr_image *img, uint32_t resolves_below)
{
    if (d->depth.image == img)
        return true;
    for (uint32_t j = 0; j < TR_MAX_COLOR_ATTACHMENTS; j++)
        if (has_color(d, j) && (d->color[j].image == img || (j < resolves_below && d->color[j].resolve_image == img)))
            return true;
    return false;
}

static tr_result check_colors(tr_context *ctx, const tr_render_pass_desc *d, uint32_t layers_needed, plan_fb *fb)
{
    char name[64];
    for (uint32_t i = 0; i < TR_MAX_COLOR_ATTACHMENTS; i++) {
        const tr_color_attachment *c = &d->color[i];
        if (!has_color(d, i))
            continue;
        snprintf(name, sizeof(name), "tr_render_pass_desc.color[%u]", i);
        if (!tr__format_is_color(c->image->desc.format))
            return tr__error(ctx, TR_ERROR_UNSUPPORTED_FORMAT, "%s: %s is not a colour format", name,
                             c->image->fmt->name);
        if (!valid_load(c->load_op) || !valid_store(c->store_op))
            return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "%s: load_op or store_op is not a valid op", name);
        tr_result r = check_view(ctx, c->image, c->level, c->base_layer, layers_needed, name, fb);
        if (r != TR_OK)
            return r;
        const int j = aliased_colour(d, i, layers_needed);
        if (j >= 0)
            return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR,
                             "%s.image is also color[%d].image, at the same level (%u) with overlapping layers "
                             "(%u.. and %d..): attachments may not alias", name, j, c->level, c->base_layer,
                             (int)d->color[j].base_layer);
    }
    return TR_OK;
}

static tr_result check_depth(tr_context *ctx, const tr_render_pass_desc *d, uint32_t layers_needed, plan_fb *fb)
{
    const tr_depth_attachment *ds = &d->depth;
    if (!ds->image)
        return TR_OK;
    const char *dn = "tr_render_pass_desc.depth";
    if (!ds->image->fmt->depth)
        return tr__error(ctx, TR_ERROR_UNSUPPORTED_FORMAT, "%s: %s is not a depth format", dn, ds->image->fmt->name);
    if (!valid_load(ds->depth_load_op) || !valid_store(ds->depth_store_op) || !valid_load(ds->stencil_load_op) ||
        !valid_store(ds->stencil_store_op))
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "%s: a load or store op is not valid", dn);
    if (!isfinite(ds->clear_depth) || ds->clear_depth < 0.0f || ds->clear_depth > 1.0f)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "%s.clear_depth = %g is outside [0, 1]", dn,
                         (double)ds->clear_depth);
    return check_view(ctx, ds->image, ds->level, ds->base_layer, layers_needed, dn, fb);
}

/* Resolve images (multisample.h). */
static tr_result check_resolves(tr_context *ctx, const tr_render_pass_desc *d, uint32_t layers_needed,
                                const plan_fb *fb)
{
    char name[64];
    for (uint32_t i = 0; i < TR_MAX_COLOR_ATTACHMENTS; i++) {
        const tr_color_attachment *c = &d->color[i];
        if (!has_color(d, i)) {
            if (i < d->color_count && c->resolve_image)
                return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR,
                                 "tr_render_pass_desc.color[%u].resolve_image without an image to resolve", i);
            continue;
        }
        const tr_image *ri = c->resolve_image;
        if (!ri)
            continue;
        snprintf(name, sizeof(name), "tr_render_pass_desc.color[%u].resolve_image", i);
        if (ri->ctx != ctx)
            return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "%s belongs to another context", name);
        if (fb->samples == 1)
            return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR,
                             "%s: the attachment has one sample; only a multisampled one resolves", name);
        if (ri->desc.samples != 1)
            return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR, "%s has %u samples: a resolve image has one", name,
                             ri->desc.samples);
        if (ri->desc.format != c->image->desc.format)
            return tr__error(ctx, TR_ERROR_UNSUPPORTED_FORMAT, "%s is %s but the attachment is %s (they must match)",
                             name, ri->fmt->name, c->image->fmt->name);
        if (c->resolve_level >= ri->desc.levels)
            return tr__error(ctx, TR_ERROR_OUT_OF_RANGE, "%s: resolve_level = %u but the image has %u level(s)", name,
                             c->resolve_level, ri->desc.levels);
        if ((uint64_t)c->resolve_base_layer + layers_needed > ri->desc.layers)
            return tr__error(ctx, TR_ERROR_OUT_OF_RANGE, "%s: layers %u..%u are needed but the image has %u layer(s)",
                             name, c->resolve_base_layer, c->resolve_base_layer + layers_needed - 1, ri->desc.layers);
        const uint32_t rw = TR_MAX(1u, ri->desc.width >> c->resolve_level),
                       rh = TR_MAX(1u, ri->desc.height >> c->resolve_level);
        if (rw != fb->w || rh != fb->h)
            return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR, "%s is %ux%u but the attachments are %ux%u", name, rw,
                             rh, fb->w, fb->h);
        if (is_attachment_or_resolve(d, ri, i))
            return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR,
                             "%s is also an attachment or another resolve image of the pass", name);
    }
    return TR_OK;
}

/* The render area (all of the framebuffer when empty) in the framebuffer's
 * rows: x0, y0, x1, y1. */
static tr_result check_area(tr_context *ctx, const tr_render_pass_desc *d, const plan_fb *fb, int32_t area[4])
{
    tr_rect ra = d->render_area;
    if (ra.width == 0 || ra.height == 0)
        ra = (tr_rect){0, 0, fb->w, fb->h};
    if (ra.x < 0 || ra.y < 0 || (uint64_t)ra.x + ra.width > fb->w || (uint64_t)ra.y + ra.height > fb->h)
        return tr__error(ctx, TR_ERROR_OUT_OF_RANGE,
                         "tr_render_pass_desc.render_area (%d,%d %ux%u) is outside the %ux%u framebuffer", ra.x,
                         ra.y, ra.width, ra.height, fb->w, fb->h);
    /* GL's lower-left origin: rectangles arrive in window coordinates */
    if (d->flags & TR_PASS_ORIGIN_LOWER_LEFT)
        ra.y = (int32_t)fb->h - ra.y - (int32_t)ra.height;
    area[0] = ra.x;
    area[1] = ra.y;
    area[2] = ra.x + (int32_t)ra.width;
    area[3] = ra.y + (int32_t)ra.height;
    return TR_OK;
}

/* The density map's offsets (fdm.h, "FDM offset"): their count, range
 * and granularity. */
static tr_result check_offsets(tr_context *ctx, const tr_render_pass_desc *d, uint32_t layers_needed)
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
    return TR_OK;
}

static tr_result check_density_map(tr_context *ctx, const tr_render_pass_desc *d, uint32_t layers_needed)
{
    const tr_image *map = d->density_map.image;
    if (!map) {
        if (d->density_map.offset_count)
            return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR,
                             "tr_render_pass_desc.density_map.offset_count = %u without a density map image",
                             d->density_map.offset_count);
        return TR_OK;
    }
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
    if (is_attachment_or_resolve(d, map, TR_MAX_COLOR_ATTACHMENTS))
        return tr__error(ctx, TR_ERROR_INVALID_STATE,
                         "%s.image is also an attachment or resolve image of the pass (a density map is only read)",
                         mn);
    if (d->flags & TR_PASS_SINGLE_BIN)
        return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR,
                         "%s with TR_PASS_SINGLE_BIN: a fragment density map needs bins (as on the hardware)", mn);
    return check_offsets(ctx, d, layers_needed);
}

/* Subsampled colour attachments (subsample.h): stored in subsampled space,
 * which needs a density map and bins over the whole framebuffer. */
static bool any_subsampled(const tr_render_pass_desc *d)
{
    for (uint32_t i = 0; i < TR_MAX_COLOR_ATTACHMENTS; i++)
        if (has_color(d, i) && (d->color[i].image->desc.flags & TR_IMAGE_SUBSAMPLED))
            return true;
    return false;
}

static tr_result check_subsampled(tr_context *ctx, const tr_render_pass_desc *d, const plan_fb *fb,
                                  const int32_t area[4])
{
    if (!any_subsampled(d))
        return TR_OK;
    if (!d->density_map.image)
        return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR,
                         "tr_render_pass_desc.color: a TR_IMAGE_SUBSAMPLED attachment needs a density map");
    if (area[0] || area[1] || area[2] != (int32_t)fb->w || area[3] != (int32_t)fb->h)
        return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR,
                         "tr_render_pass_desc.render_area: a pass with a TR_IMAGE_SUBSAMPLED attachment renders "
                         "the whole %ux%u framebuffer", fb->w, fb->h);
    return TR_OK;
}

/* ---- filling the plan ----------------------------------------------------------- */

static void fill_attachments(tr_context *ctx, const tr_render_pass_desc *d, tr__pass_plan *plan)
{
    plan->att_count = 0;
    plan->depth_att = plan->stencil_att = -1;
    for (uint32_t i = 0; i < TR_MAX_COLOR_ATTACHMENTS; i++) {
        plan->color_att[i] = -1;
        if (!has_color(d, i))
            continue;
        const tr_color_attachment *c = &d->color[i];
        tr__attachment_state *a = &plan->att[plan->att_count];
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
        a->resolve = (tr_image *)c->resolve_image;
        if (a->resolve) {
            a->resolve_level = c->resolve_level;
            a->resolve_base_layer = c->resolve_base_layer;
        }
        plan->color_att[i] = (int)plan->att_count++;
    }
    const tr_depth_attachment *ds = &d->depth;
    if (!ds->image)
        return;
    tr__attachment_state *a = &plan->att[plan->att_count];
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
    plan->depth_att = (int)plan->att_count++;
    if (ds->image->fmt->stencil) {
        a = &plan->att[plan->att_count];
        *a = plan->att[plan->depth_att];
        a->cpp = 1;
        a->stencil_plane = true;
        a->load = ds->stencil_load_op;
        a->store = ds->stencil_store_op;
        memset(a->clear_texel, 0, sizeof(a->clear_texel));
        a->clear_texel[0] = (uint8_t)(ds->clear_stencil & 0xff);
        plan->stencil_att = (int)plan->att_count++;
    }
}

/* Whether the pass honours the density map's offsets, and each view
 * slot's.  Vulkan asks every attachment and the map to be created with the
 * offset flag; here a pass that lacks it on any of them ignores its
 * offsets, as if they were (0, 0) (fdm.h). */
static void fill_density_map(const tr_render_pass_desc *d, tr__pass_plan *plan)
{
    const tr_density_map *m = &d->density_map;
    plan->fdm = m->image != NULL;
    if (!plan->fdm || m->offset_count == 0)
        return;
    bool flagged = (m->image->desc.flags & TR_IMAGE_FDM_OFFSET) != 0;
    for (uint32_t i = 0; i < plan->att_count; i++)
        flagged &= (plan->att[i].image->desc.flags & TR_IMAGE_FDM_OFFSET) != 0;
    if (!flagged)
        return;
    plan->fdm_offset = true;
    for (uint32_t v = 0; v < plan->view_count; v++)
        plan->fdm_user_offset[v] = m->offsets[plan->view_ids[v]];
}

/* Turnip's tiling (src/bin): the bin grid and VSC pipes, each view's bin
 * offset b_o, and each attachment's slice of a GMEM tile. */
static tr_result place_in_gmem(tr_context *ctx, const tr_render_pass_desc *d, tr__pass_plan *plan)
{
    tr__bin_att batt[TR__MAX_ATTACHMENTS];
    for (uint32_t i = 0; i < plan->att_count; i++) {
        /* a tile holds every sample: bytes per pixel times samples, as
         * turnip counts cpp (REFERENCE.md section 5) */
        batt[i].cpp = plan->att[i].cpp * plan->samples;
        batt[i].separate_stencil = plan->att[i].stencil_plane;
    }
    const uint32_t lflags = (d->flags & TR_PASS_SINGLE_BIN ? TR__LAYOUT_SINGLE_BIN : 0u) |
                            (plan->fdm ? TR__LAYOUT_FDM : 0u) | (plan->fdm_offset ? TR__LAYOUT_FDM_OFFSET : 0u) |
                            (plan->fdm && ctx->features.bin_merging ? TR__LAYOUT_FDM_PIPES : 0u);
    tr_result r = tr__bin_layout(ctx, batt, plan->att_count, plan->area, plan->view_count, lflags, &plan->layout);
    if (r != TR_OK)
        return r;
    /* b_o per view (tu_bin_offset); a shared viewport cannot shift bins per
     * view, so only the density map's sampling position moves (fdm.h) */
    if (plan->fdm_offset && !(d->flags & TR_PASS_FDM_SHARED_VIEWPORT)) {
        const tr_extent2d bin = {plan->layout.bin_w, plan->layout.bin_h};
        for (uint32_t v = 0; v < plan->view_count; v++) {
            const tr_offset2d bo = tr_fdm_bin_offset(plan->fdm_user_offset[v], bin);
            plan->fdm_bo[v][0] = bo.x;
            plan->fdm_bo[v][1] = bo.y;
        }
    }
    /* A subsampled attachment of a pass with FDM offsets (made with
     * TR_IMAGE_FDM_OFFSET, as every attachment must be for the offsets to
     * count) is padded by the device's tile alignment, the one its layout
     * pins bins with (src/pass_tile.c subsampled_grid): nothing to refuse,
     * even when a cpp-1 attachment doubles this pass's alignment (turnip
     * renders such a pass). */
    const tr_bin_layout *l = &plan->layout;
    const uint32_t bins_per_pipe = l->pipe_w * l->pipe_h;
    plan->mask_words = (bins_per_pipe + 31) / 32;
    plan->bin_w_inv = tr__div_small_inv(l->bin_w);
    plan->bin_h_inv = tr__div_small_inv(l->bin_h);
    plan->pipe_w_inv = tr__div_small_inv(l->pipe_w);
    plan->pipe_h_inv = tr__div_small_inv(l->pipe_h);
    if (plan->mask_words > 64)
        return tr__error(ctx, TR_ERROR_LIMIT_EXCEEDED,
                         "%u bins per VSC pipe (%ux%u bins of %ux%u): the GMEM budget is too small for this "
                         "framebuffer", bins_per_pipe, l->bins_x, l->bins_y, l->bin_w, l->bin_h);
    size_t off = 0, slice = (size_t)l->bin_w * l->bin_h;
    for (uint32_t i = 0; i < plan->att_count; i++) {
        plan->att[i].gmem_offset = off;
        off += TR_ALIGN(slice * plan->att[i].cpp * plan->view_count * plan->samples, 64);
    }
    plan->tile_bytes = off;
    return TR_OK;
}

tr_result tr__pass_plan_make(tr_context *ctx, const tr_render_pass_desc *d, tr__pass_plan *plan)
{
    if (d->color_count > TR_MAX_COLOR_ATTACHMENTS)
        return tr__error(ctx, TR_ERROR_LIMIT_EXCEEDED, "tr_render_pass_desc.color_count = %u exceeds %u",
                         d->color_count, TR_MAX_COLOR_ATTACHMENTS);
    if (d->view_mask >> TR_MAX_VIEWS)
        return tr__error(ctx, TR_ERROR_LIMIT_EXCEEDED,
                         "tr_render_pass_desc.view_mask = 0x%x: views above %u are not supported", d->view_mask,
                         TR_MAX_VIEWS - 1);
    if (d->flags & ~(TR_PASS_SINGLE_BIN | TR_PASS_NO_LRZ | TR_PASS_FDM_SHARED_VIEWPORT | TR_PASS_ORIGIN_LOWER_LEFT))
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_render_pass_desc.flags = 0x%x has unknown bits", d->flags);
    /* the views' layers: up to the highest view of the mask */
    const uint32_t mask = d->view_mask ? d->view_mask : 1u;
    const uint32_t layers_needed = 32u - (uint32_t)__builtin_clz(mask);
    plan_fb fb = {0, 0, 0};
    int32_t area[4];
    tr_result r = check_colors(ctx, d, layers_needed, &fb);
    if (r == TR_OK)
        r = check_depth(ctx, d, layers_needed, &fb);
    if (r == TR_OK && fb.w == 0)
        r = tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR, "tr_render_pass_desc has no attachment");
    if (r == TR_OK)
        r = check_resolves(ctx, d, layers_needed, &fb);
    if (r == TR_OK)
        r = check_area(ctx, d, &fb, area);
    if (r == TR_OK)
        r = check_density_map(ctx, d, layers_needed);
    if (r == TR_OK)
        r = check_subsampled(ctx, d, &fb, area);
    if (r != TR_OK)
        return r;

    /* The descriptor is valid: fill the plan. */
    memset(plan, 0, sizeof *plan);
    plan->desc = *d;
    for (uint32_t i = 0; i < TR_MAX_VIEWS; i++)
        if (mask & (1u << i))
            plan->view_ids[plan->view_count++] = i;
    plan->fb_w = fb.w;
    plan->fb_h = fb.h;
    plan->samples = fb.samples;
    plan->origin_flip = (d->flags & TR_PASS_ORIGIN_LOWER_LEFT) ? (int32_t)fb.h : 0;
    memcpy(plan->area, area, sizeof plan->area);
    fill_attachments(ctx, d, plan);
    plan->subsampled = any_subsampled(d);
    fill_density_map(d, plan);
    return place_in_gmem(ctx, d, plan);
}

void tr__pass_plan_fdm_areas(const tr_context *ctx, const tr__pass_plan *plan, bool shared_viewport,
                             tr_extent2d *out)
{
    tr__fdm_offsets off;
    if (plan->fdm_offset) {
        memcpy(off.offset, plan->fdm_user_offset, sizeof off.offset);
        memcpy(off.bo, plan->fdm_bo, sizeof off.bo);
    }
    tr__fdm_bin_areas(ctx, plan->desc.density_map.image, plan->desc.density_map.base_layer, plan->view_ids,
                      plan->view_count, &plan->layout, plan->fb_w, plan->fb_h, shared_viewport,
                      plan->fdm_offset ? &off : NULL, out);
}

/* ---- the queries ---------------------------------------------------------------- */

tr_result tr_compute_bin_layout(tr_context *ctx, const tr_render_pass_desc *desc, tr_bin_layout *out)
{
    tr__api_enter(ctx);
    if (!ctx)
        return tr__error(NULL, TR_ERROR_INVALID_ARGUMENT, "tr_compute_bin_layout: ctx is NULL");
    if (!desc || !out)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_compute_bin_layout: %s is NULL", desc ? "out" : "desc");
    tr__pass_plan plan;
    tr_result r = tr__pass_plan_make(ctx, desc, &plan);
    if (r == TR_OK)
        *out = plan.layout;
    return r;
}

/* The start of every tr_compute_fdm_* call: the arguments, then the plan
 * the descriptor makes (its layout, views and offsets). */
static tr_result fdm_query(tr_context *ctx, const tr_render_pass_desc *desc, const void *dst, const char *fn,
                           const char *dst_name, tr__pass_plan *plan)
{
    if (!ctx)
        return tr__error(NULL, TR_ERROR_INVALID_ARGUMENT, "%s: ctx is NULL", fn);
    if (!desc || !dst)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", fn, desc ? dst_name : "desc");
    if (!desc->density_map.image)
        return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR, "%s: tr_render_pass_desc.density_map.image is NULL (no FDM)",
                         fn);
    return tr__pass_plan_make(ctx, desc, plan);
}

tr_result tr_compute_fdm_areas(tr_context *ctx, const tr_render_pass_desc *desc, tr_extent2d *areas, size_t count)
{
    tr__api_enter(ctx);
    tr__pass_plan plan;
    tr_result r = fdm_query(ctx, desc, areas, "tr_compute_fdm_areas", "areas", &plan);
    if (r != TR_OK)
        return r;
    const size_t need = (size_t)plan.layout.bins_x * plan.layout.bins_y * plan.view_count;
    if (count < need)
        return tr__error(ctx, TR_ERROR_OUT_OF_RANGE,
                         "tr_compute_fdm_areas: count = %zu, the pass needs %zu (%u x %u bins, %u view(s))", count,
                         need, plan.layout.bins_x, plan.layout.bins_y, plan.view_count);
    tr__pass_plan_fdm_areas(ctx, &plan, (desc->flags & TR_PASS_FDM_SHARED_VIEWPORT) != 0, areas);
    return TR_OK;
}

tr_result tr_compute_fdm_bin_offsets(tr_context *ctx, const tr_render_pass_desc *desc, tr_offset2d *bin_offsets,
                                     size_t count)
{
    tr__api_enter(ctx);
    tr__pass_plan plan;
    tr_result r = fdm_query(ctx, desc, bin_offsets, "tr_compute_fdm_bin_offsets", "bin_offsets", &plan);
    if (r != TR_OK)
        return r;
    if (count < plan.view_count)
        return tr__error(ctx, TR_ERROR_OUT_OF_RANGE,
                         "tr_compute_fdm_bin_offsets: count = %zu, the pass has %u view(s)", count, plan.view_count);
    for (uint32_t v = 0; v < plan.view_count; v++)
        bin_offsets[v] = (tr_offset2d){plan.fdm_bo[v][0], plan.fdm_bo[v][1]};
    return TR_OK;
}

tr_result tr_compute_fdm_tiles(tr_context *ctx, const tr_render_pass_desc *desc, tr_fdm_tile *tiles, size_t capacity,
                               size_t *count)
{
    tr__api_enter(ctx);
    tr__pass_plan plan;
    tr_result r = fdm_query(ctx, desc, count, "tr_compute_fdm_tiles", "count", &plan);
    if (r != TR_OK)
        return r;
    const tr_bin_layout *l = &plan.layout;
    const size_t nbins = (size_t)l->bins_x * l->bins_y;
    const bool shared = (desc->flags & TR_PASS_FDM_SHARED_VIEWPORT) != 0;
    tr_extent2d *areas = tr__alloc(ctx, nbins * plan.view_count * sizeof *areas);
    tr__tile *t = tr__alloc(ctx, nbins * sizeof *t);
    if (!areas || !t) {
        r = tr__error(ctx, TR_ERROR_OUT_OF_MEMORY, "tr_compute_fdm_tiles: out of memory");
    } else {
        tr__pass_plan_fdm_areas(ctx, &plan, shared, areas);
        tr__bin_tiles_init(l, plan.area, (const int32_t(*)[2])plan.fdm_bo, areas, plan.view_count, t);
        if (ctx->features.bin_merging)
            tr__bin_merge_tiles(l, plan.view_count, shared, t);
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
                for (uint32_t v = 0; v < plan.view_count; v++)
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
    return r;
}
