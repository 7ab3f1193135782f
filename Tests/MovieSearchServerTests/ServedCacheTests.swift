import Foundation
import MovieSearch
import MovieSearchServer
import TestSupport
import XCTest

/// `ServedCache.reloadIfChanged`: a cache renamed over the path is served, a damaged one is refused and the old one
/// kept, and nothing happens when nothing changed.
final class ServedCacheTests: XCTestCase {
    private var folder = ""
    private var path = ""

    override func setUpWithError() throws {
        folder = try TestPaths.temporaryFolder(self).path
        path = folder + "/served.mscache"
        _ = try CacheWriter.write(Fixtures.small, to: path)
    }

    /// Writes `catalog` to a new file beside the cache and renames it over the cache, as `index` does.
    private func replace(with catalog: Catalog) throws {
        let temporary = folder + "/new.mscache"
        _ = try CacheWriter.write(catalog, to: temporary)
        XCTAssertEqual(rename(temporary, path), 0)
    }

    private func replace(withBytes bytes: [UInt8]) throws {
        let temporary = folder + "/garbage.tmp"
        try Data(bytes).write(to: URL(fileURLWithPath: temporary))
        XCTAssertEqual(rename(temporary, path), 0)
    }

    private static let other = Catalog(movies: [
        Movie(id: 0, title: "Heat", year: 1995, rating: 4),
        Movie(id: 1, title: "Gone Girl", year: 2014, rating: 4),
        Movie(id: 2, title: "Dark Shadows", year: 2012, rating: 3),
    ])

    func testNothingChangedIsNil() throws {
        let cache = try ServedCache(path: FilePath(path))
        XCTAssertNil(cache.reloadIfChanged())
        XCTAssertNil(cache.reloadIfChanged())
        XCTAssertEqual(cache.snapshot().generation, 0)
        XCTAssertEqual(cache.snapshot().index.movieCount, 16)
    }

    func testAReplacementByRenameIsServed() throws {
        let cache = try ServedCache(path: FilePath(path))
        let old = cache.snapshot()
        try replace(with: Self.other)
        XCTAssertEqual(cache.reloadIfChanged(), .reloaded(movies: 3))
        let new = cache.snapshot()
        XCTAssertEqual(new.generation, 1)
        XCTAssertEqual(new.index.movieCount, 3)
        XCTAssertEqual(try new.index.search("dark").total, 1)
        XCTAssertNil(cache.reloadIfChanged())
        // A request that took the old snapshot still answers from the old mapping.
        XCTAssertEqual(old.index.movieCount, 16)
        XCTAssertEqual(try old.index.movie(id: 7).title, "Brüno")
        XCTAssertGreaterThan(try old.index.search("dark").total, 5)

        try replace(with: Fixtures.small)
        XCTAssertEqual(cache.reloadIfChanged(), .reloaded(movies: 16))
        XCTAssertEqual(cache.snapshot().generation, 2)
    }

    func testADamagedReplacementFailsAndTheOldCacheStays() throws {
        let cache = try ServedCache(path: FilePath(path))
        let answer = try cache.snapshot().index.search("dark").total
        for bytes in [Array("not a cache at all, just garbage".utf8), [], Array(repeating: 0xFF, count: 4096)] {
            try replace(withBytes: bytes)
            guard case .failed(let reason)? = cache.reloadIfChanged() else {
                return XCTFail("a damaged replacement (\(bytes.count) bytes) was not refused")
            }
            XCTAssertFalse(reason.isEmpty)
            XCTAssertFalse(reason.contains("\n"), reason)
            // Refused once, not tried again until the path changes.
            XCTAssertNil(cache.reloadIfChanged())
            let snapshot = cache.snapshot()
            XCTAssertEqual(snapshot.generation, 0)
            XCTAssertEqual(snapshot.index.movieCount, 16)
            XCTAssertEqual(try snapshot.index.search("dark").total, answer)
        }
        // A good replacement after a damaged one is served.
        try replace(with: Self.other)
        XCTAssertEqual(cache.reloadIfChanged(), .reloaded(movies: 3))
        XCTAssertEqual(cache.snapshot().generation, 1)
    }

    func testAMissingPathIsAMomentBetweenTwoFiles() throws {
        let cache = try ServedCache(path: FilePath(path))
        XCTAssertEqual(unlink(path), 0)
        XCTAssertNil(cache.reloadIfChanged())
        XCTAssertEqual(cache.snapshot().index.movieCount, 16)
        try replace(with: Self.other)
        XCTAssertEqual(cache.reloadIfChanged(), .reloaded(movies: 3))
    }
}
