import XCTest
import MovieSearch

/// Small catalogs and caches for engine tests.
package enum Fixtures {
    /// A catalog that exercises ranking: several years, equal ratings, unrated movies, fractional and negative
    /// ratings, shared title words and prefixes, accents and apostrophes.
    package static let small = Catalog(movies: [
        Movie(id: 0, title: "The Dark Knight", year: 2012, rating: 5, cast: ["Christian Bale", "Heath Ledger"], genres: ["Action"]),
        Movie(id: 1, title: "Dark Shadows", year: 2012, rating: 3),
        Movie(id: 2, title: "Darkest Hour", year: 2017, rating: nil, genres: ["Drama", "History"]),
        Movie(id: 3, title: "Star Trek Into Darkness", year: 2013, rating: 4, cast: ["Chris Pine"]),
        Movie(id: 4, title: "Fifty Shades Darker", year: 2017, rating: 1),
        Movie(id: 5, title: "The Dark Tower", year: 2017, rating: 4.5),
        Movie(id: 6, title: "Knight and Day", year: 2010, rating: 3),
        Movie(id: 7, title: "Brüno", year: 2009, rating: -2, cast: ["Sacha Baron Cohen"]),
        Movie(id: 8, title: "Don't Breathe", year: 2016, rating: 3),
        Movie(id: 9, title: "(500) Days of Summer", year: 2009, rating: 3, cast: ["Zooey Deschanel", "Joseph Gordon-Levitt"]),
        Movie(id: 10, title: "Dark Places", year: 2012, rating: 3),
        Movie(id: 11, title: "Knight of Cups", year: 2012, rating: nil),
        Movie(id: 12, title: "The Dark", year: 2012, rating: 3),
        Movie(id: 13, title: "Dark Matter", year: 2012, rating: 3),
        Movie(id: 14, title: "Dark Skies", year: 2012, rating: 3),
        Movie(id: 15, title: "!!!", year: 1999, rating: nil),
    ])

    /// Writes `catalog` to a cache in a temporary folder and opens it.
    package static func index(_ catalog: Catalog, _ test: XCTestCase) throws -> MovieIndex {
        let path = try TestPaths.temporaryFolder(test).appendingPathComponent("test.mscache").path
        _ = try CacheWriter.write(catalog, to: path)
        return try MovieIndex(path: path)
    }
}
