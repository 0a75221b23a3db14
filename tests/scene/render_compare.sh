#!/usr/bin/env bash
# tilerast-render --compare (tools/tool_compare.h): a render equal to its
# golden passes with "0 pixels differ"; a golden that differs in a known
# rectangle by a known amount fails with exit status 3 and the exact count
# and largest difference, passes once --tolerance reaches that difference;
# alpha is compared, an RGB golden's alpha is 255 and a grey one's R = G =
# B; --diff writes exactly the picture the help describes;
# -o writes the same bytes with or without --compare; --stats carries the
# comparison in its one JSON line; a missing, non-PNG, truncated, 16-bit
# or wrong-size golden exits 4 naming the file; misused options exit 2.
#   render_compare.sh TILERAST_RENDER
set -u
render="$1"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
fail=0

. "$(dirname "$0")/scene_lib.sh"

# 64x32 FLAT scenes (exact colours).  base: cleared to (10, 20, 30, 255).
# patch: base plus a rectangle over x in [-1, 0], y in [-1, -0.5] of
# (10, 20, 37, 255): pixel centres inside it are 32 columns by 8 rows, so
# 256 pixels differ from base, by 7 in blue.
W=64 H=32
rect() { # r g b a: two triangles over x in [-1, 0], y in [-1, -0.5]
    vertex $MONE $MONE 0 $ONE "$@"; vertex 0 $MONE 0 $ONE "$@"; vertex $MONE $MHALF 0 $ONE "$@"
    vertex 0 $MONE 0 $ONE "$@"; vertex 0 $MHALF 0 $ONE "$@"; vertex $MONE $MHALF 0 $ONE "$@"
}
header $W $H 8 10 20 30 255 0 > "$dir/base.scn"
header $W $H 8 10 20 30 250 0 > "$dir/base_a250.scn"
header 32 32 8 10 20 30 255 0 > "$dir/small.scn"
{ header $W $H 8 10 20 30 255 2; rect 10 20 37 255; } > "$dir/patch.scn"
# What --diff must draw for patch against base: the render's grey,
# (77*10 + 150*20 + 29*30 + 128) >> 8 = 18, dimmed to 3/8 = 6, and the
# rectangle in magenta (beyond the tolerance) or yellow (within it).
{ header $W $H 8 6 6 6 255 2; rect 255 0 255 255; } > "$dir/diff_beyond.scn"
{ header $W $H 8 6 6 6 255 2; rect 255 255 0 255; } > "$dir/diff_within.scn"

make_png() { # scene png
    "$render" "$dir/$1.scn" -o "$dir/$2" > /dev/null 2>&1 || { echo "FAIL making $2"; fail=1; }
}
make_png base base.png
make_png base_a250 base_a250.png
make_png small small.png

# run name expected-status expected-stdout -- args...: stdout must be
# exactly the line given (empty: not checked), the status exactly that.
run() {
    local name="$1" want_status="$2" want_out="$3"; shift 4
    local out status
    out="$("$render" "$@" 2> "$dir/err")"; status=$?
    if [[ $status -ne $want_status ]]; then
        echo "FAIL $name: status $status, not $want_status: $out $(cat "$dir/err")"; fail=1
    elif [[ -n "$want_out" && "$out" != "$want_out" ]]; then
        echo "FAIL $name: printed '$out', not '$want_out'"; fail=1
    else
        echo "ok   $name: $out$(head -c 200 "$dir/err" | tr '\n' ' ')"
    fi
}
SIZE="${W}x${H}"
line() { # pixels largest tolerance verdict golden (an image of $SIZE)
    local noun="pixels differ"
    [[ $1 -eq 1 ]] && noun="pixel differs"
    echo "compare: $SIZE, $1 $noun (largest channel difference $2, tolerance $3): $4 (golden $5)"
}

run self 0 "$(line 0 0 0 ok "$dir/base.png")" -- "$dir/base.scn" --compare "$dir/base.png"
run patch_fails 3 "$(line 256 7 0 FAIL "$dir/base.png")" -- \
    "$dir/patch.scn" --compare "$dir/base.png" -o "$dir/patch.png"
run tolerance_6_fails 3 "$(line 256 7 6 FAIL "$dir/base.png")" -- \
    "$dir/patch.scn" --compare "$dir/base.png" --tolerance 6
