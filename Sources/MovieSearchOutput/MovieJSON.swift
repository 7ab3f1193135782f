import MovieSearchCatalog
import MovieSearchJSON

/// A movie as a JSON object, the same in `show --json` and in the movies of `query --json` (whose objects add
/// their own `typos` and `match` after these members):
///
///     {"id":0,"title":"The Matrix","year":1999,"rating":8.2,"rating_scale":10,"genres":["Action"],
///      "cast":["Keanu Reeves"],"critic_rating":7.3,"critic_rating_scale":10,"original_title":"…","overview":"…","poster":"https://image.tmdb.org/t/p/w500/….jpg",
///      "tmdb_id":603,"imdb_id":"tt0133093","favorite":false}
///
/// `rating` is `null` when the movie is unrated; `rating_scale` is what it is out of, the catalog's scale (5, 10 or
/// 100; `null` when its ratings are on none), and `critic_rating_scale` the same for `critic_rating`, beside it.
/// `critic_rating` to `imdb_id` are there only when the movie has
/// the field (an empty text is written as `""`); `favorite`, always there, says whether the movie is one of the
/// favorites (`FavoritesLocation`); `poster` is the poster's full URL at the chosen size
/// (`PosterSize.url(posterPath:)`), left out for an empty poster path. Strings are the original ones, escaped by
/// JSON's rules only (`TerminalSafeText` is for text output).
package enum MovieJSON {
    /// The members, in the order they are written; `critic_rating` to `imdb_id` are optional.
    package static let members = [
        JSONMember("id"), JSONMember("title"), JSONMember("year"), JSONMember("rating", "null when unrated"),
        JSONMember("rating_scale", "what rating is out of: 5, 10 or 100, null when on none"),
        JSONMember("genres"), JSONMember("cast"),
        JSONMember("critic_rating", "the critics' rating, 0 to 10", optional: true),
        JSONMember("critic_rating_scale", "what critic_rating is out of: 5 or 10", optional: true),
        JSONMember("original_title", optional: true),
        JSONMember("overview", optional: true),
        JSONMember("poster", "the poster's URL, see --poster-size", optional: true),
        JSONMember("tmdb_id", optional: true), JSONMember("imdb_id", optional: true),
        JSONMember("favorite", "whether the movie is one of the favorites, ♥ in text"),
    ]

    /// Writes the movie's members into the object `json` has open; `favorite` is whether it is a favorite, `scales`
    /// its catalog's rating scales (`MovieIndex.ratingScales`).
    package static func writeMembers(of movie: Movie, scales: RatingScales, posterSize: PosterSize, favorite: Bool,
                                     to json: inout JSONWriter) {
        writeLeadingMembers(of: movie, scales: scales, posterSize: posterSize, to: &json)
        json.member("favorite", favorite)
    }

    /// The members before `favorite`, rendered alone: the bytes between the braces, for `JSONWriter.rawMembers`.
    /// They depend on the movie, its catalog's scales and the poster size only, so a server renders them once for every answer that
    /// lists the movie (`AnswerJSON.object(_:rendered:favorites:)`), and the bytes are those `writeMembers` writes.
    package static func leadingMembers(of movie: Movie, scales: RatingScales, posterSize: PosterSize) -> [UInt8] {
        var json = JSONWriter(capacity: 256)
        json.beginObject()
        writeLeadingMembers(of: movie, scales: scales, posterSize: posterSize, to: &json)
        return Array(json.bytes.dropFirst())
    }

    /// Every member but `favorite`, in their order.
    private static func writeLeadingMembers(of movie: Movie, scales: RatingScales, posterSize: PosterSize,
                                            to json: inout JSONWriter) {
        json.member("id", movie.id)
        json.member("title", movie.title)
        json.member("year", movie.year)
        json.key("rating")
        if let rating = movie.rating { json.value(rating) } else { json.null() }
        json.key("rating_scale")
        if let scale = scales.rating { json.value(scale.rawValue) } else { json.null() }
        json.member("genres", movie.genres)
        json.member("cast", movie.cast)
        if let criticRating = movie.criticRating {
            json.member("critic_rating", criticRating)
            json.key("critic_rating_scale")
            if let scale = scales.critic { json.value(scale.rawValue) } else { json.null() }
        }
        if let originalTitle = movie.originalTitle { json.member("original_title", originalTitle) }
        if let overview = movie.overview { json.member("overview", overview) }
        if let poster = movie.posterPath.flatMap(posterSize.url(posterPath:)) { json.member("poster", poster) }
        if let tmdbID = movie.tmdbID { json.member("tmdb_id", tmdbID) }
        if let imdbID = movie.imdbID { json.member("imdb_id", imdbID) }
    }

    /// The movie as one JSON object (`show --json`, `browse --print`).
    package static func object(_ movie: Movie, scales: RatingScales, posterSize: PosterSize, favorite: Bool)
        -> JSONWriter
    {
        var json = JSONWriter(capacity: 256)
        json.object { json in
            writeMembers(of: movie, scales: scales, posterSize: posterSize, favorite: favorite, to: &json)
        }
        return json
    }
}
