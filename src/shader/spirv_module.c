/* tilerast: reading a SPIR-V module (spirv_internal.h says what is checked
 * here and what is left to SPIRV-Tools' validator). */
#include <stdio.h>

#include <spirv/unified1/spirv.h>

#include "shader/spirv_internal.h"

/* ---- what tilerast runs ---------------------------------------------------------------------- */

/* Capabilities a vertex or fragment shader of 32-bit types needs (issue 30's
 * list); anything else is refused by name. */
static bool capability_supported(uint32_t cap)
{
    switch (cap) {
    case SpvCapabilityMatrix:
    case SpvCapabilityShader:
    case SpvCapabilityImageGatherExtended:  /* non-constant texel offsets */
    case SpvCapabilitySampleRateShading:    /* SampleId, SamplePosition, sample interpolation */
    case SpvCapabilityImageQuery:
    case SpvCapabilityMinLod:               /* the MinLod image operand */
    case SpvCapabilityDerivativeControl:
    case SpvCapabilityMultiView:            /* ViewIndex */
    case SpvCapabilityFragmentDensityEXT:   /* FragSizeEXT, FragInvocationCountEXT */
    case SpvCapabilityDemoteToHelperInvocation:
    case SpvCapabilityGeometry:             /* declared by fragment shaders that read PrimitiveId; geometry
                                               entry points and built-ins stay refused */
    case SpvCapabilityInterpolationFunction: /* InterpolateAtCentroid (AtSample / AtOffset: refused) */
        return true;
    default:
        return false;
    }
}

#define CAP(n) case SpvCapability##n: return #n;
const char *tr__spv_capability_name(uint32_t cap)
{
    switch (cap) {
    CAP(Matrix) CAP(Shader) CAP(Geometry) CAP(Tessellation) CAP(Addresses) CAP(Linkage) CAP(Kernel)
    CAP(Vector16) CAP(Float16Buffer) CAP(Float16) CAP(Float64) CAP(Int64) CAP(Int64Atomics) CAP(ImageBasic)
    CAP(ImageReadWrite) CAP(ImageMipmap) CAP(Pipes) CAP(Groups) CAP(DeviceEnqueue) CAP(LiteralSampler)
    CAP(AtomicStorage) CAP(Int16) CAP(TessellationPointSize) CAP(GeometryPointSize) CAP(ImageGatherExtended)
    CAP(StorageImageMultisample) CAP(UniformBufferArrayDynamicIndexing) CAP(SampledImageArrayDynamicIndexing)
    CAP(StorageBufferArrayDynamicIndexing) CAP(StorageImageArrayDynamicIndexing) CAP(ClipDistance)
    CAP(CullDistance) CAP(ImageCubeArray) CAP(SampleRateShading) CAP(ImageRect) CAP(SampledRect)
    CAP(GenericPointer) CAP(Int8) CAP(InputAttachment) CAP(SparseResidency) CAP(MinLod) CAP(Sampled1D)
    CAP(Image1D) CAP(SampledCubeArray) CAP(SampledBuffer) CAP(ImageBuffer) CAP(ImageMSArray)
    CAP(StorageImageExtendedFormats) CAP(ImageQuery) CAP(DerivativeControl) CAP(InterpolationFunction)
    CAP(TransformFeedback) CAP(GeometryStreams) CAP(StorageImageReadWithoutFormat)
    CAP(StorageImageWriteWithoutFormat) CAP(MultiViewport) CAP(DrawParameters) CAP(MultiView)
    CAP(StorageBuffer16BitAccess) CAP(VariablePointersStorageBuffer) CAP(VariablePointers)
    CAP(FragmentDensityEXT) CAP(DemoteToHelperInvocation) CAP(GroupNonUniform) CAP(Int64ImageEXT)
    CAP(RuntimeDescriptorArray) CAP(PhysicalStorageBufferAddresses) CAP(VulkanMemoryModel)
    CAP(ShaderNonUniform) CAP(StencilExportEXT) CAP(FragmentShaderPixelInterlockEXT)
    default: return NULL;
    }
}
#undef CAP

/* Extensions whose instructions and decorations tilerast understands (or
 * that only carry names and debug information). */
