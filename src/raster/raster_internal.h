/* tilerast raster stage.
 * Consumes: clipped, shaded vertices (setup) and, per bin, the triangles its
 * visibility stream names.  Produces: set-up triangles (fixed-point edge
 * functions, barycentric planes, attribute planes) and the bin's pixels in a
 * GMEM tile buffer, which is loaded before and stored after the bin. */
#ifndef TILERAST_RASTER_INTERNAL_H
#define TILERAST_RASTER_INTERNAL_H

#include "fdm/fdm_view.h"
#include "lrz/lrz_internal.h"
#include "record.h"
#include "walk/walk_internal.h"

/* Floats of a triangle's attribute block: z plane, 1/w plane, 1/w1, 1/w2,
 * then a plane (v0, v1 - v0, v2 - v0) per varying component. */
#define TR_TRI_ATTR_FLOATS(nv) (8u + 12u * (nv))

typedef enum tr__setup_status { TR__SETUP_OK, TR__SETUP_CULLED, TR__SETUP_OOM } tr__setup_status;

/* Sets up one triangle from three shaded clip-space vertices (position then
 * varyings).  Flat varyings must already hold the provoking vertex's values
 * in all three.  exact_pos[i], if not NULL, is vertex i's clip position in
 * double (a vertex made by clipping).  On TR__SETUP_OK, *out is a triangle
 * allocated from `arena`. */
tr__setup_status tr__raster_setup(tr_context *ctx, tr__arena *arena, const tr__draw *draw, uint32_t draw_index,
                                  const float *const v[3], const double *const exact_pos[3], tr__tri **out);

/* tr__raster_setup of a triangle of a draw without a density map
 * (tr__draw.fdm 0, win_offset 0) whose vertices clipping leaves alone,
 * from their window positions (tr__vwin, vertex_internal.h: win[i],
 * tr__vertex_window's x, y, z, 1/w; sub[i], x and y on the subpixel grid,
 * within twice the guard band): the same triangle.  flat: the pipeline's
 * flat varyings, which v[1] and v[2] hold their own values of (the
 * provoking vertex v[0]'s are used). */
tr__setup_status tr__raster_setup_placed(tr_context *ctx, tr__arena *arena, const tr__draw *draw,
                                         uint32_t draw_index, const float *const v[3], const float *const win[3],
                                         const int32_t *const sub[3], uint32_t flat, tr__tri **out);

/* Sets up a line (two shaded vertices, flat varyings already the first's)
 * or a point (one vertex, its size in pixels already clamped) as the
 * pipeline's rules say (pipeline.h, "lines and points"): one or two
 * set-up triangles into out[], *made of them.  exact_pos as above. */
tr__setup_status tr__raster_setup_line(tr_context *ctx, tr__arena *arena, const tr__draw *draw, uint32_t draw_index,
                                       const float *const v[2], const double *const exact_pos[2], tr__tri *out[2],
                                       int *made);
tr__setup_status tr__raster_setup_point(tr_context *ctx, tr__arena *arena, const tr__draw *draw, uint32_t draw_index,
                                        const float *v, float size, tr__tri *out[2], int *made);

/* A pass with a density map keeps a line or point as a proxy
 * (TR__TRI_PROXY): its source vertices and a box that holds what any bin,
 * of any fragment area, may draw of it; every bin, scaled or not, sets it
 * up again with its (patched) draw into `into` (two scratch triangles),
 * returning the pieces made. */
tr__setup_status tr__raster_setup_prim_proxy(tr_context *ctx, tr__arena *arena, const tr__draw *draw,
                                             uint32_t draw_index, const float *const v[2],
                                             const double *const exact_pos[2], tr__tri **out);
int tr__raster_setup_prim_again(const tr__draw *draw, const tr__tri *proxy, tr__tri *const into[2]);

/* ---- set-up's shared steps (raster_setup.c, raster_prims.c) -------------------------------- */

/* A shaded vertex's window position, as set-up places a triangle's: x, y
 * snapped to 1/256 pixel in image rows (*X, *Y), z and 1/w in win[2],
 * win[3].  false outside the guard band (float overflow only). */
