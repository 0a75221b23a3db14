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

# The scenes the scene tests draw, written to stdout (also drawn by
# scripts/golden.sh).
scene_depth_320x200() { # a full-screen gradient at depth 0.75, two coloured triangles in front (render_fdm.sh)
    header 320 200 1 10 20 30 255 4
    vertex $MONE $MONE $Q3 $ONE 255 0 0 255; vertex $ONE $MONE $Q3 $ONE 0 255 0 255
    vertex $ONE $ONE $Q3 $ONE 0 0 255 255
    vertex $MONE $MONE $Q3 $ONE 255 0 0 255; vertex $ONE $ONE $Q3 $ONE 0 0 255 255
    vertex $MONE $ONE $Q3 $ONE 255 255 0 255
    vertex $MQ3 $MQ3 $QUARTER $ONE 255 255 255 255; vertex $Q3 $MHALF $QUARTER $ONE 0 128 255 255
    vertex 0 $Q3 $QUARTER $ONE 255 0 255 255
    vertex $MHALF $HALF 0 $ONE 40 200 40 255; vertex $Q3 $Q3 $Q3 $ONE 200 40 40 255
    vertex 0 $MQ3 $HALF $ONE 40 40 200 255
}
scene_samples_320x200() { # two flat triangles crossing in depth over a full-screen one (render_samples.sh)
    header 320 200 9 10 20 30 255 3
    vertex $MONE $MONE $Q3 $ONE 255 0 0 255; vertex $ONE $MONE $Q3 $ONE 255 0 0 255
    vertex $MONE $ONE $Q3 $ONE 255 0 0 255
    vertex $MQ3 $MQ3 $QUARTER $ONE 0 255 0 255; vertex $Q3 $MHALF $Q3 $ONE 0 255 0 255
    vertex 0 $Q3 $QUARTER $ONE 0 255 0 255
    vertex $MHALF $HALF 0 $ONE 0 0 255 255; vertex $Q3 $Q3 $Q3 $ONE 0 0 255 255
    vertex 0 $MQ3 $HALF $ONE 0 0 255 255
}
