/// A pull tokenizer for JSON (RFC 8259): the one place that knows the grammar.
///
/// ```swift
/// try bytes.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in
///     var reader = JSONReader(bytes: buffer)
///     while true {
///         let token = try reader.next()
///         if token == .end { break }
///         // ...
///     }
/// }
/// ```
///
/// Both `JSONParser` (which builds a `JSONValue` tree for small documents) and `CatalogDecoder` (which decodes
/// a catalog of a million movies straight into `Movie` values) read through it, so both accept exactly the same
/// documents and report the same errors at the same places.
///
/// The reader is strict: no comments, no trailing commas, no `NaN` or `Infinity`, no leading zeros, no
/// unescaped control characters in strings, and every byte of a string must be valid UTF-8 (an invalid sequence
/// is reported at its first byte). It tolerates one thing RFC 8259 allows it to: a UTF-8 byte order mark at the
/// very start. Arrays and objects may nest `maximumDepth` deep; the reader keeps its own stack, so no input can
/// exhaust the call stack, and it never traps on any input: every offset is checked before it is read.
///
/// Cost: one pass over the bytes; a token costs no allocation (strings and numbers are decoded only on demand,
/// with `string(_:)`, `number(_:)`, `integer(_:)` and `double(_:)`).
///
/// The reader borrows `bytes`: it must not outlive the `withUnsafeBufferPointer` call that lent them.
struct JSONReader {
    /// How deep arrays and objects may nest. Deep enough for any real document, shallow enough that the tree
    /// built by `JSONParser` is freed by recursion without a risk to the stack.
    static let maximumDepth = 512

    /// The whole document.
    let bytes: UnsafeBufferPointer<UInt8>
    /// Offset of the first byte not consumed yet.
    private(set) var position: Int
    /// Offset where the token returned last began (for `.end`, the input's length): where a caller that
    /// rejects a value points its user.
    private(set) var tokenStart = 0
    /// The open arrays and objects, innermost last: `true` for an object.
    private var containers: [Bool] = []
    /// What the grammar allows next.
    private var state = State.topLevel
    /// The state after a complete value in the innermost container: kept up to date at each bracket, so that
    /// a value need not look at the containers to know what may follow it.
    private var afterValue = State.afterTopLevelValue

    private enum State {
        /// A value, at the top level.
        case topLevel
        /// A value or `]`, right after `[`.
        case arrayStart
        /// A key or `}`, right after `{`.
        case objectStart
        /// A value, after a key and its `:`.
        case memberValue
        /// After an array element: `,` or `]`.
        case afterElement
        /// After an object member's value: `,` or `}`.
        case afterMember
        /// After the top-level value: only the end of the input.
        case afterTopLevelValue
        /// `.end` was returned.
        case finished
    }

