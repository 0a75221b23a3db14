#!/usr/bin/env bash
# tilerast-render with a fragment density map (--density-map, --fdm-png,
# --device): a map that is missing, not an image or a bad --device value
# makes it exit non-zero with a message; an all-255 map renders the same
# bytes as no map; a half-density map shades fewer fragments; --fdm-png
# writes its picture.  The map PNGs are made by tilerast-render itself:
# a scene without triangles, cleared to (r, g, 0, 255), is a map of
# density (r, g).
#   render_fdm.sh TILERAST_RENDER
set -u
render="$1"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
fail=0

. "$(dirname "$0")/scene_lib.sh"

# A 320x200 depth-tested scene: a full-screen gradient at depth 0.75 and
# two coloured triangles in front of it, one crossing the other.
scene_depth_320x200 > "$dir/scene.scn"

map() { # name r g: a 4x4 map of density (r, g)
    header 4 4 0 "$2" "$3" 0 255 0 > "$dir/$1.scn"
    if ! "$render" "$dir/$1.scn" -o "$dir/$1.png" >/dev/null 2>&1 || [[ ! -s "$dir/$1.png" ]]; then
        echo "FAIL making the map $1"; fail=1
    fi
}
map full 255 255
map half 127 127
map zero 0 0

ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }

expect_refused() { # name expected-status-or-any words... -- args...
    local name="$1" want="$2"; shift 2
    local words=()
    while [[ $# -gt 0 && "$1" != "--" ]]; do words+=("$1"); shift; done
    shift
    local out status
    out="$("$render" "$@" 2>&1)"; status=$?
    if [[ $status -eq 0 || $status -gt 128 || ( "$want" != any && $status -ne $want ) ]]; then
        bad "$name: exit status $status: $out"; return
    fi
    for w in "${words[@]}"; do
        if ! grep -qi -- "$w" <<<"$out"; then
            bad "$name: message lacks '$w': $out"; return
        fi
    done
    ok "$name: $status: $(head -c 160 <<<"$out" | tr '\n' ' ')"
}

expect_refused missing_map any "density map" "none.png" -- \
    "$dir/scene.scn" -o "$dir/out.png" --density-map "$dir/none.png"
printf 'not an image at all' > "$dir/text.png"
expect_refused map_not_an_image any "density map" "text.png" -- \
    "$dir/scene.scn" -o "$dir/out.png" --density-map "$dir/text.png"
expect_refused bad_device 2 "device" "a999" -- "$dir/scene.scn" -o "$dir/out.png" --device a999
expect_refused device_without_value 2 "device" -- "$dir/scene.scn" -o "$dir/out.png" --device
expect_refused fdm_png_without_map 2 "density-map" -- "$dir/scene.scn" --fdm-png "$dir/fdm.png"

# An all-255 map is full rate: the same bytes as no map.
if "$render" "$dir/scene.scn" --raw "$dir/plain.rgba" >/dev/null &&
   "$render" "$dir/scene.scn" --raw "$dir/full.rgba" -o "$dir/full_out.png" --density-map "$dir/full.png" \
       --fdm-png "$dir/full_fdm.png" >/dev/null; then
    if cmp -s "$dir/plain.rgba" "$dir/full.rgba"; then ok "all-255 map: the image without a map"
    else bad "all-255 map: the image differs from the one without a map"; fi
    [[ -s "$dir/full_out.png" && -s "$dir/full_fdm.png" ]] && ok "all-255 map: -o and --fdm-png written" ||
        bad "all-255 map: -o or --fdm-png missing"
else
    bad "rendering with the all-255 map"
fi

# A half-density map reaches the pass: fewer fragments shaded (2x2 areas).
shaded() { grep -o '"fragments_shaded":[0-9]*' <<<"$1" | cut -d: -f2; }
plain_stats="$("$render" "$dir/scene.scn" --stats)"
half_stats="$("$render" "$dir/scene.scn" --stats --density-map "$dir/half.png" --fdm-png "$dir/half_fdm.png")"
if [[ $? -eq 0 && -s "$dir/half_fdm.png" ]]; then
    p="$(shaded "$plain_stats")" h="$(shaded "$half_stats")"
    if [[ -n "$p" && -n "$h" && "$h" -lt "$p" ]]; then ok "half-density map: $h fragments shaded, $p without"
    else bad "half-density map: $h fragments shaded, $p without"; fi
    grep -q '"density_map":"' <<<"$half_stats" && grep -q '"fdm_bin_views":\[\[' <<<"$half_stats" &&
        ok "--stats names the map and has fdm_bin_views" || bad "--stats: $half_stats"
else
    bad "rendering with the half-density map"
fi

# A map far finer than the bins is used but warned about (the bin is the
# unit of density): a 40x25 map's texels are the smallest, 32x32 pixels,
# and the scene's one bin (the whole 320x200) spans 10 of them; the 4x4
# map's texels (128x64) span 2.5 x 3.1 of them, under the warning's four.
header 40 25 0 127 127 0 255 0 > "$dir/fine.scn"
if "$render" "$dir/fine.scn" -o "$dir/fine.png" >/dev/null 2>&1; then
    out="$("$render" "$dir/scene.scn" -o "$dir/out.png" --density-map "$dir/fine.png" 2>&1)"
    if [[ $? -eq 0 ]] && grep -q "warning: .*fine.png: a density texel covers 32x32 pixels, a bin 320x" <<<"$out"; then
        ok "a map far finer than the bins: warned"
    else
        bad "a map far finer than the bins: $out"
    fi
    out="$("$render" "$dir/scene.scn" -o "$dir/out.png" --density-map "$dir/half.png" 2>&1)"
    if [[ $? -eq 0 ]] && ! grep -q "warning" <<<"$out"; then ok "a coarse map: no warning"
    else bad "a coarse map: $out"; fi
else
    bad "making the fine map"
fi

# A density of 0 skips every bin; the tool still succeeds, hatching the picture.
if "$render" "$dir/scene.scn" --density-map "$dir/zero.png" --fdm-png "$dir/zero_fdm.png" >/dev/null &&
   [[ -s "$dir/zero_fdm.png" ]]; then ok "all-0 map renders"; else bad "all-0 map"; fi

# --fdm-offset: refused without a map, badly formed, off the granularity
# or out of range; with an all-255 map the shifted bins still give the
# image without a map; the JSON names the offset.
expect_refused offset_without_map 2 "density-map" -- "$dir/scene.scn" -o "$dir/out.png" --fdm-offset 8,8
expect_refused offset_malformed 2 "fdm-offset" "8x8" -- "$dir/scene.scn" -o "$dir/out.png" \
    --density-map "$dir/full.png" --fdm-offset 8x8
expect_refused offset_out_of_range 2 "fdm-offset" -- "$dir/scene.scn" -o "$dir/out.png" \
    --density-map "$dir/full.png" --fdm-offset 16392,0
expect_refused offset_granularity any "multiple" "granularity" -- "$dir/scene.scn" -o "$dir/out.png" \
    --density-map "$dir/full.png" --fdm-offset 12,0
off_stats="$("$render" "$dir/scene.scn" --raw "$dir/full_off.rgba" --stats --density-map "$dir/full.png" \
    --fdm-offset 40,-24 --fdm-png "$dir/off_fdm.png")"
if [[ $? -eq 0 && -s "$dir/off_fdm.png" ]] && cmp -s "$dir/plain.rgba" "$dir/full_off.rgba"; then
    ok "all-255 map with --fdm-offset 40,-24: the image without a map"
else
    bad "all-255 map with --fdm-offset 40,-24"
fi
grep -q '"fdm_offset":\[40,-24\]' <<<"$off_stats" && ok "--stats names the offset" || bad "--stats: $off_stats"
if "$render" "$dir/scene.scn" --stats --density-map "$dir/half.png" --fdm-offset -64,32 --device a740 \
       --fdm-png "$dir/half_off.png" >/dev/null && [[ -s "$dir/half_off.png" ]]; then
    ok "half-density map with an offset on a740"
else
    bad "half-density map with an offset on a740"
fi

# --subsampled: refused without a map; with one, -o / --raw give the same
# picture as the ordinary image and RAW.png is written.
expect_refused subsampled_without_map 2 "density-map" -- "$dir/scene.scn" --subsampled "$dir/ss.png"
if "$render" "$dir/scene.scn" --raw "$dir/half_plain.rgba" --density-map "$dir/half.png" >/dev/null &&
   "$render" "$dir/scene.scn" --raw "$dir/half_ss.rgba" --density-map "$dir/half.png" \
       --subsampled "$dir/ss.png" >/dev/null && [[ -s "$dir/ss.png" ]] &&
   cmp -s "$dir/half_plain.rgba" "$dir/half_ss.rgba"; then
    ok "--subsampled: the same picture, the stored image written"
else
    bad "--subsampled"
fi

# Every device profile renders the scene (the same image: FDM is off).
for d in a630 a660 a740; do
    if "$render" "$dir/scene.scn" --device "$d" --raw "$dir/$d.rgba" >/dev/null &&
       cmp -s "$dir/plain.rgba" "$dir/$d.rgba"; then ok "--device $d"; else bad "--device $d"; fi
done
exit $fail
