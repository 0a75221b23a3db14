/* tilerast: images.
 *
 * An image is a 2D array of texels with array layers and mip levels, stored
 * linearly (row 0 is the top row, as in Vulkan's framebuffer).  Attachments
 * and (later) textures are images. */
#ifndef TILERAST_IMAGE_H
#define TILERAST_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "context.h"
#include "multisample.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tr_image tr_image;

typedef enum tr_format {
    TR_FORMAT_UNDEFINED = 0,
    TR_FORMAT_R8G8B8A8_UNORM,
    TR_FORMAT_R8G8B8A8_SRGB,      /* colour channels sRGB-encoded, alpha linear: shaders, blending,
                                     tr_image_fill and sampling see linear values (encoded on
                                     write, decoded on read); uploads are the stored bytes */
    TR_FORMAT_R16G16B16A16_SFLOAT, /* float formats: values round to nearest even; any NaN
                                     written (by a shader, blending, a clear or a fill) is
                                     stored as the canonical quiet NaN, 0x7e00 / 0x7fc00000,
                                     whatever its sign and payload; uploads store bytes as given */
    TR_FORMAT_R32_SFLOAT,
    TR_FORMAT_R32G32B32A32_SFLOAT,
    TR_FORMAT_D32_SFLOAT,
    TR_FORMAT_D32_SFLOAT_S8_UINT,
    TR_FORMAT_R8G8_UNORM,         /* two 8-bit channels (blue 0, alpha 1 when read as RGBA); the
                                     format of fragment density maps (fdm.h) */
    TR_FORMAT_COUNT
} tr_format;

/* Which part of a texel a transfer addresses. */
typedef enum tr_aspect {
    TR_ASPECT_DEFAULT = 0, /* colour, or depth for depth formats */
    TR_ASPECT_COLOR,
    TR_ASPECT_DEPTH,   /* float per texel */
    TR_ASPECT_STENCIL  /* uint8_t per texel */
} tr_aspect;

/* For tr_image_desc.levels and tr_image_load: the whole chain down to 1x1. */
#define TR_LEVELS_ALL 0xFFFFFFFFu

/* Image creation flags (tr_image_desc.flags), as VkImageCreateFlags. */
#define TR_IMAGE_FDM_OFFSET 1u /* VK_IMAGE_CREATE_FRAGMENT_DENSITY_MAP_OFFSET_BIT_EXT: the image may be
                                  an attachment (or the density map) of a pass whose density map
                                  has offsets; a pass honours its offsets only when all of them have
                                  it (fdm.h, "FDM offset") */
#define TR_IMAGE_SUBSAMPLED 2u /* VK_IMAGE_CREATE_SUBSAMPLED_BIT_EXT: as a colour attachment of a pass
                                  with a density map, scaled bins are stored at their reduced size
                                  (subsample.h); a colour format, one level, at most
                                  TR_SUBSAMPLED_MAX_LAYERS layers; with TR_IMAGE_FDM_OFFSET it
                                  stores the tile alignment's worth of texels past its edges */
#define TR_IMAGE_FLAGS_ALL (TR_IMAGE_FDM_OFFSET | TR_IMAGE_SUBSAMPLED)

typedef struct tr_image_desc {
    tr_format format;
    uint32_t width, height; /* 1..TR_MAX_IMAGE_SIZE */
    uint32_t layers;        /* 0 = 1 */
    uint32_t levels;        /* 0 = 1; at most the full chain; TR_LEVELS_ALL = the full chain */
    uint32_t flags;         /* TR_IMAGE_*; other bits are refused */
    uint32_t samples;       /* 0 = 1; 1, 2, 4 or 8 values per texel (multisample.h): more than
                               one needs levels 1, no TR_IMAGE_SUBSAMPLED */
} tr_image_desc;

/* One level of one layer; NULL in a call means level 0, layer 0, default
 * aspect, sample 0. */
typedef struct tr_subresource {
    uint32_t level, layer;
    tr_aspect aspect;
    uint32_t sample;    /* a multisampled image's sample for upload and download
                           (multisample.h); fill writes every sample, and
                           tr_image_read_rgba8 / tr_image_write_png resolve them */
} tr_subresource;

/* Bytes of one texel of one aspect (colour: the whole texel; DEPTH: 4;
 * STENCIL: 1); 0 for an aspect the format lacks. */
TR_API uint32_t tr_format_texel_size(tr_format format, tr_aspect aspect);
TR_API const char *tr_format_name(tr_format format);
TR_API int tr_format_is_depth(tr_format format);
TR_API int tr_format_has_stencil(tr_format format);

TR_API tr_result tr_image_create(tr_context *ctx, const tr_image_desc *desc, tr_image **out);
TR_API void tr_image_destroy(tr_image *image);
TR_API tr_image_desc tr_image_get_desc(const tr_image *image);
/* Width or height of a level: max(1, size >> level). */
TR_API uint32_t tr_image_level_width(const tr_image *image, uint32_t level);
TR_API uint32_t tr_image_level_height(const tr_image *image, uint32_t level);

/* Copies a whole subresource in or out.  Texels are in the format's own
 * layout (R16G16B16A16_SFLOAT as IEEE half floats); row_pitch is bytes between
 * rows, 0 for tightly packed.  Row 0 is the top row. */
TR_API tr_result tr_image_upload(tr_image *image, const tr_subresource *sub,
                          const void *data, size_t row_pitch);
TR_API tr_result tr_image_download(const tr_image *image, const tr_subresource *sub,
                            void *data, size_t row_pitch);

/* Fills a subresource with one value given as floats (colour: RGBA; depth:
 * [0]; stencil: [0] as an integer value). */
TR_API tr_result tr_image_fill(tr_image *image, const tr_subresource *sub, const float value[4]);

/* Converts a subresource to RGBA8, top row first: UNORM/SRGB bytes as stored
 * (R8G8 as (r,g,0,255)), float formats clamped to [0,1] and rounded, R32 as
 * (r,0,0,1), depth as grey (d,d,d,1), stencil as grey value.  A
 * multisampled image's texels are first resolved (multisample.h; `sample`
 * is ignored).  out holds width*height*4 bytes. */
TR_API tr_result tr_image_read_rgba8(const tr_image *image, const tr_subresource *sub, uint8_t *out);

/* Writes tr_image_read_rgba8's result as a PNG file (stb_image_write). */
TR_API tr_result tr_image_write_png(const tr_image *image, const tr_subresource *sub, const char *path);

#ifdef __cplusplus
}
#endif
#endif
