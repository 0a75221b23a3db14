/* tilerast-render: models through assimp, the drawing half (tool_model.h):
 * tool_model_load's draws recorded into one tilerast render pass, in
 * OpenGL's window conventions (TR_PASS_ORIGIN_LOWER_LEFT), with
 * shaders/model.vert and model.frag compiled by shaderc. */
#define _POSIX_C_SOURCE 200809L

#include "tool_model.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tool_common.h"
#include "tool_shader.h"

#ifndef TILERAST_MODEL_SHADER_DIR
#define TILERAST_MODEL_SHADER_DIR "shaders"
#endif
#ifndef TILERAST_MODEL_INSTALLED_SHADERS
#define TILERAST_MODEL_INSTALLED_SHADERS "../share/tilerast/shaders"
#endif


/* Pipelines by state: bit 0 cull back faces, bit 1 clockwise front faces,
 * bit 2 blend; made when a draw first needs one. */
#define MODEL_PIPELINES 8

struct tool_model_renderer {
    tr_context *ctx;
    tool_model_options o;
    uint32_t width, height;
    tr_shader_module *vs, *fs;
    int own_modules; /* compiled here, destroyed here */
    tr_pipeline *pipelines[MODEL_PIPELINES];
    tr_sampler *sampler;
    tr_image *depth;
};
typedef struct tool_model_renderer model_gpu;

/* Where shaders/model.* are, as tilerast-bench finds scene.*:
 * $TILERAST_SHADERS, else the installed copy (TILERAST_MODEL_INSTALLED_SHADERS
 * from this executable's folder, so that the prefix may move), else the
 * source tree's. */
static void model_shader_path(const char *name, char *out, size_t cap)
{
    const char *env = getenv("TILERAST_SHADERS");
    if (env != NULL && env[0] != '\0') {
        snprintf(out, cap, "%s/%s", env, name);
        return;
    }
    char self[4096];
    const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        self[n] = '\0';
        char *slash = strrchr(self, '/');
        if (slash != NULL) {
            *slash = '\0';
            const int k = snprintf(out, cap, "%.3800s/" TILERAST_MODEL_INSTALLED_SHADERS "/%s", self, name);
            if (k > 0 && (size_t)k < cap && access(out, R_OK) == 0)
                return;
        }
    }
    snprintf(out, cap, "%s/%s", TILERAST_MODEL_SHADER_DIR, name);
}

static int model_module(tr_context *ctx, const char *given, const char *name, int fragment, tr_shader_module **out,
                        char *msg, size_t msg_size)
{
    char path[4096];
    if (given != NULL)
        snprintf(path, sizeof path, "%s", given);
    else
        model_shader_path(name, path, sizeof path);
    char err[4096];
    size_t words = 0;
    uint32_t *code = tool_shader_spirv(path, fragment, 0, &words, err, sizeof err);
    if (code == NULL)
        return tool_fail(msg, msg_size, "%s shader: %s", fragment ? "fragment" : "vertex", err);
    const tr_shader_module_desc d = {.code = code, .code_size = words * 4};
    tr_result r = tr_shader_module_create(ctx, &d, out);
    free(code);
    if (r != TR_OK)
        return tool_fail(msg, msg_size, "%s: %s (%s)", path, tr_result_string(r), tr_context_last_error(ctx));
    return 0;
}

