# Writing SRSCENE1 files from shell tests (sourced by render_*.sh):
# little-endian words, the header and a vertex, and float bit patterns.
u32() { printf "$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' $(($1 & 255)) $(($1 >> 8 & 255)) $(($1 >> 16 & 255)) $(($1 >> 24 & 255)))"; }
u8() { printf "$(printf '\\x%02x' $(($1 & 255)))"; }
header() { # width height flags r g b a triangle_count (clear depth 1.0)
    printf 'SRSCENE1'; u32 "$1"; u32 "$2"; u32 "$3"
    u8 "$4"; u8 "$5"; u8 "$6"; u8 "$7"; u32 0x3f800000; u32 "$8"
}
vertex() { # x y z w (float bit patterns) r g b a
    u32 "$1"; u32 "$2"; u32 "$3"; u32 "$4"; u8 "$5"; u8 "$6"; u8 "$7"; u8 "$8"
}
ONE=0x3f800000 MONE=0xbf800000 HALF=0x3f000000 MHALF=0xbf000000
QUARTER=0x3e800000 Q3=0x3f400000 MQ3=0xbf400000
