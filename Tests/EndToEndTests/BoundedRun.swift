import Foundation
import TestSupport
import XCTest

/// How long a run may take before it counts as hung and is killed: far above what any of these runs needs (they
/// fail before reading a byte), so a slow machine cannot fail the test, and a hang costs seconds.
private let hangLimit = 10.0

/// Runs of the built binary that must end, for the tests of inputs at the edges (`LimitsEndToEndTests`,
/// `NonRegularCacheEndToEndTests`, `TerminalWidthEndToEndTests`): none may hang or end in a Swift runtime trap.
extension XCTestCase {
    /// Runs `executable` (the binary, or `script` around it), killed if it has not ended after `hangLimit` seconds,
    /// which fails the test. A trap must not wait for a key press in the backtracer when the child has a terminal.
    func boundedRun(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                    file: StaticString = #filePath, line: UInt = #line) throws -> ChildProcess.Outcome {
        let environment = environment.merging(["SWIFT_BACKTRACE": "enable=no"]) { given, _ in given }
        let run = try ChildProcess.run(executable, arguments, environment: environment, timeLimit: hangLimit)
        if !run.finished {
            XCTFail("\(arguments) still running after \(hangLimit) s: killed", file: file, line: line)
        }
        return run
    }

    /// A data error: exit status 1, nothing on stdout, one stderr line `moviesearch: <message>`.
    func assertDataError(_ arguments: [String], environment: [String: String] = [:], _ message: String,
                         file: StaticString = #filePath, line: UInt = #line) throws {
        let run = try boundedRun(try ChildProcess.binary(), arguments, environment: environment, file: file, line: line)
        guard run.finished else { return }
        XCTAssertEqual(run.reason, .exit, "\(arguments): killed by a signal", file: file, line: line)
        XCTAssertEqual(run.status, 1, "\(arguments): \(run.standardError)", file: file, line: line)
        XCTAssertEqual(run.standardOutput, "", "\(arguments)", file: file, line: line)
        XCTAssertEqual(run.errorLines, ["moviesearch: " + message], "\(arguments)", file: file, line: line)
    }

    /// A usage error: exit status 2, nothing on stdout, and stderr opening with the message (the usage follows).
    func assertUsageError(_ arguments: [String], _ message: String,
                          file: StaticString = #filePath, line: UInt = #line) throws {
        let run = try boundedRun(try ChildProcess.binary(), arguments, file: file, line: line)
        guard run.finished else { return }
        XCTAssertEqual(run.reason, .exit, "\(arguments): killed by a signal", file: file, line: line)
        XCTAssertEqual(run.status, 2, "\(arguments): \(run.standardError)", file: file, line: line)
        XCTAssertEqual(run.standardOutput, "", "\(arguments)", file: file, line: line)
        XCTAssertEqual(run.errorLines.first, "moviesearch: " + message, "\(arguments)", file: file, line: line)
        XCTAssertFalse(run.standardError.contains("Fatal error"), run.standardError, file: file, line: line)
    }
}
