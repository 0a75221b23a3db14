/* Caller buffers (image.h, "Caller buffers"): every call that copies rows
 * to or from a caller's pointer with a row_pitch touches exactly
 * (rows - 1) * row_pitch + row bytes of it, and refuses a pitch whose span
 * overflows or exceeds TR_MAX_TRANSFER_BYTES before touching anything.
 * Buffers here are malloc'ed to the exact span, so under AddressSanitizer
 * (scripts/test-sanitize.sh) one byte outside is a crash. */
#include "trtest.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A buffer filled with a canary byte, to see that a refused call wrote nothing. */
static uint8_t *canary_buffer(size_t n)
{
    uint8_t *b = malloc(n);
    cr_assert_not_null(b);
    memset(b, 0xA5, n);
    return b;
}

static bool untouched(const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (b[i] != 0xA5)
            return false;
    return true;
}

static void expect_refusal(tr_context *ctx, tr_result r, tr_result code, const char *arg)
{
    cr_expect_eq(r, code, "returned %s, expected %s", tr_result_string(r), tr_result_string(code));
    cr_expect(strstr(tr_last_error(), arg) != NULL, "message \"%s\" does not name %s", tr_last_error(), arg);
    if (ctx)
        cr_expect_str_eq(tr_context_last_error(ctx), tr_last_error());
}

static tr_image *rgba8(tr_context *ctx, uint32_t w, uint32_t h)
{
    tr_image *img = NULL;
    TRT_OK(tr_image_create(ctx, &(tr_image_desc){.format = TR_FORMAT_R8G8B8A8_UNORM, .width = w, .height = h},
                           &img));
    return img;
}

/* The hostile pitches: each must be refused, whatever the image. */
static const size_t huge_pitches[] = {SIZE_MAX, SIZE_MAX / 2, (size_t)1 << 62, (size_t)1 << 40,
                                      ((size_t)1 << 36) + 1};

Test(caller_buffers, huge_row_pitch_is_refused_before_any_byte_moves)
{
    tr_context *ctx = trt_context(1);
    tr_image *img = rgba8(ctx, 64, 64);
    uint8_t *buf = canary_buffer(64);
    for (size_t i = 0; i < sizeof huge_pitches / sizeof *huge_pitches; i++) {
        const size_t pitch = huge_pitches[i];
        expect_refusal(ctx, tr_image_download(img, NULL, buf, pitch), TR_ERROR_LIMIT_EXCEEDED, "row_pitch");
        expect_refusal(ctx, tr_image_download_raw(img, NULL, buf, pitch), TR_ERROR_LIMIT_EXCEEDED, "row_pitch");
        expect_refusal(ctx, tr_image_upload(img, NULL, buf, pitch), TR_ERROR_LIMIT_EXCEEDED, "row_pitch");
        cr_expect(untouched(buf, 64), "pitch %zu: the refused call wrote to the buffer", pitch);
    }
    free(buf);
    tr_context_destroy(ctx);
}

Test(caller_buffers, a_pitch_below_a_row_is_refused)
{
    tr_context *ctx = trt_context(1);
    tr_image *img = rgba8(ctx, 64, 64);
    uint8_t *buf = canary_buffer(64 * 64 * 4);
    expect_refusal(ctx, tr_image_download(img, NULL, buf, 255), TR_ERROR_INVALID_ARGUMENT, "row_pitch");
    expect_refusal(ctx, tr_image_upload(img, NULL, buf, 1), TR_ERROR_INVALID_ARGUMENT, "row_pitch");
    cr_expect(untouched(buf, 64 * 64 * 4));
    free(buf);
    tr_context_destroy(ctx);
}

/* One row: a pitch of any size up to the maximum is fine (nothing past the
 * first row is touched); the span is the row. */
Test(caller_buffers, one_row_touches_one_row_whatever_the_pitch)
{
    tr_context *ctx = trt_context(1);
    tr_image *img = rgba8(ctx, 16, 1);
    TRT_OK(tr_image_fill(img, NULL, (const float[4]){1, 0, 0, 1}));
    uint8_t *buf = canary_buffer(64);
    TRT_OK(tr_image_download(img, NULL, buf, (size_t)1 << 36));
    for (int x = 0; x < 16; x++)
        cr_expect(buf[4 * x] == 255 && buf[4 * x + 1] == 0 && buf[4 * x + 3] == 255);
    expect_refusal(ctx, tr_image_download(img, NULL, buf, ((size_t)1 << 36) + 1), TR_ERROR_LIMIT_EXCEEDED,
                   "TR_MAX_TRANSFER_BYTES");
    free(buf);
    tr_context_destroy(ctx);
}

