/* Mali instancing: padded vertex counts, magic divisors, attribute records,
 * and instanced draws that fetch through them.  Expected values come from
 * independent statements of the rules written here, never from the
 * library. */
#include "trtest.h"

#include <stdlib.h>
#include <string.h>

/* ---- padded vertex counts ------------------------------------------------------------------- */

/* The rule restated: below 10 the count itself, below 20 the next even
 * number; from 20 on, with s = floor(log2 n) - 3, the smallest of 9, 10, 12,
 * 14 and 16 times 2^s that is greater than n. */
static uint64_t ref_padded(uint64_t n)
{
    if (n < 10)
        return n;
    if (n < 20)
        return n % 2 ? n + 1 : n;
    int s = 63 - __builtin_clzll(n) - 3;
    static const uint64_t factors[] = {9, 10, 12, 14, 16};
    for (int i = 0; i < 5; i++)
        if (factors[i] << s > n)
            return factors[i] << s;
    cr_assert_fail("no factor above %llu", (unsigned long long)n);
    return 0;
}

/* Is p = (2m + 1) * 2^k with m <= 7? */
static int encodable(uint32_t p)
{
    if (p == 0)
        return 0;
    uint32_t k = (uint32_t)__builtin_ctz(p);
    return ((p >> k) - 1) / 2 <= 7;
}

Test(vertex, padded_count_every_count_to_2_20)
{
    for (uint32_t n = 0; n <= (1u << 20); n++) {
        uint32_t got = tr_padded_vertex_count(n);
        uint64_t want = ref_padded(n);
        if (got != want)
            cr_assert_fail("tr_padded_vertex_count(%u) = %u, expected %llu", n, got,
                           (unsigned long long)want);
        if (n > 0 && !encodable(got))
            cr_assert_fail("padded count %u (for %u) is not (2m+1)*2^k with m <= 7", got, n);
        if (n >= 20 && (got <= n || got % 4 != 0))
            cr_assert_fail("padded count %u for %u: not > n or not a multiple of 4", got, n);
    }
}

Test(vertex, padded_count_examples_and_boundaries)
{
    /* The seed's example and the small-count rule REFERENCE.md states. */
    cr_expect_eq(tr_padded_vertex_count(70), 72);
    cr_expect_eq(tr_padded_vertex_count(8), 8);
    cr_expect_eq(tr_padded_vertex_count(12), 12);
    cr_expect_eq(tr_padded_vertex_count(11), 12);
    cr_expect_eq(tr_padded_vertex_count(18), 18);
    cr_expect_eq(tr_padded_vertex_count(19), 20);
    cr_expect_eq(tr_padded_vertex_count(20), 24);
    cr_expect_eq(tr_padded_vertex_count(0), 0);
    /* Every power of two, its neighbours and each factor boundary up to
     * 32 bits. */
    for (int b = 4; b < 32; b++) {
        uint64_t p = 1ull << b;
        uint64_t cands[] = {p - 1, p, p + 1, 9 * (p >> 3) - 1, 9 * (p >> 3), 10 * (p >> 3) - 1,
                            10 * (p >> 3), 12 * (p >> 3) - 1, 12 * (p >> 3), 14 * (p >> 3) - 1,
                            14 * (p >> 3), 2 * p - 1};
        for (size_t i = 0; i < sizeof cands / sizeof cands[0]; i++) {
            uint64_t n = cands[i];
            if (n > UINT32_MAX)
                continue;
            uint64_t want = ref_padded(n);
            uint32_t got = tr_padded_vertex_count((uint32_t)n);
            if (want > UINT32_MAX)
                cr_expect_eq(got, UINT32_MAX, "n = %llu needs 33 bits", (unsigned long long)n);
            else
                cr_expect_eq(got, want, "n = %llu", (unsigned long long)n);
        }
    }
    cr_expect_eq(tr_padded_vertex_count(0xDFFFFFFFu), 0xE0000000u);
    cr_expect_eq(tr_padded_vertex_count(0xE0000000u), UINT32_MAX);
    cr_expect_eq(tr_padded_vertex_count(UINT32_MAX), UINT32_MAX);
}

/* ---- magic divisors ------------------------------------------------------------------------- */

/* Divisors that are not powers of two: small, odd, even, primes, near 2^31
 * and near 2^32. */
static const uint32_t divisors[] = {
    3, 5, 6, 7, 9, 10, 11, 12, 13, 14, 15, 17, 24, 25, 27, 31, 33, 63, 65, 100, 127, 129, 255, 257,
    641, 1000, 1023, 1025, 6700417, 65535, 65537, 1000003, 16777215, 16777217, 0x55555555u,
    0x7FFFFFFDu, 0x7FFFFFFEu, 0x7FFFFFFFu, 0x80000001u, 0x80000003u, 0xAAAAAAAAu, 0xC0000001u,
    0xFFFFFFF0u, 0xFFFFFFFDu, 0xFFFFFFFEu, 0xFFFFFFFFu,
};

