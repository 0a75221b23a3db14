/* tilerast: the neutral scene file ("SRSCENE1", "SRSCENE2" for lines and
 * points, "SRSCENE3" for scenes that name their shaders; README.md, "The
 * scene file", and bench/SCENES.md).
 *
 * A scene is a list of triangles (or lines, or points) in clip space with unorm8 colours, drawn
 * with OpenGL conventions (y-up window, BOTTOM_LEFT ties, depth range [0,1]).
 * Reading validates everything; rendering draws it with tilerast. */
#ifndef TILERAST_SCENE_H
#define TILERAST_SCENE_H

#include <stddef.h>
#include <stdint.h>

#include "renderpass.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TR_SCENE_DEPTH 1u       /* depth test LESS with write, cleared to clear_depth */
#define TR_SCENE_BLEND_ALPHA 2u /* rgb = s*a + d*(1-a), a = a + d.a*(1-a) */
#define TR_SCENE_BLEND_ADD 4u   /* dst = min(1, src + dst) */
#define TR_SCENE_FLAT 8u        /* every fragment takes the first vertex's colour */
/* Version 2 ("SRSCENE2", bench/SCENES.md): lines and points, sized by
 * tr_scene.size.  GL's aliased lines are Bresenham's (diamond exit). */
#define TR_SCENE_LINES 16u      /* a line list: vertices 2i, 2i+1; Bresenham lines of width size
                                   (rounded to an integer, as GL's aliased wide lines);
                                   rendered multisampled, rectangular (as GL) */
#define TR_SCENE_POINTS 32u     /* a point list of point size `size` */
#define TR_SCENE_RECT_LINES 64u /* with LINES: rectangular lines (VK_EXT_line_rasterization's
                                   RECTANGULAR; GL draws them for multisampled targets) */

#define TR_SCENE_MAX_TRIANGLES (1u << 26)

/* Version 3 ("SRSCENE3"): the bytes of tr_scene.vertex_shader and
 * fragment_shader, NUL included; a path holds at most
 * TR_SCENE_MAX_PATH - 1 bytes.  256 is ample for a path relative to the
 * scene's folder and keeps tr_scene a plain value. */
#define TR_SCENE_MAX_PATH 256u

typedef struct tr_scene_vertex {
    float x, y, z, w;     /* clip space */
    uint8_t r, g, b, a;
} tr_scene_vertex;

typedef struct tr_scene {
    uint32_t width, height; /* 1..TR_MAX_IMAGE_SIZE */
    uint32_t flags;         /* TR_SCENE_* */
    uint8_t clear_color[4];
    float clear_depth;
    uint32_t triangle_count;   /* primitives: triangles, or lines or points by the flags */
    tr_scene_vertex *vertices; /* tr_scene_prim_vertices(flags) * triangle_count, owned by the scene */
    float size;                /* line width or point size in pixels, [1, 64] (version 1: 1) */
    /* Version 3: the shader files the scene is drawn with, for the programs
     * that compile them (tilerast-render); the library itself neither reads
     * nor uses them (tr_scene_render_options takes SPIR-V modules).  UTF-8,
     * NUL-terminated, no NUL inside; "" (the zero default) = the built-in
     * shader of that stage.  A relative path is relative to the folder of
     * the scene file.  tr_scene_save writes version 3 when either is not
     * empty, else version 1 or 2 as before. */
    char vertex_shader[TR_SCENE_MAX_PATH];
    char fragment_shader[TR_SCENE_MAX_PATH];
} tr_scene;

/* Vertices per primitive: 3, or 2 with TR_SCENE_LINES, 1 with TR_SCENE_POINTS. */
TR_API uint32_t tr_scene_prim_vertices(uint32_t flags);

/* Parses a scene from memory.  On error returns TR_ERROR_BAD_FILE (or
 * TR_ERROR_LIMIT_EXCEEDED / TR_ERROR_OUT_OF_MEMORY) and, if msg is not NULL,
 * writes a message naming the problem into msg (msg_size bytes).  A shader
 * path of version 3 that is too long, runs past the end of the file,
 * holds a NUL byte or is not UTF-8 is TR_ERROR_BAD_FILE, the message
 * naming the field (vertex_shader or fragment_shader).  tr_scene_save
 * refuses (TR_ERROR_INVALID_ARGUMENT) a path that is not NUL-terminated
 * within TR_SCENE_MAX_PATH bytes or not UTF-8. */
TR_API tr_result tr_scene_parse(const void *data, size_t size, tr_scene *out, char *msg, size_t msg_size);
TR_API tr_result tr_scene_load(const char *path, tr_scene *out, char *msg, size_t msg_size);
TR_API tr_result tr_scene_save(const tr_scene *scene, const char *path);
TR_API void tr_scene_free(tr_scene *scene);

/* How tr_scene_render_with draws a scene; all zero (or a NULL pointer)
 * for the defaults, which are what tr_scene_render does. */
