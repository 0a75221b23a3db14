/* tilerast: the public side of SPIR-V shaders (shader.h): modules, uniform
 * buffers, pipelines whose stages are programs, and the dispatch the vertex
 * and fragment stages call to run a stage, C or SPIR-V. */
#include <stdatomic.h>
#include <stdio.h>

#include <spirv/unified1/spirv.h>

#include "record.h"
#include "shader/spirv_internal.h"
#include "shader/spirv_prog.h"

struct tr_shader_module {
    tr_context *ctx;
    tr_shader_module *prev, *next; /* the context's modules (tr_context_destroy frees them) */
    tr__spv_module m;
};

tr_result tr_shader_module_create(tr_context *ctx, const tr_shader_module_desc *desc, tr_shader_module **out)
{
    static const char fn[] = "tr_shader_module_create";
    tr__api_enter(ctx);
    if (!out)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "%s: out is NULL", fn);
    *out = NULL;
    if (!ctx || !desc)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", fn, ctx ? "desc" : "ctx");
    if (!desc->code)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "%s: tr_shader_module_desc.code is NULL", fn);
    if (desc->code_size % 4 || desc->code_size < 20)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT,
                         "%s: tr_shader_module_desc.code_size = %zu: SPIR-V is a whole number of 4-byte words, at "
                         "least the 5-word header", fn, desc->code_size);
    if (desc->code_size > ((size_t)1 << 28))
        return tr__error(ctx, TR_ERROR_LIMIT_EXCEEDED, "%s: tr_shader_module_desc.code_size = %zu exceeds 256 MiB", fn,
                         desc->code_size);
    tr_shader_module *sm = tr__calloc(ctx, sizeof *sm);
    if (!sm)
        return tr__error(ctx, TR_ERROR_OUT_OF_MEMORY, "%s: out of memory", fn);
    sm->ctx = ctx;
    const size_t words = desc->code_size / 4;
    /* our own reading first: it names what tilerast does not run (a
     * capability, a stage) more precisely than the validator would */
    tr_result r = tr__spv_parse(ctx, fn, desc->code, words, &sm->m);
    if (r == TR_OK)
        r = tr__spv_validate(ctx, fn, desc->code, words);
    /* Every entry point is translated once now, and the program dropped:
     * what tilerast does not run (an instruction, a built-in, an image
     * kind) is refused here, by name, not when a pipeline is made. */
    for (uint32_t i = 0; r == TR_OK && i < sm->m.entry_count; i++) {
        tr__spv_program *prog = NULL;
        r = tr__spv_translate(ctx, fn, &sm->m, sm->m.entries[i].model, sm->m.entries[i].name, &prog);
        tr__spv_program_free(ctx, prog);
    }
    if (r != TR_OK)
        tr__spv_free(ctx, &sm->m);
    if (r != TR_OK) {
        tr__free(ctx, sm);
        return r;
    }
    sm->next = ctx->shader_modules;
    if (ctx->shader_modules)
        ctx->shader_modules->prev = sm;
    ctx->shader_modules = sm;
    *out = sm;
    return TR_OK;
}

void tr_shader_module_destroy(tr_shader_module *module)
{
    if (!module)
        return;
    tr_context *ctx = module->ctx;
    if (module->prev)
        module->prev->next = module->next;
    else
        ctx->shader_modules = module->next;
    if (module->next)
        module->next->prev = module->prev;
    tr__spv_free(ctx, &module->m);
    tr__free(ctx, module);
}

/* ---- pipelines -------------------------------------------------------------------------------- */

static tr_result derive(tr_context *ctx, const char *field, uint32_t given, uint32_t derived, uint32_t *out)
{
    if (given && given != derived)
        return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR,
                         "tr_pipeline_desc.%s = 0x%x contradicts the fragment module, which implies 0x%x", field, given,
                         derived);
    *out = derived;
    return TR_OK;
}

static const char *loc_type_name(uint32_t t)
{
    return t == 1 ? "float" : t == 2 ? "int" : "uint";
}

static tr_result translate(tr_context *ctx, const tr_shader_module *sm, uint32_t model, const char *entry,
                           tr__spv_program **out)
{
    return tr__spv_translate(ctx, "tr_pipeline_create", &sm->m, model, entry, out);
}

