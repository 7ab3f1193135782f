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
    /// The lengths of lists below the movie count, the universe of their ranks.
    @usableFromInline let lengths: EliasFanoList.Lengths
    @inlinable var universe: Int { lengths.universe }
    /// Postings in all (a title with two of the terms counted twice).
    public let count: Int

    init(base: UnsafeRawPointer, counts: PackedView, lengths: EliasFanoList.Lengths) {
        self.base = base
        self.counts = counts
        self.lengths = lengths
        count = Int(counts[counts.count - 1]) - Int(counts[0])
    }

    /// The first term's list.
    public var first: StoredList {
        StoredList(base: base, count: Int(counts[1]) &- Int(counts[0]), universe: universe)
    }

    /// The terms in the range.
    @inlinable public var termCount: Int { counts.count - 1 }

    /// Calls `body` with each term's ranks, term after term, until it returns false. Inlinable, as
    /// `StoredList.forEachRank` is, so that `body` is inlined into the caller's loop over each list.
    @inlinable
    public func forEachRank(_ body: (UInt32) -> Bool) {
        forEachList { list in list.forEachRank(body) }
    }

    /// Calls `body` with each term's list, term after term, until it returns false: each list starts where the one
    /// before ends, at the length its count gives.
    public func forEachList(_ body: (StoredList) -> Bool) {
        var start = 0
        for term in 0..<termCount {
            let count = Int(counts[term + 1]) &- Int(counts[term])
            guard body(StoredList(base: base + start, count: count, universe: universe)) else { return }
            start &+= lengths.storedByteCount(count)
        }
    }

    /// Every term's ranks, term after term, in one array of `count` (a title with two of the terms twice): the lists
    /// decoded straight into place, where `forEachRank` calls a closure a rank (the merge of a small range).
    public func concatenated() -> [UInt32] {
        // Zeros appended to a reserved array, then overwritten: `init(unsafeUninitializedCapacity:)` and
        // `init(repeating:count:)` are not specialized here, and looking up their generic metadata cost more than
        // the merge.
        var ranks: [UInt32] = []
        ranks.reserveCapacity(count)
        ranks.append(contentsOf: repeatElement(0, count: count))
        ranks.withUnsafeMutableBufferPointer { buffer in
            guard let destination = buffer.baseAddress else { return }
            var written = 0
            forEachList { stored in
                switch stored {
                case .coded(let list): list.decode(into: destination + written)
                case .packed(let list):
                    for position in 0..<list.count { destination[written &+ position] = list[unchecked: position] }
                }
                written &+= stored.count
                return true
            }
        }
        return ranks
    }
}
