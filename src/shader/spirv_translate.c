/* tilerast: translating a SPIR-V entry point into a lane program
 * (spirv_prog.h says what the program is and how it runs).
 *
 * The walk: every function reachable from the entry point is inlined at
 * its call (recursion is refused); its blocks are laid out in structured
 * order (layout()); each instruction becomes scalar instructions over the
 * registers of its components.  Composites cost nothing: a value is a list
 * of component registers, so construct, extract, insert and shuffle only
 * rearrange lists.  Registers come in three classes, numbered apart while
 * translating and laid out at the end: constants (filled once per thread),
 * variables (zeroed when a run starts: function-local, private and output
 * variables, phi shadows, return values) and values (written before they
 * are read). */
#include <stdio.h>

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.h>

#include "shader/spirv_internal.h"
#include "shader/spirv_prog.h"

#define RC_CONST 0x40000000u
#define RC_VAR 0x80000000u
#define RC_MASK 0xc0000000u
#define MAX_BLOCKS (1u << 16)
#define MAX_REGS (1u << 20)
#define MAX_INLINE_DEPTH 64

/* ---- what an id stands for ------------------------------------------------------------------ */

enum { V_NONE, V_VALUE, V_PTR, V_HANDLE };
enum { P_REG, P_BUF, P_IMAGE };

typedef struct tptr {
    uint8_t space;         /* P_REG: registers; P_BUF: a buffer's bytes; P_IMAGE: texture slots */
    uint8_t row_major;     /* P_BUF: the matrix pointed to (or into) is row-major */
    uint8_t readonly;      /* an Input variable: loads need no copy */
    uint32_t base;         /* P_REG: the variable's first register; P_BUF: buffer; P_IMAGE: first slot */
    uint32_t limit;        /* P_REG: the variable's registers; P_IMAGE: its array length */
    uint32_t off;          /* static offset from base: registers, bytes or slots */
    uint32_t dyn;          /* dynamic offset register (same units), or NOREG */
    uint32_t type;         /* the pointee's type */
    uint32_t mstride;      /* P_BUF: MatrixStride of the matrix pointed to or into */
    uint32_t vstride;      /* P_BUF: bytes between the components of a vector pointee */
} tptr;

typedef struct tval {
    uint8_t kind;
    uint32_t type;
    uint32_t n;            /* V_VALUE: components */
    uint32_t *comp;        /* V_VALUE: their registers */
    tptr p;                /* V_PTR */
    uint32_t slot, slot_reg, slot_limit; /* V_HANDLE */
} tval;

/* ---- functions and blocks ------------------------------------------------------------------- */

typedef struct tblock {
    uint32_t label;
    size_t first;          /* word offset of the first instruction after OpLabel */
    size_t term;           /* word offset of the terminator */
    uint32_t merge, cont;  /* OpSelectionMerge / OpLoopMerge operands, 0: none */
    uint32_t count;        /* SPIR-V instructions (the budget's unit) */
    uint32_t succ[2], nsucc; /* Branch / BranchConditional targets (switch: read from term) */
} tblock;

typedef struct tfunc {
    uint32_t id;
    size_t at;             /* word offset of OpFunction */
    uint32_t params[32], nparams;
    tblock *blocks;
    uint32_t nblocks;
    uint32_t *order;       /* block indices in structured order */
    uint32_t norder;
    uint32_t *pos;         /* block index -> position in order, UINT32_MAX: unreachable */
    uint32_t *loop_end;    /* position -> last position of the loop it heads, or UINT32_MAX */
    bool active;           /* being inlined (recursion check) */
    bool laid_out;
    bool kills;            /* contains OpKill / OpTerminateInvocation / OpDemoteToHelperInvocation */
} tfunc;

typedef struct xl {
    tr_context *ctx;
    const char *fn;
    const tr__spv_module *m;
    const tr__spv_entry *entry;
    bool fragment;
    tr_result err;
    /* output */
    tr__ins *code;
    uint32_t ncode, capcode;
    uint32_t *consts;
    uint32_t nconst, capconst;
    uint32_t *const_hash; /* open addressing over consts: virtual const reg + 1, 0 empty */
    uint32_t hash_cap;
    uint32_t nvar, nval;
    tr__spv_ext *ext;
    uint32_t next, capext;
    tr__spv_tex *tex;
    uint32_t ntex, captex;
    tr__spv_io io_in[256], io_out[256];
    uint32_t nin, nout;
    uint32_t nblocks;
    /* values: per value register, the loop it was written in, its writer, and
       whether a block outside that loop reads it */
    struct vinfo {
        uint32_t loop, pc;
        uint32_t escapes;
    } *vi;
    uint32_t capval;
    uint32_t loops[MAX_INLINE_DEPTH * 8], nloops, next_loop;
    /* functions */
    tfunc *funcs;
    uint32_t nfuncs;
    uint32_t *label_block; /* label id -> block index within its function */
    uint32_t *func_of;     /* function id -> index into funcs + 1 */
    tval *globals;         /* every id's value: ids are unique in a module, and without recursion a
                              function has one instance being translated at a time */
    tval *shadows;         /* phi id -> its shadow registers (slot: the first, var class) */
    uint32_t *skip_patch;  /* pcs of BLOCK / KILL instructions whose skip target is the next BLOCK */
    uint32_t nskip, capskip;
    uint32_t depth;
    /* facts */
    uint32_t texture_mask, ubo_mask, fs_flags;
    uint32_t at_centroid;  /* fragment input locations that hold their centroid value (Centroid or flat) */
    uint32_t cover_reg, count_reg; /* hidden inputs for InterpolateAtCentroid (TR__NOREG: none yet) */
    bool uses_push, kills;
    /* the word being translated, for messages */
    size_t at;
    /* Within a block, what each variable register is known to hold (a value
     * register, stored or loaded earlier in the block): a later load reads
     * it instead of copying the variable.  known[k] + 1 for var register k,
     * 0: unknown; known_set lists the entries to clear when a block begins. */
    uint32_t *known, capknown, *known_set, nknown_set, capknown_set;
    uint8_t *chunk;        /* scratch(): the newest chunk */
    size_t chunk_used, chunk_size;
} xl;

static bool failed(const xl *x)
{
    return x->err != TR_OK;
}

static void fail(xl *x, tr_result code, const char *what, ...) TR_PRINTF(3, 4);
static void fail(xl *x, tr_result code, const char *what, ...)
{
    if (failed(x))
        return;
    char text[300];
    va_list ap;
    va_start(ap, what);
    vsnprintf(text, sizeof text, what, ap);
    va_end(ap);
    const uint32_t op = x->at && x->at < x->m->word_count ? x->m->words[x->at] & 0xffffu : 0u;
    x->err = tr__error(x->ctx, code, "%s: entry point '%s': SPIR-V word %zu (opcode %u): %s", x->fn,
                       x->entry ? x->entry->name : "?", x->at, op, text);
}

static void oom(xl *x)
{
    fail(x, TR_ERROR_OUT_OF_MEMORY, "out of memory while translating");
}

static bool grow(xl *x, void **p, uint32_t *cap, uint32_t need, size_t size)
{
    if (need <= *cap)
        return true;
    uint32_t c = *cap ? *cap : 64;
    while (c < need)
        c *= 2;
    void *q = tr__alloc(x->ctx, (size_t)c * size);
    if (!q) {
        oom(x);
        return false;
    }
    if (*p)
        memcpy(q, *p, (size_t)*cap * size);
    tr__free(x->ctx, *p);
    *p = q;
    *cap = c;
    return true;
}

/* ---- registers ------------------------------------------------------------------------------ */

static uint32_t new_val(xl *x)
{
    if (x->nval >= MAX_REGS) {
        fail(x, TR_ERROR_LIMIT_EXCEEDED, "the program needs more than %u registers", MAX_REGS);
        return 0;
    }
    if (!grow(x, (void **)&x->vi, &x->capval, x->nval + 1, sizeof *x->vi))
        return 0;
    const uint32_t r = x->nval++;
    x->vi[r] = (struct vinfo){x->nloops ? x->loops[x->nloops - 1] : 0, UINT32_MAX, 0};
    return r;
}

static uint32_t new_vals(xl *x, uint32_t n)
{
    const uint32_t first = x->nval;
    for (uint32_t i = 0; i < n && !failed(x); i++)
        new_val(x);
    return first;
}

static uint32_t new_var(xl *x, uint32_t n)
{
    if (x->nvar + n > MAX_REGS || n > MAX_REGS) {
        fail(x, TR_ERROR_LIMIT_EXCEEDED, "the program needs more than %u registers", MAX_REGS);
        return RC_VAR;
    }
    const uint32_t r = x->nvar;
    x->nvar += n;
    return RC_VAR | r;
}

static uint32_t konst(xl *x, uint32_t bits)
{
    if (x->nconst * 2 + 2 > x->hash_cap) {
        const uint32_t cap = x->hash_cap ? x->hash_cap * 2 : 256;
        uint32_t *h = tr__calloc(x->ctx, (size_t)cap * sizeof *h);
        if (!h) {
            oom(x);
            return RC_CONST;
        }
        for (uint32_t i = 0; i < x->nconst; i++) {
            uint32_t k = (x->consts[i] * 2654435761u) & (cap - 1);
            while (h[k])
                k = (k + 1) & (cap - 1);
            h[k] = i + 1;
        }
        tr__free(x->ctx, x->const_hash);
        x->const_hash = h;
        x->hash_cap = cap;
    }
    uint32_t k = (bits * 2654435761u) & (x->hash_cap - 1);
    while (x->const_hash[k]) {
        if (x->consts[x->const_hash[k] - 1] == bits)
            return RC_CONST | (x->const_hash[k] - 1);
        k = (k + 1) & (x->hash_cap - 1);
    }
    if (!grow(x, (void **)&x->consts, &x->capconst, x->nconst + 1, sizeof *x->consts))
        return RC_CONST;
    x->consts[x->nconst] = bits;
    x->const_hash[k] = x->nconst + 1;
    return RC_CONST | x->nconst++;
}


/* A read of register r by the block being emitted: a value written inside
 * a loop and read outside it must be written under the mask. */
static void use(xl *x, uint32_t r)
{
    if (r == TR__NOREG || (r & RC_MASK) || r >= x->nval)
        return;
    const uint32_t l = x->vi[r].loop;
    if (!l)
        return;
    for (uint32_t i = 0; i < x->nloops; i++)
        if (x->loops[i] == l)
            return;
    x->vi[r].escapes = 1;
}

static void def(xl *x, uint32_t r)
{
    if (r != TR__NOREG && !(r & RC_MASK) && r < x->nval) {
        x->vi[r].pc = x->ncode;
        x->vi[r].loop = x->nloops ? x->loops[x->nloops - 1] : 0;
    }
}

static void forget_all(xl *x)
{
    for (uint32_t i = 0; i < x->nknown_set; i++)
        if (x->known_set[i] < x->capknown)
            x->known[x->known_set[i]] = 0;
    x->nknown_set = 0;
}

static uint32_t known_value(const xl *x, uint32_t var)
{
    const uint32_t k = var & ~RC_MASK;
    return (var & RC_MASK) == RC_VAR && k < x->capknown && x->known[k] ? x->known[k] - 1 : TR__NOREG;
}

static void set_known(xl *x, uint32_t var, uint32_t value)
{
    const uint32_t k = var & ~RC_MASK;
    if ((var & RC_MASK) != RC_VAR)
        return;
    if (k >= x->capknown) {
        const uint32_t old = x->capknown;
        if (!grow(x, (void **)&x->known, &x->capknown, k + 1, sizeof *x->known))
            return;
        memset(x->known + old, 0, (size_t)(x->capknown - old) * sizeof *x->known);
    }
    if (!x->known[k] && grow(x, (void **)&x->known_set, &x->capknown_set, x->nknown_set + 1, sizeof *x->known_set))
        x->known_set[x->nknown_set++] = k;
    x->known[k] = value + 1;
}

static void forget_range(xl *x, uint32_t var, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t k = (var & ~RC_MASK) + i;
        if (k < x->capknown)
            x->known[k] = 0;
    }
}

static uint32_t emit5(xl *x, uint16_t op, uint16_t aux, uint32_t d, uint32_t a, uint32_t b, uint32_t c, uint32_t e)
{
    if (failed(x) || !grow(x, (void **)&x->code, &x->capcode, x->ncode + 1, sizeof *x->code))
        return 0;
    x->code[x->ncode] = (tr__ins){op, aux, d, a, b, c, e};
    return x->ncode++;
}

/* An instruction writing d from register operands (NOREG where absent). */
static void alu(xl *x, uint16_t op, uint32_t d, uint32_t a, uint32_t b, uint32_t c)
{
    use(x, a);
    use(x, b);
    use(x, c);
    def(x, d);
    emit5(x, op, 0, d, a, b, c, TR__NOREG);
}

/* ---- types ---------------------------------------------------------------------------------- */

static const tr__spv_type *ty(const xl *x, uint32_t id)
{
    static const tr__spv_type none;
    return id && id < x->m->bound ? &x->m->types[id] : &none;
}

/* Registers a value of the type takes. */
static uint32_t slots(xl *x, uint32_t type)
{
    const tr__spv_type *t = ty(x, type);
    switch (t->op) {
    case SpvOpTypeBool:
    case SpvOpTypeInt:
    case SpvOpTypeFloat:
        return 1;
    case SpvOpTypeVector:
    case SpvOpTypeMatrix:
    case SpvOpTypeArray: {
        const uint64_t n = (uint64_t)t->count * slots(x, t->elem);
        if (n > MAX_REGS) {
            fail(x, TR_ERROR_LIMIT_EXCEEDED, "type %u has more than %u components", type, MAX_REGS);
            return 0;
        }
        return (uint32_t)n;
    }
    case SpvOpTypeStruct: {
        uint64_t n = 0;
        for (uint32_t i = 0; i < t->members; i++)
            n += slots(x, x->m->member_types[t->member0 + i]);
        if (n > MAX_REGS) {
            fail(x, TR_ERROR_LIMIT_EXCEEDED, "type %u has more than %u components", type, MAX_REGS);
            return 0;
        }
        return (uint32_t)n;
    }
    default:
        return 0;
    }
}

/* The scalar type at the bottom of a vector / matrix type. */
static uint32_t scalar_of(const xl *x, uint32_t type)
{
    for (int i = 0; i < 4; i++) {
        const tr__spv_type *t = ty(x, type);
        if (t->op != SpvOpTypeVector && t->op != SpvOpTypeMatrix)
            return type;
        type = t->elem;
    }
    return type;
}



/* ---- values --------------------------------------------------------------------------------- */

static tval *value_slot(xl *x, tval *local, uint32_t id)
{
    if (!id || id >= x->m->bound) {
        fail(x, TR_ERROR_INVALID_ARGUMENT, "id %u is outside the bound", id);
        return NULL;
    }
    if (local && local[id].kind != V_NONE)
        return &local[id];
    if (x->globals[id].kind != V_NONE)
        return &x->globals[id];
    fail(x, TR_ERROR_INVALID_ARGUMENT, "id %u is used but has no value here", id);
    return NULL;
}

/* Component lists live in chunks freed with the translation. */
static void *scratch(xl *x, size_t bytes)
{
    bytes = (bytes + 15) & ~(size_t)15;
    if (!x->chunk || x->chunk_used + bytes > x->chunk_size) {
        const size_t size = bytes > 65536 - 16 ? bytes + 16 : 65536;
        uint8_t *c = tr__alloc(x->ctx, size);
        if (!c) {
            oom(x);
            return NULL;
        }
        memcpy(c, &x->chunk, sizeof x->chunk); /* chain: the first bytes point at the previous chunk */
        x->chunk = c;
        x->chunk_used = 16;
        x->chunk_size = size;
    }
    void *p = x->chunk + x->chunk_used;
    x->chunk_used += bytes;
    return p;
}

static void scratch_free(xl *x)
{
    while (x->chunk) {
        uint8_t *prev;
        memcpy(&prev, x->chunk, sizeof prev);
        tr__free(x->ctx, x->chunk);
        x->chunk = prev;
    }
}

static uint32_t *comp_list(xl *x, uint32_t n)
{
    return scratch(x, (size_t)(n ? n : 1) * sizeof(uint32_t));
}

/* A new value of `type` in fresh value registers. */
static bool fresh(xl *x, tval *v, uint32_t type)
{
    const uint32_t n = slots(x, type);
    *v = (tval){.kind = V_VALUE, .type = type, .n = n, .comp = comp_list(x, n)};
    if (!v->comp)
        return false;
    const uint32_t first = new_vals(x, n);
    for (uint32_t i = 0; i < n; i++)
        v->comp[i] = first + i;
    return !failed(x);
}

/* ---- the function walk: reading instructions ------------------------------------------------ */

static const uint32_t *word_at(const xl *x, size_t at)
{
    return x->m->words + at;
}

static uint32_t ins_len(const xl *x, size_t at)
{
    return x->m->words[at] >> 16;
}

static uint32_t ins_op(const xl *x, size_t at)
{
    return x->m->words[at] & 0xffffu;
}

/* Reads every function's blocks: where each starts and ends, its merge
 * instruction and its successors. */
