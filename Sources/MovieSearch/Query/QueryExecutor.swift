/// Runs one query against a `MovieIndex` (the algorithm is described in `CacheFormat`, "A query, step by step").
struct QueryExecutor {
    let index: MovieIndex
    let perYear: Int

    private var file: MappedCacheFile { index.file }
    private var sections: MovieIndex.Sections { index.sections }

    func run(_ query: String) throws(CacheError) -> SearchResult {
        let tokens = Self.essentialTokens(Tokenizer.tokenBytes(in: query))
        if tokens.isEmpty { return try browse(query) }

        let dictionary = TermDictionary(file: file, terms: sections.terms, text: sections.termText, count: file.termCount)
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(tokens.count)
        for token in tokens {
            let range = try dictionary.range(ofPrefix: token)
            if range.isEmpty { return SearchResult(query: query, total: 0, years: []) }
            ranges.append(range)
        }
        // The token with the fewest postings drives; the others filter its candidates.
        var driver = 0, fewest = Int.max
        for (position, range) in ranges.enumerated() {
            let volume = try postingStart(range.upperBound) - postingStart(range.lowerBound)
            if volume < fewest { (driver, fewest) = (position, volume) }
        }
        let filters = ranges.enumerated().filter { $0.offset != driver }.map(\.element)
        var grouper = YearGrouper(executor: self)
        try forEachCandidate(of: ranges[driver]) { (rank: Int) throws(CacheError) in
            if try matchesAll(rank: rank, filters) { try grouper.add(rank: rank) }
        }
        return grouper.result(query: query)
    }

    /// Distinct query tokens, leaving out any token that is a prefix of another: a title token that the longer
    /// one is a prefix of has the shorter one as a prefix too, so the shorter one cannot change the answer.
    static func essentialTokens(_ tokens: [[UInt8]]) -> [[UInt8]] {
        let longestFirst = Set(tokens).sorted { $0.count != $1.count ? $0.count > $1.count : $0.lexicographicallyPrecedes($1) }
        var kept: [[UInt8]] = []
        for token in longestFirst where !kept.contains(where: { $0.starts(with: token) }) {
            kept.append(token)
        }
        return kept
    }

    /// Every movie: each year's count is its rank range, its best movies the first ranks of that range.
    private func browse(_ query: String) throws(CacheError) -> SearchResult {
        var years: [YearMatches] = []
        years.reserveCapacity(file.yearCount)
        for year in 0..<file.yearCount {
            let (value, first) = try yearEntry(year)
            let end = try yearEnd(year)
            guard first <= end else { throw .corrupt(path: file.path, detail: "year table out of order") }
            var listed: [Int] = []
            for rank in first..<min(end, first + perYear) { listed.append(try movieID(atRank: rank)) }
            years.append(YearMatches(year: value, count: end - first, movieIDs: listed))
        }
        return SearchResult(query: query, total: file.movieCount, years: years)
    }

    /// Calls `body` with every rank that has a term in `terms`, ascending, each once.
    private func forEachCandidate(of terms: Range<Int>, _ body: (Int) throws(CacheError) -> Void) throws(CacheError) {
        let start = try postingStart(terms.lowerBound), end = try postingStart(terms.upperBound)
        guard start <= end else { throw .corrupt(path: file.path, detail: "posting offsets out of order") }
        let postings = try file.u32s(sections.postings, start..<end)
        let movieCount = file.movieCount
        if terms.count == 1 {
            // One posting list is already ascending and free of repeats.
            for position in 0..<postings.count {
                let rank = Int(postings[position])
                guard rank < movieCount else { throw .corrupt(path: file.path, detail: "posting out of range") }
                try body(rank)
            }
            return
        }
        // Several lists: mark their ranks in a bitmap and read it back in order (no sorting, no repeats).
        var bitmap = [UInt64](repeating: 0, count: (movieCount + 63) / 64)
        for position in 0..<postings.count {
            let rank = Int(postings[position])
            guard rank < movieCount else { throw .corrupt(path: file.path, detail: "posting out of range") }
            bitmap[rank >> 6] |= 1 << UInt64(rank & 63)
        }
        for (word, bits) in bitmap.enumerated() where bits != 0 {
            var remaining = bits
            while remaining != 0 {
                try body(word << 6 | remaining.trailingZeroBitCount)
                remaining &= remaining - 1
            }
        }
    }

    /// Whether the title at `rank` has, for every range, a term inside it.
    private func matchesAll(rank: Int, _ ranges: [Range<Int>]) throws(CacheError) -> Bool {
        if ranges.isEmpty { return true }
        let start = Int(try file.u32(sections.forwardOffsets, rank))
        let end = Int(try file.u32(sections.forwardOffsets, rank + 1))
        guard start <= end else { throw .corrupt(path: file.path, detail: "forward index out of order") }
        let terms = try file.u32s(sections.forwardTerms, start..<end)
        for range in ranges {
            var found = false
            for position in 0..<terms.count where range.contains(Int(terms[position])) {
                found = true
                break
            }
            if !found { return false }
        }
        return true
    }

    private func postingStart(_ term: Int) throws(CacheError) -> Int {
        Int(try file.u32(sections.terms, term * 2 + 1))
    }

    fileprivate func movieID(atRank rank: Int) throws(CacheError) -> Int {
        Int(try file.u32(sections.ranks, rank))
    }

    /// Year `index` of the year table (newest first) and its first rank.
    fileprivate func yearEntry(_ index: Int) throws(CacheError) -> (year: Int, firstRank: Int) {
        let entry = try file.u32s(sections.years, (index * 2)..<(index * 2 + 2))
        return (Int(Int32(bitPattern: entry[0])), Int(entry[1]))
    }

    /// One past the last rank of year `index`.
    fileprivate func yearEnd(_ index: Int) throws(CacheError) -> Int {
        index + 1 < file.yearCount ? try yearEntry(index + 1).firstRank : file.movieCount
    }
}

/// Turns matching ranks, arriving in ascending order, into year groups: counts all, keeps the first K ids.
private struct YearGrouper {
    let executor: QueryExecutor
    private var years: [YearMatches] = []
    private var total = 0
    private var yearIndex = -1
    private var yearEnd = 0

    init(executor: QueryExecutor) {
        self.executor = executor
    }

    mutating func add(rank: Int) throws(CacheError) {
        if rank >= yearEnd || yearIndex < 0 {
            // Skip to the year holding `rank`: ranks only grow, so the cursor only moves forward.
            repeat {
                yearIndex += 1
                yearEnd = try executor.yearEnd(yearIndex)
            } while rank >= yearEnd
            years.append(YearMatches(year: try executor.yearEntry(yearIndex).year, count: 0, movieIDs: []))
        }
        total += 1
        years[years.count - 1].count += 1
        if years[years.count - 1].movieIDs.count < executor.perYear {
            years[years.count - 1].movieIDs.append(try executor.movieID(atRank: rank))
        }
    }

    func result(query: String) -> SearchResult {
        SearchResult(query: query, total: total, years: years)
    }
}
