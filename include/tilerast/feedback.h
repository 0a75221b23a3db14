/* tilerast: sampler feedback (D3D12's SamplerFeedback: WriteSamplerFeedback,
 * the MinMip and MipRegionUsed formats, ResolveSubresourceRegion's DECODE
 * and ENCODE).
 *
 * A feedback map is paired with a texture of a given size and mip chain.
 * Beside (or instead of) a sample, a fragment shader calls
 * tr_fs_write_feedback with the same arguments it gives tr_fs_sample; the
 * map records which mip levels, and which regions of each level, that
 * sample reads.  A texture-streaming engine decodes the map after the pass
 * and loads what was asked for.
 *
 * Mip regions.  The map groups region_width x region_height texels of each
 * level into one region, in that level's own texel grid: texel (x, y) of
 * level l is in region (x / region_width, y / region_height) (integer
 * division).  Level l is w_l = max(1, width >> l) by h_l = max(1, height >>
 * l) texels and has ceil(w_l / region_width) x ceil(h_l / region_height)
 * regions; where a size is not a multiple of the region the last column or
 * row of regions is narrower.  So non-power-of-two sizes behave as the
 * specification's example: 15x15, 2 levels, 4x4 regions: a level-1 (7x7)
 * sample that reads texel (4, 4) marks level-1 region (1, 1).
 *
 * What a write records (the exact mode, the default).  For each lane in
 * [0, block->count) whose bit is set in block->live, exactly the texels
 * that the same tr_fs_sample call would read with the texture slot's
 * image and sampler (texture.h, "Sampling arithmetic" and "Footprint"):
 * every tap of an anisotropic sample, the one texel (nearest) or the 2x2
 * texels (linear) of each tap, in one level, or two for mipmap linear with
 * a non-zero fraction; moved by the call's texel offset (texture.h step
 * 7); after the address mode, so a repeating sampler
 * wraps to the opposite edge and a clamping one stays on it; border
 * texels (CLAMP_TO_BORDER outside the level) read no texel and mark
 * nothing.  The LOD is the sampler's: min_lod, max_lod, lod_bias, the
 * shader bias and lod_clamp all apply.  Each texel read marks its region
 * of its level.  Helper lanes and lanes past count write nothing, yet
 * their coordinates still give the quad's derivatives, as in tr_fs_sample.
 *
 * The conservative mode (tr_feedback_map_set_mode) writes what
 * vkd3d-proton's emulation writes instead, for emulator authors who must
 * match it (below, "Conservative mode").
 *
 * Decoding (tr_feedback_map_decode, R8_UINT, one byte per region):
 * - MinMip: one level (level 0's regions).  Texel (X, Y) is the lowest
 *   (most detailed) level m such that some marked level-m region overlaps
 *   LOD-0 region (X, Y) with a positive area in normalised texture
 *   coordinates, where level-l region (i, j) covers
 *   [i * rw / w_l, min((i + 1) * rw, w_l) / w_l) on u (and the same on v).
 *   This is the "smear" of NVIDIA, Intel and vkd3d-proton: a write at mip
 *   m shows in every LOD-0 region its mip-m region covers, up to
 *   2^m x 2^m of them, and with non-power-of-two sizes one more per axis
 *   (65x65, 4x4 regions: level-1 region 7 covers LOD-0 regions 14, 15 and
 *   16).  The value is the level that was read, before any texture-view
 *   clamp (tilerast has none).  0xFF where no level was requested.  An
 *   encoded value (tr_feedback_map_encode) joins the minimum.
 * - MipRegionUsed: one level at a time; 0xFF where a region of that level
 *   was read, 0 where not.
 *
 * Encoding (tr_feedback_map_encode) replaces what the map holds:
 * - MinMip: the layer's marks are cleared and each LOD-0 region takes the
 *   given value.  Values 0 .. levels - 1 decode back unchanged; any larger
 *   value, 0xFF included, means "nothing requested" and decodes as 0xFF
 *   (no sample can request a level the texture does not have).  The
 *   conservative mode keeps 0 .. 14 instead, as vkd3d-proton does.
 * - MipRegionUsed: one level of one layer; 0 = not used, any other value
 *   = used (decoded as 0xFF).  So decode(encode(x)) == x for x in {0, 0xFF}.
 *
 * Decoded sizes.  MinMip decodes to level 0's region grid, ceil(W / rw) x
 * ceil(H / rh).  MipRegionUsed decodes level l to level l's region grid,
 * ceil(w_l / rw) x ceil(h_l / rh).  That grid can be one texel wider or
 * taller than level l of an R8_UINT mip chain whose level 0 is level 0's
 * grid (36 wide, 8-wide regions: level 1 is 18 texels, 3 regions, while
 * the chain's level 1 is 5 >> 1 = 2 wide): tilerast decodes the whole
 * grid, so a caller that decodes into such a chain pads its levels to
 * tr_feedback_map_decoded_size.  The grid is never smaller than the chain's
 * level.
 *
 * Order independence.  Bins render in parallel, on any number of threads;
 * a mark is a byte set with an atomic store and decoding takes minima and
 * unions, so a map is the same whatever the thread count, SIMD level, bin
 * size or the order in which fragments ran.
 *
 * Conservative mode (vkd3d-proton's WriteSamplerFeedback): tr_feedback_mode
 * below. */
