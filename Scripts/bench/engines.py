"""The engines Scripts/compare builds, times and checks, each driven the same way: `setup` once (build or install
it), then per catalog `build` (the index, timed) and `bench` (one process: open, a warm-up pass that writes the
answers, timed passes), and `answers` for full match sets when the agreement check explains differences.

To add an engine: one class here (a `PythonAnchor` subclass for a Python script taking `build` and `bench` like
fts5.py) with its `key`, its report `name` and its `differences` from SEARCH-SPEC, and one entry in ALL.

Query sets: the keystroke sets run in mode `off` (exact search, as every anchor does), the typo sets
(catalogs.typo_entry) in mode `auto`; `query_sets` says which an engine runs: moviesearch both, tantivy's fuzzy mode
the typo sets only, the other anchors the keystroke sets only.
"""

import json
import os
import subprocess
import sys
import unicodedata

import common
from catalogs import base_name
from harness import BENCH, ROOT, SCRIPTS, WORK, Failure, last_json, run, say

TANTIVY_REQUIREMENT = "tantivy==0.27.0"


class Engine:
    """One engine. `differences` tells the agreement check how its answers may differ from SEARCH-SPEC: cause ->
    the report's words for it, most specific first (the causes are tested in agreement.py);
    `letter_differs(ch)` says which letters it folds otherwise than the spec (the "letters" cause)."""
    key = ""
    name = ""
    available = True
    why_not = ""
    can_answer = True
    differences = {}
    # True when the engine has no index and the size column shows the catalog JSON instead (the naive scan).
    index_is_catalog = False
    # The query sets it runs: "off" (keystroke sets, exact search), "auto" (typo sets: the typo pass).
    query_sets = ("off",)
    # The report's words for the shared causes (agreement.SHARED_CAUSES) where this engine has its own reason.
    shared_cause_words = {}
    # Whether its answers carry "mode" and, per movie, "typos" and "match" (compared when both sides have them).
    detailed = False

    @staticmethod
    def letter_differs(ch):
        return False

    def setup(self):
        pass

    # Whether it can answer under filters and count a facet (`Scripts/compare --filters`): moviesearch and FTS5.
    takes_filters = False

    def runs(self, entry):
        """Whether it runs the entry's query set."""
        if entry.get("filters") and not self.takes_filters:
            return False
        return entry.get("typos", "off") in self.query_sets

    @staticmethod
    def filter_options(entry):
        """The entry's filters and facet as options (`--genre G`…, `--year A..B`, `--facets genre`): moviesearch's
        `bench` and `query` and fts5.py's `bench` spell them alike."""
        options = []
        for genre in entry.get("filters", {}).get("genre", []):
            options += ["--genre", genre]
        if entry.get("filters", {}).get("year"):
            options += ["--year", entry["filters"]["year"]]
        if entry.get("facets"):
            options += ["--facets", "genre"]
        return options

    def index_id(self, entry):
        """What names the index `build` makes for an entry: a typo set queries its catalog's index, built once."""
        return f"{self.key}:{base_name(entry)}"

    def build(self, entry):
        """Returns {"build_s", "build_rss_bytes"?, ...}."""
        raise NotImplementedError

    def bench(self, entry, passes, per_year, max_seconds, answers_path):
        """Returns the figures (keys of `moviesearch bench --json`) and writes the answers."""
        raise NotImplementedError

    def answers(self, entry, queries_path, per_year, answers_path):
        """Answers only (for full match sets)."""
        raise NotImplementedError


