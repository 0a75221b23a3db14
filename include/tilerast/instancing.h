/* tilerast: Mali (Midgard/Bifrost job-manager) instancing, bit for bit.
 *
 * A Mali vertex job does not loop over (vertex, instance) pairs.  It
 * dispatches one linear id per slot: padded_count slots per instance, where
 * padded_count >= vertex_count is chosen so that the hardware can divide by
 * it cheaply, and discards the slots at or past vertex_count.  Each vertex
 * attribute then turns the linear id into an element index with one of four
 * modes: the id itself, the id modulo padded_count (per-vertex data), or the
 * id divided by padded_count * divisor (per-instance data) -- a shift when
 * that product is a power of two, a multiply by a "magic" reciprocal
 * otherwise.  tilerast's instanced draws fetch vertex attributes exactly
 * this way (see tr_vertex_binding in pipeline.h), and the encodings are
 * exported so that an emulator can check or build attribute descriptors.
 *
 * The rules are panfrost's (Mesa) and the instancing page of its docs; see
 * REFERENCE.md section 1 for where the hardware and the docs differ. */
#ifndef TILERAST_INSTANCING_H
#define TILERAST_INSTANCING_H

#include <stdint.h>

#include "result.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Number of vertex slots the hardware dispatches per instance.
 *   n < 10:        n (0 stays 0)
 *   10 <= n < 20:  n rounded up to even
 *   n >= 20:       with s = bitlength(n) - 4 and the top four bits t = n >> s:
 *                  t = 1000b -> 9 << s, 1001b -> 5 << (s+1), 101xb -> 3 << (s+2),
 *                  110xb -> 7 << (s+1), 111xb -> 1 << (s+4)
 * For n >= 20 the result is always > n and a multiple of 4; it is always
 * (2m+1) << k with m <= 4 (so it fits the 8-bit Divisor field, see below).
 * For n >= 0xE0000000 the count would need 33 bits: UINT32_MAX is returned
 * (such a draw is refused with TR_ERROR_LIMIT_EXCEEDED). */
TR_API uint32_t tr_padded_vertex_count(uint32_t vertex_count);

typedef struct tr_magic_divisor {
    uint32_t magic;  /* the 31-bit stored field; the hardware sets bit 31 itself */
    uint32_t shift;  /* floor(log2(d)) */
    uint32_t extra;  /* 1 when the round-down correction is used */
} tr_magic_divisor;

/* Constants for dividing by d (d >= 1, not a power of two), computed with
 * seed 001's algorithm in exact integer arithmetic:
 *   shift = floor(log2 d); m = ceil(2^(32+shift) / d); e = 2^(32+shift) mod d;
 *   e <= 2^shift: magic = m - 1, extra = 1 (round down);  else magic = m, extra = 0;
 *   the stored field is magic without bit 31.
 * For d = 0 or a power of two (which the hardware divides by shifting) all
 * fields are 0 except shift = log2(d) (0 for d = 0). */
TR_API tr_magic_divisor tr_compute_magic_divisor(uint32_t d);

/* The division as the hardware evaluates it:
 * floor((x + extra) * (magic | 2^31) / 2^(32 + shift)), with x + extra computed
 * without 32-bit overflow.  Equals x / d for every 32-bit x when m came from
 * tr_compute_magic_divisor(d). */
TR_API uint32_t tr_magic_divide(uint32_t x, tr_magic_divisor m);

/* ---- attribute descriptors -------------------------------------------------------------- */

/* Vertex attribute input rate (as Vulkan's VkVertexInputRate). */
typedef enum tr_input_rate {
    TR_INPUT_RATE_VERTEX = 0,
    TR_INPUT_RATE_INSTANCE
} tr_input_rate;

/* The hardware's attribute buffer modes, with Mali's numbers. */
typedef enum tr_attribute_mode {
    TR_ATTRIBUTE_MODE_LINEAR = 1,       /* element = linear id (x stride; stride 0: always 0) */
    TR_ATTRIBUTE_MODE_POT_DIVISOR = 2,  /* element = linear id >> shift */
    TR_ATTRIBUTE_MODE_MODULUS = 3,      /* element = linear id % ((2 * odd + 1) << shift) */
    TR_ATTRIBUTE_MODE_NPOT_DIVISOR = 4  /* element = tr_magic_divide(linear id, magic) */
} tr_attribute_mode;

/* One attribute buffer record as the hardware would get it. */
typedef struct tr_attribute_record {
    tr_attribute_mode mode;
    uint32_t padded_count;   /* slots per instance of the draw */
    uint32_t zero_stride;    /* LINEAR only: 1 if every linear id reads element 0 */
    uint32_t shift;          /* MODULUS and POT: the power of two; NPOT: magic.shift */
    uint32_t odd;            /* MODULUS: m of the modulus (2m + 1) << shift, m <= 7 */
    uint32_t divisor_field;  /* the 8-bit Divisor field: shift | odd << 5 (MODULUS, POT) */
    uint32_t hw_divisor;     /* what the linear id is divided by (POT, NPOT): padded_count x divisor */
    uint32_t divisor;        /* the API divisor (NPOT: the continuation record's second word) */
    tr_magic_divisor magic;  /* NPOT: magic.magic is the continuation record's numerator */
} tr_attribute_record;

/* The record for one attribute of a draw of vertex_count vertices (for an
 * indexed draw: max index - min index + 1) and instance_count instances.
 *   - instance_count <= 1: no padding (padded_count = vertex_count); per-vertex
 *     data is LINEAR, per-instance data LINEAR with zero_stride.
 *   - per-vertex data when instancing: MODULUS by the padded count.
 *   - per-instance data: divisor 0 -> LINEAR with zero_stride; otherwise
 *     hw_divisor = padded_count x divisor -> POT_DIVISOR if a power of two,
 *     else NPOT_DIVISOR.  If the product needs more than 32 bits every linear
 *     id is below it: LINEAR with zero_stride, which reads the same elements.
 * Returns TR_ERROR_INVALID_ARGUMENT for an unknown rate or a NULL out, and
 * TR_ERROR_LIMIT_EXCEEDED when padded_count x instance_count linear ids do
 * not fit in 32 bits (the hardware's linear id); on failure *out is not
 * written. */
TR_API tr_result tr_attribute_record_for(tr_input_rate rate, uint32_t divisor, uint32_t vertex_count,
                                         uint32_t instance_count, tr_attribute_record *out);

/* The element a linear id reads under a record (before the binding's stride
 * and the draw's first vertex or first instance are applied). */
TR_API uint32_t tr_attribute_element(const tr_attribute_record *record, uint32_t linear_id);

#ifdef __cplusplus
}
#endif
#endif
