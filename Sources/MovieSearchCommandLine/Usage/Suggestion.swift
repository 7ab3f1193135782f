/// "Did you mean …?" for a mistyped word of the tool's own (a subcommand, an option), as git and cargo suggest:
/// the known words closest to it by edit distance, when one is close enough to be what was meant.
package enum Suggestion {
    /// The known words nearest to `word`, or an empty list when none is close.
    ///
    /// Close means at most one edit for a word of up to 4 letters and at most two for a longer one (an edit adds,
    /// drops or replaces a letter, or swaps two neighbours: `qeury` is one from `query`), or `word` being the start
    /// of exactly one known word (`que` for `query`). Ties are all returned, in `candidates`' order.
    package static func closest(to word: String, among candidates: [String]) -> [String] {
        let typed = Array(word.lowercased().unicodeScalars)
        guard !typed.isEmpty else { return [] }
        let limit = typed.count <= 4 ? 1 : 2
        var best: [String] = []
        var bestDistance = limit + 1
        for candidate in candidates where candidate != word {
            let distance = editDistance(typed, Array(candidate.unicodeScalars), limit: limit)
            if distance > limit { continue }
            if distance < bestDistance {
                best = [candidate]
                bestDistance = distance
            } else if distance == bestDistance, !best.contains(candidate) {
                best.append(candidate)
            }
        }
        if best.isEmpty, typed.count >= 2 {
            let starting = candidates.filter { $0.lowercased().hasPrefix(word.lowercased()) && $0 != word }
            if starting.count == 1 { best = starting }
        }
        return best
    }

    /// `; did you mean 'query'?` (or `'a' or 'b'`) to append to a message, or nothing.
    package static func phrase(for word: String, among candidates: [String]) -> String {
        let found = closest(to: word, among: candidates).map { "'\($0)'" }
        guard let last = found.last else { return "" }
        let listed = found.count == 1 ? last : found.dropLast().joined(separator: ", ") + " or " + last
        return "; did you mean \(listed)?"
    }

    /// The optimal-string-alignment distance (Damerau–Levenshtein without repeated edits of one substring) of
    /// `a` and `b`, or `limit + 1` for anything above `limit` (words of lengths further apart need not be
    /// compared).
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int {
        if abs(a.count - b.count) > limit { return limit + 1 }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            current[0] = i
            for j in 1...max(b.count, 1) where !b.isEmpty {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, before[j - 2] + 1)
                }
                current[j] = value
            }
            (before, previous, current) = (previous, current, before)
        }
        return min(a.isEmpty ? b.count : previous[b.count], limit + 1)
    }
}
