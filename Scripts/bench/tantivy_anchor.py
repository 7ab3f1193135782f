#!/usr/bin/env python3
r"""tantivy anchor, through tantivy-py (`pip install tantivy`; `compare` runs this with its own venv's python).

    tantivy_anchor.py build --catalog movies.json --index folder
    tantivy_anchor.py bench --index folder --queries queries.txt [--passes 5] [--per-year 5] [--answers out.jsonl]
                            [--fuzzy]

Schema: `title` (indexed, not stored), `year` (i64, fast) and `order` (i64, fast): `rating class << 32 | id`, where
the rating class is the movie's rating's place among the catalog's distinct ratings, best first, unrated last; so
`order` ascending is SEARCH-SPEC's order inside a year (rating descending, unrated last, id ascending), and the id
is its low 32 bits. Build: one writer thread with a heap big enough for one segment (2 GB at most), one commit, as
one would ship a read-only index (FTS5's `optimize` is the same idea); timed in-process from reading the JSON to the
committed index.

Tokenizer, as close to SEARCH-SPEC as tantivy-py's analyzers go: `Tokenizer.regex` cutting runs of
`[\p{L}\p{N}\p{Mc}\p{Me}'‘’ʼ]` (the spec's token characters plus the apostrophes: no filter can delete a character
inside a token, so apostrophes stay in tokens rather than splitting them), then `lowercase` and `ascii_fold`
(which also turns ‘ ’ into '). Differences from the spec: no NFKD (ligatures, `½`, full-width forms stay whole;
decomposed accents split tokens), simple lowercase rather than full case folding (ß is folded to ss by
ascii_fold but other special cases are not, `İ` becomes `i̇`), ascii_fold knows only Latin letters, and `Don't`
is the token `don't`: the query `dont` misses it (the spec matches), `don` and `don't` find it.

Query: the query text goes through the same analyzer; each token becomes a `RegexQuery` `token[\x00-\x{7FF}]*`
(no expansion limit, unlike `PhrasePrefixQuery`, whose 50 expansions cut short prefixes), all of them `Must` in a
`BooleanQuery`; no token: `AllQuery`. Why not `token.*`: tantivy compiles a regex into a DFA over UTF-8 bytes for
every query, and a Unicode `.` costs about 0.25 ms per token to compile, more than the search itself on these
catalogs; a class of the characters up to U+07FF (Latin, Greek, Cyrillic, Hebrew, Arabic...) compiles ten times
faster. It is exact as long as no indexed token holds a character above U+07FF after the analyzer: `build` counts
the titles where one does (`titles_beyond_u07ff`; 0 on the decade, century and generated catalogs, whose `’` and `–`
are folded or are separators). `--exact-regex` uses `(?s:.)*` instead.

Grouping runs inside tantivy, as an aggregation: a `terms` aggregation on `year` (newest first; its buckets'
`doc_count` are the per-year counts) with a `terms` sub-aggregation on `order`, K keys in ascending key order: the
year's first K movies. (`top_hits` sorted by `order` was the first choice, but tantivy 0.27 returned too few hits
for some years when the query matched several terms: on the generated 100,000-movie catalog, `the` listed no movie
for 1915 out of 88 matches, with one segment as with two; `TermQuery`s and `AllQuery` were fine. The nested terms
aggregation gave exact answers and ran faster.)
Timed per query: analysing the text, building the query, the aggregation (search and grouping) and turning its
result into the answer. Open: `Index.open`, registering the analyzer, the first searcher.

`--fuzzy`: the typo-mode anchor, SEARCH-SPEC "Typo tolerance" as far as tantivy goes. Each token becomes a
`FuzzyTermQuery` with `prefix=True` (the distance to the closest prefix of a term, as the spec's pd),
`transposition_cost_one=True` (a swap costs 1) and the spec's budget as its distance (0 up to 4 scalars or with a
digit, 1 for 5-8, 2 for 9 or more: reference.budget on the analysed token), all of them `Must`; grouped by the
same aggregation as the exact anchor. A query whose tokens all have budget 0 gets the empty answer, as the spec's
typo pass does not run for it. It runs the typo query alone: on the typo query sets (which find nothing exactly) that
is the answer of mode `auto`, whose exact pass moviesearch pays on top and this anchor does not. Differences from the
spec, besides the analyzer's: tantivy's Levenshtein automaton may edit the first letter (the spec requires the
first scalars equal), and its fuzzy query scores no typo count, so a year lists its movies in the exact order
(rating, id), not fewest typos first.
"""

import argparse
import os
import shutil
import sys
import time

import tantivy
from tantivy import Document, Filter, Index, Occur, Query, SchemaBuilder, TextAnalyzerBuilder, Tokenizer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
from reference import budget  # noqa: E402

TOKEN_PATTERN = r"[\p{L}\p{N}\p{Mc}\p{Me}'\u2018\u2019\u02bc]+"
REGEX_SPECIAL = set("\\.+*?()|[]{}^$#&-~")
FAST_SUFFIX = "[\\x00-\\x{7FF}]*"
EXACT_SUFFIX = "(?s:.)*"
ID_MASK = (1 << 32) - 1


def schema():
    builder = SchemaBuilder()
    builder.add_text_field("title", stored=False, tokenizer_name="spec_like")
    builder.add_integer_field("year", indexed=True, fast=True)
    builder.add_integer_field("order", fast=True)
    return builder.build()


def analyzer():
    return TextAnalyzerBuilder(Tokenizer.regex(TOKEN_PATTERN)).filter(Filter.lowercase()).filter(
        Filter.ascii_fold()).build()


