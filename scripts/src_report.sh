#!/usr/bin/env bash
# Prints (on stdout) a Markdown report of the library's source structure,
# src/: made before and after a refactor of src/, the two reports are diffed.
# Needs bash, awk (POSIX; mawk does), find, wc, sort, gdb, and cmake with a C
# compiler when it builds.  Build output goes to a log in the build folder;
# progress to stderr.
#
#   bash scripts/src_report.sh [SRC_ROOT] [BUILD_DIR] > report.md
#
#   SRC_ROOT    the tree to describe: a checkout's root (holding src/) or its
#               src/ folder; default: the checkout this script is in
#   BUILD_DIR   a build of that tree with debug info (-g: CMAKE_BUILD_TYPE
#               RelWithDebInfo or Debug), used as it is (not rebuilt) for the
#               struct sizes; default: /tmp/src-report-build, configured here
#               (RelWithDebInfo; tests, examples, tools and bench off) and its
#               library built, incrementally when it exists
#   -h, --help  this help
#
# The sections:
#   1. the tree: every folder of src/ with its files and their lines (wc -l),
#      folder totals (a folder's own files, not its subfolders') and the total;
#      src/'s top level split into the executor (pass*, tile_plan.*, context.c)
#      and the base files
#   2. the include graph of every #include "..." in src/**/*.{c,h}: a file
#      of a subfolder is its folder's node (raster/); at the top level each
#      header is a node of its own (pass.h, internal.h, record.h, ...), the
#      executor's .c files (pass*.c, tile_plan.c, context.c) are "executor (src/)" and the
#      other .c files "src/*.c"; headers of include/ are "public (include/)".
#      Per node: the nodes it includes (with their include lines), its
#      include lines, the nodes including it; and the number of distinct
#      edges between nodes of src/ (self-loops and include/ left out)
#   3. the ten longest functions of the .c files; a function of a header is
#      listed apart when it would make the top ten.  A definition is found as
#      this code is written: the return type and name from column 0 (the
#      parameters may wrap, the return type may have its own line), a `{`
#      alone at column 0, a `}` alone at column 0 closing it.  Its lines run
#      from the line holding its name to the closing `}`, both included
#   4. the size (sizeof, from the build's DWARF through gdb) of every
#      struct tr__X / tr_X defined at column 0 in a header of src/
#      (`struct tr__X {`, `typedef struct tr__X {`; tr_X: the opaque public
#      types tr_context, tr_image, ... defined there), with its header, and
#      its member lines (the lines between its braces ending in `;`); largest
#      first; "-" where the debug info does not have the struct (unused)
#   5. the function signatures (declarations and definitions) with a
#      parameter named `simd`, and the `#if TILERAST_AVX2_KERNELS` lines of
#      every file but src/raster/raster_avx2.c
set -euo pipefail

usage() { sed -n '2,/^$/s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; }

args=()
for arg in "$@"; do
    case "$arg" in
    -h | --help) usage; exit 0 ;;
    -*) echo "scripts/src_report.sh: unknown option '$arg'" >&2; usage >&2; exit 2 ;;
    *) args+=("$arg") ;;
    esac
