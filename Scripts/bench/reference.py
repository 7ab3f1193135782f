#!/usr/bin/env python3
"""SEARCH-SPEC in plain Python: the tokenizer and a straightforward search, as an independent reference.

`compare` checks the anchors against moviesearch; when moviesearch cannot answer (not built yet, say) it checks
them against this instead and says so. It is also a second opinion on moviesearch itself.

    Scripts/bench/reference.py --catalog movies.json --queries queries.txt --answers answers.jsonl [--per-year K]

Python's `unicodedata` carries its own Unicode version (14.0 in Python 3.11); characters added later are
unassigned here (category Cn: separators).
"""

import argparse
import bisect
import collections
import json
import os
import re
import sys
import unicodedata

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

APOSTROPHES = dict.fromkeys(map(ord, "'\u2018\u2019\u02bc"))
TOKEN_CATEGORIES = {"Lu", "Ll", "Lt", "Lm", "Lo", "Nd", "Nl", "No", "Mc", "Me"}


def _decompose(text):
    return "".join(ch for ch in unicodedata.normalize("NFKD", text) if unicodedata.category(ch) != "Mn")


ASCII_TOKEN = re.compile(r"[a-z0-9]+")


def tokens(text):
    """SEARCH-SPEC "Tokens": NFKD without Mn, full case folding, again NFKD without Mn, no apostrophes, then runs
    of L, N, Mc and Me. (ASCII text: lower case without apostrophes, then runs of letters and digits, the same.)"""
    if text.isascii():
        return ASCII_TOKEN.findall(text.lower().replace("'", ""))
    folded = _decompose(_decompose(text).casefold()).translate(APOSTROPHES)
    result = []
    start = None
    for i, ch in enumerate(folded):
        if unicodedata.category(ch) in TOKEN_CATEGORIES:
            if start is None:
                start = i
        elif start is not None:
            result.append(folded[start:i])
            start = None
    if start is not None:
        result.append(folded[start:])
    return result


class SpecIndex:
    """Token -> ids, the sorted vocabulary for prefix ranges, and every movie's place in the answer order."""

    def __init__(self, movies):
        self.movies = movies
        postings = {}
        for id, (title, _, _) in enumerate(movies):
            for token in set(tokens(title)):
                postings.setdefault(token, []).append(id)
        self.vocabulary = sorted(postings, key=lambda token: token.encode("utf-8"))
        self.keys = [token.encode("utf-8") for token in self.vocabulary]
        self.postings = postings
        self.prefix_cache = {}
        # Every movie's place in the answer order (year descending, rating descending, unrated last, id).
        ordered = sorted(range(len(movies)), key=lambda id: common.order_key(movies[id][1], movies[id][2], id))
        self.place = [0] * len(movies)
        for place, id in enumerate(ordered):
            self.place[id] = place
        self.ordered = ordered
        self.year_of = [year for _, year, _ in movies]

    def ids_with_prefix(self, prefix):
        cached = self.prefix_cache.get(prefix)
        if cached is None:
            key = prefix.encode("utf-8")
            start = bisect.bisect_left(self.keys, key)
            cached = set()
            for i in range(start, len(self.keys)):
                if not self.keys[i].startswith(key):
                    break
                cached.update(self.postings[self.vocabulary[i]])
            if len(self.prefix_cache) > 256:  # Keystroke sessions reuse prefixes; short ones hold big sets.
                self.prefix_cache.clear()
            self.prefix_cache[prefix] = cached
        return cached

    def search(self, query, per_year=5):
        query_tokens = tokens(query)
        if not query_tokens:
            matches = range(len(self.movies))
        else:
            sets = sorted((self.ids_with_prefix(token) for token in set(query_tokens)), key=len)
            matches = set(sets[0]).intersection(*sets[1:])
        ordered = self.ordered if not query_tokens else sorted(matches, key=self.place.__getitem__)
        # Years are contiguous in `ordered`, newest first: count them, then slice each year's first K.
        counts = collections.Counter(map(self.year_of.__getitem__, ordered))
        groups = []
        start = 0
        for year in sorted(counts, reverse=True):
            groups.append((year, counts[year], ordered[start:start + min(per_year, counts[year])]))
            start += counts[year]
        return common.answer(query, groups, len(ordered))

def main():
    parser = argparse.ArgumentParser(description="SEARCH-SPEC answers computed in plain Python.")
    parser.add_argument("--catalog", required=True)
    parser.add_argument("--queries", required=True)
    parser.add_argument("--answers", required=True, help="JSON lines to write")
    parser.add_argument("--per-year", type=int, default=5)
    args = parser.parse_args()
    index = SpecIndex(common.load_catalog(args.catalog))
    with open(args.answers, "w", encoding="utf-8") as out:
        for query in common.read_queries(args.queries):
            out.write(json.dumps(index.search(query, args.per_year), ensure_ascii=False, separators=(",", ":")))
            out.write("\n")


if __name__ == "__main__":
    main()
