/* tilerast-render: models (glTF 2.0, OBJ and whatever else assimp reads)
 * drawn with shaders/model.vert and shaders/model.frag through the SPIR-V
 * path (README.md, "Models (glTF, OBJ)").
 *
 * Two halves:
 *   - tool_model_load imports a file with assimp's C API and checks it
 *     (indices inside their mesh, finite positions, textures that load),
 *     and turns it into the draws any renderer can replay: vertices,
 *     indices, the uniform block of the shaders, five textures, and the
 *     fixed-function state, in the order they are drawn (opaque and
 *     masked materials in node order, then blended ones back to front).
 *     The llvmpipe runner (bench/llvmpipe_runner.c) draws these very
 *     draws with OpenGL.
 *   - tool_model_render draws them with tilerast, into an image.
 * Models are drawn in OpenGL's window conventions (TR_PASS_ORIGIN_LOWER_LEFT,
 * a projection with clip y up and depth 0..1), so that a GL renderer
 * given glClipControl(GL_LOWER_LEFT, GL_ZERO_TO_ONE) draws the same
 * picture.  Built without assimp, every call fails with a message saying
 * so. */
#ifndef TILERAST_TOOL_MODEL_H
#define TILERAST_TOOL_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include <tilerast/tilerast.h>

/* The image size of a model render (the tool has no size option). */
#define TOOL_MODEL_WIDTH 1024u
#define TOOL_MODEL_HEIGHT 768u

/* 1 when `path` names a model rather than a scene file: an extension other
 * than ".scn" that assimp imports (without assimp: .gltf, .glb, .obj,
 * .fbx, .dae, .ply, .stl, .3ds, so that the error says what is missing). */
int tool_model_is_model(const char *path);

/* ---- the draws, for any renderer --------------------------------------------------------- */

/* The textures of shaders/model.frag: sampler binding (and tilerast texture
 * slot, GL texture unit) TOOL_MODEL_TEX_x + 1; binding 0 is the uniform block. */
enum {
    TOOL_MODEL_TEX_BASE_COLOR = 0, /* R8G8B8A8_SRGB */
    TOOL_MODEL_TEX_METALLIC_ROUGHNESS, /* R8G8B8A8_UNORM: G roughness, B metallic */
    TOOL_MODEL_TEX_NORMAL,         /* R8G8B8A8_UNORM, tangent space */
    TOOL_MODEL_TEX_OCCLUSION,      /* R8G8B8A8_UNORM: R occlusion */
    TOOL_MODEL_TEX_EMISSIVE,       /* R8G8B8A8_SRGB */
    TOOL_MODEL_TEXTURES
};
#define TOOL_MODEL_MAX_LIGHTS 4u

/* Vertex buffer 0, locations 0..3. */
typedef struct tool_model_vertex {
    float position[3]; /* location 0, the mesh's own space */
    float normal[3];   /* location 1 */
    float tangent[4];  /* location 2: xyz tangent, w the bitangent's sign (glTF's) */
    float uv[2];       /* location 3: texture coordinate set 0, t = 0 at the image's first row */
} tool_model_vertex;

/* Uniform buffer binding 0 of both shaders (std140; every member a mat4
 * or vec4, so std430 is the same bytes).  shaders/model.vert says what
 * each member means. */
typedef struct tool_model_uniforms {
    float clip_from_model[16]; /* column-major */
    float world_from_model[16];
    float world_normal[16];    /* inverse transpose of world_from_model's 3x3 */
    float base_color[4];       /* linear RGBA factor */
    float emissive[4];         /* rgb factor; w: the alpha cutoff (MASK) */
    float material[4];         /* metallic, roughness, normal scale, occlusion strength */
    float mode[4];             /* x: alpha mode (0 OPAQUE, 1 MASK, 2 BLEND); y: the textures the material
                                  has, bit t for TOOL_MODEL_TEX_t;
                                  z: light count; w: ambient */
    float eye[4];              /* the camera's position, world space */
    float light[TOOL_MODEL_MAX_LIGHTS][4][4]; /* per light: [0] xyz position or, directional, the unit
                                  vector towards the light; w type (0 directional, 1 point, 2 spot);
                                  [1] rgb colour x intensity; [2] xyz the spot's unit direction,
                                  w cone scale; [3] x cone offset */
} tool_model_uniforms;

typedef struct tool_model_draw {
    const tool_model_vertex *vertices;
    const uint32_t *indices; /* triangle list */
    uint32_t vertex_count, index_count;
    uint32_t mesh;           /* the file's mesh index, for messages */
    tool_model_uniforms uniforms;
    const tr_image *textures[TOOL_MODEL_TEXTURES]; /* never NULL (1x1 defaults) */
    int cull_back;           /* cull back faces (single-sided material) */
    int front_ccw;           /* front faces wind counter-clockwise (y up); 0: clockwise (a mirroring node) */
    int blend;               /* BLEND: src alpha, one minus src alpha; no depth write */
} tool_model_draw;

