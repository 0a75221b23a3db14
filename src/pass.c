/* tilerast: the render-pass executor.
 *
 * Drives the stages the way a tiler's driver does.  tr_cmd_begin_render_pass
 * picks the bin grid and VSC pipes from the attachments and the GMEM budget.
 * Each draw runs the vertex stage (shade, clip), triangle setup and the
 * binning pass at once, appending to per-(view, pipe) visibility streams.
 * tr_cmd_end_render_pass renders every bin inside a per-thread GMEM tile
 * buffer (load, walk the bin's stream in submission order, store), bins in
 * parallel with OpenMP. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <math.h>
#include <stdio.h>
#include <time.h>

#ifdef TILERAST_HAVE_OPENMP
#include <omp.h>
#endif

#include "bin/bin_internal.h"
#include "lrz/lrz_internal.h"
#include "pass.h"
#include "raster/raster_internal.h"
#include "vertex/vertex_internal.h"

/* Primitives assembled per vertex-shading chunk. */

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* ---- validation and attachments ------------------------------------------------ */

static bool valid_load(tr_load_op op) { return (unsigned)op <= TR_LOAD_OP_DONT_CARE; }
static bool valid_store(tr_store_op op) { return (unsigned)op <= TR_STORE_OP_DONT_CARE; }

static tr_result check_view(tr_context *ctx, const tr_image *img, uint32_t level, uint32_t base_layer,
                            uint32_t layers_needed, const char *name, uint32_t *w, uint32_t *h)
{
    if (img->ctx != ctx)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "%s.image belongs to another context", name);
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
    if (d->flags & ~(TR_PASS_SINGLE_BIN | TR_PASS_NO_LRZ))
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_render_pass_desc.flags = 0x%x has unknown bits", d->flags);
    p->view_count = 0;
    uint32_t mask = d->view_mask ? d->view_mask : 1u;
    for (uint32_t i = 0; i < TR_MAX_VIEWS; i++)
        if (mask & (1u << i))
            p->view_ids[p->view_count++] = i;
    uint32_t layers_needed = p->view_ids[p->view_count - 1] + 1;
    uint32_t w = 0, h = 0;
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
        tr_result r = check_view(ctx, c->image, c->level, c->base_layer, layers_needed, name, &w, &h);
        if (r != TR_OK)
            return r;
        tr__attachment_state *a = &p->att[p->att_count];
        memset(a, 0, sizeof(*a));
        a->image = c->image;
        a->level = c->level;
        a->base_layer = c->base_layer;
        a->format = c->image->desc.format;
        a->cpp = c->image->fmt->texel;
        a->load = c->load_op;
        a->store = c->store_op;
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
        tr_result r = check_view(ctx, ds->image, ds->level, ds->base_layer, layers_needed, dn, &w, &h);
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
        memcpy(a->clear_texel, &ds->clear_depth, 4);
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
    tr_rect ra = d->render_area;
    if (ra.width == 0 || ra.height == 0)
        ra = (tr_rect){0, 0, w, h};
    if (ra.x < 0 || ra.y < 0 || (uint64_t)ra.x + ra.width > w || (uint64_t)ra.y + ra.height > h)
        return tr__error(ctx, TR_ERROR_OUT_OF_RANGE,
                         "tr_render_pass_desc.render_area (%d,%d %ux%u) is outside the %ux%u framebuffer", ra.x,
                         ra.y, ra.width, ra.height, w, h);
    p->area[0] = ra.x;
    p->area[1] = ra.y;
    p->area[2] = ra.x + (int32_t)ra.width;
    p->area[3] = ra.y + (int32_t)ra.height;

    tr__bin_att batt[TR__MAX_ATTACHMENTS];
    for (uint32_t i = 0; i < p->att_count; i++) {
        batt[i].cpp = p->att[i].cpp;
        batt[i].separate_stencil = p->att[i].stencil_plane;
    }
    tr_result r = tr__bin_layout(ctx, batt, p->att_count, p->area, p->view_count,
                                 (d->flags & TR_PASS_SINGLE_BIN) != 0, &p->layout);
    if (r != TR_OK)
        return r;
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
        off += TR_ALIGN(slice * p->att[i].cpp * p->view_count, 64);
    }
    p->tile_bytes = off;
    return TR_OK;
}

tr_result tr_compute_bin_layout(tr_context *ctx, const tr_render_pass_desc *desc, tr_bin_layout *out)
{
    if (!ctx)
        return TR_ERROR_INVALID_ARGUMENT;
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

/* ---- recording ------------------------------------------------------------------------ */

static void set_uses(tr__pass *p, int delta)
{
    for (uint32_t i = 0; i < p->att_count; i++)
        if (!p->att[i].stencil_plane)
            p->att[i].image->pass_uses += (uint32_t)delta;
}

tr_result tr_cmd_begin_render_pass(tr_context *ctx, const tr_render_pass_desc *desc)
{
    if (!ctx)
        return TR_ERROR_INVALID_ARGUMENT;
    if (!desc)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_cmd_begin_render_pass: desc is NULL");
    if (ctx->in_pass)
        return tr__error(ctx, TR_ERROR_INVALID_STATE, "tr_cmd_begin_render_pass: a render pass is already recording");
    tr__pass *p = ctx->pass;
    tr_result r = prepare_pass(ctx, desc, p);
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
    p->viewport = (tr_viewport){(float)p->area[0], (float)p->area[1], (float)(p->area[2] - p->area[0]),
                                (float)(p->area[3] - p->area[1]), 0.0f, 1.0f};
    p->scissor = (tr_rect){p->area[0], p->area[1], (uint32_t)(p->area[2] - p->area[0]),
                           (uint32_t)(p->area[3] - p->area[1])};
    p->stencil_ref[0] = p->stencil_ref[1] = 0;
    memset(p->blend_constants, 0, sizeof(p->blend_constants));
    p->uniforms = NULL;
    memset(p->textures, 0, sizeof(p->textures));
    p->textures_copy = NULL;
    p->index_buffer = (tr__vertex_buffer){NULL, 0};
    p->index_type = TR_INDEX_U16;
    p->held_count = 0;
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

#define REQUIRE_PASS(ctx, fn)                                                                      \
    do {                                                                                           \
        if (!(ctx))                                                                                \
            return TR_ERROR_INVALID_ARGUMENT;                                                      \
        if (!(ctx)->in_pass)                                                                       \
            return tr__error((ctx), TR_ERROR_INVALID_STATE, fn ": no render pass is recording");   \
    } while (0)

static tr_result fail(tr_context *ctx, const char *what);

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
    REQUIRE_PASS(ctx, "tr_cmd_bind_pipeline");
    if (!pipeline)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_cmd_bind_pipeline: pipeline is NULL");
    if (pipeline->ctx != ctx)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_cmd_bind_pipeline: pipeline belongs to another context");
    if (!hold(ctx, &pipeline->pass_uses))
        return fail(ctx, "tr_cmd_bind_pipeline");
    ctx->pass->pipeline = pipeline;
    return TR_OK;
}

tr_result tr_cmd_bind_texture(tr_context *ctx, uint32_t slot, const tr_image *image, const tr_sampler *sampler)
{
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
        if (image->pass_uses)
            return tr__error(ctx, TR_ERROR_INVALID_STATE,
                             "tr_cmd_bind_texture: the image is an attachment of this pass (it cannot be read "
                             "while the pass draws into it)");
    }
    if (p->failed)
        return p->fail_code;
    tr_image *img = (tr_image *)image;       /* only its use counter changes */
    tr_sampler *smp = (tr_sampler *)sampler;
    if ((img && !hold(ctx, &img->texture_uses)) || (smp && !hold(ctx, &smp->pass_uses)))
        return fail(ctx, "tr_cmd_bind_texture");
    p->textures[slot] = (tr_texture_binding){image, image ? sampler : NULL};
    p->textures_copy = NULL;
    return TR_OK;
}

