import Foundation
import MovieSearch
@testable import MovieSearchCatalog
@_spi(Engine) @testable import MovieSearchIndex
@testable import MovieSearchQuery
import TestSupport
import XCTest

/// Timings reported by XCTest `measure`; they assert nothing about time (shared machines are noisy). The
/// benchmark that checks the performance goals is `moviesearch bench`. What they do assert is that the measured
/// work is the real work: every answer right, every write complete.
final class QueryPerformanceTests: XCTestCase {
    override func setUpWithError() throws {
        try requireOptimizedBuild()
    }

    /// Every query of decade-typing.txt against a loaded decade cache, once per measured run.
    func testDecadeTypingQueries() throws {
        let catalog = try CatalogDecoder.load(path: Requirement.sharedData("data/movies.json"))
        let queries = try SharedData.queries("decade-typing.txt")
        let index = try Fixtures.index(catalog, self)
        var runs: [[SearchResult]] = []
        measure {
            do {
                runs.append(try queries.map { try index.search($0) })
            } catch {
                XCTFail("search failed: \(error)")
            }
        }
        // The answers of every run are the reference's (DatasetTests compares them in full; here they prove that
        // each measured run did the searches).
        let reference = ReferenceSearch(catalog)
        let expected = queries.map { reference.search($0) }
        XCTAssertFalse(runs.isEmpty)
        for (run, answers) in runs.enumerated() {
            XCTAssertTrue(answers == expected, "run \(run): answers differ from the reference")
        }
    }

    /// The whole `index` job on the decade catalog: read and decode the JSON, build the cache, write it.
    func testIndexDecadeCatalog() throws {
        let path = try Requirement.sharedData("data/movies.json")
        let output = try TestPaths.temporaryFolder(self).appendingPathComponent("decade.mscache").path
        var statistics: [Int] = []
        measure {
            do {
                let catalog = try CatalogDecoder.load(path: path)
                statistics.append(try CacheWriter.write(catalog, to: output).movies)
            } catch {
                XCTFail("index failed: \(error)")
            }
        }
        XCTAssertFalse(statistics.isEmpty)
        XCTAssertEqual(Set(statistics), [2_272])
        // The file written is the whole cache of the catalog, byte for byte.
        let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: output)))
        XCTAssertTrue(written == (try CacheWriter.encode(CatalogDecoder.load(path: path))), "the written cache differs from the encoding")
        XCTAssertNoThrow(try MovieIndex(path: output).verify())
    }
}
