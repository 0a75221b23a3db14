/* tilerast binning stage: writing visibility streams.
 * A triangle goes into the stream of every pipe its bounding box touches,
 * with one bit for each bin of the pipe that its bounding box overlaps and
 * that no edge function excludes (all the bin's pixel centres outside one
 * edge).  Entries keep submission order. */
#include "bin/bin_internal.h"
#include "walk/walk_internal.h"

/* Does any pixel centre of rect lie on the inner side of every edge?  A
 * conservative test: each edge is checked alone at the rect's best corner.
 * A triangle of a pass with a density map (TR__TRI_CONSERVATIVE) is tested
 * over the rect widened by a pixel on each side, since a scaled bin sets
 * it up again and samples coarse fragments' centres (record.h); one culled
 * at full scale is binned by its box alone.  A multisampled pass's
 * (TR__TRI_SAMPLES) is tested over its pixels' areas: half a pixel wider. */
static bool edges_reach(const tr__tri *t, const int32_t rect[4])
{
    if (t->flags & TR__TRI_FB_CULLED)
        return true;
    const int64_t m = t->flags & TR__TRI_CONSERVATIVE ? TR_SUBPIXEL_ONE + TR_SUBPIXEL_HALF
                      : t->flags & TR__TRI_SAMPLES    ? TR_SUBPIXEL_HALF
                                                      : 0;
    int64_t px0 = (int64_t)rect[0] * TR_SUBPIXEL_ONE + TR_SUBPIXEL_HALF - m;
    int64_t px1 = (int64_t)(rect[2] - 1) * TR_SUBPIXEL_ONE + TR_SUBPIXEL_HALF + m;
    int64_t py0 = (int64_t)rect[1] * TR_SUBPIXEL_ONE + TR_SUBPIXEL_HALF - m;
    int64_t py1 = (int64_t)(rect[3] - 1) * TR_SUBPIXEL_ONE + TR_SUBPIXEL_HALF + m;
    for (int k = 0; k < 3; k++) {
        int64_t a = t->edge_a[k], b = t->edge_b[k];
        int64_t e = t->edge_c[k] + a * (a > 0 ? px1 : px0) + b * (b > 0 ? py1 : py0);
        if (e < 0)
            return false;
    }
    return true;
}

int tr__bin_classify(const tr__pass_plan *plan, const tr__recording *rec, const tr__tri *t, uint32_t view_slot,
                     uint32_t *out, uint32_t cap)
{
    const tr_bin_layout *l = &plan->layout;
    /* With an FDM offset the view's grid is shifted back by b_o: binning
     * in turnip's shifted space (-b_o .. fb + b_o) */
    const int32_t *bo = rec->bo[view_slot];
    const int32_t nx0 = t->bbox[0] - l->origin_x + bo[0], ny0 = t->bbox[1] - l->origin_y + bo[1];
    const int32_t nx1 = t->bbox[2] - 1 - l->origin_x + bo[0], ny1 = t->bbox[3] - 1 - l->origin_y + bo[1];
    int32_t bx0, by0, bx1, by1;
    if ((uint32_t)(nx0 | ny0 | nx1 | ny1) < 65536u) {
        /* (the usual coordinates: a multiply each, not a division) */
        bx0 = (int32_t)tr__div_small((uint32_t)nx0, plan->bin_w_inv);
        by0 = (int32_t)tr__div_small((uint32_t)ny0, plan->bin_h_inv);
        bx1 = (int32_t)tr__div_small((uint32_t)nx1, plan->bin_w_inv);
        by1 = (int32_t)tr__div_small((uint32_t)ny1, plan->bin_h_inv);
    } else {
        bx0 = nx0 / (int32_t)l->bin_w;
        by0 = ny0 / (int32_t)l->bin_h;
        bx1 = nx1 / (int32_t)l->bin_w;
        by1 = ny1 / (int32_t)l->bin_h;
    }
    const uint32_t mw = plan->mask_words;
    if (bx0 == bx1 && by0 == by1) {
        /* One bin (most small triangles): the loops below, unrolled. */
        const uint32_t px = (uint32_t)bx0 < 65536u ? tr__div_small((uint32_t)bx0, plan->pipe_w_inv)
                                                    : (uint32_t)bx0 / l->pipe_w;
        const uint32_t py = (uint32_t)by0 < 65536u ? tr__div_small((uint32_t)by0, plan->pipe_h_inv)
                                                    : (uint32_t)by0 / l->pipe_h;
        int32_t rect[4];
        tr__bin_rect(l, plan->area, bo, (uint32_t)bx0, (uint32_t)by0, rect);
        rect[0] = TR_MAX(rect[0], t->bbox[0]);
        rect[1] = TR_MAX(rect[1], t->bbox[1]);
        rect[2] = TR_MIN(rect[2], t->bbox[2]);
        rect[3] = TR_MIN(rect[3], t->bbox[3]);
        if (rect[0] >= rect[2] || rect[1] >= rect[3] || !edges_reach(t, rect))
            return 0;
        if (1 + mw > cap)
            return -1;
        const uint32_t bit = ((uint32_t)by0 - py * l->pipe_h) * l->pipe_w + ((uint32_t)bx0 - px * l->pipe_w);
        out[0] = py * l->pipes_x + px;
        for (uint32_t w = 0; w < mw; w++)
            out[1 + w] = w == bit >> 5 ? 1u << (bit & 31) : 0u;
        return (int)(1 + mw);
    }
    uint32_t n = 0;
    uint32_t px0 = (uint32_t)bx0 / l->pipe_w, px1 = (uint32_t)bx1 / l->pipe_w;
    uint32_t py0 = (uint32_t)by0 / l->pipe_h, py1 = (uint32_t)by1 / l->pipe_h;
    for (uint32_t py = py0; py <= py1; py++) {
        for (uint32_t px = px0; px <= px1; px++) {
            if (n + 1 + mw > cap)
                return -1;
            uint32_t *mask = out + n + 1;
            memset(mask, 0, sizeof(uint32_t) * mw);
            bool any = false;
            uint32_t sx0 = TR_MAX((uint32_t)bx0, px * l->pipe_w), sx1 = TR_MIN((uint32_t)bx1, (px + 1) * l->pipe_w - 1);
            uint32_t sy0 = TR_MAX((uint32_t)by0, py * l->pipe_h), sy1 = TR_MIN((uint32_t)by1, (py + 1) * l->pipe_h - 1);
            for (uint32_t by = sy0; by <= sy1; by++) {
                for (uint32_t bx = sx0; bx <= sx1; bx++) {
                    int32_t rect[4];
                    tr__bin_rect(l, plan->area, bo, bx, by, rect);
                    rect[0] = TR_MAX(rect[0], t->bbox[0]);
                    rect[1] = TR_MAX(rect[1], t->bbox[1]);
                    rect[2] = TR_MIN(rect[2], t->bbox[2]);
                    rect[3] = TR_MIN(rect[3], t->bbox[3]);
                    if (rect[0] >= rect[2] || rect[1] >= rect[3] || !edges_reach(t, rect))
                        continue;
                    uint32_t bit = (by - py * l->pipe_h) * l->pipe_w + (bx - px * l->pipe_w);
                    mask[bit >> 5] |= 1u << (bit & 31);
                    any = true;
                }
            }
            if (!any)
                continue;
            out[n] = py * l->pipes_x + px;
            n += 1 + mw;
        }
    }
    return (int)n;
}

