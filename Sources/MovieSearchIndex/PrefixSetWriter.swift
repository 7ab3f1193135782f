/// Lays out the prefix sets of a cache (`PRFO`, `PRFE`, `LSTO`, `LSTD`, `BMPN`, `BMPC`, `BMPS`, `BMPI`, `BMPP`;
/// `CacheFormat`, "Sections"): the union of the postings of every prefix range of two terms or more with more than
/// `CacheFormat.mergeLimit` postings, and a bitmap for every single term whose posting list is longer than
/// `CacheFormat.bitmapMinimum(movieCount:)`; with the counts and first ids per year of bitmaps and long lists, the
/// counts per year of every pair of bitmaps, and of the longest lists met with every bitmap (`YCRG`, `YCNT`,
/// `YCID`, `LBPR`, `LBPC`). `PrefixSetReader` reads them.
///
///     var writer = PrefixSetWriter(movieCount: n, yearFirstRanks: firstRanks, idOfRank: ranks)
///     try writer.add(terms: sortedTerms, postings: flatPostings, starts: postingStarts)
///     parts.append(contentsOf: try writer.parts())
///
/// A set is stored as a list of ranks or as a bitmap of ⌈N / 64⌉ words with its count per year: exactly when it has
/// more than `CacheFormat.bitmapMinimum(movieCount:)` ranks. Used by `CacheSections` only; it finds the sets of
/// a large catalog on two cores (`add(terms:postings:starts:splitAbove:)`).
struct PrefixSetWriter {
    private let movieCount: Int
    private let bitmapWords: Int
    /// Sets of more ranks than this are bitmaps (`CacheFormat.bitmapMinimum(movieCount:)`).
    private let bitmapMinimum: Int
    /// The year (its position in `YEAR`) of each rank, for the per-year counts of a bitmap.
    private let yearOfRank: [Int32]
    /// The first rank of each year, and the movie id at each rank (`RANK`): for each year's first ids of a set.
    private let yearFirstRanks: [Int]
    private let idOfRank: [UInt32]

    /// `PRFO`: for each term, where its entries start in `entries`.
    private var offsets: [UInt32] = []
    /// `PRFE` before numbering: each set's range end, kind and number among the sets of its kind.
    private var entries: [(end: UInt32, bitmap: Bool, number: Int)] = []
    private var listOffsets: [UInt32] = [0], listData: [UInt32] = []
    private var bitmapCardinalities: [UInt32] = [], bitmapYearCounts: [UInt32] = []
    /// `BMPS`: each bitmap set's words, an array of its own (`bitmapWords` words), laid end to end only by `parts()`:
    /// appended to one growing buffer, the 10M IMDb pair's 278 MB of them were copied and faulted in again at
    /// each doubling, and once more when the second writer's were appended to the first's.
    private var bitmaps: [[UInt64]] = []
    /// `BMPI`: the first ids per year of each bitmap set, `CacheFormat.firstIDsPerYear` slots per year.
    private var bitmapFirstIDs: [UInt32] = []
    private var setCount = 0
    /// `YCRG` and `YCNT` before sorting: the term ranges whose long lists have their counts per year, and the counts,
    /// `yearCount` per range, in the order the ranges were met.
    private var countedRanges: [(low: UInt32, end: UInt32)] = []
    private var rangeYearCounts: [UInt32] = []
    /// `YCID` before sorting: the first ids per year of each counted range, as `bitmapFirstIDs`.
    private var rangeFirstIDs: [UInt32] = []
    /// Where the ranks of each counted range are, in the order of `countedRanges`: `listData` or `termPostings`
    /// entries `start ..< end`, for `LBPC`.
    private var countedSources: [(start: Int, end: Int, inListData: Bool)] = []
    /// The postings `add(terms:postings:starts:)` was given (shared, not copied).
    private var termPostings: [UInt32] = []

    // Scratch space, reused from one set to the next.
    private var perYear: [UInt32]
    /// For each rank, the number (truncated) of the last set it was added to: drops repeats within a set.
    private var seen: [UInt32]
    private var members: [UInt32] = []

