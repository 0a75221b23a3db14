/* tilerast: images, texel transfers and PNG output. */
#include <math.h>
#include <stdio.h>

#include <simde/x86/sse2.h>

#include "internal.h"
#include "lrz/lrz_internal.h"
#include "subsample/subsample_internal.h"

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#endif
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

static uint32_t full_chain(uint32_t w, uint32_t h)
{
    uint32_t m = TR_MAX(w, h), n = 1;
    while (m > 1) {
        m >>= 1;
        n++;
    }
    return n;
}

tr_result tr_image_create(tr_context *ctx, const tr_image_desc *desc, tr_image **out)
{
    tr__api_enter(ctx);
    if (!out)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_image_create: out is NULL");
    *out = NULL;
    if (!ctx || !desc)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_image_create: %s is NULL", ctx ? "desc" : "ctx");
    tr_image_desc d = *desc;
    if ((unsigned)d.format >= TR_FORMAT_COUNT)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_image_desc.format = %d is not a tr_format",
                         (int)d.format);
    if (!tr__format_valid(d.format))
        return tr__error(ctx, TR_ERROR_UNSUPPORTED_FORMAT, "tr_image_desc.format: an image cannot be %s",
                         tr_format_name(d.format));
    if (d.flags & ~TR_IMAGE_FLAGS_ALL)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_image_desc.flags = 0x%x has unknown bits (0x%x)",
                         d.flags, d.flags & ~TR_IMAGE_FLAGS_ALL);
    if (d.width == 0 || d.height == 0)
        return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR, "tr_image_desc.width/height = %ux%u: must be nonzero",
                         d.width, d.height);
    if (d.width > TR_MAX_IMAGE_SIZE || d.height > TR_MAX_IMAGE_SIZE)
        return tr__error(ctx, TR_ERROR_LIMIT_EXCEEDED, "tr_image_desc.width/height = %ux%u exceeds %u",
                         d.width, d.height, TR_MAX_IMAGE_SIZE);
    if (!d.layers)
        d.layers = 1;
    if (!d.levels)
        d.levels = 1;
    if (d.levels == TR_LEVELS_ALL)
        d.levels = full_chain(d.width, d.height);
    if (d.layers > TR_MAX_IMAGE_LAYERS)
        return tr__error(ctx, TR_ERROR_LIMIT_EXCEEDED, "tr_image_desc.layers = %u exceeds %u", d.layers,
                         TR_MAX_IMAGE_LAYERS);
    if (d.levels > TR_MAX_IMAGE_LEVELS)
        return tr__error(ctx, TR_ERROR_LIMIT_EXCEEDED, "tr_image_desc.levels = %u exceeds %u", d.levels,
                         TR_MAX_IMAGE_LEVELS);
    if (d.levels > full_chain(d.width, d.height))
        return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR,
                         "tr_image_desc.levels = %u exceeds the full mip chain of %ux%u (%u)", d.levels, d.width,
                         d.height, full_chain(d.width, d.height));
    if (!d.samples)
        d.samples = 1;
    if (!tr_sample_count_valid(d.samples))
        return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR, "tr_image_desc.samples = %u: must be 1, 2, 4 or 8",
                         d.samples);
    if (d.samples > 1 && d.levels != 1)
        return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR,
                         "tr_image_desc.levels = %u: a multisampled image (%u samples) has one level", d.levels,
                         d.samples);
    if (d.samples > 1 && (d.flags & TR_IMAGE_SUBSAMPLED))
        return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR,
                         "tr_image_desc.flags: a multisampled image (%u samples) cannot be TR_IMAGE_SUBSAMPLED",
                         d.samples);
    if (d.flags & TR_IMAGE_SUBSAMPLED) {
        if (tr__format(d.format)->depth)
            return tr__error(ctx, TR_ERROR_UNSUPPORTED_FORMAT,
                             "tr_image_desc.flags: a subsampled image is a colour image, not %s",
                             tr_format_name(d.format));
        if (d.levels != 1)
            return tr__error(ctx, TR_ERROR_INVALID_DESCRIPTOR,
                             "tr_image_desc.levels = %u: a subsampled image has one level", d.levels);
        if (d.layers > TR_SUBSAMPLED_MAX_LAYERS)
            return tr__error(ctx, TR_ERROR_LIMIT_EXCEEDED,
                             "tr_image_desc.layers = %u: a subsampled image has at most %u (its metadata)", d.layers,
                             TR_SUBSAMPLED_MAX_LAYERS);
    }
    /* A subsampled image made for FDM offsets keeps the tile alignment's
     * worth of texels past its right and bottom edges (turnip pads it so:
     * the bins pinned to the end move by up to that much). */
    const bool padded = (d.flags & TR_IMAGE_SUBSAMPLED) && (d.flags & TR_IMAGE_FDM_OFFSET);
    const uint32_t pad_w = padded ? ctx->desc.tile_align_w : 0u, pad_h = padded ? ctx->desc.tile_align_h : 0u;
    const tr__format_info *fi = tr__format(d.format);
    /* In 64 bits: at most 16400^2 texels x 2048 layers x 8 samples x 4/3
     * for the mips, under 2^43, times 16 bytes; no overflow. */
    uint64_t texels = 0;
    size_t offs[TR_MAX_IMAGE_LEVELS];
    for (uint32_t l = 0; l < d.levels; l++) {
        offs[l] = (size_t)texels;
        texels += ((uint64_t)TR_MAX(1u, d.width >> l) + (l ? 0 : pad_w)) *
                  ((uint64_t)TR_MAX(1u, d.height >> l) + (l ? 0 : pad_h)) * d.layers * d.samples;
    }
    const uint64_t bytes = texels * fi->texel + (fi->stencil ? texels : 0);
    char what[96];
    snprintf(what, sizeof what, "a %ux%u %s image (layers %u, levels %u, samples %u)", d.width, d.height, fi->name,
             d.layers, d.levels, d.samples);
    tr_result r = tr__check_bytes(ctx, "tr_image_create", what, bytes, false);
    if (r != TR_OK)
        return r;
    tr_image *img = tr__calloc(ctx, sizeof(tr_image));
    if (!img)
        return tr__error(ctx, TR_ERROR_OUT_OF_MEMORY, "tr_image_create: out of memory");
    img->ctx = ctx;
    img->desc = d;
    img->fmt = fi;
    img->pad_w = pad_w;
    img->pad_h = pad_h;
    img->total_texels = (size_t)texels;
    memcpy(img->level_offset, offs, sizeof(size_t) * d.levels);
    img->data = tr__calloc(ctx, (size_t)texels * fi->texel);
    if (!img->data) {
        tr__free(ctx, img);
        return tr__error(ctx, TR_ERROR_OUT_OF_MEMORY, "tr_image_create: out of memory for %llu bytes",
                         (unsigned long long)texels * fi->texel);
    }
    if (fi->stencil) {
        img->stencil = tr__calloc(ctx, (size_t)texels);
        if (!img->stencil) {
            tr__free(ctx, img->data);
            tr__free(ctx, img);
            return tr__error(ctx, TR_ERROR_OUT_OF_MEMORY, "tr_image_create: out of memory for stencil");
        }
    }
    if (d.flags & TR_IMAGE_SUBSAMPLED) {
        img->subsampled = tr__subsampled_meta_create(ctx, d.layers);
        if (!img->subsampled) {
            tr__free(ctx, img->data);
            tr__free(ctx, img);
            return tr__error(ctx, TR_ERROR_OUT_OF_MEMORY, "tr_image_create: out of memory for subsampled metadata");
        }
    }
    img->next = ctx->images;
    if (ctx->images)
        ctx->images->prev = img;
    ctx->images = img;
    *out = img;
    return TR_OK;
}

