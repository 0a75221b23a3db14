# Configures and builds tilerast with TILERAST_OPENMP=OFF, then renders the
# hello-triangle example and checks that it wrote a PNG.
file(REMOVE_RECURSE ${BINARY_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${BINARY_DIR} -G ${GENERATOR}
  -DTILERAST_OPENMP=OFF -DTILERAST_BUILD_TESTS=OFF -DTILERAST_BUILD_BENCH=OFF -DTILERAST_BUILD_TOOLS=OFF
  -DCMAKE_BUILD_TYPE=Release RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "configure without OpenMP failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BINARY_DIR} --target tilerast-hello-triangle -j 2 RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "build without OpenMP failed")
endif()
execute_process(COMMAND nm -u ${BINARY_DIR}/libtilerast.a OUTPUT_VARIABLE undef ERROR_QUIET)
if(undef MATCHES "GOMP_|omp_")
  message(FATAL_ERROR "the no-OpenMP library still references OpenMP")
endif()
execute_process(COMMAND ${BINARY_DIR}/examples/tilerast-hello-triangle ${BINARY_DIR}/hello.png RESULT_VARIABLE rc)
if(rc OR NOT EXISTS ${BINARY_DIR}/hello.png)
  message(FATAL_ERROR "hello-triangle without OpenMP failed")
endif()
message(STATUS "built and rendered without OpenMP")
