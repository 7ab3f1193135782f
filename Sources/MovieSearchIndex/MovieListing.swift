import MovieSearchCatalog

/// What a line of a human-readable answer shows of a movie: its id, title and rating, read from the cache without
/// the rest of the record (`MovieIndex.decodedListing(id:)`).
///
/// A one-query process (`moviesearch query`) lists a few dozen movies: decoding only these fields spares it the
/// cast and genre names, the optional fields and their strings, a few hundred allocations at each start.
package struct MovieListing: Sendable, Equatable {
    /// The movie's id.
    package var id: Int
    /// The title, as `Movie.title`.
    package var title: String
    /// The rating, as `Movie.rating`: `nil` when unrated.
    package var rating: Double?

    package init(id: Int, title: String, rating: Double?) {
        self.id = id
        self.title = title
        self.rating = rating
    }

    /// The listing of a decoded movie (tests, and callers that hold the whole movie).
    package init(_ movie: Movie) {
        self.init(id: movie.id, title: movie.title, rating: movie.rating)
    }
}