tr_result tr_image_destroy(tr_image *img)
{
    tr__api_enter(img ? img->ctx : NULL);
    if (!img)
        return TR_OK; /* as free(NULL) */
    tr_context *ctx = img->ctx;
    if ((img->pass_uses || img->texture_uses) && ctx->in_pass)
        return tr__error(ctx, TR_ERROR_INVALID_STATE, "tr_image_destroy: image is %s of the recording pass",
                  img->pass_uses ? "an attachment" : "a bound texture");
    if (img->prev)
        img->prev->next = img->next;
    else
        ctx->images = img->next;
    if (img->next)
        img->next->prev = img->prev;
    tr__lrz_free(ctx, img->lrz);
    tr__free(ctx, img->subsampled);
    tr__free(ctx, img->data);
    tr__free(ctx, img->stencil);
    tr__free(ctx, img);
    return TR_OK;
}

tr_image_desc tr_image_get_desc(const tr_image *img)
{
    return img ? img->desc : (tr_image_desc){0};
}

uint32_t tr_image_level_width(const tr_image *img, uint32_t level)
{
    return img && level < img->desc.levels ? TR_MAX(1u, img->desc.width >> level) : 0;
}

uint32_t tr_image_level_height(const tr_image *img, uint32_t level)
{
    return img && level < img->desc.levels ? TR_MAX(1u, img->desc.height >> level) : 0;
}

