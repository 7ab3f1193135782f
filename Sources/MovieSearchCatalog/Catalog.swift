/// A decoded movie catalog: the valid movies in input order, and the invalid ones that were skipped.
///
/// The movies are held column by column (`MovieColumns`), so that a catalog of IMDb's ten million titles fits in
/// a fraction of the memory an array of `Movie` values would take; `movies` makes those values when asked.
public struct Catalog: Sendable {
    /// The movies, as `CatalogBuilder` or `init(movies:skipped:)` stored them.
    package var columns: MovieColumns
    /// The invalid movies that were skipped (only with `skipInvalid`), each as the error it would have raised: the
    /// first `maximumSkippedKept` of them; `skippedCount` counts them all.
    public var skipped: [CatalogError]
    /// How many invalid movies were skipped (only with `skipInvalid`).
    public var skippedCount: Int

    /// The most skipped movies a catalog keeps the errors of: a catalog of millions of records with a field
    /// missing in many (IMDb's titles without a year) would otherwise hold an error message for each.
    public static let maximumSkippedKept = 1000
    /// The format the catalog was read in (`.json` for a catalog built in memory).
    public var format: CatalogFormat = .json
    /// Records left out by the options (IMDb titles of a type not asked for), not counting as invalid.
    public var filteredOut = 0
    /// Records dropped because they repeat an earlier one (a TMDb id on two overlapping pages; the first is kept).
    public var duplicates = 0
    /// The scale of the users' ratings when given (`index --rating-scale`), `nil` to take the smallest that holds
    /// them (`ratingScales`). A cache writer refuses a scale that some rating exceeds.
    public var ratingScale: RatingScale?
    /// The scale of the critics' ratings when given (a CSV column read with `--critic-scale`: 10, as the critics'
    /// ratings are stored on 0 to 10 whatever the column's scale), `nil` to take the smallest that holds them.
    public var criticRatingScale: RatingScale?

    /// Creates a catalog from movies already in memory.
    public init(movies: [Movie], skipped: [CatalogError] = []) {
        var columns = MovieColumns()
        columns.reserveCapacity(movies.count)
        for movie in movies { columns.append(movie) }
        self.init(columns: columns, skipped: skipped)
    }

    init(columns: MovieColumns, skipped: [CatalogError], skippedCount: Int? = nil) {
        self.columns = columns
        self.skipped = skipped
        self.skippedCount = skippedCount ?? skipped.count
    }

    /// The valid movies, in input order. `movies[i].id` is the movie's position in the file, which differs from
    /// `i` once an invalid movie has been skipped. Each read makes every `Movie` value anew (O(n)): for a count,
    /// use `movieCount`.
    public var movies: [Movie] {
        get { (0..<columns.count).map(columns.movie) }
        set { self = Catalog(movies: newValue, skipped: skipped, keeping: self) }
    }

    /// How many valid movies the catalog holds.
    public var movieCount: Int { columns.count }

    private init(movies: [Movie], skipped: [CatalogError], keeping other: Catalog) {
        self.init(movies: movies, skipped: skipped)
        skippedCount = other.skippedCount
        format = other.format
        filteredOut = other.filteredOut
        duplicates = other.duplicates
        ratingScale = other.ratingScale
        criticRatingScale = other.criticRatingScale
    }

    /// The scales the catalog's ratings are shown on: each the one given, else the smallest of 5, 10 and 100 that
    /// no rating of its kind exceeds (`RatingScale.smallest(fitting:)`). O(n).
    public var ratingScales: RatingScales {
        RatingScales(rating: ratingScale ?? RatingScale.smallest(fitting: highestRating?.rating),
                     critic: criticRatingScale ?? RatingScale.smallest(fitting: highestCriticRating?.rating))
    }

    /// The movie of the highest users' rating (the first in catalog order among equals), `nil` when no movie is
    /// rated: what a scale must hold. O(n).
    public var highestRating: (id: Int, rating: Double)? { highest(columns.rating) }

    /// The movie of the highest critics' rating, `nil` when no movie has one. O(n).
    public var highestCriticRating: (id: Int, rating: Double)? { highest(columns.criticRating) }

    /// The movie of the highest of `rating`, the first in catalog order among equals.
    private func highest(_ rating: (Int) -> Double?) -> (id: Int, rating: Double)? {
        var highest: (id: Int, rating: Double)?
        for index in 0..<columns.count {
            if let value = rating(index), value > highest?.rating ?? -.infinity { highest = (columns.ids[index], value) }
        }
        return highest
    }
}