/* The seed's constants with an exact 128-bit ceiling, written out again. */
static void ref_magic(uint32_t d, uint32_t *field, uint32_t *shift, uint32_t *extra)
{
    uint32_t s = 31 - (uint32_t)__builtin_clz(d);
    unsigned __int128 num = (unsigned __int128)1 << (32 + s);
    unsigned __int128 m = (num + d - 1) / d;
    unsigned __int128 e = num % d;
    if (e <= ((unsigned __int128)1 << s)) {
        m -= 1;
        *extra = 1;
    } else {
        *extra = 0;
    }
    cr_assert((m >> 31) == 1, "d = %u: multiplier outside [2^31, 2^32)", d);
    *field = (uint32_t)(m & 0x7FFFFFFFu);
    *shift = s;
}

static void check_divide(uint32_t x, uint32_t d, tr_magic_divisor m)
{
    uint32_t got = tr_magic_divide(x, m), want = x / d;
    if (got != want)
        cr_assert_fail("d = %u, x = %u: tr_magic_divide gives %u, x / d = %u", d, x, got, want);
}

Test(vertex, magic_divisor_constants_match_the_seed_algorithm)
{
    for (size_t i = 0; i < sizeof divisors / sizeof divisors[0]; i++) {
        uint32_t d = divisors[i], field, shift, extra;
        ref_magic(d, &field, &shift, &extra);
        tr_magic_divisor m = tr_compute_magic_divisor(d);
        cr_expect_eq(m.magic, field, "d = %u: magic", d);
        cr_expect_eq(m.shift, shift, "d = %u: shift", d);
        cr_expect_eq(m.extra, extra, "d = %u: extra", d);
    }
    /* The case a double-precision ceiling gets wrong (REFERENCE.md 1). */
    tr_magic_divisor m = tr_compute_magic_divisor(0x7FFFFFFFu);
    cr_expect_eq(m.magic, 1);
    cr_expect_eq(m.shift, 30);
    cr_expect_eq(m.extra, 1);
    /* Powers of two and 0 are not divided by magic: shift only. */
    m = tr_compute_magic_divisor(64);
    cr_expect(m.magic == 0 && m.shift == 6 && m.extra == 0);
    m = tr_compute_magic_divisor(0);
    cr_expect(m.magic == 0 && m.shift == 0 && m.extra == 0);
}

Test(vertex, magic_divide_exact_on_boundaries_and_random_x)
{
    trt_rng rng = {2024};
    for (size_t i = 0; i < sizeof divisors / sizeof divisors[0]; i++) {
        uint32_t d = divisors[i];
        tr_magic_divisor m = tr_compute_magic_divisor(d);
        static const uint32_t fixed[] = {0, 1, 2, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFEu, 0xFFFFFFFFu};
        for (size_t k = 0; k < sizeof fixed / sizeof fixed[0]; k++)
            check_divide(fixed[k], d, m);
        /* Multiples of d and their neighbours: the first ones, the last
         * ones below 2^32 and random ones. */
        uint64_t kmax = UINT32_MAX / d;
        for (uint64_t k = 0; k <= kmax; k++) {
            uint64_t q = k;
            if (k >= 64 && k + 64 <= kmax) {
                k = kmax - 64; /* jump to the top */
                continue;
            }
            for (int delta = -1; delta <= 1; delta++) {
                int64_t x = (int64_t)(q * d) + delta;
                if (x >= 0 && x <= UINT32_MAX)
                    check_divide((uint32_t)x, d, m);
            }
        }
        for (int r = 0; r < 2000; r++) {
            uint64_t q = kmax ? trt_rand_u32(&rng) % (kmax + 1) : 0;
            for (int delta = -1; delta <= 1; delta++) {
                int64_t x = (int64_t)(q * d) + delta;
                if (x >= 0 && x <= UINT32_MAX)
                    check_divide((uint32_t)x, d, m);
            }
        }
        for (int r = 0; r < 100000; r++)
            check_divide(trt_rand_u32(&rng), d, m);
    }
}

Test(vertex, magic_divide_every_small_divisor)
{
    /* Every non-power-of-two divisor below 4096 on a stride through all x. */
    for (uint32_t d = 3; d < 4096; d++) {
        if (!(d & (d - 1)))
            continue;
        tr_magic_divisor m = tr_compute_magic_divisor(d);
        for (uint64_t x = 0; x <= UINT32_MAX; x += 0x10001u * 7 + d)
            check_divide((uint32_t)x, d, m);
        check_divide(UINT32_MAX, d, m);
        check_divide(UINT32_MAX / d * d - 1, d, m);
        check_divide(UINT32_MAX / d * d, d, m);
    }
}

/* ---- attribute records ------------------------------------------------------------------------ */

