/* tilerast: SPIR-V shaders.
 *
 * A pipeline's vertex and fragment stages may be SPIR-V instead of C
 * callbacks (pipeline.h): Vulkan SPIR-V 1.0 - 1.6 with logical addressing
 * and the Shader capability, as glslang / shaderc emit it for GLSL 4.50
 * and for HLSL.  A module is validated (SPIRV-Tools' validator, Vulkan 1.3
 * rules) and checked for what tilerast runs when it is created; a pipeline
 * translates its entry points once, when it is created, into a program run
 * over every lane of a vertex batch or fragment block at once, under
 * pipeline.h's shader contract (helper lanes computed like live ones,
 * derivatives from the 2x2 quad).  The module's code is copied: the
 * caller's words may be freed after tr_shader_module_create, and the
 * module may be destroyed once the pipelines that use it exist.
 *
 * ---- The resource model (Vulkan's, descriptor set 0 only) ---------------
 * - A uniform block (`layout(binding = b) uniform U { ... }`) reads the
 *   bytes tr_cmd_bind_uniform_buffer(ctx, b, ...) bound for the draw, with
 *   the Offset, ArrayStride, MatrixStride and RowMajor decorations the
 *   compiler gave it (std140 from GLSL).  Bytes past what was bound read 0.
 * - The push-constant block reads the draw's tr_cmd_set_uniforms bytes.
 * - A combined image sampler at binding b reads texture slot b
 *   (tr_cmd_bind_texture); an array of them, consecutive slots.  Sampling
 *   runs texture.h's arithmetic: the same texels and weights as the C
 *   calls.  A Dref (shadow) sample needs a compare sampler.
 * - Vertex input location n reads vertex attribute n (integer types read
 *   tr_vs_batch.attrib.u, floats attrib.f); attributes the shader does not
 *   read may be bound and are ignored.
 * - Output locations of the vertex stage and input locations of the
 *   fragment stage are the varyings: one vec4 slot each, matrices and
 *   arrays taking consecutive locations, Component decorations placing
 *   scalars and vectors inside one slot.
 * - Fragment output location n writes colour attachment n (Index 1 of
 *   location 0: blend source 1).
 * Descriptor sets other than 0, storage buffers, storage images and every
 * stage but Vertex and Fragment are refused at module creation, by name.
 *
 * ---- What the pipeline derives ------------------------------------------
 * With a fragment module, tr_pipeline_desc's texture_mask, varying_count,
 * flat_mask, noperspective_mask, centroid_mask (the Centroid inputs) and
 * fs_flags (MAY_DISCARD, WRITES_DEPTH, EARLY_TESTS, NO_FRAG_COORD,
 * SAMPLE_RATE, WRITES_SAMPLE_MASK, READS_SAMPLE_MASK: also set by
 * InterpolateAtCentroid of an input that is neither Centroid nor flat)
 * come from the module; a desc that sets one of them to
 * something else (a non-zero value that differs) fails with
 * TR_ERROR_INVALID_DESCRIPTOR naming the field.  A stage given
 * both a C callback and a module fails the same way.  A fragment input at
 * a location no vertex output writes, or two stages declaring different
 * types at one location, fails naming the location.
 *
 * ---- Arithmetic: the same bits everywhere ------------------------------
 * Float arithmetic is IEEE binary32, round to nearest even, every
 * operation rounded on its own (no contraction; OpFMul then OpFAdd is never
 * an FMA), denormals kept.  OpDot and the matrix products add their
 * products left to right: ((a0*b0 + a1*b1) + a2*b2) + a3*b3.  GLSL.std.450
 * Fma is one rounding (fused).  GLSL.std.450's transcendental functions are
 * computed by tilerast's own code, not the C library's, so an image is the
 * same on every machine.  Their error bounds, asserted by
 * tests/shader/test_spirv_math.c against a double-precision reference over
 * sweeps of every 1021st float (src/shader/spirv_math.h has the sweeps and
 * the measured maxima), each within Vulkan's precision requirements:
 *   exp, exp2 1.1 ULP; log 1 ULP, log2 2 ULP (absolute 2^-24 / 2^-23 in
 *   [0.5, 2]); pow 2 + 2.5 |t| ULP with t = y * log2(x); sqrt correctly
 *   rounded; inversesqrt 1.5 ULP; sin, cos 3 ULP for every finite x
 *   (absolute 2^-23 in [-pi, pi]); tan 5 ULP; asin, acos, atan 2 ULP;
 *   atan2 3 ULP; sinh, cosh, tanh, asinh, acosh 2 ULP; atanh 3 ULP;
 *   radians, degrees 1 ULP; everything else exact (one rounding, or bit
 *   moves).  Integer division by zero gives 0 (signed: INT_MIN / -1
 * gives INT_MIN); shifts by 32 or more give 0 (arithmetic right shift: the
 * sign); conversions of NaN or out-of-range floats to integers saturate
 * (NaN: 0).
 *
 * ---- The instruction budget ---------------------------------------------
 * A shader that does not finish within tr_context_desc.shader_budget
 * instructions per invocation (counted as executed instructions of its
 * program's blocks it ran, loops included; 0 = TR_DEFAULT_SHADER_BUDGET) is
 * stopped: the pass's tr_cmd_end_render_pass fails with
 * TR_ERROR_LIMIT_EXCEEDED naming the entry point (a vertex shader's draw
 * fails so too, when it is recorded), and the attachments' contents are
 * unspecified.  The count is per invocation, so whether a pass fails does
 * not depend on threads, bins or which quads share a block.
 *
 * ---- Memory -------------------------------------------------------------
 * A module holds a copy of its words and tables from the context's
 * allocator (counted in tr_context_desc.memory_limit); a pipeline holds its
 * translated programs the same way.  Each thread that runs a program keeps
 * a register file of its own (4 bytes x lanes x registers, from malloc, not
 * counted in memory_limit), grown to the largest program it ran and freed
 * when the thread exits; a thread that cannot get one fails the pass with
 * TR_ERROR_OUT_OF_MEMORY.
 *
 * ---- Not (yet) run ------------------------------------------------------
 * OpImageGather, OpImageQuerySamples, arrays of uniform blocks: refused by
 * name when the module is created.  GLSL.std.450 InterpolateAtOffset and
 * AtSample move the input by the quad's fine derivatives,
 * v + dFdx(v) * ox + dFdy(v) * oy (the offset of AtSample is the sample's
 * standard position minus 1/2): exact for inputs linear in the framebuffer,
 * first-order for perspective-correct ones.
 *
 * ---- Centroid -----------------------------------------------------------
 * Inputs decorated Centroid are interpolated by the rasterizer at the
 * centroid (tr_pipeline_desc.centroid_mask says where: the pixel centre
 * unless a multisampled pixel is only partly covered, then its
 * lowest-numbered covered sample), with the same arithmetic as at the
 * centre.  InterpolateAtCentroid of such an input, or of a flat one, is
 * its value; of any other input, the input moved to that same position by
 * the quad's fine derivatives, as InterpolateAtOffset moves it (and its
 * value, bit for bit, where that position is the centre); it reads the
 * fragment's coverage, so it sets TR_FS_READS_SAMPLE_MASK.
 *
 * ---- SampleMask ---------------------------------------------------------
 * As an input it is tr_fs_block.sample_mask_in (pipeline.h): the samples
 * of the pixel the primitive covers and the pipeline's sample mask keeps,
 * before depth and stencil (no PostDepthCoverage), or the one sample being
 * shaded; 1 in a single-sampled pass.  As an output (int[1]) it is
 * tr_fs_block.sample_mask, ANDed with the coverage after the shader
 * (TR_FS_WRITES_SAMPLE_MASK: tests after the shader unless
 * EarlyFragmentTests, no LRZ writes). */
