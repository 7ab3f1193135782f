@_spi(Engine) import MovieSearchIndex
@_spi(Engine) import MovieSearchText

/// Runs one query against a `MovieIndex` (the algorithm is described in `CacheFormat`, "A query, step by step").
struct QueryExecutor {
    let index: MovieIndex
    let perYear: Int
    // Held directly, not read through `index` at each use: that would retain and release the file every time.
    // Sections are read through `index` instead: they are plain values, and a copy of all of them would cost more.
    let file: MappedCacheFile

    init(index: MovieIndex, perYear: Int) {
        self.index = index
        self.perYear = perYear
        file = index.file
    }

    /// The answer to `query`; throws when a part of the file it reads is damaged or inconsistent.
    ///
    /// When a token begins no term (the usual start of a typo query), `lookedUp` gets the term ranges of the
    /// tokens before it, in the query's order, for the typo pass (`runWithTypos(_:lookedUp:)`) to use again.
    func run(_ query: String, lookedUp: inout [Range<Int>]?) throws(CacheError) -> SearchResult {
        // A token that begins no term answers nothing: no answer is set up.
        guard let ranges = try termRanges(of: query, lookedUp: &lookedUp) else {
            return SearchResult(query: query, total: 0, years: [])
        }
        let years = try YearTable(file: file, years: index.sections.years)
        var answer = AnswerBuilder(perYear: perYear, ranks: try file.packed(index.sections.ranks, 0..<file.movieCount),
                                   rankBases: try file.packed(index.sections.rankBases, 0..<years.count),
                                   path: file.path, yearCount: years.count)
        if ranges.isEmpty {
            try answer.addAll(years)
            return answer.result(query: query)
        }
        var sets: [RankSet]
        if ranges.count == 1 {
            let only = try index.prefixSets.rankSet(of: ranges[0])
            if let counts = only.yearCounts, let ids = only.firstIDs, perYear <= CacheFormat.firstIDsPerYear {
                // One token whose set has its counts and first ids per year: the answer is stored as it is (and no
                // array of sets is made for it, the commonest query as someone types).
                try answer.addFirstIDs(counts: counts, firstIDs: ids, slots: CacheFormat.firstIDsPerYear,
                                       cardinality: only.cardinality, years)
                return answer.result(query: query)
            }
            sets = [only]
        } else {
            sets = []
            sets.reserveCapacity(ranges.count)
            for range in ranges { sets.append(try index.prefixSets.rankSet(of: range)) }
            // Lists first, smallest first, then bitmaps: a list drives when there is one, so a bitmap first means
            // all are bitmaps. Every stored set of more than `CacheFormat.bitmapMinimum` ranks is a bitmap and no
            // smaller one is, so this is smallest first too, except where a range without a set is merged: in a tiny
            // catalog (a range of at most `CacheFormat.mergeLimit` ranks can outnumber a bitmap) or for a token
            // longer than `CacheFormat.maximumPrefixSetLength` bytes, which no one types.
            sets.sort { ($0.isBitmap ? 1 : 0, $0.cardinality) < ($1.isBitmap ? 1 : 0, $1.cardinality) }
        }
        switch sets[0].storage {
        case .bitmap(let first):
            if sets.count == 1, let counts = sets[0].yearCounts {
                try answer.addBitmap(first, counts: counts, years)
                break
            }
            if sets.count == 2, case .bitmap(let second) = sets[1].storage {
                if let a = sets[0].bitmapNumber, let b = sets[1].bitmapNumber, a != b,
                   let counts = try index.prefixSets.pairYearCounts(a, b) {
                    try answer.addIntersection(first, second, counts: counts, years)
                } else {
                    try answer.addIntersection(first, second, years)
                }
                break
            }
            var words = first.copied()
            for other in sets[1...] {
                guard case .bitmap(let bits) = other.storage, bits.count == words.count else {
                    throw .corrupt(path: file.path, detail: "a bitmap set has the wrong size")
                }
                bits.intersect(into: &words)
            }
            try answer.addBitmap(words, years)
        case .list(let list):
            // A long list and a bitmap with the counts per year of the two met: each year tests the list's ranks
            // only up to its first matches.
            if sets.count == 2, case .bitmap(let words) = sets[1].storage, let counted = sets[0].countedNumber,
               let listCounts = sets[0].yearCounts, let bitmap = sets[1].bitmapNumber,
               let counts = try index.prefixSets.listPairYearCounts(counted: counted, bitmap: bitmap) {
                try answer.addFiltered(PositionCursor(list), count: list.count, listCounts: listCounts, by: words,
                                       counts: counts, years)
                break
            }
            if let bytes = list.bytePacked {
                try addFiltered(bytes, sets, to: &answer, years)
            } else {
                try addFiltered(list, sets, to: &answer, years)
            }
        case .coded(let list):
            if sets.count == 2, case .bitmap(let words) = sets[1].storage, let counted = sets[0].countedNumber,
               let listCounts = sets[0].yearCounts, let bitmap = sets[1].bitmapNumber,
               let counts = try index.prefixSets.listPairYearCounts(counted: counted, bitmap: bitmap) {
                try answer.addFiltered(EliasFanoList.Cursor(list), count: list.count, listCounts: listCounts,
                                       by: words, counts: counts, years)
                break
            }
            if sets.count == 1, sets[0].yearCounts == nil {
                try answer.addSorted(list, years)
                break
            }
            guard sets.count > 1 else {
                // One list with its counts per year, listing more a year than its first ids hold.
                try addFiltered(list.decoded(), sets, to: &answer, years)
                break
            }
            // Met with the next set as it is read: a bitmap's bits tested, a list of like size met a block at a time;
            // decoded first to meet a much longer list, or a merged one.
            let movieCount = file.movieCount
            var matches: [UInt32]
            switch sets[1].storage {
            case .bitmap(let words):
                guard words.count == CacheFormat.bitmapWordCount(movieCount: movieCount),
                      let kept = BitKernels.filter(list, in: words, below: movieCount) else {
                    throw .corrupt(path: file.path, detail: "a bitmap set has the wrong size or a rank out of range")
                }
                matches = kept
            case .coded(let other) where Self.meetsByBlocks(list.count, other.count, movieCount: movieCount):
                guard let kept = BitKernels.intersection(list, other, below: movieCount) else {
                    throw .corrupt(path: file.path, detail: "rank out of range")
                }
                matches = kept
            case .list(let other) where Self.meetsByBlocks(list.count, other.count, movieCount: movieCount):
                guard let kept = BitKernels.intersection(list, other, below: movieCount) else {
                    throw .corrupt(path: file.path, detail: "rank out of range")
                }
                matches = kept
            default:
                matches = try Self.filter(list.decoded(), by: sets[1], movieCount: movieCount, path: file.path)
            }
            for index in 2..<sets.count where !matches.isEmpty {
                matches = try Self.filter(matches, by: sets[index], movieCount: movieCount, path: file.path)
            }
            try answer.addSorted(matches, years)
        case .merged(let list):
            try addFiltered(list, sets, to: &answer, years)
        }
        return answer.result(query: query)
    }

