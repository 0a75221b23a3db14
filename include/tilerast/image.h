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
    /* Added with issue 20 (values appended: the ones above never change).
     * 8-bit UNORM channels, here and above: written as
     * (uint8_t)(clamp(x, 0, 1) * 255.0f + 0.5f) in float (NaN -> 0), read
     * as c / 255.0f; a missing channel reads 0 (alpha 1). */
    TR_FORMAT_R8_UNORM,           /* one 8-bit channel: (r, 0, 0, 1) */
    TR_FORMAT_B8G8R8A8_UNORM,     /* bytes B, G, R, A in memory; shaders, fills, clears and
                                     sampling see (R, G, B, A); uploads and downloads are the
                                     stored bytes (B first) */
    TR_FORMAT_B8G8R8A8_SRGB,      /* as B8G8R8A8_UNORM with R8G8B8A8_SRGB's encoding: B, G, R
                                     sRGB-encoded to the nearest code, A linear */
    TR_FORMAT_R16G16_SFLOAT,      /* two IEEE halves (R16G16B16A16_SFLOAT's rules: round to
                                     nearest even, overflow -> inf, NaN -> 0x7e00); (r, g, 0, 1) */
    TR_FORMAT_R16_SFLOAT,         /* one half: (r, 0, 0, 1) */
    TR_FORMAT_R32_UINT,           /* integer formats: shader outputs are float4 in this library,
                                     so an output's 32 bits ARE the integer (a bit cast, as an
                                     untyped output register and VkClearColorValue's union:
                                     write with memcpy of a uint32_t); fills and clear colours
                                     the same way; no NaN canonicalisation; never clamped.
                                     Blending on an integer attachment is refused when a draw
                                     records (TR_ERROR_UNSUPPORTED_FORMAT); a multisample
                                     resolve takes sample 0 (Vulkan's rule for integer
                                     resolves, VK_RESOLVE_MODE_SAMPLE_ZERO_BIT); sampling
                                     returns the bits, nearest filtering only (a sampler with a
                                     LINEAR filter or mipmap mode is refused at
                                     tr_cmd_bind_texture); R32_UINT reads (r, 0, 0, 1) with 0 and
                                     1 the integers' bits; tr_image_generate_mips refuses them */
    TR_FORMAT_R32G32B32A32_UINT,  /* four 32-bit integers, as R32_UINT */
    TR_FORMAT_A2B10G10R10_UNORM_PACK32, /* one little-endian 32-bit word: bits 0-9 R, 10-19 G,
                                     20-29 B, 30-31 A; written as floor(clamp(x, 0, 1) *
                                     (2^n - 1) + 1/2) computed exactly (in double; NaN -> 0),
                                     n = 10 or 2; read as k / 1023.0f and k / 3.0f */
    TR_FORMAT_B10G11R11_UFLOAT_PACK32, /* one 32-bit word: bits 0-10 R, 11-21 G (unsigned
                                     11-bit floats: 5-bit exponent, bias 15, 6-bit mantissa),
                                     22-31 B (10-bit: 5-bit mantissa); no alpha (reads 1).
                                     Written: finite values round to nearest even, denormals
                                     kept; negative values, -0 and -inf -> 0; +inf -> the inf
                                     code (exponent 31, mantissa 0); NaN -> exponent 31,
                                     mantissa 1 (0x7c1 / 0x3e1); a finite value above the
                                     largest finite (65024 for 11 bits, 64512 for 10) -> that
                                     largest finite, as GL_EXT_packed_float and Mesa do (Mesa
                                     truncates the mantissa and flushes denormals; we round).
                                     Read exactly (every code is a float; NaN reads a quiet
                                     NaN).  Blending clamps nothing (a float format) */
    TR_FORMAT_D16_UNORM,          /* UNORM depth: a fragment's depth z (after the viewport
                                     clamp, or the shader's) is converted to k = floor(clamp(z,
                                     0, 1) * (2^n - 1) + 1/2), exactly (in double; NaN -> 0),
                                     n = 16, before the depth test and the write, so the test
                                     compares codes as a real 16-bit buffer does; clear values,
                                     tr_image_fill, uploads and LRZ go through the same
                                     conversion.  The image and GMEM keep each texel as the
                                     float nearest k / (2^n - 1) (4 bytes a texel: that map is
                                     injective and increasing in k, so float comparisons are
                                     the integer comparisons; src/format.c).  The DEPTH aspect
                                     (tr_aspect) stays a float per texel: downloads return
                                     k / (2^n - 1) as that float, uploads take floats and
                                     quantise them.  Shaders' frag_z is the unquantised depth */
    TR_FORMAT_D24_UNORM_S8_UINT,  /* as D16_UNORM with n = 24, and an 8-bit stencil plane (the
                                     STENCIL aspect, as D32_SFLOAT_S8_UINT) */
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
/* The format's name without the prefix ("R8G8B8A8_UNORM"; "UNDEFINED" for
 * TR_FORMAT_UNDEFINED); "unknown" for a value that is not a tr_format. */
