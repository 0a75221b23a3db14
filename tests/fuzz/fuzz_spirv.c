/* libFuzzer target: mutated SPIR-V modules (seed corpus: GLSL of
 * tests/shader/test_spirv_exec_*.c compiled with shaderc) through module
 * creation, pipelines and a draw.  Each module goes to the front end alone
 * (tr__spv_parse, whose result must hold together), then to
 * tr_shader_module_create (the front end, then SPIRV-Tools' validator).
 * One it accepts goes to tr_pipeline_create as the fragment module beside
 * a fixed vertex module, and as the vertex module beside a fixed fragment
 * module; each pipeline made draws one triangle over a 16 x 16 pass with
 * uniform buffers 0..3, push constants, a texture in every slot and vertex
 * attributes, under a small shader budget so that endless loops stop at
 * once.  Every call may fail, but only with a tr_result and a message
 * (result.h's contract): no crash, no sanitizer report, no leak (the
 * allocator counts).
 *
 * The input's layout: the module is its words up to the last OpFunctionEnd
 * that a walk of the instructions from the header reaches (all its words
 * when the walk reaches none); the bytes after that are XORed over
 * draw_data's defaults, from its start (flags, then uniform buffer 0, push
 * constants, ...), so that a seed that is a bare module draws with the
 * defaults and a mutation that appends bytes changes the draw. */
#define _POSIX_C_SOURCE 200809L /* posix_memalign (fuzz_common.h) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tilerast/tilerast.h>

#define FUZZ_ALLOC_CAP (64u << 20)
#include "fuzz_common.h"
#include "shader/spirv_internal.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#include <sanitizer/asan_interface.h>
#endif
#endif
#ifndef ASAN_POISON_MEMORY_REGION
#define ASAN_POISON_MEMORY_REGION(p, n) ((void)(p), (void)(n))
#define ASAN_UNPOISON_MEMORY_REGION(p, n) ((void)(p), (void)(n))
#endif

/* Instructions an invocation may run (tr_context_desc.shader_budget): the
 * seeds need at most a few hundred; an endless loop stops after this many,
 * which keeps an input under a few milliseconds. */
#define SHADER_BUDGET 2000u
#define W 16u
#define H 16u

/* ---- the error contract (result.h) ------------------------------------------------------------ */

/* A failure leaves a message on the thread and on the context; a success
 * clears both.  Anything else is a finding: abort. */
static tr_result contract(const tr_context *ctx, tr_result r, const char *call)
{
    const char *m = tr_last_error();
    if ((r != TR_OK) != (m[0] != '\0') || (ctx && strcmp(m, tr_context_last_error(ctx)) != 0)) {
        fprintf(stderr, "fuzz_spirv: %s returned %s with the message \"%s\" (the context's: \"%s\")\n", call,
                tr_result_string(r), m, ctx ? tr_context_last_error(ctx) : "");
        abort();
    }
    return r;
}
#define C(call) contract(ctx, (call), #call)

/* ---- the fixed partner modules ----------------------------------------------------------------
 * Compiled once with shaderc (Vulkan 1.1 target, shaderc_optimization_level_size).  A
 * fragment module's inputs must be outputs of the vertex module, of the
 * same kind (float, int or uint) at each location, so there are three
 * vertex partners that write all 16 locations, one of each kind; the
 * target tries them in turn while the refusal is a kind mismatch (a module
 * whose inputs mix kinds pairs with none: its refusal is checked like any
 * other).  Their outputs add uniform buffer 3 (fuzzed) to the position, so
 * fragment inputs take fuzzed values too.
 *
 * vs_float:
 *   #version 450
 *   layout(binding = 3) uniform V { vec4 a[16]; } v;
 *   layout(location = 0) out vec4 o[16];
 *   void main() {
 *       vec2 p = vec2(float((gl_VertexIndex & 1) * 4) - 1.0, float((gl_VertexIndex & 2) * 2) - 1.0);
 *       gl_Position = vec4(p, 0.5, 1.0);
 *       for (int i = 0; i < 16; i++)
 *           o[i] = v.a[i] + vec4(p, float(i), 1.0);
 *   }
 * vs_int: the same with `ivec4 a[16]`, `out ivec4 o[16]` and
 *   ivec2 q = ivec2((gl_VertexIndex & 1) * 4 - 1, (gl_VertexIndex & 2) * 2 - 1);
 *   gl_Position = vec4(vec2(q), 0.5, 1.0);
 *   o[i] = v.a[i] + ivec4(q, i, gl_VertexIndex);
 * vs_uint: vs_int with uvec4 for ivec4 and
 *   o[i] = v.a[i] + uvec4(uvec2(q), uint(i), uint(gl_VertexIndex));
 * fs_fixed (reads no input, so it pairs with any vertex module):
 *   #version 450
 *   layout(location = 0) out vec4 c;
 *   void main() { c = vec4(gl_FragCoord.xy * 0.0625, gl_FragCoord.z, 1.0); }
 */
