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

    /// A movie of an answer rendered ahead of it: `MovieJSON.leadingMembers`, and the title folded and cut into
    /// tokens, for the match spans, which depend on the query. A class: answers share one rendering.
    package final class RenderedMovie: Sendable {
        /// The movie's id.
        package let id: Int
        /// The members before `favorite`, as `MovieJSON.leadingMembers` renders them.
        package let leadingMembers: [UInt8]
        /// The title's tokens, as `MatchHighlighter` reads them.
        package let titleTokens: PositionedTokens

        /// The rendering of `movie` with posters of `posterSize`.
        package init(_ movie: Movie, posterSize: PosterSize) {
            id = movie.id
            leadingMembers = MovieJSON.leadingMembers(of: movie, posterSize: posterSize)
            titleTokens = PositionedTokens(title: movie.title)
        }

        /// Bytes it holds, roughly: for a store's budget.
        package var byteCount: Int {
            leadingMembers.count + titleTokens.scalars.count * 4 + titleTokens.tokens.count * 16 + 128
        }
    }

    /// The answer as one line of JSON, keys in the documented order; `movie` looks up the listed ids, whose poster
    /// URLs name `posterSize`, and whose `favorite` says whether `favorites` holds them. Spans are computed for
    /// the listed movies only, with one highlighter (the query folded once) for all of them.
    package static func object(_ result: SearchResult, movie: (Int) throws -> Movie,
                     posterSize: PosterSize = PosterSize.defaultSize, favorites: Set<Int> = []) throws -> JSONWriter {
        try object(result) { id, typos, highlighter, json in
            write(try movie(id), typos: typos, highlighter: highlighter, posterSize: posterSize,
                  favorite: favorites.contains(id), to: &json)
        }
    }

    /// The same answer, the same bytes, from movies rendered ahead (`RenderedMovie`, which a server keeps for the
    /// movies many answers list): only `favorite`, `typos` and `match` are written per answer.
    package static func object(_ result: SearchResult, rendered: (Int) throws -> RenderedMovie,
                               favorites: Set<Int> = []) throws -> JSONWriter {
        try object(result) { id, typos, highlighter, json in
            let movie = try rendered(id)
            json.object { json in
                json.rawMembers(movie.leadingMembers)
                json.member("favorite", favorites.contains(id))
                writeMatch(typos: typos, spans: highlighter.utf16Ranges(in: movie.titleTokens), to: &json)
            }
        }
    }

    /// The answer's frame (query, total, mode, each year with its count), `writeMovie` writing each listed movie.
    private static func object(
        _ result: SearchResult,
        writeMovie: (_ id: Int, _ typos: Int, MatchHighlighter, inout JSONWriter) throws -> Void
    ) throws -> JSONWriter {
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
                                try writeMovie(id, typos, highlighter, &json)
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
            writeMatch(typos: typos, spans: highlighter.utf16Ranges(in: movie.title), to: &json)
        }
    }

    /// `"typos":…,"match":[[start,end],…]`.
    private static func writeMatch(typos: Int, spans: [Range<Int>], to json: inout JSONWriter) {
        json.member("typos", typos)
        json.key("match")
        json.array { json in
            for span in spans {
                json.array { json in
                    json.value(span.lowerBound)
                    json.value(span.upperBound)
                }
            }
        }
    }
}