    /// Prepares to read `bytes`, skipping a UTF-8 byte order mark.
    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        position = Self.byteOrderMarkLength(bytes)
    }

    /// 3 if `bytes` start with a UTF-8 byte order mark (which RFC 8259 lets a parser ignore), otherwise 0.
    static func byteOrderMarkLength(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
    }

    /// How many arrays and objects are open around the reader's position.
    var depth: Int { containers.count }

    // MARK: - Tokens

    /// The next token. After `.end`, returns `.end` again.
    mutating func next() throws(JSONSyntaxError) -> JSONToken {
        skipWhitespace()
        tokenStart = position
        // The states that expect a value share this one call of `readValue`, so that it is inlined once.
        let context: ValueContext
        switch state {
        case .afterElement:
            if let end = try commaOrClose(UInt8(ascii: "]"), expected: "',' or ']' after an array element") { return end }
            context = .afterComma
        case .afterMember:
            if let end = try commaOrClose(UInt8(ascii: "}"), expected: "',' or '}' after an object member") { return end }
            return try readKey(afterComma: true)
        case .afterTopLevelValue:
            if position < bytes.count { throw unexpected("after the top-level value", expected: nil) }
            state = .finished
            return .end
        case .memberValue:
            context = .value
        case .objectStart:
            if position < bytes.count && bytes[position] == UInt8(ascii: "}") { return close() }
            return try readKey(afterComma: false)
        case .arrayStart:
            if position < bytes.count && bytes[position] == UInt8(ascii: "]") { return close() }
            context = .arrayStart
        case .topLevel:
            if position == bytes.count { throw error(at: position, "the input holds no JSON value") }
            context = .value
        case .finished:
            return .end
        }
        return try readValue(context)
    }

    /// Consumes the rest of the value that `first` began: nothing more for a scalar, everything up to the
    /// matching `]` or `}` for an array or object. The skipped part is checked like any other.
    mutating func skipValue(startingWith first: JSONToken) throws(JSONSyntaxError) {
        switch first {
        case .beginArray, .beginObject: try skip(toDepth: depth - 1)
        default: return
        }
    }

    /// Consumes tokens until only `target` arrays and objects are open: the rest of whatever value the caller
    /// is inside, however much of it the caller has read. The skipped part is checked like any other.
    mutating func skip(toDepth target: Int) throws(JSONSyntaxError) {
        while depth > target { _ = try next() }
    }

    /// Where a value is read, for the error when there is none.
    private enum ValueContext {
        /// At the top level, or after an object key.
        case value
        /// Right after `[`, where `]` would also do.
        case arrayStart
        /// After a `,` in an array, where `]` would be a trailing comma.
        case afterComma
    }

    // Inlined, like `readKey`, `open`, `close` and `skipWhitespace`: each runs for most tokens, and a call costs
    // about as much as their work.
    @inline(__always)
    private mutating func readValue(_ context: ValueContext) throws(JSONSyntaxError) -> JSONToken {
        guard position < bytes.count else { throw missingValue(context) }
        switch bytes[position] {
        case UInt8(ascii: "\""):
            let token = try scanString()
            state = afterValue
            return .string(token)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let token = try scanNumber()
            state = afterValue
            return .number(token)
        case UInt8(ascii: "["):
            try open(object: false)
            return .beginArray
        case UInt8(ascii: "{"):
            try open(object: true)
            return .beginObject
        case UInt8(ascii: "t"):
            try scanLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try scanLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try scanLiteral("null")
            return .null
        default:
            throw missingValue(context)
        }
    }

    /// The error for a byte at `position` (or the end of the input) that cannot begin a value.
    private func missingValue(_ context: ValueContext) -> JSONSyntaxError {
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

    @inline(__always)
    private mutating func readKey(afterComma: Bool) throws(JSONSyntaxError) -> JSONToken {
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
            throw missingKey(afterComma: afterComma)
        }
        let key = try scanString()
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
            throw unexpected(nil, expected: "':' after an object key")
        }
        position += 1
        state = .memberValue
        return .key(key)
    }

    /// The error for a byte at `position` (or the end of the input) that cannot begin a key.
    private func missingKey(afterComma: Bool) -> JSONSyntaxError {
        guard afterComma else { return unexpected(nil, expected: "a string key or '}'") }
        if position < bytes.count && bytes[position] == UInt8(ascii: "}") {
            return error(at: position, "a trailing comma is not allowed: expected a string key after ','")
        }
        return unexpected(nil, expected: "a string key after ','")
    }

    @inline(__always) private mutating func open(object: Bool) throws(JSONSyntaxError) {
        guard containers.count < Self.maximumDepth else {
            throw error(at: position, "arrays and objects nest deeper than \(Self.maximumDepth) levels")
        }
        containers.append(object)
        position += 1
        state = object ? .objectStart : .arrayStart
        afterValue = object ? .afterMember : .afterElement
    }

    /// After a value inside a container: its end (`closing`, returned as the end token), or a `,`, consumed with
    /// the white space after it (`nil`: the next member or element follows).
    @inline(__always)
    private mutating func commaOrClose(_ closing: UInt8, expected: String) throws(JSONSyntaxError) -> JSONToken? {
        guard position < bytes.count, bytes[position] == UInt8(ascii: ",") else {
            if position < bytes.count && bytes[position] == closing { return close() }
            throw unexpected(nil, expected: expected)
        }
        position += 1
        skipWhitespace()
        tokenStart = position
        return nil
    }

    @inline(__always) private mutating func close() -> JSONToken {
        position += 1
        let object = containers.removeLast()
        afterValue = switch containers.last {
        case true?: .afterMember
        case false?: .afterElement
        case nil: .afterTopLevelValue
        }
        state = afterValue
        return object ? .endObject : .endArray
    }

    // MARK: - Scanning

    @inline(__always) private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): position += 1
            default: return
            }
        }
    }

    /// Scans the string whose opening quote is at `position`, checking escapes, control characters and UTF-8.
    private mutating func scanString() throws(JSONSyntaxError) -> JSONToken.StringToken {
        let opening = position
        let count = bytes.count
        var index = position + 1
        var hasEscapes = false
        while true {
            // The common case first: a run of printable ASCII other than the quote and the backslash, skipped
            // eight bytes at a time; the last few bytes of the input, byte by byte.
            if index + 8 <= count {
                let ends = Self.plainRunEnds(Self.word(bytes, at: index))
                if ends == 0 {
                    index += 8
                    continue
                }
                index += ends.trailingZeroBitCount / 8
            } else {
                while index < count && Self.isPlain(bytes[index]) { index += 1 }
                guard index < count else { throw error(at: opening, "unterminated string") }
            }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") {
                hasEscapes = true
                index = try scanEscape(at: index, stringStart: opening)
            } else if byte >= 0x80 {
                index = try scanUTF8(at: index, stringStart: opening)
            } else if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                throw error(at: index, "line break in a string (a string must be closed on its line; write \\n for a line break)")
            } else {
                throw error(at: index, "control character \(Self.scalarName(UInt32(byte))) in a string must be escaped")
            }
        }
        position = index + 1
        return JSONToken.StringToken(start: opening + 1, end: index, hasEscapes: hasEscapes)
    }

    /// Whether `byte` may stand for itself in a string: printable ASCII other than the quote and the backslash.
    private static func isPlain(_ byte: UInt8) -> Bool {
        byte &- 0x20 < 0x60 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
    }

    /// The 8 bytes at `index` (which the caller has checked are in `bytes`), the first in the low byte.
    private static func word(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped + index)
            .loadUnaligned(as: UInt64.self))
    }

    /// The high bit of each byte of `word` that is not plain (see `isPlain`), and maybe of bytes after it: 0 when
    /// all eight are plain, otherwise the lowest set bit is in the first byte that is not. These are the classic
    /// SWAR tests for a byte below 1 (the quote or the backslash, after an XOR) or below 0x20; a test's borrow
    /// only runs towards higher bytes, so it can flag wrongly only after a byte that it flags rightly.
    private static func plainRunEnds(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quotes = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
        let backslashes = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let flags = ((quotes &- ones) & ~quotes) | ((backslashes &- ones) & ~backslashes)
            | ((word &- ones &* 0x20) & ~word) | word
        return flags & (ones &* 0x80)
    }

    /// Checks the escape whose backslash is at `index`; returns the offset after it.
    private func scanEscape(at index: Int, stringStart: Int) throws(JSONSyntaxError) -> Int {
        guard index + 1 < bytes.count else { throw error(at: stringStart, "unterminated string") }
        switch bytes[index + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
             UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return index + 2
        case UInt8(ascii: "u"):
            for digit in index + 2..<index + 6 {
                guard digit < bytes.count else { throw error(at: stringStart, "unterminated string") }
                guard Self.hexValue(bytes[digit]) != nil else {
                    throw error(at: index, "invalid escape: \\u must be followed by four hexadecimal digits")
                }
            }
            return index + 6
        default:
            throw error(at: index, "invalid escape \(describeCharacter(at: index + 1)) after a backslash "
                + "(valid escapes: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)")
        }
    }

    /// Checks the multi-byte UTF-8 sequence whose lead byte is at `index` (RFC 3629: no overlong forms, no
    /// surrogates, nothing above U+10FFFF); returns the offset after it.
    private func scanUTF8(at index: Int, stringStart: Int) throws(JSONSyntaxError) -> Int {
        let length = Self.utf8SequenceLength(bytes, at: index)
        if length > 0 { return index + length }
        if length == -1 { throw error(at: stringStart, "unterminated string") }
        throw invalidUTF8(at: index)
    }

    /// The length of the valid UTF-8 sequence at `index`, 0 if it is invalid, or -1 if the input ends before
    /// a sequence that is valid so far is complete.
    private static func utf8SequenceLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        let lead = bytes[index]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xE1...0xEF: length = 3
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        case 0xF1...0xF3: length = 4
        default: return 0
        }
        for offset in 1..<length {
            guard index + offset < bytes.count else { return -1 }
            let range = offset == 1 ? secondRange : 0x80...0xBF
            guard range.contains(bytes[index + offset]) else { return 0 }
        }
        return length
    }

    private mutating func scanNumber() throws(JSONSyntaxError) -> JSONToken.NumberToken {
        let start = position
        let count = bytes.count
        var index = start
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < count, Self.isDigit(bytes[index]) else {
            throw unexpected(at: index, nil, expected: "a digit after '-'")
        }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < count && Self.isDigit(bytes[index]) {
                throw error(at: start, "a number must not start with a leading zero")
            }
        } else {
            while index < count && Self.isDigit(bytes[index]) { index += 1 }
        }
        var isInteger = true
        if index < count && bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < count, Self.isDigit(bytes[index]) else {
                throw unexpected(at: index, nil, expected: "a digit after the decimal point")
            }
            while index < count && Self.isDigit(bytes[index]) { index += 1 }
        }
        if index < count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
            isInteger = false
            index += 1
            if index < count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) { index += 1 }
            guard index < count, Self.isDigit(bytes[index]) else {
                throw unexpected(at: index, nil, expected: "a digit in the exponent")
            }
            while index < count && Self.isDigit(bytes[index]) { index += 1 }
        }
        position = index
        return JSONToken.NumberToken(start: start, end: index, isInteger: isInteger)
    }

    private mutating func scanLiteral(_ word: StaticString) throws(JSONSyntaxError) {
        let length = word.utf8CodeUnitCount
        for offset in 0..<length {
            let index = position + offset
            guard index < bytes.count, bytes[index] == word.utf8Start[offset] else {
                throw error(at: position, "invalid literal: expected '\(word)'")
            }
        }
        position += length
        state = afterValue
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    // MARK: - Decoding tokens

    /// The text of a string or key token, escapes resolved.
    ///
    /// A `\u` escape of a lone UTF-16 surrogate (`"\uD800"`, or a high surrogate not followed by a low one)
    /// becomes U+FFFD: RFC 8259's grammar accepts it and JavaScript produces it, so rejecting it would lose a
    /// whole document over one character that a Swift `String` cannot hold anyway.
    func string(_ token: JSONToken.StringToken) -> String {
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
    private static func hexQuad(_ digits: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt32 {
        var value: UInt32 = 0
        for digit in digits[index..<index + 4] { value = value << 4 | (hexValue(digit) ?? 0) }
        return value
    }

    /// Whether a string or key token's text is `text`, without building a `String` unless it holds escapes.
    func string(_ token: JSONToken.StringToken, equals text: StaticString) -> Bool {
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
    func number(_ token: JSONToken.NumberToken) -> JSONNumber {
        JSONNumber(checkedLiteral: String(decoding: literal(token), as: UTF8.self))
    }

    /// The value of a number token if it is an integer literal that fits an `Int` (see `JSONNumber.int`).
    func integer(_ token: JSONToken.NumberToken) -> Int? {
        token.isInteger ? JSONNumber.integerValue(literal: literal(token)) : nil
    }

    /// The value of a number token if it is finite as a `Double` (see `JSONNumber.double`).
    func double(_ token: JSONToken.NumberToken) -> Double? {
        JSONNumber.doubleValue(literal: literal(token))
    }

    /// The bytes of a number token.
    func literal(_ token: JSONToken.NumberToken) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[token.start..<token.end])
    }

    // MARK: - Errors

    /// An error at `offset`, with its line and column.
    func error(at offset: Int, _ reason: String) -> JSONSyntaxError {
        let (line, column) = LineCounter.location(of: offset, in: bytes)
        return JSONSyntaxError(line: line, column: column, offset: offset, reason: reason)
    }

    /// An error for the byte at `offset` (by default the current position) that the grammar does not allow
    /// there, named so that a user can find it: "unexpected 'x', expected a value". Invalid UTF-8 is reported as
    /// such, wherever it is.
    private func unexpected(at offset: Int? = nil, _ context: String?, expected: String?) -> JSONSyntaxError {
        let offset = offset ?? position
        if offset < bytes.count && bytes[offset] >= 0x80 && Self.utf8SequenceLength(bytes, at: offset) <= 0 {
            return invalidUTF8(at: offset)
        }
        let found = offset < bytes.count ? describeCharacter(at: offset) : "end of input"
        var reason = "unexpected \(found)"
        if let context { reason += " \(context)" }
        if let expected { reason += ", expected \(expected)" }
        return error(at: offset, reason)
    }

    private func invalidUTF8(at offset: Int) -> JSONSyntaxError {
        let length = min(4, bytes.count - offset)
        let shown = bytes[offset..<offset + length].map { "0x" + Self.hex($0) }.joined(separator: " ")
        return error(at: offset, "invalid UTF-8 (bytes \(shown))")
    }

    /// The character at `offset` as a user would search for it: `'x'`, `'é'`, or `U+0001` when invisible.
    private func describeCharacter(at offset: Int) -> String {
        let length = Self.utf8SequenceLength(bytes, at: offset)
        guard length > 0 else { return "byte 0x" + Self.hex(bytes[offset]) }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<offset + length]), as: UTF8.self)
        let scalar = text.unicodeScalars.first!
        if scalar.value < 0x20 || scalar.value == 0x7F { return "control character " + Self.scalarName(scalar.value) }
        if scalar.properties.isWhitespace || scalar.properties.generalCategory == .format {
            return Self.scalarName(scalar.value)
        }
        return "'\(text)'"
    }

    private static func scalarName(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return byte < 0x10 ? "0" + digits : digits
    }
}
