import Foundation
import TestSupport
import XCTest

/// `index` draws a progress line on standard error when it is a terminal and the run takes longer than half a
/// second, and erases it before the summary; a pipe gets nothing. Checked under a real pseudo-terminal (`script`),
/// with a catalog that arrives through a pipe held open for a second, so that the run is slow on any machine.
final class IndexProgressEndToEndTests: XCTestCase {
    private func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// Runs `index - -o <cache>` with the sample catalog on a pipe that stays open `holdSeconds` after it, under a
    /// terminal when `terminal`, with standard error into the pipe of `ChildProcess` otherwise.
    private func slowIndex(underTerminal terminal: Bool, environment: [String: String] = [:]) throws
        -> (output: String, error: String, cache: String)
    {
        let folder = try TestPaths.temporaryFolder(self)
        let cache = folder.appendingPathComponent("slow.mscache").path
        let feed = "(cat \(quoted(TestPaths.sampleCatalog)); sleep 1)"
        let index = "\(feed) | \(quoted(try ChildProcess.binary())) index - -o \(quoted(cache))"
        let run = terminal
            ? try ChildProcess.run(try Requirement.tool("script", package: "bsdutils"), ["-qec", index, "/dev/null"],
                                   environment: ["TERM": "xterm-256color"].merging(environment) { $1 }, timeLimit: 30)
            : try ChildProcess.run("/bin/sh", ["-c", index], environment: environment, timeLimit: 30)
        XCTAssertTrue(run.finished, "still running after 30 s, killed")
        XCTAssertTrue(run.exited(0), "\(run.summary) \(run.standardOutput)")
        return (run.standardOutput, run.standardError, cache)
    }

    func testASlowRunShowsProgressOnATerminalAndErasesIt() throws {
        let run = try slowIndex(underTerminal: true)
        // Each redraw starts with a carriage return and ends with "erase to the end of the line".
        XCTAssertTrue(run.output.contains("\rindexing: ranking · 62 movies · "), run.output.debugDescription)
        XCTAssertTrue(run.output.contains("\u{1B}[K"), run.output.debugDescription)
        // Erased before the summary, which starts on a clean line.
        XCTAssertTrue(run.output.contains("\r\u{1B}[KIndexed <stdin> into "), run.output.debugDescription)
        XCTAssertTrue(FileManager.default.fileExists(atPath: run.cache))
    }

    func testNoProgressInAPipeOrOnADumbTerminal() throws {
        let piped = try slowIndex(underTerminal: false)
        XCTAssertEqual(piped.error, "")
        XCTAssertFalse(piped.output.contains("\u{1B}"), piped.output.debugDescription)
        XCTAssertTrue(piped.output.hasPrefix("Indexed <stdin> into "), piped.output)

        let dumb = try slowIndex(underTerminal: true, environment: ["TERM": "dumb"])
        XCTAssertFalse(dumb.output.contains("\u{1B}"), dumb.output.debugDescription)
        XCTAssertFalse(dumb.output.contains("indexing:"), dumb.output.debugDescription)
    }
}
