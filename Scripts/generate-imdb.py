#!/usr/bin/env python3
"""Deterministic synthetic IMDb dataset pair (title.basics.tsv, title.ratings.tsv) and a keystroke query set.

    Scripts/generate-imdb.py --rows 10000000 --gzip --output-dir .build-imdb/10m --queries .build-imdb/10m/queries.txt
    Scripts/generate-imdb.py --rows 1000000 --seed 1 --output-dir /tmp/imdb1m

Layout: exactly that of IMDb's non-commercial dataset (https://developer.imdb.com/non-commercial-datasets/):
UTF-8, tab-separated, `\\n` line ends, one header line, `\\N` for a null, no quoting (a `"` is a character).
- title.basics.tsv: `tconst titleType primaryTitle originalTitle isAdult startYear endYear runtimeMinutes genres`;
  tconst is `tt` + at least 7 digits (`tt0000001`; 8 digits from `tt10000000`), ascending with gaps, spread over
  tt0000001-tt33000000 whatever the size (as IMDb's ~11M titles are spread over ~tt35000000); isAdult 0 or 1;
  endYear only for tvSeries and tvMiniSeries (else `\\N`); genres up to three of IMDb's 28, comma-separated, in
  alphabetical order (as IMDb writes them), or `\\N`.
- title.ratings.tsv: `tconst averageRating numVotes` for the rated titles, in tconst order; averageRating with one
  decimal (1.0-10.0), numVotes from 5 up (IMDb lists no title with fewer), Pareto-skewed (median about 13, a few
  in the hundreds of thousands or millions). About one row in 100,000 rates a tconst that title.basics does not
  hold (IMDb's pair has such strays too; a reader must ignore them).

Title types and their shares (IMDb's title.basics of 2024, about 11 million rows, rounded counts per type as
published in dataset walk-throughs: tvEpisode ~8.5M, short ~1.0M, movie ~690k, video ~300k, tvSeries ~265k,
tvMovie ~145k, tvMiniSeries ~55k, tvSpecial ~50k, videoGame ~40k, tvShort ~10k, tvPilot a handful; estimates,
not measured here: check them against a download) are in TYPES below, with per type the shares of null
startYear, null runtimeMinutes, null genres, adult titles and rated titles. The shares of nulls and ratings are
estimates in the same spirit: about 7% of titles without a startYear (mostly episodes without an air date and
titles in development), runtimeMinutes null for most episodes, about 14% of titles rated (IMDb rates ~1.5M of
~11M; movies and series much more often than episodes).

Titles come from ../shared/data/century-movies.json (read at run time; no copy ships with this script): a title
takes the shape of a real one (its words, small words and punctuation: "The X of the Y", "X: Y", "X's Y!") and
replaces most of its content words by words of the catalog's vocabulary, drawn as often as they occur in its
titles (a Zipf-like law), one draw in twelve a made-up word (two halves of real words glued together) so that a
big dataset has a big vocabulary; a few letters take accents. originalTitle equals primaryTitle except for ~8% of movies (fewer for other types), which
get another title (accented, or a Cyrillic transliteration). Episodes belong to shows (a pool of running shows,
each with a naming style, seasons and air dates) and are named like IMDb's: "Episode #1.2" (season.episode),
"Episode 3", "Episode dated 12 March 2003" (daily shows), or a proper name (and "Pilot" for many first episodes):
about 52% proper names, 29% "Episode #S.E", 12% dated, 6% "Episode N" of the episodes (estimates of IMDb's mix).

Queries (`--queries FILE`, `--query-count`, 3,000 by default): one per line, made like ../shared/queries/*.txt:
a title drawn from the generated rows that `moviesearch index --title-types all --skip-invalid` keeps (those with
a startYear), leaving out the numbered and dated episode names (nobody types "Episode #1.2" into a search box),
typed a key at a time over its first three words (one session in six stops early), each keystroke in lower case
(70%) or as in the title (30%), every prefix a query.

The same seed and size give byte-identical files (`random.Random` is stable across Python versions for `random()`;
gzip output is written by `gzip -n`, without a name or a time stamp). Standard library only. Files are written
under temporary names and renamed when complete. A summary (rows per type, nulls, ratings, sizes, time) goes to
standard error.
"""

import argparse
import bisect
import itertools
import json
import math
import os
import re
import subprocess
import sys
import time
from random import Random

