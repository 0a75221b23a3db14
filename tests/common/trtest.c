/* Test helpers: see trtest.h. */
#include "trtest.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- shaders ---------------------------------------------------------------------- */

void trt_vs(tr_vs_batch *b)
{
    const trt_uniforms *u = (const trt_uniforms *)b->uniforms;
    uint32_t view = b->view_index < TR_MAX_VIEWS ? b->view_index : 0;
    for (uint32_t i = 0; i < b->count; i++) {
        uint32_t idx = b->vertex_index[i] + b->instance_index[i] * u->instance_stride;
        const trt_vertex *v = &u->vertices[idx];
        float x = v->pos[0], y = v->pos[1], w = v->pos[3];
        /* Only add offsets that are set, so that NaN/inf positions and -0.0
         * reach the library unchanged. */
        float dx = u->view_offset[view][0] + u->instance_dx * (float)b->instance_index[i];
        float dy = u->view_offset[view][1];
        if (dx != 0.0f)
            x += dx * w;
        if (dy != 0.0f)
            y += dy * w;
        b->position[0][i] = x;
        b->position[1][i] = y;
        b->position[2][i] = v->pos[2];
        b->position[3][i] = w;
        for (int c = 0; c < 4; c++)
            b->varyings[0][c][i] = v->color[c];
    }
}

void trt_fs_varying(tr_fs_block *b)
{
    for (uint32_t k = 0; k < TR_MAX_COLOR_ATTACHMENTS; k++)
        for (int c = 0; c < 4; c++)
            for (uint32_t l = 0; l < b->count; l++)
                b->color[k][c][l] = b->varyings[0][c][l];
}

void trt_fs_uniform(tr_fs_block *b)
{
    const trt_uniforms *u = (const trt_uniforms *)b->uniforms;
    for (uint32_t k = 0; k < TR_MAX_COLOR_ATTACHMENTS; k++)
        for (int c = 0; c < 4; c++)
            for (uint32_t l = 0; l < b->count; l++)
                b->color[k][c][l] = u->color[k][c];
}

void trt_fs_discard(tr_fs_block *b)
{
    const trt_uniforms *u = (const trt_uniforms *)b->uniforms;
    trt_fs_uniform(b);
    for (uint32_t l = 0; l < b->count; l++) {
        int x = (int)floorf(b->frag_x[l]);
        int y = (int)floorf(b->frag_y[l]);
        if ((uint32_t)((x + y) & 1) == u->discard_parity)
            b->discard |= (uint64_t)1 << l;
    }
}

void trt_fs_depth_uniform(tr_fs_block *b)
{
    const trt_uniforms *u = (const trt_uniforms *)b->uniforms;
    trt_fs_uniform(b);
    for (uint32_t l = 0; l < b->count; l++)
        b->depth[l] = u->depth;
}

/* ---- objects ------------------------------------------------------------------------ */

tr_context *trt_context_desc(const tr_context_desc *desc)
{
    tr_context *ctx = NULL;
    TRT_OK(tr_context_create(desc, &ctx));
    cr_assert_not_null(ctx);
    return ctx;
}

tr_context *trt_context(uint32_t threads)
{
    tr_context_desc d = {0};
    d.threads = threads ? threads : 1;
    return trt_context_desc(&d);
}

tr_image *trt_image_layers(tr_context *ctx, tr_format format, uint32_t w, uint32_t h,
                           uint32_t layers)
{
    tr_image_desc d = {0};
    d.format = format;
    d.width = w;
    d.height = h;
    d.layers = layers;
    tr_image *img = NULL;
    TRT_OK(tr_image_create(ctx, &d, &img));
    cr_assert_not_null(img);
    return img;
}

tr_image *trt_image(tr_context *ctx, tr_format format, uint32_t w, uint32_t h)
{
    return trt_image_layers(ctx, format, w, h, 1);
}

tr_pipeline *trt_pipeline(tr_context *ctx, const tr_pipeline_desc *desc)
{
    tr_pipeline_desc d = {0};
    if (desc)
        d = *desc;
    if (!d.vertex_shader)
        d.vertex_shader = trt_vs;
    if (!d.fragment_shader)
        d.fragment_shader = trt_fs_varying;
    if (!d.varying_count)
        d.varying_count = 1;
    tr_pipeline *p = NULL;
    TRT_OK(tr_pipeline_create(ctx, &d, &p));
    cr_assert_not_null(p);
    return p;
}

