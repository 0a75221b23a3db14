# Run by ctest as `cmake -P` (see tests.cmake).  Installs the built library
# into TR_PREFIX, then, as a user of the installed package would:
#   1. configures and builds tests/install/consumer with CMAKE_PREFIX_PATH set
#      (find_package(tilerast CONFIG REQUIRED)), and runs its two programs,
#      one linked to tilerast::tilerast (shared), one to tilerast::tilerast_static;
#   2. compiles consumer/main.c with the flags of `pkg-config --cflags --libs
#      tilerast` and runs it, then again with `pkg-config --static` against
#      libtilerast.a (skipped, with a message, without pkg-config).
# Any failure stops the script with FATAL_ERROR, which fails the test.
#
# Variables: TR_BUILD_DIR TR_SOURCE_DIR TR_PREFIX TR_WORK_DIR TR_LIBDIR
# TR_CONFIG TR_GENERATOR TR_MAKE_PROGRAM TR_C_COMPILER TR_SANITIZE
cmake_minimum_required(VERSION 3.25)

foreach(v TR_BUILD_DIR TR_SOURCE_DIR TR_PREFIX TR_WORK_DIR TR_GENERATOR)
  if(NOT DEFINED ${v} OR "${${v}}" STREQUAL "")
    message(FATAL_ERROR "run_install_test.cmake: -D${v}=... is required")
  endif()
endforeach()
if(NOT TR_LIBDIR)
  set(TR_LIBDIR lib)
endif()
# The build's configuration ($<CONFIG>); empty for a single-config build with
# no CMAKE_BUILD_TYPE, where install rules are for the empty configuration.
set(config_args "")
if(TR_CONFIG)
  set(config_args --config "${TR_CONFIG}")
endif()

