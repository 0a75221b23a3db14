/* tilerast: sampler feedback's internals (src/feedback).  The rules are
 * include/tilerast/feedback.h's.
 *
 * Storage, per layer: for every level l, one byte per level-l region (its
 * grid row by row), 1 where a write read a texel of the region; then, for
 * MinMip maps, one byte per LOD-0 region holding an encoded level (0xFF:
 * none).  Marks are set with relaxed atomic stores of 1 and never cleared
 * while a pass runs, so the result does not depend on the order of the
 * writes; decoding takes the union and the minimum. */
#ifndef TILERAST_FEEDBACK_INTERNAL_H
#define TILERAST_FEEDBACK_INTERNAL_H

#include "internal.h"

struct tr_feedback_map {
    tr_context *ctx;
    tr_feedback_map *prev, *next;
    tr_feedback_map_desc desc;          /* defaults applied */
    tr_feedback_mode mode;
    uint32_t pass_uses;                 /* nonzero while bound in the recording pass */
    uint32_t region_log2[2];            /* log2 of region_width, region_height */
    uint32_t grid_w[TR_MAX_IMAGE_LEVELS], grid_h[TR_MAX_IMAGE_LEVELS]; /* regions of each level */
    size_t level_offset[TR_MAX_IMAGE_LEVELS]; /* bytes from a layer's start to a level's marks */
    size_t encoded_offset;              /* bytes from a layer's start to its encoded levels */
    size_t layer_bytes;
    uint8_t *data;
    uint64_t dropped;                   /* tr_feedback_map_dropped_writes (atomic) */
};

/* The marks of one level of one layer. */
static inline uint8_t *tr__feedback_marks(const tr_feedback_map *m, uint32_t layer, uint32_t level)
{
    return m->data + (size_t)layer * m->layer_bytes + m->level_offset[level];
}

/* Marks region (rx, ry) of a level's grid as read. */
static inline void tr__feedback_mark(uint8_t *marks, uint32_t grid_w, uint32_t rx, uint32_t ry)
{
    uint8_t *p = marks + (size_t)ry * grid_w + rx;
    if (!__atomic_load_n(p, __ATOMIC_RELAXED))
        __atomic_store_n(p, 1, __ATOMIC_RELAXED);
}

/* The level sizes of the paired texture. */
static inline uint32_t tr__feedback_level_w(const tr_feedback_map *m, uint32_t level)
{
    return TR_MAX(1u, m->desc.width >> level);
}

static inline uint32_t tr__feedback_level_h(const tr_feedback_map *m, uint32_t level)
{
    return TR_MAX(1u, m->desc.height >> level);
}

/* Whether `image` can be the map's paired texture: not subsampled, and the
 * same width, height, levels and layers. */
bool tr__feedback_pairs(const tr_feedback_map *map, const tr_image *image);

#endif