static void index_functions(xl *x)
{
    const tr__spv_module *m = x->m;
    uint32_t nf = 0;
    for (size_t at = m->code_begin; at < m->word_count; at += ins_len(x, at))
        nf += ins_op(x, at) == SpvOpFunction;
    x->funcs = tr__calloc(x->ctx, (size_t)(nf ? nf : 1) * sizeof *x->funcs);
    x->label_block = tr__alloc(x->ctx, m->bound * sizeof *x->label_block);
    x->func_of = tr__calloc(x->ctx, m->bound * sizeof *x->func_of);
    if (!x->funcs || !x->label_block || !x->func_of)
        return oom(x);
    memset(x->label_block, 0xff, m->bound * sizeof *x->label_block);
    tfunc *f = NULL;
    tblock *b = NULL;
    uint32_t capb = 0;
    for (size_t at = m->code_begin; at < m->word_count && !failed(x); at += ins_len(x, at)) {
        x->at = at;
        const uint32_t *in = word_at(x, at), op = ins_op(x, at), len = ins_len(x, at);
        if (len < 1)
            return fail(x, TR_ERROR_INVALID_ARGUMENT, "an empty instruction");
#define NEED(k)                                                                                                   \
    if (len < (k))                                                                                                \
    return fail(x, TR_ERROR_INVALID_ARGUMENT, "%u words, the instruction needs %u", len, (unsigned)(k))
#define IDOK(v)                                                                                                   \
    if (!(v) || (v) >= m->bound)                                                                                  \
    return fail(x, TR_ERROR_INVALID_ARGUMENT, "id %u is outside the bound", (v))
        switch (op) {
        case SpvOpFunction:
            NEED(5);
            IDOK(in[2]);
            f = &x->funcs[x->nfuncs++];
            f->id = in[2];
            f->at = at;
            x->func_of[in[2]] = x->nfuncs;
            capb = 0;
            b = NULL;
            break;
        case SpvOpFunctionParameter:
            NEED(3);
            if (!f || f->nparams >= TR_ARRAY_SIZE(f->params))
                return fail(x, TR_ERROR_UNSUPPORTED_FORMAT, "more than %zu function parameters",
                            TR_ARRAY_SIZE(f->params));
            f->params[f->nparams++] = in[2];
            break;
        case SpvOpLabel:
            NEED(2);
            IDOK(in[1]);
            if (!f)
                return fail(x, TR_ERROR_INVALID_ARGUMENT, "a label outside a function");
            if (f->nblocks >= MAX_BLOCKS)
                return fail(x, TR_ERROR_LIMIT_EXCEEDED, "a function of more than %u blocks", MAX_BLOCKS);
            if (!grow(x, (void **)&f->blocks, &capb, f->nblocks + 1, sizeof *f->blocks))
                return;
            b = &f->blocks[f->nblocks];
            *b = (tblock){.label = in[1], .first = at + len, .term = 0};
            x->label_block[in[1]] = f->nblocks++;
            break;
        case SpvOpSelectionMerge:
            NEED(2);
            if (b)
                b->merge = in[1];
            break;
        case SpvOpLoopMerge:
            NEED(3);
            if (b) {
                b->merge = in[1];
                b->cont = in[2];
            }
            break;
        case SpvOpBranch:
            NEED(2);
            if (b) {
                b->term = at;
                b->succ[0] = in[1];
                b->nsucc = 1;
            }
            break;
        case SpvOpBranchConditional:
            NEED(4);
            if (b) {
                b->term = at;
                b->succ[0] = in[2];
                b->succ[1] = in[3];
                b->nsucc = 2;
            }
            break;
        case SpvOpSwitch:
            NEED(3);
            if (b)
                b->term = at;
            break;
        case SpvOpKill:
        case SpvOpTerminateInvocation:
        case SpvOpDemoteToHelperInvocation:
            if (f)
                f->kills = true;
            /* fall through */
        case SpvOpReturn:
        case SpvOpReturnValue:
        case SpvOpUnreachable:
            if (b && op != SpvOpDemoteToHelperInvocation)
                b->term = at;
            break;
        default:
            break;
        }
        if (b && op != SpvOpLabel && op != SpvOpLine && op != SpvOpNoLine && op != SpvOpExtInst)
            b->count++;
        else if (b && op == SpvOpExtInst && len >= 4 && in[3] == m->glsl_std_450)
            b->count++;
    }
#undef NEED
#undef IDOK
    for (uint32_t i = 0; i < x->nfuncs && !failed(x); i++)
        for (uint32_t k = 0; k < x->funcs[i].nblocks; k++)
            if (!x->funcs[i].blocks[k].term) {
                x->at = x->funcs[i].blocks[k].first;
                return fail(x, TR_ERROR_INVALID_ARGUMENT, "block %u has no terminator", x->funcs[i].blocks[k].label);
            }
}

static uint32_t block_of(xl *x, const tfunc *f, uint32_t label)
{
    const uint32_t k = label < x->m->bound ? x->label_block[label] : UINT32_MAX;
    if (k >= f->nblocks || f->blocks[k].label != label) {
        fail(x, TR_ERROR_INVALID_ARGUMENT, "branch to %u, not a block of function %u", label, f->id);
        return 0;
    }
    return k;
}

/* The successors a block's DFS visits, in visiting order: its merge block,
 * its continue target, then its branch targets. */
static uint32_t successors(xl *x, const tfunc *f, const tblock *b, uint32_t *out, uint32_t cap)
{
    uint32_t n = 0;
    if (b->merge)
        out[n++] = b->merge;
    if (b->cont)
        out[n++] = b->cont;
    if (ins_op(x, b->term) == SpvOpSwitch) {
        const uint32_t *in = word_at(x, b->term), len = ins_len(x, b->term);
        if (n < cap)
            out[n++] = in[2];
        for (uint32_t k = 4; k < len && n < cap; k += 2)
            out[n++] = in[k];
    } else {
        for (uint32_t i = 0; i < b->nsucc && n < cap; i++)
            out[n++] = b->succ[i];
    }
    (void)f;
    return n;
}

/* The structured order: reverse post-order of a depth-first walk that
 * visits a header's merge block first and a loop's continue target next,
 * so that both come after the construct's body; every edge then goes
 * forward but loops' back edges, and a loop is the range from its header to
 * its back-edge block. */
static void layout(xl *x, tfunc *f)
{
    if (f->laid_out)
        return;
    const uint32_t nb = f->nblocks;
    if (!nb)
        return fail(x, TR_ERROR_INVALID_ARGUMENT, "function %u has no blocks", f->id);
    uint8_t *state = tr__calloc(x->ctx, nb);
    uint32_t *stack = tr__alloc(x->ctx, (size_t)nb * 2 * sizeof *stack);
    uint32_t *post = tr__alloc(x->ctx, (size_t)nb * sizeof *post);
    f->order = tr__alloc(x->ctx, (size_t)nb * sizeof *f->order);
    f->pos = tr__alloc(x->ctx, (size_t)nb * sizeof *f->pos);
    f->loop_end = tr__alloc(x->ctx, (size_t)nb * sizeof *f->loop_end);
    if (!state || !stack || !post || !f->order || !f->pos || !f->loop_end) {
        oom(x);
        goto done;
    }
    uint32_t sp = 0, np = 0;
    stack[sp++] = 0; /* block 0 is the entry */
    stack[sp++] = 0; /* next successor to visit */
    state[0] = 1;
    while (sp && !failed(x)) {
        const uint32_t k = stack[sp - 2], i = stack[sp - 1];
        uint32_t succ[260];
        const uint32_t ns = successors(x, f, &f->blocks[k], succ, TR_ARRAY_SIZE(succ));
        if (i < ns) {
            stack[sp - 1]++;
            const uint32_t s = block_of(x, f, succ[i]);
            if (!failed(x) && !state[s]) {
                state[s] = 1;
                stack[sp++] = s;
                stack[sp++] = 0;
            }
        } else {
            post[np++] = k;
            sp -= 2;
        }
    }
    for (uint32_t i = 0; i < nb; i++) {
        f->pos[i] = UINT32_MAX;
        f->loop_end[i] = UINT32_MAX;
    }
    f->norder = np;
    for (uint32_t i = 0; i < np; i++) {
        f->order[i] = post[np - 1 - i];
        f->pos[f->order[i]] = i;
    }
    /* back edges: only to loop headers, from their back-edge block */
    for (uint32_t i = 0; i < np && !failed(x); i++) {
        const tblock *b = &f->blocks[f->order[i]];
        uint32_t succ[260];
        const uint32_t ns = successors(x, f, b, succ, TR_ARRAY_SIZE(succ));
        for (uint32_t s = b->merge ? (b->cont ? 2 : 1) : 0; s < ns; s++) {
            const uint32_t t = f->pos[block_of(x, f, succ[s])];
            if (t <= i) {
                if (!f->blocks[f->order[t]].cont) {
                    x->at = b->term;
                    fail(x, TR_ERROR_INVALID_ARGUMENT, "block %u branches back to %u, which is not a loop header",
                         b->label, f->blocks[f->order[t]].label);
                    break;
                }
                f->loop_end[t] = f->loop_end[t] == UINT32_MAX || f->loop_end[t] < i ? i : f->loop_end[t];
            }
        }
    }
    f->laid_out = !failed(x);
done:
    tr__free(x->ctx, state);
    tr__free(x->ctx, stack);
    tr__free(x->ctx, post);
}

/* ---- globals: constants, variables, the interface ------------------------------------------- */

static const char *builtin_name(uint32_t b)
{
    switch (b) {
    case SpvBuiltInPosition: return "Position";
    case SpvBuiltInPointSize: return "PointSize";
    case SpvBuiltInClipDistance: return "ClipDistance";
    case SpvBuiltInCullDistance: return "CullDistance";
    case SpvBuiltInVertexIndex: return "VertexIndex";
    case SpvBuiltInInstanceIndex: return "InstanceIndex";
    case SpvBuiltInFragCoord: return "FragCoord";
    case SpvBuiltInFrontFacing: return "FrontFacing";
    case SpvBuiltInPrimitiveId: return "PrimitiveId";
    case SpvBuiltInPointCoord: return "PointCoord";
    case SpvBuiltInHelperInvocation: return "HelperInvocation";
    case SpvBuiltInSampleId: return "SampleId";
    case SpvBuiltInSamplePosition: return "SamplePosition";
    case SpvBuiltInSampleMask: return "SampleMask";
    case SpvBuiltInFragDepth: return "FragDepth";
    case SpvBuiltInFragSizeEXT: return "FragSizeEXT";
    case SpvBuiltInFragInvocationCountEXT: return "FragInvocationCountEXT";
    case SpvBuiltInViewIndex: return "ViewIndex";
    case SpvBuiltInLayer: return "Layer";
    case SpvBuiltInViewportIndex: return "ViewportIndex";
    case SpvBuiltInBaseVertex: return "BaseVertex";
    case SpvBuiltInBaseInstance: return "BaseInstance";
    case SpvBuiltInDrawIndex: return "DrawIndex";
    case SpvBuiltInVertexId: return "VertexId";
    case SpvBuiltInInstanceId: return "InstanceId";
    default: return NULL;
    }
}

static void add_io(xl *x, bool out, uint16_t kind, uint32_t index, uint32_t comp, uint32_t reg)
{
    tr__spv_io *t = out ? x->io_out : x->io_in;
    uint32_t *n = out ? &x->nout : &x->nin;
    if (*n >= 256)
        return fail(x, TR_ERROR_LIMIT_EXCEEDED, "more than 256 interface components");
    t[(*n)++] = (tr__spv_io){kind, (uint16_t)comp, index, reg, 0, false};
}

/* A built-in variable (or block member) of the entry's interface. */
static void builtin_io(xl *x, bool out, uint32_t b, uint32_t reg, uint32_t type)
{
    const uint32_t n = slots(x, type);
    const char *name = builtin_name(b);
    bool ok = true;
    if (!x->fragment && !out) {
        if (b == SpvBuiltInVertexIndex)
            add_io(x, false, TR__IN_VERTEX_INDEX, 0, 0, reg);
        else if (b == SpvBuiltInInstanceIndex)
            add_io(x, false, TR__IN_INSTANCE_INDEX, 0, 0, reg);
        else if (b == SpvBuiltInViewIndex)
            add_io(x, false, TR__IN_VIEW_INDEX, 0, 0, reg);
        else
            ok = false;
    } else if (!x->fragment) {
        if (b == SpvBuiltInPosition)
            for (uint32_t c = 0; c < n && c < 4; c++)
                add_io(x, true, TR__OUT_POSITION, 0, c, reg + c);
        else if (b == SpvBuiltInPointSize)
            add_io(x, true, TR__OUT_POINT_SIZE, 0, 0, reg);
        else if (b != SpvBuiltInClipDistance && b != SpvBuiltInCullDistance) /* declared in gl_PerVertex;
                                                  writing them needs a capability the module refuses */
            ok = false;
    } else if (!out) {
        switch (b) {
        case SpvBuiltInFragCoord:
            for (uint32_t c = 0; c < n && c < 4; c++)
                add_io(x, false, TR__IN_FRAG_COORD, 0, c, reg + c);
            x->fs_flags &= ~TR_FS_NO_FRAG_COORD;
            break;
        case SpvBuiltInFrontFacing: add_io(x, false, TR__IN_FRONT_FACING, 0, 0, reg); break;
        case SpvBuiltInPrimitiveId: add_io(x, false, TR__IN_PRIMITIVE_ID, 0, 0, reg); break;
        case SpvBuiltInPointCoord:
            for (uint32_t c = 0; c < n && c < 2; c++)
                add_io(x, false, TR__IN_POINT_COORD, 0, c, reg + c);
            break;
        case SpvBuiltInHelperInvocation: add_io(x, false, TR__IN_HELPER, 0, 0, reg); break;
        case SpvBuiltInSampleId:
            add_io(x, false, TR__IN_SAMPLE_ID, 0, 0, reg);
            x->fs_flags |= TR_FS_SAMPLE_RATE;
            break;
        case SpvBuiltInSamplePosition:
            for (uint32_t c = 0; c < n && c < 2; c++)
                add_io(x, false, TR__IN_SAMPLE_POSITION, 0, c, reg + c);
            x->fs_flags |= TR_FS_SAMPLE_RATE;
            x->fs_flags &= ~TR_FS_NO_FRAG_COORD;
            break;
        case SpvBuiltInSampleMask: /* int[1]: the fragment's coverage (at most 8 samples: one word) */
            add_io(x, false, TR__IN_SAMPLE_MASK, 0, 0, reg);
            x->fs_flags |= TR_FS_READS_SAMPLE_MASK;
            break;
        case SpvBuiltInFragSizeEXT:
            for (uint32_t c = 0; c < n && c < 2; c++)
                add_io(x, false, TR__IN_FRAG_SIZE, 0, c, reg + c);
            break;
        case SpvBuiltInFragInvocationCountEXT: add_io(x, false, TR__IN_FRAG_INVOCATION_COUNT, 0, 0, reg); break;
        case SpvBuiltInViewIndex: add_io(x, false, TR__IN_VIEW_INDEX, 0, 0, reg); break;
        default: ok = false; break;
        }
    } else {
        if (b == SpvBuiltInFragDepth) {
            add_io(x, true, TR__OUT_DEPTH, 0, 0, reg);
            x->fs_flags |= TR_FS_WRITES_DEPTH;
        } else if (b == SpvBuiltInSampleMask) {
            /* int[1]: element 0 holds every sample's bit (at most 8) */
            add_io(x, true, TR__OUT_SAMPLE_MASK, 0, 0, reg);
            x->fs_flags |= TR_FS_WRITES_SAMPLE_MASK;
        } else {
            ok = false;
        }
    }
    if (!ok) {
        if (name)
            fail(x, TR_ERROR_UNSUPPORTED_FORMAT, "built-in %s as a %s %s is not supported", name,
                 x->fragment ? "fragment" : "vertex", out ? "output" : "input");
        else
            fail(x, TR_ERROR_UNSUPPORTED_FORMAT, "built-in %u is not supported", b);
    }
}

/* 1 float, 2 signed, 3 unsigned: what one location holds (stage matching). */
static uint32_t loc_type(const xl *x, uint32_t type)
{
    const tr__spv_type *t = ty(x, scalar_of(x, type));
    return t->op == SpvOpTypeFloat ? 1u : t->sign ? 2u : 3u;
}

typedef struct io_facts {
    uint32_t varying_mask, flat, noperspective, centroid, sample;
    uint32_t loc_types[TR_MAX_VARYINGS];
    uint32_t color_mask;
} io_facts;

/* Components of `type` at `loc` (and the locations after it). */
static void loc_io(xl *x, io_facts *fx, bool out, uint32_t reg, uint32_t type, uint32_t loc, uint32_t comp,
                   const tr__spv_decor *d, uint32_t index)
{
    const tr__spv_type *t = ty(x, type);
    if (t->op == SpvOpTypeMatrix || t->op == SpvOpTypeArray) {
        const uint32_t es = slots(x, t->elem), el = tr__spv_locations(x->m, t->elem);
        for (uint32_t i = 0; i < t->count && !failed(x); i++)
            loc_io(x, fx, out, reg + i * es, t->elem, loc + i * el, comp, d, index);
        return;
    }
    if (t->op == SpvOpTypeStruct) {
        uint32_t r = reg;
        for (uint32_t i = 0; i < t->members && !failed(x); i++) {
            const uint32_t mt = x->m->member_types[t->member0 + i];
            loc_io(x, fx, out, r, mt, loc, 0, d, index);
            loc += tr__spv_locations(x->m, mt);
            r += slots(x, mt);
        }
        return;
    }
    const uint32_t n = slots(x, type);
    if (n == 0 || comp + n > 4)
        return fail(x, TR_ERROR_UNSUPPORTED_FORMAT, "location %u component %u: %u components do not fit a vec4", loc,
                    comp, n);
    uint16_t kind;
    uint32_t limit;
    const char *what;
    if (!x->fragment && !out)
        kind = TR__IN_ATTRIB, limit = TR_MAX_VERTEX_ATTRIBUTES, what = "vertex input";
    else if (!x->fragment)
        kind = TR__OUT_VARYING, limit = TR_MAX_VARYINGS, what = "vertex output";
    else if (!out)
        kind = TR__IN_VARYING, limit = TR_MAX_VARYINGS, what = "fragment input";
    else
        kind = TR__OUT_COLOR, limit = TR_MAX_COLOR_ATTACHMENTS, what = "fragment output";
    if (kind == TR__OUT_COLOR && index == 1) {
        if (loc != 0)
            return fail(x, TR_ERROR_UNSUPPORTED_FORMAT, "fragment output Index 1 at location %u: only location 0", loc);
        loc = 1; /* blend source 1 is colour 1 (pipeline.h) */
    }
    if (loc >= limit)
        return fail(x, TR_ERROR_LIMIT_EXCEEDED, "%s location %u: at most %u locations", what, loc, limit);
    for (uint32_t c = 0; c < n; c++)
        add_io(x, out, kind, loc, comp + c, reg + c);
    if (kind == TR__IN_VARYING || kind == TR__OUT_VARYING) {
        fx->varying_mask |= 1u << loc;
        fx->loc_types[loc] = loc_type(x, type);
        if (d->flat || loc_type(x, type) != 1)
            fx->flat |= 1u << loc;
        if (d->noperspective)
            fx->noperspective |= 1u << loc;
        if (d->centroid)
            fx->centroid |= 1u << loc;
        if (kind == TR__IN_VARYING && (d->centroid || (fx->flat >> loc & 1u)))
            x->at_centroid |= 1u << loc;
        if (d->sample)
            fx->sample |= 1u << loc;
    }
    if (kind == TR__OUT_COLOR)
        fx->color_mask |= 1u << loc;
}

