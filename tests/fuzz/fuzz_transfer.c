/* libFuzzer target: the transfer and query calls, with the caller's memory
 * exactly as large as a call may touch.  The input is read as a little
 * program (as fuzz_api.c's): a context, images (any format, depth, stencil
 * and multisampled ones included, layers, levels, subsampled and FDM-offset
 * flags, unknown bits) and feedback maps with fuzzed descriptors, then up to
 * MAX_OPS operations:
 *   tr_image_upload / _download / _download_raw, tr_feedback_map_decode /
 *   _encode with fuzzed subresources (level, layer, aspect and sample taken
 *   raw, so out of range too) and row pitches from a mix: 0, exact, padded,
 *   below a row, odd, huge (SIZE_MAX, 2^40..2^63), ones whose (rows - 1) *
 *   pitch overflows size_t, and ones just below and above
 *   TR_MAX_TRANSFER_BYTES, for the pitch and for the span;
 *   tr_image_fill, tr_image_read_rgba8, tr_image_generate_mips,
 *   tr_feedback_map_decoded_size, tr_sample_position; the queries that fill
 *   a caller array of a given count (tr_compute_bin_layout,
 *   tr_compute_fdm_areas / _bin_offsets / _tiles, tr_image_get_subsampled_
 *   metadata, tr_compute_subsampled_layout) and tr_pass_stats_to_json with
 *   a fuzzed size; render passes (so subsampled images get real metadata and
 *   images are attachments for a while) and image re-creation.
 *
 * The rules enforced (the transfer contract of image.h / feedback.h):
 *   - a transfer touches only [0, span) of the caller's buffer, span =
 *     (rows - 1) * pitch + row_bytes (pitch 0 = row_bytes); the buffer is a
 *     block of exactly span bytes (its own malloc, so ASan's redzones bound
 *     it on both sides; sometimes one byte off alignment, so UBSan sees a
 *     typed access), or for spans above 16 MiB a mapping whose end abuts a
 *     PROT_NONE page;
 *   - a nonzero pitch below row_bytes must be refused with
 *     TR_ERROR_INVALID_ARGUMENT; a span that overflows or exceeds
 *     TR_MAX_TRANSFER_BYTES, or a pitch above it, with
 *     TR_ERROR_LIMIT_EXCEEDED; the call then gets a 16-byte buffer;
 *     row_pitch 0 is refused only where row_pitch = row_bytes is;
 *   - every call returns a tr_result; one that fails leaves the caller's
 *     memory as it was (a canary pattern is checked), except where the
 *     header says otherwise (tr_compute_fdm_tiles and tr_image_get_
 *     subsampled_metadata with too small a capacity);
 *   - an upload or encode never writes its source; a pitched download
 *     writes the rows a tight one gives and nothing between them; an upload
 *     lands in the image (download_raw reads it back, D16 / D24 depth
 *     excepted: quantised) and an encode decodes back as feedback.h says;
 *     a fill makes every stored texel of the subresource the same bytes;
 *   - no leak: the allocator counts live blocks, the context is destroyed.
 *
 * -DFUZZ_TRANSFER_PRE_LIMIT fuzzes a library from before these rules
 * (TR_MAX_TRANSFER_BYTES): it leaves out the calls that must be refused for
 * an oversized pitch or span, and lets feedback maps refuse row_pitch 0. */
#define _DEFAULT_SOURCE
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <tilerast/tilerast.h>

#define FUZZ_ALLOC_CAP (4u << 20) /* keeps every input fast: an image is at most 4 MiB */
#include "fuzz_common.h"

#ifndef TR_MAX_TRANSFER_BYTES
#define TR_MAX_TRANSFER_BYTES ((size_t)1 << 36) /* image.h's, until it lands there */
#endif

#define LIMIT ((size_t)TR_MAX_TRANSFER_BYTES)
#define HEAP_SPAN_MAX ((size_t)16 << 20) /* larger spans get a mapping */



/* ---- failing loudly -------------------------------------------------------------------------- */

static const char *cur_op = "";

#define FAIL(...)                                                                                                      \
    do {                                                                                                               \
        fprintf(stderr, "fuzz_transfer: %s: ", cur_op);                                                               \
        fprintf(stderr, __VA_ARGS__);                                                                                  \
        fputc('\n', stderr);                                                                                           \
        abort();                                                                                                       \
    } while (0)

/* Every call returns a tr_result. */
static tr_result res(tr_result r)
{
    if ((int)r > 0 || (int)r < (int)TR_ERROR_BAD_FILE)
        FAIL("returned %d, which is no tr_result", (int)r);
#ifdef FUZZ_TRANSFER_TRACE
    fprintf(stderr, "  %s -> %s\n", cur_op, tr_result_string(r));
#endif
    return r;
}

static void must_fail(tr_result r, const char *why)
{
    if (r == TR_OK)
        FAIL("returned TR_OK, but must fail (%s)", why);
}

/* ---- caller memory: exact blocks with a position-dependent pattern ------------------------------ */

/* Byte off of the pattern: 8 bytes of a hash of off / 8, so that whole
 * words can be written and compared. */
static uint64_t pat_word(uint64_t seed, size_t word)
{
    const uint64_t x = (word + seed) * 0x9E3779B97F4A7C15ull;
    return x ^ (x >> 29);
}

static uint8_t pat(uint64_t seed, size_t off)
{
    return (uint8_t)(pat_word(seed, off >> 3) >> (8 * (off & 7)));
}

static void fill(uint8_t *p, size_t off, size_t len, uint64_t seed)
{
    size_t i = off;
    const size_t end = off + len;
    for (; i < end && (i & 7); i++)
        p[i] = pat(seed, i);
    for (; i + 8 <= end; i += 8) {
        const uint64_t w = pat_word(seed, i >> 3);
        memcpy(p + i, &w, 8); /* little-endian: byte k of the word is pat(i + k) */
    }
    for (; i < end; i++)
        p[i] = pat(seed, i);
}

/* The first changed byte's offset, or SIZE_MAX. */
static size_t changed(const uint8_t *p, size_t off, size_t len, uint64_t seed)
{
    size_t i = off;
    const size_t end = off + len;
    for (; i < end && (i & 7); i++)
        if (p[i] != pat(seed, i))
            return i;
    for (; i + 8 <= end; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        if (w != pat_word(seed, i >> 3))
            break;
    }
    for (; i < end; i++)
        if (p[i] != pat(seed, i))
            return i;
    return SIZE_MAX;
}

enum { XB_NULL, XB_SMALL, XB_HEAP, XB_MAP };

/* The buffer a call gets: p, of which [p, p + n) may be touched.  The
 * pattern's offsets count from base (the first byte of the block we own),
 * front bytes of which lie before p. */
typedef struct xbuf {
    int kind;
    uint8_t *p, *base;
    size_t n, front;
    void *map;
    size_t map_len;
    size_t row, pitch, rows; /* XB_MAP: the rows (only they and a little after each are patterned) */
    uint64_t seed;
} xbuf;

