@_spi(Engine) import MovieSearchIndex
@_spi(Engine) import MovieSearchText
import Synchronization

/// The typo pass (SPEC.md, "Typos"), run when the exact search matched nothing.
///
/// Each query token with a budget gets its matching terms from `TypoTermWalk` as ranges with distances; a token
/// without one (4 scalars or fewer, or a number) gets its exact prefix range at distance 0. Every range's titles
/// are read where they lie (`PrefixSetReader.rankSource(of:)`: its stored set, or its terms' postings unmerged).
/// The token whose sources are smallest drives: its ranks are collected with their smallest distance (all of its
/// sources sorted at once); every other token keeps the candidates found in one of its sources and adds the
/// smallest distance among those (its sources are tried in order of distance, so the first hit is the smallest).
/// A movie's typo count is the sum. When the smallest token has many matches, every token becomes bitmaps instead,
/// one per distance (`TypoLevels`), met word by word. The answer then groups by year as an exact one does, fewer
/// typos first within a year (`AnswerBuilder.addTypoMatches`).
extension QueryExecutor {
    /// The typo answer to `query`, or nil when no query token has a budget (there is no typo pass then: the
    /// answer is the empty exact one). An answer is returned, empty or not, whenever the pass runs.
    ///
    /// `lookedUp`: the exact pass's term ranges of the query's first tokens, in order, when the token after them
    /// begins no term (`run(_:lookedUp:)`): tokens without a budget among them are not looked up again, and when
    /// that token has no budget either, nothing can match it and no walk is made.
    func runWithTypos(_ query: String, lookedUp: [Range<Int>]? = nil) throws(CacheError) -> SearchResult? {
        var matched: [UInt32]? = nil
        return try runWithTypos(query, lookedUp: lookedUp, passing: nil, matched: &matched)
    }

