import Foundation
import MovieSearch
import XCTest
import TestSupport

/// The sample cache in `Data/` is generated, then committed so that a fresh checkout can query it at once: it must
/// stay exactly what the current writer makes of the sample catalog.
final class SampleCacheTests: XCTestCase {
    func testTheCommittedSampleCacheIsUpToDate() throws {
        let catalog = try CatalogDecoder.load(path: TestPaths.sampleCatalog)
        let expected = try CacheWriter.encode(catalog)
        let committed = FileManager.default.contents(atPath: TestPaths.sampleCache).map { [UInt8]($0) }
        XCTAssertNotNil(committed, "\(TestPaths.sampleCache) is missing: run 'bash Scripts/regenerate-sample-cache.sh'")
        XCTAssert(committed == expected, """
            Data/sample-movies.mscache is not what the current cache writer makes of Data/sample-movies.json \
            (after a change of either, or of the cache format): run 'bash Scripts/regenerate-sample-cache.sh' \
            and commit both files
            """)
    }

    func testTheSampleCatalogHasWhatTheExamplesNeed() throws {
        let catalog = try CatalogDecoder.load(path: TestPaths.sampleCatalog)
        XCTAssertGreaterThanOrEqual(catalog.movies.count, 50)
        XCTAssertGreaterThanOrEqual(Set(catalog.movies.map(\.year)).count, 10)
        XCTAssert(catalog.movies.contains { $0.rating == nil })
        XCTAssert(catalog.movies.contains { $0.title.contains("'") || $0.title.contains("’") })
        XCTAssert(catalog.movies.contains { $0.title.unicodeScalars.contains { !$0.isASCII } })
        XCTAssertGreaterThanOrEqual(catalog.movies.filter { $0.title.lowercased().contains("dark") }.count, 5)
    }
}