static const uint32_t vs_float[] = {
    0x07230203, 0x00010300, 0x000d000b, 0x0000004e, 0x00000000, 0x00020011,
    0x00000001, 0x0006000b, 0x00000001, 0x4c534c47, 0x6474732e, 0x3035342e,
    0x00000000, 0x0003000e, 0x00000000, 0x00000001, 0x0008000f, 0x00000000,
    0x00000004, 0x6e69616d, 0x00000000, 0x0000000c, 0x00000022, 0x00000039,
    0x00040047, 0x0000000c, 0x0000000b, 0x0000002a, 0x00050048, 0x00000020,
    0x00000000, 0x0000000b, 0x00000000, 0x00050048, 0x00000020, 0x00000001,
    0x0000000b, 0x00000001, 0x00050048, 0x00000020, 0x00000002, 0x0000000b,
    0x00000003, 0x00050048, 0x00000020, 0x00000003, 0x0000000b, 0x00000004,
    0x00030047, 0x00000020, 0x00000002, 0x00040047, 0x00000039, 0x0000001e,
    0x00000000, 0x00040047, 0x0000003b, 0x00000006, 0x00000010, 0x00050048,
    0x0000003c, 0x00000000, 0x00000023, 0x00000000, 0x00030047, 0x0000003c,
    0x00000002, 0x00040047, 0x0000003e, 0x00000022, 0x00000000, 0x00040047,
    0x0000003e, 0x00000021, 0x00000003, 0x00020013, 0x00000002, 0x00030021,
    0x00000003, 0x00000002, 0x00030016, 0x00000006, 0x00000020, 0x00040015,
    0x0000000a, 0x00000020, 0x00000001, 0x00040020, 0x0000000b, 0x00000001,
    0x0000000a, 0x0004003b, 0x0000000b, 0x0000000c, 0x00000001, 0x0004002b,
    0x0000000a, 0x0000000e, 0x00000001, 0x0004002b, 0x0000000a, 0x00000010,
    0x00000004, 0x0004002b, 0x00000006, 0x00000013, 0x3f800000, 0x0004002b,
    0x0000000a, 0x00000016, 0x00000002, 0x00040017, 0x0000001c, 0x00000006,
    0x00000004, 0x00040015, 0x0000001d, 0x00000020, 0x00000000, 0x0004002b,
    0x0000001d, 0x0000001e, 0x00000001, 0x0004001c, 0x0000001f, 0x00000006,
    0x0000001e, 0x0006001e, 0x00000020, 0x0000001c, 0x00000006, 0x0000001f,
    0x0000001f, 0x00040020, 0x00000021, 0x00000003, 0x00000020, 0x0004003b,
    0x00000021, 0x00000022, 0x00000003, 0x0004002b, 0x0000000a, 0x00000023,
    0x00000000, 0x0004002b, 0x00000006, 0x00000025, 0x3f000000, 0x00040020,
    0x00000029, 0x00000003, 0x0000001c, 0x0004002b, 0x0000000a, 0x00000033,
    0x00000010, 0x00020014, 0x00000034, 0x0004002b, 0x0000001d, 0x00000036,
    0x00000010, 0x0004001c, 0x00000037, 0x0000001c, 0x00000036, 0x00040020,
    0x00000038, 0x00000003, 0x00000037, 0x0004003b, 0x00000038, 0x00000039,
    0x00000003, 0x0004001c, 0x0000003b, 0x0000001c, 0x00000036, 0x0003001e,
    0x0000003c, 0x0000003b, 0x00040020, 0x0000003d, 0x00000002, 0x0000003c,
    0x0004003b, 0x0000003d, 0x0000003e, 0x00000002, 0x00040020, 0x00000040,
    0x00000002, 0x0000001c, 0x00050036, 0x00000002, 0x00000004, 0x00000000,
    0x00000003, 0x000200f8, 0x00000005, 0x0004003d, 0x0000000a, 0x0000000d,
    0x0000000c, 0x000500c7, 0x0000000a, 0x0000000f, 0x0000000d, 0x0000000e,
    0x00050084, 0x0000000a, 0x00000011, 0x0000000f, 0x00000010, 0x0004006f,
    0x00000006, 0x00000012, 0x00000011, 0x00050083, 0x00000006, 0x00000014,
    0x00000012, 0x00000013, 0x000500c7, 0x0000000a, 0x00000017, 0x0000000d,
    0x00000016, 0x00050084, 0x0000000a, 0x00000018, 0x00000017, 0x00000016,
    0x0004006f, 0x00000006, 0x00000019, 0x00000018, 0x00050083, 0x00000006,
    0x0000001a, 0x00000019, 0x00000013, 0x00070050, 0x0000001c, 0x00000028,
    0x00000014, 0x0000001a, 0x00000025, 0x00000013, 0x00050041, 0x00000029,
    0x0000002a, 0x00000022, 0x00000023, 0x0003003e, 0x0000002a, 0x00000028,
    0x000200f9, 0x0000002d, 0x000200f8, 0x0000002d, 0x000700f5, 0x0000000a,
    0x0000004d, 0x00000023, 0x00000005, 0x0000004c, 0x0000002e, 0x000500b1,
    0x00000034, 0x00000035, 0x0000004d, 0x00000033, 0x000400f6, 0x0000002f,
    0x0000002e, 0x00000000, 0x000400fa, 0x00000035, 0x0000002e, 0x0000002f,
    0x000200f8, 0x0000002e, 0x00060041, 0x00000040, 0x00000041, 0x0000003e,
    0x00000023, 0x0000004d, 0x0004003d, 0x0000001c, 0x00000042, 0x00000041,
    0x0004006f, 0x00000006, 0x00000045, 0x0000004d, 0x00070050, 0x0000001c,
    0x00000048, 0x00000014, 0x0000001a, 0x00000045, 0x00000013, 0x00050081,
    0x0000001c, 0x00000049, 0x00000042, 0x00000048, 0x00050041, 0x00000029,
    0x0000004a, 0x00000039, 0x0000004d, 0x0003003e, 0x0000004a, 0x00000049,
    0x00050080, 0x0000000a, 0x0000004c, 0x0000004d, 0x0000000e, 0x000200f9,
    0x0000002d, 0x000200f8, 0x0000002f, 0x000100fd, 0x00010038,
};
static const uint32_t vs_int[] = {
    0x07230203, 0x00010300, 0x000d000b, 0x00000050, 0x00000000, 0x00020011,
    0x00000001, 0x0006000b, 0x00000001, 0x4c534c47, 0x6474732e, 0x3035342e,
    0x00000000, 0x0003000e, 0x00000000, 0x00000001, 0x0008000f, 0x00000000,
    0x00000004, 0x6e69616d, 0x00000000, 0x0000000b, 0x0000001f, 0x0000003a,
    0x00040047, 0x0000000b, 0x0000000b, 0x0000002a, 0x00050048, 0x0000001d,
    0x00000000, 0x0000000b, 0x00000000, 0x00050048, 0x0000001d, 0x00000001,
    0x0000000b, 0x00000001, 0x00050048, 0x0000001d, 0x00000002, 0x0000000b,
    0x00000003, 0x00050048, 0x0000001d, 0x00000003, 0x0000000b, 0x00000004,
    0x00030047, 0x0000001d, 0x00000002, 0x00040047, 0x0000003a, 0x0000001e,
    0x00000000, 0x00040047, 0x0000003c, 0x00000006, 0x00000010, 0x00050048,
    0x0000003d, 0x00000000, 0x00000023, 0x00000000, 0x00030047, 0x0000003d,
    0x00000002, 0x00040047, 0x0000003f, 0x00000022, 0x00000000, 0x00040047,
    0x0000003f, 0x00000021, 0x00000003, 0x00020013, 0x00000002, 0x00030021,
    0x00000003, 0x00000002, 0x00040015, 0x00000006, 0x00000020, 0x00000001,
    0x00040017, 0x00000007, 0x00000006, 0x00000002, 0x00040020, 0x0000000a,
    0x00000001, 0x00000006, 0x0004003b, 0x0000000a, 0x0000000b, 0x00000001,
    0x0004002b, 0x00000006, 0x0000000d, 0x00000001, 0x0004002b, 0x00000006,
    0x0000000f, 0x00000004, 0x0004002b, 0x00000006, 0x00000013, 0x00000002,
    0x00030016, 0x00000018, 0x00000020, 0x00040017, 0x00000019, 0x00000018,
    0x00000004, 0x00040015, 0x0000001a, 0x00000020, 0x00000000, 0x0004002b,
    0x0000001a, 0x0000001b, 0x00000001, 0x0004001c, 0x0000001c, 0x00000018,
    0x0000001b, 0x0006001e, 0x0000001d, 0x00000019, 0x00000018, 0x0000001c,
    0x0000001c, 0x00040020, 0x0000001e, 0x00000003, 0x0000001d, 0x0004003b,
    0x0000001e, 0x0000001f, 0x00000003, 0x0004002b, 0x00000006, 0x00000020,
    0x00000000, 0x00040017, 0x00000022, 0x00000018, 0x00000002, 0x0004002b,
    0x00000018, 0x00000024, 0x3f000000, 0x0004002b, 0x00000018, 0x00000025,
    0x3f800000, 0x00040020, 0x00000029, 0x00000003, 0x00000019, 0x0004002b,
    0x00000006, 0x00000033, 0x00000010, 0x00020014, 0x00000034, 0x00040017,
    0x00000036, 0x00000006, 0x00000004, 0x0004002b, 0x0000001a, 0x00000037,
    0x00000010, 0x0004001c, 0x00000038, 0x00000036, 0x00000037, 0x00040020,
    0x00000039, 0x00000003, 0x00000038, 0x0004003b, 0x00000039, 0x0000003a,
    0x00000003, 0x0004001c, 0x0000003c, 0x00000036, 0x00000037, 0x0003001e,
    0x0000003d, 0x0000003c, 0x00040020, 0x0000003e, 0x00000002, 0x0000003d,
    0x0004003b, 0x0000003e, 0x0000003f, 0x00000002, 0x00040020, 0x00000041,
    0x00000002, 0x00000036, 0x00040020, 0x0000004b, 0x00000003, 0x00000036,
    0x00050036, 0x00000002, 0x00000004, 0x00000000, 0x00000003, 0x000200f8,
    0x00000005, 0x0004003d, 0x00000006, 0x0000000c, 0x0000000b, 0x000500c7,
    0x00000006, 0x0000000e, 0x0000000c, 0x0000000d, 0x00050084, 0x00000006,
    0x00000010, 0x0000000e, 0x0000000f, 0x00050082, 0x00000006, 0x00000011,
    0x00000010, 0x0000000d, 0x000500c7, 0x00000006, 0x00000014, 0x0000000c,
    0x00000013, 0x00050084, 0x00000006, 0x00000015, 0x00000014, 0x00000013,
    0x00050082, 0x00000006, 0x00000016, 0x00000015, 0x0000000d, 0x00050050,
    0x00000007, 0x00000017, 0x00000011, 0x00000016, 0x0004006f, 0x00000022,
    0x00000023, 0x00000017, 0x00050051, 0x00000018, 0x00000026, 0x00000023,
    0x00000000, 0x00050051, 0x00000018, 0x00000027, 0x00000023, 0x00000001,
    0x00070050, 0x00000019, 0x00000028, 0x00000026, 0x00000027, 0x00000024,
    0x00000025, 0x00050041, 0x00000029, 0x0000002a, 0x0000001f, 0x00000020,
    0x0003003e, 0x0000002a, 0x00000028, 0x000200f9, 0x0000002d, 0x000200f8,
    0x0000002d, 0x000700f5, 0x00000006, 0x0000004f, 0x00000020, 0x00000005,
    0x0000004e, 0x0000002e, 0x000500b1, 0x00000034, 0x00000035, 0x0000004f,
    0x00000033, 0x000400f6, 0x0000002f, 0x0000002e, 0x00000000, 0x000400fa,
    0x00000035, 0x0000002e, 0x0000002f, 0x000200f8, 0x0000002e, 0x00060041,
    0x00000041, 0x00000042, 0x0000003f, 0x00000020, 0x0000004f, 0x0004003d,
    0x00000036, 0x00000043, 0x00000042, 0x00070050, 0x00000036, 0x00000049,
    0x00000011, 0x00000016, 0x0000004f, 0x0000000c, 0x00050080, 0x00000036,
    0x0000004a, 0x00000043, 0x00000049, 0x00050041, 0x0000004b, 0x0000004c,
    0x0000003a, 0x0000004f, 0x0003003e, 0x0000004c, 0x0000004a, 0x00050080,
    0x00000006, 0x0000004e, 0x0000004f, 0x0000000d, 0x000200f9, 0x0000002d,
    0x000200f8, 0x0000002f, 0x000100fd, 0x00010038,
};
static const uint32_t vs_uint[] = {
    0x07230203, 0x00010300, 0x000d000b, 0x00000054, 0x00000000, 0x00020011,
    0x00000001, 0x0006000b, 0x00000001, 0x4c534c47, 0x6474732e, 0x3035342e,
    0x00000000, 0x0003000e, 0x00000000, 0x00000001, 0x0008000f, 0x00000000,
    0x00000004, 0x6e69616d, 0x00000000, 0x0000000b, 0x0000001f, 0x0000003a,
    0x00040047, 0x0000000b, 0x0000000b, 0x0000002a, 0x00050048, 0x0000001d,
    0x00000000, 0x0000000b, 0x00000000, 0x00050048, 0x0000001d, 0x00000001,
    0x0000000b, 0x00000001, 0x00050048, 0x0000001d, 0x00000002, 0x0000000b,
    0x00000003, 0x00050048, 0x0000001d, 0x00000003, 0x0000000b, 0x00000004,
    0x00030047, 0x0000001d, 0x00000002, 0x00040047, 0x0000003a, 0x0000001e,
    0x00000000, 0x00040047, 0x0000003c, 0x00000006, 0x00000010, 0x00050048,
    0x0000003d, 0x00000000, 0x00000023, 0x00000000, 0x00030047, 0x0000003d,
    0x00000002, 0x00040047, 0x0000003f, 0x00000022, 0x00000000, 0x00040047,
    0x0000003f, 0x00000021, 0x00000003, 0x00020013, 0x00000002, 0x00030021,
    0x00000003, 0x00000002, 0x00040015, 0x00000006, 0x00000020, 0x00000001,
    0x00040017, 0x00000007, 0x00000006, 0x00000002, 0x00040020, 0x0000000a,
    0x00000001, 0x00000006, 0x0004003b, 0x0000000a, 0x0000000b, 0x00000001,
    0x0004002b, 0x00000006, 0x0000000d, 0x00000001, 0x0004002b, 0x00000006,
    0x0000000f, 0x00000004, 0x0004002b, 0x00000006, 0x00000013, 0x00000002,
    0x00030016, 0x00000018, 0x00000020, 0x00040017, 0x00000019, 0x00000018,
    0x00000004, 0x00040015, 0x0000001a, 0x00000020, 0x00000000, 0x0004002b,
    0x0000001a, 0x0000001b, 0x00000001, 0x0004001c, 0x0000001c, 0x00000018,
    0x0000001b, 0x0006001e, 0x0000001d, 0x00000019, 0x00000018, 0x0000001c,
    0x0000001c, 0x00040020, 0x0000001e, 0x00000003, 0x0000001d, 0x0004003b,
    0x0000001e, 0x0000001f, 0x00000003, 0x0004002b, 0x00000006, 0x00000020,
    0x00000000, 0x00040017, 0x00000022, 0x00000018, 0x00000002, 0x0004002b,
    0x00000018, 0x00000024, 0x3f000000, 0x0004002b, 0x00000018, 0x00000025,
    0x3f800000, 0x00040020, 0x00000029, 0x00000003, 0x00000019, 0x0004002b,
    0x00000006, 0x00000033, 0x00000010, 0x00020014, 0x00000034, 0x00040017,
    0x00000036, 0x0000001a, 0x00000004, 0x0004002b, 0x0000001a, 0x00000037,
    0x00000010, 0x0004001c, 0x00000038, 0x00000036, 0x00000037, 0x00040020,
    0x00000039, 0x00000003, 0x00000038, 0x0004003b, 0x00000039, 0x0000003a,
    0x00000003, 0x0004001c, 0x0000003c, 0x00000036, 0x00000037, 0x0003001e,
    0x0000003d, 0x0000003c, 0x00040020, 0x0000003e, 0x00000002, 0x0000003d,
    0x0004003b, 0x0000003e, 0x0000003f, 0x00000002, 0x00040020, 0x00000041,
    0x00000002, 0x00000036, 0x00040017, 0x00000045, 0x0000001a, 0x00000002,
    0x00040020, 0x0000004f, 0x00000003, 0x00000036, 0x00050036, 0x00000002,
    0x00000004, 0x00000000, 0x00000003, 0x000200f8, 0x00000005, 0x0004003d,
    0x00000006, 0x0000000c, 0x0000000b, 0x000500c7, 0x00000006, 0x0000000e,
    0x0000000c, 0x0000000d, 0x00050084, 0x00000006, 0x00000010, 0x0000000e,
    0x0000000f, 0x00050082, 0x00000006, 0x00000011, 0x00000010, 0x0000000d,
    0x000500c7, 0x00000006, 0x00000014, 0x0000000c, 0x00000013, 0x00050084,
    0x00000006, 0x00000015, 0x00000014, 0x00000013, 0x00050082, 0x00000006,
    0x00000016, 0x00000015, 0x0000000d, 0x00050050, 0x00000007, 0x00000017,
    0x00000011, 0x00000016, 0x0004006f, 0x00000022, 0x00000023, 0x00000017,
    0x00050051, 0x00000018, 0x00000026, 0x00000023, 0x00000000, 0x00050051,
    0x00000018, 0x00000027, 0x00000023, 0x00000001, 0x00070050, 0x00000019,
    0x00000028, 0x00000026, 0x00000027, 0x00000024, 0x00000025, 0x00050041,
    0x00000029, 0x0000002a, 0x0000001f, 0x00000020, 0x0003003e, 0x0000002a,
    0x00000028, 0x000200f9, 0x0000002d, 0x000200f8, 0x0000002d, 0x000700f5,
    0x00000006, 0x00000053, 0x00000020, 0x00000005, 0x00000052, 0x0000002e,
    0x000500b1, 0x00000034, 0x00000035, 0x00000053, 0x00000033, 0x000400f6,
    0x0000002f, 0x0000002e, 0x00000000, 0x000400fa, 0x00000035, 0x0000002e,
    0x0000002f, 0x000200f8, 0x0000002e, 0x00060041, 0x00000041, 0x00000042,
    0x0000003f, 0x00000020, 0x00000053, 0x0004003d, 0x00000036, 0x00000043,
    0x00000042, 0x0004007c, 0x00000045, 0x00000046, 0x00000017, 0x0004007c,
    0x0000001a, 0x00000048, 0x00000053, 0x0004007c, 0x0000001a, 0x0000004a,
    0x0000000c, 0x00050051, 0x0000001a, 0x0000004b, 0x00000046, 0x00000000,
    0x00050051, 0x0000001a, 0x0000004c, 0x00000046, 0x00000001, 0x00070050,
    0x00000036, 0x0000004d, 0x0000004b, 0x0000004c, 0x00000048, 0x0000004a,
    0x00050080, 0x00000036, 0x0000004e, 0x00000043, 0x0000004d, 0x00050041,
    0x0000004f, 0x00000050, 0x0000003a, 0x00000053, 0x0003003e, 0x00000050,
    0x0000004e, 0x00050080, 0x00000006, 0x00000052, 0x00000053, 0x0000000d,
    0x000200f9, 0x0000002d, 0x000200f8, 0x0000002f, 0x000100fd, 0x00010038,
};
static const uint32_t fs_fixed[] = {
    0x07230203, 0x00010300, 0x000d000b, 0x0000001a, 0x00000000, 0x00020011,
    0x00000001, 0x0006000b, 0x00000001, 0x4c534c47, 0x6474732e, 0x3035342e,
    0x00000000, 0x0003000e, 0x00000000, 0x00000001, 0x0007000f, 0x00000004,
    0x00000004, 0x6e69616d, 0x00000000, 0x00000009, 0x0000000b, 0x00030010,
    0x00000004, 0x00000007, 0x00040047, 0x00000009, 0x0000001e, 0x00000000,
    0x00040047, 0x0000000b, 0x0000000b, 0x0000000f, 0x00020013, 0x00000002,
    0x00030021, 0x00000003, 0x00000002, 0x00030016, 0x00000006, 0x00000020,
    0x00040017, 0x00000007, 0x00000006, 0x00000004, 0x00040020, 0x00000008,
    0x00000003, 0x00000007, 0x0004003b, 0x00000008, 0x00000009, 0x00000003,
    0x00040020, 0x0000000a, 0x00000001, 0x00000007, 0x0004003b, 0x0000000a,
    0x0000000b, 0x00000001, 0x00040017, 0x0000000c, 0x00000006, 0x00000002,
    0x0004002b, 0x00000006, 0x0000000f, 0x3d800000, 0x00040015, 0x00000011,
    0x00000020, 0x00000000, 0x0004002b, 0x00000011, 0x00000012, 0x00000002,
    0x00040020, 0x00000013, 0x00000001, 0x00000006, 0x0004002b, 0x00000006,
    0x00000016, 0x3f800000, 0x00050036, 0x00000002, 0x00000004, 0x00000000,
    0x00000003, 0x000200f8, 0x00000005, 0x0004003d, 0x00000007, 0x0000000d,
    0x0000000b, 0x0007004f, 0x0000000c, 0x0000000e, 0x0000000d, 0x0000000d,
    0x00000000, 0x00000001, 0x0005008e, 0x0000000c, 0x00000010, 0x0000000e,
    0x0000000f, 0x00050041, 0x00000013, 0x00000014, 0x0000000b, 0x00000012,
    0x0004003d, 0x00000006, 0x00000015, 0x00000014, 0x00050051, 0x00000006,
    0x00000017, 0x00000010, 0x00000000, 0x00050051, 0x00000006, 0x00000018,
    0x00000010, 0x00000001, 0x00070050, 0x00000007, 0x00000019, 0x00000017,
    0x00000018, 0x00000015, 0x00000016, 0x0003003e, 0x00000009, 0x00000019,
    0x000100fd, 0x00010038,
};