static bool in_interface(const xl *x, uint32_t id)
{
    for (uint32_t i = 0; i < x->entry->interfaces; i++)
        if (x->m->interface_ids[x->entry->interface0 + i] == id)
            return true;
    return false;
}

/* An Input or Output variable of the entry's interface, in registers from reg. */
static void interface_var(xl *x, io_facts *fx, const tr__spv_var *v, uint32_t reg)
{
    const bool out = v->storage == SpvStorageClassOutput;
    const tr__spv_decor *d = &x->m->decor[v->id];
    const uint32_t type = ty(x, v->type)->elem;
    const tr__spv_type *t = ty(x, type);
    if (d->builtin != TR__SPV_NONE)
        return builtin_io(x, out, d->builtin, reg, type);
    if (t->op == SpvOpTypeStruct) {
        uint32_t r = reg, loc = d->location;
        for (uint32_t i = 0; i < t->members && !failed(x); i++) {
            const uint32_t mt = x->m->member_types[t->member0 + i];
            const tr__spv_decor *md = &x->m->member_decor[t->member0 + i];
            if (md->builtin != TR__SPV_NONE) {
                builtin_io(x, out, md->builtin, r, mt);
            } else {
                if (md->location != TR__SPV_NONE)
                    loc = md->location;
                if (loc == TR__SPV_NONE)
                    return fail(x, TR_ERROR_INVALID_ARGUMENT, "member %u of variable %u has no location", i, v->id);
                tr__spv_decor merged = *md;
                merged.flat |= d->flat;
                merged.noperspective |= d->noperspective;
                merged.centroid |= d->centroid;
                merged.sample |= d->sample;
                loc_io(x, fx, out, r, mt, loc, md->component != TR__SPV_NONE ? md->component : 0, &merged, 0);
                loc += tr__spv_locations(x->m, mt);
            }
            r += slots(x, mt);
        }
        return;
    }
    if (d->location == TR__SPV_NONE)
        return fail(x, TR_ERROR_INVALID_ARGUMENT, "interface variable %u has neither a location nor a built-in", v->id);
    loc_io(x, fx, out, reg, type, d->location, d->component != TR__SPV_NONE ? d->component : 0, d,
           d->index != TR__SPV_NONE ? d->index : 0);
}

static uint32_t array_len(const xl *x, uint32_t type, uint32_t *elem)
{
    const tr__spv_type *t = ty(x, type);
    if (t->op == SpvOpTypeArray) {
        *elem = t->elem;
        return t->count;
    }
    *elem = type;
    return 1;
}

/* A constant's value: its components' constant registers. */
static void zero_value(xl *x, tval *v, uint32_t type)
{
    const uint32_t n = slots(x, type);
    *v = (tval){.kind = V_VALUE, .type = type, .n = n, .comp = comp_list(x, n)};
    for (uint32_t i = 0; v->comp && i < n; i++)
        v->comp[i] = konst(x, 0);
}

static void store_value(xl *x, const tptr *p, const tval *v, bool masked);
static void translate_ins(xl *x, const uint32_t *in, uint32_t len, uint32_t op);

static void globals(xl *x, io_facts *fx)
{
    const tr__spv_module *m = x->m;
    x->globals = tr__calloc(x->ctx, m->bound * sizeof *x->globals);
    if (!x->globals)
        return oom(x);
    for (size_t at = 5; at < m->code_begin && !failed(x); at += ins_len(x, at)) {
        x->at = at;
        const uint32_t *in = word_at(x, at), op = ins_op(x, at), len = ins_len(x, at);
        switch (op) {
        case SpvOpConstant:
        case SpvOpSpecConstant:
        case SpvOpConstantTrue:
        case SpvOpConstantFalse:
        case SpvOpSpecConstantTrue:
        case SpvOpSpecConstantFalse: {
            if (len < 3 || !in[2] || in[2] >= m->bound)
                return fail(x, TR_ERROR_INVALID_ARGUMENT, "a malformed constant");
            tval *v = &x->globals[in[2]];
            *v = (tval){.kind = V_VALUE, .type = in[1], .n = 1, .comp = comp_list(x, 1)};
            const bool is_bool = op != SpvOpConstant && op != SpvOpSpecConstant;
            const uint32_t bits = is_bool ? (m->constant[in[2]] ? ~0u : 0u) : m->constant[in[2]];
            if (v->comp)
                v->comp[0] = konst(x, bits);
            break;
        }
        case SpvOpConstantComposite:
        case SpvOpSpecConstantComposite: {
            if (len < 3 || !in[2] || in[2] >= m->bound)
                return fail(x, TR_ERROR_INVALID_ARGUMENT, "a malformed constant");
            const uint32_t n = slots(x, in[1]);
            tval *v = &x->globals[in[2]];
            *v = (tval){.kind = V_VALUE, .type = in[1], .n = n, .comp = comp_list(x, n)};
            uint32_t k = 0;
            for (uint32_t i = 3; i < len && v->comp; i++) {
                const tval *c = value_slot(x, NULL, in[i]);
                if (!c || c->kind != V_VALUE || k + c->n > n)
                    return fail(x, TR_ERROR_INVALID_ARGUMENT, "constituent %u of constant %u", in[i], in[2]);
                memcpy(v->comp + k, c->comp, c->n * sizeof *c->comp);
                k += c->n;
            }
            if (k != n)
                return fail(x, TR_ERROR_INVALID_ARGUMENT, "constant %u has %u of %u components", in[2], k, n);
            break;
        }
        case SpvOpConstantNull:
        case SpvOpUndef:
            if (len < 3 || !in[2] || in[2] >= m->bound)
                return fail(x, TR_ERROR_INVALID_ARGUMENT, "a malformed constant");
            zero_value(x, &x->globals[in[2]], in[1]);
            break;
        case SpvOpSpecConstantOp: {
            /* specialization constants keep their defaults: the operation is
             * computed once, when a run starts (before the first block) */
            if (len < 4 || len > 64)
                return fail(x, TR_ERROR_INVALID_ARGUMENT, "a malformed OpSpecConstantOp");
            uint32_t tmp[64];
            tmp[0] = ((len - 1) << 16) | in[3];
            tmp[1] = in[1];
            tmp[2] = in[2];
            memcpy(tmp + 3, in + 4, (len - 4) * sizeof *tmp);
            translate_ins(x, tmp, len - 1, in[3]);
            break;
        }
        case SpvOpVariable: {
            if (len < 4)
                return fail(x, TR_ERROR_INVALID_ARGUMENT, "a malformed variable");
            const uint32_t id = in[2], sc = in[3], type = ty(x, in[1])->elem;
            const tr__spv_decor *d = &m->decor[id];
            tval *v = &x->globals[id];
            v->kind = V_PTR;
            v->type = in[1];
            switch (sc) {
            case SpvStorageClassPrivate:
            case SpvStorageClassOutput: {
                const uint32_t n = slots(x, type);
                v->p = (tptr){.space = P_REG, .base = new_var(x, n), .limit = n, .dyn = TR__NOREG, .type = type};
                if (sc == SpvStorageClassOutput && in_interface(x, id)) {
                    const tr__spv_var sv = {id, in[1], sc};
                    interface_var(x, fx, &sv, v->p.base);
                }
                if (len > 4) { /* an initializer */
                    const tval *init = value_slot(x, NULL, in[4]);
                    if (init)
                        store_value(x, &v->p, init, false);
                }
                break;
            }
            case SpvStorageClassInput: {
                const uint32_t n = slots(x, type);
                v->p = (tptr){.space = P_REG, .readonly = 1, .base = new_vals(x, n), .limit = n, .dyn = TR__NOREG,
                              .type = type};
                if (in_interface(x, id)) {
                    const tr__spv_var sv = {id, in[1], sc};
                    interface_var(x, fx, &sv, v->p.base);
                }
                break;
            }
            case SpvStorageClassUniform:
            case SpvStorageClassPushConstant: {
                uint32_t elem;
                if (array_len(x, type, &elem) != 1 || ty(x, type)->op == SpvOpTypeArray)
                    return fail(x, TR_ERROR_UNSUPPORTED_FORMAT, "variable %u: arrays of uniform blocks are not supported",
                                id);
                uint32_t buf = TR__BUF_PUSH;
                if (sc == SpvStorageClassUniform) {
                    if (d->binding == TR__SPV_NONE || d->binding >= TR_MAX_UNIFORM_BUFFERS)
                        return fail(x, TR_ERROR_UNSUPPORTED_FORMAT,
                                    "uniform block %u at binding %d: bindings are 0 .. %u", id,
                                    d->binding == TR__SPV_NONE ? -1 : (int)d->binding, TR_MAX_UNIFORM_BUFFERS - 1);
                    buf = d->binding;
                }
                v->p = (tptr){.space = P_BUF, .base = buf, .dyn = TR__NOREG, .type = type, .vstride = 4};
                break;
            }
            case SpvStorageClassUniformConstant: {
                uint32_t elem;
                const uint32_t n = array_len(x, type, &elem);
                const tr__spv_type *et = ty(x, elem);
                if (et->op != SpvOpTypeSampledImage && et->op != SpvOpTypeImage && et->op != SpvOpTypeSampler)
                    return fail(x, TR_ERROR_UNSUPPORTED_FORMAT, "variable %u: a UniformConstant that is not an image or sampler",
                                id);
                const uint32_t b = d->binding == TR__SPV_NONE ? 0 : d->binding;
                if (et->op != SpvOpTypeSampler && ((uint64_t)b + n > TR_MAX_TEXTURES))
                    return fail(x, TR_ERROR_LIMIT_EXCEEDED, "image variable %u at binding %u (array of %u): texture slots are 0 .. %u",
                                id, b, n, TR_MAX_TEXTURES - 1);
                v->p = (tptr){.space = P_IMAGE, .base = b, .limit = n, .dyn = TR__NOREG, .type = type};
                break;
            }
            default:
                return fail(x, TR_ERROR_UNSUPPORTED_FORMAT, "variable %u in storage class %u", id, sc);
            }
            break;
        }
        default:
            break;
        }
    }
}

/* ---- memory --------------------------------------------------------------------------------- */

/* dyn + idx * scale, in a new value register (dyn may be NOREG). */
static uint32_t dyn_add(xl *x, uint32_t dyn, uint32_t idx, uint32_t scale)
{
    uint32_t t = idx;
    if (scale != 1) {
        t = new_val(x);
        alu(x, TR__OP_IMUL, t, idx, konst(x, scale), TR__NOREG);
    }
    if (dyn == TR__NOREG)
        return t;
    const uint32_t s = new_val(x);
    alu(x, TR__OP_IADD, s, dyn, t, TR__NOREG);
    return s;
}

/* Scalars of a buffer value at byte offset off (+ dyn), in component order. */
static void load_buf(xl *x, const tptr *p, uint32_t type, uint32_t off, uint32_t mstride, bool row_major,
                     uint32_t vstride, uint32_t *out, uint32_t *k)
{
    const tr__spv_type *t = ty(x, type);
    switch (t->op) {
    case SpvOpTypeBool: {
        const uint32_t r = new_val(x), b = new_val(x);
        use(x, p->dyn);
        def(x, r);
        emit5(x, TR__OP_LOAD_BUF, (uint16_t)p->base, r, TR__NOREG, p->dyn, off, TR__NOREG);
        alu(x, TR__OP_INE, b, r, konst(x, 0), TR__NOREG);
        out[(*k)++] = b;
        return;
    }
    case SpvOpTypeInt:
    case SpvOpTypeFloat: {
        const uint32_t r = new_val(x);
        use(x, p->dyn);
        def(x, r);
        emit5(x, TR__OP_LOAD_BUF, (uint16_t)p->base, r, TR__NOREG, p->dyn, off, TR__NOREG);
        out[(*k)++] = r;
        return;
    }
    case SpvOpTypeVector:
        for (uint32_t i = 0; i < t->count; i++)
            load_buf(x, p, t->elem, off + i * vstride, 0, false, 4, out, k);
        return;
    case SpvOpTypeMatrix:
        for (uint32_t c = 0; c < t->count; c++)
            load_buf(x, p, t->elem, row_major ? off + c * 4 : off + c * mstride, 0, false, row_major ? mstride : 4,
                     out, k);
        return;
    case SpvOpTypeArray: {
        const uint32_t stride = x->m->decor[type].array_stride;
        if (stride == TR__SPV_NONE)
            return fail(x, TR_ERROR_INVALID_ARGUMENT, "array type %u in a buffer has no ArrayStride", type);
        for (uint32_t i = 0; i < t->count && !failed(x); i++)
            load_buf(x, p, t->elem, off + i * stride, mstride, row_major, vstride, out, k);
        return;
    }
    case SpvOpTypeStruct:
        for (uint32_t i = 0; i < t->members && !failed(x); i++) {
            const tr__spv_decor *md = &x->m->member_decor[t->member0 + i];
            if (md->offset == TR__SPV_NONE)
                return fail(x, TR_ERROR_INVALID_ARGUMENT, "member %u of struct %u in a buffer has no Offset", i, type);
            load_buf(x, p, x->m->member_types[t->member0 + i], off + md->offset,
                     md->matrix_stride != TR__SPV_NONE ? md->matrix_stride : 16, md->row_major, 4, out, k);
        }
        return;
    default:
        return fail(x, TR_ERROR_UNSUPPORTED_FORMAT, "loading type %u from a buffer", type);
    }
}

static void load_value(xl *x, const tptr *p, tval *out)
{
    if (p->space == P_IMAGE) {
        *out = (tval){.kind = V_HANDLE, .type = p->type, .slot = p->base + p->off, .slot_reg = p->dyn,
                      .slot_limit = p->limit - p->off};
        const tr__spv_type *t = ty(x, p->type);
        if (t->op != SpvOpTypeSampler) {
            uint32_t elem, n = array_len(x, p->type, &elem);
            if (p->dyn != TR__NOREG)
                n = p->limit - p->off;
            for (uint32_t i = 0; i < n; i++)
                x->texture_mask |= 1u << ((p->base + p->off + i) & 31);
        }
        return;
    }
    const uint32_t n = slots(x, p->type);
    *out = (tval){.kind = V_VALUE, .type = p->type, .n = n, .comp = comp_list(x, n)};
    if (!out->comp)
        return;
    if (p->space == P_BUF) {
        uint32_t k = 0;
        if (p->base == TR__BUF_PUSH)
            x->uses_push = true;
        else
            x->ubo_mask |= 1u << p->base;
        load_buf(x, p, p->type, p->off, p->mstride, p->row_major, p->vstride, out->comp, &k);
        return;
    }
    if (p->off + n > p->limit)
        return fail(x, TR_ERROR_INVALID_ARGUMENT, "a load past the end of its variable");
    if (p->dyn == TR__NOREG && p->readonly) {
        for (uint32_t i = 0; i < n; i++)
            out->comp[i] = p->base + p->off + i;
        return;
    }
    for (uint32_t i = 0; i < n && !failed(x); i++) {
        const uint32_t slot = p->base + p->off + i, k = p->dyn == TR__NOREG ? known_value(x, slot) : TR__NOREG;
        if (k != TR__NOREG) { /* stored or loaded earlier in this block */
            out->comp[i] = k;
            continue;
        }
        const uint32_t r = new_val(x);
        out->comp[i] = r;
        if (p->dyn == TR__NOREG) {
            alu(x, TR__OP_MOV, r, slot, TR__NOREG, TR__NOREG);
            set_known(x, slot, r);
        } else {
            use(x, p->dyn);
            def(x, r);
            emit5(x, TR__OP_LOAD_IDX, 0, r, p->base + p->off + i, p->dyn, p->limit - p->off - i, TR__NOREG);
        }
    }
}

/* masked: under the block's mask (every store but the prologue's initializers). */
static void store_value(xl *x, const tptr *p, const tval *v, bool masked)
{
    if (p->space != P_REG || p->readonly)
        return fail(x, TR_ERROR_UNSUPPORTED_FORMAT, "a store to a read-only variable");
    if (v->kind != V_VALUE || p->off + v->n > p->limit)
        return fail(x, TR_ERROR_INVALID_ARGUMENT, "a store of a value that does not fit its pointer");
    for (uint32_t i = 0; i < v->n && !failed(x); i++) {
        use(x, v->comp[i]);
        if (p->dyn == TR__NOREG) {
            emit5(x, masked ? TR__OP_MOVM : TR__OP_MOV, 0, p->base + p->off + i, v->comp[i], TR__NOREG, TR__NOREG,
                  TR__NOREG);
            set_known(x, p->base + p->off + i, v->comp[i]);
        } else {
            forget_range(x, p->base, p->limit);
            use(x, p->dyn);
            emit5(x, TR__OP_STORE_IDX, 0, p->base + p->off + i, v->comp[i], p->dyn, p->limit - p->off - i,
                  TR__NOREG);
        }
    }
}

