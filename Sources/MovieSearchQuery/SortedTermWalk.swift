@_spi(Engine) import MovieSearchIndex

/// The typo walk of a letter's terms in dictionary order, without a trie (SPEC.md, "Typos"): used for
/// the first walk of each first scalar (`TypoTermWalk`), so that a process that answers one query (the CLI) does
/// not build a trie it will use once. Its answer is the same as the trie walk's: the same terms at the same
/// distances (the ranges they come in may be cut differently).
///
/// The walk goes through the bucket in order; consecutive terms share prefixes, so the alignment rows of a shared
/// prefix are kept and only the rest of a term is pushed (`AlignmentRows`). As soon as a prefix's rows show that
/// no longer prefix can lower its distance, every term under that prefix has the same distance: the whole subtree
/// is one range. Its first terms are passed over one by one, a byte comparison each and no row (most such subtrees
/// hold a term or two); past eight, the walk gallops to the subtree's end.
struct SortedTermWalk {
    let dictionary: TermDictionary

    /// The term ranges that `token` (its scalars and UTF-8 bytes) matches within `budget` edits (at least 1),
    /// disjoint and ascending, each with the prefix distance of all its terms. A subtree stays one range, not
    /// joined with its neighbours, so that its stored prefix set answers for it.
    func matches(of token: [UInt32], bytes: UnsafeBufferPointer<UInt8>, budget: Int) throws(CacheError)
        -> [(terms: Range<Int>, distance: Int)]
    {
        var firstLength = 1
        while firstLength < bytes.count, bytes[firstLength] & 0xC0 == 0x80 { firstLength += 1 }
        let bucket = try dictionary.range(ofPrefix: UnsafeBufferPointer(rebasing: bytes[..<firstLength]))
        if bucket.isEmpty { return [] }
        let texts = try dictionary.texts(of: bucket)
        var rows = AlignmentRows(query: token, budget: budget)
        // Per row (1...depth): the byte offset in `pathText` where its scalar ends.
        var tags = [Int](repeating: 0, count: 32)
        var found: [(terms: Range<Int>, distance: Int)] = []
        // The term the rows' path was read from; each row's tag is the byte offset in it where its scalar ends.
        var pathText = UnsafeRawBufferPointer(start: nil, count: 0)
        // Whether the rows end at a settled prefix (one no longer prefix can improve on): the terms that extend it
        // form its subtree, all at the same distance, and are passed over without a row pushed.
        var settled = false
        var passedOver = 0
        var term = bucket.lowerBound
        // Each term's end is the next one's start: one offset read per term.
        var start = texts.start(of: term)
        while term < bucket.upperBound {
            let textEnd = texts.start(of: term + 1)
            let text = try texts.bytes(from: start, to: textEnd)
            start = textEnd
            // Keep the rows of the scalars this term shares with the path: compare bytes, then keep the scalars
            // that end within the common bytes (valid UTF-8 on both sides up to there).
            let pathBytes = rows.depth > 0 ? tags[rows.depth] : 0
            let limit = min(pathBytes, text.count)
            var common = 0
            while common < limit, text[common] == pathText[common] { common += 1 }
            if settled {
                if common == pathBytes {
                    // In the settled subtree. Most hold a term or two; past a few, gallop to the subtree's end.
                    passedOver += 1
                    var end = term + 1
                    if passedOver == 8 {
                        end = try Self.end(ofPrefix: UnsafeRawBufferPointer(rebasing: pathText[..<pathBytes]),
                                           from: term, in: texts)
                    }
                    if rows.prefixDistance <= budget {
                        found[found.count - 1].terms = found[found.count - 1].terms.lowerBound..<end
                    }
                    if end != term + 1, end < bucket.upperBound { start = texts.start(of: end) }
                    term = end
                    continue
                }
                settled = false
            }
            var shared = rows.depth
            while shared > 0, tags[shared] > common { shared -= 1 }
            rows.pop(to: shared)
            pathText = text
            var offset = shared > 0 ? tags[shared] : 0
            while offset < text.count {
                let (scalar, end) = TypoTrie.scalar(in: text, at: offset)
                offset = end
                rows.push(scalar)
                if rows.depth == tags.count { tags += tags }
                tags[rows.depth] = end
                if !rows.canImprove {
                    settled = true
                    passedOver = 0
                    break
                }
            }
            if rows.prefixDistance <= budget { found.append((term..<(term + 1), rows.prefixDistance)) }
            term += 1
        }
        return found
    }

    /// The first term after `start` (which begins with `prefix`) that does not begin with `prefix`: gallop, then
    /// binary search, so a large subtree costs a few comparisons.
    private static func end(ofPrefix prefix: UnsafeRawBufferPointer, from start: Int,
                            in texts: TermDictionary.Texts) throws(CacheError) -> Int {
        let limit = texts.ids.upperBound
        var low = start, step = 1
        while low + step < limit, try hasPrefix(low + step) {
            low += step
            step *= 2
        }
        var high = min(low + step, limit)
        low += 1
        while low < high {
            let middle = (low + high) / 2
            if try hasPrefix(middle) { low = middle + 1 } else { high = middle }
        }
        return low

        @inline(__always)
        func hasPrefix(_ term: Int) throws(CacheError) -> Bool {
            let text = try texts.bytes(of: term)
            if text.count < prefix.count { return false }
            for position in 0..<prefix.count where text[position] != prefix[position] { return false }
            return true
        }
    }
}
