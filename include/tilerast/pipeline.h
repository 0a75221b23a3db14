/* tilerast: shaders and pipelines.
 *
 * Shaders are C callbacks that work on structure-of-arrays blocks so that a
 * plain C loop over the lanes vectorises.  Vertex shaders see a batch of up to
 * TR_VS_LANES vertices; fragment shaders see up to TR_FS_LANES fragments made
 * of whole 2x2 quads (lane = 4*quad + 2*dy + dx), helper lanes included, so
 * derivatives exist.  A pipeline bundles shaders with fixed-function state.
 *
 * Shaders run on several threads at once (the context's thread count: the
 * front end shades chunks of a draw in parallel, and bins render in
 * parallel), so they must not write shared memory without synchronisation;
 * reading the uniforms and the caller's read-only data is fine.  The order
 * in which batches and blocks are shaded is unspecified; the image is not. */
#ifndef TILERAST_PIPELINE_H
#define TILERAST_PIPELINE_H

#include <stdint.h>

#include "context.h"
#include "instancing.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TR_MAX_VARYINGS 16u        /* vec4 varyings */
#define TR_MAX_COLOR_ATTACHMENTS 8u
#define TR_MAX_VIEWS 6u            /* multiview, as MAX_HW_SCALED_VIEWS on a7xx */
#define TR_VS_LANES 16u
#define TR_FS_LANES 64u            /* one 8x8 pixel block: 16 quads */

#define TR_MAX_VERTEX_BINDINGS 16u
#define TR_MAX_VERTEX_ATTRIBUTES 16u

/* ---- vertex input -------------------------------------------------------
 * Vertex buffers are bound per binding slot (tr_cmd_bind_vertex_buffer);
 * the pipeline says how each binding steps (stride, input rate, divisor)
 * and which attribute locations read which bytes.  Attributes are fetched
 * before the vertex shader runs, the way a Mali GPU fetches them: see
 * instancing.h and "Instanced draws" below. */

typedef enum tr_vertex_format {
    TR_VERTEX_FORMAT_UNDEFINED = 0,     /* location not used */
    TR_VERTEX_FORMAT_R32_SFLOAT,
    TR_VERTEX_FORMAT_R32G32_SFLOAT,
    TR_VERTEX_FORMAT_R32G32B32_SFLOAT,
    TR_VERTEX_FORMAT_R32G32B32A32_SFLOAT,
    TR_VERTEX_FORMAT_R8G8B8A8_UNORM,    /* c / 255 (the exactly rounded quotient) */
    TR_VERTEX_FORMAT_R32_UINT,          /* integer formats: read through tr_vs_batch.attrib.u */
    TR_VERTEX_FORMAT_R32G32_UINT,
    TR_VERTEX_FORMAT_R32G32B32_UINT,
    TR_VERTEX_FORMAT_R32G32B32A32_UINT,
    TR_VERTEX_FORMAT_COUNT
} tr_vertex_format;

/* Vulkan's divisor 0 (every instance reads the element of first_instance),
 * since 0 in tr_vertex_binding.divisor means the default, 1.  It is exact:
 * with at most 2^32 - 1 instances, i / (2^32 - 1) is 0 for every instance i. */
#define TR_VERTEX_DIVISOR_ZERO 0xFFFFFFFFu

typedef struct tr_vertex_binding {
    uint32_t stride;          /* bytes between elements (0 allowed: one element for all) */
    tr_input_rate input_rate; /* VERTEX (default) or INSTANCE */
    uint32_t divisor;         /* INSTANCE: instance i reads element first_instance + i / divisor;
                                 0 = 1; TR_VERTEX_DIVISOR_ZERO = Vulkan's divisor 0 */
} tr_vertex_binding;

typedef struct tr_vertex_attribute {
    tr_vertex_format format;  /* UNDEFINED: this location is not fetched */
    uint32_t binding;         /* < TR_MAX_VERTEX_BINDINGS */
    uint32_t offset;          /* bytes from the start of the element */
} tr_vertex_attribute;

/* ---- vertex shader ---------------------------------------------------- */