SOURCE = os.path.join("..", "shared", "data", "century-movies.json")
WORD = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)*")
# Kept as the shape has them, never drawn: titles keep reading like titles ("The X of the Y").
SMALL_WORDS = {"a", "about", "all", "an", "and", "as", "at", "by", "for", "from", "her", "his", "i", "in", "into", "is",
               "it", "me", "my", "no", "not", "of", "on", "or", "our", "out", "over", "the", "to", "up", "we", "who",
               "with", "you", "your"}
ACCENTS = {"a": "áàâä", "e": "éèêë", "i": "íîï", "o": "óôöø", "u": "úùûü", "n": "ñ", "c": "ç"}
CYRILLIC = dict(zip("abvgdezijklmnoprstufhcABVGDEZIJKLMNOPRSTUFHC", "абвгдезийклмнопрстуфхцАБВГДЕЗИЙКЛМНОПРСТУФХЦ"))
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]
MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

BASICS_HEADER = "tconst\ttitleType\tprimaryTitle\toriginalTitle\tisAdult\tstartYear\tendYear\truntimeMinutes\tgenres\n"
RATINGS_HEADER = "tconst\taverageRating\tnumVotes\n"
NULL = "\\N"
TCONST_SPAN = 33_000_000  # the generated tconsts spread over tt0000001..about this, whatever the row count

# IMDb's genres and their rough weights among the genres listed on titles.
GENRES = {"Drama": 25, "Comedy": 18, "Documentary": 12, "Romance": 5, "Action": 5, "Talk-Show": 4, "Reality-TV": 4,
          "Family": 4, "Animation": 4, "Crime": 4, "News": 3, "Adventure": 3, "Music": 3, "Thriller": 3, "Horror": 3,
          "Game-Show": 2, "Mystery": 2, "Fantasy": 2, "Sport": 2, "Biography": 2, "History": 2, "Sci-Fi": 1.5,
          "Musical": 1, "War": 1, "Western": 0.5, "Film-Noir": 0.1}
GAME_GENRES = {"Action": 10, "Adventure": 8, "Fantasy": 5, "Sci-Fi": 4, "Sport": 3, "Family": 3, "Comedy": 2,
               "Horror": 2, "Mystery": 2, "Crime": 1, "War": 1}

# type: (rows per 11M in IMDb, null startYear, null runtime, null genres, adult, rated, runtime (low, mode, high),
#        originalTitle differs)
TYPES = {
    "tvEpisode":    (8_500_000, 0.08, 0.75, 0.06, 0.010, 0.09, (5, 30, 120), 0.02),
    "short":        (1_000_000, 0.01, 0.35, 0.02, 0.010, 0.17, (1, 8, 45), 0.06),
    "movie":        (690_000, 0.06, 0.35, 0.05, 0.060, 0.47, (45, 92, 240), 0.08),
    "video":        (300_000, 0.02, 0.40, 0.06, 0.250, 0.20, (5, 70, 200), 0.05),
    "tvSeries":     (265_000, 0.03, 0.50, 0.04, 0.005, 0.38, (5, 30, 90), 0.05),
    "tvMovie":      (145_000, 0.02, 0.30, 0.04, 0.010, 0.45, (40, 85, 180), 0.06),
    "tvMiniSeries": (55_000, 0.03, 0.55, 0.03, 0.005, 0.50, (20, 50, 600), 0.06),
    "tvSpecial":    (50_000, 0.02, 0.45, 0.05, 0.002, 0.30, (10, 60, 240), 0.03),
    "videoGame":    (40_000, 0.03, 0.97, 0.08, 0.005, 0.40, (1, 10, 100), 0.04),
    "tvShort":      (10_000, 0.02, 0.40, 0.08, 0.005, 0.25, (1, 10, 40), 0.04),
    "tvPilot":      (5, 0.00, 0.50, 0.00, 0.000, 0.00, (20, 30, 60), 0.00),
}
TYPE_NAMES = list(TYPES)
TYPE_CUMULATIVE = list(itertools.accumulate(TYPES[name][0] for name in TYPE_NAMES))

# Episode naming styles of a show, by share of shows: a proper name per episode, "Episode #S.E", "Episode N",
# "Episode dated D Month YYYY" (daily shows: they run many episodes, so their share of episodes is larger).
EPISODE_STYLES = ["named", "numbered", "plain", "dated"]
EPISODE_STYLE_CUMULATIVE = list(itertools.accumulate([55, 30, 7, 5]))
SHOWS = 400  # running shows at a time
SAMPLE = 4000  # titles sampled for the queries


