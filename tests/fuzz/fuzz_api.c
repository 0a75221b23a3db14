/* libFuzzer target: the public API driven by fuzzed descriptors and
 * commands.  The input is read as a little program: a context descriptor,
 * images, samplers and pipelines with fuzzed fields (enums and flags taken
 * raw, so out-of-range values occur), then render passes whose commands,
 * viewports, scissors, vertex positions (any float, NaN and infinities
 * included), indices, texture bindings, fragment density maps (offsets
 * and image flags too; any image as the map, any contents) and sampler
 * feedback maps (their descriptors, bindings, shader writes, decode and
 * encode) come from the input.  Every call
 * may fail, but only with a tr_result: no crash, no sanitizer report, no
 * leak (the allocator counts), and the context must stay usable. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tilerast/tilerast.h>

#define FUZZ_ALLOC_CAP (64u << 20)
#include "fuzz_common.h"


/* ---- the error contract (result.h) ------------------------------------------------------------ */

/* A failure leaves a message on the thread and on the context; a success
 * clears both.  Anything else is a finding: abort. */
static tr_result contract(const tr_context *ctx, tr_result r, const char *call)
{
    const char *m = tr_last_error();
    if ((r != TR_OK) != (m[0] != '\0') || (ctx && strcmp(m, tr_context_last_error(ctx)) != 0)) {
        fprintf(stderr, "fuzz_api: %s returned %s with the message \"%s\" (the context's: \"%s\")\n", call,
                tr_result_string(r), m, ctx ? tr_context_last_error(ctx) : "");
        abort();
    }
    return r;
}
#define C(call) contract(ctx, (call), #call)
/* a call through an object: through the context only when there is one */
#define CO(obj, call) contract((obj) ? ctx : NULL, (call), #call)


/* ---- shaders --------------------------------------------------------------------------------- */

enum { MAX_VERTS = 96 };

typedef struct uniforms {
    float pos[MAX_VERTS][4];
    float var[MAX_VERTS][4];
} uniforms;

static void vs(tr_vs_batch *b)
{
    const uniforms *u = b->uniforms;
    for (uint32_t l = 0; l < b->count; l++) {
        const uint32_t v = (b->vertex_index[l] + b->instance_index[l]) % MAX_VERTS;
        for (int c = 0; c < 4; c++) {
            b->position[c][l] = u ? u->pos[v][c] : 0.0f;
            for (int k = 0; k < 2; k++)
                b->varyings[k][c][l] = u ? u->var[v][c] * (float)(k + 1) : 0.0f;
        }
        b->point_size[l] = u ? u->var[v][3] * 16.0f : 1.0f; /* any float, NaN and infinities too */
    }
}

static void fs(tr_fs_block *b)
{
    static _Thread_local float t[4][TR_FS_LANES];
    tr_sample_args a = {.s = b->varyings[0][0], .t = b->varyings[0][1], .layer = b->varyings[0][2],
                        .bias = b->varyings[0][3], .dref = b->varyings[1][0]};
    tr_fs_sample(b, 0, &a, t);
    const tr_sample_args fa = {.s = b->varyings[0][0], .t = b->varyings[0][1], .layer = b->varyings[0][2],
                               .bias = b->varyings[0][3], .lod_clamp = b->varyings[1][1]};
    tr_fs_write_feedback(b, 0, 0, &fa);
    tr_fs_write_feedback(b, 1, 1, &fa);
    for (int c = 0; c < 4; c++)
        for (uint32_t l = 0; l < b->count; l++) {
            b->color[0][c][l] = t[c][l] + b->varyings[1][c][l];
            b->color[1][c][l] = b->varyings[0][c][l];
        }
    b->depth[0] = b->varyings[1][3][0];
    b->discard = t[0][0] > 0.5f ? 0x5ull : 0; /* a comparison: NaN and huge values are fine */
}

/* A draw of a billion valid triangles is legal and just slow: the target
 * skips draws with more than 2^16 vertex invocations unless the count is
 * past TR_MAX_DRAW_VERTICES (then the call fails at once, which is worth
 * fuzzing).  The linear-id limit is left to the unit tests: a draw under
 * it can still be 2^31 instances long. */
static int work_ok(uint32_t count, uint32_t instances)
{
    return (uint64_t)count * instances <= (1u << 16) || count > TR_MAX_DRAW_VERTICES;
}

/* ---- the program --------------------------------------------------------------------------- */

