import Foundation
import Synchronization
import TestSupport
import XCTest

/// `index` draws a progress line on standard error when it is a terminal and the run takes longer than half a
/// second, and erases it before the summary; a pipe gets nothing. Checked under a real pseudo-terminal (`script`),
/// with a catalog that arrives through a pipe held open for 0.8 s, so that the run is slow on any machine (longer than
/// the line's half-second delay, with the start-up of the binary to spare).
final class IndexProgressEndToEndTests: XCTestCase {
    private func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// One slow run: what runs `index - -o <cache>` with the sample catalog on a pipe that stays open 0.8 s after
    /// it, under a terminal when `terminal`, with standard error into the pipe of `ChildProcess` otherwise.
    private struct SlowIndex: Sendable {
        let executable: String, arguments: [String], environment: [String: String], cache: String
    }

    private func slowIndexCommand(underTerminal terminal: Bool, environment: [String: String] = [:]) throws
        -> SlowIndex
    {
        let folder = try TestPaths.temporaryFolder(self)
        let cache = folder.appendingPathComponent("slow.mscache").path
        let feed = "(cat \(quoted(TestPaths.sampleCatalog)); sleep 0.8)"
        let index = "\(feed) | \(quoted(try ChildProcess.binary())) index - -o \(quoted(cache))"
        return terminal
            ? SlowIndex(executable: try Requirement.tool("script", package: "bsdutils"),
                        arguments: ["-qec", index, "/dev/null"],
                        environment: ["TERM": "xterm-256color"].merging(environment) { $1 }, cache: cache)
            : SlowIndex(executable: "/bin/sh", arguments: ["-c", index], environment: environment, cache: cache)
    }

    /// Runs the slow runs at the same time (each mostly waits for its pipe), and checks each ended well.
    private func slowIndex(_ commands: [SlowIndex], file: StaticString = #filePath, line: UInt = #line) throws
        -> [(output: String, error: String, cache: String)]
    {
        let results = Mutex<[Int: Result<ChildProcess.Outcome, any Error>]>([:])
        DispatchQueue.concurrentPerform(iterations: commands.count) { number in
            let command = commands[number]
            let result = Result {
                try ChildProcess.run(command.executable, command.arguments, environment: command.environment,
                                     timeLimit: 30)
            }
            results.withLock { $0[number] = result }
        }
        return try commands.indices.map { number in
            let run = try results.withLock { $0[number]! }.get()
            XCTAssertTrue(run.finished, "still running after 30 s, killed", file: file, line: line)
            XCTAssertTrue(run.exited(0), "\(run.summary) \(run.standardOutput)", file: file, line: line)
            return (run.standardOutput, run.standardError, commands[number].cache)
        }
    }

    func testASlowRunShowsProgressOnATerminalAndErasesIt() throws {
        let run = try slowIndex([try slowIndexCommand(underTerminal: true)])[0]
        // Each redraw starts with a carriage return and ends with "erase to the end of the line".
        XCTAssertTrue(run.output.contains("\rindexing: ranking · 62 movies · "), run.output.debugDescription)
        XCTAssertTrue(run.output.contains("\u{1B}[K"), run.output.debugDescription)
        // Erased before the summary, which starts on a clean line.
        XCTAssertTrue(run.output.contains("\r\u{1B}[KIndexed <stdin> into "), run.output.debugDescription)
        XCTAssertTrue(FileManager.default.fileExists(atPath: run.cache))
    }

    func testNoProgressInAPipeOrOnADumbTerminal() throws {
        let runs = try slowIndex([try slowIndexCommand(underTerminal: false),
                                  try slowIndexCommand(underTerminal: true, environment: ["TERM": "dumb"])])
        let (piped, dumb) = (runs[0], runs[1])
        XCTAssertEqual(piped.error, "")
        XCTAssertFalse(piped.output.contains("\u{1B}"), piped.output.debugDescription)
        XCTAssertTrue(piped.output.hasPrefix("Indexed <stdin> into "), piped.output)
        XCTAssertFalse(dumb.output.contains("\u{1B}"), dumb.output.debugDescription)
        XCTAssertFalse(dumb.output.contains("indexing:"), dumb.output.debugDescription)
    }
}
