/* tilerast-render: models (glTF 2.0, OBJ and whatever else assimp reads)
 * drawn with shaders/model.vert and shaders/model.frag through the SPIR-V
 * path (README.md, "Models (glTF, OBJ)").
 *
 * The file is imported with assimp's C API, checked (indices inside their
 * mesh, finite positions, textures that load), framed by an automatic
 * camera and lit by a fixed directional light; the tool then writes the
 * image as it writes a scene's.  Built without assimp, every call fails
 * with a message saying so. */
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

typedef struct tool_model_options {
    uint32_t width, height;      /* 0 = TOOL_MODEL_WIDTH x TOOL_MODEL_HEIGHT */
    const char *vertex_shader;   /* NULL = model.vert from $TILERAST_SHADERS, the installed
                                    share/tilerast/shaders or the source tree's shaders/ */
    const char *fragment_shader; /* NULL = model.frag, likewise */
    int camera;                  /* 0 = the automatic camera; N = the file's camera N - 1 (--camera N-1) */
} tool_model_options;

typedef struct tool_model_info {
    uint32_t width, height;
    uint32_t triangles; /* drawn, over every mesh instance */
    uint32_t draws;     /* mesh instances (one draw each) */
    uint32_t meshes, textures;
} tool_model_info;

/* Imports `path` and renders it into *out, a new R8G8B8A8_SRGB image of
 * ctx (destroyed with the context).  0, or -1 with msg (msg_size bytes)
 * naming the file and the element at fault (assimp's own message for a
 * file it refuses). */
int tool_model_render(tr_context *ctx, const char *path, const tool_model_options *o, tr_image **out,
                      tr_pass_stats *stats, tool_model_info *info, char *msg, size_t msg_size);

#endif
