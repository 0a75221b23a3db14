/* tilerast: pipelines.  Defaults are applied here, once, so that the rest of
 * the library sees only resolved values (no DEFAULT enums, no mask sentinels). */
#include "internal.h"

static uint32_t resolve_mask(uint32_t m)
{
    return m == 0 ? 0xffu : m == TR_MASK_NONE ? 0u : (m & 0xffu);
}

static tr_result check_stencil_face(tr_context *ctx, tr_stencil_face *f, const char *name)
{
    if ((unsigned)f->fail_op > TR_STENCIL_OP_DECREMENT_AND_WRAP ||
        (unsigned)f->pass_op > TR_STENCIL_OP_DECREMENT_AND_WRAP ||
        (unsigned)f->depth_fail_op > TR_STENCIL_OP_DECREMENT_AND_WRAP)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_pipeline_desc.%s: an op is not a tr_stencil_op", name);
    if ((unsigned)f->compare > TR_COMPARE_ALWAYS)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_pipeline_desc.%s.compare is not a tr_compare_op", name);
    if ((f->compare_mask > 0xff && f->compare_mask != TR_MASK_NONE) ||
        (f->write_mask > 0xff && f->write_mask != TR_MASK_NONE))
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_pipeline_desc.%s: masks are 8 bits or TR_MASK_NONE", name);
    if (f->compare == TR_COMPARE_DEFAULT)
        f->compare = TR_COMPARE_ALWAYS;
    f->compare_mask = resolve_mask(f->compare_mask);
    f->write_mask = resolve_mask(f->write_mask);
    return TR_OK;
}

/* Validates bindings and attributes and resolves their defaults. */
static tr_result check_vertex_input(tr_context *ctx, tr_pipeline_desc *d)
{
    for (uint32_t b = 0; b < TR_MAX_VERTEX_BINDINGS; b++) {
        tr_vertex_binding *vb = &d->bindings[b];
        if ((unsigned)vb->input_rate > TR_INPUT_RATE_INSTANCE)
            return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT,
                             "tr_pipeline_desc.bindings[%u].input_rate = %d is not a tr_input_rate", b,
                             (int)vb->input_rate);
        if (vb->input_rate == TR_INPUT_RATE_VERTEX && vb->divisor != 0)
            return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR,
                             "tr_pipeline_desc.bindings[%u].divisor = %u: only INSTANCE-rate bindings have a divisor",
                             b, vb->divisor);
        if (vb->input_rate == TR_INPUT_RATE_INSTANCE && vb->divisor == 0)
            vb->divisor = 1;
    }
    for (uint32_t a = 0; a < TR_MAX_VERTEX_ATTRIBUTES; a++) {
        const tr_vertex_attribute *va = &d->attributes[a];
        if ((unsigned)va->format >= TR_VERTEX_FORMAT_COUNT)
            return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT,
                             "tr_pipeline_desc.attributes[%u].format = %d is not a tr_vertex_format", a,
                             (int)va->format);
        if (va->format == TR_VERTEX_FORMAT_UNDEFINED)
            continue;
        if (va->binding >= TR_MAX_VERTEX_BINDINGS)
            return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR,
                             "tr_pipeline_desc.attributes[%u].binding = %u is not below %u", a, va->binding,
                             TR_MAX_VERTEX_BINDINGS);
    }
    return TR_OK;
}

