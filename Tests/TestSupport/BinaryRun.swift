import Foundation
import XCTest

/// One run of the built `moviesearch` binary: its exit status and what it printed.
package struct BinaryRun {
    package var status: Int32
    package var standardOutput: String
    package var standardError: String

    package init(status: Int32, standardOutput: String, standardError: String) {
        self.status = status
        self.standardOutput = standardOutput
        self.standardError = standardError
    }

    /// The lines of standard error (a data error must be exactly one).
    package var errorLines: [String] {
        standardError.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// Runs the binary with `arguments`, feeding `input` to its standard input. The environment is the test's,
    /// minus the variables that change what the tool reads, plus `environment`; `XDG_DATA_HOME` is a new empty
    /// folder of this run unless `environment` names one, so that a developer's own favorites (in
    /// `~/.local/share/moviesearch`) never change an answer and no test writes there.
    ///
    /// Standard streams go through files rather than pipes, so that neither side can stall on a full pipe and a
    /// tool that exits without reading its input cannot hit the test with SIGPIPE.
    package static func run(_ arguments: [String], input: Data = Data(), environment: [String: String] = [:],
                    file: StaticString = #filePath, line: UInt = #line) throws -> BinaryRun {
        let binary = try ChildProcess.binary(file: file, line: line)
        let inputURL = FileManager.default.temporaryDirectory
            .appendingPathComponent("moviesearch-stdin-\(UUID().uuidString)")
        try input.write(to: inputURL)
        defer { try? FileManager.default.removeItem(at: inputURL) }
        let inputHandle = try FileHandle(forReadingFrom: inputURL)
        defer { try? inputHandle.close() }
        let outcome = try ChildProcess.run(binary, arguments, environment: environment, standardInput: inputHandle)
        XCTAssertEqual(outcome.reason, .exit, "moviesearch was killed by a signal", file: file, line: line)
        return BinaryRun(status: outcome.status, standardOutput: outcome.standardOutput,
                         standardError: outcome.standardError)
    }
}
