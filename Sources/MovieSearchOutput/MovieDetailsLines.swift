import MovieSearchCatalog

/// A movie's details as labelled rows, and the rule that lays a row out: what `show` prints (`MovieText`) and what
/// browse's details page shows, so that the two list the same fields in the same order, worded and escaped alike.
///
///     year      2012
///     rating    ★★☆☆☆ 2/5
///     genres    Action, Crime
///     overview  Eight years after the Joker's reign of anarchy, Batman, with the help of the enigmatic
///               Catwoman, is forced from his exile…
package enum MovieDetailsLines {
    /// One labelled field; its value escaped (`TerminalSafeText`).
    package struct Row: Equatable, Sendable {
        package var label: String
        package var value: String
        /// Whether the value is a text that wraps on a terminal (a cast list, an overview); numbers and URLs stay
        /// whole on their line there, to be copied.
        package var wraps: Bool

        package init(_ label: String, _ value: String, wraps: Bool) {
            self.label = label
            self.value = value
            self.wraps = wraps
        }
    }

    /// How rows are fitted to the output.
    package enum Fit: Equatable, Sendable {
        /// Each row one line, whatever its length (a pipe: one line per field, for grep).
        case unwrapped
        /// A terminal of this many columns (`show`): the texts (`Row.wraps`) wrap under themselves by the columns
        /// each character takes (`DisplayWidth`: a CJK character two), a long word cut between characters and a
        /// URL never; the other rows stay whole.
        case terminal(columns: Int)
        /// A screen of this many columns (browse): every value wraps and a URL is cut too, so that nothing is
        /// wider than the screen; a label too wide for it is truncated.
        case screen(columns: Int)
    }

    /// The rows of the movie's fields, in order: year, rating (out of `scales.rating`, stars for a five-point
    /// scale: `TextLayout.detailedRating(_:on:)`), critics (only when the movie has a critics' rating), genres,
    /// cast, then the fields only some catalogs have, each only when the movie has it and it is not empty:
    /// original title (labelled `originalTitleLabel`), overview, poster URL (at `posterSize`), TMDb id and page,
    /// IMDb id and page.
    package static func fieldRows(_ movie: Movie, scales: RatingScales, posterSize: PosterSize,
                                  originalTitleLabel: String = "original title") -> [Row] {
        var rows = [
            Row("year", String(movie.year), wraps: false),
            Row("rating", TextLayout.detailedRating(movie.rating, on: scales.rating) ?? "unrated", wraps: false),
        ]
        if let critics = TextLayout.detailedRating(movie.criticRating, on: scales.critic) {
            rows.append(Row("critics", critics, wraps: false))
        }
        rows += [
            Row("genres", movie.genres.isEmpty ? "none listed" : safeList(movie.genres), wraps: true),
            Row("cast", movie.cast.isEmpty ? "none listed" : safeList(movie.cast), wraps: true),
        ]
        if let originalTitle = movie.originalTitle, !originalTitle.isEmpty {
            rows.append(Row(originalTitleLabel, TerminalSafeText.escaped(originalTitle), wraps: true))
        }
        if let overview = movie.overview, !overview.isEmpty {
            rows.append(Row("overview", TerminalSafeText.escaped(overview), wraps: true))
        }
        if let poster = movie.posterPath.flatMap(posterSize.url(posterPath:)) {
            rows.append(Row("poster", TerminalSafeText.escaped(poster), wraps: false))
        }
        if let tmdbID = movie.tmdbID {
            rows.append(Row("tmdb", "\(tmdbID)  \(MovieLinks.tmdb(id: tmdbID))", wraps: false))
        }
        if let imdbID = movie.imdbID, !imdbID.isEmpty {
            let link = TerminalSafeText.escaped(MovieLinks.imdb(id: imdbID))
            rows.append(Row("imdb", TerminalSafeText.escaped(imdbID) + "  " + link, wraps: false))
        }
        return rows
    }

    /// The lines of `row`: `  label  value`, the label padded to `labelWidth`, the value wrapped under itself as
    /// `fit` says. When fewer than 8 columns would be left for the value, the value goes under its label, across
    /// the whole width (on a screen, a row without a label, a value's continuation, has no label line).
    package static func lines(_ row: Row, labelWidth: Int, fit: Fit) -> [String] {
        let prefix = "  " + TextLayout.padRight(row.label, labelWidth) + "  "
        let indent = String(repeating: " ", count: labelWidth + 4)
        let columns: Int, keptWhole: (Substring) -> Bool
        switch fit {
        case .unwrapped:
            return [prefix + row.value]
        case let .terminal(width):
            guard row.wraps else { return [prefix + row.value] }
            (columns, keptWhole) = (width, DisplayWidth.isURL)
        case let .screen(width):
            (columns, keptWhole) = (width, { _ in false })
        }
        let valueColumns = columns - indent.count
        if valueColumns < 8 {
            var lines: [String] = []
            if case .screen = fit {
                if !row.label.isEmpty { lines.append(DisplayWidth.truncated(row.label, toColumns: columns)) }
            } else {
                lines.append("  " + row.label)
            }
            return lines + DisplayWidth.wrapped(row.value, toColumns: columns, keptWhole: keptWhole)
        }
        return DisplayWidth.wrapped(row.value, toColumns: valueColumns, keptWhole: keptWhole).enumerated()
            .map { number, piece in (number == 0 ? prefix : indent) + piece }
    }

    /// Names as one line, each escaped (TerminalSafeText), so a name cannot break the line or drive the terminal.
    private static func safeList(_ names: [String]) -> String {
        names.map(TerminalSafeText.escaped).joined(separator: ", ")
    }
}
