"""The report of Scripts/compare: the agreement lines and the speed tables as Markdown, the machine and the code they
ran on, and the notes; `save_report` writes it with the raw figures into .build-compare/.
"""

import json
import os
import platform
import subprocess
import sys

from agreement import EXPLAINED_QUERIES, cause_text
from engines import BY_KEY, TANTIVY_REQUIREMENT, name_of
from harness import ROOT, WORK


def render(catalogs, engines, results, agreements, passes, args, started_at, load_before):
    """The whole report. `engines`: key -> the engines set up (those left out are named in the notes); `results`:
    one row per catalog and engine (its build and bench figures, or `error`); `agreements`: (catalog name,
    result of agreement.agreements_for)."""
    lines = []
    typo_sets = [catalog for catalog in catalogs if catalog.get("typos") == "auto"]
    title = "moviesearch vs SQLite FTS5, tantivy and a naive scan" + ("; typo mode vs tantivy fuzzy" if typo_sets
                                                                      else "")
    lines.append(f"## {title} ({started_at:%Y-%m-%d %H:%M})")
    lines.append("")
    lines.append(f"Machine: {machine_text()}. Load average {load_before[0]:.2f} at the start, "
                 f"{os.getloadavg()[0]:.2f} at the end.")
    binary = getattr(engines.get("moviesearch"), "binary", "")
    built_here = getattr(engines.get("moviesearch"), "builds", True)
    lines.append(f"Code: {git_text()}" + ("" if built_here else f"; moviesearch binary: {binary}") +
                 f". Command: `Scripts/compare {' '.join(sys.argv[1:])}`.")
    lines.append("")
    lines.append("### Agreement (per query: total, years, per-year counts, the listed ids; where both sides print "
                 "them, the mode and each listed movie's typos and match spans)")
    lines.append("")
    for catalog in catalogs:
        lines.append(f"**{catalog['name']}** ({catalog['movies']:,} movies, {catalog['query_count']:,} queries)")
        lines.append("")
        lines.extend(agreement_text(result) for name, result in agreements if name == catalog["name"])
        lines.append("")

    lines.append("### Speed (in-process per query, warm, over every keystroke query)")
    lines.append("")
    lines.append("| catalog | engine | build | index size | open | p50 | p99 | moviesearch faster by (p50 / p99) |")
    lines.append("|---|---|---:|---:|---:|---:|---:|---:|")
    for catalog in catalogs:
        if catalog in typo_sets:
            continue
        rows = [row for row in results if row["catalog"] == catalog["name"]]
        base = next((row for row in rows if row["engine"] == "moviesearch" and "p50_us" in row), None)
        for row in rows:
            name = name_of(row["engine"])
            if "error" in row:
                lines.append(f"| {catalog['name']} | {name} | failed: {row['error'].splitlines()[0][:80]} "
                             f"| | | | | |")
                continue
            size = bytes_text(row.get("cache_bytes"))
            if BY_KEY[row["engine"]].index_is_catalog:
                size = f"(JSON {size})"
            if row["engine"] == "moviesearch" and base is None:
                ratio = "bench not available"
            elif row["engine"] == "moviesearch":
                ratio = "1×"
            elif base:
                ratio = (f"{ratio_text(row.get('p50_us'), base['p50_us'])} / "
                         f"{ratio_text(row.get('p99_us'), base['p99_us'])}")
            else:
                ratio = "—"
            open_us = row.get("open_us")
            lines.append(f"| {catalog['name']} | {name} | {seconds_text(row.get('build_s'))} | {size} | "
                         f"{seconds_text(open_us / 1e6) if open_us is not None else '—'} | "
                         f"{micros_text(row.get('p50_us'))} | {micros_text(row.get('p99_us'))} | {ratio} |")
    lines.append("")
    if typo_sets:
        lines.extend(typo_table(typo_sets, results))
    lines.append("More figures (µs per query: p90, max, mean; queries per second; timed passes; peak memory of the "
                 "query process and of the build):")
    lines.append("")
    lines.append("| catalog | engine | p90 | max | mean | q/s | passes | peak RSS | build peak RSS |")
    lines.append("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for row in results:
        if "error" in row or "p50_us" not in row:
            continue
        lines.append(f"| {row['catalog']} | {name_of(row['engine'])} | {micros_text(row.get('p90_us'))} | "
                     f"{micros_text(row.get('max_us'))} | {micros_text(row.get('mean_us'))} | "
                     f"{row.get('qps', 0):,.0f} | {row.get('passes', '—')} | "
                     f"{bytes_text(row.get('peak_rss_bytes'))} | "
                     f"{bytes_text(row.get('build_rss_bytes'))} |")
    lines.append("")
    notes = [
        *([f"typo sets: {typo_sets[0]['query_count']:,} queries per catalog from `Scripts/generate-typo-queries.py "
           f"--seed {typo_sets[0]['typo_generate'][1]}`, none of which finds anything exactly; moviesearch runs "
           "them with `--typos auto` (an exact pass, then the typo pass), tantivy fuzzy with one "
           "FuzzyTermQuery(prefix=True, transposition cost 1, distance = the spec's budget) per query word, the "
           "typo pass alone; the keystroke sets run with " + (
               "`--typos off`." if getattr(engines.get("moviesearch"), "has_typos_option", True) else
               "moviesearch's default mode (this build has no `--typos` option), so a keystroke query that finds "
               "nothing exactly gets its typo answer there.")] if typo_sets else []),
        f"{passes} timed pass{'es' if passes != 1 else ''} after a warm-up pass (anchors stop early after a pass "
        f"once {args.max_seconds:g} s "
        f"of timed passes are spent: see the passes column); p50/p99 over every timed call, nearest rank.",
        "build: moviesearch = wall time of the `moviesearch index` process; FTS5 and tantivy = in-process, from "
        "reading the JSON to the closed database / committed index (without the interpreter's start-up). "
        "open: moviesearch = `bench`'s own figure; FTS5 = connect + schema; tantivy = Index.open + analyzer + "
        "searcher; naive = read the JSON, decode it and fold every title (the naive app's start-up).",
        "FTS5 and tantivy run in Python: each query also pays the interpreter and the binding (a trivial "
        "`SELECT 1` costs about 1.3 µs through sqlite3; an empty tantivy aggregation about 10 µs; building a "
        "prefix RegexQuery about 25–50 µs per query word, its DFA compiled each time) and the grouping into the "
        "answer; FTS5 groups inside SQLite (window functions), tantivy inside tantivy "
        "(a terms aggregation on the year with a terms sub-aggregation on the sort key). See the headers of "
        "Scripts/bench/fts5.py and tantivy_anchor.py.",
    ]
    search_only = [(row["catalog"], row["search_only_bytes"]) for row in results if row.get("search_only_bytes")]
    if search_only:
        notes.append("index size: moviesearch's cache holds the whole catalog (cast and genres too, for a movie's "
                     "details), and so does the FTS5 database (cast and genres as UNINDEXED JSON columns). An FTS5 "
                     "database of the search columns only (title, year, rating) takes " + ", ".join(
                         f"{bytes_text(size)} ({name})" for name, size in search_only) + ".")
    generated = [catalog for catalog in catalogs if "generate" in catalog]
    if generated:
        notes.append("generated catalogs: " + "; ".join(
            f"{catalog['name']} = `Scripts/generate-catalog.py --movies {catalog['generate'][0]} --seed 1 "
            f"--query-count {catalog['generate'][1]}`" for catalog in generated) + ".")
    imdb = [catalog for catalog in catalogs if "imdb_generate" in catalog]
    if imdb:
        moviesearch = engines.get("moviesearch")
        if getattr(moviesearch, "imdb_failure", None):
            indexed = f"the same JSON (indexing the TSV pair failed: {moviesearch.imdb_failure})"
        elif getattr(moviesearch, "reads_imdb", False):
            indexed = ("the TSV pair (`index title.basics.tsv --ratings title.ratings.tsv --title-types all "
                       "--skip-invalid`; its ids, data-row positions, mapped to the JSON's positions for the "
                       "agreement check)")
        else:
            indexed = "the same JSON (this build's `index` does not read IMDb TSV)"
        notes.append("IMDb pairs: " + "; ".join(
            f"{catalog['name']} = `Scripts/generate-imdb.py --rows {catalog['imdb_generate'][0]} --seed 1 "
            f"--query-count {catalog['imdb_generate'][1]}` ({catalog['movies']:,} of its rows have a startYear)"
            for catalog in imdb) + f". The anchors read the pair converted to JSON; moviesearch indexes {indexed}.")
    moviesearch = engines.get("moviesearch")
    if moviesearch is not None and not moviesearch.available:
        notes.append(f"moviesearch left out: {moviesearch.why_not.splitlines()[0]}")
    elif moviesearch is not None and not moviesearch.has_bench:
        notes.append("moviesearch `bench` is not available in this build (" +
                     getattr(moviesearch, "bench_failure", "").splitlines()[0] + "): its timing figures are "
                     "missing, so there are no ratios.")
    if moviesearch is not None and moviesearch.available and not moviesearch.can_answer:
        notes.append("moviesearch `query --stdin` failed (" + getattr(moviesearch, "answer_failure", "")
                     .splitlines()[0] + "): agreement is checked against the Python SEARCH-SPEC reference.")
    for engine in engines.values():
        if not engine.available and engine.key != "moviesearch":
            notes.append(f"{engine.name} left out: {engine.why_not.splitlines()[0]}")
    lines.append("Notes:")
    lines.extend(f"- {note}" for note in notes)
    return "\n".join(lines)


def typo_table(typo_sets, results):
    """The typo-mode figures: moviesearch (`bench --typos auto`) and tantivy fuzzy on each catalog's typo set."""
    lines = ["### Speed in typo mode (in-process per query, warm, over every typo query; none finds anything "
             "exactly)", "",
             "| catalog | engine | p50 | p90 | p99 | max | moviesearch faster by (p50 / p99) |",
             "|---|---|---:|---:|---:|---:|---:|"]
    for catalog in typo_sets:
        rows = [row for row in results if row["catalog"] == catalog["name"]]
        base = next((row for row in rows if row["engine"] == "moviesearch" and "p50_us" in row), None)
        for row in rows:
            name = name_of(row["engine"])
            if "error" in row:
                lines.append(f"| {catalog['base']} | {name} | failed: {row['error'].splitlines()[0][:80]} | | | | |")
                continue
            if row["engine"] == "moviesearch":
                ratio = "1×" if base else "bench not available"
            elif base:
                ratio = (f"{ratio_text(row.get('p50_us'), base['p50_us'])} / "
                         f"{ratio_text(row.get('p99_us'), base['p99_us'])}")
            else:
                ratio = "—"
            lines.append(f"| {catalog['base']} | {name} | {micros_text(row.get('p50_us'))} | "
                         f"{micros_text(row.get('p90_us'))} | {micros_text(row.get('p99_us'))} | "
                         f"{micros_text(row.get('max_us'))} | {ratio} |")
    lines.append("")
    return lines


def agreement_text(result):
    """One engine's agreement with the expected answers, and its differences by cause, most frequent first."""
    name, against = name_of(result["engine"]), name_of(result["against"])
    if "error" in result:
        return f"- {name} vs {against}: {result['error']}"
    compared = " (mode, typos and match spans compared too)" if result.get("details") else ""
    line = f"- {name} vs {against}{compared}: {result['identical']:,} of {result['answers']:,} answers identical"
    if result["identical"] == result["answers"]:
        return line + "."
    line += f" ({result['differing']:,} differ"
    if result["explained"] < result["differing"]:
        line += (f"; causes from {result['explained']:,} of them: the answers to {EXPLAINED_QUERIES} distinct "
                 f"queries, evenly spaced")
    line += "; an answer may show several causes):"
    lines = [line]
    for cause, count in sorted(result.get("causes", {}).items(), key=lambda item: -item[1]):
        text = cause_text(BY_KEY[result["engine"]], cause)
        example = result["examples"].get(cause)
        lines.append(f"  - {count:,} × {text}" + (f"; e.g. {example}" if example else ""))
    if "explain_error" in result:
        lines.append(f"  - (could not explain: {result['explain_error'].splitlines()[0]})")
    return "\n".join(lines)


def seconds_text(value):
    if value is None:
        return "—"
    if value >= 1:
        return f"{value:.2f} s"
    return f"{value * 1000:.1f} ms" if value >= 0.001 else f"{value * 1e6:.0f} µs"


def micros_text(value):
    if value is None:
        return "—"
    if value >= 10_000:
        return f"{value / 1000:,.1f} ms"
    return f"{value:,.1f} µs" if value < 100 else f"{value:,.0f} µs"


def bytes_text(value):
    if value is None:
        return "—"
    # Decimal units, as `moviesearch index` prints them (231.6 KB = 231,600 bytes).
    for unit, size in (("GB", 10 ** 9), ("MB", 10 ** 6), ("KB", 10 ** 3)):
        if value >= size:
            return f"{value / size:.1f} {unit}"
    return f"{value} B"


def ratio_text(value, base):
    if value is None or not base:
        return "—"
    ratio = value / base
    return f"{ratio:,.0f}×" if ratio >= 10 else f"{ratio:.1f}×"


def machine_text():
    model = ""
    try:
        with open("/proc/cpuinfo") as file:
            model = next((line.split(":", 1)[1].strip() for line in file if line.startswith("model name")), "")
    except OSError:
        pass
    memory = ""
    try:
        with open("/proc/meminfo") as file:
            kilobytes = int(next(line.split()[1] for line in file if line.startswith("MemTotal")))
            memory = f", {kilobytes / (1 << 20):.0f} GB RAM"
    except (OSError, StopIteration):
        pass
    swift = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.splitlines()
    import sqlite3
    return (f"{model or platform.processor()}, {os.cpu_count()} cores{memory}, {platform.system()} "
            f"{platform.release()}; {swift[0] if swift else 'swift ?'}; Python {platform.python_version()}, "
            f"SQLite {sqlite3.sqlite_version}; {TANTIVY_REQUIREMENT}")


def git_text():
    result = subprocess.run(["git", "-C", ROOT, "log", "-1", "--format=%h %s"], capture_output=True, text=True)
    dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True).stdout.strip()
    return result.stdout.strip() + (" (with uncommitted changes)" if dirty else "")


def save_report(text, results, agreements, started_at):
    """Writes the report and the raw figures as .build-compare/compare-<time>.md and .json; returns the .md path."""
    stamp = started_at.strftime("%Y%m%d-%H%M%S")
    with open(os.path.join(WORK, f"compare-{stamp}.md"), "w", encoding="utf-8") as out:
        out.write(text + "\n")
    with open(os.path.join(WORK, f"compare-{stamp}.json"), "w", encoding="utf-8") as out:
        json.dump({"results": results, "agreements": [{"catalog": name, **result} for name, result in agreements]},
                  out, ensure_ascii=False, indent=1)
    return os.path.join(WORK, f"compare-{stamp}.md")
