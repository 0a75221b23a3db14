/* tilerast: render passes, draws and statistics.
 *
 * A render pass is recorded, then executed the way a tiler does it.  Each
 * draw is vertex-shaded, clipped, set up and binned when it is recorded: the
 * binning pass writes one visibility stream per VSC pipe and view.  At
 * tr_cmd_end_render_pass the bins are rendered (in parallel), each inside a
 * GMEM-sized tile buffer: load (clear or restore), draw the bin's primitives
 * in submission order, store (resolve) to the attachments' images. */
#ifndef TILERAST_RENDERPASS_H
#define TILERAST_RENDERPASS_H

#include <stddef.h>
#include <stdint.h>

#include "fdm.h"
#include "geometry.h"
#include "image.h"
#include "lrz.h"
#include "pipeline.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tr_load_op {
    TR_LOAD_OP_LOAD = 0, TR_LOAD_OP_CLEAR, TR_LOAD_OP_DONT_CARE
} tr_load_op;

typedef enum tr_store_op {
    TR_STORE_OP_STORE = 0, TR_STORE_OP_DONT_CARE
} tr_store_op;

/* Aliasing.  A pass has no feedback loops: as Vulkan requires of a
 * subpass without them, tr_cmd_begin_render_pass refuses
 * (TR_ERROR_INVALID_DESCRIPTOR, the message naming both fields) two colour
 * attachments on the same image at the same level with overlapping layers
 * (color[i].image == color[j].image), a resolve image that is also an
 * attachment or another attachment's resolve image (any level or layer),
 * and a density map that is an attachment or resolve image.  Other levels,
 * or layers that do not overlap, of one image are other subresources and
 * may be attachments together.  During the pass an attachment cannot be
 * bound as a texture, uploaded, filled or destroyed (TR_ERROR_INVALID_STATE). */
typedef struct tr_color_attachment {
    tr_image *image;          /* NULL: unused slot */
    uint32_t level;           /* mip level rendered to */
    uint32_t base_layer;      /* layer of view 0 (view i renders to base_layer + i) */
    tr_load_op load_op;
    tr_store_op store_op;
    float clear_color[4];     /* converted to the format as a clear would */
    /* A multisampled attachment's single-sample resolve image (Vulkan's
     * pResolveAttachments), or NULL.  Same format and size, one sample,
     * enough layers; not an attachment of the pass.  The tile resolves
     * into it as it stores (multisample.h's arithmetic), whatever store_op
     * is, so the multisampled image need not be stored at all. */
    tr_image *resolve_image;
    uint32_t resolve_level, resolve_base_layer;
} tr_color_attachment;

typedef struct tr_depth_attachment {
    tr_image *image;          /* NULL: no depth/stencil */
    uint32_t level, base_layer;
    tr_load_op depth_load_op, stencil_load_op;
    tr_store_op depth_store_op, stencil_store_op;
    float clear_depth;
    uint32_t clear_stencil;
} tr_depth_attachment;

/* One (bin, primitive) pair of a visibility stream, as the rendering pass
 * reads it.  A clipped triangle's pieces share its primitive number. */
typedef struct tr_visibility_entry {
    uint32_t view;            /* view index */
    uint32_t bin_x, bin_y;    /* bin in the grid */
    uint32_t pipe;            /* VSC pipe holding the bin */
    uint32_t draw;            /* draw number within the pass, from 0 */
    uint32_t instance;        /* instance number within the draw, from 0 */
    uint32_t primitive;       /* triangle number within the instance, from 0 */
} tr_visibility_entry;

typedef void (*tr_visibility_fn)(void *user, const tr_visibility_entry *entry);

/* Render pass flags */
#define TR_PASS_SINGLE_BIN 1u /* render the whole render area as one bin (sysmem-like);
                                 bit-identical to binned rendering */
#define TR_PASS_NO_LRZ 2u     /* no low-resolution Z in this pass (bit-identical either way);
                                 the depth image's LRZ is dropped */
