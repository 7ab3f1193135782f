/// The filters' values as text, read one way by every front end (the CLI's `--year`, `--min-rating`, `--min-critic`,
/// `--facets`; the API's `year`, `min_rating`, `min_critic`, `facets`), so that the two cannot drift apart.
public enum FilterValue {
    /// A year range: `Y`, `A..B`, `A..` or `..B`, whose start is not after its end; `nil` for anything else.
    ///
    ///     FilterValue.yearRange("1990..1999")  // (1990, 1999)
    ///     FilterValue.yearRange("..1960")      // (nil, 1960)
    ///     FilterValue.yearRange("1999..1990")  // nil
    public static func yearRange(_ text: String) -> (lowest: Int?, highest: Int?)? {
        func year(_ part: Substring) -> Int?? {
            if part.isEmpty { return .some(nil) }
            guard let value = Int(part, radix: 10), abs(value) <= 1_000_000_000 else { return nil }
            return .some(value)
        }
        let bytes = Array(text.utf8)
        if let dot = bytes.indices.first(where: { $0 + 1 < bytes.count && bytes[$0] == 0x2E && bytes[$0 + 1] == 0x2E }) {
            let start = text.utf8.index(text.startIndex, offsetBy: dot)
            let end = text.utf8.index(start, offsetBy: 2)
            guard let low = year(text[..<start]), let high = year(text[end...]), low != nil || high != nil else {
                return nil
            }
            if let low, let high, low > high { return nil }
            return (low, high)
        }
        guard let single = year(text[...]), let single else { return nil }
        return (single, single)
    }

    /// What `yearRange` takes, for an error message.
    public static let yearRangeExpectation = "a year Y or a range A..B, A.. or ..B whose start is not after its end"

    /// A minimum rating: a finite number; `nil` for anything else.
    public static func number(_ text: String) -> Double? {
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// What `number` takes, for an error message.
    public static let numberExpectation = "a number"

    /// The facets an answer may count (`--facets`, `facets=`): `genre` only.
    public static let facetNames = ["genre"]
}
