@testable import MovieSearchCatalog
import XCTest

/// `MovieColumns`: what the indexer's jobs on other cores hold of a catalog.
final class MovieColumnsTests: XCTestCase {
    /// `withoutTitles()` lets the titles go and keeps every other column, so that a job reading the names, the
    /// genres or the optional fields answers as it would from the whole catalog.
    func testWithoutTitlesKeepsEveryOtherColumn() {
        let movies = [
            Movie(id: 7, title: "Alpha", year: 1999, rating: 8.5, cast: ["Ann Lee", "Bo Ma"], genres: ["Drama"],
                  originalTitle: "Alfa", tmdbID: 70, imdbID: "tt0000007", criticRating: 6),
            Movie(id: 9, title: "Beta Gamma", year: 2001, rating: nil, cast: [], genres: ["Drama", "Comedy"]),
        ]
        let columns = Catalog(movies: movies).columns
        let kept = columns.withoutTitles()
        XCTAssertEqual(kept.titles.bytes, [], "the titles are let go")
        XCTAssertEqual(columns.titles.bytes, Array("AlphaBeta Gamma".utf8), "the catalog's own columns are unchanged")
        XCTAssertEqual(kept.count, 2)
        XCTAssertEqual(kept.ids, columns.ids)
        XCTAssertEqual(kept.years, columns.years)
        XCTAssertEqual(kept.names, columns.names)
        XCTAssertEqual(kept.lists, columns.lists)
        XCTAssertEqual(kept.listStarts, columns.listStarts)
        XCTAssertEqual(kept.castCounts, columns.castCounts)
        XCTAssertEqual(kept.tmdbIDs, columns.tmdbIDs)
        XCTAssertEqual(kept.criticRatings, columns.criticRatings)
        for slot in 0..<2 {
            XCTAssertEqual(kept.originalTitles.bytes(slot), columns.originalTitles.bytes(slot))
            XCTAssertEqual(kept.imdbIDs.bytes(slot), columns.imdbIDs.bytes(slot))
        }
    }
}
