#!/usr/bin/env bash
# tilerast-render --samples (multisample.h): 1 renders the bytes of no
# option; 4 and 8 render the same bytes for every thread count and GMEM
# budget, differ from 1 only along edges (interiors keep their colour), and
# write the resolve; a count other than 1, 2, 4, 8 and --samples with a
# density map are refused with a message.
#   render_samples.sh TILERAST_RENDER
set -u
render="$1"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
fail=0

. "$(dirname "$0")/scene_lib.sh"

# A 320x200 depth-tested scene: two flat triangles crossing in depth
# over a full-screen one.
{
    header 320 200 9 10 20 30 255 3
    vertex $MONE $MONE $Q3 $ONE 255 0 0 255; vertex $ONE $MONE $Q3 $ONE 255 0 0 255
    vertex $MONE $ONE $Q3 $ONE 255 0 0 255
    vertex $MQ3 $MQ3 $QUARTER $ONE 0 255 0 255; vertex $Q3 $MHALF $Q3 $ONE 0 255 0 255
    vertex 0 $Q3 $QUARTER $ONE 0 255 0 255
    vertex $MHALF $HALF 0 $ONE 0 0 255 255; vertex $Q3 $Q3 $Q3 $ONE 0 0 255 255
    vertex 0 $MQ3 $HALF $ONE 0 0 255 255
} > "$dir/scene.scn"

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
# a density map (any PNG: this scene's own picture) with samples
"$render" "$dir/scene.scn" -o "$dir/map.png" > /dev/null 2>&1
expect_refused samples_fdm "not implemented yet" -- --samples 4 --density-map "$dir/map.png"
exit $fail
