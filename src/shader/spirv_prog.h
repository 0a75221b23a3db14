/* tilerast: a SPIR-V entry point translated into a lane program (issue 30).
 *
 * Consumes: tr__spv_module (spirv_internal.h).  Produces: tr__spv_program,
 * made once when a pipeline is created (spirv_translate.c) and run over the
 * lanes of a tr_vs_batch or tr_fs_block (spirv_exec.c).
 *
 * The program is scalar: every value of the shader is split into 32-bit
 * components, each a register of `lanes` values (one per invocation), and
 * every instruction works on one component of every lane at once.
 *
 * Divergence.  The blocks of the entry point (with every function it calls
 * inlined) are laid out once, in a structured order: a selection's or a
 * loop's merge block after everything inside the construct, a loop's
 * continue construct after its body, so that every branch but a loop's
 * back edge goes forward.  Each block has a pending lane mask; a branch
 * adds the lanes that take it to its target's mask, and a block runs with
 * the lanes pending for it (or is skipped when none are).  After a loop's
 * back-edge block, the loop runs again from its header while lanes are
 * pending there.  OpPhi takes its value on the edge, through a shadow
 * register written by the branch for the lanes taking it.
 *
 * Writes.  Instructions write every lane, whatever the mask: a value is
 * only read by lanes that computed it.  The exceptions are written under
 * the block's mask: stores to variables (function-local, private and
 * output variables live in registers), phi shadows, and values computed
 * inside a loop and read after it (a lane that left the loop keeps the
 * value of its last iteration). */
#ifndef TILERAST_SPIRV_PROG_H
#define TILERAST_SPIRV_PROG_H

#include "internal.h"

#define TR__NOREG UINT32_MAX

enum tr__spv_opcode {
    /* control */
    TR__OP_BLOCK = 1,  /* a: block, b: pc to skip to when no lane is pending, c: SPIR-V instructions (budget) */
    TR__OP_BRANCH,     /* a: target block; b: condition register or NOREG; aux 1: lanes whose b is 0 */
    TR__OP_LOOP_BACK,  /* a: header block, b: pc of its TR__OP_BLOCK */
    TR__OP_KILL,       /* the active lanes are discarded and stop; b: pc to skip to */
    TR__OP_DEMOTE,     /* the active lanes are discarded and become helpers */
    TR__OP_END,
    /* moves: d = a; MOVM under the block's mask; MOVC under mask and c (aux 1: c == 0) */
    TR__OP_MOV, TR__OP_MOVM, TR__OP_MOVC,
    TR__OP_LOAD_IDX,   /* d = R[a + min(R[b], c - 1)] */
    TR__OP_STORE_IDX,  /* R[d + min(R[b], c - 1)] = R[a], under the mask */
    TR__OP_LOAD_BUF,   /* d = 4 bytes of buffer aux (TR__BUF_PUSH: push constants) at byte c + R[b] (b may be NOREG) */
    TR__OP_HELPER,     /* d = ~0 for helper lanes (not live, or demoted), else 0 */
    /* float */
    TR__OP_FADD, TR__OP_FSUB, TR__OP_FMUL, TR__OP_FDIV, TR__OP_FNEG, TR__OP_FMOD, TR__OP_FREM,
    TR__OP_FEQ, TR__OP_FNE, TR__OP_FLT, TR__OP_FLE, TR__OP_FGT, TR__OP_FGE,         /* ordered */
    TR__OP_FUEQ, TR__OP_FUNE, TR__OP_FULT, TR__OP_FULE, TR__OP_FUGT, TR__OP_FUGE,   /* unordered */
    TR__OP_ISNAN, TR__OP_ISINF,
    TR__OP_F2S, TR__OP_F2U, TR__OP_S2F, TR__OP_U2F,
    /* integer */
    TR__OP_IADD, TR__OP_ISUB, TR__OP_IMUL, TR__OP_SDIV, TR__OP_UDIV, TR__OP_SREM, TR__OP_SMOD, TR__OP_UMOD,
    TR__OP_INEG, TR__OP_SHL, TR__OP_SHR, TR__OP_SAR, TR__OP_AND, TR__OP_OR, TR__OP_XOR, TR__OP_NOT,
    TR__OP_IEQ, TR__OP_INE, TR__OP_SLT, TR__OP_SLE, TR__OP_SGT, TR__OP_SGE, TR__OP_ULT, TR__OP_ULE, TR__OP_UGT,
    TR__OP_UGE,
    TR__OP_BFI,        /* d = a with count R[e] bits at offset R[c] replaced by b's low bits */
    TR__OP_BFE_S, TR__OP_BFE_U, /* d = R[c] bits of a from offset R[b], sign- / zero-extended */
    TR__OP_BREV, TR__OP_BCNT,
    TR__OP_UMUL_HI, TR__OP_SMUL_HI, /* the high 32 bits of the 64-bit product */
    TR__OP_SAMPLE_OFFSET, /* d = the pass's sample R[a]'s position minus 1/2, component aux (0 when R[a] is
                             not a sample) */
    TR__OP_SELECT,     /* d = c ? a : b  (c a bool: 0 or ~0) */
    TR__OP_MIN_CLAMP,  /* d = min(R[a], c) (unsigned): clamps a dynamic index */
    /* derivatives (fragment programs), over each quad */
    TR__OP_DDX_FINE, TR__OP_DDY_FINE, TR__OP_DDX_COARSE, TR__OP_DDY_COARSE,
    /* calls into records: a is an index into the program's ext / tex tables */
    TR__OP_EXT,        /* a GLSL.std.450 instruction */
    TR__OP_TEX,        /* a sampling or query instruction */
    TR__OP_COUNT
};

