/* tilerast raster stage: GMEM tile load (clear / restore) and store
 * (resolve).  DONT_CARE skips the work entirely; bytes moved are counted. */
#include "raster/raster_internal.h"

/* Fills n texels of cpp bytes with one value, doubling the filled span. */
static void fill_texels(uint8_t *dst, const uint8_t *texel, uint32_t cpp, uint32_t n)
{
    if (!n)
        return;
    memcpy(dst, texel, cpp);
    size_t done = cpp, total = (size_t)n * cpp;
    while (done < total) {
        size_t k = done < total - done ? done : total - done;
        memcpy(dst + done, dst, k);
        done += k;
    }
}

/* Sample `sample` of attachment i at full scale: clear, restore or resolve
 * the rows of r (a resolve moved by shift). */
static void load_store_rows(const tr__raster_bin *rb, const tr__attachment_state *a, uint32_t i, uint32_t view,
                            uint32_t sample, bool load, const int32_t shift[2])
{
    const int32_t *r = rb->rect;
    const uint32_t w = (uint32_t)(r[2] - r[0]), h = (uint32_t)(r[3] - r[1]);
    const size_t row = (size_t)w * a->cpp;
    uint8_t *plane = rb->gmem[i] + (size_t)sample * rb->rp->plane_texels * a->cpp;
    const uint8_t *clear_row = NULL; /* the first cleared row, copied to the others */
    for (uint32_t y = 0; y < h; y++) {
        uint8_t *gp = plane + ((size_t)(r[1] - rb->origin[1] + (int32_t)y) * rb->gmem_pitch +
                               (size_t)(r[0] - rb->origin[0])) * a->cpp;
        if (load) {
            if (a->load == TR_LOAD_OP_CLEAR) {
                if (clear_row) {
                    memcpy(gp, clear_row, row);
                } else {
                    fill_texels(gp, a->clear_texel, a->cpp, w);
                    clear_row = gp;
                }
            } else if (a->load == TR_LOAD_OP_LOAD) {
                memcpy(gp, tr__att_sample_texel(a, view, sample, (uint32_t)r[0], (uint32_t)r[1] + y), row);
            }
        } else if (a->store == TR_STORE_OP_STORE) {
            memcpy(tr__att_sample_texel(a, view, sample, (uint32_t)(r[0] + shift[0]),
                                        (uint32_t)(r[1] + (int32_t)y + shift[1])),
                   gp, row);
        }
    }
}

/* A subsampled attachment's reduced store: the rendering-space rows of
 * rb->rect to the image at rb->ss_rect, GMEM pixel (0, 0) (rb->origin)
 * landing on its top-left. */
static void store_reduced(const tr__raster_bin *rb, const tr__attachment_state *a, uint32_t i, uint32_t view)
{
    const int32_t *r = rb->rect;
    const size_t row = (size_t)(r[2] - r[0]) * a->cpp;
    for (int32_t y = r[1]; y < r[3]; y++) {
        const uint8_t *gp = rb->gmem[i] + ((size_t)(y - rb->origin[1]) * rb->gmem_pitch + (size_t)(r[0] - rb->origin[0])) * a->cpp;
        const uint32_t ix = (uint32_t)(rb->ss_rect->x + (r[0] - rb->origin[0]));
        const uint32_t iy = (uint32_t)(rb->ss_rect->y + (y - rb->origin[1]));
        memcpy(tr__att_texel(a, view, ix, iy), gp, row);
    }
}

/* A multisampled colour attachment's resolve (multisample.h): the
 * framebuffer rows of the bin view averaged over the sample planes into the
 * resolve image; a scaled bin view (FDM) resolves each pixel from the
 * coarse fragment its store would copy (tr__fdm_store's upscaling). */
static void resolve_rows(const tr__raster_bin *rb, const tr__attachment_state *a, uint32_t i, uint32_t view)
{
    const int32_t *r = rb->fdm ? rb->fb_rect : rb->rect;
    const tr__raster_pass *p = rb->rp;
    const tr_image *ri = a->resolve;
    const uint32_t cpp = a->cpp;
    const size_t stride = p->plane_texels * cpp;
    const tr__fdm_view *v = rb->fdm;
    for (int32_t y = r[1]; y < r[3]; y++) {
        const int32_t gy = v ? tr__fdm_store_source(y, v->bin[1], v->bs[1], v->f[1]) : y;
        const uint8_t *grow = rb->gmem[i] + (size_t)(gy - rb->origin[1]) * rb->gmem_pitch * cpp;
        uint8_t *dst = ri->data + tr__image_texel_index(ri, a->resolve_level, a->resolve_base_layer + view,
                                                        (uint32_t)r[0], (uint32_t)y) * cpp;
        if (!v) { /* the row at once */
            tr__resolve_row(rb->ctx, a->format, grow + (size_t)(r[0] - rb->origin[0]) * cpp, stride, p->samples,
                            (uint32_t)(r[2] - r[0]), dst);
            continue;
        }
        for (int32_t x = r[0]; x < r[2]; x++, dst += cpp) {
            const int32_t gx = v ? tr__fdm_store_source(x, v->bin[0], v->bs[0], v->f[0]) : x;
            tr__resolve_texel(rb->ctx, a->format, grow + (size_t)(gx - rb->origin[0]) * cpp, stride, p->samples, dst);
        }
    }
}

