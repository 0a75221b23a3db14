/* tilerast: error codes and messages.
 *
 * Every fallible call returns a tr_result; TR_OK is 0 and every error is
 * negative.  tr_result_string() names a code.  Every failing call also
 * leaves a message that names the argument or field at fault, readable in
 * two places:
 *   - tr_last_error(): per thread, for every call, also those that have no
 *     context (tr_context_create, tr_sample_position, tr_scene_load, ...);
 *   - tr_context_last_error(ctx): per context, for calls made through the
 *     context or one of its objects (images, pipelines, samplers, feedback
 *     maps).
 * The rule (unlike errno): each call that returns a tr_result clears both
 * messages when it begins and sets them only if it fails, so after TR_OK
 * they read "" and after an error they describe that error, never an older
 * one.  Calls that return no tr_result (getters, tr_fs_* shader helpers)
 * leave them alone.  README.md, "Errors", has the whole contract: what a
 * failed call guarantees about caller memory and objects. */
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

/* The message of the calling thread's last call that returned a
 * tr_result: "" if it succeeded, else what went wrong (at most 511 bytes).
 * The string belongs to the thread and stays valid until its next call. */
TR_API const char *tr_last_error(void);

#ifdef __cplusplus
}
#endif
#endif
