#!/usr/bin/env bash
# tilerast-render on real models (tools/tool_model.c, assimp): glTF 2.0
# (.gltf with an external texture, .glb and embedded-data .gltf with
# embedded ones) and OBJ from Debian's assimp-testmodels render at
# 1024x768, not blank, to the same bytes for every thread count and GMEM
# budget (the golden-image guarantee, checked with --compare); the three
# forms of BoxTextured render the same image; --camera N views through
# the file's cameras.  Bad content (a truncated
# .glb, a missing file, a missing texture, infinite positions) exits
# non-zero with a message naming the file.  Skips (77) without the models.
#   render_models.sh TILERAST_RENDER
set -u
render="$1"
models=/usr/share/assimp/models
box_dir="$models/glTF2/BoxTextured-glTF"
if [[ ! -f "$box_dir/BoxTextured.gltf" || ! -f "$models/OBJ/spider.obj" ]]; then
    echo "SKIP: no $models (Debian assimp-testmodels; scripts/deps.sh installs it)"
    exit 77
fi
if "$render" "$box_dir/BoxTextured.gltf" --stats 2>&1 | grep -q "without assimp"; then
    echo "SKIP: tilerast-render was built without assimp"
    exit 77
fi
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
fail=0

png_size() { # file -> "W H" from the IHDR chunk (big-endian words at 16 and 20)
    od -An -tu1 -j16 -N8 "$1" | awk '{ print $1*16777216+$2*65536+$3*256+$4, $5*16777216+$6*65536+$7*256+$8 }'
}

# render NAME MODEL: PNG at 1 thread, checked for size and fragments written;
# then 2 threads and 2 threads with 64 KiB of GMEM must match it exactly.
render_model() {
    local name="$1" model="$2" out
    if ! out="$("$render" "$model" -o "$dir/$name.png" --threads 1 --stats 2>&1)"; then
        echo "FAIL $name: $out"; fail=1; return
    fi
    local size; size="$(png_size "$dir/$name.png")"
    if [[ "$size" == "1024 768" ]]; then echo "ok   $name: 1024x768 PNG"
    else echo "FAIL $name: PNG is '$size', not 1024 768"; fail=1; fi
    local written; written="$(grep -o '"fragments_written":[0-9]*' <<<"$out" | cut -d: -f2)"
    if [[ -n "$written" && "$written" -gt 10000 ]]; then echo "ok   $name: not blank ($written fragments written)"
    else echo "FAIL $name: fragments written '$written'"; fail=1; fi
    for args in "--threads 2" "--threads 2 --gmem 64K"; do
        # shellcheck disable=SC2086
        if out="$("$render" "$model" $args --compare "$dir/$name.png" 2>&1)" && grep -q " 0 pixels differ" <<<"$out"; then
            echo "ok   $name: $args renders the same bytes"
        else
            echo "FAIL $name: $args: $out"; fail=1
        fi
    done
}
render_model box_gltf "$box_dir/BoxTextured.gltf"
render_model spider_obj "$models/OBJ/spider.obj"
render_model box_obj "$models/OBJ/box.obj"

# Embedded textures (binary chunk, data URI) decode to the external file's texels.
for m in "$models/glTF2/BoxTextured-glTF-Binary/BoxTextured.glb" \
         "$models/glTF2/BoxTextured-glTF-Embedded/BoxTextured.gltf"; do
    [[ -f "$m" ]] || continue
    if out="$("$render" "$m" --compare "$dir/box_gltf.png" 2>&1)" && grep -q " 0 pixels differ" <<<"$out"; then
        echo "ok   ${m#"$models/"} renders as BoxTextured.gltf"
    else
        echo "FAIL ${m#"$models/"}: $out"; fail=1
    fi
done

