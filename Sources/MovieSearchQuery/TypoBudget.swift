@_spi(Engine) import MovieSearchText

/// How many edits a query token may have (SPEC.md, "Typos"): none for a token of 4 scalars or fewer
/// or with a number in it (`2011` must not find 2012), 1 for 5 to 8 scalars, 2 for 9 or more.
enum TypoBudget {
    /// The budget of a folded token, given as its Unicode scalars.
    static func edits(for scalars: [UInt32]) -> Int {
        if scalars.count <= 4 { return 0 }
        for scalar in scalars where isNumber(scalar) { return 0 }
        return edits(forCount: scalars.count)
    }

    /// The budget of a folded token given as its UTF-8 bytes (valid UTF-8), read without making its scalars.
    static func edits(forToken token: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        var decoder = UTF8.ForwardParser()
        var iterator = token.makeIterator()
        while case .valid(let encoded) = decoder.parseScalar(from: &iterator) {
            if isNumber(UTF8.decode(encoded).value) { return 0 }
            count += 1
        }
        return edits(forCount: count)
    }

    /// The budget of a token of `count` scalars without a number.
    private static func edits(forCount count: Int) -> Int {
        count <= 4 ? 0 : count <= 8 ? 1 : 2
    }

    /// Whether `scalar` has general category N; ASCII without the tables.
    private static func isNumber(_ scalar: UInt32) -> Bool {
        if scalar < 0x80 { return scalar &- 0x30 < 10 }
        return UnicodeProperties.isNumber(UnicodeProperties.shared.word(of: scalar))
    }

    /// The scalars of a token's UTF-8 bytes (valid UTF-8: tokens come from `Tokenizer`).
    static func scalars(of token: UnsafeBufferPointer<UInt8>) -> [UInt32] {
        var scalars: [UInt32] = []
        scalars.reserveCapacity(token.count)
        var decoder = UTF8.ForwardParser()
        var iterator = token.makeIterator()
        while case .valid(let encoded) = decoder.parseScalar(from: &iterator) {
            scalars.append(UTF8.decode(encoded).value)
        }
        return scalars
    }
}