static bool extension_supported(const char *name)
{
    static const char *const ok[] = {
        "SPV_KHR_terminate_invocation", "SPV_EXT_demote_to_helper_invocation",
        "SPV_EXT_fragment_invocation_density", "SPV_KHR_multiview", "SPV_KHR_non_semantic_info",
        "SPV_GOOGLE_hlsl_functionality1", "SPV_GOOGLE_user_type", "SPV_GOOGLE_decorate_string",
    };
    for (size_t i = 0; i < TR_ARRAY_SIZE(ok); i++)
        if (!strcmp(name, ok[i]))
            return true;
    return false;
}

static const char *model_name(uint32_t model)
{
    static const char *const names[] = {"Vertex", "TessellationControl", "TessellationEvaluation", "Geometry",
                                        "Fragment", "GLCompute", "Kernel"};
    return model < TR_ARRAY_SIZE(names) ? names[model] : "an execution model beyond Kernel";
}

static const char *storage_name(uint32_t sc)
{
    static const char *const names[] = {"UniformConstant", "Input",         "Uniform",      "Output",
                                        "Workgroup",       "CrossWorkgroup", "Private",      "Function",
                                        "Generic",         "PushConstant",   "AtomicCounter", "Image",
                                        "StorageBuffer"};
    return sc < TR_ARRAY_SIZE(names) ? names[sc] : "a storage class beyond StorageBuffer";
}

/* ---- the walk ------------------------------------------------------------------------------- */

typedef struct walk {
    tr_context *ctx;
    const char *fn;
    tr__spv_module *m;
    const uint32_t *in;   /* the instruction */
    uint32_t len;         /* its words */
    size_t at;            /* its word offset */
    uint32_t *name_at;    /* by id: word offset of its OpName string, 0: none */
    uint32_t *member_decorations; /* word offsets of OpMemberDecorate, applied once structs are known */
    uint32_t member_decoration_count;
} walk;

static tr_result fail(const walk *w, tr_result code, const char *what, ...) TR_PRINTF(3, 4);
static tr_result fail(const walk *w, tr_result code, const char *what, ...)
{
    char text[320];
    va_list ap;
    va_start(ap, what);
    vsnprintf(text, sizeof text, what, ap);
    va_end(ap);
    return tr__error(w->ctx, code, "%s: SPIR-V word %zu (opcode %u): %s", w->fn, w->at, w->in ? w->in[0] & 0xffffu : 0u,
                     text);
}

/* A nul-terminated literal string starting at operand word k, inside the
 * instruction; *next is the operand after it. */
static const char *string_at(const walk *w, uint32_t k, uint32_t *next)
{
    if (k >= w->len)
        return NULL;
    const char *s = (const char *)(w->in + k);
    const size_t room = (size_t)(w->len - k) * 4;
    const char *end = memchr(s, '\0', room);
    if (!end)
        return NULL;
    const size_t n = (size_t)(end - s);
    if (next)
        *next = k + (uint32_t)(n / 4 + 1);
    return s;
}

static bool id_ok(const walk *w, uint32_t id)
{
    return id > 0 && id < w->m->bound;
}

/* The name OpName gave an id, for messages ("" when none). */
static const char *name_of(const walk *w, uint32_t id)
{
    return id_ok(w, id) && w->name_at[id] ? (const char *)(w->m->words + w->name_at[id]) : "";
}

#define NEED(n)                                                                                                   \
    do {                                                                                                          \
        if (w->len < (n))                                                                                         \
            return fail(w, TR_ERROR_INVALID_ARGUMENT, "%u words, the instruction needs at least %u", w->len,     \
                        (unsigned)(n));                                                                           \
    } while (0)
#define ID(k)                                                                                                     \
    do {                                                                                                          \
        if (!id_ok(w, w->in[k]))                                                                                  \
            return fail(w, TR_ERROR_INVALID_ARGUMENT, "operand %u is id %u, outside 1..%u", (unsigned)(k),       \
                        w->in[k], w->m->bound - 1);                                                               \
    } while (0)