/* Resolves a subresource: plane pointer, bytes per texel, extent. */
typedef struct plane_view {
    uint8_t *base;
    uint32_t texel, w, h;
    uint32_t stride;            /* texels from one stored row to the next */
    uint32_t stored_w, stored_h; /* the stored extent (w x h plus any padding) */
    tr_aspect aspect;
} plane_view;

static tr_result resolve_sub(const tr_image *img, const tr_subresource *sub, const char *fn, plane_view *pv)
{
    tr_subresource s = sub ? *sub : (tr_subresource){0};
    if (s.level >= img->desc.levels || s.layer >= img->desc.layers)
        return tr__error(img->ctx, TR_ERROR_OUT_OF_RANGE, "%s: level %u / layer %u outside the image (%u levels, %u layers)",
                         fn, s.level, s.layer, img->desc.levels, img->desc.layers);
    if (s.sample >= img->desc.samples)
        return tr__error(img->ctx, TR_ERROR_OUT_OF_RANGE, "%s: sample %u outside the image (%u sample%s)", fn, s.sample,
                         img->desc.samples, img->desc.samples == 1 ? "" : "s");
    if ((unsigned)s.aspect > TR_ASPECT_STENCIL)
        return tr__error(img->ctx, TR_ERROR_INVALID_ARGUMENT, "%s: aspect %d is not a tr_aspect", fn, (int)s.aspect);
    if (s.aspect == TR_ASPECT_DEFAULT)
        s.aspect = img->fmt->depth ? TR_ASPECT_DEPTH : TR_ASPECT_COLOR;
    if (tr_format_texel_size(img->desc.format, s.aspect) == 0)
        return tr__error(img->ctx, TR_ERROR_INVALID_ARGUMENT, "%s: format %s has no such aspect (%d)", fn,
                         img->fmt->name, (int)s.aspect);
    pv->aspect = s.aspect;
    pv->w = TR_MAX(1u, img->desc.width >> s.level);
    pv->h = TR_MAX(1u, img->desc.height >> s.level);
    pv->stored_w = pv->stride = tr__image_stored_w(img, s.level);
    pv->stored_h = tr__image_stored_h(img, s.level);
    size_t idx = tr__image_texel_index(img, s.level, tr__image_plane(img, s.layer, s.sample), 0, 0);
    if (s.aspect == TR_ASPECT_STENCIL) {
        pv->texel = 1;
        pv->base = img->stencil + idx;
    } else {
        pv->texel = img->fmt->texel;
        pv->base = img->data + idx * img->fmt->texel;
    }
    return TR_OK;
}

/* The checks of every transfer: the image may be read (or written) now,
 * the subresource exists, and the caller's rows fit the pitch rule
 * (image.h, "Caller buffers"): on TR_OK *row_pitch is the pitch to use and
 * *w x *h the texels copied (raw: the stored extent, padding included). */
