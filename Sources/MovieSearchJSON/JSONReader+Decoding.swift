// Decoding: the text or value of a token, on demand. The scanner has checked the token's bytes (escapes, UTF-8,
// the number grammar), so nothing here can fail.
extension JSONReader {
    /// The text of a string or key token, escapes resolved.
    ///
    /// A `\u` escape of a lone UTF-16 surrogate (`"\uD800"`, or a high surrogate not followed by a low one)
    /// becomes U+FFFD: RFC 8259's grammar accepts it and JavaScript produces it, so rejecting it would lose a
    /// whole document over one character that a Swift `String` cannot hold anyway.
    package func string(_ token: JSONToken.StringToken) -> String {
        let contents = UnsafeBufferPointer(rebasing: bytes[token.start..<token.end])
        guard token.hasEscapes else { return String(decoding: contents, as: UTF8.self) }
        // Unescaping never lengthens: every escape is at least as long as the UTF-8 it stands for
        // (`\uD800` stands for U+FFFD, 6 bytes for 3).
        return String(unsafeUninitializedCapacity: contents.count) { output in
            var written = 0
            var index = 0
            func append(_ byte: UInt8) {
                output[written] = byte
                written += 1
            }
            while index < contents.count {
                let byte = contents[index]
                guard byte == UInt8(ascii: "\\") else {
                    append(byte)
                    index += 1
                    continue
                }
                let escaped = contents[index + 1]
                index += 2
                switch escaped {
                case UInt8(ascii: "b"): append(0x08)
                case UInt8(ascii: "f"): append(0x0C)
                case UInt8(ascii: "n"): append(0x0A)
                case UInt8(ascii: "r"): append(0x0D)
                case UInt8(ascii: "t"): append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = Self.hexQuad(contents, at: index)
                    index += 4
                    if (0xD800...0xDBFF).contains(scalar) {
                        if index + 6 <= contents.count, contents[index] == UInt8(ascii: "\\"),
                           contents[index + 1] == UInt8(ascii: "u") {
                            let low = Self.hexQuad(contents, at: index + 2)
                            if (0xDC00...0xDFFF).contains(low) {
                                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                                index += 6
                            }
                        }
                    }
                    for unit in UTF8.encode(Unicode.Scalar(scalar) ?? "\u{FFFD}")! { append(unit) }
                default: append(escaped)  // `"`, `\` and `/` stand for themselves.
                }
            }
            return written
        }
    }

    /// The value of the four hexadecimal digits at `index`, which `scanEscape` has checked.
    static func hexQuad(_ digits: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt32 {
        var value: UInt32 = 0
        for digit in digits[index..<index + 4] { value = value << 4 | (hexValue(digit) ?? 0) }
        return value
    }

    /// Whether a string or key token's text is `text`, without building a `String` unless it holds escapes.
    package func string(_ token: JSONToken.StringToken, equals text: StaticString) -> Bool {
        guard !token.hasEscapes else { return string(token) == text.description }
        // The length decides most comparisons (the catalog asks each key against five names), and a plain loop
        // over the bytes costs a fraction of the generic `elementsEqual` on a slice.
        let count = text.utf8CodeUnitCount
        guard token.end - token.start == count else { return false }
        let expected = text.utf8Start
        for offset in 0..<count where bytes[token.start + offset] != expected[offset] { return false }
        return true
    }

    /// The literal of a number token.
    package func number(_ token: JSONToken.NumberToken) -> JSONNumber {
        JSONNumber(checkedLiteral: String(decoding: literal(token), as: UTF8.self))
    }

    /// The value of a number token if it is an integer literal that fits an `Int` (see `JSONNumber.int`).
    package func integer(_ token: JSONToken.NumberToken) -> Int? {
        token.isInteger ? JSONNumber.integerValue(literal: literal(token)) : nil
    }

    /// The value of a number token if it is finite as a `Double` (see `JSONNumber.double`).
    package func double(_ token: JSONToken.NumberToken) -> Double? {
        JSONNumber.doubleValue(literal: literal(token))
    }

    /// The bytes of a number token.
    package func literal(_ token: JSONToken.NumberToken) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[token.start..<token.end])
    }
}
