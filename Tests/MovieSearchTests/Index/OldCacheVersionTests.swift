import Foundation
import XCTest
@testable import MovieSearch
import TestSupport

/// Caches of format version 2 (before joined words, SEARCH-SPEC step 6, were indexed) are refused with the message
/// to rebuild them, however sound they are otherwise: their terms lack the joined words, so every answer could differ.
final class OldCacheVersionTests: XCTestCase {
    func testVersion2CacheIsRefusedWithTheRebuildMessage() throws {
        XCTAssertEqual(CacheFormat.version, 3)
        // A version-2 cache as a version-2 writer would have left it: the same layout (see CacheFormat), the version
        // field 2 and every checksum right for it.
        var old = try ForgedCache(Fixtures.small)
        old.setU32(2, at: CacheFormat.HeaderField.version)
        let path = try TestPaths.temporaryFolder(self).appendingPathComponent("old.mscache").path
        try Data(old.sealed()).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try MovieIndex(path: path)) { error in
            XCTAssertEqual(error as? CacheError, .unsupportedVersion(path: path, found: 2, supported: 3))
            XCTAssertEqual("\(error)", "\(path) is a cache of format version 2, this moviesearch reads version 3; rebuild it with 'moviesearch index'")
        }
        // The same bytes with the current version open and answer: only the version was refused.
        var current = try ForgedCache(Fixtures.small)
        current.setU32(3, at: CacheFormat.HeaderField.version)
        try Data(current.sealed()).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(try MovieIndex(path: path).search("dark").total, 10)
    }
}