static tr_result check_transfer(const tr_image *img, bool writes, bool raw, const void *data, const char *data_name,
                                size_t *row_pitch, const char *fn, const tr_subresource *sub, plane_view *pv,
                                uint32_t *w, uint32_t *h)
{
    if (!img)
        return tr__error(NULL, TR_ERROR_INVALID_ARGUMENT, "%s: image is NULL", fn);
    if (!data)
        return tr__error(img->ctx, TR_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", fn, data_name);
    if (img->pass_uses && img->ctx->in_pass)
        return tr__error(img->ctx, TR_ERROR_INVALID_STATE, "%s: image is an attachment of the recording pass", fn);
    if (writes && img->texture_uses && img->ctx->in_pass)
        return tr__error(img->ctx, TR_ERROR_INVALID_STATE,
                         "%s: image is a bound texture of the recording pass (draws read it at the pass's end)", fn);
    tr_result r = resolve_sub(img, sub, fn, pv);
    if (r != TR_OK)
        return r;
    *w = raw ? pv->stored_w : pv->w;
    *h = raw ? pv->stored_h : pv->h;
    return tr__check_pitch(img->ctx, fn, "row_pitch", (size_t)*w * pv->texel, *h, row_pitch);
}

tr_result tr_image_upload(tr_image *img, const tr_subresource *sub, const void *data, size_t row_pitch)
{
    tr__api_enter(img ? img->ctx : NULL);
    plane_view pv = {0};
    uint32_t w, h;
    tr_result r = check_transfer(img, true, false, data, "data", &row_pitch, "tr_image_upload", sub, &pv, &w, &h);
    if (r != TR_OK)
        return r;
    const size_t row = (size_t)w * pv.texel;
    const uint32_t dmax = pv.aspect == TR_ASPECT_DEPTH ? img->fmt->depth_max : 0u;
    for (uint32_t y = 0; y < pv.h; y++) {
        uint8_t *dst = pv.base + (size_t)y * pv.stride * pv.texel;
        memcpy(dst, (const uint8_t *)data + y * row_pitch, row);
        if (dmax) /* D16 / D24: stored quantised (image.h) */
            for (uint32_t x = 0; x < pv.w; x++) {
                float z;
                memcpy(&z, dst + (size_t)x * 4, 4);
                z = tr__depth_quantise(dmax, z);
                memcpy(dst + (size_t)x * 4, &z, 4);
            }
    }
    img->version++; /* any LRZ describing the old texels is stale */
    return TR_OK;
}

/* The metadata of the subresource when the image is subsampled (level 0,
 * colour), else NULL: reads then go through it (subsample.h). */
static const tr__subsampled_meta *subsampled_meta(const tr_image *img, const tr_subresource *sub)
{
    return img->subsampled ? &img->subsampled[sub ? sub->layer : 0] : NULL;
}

/* Texel (x, y) of the subresource as a reader sees it: a subsampled image
 * is looked up through its metadata at the pixel's centre, as a NEAREST
 * sample would (the framebuffer-space picture). */
static const uint8_t *read_texel(const plane_view *pv, const tr__subsampled_meta *m, uint32_t x, uint32_t y)
{
    if (m) {
        /* uv of the pixel's centre; uv' addresses the stored extent */
        float u, v;
        tr__subsampled_map(m, ((float)x + 0.5f) / (float)pv->w, ((float)y + 0.5f) / (float)pv->h, &u, &v);
        const float fx = floorf(u * (float)pv->stored_w), fy = floorf(v * (float)pv->stored_h);
        x = fx <= 0.0f ? 0u : fx >= (float)(pv->stored_w - 1) ? pv->stored_w - 1 : (uint32_t)fx;
        y = fy <= 0.0f ? 0u : fy >= (float)(pv->stored_h - 1) ? pv->stored_h - 1 : (uint32_t)fy;
    }
    return pv->base + ((size_t)y * pv->stride + x) * pv->texel;
}

static tr_result download(const tr_image *img, const tr_subresource *sub, void *data, size_t row_pitch, bool raw,
                          const char *fn)
{
    plane_view pv = {0};
    uint32_t w, h;
    tr_result r = check_transfer(img, false, raw, data, "data", &row_pitch, fn, sub, &pv, &w, &h);
    if (r != TR_OK)
        return r;
    const size_t row = (size_t)w * pv.texel;
    const tr__subsampled_meta *m = raw ? NULL : subsampled_meta(img, sub);
    for (uint32_t y = 0; y < h; y++) {
        uint8_t *dst = (uint8_t *)data + y * row_pitch;
        if (!m) {
            memcpy(dst, pv.base + (size_t)y * pv.stride * pv.texel, row);
            continue;
        }
        for (uint32_t x = 0; x < pv.w; x++)
            memcpy(dst + (size_t)x * pv.texel, read_texel(&pv, m, x, y), pv.texel);
    }
    return TR_OK;
}

tr_result tr_image_download(const tr_image *img, const tr_subresource *sub, void *data, size_t row_pitch)
{
    tr__api_enter(img ? img->ctx : NULL);
    return download(img, sub, data, row_pitch, false, "tr_image_download");
}

tr_result tr_image_download_raw(const tr_image *img, const tr_subresource *sub, void *data, size_t row_pitch)
{
    tr__api_enter(img ? img->ctx : NULL);
    return download(img, sub, data, row_pitch, true, "tr_image_download_raw");
}

tr_result tr_image_get_subsampled_metadata(const tr_image *img, uint32_t layer, tr_subsampled_header *header,
                                           tr_subsampled_bin *bins, size_t capacity, size_t *count)
{
    tr__api_enter(img ? img->ctx : NULL);
    const char *fn = "tr_image_get_subsampled_metadata";
    if (!img)
        return tr__error(NULL, TR_ERROR_INVALID_ARGUMENT, "%s: image is NULL", fn);
    if (!header || !count)
        return tr__error(img->ctx, TR_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", fn, header ? "count" : "header");
    if (!img->subsampled)
        return tr__error(img->ctx, TR_ERROR_INVALID_STATE, "%s: the image is not TR_IMAGE_SUBSAMPLED", fn);
    if (layer >= img->desc.layers)
        return tr__error(img->ctx, TR_ERROR_OUT_OF_RANGE, "%s: layer %u of %u", fn, layer, img->desc.layers);
    const tr__subsampled_meta *m = &img->subsampled[layer];
    *header = m->header;
    *count = m->bin_count;
    if (bins) {
        if (capacity < m->bin_count)
            return tr__error(img->ctx, TR_ERROR_OUT_OF_RANGE, "%s: capacity %zu, the metadata has %u bins", fn, capacity,
                             m->bin_count);
        memcpy(bins, m->bins, m->bin_count * sizeof *bins);
    }
    return TR_OK;
}

tr_result tr_image_fill(tr_image *img, const tr_subresource *sub, const float value[4])
{
    tr__api_enter(img ? img->ctx : NULL);
    plane_view pv = {0};
    /* every sample: from sample 0's plane on (a layer's are consecutive) */
    tr_subresource s0 = sub ? *sub : (tr_subresource){0};
    s0.sample = 0;
    size_t pitch = 0;
    uint32_t w, h;
    tr_result r = check_transfer(img, true, false, value, "value", &pitch, "tr_image_fill", &s0, &pv, &w, &h);
    if (r != TR_OK)
        return r;
    uint8_t texel[16];
    if (pv.aspect == TR_ASPECT_STENCIL) {
        float v = value[0];
        texel[0] = v != v ? 0 : v <= 0 ? 0 : v >= 255 ? 255 : (uint8_t)v;
    } else if (pv.aspect == TR_ASPECT_DEPTH) {
        const float z = tr__depth_quantise(img->fmt->depth_max, value[0]);
        memcpy(texel, &z, 4);
    } else {
        tr__color_encode(img->ctx, img->desc.format, value, texel);
    }
    /* every stored texel of every sample, padding included */
    size_t n = (size_t)pv.stored_w * pv.stored_h * img->desc.samples;
    for (size_t i = 0; i < n; i++)
        memcpy(pv.base + i * pv.texel, texel, pv.texel);
    img->version++;
    return TR_OK;
}

tr_result tr__write_png_rgba8(const char *path, uint32_t w, uint32_t h, const uint8_t *px)
{
    return stbi_write_png(path, (int)w, (int)h, 4, px, (int)w * 4) ? TR_OK : TR_ERROR_IO;
}

tr_result tr_image_read_rgba8(const tr_image *img, const tr_subresource *sub, uint8_t *out)
{
    tr__api_enter(img ? img->ctx : NULL);
    return tr__image_read_rgba8(img, sub, out, false);
}

/* Formats whose channels are all 8-bit UNORM bytes: resolved as integer
 * averages per byte. */
static inline bool unorm8_channels(tr_format format)
{
    return format == TR_FORMAT_R8G8B8A8_UNORM || format == TR_FORMAT_R8G8_UNORM || format == TR_FORMAT_R8_UNORM ||
           format == TR_FORMAT_B8G8R8A8_UNORM;
}

void tr__resolve_texel(const tr_context *ctx, tr_format format, const uint8_t *s0, size_t stride, uint32_t n,
                       uint8_t *out)
{
    if (tr__format(format)->is_int) { /* integer formats: sample 0 (multisample.h) */
        memcpy(out, s0, tr__format(format)->texel);
        return;
    }
    if (format == TR_FORMAT_A2B10G10R10_UNORM_PACK32) { /* per channel, as the 8-bit UNORMs */
        static const uint32_t shift[4] = {0, 10, 20, 30}, mask[4] = {0x3ffu, 0x3ffu, 0x3ffu, 3u};
        uint32_t res = 0;
        for (uint32_t c = 0; c < 4; c++) {
            uint32_t sum = 0;
            for (uint32_t i = 0; i < n; i++) {
                uint32_t v;
                memcpy(&v, s0 + i * stride, 4);
                sum += (v >> shift[c]) & mask[c];
            }
            res |= ((sum + n / 2) / n) << shift[c];
        }
        memcpy(out, &res, 4);
        return;
    }
    if (unorm8_channels(format)) {
        const uint32_t bytes = tr__format(format)->texel;
        for (uint32_t c = 0; c < bytes; c++) {
            uint32_t sum = 0;
            for (uint32_t i = 0; i < n; i++)
                sum += s0[i * stride + c];
            out[c] = (uint8_t)((sum + n / 2) / n);
        }
        return;
    }
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (uint32_t i = 0; i < n; i++) {
        float c[4];
        tr__color_decode(ctx, format, s0 + i * stride, c);
        for (int k = 0; k < 4; k++)
            acc[k] += c[k];
    }
    const float inv = 1.0f / (float)n; /* exact: n is a power of two */
    for (int k = 0; k < 4; k++)
        acc[k] *= inv;
    tr__color_encode(ctx, format, acc, out);
}

/* Bytes of UNORM8 channels averaged as tr__resolve_texel does, 16 at a
 * time in 16-bit lanes (n <= 16 samples of 255 sum below 2^16): the same
 * integers, so the same bytes. */
static void resolve_unorm8_bytes(const uint8_t *s0, size_t stride, uint32_t n, size_t bytes, uint8_t *out)
{
    const int log2n = __builtin_ctz(n);
    const simde__m128i zero = simde_mm_setzero_si128(), half = simde_mm_set1_epi16((int16_t)(n / 2));
    size_t c = 0;
    for (; c + 16 <= bytes; c += 16) {
        simde__m128i lo = half, hi = half;
        for (uint32_t i = 0; i < n; i++) {
            const simde__m128i v = simde_mm_loadu_si128((const void *)(s0 + i * stride + c));
            lo = simde_mm_add_epi16(lo, simde_mm_unpacklo_epi8(v, zero));
            hi = simde_mm_add_epi16(hi, simde_mm_unpackhi_epi8(v, zero));
        }
        lo = simde_mm_srli_epi16(lo, log2n);
        hi = simde_mm_srli_epi16(hi, log2n);
        simde_mm_storeu_si128((void *)(out + c), simde_mm_packus_epi16(lo, hi));
    }
    for (; c < bytes; c++) {
        uint32_t sum = n / 2;
        for (uint32_t i = 0; i < n; i++)
            sum += s0[i * stride + c];
        out[c] = (uint8_t)(sum >> log2n);
    }
}

void tr__resolve_row(const tr_context *ctx, tr_format format, const uint8_t *s0, size_t stride, uint32_t n,
                     uint32_t count, uint8_t *out)
{
    if (unorm8_channels(format) && n <= 16 && (n & (n - 1)) == 0) {
        resolve_unorm8_bytes(s0, stride, n, (size_t)count * tr__format(format)->texel, out);
        return;
    }
    const uint32_t texel = tr__format(format)->texel;
    for (uint32_t x = 0; x < count; x++)
        tr__resolve_texel(ctx, format, s0 + (size_t)x * texel, stride, n, out + (size_t)x * texel);
}

tr_result tr__image_read_rgba8(const tr_image *img, const tr_subresource *sub, uint8_t *out, bool raw)
{
    plane_view pv = {0};
    /* a multisampled image resolves from sample 0's plane on */
    tr_subresource s0 = sub ? *sub : (tr_subresource){0};
    s0.sample = 0;
    size_t pitch = 0;
    uint32_t w, h; /* raw: the stored extent (tr__image_read_rgba8's caller sizes out so) */
    tr_result r = check_transfer(img, false, raw, out, "out", &pitch, "tr_image_read_rgba8", &s0, &pv, &w, &h);
    if (r != TR_OK)
        return r;
    size_t n = (size_t)w * h;
    const tr__subsampled_meta *m = pv.aspect == TR_ASPECT_COLOR && !raw ? subsampled_meta(img, sub) : NULL;
    /* a multisampled colour texel is its samples' resolve (a layer's
     * sample planes are consecutive); depth and stencil read sample 0 */
    const bool resolve = img->desc.samples > 1 && pv.aspect == TR_ASPECT_COLOR;
    const size_t plane = (size_t)pv.stored_w * pv.stored_h * pv.texel;
    uint8_t resolved[16];
    for (size_t i = 0; i < n; i++) {
        const uint8_t *t = read_texel(&pv, m, (uint32_t)(i % w), (uint32_t)(i / w));
        if (resolve) {
            tr__resolve_texel(img->ctx, img->desc.format, t, plane, img->desc.samples, resolved);
            t = resolved;
        }
        uint8_t *o = out + i * 4;
        if (pv.aspect == TR_ASPECT_STENCIL) {
            o[0] = o[1] = o[2] = t[0];
            o[3] = 255;
        } else if (pv.aspect == TR_ASPECT_DEPTH) {
            float d;
            memcpy(&d, t, 4);
            o[0] = o[1] = o[2] = tr__float_to_unorm8(d);
            o[3] = 255;
        } else if (img->desc.format == TR_FORMAT_R8G8B8A8_UNORM || img->desc.format == TR_FORMAT_R8G8B8A8_SRGB) {
            memcpy(o, t, 4);
        } else if (img->desc.format == TR_FORMAT_R8G8_UNORM) {
            o[0] = t[0]; /* bytes as stored, as for RGBA8: (r, g, 0, 255) */
            o[1] = t[1];
            o[2] = 0;
            o[3] = 255;
        } else if (img->desc.format == TR_FORMAT_R8_UNORM) {
            o[0] = t[0];
            o[1] = o[2] = 0;
            o[3] = 255;
        } else if (img->desc.format == TR_FORMAT_B8G8R8A8_UNORM || img->desc.format == TR_FORMAT_B8G8R8A8_SRGB) {
            o[0] = t[2]; /* the stored bytes, swizzled to R, G, B, A */
            o[1] = t[1];
            o[2] = t[0];
            o[3] = t[3];
        } else if (img->fmt->is_int) {
            /* each integer clamped to 255; R32_UINT as (r, 0, 0, 255) */
            uint32_t v[4] = {0, 0, 0, 255};
            memcpy(v, t, img->fmt->texel);
            for (int k = 0; k < 4; k++)
                o[k] = (uint8_t)(v[k] > 255u ? 255u : v[k]);
        } else {
            float c[4];
            tr__color_decode(img->ctx, img->desc.format, t, c);
            for (int k = 0; k < 4; k++)
                o[k] = tr__float_to_unorm8(c[k]);
        }
    }
    return TR_OK;
}

tr_result tr_image_write_png(const tr_image *img, const tr_subresource *sub, const char *path)
{
    tr__api_enter(img ? img->ctx : NULL);
    if (!img)
        return tr__error(NULL, TR_ERROR_INVALID_ARGUMENT, "tr_image_write_png: image is NULL");
    if (!path)
        return tr__error(img->ctx, TR_ERROR_INVALID_ARGUMENT, "tr_image_write_png: path is NULL");
    plane_view pv = {0};
    tr_result r = resolve_sub(img, sub, "tr_image_write_png", &pv);
    if (r != TR_OK)
        return r;
    uint8_t *px = tr__alloc(img->ctx, (size_t)pv.w * pv.h * 4);
    if (!px)
        return tr__error(img->ctx, TR_ERROR_OUT_OF_MEMORY, "tr_image_write_png: out of memory");
    r = tr_image_read_rgba8(img, sub, px);
    if (r == TR_OK && !stbi_write_png(path, (int)pv.w, (int)pv.h, 4, px, (int)pv.w * 4))
        r = tr__error(img->ctx, TR_ERROR_IO, "tr_image_write_png: cannot write '%s'", path);
    tr__free(img->ctx, px);
    return r;
}

tr_extent2d tr_image_stored_extent(const tr_image *img)
{
    if (!img)
        return (tr_extent2d){0, 0};
    return (tr_extent2d){tr__image_stored_w(img, 0), tr__image_stored_h(img, 0)};
}
