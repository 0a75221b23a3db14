#!/bin/sh
# tilerast beside llvmpipe on the 16-core device machine, which has no
# package registry: pack here everything the side-by-side bench needs into
# one archive, carry it there, run it.
#
#   sh bench/device_sidebyside.sh pack [BUILD_DIR] [--baseline OLD_BENCH]
#       (here, Debian 12 with libosmesa6-dev and glmark2-data) builds Release
#       tilerast-bench and tilerast-llvmpipe in BUILD_DIR (default build/) and
#       writes .device/tilerast-sidebyside.tar.xz (ignored; about 50 MB):
#       both programs, every library they load except glibc's own (libc,
#       libm, ld-linux, ...), the bunny of the mesh scene, the engine model,
#       the GLSL scene
#       shaders (shaders/ of the repository, which tilerast-bench compiles
#       with the shaderc linked into it and the runner hands to OSMesa),
#       MANIFEST, and this script as `run`.  A BUILD_DIR configured already
#       is built from the sources it was configured from (a clone elsewhere,
#       say: its shaders/ and commit go in); the archive still lands in this
#       repository's .device/.
#       --baseline OLD_BENCH adds an older tilerast-bench (tilerast is linked
#       into it statically) as tilerast-bench-baseline, for `run --ab`; pack
#       fails if it needs a library the archive lacks.  MANIFEST records its
#       path, sha256 and, when its build folder's CMakeCache.txt names a git
#       checkout, that checkout's commit.
#   sh bench/device_sidebyside.sh run [OPTIONS]
#       (on the device, from the repository root, .device carried in) unpacks
#       the archive into a temporary folder under ${TMPDIR:-/tmp} (not under
#       $OUT, whose files come back: the libraries are 190 MB unpacked),
#       removed at the end, and runs its `run` with OPTIONS.
#   sh tilerast-sidebyside/run [OPTIONS]     (an unpacked archive)
#       checks that both programs resolve every library inside the folder
#       (except glibc's), that OSMesa's driver is llvmpipe, then runs
#       tilerast-bench --json --frames 7 --threads 1,2,4,8,16 --lrz on, then
#       --lrz off, llvmpipe beside tilerast, and prints a summary table.
#       OPTIONS: --threads LIST  --frames N  --lrz on,off (or on, or off)
#                --quick (= --threads 1,2 --frames 2)  --no-llvmpipe
#                --samples N (both renderers multisampled; llvmpipe has 4x only)
#                --shader c|spirv|both (tilerast-bench's: the C callbacks, the
#                  SPIR-V twins, or both alternated; with spirv or both,
#                  llvmpipe draws the same GLSL in a 4.5 core context)
#                --scene NAME (that scene alone: tri_small, ..., heavy, engine)
#                --compare (tilerast-bench --compare-llvmpipe first, into
#                  sidebyside-compare.txt: which pixels differ from llvmpipe's
#                  on this machine's Mesa)
#                --out DIR (default: $OUT if set, else the current folder)
#       Writes to the out folder (as results come, so a run cut short keeps
#       what finished): sidebyside-lrz-on.jsonl, sidebyside-lrz-off.jsonl,
#       sidebyside-summary.txt, sidebyside-log.txt.  Sets LD_LIBRARY_PATH to
#       the folder's lib/, TILERAST_LLVMPIPE and TILERAST_BENCH_BUNNY to its
#       runner and bunny, GALLIUM_DRIVER=llvmpipe, MESA_SHADER_CACHE_DIR
#       inside the folder, and unsets the OpenMP, Mesa and TR_SIMD settings
#       that would change the timings (OMP_NUM_THREADS, LP_DEBUG...).  Debian
#       12's libOSMesa has llvmpipe built in and opens no driver at run time
#       (pack checks this with LD_DEBUG and adds whatever it does open).
#   sh tilerast-sidebyside/run --ab [--rounds N] [OPTIONS]
#       (or `run --ab ...` from the repository root) the old binary beside the
#       new, both tilerast alone (--no-llvmpipe): for each round r = 1..N
#       (default 3) tilerast-bench-baseline then tilerast-bench (odd rounds)
#       or tilerast-bench then the baseline (even rounds), each one
#       `tilerast-bench --json --no-llvmpipe --frames F --threads LIST --lrz L
#       ...` with the environment above.  OPTIONS: --threads, --frames, --lrz
#       (default on), --samples, --shader c|spirv, --scene, --out as above.
#       Writes to the out folder ab-baseline.jsonl and ab-current.jsonl (the
#       bench's JSON lines with "ab" and "round" put first; emptied when the
#       run starts), ab-log.txt and ab-summary.txt: per scene, LRZ mode,
#       shader and thread count the median over rounds of each binary's
#       median_ms, current / baseline (below 1: the new one faster), each
#       one's spread over rounds ((max - min) / median), its fastest frame
#       of all rounds (min_ms; steadier where the machine's speed drifts)
#       with that ratio too, and the geometric mean of the ratios per thread
#       count.
#   sh bench/device_sidebyside.sh summary FILE.jsonl...
#       the summary table of earlier runs' JSON lines (two device runs, say).
#   sh bench/device_sidebyside.sh ab-summary FILE.jsonl...
#       the A/B table of earlier --ab runs' ab-baseline.jsonl and
#       ab-current.jsonl (lines without "ab" count as their file's name says).
#
# On the device, from the repository root with .device carried (estimated
# 5 minutes for the whole matrix; one call per LRZ mode if the lease is slow):
#   sh bench/device_sidebyside.sh run                # --lrz on,off
#   sh bench/device_sidebyside.sh run --lrz on       # or one mode per call
#   sh bench/device_sidebyside.sh run --lrz on --shader both   # C, SPIR-V, llvmpipe GLSL
# An older build beside this one (pack here with --baseline, then there):
#   sh bench/device_sidebyside.sh pack /tmp/new/build --baseline /tmp/old/build/bench/tilerast-bench
#   sh bench/device_sidebyside.sh run --ab --rounds 3 --threads 1,16 --frames 5 --lrz on --out "$OUT/ab"
set -eu

