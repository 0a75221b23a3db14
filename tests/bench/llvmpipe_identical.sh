#!/bin/sh
# Renders scenes with tilerast and with llvmpipe (our OSMesa runner, which
# draws into a framebuffer object) and compares them:
# - three standard scenes whose pixels the two renderers agree on exactly
#   (SCENES.md conventions, BOTTOM_LEFT ties), and a perspective scene of
#   50,000 small triangles with w from 0.5 to 4 and a colour each
#   (gen_perspective): identical bytes.  tilerast-render uses GL's
#   lower-left origin (TR_PASS_ORIGIN_LOWER_LEFT), window y computed
#   bottom-up as llvmpipe computes it; with the flipped viewport it used
#   before, 19 of the perspective scene's pixels differed.
# - points (gen_perspective): 20,000 of size 3 on pixel centres and of size
#   4 on pixel corners, where GL's legacy points and tilerast's squares
#   agree, and horizontal Bresenham lines of width 1 and 3 between pixel
#   centres: identical bytes.  Sloped and vertical lines differ where
#   llvmpipe approximates the diamond-exit rule (its float end tests; a
#   downward y-major line loses its first pixel): their differing bytes are
#   printed, not checked (bench/RESULTS.md, "Lines and points").
# - tri_small and the perspective scene at 4x: every byte equal or one
#   above llvmpipe's (the same coverage; llvmpipe's blit resolve averages
#   the samples in float and rounds to nearest, so an exact half, which
#   tilerast's integer average rounds up (multisample.h), can come out one
#   lower there).
# Arguments: tilerast-bench tilerast-render tilerast-llvmpipe gen_perspective
set -eu
bench=$1 render=$2 lp=$3 gen=$4
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$bench" --export "$dir" >/dev/null 2>&1 || true
"$gen" "$dir/perspective.scn" 50000 1
"$gen" "$dir/points3.scn" 20000 1 points-centres 3
"$gen" "$dir/points4.scn" 20000 2 points-corners 4
"$gen" "$dir/hlines1.scn" 20000 3 hlines-centres 1
"$gen" "$dir/hlines3.scn" 20000 4 hlines-centres 3
"$gen" "$dir/lines.scn" 20000 5 lines 1
"$gen" "$dir/lines_centres.scn" 20000 6 lines-centres 1
for s in lines lines_centres; do
    "$render" "$dir/$s.scn" --raw "$dir/$s.tilerast" --threads 2
    LP_NUM_THREADS=2 "$lp" --frames 1 --warmup 0 --raw "$dir/$s.llvmpipe" "$dir/$s.scn" >/dev/null
    echo "$s: $(cmp -l "$dir/$s.tilerast" "$dir/$s.llvmpipe" | wc -l) bytes differ (not checked)"
done
for s in tri_small depth_b2f depth_f2b perspective points3 points4 hlines1 hlines3; do
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
for s in tri_small perspective; do
    "$render" "$dir/$s.scn" --raw "$dir/$s.tilerast4" --threads 2 --samples 4
    LP_NUM_THREADS=2 "$lp" --frames 1 --warmup 0 --samples 4 --raw "$dir/$s.llvmpipe4" "$dir/$s.scn" >/dev/null
    # cmp -l: offset, then the two bytes in octal; tilerast's may be one above
    bad=$(cmp -l "$dir/$s.tilerast4" "$dir/$s.llvmpipe4" | awk '
        { a = 0; b = 0
          for (i = 1; i <= length($2); i++) a = a * 8 + substr($2, i, 1)
          for (i = 1; i <= length($3); i++) b = b * 8 + substr($3, i, 1)
          if (a != b + 1) n++; else ones++ }
        END { printf "%d %d", n + 0, ones + 0 }')
    set -- $bad
    if [ "$1" != 0 ]; then
        echo "$s 4x: $1 bytes differ by more than the resolve's rounding"
        exit 1
    fi
    echo "$s 4x: the same coverage ($2 bytes one above llvmpipe's float resolve: halves rounded up here)"
done
