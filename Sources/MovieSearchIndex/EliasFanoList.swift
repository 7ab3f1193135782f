/// An Elias–Fano coded list of ascending ranks inside a checked, verified part of a mapping (`CacheFormat`,
/// "Elias–Fano lists"): what a posting list of `POST` or a list set of `LSTD` is stored as since version 11 (unless it
/// is long enough to be packed, `StoredList`).
///
/// A list of n ranks below N keeps the low `lowBits` = ⌊log₂(N / n)⌋ bits of each rank packed, and the rest (the
/// high part) in unary: rank i sets bit `(rank >> lowBits) + i` of the upper bits. That is about 2 + log₂(N / n)
/// bits a rank where a packed list takes log₂ N: the list sets of century's 36,273 movies 9.3 bits, not 16; those of
/// the generated 1M catalog 10.5, not 20 (the layout of Vigna's "Quasi-succinct indices"). Every 64th rank's upper bit
/// is sampled (`samples`), so that rank i is found from the sample before it by counting the set bits of a few words.
///
/// Reading in order (`decoded()`, `forEachRank`, `Cursor`) costs a bit scan, a shift and a load of low bits a rank,
/// three to four times a packed rank's instructions. A cursor skips ranks without reading them
/// (`Cursor.advance(to:)`: the zeros of their upper bits counted a word at a time), as Lucene's and tantivy's
/// postings skip blocks; a random read (`subscript`, `Cursor.seek(to:)`) costs a sample, a few popcounts and a
/// select in one word.
///
/// Every read stays inside the bytes `PrefixSetReader` checked (the list's layout and the 8 bytes after it), whatever they hold: a forged list
/// whose bits run out gives `UInt32.max`, a rank no catalog has, which the readers of ranks refuse as corrupt.
@_spi(Engine) public struct EliasFanoList {
    /// The sampled upper-bit positions: entry j − 1 (a little-endian u32) is where rank 64j's bit is.
    @usableFromInline let samples: UnsafeRawPointer
    /// The upper bits, `upperBitCount` of them, read as little-endian u64 words from byte 0.
    @usableFromInline let upper: UnsafeRawPointer
    @usableFromInline let upperBitCount: Int
    /// The low bits, packed right after the upper bits in the same bit string: entry i is bits
    /// `lowFirstBit + i × lowBits ..< lowFirstBit + (i + 1) × lowBits` from `upper`, read as a packed section's.
    @usableFromInline let lowFirstBit: Int
    @usableFromInline let lowBits: Int
    @usableFromInline let lowMask: UInt64
    /// Number of ranks.
    public let count: Int

    /// Ranks a sample stands for: rank 64j's upper bit is sampled, for j ≥ 1.
    package static let samplingInterval = 64

    /// A view of the list of `count` ranks below `universe` whose bytes start at `base` (the layout is `layout(count:
    /// universe:)`'s, checked by the caller with the 8 bytes after it).
    @usableFromInline @inline(__always)
    init(base: UnsafeRawPointer, count: Int, universe: Int) {
        // `layout(count:universe:)`'s figures, worked out here without the rest: a merge of a small range makes a
        // view of each of its lists, most of them a rank or two long.
        let lowBits = count > 0 ? Self.lowBits(count: count, universe: universe) : 0
        let largest = max(universe, 1) &- 1
        let upperBitCount = count > 0 ? Self.upperBitCount(count: count, lowBits: lowBits, largest: largest) : 0
        samples = base
        upper = base + (count > 0 ? Self.sampleBytes(count: count) : 0)
        self.upperBitCount = upperBitCount
        lowFirstBit = upperBitCount
        self.lowBits = lowBits
        lowMask = (1 &<< UInt64(lowBits)) &- 1
        self.count = count
    }

    // MARK: Layout

    /// Where the parts of a list of `count` ranks below `universe` lie, from its first byte: the samples, then the
    /// upper bits, then the low bits; `byteCount` is its length.
    package struct Layout: Equatable {
        package var lowBits: Int
        package var sampleCount: Int
        package var upperBitCount: Int
        package var upperOffset: Int
        package var byteCount: Int
    }

