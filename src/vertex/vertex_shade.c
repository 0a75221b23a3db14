/* tilerast vertex stage: running the vertex shader on batches. */
#include <simde/x86/sse.h>

#include "vertex/vertex_internal.h"

static inline uint32_t vertex_id(const tr__vertex_source *src, uint32_t pos)
{
    if (!src->indices)
        return src->first + pos;
    uint32_t v = tr__index_at(src, src->first + pos);
    return (uint32_t)((int64_t)v + src->vertex_offset);
}

/* tr_attribute_element(r, id) for the common records without the call:
 * LINEAR (per-vertex data of a draw without instancing), and MODULUS where
 * the id is already below the modulus (per-vertex data of instance 0: the
 * modulus is the padded count) and the division would give it back. */
static inline uint32_t element_of(const tr_attribute_record *r, uint64_t modulus, uint32_t id)
{
    if (r->mode == TR_ATTRIBUTE_MODE_LINEAR)
        return r->zero_stride ? 0u : id;
    if (r->mode == TR_ATTRIBUTE_MODE_MODULUS && id < modulus)
        return id;
    return tr_attribute_element(r, id);
}

/* Fetches every attribute of the draw for lanes [0, n). */
static void fetch_attributes(const tr__fetch *f, const tr__vertex_source *src, uint32_t n, tr_vs_batch *b)
{
    const uint32_t slot0 = src->instance * f->padded_count; /* < 2^32: checked by the draw */
    for (uint32_t k = 0; k < f->attr_count; k++) {
        const tr__fetch_attr *a = &f->attr[k];
        float(*out)[TR_VS_LANES] = b->attrib.f[a->location];
        uint32_t(*outu)[TR_VS_LANES] = b->attrib.u[a->location];
        const uint64_t modulus = tr__attribute_modulus(&a->record);
        for (uint32_t l = 0; l < n; l++) {
            uint32_t linear = slot0 + (b->vertex_index[l] - f->vertex_base);
            uint64_t element = (uint64_t)a->first + element_of(&a->record, modulus, linear);
            const uint8_t *p = a->base + element * a->stride;
            uint32_t w[4] = {0, 0, 0, 0};
            switch (a->format) {
            case TR_VERTEX_FORMAT_R8G8B8A8_UNORM:
                for (int c = 0; c < 4; c++)
                    out[c][l] = (float)p[c] / 255.0f;
                continue;
            case TR_VERTEX_FORMAT_R32_SFLOAT:
            case TR_VERTEX_FORMAT_R32G32_SFLOAT:
            case TR_VERTEX_FORMAT_R32G32B32_SFLOAT:
            case TR_VERTEX_FORMAT_R32G32B32A32_SFLOAT: {
                uint32_t nc = tr__vertex_format_bytes(a->format) / 4;
                float one = 1.0f;
                memcpy(&w[3], &one, 4);
                memcpy(w, p, nc * 4);
                break;
            }
            default: { /* 32-bit unsigned integers */
                uint32_t nc = tr__vertex_format_bytes(a->format) / 4;
                w[3] = 1;
                memcpy(w, p, nc * 4);
                break;
            }
            }
            for (int c = 0; c < 4; c++)
                outu[c][l] = w[c];
        }
    }
}

/* A point's size: clamped to [1, max], NaN to 1 (selects keep NaN out). */
static inline float clamp_point_size(float ps)
{
    return ps >= 1.0f ? (ps <= TR_MAX_POINT_SIZE ? ps : TR_MAX_POINT_SIZE) : 1.0f;
}

/* Lanes l .. l + 3 of a four-component output (comp[c][lane]) to four
 * vertices `stride` floats apart from o, each its lane's four components. */
static inline void lanes_to_vertices4(const float comp[4][TR_VS_LANES], uint32_t l, float *o, uint32_t stride)
{
    simde__m128 r0 = simde_mm_loadu_ps(&comp[0][l]), r1 = simde_mm_loadu_ps(&comp[1][l]);
    simde__m128 r2 = simde_mm_loadu_ps(&comp[2][l]), r3 = simde_mm_loadu_ps(&comp[3][l]);
    SIMDE_MM_TRANSPOSE4_PS(r0, r1, r2, r3);
    simde_mm_storeu_ps(o, r0);
    simde_mm_storeu_ps(o + stride, r1);
    simde_mm_storeu_ps(o + 2 * (size_t)stride, r2);
    simde_mm_storeu_ps(o + 3 * (size_t)stride, r3);
}

void tr__vertex_shade(const tr_pipeline *p, const tr__vertex_source *src, const void *uniforms,
                      struct tr__spv_draw *spv, uint32_t begin, uint32_t end, float *out, tr_vs_batch *b,
                      const tr__vertex_place *place, tr__vwin *win)
{
    const uint32_t nv = p->desc.varying_count;
    const uint32_t stride = tr__vertex_stride(&p->desc);
    const bool points = p->desc.topology == TR_TOPOLOGY_POINT_LIST;
    b->view_index = src->view_index;
    b->uniforms = uniforms;
    for (uint32_t base = begin; base < end; base += TR_VS_LANES) {
        uint32_t n = TR_MIN(TR_VS_LANES, end - base);
        b->count = n;
        for (uint32_t l = 0; l < n; l++) {
            b->vertex_index[l] = vertex_id(src, base + l);
            b->instance_index[l] = src->instance_index;
        }
        if (src->fetch && src->fetch->attr_count)
            fetch_attributes(src->fetch, src, n, b);
        /* Outputs the shader does not write read as 0, w as 1. */
        memset(b->position, 0, sizeof(b->position));
        for (uint32_t l = 0; l < TR_VS_LANES; l++)
            b->position[3][l] = 1.0f;
        memset(b->varyings, 0, sizeof(float) * 4 * TR_VS_LANES * nv);
        for (uint32_t l = 0; l < TR_VS_LANES; l++)
            b->point_size[l] = 1.0f;
        tr__shade_vertices(p, spv, b);
        if (place) {
            if (place->vector)
                tr__vertex_place_lanes_avx2(place, b, n, win + (base - begin));
            else
                tr__vertex_place_lanes(place, b, n, win + (base - begin));
        }
        /* The outputs, lanes to vertices: four lanes at a time by a 4 x 4
         * transpose, the rest one by one (the same floats moved). */
        uint32_t l = 0;
        for (; l + 4 <= n; l += 4) {
            float *o = out + (size_t)(base - begin + l) * stride;
            lanes_to_vertices4(b->position, l, o, stride);
            for (uint32_t v = 0; v < nv; v++)
                lanes_to_vertices4(b->varyings[v], l, o + 4 + 4 * v, stride);
            if (points)
                for (uint32_t k = 0; k < 4; k++)
                    o[(size_t)k * stride + stride - 1] = clamp_point_size(b->point_size[l + k]);
        }
        for (; l < n; l++) {
            float *o = out + (size_t)(base - begin + l) * stride;
            for (uint32_t c = 0; c < 4; c++)
                o[c] = b->position[c][l];
            for (uint32_t v = 0; v < nv; v++)
                for (uint32_t c = 0; c < 4; c++)
                    o[4 + v * 4 + c] = b->varyings[v][c][l];
            if (points)
                o[stride - 1] = clamp_point_size(b->point_size[l]);
        }
    }
}
