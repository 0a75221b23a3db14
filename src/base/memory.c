/* tilerast base: the allocator and arenas (base.h).  Every block comes
 * from the context's allocator (tr_context_desc.allocator) with a header
 * that holds its size, so that the context counts what it holds and keeps
 * to tr_context_desc.memory_limit. */
#include <stdlib.h>

#include "internal.h"

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


void *tr__default_alloc(void *user, size_t size, size_t align)
{
    (void)user;
    size = TR_ALIGN(size, align);
    return aligned_alloc(align, size ? size : align);
}

void tr__default_free(void *user, void *ptr)
{
    (void)user;
    free(ptr);
}