tr_result tr_cmd_set_viewport(tr_context *ctx, const tr_viewport *vp)
{
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
    REQUIRE_PASS(ctx, "tr_cmd_set_scissor");
    if (!s)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_cmd_set_scissor: scissor is NULL");
    if (s->x < 0 || s->y < 0)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_cmd_set_scissor: x = %d, y = %d must not be negative",
                         s->x, s->y);
    ctx->pass->scissor = *s;
    return TR_OK;
}

tr_result tr_cmd_set_stencil_reference(tr_context *ctx, uint32_t front, uint32_t back)
{
    REQUIRE_PASS(ctx, "tr_cmd_set_stencil_reference");
    ctx->pass->stencil_ref[0] = front;
    ctx->pass->stencil_ref[1] = back;
    return TR_OK;
}

tr_result tr_cmd_set_blend_constants(tr_context *ctx, const float rgba[4])
{
    REQUIRE_PASS(ctx, "tr_cmd_set_blend_constants");
    if (!rgba)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_cmd_set_blend_constants: rgba is NULL");
    memcpy(ctx->pass->blend_constants, rgba, sizeof(float) * 4);
    return TR_OK;
}

static tr_result fail(tr_context *ctx, const char *what)
{
    ctx->pass->failed = true;
    ctx->pass->fail_code = TR_ERROR_OUT_OF_MEMORY;
    return tr__error(ctx, TR_ERROR_OUT_OF_MEMORY, "%s: out of memory (the pass can only be ended)", what);
}

tr_result tr_cmd_set_uniforms(tr_context *ctx, const void *data, size_t size)
{
    REQUIRE_PASS(ctx, "tr_cmd_set_uniforms");
    if (size > TR_MAX_UNIFORM_BYTES)
        return tr__error(ctx, TR_ERROR_LIMIT_EXCEEDED, "tr_cmd_set_uniforms: size %zu exceeds %u", size,
                         TR_MAX_UNIFORM_BYTES);
    if (size && !data)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_cmd_set_uniforms: data is NULL");
    if (ctx->pass->failed)
        return ctx->pass->fail_code;
    if (!size) {
        ctx->pass->uniforms = NULL;
        return TR_OK;
    }
    void *copy = tr__arena_alloc(ctx, &ctx->pass->arena, size);
    if (!copy)
        return fail(ctx, "tr_cmd_set_uniforms");
    memcpy(copy, data, size);
    ctx->pass->uniforms = copy;
    return TR_OK;
}

/* ---- draws ------------------------------------------------------------------------------ */

static uint32_t prim_count(tr_topology t, uint32_t n)
{
    if (t == TR_TOPOLOGY_TRIANGLE_LIST)
        return n / 3;
    return n >= 3 ? n - 2 : 0;
}

/* Stream positions of triangle `i` (Vulkan's ordering; the first is the provoking vertex). */
static inline void prim_positions(tr_topology t, uint32_t i, uint32_t pos[3])
{
    switch (t) {
    case TR_TOPOLOGY_TRIANGLE_STRIP:
        pos[0] = i;
        pos[1] = i + 1 + (i & 1);
        pos[2] = i + 2 - (i & 1);
        break;
    case TR_TOPOLOGY_TRIANGLE_FAN:
        pos[0] = i + 1;
        pos[1] = i + 2;
        pos[2] = 0;
        break;
    default:
        pos[0] = 3 * i;
        pos[1] = 3 * i + 1;
        pos[2] = 3 * i + 2;
        break;
    }
}

_Static_assert(TR_FRONT_PIECES == TR_CLIP_MAX_VERTS - 2, "a slot holds every piece clipping can make");

/* Clips and sets up one assembled triangle into `arena`, appending the
 * pieces to out[] (at most TR_FRONT_PIECES).  Returns the number of pieces,
 * or -1 when the arena cannot grow.  Touches nothing shared: the parallel
 * front end runs it on several threads. */
