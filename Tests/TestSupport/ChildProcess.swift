import Foundation
import XCTest

/// Starts programs for the robustness tests: the built `moviesearch`, or a wrapper around it (`bash -c 'ulimit …'`,
/// `setpriv`, `unshare`), which `BinaryRun` cannot do.
package enum ChildProcess {
    /// How a finished process ended and what it printed.
    package struct Outcome {
        package var reason: Process.TerminationReason
        /// The exit status, or the signal number when `reason` is `.uncaughtSignal`.
        package var status: Int32
        package var standardOutput: String
        package var standardError: String
        /// Whether it ended by itself, rather than being killed at the time limit `run` was given.
        package var finished = true

        /// Whether the process exited (rather than died of a signal) with `status`.
        package func exited(_ status: Int32) -> Bool { reason == .exit && self.status == status }

        /// The lines of standard error (a data error must be exactly one).
        package var errorLines: [String] {
            standardError.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        }

        package var summary: String {
            "\(reason == .exit ? "exit status" : "killed by signal") \(status); stderr: \(standardError.debugDescription)"
        }
    }

    /// The path of the built `moviesearch`, failing the test when it is missing.
    package static func binary(file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let path = TestPaths.binary.path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            XCTFail("\(path) not found: build it with 'swift build' (swift test builds it)", file: file, line: line)
            throw CocoaError(.fileNoSuchFile)
        }
        return path
    }

    /// Runs `executable` to its end, with standard input empty and the output captured in files (never pipes, so
    /// that nothing stalls on a full pipe). `environment` is added to the test's (less the variables `configured`
    /// removes, and with `XDG_DATA_HOME` a new empty folder of this run unless `environment` names one);
    /// `standardInput`, a file or a pipe, replaces the empty one. With a `timeLimit`, a process still
    /// running after that many seconds is killed with SIGKILL and its outcome says it did not finish: a test of
    /// something that must not hang fails instead of hanging.
    package static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                            standardInput: FileHandle? = nil, timeLimit: Double? = nil) throws -> Outcome {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("moviesearch-child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outputURL = folder.appendingPathComponent("stdout"), errorURL = folder.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputURL), error = try FileHandle(forWritingTo: errorURL)
        defer {
            try? output.close()
            try? error.close()
        }
        let process = configured(executable, arguments)
        // Favorites written by a test that names no place for them are lost with this run's folder.
        let dataHome = folder.appendingPathComponent("data-home")
        try FileManager.default.createDirectory(at: dataHome, withIntermediateDirectories: true)
        process.environment?[dataHomeVariable] = dataHome.path
        process.environment?.merge(environment) { $1 }
        if let standardInput { process.standardInput = standardInput }
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let finished = waitForExit(process, until: timeLimit.map { now() + $0 } ?? .infinity)
        if !finished {
            kill(process.processIdentifier, SIGKILL)
            waitForExit(process)
        }
        return Outcome(reason: process.terminationReason, status: process.terminationStatus,
                       standardOutput: try String(contentsOf: outputURL, encoding: .utf8),
                       standardError: try String(contentsOf: errorURL, encoding: .utf8), finished: finished)
    }

    /// Starts `executable` with its standard streams on `/dev/null`, for a test that will kill it.
    package static func start(_ executable: String, _ arguments: [String]) throws -> Process {
        let process = configured(executable, arguments)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// A process with the test's environment minus the variables that change what `moviesearch` reads, and with
    /// `XDG_DATA_HOME` set to `emptyDataHome`, so that a developer's own favorites never mark a test's answers.
    package static func configured(_ executable: String, _ arguments: [String]) -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = isolatedEnvironment()
        process.standardInput = FileHandle.nullDevice
        return process
    }

    /// The variables that change what `moviesearch` reads.
    package static let ignoredVariables = ["MOVIESEARCH_CACHE", "FLICKR_API_KEY", "COLUMNS", "XDG_CACHE_HOME",
                                           "MOVIESEARCH_FLICKR_TIMEOUT_MS"]

    /// The variables every test process gets, so that none reads a developer's cached Flickr answers nor asks the
    /// real Flickr: `XDG_CACHE_HOME` an empty folder, and `MOVIESEARCH_FETCH` a program that is not there (a test
    /// of fetching names the built `moviesearch-fetch` and a loopback stand-in, `FlickrStandIn`).
    package static let offlineVariables: [String: String] = [
        "XDG_CACHE_HOME": emptyDataHome + "-cache",
        "MOVIESEARCH_FETCH": "/nonexistent/moviesearch-fetch (tests set MOVIESEARCH_FETCH to fetch)",
    ]

    /// Where favorites are kept by default (`FavoritesLocation`).
    package static let dataHomeVariable = "XDG_DATA_HOME"

    /// An empty folder made for this test process, the `XDG_DATA_HOME` of processes started without one of their
    /// own run's (`start`, `configured`): none of them writes favorites, and none may read a developer's. It and
    /// the `XDG_CACHE_HOME` beside it (`offlineVariables`) are removed when the test process exits, so that runs
    /// do not leave folders behind in the temporary directory.
    package static let emptyDataHome: String = {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("moviesearch-empty-data-home-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit {
            try? FileManager.default.removeItem(atPath: ChildProcess.emptyDataHome)
            try? FileManager.default.removeItem(atPath: ChildProcess.emptyDataHome + "-cache")
        }
        return url.path
    }()

    /// The test's environment minus `ignoredVariables`, with `XDG_DATA_HOME` set to `emptyDataHome`.
    package static func isolatedEnvironment() -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for name in ignoredVariables { environment[name] = nil }
        environment[dataHomeVariable] = emptyDataHome
        environment.merge(offlineVariables) { $1 }
        return environment
    }

    /// Waits until `process` has ended, or until the monotonic clock reads `deadline`; returns whether it ended.
    ///
    /// Every test waits through this, never through `Process.waitUntilExit()` alone: swift-corelibs-foundation's
    /// runs the run loop in 50 ms slices that the child's end does not cut short, so a 2 ms run of the tool took
    /// about 50 ms (most of the end-to-end tests' time, measured: 48.7 ms against 1.6 ms a run of `/bin/true`).
    /// `isRunning` turns false once Foundation has reaped the child, so a 1 ms poll sees the end within a
    /// millisecond; `waitUntilExit()` then returns at once and leaves the status read.
    @discardableResult
    package static func waitForExit(_ process: Process, until deadline: Double = .infinity) -> Bool {
        while process.isRunning {
            if now() >= deadline { return false }
            usleep(1_000)
        }
        process.waitUntilExit()
        return true
    }

    /// Seconds on a monotonic clock.
    package static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Sleeps until the monotonic clock reads `deadline`.
    package static func sleep(until deadline: Double) {
        let left = deadline - now()
        if left > 0 { usleep(useconds_t(left * 1e6)) }
    }
}