/* ---- an allocator that keeps large blocks -----------------------------------------------------
 * A pass takes its arenas in blocks of 1 MiB (src/context.c), which ASan
 * maps, faults in and unmaps anew each time: measured, most of an input's
 * time.  cap_alloc / cap_free (fuzz_common.h: the cap, the live count)
 * with freed blocks of BIG bytes or more kept for the next request of the
 * same size, poisoned meanwhile so that a use after free still reports
 * (up to KEEP_MAX bytes a block; a request that finds no block of its size
 * frees one to make room).  The context has one thread
 * (tr_context_desc.threads = 1), so no lock. */
enum { BIG = 256 << 10, KEEP_MAX = 4 << 20, NBIG = 16 };

static struct big_block {
    void *p;
    size_t size;
    int cached; /* 0: handed out */
} bigs[NBIG];

static void *keep_alloc(void *user, size_t size, size_t align)
{
    if (size < BIG || size > KEEP_MAX)
        return cap_alloc(user, size, align);
    int slot = -1, spare = -1;
    for (int i = 0; i < NBIG; i++)
        if (bigs[i].p && bigs[i].cached && bigs[i].size == size && (uintptr_t)bigs[i].p % align == 0) {
            bigs[i].cached = 0;
            ASAN_UNPOISON_MEMORY_REGION(bigs[i].p, size);
            live++;
            return bigs[i].p;
        } else if (!bigs[i].p && slot < 0) {
            slot = i;
        } else if (bigs[i].p && bigs[i].cached && spare < 0) {
            spare = i;
        }
    if (slot < 0 && spare >= 0) { /* no room: free a kept block of another size */
        ASAN_UNPOISON_MEMORY_REGION(bigs[spare].p, bigs[spare].size);
        free(bigs[spare].p);
        bigs[spare].p = NULL;
        slot = spare;
    }
    void *p = cap_alloc(user, size, align);
    if (p && slot >= 0)
        bigs[slot] = (struct big_block){p, size, 0};
    return p;
}