#define TR_PASS_FDM_SHARED_VIEWPORT 4u /* with a density map: one fragment area per bin for every
                                 view (the per-axis minimum over the views), as when a draw's
                                 pipeline writes the viewport index (TR_PIPELINE_WRITES_VIEWPORT_
                                 INDEX, which sets it for the pass) */
/* OpenGL's window origin, as a GL implementation draws into a framebuffer
 * object (y up; glClipControl(GL_LOWER_LEFT, ...)).  Every rectangle of the
 * pass -- render_area, viewport, scissor, tr_cmd_clear_attachments' rects --
 * is in window coordinates with the origin at the framebuffer's lower-left
 * corner, as glViewport and glScissor take them.  A vertex's window y is
 * computed bottom-up, y_w = fma(height / 2, y_ndc, y + height / 2) in float,
 * snapped to 1/256 pixel, and the snapped integer flipped to image rows
 * (row = fb_height - y_w, exactly), so coverage is what a GL implementation
 * computes, float rounding included; images stay top row first.  The front
 * face is as glFrontFace says in window coordinates, y up (the picture the
 * image shows, so the same rule as without the flag);
 * tr_fs_block.frag_y is gl_FragCoord.y (y up); the pipeline's tie rule
 * applies to the edges in image rows, after the flip; multisampled, each
 * sample lies at its standard position in window coordinates (so mirrored
 * in image rows: multisample.h).  With a density map a scaled bin flips
 * about its scaled height, exactly (fdm.h's transforms stay in image
 * rows). */
#define TR_PASS_ORIGIN_LOWER_LEFT 8u

typedef struct tr_render_pass_desc {
    tr_color_attachment color[TR_MAX_COLOR_ATTACHMENTS];
    uint32_t color_count;     /* attachments used: slots [0, color_count) */
    tr_depth_attachment depth;
    tr_rect render_area;      /* width or height 0 = the whole framebuffer */
    /* 0 = no multiview (one view, index 0).  Otherwise bit i renders view i
     * (i < TR_MAX_VIEWS): shaders see view_index = i and the view renders
     * into layer base_layer + i of every attachment, so the attachments need
     * base_layer + (highest set bit) + 1 layers.  A sparse mask (0b101) is
     * allowed and leaves the layers of the clear bits untouched. */
    uint32_t view_mask;
    uint32_t flags;           /* TR_PASS_* */
    /* Fragment density map (fdm.h); image NULL = none.  Not with
     * TR_PASS_SINGLE_BIN (no FDM without bins, as on the hardware). */
    tr_density_map density_map;
    /* Debugging: if set, tr_cmd_end_render_pass calls it (on the calling
     * thread, before rendering) for every entry of every bin's stream, bins
     * in row-major order, entries in submission order. */
    tr_visibility_fn visibility_fn;
    void *visibility_user;
} tr_render_pass_desc;

typedef enum tr_index_type {
    TR_INDEX_U16 = 0, TR_INDEX_U32
} tr_index_type;

/* ---- bin layout: what the binning pass will use ------------------------ */

typedef struct tr_bin_layout {
    uint32_t bin_w, bin_h;     /* bin size in pixels (aligned) */
    uint32_t bins_x, bins_y;   /* grid over the render area */
    uint32_t pipe_w, pipe_h;   /* bins per VSC pipe */
    uint32_t pipes_x, pipes_y; /* pipe grid; pipes_x * pipes_y <= TR_MAX_VSC_PIPES */
    uint32_t gmem_pixels;      /* pixels per view one tile may hold */
    uint32_t tile_align_w, tile_align_h; /* after the cpp-1 rule */
    uint32_t views;
    /* Bin (0, 0)'s top-left: the render area's origin rounded down to a
     * multiple of 8, so that 8x8 raster blocks and 2x2 quads never straddle
     * two bins.  (Turnip starts its grid at the framebuffer's origin.) */
    int32_t origin_x, origin_y;
} tr_bin_layout;

/* Computes the bin layout a pass with these attachments would get (turnip's
 * search: fewest bins, ties to the squarest; never over the GMEM budget). */