enum { NIMG = 4, NSMP = 2, NPIPE = 2, NMAP = 2 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    reader r = {data, size};
    tr_context_desc cd = {0};
    cd.threads = 1 + u8(&r) % 3;
    cd.gmem_bytes = u8(&r) < 200 ? 0 : u32(&r);
    cd.tile_align_w = u8(&r) < 200 ? 0 : size_val(&r, 256);
    cd.tile_align_h = u8(&r) < 200 ? 0 : size_val(&r, 256);
    cd.flags = u8(&r) & 3; /* TR_CONTEXT_NO_LRZ, TR_CONTEXT_NO_BIN_MERGING */
    cd.simd = (tr_simd_level)(u8(&r) % 5);
    if (cd.flags && u8(&r) > 128) /* a device profile, in range or not */
        cd.device = (tr_device)size_val(&r, TR_DEVICE_COUNT + 1);
    cd.allocator = (tr_allocator){cap_alloc, cap_free, NULL};
    tr_context *ctx = NULL;
    if (contract(NULL, tr_context_create(&cd, &ctx), "tr_context_create") != TR_OK)
        return 0;

    tr_image *img[NIMG] = {0};
    for (int i = 0; i < NIMG; i++) {
        tr_image_desc d = {(tr_format)size_val(&r, TR_FORMAT_COUNT + 1), 1 + size_val(&r, 48),
                           1 + size_val(&r, 48), size_val(&r, 3), size_val(&r, 8), 0};
        d.flags = u8(&r) > 200 ? u8(&r) & 3u : 0u; /* TR_IMAGE_FDM_OFFSET, and an unknown bit */
        if (u8(&r) > 250)
            d.levels = TR_LEVELS_ALL;
        if (u8(&r) > 200) /* multisampled */
            d.samples = size_val(&r, 17); /* 0..16: the valid ones and others, or any value */
        if (C(tr_image_create(ctx, &d, &img[i])) == TR_OK && u8(&r) & 1) {
            const float v[4] = {f32(&r), f32(&r), f32(&r), f32(&r)};
            CO(img[i], tr_image_fill(img[i], NULL, v));
            CO(img[i], tr_image_generate_mips(img[i]));
        }
    }
    tr_sampler *smp[NSMP] = {0};
    for (int i = 0; i < NSMP; i++) {
        tr_sampler_desc d = {(tr_filter)size_val(&r, 3), (tr_filter)size_val(&r, 3), (tr_mipmap_mode)size_val(&r, 3),
                             (tr_address_mode)size_val(&r, 5), (tr_address_mode)size_val(&r, 5),
                             (tr_border_color)size_val(&r, 4), f32(&r), f32(&r), f32(&r), size_val(&r, 18),
                             (tr_compare_op)size_val(&r, 10)};
        C(tr_sampler_create(ctx, &d, &smp[i]));
    }
    tr_feedback_map *map[NMAP] = {0};
    for (int i = 0; i < NMAP; i++) {
        /* Often the size of an image, so that draws pair them. */
        tr_image_desc id = img[i] ? tr_image_get_desc(img[i]) : (tr_image_desc){0};
        tr_feedback_map_desc d = {(tr_feedback_kind)size_val(&r, 3), id.width, id.height, id.levels, id.layers,
                                  size_val(&r, 40), size_val(&r, 40)};
        if (u8(&r) > 200)
            d.width = size_val(&r, 64), d.height = size_val(&r, 64), d.levels = size_val(&r, 8);
        if (C(tr_feedback_map_create(ctx, &d, &map[i])) == TR_OK)
            CO(map[i], tr_feedback_map_set_mode(map[i], (tr_feedback_mode)size_val(&r, 3)));
    }
    tr_pipeline *pipe[NPIPE] = {0};
    for (int i = 0; i < NPIPE; i++) {
        tr_pipeline_desc d = {0};
        d.vertex_shader = vs;
        d.fragment_shader = u8(&r) < 230 ? fs : NULL;
        d.fs_flags = size_val(&r, 32);
        d.texture_mask = size_val(&r, 4);
        d.feedback_mask = size_val(&r, 4);
        d.varying_count = size_val(&r, 3);
        d.flat_mask = size_val(&r, 4);
        d.topology = (tr_topology)size_val(&r, 4);
        if (d.topology == TR_TOPOLOGY_POINT_LIST && u8(&r) > 100) { /* lines too, width and mode */
            d.topology = (tr_topology)(TR_TOPOLOGY_POINT_LIST + size_val(&r, 4));
            d.line_width = (float)size_val(&r, 70) * 0.5f;
            d.line_mode = (tr_line_mode)size_val(&r, 3);
        }
        d.cull_mode = (tr_cull_mode)size_val(&r, 5);
        d.front_face = (tr_front_face)size_val(&r, 3);
        d.tie_rule = (tr_tie_rule)size_val(&r, 3);
        d.depth_test = u8(&r) & 1;
        d.depth_write = u8(&r) & 1;
        d.depth_compare = (tr_compare_op)size_val(&r, 10);
        d.stencil_test = u8(&r) & 1;
        d.stencil_front.pass_op = (tr_stencil_op)size_val(&r, 9);
        d.stencil_front.compare = (tr_compare_op)size_val(&r, 10);
        for (int a = 0; a < 2; a++) {
            d.blend[a].enable = u8(&r) & 1;
            d.blend[a].src_color = (tr_blend_factor)size_val(&r, 21);
            d.blend[a].dst_color = (tr_blend_factor)size_val(&r, 21);
            d.blend[a].color_op = (tr_blend_op)size_val(&r, 6);
            d.blend[a].write_mask = size_val(&r, 32);
        }
        if (d.stencil_test && u8(&r) == 255)
            d.flags = size_val(&r, 3); /* TR_PIPELINE_WRITES_VIEWPORT_INDEX, or unknown bits */
        if (u8(&r) > 200) { /* multisample state */
            d.multisample.samples = size_val(&r, 9);
            d.multisample.sample_mask = u8(&r);
            d.multisample.alpha_to_coverage = u8(&r) & 1;
            d.multisample.alpha_to_one = u8(&r) & 1;
            d.multisample.sample_shading = u8(&r) & 1;
            d.multisample.min_sample_shading = f32(&r);
        }
        C(tr_pipeline_create(ctx, &d, &pipe[i]));
    }

