/* Drawing a neutral scene (bench/SCENES.md) with the public API only.
 *
 * Consumes a validated tr_scene and an RGBA8 image; produces the image as
 * OpenGL (with glClipControl(GL_LOWER_LEFT, GL_ZERO_TO_ONE)) would draw it:
 * a y-flipped viewport turns GL's y-up window into our y-down image, and the
 * BOTTOM_LEFT tie rule is GL's left/bottom fill rule seen through that flip.
 * Being a plain API user keeps this file an honest benchmark client. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* What the vertex shader finds in the uniforms: only a pointer, since
 * tr_cmd_set_uniforms copies at most TR_MAX_UNIFORM_BYTES and a scene's
 * vertices are far more.  The vertex array outlives the pass (the caller
 * owns the scene for the whole tr_scene_render call).  The point size comes
 * first: it is the push-constant float at offset 0 that SPIR-V stages read
 * (scene.h), the same bytes whichever stages are C. */
typedef struct scene_uniforms {
    float point_size;
    const tr_scene_vertex *vertices;
} scene_uniforms;

static void scene_vertex_shader(tr_vs_batch *batch)
{
    /* memcpy: the library's copy of the uniform bytes need not be aligned
     * for a pointer. */
    scene_uniforms u;
    memcpy(&u, batch->uniforms, sizeof u);
    const tr_scene_vertex *v = u.vertices;
    for (uint32_t l = 0; l < batch->count; l++) {
        const tr_scene_vertex *s = &v[batch->vertex_index[l]];
        batch->position[0][l] = s->x;
        batch->position[1][l] = s->y;
        batch->position[2][l] = s->z;
        batch->position[3][l] = s->w;
        /* Division, not a multiply by 1/255: c/255 correctly rounded is
         * what a unorm8 attribute fetch gives. */
        batch->varyings[0][0][l] = (float)s->r / 255.0f;
        batch->varyings[0][1][l] = (float)s->g / 255.0f;
        batch->varyings[0][2][l] = (float)s->b / 255.0f;
        batch->varyings[0][3][l] = (float)s->a / 255.0f;
        batch->point_size[l] = u.point_size; /* (read for points only) */
    }
}

static void scene_fragment_shader(tr_fs_block *block)
{
    /* A quad (16 bytes, a fixed-size copy the compiler inlines) at a time:
     * a lane loop of unknown length became four calls to memmove per block,
     * which cost more than the copy when the block is one quad (a uniform
     * block, pipeline.h). */
    for (uint32_t c = 0; c < 4; c++)
        for (uint32_t l = 0; l < block->count; l += 4)
            memcpy(&block->color[0][c][l], &block->varyings[0][c][l], 4 * sizeof(float));
}

