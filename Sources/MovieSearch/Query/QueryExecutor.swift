/// Runs one query against a `MovieIndex` (the algorithm is described in `CacheFormat`, "A query, step by step").
struct QueryExecutor {
    let index: MovieIndex
    let perYear: Int
    // Held directly, not read through `index` at each use: that would retain and release the file every time.
    // Sections are read through `index` instead: they are plain values, and a copy of all of them would cost more.
    private let file: MappedCacheFile

    init(index: MovieIndex, perYear: Int) {
        self.index = index
        self.perYear = perYear
        file = index.file
    }

    func run(_ query: String) throws(CacheError) -> SearchResult {
        let years = try YearTable(index: index)
        var answer = AnswerBuilder(perYear: perYear, ranks: try file.packed(index.sections.ranks, 0..<file.movieCount),
                                   path: file.path, yearCount: years.count)
        guard let ranges = try termRanges(of: query) else { return answer.result(query: query) }
        if ranges.isEmpty {
            try answer.addAll(years)
            return answer.result(query: query)
        }
        var sets: [RankSet] = []
        sets.reserveCapacity(ranges.count)
        for range in ranges { sets.append(try rankSet(of: range)) }
        // Lists first, smallest first, then bitmaps: a list drives when there is one, so a bitmap first means all
        // are bitmaps. Every stored set of more than 2⌈N / 64⌉ ranks is a bitmap and no smaller one is, so this
        // is smallest first too, except in a tiny catalog, where a merged range (up to 16 ranks) can outnumber a
        // bitmap.
        sets.sort { ($0.isBitmap ? 1 : 0, $0.cardinality) < ($1.isBitmap ? 1 : 0, $1.cardinality) }
        switch sets[0].storage {
        case .bitmap(let first):
            if sets.count == 1, let counts = sets[0].yearCounts {
                try answer.addBitmap(first, counts: counts, years)
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
            try addFiltered(list, sets, to: &answer, years)
        case .merged(let list):
            try addFiltered(list, sets, to: &answer, years)
        }
        return answer.result(query: query)
    }

    /// Adds the ranks of `smallest` (the list of `sets[0]`) that are in every other set.
    private func addFiltered<Ranks: RankSequence>(_ smallest: Ranks, _ sets: [RankSet], to answer: inout AnswerBuilder,
                                                  _ years: YearTable) throws(CacheError) {
        if sets.count == 1 {
            try answer.addSorted(smallest, years)
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
            kept = BitKernels.filter(candidates, below: movieCount) { words[$0] }
        case .list(let list):
            kept = Self.intersect(candidates, list, movieCount: movieCount)
        case .merged(let list):
            kept = Self.intersect(candidates, list, movieCount: movieCount)
        }
        guard let kept else { throw .corrupt(path: path, detail: "rank out of range") }
        return kept
    }

    /// The ranks of `candidates` found in `list` (both ascending); `nil` if a rank met on the way to a bitmap is
    /// not below `movieCount` (galloped ranks are checked where the answer lists them, `AnswerBuilder.addSorted`).
    ///
    /// A list much longer than the candidates is galloped through, so the cost follows the candidates. Two lists
    /// of like size (two words of a few thousand titles each, the slowest queries of a large catalog) would make
    /// that a binary search per candidate, each step a mispredicted branch: instead the longer list becomes a
    /// bitmap for the moment, and the candidates are tested against it without a branch.
    private static func intersect<Candidates: RankSequence, List: RankSequence>(_ candidates: Candidates, _ list: List,
                                                                               movieCount: Int) -> [UInt32]? {
        if candidates.count >= 1024, list.count / 32 <= candidates.count {
            guard let bits = BitKernels.bitmap(of: list, below: movieCount) else { return nil }
            return BitKernels.filter(candidates, below: movieCount) { bits[$0] }
        }
        var kept: [UInt32] = []
        var position = 0
        for candidate in 0..<candidates.count {
            let rank = candidates[candidate]
            if position < list.count, list[position] < rank {
                position = AnswerBuilder.firstPosition(in: list, from: position, notBelow: Int(rank))
            }
            if position == list.count { break }
            if list[position] == rank { kept.append(rank) }
        }
        return kept
    }

    /// The term range of each query token, leaving out every range that holds another: a title with a term in the
    /// smaller range has one in the larger too, so the larger one cannot change the answer (this also drops
    /// repeated tokens, and tokens that are prefixes of others). Ordered by lower bound.
    /// `nil` when some token is a prefix of no term at all (nothing matches); empty when the query has no tokens.
    private func termRanges(of query: String) throws(CacheError) -> [Range<Int>]? {
        let dictionary = TermDictionary(index: index)
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(4)
        var failure: CacheError?
        var unmatched = false
        Tokenizer.forEachToken(in: query) { token in
            guard failure == nil, !unmatched else { return }
            do throws(CacheError) {
                let range = try dictionary.range(ofPrefix: token)
                if range.isEmpty { unmatched = true } else { ranges.append(range) }
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        if unmatched { return nil }
        Self.keepInnermost(&ranges)
        return ranges
    }

    /// Leaves in `ranges` (none empty) those that hold no other, one of each, in the order of their lower bounds.
    ///
    /// Sorted by lower bound, and by upper bound descending where the lower bounds are equal, every range that a
    /// range holds comes after it, and every range after it with an upper bound no higher is one it holds: so a
    /// range is kept when its upper bound is below every later one's. One sort and one pass from the end, where
    /// checking each new range against those kept would take time quadratic in the words of a long query.
    static func keepInnermost(_ ranges: inout [Range<Int>]) {
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

    /// The ranks whose titles have a term in `terms`: the range's prefix set if it has one (ranges of two terms
    /// or more with many postings, and frequent single terms), else the single term's posting list, else the
    /// range's few postings merged.
    private func rankSet(of terms: Range<Int>) throws(CacheError) -> RankSet {
        let entries = try file.packed(index.sections.prefixOffsets, terms.lowerBound..<(terms.lowerBound + 2))
        let first = Int(entries[0]), last = Int(entries[1])
        guard first <= last else { throw .corrupt(path: file.path, detail: "prefix offsets out of order") }
        let candidates = try file.packed(index.sections.prefixEntries, (first * 2)..<(last * 2))
        for entry in 0..<(candidates.count / 2) where Int(candidates[entry * 2]) == terms.upperBound {
            return try prefixSet(Int(candidates[entry * 2 + 1]))
        }
        let bounds = try file.packed(index.sections.postingOffsets, terms.lowerBound..<(terms.upperBound + 1))
        let start = Int(bounds[0]), end = Int(bounds[terms.count])
        guard start <= end else { throw .corrupt(path: file.path, detail: "posting offsets out of order") }
        let postings = try file.packed(index.sections.postings, start..<end)
        if terms.count == 1 { return RankSet(cardinality: postings.count, storage: .list(postings), yearCounts: nil) }
        // A title with two of the terms is in both lists: sort, then drop the repeats.
        var merged = postings.values()
        merged.sort()
        var kept = 0
        for position in merged.indices where position == 0 || merged[position] != merged[kept - 1] {
            merged[kept] = merged[position]
            kept += 1
        }
        merged.removeLast(merged.count - kept)
        return RankSet(cardinality: merged.count, storage: .merged(merged), yearCounts: nil)
    }

    /// Set number `set` of `PRFE`: a list set below the number of list sets, a bitmap set from there on.
    private func prefixSet(_ set: Int) throws(CacheError) -> RankSet {
        let listSets = index.sections.listSetOffsets.count - 1
        if set < listSets {
            let bounds = try file.packed(index.sections.listSetOffsets, set..<(set + 2))
            let start = Int(bounds[0]), end = Int(bounds[1])
            guard start <= end else { throw .corrupt(path: file.path, detail: "prefix set \(set) is malformed") }
            let list = try file.packed(index.sections.listSetData, start..<end)
            return RankSet(cardinality: list.count, storage: .list(list), yearCounts: nil)
        }
        let bitmap = set - listSets
        guard bitmap < index.sections.bitmapCardinalities.count else {
            throw .corrupt(path: file.path, detail: "prefix set \(set) does not exist")
        }
        let words = (file.movieCount + 63) / 64
        return RankSet(cardinality: Int(try file.packed(index.sections.bitmapCardinalities, bitmap)),
                       storage: .bitmap(try file.u64s(index.sections.bitmaps, byteOffset: bitmap * words * 8, count: words)),
                       yearCounts: try file.packed(index.sections.bitmapYearCounts,
                                                   (bitmap * file.yearCount)..<((bitmap + 1) * file.yearCount)))
    }
}

/// The ranks of the titles that have a term in `terms`, with how many there are.
struct RankSet {
    enum Storage {
        /// Ascending ranks, in the file.
        case list(PackedView)
        /// Ascending ranks, merged at query time.
        case merged([UInt32])
        /// One bit per rank.
        case bitmap(U64View)
    }

    var cardinality: Int
    var storage: Storage
    /// For a bitmap: its matches per year, in `YEAR` order.
    var yearCounts: PackedView?

    /// Whether the set is a bitmap (else its ranks are listed).
    var isBitmap: Bool {
        if case .bitmap = storage { return true }
        return false
    }
}

/// Ascending ranks, read one at a time: a posting list or prefix set in the file, or matches in memory.
protocol RankSequence {
    var count: Int { get }
    subscript(position: Int) -> UInt32 { get }
}

extension PackedView: RankSequence {}
extension Array: RankSequence where Element == UInt32 {}

/// The `YEAR` section, checked once per open (years descending, ranks ascending from 0).
struct YearTable {
    private let entries: U32View
    let count: Int
    private let movieCount: Int

    init(index: MovieIndex) throws(CacheError) {
        count = index.file.yearCount
        movieCount = index.file.movieCount
        entries = try index.file.u32s(index.sections.years, 0..<(count * 2))
    }

    /// Checks the ordering every query relies on, so that no query can loop or index out of range.
    func validate(path: String) throws(CacheError) {
        for year in 0..<count {
            let ordered = year == 0 ? firstRank(0) == 0 : self.year(year) < self.year(year - 1) && firstRank(year) > firstRank(year - 1)
            guard ordered, firstRank(year) < movieCount else {
                throw .corrupt(path: path, detail: "year table out of order")
            }
        }
    }

    func year(_ index: Int) -> Int { Int(Int32(bitPattern: entries[index * 2])) }
    func firstRank(_ index: Int) -> Int { Int(entries[index * 2 + 1]) }
    func endRank(_ index: Int) -> Int { index + 1 < count ? firstRank(index + 1) : movieCount }
}

/// Collects an answer: per year the count and the first `perYear` ids, all ids in one shared buffer.
struct AnswerBuilder {
    let perYear: Int
    let ranks: PackedView
    let path: String
    private var ids: [Int] = []
    private var years: [(year: Int, count: Int, idsEnd: Int)] = []
    private var total = 0

    init(perYear: Int, ranks: PackedView, path: String, yearCount: Int) {
        self.perYear = perYear
        self.ranks = ranks
        self.path = path
        // Room for a typical answer up front: growing from empty costs a reallocation per doubling, which is a
        // good part of a sub-microsecond query.
        let years = min(yearCount, 256)
        self.years.reserveCapacity(years)
        ids.reserveCapacity(min(perYear, 16) * years)
    }

    private mutating func addYear(_ year: Int, count: Int) {
        total += count
        years.append((year, count, ids.count))
    }

    private mutating func list(rank: Int) {
        ids.append(Int(ranks[rank]))
        years[years.count - 1].idsEnd = ids.count
    }

    /// Every movie (a query without tokens).
    mutating func addAll(_ table: YearTable) throws(CacheError) {
        for year in 0..<table.count {
            let first = table.firstRank(year), end = table.endRank(year)
            addYear(table.year(year), count: end - first)
            for rank in first..<min(end, first + perYear) { list(rank: rank) }
        }
    }

    /// Matches given as ascending ranks: each year's count by galloping to the year's end.
    ///
    /// The order is checked where it costs nothing extra (each year's first rank and count, each listed rank), so
    /// that a list out of order in a forged file gives an error, not a year with more matches than movies.
    mutating func addSorted<Ranks: RankSequence>(_ matches: Ranks, _ table: YearTable) throws(CacheError) {
        var position = 0, year = 0
        while position < matches.count {
            let rank = Int(matches[position])
            guard rank < ranks.count else { throw .corrupt(path: path, detail: "rank out of range") }
            while table.endRank(year) <= rank { year += 1 }
            let end = table.endRank(year)
            let next = Self.firstPosition(in: matches, from: position, notBelow: end)
            guard rank >= table.firstRank(year), next - position <= end - rank else { throw Self.outOfOrder(path) }
            addYear(table.year(year), count: next - position)
            var previous = rank - 1
            for listed in position..<min(next, position + perYear) {
                let listedRank = Int(matches[listed])
                guard listedRank > previous, listedRank < end else { throw Self.outOfOrder(path) }
                previous = listedRank
                list(rank: listedRank)
            }
            position = next
        }
    }

    private static func outOfOrder(_ path: String) -> CacheError {
        .corrupt(path: path, detail: "ranks out of order")
    }

    /// Matches given as a bitmap over ranks: each year's count by popcount over its bit range.
    mutating func addBitmap(_ bitmap: [UInt64], _ table: YearTable) throws(CacheError) {
        bitmap.withUnsafeBufferPointer { words in
            for year in 0..<table.count {
                let first = table.firstRank(year), end = table.endRank(year)
                let count = Self.popcount(words, first..<end)
                if count > 0 { addYear(table.year(year), count: count, firstBits: { words[$0] }, from: first) }
            }
        }
    }

    /// Matches given as a stored bitmap with its counts per year: only the listed movies' bits are read.
    mutating func addBitmap(_ words: U64View, counts: PackedView, _ table: YearTable) throws(CacheError) {
        var total = 0
        for year in 0..<table.count {
            let count = Int(counts[year])
            total += count
            guard count <= table.endRank(year) - table.firstRank(year), total <= ranks.count else {
                throw .corrupt(path: path, detail: "year counts of a prefix set do not fit its years")
            }
            if count > 0 { addYear(table.year(year), count: count, firstBits: { words[$0] }, from: table.firstRank(year)) }
        }
    }

    /// Adds a year of `count` matches and lists the first `perYear` set bits from rank `first` on.
    private mutating func addYear(_ year: Int, count: Int, firstBits word: (Int) -> UInt64, from first: Int) {
        addYear(year, count: count)
        var wanted = min(perYear, count)
        var index = first >> 6
        var bits = word(index) & (UInt64.max << UInt64(first & 63))
        while wanted > 0 {
            while bits == 0 {
                index += 1
                // A stored count larger than the year's bits (a damaged file) must not run past the bitmap.
                guard index < (ranks.count + 63) / 64 else { return }
                bits = word(index)
            }
            let rank = index << 6 | bits.trailingZeroBitCount
            guard rank < ranks.count else { return }
            list(rank: rank)
            bits &= bits - 1
            wanted -= 1
        }
    }

    func result(query: String) -> SearchResult {
        var start = 0
        let ids = self.ids
        let groups = years.map { entry -> YearMatches in
            defer { start = entry.idsEnd }
            return YearMatches(year: entry.year, count: entry.count, movieIDs: MovieIDList(storage: ids, range: start..<entry.idsEnd))
        }
        return SearchResult(query: query, total: total, years: groups)
    }

    /// The first position at or after `start` whose rank is ≥ `bound` (ranks ascend): exponential, then binary
    /// search, so a year with few matches costs a few steps however many matches follow.
    static func firstPosition<Ranks: RankSequence>(in ranks: Ranks, from start: Int, notBelow bound: Int) -> Int {
        var low = start, step = 1
        while low + step < ranks.count, Int(ranks[low + step]) < bound {
            low += step
            step *= 2
        }
        var high = min(low + step, ranks.count)
        low += 1
        while low < high {
            let middle = (low + high) / 2
            if Int(ranks[middle]) < bound { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Set bits of `words` in the bit range `range`.
    static func popcount(_ words: UnsafeBufferPointer<UInt64>, _ range: Range<Int>) -> Int {
        if range.isEmpty { return 0 }
        let firstWord = range.lowerBound >> 6, lastWord = (range.upperBound - 1) >> 6
        let head: UInt64 = ~0 << UInt64(range.lowerBound & 63)
        let tail: UInt64 = ~0 >> UInt64(63 - ((range.upperBound - 1) & 63))
        if firstWord == lastWord { return (words[firstWord] & head & tail).nonzeroBitCount }
        var count = (words[firstWord] & head).nonzeroBitCount + (words[lastWord] & tail).nonzeroBitCount
        for word in (firstWord + 1)..<lastWord { count += words[word].nonzeroBitCount }
        return count
    }
}