/* One index step of an access chain. */
static void chain_step(xl *x, tptr *p, uint32_t index_id)
{
    const tval *iv = value_slot(x, NULL, index_id);
    if (!iv || iv->kind != V_VALUE || iv->n != 1)
        return fail(x, TR_ERROR_INVALID_ARGUMENT, "access chain index %u is not a scalar", index_id);
    const uint32_t ir = iv->comp[0];
    const bool is_const = (ir & RC_MASK) == RC_CONST;
    const uint32_t c = is_const ? x->consts[ir & ~RC_MASK] : 0;
    const tr__spv_type *t = ty(x, p->type);
    if (t->op == SpvOpTypeStruct) {
        if (!is_const || c >= t->members)
            return fail(x, TR_ERROR_INVALID_ARGUMENT, "struct index %u is not a constant member", index_id);
        const uint32_t mi = t->member0 + c;
        if (p->space == P_REG) {
            for (uint32_t i = 0; i < c; i++)
                p->off += slots(x, x->m->member_types[t->member0 + i]);
        } else if (p->space == P_BUF) {
            const tr__spv_decor *md = &x->m->member_decor[mi];
            if (md->offset == TR__SPV_NONE)
                return fail(x, TR_ERROR_INVALID_ARGUMENT, "member %u of struct %u in a buffer has no Offset", c,
                            p->type);
            p->off += md->offset;
            p->mstride = md->matrix_stride != TR__SPV_NONE ? md->matrix_stride : 16;
            p->row_major = md->row_major;
            p->vstride = 4;
        }
        p->type = x->m->member_types[mi];
        return;
    }
    if (t->op != SpvOpTypeArray && t->op != SpvOpTypeVector && t->op != SpvOpTypeMatrix &&
        t->op != SpvOpTypeRuntimeArray)
        return fail(x, TR_ERROR_INVALID_ARGUMENT, "access chain into type %u, not a composite", p->type);
    uint32_t stride;
    if (p->space == P_REG) {
        stride = slots(x, t->elem);
    } else if (p->space == P_IMAGE) {
        stride = 1;
    } else if (t->op == SpvOpTypeArray || t->op == SpvOpTypeRuntimeArray) {
        stride = x->m->decor[p->type].array_stride;
        if (stride == TR__SPV_NONE)
            return fail(x, TR_ERROR_INVALID_ARGUMENT, "array type %u in a buffer has no ArrayStride", p->type);
    } else if (t->op == SpvOpTypeMatrix) {
        stride = p->row_major ? 4 : p->mstride;
        p->vstride = p->row_major ? p->mstride : 4;
    } else {
        stride = p->vstride;
    }
    if (t->op == SpvOpTypeRuntimeArray && p->space != P_BUF)
        return fail(x, TR_ERROR_UNSUPPORTED_FORMAT, "runtime arrays are not supported");
    if (is_const && (t->op == SpvOpTypeRuntimeArray || c < t->count))
        p->off += c * stride;
    else if (is_const)
        p->off += (t->count - 1) * stride; /* out of bounds: the last element (undefined in SPIR-V) */
    else
        p->dyn = dyn_add(x, p->dyn, ir, stride);
    p->type = t->elem;
}

/* ---- instructions --------------------------------------------------------------------------- */

static tval *operand(xl *x, uint32_t id)
{
    tval *v = value_slot(x, NULL, id);
    if (v && v->kind != V_VALUE) {
        fail(x, TR_ERROR_INVALID_ARGUMENT, "id %u is not a value", id);
        return NULL;
    }
    return v;
}

static tval *result(xl *x, uint32_t id)
{
    if (!id || id >= x->m->bound) {
        fail(x, TR_ERROR_INVALID_ARGUMENT, "result id %u is outside the bound", id);
        return NULL;
    }
    return &x->globals[id];
}

/* Component i of an operand, a scalar operand repeated. */
static uint32_t comp_of(const tval *v, uint32_t i)
{
    return v->n == 1 ? v->comp[0] : v->comp[i < v->n ? i : v->n - 1];
}

/* A component-wise instruction over operands a, b (c): d[i] = op(a[i], b[i]). */
static void componentwise(xl *x, uint16_t op, const uint32_t *in, uint32_t nargs)
{
    tval *r = result(x, in[2]);
    const tval *a = operand(x, in[3]);
    const tval *b = nargs > 1 ? operand(x, in[4]) : NULL;
    const tval *c = nargs > 2 ? operand(x, in[5]) : NULL;
    if (!r || !a || (nargs > 1 && !b) || (nargs > 2 && !c) || !fresh(x, r, in[1]))
        return;
    for (uint32_t i = 0; i < r->n; i++)
        alu(x, op, r->comp[i], comp_of(a, i), b ? comp_of(b, i) : TR__NOREG, c ? comp_of(c, i) : TR__NOREG);
}

/* ((a0*b0 + a1*b1) + a2*b2) + ...: dot products and matrix products, left to right. */
static uint32_t dot(xl *x, const uint32_t *a, uint32_t as, const uint32_t *b, uint32_t bs, uint32_t n)
{
    uint32_t acc = new_val(x);
    alu(x, TR__OP_FMUL, acc, a[0], b[0], TR__NOREG);
    for (uint32_t k = 1; k < n; k++) {
        const uint32_t p = new_val(x), s = new_val(x);
        alu(x, TR__OP_FMUL, p, a[k * as], b[k * bs], TR__NOREG);
        alu(x, TR__OP_FADD, s, acc, p, TR__NOREG);
        acc = s;
    }
    return acc;
}

/* Modf / Frexp: the first result is the value, the second goes through
 * the pointer operand (in[6]). */
static void ext_through_pointer(xl *x, const uint32_t *in, tr__spv_ext *e, tval *r, const tval *arg)
{
    const tval *pv = value_slot(x, NULL, in[6]);
    if (!fresh(x, r, in[1]) || !pv || pv->kind != V_PTR)
        return;
    tval second;
    if (!fresh(x, &second, pv->p.type) || second.n != r->n || arg->n != r->n || r->n > 4)
        return fail(x, TR_ERROR_INVALID_ARGUMENT, "Modf / Frexp operands of different sizes");
    e->comps = r->n;
    e->nargs = 1;
    for (uint32_t i = 0; i < r->n; i++) {
        e->res[i] = r->comp[i];
        e->res2[i] = second.comp[i];
        e->arg[0][i] = arg->comp[i];
        use(x, arg->comp[i]);
        def(x, e->res[i]);
        def(x, e->res2[i]);
    }
    emit5(x, TR__OP_EXT, 0, TR__NOREG, x->next++, TR__NOREG, TR__NOREG, TR__NOREG);
    store_value(x, &pv->p, &second, true);
}

/* GLSL.std.450 InterpolateAtSample / AtOffset: the input at an offset from
 * the fragment's centre (a sample's position minus 1/2, or the operand):
 * v + dFdx(v) * ox + dFdy(v) * oy, with the quad's fine derivatives (exact
 * for inputs linear in the framebuffer; shader.h). */
static void interpolate_at(xl *x, const uint32_t *in, uint32_t len, uint32_t inst, tval *r)
{
    const tval *pv = value_slot(x, NULL, in[5]), *o = len > 6 ? operand(x, in[6]) : NULL;
    if (!pv || pv->kind != V_PTR || !o)
        return fail(x, TR_ERROR_INVALID_ARGUMENT, "interpolation of a non-pointer");
    if (!x->fragment)
        return fail(x, TR_ERROR_INVALID_ARGUMENT, "interpolation outside a fragment shader");
    tval v;
    load_value(x, &pv->p, &v);
    if (failed(x) || !fresh(x, r, in[1]) || r->n != v.n)
        return;
    uint32_t off[2];
    if (inst == GLSLstd450InterpolateAtOffset) {
        if (o->n < 2)
            return fail(x, TR_ERROR_INVALID_ARGUMENT, "InterpolateAtOffset's offset is not a vec2");
        off[0] = o->comp[0];
        off[1] = o->comp[1];
    } else {
        for (uint16_t c = 0; c < 2; c++) {
            off[c] = new_val(x);
            use(x, o->comp[0]);
            def(x, off[c]);
            emit5(x, TR__OP_SAMPLE_OFFSET, c, off[c], o->comp[0], TR__NOREG, TR__NOREG, TR__NOREG);
        }
    }
    for (uint32_t c = 0; c < v.n; c++) {
        const uint32_t dx = new_val(x), dy = new_val(x), t1 = new_val(x), t2 = new_val(x), t3 = new_val(x);
        alu(x, TR__OP_DDX_FINE, dx, v.comp[c], TR__NOREG, TR__NOREG);
        alu(x, TR__OP_DDY_FINE, dy, v.comp[c], TR__NOREG, TR__NOREG);
        alu(x, TR__OP_FMUL, t1, dx, off[0], TR__NOREG);
        alu(x, TR__OP_FADD, t2, v.comp[c], t1, TR__NOREG);
        alu(x, TR__OP_FMUL, t3, dy, off[1], TR__NOREG);
        alu(x, TR__OP_FADD, r->comp[c], t2, t3, TR__NOREG);
    }
}

/* A fragment input the module declares no variable for, filled before
 * the run like a declared one (in *reg, made on first use). */
static uint32_t hidden_input(xl *x, uint16_t kind, uint32_t *reg)
{
    if (*reg == TR__NOREG) {
        const uint32_t r = new_val(x);
        if (failed(x))
            return r;
        x->vi[r].loop = 0; /* written before the run, outside every loop */
        add_io(x, false, kind, 0, 0, r);
        *reg = r;
    }
    return *reg;
}

/* Does component register `reg` of an input loaded from p hold its
 * centroid value already?  A register of the input itself (a static load)
 * answers for its location; a dynamic load's copy for the whole variable. */
static bool holds_centroid(const xl *x, const tptr *p, uint32_t reg)
{
    bool all = true;
    for (uint32_t i = 0; i < x->nin; i++) {
        const tr__spv_io *io = &x->io_in[i];
        if (io->kind != TR__IN_VARYING)
            continue;
        const bool at = (x->at_centroid >> io->index) & 1u;
        if (io->reg == reg)
            return at;
        if (io->reg >= p->base && io->reg < p->base + p->limit)
            all = all && at;
    }
    return all;
}

/* Where InterpolateAtCentroid moves an input, from the coverage m
 * (tr_fs_block.sample_mask_in): off, the offset from the centre of the
 * lowest covered sample, ctz(m); `move`, a bool, set where the pixel
 * misses a sample (ctz(~m) is one of the pass's samples: its
 * TR__OP_SAMPLE_OFFSET is not (0, 0), as it is past the samples, and no
 * standard position lies at the centre), has one (m != 0: not a helper),
 * and the call shades the whole pixel (FragInvocationCount 1). */
static void centroid_offset(xl *x, uint32_t off[2], uint32_t *move)
{
    const uint32_t m = hidden_input(x, TR__IN_SAMPLE_MASK, &x->cover_reg);
    const uint32_t count = hidden_input(x, TR__IN_FRAG_INVOCATION_COUNT, &x->count_reg);
    x->fs_flags |= TR_FS_READS_SAMPLE_MASK;
    uint32_t idx[2], ctz_of[2] = {m, new_val(x)};
    alu(x, TR__OP_NOT, ctz_of[1], m, TR__NOREG, TR__NOREG);
    for (int k = 0; k < 2; k++) { /* ctz(v) = popcount((v & -v) - 1): 32 for 0 */
        const uint32_t neg = new_val(x), low = new_val(x), below = new_val(x);
        idx[k] = new_val(x);
        alu(x, TR__OP_INEG, neg, ctz_of[k], TR__NOREG, TR__NOREG);
        alu(x, TR__OP_AND, low, ctz_of[k], neg, TR__NOREG);
        alu(x, TR__OP_ISUB, below, low, konst(x, 1), TR__NOREG);
        alu(x, TR__OP_BCNT, idx[k], below, TR__NOREG, TR__NOREG);
    }
    uint32_t gap[2];
    for (uint16_t c = 0; c < 2; c++) {
        off[c] = new_val(x);
        gap[c] = new_val(x);
        use(x, idx[0]);
        def(x, off[c]);
        emit5(x, TR__OP_SAMPLE_OFFSET, c, off[c], idx[0], TR__NOREG, TR__NOREG, TR__NOREG);
        const uint32_t missing = new_val(x);
        use(x, idx[1]);
        def(x, missing);
        emit5(x, TR__OP_SAMPLE_OFFSET, c, missing, idx[1], TR__NOREG, TR__NOREG, TR__NOREG);
        alu(x, TR__OP_FNE, gap[c], missing, konst(x, 0), TR__NOREG);
    }
    const uint32_t partial = new_val(x), covered = new_val(x), pixel = new_val(x), some = new_val(x);
    *move = new_val(x);
    alu(x, TR__OP_OR, partial, gap[0], gap[1], TR__NOREG);
    alu(x, TR__OP_INE, covered, m, konst(x, 0), TR__NOREG);
    alu(x, TR__OP_IEQ, pixel, count, konst(x, 1), TR__NOREG);
    alu(x, TR__OP_AND, some, partial, covered, TR__NOREG);
    alu(x, TR__OP_AND, *move, some, pixel, TR__NOREG);
}

/* GLSL.std.450 InterpolateAtCentroid.  An input decorated Centroid holds
 * its value at the centroid already (pipeline.h, centroid_mask), and a
 * flat one is the same everywhere: their value, as loaded.  Any other
 * input is moved where the rasterizer puts a centroid input, as
 * interpolate_at moves it (v + dFdx(v) * ox + dFdy(v) * oy, with the
 * quad's fine derivatives: exact for inputs linear in the framebuffer,
 * first-order for perspective-correct ones), and keeps its value where
 * that is the centre (centroid_offset). */
static void interpolate_at_centroid(xl *x, const uint32_t *in, tval *r)
{
    const tval *pv = value_slot(x, NULL, in[5]);
    if (!pv || pv->kind != V_PTR || pv->p.space != P_REG)
        return fail(x, TR_ERROR_INVALID_ARGUMENT, "InterpolateAtCentroid of a non-pointer");
    if (!x->fragment)
        return fail(x, TR_ERROR_INVALID_ARGUMENT, "interpolation outside a fragment shader");
    tval v;
    load_value(x, &pv->p, &v);
    if (failed(x))
        return;
    bool exact = true;
    for (uint32_t c = 0; c < v.n; c++)
        exact = exact && holds_centroid(x, &pv->p, v.comp[c]);
    if (exact) {
        *r = v;
        return;
    }
    if (!fresh(x, r, in[1]) || r->n != v.n)
        return;
    uint32_t off[2], move;
    centroid_offset(x, off, &move);
    for (uint32_t c = 0; c < v.n && !failed(x); c++) {
        if (holds_centroid(x, &pv->p, v.comp[c])) {
            r->comp[c] = v.comp[c];
            continue;
        }
        const uint32_t dx = new_val(x), dy = new_val(x), t1 = new_val(x), t2 = new_val(x), t3 = new_val(x),
                       t4 = new_val(x);
        alu(x, TR__OP_DDX_FINE, dx, v.comp[c], TR__NOREG, TR__NOREG);
        alu(x, TR__OP_DDY_FINE, dy, v.comp[c], TR__NOREG, TR__NOREG);
        alu(x, TR__OP_FMUL, t1, dx, off[0], TR__NOREG);
        alu(x, TR__OP_FADD, t2, v.comp[c], t1, TR__NOREG);
        alu(x, TR__OP_FMUL, t3, dy, off[1], TR__NOREG);
        alu(x, TR__OP_FADD, t4, t2, t3, TR__NOREG);
        alu(x, TR__OP_SELECT, r->comp[c], t4, v.comp[c], move);
    }
}

