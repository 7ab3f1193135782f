#!/usr/bin/env bash
# Builds and runs one libFuzzer target for a while, then prints what it ran and what it found.
#
#   Scripts/fuzz.sh <catalog|cache|query|http> <seconds> [libFuzzer flags...]
#   FUZZ_SKIP_CHECKSUMS=1 Scripts/fuzz.sh cache <seconds>     # the cache reader with every checksum taken as good
#   Scripts/fuzz.sh <target> repro <input>...                  # runs inputs once (a crash to look at), no fuzzing
#
# Targets (Scripts/fuzz/<target>.swift, compiled with Scripts/fuzz/FuzzSupport.swift and the engine's targets into
# one module, `swiftc -sanitize=fuzzer,address -O`; not part of `swift build`):
#   catalog  arbitrary bytes into JSONParser, CatalogDecoder (with and without skipInvalid) and the Flickr response
#            reader; catalogs that decode are written as caches and read back
#   cache    arbitrary bytes opened as a cache file: searches, every movie, topRated, verify
#   query    arbitrary (and invalid) UTF-8 into the tokenizer, and as a query on the decade and sample caches,
#            checked against a brute-force search
#   http     arbitrary bytes as a request stream into HTTPRequestParser, whole and in pieces (1, 7, 4099 bytes, a
#            cycle from the first byte), with default or small limits (the second byte): the same requests and error
#            whatever the pieces, every request well-formed, every error a documented status, and
#            HTTPPercentDecoding on each target; compiled with Sources/MovieSearchHTTP only (not FuzzSupport.swift),
#            its seeds written by this script, no ../shared or release build needed
#
# Everything it makes lives in .build-fuzz/ (gitignored): bin/, seeds/<target>/ (with its caches),
# corpus/<target>/ (kept between runs, so each run starts where the last stopped), artifacts/<target>/ (crashing
# inputs), logs/. It reads ../shared (the decade and century catalogs, the query sets) and builds the release binary
# to index the cache seeds. It runs under `nice`: the machine is shared.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"

usage() {
    echo "usage: Scripts/fuzz.sh <catalog|cache|query|http> <seconds> [libFuzzer flags...]" >&2
    echo "       Scripts/fuzz.sh <catalog|cache|query|http> repro <input>..." >&2
    exit 2
}
[[ $# -ge 2 ]] || usage
target="$1" seconds="$2"
shift 2
case "$target" in catalog|cache|query|http) ;; *) usage ;; esac
[[ "$seconds" == repro || "$seconds" =~ ^[0-9]+$ ]] || usage

shared="$root/../shared"
if [[ "$target" != http && ! -f "$shared/data/movies.json" ]]; then
    echo "fuzz.sh: $shared/data/movies.json not found: the seeds come from ../shared beside the package" >&2
    exit 1
fi

variant="$target"
defines=()
if [[ "${FUZZ_SKIP_CHECKSUMS:-}" == 1 ]]; then
    [[ "$target" == cache ]] || { echo "fuzz.sh: FUZZ_SKIP_CHECKSUMS applies to the cache target only" >&2; exit 2; }
    variant=cache-nochecksums
    defines=(-D FUZZING_SKIP_CHECKSUMS)
fi

work="$root/.build-fuzz"
bin="$work/bin/$variant"
mkdir -p "$work/bin" "$work/logs" "$work/corpus/$variant" "$work/artifacts/$variant"

# Build the target when it is missing or older than any source it is made of: the engine's targets (every
# Sources/MovieSearch<Layer> but the umbrella, the output layer, the command line and the CLI, the server and the
# executables), compiled as one module from copies whose imports of each other are dropped (the fuzzer's sanitizers
# need one build).
# The http target is Sources/MovieSearchHTTP alone (it imports nothing), without FuzzSupport.swift (which needs the
# engine).
sources=()
module=MovieSearch
if [[ "$target" == http ]]; then
    module=MovieSearchHTTP
    while IFS= read -r -d '' file; do sources+=("$file"); done < <(
        find Sources/MovieSearchHTTP -name '*.swift' -print0 | sort -z)
    sources+=("Scripts/fuzz/$target.swift")
else
    while IFS= read -r -d '' file; do sources+=("$file"); done < <(
        find Sources -path 'Sources/MovieSearch?*/*.swift' \
            -not -path 'Sources/MovieSearchCLI/*' -not -path 'Sources/MovieSearchOutput/*' \
            -not -path 'Sources/MovieSearchServer/*' -not -path 'Sources/MovieSearchHTTP/*' \
            -not -path 'Sources/MovieSearchTool/*' -not -path 'Sources/MovieSearchFetchTool/*' \
            -not -path 'Sources/MovieSearchCommandLine/*' -print0 | sort -z)
    # The exact reference search is the tests' own (TestSupport's ReferenceSearch, `bruteForce`), not a copy.
    sources+=(Tests/TestSupport/ReferenceSearch.swift Scripts/fuzz/FuzzSupport.swift "Scripts/fuzz/$target.swift")