    /// `runWithTypos(_:lookedUp:)` among the ranks whose bits `passing` sets (a search's filters, `RankFilter`), all
    /// ranks when `nil`; `matched`, when not `nil`, gets the ranks of every match (for the genre facet).
    func runWithTypos(_ query: String, lookedUp: [Range<Int>]?, passing: [UInt64]?,
                      matched: inout [UInt32]?) throws(CacheError) -> SearchResult? {
        var gathered = TypoTokens(lookedUp: lookedUp)
        Tokenizer.forEachToken(in: query, into: &gathered)
        let hopeless = gathered.hopeless
        var tokens = (consume gathered).tokens
        guard tokens.contains(where: { $0.budget > 0 }) else { return nil }
        // No movie matches: the empty typo answer, without an answer set up.
        let nothing = SearchResult(query: query, total: 0, years: [], mode: .typo)
        if hopeless { return nothing }
        // Exact tokens first: a cheap look-up each, and one that matches nothing ends the pass before any walk.
        tokens.sort { $0.budget < $1.budget }
        // Every token's term ranges as rank sources, token after token, each token's in order of distance; a
        // token's are `spans[t].sources`. One array of plain values for the whole query, not an array per token.
        var sources: [Source] = []
        sources.reserveCapacity(16)
        var spans: [(sources: Range<Int>, cardinality: Int)] = []
        spans.reserveCapacity(tokens.count)
        // Read from the index once: each read of a reference from it is a retain and a release.
        let terms = index.terms, prefixSets = index.prefixSets, walks = index.typoWalks
        for token in tokens {
            let first = sources.count
            if token.budget == 0 {
                let range: Range<Int>
                if let known = token.range {
                    range = known
                } else {
                    range = try token.bytes.withUnsafeBufferPointer { bytes throws(CacheError) in
                        try terms.range(ofPrefix: bytes)
                    }
                }
                if range.isEmpty { return nothing }
                sources.append((try prefixSets.rankSource(of: range), 0))
            } else {
                let ranges = try walks.walk(for: token.bytes) { () throws(CacheError) in
                    index.walkCounter.add(1, ordering: .relaxed)
                    let walk = TypoTermWalk(dictionary: terms, tries: index.typoTries,
                                            lettersWalked: index.typoLettersWalked)
                    return try token.bytes.withUnsafeBufferPointer { bytes throws(CacheError) in
                        try walk.matches(of: TypoBudget.scalars(of: bytes), bytes: bytes, budget: token.budget)
                    }
                }
                if ranges.isEmpty { return nothing }
                // In order of distance: a pass over the ranges per distance the budget allows (a few), rather
                // than a sort.
                for walked in 0...token.budget {
                    // Saturated: a typo count is a UInt16, and no one types a word 30,000 times.
                    let distance = min(walked * token.repeats, Int(UInt16.max))
                    for range in ranges where range.distance == walked {
                        sources.append((try prefixSets.rankSource(of: range.terms), distance))
                    }
                }
            }
            spans.append((first..<sources.count, Self.cardinality(sources[first...])))
        }
        spans.sort { $0.cardinality < $1.cardinality }
        // Many matches (more than 2⌈N / 64⌉, where a bitmap is the smaller; a policy of this pass, not the format's
        // `bitmapMinimum`): meet the tokens as bitmaps, word by word, and work out typo counts only for the matches
        // a year lists.
        let years = try YearTable(file: file, years: index.sections.years)
        let ranks = try file.packed(index.sections.ranks, 0..<file.movieCount)
        let rankBases = try file.packed(index.sections.rankBases, 0..<years.count)
        if spans[0].cardinality > 2 * CacheFormat.bitmapWordCount(movieCount: file.movieCount) {
            var answer = AnswerBuilder(perYear: perYear, ranks: ranks, rankBases: rankBases, path: file.path,
                                       yearCount: years.count)
            let levels = try spans.map { span throws(CacheError) in
                try TypoLevels(sources[span.sources], movieCount: file.movieCount, path: file.path)
            }
            var matches = levels[0].all
            for token in levels.dropFirst() {
                let other = token.all
                for word in matches.indices { matches[word] &= other[word] }
            }
            if let passing {
                guard passing.count == matches.count else {
                    throw .corrupt(path: file.path, detail: "a bitmap set has the wrong size")
                }
                for word in matches.indices { matches[word] &= passing[word] }
            }
            if matched != nil {
                var ranks: [UInt32] = []
                for word in matches.indices {
                    var bits = matches[word]
                    while bits != 0 {
                        ranks.append(UInt32(word << 6 | bits.trailingZeroBitCount))
                        bits &= bits &- 1
                    }
                }
                matched = ranks
            }
            try answer.addTypoMatches(bitmap: matches, years) { rank in
                var typos = 0
                for token in levels { typos += token.distance(of: rank) }
                return UInt16(clamping: typos)
            }
            return answer.result(query: query, mode: .typo)
        }
        // The filter first, as the ranks are read: only the passing ones are sorted, and the other tokens then
        // test only the candidates that pass it (read themselves through it when listed at once).
        if let passing, passing.count != CacheFormat.bitmapWordCount(movieCount: file.movieCount) {
            throw .corrupt(path: file.path, detail: "a bitmap set has the wrong size")
        }
        var matches = try collect(sources[spans[0].sources], passing: passing)
        for span in spans.dropFirst() where !matches.isEmpty {
            try keep(&matches, foundIn: sources[span.sources], passing: passing)
        }
        if matched != nil { matched = matches.map { UInt32(TypoMatch.rank(of: $0)) } }
        if matches.isEmpty { return nothing }
        // Room for as many years as there are matches, at most: a typo answer has few.
        var answer = AnswerBuilder(perYear: perYear, ranks: ranks, rankBases: rankBases, path: file.path,
                                   yearCount: min(years.count, matches.count))
        try answer.addTypoMatches(matches, years)
        return answer.result(query: query, mode: .typo)
    }

    /// A term range's ranks with the distance of its terms.
    typealias Source = (ranks: RankSource, distance: Int)

    /// The query's distinct tokens with their budgets and how often each is typed: a repeated token is looked up
    /// once, but its typos count as often as it is typed (the spec sums over the query's tokens). A token's bytes
    /// are copied once, when it is new (past eight tokens, also to look a repeat up); its scalars are made only for a
    /// walk.
    private struct TypoTokens: TokenConsumer {
        var tokens: [(bytes: [UInt8], budget: Int, repeats: Int, range: Range<Int>?)] = []
        /// A token's place in `tokens`, once there are many (a long query stays linear, not quadratic); a short
        /// query's few tokens are compared directly, without hashing or a table.
        var seen: [TokenKey: Int] = [:]
        /// The exact pass's ranges of the first tokens, in order, the token after them the one that begins no
        /// term (`runWithTypos(_:lookedUp:)`); nil when no token was found to begin no term.
        let lookedUp: [Range<Int>]?
        /// How many tokens have been read.
        var read = 0
        /// Whether the token that begins no term has no budget: then no title can match.
        var hopeless = false