    /// The most entries `BMPP` may hold (`CacheFormat.maximumPairEntries`), and `LBPC`
    /// (`CacheFormat.maximumListPairEntries`).
    private let maximumPairEntries: Int
    private let maximumListPairEntries: Int
    /// Ranks whose bitmap holders the pair counts lay out at a time (`blockRanks`; tests pass less).
    private let pairBlockRanks: Int

    /// A writer for a catalog of `movieCount` movies whose years start at ranks `yearFirstRanks` (newest first),
    /// with the movie id `idOfRank[r]` at rank r.
    init(movieCount: Int, yearFirstRanks: [Int], idOfRank: [UInt32],
         maximumPairEntries: Int = CacheFormat.maximumPairEntries,
         maximumListPairEntries: Int = CacheFormat.maximumListPairEntries,
         pairBlockRanks: Int = PrefixSetWriter.blockRanks) {
        precondition(pairBlockRanks > 0, "a block holds ranks")
        self.maximumPairEntries = maximumPairEntries
        self.maximumListPairEntries = maximumListPairEntries
        self.pairBlockRanks = pairBlockRanks
        precondition(idOfRank.count == movieCount, "one id per rank")
        self.movieCount = movieCount
        self.yearFirstRanks = yearFirstRanks
        self.idOfRank = idOfRank
        bitmapWords = CacheFormat.bitmapWordCount(movieCount: movieCount)
        bitmapMinimum = CacheFormat.bitmapMinimum(movieCount: movieCount)
        var yearOfRank = [Int32](repeating: 0, count: movieCount)
        for (year, first) in yearFirstRanks.enumerated() {
            let end = year + 1 < yearFirstRanks.count ? yearFirstRanks[year + 1] : movieCount
            for rank in first..<end { yearOfRank[rank] = Int32(year) }
        }
        self.yearOfRank = yearOfRank
        perYear = [UInt32](repeating: 0, count: yearFirstRanks.count)
        seen = [UInt32](repeating: UInt32.max, count: movieCount)
    }

    /// Postings past which `add` finds the sets on two cores: at 10 million titles finding them took 8 s of one
    /// core, which the other spent waiting; for a small catalog a second writer's scratch space (4 bytes a movie)
    /// costs more than the pass.
    static let splitMinimum = 1 << 20

    /// Adds the sets of the term dictionary `terms` (sorted by bytes), whose postings are
    /// `postings[starts[i] ..< starts[i + 1]]` for term `i`, to a writer that has none yet.
    ///
    /// With more than `splitAbove` postings, the terms are cut in two at about half of them, and a copy of this
    /// writer finds the sets whose ranges start in the second half on another core (a range may run past the cut:
    /// every reader of `terms` and `postings` looks at the whole). Its sets are then appended to this writer's,
    /// renumbered: the same sets, in the same order, as one pass over all the terms makes.
    mutating func add(terms: [[UInt8]], postings: [UInt32], starts: [Int],
                      splitAbove: Int = PrefixSetWriter.splitMinimum) throws(CacheError) {
        precondition(setCount == 0 && offsets.isEmpty, "add is called once")
        offsets.reserveCapacity(terms.count + 1)
        termPostings = postings
        if terms.count >= 2, starts[terms.count] > splitAbove {
            let cut = Self.cut(starts: starts, termCount: terms.count)
            let empty = self
            let later = IndexingJob { () throws(CacheError) in
                var writer = empty
                try writer.addSets(terms: terms, postings: postings, starts: starts, lows: cut..<terms.count)
                return writer
            }
            try addSets(terms: terms, postings: postings, starts: starts, lows: 0..<cut)
            try append(try later.value())
        } else {
            try addSets(terms: terms, postings: postings, starts: starts, lows: terms.indices)
        }
        offsets.append(try CacheSections.checked(entries.count, "prefix entries"))
    }

