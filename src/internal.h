/* tilerast internals shared by every stage: the objects behind the public
 * handles (images, pipelines, samplers, the context), formats, and the
 * SPIR-V stages' entry points; the allocator, arenas and error reporting
 * are below it, in base/base.h.  src/README.md maps the stages and the
 * executor that drives them. */
#ifndef TILERAST_INTERNAL_H
#define TILERAST_INTERNAL_H

#include "base/base.h"
#include "tilerast/tilerast.h"

/* Whether this build has the AVX2 kernels (raster/raster_avx2.c) and the
 * CPU runs them: then a context's best SIMD level is TR_SIMD_AVX2. */
bool tr__cpu_has_avx2(void);

/* ---- formats (src/format.c) -------------------------------------------- */

typedef struct tr__format_info {
    const char *name;
    uint32_t texel;      /* bytes of the main plane */
    uint32_t channels;
    bool depth, stencil, srgb, is_float;
    bool is_int;         /* R32_UINT, R32G32B32A32_UINT: shader outputs are the integers' bits */
    uint32_t depth_max;  /* UNORM depth: 2^bits - 1 (65535, 16777215), stored as the float
                            k / depth_max (tr__depth_quantise); 0: float depth or colour */
} tr__format_info;

const tr__format_info *tr__format(tr_format f);
bool tr__format_valid(tr_format f);
bool tr__format_is_color(tr_format f);

/* Decode one texel of a colour format to RGBA float (missing channels: 0, alpha 1). */
void tr__color_decode(const tr_context *ctx, tr_format f, const void *texel, float rgba[4]);
/* Encode RGBA float to a colour texel with the format's conversion rules. */
void tr__color_encode(const tr_context *ctx, tr_format f, const float rgba[4], void *texel);
/* The resolve of n samples of a colour texel, sample i at s0 + i * stride,
 * in the format (multisample.h's arithmetic): UNORM8 integer averages
 * rounded half up, others decoded, summed in float, times 1 / n, encoded. */
void tr__resolve_texel(const tr_context *ctx, tr_format format, const uint8_t *s0, size_t stride, uint32_t n,
                       uint8_t *out);
/* tr__resolve_texel over `count` texels side by side (s0 and out advance
 * a texel each), byte for byte the same; UNORM8 formats in SIMD. */
void tr__resolve_row(const tr_context *ctx, tr_format format, const uint8_t *s0, size_t stride, uint32_t n,
                     uint32_t count, uint8_t *out);
uint16_t tr__float_to_half(float f);
float tr__half_to_float(uint16_t h);
/* Unsigned 11-bit (mb = 6) and 10-bit (mb = 5) floats (image.h, B10G11R11_UFLOAT_PACK32). */
uint32_t tr__float_to_ufloat(float f, uint32_t mb);
float tr__ufloat_to_float(uint32_t v, uint32_t mb);
/* Where channel c of a colour texel lives (format.c). */
void tr__format_channel_bits(tr_format f, uint32_t c, uint32_t *byte, uint32_t *bytes, uint32_t *bits);
uint8_t tr__float_to_unorm8(float f);
uint8_t tr__linear_to_srgb8(const tr_context *ctx, float f);
bool tr__compare(tr_compare_op op, float a, float b); /* a <op> b */
/* A depth value as a depth format stores it: D16 / D24 (depth_max m > 0)
 * the float nearest k / m, k = floor(clamp(z, 0, 1) * m + 1/2) computed
 * exactly (in double; NaN -> 0); m = 0 (float depth): z unchanged. */
/* The UNORM code of z with max = 2^n - 1 (n <= 24): floor(clamp(z, 0, 1)
 * * max + 1/2), NaN -> 0, exact in double (z has at most 53 bits, and a
 * float's 24 times n <= 24 fit). */
static inline uint32_t tr__unorm_code(double z, uint32_t max)
{
    const double c = z > 0.0 ? (z < 1.0 ? z : 1.0) : 0.0;
    return (uint32_t)__builtin_floor(c * (double)max + 0.5);
}
static inline double tr__depth_quantise_d(uint32_t m, double z)
{
    return m ? (double)(float)((double)tr__unorm_code(z, m) / (double)m) : z;
}
static inline float tr__depth_quantise(uint32_t m, float z)
{
    return m ? (float)tr__depth_quantise_d(m, (double)z) : z;
}

/* ---- objects ------------------------------------------------------------ */

typedef struct tr__lrz_buffer tr__lrz_buffer;

struct tr_image {
    tr_context *ctx;
    tr_image *prev, *next;      /* the context's list */
    tr_image_desc desc;
    const tr__format_info *fmt;
    uint8_t *data;              /* main plane: colour or depth */
    uint8_t *stencil;           /* D32_SFLOAT_S8_UINT only */
    size_t level_offset[TR_MAX_IMAGE_LEVELS]; /* in texels of the plane */
    size_t total_texels;
    uint32_t pass_uses;         /* nonzero while an attachment of the recording pass */
    uint32_t texture_uses;      /* nonzero while bound as a texture in the recording pass */
    uint64_t version;           /* bumped whenever the texels change */
    tr__lrz_buffer *lrz; /* depth images: the LRZ buffer (src/lrz), or NULL */
    struct tr__subsampled_meta *subsampled; /* TR_IMAGE_SUBSAMPLED: per layer, the metadata of
                                  the last pass that stored it (src/subsample); else NULL */
    uint32_t pad_w, pad_h;      /* texels stored past level 0's width and height: a subsampled
                                   image made for FDM offsets (the tile alignment); else 0 */
};