static tr_result decorate(walk *w, tr__spv_decor *d, const uint32_t *op, uint32_t n)
{
    if (n < 1)
        return fail(w, TR_ERROR_INVALID_ARGUMENT, "a decoration without its number");
    const uint32_t v = n > 1 ? op[1] : 0;
    switch (op[0]) {
    case SpvDecorationLocation: d->location = v; break;
    case SpvDecorationComponent: d->component = v; break;
    case SpvDecorationBinding: d->binding = v; break;
    case SpvDecorationDescriptorSet: d->set = v; break;
    case SpvDecorationBuiltIn: d->builtin = v; break;
    case SpvDecorationSpecId: d->spec_id = v; break;
    case SpvDecorationOffset: d->offset = v; break;
    case SpvDecorationArrayStride: d->array_stride = v; break;
    case SpvDecorationMatrixStride: d->matrix_stride = v; break;
    case SpvDecorationIndex: d->index = v; break;
    case SpvDecorationRowMajor: d->row_major = true; break;
    case SpvDecorationFlat: d->flat = true; break;
    case SpvDecorationNoPerspective: d->noperspective = true; break;
    case SpvDecorationCentroid: d->centroid = true; break;
    case SpvDecorationSample: d->sample = true; break;
    case SpvDecorationBlock: d->block = true; break;
    case SpvDecorationBufferBlock: d->buffer_block = true; break;
    default: break; /* offsets, strides, names for tools: read where used */
    }
    if ((op[0] == SpvDecorationLocation || op[0] == SpvDecorationComponent || op[0] == SpvDecorationBinding ||
         op[0] == SpvDecorationDescriptorSet || op[0] == SpvDecorationBuiltIn || op[0] == SpvDecorationSpecId ||
         op[0] == SpvDecorationOffset || op[0] == SpvDecorationArrayStride || op[0] == SpvDecorationMatrixStride ||
         op[0] == SpvDecorationIndex) &&
        n < 2)
        return fail(w, TR_ERROR_INVALID_ARGUMENT, "decoration %u without its value", op[0]);
    return TR_OK;
}

/* OpEntryPoint: a vertex or fragment entry point and its interface. */
static tr_result declare_entry(walk *w)
{
    tr__spv_module *m = w->m;
    const uint32_t *in = w->in;
    NEED(4);
    ID(2);
    if (in[1] != SpvExecutionModelVertex && in[1] != SpvExecutionModelFragment)
        return fail(w, TR_ERROR_UNSUPPORTED_FORMAT, "a %s entry point: only Vertex and Fragment are supported",
                    model_name(in[1]));
    uint32_t k;
    const char *s = string_at(w, 3, &k);
    if (!s)
        return fail(w, TR_ERROR_INVALID_ARGUMENT, "OpEntryPoint's name is not terminated");
    if (strlen(s) >= sizeof m->entries[0].name)
        return fail(w, TR_ERROR_LIMIT_EXCEEDED, "entry point name longer than %zu bytes",
                    sizeof m->entries[0].name - 1);
    tr__spv_entry *e = &m->entries[m->entry_count++];
    memset(e, 0, sizeof *e);
    e->model = in[1];
    e->function = in[2];
    snprintf(e->name, sizeof e->name, "%s", s);
    e->interface0 = m->interface_count;
    for (; k < w->len; k++) {
        ID(k);
        m->interface_ids[m->interface_count++] = in[k];
    }
    e->interfaces = m->interface_count - e->interface0;
    return TR_OK;
}

