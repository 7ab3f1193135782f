import MovieSearchCatalog
import MovieSearchIndex
import MovieSearchQuery
import MovieSearchText

/// A search answer as text for a person: a summary line, then each year's header and its movies, rating first.
package enum AnswerText {
    /// ```
    /// "dark": 7 matches in 3 years
    ///
    /// 2018 · 3 matches
    ///       5/5  The Darkest Hour
    ///   unrated  Darkroom ♥
    /// ```
    ///
    /// With `bold`, the matched spans of each title are in bold (`Highlight`); titles are escaped either way. A
    /// movie whose id `favorites` holds has a ♥ after its title. Ratings are out of `scale` (`TextLayout.rating(_:on:)`). Returns the movies it listed, year by year (for
    /// `CommandContext.keepUntilExit(_:)`).
    @discardableResult
    package static func write(_ result: SearchResult, movie: (Int) throws -> MovieListing, scale: RatingScale?,
                              to out: TextOutput, bold: Bool = false, favorites: Set<Int> = []) throws
        -> [[MovieListing]]
    {
        let quoted = TerminalSafeText.quoted(result.query)
        if result.total == 0 {
            // A typo answer with no match: the second search ran too, and the user should know it did.
            out.line(result.mode == .typo ? "No movie matches \(quoted), even with typos." : "No movie matches \(quoted).")
            return []
        }
        let movieLists = try result.years.map { year in try year.movieIDs.map(movie) }
        let ratings = movieLists.map { $0.map { TextLayout.rating($0.rating, on: scale) ?? "unrated" } }
        // A loop rather than `ratings.joined()`, whose flattened view is a generic type built at run time.
        var ratingWidth = 0
        for yearRatings in ratings {
            for rating in yearRatings { ratingWidth = max(ratingWidth, rating.count) }
        }

        var summary = summary(result)
        if Tokenizer.tokens(in: result.query).isEmpty { summary += " (no words in the query: every movie matches)" }
        out.line(summary)
        if let facet = result.genreFacet { out.line(facetLine(facet)) }
        let highlighter = bold ? result.highlighter : nil
        // Indices rather than nested `zip`s: the iterator of a zip of zips is a generic type the runtime would
        // build, looking up its associated types by name.
        for group in result.years.indices {
            let year = result.years[group], movies = movieLists[group], yearRatings = ratings[group]
            out.line()
            var header = "\(year.year) · \(TextLayout.count(year.count, "match", "matches"))"
            if movies.count < year.count { header += ", \(movies.count) shown" }
            out.line(header)
            for (movie, rating) in zip(movies, yearRatings) {
                let title = highlighter.map { Highlight.escaped(movie.title, bold: $0.utf16Ranges(in: movie.title)) }
                    ?? TerminalSafeText.escaped(movie.title)
                // In pieces, straight into the output's buffer, rather than one interpolated string per line.
                out.write("  ")
                out.write(TextLayout.padLeft(rating, ratingWidth))
                out.write("  ")
                out.write(title)
                out.line(favorites.contains(movie.id) ? TextLayout.favoriteMark : "")
            }
        }
        return movieLists
    }

    /// The first line of an answer that matched: `"dark": 7 matches in 3 years`, or for a typo answer
    /// `"godfahter": no exact match; 5 matches with typos in 4 years`.
    /// The genre facet as one line under the summary: `Genres: Drama 120 · Comedy 80 · …`, names made safe for a
    /// terminal.
    package static func facetLine(_ facet: [FacetCount]) -> String {
        if facet.isEmpty { return "Genres: none" }
        return "Genres: " + facet.map { "\(TerminalSafeText.escaped($0.name)) \(TextLayout.grouped($0.count))" }
            .joined(separator: " · ")
    }

    package static func summary(_ result: SearchResult) -> String {
        "\(TerminalSafeText.quoted(result.query)): \(counts(result))"
    }

    /// The summary without the query (`browse`, whose prompt shows it): `7 matches in 3 years`, or for a typo
    /// answer `no exact match; 5 matches with typos in 4 years`.
    package static func counts(_ result: SearchResult) -> String {
        let years = TextLayout.count(result.years.count, "year", "years")
        switch result.mode {
        case .exact:
            return "\(TextLayout.count(result.total, "match", "matches")) in \(years)"
        case .typo:
            return "no exact match; \(TextLayout.count(result.total, "match", "matches")) with typos in \(years)"
        }
    }
}