    /// Where `add` cuts `termCount` terms (two or more) whose postings start at `starts`: the first term whose
    /// postings start at half of them or past, so that both halves hold a term.
    static func cut(starts: [Int], termCount: Int) -> Int {
        let half = starts[termCount] / 2
        var low = 0, high = termCount
        while low < high {
            let middle = (low + high) / 2
            if starts[middle] < half { low = middle + 1 } else { high = middle }
        }
        return min(max(low, 1), termCount - 1)
    }

    /// The sets whose ranges start at the terms `lows`, and their `PRFO` entries (but the last, where the entries
    /// end).
    private mutating func addSets(terms: [[UInt8]], postings: [UInt32], starts: [Int], lows: Range<Int>)
        throws(CacheError)
    {
        for low in lows {
            offsets.append(try CacheSections.checked(entries.count, "prefix entries"))
            let term = terms[low]
            // A frequent term gets a bitmap too, so that it meets other bitmaps word by word.
            if starts[low + 1] - starts[low] > bitmapMinimum {
                members.removeAll(keepingCapacity: true)
                members.append(contentsOf: postings[starts[low]..<starts[low + 1]])
                try storeMembers(low: low, end: low + 1)
            } else if starts[low + 1] - starts[low] >= CacheFormat.yearCountMinimum {
                countYears(of: postings[starts[low]..<starts[low + 1]], low: low, end: low + 1)
                countedSources.append((starts[low], starts[low + 1], false))
            }
            // Prefixes that begin at `low` are those longer than what `low` shares with the term before it. Those
            // longer than what it shares with the term after it are prefixes of this term alone (terms are sorted),
            // which get no set; nor do prefixes past `CacheFormat.maximumPrefixSetLength`, so that the bytes
            // compared here stay linear in the title's length however long its words are.
            let shared = low == 0 ? 0 : zip(terms[low - 1], term).prefix { $0 == $1 }.count
            let sharedWithNext = low + 1 == terms.count ? 0 : zip(term, terms[low + 1]).prefix { $0 == $1 }.count
            let longest = min(term.count, sharedWithNext, CacheFormat.maximumPrefixSetLength)
            var lastEnd = -1
            for length in stride(from: longest, to: shared, by: -1) where Self.isScalarBoundary(term, length) {
                let end = Self.prefixEnd(terms, from: low, prefix: term[0..<length])
                // Longer prefixes have the same or smaller ranges: each distinct range is stored once.
                guard end - low >= 2, end != lastEnd, starts[end] - starts[low] > CacheFormat.mergeLimit else { continue }
                lastEnd = end
                // Union of the postings of terms low..<end, without repeats.
                members.removeAll(keepingCapacity: true)
                let stamp = UInt32(truncatingIfNeeded: setCount)
                for rank in postings[starts[low]..<starts[end]] where seen[Int(rank)] != stamp {
                    seen[Int(rank)] = stamp
                    members.append(rank)
                }
                try storeMembers(low: low, end: end)
            }
        }
    }

    /// Appends the sets `later` found after this writer's (for the terms that follow): its entries and numbers
    /// moved past this writer's sets, its list sets' offsets and counted ranges past this writer's list data.
    private mutating func append(_ later: PrefixSetWriter) throws(CacheError) {
        let entryBase = entries.count, dataBase = listData.count
        let listBase = listOffsets.count - 1, bitmapBase = bitmapCardinalities.count
        for offset in later.offsets {
            offsets.append(try CacheSections.checked(entryBase + Int(offset), "prefix entries"))
        }
        for entry in later.entries {
            entries.append((entry.end, entry.bitmap, entry.number + (entry.bitmap ? bitmapBase : listBase)))
        }
        for offset in later.listOffsets.dropFirst() {
            listOffsets.append(try CacheSections.checked(dataBase + Int(offset), "prefix set data"))
        }
        listData += later.listData
        bitmapCardinalities += later.bitmapCardinalities
        bitmapYearCounts += later.bitmapYearCounts
        bitmapFirstIDs += later.bitmapFirstIDs
        bitmaps += later.bitmaps
        setCount += later.setCount
        countedRanges += later.countedRanges
        rangeYearCounts += later.rangeYearCounts
        rangeFirstIDs += later.rangeFirstIDs
        for source in later.countedSources {
            countedSources.append(source.inListData ? (source.start + dataBase, source.end + dataBase, true) : source)
        }
    }

