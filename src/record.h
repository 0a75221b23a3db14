/* tilerast: what recording a pass produces and every later stage reads:
 * the attachments as the tile pass sees them, draw records (pipeline plus
 * the dynamic state each draw was recorded with) and set-up triangles.
 * The executor (pass.h) makes them; vertex, bin, lrz and raster read them
 * as plain data and never see the executor's own state. */
#ifndef TILERAST_RECORD_H
#define TILERAST_RECORD_H

#include "internal.h"

#define TR__MAX_ATTACHMENTS_ (TR_MAX_COLOR_ATTACHMENTS + 2)

/* One recorded draw: pipeline plus the dynamic state it was recorded with. */
typedef struct tr__draw {
    const tr_pipeline *pipeline;
    tr_viewport viewport;
    int32_t scissor[4];        /* x0, y0, x1, y1 (exclusive), inside the render area */
    uint32_t stencil_ref[2];   /* front, back */
    float blend_constants[4];
    const void *uniforms;
    const tr_texture_binding *textures; /* TR_MAX_TEXTURES slots, in the pass arena */
    float depth_min, depth_max; /* the viewport's depth range, ordered */
    uint8_t lrz_test_dir;      /* tr_lrz_direction the draw is LRZ-tested in; UNKNOWN: none */
    uint8_t lrz_write;         /* its triangles tighten LRZ bounds while binning */
    /* tr_cmd_clear_attachments: bit i clears att[i] (GMEM order) with
     * clear_texel[i]; pipeline is NULL.  0 for draws. */
    uint32_t clear_atts;
    uint8_t clear_texel[TR__MAX_ATTACHMENTS_][16];
} tr__draw;

/* A set-up triangle.  Positions are in 1/256 pixel in framebuffer space and
 * ordered so that twice the signed area is positive; the edge functions are
 * positive inside.  Attributes follow the struct: per vertex z, 1/w, then
 * varying_count * 4 floats. */
typedef struct tr__tri {
    int64_t edge_a[3], edge_b[3], edge_c[3]; /* E(p) = a*px + b*py + c, tie bias folded into c */
    int32_t x0, y0;            /* vertex 0, the origin of the barycentric planes */
    int32_t bbox[4];           /* covered pixel range: x0, y0 inclusive, x1, y1 exclusive */
    float l1_a, l1_b, l2_a, l2_b; /* barycentrics l1, l2 = a*dx + b*dy, dx,dy in 1/256 px from vertex 0 */
    uint32_t draw, instance, primitive;
    uint16_t view;
    uint8_t front_facing;
    uint8_t provoking;         /* which stored vertex is the provoking one */
    float attr[];              /* 3 * (2 + 4 * varying_count) */
} tr__tri;

#define TR__VIEWS_MAX TR_MAX_VIEWS

typedef struct tr__attachment_state {
    tr_image *image;
    uint32_t level, base_layer;
    tr_format format;
    uint32_t cpp;              /* bytes per pixel in GMEM */
    size_t gmem_offset;        /* offset of this attachment's slice in a tile buffer */
    bool stencil_plane;        /* the separate stencil of D32_SFLOAT_S8_UINT */
    tr_load_op load;
    tr_store_op store;
    uint8_t clear_texel[16];
} tr__attachment_state;

#define TR__MAX_ATTACHMENTS TR__MAX_ATTACHMENTS_

/* A bound vertex buffer (tr_cmd_bind_vertex_buffer): bytes from the bind offset on. */
typedef struct tr__vertex_buffer {
    const uint8_t *data;       /* NULL: nothing bound */
    size_t size;
} tr__vertex_buffer;

#endif
