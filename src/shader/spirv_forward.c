/* tilerast: the last step of translation (spirv_translate.c), on the
 * finished program: outputs that are plain copies.
 *
 * Most shaders end by storing a value they already hold into an output
 * variable; many (pass-through vertex and fragment shaders, the common
 * case of UI, debug and test content) store their inputs unchanged.  The
 * lane program then moves the value into the output register and the
 * stage copies it out again.  An output written once, by a move in the
 * entry block's straight-line start (which every lane runs, unmasked),
 * from a register nothing writes after the move, and read by no
 * instruction, is copied out from the move's source instead, and the move
 * goes.  Where that source is an input filled straight from the batch or
 * block, the stage copies from there (tr__spv_io.source) and, when no
 * instruction reads the input, never fills its register (.unread).
 *
 * Nothing here changes a value: a removed move wrote, for every lane, what
 * its source holds when the program ends.  The instruction budget counts
 * SPIR-V instructions (TR__OP_BLOCK's c), which stay as they were. */
#include "shader/spirv_prog.h"

/* A range of registers an instruction writes or reads. */
typedef struct use {
    uint32_t first, count;
    bool write;
} use;

enum { MAX_USES = 3 * 16 + 16 + 4 + 1 };

static uint32_t add(use *u, uint32_t n, uint32_t r, uint32_t count, bool write)
{
    if (r != TR__NOREG && n < MAX_USES)
        u[n++] = (use){r, count, write};
    return n;
}

/* The registers of one instruction, with the operand conventions of
 * renumber() in spirv_translate.c. */
static uint32_t uses_of(const tr__spv_program *p, const tr__ins *in, use u[MAX_USES])
{
    uint32_t n = 0;
    switch (in->op) {
    case TR__OP_BLOCK:
    case TR__OP_LOOP_BACK:
    case TR__OP_KILL:
    case TR__OP_DEMOTE:
    case TR__OP_END: return 0;
    case TR__OP_BRANCH: return add(u, n, in->b, 1, false);
    case TR__OP_LOAD_IDX:
        n = add(u, n, in->d, 1, true);
        n = add(u, n, in->a, in->c, false);
        return add(u, n, in->b, 1, false);
    case TR__OP_STORE_IDX:
        n = add(u, n, in->d, in->c, true);
        n = add(u, n, in->a, 1, false);
        return add(u, n, in->b, 1, false);
    case TR__OP_LOAD_BUF:
        n = add(u, n, in->d, 1, true);
        return add(u, n, in->b, 1, false);
    case TR__OP_MIN_CLAMP:
        n = add(u, n, in->d, 1, true);
        return add(u, n, in->a, 1, false);
    case TR__OP_EXT: {
        const tr__spv_ext *e = &p->ext[in->a];
        for (uint32_t k = 0; k < 16; k++) {
            n = add(u, n, e->res[k], 1, true);
            for (uint32_t j = 0; j < 3; j++)
                n = add(u, n, e->arg[j][k], 1, false);
        }
        for (uint32_t k = 0; k < 4; k++)
            n = add(u, n, e->res2[k], 1, true);
        return n;
    }
    case TR__OP_TEX: {
        const tr__spv_tex *t = &p->tex[in->a];
        const uint32_t reads[] = {t->slot_reg, t->coord[0], t->coord[1], t->coord[2], t->proj, t->dref, t->bias,
                                  t->lod, t->grad[0], t->grad[1], t->grad[2], t->grad[3], t->min_lod, t->offset[0],
                                  t->offset[1]};
        for (size_t k = 0; k < TR_ARRAY_SIZE(reads); k++)
            n = add(u, n, reads[k], 1, false);
        for (uint32_t k = 0; k < 4; k++)
            n = add(u, n, t->out[k], 1, true);
        return n;
    }
    default:
        n = add(u, n, in->d, 1, true);
        n = add(u, n, in->a, 1, false);
        n = add(u, n, in->b, 1, false);
        n = add(u, n, in->c, 1, false);
        return add(u, n, in->e, 1, false);
    }
}

static bool covers(const use *u, uint32_t r)
{
    return r >= u->first && r - u->first < u->count;
}

/* Whether an instruction in [from, count) writes r (reads too, with reads). */
static bool touched_after(const tr__spv_program *p, uint32_t from, uint32_t r, bool reads)
{
    use u[MAX_USES];
    for (uint32_t pc = from; pc < p->code_count; pc++) {
        const uint32_t n = uses_of(p, &p->code[pc], u);
        for (uint32_t k = 0; k < n; k++)
            if (covers(&u[k], r) && (u[k].write || reads))
                return true;
    }
    return false;
}

/* The move that is output register r's only use, in the straight-line
 * start [1, stop), or UINT32_MAX. */