static uint64_t seed_counter;

static xbuf xb_none(void)
{
    xbuf b;
    memset(&b, 0, sizeof b);
    return b;
}

/* A block of exactly n bytes (n >= 1), misaligned by one byte or not. */
static xbuf xb_heap(size_t n, bool misalign)
{
    xbuf b = xb_none();
    b.kind = XB_HEAP;
    b.front = misalign ? 1 : 0;
    b.base = malloc(b.front + n);
    if (!b.base)
        abort();
    b.p = b.base + b.front;
    b.n = n;
    b.seed = ++seed_counter * 0x1234567ull;
    fill(b.base, 0, b.front + n, b.seed);
    return b;
}

static xbuf xb_small(void)
{
    xbuf b = xb_heap(16, false);
    b.kind = XB_SMALL;
    b.n = 0; /* nothing may be touched */
    return b;
}

/* A mapping of n bytes whose end abuts a PROT_NONE page (and one before
 * it), reserved but not committed: only the rows are patterned (and so
 * committed).  kind XB_NULL when the system refuses the mapping. */
static xbuf xb_map(size_t n, size_t row, size_t pitch, size_t rows)
{
    xbuf b = xb_none();
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    const size_t len = (n + page - 1) / page * page;
    void *m = mmap(NULL, len + 2 * page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED)
        return b;
    if (mprotect((uint8_t *)m + page, len, PROT_READ | PROT_WRITE) != 0) {
        munmap(m, len + 2 * page);
        return b;
    }
    b.kind = XB_MAP;
    b.map = m;
    b.map_len = len + 2 * page;
    b.base = (uint8_t *)m + page;
    b.front = len - n;
    b.p = b.base + b.front;
    b.n = n;
    b.row = row;
    b.pitch = pitch;
    b.rows = rows;
    b.seed = ++seed_counter * 0x1234567ull;
    fill(b.base, 0, b.front, b.seed);
    for (size_t y = 0; y < rows; y++) {
        const size_t s = y * pitch, e = s + row + 64 < n ? s + row + 64 : n;
        fill(b.base, b.front + s, e - s, b.seed);
    }
    return b;
}

static void xb_free(xbuf *b)
{
    if (b->kind == XB_MAP)
        munmap(b->map, b->map_len);
    else if (b->kind != XB_NULL)
        free(b->base);
    b->kind = XB_NULL;
}

/* Every patterned byte as it was. */
static void xb_check(const xbuf *b, const char *what)
{
    size_t at = SIZE_MAX;
    switch (b->kind) {
    case XB_SMALL: at = changed(b->base, 0, 16, b->seed); break;
    case XB_HEAP: at = changed(b->base, 0, b->front + b->n, b->seed); break;
    case XB_MAP:
        at = changed(b->base, 0, b->front, b->seed);
        for (size_t y = 0; y < b->rows && at == SIZE_MAX; y++) {
            const size_t s = y * b->pitch, e = s + b->row + 64 < b->n ? s + b->row + 64 : b->n;
            at = changed(b->base, b->front + s, e - s, b->seed);
        }
        break;
    }
    if (at != SIZE_MAX)
        FAIL("%s: the caller's buffer changed at byte %zd of %zu", what, (ptrdiff_t)(at - b->front), b->n);
}

/* After a download: the bytes before the buffer and between the rows as
 * they were (span = (rows - 1) * pitch + row, so the rows end it). */
static void xb_check_gaps(const xbuf *b)
{
    size_t at = changed(b->base, 0, b->front, b->seed);
    for (size_t y = 0; y + 1 < b->rows && at == SIZE_MAX; y++) {
        size_t s = y * b->pitch + b->row, e = (y + 1) * b->pitch;
        if (b->kind == XB_MAP && e > s + 64)
            e = s + 64;
        at = changed(b->base, b->front + s, e - s, b->seed);
    }
    if (at != SIZE_MAX)
        FAIL("a download wrote byte %zd of %zu, outside the rows (row %zu bytes, pitch %zu)",
             (ptrdiff_t)(at - b->front), b->n, b->row, b->pitch);
}

/* A typed output of exactly n bytes (aligned: a typed pointer must be), or NULL. */
static void *out_block(reader *r, size_t n, xbuf *b)
{
    if (u8(r) == 255) {
        *b = xb_none();
        return NULL;
    }
    *b = xb_heap(n ? n : 1, false);
    if (!n)
        b->n = 0;
    return b->p;
}

/* ---- the program's state ----------------------------------------------------------------------- */

enum { NIMG = 4, NMAP = 2, MAX_OPS = 48 };

typedef struct state {
    tr_context *ctx;
    tr_image *img[NIMG];
    tr_feedback_map *map[NMAP];
    tr_feedback_mode mode[NMAP];
    bool in_pass;
    bool have_stats;
    tr_pass_stats stats;
} state;

static tr_image *pick_img(reader *r, state *s)
{
    const uint8_t k = u8(r);
    return k == 255 ? NULL : s->img[k % NIMG];
}

static uint32_t extent_val(reader *r)
{
    const uint8_t k = u8(r);
    return k < 200 ? 1u + k % 40u : k < 245 ? 1u + u32(r) % TR_MAX_IMAGE_SIZE : u32(r);
}

static void make_image(reader *r, state *s, int i)
{
    tr_image_desc d = {0};
    d.format = (tr_format)size_val(r, TR_FORMAT_COUNT + 1);
    d.width = extent_val(r);
    d.height = extent_val(r);
    if (d.width > 256 && d.height > 256) /* large ones are strips: a wide row or many rows */
        d.height = 1 + d.height % 64;
    d.layers = size_val(r, 4);
    d.levels = u8(r) < 235 ? size_val(r, 6) : TR_LEVELS_ALL;
    d.flags = u8(r) > 150 ? u8(r) % 8u : 0u; /* TR_IMAGE_FDM_OFFSET, TR_IMAGE_SUBSAMPLED, an unknown bit */
    d.samples = u8(r) > 200 ? size_val(r, 10) : 0;
    s->img[i] = NULL;
    cur_op = "tr_image_create";
    res(tr_image_create(s->ctx, &d, &s->img[i]));
}

static void make_map(reader *r, state *s, int i)
{
    tr_feedback_map_desc d = {0};
    d.kind = (tr_feedback_kind)size_val(r, 3);
    d.width = u8(r) < 230 ? 1 + size_val(r, 128) : extent_val(r);
    d.height = u8(r) < 230 ? 1 + size_val(r, 128) : extent_val(r);
    d.levels = u8(r) < 240 ? size_val(r, 8) : TR_LEVELS_ALL;
    d.layers = size_val(r, 4);
    d.region_width = u8(r) < 200 ? 4u << (u8(r) % 4) : size_val(r, 70);
    d.region_height = u8(r) < 200 ? 4u << (u8(r) % 4) : size_val(r, 70);
    s->map[i] = NULL;
    s->mode[i] = TR_FEEDBACK_EXACT;
    cur_op = "tr_feedback_map_create";
    res(tr_feedback_map_create(s->ctx, &d, &s->map[i]));
}

