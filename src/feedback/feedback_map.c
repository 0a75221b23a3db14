/* tilerast: feedback maps -- creation, clearing, and the R8_UINT decode
 * and encode (ResolveSubresourceRegion's DECODE and ENCODE) of
 * include/tilerast/feedback.h. */
#include "feedback/feedback_internal.h"

static bool pow2(uint32_t x)
{
    return x && !(x & (x - 1));
}

static uint32_t log2u(uint32_t x)
{
    return 31u - (uint32_t)__builtin_clz(x);
}

static uint32_t div_up(uint32_t a, uint32_t b)
{
    return (a + b - 1) / b;
}

static tr_result check_region(tr_context *ctx, const char *field, uint32_t region, uint32_t size)
{
    if (!pow2(region))
        return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR,
                         "tr_feedback_map_desc.%s = %u is not a power of two", field, region);
    if (region < TR_FEEDBACK_MIN_REGION)
        return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR, "tr_feedback_map_desc.%s = %u is below the minimum %u",
                         field, region, TR_FEEDBACK_MIN_REGION);
    if ((uint64_t)region * 2 > size)
        return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR,
                         "tr_feedback_map_desc.%s = %u exceeds half of level 0's %u texels", field, region, size);
    return TR_OK;
}

static tr_result check_desc(tr_context *ctx, tr_feedback_map_desc *d)
{
    if ((unsigned)d->kind > TR_FEEDBACK_MIP_REGION_USED)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_feedback_map_desc.kind = %d is not a tr_feedback_kind",
                         (int)d->kind);
    if (!d->width || !d->height || d->width > TR_MAX_IMAGE_SIZE || d->height > TR_MAX_IMAGE_SIZE)
        return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR, "tr_feedback_map_desc: size %ux%u is outside 1..%u",
                         d->width, d->height, TR_MAX_IMAGE_SIZE);
    if (!d->levels)
        d->levels = 1;
    if (!d->layers)
        d->layers = 1;
    const uint32_t chain = log2u(TR_MAX(d->width, d->height)) + 1;
    if (d->levels > chain || d->levels > TR_MAX_IMAGE_LEVELS)
        return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR,
                         "tr_feedback_map_desc.levels = %u exceeds the %ux%u texture's chain of %u levels", d->levels,
                         d->width, d->height, TR_MIN(chain, TR_MAX_IMAGE_LEVELS));
    if (d->layers > TR_MAX_IMAGE_LAYERS)
        return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR, "tr_feedback_map_desc.layers = %u exceeds %u", d->layers,
                         TR_MAX_IMAGE_LAYERS);
    tr_result r = check_region(ctx, "region_width", d->region_width, d->width);
    return r != TR_OK ? r : check_region(ctx, "region_height", d->region_height, d->height);
}

tr_result tr_feedback_map_create(tr_context *ctx, const tr_feedback_map_desc *desc, tr_feedback_map **out)
{
    tr__api_enter(ctx);
    if (!out)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_feedback_map_create: out is NULL");
    *out = NULL;
    if (!ctx || !desc)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_feedback_map_create: %s is NULL", ctx ? "desc" : "ctx");
    tr_feedback_map_desc d = *desc;
    tr_result r = check_desc(ctx, &d);
    if (r != TR_OK)
        return r;
    /* The layout in a map on the stack first, in 64 bits, so that its
     * bytes are checked before anything is allocated. */
    tr_feedback_map layout = {.ctx = ctx, .desc = d};
    layout.region_log2[0] = log2u(d.region_width);
    layout.region_log2[1] = log2u(d.region_height);
    uint64_t bytes = 0;
    for (uint32_t l = 0; l < d.levels; l++) {
        layout.grid_w[l] = div_up(tr__feedback_level_w(&layout, l), d.region_width);
        layout.grid_h[l] = div_up(tr__feedback_level_h(&layout, l), d.region_height);
        layout.level_offset[l] = (size_t)bytes;
        bytes += (uint64_t)layout.grid_w[l] * layout.grid_h[l];
    }
    layout.encoded_offset = (size_t)bytes;
    if (d.kind == TR_FEEDBACK_MIN_MIP)
        bytes += (uint64_t)layout.grid_w[0] * layout.grid_h[0];
    layout.layer_bytes = (size_t)bytes;
    r = tr__check_bytes(ctx, "tr_feedback_map_create", "the map", bytes * d.layers, false);
    if (r != TR_OK)
        return r;
    tr_feedback_map *m = tr__alloc(ctx, sizeof(*m));
    if (!m)
        return tr__error(ctx, TR_ERROR_OUT_OF_MEMORY, "tr_feedback_map_create: out of memory");
    *m = layout;
    m->data = tr__alloc(ctx, (size_t)bytes * d.layers);
    if (!m->data) {
        tr__free(ctx, m);
        return tr__error(ctx, TR_ERROR_OUT_OF_MEMORY, "tr_feedback_map_create: out of memory for %llu bytes",
                         (unsigned long long)bytes * d.layers);
    }
    m->next = ctx->feedback_maps;
    if (ctx->feedback_maps)
        ctx->feedback_maps->prev = m;
    ctx->feedback_maps = m;
    tr_feedback_map_clear(m);
    *out = m;
    return TR_OK;
}