Test(vertex, attribute_records)
{
    tr_attribute_record r;
    /* The seed's example: 70 vertices pad to 72 = 9 * 2^3, so the modulus
     * record has shift 3 and odd (extra_flags) 4. */
    TRT_OK(tr_attribute_record_for(TR_INPUT_RATE_VERTEX, 0, 70, 2, &r));
    cr_expect_eq(r.mode, TR_ATTRIBUTE_MODE_MODULUS);
    cr_expect_eq(r.padded_count, 72);
    cr_expect_eq(r.shift, 3);
    cr_expect_eq(r.odd, 4);
    cr_expect_eq(r.divisor_field, 3 | 4 << 5);
    /* No instancing: linear, no padding. */
    TRT_OK(tr_attribute_record_for(TR_INPUT_RATE_VERTEX, 0, 70, 1, &r));
    cr_expect_eq(r.mode, TR_ATTRIBUTE_MODE_LINEAR);
    cr_expect_eq(r.padded_count, 70);
    cr_expect_eq(r.zero_stride, 0);
    TRT_OK(tr_attribute_record_for(TR_INPUT_RATE_INSTANCE, 5, 70, 1, &r));
    cr_expect_eq(r.mode, TR_ATTRIBUTE_MODE_LINEAR);
    cr_expect_eq(r.zero_stride, 1);
    /* Per instance: 72 x 3 = 216 is not a power of two; 16 x 4 = 64 is. */
    TRT_OK(tr_attribute_record_for(TR_INPUT_RATE_INSTANCE, 3, 70, 5, &r));
    cr_expect_eq(r.mode, TR_ATTRIBUTE_MODE_NPOT_DIVISOR);
    cr_expect_eq(r.hw_divisor, 216);
    cr_expect_eq(r.divisor, 3);
    tr_magic_divisor m = tr_compute_magic_divisor(216);
    cr_expect(r.magic.magic == m.magic && r.magic.shift == m.shift && r.magic.extra == m.extra);
    TRT_OK(tr_attribute_record_for(TR_INPUT_RATE_INSTANCE, 4, 16, 5, &r));
    cr_expect_eq(r.mode, TR_ATTRIBUTE_MODE_POT_DIVISOR);
    cr_expect_eq(r.shift, 6);
    cr_expect_eq(r.divisor_field, 6);
    /* Divisor 0: every instance reads element 0. */
    TRT_OK(tr_attribute_record_for(TR_INPUT_RATE_INSTANCE, 0, 70, 5, &r));
    cr_expect_eq(r.mode, TR_ATTRIBUTE_MODE_LINEAR);
    cr_expect_eq(r.zero_stride, 1);
    /* padded x divisor past 32 bits: constant as well. */
    TRT_OK(tr_attribute_record_for(TR_INPUT_RATE_INSTANCE, 0x10000000u, 72, 5, &r));
    cr_expect_eq(r.zero_stride, 1);
    /* Too many linear ids, bad arguments. */
    cr_expect_eq(tr_attribute_record_for(TR_INPUT_RATE_VERTEX, 0, 1u << 28, 17, &r), TR_ERROR_LIMIT_EXCEEDED);
    cr_expect_eq(tr_attribute_record_for(TR_INPUT_RATE_VERTEX, 0, 0xE0000000u, 2, &r),
                 TR_ERROR_LIMIT_EXCEEDED);
    cr_expect_eq(tr_attribute_record_for((tr_input_rate)7, 0, 3, 1, &r), TR_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(tr_attribute_record_for(TR_INPUT_RATE_VERTEX, 0, 3, 1, NULL), TR_ERROR_INVALID_ARGUMENT);
}

Test(vertex, attribute_elements_for_every_linear_id)
{
    /* For every slot of every instance: per-vertex records give the vertex,
     * per-instance records give instance / divisor. */
    static const uint32_t counts[] = {1, 2, 3, 9, 10, 11, 19, 20, 21, 33, 70, 100, 1000};
    static const uint32_t insts[] = {1, 2, 3, 7, 10, 64};
    static const uint32_t divs[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 24, 100, 1000};
    for (size_t a = 0; a < sizeof counts / sizeof counts[0]; a++)
        for (size_t b = 0; b < sizeof insts / sizeof insts[0]; b++) {
            uint32_t n = counts[a], ni = insts[b];
            tr_attribute_record pv;
            TRT_OK(tr_attribute_record_for(TR_INPUT_RATE_VERTEX, 0, n, ni, &pv));
            cr_assert_eq(pv.padded_count, ni > 1 ? ref_padded(n) : n);
            for (uint32_t i = 0; i < ni; i++)
                for (uint32_t v = 0; v < n; v++)
                    cr_assert_eq(tr_attribute_element(&pv, i * pv.padded_count + v), v, "n %u i %u v %u", n,
                                 i, v);
            for (size_t c = 0; c < sizeof divs / sizeof divs[0]; c++) {
                tr_attribute_record pi;
                TRT_OK(tr_attribute_record_for(TR_INPUT_RATE_INSTANCE, divs[c], n, ni, &pi));
                for (uint32_t i = 0; i < ni; i++)
                    for (uint32_t v = 0; v < n; v++) {
                        uint32_t want = divs[c] ? i / divs[c] : 0;
                        uint32_t got = tr_attribute_element(&pi, i * pv.padded_count + v);
                        if (got != want)
                            cr_assert_fail("n %u, %u instances, divisor %u: instance %u slot %u reads "
                                           "element %u, expected %u (mode %d)",
                                           n, ni, divs[c], i, v, got, want, (int)pi.mode);
                    }
            }
        }
}

/* ---- draws ---------------------------------------------------------------------------------- */

/* What the instanced test shader records: for each (instance, vertex) the
 * attribute values it was given. */
typedef struct fetch_log {
    uint32_t vertices, instances, first_vertex, first_instance;
    uint32_t calls;
    uint32_t bad_index;         /* a vertex or instance index outside the draw */
    float (*vals)[5][4];        /* [instance * vertices + vertex][location 0..4][component] */
} fetch_log;

typedef struct fetch_uniforms {
    fetch_log *log;
} fetch_uniforms;

static void vs_record(tr_vs_batch *b)
{
    const fetch_uniforms *u = (const fetch_uniforms *)b->uniforms;
    fetch_log *log = u->log;
    for (uint32_t l = 0; l < b->count; l++) {
        uint32_t v = b->vertex_index[l] - log->first_vertex, i = b->instance_index[l] - log->first_instance;
        log->calls++;
        if (v >= log->vertices || i >= log->instances) {
            log->bad_index++;
            continue;
        }
        for (int loc = 0; loc < 5; loc++)
            for (int c = 0; c < 4; c++)
                log->vals[i * log->vertices + v][loc][c] = b->attrib.f[loc][c][l];
        b->position[0][l] = b->position[1][l] = b->position[2][l] = 0; /* zero area: culled */
    }
}

Test(vertex, instanced_draw_fetches_every_divisor)
{
    /* Bindings: 0 per vertex (vec2), 1..4 per instance with divisors 1, 3,
     * 7 and zero (vec4, RGBA8, float, uvec2). */
    enum { MAXV = 80, MAXI = 40 };
    static float pv[MAXV + 8][2];
    static float inst1[MAXI + 8][4];
    static uint8_t inst3[MAXI + 8][4];
    static float inst7[MAXI + 8];
    static uint32_t inst0[MAXI + 8][2];
    for (int k = 0; k < MAXV + 8; k++) {
        pv[k][0] = (float)k;
        pv[k][1] = (float)(1000 + k);
    }
    for (int k = 0; k < MAXI + 8; k++) {
        for (int c = 0; c < 4; c++) {
            inst1[k][c] = (float)(10 * k + c);
            inst3[k][c] = (uint8_t)(7 * k + c);
        }
        inst7[k] = (float)(-k);
        inst0[k][0] = 100000u + (uint32_t)k;
        inst0[k][1] = 200000u + (uint32_t)k;
    }
    tr_context *ctx = trt_context(1);
    tr_image *img = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, 8, 8);
    tr_pipeline_desc pd = {0};
    pd.vertex_shader = vs_record;
    pd.topology = TR_TOPOLOGY_TRIANGLE_STRIP;
    pd.bindings[0].stride = sizeof pv[0];
    pd.bindings[1] = (tr_vertex_binding){sizeof inst1[0], TR_INPUT_RATE_INSTANCE, 1};
    pd.bindings[2] = (tr_vertex_binding){sizeof inst3[0], TR_INPUT_RATE_INSTANCE, 3};
    pd.bindings[3] = (tr_vertex_binding){sizeof inst7[0], TR_INPUT_RATE_INSTANCE, 7};
    pd.bindings[4] = (tr_vertex_binding){sizeof inst0[0], TR_INPUT_RATE_INSTANCE, TR_VERTEX_DIVISOR_ZERO};
    pd.attributes[0] = (tr_vertex_attribute){TR_VERTEX_FORMAT_R32G32_SFLOAT, 0, 0};
    pd.attributes[1] = (tr_vertex_attribute){TR_VERTEX_FORMAT_R32G32B32A32_SFLOAT, 1, 0};
    pd.attributes[2] = (tr_vertex_attribute){TR_VERTEX_FORMAT_R8G8B8A8_UNORM, 2, 0};
    pd.attributes[3] = (tr_vertex_attribute){TR_VERTEX_FORMAT_R32_SFLOAT, 3, 0};
    pd.attributes[4] = (tr_vertex_attribute){TR_VERTEX_FORMAT_R32G32_UINT, 4, 0};
    tr_pipeline *pipe = trt_pipeline(ctx, &pd);
    static const uint32_t counts[] = {3, 9, 10, 11, 19, 20, 21, 70};
    static const uint32_t insts[] = {1, 2, 3, 7, 8, 21, 40};
    fetch_log log;
    log.vals = calloc((size_t)MAXV * MAXI, sizeof *log.vals);
    cr_assert_not_null(log.vals);
    for (size_t a = 0; a < sizeof counts / sizeof counts[0]; a++)
        for (size_t b = 0; b < sizeof insts / sizeof insts[0]; b++) {
            uint32_t n = counts[a], ni = insts[b], fv = (uint32_t)(a % 3), fi = (uint32_t)(b % 4);
            log.vertices = n;
            log.instances = ni;
            log.first_vertex = fv;
            log.first_instance = fi;
            log.calls = log.bad_index = 0;
            memset(log.vals, 0xff, (size_t)MAXV * MAXI * sizeof *log.vals);
            trt_begin_color(ctx, img, NULL);
            TRT_OK(tr_cmd_bind_pipeline(ctx, pipe));
            fetch_uniforms u = {&log};
            TRT_OK(tr_cmd_set_uniforms(ctx, &u, sizeof u));
            TRT_OK(tr_cmd_bind_vertex_buffer(ctx, 0, pv, sizeof pv, 0));
            TRT_OK(tr_cmd_bind_vertex_buffer(ctx, 1, inst1, sizeof inst1, 0));
            TRT_OK(tr_cmd_bind_vertex_buffer(ctx, 2, inst3, sizeof inst3, 0));
            TRT_OK(tr_cmd_bind_vertex_buffer(ctx, 3, inst7, sizeof inst7, 0));
            TRT_OK(tr_cmd_bind_vertex_buffer(ctx, 4, inst0, sizeof inst0, 0));
            TRT_OK(tr_cmd_draw(ctx, n, ni, fv, fi));
            tr_pass_stats st;
            TRT_OK(tr_cmd_end_render_pass(ctx, &st));
            uint32_t padded = ni > 1 ? (uint32_t)ref_padded(n) : n;
            cr_expect_eq(st.vertex_linear_ids, (uint64_t)padded * ni, "n %u, %u instances", n, ni);
            cr_assert_eq(log.bad_index, 0, "a padding slot or a foreign index reached the shader");
            cr_assert_geq(log.calls, n * ni);
            for (uint32_t i = 0; i < ni; i++)
                for (uint32_t v = 0; v < n; v++) {
                    float(*got)[4] = log.vals[i * n + v];
                    uint32_t e0 = fv + v, e1 = fi + i, e3 = fi + i / 3, e7 = fi + i / 7, ez = fi;
                    const char *what = "";
                    if (got[0][0] != pv[e0][0] || got[0][1] != pv[e0][1] || got[0][2] != 0.0f ||
                        got[0][3] != 1.0f)
                        what = "per-vertex vec2";
                    for (int c = 0; c < 4; c++) {
                        if (got[1][c] != inst1[e1][c])
                            what = "divisor 1";
                        if (got[2][c] != (float)inst3[e3][c] / 255.0f)
                            what = "divisor 3 (unorm8)";
                    }
                    if (got[3][0] != inst7[e7] || got[3][1] != 0.0f || got[3][2] != 0.0f || got[3][3] != 1.0f)
                        what = "divisor 7";
                    uint32_t uz[4];
                    memcpy(uz, got[4], sizeof uz);
                    if (uz[0] != inst0[ez][0] || uz[1] != inst0[ez][1] || uz[2] != 0 || uz[3] != 1)
                        what = "divisor zero (uvec2)";
                    if (what[0])
                        cr_assert_fail("n %u, %u instances (first vertex %u, first instance %u): instance %u "
                                       "vertex %u: %s attribute wrong",
                                       n, ni, fv, fi, i, v, what);
                }
        }
    free(log.vals);
    tr_context_destroy(ctx);
}