tr_result tr__spv_pipeline_stages(tr_context *ctx, tr_pipeline_desc *d, struct tr__spv_program **vs_out,
                                  struct tr__spv_program **fs_out)
{
    *vs_out = *fs_out = NULL;
    if (d->vertex_shader && d->vertex_module)
        return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR,
                         "tr_pipeline_desc: vertex_shader and vertex_module are both set: a stage is a C callback or a "
                         "SPIR-V module, not both");
    if (d->fragment_shader && d->fragment_module)
        return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR,
                         "tr_pipeline_desc: fragment_shader and fragment_module are both set: a stage is a C callback "
                         "or a SPIR-V module, not both");
    tr__spv_program *vs = NULL, *fs = NULL;
    tr_result r = TR_OK;
    if (d->vertex_module)
        r = translate(ctx, d->vertex_module, SpvExecutionModelVertex, d->vertex_entry, &vs);
    if (r == TR_OK && d->fragment_module)
        r = translate(ctx, d->fragment_module, SpvExecutionModelFragment, d->fragment_entry, &fs);
    if (r == TR_OK && fs) {
        const uint32_t count = fs->varying_mask ? 32u - (uint32_t)__builtin_clz(fs->varying_mask) : 0u;
        uint32_t flags = fs->fs_flags;
        if (d->fs_flags & TR_FS_EARLY_TESTS)
            flags |= TR_FS_EARLY_TESTS; /* early tests may be asked for beside the module */
        if (r == TR_OK)
            r = derive(ctx, "texture_mask", d->texture_mask, fs->texture_mask, &d->texture_mask);
        if (r == TR_OK)
            r = derive(ctx, "varying_count", d->varying_count, count, &d->varying_count);
        if (r == TR_OK)
            r = derive(ctx, "flat_mask", d->flat_mask, fs->flat_mask, &d->flat_mask);
        if (r == TR_OK)
            r = derive(ctx, "noperspective_mask", d->noperspective_mask, fs->noperspective_mask,
                       &d->noperspective_mask);
        if (r == TR_OK)
            r = derive(ctx, "centroid_mask", d->centroid_mask, fs->centroid_mask, &d->centroid_mask);
        if (r == TR_OK)
            r = derive(ctx, "fs_flags", d->fs_flags, flags, &d->fs_flags);
    }
    if (r == TR_OK && vs && fs) {
        /* every fragment input is a vertex output of the same type */
        uint32_t vs_out_mask = 0;
        for (uint32_t i = 0; i < vs->output_count; i++)
            if (vs->outputs[i].kind == TR__OUT_VARYING)
                vs_out_mask |= 1u << vs->outputs[i].index;
        for (uint32_t loc = 0; loc < TR_MAX_VARYINGS && r == TR_OK; loc++) {
            if (!(fs->varying_mask >> loc & 1u))
                continue;
            if (!(vs_out_mask >> loc & 1u))
                r = tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR,
                              "tr_pipeline_create: fragment input location %u is not written by the vertex module "
                              "('%s')", loc, vs->entry);
            else if (vs->varying_types[loc] != fs->varying_types[loc])
                r = tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR,
                              "tr_pipeline_create: location %u is a %s vertex output but a %s fragment input", loc,
                              loc_type_name(vs->varying_types[loc]), loc_type_name(fs->varying_types[loc]));
        }
    }
    if (r != TR_OK) {
        tr__spv_program_free(ctx, vs);
        tr__spv_program_free(ctx, fs);
        return r;
    }
    if (vs)
        d->vertex_shader = tr__spv_vertex_marker;
    if (fs)
        d->fragment_shader = tr__spv_fragment_marker;
    *vs_out = vs;
    *fs_out = fs;
    return TR_OK;
}

/* Stand-ins in tr_pipeline.desc for stages that are programs: the stages
 * test the callbacks for NULL (is there a fragment stage?) and call
 * tr__shade_* below, which runs the program instead. */
void tr__spv_vertex_marker(tr_vs_batch *batch)
{
    (void)batch;
}