    /// The layout of a list of `count` ranks below `universe` (`CacheFormat`, "Elias–Fano lists"): all of it follows
    /// from the two numbers, so a file stores neither widths nor lengths, only where each list starts.
    package static func layout(count: Int, universe: Int) -> Layout {
        guard count > 0 else {
            return Layout(lowBits: 0, sampleCount: 0, upperBitCount: 0, upperOffset: 0, byteCount: 0)
        }
        let lowBits = lowBits(count: count, universe: universe)
        let sampleCount = (count - 1) / samplingInterval
        let upperBitCount = upperBitCount(count: count, lowBits: lowBits, largest: max(universe, 1) - 1)
        let upperOffset = sampleBytes(count: count)
        // The low bits follow the upper bits in the same bit string: no byte is rounded up between them.
        return Layout(lowBits: lowBits, sampleCount: sampleCount, upperBitCount: upperBitCount,
                      upperOffset: upperOffset, byteCount: upperOffset + (upperBitCount + count * lowBits + 7) / 8)
    }

    /// ℓ = ⌊log₂(universe / count)⌋ (0 when count passes half the universe), for a `count` above 0, without a
    /// division (a reader works out the lengths of up to 7 lists to find one): the difference of their bit lengths,
    /// less one where the shifted count passes the universe.
    @inline(__always)
    static func lowBits(count: Int, universe: Int) -> Int {
        lowBits(count: count, universe: universe, universeZeros: max(universe, 1).leadingZeroBitCount)
    }

    /// `lowBits(count:universe:)`, given the leading zero bits of the universe (at least 1), which a walk over the
    /// lists of one section works out once (`Lengths`).
    @inline(__always)
    static func lowBits(count: Int, universe: Int, universeZeros: Int) -> Int {
        var lowBits = count.leadingZeroBitCount &- universeZeros
        if lowBits > 0, count &<< lowBits > universe { lowBits &-= 1 }
        return max(lowBits, 0)
    }

    /// The length in bytes of a list of `count` ranks below `universe`: `layout(count:universe:).byteCount`, without
    /// the rest of the layout (`GenreTable` checks each genre's list against it).
    @inline(__always)
    package static func byteCount(count: Int, universe: Int) -> Int {
        guard count > 0 else { return 0 }
        let lowBits = lowBits(count: count, universe: universe)
        return byteCount(count: count, lowBits: lowBits, largest: max(universe, 1) &- 1)
    }

    /// `byteCount(count:universe:)` for a `count` above 0 with `lowBits` low bits, `largest` the largest rank below
    /// the universe: the samples, then the upper and low bits rounded up to a byte.
    @inline(__always)
    static func byteCount(count: Int, lowBits: Int, largest: Int) -> Int {
        let upperBits = upperBitCount(count: count, lowBits: lowBits, largest: largest)
        return sampleBytes(count: count) &+ (upperBits &+ count &* lowBits &+ 7) &>> 3
    }

    /// The upper bits of a list of `count` ranks (above 0) with `lowBits` low bits, `largest` the largest rank below
    /// the universe: the last rank's high part is at most `largest >> lowBits`, and its bit that plus `count − 1`.
    @inline(__always)
    static func upperBitCount(count: Int, lowBits: Int, largest: Int) -> Int {
        largest &>> lowBits &+ count
    }

    /// The bytes of a list of `count` ranks (above 0) before its upper bits: a 4-byte sample for every
    /// `samplingInterval` ranks after the first.
    @inline(__always)
    static func sampleBytes(count: Int) -> Int {
        ((count &- 1) / samplingInterval) &* 4
    }

