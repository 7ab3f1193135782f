import MovieSearch

/// The exact search of SPEC.md ("Matching", "Ranking and grouping"; joined words included), to check the engine
/// against with `typos: .off`: no cache file, nothing of the engine but its tokenizer (checked against an independent
/// Python reference in TextReferenceTests). Typo tolerance and match spans are `SpecReference`'s.
///
/// It keeps an index of its own, built from the catalog once, so that checking thousands of queries against a
/// catalog of tens of thousands of movies stays fast in a debug build: the movies sorted once in the spec's order
/// (so that a year is a run of places and the first matches of a run are the ones to list), the distinct title
/// tokens sorted (so that the tokens a query token is a prefix of are one run), and, computed once per query token,
/// the set of places whose title has such a token, as one bit per place. `bruteForce(_:perYear:)` is the definition
/// itself, movie by movie and token by token, and tests check the two agree.
///
/// The fuzz targets' oracle too: Scripts/fuzz.sh compiles this file into them, and they ask `bruteForce`, which
/// keeps no memo to grow over their millions of queries.
package final class ReferenceSearch {
    package let movies: [Movie]
    /// Title tokens as Unicode scalars: a token is a sequence of scalars, and "prefix" means a prefix of that
    /// sequence (not `String.hasPrefix`, which compares by canonical equivalence).
    private let titleTokens: [[[Unicode.Scalar]]]
    /// Movie positions (in `movies`) in the spec's order: year descending, rating descending, unrated last, lower id
    /// first on ties. A movie's index in `ordered` is its place.
    private let ordered: [Int]
    /// The places of each year, newest first: contiguous, as `ordered` is sorted by year first.
    private let years: [(year: Int, places: Range<Int>)]
    /// Every distinct title token, sorted by its scalars' values, so that the tokens a query token is a prefix of
    /// are one contiguous run.
    private let sortedTokens: [[Unicode.Scalar]]
    /// For each entry of `sortedTokens`, the places of the movies with that token in their title.
    private let placesOfToken: [[Int]]
    /// Query token → the places of the movies with a title token it is a prefix of, as a bit set (bit `p % 64` of
    /// word `p / 64` for place `p`).
    private var memo: [[Unicode.Scalar]: [UInt64]] = [:]

    package init(_ catalog: Catalog) {
        movies = catalog.movies
        titleTokens = movies.map { Self.scalarTokens($0.title, joiningWords: true) }
        let movies = self.movies
        // The keys apart, so that the sort compares three numbers, not two whole movies (tens of thousands of
        // movies, unoptimized, in the tests that build a reference of a large catalog).
        let keys = movies.map(Self.orderKey)
        ordered = movies.indices.sorted { Self.precedes(keys[$0], keys[$1]) }
        var years: [(year: Int, places: Range<Int>)] = []
        var start = 0
        while start < ordered.count {
            var end = start
            while end < ordered.count && movies[ordered[end]].year == movies[ordered[start]].year { end += 1 }
            years.append((movies[ordered[start]].year, start..<end))
            start = end
        }
        self.years = years
        var placesByToken: [[Unicode.Scalar]: [Int]] = [:]
        for (place, position) in ordered.enumerated() {
            for token in Set(titleTokens[position]) { placesByToken[token, default: []].append(place) }
        }
        sortedTokens = placesByToken.keys.sorted { $0.lexicographicallyPrecedes($1) { $0.value < $1.value } }
        placesOfToken = sortedTokens.map { placesByToken[$0]! }
    }

    /// A title's tokens (`joiningWords`, step 6) or a query's.
    private static func scalarTokens(_ text: String, joiningWords: Bool = false) -> [[Unicode.Scalar]] {
        Tokenizer.tokens(in: text, joiningWords: joiningWords).map { Array($0.unicodeScalars) }
    }

    /// Whether `a` comes before `b`: newest year first; within a year rating descending, unrated last, input order
    /// (lower id) on ties. `SpecReference` orders by it too.
    package static func precedes(_ a: Movie, _ b: Movie) -> Bool {
        precedes(orderKey(a), orderKey(b))
    }

    /// What `precedes` compares of a movie.
    private static func orderKey(_ movie: Movie) -> (year: Int, rating: Double?, id: Int) {
        (movie.year, movie.rating, movie.id)
    }

    private static func precedes(_ a: (year: Int, rating: Double?, id: Int), _ b: (year: Int, rating: Double?, id: Int)) -> Bool {
        if a.year != b.year { return a.year > b.year }
        switch (a.rating, b.rating) {
        case let (x?, y?) where x != y: return x > y
        case (.some, nil): return true
        case (nil, .some): return false
        default: return a.id < b.id
        }
    }

    /// The answer to `query`, with at most `perYear` ids a year (none for a negative `perYear`).
    package func search(_ query: String, perYear: Int = 5) -> SearchResult {
        // "A movie matches when every query token is a prefix of at least one token of the movie's title";
        // a query with no tokens matches every movie.
        var matches = [UInt64](repeating: ~0, count: (ordered.count + 63) / 64)
        for token in Self.scalarTokens(query) {
            let set = places(of: token)
            for word in matches.indices { matches[word] &= set[word] }
        }
        // Grouped by year, newest first; within a year, the first matches in the spec's order.
        var total = 0
        var result: [YearMatches] = []
        for (year, places) in years where !places.isEmpty {
            var count = 0
            var ids: [Int] = []
            for word in (places.lowerBound / 64)...((places.upperBound - 1) / 64) {
                // The bits of this word that are places of this year.
                var bits = matches[word]
                if word == places.lowerBound / 64 { bits &= ~0 << UInt64(places.lowerBound % 64) }
                if word == (places.upperBound - 1) / 64 && places.upperBound % 64 != 0 {
                    bits &= (1 << UInt64(places.upperBound % 64)) - 1
                }
                count += bits.nonzeroBitCount
                while ids.count < perYear && bits != 0 {
                    ids.append(movies[ordered[word * 64 + bits.trailingZeroBitCount]].id)
                    bits &= bits - 1
                }
            }
            if count > 0 { result.append(YearMatches(year: year, count: count, movieIDs: MovieIDList(ids))) }
            total += count
        }
        return SearchResult(query: query, total: total, years: result)
    }

    /// The definition itself, with no index: every movie's title tokens against every query token, the matches
    /// grouped by year and sorted as the spec says.
    package func bruteForce(_ query: String, perYear: Int = 5) -> SearchResult {
        let queryTokens = Self.scalarTokens(query)
        let matches = movies.indices.filter { position in
            queryTokens.allSatisfy { token in titleTokens[position].contains { $0.starts(with: token) } }
        }.map { movies[$0] }
        let byYear = Dictionary(grouping: matches, by: \.year)
        let years = byYear.keys.sorted(by: >).map { year -> YearMatches in
            let sorted = byYear[year]!.sorted(by: Self.precedes)
            return YearMatches(year: year, count: sorted.count, movieIDs: MovieIDList(sorted.prefix(max(perYear, 0)).map(\.id)))
        }
        return SearchResult(query: query, total: matches.count, years: years)
    }

    /// The places of the movies with a title token that `token` is a prefix of, computed once per token.
    private func places(of token: [Unicode.Scalar]) -> [UInt64] {
        if let known = memo[token] { return known }
        // The first sorted token not below `token`: from there on, the tokens `token` is a prefix of.
        var low = 0, high = sortedTokens.count
        while low < high {
            let middle = (low + high) / 2
            if sortedTokens[middle].lexicographicallyPrecedes(token, by: { $0.value < $1.value }) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        var set = [UInt64](repeating: 0, count: (ordered.count + 63) / 64)
        var index = low
        while index < sortedTokens.count && sortedTokens[index].starts(with: token) {
            for place in placesOfToken[index] { set[place / 64] |= 1 << UInt64(place % 64) }
            index += 1
        }
        memo[token] = set
        return set
    }
}
