/* tilerast: the context.
 *
 * A context owns every image, pipeline and the per-thread tile buffers, and
 * records one render pass at a time.  There is no global state: contexts are
 * independent and may be used from different threads at once; one context is
 * used by one thread at a time. */
#ifndef TILERAST_CONTEXT_H
#define TILERAST_CONTEXT_H

#include <stddef.h>
#include <stdint.h>

#include "result.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tr_context tr_context;

/* All memory the library takes goes through this.  alloc must return memory
 * aligned to `align` (a power of two, at most 64) or NULL. */
typedef struct tr_allocator {
    void *(*alloc)(void *user, size_t size, size_t align);
    void (*free)(void *user, void *ptr);
    void *user;
} tr_allocator;

typedef enum tr_simd_level {
    TR_SIMD_DEFAULT = 0, /* the best the build and the CPU offer (TR_SIMD env var may cap it) */
    TR_SIMD_SCALAR = 1,  /* the scalar reference path */
    TR_SIMD_SSE = 2,     /* 4 lanes */
    TR_SIMD_AVX2 = 3     /* 8-lane kernels where they exist, 4 elsewhere; the default on a CPU with AVX2 */
} tr_simd_level;

/* Limits (checked up front; larger requests get TR_ERROR_LIMIT_EXCEEDED). */
#define TR_MAX_IMAGE_SIZE 16384u
#define TR_MAX_IMAGE_LAYERS 2048u
#define TR_MAX_IMAGE_LEVELS 15u
#define TR_MAX_THREADS 256u
#define TR_MAX_VSC_PIPES 32u
/* The most bytes one object (an image with its planes, a feedback map) or
 * one render pass's scratch (tile buffers, LRZ, bin tables) may need: 1 TiB.
 * Sizes are computed with overflow checks before anything is allocated;
 * above this, TR_ERROR_LIMIT_EXCEEDED, the message giving the byte count.
 * (16384 x 16384 x 2048 layers of a 16-byte format is 8 TiB: refused up
 * front instead of asking the allocator for it.) */
#define TR_MAX_OBJECT_BYTES (UINT64_C(1) << 40)

/* Context flags */
#define TR_CONTEXT_NO_LRZ 1u /* never use low-resolution Z (images are identical either way) */
#define TR_CONTEXT_NO_BIN_MERGING 2u /* never merge FDM bins into one tile (turnip's TU_DEBUG=nobinmerging;
                                        images are identical either way); no effect on a device
                                        without bin merging (the a7xx feature) */
#define TR_CONTEXT_FLAGS_ALL (TR_CONTEXT_NO_LRZ | TR_CONTEXT_NO_BIN_MERGING)

/* Device profiles: the GMEM size, tile alignment and largest tile of an
 * Adreno GPU, and the features that differ between generations (the
 * numbers and their sources are listed at tr_context_desc.device). */
typedef enum tr_device {
    TR_DEVICE_DEFAULT = 0, /* the defaults below (an a630's numbers, no a7xx features) */
    TR_DEVICE_A630,
    TR_DEVICE_A660,
    TR_DEVICE_A740,
    TR_DEVICE_COUNT
} tr_device;

/* Every field may be left zero for its default. */
typedef struct tr_context_desc {
    uint32_t threads;      /* OpenMP threads for bins; 0 = all cores; 1 without OpenMP */
    /* The GPU modelled: sets the defaults of gmem_bytes, tile_align_w/h and
     * tile_max_w/h (a field given explicitly still wins) and the features.
     *   device   GMEM      tile align   largest tile   a7xx features
     *   DEFAULT  1 MiB     32 x 16      1024 x 1024    no
     *   A630     1 MiB     32 x 16      1024 x 1024    no
     *   A660     1.5 MiB   96 x 16      1024 x 1024    no
     *   A740     3 MiB     96 x 32      2016 x 2032    yes (bin scaling, bin merging)
     * GMEM sizes: the kernel's msm GPU catalogue; alignments and tile
     * limits: Mesa's freedreno devices.py (REFERENCE.md section 5).  Bins
     * are whole multiples of the alignment, so the largest bin an A740 uses
     * is 2016 x 2016.  A value that is not a tr_device makes
     * tr_context_create fail with TR_ERROR_INVALID_ARGUMENT;
     * tr_context_get_desc returns the device as given. */
    tr_device device;
    uint32_t gmem_bytes;   /* GMEM budget per tile; 0 = the device's (1 MiB by default, an a630).
                              At least two GMEM blocks (16 x tile_align_w x tile_align_h
                              bytes); any larger value up to 0xFFFFFFFF is accepted: bins
                              never exceed tile_max_w/h, so a budget beyond what the largest
                              bin needs only gives every pass the largest bins */
    uint32_t tile_align_w; /* bin width alignment in pixels, multiple of 8, at most 1024;
                              0 = the device's (32 by default) */
    uint32_t tile_align_h; /* bin height alignment in pixels, multiple of 8, at most 1024;
                              0 = the device's (16 by default) */
    uint32_t tile_max_w;   /* largest bin width; 0 = the device's (1024 by default) */
    uint32_t tile_max_h;   /* largest bin height; 0 = the device's (1024 by default) */
    tr_simd_level simd;    /* cap on the SIMD level; 0 = best available */
    uint32_t flags;        /* TR_CONTEXT_* */
    tr_allocator allocator; /* 0 = malloc/free */
    /* The most memory the library may hold at once for this context, in
     * bytes: images, samplers, pipelines, a pass's binning data, visibility
     * streams and tile buffers, and 64 bytes of bookkeeping per block.  0 =
     * no limit.  A request past it fails like an allocator returning NULL
     * (TR_ERROR_OUT_OF_MEMORY, the message naming the limit), and the
     * context stays usable.  Checked up front, before allocating: an image
     * or feedback map larger than what the limit leaves beside what is
     * held, and a render pass whose scratch alone (tile buffers for every
     * thread, the LRZ buffer, bin tables) exceeds the limit, are refused by
     * the call that makes them, the message giving the bytes needed.
     * tr_pass_stats.memory_* say what a pass used. */
    size_t memory_limit;
    /* The most instructions one invocation of a SPIR-V shader may execute
     * (shader.h, "The instruction budget"); 0 = TR_DEFAULT_SHADER_BUDGET. */
    uint32_t shader_budget;
} tr_context_desc;

/* Creates a context.  desc may be NULL for all defaults.  On success *out is
 * the new context; on failure *out is NULL. */
TR_API tr_result tr_context_create(const tr_context_desc *desc, tr_context **out);

/* Destroys the context and every image, pipeline, sampler, feedback map and
 * shader module still alive in it. */
TR_API void tr_context_destroy(tr_context *ctx);

/* The descriptor with every default applied. */
TR_API tr_context_desc tr_context_get_desc(const tr_context *ctx);

/* The message of the last call made through this context or one of its
 * objects that returns a tr_result: "" if that call succeeded (result.h
 * states the rule).  The string stays valid until the next call on the
 * context.  NULL ctx: a fixed message saying so. */
TR_API const char *tr_context_last_error(const tr_context *ctx);

#ifdef __cplusplus
}
#endif
#endif
