/* tilerast: what recording a pass produces and every later stage reads:
 * the attachments as the tile pass sees them, draw records (pipeline plus
 * the dynamic state each draw was recorded with) and set-up triangles.
 * The executor (pass.h) makes them; vertex, bin, lrz and raster read them
 * as plain data and never see the executor's own state. */
#ifndef TILERAST_RECORD_H
#define TILERAST_RECORD_H

#include <math.h>

#include "internal.h"

#define TR__MAX_ATTACHMENTS_ (TR_MAX_COLOR_ATTACHMENTS + 2)

/* One recorded draw: pipeline plus the dynamic state it was recorded with. */
typedef struct tr__draw {
    const tr_pipeline *pipeline;
    tr_viewport viewport;
    int32_t scissor[4];        /* x0, y0, x1, y1 (exclusive), inside the render area and the
                                  viewport's rectangle (pixel centres) */
    int32_t area_scissor[4];   /* the user's scissor inside the render area, without the
                                  viewport's bound: what FDM patches per bin (fdm_internal.h) */
    int32_t bin_scissor[4];    /* what set-up cuts a triangle's box to: scissor, or with a
                                  density map scissor widened outward to multiples of
                                  TR_FDM_MAX_FRAGMENT_AREA (coarse fragments reach that far) */
    uint8_t fdm;               /* the pass has a density map: set-up is conservative (below) */
    int32_t win_offset[2];     /* added to window x, y after the viewport transform, exactly (in
                                  double, before the snap): an FDM bin view's o, so that a
                                  triangle's coarse vertices do not depend on where its bin lies
                                  (fdm_view.h); 0 for recorded draws */
    uint32_t stencil_ref[2];   /* front, back */
    float blend_constants[4];
    const void *uniforms;
    struct tr__spv_draw *spv;  /* the SPIR-V stages' resources (src/shader), NULL for C stages */
    const tr_texture_binding *textures; /* TR_MAX_TEXTURES slots, in the pass arena */
    tr_feedback_map *const *feedback_maps; /* TR_MAX_FEEDBACK_MAPS slots, in the pass arena */
    float depth_min, depth_max; /* the viewport's depth range, ordered */
    uint32_t depth_qmax;       /* the pass's depth format is D16 / D24: its 2^n - 1 (fragment
                                  depths are quantised, tr__depth_quantise); else 0 */
    uint8_t lrz_test_dir;      /* tr_lrz_direction the draw is LRZ-tested in; UNKNOWN: none */
    uint8_t lrz_write;         /* its triangles tighten LRZ bounds while binning */
    /* GL's lower-left origin (TR_PASS_ORIGIN_LOWER_LEFT); both 0 without:
     * flip_y: the framebuffer height (gl_FragCoord.y = flip_y - row);
     * flip_sub: set-up's image y = flip_sub (+ win_offset) - the snapped
     * window y, in subpixels: flip_y * 256, divided by an FDM bin's
     * fragment height in a scaled bin (exact: a power of two up to 8). */
    int32_t flip_y, flip_sub;
    uint8_t samples;           /* the pass's sample count: above 1, set-up's box holds every
                                  pixel whose area meets the triangle's (multisample.h) */
    /* tr_cmd_clear_attachments: bit i clears att[i] (GMEM order) with
     * clear_texel[i]; pipeline is NULL.  0 for draws. */
    uint32_t clear_atts;
    uint8_t clear_texel[TR__MAX_ATTACHMENTS_][16];
} tr__draw;

/* A set-up triangle.  Positions are in 1/256 pixel in framebuffer space and
 * ordered so that twice the signed area is positive; the edge functions are
 * positive inside.  Attributes follow the struct: per vertex z, 1/w, then
 * varying_count * 4 floats.
 *
 * In a pass with a density map (tr__draw.fdm) a bin may be rendered at a
 * reduced scale, where the triangle is set up again from its clipped
 * vertices with the bin's patched viewport (seed 000): set-up then keeps
 * those vertices after the attributes (tr__tri_source), and keeps, for
 * binning, triangles that cover no pixel centre at full scale or are
 * culled there (TR__TRI_FB_CULLED: full-scale bins skip them), with a box
 * of every pixel the triangle touches, one pixel wider on each side (a
 * coarse fragment's centre may lie between full-scale pixel centres, and
 * re-snapping at 1/256 of a coarse pixel moves vertices by up to 1/128
 * pixel). */
