/* tilerast: the small geometric types every stage shares: pixel extents and
 * offsets (as VkExtent2D and VkOffset2D), rectangles and viewports. */
#ifndef TILERAST_GEOMETRY_H
#define TILERAST_GEOMETRY_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A size and an offset in pixels (as VkExtent2D and VkOffset2D). */
typedef struct tr_extent2d {
    uint32_t width, height;
} tr_extent2d;

typedef struct tr_offset2d {
    int32_t x, y;
} tr_offset2d;

/* A rectangle of pixels: [x, x + width) x [y, y + height). */
typedef struct tr_rect {
    int32_t x, y;
    uint32_t width, height;
} tr_rect;

/* Vulkan viewport: window = (ndc + 1) / 2 * size + origin; height may be
 * negative (flips y); min/max depth map ndc z in [0, 1].  As Vulkan's clip
 * volume ends at the viewport, nothing is drawn outside it: a pixel is
 * drawn only if its centre lies in [x, x + width) x [min(y, y + height),
 * max(y, y + height)), besides the scissor and the render area. */
typedef struct tr_viewport {
    float x, y, width, height;
    float min_depth, max_depth;
} tr_viewport;

#ifdef __cplusplus
}
#endif
#endif
