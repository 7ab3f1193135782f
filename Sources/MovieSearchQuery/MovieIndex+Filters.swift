import MovieSearchCatalog
@_spi(Engine) import MovieSearchIndex
@_spi(Engine) import MovieSearchText
import MovieSearchLRU

/// Searches and top lists under filters, and the genre facet (SEARCH-SPEC, "Filters and facets"; `RankFilter`,
/// `CacheFormat` "Filter sections").
extension MovieIndex {
    /// Answers `query` among the movies that pass `filters` (see `search(_:perYear:typos:)`): matching, counts,
    /// the movies listed per year and the typo rule behave as if the catalog held only those movies. With
    /// `genreFacet`, the answer's `genreFacet` counts, per genre, all its matches that have it.
    ///
    /// With no filter and no facet this is `search(_:perYear:typos:)`, answer for answer.
    public func search(_ query: String, perYear: Int = 5, typos: TypoTolerance = .auto, filters: SearchFilters,
                       genreFacet: Bool = false) throws -> SearchResult {
        if filters.isEmpty, !genreFacet { return try search(query, perYear: perYear, typos: typos) }
        let executor = QueryExecutor(index: self, perYear: min(max(perYear, 0), movieCount))
        let worked = try workedFilter(filters)
        let filter = worked.filter
        var lookedUp: [Range<Int>]?
        var (result, matches) = try executor.runFiltered(query, worked: worked, collect: genreFacet,
                                                           lookedUp: &lookedUp)
        if result.total == 0, typos != .off {
            var matched: [UInt32]? = genreFacet ? [] : nil
            if let typo = try executor.runWithTypos(query, lookedUp: lookedUp,
                                                    passing: worked.bitmap(),
                                                    matched: &matched) {
                result = typo
                matches = matched ?? []
            }
        }
        if genreFacet { result.genreFacet = try facet(of: matches, filter: filter) }
        return result
    }

    /// `filters` worked out, from the filters used last (`filterCache`) or now.
    func workedFilter(_ filters: SearchFilters) throws(CacheError) -> WorkedFilter {
        try filterCache.value(forKey: filters) { () throws(CacheError) in
            let years = try YearTable(file: file, years: sections.years)
            return WorkedFilter(try RankFilter(filters, index: self, years: years), movieCount: movieCount, path: path)
        }
    }

    /// The genre facet of the ranks `matches` (every rank `filter` passes when `nil`): a load of `GSET` per match,
    /// counted by genre set, then each set's count added to its genres.
    private func facet(of matches: [UInt32]?, filter: RankFilter) throws(CacheError) -> [FacetCount] {
        let table = try GenreTable(file: file, sections: sections)
        let setOfRank = try table.setsOfRanks()
        let setCount = table.setCount
        if let matches, matches.count < setCount / 4 {
            return try facet(ofFew: matches, table: table, setOfRank: setOfRank)
        }
        // One load and one increment a match (`PackedView.count(entriesAt:into:)`).
        var setCounts = [Int](repeating: 0, count: setCount)
        var damaged = false
        setCounts.withUnsafeMutableBufferPointer { counts in
            if let matches {
                damaged = !setOfRank.count(entriesAt: matches, into: counts)
                return
            }
            switch filter.passing {
            case .nothing: break
            case .intervals(let intervals):
                for interval in intervals where !setOfRank.count(entriesAt: interval.ranks, into: counts) {
                    damaged = true
                    return
                }
            case .list(let list, let positions):
                // The year range's part of one genre's list, decoded (a facet without a query: once per filter).
                // A forged list's missing ranks come as `UInt32.max`, which the count refuses.
                var ranks: [UInt32] = []
                ranks.reserveCapacity(positions.count)
                list.forEachRank(in: positions) { ranks.append($0) }
                damaged = !setOfRank.count(entriesAt: ranks, into: counts)
            case .ranks(let ranks):
                damaged = !setOfRank.count(entriesAt: ranks, into: counts)
            }
        }
        if damaged { throw .corrupt(path: path, detail: "a genre set is out of range") }
        var genreCounts = [Int](repeating: 0, count: table.count)
        for set in 0..<setCount where setCounts[set] > 0 {
            try Self.add(setCounts[set], toGenresOf: set, table: table, in: &genreCounts)
        }
        return try Self.facet(genreCounts, table: table)
    }

    /// The genre facet of `matches`, fewer than a quarter of the genre sets: their sets sorted and counted run by
    /// run. A count per set would zero and scan every set of the catalog (thousands in a large one) for a few
    /// matches, which was most of a filtered search's facet when its matches were few.
    private func facet(ofFew matches: [UInt32], table: GenreTable,
                       setOfRank: PackedView) throws(CacheError) -> [FacetCount] {
        var sets: [UInt32] = []
        sets.reserveCapacity(matches.count)
        for rank in matches {
            guard Int(rank) < setOfRank.count else { throw .corrupt(path: path, detail: "a genre set is out of range") }
            sets.append(setOfRank[unchecked: Int(rank)])
        }
        sets.sort()
        var genreCounts = [Int](repeating: 0, count: table.count)
        var start = 0
        while start < sets.count {
            var end = start + 1
            while end < sets.count, sets[end] == sets[start] { end += 1 }
            try Self.add(end - start, toGenresOf: Int(sets[start]), table: table, in: &genreCounts)
            start = end
        }
        return try Self.facet(genreCounts, table: table)
    }