tr_result tr_feedback_map_destroy(tr_feedback_map *m)
{
    tr__api_enter(m ? m->ctx : NULL);
    if (!m)
        return TR_OK; /* as free(NULL) */
    tr_context *ctx = m->ctx;
    if (m->pass_uses && ctx->in_pass)
        return tr__error(ctx, TR_ERROR_INVALID_STATE, "tr_feedback_map_destroy: the map is bound in the recording pass");
    if (m->prev)
        m->prev->next = m->next;
    else
        ctx->feedback_maps = m->next;
    if (m->next)
        m->next->prev = m->prev;
    tr__free(ctx, m->data);
    tr__free(ctx, m);
    return TR_OK;
}

tr_feedback_map_desc tr_feedback_map_get_desc(const tr_feedback_map *m)
{
    return m ? m->desc : (tr_feedback_map_desc){0};
}

/* The map may be changed or read now (not while a recording pass holds it). */
static tr_result check_idle(const tr_feedback_map *m, const char *fn)
{
    if (m->pass_uses && m->ctx->in_pass)
        return tr__error(m->ctx, TR_ERROR_INVALID_STATE,
                         "%s: the map is bound in the recording pass (it is written when the pass ends)", fn);
    return TR_OK;
}

/* Empties one layer: no marks, no encoded levels. */
static void clear_layer(tr_feedback_map *m, uint32_t layer)
{
    uint8_t *base = m->data + (size_t)layer * m->layer_bytes;
    memset(base, 0, m->encoded_offset);
    memset(base + m->encoded_offset, TR_FEEDBACK_NONE, m->layer_bytes - m->encoded_offset);
}

tr_result tr_feedback_map_clear(tr_feedback_map *m)
{
    tr__api_enter(m ? m->ctx : NULL);
    if (!m)
        return tr__error(NULL, TR_ERROR_INVALID_ARGUMENT, "tr_feedback_map_clear: map is NULL");
    tr_result r = check_idle(m, "tr_feedback_map_clear");
    if (r != TR_OK)
        return r;
    for (uint32_t layer = 0; layer < m->desc.layers; layer++)
        clear_layer(m, layer);
    __atomic_store_n(&m->dropped, 0, __ATOMIC_RELAXED);
    return TR_OK;
}

tr_result tr_feedback_map_set_mode(tr_feedback_map *m, tr_feedback_mode mode)
{
    tr__api_enter(m ? m->ctx : NULL);
    if (!m)
        return tr__error(NULL, TR_ERROR_INVALID_ARGUMENT, "tr_feedback_map_set_mode: map is NULL");
    if ((unsigned)mode > TR_FEEDBACK_CONSERVATIVE)
        return tr__error(m->ctx, TR_ERROR_INVALID_ARGUMENT, "tr_feedback_map_set_mode: mode %d is not a tr_feedback_mode",
                         (int)mode);
    tr_result r = check_idle(m, "tr_feedback_map_set_mode");
    if (r == TR_OK)
        m->mode = mode;
    return r;
}

