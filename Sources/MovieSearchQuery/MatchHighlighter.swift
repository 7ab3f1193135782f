@_spi(Engine) import MovieSearchText

/// Finds the parts of a title that a query matched (SPEC.md, "Match spans"), so that a client can show them.
///
///     let result = try index.search("dark kni")
///     let highlighter = result.highlighter                       // folds the query once
///     highlighter.utf16Ranges(in: "The Dark Knight Rises")       // [4..<8, 9..<12]
///     highlighter.ranges(in: title)                              // the same as Range<String.Index>
///
/// Spans are not part of a `SearchResult`: an answer lists up to K movies for each of many years, and a client
/// shows only some of them, so the spans of a title are computed when asked for. Cost per title: linear in the
/// title (each scalar folded alone, see `PositionedTokens`, then one walk down a trie of the query's tokens per
/// title token), plus in a typo answer, for each title token, the banded alignment rows of `AlignmentRows` against
/// each query token with a budget and the same first scalar. A microsecond or two for a title of the shared data
/// sets, whatever the query's length.
public struct MatchHighlighter: Sendable {
    /// The query's distinct tokens as a trie of scalars (node 0 is the root): a title token's longest prefix among
    /// them is one walk down it, however many tokens the query has. Flat, for a walk without hashing: node `n`'s
    /// edges are `edgeScalars[edgeStart[n]..<edgeStart[n + 1]]`, leading to the nodes of `edgeTargets` (a query's
    /// trie has a few edges per node, and a server walks it for every title of every answer).
    private var edgeStart: [Int] = [0, 0]
    private var edgeScalars: [UInt32] = []
    private var edgeTargets: [Int] = []
    private var isToken: [Bool] = [false]
    /// In a typo answer, the distinct tokens with a budget, by first scalar.
    private var typoTokens: [UInt32: [(scalars: [UInt32], budget: Int)]] = [:]

    /// Folds `query` into tokens once, for the titles of an answer given in `mode`.
    public init(query: String, mode: SearchMode) {
        var seen = Set<[UInt32]>()
        var children: [[UInt32: Int]] = [[:]]
        Tokenizer.forEachToken(in: query) { bytes in
            let scalars = TypoBudget.scalars(of: bytes)
            guard seen.insert(scalars).inserted else { return }
            var node = 0
            for scalar in scalars {
                if let next = children[node][scalar] {
                    node = next
                } else {
                    children[node][scalar] = children.count
                    node = children.count
                    children.append([:])
                    isToken.append(false)
                }
            }
            isToken[node] = true
            if mode == .typo, let first = scalars.first {
                let budget = TypoBudget.edits(for: scalars)
                if budget > 0 { typoTokens[first, default: []].append((scalars, budget)) }
            }
        }
        edgeStart = [0]
        for edges in children {
            for (scalar, target) in edges {
                edgeScalars.append(scalar)
                edgeTargets.append(target)
            }
            edgeStart.append(edgeScalars.count)
        }
    }

    /// The child of `node` along `scalar`, if the trie has that edge.
    private func child(of node: Int, _ scalar: UInt32) -> Int? {
        for edge in edgeStart[node]..<edgeStart[node + 1] where edgeScalars[edge] == scalar {
            return edgeTargets[edge]
        }
        return nil
    }

    /// The matched spans of `title` as half-open UTF-16 offsets (what JavaScript's `slice` and
    /// `String.Index(utf16Offset:in:)` take), sorted, and merged where they overlap or touch.
    public func utf16Ranges(in title: String) -> [Range<Int>] {
        if edgeScalars.isEmpty { return [] }
        return utf16Ranges(in: PositionedTokens(title: title))
    }

    /// The same spans, in a title folded and cut ahead (a server keeps each listed title's `PositionedTokens`, so
    /// that an answer does not fold its titles again).
    package func utf16Ranges(in title: PositionedTokens) -> [Range<Int>] {
        if edgeScalars.isEmpty { return [] }
        var spans: [Range<Int>] = []
        let hasTypoTokens = !typoTokens.isEmpty
        // Read once: `PositionedTokens` is another module's, so each property read is a call that copies the array.
        let scalars = title.scalars
        for token in title.tokens {
            // Exact: the longest query token that starts the title token (the spans of shorter ones lie in it).
            var node = 0, longest = 0
            for position in token {
                guard let next = child(of: node, scalars[position]) else { break }
                node = next
                if isToken[node] { longest = position - token.lowerBound + 1 }
            }
            if longest > 0 { spans.append(title.utf16Range(of: token, length: longest)) }
            // With typos: the tokens with a budget that share the first scalar, and that the title token does not
            // start with (those matched exactly, above), within reach of the budget.
            guard hasTypoTokens, !token.isEmpty, let candidates = typoTokens[scalars[token.lowerBound]] else {
                continue
            }
            let term = scalars[token]
            for query in candidates where !term.starts(with: query.scalars)
                && term.count + query.budget >= query.scalars.count {
                var rows = AlignmentRows(query: query.scalars, budget: query.budget)
                if let length = rows.matchedLength(in: term) {
                    spans.append(title.utf16Range(of: token, length: length))
                }
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

    /// `spans` without empty ones, sorted, and merged where they overlap or touch (the CLI merges the spans it is
    /// given with it too).
    package static func merged(_ spans: [Range<Int>]) -> [Range<Int>] {
        // Most titles' spans come sorted, apart and non-empty (one per matched title token, in title order).
        let isMerged = spans.indices.allSatisfy { index in
            !spans[index].isEmpty && (index == 0 || spans[index - 1].upperBound < spans[index].lowerBound)
        }
        if isMerged { return spans }
        var merged: [Range<Int>] = []
        for span in spans.filter({ !$0.isEmpty }).sorted(by: { $0.lowerBound < $1.lowerBound }) {
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
