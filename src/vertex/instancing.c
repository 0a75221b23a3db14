/* tilerast vertex stage: Mali padded instancing and magic divisors
 * (include/tilerast/instancing.h says what each function computes). */
#include "internal.h"
#include "vertex/vertex_internal.h"

#include <stdbool.h>
#include <stddef.h>

static inline uint32_t bit_length(uint32_t v)
{
    return v ? 32u - (uint32_t)__builtin_clz(v) : 0u;
}

static inline bool is_pow2(uint64_t v)
{
    return v && !(v & (v - 1));
}

TR_API uint32_t tr_padded_vertex_count(uint32_t n)
{
    if (n < 10)
        return n;
    if (n < 20)
        return (n + 1) & ~1u;
    uint32_t s = bit_length(n) - 4;
    uint32_t top = n >> s; /* 1xxx: the leading one and the next three bits */
    uint64_t padded;
    switch ((top >> 1) & 3) {
    case 0: padded = (top & 1) ? 5ull << (s + 1) : 9ull << s; break;
    case 1: padded = 3ull << (s + 2); break;
    case 2: padded = 7ull << (s + 1); break;
    default: padded = 1ull << (s + 4); break;
    }
    return padded > UINT32_MAX ? UINT32_MAX : (uint32_t)padded;
}

TR_API tr_magic_divisor tr_compute_magic_divisor(uint32_t d)
{
    tr_magic_divisor r = {0, 0, 0};
    if (d == 0)
        return r;
    r.shift = bit_length(d) - 1;
    if (is_pow2(d))
        return r;
    /* 2^(32 + shift) <= 2^63: exact in 64 bits, and so are the ceiling and
     * the remainder (a double-precision ceiling is wrong for d = 2^31 - 1). */
    const uint64_t num = 1ull << (32 + r.shift);
    uint64_t q = num / d, rem = num % d; /* rem != 0: d is not a power of two */
    uint64_t m = q + 1;                  /* ceil(num / d) */
    uint64_t magic;
    if (rem <= (1ull << r.shift)) {
        magic = m - 1;
        r.extra = 1;
    } else {
        magic = m;
        r.extra = 0;
    }
    /* 2^31 < num / d < 2^32, so bit 31 is always set and stored as 0. */
    r.magic = (uint32_t)(magic & 0x7FFFFFFFu);
    return r;
}

TR_API uint32_t tr_magic_divide(uint32_t x, tr_magic_divisor m)
{
    uint64_t xe = (uint64_t)x + (m.extra & 1u); /* up to 2^32: 33 bits */
    uint64_t mul = (uint64_t)m.magic | 0x80000000u;
    /* xe * mul < 2^32 * 2^32: no overflow in 64 bits. */
    return (uint32_t)((xe * mul) >> 32 >> (m.shift & 31u));
}

TR_API tr_result tr_attribute_record_for(tr_input_rate rate, uint32_t divisor, uint32_t vertex_count,
                                         uint32_t instance_count, tr_attribute_record *out)
{
    tr__api_enter(NULL);
    if (!out)
        return tr__error(NULL, TR_ERROR_INVALID_ARGUMENT, "tr_attribute_record_for: out is NULL");
    if (rate != TR_INPUT_RATE_VERTEX && rate != TR_INPUT_RATE_INSTANCE)
        return tr__error(NULL, TR_ERROR_INVALID_ARGUMENT, "tr_attribute_record_for: rate = %d is not a tr_input_rate",
                         (int)rate);
    tr_attribute_record r = {0};
    r.mode = TR_ATTRIBUTE_MODE_LINEAR;
    r.divisor = divisor;
    const bool instancing = instance_count > 1 && vertex_count > 0;
    r.padded_count = instancing ? tr_padded_vertex_count(vertex_count) : vertex_count;
    if ((uint64_t)r.padded_count * (instance_count ? instance_count : 1) > UINT32_MAX ||
        r.padded_count == UINT32_MAX) {
        return tr__error(NULL, TR_ERROR_LIMIT_EXCEEDED,
                         "tr_attribute_record_for: vertex_count = %u (padded %u) times instance_count = %u "
                         "exceeds 2^32 - 1 vertex slots", vertex_count, r.padded_count, instance_count);
    }
    if (rate == TR_INPUT_RATE_VERTEX) {
        if (instancing) {
            r.mode = TR_ATTRIBUTE_MODE_MODULUS;
            r.shift = (uint32_t)__builtin_ctz(r.padded_count);
            r.odd = (r.padded_count >> r.shift) >> 1;
            r.divisor_field = r.shift | r.odd << 5;
        }
        *out = r;
        return TR_OK;
    }
    uint64_t hw = (uint64_t)r.padded_count * divisor;
    if (!instancing || divisor == 0 || hw > UINT32_MAX) {
        r.zero_stride = 1;
        *out = r;
        return TR_OK;
    }
    r.hw_divisor = (uint32_t)hw;
    if (is_pow2(hw)) {
        r.mode = TR_ATTRIBUTE_MODE_POT_DIVISOR;
        r.shift = (uint32_t)__builtin_ctz(r.hw_divisor);
        r.divisor_field = r.shift;
    } else {
        r.mode = TR_ATTRIBUTE_MODE_NPOT_DIVISOR;
        r.magic = tr_compute_magic_divisor(r.hw_divisor);
        r.shift = r.magic.shift;
    }
    *out = r;
    return TR_OK;
}

TR_API uint32_t tr_attribute_element(const tr_attribute_record *r, uint32_t id)
{
    if (!r)
        return 0;
    switch (r->mode) {
    case TR_ATTRIBUTE_MODE_POT_DIVISOR: return id >> (r->shift & 31u);
    case TR_ATTRIBUTE_MODE_MODULUS: return (uint32_t)(id % tr__attribute_modulus(r));
    case TR_ATTRIBUTE_MODE_NPOT_DIVISOR: return tr_magic_divide(id, r->magic);
    default: return r->zero_stride ? 0u : id;
    }
}
