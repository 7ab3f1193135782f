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
        let rows = [MovieDetailsLines.Row("id", String(movie.id), wraps: false)]
            + MovieDetailsLines.fieldRows(movie, scales: scales, posterSize: posterSize)
            + [MovieDetailsLines.Row("flickr", TerminalSafeText.escaped(request), wraps: false)]
        out.line(TerminalSafeText.escaped(movie.title) + (isFavorite ? TextLayout.favoriteMark : ""))
        let labelWidth = rows.map { $0.label.count }.max()!
        let fit: MovieDetailsLines.Fit = width.map { .terminal(columns: $0) } ?? .unwrapped
        for row in rows {
            for line in MovieDetailsLines.lines(row, labelWidth: labelWidth, fit: fit) { out.line(line) }
        }
    }
}
