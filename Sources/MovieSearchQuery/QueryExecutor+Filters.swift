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
            case .list(let list, let positions): try answer.addSorted(list, positions: positions, years)
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
            let words = Self.intersection(bits, first, others, words: firstWord..<endWord)
            try answer.addBitmap(words, years, firstWord: firstWord, within: bounds)
            let result = answer.result(query: query)
            guard collect else { return (result, []) }
            // Sized once from the answer's total: growing by doubling cost a copy and fresh pages per step on a
            // short prefix's tens of thousands of matches (the facet's p99).
            // Written through the buffer, not appended (a check of capacity and uniqueness per match was most of
            // the facet's cost); the set bits are the answer's total, and never more are written.
            let matches = [UInt32](unsafeUninitializedCapacity: result.total) { buffer, initialized in
                var count = 0
                words.withUnsafeBufferPointer { words in
                    for word in 0..<words.count {
                        var bits = words[word]
                        while bits != 0, count < buffer.count {
                            buffer[count] = UInt32(truncatingIfNeeded: (firstWord &+ word) &<< 6
                                                   | bits.trailingZeroBitCount)
                            count &+= 1
                            bits &= bits &- 1
                        }
                    }
                }
                initialized = count
            }
            return (result, matches)
        case .list(let list):
            let matches = try Self.passing(list, in: bits, within: bounds, by: sets.dropFirst(),
                                           movieCount: file.movieCount, path: file.path)
            try answer.addSorted(matches, years)
            return (answer.result(query: query), matches)
        case .coded(let list):
            let matches = try Self.passing(list.decoded(), in: bits, within: bounds, by: sets.dropFirst(),
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

    /// Words `range` of `passing & first & others…` (all of `passing`'s size, which covers `range`): written once,
    /// with no zeroing first, through pointers, a bitmap at a time so that each loop is loads and an AND (a loop
    /// over the words with a check and a uniqueness test per store cost more than the counting that follows).
    private static func intersection(_ passing: [UInt64], _ first: U64View, _ others: [U64View],
                                     words range: Range<Int>) -> [UInt64] {
        precondition(range.lowerBound >= 0 && range.upperBound <= passing.count && first.count == passing.count
                     && others.allSatisfy { $0.count == passing.count }, "bitmaps of different sizes")
        return [UInt64](unsafeUninitializedCapacity: range.count) { buffer, initialized in
            guard let target = buffer.baseAddress else { return }
            let start = range.lowerBound
            passing.withUnsafeBufferPointer { passing in
                let bits = passing.baseAddress! + start  // not empty: range is
                let words = first.base + start &* 8
                for word in 0..<range.count {
                    target[word] = bits[word]
                        & UInt64(littleEndian: words.loadUnaligned(fromByteOffset: word &* 8, as: UInt64.self))
                }
            }
            for other in others {
                let words = other.base + start &* 8
                for word in 0..<range.count {
                    target[word] &= UInt64(littleEndian: words.loadUnaligned(fromByteOffset: word &* 8,
                                                                             as: UInt64.self))
                }
            }
            initialized = range.count
        }
    }

    /// The ranks of `driver` (ascending) within `bounds` whose bits `passing` sets and that every set of `others`
    /// holds.
    private static func passing<Ranks: RankSequence>(_ driver: Ranks, in passing: [UInt64], within bounds: Range<Int>,
                                                     by others: ArraySlice<RankSet>, movieCount: Int,
                                                     path: String) throws(CacheError) -> [UInt32] {
        let start = AnswerBuilder.firstPosition(in: driver, from: -1, notBelow: bounds.lowerBound)
        let end = max(start, AnswerBuilder.firstPosition(in: driver, from: start - 1, notBelow: bounds.upperBound))
        precondition(passing.count &* 64 >= movieCount, "a bitmap smaller than its ranks")
        let kept = passing.withUnsafeBufferPointer { bits in
            BitKernels.filter(driver, positions: start..<end, below: movieCount) { bits[$0] }
        }
        guard var matches = kept else { throw .corrupt(path: path, detail: "rank out of range") }
        for set in others where !matches.isEmpty {
            matches = try filter(matches, by: set, movieCount: movieCount, path: path)
        }
        return matches
    }
}
