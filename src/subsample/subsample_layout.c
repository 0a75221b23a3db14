/* tilerast subsample stage: where each bin of an FDM pass is stored in a
 * subsampled image, and the metadata that finds it again
 * (include/tilerast/subsample.h states the rules).  The algorithm is
 * turnip's tu_calc_subsampled (tu_tile_config.cc): default rectangles, then
 * a FIFO worklist that resolves apron conflicts between neighbours by
 * shifting the right or lower bin or by storing both at full size; the
 * metadata is tu_emit_subsampled_metadata's.  Bins here are single bins
 * (turnip walks merged tiles the same way, with their extents). */
#include <stdlib.h>
#include <string.h>

#include "subsample/subsample_internal.h"

/* align_down(v, a) for v >= 0 */
static int32_t align_down(int32_t v, uint32_t a)
{
    return v / (int32_t)a * (int32_t)a;
}

/* One axis of get_default_tile_pos: [start, end) in the image for the bin
 * at grid position pos, fragment area f.  *pinned: it reaches the
 * framebuffer's end and is pinned to the image's. */
static void default_span(const tr_subsampled_layout_desc *d, int axis, uint32_t pos, uint32_t f, int32_t *start,
                         int32_t *end, bool *pinned)
{
    const int32_t tile0 = (int32_t)(axis ? d->bin.height : d->bin.width);
    const int32_t fb = (int32_t)(axis ? d->framebuffer.height : d->framebuffer.width);
    const int32_t bo = axis ? d->bin_offset.y : d->bin_offset.x;
    const uint32_t align = axis ? d->tile_align.height : d->tile_align.width;
    const int32_t fb_start = TR_MAX((int32_t)pos * tile0 - bo, 0);
    const int32_t fb_end = ((int32_t)pos + 1) * tile0 - bo;
    *pinned = fb_end >= fb;
    if (*pinned) {
        /* the last column (row): pinned to the image's end, the size
         * rounded up */
        *end = fb + (d->fdm_offset ? (int32_t)align : 0);
        *start = *end - (fb - fb_start + (int32_t)f - 1) / (int32_t)f;
    } else if (pos == 0) {
        *start = 0;
        *end = fb_end / (int32_t)f;
    } else {
        *start = (int32_t)pos * tile0 - align_down(bo, align);
        *end = *start + tile0 / (int32_t)f;
    }
}

/* get_default_tile_pos: the bin's rectangle at area f; sets its border
 * flag when pinned to the image's end on either axis. */
static tr_rect default_rect(const tr_subsampled_layout_desc *d, uint32_t bx, uint32_t by, tr_extent2d f,
                            bool *border)
{
    int32_t x0, x1, y0, y1;
    bool px, py;
    default_span(d, 0, bx, f.width, &x0, &x1, &px);
    default_span(d, 1, by, f.height, &y0, &y1, &py);
    *border |= px || py;
    return (tr_rect){x0, y0, (uint32_t)(x1 - x0), (uint32_t)(y1 - y0)};
}

/* aprons_intersect: closer than 2 * TR_SUBSAMPLED_APRON on both axes. */
static bool aprons_intersect(const tr_rect *a, const tr_rect *b)
{
    const int64_t gap = 2 * TR_SUBSAMPLED_APRON;
    if ((int64_t)a->x + a->width + gap <= b->x || (int64_t)b->x + b->width + gap <= a->x)
        return false;
    if ((int64_t)a->y + a->height + gap <= b->y || (int64_t)b->y + b->height + gap <= a->y)
        return false;
    return true;
}

/* The worklist: a FIFO of bins in which a bin is at most once (turnip's
 * u_worklist: pushing a queued bin does nothing). */
typedef struct worklist {
    uint32_t *ring;
    bool *queued;
    size_t n, head, count;
} worklist;

static void push(worklist *w, uint32_t b)
{
    if (w->queued[b])
        return;
    w->queued[b] = true;
    w->ring[(w->head + w->count++) % w->n] = b;
}

