import MovieSearchCatalog

/// A movie someone marked as a favorite, as the favorites file keeps it: its id, title and year, and the ids
/// IMDb and TMDb give it when the catalog had them.
///
///     let favorite = Favorite(movie)          // from a movie of the open cache
///     favorite == Favorite(id: 745, title: "The Dark Knight Rises", year: 2012, imdbID: "tt1345836",
///                          tmdbID: 49026)
///
/// The id is where the movie was in the catalog the cache was built from, and a rebuilt cache may hold another
/// movie there; the IMDb and TMDb ids, else the title and year, are what find it again then (see
/// `FavoriteStore`).
public struct Favorite: Equatable, Hashable, Sendable {
    /// The movie's id when it was marked (or when the file was last saved).
    public var id: Int
    /// The movie's title, exactly as the catalog gave it.
    public var title: String
    /// The movie's year.
    public var year: Int
    /// The movie's IMDb id (`tt1345836`), when the catalog gave one.
    public var imdbID: String?
    /// The movie's TMDb id, when the catalog gave one.
    public var tmdbID: Int?

    /// A favorite from its parts.
    public init(id: Int, title: String, year: Int, imdbID: String? = nil, tmdbID: Int? = nil) {
        self.id = id
        self.title = title
        self.year = year
        self.imdbID = imdbID
        self.tmdbID = tmdbID
    }

    /// The favorite that marks `movie`: its id, title, year and external ids.
    public init(_ movie: Movie) {
        self.init(id: movie.id, title: movie.title, year: movie.year, imdbID: movie.imdbID, tmdbID: movie.tmdbID)
    }

    /// Whether `movie` is the movie this favorite names. An id both sides have decides: the same IMDb id, else
    /// (when one side has no IMDb id) the same TMDb id. Without one, the same title (canonically equivalent, as
    /// strings compare) and the same year. The movie id is not compared: ids move when a catalog changes.
    public func names(_ movie: Movie) -> Bool {
        if let decided = sameByExternalID(imdbID: movie.imdbID, tmdbID: movie.tmdbID) { return decided }
        return movie.year == year && movie.title == title
    }

    /// Whether a movie with these external ids is this favorite's movie as far as the ids tell: `true` or `false`
    /// when both sides have an IMDb id (else both a TMDb id), `nil` when no id is on both sides.
    func sameByExternalID(imdbID otherIMDb: String?, tmdbID otherTMDb: Int?) -> Bool? {
        if let imdbID, let otherIMDb { return imdbID == otherIMDb }
        if let tmdbID, let otherTMDb { return tmdbID == otherTMDb }
        return nil
    }
}
