/* tilerast vertex stage: vertex attribute fetch, the way a Mali vertex job
 * does it.  A draw's vertices occupy slots [0, vertex_count) of each
 * instance's padded_count slots; slot v of instance i has the linear id
 * i * padded_count + v, and every attribute turns that linear id into an
 * element index with its record's mode (instancing.h).  Padding slots
 * (v >= vertex_count) are dispatched by the hardware and discarded: no
 * index maps to them, so they are never shaded here. */
#include "vertex/vertex_internal.h"

static const uint8_t format_bytes[TR_VERTEX_FORMAT_COUNT] = {
    [TR_VERTEX_FORMAT_R32_SFLOAT] = 4,         [TR_VERTEX_FORMAT_R32G32_SFLOAT] = 8,
    [TR_VERTEX_FORMAT_R32G32B32_SFLOAT] = 12,  [TR_VERTEX_FORMAT_R32G32B32A32_SFLOAT] = 16,
    [TR_VERTEX_FORMAT_R8G8B8A8_UNORM] = 4,     [TR_VERTEX_FORMAT_R32_UINT] = 4,
    [TR_VERTEX_FORMAT_R32G32_UINT] = 8,        [TR_VERTEX_FORMAT_R32G32B32_UINT] = 12,
    [TR_VERTEX_FORMAT_R32G32B32A32_UINT] = 16,
};

uint32_t tr__vertex_format_bytes(tr_vertex_format f)
{
    return (unsigned)f < TR_VERTEX_FORMAT_COUNT ? format_bytes[f] : 0;
}

tr_result tr__vertex_fetch_prepare(tr_context *ctx, const char *fn, const tr_pipeline_desc *pd,
                                   const tr__vertex_buffer *buffers, const tr__vertex_source *src,
                                   uint32_t count, uint32_t instance_count, uint32_t first_instance,
                                   tr__fetch *out)
{
    memset(out, 0, offsetof(tr__fetch, attr));
    /* The vertex job's range: the draw's vertices, or every vertex id from
     * the smallest to the largest index (panfrost shades that whole range). */
    int64_t lo = src->first, hi = (int64_t)src->first + count - 1;
    if (src->indices && count) {
        uint32_t imin = UINT32_MAX, imax = 0;
        for (uint32_t i = 0; i < count; i++) {
            uint32_t v = tr__index_at(src, src->first + i);
            imin = TR_MIN(imin, v);
            imax = TR_MAX(imax, v);
        }
        lo = (int64_t)imin + src->vertex_offset;
        hi = (int64_t)imax + src->vertex_offset;
    }
    bool fetches = false;
    for (uint32_t a = 0; a < TR_MAX_VERTEX_ATTRIBUTES; a++)
        fetches |= pd->attributes[a].format != TR_VERTEX_FORMAT_UNDEFINED;
    if (count && fetches && (lo < 0 || hi > UINT32_MAX))
        return tr__error(ctx, TR_ERROR_OUT_OF_RANGE,
                         "%s: vertex index %lld (index + vertex_offset) is outside 0..2^32-1 and attributes are "
                         "fetched", fn, (long long)(lo < 0 ? lo : hi));
    /* Without attributes, gl_VertexIndex wraps like unsigned arithmetic and
     * so do the slots. */
    out->vertex_base = count ? (uint32_t)lo : 0;
    out->vertex_count = count ? (uint32_t)TR_MIN((uint64_t)(hi - lo + 1), (uint64_t)UINT32_MAX) : 0;

    tr_attribute_record probe;
    tr_result r = tr_attribute_record_for(TR_INPUT_RATE_VERTEX, 0, out->vertex_count, instance_count, &probe);
    if (r != TR_OK)
        return tr__error(ctx, TR_ERROR_LIMIT_EXCEEDED,
                         "%s: %u vertex slots (padded from %u) x %u instances exceed the 32-bit linear id", fn,
                         instance_count > 1 ? tr_padded_vertex_count(out->vertex_count) : out->vertex_count,
                         out->vertex_count, instance_count);
    out->padded_count = probe.padded_count;
    if (!count || !instance_count)
        return TR_OK;

    for (uint32_t a = 0; a < TR_MAX_VERTEX_ATTRIBUTES; a++) {
        const tr_vertex_attribute *va = &pd->attributes[a];
        if (va->format == TR_VERTEX_FORMAT_UNDEFINED)
            continue;
        const tr_vertex_binding *vb = &pd->bindings[va->binding];
        const tr__vertex_buffer *buf = &buffers[va->binding];
        if (!buf->data)
            return tr__error(ctx, TR_ERROR_INVALID_STATE, "%s: attribute %u reads binding %u, which has no buffer",
                             fn, a, va->binding);
        const bool per_instance = vb->input_rate == TR_INPUT_RATE_INSTANCE;
        const uint32_t divisor = !per_instance ? 0 : vb->divisor == TR_VERTEX_DIVISOR_ZERO ? 0 : vb->divisor;
        tr__fetch_attr *f = &out->attr[out->attr_count++];
        f->location = a;
        f->format = va->format;
        f->stride = vb->stride;
        f->first = per_instance ? first_instance : out->vertex_base;
        r = tr_attribute_record_for(vb->input_rate, divisor, out->vertex_count, instance_count, &f->record);
        if (r != TR_OK) /* the probe above already passed: cannot happen */
            return tr__error(ctx, r, "%s: attribute %u: no attribute record", fn, a);
        /* The last element read: per vertex, the last slot in use; per
         * instance, the last instance divided by the divisor. */
        uint64_t last = per_instance ? (divisor ? (instance_count - 1) / divisor : 0) : out->vertex_count - 1;
        uint64_t end = ((uint64_t)f->first + last) * vb->stride + va->offset + format_bytes[va->format];
        if (end > buf->size)
            return tr__error(ctx, TR_ERROR_OUT_OF_RANGE,
                             "%s: attribute %u reads bytes up to %llu of binding %u, which has %zu after its offset",
                             fn, a, (unsigned long long)end, va->binding, buf->size);
        f->base = buf->data + va->offset;
    }
    return TR_OK;
}