typedef struct tr_vs_batch {
    /* inputs */
    uint32_t count;                           /* live lanes, 1..TR_VS_LANES */
    uint32_t view_index;                      /* multiview: the view being shaded */
    uint32_t vertex_index[TR_VS_LANES];       /* gl_VertexIndex (index value + vertex offset) */
    uint32_t instance_index[TR_VS_LANES];     /* gl_InstanceIndex (includes first instance) */
    const void *uniforms;                     /* the draw's uniform bytes (tr_cmd_set_uniforms) */
    /* Fetched vertex attributes, attrib.f[location][component][lane]; a
     * format with fewer than 4 components reads (0, 0, 0, 1) for the rest
     * (1 as 1.0f or 1u); integer formats' values are in attrib.u. */
    union {
        float f[TR_MAX_VERTEX_ATTRIBUTES][4][TR_VS_LANES];
        uint32_t u[TR_MAX_VERTEX_ATTRIBUTES][4][TR_VS_LANES];
    } attrib;
    /* outputs, written by the shader for lanes [0, count) */
    float position[4][TR_VS_LANES];           /* clip-space x, y, z, w */
    float varyings[TR_MAX_VARYINGS][4][TR_VS_LANES];
    /* gl_PointSize, in pixels: read for TR_TOPOLOGY_POINT_LIST only, preset
     * to 1.0, clamped to [1, TR_MAX_POINT_SIZE] (NaN: 1) */
    float point_size[TR_VS_LANES];
} tr_vs_batch;

typedef void (*tr_vertex_shader)(tr_vs_batch *batch);

/* ---- fragment shader -------------------------------------------------- */

typedef struct tr_fs_block {
    /* inputs */
    uint32_t count;              /* lanes in use, a multiple of 4 (whole quads) */
    uint64_t live;               /* bit i: lane i is covered; other lanes are helpers */
    uint32_t view_index;
    uint32_t primitive_id;       /* index of the primitive (triangle, line or point) within its draw */
    uint32_t front_facing;       /* 1 if the triangle is front-facing; lines and points: 1 */
    const void *uniforms;
    /* The draw's texture slots (TR_MAX_TEXTURES of them), for the tr_fs_*
     * sampling calls of texture.h. */
    const struct tr_texture_binding *textures;
    /* The draw's feedback map slots (TR_MAX_FEEDBACK_MAPS of them), for
     * tr_fs_write_feedback (feedback.h). */
    struct tr_feedback_map *const *feedback_maps;
    float frag_x[TR_FS_LANES];   /* gl_FragCoord.x: pixel centre, framebuffer space */
    float frag_y[TR_FS_LANES];   /* gl_FragCoord.y (y down, as Vulkan; y up in a pass with
                                    TR_PASS_ORIGIN_LOWER_LEFT, as GL) */
    float frag_z[TR_FS_LANES];   /* window depth, linear in screen space */
    float frag_w[TR_FS_LANES];   /* gl_FragCoord.w = 1 / clip w, interpolated */
    /* FragSizeEXT: the fragment area of the block's fragments (1, 2 or 4
     * per axis; 1 x 1 without a density map).  With an area above 1 each
     * lane is a coarse fragment standing for frag_size_x x frag_size_y
     * framebuffer pixels; frag_x/y are the centre of that area, and
     * derivatives between the lanes of a quad span neighbouring coarse
     * fragments (fdm.h). */
    uint32_t frag_size_x, frag_size_y;
    /* The sample this call shades when a multisampled pass shades per
     * sample (multisample.h: sample shading or TR_FS_SAMPLE_RATE), with
     * frag_x / frag_y at that sample's position and the varyings
     * interpolated there; -1 when the call shades whole pixels. */
    int32_t sample_index;
    float varyings[TR_MAX_VARYINGS][4][TR_FS_LANES]; /* perspective-correct (or flat, or
                                                        noperspective; at the centroid with
                                                        centroid_mask: tr_pipeline_desc) */
    /* gl_PointCoord of a point's fragments (TR_TOPOLOGY_POINT_LIST; other
     * topologies leave it unspecified): (x_f - left) / size and
     * (y_f - top) / size, where left and top are the point square's
     * snapped edges in the framebuffer (y down: 0 at the top, also with
     * TR_PASS_ORIGIN_LOWER_LEFT, as GL's default UPPER_LEFT sprite origin),
     * each a float product with the rounded 1 / size (exact for sizes that
     * are powers of two) */
    float point_coord[2][TR_FS_LANES];
    /* gl_SampleMaskIn, filled only with TR_FS_READS_SAMPLE_MASK (else its
     * contents are unspecified): bit s is set when sample s of the lane's
     * pixel is covered by the primitive and kept by the pipeline's
     * multisample.sample_mask, before any depth or stencil test (Vulkan
     * without PostDepthCoverage).  A single-sampled pass gives 1 for
     * covered lanes; a call that shades one sample (sample_index >= 0)
     * gives only that sample's bit, as Vulkan's sample shading does.
     * Helper lanes read 0. */
    uint32_t sample_mask_in[TR_FS_LANES];
    /* outputs */
    float color[TR_MAX_COLOR_ATTACHMENTS][4][TR_FS_LANES]; /* RGBA per colour attachment;
                                  with dual-source blending color[1] is source 1 */
    float depth[TR_FS_LANES];    /* read only if the pipeline says the shader writes depth;
                                    preset to frag_z */
    uint64_t discard;            /* set bit i to discard lane i (needs TR_FS_MAY_DISCARD) */
    /* gl_SampleMask: read only with TR_FS_WRITES_SAMPLE_MASK, preset to all
     * ones.  After the shader the lane's coverage is ANDed with it, as with
     * alpha to coverage: sample s is kept only if bit s is set (a call that
     * shades one sample reads only that sample's bit); a lane left with no
     * sample is not written, so in a single-sampled pass a clear bit 0
     * drops the fragment as a discard would (counted in
     * fragments_discarded). */
    uint32_t sample_mask[TR_FS_LANES];
} tr_fs_block;

