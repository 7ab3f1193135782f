extension Unicode.UTF8 {
    /// The length of the valid UTF-8 sequence that starts at `index` of `bytes` (RFC 3629: no overlong forms, no
    /// surrogates, nothing above U+10FFFF): 1 to 4; 0 when the bytes there are not valid UTF-8; -1 when `bytes` end
    /// before a sequence that is valid so far is complete.
    ///
    /// The one UTF-8 check of the package: `JSONReader` validates strings with it (a truncated sequence there
    /// means an unterminated string), `FilePath.description` finds the bytes to show as `\xHH`. `index` must be a
    /// valid index of `bytes`; every later byte is read only after a bounds check.
    ///
    /// ```swift
    /// UTF8.validSequenceLength(in: Array("é".utf8), at: 0)  // 2
    /// UTF8.validSequenceLength(in: [0xC3], at: 0)           // -1: the second byte is missing
    /// UTF8.validSequenceLength(in: [0xC0, 0x80], at: 0)     // 0: an overlong NUL
    /// ```
    static func validSequenceLength<Bytes: RandomAccessCollection<UInt8>>(in bytes: Bytes, at index: Int) -> Int
    where Bytes.Index == Int {
        let lead = bytes[index]
        let length: Int
        // The second byte's range is narrowed for the leads that could otherwise begin an overlong form (E0, F0),
        // a surrogate (ED) or a scalar above U+10FFFF (F4).
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
            guard index + offset < bytes.endIndex else { return -1 }
            let range = offset == 1 ? secondRange : 0x80...0xBF
            guard range.contains(bytes[index + offset]) else { return 0 }
        }
        return length
    }
}