prog=device_sidebyside.sh
name=tilerast-sidebyside
here=$(cd "$(dirname "$0")" && pwd)
die() {
    echo "$prog: $*" >&2
    exit 1
}

# glibc's own libraries: the machine's serve (they must match its loader).
is_glibc() {
    case $1 in
    libc.so.* | libm.so.* | libmvec.so.* | libpthread.so.* | libdl.so.* | librt.so.* | \
        libresolv.so.* | libutil.so.* | libanl.so.* | ld-linux*.so.* | linux-vdso.so.* | linux-gate.so.*)
        return 0 ;;
    esac
    return 1
}

# "NAME PATH" for each library the dynamic loader finds for the programs
# or libraries (ldd's list; without ldd, the loader's own trace, programs
# only); PATH "not-found" when it finds none.
loaded_libs() {
    for b in "$@"; do
        if command -v ldd >/dev/null 2>&1; then
            ldd "$b" </dev/null || true
        else
            LD_TRACE_LOADED_OBJECTS=1 "$b" </dev/null || true
        fi
    done | awk '$2 == "=>" { print $1, ($3 == "not" ? "not-found" : $3) }' | sort -u
}

# The highest GLIBC_x.y symbol version the files need ("" when unknown).
glibc_needed() {
    command -v objdump >/dev/null 2>&1 || return 0
    for f in "$@"; do objdump -T "$f" 2>/dev/null; done |
        grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' | sort -u -t. -k1,1n -k2,2n -k3,3n | tail -1
}

# ---- summary -------------------------------------------------------------

