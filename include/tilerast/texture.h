/* tilerast: textures, samplers and sampling from fragment shaders.
 *
 * Any image can be bound to a texture slot of the render pass being recorded
 * (tr_cmd_bind_texture) together with a sampler; the fragment shader then
 * samples it through the tr_fs_* calls below, which work on the shader's
 * SoA block like the rest of the shader interface: one call handles every
 * lane [0, block->count), helper lanes included, and implicit derivatives
 * come from the block's 2x2 quads.
 *
 * Sampling follows the Vulkan specification's texel filtering and LOD
 * selection.  Where Vulkan leaves the precision to the implementation, the
 * arithmetic is fixed here, exactly, so that a sample has one answer on
 * every machine, thread count and SIMD width ("Sampling arithmetic" below).
 * It calls no transcendental function: every step is an IEEE single-precision
 * operation in the stated order, an integer operation, or a table. */
#ifndef TILERAST_TEXTURE_H
#define TILERAST_TEXTURE_H

#include <stdint.h>

#include "context.h"
#include "image.h"
#include "pipeline.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TR_MAX_TEXTURES 16u            /* texture slots of a render pass */
#define TR_MAX_ANISOTROPY 16u
#define TR_MAX_SAMPLER_LOD_BIAS 15.0f  /* |sampler bias|, and the clamp of sampler + shader bias */
#define TR_LOD_CLAMP_NONE 1000.0f      /* a max_lod that clamps nothing */
#define TR_MAX_LOD_ZERO (-1.0f)        /* max_lod value that asks for a clamp at exactly 0
                                          (0 itself means "no clamp") */
