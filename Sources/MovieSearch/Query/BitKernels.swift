/// Set operations on bitmaps over ranks, for `QueryExecutor`: query-time algorithms, not a structure of the file,
/// so they live beside their one user rather than with the reader. `filter` writes through an uninitialized
/// buffer (`unsafeUninitializedCapacity`), where the count it writes is bounded by the buffer's capacity;
/// `setBits`, `clearWords` and `intersectionCount` index within the sizes they check first.
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

    /// The ranks of `candidates` (each below `limit`) whose bit is set in `bitmap`, a bitmap of the file that
    /// covers `limit`; `nil` if a candidate is not below `limit`. `filter(_:below:word:)` with the bitmap's size
    /// checked once here, so that the loop reads its words without a check each.
    @inline(__always)
    static func filter<Candidates: RankSequence>(_ candidates: Candidates, in bitmap: U64View,
                                                 below limit: Int) -> [UInt32]? {
        precondition(bitmap.count &* 64 >= limit, "a bitmap smaller than its ranks")
        let base = bitmap.base
        return filter(candidates, below: limit) { word in
            UInt64(littleEndian: base.loadUnaligned(fromByteOffset: word &* 8, as: UInt64.self))
        }
    }

    /// Sets the bit of each of `ranks` in `words` (⌈limit / 64⌉ of them); `false`, with the bits of the ranks
    /// before it set, if a rank is not below `limit`.
    static func setBits<Ranks: RankSequence>(of ranks: Ranks, in words: inout [UInt64], below limit: Int) -> Bool {
        precondition(words.count == CacheFormat.bitmapWordCount(movieCount: limit), "a bitmap of the wrong size")
        return words.withUnsafeMutableBufferPointer { words in
            for position in 0..<ranks.count {
                let rank = Int(ranks[position])
                guard rank < limit else { return false }
                words[rank &>> 6] |= 1 &<< UInt64(rank & 63)  // rank < limit: inside the buffer
            }
            return true
        }
    }

    /// Zeroes the word of each of `ranks` below `limit` in `words`, so undoing `setBits` on a bitmap that was all
    /// zero before: word by word when the ranks are few against the words, else all words at once (a second pass
    /// over a long list of packed ranks costs more than clearing the whole bitmap).
    static func clearWords<Ranks: RankSequence>(of ranks: Ranks, in words: inout [UInt64], below limit: Int) {
        precondition(words.count == CacheFormat.bitmapWordCount(movieCount: limit), "a bitmap of the wrong size")
        words.withUnsafeMutableBufferPointer { words in
            if ranks.count >= words.count / 16 {
                words.update(repeating: 0)
                return
            }
            for position in 0..<ranks.count {
                let rank = Int(ranks[position])
                if rank < limit { words[rank &>> 6] = 0 }
            }
        }
    }

    /// Set bits of `a & b` in the bit range `range` of two bitmaps of the same size, which cover it.
    ///
    /// The words inside the range are counted in a loop of nothing but loads, an AND and a count, which the
    /// compiler vectorizes (with plain SSE2 on x86-64, which has no popcount instruction in its baseline: a
    /// scalar count is a dozen instructions a word, and it was most of a two-bitmap query).
    static func intersectionCount(_ a: U64View, _ b: U64View, _ range: Range<Int>) -> Int {
        if range.isEmpty { return 0 }
        precondition(a.count == b.count && range.lowerBound >= 0 && range.upperBound <= a.count &* 64,
                     "a bit range outside the bitmaps")
        let firstWord = range.lowerBound &>> 6, lastWord = (range.upperBound &- 1) &>> 6
        let head: UInt64 = ~0 &<< UInt64(range.lowerBound & 63)
        let tail: UInt64 = ~0 &>> UInt64(63 &- ((range.upperBound &- 1) & 63))
        if firstWord == lastWord { return (a[firstWord] & b[firstWord] & head & tail).nonzeroBitCount }
        var count = (a[firstWord] & b[firstWord] & head).nonzeroBitCount
            &+ (a[lastWord] & b[lastWord] & tail).nonzeroBitCount
        // Words firstWord + 1 ..< lastWord, inside both views (checked above). The count of an AND does not depend
        // on the byte order, so the words are not swapped to little-endian.
        let left = a.base + (firstWord &+ 1) &* 8, right = b.base + (firstWord &+ 1) &* 8
        for word in 0..<(lastWord &- firstWord &- 1) {
            let offset = word &* 8
            count &+= (left.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                & right.loadUnaligned(fromByteOffset: offset, as: UInt64.self)).nonzeroBitCount
        }
        return count
    }
}
