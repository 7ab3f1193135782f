/// A title's tokens (joined tokens included), each folded scalar with the original scalar it came from: what match
/// spans are made of (SPEC.md, "Match spans").
///
/// Each original scalar is folded alone (steps 1–4), so that every folded scalar has exactly one origin; steps 5
/// and 6 then cut and join as `Tokenizer` does. For every title in the shared data sets this gives the tokens that
/// folding the whole title gives (the spec's rule; they differ only where canonical reordering moves a mark across
/// scalars). Cost: linear in the title, a handful of arrays per title whatever its length; an ASCII title needs no
/// table and no offset table (its UTF-16 offsets are its scalar indices).
package struct PositionedTokens: Sendable {
    /// The folded scalars of every token, one after another (a joined token's are a copy of its parts').
    package private(set) var scalars: [UInt32] = []
    /// For each of `scalars`, the index of the original scalar that produced it.
    private(set) var origins: [Int] = []
    /// Each token's range in `scalars`.
    package private(set) var tokens: [Range<Int>] = []
    /// Per original scalar, its UTF-16 offset in the title, and one more entry, the title's UTF-16 length; empty for
    /// an ASCII title.
    private var utf16Offsets: [Int] = []
    /// Per original scalar, whether it is a nonspacing mark (general category Mn); empty for an ASCII title.
    private var isNonspacingMark: [Bool] = []

    /// The tokens of `title`.
    package init(title: String) {
        var builder = Builder()
        let isASCII = title.utf8.allSatisfy { $0 < 0x80 }
        var offset = 0
        for (index, scalar) in title.unicodeScalars.enumerated() {
            let value = scalar.value
            builder.origin = index
            if !isASCII { utf16Offsets.append(offset) }
            offset += UTF16.width(scalar)
            if value < 0x80 {
                if !isASCII { isNonspacingMark.append(false) }
                switch ASCIIByte(UInt8(value)) {
                case .token(let folded): builder.append(UInt32(folded))
                case .apostrophe: break
                case .separator(let joins): builder.separator(joins: joins)
                }
                continue
            }
            let word = UnicodeProperties.shared.word(of: value)
            isNonspacingMark.append(UnicodeProperties.scalarClass(of: word) == .nonspacingMark)
            var folding = TextFolding()
            folding.append(value, to: &builder)
            folding.finish(to: &builder)
        }
        if !isASCII { utf16Offsets.append(offset) }
        builder.finish()
        scalars = builder.scalars
        origins = builder.origins
        tokens = builder.tokens
    }

    /// The UTF-16 range of the original scalars that produced the first `length` folded scalars of `token`
    /// (one of `tokens`; 1 ≤ `length` ≤ its count), run on over the nonspacing marks that follow.
    package func utf16Range(of token: Range<Int>, length: Int) -> Range<Int> {
        let first = origins[token.lowerBound]
        var last = origins[token.lowerBound + length - 1]
        if utf16Offsets.isEmpty { return first..<(last + 1) }
        while last + 1 < isNonspacingMark.count, isNonspacingMark[last + 1] { last += 1 }
        return utf16Offsets[first]..<utf16Offsets[last + 1]
    }

    /// Steps 4–6 on positioned scalars, as `Tokenizer` does them on bytes; also the sink of each scalar's folding.
    private struct Builder: FoldedScalarSink {
        var scalars: [UInt32] = []
        var origins: [Int] = []
        var tokens: [Range<Int>] = []
        /// The original scalar being folded.
        var origin = 0
        private var tokenStart = 0
        /// The tokens of the run under way: `tokens[runStart...]`.
        private var runStart = 0
        /// Whether exactly one joining separator followed the last token (nil: anything that breaks a run).
        private var joining: Bool? = false

        mutating func accept(_ scalar: UInt32, word: UInt32) {
            switch UnicodeProperties.scalarClass(of: word) {
            case .token: append(scalar)
            case .apostrophe: break
            case .separator: separator(joins: UnicodeProperties.joinsWords(word))
            case .nonspacingMark: separator(joins: false)
            }
        }

        mutating func append(_ scalar: UInt32) {
            scalars.append(scalar)
            origins.append(origin)
        }

        mutating func separator(joins: Bool) {
            endToken()
            joining = joining == false && joins && tokens.count > runStart ? true : nil
        }

        private mutating func endToken() {
            if scalars.count == tokenStart { return }
            let token = tokenStart..<scalars.count
            // The run before this token ends here; its joined token goes after this token's scalars.
            if joining != true { endRun() }
            tokens.append(token)
            tokenStart = scalars.count
            joining = false
        }

        /// Ends the run under way, adding its joined token if it has two tokens or more.
        private mutating func endRun() {
            if tokens.count - runStart >= 2 {
                let start = scalars.count
                for part in tokens[runStart...] {
                    scalars.append(contentsOf: scalars[part])
                    origins.append(contentsOf: origins[part])
                }
                tokens.append(start..<scalars.count)
            }
            runStart = tokens.count
        }

        mutating func finish() {
            endToken()
            endRun()
        }
    }
}
