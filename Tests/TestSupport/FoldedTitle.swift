/// A text cut into tokens as SPEC.md "Tokens" says, every folded scalar of every token remembering the original
/// scalar it came from, so that a matched part of a token maps back to the original text ("Match spans").
///
/// Steps 1–4 fold each original scalar alone (`ScalarFolding`); steps 5 and 6 are written here, from the spec:
/// a token is a maximal run of token characters; with `joiningWords` (titles), after each maximal run of two or more
/// tokens with exactly one separator of category P or S between each pair, their concatenation is one more token.
/// Tokens come in the order `Tokenizer.tokens(in:joiningWords:)` gives (each joined token right after its run),
/// so that tests can compare the two.
package struct FoldedTitle {
    /// A token, with where each of its scalars came from.
    package struct Token: Equatable {
        /// The folded scalars.
        package var scalars: [Unicode.Scalar] = []
        /// For each folded scalar, the position (counted in Unicode scalars) of the original scalar it came from.
        package var origins: [Int] = []
        /// Whether this is a joined token (step 6).
        package var isJoined = false
    }

    /// The text as given.
    package let text: String
    /// The tokens, duplicates kept, in the tokenizer's order.
    package let tokens: [Token]
    /// The UTF-16 offset at which each original scalar starts, and the text's UTF-16 length last.
    private let utf16Starts: [Int]
    /// Whether each original scalar is a nonspacing mark (general category Mn, by the standard library).
    private let isNonspacingMark: [Bool]

    /// Folds and cuts `text`; `joiningWords` for a title (step 6), not for a query.
    package init(_ text: String, joiningWords: Bool, folding: ScalarFolding) {
        self.text = text
        var starts: [Int] = [], marks: [Bool] = []
        var offset = 0
        for scalar in text.unicodeScalars {
            starts.append(offset)
            marks.append(!scalar.isASCII && scalar.properties.generalCategory == .nonspacingMark)
            offset += UTF16.width(scalar)
        }
        starts.append(offset)
        utf16Starts = starts
        isNonspacingMark = marks

        var tokens: [Token] = []
        var current = Token()
        /// The tokens of the run under way (step 6) and the separators seen since its last token.
        var run: [Token] = []
        var gap: [Bool] = []
        func endRun() {
            if joiningWords && run.count >= 2 {
                tokens.append(Token(scalars: run.flatMap(\.scalars), origins: run.flatMap(\.origins), isJoined: true))
            }
            run = []
        }
        func endToken() {
            guard !current.scalars.isEmpty else { return }
            tokens.append(current)
            run.append(current)
            current = Token()
            gap = []
        }
        for (position, scalar) in text.unicodeScalars.enumerated() {
            for piece in folding.pieces(of: scalar) {
                switch piece {
                case .character(let folded):
                    if current.scalars.isEmpty && gap != [true] {
                        // A new token that exactly one P or S separator does not tie to the previous one.
                        endRun()
                    }
                    current.scalars.append(folded)
                    current.origins.append(position)
                case .separator(let joins):
                    endToken()
                    gap.append(joins)
                }
            }
        }
        endToken()
        endRun()
        self.tokens = tokens
    }

    /// The span of the original text that the first `length` folded scalars of token `index` came from, as UTF-16
    /// offsets: from the start of the original scalar of its first folded scalar to the end of that of its
    /// `length`-th, then on over the nonspacing marks right after it.
    package func span(ofToken index: Int, length: Int) -> Range<Int> {
        let token = tokens[index]
        precondition(length >= 1 && length <= token.scalars.count, "a span covers 1 to all scalars of its token")
        var end = token.origins[length - 1] + 1
        while end < isNonspacingMark.count && isNonspacingMark[end] { end += 1 }
        return utf16Starts[token.origins[0]]..<utf16Starts[end]
    }

    /// `ranges` sorted, and merged where they overlap or touch.
    package static func merged(_ ranges: [Range<Int>]) -> [Range<Int>] {
        var result: [Range<Int>] = []
        for range in ranges.sorted(by: { ($0.lowerBound, $0.upperBound) < ($1.lowerBound, $1.upperBound) }) {
            if let last = result.last, range.lowerBound <= last.upperBound {
                result[result.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                result.append(range)
            }
        }
        return result
    }
}
