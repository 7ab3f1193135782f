import MovieSearchPlatform

// Scanning: checks the bytes of one token where it begins and says where it ends. Nothing here moves the reader;
// `next()` advances `position` to the end these functions return, so that the grammar's state changes in one place.
extension JSONReader {
    /// The offset of the first byte at or after `index` that is not JSON white space (space, tab, line feed,
    /// carriage return).
    @inline(__always) func whitespaceEnd(from index: Int) -> Int {
        var index = index
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): index += 1
            default: return index
            }
        }
        return index
    }

    /// Scans the string whose opening quote is at `opening`, checking escapes, control characters and UTF-8; the
    /// token ends at its closing quote.
    func scanString(at opening: Int) throws(JSONSyntaxError) -> JSONToken.StringToken {
        let count = bytes.count
        var index = opening + 1
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
        return JSONToken.StringToken(start: opening + 1, end: index, hasEscapes: hasEscapes)
    }

    /// Whether `byte` may stand for itself in a string: printable ASCII other than the quote and the backslash.
    static func isPlain(_ byte: UInt8) -> Bool {
        byte &- 0x20 < 0x60 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
    }

    /// The 8 bytes at `index` (which the caller has checked are in `bytes`), the first in the low byte.
    static func word(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped + index)
            .loadUnaligned(as: UInt64.self))
    }

    /// The high bit of each byte of `word` that is not plain (see `isPlain`), and maybe of bytes after it: 0 when
    /// all eight are plain, otherwise the lowest set bit is in the first byte that is not. These are the classic
    /// SWAR tests for a byte below 1 (the quote or the backslash, after an XOR) or below 0x20; a test's borrow
    /// only runs towards higher bytes, so it can flag wrongly only after a byte that it flags rightly.
    static func plainRunEnds(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quotes = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
        let backslashes = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let flags = ((quotes &- ones) & ~quotes) | ((backslashes &- ones) & ~backslashes)
            | ((word &- ones &* 0x20) & ~word) | word
        return flags & (ones &* 0x80)
    }

    /// Checks the escape whose backslash is at `index`; returns the offset after it.
    func scanEscape(at index: Int, stringStart: Int) throws(JSONSyntaxError) -> Int {
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
    func scanUTF8(at index: Int, stringStart: Int) throws(JSONSyntaxError) -> Int {
        let length = UTF8.validSequenceLength(in: bytes, at: index)
        if length > 0 { return index + length }
        if length == -1 { throw error(at: stringStart, "unterminated string") }
        throw invalidUTF8(at: index)
    }

    /// Scans the number whose first byte (`-` or a digit) is at `start`.
    func scanNumber(at start: Int) throws(JSONSyntaxError) -> JSONToken.NumberToken {
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
        return JSONToken.NumberToken(start: start, end: index, isInteger: isInteger)
    }

    /// Checks that the literal `word` (`true`, `false` or `null`) stands at `start`; returns the offset after it.
    func scanLiteral(_ word: StaticString, at start: Int) throws(JSONSyntaxError) -> Int {
        let length = word.utf8CodeUnitCount
        for offset in 0..<length {
            let index = start + offset
            guard index < bytes.count, bytes[index] == word.utf8Start[offset] else {
                throw error(at: start, "invalid literal: expected '\(word)'")
            }
        }
        return start + length
    }

    /// Whether `byte` is an ASCII digit.
    static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    /// The value of an ASCII hexadecimal digit (either case), or `nil` for any other byte.
    static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }
}