uint64_t tr_feedback_map_dropped_writes(const tr_feedback_map *m)
{
    return m ? __atomic_load_n(&m->dropped, __ATOMIC_RELAXED) : 0;
}

bool tr__feedback_pairs(const tr_feedback_map *m, const tr_image *img)
{
    return img && !(img->desc.flags & TR_IMAGE_SUBSAMPLED) && img->desc.width == m->desc.width &&
           img->desc.height == m->desc.height && img->desc.levels == m->desc.levels &&
           img->desc.layers == m->desc.layers;
}

/* ---- decode and encode ---------------------------------------------------------------------- */

tr_result tr_feedback_map_decoded_size(const tr_feedback_map *m, uint32_t level, uint32_t *width, uint32_t *height)
{
    tr__api_enter(m ? m->ctx : NULL);
    if (!m)
        return tr__error(NULL, TR_ERROR_INVALID_ARGUMENT, "tr_feedback_map_decoded_size: map is NULL");
    const uint32_t levels = m->desc.kind == TR_FEEDBACK_MIN_MIP ? 1u : m->desc.levels;
    if (level >= levels)
        return tr__error(m->ctx, TR_ERROR_OUT_OF_RANGE, "tr_feedback_map_decoded_size: level %u of %s map with %u %s",
                         level, m->desc.kind == TR_FEEDBACK_MIN_MIP ? "a MinMip" : "a MipRegionUsed", levels,
                         levels == 1 ? "level" : "levels");
    if (width)
        *width = m->grid_w[level];
    if (height)
        *height = m->grid_h[level];
    return TR_OK;
}

/* The checks decode and encode share; on TR_OK *row_pitch is the pitch to
 * use (image.h, "Caller buffers": 0 is the decoded width). */
static tr_result check_transfer(const tr_feedback_map *m, const char *fn, uint32_t layer, uint32_t level,
                                const void *bytes, size_t *row_pitch)
{
    if (!m)
        return tr__error(NULL, TR_ERROR_INVALID_ARGUMENT, "%s: map is NULL", fn);
    tr_result r = check_idle(m, fn);
    if (r != TR_OK)
        return r;
    if (!bytes)
        return tr__error(m->ctx, TR_ERROR_INVALID_ARGUMENT, "%s: the R8 buffer is NULL", fn);
    if (layer >= m->desc.layers)
        return tr__error(m->ctx, TR_ERROR_OUT_OF_RANGE, "%s: layer %u of a map with %u layers", fn, layer,
                         m->desc.layers);
    if (m->desc.kind == TR_FEEDBACK_MIN_MIP && level != 0)
        return tr__error(m->ctx, TR_ERROR_OUT_OF_RANGE,
                         "%s: level %u: a MinMip map has one level, 0 (it holds every mip in it)", fn, level);
    if (level >= m->desc.levels)
        return tr__error(m->ctx, TR_ERROR_OUT_OF_RANGE, "%s: level %u of a map with %u levels", fn, level,
                         m->desc.levels);
    return tr__check_pitch(m->ctx, fn, "row_pitch", m->grid_w[level], m->grid_h[level], row_pitch);
}

/* Level-l region i on one axis overlaps LOD-0 regions first..last (with a
 * positive length, in normalised coordinates): region i of a level of n
 * texels covers [i*r/n, min((i+1)*r, n)/n), LOD-0 region X of N texels
 * [X*r/N, min((X+1)*r, N)/N).  first = floor(i*r*N / (n*r)) (the last
 * X with X*r/N <= i*r/n), last = ceil(e*N / (r*n)) - 1 with e = min((i+1)*r,
 * n) (the last X with X*r/N < e/n). */
static void smear_range(uint32_t i, uint32_t r, uint32_t n, uint32_t N, uint32_t grid0, uint32_t *first,
                        uint32_t *last)
{
    const uint64_t e = TR_MIN((uint64_t)(i + 1) * r, (uint64_t)n);
    const uint64_t lo = (uint64_t)i * N / n;
    const uint64_t hi = (e * N + (uint64_t)r * n - 1) / ((uint64_t)r * n) - 1;
    *first = (uint32_t)TR_MIN(lo, (uint64_t)grid0 - 1);
    *last = (uint32_t)TR_MIN(hi, (uint64_t)grid0 - 1);
}