/* A type declaration of the preamble: kept by id in m->types. */
static tr_result declare_type(walk *w, uint32_t op)
{
    tr__spv_module *m = w->m;
    const uint32_t *in = w->in;
    switch (op) {
    case SpvOpTypeInt:
    case SpvOpTypeFloat:
        NEED(op == SpvOpTypeInt ? 4 : 3);
        ID(1);
        if (in[2] != 32)
            return fail(w, TR_ERROR_UNSUPPORTED_FORMAT, "%u-bit %s: only 32-bit types are supported", in[2],
                        op == SpvOpTypeInt ? "integers" : "floats");
        m->types[in[1]] = (tr__spv_type){.op = (uint16_t)op, .width = 32, .sign = op == SpvOpTypeInt ? in[3] : 0};
        return TR_OK;
    case SpvOpTypeVoid:
    case SpvOpTypeBool:
    case SpvOpTypeSampler:
        NEED(2);
        ID(1);
        m->types[in[1]] = (tr__spv_type){.op = (uint16_t)op};
        return TR_OK;
    case SpvOpTypeVector:
    case SpvOpTypeMatrix:
        NEED(4);
        ID(1);
        ID(2);
        m->types[in[1]] = (tr__spv_type){.op = (uint16_t)op, .elem = in[2], .count = in[3]};
        return TR_OK;
    case SpvOpTypeImage:
        NEED(9);
        ID(1);
        ID(2);
        if (in[7] == 2)
            return fail(w, TR_ERROR_UNSUPPORTED_FORMAT, "a storage image (%s): images are only sampled",
                        name_of(w, in[1]));
        if (in[3] == SpvDimBuffer || in[3] == SpvDimSubpassData)
            return fail(w, TR_ERROR_UNSUPPORTED_FORMAT, "image dimension %s is not supported",
                        in[3] == SpvDimBuffer ? "Buffer" : "SubpassData");
        m->types[in[1]] = (tr__spv_type){.op = (uint16_t)op, .elem = in[2], .image_dim = in[3],
                                         .image_depth = in[4], .image_arrayed = in[5], .image_ms = in[6],
                                         .image_sampled = in[7]};
        return TR_OK;
    case SpvOpTypeSampledImage:
        NEED(3);
        ID(1);
        ID(2);
        m->types[in[1]] = (tr__spv_type){.op = (uint16_t)op, .elem = in[2]};
        return TR_OK;
    case SpvOpTypeArray:
        NEED(4);
        ID(1);
        ID(2);
        ID(3);
        if (!m->is_constant[in[3]])
            return fail(w, TR_ERROR_INVALID_ARGUMENT, "array length %u is not a 32-bit constant", in[3]);
        m->types[in[1]] = (tr__spv_type){.op = (uint16_t)op, .elem = in[2], .count = m->constant[in[3]]};
        return TR_OK;
    case SpvOpTypeRuntimeArray:
        NEED(3);
        ID(1);
        ID(2);
        m->types[in[1]] = (tr__spv_type){.op = (uint16_t)op, .elem = in[2]};
        return TR_OK;
    case SpvOpTypeStruct:
        NEED(2);
        ID(1);
        m->types[in[1]] = (tr__spv_type){.op = (uint16_t)op, .member0 = m->member_count, .members = w->len - 2};
        for (uint32_t k = 2; k < w->len; k++) {
            ID(k);
            m->member_types[m->member_count++] = in[k];
        }
        return TR_OK;
    case SpvOpTypePointer:
        NEED(4);
        ID(1);
        ID(3);
        m->types[in[1]] = (tr__spv_type){.op = (uint16_t)op, .storage = in[2], .elem = in[3]};
        return TR_OK;
    case SpvOpTypeFunction:
        NEED(3);
        ID(1);
        m->types[in[1]] = (tr__spv_type){.op = (uint16_t)op};
        return TR_OK;
    default:
        return TR_OK;
    }
}

/* One instruction of the module's preamble (everything before the first
 * OpFunction). */