    /// Adds the ranks of `smallest` (the list of `sets[0]`) that are in every other set.
    private func addFiltered<Ranks: RankSequence>(_ smallest: Ranks, _ sets: [RankSet], to answer: inout AnswerBuilder,
                                                  _ years: YearTable) throws(CacheError) {
        if sets.count == 1 {
            if let counts = sets[0].yearCounts {
                try answer.addSorted(smallest, counts: counts, years)
            } else {
                try answer.addSorted(smallest, years)
            }
            return
        }
        var matches = try Self.filter(smallest, by: sets[1], movieCount: file.movieCount, path: file.path)
        for index in 2..<sets.count where !matches.isEmpty {
            matches = try Self.filter(matches, by: sets[index], movieCount: file.movieCount, path: file.path)
        }
        try answer.addSorted(matches, years)
    }

    /// The ranks of `candidates` (ascending) that are in `set`: a bit test each for a bitmap; for a list, see
    /// `intersect(_:_:movieCount:)`.
    static func filter<Candidates: RankSequence>(_ candidates: Candidates, by set: RankSet, movieCount: Int,
                                                 path: String) throws(CacheError) -> [UInt32] {
        let kept: [UInt32]?
        switch set.storage {
        case .bitmap(let words):
            guard words.count == CacheFormat.bitmapWordCount(movieCount: movieCount) else {
                throw .corrupt(path: path, detail: "a bitmap set has the wrong size")
            }
            kept = BitKernels.filter(candidates, in: words, below: movieCount)
        case .list(let list):
            if let bytes = list.bytePacked {
                kept = Self.intersect(candidates, bytes, movieCount: movieCount)
            } else {
                kept = Self.intersect(candidates, list, movieCount: movieCount)
            }
        case .coded(let list):
            if meetsByBlocks(candidates.count, list.count, movieCount: movieCount) {
                kept = BitKernels.intersection(candidates, list, below: movieCount)
            } else {
                kept = Self.intersect(candidates, EliasFanoList.Cursor(list))
            }
        case .merged(let list):
            kept = Self.intersect(candidates, list, movieCount: movieCount)
        }
        guard let kept else { throw .corrupt(path: path, detail: "rank out of range") }
        return kept
    }

