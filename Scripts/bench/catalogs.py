"""The catalogs Scripts/compare runs on: named data sets from ../shared, and generated ones named by their size.

A catalog is a dict: `name`, `catalog` (the JSON file), `queries` (one query per line), `typos` (the mode the
queries run in: `off` for the keystroke sets, `auto` for the typo sets), for a generated one `generate` = (movies,
queries), and once `prepare`d, `movies` and `query_count`. A typo set (`typo_entry`) is a catalog of its own named
`<catalog> typos`, with the catalog's file, `base` = the catalog's name (engines share the catalog's index) and
`typo_generate` = (count, seed): its queries come from Scripts/generate-typo-queries.py, they find nothing exactly.

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
                             "queries": os.path.join(SHARED, queries), "typos": "off"})
            continue
        match = re.fullmatch(r"(\d+)([km]?)", name.lower())
        if not match:
            sys.exit(f"compare: unknown catalog '{name}' ({', '.join(NAMED)}, or a size such as 100k, 1m, 250000)")
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