/* The contract of a fragment shader: each lane's outputs depend only on
 * that lane's inputs and, for derivatives, its quad's (lanes 4q..4q+3),
 * never on which other quads share the call, and helper lanes are computed
 * like live ones.  The library relies on it: it packs quads of several
 * blocks into one call, and a block whose shader reads only flat varyings
 * (flat_mask, TR_FS_NO_FRAG_COORD, no depth write, no side effects, no
 * TR_FS_READS_SAMPLE_MASK) is shaded as one quad (count 4, live 0xf) whose
 * outputs stand for every quad of the block. */
typedef void (*tr_fragment_shader)(tr_fs_block *block);

/* ---- fixed-function state --------------------------------------------- */

/* Every enum's 0 is its default. */
typedef enum tr_topology {
    TR_TOPOLOGY_TRIANGLE_LIST = 0,
    TR_TOPOLOGY_TRIANGLE_STRIP,
    TR_TOPOLOGY_TRIANGLE_FAN,  /* Vulkan order: triangle i is (i+1, i+2, 0) */
    TR_TOPOLOGY_POINT_LIST,    /* point i is vertex i; its size is tr_vs_batch.point_size */
    TR_TOPOLOGY_LINE_LIST,     /* line i is (2i, 2i+1) */
    TR_TOPOLOGY_LINE_STRIP     /* line i is (i, i+1) */
} tr_topology;

