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

/* ---- recording ------------------------------------------------------------------------ */

/* Marks an object as bound in the recording pass (until it ends). */
static bool hold(tr_context *ctx, uint32_t *uses)
{
    tr__pass *p = ctx->pass;
    if (*uses)
        return true;
    if (!tr__grow(ctx, (void **)&p->bound.held, &p->bound.held_cap, p->bound.held_count + 1, sizeof(uint32_t *)))
        return false;
    *uses = 1;
    p->bound.held[p->bound.held_count++] = uses;
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
    ctx->pass->bound.pipeline = pipeline;
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
        if (image == p->plan.desc.density_map.image)
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
    p->bound.textures[slot] = (tr_texture_binding){image, image ? sampler : NULL};
    p->bound.textures_copy = NULL;
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
    p->bound.feedback[slot] = map;
    p->bound.feedback_copy = NULL;
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
        const tr_feedback_map *map = p->bound.feedback[slot];
        if (!map)
            return tr__error(ctx, TR_ERROR_INVALID_STATE,
                             "%s: the pipeline writes feedback slot %u, which has no map bound", fn, slot);
        bool paired = false;
        for (uint32_t t = 0; t < TR_MAX_TEXTURES && !paired; t++)
            paired = (pd->texture_mask >> t & 1u) && tr__feedback_pairs(map, p->bound.textures[t].image);
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
    ctx->pass->bound.viewport = *vp;
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
    ctx->pass->bound.scissor = tr__plan_rect_to_fb(&ctx->pass->plan, *s);
    return TR_OK;
}

tr_result tr_cmd_set_stencil_reference(tr_context *ctx, uint32_t front, uint32_t back)
{
    tr__api_enter(ctx);
    REQUIRE_PASS(ctx, "tr_cmd_set_stencil_reference");
    ctx->pass->bound.stencil_ref[0] = front;
    ctx->pass->bound.stencil_ref[1] = back;
    return TR_OK;
}

