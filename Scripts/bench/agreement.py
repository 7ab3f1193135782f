"""The agreement check of Scripts/compare: every engine's answers against moviesearch's (or the Python reference's
when moviesearch cannot answer), query by query, then the differences sorted by cause from the full match sets of
the differing queries.

An answer is compared whole: total, years, per-year counts, the K ids of each year. A cause is a kind of character
in the query or in a movie title that one side matches and the other does not (see `CAUSE_TESTS`); each engine
lists the causes that can explain its differences, and the report's words for them, in its `differences`
(engines.py). Results are dicts: engine, against, answers, identical, differing, explained, causes (cause ->
differing answers), examples (cause -> one), differing_queries; `error` when the answer counts differ,
`explain_error` when the full match sets could not be had.
"""

import json
import os
import re
import tempfile
import time
import unicodedata

import common
from harness import WORK, Failure, say

EVERYTHING = 1_000_000_000  # --per-year for full match sets
EXPLAINED_QUERIES = 300  # distinct differing queries whose full match sets are compared (evenly spaced)

APOSTROPHE = re.compile("['\u2018\u2019\u02bc]")
INNER_PUNCTUATION = re.compile(r"\w[^\w\s'\u2018\u2019\u02bc]+\w")

# Whether a cause can explain a difference on `query` and a movie titled `title`: its characters occur in them.
CAUSE_TESTS = {
    "compatibility": lambda engine, query, title: (unicodedata.normalize("NFKC", query + title)
                                                   != unicodedata.normalize("NFC", query + title)),
    "letters": lambda engine, query, title: any(engine.letter_differs(ch) for ch in query + title),
    "apostrophe": lambda engine, query, title: APOSTROPHE.search(query + title) is not None,
    "punctuation": lambda engine, query, title: INNER_PUNCTUATION.search(query) is not None,
}
# The report's words for the causes every engine shares.
SHARED_CAUSES = {
    "order": "same matches, different order or counts inside a year",
    "other": "not explained by the rules above",
}


def cause_of(engine, query, title):
    """The first of the engine's possible causes whose characters occur in the query or the title."""
    for cause in engine.differences:
        if CAUSE_TESTS[cause](engine, query, title):
            return cause
    return "other"


def cause_text(engine, cause):
    """The report's words for a cause of the engine's differences."""
    return engine.differences.get(cause) or SHARED_CAUSES.get(cause, cause)


def answer_keys(path):
    """(query, key) of every answer, one line at a time."""
    with open(path, encoding="utf-8") as file:
        for line in file:
            if line.strip():
                answer = json.loads(line)
                yield answer.get("query"), answer_key(answer)


def count_lines(path):
    with open(path, "rb") as file:
        return sum(1 for line in file if line.strip())


def answer_key(answer):
    return (answer["total"],
            tuple((year["year"], year["count"], tuple(movie["id"] for movie in year["movies"]))
                  for year in answer["years"]))


def match_set(answer):
    return {movie["id"] for year in answer["years"] for movie in year["movies"]}


def full_sets(engine, entry, queries, folder, name):
    """{query: set of matching ids} from `engine`, asked for every match (per-year K = everything)."""
    queries = list(dict.fromkeys(queries))
    queries_path, answers_path = os.path.join(folder, f"{name}.txt"), os.path.join(folder, f"{name}.jsonl")
    with open(queries_path, "w", encoding="utf-8") as out:
        out.writelines(query + "\n" for query in queries)
    engine.answers(entry, queries_path, EVERYTHING, answers_path)
    return {query: match_set(answer) for query, answer in zip(queries, common.read_answers(answers_path))}


def compare_answers(entry, engine_key, expected_key, answers_path, expected_path):
    """Counts the identical answers; returns the result and the queries (an even sample of the distinct ones)
    whose full match sets explain the differences."""
    got_count, want_count = count_lines(answers_path), count_lines(expected_path)
    result = {"engine": engine_key, "against": expected_key, "answers": want_count}
    if got_count != want_count:
        result["error"] = f"{got_count:,} answers for {want_count:,} queries"
        return result, []
    queries = common.read_queries(entry["queries"])
    differing = [i for i, ((_, a), (_, b)) in enumerate(zip(answer_keys(answers_path), answer_keys(expected_path)))
                 if a != b]
    result["identical"] = want_count - len(differing)
    result.update(differing=len(differing), explained=0, causes={}, examples={},
                  differing_queries=[queries[i] for i in differing])
    distinct = list(dict.fromkeys(result["differing_queries"]))
    step = max(1, len(distinct) / EXPLAINED_QUERIES)
    return result, [distinct[int(i * step)] for i in range(min(EXPLAINED_QUERIES, len(distinct)))]


