/* tilerast: contexts, memory and errors. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef TILERAST_HAVE_OPENMP
#include <omp.h>
#endif

#include "internal.h"
#include "feedback/feedback_internal.h"
#include "pass.h"

/* ---- results -------------------------------------------------------------- */

const char *tr_result_string(tr_result result)
{
    switch (result) {
    case TR_OK: return "TR_OK";
    case TR_ERROR_INVALID_ARGUMENT: return "TR_ERROR_INVALID_ARGUMENT";
    case TR_ERROR_INVALID_DESCRIPTOR: return "TR_ERROR_INVALID_DESCRIPTOR";
    case TR_ERROR_UNSUPPORTED_FORMAT: return "TR_ERROR_UNSUPPORTED_FORMAT";
    case TR_ERROR_OUT_OF_MEMORY: return "TR_ERROR_OUT_OF_MEMORY";
    case TR_ERROR_OUT_OF_RANGE: return "TR_ERROR_OUT_OF_RANGE";
    case TR_ERROR_LIMIT_EXCEEDED: return "TR_ERROR_LIMIT_EXCEEDED";
    case TR_ERROR_INVALID_STATE: return "TR_ERROR_INVALID_STATE";
    case TR_ERROR_IO: return "TR_ERROR_IO";
    case TR_ERROR_BAD_FILE: return "TR_ERROR_BAD_FILE";
    }
    return "TR_UNKNOWN_RESULT";
}

/* The calling thread's last error (result.h: tr_last_error).  Every
 * message goes here; a context's copy is its own (tr_context_last_error). */
static _Thread_local char tls_error[TR__ERROR_SIZE];

static void vformat_error(char *buf, size_t size, const tr_context *ctx, tr_result code, const char *fmt, va_list ap)
{
    vsnprintf(buf, size, fmt, ap);
    /* An allocation that the memory limit refused: say so. */
    if (ctx) {
        bool *hit = &((tr_context *)ctx)->mem_limit_hit;
        if (__atomic_exchange_n(hit, false, __ATOMIC_RELAXED) && code == TR_ERROR_OUT_OF_MEMORY) {
            size_t n = strlen(buf);
            snprintf(buf + n, size - n, " (tr_context_desc.memory_limit, %zu bytes)", ctx->desc.memory_limit);
        }
    }
}

tr_result tr__error(const tr_context *ctx, tr_result code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vformat_error(tls_error, sizeof tls_error, ctx, code, fmt, ap);
    va_end(ap);
    /* The message buffer is the context's own scratch, not API state. */
    if (ctx)
        memcpy(((tr_context *)ctx)->error, tls_error, sizeof tls_error);
    return code;
}

void tr__api_enter(const tr_context *ctx)
{
    tls_error[0] = '\0';
    if (ctx)
        ((tr_context *)ctx)->error[0] = '\0';
}

void tr__error_save(tr__saved_error *saved)
{
    memcpy(saved->text, tls_error, sizeof tls_error);
}

tr_result tr__error_restore(const tr_context *ctx, tr_result code, const tr__saved_error *saved)
{
    return code == TR_OK ? TR_OK : tr__error(ctx, code, "%s", saved->text);
}

tr_result tr__check_bytes(const tr_context *ctx, const char *fn, const char *what, uint64_t bytes, bool whole_limit)
{
    /* one block of tr__alloc: the header comes on top (TR_ALLOC_HEADER) */
    if (bytes > TR_MAX_OBJECT_BYTES || bytes > (uint64_t)(SIZE_MAX - 64u))
        return tr__error(ctx, TR_ERROR_LIMIT_EXCEEDED, "%s: %s needs %llu bytes, above TR_MAX_OBJECT_BYTES (%llu)",
                         fn, what, (unsigned long long)bytes, (unsigned long long)TR_MAX_OBJECT_BYTES);
    const size_t limit = ctx ? ctx->desc.memory_limit : 0;
    if (!limit)
        return TR_OK;
    const size_t held = whole_limit ? 0 : __atomic_load_n(&ctx->mem_live, __ATOMIC_RELAXED);
    if (bytes > (uint64_t)limit || held > limit - (size_t)bytes)
        return tr__error(ctx, TR_ERROR_OUT_OF_MEMORY,
                         "%s: %s needs %llu bytes; %s exceeds tr_context_desc.memory_limit (%zu bytes)", fn, what,
                         (unsigned long long)bytes, whole_limit ? "that alone" : "beside what the context holds, that",
                         limit);
    return TR_OK;
}

tr_result tr__check_pitch(const tr_context *ctx, const char *fn, const char *arg, size_t row_bytes, uint32_t rows,
                          size_t *pitch)
{
    const size_t p = *pitch ? *pitch : row_bytes;
    if (p < row_bytes)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "%s: %s = %zu is below a row (%zu bytes)", fn, arg, p,
                         row_bytes);
    size_t span;
    if (__builtin_mul_overflow(p, (size_t)(rows ? rows - 1 : 0), &span) ||
        __builtin_add_overflow(span, row_bytes, &span))
        return tr__error(ctx, TR_ERROR_LIMIT_EXCEEDED,
                         "%s: %s = %zu: %u rows of %zu bytes would span more than SIZE_MAX bytes", fn, arg, p, rows,
                         row_bytes);
    if ((uint64_t)span > TR_MAX_TRANSFER_BYTES || (uint64_t)p > TR_MAX_TRANSFER_BYTES)
        return tr__error(ctx, TR_ERROR_LIMIT_EXCEEDED,
                         "%s: %s = %zu: %u rows of %zu bytes span %zu bytes, above TR_MAX_TRANSFER_BYTES (%llu)", fn,
                         arg, p, rows, row_bytes, span, (unsigned long long)TR_MAX_TRANSFER_BYTES);
    *pitch = p;
    return TR_OK;
}

