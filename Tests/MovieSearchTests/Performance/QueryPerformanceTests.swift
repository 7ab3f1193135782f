import XCTest
@testable import MovieSearch

/// Timings reported by XCTest `measure`; they assert nothing about time (shared machines are noisy). The
/// benchmark that checks the performance goals is `moviesearch bench`.
final class QueryPerformanceTests: XCTestCase {
    /// Every query of decade-typing.txt against a loaded decade cache, once per measured run.
    func testDecadeTypingQueries() throws {
        let catalog = try CatalogDecoder.load(path: SharedData.path("data/movies.json"))
        let queries = try SharedData.queries("decade-typing.txt")
        let index = try Fixtures.index(catalog, self)
        var matches = 0
        measure {
            for query in queries { matches += (try? index.search(query).total) ?? 0 }
        }
        XCTAssertGreaterThan(matches, 0)
    }

    /// The whole `index` job on the decade catalog: read and decode the JSON, build the cache, write it.
    func testIndexDecadeCatalog() throws {
        let path = try SharedData.path("data/movies.json")
        let output = try Fixtures.temporaryFolder(self) + "/decade.mscache"
        var written = 0
        measure {
            if let catalog = try? CatalogDecoder.load(path: path),
               let statistics = try? CacheWriter.write(catalog, to: output) {
                written = statistics.movies
            }
        }
        XCTAssertEqual(written, 2_272)
    }
}