/* A subresource with raw fields, or NULL (level 0, layer 0, default aspect, sample 0). */
static const tr_subresource *pick_sub(reader *r, tr_subresource *sub)
{
    if (u8(r) < 40)
        return NULL;
    sub->level = size_val(r, 5);
    sub->layer = size_val(r, 5);
    sub->aspect = (tr_aspect)size_val(r, 5);
    sub->sample = u8(r) < 200 ? 0 : size_val(r, 10);
    return sub;
}

/* What a subresource of an image is, as image.h defines it. */
typedef struct geom {
    bool valid;          /* level, layer, aspect (and sample, when it counts) exist */
    tr_aspect aspect;    /* DEFAULT resolved */
    uint32_t texel;      /* bytes per texel of the aspect */
    uint32_t w, h;       /* the level's extent */
    uint32_t sw, sh;     /* its stored extent (download_raw) */
} geom;

static geom image_geom(const tr_image *img, const tr_subresource *subp, bool sample_counts)
{
    geom g = {0};
    if (!img)
        return g;
    const tr_subresource sub = subp ? *subp : (tr_subresource){0};
    const tr_image_desc d = tr_image_get_desc(img);
    g.aspect = sub.aspect;
    if (g.aspect == TR_ASPECT_DEFAULT)
        g.aspect = tr_format_is_depth(d.format) ? TR_ASPECT_DEPTH : TR_ASPECT_COLOR;
    g.texel = (unsigned)sub.aspect <= TR_ASPECT_STENCIL ? tr_format_texel_size(d.format, g.aspect) : 0;
    g.valid = sub.level < d.levels && sub.layer < d.layers && (!sample_counts || sub.sample < d.samples) &&
              g.texel != 0;
    if (!g.valid)
        return g;
    g.w = tr_image_level_width(img, sub.level);
    g.h = tr_image_level_height(img, sub.level);
    if (sub.level == 0) {
        const tr_extent2d e = tr_image_stored_extent(img);
        g.sw = e.width;
        g.sh = e.height;
    } else {
        g.sw = g.w;
        g.sh = g.h;
    }
    if (g.w == 0 || g.h == 0 || g.sw < g.w || g.sh < g.h)
        FAIL("level extent %ux%u, stored %ux%u", g.w, g.h, g.sw, g.sh);
    return g;
}

/* ---- row pitches ------------------------------------------------------------------------------- */

static size_t pick_pitch(reader *r, size_t row, size_t rows)
{
    switch (u8(r) % 16) {
    case 0:
    case 1: return 0;
    case 2:
    case 3: return row;
    case 4: return row + 1 + u8(r) % 64;               /* padded, often odd */
    case 5: return row - 1 - u8(r) % row;              /* below a row (0 at the bottom: tight) */
    case 6: return (row | 1) + 2 * (u8(r) % 8);        /* odd */
    case 7: return SIZE_MAX - u8(r) % 4;
    case 8: return (size_t)1 << (40 + u8(r) % 24);     /* 2^40 .. 2^63 */
    case 9:                                           /* (rows - 1) * pitch overflows */
        return rows > 1 ? SIZE_MAX / (rows - 1) + 1 + u8(r) % 4 : SIZE_MAX / 2 + u8(r) % 4;
    case 10: return LIMIT - 2 + u8(r) % 5;             /* the pitch about the limit */
    case 11: {                                        /* the span about the limit */
        const size_t d = u8(r) % 5;
        if (rows < 2)
            return LIMIT - row + d; /* only the pitch matters: at or above the limit only when > LIMIT */
        return (LIMIT - row) / (rows - 1) + d - 2;
    }
    case 12: {                                        /* row rounded up to a power of two */
        const size_t a = (size_t)1 << (u8(r) % 13);
        return (row + a - 1) / a * a;
    }
    case 13: return u32(r);
    case 14: return (size_t)u64(r);
    default: return row * (2 + u8(r) % 3);
    }
}

/* What a transfer of rows x row bytes with this pitch may touch. */
typedef struct span_info {
    size_t eff;          /* the pitch, 0 resolved */
    size_t span;         /* bytes [0, span) */
    bool below;          /* a nonzero pitch below a row */
    bool oversized;      /* the span overflows or exceeds the limit, or the pitch does */
} span_info;

static span_info span_of(size_t row, size_t rows, size_t pitch)
{
    span_info s = {pitch ? pitch : row, 0, pitch && pitch < row, false};
    size_t t;
    if (__builtin_mul_overflow(rows - 1, s.eff, &t) || __builtin_add_overflow(t, row, &s.span))
        s.oversized = true;
    else if (s.span > LIMIT)
        s.oversized = true;
    if (s.eff > LIMIT)
        s.oversized = true;
    return s;
}

/* ---- transfers --------------------------------------------------------------------------------- */

enum { T_UPLOAD, T_DOWNLOAD, T_RAW, T_DECODE, T_ENCODE };
static const char *const t_name[] = {"tr_image_upload", "tr_image_download", "tr_image_download_raw",
                                     "tr_feedback_map_decode", "tr_feedback_map_encode"};

static tr_result call_transfer(int kind, state *s, tr_image *img, const tr_subresource *sub, int mi, uint32_t layer,
                               uint32_t level, void *p, size_t pitch)
{
    tr_feedback_map *m = mi >= 0 ? s->map[mi] : NULL;
    switch (kind) {
    case T_UPLOAD: return res(tr_image_upload(img, sub, p, pitch));
    case T_DOWNLOAD: return res(tr_image_download(img, sub, p, pitch));
    case T_RAW: return res(tr_image_download_raw(img, sub, p, pitch));
    case T_DECODE: return res(tr_feedback_map_decode(m, layer, level, p, pitch));
    default: return res(tr_feedback_map_encode(m, layer, level, p, pitch));
    }
}

