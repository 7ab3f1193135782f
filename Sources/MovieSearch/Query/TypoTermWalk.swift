/// The terms a query token matches with typos (SEARCH-SPEC, "Typo tolerance"), found by walking the sorted term
/// dictionary with the optimal-string-alignment automaton, as ranges of term ids each with its prefix distance.
///
/// Only the terms that begin with the token's first scalar can match, and they form one range of the dictionary.
/// The walk goes through it in order; consecutive terms share prefixes, so the alignment rows of a shared prefix are
/// kept and only the rest of a term is pushed (`AlignmentRows`). As soon as a prefix's rows show that no longer
/// prefix can lower its distance (the row minimum has passed the budget, or the distance is already as low as it
/// can get), every term under that prefix has the same distance: the whole subtree is one range. Its first terms
/// are passed over one by one, a byte comparison each and no row (most such subtrees hold a term or two); past
/// eight, the walk gallops to the subtree's end. So the cost follows the prefixes within the budget's reach: a term
/// that differs from the token early is never read beyond the shared prefix and the letter where it settles.
struct TypoTermWalk {
    let dictionary: TermDictionary
    let path: String

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
            let pathBytes = rows.depth > 0 ? rows.tag(of: rows.depth) : 0
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
            while shared > 0, rows.tag(of: shared) > common { shared -= 1 }
            rows.pop(to: shared)
            pathText = text
            var offset = shared > 0 ? rows.tag(of: shared) : 0
            while offset < text.count {
                let (scalar, end) = Self.scalar(in: text, at: offset)
                offset = end
                rows.push(scalar, tag: end)
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

    /// The scalar at byte `offset` of a term and the offset after it. Terms are valid UTF-8 (the writer stores
    /// tokens); in a damaged file a stray byte stands for itself, offset past the scalar range so that it never
    /// equals a query scalar, and the walk goes on without reading out of bounds.
    @inline(__always)
    private static func scalar(in text: UnsafeRawBufferPointer, at offset: Int) -> (UInt32, Int) {
        let lead = text[offset]
        if lead < 0x80 { return (UInt32(lead), offset + 1) }
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0
        guard length > 0, offset + length <= text.count else { return (0x110000 + UInt32(lead), offset + 1) }
        var scalar = UInt32(lead) & (0x7F >> length)
        for position in (offset + 1)..<(offset + length) {
            let continuation = text[position]
            guard continuation & 0xC0 == 0x80 else { return (0x110000 + UInt32(lead), offset + 1) }
            scalar = scalar << 6 | UInt32(continuation & 0x3F)
        }
        return (scalar, offset + length)
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
