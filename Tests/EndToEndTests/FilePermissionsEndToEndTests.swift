import Foundation
import XCTest
import TestSupport

/// Files the tool writes over keep the permission bits their owner gave them: a favorites file or a cache made
/// 0600 is not world-readable after the next write (the atomic writer renames a new file into place).
final class FilePermissionsEndToEndTests: XCTestCase {
    private static let catalog = """
        [{"title":"Heat","year":1995,"rating":4},{"title":"Gone Girl","year":2014,"rating":4}]
        """

    private func permissions(_ path: String) throws -> Int {
        try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) & 0o7777
    }

    /// The mode a new file gets: 0644 less the umask the binary inherits from this process.
    private var newFileMode: Int {
        let mask = umask(0o022)
        umask(mask)
        return 0o644 & ~Int(mask)
    }

    func testAPrivateFavoritesFileStaysPrivate() throws {
        let cache = try indexedCache(try temporaryFile("movies.json", Self.catalog))
        let folder = try TestPaths.temporaryFolder(self).path
        let file = folder + "/favorites.json"
        let first = try BinaryRun.run(["favorites", "add", "0", "--favorites", file, "--cache", cache])
        XCTAssertEqual(first.status, 0, first.standardError)
        XCTAssertEqual(try permissions(file), newFileMode)

        XCTAssertEqual(chmod(file, 0o600), 0)
        for arguments in [["add", "1"], ["remove", "0"]] {
            let run = try BinaryRun.run(["favorites"] + arguments + ["--favorites", file, "--cache", cache])
            XCTAssertEqual(run.status, 0, run.standardError)
            XCTAssertEqual(try permissions(file), 0o600, "after \(arguments)")
        }
        XCTAssertTrue(try String(contentsOfFile: file, encoding: .utf8).contains(#""title":"Gone Girl""#))
    }

    func testAPrivateCacheStaysPrivateWhenIndexedOver() throws {
        let catalog = try temporaryFile("movies.json", Self.catalog)
        let cache = try indexedCache(catalog)
        XCTAssertEqual(try permissions(cache), newFileMode)
        XCTAssertEqual(chmod(cache, 0o600), 0)
        let run = try BinaryRun.run(["index", catalog, "-o", cache])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertEqual(try permissions(cache), 0o600)
        XCTAssertEqual(try BinaryRun.run(["query", "heat", "--cache", cache]).status, 0)
    }
}