fi
if [[ ! -x "$bin" || -n "$(find "${sources[@]}" -newer "$bin" -print -quit)" ]]; then
    echo "== building $variant"
    copies="$work/sources/$variant"
    rm -rf "$copies"
    compiled=()
    for file in "${sources[@]}"; do
        mkdir -p "$copies/$(dirname "$file")"
        sed -E '/^(@_spi\(Engine\) )?import MovieSearch[A-Za-z]*$/d' "$file" > "$copies/$file"
        compiled+=("$copies/$file")
    done
    # The engine's C parts: the system modules by their module maps, the SIGBUS guard (a C target, whose module
    # map SwiftPM would write) compiled here and linked in.
    cModules=(-I Sources/CZlib)
    if [[ "$target" != http ]]; then
        mkdir -p "$copies/CMappingGuard"
        printf 'module CMappingGuard {\n    header "%s"\n    export *\n}\n' \
            "$root/Sources/CMappingGuard/include/MappingGuard.h" > "$copies/CMappingGuard/module.modulemap"
        nice -n 10 clang -O2 -g -fsanitize=fuzzer-no-link,address -I Sources/CMappingGuard/include \
            -c Sources/CMappingGuard/MappingGuard.c -o "$copies/CMappingGuard/MappingGuard.o"
        cModules+=(-I Sources/CEventPoll -I "$copies/CMappingGuard" "$copies/CMappingGuard/MappingGuard.o")
    fi
    nice -n 10 swiftc -sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6 -use-ld=lld \
        -module-name "$module" -package-name moviesearch "${cModules[@]}" "${defines[@]}" "${compiled[@]}" \
        -o "$bin.tmp"
    mv "$bin.tmp" "$bin"
fi

# Seeds, made afresh for each fuzzing run (a few seconds): catalogs and queries from ../shared, caches by the
# release binary. A repro run makes them only if they are missing (the query target opens the caches).
# Each target has its own seeds and caches, so that two targets can run at once.
seeds="$work/seeds/$variant"
caches="$seeds/caches"

# The http target's seeds: valid and invalid request streams, written here (they need nothing from ../shared). Each
# starts with the two bytes the target reads as its plan (0: whole, then pieces of 1, 7, 4099 and a cycle) and limits
# (0: the defaults; an odd byte: small ones).
write_http_seeds() {
    local dir="$seeds/http" long fields
    rm -rf "$seeds"
    mkdir -p "$dir"
    long="$(head -c 9000 /dev/zero | tr '\0' a)"
    seed() { local name="$1"; shift; printf '\x00\x00'"$@" > "$dir/$name"; }
    seed get-query 'GET /api/search?q=dark%%20knight&limit=5&x= HTTP/1.1\r\nHost: localhost:8080\r\n\r\n'
    seed get-http10 'GET /?q=%%C3%%A9t%%C3%%A9+x HTTP/1.0\r\nConnection: keep-alive\r\n\r\n'
    seed pipelined 'GET /a HTTP/1.1\r\nHost: a\r\n\r\nPOST /b HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabc'\
'\nGET /c HTTP/1.1\nHost: a\nConnection: close\n\n'
    seed put-body 'PUT /movies/1 HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n'\
'Content-Length: 16\r\nContent-Length: 016\r\n\r\n{"title":"Heat"}'
    seed chunked 'POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n'
    seed chunked-length 'POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\nhello'
    seed obs-fold 'GET / HTTP/1.1\r\nHost: a\r\nX-Long: one\r\n two\r\n\r\n'
    seed bad-fields 'GET / HTTP/1.1\r\nHost : a\r\nNo colon\r\nX: \x01\r\n\r\n'
    seed bare-cr 'GET / HTTP/1.1\rHost: a\r\n\r\n'
    seed versions 'GET / HTTP/2.0\r\n\r\nGET / HTTP/1.1\r\n\r\nGET http://a/ HTTP/1.1\r\n\r\n'
    seed lengths 'POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab'
    seed huge-length 'POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999999999999999\r\n\r\n'
    seed oversized-line "GET /$long HTTP/1.1\r\nHost: a\r\n\r\n"
    seed oversized-header "GET / HTTP/1.1\r\nHost: a\r\nX: $long$long$long$long\r\n\r\n"
    fields="$(for i in $(seq 101); do printf 'X-%d: %d\\r\\n' "$i" "$i"; done)"
    seed many-fields "GET / HTTP/1.1\r\nHost: a\r\n$fields\r\n"
    printf '\x35\x0b' > "$dir/small-limits"
    cat "$dir/pipelined" | tail -c +3 >> "$dir/small-limits"
    printf '\xa7\x3f' > "$dir/small-limits-2"
    cat "$dir/put-body" | tail -c +3 >> "$dir/small-limits-2"
}

if [[ "$target" == http ]]; then
    [[ "$seconds" == repro && -d "$seeds/http" ]] || { echo "== seeds"; write_http_seeds; }
