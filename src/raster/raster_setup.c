/* tilerast raster stage: triangle setup.
 *
 * Window positions are snapped to 1/256 pixel (ties to even) and every
 * coverage decision after that is exact integer arithmetic.  The tie rule is
 * folded into the edge constants: a pixel centre p is covered iff
 * E_k(p) >= 0 for all three edges, where edges that do not own their
 * samples had 1 subtracted. */
#include <math.h>

#include "raster/raster_internal.h"
#include "vertex/vertex_internal.h"

/* A vertex's window position (x, y snapped to 1/256 into *X, *Y, in image
 * rows; z and 1/w in win[2], win[3]).  false when it lies outside the
 * guard band, which only float overflow in extreme inputs can make:
 * clipping keeps positions inside it. */
static inline __attribute__((always_inline)) bool snap_vertex(const tr__draw *draw, const float *v,
                                                              const double *exact_pos, double win[4], int32_t *X,
                                                              int32_t *Y)
{
    if (exact_pos)
        tr__vertex_window_exact(&draw->viewport, exact_pos, win);
    else
        tr__vertex_window(&draw->viewport, v, win);
    /* an FDM bin's integer translation, exact in double: the snap moves by
     * whole pixels, ties included (256 o is even) */
    win[0] += (double)draw->win_offset[0];
    if (!draw->flip_sub)
        win[1] += (double)draw->win_offset[1];
    if (!(fabs(win[0]) <= 2.0 * TR_GUARD_BAND) || !(fabs(win[1]) <= 2.0 * TR_GUARD_BAND))
        return false;
    *X = (int32_t)tr__snap_subpixel(win[0]);
    *Y = (int32_t)tr__snap_subpixel(win[1]);
    /* GL's lower-left origin: window y was computed bottom-up; the snapped
     * value turns into image rows exactly */
    if (draw->flip_sub)
        *Y = draw->flip_sub + draw->win_offset[1] * TR_SUBPIXEL_ONE - *Y;
    return true;
}

bool tr__raster_snap_vertex(const tr__draw *draw, const float *v, const double *exact_pos, double win[4], int32_t *X,
                            int32_t *Y)
{
    return snap_vertex(draw, v, exact_pos, win, X, Y);
}

/* The body of the set-up entry points, from the vertices' snapped
 * positions X, Y and their window z and 1/w (zq[i]).  into: write the
 * triangle there (the tile pass's scratch); else allocate it from arena,
 * with room for its source vertices when the draw keeps them.
 * conservative: the front end of a pass with a density map (record.h:
 * keep what a scaled bin may need, and the source vertices).  flat: the
 * varyings (bit k: varying k) whose planes are the provoking vertex's
 * (v[0]) value in all three corners, v[1] and v[2] holding their own (0:
 * the vertices hold the provoking values already). */