static void op_transfer(reader *r, state *s, int kind)
{
    cur_op = t_name[kind];
    const bool fb = kind == T_DECODE || kind == T_ENCODE;
    tr_image *img = NULL;
    tr_subresource subv = {0};
    const tr_subresource *sub = NULL;
    int mi = -1;
    uint32_t layer = 0, level = 0;
    bool valid;
    size_t row = 1, rows = 1;
    geom g = {0};
    if (fb) {
        const uint8_t k = u8(r);
        mi = k == 255 ? -1 : k % NMAP;
        layer = size_val(r, 4);
        level = size_val(r, 5);
        const tr_feedback_map *m = mi >= 0 ? s->map[mi] : NULL;
        uint32_t w = 0, h = 0;
        valid = m && res(tr_feedback_map_decoded_size(m, level, &w, &h)) == TR_OK &&
                layer < tr_feedback_map_get_desc(m).layers;
        if (valid) {
            row = w;
            rows = h;
        }
    } else {
        img = pick_img(r, s);
        sub = pick_sub(r, &subv);
        g = image_geom(img, sub, true);
        valid = g.valid;
        if (valid) {
            row = (size_t)(kind == T_RAW ? g.sw : g.w) * g.texel;
            rows = kind == T_RAW ? g.sh : g.h;
        }
    }
    const size_t pitch = pick_pitch(r, row, rows);
    const bool misalign = u8(r) & 1;
    const bool null_data = u8(r) == 255;
    const span_info si = span_of(row, rows, pitch);
    const bool refuse = !valid || si.below || si.oversized || null_data;
#ifdef FUZZ_TRANSFER_PRE_LIMIT
    if (si.oversized)
        return;
#endif
    xbuf b;
    if (null_data)
        b = xb_none();
    else if (refuse)
        b = xb_small();
    else if (si.span <= HEAP_SPAN_MAX)
        b = xb_heap(si.span, misalign);
    else if ((b = xb_map(si.span, row, si.eff, rows)).kind == XB_NULL)
        return; /* no address space for it here: nothing to learn */
    if (b.kind == XB_HEAP) {
        b.row = row;
        b.pitch = si.eff;
        b.rows = rows;
    }
#ifdef FUZZ_TRANSFER_TRACE
    fprintf(stderr, "  %s: row %zu x %zu, pitch %zu, span %zu%s, buffer %s\n", t_name[kind], row, rows, pitch,
            si.span, si.oversized ? " (oversized)" : "",
            (const char *[]){"NULL", "small", "heap", "mapped"}[b.kind]);
#endif
    const tr_result rc = call_transfer(kind, s, img, sub, mi, layer, level, b.p, pitch);
    if (refuse) {
        must_fail(rc, null_data ? "NULL buffer" : !valid ? "no such subresource" : si.below ? "pitch below a row"
                                                                                         : "oversized pitch or span");
        /* image.h, "Caller buffers": below a row INVALID_ARGUMENT, too
         * large LIMIT_EXCEEDED (a pass using the image may refuse first) */
        const tr_result want = si.below ? TR_ERROR_INVALID_ARGUMENT : TR_ERROR_LIMIT_EXCEEDED;
        if (valid && !null_data && !s->in_pass && rc != want)
            FAIL("refused a pitch of %zu (row %zu bytes, %zu rows) with %s, not %s", pitch, row, rows,
                 tr_result_string(rc), tr_result_string(want));
    }
    if (rc != TR_OK) {
        xb_check(&b, "after a failed call");
        xb_free(&b);
#ifdef FUZZ_TRANSFER_PRE_LIMIT
        if (fb)
            return; /* feedback maps refused row_pitch 0 before */
#endif
        if (pitch == 0 && valid && !null_data) { /* 0 means row bytes: the same answer as an exact pitch */
            xbuf t = xb_heap(si.span, false);
            if (call_transfer(kind, s, img, sub, mi, layer, level, t.p, row) == TR_OK)
                FAIL("refused row_pitch 0 (%s), but accepts row_pitch = row bytes (%zu)", tr_result_string(rc), row);
            xb_free(&t);
        }
        return;
    }
    if (kind == T_UPLOAD || kind == T_ENCODE)
        xb_check(&b, "the source, after the call");
    else
        xb_check_gaps(&b);
    if (kind == T_UPLOAD && g.aspect == TR_ASPECT_DEPTH &&
        (tr_image_get_desc(img).format == TR_FORMAT_D16_UNORM ||
         tr_image_get_desc(img).format == TR_FORMAT_D24_UNORM_S8_UINT)) { /* quantised: not read back */
        xb_free(&b);
        return;
    }
    /* A successful call: compare with a tight transfer of the same
     * subresource (an upload's with download_raw, an encode's with decode). */
    const int ref_kind = kind == T_UPLOAD ? T_RAW : kind == T_ENCODE ? T_DECODE : kind;
    const size_t ref_row = kind == T_UPLOAD ? (size_t)g.sw * g.texel : row;
    const size_t ref_rows = kind == T_UPLOAD ? g.sh : rows;
    uint8_t *ref = malloc(ref_row * ref_rows);
    if (!ref)
        abort();
    if (call_transfer(ref_kind, s, img, sub, mi, layer, level, ref, ref_row) != TR_OK)
        FAIL("a tight %s failed after this call succeeded: %s", t_name[ref_kind], tr_context_last_error(s->ctx));
    if (kind == T_ENCODE) {
        /* feedback.h: MinMip keeps 0 .. levels - 1 (0 .. 14 conservative),
         * else "nothing requested"; MipRegionUsed: 0 or used */
        const tr_feedback_map_desc d = tr_feedback_map_get_desc(s->map[mi]);
        const uint32_t keep = s->mode[mi] == TR_FEEDBACK_CONSERVATIVE ? TR_MAX_IMAGE_LEVELS : d.levels;
        for (size_t y = 0; y < rows; y++)
            for (size_t x = 0; x < row; x++) {
                const uint8_t v = b.p[y * si.eff + x];
                const uint8_t want = d.kind == TR_FEEDBACK_MIN_MIP ? (v < keep ? v : TR_FEEDBACK_NONE)
                                                                   : (v ? TR_FEEDBACK_USED : 0);
                if (ref[y * row + x] != want)
                    FAIL("encoded %u at (%zu, %zu) with pitch %zu decodes as %u, not %u", v, x, y, pitch,
                         ref[y * row + x], want);
            }
    } else {
        for (size_t y = 0; y < rows; y++)
            if (memcmp(b.p + y * si.eff, ref + y * ref_row, row) != 0)
                FAIL("row %zu with pitch %zu differs from %s's", y, pitch,
                     kind == T_UPLOAD ? "a tight download_raw" : "a tight transfer");
    }
    free(ref);
    xb_free(&b);
}

/* ---- the other calls --------------------------------------------------------------------------- */

static void op_fill(reader *r, state *s)
{
    cur_op = "tr_image_fill";
    tr_image *img = pick_img(r, s);
    tr_subresource subv = {0};
    const tr_subresource *sub = pick_sub(r, &subv);
    xbuf vb;
    float *value = out_block(r, 16, &vb);
    if (value) {
        for (int i = 0; i < 4; i++) {
            const float f = u8(r) < 128 ? (float)u8(r) / 64.0f : f32(r);
            memcpy(vb.p + 4 * i, &f, 4);
        }
    }
    uint8_t vcopy[16] = {0};
    if (value)
        memcpy(vcopy, value, 16);
    const geom g = image_geom(img, sub, false);
    const tr_result rc = res(tr_image_fill(img, sub, value));
    if (!g.valid || !value)
        must_fail(rc, !value ? "value NULL" : "no such subresource");
    if (value && memcmp(vcopy, value, 16) != 0)
        FAIL("wrote the value it was given");
    xb_free(&vb);
    if (rc != TR_OK)
        return;
    /* every stored texel of the subresource (sample 0 and the last) the same bytes */
    const tr_image_desc d = tr_image_get_desc(img);
    tr_subresource q = sub ? *sub : (tr_subresource){0};
    const size_t row = (size_t)g.sw * g.texel, n = row * g.sh;
    uint8_t *buf = malloc(n);
    if (!buf)
        abort();
    for (int k = 0; k < 2; k++) {
        q.sample = k ? d.samples - 1 : 0;
        if (res(tr_image_download_raw(img, &q, buf, row)) != TR_OK)
            FAIL("download_raw of a filled subresource failed: %s", tr_context_last_error(s->ctx));
        for (size_t i = g.texel; i < n; i += g.texel)
            if (memcmp(buf, buf + i, g.texel) != 0)
                FAIL("texel %zu of sample %u differs from texel 0 after a fill", i / g.texel, q.sample);
    }
    free(buf);
}

