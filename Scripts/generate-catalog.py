#!/usr/bin/env python3
"""Deterministic synthetic movie catalog and keystroke query set, for benchmarks.

    Scripts/generate-catalog.py --movies 1000000 --seed 1 --output catalog.json --queries queries.txt

Catalog: `{"movies":[...]}`, one movie per line, each `{"title", "year", "rating"?, "cast", "genres"}`.
- Titles: 1-8 words from the titles of ../shared/data/century-movies.json, read at run time (this script ships no
  copy of it). A title starts with a real first word (60%) or a Zipf draw; each next word is, half the time, one
  that follows the previous word in a real title, else a Zipf draw: weight 1/(rank+1) over the words ranked by
  frequency, plus a long tail of made-up words (two halves of real words glued together, 1 draw in 12) so that a
  big catalog has a big vocabulary, as a real one would. Decorations, each with a small probability: a subtitle after `:`, a
  ` – ` or ` - ` dash, `(...)`, `&`, a final `!` or `?`, sequel numbers, years and `3D`, accented vowels,
  possessive `'s`; apostrophes are the typewriter `'` or the typographic `’`.
- Years 1900-2025, more of them recent; ratings integers 1-5, about 15% unrated (half of those without the member,
  half with `null`); 0-5 cast names and 0-3 genres taken from the century catalog.

Queries: one per line, made like ../shared/queries/*.txt: pick a random movie, type the first three words of its
title (fewer when it is shorter; one session in six stops early) one key at a time, every prefix being a query;
each keystroke is typed in lower case (70%) or as in the title (30%), so queries that end with a space occur.

The same arguments give byte-identical files (Python's `random.Random` is stable across versions for `random()`).
Standard library only.
"""

import argparse
import bisect
import itertools
import json
import os
import re
import sys
import time
from random import Random

SOURCE = os.path.join("..", "shared", "data", "century-movies.json")
WORD = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)*")
SMALL_WORDS = {"a", "an", "and", "at", "by", "for", "from", "in", "of", "on", "or", "the", "to", "with"}
ACCENTS = {"a": "áàâä", "e": "éèêë", "i": "íîï", "o": "óôöø", "u": "úùûü", "n": "ñ", "c": "ç"}


def repository_root():
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load_source(path):
    if not os.path.exists(path):
        sys.exit(f"generate-catalog: {path} is missing: the generator draws its words from the century catalog "
                 f"of ../shared/data (beside the repository); see ../shared/data/README.md")
    with open(path, encoding="utf-8") as file:
        data = json.load(file)
    return data["movies"] if isinstance(data, dict) else data


