import MovieSearchPlatform

/// Checks JSON as it arrives, chunk by chunk, and finds the first byte that no JSON document could hold there.
///
/// ```swift
/// var checker = JSONStreamChecker()
/// while let chunk = nextChunk() {
///     if let bad = chunk.withUnsafeBufferPointer({ checker.feed($0) }) {
///         // Stop reading: decoding the bytes up to `bad + JSONStreamChecker.lookahead` reports the error.
///     }
/// }
/// ```
///
/// It knows the grammar of `JSONReader` (RFC 8259, strict, a byte order mark allowed at the start, nesting up to
/// `JSONReader.maximumDepth`) as a small state machine, so a stream that is not JSON (`/dev/zero`, a binary file
/// on a pipe) stops being read at once instead of being gathered until memory runs out. It does not word the
/// error: the bytes read so far go to the decoder that would have read the whole input, and `JSONReader` names
/// the fault exactly as it would in the whole input, because
/// - every byte before the one flagged extends a valid prefix, so the reader finds nothing wrong before it;
/// - the reader reports a fault at or before the flagged byte, looking at most `lookahead` bytes from it (a
///   character it describes, the bytes of invalid UTF-8), never at the end of the input.
/// Faults that only the end of the input shows (an unterminated string, a missing `]`) are not flagged here:
/// the decoder finds them once the input has ended.
///
/// Cost: O(1) per byte, no allocation except the stack of open arrays and objects.
struct JSONStreamChecker {
    /// How many bytes from the flagged one on the decoder may look at to word its error.
    static let lookahead = 4

    /// Bytes checked so far.
    private(set) var offset = 0
    /// Offset of the first byte that cannot be part of a JSON document there, once one has been seen.
    private(set) var failure: Int?

    /// The open arrays and objects, innermost last: `true` for an object.
    private var containers: [Bool] = []
    private var state = State.start
    /// Set by `step` when the byte it was given is bad.
    private var failed = false

    private enum State: Equatable {
        /// The first byte of the input: a byte order mark may begin.
        case start
        /// Inside a byte order mark, after `matched` of its three bytes.
        case byteOrderMark(matched: Int)
        /// White space, then a value; `]` too right after `[`.
        case value(allowsClose: Bool)
        /// White space, then a key; `}` too right after `{`.
        case key(allowsClose: Bool)
        /// White space, then the `:` after a key.
        case colon
        /// White space, then what may follow a complete value in the innermost container (or nothing at the top).
        case afterValue
        /// Inside a string (a key when `isKey`).
        case string(isKey: Bool)
        /// After a backslash in a string.
        case escape(isKey: Bool)
        /// Inside `\uXXXX`, with `remaining` hexadecimal digits to come.
        case unicodeEscape(isKey: Bool, remaining: Int)
        /// Inside a multi-byte UTF-8 sequence, with `remaining` continuation bytes to come; the next one must be
        /// in `low...high`.
        case utf8(isKey: Bool, remaining: Int, low: UInt8, high: UInt8)
        /// In a number: after `-`, after a leading `0`, in the integer digits, after `.`, in the fraction, after
        /// `e`, after the exponent's sign, in the exponent.
        case minus, zero, integer, dot, fraction, exponentMark, exponentSign, exponent
        /// Inside `true`, `false` or `null`, after `matched` of its bytes.
        case literal(Literal, matched: Int)
    }

    enum Literal: Equatable {
        case `true`, `false`, null

        var bytes: StaticString {
            switch self {
            case .true: "true"
            case .false: "false"
            case .null: "null"
            }
        }
    }

    init() {}

