/* Shared by the libFuzzer targets of tests/fuzz: the input read as a
 * stream of little-endian values (zeros once it runs out), and an allocator
 * that refuses blocks above a target's cap (FUZZ_ALLOC_CAP, so that every
 * input stays fast) and counts live blocks (a leak is a finding). */
#ifndef TILERAST_FUZZ_COMMON_H
#define TILERAST_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef FUZZ_ALLOC_CAP
#error "define FUZZ_ALLOC_CAP (the largest block the allocator grants) before including fuzz_common.h"
#endif

/* ---- reading the input ------------------------------------------------------------------------ */

typedef struct reader {
    const uint8_t *p;
    size_t n;
} reader;

static uint8_t u8(reader *r)
{
    if (!r->n)
        return 0;
    r->n--;
    return *r->p++;
}

static uint32_t u32(reader *r)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++)
        v |= (uint32_t)u8(r) << (8 * i);
    return v;
}

static inline uint64_t u64(reader *r)
{
    const uint64_t lo = u32(r);
    return lo | (uint64_t)u32(r) << 32;
}

static inline float f32(reader *r)
{
    const uint32_t v = u32(r);
    float f;
    memcpy(&f, &v, 4);
    return f;
}

/* A small value most of the time, a raw 32-bit one sometimes. */
static inline uint32_t size_val(reader *r, uint32_t small)
{
    const uint8_t k = u8(r);
    return k < 240 ? k % small : u32(r);
}

/* ---- an allocator that refuses large blocks and counts what is live ----------------------- */

static long live;

static void *cap_alloc(void *user, size_t size, size_t align)
{
    (void)user;
    if (size > (size_t)(FUZZ_ALLOC_CAP))
        return NULL;
    void *p = NULL;
    if (posix_memalign(&p, align < sizeof(void *) ? sizeof(void *) : align, size ? size : 1) != 0)
        return NULL;
    __atomic_fetch_add(&live, 1, __ATOMIC_RELAXED);
    return p;
}

static void cap_free(void *user, void *p)
{
    (void)user;
    if (p)
        __atomic_fetch_sub(&live, 1, __ATOMIC_RELAXED);
    free(p);
}

#endif
