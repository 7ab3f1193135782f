"""The agreement check of Scripts/compare: every engine's answers against moviesearch's (or the Python reference's
when moviesearch cannot answer), query by query, then the differences sorted by cause from the full match sets of
the differing queries.

An answer is compared whole: total, years, per-year counts, the K ids of each year; and when both sides print
them (moviesearch and the reference), the mode and each listed movie's typo count and match spans. A cause is a
kind of character in the query or in a movie title that one side matches and the other does not, or a rule of the
spec that one side lacks (joined words, the first letter of a typo match; see `CAUSE_TESTS`); each engine
lists the causes that can explain its differences, and the report's words for them, in its `differences`
(engines.py). An answer that lists the same movies but differs in mode, typos or spans counts under `details`. Results are dicts: engine, against, answers, identical, differing, explained, causes (cause ->
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
import reference
from common import EVERYTHING
from harness import WORK, Failure, say

EXPLAINED_QUERIES = 300  # distinct differing queries whose full match sets are compared (evenly spaced)

APOSTROPHE = re.compile("['\u2018\u2019\u02bc]")
INNER_PUNCTUATION = re.compile(r"\w[^\w\s'\u2018\u2019\u02bc]+\w")

def joined_cause(query, title, mode):
    """A query token finds a joined token of the title (SEARCH-SPEC step 6: `spiderman` in "Spider-Man")."""
    plain = set(reference.tokens(title))
    joined = [token for token in reference.title_tokens(title) if token not in plain]
    return any(token.startswith(q) or mode == "auto" and reference.typo_match(q, token)
               for q in reference.tokens(query) for token in joined)


def first_letter_cause(query, title, mode):
    """In a typo answer: a query token is within its budget of a title token whose first letter differs."""
    return mode == "auto" and any(
        reference.budget(q) and token[0] != q[0] and reference.prefix_distance(q, token)[0] <= reference.budget(q)
        for q in reference.tokens(query) for token in reference.title_tokens(title))


# Whether a cause can explain a difference on `query` and a movie titled `title` in mode `mode` (`off` for the
# keystroke sets, `auto` for the typo sets): its characters occur in them, or its rule applies.
CAUSE_TESTS = {
    "joined": lambda engine, query, title, mode: joined_cause(query, title, mode),
    "first letter": lambda engine, query, title, mode: first_letter_cause(query, title, mode),
    "compatibility": lambda engine, query, title, mode: (unicodedata.normalize("NFKC", query + title)
                                                         != unicodedata.normalize("NFC", query + title)),
    "letters": lambda engine, query, title, mode: any(engine.letter_differs(ch) for ch in query + title),
    "apostrophe": lambda engine, query, title, mode: APOSTROPHE.search(query + title) is not None,
    "punctuation": lambda engine, query, title, mode: INNER_PUNCTUATION.search(query) is not None,
}
# The report's words for the causes every engine shares.
SHARED_CAUSES = {
    "order": "same matches, different order or counts inside a year",
    "details": "same movies listed, different mode, typo counts or match spans",
    "other": "not explained by the rules above",
}


def cause_of(engine, query, title, mode="off"):
    """The first of the engine's possible causes whose characters occur in the query or the title, or whose rule
    applies to them."""
    for cause in engine.differences:
        if CAUSE_TESTS[cause](engine, query, title, mode):
            return cause
    return "other"


def cause_text(engine, cause):
    """The report's words for a cause of the engine's differences."""
    return (engine.differences.get(cause) or engine.shared_cause_words.get(cause)
            or SHARED_CAUSES.get(cause, cause))


def answer_keys(path, detailed=False):
    """(query, key, detailed key or None) of every answer, one line at a time."""
    with open(path, encoding="utf-8") as file:
        for line in file:
            if line.strip():
                answer = json.loads(line)
                yield answer.get("query"), answer_key(answer), detailed_key(answer) if detailed else None


def has_details(path):
    """Whether a file's answers carry the mode, typos and spans (its first answer has a "mode")."""
    with open(path, encoding="utf-8") as file:
        for line in file:
            if line.strip():
                return "mode" in json.loads(line)
    return False


def count_lines(path):
    with open(path, "rb") as file:
        return sum(1 for line in file if line.strip())


def answer_key(answer):
    return (answer["total"],
            tuple((year["year"], year["count"], tuple(movie["id"] for movie in year["movies"]))
                  for year in answer["years"]))