#ifndef TILERAST_SHADER_H
#define TILERAST_SHADER_H

#include <stddef.h>
#include <stdint.h>

#include "context.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TR_DEFAULT_SHADER_BUDGET (1u << 24)
#define TR_MAX_UNIFORM_BUFFERS 16u       /* bindings 0 .. 15 */
#define TR_MAX_UNIFORM_BUFFER_BYTES 65536u

typedef struct tr_shader_module tr_shader_module;

typedef struct tr_shader_module_desc {
    const uint32_t *code;   /* SPIR-V words (host byte order) */
    size_t code_size;       /* in bytes, a multiple of 4 */
} tr_shader_module_desc;

/* Validates and reads a SPIR-V module.  Errors: TR_ERROR_INVALID_ARGUMENT
 * (not SPIR-V, or the validator's complaint, quoted), and
 * TR_ERROR_UNSUPPORTED_FORMAT naming the capability, extension,
 * instruction, storage class or stage tilerast does not run. */
TR_API tr_result tr_shader_module_create(tr_context *ctx, const tr_shader_module_desc *desc,
                                         tr_shader_module **out);
/* Frees the module; pipelines made from it keep working.  NULL: nothing. */
TR_API void tr_shader_module_destroy(tr_shader_module *module);

/* Binds `size` bytes (at most TR_MAX_UNIFORM_BUFFER_BYTES) as uniform
 * buffer `binding` (< TR_MAX_UNIFORM_BUFFERS) for the draws recorded after
 * it in the current pass; the bytes are copied now.  data NULL with size 0
 * unbinds.  A draw whose SPIR-V reads a binding with nothing bound fails
 * with TR_ERROR_INVALID_STATE naming the binding. */
TR_API tr_result tr_cmd_bind_uniform_buffer(tr_context *ctx, uint32_t binding, const void *data, size_t size);

#ifdef __cplusplus
}
#endif
#endif