#define TR__BUF_PUSH 16u   /* LOAD_BUF's buffer: the push constants */

typedef struct tr__ins {
    uint16_t op, aux;
    uint32_t d, a, b, c, e;
} tr__ins;

/* A GLSL.std.450 instruction: registers of each operand's components,
 * column-major for matrices.  Integer results / operands in the same
 * registers (bits). */
typedef struct tr__spv_ext {
    uint32_t inst;         /* GLSLstd450 number */
    uint32_t comps;        /* components of the result (per output for two-result ones) */
    uint32_t dim;          /* matrices: the side; vectors: components of the operands */
    uint32_t nargs;
    uint32_t res[16], res2[4]; /* res2: Modf's / Frexp's second result */
    uint32_t arg[3][16];
} tr__spv_ext;

enum tr__spv_tex_kind {
    TR__TEX_SAMPLE,        /* implicit / explicit LOD, bias, gradients, offsets, compare */
    TR__TEX_FETCH,
    TR__TEX_SIZE,          /* OpImageQuerySize(Lod): width, height[, layers] */
    TR__TEX_LEVELS,
    TR__TEX_QUERY_LOD,
};

typedef struct tr__spv_tex {
    uint32_t kind;
    uint32_t slot;         /* texture slot; slot_reg NOREG: constant */
    uint32_t slot_reg, slot_limit; /* an array index register and the array's length */
    uint32_t coord[3], ncoord; /* s, t[, layer] (fetch: x, y[, layer], as int) */
    uint32_t proj;         /* register of q for Proj sampling, or NOREG */
    uint32_t dref, bias, lod, grad[4], min_lod, offset[2]; /* registers or NOREG */
    int32_t const_offset[2];
    uint32_t out[4], nout; /* result components */
    uint32_t arrayed;      /* the image is arrayed: coord[ncoord - 1] is the layer */
} tr__spv_tex;

/* Where an input register is filled from, or an output register goes. */
enum tr__spv_io_kind {
    /* vertex inputs */
    TR__IN_ATTRIB,         /* index: location, comp */
    TR__IN_VERTEX_INDEX, TR__IN_INSTANCE_INDEX, TR__IN_VIEW_INDEX,
    /* fragment inputs */
    TR__IN_VARYING,        /* index: location, comp */
    TR__IN_FRAG_COORD,     /* comp 0..3: x, y, z, w */
    TR__IN_FRONT_FACING, TR__IN_PRIMITIVE_ID, TR__IN_POINT_COORD, TR__IN_HELPER, TR__IN_SAMPLE_ID,
    TR__IN_SAMPLE_POSITION, TR__IN_SAMPLE_MASK, TR__IN_FRAG_SIZE, TR__IN_FRAG_INVOCATION_COUNT,
    /* vertex outputs */
    TR__OUT_POSITION, TR__OUT_POINT_SIZE, TR__OUT_VARYING,
    /* fragment outputs */
    TR__OUT_COLOR,         /* index: attachment (8 + attachment: blend source 1 of location 0) */
    TR__OUT_DEPTH, TR__OUT_SAMPLE_MASK,
};