bool tr__raster_snap_vertex(const tr__draw *draw, const float *v, const double *exact_pos, double win[4], int32_t *X,
                            int32_t *Y);

/* floor(a / 256): an arithmetic shift (GCC and Clang shift signed values
 * arithmetically; C leaves it to the implementation, so it is checked). */
static inline int64_t tr__floor_div_subpixel(int64_t a)
{
    _Static_assert(TR_SUBPIXEL_ONE == 256, "a shift by the subpixel bits");
    _Static_assert((-1 >> 1) == -1, "arithmetic right shift");
    return a >> TR_SUBPIXEL_BITS;
}

/* Edge k of t: from (xi, yi) to (xj, yj), positive on its left (the side
 * a triangle of positive twice-area lies on), the tie rule folded into c:
 * a sample exactly on the edge is inside when the edge owns it. */
static inline void tr__setup_edge(tr__tri *t, int k, int64_t xi, int64_t yi, int64_t xj, int64_t yj,
                                  tr_tie_rule rule)
{
    const int64_t dx = xj - xi, dy = yj - yi;
    const int64_t a = -dy, b = dx;
    const int64_t c = -b * yi - a * xi;
    const int tie = rule == TR_TIE_TOP_LEFT ? dx > 0 : dx < 0;
    const int owned = (dy < 0) | ((dy == 0) & tie);
    t->edge_a[k] = a;
    t->edge_b[k] = b;
    t->edge_c[k] = c - 1 + owned;
}

/* The pixels a primitive spanning [minx, maxx] x [miny, maxy] (1/256
 * pixel) may cover: those whose centre lies in that box, or with several
 * samples those whose area meets it; x0, y0 inclusive, x1, y1 exclusive. */
static inline void tr__setup_pixel_box(int64_t minx, int64_t miny, int64_t maxx, int64_t maxy, bool samples,
                                       int64_t box[4])
{
    if (samples) {
        box[0] = tr__floor_div_subpixel(minx);
        box[1] = tr__floor_div_subpixel(miny);
        box[2] = tr__floor_div_subpixel(maxx) + 1;
        box[3] = tr__floor_div_subpixel(maxy) + 1;
    } else {
        box[0] = -tr__floor_div_subpixel(-(minx - TR_SUBPIXEL_HALF));
        box[1] = -tr__floor_div_subpixel(-(miny - TR_SUBPIXEL_HALF));
        box[2] = tr__floor_div_subpixel(maxx - TR_SUBPIXEL_HALF) + 1;
        box[3] = tr__floor_div_subpixel(maxy - TR_SUBPIXEL_HALF) + 1;
    }
}

/* A blend lookup table for blocks whose source colour is uniform
 * (raster_quad.c): each channel's result as a function of that channel's
 * destination byte, for one blend state, source and constant colour. */
typedef struct tr__blend_key {
    tr_blend_state bs;         /* state, clamped source and raw constants */
    float s[4], k[4];
} tr__blend_key;
typedef struct tr__blend_lut {
    bool valid;
    tr__blend_key key;         /* what table holds */
    tr__blend_key seen;        /* the last other key met, and how many */
    uint32_t seen_count;       /* blocks in a row had it: a table is made */
    uint8_t table[4][256];     /* at the 3rd, as it costs about 4 blocks */
    /* When every channel's table is (b * mul + add) >> 15 exactly, whole
     * blocks apply it in vector integer arithmetic; when it is also
     * ((b * mul16) >> 8 + add16) >> 8, in 16-bit lanes (twice as many). */
    bool affine, affine16;
    int32_t mul[4], add[4];
    uint16_t mul16[4], add16[4];
} tr__blend_lut;

/* One worker per thread: a tile buffer, a fragment block and its blend
 * table. */
/* The nearest and farthest depth stored in one 8x8 GMEM block, for the
 * block depth test of raster_tri.c (NaN texels left out). */
typedef struct tr__zblock {
    float lo, hi;
} tr__zblock;