    /// Appends the list `ranks` (ascending, each below `universe`) to `bytes`, laid out as `layout(count:universe:)`.
    package static func encode(_ ranks: ArraySlice<UInt32>, universe: Int, into bytes: inout [UInt8]) {
        let layout = layout(count: ranks.count, universe: universe)
        guard layout.byteCount > 0 else { return }
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: layout.byteCount))
        bytes.withUnsafeMutableBytes { raw in
            let list = UnsafeMutableRawBufferPointer(rebasing: raw[start...])
            for (i, rank) in ranks.enumerated() {
                precondition(Int(rank) < universe && (i == 0 || rank > ranks[ranks.startIndex + i - 1]),
                             "Elias-Fano ranks ascend below the universe")
                let bit = Int(rank) >> layout.lowBits + i
                list[layout.upperOffset + bit >> 3] |= UInt8(1 << (bit & 7))
                if i > 0, i % samplingInterval == 0 {
                    var sample = UInt32(bit).littleEndian
                    withUnsafeBytes(of: &sample) { sampleBytes in
                        for byte in 0..<4 { list[(i / samplingInterval - 1) * 4 + byte] = sampleBytes[byte] }
                    }
                }
                guard layout.lowBits > 0 else { continue }
                let lowBit = layout.upperBitCount + i * layout.lowBits
                // At most 31 bits shifted by at most 7: the bytes of one 64-bit value, as many as it reaches.
                var shifted = (UInt64(rank) & ((1 << UInt64(layout.lowBits)) - 1)) << UInt64(lowBit & 7)
                var at = layout.upperOffset + lowBit >> 3
                while shifted != 0 {
                    list[at] |= UInt8(truncatingIfNeeded: shifted)
                    shifted >>= 8
                    at += 1
                }
            }
        }
    }

    /// Whether a list of `count` ranks below `universe` is stored packed rather than coded: past
    /// `CacheFormat.codedListMaximum`, up to the most a list set holds (`CacheFormat.bitmapMinimum`). A longer list is
    /// a frequent term's, which queries read through its bitmap set, never its list: coded, it costs them nothing.
    @inline(__always)
    package static func isPacked(count: Int, universe: Int) -> Bool {
        count > CacheFormat.codedListMaximum && count <= CacheFormat.bitmapMinimum(movieCount: universe)
    }

    /// The width of a packed list's ranks below `universe`: the fewest bits that hold the largest.
    @inline(__always)
    package static func packedWidth(universe: Int) -> Int {
        CacheFormat.width(of: UInt32(truncatingIfNeeded: max(universe, 1) &- 1))
    }

    /// The length in bytes of a list of `count` ranks below `universe` as a section stores it: packed when long,
    /// else coded (`byteCount(count:universe:)`); `Lengths.storedByteCount(_:)`, for one list.
    package static func storedByteCount(count: Int, universe: Int) -> Int {
        Lengths(universe: universe).storedByteCount(count)
    }

    /// `storedByteCount(count:universe:)` for the lists of one section, with what depends on the universe alone
    /// worked out once: the walks that add up the lengths of the lists before one (`PrefixSetReader`,
    /// `PostingLists`) call it for every list they pass, most of them a rank or two long.
    @usableFromInline
    struct Lengths: Sendable {
        @usableFromInline let universe: Int
        /// The leading zero bits of the universe (at least 1), and the largest rank below it.
        let universeZeros: Int, largest: Int
        /// Lists of more ranks than `codedListMaximum` and at most this many are packed at `packedWidth` bits.
        let packedMaximum: Int, packedWidth: Int
        /// The lengths of lists of 0 to 15 ranks, a byte each (a list that short is at most 57 bytes below 2³²),
        /// 0 to 7 in the first word and 8 to 15 in the second, lowest byte first: most lists a walk passes are of a
        /// rank or two, and a load and a shift cost less than working the length out.
        let shortLengths: (UInt64, UInt64)

        init(universe: Int) {
            self.universe = universe
            universeZeros = max(universe, 1).leadingZeroBitCount
            largest = max(universe, 1) &- 1
            packedMaximum = CacheFormat.bitmapMinimum(movieCount: universe)
            packedWidth = EliasFanoList.packedWidth(universe: universe)
            var words: (UInt64, UInt64) = (0, 0)
            for count in 1..<16 {
                let lowBits = EliasFanoList.lowBits(count: count, universe: universe, universeZeros: universeZeros)
                let length = UInt64(min(EliasFanoList.byteCount(count: count, lowBits: lowBits, largest: largest), 255))
                if count < 8 {
                    words.0 |= length << UInt64(count * 8)
                } else {
                    words.1 |= length << UInt64((count - 8) * 8)
                }
            }
            shortLengths = words
        }

        /// The length in bytes of a list of `count` ranks (0 ≤ `count` ≤ the universe).
        @inline(__always)
        func storedByteCount(_ count: Int) -> Int {
            if count < 16 {
                let word = count < 8 ? shortLengths.0 : shortLengths.1
                return Int(truncatingIfNeeded: (word &>> UInt64(truncatingIfNeeded: (count & 7) &<< 3)) & 0xFF)
            }
            if count > CacheFormat.codedListMaximum && count <= packedMaximum {
                return (count &* packedWidth &+ 7) &>> 3
            }
            guard count > 0 else { return 0 }
            let lowBits = EliasFanoList.lowBits(count: count, universe: universe, universeZeros: universeZeros)
            return EliasFanoList.byteCount(count: count, lowBits: lowBits, largest: largest)
        }
    }

    /// Lists a start of which a coded list section keeps (`LSTP`, `TPSP`): every 8th list's; a list's own start is
    /// its block's plus the lengths of the lists before it in the block, which their counts give (a reader works out
    /// 3.5 layouts on average to find a list, where a start per list would cost the 10M IMDb pair's terms 2.7 MB).
    package static let listsPerStart = 8

    /// The starts a section of `lists` coded lists keeps: one per `listsPerStart` lists, and where the last ends.
    package static func startCount(lists: Int) -> Int {
        (lists + listsPerStart - 1) / listsPerStart + 1
    }

    /// The lists `values[offsets[k] ..< offsets[k + 1]]`, each coded or, when long, packed, end to end, then the 8 zero bytes a load may
    /// read past the last (`LSTD`, `POST`); and the start of every `listsPerStart`-th list and where the last ends
    /// (`LSTP`, `TPSP`). Throws when the bytes outgrow the 32 bits a start is stored in.
    static func encodeLists(_ values: [UInt32], offsets: [UInt32], universe: Int,
                            what: String) throws(CacheError) -> (bytes: [UInt8], starts: [UInt32]) {
        var bytes: [UInt8] = [], starts: [UInt32] = []
        let lists = max(offsets.count - 1, 0)
        starts.reserveCapacity(lists / listsPerStart + 2)
        let width = packedWidth(universe: universe)
        for list in 0..<lists {
            if list % listsPerStart == 0 { starts.append(try CacheSections.checked(bytes.count, what)) }
            let ranks = values[Int(offsets[list])..<Int(offsets[list + 1])]
            if isPacked(count: ranks.count, universe: universe) {
                ByteWriter.appendPacked(ranks, width: width, to: &bytes)
            } else {
                encode(ranks, universe: universe, into: &bytes)
            }
        }
        starts.append(try CacheSections.checked(bytes.count, what))
        bytes += [UInt8](repeating: 0, count: CacheFormat.packedPadding)
        return (bytes, starts)
    }

    // MARK: Reading

    /// Upper word `word`, its bits past `upperBitCount` cleared (they belong to the low bits).
    @inlinable @inline(__always)
    func upperWord(_ word: Int) -> UInt64 {
        UInt64(littleEndian: upper.loadUnaligned(fromByteOffset: word &<< 3, as: UInt64.self)) & validBits(ofWord: word)
    }

    /// The bits of upper word `word` that are upper bits (all but past `upperBitCount` in the last word).
    @inlinable @inline(__always)
    func validBits(ofWord word: Int) -> UInt64 {
        let end = upperBitCount &- word &<< 6
        return end >= 64 ? ~0 : (1 &<< UInt64(end)) &- 1
    }

    /// Words of upper bits.
    @inlinable var upperWordCount: Int { (upperBitCount &+ 63) &>> 6 }

    /// The low bits of rank `index`.
    @inlinable @inline(__always)
    func lowPart(_ index: Int) -> UInt64 {
        lowPart(atBit: lowFirstBit &+ index &* lowBits)
    }

    /// The low bits that start at bit `bit` of the bit string (rank i's at `lowFirstBit + i × lowBits`).
    @inlinable @inline(__always)
    func lowPart(atBit bit: Int) -> UInt64 {
        let word = UInt64(littleEndian: upper.loadUnaligned(fromByteOffset: bit &>> 3, as: UInt64.self))
        return (word &>> UInt64(bit & 7)) & lowMask
    }

    /// The rank of high part `high` whose low bits start at bit `lowBit`, read in order (`decoded()`,
    /// `Cursor.forEach(below:)`, which keep a running `lowBit` rather than multiply an index): `UInt32.max` when it
    /// would not fit (a forged list).
    @inlinable @inline(__always)
    func rank(high: Int, lowBit: Int) -> UInt32 {
        UInt32(truncatingIfNeeded: min(UInt64(high) &<< UInt64(lowBits) | lowPart(atBit: lowBit), UInt64(UInt32.max)))
    }

    /// The rank whose upper bit is at `position`, the `index`-th: `UInt32.max` when it would not fit (a forged list).
    @inlinable @inline(__always)
    func rank(index: Int, upperPosition position: Int) -> UInt32 {
        // A rank's bit is never before its index in a list as written; a forged sample can put it there.
        guard position >= index else { return .max }
        let value = UInt64(position &- index) &<< UInt64(lowBits) | lowPart(index)
        return value > UInt64(UInt32.max) ? .max : UInt32(truncatingIfNeeded: value)
    }

    /// Where the upper bit of rank 64j (j ≥ 1) is, from its sample.
    @inlinable @inline(__always)
    func sample(_ block: Int) -> Int {
        Int(UInt32(littleEndian: samples.loadUnaligned(fromByteOffset: (block &- 1) &<< 2, as: UInt32.self)))
    }

    /// The position of the `index`-th set upper bit counting from bit `start` (`start`'s own bit counted), or `nil`
    /// when the bits run out first (a forged list).
    @inlinable
    func position(ofSetBit index: Int, from start: Int) -> Int? {
        var word = start &>> 6
        guard word < upperWordCount else { return nil }
        var bits = upperWord(word) & (~0 &<< UInt64(start & 63))
        var left = index
        while true {
            let ones = bits.nonzeroBitCount
            if left < ones { return word &<< 6 | Self.select(left, in: bits) }
            left &-= ones
            word &+= 1
            guard word < upperWordCount else { return nil }
            bits = upperWord(word)
        }
    }

    /// The position of the `index`-th set bit of `word` (which has more than `index`): a byte found by counting,
    /// then its bits cleared one by one.
    @inlinable @inline(__always)
    static func select(_ index: Int, in word: UInt64) -> Int {
        var left = index, shift: UInt64 = 0
        while true {
            let ones = (word &>> shift & 0xFF).nonzeroBitCount
            if left < ones { break }
            left &-= ones
            shift &+= 8
        }
        var byte = word &>> shift & 0xFF
        while left > 0 { byte &= byte &- 1; left &-= 1 }
        return Int(shift) &+ byte.trailingZeroBitCount
    }

    /// Where the upper bit of rank `index` is, or `nil` (a forged list).
    @inlinable @inline(__always)
    func upperPosition(_ index: Int) -> Int? {
        let block = index &>> 6
        if index == 0 {
            // The first set bit: the first word is usually it.
            var word = 0
            while word < upperWordCount {
                let bits = upperWord(word)
                if bits != 0 { return word &<< 6 | bits.trailingZeroBitCount }
                word &+= 1
            }
            return nil
        }
        if block == 0 { return position(ofSetBit: index, from: 0) }
        let start = sample(block)
        return position(ofSetBit: index & 63, from: start)
    }

    /// Rank `index`; traps on an index outside the list (a bug in the engine: the count comes from the file,
    /// checked). `UInt32.max` where a forged list's bits run out.
    @inlinable
    public subscript(index: Int) -> UInt32 {
        precondition(index >= 0 && index < count, "EliasFanoList index out of range")
        return self[unchecked: index]
    }

    /// Rank `index`, which the caller has checked is below `count`.
    @inlinable
    public subscript(unchecked index: Int) -> UInt32 {
        guard let position = upperPosition(index) else { return .max }
        return rank(index: index, upperPosition: position)
    }

    /// Calls `body` with each rank from position `start` on, in order, until it returns false; returns the
    /// position where it stopped (`count` when it never did). A forged list whose bits run out ends early with
    /// `UInt32.max`, given to `body` once.
    @inlinable
    public func forEachRank(from start: Int = 0, _ body: (_ rank: UInt32) -> Bool) -> Int {
        guard start < count else { return count }
        var index = start, word = 0, bits: UInt64 = 0
        if start == 0 {
            // From the first word, whose bits are all the list's from its first rank on: no select.
            bits = upperWord(0)
        } else {
            guard let first = upperPosition(start) else { _ = body(.max); return count }
            word = first &>> 6
            bits = upperWord(word) & (~0 &<< UInt64(first & 63))
        }
        while true {
            while bits != 0 {
                let position = word &<< 6 | bits.trailingZeroBitCount
                if !body(rank(index: index, upperPosition: position)) { return index }
                index &+= 1
                if index == count { return count }
                bits &= bits &- 1
            }
            word &+= 1
            guard word < upperWordCount else { _ = body(.max); return count }
            bits = upperWord(word)
        }
    }

    /// Calls `body` with the ranks at positions `positions`, in order (`forEachRank(from:_:)`, stopped at the range's
    /// end): a genre's ranks within a year range (`RankFilter`). A forged list whose bits run out gives `UInt32.max`
    /// once, as there.
    @inlinable
    public func forEachRank(in positions: Range<Int>, _ body: (_ rank: UInt32) -> Void) {
        var left = positions.count
        guard left > 0 else { return }
        _ = forEachRank(from: positions.lowerBound) { rank in
            body(rank)
            left &-= 1
            return left > 0
        }
    }

    /// Every rank, in order, as an array (a forged list's missing ranks as `UInt32.max`): the upper words scanned
    /// once, each set bit a rank, written in place.
    @inlinable
    public func decoded() -> [UInt32] {
        [UInt32](unsafeUninitializedCapacity: count) { buffer, initialized in
            if let start = buffer.baseAddress { decode(into: start) }
            initialized = count
        }
    }

    /// Writes every rank, in order, to `count` places from `destination` (a forged list's missing ranks as
    /// `UInt32.max`): `decoded()` and `PostingLists.concatenated()`, which lay several lists end to end.
    @inlinable
    func decode(into destination: UnsafeMutablePointer<UInt32>) {
        // Read from the first bit, the i-th set bit is never before bit i: no high part is negative. The low bits
        // are read at a running offset; a value past 32 bits (a forged list) becomes `UInt32.max`.
        var index = 0, word = 0, lowBit = lowFirstBit
        while index < count, word < upperWordCount {
            var bits = upperWord(word)
            while bits != 0, index < count {
                destination[index] = rank(high: word &<< 6 | bits.trailingZeroBitCount &- index, lowBit: lowBit)
                lowBit &+= lowBits
                index &+= 1
                bits &= bits &- 1
            }
            word &+= 1
        }
        while index < count {
            destination[index] = .max
            index &+= 1
        }
    }
}

