/* tilerast raster stage: GMEM tile load (clear / restore) and store
 * (resolve).  DONT_CARE skips the work entirely; bytes moved are counted. */
#include "raster/raster_internal.h"

/* The image plane and texel size an attachment's GMEM slice mirrors. */
static uint8_t *att_plane(const tr__attachment_state *a, uint32_t view, uint32_t x, uint32_t y)
{
    const tr_image *img = a->image;
    size_t idx = tr__image_texel_index(img, a->level, a->base_layer + view, x, y);
    return a->stencil_plane ? img->stencil + idx : img->data + idx * img->fmt->texel;
}

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

/* Load (or store) every attachment of the view rb draws, over rb->rect. */
static void load_store(tr__raster_bin *rb, bool load)
{
    const tr__raster_pass *p = rb->rp;
    tr_pass_stats *st = &rb->worker->stats;
    const int32_t *r = rb->rect;
    const uint32_t w = (uint32_t)(r[2] - r[0]), h = (uint32_t)(r[3] - r[1]);
    const uint32_t view = p->view_ids[rb->view_slot];
    for (uint32_t i = 0; i < p->att_count; i++) {
        const tr__attachment_state *a = &p->att[i];
        const size_t row = (size_t)w * a->cpp;
        const uint8_t *clear_row = NULL; /* the first cleared row, copied to the others */
        for (uint32_t y = 0; y < h; y++) {
            uint8_t *gp = rb->gmem[i] + ((size_t)(r[1] - rb->origin[1] + (int32_t)y) * rb->gmem_pitch +
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
                    memcpy(gp, att_plane(a, view, (uint32_t)r[0], (uint32_t)r[1] + y), row);
                }
            } else if (a->store == TR_STORE_OP_STORE) {
                memcpy(att_plane(a, view, (uint32_t)r[0], (uint32_t)r[1] + y), gp, row);
            }
        }
        const uint64_t bytes = (uint64_t)row * h;
        if (load && a->load == TR_LOAD_OP_CLEAR)
            st->gmem_bytes_cleared += bytes;
        else if (load && a->load == TR_LOAD_OP_LOAD)
            st->gmem_bytes_loaded += bytes;
        else if (!load && a->store == TR_STORE_OP_STORE)
            st->gmem_bytes_stored += bytes;
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