run tolerance_7_passes 0 "$(line 256 7 7 ok "$dir/base.png")" -- \
    "$dir/patch.scn" --compare "$dir/base.png" --tolerance 7
run tolerance_255_passes 0 "$(line 256 7 255 ok "$dir/base.png")" -- \
    "$dir/patch.scn" --compare "$dir/base.png" --tolerance 255
run alpha_compared 3 "$(line $((W * H)) 5 0 FAIL "$dir/base_a250.png")" -- \
    "$dir/base.scn" --compare "$dir/base_a250.png"
# The other way round: the failing render's -o is the new golden.
run patch_png_is_golden 0 "$(line 0 0 0 ok "$dir/patch.png")" -- "$dir/patch.scn" --compare "$dir/patch.png"

# -o writes the bytes it writes without --compare, even when it fails.
make_png patch patch_plain.png
if cmp -s "$dir/patch.png" "$dir/patch_plain.png"; then echo "ok   -o is unchanged by --compare"
else echo "FAIL -o differs with --compare"; fail=1; fi

# --diff: its size (the PNG header's big-endian width and height), then
# every pixel, by comparing it with the scene that draws the same picture.
run diff_written 3 "" -- "$dir/patch.scn" --compare "$dir/base.png" --diff "$dir/diff.png"
size="$(od -An -tu1 -j16 -N8 "$dir/diff.png" 2>/dev/null | tr -s ' ' | sed 's/^ //')"
if [[ "$size" == "0 0 0 $W 0 0 0 $H" ]]; then echo "ok   --diff writes a ${W}x${H} PNG"
else echo "FAIL --diff's header says '$size'"; fail=1; fi
run diff_picture_beyond 0 "$(line 0 0 0 ok "$dir/diff.png")" -- "$dir/diff_beyond.scn" --compare "$dir/diff.png"
run diff_written_within 0 "" -- "$dir/patch.scn" --compare "$dir/base.png" --tolerance 7 \
    --diff "$dir/diff7.png"
run diff_picture_within 0 "$(line 0 0 0 ok "$dir/diff7.png")" -- "$dir/diff_within.scn" --compare "$dir/diff7.png"

# --stats: stdout is the JSON line alone, with the comparison in it; the
# compare line goes to stderr.
json="$("$render" "$dir/patch.scn" --stats --compare "$dir/base.png" 2> "$dir/err")"; status=$?
want="\"compare\":{\"golden\":\"$dir/base.png\",\"diff\":null,\"width\":64,\"height\":32,"
want+="\"pixels_differing\":256,\"max_channel_difference\":7,\"tolerance\":0,\"passed\":false}"
if [[ $status -eq 3 && "$(wc -l <<<"$json")" -eq 1 && "$json" == "{"*"}" ]] &&
    grep -qF -- "$want" <<<"$json" && grep -qF "$(line 256 7 0 FAIL "$dir/base.png")" "$dir/err"; then
    echo "ok   --stats carries the comparison: $want"
else
    echo "FAIL --stats: status $status: $json / $(cat "$dir/err")"; fail=1
fi
json="$("$render" "$dir/base.scn" --stats)"
if grep -qF '"compare":null' <<<"$json"; then echo "ok   --stats without --compare: \"compare\":null"
else echo "FAIL --stats without --compare: $json"; fail=1; fi