TR_API const char *tr_format_name(tr_format format);
TR_API int tr_format_is_depth(tr_format format);
TR_API int tr_format_has_stencil(tr_format format);

TR_API tr_result tr_image_create(tr_context *ctx, const tr_image_desc *desc, tr_image **out);
/* Frees the image.  TR_ERROR_INVALID_STATE, and nothing freed, while it is
 * an attachment, density map or bound texture of the recording pass (end
 * the pass, then destroy it); NULL: TR_OK.  Callers that ignore the result
 * still compile: before this returned a tr_result it returned void. */
TR_API tr_result tr_image_destroy(tr_image *image);
TR_API tr_image_desc tr_image_get_desc(const tr_image *image);
/* Width or height of a level: max(1, size >> level). */
TR_API uint32_t tr_image_level_width(const tr_image *image, uint32_t level);
TR_API uint32_t tr_image_level_height(const tr_image *image, uint32_t level);

/* Caller buffers.  Every call that reads or writes rows of a caller's
 * buffer with a row_pitch (tr_image_upload, tr_image_download,
 * tr_image_download_raw, tr_feedback_map_decode, tr_feedback_map_encode)
 * touches exactly the bytes [0, span) of it, where
 *     span = (rows - 1) * row_pitch + row bytes
 * (row bytes: the texels of a row times their size; row_pitch 0 means the
 * row bytes, tightly packed).  The caller's buffer must hold span bytes;
 * any alignment will do (texels are copied bytewise).  A row_pitch below
 * the row bytes is TR_ERROR_INVALID_ARGUMENT; a row_pitch or span above
 * TR_MAX_TRANSFER_BYTES, or a span that overflows size_t, is
 * TR_ERROR_LIMIT_EXCEEDED; both messages name row_pitch, and a call that
 * fails writes nothing to the caller's buffer.  tr_image_read_rgba8 writes
 * width x height x 4 bytes, tightly packed. */
#define TR_MAX_TRANSFER_BYTES (UINT64_C(1) << 36) /* 64 GiB: 16 times the largest subresource
                                                     (16384 x 16384 texels of 16 bytes) */

/* Copies a whole subresource in or out.  Texels are in the format's own
 * layout (R16G16B16A16_SFLOAT as IEEE half floats, packed formats as one
 * little-endian 32-bit word); row_pitch is bytes between rows, 0 for
 * tightly packed ("Caller buffers" above).  Row 0 is the top row.  The DEPTH aspect is a float per
 * texel; a D16 / D24 upload stores each float quantised (as the enum says:
 * k / (2^n - 1), and any NaN as 0), so the image never holds a value its
 * format cannot. */
TR_API tr_result tr_image_upload(tr_image *image, const tr_subresource *sub,
                          const void *data, size_t row_pitch);
TR_API tr_result tr_image_download(const tr_image *image, const tr_subresource *sub,
                            void *data, size_t row_pitch);

/* Fills a subresource with one value given as floats (colour: RGBA, an
 * integer format's as the integers' bits; depth: [0], quantised for D16 /
 * D24; stencil: [0] as an integer value). */
TR_API tr_result tr_image_fill(tr_image *image, const tr_subresource *sub, const float value[4]);

/* Converts a subresource to RGBA8, top row first: UNORM/SRGB bytes as stored
 * (R8G8 as (r,g,0,255), R8 as (r,0,0,255), B8G8R8A8 swizzled to R,G,B,A),
 * other colour formats decoded to float (A2B10G10R10: k / 1023.0f, alpha
 * k / 3.0f), clamped to [0,1] and rounded as UNORM8; R32 as (r,0,0,1);
 * integer formats: each channel's integer clamped to 255 (R32_UINT as
 * (min(r, 255), 0, 0, 255)); depth as grey (d,d,d,1) from the stored float
 * (D16/D24: k / (2^n - 1)), stencil as grey value.  A
 * multisampled image's texels are first resolved (multisample.h; `sample`
 * is ignored).  out holds width*height*4 bytes. */
TR_API tr_result tr_image_read_rgba8(const tr_image *image, const tr_subresource *sub, uint8_t *out);

/* Writes tr_image_read_rgba8's result as a PNG file (stb_image_write). */
TR_API tr_result tr_image_write_png(const tr_image *image, const tr_subresource *sub, const char *path);

#ifdef __cplusplus
}
#endif
#endif
