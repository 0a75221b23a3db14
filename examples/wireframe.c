/* wireframe: lines and points over a shaded mesh, the way a debug overlay
 * or a CAD viewer draws them.
 *
 * The grid of a sphere, twice, is drawn three times into one
 * 512x384 pass with a D24 depth buffer:
 *   - filled triangles, shaded by height;
 *   - every grid edge as a line (a LINE_LIST of the triangles' edges), left
 *     half Bresenham lines of width 1, right half rectangular lines of width
 *     2.5, depth-tested LESS_OR_EQUAL so that lines on the surface win;
 *   - every grid vertex as a point of size 5 whose fragment shader draws a
 *     round dot from its point coordinate.
 * Writes wireframe.png (or argv[1]) and prints the primitives drawn. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <tilerast/tilerast.h>

enum { W = 512, H = 384, SEG = 16, RINGS = 10 };

typedef struct vtx {
    float pos[4];
    float col[4];
} vtx;

static vtx verts[(RINGS + 1) * (SEG + 1)];
static uint32_t tri_idx[RINGS * SEG * 6];
static uint32_t line_idx[RINGS * SEG * 4];

/* A sphere on a grid of rings and segments, in clip space with a simple
 * perspective (w grows with depth); its colour from its height. */
static void build(float cx)
{
    for (int r = 0; r <= RINGS; r++)
        for (int s = 0; s <= SEG; s++) {
            const float th = 3.14159265f * (float)r / RINGS, ph = 6.2831853f * (float)s / SEG + 0.4f;
            const float x = sinf(th) * cosf(ph), y = cosf(th), z = sinf(th) * sinf(ph);
            const float w = 2.6f + z;
            vtx *v = &verts[r * (SEG + 1) + s];
            v->pos[0] = (x * 0.75f + cx) * 1.2f;
            v->pos[1] = -y * 1.2f;
            v->pos[2] = (0.5f + 0.3f * z) * w;
            v->pos[3] = w;
            v->col[0] = 0.25f + 0.35f * (1 - y);
            v->col[1] = 0.35f + 0.25f * (1 + y);
            v->col[2] = 0.6f;
            v->col[3] = 1;
        }
    uint32_t *t = tri_idx, *l = line_idx;
    for (int r = 0; r < RINGS; r++)
        for (int s = 0; s < SEG; s++) {
            const uint32_t a = (uint32_t)(r * (SEG + 1) + s), b = a + 1, c = a + SEG + 1, d = c + 1;
            *t++ = a, *t++ = c, *t++ = b, *t++ = b, *t++ = c, *t++ = d;
            *l++ = a, *l++ = b, *l++ = a, *l++ = c; /* each edge once (the last ring and seam left open) */
        }
}

typedef struct uniforms {
    const vtx *v;
    float tint[4]; /* 0: the vertex colour */
} uniforms;

static void vertex_shader(tr_vs_batch *b)
{
    const uniforms *u = b->uniforms;
    for (uint32_t i = 0; i < b->count; i++) {
        const vtx *v = &u->v[b->vertex_index[i]];
        for (int c = 0; c < 4; c++) {
            b->position[c][i] = v->pos[c];
            b->varyings[0][c][i] = u->tint[3] > 0 ? u->tint[c] : v->col[c];
        }
        /* lines and dots a little nearer than the surface they lie on (as
         * a GL program would use glPolygonOffset), so the depth test
         * keeps them where their depth and the triangles' round apart */
        if (u->tint[3] > 0)
            b->position[2][i] -= 0.004f * v->pos[3];
        b->point_size[i] = 5.0f;
    }
}

static void fs_colour(tr_fs_block *b)
{
    for (int c = 0; c < 4; c++)
        for (uint32_t i = 0; i < b->count; i++)
            b->color[0][c][i] = b->varyings[0][c][i];
}

/* A round dot: lanes outside the disc inscribed in the point are discarded. */
static void fs_dot(tr_fs_block *b)
{
    fs_colour(b);
    for (uint32_t i = 0; i < b->count; i++) {
        const float dx = b->point_coord[0][i] - 0.5f, dy = b->point_coord[1][i] - 0.5f;
        if (dx * dx + dy * dy > 0.25f)
            b->discard |= 1ull << i;
    }
}

