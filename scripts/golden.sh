#!/usr/bin/env bash
# The golden oracle for refactors: renders everything tilerast's tools and
# examples can draw from a built tree, hashes every image, picture and
# statistic, and writes the hashes, so that two builds (before and after a
# change to src/) can be compared byte for byte.  Needs nothing beyond what
# the build needs (scripts/deps.sh) and Debian's base tools; about 1.5 minutes
# on 2 idle cores, up to 4.5 on a busy host (~3.5 CPU-minutes in all).
#
#   bash scripts/golden.sh BUILD_DIR OUT_DIR [--keep] [-j N] [--no-llvmpipe]
#         BUILD_DIR: a configured and built tree, e.g.
#           cmake -S . -B BUILD -DTILERAST_BUILD_TESTS=ON -DCMAKE_BUILD_TYPE=Release
#           cmake --build BUILD -j2
#         OUT_DIR (created; its former golden files are replaced) gets
#           hashes.txt   one line "NAME SHA256" per output, sorted (LC_ALL=C)
#           stats/*.json the --stats / --json lines, timing fields stripped
#           checks.txt   equalities that must hold (1 and 2 threads, LRZ on
#                        and off, ...): "ok" or "DIFFERS" each
#           failed.txt   the jobs that failed, with their messages (if any)
#         --keep         keep every rendered file under OUT_DIR/work/files
#                        (default: deleted once hashed; they take ~650 MB)
#         -j N           jobs at a time (default 2; each render uses 2 threads)
#         --no-llvmpipe  skip the heavy and engine scenes' llvmpipe comparison
#                        (the slowest part, ~30 s)
#       Exits 1 if any render or program fails (or exits with a status
#       other than the one expected), 0 otherwise.  checks.txt's DIFFERS
#       lines are reported as warnings, not failures: the hashes hold both.
#   bash scripts/golden.sh --compare A/hashes.txt B/hashes.txt
#         prints each name whose hash differs or that only one file has;
#         exits 1 on any difference, 0 when the two are identical.
#   bash scripts/golden.sh -h     this help
#
# What is drawn (everything with --threads 2 unless said otherwise):
#   bench/SCENE/VARIANT: the six standard scenes (tilerast-bench --export),
#     each default (-o, --raw, and --lrz-png where the scene has depth:
#     not overdraw_blend), --threads 1, --no-lrz,
#     --samples 4, --device a740, --gmem 64K, and with a 16x9 density map
#     written here (--fdm-png; with --fdm-offset 16,8; --subsampled;
#     --device a740, where bins merge);
#   bench/{heavy,engine}: tilerast-bench --json --frames 1 --scene NAME
#     (pass statistics; heavy with both C and SPIR-V shaders) and
#     tilerast-bench --compare-llvmpipe --scene NAME (pixel counts against
#     llvmpipe; not with --no-llvmpipe or a bench built without OSMesa).
#     The full --compare-llvmpipe (all scenes) takes over 2 minutes on 2
#     cores and is left out: the six standard scenes are drawn above;
#   models/MODEL/VARIANT: tests/models/materials.gltf, assimp-testmodels'
#     BoxTextured.glb and 2CylinderEngine.glb: default, --no-lrz,
#     --density-map radial (with --fdm-png, --subsampled), radial --views 2
#     (every .viewN file); and what tests/scene/render_models.sh,
#     render_fdm_model.sh and tests/models/materials.sh draw (BoxTextured.gltf,
#     spider.obj, box.obj, Cameras.gltf, PNG maps, radial parameters).
#     --samples is refused for models ("not available for models yet"), so
#     there is no --samples 4 variant for them;
#   tests/...: the scenes tests/scene/render_fdm.sh, render_samples.sh,
#     render_compare.sh and render_fdm_model.sh write (through
#     tests/scene/scene_lib.sh), with the options those tests use, and the
#     scene files of tests/fuzz/corpus/fuzz_scene that render;
#   examples/NAME: every program in BUILD_DIR/examples, run in an empty
#     folder: every file it writes, and its standard output with times
#     ("12.34 ms") replaced by "<t> ms".
# Stripped from the JSON (wall-clock times and what is computed from them):
# keys ending in _ms or starting with ms_ (wall_ms, ms_vertex, ms_binning,
# ms_render, median_ms, min_ms, max_ms), keys containing "time", the rates
# mtri_s and mpix_s, and the time ratios spirv_over_c, lrz_off_over_on,
# speedup_vs_llvmpipe and spirv_speedup_vs_llvmpipe; and memory_peak_bytes
# except where "threads" is 1: it is the high-water mark of a byte count that
# the bins' threads move concurrently, so with 2 threads it differs from run
# to run by a few hundred bytes (src/context.c, mem_peak).  Every other field
# is the same from run to run and is kept.
# Paths in the JSON and messages are relative to OUT_DIR/work (where
# everything runs), or the system's model paths, so they do not depend on
# OUT_DIR.
set -euo pipefail
export LC_ALL=C