TR_API tr_result tr_compute_bin_layout(tr_context *ctx, const tr_render_pass_desc *desc,
                                tr_bin_layout *out);

/* ---- statistics --------------------------------------------------------- */

typedef struct tr_pass_stats {
    tr_bin_layout layout;
    uint32_t bins;                    /* bins rendered, empty ones included (they load and store) */
    uint32_t pipes;                   /* VSC pipes whose stream is non-empty in at least one view */
    uint64_t draws;
    uint64_t vertex_linear_ids;       /* linear ids the vertex jobs dispatched, padding slots
                                         included: padded count x instances x views per draw */
    uint64_t primitives_in;           /* triangles, lines and points assembled (per view, per instance) */
    uint64_t primitives_culled;       /* facing, zero area or length, outside the clip volume, non-finite */
    uint64_t primitives_nonfinite;    /* of those culled: a NaN or infinite position component */
    uint64_t primitives_clipped;      /* triangles that needed clipping */
    uint64_t primitives_binned;       /* set-up triangles written to visibility streams (depends on the
                                         bins; a rectangular line or a point is two, its quad's halves) */
    uint64_t bin_primitive_refs;      /* sum over bins of the triangles each bin draws */
    uint64_t visibility_stream_bytes; /* size of all visibility streams */
    uint64_t fragments_rasterized;    /* covered pixels */
    uint64_t fragments_depth_rejected;   /* killed by the depth test */
    uint64_t fragments_stencil_rejected; /* killed by the stencil test */
    uint64_t fragments_lrz_rejected;     /* covered pixels LRZ rejected before the depth test
                                            (they are also in fragments_rasterized) */
    uint64_t fragments_shaded;        /* covered pixels the fragment shader ran for */
    uint64_t fragments_discarded;     /* killed by the shader */
    uint64_t fragments_written;       /* pixels that reached the blend/write stage */
    uint64_t gmem_bytes_loaded;       /* restored from images into GMEM */
    uint64_t gmem_bytes_cleared;      /* written into GMEM by clears */
    uint64_t gmem_bytes_stored;       /* resolved from GMEM to images */
    uint64_t gmem_bytes_resolved;     /* written to resolve images: multisampled colour averaged
                                         in GMEM (multisample.h), bytes of the resolved texels */
    /* Memory (host bytes; tr_context_desc.memory_limit can cap it) */
    uint64_t memory_binning_bytes;    /* what recording kept for the bins: set-up triangles,
                                         uniforms, draw records (visibility streams: above) */
    uint64_t memory_tile_bytes;       /* tile buffers: threads x one tile's GMEM */
    uint64_t memory_peak_bytes;       /* the most the context held at once during the pass,
                                         images and earlier passes' reusable buffers included */
    /* Low-resolution Z (lrz.h explains the rules) */
    uint32_t lrz_state;               /* a tr_lrz_state: how the pass ended */
    uint32_t lrz_direction;           /* a tr_lrz_direction: the buffer's direction */
    uint64_t lrz_blocks_written;      /* LRZ texels (8x8 pixels; multisampled, 8x8 of the supersampled
                                         footprint: lrz.h) whose bound a primitive tightened while binning */
    uint64_t lrz_blocks_tested;       /* (primitive, texel) pairs tested while rendering */
    uint64_t lrz_blocks_rejected;     /* of those, rejected whole */
    /* Fragment density map (fdm.h); all 0 without one.  A "bin view" is
     * one view of one bin. */
    uint32_t fdm_bin_views[3][3];     /* bin views rendered with fragment area (1 << i) x (1 << j)
                                         at [j][i] (width index i, height index j) */
    uint32_t fdm_bin_views_invisible; /* bin views a density of 0 skipped (nothing rendered) */
    uint32_t tiles;                   /* tiles rendered: bins with a visible view, one for each
                                         group of merged bins (a7xx bin merging, fdm.h) */
    uint32_t fdm_bins_merged;         /* bins merged into a neighbour's tile; as in turnip a bin
                                         invisible in every view may be absorbed (drawn, not
                                         stored), so tiles + merged = the bins with a visible
                                         view plus such absorbed bins */
    uint64_t fdm_fragments_shaded_scaled; /* of fragments_shaded: coarse fragments, in bins of an
                                         area above 1x1 */
    uint64_t fdm_pixels_shaded_scaled;    /* the framebuffer pixels those stand for (fx * fy each) */
    uint64_t fdm_gmem_bytes_loaded_full;  /* what gmem_bytes_loaded, _cleared and _stored would have */
    uint64_t fdm_gmem_bytes_cleared_full; /* been with every bin view at full scale (they count the */
    uint64_t fdm_gmem_bytes_stored_full;  /* bytes of the reduced tiles) */
    double ms_vertex;                 /* vertex shading, clipping, setup */
    double ms_binning;                /* writing visibility streams */
    double ms_render;                 /* rendering the bins (wall time) */
} tr_pass_stats;