struct tr__worker {
    _Alignas(64) uint8_t *tile; /* (workers run at once: each on its own cache lines) */
    tr__zblock *zblocks;    /* a bin view's blocks (tr__raster_bin.zblocks) */
    uint8_t *zvalid;
    size_t zcap;            /* entries of both */
    size_t tile_cap;
    tr_fs_block *fs;
    tr__tri *scratch_tri;   /* a triangle set up again for a scaled bin (tr__tri_bytes(TR_MAX_VARYINGS)) */
    tr__tri *scratch_piece[2]; /* a line's or point's pieces set up again (tr__raster_setup_prim_again) */
    tr__lrz_scratch lrz_scratch; /* LRZ of a scaled bin in rendering space (a7xx bin scaling) */
    tr_pass_stats stats;
    tr__blend_lut lut;
};

/* What the raster stage needs of the pass: the same for every bin. */
typedef struct tr__raster_pass {
    const tr__attachment_state *att; /* GMEM order: colour, depth, stencil */
    uint32_t att_count;
    const int *color_att;         /* [TR_MAX_COLOR_ATTACHMENTS]: index into att, or -1 */
    uint32_t color_count;         /* colour slots of the pass */
    int depth_att, stencil_att;   /* index into att, or -1 */
    const uint32_t *view_ids;     /* [view slot]: the view index */
    const tr__draw *draws;
    const tr__lrz_pass *lrz;      /* lrz->buf NULL: LRZ off */
    bool fdm;                     /* the pass has a density map (fdm_* statistics) */
    uint32_t samples;             /* of every attachment (multisample.h): each view's slice of an
                                     attachment in GMEM holds this many planes, sample s at
                                     gmem[i] + s * plane_texels * cpp */
    size_t plane_texels;          /* texels of one plane (the layout's bin_w * bin_h) */
} tr__raster_pass;

/* Sets a triangle of a pass with a density map up again from its source
 * vertices (record.h) with `draw`, the draw patched for one scaled bin and
 * view (its viewport and scissor in rendering space), into `into` (room for
 * tr__tri_bytes(varying_count)).  Culls as set-up does. */
tr__setup_status tr__raster_setup_again(const tr__draw *draw, const tr__tri *src_tri, tr__tri *into);

/* What the fragment path (raster_tri.c's shade_quads) needs of a
 * triangle's draw and bin view: the same for every triangle of one
 * pipeline (and depth format) in a bin view; and the triangle's shaded
 * uniform quad. */
typedef struct tr__shade_state {
    uint32_t flags;         /* the pipeline's fs_flags */
    bool simd;              /* not the scalar reference */
    bool frag_coord, shader_depth, smooth, early;
    bool depth;             /* a depth test against an attachment */
    bool block_depth;       /* whole blocks may take the kernels' depth_block */
    bool lanes_depth;       /* other quads the kernels' depth_lanes (block_depth's conditions but a smooth
                               varying: then with the barycentrics) */
    bool uniform;           /* blocks of more than one quad are uniform */
    bool window;            /* small triangles may take the window path (raster_tri.c) */
    bool window_ms;         /* ... and in a multisampled pass (raster_window_ms) */
    bool untested;          /* uniform, with no test before or after the shader, which can
                               change nothing but colour (no discard, sample mask), at full scale */
    /* The worker's fragment block holds this triangle's uniform quad,
     * shaded; uni_known/uni_value: quad0_uniform's answer per colour
     * attachment for it. */
    bool shaded;
    uint32_t uni_known, uni_value;
    /* (one colour attachment) its uniform whole blocks go straight
     * through the worker's blend table (tr__blend_lut_holds found it
     * holds the triangle's blend) */
    bool blend_ready;
    /* ... or, written without blending, they take fill_texel (its
     * encoding: tr__rgba8_texel) */
    bool fill_ready;
    uint32_t fill_texel;
} tr__shade_state;

