#!/usr/bin/env bash
# tilerast-render --density-map radial on real models (tools/tool_density.c):
# BoxTextured (and 2CylinderEngine) from Debian's assimp-testmodels render
# with the map the tool builds, shade exactly the fragments recorded here
# (the render is deterministic) and strictly fewer than the same render at
# full density, which the tool renders too; the FDM and subsampled
# pictures are PNGs of the expected sizes; --views 2 writes one picture per
# view (FILE, FILE.view1) and the two views' maps differ; --threads 1 and 2
# give the same bytes; a PNG map works for models (all 255: the bytes of
# no map, every fragment shaded); radial works for scene files; bad
# parameters exit 2 naming the option.  Skips (77) without the models or
# without assimp, as render_models.sh does.
#   render_fdm_model.sh TILERAST_RENDER
set -u
render="$1"
models=/usr/share/assimp/models
box="$models/glTF2/BoxTextured-glTF/BoxTextured.gltf"
engine="$models/glTF2/2CylinderEngine-glTF-Binary/2CylinderEngine.glb"
if [[ ! -f "$box" ]]; then
    echo "SKIP: no $models (Debian assimp-testmodels; scripts/deps.sh installs it)"
    exit 77
fi
if "$render" "$box" --stats 2>&1 | grep -q "without assimp"; then
    echo "SKIP: tilerast-render was built without assimp"
    exit 77
fi
# The counts, recorded from this renderer: they change only when the pass
# does (tool_model_render.c's camera, culling, tie rule) or the FDM rules.
box_line="radial FDM: 136,120 fragments shaded of 245,950 at full density (55.3%)"
box_shaded=136120 box_full=245950
views_line="radial FDM: 314,664 fragments shaded of 491,900 at full density (64.0%), 2 views"
views_shaded=314664 views_full=491900
engine_line="radial FDM: 192,668 fragments shaded of 343,698 at full density (56.1%)"
engine_shaded=192668 engine_full=343698
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
fail=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }

. "$(dirname "$0")/scene_lib.sh"

png_size() { # file -> "W H" from the IHDR chunk (big-endian words at 16 and 20)
    od -An -tu1 -j16 -N8 "$1" | awk '{ print $1*16777216+$2*65536+$3*256+$4, $5*16777216+$6*65536+$7*256+$8 }'
}
is_png() { [[ -s "$1" && "$(od -An -tx1 -N8 "$1" | tr -d ' ')" == 89504e470d0a1a0a ]]; }
expect_png() { # name file "W H"
    if ! is_png "$2"; then bad "$1: $2 is not a PNG"; return; fi
    local size; size="$(png_size "$2")"
    if [[ "$size" == "$3" ]]; then ok "$1: ${2##*/} is a $3 PNG"; else bad "$1: ${2##*/} is '$size', not $3"; fi
}
json_field() { grep -o "\"$2\":[0-9.]*" <<<"$1" | head -1 | cut -d: -f2; }

# The line the tool prints and the JSON's "fdm" object: exact numbers,
# strictly fewer fragments than at full density.
# check_counts NAME OUTPUT LINE SHADED FULL
check_counts() {
    local name="$1" out="$2" line="$3" shaded="$4" full="$5"
    if grep -qxF -- "$line" <<<"$out"; then ok "$name: prints '$line'"; else bad "$name: no line '$line' in: $out"; fi
    local s f; s="$(json_field "$out" fragments_shaded)" f="$(json_field "$out" full_density)"
    if [[ "$s" == "$shaded" && "$f" == "$full" && "$s" -lt "$f" ]]; then
        ok "$name: \"fdm\": $s fragments shaded < $f at full density"
    else
        bad "$name: \"fdm\" fragments_shaded '$s' full_density '$f', not $shaded < $full"
    fi
}

# ---- one view: the map, its pictures, its counts ---------------------------
if out="$("$render" "$box" --density-map radial -o "$dir/box.png" --fdm-png "$dir/fdm.png" \
          --subsampled "$dir/sub.png" --threads 1 --stats 2>&1)"; then
    check_counts box "$out" "$box_line" $box_shaded $box_full
    # The default a630 grid: 2 x 3 bins of 512 x 256; texels of 128 x 64
    # (a bin spans 4 of them), so an 8 x 12 map and no warning.
    if [[ "$(json_field "$out" map_width)x$(json_field "$out" map_height)" == 8x12 ]] && ! grep -q warning <<<"$out"; then
        ok "box: an 8x12 map, no warning about a map finer than the bins"
    else
        bad "box: map $(json_field "$out" map_width)x$(json_field "$out" map_height) or a warning: $out"
    fi
    expect_png box "$dir/box.png" "1024 768"
    # The pictures: the framebuffer, and a legend of one row below
    # (s = 4: 2s + 9s = 44 rows; fdm.h, subsample.h).
    expect_png box "$dir/fdm.png" "1024 812"
    expect_png box "$dir/sub.png" "1024 812"