/* The pipeline for a draw's state (made once). */
static tr_result model_pipeline(tr_context *ctx, model_gpu *g, const tool_model_draw *d, tr_pipeline **out)
{
    const unsigned key = (d->cull_back ? 1u : 0u) | (d->front_ccw ? 0u : 2u) | (d->blend ? 4u : 0u);
    if (g->pipelines[key] != NULL) {
        *out = g->pipelines[key];
        return TR_OK;
    }
    tr_pipeline_desc p;
    memset(&p, 0, sizeof p);
    p.vertex_module = g->vs;
    p.fragment_module = g->fs;
    p.topology = TR_TOPOLOGY_TRIANGLE_LIST;
    p.cull_mode = d->cull_back ? TR_CULL_BACK : TR_CULL_NONE;
    p.front_face = d->front_ccw ? TR_FRONT_FACE_CCW : TR_FRONT_FACE_CW;
    /* GL's rule for samples on an edge, as the scenes draw (scene_render.c):
     * the models are drawn in GL's conventions so that llvmpipe matches. */
    p.tie_rule = TR_TIE_BOTTOM_LEFT;
    p.depth_test = 1;
    p.depth_write = !d->blend;
    p.depth_compare = TR_COMPARE_LESS;
    if (d->blend) {
        /* glTF's BLEND: over, the colour by the source alpha; the alpha
         * channel likewise (what GL's glBlendFunc(SRC_ALPHA,
         * ONE_MINUS_SRC_ALPHA) does to both). */
        p.blend[0] = (tr_blend_state){.enable = 1,
                                      .src_color = TR_BLEND_SRC_ALPHA,
                                      .dst_color = TR_BLEND_ONE_MINUS_SRC_ALPHA,
                                      .color_op = TR_BLEND_OP_ADD,
                                      .src_alpha = TR_BLEND_SRC_ALPHA,
                                      .dst_alpha = TR_BLEND_ONE_MINUS_SRC_ALPHA,
                                      .alpha_op = TR_BLEND_OP_ADD};
    }
    p.bindings[0].stride = (uint32_t)sizeof(tool_model_vertex);
    p.attributes[0].format = TR_VERTEX_FORMAT_R32G32B32_SFLOAT;
    p.attributes[0].offset = (uint32_t)offsetof(tool_model_vertex, position);
    p.attributes[1].format = TR_VERTEX_FORMAT_R32G32B32_SFLOAT;
    p.attributes[1].offset = (uint32_t)offsetof(tool_model_vertex, normal);
    p.attributes[2].format = TR_VERTEX_FORMAT_R32G32B32A32_SFLOAT;
    p.attributes[2].offset = (uint32_t)offsetof(tool_model_vertex, tangent);
    p.attributes[3].format = TR_VERTEX_FORMAT_R32G32_SFLOAT;
    p.attributes[3].offset = (uint32_t)offsetof(tool_model_vertex, uv);
    tr_result r = tr_pipeline_create(ctx, &p, &g->pipelines[key]);
    *out = g->pipelines[key];
    return r;
}

/* The attachments and the pass of a model render: one place for the
 * renderer, tool_model_render and tool_model_fdm_layout. */
static uint32_t model_views(const tool_model_options *o)
{
    return o->views > 1 ? o->views : 1u;
}

static tr_image_desc model_color_desc(const tool_model_options *o, uint32_t w, uint32_t h)
{
    return (tr_image_desc){.format = TR_FORMAT_R8G8B8A8_SRGB, .width = w, .height = h, .layers = model_views(o),
                           .flags = o->image_flags};
}

static tr_image_desc model_depth_desc(const tool_model_options *o, uint32_t w, uint32_t h)
{
    return (tr_image_desc){.format = TR_FORMAT_D32_SFLOAT, .width = w, .height = h, .layers = model_views(o),
                           .flags = o->image_flags & ~(uint32_t)TR_IMAGE_SUBSAMPLED};
}

static void model_pass_desc(const tool_model_options *o, tr_image *color, tr_image *depth, tr_render_pass_desc *rp)
{
    memset(rp, 0, sizeof *rp);
    rp->flags = TR_PASS_ORIGIN_LOWER_LEFT;
    rp->color_count = 1;
    rp->color[0].image = color;
    rp->color[0].load_op = TR_LOAD_OP_CLEAR;
    rp->color[0].store_op = TR_STORE_OP_STORE;
    memcpy(rp->color[0].clear_color, o->clear != NULL ? o->clear : tool_model_clear, sizeof tool_model_clear);
    rp->depth.image = depth;
    rp->depth.depth_load_op = TR_LOAD_OP_CLEAR;
    rp->depth.depth_store_op = TR_STORE_OP_DONT_CARE;
    rp->depth.stencil_load_op = TR_LOAD_OP_DONT_CARE;
    rp->depth.stencil_store_op = TR_STORE_OP_DONT_CARE;
    rp->depth.clear_depth = 1.0f;
    if (o->views > 1)
        rp->view_mask = (1u << o->views) - 1u;
    rp->density_map.image = o->density_map;
}

