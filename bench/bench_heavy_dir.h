/* Forced into bench/bench_heavy.c (-include, bench/CMakeLists.txt) for the
 * bench's programs: the heavy scene's GLSL is read from the folder in
 * bench_heavy_shader_dir, which each program fills at run time (the
 * shaders folder it found, plus /bench), instead of a path fixed when it
 * was built, so that a copy carried to another machine finds its shaders
 * (bench/device_sidebyside.sh). */
#ifndef TILERAST_BENCH_HEAVY_DIR_H
#define TILERAST_BENCH_HEAVY_DIR_H
extern char bench_heavy_shader_dir[1024];
#define BENCH_HEAVY_SHADER_DIR bench_heavy_shader_dir
#endif
