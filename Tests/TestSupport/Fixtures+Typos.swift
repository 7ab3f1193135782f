import XCTest
import MovieSearch

extension Fixtures {
    /// A catalog for typo answers and match spans in the CLI's output: titles people misspell or type joined
    /// ("godfahter", "spiderman", "darkenss"), a title whose span lies after control characters, and titles whose
    /// UTF-16 offsets differ from their character offsets.
    ///
    /// Answers worked out from SPEC.md, for the tests that use them:
    /// - `godfather`: exact, ids 7 (1990), 1 (1974), 0 (1972); spans `[[11,20]]`, `[[4,13]]`, `[[4,13]]`.
    /// - `godfahter` (9 scalars, budget 2; one swap): typo, the same ids and spans, 1 typo each.
    /// - `dark kni`: exact, id 3, `[[4,8],[9,12]]`. `spiderman`: exact (a joined word), id 2, `[[0,10]]`.
    /// - `darkenss` (8 scalars, budget 1; one swap): typo, ids 4 (2013) and 5 (2002), spans `[[15,23]]` and
    ///   `[[0,8]]`, 1 typo each.
    package static let typos = Catalog(movies: [
        Movie(id: 0, title: "The Godfather", year: 1972, rating: 5, cast: ["Marlon Brando"], genres: ["Crime"]),
        Movie(id: 1, title: "The Godfather Part II", year: 1974, rating: 5),
        Movie(id: 2, title: "Spider-Man", year: 2002, rating: 4),
        Movie(id: 3, title: "The Dark Knight Rises", year: 2012, rating: 4),
        Movie(id: 4, title: "Star Trek Into Darkness", year: 2013, rating: 4),
        Movie(id: 5, title: "Darkness", year: 2002, rating: 2),
        Movie(id: 6, title: "Brüno", year: 2009, rating: nil),
        Movie(id: 7, title: "Evil\u{1B}]0;x\u{07} Godfather", year: 1990, rating: 1),
        Movie(id: 8, title: "X-Men", year: 2000, rating: 3),
        Movie(id: 9, title: "😀 Dark", year: 2020, rating: nil),
    ])

    /// Writes `catalog` to a cache in a temporary folder, for the built binary or an in-process run to read, and
    /// returns its path.
    package static func cache(_ catalog: Catalog, _ test: XCTestCase) throws -> String {
        let path = try TestPaths.temporaryFolder(test).appendingPathComponent("fixture.mscache").path
        _ = try CacheWriter.write(catalog, to: path)
        return path
    }
}