def explain(engine, result, sample, got_sets, want_sets, movies):
    """Sorts the differing answers by cause, from the full match sets of the sampled queries."""
    causes_by_query = {}
    examples = {}
    for query in sample:
        extra, missing = got_sets[query] - want_sets[query], want_sets[query] - got_sets[query]
        causes = set()
        for side, ids in (("also finds", extra), ("misses", missing)):
            for id in sorted(ids)[:200]:
                cause = cause_of(engine, query, movies[id][0])
                causes.add(cause)
                examples.setdefault(cause, f"`{query}` {side} \"{movies[id][0]}\"")
        if not causes:
            causes.add("order")
            examples.setdefault("order", f"`{query}`")
        causes_by_query[query] = causes
    counts = {}
    explained = 0
    for query in result["differing_queries"]:
        if query in causes_by_query:
            explained += 1
            for cause in causes_by_query[query]:
                counts[cause] = counts.get(cause, 0) + 1
    result.update(explained=explained, causes=counts, examples=examples)


def agreements_for(entry, answers, engines, spec, per_year):
    """Every engine's answers against moviesearch's (or, when moviesearch could not answer, the Python
    reference's), and moviesearch's against the reference; the differences explained by cause.
    `answers`: engine key -> its answers file, for the engines that answered; `spec`: the Reference engine."""
    reference_path = os.path.join(WORK, f"{entry['name']}.reference.answers.jsonl")
    step = time.monotonic()
    spec.answers(entry, entry["queries"], per_year, reference_path)
    say(f"  reference (Python SEARCH-SPEC): answers in {time.monotonic() - step:.1f} s")
    pending = []
    if "moviesearch" in answers:
        expected_key, expected, expected_path = "moviesearch", engines["moviesearch"], answers["moviesearch"]
        pending.append((spec, *compare_answers(entry, "reference", "moviesearch", reference_path, expected_path)))
    else:
        expected_key, expected, expected_path = "reference", spec, reference_path
    for key, path in answers.items():
        if key != expected_key:
            pending.append((engines[key], *compare_answers(entry, key, expected_key, path, expected_path)))

    # The expected side's full match sets, asked once for every sampled query; from the reference (ids only) when it
    # agrees with moviesearch on every answer: moviesearch prints whole movies, a lot of JSON for `t` on 1M movies.
    wanted = [query for _, _, sample in pending for query in sample]
    if not wanted:
        return [result for _, result, _ in pending]
    step = time.monotonic()
    movies = common.load_catalog(entry["catalog"])
    reference_agrees = expected_key == "reference" or pending[0][1].get("identical") == pending[0][1]["answers"]
    with tempfile.TemporaryDirectory(dir=WORK) as folder:
        try:
            want_sets = full_sets(spec if reference_agrees else expected, entry, wanted, folder, "expected")
        except Failure as failure:
            for _, result, sample in pending:
                if sample:
                    result["explain_error"] = str(failure)
            return [result for _, result, _ in pending]
        for engine, result, sample in pending:
            if not sample:
                continue
            try:
                if engine is spec:  # reference vs moviesearch: moviesearch's sets are the expected ones
                    got_sets = full_sets(spec, entry, sample, folder, "reference")
                    want = full_sets(expected, entry, sample, folder, "moviesearch")
                    explain(engine, result, sample, got_sets, want, movies)
                else:
                    explain(engine, result, sample, full_sets(engine, entry, sample, folder, engine.key), want_sets,
                            movies)
            except Failure as failure:
                result["explain_error"] = str(failure)
    say(f"  differences explained in {time.monotonic() - step:.1f} s")
    return [result for _, result, _ in pending]
