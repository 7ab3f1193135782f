import MovieSearchJSON

/// The checks every catalog format shares, each rule and its words written once: a title that is not blank, a year
/// that is a whole number a cache can store, a finite rating. `CatalogBuilder` makes them on every record a reader
/// hands it (`CatalogRecord`). A reader asks them itself only where its format decides something by them: TMDb
/// takes `original_title` when `title` is blank, and drops a blank overview; IMDb's ratings file, all or nothing, is
/// checked row by row as it is read, before any title.
///
/// A reason names the field as its format does (`field`) and shows the value as written (`written`), which is made
/// only for a value refused.
enum RecordChecks {
    /// Why a text is no title.
    enum Blankness: String {
        case empty = "empty"
        case whiteSpace = "only white space"
    }

    /// Whether `text` is empty or only Unicode white space, and which; `nil` when it has something to show. Most
    /// titles start with a printable ASCII character, which answers without a look-up in the Unicode tables.
    static func blankness(of text: String) -> Blankness? {
        guard let first = text.utf8.first else { return .empty }
        if first > 0x20 && first < 0x80 { return nil }
        return text.unicodeScalars.allSatisfy(\.properties.isWhitespace) ? .whiteSpace : nil
    }

    /// Whether `text` is empty or only Unicode white space.
    static func isBlank(_ text: String) -> Bool {
        blankness(of: text) != nil
    }

    /// `title is empty`, `primaryTitle is only white space`.
    static func titleProblem(_ title: String, field: String) -> String? {
        blankness(of: title).map { "\(field) is \($0.rawValue)" }
    }

    /// The years a cache stores (32-bit), and so the years a catalog may give.
    static let years = Int(Int32.min)...Int(Int32.max)

    /// The year `value` stands for, when it is a whole number a cache stores; else `yearRefusal` says why not.
    static func year(_ value: JSONNumber.WholeValue) -> Int? {
        if case .value(let year) = value, years.contains(year) { return year }
        return nil
    }

    /// Why `year(_:)` refuses `value`: `year must be a whole number, got 2010.5`, `startYear "3000000000" is out of
    /// range (-2147483648 to 2147483647)`.
    static func yearRefusal(_ value: JSONNumber.WholeValue, field: String, written: String) -> String {
        if case .fraction = value { return "\(field) must be a whole number, got \(written)" }
        return "\(field) \(written) is out of range (\(years.lowerBound) to \(years.upperBound))"
    }

    /// `rating must be a finite number, got 1e999`: any other number is a rating (SPEC.md, "Catalogs").
    static func ratingProblem(_ rating: Double, field: String, written: @autoclosure () -> String) -> String? {
        rating.isFinite ? nil : "\(field) must be a finite number, got \(written())"
    }

    /// The scale of a critics' rating: 0 to 10, as the cache stores it (a Metascore is divided by 10 first).
    static let criticRatings = 0.0...10.0

    /// Why `rating`, a critics' rating on the 0–10 scale, is refused: outside it (or not a number at all). The
    /// message names the scale the input wrote it on (`metascore must be from 0 to 100, got 830`).
    static func criticRatingProblem(_ rating: Double, field: String, scale: Int,
                                    written: @autoclosure () -> String) -> String? {
        criticRatings.contains(rating) ? nil : "\(field) must be from 0 to \(scale), got \(written())"
    }
}