class MovieSearch(Engine):
    takes_filters = True
    key = "moviesearch"
    name = "moviesearch"
    binary = os.path.join(ROOT, ".build", "release", "moviesearch")
    has_bench = True
    query_sets = ("off", "auto")
    detailed = True
    # Whether `query` and `bench` take `--typos auto|off` (found out in `setup`; without it they run in mode auto).
    has_typos_option = True
    # Whether `index` reads an IMDb pair (`--ratings`, `--title-types`; found out in `setup`): then it indexes a
    # generated pair's TSV files, else the pair converted to JSON (catalogs.convert_imdb).
    reads_imdb = False
    # Why it could not index a TSV pair though its `index` takes the options (the reader not written yet, say).
    imdb_failure = None

    # False when `--moviesearch-binary` names a binary to use as it is.
    builds = True

    def use_binary(self, path):
        """Time and check `path` rather than this checkout's release build."""
        self.binary, self.builds = path, False

    def setup(self):
        if self.builds:
            say("building moviesearch (swift build -c release)")
            try:
                run(["swift", "build", "-c", "release", "--product", "moviesearch"])
            except Failure as failure:
                self.available, self.why_not = False, f"swift build failed: {failure}"
                return
        elif not os.access(self.binary, os.X_OK):
            self.available, self.why_not = False, f"{self.binary} is not an executable file"
            return
        try:
            text, _, _ = run([self.binary, "bench", "--help"])
            self.has_typos_option = "--typos" in text
        except Failure:
            self.has_typos_option = False
        if not self.has_typos_option:
            say("moviesearch bench has no --typos option yet: keystroke queries run in its default mode")
        try:
            text, _, _ = run([self.binary, "index", "--help"])
            self.reads_imdb = all(option in text for option in ("--ratings", "--title-types", "--skip-invalid"))
        except Failure:
            self.reads_imdb = False
        # cache path -> data-row position -> position in the converted JSON, for caches built from a TSV pair
        self.row_maps = {}

    def typos_options(self, entry):
        return ["--typos", entry.get("typos", "off")] if self.has_typos_option else []

    def cache(self, entry):
        return os.path.join(WORK, f"{base_name(entry)}.mscache")

    def index_id(self, entry):
        return self.cache(entry)

    def build(self, entry):
        if os.path.exists(self.cache(entry)):
            os.remove(self.cache(entry))
        self.row_maps.pop(self.cache(entry), None)
        if "tsv" in entry and self.reads_imdb:
            basics, ratings = entry["tsv"]
            try:
                _, elapsed, rss = run([self.binary, "index", basics, "--ratings", ratings, "--title-types", "all",
                                       "--skip-invalid", "-o", self.cache(entry)])
                with open(entry["ids"]) as file:
                    self.row_maps[self.cache(entry)] = {row: id for id, row in enumerate(json.load(file))}
                return {"build_s": elapsed, "build_rss_bytes": rss, "cache_bytes": os.path.getsize(self.cache(entry))}
            except Failure as failure:
                self.imdb_failure = str(failure).splitlines()[0][:300]
                say(f"moviesearch could not index the TSV pair ({self.imdb_failure}): it indexes the pair "
                    f"converted to JSON, as the anchors do")
        elif "tsv" in entry:
            say("moviesearch index does not read IMDb TSV (no --ratings/--title-types): it indexes the pair "
                "converted to JSON, as the anchors do")
        _, elapsed, rss = run([self.binary, "index", entry["catalog"], "-o", self.cache(entry)])
        if not os.path.exists(self.cache(entry)):
            raise Failure(f"`moviesearch index` wrote no {self.cache(entry)}")
        return {"build_s": elapsed, "build_rss_bytes": rss, "cache_bytes": os.path.getsize(self.cache(entry))}

    def bench(self, entry, passes, per_year, max_seconds, answers_path):
        figures = None
        if self.has_bench:
            try:
                text, _, rss = run([self.binary, "bench", "--cache", self.cache(entry), "--queries", entry["queries"],
                                    "--per-year", str(per_year), "--passes", str(passes), "--json",
                                    *self.typos_options(entry), *self.filter_options(entry)])
                figures = last_json(text)
                figures.setdefault("peak_rss_bytes", rss)
                figures.setdefault("passes", passes)
            except Failure as failure:
                self.has_bench = False
                self.bench_failure = str(failure)
                say(f"moviesearch bench is not available yet ({str(failure).splitlines()[0]}): timing figures "
                    f"for moviesearch are left out")
        if self.can_answer:
            try:
                self.answers(entry, entry["queries"], per_year, answers_path)
            except Failure as failure:
                self.can_answer = False
                self.answer_failure = str(failure)
                say(f"moviesearch query --stdin failed ({str(failure).splitlines()[0]}): the Python SEARCH-SPEC "
                    f"reference stands in for the agreement check")
        return figures

    def answers(self, entry, queries_path, per_year, answers_path):
        run([self.binary, "query", "--stdin", "--cache", self.cache(entry), "--per-year", str(per_year),
             *self.typos_options(entry), *self.filter_options(entry)], stdin_path=queries_path,
            stdout_path=answers_path)
        wanted, got = len(common.read_queries(queries_path)), len(common.read_answers(answers_path))
        if got != wanted:
            raise Failure(f"`moviesearch query --stdin` printed {got} answers for {wanted} queries")
        if self.cache(entry) in self.row_maps:
            self.map_rows(answers_path, self.row_maps[self.cache(entry)])

    @staticmethod
    def map_rows(answers_path, row_map):
        """Rewrites the ids of answers from a cache built from a TSV pair (data-row positions) as positions in the
        converted JSON the anchors read (catalogs.convert_imdb); a row the conversion left out is a failure."""
        mapped = []
        for answer in common.read_answers(answers_path):
            for year in answer["years"]:
                for movie in year["movies"]:
                    if movie["id"] not in row_map:
                        raise Failure(f"moviesearch lists data row {movie['id']} for `{answer['query']}`, a row the "
                                      f"conversion to JSON left out (no startYear or no title)")
                    movie["id"] = row_map[movie["id"]]
            mapped.append(json.dumps(answer, ensure_ascii=False, separators=(",", ":")))
        with open(answers_path, "w", encoding="utf-8") as out:
            out.writelines(line + "\n" for line in mapped)


