/// Entries of a packed section (`CacheFormat`, "Directory") inside a checked, verified part of a mapping: each
/// read is one unaligned 8-byte load, a shift and a mask, which the section's 8 bytes of padding keep in bounds.
@_spi(Engine) public struct PackedView {
    @usableFromInline let base: UnsafeRawPointer
    @usableFromInline let firstBit: Int
    @usableFromInline let width: Int
    @usableFromInline let mask: UInt64
    /// Number of entries.
    public let count: Int

    /// A view of `count` entries of `width` bits from bit `firstBit` of `base`, a range `MappedCacheFile.packed`
    /// has checked.
    init(base: UnsafeRawPointer, firstBit: Int, width: Int, count: Int) {
        self.base = base
        self.firstBit = firstBit
        self.width = width
        self.mask = (1 << UInt64(width)) - 1  // width ≤ 32: the directory checks it
        self.count = count
    }

    /// Entry `index`; traps on an index outside the view (a bug in the engine, not in the file: every range a
    /// view is made from has been checked).
    @inlinable @inline(__always)
    public subscript(index: Int) -> UInt32 {
        precondition(index >= 0 && index < count, "PackedView index out of range")
        let bit = firstBit &+ index &* width
        let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: bit &>> 3, as: UInt64.self))
        return UInt32(truncatingIfNeeded: (word &>> UInt64(bit & 7)) & mask)
    }

    /// Entry `index`, which the caller has checked is inside the view (`RankSequence`): the loads stay inside the
    /// checked range only then.
    @inlinable @inline(__always)
    public subscript(unchecked index: Int) -> UInt32 {
        let bit = firstBit &+ index &* width
        let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: bit &>> 3, as: UInt64.self))
        return UInt32(truncatingIfNeeded: (word &>> UInt64(bit & 7)) & mask)
    }

    /// Entries `index` and `index + 1` (a term's start and end, say): from one load when both lie in its 64 bits,
    /// as they do for widths up to 28.
    @inlinable @inline(__always)
    public func pair(at index: Int) -> (UInt32, UInt32) {
        precondition(index >= 0 && index < count &- 1, "PackedView index out of range")
        // Up to 7 bits skipped and two entries of 28 bits fit in 64: a test of the width alone, the same for every
        // index, which a loop can hoist.
        guard width <= 28 else { return (self[unchecked: index], self[unchecked: index &+ 1]) }
        let bit = firstBit &+ index &* width
        let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: bit &>> 3, as: UInt64.self))
            &>> UInt64(bit & 7)
        return (UInt32(truncatingIfNeeded: word & mask), UInt32(truncatingIfNeeded: (word &>> UInt64(width)) & mask))
    }

    /// Entries `range` of this view, as a view of their own (`range` inside `0..<count`).
    package func slice(_ range: Range<Int>) -> PackedView {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "PackedView slice out of range")
        return PackedView(base: base, firstBit: firstBit + range.lowerBound * width, width: width, count: range.count)
    }

    /// Counts the entries at `indices` (a histogram: the genre facet's count of each match's genre set), one more in
    /// `counts[entry]` for each; false at an index outside the view or an entry outside `counts`, where it stops.
    /// The view's fields are read once, into registers: a loop over a captured view in another module's closure
    /// read them again at each entry, since its increments might have written them (at 10M titles, a facet of
    /// a short prefix's matches took half as long again).
    @inlinable
    public func count<Indices: Sequence>(entriesAt indices: Indices, into counts: UnsafeMutableBufferPointer<Int>)
        -> Bool where Indices.Element: BinaryInteger
    {
        guard let totals = counts.baseAddress else { return indices.underestimatedCount == 0 }
        let base = base, firstBit = firstBit, width = width, mask = mask, count = count, bins = counts.count
        for index in indices {
            let index = Int(truncatingIfNeeded: index)
            guard index >= 0, index < count else { return false }
            let bit = firstBit &+ index &* width
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: bit &>> 3, as: UInt64.self))
            let entry = Int(truncatingIfNeeded: (word &>> UInt64(bit & 7)) & mask)
            guard entry < bins else { return false }
            totals[entry] &+= 1
        }
        return true
    }

    /// The entries, copied into an array.
    func values() -> [UInt32] {
        (0..<count).map { self[$0] }
    }
}