static void decode_min_mip(const tr_feedback_map *m, uint32_t layer, uint8_t *out, size_t pitch)
{
    const uint32_t gw = m->grid_w[0], gh = m->grid_h[0];
    const uint8_t *enc = m->data + (size_t)layer * m->layer_bytes + m->encoded_offset;
    for (uint32_t y = 0; y < gh; y++)
        memcpy(out + y * pitch, enc + (size_t)y * gw, gw);
    /* Coarse levels first, so finer ones overwrite: every write is a min. */
    for (uint32_t l = m->desc.levels; l-- > 0;) {
        const uint8_t *marks = tr__feedback_marks(m, layer, l);
        const uint32_t lw = tr__feedback_level_w(m, l), lh = tr__feedback_level_h(m, l);
        for (uint32_t j = 0; j < m->grid_h[l]; j++) {
            uint32_t y0, y1;
            smear_range(j, m->desc.region_height, lh, m->desc.height, gh, &y0, &y1);
            for (uint32_t i = 0; i < m->grid_w[l]; i++) {
                if (!marks[(size_t)j * m->grid_w[l] + i])
                    continue;
                uint32_t x0, x1;
                smear_range(i, m->desc.region_width, lw, m->desc.width, gw, &x0, &x1);
                for (uint32_t y = y0; y <= y1; y++)
                    for (uint32_t x = x0; x <= x1; x++) {
                        uint8_t *o = out + y * pitch + x;
                        *o = TR_MIN(*o, (uint8_t)l);
                    }
            }
        }
    }
}

tr_result tr_feedback_map_decode(const tr_feedback_map *m, uint32_t layer, uint32_t level, uint8_t *out,
                                 size_t row_pitch)
{
    tr__api_enter(m ? m->ctx : NULL);
    tr_result r = check_transfer(m, "tr_feedback_map_decode", layer, level, out, &row_pitch);
    if (r != TR_OK)
        return r;
    if (m->desc.kind == TR_FEEDBACK_MIN_MIP) {
        decode_min_mip(m, layer, out, row_pitch);
        return TR_OK;
    }
    const uint8_t *marks = tr__feedback_marks(m, layer, level);
    for (uint32_t y = 0; y < m->grid_h[level]; y++)
        for (uint32_t x = 0; x < m->grid_w[level]; x++)
            out[y * row_pitch + x] = marks[(size_t)y * m->grid_w[level] + x] ? TR_FEEDBACK_USED : 0;
    return TR_OK;
}

tr_result tr_feedback_map_encode(tr_feedback_map *m, uint32_t layer, uint32_t level, const uint8_t *in,
                                 size_t row_pitch)
{
    tr__api_enter(m ? m->ctx : NULL);
    tr_result r = check_transfer(m, "tr_feedback_map_encode", layer, level, in, &row_pitch);
    if (r != TR_OK)
        return r;
    const uint32_t gw = m->grid_w[level], gh = m->grid_h[level];
    if (m->desc.kind == TR_FEEDBACK_MIN_MIP) {
        clear_layer(m, layer);
        /* vkd3d-proton keeps every level a 16k texture could have */
        const uint32_t limit = m->mode == TR_FEEDBACK_CONSERVATIVE ? TR_MAX_IMAGE_LEVELS : m->desc.levels;
        uint8_t *enc = m->data + (size_t)layer * m->layer_bytes + m->encoded_offset;
        for (uint32_t y = 0; y < gh; y++)
            for (uint32_t x = 0; x < gw; x++) {
                const uint8_t v = in[y * row_pitch + x];
                enc[(size_t)y * gw + x] = v < limit ? v : TR_FEEDBACK_NONE;
            }
        return TR_OK;
    }
    uint8_t *marks = tr__feedback_marks(m, layer, level);
    for (uint32_t y = 0; y < gh; y++)
        for (uint32_t x = 0; x < gw; x++)
            marks[(size_t)y * gw + x] = in[y * row_pitch + x] != 0;
    return TR_OK;
}
