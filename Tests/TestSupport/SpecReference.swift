import MovieSearch

/// SPEC.md's search written straight from the spec, to check the engine against: joined words, exact and
/// typo-tolerant matching, ranking and grouping, and match spans. It shares nothing with the engine but the
/// per-scalar fold (steps 1–4, see `ScalarFolding`); steps 5–6 are `FoldedTitle`'s, the distance is the full table
/// of `OptimalStringAlignment`.
///
/// One simplification: titles and queries are folded scalar by scalar for matching too, where the spec folds them
/// whole (and folds scalar by scalar only to map spans back). The two give the same tokens on every title and query
/// of the shared data (SpecReferenceTests checks it); they differ only where canonical reordering moves a mark that
/// survives folding (Mc or Me with a combining class, such as U+1D165) across original scalars.
///
///     let reference = SpecReference(catalog)
///     reference.search("darkenss")     // mode typo, "Darkness" with 1 typo and its span
///
/// It is a brute force, kept fast enough for thousands of queries in a debug build by work done once: each title is
/// folded once; the movies are numbered by their place in the spec's order of an exact answer (year descending,
/// rating descending, unrated last, lower id first), so that a sorted list of places is already in that order; the
/// distinct title tokens of the catalog are grouped by first scalar (a query token can only match a token with the
/// same first scalar, exactly or with typos); and, once per query token, the places it matches, each with the fewest
/// edits of a match (an exact match is one with 0 edits), are found by testing every token with that first scalar.
package final class SpecReference {
    /// The movies in the spec's order: `movies[place]`.
    package let movies: [Movie]
    /// Each movie's title, folded and cut, joined tokens included: `titles[place]`.
    package let titles: [FoldedTitle]
    private let years: [Int]
    private let placeOfID: [Int: Int]
    private let folding: ScalarFolding
    /// Every distinct title token, and the places of the movies that have it, ascending.
    private let distinctTokens: [[Unicode.Scalar]]
    private let placesOfToken: [[Int]]
    /// The numbers of the distinct tokens that begin with each scalar.
    private let tokensByFirstScalar: [Unicode.Scalar: [Int]]
    /// (query token, with typos) → the places it matches.
    private var memo: [MemoKey: TokenMatches] = [:]

    private struct MemoKey: Hashable {
        var token: [Unicode.Scalar]
        var typos: Bool
    }

    /// The movies a query token matches: their places, ascending, and for every place the fewest edits of a match
    /// (-1 where it does not match).
    private struct TokenMatches {
        var places: [Int]
        var edits: [Int8]
    }

    package init(_ catalog: Catalog) {
        let movies = catalog.movies.sorted(by: ReferenceSearch.precedes)  // the exact answer's order
        self.movies = movies
        years = movies.map(\.year)
        placeOfID = Dictionary(uniqueKeysWithValues: movies.enumerated().map { ($1.id, $0) })
        let folding = ScalarFolding()
        self.folding = folding
        titles = movies.map { FoldedTitle($0.title, joiningWords: true, folding: folding) }
        var numbers: [[Unicode.Scalar]: Int] = [:]
        var distinct: [[Unicode.Scalar]] = [], placesOf: [[Int]] = []
        for (place, title) in titles.enumerated() {
            for token in Set(title.tokens.map(\.scalars)) {
                if let number = numbers[token] {
                    placesOf[number].append(place)
                } else {
                    numbers[token] = distinct.count
                    distinct.append(token)
                    placesOf.append([place])
                }
            }
        }
        distinctTokens = distinct
        placesOfToken = placesOf
        tokensByFirstScalar = Dictionary(grouping: distinct.indices, by: { distinct[$0][0] })
    }

    /// The folded title of the movie with this id.
    package func title(id: Int) -> FoldedTitle { titles[placeOfID[id]!] }

    /// The query's tokens: steps 1–5, no joined words.
    package func queryTokens(_ query: String) -> [[Unicode.Scalar]] {
        FoldedTitle(query, joiningWords: false, folding: folding).tokens.map(\.scalars)
    }

    /// The edit budget of a query token: 0 for 4 scalars or fewer or with a character of category N, 1 for 5 to 8,
    /// 2 for 9 or more.
    package static func budget(_ token: [Unicode.Scalar]) -> Int {
        let hasNumber = token.contains {
            switch $0.properties.generalCategory {
            case .decimalNumber, .letterNumber, .otherNumber: return true
            default: return false
            }
        }
        if hasNumber || token.count <= 4 { return 0 }
        return token.count <= 8 ? 1 : 2
    }

    /// Whether `q` matches title token `t` with typos, and with how many edits: first scalars equal and
    /// `pd(q, t) ≤ budget(q)`.
    package static func typoMatch(_ q: [Unicode.Scalar], _ t: [Unicode.Scalar]) -> (edits: Int, length: Int)? {
        guard let first = q.first, t.first == first else { return nil }
        let (distance, length) = OptimalStringAlignment.prefixDistance(q, t)
        return distance <= budget(q) ? (distance, length) : nil
    }

    /// The answer to `query`, at most `perYear` movies listed a year (none for a negative `perYear`), with the spans
    /// of each listed title.
    package func search(_ query: String, perYear: Int = 5, typos: TypoTolerance = .auto) -> SpecAnswer {
        let tokens = queryTokens(query)
        var mode = SearchMode.exact
        var matches = self.matches(tokens, typos: false)
        if matches.isEmpty && typos == .auto && tokens.contains(where: { Self.budget($0) > 0 }) {
            mode = .typo
            matches = self.matches(tokens, typos: true)
            // Years newest first; within a year fewer typos first, then the exact answer's order (the place).
            matches.sort { a, b in
                years[a.place] != years[b.place] ? years[a.place] > years[b.place]
                    : a.typos != b.typos ? a.typos < b.typos : a.place < b.place
            }
        }
        var answer: [SpecAnswer.Year] = []
        for (place, typos) in matches {
            if answer.last?.year != years[place] {
                answer.append(SpecAnswer.Year(year: years[place], count: 0, ids: [], typos: [], spans: []))
            }
            answer[answer.count - 1].count += 1
            if answer[answer.count - 1].ids.count < perYear {
                answer[answer.count - 1].ids.append(movies[place].id)
                answer[answer.count - 1].typos.append(typos)
                answer[answer.count - 1].spans.append(spans(of: tokens, in: titles[place], mode: mode))
            }
        }
        return SpecAnswer(mode: mode, total: matches.count, years: answer)
    }

    /// The movies that every token of `tokens` matches, each with its typo count (the sum over the tokens of the
    /// fewest edits of a match; all 0 without typos), by place ascending. Every movie when there are no tokens.
    private func matches(_ tokens: [[Unicode.Scalar]], typos: Bool) -> [(place: Int, typos: Int)] {
        guard !tokens.isEmpty else { return movies.indices.map { ($0, 0) } }
        let perToken = tokens.map { matching($0, typos: typos) }
        let smallest = perToken.min { $0.places.count < $1.places.count }!
        var result: [(place: Int, typos: Int)] = []
        for place in smallest.places where perToken.allSatisfy({ $0.edits[place] >= 0 }) {
            result.append((place, perToken.reduce(0) { $0 + Int($1.edits[place]) }))
        }
        return result
    }

    /// The places of the movies with a title token that `token` matches, exactly (a prefix, 0 edits) or, with
    /// `typos`, as SPEC.md's "Typos" says, each with the fewest edits.
    private func matching(_ token: [Unicode.Scalar], typos: Bool) -> TokenMatches {
        let key = MemoKey(token: token, typos: typos)
        if let known = memo[key] { return known }
        var edits = [Int8](repeating: -1, count: movies.count)
        var places: [Int] = []
        for number in tokensByFirstScalar[token[0]] ?? [] {
            let cost: Int
            if typos {
                guard let match = Self.typoMatch(token, distinctTokens[number]) else { continue }
                cost = match.edits
            } else {
                guard Self.isPrefix(token, of: distinctTokens[number]) else { continue }
                cost = 0
            }
            for place in placesOfToken[number] {
                if edits[place] < 0 { places.append(place) }
                if edits[place] < 0 || Int(edits[place]) > cost { edits[place] = Int8(cost) }
            }
        }
        let matches = TokenMatches(places: places.sorted(), edits: edits)
        memo[key] = matches
        return matches
    }

    /// The spans of `title` for `tokens` in an answer of `mode`: for every query token and every title token it
    /// matches, the title token's first m folded scalars (m = the query token's length for an exact match, the
    /// shortest prefix at distance pd for a typo match), mapped back to the original title; sorted and merged.
    package func spans(of tokens: [[Unicode.Scalar]], in title: FoldedTitle, mode: SearchMode) -> [Range<Int>] {
        var spans: [Range<Int>] = []
        for q in tokens {
            for index in title.tokens.indices {
                let t = title.tokens[index].scalars
                switch mode {
                case .exact:
                    if Self.isPrefix(q, of: t) { spans.append(title.span(ofToken: index, length: q.count)) }
                case .typo:
                    if let match = Self.typoMatch(q, t) {
                        spans.append(title.span(ofToken: index, length: match.length))
                    }
                }
            }
        }
        return FoldedTitle.merged(spans)
    }

    /// Whether `q` is a prefix of `t`, scalar by scalar (what `starts(with:)` says, without its generic cost in a
    /// debug build).
    private static func isPrefix(_ q: [Unicode.Scalar], of t: [Unicode.Scalar]) -> Bool {
        if q.count > t.count { return false }
        var index = 0
        while index < q.count {
            if q[index] != t[index] { return false }
            index += 1
        }
        return true
    }

    /// The spans of `title` for `query` in an answer of `mode`, for titles outside the catalog.
    package func spans(of query: String, in title: String, mode: SearchMode) -> [Range<Int>] {
        spans(of: queryTokens(query), in: FoldedTitle(title, joiningWords: true, folding: folding), mode: mode)
    }
}
