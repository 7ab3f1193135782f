import MovieSearchCatalog
import MovieSearchQuery

/// A top list as text (`top`): a header with the list's length and the catalog's, then one line per movie: its
/// rank, the rating it is ranked by, the other rating when any movie of the list has one (each out of its scale),
/// the year and the title (♥ for a favorite).
///
///     The 3 best-rated movies of 2,272 (users' rating, then critics'):
///       1.  9.3/10  8/10  1994  The Shawshank Redemption
///       2.  9.2/10     -  1972  The Godfather ♥
package enum TopListText {
    /// Writes `movies`, best first by `order`, the top of a catalog of `movieCount` movies whose ratings are on
    /// `scales`; `favorites` holds the ids that get a ♥. Under `filters`, `movieCount` is how many movies pass them
    /// and the header says so, with the filters (`FilterSummary`):
    ///
    ///     The 3 best-rated movies of 412 that pass Drama · 1990–1999 (users' rating, then critics'):
    package static func write(_ movies: [Movie], by order: TopListOrder = .rating, of movieCount: Int,
                              filters: SearchFilters = SearchFilters(),
                              scales: RatingScales, favorites: Set<Int>, to out: TextOutput) {
        guard !movies.isEmpty else {
            out.line(order == .critic ? "No movie has a critics' rating." : "No movies to list.")
            return
        }
        let users = movies.map { TextLayout.rating($0.rating, on: scales.rating) ?? "unrated" }
        let critics = movies.map { TextLayout.rating($0.criticRating, on: scales.critic) ?? "-" }
        let showsBoth = order == .critic || movies.contains { $0.criticRating != nil }
        let (first, second) = order == .critic ? (critics, users) : (users, critics)
        let count = TextLayout.count(movies.count, "movie", "movies")
        let among = TextLayout.grouped(movieCount)
            + (filters.isEmpty ? "" : " that pass " + FilterSummary.text(filters))
        switch order {
        case .rating:
            out.line("The \(TextLayout.count(movies.count, "best-rated movie", "best-rated movies")) of "
                + among + (showsBoth ? " (users' rating, then critics'):" : ":"))
        case .critic:
            out.line("The \(count) critics rate best, of \(among) "
                + "(critics' rating, then users'):")
        }
        let rankWidth = String(movies.count).count + 1
        let firstWidth = first.map(\.count).max() ?? 0, secondWidth = second.map(\.count).max() ?? 0
        for index in movies.indices {
            let movie = movies[index]
            var line = "  \(TextLayout.padLeft("\(index + 1).", rankWidth))  "
                + TextLayout.padLeft(first[index], firstWidth)
            if showsBoth { line += "  " + TextLayout.padLeft(second[index], secondWidth) }
            line += "  \(movie.year)  \(TerminalSafeText.escaped(movie.title))"
            out.line(line + (favorites.contains(movie.id) ? TextLayout.favoriteMark : ""))
        }
    }
}