static void ext_record(xl *x, const uint32_t *in, uint32_t len)
{
    const uint32_t inst = in[4], nargs = len - 5;
    tval *r = result(x, in[2]);
    if (!r || nargs > 3)
        return fail(x, TR_ERROR_INVALID_ARGUMENT, "GLSL.std.450 instruction %u with %u operands", inst, nargs);
    const tval *a[3] = {NULL, NULL, NULL};
    const bool pointer_args = inst == GLSLstd450Modf || inst == GLSLstd450Frexp ||
                              inst == GLSLstd450InterpolateAtCentroid || inst == GLSLstd450InterpolateAtSample ||
                              inst == GLSLstd450InterpolateAtOffset;
    /* (the interpolation functions read their own operands) */
    for (uint32_t i = 0; i < nargs; i++)
        if (!(pointer_args && i != (inst == GLSLstd450Modf || inst == GLSLstd450Frexp ? 0u : 9u)) &&
            !(a[i] = operand(x, in[5 + i])))
            return;
    switch (inst) {
    case GLSLstd450PackDouble2x32:
    case GLSLstd450UnpackDouble2x32:
        return fail(x, TR_ERROR_UNSUPPORTED_FORMAT, "GLSL.std.450 %s needs 64-bit types",
                    inst == GLSLstd450PackDouble2x32 ? "PackDouble2x32" : "UnpackDouble2x32");
    case GLSLstd450InterpolateAtSample:
    case GLSLstd450InterpolateAtOffset:
        return interpolate_at(x, in, len, inst, r);
    case GLSLstd450InterpolateAtCentroid:
        return interpolate_at_centroid(x, in, r);
    default:
        if (inst > GLSLstd450NClamp)
            return fail(x, TR_ERROR_UNSUPPORTED_FORMAT, "GLSL.std.450 instruction %u is not defined", inst);
        break;
    }
    if (!grow(x, (void **)&x->ext, &x->capext, x->next + 1, sizeof *x->ext))
        return;
    tr__spv_ext *e = &x->ext[x->next];
    memset(e, 0xff, sizeof *e);
    e->inst = inst;
    e->nargs = nargs;
    e->dim = a[0] ? a[0]->n : 1;
    const uint32_t rtype = in[1];
    const tr__spv_type *rt = ty(x, rtype);
    if (inst == GLSLstd450ModfStruct || inst == GLSLstd450FrexpStruct) {
        /* a struct of two members: (fraction or mantissa, whole or exponent) */
        if (!fresh(x, r, rtype) || r->n % 2)
            return;
        e->comps = r->n / 2;
        for (uint32_t i = 0; i < e->comps; i++) {
            e->res[i] = r->comp[i];
            e->res2[i] = r->comp[e->comps + i];
        }
    } else if (inst == GLSLstd450Modf || inst == GLSLstd450Frexp) {
        return ext_through_pointer(x, in, e, r, a[0]);
    } else {
        if (!fresh(x, r, rtype))
            return;
        e->comps = rt->op == SpvOpTypeMatrix ? 1 : r->n;
    }
    if (r->n > 16)
        return fail(x, TR_ERROR_UNSUPPORTED_FORMAT, "GLSL.std.450 result of %u components", r->n);
    if (inst != GLSLstd450ModfStruct && inst != GLSLstd450FrexpStruct)
        for (uint32_t i = 0; i < r->n; i++)
            e->res[i] = r->comp[i];
    if (inst == GLSLstd450Determinant || inst == GLSLstd450MatrixInverse) {
        const uint32_t cols = ty(x, a[0]->type)->count;
        e->dim = cols;
        if (cols < 2 || cols > 4 || a[0]->n != cols * cols)
            return fail(x, TR_ERROR_INVALID_ARGUMENT, "a %u-component matrix is not square", a[0]->n);
    }
    for (uint32_t k = 0; k < nargs; k++) {
        const uint32_t n = a[k]->n > 16 ? 16 : a[k]->n;
        /* scalar operands of vector forms (FMix's a, Step's edge) repeat */
        const uint32_t want = (inst == GLSLstd450Length || inst == GLSLstd450Distance || inst == GLSLstd450Normalize ||
                               inst == GLSLstd450Cross || inst == GLSLstd450FaceForward || inst == GLSLstd450Reflect ||
                               inst == GLSLstd450Refract || inst == GLSLstd450Determinant ||
                               inst == GLSLstd450MatrixInverse || (inst >= GLSLstd450PackSnorm4x8 &&
                                                                   inst <= GLSLstd450UnpackHalf2x16) ||
                               inst == GLSLstd450UnpackSnorm4x8 || inst == GLSLstd450UnpackUnorm4x8)
                                  ? n
                                  : e->comps;
        for (uint32_t i = 0; i < want && i < 16; i++) {
            e->arg[k][i] = comp_of(a[k], i);
            use(x, e->arg[k][i]);
        }
    }
    for (uint32_t i = 0; i < r->n; i++)
        def(x, r->comp[i]);
    for (uint32_t i = 0; i < 4; i++)
        if (e->res2[i] != TR__NOREG)
            def(x, e->res2[i]);
    emit5(x, TR__OP_EXT, 0, TR__NOREG, x->next++, TR__NOREG, TR__NOREG, TR__NOREG);
}

/* The image type behind a handle's (array of) sampled image / image type. */
static const tr__spv_type *image_type(xl *x, uint32_t type)
{
    uint32_t elem;
    array_len(x, type, &elem);
    const tr__spv_type *t = ty(x, elem);
    if (t->op == SpvOpTypeSampledImage)
        t = ty(x, t->elem);
    return t;
}

static void tex_record(xl *x, const uint32_t *in, uint32_t len, uint32_t op)
{
    tval *r = result(x, in[2]);
    const tval *h = value_slot(x, NULL, in[3]);
    if (!r || !h)
        return;
    if (h->kind != V_HANDLE)
        return fail(x, TR_ERROR_INVALID_ARGUMENT, "id %u is not an image", in[3]);
    const tr__spv_type *it = image_type(x, h->type);
    if (it->op != SpvOpTypeImage || it->image_dim != SpvDim2D)
        return fail(x, TR_ERROR_UNSUPPORTED_FORMAT, "images of dimension %s are not supported (2D only)",
                    it->image_dim == SpvDim1D ? "1D" : it->image_dim == SpvDim3D ? "3D" : it->image_dim == SpvDimCube ? "Cube"
                    : it->image_dim == SpvDimRect ? "Rect" : "other than 2D");
    if (it->image_ms)
        return fail(x, TR_ERROR_UNSUPPORTED_FORMAT, "multisampled images are not supported");
    if (!grow(x, (void **)&x->tex, &x->captex, x->ntex + 1, sizeof *x->tex))
        return;
    tr__spv_tex *t = &x->tex[x->ntex];
    memset(t, 0xff, sizeof *t);
    t->slot = h->slot;
    t->slot_reg = h->slot_reg;
    t->slot_limit = h->slot_limit;
    t->const_offset[0] = t->const_offset[1] = 0;
    t->arrayed = it->image_arrayed;
    t->ncoord = 0;
    use(x, t->slot_reg);
    uint32_t k = 4; /* the next operand */
    bool dref = false, proj = false;
    switch (op) {
    case SpvOpImageSampleImplicitLod:
    case SpvOpImageSampleExplicitLod: t->kind = TR__TEX_SAMPLE; break;
    case SpvOpImageSampleDrefImplicitLod:
    case SpvOpImageSampleDrefExplicitLod: t->kind = TR__TEX_SAMPLE, dref = true; break;
    case SpvOpImageSampleProjImplicitLod:
    case SpvOpImageSampleProjExplicitLod: t->kind = TR__TEX_SAMPLE, proj = true; break;
    case SpvOpImageSampleProjDrefImplicitLod:
    case SpvOpImageSampleProjDrefExplicitLod: t->kind = TR__TEX_SAMPLE, proj = dref = true; break;
    case SpvOpImageFetch: t->kind = TR__TEX_FETCH; break;
    case SpvOpImageQuerySizeLod:
    case SpvOpImageQuerySize: t->kind = TR__TEX_SIZE; break;
    case SpvOpImageQueryLevels: t->kind = TR__TEX_LEVELS; break;
    case SpvOpImageQueryLod: t->kind = TR__TEX_QUERY_LOD; break;
    default: return fail(x, TR_ERROR_UNSUPPORTED_FORMAT, "image instruction %u is not supported", op);
    }
    if (t->kind == TR__TEX_SAMPLE || t->kind == TR__TEX_FETCH || t->kind == TR__TEX_QUERY_LOD) {
        if (len <= k)
            return fail(x, TR_ERROR_INVALID_ARGUMENT, "an image instruction without its coordinate");
        const tval *c = operand(x, in[k++]);
        if (!c)
            return;
        const uint32_t need = 2 + (t->arrayed && t->kind != TR__TEX_QUERY_LOD) + proj;
        if (c->n < need)
            return fail(x, TR_ERROR_INVALID_ARGUMENT, "a coordinate of %u components", c->n);
        t->coord[0] = c->comp[0];
        t->coord[1] = c->comp[1];
        t->ncoord = 2;
        if (t->arrayed && t->kind != TR__TEX_QUERY_LOD)
            t->coord[t->ncoord++] = c->comp[2];
        if (proj)
            t->proj = c->comp[c->n - 1];
        if (!t->arrayed)
            t->arrayed = 0;
    }
    if (dref) {
        const tval *d = len > k ? operand(x, in[k++]) : NULL;
        if (!d)
            return fail(x, TR_ERROR_INVALID_ARGUMENT, "a Dref sample without its reference");
        t->dref = d->comp[0];
    }
    if (op == SpvOpImageQuerySizeLod) {
        const tval *l = len > k ? operand(x, in[k++]) : NULL;
        if (!l)
            return;
        t->lod = l->comp[0];
    }
    if (len > k && (t->kind == TR__TEX_SAMPLE || t->kind == TR__TEX_FETCH)) {
        const uint32_t mask = in[k++];
        if (mask & ~(uint32_t)(SpvImageOperandsBiasMask | SpvImageOperandsLodMask | SpvImageOperandsGradMask |
                               SpvImageOperandsConstOffsetMask | SpvImageOperandsOffsetMask |
                               SpvImageOperandsMinLodMask | SpvImageOperandsNonPrivateTexelMask |
                               SpvImageOperandsVolatileTexelMask | SpvImageOperandsSignExtendMask |
                               SpvImageOperandsZeroExtendMask))
            return fail(x, TR_ERROR_UNSUPPORTED_FORMAT, "image operands 0x%x are not supported", mask);
        const tval *ops[8];
        uint32_t nops = 0;
        while (k < len && nops < 8 && !failed(x))
            ops[nops++] = operand(x, in[k++]);
        if (failed(x))
            return;
        uint32_t o = 0;
#define NEXT_OP (o < nops ? ops[o++] : NULL)
        if (mask & SpvImageOperandsBiasMask) {
            const tval *v = NEXT_OP;
            if (v)
                t->bias = v->comp[0];
        }
        if (mask & SpvImageOperandsLodMask) {
            const tval *v = NEXT_OP;
            if (v)
                t->lod = v->comp[0];
        }
        if (mask & SpvImageOperandsGradMask) {
            const tval *dx = NEXT_OP, *dy = NEXT_OP;
            if (!dx || !dy || dx->n < 2 || dy->n < 2)
                return fail(x, TR_ERROR_INVALID_ARGUMENT, "Grad operands of the wrong size");
            t->grad[0] = dx->comp[0];
            t->grad[1] = dx->comp[1];
            t->grad[2] = dy->comp[0];
            t->grad[3] = dy->comp[1];
        }
        if (mask & SpvImageOperandsConstOffsetMask) {
            const tval *v = NEXT_OP;
            if (!v || v->n < 2 || (v->comp[0] & RC_MASK) != RC_CONST || (v->comp[1] & RC_MASK) != RC_CONST)
                return fail(x, TR_ERROR_INVALID_ARGUMENT, "ConstOffset is not a constant ivec2");
            t->const_offset[0] = (int32_t)x->consts[v->comp[0] & ~RC_MASK];
            t->const_offset[1] = (int32_t)x->consts[v->comp[1] & ~RC_MASK];
        }
        if (mask & SpvImageOperandsOffsetMask) {
            const tval *v = NEXT_OP;
            if (!v || v->n < 2)
                return fail(x, TR_ERROR_INVALID_ARGUMENT, "Offset is not an ivec2");
            t->offset[0] = v->comp[0];
            t->offset[1] = v->comp[1];
        }
        if (mask & SpvImageOperandsMinLodMask) {
            const tval *v = NEXT_OP;
            if (v)
                t->min_lod = v->comp[0];
        }
#undef NEXT_OP
    }
    const uint32_t regs[] = {t->coord[0], t->coord[1], t->coord[2], t->proj, t->dref, t->bias, t->lod, t->grad[0],
                             t->grad[1], t->grad[2], t->grad[3], t->min_lod, t->offset[0], t->offset[1]};
    for (size_t i = 0; i < TR_ARRAY_SIZE(regs); i++)
        if (i >= 3 || i < t->ncoord)
            use(x, regs[i]);
    if (!fresh(x, r, in[1]))
        return;
    t->nout = r->n < 4 ? r->n : 4;
    for (uint32_t i = 0; i < t->nout; i++) {
        t->out[i] = r->comp[i];
        def(x, r->comp[i]);
    }
    if (!t->arrayed)
        t->coord[2] = TR__NOREG;
    x->texture_mask |= 1u << (t->slot & 31);
    emit5(x, TR__OP_TEX, 0, TR__NOREG, x->ntex++, TR__NOREG, TR__NOREG, TR__NOREG);
}


/* SPIR-V instructions that are one lane instruction per component of their
 * result, with 1, 2 or 3 operands (a scalar operand repeats). */
static const struct componentwise_op {
    uint16_t spv, op;
    uint8_t operands;
} componentwise_ops[] = {
    {SpvOpSNegate, TR__OP_INEG, 1},
    {SpvOpFNegate, TR__OP_FNEG, 1},
    {SpvOpIAdd, TR__OP_IADD, 2},
    {SpvOpFAdd, TR__OP_FADD, 2},
    {SpvOpISub, TR__OP_ISUB, 2},
    {SpvOpFSub, TR__OP_FSUB, 2},
    {SpvOpIMul, TR__OP_IMUL, 2},
    {SpvOpFMul, TR__OP_FMUL, 2},
    {SpvOpUDiv, TR__OP_UDIV, 2},
    {SpvOpSDiv, TR__OP_SDIV, 2},
    {SpvOpFDiv, TR__OP_FDIV, 2},
    {SpvOpUMod, TR__OP_UMOD, 2},
    {SpvOpSRem, TR__OP_SREM, 2},
    {SpvOpSMod, TR__OP_SMOD, 2},
    {SpvOpFRem, TR__OP_FREM, 2},
    {SpvOpFMod, TR__OP_FMOD, 2},
    {SpvOpMatrixTimesScalar, TR__OP_FMUL, 2},
    {SpvOpShiftRightLogical, TR__OP_SHR, 2},
    {SpvOpShiftRightArithmetic, TR__OP_SAR, 2},
    {SpvOpShiftLeftLogical, TR__OP_SHL, 2},
    {SpvOpLogicalOr, TR__OP_OR, 2},
    {SpvOpLogicalNotEqual, TR__OP_XOR, 2},
    {SpvOpLogicalAnd, TR__OP_AND, 2},
    {SpvOpLogicalNot, TR__OP_NOT, 1},
    {SpvOpLogicalEqual, TR__OP_IEQ, 2},
    {SpvOpBitReverse, TR__OP_BREV, 1},
    {SpvOpBitCount, TR__OP_BCNT, 1},
    {SpvOpBitFieldSExtract, TR__OP_BFE_S, 3},
    {SpvOpBitFieldUExtract, TR__OP_BFE_U, 3},
    {SpvOpIEqual, TR__OP_IEQ, 2},
    {SpvOpINotEqual, TR__OP_INE, 2},
    {SpvOpUGreaterThan, TR__OP_UGT, 2},
    {SpvOpSGreaterThan, TR__OP_SGT, 2},
    {SpvOpUGreaterThanEqual, TR__OP_UGE, 2},
    {SpvOpSGreaterThanEqual, TR__OP_SGE, 2},
    {SpvOpULessThan, TR__OP_ULT, 2},
    {SpvOpSLessThan, TR__OP_SLT, 2},
    {SpvOpULessThanEqual, TR__OP_ULE, 2},
    {SpvOpSLessThanEqual, TR__OP_SLE, 2},
    {SpvOpFOrdEqual, TR__OP_FEQ, 2},
    {SpvOpFUnordEqual, TR__OP_FUEQ, 2},
    {SpvOpFOrdNotEqual, TR__OP_FNE, 2},
    {SpvOpFUnordNotEqual, TR__OP_FUNE, 2},
    {SpvOpFOrdLessThan, TR__OP_FLT, 2},
    {SpvOpFUnordLessThan, TR__OP_FULT, 2},
    {SpvOpFOrdGreaterThan, TR__OP_FGT, 2},
    {SpvOpFUnordGreaterThan, TR__OP_FUGT, 2},
    {SpvOpFOrdLessThanEqual, TR__OP_FLE, 2},
    {SpvOpFUnordLessThanEqual, TR__OP_FULE, 2},
    {SpvOpFOrdGreaterThanEqual, TR__OP_FGE, 2},
    {SpvOpFUnordGreaterThanEqual, TR__OP_FUGE, 2},
    {SpvOpIsNan, TR__OP_ISNAN, 1},
    {SpvOpIsInf, TR__OP_ISINF, 1},
    {SpvOpConvertFToU, TR__OP_F2U, 1},
    {SpvOpConvertFToS, TR__OP_F2S, 1},
    {SpvOpConvertSToF, TR__OP_S2F, 1},
    {SpvOpConvertUToF, TR__OP_U2F, 1},
    {SpvOpVectorTimesScalar, TR__OP_FMUL, 2},
    {SpvOpBitwiseOr, TR__OP_OR, 2},
    {SpvOpBitwiseXor, TR__OP_XOR, 2},
    {SpvOpBitwiseAnd, TR__OP_AND, 2},
    {SpvOpNot, TR__OP_NOT, 1},
};

static const struct componentwise_op *find_componentwise(uint32_t op)
{
    for (size_t i = 0; i < TR_ARRAY_SIZE(componentwise_ops); i++)
        if (componentwise_ops[i].spv == op)
            return &componentwise_ops[i];
    return NULL;
}