/* Everything one worker needs to draw one view of one bin. */
typedef struct tr__raster_bin {
    tr_context *ctx;
    const tr__raster_pass *rp;
    tr__worker *worker;
    uint32_t view_slot;           /* position of the view in pass->view_ids */
    int32_t rect[4];              /* the bin, inside the render area: x0, y0, x1, y1 */
    int32_t origin[2];            /* the bin's top-left: GMEM pixel (0, 0) */
    uint8_t *gmem[TR__MAX_ATTACHMENTS]; /* this view's slice of each attachment */
    uint32_t gmem_pitch;          /* pixels per GMEM row (the layout's bin width) */
    /* The depth range of each 8x8 block of the depth attachment, for the
     * block depth test: valid where zvalid is set, recomputed from GMEM on
     * use and invalidated by every depth write (tr__zblocks_*).  Block
     * (x >> 3, y >> 3) is entry ((y >> 3) - (origin[1] >> 3)) * zstride +
     * (x >> 3) - (origin[0] >> 3).  NULL: no block depth test in this view. */
    tr__zblock *zblocks;
    uint8_t *zvalid;
    uint32_t zstride;
    float lrz_far;                /* tr__lrz_far_bound of this view of the bin (LRZ on) */
    float lrz_near;               /* ... and tr__lrz_near_bound */
    bool lrz;                     /* LRZ tests apply in this bin view */
    /* The LRZ this bin view tests (LRZ on): the pass's buffer and the view
     * slot, or for a scaled bin on a device with hardware bin scaling the
     * worker's rendering-space buffer (tr__lrz_scratch) and slot 0. */
    const tr__lrz_pass *lrz_pass;
    uint32_t lrz_view;
    uint32_t frag_w, frag_h;      /* the fragment area (1 x 1 without a density map) */
    /* A bin view at a reduced scale (fdm.h), or NULL.  Then rect, origin
     * and the triangles are in rendering space, and fb_rect is the bin's
     * framebuffer rectangle (inside the render area) that the store fills. */
    const tr__fdm_view *fdm;
    int32_t fb_rect[4];
    /* Subsampled attachments (src/subsample): where this scaled view of the
     * tile is stored at its reduced size (the image's texel of rendering-
     * space pixel origin), or NULL when it is stored as usual.  store_set
     * selects what tr__raster_store writes: 1 the usual attachments, 2 the
     * subsampled ones stored reduced (3: both). */
    const tr_rect *ss_rect;
    uint32_t store_set;
    int32_t ss_shift[2];          /* a subsampled attachment's full-size store: moved by this from
                                     the framebuffer (its layout rectangle - b_s); 0 without
                                     FDM offsets */
    /* The fragment path's state of the last pipeline drawn (and depth
     * format: tr__draw.depth_qmax), reused while the next triangle's are
     * the same; shade_pipeline NULL (at each bin view's start): none. */
    const tr_pipeline *shade_pipeline;
    /* What the single-sampled path works out per draw (raster_tri.c,
     * ss_draw_state), kept while the next triangle's draw is the same:
     * tri_draw its index (UINT32_MAX at each bin view's start), LRZ's test
     * direction, the GMEM block test's, the bin cut to the scissor;
     * tri_lrz_pass: every depth of the draw passes every LRZ block test
     * of the bin view (lrz_near), which are only counted. */
    uint32_t tri_draw;
    tr_lrz_direction tri_lrz, tri_gdir;
    bool tri_lrz_pass;
    int32_t tri_cut[4];
    uint32_t shade_qmax;
    tr__shade_state shade;
} tr__raster_bin;

/* Draws one triangle of draw d inside the bin (and d's scissor).  In a bin
 * view at a reduced scale, t and d are those of rendering space
 * (tr__raster_setup_again, tr__fdm_patch_draw). */
void tr__raster_triangle(tr__raster_bin *rb, const tr__tri *t, const tr__draw *d);

/* GMEM load (clear or restore) and store (resolve) of rb's view of one bin,
 * over rb->rect. */
void tr__raster_load(tr__raster_bin *rb);
void tr__raster_store(tr__raster_bin *rb);

/* The lanes of a block being shaded (raster_quad.c), quad by quad: quad j
 * is lanes 4j..4j+3 = (qx, qy), (qx+1, qy), (qx, qy+1), (qx+1, qy+1). */
