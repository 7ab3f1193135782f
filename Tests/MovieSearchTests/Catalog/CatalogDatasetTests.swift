import Foundation
import MovieSearch
@testable import MovieSearchCatalog
import TestSupport
import XCTest

/// The shared datasets (`../shared/data`), decoded (once per test process, `SharedData.catalog`) and checked against
/// Foundation's `JSONSerialization`, an independent parser, movie by movie and field by field.
final class CatalogDatasetTests: XCTestCase {
    func testDecadeCatalog() throws {
        let path = try Requirement.sharedData("data/movies.json")
        let catalog = try SharedData.catalog("movies.json")
        XCTAssertEqual(catalog.movies.count, 2272)
        XCTAssertEqual(catalog.skipped, [])
        XCTAssertEqual(catalog.movies.first, Movie(id: 0, title: "(500) Days of Summer", year: 2009, rating: 1,
                                                   cast: ["Joseph Gordon-Levitt", "Zooey Deschanel"],
                                                   genres: ["Romance", "Comedy"]))
        XCTAssertEqual(catalog.movies.map(\.id), Array(0..<2272))
        XCTAssertTrue(catalog.movies.allSatisfy { (2009...2018).contains($0.year) })
        XCTAssertTrue(catalog.movies.allSatisfy { [1, 2, 3, 4, 5].contains($0.rating) }, "ratings are integers 1–5")
        XCTAssertEqual(catalog.movies.filter { $0.title.utf8.contains { $0 >= 0x80 } }.count, 5,
                       "the dataset's README counts 5 titles with non-ASCII characters")
        try assertMatchesFoundation(catalog, path: path, moviesKey: "movies")
    }

    /// 36,273 movies compared field by field: a full run's check (`TestScale.requireFullRun`).
    func testCenturyCatalog() throws {
        try TestScale.requireFullRun("the century catalog against Foundation's parser")
        let path = try Requirement.sharedData("data/century-movies.json")
        let catalog = try SharedData.catalog("century-movies.json")
        XCTAssertEqual(catalog.movies.count, 36_273)
        XCTAssertEqual(catalog.skipped, [])
        XCTAssertEqual(catalog.movies.first, Movie(id: 0, title: "After Dark in Central Park", year: 1900, rating: nil))
        XCTAssertTrue(catalog.movies.allSatisfy { $0.rating == nil }, "the century catalog has no ratings")
        XCTAssertTrue(catalog.movies.allSatisfy { (1900...2023).contains($0.year) })
        try assertMatchesFoundation(catalog, path: path, moviesKey: nil)
    }

    private func assertMatchesFoundation(_ catalog: Catalog, path: String, moviesKey: String?) throws {
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
        let array = try XCTUnwrap(moviesKey.map { (document as? [String: Any])?[$0] } ?? document) as? [[String: Any]]
        let expected = try XCTUnwrap(array)
        XCTAssertEqual(catalog.movies.count, expected.count)
        for (movie, object) in zip(catalog.movies, expected) {
            let title = object["title"] as? String
            // `String ==` is canonical equivalence: compare the bytes, which must be identical.
            XCTAssertEqual(title.map { Array($0.utf8) }, Array(movie.title.utf8), "movie \(movie.id)")
            XCTAssertEqual(object["year"] as? Int, movie.year, "movie \(movie.id)")
            XCTAssertEqual(object["rating"] as? Double, movie.rating, "movie \(movie.id)")
            XCTAssertEqual((object["cast"] as? [String]) ?? [], movie.cast, "movie \(movie.id)")
            XCTAssertEqual((object["genres"] as? [String]) ?? [], movie.genres, "movie \(movie.id)")
        }
    }
}
