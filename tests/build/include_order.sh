#!/usr/bin/env bash
# The include rules of src/ (src/README.md, "Layers" and "Exceptions").
#
#   bash tests/build/include_order.sh SRC_DIR
#
# Reads the layer table (the ```include-layers block) and the exceptions (the
# ```include-exceptions block) from SRC_DIR/README.md, which is their only
# home.  Then it reads every #include of every *.c and *.h file under
# SRC_DIR, resolves it as the compiler does with -Iinclude -Isrc (the
# including file's folder first, then include/, then src/), and prints one
# line per problem:
#   - an include of a higher layer (a smaller number) that is not an exception;
#   - an exception that no longer occurs, or that is not upward (the list may
#     only shrink);
#   - a file of SRC_DIR that no line of the table claims, or that two layers
#     claim.
# Exit status: 0 clean, 1 problems found, 2 the README or its blocks are
# missing or malformed.  Includes of public headers (tilerast/..., or any
# file under include/ beside SRC_DIR) and of files outside SRC_DIR (system
# and third-party headers) are not checked.  Only bash, find, sort and a
# POSIX awk (Debian's mawk will do) are needed.
set -euo pipefail

if [[ $# -ne 1 ]]; then
    echo "usage: $0 SRC_DIR" >&2
    exit 2
fi
src=${1%/}
readme=$src/README.md
if [[ ! -d $src ]]; then
    echo "$0: $src: not a directory" >&2
    exit 2
fi
if [[ ! -f $readme ]]; then
    echo "$0: $readme: not found (it holds the layer table and the exceptions)" >&2
    exit 2
fi
inc=$(dirname -- "$src")/include

# The files the compiler could find, one path per line: "S path" under src/,
# "I path" under include/.  The C and header files among the S lines are
# scanned.
manifest=$(mktemp)
trap 'rm -f -- "$manifest"' EXIT
(cd -- "$src" && find . -type f | sed 's|^\./|S |') >"$manifest"
if [[ -d $inc ]]; then
    (cd -- "$inc" && find . -type f | sed 's|^\./|I |') >>"$manifest"
fi
sources=()
while IFS= read -r f; do
    sources+=("$src/$f")
done < <(cd -- "$src" && find . -type f \( -name '*.c' -o -name '*.h' \) | sed 's|^\./||' | LC_ALL=C sort)

LC_ALL=C awk -v readme="$readme" -v manifest="$manifest" -v src="$src" '
function fail_readme(msg) {
    printf "%s: %s\n", readme, msg
    bad_readme = 1
}

# A glob of the table as an anchored regular expression: * and ? stay inside
# one path component; a pattern ending in / claims everything below it.
function glob_re(g,    re, i, c, n) {
    re = "^"
    n = length(g)
    for (i = 1; i <= n; i++) {
        c = substr(g, i, 1)
        if (c == "*")
            re = re "[^/]*"
        else if (c == "?")
            re = re "[^/]"
        else if (index(".+()|{}$[]", c))
            re = re "[" c "]"
        else if (c == "^" || c == "\\")
            re = re "\\" c
        else
            re = re c
    }
    return substr(g, n, 1) == "/" ? re : re "$"
}

# A path with "." and "x/.." removed; a result that starts with "../" lies
# outside the folder it is relative to.
function normalize(p,    parts, n, i, out, k, r) {
    n = split(p, parts, "/")
    k = 0
    for (i = 1; i <= n; i++) {
        if (parts[i] == "" || parts[i] == ".")
            continue
        if (parts[i] == ".." && k > 0 && out[k] != "..") {
            k--
            continue
        }
        out[++k] = parts[i]
    }
    r = ""
    for (i = 1; i <= k; i++)
        r = r (i > 1 ? "/" : "") out[i]
    return r
}

# The layer of a path under src/: 0 if no line claims it, -1 if lines of
# two layers do (claim_msg says which).
function layer_of(p,    i, l) {
    l = 0
    for (i = 1; i <= nglobs; i++) {
        if (p ~ glob_re_of[i]) {
            if (l && l != glob_layer[i]) {
                claim_msg = "claimed by layer " l " and by layer " glob_layer[i] " (" globs[i] ")"
                return -1
            }
            l = glob_layer[i]
        }
    }
    return l
}

function layer_name(l,    i) {
    return layer_names[l]
}

# ---- the README ----------------------------------------------------------
FILENAME == readme {
    if ($0 ~ /^```include-layers[ \t]*$/) { block = "layers"; seen_layers++; next }
    if ($0 ~ /^```include-exceptions[ \t]*$/) { block = "exceptions"; seen_exc++; next }
    if ($0 ~ /^```/) { block = ""; next }
    if (block == "")
        next
    line = $0
    if (block == "layers") {
        sub(/#.*/, "", line)
        if (line ~ /^[ \t]*$/)
            next
        n = split(line, f, " ")   # " ": runs of blanks, leading ones dropped
        if (n != 2 || f[1] !~ /^[1-9][0-9]*$/) {
            fail_readme("line " FNR ": a layer line is \"NUMBER PATH\": " $0)
            next
        }
        globs[++nglobs] = f[2]
        glob_layer[nglobs] = f[1] + 0
        glob_re_of[nglobs] = glob_re(f[2])
        layer_names[f[1] + 0] = layer_names[f[1] + 0] (layer_names[f[1] + 0] == "" ? "" : ", ") f[2]
        next
    }
    # exceptions: "src/FILE -> HEADER  # reason"
    if (line ~ /^[ \t]*$/)
        next
    reason = ""
    if (index(line, "#")) {
        reason = substr(line, index(line, "#") + 1)
        line = substr(line, 1, index(line, "#") - 1)
    }
    gsub(/^[ \t]+|[ \t]+$/, "", line)
    gsub(/^[ \t]+|[ \t]+$/, "", reason)
    if (line == "") {
        fail_readme("line " FNR ": a comment line in the exceptions; each line is \"src/FILE -> HEADER  # reason\"")
        next
    }
    if (line !~ /^src\/[^ \t]+[ \t]+->[ \t]+[^ \t]+$/) {
        fail_readme("line " FNR ": an exception is \"src/FILE -> HEADER  # reason\": " $0)
        next
    }
    if (reason == "") {
        fail_readme("line " FNR ": the exception gives no reason after #: " $0)
        next
    }
    split(line, f, /[ \t]+->[ \t]+/)
    key = substr(f[1], 5) " -> " f[2]
    if (key in exc_line) {
        fail_readme("line " FNR ": the exception is listed twice: " line)
        next
    }
    exc_line[key] = FNR
    exc_text[key] = line
    next_exc[++nexc] = key
    next
}

FILENAME == manifest {
    p = substr($0, 3)
    if (substr($0, 1, 2) == "S ")
        in_src[p] = 1
    else
        in_inc[p] = 1
    next
}

# ---- the sources -----------------------------------------------------------
FNR == 1 {
    if (!checked_readme) {
        checked_readme = 1
        if (seen_layers != 1)
            fail_readme("needs exactly one ```include-layers block (found " seen_layers + 0 ")")
        if (seen_exc != 1)
            fail_readme("needs exactly one ```include-exceptions block (found " seen_exc + 0 ")")
        if (bad_readme)
            exit 2
    }
    file = substr(FILENAME, length(src) + 2)
    dir = file
    if (!sub(/\/[^\/]*$/, "", dir))
        dir = ""
    fl = layer_of(file)
    if (fl == 0)
        printf "%s: no layer claims this file: give its folder a line in the layer table of %s\n", FILENAME, readme
    else if (fl < 0)
        printf "%s: %s; give it one layer in %s\n", FILENAME, claim_msg, readme
    if (fl <= 0) {
        problems++
        unplaced[file] = 1  # its includes are not read: its exceptions are not stale
    }
}

/^[ \t]*#[ \t]*include[ \t]*["<]/ {
    s = $0
    sub(/^[ \t]*#[ \t]*include[ \t]*/, "", s)
    quoted = substr(s, 1, 1) == "\""
    s = substr(s, 2)
    end = index(s, quoted ? "\"" : ">")
    if (!end)
        next
    name = substr(s, 1, end - 1)

    # Where the compiler finds it: the folder of the including file (quoted only),
    # then include/, then src/.
    target = ""
    if (quoted) {
        cand = normalize(dir == "" ? name : dir "/" name)
        if (cand in in_src)
            target = cand
    }
    if (target == "") {
        if (name ~ /^tilerast\// || (normalize(name) in in_inc))
            next            # a public header: anyone may include it
        cand = normalize(name)
        if (cand in in_src)
            target = cand
        else
            next            # outside src/: a system or third-party header
    }
    if (fl <= 0)
        next                # reported above
    tl = layer_of(target)
    if (tl <= 0) {
        printf "%s:%d: includes %s, which %s\n", FILENAME, FNR, target,
               tl == 0 ? "no layer claims" : claim_msg
        problems++
        next
    }
    key = file " -> " target
    if (tl >= fl) {
        if (key in exc_line)
            exc_downward[key] = 1
        next
    }
    if (key in exc_line) {
        exc_used[key] = 1
        next
    }
    written = name == target ? "" : " (written \"" name "\")"
    printf "%s:%d: includes %s%s (layer %d: %s) from layer %d (%s)\n", FILENAME, FNR, target, written,
           tl, layer_name(tl), fl, layer_name(fl)
    problems++
}

END {
    if (!checked_readme) {
        if (seen_layers != 1 || seen_exc != 1)
            fail_readme("needs one ```include-layers and one ```include-exceptions block")
    }
    if (bad_readme)
        exit 2
    for (i = 1; i <= nexc; i++) {
        key = next_exc[i]
        split(key, f, " -> ")
        if ((key in exc_used) || (f[1] in unplaced))
            continue
        if (key in exc_downward)
            printf "%s:%d: exception \"%s\" is not an upward include: remove the line\n", readme, exc_line[key], exc_text[key]
        else
            printf "%s:%d: exception \"%s\" no longer occurs: remove the line\n", readme, exc_line[key], exc_text[key]
        problems++
    }
    if (problems) {
        printf "%d include-order problem(s); the rules are in %s\n", problems, readme
        exit 1
    }
}
' "$readme" "$manifest" "${sources[@]}"
