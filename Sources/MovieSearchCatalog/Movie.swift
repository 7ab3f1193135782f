/// One movie of a catalog, as the user sees it.
///
/// A movie's `id` is its position in the catalog file, counting from 0 (SPEC.md, "Catalogs"). Ids stay
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
    /// The title in its original language, when the catalog gives one that differs from `title` (TMDb's
    /// `original_title`, IMDb's `originalTitle`).
    public var originalTitle: String?
    /// A summary of the plot (TMDb's `overview`).
    public var overview: String?
    /// TMDb's `poster_path` (`/abc123.jpg`): the poster's URL is an image base URL, a size and this path.
    public var posterPath: String?
    /// The movie's id at TMDb.
    public var tmdbID: Int?
    /// The TMDb ids a catalog may give (`tmdb_id`, a TMDb dump's `id`): TMDb's ids are 32-bit, and a larger one is
    /// a bad record with its line rather than a movie the cache then cannot store. Not the range of the movie ids
    /// themselves (`CacheFormat.movieIDRange`).
    public static let tmdbIDRange = 0...Int(Int32.max)
    /// The movie's IMDb id (`tconst`, `tt0111161`).
    public var imdbID: String?
    /// The critics' rating, a number from 0 to 10 (a Metascore of 83 is 8.3); `nil` when the catalog gives none.
    /// Kept apart from `rating`, the users' rating: a movie may have either, both or neither.
    public var criticRating: Double?

    /// Creates a movie from its fields.
    public init(id: Int, title: String, year: Int, rating: Double?, cast: [String] = [], genres: [String] = [],
                originalTitle: String? = nil, overview: String? = nil, posterPath: String? = nil,
                tmdbID: Int? = nil, imdbID: String? = nil, criticRating: Double? = nil) {
        self.id = id
        self.title = title
        self.year = year
        self.rating = rating
        self.cast = cast
        self.genres = genres
        self.originalTitle = originalTitle
        self.overview = overview
        self.posterPath = posterPath
        self.tmdbID = tmdbID
        self.imdbID = imdbID
        self.criticRating = criticRating
    }
}
