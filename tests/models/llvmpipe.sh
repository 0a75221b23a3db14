#!/usr/bin/env bash
# Models drawn by tilerast and by llvmpipe, the same draws and the same
# GLSL (tilerast-bench --compare-llvmpipe MODEL: each drawn over two clear
# colours, so that "covered" is exact): every pixel covered by one is
# covered by the other, and colours differ by more than 3 in at most 0.1%
# of the covered pixels (bench/RESULTS.md, "Models beside llvmpipe", says
# why they differ at all).  The models: materials.gltf (here), and from
# Debian's assimp-testmodels BoxTextured (an external PNG texture) and
# 2CylinderEngine (121,000 triangles).
#   llvmpipe.sh TILERAST_BENCH MATERIALS.gltf
set -u
bench="$1"
models=/usr/share/assimp/models/glTF2
list=("$2")
for m in "$models/BoxTextured-glTF/BoxTextured.gltf" "$models/2CylinderEngine-glTF-Binary/2CylinderEngine.glb"; do
    [[ -f "$m" ]] && list+=("$m")
done
fail=0
for m in "${list[@]}"; do
    out="$("$bench" --json --compare-llvmpipe --threads 2 "$m" 2>&1)"
    if grep -q "without assimp\|built with OSMesa" <<<"$out"; then echo "SKIP: $out"; exit 77; fi
    line="$(grep '"compare":' <<<"$out")"
    num() { grep -o "\"$1\":[0-9]*" <<<"$line" | cut -d: -f2; }
    covered="$(num covered_a)" covered_b="$(num covered_b)" differs="$(num coverage_differs)" big="$(num d_over_3)"
    if [[ -z "$line" || -z "$covered" ]]; then
        echo "FAIL $m: $out"; fail=1; continue
    fi
    if [[ "$differs" -eq 0 && "$covered" -eq "$covered_b" && "$covered" -gt 1000 && $((big * 1000)) -le "$covered" ]]; then
        echo "ok   $(basename "$m"): $covered pixels covered by both, none by one alone; $big differ by more than 3"
    else
        echo "FAIL $(basename "$m"): $line"; fail=1
    fi
done
exit $fail