def repository_root():
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load_source(path):
    if not os.path.exists(path):
        sys.exit(f"generate-imdb: {path} is missing: the generator draws its words from the century catalog of "
                 f"../shared/data (beside the repository); see ../shared/data/README.md")
    with open(path, encoding="utf-8") as file:
        data = json.load(file)
    return data["movies"] if isinstance(data, dict) else data


class Titles:
    """Title shapes of the real catalog with their content words replaced by draws from its vocabulary."""

    def __init__(self, movies):
        counts = {}
        spellings = {}
        self.shapes = []
        for movie in movies:
            title = " ".join(movie["title"].split())  # no tab, newline or doubled space in a TSV field
            if not title:
                continue
            parts = WORD.split(title)  # separators, words come from findall in the same order
            words = WORD.findall(title)
            pieces = []  # (word, kept as it is, the separator after it)
            for word, separator in zip(words, parts[1:]):
                small = word.lower() in SMALL_WORDS or not word.isalpha()
                pieces.append((word, small, separator))
                if word.isalpha() and not small and len(word) > 1:  # content words only are drawn
                    key = word.lower()
                    counts[key] = counts.get(key, 0) + 1
                    forms = spellings.setdefault(key, {})
                    forms[word] = forms.get(word, 0) + 1
            if words:
                self.shapes.append((parts[0], pieces))
        ranked = sorted(counts, key=lambda key: (-counts[key], key))
        self.words = [max(sorted(spellings[key]), key=lambda form: spellings[key][form]) for key in ranked]
        self.words = [word[0].upper() + word[1:] for word in self.words]
        # Drawn as often as they occur in the catalog's titles (a Zipf-like law with the catalog's own head).
        self.cumulative = list(itertools.accumulate(counts[key] for key in ranked))
        self.total = self.cumulative[-1]
        self.glue = [word for word in self.words if len(word) > 2]
        self.short_shapes = [shape for shape in self.shapes if len(shape[1]) <= 4]  # episode names

    def word(self, random):
        """A real word (by its frequency in the catalog's titles) or, one draw in twelve, a made-up one."""
        r = random()
        if r < 1 / 12:
            first = self.glue[int(random() * len(self.glue))]
            second = self.glue[int(random() * len(self.glue))]
            word = first[: (len(first) + 1) // 2] + second[len(second) // 2:].lower()
        else:
            word = self.words[bisect.bisect_right(self.cumulative, random() * self.total)]
        if r > 0.97:
            word = accented(random, word)
        return word

    def title(self, random, shapes):
        """A real title's shape, three content words in four replaced by `word` draws."""
        prefix, pieces = shapes[int(random() * len(shapes))]
        out = [prefix]
        for word, small, separator in pieces:
            if small or random() < 0.25:
                out.append(word)
            else:
                out.append(self.word(random))
            out.append(separator)
        return "".join(out)


def accented(random, word):
    places = [i for i, ch in enumerate(word) if ch.lower() in ACCENTS]
    if not places:
        return word
    i = places[int(random() * len(places))]
    choices = ACCENTS[word[i].lower()]
    ch = choices[int(random() * len(choices))]
    return word[:i] + (ch.upper() if word[i].isupper() else ch) + word[i + 1:]


def genre_table(random, weights, size=4096):
    """`size` genre fields drawn once (1-3 distinct genres, alphabetical, comma-separated), picked from per row."""
    names = list(weights)
    cumulative = list(itertools.accumulate(weights[name] for name in names))
    table = []
    for _ in range(size):
        count = 1 + (random() > 0.45) + (random() > 0.75)
        chosen = set()
        while len(chosen) < count:
            chosen.add(names[bisect.bisect_right(cumulative, random() * cumulative[-1])])
        table.append(sorted(chosen))
    return table


def year_table():
    """Years 1874-2031 weighted like IMDb's: few early titles, growth to a plateau in the late 2010s, a few
    announced for the years to come."""
    years = list(range(1874, 2032))
    weights = []
    for year in years:
        if year <= 2024:
            weights.append(math.exp((min(year, 2017) - 1874) / 26))
        else:
            weights.append(math.exp((2017 - 1874) / 26) * {2025: 0.6, 2026: 0.15, 2027: 0.05}.get(year, 0.01))
    return years, list(itertools.accumulate(weights))


class Show:
    """A running show whose episodes are being written: naming style, season and episode, air date."""
    __slots__ = ("style", "season", "episode", "season_length", "year", "month", "day", "left", "genres", "adult",
                 "runtime")

    def __init__(self, random, year, genres, runtime):
        self.style = EPISODE_STYLES[bisect.bisect_right(EPISODE_STYLE_CUMULATIVE,
                                                        random() * EPISODE_STYLE_CUMULATIVE[-1])]
        self.season = 1
        self.episode = 0
        self.season_length = 6 + int(random() * 20)
        self.year = year
        self.month = int(random() * 12)
        self.day = 1 + int(random() * 28)
        # Daily shows run for hundreds of episodes, the others for a few seasons.
        self.left = int((100 if self.style == "dated" else 30) * (0.2 + 2 * random()))
        self.genres = genres
        self.adult = random() < 0.01
        self.runtime = runtime


class Generator:
    def __init__(self, seed, titles):
        self.random = Random(seed)
        self.titles = titles
        r = self.random.random
        self.genres = genre_table(r, GENRES)
        self.game_genres = genre_table(r, GAME_GENRES, 512)
        self.years, self.year_cumulative = year_table()
        self.shows = []
        self.counts = {name: 0 for name in TYPE_NAMES}
        self.nulls = {"startYear": 0, "runtimeMinutes": 0, "genres": 0, "endYear": 0}
        self.rated = 0
        self.stray_ratings = 0
        self.adult = 0
        self.different_original = 0
        self.tconst = 0
        self.mean_gap = 1
        self.eligible = 0  # rows a --title-types all index keeps whose name is not a numbered or dated one
        self.sample = []  # reservoir of such titles, for the queries
        self.sample_random = Random(f"sample {seed}")

    def year(self):
        return self.years[bisect.bisect_right(self.year_cumulative, self.random.random() * self.year_cumulative[-1])]

    def genre_field(self, table, extra=None):
        genres = table[int(self.random.random() * len(table))]
        if extra and extra not in genres:
            genres = sorted(genres[:2] + [extra])
        return ",".join(genres)

    def runtime(self, low, mode, high):
        r = self.random.random
        value = int(self.random.triangular(low, high, mode)) if r() < 0.8 else int(low + r() * (high - low))
        return str(max(1, value))

    def episode_title(self, show):
        show.episode += 1
        if show.episode > show.season_length:
            show.season += 1
            show.episode = 1
            show.year += 1
        style = show.style
        if style == "numbered":
            return f"Episode #{show.season}.{show.episode}", False
        if style == "plain":
            return f"Episode {(show.season - 1) * show.season_length + show.episode}", False
        if style == "dated":
            show.day += 1 if self.random.random() < 0.7 else 7
            while show.day > MONTH_DAYS[show.month]:
                show.day -= MONTH_DAYS[show.month]
                show.month += 1
                if show.month == 12:
                    show.month = 0
                    show.year += 1
            return f"Episode dated {show.day} {MONTHS[show.month]} {show.year}", False
        if show.episode == 1 and show.season == 1 and self.random.random() < 0.3:
            return "Pilot", True
        return self.titles.title(self.random.random, self.titles.short_shapes), True

    def show_for_episode(self):
        r = self.random.random
        if len(self.shows) < SHOWS:
            show = Show(r, self.year(), self.genre_field(self.genres), self.runtime(5, 30, 120))
            self.shows.append(show)
            return show
        slot = int(r() * SHOWS)
        show = self.shows[slot]
        show.left -= 1
        if show.left <= 0 or show.year > 2025:  # ended, or about to air years ahead
            show = Show(r, self.year(), self.genre_field(self.genres), self.runtime(5, 30, 120))
            self.shows[slot] = show
        return show

    def rows(self, count, basics, ratings):
        """Appends `count` title.basics lines to `basics` and the rating lines of those rated to `ratings`."""
        random = self.random
        r = random.random
        titles = self.titles
        shapes = titles.shapes
        counts = self.counts
        nulls = self.nulls
        gap_span = 2 * self.mean_gap - 1
        for _ in range(count):
            self.tconst += 1 + int(r() * gap_span)
            if r() < 0.00001 and gap_span > 1:
                ratings.append(f"tt{self.tconst:07d}\t{self.rating()}\n")  # a rating for a tconst not listed
                self.stray_ratings += 1
                self.tconst += 1
            tconst = f"tt{self.tconst:07d}"
            kind = TYPE_NAMES[bisect.bisect_right(TYPE_CUMULATIVE, r() * TYPE_CUMULATIVE[-1])]
            counts[kind] += 1
            _, null_start, null_runtime, null_genres, adult_share, rated_share, runtime_shape, differs = TYPES[kind]
            end_year = NULL
            plain_name = True
            if kind == "tvEpisode":
                show = self.show_for_episode()
                title, plain_name = self.episode_title(show)
                start = NULL if r() < null_start else str(show.year)
                adult = show.adult
                genres = NULL if r() < null_genres else show.genres
                runtime = NULL if r() < null_runtime else show.runtime
            else:
                title = titles.title(r, shapes)
                year = self.year()
                start = NULL if r() < null_start else str(year)
                adult = r() < adult_share
                if kind in ("tvSeries", "tvMiniSeries") and start is not NULL:
                    if r() < (0.85 if kind == "tvMiniSeries" else 0.5):
                        end_year = str(year + (0 if kind == "tvMiniSeries" and r() < 0.7 else int(r() * r() * 15)))
                if r() < null_genres:
                    genres = NULL
                elif kind == "videoGame":
                    genres = self.genre_field(self.game_genres, "Adult" if adult else None)
                else:
                    genres = self.genre_field(self.genres, "Short" if kind in ("short", "tvShort") else
                                              "Adult" if adult else None)
                runtime = NULL if r() < null_runtime else self.runtime(*runtime_shape)
            original = title
            if r() < differs:
                original = self.original_title(title)
            if start is NULL:
                nulls["startYear"] += 1
            elif plain_name:
                self.eligible += 1
                if len(self.sample) < SAMPLE:
                    self.sample.append(title)
                else:  # reservoir sampling (algorithm R) of the titles the queries are drawn from
                    slot = int(self.sample_random.random() * self.eligible)
                    if slot < SAMPLE:
                        self.sample[slot] = title
            if runtime is NULL:
                nulls["runtimeMinutes"] += 1
            if genres is NULL:
                nulls["genres"] += 1
            if end_year is NULL:
                nulls["endYear"] += 1
            if adult:
                self.adult += 1
            basics.append(f"{tconst}\t{kind}\t{title}\t{original}\t{1 if adult else 0}\t{start}\t{end_year}\t"
                          f"{runtime}\t{genres}\n")
            if r() < rated_share:
                ratings.append(f"{tconst}\t{self.rating()}\n")
                self.rated += 1

    def rating(self):
        """averageRating (one decimal, mean about 6.9) and numVotes (Pareto from 5, capped at 3,000,000)."""
        r = self.random.random
        votes = min(3_000_000, int(5 / (1 - r()) ** 1.4))
        spread = 1.2 + 1.5 / math.sqrt(votes)  # few votes, wilder averages
        average = min(10.0, max(1.0, self.random.gauss(6.9, spread)))
        return f"{average:.1f}\t{votes}"

    def original_title(self, title):
        """Another title in the original language: a different generated title, accented, or in Cyrillic."""
        self.different_original += 1
        r = self.random.random
        choice = r()
        other = self.titles.title(r, self.titles.shapes)
        if choice < 0.2:
            return "".join(CYRILLIC.get(ch, ch) for ch in other)
        if choice < 0.6:
            return " ".join(accented(r, word) for word in other.split(" "))
        return other


def typing_session(random, title):
    """The keystroke queries of one user typing the start of `title` (as Scripts/generate-catalog.py)."""
    typed = " ".join(title.split()[:3])
    if random.random() < 1 / 6 and len(typed) > 2:
        typed = typed[: 1 + int(random.random() * (len(typed) - 1))].rstrip()
    queries = []
    for length in range(1, len(typed) + 1):
        prefix = typed[:length]
        queries.append(prefix.lower() if random.random() < 0.7 else prefix)
    return queries


class Output:
    """A file written under a temporary name, through `gzip -n` when asked, renamed into place by `close`."""

    def __init__(self, path, gzip):
        self.path = path
        self.temporary = path + ".tmp"
        self.bytes = 0
        self.file = open(self.temporary, "wb")
        self.process = None
        if gzip:
            self.process = subprocess.Popen(["gzip", "-n", "-6", "-c"], stdin=subprocess.PIPE, stdout=self.file)
            self.sink = self.process.stdin
        else:
            self.sink = self.file

    def write(self, lines):
        data = "".join(lines).encode("utf-8")
        self.bytes += len(data)
        self.sink.write(data)

    def close(self):
        if self.process:
            self.process.stdin.close()
            if self.process.wait() != 0:
                sys.exit(f"generate-imdb: gzip failed writing {self.path}")
        self.file.close()
        os.replace(self.temporary, self.path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="\n\n".join(__doc__.split("\n\n")[1:]))
    parser.add_argument("--rows", type=int, required=True, help="title.basics data rows (1000000, 10000000, ...)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--output-dir", required=True, help="folder for title.basics.tsv and title.ratings.tsv")
    parser.add_argument("--gzip", action="store_true", help="write title.basics.tsv.gz and title.ratings.tsv.gz")
    parser.add_argument("--queries", help="keystroke query file to write (one query per line)")
    parser.add_argument("--query-count", type=int, default=3000, help="number of queries (default 3000)")
    parser.add_argument("--source", default=os.path.join(repository_root(), SOURCE),
                        help="catalog whose title words and shapes are drawn (default ../shared/data/"
                             "century-movies.json beside the repository)")
    args = parser.parse_args()
    if args.rows < 1:
        parser.error("--rows must be at least 1")
    if args.query_count < 1:
        parser.error("--query-count must be at least 1")

    started = time.monotonic()
    titles = Titles(load_source(args.source))
    generator = Generator(args.seed, titles)
    generator.mean_gap = max(1, TCONST_SPAN // args.rows)
    os.makedirs(args.output_dir, exist_ok=True)
    suffix = ".gz" if args.gzip else ""
    basics_out = Output(os.path.join(args.output_dir, "title.basics.tsv" + suffix), args.gzip)
    ratings_out = Output(os.path.join(args.output_dir, "title.ratings.tsv" + suffix), args.gzip)
    basics_out.write([BASICS_HEADER])
    ratings_out.write([RATINGS_HEADER])
    done = 0
    batch = 100_000
    while done < args.rows:
        basics, ratings = [], []
        count = min(batch, args.rows - done)
        generator.rows(count, basics, ratings)
        basics_out.write(basics)
        ratings_out.write(ratings)
        done += count
    basics_out.close()
    ratings_out.close()

    if args.queries:
        if not generator.sample:
            sys.exit("generate-imdb: no generated title has a startYear and a proper name: no queries to draw")
        queries = []
        query_random = Random(f"queries {args.seed}")
        while len(queries) < args.query_count:
            title = generator.sample[int(query_random.random() * len(generator.sample))]
            queries.extend(typing_session(query_random, title))
        temporary = args.queries + ".tmp"
        with open(temporary, "w", encoding="utf-8", newline="\n") as out:
            out.writelines(query + "\n" for query in queries[: args.query_count])
        os.replace(temporary, args.queries)

    elapsed = time.monotonic() - started
    rows = args.rows
    say = lambda text: print(f"generate-imdb: {text}", file=sys.stderr)  # noqa: E731
    say(f"{rows:,} title rows, {generator.rated:,} ratings rows (+{generator.stray_ratings} for unlisted tconsts), "
        f"last tconst tt{generator.tconst:07d}, in {elapsed:.1f} s")
    for path, output in ((basics_out.path, basics_out), (ratings_out.path, ratings_out)):
        say(f"  {path}: {os.path.getsize(path):,} bytes" + (f" ({output.bytes:,} unpacked)" if args.gzip else ""))
    say("  types: " + ", ".join(f"{name} {count:,} ({100 * count / rows:.2f}%)"
                                for name, count in sorted(generator.counts.items(), key=lambda item: -item[1])))
    say("  \\N: " + ", ".join(f"{field} {count:,} ({100 * count / rows:.1f}%)"
                             for field, count in generator.nulls.items())
        + f"; adult {generator.adult:,} ({100 * generator.adult / rows:.1f}%); originalTitle differs "
          f"{generator.different_original:,}; rated {100 * generator.rated / rows:.1f}%")
    if args.queries:
        say(f"  {args.queries}: {args.query_count:,} queries from {len(generator.sample):,} sampled titles "
            f"(of {generator.eligible:,} eligible)")


if __name__ == "__main__":
    try:
        main()
    except OSError as error:  # a folder that cannot be written, a full disk, no gzip on the PATH
        sys.exit(f"generate-imdb: {error}")