/* ---- lines and points --------------------------------------------------
 * Lines and points are rasterized as Vulkan (VK_EXT_line_rasterization)
 * states, after the same snap to 1/256 pixel as triangles:
 *
 * RECTANGULAR lines (the default): the rectangle of the line's width
 * centred on the segment, its ends through the endpoints.  Its half-width
 * offset, (width / 2) * (-dy, dx) / length, is snapped to 1/256 and added
 * to both snapped endpoints, so its four corners lie on the subpixel grid;
 * the rectangle is drawn as two triangles (the fill rule owns each pixel
 * centre of the diagonal once).
 *
 * BRESENHAM lines: the diamond-exit rule.  An x-major line (|dx| >= |dy|)
 * produces one fragment per pixel column: the column's pixel whose centre
 * lies within half a pixel (vertically) of the line at the column's centre,
 * a centre exactly half a pixel away decided by the pipeline's tie rule
 * (tr_tie_rule, as for a triangle edge).  The columns are those whose
 * centre lies on the segment's x extent, closed at both ends, plus the
 * start's own pixel when the start lies inside that pixel's diamond
 * (|x - x_c| + |y - y_c| < 1/2), minus the end's own pixel when the end
 * lies inside its diamond: a strip of lines covers each pixel once.  Y-major
 * lines swap x and y.  A width above 1 is rounded to the nearest integer
 * and each fragment becomes a run of that many pixels across the major
 * axis (as GL's wide non-antialiased lines).  Single-sampled passes only.
 *
 * Attributes (both modes) are interpolated with t, the fragment centre's
 * projection on the snapped segment, perspective-correct; depth is linear
 * in t.  Flat varyings take the first vertex's values; noperspective ones
 * (noperspective_mask) are linear in t.
 *
 * POINT_LIST: the square of side point_size (from the vertex shader,
 * clamped to [1, TR_MAX_POINT_SIZE]) centred on the snapped vertex, its
 * half side rounded to 1/256 pixel, drawn as two triangles; every
 * attribute is the vertex's; tr_fs_block.point_coord says where in the
 * square a fragment lies.  A point whose vertex lies outside the view
 * volume is discarded (as Vulkan and GL clip points); lines are clipped as
 * triangles are.  Lines and points are front-facing, never culled, test
 * LRZ and never write it (as turnip).  In a pass with a fragment density
 * map every bin sets a line or point up again with its patched viewport
 * (fdm.h), so a bin of fragment area w x h draws widths and sizes in its
 * coarse fragments, as the hardware rasterizes the patched state: a line
 * of width 1 in 2x2 fragments is two framebuffer pixels wide; density 1.0
 * everywhere draws what no map draws. */
#define TR_MAX_LINE_WIDTH 64.0f
#define TR_MAX_POINT_SIZE 64.0f

typedef enum tr_line_mode {
    TR_LINE_RECTANGULAR = 0,   /* VK_LINE_RASTERIZATION_MODE_RECTANGULAR (and DEFAULT) */
    TR_LINE_BRESENHAM          /* VK_LINE_RASTERIZATION_MODE_BRESENHAM */
} tr_line_mode;

typedef enum tr_cull_mode {
    TR_CULL_NONE = 0, TR_CULL_FRONT, TR_CULL_BACK, TR_CULL_FRONT_AND_BACK
} tr_cull_mode;

/* Winding as seen in the framebuffer (y down), as Vulkan defines it. */
typedef enum tr_front_face {
    TR_FRONT_FACE_CCW = 0, TR_FRONT_FACE_CW
} tr_front_face;

/* Which edges own samples lying exactly on them, in the framebuffer (y down).
 * TOP_LEFT: Vulkan and D3D.  BOTTOM_LEFT: the mirror, which is OpenGL's
 * left/bottom rule once GL's y-up window is drawn with a flipped viewport. */
typedef enum tr_tie_rule {
    TR_TIE_TOP_LEFT = 0, TR_TIE_BOTTOM_LEFT
} tr_tie_rule;

typedef enum tr_compare_op {
    TR_COMPARE_DEFAULT = 0, /* LESS for depth, ALWAYS for stencil */
    TR_COMPARE_NEVER, TR_COMPARE_LESS, TR_COMPARE_EQUAL, TR_COMPARE_LESS_OR_EQUAL,
    TR_COMPARE_GREATER, TR_COMPARE_NOT_EQUAL, TR_COMPARE_GREATER_OR_EQUAL,
    TR_COMPARE_ALWAYS
} tr_compare_op;

