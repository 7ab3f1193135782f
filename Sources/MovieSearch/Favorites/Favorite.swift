/// A movie someone marked as a favorite, as the favorites file keeps it: its id, and its title and year.
///
///     let favorite = Favorite(movie)          // from a movie of the open cache
///     favorite == Favorite(id: 745, title: "The Dark Knight Rises", year: 2012)
///
/// The id is where the movie was in the catalog the cache was built from, and a rebuilt cache may hold another
/// movie there; the title and year are what find it again then (see `FavoriteStore`).
public struct Favorite: Equatable, Hashable, Sendable {
    /// The movie's id when it was marked (or when the file was last saved).
    public var id: Int
    /// The movie's title, exactly as the catalog gave it.
    public var title: String
    /// The movie's year.
    public var year: Int

    /// A favorite from its parts.
    public init(id: Int, title: String, year: Int) {
        self.id = id
        self.title = title
        self.year = year
    }

    /// The favorite that marks `movie`: its id, title and year.
    public init(_ movie: Movie) {
        self.init(id: movie.id, title: movie.title, year: movie.year)
    }

    /// Whether `movie` is the movie this favorite names: the same title (canonically equivalent, as strings
    /// compare) and the same year. The id is not compared: ids move when a catalog changes.
    public func names(_ movie: Movie) -> Bool {
        movie.year == year && movie.title == title
    }
}