#ifndef TILERAST_FEEDBACK_H
#define TILERAST_FEEDBACK_H

#include <stddef.h>
#include <stdint.h>

#include "context.h"
#include "pipeline.h"
#include "result.h"
#include "texture.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TR_MAX_FEEDBACK_MAPS 8u   /* feedback slots of a render pass */
#define TR_FEEDBACK_NONE 0xFFu     /* a decoded MinMip texel with nothing requested */
#define TR_FEEDBACK_USED 0xFFu     /* a decoded MipRegionUsed texel that was read */
#define TR_FEEDBACK_MIN_REGION 4u  /* the smallest mip region per axis */

typedef enum tr_feedback_kind {
    TR_FEEDBACK_MIN_MIP = 0,
    TR_FEEDBACK_MIP_REGION_USED
} tr_feedback_kind;

/* width, height, levels and layers are the paired texture's (levels 0 = 1,
 * layers 0 = 1).  region_width and region_height are each a power of two,
 * at least TR_FEEDBACK_MIN_REGION and at most half of level 0's size on
 * that axis (the specification's rule: a 32x32 texture allows 4..16, a
 * 100x100 one 4..32), so a texture narrower than 8 texels on an axis has no
 * valid region. */
typedef struct tr_feedback_map_desc {
    tr_feedback_kind kind;
    uint32_t width, height;
    uint32_t levels;
    uint32_t layers;
    uint32_t region_width, region_height;
} tr_feedback_map_desc;

typedef struct tr_feedback_map tr_feedback_map;

/* Creates a map with nothing requested.  Errors: TR_ERROR_INVALID_ARGUMENT
 * (NULL, kind out of the enum), TR_ERROR_INVALID_DESCRIPTOR (a size of 0 or
 * above TR_MAX_IMAGE_SIZE, more levels than the size's full chain or than
 * TR_MAX_IMAGE_LEVELS, layers above TR_MAX_IMAGE_LAYERS, a region that is
 * not a power of two, below 4 or above half of level 0), each with a
 * message naming the field. */
TR_API tr_result tr_feedback_map_create(tr_context *ctx, const tr_feedback_map_desc *desc, tr_feedback_map **out);
/* Fails (TR_ERROR_INVALID_STATE, nothing freed: end the pass, then destroy
 * it) while the map is bound in the recording pass; NULL: TR_OK. */
TR_API tr_result tr_feedback_map_destroy(tr_feedback_map *map);
/* The descriptor with its defaults applied (levels and layers at least 1). */
TR_API tr_feedback_map_desc tr_feedback_map_get_desc(const tr_feedback_map *map);