static void op_read_rgba8(reader *r, state *s)
{
    cur_op = "tr_image_read_rgba8";
    tr_image *img = pick_img(r, s);
    tr_subresource subv = {0};
    const tr_subresource *sub = pick_sub(r, &subv);
    const geom g = image_geom(img, sub, false);
    const bool null_out = u8(r) == 255, misalign = u8(r) & 1;
    xbuf b = null_out ? xb_none() : g.valid ? xb_heap((size_t)g.w * g.h * 4, misalign) : xb_small();
    const tr_result rc = res(tr_image_read_rgba8(img, sub, b.p));
    if (!g.valid || null_out)
        must_fail(rc, null_out ? "out NULL" : "no such subresource");
    if (rc != TR_OK)
        xb_check(&b, "after a failed call");
    else if (changed(b.base, 0, b.front, b.seed) != SIZE_MAX)
        FAIL("wrote before out");
    xb_free(&b);
}

static void op_feedback_misc(reader *r, state *s)
{
    const uint8_t k = u8(r);
    tr_feedback_map *m = s->map[k % NMAP];
    switch (u8(r) % 4) {
    case 0: {
        cur_op = "tr_feedback_map_decoded_size";
        const uint32_t level = size_val(r, 6);
        xbuf wb, hb;
        uint32_t *w = out_block(r, 4, &wb), *h = out_block(r, 4, &hb);
        const tr_result rc = res(tr_feedback_map_decoded_size(k == 255 ? NULL : m, level, w, h));
        if (k == 255 || !m)
            must_fail(rc, "map NULL");
        if (rc != TR_OK) {
            xb_check(&wb, "width after a failed call");
            xb_check(&hb, "height after a failed call");
        } else if (w && h) {
            const tr_feedback_map_desc d = tr_feedback_map_get_desc(m);
            if (*w == 0 || *h == 0 || *w > d.width || *h > d.height)
                FAIL("decoded size %ux%u of a %ux%u map", *w, *h, d.width, d.height);
        }
        xb_free(&wb);
        xb_free(&hb);
        break;
    }
    case 1: {
        cur_op = "tr_feedback_map_set_mode";
        const tr_feedback_mode mode = (tr_feedback_mode)size_val(r, 3);
        if (res(tr_feedback_map_set_mode(m, mode)) == TR_OK)
            s->mode[k % NMAP] = mode;
        break;
    }
    case 2:
        cur_op = "tr_feedback_map_clear";
        res(tr_feedback_map_clear(m));
        break;
    default:
        cur_op = "tr_feedback_map_create";
        tr_feedback_map_destroy(s->map[k % NMAP]);
        make_map(r, s, k % NMAP);
        break;
    }
}

/* Mostly an image that can play the part (a colour, depth or R8G8 image),
 * sometimes any slot. */
enum { ROLE_COLOR, ROLE_DEPTH, ROLE_DENSITY };

static tr_image *pick_role(reader *r, state *s, int role)
{
    const uint8_t k = u8(r);
    if (k >= 192)
        return k == 255 ? NULL : s->img[k % NIMG];
    for (int j = 0; j < NIMG; j++) {
        tr_image *im = s->img[(k + j) % NIMG];
        if (!im)
            continue;
        const tr_format f = tr_image_get_desc(im).format;
        if (role == ROLE_COLOR ? !tr_format_is_depth(f) && f != TR_FORMAT_UNDEFINED
                               : role == ROLE_DEPTH ? tr_format_is_depth(f) : f == TR_FORMAT_R8G8_UNORM)
            return im;
    }
    return s->img[k % NIMG];
}

static void build_pass(reader *r, state *s, tr_render_pass_desc *rp)
{
    static const uint32_t flag_mix[8] = {0, 0, 0, TR_PASS_NO_LRZ, TR_PASS_FDM_SHARED_VIEWPORT,
                                         TR_PASS_ORIGIN_LOWER_LEFT, TR_PASS_SINGLE_BIN, 0};
    memset(rp, 0, sizeof *rp);
    rp->color_count = size_val(r, 3);
    for (uint32_t c = 0; c < rp->color_count && c < TR_MAX_COLOR_ATTACHMENTS; c++) {
        rp->color[c].image = pick_role(r, s, ROLE_COLOR);
        const uint8_t k = u8(r);
        rp->color[c].level = k < 200 ? 0 : k % 3;
        rp->color[c].base_layer = k < 200 ? 0 : (k >> 2) % 3;
        rp->color[c].load_op = (tr_load_op)size_val(r, 4);
        rp->color[c].store_op = (tr_store_op)size_val(r, 3);
        rp->color[c].clear_color[0] = (float)u8(r) / 255.0f;
        rp->color[c].clear_color[1] = (float)u8(r) / 255.0f;
    }
    if (u8(r) & 1) {
        rp->depth.image = pick_role(r, s, ROLE_DEPTH);
        rp->depth.depth_load_op = (tr_load_op)size_val(r, 4);
        rp->depth.stencil_load_op = (tr_load_op)size_val(r, 4);
        rp->depth.clear_depth = (float)u8(r) / 255.0f;
    }
    rp->view_mask = u8(r) < 180 ? 0 : size_val(r, 8);
    const uint8_t f = u8(r);
    rp->flags = f < 240 ? flag_mix[f % 8] | flag_mix[(f / 8) % 8] * ((f / 64) & 1) : size_val(r, 32);
    if (u8(r) > 200)
        rp->render_area = (tr_rect){(int32_t)size_val(r, 48), (int32_t)size_val(r, 48), size_val(r, 48),
                                    size_val(r, 48)};
    if (u8(r) % 4) {
        rp->density_map.image = pick_role(r, s, ROLE_DENSITY);
        rp->density_map.base_layer = size_val(r, 3);
        if (u8(r) > 160) {
            rp->density_map.offset_count = size_val(r, 4);
            for (uint32_t v = 0; v < TR_MAX_VIEWS; v++) {
                const int32_t x = (int32_t)u32(r), y = (int32_t)u32(r);
                rp->density_map.offsets[v] = u8(r) < 200 ? (tr_offset2d){(x % 64) * 8, (y % 64) * 8}
                                                         : (tr_offset2d){x, y};
            }
        }
    }
}

