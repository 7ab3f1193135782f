@_spi(Engine) import MovieSearchIndex

/// Set operations on bitmaps over ranks, for `QueryExecutor`: query-time algorithms, not a structure of the file,
/// so they live beside their one user rather than with the reader. `filter` writes through an uninitialized
/// buffer (`unsafeUninitializedCapacity`), where the count it writes is bounded by the buffer's capacity;
/// `intersection` writes through the same kind of buffer and indexes its block masked to the block's size.
/// (The count of two bitmaps' intersection is `U64View.intersectionCount`, in Index.)
enum BitKernels {
    /// The ranks of `candidates` at `positions` (all of them by default; each rank below `limit`, which `word`
    /// covers) whose bit is set; `nil` if one is not.
    ///
    /// Branch-free: whether a candidate matches is a coin toss that a branch would mispredict half the time, which
    /// cost more than everything else in the loop. Each rank is written, and the count moves on by its bit.
    @inline(__always)
    static func filter<Candidates: RankSequence>(_ candidates: Candidates, positions: Range<Int>? = nil,
                                                 below limit: Int, word: (Int) -> UInt64) -> [UInt32]? {
        let positions = positions ?? 0..<candidates.count
        precondition(positions.lowerBound >= 0 && positions.upperBound <= candidates.count,
                     "positions outside the candidates")
        var inRange = true
        let kept = [UInt32](unsafeUninitializedCapacity: positions.count) { buffer, initialized in
            var count = 0
            for position in positions {
                let rank = Int(candidates[unchecked: position])  // within `candidates`, checked above
                guard rank < limit else {
                    inRange = false
                    break
                }
                buffer[count] = UInt32(truncatingIfNeeded: rank)  // count ≤ position − start < capacity
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

    /// The ranks of Elias–Fano coded `list` (each below `limit`) whose bit is set in `bitmap`, a bitmap of the file
    /// that covers `limit`; `nil` if one is not below `limit`. The list is read forward once (`forEachRank`) and
    /// tested as it is read, branch-free as `filter(_:below:word:)` is, where decoding it first wrote every rank to
    /// an array of its own.
    static func filter(_ list: EliasFanoList, in bitmap: U64View, below limit: Int) -> [UInt32]? {
        precondition(bitmap.count &* 64 >= limit, "a bitmap smaller than its ranks")
        let base = bitmap.base
        var inRange = true
        let kept = [UInt32](unsafeUninitializedCapacity: list.count) { buffer, initialized in
            var count = 0
            // At most `list.count` ranks come, each below `limit` before it is written: `count` stays below it.
            _ = list.forEachRank { rank in
                let rank = Int(rank)
                guard rank < limit else {
                    inRange = false
                    return false
                }
                buffer[count] = UInt32(truncatingIfNeeded: rank)
                let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: (rank &>> 6) &* 8, as: UInt64.self))
                count &+= Int(truncatingIfNeeded: (word &>> UInt64(rank & 63)) & 1)
                return true
            }
            initialized = count
        }
        return inRange ? kept : nil
    }

    /// Ranks met a block at a time by `intersection(_:_:below:)`: 2^16, a bitmap of 8 KB, which stays in the
    /// L1 cache.
    static let blockShift = 16

    /// The words of the bitmap `intersection(_:_:below:)` meets ranks below `limit` in: a block's 1,024, or in a
    /// catalog of fewer than 2^16 ranks as many as cover them all (century's 36,273 movies 567, decade's 2,272 36).
    /// That one block is then the whole catalog, and zeroing it costs what the catalog's size does, not 8 KB.
    static func blockWordCount(below limit: Int) -> Int {
        min(max((limit &+ 63) &>> 6, 1), 1 &<< (blockShift &- 6))
    }

    /// The ranks of `candidates` found in `list` (both ascending); `nil` if a candidate is not below `limit`.
    ///
    /// The two are met one block of 2^16 ranks at a time (`blockShift`), in the blocks where a candidate is: the
    /// list's ranks in the block set the bits of an 8 KB bitmap, the candidates in the block are tested against
    /// it without a branch (a match is a coin toss that a branch would mispredict), and the bits are cleared
    /// again. The bitmap stays in the L1 cache, where one over all the ranks (1.2 MB at 10 million movies) was
    /// written and cleared at a cache miss a line: at 10M, queries of two lists of like size took about 10 %
    /// less, those of a list of up to 16 times its candidates (`night ris`: 7,124 in 69,709) about 25 %. The
    /// list's ranks before a candidate's block are jumped over (galloping).
    ///
    /// A rank only ever indexes the block masked to its size, so damaged ranks (out of order, or past `limit`)
    /// give a wrong answer, never a read or write out of bounds. The candidates become the answer: each block ends
    /// at `limit` at the latest, so ascending candidates are all checked against it (one past it starts a block,
    /// and gives `nil`); candidates out of order are checked where the answer lists them (`AnswerBuilder`).
    static func intersection<Candidates: RankSequence, List: RankSequence>(
        _ candidates: Candidates, _ list: List, below limit: Int
    ) -> [UInt32]? {
        intersection(PositionedRanks(candidates), count: candidates.count, PositionedRanks(list), below: limit)
    }

    /// `intersection(_:_:below:)` with Elias–Fano lists on either side, each read forward by a cursor a block at a
    /// time (`EliasFanoList.Cursor.forEach(below:)`) rather than decoded whole first.
    static func intersection<Candidates: RankSequence>(_ candidates: Candidates, _ list: EliasFanoList,
                                                       below limit: Int) -> [UInt32]? {
        intersection(PositionedRanks(candidates), count: candidates.count, CodedRanks(list), below: limit)
    }

    static func intersection(_ candidates: EliasFanoList, _ list: EliasFanoList, below limit: Int) -> [UInt32]? {
        intersection(CodedRanks(candidates), count: candidates.count, CodedRanks(list), below: limit)
    }

    static func intersection<List: RankSequence>(_ candidates: EliasFanoList, _ list: List,
                                                 below limit: Int) -> [UInt32]? {
        intersection(CodedRanks(candidates), count: candidates.count, PositionedRanks(list), below: limit)
    }

    private static func intersection<Candidates: ForwardRanks, List: ForwardRanks>(
        _ candidates: Candidates, count candidateCount: Int, _ list: List, below limit: Int
    ) -> [UInt32]? {
        let blockWords = blockWordCount(below: limit)
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: blockWords) { block -> [UInt32]? in
            let words = block.baseAddress!  // capacity > 0
            words.initialize(repeating: 0, count: blockWords)
            var inRange = true
            var candidates = candidates, list = list
            let kept = [UInt32](unsafeUninitializedCapacity: candidateCount) { buffer, initialized in
                initialized = intersection(&candidates, &list, below: limit, block: words, blockWords: blockWords,
                                           into: buffer.baseAddress!, inRange: &inRange)
            }
            return inRange && !candidates.isDamaged && !list.isDamaged ? kept : nil
        }
    }