const char *tr_last_error(void)
{
    return tls_error;
}

const char *tr_context_last_error(const tr_context *ctx)
{
    return ctx ? ctx->error : "tr_context_last_error: ctx is NULL";
}

/* ---- memory ----------------------------------------------------------------- */

static void *default_alloc(void *user, size_t size, size_t align)
{
    (void)user;
    size = TR_ALIGN(size, align);
    return aligned_alloc(align, size ? size : align);
}

static void default_free(void *user, void *ptr)
{
    (void)user;
    free(ptr);
}

/* Every block carries its size in a 64-byte header, so that the context
 * knows what it holds (tr_pass_stats.memory_*) and can keep to
 * tr_context_desc.memory_limit. */
#define TR_ALLOC_HEADER 64u

void *tr__alloc(tr_context *ctx, size_t size)
{
    if (size > SIZE_MAX - TR_ALLOC_HEADER)
        return NULL;
    const size_t total = size + TR_ALLOC_HEADER;
    const size_t live = __atomic_add_fetch(&ctx->mem_live, total, __ATOMIC_RELAXED);
    if (ctx->desc.memory_limit && live > ctx->desc.memory_limit) {
        __atomic_sub_fetch(&ctx->mem_live, total, __ATOMIC_RELAXED);
        __atomic_store_n(&ctx->mem_limit_hit, true, __ATOMIC_RELAXED);
        return NULL;
    }
    uint8_t *p = ctx->desc.allocator.alloc(ctx->desc.allocator.user, total, 64);
    if (!p) {
        __atomic_sub_fetch(&ctx->mem_live, total, __ATOMIC_RELAXED);
        return NULL;
    }
    size_t peak = __atomic_load_n(&ctx->mem_peak, __ATOMIC_RELAXED);
    while (live > peak && !__atomic_compare_exchange_n(&ctx->mem_peak, &peak, live, true, __ATOMIC_RELAXED,
                                                       __ATOMIC_RELAXED))
        ;
    memcpy(p, &total, sizeof total);
    return p + TR_ALLOC_HEADER;
}

void *tr__calloc(tr_context *ctx, size_t size)
{
    void *p = tr__alloc(ctx, size);
    if (p)
        memset(p, 0, size);
    return p;
}

void tr__free(tr_context *ctx, void *ptr)
{
    if (ptr) {
        uint8_t *p = (uint8_t *)ptr - TR_ALLOC_HEADER;
        size_t total;
        memcpy(&total, p, sizeof total);
        __atomic_sub_fetch(&ctx->mem_live, total, __ATOMIC_RELAXED);
        ctx->desc.allocator.free(ctx->desc.allocator.user, p);
    }
}

bool tr__grow(tr_context *ctx, void **ptr, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return true;
    size_t n = *cap ? *cap : 64;
    while (n < need) {
        if (n > SIZE_MAX / 2 / elem)
            return false;
        n *= 2;
    }
    void *p = tr__alloc(ctx, n * elem);
    if (!p)
        return false;
    if (*ptr) {
        memcpy(p, *ptr, *cap * elem);
        tr__free(ctx, *ptr);
    }
    *ptr = p;
    *cap = n;
    return true;
}

#define TR_ARENA_BLOCK (1u << 20)
#define TR_ARENA_HEADER TR_ALIGN(sizeof(tr__arena_block), 64)

void *tr__arena_alloc(tr_context *ctx, tr__arena *arena, size_t size)
{
    size = TR_ALIGN(size, 16);
    tr__arena_block *b = arena->cur;
    while (b && b->used + size > b->size) {
        /* Move on to the next kept block, if any. */
        b = b->next;
        if (b)
            b->used = 0;
    }
    if (!b) {
        size_t bs = TR_MAX((size_t)TR_ARENA_BLOCK, size);
        b = tr__alloc(ctx, TR_ARENA_HEADER + bs);
        if (!b)
            return NULL;
        b->size = bs;
        b->used = 0;
        b->next = NULL;
        if (arena->cur) {
            /* Insert after cur so that the kept chain stays intact. */
            b->next = arena->cur->next;
            arena->cur->next = b;
        } else {
            b->next = arena->head;
            arena->head = b;
        }
    }
    arena->cur = b;
    void *p = (uint8_t *)b + TR_ARENA_HEADER + b->used;
    b->used += size;
    arena->bytes_used += size;
    return p;
}

bool tr__arena_reserve(tr_context *ctx, tr__arena *arena, size_t size)
{
    size = TR_ALIGN(size, 16);
    if (!tr__arena_alloc(ctx, arena, size))
        return false;
    arena->cur->used -= size; /* give it back: the space stays in this block */
    arena->bytes_used -= size;
    return true;
}

void tr__arena_reset(tr__arena *arena)
{
    arena->cur = arena->head;
    if (arena->head)
        arena->head->used = 0;
    arena->bytes_used = 0;
}

void tr__arena_release(tr_context *ctx, tr__arena *arena)
{
    tr__arena_block *b = arena->head;
    while (b) {
        tr__arena_block *n = b->next;
        tr__free(ctx, b);
        b = n;
    }
    memset(arena, 0, sizeof(*arena));
}

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
        d.allocator.alloc = default_alloc;
        d.allocator.free = default_free;
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
