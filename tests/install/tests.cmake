# install_consume: installs the library into a prefix under the build tree and
# builds and runs a separate project against it, through the CMake package
# (tilerast::tilerast and tilerast::tilerast_static) and through pkg-config.
# Included by tests/CMakeLists.txt; the work is in run_install_test.cmake.
set(TR_INSTALL_TEST_DIR ${CMAKE_CURRENT_BINARY_DIR}/install_consume)
add_test(NAME install_consume
  COMMAND ${CMAKE_COMMAND}
    -DTR_BUILD_DIR=${PROJECT_BINARY_DIR}
    -DTR_SOURCE_DIR=${PROJECT_SOURCE_DIR}
    -DTR_PREFIX=${TR_INSTALL_TEST_DIR}/prefix
    -DTR_WORK_DIR=${TR_INSTALL_TEST_DIR}/work
    -DTR_LIBDIR=${CMAKE_INSTALL_LIBDIR}
    -DTR_CONFIG=$<CONFIG>
    -DTR_GENERATOR=${CMAKE_GENERATOR}
    -DTR_MAKE_PROGRAM=${CMAKE_MAKE_PROGRAM}
    -DTR_C_COMPILER=${CMAKE_C_COMPILER}
    -DTR_SANITIZE=${TILERAST_SANITIZE}
    -P ${CMAKE_CURRENT_LIST_DIR}/run_install_test.cmake)
set_tests_properties(install_consume PROPERTIES TIMEOUT 600 LABELS install)
