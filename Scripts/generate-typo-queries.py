#!/usr/bin/env python3
"""Deterministic typo queries for a catalog: real title words with one or two slips of the finger, each query one
that finds nothing exactly (SEARCH-SPEC), so that a search in mode `auto` always takes the typo pass.

    Scripts/generate-typo-queries.py --catalog ../shared/data/century-movies.json --output century-typos.txt
    Scripts/generate-typo-queries.py --catalog movies.json --count 500 --seed 7 --output -

How a query is made: pick a movie at random, cut its title into tokens as the spec does (folded: lower case, no
accents; Scripts/bench/reference.py's tokenizer), take 1 to 3 consecutive tokens of which at least one is a word of
5 or more letters (letters only: a token with a digit has no typo budget), and edit one or more of those words:
one or two edits each, among
- swap two adjacent letters (`godfather` -> `godfahter`),
- drop a letter (`sherlock` -> `sherlok`),
- double a letter (`casablanca` -> `casablannca`),
- replace a letter by another (`casablanca` -> `casablanka`; a-z for an ASCII letter, else another letter of the
  same word),
never at the first letter. Two edits go only to a word that keeps 9 scalars or more (budget 2), one edit to a word
that keeps 5 or more (budget 1): an edit that takes a word below its budget (`dark` from `darke`, say) would make a
query that the typo pass cannot find either, which measures nothing. The words are written folded and joined by
one space. A query is kept when the spec's exact search finds no movie for it (checked with the reference's index)
and it is not already in the set.

The same catalog, seed and count give the same file (Python's `random.Random` draws are stable across versions).
Progress and a summary (how many queries the reference's typo pass answers) go to standard error.
Standard library only.
"""

import argparse
import collections
import os
import sys
import tempfile
import unicodedata
from random import Random

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "bench"))
import common  # noqa: E402
import reference  # noqa: E402

ASCII_LETTERS = "abcdefghijklmnopqrstuvwxyz"
EDITS = ("swap", "drop", "double", "replace")
MAX_WORDS = 3
ATTEMPTS_PER_QUERY = 200


def is_word(token):
    """A word the generator may edit: 5 scalars or more, letters only."""
    return len(token) >= 5 and all(unicodedata.category(ch)[0] == "L" for ch in token)


def edit(word, kind, rng):
    """`word` with one edit of `kind` at a random position after the first letter, or None when the word has no
    such position (a swap needs two different adjacent letters)."""
    if kind == "swap":
        places = [i for i in range(1, len(word) - 1) if word[i] != word[i + 1]]
        if not places:
            return None
        i = rng.choice(places)
        return word[:i] + word[i + 1] + word[i] + word[i + 2:]
    i = rng.randrange(1, len(word))
    if kind == "drop":
        return word[:i] + word[i + 1:]
    if kind == "double":
        return word[:i] + word[i] + word[i:]
    alphabet = ASCII_LETTERS if word[i].isascii() else "".join(sorted(set(word[1:])))
    others = [ch for ch in alphabet if ch != word[i]]
    if not others:
        return None
    return word[:i] + rng.choice(others) + word[i + 1:]


def misspell(word, edits, rng):
    """(the word with `edits` edits, their kinds), or None when the result would not keep the budget the edits
    need (reference.budget: 1 for 5-8 scalars, 2 for 9 or more) or the edits gave the word back."""
    kinds = []
    result = word
    for _ in range(edits):
        kind = rng.choice(EDITS)
        result = edit(result, kind, rng)
        if result is None:
            return None
        kinds.append(kind)
    if result == word or reference.budget(result) < edits:
        return None
    return result, kinds


def one_query(movies, rng):
    """A candidate query from one random title, with the kinds of its edits; None when the title gives none."""
    title_tokens = reference.tokens(movies[rng.randrange(len(movies))][0])
    words = [i for i, token in enumerate(title_tokens) if is_word(token)]
    if not words:
        return None
    anchor = rng.choice(words)
    size = rng.randint(1, min(MAX_WORDS, len(title_tokens)))
    start = rng.randint(max(0, anchor - size + 1), min(anchor, len(title_tokens) - size))
    window = list(title_tokens[start:start + size])
    edited = [anchor] + [i for i in range(start, start + size) if i != anchor and i in words and rng.random() < 0.3]
    kinds = []
    for i in edited:
        edits = 2 if len(title_tokens[i]) >= 10 and rng.random() < 0.5 else 1
        result = misspell(title_tokens[i], edits, rng)
        if result is None:
            return None
        window[i - start] = result[0]
        kinds.extend(result[1])
    return " ".join(window), kinds


def generate(movies, index, count, seed):
    """`count` distinct queries that find nothing exactly, and the counts of the edit kinds they hold."""
    rng = Random(seed)
    queries = []
    seen = set()
    kinds_used = collections.Counter()
    attempts = 0
    while len(queries) < count:
        attempts += 1
        if attempts > ATTEMPTS_PER_QUERY * count:
            common.fail(f"only {len(queries):,} typo queries after {attempts - 1:,} attempts: the catalog has too "
                        f"few titles with words of 5 letters or more")
        candidate = one_query(movies, rng)
        if candidate is None or candidate[0] in seen:
            continue
        query, kinds = candidate
        seen.add(query)
        if index.search(query, per_year=0, typos="off", details=False)["total"]:
            continue
        queries.append(query)
        kinds_used.update(kinds)
    return queries, kinds_used


def write(path, queries):
    text = "".join(query + "\n" for query in queries)
    if path == "-":
        sys.stdout.write(text)
        return
    folder = os.path.dirname(os.path.abspath(path))
    with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=folder, delete=False, newline="\n") as out:
        out.write(text)
    os.replace(out.name, path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="\n\n".join(__doc__.split("\n\n")[1:]))
    parser.add_argument("--catalog", required=True, help='catalog JSON ({"movies": [...]} or an array)')
    parser.add_argument("--output", required=True, help="file to write, one query per line (- for standard output)")
    parser.add_argument("--count", type=int, default=1000, help="queries to write (default 1000)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    args = parser.parse_args()
    if args.count < 1:
        parser.error("--count must be at least 1")
    movies = common.load_catalog(args.catalog)
    if not movies:
        common.fail(f"{args.catalog}: no movies")
    index = reference.SpecIndex(movies)
    queries, kinds = generate(movies, index, args.count, args.seed)
    write(args.output, queries)
    found = sum(1 for query in queries if index.search(query, per_year=0, details=False)["total"])
    print(f"generate-typo-queries: {len(queries):,} queries (seed {args.seed}); edits: "
          + ", ".join(f"{kinds[kind]:,} {kind}" for kind in EDITS)
          + f"; the spec's typo pass finds something for {found:,} of them", file=sys.stderr)


if __name__ == "__main__":
    main()