/* The names of instructions a shader may hold that tilerast does not run. */
static const char *op_name(uint32_t op)
{
    switch (op) {
    case SpvOpImageTexelPointer: return "OpImageTexelPointer";
    case SpvOpCopyMemorySized: return "OpCopyMemorySized";
    case SpvOpPtrAccessChain: return "OpPtrAccessChain";
    case SpvOpArrayLength: return "OpArrayLength";
    case SpvOpGenericPtrMemSemantics: return "OpGenericPtrMemSemantics";
    case SpvOpInBoundsPtrAccessChain: return "OpInBoundsPtrAccessChain";
    case SpvOpImageSampleProjDrefExplicitLod: return "OpImageSampleProjDrefExplicitLod";
    case SpvOpImageGather: return "OpImageGather";
    case SpvOpImageDrefGather: return "OpImageDrefGather";
    case SpvOpImageRead: return "OpImageRead";
    case SpvOpImageWrite: return "OpImageWrite";
    case SpvOpImageQueryFormat: return "OpImageQueryFormat";
    case SpvOpImageQueryOrder: return "OpImageQueryOrder";
    case SpvOpImageQuerySamples: return "OpImageQuerySamples";
    case SpvOpConvertPtrToU: return "OpConvertPtrToU";
    case SpvOpConvertUToPtr: return "OpConvertUToPtr";
    case SpvOpPtrCastToGeneric: return "OpPtrCastToGeneric";
    case SpvOpGenericCastToPtr: return "OpGenericCastToPtr";
    case SpvOpGenericCastToPtrExplicit: return "OpGenericCastToPtrExplicit";
    case SpvOpQuantizeToF16: return "OpQuantizeToF16";
    case SpvOpSatConvertSToU: return "OpSatConvertSToU";
    case SpvOpSatConvertUToS: return "OpSatConvertUToS";
    case SpvOpIsFinite: return "OpIsFinite";
    case SpvOpIsNormal: return "OpIsNormal";
    case SpvOpSignBitSet: return "OpSignBitSet";
    case SpvOpLessOrGreater: return "OpLessOrGreater";
    case SpvOpOrdered: return "OpOrdered";
    case SpvOpUnordered: return "OpUnordered";
    case SpvOpEmitVertex: return "OpEmitVertex";
    case SpvOpEndPrimitive: return "OpEndPrimitive";
    case SpvOpEmitStreamVertex: return "OpEmitStreamVertex";
    case SpvOpEndStreamPrimitive: return "OpEndStreamPrimitive";
    case SpvOpControlBarrier: return "OpControlBarrier";
    case SpvOpMemoryBarrier: return "OpMemoryBarrier";
    case SpvOpAtomicLoad: return "OpAtomicLoad";
    case SpvOpAtomicStore: return "OpAtomicStore";
    case SpvOpAtomicExchange: return "OpAtomicExchange";
    case SpvOpAtomicCompareExchange: return "OpAtomicCompareExchange";
    case SpvOpAtomicCompareExchangeWeak: return "OpAtomicCompareExchangeWeak";
    case SpvOpAtomicIIncrement: return "OpAtomicIIncrement";
    case SpvOpAtomicIDecrement: return "OpAtomicIDecrement";
    case SpvOpAtomicIAdd: return "OpAtomicIAdd";
    case SpvOpAtomicISub: return "OpAtomicISub";
    case SpvOpAtomicSMin: return "OpAtomicSMin";
    case SpvOpAtomicUMin: return "OpAtomicUMin";
    case SpvOpAtomicSMax: return "OpAtomicSMax";
    case SpvOpAtomicUMax: return "OpAtomicUMax";
    case SpvOpAtomicAnd: return "OpAtomicAnd";
    case SpvOpAtomicOr: return "OpAtomicOr";
    case SpvOpAtomicXor: return "OpAtomicXor";
    case SpvOpImageSparseSampleImplicitLod: return "OpImageSparseSampleImplicitLod";
    case SpvOpImageSparseSampleExplicitLod: return "OpImageSparseSampleExplicitLod";
    case SpvOpImageSparseFetch: return "OpImageSparseFetch";
    case SpvOpImageSparseGather: return "OpImageSparseGather";
    case SpvOpImageSparseTexelsResident: return "OpImageSparseTexelsResident";
    case SpvOpImageSparseRead: return "OpImageSparseRead";
    case SpvOpGroupNonUniformElect: return "OpGroupNonUniformElect";
    case SpvOpGroupNonUniformAll: return "OpGroupNonUniformAll";
    case SpvOpGroupNonUniformAny: return "OpGroupNonUniformAny";
    case SpvOpGroupNonUniformBallot: return "OpGroupNonUniformBallot";
    case SpvOpGroupNonUniformBroadcast: return "OpGroupNonUniformBroadcast";
    case SpvOpGroupNonUniformShuffle: return "OpGroupNonUniformShuffle";
    case SpvOpGroupNonUniformIAdd: return "OpGroupNonUniformIAdd";
    case SpvOpGroupNonUniformFAdd: return "OpGroupNonUniformFAdd";
    case SpvOpGroupNonUniformQuadBroadcast: return "OpGroupNonUniformQuadBroadcast";
    case SpvOpGroupNonUniformQuadSwap: return "OpGroupNonUniformQuadSwap";
    case SpvOpLifetimeStart: return "OpLifetimeStart";
    case SpvOpLifetimeStop: return "OpLifetimeStop";
    case SpvOpSizeOf: return "OpSizeOf";
    case SpvOpImageSampleFootprintNV: return "OpImageSampleFootprintNV";
    case SpvOpBeginInvocationInterlockEXT: return "OpBeginInvocationInterlockEXT";
    case SpvOpEndInvocationInterlockEXT: return "OpEndInvocationInterlockEXT";
    case SpvOpReadClockKHR: return "OpReadClockKHR";
    default: return NULL;
    }
}

/* Instructions that are not control flow.  `frag` tells derivatives apart. */
static void translate_ins(xl *x, const uint32_t *in, uint32_t len, uint32_t op)
{
#define NEED(k)                                                                                                   \
    if (len < (k))                                                                                                \
    return fail(x, TR_ERROR_INVALID_ARGUMENT, "%u words, the instruction needs %u", len, (unsigned)(k))
    switch (op) {
    case SpvOpNop:
    case SpvOpLine:
    case SpvOpNoLine:
    case SpvOpName:
    case SpvOpMemberName:
    case SpvOpString:
    case SpvOpSource:
    case SpvOpSourceContinued:
    case SpvOpSourceExtension:
    case SpvOpModuleProcessed:
    case SpvOpSelectionMerge:
    case SpvOpLoopMerge:
        return;
    case SpvOpUndef:
        NEED(3);
        zero_value(x, result(x, in[2]), in[1]);
        return;
    case SpvOpVariable: { /* function-local */
        NEED(4);
        tval *v = result(x, in[2]);
        if (!v)
            return;
        const uint32_t type = ty(x, in[1])->elem, n = slots(x, type);
        *v = (tval){.kind = V_PTR, .type = in[1],
                    .p = {.space = P_REG, .base = new_var(x, n), .limit = n, .dyn = TR__NOREG, .type = type}};
        if (len > 4) {
            const tval *init = operand(x, in[4]);
            if (init)
                store_value(x, &v->p, init, true);
        }
        return;
    }
    case SpvOpLoad: {
        NEED(4);
        const tval *pv = value_slot(x, NULL, in[3]);
        tval *r = result(x, in[2]);
        if (!pv || !r)
            return;
        if (pv->kind != V_PTR)
            return fail(x, TR_ERROR_INVALID_ARGUMENT, "OpLoad from %u, not a pointer", in[3]);
        load_value(x, &pv->p, r);
        return;
    }
    case SpvOpStore: {
        NEED(3);
        const tval *pv = value_slot(x, NULL, in[1]), *v = operand(x, in[2]);
        if (!pv || !v)
            return;
        if (pv->kind != V_PTR)
            return fail(x, TR_ERROR_INVALID_ARGUMENT, "OpStore to %u, not a pointer", in[1]);
        store_value(x, &pv->p, v, true);
        return;
    }
    case SpvOpCopyMemory: {
        NEED(3);
        const tval *d = value_slot(x, NULL, in[1]), *s = value_slot(x, NULL, in[2]);
        if (!d || !s || d->kind != V_PTR || s->kind != V_PTR)
            return fail(x, TR_ERROR_INVALID_ARGUMENT, "OpCopyMemory between non-pointers");
        tval v;
        load_value(x, &s->p, &v);
        if (!failed(x))
            store_value(x, &d->p, &v, true);
        return;
    }
    case SpvOpAccessChain:
    case SpvOpInBoundsAccessChain: {
        NEED(4);
        const tval *base = value_slot(x, NULL, in[3]);
        tval *r = result(x, in[2]);
        if (!base || !r)
            return;
        if (base->kind != V_PTR)
            return fail(x, TR_ERROR_INVALID_ARGUMENT, "access chain base %u is not a pointer", in[3]);
        tptr p = base->p;
        for (uint32_t k = 4; k < len && !failed(x); k++)
            chain_step(x, &p, in[k]);
        *r = (tval){.kind = V_PTR, .type = in[1], .p = p};
        return;
    }
    case SpvOpCopyObject:
    case SpvOpCopyLogical: {
        NEED(4);
        const tval *v = value_slot(x, NULL, in[3]);
        tval *r = result(x, in[2]);
        if (v && r) {
            *r = *v;
            r->type = in[1];
        }
        return;
    }
    case SpvOpCompositeConstruct: {
        NEED(3);
        tval *r = result(x, in[2]);
        const uint32_t n = slots(x, in[1]);
        if (!r)
            return;
        *r = (tval){.kind = V_VALUE, .type = in[1], .n = n, .comp = comp_list(x, n)};
        uint32_t k = 0;
        for (uint32_t i = 3; i < len && r->comp; i++) {
            const tval *c = operand(x, in[i]);
            if (!c || k + c->n > n)
                return fail(x, TR_ERROR_INVALID_ARGUMENT, "constituent %u does not fit", in[i]);
            memcpy(r->comp + k, c->comp, c->n * sizeof *c->comp);
            k += c->n;
        }
        if (k != n)
            return fail(x, TR_ERROR_INVALID_ARGUMENT, "%u of %u components constructed", k, n);
        return;
    }
    case SpvOpCompositeExtract:
    case SpvOpCompositeInsert: {
        const bool insert = op == SpvOpCompositeInsert;
        NEED(insert ? 5u : 4u);
        const tval *obj = operand(x, in[insert ? 4 : 3]), *part = insert ? operand(x, in[3]) : NULL;
        tval *r = result(x, in[2]);
        if (!obj || !r || (insert && !part))
            return;
        uint32_t type = obj->type, off = 0;
        for (uint32_t k = insert ? 5 : 4; k < len; k++) {
            const tr__spv_type *t = ty(x, type);
            const uint32_t i = in[k];
            if (t->op == SpvOpTypeStruct) {
                if (i >= t->members)
                    return fail(x, TR_ERROR_INVALID_ARGUMENT, "member %u of a %u-member struct", i, t->members);
                for (uint32_t j = 0; j < i; j++)
                    off += slots(x, x->m->member_types[t->member0 + j]);
                type = x->m->member_types[t->member0 + i];
            } else if (t->op == SpvOpTypeVector || t->op == SpvOpTypeMatrix || t->op == SpvOpTypeArray) {
                if (i >= t->count)
                    return fail(x, TR_ERROR_INVALID_ARGUMENT, "index %u of %u", i, t->count);
                off += i * slots(x, t->elem);
                type = t->elem;
            } else {
                return fail(x, TR_ERROR_INVALID_ARGUMENT, "an index into a scalar");
            }
        }
        const uint32_t n = slots(x, type);
        if (off + n > obj->n)
            return fail(x, TR_ERROR_INVALID_ARGUMENT, "an index past the composite");
        if (!insert) {
            *r = (tval){.kind = V_VALUE, .type = in[1], .n = n, .comp = obj->comp + off};
            return;
        }
        if (part->n != n)
            return fail(x, TR_ERROR_INVALID_ARGUMENT, "an inserted object of the wrong size");
        tval v = {.kind = V_VALUE, .type = in[1], .n = obj->n, .comp = comp_list(x, obj->n)};
        if (!v.comp)
            return;
        memcpy(v.comp, obj->comp, obj->n * sizeof *v.comp);
        memcpy(v.comp + off, part->comp, n * sizeof *v.comp);
        *r = v;
        return;
    }
    case SpvOpVectorShuffle: {
        NEED(5);
        const tval *a = operand(x, in[3]), *b = operand(x, in[4]);
        tval *r = result(x, in[2]);
        if (!a || !b || !r)
            return;
        const uint32_t n = len - 5;
        *r = (tval){.kind = V_VALUE, .type = in[1], .n = n, .comp = comp_list(x, n)};
        for (uint32_t i = 0; i < n && r->comp; i++) {
            const uint32_t s = in[5 + i];
            r->comp[i] = s == 0xffffffffu ? konst(x, 0) : s < a->n ? a->comp[s] : s - a->n < b->n ? b->comp[s - a->n]
                                                                                                   : konst(x, 0);
        }
        return;
    }
    case SpvOpVectorExtractDynamic: {
        NEED(5);
        const tval *v = operand(x, in[3]), *i = operand(x, in[4]);
        tval *r = result(x, in[2]);
        if (!v || !i || !r || !fresh(x, r, in[1]))
            return;
        const uint32_t tmp = new_vals(x, v->n);
        for (uint32_t k = 0; k < v->n; k++)
            alu(x, TR__OP_MOV, tmp + k, v->comp[k], TR__NOREG, TR__NOREG);
        use(x, i->comp[0]);
        def(x, r->comp[0]);
        emit5(x, TR__OP_LOAD_IDX, 0, r->comp[0], tmp, i->comp[0], v->n, TR__NOREG);
        return;
    }
    case SpvOpVectorInsertDynamic: {
        NEED(6);
        const tval *v = operand(x, in[3]), *c = operand(x, in[4]), *i = operand(x, in[5]);
        tval *r = result(x, in[2]);
        if (!v || !c || !i || !r || !fresh(x, r, in[1]))
            return;
        for (uint32_t k = 0; k < v->n; k++) {
            const uint32_t eq = new_val(x);
            alu(x, TR__OP_IEQ, eq, i->comp[0], konst(x, k), TR__NOREG);
            alu(x, TR__OP_SELECT, r->comp[k], c->comp[0], v->comp[k], eq);
        }
        return;
    }
    case SpvOpTranspose: {
        NEED(4);
        const tval *a = operand(x, in[3]);
        tval *r = result(x, in[2]);
        if (!a || !r)
            return;
        const uint32_t cols = ty(x, in[1])->count, rows = ty(x, ty(x, in[1])->elem)->count;
        *r = (tval){.kind = V_VALUE, .type = in[1], .n = cols * rows, .comp = comp_list(x, cols * rows)};
        if (a->n != cols * rows)
            return fail(x, TR_ERROR_INVALID_ARGUMENT, "transpose of the wrong size");
        for (uint32_t c = 0; c < cols && r->comp; c++)
            for (uint32_t w = 0; w < rows; w++)
                r->comp[c * rows + w] = a->comp[w * cols + c];
        return;
    }
    /* arithmetic */
    case SpvOpDot: {
        NEED(5);
        const tval *a = operand(x, in[3]), *b = operand(x, in[4]);
        tval *r = result(x, in[2]);
        if (!a || !b || !r || a->n != b->n || !a->n)
            return fail(x, TR_ERROR_INVALID_ARGUMENT, "OpDot operands");
        *r = (tval){.kind = V_VALUE, .type = in[1], .n = 1, .comp = comp_list(x, 1)};
        if (r->comp)
            r->comp[0] = dot(x, a->comp, 1, b->comp, 1, a->n);
        return;
    }
    case SpvOpMatrixTimesVector:
    case SpvOpVectorTimesMatrix:
    case SpvOpMatrixTimesMatrix: {
        NEED(5);
        const tval *a = operand(x, in[3]), *b = operand(x, in[4]);
        tval *r = result(x, in[2]);
        if (!a || !b || !r || !fresh(x, r, in[1]))
            return;
        if (op == SpvOpMatrixTimesVector) { /* r[row] = sum_k M[k][row] * v[k] */
            const uint32_t cols = b->n, rows = r->n;
            if (a->n != cols * rows)
                return fail(x, TR_ERROR_INVALID_ARGUMENT, "matrix times vector of the wrong sizes");
            for (uint32_t w = 0; w < rows; w++)
                alu(x, TR__OP_MOV, r->comp[w], dot(x, a->comp + w, rows, b->comp, 1, cols), TR__NOREG, TR__NOREG);
        } else if (op == SpvOpVectorTimesMatrix) { /* r[col] = dot(v, M[col]) */
            const uint32_t rows = a->n, cols = r->n;
            if (b->n != cols * rows)
                return fail(x, TR_ERROR_INVALID_ARGUMENT, "vector times matrix of the wrong sizes");
            for (uint32_t c = 0; c < cols; c++)
                alu(x, TR__OP_MOV, r->comp[c], dot(x, a->comp, 1, b->comp + c * rows, 1, rows), TR__NOREG, TR__NOREG);
        } else { /* R[c][w] = sum_k A[k][w] * B[c][k] */
            const uint32_t rcols = ty(x, in[1])->count, rows = r->n / (rcols ? rcols : 1);
            const uint32_t inner = rows ? a->n / rows : 0;
            if (!rcols || !rows || a->n != inner * rows || b->n != rcols * inner)
                return fail(x, TR_ERROR_INVALID_ARGUMENT, "matrix times matrix of the wrong sizes");
            for (uint32_t c = 0; c < rcols; c++)
                for (uint32_t w = 0; w < rows; w++)
                    alu(x, TR__OP_MOV, r->comp[c * rows + w], dot(x, a->comp + w, rows, b->comp + c * inner, 1, inner),
                        TR__NOREG, TR__NOREG);
        }
        return;
    }
    case SpvOpOuterProduct: {
        NEED(5);
        const tval *a = operand(x, in[3]), *b = operand(x, in[4]);
        tval *r = result(x, in[2]);
        if (!a || !b || !r || !fresh(x, r, in[1]) || r->n != a->n * b->n)
            return;
        for (uint32_t c = 0; c < b->n; c++)
            for (uint32_t w = 0; w < a->n; w++)
                alu(x, TR__OP_FMUL, r->comp[c * a->n + w], a->comp[w], b->comp[c], TR__NOREG);
        return;
    }
    case SpvOpIAddCarry:
    case SpvOpISubBorrow: {
        NEED(5);
        const tval *a = operand(x, in[3]), *b = operand(x, in[4]);
        tval *r = result(x, in[2]);
        if (!a || !b || !r || !fresh(x, r, in[1]) || r->n != 2 * a->n)
            return;
        for (uint32_t i = 0; i < a->n; i++) {
            const uint32_t lo = r->comp[i], hi = r->comp[a->n + i], t = new_val(x);
            alu(x, op == SpvOpIAddCarry ? TR__OP_IADD : TR__OP_ISUB, lo, a->comp[i], b->comp[i], TR__NOREG);
            /* carry: lo < a; borrow: a < b */
            if (op == SpvOpIAddCarry)
                alu(x, TR__OP_ULT, t, lo, a->comp[i], TR__NOREG);
            else
                alu(x, TR__OP_ULT, t, a->comp[i], b->comp[i], TR__NOREG);
            alu(x, TR__OP_AND, hi, t, konst(x, 1), TR__NOREG);
        }
        return;
    }
    case SpvOpUMulExtended:
    case SpvOpSMulExtended: { /* a struct (low bits, high bits) */
        NEED(5);
        const tval *a = operand(x, in[3]), *b = operand(x, in[4]);
        tval *r = result(x, in[2]);
        if (!a || !b || !r || !fresh(x, r, in[1]) || r->n != 2 * a->n)
            return;
        for (uint32_t i = 0; i < a->n; i++) {
            alu(x, TR__OP_IMUL, r->comp[i], a->comp[i], b->comp[i], TR__NOREG);
            alu(x, op == SpvOpUMulExtended ? TR__OP_UMUL_HI : TR__OP_SMUL_HI, r->comp[a->n + i], a->comp[i],
                b->comp[i], TR__NOREG);
        }
        return;
    }
    /* bits */
    case SpvOpBitFieldInsert: {
        NEED(7);
        const tval *a = operand(x, in[3]), *b = operand(x, in[4]), *o = operand(x, in[5]), *c = operand(x, in[6]);
        tval *r = result(x, in[2]);
        if (!a || !b || !o || !c || !r || !fresh(x, r, in[1]))
            return;
        for (uint32_t i = 0; i < r->n; i++) {
            use(x, comp_of(a, i));
            use(x, comp_of(b, i));
            use(x, o->comp[0]);
            use(x, c->comp[0]);
            def(x, r->comp[i]);
            emit5(x, TR__OP_BFI, 0, r->comp[i], comp_of(a, i), comp_of(b, i), o->comp[0], c->comp[0]);
        }
        return;
    }
    /* relational */
    case SpvOpSelect: {
        NEED(6);
        const tval *c = operand(x, in[3]), *a = operand(x, in[4]), *b = operand(x, in[5]);
        tval *r = result(x, in[2]);
        if (!c || !a || !b || !r || !fresh(x, r, in[1]))
            return;
        for (uint32_t i = 0; i < r->n; i++)
            alu(x, TR__OP_SELECT, r->comp[i], a->comp[i], b->comp[i], comp_of(c, i));
        return;
    }
    case SpvOpAny:
    case SpvOpAll: {
        NEED(4);
        const tval *a = operand(x, in[3]);
        tval *r = result(x, in[2]);
        if (!a || !r || !fresh(x, r, in[1]))
            return;
        uint32_t acc = a->comp[0];
        for (uint32_t i = 1; i < a->n; i++) {
            const uint32_t t = i + 1 == a->n ? r->comp[0] : new_val(x);
            alu(x, op == SpvOpAny ? TR__OP_OR : TR__OP_AND, t, acc, a->comp[i], TR__NOREG);
            acc = t;
        }
        if (a->n == 1)
            alu(x, TR__OP_MOV, r->comp[0], acc, TR__NOREG, TR__NOREG);
        return;
    }
    /* conversions */
    case SpvOpUConvert:
    case SpvOpSConvert:
    case SpvOpFConvert:
    case SpvOpBitcast: { /* 32-bit to 32-bit: the same bits */
        NEED(4);
        const tval *a = operand(x, in[3]);
        tval *r = result(x, in[2]);
        if (a && r) {
            *r = *a;
            r->type = in[1];
        }
        return;
    }
    /* derivatives */
    case SpvOpDPdx:
    case SpvOpDPdxFine:
    case SpvOpDPdy:
    case SpvOpDPdyFine:
    case SpvOpDPdxCoarse:
    case SpvOpDPdyCoarse:
    case SpvOpFwidth:
    case SpvOpFwidthFine:
    case SpvOpFwidthCoarse: {
        NEED(4);
        if (!x->fragment)
            return fail(x, TR_ERROR_INVALID_ARGUMENT, "derivatives outside a fragment shader");
        const bool coarse = op == SpvOpDPdxCoarse || op == SpvOpDPdyCoarse || op == SpvOpFwidthCoarse;
        const uint16_t ox = coarse ? TR__OP_DDX_COARSE : TR__OP_DDX_FINE, oy = coarse ? TR__OP_DDY_COARSE : TR__OP_DDY_FINE;
        if (op == SpvOpFwidth || op == SpvOpFwidthFine || op == SpvOpFwidthCoarse) {
            const tval *a = operand(x, in[3]);
            tval *r = result(x, in[2]);
            if (!a || !r || !fresh(x, r, in[1]))
                return;
            for (uint32_t i = 0; i < r->n; i++) { /* |dFdx| + |dFdy| */
                const uint32_t dx = new_val(x), dy = new_val(x), ax = new_val(x), ay = new_val(x);
                alu(x, ox, dx, a->comp[i], TR__NOREG, TR__NOREG);
                alu(x, oy, dy, a->comp[i], TR__NOREG, TR__NOREG);
                alu(x, TR__OP_AND, ax, dx, konst(x, 0x7fffffffu), TR__NOREG);
                alu(x, TR__OP_AND, ay, dy, konst(x, 0x7fffffffu), TR__NOREG);
                alu(x, TR__OP_FADD, r->comp[i], ax, ay, TR__NOREG);
            }
            return;
        }
        const bool is_x = op == SpvOpDPdx || op == SpvOpDPdxFine || op == SpvOpDPdxCoarse;
        componentwise(x, is_x ? ox : oy, in, 1);
        return;
    }
    /* images */
    case SpvOpSampledImage:
    case SpvOpImage: {
        NEED(4);
        const tval *h = value_slot(x, NULL, in[3]);
        tval *r = result(x, in[2]);
        if (!h || !r)
            return;
        if (h->kind != V_HANDLE)
            return fail(x, TR_ERROR_INVALID_ARGUMENT, "id %u is not an image", in[3]);
        *r = *h; /* the image's slot: its binding (the sampler comes with the slot) */
        r->type = in[1];
        return;
    }
    case SpvOpImageSampleImplicitLod:
    case SpvOpImageSampleExplicitLod:
    case SpvOpImageSampleDrefImplicitLod:
    case SpvOpImageSampleDrefExplicitLod:
    case SpvOpImageSampleProjImplicitLod:
    case SpvOpImageSampleProjExplicitLod:
    case SpvOpImageSampleProjDrefImplicitLod:
    case SpvOpImageSampleProjDrefExplicitLod:
    case SpvOpImageFetch:
    case SpvOpImageQuerySizeLod:
    case SpvOpImageQuerySize:
    case SpvOpImageQueryLevels:
    case SpvOpImageQueryLod:
        NEED(4);
        tex_record(x, in, len, op);
        return;
    case SpvOpIsHelperInvocationEXT: {
        NEED(3);
        tval *r = result(x, in[2]);
        if (!r || !fresh(x, r, in[1]))
            return;
        def(x, r->comp[0]);
        emit5(x, TR__OP_HELPER, 0, r->comp[0], TR__NOREG, TR__NOREG, TR__NOREG, TR__NOREG);
        return;
    }
    case SpvOpExtInst:
        NEED(5);
        if (in[3] != x->m->glsl_std_450)
            return; /* NonSemantic debug information: nothing to run */
        ext_record(x, in, len);
        return;
    default: {
        const struct componentwise_op *cw = find_componentwise(op);
        if (cw) {
            NEED(3u + cw->operands);
            componentwise(x, cw->op, in, cw->operands);
            return;
        }
        const char *name = op_name(op);
        return name ? fail(x, TR_ERROR_UNSUPPORTED_FORMAT, "instruction %s is not supported", name)
                    : fail(x, TR_ERROR_UNSUPPORTED_FORMAT, "instruction %u is not supported", op);
    }
    }
#undef NEED
}

