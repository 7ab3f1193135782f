import MovieSearchCatalog

/// What one change of the favorites did (`FavoritesSession.add(_:)`, `remove(id:)`, `toggle(_:)`): the answer
/// `favorites add` and `remove` print and the server's `PUT` and `DELETE` return (`FavoritesOutput`,
/// `FavoriteChangeText`).
public struct FavoriteChange: Equatable, Sendable {
    /// What was asked.
    public enum Action: String, Sendable {
        /// Make the movie a favorite (the answer's member `added`).
        case add = "added"
        /// Make it no favorite (the answer's member `removed`).
        case remove = "removed"
    }

    /// What was asked.
    public var action: Action
    /// The movie's id in the cache.
    public var id: Int
    /// The cache's movie with that id; nil when the cache holds none (a `remove` of an id no movie has).
    public var movie: Movie?
    /// The entry added or removed; nil when the change changed nothing (a favorite already, or no favorite).
    public var entry: Favorite?

    public init(action: Action, id: Int, movie: Movie?, entry: Favorite?) {
        self.action = action
        self.id = id
        self.movie = movie
        self.entry = entry
    }

    /// Whether the favorites changed (and, for a file, were saved).
    public var changed: Bool { entry != nil }

    /// Whether the movie is a favorite now.
    public var isFavorite: Bool { action == .add }
}
