# test_centroid.c checks SPIR-V `centroid in` against the C pipeline: it
# compiles GLSL with shaderc through the shader tests' harness
# (tests/shader/spv_harness.h), as the shader tests do.
target_include_directories(multisample_test_centroid PRIVATE ${CMAKE_CURRENT_LIST_DIR}/../shader
  ${SPIRV_HEADERS_INCLUDE_DIR})
target_link_libraries(multisample_test_centroid PRIVATE tilerast::shaderc)
