@_spi(Engine) import MovieSearchIndex

/// A search under filters (SEARCH-SPEC, "Filters and facets"; `RankFilter`): the filter's passing ranks are one
/// more set met with the query's, so counts and the movies listed per year come from the passing matches only,
/// never from cutting down an answer already made.
extension QueryExecutor {
    /// The exact answer to `query` among the ranks `filter` passes, with the ranks of all its matches (`nil` for a
    /// query without tokens: every passing rank matches). `lookedUp` as for `run(_:lookedUp:)`.
    ///
    /// `collect`: whether the matches are wanted (the genre facet); when not, an answer found from bitmaps alone
    /// gives none.
    func runFiltered(_ query: String, worked: WorkedFilter, collect: Bool,
                     lookedUp: inout [Range<Int>]?) throws(CacheError) -> (result: SearchResult, matches: [UInt32]?) {
        let filter = worked.filter
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
        sets.reserveCapacity(ranges.count)
        for range in ranges { sets.append(try index.prefixSets.rankSet(of: range)) }
        sets.sort { ($0.isBitmap ? 1 : 0, $0.cardinality) < ($1.isBitmap ? 1 : 0, $1.cardinality) }
        // The passing ranks as bits (made once per filter): a list of the query's drives and each of its ranks
        // is tested against them; bitmaps are ANDed with them over the filter's words only.
        let bits = try worked.bitmap()
        let wordCount = CacheFormat.bitmapWordCount(movieCount: file.movieCount)
        guard bits.count == wordCount else { throw .corrupt(path: file.path, detail: "a bitmap set has the wrong size") }
        let bounds = filter.bounds
        switch sets[0].storage {
        case .bitmap(let first):
            var others: [U64View] = []
            for set in sets.dropFirst() {
                guard case .bitmap(let words) = set.storage, words.count == wordCount else {
                    throw .corrupt(path: file.path, detail: "a bitmap set has the wrong size")
                }
                others.append(words)
            }
            guard first.count == wordCount else {
                throw .corrupt(path: file.path, detail: "a bitmap set has the wrong size")
            }
            // The words of the filter's years only: the rest are zero and never read.
            let firstWord = bounds.lowerBound >> 6
            let endWord = bounds.isEmpty ? firstWord : min((bounds.upperBound + 63) >> 6, wordCount)
            var words = [UInt64](repeating: 0, count: endWord - firstWord)
            for word in firstWord..<endWord {
                var kept = bits[word] & first[word]
                for other in others { kept &= other[word] }
                words[word - firstWord] = kept
            }
            try answer.addBitmap(words, years, firstWord: firstWord, within: bounds)
            let result = answer.result(query: query)
            guard collect else { return (result, []) }
            // Sized once from the answer's total: growing by doubling cost a copy and fresh pages per step on a
            // short prefix's tens of thousands of matches (the facet's p99).
            var matches: [UInt32] = []
            matches.reserveCapacity(result.total)
            for word in words.indices {
                var bits = words[word]
                while bits != 0 {
                    matches.append(UInt32((firstWord + word) << 6 | bits.trailingZeroBitCount))
                    bits &= bits &- 1
                }
            }
            return (result, matches)
        case .list(let list):
            let matches = try Self.passing(list, in: bits, within: bounds, by: sets.dropFirst(),
                                           movieCount: file.movieCount, path: file.path)
            try answer.addSorted(matches, years)
            return (answer.result(query: query), matches)
        case .merged(let list):
            let matches = try Self.passing(list, in: bits, within: bounds, by: sets.dropFirst(),
                                           movieCount: file.movieCount, path: file.path)
            try answer.addSorted(matches, years)
            return (answer.result(query: query), matches)
        }
    }

    /// The ranks of `driver` (ascending) within `bounds` whose bits `passing` sets and that every set of `others`
    /// holds.
    private static func passing<Ranks: RankSequence>(_ driver: Ranks, in passing: [UInt64], within bounds: Range<Int>,
                                                     by others: ArraySlice<RankSet>, movieCount: Int,
                                                     path: String) throws(CacheError) -> [UInt32] {
        let start = AnswerBuilder.firstPosition(in: driver, from: -1, notBelow: bounds.lowerBound)
        let end = max(start, AnswerBuilder.firstPosition(in: driver, from: start - 1, notBelow: bounds.upperBound))
        var matches: [UInt32] = []
        for position in start..<end {
            let rank = Int(driver[position])
            guard rank < movieCount else { throw .corrupt(path: path, detail: "rank out of range") }
            if passing[rank >> 6] & (1 << UInt64(rank & 63)) != 0 { matches.append(UInt32(rank)) }
        }
        for set in others where !matches.isEmpty {
            matches = try filter(matches, by: set, movieCount: movieCount, path: path)
        }
        return matches
    }
}
