import Foundation
import XCTest
import TestSupport

/// SIGQUIT (Ctrl-\ in a terminal) sent to a command other than browse, here `query --stdin` waiting for its next
/// line: the process ends by the signal (a shell sees status 131), printing nothing. The Swift runtime's
/// backtracer catches SIGQUIT by default: it printed a crash report ("Program crashed", a backtrace of every
/// thread) and let the process run on. (browse under SIGQUIT: `BrowseQuitEndToEndTests`.)
final class QuitSignalEndToEndTests: XCTestCase {
    func testSIGQUITEndsAWaitingQueryWithoutACrashReport() throws {
        let cache = try indexedCache(try Requirement.sharedData("data/movies.json"))
        let process = ChildProcess.configured(try ChildProcess.binary(), ["query", "--stdin", "--cache", cache])
        let input = Pipe(), output = Pipe(), error = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        // One query answered: the process is past its start (where the runtime's handlers are put in place) and
        // waits on its input, which stays open.
        input.fileHandleForWriting.write(Data("dark knight\n".utf8))
        var answer = Data()
        while !answer.contains(UInt8(ascii: "\n")) {
            let more = output.fileHandleForReading.availableData
            if more.isEmpty { break }
            answer.append(more)
        }
        XCTAssertTrue(String(decoding: answer, as: UTF8.self).contains("The Dark Knight"),
                      String(decoding: answer, as: UTF8.self))

        XCTAssertEqual(kill(process.processIdentifier, SIGQUIT), 0)
        let ended = ChildProcess.waitForExit(process, until: ChildProcess.now() + 10)
        XCTAssertTrue(ended, "still running after SIGQUIT")
        // Its input closed, a process that ran on (as the crash report let it) ends, so that the pipes end too.
        input.fileHandleForWriting.closeFile()
        let rest = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errors = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        _ = ChildProcess.waitForExit(process)
        XCTAssertEqual(process.terminationReason, .uncaughtSignal, "ended by the signal, as a shell sees it")
        XCTAssertEqual(process.terminationStatus, SIGQUIT, "signal \(SIGQUIT): status 128 + 3 in a shell")
        XCTAssertEqual(rest, "", "nothing more on standard output")
        XCTAssertEqual(errors, "", "nothing on standard error")
    }
}
