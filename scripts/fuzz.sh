#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz with clang (ASan + UBSan, into
# ./build-fuzz) and runs each from its seed corpus (tests/fuzz/corpus/<t>).
#
#   bash scripts/fuzz.sh [--runs N | --seconds S] [--jobs J] [target ...]
#
# --runs N      inputs per target (default 2000: the short run .ci/run makes)
# --seconds S   run each target for S seconds instead
# --jobs J      parallel fuzzing processes per target (default 1)
# targets       fuzz_scene fuzz_obj fuzz_api fuzz_transfer fuzz_spirv (default: all;
#               fuzz_transfer: uploads, downloads, feedback decode / encode and
#               the queries that fill caller arrays, with fuzzed pitches and sizes;
#               fuzz_spirv: mutated SPIR-V modules through module creation,
#               pipelines and a draw)
#
# New inputs found go to build-fuzz/corpus/<target> (the seed corpus in the
# tree is only read); a crash leaves its input in build-fuzz/ and makes the
# script exit non-zero.  Installs clang and its runtime (Debian: clang,
# libclang-rt-14-dev) besides the usual packages.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "$root"
runs=2000 seconds="" jobs_per=1 targets=()
while [[ $# -gt 0 ]]; do
    case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --jobs) jobs_per="$2"; shift 2 ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    fuzz_scene|fuzz_obj|fuzz_api|fuzz_transfer|fuzz_spirv) targets+=("$1"); shift ;;
    *) echo "fuzz.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
[[ ${#targets[@]} -gt 0 ]] || targets=(fuzz_scene fuzz_obj fuzz_api fuzz_transfer fuzz_spirv)

run() { echo "+ $*"; "$@"; }

echo "== fuzzing: checking Debian packages"
run bash scripts/deps.sh clang libclang-rt-14-dev

echo "== configuring into $root/build-fuzz (clang, libFuzzer, ASan + UBSan)"
run env CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTILERAST_SANITIZE=ON \
    -DTILERAST_FUZZ=ON -DTILERAST_BUILD_TESTS=OFF -DTILERAST_BUILD_EXAMPLES=OFF -DTILERAST_BUILD_BENCH=OFF \
    -DTILERAST_BUILD_TOOLS=OFF
run cmake --build build-fuzz -j "$(nproc 2>/dev/null || echo 2)" --target "${targets[@]}"

export ASAN_OPTIONS="detect_leaks=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
status=0
for t in "${targets[@]}"; do
    mkdir -p "build-fuzz/corpus/$t"
    limit=(-runs="$runs")
    [[ -n "$seconds" ]] && limit=(-max_total_time="$seconds")
    par=()
    [[ "$jobs_per" -gt 1 ]] && par=(-jobs="$jobs_per" -workers="$jobs_per")
    # fuzz_spirv's inputs are a module (the seeds: up to 4 KiB) and the draw's data after it
    maxlen=4096
    [[ $t == fuzz_spirv ]] && maxlen=8192
    echo "== $t"
    (cd build-fuzz && run "./tests/fuzz/$t" "${limit[@]}" "${par[@]}" -max_len="$maxlen" -timeout=20 \
        -rss_limit_mb=2048 -print_final_stats=1 "corpus/$t" "$root/tests/fuzz/corpus/$t") || status=$?
done
if [[ $status -eq 0 ]]; then
    echo "== fuzzing: no crash, no sanitizer report"
else
    echo "== fuzzing found a problem (exit status $status)" >&2
fi
exit "$status"
