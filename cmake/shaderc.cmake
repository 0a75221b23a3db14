# shaderc (Debian's libshaderc-dev), for the programs that compile GLSL or
# HLSL into SPIR-V: the shader tests, examples/glsl_triangle.c, the bench.
# The library itself takes SPIR-V only and does not link it.  Debian's
# libshaderc.so names no glslang library to load, so the static archives are
# linked: shaderc, glslang's parts, SPIRV-Tools (C++ beneath), wrapped in
# the interface target tilerast::shaderc.
find_path(SHADERC_INCLUDE_DIR shaderc/shaderc.h)
set(SHADERC_STATIC_LIBRARIES)
foreach(lib shaderc_combined glslang MachineIndependent OSDependent GenericCodeGen OGLCompiler HLSL SPIRV
            glslang-default-resource-limits SPIRV-Tools-opt SPIRV-Tools)
  find_library(SHADERC_PART_${lib} lib${lib}.a)
  if(NOT SHADERC_PART_${lib})
    message(FATAL_ERROR "lib${lib}.a not found: install Debian's libshaderc-dev (it brings glslang-dev and spirv-tools)")
  endif()
  list(APPEND SHADERC_STATIC_LIBRARIES ${SHADERC_PART_${lib}})
endforeach()
if(NOT SHADERC_INCLUDE_DIR)
  message(FATAL_ERROR "shaderc not found: install Debian's libshaderc-dev")
endif()
add_library(tilerast::shaderc INTERFACE IMPORTED)
set_target_properties(tilerast::shaderc PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${SHADERC_INCLUDE_DIR}"
  INTERFACE_LINK_LIBRARIES "${SHADERC_STATIC_LIBRARIES};stdc++;Threads::Threads")
