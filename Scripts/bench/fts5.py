#!/usr/bin/env python3
"""SQLite FTS5 anchor, through Python's sqlite3.

    fts5.py build --catalog movies.json --db movies.sqlite
    fts5.py bench --db movies.sqlite --queries queries.txt [--passes 5] [--per-year 5] [--answers out.jsonl]
                  [--genre NAME]... [--year Y|A..B|A..|..B] [--facets genre]

Build (timed in-process, from reading the JSON to the closed file): one FTS5 table
`movies(title, year UNINDEXED, rating UNINDEXED, cast UNINDEXED, genres UNINDEXED)` with
`tokenize='unicode61 remove_diacritics 2'`, rowid = movie id, cast and genres as JSON arrays, filled in one
transaction, then `optimize` (one b-tree per index) and `VACUUM`, as one would ship a read-only index. The database
holds what the moviesearch cache holds (the whole catalog: an app shows a movie's details from it), so their sizes
compare like for like. Journal and sync are off while building: the file is written under a temporary name and
renamed. For reference, the build also writes a database of the search columns only (title, year, rating) and
reports its size as `search_only_bytes`; it is not timed and is deleted again.

Query, as an app would write it: the query is cut at white space and every piece becomes a quoted prefix term,
`"piece"*` (FTS5 then cuts the piece with the table's tokenizer: `"don't"*` is the phrase `don` + `t*`), ANDed;
a query with no letter or digit lists every movie. One statement gives the top K per year and the per-year counts:

    SELECT year, n, rowid FROM (
        SELECT rowid, year, row_number() OVER w AS rank, count(*) OVER (PARTITION BY year) AS n
        FROM movies WHERE movies MATCH ?
        WINDOW w AS (PARTITION BY year ORDER BY rating IS NULL, rating DESC, rowid))
    WHERE rank <= ? ORDER BY year DESC, rank

Filters (`Scripts/compare --filters`), as an app would add them to the same statement: `year BETWEEN ? AND ?` and,
for each genre, `EXISTS (SELECT 1 FROM json_each(genres) WHERE value = ?)` (the genre as the catalog spells it:
moviesearch also folds case, accents and spacing). `--facets genre` runs a second statement per query, the facet as
SQL writes it: `SELECT value, count(*) FROM movies, json_each(movies.genres) WHERE <the same> GROUP BY value`.

Timed per query: building the MATCH text, running the statement (sqlite3 caches it prepared), fetching the rows
and grouping them into the answer. Open: connect and load the schema (first statement on the table).
"""

import argparse
import json
import os
import sqlite3
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

TOKENIZER = "unicode61 remove_diacritics 2"
WINDOW = """
    SELECT year, n, rowid FROM (
        SELECT rowid, year, row_number() OVER w AS rank, count(*) OVER (PARTITION BY year) AS n
        FROM movies {where}
        WINDOW w AS (PARTITION BY year ORDER BY rating IS NULL, rating DESC, rowid))
    WHERE rank <= ? ORDER BY year DESC, rank
"""
SEARCH = WINDOW.format(where="WHERE movies MATCH ?")
BROWSE = WINDOW.format(where="")
FACET = "SELECT value, count(*) AS n FROM movies, json_each(movies.genres) {where} GROUP BY value ORDER BY n DESC, value"


def filter_conditions(genres, years):
    """The SQL conditions and their parameters of `--genre`s and `--year` (`(lowest, highest)`, either None)."""
    conditions, parameters = [], []
    lowest, highest = years
    if lowest is not None:
        conditions.append("year >= ?")
        parameters.append(lowest)
    if highest is not None:
        conditions.append("year <= ?")
        parameters.append(highest)
    for genre in genres:
        conditions.append("EXISTS (SELECT 1 FROM json_each(movies.genres) WHERE value = ?)")
        parameters.append(genre)
    return conditions, parameters


def year_range(text):
    """`Y`, `A..B`, `A..`, `..B` -> (lowest, highest)."""
    if text is None:
        return None, None
    if ".." not in text:
        return int(text), int(text)
    low, high = text.split("..", 1)
    return (int(low) if low else None), (int(high) if high else None)


