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
///
/// This file holds the grammar: which token may come next, and the stack of open arrays and objects. The bytes of
/// one token are checked in `JSONReader+Scanning.swift`, a token's text or number is decoded on demand in
/// `JSONReader+Decoding.swift`, and the messages of `JSONSyntaxError` are worded in `JSONReader+Errors.swift`.
package struct JSONReader {
    /// How deep arrays and objects may nest. Deep enough for any real document, shallow enough that the tree
    /// built by `JSONParser` is freed by recursion without a risk to the stack.
    static let maximumDepth = 512

    /// The whole document.
    package let bytes: UnsafeBufferPointer<UInt8>
    /// Offset of the first byte not consumed yet.
    package private(set) var position: Int
    /// Offset where the token returned last began (for `.end`, the input's length): where a caller that
    /// rejects a value points its user.
    package private(set) var tokenStart = 0
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
    package init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        position = Self.byteOrderMarkLength(bytes)
    }

    /// 3 if `bytes` start with a UTF-8 byte order mark (which RFC 8259 lets a parser ignore), otherwise 0.
    static func byteOrderMarkLength(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
    }

    /// How many arrays and objects are open around the reader's position.
    package var depth: Int { containers.count }

    // MARK: - Tokens

    /// The next token. After `.end`, returns `.end` again.
    package mutating func next() throws(JSONSyntaxError) -> JSONToken {
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
    package mutating func skipValue(startingWith first: JSONToken) throws(JSONSyntaxError) {
        switch first {
        case .beginArray, .beginObject: try skip(toDepth: depth - 1)
        default: return
        }
    }

    /// Consumes tokens until only `target` arrays and objects are open: the rest of whatever value the caller
    /// is inside, however much of it the caller has read. The skipped part is checked like any other.
    package mutating func skip(toDepth target: Int) throws(JSONSyntaxError) {
        while depth > target { _ = try next() }
    }

    /// Where a value is read, for the error when there is none.
    enum ValueContext {
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
            let token = try scanString(at: position)
            position = token.end + 1
            state = afterValue
            return .string(token)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let token = try scanNumber(at: position)
            position = token.end
            state = afterValue
            return .number(token)
        case UInt8(ascii: "["):
            try open(object: false)
            return .beginArray
        case UInt8(ascii: "{"):
            try open(object: true)
            return .beginObject
        case UInt8(ascii: "t"):
            try readLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try readLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try readLiteral("null")
            return .null
        default:
            throw missingValue(context)
        }
    }

    @inline(__always)
    private mutating func readKey(afterComma: Bool) throws(JSONSyntaxError) -> JSONToken {
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
            throw missingKey(afterComma: afterComma)
        }
        let key = try scanString(at: position)
        position = key.end + 1
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
            throw unexpected(nil, expected: "':' after an object key")
        }
        position += 1
        state = .memberValue
        return .key(key)
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

    /// The literal `word` (`true`, `false` or `null`), whose first letter is at `position`.
    private mutating func readLiteral(_ word: StaticString) throws(JSONSyntaxError) {
        position = try scanLiteral(word, at: position)
        state = afterValue
    }

    @inline(__always) private mutating func skipWhitespace() {
        position = whitespaceEnd(from: position)
    }
}
