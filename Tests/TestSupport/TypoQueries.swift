import MovieSearch

/// Queries with typos made from real titles, as a person mistypes them: in a title word of 5 letters or more, one or
/// two edits (swap two adjacent letters, drop one, double one, replace one), never on the first letter.
/// Deterministic for a seed (`SplitMix64`).
///
/// A query is the mistyped word alone, or after another word of the same title, or before a prefix of another, so
/// that multi-token typo answers are exercised too. The queries are not filtered on whether they find something
/// exactly: tests compare the engine with the reference either way.
package enum TypoQueries {
    /// `count` queries made from the titles of `catalog` (fewer if it has no word to mistype).
    package static func make(from catalog: Catalog, count: Int, seed: UInt64) -> [String] {
        var random = SplitMix64(seed: seed)
        let titles = catalog.movies.map { Tokenizer.tokens(in: $0.title).map { Array($0.unicodeScalars) } }
            .filter { $0.contains(where: isMistypable) }
        guard !titles.isEmpty else { return [] }
        var queries: [String] = []
        while queries.count < count {
            let words = titles[random.below(titles.count)]
            let candidates = words.indices.filter { isMistypable(words[$0]) }
            let position = candidates[random.below(candidates.count)]
            var word = words[position]
            for _ in 0...random.below(2) { mistype(&word, &random) }
            var query = String(String.UnicodeScalarView(word))
            let other = words.indices.filter { $0 != position }
            if !other.isEmpty && random.below(3) == 0 {
                let neighbour = words[other[random.below(other.count)]]
                if random.below(2) == 0 {
                    query = String(String.UnicodeScalarView(neighbour)) + " " + query
                } else {
                    query += " " + String(String.UnicodeScalarView(neighbour.prefix(1 + random.below(neighbour.count))))
                }
            }
            queries.append(query)
        }
        return queries
    }

    /// A word of 5 letters or more (letters only: a word with a digit has no typo budget).
    private static func isMistypable(_ word: [Unicode.Scalar]) -> Bool {
        word.count >= 5 && word.allSatisfy { $0.properties.isAlphabetic }
    }

    /// One edit anywhere but on the first letter.
    private static func mistype(_ word: inout [Unicode.Scalar], _ random: inout SplitMix64) {
        let letters = Array("abcdefghijklmnopqrstuvwxyz".unicodeScalars)
        let position = 1 + random.below(word.count - 1)
        switch random.below(4) {
        case 0 where position + 1 < word.count: word.swapAt(position, position + 1)
        case 1 where word.count > 2: word.remove(at: position)
        case 2: word.insert(word[position], at: position)
        default: word[position] = letters[random.below(letters.count)]
        }
    }
}
