import MovieSearch

/// A top list as text (`top`): a header with the list's length and the catalog's, then one line per movie, its
/// rank, rating, year and title (♥ for a favorite).
package enum TopListText {
    /// Writes `movies`, best first, the top of a catalog of `movieCount` movies; `favorites` holds the ids that
    /// get a ♥.
    package static func write(_ movies: [Movie], of movieCount: Int, favorites: Set<Int>, to out: TextOutput) {
        guard !movies.isEmpty else {
            out.line("No movies to list.")
            return
        }
        out.line("The \(TextLayout.count(movies.count, "best-rated movie", "best-rated movies")) of "
            + "\(TextLayout.grouped(movieCount)):")
        let ratings = movies.map { TextLayout.rating($0.rating) ?? "unrated" }
        let rankWidth = String(movies.count).count + 1
        let ratingWidth = ratings.map { $0.count }.max() ?? 0
        for (rank, (movie, rating)) in zip(movies, ratings).enumerated() {
            out.line("  \(TextLayout.padLeft("\(rank + 1).", rankWidth))  \(TextLayout.padLeft(rating, ratingWidth))"
                + "  \(movie.year)  \(TerminalSafeText.escaped(movie.title))"
                + (favorites.contains(movie.id) ? TextLayout.favoriteMark : ""))
        }
    }
}