/* ---- geometry ------------------------------------------------------------------------ */

trt_vertex trt_vpx(float px, float py, float z, uint32_t w, uint32_t h, const float color[4])
{
    trt_vertex v;
    memset(&v, 0, sizeof v);
    /* In double, then rounded once: exact for power-of-two sizes and within
     * an ulp otherwise, far from any 1/256 snapping boundary for the
     * coordinates the tests use. */
    v.pos[0] = (float)((double)px * 2.0 / (double)w - 1.0);
    v.pos[1] = (float)((double)py * 2.0 / (double)h - 1.0);
    v.pos[2] = z;
    v.pos[3] = 1.0f;
    if (color)
        memcpy(v.color, color, sizeof v.color);
    else
        v.color[0] = v.color[1] = v.color[2] = v.color[3] = 1.0f;
    return v;
}

void trt_draw_u(tr_context *ctx, const trt_uniforms *base, const trt_vertex *v, uint32_t count)
{
    trt_uniforms u;
    if (base)
        u = *base;
    else
        memset(&u, 0, sizeof u);
    u.vertices = v;
    TRT_OK(tr_cmd_set_uniforms(ctx, &u, sizeof u));
    TRT_OK(tr_cmd_draw(ctx, count, 1, 0, 0));
}

void trt_draw(tr_context *ctx, const trt_vertex *v, uint32_t count)
{
    trt_draw_u(ctx, NULL, v, count);
}

void trt_begin_color(tr_context *ctx, tr_image *color, const float clear[4])
{
    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.color_count = 1;
    rp.color[0].image = color;
    rp.color[0].load_op = TR_LOAD_OP_CLEAR;
    rp.color[0].store_op = TR_STORE_OP_STORE;
    if (clear)
        memcpy(rp.color[0].clear_color, clear, sizeof rp.color[0].clear_color);
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
}

void trt_begin_color_depth(tr_context *ctx, tr_image *color, tr_image *depth, uint32_t pass_flags)
{
    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.color_count = 1;
    rp.color[0].image = color;
    rp.color[0].load_op = TR_LOAD_OP_CLEAR;
    rp.color[0].store_op = TR_STORE_OP_STORE;
    rp.depth.image = depth;
    rp.depth.depth_load_op = TR_LOAD_OP_CLEAR;
    rp.depth.clear_depth = 1.0f;
    rp.flags = pass_flags;
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
}

/* ---- multisampled passes ----------------------------------------------------------------- */

tr_image *trt_image_ms(tr_context *ctx, tr_format format, uint32_t w, uint32_t h, uint32_t samples)
{
    const tr_image_desc d = {.format = format, .width = w, .height = h, .samples = samples};
    tr_image *img = NULL;
    TRT_OK(tr_image_create(ctx, &d, &img));
    return img;
}

tr_render_pass_desc trt_pass_desc(tr_image *color, tr_image *depth)
{
    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.color_count = 1;
    rp.color[0] = (tr_color_attachment){.image = color, .load_op = TR_LOAD_OP_CLEAR};
    if (depth)
        rp.depth = (tr_depth_attachment){.image = depth, .depth_load_op = TR_LOAD_OP_CLEAR, .clear_depth = 1.0f};
    return rp;
}

void trt_begin_ms(tr_context *ctx, tr_image *color, tr_image *depth, float density, uint32_t pass_flags)
{
    tr_render_pass_desc rp = trt_pass_desc(color, depth);
    rp.flags = pass_flags;
    if (density > 0.0f) {
        tr_image *map = trt_image(ctx, TR_FORMAT_R8G8_UNORM, 5, 4);
        const float dv[4] = {density, density, 0, 0};
        TRT_OK(tr_image_fill(map, NULL, dv));
        rp.density_map.image = map;
    }
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
}

uint32_t trt_crc_samples(const tr_image *color, const tr_image *depth, uint32_t n)
{
    static uint8_t px[160 * 120 * 4];
    const tr_image_desc d = tr_image_get_desc(color);
    const size_t bytes = (size_t)d.width * d.height * 4;
    if (bytes > sizeof px) {
        cr_assert_fail("trt_crc_samples: %ux%u is larger than 160x120", d.width, d.height);
    }
    uint32_t crc = 0;
    for (uint32_t s = 0; s < n; s++) {
        TRT_OK(tr_image_download(color, &(tr_subresource){.sample = s}, px, 0));
        crc = trt_crc32(px, bytes, crc);
        TRT_OK(tr_image_download(depth, &(tr_subresource){.aspect = TR_ASPECT_DEPTH, .sample = s}, px, 0));
        crc = trt_crc32(px, bytes, crc);
    }
    return crc;
}

