/// The typo pass (SEARCH-SPEC, "Typo tolerance"), run when the exact search matched nothing.
///
/// Each query token with a budget gets its matching terms from `TypoTermWalk` as ranges with distances; a token
/// without one (4 scalars or fewer, or a number) gets its exact prefix range at distance 0. Every range's set of
/// titles is read as for an exact query (`PrefixSetReader`). The token whose sets are smallest drives: its ranks
/// are collected with their smallest distance; every other token keeps the candidates found in one of its sets and
/// adds the smallest distance among those sets (its sets are tried in order of distance, so the first hit is the
/// smallest). A movie's typo count is the sum. The answer then groups by year as an exact one does, fewer typos
/// first within a year (`AnswerBuilder.addTypoMatches`).
extension QueryExecutor {
    /// The typo answer to `query`, or nil when no query token has a budget (there is no typo pass then: the
    /// answer is the empty exact one). An answer is returned, empty or not, whenever the pass runs.
    func runWithTypos(_ query: String) throws(CacheError) -> SearchResult? {
        var tokens: [(bytes: [UInt8], scalars: [UInt32], budget: Int)] = []
        Tokenizer.forEachToken(in: query) { bytes in
            if tokens.contains(where: { $0.bytes.elementsEqual(bytes) }) { return }
            let scalars = TypoBudget.scalars(of: bytes)
            tokens.append((Array(bytes), scalars, TypoBudget.edits(for: scalars)))
        }
        guard tokens.contains(where: { $0.budget > 0 }) else { return nil }
        let years = try YearTable(file: file, years: index.sections.years)
        var answer = AnswerBuilder(perYear: perYear, ranks: try file.packed(index.sections.ranks, 0..<file.movieCount),
                                   path: file.path, yearCount: years.count)
        let empty = answer.result(query: query, mode: .typo)
        // Exact tokens first: a cheap look-up each, and one that matches nothing ends the pass before any walk.
        tokens.sort { $0.budget < $1.budget }
        var tokenSets: [[(set: RankSet, distance: Int)]] = []
        let walk = TypoTermWalk(dictionary: index.terms, path: file.path)
        for token in tokens {
            let ranges = try token.bytes.withUnsafeBufferPointer { bytes throws(CacheError) in
                if token.budget == 0 {
                    let range = try index.terms.range(ofPrefix: bytes)
                    return range.isEmpty ? [] : [(terms: range, distance: 0)]
                }
                return try walk.matches(of: token.scalars, bytes: bytes, budget: token.budget)
            }
            if ranges.isEmpty { return empty }
            var sets: [(set: RankSet, distance: Int)] = []
            for range in ranges { sets.append((try index.prefixSets.rankSet(of: range.terms), range.distance)) }
            sets.sort { $0.distance < $1.distance }
            tokenSets.append(sets)
        }
        tokenSets.sort { Self.cardinality($0) < Self.cardinality($1) }
        var (ranks, typos) = try collect(tokenSets[0])
        for sets in tokenSets.dropFirst() where !ranks.isEmpty {
            try keep(&ranks, &typos, foundIn: sets)
        }
        try answer.addTypoMatches(ranks, typos: typos, years)
        return answer.result(query: query, mode: .typo)
    }

    private static func cardinality(_ sets: [(set: RankSet, distance: Int)]) -> Int {
        sets.reduce(0) { $0 + $1.set.cardinality }
    }

    /// The ranks of the union of `sets`, ascending, each with the smallest distance of a set that holds it.
    private func collect(_ sets: [(set: RankSet, distance: Int)]) throws(CacheError) -> ([UInt32], [UInt16]) {
        let movieCount = file.movieCount
        // rank << 8 | distance: sorting orders by rank, then distance, so the first of each rank is its best.
        var keys: [UInt64] = []
        keys.reserveCapacity(Self.cardinality(sets))
        for (set, distance) in sets {
            let ok: Bool
            switch set.storage {
            case .list(let list): ok = Self.append(list, distance, below: movieCount, to: &keys)
            case .merged(let list): ok = Self.append(list, distance, below: movieCount, to: &keys)
            case .bitmap(let words):
                for index in 0..<words.count {
                    var bits = words[index]
                    while bits != 0 {
                        keys.append(UInt64(index << 6 | bits.trailingZeroBitCount) << 8 | UInt64(distance))
                        bits &= bits - 1
                    }
                }
                ok = keys.last.map { Int($0 >> 8) < movieCount } ?? true
            }
            guard ok else { throw .corrupt(path: file.path, detail: "rank out of range") }
        }
        if sets.count > 1 { keys.sort() }
        var ranks: [UInt32] = [], typos: [UInt16] = []
        ranks.reserveCapacity(keys.count)
        typos.reserveCapacity(keys.count)
        for key in keys where ranks.last != UInt32(truncatingIfNeeded: key >> 8) {
            ranks.append(UInt32(truncatingIfNeeded: key >> 8))
            typos.append(UInt16(key & 0xFF))
        }
        return (ranks, typos)
    }

    private static func append<Ranks: RankSequence>(_ ranks: Ranks, _ distance: Int, below limit: Int,
                                                    to keys: inout [UInt64]) -> Bool {
        for position in 0..<ranks.count {
            let rank = ranks[position]
            guard Int(rank) < limit else { return false }
            keys.append(UInt64(rank) << 8 | UInt64(distance))
        }
        return true
    }

    /// Keeps the candidates (ascending) that one of `sets` (ordered by distance) holds, adding the distance of the
    /// first that does to their typo count.
    private func keep(_ ranks: inout [UInt32], _ typos: inout [UInt16],
                      foundIn sets: [(set: RankSet, distance: Int)]) throws(CacheError) {
        let movieCount = file.movieCount
        // A cursor per listed set: candidates ascend, so each list is galloped through once.
        var cursors = [Int](repeating: 0, count: sets.count)
        var kept = 0
        for position in ranks.indices {
            let rank = ranks[position]
            guard Int(rank) < movieCount else { throw .corrupt(path: file.path, detail: "rank out of range") }
            var distance: Int?
            for (number, entry) in sets.enumerated() {
                let found: Bool
                switch entry.set.storage {
                case .bitmap(let words): found = words[Int(rank) >> 6] >> UInt64(rank & 63) & 1 == 1
                case .list(let list): found = Self.contains(list, rank, cursor: &cursors[number])
                case .merged(let list): found = Self.contains(list, rank, cursor: &cursors[number])
                }
                if found {
                    distance = entry.distance
                    break
                }
            }
            guard let distance else { continue }
            ranks[kept] = rank
            typos[kept] = typos[position] &+ UInt16(distance)
            kept += 1
        }
        ranks.removeLast(ranks.count - kept)
        typos.removeLast(typos.count - kept)
    }

    /// Whether ascending `list` holds `rank`, moving `cursor` to the first entry not below it (ranks asked for
    /// ascend, so the cursor only moves forward).
    private static func contains<Ranks: RankSequence>(_ list: Ranks, _ rank: UInt32, cursor: inout Int) -> Bool {
        if cursor < list.count, list[cursor] < rank {
            cursor = AnswerBuilder.firstPosition(in: list, from: cursor, notBelow: Int(rank))
        }
        return cursor < list.count && list[cursor] == rank
    }
}