/* ---- blocks, branches, calls ---------------------------------------------------------------- */

static void skip_site(xl *x, uint32_t pc)
{
    if (grow(x, (void **)&x->skip_patch, &x->capskip, x->nskip + 1, sizeof *x->skip_patch))
        x->skip_patch[x->nskip++] = pc;
}

/* A block begins at the current pc: earlier blocks skip to it. */
static uint32_t begin_block(xl *x, uint32_t block, uint32_t count)
{
    forget_all(x);
    for (uint32_t i = 0; i < x->nskip; i++)
        x->code[x->skip_patch[i]].b = x->ncode;
    x->nskip = 0;
    const uint32_t pc = emit5(x, TR__OP_BLOCK, 0, TR__NOREG, block, 0, count, TR__NOREG);
    skip_site(x, pc);
    return pc;
}

/* The shadow registers of phi `id` (n components), made on first use. */
static uint32_t shadow_of(xl *x, uint32_t id, uint32_t n)
{
    tval *s = &x->shadows[id];
    if (s->kind == V_NONE) {
        *s = (tval){.kind = V_VALUE, .n = n};
        s->slot = new_var(x, n);
    }
    if (s->n != n) {
        fail(x, TR_ERROR_INVALID_ARGUMENT, "phi %u takes values of different sizes", id);
        return RC_VAR;
    }
    return s->slot;
}

/* The edge from the block labelled `from` to block `to` of f, taken by the
 * lanes whose cond is non-zero (zero with neg; all with NOREG): its phi
 * copies, then the branch. */
static void edge(xl *x, const tfunc *f, uint32_t block0, uint32_t from, uint32_t to_label, uint32_t cond, bool neg)
{
    const uint32_t to = block_of(x, f, to_label);
    if (failed(x))
        return;
    const tblock *t = &f->blocks[to];
    for (size_t at = t->first; at < t->term && ins_op(x, at) == SpvOpPhi && !failed(x); at += ins_len(x, at)) {
        const uint32_t *in = word_at(x, at), len = ins_len(x, at);
        for (uint32_t k = 3; k + 1 < len; k += 2) {
            if (in[k + 1] != from)
                continue;
            const tval *v = operand(x, in[k]);
            if (!v)
                return;
            const uint32_t s = shadow_of(x, in[2], v->n);
            for (uint32_t i = 0; i < v->n; i++) {
                use(x, v->comp[i]);
                use(x, cond);
                if (cond == TR__NOREG)
                    emit5(x, TR__OP_MOVM, 0, s + i, v->comp[i], TR__NOREG, TR__NOREG, TR__NOREG);
                else
                    emit5(x, TR__OP_MOVC, neg, s + i, v->comp[i], TR__NOREG, cond, TR__NOREG);
            }
            break;
        }
    }
    use(x, cond);
    emit5(x, TR__OP_BRANCH, neg, TR__NOREG, block0 + to, cond, TR__NOREG, TR__NOREG);
}

static void emit_function(xl *x, tfunc *f, const tval *args, uint32_t nargs, uint32_t ret_block, uint32_t ret_reg,
                          uint32_t ret_n);

static void call(xl *x, const uint32_t *in, uint32_t len)
{
    if (len < 4)
        return fail(x, TR_ERROR_INVALID_ARGUMENT, "a malformed OpFunctionCall");
    const uint32_t fi = in[3] < x->m->bound ? x->func_of[in[3]] : 0;
    if (!fi)
        return fail(x, TR_ERROR_INVALID_ARGUMENT, "OpFunctionCall of %u, not a function", in[3]);
    tfunc *callee = &x->funcs[fi - 1];
    const uint32_t nargs = len - 4;
    if (nargs != callee->nparams)
        return fail(x, TR_ERROR_INVALID_ARGUMENT, "%u arguments for %u parameters", nargs, callee->nparams);
    tval args[32];
    for (uint32_t i = 0; i < nargs; i++) {
        const tval *a = value_slot(x, NULL, in[4 + i]);
        if (!a)
            return;
        args[i] = *a;
    }
    tval *r = result(x, in[2]);
    if (!r)
        return;
    const uint32_t n = slots(x, in[1]);
    uint32_t ret = RC_VAR;
    if (n) {
        ret = new_var(x, n);
        *r = (tval){.kind = V_VALUE, .type = in[1], .n = n, .comp = comp_list(x, n)};
        for (uint32_t i = 0; r->comp && i < n; i++)
            r->comp[i] = ret + i;
    }
    const uint32_t cont = x->nblocks++;
    forget_all(x);
    emit5(x, TR__OP_BRANCH, 0, TR__NOREG, x->nblocks, TR__NOREG, TR__NOREG, TR__NOREG);
    emit_function(x, callee, args, nargs, cont, ret, n);
    begin_block(x, cont, 0);
}

static void terminator(xl *x, const tfunc *f, uint32_t block0, const tblock *b, uint32_t ret_block, uint32_t ret_reg,
                       uint32_t ret_n)
{
    x->at = b->term;
    const uint32_t *in = word_at(x, b->term), op = ins_op(x, b->term), len = ins_len(x, b->term);
    switch (op) {
    case SpvOpBranch:
        return edge(x, f, block0, b->label, in[1], TR__NOREG, false);
    case SpvOpBranchConditional: {
        const tval *c = operand(x, in[1]);
        if (!c)
            return;
        if (in[2] == in[3])
            return edge(x, f, block0, b->label, in[2], TR__NOREG, false);
        edge(x, f, block0, b->label, in[2], c->comp[0], false);
        edge(x, f, block0, b->label, in[3], c->comp[0], true);
        return;
    }
    case SpvOpSwitch: {
        const tval *sel = operand(x, in[1]);
        if (!sel)
            return;
        if (len > 3 + 2 * 256)
            return fail(x, TR_ERROR_LIMIT_EXCEEDED, "a switch of more than 256 cases");
        uint32_t targets[257], masks[257], nt = 0, any = TR__NOREG;
        for (uint32_t k = 3; k + 1 < len && !failed(x); k += 2) {
            const uint32_t eq = new_val(x);
            alu(x, TR__OP_IEQ, eq, sel->comp[0], konst(x, in[k]), TR__NOREG);
            if (any == TR__NOREG) {
                any = eq;
            } else {
                const uint32_t o = new_val(x);
                alu(x, TR__OP_OR, o, any, eq, TR__NOREG);
                any = o;
            }
            uint32_t t = 0;
            while (t < nt && targets[t] != in[k + 1])
                t++;
            if (t == nt) {
                targets[nt] = in[k + 1];
                masks[nt++] = eq;
            } else {
                const uint32_t o = new_val(x);
                alu(x, TR__OP_OR, o, masks[t], eq, TR__NOREG);
                masks[t] = o;
            }
        }
        if (any == TR__NOREG)
            return edge(x, f, block0, b->label, in[2], TR__NOREG, false);
        for (uint32_t t = 0; t < nt; t++)
            edge(x, f, block0, b->label, targets[t], masks[t], false);
        edge(x, f, block0, b->label, in[2], any, true); /* the default: no case matched */
        return;
    }
    case SpvOpReturnValue: {
        const tval *v = operand(x, in[1]);
        if (!v)
            return;
        if (v->n != ret_n)
            return fail(x, TR_ERROR_INVALID_ARGUMENT, "a return value of %u components for %u", v->n, ret_n);
        for (uint32_t i = 0; i < v->n; i++) {
            use(x, v->comp[i]);
            emit5(x, TR__OP_MOVM, 0, ret_reg + i, v->comp[i], TR__NOREG, TR__NOREG, TR__NOREG);
        }
    }
        /* fall through */
    case SpvOpReturn:
        emit5(x, TR__OP_BRANCH, 0, TR__NOREG, ret_block, TR__NOREG, TR__NOREG, TR__NOREG);
        return;
    case SpvOpKill:
    case SpvOpTerminateInvocation:
        x->kills = true;
        skip_site(x, emit5(x, TR__OP_KILL, 0, TR__NOREG, TR__NOREG, 0, TR__NOREG, TR__NOREG));
        return;
    case SpvOpUnreachable:
        return;
    default:
        return fail(x, TR_ERROR_INVALID_ARGUMENT, "block %u ends with instruction %u", b->label, op);
    }
}