static uint32_t sole_move(const tr__spv_program *p, uint32_t stop, uint32_t r)
{
    use u[MAX_USES];
    uint32_t mover = UINT32_MAX;
    for (uint32_t pc = 0; pc < p->code_count; pc++) {
        const tr__ins *in = &p->code[pc];
        const uint32_t n = uses_of(p, in, u);
        for (uint32_t k = 0; k < n; k++) {
            if (!covers(&u[k], r))
                continue;
            const bool move = (in->op == TR__OP_MOV || in->op == TR__OP_MOVM) && u[k].write && u[k].count == 1;
            if (!move || pc >= stop || mover != UINT32_MAX)
                return UINT32_MAX;
            mover = pc;
        }
    }
    return mover;
}

/* Inputs whose values sit in an array of the batch or block, ready to copy. */
static bool input_is_array(uint32_t kind)
{
    switch (kind) {
    case TR__IN_ATTRIB:
    case TR__IN_VERTEX_INDEX:
    case TR__IN_INSTANCE_INDEX:
    case TR__IN_VARYING:
    case TR__IN_FRAG_COORD:
    case TR__IN_POINT_COORD:
    case TR__IN_SAMPLE_MASK: return true;
    default: return false;
    }
}

static bool is_control(uint32_t op)
{
    return op <= TR__OP_END;
}

/* A program left with its blocks and plain branches only, whose outputs
 * all copy input arrays, does the same for every lane: nothing but the
 * budget's count, which is worked out here once by following the blocks
 * as run() does (a block nothing branched to is skipped). */
static void find_straight(tr_context *ctx, tr__spv_program *p)
{
    for (uint32_t pc = 0; pc < p->code_count; pc++) {
        const tr__ins *in = &p->code[pc];
        if (in->op != TR__OP_BLOCK && in->op != TR__OP_END && (in->op != TR__OP_BRANCH || in->b != TR__NOREG))
            return;
    }
    for (uint32_t i = 0; i < p->output_count; i++)
        if (!p->outputs[i].source)
            return;
    bool *pending = tr__calloc(ctx, ((size_t)p->block_count + 1) * sizeof *pending);
    if (!pending)
        return;
    pending[p->entry_block] = true;
    uint64_t cost = 0;
    bool active = false;
    for (uint32_t pc = 0; pc < p->code_count;) {
        const tr__ins *in = &p->code[pc++];
        if (in->op == TR__OP_END)
            break;
        if (in->op == TR__OP_BRANCH) {
            pending[in->a] |= active;
            continue;
        }
        active = pending[in->a];
        pending[in->a] = false;
        if (active)
            cost += in->c;
        else
            pc = in->b;
    }
    tr__free(ctx, pending);
    p->straight = true;
    p->straight_cost = cost;
}

void tr__spv_forward_outputs(tr_context *ctx, tr__spv_program *p)
{
    if (!p->code_count || p->code[0].op != TR__OP_BLOCK || p->code[0].a != p->entry_block)
        return;
    uint32_t stop = 1; /* the entry block's straight-line start: every lane, no mask */
    while (stop < p->code_count && !is_control(p->code[stop].op))
        stop++;
    bool *drop = tr__calloc(ctx, p->code_count * sizeof *drop);
    if (!drop)
        return; /* an optimisation: the program is right without it */
    for (uint32_t i = 0; i < p->output_count; i++) {
        tr__spv_io *o = &p->outputs[i];
        const uint32_t mover = sole_move(p, stop, o->reg);
        if (mover == UINT32_MAX || touched_after(p, mover + 1, p->code[mover].a, false))
            continue;
        o->reg = p->code[mover].a;
        drop[mover] = true;
    }
    /* Outputs that now copy an input held in an array read that array. */
    for (uint32_t i = 0; i < p->output_count; i++)
        for (uint32_t j = 0; j < p->input_count; j++)
            if (p->inputs[j].reg == p->outputs[i].reg && input_is_array(p->inputs[j].kind))
                p->outputs[i].source = j + 1;
    /* Compact the code; jumps move with it. */
    uint32_t *map = tr__alloc(ctx, ((size_t)p->code_count + 1) * sizeof *map);
    if (!map) {
        tr__free(ctx, drop);
        return;
    }
    uint32_t out = 0;
    for (uint32_t pc = 0; pc < p->code_count; pc++) {
        map[pc] = out;
        if (!drop[pc])
            p->code[out++] = p->code[pc];
    }
    map[p->code_count] = out;
    for (uint32_t pc = 0; pc < out; pc++)
        if (p->code[pc].op == TR__OP_BLOCK || p->code[pc].op == TR__OP_KILL || p->code[pc].op == TR__OP_LOOP_BACK)
            p->code[pc].b = map[p->code[pc].b];
    p->code_count = out;
    for (uint32_t j = 0; j < p->input_count; j++)
        p->inputs[j].unread = input_is_array(p->inputs[j].kind) && !touched_after(p, 0, p->inputs[j].reg, true);
    tr__free(ctx, map);
    tr__free(ctx, drop);
    find_straight(ctx, p);
}