static uint32_t pop(worklist *w)
{
    const uint32_t b = w->ring[w->head];
    w->head = (w->head + 1) % w->n;
    w->count--;
    w->queued[b] = false;
    return b;
}

/* make_non_subsampled: full size, its 1 x 1 default rectangle (which also
 * undoes any shift). */
static void make_full(const tr_subsampled_layout_desc *d, tr_subsampled_bin *bins, uint32_t b)
{
    bins[b].subsampled = false;
    bins[b].rect = default_rect(d, b % d->bins_x, b / d->bins_x, (tr_extent2d){1, 1}, &bins[b].border);
}

/* One conflict between bins a and o (o right of or below a when `after`):
 * shift the later one along `axis` if it is subsampled and stays inside its
 * own full-size rectangle, else store both at full size. */
static void resolve(const tr_subsampled_layout_desc *d, tr_subsampled_bin *bins, worklist *w, uint32_t a, uint32_t o,
                    bool after, int axis)
{
    const uint32_t later = after ? o : a;
    if (bins[later].subsampled) {
        bool border = false;
        const tr_rect full = default_rect(d, later % d->bins_x, later / d->bins_x, (tr_extent2d){1, 1}, &border);
        const uint32_t align = axis ? d->tile_align.height : d->tile_align.width;
        const int64_t shift = TR_MAX(2 * TR_SUBSAMPLED_APRON, align);
        tr_rect *r = &bins[later].rect;
        const int64_t end = axis ? (int64_t)r->y + r->height : (int64_t)r->x + r->width;
        const int64_t full_end = axis ? (int64_t)full.y + full.height : (int64_t)full.x + full.width;
        if (end + shift <= full_end) {
            if (axis)
                r->y += (int32_t)shift;
            else
                r->x += (int32_t)shift;
            push(w, later);
            return;
        }
    }
    if (bins[a].subsampled) {
        make_full(d, bins, a);
        push(w, a);
    }
    if (bins[o].subsampled) {
        make_full(d, bins, o);
        push(w, o);
    }
}

/* The neighbours of bin b on one axis: for axis 0 the columns left and
 * right of it (rows b.y - 1 .. b.y + 1), for axis 1 the rows above and
 * below (columns b.x - 1 .. b.x + 1), diagonals included. */
static void check_neighbours(const tr_subsampled_layout_desc *d, tr_subsampled_bin *bins, const bool *visible,
                             worklist *w, uint32_t b, int axis)
{
    const int32_t bx = (int32_t)(b % d->bins_x), by = (int32_t)(b / d->bins_x);
    const int32_t nx = (int32_t)d->bins_x, ny = (int32_t)d->bins_y;
    for (int i = 0; i < 2; i++) {
        const int32_t step = i == 0 ? -1 : 1;
        const int32_t px = axis ? 0 : bx + step, py = axis ? by + step : 0;
        if (axis ? (py < 0 || py >= ny) : (px < 0 || px >= nx))
            continue;
        const int32_t lo = TR_MAX((axis ? bx : by) - 1, 0);
        const int32_t hi = TR_MIN((axis ? bx : by) + 1, (axis ? nx : ny) - 1);
        for (int32_t k = lo; k <= hi; k++) {
            const uint32_t o = axis ? (uint32_t)(py * nx + k) : (uint32_t)(k * nx + px);
            if (!visible[o])
                continue;
            if (!bins[b].subsampled && !bins[o].subsampled)
                continue;
            if (!aprons_intersect(&bins[b].rect, &bins[o].rect))
                continue;
            resolve(d, bins, w, b, o, i == 1, axis);
        }
    }
}