/* The rendering test's vertex: what one (instance, vertex) sees, laid out
 * so that both the instanced and the expanded draw read it with the same
 * attribute formats. */
typedef struct draw_vertex {
    float pos[2];
    uint8_t color[4];
} draw_vertex;

typedef struct expanded_vertex {
    float pos[2];
    uint8_t color[4];
    float offset[2];    /* divisor 1 */
    uint8_t tint[4];    /* divisor 3 */
    float scale;        /* divisor 7 */
    float shift[4];     /* divisor zero */
} expanded_vertex;

/* locations: 0 pos, 1 colour, 2 offset, 3 tint, 4 scale, 5 shift */
static void vs_instanced(tr_vs_batch *b)
{
    for (uint32_t l = 0; l < b->count; l++) {
        float s = b->attrib.f[4][0][l];
        b->position[0][l] = b->attrib.f[0][0][l] * s + b->attrib.f[2][0][l] + b->attrib.f[5][0][l];
        b->position[1][l] = b->attrib.f[0][1][l] * s + b->attrib.f[2][1][l] + b->attrib.f[5][1][l];
        b->position[2][l] = 0.5f;
        b->position[3][l] = 1.0f;
        for (int c = 0; c < 4; c++)
            b->varyings[0][c][l] = b->attrib.f[1][c][l] * b->attrib.f[3][c][l] + b->attrib.f[5][2][l];
    }
}

