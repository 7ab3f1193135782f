/// A decoded movie catalog: the valid movies in input order, and the invalid ones that were skipped.
public struct Catalog: Sendable {
    /// The valid movies, in input order. `movies[i].id` is the movie's position in the file, which differs from
    /// `i` once an invalid movie has been skipped.
    public var movies: [Movie]
    /// The invalid movies that were skipped (only with `skipInvalid`), each as the error it would have raised.
    public var skipped: [CatalogError]
    /// The format the catalog was read in (`.json` for a catalog built in memory).
    public var format: CatalogFormat = .json
    /// Records left out by the options (IMDb titles of a type not asked for), not counting as invalid.
    public var filteredOut = 0
    /// Records dropped because they repeat an earlier one (a TMDb id on two overlapping pages; the first is kept).
    public var duplicates = 0

    /// Creates a catalog from movies already in memory.
    public init(movies: [Movie], skipped: [CatalogError] = []) {
        self.movies = movies
        self.skipped = skipped
    }
}
