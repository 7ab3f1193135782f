import Foundation
import TestSupport
import XCTest

/// `moviesearch bench` as a process of its own.
final class BenchEndToEndTests: XCTestCase {
    /// A `bench` started by a process much larger than itself reports its own peak, not its parent's (Linux keeps
    /// `ru_maxrss` across fork and exec; `VmHWM` starts again at exec).
    func testPeakMemoryIsTheBenchProcessesOwn() throws {
        let queries = try temporaryFile("queries.txt", "dark\n")
        // 128 MiB: eight times bench's own peak on the sample cache (some 15 MB, debug build), and quicker to touch
        // than more.
        let ballast = 128 << 20
        var parent = [UInt8](repeating: 1, count: ballast)  // touched: resident in this process when it forks
        let outcome = try ChildProcess.run(try ChildProcess.binary(),
                                           ["bench", "--cache", TestPaths.sampleCache, "--queries", queries, "--json"])
        XCTAssertTrue(outcome.exited(0), outcome.summary)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
        let peak = try XCTUnwrap(object["peak_rss_bytes"] as? Int)
        XCTAssertGreaterThan(peak, 0)
        XCTAssertLessThan(peak, ballast / 4, "the parent's peak, not bench's")
        parent[ballast - 1] = 2
        XCTAssertEqual(parent[ballast - 1], 2)
    }

    /// A FIFO that no one writes to, named as the queries file (also of `--browse`), is "no queries" at once, never
    /// a wait in `open` (the run is killed after 10 s if it hangs, and the test then fails).
    func testAFIFOOfQueriesThatNoOneWritesToFailsAtOnce() throws {
        let folder = try TestPaths.temporaryFolder(self).path
        let fifo = folder + "/queries.fifo"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0, String(cString: strerror(errno)))
        for mode in [[], ["--browse"]] {
            let run = try ChildProcess.run(try ChildProcess.binary(),
                                           ["bench", "--cache", TestPaths.sampleCache, "--queries", fifo] + mode,
                                           timeLimit: 10)
            XCTAssertTrue(run.finished, "bench \(mode) waited for a writer of the FIFO")
            XCTAssertTrue(run.exited(1), "\(mode): \(run)")
            XCTAssertTrue(run.standardError.hasPrefix("moviesearch: no queries in \(fifo)"), run.standardError)
        }
    }

    /// A queries file with no query in it is an error, not a report of nothing.
    func testBenchWithoutQueriesIsAnError() throws {
        for (name, text, message) in [("empty.txt", "", "the file is empty"), ("blank.txt", "\n  \n\t\r\n", "its 3 lines are blank")] {
            let queries = try temporaryFile(name, text)
            let run = try BinaryRun.run(["bench", "--cache", TestPaths.sampleCache, "--queries", queries])
            XCTAssertEqual(run.status, 1, run.standardError)
            XCTAssertEqual(run.standardOutput, "")
            XCTAssertEqual(run.errorLines, ["moviesearch: no queries in \(queries): \(message); give one query per line"])
        }
    }

    /// "1 pass", not "1 passes".
    func testOnePassIsSingular() throws {
        let queries = try temporaryFile("one.txt", "dark\n")
        let run = try BinaryRun.run(["bench", "--cache", TestPaths.sampleCache, "--queries", queries, "--passes", "1"])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertTrue(run.standardOutput.contains("1 × 1 pass (1 timed call)\n"), run.standardOutput)
    }
}