int tr__bin_append(tr_context *ctx, const tr__pass_plan *plan, tr__recording *rec, uint32_t tri_index,
                   uint32_t view_slot, const uint32_t *words, uint32_t n)
{
    const tr_bin_layout *l = &plan->layout;
    const uint32_t mw = plan->mask_words;
    int entries = 0;
    for (uint32_t i = 0; i < n; i += 1 + mw) {
        tr__stream *s = &rec->streams[(size_t)view_slot * l->pipes_x * l->pipes_y + words[i]];
        if (!tr__grow(ctx, (void **)&s->words, &s->cap, s->count + 1 + mw, sizeof(uint32_t)))
            return -1;
        s->words[s->count++] = tri_index;
        memcpy(s->words + s->count, words + i + 1, sizeof(uint32_t) * mw);
        s->count += mw;
        entries++;
    }
    return entries;
}

bool tr__bin_reserve(tr_context *ctx, const tr__pass_plan *plan, tr__recording *rec, uint32_t view_slot,
                     const uint32_t *entries)
{
    const tr_bin_layout *l = &plan->layout;
    const uint32_t npipes = l->pipes_x * l->pipes_y, step = 1 + plan->mask_words;
    for (uint32_t pipe = 0; pipe < npipes; pipe++) {
        tr__stream *s = &rec->streams[(size_t)view_slot * npipes + pipe];
        if (entries[pipe] && !tr__grow(ctx, (void **)&s->words, &s->cap, s->count + (size_t)entries[pipe] * step,
                                       sizeof(uint32_t)))
            return false;
    }
    return true;
}

int tr__bin_append_reserved(const tr__pass_plan *plan, tr__recording *rec, uint32_t tri_index, uint32_t view_slot,
                            const uint32_t *words, uint32_t n)
{
    const tr_bin_layout *l = &plan->layout;
    const uint32_t mw = plan->mask_words;
    int entries = 0;
    for (uint32_t i = 0; i < n; i += 1 + mw) {
        tr__stream *s = &rec->streams[(size_t)view_slot * l->pipes_x * l->pipes_y + words[i]];
        s->words[s->count++] = tri_index;
        memcpy(s->words + s->count, words + i + 1, sizeof(uint32_t) * mw);
        s->count += mw;
        entries++;
    }
    return entries;
}

int tr__bin_triangle(tr_context *ctx, const tr__pass_plan *plan, tr__recording *rec, const tr__tri *t,
                     uint32_t tri_index, uint32_t view_slot)
{
    /* Every pipe at most once, each entry at most 1 + 64 words (the pass
     * refuses more mask words): room on the stack, no allocation. */
    uint32_t words[TR_MAX_VSC_PIPES * (1 + 64)];
    const tr_bin_layout *l = &plan->layout;
    const uint32_t cap = l->pipes_x * l->pipes_y * (1 + plan->mask_words);
    int n = tr__bin_classify(plan, rec, t, view_slot, words, cap);
    return n < 0 ? -1 : tr__bin_append(ctx, plan, rec, tri_index, view_slot, words, (uint32_t)n);
}