typedef struct tr__lanes {
    uint32_t nq;                                  /* quads in use */
    bool block;                                   /* the 16 quads of one 8x8 block, in order */
    int32_t qx[TR_FS_LANES / 4], qy[TR_FS_LANES / 4]; /* top-left pixel of each quad */
    uint8_t lrz_test[TR_FS_LANES / 4];            /* test this quad's fragments against lrz_bound */
    float lrz_bound[TR_FS_LANES / 4];             /* its block's LRZ bound */
    float l1[TR_FS_LANES], l2[TR_FS_LANES];       /* barycentrics */
    float z[TR_FS_LANES];                         /* depth, clamped to the viewport's range (and
                                                     quantised to a D16 / D24 attachment once zq) */
    bool zq;                                      /* z is quantised, zraw holds it before */
    float zraw[TR_FS_LANES];                      /* (zq) the unquantised depth: the shader's frag_z */
} tr__lanes;

/* Quantises the depths of ln's lanes to a UNORM depth attachment's codes
 * (tr__depth_quantise; depth_max 0: a float format, nothing to do), once:
 * the depth and LRZ tests compare these, as a 16- or 24-bit buffer does.
 * tr__lanes_setup and every other write of z clears zq. */
static inline void tr__lanes_quantise(tr__lanes *ln, uint32_t depth_max)
{
    if (!depth_max || ln->zq)
        return;
    const uint32_t n = 4 * ln->nq;
    for (uint32_t i = 0; i < n; i++) {
        ln->zraw[i] = ln->z[i];
        ln->z[i] = tr__depth_quantise(depth_max, ln->z[i]);
    }
    ln->zq = true;
}

/* Rows of 8x8 blocks in a bin view's block depth ranges (zstride each). */
static inline size_t tr__zblock_rows(const tr__raster_bin *rb)
{
    return (size_t)((rb->rect[3] - 1) >> 3) - (size_t)(rb->origin[1] >> 3) + 1;
}

/* Forgets the depth ranges of the blocks of the quads of ln whose lanes
 * in `wrote` wrote depth (or of every block, ln NULL). */
void tr__zblocks_invalidate(tr__raster_bin *rb, const tr__lanes *ln, uint64_t wrote);

/* The viewport's depth clamp: z >= lo ? (z <= hi ? z : hi) : lo, NaN -> lo. */
static inline float tr__clamp_depth(float z, float lo, float hi)
{
    return z >= lo ? (z <= hi ? z : hi) : lo;
}

/* The pixel of lane i. */
static inline int32_t tr__lane_x(const tr__lanes *ln, uint32_t i)
{
    return ln->qx[i >> 2] + (int32_t)(i & 1);
}

static inline int32_t tr__lane_y(const tr__lanes *ln, uint32_t i)
{
    return ln->qy[i >> 2] + (int32_t)((i >> 1) & 1);
}

/* The quad kernels, in a table chosen once per context (tr__kernels,
 * below): the scalar reference, its four-lane twin (SIMDe), and where built
 * the eight-lane (AVX2) one; all give identical bits
 * (tests/raster/test_kernels.c).
 * - lanes_setup: from nq, qx, qy, l1 and l2 of every lane
 *   (TR__LANES_BARY) and z too (TR__LANES_Z);
 * - lanes_lrz_reject: the live lanes of quads with lrz_test set that lie
 *   strictly beyond their quad's lrz_bound;
 * - depth_quads: the depth test (no stencil) of the live lanes against
 *   dbuf (GMEM, `pitch` texels per row, origin = GMEM texel (0, 0)), with
 *   the write of passing lanes when `write`; returns the failing lanes;
 * - fs_inputs: the varyings of fs (flat_mask's the plane's v0,
 *   noperspective_mask's from l1, l2, the rest perspective-correct),
 *   frag_x/y/z/w when `frag_coord`, and depth (preset to z) when `depth`;
 *   with lc (NULL: none), the varyings of centroid_mask that are not flat
 *   are made the same way from lc's l1, l2 (each lane's barycentrics at
 *   its centroid, raster_tri.c) instead of ln's;
 * - blend_quads: tr__blend_write for the live lanes of colour output `att`
 *   into an RGBA8 UNORM attachment; returns false, doing nothing, for
 *   other formats or when the context is capped to TR_SIMD_SCALAR.  With
 *   a `lut` (may be NULL), a block whose live lanes all have the same
 *   source colour, and whose factors read no other channel's destination,
 *   goes through a per-channel table of the same arithmetic (made once per
 *   state and colour, kept in *lut).  `uniform`: every lane's source is
 *   lane 0's (only lane 0 of fs's colours is read); a uniform block skips
 *   the per-lane comparison, and without blending is encoded once. */