static inline __attribute__((always_inline)) tr__setup_status
setup_snapped(tr_context *ctx, tr__arena *arena, tr__tri *into, const tr__draw *draw, uint32_t draw_index,
              const float *const v[3], const double *const exact_pos[3], const int32_t X[3], const int32_t Y[3],
              const float zq[3][2], uint32_t flat, bool conservative, tr__tri **out)
{
    const tr_pipeline_desc *pd = &draw->pipeline->desc;
    const uint32_t nv = pd->varying_count;
    uint8_t flags = 0;
    int64_t area = (int64_t)(X[1] - X[0]) * (Y[2] - Y[0]) - (int64_t)(X[2] - X[0]) * (Y[1] - Y[0]);
    /* Vulkan: a = -area/2 in framebuffer coordinates; a > 0 is counter-clockwise.
     * (GL's lower-left origin judges it in window coordinates, y up, which
     * show the picture the image rows do: the same answer.) */
    bool ccw = area < 0;
    bool front = pd->front_face == TR_FRONT_FACE_CCW ? ccw : !ccw;
    if (area == 0 || (pd->cull_mode == TR_CULL_FRONT && front) || (pd->cull_mode == TR_CULL_BACK && !front) ||
        pd->cull_mode == TR_CULL_FRONT_AND_BACK) {
        if (!conservative)
            return TR__SETUP_CULLED;
        flags |= TR__TRI_FB_CULLED;
    }
    /* Orient so that the edge functions are positive inside (windings are
     * data: selects, not a branch). */
    const int flip = area < 0;
    int o[3] = {0, 1 + flip, 2 - flip};
    area = flip ? -area : area;
    int32_t x[3] = {X[o[0]], X[o[1]], X[o[2]]}, y[3] = {Y[o[0]], Y[o[1]], Y[o[2]]};

    /* Pixel range whose centres lie inside the bounding box, cut to the
     * scissor; multisampled, every pixel whose area meets the box (its
     * samples lie anywhere inside it). */
    int32_t minx = TR_MIN(x[0], TR_MIN(x[1], x[2])), maxx = TR_MAX(x[0], TR_MAX(x[1], x[2]));
    int32_t miny = TR_MIN(y[0], TR_MIN(y[1], y[2])), maxy = TR_MAX(y[0], TR_MAX(y[1], y[2]));
    int64_t box[4];
    tr__setup_pixel_box(minx, miny, maxx, maxy, draw->samples > 1, box);
    int64_t bx0 = box[0], by0 = box[1], bx1 = box[2], by1 = box[3];
    bx0 = TR_MAX(bx0, draw->scissor[0]);
    by0 = TR_MAX(by0, draw->scissor[1]);
    bx1 = TR_MIN(bx1, draw->scissor[2]);
    by1 = TR_MIN(by1, draw->scissor[3]);
    if (bx0 >= bx1 || by0 >= by1) {
        if (!conservative)
            return TR__SETUP_CULLED;
        flags |= TR__TRI_FB_CULLED;
    }
    if (conservative) {
        /* Every pixel the triangle touches, one more on each side, cut to
         * the widened scissor (record.h). */
        bx0 = TR_MAX(tr__floor_div_subpixel(minx) - 1, draw->bin_scissor[0]);
        by0 = TR_MAX(tr__floor_div_subpixel(miny) - 1, draw->bin_scissor[1]);
        bx1 = TR_MIN(tr__floor_div_subpixel(maxx) + 2, draw->bin_scissor[2]);
        by1 = TR_MIN(tr__floor_div_subpixel(maxy) + 2, draw->bin_scissor[3]);
        if (bx0 >= bx1 || by0 >= by1)
            return TR__SETUP_CULLED;
        flags |= TR__TRI_CONSERVATIVE;
    }

    if (draw->samples > 1)
        flags |= TR__TRI_SAMPLES;

    tr__tri *t = into;
    if (!t) {
        const size_t bytes = tr__tri_bytes(nv) + (conservative ? tr__tri_src_bytes(nv) : 0);
        t = tr__arena_alloc(ctx, arena, bytes);
        if (!t)
            return TR__SETUP_OOM;
    }
    t->bbox[0] = (int32_t)bx0;
    t->bbox[1] = (int32_t)by0;
    t->bbox[2] = (int32_t)bx1;
    t->bbox[3] = (int32_t)by1;
    /* Edge k runs from vertex k+1 to vertex k+2 (opposite vertex k). */
    for (int k = 0; k < 3; k++)
        tr__setup_edge(t, k, x[(k + 1) % 3], y[(k + 1) % 3], x[(k + 2) % 3], y[(k + 2) % 3], pd->tie_rule);
    t->x0 = x[0];
    t->y0 = y[0];
    /* l1 = E_1 / area, l2 = E_2 / area, as planes in (p - v0). */
    double inv = area ? 1.0 / (double)area : 0.0;
    t->l1_a = (float)((double)t->edge_a[1] * inv);
    t->l1_b = (float)((double)t->edge_b[1] * inv);
    t->l2_a = (float)((double)t->edge_a[2] * inv);
    t->l2_b = (float)((double)t->edge_b[2] * inv);
    t->draw = draw_index;
    t->front_facing = front;
    t->flags = flags;

    float *at = t->attr;
    const float z0 = zq[o[0]][0], z1 = zq[o[1]][0], z2 = zq[o[2]][0];
    const float q0 = zq[o[0]][1], q1 = zq[o[1]][1], q2 = zq[o[2]][1];
    at[0] = z0;
    at[1] = z1 - z0;
    at[2] = z2 - z0;
    at[3] = q0;
    at[4] = q1 - q0;
    at[5] = q2 - q0;
    at[6] = q1;
    at[7] = q2;
    for (uint32_t k = 0; k < nv; k++) {
        /* a flat varying's corners all hold the provoking vertex's value */
        const bool f = (flat >> k) & 1;
        const float *s0 = (f ? v[0] : v[o[0]]) + 4 + 4 * k, *s1 = (f ? v[0] : v[o[1]]) + 4 + 4 * k,
                    *s2 = (f ? v[0] : v[o[2]]) + 4 + 4 * k;
        for (uint32_t c = 0; c < 4; c++) {
            float *p = at + 8 + 3 * (4 * k + c);
            p[0] = s0[c];
            p[1] = s1[c] - s0[c];
            p[2] = s2[c] - s0[c];
        }
    }
    if (conservative) {
        /* The vertices as received, for setting up again per scaled bin. */
        tr__tri_src *src = (tr__tri_src *)(void *)((char *)t + tr__tri_bytes(nv));
        const uint32_t stride = 4 + 4 * nv;
        for (int i = 0; i < 3; i++) {
            src->exact[i] = exact_pos[i] != NULL;
            for (int c = 0; c < 4; c++)
                src->pos[i][c] = exact_pos[i] ? exact_pos[i][c] : 0.0;
            memcpy(src->v + (size_t)i * stride, v[i], sizeof(float) * stride);
        }
    }
    *out = t;
    return TR__SETUP_OK;
}