def write_database(path, movies, details):
    temporary = path + ".tmp"
    if os.path.exists(temporary):
        os.remove(temporary)
    connection = sqlite3.connect(temporary)
    connection.execute("PRAGMA journal_mode = OFF")
    connection.execute("PRAGMA synchronous = OFF")
    columns = "title, year UNINDEXED, rating UNINDEXED" + (", cast UNINDEXED, genres UNINDEXED" if details else "")
    connection.execute(f"CREATE VIRTUAL TABLE movies USING fts5({columns}, tokenize = '{TOKENIZER}')")
    with connection:
        if details:
            connection.executemany(
                "INSERT INTO movies(rowid, title, year, rating, cast, genres) VALUES (?, ?, ?, ?, ?, ?)",
                ((id, title, year, rating, json.dumps(cast, ensure_ascii=False), json.dumps(genres, ensure_ascii=False))
                 for id, (title, year, rating, cast, genres) in enumerate(movies)))
        else:
            connection.executemany("INSERT INTO movies(rowid, title, year, rating) VALUES (?, ?, ?, ?)",
                                   ((id, movie[0], movie[1], movie[2]) for id, movie in enumerate(movies)))
        connection.execute("INSERT INTO movies(movies) VALUES ('optimize')")
    connection.execute("VACUUM")
    connection.close()
    os.replace(temporary, path)


def build(args):
    started = time.perf_counter_ns()
    movies = common.load_catalog(args.catalog, details=True)
    write_database(args.db, movies, details=True)
    elapsed = time.perf_counter_ns() - started
    rss = common.peak_rss_bytes()
    search_only = args.db + ".search-only"
    write_database(search_only, movies, details=False)
    search_only_bytes = os.path.getsize(search_only)
    os.remove(search_only)
    common.print_json({"movies": len(movies), "build_ms": elapsed / 1e6, "cache_bytes": os.path.getsize(args.db),
                       "search_only_bytes": search_only_bytes, "build_rss_bytes": rss})


def match_expression(query):
    """`dark kni` -> `"dark"* "kni"*`; None when the query has no letter or digit (browse mode)."""
    pieces = ['"' + piece.replace('"', '""') + '"*' for piece in query.split() if any(ch.isalnum() for ch in piece)]
    return " ".join(pieces) if pieces else None


def bench(args):
    queries = common.read_queries(args.queries)
    started = time.perf_counter_ns()
    connection = sqlite3.connect(f"file:{args.db}?mode=ro", uri=True, cached_statements=16)
    connection.execute("SELECT rowid FROM movies LIMIT 0").fetchall()
    open_ns = time.perf_counter_ns() - started
    execute = connection.execute
    per_year = args.per_year
    conditions, parameters = filter_conditions(args.genre or [], year_range(args.year))

    def statement(template, matching):
        """`template` with the MATCH (when `matching`) and the filters as its WHERE clause."""
        where = (["movies MATCH ?"] if matching else []) + conditions
        return template.format(where=("WHERE " + " AND ".join(where)) if where else "")

    search_statement, browse_statement = statement(WINDOW, True), statement(WINDOW, False)
    facet_statement, facet_all_statement = statement(FACET, True), statement(FACET, False)

    def search(query):
        expression = match_expression(query)
        if expression:
            rows = execute(search_statement, (expression, *parameters, per_year))
        else:
            rows = execute(browse_statement, (*parameters, per_year))
        if args.facets:
            facet = execute(facet_statement, (expression, *parameters)) if expression \
                else execute(facet_all_statement, tuple(parameters))
            facet.fetchall()
        groups = []
        total = 0
        for year, count, id in rows:
            if not groups or groups[-1][0] != year:
                groups.append((year, count, []))
                total += count
            groups[-1][2].append(id)
        return total, groups

    samples, passes = common.time_queries(queries, search, args.passes, args.max_seconds, args.answers)
    common.print_json(common.figures(len(queries), samples, passes, open_ns, os.path.getsize(args.db),
                                     sqlite_version=sqlite3.sqlite_version))


def main():
    parser = argparse.ArgumentParser(description="SQLite FTS5 anchor of Scripts/compare.")
    commands = parser.add_subparsers(dest="command", required=True)
    build_command = commands.add_parser("build")
    build_command.add_argument("--catalog", required=True)
    build_command.add_argument("--db", required=True)
    bench_command = commands.add_parser("bench")
    bench_command.add_argument("--db", required=True)
    bench_command.add_argument("--genre", action="append", help="keep the movies with this genre (repeatable)")
    bench_command.add_argument("--year", help="keep the movies of year Y or of the years A..B (A.. and ..B too)")
    bench_command.add_argument("--facets", choices=["genre"], help="also count the matches' genres")
    common.add_bench_arguments(bench_command)
    args = parser.parse_args()
    build(args) if args.command == "build" else bench(args)


if __name__ == "__main__":
    main()