    /// Adds `count` (the matches in genre set `set`) to each genre of the set; `genres(ofSet:)` checks the set
    /// against the table.
    private static func add(_ count: Int, toGenresOf set: Int, table: GenreTable,
                            in genreCounts: inout [Int]) throws(CacheError) {
        let genres = try table.genres(ofSet: set)
        for position in 0..<genres.count { genreCounts[Int(genres[position])] += count }
    }

    /// The facet of per-genre counts: the genres with a count, count descending, then genre number.
    private static func facet(_ genreCounts: [Int], table: GenreTable) throws(CacheError) -> [FacetCount] {
        // Count descending, then genre number: genres are numbered by folded name.
        let order = genreCounts.indices.filter { genreCounts[$0] > 0 }
            .sorted { genreCounts[$0] != genreCounts[$1] ? genreCounts[$0] > genreCounts[$1] : $0 < $1 }
        var facet: [FacetCount] = []
        facet.reserveCapacity(order.count)
        for genre in order { facet.append(FacetCount(name: try table.shownName(genre), count: genreCounts[genre])) }
        return facet
    }

    /// The first `limit` movies of a top list (`topRated(by:limit:)`) that pass `filters`, in the list's order.
    ///
    /// The users' list: a year's ranks follow it (rating descending, unrated last, catalog order on ties), so the
    /// first `limit` passing ranks of each year hold the answer, which `TOPR` then orders; cost: `limit` × years and
    /// the part of `TOPR` read, never the catalog. The critics' list is read whole against every passing movie.
    public func topRated(by order: TopListOrder, limit: Int, filters: SearchFilters) throws -> [Movie] {
        if filters.isEmpty { return try topRated(by: order, limit: limit) }
        let wanted = max(limit, 0)
        guard wanted > 0 else { return [] }
        let years = try YearTable(file: file, years: sections.years)
        let filter = try workedFilter(filters).filter
        let ranks = try file.packed(sections.ranks, 0..<movieCount)
        let rankBases = try file.packed(sections.rankBases, 0..<years.count)
        var candidates = Set<Int>()
        switch order {
        case .rating:
            try filter.forFirstRanks(perEntry: wanted, years: years, movieCount: movieCount, path: path) {
                rank, entry throws(CacheError) in
                candidates.insert(Int(ranks[rank]) + Int(rankBases[entry]))
            }
            return try records.topRatedIDs(among: candidates, limit: wanted).map { try movie(id: $0) }
        case .critic:
            // Every passing rank (no limit a year): the critics' list does not follow a year's ranks.
            try filter.forFirstRanks(perEntry: .max, years: years, movieCount: movieCount, path: path) {
                rank, entry throws(CacheError) in
                candidates.insert(Int(ranks[rank]) + Int(rankBases[entry]))
            }
            var movies: [Movie] = []
            for id in try records.topCriticIDs(records.criticRatedCount) where candidates.contains(id) {
                movies.append(try movie(id: id))
                if movies.count == wanted { break }
            }
            return movies
        }
    }

    /// How many movies pass `filters`: the whole catalog when none is set (for `top`'s header).
    public func passingCount(_ filters: SearchFilters) throws -> Int {
        filters.isEmpty ? movieCount : try workedFilter(filters).filter.count
    }

    /// Every genre of the catalog with how many movies have it, in the genre facet's order (count descending, then
    /// folded name): the facet of a search that matches every movie, for a page that has no query yet. Each genre's
    /// count is the length of its list of ranks (`GNRR`, which holds a movie once however often it lists the
    /// genre): G reads, where counting every movie's genre set cost a load a movie (some 2 ms at 1M movies).
    public func genreCounts() throws -> [FacetCount] {
        let table = try GenreTable(file: file, sections: sections)
        var counts: [Int] = []
        counts.reserveCapacity(table.count)
        for genre in 0..<table.count { counts.append(try table.rankCount(of: genre)) }
        return try Self.facet(counts, table: table)
    }

    /// Every genre of the catalog, as the lowest-id movie that has it spells it, in the order of their folded names
    /// (for completions and suggestions).
    public func genreNames() throws -> [String] {
        let table = try GenreTable(file: file, sections: sections)
        return try (0..<table.count).map { genre throws(CacheError) in try table.shownName(genre) }
    }

    /// Whether some movie has a genre that folds as `name` does.
    public func hasGenre(_ name: String) throws -> Bool {
        try GenreTable(file: file, sections: sections).genre(folded: NameFolding.fold(name)) != nil
    }

    /// Whether some movie's cast or genres hold a name that folds as `name` does; `cast` asks of the cast only
    /// through a pass over the movies, so this asks of the names the records hold (cast and genres together).
    public func hasName(_ name: String) throws -> Bool {
        let folded = NameFolding.fold(name)
        var found = false
        try records.forEachName { _, bytes in
            if !found, NameFolding.fold(String(decoding: bytes, as: UTF8.self)) == folded { found = true }
        }
        return found
    }

    /// The names the records hold (cast and genres together), each as stored (for suggestions).
    public func storedNames() throws -> [String] {
        var names: [String] = []
        try records.forEachName { _, bytes in names.append(String(decoding: bytes, as: UTF8.self)) }
        return names
    }
}