static tr_pipeline_desc scene_pipeline_desc(uint32_t flags, float size, const tr_scene_render_options *o)
{
    tr_pipeline_desc d;
    memset(&d, 0, sizeof d);
    d.flat_mask = (flags & TR_SCENE_FLAT) ? 1u : 0u; /* provoking vertex = first, as GL's
                                                         first-vertex convention; with a
                                                         fragment module, a check of its
                                                         `flat` (derived, shader.h) */
    if (o->vertex_module) {
        /* tr_scene_vertex as vertex buffer 0 (scene.h states the interface) */
        d.vertex_module = o->vertex_module;
        d.bindings[0].stride = (uint32_t)sizeof(tr_scene_vertex);
        d.attributes[0].format = TR_VERTEX_FORMAT_R32G32B32A32_SFLOAT;
        d.attributes[0].offset = (uint32_t)offsetof(tr_scene_vertex, x);
        d.attributes[1].format = TR_VERTEX_FORMAT_R8G8B8A8_UNORM;
        d.attributes[1].offset = (uint32_t)offsetof(tr_scene_vertex, r);
    } else {
        d.vertex_shader = scene_vertex_shader;
    }
    if (o->fragment_module) {
        /* varying_count and fs_flags are the module's (derived) */
        d.fragment_module = o->fragment_module;
    } else {
        d.fragment_shader = scene_fragment_shader;
        d.fs_flags = TR_FS_NO_FRAG_COORD; /* it reads its one varying only */
        d.varying_count = 1;
    }
    d.topology = flags & TR_SCENE_POINTS  ? TR_TOPOLOGY_POINT_LIST
                 : flags & TR_SCENE_LINES ? TR_TOPOLOGY_LINE_LIST
                                          : TR_TOPOLOGY_TRIANGLE_LIST;
    d.line_mode = flags & TR_SCENE_RECT_LINES ? TR_LINE_RECTANGULAR : TR_LINE_BRESENHAM;
    d.line_width = flags & TR_SCENE_LINES ? size : 1.0f;
    d.cull_mode = TR_CULL_NONE; /* the format draws both windings */
    d.tie_rule = TR_TIE_BOTTOM_LEFT;
    if (flags & TR_SCENE_DEPTH) {
        d.depth_test = 1;
        d.depth_write = 1;
        d.depth_compare = TR_COMPARE_LESS;
    }
    tr_blend_state *b = &d.blend[0];
    if (flags & TR_SCENE_BLEND_ALPHA) {
        b->enable = 1;
        b->src_color = TR_BLEND_SRC_ALPHA;
        b->dst_color = TR_BLEND_ONE_MINUS_SRC_ALPHA;
        b->color_op = TR_BLEND_OP_ADD;
        b->src_alpha = TR_BLEND_ONE;
        b->dst_alpha = TR_BLEND_ONE_MINUS_SRC_ALPHA;
        b->alpha_op = TR_BLEND_OP_ADD;
    } else if (flags & TR_SCENE_BLEND_ADD) {
        /* min(1, src + dst): the UNORM attachment clamps the sum. */
        b->enable = 1;
        b->src_color = TR_BLEND_ONE;
        b->dst_color = TR_BLEND_ONE;
        b->color_op = TR_BLEND_OP_ADD;
        b->src_alpha = TR_BLEND_ONE;
        b->dst_alpha = TR_BLEND_ONE;
        b->alpha_op = TR_BLEND_OP_ADD;
    }
    return d;
}

tr_result tr_scene_render(tr_context *ctx, const tr_scene *scene, tr_image *color,
                          tr_pass_stats *stats)
{
    tr__api_enter(ctx);
    return tr_scene_render_with(ctx, scene, NULL, color, NULL, stats);
}

tr_result tr_scene_render_depth(tr_context *ctx, const tr_scene *scene, tr_image *color,
                                tr_image *depth_image, tr_pass_stats *stats)
{
    tr__api_enter(ctx);
    return tr_scene_render_with(ctx, scene, NULL, color, depth_image, stats);
}

tr_render_pass_desc tr_scene_pass_desc(const tr_scene *scene, tr_image *color, tr_image *depth,
                                       const tr_scene_render_options *options)
{
    tr_render_pass_desc rp;
    memset(&rp, 0, sizeof rp);
    if (options) {
        rp.flags = options->pass_flags;
        rp.density_map = options->density_map;
    }
    /* The scene is OpenGL's: window y up, computed bottom-up as a GL
     * implementation drawing into a framebuffer object does. */
    rp.flags |= TR_PASS_ORIGIN_LOWER_LEFT;
    rp.color_count = 1;
    rp.color[0].image = color;
    rp.color[0].load_op = TR_LOAD_OP_CLEAR;
    rp.color[0].store_op = TR_STORE_OP_STORE;
    for (int i = 0; i < 4; i++)
        rp.color[0].clear_color[i] = (float)scene->clear_color[i] / 255.0f;
    if (scene->flags & TR_SCENE_DEPTH) {
        rp.depth.image = depth;
        rp.depth.depth_load_op = TR_LOAD_OP_CLEAR;
        rp.depth.depth_store_op = TR_STORE_OP_DONT_CARE; /* only the colour is wanted: a
                                                            tiler never writes depth out */
        rp.depth.stencil_load_op = TR_LOAD_OP_DONT_CARE;
        rp.depth.stencil_store_op = TR_STORE_OP_DONT_CARE;
        /* glClearDepth clamps to [0,1]; the file only promises a finite value. */
        const float cd = scene->clear_depth;
        rp.depth.clear_depth = cd < 0.0f ? 0.0f : cd > 1.0f ? 1.0f : cd;
    }
    return rp;
}

