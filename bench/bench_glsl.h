/* bench: the GLSL shaders the bench draws with (shaders/scene.vert and
 * shaders/scene.frag, and whatever other scenes bring), for both sides:
 *   - bench_glsl_source reads one from a folder, with "#define NAME 1"
 *     lines inserted after its #version line (SCENE_FLAT for flat scenes),
 *     so that tilerast (through shaderc) and OpenGL (llvmpipe) compile the
 *     very same text;
 *   - bench_glsl_spirv compiles such a text for Vulkan with shaderc (the
 *     shaderc half, bench_glsl_spirv.c, is linked by the programs that make
 *     SPIR-V; the llvmpipe runner needs only the first). */
#ifndef TILERAST_BENCH_GLSL_H
#define TILERAST_BENCH_GLSL_H

#include <stddef.h>
#include <stdint.h>

/* The source of dir/file with each of `defines` (names, NULL-terminated
 * list; NULL for none) defined to 1 just after the #version line.  Returns
 * the text (free()), or NULL with msg (msg_size bytes) saying why. */
char *bench_glsl_source(const char *dir, const char *file, const char *const *defines, char *msg,
                        size_t msg_size);

/* GLSL text (a vertex shader when fragment is 0) into SPIR-V words for
 * Vulkan 1.1 (free()); *words their count.  NULL with msg holding the
 * compiler's message on failure.  name: for the messages. */
uint32_t *bench_glsl_spirv(const char *source, const char *name, int fragment, size_t *words, char *msg,
                           size_t msg_size);

/* The general form (tilerast-render's shader files): GLSL, or HLSL when
 * hlsl (entry "main"; flat: SCENE_FLAT defined as 1, which GLSL gets in
 * its text); GLSL without a #version line is compiled as 450 core.
 * Messages are one line and name `path`. */
uint32_t *bench_shaderc_spirv(const char *source, const char *path, int fragment, int hlsl, int flat, size_t *words,
                              char *msg, size_t msg_size);

#endif
