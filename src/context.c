/* tilerast: contexts (defaults, devices, SIMD level, creation and
 * destruction of everything a context holds).  Memory and errors are in
 * base/. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef TILERAST_HAVE_OPENMP
#include <omp.h>
#endif

#include "internal.h"
#include "feedback/feedback_internal.h"
#include "pass.h"
#include "raster/raster_internal.h"

/* ---- contexts ------------------------------------------------------------------ */

static uint32_t available_threads(void)
{
#ifdef TILERAST_HAVE_OPENMP
    int n = omp_get_num_procs();
    return n > 0 ? (uint32_t)n : 1u;
#else
    return 1;
#endif
}

/* The GPUs tr_context_desc.device models: the defaults of the tiling
 * fields and the features that differ between generations.  GMEM sizes
 * from the kernel's msm GPU catalogue; tile alignment and largest tile from
 * Mesa's freedreno devices.py (tile_max_w 2016 = max_bitfield_val(5, 0, 5),
 * tile_max_h 2032 = max_bitfield_val(14, 8, 4) on a7xx); the a7xx features
 * from turnip (GRAS_BIN_FOVEAT bin scaling for up to MAX_HW_SCALED_VIEWS = 6
 * views, CP_SET_BIN_DATA5 bin masks for merging).  REFERENCE.md section 5. */
typedef struct device_profile {
    uint32_t gmem_bytes;
    uint32_t tile_align_w, tile_align_h;
    uint32_t tile_max_w, tile_max_h;
    bool hw_bin_scaling, bin_merging;
    uint32_t max_scaled_views;
} device_profile;

static const device_profile device_profiles[TR_DEVICE_COUNT] = {
    [TR_DEVICE_DEFAULT] = {1u << 20, 32, 16, 1024, 1024, false, false, 0},
    [TR_DEVICE_A630] = {1u << 20, 32, 16, 1024, 1024, false, false, 0},
    [TR_DEVICE_A660] = {3u << 19, 96, 16, 1024, 1024, false, false, 0},  /* 1.5 MiB */
    [TR_DEVICE_A740] = {3u << 20, 96, 32, 2016, 2032, true, true, 6},    /* 3 MiB */
};

/* Applies every default of tr_context_desc in one place. */
static tr_result apply_context_defaults(const tr_context_desc *in, tr_context_desc *out, char *msg, size_t msg_size)
{
    tr_context_desc d = in ? *in : (tr_context_desc){0};
    /* First: the device picks the defaults below. */
    if ((unsigned)d.device >= TR_DEVICE_COUNT) {
        snprintf(msg, msg_size, "tr_context_desc.device = %d is not a tr_device", (int)d.device);
        return TR_ERROR_INVALID_ARGUMENT;
    }
    const device_profile *dev = &device_profiles[d.device];
    if (!d.threads)
        d.threads = available_threads();
#ifndef TILERAST_HAVE_OPENMP
    d.threads = 1; /* built without OpenMP: bins run serially */
#endif
    if (!d.gmem_bytes)
        d.gmem_bytes = dev->gmem_bytes;
    if (!d.tile_align_w)
        d.tile_align_w = dev->tile_align_w;
    if (!d.tile_align_h)
        d.tile_align_h = dev->tile_align_h;
    if (!d.tile_max_w)
        d.tile_max_w = dev->tile_max_w;
    if (!d.tile_max_h)
        d.tile_max_h = dev->tile_max_h;
    if (!d.allocator.alloc != !d.allocator.free) {
        snprintf(msg, msg_size, "tr_context_desc.allocator: alloc and free must both be set or both be NULL");
        return TR_ERROR_INVALID_DESCRIPTOR;
    }
    if (!d.allocator.alloc) {
        d.allocator.alloc = tr__default_alloc;
        d.allocator.free = tr__default_free;
        d.allocator.user = NULL;
    }
    if (d.threads > TR_MAX_THREADS) {
        snprintf(msg, msg_size, "tr_context_desc.threads = %u exceeds TR_MAX_THREADS (%u)", d.threads, TR_MAX_THREADS);
        return TR_ERROR_LIMIT_EXCEEDED;
    }
    if (d.tile_align_w % 8 || d.tile_align_h % 8 || d.tile_align_w > 1024 || d.tile_align_h > 1024) {
        snprintf(msg, msg_size, "tr_context_desc.tile_align_w/h = %ux%u: must be multiples of 8, at most 1024",
                 d.tile_align_w, d.tile_align_h);
        return TR_ERROR_INVALID_DESCRIPTOR;
    }
    if (d.tile_max_w < d.tile_align_w || d.tile_max_h < d.tile_align_h ||
        d.tile_max_w > TR_MAX_IMAGE_SIZE || d.tile_max_h > TR_MAX_IMAGE_SIZE) {
        snprintf(msg, msg_size, "tr_context_desc.tile_max_w/h = %ux%u: must be at least the alignment and at most %u",
                 d.tile_max_w, d.tile_max_h, TR_MAX_IMAGE_SIZE);
        return TR_ERROR_INVALID_DESCRIPTOR;
    }
    if (d.flags & ~TR_CONTEXT_FLAGS_ALL) {
        snprintf(msg, msg_size, "tr_context_desc.flags = 0x%x has unknown bits", d.flags);
        return TR_ERROR_INVALID_ARGUMENT;
    }
    if ((unsigned)d.simd > TR_SIMD_AVX2) {
        snprintf(msg, msg_size, "tr_context_desc.simd = %d is not a tr_simd_level", (int)d.simd);
        return TR_ERROR_INVALID_ARGUMENT;
    }
    if (d.gmem_bytes < 8u * d.tile_align_w * d.tile_align_h * 2) {
        snprintf(msg, msg_size, "tr_context_desc.gmem_bytes = %u is below two GMEM blocks (%u bytes)",
                 d.gmem_bytes, 16u * d.tile_align_w * d.tile_align_h);
        return TR_ERROR_INVALID_DESCRIPTOR;
    }
    *out = d;
    return TR_OK;
}

