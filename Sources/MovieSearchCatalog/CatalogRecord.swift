import MovieSearchJSON

/// One record as a reader parsed it, handed to `CatalogBuilder.add(_:names:)`: the title, the year and the rating
/// as the catalog wrote them and where they are, and the fields no check looks at.
///
/// A reader parses: it says whether a value is there and of the right kind (a number, a string, UTF-8 text), and
/// reports what is not as a `RecordProblem`. Whether a title is blank, a year a whole number a cache can store, and
/// a rating finite is for the builder to say (`RecordChecks`), in the same words for every format.
struct CatalogRecord {
    /// How a format names the fields the builder checks, for its messages: `title`, `primaryTitle`, a CSV column.
    struct FieldNames {
        var title: String
        var year: String
        var rating: String
        var criticRating = "critic_rating"
        /// The top of the critics' scale as the input writes it: 10, or 100 for a Metascore (stored divided by 10).
        var criticScale = 10
    }

    /// The title as written; the builder refuses an empty or blank one.
    var title: String
    /// The year as a whole number, or why it is none; the builder refuses a fraction and a year outside `Int32`.
    var year: JSONNumber.WholeValue
    /// The rating, or `nil` when the movie is unrated; the builder refuses one that is not finite (`1e999`).
    var rating: Double?
    /// The critics' rating, on the 0–10 scale (a 0–100 column already divided by 10).
    var criticRating: Double?
    // The fields no check looks at, kept as they are (see `Movie`).
    var cast: [String] = []
    var genres: [String] = []
    var originalTitle: String?
    var overview: String?
    var posterPath: String?
    var tmdbID: Int?
    var imdbID: String?
    /// Where the title is, as `RecordProblem.place` tells a place.
    var titlePlace: Int
    /// Where the year is.
    var yearPlace: Int
    /// Where the rating is.
    var ratingPlace: Int
    /// The year as written (a JSON literal, a TSV or CSV field), for a message that refuses it; empty for a year
    /// taken from a date's four digits, which is always one.
    var yearText = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    /// The rating as written, for a message that refuses it.
    var ratingText = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    /// Where the critics' rating is.
    var criticRatingPlace = 0
    /// The critics' rating as written, for a message that refuses it.
    var criticRatingText = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
}
