#!/usr/bin/env bash
# Rebuilds Data/sample-movies.mscache from Data/sample-movies.json with our own `index` command. Run it after
# changing the sample catalog or the cache format, and commit both files (SampleCacheTests checks they agree).
set -euo pipefail
cd "$(dirname "$0")/.."
swift run moviesearch index Data/sample-movies.json -o Data/sample-movies.mscache
