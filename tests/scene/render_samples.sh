#!/usr/bin/env bash
# tilerast-render --samples (multisample.h): 1 renders the bytes of no
# option; 4 and 8 render the same bytes for every thread count and GMEM
# budget, differ from 1 only along edges (interiors keep their colour), and
# write the resolve; with an all-255 density map they equal no map, with a
# half-density one they shade fewer fragments; a count other than 1, 2, 4,
# 8 is refused with a message.
#   render_samples.sh TILERAST_RENDER
set -u
render="$1"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
fail=0

. "$(dirname "$0")/scene_lib.sh"

# A 320x200 depth-tested scene: two flat triangles crossing in depth
# over a full-screen one.
scene_samples_320x200 > "$dir/scene.scn"

run() { # name args... (writes $dir/name.rgba)
    local name="$1"; shift
    if ! "$render" "$dir/scene.scn" --raw "$dir/$name.rgba" "$@" > "$dir/$name.out" 2>&1; then
        echo "FAIL $name: $(cat "$dir/$name.out")"; fail=1
    fi
}
same() { # a b what
    if cmp -s "$dir/$1.rgba" "$dir/$2.rgba"; then echo "ok   $3"; else echo "FAIL $3: $1 and $2 differ"; fail=1; fi
}

run plain
run s1 --samples 1
same plain s1 "--samples 1 renders the bytes of no option"
for n in 4 8; do
    run s${n}_t1 --samples $n --threads 1
    run s${n}_t2 --samples $n --threads 2
    run s${n}_g --samples $n --threads 3 --gmem 48K
    same s${n}_t1 s${n}_t2 "--samples $n: 1 and 2 threads"
    same s${n}_t1 s${n}_g "--samples $n: 3 threads and 48 KiB of GMEM"
done
# Edges only: count the bytes that differ from the single-sampled image;
# some must (the edges are antialiased), few may (interiors are unchanged).
diffs=$(cmp -l "$dir/plain.rgba" "$dir/s4_t1.rgba" | wc -l)
total=$((320 * 200 * 4))
if [[ $diffs -gt 0 && $diffs -lt $((total / 20)) ]]; then
    echo "ok   4x differs from 1x in $diffs of $total bytes (edges)"
else
    echo "FAIL 4x differs from 1x in $diffs of $total bytes"; fail=1
fi

expect_refused() { # name words-the-message-must-contain -- args...
    local name="$1" word="$2"; shift 3
    local out status
    out="$("$render" "$dir/scene.scn" -o "$dir/x.png" "$@" 2>&1)"; status=$?
    if [[ $status -eq 0 || $status -gt 128 ]] || ! grep -qi -- "$word" <<<"$out"; then
        echo "FAIL $name: status $status: $out"; fail=1
    else
        echo "ok   $name: $(head -c 160 <<<"$out" | tr '\n' ' ')"
    fi
}
expect_refused samples_3 "1, 2, 4 or 8" -- --samples 3
expect_refused samples_16 "1, 2, 4 or 8" -- --samples 16
# Density maps with samples: a 4x4 map of density (r, g) is an empty scene
# cleared to (r, g, 0, 255).  All 255 is full rate: the bytes of no map.
# Half density shades coarse fragments' samples: fewer fragments shaded.
map() { # name r g
    header 4 4 0 "$2" "$3" 0 255 0 > "$dir/$1.scn"
    "$render" "$dir/$1.scn" -o "$dir/$1.png" > /dev/null 2>&1 || { echo "FAIL making the map $1"; fail=1; }
}
map full 255 255
map half 127 127
run s4_full --samples 4 --density-map "$dir/full.png"
same s4_t1 s4_full "--samples 4 with an all-255 density map"
shaded() { grep -o '"fragments_shaded":[0-9]*' <<<"$1" | cut -d: -f2; }
full_stats="$("$render" "$dir/scene.scn" --stats --samples 4)"
half_stats="$("$render" "$dir/scene.scn" --stats --samples 4 --density-map "$dir/half.png")"
f="$(shaded "$full_stats")" h="$(shaded "$half_stats")"
if [[ -n "$f" && -n "$h" && "$h" -lt "$f" ]]; then echo "ok   --samples 4, half density: $h fragments shaded, $f without"
else echo "FAIL --samples 4, half density: shaded '$h', without '$f'"; fail=1; fi
exit $fail
