import MovieSearch
@testable import MovieSearchOutput
import TestSupport
import XCTest

/// The order a cache's ranks hold (built by `CacheSections`, read by every search) and `AnswerOrder`'s comparison
/// (favorites outside the cache, browse's Favorites) are two writings of one rule (SEARCH-SPEC, Ranking): these
/// catalogs tie them, with the ties, unrated movies and signed zeros where the two could part.
final class AnswerOrderTests: XCTestCase {
    /// Every movie of `catalog` in the order its cache's search lists them (all of them, each year's in full),
    /// against `AnswerOrder.sorted` of the catalog's own movies.
    private func assertCacheRanksAsAnswerOrder(_ catalog: Catalog, file: StaticString = #filePath, line: UInt = #line)
        throws
    {
        let index = try Fixtures.index(catalog, self)
        let answer = try index.search("film", perYear: catalog.movies.count, typos: .off)
        XCTAssertEqual(answer.total, catalog.movies.count, "every title holds film", file: file, line: line)
        let ranked = answer.years.flatMap(\.movieIDs)
        let expected = AnswerOrder.sorted(catalog.movies).map(\.id)
        XCTAssertEqual(ranked, expected, file: file, line: line)
        // And the comparison agrees pair by pair with the ranks, not only as a sort's outcome.
        for (earlier, later) in zip(ranked, ranked.dropFirst()) {
            let movie = { (id: Int) in catalog.movies.first { $0.id == id }! }
            XCTAssertTrue(AnswerOrder.precedes(movie(earlier), movie(later)), "\(earlier) before \(later)",
                          file: file, line: line)
        }
    }

    func testTiesUnratedAndSignedZerosRankAlike() throws {
        // Ids given out of rating order; in 2001 two ties (7.5), a 0.0 and a -0.0 that tie, and two unrated.
        let movies: [(id: Int, year: Int, rating: Double?)] = [
            (0, 2001, nil), (1, 2001, 7.5), (2, 1999, 3.0), (3, 2001, -0.0), (4, 2001, 9.0), (5, 2001, 7.5),
            (6, 2001, 0.0), (7, 2001, nil), (8, 1999, nil), (9, 2002, 1.0), (10, 1999, 3.0), (11, -5, 2.0),
            (12, 2001, 0.0), (13, 2002, 1.0),
        ]
        try assertCacheRanksAsAnswerOrder(Catalog(movies: movies.map {
            Movie(id: $0.id, title: "Film \($0.id)", year: $0.year, rating: $0.rating)
        }))
    }

    func testAGeneratedCatalogRanksAlike() throws {
        // A fixed pseudo-random catalog: few years and few ratings, so that most movies tie with others.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let ratings: [Double?] = [nil, nil, 0.0, -0.0, 2.5, 5.0, 5.0, 7.25, 10.0]
        let movies = (0..<300).map { number in
            // Ids with gaps, so that an id and its slot differ.
            Movie(id: number * 3 + next(3), title: "Film \(number)", year: 1990 + next(6), rating: ratings[next(ratings.count)])
        }
        try assertCacheRanksAsAnswerOrder(Catalog(movies: movies))
    }
}