static void instanced_pipeline_desc(tr_pipeline_desc *pd, int expanded)
{
    memset(pd, 0, sizeof *pd);
    pd->vertex_shader = vs_instanced;
    pd->fragment_shader = trt_fs_varying;
    pd->varying_count = 1;
    /* additive: overlaps add up, so order and coverage both show */
    pd->blend[0].enable = 1;
    pd->blend[0].src_color = pd->blend[0].dst_color = TR_BLEND_ONE;
    pd->blend[0].src_alpha = pd->blend[0].dst_alpha = TR_BLEND_ONE;
    tr_vertex_attribute *at = pd->attributes;
    if (expanded) {
        pd->bindings[0].stride = sizeof(expanded_vertex);
        at[0] = (tr_vertex_attribute){TR_VERTEX_FORMAT_R32G32_SFLOAT, 0, offsetof(expanded_vertex, pos)};
        at[1] = (tr_vertex_attribute){TR_VERTEX_FORMAT_R8G8B8A8_UNORM, 0, offsetof(expanded_vertex, color)};
        at[2] = (tr_vertex_attribute){TR_VERTEX_FORMAT_R32G32_SFLOAT, 0, offsetof(expanded_vertex, offset)};
        at[3] = (tr_vertex_attribute){TR_VERTEX_FORMAT_R8G8B8A8_UNORM, 0, offsetof(expanded_vertex, tint)};
        at[4] = (tr_vertex_attribute){TR_VERTEX_FORMAT_R32_SFLOAT, 0, offsetof(expanded_vertex, scale)};
        at[5] = (tr_vertex_attribute){TR_VERTEX_FORMAT_R32G32B32A32_SFLOAT, 0, offsetof(expanded_vertex, shift)};
        return;
    }
    pd->bindings[0].stride = sizeof(draw_vertex);
    pd->bindings[1] = (tr_vertex_binding){8, TR_INPUT_RATE_INSTANCE, 1};
    pd->bindings[2] = (tr_vertex_binding){4, TR_INPUT_RATE_INSTANCE, 3};
    pd->bindings[3] = (tr_vertex_binding){4, TR_INPUT_RATE_INSTANCE, 7};
    pd->bindings[4] = (tr_vertex_binding){16, TR_INPUT_RATE_INSTANCE, TR_VERTEX_DIVISOR_ZERO};
    at[0] = (tr_vertex_attribute){TR_VERTEX_FORMAT_R32G32_SFLOAT, 0, offsetof(draw_vertex, pos)};
    at[1] = (tr_vertex_attribute){TR_VERTEX_FORMAT_R8G8B8A8_UNORM, 0, offsetof(draw_vertex, color)};
    at[2] = (tr_vertex_attribute){TR_VERTEX_FORMAT_R32G32_SFLOAT, 1, 0};
    at[3] = (tr_vertex_attribute){TR_VERTEX_FORMAT_R8G8B8A8_UNORM, 2, 0};
    at[4] = (tr_vertex_attribute){TR_VERTEX_FORMAT_R32_SFLOAT, 3, 0};
    at[5] = (tr_vertex_attribute){TR_VERTEX_FORMAT_R32G32B32A32_SFLOAT, 4, 0};
}

