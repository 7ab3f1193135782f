import MovieSearchPlatform

// Errors: every message of `JSONSyntaxError`, with the line and column of the byte it points at, worded so that a
// user can find the place in an editor. Only the failing path runs this code.
extension JSONReader {
    /// An error at `offset`, with its line and column.
    func error(at offset: Int, _ reason: String) -> JSONSyntaxError {
        let (line, column) = LineCounter.location(of: offset, in: bytes)
        return JSONSyntaxError(line: line, column: column, offset: offset, reason: reason)
    }

    /// An error for the byte at `offset` (by default the current position) that the grammar does not allow
    /// there, named so that a user can find it: "unexpected 'x', expected a value". Invalid UTF-8 is reported as
    /// such, wherever it is.
    func unexpected(at offset: Int? = nil, _ context: String?, expected: String?) -> JSONSyntaxError {
        let offset = offset ?? position
        if offset < bytes.count && bytes[offset] >= 0x80 && UTF8.validSequenceLength(in: bytes, at: offset) <= 0 {
            return invalidUTF8(at: offset)
        }
        let found = offset < bytes.count ? describeCharacter(at: offset) : "end of input"
        var reason = "unexpected \(found)"
        if let context { reason += " \(context)" }
        if let expected { reason += ", expected \(expected)" }
        return error(at: offset, reason)
    }

    /// The error for invalid UTF-8 at `offset`, showing the bytes there (up to four) in hexadecimal.
    func invalidUTF8(at offset: Int) -> JSONSyntaxError {
        let length = min(4, bytes.count - offset)
        let shown = bytes[offset..<offset + length].map { "0x" + Self.hex($0) }.joined(separator: " ")
        return error(at: offset, "invalid UTF-8 (bytes \(shown))")
    }

    /// The character at `offset` as a user would search for it: `'x'`, `'é'`, or `U+0001` when invisible.
    func describeCharacter(at offset: Int) -> String {
        let length = UTF8.validSequenceLength(in: bytes, at: offset)
        guard length > 0 else { return "byte 0x" + Self.hex(bytes[offset]) }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<offset + length]), as: UTF8.self)
        let scalar = text.unicodeScalars.first!
        if scalar.value < 0x20 || scalar.value == 0x7F { return "control character " + Self.scalarName(scalar.value) }
        if scalar.properties.isWhitespace || scalar.properties.generalCategory == .format {
            return Self.scalarName(scalar.value)
        }
        return "'\(text)'"
    }

    /// `U+0001`: how The Unicode Standard names a scalar.
    static func scalarName(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// A byte as two upper-case hexadecimal digits.
    static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return byte < 0x10 ? "0" + digits : digits
    }

    /// The error for a byte at `position` (or the end of the input) that cannot begin a value.
    func missingValue(_ context: ValueContext) -> JSONSyntaxError {
        switch context {
        case .value:
            return unexpected(nil, expected: "a value")
        case .arrayStart:
            return unexpected(nil, expected: "a value or ']'")
        case .afterComma:
            if position < bytes.count && bytes[position] == UInt8(ascii: "]") {
                return error(at: position, "a trailing comma is not allowed: expected a value after ','")
            }
            return unexpected(nil, expected: "a value")
        }
    }

    /// The error for a byte at `position` (or the end of the input) that cannot begin a key.
    func missingKey(afterComma: Bool) -> JSONSyntaxError {
        guard afterComma else { return unexpected(nil, expected: "a string key or '}'") }
        if position < bytes.count && bytes[position] == UInt8(ascii: "}") {
            return error(at: position, "a trailing comma is not allowed: expected a string key after ','")
        }
        return unexpected(nil, expected: "a string key after ','")
    }
}
