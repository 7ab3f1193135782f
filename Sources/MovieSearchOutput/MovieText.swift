import MovieSearchCatalog

/// A movie's details as text for a person (`show`): the title (♥ for a favorite), then one labelled row per field,
/// the optional fields only when the catalog gave them, and the Flickr request for its photos.
package enum MovieText {
    /// Writes `movie` to `out`, its ratings out of `scales` (stars for a five-point scale:
    /// `TextLayout.detailedRating(_:on:)`). With a terminal's `width`, long texts (cast lists, overviews) wrap under themselves
    /// by the columns each character takes; without one (a pipe), each field is one line, for grep. Every text from
    /// the catalog is escaped (`TerminalSafeText`).
    package static func write(_ movie: Movie, scales: RatingScales, isFavorite: Bool, flickrRequest request: String,
                              posterSize: PosterSize, width: Int?, to out: TextOutput) {
        // Texts wrap on a terminal (`wraps`); numbers and URLs stay whole on their line, to be copied.
        var rows: [(label: String, value: String, wraps: Bool)] = [
            ("id", String(movie.id), false),
            ("year", String(movie.year), false),
            ("rating", TextLayout.detailedRating(movie.rating, on: scales.rating) ?? "unrated", false),
        ]
        if let critics = TextLayout.detailedRating(movie.criticRating, on: scales.critic) {
            rows.append(("critics", critics, false))
        }
        rows += [
            ("genres", movie.genres.isEmpty ? "none listed" : safeList(movie.genres), true),
            ("cast", movie.cast.isEmpty ? "none listed" : safeList(movie.cast), true),
        ]
        rows += optionalRows(movie, posterSize: posterSize)
        rows.append(("flickr", TerminalSafeText.escaped(request), false))
        out.line(TerminalSafeText.escaped(movie.title) + (isFavorite ? TextLayout.favoriteMark : ""))
        let labelWidth = rows.map { $0.label.count }.max()!
        let indent = String(repeating: " ", count: labelWidth + 4)
        for (label, value, wraps) in rows {
            let prefix = "  " + TextLayout.padRight(label, labelWidth) + "  "
            // Long cast lists and overviews wrap under themselves on a terminal, by the columns each character
            // takes (`DisplayWidth`: a CJK character two), a long word cut between characters and a URL never;
            // a pipe gets one line per field, for grep.
            guard let width, wraps else {
                out.line(prefix + value)
                continue
            }
            let valueColumns = width - indent.count
            if valueColumns < 8 {
                // Too narrow for a column of values: the value under its label, across the whole width.
                out.line("  " + label)
                for piece in DisplayWidth.wrapped(value, toColumns: width, keptWhole: DisplayWidth.isURL) {
                    out.line(piece)
                }
                continue
            }
            for (number, piece) in DisplayWidth.wrapped(value, toColumns: valueColumns,
                                                         keptWhole: DisplayWidth.isURL).enumerated() {
                out.line((number == 0 ? prefix : indent) + piece)
            }
        }
    }

    /// The rows of the fields only some catalogs have, each only when the movie has it and it is not empty (an
    /// empty text shows nothing): original title, overview, poster URL, TMDb id and page, IMDb id and page.
    private static func optionalRows(_ movie: Movie, posterSize: PosterSize)
        -> [(label: String, value: String, wraps: Bool)]
    {
        var rows: [(label: String, value: String, wraps: Bool)] = []
        if let originalTitle = movie.originalTitle, !originalTitle.isEmpty {
            rows.append(("original title", TerminalSafeText.escaped(originalTitle), true))
        }
        if let overview = movie.overview, !overview.isEmpty {
            rows.append(("overview", TerminalSafeText.escaped(overview), true))
        }
        if let poster = movie.posterPath.flatMap(posterSize.url(posterPath:)) {
            rows.append(("poster", TerminalSafeText.escaped(poster), false))
        }
        if let tmdbID = movie.tmdbID {
            rows.append(("tmdb", "\(tmdbID)  \(MovieLinks.tmdb(id: tmdbID))", false))
        }
        if let imdbID = movie.imdbID, !imdbID.isEmpty {
            let link = TerminalSafeText.escaped(MovieLinks.imdb(id: imdbID))
            rows.append(("imdb", TerminalSafeText.escaped(imdbID) + "  " + link, false))
        }
        return rows
    }

    /// Names as one line, each escaped (TerminalSafeText), so a name cannot break the line or drive the terminal.
    private static func safeList(_ names: [String]) -> String {
        names.map(TerminalSafeText.escaped).joined(separator: ", ")
    }
}