extension EliasFanoList {
    /// A position in a list that moves forward only (`advance(to:)`), as Lucene's postings iterators do: each
    /// step reads the next set upper bit where a random read would select it again, and an advance past many ranks
    /// counts their upper bits' zeros a word at a time instead of reading them.
    public struct Cursor {
        @usableFromInline let list: EliasFanoList
        /// The position of the current rank (`list.count` at the end).
        @inlinable public var index: Int { position }
        @usableFromInline var position: Int
        /// The upper word that holds the current rank's bit, and its bits from that one on.
        @usableFromInline var word: Int
        @usableFromInline var bits: UInt64
        /// The current rank (`UInt32.max` at the end).
        @inlinable public var rank: UInt32 { current }
        @usableFromInline var current: UInt32
        /// Whether the list's upper bits ran out before its count (a forged list): the cursor is then at the end,
        /// and its reader must say the list is corrupt rather than take it as shorter.
        @inlinable public var isDamaged: Bool { ranOut }
        @usableFromInline var ranOut = false

        /// A cursor at the list's first rank.
        @inlinable
        public init(_ list: EliasFanoList) {
            self.list = list
            position = -1  // not 0: `seek` would take the cursor as already there
            word = 0
            bits = 0
            current = .max
            seek(to: 0)
        }

