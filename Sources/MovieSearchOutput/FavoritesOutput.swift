import MovieSearchCatalog
import MovieSearchFavorites
import MovieSearchJSON

/// The favorites (`favorites list`, `add`, `remove`): as JSON, the same for the command line and the server, and
/// the list as text for a person.
///
/// A favorite the cache holds is the movie's `MovieJSON` object (with `favorite` true) and `"missing": false`; a
/// favorite it does not hold (`FavoriteStore.Missing`) is what the favorites file saved of it, `"missing": true`,
/// and the `reason` it was not found.
package enum FavoritesOutput {
    /// What a favorite the cache does not hold has: what the favorites file saved of it, and why it is not found.
    package static let missingMembers = [
        JSONMember("id"), JSONMember("title"), JSONMember("year"), JSONMember("imdb_id", optional: true),
        JSONMember("tmdb_id", optional: true), JSONMember("missing", "true"),
        JSONMember("reason", "why it is not found"),
    ]

    /// `{"favorites":[…]}`: the movies first, in answer order, their ratings on `scales`, then the missing ones.
    package static func listJSON(_ movies: [Movie], scales: RatingScales, missing: [FavoriteStore.Missing])
        -> JSONWriter
    {
        var json = JSONWriter(capacity: 256)
        json.object { json in
            json.key("favorites")
            json.array { json in
                for movie in movies {
                    json.object { json in
                        MovieJSON.writeMembers(of: movie, scales: scales, posterSize: PosterSize.defaultSize,
                                               favorite: true, to: &json)
                        json.member("missing", false)
                    }
                }
                for entry in missing { writeMissing(entry, to: &json) }
            }
        }
        return json
    }

    /// `{"removed":[…]}`: the missing favorites `remove --missing` dropped.
    package static func removedJSON(_ missing: [FavoriteStore.Missing]) -> JSONWriter {
        var json = JSONWriter(capacity: 256)
        json.object { json in
            json.key("removed")
            json.array { json in
                for entry in missing { writeMissing(entry, to: &json) }
            }
        }
        return json
    }

    /// The answer of an `add` or `remove` (`FavoriteChange`): the movie as `show --json` prints it, its ratings
    /// on `scales`, `favorite` its new state and `added` or `removed` whether the favorites changed; for an id the
    /// cache does not hold, only `id`, `favorite` and `removed` (`changeJSON(id:)`).
    package static func changeJSON(_ change: FavoriteChange, scales: RatingScales) -> JSONWriter {
        guard let movie = change.movie else { return changeJSON(id: change.id) }
        return changeJSON(movie, scales: scales, favorite: change.isFavorite,
                          changed: (change.action.rawValue, change.changed))
    }

    /// The movie an `add` or `remove` was about, its `favorite` now, and `changed.member` (`added` or `removed`):
    /// whether the call changed the file; its ratings are on `scales`.
    package static func changeJSON(_ movie: Movie, scales: RatingScales, favorite: Bool,
                                   changed: (member: String, value: Bool)) -> JSONWriter
    {
        var json = JSONWriter(capacity: 256)
        json.object { json in
            MovieJSON.writeMembers(of: movie, scales: scales, posterSize: PosterSize.defaultSize, favorite: favorite,
                                   to: &json)
            json.member(changed.member, changed.value)
        }
        return json
    }

    /// `{"id":…,"favorite":false,"removed":false}`: a `remove` of an id that is no favorite and no movie of the
    /// cache; nothing removed is an answer too.
    package static func changeJSON(id: Int) -> JSONWriter {
        var json = JSONWriter(capacity: 64)
        json.object { json in
            json.member("id", id)
            json.member("favorite", false)
            json.member("removed", false)
        }
        return json
    }

    /// The list as text: a header with the count (and how many the cache lacks), then one line per favorite with
    /// its rating out of `scales.rating` (or `missing`), year, id and title; a missing one says why.
    package static func writeList(_ movies: [Movie], scales: RatingScales, missing: [FavoriteStore.Missing],
                                  to out: TextOutput) {
        guard !movies.isEmpty || !missing.isEmpty else {
            out.line("No favorites yet: add one with 'moviesearch favorites add <id>' "
                + "(or Tab in 'moviesearch browse').")
            return
        }
        var header = TextLayout.count(movies.count + missing.count, "favorite", "favorites")
        if !missing.isEmpty { header += ", \(missing.count) not in this cache" }
        out.line(header + ":")
        let ratings = movies.map { TextLayout.rating($0.rating, on: scales.rating) ?? "unrated" }
            + missing.map { _ in "missing" }
        let ratingWidth = ratings.map(\.count).max() ?? 0
        let idWidth = (movies.map(\.id) + missing.map(\.favorite.id)).map { String($0).count }.max() ?? 0
        let rows = movies.map { ($0.id, $0.year, $0.title, "") }
            + missing.map { ($0.favorite.id, $0.favorite.year, $0.favorite.title,
                             "  (saved as id \($0.favorite.id); not in this cache: \($0.reason))") }
        for ((id, year, title, note), rating) in zip(rows, ratings) {
            let idText = note.isEmpty ? String(id) : "-"
            out.line("  \(TextLayout.padLeft(rating, ratingWidth))  \(year)  \(TextLayout.padLeft(idText, idWidth))"
                + "  \(TerminalSafeText.escaped(title))\(TerminalSafeText.escaped(note))")
        }
    }

    private static func writeMissing(_ entry: FavoriteStore.Missing, to json: inout JSONWriter) {
        json.object { json in
            json.member("id", entry.favorite.id)
            json.member("title", entry.favorite.title)
            json.member("year", entry.favorite.year)
            if let imdbID = entry.favorite.imdbID { json.member("imdb_id", imdbID) }
            if let tmdbID = entry.favorite.tmdbID { json.member("tmdb_id", tmdbID) }
            json.member("missing", true)
            json.member("reason", entry.reason)
        }
    }
}
