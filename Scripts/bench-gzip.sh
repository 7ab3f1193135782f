#!/usr/bin/env bash
# Gzip decoding speed: how fast `index` gets the bytes of a .gz catalog through the system's zlib, against
# `gzip -dc` on the same file for reference. Figures are printed, never asserted.
#
#   Scripts/bench-gzip.sh [file.gz] [runs]
#
# A file that is not gzip (a JSON or TSV catalog) is gzipped (gzip -6) into a temporary file first.
# Compiles Scripts/bench-gzip.swift with Sources/MovieSearch into one module (swiftc -O, a few minutes the first
# time; kept in $TMPDIR until a source changes).
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ $# -lt 1 ]]; then
    echo "usage: Scripts/bench-gzip.sh <file.gz> [runs]" >&2
    exit 2
fi
file="$1"
runs="${2:-5}"
work="${TMPDIR:-/tmp}/moviesearch-bench-gzip"
mkdir -p "$work"
if [[ "$(head -c 2 "$file" | od -An -tx1 | tr -d ' \n')" != "1f8b" ]]; then
    echo "== gzipping $file into $work/input.gz" >&2
    gzip -c "$file" > "$work/input.gz"
    file="$work/input.gz"
fi

timer="$work/bench-gzip"
sources=()
while IFS= read -r -d '' source; do sources+=("$source"); done < <(find Sources/MovieSearch -name '*.swift' -print0 | sort -z)
sources+=(Scripts/bench-gzip.swift)
if [[ ! -x "$timer" || -n "$(find "${sources[@]}" Sources/CZlib -newer "$timer" -print -quit)" ]]; then
    echo "== compiling the gzip timer (swiftc -O, one module with the library)" >&2
    swiftc -O -wmo -parse-as-library -swift-version 6 -module-name MovieSearch -package-name moviesearch \
        -I Sources/CZlib "${sources[@]}" -o "$timer.tmp"
    mv "$timer.tmp" "$timer"
fi

echo "== CatalogInput, 256 KiB reads (as readAll), $runs runs"
"$timer" "$file" "$runs" 262144
echo "== CatalogInput, 64 KiB reads (as the JSON stream reader), $runs runs"
"$timer" "$file" "$runs" 65536
echo "== gzip -dc > /dev/null, for reference"
for _ in 1 2 3; do
    start=$(date +%s.%N)
    gzip -dc "$file" > /dev/null
    end=$(date +%s.%N)
    python3 -c "import os,sys; s=float(sys.argv[2])-float(sys.argv[1]); print(f'{s:.3f} s')" "$start" "$end"
done
