@testable import MovieSearch

/// A brute-force search written straight from SEARCH-SPEC, to check the engine against: no index, no ranks, no
/// cleverness. Tokens come from `Tokenizer` (checked against an independent Python reference in TokenizerTests).
struct ReferenceSearch {
    let movies: [Movie]
    /// Title tokens as Unicode scalars: a token is a sequence of scalars, and "prefix" means a prefix of that
    /// sequence (not `String.hasPrefix`, which compares by canonical equivalence).
    private let titleTokens: [[[Unicode.Scalar]]]

    init(_ catalog: Catalog) {
        movies = catalog.movies
        titleTokens = movies.map { Self.scalarTokens($0.title) }
    }

    private static func scalarTokens(_ text: String) -> [[Unicode.Scalar]] {
        Tokenizer.tokens(in: text).map { Array($0.unicodeScalars) }
    }

    func search(_ query: String, perYear: Int = 5) -> SearchResult {
        let queryTokens = Self.scalarTokens(query)
        // "A movie matches when every query token is a prefix of at least one token of the movie's title";
        // a query with no tokens matches every movie.
        let matches = movies.indices.filter { index in
            queryTokens.allSatisfy { token in titleTokens[index].contains { $0.starts(with: token) } }
        }.map { movies[$0] }
        // Grouped by year, newest first.
        let byYear = Dictionary(grouping: matches, by: \.year)
        let years = byYear.keys.sorted(by: >).map { year -> YearMatches in
            // Rating descending, unrated last, input order (lower id) on ties.
            let ordered = byYear[year]!.sorted { a, b in
                switch (a.rating, b.rating) {
                case let (x?, y?) where x != y: return x > y
                case (.some, nil): return true
                case (nil, .some): return false
                default: return a.id < b.id
                }
            }
            return YearMatches(year: year, count: ordered.count, movieIDs: MovieIDList(ordered.prefix(perYear).map(\.id)))
        }
        return SearchResult(query: query, total: matches.count, years: years)
    }
}
