/// The typo pass (SEARCH-SPEC, "Typo tolerance"), run when the exact search matched nothing.
///
/// Each query token with a budget gets its matching terms from `TypoTermWalk` as ranges with distances; a token
/// without one (4 scalars or fewer, or a number) gets its exact prefix range at distance 0. Every range's titles
/// are read where they lie (`PrefixSetReader.rankSource(of:)`: its stored set, or its terms' postings unmerged).
/// The token whose sources are smallest drives: its ranks are collected with their smallest distance (all of its
/// sources sorted at once); every other token keeps the candidates found in one of its sources and adds the
/// smallest distance among those (its sources are tried in order of distance, so the first hit is the smallest). A movie's typo count is the sum. When the smallest token has many matches, every token becomes
/// bitmaps instead, one per distance (`TypoLevels`), met word by word. The answer then groups by year as an exact
/// one does, fewer typos first within a year (`AnswerBuilder.addTypoMatches`).
extension QueryExecutor {
    /// The typo answer to `query`, or nil when no query token has a budget (there is no typo pass then: the
    /// answer is the empty exact one). An answer is returned, empty or not, whenever the pass runs.
    func runWithTypos(_ query: String) throws(CacheError) -> SearchResult? {
        var gathered = TypoTokens()
        Tokenizer.forEachToken(in: query, into: &gathered)
        var tokens = (consume gathered).tokens
        guard tokens.contains(where: { $0.budget > 0 }) else { return nil }
        let years = try YearTable(file: file, years: index.sections.years)
        var answer = AnswerBuilder(perYear: perYear, ranks: try file.packed(index.sections.ranks, 0..<file.movieCount),
                                   path: file.path, yearCount: years.count)
        // Exact tokens first: a cheap look-up each, and one that matches nothing ends the pass before any walk.
        tokens.sort { $0.budget < $1.budget }
        // Every token's term ranges as rank sources, token after token, each token's in order of distance; a
        // token's are `spans[t].sources`. One array of plain values for the whole query, not an array per token.
        var sources: [Source] = []
        sources.reserveCapacity(16)
        var spans: [(sources: Range<Int>, cardinality: Int)] = []
        spans.reserveCapacity(tokens.count)
        let walk = TypoTermWalk(dictionary: index.terms, tries: index.typoTries,
                                 lettersWalked: index.typoLettersWalked)
        for token in tokens {
            let first = sources.count
            if token.budget == 0 {
                let range = try token.bytes.withUnsafeBufferPointer { bytes throws(CacheError) in
                    try index.terms.range(ofPrefix: bytes)
                }
                if range.isEmpty { return answer.result(query: query, mode: .typo) }  // nothing added yet: empty
                sources.append((try index.prefixSets.rankSource(of: range), 0))
            } else {
                let ranges = try token.bytes.withUnsafeBufferPointer { bytes throws(CacheError) in
                    try index.typoWalks.walk(for: token.bytes) { () throws(CacheError) in
                        index.walkCounter.add(1, ordering: .relaxed)
                        return try walk.matches(of: token.scalars, bytes: bytes, budget: token.budget)
                    }
                }
                if ranges.isEmpty { return answer.result(query: query, mode: .typo) }  // nothing added yet: empty
                for range in ranges {
                    // Saturated: a typo count is a UInt16, and no one types a word 30,000 times.
                    let distance = min(range.distance * token.repeats, Int(UInt16.max))
                    sources.append((try index.prefixSets.rankSource(of: range.terms), distance))
                }
                sources[first...].sort { $0.distance < $1.distance }
            }
            spans.append((first..<sources.count, sources[first...].reduce(0) { $0 + $1.ranks.count }))
        }
        spans.sort { $0.cardinality < $1.cardinality }
        // Many matches (more than 2⌈N / 64⌉, where a bitmap is the smaller; a policy of this pass, not the format's
        // `bitmapMinimum`): meet the tokens as bitmaps, word by word, and work out typo counts only for the matches
        // a year lists.
        if spans[0].cardinality > 2 * CacheFormat.bitmapWordCount(movieCount: file.movieCount) {
            let levels = try spans.map { span throws(CacheError) in
                try TypoLevels(sources[span.sources], movieCount: file.movieCount, path: file.path)
            }
            var matches = levels[0].all
            for token in levels.dropFirst() {
                let other = token.all
                for word in matches.indices { matches[word] &= other[word] }
            }
            try answer.addTypoMatches(bitmap: matches, years) { rank in
                var typos = 0
                for token in levels { typos += token.distance(of: rank) }
                return UInt16(clamping: typos)
            }
            return answer.result(query: query, mode: .typo)
        }
        var (ranks, typos) = try collect(sources[spans[0].sources])
        for span in spans.dropFirst() where !ranks.isEmpty {
            try keep(&ranks, &typos, foundIn: sources[span.sources])
        }
        try answer.addTypoMatches(ranks, typos: typos, years)
        return answer.result(query: query, mode: .typo)
    }