/* Back to "nothing requested" (D3D12's UAV clear), every layer and level,
 * encoded values included.  TR_ERROR_INVALID_STATE while the map is bound
 * in the recording pass (the pass writes it when it ends); the same holds
 * for decode and encode. */
TR_API tr_result tr_feedback_map_clear(tr_feedback_map *map);

/* The R8_UINT size that decode writes and encode reads for `level`
 * ("Decoded sizes" above).  MinMip has only level 0 (TR_ERROR_OUT_OF_RANGE
 * otherwise); MipRegionUsed has the texture's levels. */
TR_API tr_result tr_feedback_map_decoded_size(const tr_feedback_map *map, uint32_t level, uint32_t *width,
                                              uint32_t *height);

/* ResolveSubresourceRegion DECODE of one layer and level into R8_UINT rows
 * of row_pitch bytes (0: the decoded width; a nonzero pitch below it is
 * TR_ERROR_INVALID_ARGUMENT).  The call touches exactly
 * (decoded height - 1) * row_pitch + decoded width bytes of `out`, and
 * refuses a pitch that would span more than TR_MAX_TRANSFER_BYTES
 * (TR_ERROR_LIMIT_EXCEEDED): image.h, "Caller buffers".  TR_ERROR_OUT_OF_RANGE for a layer or level the map does not
 * have (MinMip: level must be 0). */
TR_API tr_result tr_feedback_map_decode(const tr_feedback_map *map, uint32_t layer, uint32_t level, uint8_t *out,
                                        size_t row_pitch);

/* ResolveSubresourceRegion ENCODE: the inverse, with the same sizes and
 * errors ("Encoding" above). */
TR_API tr_result tr_feedback_map_encode(tr_feedback_map *map, uint32_t layer, uint32_t level, const uint8_t *in,
                                        size_t row_pitch);

/* ---- modes ------------------------------------------------------------------------------- */

/* TR_FEEDBACK_EXACT (the default): the texels the sample reads, as above.
 *
 * TR_FEEDBACK_CONSERVATIVE: what vkd3d-proton's emulation (dxil-spirv's
 * WriteSamplerFeedback) writes.  It does not know the sampler's filter and
 * assumes up to 16x anisotropy.  Per written lane, with W, H, w_l, h_l,
 * rw, rh and q = levels - 1 as above:
 * - Levels.  Implicit LOD and -Bias: the levels the sample reads
 *   (tr_fs_query_lod's level, with the shader bias and lod_clamp): level_hi,
 *   and level_lo where mipmap linear has a fraction (vkd3d-proton: QueryLod,
 *   trilinear when its fraction is at least 1/256).  -Level and -Grad know
 *   no sampler: d = fx(lod), or L(max(rho_x^2, rho_y^2)) of the gradients
 *   (texture.h step 3 without anisotropy), clamped to [0, 256 q]; for -Grad
 *   then d = min(max(d, fx(lod_clamp)), 256 q); levels floor(d) and, where d
 *   has a fraction, floor(d) + 1.
 * - Reach, per axis, in level-l texels.  Implicit LOD and -Bias: with
 *   g = max(|ds/dx|, |ds/dy|) * 2^bias * w_l - 1/256 (the quad's coarse
 *   derivatives; 2^bias computed with exp2 in double, rounded to float) and
 *   g = f * 2^e, f in [0.5, 1) (frexp), the reach is 0.5 * 2^clamp(e, 0, 4):
 *   half the larger derivative rounded up to a power of two, 0.5 to 8
 *   texels.  -Level and -Grad: 0.5.  At most half a region.
 * - Footprint.  The coordinate wraps: u' = u - floor(u) (NaN: 0), and in
 *   region units c = u' * w_l / rw; the regions floor(max(c - reach, 0))
 *   and, if floor(c + reach) differs, the next one (vkd3d-proton's
 *   horizontal, vertical and diagonal neighbour bits), on both axes, inside
 *   the grid.  Float arithmetic throughout, as the shader's.
 * - Encoding MinMip keeps values 0..14 (vkd3d-proton's rule) instead of
 *   0..levels - 1.
 * Where vkd3d-proton uses lane 0's bias for the whole quad's LOD, tilerast
 * uses each lane's. */