typedef struct tr_scene_render_options {
    /* The pass's fragment density map (fdm.h); image NULL = none.  One
     * view: layer base_layer is read. */
    tr_density_map density_map;
    /* The pass's TR_PASS_* flags (0 = none); the pass validates them (a
     * density map with TR_PASS_SINGLE_BIN is refused, for one). */
    uint32_t pass_flags;
    /* Creation flags (TR_IMAGE_*) of the temporary depth image, e.g.
     * TR_IMAGE_FDM_OFFSET so that a density map's offsets are honoured
     * (the caller's images need the flag too). */
    uint32_t image_flags;
    /* Samples per pixel (multisample.h): 0 or 1 renders `color` directly;
     * 2, 4 or 8 render into a temporary multisampled colour image (and a
     * multisampled depth image, the caller's `depth` if it has that many
     * samples) that the pass resolves into `color` as it stores; the
     * samples themselves are not stored. */
    uint32_t samples;
    /* SPIR-V stages (shader.h) instead of the built-in C shaders; NULL
     * keeps the C shader of that stage (each stage chosen on its own).
     * shaders/scene.vert and shaders/scene.frag are the C shaders' GLSL
     * twins and draw the same bytes.  The interface a module must have:
     *   - vertex stage: input location 0 reads the vertex's position (the
     *     scene's vertices are bound as vertex buffer 0, 20 bytes apart:
     *     location 0 R32G32B32A32_SFLOAT at offset 0, location 1
     *     R8G8B8A8_UNORM, i.e. c / 255, at offset 16, tr_scene_vertex's
     *     layout); it writes gl_Position and output location 0 (the colour
     *     varying), and gl_PointSize for point scenes;
     *   - the push-constant block holds the scene's point size as a float
     *     at offset 0 (both stages may read it; nothing else is defined);
     *   - fragment stage: input location 0 is the colour varying, output
     *     location 0 colour attachment 0; no textures or uniform buffers.
     *     For a TR_SCENE_FLAT scene the input must be `flat` (scene.* with
     *     SCENE_FLAT defined): the pipeline derives flat_mask from the
     *     module, and a smooth module for a flat scene fails with
     *     TR_ERROR_INVALID_DESCRIPTOR naming flat_mask.  For other scenes
     *     the module's own interpolation is used.
     * The modules are only read while tr_scene_render_with runs (its
     * pipeline is made and destroyed there). */
    const struct tr_shader_module *vertex_module;
    const struct tr_shader_module *fragment_module;
} tr_scene_render_options;

/* Renders the scene into `color` (R8G8B8A8_UNORM, scene size) in one render
 * pass with `options` (NULL = the defaults).  The pass, for tools that
 * rebuild its descriptor (tr_compute_bin_layout, tr_fdm_write_png): colour
 * attachment 0 is `color` (CLEAR to the scene's clear colour, STORE); when
 * the scene has TR_SCENE_DEPTH, the depth attachment is a D32_SFLOAT image
 * (CLEAR to clear_depth clamped to [0, 1], DONT_CARE store, stencil
 * DONT_CARE); the render area is the whole image, no multiview; flags and
 * density map from `options`, plus TR_PASS_ORIGIN_LOWER_LEFT (the scene is
 * OpenGL's: window y up, computed bottom-up, viewport (0, 0, width,
 * height)).  The depth image is the caller's `depth`
 * (D32_SFLOAT, scene size) when it is not NULL, else a temporary one; after
 * the pass the caller's holds the pass's LRZ buffer (tr_image_write_lrz_png);
 * its depth texels are not written (DONT_CARE).  A scene without depth
 * leaves `depth` alone (it is still checked when given).  With
 * options->samples above 1, `depth` must have that many samples, and the
 * pass's colour attachment 0 is the temporary multisampled image, resolving
 * into `color` (DONT_CARE store).  stats may be
 * NULL.  TR_ERROR_INVALID_ARGUMENT for a NULL ctx, scene or color, a scene
 * that tr_scene_parse would refuse, or images of the wrong format or size;
 * otherwise what the pass returns (with the context's message). */
TR_API tr_result tr_scene_render_with(tr_context *ctx, const tr_scene *scene,
                                      const tr_scene_render_options *options, tr_image *color,
                                      tr_image *depth, tr_pass_stats *stats);

/* The descriptor of the pass tr_scene_render_with records for `scene`
 * into `color` with `depth` (the depth image it uses: the caller's or its
 * temporary one; ignored for a scene without TR_SCENE_DEPTH) and `options`
 * (NULL = the defaults): for tr_compute_bin_layout, tr_compute_fdm_areas
 * and tr_fdm_write_png, which then see the same bins and areas.  `color`
 * is attachment 0 as given: for a multisampled pass pass the multisampled
 * image (the bins count its samples) and set color[0].resolve_image. */
TR_API tr_render_pass_desc tr_scene_pass_desc(const tr_scene *scene, tr_image *color, tr_image *depth,
                                              const tr_scene_render_options *options);

/* tr_scene_render_with with the default options and a temporary depth
 * image. */
TR_API tr_result tr_scene_render(tr_context *ctx, const tr_scene *scene, tr_image *color,
                          tr_pass_stats *stats);
/* tr_scene_render_with with the default options and the caller's depth
 * image (may be NULL). */
TR_API tr_result tr_scene_render_depth(tr_context *ctx, const tr_scene *scene, tr_image *color,
                                       tr_image *depth, tr_pass_stats *stats);

#ifdef __cplusplus
}
#endif
#endif