/* Load (or store) every attachment of the view rb draws, over rb->rect.
 * A bin view at a reduced scale clears its rendering-space rectangle, and
 * restores and resolves through fdm_view.h's scaled copies. */
static void load_store(tr__raster_bin *rb, bool load)
{
    const tr__raster_pass *p = rb->rp;
    tr_pass_stats *st = &rb->worker->stats;
    const int32_t *r = rb->rect;
    /* (every sample's plane of a multisampled pass) */
    const uint64_t px = (uint64_t)(r[2] - r[0]) * (uint64_t)(r[3] - r[1]) * p->samples;
    const uint32_t view = p->view_ids[rb->view_slot];
    /* What the same bin view would move at full scale (fdm_*_full). */
    const int32_t *fr = rb->fdm ? rb->fb_rect : r;
    const uint64_t full_px = p->fdm ? (uint64_t)(fr[2] - fr[0]) * (uint64_t)(fr[3] - fr[1]) * p->samples : 0;
    for (uint32_t i = 0; i < p->att_count; i++) {
        const tr__attachment_state *a = &p->att[i];
        if (!load && a->resolve && (rb->store_set & 1u)) {
            resolve_rows(rb, a, i, view);
            st->gmem_bytes_resolved += (rb->fdm ? full_px : px) / p->samples * a->cpp;
        }
        const bool reduced = !load && a->subsampled && rb->ss_rect;
        if (!load && !(rb->store_set & (reduced ? 2u : 1u)))
            continue;
        if (reduced) {
            /* stored as rendered, at the layout's rectangle */
            if (a->store == TR_STORE_OP_STORE) {
                store_reduced(rb, a, i, view);
                st->gmem_bytes_stored += px * a->cpp;
                st->fdm_gmem_bytes_stored_full += full_px * a->cpp;
            }
            continue;
        }
        /* a subsampled attachment's tile stored at full size goes where
         * the layout puts it (ss_shift from its framebuffer place) */
        static const int32_t none[2] = {0, 0};
        const int32_t *shift = !load && a->subsampled ? rb->ss_shift : none;
        const size_t plane = p->plane_texels * a->cpp;
        if (rb->fdm && load && a->load == TR_LOAD_OP_LOAD)
            for (uint32_t s = 0; s < p->samples; s++)
                tr__fdm_load(rb->fdm, a, view, s, r, rb->gmem[i] + s * plane, rb->origin, rb->gmem_pitch);
        else if (rb->fdm && !load && a->store == TR_STORE_OP_STORE)
            for (uint32_t s = 0; s < p->samples; s++)
                tr__fdm_store(rb->fdm, a, view, s, rb->fb_rect, rb->gmem[i] + s * plane, rb->origin, rb->gmem_pitch,
                              shift);
        else if (!rb->fdm || (load && a->load == TR_LOAD_OP_CLEAR))
            for (uint32_t s = 0; s < p->samples; s++)
                load_store_rows(rb, a, i, view, s, load, shift);
        const uint64_t bytes = px * a->cpp, full = full_px * a->cpp;
        if (load && a->load == TR_LOAD_OP_CLEAR) {
            st->gmem_bytes_cleared += bytes;
            st->fdm_gmem_bytes_cleared_full += full;
        } else if (load && a->load == TR_LOAD_OP_LOAD) {
            st->gmem_bytes_loaded += bytes;
            st->fdm_gmem_bytes_loaded_full += full;
        } else if (!load && a->store == TR_STORE_OP_STORE) {
            st->gmem_bytes_stored += bytes;
            st->fdm_gmem_bytes_stored_full += full;
        }
    }
}

void tr__raster_load(tr__raster_bin *rb)
{
    load_store(rb, true);
}

void tr__raster_store(tr__raster_bin *rb)
{
    load_store(rb, false);
}