    /// A term range's ranks with the distance of its terms.
    typealias Source = (ranks: RankSource, distance: Int)

    /// The query's distinct tokens with their scalars, budgets and how often each is typed: a repeated token is
    /// looked up once, but its typos count as often as it is typed (the spec sums over the query's tokens).
    private struct TypoTokens: TokenConsumer {
        var tokens: [(bytes: [UInt8], scalars: [UInt32], budget: Int, repeats: Int)] = []
        /// A token's place in `tokens`, once there are many (a long query stays linear, not quadratic); a short
        /// query's few tokens are compared directly, without hashing or a table.
        var seen: [TokenKey: Int] = [:]

        init() {
            tokens.reserveCapacity(4)  // most queries: one allocation, not one per doubling
        }

        mutating func token(_ bytes: UnsafeBufferPointer<UInt8>) {
            let token = Array(bytes)
            let place: Int?
            if tokens.count < 8 {
                place = tokens.firstIndex { $0.bytes == token }
            } else {
                if seen.isEmpty {
                    for (place, earlier) in tokens.enumerated() { seen[TokenKey(bytes: earlier.bytes)] = place }
                }
                place = seen[TokenKey(bytes: token)]
            }
            if let place {
                tokens[place].repeats += 1
                return
            }
            if !seen.isEmpty { seen[TokenKey(bytes: token)] = tokens.count }
            let scalars = TypoBudget.scalars(of: bytes)
            tokens.append((token, scalars, TypoBudget.edits(for: scalars), 1))
        }
    }

    private static func cardinality(_ sources: ArraySlice<Source>) -> Int {
        sources.reduce(0) { $0 + $1.ranks.count }
    }

    /// The ranks of the union of `sources`, ascending, each with the smallest distance of a source that holds it.
    private func collect(_ sources: ArraySlice<Source>) throws(CacheError) -> ([UInt32], [UInt16]) {
        let movieCount = file.movieCount
        if sources.count == 1, case .sorted(let list) = sources[sources.startIndex].ranks {
            // One list (an exact token's, or a walk of one term): its ranks as they are, without the keys below.
            let distance = UInt16(truncatingIfNeeded: sources[sources.startIndex].distance)
            guard let ranks = Self.ranks(of: list, below: movieCount) else {
                throw .corrupt(path: file.path, detail: "rank out of range")
            }
            return (ranks, [UInt16](repeating: distance, count: ranks.count))
        }
        // rank << 16 | distance: sorting orders by rank, then distance, so the first of each rank is its best.
        var keys: [UInt64] = []
        keys.reserveCapacity(Self.cardinality(sources))
        for (source, distance) in sources {
            let ok: Bool
            switch source {
            case .sorted(let list), .postings(let list): ok = Self.append(list, distance, below: movieCount, to: &keys)
            case .bitmap(let words, _):
                for index in 0..<words.count {
                    var bits = words[index]
                    while bits != 0 {
                        keys.append(UInt64(index << 6 | bits.trailingZeroBitCount) << 16 | UInt64(distance))
                        bits &= bits - 1
                    }
                }
                ok = keys.last.map { Int($0 >> 16) < movieCount } ?? true
            }
            guard ok else { throw .corrupt(path: file.path, detail: "rank out of range") }
        }
        keys.sort()
        var ranks: [UInt32] = [], typos: [UInt16] = []
        ranks.reserveCapacity(keys.count)
        typos.reserveCapacity(keys.count)
        for key in keys where ranks.last != UInt32(truncatingIfNeeded: key >> 16) {
            ranks.append(UInt32(truncatingIfNeeded: key >> 16))
            typos.append(UInt16(truncatingIfNeeded: key))
        }
        return (ranks, typos)
    }

