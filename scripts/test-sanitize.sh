#!/usr/bin/env bash
# Builds tilerast and its tests with AddressSanitizer and
# UndefinedBehaviorSanitizer (leak checking on; into ./build-sanitize, Debug)
# and runs the whole suite with ctest; exits with ctest's status.  Any
# sanitizer report fails the test that triggered it: UBSan does not recover
# and ASan/LSan exit non-zero.  Installs missing Debian packages first
# (scripts/deps.sh).  Works from any directory.  .ci/run calls it after the
# README's test command.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "$root"
jobs="$(nproc 2>/dev/null || echo 2)"

run() { echo "+ $*"; "$@"; }

echo "== tilerast sanitizer tests: checking Debian packages"
run bash scripts/deps.sh

echo "== configuring into $root/build-sanitize (ASan + UBSan, Debug)"
run cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=Debug -DTILERAST_SANITIZE=ON -DTILERAST_BUILD_TESTS=ON

echo "== building"
run cmake --build build-sanitize -j "$jobs"

echo "== running the test suite under the sanitizers"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:halt_on_error=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
status=0
run ctest --test-dir build-sanitize --output-on-failure -j2 || status=$?
if [[ $status -eq 0 ]]; then
    echo "== all tests passed under ASan + UBSan"
else
    echo "== ctest failed under the sanitizers (exit status $status)" >&2
fi
exit "$status"