else
    bad "box: $out"
fi
# Without --stats the line is on standard output.
if out="$("$render" "$box" --density-map radial -o "$dir/box_plain.png" 2>/dev/null)" &&
   [[ "$out" == "$box_line" ]]; then
    ok "box: the line on standard output without --stats"
else
    bad "box: standard output without --stats: '$out'"
fi

# The same bytes with 2 threads: the image (--compare), the pictures (cmp).
if out="$("$render" "$box" --density-map radial --threads 2 --compare "$dir/box.png" --fdm-png "$dir/fdm_t2.png" \
          --subsampled "$dir/sub_t2.png" 2>&1)" && grep -q " 0 pixels differ" <<<"$out" &&
   grep -qxF "$box_line" <<<"$out" &&
   cmp -s "$dir/fdm.png" "$dir/fdm_t2.png" && cmp -s "$dir/sub.png" "$dir/sub_t2.png"; then
    ok "box: --threads 2 renders the same bytes and counts"
else
    bad "box: --threads 2: $out"
fi

# ---- two views: a map per eye ----------------------------------------------
if out="$("$render" "$box" --density-map radial --views 2 -o "$dir/v.png" --fdm-png "$dir/vfdm.png" \
          --subsampled "$dir/vsub.png" --threads 1 --stats 2>&1)"; then
    check_counts views2 "$out" "$views_line" $views_shaded $views_full
    for f in v v.view1; do expect_png views2 "$dir/$f.png" "1024 768"; done
    for f in vfdm vfdm.view1 vsub vsub.view1; do expect_png views2 "$dir/$f.png" "1024 812"; done
    [[ -e "$dir/v.view2.png" ]] && bad "views2: a third view written"
    # Each eye's fovea moves towards the nose: the bins' areas differ.
    if is_png "$dir/vfdm.png" && is_png "$dir/vfdm.view1.png" && ! cmp -s "$dir/vfdm.png" "$dir/vfdm.view1.png"; then
        ok "views2: the two views' FDM pictures differ"
    else
        bad "views2: the two views' FDM pictures are the same file"
    fi
else
    bad "views2: $out"
fi
if out="$("$render" "$box" --density-map radial --views 2 --threads 2 -o "$dir/v_t2.png" --compare "$dir/v.png" \
          --fdm-png "$dir/vfdm_t2.png" 2>&1)" && grep -q " 0 pixels differ" <<<"$out" &&
   cmp -s "$dir/v.view1.png" "$dir/v_t2.view1.png" && cmp -s "$dir/vfdm.png" "$dir/vfdm_t2.png" &&
   cmp -s "$dir/vfdm.view1.png" "$dir/vfdm_t2.view1.png"; then
    ok "views2: --threads 2 renders the same bytes, both views"
else
    bad "views2: --threads 2: $out"
fi

# ---- parameters ------------------------------------------------------------
# A fovea off to the left, explicit radii and texels: fewer fragments still.
if out="$("$render" "$box" --density-map radial:centre=0.25,0.5:inner=0.3:outer=0.6:texel=128 --stats 2>&1)" &&
   s="$(json_field "$out" fragments_shaded)" && f="$(json_field "$out" full_density)" &&
   [[ -n "$s" && -n "$f" && "$s" -lt "$f" ]] && [[ "$(json_field "$out" map_width)" == 8 ]]; then
    ok "params: radial:centre=0.25,0.5:inner=0.3:outer=0.6:texel=128 shades $s of $f"
else
    bad "params: $out"
fi

