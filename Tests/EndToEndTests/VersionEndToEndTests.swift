import Foundation
import MovieSearch
import TestSupport
import XCTest

/// `moviesearch --version` and `moviesearch version`: the release, the cache format version, the Swift compiler.
final class VersionEndToEndTests: XCTestCase {
    func testVersionSaysReleaseCacheFormatAndSwift() throws {
        let flag = try BinaryRun.run(["--version"])
        XCTAssertEqual(flag.status, 0, flag.standardError)
        XCTAssertEqual(flag.standardError, "")
        let lines = flag.standardOutput.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 3, flag.standardOutput)
        // `moviesearch 1.2.3`.
        let release = lines[0].split(separator: " ")
        XCTAssertEqual(release.first, "moviesearch")
        XCTAssertEqual(release.count, 2)
        XCTAssertEqual(release.last?.split(separator: ".").count, 3, lines[0])
        let number = try XCTUnwrap(release.last, lines[0])
        XCTAssertTrue(number.split(separator: ".").allSatisfy { Int($0) != nil }, lines[0])
        XCTAssertTrue(lines[1].hasPrefix("cache format version \(MovieIndex.cacheFormatVersion) "), lines[1])
        // The compiler the tests were built with, which built the binary too.
        #if compiler(>=6.3)
        XCTAssertTrue(lines[2].hasPrefix("built with Swift 6."), lines[2])
        XCTAssertFalse(lines[2].hasSuffix("6.0") || lines[2].hasSuffix("6.1") || lines[2].hasSuffix("6.2"), lines[2])
        #endif

        let word = try BinaryRun.run(["version"])
        XCTAssertEqual(word.status, 0)
        XCTAssertEqual(word.standardOutput, flag.standardOutput)
        let extra = try BinaryRun.run(["version", "now"])
        XCTAssertEqual(extra.status, 2)
        XCTAssertTrue(extra.standardError.contains("unexpected argument 'now'"), extra.standardError)
    }

    /// The cache format the binary says it writes is the one in the header of a cache it writes (bytes 8..<12).
    func testTheCacheFormatVersionIsTheOneWritten() throws {
        let folder = try TestPaths.temporaryFolder(self)
        let cache = folder.appendingPathComponent("v.mscache").path
        let run = try BinaryRun.run(["index", TestPaths.sampleCatalog, "-o", cache, "--quiet"])
        XCTAssertEqual(run.status, 0, run.standardError)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: cache)))
        let written = Int(bytes[8]) | Int(bytes[9]) << 8 | Int(bytes[10]) << 16 | Int(bytes[11]) << 24
        let said = try BinaryRun.run(["--version"]).standardOutput.split(separator: "\n")[1]
        XCTAssertTrue(said.hasPrefix("cache format version \(written) "), String(said))
    }
}
