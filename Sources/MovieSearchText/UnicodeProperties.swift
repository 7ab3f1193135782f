/// The decoded Unicode tables of tokenization: per scalar, a property word (class, canonical combining class,
/// whether it is punctuation or a symbol, whether it is a number, mapping record), and per record its full NFKD
/// decomposition and full case folding.
///
///     let tables = UnicodeProperties.shared         // decodes `UnicodeTables` on first use
///     let word = tables.word(of: 0x00E9)            // "é"
///     UnicodeProperties.scalarClass(of: word)       // .token
///     tables.decomposition(of: word)                // [(U+0065, its word), (U+0301, its word)]
///
/// Decoding `UnicodeTables` costs a fraction of a millisecond and a few hundred KB of memory (PERFORMANCE.md, "Figures
/// behind the code"), once per process, at the
/// first non-ASCII text (`Tokenizer` handles ASCII without the tables). Lookups are two loads and no bounds checks,
/// constant time. They are safe because `init` checks every block number
/// and every record's slice while decoding, and code points never exceed 0x10FFFF. The buffers are allocated once and
/// live as long as the process (there is a single shared instance), so they are immutable after `init` and safe to
/// read from any thread.
package struct UnicodeProperties: @unchecked Sendable {
    /// What a scalar is to tokenization (bits 0–1 of a property word).
    enum ScalarClass: UInt32 {
        /// Separates tokens: punctuation, symbols, spaces, controls, unassigned code points.
        case separator = 0
        /// Part of a token: general category L*, N*, Mc or Me.
        case token = 1
        /// General category Mn: deleted after each decomposition.
        case nonspacingMark = 2
        /// One of the four apostrophes of step 4: deleted before cutting tokens.
        case apostrophe = 3
    }

    /// The shared tables, decoded on first use.
    package static let shared = UnicodeProperties()

    /// The bit set in the word of a scalar of general category P or S: a separator that joins the tokens on its
    /// sides when it stands alone between them (SPEC.md "Tokens", step 6).
    static let joinsWordsBit: UInt32 = 1 << 10

    /// The bit set in the word of a scalar of general category N: a token with a number gets no typo budget
    /// (SPEC.md, "Typos").
    static let numberBit: UInt32 = 1 << 11

    /// The bit where a word's mapping record number starts.
    static let recordShift: UInt32 = 12

    private let blockIndex: UnsafeMutableBufferPointer<UInt16>
    private let blocks: UnsafeMutableBufferPointer<UInt32>
    /// Per record number: pool start << 8 | count, for the decomposition and for the folding (count 0: none).
    private let decompositions: UnsafeMutableBufferPointer<UInt32>
    private let foldings: UnsafeMutableBufferPointer<UInt32>
    /// Scalars of all mappings, each stored with its own property word (word << 32 | scalar) so that walking a
    /// mapping needs no further lookup.
    private let pool: UnsafeMutableBufferPointer<UInt64>

    private init() {
        let shift = UnicodeTables.blockShift
        let blockSize = 1 << shift
        blockIndex = .allocate(capacity: 0x110000 >> shift)
        blocks = .allocate(capacity: UnicodeTables.blockCount << shift)
        decompositions = .allocate(capacity: UnicodeTables.recordCount + 1)
        foldings = .allocate(capacity: UnicodeTables.recordCount + 1)
        pool = .allocate(capacity: UnicodeTables.poolCount)
        decompositions[0] = 0
        foldings[0] = 0

        var reader = Reader(UnicodeTables.blockIndexRuns)
        var filled = 0
        while filled < blockIndex.count {
            let length = reader.next(), block = reader.next()
            Self.check(length > 0 && length <= blockIndex.count - filled && block < UnicodeTables.blockCount)
            blockIndex[filled..<(filled + length)].initialize(repeating: UInt16(block))
            filled += length
        }
        Self.check(reader.isAtEnd)

        reader = Reader(UnicodeTables.blockRuns)
        filled = 0
        while filled < blocks.count {
            let length = reader.next(), word = reader.next()
            let blockEnd = (filled & ~(blockSize - 1)) + blockSize
            Self.check(length > 0 && length <= blockEnd - filled && word < 1 << Self.recordShift)
            blocks[filled..<(filled + length)].initialize(repeating: UInt32(word))
            filled += length
        }
        Self.check(reader.isAtEnd)

        reader = Reader(UnicodeTables.records)
        var scalar = 0
        var poolCount = 0
        for record in 1...UnicodeTables.recordCount {
            scalar += reader.next()
            let counts = reader.next()
            let decompositionCount = counts >> 2, foldingCount = counts & 3
            Self.check(scalar < 0x110000 && decompositionCount < 256)
            decompositions[record] = UInt32(poolCount) << 8 | UInt32(decompositionCount)
            poolCount += decompositionCount
            foldings[record] = UInt32(poolCount) << 8 | UInt32(foldingCount)
            poolCount += foldingCount
            // Only unique blocks hold records (the generator guarantees it), so this writes to one scalar only.
            blocks[Int(blockIndex[scalar >> shift]) << shift | scalar & (blockSize - 1)] |=
                UInt32(record) << Self.recordShift
        }
        Self.check(reader.isAtEnd && poolCount == pool.count)

        // The bulk of the data: a tight loop, with one check of all digits at the end.
        let digits = UnsafeBufferPointer(start: UnicodeTables.pool.utf8Start,
                                         count: UnicodeTables.pool.utf8CodeUnitCount)
        Self.check(digits.count == 4 * pool.count)
        var outOfRange: UInt8 = 0
        for i in 0..<pool.count {
            let d0 = digits[4 * i] &- 0x3F, d1 = digits[4 * i + 1] &- 0x3F
            let d2 = digits[4 * i + 2] &- 0x3F, d3 = digits[4 * i + 3] &- 0x3F
            outOfRange |= (d0 | d1 | d2 | d3) & 0xC0
            pool[i] = UInt64(d0) | UInt64(d1) << 6 | UInt64(d2) << 12 | UInt64(d3) << 18
        }
        Self.check(outOfRange == 0)

        // Now that every word is complete, store each pooled scalar's word beside it.
        for i in 0..<pool.count {
            let scalar = UInt32(truncatingIfNeeded: pool[i])
            Self.check(scalar < 0x110000)
            pool[i] |= UInt64(word(of: scalar)) << 32
        }
    }

    /// The property word of `scalar` (at most 0x10FFFF).
    @inline(__always)
    package func word(of scalar: UInt32) -> UInt32 {
        let shift = UInt32(UnicodeTables.blockShift)
        let block = UInt32(blockIndex[unchecked: Int(scalar >> shift)])
        return blocks[unchecked: Int(block << shift | scalar & ((1 << shift) - 1))]
    }

    /// The class stored in a property word.
    @inline(__always)
    static func scalarClass(of word: UInt32) -> ScalarClass {
        ScalarClass(rawValue: word & 3).unsafelyUnwrapped
    }

    /// Whether the word's scalar is punctuation or a symbol (general category P or S), the separators that may
    /// join words.
    @inline(__always)
    static func joinsWords(_ word: UInt32) -> Bool { word & joinsWordsBit != 0 }

    /// Whether the word's scalar is a number (general category N).
    @inline(__always)
    package static func isNumber(_ word: UInt32) -> Bool { word & numberBit != 0 }

    /// The canonical combining class stored in a property word.
    @inline(__always)
    static func combiningClass(of word: UInt32) -> UInt32 { word >> 2 & 0xFF }

    /// Whether the word's scalar has a decomposition or a folding (Hangul syllables have neither: they decompose
    /// algorithmically).
    @inline(__always)
    static func hasMapping(_ word: UInt32) -> Bool { word >> recordShift != 0 }

    /// The full NFKD decomposition of the word's scalar as (word << 32 | scalar) entries; empty if it decomposes to
    /// itself or is a Hangul syllable.
    @inline(__always)
    func decomposition(of word: UInt32) -> UnsafeBufferPointer<UInt64> {
        slice(decompositions[unchecked: Int(word >> Self.recordShift)])
    }

    /// The full case folding of the word's scalar as (word << 32 | scalar) entries; empty if it folds to itself.
    @inline(__always)
    func folding(of word: UInt32) -> UnsafeBufferPointer<UInt64> {
        slice(foldings[unchecked: Int(word >> Self.recordShift)])
    }

    @inline(__always)
    private func slice(_ startAndCount: UInt32) -> UnsafeBufferPointer<UInt64> {
        UnsafeBufferPointer(start: pool.baseAddress.unsafelyUnwrapped + Int(startAndCount >> 8),
                            count: Int(startAndCount & 0xFF))
    }

    /// A generated table that does not decode is a bug of the generator, never of the input: stop at once.
    private static func check(_ condition: Bool, line: UInt = #line) {
        if !condition { fatalError("UnicodeTables.swift is corrupt (check at line \(line)): regenerate it") }
    }

    /// Reads the variable-length unsigned integers of an encoded table (see `Scripts/generate-unicode-tables.py`).
    private struct Reader {
        private let bytes: UnsafeBufferPointer<UInt8>
        private var offset = 0

        init(_ text: StaticString) {
            bytes = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        }

        /// Whether every integer has been read.
        var isAtEnd: Bool { offset == bytes.count }

        /// The next integer; traps on a truncated or corrupt table.
        mutating func next() -> Int {
            UnicodeProperties.check(offset < bytes.count)
            let first = bytes[offset] &- 0x3F
            offset += 1
            if first < 0x20 { return Int(first) }  // most integers are below 32: one digit
            UnicodeProperties.check(first < 0x40)
            var value = Int(first & 0x1F)
            var shift = 5
            while true {
                UnicodeProperties.check(offset < bytes.count && shift < 60)
                let digit = bytes[offset] &- 0x3F
                offset += 1
                UnicodeProperties.check(digit < 0x40)
                value |= Int(digit & 0x1F) << shift
                if digit < 0x20 { return value }
                shift += 5
            }
        }
    }
}

extension UnsafeMutableBufferPointer {
    /// The element at `index`, without the bounds check of debug builds; callers prove `index` valid.
    @inline(__always)
    fileprivate subscript(unchecked index: Int) -> Element {
        baseAddress.unsafelyUnwrapped[index]
    }
}
