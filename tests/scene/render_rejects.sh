#!/usr/bin/env bash
# tilerast-render on hostile scene files: each bad file makes it exit
# non-zero with a message naming the problem, without a crash (a signal
# would give a status above 128); a good file renders.
#   render_rejects.sh TILERAST_RENDER
set -u
render="$1"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
fail=0

# header: magic, width, height, flags, clear rgba, clear depth (float), triangle count
header() { # width height flags depth_bits count
    printf 'SRSCENE1'
    for v in "$1" "$2" "$3"; do printf "$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' $((v & 255)) $((v >> 8 & 255)) $((v >> 16 & 255)) $((v >> 24 & 255)))"; done
    printf '\x0a\x14\x1e\xff'
    for v in "$4" "$5"; do printf "$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' $((v & 255)) $((v >> 8 & 255)) $((v >> 16 & 255)) $((v >> 24 & 255)))"; done
}
vertex() { printf '\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x3f\x00\x00\x80\x3f\xff\x00\x00\xff'; }
ONE=0x3f800000

expect_refused() { # name file words-the-message-must-contain...
    local name="$1" file="$2"; shift 2
    local out status
    out="$("$render" "$file" -o "$dir/out.png" 2>&1)"; status=$?
    if [[ $status -eq 0 || $status -gt 128 ]]; then
        echo "FAIL $name: exit status $status"; fail=1; return
    fi
    for w in "$@"; do
        if ! grep -qi -- "$w" <<<"$out"; then
            echo "FAIL $name: message lacks '$w': $out"; fail=1; return
        fi
    done
    echo "ok   $name: $status: $(head -c 160 <<<"$out" | tr '\n' ' ')"
}

: > "$dir/empty.scn"
expect_refused empty "$dir/empty.scn" "empty"
header 16 16 0 $ONE 1 | head -c 20 > "$dir/short.scn"
expect_refused short_header "$dir/short.scn" "header"
{ header 16 16 0 $ONE 2; vertex; vertex; vertex; } > "$dir/trunc.scn"
expect_refused truncated "$dir/trunc.scn" "triangle"
{ header 16 16 0 $ONE 1; vertex; vertex; vertex; printf 'x'; } > "$dir/trailing.scn"
expect_refused trailing_byte "$dir/trailing.scn" "byte"
header 0 16 0 $ONE 0 > "$dir/zero.scn"
expect_refused zero_width "$dir/zero.scn" "width"
header 16385 16 0 $ONE 0 > "$dir/wide.scn"
expect_refused oversized "$dir/wide.scn" "16384"
header 16 16 0 $ONE $((0xFFFFFFFF)) > "$dir/count.scn"
expect_refused huge_count "$dir/count.scn" "triangle count"
header 16 16 0 $ONE $(((1 << 26) - 1)) > "$dir/past.scn"
expect_refused count_past_file "$dir/past.scn" "triangle"
header 16 16 0 $((0x7fc00000)) 0 > "$dir/nan.scn"
expect_refused nan_clear_depth "$dir/nan.scn" "depth"
header 16 16 64 $ONE 0 > "$dir/flags.scn"
expect_refused unknown_flags "$dir/flags.scn" "flag"
printf 'PNG\x89 not a scene at all, but long enough for a header' > "$dir/magic.scn"
expect_refused bad_magic "$dir/magic.scn" "magic"
expect_refused missing "$dir/none.scn"

{ header 16 16 1 $ONE 1; vertex; vertex; vertex; } > "$dir/good.scn"
if "$render" "$dir/good.scn" -o "$dir/good.png" >/dev/null 2>&1 && [[ -s "$dir/good.png" ]]; then
    echo "ok   good scene renders"
else
    echo "FAIL good scene"; fail=1
fi
exit $fail