static int setup_triangle(tr_context *ctx, tr__arena *arena, const tr__draw *d, uint32_t draw_index,
                          const float *v[3], uint32_t instance, uint32_t prim, uint16_t view, float gb_x, float gb_y,
                          float *clipbuf, float *flatbuf, tr__tri **out, setup_counts *sc)
{
    const tr_pipeline_desc *pd = &d->pipeline->desc;
    const uint32_t stride = 4 + 4 * pd->varying_count;
    sc->in++;
    if (tr__vertex_nonfinite(v[0]) || tr__vertex_nonfinite(v[1]) || tr__vertex_nonfinite(v[2])) {
        sc->culled++;
        sc->nonfinite++;
        return 0;
    }
    const float *in[3] = {v[0], v[1], v[2]};
    if (pd->flat_mask) {
        /* Flat varyings take the provoking (first) vertex's values everywhere. */
        for (int i = 1; i < 3; i++) {
            float *f = flatbuf + (size_t)(i - 1) * stride;
            memcpy(f, v[i], stride * sizeof(float));
            for (uint32_t k = 0; k < pd->varying_count; k++)
                if ((pd->flat_mask >> k) & 1)
                    memcpy(f + 4 + 4 * k, v[0] + 4 + 4 * k, 4 * sizeof(float));
            in[i] = f;
        }
    }
    bool clipped;
    tr__clip_poly poly;
    uint32_t n = tr__vertex_clip(in, stride, gb_x, gb_y, clipbuf, &poly, &clipped);
    if (clipped)
        sc->clipped++;
    int made = 0;
    for (uint32_t i = 1; i + 1 < n; i++) {
        const float *tv[3] = {clipbuf, clipbuf + (size_t)i * stride, clipbuf + (size_t)(i + 1) * stride};
        const double *ex[3] = {poly.exact[0] ? poly.pos[0] : NULL, poly.exact[i] ? poly.pos[i] : NULL,
                               poly.exact[i + 1] ? poly.pos[i + 1] : NULL};
        tr__tri *t;
        tr__setup_status s = tr__raster_setup(ctx, arena, d, draw_index, tv, ex, &t);
        if (s == TR__SETUP_OOM)
            return -1;
        if (s == TR__SETUP_CULLED)
            continue;
        t->instance = instance;
        t->primitive = prim;
        t->view = view;
        out[made++] = t;
    }
    /* Culling is decided before binning, so it does not depend on the bins. */
    if (made == 0)
        sc->culled++;
    return made;
}

/* Bins a slot's set-up triangles in submission order from the stream
 * entries the front end's threads made for them (LRZ is written per bin,
 * in render_bin).  A triangle that reaches no bin's pixel centre is simply
 * not binned.  false on OOM. */
static bool bin_triangles(tr_context *ctx, tr__pass *p, const tr__front_slot *sl, uint32_t view_slot)
{
    const uint32_t *words = sl->bins;
    for (uint32_t i = 0; i < sl->count; i++) {
        if (!tr__grow(ctx, (void **)&p->tris, &p->tri_cap, p->tri_count + 1, sizeof(tr__tri *)) ||
            !tr__grow(ctx, (void **)&p->lrz_cand, &p->lrz_cand_cap, p->tri_count + 1, 1))
            return false;
        p->tris[p->tri_count] = sl->tris[i];
        p->lrz_cand[p->tri_count] = sl->lrz_cand[i];
        int entries;
        if (sl->bin_words[i] == UINT32_MAX) {
            entries = tr__bin_triangle(ctx, p, sl->tris[i], (uint32_t)p->tri_count, view_slot);
        } else {
            entries = tr__bin_append(ctx, p, (uint32_t)p->tri_count, view_slot, words, sl->bin_words[i]);
            words += sl->bin_words[i];
        }
        if (entries < 0)
            return false;
        if (entries == 0)
            continue;
        p->tri_count++;
        p->stats.primitives_binned++;
    }
    return true;
}

/* The slot's entries pipe by pipe, for bin_wave (runs on the slot's own
 * thread, while its entries are in that core's cache). */
static void sort_entries(const tr__pass *p, tr__front_slot *sl)
{
    const uint32_t mw = p->mask_words, npipes = p->layout.pipes_x * p->layout.pipes_y;
    uint32_t cur[TR_MAX_VSC_PIPES];
    uint32_t off = 0;
    for (uint32_t pipe = 0; pipe < npipes; pipe++) {
        sl->pipe_off[pipe] = cur[pipe] = off;
        off += sl->pipe_entries[pipe] * (1 + mw);
    }
    sl->pipe_off[npipes] = off;
    sl->binned = 0;
    const uint32_t *words = sl->bins;
    for (uint32_t i = 0; i < sl->count; i++) {
        const uint32_t n = sl->bin_words[i];
        sl->binned += n != 0;
        for (uint32_t e = 0; e < n; e += 1 + mw) {
            uint32_t *dst = sl->sorted + cur[words[e]];
            dst[0] = i;
            memcpy(dst + 1, words + e + 1, sizeof(uint32_t) * mw);
            cur[words[e]] += 1 + mw;
        }
        words += n;
    }
}

/* bin_triangles for a whole wave of slots whose entries all fit and were
 * sorted by pipe, on several threads: each slot's triangles get their
 * indices (in submission order: slot by slot) in parallel, each stream is
 * grown for its share, then each pipe's stream takes its entries slot by
 * slot.  Streams come out as bin_triangles writes them.  false on OOM. */
static bool bin_wave(tr_context *ctx, tr__pass *p, uint32_t nc, uint32_t view_slot, uint32_t threads)
{
    const uint32_t mw = p->mask_words, npipes = p->layout.pipes_x * p->layout.pipes_y;
    size_t total = p->tri_count;
    for (uint32_t w = 0; w < nc; w++) {
        p->slots[w].tri_base = total;
        total += p->slots[w].binned;
    }
    if (!tr__grow(ctx, (void **)&p->tris, &p->tri_cap, total, sizeof(tr__tri *)) ||
        !tr__grow(ctx, (void **)&p->lrz_cand, &p->lrz_cand_cap, total, 1))
        return false;
    tr__stream *streams = &p->streams[(size_t)view_slot * npipes];
    for (uint32_t pipe = 0; pipe < npipes; pipe++) {
        size_t need = 0;
        for (uint32_t w = 0; w < nc; w++)
            need += p->slots[w].pipe_entries[pipe];
        tr__stream *st = &streams[pipe];
        if (need && !tr__grow(ctx, (void **)&st->words, &st->cap, st->count + need * (1 + mw), sizeof(uint32_t)))
            return false;
    }
    /* One chunk (a small draw, or one instance of a small mesh) is not worth
     * a team: thousands of instances would each pay a fork and a join. */
#ifdef TILERAST_HAVE_OPENMP
#pragma omp parallel num_threads((int)threads) if (nc > 1)
#endif
    {
#ifdef TILERAST_HAVE_OPENMP
#pragma omp for schedule(static)
#endif
        for (int w = 0; w < (int)nc; w++) {
            tr__front_slot *sl = &p->slots[w];
            size_t idx = sl->tri_base;
            for (uint32_t i = 0; i < sl->count; i++) {
                sl->tri_index[i] = UINT32_MAX;
                if (!sl->bin_words[i])
                    continue; /* reaches no bin */
                p->tris[idx] = sl->tris[i];
                p->lrz_cand[idx] = sl->lrz_cand[i];
                sl->tri_index[i] = (uint32_t)idx++;
            }
        }
#ifdef TILERAST_HAVE_OPENMP
#pragma omp for schedule(dynamic, 1)
#endif
        for (int pipe = 0; pipe < (int)npipes; pipe++) {
            tr__stream *st = &streams[pipe];
            for (uint32_t w = 0; w < nc; w++) {
                const tr__front_slot *sl = &p->slots[w];
                const uint32_t *e = sl->sorted + sl->pipe_off[pipe], *end = sl->sorted + sl->pipe_off[pipe + 1];
                for (; e < end; e += 1 + mw) {
                    st->words[st->count++] = sl->tri_index[e[0]];
                    memcpy(st->words + st->count, e + 1, sizeof(uint32_t) * mw);
                    st->count += mw;
                }
            }
        }
    }
    p->stats.primitives_binned += total - p->tri_count;
    p->tri_count = total;
    return true;
}

