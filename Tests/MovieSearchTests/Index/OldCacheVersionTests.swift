import Foundation
import XCTest
@testable import MovieSearch
import TestSupport

/// Caches of an older format version are refused with the message to rebuild them, however sound they are
/// otherwise: a version-2 cache lacks the joined words (SEARCH-SPEC step 6), so every answer could differ; a
/// version-3 cache has no sections for the optional fields (original title, overview, poster, TMDb and IMDb ids),
/// so its movies would show without them.
final class OldCacheVersionTests: XCTestCase {
    func testVersion2And3CachesAreRefusedWithTheRebuildMessage() throws {
        XCTAssertEqual(CacheFormat.version, 4)
        let path = try TestPaths.temporaryFolder(self).appendingPathComponent("old.mscache").path
        for version: UInt32 in [2, 3] {
            // An old cache as its writer would have left it: version 3 had version 4's layout for a catalog
            // without the optional fields (see CacheFormat), version 2 too; the version field old and every
            // checksum right for it.
            var old = try ForgedCache(Fixtures.small)
            old.setU32(version, at: CacheFormat.HeaderField.version)
            try Data(old.sealed()).write(to: URL(fileURLWithPath: path))
            XCTAssertThrowsError(try MovieIndex(path: path), "version \(version)") { error in
                XCTAssertEqual(error as? CacheError, .unsupportedVersion(path: path, found: version, supported: 4))
                XCTAssertEqual("\(error)", "\(path) is a cache of format version \(version), this moviesearch reads version 4; rebuild it with 'moviesearch index'")
            }
        }
        // The same bytes with the current version open and answer: only the version was refused.
        var current = try ForgedCache(Fixtures.small)
        current.setU32(4, at: CacheFormat.HeaderField.version)
        try Data(current.sealed()).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(try MovieIndex(path: path).search("dark").total, 10)
    }
}