    static uniforms u;
    for (int pass = 0; pass < 2 && r.n; pass++) {
        tr_render_pass_desc rp;
        memset(&rp, 0, sizeof rp);
        rp.color_count = size_val(&r, 3);
        for (uint32_t c = 0; c < rp.color_count && c < TR_MAX_COLOR_ATTACHMENTS; c++) {
            rp.color[c].image = img[u8(&r) % NIMG];
            rp.color[c].load_op = (tr_load_op)size_val(&r, 4);
            rp.color[c].store_op = (tr_store_op)size_val(&r, 3);
            rp.color[c].clear_color[0] = f32(&r);
            if (u8(&r) > 220)
                rp.color[c].resolve_image = img[u8(&r) % NIMG];
        }
        if (u8(&r) & 1) {
            rp.depth.image = img[u8(&r) % NIMG];
            rp.depth.depth_load_op = (tr_load_op)size_val(&r, 4);
            rp.depth.clear_depth = f32(&r);
        }
        rp.view_mask = size_val(&r, 4);
        rp.flags = size_val(&r, 4);
        rp.flags |= u8(&r) & TR_PASS_ORIGIN_LOWER_LEFT; /* GL's origin: rectangles flipped */
        if (u8(&r) & 1)
            rp.render_area = (tr_rect){(int32_t)size_val(&r, 64), (int32_t)size_val(&r, 64), size_val(&r, 64),
                                       size_val(&r, 64)};
        if (rp.flags & 2) { /* (TR_PASS_NO_LRZ's bit) and a fragment density map, any image */
            rp.density_map.image = img[u8(&r) % NIMG];
            rp.density_map.base_layer = size_val(&r, 3);
            rp.flags |= u8(&r) & TR_PASS_FDM_SHARED_VIEWPORT;
            if (u8(&r) & 1) { /* offsets: any count, any value, often on the granularity */
                rp.density_map.offset_count = size_val(&r, 4);
                for (uint32_t k = 0; k < TR_MAX_VIEWS; k++) {
                    int32_t x = (int32_t)u32(&r), y = (int32_t)u32(&r);
                    rp.density_map.offsets[k] =
                        u8(&r) & 1 ? (tr_offset2d){x, y} : (tr_offset2d){(x % 4096) * 8, (y % 4096) * 8};
                }
            }
        }
        if (C(tr_cmd_begin_render_pass(ctx, &rp)) != TR_OK)
            continue;
        for (int cmd = 0; cmd < 24 && r.n; cmd++) {
            switch (u8(&r) % 9) {
            case 0:
                C(tr_cmd_bind_pipeline(ctx, pipe[u8(&r) % NPIPE]));
                break;
            case 1: {
                const tr_viewport vp = {f32(&r), f32(&r), f32(&r), f32(&r), f32(&r), f32(&r)};
                C(tr_cmd_set_viewport(ctx, &vp));
                break;
            }
            case 2: {
                const tr_rect sc = {(int32_t)size_val(&r, 64), (int32_t)size_val(&r, 64), size_val(&r, 64),
                                    size_val(&r, 64)};
                C(tr_cmd_set_scissor(ctx, &sc));
                break;
            }
            case 3:
                C(tr_cmd_bind_texture(ctx, size_val(&r, TR_MAX_TEXTURES + 1), img[u8(&r) % NIMG],
                                    smp[u8(&r) % NSMP]));
                break;
            case 4: {
                const uint32_t nv = u8(&r) % 16;
                for (uint32_t v = 0; v < nv; v++) {
                    const uint32_t at = u8(&r) % MAX_VERTS;
                    for (int c = 0; c < 4; c++) {
                        u.pos[at][c] = f32(&r);
                        u.var[at][c] = f32(&r);
                    }
                }
                C(tr_cmd_set_uniforms(ctx, &u, sizeof u));
                break;
            }
            case 5: {
                const uint32_t count = size_val(&r, 64), inst = size_val(&r, 4);
                if (work_ok(count, inst))
                    C(tr_cmd_draw(ctx, count, inst, size_val(&r, MAX_VERTS), size_val(&r, 4)));
                break;
            }
            case 6: {
                uint32_t idx[48];
                const uint32_t n = u8(&r) % 48;
                uint32_t lo = UINT32_MAX, hi = 0;
                for (uint32_t i = 0; i < n; i++) {
                    idx[i] = size_val(&r, MAX_VERTS);
                    lo = idx[i] < lo ? idx[i] : lo;
                    hi = idx[i] > hi ? idx[i] : hi;
                }
                C(tr_cmd_bind_index_buffer(ctx, idx, n * sizeof idx[0], size_val(&r, 8), (tr_index_type)size_val(&r, 3)));
                const uint32_t count = size_val(&r, 48), inst = size_val(&r, 3);
                /* The vertex job shades every id from the smallest index to
                 * the largest (Mali's way): that span is the work. */
                const uint32_t span = n ? hi - lo + 1 : 0;
                if (work_ok(count, inst) && work_ok(span > count ? span : count, inst))
                    C(tr_cmd_draw_indexed(ctx, count, inst, size_val(&r, 8), (int32_t)size_val(&r, 8), size_val(&r, 3)));
                break;
            }
            case 7:
                C(tr_cmd_bind_feedback_map(ctx, size_val(&r, TR_MAX_FEEDBACK_MAPS + 1), u8(&r) & 1 ? map[u8(&r) % NMAP] : NULL));
                break;
            default: {
                tr_clear_attachment ca;
                memset(&ca, 0, sizeof ca);
                ca.aspects = size_val(&r, 8);
                ca.color_attachment = size_val(&r, 3);
                ca.color[0] = f32(&r);
                ca.depth = f32(&r);
                const tr_rect rect = {(int32_t)size_val(&r, 64), (int32_t)size_val(&r, 64), size_val(&r, 64),
                                      size_val(&r, 64)};
                C(tr_cmd_clear_attachments(ctx, 1, &ca, 1, &rect));
                break;
            }
            }
        }
        tr_pass_stats st;
        C(tr_cmd_end_render_pass(ctx, &st));
    }
    /* Feedback maps after the passes: decode, encode and pictures of any
     * layer, level and row pitch. */
    for (int i = 0; i < NMAP && r.n; i++) {
        static uint8_t buf[64 * 64];
        const uint32_t layer = size_val(&r, 3), level = size_val(&r, 4);
        const size_t pitch = size_val(&r, 70);
        uint32_t w = 0, h = 0;
        if (CO(map[i], tr_feedback_map_decoded_size(map[i], level, &w, &h)) == TR_OK && pitch * h <= sizeof buf) {
            CO(map[i], tr_feedback_map_decode(map[i], layer, level, buf, pitch));
            buf[u8(&r) % sizeof buf] = u8(&r);
            CO(map[i], tr_feedback_map_encode(map[i], layer, level, buf, pitch));
        }
        if (u8(&r) & 1)
            CO(map[i], tr_feedback_map_clear(map[i]));
    }
    /* Still usable: a fresh pass on a fresh image renders. */
    tr_image *check = NULL;
    tr_image_desc cdsc = {TR_FORMAT_R8G8B8A8_UNORM, 8, 8, 1, 1, 0};
    if (C(tr_image_create(ctx, &cdsc, &check)) == TR_OK) {
        tr_render_pass_desc rp;
        memset(&rp, 0, sizeof rp);
        rp.color_count = 1;
        rp.color[0].image = check;
        rp.color[0].load_op = TR_LOAD_OP_CLEAR;
        rp.color[0].store_op = TR_STORE_OP_STORE;
        if (C(tr_cmd_begin_render_pass(ctx, &rp)) != TR_OK || C(tr_cmd_end_render_pass(ctx, NULL)) != TR_OK)
            __builtin_trap();
    }
    tr_context_destroy(ctx);
    if (live != 0) {
        fprintf(stderr, "%ld allocations leaked\n", live);
        __builtin_trap();
    }
    return 0;
}
