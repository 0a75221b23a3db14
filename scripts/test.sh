#!/usr/bin/env bash
# Builds tilerast with its tests (into ./build) and runs the suite with ctest;
# exits with ctest's status.  Installs missing Debian packages first
# (scripts/deps.sh).  Works from any directory.
#
#   bash scripts/test.sh          the quick run: every test but those labelled
#                                 `full` (ctest -LE '^full$'); under 3 minutes
#                                 on 2 cores
#   bash scripts/test.sh --full   every test, the `full` ones included: the
#                                 byte-for-byte llvmpipe comparison
#                                 (bench_matches_llvmpipe) and the library
#                                 rebuilt without OpenMP (build_without_openmp);
#                                 CI runs this (.ci/run)
#   bash scripts/test.sh -h       this help
#
# tests/CMakeLists.txt says which tests are `full`.
set -euo pipefail

usage() { sed -n '2,/^$/s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; }

full=0
for arg in "$@"; do
    case "$arg" in
    --full) full=1 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "scripts/test.sh: unknown argument '$arg'" >&2; usage >&2; exit 2 ;;
    esac
done

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

if [[ $full -eq 1 ]]; then
    set_name="the full suite (every test)"
    select=()
else
    set_name="the quick suite (tests labelled 'full' left out; scripts/test.sh --full runs them)"
    select=(-LE '^full$')
fi
echo "== running $set_name"
status=0
run ctest --test-dir build --output-on-failure -j2 "${select[@]}" || status=$?
if [[ $status -eq 0 ]]; then
    echo "== all tests of $set_name passed"
else
    echo "== ctest failed (exit status $status) in $set_name" >&2
fi
exit "$status"