class CommandEngine(Engine):
    """An engine benchmarked by one command that prints the figures as its last JSON line and writes its answers
    (the Python anchors and the naive scan); `answers` is a bench of no timed pass."""

    def bench_command(self, entry, queries_path, passes, per_year, answers_path):
        raise NotImplementedError

    def bench(self, entry, passes, per_year, max_seconds, answers_path, queries_path=None):
        command = self.bench_command(entry, queries_path or entry["queries"], passes, per_year, answers_path)
        if max_seconds:
            command += ["--max-seconds", str(max_seconds)]
        text, _, _ = run(command)
        return last_json(text)

    def answers(self, entry, queries_path, per_year, answers_path):
        self.bench(entry, 0, per_year, None, answers_path, queries_path)


class PythonAnchor(CommandEngine):
    """A Python script with `build` and `bench` commands (common.add_bench_arguments), printing its figures as one
    JSON line: fts5.py, tantivy_anchor.py."""
    script = ""
    store_option = ""
    bench_options = []  # more options for the script's `bench`: a mode of an existing anchor is a subclass

    def python(self):
        return sys.executable

    def store(self, entry):
        raise NotImplementedError

    def index_id(self, entry):
        return self.store(entry)

    def build(self, entry):
        text, _, rss = run([self.python(), self.script, "build", "--catalog", entry["catalog"],
                            self.store_option, self.store(entry)])
        result = last_json(text)
        result["build_s"] = result.pop("build_ms") / 1000
        result.setdefault("build_rss_bytes", rss)
        return result

    def bench_command(self, entry, queries_path, passes, per_year, answers_path):
        return [self.python(), self.script, "bench", self.store_option, self.store(entry),
                "--queries", queries_path, "--passes", str(passes),
                "--per-year", str(per_year), "--answers", answers_path, *self.bench_options,
                *(self.filter_options(entry) if self.takes_filters else [])]


class FTS5(PythonAnchor):
    key = "fts5"
    name = "SQLite FTS5"
    takes_filters = True
    script = os.path.join(BENCH, "fts5.py")
    store_option = "--db"
    differences = {
        "joined": "joined words (SEARCH-SPEC step 6): no token for `Spider-Man` as `spiderman`, so `spiderm` or "
                  "`xmen` miss what the spec finds",
        "compatibility": "compatibility characters (`½`, ligatures, superscripts): the spec's NFKD cuts `9½` into "
                         "`9 1 2`; unicode61 keeps `½` whole",
        "letters": "letters beyond ASCII: unicode61 folds case one character to one (`ß` stays `ß`, the spec's full "
                   "case folding gives `ss`)",
        "apostrophe": "apostrophes: unicode61 cuts \"Don't\" into the tokens `don` and `t` (so `t` or `s` find it), "
                      "and a query piece `\"don't\"*` is the phrase `don` + `t*`; the spec deletes apostrophes "
                      "(`dont`)",
        "punctuation": "punctuation inside a query word (`g.i.`, `x-m`, `a-t`): the quoted piece becomes a phrase of "
                       "adjacent tokens, whereas the spec ANDs `g` and `i` as separate prefixes anywhere in the title",
    }

    @staticmethod
    def letter_differs(ch):
        return ch.casefold() != ch.lower()  # unicode61 folds one character to one: `ß` stays `ß`

    def store(self, entry):
        return os.path.join(WORK, f"{base_name(entry)}.sqlite")


class Tantivy(PythonAnchor):
    key = "tantivy"
    name = "tantivy"
    script = os.path.join(BENCH, "tantivy_anchor.py")
    store_option = "--index"
    venv = os.path.join(WORK, "venv")
    differences = {
        "joined": "joined words (SEARCH-SPEC step 6): no token for `Spider-Man` as `spiderman`, so `spiderm` or "
                  "`xmen` miss what the spec finds",
        "compatibility": "compatibility characters (`½`, ligatures): no NFKD in tantivy's analyzers",
        "letters": "letters beyond ASCII: ascii_fold also folds letters that have no decomposition (`Æ` → `ae`, "
                   "`ø` → `o`, `ł` → `l`), which the spec keeps (`æ`, `ø`, `ł`)",
        "apostrophe": "apostrophes: the analyzer keeps them inside tokens (`don't`), so `it'` or `god'` must match an "
                      "apostrophe and `dont` or `its` miss \"Don't\" and \"It's\"; the spec deletes them",
    }

    @staticmethod
    def letter_differs(ch):
        """A letter that ascii_fold turns into ASCII while SEARCH-SPEC keeps it (`ø`, `æ`, `ł`: no decomposition)."""
        return not ch.isascii() and ch.isalpha() and not "".join(
            c for c in unicodedata.normalize("NFKD", ch) if unicodedata.category(c) != "Mn").isascii()

    def python(self):
        return os.path.join(self.venv, "bin", "python")

    def store(self, entry):
        return os.path.join(WORK, f"{base_name(entry)}.tantivy")

    def setup(self):
        check = [self.python(), "-c", "import tantivy"]
        if os.path.exists(self.python()) and subprocess.run(check, capture_output=True).returncode == 0:
            return
        say(f"installing {TANTIVY_REQUIREMENT} into {os.path.relpath(self.venv, ROOT)} (python -m venv, pip; once)")
        try:
            run([sys.executable, "-m", "venv", self.venv])
            run([self.python(), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                 TANTIVY_REQUIREMENT])
        except Failure as failure:
            self.available, self.why_not = False, f"could not install tantivy: {failure}"