/* The SIMD level the kernels run at: the descriptor's cap, lowered by the
 * TR_SIMD environment variable ("scalar", "sse", "avx2"), and by what this
 * build and CPU have.  The block kernels are SIMDe SSE2 code and portable C
 * loops written for the vectoriser (baseline x86-64 is SSE2), so anything
 * above SCALAR selects them; AVX2 adds the 8-lane kernels of
 * raster/raster_avx2.c where the CPU has AVX2; SCALAR selects the
 * per-fragment reference.  Images are identical at every level. */
static tr_simd_level resolve_simd(tr_simd_level cap)
{
    /* the best this build and CPU have */
    tr_simd_level level = tr__cpu_has_avx2() ? TR_SIMD_AVX2 : TR_SIMD_SSE;
    if (cap != TR_SIMD_DEFAULT && cap < level)
        level = cap;
    const char *env = getenv("TR_SIMD");
    if (env) {
        tr_simd_level e = !strcmp(env, "scalar") ? TR_SIMD_SCALAR
                        : !strcmp(env, "sse")    ? TR_SIMD_SSE
                        : !strcmp(env, "avx2")   ? TR_SIMD_AVX2
                                                 : TR_SIMD_DEFAULT;
        if (e != TR_SIMD_DEFAULT && e < level)
            level = e;
    }
    return level;
}

static void init_srgb_tables(tr_context *ctx)
{
    for (int c = 0; c < 256; c++)
        ctx->unorm8_decode[c] = (float)c / 255.0f;
    /* The sRGB EOTF of IEC 61966-2-1, evaluated in double once per context
     * so that conversions are table lookups with a fixed result. */
    for (int c = 0; c < 256; c++) {
        double v = c / 255.0;
        double l = v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
        ctx->srgb_decode[c] = (float)l;
    }
    /* Encoding rounds to the nearest code: code c+1 starts at the linear value
     * whose encoded value is exactly c + 0.5. */
    for (int c = 0; c < 255; c++) {
        double e = (c + 0.5) / 255.0;
        double l = e <= 0.04045 ? e / 12.92 : pow((e + 0.055) / 1.055, 2.4);
        ctx->srgb_encode_threshold[c] = (float)l;
    }
}

tr_result tr_context_create(const tr_context_desc *desc, tr_context **out)
{
    tr__api_enter(NULL);
    if (!out)
        return tr__error(NULL, TR_ERROR_INVALID_ARGUMENT, "tr_context_create: out is NULL");
    *out = NULL;
    tr_context_desc d;
    char msg[256];
    tr_result r = apply_context_defaults(desc, &d, msg, sizeof(msg));
    if (r != TR_OK)
        return tr__error(NULL, r, "tr_context_create: %s", msg);
    tr_context *ctx = d.allocator.alloc(d.allocator.user, sizeof(tr_context), 64);
    if (!ctx)
        return tr__error(NULL, TR_ERROR_OUT_OF_MEMORY, "tr_context_create: the allocator returned NULL for the "
                                                       "context (%zu bytes)", sizeof(tr_context));
    memset(ctx, 0, sizeof(*ctx));
    ctx->desc = d;
    const device_profile *dev = &device_profiles[d.device]; /* valid: checked above */
    ctx->features.hw_bin_scaling = dev->hw_bin_scaling;
    ctx->features.bin_merging = dev->bin_merging && !(ctx->desc.flags & TR_CONTEXT_NO_BIN_MERGING);
    ctx->features.max_scaled_views = dev->max_scaled_views;
    ctx->simd = resolve_simd(d.simd);
    ctx->kernels = tr__kernels_for(ctx->simd);
    ctx->desc.simd = ctx->simd; /* tr_context_get_desc reports the level in use */
    init_srgb_tables(ctx);
    ctx->pass = tr__calloc(ctx, sizeof(tr__pass));
    if (!ctx->pass) {
        const bool limit = ctx->mem_limit_hit;
        d.allocator.free(d.allocator.user, ctx);
        return tr__error(NULL, TR_ERROR_OUT_OF_MEMORY, "tr_context_create: %s the pass state (%zu bytes)",
                         limit ? "tr_context_desc.memory_limit is too small for" : "the allocator returned NULL for",
                         sizeof(tr__pass));
    }
    *out = ctx;
    return TR_OK;
}

tr_context_desc tr_context_get_desc(const tr_context *ctx)
{
    return ctx ? ctx->desc : (tr_context_desc){0};
}

void tr_context_destroy(tr_context *ctx)
{
    if (!ctx)
        return;
    ctx->in_pass = false;
    while (ctx->pipelines) {
        ctx->pipelines->pass_uses = 0;
        tr_pipeline_destroy(ctx->pipelines);
    }
    while (ctx->samplers) {
        ctx->samplers->pass_uses = 0;
        tr_sampler_destroy(ctx->samplers);
    }
    while (ctx->feedback_maps) {
        ctx->feedback_maps->pass_uses = 0;
        tr_feedback_map_destroy(ctx->feedback_maps);
    }
    while (ctx->images) {
        ctx->images->pass_uses = ctx->images->texture_uses = 0;
        tr_image_destroy(ctx->images);
    }
    while (ctx->shader_modules)
        tr_shader_module_destroy(ctx->shader_modules);
    tr__pass_release(ctx);
    tr__free(ctx, ctx->pass);
    tr_allocator a = ctx->desc.allocator;
    a.free(a.user, ctx);
}
