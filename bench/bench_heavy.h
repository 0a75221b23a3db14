/* The shader-heavy bench scene (issue 30): per-pixel lighting with a normal
 * map and five texture samples on a full-screen tessellated plane, meant
 * for 1920 x 1080 (BENCH_HEAVY_WIDTH x HEIGHT; any size draws the same
 * picture scaled).  One draw, either through the GLSL shaders
 * shaders/bench/heavy.vert + heavy.frag compiled by shaderc (SPIR-V) or
 * through their C twins (the same operations in the same order, so the
 * images are byte-identical: tests/shader/test_glsl_twins.c).
 *
 * For an OpenGL runner the scene is exposed as data: the vertex and index
 * arrays, the uniform bytes (push constants for Vulkan; the same bytes are
 * the std140 block `Uniforms` at uniform-buffer binding 0 in OpenGL), the
 * texels of every level of the three textures (texture units / sampler
 * bindings 0, 1, 2: RGBA8 UNORM, trilinear, repeat, no anisotropy), and
 * the GLSL text (compile it as is for OpenGL 4.5 core: VULKAN is not
 * defined there).  Fixed-function state: triangle list, no culling, no
 * depth test, no blending; the pass needs only a colour attachment. */
#ifndef BENCH_HEAVY_H
#define BENCH_HEAVY_H

#include <stdbool.h>
#include <stdint.h>

#include <tilerast/tilerast.h>

#define BENCH_HEAVY_WIDTH 1920u
#define BENCH_HEAVY_HEIGHT 1080u
#define BENCH_HEAVY_TEX_SIZE 512u  /* each texture, level 0; full mip chains (10 levels) */
#define BENCH_HEAVY_TEXTURES 3u    /* 0 albedo, 1 normal map, 2 roughness / AO / specular mask */

/* Vertex attributes, locations 0..3 of binding 0 (48-byte stride). */
typedef struct bench_heavy_vertex {
    float pos[3];      /* location 0, offset 0 */
    float normal[3];   /* location 1, offset 12 */
    float tangent[4];  /* location 2, offset 24: xyz tangent, w handedness */
    float uv[2];       /* location 3, offset 40 */
} bench_heavy_vertex;

/* The uniforms (240 bytes); every member a mat4 or vec4, so the push
 * constant (std430) and std140 layouts are these bytes. */
typedef struct bench_heavy_uniforms {
    float mvp[16];        /* object -> clip, column-major */
    float model[16];      /* object -> world */
    float eye[4];         /* camera, world */
    float light_dir[4];   /* unit, towards the sun */
    float light_color[4]; /* rgb; w: ambient strength */
    float point_pos[4];   /* world; w: attenuation k, 1 / (1 + k d^2) */
    float point_color[4];
    float fog[4];         /* rgb; w: fog per world unit */
    float params[4];      /* x: detail uv scale, y: detail normal strength */
} bench_heavy_uniforms;

typedef struct bench_heavy bench_heavy;

/* Builds the mesh, the textures (uploaded to tilerast images), both
 * pipelines (compiling the GLSL with shaderc).  ctx NULL: the data alone
 * (mesh, texels, uniforms, GLSL text; bench_heavy_draw then fails with
 * TR_ERROR_INVALID_STATE), for a renderer other than tilerast.  Errors: the
 * tilerast call's code; TR_ERROR_INVALID_ARGUMENT when a GLSL file cannot
 * be read or compiled (the message on stderr); TR_ERROR_OUT_OF_MEMORY. */
tr_result bench_heavy_create(tr_context *ctx, bench_heavy **out);
/* Records the draw (pipeline, vertex and index buffers, textures,
 * uniforms) into the pass the caller has begun: the SPIR-V pipeline if
 * `spirv`, else the C one. */
tr_result bench_heavy_draw(tr_context *ctx, bench_heavy *h, bool spirv);
/* Frees everything (NULL: nothing); call outside a pass. */
void bench_heavy_destroy(bench_heavy *h);

/* ---- the scene as data, for other renderers ---------------------------- */
const bench_heavy_vertex *bench_heavy_vertices(const bench_heavy *h, uint32_t *count);
const uint32_t *bench_heavy_indices(const bench_heavy *h, uint32_t *count);  /* triangle list */
const bench_heavy_uniforms *bench_heavy_uniform_data(const bench_heavy *h);
uint32_t bench_heavy_levels(const bench_heavy *h);
/* RGBA8 texels of `level` of texture `slot`, rows tightly packed, top row
 * first; *size gets the level's width (= height). */
const uint8_t *bench_heavy_texels(const bench_heavy *h, uint32_t slot, uint32_t level, uint32_t *size);
/* The GLSL source of the vertex (stage 0) or fragment (stage 1) shader. */
const char *bench_heavy_glsl(const bench_heavy *h, int stage);

#endif