# awk: field(KEY), the first "KEY": value of the JSON line (quotes dropped;
# the bench's own keys come before its nested "stats").
# shellcheck disable=SC2016
awk_field='
    function field(k,   re) {
        re = "\"" k "\":(\"[^\"]*\"|[^,}]*)"
        if (!match($0, re)) return ""
        v = substr($0, RSTART + length(k) + 3, RLENGTH - length(k) - 3)
        gsub(/"/, "", v)
        return v
    }'

summary() {
    awk "$awk_field"'
    {
        r = field("renderer"); if (r == "") next
        sc = field("scene"); th = field("threads"); ms = field("median_ms"); sh = field("shader")
        # lines without "shader" (older runs): tilerast C, llvmpipe fixed function
        if (r == "tilerast") { mode = (field("lrz") == "false") ? "off" : "on"; who = "t-" (sh == "" ? "c" : sh) }
        else { mode = cur[FILENAME]; who = "l-" (sh == "" ? "fixed" : sh) }
        cur[FILENAME] = mode
        key = sc SUBSEP th
        if (!(key in seen)) { seen[key] = 1; order[n++] = key }
        val[key, mode, who] = ms
        if (who == "t-spirv") spirv[mode] = 1
    }
    function cell(v) { return v == "" ? sprintf("%9s", "-") : sprintf("%9.2f", v) }
    function ratio(a, b) { return (a == "" || b == "" || a + 0 <= 0) ? sprintf("%7s", "-") : sprintf("%6.2fx", b / a) }
    function lp(k, m) { return val[k, m, "l-fixed"] != "" ? val[k, m, "l-fixed"] : val[k, m, "l-glsl"] }
    END {
        if (n == 0) { print "(no results)"; exit }
        printf "%-15s %3s | %9s %9s %7s | %9s %9s %7s | %6s\n", "", "", "LRZ on", "", "", "LRZ off", "", "", ""
        printf "%-15s %3s | %9s %9s %7s | %9s %9s %7s | %6s\n", "scene", "thr", "tilerast", "llvmpipe", "speedup",
               "tilerast", "llvmpipe", "speedup", "off/on"
        for (i = 0; i < n; i++) {
            k = order[i]; split(k, p, SUBSEP)
            a = val[k, "on", "t-c"]; b = lp(k, "on")
            c = val[k, "off", "t-c"]; d = lp(k, "off")
            printf "%-15s %3s | %s %s %s | %s %s %s | %s\n", p[1], p[2], cell(a), cell(b), ratio(a, b),
                   cell(c), cell(d), ratio(c, d), (a != "" && c != "" && a + 0 > 0) ? sprintf("%5.2fx", c / a) : "     -"
        }
        print "median ms per frame; tilerast = its C callbacks; llvmpipe = fixed function where it ran, else GLSL;"
        print "speedup = llvmpipe / tilerast (above 1: tilerast faster); off/on = tilerast LRZ off / on"
        for (m in spirv) {
            printf "\nSPIR-V beside the C callbacks and llvmpipe drawing the same GLSL, LRZ %s\n", m
            printf "%-15s %3s | %9s %9s %9s | %7s %7s %7s\n", "scene", "thr", "C", "SPIR-V", "lp GLSL", "SPV/C",
                   "lp/C", "lp/SPV"
            for (i = 0; i < n; i++) {
                k = order[i]; split(k, p, SUBSEP)
                a = val[k, m, "t-c"]; b = val[k, m, "t-spirv"]; c = val[k, m, "l-glsl"]
                if (b == "") continue
                printf "%-15s %3s | %s %s %s | %s %s %s\n", p[1], p[2], cell(a), cell(b), cell(c), ratio(a, b),
                       ratio(a, c), ratio(b, c)
            }
            print "median ms per frame; SPV/C = SPIR-V / C (above 1: SPIR-V slower); lp/X = llvmpipe / X (above 1: X faster)"
        }
    }' "$@"
}

# The A/B table: per scene, LRZ mode, shader, samples and thread count, the
# median over rounds of each binary's median_ms and current / baseline.
ab_summary() {
    awk "$awk_field"'
    {
        if (field("renderer") != "tilerast") next
        ms = field("median_ms"); if (ms == "") next
        who = field("ab")
        if (who == "") who = (FILENAME ~ /baseline/) ? "baseline" : "current"
        if (who != "baseline" && who != "current") next
        sh = field("shader"); smp = field("samples")
        key = field("scene") SUBSEP ((field("lrz") == "false") ? "off" : "on") SUBSEP (sh == "" ? "c" : sh) \
            SUBSEP (smp == "" ? 1 : smp) SUBSEP field("threads")
        if (!(key in seen)) { seen[key] = 1; order[n++] = key }
        cnt[key, who]++; val[key, who, cnt[key, who]] = ms + 0
        mn = field("min_ms")
        if (mn != "" && (!((key, who) in best) || mn + 0 < best[key, who])) best[key, who] = mn + 0
    }
    # median, min and max of the rounds of (k, w) into med, lo, hi; 0 when none
    function stats(k, w,   m, i, j, t, a) {
        m = cnt[k, w] + 0; med = lo = hi = 0
        if (m == 0) return 0
        for (i = 1; i <= m; i++) a[i] = val[k, w, i]
        for (i = 2; i <= m; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
        med = (m % 2) ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
        lo = a[1]; hi = a[m]
        return m
    }
    function spread(m) { return (m == 0 || med <= 0) ? sprintf("%7s", "-") : sprintf("%6.1f%%", 100 * (hi - lo) / med) }
    END {
        if (n == 0) { print "(no results)"; exit }
        printf "%-15s %3s %-5s %3s | %9s %9s %8s | %6s %6s | %8s %8s %8s | %s\n", "scene", "lrz", "shade", "thr",
               "baseline", "current", "cur/base", "spr b", "spr c", "best b", "best c", "cur/base", "rounds"
        for (i = 0; i < n; i++) {
            k = order[i]; split(k, p, SUBSEP)
            nb = stats(k, "baseline"); mb = med; sb = spread(nb)
            nc = stats(k, "current"); mc = med; sc = spread(nc)
            label = p[1] (p[4] > 1 ? " " p[4] "x" : "")
            if (nb && nc && mb > 0 && mc > 0) {
                r = mc / mb; rs = sprintf("%7.3fx", r)
                lsum[p[5]] += log(r); lnum[p[5]]++
                if (!(p[5] in tseen)) { tseen[p[5]] = 1; torder[nt++] = p[5] }
                all += log(r); nall++
            } else rs = sprintf("%8s", "-")
            fb = ((k, "baseline") in best) ? best[k, "baseline"] : 0
            fc = ((k, "current") in best) ? best[k, "current"] : 0
            if (fb > 0 && fc > 0) { fr = sprintf("%7.3fx", fc / fb); bsum[p[5]] += log(fc / fb); bnum[p[5]]++ }
            else fr = sprintf("%8s", "-")
            printf "%-15s %3s %-5s %3s | %9s %9s %s | %s %s | %8s %8s %s | %d/%d\n", label, p[2], p[3], p[5],
                   nb ? sprintf("%9.2f", mb) : "-", nc ? sprintf("%9.2f", mc) : "-", rs, sb, sc,
                   fb ? sprintf("%8.2f", fb) : "-", fc ? sprintf("%8.2f", fc) : "-", fr, nb, nc
        }
        for (i = 0; i < nt; i++)
            printf "geometric mean of cur/base, %3s threads: %7.3fx over %d rows (best: %7.3fx)\n", torder[i],
                   exp(lsum[torder[i]] / lnum[torder[i]]), lnum[torder[i]],
                   bnum[torder[i]] ? exp(bsum[torder[i]] / bnum[torder[i]]) : 0
        if (nall) printf "geometric mean of cur/base, all rows:    %7.3fx over %d rows\n", exp(all / nall), nall
        print "ms: the median over rounds of each binary'"'"'s median ms per frame; cur/base below 1: current faster;"
        print "spr: (max - min) / median of that binary'"'"'s per-round medians (the noise to judge a ratio by);"
        print "best: the fastest frame of all its rounds (min_ms), steadier on a machine whose speed drifts"
    }' "$@"
}

# ---- pack (here) ---------------------------------------------------------

# The source folder a configured build folder was made from ("" if none).
cmake_source() {
    [ -r "$1/CMakeCache.txt" ] && sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$1/CMakeCache.txt"
    return 0
}

pack() {
    root=$(cd "$here/.." && pwd)
    build="" baseline=""
    while [ $# -gt 0 ]; do
        case $1 in
        --baseline) baseline=${2:?--baseline wants an older tilerast-bench}; shift ;;
        -*) die "pack: unknown option '$1' (see --help)" ;;
        *) [ -z "$build" ] || die "pack: one BUILD_DIR only, not '$build' and '$1'"; build=$1 ;;
        esac
        shift
    done
    build=${build:-$root/build}
    case $build in /*) ;; *) build=$PWD/$build ;; esac
    if [ -n "$baseline" ]; then
        case $baseline in /*) ;; *) baseline=$PWD/$baseline ;; esac
        if [ ! -f "$baseline" ] || [ ! -x "$baseline" ]; then die "--baseline $baseline: no such executable"; fi
    fi
    command -v xz >/dev/null 2>&1 || die "pack needs xz (Debian: xz-utils)"
    # A configured build folder is built from its own sources (a clone
    # elsewhere, say: cmake refuses another source folder for it).
    src=$(cmake_source "$build")
    [ -n "$src" ] && [ -d "$src" ] || src=$root
    echo "building Release tilerast-bench and tilerast-llvmpipe in $build (sources $src)"
    cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$build" -j "$(nproc)" --target tilerast-bench tilerast-llvmpipe >/dev/null
    bench=$build/bench/tilerast-bench
    runner=$build/bench/tilerast-llvmpipe
    [ -x "$bench" ] || die "$bench was not built"
    [ -x "$runner" ] || die "$runner was not built: install libosmesa6-dev and configure $build again"
    bunny=${TILERAST_BENCH_BUNNY:-}
    if [ -z "$bunny" ]; then
        bunny=$(sed -n 's/^#define BENCH_BUNNY_PATH "\(.*\)"$/\1/p' "$src/bench/bench_scenes.h")
    fi
    [ -r "$bunny" ] || die "no bunny at '$bunny' (Debian: glmark2-data, or set TILERAST_BENCH_BUNNY)"

    tmp=$(mktemp -d "${TMPDIR:-/tmp}/$name-pack.XXXXXX")
    trap 'rm -rf "$tmp"' EXIT
    st=$tmp/$name
    mkdir -p "$st/lib"
    cp "$bench" "$runner" "$st/"
    cp "$bunny" "$st/bunny.obj"
    # the model scene "engine" (Debian's assimp-testmodels), when it is here
    engine=/usr/share/assimp/models/glTF2/2CylinderEngine-glTF-Binary/2CylinderEngine.glb
    [ -r "$engine" ] && cp "$engine" "$st/engine.glb"
    # the GLSL scene shaders: tilerast-bench finds shaders/ beside itself
    cp -R "$src/shaders" "$st/shaders"
    cp "$0" "$st/run"
    chmod 755 "$st/run" "$st/tilerast-bench" "$st/tilerast-llvmpipe"

    # Every library the loader finds for either program (ldd's list)...
    loaded_libs "$st/tilerast-bench" "$st/tilerast-llvmpipe" >"$tmp/libs"
    while read -r lib path; do
        is_glibc "$lib" && continue
        [ "$path" != not-found ] || die "$lib: not found for the programs here"
        cp -L "$path" "$st/lib/$lib"
    done <"$tmp/libs"
    # ... and whatever OSMesa opens at run time (dlopen: a gallium driver,
    # say; Debian 12's libOSMesa has llvmpipe built in and opens none): the
    # runner makes a context with the staged libraries first, and every
    # object it loads from outside the folder is added, with its own needs.
    for _ in 1 2 3; do
        LD_LIBRARY_PATH=$st/lib LD_DEBUG=files LD_DEBUG_OUTPUT=$tmp/lddebug GALLIUM_DRIVER=llvmpipe \
            MESA_SHADER_CACHE_DISABLE=true \
            "$st/tilerast-llvmpipe" --info >/dev/null || die "the staged runner cannot make an OSMesa context"
        cat "$tmp"/lddebug.* | sed -n 's/.*calling init: \(.*\)$/\1/p' | sort -u >"$tmp/inits"
        rm -f "$tmp"/lddebug.*
        added=0
        while read -r path; do
            case $path in "$st"/*) continue ;; esac
            lib=$(basename "$path")
            is_glibc "$lib" && continue
            echo "  loaded at run time, not listed by ldd: $path (added to lib/)"
            cp -L "$path" "$st/lib/$lib"
            loaded_libs "$path" | while read -r dep dpath; do
                is_glibc "$dep" || [ -e "$st/lib/$dep" ] || cp -L "$dpath" "$st/lib/$dep"
            done
            added=1
        done <"$tmp/inits"
        [ $added = 1 ] || break
    done
    # Mesa's own view of what it runs on, for MANIFEST
    info=$(LD_LIBRARY_PATH=$st/lib GALLIUM_DRIVER=llvmpipe MESA_SHADER_CACHE_DISABLE=true \
        "$st/tilerast-llvmpipe" --info)
    case $info in *llvmpipe*) ;; *) die "OSMesa's renderer is not llvmpipe: $info" ;; esac

    # The older tilerast-bench for `run --ab`: tilerast is linked into it, so
    # it needs the binary alone, with libraries the archive holds already.
    if [ -n "$baseline" ]; then
        cp "$baseline" "$st/tilerast-bench-baseline"
        chmod 755 "$st/tilerast-bench-baseline"
        missing=""
        loaded_libs "$st/tilerast-bench-baseline" >"$tmp/baselibs"
        while read -r lib path; do
            is_glibc "$lib" && continue
            if [ "$path" = not-found ]; then
                missing="$missing $lib (not found here either)"
            elif [ ! -e "$st/lib/$lib" ]; then
                missing="$missing $lib ($path)"
            fi
        done <"$tmp/baselibs"
        [ -z "$missing" ] || die "--baseline $baseline needs libraries the archive lacks:$missing; build it against the libraries of $bench"
        bsha=$(sha256sum "$baseline" | cut -d' ' -f1)
        # its sources: the CMakeCache.txt of the build folder above it
        bsrc="" d=$(cd "$(dirname "$baseline")" && pwd)
        while [ -z "$bsrc" ] && [ "$d" != / ]; do
            bsrc=$(cmake_source "$d")
            d=$(dirname "$d")
        done
        bcommit=unknown
        if [ -n "$bsrc" ] && git -C "$bsrc" rev-parse HEAD >/dev/null 2>&1; then
            bcommit="$(git -C "$bsrc" rev-parse HEAD) ($(git -C "$bsrc" describe --always --dirty), sources $bsrc)"
        fi
    fi

    {
        echo "tilerast side-by-side bench archive ($name)"
        echo "packed: $(date -u '+%Y-%m-%d %H:%M UTC') on $(uname -n)"
        echo "commit: $(git -C "$src" rev-parse HEAD 2>/dev/null || echo unknown) ($(git -C "$src" describe --always --dirty 2>/dev/null || echo '?'), sources $src)"
        if [ -n "$baseline" ]; then
            echo "baseline_commit: $bcommit"
            echo "baseline: $baseline sha256 $bsha"
        fi
        echo "build: $build (Release)"
        echo "bench_sha256: $(sha256sum "$st/tilerast-bench" | cut -d' ' -f1)"
        echo "osmesa: $info"
        echo "glibc_needed: $(glibc_needed "$st"/tilerast-bench* "$st/tilerast-llvmpipe" "$st"/lib/*)"
        echo "glibc_here: $(getconf GNU_LIBC_VERSION 2>/dev/null || echo unknown)"
        echo "bunny: $bunny"
        echo "files:"
        (cd "$st" && find . -type f ! -name MANIFEST | sort | while read -r f; do
            printf '  %10s %s\n' "$(wc -c <"$f" | tr -d ' ')" "${f#./}"
        done)
    } >"$st/MANIFEST"

    mkdir -p "$root/.device"
    out=$root/.device/$name.tar.xz
    echo "compressing $(du -sh "$st" | cut -f1) into $out (xz -${XZ_LEVEL:-6}, a few minutes)"
    tar -C "$tmp" -cf - "$name" | xz "-${XZ_LEVEL:-6}" -T0 >"$out.part"
    mv "$out.part" "$out"
    size=$(wc -c <"$out" | tr -d ' ')
    cat "$st/MANIFEST"
    echo "wrote $out: $size bytes ($((size / 1048576)) MiB)"
    # The device takes the working tree and carried paths up to 64 MiB in all.
    [ "$size" -lt $((60 * 1048576)) ] || echo "$prog: warning: the archive leaves little of the device's 64 MiB" >&2
}

# ---- run (on the device, from the repository root) -----------------------

unpack_and_run() {
    root=$(cd "$here/.." && pwd)
    archive=$root/.device/$name.tar.xz
    [ -r "$archive" ] || die "no $archive: make it with 'sh bench/device_sidebyside.sh pack' and carry .device"
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/$name.XXXXXX")
    trap 'rm -rf "$tmp"' EXIT
    if command -v xz >/dev/null 2>&1; then
        xz -dc "$archive" | tar -C "$tmp" -xf - || die "cannot unpack $archive"
    elif command -v python3 >/dev/null 2>&1; then
        python3 -c 'import sys, tarfile
t = tarfile.open(sys.argv[1], "r:xz")
t.extractall(sys.argv[2], **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))' \
            "$archive" "$tmp" || die "cannot unpack $archive with python3"
    else
        die "neither xz nor python3 here to unpack $archive"
    fi
    sh "$tmp/$name/run" "$@"
}

# ---- bench (in an unpacked archive) --------------------------------------

# After a tilerast-bench run: its stderr (to the log and the terminal) and
# exit status (to the log); sets status to 1 if it failed.
bench_finished() {
    rc=$(cat "$dir/bench.rc")
    if [ -s "$dir/bench.err" ]; then
        sed 's/^/   stderr: /' "$dir/bench.err" | tee -a "$log" >&2
    fi
    echo "   exit $rc ($(date -u +%H:%M:%S))" | tee -a "$log"
    [ "$rc" = 0 ] || status=1
}

bench() {
    dir=$here
    { [ -x "$dir/tilerast-bench" ] && [ -d "$dir/lib" ]; } || die "$dir is not an unpacked $name archive"
    threads=1,2,4,8,16 frames=7 lrz="" extra="" out=${OUT:-$PWD} compare=0 ab=0 rounds=3 nolp=""
    while [ $# -gt 0 ]; do
        case $1 in
        --threads) threads=${2:?}; shift ;;
        --frames) frames=${2:?}; shift ;;
        --lrz) lrz=${2:?}; shift ;;
        --out) out=${2:?}; shift ;;
        --quick) threads=1,2 frames=2 ;;
        --no-llvmpipe) nolp=" --no-llvmpipe" ;;
        --ab) ab=1 ;;
        --rounds) rounds=${2:?}; shift ;;
        --samples) extra="$extra --samples ${2:?}"; shift ;;
        --shader) extra="$extra --shader ${2:?}"; shift ;;
        --scene) extra="$extra --scene ${2:?}"; shift ;;
        --compare) compare=1 ;;
        -h | --help) sed -n '2,/^set -eu/p' "$0" | sed '$d'; exit 0 ;;
        *) die "unknown option '$1' (see --help)" ;;
        esac
        shift
    done
    if [ $ab = 1 ]; then
        # the old binary beside the new, tilerast alone
        [ -x "$dir/tilerast-bench-baseline" ] ||
            die "--ab: the archive has no tilerast-bench-baseline (pack with --baseline OLD_BENCH)"
        [ $compare = 0 ] || die "--ab takes no --compare"
        case $rounds in '' | *[!0-9]*) die "--rounds wants a number of rounds, not '$rounds'" ;; esac
        [ "$rounds" -ge 1 ] || die "--rounds wants 1 or more"
        lrz=${lrz:-on} nolp=" --no-llvmpipe"
        log=$out/ab-log.txt
        sum=$out/ab-summary.txt
    else
        lrz=${lrz:-on,off}
        log=$out/sidebyside-log.txt
        sum=$out/sidebyside-summary.txt
    fi
    extra="$nolp$extra"
    mkdir -p "$out"
    out=$(cd "$out" && pwd)
    log=$out/${log##*/}
    sum=$out/${sum##*/}

    # Only what the folder holds, and the bench's own choices.
    LD_LIBRARY_PATH=$dir/lib
    TILERAST_LLVMPIPE=$dir/tilerast-llvmpipe
    TILERAST_BENCH_BUNNY=$dir/bunny.obj
    TILERAST_BENCH_ENGINE=$dir/engine.glb
    TILERAST_SHADERS=$dir/shaders
    GALLIUM_DRIVER=llvmpipe
    MESA_SHADER_CACHE_DIR=$dir/mesa-shader-cache
    export LD_LIBRARY_PATH TILERAST_LLVMPIPE TILERAST_BENCH_BUNNY TILERAST_BENCH_ENGINE TILERAST_SHADERS GALLIUM_DRIVER MESA_SHADER_CACHE_DIR
    unset LD_PRELOAD LP_NUM_THREADS TR_SIMD OMP_NUM_THREADS OMP_THREAD_LIMIT OMP_DYNAMIC OMP_WAIT_POLICY \
        OMP_PROC_BIND OMP_PLACES GOMP_CPU_AFFINITY GOMP_SPINCOUNT LIBGL_ALWAYS_SOFTWARE MESA_DEBUG LP_DEBUG \
        GALLIUM_DEBUG 2>/dev/null || true

    {
        echo "== machine"
        echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
        echo "uname: $(uname -srm)"
        echo "cores: $(nproc 2>/dev/null || echo '?') ($(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | sort | uniq -c | sed 's/^ *//' | tr '\n' ';'))"
        echo "glibc: $(getconf GNU_LIBC_VERSION 2>/dev/null || echo unknown)"
        echo "== archive"
        sed -n '1,/^files:/p' "$dir/MANIFEST" | sed '$d'
        echo "unpacked: $dir"
        echo "== libraries (LD_LIBRARY_PATH=$LD_LIBRARY_PATH)"
    } >"$log"
    # Every library resolves inside the folder, except glibc's own.
    bad=0
    set -- "$dir/tilerast-bench" "$dir/tilerast-llvmpipe"
    [ ! -x "$dir/tilerast-bench-baseline" ] || set -- "$@" "$dir/tilerast-bench-baseline"
    loaded_libs "$@" >"$dir/libs.txt"
    while read -r lib path; do
        if [ "$path" = not-found ]; then
            echo "NOT FOUND: $lib" >>"$log"
            bad=1
        elif is_glibc "$lib"; then
            echo "system (glibc): $lib => $path" >>"$log"
        else
            case $path in
            "$dir"/lib/*) echo "folder: $lib" >>"$log" ;;
            *) echo "OUTSIDE THE FOLDER: $lib => $path" >>"$log"; bad=1 ;;
            esac
        fi
    done <"$dir/libs.txt"
    need=$(sed -n 's/^glibc_needed: //p' "$dir/MANIFEST")
    have=$(getconf GNU_LIBC_VERSION 2>/dev/null | sed 's/^glibc //') || have=
    if [ -n "$need" ] && [ -n "$have" ] &&
        [ "$(printf '%s\n%s\n' "$need" "$have" | sort -t. -k1,1n -k2,2n | head -1)" != "$need" ]; then
        echo "glibc $have here, the archive's libraries need $need" >>"$log"
        bad=1
    fi
    info=$("$dir/tilerast-llvmpipe" --info 2>&1) || bad=1
    echo "osmesa: $info" >>"$log"
    case $info in *llvmpipe*) ;; *) case $extra in *--no-llvmpipe*) ;; *) bad=1 ;; esac ;; esac
    # The log's head on the terminal, the libraries in one line each way.
    grep -v '^folder: lib\|^system (glibc): ' "$log"
    echo "in the folder: $(sed -n 's/^folder: //p' "$log" | tr '\n' ' ')"
    echo "from the system (glibc's): $(sed -n 's/^system (glibc): \([^ ]*\) .*/\1/p' "$log" | tr '\n' ' ')"
    [ $bad = 0 ] || die "the folder's programs cannot run as packed here (see above)"

    files="" status=0
    if [ $ab = 1 ]; then
        ab_rounds
        return $status
    fi
    if [ $compare = 1 ]; then
        # which pixels differ from llvmpipe's (threads: the list's first)
        echo "== compare with llvmpipe -> $out/sidebyside-compare.txt  ($(date -u +%H:%M:%S))" | tee -a "$log"
        "$dir/tilerast-bench" --compare-llvmpipe --threads "${threads%%,*}" >"$out/sidebyside-compare.txt" \
            2>>"$log" || status=1
        cat "$out/sidebyside-compare.txt"
    fi
    echo "== bench: threads $threads, frames $frames, lrz $lrz ${extra:+($extra)}" | tee -a "$log"
    for l in $(echo "$lrz" | tr ',' ' '); do
        case $l in on | off) ;; *) die "--lrz wants on, off or on,off, not '$l'" ;; esac
        j=$out/sidebyside-lrz-$l.jsonl
        files="$files $j"
        echo "-- lrz $l -> $j  ($(date -u +%H:%M:%S))" | tee -a "$log"
        # One short line per result as it comes; the JSON lines to $j.
        { "$dir/tilerast-bench" --json --threads "$threads" --frames "$frames" --lrz "$l" $extra \
            2>"$dir/bench.err"; echo $? >"$dir/bench.rc"; } | tee "$j" |
            awk -F'[,:]' '{
                for (i = 1; i < NF; i++) { k = $i; gsub(/[{}"]/, "", k); v = $(i + 1); gsub(/[{}"]/, "", v); f[k] = v }
                if (f["renderer"] == "tilerast")
                    printf "   %-15s %3s  tilerast lrz %-3s %-5s %9.2f ms\n", f["scene"], f["threads"], (f["lrz"] == "false" ? "off" : "on"), (f["shader"] == "" ? "c" : f["shader"]), f["median_ms"]
                else if (f["renderer"] == "llvmpipe")
                    printf "   %-15s %3s  llvmpipe %-5s        %9.2f ms  (tilerast %.2fx its speed)\n", f["scene"], f["threads"], (f["shader"] == "" ? "fixed" : f["shader"]), f["median_ms"], f["speedup_vs_llvmpipe"]
                else
                    print "   " $0
                split("", f); fflush()
            }'
        bench_finished
    done
    {
        echo "tilerast beside llvmpipe, $(nproc 2>/dev/null || echo '?') cores, $(date -u '+%Y-%m-%d %H:%M UTC'); threads $threads, frames $frames"
        sed -n 's/^commit: /commit: /p' "$dir/MANIFEST"
        # shellcheck disable=SC2086
        summary $files
    } >"$sum"
    echo "== summary ($sum)"
    cat "$sum"
    return $status
}