/* Writes `stats` as one JSON object (no trailing newline) into buf, like
 * snprintf: at most `size` bytes including the terminating NUL, and returns
 * the length the whole object needs (excluding the NUL).  buf may be NULL
 * when size is 0.  Every field of tr_pass_stats appears under its C name; the
 * layout is a nested object "layout", fdm_bin_views an array of 3 rows (the
 * height index) of 3 counts.  Counts are exact integers, times have
 * three decimals (null if not finite).  Call with size 0 to learn the
 * length; the statistics of a real pass need well under 2 KiB. */
TR_API size_t tr_pass_stats_to_json(const tr_pass_stats *stats, char *buf, size_t size);

/* ---- commands ----------------------------------------------------------- */

/* Starts recording a pass.  Sets the viewport to the render area (depth 0..1)
 * and the scissor to the render area.  (Vulkan leaves both undefined until
 * they are set; this default lets a simple pass draw without setting them.) */
TR_API tr_result tr_cmd_begin_render_pass(tr_context *ctx, const tr_render_pass_desc *desc);

TR_API tr_result tr_cmd_bind_pipeline(tr_context *ctx, tr_pipeline *pipeline);
TR_API tr_result tr_cmd_set_viewport(tr_context *ctx, const tr_viewport *viewport);
TR_API tr_result tr_cmd_set_scissor(tr_context *ctx, const tr_rect *scissor);
/* Stencil is 8 bits: only the low 8 bits of each reference are used, as
 * Vulkan does for an S8 aspect. */
TR_API tr_result tr_cmd_set_stencil_reference(tr_context *ctx, uint32_t front, uint32_t back);
TR_API tr_result tr_cmd_set_blend_constants(tr_context *ctx, const float rgba[4]);

/* Copies `size` bytes (at most TR_MAX_UNIFORM_BYTES) that the following
 * draws' shaders see as `uniforms`; the copy lives until the pass ends. */
#define TR_MAX_UNIFORM_BYTES 65536u
TR_API tr_result tr_cmd_set_uniforms(tr_context *ctx, const void *data, size_t size);

/* Clearing inside a pass (vkCmdClearAttachments): what to clear. */
#define TR_CLEAR_COLOR 1u
#define TR_CLEAR_DEPTH 2u
#define TR_CLEAR_STENCIL 4u

typedef struct tr_clear_attachment {
    uint32_t aspects;          /* TR_CLEAR_COLOR, or TR_CLEAR_DEPTH and/or TR_CLEAR_STENCIL */
    uint32_t color_attachment; /* TR_CLEAR_COLOR: the colour slot (an unbound slot is ignored) */
    float color[4];            /* converted to the attachment's format as a load-op clear */
    float depth;               /* in [0, 1] */
    uint32_t stencil;          /* low 8 bits */
} tr_clear_attachment;

/* Clears rectangles of attachments in the middle of a pass, in submission
 * order with the draws, in every view; rectangles must lie inside the
 * render area (TR_ERROR_OUT_OF_RANGE) and be non-empty.  No test, blend or
 * mask applies.  Clearing depth this way makes LRZ invalid for the rest of
 * the pass (as turnip does). */
