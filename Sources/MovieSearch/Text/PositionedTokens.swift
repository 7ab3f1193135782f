/// A title's tokens (joined tokens included), each folded scalar with the original scalar it came from: what match
/// spans are made of (SEARCH-SPEC, "Match spans").
///
/// Each original scalar is folded alone (steps 1–4), so that every folded scalar has exactly one origin; steps 5
/// and 6 then cut and join as `Tokenizer` does. For every title in the shared data sets this gives the tokens that
/// folding the whole title gives (the spec's rule; they differ only where canonical reordering moves a mark across
/// scalars). Cost: linear in the title, one table lookup per non-ASCII scalar.
struct PositionedTokens {
    /// A token: its folded scalars and, for each, the index of the original scalar that produced it.
    struct Token {
        var scalars: [UInt32] = []
        var origins: [Int32] = []
    }

    private(set) var tokens: [Token] = []
    /// Per original scalar, its UTF-16 offset in the title; one more entry, the title's UTF-16 length.
    private(set) var utf16Offsets: [Int] = []
    /// Per original scalar, whether it is a nonspacing mark (general category Mn): a span runs on over them.
    private(set) var isNonspacingMark: [Bool] = []

    /// The tokens of `title`.
    init(title: String) {
        var builder = Builder()
        var offset = 0
        for (index, scalar) in title.unicodeScalars.enumerated() {
            let value = scalar.value
            utf16Offsets.append(offset)
            offset += UTF16.width(scalar)
            let origin = Int32(truncatingIfNeeded: index)
            if value < 0x80 {
                isNonspacingMark.append(false)
                switch ASCIIByte(UInt8(value)) {
                case .token(let folded): builder.append(UInt32(folded), origin: origin)
                case .apostrophe: break
                case .separator(let joins): builder.separator(joins: joins)
                }
                continue
            }
            let word = UnicodeProperties.shared.word(of: value)
            isNonspacingMark.append(UnicodeProperties.scalarClass(of: word) == .nonspacingMark)
            var sink = Collector()
            var folding = TextFolding()
            folding.append(value, to: &sink)
            folding.finish(to: &sink)
            for (folded, foldedWord) in sink.scalars {
                switch UnicodeProperties.scalarClass(of: foldedWord) {
                case .token: builder.append(folded, origin: origin)
                case .apostrophe: break
                case .separator: builder.separator(joins: UnicodeProperties.joinsWords(foldedWord))
                case .nonspacingMark: builder.separator(joins: false)
                }
            }
        }
        utf16Offsets.append(offset)
        builder.finish()
        tokens = builder.tokens
    }

    /// The UTF-16 range of the original scalars that produced the first `length` folded scalars of `token`
    /// (1 ≤ `length` ≤ its scalar count), run on over the nonspacing marks that follow.
    func utf16Range(of token: Token, length: Int) -> Range<Int> {
        var last = Int(token.origins[length - 1])
        while last + 1 < isNonspacingMark.count, isNonspacingMark[last + 1] { last += 1 }
        return utf16Offsets[Int(token.origins[0])]..<utf16Offsets[last + 1]
    }

    /// Collects folded scalars with their property words.
    private struct Collector: FoldedScalarSink {
        var scalars: [(UInt32, UInt32)] = []
        mutating func accept(_ scalar: UInt32, word: UInt32) { scalars.append((scalar, word)) }
    }

    /// Steps 5 and 6 on positioned scalars, as `Tokenizer` does them on bytes.
    private struct Builder {
        var tokens: [Token] = []
        private var current = Token()
        private var run = Token()
        private var runTokens = 0
        /// Whether exactly one joining separator followed the last token (nil: anything that breaks a run).
        private var joining: Bool? = false

        mutating func append(_ scalar: UInt32, origin: Int32) {
            current.scalars.append(scalar)
            current.origins.append(origin)
        }

        mutating func separator(joins: Bool) {
            endToken()
            joining = joining == false && joins && runTokens > 0 ? true : nil
        }

        private mutating func endToken() {
            if current.scalars.isEmpty { return }
            if joining != true { endRun() }
            tokens.append(current)
            run.scalars += current.scalars
            run.origins += current.origins
            runTokens += 1
            current = Token()
            joining = false
        }

        private mutating func endRun() {
            if runTokens >= 2 { tokens.append(run) }
            run = Token()
            runTokens = 0
        }

        mutating func finish() {
            endToken()
            endRun()
        }
    }
}
