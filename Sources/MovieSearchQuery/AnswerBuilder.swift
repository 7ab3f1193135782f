@_spi(Engine) import MovieSearchIndex

/// Collects an answer: per year the count and the first `perYear` ids, all ids in one shared buffer.
struct AnswerBuilder {
    let perYear: Int
    /// `RANK`: each rank's id less its year's base (`RNKB`, `rankBases`).
    let ranks: PackedView
    let rankBases: PackedView
    /// The number of the year added last, and the base of the ids of the year whose base was read last (read when
    /// a year first lists a rank through `RANK`: answers from stored first ids never need it).
    private var yearNumber = 0, baseYear = -1, rankBase = 0
    let path: String
    private var ids: [Int] = []
    /// The typo count of each listed id, in a typo answer only (an exact answer's counts are all 0).
    private var typos: [UInt16] = []
    /// Each year added, with where its listed ids start in `ids` (they end where the next year's start).
    private var years: [YearMatchList.Entry] = []
    private var total = 0

    init(perYear: Int, ranks: PackedView, rankBases: PackedView, path: String, yearCount: Int) {
        self.perYear = perYear
        self.ranks = ranks
        self.rankBases = rankBases
        self.path = path
        // Room for a typical answer up front: growing from empty costs a reallocation per doubling, which is a
        // good part of a sub-microsecond query.
        let years = min(yearCount, 256)
        self.years.reserveCapacity(years)
        ids.reserveCapacity(min(perYear, 16) * years)
    }

    /// Adds year number `index` of `table` with `count` matches; the ranks listed next are its.
    @inline(__always)
    private mutating func addYear(_ index: Int, _ table: YearTable, count: Int) {
        yearNumber = index
        total += count
        years.append(YearMatchList.Entry(year: table.year(index), count: count, idsStart: ids.count))
    }

    /// Sets the count of the year added last, added with a count of 0.
    @inline(__always)
    private mutating func setLastYearCount(_ count: Int) {
        years[years.count - 1].count = count
        total += count
    }

    /// Lists the movie at `rank` in the year added last.
    @inline(__always)
    private mutating func list(rank: Int) {
        if yearNumber != baseYear {
            rankBase = Int(rankBases[yearNumber])
            baseYear = yearNumber
        }
        ids.append(Int(ranks[rank]) &+ rankBase)
    }

    /// Every movie (a query without tokens).
    mutating func addAll(_ table: YearTable) throws(CacheError) {
        for year in 0..<table.count {
            let first = table.firstRank(year), end = table.endRank(year)
            addYear(year, table, count: end - first)
            for rank in first..<min(end, first + perYear) { list(rank: rank) }
        }
    }

    /// Every rank of each year entry's range (a query without tokens under year and rating filters: each range is a
    /// year's passing ranks, `RankFilter`), years in table order.
    mutating func addIntervals(_ intervals: [(entry: Int, ranks: Range<Int>)], _ table: YearTable) {
        for interval in intervals {
            addYear(interval.entry, table, count: interval.ranks.count)
            for rank in interval.ranks.prefix(perYear) { list(rank: rank) }
        }
    }

