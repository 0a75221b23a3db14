#!/bin/sh
# Renders three standard scenes with tilerast and with llvmpipe (our OSMesa
# runner) and requires identical bytes: the scenes whose pixels the two
# renderers agree on exactly (SCENES.md conventions, BOTTOM_LEFT ties).
# Arguments: tilerast-bench tilerast-render tilerast-llvmpipe
set -eu
bench=$1 render=$2 lp=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$bench" --export "$dir" >/dev/null 2>&1 || true
for s in tri_small depth_b2f depth_f2b; do
    test -f "$dir/$s.scn" || { echo "no $s.scn exported"; exit 1; }
    "$render" "$dir/$s.scn" --raw "$dir/$s.tilerast" --threads 2
    LP_NUM_THREADS=2 "$lp" --frames 1 --warmup 0 --raw "$dir/$s.llvmpipe" "$dir/$s.scn" >/dev/null
    if ! cmp -s "$dir/$s.tilerast" "$dir/$s.llvmpipe"; then
        echo "$s: tilerast and llvmpipe differ"
        cmp "$dir/$s.tilerast" "$dir/$s.llvmpipe" | head -1
        exit 1
    fi
    echo "$s: identical"
done