tr_result tool_model_fdm_layout(tr_context *ctx, const tool_model_options *o, tr_bin_layout *out)
{
    const uint32_t w = o->width ? o->width : TOOL_MODEL_WIDTH, h = o->height ? o->height : TOOL_MODEL_HEIGHT;
    const tr_image_desc cd = model_color_desc(o, w, h), dd = model_depth_desc(o, w, h);
    const tr_image_desc md = {.format = TR_FORMAT_R8G8_UNORM, .width = 1, .height = 1,
                              .flags = o->image_flags & TR_IMAGE_FDM_OFFSET};
    tr_image *color = NULL, *depth = NULL, *map = NULL;
    tr_result r = tr_image_create(ctx, &cd, &color);
    if (r == TR_OK)
        r = tr_image_create(ctx, &dd, &depth);
    if (r == TR_OK)
        r = tr_image_create(ctx, &md, &map);
    if (r == TR_OK) {
        tr_render_pass_desc rp;
        model_pass_desc(o, color, depth, &rp);
        rp.density_map.image = map;
        r = tr_compute_bin_layout(ctx, &rp, out);
    }
    tr_image_destroy(map);
    tr_image_destroy(depth);
    tr_image_destroy(color);
    return r;
}

static void model_gpu_destroy(model_gpu *g)
{
    for (int i = 0; i < MODEL_PIPELINES; i++)
        tr_pipeline_destroy(g->pipelines[i]);
    if (g->own_modules) {
        tr_shader_module_destroy(g->vs);
        tr_shader_module_destroy(g->fs);
    }
    tr_sampler_destroy(g->sampler);
    tr_image_destroy(g->depth);
}

void tool_model_renderer_destroy(tool_model_renderer *r)
{
    if (r == NULL)
        return;
    model_gpu_destroy(r);
    free(r);
}

int tool_model_renderer_create(tr_context *ctx, const tool_model_options *o, tool_model_renderer **out, char *msg,
                               size_t msg_size)
{
    *out = NULL;
    if (o->views > TR_MAX_VIEWS)
        return tool_fail(msg, msg_size, "%u views: at most %u", o->views, TR_MAX_VIEWS);
    model_gpu *g = calloc(1, sizeof *g);
    if (g == NULL)
        return tool_fail(msg, msg_size, "out of memory");
    g->ctx = ctx;
    g->o = *o;
    g->width = o->width ? o->width : TOOL_MODEL_WIDTH;
    g->height = o->height ? o->height : TOOL_MODEL_HEIGHT;
    if (o->vertex_module != NULL && o->fragment_module != NULL) {
        g->vs = o->vertex_module;
        g->fs = o->fragment_module;
    } else {
        g->own_modules = 1;
        if (model_module(ctx, o->vertex_shader, "model.vert", 0, &g->vs, msg, msg_size) != 0 ||
            model_module(ctx, o->fragment_shader, "model.frag", 1, &g->fs, msg, msg_size) != 0) {
            tool_model_renderer_destroy(g);
            return -1;
        }
    }
    /* Trilinear, repeating: glTF's default sampler. */
    const tr_sampler_desc sd = {.mag_filter = TR_FILTER_LINEAR, .min_filter = TR_FILTER_LINEAR,
                                .mipmap_mode = TR_MIPMAP_LINEAR};
    const tr_image_desc dd = model_depth_desc(o, g->width, g->height);
    tr_result r = tr_sampler_create(ctx, &sd, &g->sampler);
    if (r == TR_OK)
        r = tr_image_create(ctx, &dd, &g->depth);
    if (r != TR_OK) {
        tool_fail(msg, msg_size, "creating the sampler and depth image: %s (%s)", tr_result_string(r),
             tr_context_last_error(ctx));
        tool_model_renderer_destroy(g);
        return -1;
    }
    *out = g;
    return 0;
}

/* One draw: its pipeline, uniform block, textures and buffers.  Returns
 * the first failing call's result. */
static tr_result model_record_draw(tr_context *ctx, model_gpu *g, const tool_model_draw *d)
{
    tr_pipeline *p = NULL;
    tr_result r = model_pipeline(ctx, g, d, &p);
    if (r == TR_OK)
        r = tr_cmd_bind_pipeline(ctx, p);
    if (r == TR_OK)
        r = tr_cmd_bind_uniform_buffer(ctx, 0, &d->uniforms, sizeof d->uniforms);
    for (uint32_t t = 0; t < TOOL_MODEL_TEXTURES && r == TR_OK; t++)
        r = tr_cmd_bind_texture(ctx, t + 1, d->textures[t], g->sampler);
    if (r == TR_OK)
        r = tr_cmd_bind_vertex_buffer(ctx, 0, d->vertices, (size_t)d->vertex_count * sizeof(tool_model_vertex), 0);
    if (r == TR_OK)
        r = tr_cmd_bind_index_buffer(ctx, d->indices, (size_t)d->index_count * sizeof(uint32_t), 0, TR_INDEX_U32);
    if (r == TR_OK)
        r = tr_cmd_draw_indexed(ctx, d->index_count, 1, 0, 0, 0);
    return r;
}