    /// Matches given as ascending ranks: each year's count by galloping to the year's end.
    ///
    /// The order is checked where it costs nothing extra (each year's first rank and count, each listed rank), so
    /// that a list out of order in a forged file gives an error, not a year with more matches than movies.
    mutating func addSorted<Ranks: RankSequence>(_ matches: Ranks, _ table: YearTable) throws(CacheError) {
        var position = 0, year = 0
        while position < matches.count {
            let (rank, end, next) = try yearRun(of: matches, at: position, year: &year, table)
            guard rank >= table.firstRank(year), next - position <= end - rank else { throw Self.outOfOrder(path) }
            addYear(year, table, count: next - position)
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

    /// Matches given as an Elias–Fano list (a list set, or positions `positions` of a genre's list), read forward
    /// once by a cursor: each year's first ranks listed as they are met, the rest of the year crossed by
    /// `EliasFanoList.Cursor.advance(to:)` (a few steps, or the upper bits' zeros counted a word at a time) and
    /// counted from the positions; the checks are `addSorted(_:_:)`'s.
    mutating func addSorted(_ matches: EliasFanoList, positions: Range<Int>? = nil,
                            _ table: YearTable) throws(CacheError) {
        var cursor = EliasFanoList.Cursor(matches)
        let end = positions?.upperBound ?? matches.count
        if let positions { cursor.seek(to: positions.lowerBound) }
        var year = 0
        while cursor.index < end {
            let first = Int(cursor.rank), start = cursor.index
            guard first < ranks.count else { throw .corrupt(path: path, detail: "rank out of range") }
            while table.endRank(year) <= first { year += 1 }
            guard first >= table.firstRank(year) else { throw Self.outOfOrder(path) }
            let yearEnd = table.endRank(year)
            // Listed before its count is known: the count is set once the year is crossed.
            addYear(year, table, count: 0)
            var previous = first - 1
            while cursor.index - start < perYear, cursor.index < end, Int(cursor.rank) < yearEnd {
                let rank = Int(cursor.rank)
                guard rank > previous else { throw Self.outOfOrder(path) }
                previous = rank
                list(rank: rank)
                cursor.next()
            }
            cursor.advance(to: UInt32(yearEnd))
            // Positions of a list cut at a year's end (a year range's) never pass it; a damaged list may.
            guard cursor.index <= end else { throw Self.outOfOrder(path) }
            let count = cursor.index - start
            guard count <= yearEnd - first else { throw Self.outOfOrder(path) }
            setLastYearCount(count)
        }
        guard !cursor.isDamaged else { throw .corrupt(path: path, detail: "rank out of range") }
    }

    /// Matches given as ascending ranks with their counts per year: each year's matches are the next `count`
    /// ranks, so nothing is searched. The counts are checked against the list (each year's first and listed ranks
    /// inside it, all of the list used), so that counts that disagree with a forged list give an error.
    mutating func addSorted<Ranks: RankSequence>(_ matches: Ranks, counts: PackedView, _ table: YearTable)
        throws(CacheError)
    {
        guard counts.count == table.count else { throw Self.outOfOrder(path) }
        var position = 0
        for year in 0..<table.count {
            let count = Int(counts[year])
            guard count > 0 else { continue }
            let first = table.firstRank(year), end = table.endRank(year)
            guard count <= end - first, count <= matches.count - position else { throw Self.outOfOrder(path) }
            addYear(year, table, count: count)
            var previous = first - 1
            for listed in position..<(position + min(count, perYear)) {
                let rank = Int(matches[listed])
                guard rank > previous, rank < end else { throw Self.outOfOrder(path) }
                previous = rank
                list(rank: rank)
            }
            // The year's last match must lie in it too, so that the next year starts where this one ends.
            let last = Int(matches[position + count - 1])
            guard last >= first, last < end else { throw Self.outOfOrder(path) }
            position += count
        }
        guard position == matches.count else { throw Self.outOfOrder(path) }
    }

    /// The step that cuts ascending ranks into years: the rank at `position`, checked; `year` moved on to its year;
    /// that year's end rank, and the position of the first match past it.
    @inline(__always)
    private func yearRun<Ranks: RankSequence>(of matches: Ranks, at position: Int, year: inout Int,
                                              _ table: YearTable) throws(CacheError) -> (rank: Int, end: Int, next: Int) {
        let rank = Int(matches[position])
        guard rank < ranks.count else { throw .corrupt(path: path, detail: "rank out of range") }
        while table.endRank(year) <= rank { year += 1 }
        let end = table.endRank(year)
        return (rank, end, Self.firstPosition(in: matches, from: position, notBelow: end))
    }

    private static func outOfOrder(_ path: String) -> CacheError {
        .corrupt(path: path, detail: "ranks out of order")
    }

    /// Matches given as a bitmap over ranks: each year's count by popcount over its bit range.
    ///
    /// `bounds`: the ranks outside which no bit is set (a filter's years), whose years are not counted at all; then
    /// the bitmap may start at word `firstWord` (it holds words `firstWord...` of the whole), so that a filtered
    /// search makes and clears only the words of its years.
    mutating func addBitmap(_ bitmap: [UInt64], _ table: YearTable, firstWord: Int = 0,
                            within bounds: Range<Int>? = nil) throws(CacheError) {
        let base = firstWord << 6
        try bitmap.withUnsafeBufferPointer { words throws(CacheError) in
            for year in 0..<table.count {
                let first = table.firstRank(year), end = table.endRank(year)
                if let bounds, bounds.isEmpty || end <= bounds.lowerBound || first >= bounds.upperBound { continue }
                guard first >= base, end - base <= words.count << 6 else {
                    throw .corrupt(path: path, detail: "a bitmap set has the wrong size")
                }
                let count = Self.popcount(words, (first - base)..<(end - base))
                if count > 0 {
                    try addYear(year, table, count: count, firstBits: { words[$0 - firstWord] }, from: first, to: end)
                }
            }
        }
    }

    /// Matches given as the intersection of two bitmaps of the file, met year by year: each year's count by one
    /// tight pass that ANDs and counts its words (`U64View.intersectionCount`, which the compiler vectorizes),
    /// then its first `perYear` matches from the year's first words, read again while they are in cache. Nothing is
    /// allocated; making the intersection first would write it (N / 64 words) and read it again to count it.
    mutating func addIntersection(_ a: U64View, _ b: U64View, _ table: YearTable) throws(CacheError) {
        guard a.count == b.count, a.count == CacheFormat.bitmapWordCount(movieCount: ranks.count) else {
            throw .corrupt(path: path, detail: "a bitmap set has the wrong size")
        }
        for year in 0..<table.count {
            let first = table.firstRank(year), end = table.endRank(year)
            let count = U64View.intersectionCount(a, b, first..<end)
            guard count > 0 else { continue }
            try addYear(year, table, count: count, firstBits: { a[$0] & b[$0] }, from: first, to: table.endRank(year))
        }
    }

    /// Matches given as their counts per year and the ids of their first matches in each year, `slots` a year (a
    /// stored set's `BMPC` or `YCNT` with its `BMPI` or `YCID`), for at most `slots` listed a year: neither the
    /// set nor `RANK` is read. The counts are checked as `addSorted(_:counts:_:)` checks them (each fits its year,
    /// and they add up to the set's `cardinality`), so counts that disagree with a forged set give an error.
    mutating func addFirstIDs(counts: PackedView, firstIDs: PackedView, slots: Int, cardinality: Int,
                              _ table: YearTable) throws(CacheError) {
        precondition(perYear <= slots, "more listed a year than the first ids hold")
        guard counts.count == table.count, firstIDs.count == table.count * slots else { throw Self.outOfOrder(path) }
        var total = 0
        for year in 0..<table.count {
            let count = Int(counts[year])
            guard count > 0 else { continue }
            total += count
            guard count <= table.endRank(year) - table.firstRank(year), total <= cardinality else {
                throw .corrupt(path: path, detail: "year counts of a prefix set do not fit its years")
            }
            addYear(year, table, count: count)
            let first = year * slots
            for slot in first..<(first + min(count, perYear)) { ids.append(Int(firstIDs[slot])) }
        }
        guard total == cardinality else {
            throw .corrupt(path: path, detail: "year counts of a prefix set do not fit its years")
        }
    }

    /// Matches given as the intersection of two bitmaps of the file with its counts per year (`BMPP`): only the
    /// words up to each year's listed matches are read. A count larger than the year, or than the year's set bits
    /// when they are listed, is corrupt (`addYear(_:_:count:firstBits:from:to:)` never reads past the year).
    mutating func addIntersection(_ a: U64View, _ b: U64View, counts: PackedView, _ table: YearTable)
        throws(CacheError)
    {
        guard a.count == b.count, a.count == CacheFormat.bitmapWordCount(movieCount: ranks.count),
              counts.count == table.count else {
            throw .corrupt(path: path, detail: "a bitmap set has the wrong size")
        }
        for year in 0..<table.count {
            let count = Int(counts[year])
            guard count > 0 else { continue }
            let first = table.firstRank(year)
            guard count <= table.endRank(year) - first else {
                throw .corrupt(path: path, detail: "year counts of a prefix set do not fit its years")
            }
            try addYear(year, table, count: count, firstBits: { a[$0] & b[$0] }, from: first, to: table.endRank(year))
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
            if count > 0 {
                try addYear(year, table, count: count, firstBits: { words[$0] }, from: table.firstRank(year),
                            to: table.endRank(year))
            }
        }
    }

    /// Matches given as the ranks of a counted list (its counts per year `listCounts`, `YCNT`) that are in a bitmap
    /// of the file, with the counts per year of the two met (`LBPC`): a year's matches are among the list's next
    /// `listCounts[year]` ranks, which are tested only until the year's first `perYear` are found, not all of
    /// them (a bit test each, a cache miss each in a bitmap of a large catalog). The counts are checked as they
    /// are used: the list's add up to its length, a pair's count fits the list's, each rank tested lies in its
    /// year, and a year whose ranks run out before its first `perYear` matches is corrupt.
    mutating func addFiltered<Candidates: RankCursor>(_ candidates: Candidates, count candidateCount: Int,
                                                     listCounts: PackedView, by bitmap: U64View, counts: PackedView,
                                                     _ table: YearTable) throws(CacheError) {
        var candidates = candidates
        guard listCounts.count == table.count, counts.count == table.count,
              bitmap.count == CacheFormat.bitmapWordCount(movieCount: ranks.count) else {
            throw .corrupt(path: path, detail: Self.countsDoNotFit)
        }
        var position = 0
        for year in 0..<table.count {
            let listed = Int(listCounts[year]), count = Int(counts[year])
            let end = position + listed
            guard count <= listed, end <= candidateCount else { throw .corrupt(path: path, detail: Self.countsDoNotFit) }
            if count > 0 {
                addYear(year, table, count: count)
                let first = table.firstRank(year), yearEnd = table.endRank(year)
                var wanted = min(perYear, count), next = position
                candidates.seek(to: position)
                while wanted > 0 {
                    guard next < end else { throw .corrupt(path: path, detail: Self.countsDoNotFit) }
                    let rank = Int(candidates.rank)
                    candidates.next()
                    guard rank >= first, rank < yearEnd else { throw Self.outOfOrder(path) }
                    if bitmap[rank >> 6] >> UInt64(rank & 63) & 1 == 1 {
                        list(rank: rank)
                        wanted -= 1
                    }
                    next += 1
                }
            }
            position = end
        }
        guard position == candidateCount else { throw .corrupt(path: path, detail: Self.countsDoNotFit) }
    }

    /// Adds a year of `count` matches and lists the first `perYear` set bits of ranks `first..<end` (the year's).
    /// Fewer set bits there than the stored count calls for is a damaged file: it throws rather than list the next
    /// year's movies under this one.
    private mutating func addYear(_ year: Int, _ table: YearTable, count: Int, firstBits word: (Int) -> UInt64,
                                  from first: Int, to end: Int) throws(CacheError) {
        addYear(year, table, count: count)
        var wanted = min(perYear, count)
        var index = first >> 6
        var bits = word(index) & (UInt64.max << UInt64(first & 63))
        while wanted > 0 {
            while bits == 0 {
                index += 1
                guard index << 6 < end else { throw .corrupt(path: path, detail: Self.countsDoNotFit) }
                bits = word(index)
            }
            let rank = index << 6 | bits.trailingZeroBitCount
            guard rank < end else { throw .corrupt(path: path, detail: Self.countsDoNotFit) }
            list(rank: rank)
            bits &= bits - 1
            wanted -= 1
        }
    }

    /// Stored counts per year that the year's ranks cannot hold.
    private static let countsDoNotFit = "year counts of a prefix set do not fit its years"

    /// Typo matches given as keys (`TypoMatch`) of ascending ranks, each with its typo count: inside each year, the
    /// listed movies are the first `perYear` by typo count, then rank (SPEC.md, "Typos": fewer typos
    /// first, then the order of an exact answer).
    ///
    /// One pass over the matches: a match past the current year's end closes that year, and its own is galloped to
    /// (a typo answer's few matches lie far apart in a century of years, where stepping year by year cost more
    /// than the rest of the answer); a year's listed movies are kept in order as they come in one buffer on the
    /// stack, not an array emptied per year, and no year's end is searched for among the matches.
    mutating func addTypoMatches(_ matches: [UInt64], _ table: YearTable) throws(CacheError) {
        typos.reserveCapacity(ids.capacity)  // a count per listed id: one allocation, not one per doubling
        if perYear > Self.insertionLimit {
            try addTypoMatchesSorting(matches, table)
            return
        }
        let wanted = perYear
        try withUnsafeTemporaryAllocation(of: UInt64.self, capacity: max(wanted, 1)) { kept throws(CacheError) in
            var year = 0, yearEnd = 0, yearStart = 0, count = 0
            for position in matches.indices {
                let rank = TypoMatch.rank(of: matches[position])
                if rank >= yearEnd {
                    if position > 0 {
                        addYear(year, table, count: position - yearStart)
                        for slot in 0..<count { listTypoMatch(kept[slot], matches) }
                    }
                    guard rank < ranks.count else { throw .corrupt(path: path, detail: "rank out of range") }
                    year = Self.year(holding: rank, from: year, table)
                    yearEnd = table.endRank(year)
                    yearStart = position
                    count = 0
                }
                // Typo count above the position: the keys' order is by count, then rank (positions ascend with
                // rank). Keep the smallest `perYear` in order as they come: most go at the end, or nowhere.
                let key = UInt64(TypoMatch.typos(of: matches[position])) << 32 | UInt64(position)
                if count == wanted {
                    if wanted == 0 || key >= kept[wanted - 1] { continue }
                    count -= 1
                }
                // Moved up one by one from the end (most keys stay there).
                var slot = count
                while slot > 0, kept[slot - 1] > key {
                    kept[slot] = kept[slot - 1]
                    slot -= 1
                }
                kept[slot] = key
                count += 1
            }
            if !matches.isEmpty {
                addYear(year, table, count: matches.count - yearStart)
                for slot in 0..<count { listTypoMatch(kept[slot], matches) }
            }
        }
    }

    /// `addTypoMatches(_:_:)` for a `perYear` above `insertionLimit`: each year's keys sorted, not kept in
    /// order as they come (inserting each would be quadratic in a large year).
    private mutating func addTypoMatchesSorting(_ matches: [UInt64], _ table: YearTable) throws(CacheError) {
        var position = 0, year = 0
        var order: [UInt64] = []
        while position < matches.count {
            let rank = TypoMatch.rank(of: matches[position])
            guard rank < ranks.count else { throw .corrupt(path: path, detail: "rank out of range") }
            year = Self.year(holding: rank, from: year, table)
            var next = position + 1
            while next < matches.count, TypoMatch.rank(of: matches[next]) < table.endRank(year) { next += 1 }
            addYear(year, table, count: next - position)
            order.removeAll(keepingCapacity: true)
            for match in position..<next {
                order.append(UInt64(TypoMatch.typos(of: matches[match])) << 32 | UInt64(match))
            }
            order.sort()
            for slot in 0..<min(perYear, next - position) { listTypoMatch(order[slot], matches) }
            position = next
        }
    }

    /// Lists the match of `key` (typo count << 32 | position in `matches`) with its typo count.
    @inline(__always)
    private mutating func listTypoMatch(_ key: UInt64, _ matches: [UInt64]) {
        list(rank: TypoMatch.rank(of: matches[Int(key & 0xFFFF_FFFF)]))
        typos.append(UInt16(key >> 32))
    }

    /// The year, `year` or a later one, whose ranks hold `rank` (below the movie count, and not in a year before
    /// `year`): a gallop through the year table, then a binary search, so a match many years on costs a few steps.
    /// The same year as stepping one year at a time: the end ranks ascend (`YearTable.validate`), and the last
    /// year's is the movie count.
    @inline(__always)
    private static func year(holding rank: Int, from year: Int, _ table: YearTable) -> Int {
        if table.endRank(year) > rank { return year }
        var low = year, step = 1  // endRank(low) ≤ rank
        while low + step < table.count, table.endRank(low + step) <= rank {
            low += step
            step *= 2
        }
        var high = min(low + step, table.count - 1)  // endRank(high) > rank
        low += 1
        while low < high {
            let middle = (low + high) / 2
            if table.endRank(middle) <= rank { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Up to how many listed movies per year `addTypoMatches(bitmap:_:typos:)` keeps them in order as it goes.
    static let insertionLimit = 64

    /// Typo matches given as a bitmap over ranks, with a function that gives a match's typo count: each year's
    /// count by popcount, its listed movies the first `perYear` by typo count, then rank. Only the year's matches
    /// are visited; for a small `perYear` at most that many are kept at a time, so a year of many matches costs
    /// no sort.
    mutating func addTypoMatches(bitmap: [UInt64], _ table: YearTable, typos: (Int) -> UInt16) throws(CacheError) {
        var kept: [UInt64] = []
        try bitmap.withUnsafeBufferPointer { words throws(CacheError) in
            guard words.count == CacheFormat.bitmapWordCount(movieCount: ranks.count) else {
                throw .corrupt(path: path, detail: "a bitmap set has the wrong size")
            }
            for year in 0..<table.count {
                let first = table.firstRank(year), end = table.endRank(year)
                let count = Self.popcount(words, first..<end)
                if count == 0 { continue }
                addYear(year, table, count: count)
                // typos << 32 | rank: the order of a typo answer. Keep the smallest `perYear`, in order.
                kept.removeAll(keepingCapacity: true)
                let wanted = min(perYear, count)
                if wanted == 0 { continue }
                var index = first >> 6
                var bits = words[index] & (UInt64.max << UInt64(first & 63))
                while true {
                    while bits == 0 {
                        index += 1
                        if index == words.count { break }
                        bits = words[index]
                    }
                    if bits == 0 { break }
                    let rank = index << 6 | bits.trailingZeroBitCount
                    if rank >= end { break }
                    bits &= bits - 1
                    let key = UInt64(typos(rank)) << 32 | UInt64(rank)
                    if wanted > Self.insertionLimit {
                        kept.append(key)  // sorted below: inserting each would be quadratic in a large year
                        continue
                    }
                    if kept.count == wanted {
                        if key >= kept[wanted - 1] { continue }
                        kept.removeLast()
                    }
                    // Ranks come in ascending order, so most keys go at the end: search back from there.
                    var slot = kept.count
                    while slot > 0, kept[slot - 1] > key { slot -= 1 }
                    kept.insert(key, at: slot)
                }
                if wanted > Self.insertionLimit { kept.sort() }
                for key in kept.prefix(wanted) {
                    list(rank: Int(key & 0xFFFF_FFFF))
                    self.typos.append(UInt16(key >> 32))
                }
            }
        }
    }

    /// The answer collected so far, for `query`, found in `mode`.
    func result(query: String, mode: SearchMode = .exact) -> SearchResult {
        SearchResult(query: query, total: total, yearList: YearMatchList(entries: years, ids: ids, typos: typos),
                     mode: mode)
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
    ///
    /// The inner words are counted with a wrapping add (a count of at most 64 a word cannot overflow an `Int`), so
    /// that the loop is loads and counts only, which the compiler vectorizes (`U64View.intersectionCount`): with a
    /// checked add it stayed a scalar count of a dozen instructions a word and an overflow branch, which was the
    /// most of a filtered search's bitmap answer (the filter's years counted word by word, where an unfiltered one
    /// reads stored counts).
    static func popcount(_ words: UnsafeBufferPointer<UInt64>, _ range: Range<Int>) -> Int {
        if range.isEmpty { return 0 }
        let firstWord = range.lowerBound >> 6, lastWord = (range.upperBound - 1) >> 6
        precondition(range.lowerBound >= 0 && lastWord < words.count, "a bit range outside the bitmap")
        let head: UInt64 = ~0 << UInt64(range.lowerBound & 63)
        let tail: UInt64 = ~0 >> UInt64(63 - ((range.upperBound - 1) & 63))
        if firstWord == lastWord { return (words[firstWord] & head & tail).nonzeroBitCount }
        var count = (words[firstWord] & head).nonzeroBitCount &+ (words[lastWord] & tail).nonzeroBitCount
        let base = words.baseAddress! + (firstWord &+ 1)  // not empty: lastWord < words.count
        for word in 0..<(lastWord &- firstWord &- 1) { count &+= base[word].nonzeroBitCount }
        return count
    }
}
