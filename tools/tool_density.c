/* tilerast-render --density-map radial (tool_density.h): parsing the
 * parameters and building the map.  Plain double arithmetic on texel
 * centres, so the map, and the render, are the same on every run. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool_density.h"
#include "tool_common.h"

#define RADIAL "radial"
#define RADIAL_LEN 6u
/* The library's texel sizes (fdm.h, tr_compute_fdm_areas): a texel covers
 * 2^ceil(log2(ceil(fb / map))) pixels per axis, clamped to these. */
#define TEXEL_MIN 32u
#define TEXEL_MAX 1024u
/* The largest radius accepted: 4 half extents is past every corner
 * (sqrt(2) for the centre, sqrt(10) for a fovea on an edge's middle). */
#define RADIUS_MAX 4.0
/* The warning of tilerast-render fires for a bin spanning more than this
 * many texels on an axis (warn_fine_map). */
#define BIN_TEXELS 4u

int tool_density_is_radial(const char *spec)
{
    return spec != NULL && strncmp(spec, RADIAL, RADIAL_LEN) == 0 &&
           (spec[RADIAL_LEN] == '\0' || spec[RADIAL_LEN] == ':');
}


/* A finite number filling [s, s + n) exactly; 0 on success. */
static int parse_number(const char *s, size_t n, double *out)
{
    char buf[64];
    if (n == 0 || n >= sizeof buf)
        return -1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    if (!(buf[0] == '-' || buf[0] == '+' || buf[0] == '.' || (buf[0] >= '0' && buf[0] <= '9')) ||
        strpbrk(buf, "xX") != NULL)
        return -1; /* strtod would skip spaces and read "inf", "nan" and hex */
    errno = 0;
    char *end;
    double v = strtod(buf, &end);
    if (errno != 0 || end != buf + n || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

/* One KEY=VALUE of [s, s + n). */
static int parse_pair(const char *s, size_t n, tool_density_radial *p, unsigned *seen, char *msg, size_t msg_size)
{
    static const char *const keys[] = {"centre", "center", "inner", "outer", "shift", "texel"};
    const char *eq = memchr(s, '=', n);
    if (eq == NULL)
        return tool_fail(msg, msg_size,
                    "--density-map radial: '%.*s' is not KEY=VALUE (keys: centre=X,Y inner=R outer=R shift=S "
                    "texel=N|auto; e.g. radial:centre=0.5,0.45:inner=0.4:outer=0.7)",
                    (int)n, s);
    const size_t kn = (size_t)(eq - s);
    const char *v = eq + 1;
    const size_t vn = n - kn - 1;
    unsigned k = 0;
    while (k < sizeof keys / sizeof keys[0] && !(strlen(keys[k]) == kn && memcmp(keys[k], s, kn) == 0))
        k++;
    if (k == sizeof keys / sizeof keys[0])
        return tool_fail(msg, msg_size,
                    "--density-map radial: unknown parameter '%.*s' (centre=X,Y inner=R outer=R shift=S texel=N|auto)",
                    (int)kn, s);
    const unsigned bit = 1u << (k == 1 ? 0 : k); /* centre and center are one key */
    if (*seen & bit)
        return tool_fail(msg, msg_size, "--density-map radial: '%.*s' is given twice", (int)kn, s);
    *seen |= bit;
    double a = 0.0, b = 0.0;
    switch (k) {
    case 0:
    case 1: {
        const char *comma = memchr(v, ',', vn);
        if (comma == NULL || parse_number(v, (size_t)(comma - v), &a) != 0 ||
            parse_number(comma + 1, vn - (size_t)(comma - v) - 1, &b) != 0 || a < 0.0 || a > 1.0 || b < 0.0 ||
            b > 1.0)
            return tool_fail(msg, msg_size,
                        "--density-map radial: %.*s wants X,Y, fractions of the width and height in 0..1, not '%.*s'",
                        (int)kn, s, (int)vn, v);
        p->centre_x = a;
        p->centre_y = b;
        return 0;
    }
    case 2:
    case 3:
        if (parse_number(v, vn, &a) != 0 || a < 0.0 || a > RADIUS_MAX)
            return tool_fail(msg, msg_size,
                        "--density-map radial: %.*s wants a radius in half extents, 0..%g, not '%.*s'", (int)kn, s,
                        RADIUS_MAX, (int)vn, v);
        *(k == 2 ? &p->inner : &p->outer) = a;
        return 0;
    case 4:
        if (parse_number(v, vn, &a) != 0 || a < 0.0 || a > 0.5)
            return tool_fail(msg, msg_size, "--density-map radial: shift wants a fraction of the width 0..0.5, not '%.*s'",
                        (int)vn, v);
        p->shift = a;
        return 0;
    default:
        if (vn == 4 && memcmp(v, "auto", 4) == 0) {
            p->texel = 0;
            return 0;
        }
        if (parse_number(v, vn, &a) != 0 || a != floor(a) || a < TEXEL_MIN || a > TEXEL_MAX ||
            ((uint32_t)a & ((uint32_t)a - 1u)) != 0)
            return tool_fail(msg, msg_size,
                        "--density-map radial: texel wants auto or the pixels a texel covers, a power of two "
                        "%u..%u, not '%.*s'",
                        TEXEL_MIN, TEXEL_MAX, (int)vn, v);
        p->texel = (uint32_t)a;
        return 0;
    }
}

int tool_density_parse(const char *spec, tool_density_radial *out, char *msg, size_t msg_size)
{
    tool_density_radial p = {.centre_x = 0.5,
                             .centre_y = 0.5,
                             .inner = TOOL_DENSITY_DEFAULT_INNER,
                             .outer = TOOL_DENSITY_DEFAULT_OUTER,
                             .shift = TOOL_DENSITY_DEFAULT_SHIFT};
    if (!tool_density_is_radial(spec))
        return tool_fail(msg, msg_size, "--density-map: '%s' is not radial[:KEY=VALUE...]", spec ? spec : "");
    unsigned seen = 0;
    const char *s = spec + RADIAL_LEN;
    while (*s == ':') {
        s++;
        const char *end = strchr(s, ':');
        const size_t n = end ? (size_t)(end - s) : strlen(s);
        if (parse_pair(s, n, &p, &seen, msg, msg_size) != 0)
            return -1;
        s += n;
    }
    if (p.inner > p.outer)
        return tool_fail(msg, msg_size, "--density-map radial: inner (%g) is beyond outer (%g)", p.inner, p.outer);
    *out = p;
    return 0;
}

uint32_t tool_density_texel(const tool_density_radial *p, uint32_t bin)
{
    if (p->texel != 0)
        return p->texel;
    uint32_t t = TEXEL_MIN;
    while (BIN_TEXELS * t < bin && t < TEXEL_MAX)
        t *= 2;
    return t;
}

tr_result tool_density_layout(tr_context *ctx, const tr_render_pass_desc *rp, uint32_t map_flags,
                              tr_bin_layout *out)
{
    const tr_image_desc md = {.format = TR_FORMAT_R8G8_UNORM, .width = 1, .height = 1, .flags = map_flags};
    tr_image *map = NULL;
    tr_result r = tr_image_create(ctx, &md, &map);
    if (r != TR_OK)
        return r;
    tr_render_pass_desc d = *rp;
    d.density_map.image = map;
    d.density_map.base_layer = 0;
    r = tr_compute_bin_layout(ctx, &d, out);
    tr_image_destroy(map);
    return r;
}

/* The pixels a texel covers when a map of `map` texels spans `fb` pixels:
 * fdm.h's rule (tr_compute_fdm_areas), so the texel centres below are the
 * ones the pass sees. */
static uint32_t texel_span(uint32_t fb, uint32_t map)
{
    const uint32_t ratio = (fb + map - 1) / map;
    uint32_t span = TEXEL_MIN;
    while (span < ratio && span < TEXEL_MAX)
        span *= 2;
    return span;
}

/* The centre of texel i's part of [0, fb): its pixels past the edge are
 * never read. */
static double texel_centre(uint32_t i, uint32_t span, uint32_t fb)
{
    const uint32_t a = i * span, b = (i + 1u) * span;
    return 0.5 * ((double)a + (double)(b < fb ? b : fb));
}

/* Where each of the n texels of an axis is evaluated (tool_density.h):
 * the sample the pass takes for a bin whose centre lies in the texel,
 * (x1 + min(x2, fb)) / 2 in integers (fdm.h, tr_compute_fdm_areas), the
 * one nearest the texel's centre when it holds several; else the texel's
 * centre.  Bins whose centres sit on texel edges (a bin of 512 pixels,
 * texels of 128) would otherwise read a point up to half a texel off, and
 * not the same way on both sides of the fovea. */
static void axis_points(uint32_t fb, uint32_t n, uint32_t span, int32_t origin, uint32_t bin, uint32_t bins,
                        double *out)
{
    for (uint32_t i = 0; i < n; i++)
        out[i] = texel_centre(i, span, fb);
    for (uint32_t k = 0; k < bins && bin > 0; k++) {
        const int64_t x1 = (int64_t)origin + (int64_t)k * bin, x2 = x1 + bin;
        if (x1 >= (int64_t)fb)
            break;
        const int64_t s = (x1 + (x2 < (int64_t)fb ? x2 : (int64_t)fb)) / 2;
        uint32_t i = s < 0 ? 0u : (uint32_t)(s / span);
        if (i >= n)
            i = n - 1u;
        const double c = texel_centre(i, span, fb);
        if (out[i] == c || fabs((double)s - c) < fabs(out[i] - c))
            out[i] = (double)s;
    }
}

tr_result tool_density_build(tr_context *ctx, const tool_density_radial *p, uint32_t width, uint32_t height,
                             uint32_t views, const tr_bin_layout *bins, uint32_t image_flags, tr_image **out)
{
    *out = NULL;
    if (views == 0)
        views = 1;
    if (width == 0 || height == 0 || views > TR_MAX_VIEWS)
        return TR_ERROR_INVALID_ARGUMENT;
    const uint32_t tw = tool_density_texel(p, bins->bin_w), th = tool_density_texel(p, bins->bin_h);
    const uint32_t mw = (width + tw - 1) / tw, mh = (height + th - 1) / th;
    const uint32_t sx = texel_span(width, mw), sy = texel_span(height, mh);
    const tr_image_desc d = {.format = TR_FORMAT_R8G8_UNORM, .width = mw, .height = mh, .layers = views,
                             .flags = image_flags};
    uint8_t *texels = malloc((size_t)mw * mh * 2u);
    double *px = malloc(((size_t)mw + mh) * sizeof *px);
    if (texels == NULL || px == NULL) {
        free(texels);
        free(px);
        return TR_ERROR_OUT_OF_MEMORY;
    }
    double *py = px + mw;
    axis_points(width, mw, sx, bins->origin_x, bins->bin_w, bins->bins_x, px);
    axis_points(height, mh, sy, bins->origin_y, bins->bin_h, bins->bins_y, py);
    tr_image *map = NULL;
    tr_result r = tr_image_create(ctx, &d, &map);
    const double hw = 0.5 * width, hh = 0.5 * height;
    for (uint32_t v = 0; v < views && r == TR_OK; v++) {
        const double side = views > 1 ? 1.0 - 2.0 * v / (views - 1u) : 0.0;
        const double cx = (p->centre_x + p->shift * side) * width, cy = p->centre_y * height;
        for (uint32_t j = 0; j < mh; j++)
            for (uint32_t i = 0; i < mw; i++) {
                const double dx = (px[i] - cx) / hw, dy = (py[j] - cy) / hh;
                const double rr = dx * dx + dy * dy; /* compared squared: no sqrt to round */
                const uint8_t dens = rr <= p->inner * p->inner   ? TOOL_DENSITY_FULL
                                     : rr <= p->outer * p->outer ? TOOL_DENSITY_HALF
                                                                 : TOOL_DENSITY_QUARTER;
                texels[((size_t)j * mw + i) * 2u] = dens;
                texels[((size_t)j * mw + i) * 2u + 1u] = dens;
            }
        r = tr_image_upload(map, &(tr_subresource){.layer = v}, texels, 0);
    }
    free(texels);
    free(px);
    if (r != TR_OK) {
        tr_image_destroy(map);
        return r;
    }
    *out = map;
    return TR_OK;
}

int tool_density_view_path(const char *path, uint32_t view, char *out, size_t out_size)
{
    int n;
    if (view == 0) {
        n = snprintf(out, out_size, "%s", path);
    } else {
        const char *slash = strrchr(path, '/');
        const char *base = slash ? slash + 1 : path;
        const char *dot = strrchr(base, '.');
        if (dot == NULL || dot == base) /* no extension, or a dot file */
            n = snprintf(out, out_size, "%s.view%u", path, view);
        else
            n = snprintf(out, out_size, "%.*s.view%u%s", (int)(dot - path), path, view, dot);
    }
    return n >= 0 && (size_t)n < out_size ? 0 : -1;
}
