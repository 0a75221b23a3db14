# Opt-in: every 32-bit x for a list of magic divisors.  Built with the tests
# but not registered with ctest (it takes minutes); run it with
#   cmake --build build --target check-exhaustive
add_executable(instancing_exhaustive ${CMAKE_CURRENT_LIST_DIR}/exhaustive_magic.c)
target_link_libraries(instancing_exhaustive PRIVATE tilerast_static)
if(TILERAST_OPENMP AND OpenMP_C_FOUND)
  target_link_libraries(instancing_exhaustive PRIVATE OpenMP::OpenMP_C)
endif()
add_custom_target(check-exhaustive
  COMMAND instancing_exhaustive
  DEPENDS instancing_exhaustive
  USES_TERMINAL
  COMMENT "Checking magic divisors on every 32-bit value")
