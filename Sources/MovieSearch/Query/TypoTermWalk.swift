/// The terms a query token matches with typos (SEARCH-SPEC, "Typo tolerance"), found by walking the sorted term
/// dictionary with the optimal-string-alignment automaton, as ranges of term ids each with its prefix distance.
///
/// Only the terms that begin with the token's first scalar can match, and they form one range of the dictionary.
/// The walk goes through it in order; consecutive terms share prefixes, so the alignment rows of a shared prefix are
/// kept and only the rest of a term is pushed (`AlignmentRows`). As soon as a prefix's rows show that no longer
/// prefix can lower its distance (the row minimum has passed the budget, or the distance is already as low as it
/// can get), every term under that prefix has the same distance: the whole subtree is one range, found by
/// galloping, and the walk jumps past it. So the cost follows the prefixes within the budget's reach, not the
/// number of terms: a term that differs from the token in its third letter is never read beyond it.
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
        // Byte offset, in the current term, of the end of each scalar pushed for it.
        var scalarEnds: [Int] = []
        var term = bucket.lowerBound
        while term < bucket.upperBound {
            let text = try texts.bytes(of: term)
            // Keep the rows of the prefix this term shares with the rows' path.
            var offset = 0, shared = 0
            scalarEnds.removeAll(keepingCapacity: true)
            while shared < rows.depth, offset < text.count {
                let (scalar, end) = Self.scalar(in: text, at: offset)
                if scalar != rows.scalar(at: shared) { break }
                offset = end
                scalarEnds.append(end)
                shared += 1
            }
            rows.pop(to: shared)
            var next = term + 1
            var subtree: Range<Int>?
            while offset < text.count {
                let (scalar, end) = Self.scalar(in: text, at: offset)
                offset = end
                scalarEnds.append(end)
                rows.push(scalar)
                if !rows.canImprove {
                    let prefix = UnsafeRawBufferPointer(rebasing: text[..<end])
                    subtree = term..<(try Self.end(ofPrefix: prefix, from: term, in: texts))
                    break
                }
            }
            if let subtree {
                if rows.prefixDistance <= budget { found.append((subtree, rows.prefixDistance)) }
                next = subtree.upperBound
            } else if rows.prefixDistance <= budget {
                found.append((term..<(term + 1), rows.prefixDistance))
            }
            term = next
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
    /// binary search, so a small subtree costs a few comparisons.
    private static func end(ofPrefix prefix: UnsafeRawBufferPointer, from start: Int,
                            in texts: TermDictionary.Texts) throws(CacheError) -> Int {
        let limit = texts.ids.upperBound
        func hasPrefix(_ term: Int) throws(CacheError) -> Bool {
            let text = try texts.bytes(of: term)
            if text.count < prefix.count { return false }
            for position in 0..<prefix.count where text[position] != prefix[position] { return false }
            return true
        }
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
    }
}
