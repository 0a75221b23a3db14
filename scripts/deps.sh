#!/usr/bin/env bash
# Installs the Debian packages tilerast needs, only those that are missing.
#
# Used by scripts/demo.sh, scripts/test.sh, scripts/test-sanitize.sh and
# scripts/fuzz.sh (which adds packages as arguments); can be run on its own.  Runs
# apt-get as root, or through sudo when not root.  Set TILERAST_SKIP_DEPS=1 to
# skip it (for a machine that gets its packages some other way).
set -euo pipefail

# build-essential: gcc, make, libc headers; cmake: the build; libsimde-dev:
# SIMD wrappers; libstb-dev: PNG in and out; spirv-headers and spirv-tools:
# the SPIR-V front end and its validator (src/shader); libcriterion-dev: the tests; libshaderc-dev: the
# tests' GLSL, compiled to SPIR-V; pkg-config: the install test;
# glmark2-data: the bench's mesh scene; libassimp-dev: tilerast-render's model
# import (glTF, OBJ); assimp-testmodels: real models for the tests.
TILERAST_DEB_PACKAGES=(build-essential cmake libsimde-dev libstb-dev spirv-headers spirv-tools libcriterion-dev
                       libshaderc-dev pkg-config glmark2-data libassimp-dev assimp-testmodels)
# Extra packages a caller needs besides (scripts/fuzz.sh: clang and its
# runtime libraries) come as arguments.
TILERAST_DEB_PACKAGES+=("$@")

if [[ "${TILERAST_SKIP_DEPS:-0}" == 1 ]]; then
    echo "deps: TILERAST_SKIP_DEPS=1, not checking Debian packages"
    exit 0
fi

if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "deps: no dpkg-query here (not Debian?); install these yourself:" >&2
    echo "      ${TILERAST_DEB_PACKAGES[*]}" >&2
    echo "deps: carrying on; CMake will say what it cannot find" >&2
    exit 0
fi

missing=()
for pkg in "${TILERAST_DEB_PACKAGES[@]}"; do
    # "ii" = wanted install, installed; anything else (absent, half-installed,
    # removed with its config kept) counts as missing.
    status="$(dpkg-query -W -f='${db:Status-Abbrev}' "$pkg" 2>/dev/null || true)"
    if [[ "$status" != ii* ]]; then
        missing+=("$pkg")
    fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
    echo "deps: all Debian packages present (${TILERAST_DEB_PACKAGES[*]})"
    exit 0
fi

if [[ "$(id -u)" -eq 0 ]]; then
    as_root=()
elif command -v sudo >/dev/null 2>&1; then
    as_root=(sudo)
else
    echo "deps: missing ${missing[*]}, and not root with no sudo to install them" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
apt_opts=(-o DPkg::Lock::Timeout=600 -o Dpkg::Use-Pty=0)
echo "deps: missing ${missing[*]}"
echo "deps: + ${as_root[*]:+${as_root[*]} }apt-get update"
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "${apt_opts[@]}" -q update
echo "deps: + ${as_root[*]:+${as_root[*]} }apt-get install -y --no-install-recommends ${missing[*]}"
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "${apt_opts[@]}" -q -y \
    --no-install-recommends install "${missing[@]}"
echo "deps: installed ${missing[*]}"