usage() { sed -n '2,/^$/s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; }
die() { echo "scripts/golden.sh: $*" >&2; exit 2; }

# ---- --compare A B ---------------------------------------------------------
compare_hashes() {
    local a="$1" b="$2"
    [[ -f "$a" ]] || die "$a: no such file"
    [[ -f "$b" ]] || die "$b: no such file"
    local diffs
    diffs="$(join -a1 -a2 -e '-' -o 0,1.2,2.2 <(sort -k1,1 "$a") <(sort -k1,1 "$b") |
             awk '$2 != $3 { if ($2 == "-") print "only in B: " $1
                             else if ($3 == "-") print "only in A: " $1
                             else print "differs:   " $1 }')"
    if [[ -z "$diffs" ]]; then
        echo "golden: identical ($(wc -l < "$a") outputs): $a and $b"
        return 0
    fi
    printf '%s\n' "$diffs"
    echo "golden: $(wc -l <<<"$diffs") differences between $a (A) and $b (B)" >&2
    return 1
}

case "${1:-}" in
-h | --help) usage; exit 0 ;;
--compare)
    [[ $# -eq 3 ]] || die "--compare takes two hashes.txt files"
    compare_hashes "$2" "$3" && exit 0 || exit 1 ;;
esac

# ---- arguments -------------------------------------------------------------
positional=() keep=0 jobs_max=2 llvmpipe=1
while [[ $# -gt 0 ]]; do
    case "$1" in
    --keep) keep=1 ;;
    --no-llvmpipe) llvmpipe=0 ;;
    -j) [[ $# -ge 2 && "$2" =~ ^[1-9][0-9]*$ ]] || die "-j takes a count"; jobs_max="$2"; shift ;;
    -j[1-9]*) jobs_max="${1#-j}" ;;
    -*) usage >&2; die "unknown option '$1'" ;;
    *) positional+=("$1") ;;
    esac
    shift
