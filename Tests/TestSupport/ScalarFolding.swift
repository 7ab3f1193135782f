import MovieSearch

/// Steps 1–4 of SPEC.md "Tokens" applied to one Unicode scalar alone, as `SpecReference` needs them: the folded
/// scalars that are token characters, and the separators between them reduced to what steps 5 and 6 can tell apart.
///
/// Why a shim: the library folds whole strings and exposes no per-scalar fold (its `TextFolding` is internal), and
/// the spec's spans are defined by folding each original scalar alone. So the fold of a scalar `s` is read off the
/// public `Tokenizer` (whose steps 1–5 are checked against Python's `unicodedata` in TextReferenceTests) on a few
/// strings made of `s` and ASCII letters:
/// - `tokens(in: "s")` gives the token characters of the fold, cut where the fold holds separators;
/// - `tokens(in: "as")`, `tokens(in: "sb")` and `tokens(in: "asb")` tell whether the fold begins or ends with
///   separators (and whether the fold is nothing at all: `asb` is then one token);
/// - the same with `joiningWords: true` tell whether a run of separators is exactly one character of category P or S
///   (the only separators that join, step 6) or anything else (which never joins).
///
/// This is exact for tokens and joins: an ASCII letter is a starter that neither decomposes, reorders nor folds with
/// its neighbours, so folding `a` + `s` + `b` is folding each alone; and for steps 5 and 6 a run of separators matters
/// only as "none", "exactly one P or S" or "anything else". Its limits: a fold with separators between two of its
/// own tokens (`½` → `1⁄2`) is read from `tokens(in: "s", joiningWords: true)` by telling joined tokens from plain
/// ones, which assumes that no plain token of one scalar's fold equals a concatenation of its other tokens (no
/// Unicode scalar folds that way); and the fold itself is the library's, so this checks the steps after it only.
/// ASCII needs no probe: its categories come from the standard library.
/// Steps 5 and 6 over a whole title, and everything after, are `FoldedTitle`'s and `SpecReference`'s own code.
package final class ScalarFolding {
    /// One piece of the fold of a scalar.
    package enum Piece: Hashable, Sendable {
        /// A folded scalar that is a token character (category L, N, Mc or Me after folding).
        case character(Unicode.Scalar)
        /// One or more folded scalars that separate tokens: `joins` when they are exactly one character of
        /// category P or S (step 6), false for any other separator or for several.
        case separator(joins: Bool)
    }

    private var known: [Unicode.Scalar: [Piece]] = [:]
    /// The pieces of each ASCII scalar, looked up without hashing.
    private let ascii: [[Piece]]

    package init() {
        ascii = (0..<128).map { Self.fold(Unicode.Scalar(UInt8($0))) }
    }

    /// The pieces of the fold of `scalar` alone (empty when it folds to nothing: a nonspacing mark, an apostrophe).
    package func pieces(of scalar: Unicode.Scalar) -> [Piece] {
        if scalar.isASCII { return ascii[Int(scalar.value)] }
        if let pieces = known[scalar] { return pieces }
        let pieces = Self.fold(scalar)
        known[scalar] = pieces
        return pieces
    }

    private static func fold(_ scalar: Unicode.Scalar) -> [Piece] {
        if scalar.isASCII {
            // ASCII needs no probe: letters fold to lower case, digits stay, the apostrophe goes, every other printable
            // character is punctuation or a symbol, and the rest (space, controls) separate without joining.
            switch scalar {
            case "A"..."Z": return [.character(Unicode.Scalar(scalar.value + 0x20)!)]
            case "a"..."z", "0"..."9": return [.character(scalar)]
            case "'": return []
            default: return [.separator(joins: isPunctuationOrSymbol(scalar))]
            }
        }
        let s = String(Character(scalar))
        let alone = Tokenizer.tokens(in: s).map { Array($0.unicodeScalars) }
        if alone.isEmpty {
            // Only separators, or nothing: "a" s "b" is one token exactly when s folds to nothing.
            let probe = Tokenizer.tokens(in: "a" + s + "b", joiningWords: true)
            if probe == ["ab"] { return [] }
            return [.separator(joins: probe == ["a", "b", "ab"])]
        }
        var pieces: [Piece] = []
        if let leading = gap(before: alone, in: s) { pieces.append(.separator(joins: leading)) }
        let inner = innerGaps(alone, in: s)
        for (position, token) in alone.enumerated() {
            if position > 0 { pieces.append(.separator(joins: inner[position - 1])) }
            pieces += token.map { .character($0) }
        }
        if let trailing = gap(after: alone, in: s) { pieces.append(.separator(joins: trailing)) }
        return pieces
    }

    /// Whether `scalar` is of general category P or S, by the standard library's tables.
    package static func isPunctuationOrSymbol(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
             .finalPunctuation, .otherPunctuation, .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
            return true
        default:
            return false
        }
    }

    /// Whether the fold of `s` (whose tokens are `tokens`) begins with separators (nil when not), and if so whether
    /// they join: `a` + `s` then has `a` as a token of its own, and a token beginning with `a` and the first token of
    /// `s` exactly when the separators join.
    private static func gap(before tokens: [[Unicode.Scalar]], in s: String) -> Bool? {
        let glued = Array("a".unicodeScalars) + tokens[0]
        let plain = Tokenizer.tokens(in: "a" + s).map { Array($0.unicodeScalars) }
        if plain.first == glued { return nil }
        let joined = Tokenizer.tokens(in: "a" + s, joiningWords: true).map { Array($0.unicodeScalars) }
        return joined.contains { $0.starts(with: glued) }
    }

    /// The same at the end of the fold, with `s` + `b`.
    private static func gap(after tokens: [[Unicode.Scalar]], in s: String) -> Bool? {
        let glued = tokens[tokens.count - 1] + Array("b".unicodeScalars)
        let plain = Tokenizer.tokens(in: s + "b").map { Array($0.unicodeScalars) }
        if plain.last == glued { return nil }
        let joined = Tokenizer.tokens(in: s + "b", joiningWords: true).map { Array($0.unicodeScalars) }
        return joined.contains { $0.reversed().starts(with: glued.reversed()) }
    }

    /// For each pair of consecutive tokens of the fold of `s`, whether the separator between them joins: it does when
    /// a concatenation of consecutive tokens spanning the pair is among the joined tokens, that is, occurs more often
    /// in the output with `joiningWords` than among the plain tokens.
    private static func innerGaps(_ tokens: [[Unicode.Scalar]], in s: String) -> [Bool] {
        if tokens.count < 2 { return [] }
        let output = Tokenizer.tokens(in: s, joiningWords: true).map { Array($0.unicodeScalars) }
        func isJoined(_ text: [Unicode.Scalar]) -> Bool {
            output.filter { $0 == text }.count > tokens.filter { $0 == text }.count
        }
        return (0..<(tokens.count - 1)).map { pair in
            (0...pair).contains { start in
                ((pair + 2)...tokens.count).contains { end in isJoined(Array(tokens[start..<end].joined())) }
            }
        }
    }
}