int tool_model_renderer_draw(tool_model_renderer *g, const char *path, const tool_model *m, tr_image *color,
                             tr_pass_stats *stats, char *msg, size_t msg_size)
{
    tr_context *ctx = g->ctx;
    const tool_model_options *o = &g->o;
    const uint32_t w = g->width, h = g->height;
    tr_render_pass_desc rp;
    model_pass_desc(o, color, g->depth, &rp);
    tr_result r = tr_cmd_begin_render_pass(ctx, &rp);
    if (r != TR_OK)
        return tool_fail(msg, msg_size, "%s: beginning the pass: %s (%s)", path, tr_result_string(r),
                    tr_context_last_error(ctx));
    const tr_viewport vp = {0.0f, 0.0f, (float)w, (float)h, 0.0f, 1.0f};
    tr_result rec = tr_cmd_set_viewport(ctx, &vp);
    const tool_model_draw *draws = NULL;
    const uint32_t n = tool_model_draws(m, &draws);
    uint32_t failed = 0;
    for (uint32_t i = 0; i < n && rec == TR_OK; i++) {
        rec = model_record_draw(ctx, g, &draws[i]);
        failed = i;
    }
    if (rec != TR_OK) {
        /* Keep the draw's message: ending the pass clears it. */
        tool_fail(msg, msg_size, "%s: mesh %u (draw %u): %s (%s)", path, draws[failed].mesh, failed,
             tr_result_string(rec), tr_context_last_error(ctx));
        tr_cmd_end_render_pass(ctx, NULL);
        return -1;
    }
    r = tr_cmd_end_render_pass(ctx, stats);
    if (r != TR_OK)
        return tool_fail(msg, msg_size, "%s: rendering: %s (%s)", path, tr_result_string(r), tr_context_last_error(ctx));
    if (o->after_pass != NULL && o->after_pass(o->user, ctx, &rp, msg, msg_size) != 0)
        return -1;
    return 0;
}

int tool_model_render(tr_context *ctx, const char *path, const tool_model_options *o, tr_image **out,
                      tr_pass_stats *stats, tool_model_info *info, char *msg, size_t msg_size)
{
    const uint32_t w = o->width ? o->width : TOOL_MODEL_WIDTH, h = o->height ? o->height : TOOL_MODEL_HEIGHT;
    *out = NULL;
    tool_model *m = NULL;
    tool_model_renderer *g = NULL;
    int status = tool_model_load(ctx, path, o->camera - 1, w, h, &m, msg, msg_size);
    if (status == 0 && tool_model_renderer_create(ctx, o, &g, msg, msg_size) != 0) {
        /* name the file, as every other message does */
        char inner[4096];
        snprintf(inner, sizeof inner, "%s", msg);
        status = tool_fail(msg, msg_size, "%s: %s", path, inner);
    }
    if (status == 0) {
        const tr_image_desc cd = model_color_desc(o, w, h);
        tr_result r = tr_image_create(ctx, &cd, out);
        if (r != TR_OK)
            status = tool_fail(msg, msg_size, "%s: creating the %ux%u image: %s (%s)", path, w, h, tr_result_string(r),
                          tr_context_last_error(ctx));
    }
    if (status == 0)
        status = tool_model_renderer_draw(g, path, m, *out, stats, msg, msg_size);
    if (status == 0 && info != NULL) {
        memset(info, 0, sizeof *info);
        info->width = w;
        info->height = h;
        const tool_model_draw *draws = NULL;
        info->draws = tool_model_draws(m, &draws);
        info->meshes = tool_model_mesh_count(m);
        info->textures = tool_model_texture_count(m);
        info->lights = tool_model_light_count(m);
        for (uint32_t i = 0; i < info->draws; i++)
            info->triangles += draws[i].index_count / 3;
    }
    tool_model_renderer_destroy(g);
    tool_model_free(m);
    if (status != 0 && *out != NULL) {
        tr_image_destroy(*out);
        *out = NULL;
    }
    return status;
}
