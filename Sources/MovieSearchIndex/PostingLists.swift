/// The posting lists of a range of terms, end to end in `POST`, each Elias–Fano coded (`CacheFormat`,
/// "Elias–Fano lists"): what a range without a stored set reads, merged for an exact query, read as they lie by the
/// typo pass (`RankSource.postings`).
///
/// Made only of views into the mapping (no reference to retain per copy), checked when `PrefixSetReader` made it
/// (each list's count against the movies, the lists' lengths against the section's starts, their bytes against the
/// section), so an array of them is plain memory.
@_spi(Engine) public struct PostingLists {
    /// Where the first term's list starts.
    @usableFromInline let base: UnsafeRawPointer
    /// The terms' cumulative counts (`TPST` entries of the range and one past it).
    @usableFromInline let counts: PackedView
    @usableFromInline let universe: Int
    /// Postings in all (a title with two of the terms counted twice).
    public let count: Int

    init(base: UnsafeRawPointer, counts: PackedView, universe: Int) {
        self.base = base
        self.counts = counts
        self.universe = universe
        count = Int(counts[counts.count - 1]) - Int(counts[0])
    }

    /// The first term's list.
    public var first: StoredList {
        StoredList(base: base, count: Int(counts[1]) &- Int(counts[0]), universe: universe)
    }

    /// The terms in the range.
    @inlinable public var termCount: Int { counts.count - 1 }

    /// Calls `body` with each term's ranks, term after term, until it returns false: each list starts where the one
    /// before ends, at the length its count gives.
    public func forEachRank(_ body: (UInt32) -> Bool) {
        var start = 0
        for term in 0..<termCount {
            let count = Int(counts[term + 1]) &- Int(counts[term])
            guard StoredList(base: base + start, count: count, universe: universe).forEachRank(body) else { return }
            start &+= EliasFanoList.storedByteCount(count: count, universe: universe)
        }
    }
}
