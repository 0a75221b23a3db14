/* tilerast base: results and the error contract (base.h, result.h). */
#include <stdio.h>

#include "internal.h"

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