typedef struct tr__tri {
    int64_t edge_a[3], edge_b[3], edge_c[3]; /* E(p) = a*px + b*py + c, tie bias folded into c */
    int32_t x0, y0;            /* vertex 0, the origin of the barycentric planes */
    int32_t bbox[4];           /* covered pixel range: x0, y0 inclusive, x1, y1 exclusive */
    float l1_a, l1_b, l2_a, l2_b; /* barycentrics l1, l2 = a*dx + b*dy, dx,dy in 1/256 px from vertex 0 */
    uint32_t draw, instance, primitive;
    uint16_t view;
    uint8_t front_facing;
    uint8_t flags;             /* TR__TRI_* */
    float attr[];              /* 3 * (2 + 4 * varying_count) */
} tr__tri;

#define TR__TRI_FB_CULLED 1u   /* culled at full scale (zero area, facing, no pixel centre): binned
                                  for scaled bins only (tr__draw.fdm) */
#define TR__TRI_CONSERVATIVE 2u /* set up by an FDM pass's front end: a conservative box (above) */
#define TR__TRI_SAMPLES 4u      /* set up for a multisampled pass: its samples lie anywhere inside a
                                  pixel, so binning tests pixels' areas, not their centres */
#define TR__TRI_BOX_CLIP 8u     /* a Bresenham line (raster_prims.c): its box is exact, and the
                                  raster cuts to it (its ends are not edges) */
#define TR__TRI_POINT 16u       /* a point: l1, l2 are its point coordinate */
#define TR__TRI_PROXY 32u       /* a line or point of a pass with a density map: only its box and
                                  source vertices; every bin sets it up again (raster_prims.c) */

/* The clipped vertices a triangle was set up from (tr__draw.fdm only), in
 * the order set-up received them: 3 * (4 + 4 * varying_count) floats
 * (position, then varyings with flat ones already the provoking vertex's),
 * and for vertices clipping made, their exact position. */
typedef struct tr__tri_src {
    uint8_t exact[3];
    double pos[3][4];
    float v[];
} tr__tri_src;

/* A draw's scissor: `area_scissor` (the user's, inside the render area) cut
 * to the viewport's rectangle.  The clip volume ends at the viewport's
 * edges, but clipping only cuts at the guard band: the viewport rectangle
 * is applied as a scissor, a pixel drawn only if its centre lies in
 * [x, x + width) x [y, y + |height|). */
static inline void tr__draw_scissor(const int32_t area_scissor[4], const tr_viewport *vp, float flip_h, int32_t out[4])
{
    /* GL's lower-left origin (flip_h, the height rows flip about; 0 none):
     * the viewport's window rows [y, y + h) are rows [flip_h - y - h, flip_h - y) */
    const float y0 = flip_h ? flip_h - vp->y : vp->y, h = flip_h ? -vp->height : vp->height;
    const double vy0 = TR_MIN(y0, y0 + h), vy1 = TR_MAX(y0, y0 + h);
    const int32_t v[4] = {(int32_t)ceil((double)vp->x - 0.5), (int32_t)ceil(vy0 - 0.5),
                          (int32_t)ceil((double)vp->x + vp->width - 0.5), (int32_t)ceil(vy1 - 0.5)};
    out[0] = TR_MAX(area_scissor[0], v[0]);
    out[1] = TR_MAX(area_scissor[1], v[1]);
    out[2] = TR_MIN(area_scissor[2], v[2]);
    out[3] = TR_MIN(area_scissor[3], v[3]);
}

/* Bytes of a triangle's block (struct and attributes), 16-aligned: the
 * source vertices of an FDM pass follow at this offset. */
static inline size_t tr__tri_bytes(uint32_t varying_count)
{
    return (sizeof(tr__tri) + sizeof(float) * (8u + 12u * varying_count) + 15u) & ~(size_t)15u;
}
static inline size_t tr__tri_src_bytes(uint32_t varying_count)
{
    return (sizeof(tr__tri_src) + sizeof(float) * 3u * (4u + 4u * varying_count) + 15u) & ~(size_t)15u;
}
static inline const tr__tri_src *tr__tri_source(const tr__tri *t, uint32_t varying_count)
{
    return (const tr__tri_src *)(const void *)((const char *)t + tr__tri_bytes(varying_count));
}

#define TR__VIEWS_MAX TR_MAX_VIEWS

