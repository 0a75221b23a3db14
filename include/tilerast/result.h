/* tilerast: error codes.
 *
 * Every fallible call returns a tr_result; TR_OK is 0 and every error is
 * negative.  tr_result_string() names a code; the context that received the
 * bad argument also keeps a message naming the field (tr_context_last_error). */
#ifndef TILERAST_RESULT_H
#define TILERAST_RESULT_H

/* Marks the public functions: the shared library is built with hidden
 * visibility (internals stay private) and exports exactly these. */
#if defined(__GNUC__)
#define TR_API __attribute__((visibility("default")))
#else
#define TR_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tr_result {
    TR_OK = 0,
    TR_ERROR_INVALID_ARGUMENT = -1,   /* a NULL pointer or a value out of its enum */
    TR_ERROR_INVALID_DESCRIPTOR = -2, /* a descriptor field is inconsistent or out of range */
    TR_ERROR_UNSUPPORTED_FORMAT = -3, /* the format cannot be used this way */
    TR_ERROR_OUT_OF_MEMORY = -4,      /* the allocator returned NULL */
    TR_ERROR_OUT_OF_RANGE = -5,       /* an index, level, layer or region outside the object */
    TR_ERROR_LIMIT_EXCEEDED = -6,     /* a documented limit (TR_MAX_*) was exceeded */
    TR_ERROR_INVALID_STATE = -7,      /* the call is not allowed now (e.g. draw outside a pass) */
    TR_ERROR_IO = -8,                 /* a file could not be read or written */
    TR_ERROR_BAD_FILE = -9            /* a file is malformed */
} tr_result;

/* The name of a code ("TR_ERROR_OUT_OF_MEMORY"); "TR_UNKNOWN_RESULT" otherwise. */
TR_API const char *tr_result_string(tr_result result);

#ifdef __cplusplus
}
#endif
#endif