        init(lookedUp: [Range<Int>]?) {
            self.lookedUp = lookedUp
            tokens.reserveCapacity(4)  // most queries: one allocation, not one per doubling
        }

        mutating func token(_ bytes: UnsafeBufferPointer<UInt8>) {
            let position = read
            read += 1
            let place: Int?
            var copied: [UInt8]?
            if tokens.count < 8 {
                place = tokens.firstIndex { $0.bytes.elementsEqual(bytes) }
            } else {
                if seen.isEmpty {
                    for (place, earlier) in tokens.enumerated() { seen[TokenKey(bytes: earlier.bytes)] = place }
                }
                let key = TokenKey(bytes: Array(bytes))
                place = seen[key]
                if place == nil {
                    seen[key] = tokens.count
                    copied = key.bytes
                }
            }
            if let place {
                tokens[place].repeats += 1
                return
            }
            let token = copied ?? Array(bytes)
            let budget = TypoBudget.edits(forToken: bytes)
            var range: Range<Int>?
            if let lookedUp {
                if position < lookedUp.count { range = lookedUp[position] }
                if position == lookedUp.count, budget == 0 { hopeless = true }
            }
            tokens.append((token, budget, 1, range))
        }
    }

    private static func cardinality(_ sources: ArraySlice<Source>) -> Int {
        sources.reduce(0) { $0 + $1.ranks.count }
    }

    /// The ranks of the union of `sources`, ascending, each with the smallest distance of a source that holds it,
    /// as match keys (`TypoMatch`); only those whose bits `passing` sets (a search's filters, covering every rank)
    /// when given: dropped before the sort, which costs most for the many ranks of a short token.
    private func collect(_ sources: ArraySlice<Source>, passing: [UInt64]? = nil) throws(CacheError) -> [UInt64] {
        let movieCount = file.movieCount
        var keys: [UInt64] = []
        keys.reserveCapacity(Self.cardinality(sources))
        for (source, distance) in sources {
            var ok: Bool
            switch source {
            case .coded(let list):
                ok = Self.append({ StoredList.coded(list).forEachRank($0) }, distance, below: movieCount,
                                 passing: passing, to: &keys)
            case .sorted(let list):
                ok = Self.append({ StoredList.packed(list).forEachRank($0) }, distance, below: movieCount,
                                 passing: passing, to: &keys)
            case .postings(let lists):
                ok = Self.append(lists.forEachRank, distance, below: movieCount, passing: passing, to: &keys)
            case .bitmap(let words, _):
                if let passing, passing.count != words.count {
                    throw .corrupt(path: file.path, detail: "a bitmap set has the wrong size")
                }
                for index in 0..<words.count {
                    var bits = words[index]
                    if let passing { bits &= passing[index] }
                    while bits != 0 {
                        keys.append(TypoMatch.key(rank: index << 6 | bits.trailingZeroBitCount, typos: distance))
                        bits &= bits - 1
                    }
                }
                ok = keys.last.map { TypoMatch.rank(of: $0) < movieCount } ?? true
            }
            guard ok else { throw .corrupt(path: file.path, detail: "rank out of range") }
        }
        // Sorted by rank, then distance: the first key of each rank is its best. One source read in order (an exact
        // token's list, a walk of one term, a bitmap) needs no sort; a list's repeats (only a damaged file has any)
        // are dropped all the same.
        if sources.count != 1 || !sources[sources.startIndex].ranks.isAscending { keys.sort() }
        var kept = 0
        for key in keys where kept == 0 || TypoMatch.rank(of: keys[kept - 1]) != TypoMatch.rank(of: key) {
            keys[kept] = key
            kept += 1
        }
        keys.removeLast(keys.count - kept)
        return keys
    }