static void emit_function(xl *x, tfunc *f, const tval *args, uint32_t nargs, uint32_t ret_block, uint32_t ret_reg,
                          uint32_t ret_n)
{
    if (f->active)
        return fail(x, TR_ERROR_UNSUPPORTED_FORMAT, "function %u calls itself (recursion is not supported)", f->id);
    if (++x->depth > MAX_INLINE_DEPTH)
        return fail(x, TR_ERROR_LIMIT_EXCEEDED, "calls nested more than %u deep", MAX_INLINE_DEPTH);
    layout(x, f);
    if (failed(x))
        return;
    f->active = true;
    for (uint32_t i = 0; i < nargs; i++)
        x->globals[f->params[i]] = args[i];
    const uint32_t block0 = x->nblocks;
    x->nblocks += f->nblocks;
    const uint32_t loops0 = x->nloops;
    uint32_t open_end[MAX_INLINE_DEPTH], open_pos[MAX_INLINE_DEPTH], header_pc[MAX_INLINE_DEPTH], nopen = 0;
    for (uint32_t i = 0; i < f->norder && !failed(x); i++) {
        const uint32_t k = f->order[i];
        const tblock *b = &f->blocks[k];
        uint32_t hpc = 0;
        const bool header = b->cont && f->loop_end[i] != UINT32_MAX;
        if (header) {
            if (nopen >= MAX_INLINE_DEPTH || x->nloops >= TR_ARRAY_SIZE(x->loops))
                return fail(x, TR_ERROR_LIMIT_EXCEEDED, "loops nested more than %u deep", MAX_INLINE_DEPTH);
            x->loops[x->nloops++] = ++x->next_loop;
        }
        hpc = begin_block(x, block0 + k, b->count);
        if (header) {
            open_end[nopen] = f->loop_end[i];
            open_pos[nopen] = i;
            header_pc[nopen++] = hpc;
        }
        size_t at = b->first;
        for (; at < b->term && ins_op(x, at) == SpvOpPhi && !failed(x); at += ins_len(x, at)) {
            x->at = at;
            const uint32_t *in = word_at(x, at);
            tval *r = result(x, in[2]);
            if (!r || !fresh(x, r, in[1]))
                return;
            const uint32_t s = shadow_of(x, in[2], r->n);
            for (uint32_t c = 0; c < r->n; c++)
                alu(x, TR__OP_MOV, r->comp[c], s + c, TR__NOREG, TR__NOREG);
        }
        for (; at < b->term && !failed(x); at += ins_len(x, at)) {
            x->at = at;
            const uint32_t op = ins_op(x, at);
            if (op == SpvOpFunctionCall) {
                call(x, word_at(x, at), ins_len(x, at));
            } else if (op == SpvOpDemoteToHelperInvocation) {
                x->kills = true;
                emit5(x, TR__OP_DEMOTE, 0, TR__NOREG, TR__NOREG, TR__NOREG, TR__NOREG, TR__NOREG);
            } else if (op == SpvOpPhi) {
                return fail(x, TR_ERROR_INVALID_ARGUMENT, "OpPhi after the first non-phi instruction of a block");
            } else {
                translate_ins(x, word_at(x, at), ins_len(x, at), op);
            }
        }
        terminator(x, f, block0, b, ret_block, ret_reg, ret_n);
        /* the loops whose back-edge block this is */
        while (nopen && open_end[nopen - 1] == i) {
            nopen--;
            emit5(x, TR__OP_LOOP_BACK, 0, TR__NOREG, block0 + f->order[open_pos[nopen]], header_pc[nopen], TR__NOREG,
                  TR__NOREG);
            x->nloops--;
        }
    }
    (void)open_pos;
    x->nloops = loops0;
    f->active = false;
    x->depth--;
}

/* ---- the program ---------------------------------------------------------------------------- */

/* Marks the variable registers an instruction reads. */
static void mark_var_reads(const xl *x, const tr__ins *in, uint8_t *read)
{
#define READ(r)                                                                                                   \
    do {                                                                                                          \
        if ((r) != TR__NOREG && ((r) & RC_MASK) == RC_VAR)                                                        \
            read[(r) & ~RC_MASK] = 1;                                                                             \
    } while (0)
    switch (in->op) {
    case TR__OP_BLOCK:
    case TR__OP_LOOP_BACK:
    case TR__OP_KILL:
    case TR__OP_DEMOTE:
    case TR__OP_END:
    case TR__OP_HELPER:
        return;
    case TR__OP_BRANCH: READ(in->b); return;
    case TR__OP_LOAD_IDX:
        for (uint32_t i = 0; (in->a & RC_MASK) == RC_VAR && i < in->c; i++)
            read[(in->a & ~RC_MASK) + i] = 1;
        READ(in->b);
        return;
    case TR__OP_STORE_IDX: READ(in->a); READ(in->b); return;
    case TR__OP_LOAD_BUF: READ(in->b); return;
    case TR__OP_MIN_CLAMP: READ(in->a); return;
    case TR__OP_MOVM:
    case TR__OP_MOV: READ(in->a); return;
    case TR__OP_EXT: {
        const tr__spv_ext *e = &x->ext[in->a];
        for (uint32_t j = 0; j < 3; j++)
            for (uint32_t k = 0; k < 16; k++)
                READ(e->arg[j][k]);
        return;
    }
    case TR__OP_TEX: {
        const tr__spv_tex *t = &x->tex[in->a];
        const uint32_t regs[] = {t->slot_reg, t->coord[0], t->coord[1], t->coord[2], t->proj, t->dref, t->bias,
                                 t->lod, t->grad[0], t->grad[1], t->grad[2], t->grad[3], t->min_lod, t->offset[0],
                                 t->offset[1]};
        for (size_t k = 0; k < TR_ARRAY_SIZE(regs); k++)
            READ(regs[k]);
        return;
    }
    default: READ(in->a); READ(in->b); READ(in->c); READ(in->e); return;
    }
#undef READ
}

/* Whether an instruction only writes variable registers nothing reads. */
static bool dead_store(const tr__ins *in, const uint8_t *read)
{
    if (in->op != TR__OP_MOVM && in->op != TR__OP_MOV && in->op != TR__OP_MOVC && in->op != TR__OP_STORE_IDX)
        return false;
    if ((in->d & RC_MASK) != RC_VAR)
        return false;
    const uint32_t n = in->op == TR__OP_STORE_IDX ? in->c : 1;
    for (uint32_t i = 0; i < n; i++)
        if (read[(in->d & ~RC_MASK) + i])
            return false;
    return true;
}

/* The last rewrite: stores to variables nothing reads go; values written
 * inside a loop and read after it are written to a temporary, and a masked
 * move after the writer updates the value for the running lanes. */
static void mask_escapes(xl *x)
{
    uint32_t n = 0;
    for (uint32_t r = 0; r < x->nval; r++)
        n += x->vi[r].escapes && x->vi[r].pc != UINT32_MAX;
    uint8_t *read = tr__calloc(x->ctx, (size_t)x->nvar + 1);
    if (!read)
        return oom(x);
    for (uint32_t pc = 0; pc < x->ncode; pc++)
        mark_var_reads(x, &x->code[pc], read);
    for (uint32_t i = 0; i < x->nout; i++)
        if ((x->io_out[i].reg & RC_MASK) == RC_VAR)
            read[x->io_out[i].reg & ~RC_MASK] = 1;
    uint32_t *at = tr__calloc(x->ctx, ((size_t)x->ncode + 1) * sizeof *at); /* escaping writes per pc */
    uint32_t *map = tr__alloc(x->ctx, ((size_t)x->ncode + 1) * sizeof *map);
    tr__ins *code = tr__alloc(x->ctx, ((size_t)x->ncode + n) * sizeof *code);
    uint32_t *regs = tr__alloc(x->ctx, ((size_t)n + 1) * sizeof *regs);
    if (!at || !map || !code || !regs) {
        oom(x);
        goto done;
    }
    for (uint32_t r = 0; r < x->nval; r++)
        if (x->vi[r].escapes && x->vi[r].pc != UINT32_MAX)
            at[x->vi[r].pc]++;
    /* prefix sums: where each pc's escaping registers start in regs */
    uint32_t sum = 0;
    for (uint32_t pc = 0; pc <= x->ncode; pc++) {
        const uint32_t c = at[pc];
        at[pc] = sum;
        sum += c;
    }
    uint32_t *fill = tr__calloc(x->ctx, ((size_t)x->ncode + 1) * sizeof *fill);
    if (!fill) {
        oom(x);
        goto done;
    }
    for (uint32_t r = 0; r < x->nval; r++)
        if (x->vi[r].escapes && x->vi[r].pc != UINT32_MAX)
            regs[at[x->vi[r].pc] + fill[x->vi[r].pc]++] = r;
    tr__free(x->ctx, fill);
    uint32_t out = 0;
    for (uint32_t pc = 0; pc < x->ncode && !failed(x); pc++) {
        map[pc] = out;
        tr__ins ins = x->code[pc];
        if (dead_store(&ins, read))
            continue;
        const uint32_t first = at[pc], last = at[pc + 1];
        uint32_t moves[64][2], nm = 0;
        for (uint32_t i = first; i < last && nm < 64; i++) {
            const uint32_t r = regs[i], t = new_val(x);
            moves[nm][0] = r;
            moves[nm++][1] = t;
            if (ins.op == TR__OP_EXT) {
                tr__spv_ext *e = &x->ext[ins.a];
                for (uint32_t k = 0; k < 16; k++)
                    e->res[k] = e->res[k] == r ? t : e->res[k];
                for (uint32_t k = 0; k < 4; k++)
                    e->res2[k] = e->res2[k] == r ? t : e->res2[k];
            } else if (ins.op == TR__OP_TEX) {
                tr__spv_tex *tx = &x->tex[ins.a];
                for (uint32_t k = 0; k < 4; k++)
                    tx->out[k] = tx->out[k] == r ? t : tx->out[k];
            } else if (ins.d == r) {
                ins.d = t;
            }
        }
        code[out++] = ins;
        for (uint32_t i = 0; i < nm; i++)
            code[out++] = (tr__ins){TR__OP_MOVM, 0, moves[i][0], moves[i][1], TR__NOREG, TR__NOREG, TR__NOREG};
    }
    map[x->ncode] = out;
    for (uint32_t pc = 0; pc < out; pc++)
        if (code[pc].op == TR__OP_BLOCK || code[pc].op == TR__OP_KILL || code[pc].op == TR__OP_LOOP_BACK)
            code[pc].b = map[code[pc].b];
    tr__free(x->ctx, x->code);
    x->code = code;
    x->ncode = x->capcode = out;
    code = NULL;
done:
    tr__free(x->ctx, read);
    tr__free(x->ctx, at);
    tr__free(x->ctx, map);
    tr__free(x->ctx, code);
    tr__free(x->ctx, regs);
}

static uint32_t final_reg(const xl *x, uint32_t r)
{
    if (r == TR__NOREG)
        return r;
    switch (r & RC_MASK) {
    case RC_CONST: return r & ~RC_MASK;
    case RC_VAR: return x->nconst + (r & ~RC_MASK);
    default: return x->nconst + x->nvar + r;
    }
}

static void renumber(xl *x, tr__spv_program *p)
{
#define FIX(f) (f) = final_reg(x, (f))
    for (uint32_t pc = 0; pc < x->ncode; pc++) {
        tr__ins *in = &x->code[pc];
        switch (in->op) {
        case TR__OP_BLOCK:
        case TR__OP_LOOP_BACK:
        case TR__OP_KILL:
        case TR__OP_DEMOTE:
        case TR__OP_END:
        case TR__OP_EXT:
        case TR__OP_TEX:
            break;
        case TR__OP_BRANCH: FIX(in->b); break;
        case TR__OP_LOAD_IDX:
        case TR__OP_STORE_IDX: FIX(in->d); FIX(in->a); FIX(in->b); break;
        case TR__OP_LOAD_BUF: FIX(in->d); FIX(in->b); break;
        case TR__OP_MIN_CLAMP: FIX(in->d); FIX(in->a); break;
        default: FIX(in->d); FIX(in->a); FIX(in->b); FIX(in->c); FIX(in->e); break;
        }
    }
    for (uint32_t i = 0; i < x->next; i++) {
        tr__spv_ext *e = &x->ext[i];
        for (uint32_t k = 0; k < 16; k++) {
            FIX(e->res[k]);
            for (uint32_t j = 0; j < 3; j++)
                FIX(e->arg[j][k]);
        }
        for (uint32_t k = 0; k < 4; k++)
            FIX(e->res2[k]);
    }
    for (uint32_t i = 0; i < x->ntex; i++) {
        tr__spv_tex *t = &x->tex[i];
        uint32_t *regs[] = {&t->slot_reg, &t->coord[0], &t->coord[1], &t->coord[2], &t->proj, &t->dref, &t->bias,
                            &t->lod, &t->grad[0], &t->grad[1], &t->grad[2], &t->grad[3], &t->min_lod, &t->offset[0],
                            &t->offset[1], &t->out[0], &t->out[1], &t->out[2], &t->out[3]};
        for (size_t k = 0; k < TR_ARRAY_SIZE(regs); k++)
            FIX(*regs[k]);
    }
    for (uint32_t i = 0; i < x->nin; i++)
        FIX(x->io_in[i].reg);
    for (uint32_t i = 0; i < x->nout; i++)
        FIX(x->io_out[i].reg);
#undef FIX
    p->const_count = x->nconst;
    p->zero_begin = x->nconst;
    p->zero_end = x->nconst + x->nvar;
    p->reg_count = x->nconst + x->nvar + x->nval;
}

void tr__spv_program_free(tr_context *ctx, tr__spv_program *p)
{
    if (!p)
        return;
    tr__free(ctx, p->code);
    tr__free(ctx, p->const_bits);
    tr__free(ctx, p->ext);
    tr__free(ctx, p->tex);
    tr__free(ctx, p->inputs);
    tr__free(ctx, p->outputs);
    tr__free(ctx, p);
}

static void *copy_out(xl *x, const void *src, size_t bytes)
{
    void *d = tr__alloc(x->ctx, bytes ? bytes : 1);
    if (!d)
        oom(x);
    else if (bytes)
        memcpy(d, src, bytes);
    return d;
}

tr_result tr__spv_translate(tr_context *ctx, const char *fn, const tr__spv_module *m, uint32_t model,
                            const char *entry, tr__spv_program **out)
{
    static _Atomic uint64_t next_id = 1;
    *out = NULL;
    xl x0, *x = &x0;
    memset(x, 0, sizeof *x);
    x->ctx = ctx;
    x->fn = fn;
    x->m = m;
    x->entry = tr__spv_find_entry(m, model, entry);
    x->fragment = model == SpvExecutionModelFragment;
    if (!x->entry)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "%s: the module has no %s entry point named '%s'", fn,
                         x->fragment ? "fragment" : "vertex", entry ? entry : "main");
    x->fs_flags = x->fragment ? TR_FS_NO_FRAG_COORD : 0;
    x->cover_reg = x->count_reg = TR__NOREG;
    tr__spv_program *p = tr__calloc(ctx, sizeof *p);
    x->shadows = tr__calloc(ctx, m->bound * sizeof *x->shadows);
    if (!p || !x->shadows)
        oom(x);
    io_facts fx;
    memset(&fx, 0, sizeof fx);
    if (!failed(x))
        index_functions(x);
    if (!failed(x))
        globals(x, &fx);
    const uint32_t fi = !failed(x) && x->entry->function < m->bound ? x->func_of[x->entry->function] : 0;
    if (!failed(x) && !fi)
        fail(x, TR_ERROR_INVALID_ARGUMENT, "entry point function %u is not defined", x->entry->function);
    if (!failed(x)) {
        const uint32_t final = x->nblocks++;
        p->entry_block = x->nblocks;
        emit_function(x, &x->funcs[fi - 1], NULL, 0, final, RC_VAR, 0);
        begin_block(x, final, 0);
        const uint32_t end = emit5(x, TR__OP_END, 0, TR__NOREG, TR__NOREG, TR__NOREG, TR__NOREG, TR__NOREG);
        for (uint32_t i = 0; i < x->nskip; i++)
            x->code[x->skip_patch[i]].b = end;
        x->nskip = 0;
    }
    if (!failed(x))
        mask_escapes(x);
    if (!failed(x)) {
        renumber(x, p);
        p->stage = model;
        snprintf(p->entry, sizeof p->entry, "%s", x->entry->name);
        p->lanes = x->fragment ? TR_FS_LANES : TR_VS_LANES;
        p->block_count = x->nblocks;
        p->code_count = x->ncode;
        p->code = copy_out(x, x->code, (size_t)x->ncode * sizeof *x->code);
        p->const_bits = copy_out(x, x->consts, (size_t)x->nconst * sizeof *x->consts);
        p->ext_count = x->next;
        p->ext = copy_out(x, x->ext, (size_t)x->next * sizeof *x->ext);
        p->tex_count = x->ntex;
        p->tex = copy_out(x, x->tex, (size_t)x->ntex * sizeof *x->tex);
        p->input_count = x->nin;
        p->inputs = copy_out(x, x->io_in, (size_t)x->nin * sizeof *x->io_in);
        p->output_count = x->nout;
        p->outputs = copy_out(x, x->io_out, (size_t)x->nout * sizeof *x->io_out);
        p->ubo_mask = x->ubo_mask;
        p->uses_push = x->uses_push;
        p->texture_mask = x->texture_mask;
        p->varying_mask = fx.varying_mask;
        p->flat_mask = fx.flat;
        p->noperspective_mask = fx.noperspective;
        p->centroid_mask = fx.centroid;
        p->sample_mask_in = fx.sample;
        memcpy(p->varying_types, fx.loc_types, sizeof p->varying_types);
        p->color_mask = fx.color_mask;
        p->fs_flags = x->fs_flags | (x->kills ? TR_FS_MAY_DISCARD : 0) |
                      (x->entry->early_tests ? TR_FS_EARLY_TESTS : 0) | (fx.sample ? TR_FS_SAMPLE_RATE : 0);
        p->id = next_id++;
        if (!failed(x))
            tr__spv_forward_outputs(ctx, p);
    }
    const tr_result r = x->err;
    for (uint32_t i = 0; i < x->nfuncs; i++) {
        tr__free(ctx, x->funcs[i].blocks);
        tr__free(ctx, x->funcs[i].order);
        tr__free(ctx, x->funcs[i].pos);
        tr__free(ctx, x->funcs[i].loop_end);
    }
    tr__free(ctx, x->funcs);
    tr__free(ctx, x->label_block);
    tr__free(ctx, x->func_of);
    tr__free(ctx, x->globals);
    tr__free(ctx, x->shadows);
    tr__free(ctx, x->code);
    tr__free(ctx, x->consts);
    tr__free(ctx, x->const_hash);
    tr__free(ctx, x->ext);
    tr__free(ctx, x->tex);
    tr__free(ctx, x->vi);
    tr__free(ctx, x->known);
    tr__free(ctx, x->known_set);
    tr__free(ctx, x->skip_patch);
    scratch_free(x);
    if (r != TR_OK) {
        tr__spv_program_free(ctx, p);
        return r;
    }
    *out = p;
    return TR_OK;
}
