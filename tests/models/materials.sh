#!/usr/bin/env bash
# glTF's metallic-roughness material in tilerast-render (shaders/model.frag),
# feature by feature, on materials.gltf: twelve unit quads facing +z, seen
# through the file's orthographic camera (128 pixels a unit at 1024x768).
# The file's one light (KHR_lights_punctual, directional, intensity 2)
# shines along -x, grazing every quad (N.L = 0: ambient and emission
# alone, which also shows that a file's lights replace the default one)
# except the two whose normal map turns their normal to +x.  Each quad is
# checked at its centre against bytes worked out by hand: linear values
# encoded to sRGB by the R8G8B8A8_SRGB target.
#   materials.sh TILERAST_RENDER MATERIALS.gltf
set -u
render="$1" model="$2"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
if ! out="$("$render" "$model" --camera 0 --raw "$dir/m.rgba" --stats 2>&1)"; then
    if grep -q "without assimp" <<<"$out"; then echo "SKIP: built without assimp"; exit 77; fi
    echo "FAIL: $out"; exit 1
fi
fail=0
# expect NAME X Y "R G B A": the pixel at column X, row Y (top row 0).
expect() {
    local got
    got="$(od -An -tu1 -j $((($3 * 1024 + $2) * 4)) -N4 "$dir/m.rgba" | xargs)"
    if [[ "$got" == "$4" ]]; then echo "ok   $1: $got"
    else echo "FAIL $1: ($2, $3) is '$got', not '$4'"; fail=1; fi
}
clear="118 118 124 255"                      # (0.18, 0.18, 0.2, 1) linear
expect "clear colour" 5 5 "$clear"
# Base colour black and metallic 1: no diffuse, no ambient, f0 = 0; the
# colour is the emission alone.  (1, 0.25, 0) -> sRGB 255, 137, 0.
expect "emissive factor" 128 128 "255 137 0 255"
# Emissive texture (sRGB, 128 64 255) times factor 1 decodes and encodes back.
expect "emissive texture" 320 128 "128 64 255 255"
# MASK, cutoff 0.5: alpha 0.3 is discarded, alpha 0.7 drawn with alpha 1.
expect "MASK below the cutoff" 512 128 "$clear"
expect "MASK above the cutoff" 704 128 "0 255 0 255"
# Occlusion (R = 128/255) at strength 1 on white, metallic 0: ambient 0.2
# x 0.50196 = 0.10039 -> 89; strength 0 ignores the texture: 0.2 -> 124.
expect "occlusion" 896 128 "89 89 89 255"
expect "occlusion strength 0" 896 320 "124 124 124 255"
# BLEND, sorted back to front although the file lists the near quad first:
# red (alpha 0.5) over the clear colour, then blue (alpha 0.5) over that:
# rgb (0.295, 0.045, 0.55), alpha 0.625 -> 148 60 196 159.  The other
# order would give red 0.545, green 0.045, blue 0.3.
expect "BLEND, the far red alone" 224 512 "202 85 89 191"
expect "BLEND, blue over red" 288 512 "148 60 196 159"
expect "BLEND, the near blue alone" 352 512 "85 85 204 191"
# A normal map of (255, 128, 128): tangent-space (1, 1/255, 1/255), the
# normal turned to the tangent, +x (aiProcess_CalcTangentSpace's tangent:
# u grows along +x), straight at the light.  White, roughness 1, with the
# eye along +z: glTF's BRDF (appendix B) in double gives linear 0.8232 for
# a dielectric -> 234, and 0.5171 -> 190 for a metal.  Both quads have
# metallic factor 1; the first's metallic-roughness texture (B = 0, G =
# 255) makes it a dielectric, so a texture not read would show 190 there.
expect "normal map and metallic-roughness texture: a lit dielectric" 512 512 "234 234 234 255"
expect "normal map, metallic factor 1: a lit metal" 512 320 "190 190 190 255"
# A quad wound clockwise (a back face): drawn when double-sided, culled when not.
got="$(od -An -tu1 -j $(((512 * 1024 + 704) * 4)) -N4 "$dir/m.rgba" | xargs)"
if [[ "$got" != "$clear" ]]; then echo "ok   double-sided back face drawn: $got"
else echo "FAIL double-sided back face: not drawn"; fail=1; fi
expect "single-sided back face culled" 896 512 "$clear"
if grep -q '"lights":1' <<<"$out" && grep -q '"draws":12' <<<"$out" && grep -q '"textures":4' <<<"$out"; then
    echo "ok   --stats: 12 draws, 4 textures, the file's 1 light"
else
    echo "FAIL --stats: $out"; fail=1
fi
exit $fail
