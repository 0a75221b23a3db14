/* tilerast: multisampling (MSAA).
 *
 * An image made with tr_image_desc.samples = 2, 4 or 8 holds that many
 * values per texel, one per sample, at Vulkan's standard sample positions
 * (tr_sample_position).  It has one mip level; it cannot be TR_IMAGE_
 * SUBSAMPLED, sampled as a texture or be a density map.
 *
 * Reaching the samples:
 * - tr_image_upload and tr_image_download address one sample,
 *   tr_subresource.sample (0 for a single-sample image).
 * - tr_image_fill writes every sample, as vkCmdClearColorImage does.
 * - tr_image_read_rgba8 and tr_image_write_png resolve: each texel is the
 *   resolve of its samples (below), then converted as for a single-sample
 *   image.
 *
 * Resolve arithmetic, per texel, over samples 0 .. n-1:
 * - UNORM formats (R8G8B8A8_UNORM, R8G8_UNORM, R8_UNORM, B8G8R8A8_UNORM,
 *   A2B10G10R10_UNORM_PACK32): per channel the integer average of the
 *   stored values rounded half up, (sum + n / 2) / n.
 * - Integer formats (R32_UINT, R32G32B32A32_UINT): sample 0 (Vulkan
 *   allows only VK_RESOLVE_MODE_SAMPLE_ZERO_BIT for them by default).
 * - R8G8B8A8_SRGB, B8G8R8A8_SRGB: every channel decoded to float (colour through the sRGB
 *   curve, alpha linear), summed in sample order in float, times 1 / n
 *   (exact: n is a power of two), encoded as a write encodes it.
 * - Float formats: summed in sample order in float, times 1 / n, rounded
 *   to the format as a write rounds (half floats to nearest even).
 * - Depth and stencil: sample 0 (Vulkan's VK_RESOLVE_MODE_SAMPLE_ZERO_BIT,
 *   the one mode every implementation has).
 *
 * Render passes: the attachments of a pass share one sample count, and so
 * must the pipelines that draw in it (tr_multisample_state.samples).  A
 * tile holds every sample: the bin search counts bytes per pixel times
 * samples, as turnip does, so bins shrink as samples grow.
 *
 * Rasterization of a multisampled pass:
 * - Coverage per sample: sample s of a pixel is covered when the triangle
 *   covers its position, with the same exact integer edge functions and
 *   tie rule as pixel centres (the positions are sixteenths of a pixel,
 *   whole numbers of the 1/256 subpixel grid).
 * - The fragment shader runs once per pixel that has a covered sample, at
 *   the pixel centre (varyings and frag_x / frag_y there; centroid
 *   varyings of a pixel with uncovered samples at its lowest covered
 *   sample: tr_pipeline_desc.centroid_mask), sample_index -1.
 *   It runs once per covered sample instead, at the sample's position
 *   (varyings interpolated there, frag_x / frag_y the sample's position,
 *   sample_index its index), when the pipeline asks for sample shading of
 *   more than one sample's worth (sample_shading and min_sample_shading *
 *   samples > 1: every sample, the most Vulkan allows) or the shader reads
 *   the sample (TR_FS_SAMPLE_RATE).
 * - Depth is interpolated at each sample's position; depth and stencil are
 *   tested and written per covered sample (before the shader when tests
 *   are early, as for single-sampled passes, else after it), and colour is
 *   blended and written per sample that passed.  A shader that writes
 *   depth gives every sample of its pixel that depth.
 * - sample_mask keeps the samples of its set bits.  The shader sees the
 *   covered samples it keeps in tr_fs_block.sample_mask_in
 *   (TR_FS_READS_SAMPLE_MASK): every covered sample of the pixel before the
 *   depth and stencil tests, or only sample_index's bit when shading per
 *   sample.  A shader's tr_fs_block.sample_mask (TR_FS_WRITES_SAMPLE_MASK)
 *   is ANDed with the coverage after it, as alpha to coverage is, and makes
 *   the tests run after it unless TR_FS_EARLY_TESTS.  alpha_to_coverage:
 *   colour output 0's alpha a (clamped to [0, 1]) keeps samples 0 .. k-1
 *   with k = floor(a * n + 1/2), no dithering; it makes the depth and
 *   stencil tests run after the shader unless TR_FS_EARLY_TESTS forces
 *   them first.  alpha_to_one writes alpha 1 for every output.
 * - Statistics count samples for fragments_rasterized, the rejected
 *   counts and fragments_written; fragments_shaded and _discarded count
 *   shader invocations (pixels, or samples when shading per sample).
 * - Every image is the same for every thread count, SIMD level and GMEM
 *   budget.
 *
 * With a fragment density map (fdm.h), a scaled bin rasterizes each coarse
 * fragment's samples at the standard positions inside the coarse
 * fragment, as turnip does; the store upscales every sample's plane, and a
 * resolve image gets each pixel's resolve from its coarse fragment.  At
 * density 1 (every byte 255) the pass is the one without a map.
 *
 * GL's lower-left origin (TR_PASS_ORIGIN_LOWER_LEFT): the standard
 * positions are in window coordinates, y up, as GL states them, so in image
 * rows a sample at y lies at 1 - y from the pixel's top (what llvmpipe
 * rasterizes into a framebuffer object: tests/bench/llvmpipe_identical.sh).
 *
 * LRZ (lrz.h) works in multisampled passes with turnip's layout, one texel
 * per 8x8 block of the supersampled footprint; alpha to coverage and a
 * partial sample mask keep a draw from writing it.  Images are the same
 * with LRZ on and off.
 *
 * Resolve attachments: tr_color_attachment.resolve_image names a
 * single-sample image of the same format and size; each tile resolves its
 * samples into it as it stores, with the arithmetic above (so it equals
 * tr_image_read_rgba8 of the stored multisampled image), whatever the
 * attachment's store_op: with TR_STORE_OP_DONT_CARE the samples never
 * leave GMEM.  tr_pass_stats.gmem_bytes_resolved counts the resolved
 * bytes, gmem_bytes_stored the stored samples.
 */
