/* tilerast's SPIR-V front end (issue 30; DESIGN.md, "Shaders").
 *
 * Consumes: a SPIR-V binary (host-endian words).  Produces: tr__spv_module,
 * the module's facts a pipeline needs before any code runs: its types and
 * 32-bit constants by id, the decorations of every id, its entry points
 * (vertex and fragment only) with their interface variables, and its
 * resources (uniform blocks, the push-constant block, combined image
 * samplers) with their bindings.  Everything tilerast cannot run is
 * refused here, by name: other stages, capabilities (Float64, Int16,
 * Geometry, ...), extensions, extended instruction sets other than
 * GLSL.std.450, physical addressing, descriptor sets other than 0.  The
 * structural rules (SSA, dominance, types of operands) are SPIRV-Tools'
 * validator's job; what this file checks is what its own walk relies on:
 * every instruction inside the binary, every id below the bound, every
 * operand it reads present. */
#ifndef TILERAST_SPIRV_INTERNAL_H
#define TILERAST_SPIRV_INTERNAL_H

#include "internal.h"

/* A module's id bound may be at most this many ids per word of the module,
 * plus 4096 (TR_ERROR_LIMIT_EXCEEDED beyond). */
#define TR__SPV_BOUND_PER_WORD 4u

/* Builtins are SPIR-V's BuiltIn numbers; none means "not a builtin". */
#define TR__SPV_NONE UINT32_MAX

typedef struct tr__spv_type {
    uint16_t op;          /* SpvOpType*; 0: not a type */
    uint16_t width;       /* Int / Float: bits */
    uint32_t sign;        /* Int: signedness */
    uint32_t elem;        /* Vector, Matrix, Array, RuntimeArray, Pointer, SampledImage: the element type id */
    uint32_t count;       /* Vector: components; Matrix: columns; Array: length (a constant's value) */
    uint32_t storage;     /* Pointer: storage class */
    uint32_t member0, members; /* Struct: first index into tr__spv_module.member_types, count */
    uint32_t image_dim, image_depth, image_arrayed, image_ms, image_sampled; /* Image */
} tr__spv_type;

typedef struct tr__spv_decor {
    uint32_t location, component, binding, set, builtin, spec_id; /* TR__SPV_NONE: absent */
    uint32_t offset, array_stride, matrix_stride, index;          /* TR__SPV_NONE: absent */
    bool flat, noperspective, centroid, sample, block, buffer_block, row_major;
} tr__spv_decor;

typedef struct tr__spv_var {
    uint32_t id, type;    /* the variable and its pointer type */
    uint32_t storage;     /* SpvStorageClass */
} tr__spv_var;

typedef struct tr__spv_entry {
    uint32_t model;       /* SpvExecutionModelVertex or SpvExecutionModelFragment */
    uint32_t function;    /* the entry function's id */
    char name[64];
    uint32_t interface0, interfaces; /* into tr__spv_module.interface_ids */
    bool origin_upper_left, early_tests, depth_replacing;
} tr__spv_entry;

typedef struct tr__spv_module {
    const uint32_t *words; /* the module's own copy */
    size_t word_count;
    uint32_t version;     /* 0x00MMmm00 */
    uint32_t bound;       /* ids are 1 .. bound - 1 */
    uint32_t glsl_std_450; /* the id of the GLSL.std.450 import, or 0 */
    tr__spv_type *types;  /* by id (bound entries) */
    tr__spv_decor *decor; /* by id */
    uint32_t *constant;   /* by id: the bits of a 32-bit scalar OpConstant / OpSpecConstant */
    bool *is_constant;    /* by id */
    uint32_t *member_types; /* Struct members, in order */
    tr__spv_decor *member_decor; /* parallel to member_types: OpMemberDecorate's */
    uint32_t member_count;
    tr__spv_var *vars;
    uint32_t var_count;
    uint32_t *interface_ids;
    uint32_t interface_count;
    tr__spv_entry *entries;
    uint32_t entry_count;
    size_t code_begin;    /* word offset of the first OpFunction */
} tr__spv_module;

/* Parses and checks a binary (module.h's rules above); on TR_OK *m holds
 * the module, its arrays allocated from ctx (tr__spv_free).  Errors name
 * the word offset and what was wrong: TR_ERROR_INVALID_ARGUMENT (not
 * SPIR-V: size, magic, an instruction past the end, an id past the bound),
 * TR_ERROR_UNSUPPORTED_FORMAT (a capability, extension, instruction set,
 * addressing model, stage or descriptor set tilerast does not run). */
tr_result tr__spv_parse(tr_context *ctx, const char *fn, const uint32_t *words, size_t word_count,
                        tr__spv_module *m);
void tr__spv_free(tr_context *ctx, tr__spv_module *m);

/* Runs SPIRV-Tools' validator (Vulkan 1.3 environment: SPIR-V 1.0 - 1.6)
 * over the words; TR_OK, or TR_ERROR_INVALID_ARGUMENT with the validator's
 * first message quoted after "fn: ".  spirv_validate.c. */
tr_result tr__spv_validate(tr_context *ctx, const char *fn, const uint32_t *words, size_t word_count);

/* The entry point of `model` called `name` (NULL: "main"), or NULL. */
const tr__spv_entry *tr__spv_find_entry(const tr__spv_module *m, uint32_t model, const char *name);

/* The number of vec4 locations a type of the Input / Output interface
 * takes (scalars and vectors 1, matrices a location per column, arrays
 * their length times the element's); 0 for a type that cannot be one. */
uint32_t tr__spv_locations(const tr__spv_module *m, uint32_t type);

/* The name of a capability ("Float64"), or NULL when this file does not know it. */
const char *tr__spv_capability_name(uint32_t cap);

#endif