done
[[ ${#positional[@]} -eq 2 ]] || { usage >&2; die "give BUILD_DIR and OUT_DIR"; }

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
build="$(cd "${positional[0]}" && pwd -P)" || die "${positional[0]}: no such folder"
mkdir -p "${positional[1]}"
out="$(cd "${positional[1]}" && pwd -P)"
render="$build/tools/tilerast-render"
bench="$build/bench/tilerast-bench"
for exe in "$render" "$bench"; do
    [[ -x "$exe" ]] || die "$exe is missing: build BUILD_DIR first"
done
start_s=$SECONDS

work="$out/work"
rm -rf "$work" "$out/stats" "$out/hashes.txt" "$out/checks.txt" "$out/failed.txt" "$out/times.txt"
mkdir -p "$work"/{files,hashes,fail,times,scenes,maps,models} "$out/stats"
cd "$work"

# ---- helpers ---------------------------------------------------------------
flat() { local n="${1//\//.}"; echo "$n"; }

# strip_json < in > out: drops the wall-clock fields (the header says which).
strip_json() {
    local key='"([a-z0-9_]*_ms|ms_[a-z0-9_]*|[a-z0-9_]*time[a-z0-9_]*|mtri_s|mpix_s|spirv_over_c|lrz_off_over_on|[a-z_]*speedup_vs_llvmpipe)"'
    local val='(-?[0-9][0-9.eE+-]*|null|inf|-inf|nan|-nan|\[[^]]*\])'
    sed -E -e "s/,$key:$val//g" -e "s/\\{$key:$val,?/{/g" \
        -e '/"threads":1[,}]/!s/,"memory_peak_bytes":[0-9]+//g'
}

# finish NAME DIR: hashes every file of DIR as NAME/FILE (empty stderr.txt
# left out), then deletes them unless --keep.
finish() {
    local name="$1" d="$2" f
    [[ -s "$d/stderr.txt" ]] || rm -f "$d/stderr.txt"
    (cd "$d" && find . -type f ! -name '.*' -printf '%P\n' | sort | while IFS= read -r f; do
        echo "$name/$f $(sha256sum < "$f" | cut -d' ' -f1)"
    done) > "hashes/$(flat "$name").txt"
    if [[ $keep -eq 0 ]]; then rm -rf "$d"; fi
}
stats_entry() { # NAME FILE: the stripped JSON as stats/NAME.json
    local name="$1" f="$2" s
    s="stats/$(flat "$name").json"
    strip_json < "$f" > "$out/$s"
    echo "$s $(sha256sum < "$out/$s" | cut -d' ' -f1)" >> "hashes/$(flat "$name").stats.txt"
}
fail() { # NAME MESSAGE...
    local name="$1"; shift
    { echo "FAIL $name: $*"; } > "fail/$(flat "$name")"
    echo "FAIL $name: $*" >&2
}

# render_job NAME WANT_STATUS INPUT ARGS...: tilerast-render INPUT --stats
# ARGS, where an argument @FILE is the output FILE in the job's folder.
render_job() {
    local name="$1" want="$2" input="$3"; shift 3
    local d="files/$name" a args=() st=0
    mkdir -p "$d"
    for a in "$@"; do [[ "$a" == @* ]] && a="$d/${a#@}"; args+=("$a"); done
    "$render" "$input" --stats "${args[@]}" > "$d/.stats" 2> "$d/stderr.txt" || st=$?
    if [[ $st -ne $want ]]; then
        fail "$name" "exit status $st, not $want: tilerast-render $input --stats ${args[*]}: $(head -c 600 "$d/stderr.txt")"
        return 0
    fi
    if [[ "$(wc -l < "$d/.stats")" -ne 1 ]]; then
        fail "$name" "--stats printed $(wc -l < "$d/.stats") lines, not 1"
        return 0
    fi
    stats_entry "$name" "$d/.stats"
    finish "$name" "$d"
}

# example_job NAME EXE: runs it in an empty folder.
example_job() {
    local name="$1" exe="$2" d="files/$1" st=0
    mkdir -p "$d"
    (cd "$d" && "$exe" > .stdout 2> stderr.txt) || st=$?
    if [[ $st -ne 0 ]]; then
        fail "$name" "exit status $st: $(head -c 600 "$d/stderr.txt")"
        return 0
    fi
    sed -E 's/[0-9]+(\.[0-9]+)? ms\b/<t> ms/g' "$d/.stdout" > "$d/stdout.txt"
    finish "$name" "$d"
}

# bench_json_job NAME ARGS...: tilerast-bench --json ARGS; the lines, stripped.
bench_json_job() {
    local name="$1"; shift
    local d="files/$name" st=0
    mkdir -p "$d"
    "$bench" --json "$@" > "$d/.stats" 2> "$d/stderr.txt" || st=$?
    if [[ $st -ne 0 ]]; then
        fail "$name" "exit status $st: tilerast-bench --json $*: $(head -c 600 "$d/stderr.txt")"
        return 0
    fi
    stats_entry "$name" "$d/.stats"
    finish "$name" "$d"
}

# bench_compare_job NAME ARGS...: tilerast-bench --compare-llvmpipe ARGS,
# its whole output (stdout and stderr) as one entry.
bench_compare_job() {
    local name="$1"; shift
    local d="files/$name" st=0
    mkdir -p "$d"
    "$bench" --compare-llvmpipe "$@" > "$d/output.txt" 2>&1 || st=$?
    if [[ $st -ne 0 ]]; then
        fail "$name" "exit status $st: tilerast-bench --compare-llvmpipe $*: $(head -c 600 "$d/output.txt")"
        return 0
    fi
    finish "$name" "$d"
}

# spawn JOB NAME ARGS...: at most $jobs_max at a time, in the background;
# times/NAME: the seconds it took (OUT_DIR/times.txt, not hashed).
spawn() {
    while [[ $(jobs -pr | wc -l) -ge $jobs_max ]]; do
        wait -n || true
    done
    (
        t0=$SECONDS
        "$@"
        echo "$((SECONDS - t0)) $2" > "times/$(flat "$2")"
    ) &
}

# ---- a density map: a 16x9 PNG written here (no renderer involved) --------
# PNG with one stored deflate block (RFC 1950/1951), CRC-32 by table.
crc_table=()
for ((n = 0; n < 256; n++)); do
    c=$n
    for k in 1 2 3 4 5 6 7 8; do
        if ((c & 1)); then c=$(((c >> 1) ^ 0xedb88320)); else c=$((c >> 1)); fi
    done
    crc_table[n]=$c
done
crc32() { local c=$((0xffffffff)) b; for b in "$@"; do c=$((crc_table[(c ^ b) & 255] ^ (c >> 8))); done; echo $((c ^ 0xffffffff)); }
adler32() { local a=1 b=0 x; for x in "$@"; do a=$(((a + x) % 65521)); b=$(((b + a) % 65521)); done; echo $((b << 16 | a)); }
be32() { echo $(($1 >> 24 & 255)) $(($1 >> 16 & 255)) $(($1 >> 8 & 255)) $(($1 & 255)); }
emit() { local b s=""; for b in "$@"; do printf -v b '\\x%02x' "$b"; s+=$b; done; printf "$s"; }
chunk() { # TYPE BYTES...
    local t=($(printf '%s' "$1" | od -An -tu1)); shift
    emit $(be32 $#) "${t[@]}" "$@" $(be32 $(crc32 "${t[@]}" "$@"))
}
png_rgb() { # WIDTH HEIGHT FILTERED-ROW-BYTES... (< 65536 bytes)
    local w=$1 h=$2; shift 2
    local n=$#
    emit 137 80 78 71 13 10 26 10
    chunk IHDR $(be32 $w) $(be32 $h) 8 2 0 0 0
    chunk IDAT 120 1 1 $((n & 255)) $((n >> 8)) $((~n & 255)) $((~n >> 8 & 255)) "$@" $(be32 $(adler32 "$@"))
    chunk IEND
}
# Density along x by column (full in the middle, half, a quarter at the
# sides), along y by row likewise; texel (1, 1) is 0 (skip).  On a 1920x1080
# scene the texels are 128x128 pixels; each bin reads the texel at its
# centre: the default bins (480x272) read columns 1, 5, 9, 13 and rows 1,
# 3, 5, 7, so the top left bin is skipped and the others get 1x1 to 4x2.
density_map_bytes() {
    local x y dx dy
    for ((y = 0; y < 9; y++)); do
        echo 0
        for ((x = 0; x < 16; x++)); do
            if ((x >= 6 && x <= 9)); then dx=255; elif ((x >= 3 && x <= 12)); then dx=127; else dx=63; fi
            if ((y >= 3 && y <= 5)); then dy=255; elif ((y >= 1 && y <= 7)); then dy=127; else dy=63; fi
            ((x == 1 && y == 1)) && dx=0 dy=0
            echo "$dx $dy 0"
        done
    done
}
png_rgb 16 9 $(density_map_bytes) > maps/bench16x9.png
mkdir -p files/inputs
cp maps/bench16x9.png files/inputs/

# ---- the standard scenes ---------------------------------------------------
echo "== golden: exporting the standard scenes"
"$bench" --export scenes > files/inputs/export.txt
bench_scenes=(mesh tri_small tri_large overdraw_blend depth_b2f depth_f2b)
for s in "${bench_scenes[@]}"; do
    [[ -f "scenes/$s.scn" ]] || die "tilerast-bench --export wrote no scenes/$s.scn"
    sha256sum < "scenes/$s.scn" | cut -d' ' -f1 | sed "s|^|inputs/$s.scn |" > "hashes/inputs.$s.scn.txt"
done

# ---- the tests' scenes (tests/scene/*.sh through scene_lib.sh) -------------
# shellcheck source=../tests/scene/scene_lib.sh
. "$root/tests/scene/scene_lib.sh"
mkdir -p tscenes
# render_fdm.sh: a 320x200 depth-tested scene.
scene_depth_320x200 > tscenes/fdm.scn
# render_samples.sh: two flat triangles crossing in depth over a full-screen one.
scene_samples_320x200 > tscenes/samples.scn
# render_fdm_model.sh: a 320x200 full-screen quad.
{
    header 320 200 0 10 20 30 255 2
    vertex $MONE $MONE 0 $ONE 255 0 0 255; vertex $ONE $MONE 0 $ONE 0 255 0 255; vertex $ONE $ONE 0 $ONE 0 0 255 255
    vertex $MONE $MONE 0 $ONE 255 0 0 255; vertex $ONE $ONE 0 $ONE 0 0 255 255; vertex $MONE $ONE 0 $ONE 255 255 0 255
} > tscenes/quad.scn
# render_compare.sh: 64x32 flat scenes.
rect() {
    vertex $MONE $MONE 0 $ONE "$@"; vertex 0 $MONE 0 $ONE "$@"; vertex $MONE $MHALF 0 $ONE "$@"
    vertex 0 $MONE 0 $ONE "$@"; vertex 0 $MHALF 0 $ONE "$@"; vertex $MONE $MHALF 0 $ONE "$@"
}
header 64 32 8 10 20 30 255 0 > tscenes/base.scn
header 64 32 8 10 20 30 250 0 > tscenes/base_a250.scn
header 32 32 8 10 20 30 255 0 > tscenes/small.scn
{ header 64 32 8 10 20 30 255 2; rect 10 20 37 255; } > tscenes/patch.scn
{ header 64 32 8 6 6 6 255 2; rect 255 0 255 255; } > tscenes/diff_beyond.scn
{ header 64 32 8 6 6 6 255 2; rect 255 255 0 255; } > tscenes/diff_within.scn
header 4 2 8 10 20 30 255 0 > tscenes/tiny.scn
# The tests' density maps, made as they make them: tilerast-render draws a
# scene without triangles cleared to (r, g, 0, 255).  Made first, serially;
# each is an output too (maps/NAME.png).
test_map() { # NAME W H R G
    header "$2" "$3" 0 "$4" "$5" 0 255 0 > "tscenes/map_$1.scn"
    local st=0
    "$render" "tscenes/map_$1.scn" -o "maps/$1.png" --threads 2 > /dev/null 2> "maps/$1.err" || st=$?
    if [[ $st -ne 0 ]]; then fail "maps/$1" "$(cat "maps/$1.err")"; fi
    mkdir -p files/maps && cp "maps/$1.png" files/maps/ 2>/dev/null || true
}
test_map full 4 4 255 255
test_map half 4 4 127 127
test_map zero 4 4 0 0
test_map fine 40 25 127 127
test_map model_full 32 24 255 255
test_map model_half 32 24 127 127
# render_compare.sh's goldens, made by the tool (-o) the same way.
mkdir -p goldens
for g in base base_a250 small patch; do
    "$render" "tscenes/$g.scn" -o "goldens/$g.png" --threads 2 > /dev/null 2>&1 || fail "goldens/$g" "rendering"
done
cp -r goldens files/
finish maps files/maps
finish goldens files/goldens
finish inputs files/inputs

# The fuzz corpus' scene files that render (truncated.scn is a rejection
# seed; shaders_v3_frag_only.scn names a shader file that is not there);
# shaders_v3.scn draws with glsl/scene.{vert,frag}: the repository's.
mkdir -p fuzzscenes/glsl
cp "$root"/tests/fuzz/corpus/fuzz_scene/*.scn fuzzscenes/
cp "$root/shaders/scene.vert" "$root/shaders/scene.frag" fuzzscenes/glsl/
fuzz_scenes=(depth_blend empty_scene lines_v2 nonfinite one_triangle points_v2 shaders_v3)

# materials.gltf, copied so that its path is the same wherever the tree is.
cp "$root/tests/models/materials.gltf" models/
A=/usr/share/assimp/models
box_glb="$A/glTF2/BoxTextured-glTF-Binary/BoxTextured.glb"
box_gltf="$A/glTF2/BoxTextured-glTF/BoxTextured.gltf"
engine="$A/glTF2/2CylinderEngine-glTF-Binary/2CylinderEngine.glb"
spider="$A/OBJ/spider.obj"
boxobj="$A/OBJ/box.obj"
cams="$A/glTF2/cameras/Cameras.gltf"
for m in "$box_glb" "$box_gltf" "$engine" "$spider" "$boxobj" "$cams"; do
    [[ -f "$m" ]] || die "$m is missing (Debian's assimp-testmodels; scripts/deps.sh installs it)"
done

# ---- the jobs, longest first -----------------------------------------------
echo "== golden: rendering with $jobs_max jobs at a time (build $build)"
T=(--threads 2)
have_llvmpipe=0
if [[ $llvmpipe -eq 1 ]]; then
    if [[ -x "$build/bench/tilerast-llvmpipe" ]]; then
        have_llvmpipe=1
        spawn bench_compare_job bench/heavy/compare_llvmpipe --threads 2 --scene heavy
    else
        echo "golden: no $build/bench/tilerast-llvmpipe (built without OSMesa): the llvmpipe comparison is left out"
    fi
fi
for s in "${bench_scenes[@]}"; do
    sc="scenes/$s.scn" n="bench/$s" map=(--density-map maps/bench16x9.png)
    # --lrz-png needs depth: TR_SCENE_DEPTH (1) in the flags (overdraw_blend has none).
    lrz=()
    (($(od -An -tu4 -j16 -N4 "$sc") & 1)) && lrz=(--lrz-png @lrz.png)
    spawn render_job "$n/default" 0 "$sc" "${T[@]}" -o @image.png --raw @image.rgba "${lrz[@]}"
    spawn render_job "$n/samples4" 0 "$sc" "${T[@]}" --samples 4 --raw @image.rgba
    spawn render_job "$n/threads1" 0 "$sc" --threads 1 --raw @image.rgba
    spawn render_job "$n/no_lrz" 0 "$sc" "${T[@]}" --no-lrz --raw @image.rgba
    spawn render_job "$n/a740" 0 "$sc" "${T[@]}" --device a740 --raw @image.rgba
    spawn render_job "$n/gmem64k" 0 "$sc" "${T[@]}" --gmem 64K --raw @image.rgba
    spawn render_job "$n/fdm" 0 "$sc" "${T[@]}" "${map[@]}" --raw @image.rgba --fdm-png @fdm.png
    spawn render_job "$n/fdm_offset" 0 "$sc" "${T[@]}" "${map[@]}" --fdm-offset 16,8 --raw @image.rgba --fdm-png @fdm.png
    spawn render_job "$n/fdm_subsampled" 0 "$sc" "${T[@]}" "${map[@]}" --raw @image.rgba --subsampled @subsampled.png
    spawn render_job "$n/fdm_a740" 0 "$sc" "${T[@]}" "${map[@]}" --device a740 --raw @image.rgba --fdm-png @fdm.png
    if [[ $s == mesh && $have_llvmpipe -eq 1 ]]; then
        spawn bench_compare_job bench/engine/compare_llvmpipe --threads 2 --scene engine
    fi
done
spawn bench_json_job bench/heavy/stats --no-llvmpipe --frames 1 --threads 2 --scene heavy --shader both
spawn bench_json_job bench/engine/stats --no-llvmpipe --frames 1 --threads 2 --scene engine

# Models.
radial_outputs=(--fdm-png @fdm.png --subsampled @subsampled.png)
for m in "$engine" "$box_glb" models/materials.gltf; do
    n="models/$(basename "$m")"
    spawn render_job "$n/default" 0 "$m" "${T[@]}" -o @image.png --raw @image.rgba
    spawn render_job "$n/no_lrz" 0 "$m" "${T[@]}" --no-lrz --raw @image.rgba
    spawn render_job "$n/radial" 0 "$m" "${T[@]}" --density-map radial --raw @image.rgba "${radial_outputs[@]}"
    spawn render_job "$n/radial_views2" 0 "$m" "${T[@]}" --density-map radial --views 2 --raw @image.rgba \
        "${radial_outputs[@]}"
done
# tests/scene/render_fdm_model.sh's engine and parameters, render_models.sh's
# models and budgets, tests/models/materials.sh's camera.
spawn render_job models/2CylinderEngine.glb/radial_tight_gmem256k 0 "$engine" "${T[@]}" \
    --density-map radial:inner=0.3:outer=0.6 --gmem 256K --raw @image.rgba
spawn render_job models/materials.gltf/camera0 0 models/materials.gltf "${T[@]}" --camera 0 --raw @image.rgba
spawn render_job models/BoxTextured.gltf/default 0 "$box_gltf" "${T[@]}" -o @image.png --raw @image.rgba
spawn render_job models/BoxTextured.gltf/threads1_gmem64k 0 "$box_gltf" --threads 1 --gmem 64K --raw @image.rgba
spawn render_job models/BoxTextured.gltf/radial_params 0 "$box_gltf" "${T[@]}" \
    --density-map radial:centre=0.25,0.5:inner=0.3:outer=0.6:texel=128 --raw @image.rgba --fdm-png @fdm.png
spawn render_job models/BoxTextured.gltf/map_full 0 "$box_gltf" "${T[@]}" --density-map maps/model_full.png --raw @image.rgba
spawn render_job models/BoxTextured.gltf/map_half 0 "$box_gltf" "${T[@]}" --density-map maps/model_half.png \
    --raw @image.rgba --fdm-png @fdm.png
spawn render_job models/spider.obj/default 0 "$spider" "${T[@]}" --raw @image.rgba
spawn render_job models/box.obj/default 0 "$boxobj" "${T[@]}" --raw @image.rgba
spawn render_job models/Cameras.gltf/camera0 0 "$cams" "${T[@]}" --camera 0 --raw @image.rgba
spawn render_job models/Cameras.gltf/camera1 0 "$cams" "${T[@]}" --camera 1 --raw @image.rgba

# Examples.
for exe in "$build"/examples/tilerast-*; do
    [[ -x "$exe" && -f "$exe" ]] || continue
    spawn example_job "examples/$(basename "$exe")" "$exe"
done

# The tests' scenes, with the tests' options.
t=tscenes/fdm.scn n=tests/fdm
spawn render_job "$n/plain" 0 $t "${T[@]}" --raw @image.rgba
spawn render_job "$n/map_full" 0 $t "${T[@]}" --raw @image.rgba -o @image.png --density-map maps/full.png --fdm-png @fdm.png
spawn render_job "$n/map_half" 0 $t "${T[@]}" --raw @image.rgba --density-map maps/half.png --fdm-png @fdm.png
spawn render_job "$n/map_fine" 0 $t "${T[@]}" --raw @image.rgba --density-map maps/fine.png
spawn render_job "$n/map_zero" 0 $t "${T[@]}" --raw @image.rgba --density-map maps/zero.png --fdm-png @fdm.png
spawn render_job "$n/map_full_offset" 0 $t "${T[@]}" --raw @image.rgba --density-map maps/full.png \
    --fdm-offset 40,-24 --fdm-png @fdm.png
spawn render_job "$n/map_half_offset_a740" 0 $t "${T[@]}" --raw @image.rgba --density-map maps/half.png \
    --fdm-offset -64,32 --device a740 --fdm-png @fdm.png
spawn render_job "$n/map_half_subsampled" 0 $t "${T[@]}" --raw @image.rgba --density-map maps/half.png \
    --subsampled @subsampled.png
spawn render_job "$n/radial" 0 $t "${T[@]}" --raw @image.rgba --density-map radial --fdm-png @fdm.png
spawn render_job "$n/lrz" 0 $t "${T[@]}" --raw @image.rgba --lrz-png @lrz.png
for d in a630 a660 a740; do
    spawn render_job "$n/device_$d" 0 $t "${T[@]}" --device $d --raw @image.rgba
done
t=tscenes/samples.scn n=tests/samples
spawn render_job "$n/plain" 0 $t "${T[@]}" --raw @image.rgba
spawn render_job "$n/s1" 0 $t "${T[@]}" --samples 1 --raw @image.rgba
for s in 2 4 8; do
    spawn render_job "$n/s${s}_t1" 0 $t --samples $s --threads 1 --raw @image.rgba
    spawn render_job "$n/s${s}_t2" 0 $t --samples $s --threads 2 --raw @image.rgba
    spawn render_job "$n/s${s}_t3_gmem48k" 0 $t --samples $s --threads 3 --gmem 48K --raw @image.rgba
done
spawn render_job "$n/s4_map_full" 0 $t "${T[@]}" --samples 4 --density-map maps/full.png --raw @image.rgba
# (--fdm-png with --samples > 1 fails in tilerast-render: the picture's pass
# pairs the multisampled depth with a single-sampled colour attachment.)
spawn render_job "$n/s4_map_half" 0 $t "${T[@]}" --samples 4 --density-map maps/half.png --raw @image.rgba
spawn render_job "$n/s4_lrz" 0 $t "${T[@]}" --samples 4 --raw @image.rgba --lrz-png @lrz.png
t=tscenes/quad.scn n=tests/quad
spawn render_job "$n/gmem16k" 0 $t "${T[@]}" --gmem 16K --raw @image.rgba
spawn render_job "$n/gmem16k_radial" 0 $t "${T[@]}" --gmem 16K --density-map radial --raw @image.rgba --fdm-png @fdm.png
n=tests/compare
for g in base base_a250 small patch diff_beyond diff_within tiny; do
    spawn render_job "$n/$g" 0 tscenes/$g.scn "${T[@]}" --raw @image.rgba -o @image.png
done
spawn render_job "$n/patch_vs_base" 3 tscenes/patch.scn "${T[@]}" --compare goldens/base.png --diff @diff.png
spawn render_job "$n/patch_vs_base_tol7" 0 tscenes/patch.scn "${T[@]}" --compare goldens/base.png \
    --tolerance 7 --diff @diff.png
spawn render_job "$n/self" 0 tscenes/base.scn "${T[@]}" --compare goldens/base.png
spawn render_job "$n/alpha" 3 tscenes/base.scn "${T[@]}" --compare goldens/base_a250.png
for s in "${fuzz_scenes[@]}"; do
    spawn render_job "tests/fuzz_scene/$s" 0 "fuzzscenes/$s.scn" "${T[@]}" --raw @image.rgba -o @image.png
done


wait

# ---- collect ---------------------------------------------------------------
cat hashes/*.txt | sort -k1,1 > "$out/hashes.txt"
if [[ $keep -eq 0 ]]; then rm -rf files; fi

hash_of() { awk -v n="$1" '$1 == n { print $2 }' "$out/hashes.txt"; }
checks=0 check_bad=0
check_same() { # WHAT NAME-A NAME-B
    local a b
    a="$(hash_of "$2")" b="$(hash_of "$3")"
    checks=$((checks + 1))
    if [[ -n "$a" && "$a" == "$b" ]]; then
        echo "ok       $1: $2 = $3"
    else
        check_bad=$((check_bad + 1))
        echo "DIFFERS  $1: $2 ($a) != $3 ($b)"
    fi
}
{
    for s in "${bench_scenes[@]}"; do
        b="bench/$s"
        check_same "1 and 2 threads" "$b/threads1/image.rgba" "$b/default/image.rgba"
        check_same "LRZ off, the same image" "$b/no_lrz/image.rgba" "$b/default/image.rgba"
        check_same "64 KiB of GMEM, the same image" "$b/gmem64k/image.rgba" "$b/default/image.rgba"
        check_same "a740 without a map, the same image" "$b/a740/image.rgba" "$b/default/image.rgba"
        check_same "subsampled, the same picture" "$b/fdm_subsampled/image.rgba" "$b/fdm/image.rgba"
    done
    for s in 2 4 8; do
        check_same "--samples $s, 1 and 2 threads" tests/samples/s${s}_t1/image.rgba tests/samples/s${s}_t2/image.rgba
        check_same "--samples $s, 3 threads, 48 KiB" tests/samples/s${s}_t1/image.rgba tests/samples/s${s}_t3_gmem48k/image.rgba
    done
    check_same "--samples 1" tests/samples/s1/image.rgba tests/samples/plain/image.rgba
    check_same "--samples 4, all-255 map" tests/samples/s4_map_full/image.rgba tests/samples/s4_t2/image.rgba
    check_same "all-255 map" tests/fdm/map_full/image.rgba tests/fdm/plain/image.rgba
    check_same "all-255 map, offset" tests/fdm/map_full_offset/image.rgba tests/fdm/plain/image.rgba
    for d in a630 a660 a740; do check_same "--device $d" tests/fdm/device_$d/image.rgba tests/fdm/plain/image.rgba; done
    for m in 2CylinderEngine.glb BoxTextured.glb materials.gltf; do
        check_same "$m: LRZ off" models/$m/no_lrz/image.rgba models/$m/default/image.rgba
    done
    check_same "BoxTextured: .glb and .gltf" models/BoxTextured.glb/default/image.rgba models/BoxTextured.gltf/default/image.rgba
    check_same "BoxTextured: 1 thread, 64 KiB" models/BoxTextured.gltf/threads1_gmem64k/image.rgba models/BoxTextured.gltf/default/image.rgba
    check_same "BoxTextured: all-255 PNG map" models/BoxTextured.gltf/map_full/image.rgba models/BoxTextured.gltf/default/image.rgba
} > "$out/checks.txt"

cat times/* | sort -k1,1nr -k2 > "$out/times.txt"
nfail=$(find fail -type f | wc -l)
if [[ $nfail -gt 0 ]]; then cat fail/* > "$out/failed.txt"; fi
if [[ $keep -eq 0 ]]; then cd "$out" && rm -rf "$work"; fi

total=$(wc -l < "$out/hashes.txt")
nstats=$(find "$out/stats" -name '*.json' | wc -l)
echo "== golden: $total outputs hashed ($nstats stats files) in $((SECONDS - start_s)) s: $out/hashes.txt"
echo "   checks: $checks, $((checks - check_bad)) equal$( [[ $check_bad -gt 0 ]] && echo ", $check_bad DIFFER (warning; see $out/checks.txt)")"
if [[ $check_bad -gt 0 ]]; then grep '^DIFFERS' "$out/checks.txt" | sed 's/^/   /' >&2; fi
if [[ $nfail -gt 0 ]]; then
    echo "== golden: $nfail jobs FAILED ($out/failed.txt):" >&2
    sed 's/^/   /' "$out/failed.txt" >&2
    exit 1
fi