/* The stored width / height of a level: its size, plus the padding at
 * level 0. */
static inline uint32_t tr__image_stored_w(const tr_image *img, uint32_t level)
{
    return TR_MAX(1u, img->desc.width >> level) + (level ? 0u : img->pad_w);
}
static inline uint32_t tr__image_stored_h(const tr_image *img, uint32_t level)
{
    return TR_MAX(1u, img->desc.height >> level) + (level ? 0u : img->pad_h);
}

/* Address of texel (x, y) of a subresource's main plane / stencil plane. */
/* The plane of a layer's sample: a multisampled image stores each layer as
 * `samples` consecutive planes of one level (multisample.h). */
static inline uint32_t tr__image_plane(const tr_image *img, uint32_t layer, uint32_t sample)
{
    return layer * img->desc.samples + sample;
}

/* `layer` is a plane (tr__image_plane) for a multisampled image. */
static inline size_t tr__image_texel_index(const tr_image *img, uint32_t level, uint32_t layer,
                                           uint32_t x, uint32_t y)
{
    const uint32_t w = tr__image_stored_w(img, level), h = tr__image_stored_h(img, level);
    return img->level_offset[level] + ((size_t)layer * h + y) * w + x;
}

struct tr__spv_program;
struct tr__spv_draw;

struct tr_pipeline {
    tr_context *ctx;
    tr_pipeline *prev, *next;
    tr_pipeline_desc desc;      /* with defaults applied (a SPIR-V stage's callback is its marker) */
    struct tr__spv_program *vs_prog, *fs_prog; /* SPIR-V stages (src/shader), or NULL */
    uint32_t pass_uses;         /* nonzero while bound in the recording pass */
};

struct tr_sampler {
    tr_context *ctx;
    tr_sampler *prev, *next;
    tr_sampler_desc desc;       /* with defaults applied */
    int32_t bias_fx, min_lod_fx, max_lod_fx; /* 1/256 units (texture.h, step 4) */
    uint32_t pass_uses;         /* nonzero while bound in the recording pass */
};

/* ---- the context --------------------------------------------------------- */

typedef struct tr__pass tr__pass;
typedef struct tr__worker tr__worker;

struct tr_context {
    tr_context_desc desc;       /* defaults applied */
    tr_simd_level simd;         /* effective level */
    const struct tr__kernels *kernels; /* the raster and walk kernels of that level (raster_internal.h) */
    char error[TR__ERROR_SIZE];
    tr_image *images;
    tr_pipeline *pipelines;
    tr_sampler *samplers;
    tr_feedback_map *feedback_maps;
    tr_shader_module *shader_modules;
    float srgb_decode[256];     /* sRGB code -> linear */
    float unorm8_decode[256];   /* c -> (float)c / 255.0f, the reference's division done once */
    float srgb_encode_threshold[255]; /* linear value at which code c+1 begins */
    tr__pass *pass;             /* recording state; allocated once */
    bool in_pass;
    tr__worker *workers;        /* one per thread, sized lazily */
    size_t mem_live;            /* bytes held through tr__alloc (atomic) */
    size_t mem_peak;            /* the most held at once since the last reset (atomic) */
    bool mem_limit_hit;         /* an allocation met desc.memory_limit since the last error */
    uint32_t worker_count;
    /* What the modelled GPU (desc.device) can do, for src/fdm: set once by
     * tr_context_create from the device profile (src/context.c). */
    struct {
        bool hw_bin_scaling;       /* a7xx GRAS_BIN_FOVEAT: the hardware scales each bin's viewport */
        bool bin_merging;          /* a7xx CP_SET_BIN_DATA5 bin masks: neighbouring bins may merge */
        uint32_t max_scaled_views; /* views hardware bin scaling covers (turnip's MAX_HW_SCALED_VIEWS); 0: none */
    } features;
};

/* tr_image_read_rgba8, of the stored texels when raw (a subsampled image's
 * as stored, not its framebuffer-space picture). */
tr_result tr__image_read_rgba8(const tr_image *img, const tr_subresource *sub, uint8_t *out, bool raw);

/* Writes w x h RGBA8 pixels as a PNG (TR_ERROR_IO on failure). */
tr_result tr__write_png_rgba8(const char *path, uint32_t w, uint32_t h, const uint8_t *px);

/* ---- SPIR-V stages (src/shader/shader_api.c) ------------------------------- */

/* Translates a desc's modules, checks them against each other and the desc,
 * and fills the fields they imply (shader.h, "What the pipeline derives"). */
tr_result tr__spv_pipeline_stages(tr_context *ctx, tr_pipeline_desc *d, struct tr__spv_program **vs,
                                  struct tr__spv_program **fs);
void tr__spv_program_free(tr_context *ctx, struct tr__spv_program *p);
void tr__spv_vertex_marker(tr_vs_batch *batch);
void tr__spv_fragment_marker(tr_fs_block *block);
/* Run a pipeline's stage over a batch / block: its C callback, or its
 * program with the draw's resources (spv: tr__draw.spv). */
void tr__shade_vertices(const tr_pipeline *p, struct tr__spv_draw *spv, tr_vs_batch *b);
void tr__shade_fragments(const tr_pipeline *p, struct tr__spv_draw *spv, tr_fs_block *b);

#endif
