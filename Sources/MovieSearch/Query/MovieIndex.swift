/// An opened cache file, ready to answer queries. (STUB: being implemented; signatures are final.)
public final class MovieIndex: Sendable {
    /// The path the cache was opened from.
    public let path: String

    /// Maps the cache at `path` and checks its header. Throws `CacheError`.
    public init(path: String) throws {
        self.path = path
        fatalError("not implemented yet")
    }

    /// Number of movies in the cache.
    public var movieCount: Int { fatalError("not implemented yet") }
    /// Number of distinct title tokens.
    public var tokenCount: Int { fatalError("not implemented yet") }
    /// Size of the cache file in bytes.
    public var fileSize: Int { fatalError("not implemented yet") }

    /// Answers a word-prefix query; `perYear` (≥ 0) caps the movies listed per year.
    public func search(_ query: String, perYear: Int = 5) throws -> SearchResult { fatalError("not implemented yet") }

    /// The movie with this id. Throws `CacheError.noSuchMovie` for an id the cache does not hold.
    public func movie(id: Int) throws -> Movie { fatalError("not implemented yet") }

    /// The `limit` best-rated movies over all years: rating descending, unrated last, lower id first on ties.
    public func topRated(limit: Int) throws -> [Movie] { fatalError("not implemented yet") }
}
