/// What tells one movie of a cache apart from another of the same title: its id, its year, and the ids other
/// databases give it. `MovieRecords.identity(slot:years:)` reads it without the movie's title, lists or texts,
/// and keeps an IMDb id of the usual form as its number, so that a pass over millions of movies makes no string.
package struct MovieIdentity: Equatable, Sendable {
    /// The movie's id in this cache.
    package var id: Int
    /// The movie's year.
    package var year: Int
    /// Its TMDb id, when the catalog gave one.
    package var tmdbID: Int?
    /// Its IMDb id when it has the usual form (`tt0111161`), as `CacheFormat.imdbNumber(_:)` gives it.
    package var imdbNumber: UInt32?
    /// Its IMDb id when it has another form (kept as text by the cache).
    package var imdbText: String?

    /// Its IMDb id, when the catalog gave one.
    package var imdbID: String? {
        if let imdbNumber { return CacheFormat.imdbID(number: imdbNumber) }
        return imdbText
    }
}