/* tu_emit_subsampled_metadata for one view. */
static void metadata(const tr_subsampled_layout_desc *d, const bool *visible, tr_subsampled_header *h,
                     tr_subsampled_bin *bins, size_t n, bool identity)
{
    const uint32_t pad_w = d->fdm_offset ? d->tile_align.width : 0, pad_h = d->fdm_offset ? d->tile_align.height : 0;
    const uint32_t width0 = d->framebuffer.width + pad_w, height0 = d->framebuffer.height + pad_h;
    const float ratio_x = (float)d->framebuffer.width / (float)width0;
    const float ratio_y = (float)d->framebuffer.height / (float)height0;
    if (identity) {
        *h = (tr_subsampled_header){{1.0f, 1.0f}, {0.0f, 0.0f}, 1};
        for (size_t b = 0; b < n; b++) {
            bins[b].scale[0] = ratio_x;
            bins[b].scale[1] = ratio_y;
            bins[b].offset[0] = bins[b].offset[1] = 0.0f;
        }
        return;
    }
    h->scale[0] = (float)d->framebuffer.width / (float)d->bin.width;
    h->scale[1] = (float)d->framebuffer.height / (float)d->bin.height;
    h->offset[0] = (float)d->bin_offset.x / (float)d->bin.width;
    h->offset[1] = (float)d->bin_offset.y / (float)d->bin.height;
    h->bin_stride = d->bins_x;
    for (size_t b = 0; b < n; b++) {
        tr_subsampled_bin *o = &bins[b];
        if (!visible[b]) {
            o->scale[0] = o->scale[1] = 1.0f;
            o->offset[0] = o->offset[1] = 0.0f;
            continue;
        }
        const tr_extent2d f = o->subsampled ? d->areas[b] : (tr_extent2d){1, 1};
        const int32_t sx = TR_MAX((int32_t)((b % d->bins_x) * d->bin.width) - d->bin_offset.x, 0);
        const int32_t sy = TR_MAX((int32_t)((b / d->bins_x) * d->bin.height) - d->bin_offset.y, 0);
        /* turnip: 1.0 / frag * ratio in double, stored as float; the
         * offset's numerator in integers, then divided in float */
        o->scale[0] = (float)(1.0 / f.width * ratio_x);
        o->scale[1] = (float)(1.0 / f.height * ratio_y);
        o->offset[0] = (float)(o->rect.x - sx / (int32_t)f.width) / (float)width0;
        o->offset[1] = (float)(o->rect.y - sy / (int32_t)f.height) / (float)height0;
    }
}

size_t tr__subsampled_scratch_bytes(size_t n)
{
    return n * (sizeof(uint32_t) + 2 * sizeof(bool));
}

void tr__subsampled_layout(const tr_subsampled_layout_desc *d, void *scratch, tr_subsampled_header *header,
                           tr_subsampled_bin *bins)
{
    const size_t n = (size_t)d->bins_x * d->bins_y;
    /* scratch: the ring, then the queued and visible flags */
    worklist w = {(uint32_t *)scratch, (bool *)((uint32_t *)scratch + n), n, 0, 0};
    bool *visible = w.queued + n;
    memset(w.queued, 0, 2 * n * sizeof(bool));

    const bool identity = n > TR_SUBSAMPLED_MAX_BINS;
    for (uint32_t b = 0; b < n; b++) {
        const uint32_t bx = b % d->bins_x, by = b / d->bins_x;
        tr_subsampled_bin *o = &bins[b];
        memset(o, 0, sizeof *o);
        /* tu_calc_bin_visibility: a bin shifted past the framebuffer (the
         * extra column or row with a small b_o) is invisible too */
        visible[b] = d->areas[b].width != 0 && (int64_t)bx * d->bin.width - d->bin_offset.x < d->framebuffer.width &&
                     (int64_t)by * d->bin.height - d->bin_offset.y < d->framebuffer.height;
        if (!visible[b])
            continue;
        if (identity) {
            /* stored where the framebuffer has it, at full size */
            const int32_t x0 = TR_MAX((int32_t)(bx * d->bin.width) - d->bin_offset.x, 0);
            const int32_t y0 = TR_MAX((int32_t)(by * d->bin.height) - d->bin_offset.y, 0);
            const int32_t x1 = TR_MIN((int32_t)((bx + 1) * d->bin.width) - d->bin_offset.x, (int32_t)d->framebuffer.width);
            const int32_t y1 =
                TR_MIN((int32_t)((by + 1) * d->bin.height) - d->bin_offset.y, (int32_t)d->framebuffer.height);
            o->rect = (tr_rect){x0, y0, (uint32_t)TR_MAX(x1 - x0, 0), (uint32_t)TR_MAX(y1 - y0, 0)};
            continue;
        }
        o->rect = default_rect(d, bx, by, d->areas[b], &o->border);
        o->subsampled = d->areas[b].width != 1 || d->areas[b].height != 1;
        push(&w, b);
    }
    while (w.count) {
        const uint32_t b = pop(&w);
        check_neighbours(d, bins, visible, &w, b, 0);
        check_neighbours(d, bins, visible, &w, b, 1);
    }
    metadata(d, visible, header, bins, n, identity);
}