        /// Whether the cursor has passed the last rank.
        @inlinable public var isAtEnd: Bool { position >= list.count }

        /// Puts the cursor on position `target` by selecting its bit (`count` or more: at the end).
        @inlinable
        public mutating func seek(to target: Int) {
            if target == position, target < list.count { return }
            position = target
            guard target < list.count, let bit = list.upperPosition(target) else {
                if target < list.count { ranOut = true }
                position = list.count
                current = .max
                return
            }
            word = bit &>> 6
            bits = list.upperWord(word) & (~0 &<< UInt64(bit & 63))
            current = list.rank(index: target, upperPosition: bit)
        }

        /// Moves `word` on until `bits` holds a set bit, and says whether it found one: past the last upper word the
        /// list ran out of the ranks it claims (a forged list), and the cursor is at the end.
        @inlinable @inline(__always)
        mutating func findSetBit() -> Bool {
            while bits == 0 {
                word &+= 1
                guard word < list.upperWordCount else {
                    position = list.count
                    current = .max
                    ranOut = true
                    return false
                }
                bits = list.upperWord(word)
            }
            return true
        }

        /// Moves to the next rank.
        @inlinable @inline(__always)
        public mutating func next() {
            position &+= 1
            guard position < list.count else { current = .max; return }
            bits &= bits &- 1
            guard findSetBit() else { return }
            current = list.rank(index: position, upperPosition: word &<< 6 | bits.trailingZeroBitCount)
        }

