"""The catalogs Scripts/compare runs on: named data sets from ../shared, and generated ones named by their size.

A catalog is a dict: `name`, `catalog` (the JSON file), `queries` (one query per line), `typos` (the mode the
queries run in: `off` for the keystroke sets, `auto` for the typo sets), for a generated one `generate` = (movies,
queries), and once `prepare`d, `movies` and `query_count`. A typo set (`typo_entry`) is a catalog of its own named
`<catalog> typos`, with the catalog's file, `base` = the catalog's name (engines share the catalog's index) and
`typo_generate` = (count, seed): its queries come from Scripts/generate-typo-queries.py, they find nothing exactly.

A generated IMDb pair (`imdb1m`, `imdb100k`: Scripts/generate-imdb.py, seed 1, plain TSV) also has `tsv` =
(title.basics.tsv, title.ratings.tsv), `ids` (a JSON array: the data-row position of each movie of `catalog`) and
`imdb_generate` = (rows, queries). Its `catalog` is the pair converted to the project's JSON shape, for the anchors:
the rows `moviesearch index --title-types all --skip-invalid` keeps (those with a startYear), in file order, with
`title` = primaryTitle, `year` = startYear, `rating` = averageRating (joined on tconst; none when unrated) and
`genres`. The anchors' ids are positions in that JSON; moviesearch indexes the TSV pair itself (when its `index`
takes --ratings) and its ids, the data-row positions, are mapped to those positions through `ids` before the
agreement check (engines.MovieSearch): an order-preserving map, so "id ascending" orders alike on both sides.

To add a data set: one line in NAMED (its catalog and queries, relative to ../shared). A catalog that must be made
first (converted, downloaded) gets a step in `prepare_catalog`, as the generated ones do, and its own key in the dict.
"""

import json
import os
import re
import sys

import common
from harness import ROOT, SCRIPTS, SHARED, WORK, run, say

# name -> (catalog, queries), relative to ../shared.
NAMED = {
    "decade": ("data/movies.json", "queries/decade-typing.txt"),
    "century": ("data/century-movies.json", "queries/century-typing.txt"),
}


def catalogs_from(names, generated_queries):
    """The catalogs named on the command line, in their order; a size (`100k`, `1m`, `250000`) names a generated
    catalog with `generated_queries` keystroke queries. Exits with a message for a name it does not know."""
    catalogs = []
    for name in names:
        imdb = re.fullmatch(r"imdb(\d+)([km]?)", name.lower())
        if imdb:
            rows = int(imdb.group(1)) * {"": 1, "k": 1000, "m": 1_000_000}[imdb.group(2)]
            folder = os.path.join(WORK, f"imdb-{rows}-seed1")
            catalogs.append({"name": name, "catalog": os.path.join(folder, "catalog.json"),
                             "ids": os.path.join(folder, "catalog.ids.json"),
                             "tsv": (os.path.join(folder, "title.basics.tsv"),
                                     os.path.join(folder, "title.ratings.tsv")),
                             "queries": os.path.join(folder, f"queries-{generated_queries}.txt"),
                             "imdb_generate": (rows, generated_queries), "typos": "off"})
            continue
        if name in NAMED:
            catalog, queries = NAMED[name]
            catalogs.append({"name": name, "catalog": os.path.join(SHARED, catalog),
                             "queries": os.path.join(SHARED, queries), "typos": "off"})
            continue
        match = re.fullmatch(r"(\d+)([km]?)", name.lower())
        if not match:
            sys.exit(f"compare: unknown catalog '{name}' ({', '.join(NAMED)}, a size such as 100k, 1m, 250000, or "
                     f"an IMDb pair such as imdb1m)")
        movies = int(match.group(1)) * {"": 1, "k": 1000, "m": 1_000_000}[match.group(2)]
        stem = os.path.join(WORK, f"generated-{movies}-seed1")
        catalogs.append({"name": name, "catalog": stem + ".json", "queries": stem + f"-{generated_queries}q.txt",
                         "generate": (movies, generated_queries), "typos": "off"})
    return catalogs


def typo_entry(entry, count, seed):
    """The typo query set of a catalog: `count` queries of Scripts/generate-typo-queries.py with `seed`, run in mode
    `auto` (all of them find nothing exactly, so every answer is the typo pass's)."""
    stem = os.path.splitext(os.path.basename(entry["catalog"]))[0]
    return {"name": f"{entry['name']} typos", "base": entry["name"], "catalog": entry["catalog"],
            "queries": os.path.join(WORK, f"{stem}.typos-seed{seed}-{count}q.txt"), "typos": "auto",
            "typo_generate": (count, seed)}


