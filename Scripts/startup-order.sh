#!/usr/bin/env bash
# Regenerates Scripts/startup-order.txt: the functions a `moviesearch query` process runs, in the order it first
# runs them, then the variables it reads or writes, which Scripts/install.sh hands to the linker (lld's
# --symbol-ordering-file) so that they lie side by side in the binary. A one-query process then faults in a few
# dozen pages instead of one page here and there over 7 MB of code and 2 MB of data (a fault maps at most 64 KB
# of code around it, a write to data copies one page, and each costs about a microsecond).
#
#     Scripts/startup-order.sh [BINARY]     # BINARY: default, the one Scripts/install.sh builds
#
# Run it after changes to the query path (code moved to another target too: its symbols carry the target's name)
# or a new Swift toolchain, and commit the file. A stale list costs only
# page faults: names it holds that the binary no longer has are ignored, functions it lacks go after the listed
# ones. Needs valgrind (its `lackey` tool traces every block of code run and every memory access), nm, readelf
# and python3.
#
# The functions of the standard library that are not in sections of their own (most of `Swift.o` in
# libswiftCore.a is one 1.6 MB section, which the linker can only move whole) are listed last, so that the
# section goes after everything else the query runs. glibc's string functions are chosen at start-up for the
# processor (ifuncs), and valgrind's processor is not this one: every variant of each string function the query
# calls is listed.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
for tool in valgrind nm readelf python3; do
    command -v "$tool" >/dev/null || { echo "startup-order.sh: needs $tool" >&2; exit 1; }
done
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
# The query traced is that of someone without favorites, whatever this machine's account holds: the favorites
# file it looks for (and does not find) is in an empty folder of the scratch space.
export XDG_DATA_HOME="$scratch/data"
binary="${1:-}"
catalog="$root/../shared/data/movies.json"
if [[ -z "$binary" ]]; then
    "$root/Scripts/install.sh" "$scratch/prefix" >/dev/null
    binary="$scratch/prefix/bin/moviesearch"
fi
core="$(dirname "$(readlink -f "$(command -v swift)")")/../lib/swift_static/linux/libswiftCore.a"
[[ -f "$core" ]] || { echo "startup-order.sh: no static Swift runtime at $core" >&2; exit 1; }

# The query Scripts/bench-startup times (on the decade catalog in ../shared, when it is there), then the same on
# the package's sample, which takes the paths of a small cache.
caches=()
if [[ -f "$catalog" ]]; then
    "$binary" index "$catalog" -o "$scratch/catalog.mscache" > /dev/null
    caches+=("$scratch/catalog.mscache")
fi
caches+=("$root/Data/sample-movies.mscache")
traces=()
# Without chasing, every function entered starts a block of its own in the trace (valgrind otherwise follows a
# call into its callee within one block, and the callee would be missing from the list).
for cache in "${caches[@]}"; do
    trace="$scratch/trace${#traces[@]}"
    valgrind --tool=lackey --vex-guest-chase=no --trace-superblocks=yes --trace-mem=yes --log-file="$trace" \
        "$binary" query --cache "$cache" dark > /dev/null
    traces+=("$trace")
done
nm -n -S "$binary" > "$scratch/symbols"
# The functions of the member Swift.o that are in its plain `.text` (section 2), not in a `.text.<name>` of
# their own.
readelf -sW "$core" | awk '/^File: .*\(Swift\.o\)$/ { inside = 1; next } /^File: / { inside = 0 }
    inside && $4 == "FUNC" && $7 == 2 { print $8 }' > "$scratch/unsectioned"

# Written beside the list and renamed onto it, so that a failed run leaves the previous list whole.
python3 - "$scratch/symbols" "$scratch/unsectioned" "${traces[@]}" > "$scratch/order" <<'PY'
import bisect, re, sys
symbols, unsectioned, traces = sys.argv[1], sys.argv[2], sys.argv[3:]
functions, variables = [], []
for line in open(symbols):
    parts = line.split()
    if len(parts) == 4 and parts[2] in "tTwW":
        functions.append((int(parts[0], 16), parts[3]))
    elif len(parts) == 4 and parts[2] in "dDbB":
        variables.append((int(parts[0], 16), int(parts[1], 16), parts[3]))
functions.sort()
variables.sort()
function_starts = [start for start, _ in functions]
variable_starts = [start for start, _, _ in variables]
order, seen, data, data_seen = [], set(), [], set()
for trace in traces:
    for line in open(trace):
        kind, _, rest = line.strip().partition(" ")
        if kind == "SB":
            index = bisect.bisect_right(function_starts, int(rest, 16)) - 1
            if index >= 0 and functions[index][1] not in seen:
                seen.add(functions[index][1])
                order.append(functions[index][1])
        elif kind in ("L", "S", "M"):
            address = int(rest.split(",")[0], 16)
            index = bisect.bisect_right(variable_starts, address) - 1
            if index >= 0:
                start, size, name = variables[index]
                if address < start + max(size, 1) and name not in data_seen:
                    data_seen.add(name)
                    data.append(name)
# Every processor-specific variant of the string functions run (`__memmove_avx_unaligned_erms` → `__memmove_*`).
variant = re.compile(r"^__([a-z0-9]+?)_(sse2|ssse3|sse4_1|sse4_2|avx|avx2|avx512|evex|erms)")
families = {match.group(1) for match in map(variant.match, order) if match}
for _, name in functions:
    match = variant.match(name)
    if match and match.group(1) in families and name not in seen:
        seen.add(name)
        order.append(name)
last = set(open(unsectioned).read().split())
print("\n".join([name for name in order if name not in last] + [name for name in order if name in last] + data))
PY
mv -f "$scratch/order" "$root/Scripts/startup-order.txt"
echo "wrote $root/Scripts/startup-order.txt ($(wc -l < "$root/Scripts/startup-order.txt") symbols)"