static bool valid_area(tr_extent2d a, tr_extent2d bin)
{
    if (a.width == 0 && a.height == 0)
        return true;
    return (a.width == 1 || a.width == 2 || a.width == 4) && (a.height == 1 || a.height == 2 || a.height == 4) &&
           bin.width % a.width == 0 && bin.height % a.height == 0;
}

tr_result tr_compute_subsampled_layout(const tr_subsampled_layout_desc *desc, tr_subsampled_header *header,
                                       tr_subsampled_bin *bins)
{
    if (!desc || !header || !bins || !desc->areas)
        return TR_ERROR_INVALID_ARGUMENT;
    const tr_subsampled_layout_desc *d = desc;
    if (!d->framebuffer.width || !d->framebuffer.height || d->framebuffer.width > TR_MAX_IMAGE_SIZE ||
        d->framebuffer.height > TR_MAX_IMAGE_SIZE || !d->bin.width || !d->bin.height ||
        d->bin.width > TR_MAX_IMAGE_SIZE || d->bin.height > TR_MAX_IMAGE_SIZE || !d->tile_align.width ||
        !d->tile_align.height || d->tile_align.width > TR_MAX_IMAGE_SIZE || d->tile_align.height > TR_MAX_IMAGE_SIZE)
        return TR_ERROR_INVALID_DESCRIPTOR;
    /* the grid covers the framebuffer (with b_o) and has at most the one
     * extra column and row FDM offsets add */
    const uint64_t need_x = ((uint64_t)d->framebuffer.width + d->bin.width - 1) / d->bin.width;
    const uint64_t need_y = ((uint64_t)d->framebuffer.height + d->bin.height - 1) / d->bin.height;
    if (d->bins_x < need_x || d->bins_y < need_y || d->bins_x > need_x + 1 || d->bins_y > need_y + 1)
        return TR_ERROR_INVALID_DESCRIPTOR;
    if (d->bin_offset.x < 0 || (uint32_t)d->bin_offset.x >= d->bin.width || d->bin_offset.y < 0 ||
        (uint32_t)d->bin_offset.y >= d->bin.height || (!d->fdm_offset && (d->bin_offset.x || d->bin_offset.y)))
        return TR_ERROR_INVALID_DESCRIPTOR;
    const size_t n = (size_t)d->bins_x * d->bins_y;
    for (size_t b = 0; b < n; b++)
        if (!valid_area(d->areas[b], d->bin))
            return TR_ERROR_INVALID_DESCRIPTOR;
    void *scratch = malloc(tr__subsampled_scratch_bytes(n));
    if (!scratch)
        return TR_ERROR_OUT_OF_MEMORY;
    tr__subsampled_layout(d, scratch, header, bins);
    free(scratch);
    return TR_OK;
}