tr_result tr_cmd_set_blend_constants(tr_context *ctx, const float rgba[4])
{
    tr__api_enter(ctx);
    REQUIRE_PASS(ctx, "tr_cmd_set_blend_constants");
    if (!rgba)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_cmd_set_blend_constants: rgba is NULL");
    memcpy(ctx->pass->bound.blend_constants, rgba, sizeof(float) * 4);
    return TR_OK;
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
        ctx->pass->bound.uniforms = NULL;
        ctx->pass->bound.uniforms_size = 0;
        return TR_OK;
    }
    void *copy = tr__arena_alloc(ctx, &ctx->pass->rec.arena, size);
    if (!copy)
        return tr__pass_fail(ctx, "tr_cmd_set_uniforms");
    memcpy(copy, data, size);
    ctx->pass->bound.uniforms = copy;
    ctx->pass->bound.uniforms_size = size;
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
        p->bound.ubo[binding] = NULL;
        p->bound.ubo_size[binding] = 0;
        return TR_OK;
    }
    void *copy = tr__arena_alloc(ctx, &p->rec.arena, size);
    if (!copy)
        return tr__pass_fail(ctx, fn);
    memcpy(copy, data, size);
    p->bound.ubo[binding] = copy;
    p->bound.ubo_size[binding] = (uint32_t)size;
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
    if (!p->bound.pipeline)
        return tr__error(ctx, TR_ERROR_INVALID_STATE, "%s: no pipeline is bound", fn);
    if (count > TR_MAX_DRAW_VERTICES)
        return tr__error(ctx, TR_ERROR_LIMIT_EXCEEDED, "%s: %u vertices exceed TR_MAX_DRAW_VERTICES (%u)", fn, count,
                         TR_MAX_DRAW_VERTICES);
    if ((uint64_t)src.first + count > UINT32_MAX || (uint64_t)first_instance + instance_count > UINT32_MAX)
        return tr__error(ctx, TR_ERROR_OUT_OF_RANGE, "%s: first + count overflows 32 bits", fn);
    if (p->rec.draw_count >= UINT32_MAX)
        return tr__error(ctx, TR_ERROR_LIMIT_EXCEEDED, "%s: too many draws in one pass", fn);
    const tr_pipeline *pl = p->bound.pipeline;
    if (pl->desc.multisample.samples != p->plan.samples)
        return tr__error(ctx, TR_ERROR_INVALID_STATE,
                         "%s: the pipeline rasterizes %u sample(s) but the pass's attachments have %u "
                         "(tr_pipeline_desc.multisample.samples must match)", fn, pl->desc.multisample.samples,
                         p->plan.samples);
    const tr_pipeline_desc *pd = &pl->desc;
    for (uint32_t m = pd->texture_mask, slot = 0; m; m >>= 1, slot++)
        if ((m & 1u) && !p->bound.textures[slot].image)
            return tr__error(ctx, TR_ERROR_INVALID_STATE,
                             "%s: the pipeline samples texture slot %u, which has no image bound", fn, slot);
    const tr_result fbr = check_feedback(ctx, fn, p, pd);
    if (fbr != TR_OK)
        return fbr;
    /* Integer attachments take no blending (Vulkan: no
     * VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BLEND_BIT); checked here, where
     * the pipeline meets the pass's formats. */
    for (uint32_t a = 0; a < p->plan.desc.color_count && a < TR_MAX_COLOR_ATTACHMENTS; a++) {
        const int ai = p->plan.color_att[a];
        if (ai >= 0 && pd->blend[a].enable && tr__format(p->plan.att[ai].format)->is_int)
            return tr__error(ctx, TR_ERROR_UNSUPPORTED_FORMAT,
                             "%s: tr_pipeline_desc.blend[%u].enable: colour attachment %u is %s, an integer "
                             "format, which cannot be blended", fn, a, a, tr_format_name(p->plan.att[ai].format));
    }
    uint32_t prims = prim_count(pd->topology, count);
    tr__fetch fetch;
    tr_result fr = tr__vertex_fetch_prepare(ctx, fn, pd, p->bound.vertex_buffers, &src, count, instance_count,
                                            first_instance, &fetch);
    if (fr != TR_OK)
        return fr;
    src.fetch = &fetch;

    if (!tr__grow(ctx, (void **)&p->rec.draws, &p->rec.draw_cap, p->rec.draw_count + 1, sizeof(tr__draw)))
        return tr__pass_fail(ctx, fn);
    uint32_t draw_index = (uint32_t)p->rec.draw_count++;
    tr__draw *d = &p->rec.draws[draw_index];
    d->pipeline = pl;
    d->clear_atts = 0;
    d->win_offset[0] = d->win_offset[1] = 0;
    d->viewport = p->bound.viewport;
    d->flip_y = p->plan.origin_flip;
    d->flip_sub = p->plan.origin_flip * TR_SUBPIXEL_ONE;
    d->area_scissor[0] = TR_MAX(p->bound.scissor.x, p->plan.area[0]);
    d->area_scissor[1] = TR_MAX(p->bound.scissor.y, p->plan.area[1]);
    d->area_scissor[2] = (int32_t)TR_MIN((int64_t)p->bound.scissor.x + p->bound.scissor.width, (int64_t)p->plan.area[2]);
    d->area_scissor[3] = (int32_t)TR_MIN((int64_t)p->bound.scissor.y + p->bound.scissor.height, (int64_t)p->plan.area[3]);
    tr__draw_scissor(d->area_scissor, &d->viewport, (float)d->flip_y, d->scissor);
    d->fdm = p->plan.fdm;
    d->samples = (uint8_t)p->plan.samples;
    for (int k = 0; k < 4; k++) {
        /* With a density map a coarse fragment (up to 4 pixels a side,
         * aligned to its size) the scissor touches is drawn whole. */
        const int32_t m = (int32_t)TR_FDM_MAX_FRAGMENT_AREA;
        d->bin_scissor[k] = !p->plan.fdm ? d->scissor[k] : k < 2 ? d->scissor[k] & ~(m - 1) : (d->scissor[k] + m - 1) & ~(m - 1);
    }
    if ((pd->flags & TR_PIPELINE_WRITES_VIEWPORT_INDEX) && !p->rec.fdm_shared_viewport) {
        p->rec.fdm_shared_viewport = true;
        bool shifted = false;
        for (uint32_t v = 0; v < p->plan.view_count; v++)
            shifted |= p->rec.bo[v][0] != 0 || p->rec.bo[v][1] != 0;
        if (shifted && tr__front_unshift_bins(ctx, p) != TR_OK)
            return tr__pass_fail(ctx, fn);
    }
    d->stencil_ref[0] = p->bound.stencil_ref[0];
    d->stencil_ref[1] = p->bound.stencil_ref[1];
    memcpy(d->blend_constants, p->bound.blend_constants, sizeof(d->blend_constants));
    d->uniforms = p->bound.uniforms;
    if (!p->bound.textures_copy) {
        tr_texture_binding *copy = tr__arena_alloc(ctx, &p->rec.arena, sizeof(p->bound.textures));
        if (!copy)
            return tr__pass_fail(ctx, fn);
        memcpy(copy, p->bound.textures, sizeof(p->bound.textures));
        p->bound.textures_copy = copy;
    }
    d->textures = p->bound.textures_copy;
    if (!p->bound.feedback_copy) {
        tr_feedback_map **copy = tr__arena_alloc(ctx, &p->rec.arena, sizeof(p->bound.feedback));
        if (!copy)
            return tr__pass_fail(ctx, fn);
        memcpy(copy, p->bound.feedback, sizeof(p->bound.feedback));
        p->bound.feedback_copy = copy;
    }
    d->feedback_maps = p->bound.feedback_copy;
    tr__spv_bindings bind = {.push = p->bound.uniforms, .push_size = p->bound.uniforms_size, .samples = p->plan.samples,
                             .flip_y = p->plan.origin_flip != 0};
    memcpy(bind.ubo, p->bound.ubo, sizeof bind.ubo);
    memcpy(bind.ubo_size, p->bound.ubo_size, sizeof bind.ubo_size);
    const tr_result sr = tr__spv_draw_prepare(ctx, fn, &p->rec.arena, pl, &bind, d);
    if (sr != TR_OK) {
        p->rec.draw_count--;
        return sr == TR_ERROR_OUT_OF_MEMORY ? tr__pass_fail(ctx, fn) : sr;
    }
    d->depth_min = TR_MIN(d->viewport.min_depth, d->viewport.max_depth);
    d->depth_max = TR_MAX(d->viewport.min_depth, d->viewport.max_depth);
    d->depth_qmax = p->plan.depth_att >= 0 ? tr__format(p->plan.att[p->plan.depth_att].format)->depth_max : 0u;
    tr__lrz_draw_state(&p->plan, &p->lrz, d);
    p->stats.draws++;
    if (!prims || !instance_count)
        return TR_OK;
    p->stats.vertex_linear_ids += (uint64_t)fetch.padded_count * instance_count * p->plan.view_count;
    const tr_result fr2 = tr__front_draw(ctx, fn, draw_index, &src, prims, instance_count, first_instance);
    if (fr2 != TR_OK)
        return fr2;
    return tr__spv_draw_check(ctx, fn, &p->rec.draws[draw_index], 1u);
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
            if (a->color_attachment >= p->plan.desc.color_count)
                return tr__error(ctx, TR_ERROR_OUT_OF_RANGE, "%s: attachments[%u].color_attachment = %u, the pass has %u",
                                 fn, i, a->color_attachment, p->plan.desc.color_count);
            int ai = p->plan.color_att[a->color_attachment];
            if (ai < 0)
                continue; /* an unused slot: ignored, as in Vulkan */
            tr__color_encode(ctx, p->plan.att[ai].format, a->color, texel[ai]);
            which |= 1u << ai;
            continue;
        }
        if ((a->aspects & TR_CLEAR_DEPTH) && p->plan.depth_att < 0)
            return tr__error(ctx, TR_ERROR_INVALID_STATE, "%s: attachments[%u] clears depth, the pass has none", fn, i);
        if ((a->aspects & TR_CLEAR_STENCIL) && p->plan.stencil_att < 0)
            return tr__error(ctx, TR_ERROR_INVALID_STATE, "%s: attachments[%u] clears stencil, the pass has none", fn,
                             i);
        if (a->aspects & TR_CLEAR_DEPTH) {
            if (!(a->depth >= 0.0f && a->depth <= 1.0f))
                return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "%s: attachments[%u].depth = %g is outside [0, 1]", fn,
                                 i, (double)a->depth);
            const float cz = tr__depth_quantise(p->plan.att[p->plan.depth_att].image->fmt->depth_max, a->depth);
            memcpy(texel[p->plan.depth_att], &cz, 4);
            which |= 1u << p->plan.depth_att;
            depth_cleared = true;
        }
        if (a->aspects & TR_CLEAR_STENCIL) {
            texel[p->plan.stencil_att][0] = (uint8_t)(a->stencil & 0xff);
            which |= 1u << p->plan.stencil_att;
        }
    }
    for (uint32_t k = 0; k < rect_count; k++) {
        const tr_rect fr = tr__plan_rect_to_fb(&p->plan, rects[k]), *r = &fr;
        if (!r->width || !r->height)
            return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "%s: rects[%u] is empty", fn, k);
        if (r->x < p->plan.area[0] || r->y < p->plan.area[1] || (int64_t)r->x + r->width > p->plan.area[2] ||
            (int64_t)r->y + r->height > p->plan.area[3])
            return tr__error(ctx, TR_ERROR_OUT_OF_RANGE, "%s: rects[%u] (%d,%d %ux%u) is outside the render area", fn,
                             k, r->x, r->y, r->width, r->height);
    }
    if (p->rec.draw_count >= UINT32_MAX)
        return tr__error(ctx, TR_ERROR_LIMIT_EXCEEDED, "%s: too many commands in one pass", fn);
    if (!which || !rect_count)
        return TR_OK;
    if (!tr__grow(ctx, (void **)&p->rec.draws, &p->rec.draw_cap, p->rec.draw_count + 1, sizeof(tr__draw)))
        return tr__pass_fail(ctx, fn);
    uint32_t draw_index = (uint32_t)p->rec.draw_count++;
    tr__draw *d = &p->rec.draws[draw_index];
    memset(d, 0, sizeof(*d));
    d->clear_atts = which;
    d->win_offset[0] = d->win_offset[1] = 0;
    memcpy(d->clear_texel, texel, sizeof(texel));
    if (depth_cleared && p->lrz.buf)
        p->lrz.invalid = true; /* turnip: invalid until the next LOAD_OP_CLEAR */
    /* One "triangle" per rectangle and view: no edges (every centre is
     * inside), the rectangle as its bounding box. */
    for (uint32_t vs = 0; vs < p->plan.view_count; vs++)
        for (uint32_t k = 0; k < rect_count; k++) {
            tr__tri *t = tr__arena_alloc(ctx, &p->rec.arena, sizeof(tr__tri) + sizeof(float) * TR_TRI_ATTR_FLOATS(0));
            if (!t || !tr__grow(ctx, (void **)&p->rec.tris, &p->rec.tri_cap, p->rec.tri_count + 1, sizeof(tr__tri *)) ||
                !tr__grow(ctx, (void **)&p->rec.lrz_cand, &p->rec.lrz_cand_cap, p->rec.tri_count + 1, 1))
                return tr__pass_fail(ctx, fn);
            p->rec.lrz_cand[p->rec.tri_count] = 0; /* clears write no LRZ (they may invalidate it) */
            memset(t, 0, sizeof(*t) + sizeof(float) * TR_TRI_ATTR_FLOATS(0));
            const tr_rect r = tr__plan_rect_to_fb(&p->plan, rects[k]);
            t->bbox[0] = r.x;
            t->bbox[1] = r.y;
            t->bbox[2] = r.x + (int32_t)r.width;
            t->bbox[3] = r.y + (int32_t)r.height;
            t->draw = draw_index;
            t->primitive = k;
            t->view = (uint16_t)p->plan.view_ids[vs];
            p->rec.tris[p->rec.tri_count] = t;
            int entries = tr__bin_triangle(ctx, &p->plan, &p->rec, t, (uint32_t)p->rec.tri_count, vs);
            if (entries < 0)
                return tr__pass_fail(ctx, fn);
            p->rec.tri_count++;
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
    tr__vertex_buffer *b = &ctx->pass->bound.vertex_buffers[binding];
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
    p->bound.index_buffer.data = data ? (const uint8_t *)data + offset : NULL;
    p->bound.index_buffer.size = data ? size - offset : 0;
    p->bound.index_type = type;
    return TR_OK;
}

