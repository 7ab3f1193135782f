#!/usr/bin/env python3
"""SEARCH-SPEC in plain Python: the tokenizer, joined words, a straightforward search, typo tolerance and match
spans, as an independent reference.

`compare` checks the anchors against moviesearch; when moviesearch cannot answer (not built yet, say) it checks
them against this instead and says so. It is also a second opinion on moviesearch itself: its answers carry what
`moviesearch query --stdin` prints for the agreement check, `mode` and, per listed movie, `typos` and `match`.

    Scripts/bench/reference.py --catalog movies.json --queries queries.txt --answers answers.jsonl
                               [--per-year K] [--typos auto|off] [--ids-only]
    Scripts/bench/reference.py --self-check          # the typo walk against brute force, on made-up words

Python's `unicodedata` carries its own Unicode version (14.0 in Python 3.11); characters added later are
unassigned here (category Cn: separators).

How the typo pass stays fast enough (1,000 typo queries on the century catalog in seconds) without leaving the
spec's words: the vocabulary is kept sorted per first scalar (a typo match needs the first scalars equal), and the
optimal-string-alignment rows of a title token's prefixes are shared with the next token of the same prefix; a
prefix whose row minimum exceeds the budget ends every token that starts with it (the row minimum never
decreases as the prefix grows), so the walk skips them. `prefix_distance` is the plain definition (one DP table,
the minimum of its last row over every prefix); `--self-check` compares the two.
"""

import argparse
import bisect
import collections
import json
import os
import random
import re
import sys
import unicodedata

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

APOSTROPHES = dict.fromkeys(map(ord, "'\u2018\u2019\u02bc"))
TOKEN_CATEGORIES = {"Lu", "Ll", "Lt", "Lm", "Lo", "Nd", "Nl", "No", "Mc", "Me"}
# Above every scalar a token can hold (U+10FFFF is a noncharacter, category Cn: a separator): `p + LAST` sorts
# after every token that starts with `p`.
LAST = "\U0010ffff"


def _decompose(text):
    return "".join(ch for ch in unicodedata.normalize("NFKD", text) if unicodedata.category(ch) != "Mn")


def fold(text):
    """SEARCH-SPEC "Tokens" steps 1-4: NFKD without Mn, full case folding, again NFKD without Mn, no apostrophes."""
    if text.isascii():
        return text.lower().replace("'", "")
    return _decompose(_decompose(text).casefold()).translate(APOSTROPHES)


def _is_token_character(ch):
    return ch.isascii() and ch.isalnum() or not ch.isascii() and unicodedata.category(ch) in TOKEN_CATEGORIES


def _joins(ch):
    """Step 6: a separator that joins is punctuation or a symbol (general category P or S)."""
    return unicodedata.category(ch)[0] in "PS"


def token_positions(folded, joining=False):
    """The tokens of a folded text (step 5) as lists of their scalars' indices in `folded`; with `joining`, step 6
    too: after the tokens, the concatenation of every maximal run of two or more tokens that exactly one P or S
    character separates pairwise (its indices skip the separators)."""
    runs = []
    start = None
    for i, ch in enumerate(folded):
        if _is_token_character(ch):
            if start is None:
                start = i
        elif start is not None:
            runs.append((start, i))
            start = None
    if start is not None:
        runs.append((start, len(folded)))
    result = [list(range(start, end)) for start, end in runs]
    if joining:
        group = [0] if runs else []
        for k in range(1, len(runs) + 1):
            if k < len(runs) and runs[k][0] - runs[k - 1][1] == 1 and _joins(folded[runs[k - 1][1]]):
                group.append(k)
                continue
            if len(group) >= 2:
                result.append([i for member in group for i in result[member]])
            group = [k]
    return result


ASCII_TOKEN = re.compile(r"[a-z0-9]+")


def tokens(text):
    """A query's tokens (SEARCH-SPEC "Tokens" steps 1-5). (ASCII text: lower case without apostrophes, then runs of
    letters and digits, the same.)"""
    if text.isascii():
        return ASCII_TOKEN.findall(text.lower().replace("'", ""))
    folded = fold(text)
    return ["".join(folded[i] for i in token) for token in token_positions(folded)]


def title_tokens(text):
    """A title's tokens: steps 1-6, joined words included (`Spider-Man` -> spider, man, spiderman)."""
    folded = fold(text)
    return ["".join(folded[i] for i in token) for token in token_positions(folded, joining=True)]