        /// Calls `body` with the current rank and each after it below `bound`, moving past them (to the first rank
        /// not below `bound`, or the end); returns how many. The loop of `next()` with its state in registers: a
        /// block of an intersection (`BitKernels`) reads hundreds of ranks this way.
        @inlinable
        public mutating func forEach(below bound: UInt32, _ body: (UInt32) -> Void) -> Int {
            guard current < bound else { return 0 }
            let start = position
            var index = position, word = self.word, bits = self.bits
            var lowBit = list.lowFirstBit &+ index &* list.lowBits
            let count = list.count
            var value = current
            while true {
                body(value)
                index &+= 1
                lowBit &+= list.lowBits
                if index == count { break }
                bits &= bits &- 1
                while bits == 0 {
                    word &+= 1
                    guard word < list.upperWordCount else {
                        ranOut = true
                        position = count
                        current = .max
                        return index &- start
                    }
                    bits = list.upperWord(word)
                }
                // Past the first bit, the i-th set bit is after bit i: no high part is negative.
                value = list.rank(high: word &<< 6 | bits.trailingZeroBitCount &- index, lowBit: lowBit)
                if value >= bound {
                    position = index
                    self.word = word
                    self.bits = bits
                    current = value
                    return index &- start
                }
            }
            position = count
            current = .max
            return count &- start
        }

