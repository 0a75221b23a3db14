# With OSMesa (libosmesa6-dev): three standard scenes must come out of
# tilerast and llvmpipe byte for byte.
if(TARGET tilerast-llvmpipe AND TARGET tilerast-render)
  add_test(NAME bench_matches_llvmpipe
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/llvmpipe_identical.sh
      $<TARGET_FILE:tilerast-bench> $<TARGET_FILE:tilerast-render> $<TARGET_FILE:tilerast-llvmpipe>)
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
