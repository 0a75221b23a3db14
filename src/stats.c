/* tilerast: render-pass statistics as JSON, one writer for every tool. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "internal.h"

typedef struct json_out {
    char *buf;
    size_t size, len;
} json_out;

static void put(json_out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = o->len < o->size ? o->size - o->len : 0;
    int n = vsnprintf(room ? o->buf + o->len : NULL, room, fmt, ap);
    va_end(ap);
    if (n > 0)
        o->len += (size_t)n;
}

/* JSON has no NaN or infinity. */
static void put_ms(json_out *o, const char *name, double ms)
{
    if (isfinite(ms))
        put(o, ",\"%s\":%.3f", name, ms);
    else
        put(o, ",\"%s\":null", name);
}

TR_API size_t tr_pass_stats_to_json(const tr_pass_stats *s, char *buf, size_t size)
{
    json_out o = {buf, buf ? size : 0, 0};
    if (o.size)
        o.buf[0] = '\0';
    if (s == NULL) {
        put(&o, "null");
        return o.len;
    }
    const tr_bin_layout *l = &s->layout;
    put(&o,
        "{\"layout\":{\"bin_w\":%u,\"bin_h\":%u,\"bins_x\":%u,\"bins_y\":%u,"
        "\"pipe_w\":%u,\"pipe_h\":%u,\"pipes_x\":%u,\"pipes_y\":%u,\"gmem_pixels\":%u,"
        "\"tile_align_w\":%u,\"tile_align_h\":%u,\"views\":%u,\"origin_x\":%d,"
        "\"origin_y\":%d},\"bins\":%u,\"pipes\":%u",
        l->bin_w, l->bin_h, l->bins_x, l->bins_y, l->pipe_w, l->pipe_h, l->pipes_x, l->pipes_y,
        l->gmem_pixels, l->tile_align_w, l->tile_align_h, l->views, (int)l->origin_x,
        (int)l->origin_y, s->bins, s->pipes);
#define U64(field) put(&o, ",\"" #field "\":%llu", (unsigned long long)s->field)
    U64(draws);
    U64(vertex_linear_ids);
    U64(primitives_in);
    U64(primitives_culled);
    U64(primitives_nonfinite);
    U64(primitives_clipped);
    U64(primitives_binned);
    U64(bin_primitive_refs);
    U64(visibility_stream_bytes);
    U64(fragments_rasterized);
    U64(fragments_depth_rejected);
    U64(fragments_stencil_rejected);
    U64(fragments_lrz_rejected);
    U64(fragments_shaded);
    U64(fragments_discarded);
    U64(fragments_written);
    U64(gmem_bytes_loaded);
    U64(gmem_bytes_cleared);
    U64(gmem_bytes_stored);
    U64(gmem_bytes_resolved);
    U64(memory_binning_bytes);
    U64(memory_tile_bytes);
    U64(memory_peak_bytes);
    put(&o, ",\"lrz_state\":%u,\"lrz_direction\":%u", s->lrz_state, s->lrz_direction);
    U64(lrz_blocks_written);
    U64(lrz_blocks_tested);
    U64(lrz_blocks_rejected);
    /* fdm_bin_views as rows of the height index j: [[1x1, 2x1, 4x1], [1x2, ...], ...]. */
    put(&o, ",\"fdm_bin_views\":[");
    for (int j = 0; j < 3; j++)
        put(&o, "%s[%u,%u,%u]", j ? "," : "", s->fdm_bin_views[j][0], s->fdm_bin_views[j][1],
            s->fdm_bin_views[j][2]);
    put(&o, "],\"fdm_bin_views_invisible\":%u", s->fdm_bin_views_invisible);
    put(&o, ",\"tiles\":%u,\"fdm_bins_merged\":%u", s->tiles, s->fdm_bins_merged);
    U64(fdm_fragments_shaded_scaled);
    U64(fdm_pixels_shaded_scaled);
    U64(fdm_gmem_bytes_loaded_full);
    U64(fdm_gmem_bytes_cleared_full);
    U64(fdm_gmem_bytes_stored_full);
#undef U64
    put_ms(&o, "ms_vertex", s->ms_vertex);
    put_ms(&o, "ms_binning", s->ms_binning);
    put_ms(&o, "ms_render", s->ms_render);
    put(&o, "}");
    return o.len;
}
