@_spi(Engine) import MovieSearchIndex
@_spi(Engine) import MovieSearchText
import Synchronization

/// The ranks that pass a search's filters (`SearchFilters`), worked out once per search from the stored sections
/// (`CacheFormat`, "Filter sections"): a year range is a range of year entries, hence of ranks; a rating cut keeps a
/// prefix of each year's ranks (ratings descend within a year), found by a binary search; genres are stored rank
/// lists, the smallest driving; cast and critics' cuts are tested per candidate against its record.
struct RankFilter {
    /// How the passing ranks are held.
    enum Passing {
        /// Nothing passes (a name no movie has, or an empty range of years).
        case nothing
        /// Each year entry's passing ranks are one range (year and rating filters only), in year order.
        case intervals([(entry: Int, ranks: Range<Int>)])
        /// One genre's stored list, positions `positions` of it: those in a range of ranks (one genre and a year
        /// range, nothing else).
        case list(EliasFanoList, positions: Range<Int>)
        /// Worked out, ascending.
        case ranks([UInt32])
    }

    let passing: Passing
    /// The ranks that hold every passing rank: the year range's.
    let bounds: Range<Int>
    /// Whether every rank in `bounds` that the lists keep passes: no rating, cast or critics' cut.
    let boundsExact: Bool

