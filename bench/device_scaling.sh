#!/bin/sh
# Builds tilerast on a machine without our Debian packages (headers carried
# in .deps/include, the bunny in .deps/bunny.obj) and times the standard
# scenes at 1, 2, 4, 8 and 16 threads.  Used for the scaling table in
# bench/RESULTS.md on the 16-core device machine:
#     sh bench/device_scaling.sh [OUT.jsonl]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-scaling.jsonl}
cmake -S "$root" -B "$root/build-device" -DCMAKE_BUILD_TYPE=Release \
    -DTILERAST_BUILD_TESTS=OFF -DTILERAST_BUILD_EXAMPLES=OFF \
    -DSIMDE_INCLUDE_DIR="$root/.deps/include" -DSTB_INCLUDE_DIR="$root/.deps/include" >/dev/null
cmake --build "$root/build-device" -j "$(nproc)" --target tilerast-bench >/dev/null
TILERAST_BENCH_BUNNY="$root/.deps/bunny.obj" \
    "$root/build-device/bench/tilerast-bench" --threads 1,2,4,8,16 --frames 7 --no-llvmpipe --json > "$out"
echo "wrote $out"
