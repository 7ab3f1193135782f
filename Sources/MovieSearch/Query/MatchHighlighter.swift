/// Finds the parts of a title that a query matched (SEARCH-SPEC, "Match spans"), so that a client can show them.
///
///     let result = try index.search("dark kni")
///     let highlighter = result.highlighter                       // folds the query once
///     highlighter.utf16Ranges(in: "The Dark Knight Rises")       // [4..<8, 9..<12]
///     highlighter.ranges(in: title)                              // the same as Range<String.Index>
public struct MatchHighlighter: Sendable {
    /// Folds `query` into tokens once, for the titles of an answer given in `mode`.
    public init(query: String, mode: SearchMode) {
        // Skeleton: the implementation lands with the typo search.
    }

    /// The matched spans of `title` as half-open UTF-16 offsets, sorted and merged.
    public func utf16Ranges(in title: String) -> [Range<Int>] { [] }

    /// The matched spans of `title` as ranges of its indices, sorted and merged.
    public func ranges(in title: String) -> [Range<String.Index>] {
        utf16Ranges(in: title).map {
            String.Index(utf16Offset: $0.lowerBound, in: title)..<String.Index(utf16Offset: $0.upperBound, in: title)
        }
    }
}

extension SearchResult {
    /// A highlighter for the titles of this answer.
    public var highlighter: MatchHighlighter { MatchHighlighter(query: query, mode: mode) }
}
