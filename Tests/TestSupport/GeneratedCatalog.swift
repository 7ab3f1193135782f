import Foundation

/// A large, invented, reproducible catalog for the robustness tests: the same seed always gives the same bytes.
///
/// Titles take one to five words from a vocabulary of made-up words (a few frequent, most rare, some with accents
/// or in scripts without spaces), so that prefix queries have answers of every size; years run from 1920 to 2025;
/// ratings are 1–5, sometimes fractional, one in ten absent; cast and genres are short lists.
package struct GeneratedCatalog {
    package var movies: Int
    package var seed: UInt64

    package init(movies: Int, seed: UInt64) {
        self.movies = movies
        self.seed = seed
    }

    /// Queries with answers of various sizes on any generated catalog (and one with none).
    package static let sampleQueries = ["ka", "to ri", "man del", "bru", "stra", "東京", "", "zzzz", "su ne or", "2"]

    /// The catalog as JSON (an object with a `movies` array), one movie per line.
    package func json() -> [UInt8] {
        var random = SplitMix64(seed: seed)
        let vocabulary = Self.vocabulary(&random)
        var out: [UInt8] = []
        out.reserveCapacity(movies * 140)
        out.append(contentsOf: "{\"movies\": [\n".utf8)
        for id in 0..<movies {
            if id > 0 { out.append(contentsOf: ",\n".utf8) }
            var title = ""
            for word in 0..<(1 + random.below(5)) {
                if word > 0 { title += " " }
                // Squaring skews the choice towards the start of the vocabulary: a few words are very common.
                let position = random.unit()
                title += vocabulary[Int(position * position * Double(vocabulary.count))]
            }
            if random.below(20) == 0 { title += " \(1 + random.below(12))" }
            out.append(contentsOf: "{\"title\": \"\(title)\", \"year\": \(1920 + random.below(106))".utf8)
            switch random.below(20) {
            case 0, 1: out.append(contentsOf: ", \"rating\": null".utf8)
            case 2: out.append(contentsOf: ", \"rating\": \(1 + random.below(4)).5".utf8)
            default: out.append(contentsOf: ", \"rating\": \(1 + random.below(5))".utf8)
            }
            let cast = (0..<random.below(5)).map { _ in
                "\"\(Self.firstNames[random.below(Self.firstNames.count)]) \(Self.lastNames[random.below(Self.lastNames.count)])\""
            }
            let genres = (0..<random.below(3)).map { _ in "\"\(Self.genres[random.below(Self.genres.count)])\"" }
            out.append(contentsOf: ", \"cast\": [\(cast.joined(separator: ", "))], \"genres\": [\(genres.joined(separator: ", "))]}".utf8)
        }
        out.append(contentsOf: "\n]}\n".utf8)
        return out
    }

    /// Writes the catalog to `path`.
    package func write(to path: String) throws {
        try Data(json()).write(to: URL(fileURLWithPath: path))
    }

    // MARK: Words

    private static let syllables = ["ka", "to", "ri", "man", "del", "su", "ne", "or", "ap", "li", "ve", "qu", "zo",
                                    "ber", "tin", "gal", "mo", "rex", "ul", "sha", "bru", "stra"]
    private static let unusual = ["Brüno", "Straße", "Café", "Ōkami", "Æon", "Don't", "東京物語", "Ναύς", "Ёлка", "½"]
    private static let firstNames = ["Ada", "Bela", "Chen", "Dario", "Eun", "Farah", "Göran", "Hana", "Ines", "José"]
    private static let lastNames = ["Abe", "Bauer", "Costa", "Dahl", "Eze", "Fujita", "García", "Holm", "Ivanova"]
    private static let genres = ["Drama", "Comedy", "Horror", "Western", "Documentary", "Animation", "Thriller"]

    /// About 12,000 distinct words, capitalized like titles, with the unusual ones near the common end.
    private static func vocabulary(_ random: inout SplitMix64) -> [String] {
        var seen = Set<String>()
        var words: [String] = []
        while words.count < 12_000 {
            let word = (0...random.below(4)).map { _ in syllables[random.below(syllables.count)] }.joined()
            if seen.insert(word).inserted { words.append(word.prefix(1).uppercased() + word.dropFirst()) }
        }
        for (offset, word) in unusual.enumerated() { words.insert(word, at: 5 + offset * 7) }
        return words
    }
}
