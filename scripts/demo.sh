#!/usr/bin/env bash
# Builds tilerast (Release, into ./build) and renders the demo scene to
# build/demo.png; prints the PNG's absolute path.  Installs missing Debian
# packages first (scripts/deps.sh).  Works from any directory.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "$root"
jobs="$(nproc 2>/dev/null || echo 2)"

run() { echo "+ $*"; "$@"; }

echo "== tilerast demo: checking Debian packages"
run bash scripts/deps.sh

echo "== configuring into $root/build (Release)"
run cmake -S . -B build -DCMAKE_BUILD_TYPE=Release

echo "== building the demo"
run cmake --build build --target tilerast-demo -j "$jobs"

echo "== rendering"
png="$root/build/demo.png"
run build/examples/tilerast-demo "$png"

echo
echo "The demo image is at: $png"
