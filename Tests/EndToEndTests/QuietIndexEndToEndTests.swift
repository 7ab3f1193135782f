import Foundation
import TestSupport
import XCTest

/// `index --quiet` prints nothing but errors.
final class QuietIndexEndToEndTests: XCTestCase {
    func testQuietPrintsNothingButErrors() throws {
        let folder = try TestPaths.temporaryFolder(self)
        let cache = folder.appendingPathComponent("q.mscache").path
        let loud = try BinaryRun.run(["index", TestPaths.sampleCatalog, "-o", cache])
        XCTAssertEqual(loud.status, 0, loud.standardError)
        XCTAssertTrue(loud.standardOutput.hasPrefix("Indexed "), loud.standardOutput)
        try FileManager.default.removeItem(atPath: cache)

        let quiet = try BinaryRun.run(["index", TestPaths.sampleCatalog, "-o", cache, "--quiet"])
        XCTAssertEqual(quiet.status, 0, quiet.standardError)
        XCTAssertEqual(quiet.standardOutput, "")
        XCTAssertEqual(quiet.standardError, "")
        XCTAssertTrue(FileManager.default.fileExists(atPath: cache))
        XCTAssertEqual(try BinaryRun.run(["query", "--cache", cache, "--json", "dark"]).standardOutput,
                       try BinaryRun.run(["query", "--cache", TestPaths.sampleCache, "--json", "dark"]).standardOutput)

        // Warnings are not printed either; a movie left out still is.
        let catalog = try temporaryFile("mixed.json", """
            [{"title": "Good", "year": 2000}, {"title": "", "year": 2001}]
            """)
        let skipped = try BinaryRun.run(["index", catalog, "-o", cache, "--skip-invalid", "--quiet"])
        XCTAssertEqual(skipped.status, 0, skipped.standardError)
        XCTAssertEqual(skipped.standardOutput + skipped.standardError, "")
        let loudSkip = try BinaryRun.run(["index", catalog, "-o", cache, "--skip-invalid"])
        XCTAssertTrue(loudSkip.standardError.contains("warning: skipped 1 invalid movie"), loudSkip.standardError)

        // Errors are.
        let missing = try BinaryRun.run(["index", folder.appendingPathComponent("none.json").path, "-o", cache,
                                         "--quiet"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.standardOutput, "")
        XCTAssertEqual(missing.errorLines.count, 1, missing.standardError)
        XCTAssertTrue(missing.standardError.hasPrefix("moviesearch: "), missing.standardError)
    }
}
