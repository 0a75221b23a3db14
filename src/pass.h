/* tilerast: the state of the render pass being recorded, shared by the
 * stages.  Consumes tr_cmd_* calls; produces draw records, set-up triangles
 * (an arena) and per-(view, pipe) visibility streams that the tile pass
 * reads. */
#ifndef TILERAST_PASS_H
#define TILERAST_PASS_H

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

/* A visibility stream: u32 words; each entry is the triangle's index
 * followed by mask_words words of bin bits (bins of the pipe, row-major). */
typedef struct tr__stream {
    uint32_t *words;
    size_t count, cap;
} tr__stream;

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

/* Counters the set-up half of the front end keeps (merged in order). */
typedef struct setup_counts {
    uint64_t in, culled, nonfinite, clipped;
} setup_counts;

/* The parallel front end (pass.c): chunks of TR_FRONT_CHUNK primitives are
 * shaded, clipped and set up in parallel, one slot per chunk of a wave. */
#define TR_FRONT_CHUNK 64u
#define TR_FRONT_PIECES 8u /* triangles clipping can make of one (TR_CLIP_MAX_VERTS - 2) */

struct tr__front_slot {
    tr__arena arena;          /* this slot's triangles, for the whole pass */
    tr__tri *tris[TR_FRONT_CHUNK * TR_FRONT_PIECES];
    uint32_t count;
    /* their stream entries (tr__bin_classify), one after the other;
     * UINT32_MAX: did not fit, classified again while binning */
    uint32_t bin_words[TR_FRONT_CHUNK * TR_FRONT_PIECES];
    uint8_t lrz_cand[TR_FRONT_CHUNK * TR_FRONT_PIECES];
    uint32_t tri_index[TR_FRONT_CHUNK * TR_FRONT_PIECES]; /* in p->tris, once binned */
    uint32_t pipe_entries[TR_MAX_VSC_PIPES]; /* stream entries per pipe in bins */
    uint32_t deferred;        /* triangles whose entries did not fit */
    /* With several threads: the entries again, pipe by pipe (each pipe's
     * in triangle order from pipe_off[pipe]), the triangle's place in this
     * slot in the first word; and how many of the slot's triangles reach a
     * bin, and the first index in p->tris they get. */
    uint32_t *sorted;
    size_t sorted_cap;
    uint32_t pipe_off[TR_MAX_VSC_PIPES + 1];
    uint32_t binned;
    size_t tri_base;
    uint32_t *bins;
    size_t bins_cap, bins_used;
    setup_counts counts;
    float *vtx;               /* shaded vertices, clip and flat scratch */
    size_t vtx_cap;
    bool oom;
};
typedef struct tr__front_slot tr__front_slot;

struct tr__pass {
    tr_render_pass_desc desc;
    uint32_t fb_w, fb_h;
    int32_t area[4];           /* render area x0, y0, x1, y1 */
    uint32_t view_count;
    uint32_t view_ids[TR__VIEWS_MAX];
    tr_bin_layout layout;
    uint32_t mask_words;       /* u32 words of bin bits per stream entry */
    /* attachments in GMEM order: colour 0..n-1, depth, stencil */
    tr__attachment_state att[TR__MAX_ATTACHMENTS];
    uint32_t att_count;
    int color_att[TR_MAX_COLOR_ATTACHMENTS]; /* index into att, or -1 */
    int depth_att, stencil_att;
    size_t tile_bytes;         /* GMEM bytes of one tile (all attachments, all views) */

    /* current dynamic state */
    tr_pipeline *pipeline;
    tr_viewport viewport;
    tr_rect scissor;
    uint32_t stencil_ref[2];
    float blend_constants[4];
    const void *uniforms;
    tr__vertex_buffer vertex_buffers[TR_MAX_VERTEX_BINDINGS];
    tr__vertex_buffer index_buffer;
    tr_index_type index_type;
    tr_texture_binding textures[TR_MAX_TEXTURES];
    const tr_texture_binding *textures_copy; /* arena copy of textures for draws; NULL after a change */
    /* Objects bound in this pass (pipelines, samplers, texture images): their
     * pass-use counters, set while the pass records and cleared when it ends,
     * so that they cannot be changed or destroyed under recorded draws. */
    uint32_t **held;
    size_t held_count, held_cap;

    /* recorded work */
    tr__draw *draws;
    size_t draw_count, draw_cap;
    tr__tri **tris;
    size_t tri_count, tri_cap;
    uint8_t *lrz_cand;         /* [tri]: 1 if the triangle may write LRZ (tr__lrz_may_write) */
    size_t lrz_cand_cap;
    tr__stream *streams;       /* [view][pipe] */
    size_t stream_slots;
    tr__arena arena;           /* triangles and uniforms */

    /* vertex scratch (shaded vertices of one chunk) */
    float *vtx;
    size_t vtx_cap;
    /* the parallel front end: one slot per chunk of a wave (pass.c) */
    struct tr__front_slot *slots;
    uint32_t slot_count;

    /* low-resolution Z (src/lrz) */
    struct {
        tr__lrz_buffer *buf;   /* the depth image's buffer; NULL: LRZ off for the pass */
        tr_lrz_direction dir;  /* set by depth-writing draws */
        bool invalid;          /* a writing draw broke the direction: no test in this pass */
        bool write_off;        /* no more LRZ writes in this pass */
        bool simd;             /* the context's kernels are above TR_SIMD_SCALAR */
        /* Blocks that writing triangles cover only in part: the pixels
         * covered so far and their depth bound; written once all 64 are. */
        uint64_t *part_mask;   /* [view][h][w] */
        float *part_bound;
        size_t part_cap;
    } lrz;

    bool failed;               /* a draw ran out of memory: the pass can only be ended */
    tr_result fail_code;
    tr_pass_stats stats;
};

/* A blend lookup table for blocks whose source colour is uniform
 * (raster_quad.c): each channel's result as a function of that channel's
 * destination byte, for one blend state, source and constant colour. */
typedef struct tr__blend_key {
    tr_blend_state bs;         /* state, clamped source and raw constants */
    float s[4], k[4];
} tr__blend_key;
typedef struct tr__blend_lut {
    bool valid;
    tr__blend_key key;         /* what table holds */
    tr__blend_key seen;        /* the last other key met, and how many */
    uint32_t seen_count;       /* blocks in a row had it: a table is made */
    uint8_t table[4][256];     /* at the 3rd, as it costs about 4 blocks */
    /* When every channel's table is (b * mul + add) >> 15 exactly, whole
     * blocks apply it in vector integer arithmetic; when it is also
     * ((b * mul16) >> 8 + add16) >> 8, in 16-bit lanes (twice as many). */
    bool affine, affine16;
    int32_t mul[4], add[4];
    uint16_t mul16[4], add16[4];
} tr__blend_lut;

/* One worker per thread: a tile buffer, a fragment block and its blend
 * table. */
struct tr__worker {
    uint8_t *tile;
    size_t tile_cap;
    tr_fs_block *fs;
    tr_pass_stats stats;
    tr__blend_lut lut;
};

void tr__pass_release(tr_context *ctx);

#endif