/* An odd pitch and an odd buffer address: the rows land at exactly
 * y * pitch, and the span is all that is touched. */
Test(caller_buffers, odd_pitch_and_misaligned_buffer_touch_exactly_the_span)
{
    tr_context *ctx = trt_context(1);
    tr_image *img = NULL;
    TRT_OK(tr_image_create(ctx, &(tr_image_desc){.format = TR_FORMAT_R32G32B32A32_SFLOAT, .width = 5, .height = 3},
                           &img));
    const size_t row = 5 * 16, pitch = row + 3, span = 2 * pitch + row;
    uint8_t *raw = malloc(span + 1);
    uint8_t *src = raw + 1; /* misaligned for floats on purpose */
    for (size_t i = 0; i < span; i++)
        src[i] = (uint8_t)(i * 7 + 1);
    TRT_OK(tr_image_upload(img, NULL, src, pitch));
    uint8_t *out = malloc(span); /* exactly the span: ASan catches any byte beyond */
    memset(out, 0xA5, span);
    TRT_OK(tr_image_download(img, NULL, out, pitch));
    for (size_t y = 0; y < 3; y++) {
        cr_expect_eq(memcmp(out + y * pitch, src + y * pitch, row), 0, "row %zu", y);
        if (y < 2)
            for (size_t k = row; k < pitch; k++)
                cr_expect_eq(out[y * pitch + k], 0xA5, "the gap after row %zu was written", y);
    }
    free(out);
    free(raw);
    tr_context_destroy(ctx);
}

static tr_feedback_map *feedback(tr_context *ctx, uint32_t *gw, uint32_t *gh)
{
    tr_feedback_map *m = NULL;
    TRT_OK(tr_feedback_map_create(ctx,
                                  &(tr_feedback_map_desc){.kind = TR_FEEDBACK_MIN_MIP, .width = 64, .height = 32,
                                                          .levels = 3, .region_width = 8, .region_height = 8},
                                  &m));
    TRT_OK(tr_feedback_map_decoded_size(m, 0, gw, gh));
    return m;
}

Test(caller_buffers, feedback_decode_and_encode_keep_to_the_span)
{
    tr_context *ctx = trt_context(1);
    uint32_t gw, gh;
    tr_feedback_map *m = feedback(ctx, &gw, &gh);
    cr_assert_eq(gw, 8u);
    cr_assert_eq(gh, 4u);
    uint8_t *buf = canary_buffer(64);
    /* the reproducer: SIZE_MAX made rows land at out - y */
    for (size_t i = 0; i < sizeof huge_pitches / sizeof *huge_pitches; i++) {
        expect_refusal(ctx, tr_feedback_map_decode(m, 0, 0, buf, huge_pitches[i]), TR_ERROR_LIMIT_EXCEEDED,
                       "row_pitch");
        expect_refusal(ctx, tr_feedback_map_encode(m, 0, 0, buf, huge_pitches[i]), TR_ERROR_LIMIT_EXCEEDED,
                       "row_pitch");
    }
    expect_refusal(ctx, tr_feedback_map_decode(m, 0, 0, buf, 7), TR_ERROR_INVALID_ARGUMENT, "row_pitch");
    cr_expect(untouched(buf, 64));
    free(buf);
    /* row_pitch 0 is the decoded width, as for images; exactly gw * gh bytes */
    uint8_t *tight = malloc((size_t)gw * gh);
    TRT_OK(tr_feedback_map_decode(m, 0, 0, tight, 0));
    for (uint32_t i = 0; i < gw * gh; i++)
        cr_expect_eq(tight[i], TR_FEEDBACK_NONE);
    tight[0] = 1;
    TRT_OK(tr_feedback_map_encode(m, 0, 0, tight, 0));
    memset(tight, 0, (size_t)gw * gh);
    TRT_OK(tr_feedback_map_decode(m, 0, 0, tight, 0));
    cr_expect_eq(tight[0], 1);
    cr_expect_eq(tight[1], TR_FEEDBACK_NONE);
    free(tight);
    /* a pitch past the row: (gh - 1) * pitch + gw bytes, no more */
    const size_t pitch = 11, span = (gh - 1) * pitch + gw;
    uint8_t *padded = malloc(span);
    memset(padded, 0xA5, span);
    TRT_OK(tr_feedback_map_decode(m, 0, 0, padded, pitch));
    cr_expect_eq(padded[0], 1);
    cr_expect_eq(padded[gw], 0xA5, "the gap after row 0 was written");
    free(padded);
    tr_context_destroy(ctx);
}
