import MovieSearch
@testable import MovieSearchQuery
import TestSupport
import XCTest

/// The engine against the brute-force reference on the real catalogs and the realistic query sets in ../shared.
final class DatasetTests: XCTestCase {
    /// Checks the engine against the reference on every `stride`-th query, and the reference's index against its
    /// brute-force definition on every `bruteForceStride`-th query (the brute force scans every title).
    private func check(catalog catalogName: String, queries queryName: String, every stride: Int, perYear: [Int],
                       bruteForceEvery bruteForceStride: Int) throws {
        let shared = try EngineAndReference.shared(catalogName)
        let catalog = shared.catalog, index = shared.index
        let queries = try SharedData.queries(queryName)
        XCTAssertEqual(index.movieCount, catalog.movies.count)
        let reference = ReferenceSearch(catalog)
        var checked = 0, mismatches = 0
        for (line, query) in queries.enumerated() where line % stride == 0 {
            for k in perYear {
                let expected = reference.search(query, perYear: k)
                let actual = try index.search(query, perYear: k, typos: .off)
                if actual != expected {
                    mismatches += 1
                    if mismatches <= 5 {
                        XCTFail("\(queryName) line \(line + 1) \(query.debugDescription) perYear \(k): engine total \(actual.total), reference total \(expected.total)")
                    }
                }
                checked += 1
            }
            if line % bruteForceStride == 0 {
                XCTAssertEqual(reference.search(query), reference.bruteForce(query),
                               "the reference's index, \(queryName) line \(line + 1) \(query.debugDescription)")
            }
        }
        XCTAssertEqual(mismatches, 0, "\(mismatches) of \(checked) answers differ")
        XCTAssertGreaterThan(checked, 0)
    }

    /// Every query of the decade set with the default K, every seventh with two others (every third and every 21st
    /// in a sampled run, `TestScale`).
    func testDecadeCatalogEveryQuery() throws {
        try check(catalog: "movies.json", queries: "decade-typing.txt", every: TestScale.pick(sampled: 3, full: 1),
                  perYear: [5], bruteForceEvery: TestScale.pick(sampled: 30, full: 10))
        try check(catalog: "movies.json", queries: "decade-typing.txt", every: TestScale.pick(sampled: 21, full: 7),
                  perYear: [0, 1, 100], bruteForceEvery: 70)
    }

    /// Every fourth query of the century set (over 3,000 queries against 36,273 movies): a full run's check
    /// (`TestScale.requireFullRun`).
    func testCenturyCatalogSample() throws {
        try TestScale.requireFullRun("the century query set against the reference")
        try check(catalog: "century-movies.json", queries: "century-typing.txt", every: 4,
                  perYear: [5], bruteForceEvery: 2_500)
    }

    func testDecadeDetailsRoundTrip() throws {
        let shared = try EngineAndReference.shared("movies.json")
        let catalog = shared.catalog, index = shared.index
        XCTAssertEqual(catalog.movies.count, 2_272)
        for movie in catalog.movies {
            XCTAssertEqual(try index.movie(id: movie.id), movie)
        }
        XCTAssertNoThrow(try index.verify())
    }
}
