import MovieSearchQuery

/// Filters in force as one short line of text, for `top`'s header and `browse`'s status line:
///
///     Drama · Comedy · 1990–1999 · cast Tom Hanks · rating ≥ 7 · critics ≥ 8
///
/// Names are shown as given, made safe for a terminal (`TerminalSafeText`).
package enum FilterSummary {
    /// `filters` as a line, empty when no filter is set.
    package static func text(_ filters: SearchFilters) -> String {
        var parts = filters.genres.map { TerminalSafeText.escaped($0) }
        switch (filters.lowestYear, filters.highestYear) {
        case let (low?, high?) where low == high: parts.append("\(low)")
        case let (low?, high?): parts.append("\(low)–\(high)")
        case let (low?, nil): parts.append("\(low)–")
        case let (nil, high?): parts.append("–\(high)")
        case (nil, nil): break
        }
        parts += filters.cast.map { "cast " + TerminalSafeText.escaped($0) }
        if let rating = filters.minimumRating { parts.append("rating ≥ \(number(rating))") }
        if let critic = filters.minimumCriticRating { parts.append("critics ≥ \(number(critic))") }
        return parts.joined(separator: " · ")
    }

    /// `7` for 7.0, `7.5` for 7.5.
    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