    /// Stores `members` (distinct ranks) as the set of the terms `low..<end`: a list or, when smaller, a bitmap.
    private mutating func storeMembers(low: Int, end: Int) throws(CacheError) {
        if members.count > bitmapMinimum {
            var bitmap = [UInt64](repeating: 0, count: bitmapWords)
            for year in perYear.indices { perYear[year] = 0 }
            for rank in members {
                bitmap[Int(rank) >> 6] |= 1 << UInt64(rank & 63)
                perYear[Int(yearOfRank[Int(rank)])] += 1
            }
            bitmapYearCounts.append(contentsOf: perYear)
            bitmapFirstIDs.append(contentsOf: firstIDs(of: bitmap))
            bitmaps.append(bitmap)
            entries.append((UInt32(end), true, bitmapCardinalities.count))
            bitmapCardinalities.append(UInt32(members.count))
        } else {
            members.sort()
            if members.count >= CacheFormat.yearCountMinimum {
                countYears(of: members[...], low: low, end: end)
                countedSources.append((listData.count, listData.count + members.count, true))
            }
            listData.append(contentsOf: members)
            entries.append((UInt32(end), false, listOffsets.count - 1))
            listOffsets.append(try CacheSections.checked(listData.count, "prefix set data"))
        }
        setCount += 1
    }

    /// Records the counts per year of `ranks`, the list of the terms `low..<end` (`YCRG`, `YCNT`).
    private mutating func countYears(of ranks: ArraySlice<UInt32>, low: Int, end: Int) {
        for year in perYear.indices { perYear[year] = 0 }
        let slots = CacheFormat.firstIDsPerYear
        var firstIDs = [UInt32](repeating: 0, count: perYear.count * slots)
        for rank in ranks {
            let year = Int(yearOfRank[Int(rank)])
            if perYear[year] < slots { firstIDs[year * slots + Int(perYear[year])] = idOfRank[Int(rank)] }
            perYear[year] += 1
        }
        countedRanges.append((UInt32(low), UInt32(end)))
        rangeYearCounts.append(contentsOf: perYear)
        rangeFirstIDs.append(contentsOf: firstIDs)
    }

    /// The lists of `LBPR`/`LBPC`: for the counted ranges in `order` (`YCRG`'s), the row of each in the counts plus
    /// 1 (0 when it has none), and the ranges given rows, in row order. The rows go to the lists of at least
    /// `CacheFormat.pairedListMinimum(movieCount:)` ranks, longest first, as many as fit in `maximumListPairEntries`
    /// counts; they are numbered in `order`. Both empty when no list is paired.
    private func pairedListRows(order: [Int]) -> (rows: [UInt32], ranges: [Int]) {
        let years = perYear.count, bitmapCount = bitmapCardinalities.count
        guard bitmapCount > 0, years > 0 else { return ([], []) }
        let minimum = CacheFormat.pairedListMinimum(movieCount: movieCount)
        let length = { (index: Int) in self.countedSources[index].end - self.countedSources[index].start }
        let longest = countedRanges.indices.filter { length($0) >= minimum }
            .sorted { (length($0), $1) > (length($1), $0) }
            .prefix(maximumListPairEntries / (bitmapCount * years))
        guard !longest.isEmpty else { return ([], []) }
        var isPaired = [Bool](repeating: false, count: countedRanges.count)
        for index in longest { isPaired[index] = true }
        var rows: [UInt32] = [], pairedRanges: [Int] = []
        rows.reserveCapacity(order.count)
        for index in order {
            if isPaired[index] {
                pairedRanges.append(index)
                rows.append(UInt32(pairedRanges.count))
            } else {
                rows.append(0)
            }
        }
        return (rows, pairedRanges)
    }

