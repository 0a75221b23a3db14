#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz with clang (ASan + UBSan, into
# ./build-fuzz) and runs each from its seed corpus (tests/fuzz/corpus/<t>).
#
#   bash scripts/fuzz.sh [--runs N | --seconds S] [--jobs J] [target ...]
#
# --runs N      inputs per target (default 2000: the short run .ci/run makes)
# --seconds S   run each target for S seconds instead
# --jobs J      parallel fuzzing processes per target (default 1)
# targets       fuzz_scene fuzz_obj fuzz_api fuzz_transfer fuzz_spirv fuzz_model
#               (default: all; fuzz_transfer: uploads, downloads, feedback decode /
#               encode and the queries that fill caller arrays, with fuzzed pitches
#               and sizes; fuzz_spirv: mutated SPIR-V modules through module
#               creation, pipelines and a draw; fuzz_model: mutated glTF 2.0
#               files through tilerast-render's model import (assimp, then our
#               checks) and a 64x48 render, skipped where assimp is missing;
#               FUZZ_MODEL_OBJ=1 adds OBJ, ~10x slower an input)
#
# New inputs found go to build-fuzz/corpus/<target> (the seed corpus in the
# tree is only read); a crash leaves its input in build-fuzz/ and makes the
# script exit non-zero.  fuzz_model is also seeded with small self-contained
# models of Debian's assimp-testmodels, copied into build-fuzz/seed/fuzz_model
# at run time.  Installs clang and its runtime (Debian: clang,
# libclang-rt-14-dev) besides the usual packages (scripts/deps.sh, whose
# list has libassimp-dev and assimp-testmodels).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "$root"
runs=2000 seconds="" jobs_per=1 targets=()
while [[ $# -gt 0 ]]; do
    case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --jobs) jobs_per="$2"; shift 2 ;;
    -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
    fuzz_scene|fuzz_obj|fuzz_api|fuzz_transfer|fuzz_spirv|fuzz_model) targets+=("$1"); shift ;;
    *) echo "fuzz.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
[[ ${#targets[@]} -gt 0 ]] || targets=(fuzz_scene fuzz_obj fuzz_api fuzz_transfer fuzz_spirv fuzz_model)

run() { echo "+ $*"; "$@"; }

echo "== fuzzing: checking Debian packages"
# (fuzz_model's libassimp-dev and assimp-testmodels are in deps.sh's own list)
run bash scripts/deps.sh clang libclang-rt-14-dev

echo "== configuring into $root/build-fuzz (clang, libFuzzer, ASan + UBSan)"
run env CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTILERAST_SANITIZE=ON \
    -DTILERAST_FUZZ=ON -DTILERAST_BUILD_TESTS=OFF -DTILERAST_BUILD_EXAMPLES=OFF -DTILERAST_BUILD_BENCH=OFF \
    -DTILERAST_BUILD_TOOLS=OFF
# fuzz_model exists only where CMake found assimp (tests/fuzz/CMakeLists.txt)
if [[ " ${targets[*]} " == *" fuzz_model "* ]] &&
    ! cmake --build build-fuzz --target help | grep -w fuzz_model >/dev/null; then
    echo "== fuzz_model: skipped, assimp not found (install libassimp-dev)"
    kept=()
    for t in "${targets[@]}"; do [[ $t == fuzz_model ]] || kept+=("$t"); done
    targets=("${kept[@]}")
    [[ ${#targets[@]} -gt 0 ]] || { echo "== fuzzing: no target left to run"; exit 0; }
fi
run cmake --build build-fuzz -j "$(nproc 2>/dev/null || echo 2)" --target "${targets[@]}"

# fuzz_model's seeds from Debian's assimp-testmodels: small, self-contained
# files (a .glb, a .gltf whose buffers and images are data URIs; OBJ with
# FUZZ_MODEL_OBJ=1), since each input is imported alone from a folder of its
# own.  Copied, not kept in the tree.
assimp_models=/usr/share/assimp/models
assimp_seeds=(
    glTF2/BoxTextured-glTF-Binary/BoxTextured.glb        # embedded PNG texture
    glTF2/BoxWithInfinites-glTF-Binary/BoxWithInfinites.glb
    glTF2/BoxBadNormals-glTF-Binary/BoxBadNormals.glb
    glTF2/BoxTextured-glTF-Embedded/BoxTextured.gltf     # data URIs
    glTF2/BoxTextured-glTF/BoxTextured.gltf              # its .bin and .png missing
    glTF2/RecursiveNodes/RecursiveNodes.gltf             # a node cycle
    glTF2/TestNoRootNode/NoScene.gltf
    glTF2/TestNoRootNode/SceneWithoutNodes.gltf
    glTF2/simple_skin/simple_skin.gltf
    glTF2/issue_3269/texcoord_crash.gltf
)
[[ -n "${FUZZ_MODEL_OBJ:-}" ]] && assimp_seeds+=(
    OBJ/box.obj OBJ/testmixed.obj OBJ/testpoints.obj OBJ/number_formats.obj OBJ/concave_polygon.obj
    OBJ/cube_usemtl.obj OBJ/box_UTF16BE.obj OBJ/multiple_spaces.obj OBJ/regr_3429812.obj
    OBJ/cube_with_vertexcolors.obj
)
seed_model() {
    local to=build-fuzz/seed/fuzz_model n=0 f
    rm -rf "$to" && mkdir -p "$to"
    for f in "${assimp_seeds[@]}"; do
        [[ -f $assimp_models/$f ]] && cp "$assimp_models/$f" "$to/${f//\//_}" && n=$((n + 1))
    done
    echo "== fuzz_model: $n seed models from $assimp_models (assimp-testmodels)"
}

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
    maxlen=4096 extra=() seeds=()
    [[ $t == fuzz_spirv ]] && maxlen=8192
    if [[ $t == fuzz_model ]]; then
        # whole model files (seeds up to 26 KiB), mutated at any length from the
        # start: a .gltf cut to libFuzzer's growing length limit is no longer JSON
        maxlen=32768 extra=(-len_control=0)
        seed_model
        seeds=(seed/fuzz_model)
    fi
    echo "== $t"
    # stdin from /dev/null: a model may name /dev/stdin as a texture or buffer
    (cd build-fuzz && run "./tests/fuzz/$t" "${limit[@]}" "${par[@]}" -max_len="$maxlen" "${extra[@]}" -timeout=20 \
        -rss_limit_mb=2048 -print_final_stats=1 "corpus/$t" "$root/tests/fuzz/corpus/$t" "${seeds[@]}" \
        </dev/null) || status=$?
done
if [[ $status -eq 0 ]]; then
    echo "== fuzzing: no crash, no sanitizer report"
else
    echo "== fuzzing found a problem (exit status $status)" >&2
fi
exit "$status"
