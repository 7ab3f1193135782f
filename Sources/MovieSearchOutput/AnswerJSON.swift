import MovieSearchCatalog
import MovieSearchJSON
import MovieSearchQuery
import MovieSearchText

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
        JSONMember("filters", "the filters given (year from/to, genre, cast, min_rating, min_critic)", optional: true),
        JSONMember("facets", "with --facets genre: {\"genre\": [{name, count}, …]}", optional: true),
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

        /// The rendering of `movie`, of a catalog of rating scales `scales`, with posters of `posterSize`.
        package init(_ movie: Movie, scales: RatingScales, posterSize: PosterSize) {
            id = movie.id
            leadingMembers = MovieJSON.leadingMembers(of: movie, scales: scales, posterSize: posterSize)
            titleTokens = PositionedTokens(title: movie.title)
        }

        /// Bytes it holds, roughly: for a store's budget.
        package var byteCount: Int {
            leadingMembers.count + titleTokens.scalars.count * 4 + titleTokens.tokens.count * 16 + 128
        }
    }

    /// The answer as one line of JSON, keys in the documented order; `movie` looks up the listed ids, whose ratings
    /// are on `scales`, whose poster URLs name `posterSize`, and whose `favorite` says whether `favorites` holds them. Spans are computed for
    /// the listed movies only, with one highlighter (the query folded once) for all of them.
    package static func object(_ result: SearchResult, movie: (Int) throws -> Movie, scales: RatingScales,
                     posterSize: PosterSize = PosterSize.defaultSize, favorites: Set<Int> = [],
                     filters: SearchFilters = SearchFilters()) throws -> JSONWriter {
        try object(result, rendered: { RenderedMovie(try movie($0), scales: scales, posterSize: posterSize) },
                   favorites: favorites, filters: filters)
    }

    /// `"filters"`, the filters in force as given (only those set), and `"facets"` when the answer has its genre
    /// facet, as members to follow `"years"`; nothing without filters or a facet, so that an answer without them
    /// keeps its bytes.
    static func filterMembers(_ result: SearchResult, filters: SearchFilters) -> [UInt8] {
        var json = JSONWriter(capacity: 128)
        json.beginObject()
        if !filters.isEmpty {
            json.key("filters")
            json.object { json in
                if filters.lowestYear != nil || filters.highestYear != nil {
                    json.key("year")
                    json.object { json in
                        json.key("from")
                        if let year = filters.lowestYear { json.value(year) } else { json.null() }
                        json.key("to")
                        if let year = filters.highestYear { json.value(year) } else { json.null() }
                    }
                }
                if !filters.genres.isEmpty { json.key("genre"); json.value(filters.genres) }
                if !filters.cast.isEmpty { json.key("cast"); json.value(filters.cast) }
                if let rating = filters.minimumRating { json.key("min_rating"); json.value(rating) }
                if let critic = filters.minimumCriticRating { json.key("min_critic"); json.value(critic) }
            }
        }
        if let facet = result.genreFacet {
            json.key("facets")
            json.object { json in
                json.key("genre")
                json.array { json in
                    for entry in facet {
                        json.object { json in
                            json.key("name"); json.value(entry.name)
                            json.key("count"); json.value(entry.count)
                        }
                    }
                }
            }
        }
        json.endObject()
        // The members without the braces: `{}` when there are none.
        return Array(json.bytes.dropFirst().dropLast())
    }

    /// The same answer from movies rendered ahead (`RenderedMovie`, which a server keeps for the movies many answers
    /// list): only `favorite`, `typos` and `match` are written per answer. The one writer of answers: the CLI's
    /// renders each movie as it comes.
    ///
    /// Written with a `ByteAssembler` rather than `JSONWriter`'s members: the same bytes (the frame's keys are
    /// literals, the only strings the query and the mode, escaped by `JSONWriter`), at a fifth of the cost, which a
    /// server answering every keystroke feels.
    package static func object(_ result: SearchResult, rendered: (Int) throws -> RenderedMovie,
                               favorites: Set<Int> = [], filters: SearchFilters = SearchFilters()) throws -> JSONWriter {
        let highlighter = result.highlighter
        var out = ByteAssembler(capacity: 1024 + 320 * result.years.reduce(0) { $0 + $1.movieIDs.count })
        out.append("{\"query\":")
        out.append(JSONWriter.quotedBytes(result.query))
        out.append(",\"total\":")
        out.append(integer: result.total)
        out.append(",\"mode\":")
        out.append(JSONWriter.quotedBytes(result.mode.rawValue))
        out.append(",\"years\":[")
        for (yearIndex, year) in result.years.enumerated() {
            if yearIndex > 0 { out.append(UInt8(ascii: ",")) }
            out.append("{\"year\":")
            out.append(integer: year.year)
            out.append(",\"count\":")
            out.append(integer: year.count)
            out.append(",\"movies\":[")
            for (movieIndex, (id, typos)) in zip(year.movieIDs, year.typoCounts).enumerated() {
                let movie = try rendered(id)
                out.append(movieIndex > 0 ? ",{" : "{")
                out.append(movie.leadingMembers)
                out.append(favorites.contains(id) ? ",\"favorite\":true,\"typos\":" : ",\"favorite\":false,\"typos\":")
                out.append(integer: typos)
                out.append(",\"match\":[")
                for (spanIndex, span) in highlighter.utf16Ranges(in: movie.titleTokens).enumerated() {
                    out.append(spanIndex > 0 ? ",[" : "[")
                    out.append(integer: span.lowerBound)
                    out.append(UInt8(ascii: ","))
                    out.append(integer: span.upperBound)
                    out.append(UInt8(ascii: "]"))
                }
                out.append("]}")
            }
            out.append("]}")
        }
        out.append(UInt8(ascii: "]"))
        if !filters.isEmpty || result.genreFacet != nil {
            out.append(UInt8(ascii: ","))
            out.append(filterMembers(result, filters: filters))
        }
        out.append(UInt8(ascii: "}"))
        return JSONWriter(complete: out.finish())
    }
}
