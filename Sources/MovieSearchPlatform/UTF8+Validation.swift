extension Unicode.UTF8 {
    /// The length of the valid UTF-8 sequence that starts at `index` of `bytes` (RFC 3629: no overlong forms, no
    /// surrogates, nothing above U+10FFFF): 1 to 4; 0 when the bytes there are not valid UTF-8; -1 when `bytes` end
    /// before a sequence that is valid so far is complete.
    ///
    /// The UTF-8 check of the package: `JSONReader` validates strings with it (a truncated sequence there means an
    /// unterminated string), `FilePath.description` finds the bytes to show as `\xHH`. `index` must be a valid
    /// index of `bytes`; every later byte is read only after a bounds check.
    ///
    /// ```swift
    /// UTF8.validSequenceLength(in: Array("é".utf8), at: 0)  // 2
    /// UTF8.validSequenceLength(in: [0xC3], at: 0)           // -1: the second byte is missing
    /// UTF8.validSequenceLength(in: [0xC0, 0x80], at: 0)     // 0: an overlong NUL
    /// ```
    package static func validSequenceLength<Bytes: RandomAccessCollection<UInt8>>(in bytes: Bytes, at index: Int) -> Int
    where Bytes.Index == Int {
        let lead = bytes[index]
        if lead < 0x80 { return 1 }
        guard let (count, first) = continuation(afterLead: lead) else { return 0 }
        for offset in 1...count {
            guard index + offset < bytes.endIndex else { return -1 }
            let range = offset == 1 ? first : 0x80...0xBF
            guard range.contains(bytes[index + offset]) else { return 0 }
        }
        return count + 1
    }

    /// What RFC 3629 allows after `lead`, the first byte of a multi-byte sequence: how many continuation bytes
    /// follow, and the range of the first of them, narrowed after E0, ED, F0 and F4 so that no overlong form, no
    /// surrogate and nothing above U+10FFFF gets through (every later one is in 80...BF); `nil` for a byte that
    /// cannot begin a multi-byte sequence (ASCII, a continuation byte, C0, C1, F5...FF).
    ///
    /// The table of UTF-8 validity, shared by `validSequenceLength(in:at:)` and `JSONStreamChecker`.
    @inline(__always)
    package static func continuation(afterLead lead: UInt8) -> (count: Int, first: ClosedRange<UInt8>)? {
        switch lead {
        case 0xC2...0xDF: (1, 0x80...0xBF)
        case 0xE0: (2, 0xA0...0xBF)
        case 0xED: (2, 0x80...0x9F)
        case 0xE1...0xEF: (2, 0x80...0xBF)
        case 0xF0: (3, 0x90...0xBF)
        case 0xF4: (3, 0x80...0x8F)
        case 0xF1...0xF3: (3, 0x80...0xBF)
        default: nil
        }
    }
}
