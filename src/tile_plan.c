/* tilerast executor: the tile plan (tile_plan.h).
 *
 * In order: the density map read into per-bin, per-view fragment areas
 * (as turnip reads it when the command buffer is built), one tile per bin,
 * the bin statistics, bin merging, the list of tiles to render, where the
 * subsampled attachments store each tile, and each listed tile's bin
 * views.  Nothing here draws. */
#include "tile_plan.h"

static uint32_t log2_area(uint32_t f)
{
    return f == 4 ? 2u : f == 2 ? 1u : 0u;
}

/* The per-bin statistics of the pass (bins with pixels in some view; per
 * bin and view, its fragment area or invisibility), from the tiles before
 * merging. */
static void bin_stats(const tr__pass_plan *plan, const tr__tile_plan *tp, tr_pass_stats *stats)
{
    const size_t nbins = (size_t)plan->layout.bins_x * plan->layout.bins_y;
    for (size_t b = 0; b < nbins; b++) {
        const tr__tile *t = &tp->tiles[b];
        stats->bins += t->present != 0;
        for (uint32_t v = 0; v < plan->view_count; v++) {
            if (!(t->present & (1u << v)))
                continue;
            const tr_extent2d a = plan->fdm ? tp->fdm_areas[b * plan->view_count + v] : (tr_extent2d){1, 1};
            if (!a.width)
                stats->fdm_bin_views_invisible++;
            else if (plan->fdm)
                stats->fdm_bin_views[log2_area(a.height)][log2_area(a.width)]++;
        }
    }
}

/* The tiles of the pass: one per bin, merged on a device that merges
 * bins (src/bin/bin_merge.c); tile_list gets those to render (not merged
 * into another, some view visible), row-major by their last bin. */
static void make_tiles(const tr_context *ctx, const tr__pass_plan *plan, const tr__recording *rec,
                       tr__tile_plan *tp, tr_pass_stats *stats)
{
    const tr_bin_layout *l = &plan->layout;
    const size_t nbins = (size_t)l->bins_x * l->bins_y;
    tr__bin_tiles_init(l, plan->area, (const int32_t(*)[2])rec->bo, plan->fdm ? tp->fdm_areas : NULL,
                       plan->view_count, tp->tiles);
    bin_stats(plan, tp, stats);
    if (plan->fdm && ctx->features.bin_merging)
        stats->fdm_bins_merged = tr__bin_merge_tiles(l, plan->view_count, tp->shared_viewport, tp->tiles);
    uint32_t n = 0;
    for (size_t b = 0; b < nbins; b++)
        if (tp->tiles[b].merged == TR__TILE_NONE && tp->tiles[b].visible)
            tp->tile_list[n++] = (uint32_t)b;
    tp->tile_count = n;
    stats->tiles = n;
}

tr__subsampled_grid tr__tile_plan_grid(const tr_context *ctx, const tr__pass_plan *plan, const tr__recording *rec)
{
    const tr_bin_layout *l = &plan->layout;
    tr__subsampled_grid g = {{plan->fb_w, plan->fb_h},
                             {l->bin_w, l->bin_h},
                             {ctx->desc.tile_align_w, ctx->desc.tile_align_h},
                             l->bins_x,
                             l->bins_y,
                             plan->view_count,
                             {{0, 0}},
                             plan->fdm_offset};
    memcpy(g.bo, rec->bo, sizeof g.bo);
    return g;
}

/* Where each tile goes in the pass's subsampled attachments. */
static tr_result subsampled_layout(tr_context *ctx, const tr__pass_plan *plan, const tr__recording *rec,
                                   tr__tile_plan *tp)
{
    const size_t nbins = (size_t)plan->layout.bins_x * plan->layout.bins_y;
    if (!tr__grow(ctx, (void **)&tp->ss_tiles, &tp->ss_tiles_cap, nbins, sizeof(tr__subsampled_tile)))
        return TR_ERROR_OUT_OF_MEMORY;
    void *scratch = tr__alloc(ctx, tr__subsampled_scratch_bytes(nbins));
    if (!scratch)
        return TR_ERROR_OUT_OF_MEMORY;
    const tr__subsampled_grid g = tr__tile_plan_grid(ctx, plan, rec);
    tr__subsampled_layout(&g, tp->tiles, scratch, tp->ss_tiles);
    tr__free(ctx, scratch);
    return TR_OK;
}