/* How many elements a caller array gets: around `need`, or anything. */
static size_t pick_count(reader *r, size_t need)
{
    switch (u8(r) % 8) {
    case 0: return 0;
    case 1: return need ? need - 1 : 0;
    case 2: return need + 1;
    case 3: return u8(r);
    case 4: return SIZE_MAX - u8(r) % 2;
    case 5: return (size_t)1 << (32 + u8(r) % 31);
    default: return need;
    }
}

/* A typed array for `count` elements: exactly count, or (for a count the
 * call cannot use, above 65536) the `need` elements it may write.  NULL for
 * XB_NULL: skip the call. */
static void *array_block(size_t count, size_t need, size_t elem, xbuf *b, size_t *elems)
{
    size_t n = count <= 65536 ? count : need;
    if (n > 65536) {
        *b = xb_none();
        return NULL;
    }
    *elems = n;
    *b = xb_heap(n ? n * elem : 1, false);
    if (!n)
        b->n = 0;
    return b->p;
}

static void op_query(reader *r, state *s)
{
    tr_render_pass_desc rp;
    build_pass(r, s, &rp);
    const bool null_desc = u8(r) == 255;
    tr_bin_layout l;
    cur_op = "tr_compute_bin_layout";
    const bool have_layout = res(tr_compute_bin_layout(s->ctx, &rp, &l)) == TR_OK;
    const bool fdm = have_layout && rp.density_map.image;
    const size_t views = have_layout ? l.views : 0, need = have_layout ? (size_t)l.bins_x * l.bins_y * l.views : 0;
    if (have_layout && (l.views == 0 || l.views > TR_MAX_VIEWS || l.bins_x == 0 || l.bins_y == 0))
        FAIL("layout of %ux%u bins, %u views", l.bins_x, l.bins_y, l.views);
    xbuf b = xb_none(), cb = xb_none();
    tr_result rc;
    switch (u8(r) % 4) {
    case 0: {
        cur_op = "tr_compute_bin_layout";
        void *out = out_block(r, sizeof(tr_bin_layout), &b);
        rc = res(tr_compute_bin_layout(s->ctx, null_desc ? NULL : &rp, out));
        if (!out || null_desc)
            must_fail(rc, "NULL desc or out");
        if (rc != TR_OK)
            xb_check(&b, "after a failed call");
        else if (memcmp(out, &l, sizeof l) != 0)
            FAIL("a second call gave another layout");
        break;
    }
    case 1: {
        cur_op = "tr_compute_fdm_areas";
        const size_t count = pick_count(r, need);
        size_t elems = 0;
        tr_extent2d *a = NULL;
        if (u8(r) != 255 && !(a = array_block(count, need, sizeof *a, &b, &elems)))
            break; /* too large to allocate */
        rc = res(tr_compute_fdm_areas(s->ctx, null_desc ? NULL : &rp, a, count));
        if (!fdm || null_desc || !a || count < need)
            must_fail(rc, !have_layout ? "tr_compute_bin_layout refused the pass" : "no map, NULL, or count too small");
        if (rc != TR_OK) {
            xb_check(&b, "after a failed call");
            break;
        }
        for (size_t i = 0; i < need; i++) {
            const uint32_t w = a[i].width, h = a[i].height;
            if ((w == 0) != (h == 0) || w > 4 || h > 4 || (w & (w - 1)) || (h & (h - 1)))
                FAIL("area %zu is %ux%u", i, w, h);
        }
        if (changed(b.base, need * sizeof *a, elems * sizeof *a - need * sizeof *a, b.seed) != SIZE_MAX)
            FAIL("wrote past the %zu areas the pass has", need);
        break;
    }
    case 2: {
        cur_op = "tr_compute_fdm_bin_offsets";
        const size_t count = pick_count(r, views);
        size_t elems = 0;
        tr_offset2d *o = NULL;
        if (u8(r) != 255 && !(o = array_block(count, views, sizeof *o, &b, &elems)))
            break; /* too large to allocate */
        rc = res(tr_compute_fdm_bin_offsets(s->ctx, null_desc ? NULL : &rp, o, count));
        if (!fdm || null_desc || !o || count < views)
            must_fail(rc, "no map, NULL, or count below the views");
        if (rc != TR_OK) {
            xb_check(&b, "after a failed call");
            break;
        }
        for (size_t v = 0; v < views; v++)
            if (o[v].x < 0 || o[v].y < 0 || (uint32_t)o[v].x >= l.bin_w || (uint32_t)o[v].y >= l.bin_h)
                FAIL("bin offset %zu is (%d, %d) with %ux%u bins", v, o[v].x, o[v].y, l.bin_w, l.bin_h);
        if (changed(b.base, views * sizeof *o, elems * sizeof *o - views * sizeof *o, b.seed) != SIZE_MAX)
            FAIL("wrote past the %zu views' offsets", views);
        break;
    }
    default: {
        cur_op = "tr_compute_fdm_tiles";
        size_t n0 = 0;
        const bool have_n0 = res(tr_compute_fdm_tiles(s->ctx, &rp, NULL, 0, &n0)) == TR_OK;
        if (have_n0 && (!fdm || n0 > (size_t)l.bins_x * l.bins_y))
            FAIL("%zu tiles for %ux%u bins", n0, have_layout ? l.bins_x : 0, have_layout ? l.bins_y : 0);
        const bool null_tiles = u8(r) < 64;
        const size_t cap = pick_count(r, n0);
        size_t elems = 0;
        tr_fdm_tile *t = NULL;
        if (!null_tiles) {
            t = array_block(cap, have_n0 ? n0 : SIZE_MAX, sizeof *t, &b, &elems);
            if (!t)
                break;
        }
        size_t *count = out_block(r, sizeof(size_t), &cb);
        rc = res(tr_compute_fdm_tiles(s->ctx, null_desc ? NULL : &rp, t, cap, count));
        if (!fdm || null_desc || !count || (t && have_n0 && cap < n0))
            must_fail(rc, "no map, count NULL, or capacity too small");
        if (rc != TR_OK) {
            /* with too small a capacity, count and tiles[0, capacity) are
             * written (fdm.h) */
            if (rc != TR_ERROR_OUT_OF_RANGE || !t) {
                xb_check(&b, "tiles after a failed call");
                xb_check(&cb, "count after a failed call");
            }
            break;
        }
        if (have_n0 && *count != n0)
            FAIL("%zu tiles, %zu when asked without an array", *count, n0);
        if (t) {
            for (size_t i = 0; i < *count; i++)
                if (t[i].bins_w == 0 || t[i].bins_h == 0 || t[i].bin_x >= l.bins_x || t[i].bin_y >= l.bins_y)
                    FAIL("tile %zu: bin (%u, %u), %ux%u bins", i, t[i].bin_x, t[i].bin_y, t[i].bins_w, t[i].bins_h);
            if (changed(b.base, *count * sizeof *t, elems * sizeof *t - *count * sizeof *t, b.seed) != SIZE_MAX)
                FAIL("wrote past the %zu tiles", *count);
        }
        break;
    }
    }
    xb_free(&b);
    xb_free(&cb);
}

