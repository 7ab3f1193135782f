import Foundation
import MovieSearch
@testable import MovieSearchCatalog
@_spi(Engine) @testable import MovieSearchIndex
@testable import MovieSearchQuery
import TestSupport
import XCTest

/// A cache opened `guarded` (as the server opens it) whose file is cut short or rewritten in place while it is open:
/// no read ends the process, and the index tells that its answers cannot be trusted (`isDamaged`, or a file status
/// that differs from the one at open). Without the guard, the truncated cases die with SIGBUS.
final class GuardedCacheTests: XCTestCase {
    private static let queries = GeneratedCatalog.sampleQueries + ["a", "the", "e"]

    /// The cache the tests damage, encoded once (each test writes its own copy); an error fails each test.
    private static let encoded = Result {
        try CacheWriter.encode(try CatalogDecoder.decode(GeneratedCatalog(movies: 3_000, seed: 21).json(), source: "generated"))
    }

    private func cacheBytes() throws -> [UInt8] {
        try Self.encoded.get()
    }

    /// Runs every kind of read on `index`, ignoring what it throws: a damaged file may throw anything but must not
    /// crash.
    private func readEverything(_ index: MovieIndex) {
        for query in Self.queries { _ = try? index.search(query, perYear: 3) }
        for id in stride(from: 0, to: 3_000, by: 37) { _ = try? index.decodedMovie(id: id) }
        _ = try? index.topRated(by: .rating, limit: 50)
        _ = try? index.verify()
    }

    func testACacheCutShortUnderAGuardedIndex() throws {
        let bytes = try cacheBytes()
        let page = Int(getpagesize())
        let path = try TestPaths.temporaryFolder(self).path + "/cut.mscache"
        for length in [0, 64, page, bytes.count / 3, bytes.count / 2, bytes.count - 1] {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let index = try MovieIndex(path: FilePath(path), guarded: true)
            let opened = try XCTUnwrap(index.currentFileStatus())
            _ = try index.search("ka")  // some blocks checked and flagged before the cut
            XCTAssertEqual(truncate(path, off_t(length)), 0)
            readEverything(index)
            XCTAssertNotEqual(index.currentFileStatus(), opened, "length \(length)")
            let pagesLost = (length + page - 1) / page * page < bytes.count
            XCTAssertEqual(index.isDamaged, pagesLost, "length \(length): verify() reads every page")
        }
    }

    /// Rewritten in place with one byte changed (same size, same inode): no fault, so only the status tells.
    func testACacheRewrittenInPlaceUnderAGuardedIndex() throws {
        var bytes = try cacheBytes()
        let path = try TestPaths.temporaryFolder(self).path + "/rewritten.mscache"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let index = try MovieIndex(path: FilePath(path), guarded: true)
        let opened = try XCTUnwrap(index.currentFileStatus())
        XCTAssertNoThrow(try index.verify())
        usleep(20_000)  // past the file system's clock tick
        bytes[bytes.count / 2] ^= 0x20
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        try handle.write(contentsOf: Data(bytes))
        try handle.close()
        readEverything(index)
        XCTAssertFalse(index.isDamaged)
        let now = try XCTUnwrap(index.currentFileStatus())
        XCTAssertEqual(now.inode, opened.inode)
        XCTAssertNotEqual(now, opened)
        XCTAssertThrowsError(try MovieIndex(path: FilePath(path), guarded: true).verify(), "a fresh open sees it")
    }
}