/* Checks a desc and resolves its defaults (after a SPIR-V stage filled what its module implies). */
static tr_result resolve_desc(tr_context *ctx, tr_pipeline_desc *d)
{
    if (!d->vertex_shader)
        return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR, "tr_pipeline_desc.vertex_shader is NULL (and no vertex_module)");
    if (d->varying_count > TR_MAX_VARYINGS)
        return tr__error(ctx, TR_ERROR_LIMIT_EXCEEDED, "tr_pipeline_desc.varying_count = %u exceeds %u",
                         d->varying_count, TR_MAX_VARYINGS);
    if (d->flat_mask >> d->varying_count)
        return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR,
                         "tr_pipeline_desc.flat_mask = 0x%x names varyings beyond varying_count (%u)", d->flat_mask,
                         d->varying_count);
    if (d->noperspective_mask >> d->varying_count)
        return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR,
                         "tr_pipeline_desc.noperspective_mask = 0x%x names varyings beyond varying_count (%u)",
                         d->noperspective_mask, d->varying_count);
    if (d->centroid_mask >> d->varying_count)
        return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR,
                         "tr_pipeline_desc.centroid_mask = 0x%x names varyings beyond varying_count (%u)",
                         d->centroid_mask, d->varying_count);
    if (d->flat_mask & d->noperspective_mask)
        return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR,
                         "tr_pipeline_desc.flat_mask and tr_pipeline_desc.noperspective_mask both name varyings "
                         "0x%x: a varying is flat or noperspective, not both",
                         d->flat_mask & d->noperspective_mask);
    if (d->flags & ~(uint32_t)TR_PIPELINE_WRITES_VIEWPORT_INDEX)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_pipeline_desc.flags = 0x%x has unknown bits", d->flags);
    if (d->fs_flags & ~(uint32_t)(TR_FS_MAY_DISCARD | TR_FS_WRITES_DEPTH | TR_FS_SIDE_EFFECTS | TR_FS_EARLY_TESTS |
                                   TR_FS_NO_FRAG_COORD | TR_FS_SAMPLE_RATE | TR_FS_WRITES_SAMPLE_MASK |
                                   TR_FS_READS_SAMPLE_MASK))
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_pipeline_desc.fs_flags = 0x%x has unknown bits",
                         d->fs_flags);
    if (d->texture_mask >> TR_MAX_TEXTURES)
        return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR,
                         "tr_pipeline_desc.texture_mask = 0x%x names slots beyond TR_MAX_TEXTURES (%u)",
                         d->texture_mask, TR_MAX_TEXTURES);
    if (d->feedback_mask >> TR_MAX_FEEDBACK_MAPS)
        return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR,
                         "tr_pipeline_desc.feedback_mask = 0x%x names slots beyond TR_MAX_FEEDBACK_MAPS (%u)",
                         d->feedback_mask, TR_MAX_FEEDBACK_MAPS);
    if (d->feedback_mask && !d->fragment_shader)
        return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR,
                         "tr_pipeline_desc.feedback_mask: feedback writes need a fragment_shader");
    if (d->feedback_mask)
        d->fs_flags |= TR_FS_SIDE_EFFECTS; /* feedback writes are memory writes */
    if (!d->fragment_shader && (d->fs_flags & (TR_FS_MAY_DISCARD | TR_FS_WRITES_DEPTH | TR_FS_WRITES_SAMPLE_MASK)))
        return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR,
                         "tr_pipeline_desc.fs_flags: discard, depth writes or sample mask writes need a "
                         "fragment_shader");
    if ((unsigned)d->topology > TR_TOPOLOGY_LINE_STRIP)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_pipeline_desc.topology = %d is not a tr_topology",
                         (int)d->topology);
    if ((unsigned)d->line_mode > TR_LINE_BRESENHAM)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_pipeline_desc.line_mode = %d is not a tr_line_mode",
                         (int)d->line_mode);
    if (d->line_width == 0.0f)
        d->line_width = 1.0f;
    if (!(d->line_width >= 1.0f && d->line_width <= TR_MAX_LINE_WIDTH))
        return tr__error(ctx, TR_ERROR_LIMIT_EXCEEDED,
                         "tr_pipeline_desc.line_width = %g is outside [1, TR_MAX_LINE_WIDTH = %g] (0 means 1)",
                         (double)d->line_width, (double)TR_MAX_LINE_WIDTH);
    if ((unsigned)d->cull_mode > TR_CULL_FRONT_AND_BACK)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_pipeline_desc.cull_mode = %d is not a tr_cull_mode",
                         (int)d->cull_mode);
    if ((unsigned)d->front_face > TR_FRONT_FACE_CW)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_pipeline_desc.front_face = %d is not a tr_front_face",
                         (int)d->front_face);
    if ((unsigned)d->tie_rule > TR_TIE_BOTTOM_LEFT)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_pipeline_desc.tie_rule = %d is not a tr_tie_rule",
                         (int)d->tie_rule);
    if ((unsigned)d->depth_compare > TR_COMPARE_ALWAYS)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_pipeline_desc.depth_compare = %d is not a tr_compare_op",
                         (int)d->depth_compare);
    if (d->depth_compare == TR_COMPARE_DEFAULT)
        d->depth_compare = TR_COMPARE_LESS;
    tr_multisample_state *ms = &d->multisample;
    if (!ms->samples)
        ms->samples = 1;
    if (!tr_sample_count_valid(ms->samples))
        return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR,
                         "tr_pipeline_desc.multisample.samples = %u: must be 1, 2, 4 or 8", ms->samples);
    if (!(ms->min_sample_shading >= 0.0f && ms->min_sample_shading <= 1.0f))
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT,
                         "tr_pipeline_desc.multisample.min_sample_shading = %g is outside [0, 1]",
                         (double)ms->min_sample_shading);
    if (!ms->sample_mask)
        ms->sample_mask = ~0u;
    ms->sample_mask &= (1u << ms->samples) - 1u;
    ms->alpha_to_coverage = !!ms->alpha_to_coverage;
    ms->alpha_to_one = !!ms->alpha_to_one;
    ms->sample_shading = !!ms->sample_shading;
    if (d->line_mode == TR_LINE_BRESENHAM && ms->samples > 1 &&
        (d->topology == TR_TOPOLOGY_LINE_LIST || d->topology == TR_TOPOLOGY_LINE_STRIP))
        return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR,
                         "tr_pipeline_desc.line_mode: BRESENHAM lines are single-sampled only "
                         "(multisample.samples = %u); use TR_LINE_RECTANGULAR", ms->samples);
    d->depth_test = !!d->depth_test;
    d->depth_write = !!d->depth_write;
    d->stencil_test = !!d->stencil_test;
    tr_result r = check_stencil_face(ctx, &d->stencil_front, "stencil_front");
    if (r == TR_OK)
        r = check_stencil_face(ctx, &d->stencil_back, "stencil_back");
    if (r != TR_OK)
        return r;
    for (uint32_t i = 0; i < TR_MAX_COLOR_ATTACHMENTS; i++) {
        tr_blend_state *b = &d->blend[i];
        if ((unsigned)b->src_color > TR_BLEND_ONE_MINUS_SRC1_ALPHA ||
            (unsigned)b->dst_color > TR_BLEND_ONE_MINUS_SRC1_ALPHA ||
            (unsigned)b->src_alpha > TR_BLEND_ONE_MINUS_SRC1_ALPHA ||
            (unsigned)b->dst_alpha > TR_BLEND_ONE_MINUS_SRC1_ALPHA)
            return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_pipeline_desc.blend[%u]: a factor is not a tr_blend_factor", i);
        if ((unsigned)b->color_op > TR_BLEND_OP_MAX || (unsigned)b->alpha_op > TR_BLEND_OP_MAX)
            return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_pipeline_desc.blend[%u]: an op is not a tr_blend_op", i);
        if (b->write_mask & ~0x1fu)
            return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_pipeline_desc.blend[%u].write_mask = 0x%x has unknown bits",
                             i, b->write_mask);
        b->enable = !!b->enable;
        if (b->src_color == TR_BLEND_DEFAULT)
            b->src_color = TR_BLEND_ONE;
        if (b->src_alpha == TR_BLEND_DEFAULT)
            b->src_alpha = TR_BLEND_ONE;
        if (b->dst_color == TR_BLEND_DEFAULT)
            b->dst_color = TR_BLEND_ZERO;
        if (b->dst_alpha == TR_BLEND_DEFAULT)
            b->dst_alpha = TR_BLEND_ZERO;
        b->write_mask = b->write_mask == 0 ? 0xfu : (b->write_mask & TR_COLOR_MASK_NONE) ? 0u : b->write_mask;
    }
    r = check_vertex_input(ctx, d);
    if (r != TR_OK)
        return r;
    return TR_OK;
}