# Goldens the tool does not write: RGB (alpha read as 255), grey (R = G =
# B), 16-bit.  Written here as PNGs of one stored deflate block, for a
# 4x2 scene cleared to (10, 20, 30, 255) or (10, 20, 30, 250).
bytes() { local b s=""; for b in "$@"; do printf -v b '\\x%02x' "$b"; s+=$b; done; printf "$s"; }
be32() { echo $(($1 >> 24 & 255)) $(($1 >> 16 & 255)) $(($1 >> 8 & 255)) $(($1 & 255)); }
crc32() { # bytes...: the chunk CRC (PNG spec, annex D), bit by bit
    local c=$((0xffffffff)) b k
    for b in "$@"; do
        c=$((c ^ b))
        for k in 1 2 3 4 5 6 7 8; do c=$(((c >> 1) ^ (0xedb88320 & -(c & 1)))); done
    done
    echo $((c ^ 0xffffffff))
}
adler32() { # bytes...: zlib's check value (RFC 1950)
    local a=1 b=0 x
    for x in "$@"; do a=$(((a + x) % 65521)); b=$(((b + a) % 65521)); done
    echo $((b << 16 | a))
}
chunk() { # type data-bytes...
    local t=($(printf '%s' "$1" | od -An -tu1)); shift
    bytes $(be32 $#) "${t[@]}" "$@" $(be32 $(crc32 "${t[@]}" "$@"))
}
png() { # width height bit-depth colour-type filtered-row-bytes...
    local w=$1 h=$2 depth=$3 type=$4; shift 4
    local n=$#
    bytes 137 80 78 71 13 10 26 10
    chunk IHDR $(be32 $w) $(be32 $h) $depth $type 0 0 0
    chunk IDAT 120 1 1 $((n & 255)) $((n >> 8)) $((~n & 255)) $((~n >> 8 & 255)) "$@" $(be32 $(adler32 "$@"))
    chunk IEND
}
rows() { # count bytes-of-a-row...: count rows of filter 0 and the bytes
    local i; for ((i = 0; i < $1; i++)); do echo 0 "${@:2}"; done
}
header 4 2 8 10 20 30 255 0 > "$dir/tiny.scn"
header 4 2 8 10 20 30 250 0 > "$dir/tiny_a250.scn"
png 4 2 8 2 $(rows 2 10 20 30 10 20 30 10 20 30 10 20 30) > "$dir/rgb.png"
png 4 2 8 0 $(rows 2 20 20 20 20) > "$dir/grey.png"
png 4 2 16 0 $(rows 2 0 20 0 20 0 20 0 20) > "$dir/grey16.png"
SIZE=4x2
run rgb_golden 0 "$(line 0 0 0 ok "$dir/rgb.png")" -- "$dir/tiny.scn" --compare "$dir/rgb.png"
run rgb_golden_alpha_255 3 "$(line 8 5 0 FAIL "$dir/rgb.png")" -- "$dir/tiny_a250.scn" --compare "$dir/rgb.png"
run grey_golden 3 "$(line 8 10 0 FAIL "$dir/grey.png")" -- "$dir/tiny.scn" --compare "$dir/grey.png"

# Goldens that cannot be compared: status 4 and a message naming the file.
printf 'not a png at all' > "$dir/text.png"
head -c 45 "$dir/base.png" > "$dir/truncated.png"
mkdir "$dir/folder.png"
refused() { # name status words -- args...
    local name="$1" want_status="$2" word="$3"; shift 4
    local out status
    out="$("$render" "$@" 2>&1)"; status=$?
    if [[ $status -ne $want_status ]] || ! grep -qF -- "$word" <<<"$out"; then
        echo "FAIL $name: status $status: $out"; fail=1
    else
        echo "ok   $name: status $status: $(head -c 200 <<<"$out" | tr '\n' ' ')"
    fi
}
refused missing 4 "golden $dir/none.png: No such file" -- "$dir/base.scn" --compare "$dir/none.png"
refused wrong_size 4 "golden $dir/small.png is 32x32, the render is 64x32" -- \
    "$dir/base.scn" --compare "$dir/small.png"
refused not_png 4 "golden $dir/text.png: not a PNG file" -- "$dir/base.scn" --compare "$dir/text.png"
refused truncated 4 "golden $dir/truncated.png:" -- "$dir/base.scn" --compare "$dir/truncated.png"
refused grey16 4 "golden $dir/grey16.png: 16 bits per channel" -- "$dir/tiny.scn" --compare "$dir/grey16.png"
refused folder 4 "golden $dir/folder.png:" -- "$dir/base.scn" --compare "$dir/folder.png"
refused diff_unwritable 1 "diff $dir/no/such/diff.png" -- \
    "$dir/base.scn" --compare "$dir/base.png" --diff "$dir/no/such/diff.png"
refused tolerance_alone 2 "--compare" -- "$dir/base.scn" -o "$dir/x.png" --tolerance 3
refused diff_alone 2 "--compare" -- "$dir/base.scn" -o "$dir/x.png" --diff "$dir/d.png"
refused tolerance_256 2 "0..255" -- "$dir/base.scn" --compare "$dir/base.png" --tolerance 256
refused tolerance_negative 2 "0..255" -- "$dir/base.scn" --compare "$dir/base.png" --tolerance -1
exit $fail