class Vocabulary:
    """Words ranked by frequency (ties by spelling), each in its most common spelling; Zipf draws by rank."""

    def __init__(self, movies):
        counts = {}
        spellings = {}
        for movie in movies:
            for word in WORD.findall(movie["title"]):
                key = word.lower()
                counts[key] = counts.get(key, 0) + 1
                forms = spellings.setdefault(key, {})
                forms[word] = forms.get(word, 0) + 1
        ranked = sorted(counts, key=lambda key: (-counts[key], key))
        self.words = [max(sorted(spellings[key]), key=lambda form: spellings[key][form]) for key in ranked]
        self.cumulative = list(itertools.accumulate(1.0 / (rank + 1) for rank in range(len(self.words))))
        spelling = {word.lower(): word for word in self.words}
        # Real first words and real word pairs, so that titles read like titles ("The Man Who", "Night of the").
        self.first_words = []
        self.followers = {}
        for movie in movies:
            words = [spelling[word.lower()] for word in WORD.findall(movie["title"])]
            if words:
                self.first_words.append(words[0])
            for previous, word in zip(words, words[1:]):
                self.followers.setdefault(previous, []).append(word)

    def next_word(self, random, previous):
        """The first word of a title (`previous` None) or the one after `previous`: half the time a word that
        follows it in a real title, else a Zipf draw."""
        r = random.random()
        if previous is None and r < 0.6:
            return self.first_words[int(random.random() * len(self.first_words))]
        followers = self.followers.get(previous) if previous is not None else None
        if followers and r < 0.5:
            return followers[int(random.random() * len(followers))]
        return self.draw(random)

    def draw(self, random):
        """A real word (Zipf) or, one time in twelve, a made-up one."""
        if random.random() < 1 / 12:
            return self.made_up(random)
        total = self.cumulative[-1]
        return self.words[bisect.bisect_right(self.cumulative, random.random() * total)]

    def made_up(self, random):
        while True:
            first = self.words[int(random.random() * len(self.words))]
            second = self.words[int(random.random() * len(self.words))]
            if first.isalpha() and second.isalpha() and len(first) > 2 and len(second) > 2:
                word = first[: (len(first) + 1) // 2] + second[len(second) // 2:]
                return word[0].upper() + word[1:].lower()


def weighted(random, values, cumulative):
    return values[bisect.bisect_right(cumulative, random.random() * cumulative[-1])]


def cumulate(weights):
    return list(itertools.accumulate(weights))


WORD_COUNTS = list(range(1, 9))
WORD_COUNT_WEIGHTS = cumulate([12, 22, 22, 16, 11, 8, 5, 4])
YEARS = list(range(1900, 2026))
YEAR_WEIGHTS = cumulate([1 + (year - 1900) / 20 for year in YEARS])
RATINGS = [1, 2, 3, 4, 5]
RATING_WEIGHTS = cumulate([10, 20, 35, 25, 10])
CAST_COUNTS = [0, 1, 2, 3, 4, 5]
CAST_COUNT_WEIGHTS = cumulate([10, 15, 20, 25, 15, 15])
GENRE_COUNTS = [0, 1, 2, 3]
GENRE_COUNT_WEIGHTS = cumulate([10, 45, 35, 10])
SEQUELS = ["2", "3", "4", "5", "II", "III", "3D", "1984", "2001", "3000", "10", "101", "1/2"]


def accented(random, word):
    places = [i for i, ch in enumerate(word) if ch.lower() in ACCENTS]
    if not places:
        return word
    i = places[int(random.random() * len(places))]
    choices = ACCENTS[word[i].lower()]
    ch = choices[int(random.random() * len(choices))]
    return word[:i] + (ch.upper() if word[i].isupper() else ch) + word[i + 1:]


def make_title(random, vocabulary):
    count = weighted(random, WORD_COUNTS, WORD_COUNT_WEIGHTS)
    words = []
    previous = None
    for position in range(count):
        previous = vocabulary.next_word(random, previous)
        word = previous
        small = word.lower() in SMALL_WORDS
        if position > 0 and small:
            word = word.lower()
        elif word[0].islower():
            word = word[0].upper() + word[1:]
        if random.random() < 0.03 and not small:
            word = accented(random, word)
        if random.random() < 0.03 and not small and len(word) > 2 and word[-1].isalpha():
            word += "'s"
        if "'" in word and random.random() < 0.35:
            word = word.replace("'", "\u2019")
        words.append(word)
    while len(words) > 1 and words[-1].lower() in SMALL_WORDS:  # "Dance with" reads like a cut title.
        words.pop()

    r = random.random()  # Decorations that add a word keep titles within 8 words.
    if r < 0.08 and len(words) < 8:
        words.append(SEQUELS[int(random.random() * len(SEQUELS))])
    elif 0.08 <= r < 0.10 and len(words) < 8:
        words.insert(0, f"({int(random.random() * 999) + 1})")
    if 3 <= len(words) < 8 and random.random() < 0.04:
        words.insert(1 + int(random.random() * (len(words) - 2)), "&")

    title = " ".join(words)
    r = random.random()
    # A subtitle ("Word Word: Word Word") or a dash, after a word that is not a small word.
    cuts = [cut for cut in range(1, len(words) - 1) if words[cut - 1].lower() not in SMALL_WORDS]
    if cuts and r < 0.17:
        cut = cuts[int(random.random() * len(cuts))]
        rest = words[cut][0].upper() + words[cut][1:]
        separator = ": " if r < 0.12 else " \u2013 " if random.random() < 0.6 else " - "
        title = " ".join(words[:cut]) + separator + " ".join([rest] + words[cut + 1:])
    elif len(words) >= 3 and r < 0.20:
        title = " ".join(words[:-1]) + f" ({words[-1]})"
    r = random.random()
    if r < 0.03:
        title += "!"
    elif r < 0.05:
        title += "?"
    return title


def make_movie(random, vocabulary, names, genres, genre_weights):
    movie = {"title": make_title(random, vocabulary), "year": weighted(random, YEARS, YEAR_WEIGHTS)}
    r = random.random()
    if r < 0.075:
        pass  # Unrated, without the member.
    elif r < 0.15:
        movie["rating"] = None
    else:
        movie["rating"] = weighted(random, RATINGS, RATING_WEIGHTS)
    cast_count = weighted(random, CAST_COUNTS, CAST_COUNT_WEIGHTS)
    movie["cast"] = [names[int(random.random() * len(names))] for _ in range(cast_count)]
    genre_count = weighted(random, GENRE_COUNTS, GENRE_COUNT_WEIGHTS)
    chosen = []
    for _ in range(genre_count):
        genre = weighted(random, genres, genre_weights)
        if genre not in chosen:
            chosen.append(genre)
    movie["genres"] = chosen
    return movie


def typing_session(random, title):
    """The keystroke queries of one user typing the start of `title`."""
    typed = " ".join(title.split()[:3])
    if random.random() < 1 / 6 and len(typed) > 2:
        typed = typed[: 1 + int(random.random() * (len(typed) - 1))].rstrip()
    queries = []
    for length in range(1, len(typed) + 1):
        prefix = typed[:length]
        queries.append(prefix.lower() if random.random() < 0.7 else prefix)
    return queries


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--movies", type=int, required=True, help="number of movies")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--output", required=True, help="catalog JSON file to write")
    parser.add_argument("--queries", help="query file to write (one query per line)")
    parser.add_argument("--query-count", type=int, default=10000, help="number of queries (default 10000)")
    parser.add_argument("--source", default=os.path.join(repository_root(), SOURCE),
                        help="catalog whose words, names and genres are drawn (default ../shared/data/"
                             "century-movies.json beside the repository)")
    args = parser.parse_args()
    if args.movies < 1:
        parser.error("--movies must be at least 1")

    started = time.monotonic()
    source = load_source(args.source)
    vocabulary = Vocabulary(source)
    names = sorted({name for movie in source for name in (movie.get("cast") or [])})
    genre_counts = {}
    for movie in source:
        for genre in movie.get("genres") or []:
            genre_counts[genre] = genre_counts.get(genre, 0) + 1
    genres = sorted(genre_counts, key=lambda genre: (-genre_counts[genre], genre))
    genre_weights = cumulate([genre_counts[genre] for genre in genres])

    random = Random(args.seed)
    titles = []
    temporary = args.output + ".tmp"
    with open(temporary, "w", encoding="utf-8", newline="\n") as out:
        out.write('{"movies":[\n')
        for i in range(args.movies):
            movie = make_movie(random, vocabulary, names, genres, genre_weights)
            titles.append(movie["title"])
            out.write(json.dumps(movie, ensure_ascii=False, separators=(",", ":")))
            out.write(",\n" if i + 1 < args.movies else "\n")
        out.write("]}\n")
    os.replace(temporary, args.output)

    if args.queries:
        queries = []
        query_random = Random(f"queries {args.seed}")
        while len(queries) < args.query_count:
            queries.extend(typing_session(query_random, titles[int(query_random.random() * len(titles))]))
        temporary = args.queries + ".tmp"
        with open(temporary, "w", encoding="utf-8", newline="\n") as out:
            out.writelines(query + "\n" for query in queries[: args.query_count])
        os.replace(temporary, args.queries)

    print(f"generate-catalog: {args.movies:,} movies ({len(vocabulary.words):,} source words)"
          + (f", {args.query_count:,} queries" if args.queries else "")
          + f" in {time.monotonic() - started:.1f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
