/// Set operations on bitmaps over ranks, for `QueryExecutor`: query-time algorithms, not a structure of the file,
/// so they live beside their one user rather than with the reader. `filter` writes through an uninitialized
/// buffer (`unsafeUninitializedCapacity`), where the count it writes is bounded by the buffer's capacity.
enum BitKernels {
    /// The ranks of `candidates` (each below `limit`, which `word` covers) whose bit is set; `nil` if one is not.
    ///
    /// Branch-free: whether a candidate matches is a coin toss that a branch would mispredict half the time, which
    /// cost more than everything else in the loop. Each rank is written, and the count moves on by its bit.
    @inline(__always)
    static func filter<Candidates: RankSequence>(_ candidates: Candidates, below limit: Int,
                                                 word: (Int) -> UInt64) -> [UInt32]? {
        var inRange = true
        let kept = [UInt32](unsafeUninitializedCapacity: candidates.count) { buffer, initialized in
            var count = 0
            for position in 0..<candidates.count {
                let rank = Int(candidates[position])
                guard rank < limit else {
                    inRange = false
                    break
                }
                buffer[count] = UInt32(truncatingIfNeeded: rank)  // count ≤ position < capacity
                count &+= Int(truncatingIfNeeded: (word(rank &>> 6) &>> UInt64(rank & 63)) & 1)
            }
            initialized = count
        }
        return inRange ? kept : nil
    }

    /// `ranks` (each below `limit`) as a bitmap of ⌈limit / 64⌉ words; `nil` if a rank is not below `limit`.
    static func bitmap<Ranks: RankSequence>(of ranks: Ranks, below limit: Int) -> [UInt64]? {
        var words = [UInt64](repeating: 0, count: CacheFormat.bitmapWordCount(movieCount: limit))
        for position in 0..<ranks.count {
            let rank = Int(ranks[position])
            guard rank < limit else { return nil }
            words[rank &>> 6] |= 1 &<< UInt64(rank & 63)
        }
        return words
    }
}