    /// The filter of `filters` over the cache of `index`, whose year table is `years`.
    init(_ filters: SearchFilters, index: MovieIndex, years: YearTable) throws(CacheError) {
        let file = index.file, records = index.records
        let movieCount = file.movieCount
        // Year entries descend by year: those from the first at or below the highest year to the first below the
        // lowest.
        var firstEntry = 0, endEntry = years.count
        if let highest = filters.highestYear {
            while firstEntry < years.count, years.year(firstEntry) > highest { firstEntry += 1 }
        }
        if let lowest = filters.lowestYear {
            endEntry = firstEntry
            while endEntry < years.count, years.year(endEntry) >= lowest { endEntry += 1 }
        }
        endEntry = max(endEntry, firstEntry)
        let low = firstEntry < years.count ? years.firstRank(firstEntry) : movieCount
        let high = endEntry < years.count ? years.firstRank(endEntry) : movieCount
        bounds = low..<high
        let ranks = try file.packed(index.sections.ranks, 0..<movieCount)
        let rankBases = try file.packed(index.sections.rankBases, 0..<years.count)
        func slot(rank: Int, entry: Int) throws(CacheError) -> Int {
            let id = Int(ranks[rank]) + Int(rankBases[entry])
            guard let slot = try records.slot(of: id) else {
                throw .corrupt(path: file.path, detail: "a rank names a movie the cache does not hold")
            }
            return slot
        }
        // Each year's passing prefix under a rating cut.
        var intervals: [(entry: Int, ranks: Range<Int>)] = []
        let ratingCut = try filters.minimumRating.map { minimum throws(CacheError) in
            try records.ratingCut(atLeast: minimum)
        }
        for entry in firstEntry..<endEntry {
            let start = years.firstRank(entry)
            var end = years.endRank(entry)
            if let cut = ratingCut {
                var lowRank = start, highRank = end
                while lowRank < highRank {
                    let middle = (lowRank + highRank) / 2
                    if try records.ratingNumber(slot: slot(rank: middle, entry: entry)) < cut {
                        lowRank = middle + 1
                    } else {
                        highRank = middle
                    }
                }
                end = lowRank
            }
            if end > start { intervals.append((entry, start..<end)) }
        }
        boundsExact = ratingCut == nil && filters.cast.isEmpty && filters.minimumCriticRating == nil
        // Genres: each a stored list, the shortest first.
        var lists: [EliasFanoList] = []
        if !filters.genres.isEmpty {
            let table = try GenreTable(file: file, sections: index.sections)
            for name in filters.genres {
                guard let genre = try table.genre(folded: NameFolding.fold(name)) else {
                    passing = .nothing
                    return
                }
                lists.append(try table.ranks(of: genre))
            }
            lists.sort { $0.count < $1.count }
        }
        // Cast: the numbers of the names each filter folds to (a name can be spelled several ways).
        var castNumbers: [Set<Int>] = []
        if !filters.cast.isEmpty {
            let wanted = filters.cast.map { Array(NameFolding.fold($0).utf8) }
            castNumbers = Array(repeating: [], count: wanted.count)
            try records.forEachName { number, bytes throws(CacheError) in
                let folded = Array(NameFolding.fold(String(decoding: bytes, as: UTF8.self)).utf8)
                for (index, name) in wanted.enumerated() where name == folded { castNumbers[index].insert(number) }
            }
            if castNumbers.contains(where: \.isEmpty) {
                passing = .nothing
                return
            }
        }
        let criticCut = try filters.minimumCriticRating.map { minimum throws(CacheError) in
            try records.criticCut(atLeast: minimum)
        }
        if criticCut == 0 || intervals.isEmpty {
            passing = .nothing
            return
        }
        let predicates = !castNumbers.isEmpty || criticCut != nil
        func passes(rank: Int, entry: Int) throws(CacheError) -> Bool {
            let slot = try slot(rank: rank, entry: entry)
            if let criticCut {
                guard let number = try records.criticNumber(slot: slot), number < criticCut else { return false }
            }
            if !castNumbers.isEmpty {
                let cast = try records.castNumbers(slot: slot)
                for wanted in castNumbers where !cast.contains(where: { wanted.contains($0) }) { return false }
            }
            return true
        }
        if lists.count == 1, boundsExact {
            // The positions of the year range's ranks: where a cursor stops at its first rank, then past its last.
            var cursor = EliasFanoList.Cursor(lists[0])
            cursor.advance(to: UInt32(low))
            let start = cursor.index
            cursor.advance(to: UInt32(high))
            guard !cursor.isDamaged, start <= cursor.index else {
                throw .corrupt(path: file.path, detail: "genre ranks out of order")
            }
            passing = .list(lists[0], positions: start..<cursor.index)
            return
        }
        if lists.isEmpty, !predicates {
            passing = .intervals(intervals)
            return
        }
        var kept: [UInt32] = []
        if let driver = lists.first {
            // The shortest list read forward once: each interval's ranks, the ranks between intervals skipped.
            var cursor = EliasFanoList.Cursor(driver)
            for interval in intervals {
                cursor.advance(to: UInt32(interval.ranks.lowerBound))
                while !cursor.isAtEnd, Int(cursor.rank) < interval.ranks.upperBound {
                    kept.append(cursor.rank)
                    cursor.next()
                }
            }
            guard !cursor.isDamaged else { throw .corrupt(path: file.path, detail: "genre ranks out of order") }
            for other in lists.dropFirst() where !kept.isEmpty {
                kept = try QueryExecutor.filter(kept, by: RankSet(cardinality: other.count, storage: .coded(other)),
                                                movieCount: movieCount, path: file.path)
            }
            if predicates {
                var filtered: [UInt32] = [], entry = 0
                for rank in kept {
                    let rank = Int(rank)
                    guard rank < movieCount else { throw .corrupt(path: file.path, detail: "rank out of range") }
                    while years.endRank(entry) <= rank { entry += 1 }
                    if try passes(rank: rank, entry: entry) { filtered.append(UInt32(rank)) }
                }
                kept = filtered
            }
        } else {
            for interval in intervals {
                for rank in interval.ranks where try passes(rank: rank, entry: interval.entry) {
                    kept.append(UInt32(rank))
                }
            }
        }
        passing = kept.isEmpty ? .nothing : .ranks(kept)
    }

    /// How many ranks pass.
    var count: Int {
        switch passing {
        case .nothing: 0
        case .intervals(let intervals): intervals.reduce(0) { $0 + $1.ranks.count }
        case .list(_, let positions): positions.count
        case .ranks(let ranks): ranks.count
        }
    }