# ---- A/B (in an unpacked archive; bench's settings and environment) -----

# Rounds of the baseline and the current tilerast-bench, their order
# swapped every round; sets status to 1 if a run fails.
ab_rounds() {
    jb=$out/ab-baseline.jsonl
    jc=$out/ab-current.jsonl
    : >"$jb"
    : >"$jc"
    echo "== A/B: $rounds rounds, threads $threads, frames $frames, lrz $lrz${extra:+ ($extra)}" | tee -a "$log"
    r=1
    while [ "$r" -le "$rounds" ]; do
        if [ $((r % 2)) = 1 ]; then order="baseline current"; else order="current baseline"; fi
        for who in $order; do
            if [ "$who" = baseline ]; then b=$dir/tilerast-bench-baseline j=$jb; else b=$dir/tilerast-bench j=$jc; fi
            for l in $(echo "$lrz" | tr ',' ' '); do
                case $l in on | off) ;; *) die "--lrz wants on, off or on,off, not '$l'" ;; esac
                echo "-- round $r/$rounds: $who, lrz $l -> $j  ($(date -u +%H:%M:%S))" | tee -a "$log"
                # shellcheck disable=SC2086
                { "$b" --json --frames "$frames" --threads "$threads" --lrz "$l" $extra \
                    2>"$dir/bench.err"; echo $? >"$dir/bench.rc"; } |
                    sed "s/^{/{\"ab\":\"$who\",\"round\":$r,/" | tee -a "$j" |
                    awk "$awk_field"'
                    field("renderer") == "tilerast" {
                        printf "   %-15s %3s  %-8s lrz %-3s %-5s %9.2f ms\n", field("scene"), field("threads"),
                               field("ab"), (field("lrz") == "false" ? "off" : "on"), field("shader"), field("median_ms")
                        fflush(); next
                    }
                    { print "   " substr($0, 1, 160); fflush() }'
                bench_finished
            done
        done
        r=$((r + 1))
    done
    {
        echo "tilerast-bench A/B, $(nproc 2>/dev/null || echo '?') cores, $(date -u '+%Y-%m-%d %H:%M UTC'); $rounds rounds (baseline first in odd ones), threads $threads, frames $frames, lrz $lrz${extra:+,$extra}"
        sed -n 's/^commit: /current:  /p; s/^baseline_commit: /baseline: /p' "$dir/MANIFEST"
        ab_summary "$jb" "$jc"
    } >"$sum"
    echo "== A/B summary ($sum)"
    cat "$sum"
}

mode=${1:-}
case $mode in
pack) shift; pack "$@" ;;
run) shift; unpack_and_run "$@" ;;
summary) shift; [ $# -gt 0 ] || die "summary wants JSON-lines files"; summary "$@" ;;
ab-summary) shift; [ $# -gt 0 ] || die "ab-summary wants ab-baseline.jsonl and ab-current.jsonl"; ab_summary "$@" ;;
-h | --help) sed -n '2,/^set -eu/p' "$0" | sed '$d' ;;
*)
    # `run` inside an unpacked archive: the bench, with its options
    if [ -x "$here/tilerast-bench" ] && [ -d "$here/lib" ]; then
        bench "$@"
    else
        die "usage: sh bench/device_sidebyside.sh pack [BUILD_DIR] [--baseline OLD_BENCH] | run [--ab] [OPTIONS] | summary FILE... | ab-summary FILE... (see --help)"
    fi
    ;;
esac