def base_name(entry):
    """The name of the catalog whose index an entry queries: its own, or for a typo set its catalog's."""
    return entry.get("base", entry["name"])


def prepare_catalog(entry):
    """Generates the catalog and its queries if it is a generated one not made yet (Scripts/generate-catalog.py,
    seed 1, into .build-compare/), a typo set's queries if not made yet (Scripts/generate-typo-queries.py), checks
    both files exist, and counts the movies and the queries."""
    if "generate" in entry:
        movies, query_count = entry["generate"]
        if not (os.path.exists(entry["catalog"]) and os.path.exists(entry["queries"])):
            say(f"generating {movies:,} movies and {query_count:,} queries into {os.path.relpath(WORK, ROOT)}/")
            run([sys.executable, os.path.join(SCRIPTS, "generate-catalog.py"), "--movies", str(movies), "--seed", "1",
                 "--output", entry["catalog"], "--queries", entry["queries"], "--query-count", str(query_count)])
    if "imdb_generate" in entry:
        rows, query_count = entry["imdb_generate"]
        folder = os.path.dirname(entry["catalog"])
        if not all(os.path.exists(path) for path in (*entry["tsv"], entry["queries"])):
            say(f"generating an IMDb pair of {rows:,} rows and {query_count:,} queries into "
                f"{os.path.relpath(folder, ROOT)}/")
            run([sys.executable, os.path.join(SCRIPTS, "generate-imdb.py"), "--rows", str(rows), "--seed", "1",
                 "--output-dir", folder, "--queries", entry["queries"], "--query-count", str(query_count)])
        if not (os.path.exists(entry["catalog"]) and os.path.exists(entry["ids"])):
            say(f"converting {os.path.relpath(entry['tsv'][0], ROOT)} to the JSON shape for the anchors")
            convert_imdb(*entry["tsv"], entry["catalog"], entry["ids"])
    if "typo_generate" in entry and not os.path.exists(entry["queries"]):
        count, seed = entry["typo_generate"]
        say(f"generating {count:,} typo queries for {entry['base']} (seed {seed}) into {os.path.relpath(WORK, ROOT)}/")
        run([sys.executable, os.path.join(SCRIPTS, "generate-typo-queries.py"), "--catalog", entry["catalog"],
             "--count", str(count), "--seed", str(seed), "--output", entry["queries"]])
    for key in ("catalog", "queries"):
        if not os.path.exists(entry[key]):
            sys.exit(f"compare: {entry[key]} is missing (../shared beside the repository holds the data sets)")
    entry["movies"] = len(common.load_catalog(entry["catalog"]))
    entry["query_count"] = len(common.read_queries(entry["queries"]))


def convert_imdb(basics_path, ratings_path, json_path, ids_path):
    """Writes the IMDb pair as a catalog of the project's JSON shape (the rows with a startYear, in file order:
    title = primaryTitle, year = startYear, rating = averageRating or none, genres) and, to `ids_path`, the data-row
    position (from 0, header not counted) of each of its movies. Columns are found by header name."""
    ratings = {}
    with open(ratings_path, encoding="utf-8", newline="\n") as file:
        header = file.readline().rstrip("\n").split("\t")
        tconst_at, rating_at = header.index("tconst"), header.index("averageRating")
        for line in file:
            fields = line.rstrip("\n").split("\t")
            if fields[rating_at] != "\\N":
                ratings[fields[tconst_at]] = float(fields[rating_at])
    ids = []
    temporary = json_path + ".tmp"
    with open(basics_path, encoding="utf-8", newline="\n") as file, \
            open(temporary, "w", encoding="utf-8", newline="\n") as out:
        header = file.readline().rstrip("\n").split("\t")
        tconst_at, title_at, year_at, genres_at = (header.index(name) for name in
                                                   ("tconst", "primaryTitle", "startYear", "genres"))
        out.write('{"movies":[')
        for position, line in enumerate(file):
            fields = line.rstrip("\n").split("\t")
            title, year = fields[title_at], fields[year_at]
            if not year.isdigit() or title == "\\N" or not title.strip():
                continue  # what `index --skip-invalid` leaves out
            movie = {"title": title, "year": int(year)}
            rating = ratings.get(fields[tconst_at])
            if rating is not None:
                movie["rating"] = rating
            movie["genres"] = [] if fields[genres_at] == "\\N" else fields[genres_at].split(",")
            out.write(("\n" if not ids else ",\n") + json.dumps(movie, ensure_ascii=False, separators=(",", ":")))
            ids.append(position)
        out.write("\n]}\n")
    with open(ids_path + ".tmp", "w") as out:
        json.dump(ids, out, separators=(",", ":"))
    os.replace(ids_path + ".tmp", ids_path)
    os.replace(temporary, json_path)