Test(vertex, instanced_draw_equals_the_same_geometry_without_instancing)
{
    /* 21 vertices (7 triangles, padded to 24 slots), 10 instances from
     * first instance 2; per-instance data with divisors 1, 3, 7 and 0. */
    enum { W = 64, H = 64, NV = 21, NI = 10, FI = 2, FV = 3, NB = FI + NI };
    trt_rng rng = {321};
    draw_vertex verts[FV + NV];
    float offsets[NB][2];
    uint8_t tints[NB][4];
    float scales[NB];
    float shift[NB][4];
    for (int k = 0; k < FV + NV; k++) {
        verts[k].pos[0] = trt_rand_coord(&rng, -0.4f, 0.4f);
        verts[k].pos[1] = trt_rand_coord(&rng, -0.4f, 0.4f);
        for (int c = 0; c < 4; c++)
            verts[k].color[c] = (uint8_t)(trt_rand_u32(&rng) & 0x3f);
    }
    for (int k = 0; k < NB; k++) {
        offsets[k][0] = trt_rand_coord(&rng, -0.6f, 0.6f);
        offsets[k][1] = trt_rand_coord(&rng, -0.6f, 0.6f);
        for (int c = 0; c < 4; c++)
            tints[k][c] = (uint8_t)(trt_rand_u32(&rng) & 0xff);
        scales[k] = trt_rand_coord(&rng, 0.5f, 1.5f);
        for (int c = 0; c < 4; c++)
            shift[k][c] = trt_rand_coord(&rng, -0.05f, 0.05f);
    }
    /* The expansion, with Vulkan's element rule written out. */
    expanded_vertex ex[NI * NV];
    for (int i = 0; i < NI; i++)
        for (int v = 0; v < NV; v++) {
            expanded_vertex *e = &ex[i * NV + v];
            memcpy(e->pos, verts[FV + v].pos, sizeof e->pos);
            memcpy(e->color, verts[FV + v].color, sizeof e->color);
            memcpy(e->offset, offsets[FI + i / 1], sizeof e->offset);
            memcpy(e->tint, tints[FI + i / 3], sizeof e->tint);
            e->scale = scales[FI + i / 7];
            memcpy(e->shift, shift[FI], sizeof e->shift);
        }
    uint32_t indices[NV];
    for (int v = 0; v < NV; v++)
        indices[v] = (uint32_t)v + 5; /* with vertex_offset FV - 5 */

    uint8_t img_px[3][W * H * 4];
    for (int variant = 0; variant < 3; variant++) {
        tr_context *ctx = trt_context(2);
        tr_image *img = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, W, H);
        tr_pipeline_desc pd;
        instanced_pipeline_desc(&pd, variant == 2);
        tr_pipeline *pipe = trt_pipeline(ctx, &pd);
        trt_begin_color(ctx, img, NULL);
        TRT_OK(tr_cmd_bind_pipeline(ctx, pipe));
        if (variant < 2) {
            TRT_OK(tr_cmd_bind_vertex_buffer(ctx, 0, verts, sizeof verts, 0));
            TRT_OK(tr_cmd_bind_vertex_buffer(ctx, 1, offsets, sizeof offsets, 0));
            TRT_OK(tr_cmd_bind_vertex_buffer(ctx, 2, tints, sizeof tints, 0));
            TRT_OK(tr_cmd_bind_vertex_buffer(ctx, 3, scales, sizeof scales, 0));
            TRT_OK(tr_cmd_bind_vertex_buffer(ctx, 4, shift, sizeof shift, 0));
        } else {
            TRT_OK(tr_cmd_bind_vertex_buffer(ctx, 0, ex, sizeof ex, 0));
        }
        if (variant == 0)
            TRT_OK(tr_cmd_draw(ctx, NV, NI, FV, FI));
        else if (variant == 1)
        {
            TRT_OK(tr_cmd_bind_index_buffer(ctx, indices, sizeof indices, 0, TR_INDEX_U32));
            TRT_OK(tr_cmd_draw_indexed(ctx, NV, NI, 0, FV - 5, FI));
        }
        else
            TRT_OK(tr_cmd_draw(ctx, NI * NV, 1, 0, 0));
        tr_pass_stats st;
        TRT_OK(tr_cmd_end_render_pass(ctx, &st));
        cr_expect_eq(st.primitives_in, NI * NV / 3);
        cr_expect_eq(st.vertex_linear_ids, variant < 2 ? 24 * NI : NI * NV);
        trt_download(img, 0, 0, TR_ASPECT_DEFAULT, img_px[variant]);
        tr_context_destroy(ctx);
    }
    size_t lit = 0;
    for (size_t k = 0; k < sizeof img_px[0]; k += 4)
        lit += img_px[2][k] | img_px[2][k + 1] | img_px[2][k + 2];
    cr_assert_gt(lit, 0, "nothing drawn");
    cr_assert_eq(memcmp(img_px[0], img_px[2], sizeof img_px[0]), 0, "instanced draw != expanded draw");
    cr_assert_eq(memcmp(img_px[1], img_px[2], sizeof img_px[0]), 0, "instanced indexed draw != expanded draw");
}