typedef struct tr__attachment_state {
    tr_image *image;
    uint32_t level, base_layer;
    tr_format format;
    uint32_t cpp;              /* bytes per pixel in GMEM */
    size_t gmem_offset;        /* offset of this attachment's slice in a tile buffer */
    bool stencil_plane;        /* the separate stencil of D32_SFLOAT_S8_UINT */
    bool subsampled;           /* a TR_IMAGE_SUBSAMPLED colour attachment (src/subsample) */
    tr_load_op load;
    tr_store_op store;
    uint8_t clear_texel[16];
    tr_image *resolve;         /* a colour attachment's resolve image (multisample.h), or NULL */
    uint32_t resolve_level, resolve_base_layer;
} tr__attachment_state;

#define TR__MAX_ATTACHMENTS TR__MAX_ATTACHMENTS_

/* The image texel (x, y) of view `view` that an attachment's GMEM slice
 * mirrors: its plane (main or stencil) at level and base_layer + view. */
static inline uint8_t *tr__att_sample_texel(const tr__attachment_state *a, uint32_t view, uint32_t sample,
                                            uint32_t x, uint32_t y)
{
    const tr_image *img = a->image;
    const size_t idx = tr__image_texel_index(img, a->level, tr__image_plane(img, a->base_layer + view, sample), x, y);
    return a->stencil_plane ? img->stencil + idx : img->data + idx * img->fmt->texel;
}
static inline uint8_t *tr__att_texel(const tr__attachment_state *a, uint32_t view, uint32_t x, uint32_t y)
{
    return tr__att_sample_texel(a, view, 0, x, y);
}

/* A visibility stream: u32 words; each entry is the triangle's index
 * followed by mask_words words of bin bits (bins of the pipe, row-major). */
typedef struct tr__stream {
    uint32_t *words;
    size_t count, cap;
} tr__stream;

/* The recorded work of a pass (llvmpipe's scene): what the executor's
 * front end makes from the tr_cmd_* calls and the tile pass renders.
 * Triangles live in the front end's arenas and in `arena` (with uniforms
 * and the draws' copies of bindings); the streams are the binning stage's
 * output (src/bin). */
typedef struct tr__recording {
    tr__draw *draws;
    size_t draw_count, draw_cap;
    tr__tri **tris;
    size_t tri_count, tri_cap;
    uint8_t *lrz_cand;         /* [tri]: 1 if the triangle may write LRZ (tr__lrz_may_write) */
    size_t lrz_cand_cap;
    tr__stream *streams;       /* [view slot][pipe] */
    size_t stream_slots;
    /* Per view slot: b_o, the shift the streams' bins have (the plan's
     * fdm_bo until a draw writes the viewport index; then 0, fdm.h). */
    int32_t bo[TR__VIEWS_MAX][2];
    bool fdm_shared_viewport;  /* a draw's pipeline writes the viewport index */
    tr__arena arena;           /* triangles, uniforms, binding copies */
} tr__recording;

/* A bound vertex buffer (tr_cmd_bind_vertex_buffer): bytes from the bind offset on. */
typedef struct tr__vertex_buffer {
    const uint8_t *data;       /* NULL: nothing bound */
    size_t size;
} tr__vertex_buffer;

/* ---- a draw's SPIR-V resources (src/shader/shader_api.c) ------------------
 * What the recording pass has bound for SPIR-V stages when a draw is recorded. */
typedef struct tr__spv_bindings {
    const void *ubo[TR_MAX_UNIFORM_BUFFERS]; /* tr_cmd_bind_uniform_buffer's copies */
    uint32_t ubo_size[TR_MAX_UNIFORM_BUFFERS];
    const void *push;          /* tr_cmd_set_uniforms' copy */
    size_t push_size;
    uint32_t samples;          /* the pass's sample count */
    bool flip_y;               /* TR_PASS_ORIGIN_LOWER_LEFT */
} tr__spv_bindings;

/* Makes d->spv (in the arena) for a pipeline with SPIR-V stages (NULL for C
 * ones): TR_ERROR_INVALID_STATE naming a uniform buffer a module reads and
 * nothing is bound to, TR_ERROR_OUT_OF_MEMORY (no message) when the arena
 * has no room. */
tr_result tr__spv_draw_prepare(tr_context *ctx, const char *fn, tr__arena *arena, const tr_pipeline *pl,
                               const tr__spv_bindings *bind, tr__draw *d);
/* After a stage ran: TR_ERROR_LIMIT_EXCEEDED when a program of the draw ran
 * past its budget (stage_bit 1 vertex, 2 fragment), TR_ERROR_OUT_OF_MEMORY
 * when a thread had no register file. */
tr_result tr__spv_draw_check(tr_context *ctx, const char *fn, const tr__draw *d, uint32_t stage_bit);

#endif