/* ---- pixels ----------------------------------------------------------------------------- */

void trt_download(const tr_image *image, uint32_t level, uint32_t layer, tr_aspect aspect,
                  void *out)
{
    tr_subresource sub = {level, layer, aspect, 0};
    TRT_OK(tr_image_download(image, &sub, out, 0));
}

size_t trt_subresource_bytes(const tr_image *image, tr_aspect aspect)
{
    tr_image_desc d = tr_image_get_desc(image);
    return (size_t)d.width * d.height * tr_format_texel_size(d.format, aspect);
}

uint32_t trt_crc32(const void *data, size_t n, uint32_t crc)
{
    const uint8_t *p = (const uint8_t *)data;
    crc = ~crc;
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

void trt_hit_counts_clip(const trt_hit_opts *opts, uint32_t w, uint32_t h, const trt_vertex *v,
                         uint32_t vertex_count, uint8_t *counts, tr_pass_stats *stats)
{
    trt_hit_opts o;
    if (opts)
        o = *opts;
    else
        memset(&o, 0, sizeof o);
    tr_context_desc cd = {0};
    cd.threads = o.threads ? o.threads : 1;
    cd.gmem_bytes = o.gmem_bytes;
    tr_context *ctx = trt_context_desc(&cd);
    tr_image *img = trt_image(ctx, TR_FORMAT_R8G8B8A8_UNORM, w, h);

    tr_pipeline_desc pd = {0};
    pd.fragment_shader = trt_fs_uniform;
    pd.tie_rule = o.tie_rule;
    pd.topology = o.topology;
    pd.blend[0].enable = 1;
    pd.blend[0].src_color = TR_BLEND_ONE;
    pd.blend[0].dst_color = TR_BLEND_ONE;
    pd.blend[0].src_alpha = TR_BLEND_ONE;
    pd.blend[0].dst_alpha = TR_BLEND_ONE;
    tr_pipeline *pipe = trt_pipeline(ctx, &pd);

    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    rp.color_count = 1;
    rp.color[0].image = img;
    rp.color[0].load_op = TR_LOAD_OP_CLEAR;
    rp.flags = o.pass_flags;
    TRT_OK(tr_cmd_begin_render_pass(ctx, &rp));
    TRT_OK(tr_cmd_bind_pipeline(ctx, pipe));
    trt_uniforms u;
    memset(&u, 0, sizeof u);
    u.vertices = v;
    for (int c = 0; c < 4; c++)
        u.color[0][c] = 1.0f / 255.0f;
    TRT_OK(tr_cmd_set_uniforms(ctx, &u, sizeof u));
    if (o.indices) {
        TRT_OK(tr_cmd_bind_index_buffer(ctx, o.indices, (size_t)o.index_count * 4, 0, TR_INDEX_U32));
        TRT_OK(tr_cmd_draw_indexed(ctx, o.index_count, 1, 0, 0, 0));
    } else
        TRT_OK(tr_cmd_draw(ctx, vertex_count, 1, 0, 0));
    TRT_OK(tr_cmd_end_render_pass(ctx, stats));

    uint8_t *px = (uint8_t *)malloc((size_t)w * h * 4);
    cr_assert_not_null(px);
    trt_download(img, 0, 0, TR_ASPECT_DEFAULT, px);
    for (size_t i = 0; i < (size_t)w * h; i++)
        counts[i] = px[i * 4];
    free(px);
    tr_context_destroy(ctx);
}

void trt_hit_counts(const trt_hit_opts *opts, uint32_t w, uint32_t h, const float (*xy)[2],
                    uint32_t point_count, uint8_t *counts, tr_pass_stats *stats)
{
    trt_vertex *v = (trt_vertex *)calloc(point_count ? point_count : 1, sizeof *v);
    cr_assert_not_null(v);
    for (uint32_t i = 0; i < point_count; i++)
        v[i] = trt_vpx(xy[i][0], xy[i][1], 0.5f, w, h, NULL);
    trt_hit_counts_clip(opts, w, h, v, point_count, counts, stats);
    free(v);
}

/* ---- the reference rasterizer ---------------------------------------------------------- */

int64_t trt_snap(double p)
{
    return (int64_t)llround(p * 256.0);
}

static int trt_owned(int64_t dx, int64_t dy, tr_tie_rule tie)
{
    /* Edges walked clockwise on screen (y down).  Left edges go up. */
    if (dy < 0)
        return 1;
    if (dy == 0)
        return tie == TR_TIE_BOTTOM_LEFT ? dx < 0 : dx > 0;
    return 0;
}

uint32_t trt_ref_triangle(const float tri[3][2], tr_tie_rule tie, uint32_t w, uint32_t h,
                          uint8_t *acc)
{
    int64_t X[3], Y[3];
    for (int i = 0; i < 3; i++) {
        X[i] = trt_snap(tri[i][0]);
        Y[i] = trt_snap(tri[i][1]);
    }
    int64_t area = (X[1] - X[0]) * (Y[2] - Y[0]) - (X[2] - X[0]) * (Y[1] - Y[0]);
    if (area == 0)
        return 0;
    if (area < 0) { /* make it clockwise on screen: interior has E > 0 */
        int64_t t = X[1]; X[1] = X[2]; X[2] = t;
        t = Y[1]; Y[1] = Y[2]; Y[2] = t;
    }
    int64_t minx = X[0], maxx = X[0], miny = Y[0], maxy = Y[0];
    for (int i = 1; i < 3; i++) {
        if (X[i] < minx) minx = X[i];
        if (X[i] > maxx) maxx = X[i];
        if (Y[i] < miny) miny = Y[i];
        if (Y[i] > maxy) maxy = Y[i];
    }
    int64_t x0 = minx / 256 - 1, x1 = maxx / 256 + 1, y0 = miny / 256 - 1, y1 = maxy / 256 + 1;
    if (x0 < 0) x0 = 0;
    if (y0 < 0) y0 = 0;
    if (x1 > (int64_t)w - 1) x1 = (int64_t)w - 1;
    if (y1 > (int64_t)h - 1) y1 = (int64_t)h - 1;
    uint32_t n = 0;
    for (int64_t py = y0; py <= y1; py++) {
        for (int64_t px = x0; px <= x1; px++) {
            int64_t cx = px * 256 + 128, cy = py * 256 + 128;
            int in = 1;
            for (int e = 0; e < 3 && in; e++) {
                int a = e, b = (e + 1) % 3;
                int64_t dx = X[b] - X[a], dy = Y[b] - Y[a];
                int64_t ev = dx * (cy - Y[a]) - dy * (cx - X[a]);
                if (ev < 0 || (ev == 0 && !trt_owned(dx, dy, tie)))
                    in = 0;
            }
            if (in) {
                if (acc)
                    acc[py * w + px]++;
                n++;
            }
        }
    }
    return n;
}

static void trt_print_map(const char *title, const uint8_t *m, uint32_t w, uint32_t h)
{
    fprintf(stderr, "%s:\n", title);
    for (uint32_t y = 0; y < h; y++) {
        for (uint32_t x = 0; x < w; x++) {
            uint8_t v = m[y * w + x];
            fputc(v == 0 ? '.' : v < 10 ? '0' + v : '+', stderr);
        }
        fputc('\n', stderr);
    }
}

void trt_assert_maps_eq(const uint8_t *got, const uint8_t *want, uint32_t w, uint32_t h,
                        const char *what)
{
    for (uint32_t y = 0; y < h; y++) {
        for (uint32_t x = 0; x < w; x++) {
            if (got[y * w + x] != want[y * w + x]) {
                uint32_t diffs = 0;
                for (size_t i = 0; i < (size_t)w * h; i++)
                    diffs += got[i] != want[i];
                if (w <= 96 && h <= 96) {
                    fprintf(stderr, "== %s\n", what);
                    trt_print_map("got", got, w, h);
                    trt_print_map("want", want, w, h);
                }
                cr_assert_fail("%s: pixel (%u,%u) is %u, expected %u (%u pixels differ)", what,
                               x, y, got[y * w + x], want[y * w + x], diffs);
            }
        }
    }
}

void trt_map_from_rows(const char *const *rows, uint32_t w, uint32_t h, uint8_t *out)
{
    for (uint32_t y = 0; y < h; y++) {
        cr_assert_eq(strlen(rows[y]), w, "row %u of the expected map has the wrong length", y);
        for (uint32_t x = 0; x < w; x++)
            out[y * w + x] = rows[y][x] == '#' ? 1 : 0;
    }
}

/* ---- PRNG ----------------------------------------------------------------------------------- */

static uint64_t trt_next(trt_rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint32_t trt_rand_u32(trt_rng *r)
{
    return (uint32_t)(trt_next(r) >> 32);
}

double trt_rand_range(trt_rng *r, double lo, double hi)
{
    double u = (double)(trt_next(r) >> 11) * (1.0 / 9007199254740992.0);
    return lo + (hi - lo) * u;
}

float trt_rand_coord(trt_rng *r, float lo, float hi)
{
    int64_t a = (int64_t)ceil((double)lo * 1024.0);
    int64_t b = (int64_t)floor((double)hi * 1024.0);
    if (b <= a)
        return (float)a / 1024.0f;
    int64_t v = a + (int64_t)(trt_next(r) % (uint64_t)(b - a));
    if ((((v % 4) + 4) % 4) == 2)
        v = v + 1 < b ? v + 1 : v - 1;
    return (float)((double)v / 1024.0);
}

float trt_untie(float x)
{
    double v = (double)x * 1024.0;
    int64_t k = (int64_t)floor(v);
    if ((double)k == v && (((k % 4) + 4) % 4) == 2)
        return (float)((double)(k + 1) / 1024.0);
    return x;
}

tr_image *trt_random_texture(tr_context *ctx, tr_format f, uint32_t w, uint32_t h, uint32_t layers, uint32_t levels,
                             uint64_t seed)
{
    tr_image_desc d = {f, w, h, layers, levels, 0, 0};
    tr_image *img = NULL;
    TRT_OK(tr_image_create(ctx, &d, &img));
    trt_rng rng = {seed};
    d = tr_image_get_desc(img);
    for (uint32_t l = 0; l < d.levels; l++)
        for (uint32_t a = 0; a < d.layers; a++) {
            const uint32_t lw = tr_image_level_width(img, l), lh = tr_image_level_height(img, l);
            const size_t n = (size_t)lw * lh;
            if (f == TR_FORMAT_D32_SFLOAT) {
                float *z = malloc(n * sizeof(float));
                for (size_t i = 0; i < n; i++)
                    z[i] = (float)trt_rand_range(&rng, 0, 1);
                tr_subresource sub = {l, a, TR_ASPECT_DEPTH, 0};
                TRT_OK(tr_image_upload(img, &sub, z, 0));
                free(z);
            } else if (f == TR_FORMAT_R16G16B16A16_SFLOAT) {
                uint16_t *h16 = malloc(n * 8);
                for (size_t i = 0; i < n * 4; i++)
                    h16[i] = (uint16_t)(0x3000 + trt_rand_u32(&rng) % 0x0c00); /* halves in [0.125, 1) */
                tr_subresource sub = {l, a, TR_ASPECT_COLOR, 0};
                TRT_OK(tr_image_upload(img, &sub, h16, 0));
                free(h16);
            } else {
                uint8_t *b = malloc(n * 4);
                for (size_t i = 0; i < n * 4; i++)
                    b[i] = (uint8_t)trt_rand_u32(&rng);
                tr_subresource sub = {l, a, TR_ASPECT_COLOR, 0};
                TRT_OK(tr_image_upload(img, &sub, b, 0));
                free(b);
            }
        }
    return img;
}

void trt_ref_sample_coverage(const float tri[3][2], uint32_t n, uint32_t w, uint32_t h, uint8_t *cov)
{
    memset(cov, 0, (size_t)w * h);
    uint8_t *acc = malloc((size_t)w * h);
    cr_assert(acc);
    for (uint32_t s = 0; s < n; s++) {
        float pos[2] = {0.5f, 0.5f};
        if (n > 1)
            TRT_OK(tr_sample_position(n, s, pos));
        float moved[3][2];
        for (int k = 0; k < 3; k++) {
            moved[k][0] = tri[k][0] + 0.5f - pos[0];
            moved[k][1] = tri[k][1] + 0.5f - pos[1];
        }
        memset(acc, 0, (size_t)w * h);
        trt_ref_triangle(moved, TR_TIE_TOP_LEFT, w, h, acc);
        for (uint32_t i = 0; i < w * h; i++)
            cov[i] |= (uint8_t)((acc[i] != 0) << s);
    }
    free(acc);
}