tr_result tr_pipeline_create(tr_context *ctx, const tr_pipeline_desc *desc, tr_pipeline **out)
{
    tr__api_enter(ctx);
    if (!out)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_pipeline_create: out is NULL");
    *out = NULL;
    if (!ctx || !desc)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_pipeline_create: %s is NULL", ctx ? "desc" : "ctx");
    tr_pipeline_desc d = *desc;
    struct tr__spv_program *vs = NULL, *fs = NULL;
    tr_result r = tr__spv_pipeline_stages(ctx, &d, &vs, &fs);
    if (r == TR_OK)
        r = resolve_desc(ctx, &d);
    tr_pipeline *p = r == TR_OK ? tr__calloc(ctx, sizeof(tr_pipeline)) : NULL;
    if (r == TR_OK && !p)
        r = tr__error(ctx, TR_ERROR_OUT_OF_MEMORY, "tr_pipeline_create: out of memory");
    if (r != TR_OK) {
        tr__spv_program_free(ctx, vs);
        tr__spv_program_free(ctx, fs);
        return r;
    }
    p->vs_prog = vs;
    p->fs_prog = fs;
    p->ctx = ctx;
    p->desc = d;
    p->next = ctx->pipelines;
    if (ctx->pipelines)
        ctx->pipelines->prev = p;
    ctx->pipelines = p;
    *out = p;
    return TR_OK;
}

tr_result tr_pipeline_destroy(tr_pipeline *p)
{
    tr__api_enter(p ? p->ctx : NULL);
    if (!p)
        return TR_OK; /* as free(NULL) */
    tr_context *ctx = p->ctx;
    if (p->pass_uses && ctx->in_pass)
        return tr__error(ctx, TR_ERROR_INVALID_STATE, "tr_pipeline_destroy: pipeline is used by the recording pass");
    if (p->prev)
        p->prev->next = p->next;
    else
        ctx->pipelines = p->next;
    if (p->next)
        p->next->prev = p->prev;
    tr__spv_program_free(ctx, p->vs_prog);
    tr__spv_program_free(ctx, p->fs_prog);
    tr__free(ctx, p);
    return TR_OK;
}
