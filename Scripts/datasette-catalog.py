#!/usr/bin/env python3
"""A SQLite database of a movie catalog for Datasette, and the metadata.json of a canned grouped search on it.

    Scripts/datasette-catalog.py CATALOG.json --db OUT.db --metadata OUT-metadata.json

Scripts/bench-serve's Datasette comparison: `datasette serve OUT.db --metadata OUT-metadata.json` then answers
GET /<db>/search.json?q=<query>&_shape=array, the canned query `search`: the movies whose title matches every word
of the query as a prefix (FTS5: each word quoted, then `*`), counted by year, newest year first, what
`moviesearch serve`'s /api/search groups its answer by (without the listed movies).

CATALOG is the project's JSON (`{"movies": [...]}`, ../shared/data/movies.json) or a top-level array of movies
(../shared/data/century-movies.json); each movie's id is its position in the catalog. Tables:
- movies(id INTEGER PRIMARY KEY, title TEXT, year INTEGER, rating REAL): rating NULL where the catalog has none;
- movies_fts: FTS5 on title (external content: movies; tokenizer `unicode61 remove_diacritics 2`, the one
  Scripts/bench/fts5.py uses), rowid = movies.id.
Python's sqlite3 only (FTS5 is in its SQLite); the output files are replaced.
"""

import argparse
import json
import os
import sqlite3
import sys

# A query's words become `"word"*` each (quotes doubled), joined by spaces: all must match, each as a prefix.
# An empty query (or spaces only) becomes `""`, which matches nothing (FTS5 refuses an empty MATCH string).
CANNED_SQL = """
with words(rest, phrase) as (
    select trim(:q) || ' ', ''
    union all
    select ltrim(substr(rest, instr(rest, ' ') + 1)),
           phrase || case when instr(rest, ' ') = 1 then ''
                          else '"' || replace(substr(rest, 1, instr(rest, ' ') - 1), '"', '""') || '"* ' end
    from words where rest != ''
), pattern as (
    select trim(phrase) as text from words where rest = '' and trim(phrase) != ''
)
select movies.year as year, count(*) as count
from movies_fts join movies on movies.id = movies_fts.rowid
where movies_fts match coalesce((select text from pattern), '""')
group by movies.year
order by movies.year desc
""".strip()


def movies_of(path):
    with open(path, encoding="utf-8") as handle:
        document = json.load(handle)
    movies = document["movies"] if isinstance(document, dict) else document
    if not isinstance(movies, list):
        sys.exit(f"datasette-catalog: {path}: no list of movies")
    return movies


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("catalog")
    parser.add_argument("--db", required=True, help="the SQLite database to write")
    parser.add_argument("--metadata", required=True, help="the Datasette metadata.json to write")
    args = parser.parse_args()

    movies = movies_of(args.catalog)
    if os.path.exists(args.db):
        os.remove(args.db)
    connection = sqlite3.connect(args.db)
    connection.executescript("""
        PRAGMA journal_mode = OFF;
        PRAGMA synchronous = OFF;
        CREATE TABLE movies(id INTEGER PRIMARY KEY, title TEXT NOT NULL, year INTEGER, rating REAL);
        CREATE INDEX movies_year ON movies(year);
        CREATE VIRTUAL TABLE movies_fts USING fts5(title, content = 'movies', content_rowid = 'id',
            tokenize = 'unicode61 remove_diacritics 2');
    """)
    rows = [(position, str(movie.get("title", "")), movie.get("year"), movie.get("rating"))
            for position, movie in enumerate(movies)]
    with connection:
        connection.executemany("INSERT INTO movies(id, title, year, rating) VALUES (?, ?, ?, ?)", rows)
        connection.execute("INSERT INTO movies_fts(movies_fts) VALUES ('rebuild')")
        connection.execute("INSERT INTO movies_fts(movies_fts) VALUES ('optimize')")
    # A smoke check of the canned query, so that a broken pattern fails here and not as 400s under load.
    connection.execute(CANNED_SQL, {"q": "the"}).fetchall()
    connection.close()

    name = os.path.splitext(os.path.basename(args.db))[0]
    metadata = {
        "title": "moviesearch catalog (Scripts/datasette-catalog.py)",
        "databases": {name: {"queries": {"search": {
            "sql": CANNED_SQL,
            "title": "Titles matching every word as a prefix, counted by year",
        }}}},
    }
    with open(args.metadata, "w", encoding="utf-8") as handle:
        json.dump(metadata, handle, indent=2)
        handle.write("\n")
    print(f"datasette-catalog: {len(rows):,} movies into {args.db} (database '{name}', canned query 'search')")


if __name__ == "__main__":
    main()