    /// Checks the next bytes of the input. Returns the offset (from the start of the input) of the first byte
    /// that cannot be part of a JSON document, or `nil` while every byte so far can. Once a byte is flagged, later
    /// calls return the same offset and check nothing.
    mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>) -> Int? {
        if let failure { return failure }
        var index = 0
        while index < chunk.count {
            if step(chunk[index]) {
                index += 1
            } else if failed {
                failure = offset + index
                return failure
            }
            // `step` returned false without a failure: the byte ended a number and is read again as what follows.
        }
        offset += chunk.count
        return nil
    }

    /// Consumes `byte`, or returns false: with `failure` set when the byte is bad, otherwise to be read again in
    /// the state it moved to.
    @inline(__always)
    private mutating func step(_ byte: UInt8) -> Bool {
        switch state {
        case .start:
            if byte == 0xEF {
                state = .byteOrderMark(matched: 1)
                return true
            }
            state = .value(allowsClose: false)
            return false
        case let .byteOrderMark(matched):
            // A mark cut short is no value either: 0xEF cannot begin one.
            guard byte == (matched == 1 ? 0xBB : 0xBF) else { return fail() }
            state = matched == 2 ? .value(allowsClose: false) : .byteOrderMark(matched: matched + 1)
            return true
        case let .value(allowsClose):
            if Self.isWhitespace(byte) { return true }
            if allowsClose && byte == UInt8(ascii: "]") { return close() }
            return beginValue(byte)
        case let .key(allowsClose):
            if Self.isWhitespace(byte) { return true }
            if allowsClose && byte == UInt8(ascii: "}") { return close() }
            guard byte == UInt8(ascii: "\"") else { return fail() }
            state = .string(isKey: true)
            return true
        case .colon:
            if Self.isWhitespace(byte) { return true }
            guard byte == UInt8(ascii: ":") else { return fail() }
            state = .value(allowsClose: false)
            return true
        case .afterValue:
            if Self.isWhitespace(byte) { return true }
            guard let isObject = containers.last else { return fail() }
            if byte == UInt8(ascii: ",") {
                state = isObject ? .key(allowsClose: false) : .value(allowsClose: false)
                return true
            }
            guard byte == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else { return fail() }
            return close()
        case let .string(isKey):
            switch byte {
            case UInt8(ascii: "\""): state = isKey ? .colon : .afterValue
            case UInt8(ascii: "\\"): state = .escape(isKey: isKey)
            case 0x20...0x7F: break
            case 0x80...0xFF:
                // A continuation byte, or a byte never in UTF-8, cannot begin a character.
                guard let (count, first) = UTF8.continuation(afterLead: byte) else { return fail() }
                state = .utf8(isKey: isKey, remaining: count, low: first.lowerBound, high: first.upperBound)
            default: return fail()  // A control character.
            }
            return true
        case let .escape(isKey):
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                 UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                state = .string(isKey: isKey)
            case UInt8(ascii: "u"):
                state = .unicodeEscape(isKey: isKey, remaining: 4)
            default:
                return fail()
            }
            return true
        case let .unicodeEscape(isKey, remaining):
            guard Self.isHexDigit(byte) else { return fail() }
            state = remaining == 1 ? .string(isKey: isKey) : .unicodeEscape(isKey: isKey, remaining: remaining - 1)
            return true
        case let .utf8(isKey, remaining, low, high):
            guard byte >= low && byte <= high else { return fail() }
            state = remaining == 1 ? .string(isKey: isKey) : .utf8(isKey: isKey, remaining: remaining - 1, low: 0x80, high: 0xBF)
            return true
        case .minus:
            switch byte {
            case UInt8(ascii: "0"): state = .zero
            case UInt8(ascii: "1")...UInt8(ascii: "9"): state = .integer
            default: return fail()
            }
            return true
        case .zero:
            if Self.isDigit(byte) { return fail() }  // A leading zero.
            return endOfInteger(byte)
        case .integer:
            if Self.isDigit(byte) { return true }
            return endOfInteger(byte)
        case .dot:
            return firstDigit(byte, then: .fraction)
        case .fraction:
            if Self.isDigit(byte) { return true }
            if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                state = .exponentMark
                return true
            }
            state = .afterValue
            return false
        case .exponentMark:
            if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") {
                state = .exponentSign
                return true
            }
            return firstDigit(byte, then: .exponent)
        case .exponentSign:
            return firstDigit(byte, then: .exponent)
        case .exponent:
            if Self.isDigit(byte) { return true }
            state = .afterValue
            return false
        case let .literal(literal, matched):
            let word = literal.bytes
            guard byte == word.utf8Start[matched] else { return fail() }
            state = matched + 1 == word.utf8CodeUnitCount ? .afterValue : .literal(literal, matched: matched + 1)
            return true
        }
    }

    /// The first byte of a value.
    @inline(__always)
    private mutating func beginValue(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "\""): state = .string(isKey: false)
        case UInt8(ascii: "-"): state = .minus
        case UInt8(ascii: "0"): state = .zero
        case UInt8(ascii: "1")...UInt8(ascii: "9"): state = .integer
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            guard containers.count < JSONReader.maximumDepth else { return fail() }
            let isObject = byte == UInt8(ascii: "{")
            containers.append(isObject)
            state = isObject ? .key(allowsClose: true) : .value(allowsClose: true)
        case UInt8(ascii: "t"): state = .literal(.true, matched: 1)
        case UInt8(ascii: "f"): state = .literal(.false, matched: 1)
        case UInt8(ascii: "n"): state = .literal(.null, matched: 1)
        default: return fail()
        }
        return true
    }

    /// After the integer digits of a number: a fraction, an exponent, or the end of the number (`byte` is then
    /// read again as what follows the value).
    @inline(__always)
    private mutating func endOfInteger(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "."): state = .dot
        case UInt8(ascii: "e"), UInt8(ascii: "E"): state = .exponentMark
        default:
            state = .afterValue
            return false
        }
        return true
    }

    /// The digit that must come after `.`, after `e`, or after the exponent's sign; `next` is the run it begins.
    @inline(__always)
    private mutating func firstDigit(_ byte: UInt8, then next: State) -> Bool {
        guard Self.isDigit(byte) else { return fail() }
        state = next
        return true
    }

    @inline(__always)
    private mutating func close() -> Bool {
        containers.removeLast()
        state = .afterValue
        return true
    }

    /// Marks the byte being checked as bad (`feed` records where it is).
    private mutating func fail() -> Bool {
        failed = true
        return false
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\t")
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20) &- UInt8(ascii: "a") < 6
    }
}