class TantivyFuzzy(Tantivy):
    """tantivy's typo mode: tantivy_anchor.py bench --fuzzy (FuzzyTermQuery, prefix=True, the spec's budgets), on
    the typo query sets; the same index as the tantivy anchor."""
    key = "tantivy-fuzzy"
    name = "tantivy fuzzy"
    bench_options = ["--fuzzy"]
    query_sets = ("auto",)
    differences = {
        "first letter": "the first letter: tantivy's Levenshtein automaton may edit it too (substitute, drop or swap "
                        "it); the spec wants the first scalars of the query word and the title word equal",
        **Tantivy.differences,
    }
    shared_cause_words = {
        "order": "same matches, other movies listed: the fuzzy query scores no typo count, so a year lists its "
                 "movies in the exact order (rating, id) rather than fewest typos first",
    }


class Naive(CommandEngine):
    key = "naive"
    name = "naive Swift scan"
    source = os.path.join(SCRIPTS, "naive-scan.swift")
    binary = os.path.join(WORK, "naive-scan")
    index_is_catalog = True
    differences = {
        "joined": "joined words (SEARCH-SPEC step 6): no token for `Spider-Man` as `spiderman`, so `spiderm` or "
                  "`xmen` miss what the spec finds",
        "compatibility": "compatibility characters (`½`, ligatures): Foundation's folding does not decompose them as "
                         "NFKD does",
        "letters": "letters beyond ASCII: Foundation's folding differs from NFKD + full case folding",
    }

    @staticmethod
    def letter_differs(ch):
        return not ch.isascii() and ch.isalpha()

    def setup(self):
        if os.path.exists(self.binary) and os.path.getmtime(self.binary) >= os.path.getmtime(self.source):
            return
        say("compiling Scripts/naive-scan.swift (swiftc -O)")
        try:
            run(["swiftc", "-O", self.source, "-o", self.binary])
        except Failure as failure:
            self.available, self.why_not = False, f"swiftc failed: {failure}"

    def build(self, entry):
        return {"build_s": None, "cache_bytes": os.path.getsize(entry["catalog"])}

    def bench_command(self, entry, queries_path, passes, per_year, answers_path):
        return [self.binary, "--catalog", entry["catalog"], "--queries", queries_path,
                "--passes", str(passes), "--per-year", str(per_year), "--answers", answers_path]


class Reference(Engine):
    """The Python SEARCH-SPEC reference (Scripts/bench/reference.py), in its own process: not timed, always run, the
    second opinion on moviesearch and its stand-in when moviesearch cannot answer."""
    key = "reference"
    name = "Python SEARCH-SPEC reference"
    script = os.path.join(BENCH, "reference.py")
    query_sets = ("off", "auto")
    detailed = True
    differences = {
        "compatibility": "compatibility characters (Unicode versions may differ)",
        "letters": "letters beyond ASCII (Unicode versions may differ)",
    }

    @staticmethod
    def letter_differs(ch):
        return not ch.isascii()

    def answers(self, entry, queries_path, per_year, answers_path):
        # Full match sets (a per-year K of a million or more) need ids only: spans of every match would be slow.
        run([sys.executable, self.script, "--catalog", entry["catalog"], "--queries", queries_path,
             "--per-year", str(per_year), "--answers", answers_path, "--typos", entry.get("typos", "off"),
             *(["--ids-only"] if per_year >= common.EVERYTHING else [])])


# The engines `--engines` can name, in the order they run and appear in the report.
ALL = [MovieSearch, FTS5, Tantivy, TantivyFuzzy, Naive]
BY_KEY = {engine.key: engine for engine in [*ALL, Reference]}


def name_of(key):
    """The report's name for an engine."""
    return BY_KEY[key].name