#define TR_MIN_TEXEL_OFFSET (-8)       /* texel offsets (tr_sample_args.offset, */
#define TR_MAX_TEXEL_OFFSET 7          /* tr_fs_texel_fetch_offset) are clamped to this range
                                          (Vulkan's minTexelOffset / maxTexelOffset) */

/* ---- samplers ---------------------------------------------------------------------------- */

typedef enum tr_filter {
    TR_FILTER_NEAREST = 0, TR_FILTER_LINEAR
} tr_filter;

typedef enum tr_mipmap_mode {
    TR_MIPMAP_NEAREST = 0, TR_MIPMAP_LINEAR
} tr_mipmap_mode;

typedef enum tr_address_mode {
    TR_ADDRESS_REPEAT = 0,
    TR_ADDRESS_MIRRORED_REPEAT,
    TR_ADDRESS_CLAMP_TO_EDGE,
    TR_ADDRESS_CLAMP_TO_BORDER
} tr_address_mode;

/* Vulkan's float border colours.  The border colour replaces the whole RGBA
 * result of a texel (so an R32_SFLOAT texture's border texel has the border
 * alpha, not 1); for compare samplers the border texel's depth is its red. */
typedef enum tr_border_color {
    TR_BORDER_TRANSPARENT_BLACK = 0, /* (0, 0, 0, 0) */
    TR_BORDER_OPAQUE_BLACK,          /* (0, 0, 0, 1) */
    TR_BORDER_OPAQUE_WHITE           /* (1, 1, 1, 1) */
} tr_border_color;

/* Zero means default in every field: a zeroed descriptor is a nearest,
 * nearest-mipmap, repeating sampler over the whole mip chain. */
typedef struct tr_sampler_desc {
    tr_filter mag_filter, min_filter;
    tr_mipmap_mode mipmap_mode;
    tr_address_mode address_u, address_v;
    tr_border_color border_color;    /* for TR_ADDRESS_CLAMP_TO_BORDER */
    float lod_bias;                  /* |bias| <= TR_MAX_SAMPLER_LOD_BIAS */
    float min_lod;                   /* lower LOD clamp */
    float max_lod;                   /* upper LOD clamp, >= min_lod and >= 0; 0 = TR_LOD_CLAMP_NONE;
                                        TR_MAX_LOD_ZERO = a clamp at 0 (Vulkan code that sets
                                        maxLod = 0 to turn mipmapping off wants this) */
    uint32_t max_anisotropy;         /* 0 or 1: off; 2..TR_MAX_ANISOTROPY */
    tr_compare_op compare;           /* DEFAULT: no comparison; otherwise a depth-compare
                                        sampler (the texture must have a depth format) */
} tr_sampler_desc;

typedef struct tr_sampler tr_sampler;

TR_API tr_result tr_sampler_create(tr_context *ctx, const tr_sampler_desc *desc, tr_sampler **out);
/* Fails (TR_ERROR_INVALID_STATE, nothing freed: end the pass, then destroy
 * it) while the sampler is bound in the recording pass; NULL: TR_OK. */
TR_API tr_result tr_sampler_destroy(tr_sampler *sampler);
/* The descriptor with its defaults applied (max_lod 0 reads TR_LOD_CLAMP_NONE,
 * max_anisotropy 0 reads 1). */
TR_API tr_sampler_desc tr_sampler_get_desc(const tr_sampler *sampler);

/* ---- texture images ------------------------------------------------------------------------ */

/* Fills levels 1.. of every layer from level 0, each texel of level l+1 the
 * average of the 2x2 texels (2x1 or 1x2 where level l is one texel wide or
 * high) at (2x, 2y) of level l.  Where level l has an odd size the last row
 * or column does not contribute.  UNORM: (a + b + c + d + 2) / 4 in
 * integers; sRGB: decoded to linear, ((a + b) + (c + d)) * 0.25f, encoded
 * with rounding to the nearest code, alpha as UNORM; float formats:
 * ((a + b) + (c + d)) * 0.25f per channel (half: then rounded to half).
 * Colour formats only; fails while the image is used by the recording pass. */
TR_API tr_result tr_image_generate_mips(tr_image *image);

/* Loads a PNG, JPEG, BMP, TGA or other file that stb_image reads, as an
 * 8-bit RGBA image (missing channels: grey to RGB, alpha 255) in `format`
 * (TR_FORMAT_R8G8B8A8_SRGB, the default for 0, TR_FORMAT_R8G8B8A8_UNORM, or
 * TR_FORMAT_R8G8_UNORM, which keeps that RGBA image's red and green bytes:
 * a grey file gives r = g = grey).
 * levels: 0 or 1 for level 0 only, TR_LEVELS_ALL or a count for a chain
 * filled by tr_image_generate_mips.  TR_ERROR_IO if the file cannot be
 * opened, TR_ERROR_BAD_FILE if it cannot be decoded. */
TR_API tr_result tr_image_load(tr_context *ctx, const char *path, tr_format format, uint32_t levels,
                               tr_image **out);

/* ---- binding ------------------------------------------------------------------------------- */

/* Binds image + sampler to texture slot `slot` for the draws recorded after
 * it in the current pass; image NULL unbinds.  sampler NULL is the default
 * sampler, the one a zeroed tr_sampler_desc makes: NEAREST filtering and
 * mip selection, REPEAT addressing, no LOD bias or clamp, no comparison.
 * Every level and layer of the image is visible.  Colour images of every format are sampleable; depth
 * images (the depth aspect) need a compare sampler, or read as (d, 0, 0, 1)
 * with an ordinary one.  Errors: a compare sampler with a colour image
 * (TR_ERROR_UNSUPPORTED_FORMAT); an image that is an attachment of this pass
 * (TR_ERROR_INVALID_STATE: rendering is deferred to the end of the pass, so
 * it could not read what the pass draws).  While bound in the recording
 * pass, neither the image nor the sampler may be changed or destroyed. */
TR_API tr_result tr_cmd_bind_texture(tr_context *ctx, uint32_t slot, const tr_image *image,
                                     const tr_sampler *sampler);

/* What a fragment shader finds in tr_fs_block.textures[slot]. */
typedef struct tr_texture_binding {
    const tr_image *image;      /* NULL: unbound (samples read (0, 0, 0, 0)) */
    const tr_sampler *sampler;
} tr_texture_binding;

/* ---- sampling from a fragment shader ----------------------------------------------------
 *
 * Arrays are indexed by lane and read for lanes [0, block->count); results
 * are written for the same lanes as out[component][lane]: RGBA for colour
 * textures, (d, 0, 0, 1) for depth textures, (result, 0, 0, 1) for compare
 * samplers.  A slot with no image reads (0, 0, 0, 0). */

typedef struct tr_sample_args {
    const float *s, *t;     /* normalised coordinates (required) */
    const float *layer;     /* array layer, rounded to the nearest integer (ties to even) and
                               clamped to [0, layers - 1] (NaN: 0); NULL: layer 0 */
    const float *bias;      /* LOD bias added to the sampler's, with implicit derivatives or
                               explicit gradients (ignored with an explicit LOD); NULL: 0 */
    const float *lod;       /* explicit LOD: no derivatives are used (and no anisotropy) */
    const float *dsdx, *dtdx, *dsdy, *dtdy; /* explicit gradients (all four or none);
                               NULL: implicit, from the 2x2 quads */
    const float *dref;      /* reference depth, for compare samplers (required there) */
    const float *lod_clamp; /* a lower LOD clamp beside the sampler's min_lod (HLSL's MinMipClamp
                               argument, SPIR-V's MinLod): with implicit derivatives, a bias or
                               gradients (ignored with an explicit LOD); NULL: none */
    int32_t offset[2];      /* texel offset (o_i, o_j) of every lane (SPIR-V's ConstOffset /
                               Offset, GLSL's textureOffset): added to the texel coordinates at
                               each level read, in that level's texels (step 7); each component
                               clamped to [TR_MIN_TEXEL_OFFSET, TR_MAX_TEXEL_OFFSET]; {0, 0}
                               (a zeroed struct): none */
} tr_sample_args;

/* The general call: implicit LOD, bias, explicit gradients or explicit LOD,
 * as the arguments say (lod wins over gradients).  Sampler feedback
 * (feedback.h) takes the same arguments: its exact mode marks the texels
 * the sample reads, `offset` included; the conservative mode (vkd3d-proton's)
 * ignores `offset`, as D3D12's WriteSamplerFeedback takes none. */
TR_API void tr_fs_sample(const tr_fs_block *block, uint32_t slot, const tr_sample_args *args,
                         float out[4][TR_FS_LANES]);
/* texture(s, t): implicit LOD, layer 0. */
TR_API void tr_fs_texture(const tr_fs_block *block, uint32_t slot, const float *s, const float *t,
                          float out[4][TR_FS_LANES]);
/* textureLod(s, t, lod), layer 0. */
TR_API void tr_fs_texture_lod(const tr_fs_block *block, uint32_t slot, const float *s, const float *t,
                              const float *lod, float out[4][TR_FS_LANES]);
/* texelFetch: integer texel coordinates, no sampler (no filtering, no
 * addressing; sRGB still decodes).  Coordinates outside the level, or a
 * level or layer outside the image, read (0, 0, 0, 0), or (0, 0, 0, 1) for
 * formats without alpha (as Vulkan's robustImageAccess2).  layer NULL: 0. */
TR_API void tr_fs_texel_fetch(const tr_fs_block *block, uint32_t slot, const int32_t *x, const int32_t *y,
                              const int32_t *layer, const int32_t *level, float out[4][TR_FS_LANES]);
/* texelFetchOffset (OpImageFetch with ConstOffset / Offset): tr_fs_texel_fetch
 * at (x + offset[0], y + offset[1]), the offset's components clamped to
 * [TR_MIN_TEXEL_OFFSET, TR_MAX_TEXEL_OFFSET] and added (in 64-bit integers,
 * so nothing wraps) before the bounds check: a coordinate that the offset
 * moves outside the level reads as outside.  offset NULL: {0, 0}. */
TR_API void tr_fs_texel_fetch_offset(const tr_fs_block *block, uint32_t slot, const int32_t *x, const int32_t *y,
                                     const int32_t *layer, const int32_t *level, const int32_t offset[2],
                                     float out[4][TR_FS_LANES]);
/* textureSize: the size of a level (0 outside the image) and the image's
 * layer count; returns the level count (0 for an empty slot). */
TR_API uint32_t tr_fs_texture_size(const tr_fs_block *block, uint32_t slot, uint32_t level, uint32_t *width,
                                   uint32_t *height, uint32_t *layers);
/* textureQueryLod (as CalculateLevelOfDetail / ...Unclamped): out[0] is the
 * level that would be read, clamp(lambda, 0, levels - 1) with lambda after
 * the bias and the min/max LOD clamp, with its fraction (even for a nearest
 * mipmap mode); out[1] is lambda' = lambda_base + sampler bias, unclamped.
 * Both are multiples of 1/256 (step 4 below).  Implicit derivatives. */
TR_API void tr_fs_query_lod(const tr_fs_block *block, uint32_t slot, const float *s, const float *t,
                            float out[2][TR_FS_LANES]);

/* ---- Sampling arithmetic ------------------------------------------------------------------
 *
 * Notation: W, H are level 0's size, w_l, h_l level l's; q = levels - 1.
 * fx(x) is x in fixed point with 8 fraction bits, rounded to nearest with
 * halves up: floor(x * 256 + 1/2) computed exactly, after clamping x to
 * [-2^20, 2^20] (NaN: 0).
 *
 * 1. Derivatives.  Implicit: coarse, per quad: ds/dx = s[lane 1] - s[lane 0],
 *    ds/dy = s[lane 2] - s[lane 0] (lanes of the quad, helpers included), the
 *    same for t; every lane of the quad uses them (a lane at or beyond
 *    block->count, in a hand-built block, counts as equal to the quad's
 *    lane 0).  Explicit: per lane.
 *
 * 2. Scale factors.  mux = ds/dx * W, mvx = dt/dx * H, muy = ds/dy * W,
 *    mvy = dt/dy * H; rx = mux*mux + mvx*mvx, ry = muy*muy + mvy*mvy (these
 *    are rho_x^2, rho_y^2; no square root is taken).  rmax = max(rx, ry),
 *    rmin = min(rx, ry); the major axis is x if rx > ry, else y.  NaN counts
 *    as 0.
 *
 * 3. Anisotropy (max_anisotropy A >= 2).  The tap count N is the smallest
 *    integer n in 1..A with n^2 * rmin >= rmax (compared exactly, in double),
 *    or A if there is none; this is ceil(eta) for Vulkan's
 *    eta = min(rho_max / rho_min, A).  lambda_base = log2(rho_max / eta):
 *    L(rmin) if A^2 * rmin >= rmax (compared exactly), else
 *    L(rmax / (float)(A * A)).
 *    Without anisotropy N = 1 and lambda_base = L(rmax).
 *    L(r) = round(128 * log2(r)) in 1/256 units, i.e. log2(sqrt(r)) rounded
 *    to 8 fraction bits (ties cannot occur): 128 * e + k, where r = m * 2^e
 *    with m in [1, 2) and k is the count of thresholds 2^((2i - 1) / 256),
 *    i = 1..128, that m reaches; L(0) = -2^16, L(+inf) = 2^16.
 *    Explicit LOD: lambda_base = fx(lod), N = 1.
 *
 * 4. LOD.  lambda' = lambda_base + clamp(fx(sampler bias) + fx(shader bias),
 *    -15 * 256, 15 * 256); lambda = min(max(lambda', lo), fx(max_lod))
 *    with lo = max(fx(min_lod), fx(lod_clamp)) (lo = fx(min_lod) without a
 *    lod_clamp).  Integers in 1/256 units from here on.
 *
 * 5. Levels.  lambda <= 0: magnification (mag_filter, level 0); otherwise
 *    minification (min_filter).  d = clamp(lambda, 0, 256 * q).  Mipmap
 *    nearest: level (d + 127) >> 8 (Vulkan's: round, halves down).  Mipmap
 *    linear: level_hi = d >> 8, level_lo = min(level_hi + 1, q),
 *    delta = d & 255 (8 bits of mipmap precision).
 *
 * 6. Tap positions.  N = 1: (s, t).  Otherwise tap i = 1..N is at
 *    s_i = s + o_i * ds/da, t_i = t + o_i * dt/da, a the major axis, with
 *    o_i = (float)(2i - N - 1) / (float)(2N + 2) (Vulkan's x - 1/2 + i/(N+1)).
 *    Every tap uses the same levels and lambda.
 *
 * 7. Texel coordinates at level l: u = s_i * w_l, v = t_i * h_l (float), then
 *    U = floor(u * 256) + 256 * o_i and V = floor(v * 256) + 256 * o_j as
 *    64-bit integers (8 bits of sub-texel precision, rounded towards -inf;
 *    u * 256 is clamped to [-2^62, 2^62] first and NaN reads 0).  (o_i, o_j)
 *    is tr_sample_args.offset with each component clamped to
 *    [TR_MIN_TEXEL_OFFSET, TR_MAX_TEXEL_OFFSET]: Vulkan's u = s * width_level
 *    + Delta_i ("(s,t,r,q,a) to (u,v,w,a) Transformation"), added exactly, in
 *    texels of level l, at every level read (both for mipmap linear) and to
 *    every anisotropic tap, after the tap position and before the LINEAR
 *    shift of 1/2 and the addressing of step 8 (llvmpipe's fixed-point path,
 *    lp_bld_sample_aos.c, adds the offsets to the integer parts the same
 *    way).  The offset is not part of steps 1-6: derivatives, LOD, levels
 *    and tap positions are those of the sample without it, and the array
 *    layer is not offset.  On a subsampled image (subsample.h) the offset
 *    counts texels of the stored image, added after the metadata mapping
 *    (u is the mapped s times the stored width), as hardware applies an
 *    instruction's offset to the lowered coordinates (our definition: the
 *    offset is not mapped through the metadata).
 *    Nearest: texel (U >> 8, V >> 8).
 *    Linear: U' = U - 128, V' = V - 128; i0 = U' >> 8, i1 = i0 + 1,
 *    j0 = V' >> 8, j1 = j0 + 1; a = U' & 255, b = V' & 255.
 *
 * 8. Addressing, per integer coordinate i on an axis of size n (Vulkan's):
 *    repeat: i mod n (the non-negative remainder); mirrored repeat:
 *    (n - 1) - mirror((i mod 2n) - n), mirror(k) = k >= 0 ? k : -(1 + k);
 *    clamp to edge: clamp(i, 0, n - 1); clamp to border: outside [0, n) is a
 *    border texel.
 *
 * 9. Texels decode to float: UNORM c / 255.0f; sRGB colour channels through
 *    the context's table (the same one blending uses): the EOTF of IEC
 *    61966-2-1 evaluated in double and rounded to float, alpha as
 *    UNORM; half floats exactly; R32_SFLOAT as (r, 0, 0, 1); R8G8_UNORM
 *    as (r, g, 0, 1), r and g as UNORM; the formats of issue 20 as
 *    image.h's enum states (B8G8R8A8 swizzled to RGBA, A2B10G10R10 k /
 *    1023.0f, B10G11R11 exactly, integer formats as their bits, nearest
 *    filtering only); depth as (d, 0, 0, 1), D16 / D24 d the stored
 *    k / (2^n - 1).  Compare samplers replace each texel (border texels
 *    included) by 1.0f if dref <op> d, else 0.0f, before filtering (dref is
 *    not clamped or quantised).
 *
 * 10. Bilinear, per channel, with integer weights w00 = (256-a)(256-b),
 *    w10 = a(256-b), w01 = (256-a)b, w11 = ab (converted to float exactly):
 *    tau = ((w00*t00 + w10*t10) + (w01*t01 + w11*t11)) * 2^-16, where tij is
 *    texel (i_i, j_j).  All four texels are read even when a weight is 0.
 *
 * 11. Mipmap linear with delta > 0:
 *    tau = ((256 - delta) * tau_hi + delta * tau_lo) * 2^-8; with delta = 0
 *    tau = tau_hi and level_lo is not read.
 *
 * 12. Anisotropic result: (((tau_1 + tau_2) + tau_3) + ... + tau_N) / N,
 *    one division per channel (N = 1: tau_1 as it is).
 *
 * Footprint (what sampler feedback needs): a sample reads, per tap, the 1
 * (nearest) or 2x2 (linear) texels of step 7 in one level, or in two levels
 * for mipmap linear with delta > 0; at most 16 taps, spread over the
 * segment of length one pixel step along the major axis centred on (s, t). */

#ifdef __cplusplus
}
#endif
#endif