static tr_result preamble(walk *w, uint32_t op)
{
    tr__spv_module *m = w->m;
    const uint32_t *in = w->in;
    switch (op) {
    case SpvOpCapability:
        NEED(2);
        if (!capability_supported(in[1])) {
            const char *n = tr__spv_capability_name(in[1]);
            return n ? fail(w, TR_ERROR_UNSUPPORTED_FORMAT, "capability %s is not supported", n)
                     : fail(w, TR_ERROR_UNSUPPORTED_FORMAT, "capability %u is not supported", in[1]);
        }
        return TR_OK;
    case SpvOpExtension: {
        const char *s = string_at(w, 1, NULL);
        if (!s)
            return fail(w, TR_ERROR_INVALID_ARGUMENT, "OpExtension's name is not terminated");
        return extension_supported(s) ? TR_OK
                                      : fail(w, TR_ERROR_UNSUPPORTED_FORMAT, "extension %s is not supported", s);
    }
    case SpvOpExtInstImport: {
        NEED(3);
        ID(1);
        const char *s = string_at(w, 2, NULL);
        if (!s)
            return fail(w, TR_ERROR_INVALID_ARGUMENT, "OpExtInstImport's name is not terminated");
        if (!strcmp(s, "GLSL.std.450"))
            m->glsl_std_450 = in[1];
        else if (strncmp(s, "NonSemantic.", 12) != 0) /* debug information: ignored */
            return fail(w, TR_ERROR_UNSUPPORTED_FORMAT, "extended instruction set %s is not supported", s);
        return TR_OK;
    }
    case SpvOpMemoryModel:
        NEED(3);
        if (in[1] != SpvAddressingModelLogical)
            return fail(w, TR_ERROR_UNSUPPORTED_FORMAT, "addressing model %u: only Logical is supported", in[1]);
        if (in[2] != SpvMemoryModelGLSL450 && in[2] != SpvMemoryModelVulkan)
            return fail(w, TR_ERROR_UNSUPPORTED_FORMAT, "memory model %u: only GLSL450 and Vulkan are supported",
                        in[2]);
        return TR_OK;
    case SpvOpEntryPoint:
        return declare_entry(w);
    case SpvOpExecutionMode:
        NEED(3);
        ID(1);
        for (uint32_t i = 0; i < m->entry_count; i++)
            if (m->entries[i].function == in[1]) {
                tr__spv_entry *e = &m->entries[i];
                e->origin_upper_left |= in[2] == SpvExecutionModeOriginUpperLeft;
                e->early_tests |= in[2] == SpvExecutionModeEarlyFragmentTests;
                e->depth_replacing |= in[2] == SpvExecutionModeDepthReplacing;
            }
        return TR_OK;
    case SpvOpName:
        NEED(3);
        ID(1);
        if (!string_at(w, 2, NULL))
            return fail(w, TR_ERROR_INVALID_ARGUMENT, "OpName's string is not terminated");
        w->name_at[in[1]] = (uint32_t)(w->at + 2);
        return TR_OK;
    case SpvOpDecorate:
        NEED(3);
        ID(1);
        return decorate(w, &m->decor[in[1]], in + 2, w->len - 2);
    case SpvOpMemberDecorate:
        NEED(4);
        ID(1);
        w->member_decorations[w->member_decoration_count++] = (uint32_t)w->at; /* applied by finish() */
        return TR_OK;
    case SpvOpTypeVoid:
    case SpvOpTypeBool:
    case SpvOpTypeInt:
    case SpvOpTypeFloat:
    case SpvOpTypeVector:
    case SpvOpTypeMatrix:
    case SpvOpTypeImage:
    case SpvOpTypeSampler:
    case SpvOpTypeSampledImage:
    case SpvOpTypeArray:
    case SpvOpTypeRuntimeArray:
    case SpvOpTypeStruct:
    case SpvOpTypePointer:
    case SpvOpTypeFunction:
        return declare_type(w, op);
    case SpvOpConstant:
    case SpvOpSpecConstant:
        NEED(4);
        ID(1);
        ID(2);
        if (w->len == 4) { /* 32-bit scalars; wider types were refused with their capability */
            m->is_constant[in[2]] = true;
            m->constant[in[2]] = in[3];
        }
        return TR_OK;
    case SpvOpConstantTrue:
    case SpvOpConstantFalse:
    case SpvOpSpecConstantTrue:
    case SpvOpSpecConstantFalse:
        NEED(3);
        ID(1);
        ID(2);
        m->is_constant[in[2]] = true;
        m->constant[in[2]] = op == SpvOpConstantTrue || op == SpvOpSpecConstantTrue;
        return TR_OK;
    case SpvOpVariable: {
        NEED(4);
        ID(1);
        ID(2);
        const uint32_t sc = in[3], id = in[2];
        switch (sc) {
        case SpvStorageClassUniformConstant:
        case SpvStorageClassInput:
        case SpvStorageClassUniform:
        case SpvStorageClassOutput:
        case SpvStorageClassPrivate:
        case SpvStorageClassPushConstant:
            break;
        default:
            return fail(w, TR_ERROR_UNSUPPORTED_FORMAT, "variable %u '%s' in storage class %s: not supported", id,
                        name_of(w, id), storage_name(sc));
        }
        m->vars[m->var_count++] = (tr__spv_var){id, in[1], sc};
        return TR_OK;
    }
    default:
        return TR_OK; /* debug strings, lines, undefs, composite constants: read when the code runs */
    }
}

/* Checks what needs the whole preamble: descriptor sets, buffer blocks,
 * every entry's function defined. */