elif [[ "$seconds" != repro || ! -f "$caches/sample.mscache" ]]; then
    echo "== seeds"
    rm -rf "$seeds"
    python3 Scripts/fuzz/make-seeds.py "$shared" Data/sample-movies.json "$seeds"
    nice -n 10 swift build -c release --product moviesearch >/dev/null
    release="$(swift build -c release --show-bin-path)/moviesearch"
    mkdir -p "$seeds/cache" "$caches"
    "$release" index "$shared/data/movies.json" -o "$caches/decade.mscache" >/dev/null
    "$release" index Data/sample-movies.json -o "$caches/sample.mscache" >/dev/null
    cp "$caches/decade.mscache" "$caches/sample.mscache" "$seeds/cache/"
    for catalog in "$seeds"/cache-catalogs/*.json "$seeds"/cache-catalogs/*.csv; do
        # A catalog with no valid movie makes no cache (index refuses it): it is simply no seed.
        "$release" index "$catalog" -o "$seeds/cache/$(basename "${catalog%.*}").mscache" --skip-invalid \
            >/dev/null 2>&1 || true
    done
fi

# The scratch file of the cache and catalog targets lives in memory when it can.
scratch="$(mktemp -d /dev/shm/moviesearch-fuzz.XXXXXX 2>/dev/null || mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
export FUZZ_SCRATCH="$scratch"
# The Swift runtime's own backtracer reads memory in ways ASan reports as errors: let libFuzzer and ASan report.
export SWIFT_BACKTRACE=enable=no
export ASAN_SYMBOLIZER_PATH="${ASAN_SYMBOLIZER_PATH:-$(dirname "$(command -v swiftc)")/llvm-symbolizer}"
export MOVIESEARCH_FUZZ_CACHE="$caches/decade.mscache" MOVIESEARCH_FUZZ_CATALOG="$shared/data/movies.json"
export MOVIESEARCH_FUZZ_SAMPLE_CACHE="$caches/sample.mscache" MOVIESEARCH_FUZZ_SAMPLE_CATALOG="$root/Data/sample-movies.json"

# Mutations stay small (fast); the largest seeds (the decade catalog and cache) still run whole once, below.
case "$target" in
    catalog) seedDirs=("$seeds/catalog"); dict=json.dict; maxLength=65536 ;;
    cache) seedDirs=("$seeds/cache"); dict=cache.dict; maxLength=65536 ;;
    query) seedDirs=("$seeds/query"); dict=query.dict; maxLength=4096 ;;
    http) seedDirs=("$seeds/http"); dict=http.dict; maxLength=16384 ;;
esac

if [[ "$seconds" == repro ]]; then
    [[ $# -ge 1 ]] || usage
    nice -n 10 "$bin" -runs=1 "$@"
    exit
fi

log="$work/logs/$variant-$(date +%Y%m%d-%H%M%S).log"
touch "$scratch/started"
echo "== fuzzing $variant for $seconds s (log: ${log#"$root/"})"
status=0
large=()
while IFS= read -r -d '' file; do large+=("$file"); done < <(find "${seedDirs[@]}" -type f -size +"$maxLength"c -print0)
if [[ ${#large[@]} -gt 0 ]]; then
    echo "== running the ${#large[@]} seeds larger than $maxLength bytes whole"
    nice -n 10 "$bin" -timeout=60 -rss_limit_mb=2048 -artifact_prefix="$work/artifacts/$variant/" "${large[@]}" \
        >"$log.large" 2>&1 || status=$?
fi
# -timeout: an input that takes 10 s is a hang; -rss_limit_mb: one that needs 2 GB is a memory blow-up.
[[ $status -ne 0 ]] || nice -n 10 "$bin" -max_total_time="$seconds" -max_len="$maxLength" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -dict="Scripts/fuzz/$dict" -artifact_prefix="$work/artifacts/$variant/" "$@" \
    "$work/corpus/$variant" "${seedDirs[@]}" >"$log" 2>&1 || status=$?

runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" 2>/dev/null | tail -n 1 || true)"
echo "== $variant: ${runs:-?} executions in $seconds s, corpus $(find "$work/corpus/$variant" -type f | wc -l) inputs, libFuzzer exit status $status"
artifacts="$(find "$work/artifacts/$variant" -type f -newer "$scratch/started")"
if [[ "$status" -ne 0 || -n "$artifacts" ]]; then
    echo "== findings (reproduce with: Scripts/fuzz.sh $target repro <input>):"
    [[ -z "$artifacts" ]] || echo "$artifacts"
    cat "$log.large" "$log" 2>/dev/null | grep -m 1 -E 'ERROR: (AddressSanitizer|libFuzzer)|Fatal error|fuzz check failed' || true
    cat "$log.large" "$log" 2>/dev/null | grep -m 12 -E '^ +#[0-9]+ .* in ' || true
    exit 1
fi
echo "== no findings"