typedef enum tr_stencil_op {
    TR_STENCIL_OP_KEEP = 0, TR_STENCIL_OP_ZERO, TR_STENCIL_OP_REPLACE,
    TR_STENCIL_OP_INCREMENT_AND_CLAMP, TR_STENCIL_OP_DECREMENT_AND_CLAMP,
    TR_STENCIL_OP_INVERT, TR_STENCIL_OP_INCREMENT_AND_WRAP,
    TR_STENCIL_OP_DECREMENT_AND_WRAP
} tr_stencil_op;

/* Masks use 0 for their default (all bits); TR_MASK_NONE asks for no bits. */
#define TR_MASK_NONE 0x100u

typedef struct tr_stencil_face {
    tr_stencil_op fail_op, pass_op, depth_fail_op;
    tr_compare_op compare;  /* default ALWAYS */
    uint32_t compare_mask;  /* 0 = 0xFF; TR_MASK_NONE = 0 */
    uint32_t write_mask;    /* 0 = 0xFF; TR_MASK_NONE = 0 */
} tr_stencil_face;

typedef enum tr_blend_factor {
    TR_BLEND_DEFAULT = 0, /* ONE for sources, ZERO for destinations */
    TR_BLEND_ZERO, TR_BLEND_ONE,
    TR_BLEND_SRC_COLOR, TR_BLEND_ONE_MINUS_SRC_COLOR,
    TR_BLEND_DST_COLOR, TR_BLEND_ONE_MINUS_DST_COLOR,
    TR_BLEND_SRC_ALPHA, TR_BLEND_ONE_MINUS_SRC_ALPHA,
    TR_BLEND_DST_ALPHA, TR_BLEND_ONE_MINUS_DST_ALPHA,
    TR_BLEND_CONSTANT_COLOR, TR_BLEND_ONE_MINUS_CONSTANT_COLOR,
    TR_BLEND_CONSTANT_ALPHA, TR_BLEND_ONE_MINUS_CONSTANT_ALPHA,
    TR_BLEND_SRC_ALPHA_SATURATE,
    TR_BLEND_SRC1_COLOR, TR_BLEND_ONE_MINUS_SRC1_COLOR,
    TR_BLEND_SRC1_ALPHA, TR_BLEND_ONE_MINUS_SRC1_ALPHA
} tr_blend_factor;

typedef enum tr_blend_op {
    TR_BLEND_OP_ADD = 0, TR_BLEND_OP_SUBTRACT, TR_BLEND_OP_REVERSE_SUBTRACT,
    TR_BLEND_OP_MIN, TR_BLEND_OP_MAX
} tr_blend_op;

/* Colour write mask bits; 0 = all four, TR_COLOR_MASK_NONE = none. */
#define TR_COLOR_MASK_R 1u
#define TR_COLOR_MASK_G 2u
#define TR_COLOR_MASK_B 4u
#define TR_COLOR_MASK_A 8u
#define TR_COLOR_MASK_NONE 0x10u

typedef struct tr_blend_state {
    int enable;
    tr_blend_factor src_color, dst_color;
    tr_blend_op color_op;
    tr_blend_factor src_alpha, dst_alpha;
    tr_blend_op alpha_op;
    uint32_t write_mask;
} tr_blend_state;

/* What the fragment shader may do; decides early or late tests. */
#define TR_FS_MAY_DISCARD 1u   /* the shader may set tr_fs_block.discard */
#define TR_FS_WRITES_DEPTH 2u  /* the shader writes tr_fs_block.depth */
#define TR_FS_SIDE_EFFECTS 4u  /* the shader writes memory (sampler feedback): unless
                                  TR_FS_EARLY_TESTS, depth and stencil are tested after it,
                                  so it runs for every covered fragment, and LRZ is off */
#define TR_FS_EARLY_TESTS 8u   /* force early depth/stencil (as early_fragment_tests) */
/* The shader reads none of frag_x, frag_y, frag_z, frag_w (a GPU knows
 * which built-ins a shader reads): they are not computed and their
 * contents are unspecified, as is depth's preset unless the shader writes
 * depth.  Saves per-fragment work; the image is the same. */
