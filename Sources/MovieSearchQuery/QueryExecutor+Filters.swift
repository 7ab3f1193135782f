@_spi(Engine) import MovieSearchIndex

/// A search under filters (SEARCH-SPEC, "Filters and facets"; `RankFilter`): the filter's passing ranks are one
/// more set met with the query's, so counts and the movies listed per year come from the passing matches only,
/// never from cutting down an answer already made.
extension QueryExecutor {
    /// The exact answer to `query` among the ranks `filter` passes, with the ranks of all its matches (`nil` for a
    /// query without tokens: every passing rank matches). `lookedUp` as for `run(_:lookedUp:)`.
    func runFiltered(_ query: String, filter: RankFilter,
                     lookedUp: inout [Range<Int>]?) throws(CacheError) -> (result: SearchResult, matches: [UInt32]?) {
        let empty = SearchResult(query: query, total: 0, years: [])
        guard let ranges = try termRanges(of: query, lookedUp: &lookedUp) else { return (empty, []) }
        if case .nothing = filter.passing { return (empty, ranges.isEmpty ? nil : []) }
        let years = try YearTable(file: file, years: index.sections.years)
        var answer = AnswerBuilder(perYear: perYear, ranks: try file.packed(index.sections.ranks, 0..<file.movieCount),
                                   rankBases: try file.packed(index.sections.rankBases, 0..<years.count),
                                   path: file.path, yearCount: years.count)
        if ranges.isEmpty {
            switch filter.passing {
            case .nothing: break
            case .intervals(let intervals): answer.addIntervals(intervals, years)
            case .list(let list): try answer.addSorted(list, years)
            case .ranks(let ranks): try answer.addSorted(ranks, years)
            }
            return (answer.result(query: query), nil)
        }
        var sets: [RankSet] = []
        sets.reserveCapacity(ranges.count + 1)
        for range in ranges { sets.append(try index.prefixSets.rankSet(of: range)) }
        switch filter.passing {
        case .list(let list): sets.append(RankSet(cardinality: list.count, storage: .list(list)))
        case .ranks(let ranks): sets.append(RankSet(cardinality: ranks.count, storage: .merged(ranks)))
        case .nothing, .intervals: break
        }
        var matches = try Self.allMatches(sets, within: filter.bounds, movieCount: file.movieCount, path: file.path)
        if !filter.boundsExact, case .intervals(let intervals) = filter.passing {
            // A rating cut: each year keeps the matches in its passing prefix.
            var kept = 0, interval = 0
            for rank in matches {
                while interval < intervals.count, intervals[interval].ranks.upperBound <= Int(rank) { interval += 1 }
                if interval == intervals.count { break }
                if intervals[interval].ranks.contains(Int(rank)) {
                    matches[kept] = rank
                    kept += 1
                }
            }
            matches.removeLast(matches.count - kept)
        }
        try answer.addSorted(matches, years)
        return (answer.result(query: query), matches)
    }

    /// The ranks in `bounds` that every set of `sets` holds, ascending: the smallest list drives and the others
    /// filter it (`filter(_:by:movieCount:path:)`); when all are bitmaps, they are ANDed over the words of `bounds`.
    static func allMatches(_ sets: [RankSet], within bounds: Range<Int>, movieCount: Int,
                           path: String) throws(CacheError) -> [UInt32] {
        guard !bounds.isEmpty, !sets.isEmpty else { return [] }
        var sets = sets
        sets.sort { ($0.isBitmap ? 1 : 0, $0.cardinality) < ($1.isBitmap ? 1 : 0, $1.cardinality) }
        let rest = sets.dropFirst()
        func filtered<Ranks: RankSequence>(_ driver: Ranks) throws(CacheError) -> [UInt32] {
            let start = AnswerBuilder.firstPosition(in: driver, from: -1, notBelow: bounds.lowerBound)
            let end = AnswerBuilder.firstPosition(in: driver, from: start - 1, notBelow: bounds.upperBound)
            var matches: [UInt32] = []
            if let first = rest.first {
                matches = try filter(RankWindow(base: driver, range: start..<max(start, end)), by: first,
                                     movieCount: movieCount, path: path)
            } else {
                matches.reserveCapacity(max(0, end - start))
                for position in start..<max(start, end) { matches.append(driver[position]) }
            }
            for set in rest.dropFirst() where !matches.isEmpty {
                matches = try filter(matches, by: set, movieCount: movieCount, path: path)
            }
            return matches
        }
        switch sets[0].storage {
        case .list(let list): return try filtered(list)
        case .merged(let list): return try filtered(list)
        case .bitmap(let first):
            let wordCount = CacheFormat.bitmapWordCount(movieCount: movieCount)
            var others: [U64View] = []
            for set in rest {
                guard case .bitmap(let words) = set.storage, words.count == wordCount else {
                    throw .corrupt(path: path, detail: "a bitmap set has the wrong size")
                }
                others.append(words)
            }
            guard first.count == wordCount, bounds.upperBound <= movieCount else {
                throw .corrupt(path: path, detail: "a bitmap set has the wrong size")
            }
            var matches: [UInt32] = []
            let firstWord = bounds.lowerBound >> 6, endWord = (bounds.upperBound + 63) >> 6
            for word in firstWord..<endWord {
                var bits = first[word]
                for other in others { bits &= other[word] }
                if word == firstWord { bits &= ~0 << UInt64(bounds.lowerBound & 63) }
                if word == endWord - 1, bounds.upperBound & 63 != 0 { bits &= (1 << UInt64(bounds.upperBound & 63)) - 1 }
                while bits != 0 {
                    matches.append(UInt32(word << 6 | bits.trailingZeroBitCount))
                    bits &= bits &- 1
                }
            }
            return matches
        }
    }
}

/// Entries `range` of a rank sequence, as a sequence of their own (a list cut to a filter's ranks).
struct RankWindow<Base: RankSequence>: RankSequence {
    let base: Base
    let range: Range<Int>

    var count: Int { range.count }
    subscript(position: Int) -> UInt32 {
        precondition(position >= 0 && position < range.count, "RankWindow index out of range")
        return base[range.lowerBound + position]
    }
    subscript(unchecked position: Int) -> UInt32 { base[unchecked: range.lowerBound &+ position] }
}