    /// The ranks of `candidates` found in `list` (both ascending); `nil` if a candidate met on the way to a block
    /// is not below `movieCount` (galloped or scanned ranks are checked where the answer lists them,
    /// `AnswerBuilder.addSorted`).
    ///
    /// How depends on how much longer the list is than the candidates (measured on the 10M IMDb benchmark's
    /// slowest queries, lists of 2,000 to 70,000 ranks), for 1,024 candidates or more (fewer are always galloped
    /// or scanned, as below):
    /// - up to 16 times (two words of like size, the slowest queries of a large catalog): a search per candidate
    ///   would be a binary search, each step a mispredicted branch; instead they are met a block of ranks at a
    ///   time through a small bitmap (`BitKernels.intersection`), without a branch per candidate;
    /// - up to 64 times: the list is scanned forward for each candidate, 8 entries a step (`scan`), which reads
    ///   it in order where a binary search waits for each entry it reads (4 times faster for 2,500 candidates in a
    ///   list of 70,000 than galloping, and than a bitmap of the list);
    /// - longer: galloped through, so that the cost follows the candidates.
    private static func intersect<Candidates: RankSequence, List: RankSequence>(
        _ candidates: Candidates, _ list: List, movieCount: Int
    ) -> [UInt32]? {
        if meetsByBlocks(candidates.count, list.count, movieCount: movieCount) {
            return BitKernels.intersection(candidates, list, below: movieCount)
        }
        var kept: [UInt32] = []
        let scans = list.count / 64 <= candidates.count
        var position = 0
        for candidate in 0..<candidates.count {
            let rank = candidates[candidate]
            if position < list.count, list[position] < rank {
                position = scans ? Self.scan(list, from: position, notBelow: rank)
                    : AnswerBuilder.firstPosition(in: list, from: position, notBelow: Int(rank))
            }
            if position == list.count { break }
            if list[position] == rank { kept.append(rank) }
        }
        return kept
    }

    /// Whether `candidates` ranks meet a list of `count` a block at a time (`BitKernels.intersection`): 1,024 or
    /// more in a list at most 16 times longer (see `intersect(_:_:movieCount:)`); fewer in a catalog of fewer than
    /// 2^16 movies, whose block is smaller (`BitKernels.blockWordCount(below:)`), when there are at least an eighth
    /// as many as its words and the list is at most 4 times longer. There, where every list is a few hundred ranks,
    /// reading the whole list costs less than advancing through it to each candidate.
    static func meetsByBlocks(_ candidates: Int, _ count: Int, movieCount: Int) -> Bool {
        if candidates >= 1024 { return count / 16 <= candidates }
        let words = BitKernels.blockWordCount(below: movieCount)
        return words < 1024 && candidates &* 8 >= words && count / 4 <= candidates
    }

