/* tilerast vertex stage.
 * Consumes: a draw's vertex ids (index values or a range), the pipeline's
 * vertex shader and the draw's viewport.  Produces: shaded vertices (clip
 * position then varyings, 4 + 4 * varying_count floats each), triangles
 * clipped against the near and far planes, w > 0 and the guard band, and
 * their window-space positions. */
#ifndef TILERAST_VERTEX_INTERNAL_H
#define TILERAST_VERTEX_INTERNAL_H

#include <math.h>

#include "record.h"
#include "walk/walk_internal.h"

/* Window coordinates are kept within +-TR_GUARD_BAND pixels so that edge
 * functions in 1/256 pixel stay far inside 64-bit integers (|coord| < 2^28,
 * products < 2^58).  Triangles reaching further are clipped to the band,
 * which lies 2^20 pixels out: far outside any image. */
#define TR_GUARD_BAND 1048576.0f
/* Smallest w kept by clipping, so 1/w stays finite. */
#define TR_W_MIN 1.0e-20f
/* Most vertices clipping can make from a triangle: 3 + one per plane (7). */
#define TR_CLIP_MAX_VERTS 10

/* One vertex attribute of a draw, ready to fetch (Mali-style, instancing.h):
 * element = first + tr_attribute_element(&record, linear id), read at
 * base + element * stride. */
typedef struct tr__fetch_attr {
    uint32_t location;
    tr_vertex_format format;
    const uint8_t *base;       /* buffer + bind offset + attribute offset */
    uint32_t stride;
    uint32_t first;            /* the draw's vertex base (per vertex) or first instance */
    tr_attribute_record record;
} tr__fetch_attr;

/* How a draw turns (vertex id, instance) into linear ids and attributes. */
typedef struct tr__fetch {
    uint32_t vertex_base;      /* vertex id of slot 0: first vertex, or the smallest index + offset */
    uint32_t vertex_count;     /* slots in use per instance */
    uint32_t padded_count;     /* slots per instance (tr_padded_vertex_count when instancing) */
    uint32_t attr_count;
    tr__fetch_attr attr[TR_MAX_VERTEX_ATTRIBUTES];
} tr__fetch;

/* Vertex ids of one draw: either index values (+ offset) or first + position. */
typedef struct tr__vertex_source {
    const void *indices;       /* NULL: non-indexed */
    tr_index_type index_type;
    uint32_t first;            /* first index / first vertex */
    int32_t vertex_offset;
    uint32_t instance;         /* instance number within the draw, from 0 */
    uint32_t instance_index;   /* gl_InstanceIndex (first instance + instance) */
    uint32_t view_index;
    const tr__fetch *fetch;
} tr__vertex_source;

/* Sizes of a vertex format: bytes read and components delivered. */
uint32_t tr__vertex_format_bytes(tr_vertex_format f);

/* Index i of the bound buffer (which need not be aligned). */
static inline uint32_t tr__index_at(const tr__vertex_source *src, uint32_t i)
{
    const uint8_t *b = src->indices;
    if (src->index_type == TR_INDEX_U16) {
        uint16_t v;
        memcpy(&v, b + (size_t)i * 2, 2);
        return v;
    }
    uint32_t v;
    memcpy(&v, b + (size_t)i * 4, 4);
    return v;
}

/* Prepares the fetch of a draw: the vertex range (scanning the indices of
 * an indexed draw), the padded count and each attribute's record, with
 * every element it will read checked against its buffer.  Errors are
 * reported on ctx under the name fn. */
tr_result tr__vertex_fetch_prepare(tr_context *ctx, const char *fn, const tr_pipeline_desc *pd,
                                   const tr__vertex_buffer *buffers, const tr__vertex_source *src,
                                   uint32_t count, uint32_t instance_count, uint32_t first_instance,
                                   tr__fetch *out);

/* Floats per shaded vertex: position, varyings and, for points, the
 * clamped point size last. */
static inline uint32_t tr__vertex_stride(const tr_pipeline_desc *pd)
{
    return 4 + 4 * pd->varying_count + (pd->topology == TR_TOPOLOGY_POINT_LIST);
}

/* A shaded vertex placed in the window, as set-up places it: x, y, z and
 * 1/w (tr__vertex_window's floats), x and y on the subpixel grid
 * (tr__snap_subpixel), and whether set-up may take it from here: its
 * position finite and inside every plane tr__vertex_clip clips against
 * (a triangle of three such vertices is its own polygon), its window x, y
 * within twice the guard band (set-up's check). */