static tr_result finish(walk *w)
{
    tr__spv_module *m = w->m;
    for (uint32_t i = 0; i < w->member_decoration_count; i++) {
        w->at = w->member_decorations[i];
        w->in = m->words + w->at;
        w->len = w->in[0] >> 16;
        const tr__spv_type *t = &m->types[w->in[1]];
        if (t->op != SpvOpTypeStruct || w->in[2] >= t->members)
            return fail(w, TR_ERROR_INVALID_ARGUMENT, "OpMemberDecorate of member %u of id %u, not a member of a struct",
                        w->in[2], w->in[1]);
        const tr_result r = decorate(w, &m->member_decor[t->member0 + w->in[2]], w->in + 3, w->len - 3);
        if (r != TR_OK)
            return r;
    }
    w->in = NULL;
    w->at = m->code_begin;
    for (uint32_t i = 0; i < m->var_count; i++) {
        const tr__spv_var *v = &m->vars[i];
        const tr__spv_decor *d = &m->decor[v->id];
        if (d->set != TR__SPV_NONE && d->set != 0)
            return fail(w, TR_ERROR_UNSUPPORTED_FORMAT,
                        "variable %u '%s' is in descriptor set %u: only set 0 is supported", v->id,
                        name_of(w, v->id), d->set);
        const tr__spv_type *pt = &m->types[v->type];
        if (pt->op != SpvOpTypePointer)
            return fail(w, TR_ERROR_INVALID_ARGUMENT, "variable %u '%s': its type %u is not a pointer", v->id,
                        name_of(w, v->id), v->type);
        uint32_t t = pt->elem;
        for (int depth = 0; depth < 64 && id_ok(w, t) &&
                            (m->types[t].op == SpvOpTypeArray || m->types[t].op == SpvOpTypeRuntimeArray);
             depth++) /* bounded: an unvalidated module may make an array its own element */
            t = m->types[t].elem;
        if (v->storage == SpvStorageClassUniform && id_ok(w, t) && m->decor[t].buffer_block)
            return fail(w, TR_ERROR_UNSUPPORTED_FORMAT,
                        "variable %u '%s' is a storage buffer (BufferBlock): only uniform blocks are supported",
                        v->id, name_of(w, v->id));
    }
    if (!m->entry_count)
        return fail(w, TR_ERROR_INVALID_ARGUMENT, "the module has no entry point");
    return TR_OK;
}

tr_result tr__spv_parse(tr_context *ctx, const char *fn, const uint32_t *words, size_t word_count,
                        tr__spv_module *m)
{
    memset(m, 0, sizeof *m);
    walk w0 = {ctx, fn, m, NULL, 0, 0, NULL, NULL, 0}, *w = &w0;
    if (word_count < 5)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "%s: %zu words: a SPIR-V module has a 5-word header", fn,
                         word_count);
    if (words[0] != SpvMagicNumber)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT,
                         "%s: word 0 is 0x%08x, not the SPIR-V magic number 0x07230203%s", fn, words[0],
                         words[0] == 0x03022307u ? " (the module is in the other byte order)" : "");
    m->version = words[1];
    if (m->version < 0x00010000u || m->version > 0x00010600u || (m->version & 0xff0000ffu))
        return tr__error(ctx, TR_ERROR_UNSUPPORTED_FORMAT, "%s: SPIR-V version 0x%08x: 1.0 to 1.6 are supported", fn,
                         m->version);
    m->bound = words[3];
    if (m->bound < 2 || m->bound > (1u << 22))
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "%s: id bound %u (header word 3) is outside 2..2^22", fn,
                         m->bound);
    /* Tables are kept per id: a bound far above what the words can define
     * (each id takes at least one word) would cost time and memory for
     * nothing.  Compilers' output, optimised or not, stays well inside. */
    if ((uint64_t)m->bound > (uint64_t)word_count * TR__SPV_BOUND_PER_WORD + 4096)
        return tr__error(ctx, TR_ERROR_LIMIT_EXCEEDED,
                         "%s: id bound %u (header word 3) is more than %u ids per word of the module's %zu words "
                         "(+ 4096)", fn, m->bound, TR__SPV_BOUND_PER_WORD, word_count);
    if (words[4] != 0)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "%s: header word 4 (schema) is %u, not 0", fn, words[4]);
    /* Per-id tables, and per-instruction ones sized by the word count
     * (an instruction takes at least one word per entry it adds). */
    const size_t bound = m->bound, n = word_count;
    m->types = tr__calloc(ctx, bound * sizeof *m->types);
    m->decor = tr__alloc(ctx, bound * sizeof *m->decor);
    m->constant = tr__calloc(ctx, bound * sizeof *m->constant);
    m->is_constant = tr__calloc(ctx, bound * sizeof *m->is_constant);
    w->name_at = tr__calloc(ctx, bound * sizeof *w->name_at);
    m->member_types = tr__alloc(ctx, n * sizeof *m->member_types);
    m->member_decor = tr__alloc(ctx, n * sizeof *m->member_decor);
    w->member_decorations = tr__alloc(ctx, n / 4 * sizeof *w->member_decorations + sizeof *w->member_decorations);
    m->vars = tr__alloc(ctx, n / 4 * sizeof *m->vars + sizeof *m->vars);
    m->interface_ids = tr__alloc(ctx, n * sizeof *m->interface_ids);
    m->entries = tr__alloc(ctx, n / 4 * sizeof *m->entries + sizeof *m->entries);
    uint32_t *copy = tr__alloc(ctx, n * sizeof *copy);
    tr_result r = TR_OK;
    if (!m->types || !m->decor || !m->constant || !m->is_constant || !w->name_at || !m->member_types ||
        !m->member_decor || !w->member_decorations || !m->vars ||
        !m->interface_ids || !m->entries || !copy) {
        tr__free(ctx, copy);
        r = tr__error(ctx, TR_ERROR_OUT_OF_MEMORY, "%s: out of memory for a module of %zu words and %zu ids", fn, n,
                      bound);
        goto done;
    }
    memcpy(copy, words, n * sizeof *copy);
    m->words = copy;
    m->word_count = n;
    const tr__spv_decor none = {TR__SPV_NONE, TR__SPV_NONE, TR__SPV_NONE, TR__SPV_NONE, TR__SPV_NONE, TR__SPV_NONE,
                                TR__SPV_NONE, TR__SPV_NONE, TR__SPV_NONE, TR__SPV_NONE,
                                false, false, false, false, false, false, false};
    for (size_t i = 0; i < bound; i++)
        m->decor[i] = none;
    for (size_t i = 0; i < n; i++)
        m->member_decor[i] = none;
    m->code_begin = n;
    for (size_t i = 5; i < n;) {
        const uint32_t len = copy[i] >> 16, op = copy[i] & 0xffffu;
        w->in = copy + i;
        w->at = i;
        w->len = len;
        if (len == 0 || len > n - i) {
            r = fail(w, TR_ERROR_INVALID_ARGUMENT, "an instruction of %u words, but %zu remain", len, n - i);
            goto done;
        }
        if (op == SpvOpFunction && m->code_begin == n)
            m->code_begin = i;
        if (m->code_begin == n) {
            r = preamble(w, op);
            if (r != TR_OK)
                goto done;
        }
        i += len;
    }
    r = finish(w);