# Typo tolerance

def budget(token):
    """Edits allowed to a query token: 0 up to 4 scalars or with a number (category N), 1 for 5-8, 2 for 9 or more."""
    if len(token) <= 4 or any(unicodedata.category(ch)[0] == "N" for ch in token):
        return 0
    return 1 if len(token) <= 8 else 2


def prefix_distance(q, t):
    """(pd, m): pd = min over j of the optimal string alignment distance d(q, t[:j]); m = the smallest j reaching it.
    Plain DP: d[i][j] is the OSA distance between q[:i] and t[:j] (insert, delete, substitute, swap two adjacent
    scalars; each costs 1)."""
    n, w = len(q), len(t)
    d = [[0] * (w + 1) for _ in range(n + 1)]
    for i in range(n + 1):
        d[i][0] = i
    for j in range(w + 1):
        d[0][j] = j
    for i in range(1, n + 1):
        for j in range(1, w + 1):
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (q[i - 1] != t[j - 1]))
            if i > 1 and j > 1 and q[i - 1] == t[j - 2] and q[i - 2] == t[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    pd = min(d[n])
    return pd, d[n].index(pd)


def typo_match(q, t):
    """(pd, m) when q matches title token t with typos (first scalars equal, pd <= budget(q)), else None."""
    if not q or not t or q[0] != t[0]:
        return None
    pd, m = prefix_distance(q, t)
    return (pd, m) if pd <= budget(q) else None


def _next_row(q, t, j, rows):
    """The OSA row of t[:j] against every prefix of q, from the rows of t[:j-1] and t[:j-2]."""
    above = rows[j - 1]
    c = t[j - 1]
    row = [j] * (len(q) + 1)
    for i in range(1, len(q) + 1):
        value = min(above[i] + 1, row[i - 1] + 1, above[i - 1] + (q[i - 1] != c))
        if i > 1 and j > 1 and q[i - 1] == t[j - 2] and q[i - 2] == c:
            value = min(value, rows[j - 2][i - 2] + 1)
        row[i] = value
    return row


def typo_walk(q, limit, bucket):
    """{t: pd(q, t)} for the tokens t of `bucket` (sorted, every one starting with q[0]) with pd(q, t) <= limit.
    rows[j] is the OSA row of the current token's prefix of length j, shared with the next token as far as their
    common prefix goes; best[j] the smallest last-column value of rows[0..j] (the pd over those prefixes). A row
    whose minimum exceeds `limit` ends the prefix: rows only grow from there, so every token that starts with it has
    the pd already reached (a match if it is within `limit`)."""
    n = len(q)
    rows = [list(range(n + 1))]
    best = [n]
    found = {}
    previous = ""
    i = 0
    while i < len(bucket):
        t = bucket[i]
        shared = 0
        for a, b in zip(previous, t):
            if a != b or shared == len(rows) - 1:
                break
            shared += 1
        del rows[shared + 1:], best[shared + 1:]
        previous = t
        dead = False
        for j in range(shared + 1, len(t) + 1):
            row = _next_row(q, t, j, rows)
            rows.append(row)
            best.append(min(best[-1], row[n]))
            if min(row) > limit:
                dead = True
                break
        if dead:
            j = len(rows) - 1
            end = bisect.bisect_left(bucket, t[:j] + LAST, i)
            if best[j - 1] <= limit:
                found.update(dict.fromkeys(bucket[i:end], best[j - 1]))
            i = end
        else:
            if best[-1] <= limit:
                found[t] = best[-1]
            i += 1
    return found


# Match spans

def title_layout(title):
    """How a title's folded scalars map back to it, for spans: each original scalar folded alone (steps 1-4),
    the pieces concatenated. Returns (tokens as (text, [original scalar index per folded scalar]), UTF-16 start of
    every original scalar and of the end)."""
    folded = []
    origin = []
    for index, ch in enumerate(title):
        piece = fold(ch)
        folded.append(piece)
        origin.extend([index] * len(piece))
    folded = "".join(folded)
    starts = [0]
    for ch in title:
        starts.append(starts[-1] + (2 if ord(ch) > 0xFFFF else 1))
    layout = [("".join(folded[i] for i in token), [origin[i] for i in token])
              for token in token_positions(folded, joining=True)]
    return layout, starts


def spans(title, query_tokens, mode, layout=None):
    """SEARCH-SPEC "Match spans": [[start, end], ...] in UTF-16 code units, sorted, merged where they overlap or
    touch. Exact: every title token that a query token is a prefix of, its first len(q) scalars; typo: every title
    token that a query token matches with typos, its first m scalars. `layout`: the title's `title_layout`, if
    known."""
    layout, starts = layout or title_layout(title)
    pieces = []
    for q in dict.fromkeys(query_tokens):
        for text, origins in layout:
            if mode == "exact":
                m = len(q) if text.startswith(q) else 0
            else:
                match = typo_match(q, text)
                m = match[1] if match else 0
            if m == 0:
                continue
            first, last = origins[0], origins[m - 1]
            while last + 1 < len(title) and unicodedata.category(title[last + 1]) == "Mn":
                last += 1
            pieces.append([starts[first], starts[last + 1]])
    pieces.sort()
    merged = []
    for start, end in pieces:
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return merged


class SpecIndex:
    """Token -> ids, the sorted vocabulary for prefix ranges, the vocabulary by first scalar for the typo pass, and
    every movie's place in the answer order."""

    def __init__(self, movies):
        self.movies = movies
        postings = {}
        for id, (title, _, _) in enumerate(movies):
            for token in set(title_tokens(title)):
                postings.setdefault(token, []).append(id)
        self.vocabulary = sorted(postings, key=lambda token: token.encode("utf-8"))
        self.keys = [token.encode("utf-8") for token in self.vocabulary]
        self.postings = postings
        self.prefix_cache = {}
        self.by_first = {}
        for token in sorted(postings):
            self.by_first.setdefault(token[0], []).append(token)
        # Every movie's place in the answer order (year descending, rating descending, unrated last, id).
        ordered = sorted(range(len(movies)), key=lambda id: common.order_key(movies[id][1], movies[id][2], id))
        self.place = [0] * len(movies)
        for place, id in enumerate(ordered):
            self.place[id] = place
        self.ordered = ordered
        self.year_of = [year for _, year, _ in movies]
        self.layouts = {}

    def layout(self, id):
        """The title's `title_layout`, kept: the same movies are listed again and again."""
        layout = self.layouts.get(id)
        if layout is None:
            layout = self.layouts[id] = title_layout(self.movies[id][0])
        return layout

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

    def typo_counts(self, q):
        """{id: the smallest pd from q to a token of the movie's title that q matches with typos}."""
        limit = budget(q)
        if limit == 0:
            return dict.fromkeys(self.ids_with_prefix(q), 0)
        counts = {}
        for token, pd in typo_walk(q, limit, self.by_first.get(q[0], [])).items():
            for id in self.postings[token]:
                if counts.get(id, limit + 1) > pd:
                    counts[id] = pd
        return counts

    def search(self, query, per_year=5, typos="auto", details=True):
        """The answer to a query (SEARCH-SPEC), as `moviesearch query --stdin` prints it, ids only: mode, total,
        years; per listed movie its typos and match spans (with `details`)."""
        query_tokens = tokens(query)
        mode = "exact"
        typo_of = None
        if not query_tokens:
            matches = range(len(self.movies))
        else:
            sets = sorted((self.ids_with_prefix(token) for token in set(query_tokens)), key=len)
            matches = set(sets[0]).intersection(*sets[1:])
            if not matches and typos == "auto" and any(budget(token) for token in query_tokens):
                mode = "typo"
                per_token = {token: self.typo_counts(token) for token in set(query_tokens)}
                smallest = min(per_token.values(), key=len)
                # The typo count sums over the query tokens, repeated ones as often as they are typed (`darkenss
                # darkenss` has two slips): the spec's "sum, over the query tokens".
                typo_of = {id: sum(per_token[token][id] for token in query_tokens) for id in smallest
                           if all(id in counts for counts in per_token.values())}
                matches = typo_of
        if not query_tokens:
            ordered = self.ordered
        elif typo_of is None:
            ordered = sorted(matches, key=self.place.__getitem__)
        else:  # Inside a year: fewer typos first, then the exact order.
            ordered = sorted(matches, key=lambda id: (-self.year_of[id], typo_of[id], self.place[id]))
        # Years are contiguous in `ordered`, newest first: count them, then slice each year's first K.
        counts = collections.Counter(map(self.year_of.__getitem__, ordered))
        groups = []
        start = 0
        for year in sorted(counts, reverse=True):
            groups.append((year, counts[year], ordered[start:start + min(per_year, counts[year])]))
            start += counts[year]
        answer = common.answer(query, groups, len(ordered))
        answer = {"query": query, "mode": mode, **{key: value for key, value in answer.items() if key != "query"}}
        if details:
            for year in answer["years"]:
                for movie in year["movies"]:
                    id = movie["id"]
                    movie["typos"] = typo_of[id] if typo_of is not None else 0
                    movie["match"] = spans(self.movies[id][0], query_tokens, mode, self.layout(id))
        return answer


def self_check(count=800, seed=7):
    """The walk and the plain DP agree on made-up words over a small alphabet (so that near misses abound)."""
    rng = random.Random(seed)
    alphabet = "abcde"
    words = sorted({"a" + "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 11))) for _ in range(count)})
    checked = 0
    for _ in range(120):
        q = "a" + "".join(rng.choice(alphabet) for _ in range(rng.randint(4, 10)))
        limit = budget(q)
        walked = typo_walk(q, limit, words)
        plain = {t: pd for t in words for pd, _ in [prefix_distance(q, t)] if pd <= limit}
        if walked != plain:
            sys.exit(f"reference: self-check failed for {q!r}: walk {sorted(walked.items())[:5]} vs plain "
                     f"{sorted(plain.items())[:5]}")
        checked += 1
    examples = [("darkenss", "darkness", (1, 8)), ("godfahter", "godfather", (1, 9)), ("drak", "dark", (1, 4)),
                ("sherlok", "sherlock", (1, 6)), ("casablanka", "casablanca", (1, 10))]
    for q, t, expected in examples:
        if prefix_distance(q, t) != expected:
            sys.exit(f"reference: self-check failed: prefix_distance({q!r}, {t!r}) = {prefix_distance(q, t)}")
    for title, query, expected in [("The Dark Knight Rises", "dark kni", [[4, 8], [9, 12]]),
                                   ("Bru\u0308no", "bru", [[0, 4]]), ("Brüno", "bru", [[0, 3]]),
                                   ("Straße", "stras", [[0, 5]]), ("\U0001f600 Dark", "dark", [[3, 7]]),
                                   ("Spider-Man", "spiderm", [[0, 8]])]:
        if spans(title, tokens(query), "exact") != expected:
            sys.exit(f"reference: self-check failed: spans of {query!r} in {title!r}: "
                     f"{spans(title, tokens(query), 'exact')}")
    for title, expected in [("Spider-Man", ["spider", "man", "spiderman"]), ("S.W.A.T.", ["s", "w", "a", "t", "swat"]),
                            ("Dr. No", ["dr", "no"]), ("$40,000", ["40", "000", "40000"]),
                            ("WALL·E", ["wall", "e", "walle"]), ("Mission: Impossible", ["mission", "impossible"])]:
        if title_tokens(title) != expected:
            sys.exit(f"reference: self-check failed: title_tokens({title!r}) = {title_tokens(title)}")
    print(f"reference: self-check passed ({checked} walks against the plain DP, the spec's examples)")


def main():
    parser = argparse.ArgumentParser(description="SEARCH-SPEC answers computed in plain Python.")
    parser.add_argument("--catalog")
    parser.add_argument("--queries")
    parser.add_argument("--answers", help="JSON lines to write")
    parser.add_argument("--per-year", type=int, default=5)
    parser.add_argument("--typos", choices=["auto", "off"], default="auto",
                        help="auto (default): a typo pass when the exact search finds nothing; off: exact only")
    parser.add_argument("--ids-only", action="store_true", help="no typos or match spans per movie (full sets)")
    parser.add_argument("--self-check", action="store_true", help="check the typo walk and the spec's examples")
    args = parser.parse_args()
    if args.self_check:
        self_check()
        return
    if not (args.catalog and args.queries and args.answers):
        parser.error("--catalog, --queries and --answers are required")
    index = SpecIndex(common.load_catalog(args.catalog))
    with open(args.answers, "w", encoding="utf-8") as out:
        for query in common.read_queries(args.queries):
            answer = index.search(query, args.per_year, args.typos, not args.ids_only)
            out.write(json.dumps(answer, ensure_ascii=False, separators=(",", ":")))
            out.write("\n")


if __name__ == "__main__":
    main()
