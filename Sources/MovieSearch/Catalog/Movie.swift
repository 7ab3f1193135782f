/// One movie of a catalog, as the user sees it.
///
/// A movie's `id` is its position in the catalog file, counting from 0 (SEARCH-SPEC, "Input catalog"). Ids stay
/// stable when invalid movies are skipped: the movie after a skipped one keeps its own position.
public struct Movie: Sendable, Hashable {
    /// Position in the input catalog, counting from 0.
    public var id: Int
    /// The title as written in the catalog (not folded, not trimmed).
    public var title: String
    /// Release year.
    public var year: Int
    /// Any finite number, or `nil` when the movie is unrated.
    public var rating: Double?
    /// Cast members in catalog order; empty when the catalog gave none.
    public var cast: [String]
    /// Genres in catalog order; empty when the catalog gave none.
    public var genres: [String]

    /// Creates a movie from its fields.
    public init(id: Int, title: String, year: Int, rating: Double?, cast: [String] = [], genres: [String] = []) {
        self.id = id
        self.title = title
        self.year = year
        self.rating = rating
        self.cast = cast
        self.genres = genres
    }
}
