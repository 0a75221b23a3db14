#!/usr/bin/env bash
# Builds tilerast and its tests with ThreadSanitizer (clang, -O1 -g, into
# ./build-tsan) and runs the suite with ctest; exits with ctest's status.
# Installs missing Debian packages first (scripts/deps.sh, plus clang,
# libomp-dev, and llvm-14 for llvm-symbolizer).  Works from any directory.
#
# OpenMP comes from LLVM's runtime, libomp: clang's -fopenmp links it, and it
# loads its "archer" OMPT tool (libarcher.so, in libomp-14-dev) by itself in
# a program built with TSan; archer tells TSan about OpenMP's barriers,
# tasks and locks.  GCC's libgomp has no such support (its futex barriers
# look like races).  Before the tests, the script checks with ldd that the
# binaries link libomp and not libgomp, and that archer really starts
# (OMP_TOOL_VERBOSE_INIT on tilerast-hello-triangle).
#
# Any report fails its test: TSAN_OPTIONS halt_on_error=1 exitcode=66 (a
# Criterion worker that exits 66 fails its test, so the binary and ctest
# fail).  ignore_noninstrumented_modules=1, which archer asks for, ignores
# accesses made inside libraries not built with TSan (libomp's internals,
# Criterion, libc).  No suppressions are needed today; if some become
# needed, put them in tests/tsan.supp (one comment per entry saying why it is
# safe) and the script passes it to TSan.
#
# Criterion cannot start under TSan by itself (its BoxFort arenas are placed
# at random addresses that TSan has mostly reserved; Criterion issue #274):
# ctest runs with LD_PRELOAD=build-tsan/libtsan-boxfort-preload.so, built
# here from cmake/tsan-boxfort-preload.c, which explains the fix.  To run
# one test binary by hand:
#   LD_PRELOAD=$PWD/build-tsan/libtsan-boxfort-preload.so \
#   TSAN_OPTIONS=halt_on_error=1:exitcode=66:ignore_noninstrumented_modules=1 \
#   OMP_NUM_THREADS=2 build-tsan/tests/pass_test_equality
#
# ctest runs every test with OMP_NUM_THREADS=2 (tests/CMakeLists.txt), but
# the tile loop takes its thread count from tr_context_desc.threads through
# num_threads(): contexts with threads = 0 use omp_get_num_procs(), and the
# tests that compare 1 with 2, 3, 4 ... threads (test_equality, fdm_render,
# gmem_depth, lrz, lines_points, multisample_*, ...) ask for them
# explicitly, so several threads render even on a 2-core machine.
#
# Left out (ctest -E, TILERAST_TSAN_EXCLUDE below):
#   build_without_openmp  configures and builds another copy of tilerast
#                         without OpenMP and without TSan: nothing for TSan
#                         to see, and it costs a full build;
#   install_consume       builds a separate consumer project against the
#                         installed library, passing only the ASan flags to
#                         it (run_install_test.cmake), so its programs would
#                         not link against a TSan library; it renders with
#                         one thread anyway.
# Both run in scripts/test.sh and scripts/test-sanitize.sh.
#
# Time: about 9 minutes on a loaded 2-core machine (3.5 min build from
# scratch, 5.5 min tests).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "$root"
jobs="$(nproc 2>/dev/null || echo 2)"
build=build-tsan
TILERAST_TSAN_EXCLUDE='^(build_without_openmp|install_consume)$'
start=$SECONDS

run() { echo "+ $*"; "$@"; }

echo "== tilerast ThreadSanitizer tests: checking Debian packages"
run bash scripts/deps.sh clang libomp-dev llvm-14

echo "== configuring into $root/$build (clang, libomp, ThreadSanitizer, -O1 -g)"
# A cache made with another compiler cannot be switched to clang in place.
if [[ -f $build/CMakeCache.txt ]] && ! grep -q '^CMAKE_C_COMPILER_ID:.*Clang\|^CMAKE_C_COMPILER:.*clang' "$build/CMakeCache.txt"; then
    run rm -rf "$build"
fi
run env CC=clang CXX=clang++ cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" \
    -DTILERAST_TSAN=ON -DTILERAST_SANITIZE=OFF -DTILERAST_FUZZ=OFF -DTILERAST_OPENMP=ON \
    -DTILERAST_BUILD_TESTS=ON

echo "== building"
run cmake --build "$build" -j "$jobs"

echo "== building the BoxFort preload (cmake/tsan-boxfort-preload.c says why)"
run clang -O2 -fPIC -shared -Wall -Wextra -o "$build/libtsan-boxfort-preload.so" cmake/tsan-boxfort-preload.c -ldl

tsan_opts="halt_on_error=1:exitcode=66:ignore_noninstrumented_modules=1:second_deadlock_stack=1"
[[ -f tests/tsan.supp ]] && tsan_opts="$tsan_opts:suppressions=$root/tests/tsan.supp"
[[ -x /usr/lib/llvm-14/bin/llvm-symbolizer ]] && tsan_opts="$tsan_opts:external_symbolizer_path=/usr/lib/llvm-14/bin/llvm-symbolizer"
export TSAN_OPTIONS="$tsan_opts${TSAN_OPTIONS:+:$TSAN_OPTIONS}"
echo "TSAN_OPTIONS=$TSAN_OPTIONS"

echo "== checking the OpenMP runtime: libomp, not libgomp, with archer"
for bin in "$build/tests/pass_test_equality" "$build/examples/tilerast-hello-triangle"; do
    libs="$(ldd "$bin")"
    if grep -q 'libgomp' <<<"$libs" || ! grep -q 'libomp\.so' <<<"$libs"; then
        echo "test-tsan: $bin must link libomp and not libgomp:" >&2
        echo "$libs" >&2
        exit 1
    fi
    echo "$bin: $(grep -o 'libomp\.so[^ ]* => [^ ]*' <<<"$libs")"
done
tool="$(OMP_TOOL_VERBOSE_INIT=stdout OMP_NUM_THREADS=2 "$build/examples/tilerast-hello-triangle" "$build/hello.png" 2>&1)" || {
    echo "$tool" >&2
    echo "test-tsan: tilerast-hello-triangle failed under ThreadSanitizer" >&2
    exit 1
}
if ! grep -q 'Opening libarcher.so... Success' <<<"$tool"; then
    echo "$tool" >&2
    echo "test-tsan: libomp did not load its archer tool (libarcher.so, in libomp-14-dev)" >&2
    exit 1
fi
echo "archer: loaded"

echo "== running the test suite under ThreadSanitizer (excluding $TILERAST_TSAN_EXCLUDE)"
status=0
run env LD_PRELOAD="$root/$build/libtsan-boxfort-preload.so${LD_PRELOAD:+:$LD_PRELOAD}" \
    ctest --test-dir "$build" --output-on-failure -j2 -E "$TILERAST_TSAN_EXCLUDE" || status=$?
elapsed=$((SECONDS - start))
if [[ $status -eq 0 ]]; then
    echo "== all tests passed under ThreadSanitizer (${elapsed}s in all)"
else
    echo "== ctest failed under ThreadSanitizer (exit status $status, ${elapsed}s in all)" >&2
fi
exit "$status"
