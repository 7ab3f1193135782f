/// The web pages of a movie at TMDb and IMDb, from the ids a catalog gives (`show` prints them beside the ids).
///
///     MovieLinks.tmdb(id: 603)             // https://www.themoviedb.org/movie/603
///     MovieLinks.imdb(id: "tt0133093")     // https://www.imdb.com/title/tt0133093/
package enum MovieLinks {
    /// The movie's page at TMDb.
    package static func tmdb(id: Int) -> String {
        "https://www.themoviedb.org/movie/\(id)"
    }

    /// The title's page at IMDb, for its `tconst`, as it is (IMDb's own links end with a `/`).
    package static func imdb(id: String) -> String {
        "https://www.imdb.com/title/\(id)/"
    }
}
