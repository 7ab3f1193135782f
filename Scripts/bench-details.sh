#!/usr/bin/env bash
# Times browse's details page of a movie whose overview is one unbroken run of CJK text (no space to wrap at),
# and whose title and cast are long too: opening the page and each ↓ through it, in-process (`bench --details`).
#
#     Scripts/bench-details.sh [--binary PATH] [--characters N] [--passes N]
#
# The catalog (TMDb JSON, one movie) is generated here: an overview of N characters (default 80,000) drawn from a
# fixed list of kanji and kana, so the same N gives the same text. Without --binary, the release binary is built.
# Figures are printed, never asserted: shared machines are noisy.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
binary=""
characters=80000
passes=5
while (( $# )); do
    case "$1" in
        --binary) binary="$2"; shift 2 ;;
        --characters) characters="$2"; shift 2 ;;
        --passes) passes="$2"; shift 2 ;;
        -h|--help) sed -n '2,9s/^# \{0,1\}//p' "$0"; exit 0 ;;
        *) echo "bench-details: unknown argument '$1'" >&2; exit 2 ;;
    esac
done
if [[ -z "$binary" ]]; then
    (cd "$root" && swift build -c release --product moviesearch >/dev/null)
    binary="$root/.build/release/moviesearch"
fi
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
python3 - "$characters" > "$scratch/tmdb.json" <<'PY'
import json, sys
count = int(sys.argv[1])
letters = "老夫婦が東京に住む子供たちを訪ねるが忙しい日々の中で居場所を見つけられず尾道へ帰る"
overview = "".join(letters[i % len(letters)] for i in range(count))
title = "東京物語" * 40
print(json.dumps({"page": 1, "results": [{"id": 18148, "title": title, "release_date": "1953-11-03",
                                           "vote_average": 8.2, "vote_count": 900, "overview": overview}]},
                 ensure_ascii=False))
PY
"$binary" index "$scratch/tmdb.json" -o "$scratch/details.mscache" --quiet
"$binary" bench --details 0 --cache "$scratch/details.mscache" --passes "$passes"