typedef struct tr__spv_io {
    uint16_t kind, comp;
    uint32_t index;
    uint32_t reg;
    uint32_t source;       /* outputs: 1 + the input whose batch / block array it copies, 0: reg
                              (tr__spv_forward_outputs) */
    bool unread;           /* inputs: no instruction reads reg, so it is not filled */
} tr__spv_io;

/* Everything a pipeline needs to know about a stage's program. */
typedef struct tr__spv_program {
    uint32_t stage;        /* SpvExecutionModelVertex / Fragment */
    char entry[64];
    uint32_t lanes;        /* TR_VS_LANES or TR_FS_LANES: the register stride */
    tr__ins *code;
    uint32_t code_count;
    uint32_t reg_count;    /* registers in all */
    uint32_t const_count;  /* registers [0, const_count) hold constants (const_bits) */
    uint32_t zero_begin, zero_end; /* registers zeroed when a run starts (variables, phis) */
    bool straight;         /* nothing left to run: blocks and plain branches only, every output
                              copying an input array (tr__spv_forward_outputs) ... */
    uint64_t straight_cost; /* ... and the SPIR-V instructions each lane would count */
    uint32_t *const_bits;
    uint32_t block_count;
    uint32_t entry_block;
    tr__spv_ext *ext;
    uint32_t ext_count;
    tr__spv_tex *tex;
    uint32_t tex_count;
    tr__spv_io *inputs, *outputs;
    uint32_t input_count, output_count;
    uint32_t ubo_mask;     /* uniform buffer bindings read */
    uint32_t uses_push;    /* reads push constants */
    uint32_t texture_mask; /* slots sampled */
    /* fragment facts */
    uint32_t varying_mask, flat_mask, noperspective_mask, centroid_mask, sample_mask_in; /* by location */
    uint32_t varying_types[TR_MAX_VARYINGS]; /* 1 float, 2 int, 3 uint: per location (stage matching) */
    uint32_t fs_flags;     /* TR_FS_* the program implies */
    uint32_t color_mask;   /* attachments written */
    uint64_t id;           /* unique per program (register file caching) */
} tr__spv_program;

/* What a run reads beside its lanes: the draw's resources. */
typedef struct tr__spv_resources {
    const uint8_t *buf[TR__BUF_PUSH + 1];
    uint32_t buf_size[TR__BUF_PUSH + 1];
    const tr_texture_binding *textures;
    uint32_t budget;       /* SPIR-V instructions an invocation may execute */
    uint32_t samples;      /* the pass's sample count (FragInvocationCountEXT, sample positions) */
    bool flip_y;           /* TR_PASS_ORIGIN_LOWER_LEFT: y counts up, and so do y derivatives */
} tr__spv_resources;

/* A draw's SPIR-V state, in the pass arena (tr__draw.spv): what its
 * programs read, and whether one failed (bit 1 vertex, 2 fragment: over
 * budget; bit 4: out of memory for a register file). */
typedef struct tr__spv_draw {
    tr__spv_resources res;
    _Atomic uint32_t failed;
} tr__spv_draw;

struct tr__spv_module;
/* Translates entry point `entry` (NULL: "main") of `model`; errors name
 * the instruction.  The program is freed with tr__spv_program_free. */
tr_result tr__spv_translate(tr_context *ctx, const char *fn, const struct tr__spv_module *m, uint32_t model,
                            const char *entry, tr__spv_program **out);
void tr__spv_program_free(tr_context *ctx, tr__spv_program *p);

/* Outputs that are plain copies read their source (spirv_forward.c): the
 * last step of tr__spv_translate. */
void tr__spv_forward_outputs(tr_context *ctx, tr__spv_program *p);

/* Runs a vertex program over a batch / a fragment program over a block:
 * TR_OK, TR_ERROR_LIMIT_EXCEEDED when the budget ran out, or
 * TR_ERROR_OUT_OF_MEMORY when the thread's register file could not be
 * allocated (the outputs are then unspecified). */
tr_result tr__spv_run_vertex(const tr__spv_program *p, const tr__spv_resources *res, tr_vs_batch *b);
tr_result tr__spv_run_fragment(const tr__spv_program *p, const tr__spv_resources *res, tr_fs_block *b);

#endif
