/* Test helpers shared by the Criterion suites.
 *
 * A standard pipeline whose vertex shader reads positions and colours from a
 * vertex array named in the draw's uniforms, helpers that render triangles
 * given in pixel coordinates, read pixels back and hash them, and an
 * independent reference rasterizer (1/256 px snapping, exact integer edge
 * functions, both tie rules) that tests compare the library against.
 * Every helper asserts on failure, so tests stay short. */
#ifndef TRTEST_H
#define TRTEST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <criterion/criterion.h>
#include <tilerast/tilerast.h>

/* ---- assertions on tr_result ------------------------------------------------ */

#define TRT_OK(call)                                                              \
    do {                                                                          \
        tr_result trt_r_ = (call);                                                \
        cr_assert_eq(trt_r_, TR_OK, "%s returned %s", #call, tr_result_string(trt_r_)); \
    } while (0)

#define TRT_EXPECT(call, code)                                                    \
    do {                                                                          \
        tr_result trt_r_ = (call);                                                \
        cr_expect_eq(trt_r_, (code), "%s returned %s, expected %s", #call,       \
                     tr_result_string(trt_r_), tr_result_string(code));           \
    } while (0)

/* ---- vertices and the standard shaders ------------------------------------- */

typedef struct trt_vertex {
    float pos[4];   /* clip space */
    float color[4]; /* varying 0 */
} trt_vertex;

/* What trt_vs and the trt_fs_* shaders read (passed with tr_cmd_set_uniforms).
 * `vertices` is only dereferenced by the vertex shader, which runs during
 * tr_cmd_draw: the array must outlive the draw call only. */
typedef struct trt_uniforms {
    const trt_vertex *vertices;
    uint32_t instance_stride;          /* vertex index += instance_index * stride */
    float instance_dx;                 /* clip x += instance_index * dx * w */
    float view_offset[TR_MAX_VIEWS][2]; /* clip xy += offset * w for each view */
    float color[TR_MAX_COLOR_ATTACHMENTS][4]; /* trt_fs_uniform's outputs */
    float depth;                       /* trt_fs_depth_uniform's output */
    uint32_t discard_parity;           /* trt_fs_discard: 0 = (x+y) even, 1 = odd */
} trt_uniforms;

/* position = vertices[vertex_index + instance * stride].pos (+ offsets);
 * varying 0 = its colour. */
void trt_vs(tr_vs_batch *b);
/* colour of every attachment = varying 0 */
void trt_fs_varying(tr_fs_block *b);
/* colour of attachment k = uniforms->color[k] */
void trt_fs_uniform(tr_fs_block *b);
/* trt_fs_uniform, and discards lanes whose pixel has (x+y)&1 == discard_parity */
void trt_fs_discard(tr_fs_block *b);
/* trt_fs_uniform, and writes depth = uniforms->depth */
void trt_fs_depth_uniform(tr_fs_block *b);

/* ---- objects ------------------------------------------------------------------ */

tr_context *trt_context(uint32_t threads);
tr_context *trt_context_desc(const tr_context_desc *desc);
tr_image *trt_image(tr_context *ctx, tr_format format, uint32_t w, uint32_t h);
tr_image *trt_image_layers(tr_context *ctx, tr_format format, uint32_t w, uint32_t h,
                           uint32_t layers);
/* Creates a pipeline from desc (may be NULL); vertex_shader defaults to trt_vs,
 * fragment_shader to trt_fs_varying and varying_count to 1 when left zero. */
tr_pipeline *trt_pipeline(tr_context *ctx, const tr_pipeline_desc *desc);

/* ---- geometry ------------------------------------------------------------------ */

/* Clip-space vertex (w = 1) landing on pixel coordinates (px, py) under the
 * default viewport of a w x h render area at the origin. */
trt_vertex trt_vpx(float px, float py, float z, uint32_t w, uint32_t h, const float color[4]);
/* Sets uniforms {vertices = v} (other fields from `base` if not NULL) and draws. */
void trt_draw(tr_context *ctx, const trt_vertex *v, uint32_t count);
void trt_draw_u(tr_context *ctx, const trt_uniforms *base, const trt_vertex *v, uint32_t count);

/* Begins a pass with one colour attachment (CLEAR to `clear`, STORE). */
void trt_begin_color(tr_context *ctx, tr_image *color, const float clear[4]);
/* Begins a pass with one colour attachment (CLEAR to 0, STORE) and a depth
 * attachment cleared to 1, with render-pass flags `pass_flags`. */
void trt_begin_color_depth(tr_context *ctx, tr_image *color, tr_image *depth, uint32_t pass_flags);

/* ---- multisampled passes (multisample.h) ----------------------------------------- */

/* An image with `samples` per pixel (0: left to the default, one). */
tr_image *trt_image_ms(tr_context *ctx, tr_format format, uint32_t w, uint32_t h, uint32_t samples);
/* A pass over `color` (CLEAR to 0, STORE) and the D32 `depth` (CLEAR to
 * 1, STORE; NULL: none), nothing else set. */
tr_render_pass_desc trt_pass_desc(tr_image *color, tr_image *depth);
/* Begins a pass with render-pass flags `pass_flags` over `color` (CLEAR
 * to 0, STORE) and the D32 `depth` (CLEAR to 1, STORE; NULL: none) with,
 * when density > 0, a 5x4 density map of that value in both axes (fdm.h). */
void trt_begin_ms(tr_context *ctx, tr_image *color, tr_image *depth, float density, uint32_t pass_flags);
/* CRC of every sample of a colour image and of a D32 depth image, in
 * sample order (images of w x h, at most 160 x 120; n samples). */
uint32_t trt_crc_samples(const tr_image *color, const tr_image *depth, uint32_t n);

/* ---- pixels ------------------------------------------------------------------- */

void trt_download(const tr_image *image, uint32_t level, uint32_t layer, tr_aspect aspect,
                  void *out);
/* Bytes of one whole subresource (level 0) of `aspect`. */
size_t trt_subresource_bytes(const tr_image *image, tr_aspect aspect);

uint32_t trt_crc32(const void *data, size_t n, uint32_t crc);

/* Renders triangles (3 * tri_count points, pixel coordinates) into a fresh
 * w x h RGBA8 target with additive blending of 1/255, so that the red byte
 * of each pixel counts the triangles that covered it.  counts gets w*h bytes.
 * stats may be NULL. */
typedef struct trt_hit_opts {
    tr_tie_rule tie_rule;
    tr_topology topology;
    uint32_t threads;     /* 0 = 1 */
    uint32_t gmem_bytes;  /* 0 = default */
    uint32_t pass_flags;
    const uint32_t *indices; /* if set: draw_indexed with index_count indices (U32) */
    uint32_t index_count;
} trt_hit_opts;
void trt_hit_counts(const trt_hit_opts *opts, uint32_t w, uint32_t h, const float (*xy)[2],
                    uint32_t point_count, uint8_t *counts, tr_pass_stats *stats);
/* The same with clip-space vertices. */
void trt_hit_counts_clip(const trt_hit_opts *opts, uint32_t w, uint32_t h, const trt_vertex *v,
                         uint32_t vertex_count, uint8_t *counts, tr_pass_stats *stats);

/* ---- the reference rasterizer ---------------------------------------------------- */

/* 1/256 pixel snapping, round to nearest. */
int64_t trt_snap(double p);
/* Adds 1 to acc[y*w+x] for every pixel of the w x h grid the triangle covers
 * (pixel coordinates; Vulkan rules; zero-area triangles cover nothing).
 * Returns the number of pixels covered. */
uint32_t trt_ref_triangle(const float tri[3][2], tr_tie_rule tie, uint32_t w, uint32_t h,
                          uint8_t *acc);
/* cov[y*w+x]: bit s set when the triangle (pixel coordinates, top-left
 * rule) covers sample s of the pixel, n samples at tr_sample_position's
 * places (n = 1: the centre).  Sample s at (x + sx, y + sy) lies in the
 * triangle when the pixel centre lies in the triangle moved by
 * (0.5 - sx, 0.5 - sy): trt_ref_triangle's centre test.  Exact when the
 * vertices are on the 1/256 grid and stay there moved by whole sixteenths. */
void trt_ref_sample_coverage(const float tri[3][2], uint32_t n, uint32_t w, uint32_t h, uint8_t *cov);

/* Compares two w x h byte maps; on a mismatch prints both (small maps) and
 * fails with the first differing pixel. */
void trt_assert_maps_eq(const uint8_t *got, const uint8_t *want, uint32_t w, uint32_t h,
                        const char *what);
/* Builds a 0/1 map from rows of '#' (1) and '.' (0). */
void trt_map_from_rows(const char *const *rows, uint32_t w, uint32_t h, uint8_t *out);

/* ---- PRNG (splitmix64) ---------------------------------------------------------- */

typedef struct trt_rng { uint64_t s; } trt_rng;
uint32_t trt_rand_u32(trt_rng *r);
/* uniform in [lo, hi) */
double trt_rand_range(trt_rng *r, double lo, double hi);

/* A w x h texture of `layers` layers and `levels` levels (TR_LEVELS_ALL:
 * the whole chain) of format f filled with random texels from `seed`:
 * depths in [0, 1] (D32_SFLOAT), halves in [0.125, 1) (R16G16B16A16_SFLOAT),
 * random bytes otherwise (a 4-byte texel format).  Asserts on failure. */
tr_image *trt_random_texture(tr_context *ctx, tr_format f, uint32_t w, uint32_t h, uint32_t layers, uint32_t levels,
                             uint64_t seed);
/* A random coordinate in [lo, hi) on the 1/1024 grid that is never a rounding
 * tie of 1/256 snapping (odd multiples of 1/512 are avoided). */
float trt_rand_coord(trt_rng *r, float lo, float hi);
/* Moves a coordinate on the 1/1024 grid off a 1/256 rounding tie (adds 1/1024
 * to odd multiples of 1/512). */
float trt_untie(float x);

#endif
