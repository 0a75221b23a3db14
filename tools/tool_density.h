/* tilerast-render --density-map radial[:KEY=VALUE...]: a foveated fragment
 * density map the tool builds itself (README.md, "Fragment density maps"),
 * one layer per view, instead of one read from a PNG.  Not part of the
 * library's API: the parameters, their defaults and the rule below are the
 * ones --help and the README print.
 *
 * The rule, per texel of layer (view) v: r is the distance of a point to
 * the view's fovea with x measured in half widths and y in half heights
 * (r = 1 reaches the middle of each edge, as in examples/fdm_foveated.c);
 * the density (red and green alike) is 255 (full) for r <= inner, 127
 * (half: 2x2 fragments) for r <= outer, and 63 (a quarter: 4x4 fragments)
 * beyond.  The point is the one the pass samples for the bin whose centre
 * lies in the texel (each bin reads one texel, under its centre: fdm.h),
 * so every bin gets the density of its own centre; a texel no bin reads
 * is evaluated at the centre of its part of the framebuffer. */
#ifndef TILERAST_TOOL_DENSITY_H
#define TILERAST_TOOL_DENSITY_H

#include <stddef.h>
#include <stdint.h>

#include <tilerast/tilerast.h>

/* The densities of the three rings (255 = every pixel, 127 = half, 63 = a
 * quarter: fdm.h's rule gives them areas 1x1, 2x2 and 4x4). */
#define TOOL_DENSITY_FULL 255u
#define TOOL_DENSITY_HALF 127u
#define TOOL_DENSITY_QUARTER 63u

/* The defaults of radial's parameters: a fovea at the centre of the
 * picture, full density out to 0.55 half extents (an ellipse 55% of the
 * width and height across) and half density out to 0.8, a quarter beyond
 * (the corners); with several views each view's fovea moves 0.05 of the
 * width towards the nose (the left eye's, view 0, to the right), as
 * headset lenses sit.  Chosen for the bins a model gets by default
 * (1024x768 on the a630: 2 x 3 bins of 512 x 256, whose centres lie 0.5
 * and 0.83 half extents out): the middle two bins full, the corners a
 * quarter; finer bins (--gmem) draw the rings more closely. */
#define TOOL_DENSITY_DEFAULT_INNER 0.55
#define TOOL_DENSITY_DEFAULT_OUTER 0.8
#define TOOL_DENSITY_DEFAULT_SHIFT 0.05

typedef struct tool_density_radial {
    double centre_x, centre_y; /* centre=X,Y: the fovea, fractions of the width and height from the
                                  top-left corner (the picture's, whatever the pass's origin), 0..1;
                                  default 0.5,0.5 */
    double inner, outer;       /* inner=R, outer=R: the radii of full and half density, half extents,
                                  0 <= inner <= outer <= 4 */
    double shift;              /* shift=S: with N > 1 views, view v's fovea is at centre_x +
                                  S * (1 - 2v / (N - 1)): +S for view 0, -S for the last; 0..0.5 */
    uint32_t texel;            /* texel=N: the pixels a texel covers per axis, a power of two 32..1024;
                                  0 (the default, or texel=auto): the finest each axis may have without
                                  a bin spanning more than four texels (tool_density_texel) */
} tool_density_radial;

/* 1 when spec asks for the radial map ("radial", or "radial:" and
 * parameters), 0 when it names a PNG file (a PNG called "radial" is
 * "./radial"). */
int tool_density_is_radial(const char *spec);

/* Parses "radial" or "radial:KEY=VALUE[:KEY=VALUE...]" (keys centre (or
 * center), inner, outer, shift, texel; each at most once) into *out, the
 * defaults for keys not given.  0, or -1 with a message in msg naming
 * --density-map, the key and what it wants. */
int tool_density_parse(const char *spec, tool_density_radial *out, char *msg, size_t msg_size);

/* The texel size (pixels per axis) of an axis whose bins are `bin` pixels:
 * p->texel when given, else the smallest power of two in [32, 1024] with
 * 4 x texel >= bin, so that tilerast-render's warning about maps finer than
 * the bins (a bin spanning more than four texels) stays quiet while each
 * bin centre reads a texel evaluated as near it as that allows. */
uint32_t tool_density_texel(const tool_density_radial *p, uint32_t bin);

/* The bin layout the pass `rp` gets with a density map (a pass with one
 * gets a grid of its own, fdm.h): tr_compute_bin_layout of rp with a 1x1
 * map of one layer in place of rp->density_map.image (the grid does not
 * depend on the map's contents).  map_flags: the map's creation flags
 * (TR_IMAGE_FDM_OFFSET when the attachments have it). */
tr_result tool_density_layout(tr_context *ctx, const tr_render_pass_desc *rp, uint32_t map_flags,
                              tr_bin_layout *out);

/* Creates the R8G8_UNORM map of a width x height framebuffer for `views`
 * views (0 counts as 1; one layer per view) and bins of the layout's size:
 * ceil(width / tw) x ceil(height / th) texels, tw and th from
 * tool_density_texel, each texel as the rule above says.  image_flags: the
 * map's creation flags.  TR_OK with *out an image of ctx, or the failing
 * call's result (the context's message says more). */
tr_result tool_density_build(tr_context *ctx, const tool_density_radial *p, uint32_t width, uint32_t height,
                             uint32_t views, const tr_bin_layout *bins, uint32_t image_flags, tr_image **out);

/* The file of view `view` of an output: `path` itself for view 0, else
 * path with ".view<N>" inserted before its extension (the last '.' of the
 * last path component; appended when there is none): out.png ->
 * out.view1.png.  0, or -1 when it does not fit in out_size bytes. */
int tool_density_view_path(const char *path, uint32_t view, char *out, size_t out_size);

#endif
