import Foundation
import XCTest
import TestSupport

/// Empty option values through the built binary: an empty file path is a usage error of every subcommand that takes
/// one, an empty Flickr key counts as no key.
final class EmptyValueEndToEndTests: XCTestCase {
    func testAnEmptyPathIsAUsageError() throws {
        let cases: [[String]] = [
            ["index", TestPaths.sampleCatalog, "-o", ""], ["index", TestPaths.sampleCatalog, "--output="],
            ["index", ""], ["query", "dark", "--cache", ""], ["show", "0", "--cache="],
            ["photos", "0", "--cache", TestPaths.sampleCache, "--response", ""],
            ["bench", "--cache", TestPaths.sampleCache, "--queries", ""],
        ]
        for arguments in cases {
            let run = try BinaryRun.run(arguments)
            XCTAssertEqual(run.status, 2, "\(arguments): \(run.standardError)")
            XCTAssertTrue(run.standardError.contains("expected a file path (not empty)"), run.standardError)
            XCTAssertTrue(run.standardError.contains("Usage: moviesearch "), run.standardError)
        }
    }

    func testAnEmptyFlickrKeyIsNoKey() throws {
        for command in ["show", "photos"] {
            let run = try BinaryRun.run([command, "0", "--cache", TestPaths.sampleCache, "--flickr-key", ""])
            XCTAssertEqual(run.status, 0, run.standardError)
            XCTAssertTrue(run.standardOutput.contains("api_key=YOUR_FLICKR_API_KEY&"), run.standardOutput)
            XCTAssertTrue(run.standardError.contains("note: no Flickr API key"), run.standardError)
        }
        // As if not given: the environment's key, when there is one.
        let run = try BinaryRun.run(["show", "0", "--cache", TestPaths.sampleCache, "--flickr-key="],
                                    environment: ["FLICKR_API_KEY": "k123"])
        XCTAssertTrue(run.standardOutput.contains("api_key=k123&"), run.standardOutput)
    }
}