typedef struct tool_model tool_model;

/* The linear clear colour of a model render (sRGB-encoded when stored). */
extern const float tool_model_clear[4];

/* Imports `path` for a width x height picture through the file's camera
 * `camera` (-1: the automatic one).  Textures become images of ctx.  0, or
 * -1 with msg naming the file and the element at fault. */
int tool_model_load(tr_context *ctx, const char *path, int camera, uint32_t width, uint32_t height,
                    tool_model **out, char *msg, size_t msg_size);
/* The draws, in drawing order; returns their count. */
uint32_t tool_model_draws(const tool_model *m, const tool_model_draw **draws);
uint32_t tool_model_mesh_count(const tool_model *m);
uint32_t tool_model_texture_count(const tool_model *m); /* the file's, loaded */
uint32_t tool_model_light_count(const tool_model *m);   /* the file's lights used (0: the default light) */
/* Frees the draws and destroys the textures; NULL does nothing. */
void tool_model_free(tool_model *m);

/* ---- drawing with tilerast ----------------------------------------------------------------- */

typedef struct tool_model_options {
    uint32_t width, height;      /* 0 = TOOL_MODEL_WIDTH x TOOL_MODEL_HEIGHT */
    const char *vertex_shader;   /* NULL = model.vert from $TILERAST_SHADERS, the installed
                                    share/tilerast/shaders or the source tree's shaders/ */
    const char *fragment_shader; /* NULL = model.frag, likewise */
    tr_shader_module *vertex_module, *fragment_module; /* borrowed, of ctx: used instead of compiling
                                    the files (a caller rendering many models compiles once) */
    int camera;                  /* 0 = the automatic camera; N = the file's camera N - 1 (--camera N-1) */
    /* The pass (tilerast-render --density-map, --views, --subsampled): */
    uint32_t views;              /* 0 or 1: one view; N > 1: multiview, view_mask (1 << N) - 1, the
                                    image N layers, every view the same camera */
    tr_image *density_map;       /* borrowed: the pass's fragment density map, NULL for none */
    uint32_t image_flags;        /* added to the colour (and depth) image's flags, e.g. TR_IMAGE_SUBSAMPLED
                                    (colour only) or TR_IMAGE_FDM_OFFSET */
    const float *clear;          /* the linear clear colour (4 floats); NULL = tool_model_clear */
    /* Called after the pass, while its attachments live, with the pass as
     * it was begun (tr_fdm_write_png wants it): 0 to go on, else the
     * render fails with the message it wrote.  NULL: none. */
    int (*after_pass)(void *user, tr_context *ctx, const tr_render_pass_desc *rp, char *msg, size_t msg_size);
    void *user;
} tool_model_options;

typedef struct tool_model_info {
    uint32_t width, height;
    uint32_t triangles; /* drawn, over every mesh instance */
    uint32_t draws;     /* mesh instances (one draw each) */
    uint32_t meshes, textures, lights;
} tool_model_info;

/* What draws a loaded model with tilerast: the shader modules, the
 * pipelines, the sampler and the depth image (o->width x o->height),
 * made once for any number of frames (the bench times them). */
typedef struct tool_model_renderer tool_model_renderer;
int tool_model_renderer_create(tr_context *ctx, const tool_model_options *o, tool_model_renderer **out, char *msg,
                               size_t msg_size);
/* One render pass of m's draws into color (R8G8B8A8_SRGB, o's size and
 * views); stats may be NULL.  0, or -1 with msg naming `path`. */
int tool_model_renderer_draw(tool_model_renderer *r, const char *path, const tool_model *m, tr_image *color,
                             tr_pass_stats *stats, char *msg, size_t msg_size);
void tool_model_renderer_destroy(tool_model_renderer *r);

/* The bins of a model render with options o when it has a density map
 * (whatever the map holds; o->density_map is ignored): what a density map
 * made for the pass must resolve (tool_density.h). */
tr_result tool_model_fdm_layout(tr_context *ctx, const tool_model_options *o, tr_bin_layout *out);

/* Imports `path` and renders it into *out, a new R8G8B8A8_SRGB image of
 * ctx (destroyed with the context).  0, or -1 with msg (msg_size bytes)
 * naming the file and the element at fault (assimp's own message for a
 * file it refuses). */
int tool_model_render(tr_context *ctx, const char *path, const tool_model_options *o, tr_image **out,
                      tr_pass_stats *stats, tool_model_info *info, char *msg, size_t msg_size);

#endif