static void keep_free(void *user, void *p)
{
    for (int i = 0; p && i < NBIG; i++)
        if (bigs[i].p == p && !bigs[i].cached) {
            bigs[i].cached = 1;
            ASAN_POISON_MEMORY_REGION(p, bigs[i].size);
            live--;
            return;
        }
    cap_free(user, p);
}

/* ---- the draw's data --------------------------------------------------------------------------- */

/* Flag bits, draw_data.flags[0] */
#define F_FORMAT 3u        /* colour attachment: RGBA32F, RGBA8, RGBA32_UINT, or RGBA32F + RGBA8 */
#define F_LINEAR 4u        /* the colour sampler filters linearly (and between mips) */
#define F_NO_SHADOW 8u     /* slots 5 and 6 hold the colour texture, no compare sampler */
#define F_MSAA 16u         /* 4 samples */
#define F_DEPTH 32u        /* a D32 attachment, depth test and write */
#define F_LOWER_LEFT 64u   /* TR_PASS_ORIGIN_LOWER_LEFT */
#define F_INSTANCES 128u   /* two instances */
/* draw_data.flags[1] */
#define G_TOPOLOGY 3u      /* triangle list, strip, point list, line list */
#define G_CULL_BACK 4u
#define G_SINGLE_BIN 8u