    /// Calls `body` with the first `limit` passing ranks of each year entry of `years`, ascending, and the entry each
    /// is in: the ranks of a year follow the users' top list, so these hold the first `limit` passing movies of it.
    /// The rest of a year's passing ranks are skipped by a binary search, not visited; with `limit` `.max`, every
    /// passing rank comes with its entry. A rank out of range is corrupt.
    func forFirstRanks(
        perEntry limit: Int, years: YearTable, movieCount: Int, path: String,
        _ body: (_ rank: Int, _ entry: Int) throws(CacheError) -> Void
    ) throws(CacheError) {
        func firstPerEntry(_ count: Int, _ rank: (Int) -> Int) throws(CacheError) {
            var position = 0, entry = 0
            while position < count {
                let first = rank(position)
                guard first < movieCount else { throw .corrupt(path: path, detail: "rank out of range") }
                while entry < years.count, years.endRank(entry) <= first { entry += 1 }
                guard entry < years.count else { throw .corrupt(path: path, detail: "rank out of range") }
                let end = years.endRank(entry)
                var taken = 0
                while position < count, rank(position) < end {
                    guard taken < limit else {
                        // The first position at or past the entry's end (at least one further on: `position`'s
                        // rank is below it), found whatever the order of the ranks, so that the loop ends.
                        var low = position, high = count
                        while low < high {
                            let middle = (low + high) / 2
                            if rank(middle) < end { low = middle + 1 } else { high = middle }
                        }
                        position = low
                        break
                    }
                    try body(rank(position), entry)
                    taken += 1
                    position += 1
                }
            }
        }
        switch passing {
        case .nothing: break
        case .intervals(let intervals):
            for interval in intervals {
                guard interval.ranks.upperBound <= movieCount else {
                    throw .corrupt(path: path, detail: "rank out of range")
                }
                for rank in interval.ranks.prefix(limit) { try body(rank, interval.entry) }
            }
        case .list(let list, let positions):
            // Read forward once: each entry's first `limit` ranks, then the rest of the entry skipped.
            var cursor = EliasFanoList.Cursor(list)
            cursor.seek(to: positions.lowerBound)
            var entry = 0
            while cursor.index < positions.upperBound {
                let first = Int(cursor.rank)
                guard first < movieCount else { throw .corrupt(path: path, detail: "rank out of range") }
                while entry < years.count, years.endRank(entry) <= first { entry += 1 }
                guard entry < years.count else { throw .corrupt(path: path, detail: "rank out of range") }
                // The first rank is below the entry's end, so each pass takes one or skips to the end: it ends.
                let end = years.endRank(entry)
                var taken = 0
                while taken < limit, cursor.index < positions.upperBound, Int(cursor.rank) < end {
                    try body(Int(cursor.rank), entry)
                    taken += 1
                    cursor.next()
                }
                if taken == limit { cursor.advance(to: UInt32(end)) }
            }
            guard !cursor.isDamaged else { throw .corrupt(path: path, detail: "rank out of range") }
        case .ranks(let ranks): try firstPerEntry(ranks.count) { Int(ranks[$0]) }
        }
    }

    /// The passing ranks as a bitmap over `movieCount` ranks (for the typo pass); a rank out of range is corrupt.
    func bitmap(movieCount: Int, path: String) throws(CacheError) -> [UInt64] {
        var words = [UInt64](repeating: 0, count: CacheFormat.bitmapWordCount(movieCount: movieCount))
        var outOfRange = false
        words.withUnsafeMutableBufferPointer { words in
            func set(_ rank: Int) {
                if rank < movieCount { words[rank >> 6] |= 1 << UInt64(rank & 63) } else { outOfRange = true }
            }
            switch passing {
            case .nothing: break
            case .intervals(let intervals): for interval in intervals { for rank in interval.ranks { set(rank) } }
            case .list(let list, let positions): list.forEachRank(in: positions) { set(Int($0)) }
            case .ranks(let ranks): for rank in ranks { set(Int(rank)) }
            }
        }
        if outOfRange { throw .corrupt(path: path, detail: "rank out of range") }
        return words
    }
}

/// A search's filters worked out (`RankFilter`) with the bitmap of their passing ranks for the typo pass, kept by the
/// index for the filters used last (`MovieIndex.filterCache`): someone typing a query under the same filters
/// works them out once, not at every key.
///
/// Immutable once made. Its views point into the index's mapping, which the index keeps for as long as it keeps
/// this object, so sharing it between threads is safe: hence `@unchecked Sendable`.
final class WorkedFilter: @unchecked Sendable {
    let filter: RankFilter
    /// The passing ranks as bits, for the typo pass: made on first use.
    private let bits: Mutex<[UInt64]?> = Mutex(nil)
    private let movieCount: Int
    private let path: String

    init(_ filter: RankFilter, movieCount: Int, path: String) {
        self.filter = filter
        self.movieCount = movieCount
        self.path = path
    }

    /// The passing ranks as a bitmap (`RankFilter.bitmap(movieCount:path:)`), made once.
    func bitmap() throws(CacheError) -> [UInt64] {
        if let made = bits.withLock({ $0 }) { return made }
        let made = try filter.bitmap(movieCount: movieCount, path: path)
        bits.withLock { $0 = made }
        return made
    }
}
