import MovieSearch

/// A search answer as JSON, the same for `query --json`, `query --stdin` and the server's `/api/search`:
///
///     {"query":"dark kni","total":2,"mode":"exact","years":[{"year":2008,"count":1,"movies":[{…,"typos":0,
///      "match":[[4,8],[9,15]]}]},…]}
///
/// Each movie is `MovieJSON`'s members, then `typos` (the movie's typo count, 0 in exact mode) and `match` (the
/// matched parts of the title as `[start, end)` offsets in UTF-16 code units, as JavaScript indexes strings).
package enum AnswerJSON {
    /// The answer's members.
    package static let members = [
        JSONMember("query"), JSONMember("total"),
        JSONMember("mode", "exact, or typo when only a search allowing typos matched"),
        JSONMember("years", "each with \(yearMembers.helpList)"),
    ]

    /// A year's members.
    package static let yearMembers = [
        JSONMember("year"), JSONMember("count", "its matches"),
        JSONMember("movies", "each with \((MovieJSON.members + movieMembers).helpList)"),
    ]

    /// What a movie of an answer has after `MovieJSON.members`.
    package static let movieMembers = [
        JSONMember("typos", "the movie's typo count, 0 in exact mode"),
        JSONMember("match", "the matched parts of the title as [start, end) offsets in UTF-16 code units"),
    ]

    /// The answer as one line of JSON, keys in the documented order; `movie` looks up the listed ids, whose poster
    /// URLs name `posterSize`, and whose `favorite` says whether `favorites` holds them. Spans are computed for
    /// the listed movies only, with one highlighter (the query folded once) for all of them.
    package static func object(_ result: SearchResult, movie: (Int) throws -> Movie,
                     posterSize: PosterSize = PosterSize.defaultSize, favorites: Set<Int> = []) throws -> JSONWriter {
        var json = JSONWriter(capacity: 256)
        let highlighter = result.highlighter
        try json.object { json in
            json.member("query", result.query)
            json.member("total", result.total)
            json.member("mode", result.mode.rawValue)
            json.key("years")
            try json.array { json in
                for year in result.years {
                    try json.object { json in
                        json.member("year", year.year)
                        json.member("count", year.count)
                        json.key("movies")
                        try json.array { json in
                            for (id, typos) in zip(year.movieIDs, year.typoCounts) {
                                write(try movie(id), typos: typos, highlighter: highlighter, posterSize: posterSize,
                                      favorite: favorites.contains(id), to: &json)
                            }
                        }
                    }
                }
            }
        }
        return json
    }

    /// `{"id":…,"title":…,"year":…,"rating":…,"genres":[…],"cast":[…],"favorite":…,"typos":…,"match":[[start,end],…]}`:
    /// the movie's members as `show --json` writes them (`MovieJSON`, with the optional ones when the movie has
    /// them, and `favorite`), then `typos` and `match`, the spans `highlighter` finds in the title as UTF-16 offsets.
    package static func write(_ movie: Movie, typos: Int, highlighter: MatchHighlighter, posterSize: PosterSize,
                      favorite: Bool, to json: inout JSONWriter) {
        json.object { json in
            MovieJSON.writeMembers(of: movie, posterSize: posterSize, favorite: favorite, to: &json)
            json.member("typos", typos)
            json.key("match")
            json.array { json in
                for span in highlighter.utf16Ranges(in: movie.title) {
                    json.array { json in
                        json.value(span.lowerBound)
                        json.value(span.upperBound)
                    }
                }
            }
        }
    }
}