#ifndef TILERAST_MULTISAMPLE_H
#define TILERAST_MULTISAMPLE_H

#include <stdint.h>

#include "result.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most samples an image or pipeline may have. */
#define TR_MAX_SAMPLES 8u

/* Whether n is a sample count tilerast accepts: 1, 2, 4 or 8. */
static inline int tr_sample_count_valid(uint32_t n)
{
    return n == 1u || n == 2u || n == 4u || n == 8u;
}

/* Sample `index` of a pixel with `samples` samples: its position inside the
 * pixel, (0, 0) the pixel's top-left corner and (1, 1) its bottom-right (y
 * down, as the framebuffer).  These are Vulkan's standard sample locations
 * (VkPhysicalDeviceLimits::standardSampleLocations), the same as Direct3D's
 * standard patterns; every coordinate is a multiple of 1/16 pixel:
 *   1: (0.5, 0.5)
 *   2: (0.75, 0.75) (0.25, 0.25)
 *   4: (0.375, 0.125) (0.875, 0.375) (0.125, 0.625) (0.625, 0.875)
 *   8: (0.5625, 0.3125) (0.4375, 0.6875) (0.8125, 0.5625) (0.3125, 0.1875)
 *      (0.1875, 0.8125) (0.0625, 0.4375) (0.6875, 0.9375) (0.9375, 0.0625)
 * TR_ERROR_INVALID_ARGUMENT for a count other than 1, 2, 4, 8, or pos NULL;
 * TR_ERROR_OUT_OF_RANGE for index >= samples. */
TR_API tr_result tr_sample_position(uint32_t samples, uint32_t index, float pos[2]);

#ifdef __cplusplus
}
#endif
#endif