    /// `BMPP`'s counts, the matches per year of the intersection of every pair of the first Q bitmap sets
    /// (`CacheFormat.pairedBitmapCount`: all unless their pairs would be too many), pairs in the order of
    /// `CacheFormat.bitmapPairIndex`; and `LBPC`'s, the matches per year of each of `pairedRanges`' lists met with
    /// each bitmap set, a row per list, a year per entry.
    ///
    /// Both are counted from each rank's side: a rank is in a few bitmaps (a title is in those of its words' short
    /// prefixes; 9 on average in the 10M IMDb pair's 239), so a rank's pairs are a few dozen increments, where
    /// ANDing every pair of bitmaps read 28,441 pairs × 145,632 words (4 billion, most of indexing's last seconds),
    /// and a paired list's rank adds to the counts of the bitmaps that hold it, where meeting every list with every
    /// bitmap would test each rank B times. Which bitmaps hold a rank comes from the bitmaps turned on their side,
    /// `(B + 63) / 64` words a rank, `pairBlockRanks` ranks at a time (a table of all ranks was 298 MB at 10M). The
    /// years are counted in two halves at once, one on another core, each writing only its own years' entries.
    private func pairCounts(pairedRanges: [Int]) throws(CacheError) -> (bitmapPairs: [UInt32], listPairs: [UInt32]) {
        let years = perYear.count, bitmapCount = bitmapCardinalities.count
        let paired = CacheFormat.pairedBitmapCount(bitmapCount: bitmapCount, yearCount: years,
                                                   maximumEntries: maximumPairEntries)
        let pairs = paired * max(paired - 1, 0) / 2
        var bitmapPairs = [UInt32](repeating: 0, count: pairs * years)
        var listPairs = [UInt32](repeating: 0, count: pairedRanges.count * bitmapCount * years)
        guard years > 0, bitmapCount > 0, pairs > 0 || !pairedRanges.isEmpty else { return (bitmapPairs, listPairs) }
        // The later years start at the year boundary nearest half the ranks.
        let half = movieCount / 2
        var split = 1
        while split + 1 < years, yearFirstRanks[split] < half { split += 1 }
        if split > 1, half - yearFirstRanks[split - 1] < yearFirstRanks[split] - half { split -= 1 }
        try bitmapPairs.withUnsafeMutableBufferPointer { bitmapPairs throws(CacheError) in
            try listPairs.withUnsafeMutableBufferPointer { listPairs throws(CacheError) in
                let counts = PairCountTarget(bitmapPairs: bitmapPairs, listPairs: listPairs)
                let writer = self
                let later = years > 1 ? IndexingJob { [split] in
                    writer.countPairs(years: split..<years, paired: paired, pairedRanges: pairedRanges, into: counts)
                } : nil
                countPairs(years: 0..<(later == nil ? years : split), paired: paired, pairedRanges: pairedRanges,
                           into: counts)
                try later?.value()
            }
        }
        return (bitmapPairs, listPairs)
    }

    /// Ranks whose bitmap holders `countPairs` lays out at a time: 2 MB of them for up to 256 bitmap sets.
    static let blockRanks = 1 << 16