#define CHECK(call)                                                                                            \
    do {                                                                                                       \
        tr_result r_ = (call);                                                                                 \
        if (r_ != TR_OK) {                                                                                     \
            fprintf(stderr, "wireframe: %s failed: %s (%s)\n", #call, tr_result_string(r_),                   \
                    ctx ? tr_context_last_error(ctx) : "");                                                    \
            return 1;                                                                                          \
        }                                                                                                      \
    } while (0)

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "wireframe.png";
    tr_context *ctx = NULL;
    CHECK(tr_context_create(NULL, &ctx));
    tr_image *color = NULL, *depth = NULL;
    CHECK(tr_image_create(ctx, &(tr_image_desc){.format = TR_FORMAT_R8G8B8A8_UNORM, .width = W, .height = H}, &color));
    CHECK(tr_image_create(ctx, &(tr_image_desc){.format = TR_FORMAT_D24_UNORM_S8_UINT, .width = W, .height = H}, &depth));

    tr_pipeline_desc pd = {.vertex_shader = vertex_shader, .fragment_shader = fs_colour, .varying_count = 1,
                           .depth_test = 1, .depth_write = 1, .cull_mode = TR_CULL_NONE};
    tr_pipeline *fill = NULL, *bres = NULL, *rect = NULL, *dots = NULL;
    CHECK(tr_pipeline_create(ctx, &pd, &fill));
    pd.topology = TR_TOPOLOGY_LINE_LIST;
    pd.depth_compare = TR_COMPARE_LESS_OR_EQUAL;
    pd.depth_write = 0;
    pd.line_mode = TR_LINE_BRESENHAM;
    CHECK(tr_pipeline_create(ctx, &pd, &bres));
    pd.line_mode = TR_LINE_RECTANGULAR;
    pd.line_width = 2.5f;
    CHECK(tr_pipeline_create(ctx, &pd, &rect));
    pd.topology = TR_TOPOLOGY_POINT_LIST;
    pd.fragment_shader = fs_dot;
    pd.fs_flags = TR_FS_MAY_DISCARD;
    CHECK(tr_pipeline_create(ctx, &pd, &dots));

    tr_render_pass_desc rp = {.color_count = 1};
    rp.color[0] = (tr_color_attachment){.image = color, .load_op = TR_LOAD_OP_CLEAR,
                                        .clear_color = {0.08f, 0.08f, 0.1f, 1}};
    rp.depth = (tr_depth_attachment){.image = depth, .depth_load_op = TR_LOAD_OP_CLEAR, .clear_depth = 1};
    CHECK(tr_cmd_begin_render_pass(ctx, &rp));
    const float centres[2] = {-1.05f, 1.05f};
    for (int half = 0; half < 2; half++) {
        build(centres[half]);
        /* a copy per half: uniforms are copied at the call, the vertices
         * are read while the draw is recorded */
        uniforms u = {verts, {0, 0, 0, 0}};
        CHECK(tr_cmd_set_uniforms(ctx, &u, sizeof u));
        CHECK(tr_cmd_bind_pipeline(ctx, fill));
        CHECK(tr_cmd_bind_index_buffer(ctx, tri_idx, sizeof tri_idx, 0, TR_INDEX_U32));
        CHECK(tr_cmd_draw_indexed(ctx, RINGS * SEG * 6, 1, 0, 0, 0));
        u.tint[0] = 1, u.tint[1] = 0.9f, u.tint[2] = 0.3f, u.tint[3] = 1;
        CHECK(tr_cmd_set_uniforms(ctx, &u, sizeof u));
        CHECK(tr_cmd_bind_pipeline(ctx, half ? rect : bres));
        CHECK(tr_cmd_bind_index_buffer(ctx, line_idx, sizeof line_idx, 0, TR_INDEX_U32));
        CHECK(tr_cmd_draw_indexed(ctx, RINGS * SEG * 4, 1, 0, 0, 0));
        u.tint[0] = 1, u.tint[1] = 0.3f, u.tint[2] = 0.25f;
        CHECK(tr_cmd_set_uniforms(ctx, &u, sizeof u));
        CHECK(tr_cmd_bind_pipeline(ctx, dots));
        CHECK(tr_cmd_draw(ctx, (RINGS + 1) * (SEG + 1), 1, 0, 0));
    }
    tr_pass_stats st;
    CHECK(tr_cmd_end_render_pass(ctx, &st));
    CHECK(tr_image_write_png(color, NULL, path));
    printf("wireframe: %llu primitives in, %llu binned, %llu fragments written -> %s\n",
           (unsigned long long)st.primitives_in, (unsigned long long)st.primitives_binned,
           (unsigned long long)st.fragments_written, path);
    tr_context_destroy(ctx);
    return 0;
}