typedef struct tr__vwin {
    float win[4];
    int32_t sub[2];
    uint32_t inside;
} tr__vwin;

/* How a draw's vertices are placed (tr__vertex_shade's `place`): its
 * viewport and guard band; `vector`: with the AVX2 and FMA kernel (the
 * same floats: vertex_avx2.c). */
typedef struct tr__vertex_place {
    const tr_viewport *vp;
    float gb_x, gb_y;
    bool vector;
} tr__vertex_place;

/* Shades stream positions [begin, end) into out (tr__vertex_stride floats
 * per vertex), and with `place` (else NULL) each one's tr__vwin into win. */
void tr__vertex_shade(const tr_pipeline *p, const tr__vertex_source *src, const void *uniforms,
                      struct tr__spv_draw *spv, uint32_t begin, uint32_t end, float *out, tr_vs_batch *b,
                      const tr__vertex_place *place, tr__vwin *win);

/* tr__vwin of lanes [0, n) of a shaded batch (b->position), one by one
 * (tr__vertex_window and the clip planes), and its AVX2 and FMA twin (in a
 * build without AVX2 kernels, the scalar one). */
void tr__vertex_place_lanes(const tr__vertex_place *place, const tr_vs_batch *b, uint32_t n, tr__vwin *out);
void tr__vertex_place_lanes_avx2(const tr__vertex_place *place, const tr_vs_batch *b, uint32_t n, tr__vwin *out);
/* Whether this CPU runs tr__vertex_place_lanes_avx2 (AVX2 and FMA). */
bool tr__cpu_has_avx2_fma(void);

/* Guard-band factors for a viewport: |x| <= gb_x * w keeps the window x in band. */
void tr__vertex_guard_band(const tr_viewport *vp, float *gb_x, float *gb_y);

/* Is any position component not finite? */
static inline bool tr__vertex_nonfinite(const float *v)
{
    return !isfinite(v[0]) || !isfinite(v[1]) || !isfinite(v[2]) || !isfinite(v[3]);
}

/* The vertices of a clipped polygon.  Attributes are floats (stride per
 * vertex); positions made by clipping are also kept in double (exact[i]
 * set) so that setup can place them without float rounding at guard-band
 * distances.  Vertices that are inputs keep exact[i] clear and take the
 * same float path as in an unclipped triangle (watertight neighbours). */
typedef struct tr__clip_poly {
    uint32_t count;
    bool exact[TR_CLIP_MAX_VERTS];
    double pos[TR_CLIP_MAX_VERTS][4];
} tr__clip_poly;

/* Clips a triangle (3 pointers to shaded vertices) into out (stride floats
 * per vertex, TR_CLIP_MAX_VERTS vertices).  Returns the vertex count: 0 when
 * culled; 3 with *clipped false when no clipping was needed, and then out
 * is left alone (the inputs are the polygon: nothing is copied).  The
 * varyings of noperspective_mask are made linear in the framebuffer
 * (vertex_clip.c). */
uint32_t tr__vertex_clip(const float *const in[3], uint32_t stride, uint32_t noperspective_mask, float gb_x,
                         float gb_y, float *out, tr__clip_poly *poly, bool *clipped);

/* Clips a line (2 pointers to shaded vertices) into out (2 vertices of
 * stride floats) against the planes triangles are clipped against; exact
 * positions as for triangles.  false when nothing is left. */
bool tr__vertex_clip_line(const float *const in[2], uint32_t stride, uint32_t noperspective_mask, float gb_x,
                          float gb_y, float *out, tr__clip_poly *poly, bool *clipped);

/* Does a point's vertex lie in the view volume (-w <= x, y <= w,
 * 0 <= z <= w, w > 0)?  Points outside it are discarded (Vulkan, GL). */
bool tr__vertex_point_inside(const float *v);

/* Perspective divide and viewport transform: window x, y, z and 1/w, in
 * float (the rule for every vertex a shader produced) ... */
void tr__vertex_window(const tr_viewport *vp, const float *clip, double win[4]);
/* ... and in double, for vertices that clipping made. */
void tr__vertex_window_exact(const tr_viewport *vp, const double *clip, double win[4]);

/* The modulus a TR_ATTRIBUTE_MODE_MODULUS record holds, as the hardware
 * does: (2 * odd + 1) << shift. */
static inline uint64_t tr__attribute_modulus(const tr_attribute_record *r)
{
    return (uint64_t)(2u * (r->odd & 7u) + 1u) << (r->shift & 31u);
}

#endif