done
if [[ ${#args[@]} -gt 2 ]]; then
    echo "scripts/src_report.sh: at most two arguments (SRC_ROOT, BUILD_DIR)" >&2
    usage >&2
    exit 2
fi

say() { echo "src_report: $*" >&2; }

# ---- the tree and the build ------------------------------------------------------------------
if [[ ${#args[@]} -ge 1 ]]; then
    given="${args[0]}"
    [[ -d "$given" ]] || { say "no folder '$given'"; exit 2; }
    given="$(cd "$given" && pwd -P)"
    if [[ -d "$given/src" ]]; then
        root="$given"
    elif [[ "$(basename "$given")" == src ]]; then
        root="$(dirname "$given")"
    else
        say "'$given' is neither a checkout's root (with src/) nor a src/ folder"
        exit 2
    fi
else
    root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
fi
src="$root/src"

tmp="$(mktemp -d "${TMPDIR:-/tmp}/src_report.XXXXXX")"
trap 'rm -rf -- "$tmp"' EXIT

build_note=""
if [[ ${#args[@]} -ge 2 ]]; then
    build_dir="${args[1]}"
    [[ -d "$build_dir" ]] || { say "no build folder '$build_dir'"; exit 2; }
    build_dir="$(cd "$build_dir" && pwd -P)"
    build_note="given, used as it is"
else
    build_dir="/tmp/src-report-build"
    # A build folder belongs to one source tree: another tree gets its own.
    if [[ -f "$build_dir/CMakeCache.txt" ]]; then
        cached="$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build_dir/CMakeCache.txt")"
        if [[ -n "$cached" && "$(cd "$cached" 2>/dev/null && pwd -P)" != "$root" ]]; then
            build_dir="/tmp/src-report-build-$(printf '%s' "$root" | cksum | cut -d' ' -f1)"
            say "/tmp/src-report-build is a build of $cached; using $build_dir for $root"
        fi
    fi
    mkdir -p "$build_dir"
    log="$build_dir/src_report_build.log"
    gen=()
    if [[ ! -f "$build_dir/CMakeCache.txt" ]] && command -v ninja >/dev/null 2>&1; then
        gen=(-G Ninja)
    fi
    say "configuring and building $build_dir (RelWithDebInfo; log: $log)"
    if cmake -S "$root" -B "$build_dir" "${gen[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
            -DTILERAST_BUILD_TESTS=OFF -DTILERAST_BUILD_EXAMPLES=OFF -DTILERAST_BUILD_TOOLS=OFF \
            -DTILERAST_BUILD_BENCH=OFF >"$log" 2>&1 &&
        cmake --build "$build_dir" --target tilerast -j "$(nproc 2>/dev/null || echo 2)" >>"$log" 2>&1; then
        build_note="configured and built here (RelWithDebInfo)"
    else
        say "the build failed (tail of $log):"
        tail -n 20 "$log" >&2
        build_note="**the build failed** (see $log): no sizes"
        build_failed=1
    fi
fi

# The files, relative to src/ (editor leftovers and hidden files left out).
(cd "$src" && find . -type f ! -name '.*' ! -name '*~' | sed 's|^\./||' | LC_ALL=C sort) >"$tmp/files"
grep -E '\.(c|h)$' "$tmp/files" >"$tmp/code" || true
mapfile -t code_files <"$tmp/code"
mapfile -t header_files < <(grep '\.h$' "$tmp/code" || true)
if [[ ${#code_files[@]} -eq 0 ]]; then say "no .c or .h files under $src"; exit 2; fi
if [[ -d "$root/include" ]]; then
    (cd "$root/include" && find . -type f -name '*.h' | sed 's|^\./||' | LC_ALL=C sort) >"$tmp/public"
else
    : >"$tmp/public"
fi
while IFS= read -r f; do
    printf '%s\t%s\n' "$f" "$(wc -l <"$src/$f" | tr -d ' ')"
done <"$tmp/files" >"$tmp/lines"

# Shared awk: the node of a file of src/ in the include graph, comment and
# literal stripping, and a sort (mawk has none).
awk_lib='
function node(p,   d) {
    if (p ~ /\//) { d = p; sub(/\/[^\/]*$/, "", d); return d "/" }
    if (p ~ /\.h$/) return p
    if (p ~ /^(pass|tile_plan)[^\/]*\.c$/ || p == "context.c") return "executor (src/)"
    return "src/*.c"
}
function executor(p) { return p ~ /^(pass|tile_plan)[^\/]*\.[ch]$/ || p == "context.c" }
# The code of a line: string and character literals emptied, comments out
# (in_c carries a /* ... */ across lines).
function strip(s,   out, i, k) {
    gsub(/\047([^\047\\]|\\.)*\047/, "\047\047", s)
    gsub(/"([^"\\]|\\.)*"/, "\"\"", s)
    out = ""
    while (s != "") {
        if (in_c) {
            k = index(s, "*/")
            if (!k) return out
            s = substr(s, k + 2); in_c = 0; out = out " "
            continue
        }
        i = index(s, "/*"); k = index(s, "//")
        if (k && (!i || k < i)) return out substr(s, 1, k - 1)
        if (!i) return out s
        out = out substr(s, 1, i - 1); s = substr(s, i + 2); in_c = 1
    }
    return out
}
function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
# Sorts a[1..n] (strings) in place, ascending.
function isort(a, n,   i, j, t) {
    for (i = 2; i <= n; i++) {
        t = a[i]
        for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]
        a[j + 1] = t
    }
}
'

# ---- header ------------------------------------------------------------------------------------
{
    echo "# tilerast source report"
    echo
    echo "- tree: \`$root\`"
    if git -C "$root" rev-parse --git-dir >/dev/null 2>&1 &&
        [[ "$(git -C "$root" rev-parse --show-toplevel 2>/dev/null)" == "$root" ]]; then
        changed="$(git -C "$root" status --porcelain -- src | wc -l | tr -d ' ')"
        echo "- git: $(git -C "$root" log -1 --format='%h %s' | cut -c1-80)"
        echo "- uncommitted changes under src/: $changed files"
    else
        echo "- git: not a checkout's root"
    fi
    echo "- build (struct sizes): \`$build_dir\`, $build_note"
    echo
} >"$tmp/out"

# ---- 1. the tree -------------------------------------------------------------------------------
awk -F'\t' "$awk_lib"'
{
    p = $1; n = $2 + 0
    if (p ~ /\//) { d = p; sub(/\/[^\/]*$/, "", d); d = "src/" d "/" } else d = "src/"
    if (!(d in nf)) { dirs[++nd] = d }
    nf[d]++; tot[d] += n
    if (p ~ /\.c$/) cl[d] += n; else if (p ~ /\.h$/) hl[d] += n; else ol[d] += n
    if (d == "src/") {
        g = executor(p) ? "executor" : "base"
        gf[g]++; gt[g] += n
        if (p ~ /\.c$/) gc[g] += n; else if (p ~ /\.h$/) gh[g] += n; else go[g] += n
    }
    file[d, nf[d]] = p; lines[d, nf[d]] = n
    T += n; F++
    if (p ~ /\.c$/) TC += n; else if (p ~ /\.h$/) TH += n; else TO += n
}
function row(name, f, c, h, o, t) { printf "| %s | %d | %d | %d | %d | %d |\n", name, f, c, h, o, t }
END {
    isort(dirs, nd)
    print "## 1. Tree"
    print ""
    print "Lines are `wc -l`; a folder counts its own files (not its subfolders); \"other\" is non-C files (README.md)."
    print ""
    print "| folder | files | .c lines | .h lines | other lines | total lines |"
    print "|---|--:|--:|--:|--:|--:|"
    for (i = 1; i <= nd; i++) {
        d = dirs[i]
        row("`" d "`", nf[d], cl[d], hl[d], ol[d], tot[d])
        if (d == "src/") {
            row("&nbsp;&nbsp;executor (`pass*`, `tile_plan.*`, `context.c`)", gf["executor"], gc["executor"], gh["executor"], go["executor"], gt["executor"])
            row("&nbsp;&nbsp;base (the other top-level files)", gf["base"], gc["base"], gh["base"], go["base"], gt["base"])
        }
    }
    row("**total**", F, TC, TH, TO, T)
    print ""
    for (i = 1; i <= nd; i++) {
        d = dirs[i]
        printf "### `%s`: %d files, %d lines\n\n", d, nf[d], tot[d]
        print "| file | lines |" (d == "src/" ? " group |" : "")
        print "|---|--:|" (d == "src/" ? "---|" : "")
        for (j = 1; j <= nf[d]; j++) {
            p = file[d, j]; b = p; sub(/^.*\//, "", b)
            printf "| %s | %d |", b, lines[d, j]
            if (d == "src/") printf " %s |", executor(p) ? "executor" : "base"
            print ""
        }
        print ""
    }
}' "$tmp/lines" >>"$tmp/out"

# ---- 2. the include graph ----------------------------------------------------------------------
(cd "$src" && awk "$awk_lib"'
function norm(p,   parts, n, i, out, k, st) {
    n = split(p, parts, "/"); k = 0
    for (i = 1; i <= n; i++) {
        if (parts[i] == "." || parts[i] == "") continue
        if (parts[i] == ".." && k > 0) { k--; continue }
        st[++k] = parts[i]
    }
    out = ""
    for (i = 1; i <= k; i++) out = out (i > 1 ? "/" : "") st[i]
    return out
}
FILENAME == codelist { known[$0] = 1; nodes_of[node($0)]++; next }
FILENAME == publist { pub[$0] = 1; next }
FNR == 1 { in_c = 0 }
{
    code = $0
    if (code !~ /^[ \t]*#[ \t]*include[ \t]*"/) next
    inc = code; sub(/^[ \t]*#[ \t]*include[ \t]*"/, "", inc); sub(/".*$/, "", inc)
    p = FILENAME; dir = p
    if (dir ~ /\//) sub(/\/[^\/]*$/, "", dir); else dir = ""
    c1 = norm(dir == "" ? inc : dir "/" inc); c2 = norm(inc)
    if (c1 in known) to = node(c1)
    else if (c2 in known) to = node(c2)
    else if (inc in pub) to = "public (include/)"
    else { to = "unresolved: " inc; unres[FILENAME ":" FNR ": " inc] = 1 }
    from = node(p)
    lines_from[from]++
    if (to == from) self[from]++
    else {
        if (!((from, to) in e)) { nto[from]++; tos[from, nto[from]] = to; by[to]++ }
        e[from, to]++
    }
}
END {
    n = 0
    for (x in nodes_of) all[++n] = x
    isort(all, n)
    print "## 2. Include graph"
    print ""
    print "Every `#include \"...\"` of `src/**/*.{c,h}`, the including file and the included header each mapped to a node: a folder under `src/` (`raster/`); at the top level each header is its own node (`pass.h`, `internal.h`, `record.h`, ...), the executor files `pass*.c`, `tile_plan.c` and `context.c` are `executor (src/)`, the other `.c` files `src/*.c`; headers of `include/` are `public (include/)`. \"own\" counts the include lines that stay within the node."
    print ""
    print "| node | files | include lines | own | to others | includes (include lines) | included by (nodes) |"
    print "|---|--:|--:|--:|--:|---|--:|"
    edges = 0; pubedges = 0; other = 0
    for (i = 1; i <= n; i++) {
        f = all[i]; k = nto[f] + 0; m = 0
        for (j = 1; j <= k; j++) lst[++m] = tos[f, j]
        isort(lst, m)
        s = ""; out = 0
        for (j = 1; j <= m; j++) {
            t = lst[j]
            s = s (j > 1 ? ", " : "") "`" t "` (" e[f, t] ")"
            out += e[f, t]
            if (t == "public (include/)") pubedges++
            else if (t ~ /^unresolved: /) other++
            else edges++
        }
        if (s == "") s = "-"
        printf "| `%s` | %d | %d | %d | %d | %s | %d |\n", f, nodes_of[f], lines_from[f], self[f], out, s, by[f]
    }
    print ""
    printf "**Distinct edges between nodes of src/: %d** (self-loops left out); besides, %d nodes include public headers", edges, pubedges
    if (other) printf ", %d edges go to headers not found", other
    print "."
    for (u in unres) print "- not found: `" u "`"
    print ""
}' codelist="$tmp/code" publist="$tmp/public" "$tmp/code" "$tmp/public" "${code_files[@]}") >>"$tmp/out"

# ---- 3 and 5: the top-level scan of definitions and declarations -------------------------------
# Records (tab-separated):
#   F path name name_line end_line lines flags   a definition (flags: static,inline,oneline)
#   S path name line kind                        a signature with a parameter named simd
#   W path line text                             a definition whose { is not alone at column 0
(cd "$src" && awk "$awk_lib"'
function reset() { nh = 0; hdr = "" }
# The name of the function a signature declares (attributes dropped), or "".
function fname(s,   t) {
    gsub(/__attribute__[ \t]*\(\([^()]*(\([^()]*\)[^()]*)*\)\)/, " ", s)
    if (!match(s, /[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/)) return ""
    if (index(substr(s, 1, RSTART), "=")) return ""
    t = substr(s, RSTART, RLENGTH); sub(/[ \t]*\($/, "", t)
    if (t ~ /^(if|for|while|switch|return|sizeof|defined)$/) return ""
    return t
}
# The line of the header lines holding name.
function name_line(name,   i, s) {
    for (i = 1; i <= nh; i++) {
        s = hl[i]
        gsub(/__attribute__[ \t]*\(\([^()]*(\([^()]*\)[^()]*)*\)\)/, " ", s)
        if (match(" " s, "[^A-Za-z0-9_]" name "[ \t]*\\(")) return hn[i]
    }
    return hn[1]
}
# A signature (text up to its { or ;): an S record when a parameter is simd.
function sig(s, kind, line,   name, params) {
    if (index(s, "{")) s = substr(s, 1, index(s, "{") - 1)
    name = fname(s)
    if (name == "") return
    params = substr(s, index(s, name "(") ? index(s, name "(") : index(s, name))
    params = substr(params, index(params, "(") + 1)
    if (match(params, /(^|[^A-Za-z0-9_])simd[ \t]*(,|\)|\[)/))
        printf "S\t%s\t%s\t%d\t%s\n", FILENAME, name, line, kind
}
function flags(s,   f) {
    f = ""
    if (s ~ /(^|[^A-Za-z0-9_])static([^A-Za-z0-9_]|$)/) f = f "static,"
    if (s ~ /(^|[^A-Za-z0-9_])inline([^A-Za-z0-9_]|$)/) f = f "inline,"
    return f
}
FNR == 1 { in_c = 0; in_body = 0; in_macro = 0; reset() }
{
    code = strip($0)
    if (in_body) {
        if (code ~ /^\}[ \t;]*$/) {
            if (is_fn)
                printf "F\t%s\t%s\t%d\t%d\t%d\t%s\n", FILENAME, fn_name, fn_line, FNR, FNR - fn_line + 1, fn_flags
            in_body = 0; reset()
        }
        next
    }
    if (in_macro) { in_macro = (code ~ /\\[ \t]*$/); next }
    if (code ~ /^[ \t]*#/) { in_macro = (code ~ /\\[ \t]*$/); reset(); next }
    if (code ~ /^\{/) {
        s = trim(hdr)
        name = (s ~ /\)$/ && !index(s, "{")) ? fname(s) : ""
        is_fn = (name != "")
        if (is_fn) {
            fn_name = name; fn_line = name_line(name); fn_flags = flags(s)
            sig(s, "definition", fn_line)
        }
        in_body = 1
        if (code ~ /^\{.*\}[ \t;]*$/) {   # { ... } on one line
            if (is_fn)
                printf "F\t%s\t%s\t%d\t%d\t%d\t%s\n", FILENAME, fn_name, fn_line, FNR, FNR - fn_line + 1, fn_flags
            in_body = 0; reset()
        }
        next
    }
    if (trim(code) == "") { if (trim($0) == "" ) reset(); else if (nh == 0) reset(); next }
    if (code ~ /^[ \t]/ && nh == 0) next      # indented, outside any signature
    hl[++nh] = code; hn[nh] = FNR; hdr = hdr " " code
    s = trim(hdr)
    if (s ~ /;$/) {
        if (!index(s, "{")) sig(s, "declaration", hn[1])
        reset()
    } else if (s ~ /\}$/) {
        # a definition on one line: name(...) { ... }
        t = s; sub(/\{.*$/, "", t); t = trim(t)
        if (t ~ /\)$/ && (name = fname(t)) != "") {
            printf "F\t%s\t%s\t%d\t%d\t%d\t%s\n", FILENAME, name, name_line(name), FNR, FNR - name_line(name) + 1, flags(t) "oneline,"
            sig(t, "definition", name_line(name))
        }
        reset()
    } else if (s ~ /\)[ \t]*\{$/ && nh >= 1 && hl[1] ~ /^[A-Za-z_]/) {
        t = s; sub(/\{$/, "", t)
        if (fname(t) != "" && s !~ /(^|[^A-Za-z0-9_])(struct|union|enum)[ \t]+[A-Za-z0-9_]*[ \t]*\{$/)
            printf "W\t%s\t%d\t%s\n", FILENAME, hn[1], substr(s, 1, 80)
    }
}' "${code_files[@]}") >"$tmp/scan"

# ---- 3. the longest functions ------------------------------------------------------------------
awk -F'\t' '$1 == "F" && $2 ~ /\.c$/' "$tmp/scan" | LC_ALL=C sort -t$'\t' -k6,6nr -k2,2 -k4,4n >"$tmp/fc"
awk -F'\t' '$1 == "F" && $2 ~ /\.h$/' "$tmp/scan" | LC_ALL=C sort -t$'\t' -k6,6nr -k2,2 -k4,4n >"$tmp/fh"
awk -F'\t' '$1 == "W"' "$tmp/scan" >"$tmp/warn"
awk -F'\t' -v hfile="$tmp/fh" -v wfile="$tmp/warn" '
{ n++; name[n] = $3; where[n] = $2 ":" $4; len[n] = $6; fl[n] = $7 }
$6 >= 100 { big++ } $6 >= 200 { huge++ }
END {
    while ((getline l < hfile) > 0) {
        split(l, r, "\t"); nh++
        if (nh == 1) { hname = r[3]; hwhere = r[2] ":" r[4]; hlen = r[6] }
        if (r[6] + 0 >= len[n < 10 ? n : 10] + 0 && n) { hn++; hl[hn] = "`" r[3] "` (src/" r[2] ":" r[4] ", " r[6] " lines)" }
    }
    print "## 3. Longest functions"
    print ""
    print "Definitions of the `.c` files: the return type and name from column 0, a `{` alone at column 0, the body closed by a `}` alone at column 0. **Lines are counted from the line holding the name to the closing `}`, both included** (a return type on a line of its own above the name and the comment above are not counted)."
    print ""
    print "| # | function | where | lines | |"
    print "|--:|---|---|--:|---|"
    for (i = 1; i <= n && i <= 10; i++) {
        f = fl[i]; sub(/,$/, "", f); gsub(/,/, ", ", f)
        printf "| %d | `%s` | src/%s | %d | %s |\n", i, name[i], where[i], len[i], f
    }
    print ""
    printf "%d definitions in the .c files (%d of them 100 lines or more, %d 200 or more); %d in headers", n, big, huge, nh
    if (nh) printf " (the longest: `%s`, src/%s, %d lines)", hname, hwhere, hlen
    print "."
    if (hn) {
        print ""
        print "Functions of headers that would make the top ten:"
        for (i = 1; i <= hn; i++) print "- " hl[i]
    } else if (nh) print "No function of a header would make the top ten."
    while ((getline l < wfile) > 0) {
        split(l, r, "\t")
        if (!w++) { print ""; print "Not measured (their `{` is not alone at column 0):" }
        print "- src/" r[2] ":" r[3] ": `" r[4] "`"
    }
    print ""
}' "$tmp/fc" >>"$tmp/out"

# ---- 4. struct sizes ---------------------------------------------------------------------------
(cd "$src" && awk "$awk_lib"'
FNR == 1 { in_c = 0; name = "" }
{
    code = strip($0)
    if (name == "") {
        if (code ~ /^(typedef[ \t]+)?struct[ \t]+tr_[A-Za-z0-9_]*[ \t]*\{/) {
            name = code; sub(/^(typedef[ \t]+)?struct[ \t]+/, "", name); sub(/[ \t]*\{.*$/, "", name)
            line = FNR; depth = 0; members = 0
            t = code; depth += gsub(/\{/, "{", t); depth -= gsub(/\}/, "}", t)
        }
        next
    }
    t = code; opens = gsub(/\{/, "{", t); closes = gsub(/\}/, "}", t)
    if (depth + opens - closes <= 0) {
        printf "%s\t%s:%d\t%d\n", name, FILENAME, line, members
        name = ""
        next
    }
    depth += opens - closes
    if (code ~ /;[ \t]*$/) members++
}' "${header_files[@]}" /dev/null) >"$tmp/structs"

lib=""
if [[ -z "${build_failed:-}" ]]; then
    for cand in "$build_dir/libtilerast.so" "$build_dir"/libtilerast.so.*; do
        [[ -e "$cand" ]] && { lib="$cand"; break; }
    done
fi
gdb_args=(-batch -nx -iex 'set debuginfod enabled off')
while IFS=$'\t' read -r name _ _; do
    gdb_args+=(-ex "printf \"@@$name %lu\\n\", sizeof(struct $name)")
done <"$tmp/structs"
: >"$tmp/sizes"
size_from=""
if [[ -n "$lib" ]]; then
    size_from="\`$lib\`"
    newer="$(find "$src" -type f -name '*.[ch]' -newer "$lib" | wc -l | tr -d ' ')"
    if [[ "$newer" != 0 ]]; then
        say "warning: $newer files of $src are newer than $lib: its sizes may be stale"
        size_from="$size_from (**stale: $newer source files are newer than it**)"
    fi
    gdb "${gdb_args[@]}" "$lib" 2>/dev/null | sed -n 's/^@@//p' >"$tmp/sizes" || true
elif [[ -z "${build_failed:-}" ]]; then
    # No shared library: the library's object files, the first that has the struct.
    mapfile -t objs < <(find "$build_dir" -path '*tilerast_objects.dir*' -name '*.o' 2>/dev/null | LC_ALL=C sort)
    if [[ ${#objs[@]} -gt 0 ]]; then
        size_from="the object files of \`$build_dir\`"
        for o in "${objs[@]}"; do
            gdb "${gdb_args[@]}" "$o" 2>/dev/null | sed -n 's/^@@//p' >>"$tmp/sizes" || true
        done
    fi
fi
awk -v sizes="$tmp/sizes" -v from="$size_from" -F'\t' '
BEGIN { while ((getline l < sizes) > 0) { split(l, r, " "); if (!(r[1] in sz)) { sz[r[1]] = r[2]; found++ } } }
{ n++; nm[n] = $1; wh[n] = $2; mem[n] = $3; s[n] = ($1 in sz) ? sz[$1] + 0 : -1 }
END {
    for (i = 2; i <= n; i++) {   # by size, largest first; then by name
        a = nm[i]; b = wh[i]; c = mem[i]; d = s[i]
        for (j = i - 1; j >= 1 && (s[j] < d || (s[j] == d && nm[j] > a)); j--) {
            nm[j + 1] = nm[j]; wh[j + 1] = wh[j]; mem[j + 1] = mem[j]; s[j + 1] = s[j]
        }
        nm[j + 1] = a; wh[j + 1] = b; mem[j + 1] = c; s[j + 1] = d
    }
    print "## 4. Struct sizes"
    print ""
    print "Every `struct tr__X {` / `typedef struct tr__X {` (and the opaque public types `struct tr_X {`) at column 0 of a header of src/; sizes are `sizeof(struct X)` from the DWARF of " (from == "" ? "(no build: none)" : from) " through gdb; \"-\": not in the debug info. Member lines: lines between its braces that end in `;`."
    print ""
    print "| struct | header | size (bytes) | member lines |"
    print "|---|---|--:|--:|"
    for (i = 1; i <= n; i++) {
        if (s[i] < 0) missing++
        printf "| `%s` | src/%s | %s | %d |\n", nm[i], wh[i], s[i] < 0 ? "-" : s[i], mem[i]
    }
    print ""
    printf "%d structs, %d of them without a size.\n\n", n, missing
}' "$tmp/structs" >>"$tmp/out"
if [[ ! -s "$tmp/sizes" ]]; then
    say "no struct sizes: no library with debug info in $build_dir"
fi

# ---- 5. simd parameters and the AVX2 kernels' #if lines ----------------------------------------
(
    cd "$src"
    grep -nE '^[[:space:]]*#[[:space:]]*(if|ifdef|ifndef|elif)([[:space:](!]|$).*TILERAST_AVX2_KERNELS' \
        "${code_files[@]}" /dev/null || true
) >"$tmp/avx2"
awk -F'\t' -v avx2="$tmp/avx2" '
$1 == "S" { n++; r[n] = "| `" $3 "` | src/" $2 ":" $4 " | " $5 " |"; kind[$5]++ }
END {
    print "## 5. `simd` parameters and `#if TILERAST_AVX2_KERNELS`"
    print ""
    printf "**%d signatures with a parameter named `simd`** (%d declarations, %d definitions):\n\n", n, kind["declaration"], kind["definition"]
    print "| function | where | |"
    print "|---|---|---|"
    for (i = 1; i <= n; i++) print r[i]
    print ""
    while ((getline l < avx2) > 0) {
        f = l; sub(/:.*$/, "", f)
        t = l; sub(/^[^:]*:[^:]*:/, "", t)
        if (f == "raster/raster_avx2.c") { if (t ~ /^[ \t]*#[ \t]*if[ \t]+TILERAST_AVX2_KERNELS[ \t]*$/) inavx++; continue }
        if (!(f in seen)) { seen[f] = 1; files[++nf] = f }
        if (t ~ /^[ \t]*#[ \t]*if[ \t]+TILERAST_AVX2_KERNELS[ \t]*$/) { exact[f]++; total++ } else other[f]++
    }
    printf "**%d `#if TILERAST_AVX2_KERNELS` lines outside src/raster/raster_avx2.c** (which has %d), per file:\n\n", total, inavx
    print "| file | `#if TILERAST_AVX2_KERNELS` | other `#if`/`#ifdef`/`#elif` naming it |"
    print "|---|--:|--:|"
    for (i = 1; i <= nf; i++) printf "| src/%s | %d | %d |\n", files[i], exact[files[i]], other[files[i]]
    print ""
}' "$tmp/scan" >>"$tmp/out"

cat "$tmp/out"
