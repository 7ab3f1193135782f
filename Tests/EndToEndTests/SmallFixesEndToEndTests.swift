import Foundation
import XCTest
import TestSupport

/// Edge cases of the command line through the built binary: an empty file path is a usage error, an empty Flickr
/// key counts as no key, `bench` refuses a queries file with no query in it, and says "1 pass", not "1 passes".
final class SmallFixesEndToEndTests: XCTestCase {
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

    func testBenchWithoutQueriesIsAnError() throws {
        for (name, text, message) in [("empty.txt", "", "the file is empty"), ("blank.txt", "\n  \n\t\r\n", "its 3 lines are blank")] {
            let queries = try temporaryFile(name, text)
            let run = try BinaryRun.run(["bench", "--cache", TestPaths.sampleCache, "--queries", queries])
            XCTAssertEqual(run.status, 1, run.standardError)
            XCTAssertEqual(run.standardOutput, "")
            XCTAssertEqual(run.errorLines, ["moviesearch: no queries in \(queries): \(message); give one query per line"])
        }
    }

    func testOnePassIsSingular() throws {
        let queries = try temporaryFile("one.txt", "dark\n")
        let run = try BinaryRun.run(["bench", "--cache", TestPaths.sampleCache, "--queries", queries, "--passes", "1"])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertTrue(run.standardOutput.contains("1 × 1 pass (1 timed call)\n"), run.standardOutput)
    }
}