static void add_counts(tr_pass_stats *st, const setup_counts *sc)
{
    st->primitives_in += sc->in;
    st->primitives_culled += sc->culled;
    st->primitives_nonfinite += sc->nonfinite;
    st->primitives_clipped += sc->clipped;
}

/* The range of stream positions primitives [p0, p1) use. */
static void chunk_positions(tr_topology topo, uint32_t p0, uint32_t p1, uint32_t *lo, uint32_t *hi)
{
    if (topo == TR_TOPOLOGY_TRIANGLE_LIST) {
        *lo = 3 * p0;
        *hi = 3 * p1;
    } else if (topo == TR_TOPOLOGY_TRIANGLE_STRIP) {
        *lo = p0;
        *hi = p1 + 2;
    } else {
        *lo = p0 + 1;
        *hi = p1 + 2;
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
    const tr_pipeline_desc *pd = &pl->desc;
    for (uint32_t m = pd->texture_mask, slot = 0; m; m >>= 1, slot++)
        if ((m & 1u) && !p->textures[slot].image)
            return tr__error(ctx, TR_ERROR_INVALID_STATE,
                             "%s: the pipeline samples texture slot %u, which has no image bound", fn, slot);
    uint32_t prims = prim_count(pd->topology, count);
    tr__fetch fetch;
    tr_result fr = tr__vertex_fetch_prepare(ctx, fn, pd, p->vertex_buffers, &src, count, instance_count,
                                            first_instance, &fetch);
    if (fr != TR_OK)
        return fr;
    src.fetch = &fetch;

    if (!tr__grow(ctx, (void **)&p->draws, &p->draw_cap, p->draw_count + 1, sizeof(tr__draw)))
        return fail(ctx, fn);
    uint32_t draw_index = (uint32_t)p->draw_count++;
    tr__draw *d = &p->draws[draw_index];
    d->pipeline = pl;
    d->clear_atts = 0;
    d->viewport = p->viewport;
    d->scissor[0] = TR_MAX(p->scissor.x, p->area[0]);
    d->scissor[1] = TR_MAX(p->scissor.y, p->area[1]);
    d->scissor[2] = (int32_t)TR_MIN((int64_t)p->scissor.x + p->scissor.width, (int64_t)p->area[2]);
    d->scissor[3] = (int32_t)TR_MIN((int64_t)p->scissor.y + p->scissor.height, (int64_t)p->area[3]);
    /* The clip volume ends at the viewport's edges, but clipping only cuts
     * at the guard band: the viewport rectangle is applied as a scissor, a
     * pixel drawn only if its centre lies in [x, x + width) x [y, y + |height|). */
    {
        const tr_viewport *vp = &d->viewport;
        const double vy0 = TR_MIN(vp->y, vp->y + vp->height), vy1 = TR_MAX(vp->y, vp->y + vp->height);
        const int32_t v[4] = {(int32_t)ceil((double)vp->x - 0.5), (int32_t)ceil(vy0 - 0.5),
                              (int32_t)ceil((double)vp->x + vp->width - 0.5), (int32_t)ceil(vy1 - 0.5)};
        d->scissor[0] = TR_MAX(d->scissor[0], v[0]);
        d->scissor[1] = TR_MAX(d->scissor[1], v[1]);
        d->scissor[2] = TR_MIN(d->scissor[2], v[2]);
        d->scissor[3] = TR_MIN(d->scissor[3], v[3]);
    }
    d->stencil_ref[0] = p->stencil_ref[0];
    d->stencil_ref[1] = p->stencil_ref[1];
    memcpy(d->blend_constants, p->blend_constants, sizeof(d->blend_constants));
    d->uniforms = p->uniforms;
    if (!p->textures_copy) {
        tr_texture_binding *copy = tr__arena_alloc(ctx, &p->arena, sizeof(p->textures));
        if (!copy)
            return fail(ctx, fn);
        memcpy(copy, p->textures, sizeof(p->textures));
        p->textures_copy = copy;
    }
    d->textures = p->textures_copy;
    d->depth_min = TR_MIN(d->viewport.min_depth, d->viewport.max_depth);
    d->depth_max = TR_MAX(d->viewport.min_depth, d->viewport.max_depth);
    tr__lrz_draw_state(p, d);
    p->stats.draws++;
    if (!prims || !instance_count)
        return TR_OK;
    p->stats.vertex_linear_ids += (uint64_t)fetch.padded_count * instance_count * p->view_count;

    const uint32_t stride = 4 + 4 * pd->varying_count;
    if (!tr__grow(ctx, (void **)&p->vtx, &p->vtx_cap, stride, sizeof(float)))
        return fail(ctx, fn);
    float *first_vtx = p->vtx; /* fans: stream position 0, shaded once per instance and view */
    float gb_x, gb_y;
    tr__vertex_guard_band(&d->viewport, &gb_x, &gb_y);

    /* The parallel front end.  The primitives are cut into chunks of
     * TR_FRONT_CHUNK; a wave of chunks is shaded, clipped and set up in
     * parallel, each chunk into its own slot (its own arena, reserved
     * beforehand so that no thread calls the allocator, and its own list of
     * set-up triangles); then the slots are binned one after the other, in
     * submission order.  Nothing depends on the thread count.  A wave has
     * eight chunks per thread: enough for dynamic scheduling to even them
     * out and to pay for the fork and join, few enough to keep the slots'
     * reserved arenas small.  The costly half of binning (which pipes and
     * bins a triangle reaches, tr__bin_classify) runs in phase A; phase B
     * only appends the entries to the streams. */
    const uint32_t threads = ctx->desc.threads ? ctx->desc.threads : 1;
    const uint32_t chunks = (prims + TR_FRONT_CHUNK - 1) / TR_FRONT_CHUNK;
    const uint32_t wave = TR_MIN(chunks, threads > 1 ? 8 * threads : 1);
    if (wave > p->slot_count) {
        tr__front_slot *ns = tr__calloc(ctx, (size_t)wave * sizeof(tr__front_slot));
        if (!ns)
            return fail(ctx, fn);
        if (p->slots) {
            memcpy(ns, p->slots, (size_t)p->slot_count * sizeof(tr__front_slot));
            tr__free(ctx, p->slots);
        }
        p->slots = ns;
        p->slot_count = wave;
    }
    const size_t vtx_need = (size_t)(3 * TR_FRONT_CHUNK + 2 + 2 * TR_CLIP_MAX_VERTS + 2) * stride;
    const size_t tri_bytes = TR_ALIGN(sizeof(tr__tri) + sizeof(float) * TR_TRI_ATTR_FLOATS(pd->varying_count), 16);
    /* Room for four pipes' entries per triangle; a triangle that touches
     * more (or finds the room gone) is classified again while binning. */
    const size_t bins_need = (size_t)TR_FRONT_CHUNK * 4 * (1 + p->mask_words);
    for (uint32_t w = 0; w < wave; w++)
        if (!tr__grow(ctx, (void **)&p->slots[w].vtx, &p->slots[w].vtx_cap, vtx_need, sizeof(float)) ||
            !tr__grow(ctx, (void **)&p->slots[w].bins, &p->slots[w].bins_cap, bins_need, sizeof(uint32_t)) ||
            (threads > 1 && !tr__grow(ctx, (void **)&p->slots[w].sorted, &p->slots[w].sorted_cap,
                                      p->slots[w].bins_cap, sizeof(uint32_t)))) /* room for all of bins */
            return fail(ctx, fn);

    for (uint32_t inst = 0; inst < instance_count; inst++) {
        for (uint32_t vs = 0; vs < p->view_count; vs++) {
            src.instance = inst;
            src.instance_index = first_instance + inst;
            src.view_index = p->view_ids[vs];
            const uint16_t view = (uint16_t)p->view_ids[vs];
            if (pd->topology == TR_TOPOLOGY_TRIANGLE_FAN) {
                tr_vs_batch batch;
                tr__vertex_shade(pl, &src, d->uniforms, 0, 1, first_vtx, &batch);
            }
            for (uint32_t c0 = 0; c0 < chunks; c0 += wave) {
                const uint32_t nc = TR_MIN(wave, chunks - c0);
                /* Each slot's arena gets room for the worst case first. */
                for (uint32_t w = 0; w < nc; w++)
                    if (!tr__arena_reserve(ctx, &p->slots[w].arena,
                                           (size_t)TR_FRONT_CHUNK * TR_FRONT_PIECES * tri_bytes))
                        return fail(ctx, fn);
                double t0 = now_ms();
                /* Phase A: shade, clip and set up, chunks in parallel. */
#ifdef TILERAST_HAVE_OPENMP
#pragma omp parallel for schedule(dynamic, 1) num_threads((int)threads) if (threads > 1 && nc > 1)
#endif
                for (int w = 0; w < (int)nc; w++) {
                    tr__front_slot *sl = &p->slots[w];
                    const uint32_t p0 = (c0 + (uint32_t)w) * TR_FRONT_CHUNK, p1 = TR_MIN(prims, p0 + TR_FRONT_CHUNK);
                    uint32_t lo, hi;
                    chunk_positions(pd->topology, p0, p1, &lo, &hi);
                    float *chunk = sl->vtx;
                    float *clipbuf = chunk + (size_t)(3 * TR_FRONT_CHUNK + 2) * stride;
                    float *flatbuf = clipbuf + (size_t)(2 * TR_CLIP_MAX_VERTS) * stride;
                    tr_vs_batch batch;
                    tr__vertex_shade(pl, &src, d->uniforms, lo, hi, chunk, &batch);
                    sl->count = 0;
                    sl->bins_used = 0;
                    sl->deferred = 0;
                    memset(sl->pipe_entries, 0, sizeof sl->pipe_entries);
                    sl->oom = false;
                    memset(&sl->counts, 0, sizeof(sl->counts));
                    for (uint32_t prim = p0; prim < p1; prim++) {
                        uint32_t pos[3];
                        prim_positions(pd->topology, prim, pos);
                        const float *v[3];
                        for (int k = 0; k < 3; k++)
                            v[k] = pos[k] == 0 && pd->topology == TR_TOPOLOGY_TRIANGLE_FAN
                                       ? first_vtx
                                       : chunk + (size_t)(pos[k] - lo) * stride;
                        int made = setup_triangle(ctx, &sl->arena, d, draw_index, v, inst, prim, view, gb_x, gb_y,
                                                  clipbuf, flatbuf, sl->tris + sl->count, &sl->counts);
                        if (made < 0) {
                            sl->oom = true; /* cannot happen: the arena was reserved */
                            break;
                        }
                        /* The binning pass's costly half: which pipes and bins. */
                        for (int k = 0; k < made; k++) {
                            uint32_t i = sl->count + (uint32_t)k;
                            sl->lrz_cand[i] = p->lrz.buf && tr__lrz_may_write(d, sl->tris[i]);
                            int n = tr__bin_classify(p, sl->tris[i], sl->bins + sl->bins_used,
                                                     (uint32_t)(sl->bins_cap - sl->bins_used));
                            sl->bin_words[i] = n < 0 ? UINT32_MAX : (uint32_t)n;
                            sl->deferred += n < 0;
                            for (int e = 0; e < n; e += 1 + (int)p->mask_words)
                                sl->pipe_entries[sl->bins[sl->bins_used + (size_t)e]]++;
                            sl->bins_used += n < 0 ? 0 : (size_t)n;
                        }
                        sl->count += (uint32_t)made;
                    }
                    if (threads > 1 && !sl->deferred)
                        sort_entries(p, sl);
                }
                double t1 = now_ms();
                p->stats.ms_vertex += t1 - t0;
                /* Phase B: bin, in submission order. */
                bool deferred = false;
                for (uint32_t w = 0; w < nc; w++) {
                    if (p->slots[w].oom)
                        return fail(ctx, fn);
                    add_counts(&p->stats, &p->slots[w].counts);
                    deferred |= p->slots[w].deferred != 0;
                }
                if (deferred || threads == 1) {
                    /* One thread, or (rare) triangles over many pipes: one
                     * after the other. */
                    for (uint32_t w = 0; w < nc; w++)
                        if (!bin_triangles(ctx, p, &p->slots[w], vs))
                            return fail(ctx, fn);
                } else if (!bin_wave(ctx, p, nc, vs, threads)) {
                    return fail(ctx, fn);
                }
                p->stats.ms_binning += now_ms() - t1;
            }
        }
    }
    return TR_OK;
}

tr_result tr_cmd_clear_attachments(tr_context *ctx, uint32_t count, const tr_clear_attachment *atts,
                                   uint32_t rect_count, const tr_rect *rects)
{
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
            memcpy(texel[p->depth_att], &a->depth, 4);
            which |= 1u << p->depth_att;
            depth_cleared = true;
        }
        if (a->aspects & TR_CLEAR_STENCIL) {
            texel[p->stencil_att][0] = (uint8_t)(a->stencil & 0xff);
            which |= 1u << p->stencil_att;
        }
    }
    for (uint32_t k = 0; k < rect_count; k++) {
        const tr_rect *r = &rects[k];
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
        return fail(ctx, fn);
    uint32_t draw_index = (uint32_t)p->draw_count++;
    tr__draw *d = &p->draws[draw_index];
    memset(d, 0, sizeof(*d));
    d->clear_atts = which;
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
                return fail(ctx, fn);
            p->lrz_cand[p->tri_count] = 0; /* clears write no LRZ (they may invalidate it) */
            memset(t, 0, sizeof(*t) + sizeof(float) * TR_TRI_ATTR_FLOATS(0));
            t->bbox[0] = rects[k].x;
            t->bbox[1] = rects[k].y;
            t->bbox[2] = rects[k].x + (int32_t)rects[k].width;
            t->bbox[3] = rects[k].y + (int32_t)rects[k].height;
            t->draw = draw_index;
            t->primitive = k;
            t->view = (uint16_t)p->view_ids[vs];
            p->tris[p->tri_count] = t;
            int entries = tr__bin_triangle(ctx, p, t, (uint32_t)p->tri_count, vs);
            if (entries < 0)
                return fail(ctx, fn);
            p->tri_count++;
        }
    return TR_OK;
}

