"""The catalogs Scripts/compare runs on: named data sets from ../shared, and generated ones named by their size.

A catalog is a dict: `name`, `catalog` (the JSON file), `queries` (one keystroke query per line), for a generated
one `generate` = (movies, queries), and once `prepare`d, `movies` and `query_count`.

To add a data set: one line in NAMED (its catalog and queries, relative to ../shared). A catalog that must be made
first (converted, downloaded) gets a step in `prepare_catalog`, as the generated ones do, and its own key in the dict.
"""

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
        if name in NAMED:
            catalog, queries = NAMED[name]
            catalogs.append({"name": name, "catalog": os.path.join(SHARED, catalog),
                             "queries": os.path.join(SHARED, queries)})
            continue
        match = re.fullmatch(r"(\d+)([km]?)", name.lower())
        if not match:
            sys.exit(f"compare: unknown catalog '{name}' ({', '.join(NAMED)}, or a size such as 100k, 1m, 250000)")
        movies = int(match.group(1)) * {"": 1, "k": 1000, "m": 1_000_000}[match.group(2)]
        stem = os.path.join(WORK, f"generated-{movies}-seed1")
        catalogs.append({"name": name, "catalog": stem + ".json", "queries": stem + f"-{generated_queries}q.txt",
                         "generate": (movies, generated_queries)})
    return catalogs


def prepare_catalog(entry):
    """Generates the catalog and its queries if it is a generated one not made yet (Scripts/generate-catalog.py,
    seed 1, into .build-compare/), checks both files exist, and counts the movies and the queries."""
    if "generate" in entry:
        movies, query_count = entry["generate"]
        if not (os.path.exists(entry["catalog"]) and os.path.exists(entry["queries"])):
            say(f"generating {movies:,} movies and {query_count:,} queries into {os.path.relpath(WORK, ROOT)}/")
            run([sys.executable, os.path.join(SCRIPTS, "generate-catalog.py"), "--movies", str(movies), "--seed", "1",
                 "--output", entry["catalog"], "--queries", entry["queries"], "--query-count", str(query_count)])
    for key in ("catalog", "queries"):
        if not os.path.exists(entry[key]):
            sys.exit(f"compare: {entry[key]} is missing (../shared beside the repository holds the data sets)")
    entry["movies"] = len(common.load_catalog(entry["catalog"]))
    entry["query_count"] = len(common.read_queries(entry["queries"]))
