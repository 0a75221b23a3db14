# With OSMesa (libosmesa6-dev): three standard scenes and a perspective
# scene must come out of tilerast and llvmpipe byte for byte, and at 4x
# with the same coverage (llvmpipe_identical.sh).
# The perspective scene's generator (gen_perspective.c) is a test helper.
# Labelled `full` in tests/CMakeLists.txt: scripts/test.sh --full runs it.
if(TARGET tilerast-llvmpipe AND TARGET tilerast-render)
  add_executable(gen_perspective ${CMAKE_CURRENT_LIST_DIR}/gen_perspective.c)
  target_link_libraries(gen_perspective PRIVATE tilerast_static m)
  add_test(NAME bench_matches_llvmpipe
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/llvmpipe_identical.sh
      $<TARGET_FILE:tilerast-bench> $<TARGET_FILE:tilerast-render> $<TARGET_FILE:tilerast-llvmpipe>
      $<TARGET_FILE:gen_perspective>)
  # Under LeakSanitizer, Mesa's own leak in OSMesa is suppressed (lsan.supp).
  set_tests_properties(bench_matches_llvmpipe PROPERTIES TIMEOUT 600 LABELS bench
    ENVIRONMENT "LSAN_OPTIONS=suppressions=${CMAKE_CURRENT_LIST_DIR}/lsan.supp")
endif()

# The standard scenes' generator is the bench's own code.
if(TARGET bench_test_standard_scenes)
  target_sources(bench_test_standard_scenes PRIVATE ${PROJECT_SOURCE_DIR}/bench/bench_scenes.c
    ${PROJECT_SOURCE_DIR}/bench/bench_obj.c)
  target_include_directories(bench_test_standard_scenes PRIVATE ${PROJECT_SOURCE_DIR}/bench)
endif()