# expect_usage NAME WORDS... -- ARGS...: exit 2, the message holds each word.
expect_usage() {
    local name="$1"; shift
    local words=()
    while [[ $# -gt 0 && "$1" != "--" ]]; do words+=("$1"); shift; done
    shift
    local out status
    out="$("$render" "$@" 2>&1)"; status=$?
    if [[ $status -ne 2 ]]; then bad "$name: exit status $status, not 2: $out"; return; fi
    for w in "${words[@]}"; do
        if ! grep -qF -- "$w" <<<"$out"; then bad "$name: message lacks '$w': $out"; return; fi
    done
    ok "$name: $(head -1 <<<"$out")"
}
expect_usage unknown_key "--density-map" "foo" -- "$box" -o "$dir/x.png" --density-map radial:foo=1
expect_usage not_a_pair "--density-map" "KEY=VALUE" -- "$box" -o "$dir/x.png" --density-map radial:0.5
expect_usage inner_beyond_outer "--density-map" "inner" -- "$box" -o "$dir/x.png" --density-map radial:inner=0.9:outer=0.5
expect_usage bad_centre "--density-map" "centre" -- "$box" -o "$dir/x.png" --density-map radial:centre=1.5,0.5
expect_usage bad_radius "--density-map" "outer" -- "$box" -o "$dir/x.png" --density-map radial:outer=nan
expect_usage bad_texel "--density-map" "texel" -- "$box" -o "$dir/x.png" --density-map radial:texel=48
expect_usage twice "--density-map" "twice" -- "$box" -o "$dir/x.png" --density-map radial:shift=0.1:shift=0.2
expect_usage bad_views "--views" -- "$box" -o "$dir/x.png" --views 7
expect_usage fdm_offset_model "--fdm-offset" -- "$box" -o "$dir/x.png" --density-map radial --fdm-offset 8,8

# ---- a PNG map on a model --------------------------------------------------
# Maps made by the tool itself: a scene without triangles, cleared to
# (r, g, 0, 255), is a map of density (r, g) (as render_fdm.sh makes them).
header 32 24 0 255 255 0 255 0 > "$dir/full.scn"
header 32 24 0 127 127 0 255 0 > "$dir/half.scn"
"$render" "$dir/full.scn" -o "$dir/full.png" >/dev/null 2>&1 && "$render" "$dir/half.scn" -o "$dir/half.png" >/dev/null 2>&1 ||
    bad "making the PNG maps"
"$render" "$box" -o "$dir/box_nomap.png" >/dev/null 2>&1
if out="$("$render" "$box" --density-map "$dir/full.png" --compare "$dir/box_nomap.png" 2>&1)" &&
   grep -q " 0 pixels differ" <<<"$out" && grep -qF "fragments shaded of 245,950 at full density (100.0%)" <<<"$out" &&
   grep -qF "FDM $dir/full.png: 245,950 fragments" <<<"$out"; then
    ok "png map: all 255 renders the bytes of no map and shades every fragment"
else
    bad "png map, all 255: $out"
fi
if out="$("$render" "$box" --density-map "$dir/half.png" --stats 2>&1)" &&
   s="$(json_field "$out" fragments_shaded)" && f="$(json_field "$out" full_density)" &&
   [[ -n "$s" && "$f" == "$box_full" && "$s" -lt "$f" ]] && grep -qF "FDM $dir/half.png: " <<<"$out"; then
    ok "png map: half density shades $s of $f"
else
    bad "png map, half density: $out"
fi

# ---- a scene file ----------------------------------------------------------
# A 320x200 full-screen quad; 16 KiB of GMEM makes bins small enough to ring.
{
    header 320 200 0 10 20 30 255 2
    vertex $MONE $MONE 0 $ONE 255 0 0 255; vertex $ONE $MONE 0 $ONE 0 255 0 255; vertex $ONE $ONE 0 $ONE 0 0 255 255
    vertex $MONE $MONE 0 $ONE 255 0 0 255; vertex $ONE $ONE 0 $ONE 0 0 255 255; vertex $MONE $ONE 0 $ONE 255 255 0 255
} > "$dir/quad.scn"
if plain="$("$render" "$dir/quad.scn" --gmem 16K --stats 2>&1)" &&
   out="$("$render" "$dir/quad.scn" --gmem 16K --density-map radial --fdm-png "$dir/quad_fdm.png" --stats 2>&1)" &&
   s="$(json_field "$out" fragments_shaded)" && f="$(json_field "$plain" fragments_shaded)" &&
   [[ -n "$s" && "$f" == 64000 && "$s" -lt "$f" ]] && is_png "$dir/quad_fdm.png"; then
    ok "scene: radial shades $s of $f fragments, --fdm-png written"
else
    bad "scene: $out"
fi
expect_usage scene_views "--views" -- "$dir/quad.scn" -o "$dir/x.png" --views 2

# ---- 2CylinderEngine: many meshes, a tighter fovea -------------------------
if [[ -f "$engine" ]]; then
    args=(--density-map radial:inner=0.3:outer=0.6 --gmem 256K)
    if out="$("$render" "$engine" "${args[@]}" -o "$dir/engine.png" --threads 1 --stats 2>&1)"; then
        check_counts engine "$out" "$engine_line" $engine_shaded $engine_full
        if out="$("$render" "$engine" "${args[@]}" --threads 2 --compare "$dir/engine.png" 2>&1)" &&
           grep -q " 0 pixels differ" <<<"$out"; then
            ok "engine: --threads 2 renders the same bytes"
        else
            bad "engine: --threads 2: $out"
        fi
    else
        bad "engine: $out"
    fi
fi
exit $fail