/* setup_snapped from the shaded vertices (each placed by snap_vertex). */
static inline __attribute__((always_inline)) tr__setup_status
setup(tr_context *ctx, tr__arena *arena, tr__tri *into, const tr__draw *draw, uint32_t draw_index,
      const float *const v[3], const double *const exact_pos[3], bool conservative, tr__tri **out)
{
    double win[4];
    int32_t X[3], Y[3];
    float zq[3][2];
    for (int i = 0; i < 3; i++) {
        if (!snap_vertex(draw, v[i], exact_pos[i], win, &X[i], &Y[i]))
            return TR__SETUP_CULLED;
        /* z and 1/w are floats (exactly representable in win[]) */
        zq[i][0] = (float)win[2];
        zq[i][1] = (float)win[3];
    }
    return setup_snapped(ctx, arena, into, draw, draw_index, v, exact_pos, X, Y, zq, 0, conservative, out);
}

tr__setup_status tr__raster_setup_placed(tr_context *ctx, tr__arena *arena, const tr__draw *draw,
                                         uint32_t draw_index, const float *const v[3], const float *const win[3],
                                         const int32_t *const sub[3], uint32_t flat, tr__tri **out)
{
    int32_t X[3], Y[3];
    float zq[3][2];
    for (int i = 0; i < 3; i++) {
        /* snap_vertex's steps after tr__vertex_window, with win_offset 0 */
        X[i] = sub[i][0];
        Y[i] = draw->flip_sub ? draw->flip_sub - sub[i][1] : sub[i][1];
        zq[i][0] = win[i][2];
        zq[i][1] = win[i][3];
    }
    static const double *const none[3] = {NULL, NULL, NULL};
    return setup_snapped(ctx, arena, NULL, draw, draw_index, v, none, X, Y, zq, flat, false, out);
}

tr__setup_status tr__raster_setup(tr_context *ctx, tr__arena *arena, const tr__draw *draw, uint32_t draw_index,
                                  const float *const v[3], const double *const exact_pos[3], tr__tri **out)
{
    if (draw->fdm)
        return setup(ctx, arena, NULL, draw, draw_index, v, exact_pos, true, out);
    return setup(ctx, arena, NULL, draw, draw_index, v, exact_pos, false, out);
}

tr__setup_status tr__raster_setup_again(const tr__draw *draw, const tr__tri *src_tri, tr__tri *into)
{
    const uint32_t nv = draw->pipeline->desc.varying_count, stride = 4 + 4 * nv;
    const tr__tri_src *src = tr__tri_source(src_tri, nv);
    const float *v[3] = {src->v, src->v + stride, src->v + 2 * (size_t)stride};
    const double *ex[3] = {src->exact[0] ? src->pos[0] : NULL, src->exact[1] ? src->pos[1] : NULL,
                           src->exact[2] ? src->pos[2] : NULL};
    tr__tri *t;
    tr__setup_status s = setup(NULL, NULL, into, draw, src_tri->draw, v, ex, false, &t);
    if (s == TR__SETUP_OK) {
        t->instance = src_tri->instance;
        t->primitive = src_tri->primitive;
        t->view = src_tri->view;
    }
    return s;
}