tr_result tr_cmd_bind_vertex_buffer(tr_context *ctx, uint32_t binding, const void *data, size_t size,
                                    size_t offset)
{
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
    REQUIRE_PASS(ctx, "tr_cmd_draw");
    tr__vertex_source src = {.indices = NULL, .first = first_vertex};
    return record_draw(ctx, "tr_cmd_draw", src, vertex_count, instance_count, first_instance);
}

tr_result tr_cmd_bind_index_buffer(tr_context *ctx, const void *data, size_t size, size_t offset, tr_index_type type)
{
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

/* ---- the tile pass ---------------------------------------------------------------------------- */

static tr_result prepare_workers(tr_context *ctx, uint32_t threads, size_t tile_bytes)
{
    if (ctx->worker_count < threads) {
        tr__worker *w = tr__calloc(ctx, threads * sizeof(tr__worker));
        if (!w)
            return TR_ERROR_OUT_OF_MEMORY;
        if (ctx->workers) {
            memcpy(w, ctx->workers, ctx->worker_count * sizeof(tr__worker));
            tr__free(ctx, ctx->workers);
        }
        ctx->workers = w;
        ctx->worker_count = threads;
    }
    for (uint32_t i = 0; i < threads; i++) {
        tr__worker *w = &ctx->workers[i];
        if (!w->fs && !(w->fs = tr__calloc(ctx, sizeof(tr_fs_block))))
            return TR_ERROR_OUT_OF_MEMORY;
        if (w->tile_cap < tile_bytes) {
            tr__free(ctx, w->tile);
            w->tile_cap = 0;
            if (!(w->tile = tr__alloc(ctx, tile_bytes)))
                return TR_ERROR_OUT_OF_MEMORY;
            w->tile_cap = tile_bytes;
        }
        memset(&w->stats, 0, sizeof(w->stats));
    }
    return TR_OK;
}

/* Renders slice `slice` of `slices` of bin b: the bin's rows cut at block
 * rows (multiples of 8, so no 2x2 quad, 8x8 block or LRZ texel straddles
 * two slices), each slice drawing every triangle of the bin that reaches
 * its rows, in submission order.  A pixel's result depends only on the
 * triangles that cover it, in order, so slices change nothing but which
 * thread does the work; per-bin counts are made by the bin's first slice. */
/* How many stream entries ahead the tile pass prefetches triangles. */
#define TR_PREFETCH_TRIS 4

/* The cache lines a triangle's rasterization reads first: edges, box,
 * barycentric planes, then the depth and 1/w planes. */
static inline void prefetch_tri(const tr__tri *t)
{
    __builtin_prefetch(t);
    __builtin_prefetch((const char *)t + 64);
    __builtin_prefetch((const char *)t + 128);
}

/* For a small triangle (a box of at most 16x16 pixels in the bin), the
 * GMEM lines of its box rows in every attachment: small triangles land
 * anywhere in a bin much larger than the caches. */
static inline void prefetch_gmem(const tr__raster_bin *rb, const tr__tri *t)
{
    const int32_t x0 = TR_MAX(t->bbox[0], rb->rect[0]), x1 = TR_MIN(t->bbox[2], rb->rect[2]);
    const int32_t y0 = TR_MAX(t->bbox[1], rb->rect[1]), y1 = TR_MIN(t->bbox[3], rb->rect[3]);
    if (x0 >= x1 || y0 >= y1 || x1 - x0 > 16 || y1 - y0 > 16)
        return;
    const tr__pass *p = rb->pass;
    for (uint32_t i = 0; i < p->att_count; i++) {
        const uint32_t cpp = p->att[i].cpp;
        const uint8_t *g = rb->gmem[i] + ((size_t)(y0 - rb->origin[1]) * rb->gmem_pitch + (size_t)(x0 - rb->origin[0])) * cpp;
        const size_t pitch = (size_t)rb->gmem_pitch * cpp, span = (size_t)(x1 - x0 - 1) * cpp;
        for (int32_t y = y0; y < y1; y++, g += pitch) {
            __builtin_prefetch(g, 1);
            if (((uintptr_t)g ^ (uintptr_t)(g + span)) >= 64) /* the row's end in another line */
                __builtin_prefetch(g + span, 1);
        }
    }
}

static void render_bin(tr_context *ctx, const tr__pass *p, tr__worker *w, uint32_t b, uint32_t slice,
                       uint32_t slices)
{
    const tr_bin_layout *l = &p->layout;
    uint32_t bx = b % l->bins_x, by = b / l->bins_x;
    tr__raster_bin rb;
    rb.ctx = ctx;
    rb.pass = p;
    rb.worker = w;
    tr__bin_rect(l, p->area, bx, by, rb.rect);
    if (rb.rect[0] >= rb.rect[2] || rb.rect[1] >= rb.rect[3])
        return;
    bool first = true;
    if (slices > 1) {
        const int32_t top = rb.rect[1] & ~7, rows = (rb.rect[3] - top + 7) / 8;
        const int32_t k0 = rows * (int32_t)slice / (int32_t)slices, k1 = rows * (int32_t)(slice + 1) / (int32_t)slices;
        if (k0 == k1)
            return;
        first = k0 == 0;
        rb.rect[1] = TR_MAX(rb.rect[1], top + 8 * k0);
        rb.rect[3] = TR_MIN(rb.rect[3], top + 8 * k1);
    }
    rb.origin[0] = l->origin_x + (int32_t)(bx * l->bin_w);
    rb.origin[1] = l->origin_y + (int32_t)(by * l->bin_h);
    rb.gmem_pitch = l->bin_w;
    if (first)
        w->stats.bins++;
    tr__raster_load(&rb);
    uint32_t pipe = (by / l->pipe_h) * l->pipes_x + bx / l->pipe_w;
    uint32_t bit = (by % l->pipe_h) * l->pipe_w + bx % l->pipe_w;
    const size_t view_texels = (size_t)l->bin_w * l->bin_h;
    for (uint32_t vs = 0; vs < p->view_count; vs++) {
        rb.view_slot = vs;
        for (uint32_t i = 0; i < p->att_count; i++)
            rb.gmem[i] = w->tile + p->att[i].gmem_offset + (size_t)vs * view_texels * p->att[i].cpp;
        const tr__stream *s = &p->streams[(size_t)vs * l->pipes_x * l->pipes_y + pipe];
        /* The LRZ write of the binning pass, for this bin's blocks: every
         * triangle of the bin in submission order, before any is drawn. */
        tr__lrz_bin_write bw = {0.0f, true};
        if (p->lrz.buf && !p->lrz.invalid)
            for (size_t e = 0; e < s->count; e += 1 + p->mask_words)
                if (p->lrz_cand[s->words[e]] && ((s->words[e + 1 + (bit >> 5)] >> (bit & 31)) & 1)) {
                    const tr__tri *t = p->tris[s->words[e]];
                    tr__lrz_write_triangle(p, &p->draws[t->draw], t, vs, rb.rect, &bw, &w->stats.lrz_blocks_written);
                }
        /* The bounds are final now: the farthest of them, for rejecting
         * whole triangles in the bin. */
        rb.lrz_far = p->lrz.buf && !p->lrz.invalid ? tr__lrz_far_bound(p, vs, rb.rect) : 0.0f;
        const size_t step = 1 + p->mask_words, ahead = TR_PREFETCH_TRIS * step;
        for (size_t e = 0; e < s->count; e += step) {
            /* Triangles were written by the front end long ago: fetch the
             * ones a few entries on while this one is drawn. */
            if (e + 2 * ahead < s->count)
                __builtin_prefetch(&p->tris[s->words[e + 2 * ahead]]);
            if (e + ahead < s->count)
                prefetch_tri(p->tris[s->words[e + ahead]]);
            /* and, half way, the GMEM texels a small one will touch */
            if (e + ahead / 2 < s->count)
                prefetch_gmem(&rb, p->tris[s->words[e + ahead / 2]]);
            if (!((s->words[e + 1 + (bit >> 5)] >> (bit & 31)) & 1))
                continue;
            w->stats.bin_primitive_refs += first;
            tr__raster_triangle(&rb, p->tris[s->words[e]]);
        }
    }
    tr__raster_store(&rb);
}

static void report_visibility(const tr__pass *p)
{
    const tr_bin_layout *l = &p->layout;
    for (uint32_t by = 0; by < l->bins_y; by++) {
        for (uint32_t bx = 0; bx < l->bins_x; bx++) {
            uint32_t pipe = (by / l->pipe_h) * l->pipes_x + bx / l->pipe_w;
            uint32_t bit = (by % l->pipe_h) * l->pipe_w + bx % l->pipe_w;
            for (uint32_t vs = 0; vs < p->view_count; vs++) {
                const tr__stream *s = &p->streams[(size_t)vs * l->pipes_x * l->pipes_y + pipe];
                for (size_t e = 0; e < s->count; e += 1 + p->mask_words) {
                    if (!((s->words[e + 1 + (bit >> 5)] >> (bit & 31)) & 1))
                        continue;
                    const tr__tri *t = p->tris[s->words[e]];
                    tr_visibility_entry ve = {p->view_ids[vs], bx, by, pipe, t->draw, t->instance, t->primitive};
                    p->desc.visibility_fn(p->desc.visibility_user, &ve);
                }
            }
        }
    }
}

static void add_stats(tr_pass_stats *dst, const tr_pass_stats *s)
{
    dst->bins += s->bins;
    dst->bin_primitive_refs += s->bin_primitive_refs;
    dst->fragments_rasterized += s->fragments_rasterized;
    dst->fragments_depth_rejected += s->fragments_depth_rejected;
    dst->fragments_stencil_rejected += s->fragments_stencil_rejected;
    dst->fragments_lrz_rejected += s->fragments_lrz_rejected;
    dst->lrz_blocks_tested += s->lrz_blocks_tested;
    dst->lrz_blocks_written += s->lrz_blocks_written;
    dst->lrz_blocks_rejected += s->lrz_blocks_rejected;
    dst->fragments_shaded += s->fragments_shaded;
    dst->fragments_discarded += s->fragments_discarded;
    dst->fragments_written += s->fragments_written;
    dst->gmem_bytes_loaded += s->gmem_bytes_loaded;
    dst->gmem_bytes_cleared += s->gmem_bytes_cleared;
    dst->gmem_bytes_stored += s->gmem_bytes_stored;
}

/* After a failed pass: give back the bulk of what recording grew (the
 * triangle arenas and the visibility streams), so that memory the failure
 * took does not stay held against tr_context_desc.memory_limit. */
static void release_recording(tr_context *ctx, tr__pass *p)
{
    tr__arena_release(ctx, &p->arena);
    for (uint32_t w = 0; w < p->slot_count; w++)
        tr__arena_release(ctx, &p->slots[w].arena);
    for (size_t i = 0; i < p->stream_slots; i++) {
        tr__free(ctx, p->streams[i].words);
        p->streams[i] = (tr__stream){NULL, 0, 0};
    }
}

static void end_pass_state(tr_context *ctx)
{
    set_uses(ctx->pass, -1);
    for (size_t i = 0; i < ctx->pass->held_count; i++)
        *ctx->pass->held[i] = 0;
    ctx->pass->held_count = 0;
    ctx->in_pass = false;
}

tr_result tr_cmd_end_render_pass(tr_context *ctx, tr_pass_stats *stats)
{
    REQUIRE_PASS(ctx, "tr_cmd_end_render_pass");
    tr__pass *p = ctx->pass;
    if (p->failed) {
        tr__lrz_end_pass(p, false);
        release_recording(ctx, p);
        end_pass_state(ctx);
        return tr__error(ctx, p->fail_code, "tr_cmd_end_render_pass: the pass failed while recording; "
                                            "nothing was rendered");
    }
    uint32_t threads = ctx->desc.threads;
    tr_result r = prepare_workers(ctx, threads, p->tile_bytes);
    if (r != TR_OK) {
        tr__lrz_end_pass(p, false);
        release_recording(ctx, p);
        end_pass_state(ctx);
        return tr__error(ctx, r, "tr_cmd_end_render_pass: out of memory for tile buffers");
    }
    if (p->desc.visibility_fn)
        report_visibility(p);
    const tr_bin_layout *l = &p->layout;
    const int nbins = (int)(l->bins_x * l->bins_y);
    /* With fewer bins than twice the threads, bins are cut into slices of
     * block rows so that every thread has work (and some to balance). */
    const uint32_t slices = threads > 1 ? TR_MAX(1u, TR_MIN((2 * threads + (uint32_t)nbins - 1) / (uint32_t)nbins,
                                                              l->bin_h / 8))
                                        : 1u;
    const int tasks = nbins * (int)slices;
    double t0 = now_ms();
#ifdef TILERAST_HAVE_OPENMP
#pragma omp parallel for schedule(dynamic, 1) num_threads((int)threads) if (threads > 1)
    for (int k = 0; k < tasks; k++)
        render_bin(ctx, p, &ctx->workers[omp_get_thread_num()], (uint32_t)k / slices, (uint32_t)k % slices, slices);
#else
    for (int k = 0; k < tasks; k++)
        render_bin(ctx, p, &ctx->workers[0], (uint32_t)k / slices, (uint32_t)k % slices, slices);
#endif
    p->stats.ms_render = now_ms() - t0;
    for (uint32_t i = 0; i < threads; i++)
        add_stats(&p->stats, &ctx->workers[i].stats);
    /* Stored images have new texels (LRZ reuse and caches key on this). */
    for (uint32_t i = 0; i < p->att_count; i++)
        if (p->att[i].store == TR_STORE_OP_STORE)
            p->att[i].image->version++;
    tr__lrz_end_pass(p, true);
    p->stats.pipes = 0;
    uint64_t bytes = 0;
    const size_t pipes = (size_t)l->pipes_x * l->pipes_y;
    for (size_t pipe = 0; pipe < pipes; pipe++) {
        bool used = false;
        for (uint32_t v = 0; v < p->view_count; v++) {
            bytes += p->streams[v * pipes + pipe].count * sizeof(uint32_t);
            used |= p->streams[v * pipes + pipe].count != 0;
        }
        p->stats.pipes += used;
    }
    p->stats.visibility_stream_bytes = bytes;
    p->stats.memory_binning_bytes = p->arena.bytes_used + p->draw_count * sizeof(tr__draw) +
                                    p->tri_count * sizeof(tr__tri *);
    for (uint32_t w = 0; w < p->slot_count; w++)
        p->stats.memory_binning_bytes += p->slots[w].arena.bytes_used;
    p->stats.memory_tile_bytes = (uint64_t)threads * p->tile_bytes;
    p->stats.memory_peak_bytes = __atomic_load_n(&ctx->mem_peak, __ATOMIC_RELAXED);
    p->stats.layout = *l;
    if (stats)
        *stats = p->stats;
    end_pass_state(ctx);
    return TR_OK;
}

void tr__pass_release(tr_context *ctx)
{
    tr__pass *p = ctx->pass;
    if (p) {
        release_recording(ctx, p); /* arenas and stream words */
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
        tr__free(ctx, p->held);
        tr__free(ctx, p->lrz.part_mask);
        tr__free(ctx, p->lrz.part_bound);
    }
    for (uint32_t i = 0; i < ctx->worker_count; i++) {
        tr__free(ctx, ctx->workers[i].tile);
        tr__free(ctx, ctx->workers[i].fs);
    }
    tr__free(ctx, ctx->workers);
    ctx->workers = NULL;
    ctx->worker_count = 0;
}