enum { TEX = 4, LAYERS = 2, ATTR_STRIDE = 64 };

typedef struct draw_data {
    uint8_t flags[4];
    uint32_t ubo0[64];             /* uniform buffer 0: 256 bytes */
    uint32_t push[32];             /* push constants: 128 bytes */
    uint32_t ubo[3][64];           /* uniform buffers 1..3 (3: the vertex partners' offsets) */
    uint32_t vertices[3][ATTR_STRIDE / 4]; /* vertex binding 0, 64 bytes a vertex */
    uint8_t texels[LAYERS][TEX * TEX][4];  /* level 0 of the RGBA8 texture; its depth twin: r / 255 */
} draw_data;

static draw_data defaults;

static uint32_t bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* Values that make shaders branch and loop: small integers, simple floats,
 * and the edges (NaN, -0, all ones).  The first two words are small
 * integers because the seeds read them as a loop's count or exit value
 * (tests/shader's `inp.v[lane].y`, `u.stop == 1u`): so the seeds finish
 * within the budget, and a mutated trailer can still make them loop. */
static void make_defaults(void)
{
    const uint32_t pattern[16] = {1u, 3u, bits(0.5f), 2u, 7u, bits(1.0f), 0u, 5u,
                                  bits(-1.0f), 16u, 0xffffffffu, bits(0.25f), 0x80000000u, 4u, 0x7fc00000u,
                                  bits(100.0f)};
    for (uint32_t i = 0; i < 64; i++) {
        defaults.ubo0[i] = pattern[i % 16];
        for (int b = 0; b < 3; b++)
            defaults.ubo[b][i] = pattern[(i + 5u * (uint32_t)b + 3u) % 16];
    }
    for (uint32_t i = 0; i < 32; i++)
        defaults.push[i] = pattern[(i * 7u) % 16];
    /* attribute 0: a triangle over the target; 1: texture coordinates;
     * 2: small integers (read as uint by the odd attributes); 3: a colour */
    const float pos[3][2] = {{-1.0f, -1.0f}, {3.0f, -1.0f}, {-1.0f, 3.0f}};
    for (uint32_t v = 0; v < 3; v++) {
        const float a[16] = {pos[v][0], pos[v][1], 0.25f, 1.0f, (pos[v][0] + 1.0f) / 2.0f,
                             (pos[v][1] + 1.0f) / 2.0f, 0.0f, 1.0f, 0, 0, 0, 0, 0.2f * (float)v, 0.5f, 1.0f, 1.0f};
        for (int c = 0; c < 16; c++)
            defaults.vertices[v][c] = bits(a[c]);
        for (uint32_t c = 0; c < 4; c++)
            defaults.vertices[v][8 + c] = v + c;
    }
    for (uint32_t l = 0; l < LAYERS; l++)
        for (uint32_t t = 0; t < TEX * TEX; t++)
            for (uint32_t c = 0; c < 4; c++)
                defaults.texels[l][t][c] = (uint8_t)(t * 16u + c * 60u + l * 100u);
}

/* Where the module ends (in words): after the last OpFunctionEnd that a
 * walk of the instruction lengths from the header reaches; n if none. */
static size_t module_words(const uint32_t *w, size_t n)
{
    size_t end = 0;
    for (size_t i = 5; i < n;) {
        const uint32_t wc = w[i] >> 16;
        if (!wc || wc > n - i)
            break;
        if ((w[i] & 0xffffu) == 56u) /* OpFunctionEnd */
            end = i + 1;
        i += wc;
    }
    return end ? end : n;
}

/* ---- one pass ---------------------------------------------------------------------------------- */

typedef struct resources {
    tr_image *tex, *depth_tex;
    tr_sampler *smp, *shadow;
} resources;

/* The textures and samplers every pass binds. */
static void make_resources(tr_context *ctx, const draw_data *dd, resources *res)
{
    const tr_image_desc td = {TR_FORMAT_R8G8B8A8_UNORM, TEX, TEX, LAYERS, 3, 0, 0};
    if (C(tr_image_create(ctx, &td, &res->tex)) == TR_OK) {
        for (uint32_t l = 0; l < LAYERS; l++) {
            const tr_subresource sub = {0, l, TR_ASPECT_DEFAULT, 0};
            C(tr_image_upload(res->tex, &sub, dd->texels[l], 0));
        }
        C(tr_image_generate_mips(res->tex));
    }
    const tr_image_desc dd_desc = {TR_FORMAT_D32_SFLOAT, TEX, TEX, LAYERS, 1, 0, 0};
    if (C(tr_image_create(ctx, &dd_desc, &res->depth_tex)) == TR_OK) {
        for (uint32_t l = 0; l < LAYERS; l++) {
            float d[TEX * TEX];
            for (uint32_t t = 0; t < TEX * TEX; t++)
                d[t] = (float)dd->texels[l][t][0] / 255.0f;
            const tr_subresource sub = {0, l, TR_ASPECT_DEPTH, 0};
            C(tr_image_upload(res->depth_tex, &sub, d, 0));
        }
    }
    const int lin = (dd->flags[0] & F_LINEAR) != 0;
    const tr_sampler_desc sd = {lin ? TR_FILTER_LINEAR : TR_FILTER_NEAREST, lin ? TR_FILTER_LINEAR : TR_FILTER_NEAREST,
                                lin ? TR_MIPMAP_LINEAR : TR_MIPMAP_NEAREST, TR_ADDRESS_REPEAT,
                                TR_ADDRESS_CLAMP_TO_BORDER, TR_BORDER_OPAQUE_WHITE, 0.0f, 0.0f, 0.0f,
                                (uint32_t)(dd->flags[1] >> 4), TR_COMPARE_DEFAULT};
    C(tr_sampler_create(ctx, &sd, &res->smp));
    const tr_sampler_desc cd = {.mag_filter = TR_FILTER_LINEAR, .min_filter = TR_FILTER_LINEAR,
                                .compare = TR_COMPARE_LESS};
    C(tr_sampler_create(ctx, &cd, &res->shadow));
}

static void free_resources(tr_context *ctx, resources *res)
{
    C(tr_image_destroy(res->tex));
    C(tr_image_destroy(res->depth_tex));
    C(tr_sampler_destroy(res->smp));
    C(tr_sampler_destroy(res->shadow));
}

/* The pipeline state every pipeline of an input shares: vertex attributes
 * 0..15 from binding 0 (even ones float, odd ones uint), the flags' topology,
 * culling, samples and depth test. */
static tr_pipeline_desc base_desc(const draw_data *dd)
{
    tr_pipeline_desc d;
    memset(&d, 0, sizeof d);
    d.bindings[0].stride = ATTR_STRIDE;
    for (uint32_t a = 0; a < TR_MAX_VERTEX_ATTRIBUTES; a++) {
        d.attributes[a].format = a & 1 ? TR_VERTEX_FORMAT_R32G32B32A32_UINT : TR_VERTEX_FORMAT_R32G32B32A32_SFLOAT;
        d.attributes[a].offset = (a / 2 % 4) * 16u;
    }
    static const tr_topology topo[4] = {TR_TOPOLOGY_TRIANGLE_LIST, TR_TOPOLOGY_TRIANGLE_STRIP,
                                        TR_TOPOLOGY_POINT_LIST, TR_TOPOLOGY_LINE_LIST};
    d.topology = topo[dd->flags[1] & G_TOPOLOGY];
    d.cull_mode = dd->flags[1] & G_CULL_BACK ? TR_CULL_BACK : TR_CULL_NONE;
    d.multisample.samples = dd->flags[0] & F_MSAA ? 4u : 1u;
    d.depth_test = d.depth_write = (dd->flags[0] & F_DEPTH) != 0;
    return d;
}

/* Records and renders one draw with pipeline pl; every failure is only
 * checked against the contract. */
static void render(tr_context *ctx, tr_pipeline *pl, const draw_data *dd, const resources *res)
{
    const uint32_t f = dd->flags[0], samples = f & F_MSAA ? 4u : 1u;
    static const tr_format formats[4][2] = {
        {TR_FORMAT_R32G32B32A32_SFLOAT}, {TR_FORMAT_R8G8B8A8_UNORM}, {TR_FORMAT_R32G32B32A32_UINT},
        {TR_FORMAT_R32G32B32A32_SFLOAT, TR_FORMAT_R8G8B8A8_UNORM}};
    const uint32_t nc = (f & F_FORMAT) == 3 ? 2u : 1u;
    tr_image *color[2] = {NULL, NULL}, *depth = NULL;
    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    int ok = 1;
    for (uint32_t c = 0; c < nc; c++) {
        const tr_image_desc id = {formats[f & F_FORMAT][c], W, H, 1, 1, 0, samples};
        ok &= C(tr_image_create(ctx, &id, &color[c])) == TR_OK;
        rp.color[c].image = color[c];
        rp.color[c].load_op = TR_LOAD_OP_CLEAR;
        rp.color[c].store_op = TR_STORE_OP_STORE;
    }
    rp.color_count = nc;
    if (f & F_DEPTH) {
        const tr_image_desc id = {TR_FORMAT_D32_SFLOAT, W, H, 1, 1, 0, samples};
        ok &= C(tr_image_create(ctx, &id, &depth)) == TR_OK;
        rp.depth.image = depth;
        rp.depth.depth_load_op = TR_LOAD_OP_CLEAR;
        rp.depth.clear_depth = 1.0f;
    }
    rp.flags = (f & F_LOWER_LEFT ? TR_PASS_ORIGIN_LOWER_LEFT : 0u) |
               (dd->flags[1] & G_SINGLE_BIN ? TR_PASS_SINGLE_BIN : 0u);
    if (ok && C(tr_cmd_begin_render_pass(ctx, &rp)) == TR_OK) {
        C(tr_cmd_bind_pipeline(ctx, pl));
        C(tr_cmd_set_uniforms(ctx, dd->push, sizeof dd->push));
        C(tr_cmd_bind_uniform_buffer(ctx, 0, dd->ubo0, sizeof dd->ubo0));
        for (uint32_t b = 1; b < 4; b++)
            C(tr_cmd_bind_uniform_buffer(ctx, b, dd->ubo[b - 1], sizeof dd->ubo[b - 1]));
        for (uint32_t s = 0; s < TR_MAX_TEXTURES; s++) {
            const int shadow = (s == 5 || s == 6) && !(f & F_NO_SHADOW);
            C(tr_cmd_bind_texture(ctx, s, shadow ? res->depth_tex : res->tex, shadow ? res->shadow : res->smp));
        }
        C(tr_cmd_bind_vertex_buffer(ctx, 0, dd->vertices, sizeof dd->vertices, 0));
        C(tr_cmd_draw(ctx, 3, f & F_INSTANCES ? 2u : 1u, 0, 0));
        C(tr_cmd_end_render_pass(ctx, NULL));
    }
    for (uint32_t c = 0; c < nc; c++)
        C(tr_image_destroy(color[c]));
    C(tr_image_destroy(depth));
}

/* The front end on its own (what this target was before it drew): a
 * refusal leaves a message and nothing allocated; an accepted module holds
 * together: interface ids and variables inside the bound, entry points
 * named, the code's start inside the module, and location counts that end
 * for every id (cycles and deep nesting). */
static void check_front_end(tr_context *ctx, const uint32_t *words, size_t n)
{
    const long before = live;
    tr__spv_module m;
    if (tr__spv_parse(ctx, "fuzz", words, n, &m) != TR_OK) {
        if (!tr_context_last_error(ctx)[0] || live != before || m.words)
            abort();
        return;
    }
    if (!m.entry_count || m.code_begin > m.word_count || m.bound < 2)
        abort();
    for (uint32_t i = 0; i < m.interface_count; i++)
        if (!m.interface_ids[i] || m.interface_ids[i] >= m.bound)
            abort();
    for (uint32_t i = 0; i < m.var_count; i++)
        if (!m.vars[i].id || m.vars[i].id >= m.bound)
            abort();
    for (uint32_t i = 0; i < m.entry_count; i++) {
        const tr__spv_entry *e = &m.entries[i];
        if (!memchr(e->name, 0, sizeof e->name) || e->interface0 + e->interfaces > m.interface_count)
            abort();
    }
    for (uint32_t id = 1; id < m.bound; id++)
        (void)tr__spv_locations(&m, id);
    tr__spv_free(ctx, &m);
}

/* A fixed module: the target's own words must be accepted. */
static tr_shader_module *fixed_module(tr_context *ctx, const uint32_t *words, size_t bytes)
{
    const tr_shader_module_desc d = {words, bytes};
    tr_shader_module *m = NULL;
    if (C(tr_shader_module_create(ctx, &d, &m)) != TR_OK) {
        fprintf(stderr, "fuzz_spirv: a fixed module was refused: %s\n", tr_context_last_error(ctx));
        abort();
    }
    return m;
}

/* ---- a mutator that keeps modules valid ---------------------------------------------------------
 * Byte mutations break nearly every module at the validator, which is not
 * instrumented, so they rarely reach translation and execution.  Half the
 * time, this changes what a valid module computes instead: an
 * OpConstant's value, an arithmetic, bitwise or comparison opcode for
 * another of the same operand shape, or a GLSL.std.450 instruction for
 * another of the same signature; or the draw's data after the module.
 * The other half, libFuzzer's own mutations. */
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

static const uint16_t op_groups[][10] = {
    {128, 130, 132, 134, 135, 137, 138, 139}, /* OpIAdd ISub IMul UDiv SDiv UMod SRem SMod */
    {129, 131, 133, 136, 140, 141},           /* OpFAdd FSub FMul FDiv FRem FMod */
    {194, 195, 196, 197, 198, 199},           /* shifts, OpBitwiseOr Xor And */
    {170, 171, 172, 173, 174, 175, 176, 177, 178, 179}, /* integer comparisons */
    {180, 181, 182, 183, 184, 185, 186, 187, 188, 189}, /* float comparisons (and 190, 191) */
    {190, 191, 180, 184, 186, 188},
};
static const uint16_t ext_groups[][10] = {
    {1, 2, 3, 4, 6, 8, 9, 10, 11, 12},       /* GLSL.std.450, float -> float */
    {13, 14, 15, 16, 17, 18, 19, 20, 21, 22},
    {23, 24, 27, 28, 29, 30, 31, 32, 13, 4},
    {25, 26, 37, 40, 48, 25, 26, 37, 40, 48}, /* (float, float) -> float */
};

static uint32_t rnd(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

static int swap_in(const uint16_t *g, size_t n, uint32_t *v, uint32_t *s)
{
    for (size_t i = 0; i < n; i++)
        if (g[i] == *v) {
            *v = g[rnd(s) % n];
            return 1;
        }
    return 0;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    uint32_t s = seed | 1u;
    const size_t n = size / 4;
    if (rnd(&s) % 2 || n < 6)
        return LLVMFuzzerMutate(data, size, max_size);
    uint32_t *w = malloc(n * 4);
    memcpy(w, data, n * 4);
    const size_t mw = module_words(w, n);
    if (rnd(&s) % 4 == 0) { /* the draw's data: a byte of it, grown to reach it */
        const size_t at = mw * 4 + rnd(&s) % sizeof(draw_data);
        if (at < max_size) {
            if (at >= size) {
                memset(data + size, 0, at + 1 - size);
                size = at + 1;
            }
            data[at] ^= (uint8_t)(1u << rnd(&s) % 8);
        }
        free(w);
        return size;
    }
    /* pick one of the instructions that can change, at random */
    size_t pick = 0, seen = 0;
    for (size_t i = 5; i < mw;) {
        const uint32_t wc = w[i] >> 16, op = w[i] & 0xffffu;
        if (!wc || wc > mw - i)
            break;
        int ok = (op == 43 && wc >= 4) || (op == 12 && wc >= 5);
        for (size_t g = 0; !ok && g < sizeof op_groups / sizeof op_groups[0]; g++)
            for (size_t k = 0; k < 10; k++)
                ok |= op_groups[g][k] == op;
        if (ok && rnd(&s) % ++seen == 0)
            pick = i;
        i += wc;
    }
    if (pick) {
        uint32_t op = w[pick] & 0xffffu;
        if (op == 43) { /* OpConstant: a new value */
            static const uint32_t vals[] = {0u, 1u, 2u, 3u, 0xffffffffu, 0x80000000u, 0x7fffffffu, 0x3f800000u,
                                            0xbf800000u, 0x7fc00000u, 0x7f800000u, 0x00000001u, 0x4f000000u, 16u};
            uint32_t *v = &w[pick + 3];
            const uint32_t k = rnd(&s) % 3;
            *v = k == 0 ? vals[rnd(&s) % (sizeof vals / sizeof vals[0])] : k == 1 ? *v ^ (1u << rnd(&s) % 32)
                                                                                    : *v + (rnd(&s) % 5) - 2;
        } else if (op == 12) { /* OpExtInst: another instruction of the set */
            for (size_t g = 0; g < sizeof ext_groups / sizeof ext_groups[0]; g++)
                if (swap_in(ext_groups[g], 10, &w[pick + 4], &s))
                    break;
        } else {
            for (size_t g = 0; g < sizeof op_groups / sizeof op_groups[0]; g++) {
                size_t len = 0;
                while (len < 10 && op_groups[g][len])
                    len++;
                if (swap_in(op_groups[g], len, &op, &s))
                    break;
            }
            w[pick] = (w[pick] & 0xffff0000u) | op;
        }
        memcpy(data, w, mw * 4);
    } else {
        size = LLVMFuzzerMutate(data, size, max_size);
    }
    free(w);
    return size;
}

/* ---- the target ------------------------------------------------------------------------------- */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int ready;
    if (!ready) {
        make_defaults();
        ready = 1;
    }
    const size_t n = size / 4;
    uint32_t *words = malloc(n ? n * 4 : 1); /* exactly the module: ASan bounds every read */
    memcpy(words, data, n * 4);
    const size_t mw = module_words(words, n);
    draw_data dd = defaults;
    uint8_t *ddb = (uint8_t *)&dd;
    for (size_t i = mw * 4, k = 0; i < size && k < sizeof dd; i++, k++)
        ddb[k] ^= data[i];

    tr_context *ctx = NULL;
    tr_context_desc cd = {.threads = 1, .shader_budget = SHADER_BUDGET};
    cd.allocator = (tr_allocator){keep_alloc, keep_free, NULL};
    if (contract(NULL, tr_context_create(&cd, &ctx), "tr_context_create") != TR_OK)
        abort();
    check_front_end(ctx, words, mw);
    tr_shader_module *m = NULL;
    const tr_shader_module_desc md = {words, mw * 4};
    /* The front end keeps tables of the header's id bound (up to 2^22: tens
     * of MiB); with a large bound every call costs that much (a mutated
     * header took 0.6 s here), so only the front end and module creation
     * see one above 2^16. */
    const int big_bound = mw >= 5 && words[3] > (1u << 16);
    if (C(tr_shader_module_create(ctx, &md, &m)) != TR_OK || big_bound) {
        tr_shader_module_destroy(m);
        free(words);
        tr_context_destroy(ctx);
        if (live != 0)
            abort();
        return 0;
    }
    free(words); /* the module keeps a copy (shader.h) */

    resources res = {0};
    make_resources(ctx, &dd, &res);
    tr_pipeline *pl[2] = {NULL, NULL};
    /* as the fragment stage: the vertex partners in turn while the
     * refusal is a kind mismatch at a location */
    static const struct {
        const uint32_t *words;
        size_t bytes;
    } vs[3] = {{vs_float, sizeof vs_float}, {vs_int, sizeof vs_int}, {vs_uint, sizeof vs_uint}};
    for (int i = 0; i < 3; i++) {
        tr_shader_module *v = fixed_module(ctx, vs[i].words, vs[i].bytes);
        tr_pipeline_desc d = base_desc(&dd);
        d.vertex_module = v;
        d.fragment_module = m;
        const tr_result r = C(tr_pipeline_create(ctx, &d, &pl[0]));
        tr_shader_module_destroy(v);
        if (r != TR_ERROR_INVALID_DESCRIPTOR || !strstr(tr_context_last_error(ctx), "vertex output but a"))
            break;
    }
    /* as the vertex stage */
    {
        tr_shader_module *fm = fixed_module(ctx, fs_fixed, sizeof fs_fixed);
        tr_pipeline_desc d = base_desc(&dd);
        d.vertex_module = m;
        d.fragment_module = fm;
        C(tr_pipeline_create(ctx, &d, &pl[1]));
        tr_shader_module_destroy(fm);
    }
    tr_shader_module_destroy(m); /* pipelines keep working without it (shader.h) */
    for (int i = 0; i < 2; i++)
        if (pl[i]) {
            render(ctx, pl[i], &dd, &res);
            C(tr_pipeline_destroy(pl[i]));
        }
    free_resources(ctx, &res);
    tr_context_destroy(ctx);
    if (live != 0) {
        fprintf(stderr, "fuzz_spirv: %ld blocks leaked\n", live);
        abort();
    }
    return 0;
}
