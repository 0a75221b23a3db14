/* One shaderc compiler held for the test process's life (included by
 * spv_harness.h and by the tests that compile GLSL without it).
 *
 * glslang builds its built-in symbol tables on a process's first compile
 * and frees them when the last shaderc compiler is released, which every
 * compile of the tests' helpers does: holding one compiler keeps the
 * tables, and each later compile skips the rebuild (about 0.1 s each; the
 * shader tests took 114 CPU-seconds with the rebuilds, 65 without).
 * Timing only: the SPIR-V compiled is the same. */
#ifndef SHADERC_WARM_H
#define SHADERC_WARM_H

#include <shaderc/shaderc.h>

static shaderc_compiler_t shaderc_warm_compiler;
__attribute__((constructor)) static void shaderc_warm_hold(void)
{
    shaderc_warm_compiler = shaderc_compiler_initialize();
}
__attribute__((destructor)) static void shaderc_warm_release(void)
{
    shaderc_compiler_release(shaderc_warm_compiler);
}

#endif