        /// Moves to the first rank not below `bound` (staying when the current one is not), and returns it
        /// (`UInt32.max` at the end).
        ///
        /// The ranks below the bound are not visited: every rank whose high part is below `bound`'s, h, has its bit
        /// before the h-th zero of the upper bits (bucket v ends at zero v + 1), so the cursor counts zeros a word
        /// at a time, by popcount, to that zero, and only the few ranks of bucket h itself are read one by one.
        /// A year of a few hundred ranks is crossed in a few words, where reading its ranks cost a step each.
        @inlinable
        @discardableResult
        public mutating func advance(to bound: UInt32) -> UInt32 {
            if current >= bound { return current }
            let high = Int(bound) &>> list.lowBits
            // The current rank's bit is at `word << 6 | bits.trailingZeroBitCount`; the zeros before it are its
            // high part, which is at most `high` (its rank is below the bound).
            let bit = word &<< 6 | bits.trailingZeroBitCount
            var zerosLeft = high &- (bit &- position)
            if zerosLeft > 0 {
                // The zerosLeft-th zero after `bit`: the ranks before it have high parts below `high`.
                var index = word
                var zeros = ~list.upperWord(index) & (~0 &<< UInt64(bit & 63))
                if index == list.upperWordCount &- 1 { zeros &= list.validBits(ofWord: index) }
                while zeros.nonzeroBitCount < zerosLeft {
                    zerosLeft &-= zeros.nonzeroBitCount
                    index &+= 1
                    guard index < list.upperWordCount else { position = list.count; current = .max; return current }
                    zeros = ~list.upperWord(index)
                    if index == list.upperWordCount &- 1 { zeros &= list.validBits(ofWord: index) }
                }
                let zero = index &<< 6 | EliasFanoList.select(zerosLeft &- 1, in: zeros)
                // Ones before that zero: every rank before it; the first rank after it is at the next set bit.
                position = zero &- high &+ 1
                guard position < list.count else { position = list.count; current = .max; return current }
                word = index
                bits = list.upperWord(index) & (~0 &<< UInt64(zero & 63)) & ~(1 &<< UInt64(zero & 63))
                guard findSetBit() else { return current }
                current = list.rank(index: position, upperPosition: word &<< 6 | bits.trailingZeroBitCount)
            }
            while current < bound { next() }
            return current
        }
    }
}
