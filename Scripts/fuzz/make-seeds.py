#!/usr/bin/env python3
"""Writes the seed inputs of the fuzz targets (run by Scripts/fuzz.sh; not meant to be run by hand).

    make-seeds.py <shared> <sample-catalog> <out>

<shared> is ../shared (read at run time, never copied into the repository), <out> gets one folder per kind:
  catalog/          catalogs: the decade catalog whole, cut-down versions of it (1 to 200 movies, as a
                    top-level array and as {"movies": [...]}, compact and indented), the sample catalog, a slice of
                    the century catalog, hand-made edge cases (invalid movies, escapes, numbers, nesting), two
                    Flickr responses (the catalog target also feeds the Flickr response reader) and TMDb responses
                    (and the TMDb reader)
  cache-catalogs/   small catalogs that Scripts/fuzz.sh indexes with the release binary into cache seeds
  query/            every distinct line of ../shared/queries/*.txt, and hand-made Unicode edge cases
"""
import json
import os
import sys


def write(folder, name, data):
    os.makedirs(folder, exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def dump(value, indent=None):
    return json.dumps(value, ensure_ascii=False, indent=indent)


def main():
    shared, sample_path, out = sys.argv[1:4]
    with open(os.path.join(shared, "data", "movies.json"), "rb") as f:
        decade_bytes = f.read()
    decade = json.loads(decade_bytes)["movies"]
    with open(sample_path, "rb") as f:
        sample_bytes = f.read()
    with open(os.path.join(shared, "data", "century-movies.json"), "rb") as f:
        century = json.load(f)

    catalog = os.path.join(out, "catalog")
    write(catalog, "decade.json", decade_bytes)
    write(catalog, "sample.json", sample_bytes)
    write(catalog, "century-slice.json", dump(century[1000:1030]))
    for count in (0, 1, 2, 5, 20, 200):
        # Spread over the decade, so that the cut-down catalogs span several years.
        movies = decade[:: max(1, len(decade) // max(count, 1))][:count]
        write(catalog, f"decade-{count}-compact.json", dump({"movies": movies}))
        write(catalog, f"decade-{count}-array.json", dump(movies, indent=2))
    edge_cases = {
        "invalid-year-string.json": '{"movies":[{"title":"A","year":"2010"},{"title":"B","year":2011}]}',
        "invalid-mixed.json": '[{"title":" ","year":1},{"title":"T","year":1.5},{"title":"U","year":2,"rating":"5"},'
                              '{"title":"V","year":3,"cast":["a",1]},{"title":"W","year":4,"title":"X"},7,'
                              '{"title":"Y","year":-2147483648,"rating":-0.0,"genres":null,"cast":null}]',
        "numbers.json": '[{"title":"N","year":2147483647,"rating":1e308},{"title":"M","year":0,"rating":-1E-400},'
                        '{"title":"O","year":-0,"rating":1e999},{"title":"P","year":99999999999999999999}]',
        "escapes.json": '{"movies":[{"title":"\\u00e9t\\u00C9 \\ud83c\\udfac \\ud800 \\"q\\" \\\\ \\/ \\b\\f\\n\\r\\t",'
                        '"year":2009,"cast":["\\u0000"]}],"other":{"movies":[]}}',
        "unicode.json": dump([{"title": t, "year": 2000 + i, "rating": i % 6 or None}
                              for i, t in enumerate(["Brüno", "Straße", "İstanbul", "ǰǰ", "ﬁ½", "Don’t", "한국 영화",
                                                     "東京物語", "ᾳ\u0345", "क्षत्रिय", "e\u0301\u0327", "\u0301x"])]),
        "equivalent-names.json": '[{"title":"A","year":2010,"cast":["Zo\\u00eb"],"genres":["Caf\u00e9"]},'
                                 '{"title":"B","year":2011,"cast":["Zoe\u0308","Zo\u00eb"],"genres":["Cafe\\u0301"]}]',
        "bom.json": "\ufeff[]",
        "nested.json": "[" * 600 + "]" * 600,
        "duplicate-movies.json": '{"movies":[],"movies":[]}',
        "not-a-catalog.json": '{"films":[]}',
        "flickr-ok.json": '{"photos":{"page":1,"photo":[{"id":"7391528914","owner":"1@N0","secret":"a1b2c3d4e5",'
                          '"server":"7245","farm":8,"title":"x"},{"id":"1","server":"2","farm":3}]},"stat":"ok"}',
        "flickr-fail.json": '{"stat":"fail","code":100,"message":"Invalid API Key (Key has invalid format)"}',
        "tmdb-page.json": '{"page":1,"results":[{"id":550,"title":"Fight Club","original_title":"Fight Club",'
                          '"release_date":"1999-10-15","vote_average":8.4,"vote_count":3,"genre_ids":[18,53],'
                          '"poster_path":null,"overview":"x"},{"id":194,"title":"Am\\u00e9lie","original_title":'
                          '"Le Fabuleux Destin","release_date":"","vote_count":0,"genres":[{"id":35,"name":"Comedy"},'
                          '{"id":10749}]}],"total_pages":1,"total_results":2}',
        "tmdb-pages.json": '[{"page":1,"results":[{"id":1,"title":"A","release_date":"2000-01-01"}]},'
                           '{"page":2,"results":[{"id":1,"title":"A","release_date":"2000-01-01"},{"id":"2"}]}]',
        "tmdb-movies.json": '[{"id":3,"original_title":"B","release_date":"2001-02-03","vote_average":5}]',
        "tmdb-error.json": '{"status_code":7,"status_message":"Invalid API key","success":false}',
    }
    for name, text in edge_cases.items():
        write(catalog, name, text)

    caches = os.path.join(out, "cache-catalogs")
    for count in (1, 2, 5, 30, 200):
        movies = decade[:: max(1, len(decade) // count)][:count]
        write(caches, f"decade-{count}.json", dump({"movies": movies}))
    write(caches, "unicode.json", edge_cases["unicode.json"])
    write(caches, "equivalent-names.json", edge_cases["equivalent-names.json"])
    write(caches, "skipped.json", '[{"title":"Dark","year":2010,"rating":3},7,{"title":"The Dark Knight","year":2012},'
                                  '{"title":"Darkness","year":2012,"rating":5}]')
    write(caches, "empty.json", "[]")
    # The optional sections of format 4 (original title, overview, poster, TMDb and IMDb ids, one IMDb id of
    # another form, an empty overview), from a CSV catalog: the cache target reads them too.
    write(caches, "fields.csv", "title,year,rating,original_title,overview,poster_path,tmdb_id,imdb_id\n"
                                "Amélie,2001,7.9,Le Fabuleux Destin,\"A shy waitress, \"\"Paris\"\"\",/a.jpg,194,tt0211915\n"
                                "Heat,1995,NA,,,/h.jpg,949,tt113277\n"
                                "Alien,1979,8.5,,\"\",,348,tt0078748\n")

    queries = os.path.join(out, "query")
    seen = set()
    folder = os.path.join(shared, "queries")
    for name in sorted(os.listdir(folder)):
        with open(os.path.join(folder, name), "rb") as f:
            for line in f.read().split(b"\n"):
                if line not in seen:
                    seen.add(line)
                    write(queries, f"{name[:-4]}-{len(seen):05d}", line)
    unicode_queries = ["Brüno", "BRUNO", "straße", "STRASSE", "İ", "ı", "ǰ", "ﬁ", "½", "Don’t", "dont", "ʼn",
                       "ᾳ", "ΐ", "한", "東京", "ไทย", "क्ष", "e\u0301", "\u0301", "\u0345", "a\u0327\u0301",
                       "\U0001F3AC dark", "\u200d", "\ufeff", "Ⅻ", "①", "Ａｂｃ", "ß" * 40, "\u0345" * 40]
    for number, text in enumerate(unicode_queries):
        write(queries, f"unicode-{number:02d}", text)
    write(queries, "invalid-utf8-1", b"dark \xff kni")
    write(queries, "invalid-utf8-2", b"\xc3\x28 \xe2\x82 \xf0\x9f\x8e")


main()