    /// The entries of `counts` (`pairCounts`) of the years `years`, counted from their ranks alone: the first
    /// `paired` bitmap sets' pairs, and the lists of `pairedRanges` met with every bitmap set.
    private func countPairs(years: Range<Int>, paired: Int, pairedRanges: [Int], into counts: PairCountTarget) {
        let yearCount = perYear.count, bitmapCount = bitmapCardinalities.count
        let columns = (bitmapCount + 63) / 64
        let first = yearFirstRanks[years.lowerBound]
        let end = years.upperBound < yearCount ? yearFirstRanks[years.upperBound] : movieCount
        let pairs = paired * max(paired - 1, 0) / 2
        // Pair (a, b), a < b, is tally `rowStart[a] + b` (`CacheFormat.bitmapPairIndex`).
        let rowStart = (0..<paired).map { CacheFormat.bitmapPairIndex($0, $0 + 1, bitmapCount: paired) - ($0 + 1) }
        // The scratch of the loops below, read and written through buffers: a tally is added to half a billion
        // times at 10 million movies, and an array's checks (its bounds, and that it is not shared) cost more than
        // the addition.
        var tally = [UInt32](repeating: 0, count: pairs)
        var held = [Int](repeating: 0, count: paired)
        var holders = [UInt64](repeating: 0, count: pairBlockRanks * columns)
        // Each paired list's ranks, and where its walk stands: at its first rank of these years.
        let lists = pairedRanges.map { index -> ArraySlice<UInt32> in
            let source = countedSources[index]
            return source.inListData ? listData[source.start..<source.end] : termPostings[source.start..<source.end]
        }
        var next = lists.map { ranks in
            var low = ranks.startIndex, high = ranks.endIndex
            while low < high {
                let middle = (low + high) / 2
                if Int(ranks[middle]) < first { low = middle + 1 } else { high = middle }
            }
            return low
        }
        var year = years.lowerBound
        // The counts of the year at hand, moved to their entries as it ends: the lists' by list and bitmap, where
        // their entries lie by list, bitmap and year, so that a year's additions stay in under a megabyte (818 KB
        // for the 10M IMDb pair's 856 lists and 239 bitmaps; added to in place, each was a cache miss in 130 MB).
        var listTally = [UInt32](repeating: 0, count: lists.count * bitmapCount)
        tally.withUnsafeMutableBufferPointer { tally in
            listTally.withUnsafeMutableBufferPointer { listTally in
                held.withUnsafeMutableBufferPointer { held in
                    holders.withUnsafeMutableBufferPointer { holders in
                        /// Moves this year's tallies to their entries, starts the next year's at 0.
                        func endYear() {
                            for pair in 0..<pairs {
                                counts.bitmapPairs[pair * yearCount + year] = tally[pair]
                                tally[pair] = 0
                            }
                            for entry in 0..<listTally.count {
                                counts.listPairs[entry * yearCount + year] = listTally[entry]
                                listTally[entry] = 0
                            }
                            year += 1
                        }
                        for blockStart in stride(from: first, to: end, by: pairBlockRanks) {
                            let blockEnd = min(blockStart + pairBlockRanks, end)
                            layOutHolders(of: blockStart..<blockEnd, columns: columns, into: holders)
                            // The block a year at a time.
                            var segmentStart = blockStart
                            while segmentStart < blockEnd {
                                let yearEnd = year + 1 < yearCount ? yearFirstRanks[year + 1] : movieCount
                                let segmentEnd = min(blockEnd, yearEnd)
                                tallyPairs(of: segmentStart..<segmentEnd, from: blockStart, columns: columns,
                                           paired: paired, rowStart: rowStart, held: held, holders: holders,
                                           into: tally)
                                tallyLists(lists, next: &next, below: segmentEnd, from: blockStart,
                                           columns: columns, holders: holders, into: listTally)
                                if segmentEnd == yearEnd { endYear() }
                                segmentStart = segmentEnd
                            }
                        }
                        while year < years.upperBound { endYear() }
                    }
                }
            }
        }
    }

    /// Adds to `tally` the pairs of the paired bitmaps (the first `paired`) that hold each rank of `ranks`, of the
    /// block from `blockStart` whose `holders` are laid out (`held`: room for `paired` bitmap numbers).
    private func tallyPairs(of ranks: Range<Int>, from blockStart: Int, columns: Int, paired: Int, rowStart: [Int],
                            held: UnsafeMutableBufferPointer<Int>, holders: UnsafeMutableBufferPointer<UInt64>,
                            into tally: UnsafeMutableBufferPointer<UInt32>) {
        guard paired > 1 else { return }
        for rank in ranks {
            var k = 0
            for column in 0..<columns where column << 6 < paired {
                var bits = holders[(rank - blockStart) * columns + column]
                while bits != 0 {
                    let bitmap = column << 6 | bits.trailingZeroBitCount
                    if bitmap >= paired { break }
                    held[k] = bitmap
                    k += 1
                    bits &= bits - 1
                }
            }
            var i = 0
            while i < k {
                let row = rowStart[held[i]]
                var j = i + 1
                while j < k {
                    tally[row + held[j]] += 1
                    j += 1
                }
                i += 1
            }
        }
    }