    /// Appends the ranks `each` gives (those `passing` sets, when given) as match keys at `distance`; false when
    /// one is not below `limit` (a damaged file).
    @inline(__always)
    private static func append(_ each: ((UInt32) -> Bool) -> Void, _ distance: Int, below limit: Int,
                               passing: [UInt64]?, to keys: inout [UInt64]) -> Bool {
        var inRange = true
        guard let passing else {
            each { rank in
                guard Int(rank) < limit else { inRange = false; return false }
                keys.append(TypoMatch.key(rank: Int(rank), typos: distance))
                return true
            }
            return inRange
        }
        // `passing` covers every rank below `limit` (checked by the caller).
        each { rank in
            let rank = Int(rank)
            guard rank < limit else { inRange = false; return false }
            if passing[rank &>> 6] &>> UInt64(rank & 63) & 1 != 0 {
                keys.append(TypoMatch.key(rank: rank, typos: distance))
            }
            return true
        }
        return inRange
    }

    /// Keeps the candidates (match keys, ascending) that one of `sources` (ordered by distance) holds, adding the
    /// smallest distance of those that do to their typo count.
    ///
    /// A token of many small sources (a fuzzy token's terms), or of unmerged postings, is listed once and met with
    /// the candidates in one merge; otherwise each source in turn marks the candidates it holds that no nearer one
    /// did: a bit test each for a bitmap, a gallop through a list. Either way a candidate costs a few loads per
    /// source, and nothing is copied per candidate.
    ///
    /// `passing`: the filter's bits, which every candidate has set: a source listed at once keeps only those.
    private func keep(_ candidates: inout [UInt64], foundIn sources: ArraySlice<Source>,
                      passing: [UInt64]?) throws(CacheError) {
        let unsorted = sources.contains { if case .postings = $0.ranks { true } else { false } }
        if sources.count > 1 || unsorted, Self.cardinality(sources) <= 8 * candidates.count {
            let other = try collect(sources, passing: passing)
            var position = 0
            for candidate in candidates.indices {
                let rank = TypoMatch.rank(of: candidates[candidate])
                position = Self.firstKey(in: other, from: position, notBelow: rank)
                if position < other.count, TypoMatch.rank(of: other[position]) == rank {
                    candidates[candidate] = TypoMatch.found(candidates[candidate], TypoMatch.typos(of: other[position]))
                }
            }
        } else {
            for (source, distance) in sources {
                switch source {
                case .bitmap(let words, _):
                    for candidate in candidates.indices where !TypoMatch.isFound(candidates[candidate]) {
                        let rank = TypoMatch.rank(of: candidates[candidate])
                        if words[rank >> 6] >> UInt64(rank & 63) & 1 == 1 {
                            candidates[candidate] = TypoMatch.found(candidates[candidate], distance)
                        }
                    }
                case .coded(let list): Self.mark(&candidates, in: CodedRanks(list), distance)
                case .sorted(let list): Self.mark(&candidates, in: PositionedRanks(list), distance)
                case .postings:
                    // A large range without a stored set, met with few candidates: its ranks sorted first.
                    let sorted = try collect([(source, distance)][...], passing: passing)
                    var cursor = 0
                    for candidate in candidates.indices where !TypoMatch.isFound(candidates[candidate]) {
                        let rank = TypoMatch.rank(of: candidates[candidate])
                        cursor = Self.firstKey(in: sorted, from: cursor, notBelow: rank)
                        if cursor < sorted.count, TypoMatch.rank(of: sorted[cursor]) == rank {
                            candidates[candidate] = TypoMatch.found(candidates[candidate], distance)
                        }
                    }
                }
            }
        }
        var kept = 0
        for key in candidates where TypoMatch.isFound(key) {
            candidates[kept] = TypoMatch.settled(key)
            kept += 1
        }
        candidates.removeLast(candidates.count - kept)
    }

    /// The first position at or after `start` of a key of `keys` (ascending ranks) whose rank is at least `rank`.
    private static func firstKey(in keys: [UInt64], from start: Int, notBelow rank: Int) -> Int {
        var position = start
        while position < keys.count, TypoMatch.rank(of: keys[position]) < rank { position += 1 }
        return position
    }

    /// Gives `distance` to the candidates (match keys, ascending) that ascending `list` holds and no nearer source
    /// did: the list moved on to each (ranks asked for ascend, so it only moves forward).
    private static func mark<List: ForwardRanks>(_ candidates: inout [UInt64], in list: List, _ distance: Int) {
        var list = list
        for candidate in candidates.indices where !TypoMatch.isFound(candidates[candidate]) {
            let rank = TypoMatch.rank(of: candidates[candidate])
            list.skip(below: rank)
            if list.next == rank { candidates[candidate] = TypoMatch.found(candidates[candidate], distance) }
            if list.next == .max { break }
        }
    }
}