#define TR_FS_NO_FRAG_COORD 16u
/* The shader reads tr_fs_block.sample_index or depends on the sample's
 * position (gl_SampleID, gl_SamplePosition): a multisampled pass shades it
 * once per covered sample, as Vulkan's sample shading does. */
#define TR_FS_SAMPLE_RATE 32u
/* The shader writes tr_fs_block.sample_mask (gl_SampleMask): like
 * TR_FS_MAY_DISCARD it may drop what it covers, so depth and stencil are
 * tested after it unless TR_FS_EARLY_TESTS, and the draw writes no LRZ.
 * Needs a fragment_shader. */
#define TR_FS_WRITES_SAMPLE_MASK 64u
/* The shader reads tr_fs_block.sample_mask_in (gl_SampleMaskIn): it is
 * filled only then (a few mask operations per block, but a shader that
 * reads it sees lanes that differ where nothing else does, so its blocks
 * are never shaded as one quad standing for all: tr_fragment_shader). */
#define TR_FS_READS_SAMPLE_MASK 128u

/* Pipeline flags */
/* The vertex stage writes gl_ViewportIndex (it selects one of several
 * viewports, so views cannot have viewports of their own): a pass that
 * draws with it and has a density map gives every view of a bin the same
 * fragment area, the per-axis minimum over the views, as turnip does
 * (sets TR_PASS_FDM_SHARED_VIEWPORT for the pass). */
#define TR_PIPELINE_WRITES_VIEWPORT_INDEX 1u

/* Multisample state (VkPipelineMultisampleStateCreateInfo; multisample.h).
 * Zero-initialised it is single-sampled with every sample kept. */
typedef struct tr_multisample_state {
    uint32_t samples;          /* rasterization samples: 0 = 1; 1, 2, 4 or 8, and the same as the
                                  pass's attachments (draws in another pass fail) */
    uint32_t sample_mask;      /* bit i keeps sample i; 0 = every sample (Vulkan's NULL pSampleMask) */
    int alpha_to_coverage;     /* colour attachment 0's alpha makes a coverage mask */
    int alpha_to_one;          /* the alphas written are replaced by 1 */
    int sample_shading;        /* sampleShadingEnable */
    float min_sample_shading;  /* minSampleShading, in [0, 1]: with sample_shading, the fraction of
                                  the samples the fragment shader runs for at least */
} tr_multisample_state;

struct tr_shader_module;