    /// `intersection(_:_:below:)` with its block (`blockWords` zero words, `blockWordCount(below: limit)`) and room
    /// for the candidates in `kept`: the count kept. Each side is read a block at a time by loops with every value
    /// they need in a register (`ForwardRanks`).
    private static func intersection<Candidates: ForwardRanks, List: ForwardRanks>(
        _ candidates: inout Candidates, _ list: inout List, below limit: Int,
        block words: UnsafeMutablePointer<UInt64>, blockWords: Int, into kept: UnsafeMutablePointer<UInt32>,
        inRange: inout Bool
    ) -> Int {
        // A rank's word, masked into its block. Each rank read is below the block's end, so in a catalog of one
        // block (`blockWords` fewer than 1,024, the ranks from 0) below `blockWords` too; only a damaged list of a
        // larger catalog, out of order, gives ranks of earlier blocks, which the mask keeps inside this one.
        let wordMask = (1 &<< (blockShift &- 6)) &- 1
        var count = 0
        while candidates.next != Int.max {
            let first = candidates.next
            guard first < limit else {
                inRange = false
                break
            }
            let start = (first &>> blockShift) &<< blockShift
            let end = min(start &+ (1 &<< blockShift), limit)
            // The list's ranks in the block. (In a damaged list, out of order, ranks of other blocks fall in: they
            // set bits of no meaning, masked into the block.)
            list.skip(below: start)
            let blockStart = list
            let set = list.read(below: end) { rank in
                words[(rank &>> 6) & wordMask] |= 1 &<< UInt64(rank & 63)
            }
            // The candidates in the block, at least `first`, each written (`count` stays below the candidates read,
            // so below the capacity) and kept by its bit.
            _ = candidates.read(below: end) { rank in
                kept[count] = UInt32(truncatingIfNeeded: rank)
                let word = words[(rank &>> 6) & wordMask]
                count &+= Int(truncatingIfNeeded: word &>> UInt64(rank & 63) & 1)
            }
            // Cleared for the next block where the list set bits, or whole when it set many (reading the list again
            // would cost more than clearing 8 KB); not after the last, which ends at `limit`.
            if end == limit { continue }
            if set >= blockWords / 8 {
                words.update(repeating: 0, count: blockWords)
            } else {
                var again = blockStart
                _ = again.read(below: end) { rank in words[(rank &>> 6) & wordMask] = 0 }
            }
        }
        return count
    }
}
