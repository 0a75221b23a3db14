/* tilerast-render: the shader files a scene names (tr_scene.vertex_shader,
 * fragment_shader) or the command line gives, made into SPIR-V words:
 *   - ".spv": SPIR-V as it is (either byte order; a size that is a
 *     multiple of 4);
 *   - ".hlsl": HLSL through shaderc's HLSL front end, entry point "main";
 *   - anything else (".vert", ".frag", ".glsl"): GLSL for Vulkan through
 *     shaderc, read with the bench's reader (bench/bench_glsl.c), so that
 *     the text is the one the bench and llvmpipe compile.
 * SCENE_FLAT is defined to 1 for flat scenes (shaders/scene.* need it).
 * Both compile for Vulkan 1.1 without optimisation, as the bench does. */
#ifndef TILERAST_TOOL_SHADER_H
#define TILERAST_TOOL_SHADER_H

#include <stddef.h>
#include <stdint.h>

/* Shader files larger than this are refused before they are read (a path
 * to a device or a huge file is a mistake, not a shader). */
#define TOOL_SHADER_MAX_BYTES (16u << 20)

/* The file `file` resolved against the folder of `scene_path`: `file`
 * itself when it is absolute (or scene_path has no folder part).  Returns
 * 0, or -1 when out (out_size bytes) is too small. */
int tool_shader_resolve(const char *scene_path, const char *file, char *out, size_t out_size);

/* The SPIR-V words of the shader file at `path` (a fragment shader when
 * `fragment`, else a vertex shader; `flat`: define SCENE_FLAT), malloc()ed,
 * *words their count.  NULL on failure, msg (msg_size bytes) holding why:
 * the path and the reader's or the compiler's message. */
uint32_t *tool_shader_spirv(const char *path, int fragment, int flat, size_t *words, char *msg, size_t msg_size);

#endif