done:
    tr__free(ctx, w->name_at);
    tr__free(ctx, w->member_decorations);
    if (r != TR_OK)
        tr__spv_free(ctx, m);
    return r;
}

void tr__spv_free(tr_context *ctx, tr__spv_module *m)
{
    tr__free(ctx, (void *)m->words);
    tr__free(ctx, m->types);
    tr__free(ctx, m->decor);
    tr__free(ctx, m->constant);
    tr__free(ctx, m->is_constant);
    tr__free(ctx, m->member_types);
    tr__free(ctx, m->member_decor);
    tr__free(ctx, m->vars);
    tr__free(ctx, m->interface_ids);
    tr__free(ctx, m->entries);
    memset(m, 0, sizeof *m);
}

const tr__spv_entry *tr__spv_find_entry(const tr__spv_module *m, uint32_t model, const char *name)
{
    for (uint32_t i = 0; i < m->entry_count; i++)
        if (m->entries[i].model == model && !strcmp(m->entries[i].name, name ? name : "main"))
            return &m->entries[i];
    return NULL;
}

static uint32_t locations(const tr__spv_module *m, uint32_t type, int depth)
{
    if (type == 0 || type >= m->bound || depth > 64) /* an unvalidated module may nest types in a cycle */
        return 0;
    const tr__spv_type *t = &m->types[type];
    switch (t->op) {
    case SpvOpTypeBool:
    case SpvOpTypeInt:
    case SpvOpTypeFloat:
    case SpvOpTypeVector:
        return 1;
    case SpvOpTypeMatrix:
        return t->count;
    case SpvOpTypeArray: {
        const uint64_t n = (uint64_t)t->count * locations(m, t->elem, depth + 1);
        return n > UINT32_MAX ? 0 : (uint32_t)n;
    }
    default:
        return 0;
    }
}

uint32_t tr__spv_locations(const tr__spv_module *m, uint32_t type)
{
    return locations(m, type, 0);
}
