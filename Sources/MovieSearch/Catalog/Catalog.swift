/// A decoded movie catalog: the valid movies in input order, and the invalid ones that were skipped.
public struct Catalog: Sendable {
    /// The valid movies, in input order. `movies[i].id` is the movie's position in the file, which differs from
    /// `i` once an invalid movie has been skipped.
    public var movies: [Movie]
    /// The invalid movies that were skipped (only with `skipInvalid`), each as the error it would have raised.
    public var skipped: [CatalogError]

    /// Creates a catalog from movies already in memory.
    public init(movies: [Movie], skipped: [CatalogError] = []) {
        self.movies = movies
        self.skipped = skipped
    }
}
