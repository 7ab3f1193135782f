import Foundation
import MovieSearch
@testable import MovieSearchCLI
@testable import MovieSearchOutput
import TestSupport
import XCTest

/// `COLUMNS` at the edges: read only on a terminal (`script` gives the binary one), as a positive number, clamped,
/// so that a huge or tiny value neither traps nor pads a layout to a huge width.
final class TerminalWidthEndToEndTests: XCTestCase {
    /// `COLUMNS` is read only when standard output is a terminal: `script` gives the binary one.
    func testAHugeOrTinyCOLUMNSIsClampedOnATerminal() throws {
        let script = try Requirement.tool("script", package: "bsdutils")
        let response = try temporaryFile("response.json", """
            {"photos":{"photo":[
              {"id":"1","secret":"a","server":"2","farm":3},
              {"id":"4","secret":"b","server":"5","farm":6}]},"stat":"ok"}
            """)
        let urls = ["http://farm3.static.flickr.com/2/1_a.jpg", "http://farm6.static.flickr.com/5/4_b.jpg"]
        func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let command = ([try ChildProcess.binary(), "photos", "7", "--cache", TestPaths.sampleCache,
                        "--response", response, "--flickr-key", "k"]).map(quoted).joined(separator: " ")
        for (columns, expected) in [("999999999999", Terminal.widthRange.upperBound),
                                    ("99999999999999999999999", Terminal.widthRange.upperBound)] {
            let run = try boundedRun(script, ["-qec", command, "/dev/null"], environment: ["COLUMNS": columns])
            guard run.finished else { continue }
            XCTAssertEqual(run.status, 0, "COLUMNS=\(columns): \(run.standardOutput)")
            XCTAssertFalse(run.standardOutput.contains("Fatal error"), run.standardOutput)
            // Two columns, the second starting half-way across the clamped width.
            let pair = urls[0] + String(repeating: " ", count: expected / 2 - urls[0].count) + urls[1]
            XCTAssertTrue(run.standardOutput.contains(pair + "\r\n"), "COLUMNS=\(columns): \(run.standardOutput)")
        }
        // Too narrow even when clamped up to 20: one URL a line.
        let narrow = try boundedRun(script, ["-qec", command, "/dev/null"], environment: ["COLUMNS": "1"])
        XCTAssertEqual(narrow.status, 0, narrow.standardOutput)
        XCTAssertTrue(narrow.standardOutput.contains(urls[0] + "\r\n" + urls[1] + "\r\n"), narrow.standardOutput)
    }

    func testCOLUMNSIsReadAsAPositiveNumberAndClamped() {
        func columns(_ text: String) -> Int? {
            Environment.fixed(["COLUMNS": text]).positiveNumber("COLUMNS", clampedTo: Terminal.widthRange)
        }
        XCTAssertEqual(columns("132"), 132)
        XCTAssertEqual(columns("999999999999"), 1000)
        XCTAssertEqual(columns("99999999999999999999999"), 1000)
        XCTAssertEqual(columns("3"), 20)
        for ignored in ["", "0", "-5", "+5", "wide", "80 ", "1e3"] { XCTAssertNil(columns(ignored), ignored) }
        XCTAssertEqual(Terminal(width: Int.max).width, 1000)
        XCTAssertEqual(Terminal(width: 3).width, 20)
        XCTAssertEqual(Terminal(width: 132).width, 132)
        XCTAssertNil(Terminal(width: nil).width)
    }

    /// In-process, the widths a test passes go through the same clamp: layouts never pad to a huge width.
    func testLayoutsOnAHugeTerminalStayBounded() throws {
        let show = MovieSearchCommand.run(arguments: ["show", "7", "--cache", TestPaths.sampleCache, "--flickr-key", "k"],
                                          terminalWidth: Int.max)
        XCTAssertEqual(show.status, 0, show.standardError)
        XCTAssertTrue(show.standardOutput.split(separator: "\n").allSatisfy { $0.count <= 1000 || $0.contains("flickr") })
    }
}
