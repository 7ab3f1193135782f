/// Finds the parts of a title that a query matched (SEARCH-SPEC, "Match spans"), so that a client can show them.
///
///     let result = try index.search("dark kni")
///     let highlighter = result.highlighter                       // folds the query once
///     highlighter.utf16Ranges(in: "The Dark Knight Rises")       // [4..<8, 9..<12]
///     highlighter.ranges(in: title)                              // the same as Range<String.Index>
///
/// Spans are not part of a `SearchResult`: an answer lists up to K movies for each of many years, and a client
/// shows only some of them, so the spans of a title are computed when asked for. Cost per title: linear in the
/// title (each scalar folded alone, see `PositionedTokens`), plus, for each pair of a query token and a title
/// token, a prefix comparison (exact answers) or the banded alignment rows of `AlignmentRows` (typo answers,
/// 2·budget + 1 cells per title scalar). A few microseconds for a title of the shared data sets.
public struct MatchHighlighter: Sendable {
    /// The query's tokens as scalars, each with its edit budget (0 in an exact answer).
    private let tokens: [(scalars: [UInt32], budget: Int)]

    /// Folds `query` into tokens once, for the titles of an answer given in `mode`.
    public init(query: String, mode: SearchMode) {
        var tokens: [(scalars: [UInt32], budget: Int)] = []
        Tokenizer.forEachToken(in: query) { bytes in
            let scalars = TypoBudget.scalars(of: bytes)
            tokens.append((scalars, mode == .typo ? TypoBudget.edits(for: scalars) : 0))
        }
        self.tokens = tokens
    }

    /// The matched spans of `title` as half-open UTF-16 offsets (what JavaScript's `slice` and
    /// `String.Index(utf16Offset:in:)` take), sorted, and merged where they overlap or touch.
    public func utf16Ranges(in title: String) -> [Range<Int>] {
        if tokens.isEmpty { return [] }
        let title = PositionedTokens(title: title)
        var spans: [Range<Int>] = []
        for token in title.tokens {
            for query in tokens {
                guard let length = Self.matchedLength(of: query.scalars, budget: query.budget, in: token.scalars) else {
                    continue
                }
                spans.append(title.utf16Range(of: token, length: length))
            }
        }
        return Self.merged(spans)
    }

    /// The matched spans of `title` as ranges of its indices, sorted and merged (see `utf16Ranges(in:)`).
    public func ranges(in title: String) -> [Range<String.Index>] {
        utf16Ranges(in: title).map {
            String.Index(utf16Offset: $0.lowerBound, in: title)..<String.Index(utf16Offset: $0.upperBound, in: title)
        }
    }

    /// How many leading scalars of `term` a query token matches, or nil when it does not match: the token's
    /// length for a prefix; for a typo match, the shortest prefix of `term` at the smallest distance.
    static func matchedLength(of query: [UInt32], budget: Int, in term: [UInt32]) -> Int? {
        if term.starts(with: query) { return query.count }
        // A typo match needs the first scalars equal, and a prefix at most `budget` scalars shorter than the query.
        guard budget > 0, let first = query.first, term.first == first, term.count + budget >= query.count else {
            return nil
        }
        var rows = AlignmentRows(query: query, budget: budget)
        for scalar in term {
            rows.push(scalar)
            if !rows.canImprove { break }
        }
        return rows.prefixDistance <= budget ? rows.bestLength : nil
    }

    /// `spans` sorted, with overlapping and touching ones merged.
    private static func merged(_ spans: [Range<Int>]) -> [Range<Int>] {
        var merged: [Range<Int>] = []
        for span in spans.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, span.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, span.upperBound)
            } else {
                merged.append(span)
            }
        }
        return merged
    }
}

extension SearchResult {
    /// A highlighter for the titles of this answer (folds the query; make one per answer, not per title).
    public var highlighter: MatchHighlighter { MatchHighlighter(query: query, mode: mode) }
}