    /// The ranks of `candidates` that the list under `cursor` holds (both ascending): the cursor advanced to each,
    /// the ranks between them skipped by their upper bits' zeros (`EliasFanoList.Cursor.advance(to:)`).
    private static func intersect<Candidates: RankSequence>(_ candidates: Candidates,
                                                            _ cursor: EliasFanoList.Cursor) -> [UInt32]? {
        var cursor = cursor
        var kept: [UInt32] = []
        for candidate in 0..<candidates.count {
            let rank = candidates[candidate]
            if cursor.advance(to: rank) == rank { kept.append(rank) }
            if cursor.isAtEnd { break }
        }
        return cursor.isDamaged ? nil : kept
    }

    /// The first position after `start` (whose entry is below `bound`) of an entry of ascending `list` not below
    /// `bound`, found by reading the list forward, 8 entries a step, then one by one.
    @inline(__always)
    static func scan<List: RankSequence>(_ list: List, from start: Int, notBelow bound: UInt32) -> Int {
        var position = start
        while position &+ 8 < list.count, list[position &+ 8] < bound { position &+= 8 }
        position &+= 1
        while position < list.count, list[position] < bound { position &+= 1 }
        return position
    }

    /// The term range of each query token, leaving out every range that holds another: a title with a term in the
    /// smaller range has one in the larger too, so the larger one cannot change the answer (this also drops
    /// repeated tokens, and tokens that are prefixes of others). Ordered by lower bound.
    /// `nil` when some token is a prefix of no term at all (nothing matches; `lookedUp` then gets the ranges of
    /// the tokens before it, in order); empty when the query has no tokens.
    func termRanges(of query: String, lookedUp: inout [Range<Int>]?) throws(CacheError) -> TermRanges? {
        var finder = TermRangeFinder(dictionary: index.terms)
        Tokenizer.forEachToken(in: query, into: &finder)
        if let failure = finder.failure { throw failure }
        if finder.unmatched {
            lookedUp = finder.ranges.array
            return nil
        }
        Self.keepInnermost(&finder.ranges)
        return finder.ranges
    }

    /// Each token's range of terms, until one has none or a read fails (`termRanges(of:)`).
    private struct TermRangeFinder: TokenConsumer {
        let dictionary: TermDictionary
        var ranges = TermRanges()
        var failure: CacheError?
        var unmatched = false

        mutating func token(_ token: UnsafeBufferPointer<UInt8>) {
            guard failure == nil, !unmatched else { return }
            do throws(CacheError) {
                let range = try dictionary.range(ofPrefix: token)
                if range.isEmpty { unmatched = true } else { ranges.append(range) }
            } catch {
                failure = error
            }
        }
    }

    /// Leaves in `ranges` (none empty) those that hold no other, one of each, in the order of their lower bounds.
    ///
    /// Sorted by lower bound, and by upper bound descending where the lower bounds are equal, every range that a
    /// range holds comes after it, and every range after it with an upper bound no higher is one it holds: so a
    /// range is kept when its upper bound is below every later one's. One sort and one pass from the end, where
    /// checking each new range against those kept would take time quadratic in the words of a long query.
    static func keepInnermost(_ ranges: inout TermRanges) {
        if ranges.count < 2 { return }
        ranges.sort { $0.lowerBound != $1.lowerBound ? $0.lowerBound < $1.lowerBound : $0.upperBound > $1.upperBound }
        var kept = ranges.count  // `ranges[kept...]` are the ranges kept so far.
        var lowestUpper = Int.max
        for position in ranges.indices.reversed() where ranges[position].upperBound < lowestUpper {
            lowestUpper = ranges[position].upperBound
            kept -= 1
            ranges[kept] = ranges[position]
        }
        ranges.removeFirst(kept)
    }
}
