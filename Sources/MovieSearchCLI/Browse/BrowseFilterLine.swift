import MovieSearchQuery
import MovieSearchText

/// `browse`'s filter line (Ctrl-G): the filters of `query` and `top` typed as `key:value` pairs, each value read
/// as the matching command-line option reads it (`YearFilter`, `FilterNumber`):
///
///     genre:Drama genre:Science Fiction year:1990..1999 rating:7 critic:8 cast:Tom Hanks
///
/// A value runs to the next `key:` (so names may hold spaces); an empty line clears every filter.
enum BrowseFilterLine {
    /// The keys, in the order `text(_:)` writes them.
    static let keys = ["genre", "year", "cast", "rating", "critic"]

    /// Why a filter line could not be read, as one line for the summary.
    struct ParseError: Error, Equatable {
        var message: String
    }

    /// The filters `line` gives.
    static func parse(_ line: String) throws(ParseError) -> SearchFilters {
        var filters = SearchFilters()
        var seenYear = false, seenRating = false, seenCritic = false
        for (key, value) in try pairs(line) {
            guard !value.isEmpty else { throw ParseError(message: "'\(key):' needs a value") }
            switch key {
            case "genre": filters.genres.append(value)
            case "cast": filters.cast.append(value)
            case "year":
                guard !seenYear, let years = YearFilter(argument: value) else {
                    throw ParseError(message: seenYear ? "give year: once" : "year: '\(value)' is not "
                        + YearFilter.expectation)
                }
                seenYear = true
                (filters.lowestYear, filters.highestYear) = (years.lowest, years.highest)
            default:
                let critic = key == "critic"
                guard !(critic ? seenCritic : seenRating), let number = FilterNumber(argument: value) else {
                    throw ParseError(message: (critic ? seenCritic : seenRating) ? "give \(key): once"
                        : "\(key): '\(value)' is not \(FilterNumber.expectation)")
                }
                if critic { seenCritic = true; filters.minimumCriticRating = number.value }
                else { seenRating = true; filters.minimumRating = number.value }
            }
        }
        return filters
    }

    /// `filters` as a line `parse(_:)` reads back, to edit the filters in force.
    static func text(_ filters: SearchFilters) -> String {
        var parts = filters.genres.map { "genre:\($0)" }
        switch (filters.lowestYear, filters.highestYear) {
        case let (low?, high?) where low == high: parts.append("year:\(low)")
        case let (low, high) where low != nil || high != nil:
            parts.append("year:" + (low.map(String.init) ?? "") + ".." + (high.map(String.init) ?? ""))
        default: break
        }
        parts += filters.cast.map { "cast:\($0)" }
        if let rating = filters.minimumRating { parts.append("rating:\(number(rating))") }
        if let critic = filters.minimumCriticRating { parts.append("critic:\(number(critic))") }
        return parts.joined(separator: " ")
    }

    /// `line` with its last value completed when it is a `genre:` that starts one of `genres` (case, accents and
    /// spacing aside): the first such genre in `genres`' order, the line's spacing made single; `nil` when nothing
    /// completes.
    static func completingGenre(_ line: String, among genres: [String]) -> String? {
        guard var pairs = try? pairs(line), let last = pairs.last, last.key == "genre" else { return nil }
        let typed = NameFolding.fold(last.value)
        guard let genre = genres.first(where: { NameFolding.fold($0).hasPrefix(typed) }), genre != last.value else {
            return nil
        }
        pairs[pairs.count - 1].value = genre
        return pairs.map { "\($0.key):\($0.value)" }.joined(separator: " ")
    }

    /// The `key:value` pairs of `line`, values trimmed; text before the first key is an error.
    private static func pairs(_ line: String) throws(ParseError) -> [(key: String, value: String)] {
        let words = line.split(separator: " ", omittingEmptySubsequences: true)
        var pairs: [(key: String, value: String)] = []
        for word in words {
            if let colon = word.firstIndex(of: ":"), keys.contains(word[..<colon].lowercased()) {
                pairs.append((word[..<colon].lowercased(), String(word[word.index(after: colon)...])))
            } else if !pairs.isEmpty {
                let value = pairs[pairs.count - 1].value
                pairs[pairs.count - 1].value = value.isEmpty ? String(word) : value + " " + word
            } else {
                throw ParseError(message: "'\(word)' is no filter: write genre:, year:, cast:, rating: or critic:")
            }
        }
        return pairs
    }

    /// `7` for 7.0, `7.5` for 7.5.
    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