# A mirroring node (x scale -1 in BoxTextured's matrix) turns the winding
# round: the same 8 of 12 triangles are culled as without the mirror.
mkdir "$dir/mirror"
sed '/"matrix": \[/{n;s/1\.0/-1.0/}' "$box_dir/BoxTextured.gltf" > "$dir/mirror/BoxTextured.gltf"
cp "$box_dir/BoxTextured0.bin" "$box_dir/CesiumLogoFlat.png" "$dir/mirror/"
culled() { grep -o '"primitives_culled":[0-9]*' <<<"$1" | cut -d: -f2; }
plain="$(culled "$("$render" "$box_dir/BoxTextured.gltf" --stats 2>&1)")"
mirrored="$(culled "$("$render" "$dir/mirror/BoxTextured.gltf" --stats 2>&1)")"
if ! cmp -s "$box_dir/BoxTextured.gltf" "$dir/mirror/BoxTextured.gltf" && [[ -n "$plain" && "$plain" == "$mirrored" ]]; then
    echo "ok   mirrored node: $mirrored triangles culled, as without the mirror"
else
    echo "FAIL mirrored node: culled '$mirrored', without the mirror '$plain'"; fail=1
fi

# --camera N: the file's cameras (a perspective and an orthographic one,
# both at (0.5, 0.5, 3) looking down -Z at a unit square tilted 45
# degrees): the orthographic one sees the square's x extent [0, 1] as
# columns [256, 768) of 1024 (xmag 1), so row 500 differs from the clear
# colour (its first pixel) exactly there.
cams="$models/glTF2/cameras/Cameras.gltf"
if [[ -f "$cams" ]]; then
    for c in 0 1; do
        if out="$("$render" "$cams" --camera $c --raw "$dir/cam$c.rgba" 2>&1)"; then
            echo "ok   --camera $c renders"
        else
            echo "FAIL --camera $c: $out"; fail=1
        fi
    done
    # Row 500 of the orthographic view, one character per pixel: W where
    # the square is drawn (not the row's first pixel, the clear colour).
    row="$(od -An -v -tu1 -w4 -j $((500 * 1024 * 4)) -N $((1024 * 4)) "$dir/cam1.rgba" |
           awk 'NR == 1 { c = $0 } { printf ($0 != c) ? "W" : "." }')"
    first="${row%%W*}" last="${row%W*}"
    if [[ ${#first} -eq 256 && ${#last} -eq 767 ]]; then
        echo "ok   --camera 1 (orthographic): the square covers columns 256..767"
    else
        echo "FAIL --camera 1: the square covers columns ${#first}..${#last}, not 256..767"; fail=1
    fi
    if out="$("$render" "$cams" --camera 2 -o "$dir/x.png" 2>&1)" || ! grep -q "2 cameras" <<<"$out"; then
        echo "FAIL --camera 2: $out"; fail=1
    else
        echo "ok   --camera 2 refused: $out"
    fi
fi

# expect_refused NAME MODEL WORD: non-zero (not a crash), the message names
# the file and contains WORD.
expect_refused() {
    local name="$1" model="$2" word="$3" out status
    out="$("$render" "$model" -o "$dir/refused.png" 2>&1)"; status=$?
    if [[ $status -eq 0 || $status -gt 128 ]] || ! grep -qF -- "$model" <<<"$out" || ! grep -qi -- "$word" <<<"$out"; then
        echo "FAIL $name: status $status: $out"; fail=1
    else
        echo "ok   $name: $(head -c 200 <<<"$out" | tr '\n' ' ')"
    fi
}
engine="$models/glTF2/2CylinderEngine-glTF-Binary/2CylinderEngine.glb"
if [[ -f "$engine" ]]; then
    head -c 20000 "$engine" > "$dir/truncated.glb"
    expect_refused truncated_glb "$dir/truncated.glb" "assimp"
fi
expect_refused missing_file "$dir/none.glb" "assimp"
mkdir "$dir/notex"
cp "$box_dir/BoxTextured.gltf" "$box_dir/BoxTextured0.bin" "$dir/notex/"
expect_refused missing_texture "$dir/notex/BoxTextured.gltf" "CesiumLogoFlat.png"
inf="$models/glTF2/BoxWithInfinites-glTF-Binary/BoxWithInfinites.glb"
[[ -f "$inf" ]] && expect_refused infinite_position "$inf" "not finite"
exit $fail