# Runs a command, echoing it; stops on a non-zero exit.
function(tr_run what)
  string(REPLACE ";" " " shown "${ARGN}")
  message(STATUS "install_consume: ${what}: ${shown}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "install_consume: ${what} failed (${rc}):\n${out}")
  endif()
  if(NOT "${out}" STREQUAL "")
    message(STATUS "${out}")
  endif()
endfunction()

set(sanitize_flags "")
if(TR_SANITIZE)
  # The library was built with the sanitizers: its users must link them too.
  set(sanitize_flags -fsanitize=address,undefined)
endif()

# ---- install --------------------------------------------------------------
file(REMOVE_RECURSE "${TR_PREFIX}" "${TR_WORK_DIR}")
file(MAKE_DIRECTORY "${TR_WORK_DIR}")
tr_run("install" ${CMAKE_COMMAND} --install "${TR_BUILD_DIR}" --prefix "${TR_PREFIX}"
       ${config_args})
foreach(f include/tilerast/tilerast.h ${TR_LIBDIR}/cmake/tilerast/tilerastConfig.cmake
          ${TR_LIBDIR}/pkgconfig/tilerast.pc)
  if(NOT EXISTS "${TR_PREFIX}/${f}")
    message(FATAL_ERROR "install_consume: the install did not create ${f}")
  endif()
endforeach()

# ---- 1. the CMake package ---------------------------------------------------
set(consumer_build "${TR_WORK_DIR}/consumer-build")
set(configure_args -S "${TR_SOURCE_DIR}/tests/install/consumer" -B "${consumer_build}"
    -G "${TR_GENERATOR}" "-DCMAKE_PREFIX_PATH=${TR_PREFIX}" "-DCMAKE_BUILD_TYPE=${TR_CONFIG}"
    # Only the prefix we installed into: never a tilerast installed elsewhere.
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF
    "-DTR_EXPECT_PREFIX=${TR_PREFIX}")
if(TR_MAKE_PROGRAM)
  list(APPEND configure_args "-DCMAKE_MAKE_PROGRAM=${TR_MAKE_PROGRAM}")
endif()
if(TR_C_COMPILER)
  list(APPEND configure_args "-DCMAKE_C_COMPILER=${TR_C_COMPILER}")
endif()
if(TR_SANITIZE)
  list(APPEND configure_args "-DCMAKE_C_FLAGS=-fsanitize=address,undefined"
       "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined")
endif()
tr_run("configure the consumer" ${CMAKE_COMMAND} ${configure_args})
tr_run("build the consumer" ${CMAKE_COMMAND} --build "${consumer_build}" ${config_args})

foreach(exe consume_shared consume_static)
  set(found "")
  foreach(cand "${consumer_build}/${exe}" "${consumer_build}/${TR_CONFIG}/${exe}")
    if(EXISTS "${cand}")
      set(found "${cand}")
      break()
    endif()
  endforeach()
  if(NOT found)
    message(FATAL_ERROR "install_consume: the consumer build made no ${exe}")
  endif()
  # No LD_LIBRARY_PATH: the shared one must find the installed library by the
  # build RPATH that CMake gives it from the imported target.
  tr_run("run ${exe}" "${found}")
endforeach()

# ---- 2. pkg-config ---------------------------------------------------------
find_program(PKG_CONFIG_EXECUTABLE NAMES pkg-config pkgconf)
if(NOT PKG_CONFIG_EXECUTABLE)
  message(STATUS "install_consume: pkg-config not found; skipping the pkg-config check")
  message(STATUS "install_consume: passed (CMake package only)")
  return()
endif()

set(ENV{PKG_CONFIG_PATH} "${TR_PREFIX}/${TR_LIBDIR}/pkgconfig")
execute_process(COMMAND "${PKG_CONFIG_EXECUTABLE}" --cflags --libs tilerast
  RESULT_VARIABLE rc OUTPUT_VARIABLE pc_flags ERROR_VARIABLE pc_err
  OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "install_consume: pkg-config --cflags --libs tilerast failed:\n${pc_err}")
endif()
message(STATUS "install_consume: pkg-config --cflags --libs tilerast: ${pc_flags}")
separate_arguments(pc_args UNIX_COMMAND "${pc_flags}")
# The .pc file must describe the prefix it was installed into, not the
# configure-time CMAKE_INSTALL_PREFIX: some -I must hold our headers and lie
# under TR_PREFIX.
file(REAL_PATH "${TR_PREFIX}" real_prefix)
set(pc_include_ok FALSE)
foreach(arg ${pc_args})
  if(arg MATCHES "^-I(.+)$")
    set(inc "${CMAKE_MATCH_1}")
    if(EXISTS "${inc}/tilerast/tilerast.h")
      file(REAL_PATH "${inc}" real_inc)
      string(FIND "${real_inc}/" "${real_prefix}/" at)
      if(at EQUAL 0)
        set(pc_include_ok TRUE)
      endif()
    endif()
  endif()
endforeach()
if(NOT pc_include_ok)
  message(FATAL_ERROR "install_consume: tilerast.pc does not point into the prefix it was "
    "installed into (${TR_PREFIX}): pkg-config says '${pc_flags}'.  The .pc file must be "
    "relocatable (prefix=\${pcfiledir}/../..).")
endif()

set(cc "${TR_C_COMPILER}")
if(NOT cc)
  set(cc cc)
endif()
set(pc_exe "${TR_WORK_DIR}/consume_pkgconfig")
tr_run("compile with pkg-config's flags" "${cc}" -std=c11 ${sanitize_flags}
       "${TR_SOURCE_DIR}/tests/install/consumer/main.c" ${pc_args} -o "${pc_exe}")
tr_run("run consume_pkgconfig" ${CMAKE_COMMAND} -E env
       "LD_LIBRARY_PATH=${TR_PREFIX}/${TR_LIBDIR}" "${pc_exe}")

# The static library through pkg-config --static: Libs.private must bring
# what libtilerast.a needs (SPIRV-Tools, libstdc++, OpenMP, threads, libm).
# -l:libtilerast.a (GNU ld and lld) picks the archive where -ltilerast
# would pick the .so.
execute_process(COMMAND "${PKG_CONFIG_EXECUTABLE}" --static --cflags --libs tilerast
  RESULT_VARIABLE rc OUTPUT_VARIABLE pc_static_flags ERROR_VARIABLE pc_err
  OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "install_consume: pkg-config --static --cflags --libs tilerast failed:\n${pc_err}")
endif()
message(STATUS "install_consume: pkg-config --static --cflags --libs tilerast: ${pc_static_flags}")
separate_arguments(pc_static_args UNIX_COMMAND "${pc_static_flags}")
list(TRANSFORM pc_static_args REPLACE "^-ltilerast$" "-l:libtilerast.a")
set(pc_static_exe "${TR_WORK_DIR}/consume_pkgconfig_static")
tr_run("compile with pkg-config --static's flags" "${cc}" -std=c11 ${sanitize_flags}
       "${TR_SOURCE_DIR}/tests/install/consumer/main.c" ${pc_static_args} -o "${pc_static_exe}")
tr_run("run consume_pkgconfig_static" "${pc_static_exe}")

message(STATUS "install_consume: passed (CMake package: shared and static; pkg-config: shared and static)")