typedef enum tr_feedback_mode {
    TR_FEEDBACK_EXACT = 0,
    TR_FEEDBACK_CONSERVATIVE
} tr_feedback_mode;

/* Sets how writes to this map are recorded from now on, and how encode
 * treats MinMip values (what the map already holds stays).  TR_ERROR_INVALID_STATE while it is bound in the
 * recording pass. */
TR_API tr_result tr_feedback_map_set_mode(tr_feedback_map *map, tr_feedback_mode mode);

/* Lanes whose write was dropped because the texture slot held no image,
 * a subsampled image, or an image of another size than the map's (width,
 * height, levels and layers must all match: D3D12 pairs a map with its
 * texture when the view is made).  Draws already fail when no texture of
 * the pipeline's texture_mask matches a written map (tr_pipeline_desc.
 * feedback_mask), so this counts writes that named the wrong slot.
 * Cleared by tr_feedback_map_clear. */
TR_API uint64_t tr_feedback_map_dropped_writes(const tr_feedback_map *map);

/* ---- binding and writing -------------------------------------------------------------- */

/* Binds `map` to feedback slot `slot` (< TR_MAX_FEEDBACK_MAPS) for the draws
 * recorded after it in the current pass; NULL unbinds.  The map is written
 * when the pass ends.  While bound it may not be cleared, decoded, encoded
 * or destroyed. */
TR_API tr_result tr_cmd_bind_feedback_map(tr_context *ctx, uint32_t slot, tr_feedback_map *map);

/* WriteSamplerFeedback (implicit LOD), -Bias (args->bias), -Grad (explicit
 * gradients) and -Level (args->lod), with args->lod_clamp for the MinMipClamp
 * overloads: records into feedback slot `feedback_slot` what sampling
 * texture slot `texture_slot` with `args` reads (texture.h's tr_fs_sample
 * takes the same arguments; dref is not needed).  An empty feedback slot
 * writes nothing. */
TR_API void tr_fs_write_feedback(const tr_fs_block *block, uint32_t feedback_slot, uint32_t texture_slot,
                                 const tr_sample_args *args);

/* ---- pictures ------------------------------------------------------------------------ */

/* A PNG of one layer, at the texture's resolution so that each region is
 * its texels' size, with a legend below.
 *   - MinMip: level 0's texels coloured by the region's decoded level,
 *     stretched over the levels present in the layer: the k-th of n levels
 *     present (finest first) gets the heat colour of k / (n - 1) (blue
 *     {0, 0, 255}, cyan, green, yellow, red {255, 0, 0}; one level alone
 *     green {0, 255, 0}); black for nothing requested; each region's first
 *     column and row at half the colour (the grid).  Legend: per level
 *     present, a swatch of its colour and "mip <level>", then "none" with a
 *     black swatch when a region asked for nothing.
 *   - MipRegionUsed: the levels side by side, left to right, each level's
 *     used regions white and the rest dark grey {64, 64, 64}, black below a
 *     level shorter than level 0.  Under the picture a row 7s tall with
 *     each level's number at its strip's left edge (where it fits before
 *     the next strip); then the legend: "used" (white) and "unused" (grey).
 * The legend (on black; s = max(1, min(4, picture width / 256)) scales the
 * 3x5-pixel font): entries left to right in rows 9s tall, each a 7s-square
 * swatch (a grey border s wide around the colour) and its label 9s right
 * and s lower; the first swatch 2s from the left and 2s below the picture
 * (and the number row); 6s between entries; 2s below the last row.  The PNG
 * is the picture's width (wider, black beside the picture, only when an
 * entry would not fit) by its height + 2s + 9s * rows (+ 7s for the number
 * row).  TR_ERROR_IO if the file cannot be written. */
TR_API tr_result tr_feedback_map_write_png(const tr_feedback_map *map, uint32_t layer, const char *path);

#ifdef __cplusplus
}
#endif
#endif