def build(args):
    started = time.perf_counter_ns()
    movies = common.load_catalog(args.catalog)
    ratings = sorted({rating for _, _, rating in movies if rating is not None}, reverse=True)
    rating_class = {rating: place for place, rating in enumerate(ratings)}
    unrated = len(ratings)
    if os.path.exists(args.index):
        shutil.rmtree(args.index)
    os.makedirs(args.index)
    index = Index(schema(), path=args.index)
    index.register_tokenizer("spec_like", analyzer())
    writer = index.writer(heap_size=min(2_000_000_000, 200_000_000 + 2_000 * len(movies)), num_threads=1)
    for id, (title, year, rating) in enumerate(movies):
        writer.add_document(Document(title=title, year=year, order=rating_class.get(rating, unrated) << 32 | id))
    writer.commit()
    writer.wait_merging_threads()
    elapsed = time.perf_counter_ns() - started
    index.reload()
    text_analyzer = analyzer()
    beyond = sum(1 for title, _, _ in movies if max(title) > "\u07ff"
                 and any(max(token) > "\u07ff" for token in text_analyzer.analyze(title)))
    build_rss = common.peak_rss_bytes()
    common.print_json({"movies": len(movies), "build_ms": elapsed / 1e6, "cache_bytes": common.path_size(args.index),
                       "build_rss_bytes": build_rss,
                       "segments": index.searcher().num_segments, "titles_beyond_u07ff": beyond})


def escaped(token):
    return "".join("\\" + ch if ch in REGEX_SPECIAL else ch for ch in token)


def bench(args):
    queries = common.read_queries(args.queries)
    started = time.perf_counter_ns()
    index = Index.open(args.index)
    text_analyzer = analyzer()
    index.register_tokenizer("spec_like", text_analyzer)
    searcher = index.searcher()
    open_ns = time.perf_counter_ns() - started

    index_schema = index.schema
    aggregation = {"years": {
        "terms": {"field": "year", "size": 1_000_000, "order": {"_key": "desc"}},
        "aggs": {"first": {"terms": {"field": "order", "size": max(1, args.per_year), "order": {"_key": "asc"}}}}}}
    all_query = Query.all_query()
    analyze = text_analyzer.analyze
    regex_query = Query.regex_query
    must = Occur.Must
    per_year = args.per_year
    suffix = EXACT_SUFFIX if args.exact_regex else FAST_SUFFIX

    everything = per_year >= searcher.num_docs

    def every_match(parsed):
        """Full match sets (--per-year as large as the index, for compare's explanations): a plain search, the
        fast fields read for every hit, grouped here; not timed by compare."""
        hits = [address for _, address in searcher.search(parsed, max(1, searcher.num_docs), count=False).hits]
        rows = sorted(zip(searcher.fast_field_values("year", hits), searcher.fast_field_values("order", hits)),
                      key=lambda row: (-row[0], row[1]))
        groups = []
        for year, order in rows:
            if not groups or groups[-1][0] != year:
                groups.append((year, []))
            groups[-1][1].append(order & ID_MASK)
        return len(rows), [(year, len(ids), ids) for year, ids in groups]

    fuzzy_query = Query.fuzzy_term_query
    nothing = (0, [])

    def search(query):
        tokens = analyze(query)
        if not tokens:
            parsed = all_query
        elif args.fuzzy:
            budgets = [budget(token) for token in tokens]
            if not any(budgets):
                return nothing
            parsed = Query.boolean_query([(must, fuzzy_query(index_schema, "title", token, distance=limit,
                                                             transposition_cost_one=True, prefix=True))
                                          for token, limit in zip(tokens, budgets)])
        else:
            parsed = Query.boolean_query([(must, regex_query(index_schema, "title", escaped(token) + suffix))
                                          for token in tokens])
        if everything:
            return every_match(parsed)
        buckets = searcher.aggregate(parsed, aggregation)["years"]["buckets"]
        groups = [(int(bucket["key"]), bucket["doc_count"],
                   [int(first["key"]) & ID_MASK for first in bucket["first"]["buckets"][:per_year]])
                  for bucket in buckets]
        return sum(count for _, count, _ in groups), groups

    samples, passes = common.time_queries(queries, search, args.passes, args.max_seconds, args.answers)
    common.print_json(common.figures(len(queries), samples, passes, open_ns, common.path_size(args.index),
                                     tantivy_version=str(getattr(tantivy, "__version__", "")),
                                     prefix_regex=None if args.fuzzy else "token" + suffix,
                                     fuzzy="FuzzyTermQuery(prefix=True, transposition_cost_one=True, distance="
                                           "budget)" if args.fuzzy else None,
                                     segments=searcher.num_segments))


def main():
    parser = argparse.ArgumentParser(description="tantivy anchor of Scripts/compare.")
    commands = parser.add_subparsers(dest="command", required=True)
    build_command = commands.add_parser("build")
    build_command.add_argument("--catalog", required=True)
    build_command.add_argument("--index", required=True)
    bench_command = commands.add_parser("bench")
    bench_command.add_argument("--index", required=True)
    common.add_bench_arguments(bench_command)
    bench_command.add_argument("--exact-regex", action="store_true",
                               help="prefix regex token(?s:.)* instead of token[\\x00-\\x{7FF}]* (slower)")
    bench_command.add_argument("--fuzzy", action="store_true",
                               help="typo mode: FuzzyTermQuery(prefix=True) per token, distance = the spec's budget")
    args = parser.parse_args()
    build(args) if args.command == "build" else bench(args)


if __name__ == "__main__":
    main()
