#!/usr/bin/env bash
# Builds tilerast with its tests (into ./build) and runs the whole suite with
# ctest; exits with ctest's status.  Installs missing Debian packages first
# (scripts/deps.sh).  Works from any directory.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "$root"
jobs="$(nproc 2>/dev/null || echo 2)"

run() { echo "+ $*"; "$@"; }

echo "== tilerast tests: checking Debian packages"
run bash scripts/deps.sh

echo "== configuring into $root/build"
run cmake -S . -B build -DTILERAST_BUILD_TESTS=ON

echo "== building"
run cmake --build build -j "$jobs"

echo "== running the test suite"
status=0
run ctest --test-dir build --output-on-failure -j2 || status=$?
if [[ $status -eq 0 ]]; then
    echo "== all tests passed"
else
    echo "== ctest failed (exit status $status)" >&2
fi
exit "$status"