    /// Adds to `listTally` (a row of the bitmap sets' counts per list) each paired list's ranks below `end`, from
    /// `next[list]` on, to the counts of the bitmaps that hold them, of the block from `blockStart` whose `holders`
    /// are laid out; moves each `next[list]` past them.
    private func tallyLists(_ lists: [ArraySlice<UInt32>], next: inout [Int], below end: Int, from blockStart: Int,
                            columns: Int, holders: UnsafeMutableBufferPointer<UInt64>,
                            into listTally: UnsafeMutableBufferPointer<UInt32>) {
        let bitmapCount = bitmapCardinalities.count
        for (row, ranks) in lists.enumerated() {
            let rowBase = row * bitmapCount
            var position = next[row]
            while position < ranks.endIndex, Int(ranks[position]) < end {
                let rank = Int(ranks[position])
                for column in 0..<columns {
                    var bits = holders[(rank - blockStart) * columns + column]
                    while bits != 0 {
                        listTally[rowBase + (column << 6 | bits.trailingZeroBitCount)] += 1
                        bits &= bits - 1
                    }
                }
                position += 1
            }
            next[row] = position
        }
    }

    /// Lays out which bitmap sets hold each rank of `block` in `holders`: `columns` words a rank, bit b % 64 of
    /// word b / 64 set when bitmap b holds it. A bitmap at a time, over the words of the block, its bits outside
    /// the block cleared.
    private func layOutHolders(of block: Range<Int>, columns: Int, into holders: UnsafeMutableBufferPointer<UInt64>) {
        holders.update(repeating: 0)
        let firstWord = block.lowerBound >> 6, lastWord = (block.upperBound - 1) >> 6
        for number in bitmaps.indices {
            let column = number >> 6, bit: UInt64 = 1 << UInt64(number & 63)
            bitmaps[number].withUnsafeBufferPointer { bitmap in
                for word in firstWord...lastWord {
                    let low = max(block.lowerBound - word << 6, 0), high = min(block.upperBound - word << 6, 64)
                    let inBlock: UInt64 = (high == 64 ? ~0 : (1 << UInt64(high)) - 1) & ~((1 << UInt64(low)) - 1)
                    var bits = bitmap[word] & inBlock
                    while bits != 0 {
                        holders[(word << 6 | bits.trailingZeroBitCount - block.lowerBound) * columns + column] |= bit
                        bits &= bits - 1
                    }
                }
            }
        }
    }

    /// The ids of the first `CacheFormat.firstIDsPerYear` ranks of each year in `bitmap`, whose counts per year
    /// are `perYear` (0 in the slots of a year with fewer).
    private func firstIDs(of bitmap: [UInt64]) -> [UInt32] {
        let slots = CacheFormat.firstIDsPerYear
        var ids: [UInt32] = []
        ids.reserveCapacity(perYear.count * slots)
        for year in perYear.indices {
            let wanted = min(Int(perYear[year]), slots)
            var found = 0
            var word = yearFirstRanks[year] >> 6
            var bits = wanted > 0 ? bitmap[word] & (UInt64.max << UInt64(yearFirstRanks[year] & 63)) : 0
            while found < wanted {
                while bits == 0 {
                    word += 1
                    bits = bitmap[word]
                }
                ids.append(idOfRank[word << 6 | bits.trailingZeroBitCount])
                bits &= bits - 1
                found += 1
            }
            ids.append(contentsOf: repeatElement(0, count: slots - found))
        }
        return ids
    }