def detailed_key(answer):
    """The mode, and every listed movie's typo count and spans."""
    return (answer.get("mode"),
            tuple((movie["id"], movie.get("typos"), tuple(map(tuple, movie.get("match") or [])))
                  for year in answer["years"] for movie in year["movies"]))


def detail_difference(query, got, want):
    """Words for the first difference of two detailed keys of the same movies."""
    if got[0] != want[0]:
        return f"`{query}`: mode {got[0]} (want {want[0]})"
    for (id, typos, spans), (_, want_typos, want_spans) in zip(got[1], want[1]):
        if typos != want_typos:
            return f"`{query}`: movie {id} with {typos} typos (want {want_typos})"
        if spans != want_spans:
            return f"`{query}`: movie {id} spans {[list(span) for span in spans]} (want {[list(s) for s in want_spans]})"
    return f"`{query}`"


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


def compare_answers(entry, engine, expected, answers_path, expected_path):
    """Counts the identical answers; returns the result and the queries (an even sample of the distinct ones)
    whose full match sets explain the differences. Mode, typos and spans are compared too when both engines print
    them and both files have them; an answer that differs in those alone counts under the cause `details`."""
    got_count, want_count = count_lines(answers_path), count_lines(expected_path)
    result = {"engine": engine.key, "against": expected.key, "answers": want_count}
    if got_count != want_count:
        result["error"] = f"{got_count:,} answers for {want_count:,} queries"
        return result, []
    detailed = (engine.detailed and expected.detailed and has_details(answers_path) and has_details(expected_path))
    queries = common.read_queries(entry["queries"])
    differing = []
    details_only = 0
    examples = {}
    for i, ((_, a, a_details), (_, b, b_details)) in enumerate(zip(answer_keys(answers_path, detailed),
                                                                   answer_keys(expected_path, detailed))):
        if a != b:
            differing.append(i)
        elif a_details != b_details:
            details_only += 1
            examples.setdefault("details", detail_difference(queries[i], a_details, b_details))
    result["identical"] = want_count - len(differing) - details_only
    result.update(differing=len(differing) + details_only, explained=details_only,
                  causes={"details": details_only} if details_only else {}, examples=examples,
                  differing_queries=[queries[i] for i in differing], details=detailed)
    distinct = list(dict.fromkeys(result["differing_queries"]))
    step = max(1, len(distinct) / EXPLAINED_QUERIES)
    return result, [distinct[int(i * step)] for i in range(min(EXPLAINED_QUERIES, len(distinct)))]


def explain(engine, result, sample, got_sets, want_sets, movies, mode="off"):
    """Sorts the differing answers by cause, from the full match sets of the sampled queries (after the answers
    that differ in their details alone, counted by `compare_answers`)."""
    causes_by_query = {}
    examples = dict(result.get("examples", {}))
    for query in sample:
        extra, missing = got_sets[query] - want_sets[query], want_sets[query] - got_sets[query]
        causes = set()
        for side, ids in (("also finds", extra), ("misses", missing)):
            for id in sorted(ids)[:200]:
                cause = cause_of(engine, query, movies[id][0], mode)
                causes.add(cause)
                examples.setdefault(cause, f"`{query}` {side} \"{movies[id][0]}\"")
        if not causes:
            causes.add("order")
            examples.setdefault("order", f"`{query}`")
        causes_by_query[query] = causes
    counts = dict(result.get("causes", {}))
    explained = result.get("explained", 0)
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
    reference_path = os.path.join(WORK, f"{entry['name'].replace(' ', '-')}.reference.answers.jsonl")
    step = time.monotonic()
    spec.answers(entry, entry["queries"], per_year, reference_path)
    say(f"  reference (Python SEARCH-SPEC): answers in {time.monotonic() - step:.1f} s")
    pending = []
    if "moviesearch" in answers:
        expected_key, expected, expected_path = "moviesearch", engines["moviesearch"], answers["moviesearch"]
        pending.append((spec, *compare_answers(entry, spec, expected, reference_path, expected_path)))
    else:
        expected_key, expected, expected_path = "reference", spec, reference_path
    for key, path in answers.items():
        if key != expected_key:
            pending.append((engines[key], *compare_answers(entry, engines[key], expected, path, expected_path)))

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
                    explain(engine, result, sample, got_sets, want, movies, entry.get("typos", "off"))
                else:
                    explain(engine, result, sample, full_sets(engine, entry, sample, folder, engine.key), want_sets,
                            movies, entry.get("typos", "off"))
            except Failure as failure:
                result["explain_error"] = str(failure)
    say(f"  differences explained in {time.monotonic() - step:.1f} s")
    return [result for _, result, _ in pending]