#define TR__LANES_BARY 1u
#define TR__LANES_Z 3u /* z and the barycentrics it is made from */
/* The stencil and depth tests together, with their writes (GMEM planes of
 * `pitch` texels per row; dbuf or sbuf NULL: that test is off).  A lane
 * failing the stencil test takes fail_op; passing it and failing depth,
 * depth_fail_op; passing both, pass_op and the depth write.  Returns the
 * survivors and adds the rejections to *stencil_rejected and
 * *depth_rejected. */
typedef struct tr__ds_state {
    float *dbuf;
    uint8_t *sbuf;
    uint32_t pitch;
    int32_t origin[2];
    tr_compare_op depth_compare;
    bool depth_write;
    const tr_stencil_face *face; /* the triangle's face (masks already resolved) */
    uint8_t ref;
} tr__ds_state;

/* The early tests of a window's pixels (the small-triangle path of
 * raster_tri.c, tr__window): LRZ's per-fragment test of the blocks of
 * lrz_test, then the depth test. */
typedef struct tr__window_tests {
    float *dbuf;               /* the depth attachment's GMEM, texel (0, 0) at `origin`; NULL: no depth test */
    uint32_t pitch;            /* texels per GMEM row */
    int32_t origin[2];
    tr_compare_op op;          /* LESS, LESS_OR_EQUAL, GREATER or GREATER_OR_EQUAL */
    bool write;
    uint32_t inside;           /* bit k: block k's columns lie inside the bin (whole rows may be read and
                                  written back; else only its pixels are touched) */
    uint32_t reject;           /* bit k: block k is rejected whole (LRZ's block test): its pixels
                                  are counted, not tested */
    const uint64_t *reject_m;  /* or NULL: per block (row-major), pixels rejected before the tests
                                  (a multisampled pass's LRZ texels) */
    uint32_t lrz_test;         /* bit k: block k's pixels are first tested against lrz_bound[k] */
    float lrz_bound[4];
    tr_lrz_direction lrz_dir;
} tr__window_tests;

/* What window_raster counts per block of its window: the covered pixels
 * (before any test), those LRZ's per-fragment test rejected, those that
 * passed every test. */
typedef struct tr__window_counts {
    uint32_t covered[4], lrz_rejected[4], passed[4];
} tr__window_counts;

/* tr__kernels.window_depth's condition: every pixel offset from vertex 0
 * over the window at (x, y) lies inside int32, as lanes_setup's vector
 * path needs (the same test, at the window's corner). */
static inline bool tr__window_offsets_ok(const tr__tri *t, int32_t x, int32_t y)
{
    const int64_t dx0 = (int64_t)x * TR_SUBPIXEL_ONE - t->x0, dy0 = (int64_t)y * TR_SUBPIXEL_ONE - t->y0;
    const int64_t lim = (int64_t)1 << 30;
    return dx0 > -lim && dx0 < lim && dy0 > -lim && dy0 < lim;
}

