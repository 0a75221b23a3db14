# Build-level checks: the public headers compile as C++, and the library
# builds and renders (serially) without OpenMP.
include(CheckLanguage)
check_language(CXX)
if(CMAKE_CXX_COMPILER)
  enable_language(CXX)
  add_executable(build_headers_cxx ${CMAKE_CURRENT_LIST_DIR}/headers_cxx.cpp)
  target_link_libraries(build_headers_cxx PRIVATE tilerast_static)
  set_target_properties(build_headers_cxx PROPERTIES CXX_STANDARD 11 CXX_STANDARD_REQUIRED ON)
  target_compile_options(build_headers_cxx PRIVATE -Wall -Wextra -pedantic -Werror)
  add_test(NAME build_headers_cxx COMMAND build_headers_cxx)
else()
  message(STATUS "No C++ compiler: the C++ header test is skipped")
endif()

add_test(NAME build_without_openmp
  COMMAND ${CMAKE_COMMAND}
    -DSOURCE_DIR=${PROJECT_SOURCE_DIR}
    -DBINARY_DIR=${CMAKE_CURRENT_BINARY_DIR}/no-openmp
    -DGENERATOR=${CMAKE_GENERATOR}
    -P ${CMAKE_CURRENT_LIST_DIR}/no_openmp.cmake)
set_tests_properties(build_without_openmp PROPERTIES TIMEOUT 900 LABELS build)

# The compiler keeps float rounding that the pipeline relies on (see the
# SLP note in the top-level CMakeLists.txt).
add_executable(build_fp_rounding ${CMAKE_CURRENT_LIST_DIR}/fp_rounding.c)
add_test(NAME build_fp_rounding COMMAND build_fp_rounding)

# The include rules of src/: no include of a higher layer but the listed
# exceptions, and every file of src/ placed in a layer (both in
# src/README.md, which the script reads).  Needs only bash and awk.
add_test(NAME build_include_order COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/include_order.sh ${PROJECT_SOURCE_DIR}/src)
set_tests_properties(build_include_order PROPERTIES LABELS build)