tr_result tr_cmd_draw_indexed(tr_context *ctx, uint32_t index_count, uint32_t instance_count, uint32_t first_index,
                              int32_t vertex_offset, uint32_t first_instance)
{
    tr__api_enter(ctx);
    REQUIRE_PASS(ctx, "tr_cmd_draw_indexed");
    const tr__pass *p = ctx->pass;
    if (!p->bound.index_buffer.data)
        return tr__error(ctx, TR_ERROR_INVALID_STATE, "tr_cmd_draw_indexed: no index buffer is bound");
    const uint64_t isize = p->bound.index_type == TR_INDEX_U16 ? 2 : 4;
    const uint64_t have = p->bound.index_buffer.size / isize;
    if ((uint64_t)first_index + index_count > have)
        return tr__error(ctx, TR_ERROR_OUT_OF_RANGE,
                         "tr_cmd_draw_indexed: indices [%u, %llu) run past the bound buffer's %llu indices",
                         first_index, (unsigned long long)first_index + index_count, (unsigned long long)have);
    tr__vertex_source src = {.indices = p->bound.index_buffer.data, .index_type = p->bound.index_type, .first = first_index,
                             .vertex_offset = vertex_offset};
    return record_draw(ctx, "tr_cmd_draw_indexed", src, index_count, instance_count, first_instance);
}