/* A context's kernels (tr_context.kernels), chosen by tr_context_create
 * from its SIMD level (tr__kernels_for): the walk's (walk_internal.h) and
 * the quad kernels above; depth_block and depth_lanes only in the AVX2 table:
 * - depth_block: the early depth test of a whole 8x8 block at (bx, by), its
 *   depth texels at dbuf (rows pitch texels apart), a row at a time: each
 *   lane's depth as lanes_setup computes it, compared (LESS,
 *   LESS_OR_EQUAL, GREATER or GREATER_OR_EQUAL) and written as
 *   depth_quads does; *pass gets the passing lanes in tr__lanes order.
 *   False (nothing done) for another compare or offsets outside the vector
 *   path's range.
 * - depth_lanes: lanes_setup(t, TR__LANES_Z) then depth_quads over ln's
 *   quads in one step, for the lanes of `live` (ln's z is not written, nor
 *   l1 and l2 unless `bary`, which writes them for every quad as
 *   lanes_setup(t, TR__LANES_BARY) does; quads without a live lane are not
 *   tested): the same failing lanes (*fail) and depth buffer.  False
 *   (nothing done) where depth_block declines.
 * - window_raster (with window_fill, the small-triangle path of
 *   raster_tri.c): the walk's window_mask coverage of window w's pixels
 *   (tr__window, walk_internal.h: row-major masks), n->covered[k] the
 *   covered pixels of block k; then, in one pass over the rows, the early
 *   tests of those of blocks outside wt->reject, each pixel's depth as
 *   lanes_setup computes it: first, in the blocks of wt->lrz_test, the
 *   pixels strictly beyond their block's bound (lanes_lrz_reject's test),
 *   n->lrz_rejected[k] of them; then, with wt->dbuf, the depth test and
 *   write of depth_quads.  w->m[] gets the survivors (n->passed[k] of
 *   them), and cov_m[] (NULL:
 *   not wanted) the covered pixels before any test.  Pixels of
 *   wt->reject_m are dropped before the LRZ test.  false (nothing done)
 *   where window_mask declines; only where tr__window_offsets_ok holds
 *   for the window.
 * - blend_block_affine (every table: four lanes, or eight with AVX2; the
 *   blend of whole uniform blocks, raster_quad.c): a whole 8x8 block of
 *   RGBA8 texels at p (rows `row` bytes apart) through a blend table's
 *   affine form (lut->affine16, else lut->affine: one of them is set),
 *   the channels outside write mask wm kept.
 * - window_fill: the 4-byte texel `texel` written to the pixels w->m[]
 *   of an attachment of 4 bytes per texel (GMEM texel (0, 0) at origin,
 *   rows pitch texels apart; `inside` as tr__window_tests'). */
/* tr__kernels.blend_block_affine. */
typedef void tr__blend_block_affine_fn(uint8_t *p, size_t row, const tr__blend_lut *lut, uint32_t wm);

typedef struct tr__kernels {
    const tr__walk_kernels *walk;
    void (*lanes_setup)(const tr__tri *t, float depth_min, float depth_max, tr__lanes *ln, uint32_t what);
    uint64_t (*lanes_lrz_reject)(const tr__lanes *ln, uint64_t live, tr_lrz_direction dir);
    uint64_t (*depth_quads)(float *dbuf, uint32_t pitch, const int32_t origin[2], const tr__lanes *ln, uint64_t live,
                            tr_compare_op op, bool write);
    uint64_t (*depth_stencil_quads)(const tr__ds_state *ds, const tr__lanes *ln, uint64_t live,
                                    uint64_t *stencil_rejected, uint64_t *depth_rejected);
    void (*fs_inputs)(const tr__tri *t, uint32_t varying_count, uint32_t flat_mask, uint32_t noperspective_mask,
                      uint32_t centroid_mask, const tr__lanes *ln, const tr__lanes *lc, tr_fs_block *fs,
                      bool frag_coord, bool depth);
    bool (*depth_block)(const tr__tri *t, float depth_min, float depth_max, float *dbuf, uint32_t pitch, int32_t bx,
                        int32_t by, tr_compare_op op, bool write, uint64_t *pass);
    bool (*depth_lanes)(const tr__tri *t, float depth_min, float depth_max, float *dbuf, uint32_t pitch,
                        const int32_t origin[2], tr__lanes *ln, uint64_t live, tr_compare_op op, bool write,
                        bool bary, uint64_t *fail);
    tr__blend_block_affine_fn *blend_block_affine;
    bool (*window_raster)(const tr__tri *t, float depth_min, float depth_max, const tr__window_tests *wt,
                          tr__window *w, tr__window_counts *n, uint64_t cov_m[4]);
    void (*window_fill)(uint8_t *gmem, uint32_t pitch, const int32_t origin[2], uint32_t inside,
                        const tr__window *w, uint32_t texel);
} tr__kernels;

/* The table for a SIMD level: AVX2 where the build has it, else the four
 * lanes; TR_SIMD_SCALAR the reference. */