/* View slot vs of the tile tile_list[k]. */
static void bin_view_make(const tr__pass_plan *plan, const tr__recording *rec, const tr__lrz_pass *lz,
                          const tr__tile_plan *tp, uint32_t k, uint32_t vs, tr__bin_view *bv)
{
    const tr_bin_layout *l = &plan->layout;
    const uint32_t ti = tp->tile_list[k];
    const tr__tile *t = &tp->tiles[ti];
    memset(bv, 0, sizeof *bv);
    if (!(t->visible & (1u << vs)))
        return;
    const tr_extent2d area = t->area[vs];
    /* The view's transform (b_s, o; fdm_view.h) and its part of the
     * framebuffer: with an FDM offset the view's bins are shifted back by
     * its b_o, the first row and column shrink.  b_cs: the tile's top-left
     * bin at full scale, GMEM pixel (0, 0). */
    const int32_t bcs[2] = {l->origin_x + (int32_t)(t->x * l->bin_w), l->origin_y + (int32_t)(t->y * l->bin_h)};
    const int32_t grid_origin[2] = {l->origin_x, l->origin_y};
    tr__fdm_view_make(area, bcs, rec->bo[vs], grid_origin, l->bin_w * t->ew, l->bin_h * t->eh, &bv->fv);
    const int32_t *a = plan->area, *fb = bv->fv.fb;
    const int32_t rect[4] = {TR_MAX(fb[0], a[0]), TR_MAX(fb[1], a[1]), TR_MIN(fb[2], a[2]), TR_MIN(fb[3], a[3])};
    if (rect[0] >= rect[2] || rect[1] >= rect[3])
        return;
    bv->visible = true;
    bv->area = area;
    bv->scaled = area.width != 1 || area.height != 1;
    memcpy(bv->rect, rect, sizeof rect);
    /* a subsampled attachment stores this view reduced where the layout
     * keeps it so; at full size, at the layout's rectangle, which with an
     * FDM offset need not be the framebuffer's place */
    if (plan->subsampled && tp->ss_tiles[ti].subsampled) {
        const tr__subsampled_tile *st = &tp->ss_tiles[ti];
        if (bv->scaled && (st->views & (1u << vs)))
            bv->ss_rect = &st->rect[vs];
        bv->ss_shift[0] = st->rect[vs].x - bv->fv.bs[0];
        bv->ss_shift[1] = st->rect[vs].y - bv->fv.bs[1];
    }
    /* LRZ (fdm.h): a scaled bin has it only with hardware bin scaling
     * (a7xx), then in rendering space (tr__lrz_scratch); with an FDM offset
     * the first row and column have none (turnip: their LRZ offset o' is
     * not representable). */
    const bool lrz_edge = plan->fdm_offset && (t->x == 0 || t->y == 0);
    const bool lrz = (!bv->scaled || tp->scaled_lrz) && !lrz_edge && lz->buf && !lz->invalid;
    bv->lrz = !lrz ? TR__BIN_LRZ_OFF : bv->scaled ? TR__BIN_LRZ_SCALED : TR__BIN_LRZ_PASS;
}

/* A part of the plan could not be allocated: *what names it. */
static tr_result out_of_memory(const char **what, const char *part)
{
    *what = part;
    return TR_ERROR_OUT_OF_MEMORY;
}

tr_result tr__tile_plan_make(tr_context *ctx, const tr__pass_plan *plan, const tr__recording *rec,
                             const tr__lrz_pass *lz, tr__tile_plan *tp, tr_pass_stats *stats, const char **what)
{
    const tr_bin_layout *l = &plan->layout;
    const size_t nbins = (size_t)l->bins_x * l->bins_y;
    tp->shared_viewport = rec->fdm_shared_viewport || (plan->desc.flags & TR_PASS_FDM_SHARED_VIEWPORT);
    if (plan->fdm) {
        /* The density map is read now, as turnip reads it when the command
         * buffer is built (tu_cmd_render_tiles). */
        if (!tr__grow(ctx, (void **)&tp->fdm_areas, &tp->fdm_areas_cap, nbins * plan->view_count,
                      sizeof(tr_extent2d)))
            return out_of_memory(what, "tile buffers");
        tr__pass_plan_fdm_areas(ctx, plan, tp->shared_viewport, tp->fdm_areas);
    }
    /* LRZ in scaled bins (fdm.h): with hardware bin scaling (a7xx, at most
     * its scaled views, no shared viewport), from a depth clear. */
    tp->scaled_lrz = plan->fdm && lz->buf && ctx->features.hw_bin_scaling &&
                     plan->view_count <= ctx->features.max_scaled_views && !tp->shared_viewport &&
                     plan->att[plan->depth_att].load == TR_LOAD_OP_CLEAR;
    if (!tr__grow(ctx, (void **)&tp->tiles, &tp->tiles_cap, nbins, sizeof(tr__tile)) ||
        !tr__grow(ctx, (void **)&tp->tile_list, &tp->tile_list_cap, nbins, sizeof(uint32_t)))
        return out_of_memory(what, "tile buffers");
    make_tiles(ctx, plan, rec, tp, stats);
    if (plan->subsampled && subsampled_layout(ctx, plan, rec, tp) != TR_OK)
        return out_of_memory(what, "the subsampled layout");
    if (!tr__grow(ctx, (void **)&tp->views, &tp->views_cap, (size_t)tp->tile_count * plan->view_count,
                  sizeof(tr__bin_view)))
        return out_of_memory(what, "tile buffers");
    for (uint32_t k = 0; k < tp->tile_count; k++)
        for (uint32_t vs = 0; vs < plan->view_count; vs++)
            bin_view_make(plan, rec, lz, tp, k, vs, &tp->views[(size_t)k * plan->view_count + vs]);
    return TR_OK;
}

void tr__tile_plan_free(tr_context *ctx, tr__tile_plan *tp)
{
    tr__free(ctx, tp->fdm_areas);
    tr__free(ctx, tp->tiles);
    tr__free(ctx, tp->tile_list);
    tr__free(ctx, tp->ss_tiles);
    tr__free(ctx, tp->views);
    memset(tp, 0, sizeof *tp);
}
