/* tilerast: sampler objects.  Defaults are applied and the LOD parameters
 * are converted to fixed point here, once. */
#include "texture/texture_internal.h"

static tr_sampler default_sampler = {
    .desc = {.max_lod = TR_LOD_CLAMP_NONE},
    .max_lod_fx = (int32_t)(TR_LOD_CLAMP_NONE * TR__LOD_ONE),
};

const tr_sampler *tr__default_sampler(void)
{
    return &default_sampler;
}

static bool is_finite(float x)
{
    return x == x && x - x == 0.0f;
}

tr_result tr_sampler_create(tr_context *ctx, const tr_sampler_desc *desc, tr_sampler **out)
{
    tr__api_enter(ctx);
    if (!out)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_sampler_create: out is NULL");
    *out = NULL;
    if (!ctx || !desc)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_sampler_create: %s is NULL", ctx ? "desc" : "ctx");
    tr_sampler_desc d = *desc;
    if ((unsigned)d.mag_filter > TR_FILTER_LINEAR || (unsigned)d.min_filter > TR_FILTER_LINEAR)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_sampler_desc: mag_filter/min_filter is not a tr_filter");
    if ((unsigned)d.mipmap_mode > TR_MIPMAP_LINEAR)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_sampler_desc.mipmap_mode = %d is not a tr_mipmap_mode",
                         (int)d.mipmap_mode);
    if ((unsigned)d.address_u > TR_ADDRESS_CLAMP_TO_BORDER || (unsigned)d.address_v > TR_ADDRESS_CLAMP_TO_BORDER)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT,
                         "tr_sampler_desc: address_u/address_v is not a tr_address_mode");
    if ((unsigned)d.border_color > TR_BORDER_OPAQUE_WHITE)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_sampler_desc.border_color = %d is not a tr_border_color",
                         (int)d.border_color);
    if ((unsigned)d.compare > TR_COMPARE_ALWAYS)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_sampler_desc.compare = %d is not a tr_compare_op",
                         (int)d.compare);
    if (!is_finite(d.lod_bias) || !is_finite(d.min_lod) || !is_finite(d.max_lod))
        return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR, "tr_sampler_desc: lod_bias, min_lod and max_lod must be finite");
    if (d.lod_bias > TR_MAX_SAMPLER_LOD_BIAS || d.lod_bias < -TR_MAX_SAMPLER_LOD_BIAS)
        return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR, "tr_sampler_desc.lod_bias = %g: |bias| exceeds %g",
                         (double)d.lod_bias, (double)TR_MAX_SAMPLER_LOD_BIAS);
    if (d.max_lod == 0.0f)
        d.max_lod = TR_LOD_CLAMP_NONE;
    const float max_lod = d.max_lod == TR_MAX_LOD_ZERO ? 0.0f : d.max_lod;
    if (max_lod < 0.0f)
        return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR,
                         "tr_sampler_desc.max_lod = %g: negative (a clamp at 0 is TR_MAX_LOD_ZERO)", (double)d.max_lod);
    if (d.min_lod > max_lod)
        return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR, "tr_sampler_desc: min_lod %g exceeds max_lod %g",
                         (double)d.min_lod, (double)max_lod);
    if (d.max_anisotropy > TR_MAX_ANISOTROPY)
        return tr__error(ctx, TR_ERROR_LIMIT_EXCEEDED, "tr_sampler_desc.max_anisotropy = %u exceeds %u",
                         d.max_anisotropy, TR_MAX_ANISOTROPY);
    if (d.max_anisotropy == 0)
        d.max_anisotropy = 1;

    tr_sampler *s = tr__calloc(ctx, sizeof(tr_sampler));
    if (!s)
        return tr__error(ctx, TR_ERROR_OUT_OF_MEMORY, "tr_sampler_create: out of memory");
    s->ctx = ctx;
    s->desc = d;
    s->bias_fx = tr__lod_fx(d.lod_bias);
    s->min_lod_fx = tr__lod_fx(d.min_lod);
    s->max_lod_fx = tr__lod_fx(max_lod);
    s->next = ctx->samplers;
    if (ctx->samplers)
        ctx->samplers->prev = s;
    ctx->samplers = s;
    *out = s;
    return TR_OK;
}

tr_result tr_sampler_destroy(tr_sampler *s)
{
    tr__api_enter(s ? s->ctx : NULL);
    if (!s)
        return TR_OK; /* as free(NULL) */
    tr_context *ctx = s->ctx;
    if (s->pass_uses && ctx->in_pass)
        return tr__error(ctx, TR_ERROR_INVALID_STATE, "tr_sampler_destroy: sampler is bound in the recording pass");
    if (s->prev)
        s->prev->next = s->next;
    else
        ctx->samplers = s->next;
    if (s->next)
        s->next->prev = s->prev;
    tr__free(ctx, s);
    return TR_OK;
}

tr_sampler_desc tr_sampler_get_desc(const tr_sampler *s)
{
    return s ? s->desc : (tr_sampler_desc){0};
}
