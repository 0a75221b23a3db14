/* tilerast base: what every file of the library uses and that uses
 * nothing of it: small arithmetic helpers, the allocator (every block
 * through the context's allocator, counted against its memory limit),
 * arenas of blocks kept across passes, and the error contract (messages
 * per thread and per context).  Implemented in base/memory.c and
 * base/error.c, which read only the context's allocator, limit, counters
 * and message buffer: the objects and the executor sit above (src/README.md). */
#ifndef TILERAST_BASE_H
#define TILERAST_BASE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tilerast/tilerast.h"

#define TR_MIN(a, b) ((a) < (b) ? (a) : (b))
#define TR_MAX(a, b) ((a) > (b) ? (a) : (b))

/* Set bits of a 64-bit mask.  Inline and branch-free: the baseline x86-64
 * target has no POPCNT, and __builtin_popcountll becomes a libgcc call. */
static inline uint32_t tr__popcount64(uint64_t m)
{
    /* (whole 8x8 blocks and empty masks are the common cases) */
    if (m == ~0ull)
        return 64;
    if (!m)
        return 0;
    m = m - ((m >> 1) & 0x5555555555555555ull);
    m = (m & 0x3333333333333333ull) + ((m >> 2) & 0x3333333333333333ull);
    m = (m + (m >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (uint32_t)((m * 0x0101010101010101ull) >> 56);
}
/* Division of small numbers by a multiply: tr__div_small(n, tr__div_small_inv(d))
 * is n / d for 0 <= n < 2^16 and 1 <= d <= 2^16.  inv = ceil(2^32 / d)
 * exceeds 2^32 / d by e / d with e < d, so n * inv / 2^32 exceeds n / d by
 * n * e / (d 2^32) < 1 / d: never enough to reach the next integer. */
static inline uint64_t tr__div_small_inv(uint32_t d)
{
    return ((1ull << 32) + d - 1) / d;
}
static inline uint32_t tr__div_small(uint32_t n, uint64_t inv)
{
    return (uint32_t)(((uint64_t)n * inv) >> 32);
}
#define TR_ALIGN(v, a) (((v) + (a) - 1) / (a) * (a))
#define TR_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#if defined(__GNUC__)
#define TR_LIKELY(x) __builtin_expect(!!(x), 1)
#define TR_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define TR_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define TR_LIKELY(x) (x)
#define TR_UNLIKELY(x) (x)
#define TR_PRINTF(f, a)
#endif

/* ---- memory ------------------------------------------------------------ */

void *tr__alloc(tr_context *ctx, size_t size);           /* 64-byte aligned, NULL on failure */
void *tr__calloc(tr_context *ctx, size_t size);
void tr__free(tr_context *ctx, void *ptr);
/* Grows *ptr (elem bytes each) to hold at least `need` elements, doubling.
 * Keeps the contents.  Returns false (and leaves *ptr alone) on failure. */
bool tr__grow(tr_context *ctx, void **ptr, size_t *cap, size_t need, size_t elem);

/* The allocator a context uses when tr_context_desc.allocator is left zero
 * (aligned_alloc and free). */
void *tr__default_alloc(void *user, size_t size, size_t align);
void tr__default_free(void *user, void *ptr);

/* An arena of blocks kept across passes: reset() rewinds without freeing, so
 * steady-state rendering allocates nothing. */
typedef struct tr__arena_block {
    struct tr__arena_block *next;
    size_t size, used;
    /* data follows, 64-byte aligned */
} tr__arena_block;

typedef struct tr__arena {
    tr__arena_block *head;    /* first block */
    tr__arena_block *cur;     /* block being filled */
    size_t bytes_used;        /* across blocks, for statistics */
} tr__arena;

void *tr__arena_alloc(tr_context *ctx, tr__arena *arena, size_t size); /* 16-byte aligned */
void tr__arena_reset(tr__arena *arena);
/* Bytes the arena's current block still has: allocations up to that size
 * take no new block (after tr__arena_reserve of at least as much). */
static inline size_t tr__arena_room(const tr__arena *arena)
{
    return arena->cur ? arena->cur->size - arena->cur->used : 0;
}
/* Makes sure the next `size` bytes of allocations (in any pieces) come from
 * the current block, so that they call no allocator (another thread may
 * then make them).  false on allocation failure. */
bool tr__arena_reserve(tr_context *ctx, tr__arena *arena, size_t size);
void tr__arena_release(tr_context *ctx, tr__arena *arena);

/* ---- errors ------------------------------------------------------------ */

/* The error contract (result.h): every public call that returns a
 * tr_result first calls tr__api_enter (with its context, or NULL when it
 * has none yet), which clears the thread's last error and the context's;
 * a failure then sets both through tr__error.  So after TR_OK both say
 * "", after an error both name the argument. */
#define TR__ERROR_SIZE 512
void tr__api_enter(const tr_context *ctx);
/* Records a message for the calling thread (tr_last_error) and, when ctx
 * is not NULL, on the context; returns `code`. */
tr_result tr__error(const tr_context *ctx, tr_result code, const char *fmt, ...) TR_PRINTF(3, 4);
/* A failing call that cleans up through public calls (which clear the
 * messages) saves its error's message first and reports it again after. */
typedef struct tr__saved_error {
    char text[TR__ERROR_SIZE];
} tr__saved_error;
void tr__error_save(tr__saved_error *saved);
tr_result tr__error_restore(const tr_context *ctx, tr_result code, const tr__saved_error *saved);

/* The caller-buffer rule (image.h, "Caller buffers"): `rows` rows of
 * row_bytes each, *pitch bytes apart (0: row_bytes), span
 * (rows - 1) * pitch + row_bytes bytes.  A pitch below a row is
 * TR_ERROR_INVALID_ARGUMENT; a span that overflows size_t or exceeds
 * TR_MAX_TRANSFER_BYTES is TR_ERROR_LIMIT_EXCEEDED; both name `arg` and
 * `fn`.  On TR_OK *pitch holds the pitch to use. */
tr_result tr__check_pitch(const tr_context *ctx, const char *fn, const char *arg, size_t row_bytes, uint32_t rows,
                          size_t *pitch);

/* Up-front size checks (context.h, TR_MAX_OBJECT_BYTES and memory_limit):
 * `what` needs `bytes` (computed by the caller with overflow checks, in 64
 * bits).  TR_ERROR_LIMIT_EXCEEDED above TR_MAX_OBJECT_BYTES or what size_t
 * holds; TR_ERROR_OUT_OF_MEMORY when memory_limit is set and the bytes
 * exceed what it leaves beside what the context holds (whole_limit: the
 * limit itself, for scratch that may reuse what is held).  The message
 * names `fn`, `what` and the bytes. */
tr_result tr__check_bytes(const tr_context *ctx, const char *fn, const char *what, uint64_t bytes, bool whole_limit);

#endif