TR_API tr_result tr_cmd_clear_attachments(tr_context *ctx, uint32_t attachment_count,
                                          const tr_clear_attachment *attachments, uint32_t rect_count,
                                          const tr_rect *rects);

/* Binds `size` bytes at `data` to a vertex binding slot, starting `offset`
 * bytes in (NULL, 0 unbinds).  Attributes are fetched while tr_cmd_draw*
 * runs: the bytes must stay valid until the draws using them return.  Every
 * element a draw would read is checked against the size first: a draw that
 * would read past it fails with TR_ERROR_OUT_OF_RANGE and records nothing. */
TR_API tr_result tr_cmd_bind_vertex_buffer(tr_context *ctx, uint32_t binding, const void *data, size_t size,
                                           size_t offset);

#define TR_MAX_DRAW_VERTICES (1u << 28)

/* Instanced draws.  A draw runs as a Mali vertex job (instancing.h): each
 * instance has tr_padded_vertex_count(n) slots when instance_count > 1 (else
 * n), where n is vertex_count, or for an indexed draw the span from the
 * smallest to the largest index; slot v of instance i has the linear id
 * i * padded + v, at most 2^32 - 1 (else TR_ERROR_LIMIT_EXCEEDED).  Per-
 * vertex attributes read element (first vertex or smallest index +
 * vertex_offset) + linear id mod padded; per-instance attributes read
 * first_instance + linear id / (padded x divisor), through the records of
 * tr_attribute_record_for.  The vertex shader sees gl_VertexIndex and
 * gl_InstanceIndex (first_instance + i). */

/* Hostile geometry: what a draw does with it, deterministically (the same
 * on every thread count, SIMD level and bin size), never a crash or an
 * overflow:
 * - a triangle with any NaN or infinite clip-space position component is
 *   discarded and counted in tr_pass_stats.primitives_nonfinite (and
 *   primitives_culled); the rest of the draw renders exactly as without it;
 * - triangles are clipped in double precision against 0 <= z <= w, against
 *   w >= 1e-20 (so w <= 0 never divides) and against a guard band of the
 *   viewport, so finite positions up to the largest floats become window
 *   coordinates the 1/256-pixel fixed point holds; nothing is drawn outside
 *   the viewport rectangle (tr_viewport);
 * - zero-area and collinear triangles cover no pixel (Vulkan's rule: exact
 *   integer edge functions), and are culled;
 * - NaN or infinite varyings, colours or depth a shader writes are
 *   converted by the format's rules (image.h: UNORM/sRGB clamp with NaN as
 *   0, float formats keep infinities and store one canonical NaN); depth a
 *   shader writes is clamped to the viewport's depth range, NaN to its
 *   min_depth. */
TR_API tr_result tr_cmd_draw(tr_context *ctx, uint32_t vertex_count, uint32_t instance_count,
                      uint32_t first_vertex, uint32_t first_instance);

/* Binds `size` bytes at `data` as the index buffer of the indexed draws
 * recorded after it, starting `offset` bytes in; indices are `type`
 * (16- or 32-bit, host byte order, any alignment).  The caller keeps the
 * memory; each tr_cmd_draw_indexed reads it during the call.  data NULL
 * (with size 0) unbinds.  Bound state lasts until the pass ends. */
TR_API tr_result tr_cmd_bind_index_buffer(tr_context *ctx, const void *data, size_t size, size_t offset,
                                          tr_index_type type);

/* Draws index_count indices of the bound index buffer starting at
 * first_index (as vkCmdDrawIndexed).  TR_ERROR_INVALID_STATE without an
 * index buffer, TR_ERROR_OUT_OF_RANGE if the indices run past its end. */
TR_API tr_result tr_cmd_draw_indexed(tr_context *ctx, uint32_t index_count, uint32_t instance_count,
                                     uint32_t first_index, int32_t vertex_offset, uint32_t first_instance);

/* Renders every bin and resolves.  stats may be NULL. */
TR_API tr_result tr_cmd_end_render_pass(tr_context *ctx, tr_pass_stats *stats);

#ifdef __cplusplus
}
#endif
#endif
