/* tilerast vertex stage: running the vertex shader on batches. */
#include "vertex/vertex_internal.h"

static inline uint32_t vertex_id(const tr__vertex_source *src, uint32_t pos)
{
    if (!src->indices)
        return src->first + pos;
    uint32_t i = src->first + pos;
    uint32_t v = src->index_type == TR_INDEX_U16 ? ((const uint16_t *)src->indices)[i]
                                                 : ((const uint32_t *)src->indices)[i];
    return (uint32_t)((int64_t)v + src->vertex_offset);
}

void tr__vertex_shade(const tr_pipeline *p, const tr__vertex_source *src, const void *uniforms,
                      uint32_t begin, uint32_t end, float *out, tr_vs_batch *b)
{
    const uint32_t nv = p->desc.varying_count;
    const uint32_t stride = 4 + 4 * nv;
    b->view_index = src->view_index;
    b->uniforms = uniforms;
    for (uint32_t base = begin; base < end; base += TR_VS_LANES) {
        uint32_t n = TR_MIN(TR_VS_LANES, end - base);
        b->count = n;
        for (uint32_t l = 0; l < n; l++) {
            b->vertex_index[l] = vertex_id(src, base + l);
            b->instance_index[l] = src->instance_index;
        }
        /* Outputs the shader does not write read as 0, w as 1. */
        memset(b->position, 0, sizeof(b->position));
        for (uint32_t l = 0; l < TR_VS_LANES; l++)
            b->position[3][l] = 1.0f;
        memset(b->varyings, 0, sizeof(float) * 4 * TR_VS_LANES * nv);
        p->desc.vertex_shader(b);
        for (uint32_t l = 0; l < n; l++) {
            float *o = out + (size_t)(base - begin + l) * stride;
            for (uint32_t c = 0; c < 4; c++)
                o[c] = b->position[c][l];
            for (uint32_t v = 0; v < nv; v++)
                for (uint32_t c = 0; c < 4; c++)
                    o[4 + v * 4 + c] = b->varyings[v][c][l];
        }
    }
}