    /// The ranks of `list`, each below `limit`, repeats next to each other kept once (as `collect` keeps them);
    /// nil when one is not below `limit`.
    private static func ranks<Ranks: RankSequence>(of list: Ranks, below limit: Int) -> [UInt32]? {
        var ranks: [UInt32] = []
        ranks.reserveCapacity(list.count)
        for position in 0..<list.count {
            let rank = list[position]
            guard Int(rank) < limit else { return nil }
            if ranks.last != rank { ranks.append(rank) }
        }
        return ranks
    }

    private static func append<Ranks: RankSequence>(_ ranks: Ranks, _ distance: Int, below limit: Int,
                                                    to keys: inout [UInt64]) -> Bool {
        for position in 0..<ranks.count {
            let rank = ranks[position]
            guard Int(rank) < limit else { return false }
            keys.append(UInt64(rank) << 16 | UInt64(distance))
        }
        return true
    }

    /// Keeps the candidates (ascending) that one of `sources` (ordered by distance) holds, adding the smallest
    /// distance of those that do to their typo count.
    ///
    /// A token of many small sources (a fuzzy token's terms), or of unmerged postings, is listed once and met with
    /// the candidates in one merge; otherwise each source in turn marks the candidates it holds that no nearer one
    /// did: a bit test each for a bitmap, a gallop through a list. Either way a candidate costs a few loads per
    /// source, and nothing is copied per candidate.
    private func keep(_ ranks: inout [UInt32], _ typos: inout [UInt16],
                      foundIn sources: ArraySlice<Source>) throws(CacheError) {
        var best = [UInt16](repeating: .max, count: ranks.count)
        let unsorted = sources.contains { if case .postings = $0.ranks { true } else { false } }
        if sources.count > 1 || unsorted, Self.cardinality(sources) <= 8 * ranks.count {
            let (other, otherTypos) = try collect(sources)
            var position = 0
            for candidate in ranks.indices {
                let rank = ranks[candidate]
                if position < other.count, other[position] < rank {
                    position = AnswerBuilder.firstPosition(in: other, from: position, notBelow: Int(rank))
                }
                if position < other.count, other[position] == rank { best[candidate] = otherTypos[position] }
            }
        } else {
            for (source, distance) in sources {
                let distance = UInt16(distance)
                switch source {
                case .bitmap(let words, _):
                    for candidate in ranks.indices where best[candidate] == .max {
                        let rank = Int(ranks[candidate])
                        if words[rank >> 6] >> UInt64(rank & 63) & 1 == 1 { best[candidate] = distance }
                    }
                case .sorted(let list): Self.mark(ranks, in: list, distance, &best)
                case .postings(let list):
                    // A large range without a stored set, met with few candidates: its ranks sorted first.
                    let (sorted, _) = try collect([(source, Int(distance))][...])
                    Self.mark(ranks, in: sorted, distance, &best)
                }
            }
        }
        var kept = 0
        for position in ranks.indices where best[position] != .max {
            let (sum, overflow) = typos[position].addingReportingOverflow(best[position])
            ranks[kept] = ranks[position]
            typos[kept] = overflow ? .max : sum
            kept += 1
        }
        ranks.removeLast(ranks.count - kept)
        typos.removeLast(typos.count - kept)
    }

    /// Gives `distance` to the candidates (ascending) that ascending `list` holds and no nearer set did.
    private static func mark<Ranks: RankSequence>(_ candidates: [UInt32], in list: Ranks, _ distance: UInt16,
                                                  _ best: inout [UInt16]) {
        var cursor = 0
        for candidate in candidates.indices where best[candidate] == .max {
            if contains(list, candidates[candidate], cursor: &cursor) { best[candidate] = distance }
        }
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