Test(vertex, vertex_input_errors)
{
    tr_context *ctx = trt_context(1);
    tr_image *img = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, 8, 8);
    tr_pipeline_desc pd;
    instanced_pipeline_desc(&pd, 0);
    tr_pipeline *bad = NULL;
    /* descriptors */
    tr_pipeline_desc d2 = pd;
    d2.bindings[0].divisor = 2; /* a divisor on a per-vertex binding */
    cr_expect_eq(tr_pipeline_create(ctx, &d2, &bad), TR_ERROR_INVALID_DESCRIPTOR);
    d2 = pd;
    d2.bindings[1].input_rate = (tr_input_rate)5;
    cr_expect_eq(tr_pipeline_create(ctx, &d2, &bad), TR_ERROR_INVALID_ARGUMENT);
    d2 = pd;
    d2.attributes[3].binding = TR_MAX_VERTEX_BINDINGS;
    cr_expect_eq(tr_pipeline_create(ctx, &d2, &bad), TR_ERROR_INVALID_DESCRIPTOR);
    d2 = pd;
    d2.attributes[3].format = TR_VERTEX_FORMAT_COUNT;
    cr_expect_eq(tr_pipeline_create(ctx, &d2, &bad), TR_ERROR_INVALID_ARGUMENT);
    cr_expect_null(bad);

    tr_pipeline *pipe = trt_pipeline(ctx, &pd);
    draw_vertex verts[6] = {{{0}, {0}}};
    float offsets[4][2] = {{0}}, scales[4] = {1, 1, 1, 1}, shift[1][4] = {{0}};
    uint8_t tints[4][4] = {{0}};
    trt_begin_color(ctx, img, NULL);
    TRT_OK(tr_cmd_bind_pipeline(ctx, pipe));
    cr_expect_eq(tr_cmd_bind_vertex_buffer(ctx, TR_MAX_VERTEX_BINDINGS, verts, sizeof verts, 0),
                 TR_ERROR_OUT_OF_RANGE);
    cr_expect_eq(tr_cmd_bind_vertex_buffer(ctx, 0, verts, sizeof verts, sizeof verts + 1), TR_ERROR_OUT_OF_RANGE);
    cr_expect_eq(tr_cmd_bind_vertex_buffer(ctx, 0, NULL, 16, 0), TR_ERROR_INVALID_ARGUMENT);
    TRT_OK(tr_cmd_bind_vertex_buffer(ctx, 0, verts, sizeof verts, 0));
    /* binding 1..4 unbound */
    cr_expect_eq(tr_cmd_draw(ctx, 6, 2, 0, 0), TR_ERROR_INVALID_STATE);
    TRT_OK(tr_cmd_bind_vertex_buffer(ctx, 1, offsets, sizeof offsets, 0));
    TRT_OK(tr_cmd_bind_vertex_buffer(ctx, 2, tints, sizeof tints, 0));
    TRT_OK(tr_cmd_bind_vertex_buffer(ctx, 3, scales, sizeof scales, 0));
    TRT_OK(tr_cmd_bind_vertex_buffer(ctx, 4, shift, sizeof shift, 0));
    TRT_OK(tr_cmd_draw(ctx, 6, 4, 0, 0));                              /* everything in range */
    cr_expect_eq(tr_cmd_draw(ctx, 6, 5, 0, 0), TR_ERROR_OUT_OF_RANGE); /* instance 4 of binding 1 */
    cr_expect_eq(tr_cmd_draw(ctx, 6, 1, 1, 0), TR_ERROR_OUT_OF_RANGE); /* vertex 6 */
    cr_expect_eq(tr_cmd_draw(ctx, 3, 1, 0, 4), TR_ERROR_OUT_OF_RANGE); /* first instance 4 */
    /* an offset moves the window: 6 vertices from byte 12 leave 5 */
    TRT_OK(tr_cmd_bind_vertex_buffer(ctx, 0, verts, sizeof verts, sizeof verts[0]));
    cr_expect_eq(tr_cmd_draw(ctx, 6, 1, 0, 0), TR_ERROR_OUT_OF_RANGE);
    TRT_OK(tr_cmd_draw(ctx, 5, 1, 0, 0));
    /* indexed: index + vertex_offset below 0 or past the buffer */
    const uint16_t idx[3] = {0, 1, 2};
    TRT_OK(tr_cmd_bind_index_buffer(ctx, idx, sizeof idx, 0, TR_INDEX_U16));
    cr_expect_eq(tr_cmd_draw_indexed(ctx, 3, 1, 0, -1, 0), TR_ERROR_OUT_OF_RANGE);
    cr_expect_eq(tr_cmd_draw_indexed(ctx, 3, 1, 0, 3, 0), TR_ERROR_OUT_OF_RANGE);
    TRT_OK(tr_cmd_draw_indexed(ctx, 3, 1, 0, 2, 0));
    /* indices past the bound buffer: 3 from index 1, or 4 */
    cr_expect_eq(tr_cmd_draw_indexed(ctx, 3, 1, 1, 2, 0), TR_ERROR_OUT_OF_RANGE);
    cr_expect_eq(tr_cmd_draw_indexed(ctx, 4, 1, 0, 2, 0), TR_ERROR_OUT_OF_RANGE);
    cr_expect_eq(tr_cmd_draw_indexed(ctx, 1, 1, 0xFFFFFFFFu, 2, 0), TR_ERROR_OUT_OF_RANGE);
    /* an offset (any alignment) moves the window: indices 1, 2 */
    const uint8_t raw[7] = {0xAA, 1, 0, 2, 0, 0, 0};
    TRT_OK(tr_cmd_bind_index_buffer(ctx, raw, sizeof raw, 1, TR_INDEX_U16));
    TRT_OK(tr_cmd_draw_indexed(ctx, 3, 1, 0, 2, 0)); /* indices 1, 2, 0 */
    cr_expect_eq(tr_cmd_draw_indexed(ctx, 4, 1, 0, 2, 0), TR_ERROR_OUT_OF_RANGE);
    /* linear ids past 32 bits */
    cr_expect_eq(tr_cmd_draw(ctx, 1u << 27, 40, 0, 0), TR_ERROR_LIMIT_EXCEEDED);
    tr_pass_stats st;
    TRT_OK(tr_cmd_end_render_pass(ctx, &st));
    cr_expect_eq(st.draws, 4, "failed draws are not recorded");
    tr_context_destroy(ctx);
}