static void op_subsampled_metadata(reader *r, state *s)
{
    cur_op = "tr_image_get_subsampled_metadata";
    tr_image *img = pick_img(r, s);
    const uint32_t layer = size_val(r, 8);
    size_t n0 = 0;
    tr_subsampled_header h0;
    const bool have_n0 = res(tr_image_get_subsampled_metadata(img, layer, &h0, NULL, 0, &n0)) == TR_OK;
    const tr_image_desc d = tr_image_get_desc(img);
    const bool ok_args = img && (d.flags & TR_IMAGE_SUBSAMPLED) && layer < d.layers;
    if (have_n0 != ok_args)
        FAIL("%s a query of layer %u of %s image", have_n0 ? "accepted" : "refused", layer,
             (d.flags & TR_IMAGE_SUBSAMPLED) ? "a subsampled" : "a non-subsampled");
    if (have_n0 && (n0 == 0 || n0 > 65536))
        FAIL("%zu bins", n0);
    xbuf hb, cb, bb = xb_none();
    tr_subsampled_header *h = out_block(r, sizeof *h, &hb);
    size_t *count = out_block(r, sizeof *count, &cb);
    const bool null_bins = u8(r) < 64;
    const size_t cap = pick_count(r, n0);
    size_t elems = 0;
    tr_subsampled_bin *bins = NULL;
    if (!null_bins && !(bins = array_block(cap, have_n0 ? n0 : SIZE_MAX, sizeof *bins, &bb, &elems))) {
        xb_free(&hb);
        xb_free(&cb);
        return;
    }
    const tr_result rc = res(tr_image_get_subsampled_metadata(img, layer, h, bins, cap, count));
    if (!ok_args || !h || !count || (bins && cap < n0))
        must_fail(rc, "not subsampled, no such layer, NULL, or capacity too small");
    if (rc != TR_OK) {
        xb_check(&bb, "bins after a failed call");
        if (rc != TR_ERROR_OUT_OF_RANGE || !bins) { /* with too small a capacity: header and count written */
            xb_check(&hb, "header after a failed call");
            xb_check(&cb, "count after a failed call");
        }
    } else {
        if (*count != n0)
            FAIL("%zu bins, %zu when asked without an array", *count, n0);
        if (bins && changed(bb.base, n0 * sizeof *bins, elems * sizeof *bins - n0 * sizeof *bins, bb.seed) != SIZE_MAX)
            FAIL("wrote past the %zu bins", n0);
    }
    xb_free(&hb);
    xb_free(&cb);
    xb_free(&bb);
}

static void op_subsampled_layout(reader *r, state *s)
{
    (void)s;
    cur_op = "tr_compute_subsampled_layout";
    tr_subsampled_layout_desc d = {0};
    d.framebuffer = (tr_extent2d){size_val(r, 300), size_val(r, 300)};
    d.bin = (tr_extent2d){u8(r) < 230 ? 8u << (u8(r) % 5) : size_val(r, 200),
                          u8(r) < 230 ? 8u << (u8(r) % 5) : size_val(r, 200)};
    d.tile_align = (tr_extent2d){8u * (1 + u8(r) % 12), 8u * (1 + u8(r) % 4)};
    const uint32_t gx = d.bin.width ? (d.framebuffer.width + d.bin.width - 1) / d.bin.width : 1;
    const uint32_t gy = d.bin.height ? (d.framebuffer.height + d.bin.height - 1) / d.bin.height : 1;
    d.bins_x = u8(r) < 240 ? gx + u8(r) % 3 - 1 : size_val(r, 64);
    d.bins_y = u8(r) < 240 ? gy + u8(r) % 3 - 1 : size_val(r, 64);
    d.fdm_offset = u8(r) & 1;
    if (d.fdm_offset && d.bin.width && d.bin.height)
        d.bin_offset = (tr_offset2d){(int32_t)(u32(r) % d.bin.width) & ~3, (int32_t)(u32(r) % d.bin.height) & ~3};
    else if (u8(r) > 240)
        d.bin_offset = (tr_offset2d){(int32_t)u32(r), (int32_t)u32(r)};
    const size_t nb = (size_t)d.bins_x * d.bins_y;
    if (nb > 4096)
        return;
    xbuf ab = xb_none();
    if (u8(r) != 255) {
        ab = xb_heap(nb ? nb * sizeof(tr_extent2d) : 1, false);
        tr_extent2d *a = (tr_extent2d *)ab.p;
        static const uint32_t vals[8] = {1, 1, 2, 4, 0, 2, 3, 8};
        for (size_t i = 0; i < nb; i++) {
            const uint8_t k = u8(r);
            a[i] = k >= 128 ? (tr_extent2d){1, 1} : (tr_extent2d){vals[k & 7], vals[(k >> 3) & 7]};
            if (a[i].width == 0 || a[i].height == 0)
                a[i] = (tr_extent2d){0, 0};
        }
        if (u8(r) == 0 && nb) /* one mismatched zero */
            a[u8(r) % nb] = (tr_extent2d){0, 2};
        ab.seed = 0;
        d.areas = a;
    }
    uint8_t *acopy = NULL;
    if (d.areas) {
        acopy = malloc(nb ? nb * sizeof(tr_extent2d) : 1);
        memcpy(acopy, d.areas, nb * sizeof(tr_extent2d));
    }
    xbuf hb, bb;
    tr_subsampled_header *h = out_block(r, sizeof *h, &hb);
    tr_subsampled_bin *bins = out_block(r, nb * sizeof *bins, &bb);
    const tr_result rc = res(tr_compute_subsampled_layout(&d, h, bins));
    if (!h || !bins || !d.areas || !nb)
        must_fail(rc, "NULL pointer or no bins");
    if (rc != TR_OK) {
        xb_check(&hb, "header after a failed call");
        xb_check(&bb, "bins after a failed call");
    } else {
        for (size_t i = 0; i < nb; i++) {
            const tr_rect q = bins[i].rect;
            if (q.x < 0 || q.y < 0 || (uint64_t)q.x + q.width > (uint64_t)d.framebuffer.width + d.tile_align.width +
                                                                     d.bin.width ||
                (uint64_t)q.y + q.height > (uint64_t)d.framebuffer.height + d.tile_align.height + d.bin.height)
                FAIL("bin %zu at (%d, %d) %ux%u in a %ux%u framebuffer", i, q.x, q.y, q.width, q.height,
                     d.framebuffer.width, d.framebuffer.height);
        }
    }
    if (acopy && memcmp(acopy, d.areas, nb * sizeof(tr_extent2d)) != 0)
        FAIL("wrote its input areas");
    free(acopy);
    xb_free(&ab);
    xb_free(&hb);
    xb_free(&bb);
}