    /// The nine sections, with set numbers in `PRFE`: list sets first, then bitmap sets; the three of the counts
    /// and first ids per year of long lists when there are any, and the two of the longest ones' counts met with
    /// the bitmaps when some are paired. Called once, last: the writer lets go of its bitmap sets as it lays them out.
    mutating func parts() throws(CacheError) -> [CacheSections.Part] {
        // The list sets are coded on another core while the pairs are counted (on two).
        let codedLists = IndexingJob { [listData, listOffsets, movieCount] () throws(CacheError) in
            try EliasFanoList.encodeLists(listData, offsets: listOffsets, universe: movieCount, what: "list set bytes")
        }
        let listSetCount = listOffsets.count - 1
        var pairs: [UInt32] = []
        pairs.reserveCapacity(entries.count * 2)
        for entry in entries {
            pairs.append(entry.end)
            pairs.append(try CacheSections.checked(entry.bitmap ? listSetCount + entry.number : entry.number, "prefix sets"))
        }
        var counted: [CacheSections.Part] = []
        var listRows: (rows: [UInt32], ranges: [Int]) = ([], [])
        if !countedRanges.isEmpty {
            let years = perYear.count
            let order = countedRanges.indices.sorted {
                (countedRanges[$0].low, countedRanges[$0].end) < (countedRanges[$1].low, countedRanges[$1].end)
            }
            let slots = years * CacheFormat.firstIDsPerYear
            var keys: [UInt32] = [], counts: [UInt32] = [], ids: [UInt32] = []
            keys.reserveCapacity(order.count * 2)
            counts.reserveCapacity(order.count * years)
            ids.reserveCapacity(order.count * slots)
            for index in order {
                keys.append(countedRanges[index].low)
                keys.append(countedRanges[index].end)
                counts.append(contentsOf: rangeYearCounts[(index * years)..<((index + 1) * years)])
                ids.append(contentsOf: rangeFirstIDs[(index * slots)..<((index + 1) * slots)])
            }
            counted = [.packed(.rangeYearCountKeys, keys), .packed(.rangeYearCounts, counts),
                       .packed(.rangeFirstIDs, ids)]
            listRows = pairedListRows(order: order)
        }
        let pairCounts = try pairCounts(pairedRanges: listRows.ranges)
        if !pairCounts.listPairs.isEmpty {
            counted += [.packed(.listPairRows, listRows.rows)]
                + (try CacheSections.Part.rows(.listPairCounts, pairCounts.listPairs, rowLength: perYear.count))
        }
        // Each bitmap set let go once copied: the sets and their section are never both held whole.
        var bitmapBytes = ByteWriter()
        bitmapBytes.reserveCapacity(bitmaps.count * bitmapWords * 8)
        for index in bitmaps.indices {
            bitmapBytes.u64s(bitmaps[index])
            bitmaps[index] = []
        }
        let lists = try codedLists.value()
        return counted + [
            .packed(.prefixEntries, pairs),
            .bytes(.listSetData, lists.bytes),
            .packed(.bitmapCardinalities, bitmapCardinalities),
            .packed(.bitmapYearCounts, bitmapYearCounts),
            .packed(.bitmapFirstIDs, bitmapFirstIDs),
            .bytes(.bitmaps, bitmapBytes.bytes),
        ] + CacheSections.Part.blocked(.prefixOffsets, offsets)
          + CacheSections.Part.blocked(.listSetOffsets, listOffsets)
          + [.packed(.listSetPositions, lists.starts)]
          + (try CacheSections.Part.rows(.bitmapPairCounts, pairCounts.bitmapPairs, rowLength: max(perYear.count, 1)))
    }

    /// Whether a query token could end after `length` bytes of `term`: at its end or before a UTF-8 lead byte.
    private static func isScalarBoundary(_ term: [UInt8], _ length: Int) -> Bool {
        length == term.count || term[length] & 0xC0 != 0x80
    }

    /// The first term id at or after `low` that does not start with `prefix` (all of `low..<result` do).
    private static func prefixEnd(_ terms: [[UInt8]], from low: Int, prefix: ArraySlice<UInt8>) -> Int {
        var low = low + 1, high = terms.count
        while low < high {
            let middle = (low + high) / 2
            if terms[middle].starts(with: prefix) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

/// The count arrays of `PrefixSetWriter.pairCounts`, which two jobs fill at once: each writes only the entries of
/// its own years (a year is an entry's last index), never one the other writes, and both end before the arrays'
/// `withUnsafeMutableBufferPointer` calls return.
private struct PairCountTarget: @unchecked Sendable {
    let bitmapPairs: UnsafeMutableBufferPointer<UInt32>
    let listPairs: UnsafeMutableBufferPointer<UInt32>
}