const tr__kernels *tr__kernels_for(tr_simd_level level);
/* The AVX2 table's own kernels (raster_avx2.c; tr__kernels has their
 * contracts).  In a build without AVX2 kernels no context reaches
 * TR_SIMD_AVX2 (tr__cpu_has_avx2), and they do the four lanes' work. */
void tr__lanes_setup_avx2(const tr__tri *t, float depth_min, float depth_max, tr__lanes *ln, uint32_t what);
bool tr__depth_block_avx2(const tr__tri *t, float depth_min, float depth_max, float *dbuf, uint32_t pitch, int32_t bx,
                          int32_t by, tr_compare_op op, bool write, uint64_t *pass);
bool tr__depth_lanes_avx2(const tr__tri *t, float depth_min, float depth_max, float *dbuf, uint32_t pitch,
                          const int32_t origin[2], tr__lanes *ln, uint64_t live, tr_compare_op op, bool write,
                          bool bary, uint64_t *fail);
bool tr__window_raster_avx2(const tr__tri *t, float depth_min, float depth_max, const tr__window_tests *wt,
                            tr__window *w, tr__window_counts *n, uint64_t cov_m[4]);
void tr__window_fill_avx2(uint8_t *gmem, uint32_t pitch, const int32_t origin[2], uint32_t inside,
                          const tr__window *w, uint32_t texel);
void tr__blend_block_affine_avx2(uint8_t *p, size_t row, const tr__blend_lut *lut, uint32_t wm);
/* lanes_setup's vector path with an eight-lane `wide` step (the AVX2
 * table's, where the offsets allow vectors). */
typedef void tr__lanes_setup_wide_fn(const tr__tri *t, float depth_min, float depth_max, tr__lanes *ln, bool depth);
void tr__lanes_setup_wide(const tr__tri *t, float depth_min, float depth_max, tr__lanes *ln, uint32_t what,
                          tr__lanes_setup_wide_fn *wide);

/* Does the blend table hold what tr__blend_quads would blend a uniform
 * whole block of lane 0 of colour output att of fs with, in an affine
 * form (then tr__kernels.blend_block_affine gives its bytes)? */
bool tr__blend_lut_holds(const tr__blend_lut *lut, const tr_blend_state *bs, const tr_fs_block *fs, uint32_t att,
                         const float constants[4]);

/* Lane 0 of colour output att of fs as an RGBA8 UNORM texel (little
 * endian: R in the low byte), clamped and encoded as tr__blend_quads
 * writes it. */
uint32_t tr__rgba8_texel(const tr_fs_block *fs, uint32_t att);

bool tr__blend_quads(const tr_context *ctx, tr_format fmt, const tr_blend_state *bs, const tr_fs_block *fs,
                     uint32_t att, uint64_t live, bool uniform, const tr__lanes *ln, const int32_t origin[2],
                     uint32_t pitch, const float constants[4], tr__blend_lut *lut, uint8_t *gmem);

/* Per-fragment operations (raster_ops.c). */
uint8_t tr__stencil_apply(tr_stencil_op op, uint8_t s, uint8_t ref);
/* The block version for RGBA8 UNORM/SRGB attachments (raster_blend.c):
 * blends colour attachment `att` of the live lanes of fs into gmem, lane i
 * at texel texel_index[i].  Returns false, doing nothing, when the format
 * has no block kernel or the context is capped to the scalar reference. */
bool tr__blend_block(const tr_context *ctx, tr_format fmt, const tr_blend_state *bs, const tr_fs_block *fs,
                     uint32_t att, uint64_t live, const uint32_t *texel_index, const float constants[4],
                     uint8_t *gmem);
/* Blends (or copies) one fragment's colour into a GMEM texel. */
void tr__blend_write(const tr_context *ctx, tr_format fmt, const tr_blend_state *bs, const float src[4],
                     const float src1[4], const float constants[4], uint8_t *texel);

/* The standard sample positions (multisample.h), [log2(samples)][index] =
 * {x, y} in 1/16 pixel from the pixel's top-left corner (raster_samples.c). */
extern const uint8_t tr__sample_pos16[4][TR_MAX_SAMPLES][2];

#endif