typedef struct tr_pipeline_desc {
    tr_vertex_shader vertex_shader;     /* a C vertex shader, or NULL with vertex_module */
    uint32_t flags;                     /* TR_PIPELINE_* */
    tr_fragment_shader fragment_shader; /* NULL: depth/stencil only, colour not written */
    uint32_t fs_flags;                  /* TR_FS_* */
    uint32_t texture_mask;              /* bit i: the fragment shader samples texture slot i
                                           (texture.h); draws fail unless it is bound */
    uint32_t feedback_mask;             /* bit i: the fragment shader writes feedback slot i
                                           (feedback.h); draws fail unless a map is bound
                                           there whose size matches a texture of texture_mask.
                                           Implies TR_FS_SIDE_EFFECTS */
    uint32_t varying_count;             /* 0..TR_MAX_VARYINGS vec4 varyings */
    uint32_t flat_mask;                 /* bit i: varying i is flat (from the provoking,
                                           i.e. first, vertex) */
    /* bit i: varying i is noperspective (GLSL `noperspective`, SPIR-V
     * NoPerspective): linear in framebuffer space, without perspective
     * correction.  Bits as flat_mask's (none past varying_count); a varying
     * in both masks is TR_ERROR_INVALID_DESCRIPTOR.  The arithmetic, in
     * float: a triangle's varying is v0 + l1 * (v1 - v0) + l2 * (v2 - v0),
     * where l1, l2 are the screen-space barycentrics of the sample (the
     * edge functions of vertices 1 and 2 over twice the area, the ones a
     * smooth varying starts from) and the perspective weights
     * l1 * (1/w1) / (1/w) and l2 * (1/w2) / (1/w) of a smooth varying
     * are not formed; evaluated left to right, the same bits at every
     * SIMD level.  Lines: v0 + t * (v1 - v0), t the sample's projection on
     * the segment (pipeline.h, "lines and points"); points: the vertex's
     * value, as any varying.  Clipping makes new vertices so that the
     * varying stays linear in the framebuffer: the value times clip w is
     * interpolated in clip space (double), then divided by the new
     * vertex's w. */
    uint32_t noperspective_mask;
    /* bit i: varying i is interpolated at the centroid (GLSL `centroid`,
     * SPIR-V Centroid): a position inside both the pixel and the
     * primitive.  Bits as flat_mask's (none past varying_count); it may
     * combine with noperspective_mask, and a flat varying ignores its bit.
     * The position, as llvmpipe picks it (lp_bld_interp.c,
     * calc_centroid_offsets):
     * - the pixel centre, bit for bit the value without the bit, in a
     *   single-sampled pass, where all of the pixel's samples are counted
     *   (below), and for helper lanes;
     * - the sample's own position when shading per sample (multisample.h),
     *   as every varying;
     * - else the position of the lowest-numbered covered sample (the
     *   standard positions, multisample.h), the varying computed there with
     *   the same arithmetic as at a centre (its barycentrics l1, l2 those
     *   of the sample, then perspective-correct or noperspective as above).
     * The samples counted are those the primitive covers and
     * multisample.sample_mask keeps, before any depth or stencil test (as
     * tr_fs_block.sample_mask_in): a sample_mask that drops a sample leaves
     * no pixel with all of them, so every pixel takes its lowest kept
     * covered sample, as in llvmpipe (which, unlike Vulkan and this, counts
     * only the samples that passed an early depth test).  frag_x / frag_y
     * stay at the centre.
     * Derivatives of a centroid varying come from values at different
     * positions in the quad's lanes, so they may be less accurate, as
     * Vulkan allows. */
    uint32_t centroid_mask;
    tr_topology topology;
    tr_cull_mode cull_mode;
    tr_front_face front_face;
    tr_tie_rule tie_rule;
    /* depth */
    int depth_test, depth_write;
    tr_compare_op depth_compare;        /* default LESS */
    /* stencil (needs an attachment with a stencil aspect, D32_SFLOAT_S8_UINT or
       D24_UNORM_S8_UINT, to have an effect) */
    int stencil_test;
    tr_stencil_face stencil_front, stencil_back;
    /* colour */
    tr_blend_state blend[TR_MAX_COLOR_ATTACHMENTS];
    /* vertex input: attribute i is location i */
    tr_vertex_binding bindings[TR_MAX_VERTEX_BINDINGS];
    tr_vertex_attribute attributes[TR_MAX_VERTEX_ATTRIBUTES];
    tr_multisample_state multisample;
    /* lines (TR_TOPOLOGY_LINE_*; ignored by other topologies) */
    float line_width;                   /* 0 = 1; else [1, TR_MAX_LINE_WIDTH] */
    tr_line_mode line_mode;             /* BRESENHAM needs multisample.samples 1 */
    /* SPIR-V stages (shader.h), instead of vertex_shader / fragment_shader
     * (a stage given both is TR_ERROR_INVALID_DESCRIPTOR).  An entry NULL
     * means "main".  With a fragment module the fragment flags and masks
     * above are derived from it (shader.h, "What the pipeline derives"). */
    const struct tr_shader_module *vertex_module;
    const char *vertex_entry;
    const struct tr_shader_module *fragment_module;
    const char *fragment_entry;
} tr_pipeline_desc;

typedef struct tr_pipeline tr_pipeline;

TR_API tr_result tr_pipeline_create(tr_context *ctx, const tr_pipeline_desc *desc, tr_pipeline **out);
/* TR_ERROR_INVALID_STATE, and nothing freed, while the pipeline is bound in
 * the recording pass; NULL: TR_OK. */
TR_API tr_result tr_pipeline_destroy(tr_pipeline *pipeline);

#ifdef __cplusplus
}
#endif
#endif