tr_result tr_scene_render_with(tr_context *ctx, const tr_scene *scene,
                               const tr_scene_render_options *options, tr_image *color,
                               tr_image *depth_image, tr_pass_stats *stats)
{
    tr__api_enter(ctx);
    static const tr_scene_render_options defaults; /* all zero */
    if (options == NULL)
        options = &defaults;
    if (ctx == NULL || scene == NULL || color == NULL)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_scene_render: %s is NULL",
                         !ctx ? "ctx" : !scene ? "scene" : "color");
    const uint32_t known = TR_SCENE_DEPTH | TR_SCENE_BLEND_ALPHA | TR_SCENE_BLEND_ADD |
                           TR_SCENE_FLAT | TR_SCENE_LINES | TR_SCENE_POINTS | TR_SCENE_RECT_LINES;
    const uint32_t fl = scene->flags;
    if ((fl & ~known) || ((fl & TR_SCENE_BLEND_ALPHA) && (fl & TR_SCENE_BLEND_ADD)) ||
        ((fl & TR_SCENE_LINES) && (fl & TR_SCENE_POINTS)) ||
        ((fl & TR_SCENE_RECT_LINES) && !(fl & TR_SCENE_LINES)) ||
        ((fl & (TR_SCENE_LINES | TR_SCENE_POINTS)) && !(scene->size >= 1.0f && scene->size <= 64.0f)) ||
        (scene->triangle_count > 0 && scene->vertices == NULL) ||
        scene->triangle_count > TR_SCENE_MAX_TRIANGLES || !isfinite(scene->clear_depth))
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT,
                         "tr_scene_render: scene is not one tr_scene_parse accepts (flags 0x%x, size %g, "
                         "%u primitives, clear depth %g)", fl, (double)scene->size, scene->triangle_count,
                         (double)scene->clear_depth);
    tr_image_desc cd = tr_image_get_desc(color);
    if (cd.format != TR_FORMAT_R8G8B8A8_UNORM || cd.width != scene->width ||
        cd.height != scene->height)
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT,
                         "tr_scene_render: color is %s %ux%u; the scene needs R8G8B8A8_UNORM %ux%u",
                         tr_format_name(cd.format), cd.width, cd.height, scene->width, scene->height);

    const uint32_t samples = options->samples ? options->samples : 1u;
    if (!tr_sample_count_valid(samples))
        return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT, "tr_scene_render_options.samples = %u is not 1, 2, 4 or 8",
                         options->samples);

    tr_result r;
    tr_image *depth = NULL, *ms_color = NULL;
    tr_pipeline *pipeline = NULL;

    if (depth_image != NULL) {
        tr_image_desc dd = tr_image_get_desc(depth_image);
        if (dd.format != TR_FORMAT_D32_SFLOAT || dd.width != scene->width || dd.height != scene->height ||
            ((scene->flags & TR_SCENE_DEPTH) && dd.samples != samples))
            return tr__error(ctx, TR_ERROR_INVALID_ARGUMENT,
                             "tr_scene_render: depth_image is %s %ux%u with %u samples; the scene needs "
                             "D32_SFLOAT %ux%u%s", tr_format_name(dd.format), dd.width, dd.height, dd.samples,
                             scene->width, scene->height,
                             (scene->flags & TR_SCENE_DEPTH) ? " with the pass's samples" : "");
    }
    if (samples > 1) {
        /* the multisampled colour the pass resolves into `color` */
        const tr_image_desc md = {.format = TR_FORMAT_R8G8B8A8_UNORM, .width = scene->width,
                                  .height = scene->height, .samples = samples};
        r = tr_image_create(ctx, &md, &ms_color);
        if (r != TR_OK)
            return r;
    }
    if ((scene->flags & TR_SCENE_DEPTH) && depth_image != NULL) {
        depth = depth_image;
    } else if (scene->flags & TR_SCENE_DEPTH) {
        tr_image_desc dd;
        memset(&dd, 0, sizeof dd);
        dd.format = TR_FORMAT_D32_SFLOAT;
        dd.width = scene->width;
        dd.height = scene->height;
        dd.flags = options ? options->image_flags : 0u;
        dd.samples = samples;
        r = tr_image_create(ctx, &dd, &depth);
        if (r != TR_OK)
            goto done;
    }
    tr_pipeline_desc pd = scene_pipeline_desc(scene->flags, scene->size, options);
    pd.multisample.samples = samples;
    if (samples > 1) /* GL's multisampled lines are rectangles (llvmpipe too) */
        pd.line_mode = TR_LINE_RECTANGULAR;
    r = tr_pipeline_create(ctx, &pd, &pipeline);
    if (r != TR_OK)
        goto done;

    tr_render_pass_desc rp = tr_scene_pass_desc(scene, ms_color ? ms_color : color, depth, options);
    if (ms_color) {
        rp.color[0].store_op = TR_STORE_OP_DONT_CARE;
        rp.color[0].resolve_image = color;
    }
    r = tr_cmd_begin_render_pass(ctx, &rp);
    if (r != TR_OK)
        goto done;

    /* Once the pass is open it must be ended whatever fails, or the context
     * stays stuck recording; the first error is the one reported. */
    tr_result rec = tr_cmd_bind_pipeline(ctx, pipeline);
    if (rec == TR_OK) {
        /* GL's window, y up (the pass's TR_PASS_ORIGIN_LOWER_LEFT): image
         * row r is window row height-1-r. */
        tr_viewport vp = { 0.0f, 0.0f, (float)scene->width, (float)scene->height, 0.0f, 1.0f };
        rec = tr_cmd_set_viewport(ctx, &vp);
    }
    if (rec == TR_OK) {
        scene_uniforms u;
        memset(&u, 0, sizeof u); /* the padding too: the bytes are the modules' push constants */
        u.point_size = scene->size;
        u.vertices = scene->vertices;
        rec = tr_cmd_set_uniforms(ctx, &u, sizeof u);
    }
    if (rec == TR_OK && options->vertex_module && scene->triangle_count > 0)
        rec = tr_cmd_bind_vertex_buffer(ctx, 0, scene->vertices,
                                        (size_t)tr_scene_prim_vertices(fl) * scene->triangle_count *
                                            sizeof(tr_scene_vertex), 0);
    if (rec == TR_OK && scene->triangle_count > 0)
        rec = tr_cmd_draw(ctx, tr_scene_prim_vertices(fl) * scene->triangle_count, 1, 0, 0);
    if (rec != TR_OK) {
        tr__saved_error saved;
        tr__error_save(&saved);
        tr_cmd_end_render_pass(ctx, stats);
        r = tr__error_restore(ctx, rec, &saved);
    } else {
        r = tr_cmd_end_render_pass(ctx, stats);
    }

done:;
    /* The clean-up calls clear the messages (result.h): keep the error's. */
    tr__saved_error saved;
    tr__error_save(&saved);
    if (pipeline != NULL)
        tr_pipeline_destroy(pipeline);
    if (depth != NULL && depth != depth_image)
        tr_image_destroy(depth);
    if (ms_color != NULL)
        tr_image_destroy(ms_color);
    return tr__error_restore(ctx, r, &saved);
}
