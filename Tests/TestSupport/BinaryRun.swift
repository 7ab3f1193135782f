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
    /// minus the variables that change what the tool reads, plus `environment`.
    ///
    /// Standard streams go through files rather than pipes, so that neither side can stall on a full pipe and a
    /// tool that exits without reading its input cannot hit the test with SIGPIPE.
    package static func run(_ arguments: [String], input: Data = Data(), environment: [String: String] = [:],
                    file: StaticString = #filePath, line: UInt = #line) throws -> BinaryRun {
        let binary = TestPaths.binary
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            XCTFail("\(binary.path) not found: build it with 'swift build' (swift test builds it)", file: file, line: line)
            throw CocoaError(.fileNoSuchFile)
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("moviesearch-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputURL = folder.appendingPathComponent("stdin")
        let outputURL = folder.appendingPathComponent("stdout")
        let errorURL = folder.appendingPathComponent("stderr")
        try input.write(to: inputURL)
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)

        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        var processEnvironment = ProcessInfo.processInfo.environment
        for name in ["MOVIESEARCH_CACHE", "FLICKR_API_KEY", "COLUMNS"] { processEnvironment[name] = nil }
        processEnvironment.merge(environment) { $1 }
        process.environment = processEnvironment
        let inputHandle = try FileHandle(forReadingFrom: inputURL)
        let outputHandle = try FileHandle(forWritingTo: outputURL)
        let errorHandle = try FileHandle(forWritingTo: errorURL)
        defer {
            try? inputHandle.close()
            try? outputHandle.close()
            try? errorHandle.close()
        }
        process.standardInput = inputHandle
        process.standardOutput = outputHandle
        process.standardError = errorHandle
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .exit, "moviesearch was killed by a signal", file: file, line: line)
        return BinaryRun(status: process.terminationStatus,
                         standardOutput: try String(contentsOf: outputURL, encoding: .utf8),
                         standardError: try String(contentsOf: errorURL, encoding: .utf8))
    }
}