static void op_stats_json(reader *r, state *s)
{
    cur_op = "tr_pass_stats_to_json";
    tr_pass_stats st;
    const tr_pass_stats *sp = &st;
    const uint8_t k = u8(r);
    if (k < 64 && s->have_stats) {
        st = s->stats;
    } else if (k == 255) {
        sp = NULL;
    } else { /* any bytes: NaN and infinite times, huge counts */
        memset(&st, 0, sizeof st);
        uint8_t *q = (uint8_t *)&st;
        for (size_t i = 0; i < sizeof st && r->n; i++)
            q[i] = u8(r);
        if (u8(r) & 1) { /* the times' special values */
            const double sp_vals[4] = {__builtin_nan(""), __builtin_inf(), -__builtin_inf(), -0.0};
            st.ms_render = sp_vals[u8(r) % 4];
            st.ms_binning = sp_vals[u8(r) % 4];
        }
    }
    const size_t len = tr_pass_stats_to_json(sp, NULL, 0);
    if (len > (1u << 16))
        FAIL("%zu bytes of JSON", len);
    char *full = malloc(len + 1);
    if (tr_pass_stats_to_json(sp, full, len + 1) != len || strlen(full) != len)
        FAIL("the length needed is %zu, the call with room for it wrote %zu", len, strlen(full));
    if (strstr(full, ":nan") || strstr(full, ":-nan") || strstr(full, ":inf") || strstr(full, ":-inf"))
        FAIL("JSON with a non-finite number: %s", full);
    size_t size;
    switch (u8(r) % 8) {
    case 0: size = 0; break;
    case 1: size = 1 + u8(r) % 3; break;
    case 2: size = len; break;
    case 3: size = len + 1; break;
    case 4: size = len ? len - 1 : 0; break;
    case 5: size = u8(r) * 8u + u8(r) % 8; break;
    case 6: size = u32(r) % 4096; break;
    default: size = len + 2; break;
    }
    const bool null_buf = size == 0 && (u8(r) & 1);
    xbuf b = null_buf ? xb_none() : xb_heap(size ? size : 1, false);
    if (!size)
        b.n = 0;
    const size_t got = tr_pass_stats_to_json(sp, (char *)b.p, size);
    if (got != len)
        FAIL("returned %zu with size %zu, %zu with size 0", got, size, len);
    if (size) {
        const size_t k2 = len < size - 1 ? len : size - 1;
        if (memcmp(b.p, full, k2) != 0 || b.p[k2] != '\0')
            FAIL("size %zu: not the first %zu bytes of the JSON and a NUL", size, k2);
    } else {
        xb_check(&b, "size 0");
    }
    xb_free(&b);
    free(full);
}

static void op_sample_position(reader *r, state *s)
{
    (void)s;
    cur_op = "tr_sample_position";
    const uint32_t n = u8(r) < 200 ? size_val(r, 10) : u32(r);
    const uint32_t i = u8(r) < 200 ? size_val(r, 10) : u32(r);
    xbuf b;
    float *pos = out_block(r, 2 * sizeof(float), &b);
    const tr_result rc = res(tr_sample_position(n, i, pos));
    if (!pos || !tr_sample_count_valid(n) || i >= n)
        must_fail(rc, "NULL, a count other than 1, 2, 4, 8, or index past it");
    if (rc != TR_OK)
        xb_check(&b, "after a failed call");
    else if (!(pos[0] > 0.0f && pos[0] < 1.0f && pos[1] > 0.0f && pos[1] < 1.0f))
        FAIL("sample %u of %u at (%g, %g)", i, n, pos[0], pos[1]);
    xb_free(&b);
}

static void op_pass(reader *r, state *s)
{
    if (!s->in_pass) {
        cur_op = "tr_cmd_begin_render_pass";
        tr_render_pass_desc rp;
        build_pass(r, s, &rp);
        s->in_pass = res(tr_cmd_begin_render_pass(s->ctx, &rp)) == TR_OK;
        return;
    }
    cur_op = "tr_cmd_end_render_pass";
    xbuf b;
    tr_pass_stats *st = out_block(r, sizeof *st, &b);
    const tr_result rc = res(tr_cmd_end_render_pass(s->ctx, st));
    s->in_pass = false;
    if (rc != TR_OK) {
        xb_check(&b, "after a failed call");
    } else if (st) {
        s->stats = *st;
        s->have_stats = true;
    }
    xb_free(&b);
}

/* ---- the program --------------------------------------------------------------------------- */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    reader r = {data, size};
    state s;
    memset(&s, 0, sizeof s);
    tr_context_desc cd = {0};
    cd.threads = 1;
    const uint8_t cf = u8(&r);
    if (cf & 1)
        cd.tile_align_w = 8u * (1 + u8(&r) % 128);
    if (cf & 2)
        cd.tile_align_h = 8u * (1 + u8(&r) % 128);
    if (cf & 4)
        cd.device = (tr_device)(u8(&r) % TR_DEVICE_COUNT);
    if (cf & 8)
        cd.gmem_bytes = 65536u << (u8(&r) % 6);
    cd.allocator = (tr_allocator){cap_alloc, cap_free, NULL};
    if (tr_context_create(&cd, &s.ctx) != TR_OK)
        return 0;
    for (int i = 0; i < NIMG; i++)
        make_image(&r, &s, i);
    for (int i = 0; i < NMAP; i++)
        make_map(&r, &s, i);

    for (int op = 0; op < MAX_OPS && r.n; op++) {
        switch (u8(&r) % 16) {
        case 0: op_transfer(&r, &s, T_UPLOAD); break;
        case 1: op_transfer(&r, &s, T_DOWNLOAD); break;
        case 2: op_transfer(&r, &s, T_RAW); break;
        case 3: op_transfer(&r, &s, T_DECODE); break;
        case 4: op_transfer(&r, &s, T_ENCODE); break;
        case 5: op_fill(&r, &s); break;
        case 6: op_read_rgba8(&r, &s); break;
        case 7:
            cur_op = "tr_image_generate_mips";
            res(tr_image_generate_mips(pick_img(&r, &s)));
            break;
        case 8: op_feedback_misc(&r, &s); break;
        case 9: op_query(&r, &s); break;
        case 10: op_subsampled_metadata(&r, &s); break;
        case 11: op_subsampled_layout(&r, &s); break;
        case 12: op_stats_json(&r, &s); break;
        case 13: op_sample_position(&r, &s); break;
        case 14: op_pass(&r, &s); break;
        default: {
            const int i = u8(&r) % NIMG;
            if (s.in_pass)
                break;
            cur_op = "tr_image_create";
            tr_image_destroy(s.img[i]);
            make_image(&r, &s, i);
            break;
        }
        }
    }
    if (s.in_pass) {
        cur_op = "tr_cmd_end_render_pass";
        res(tr_cmd_end_render_pass(s.ctx, NULL));
    }
    tr_context_destroy(s.ctx);
    if (live != 0) {
        fprintf(stderr, "fuzz_transfer: %ld allocations leaked\n", live);
        abort();
    }
    return 0;
}