void tr__spv_fragment_marker(tr_fs_block *block)
{
    (void)block;
}

/* ---- draws ------------------------------------------------------------------------------------ */

tr_result tr__spv_draw_prepare(tr_context *ctx, const char *fn, tr__arena *arena, const tr_pipeline *pl,
                               const tr__spv_bindings *bind, tr__draw *d)
{
    d->spv = NULL;
    if (!pl->vs_prog && !pl->fs_prog)
        return TR_OK;
    const tr__spv_program *progs[2] = {pl->vs_prog, pl->fs_prog};
    for (int s = 0; s < 2; s++) {
        if (!progs[s])
            continue;
        for (uint32_t m = progs[s]->ubo_mask, b = 0; m; m >>= 1, b++)
            if ((m & 1u) && !bind->ubo[b])
                return tr__error(ctx, TR_ERROR_INVALID_STATE,
                                 "%s: the %s module ('%s') reads uniform buffer binding %u, which has nothing bound "
                                 "(tr_cmd_bind_uniform_buffer)", fn, s ? "fragment" : "vertex", progs[s]->entry, b);
    }
    tr__spv_draw *sd = tr__arena_alloc(ctx, arena, sizeof *sd);
    if (!sd)
        return TR_ERROR_OUT_OF_MEMORY;
    memset(sd, 0, sizeof *sd);
    for (uint32_t b = 0; b < TR_MAX_UNIFORM_BUFFERS; b++) {
        sd->res.buf[b] = bind->ubo[b];
        sd->res.buf_size[b] = bind->ubo_size[b];
    }
    sd->res.buf[TR__BUF_PUSH] = bind->push;
    sd->res.buf_size[TR__BUF_PUSH] = (uint32_t)bind->push_size;
    sd->res.textures = d->textures;
    sd->res.budget = ctx->desc.shader_budget ? ctx->desc.shader_budget : TR_DEFAULT_SHADER_BUDGET;
    sd->res.samples = bind->samples;
    sd->res.flip_y = bind->flip_y;
    atomic_init(&sd->failed, 0u);
    d->spv = sd;
    return TR_OK;
}

tr_result tr__spv_draw_check(tr_context *ctx, const char *fn, const tr__draw *d, uint32_t stage_bit)
{
    const uint32_t failed = d->spv ? atomic_load(&d->spv->failed) & (stage_bit | 4u) : 0u;
    if (!failed)
        return TR_OK;
    if (failed & 4u)
        return tr__error(ctx, TR_ERROR_OUT_OF_MEMORY,
                         "%s: out of memory for a SPIR-V shader's registers (the attachments are unspecified)", fn);
    stage_bit = failed & 1u ? 1u : 2u;
    const tr__spv_program *prog = stage_bit == 1 ? d->pipeline->vs_prog : d->pipeline->fs_prog;
    return tr__error(ctx, TR_ERROR_LIMIT_EXCEEDED,
                     "%s: the %s shader '%s' ran past its budget of %u SPIR-V instructions an invocation "
                     "(tr_context_desc.shader_budget; shader.h)", fn, stage_bit == 1 ? "vertex" : "fragment",
                     prog ? prog->entry : "?", d->spv->res.budget);
}

void tr__shade_vertices(const tr_pipeline *p, tr__spv_draw *spv, tr_vs_batch *b)
{
    if (!p->vs_prog) {
        p->desc.vertex_shader(b);
        return;
    }
    const tr_result r = spv ? tr__spv_run_vertex(p->vs_prog, &spv->res, b) : TR_OK;
    if (r != TR_OK)
        atomic_fetch_or(&spv->failed, r == TR_ERROR_OUT_OF_MEMORY ? 4u : 1u);
}

void tr__shade_fragments(const tr_pipeline *p, tr__spv_draw *spv, tr_fs_block *b)
{
    if (!p->fs_prog) {
        p->desc.fragment_shader(b);
        return;
    }
    const tr_result r = spv ? tr__spv_run_fragment(p->fs_prog, &spv->res, b) : TR_OK;
    if (r != TR_OK)
        atomic_fetch_or(&spv->failed, r == TR_ERROR_OUT_OF_MEMORY ? 4u : 2u);
}
