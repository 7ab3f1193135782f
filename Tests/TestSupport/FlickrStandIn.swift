import Foundation
import XCTest

/// A loopback stand-in for Flickr (`Scripts/flickr-stand-in.py`): its photos.search endpoint answering in one
/// `mode` (`ok`, `empty`, `fail`, `garbage`, `hang`, `slow`, `status`, `big`), or, with `tls`, its image host over
/// HTTPS. Started on 127.0.0.1 on a free port, ended when the test ends (or by `stop()`); every request it gets is a
/// line of `requests`.
package final class FlickrStandIn {
    /// Its port on 127.0.0.1.
    package let port: Int
    /// `http://127.0.0.1:<port>/services/rest/`: what `--flickr-endpoint` names.
    package var endpoint: String { "http://127.0.0.1:\(port)/services/rest/" }
    /// `http://127.0.0.1:<port>/3`: what `--tmdb-endpoint` names (its `/search/movie` is TMDb's search).
    package var tmdbEndpoint: String { "http://127.0.0.1:\(port)/3" }
    private let process: Process
    private let logPath: String

    /// Starts the stand-in in `mode`; `delay` seconds before each `ok` or `slow` answer; `tls`: the certificate and
    /// key files to speak HTTPS with.
    package init(_ test: XCTestCase, mode: String = "ok", delay: Double? = nil, tls: (cert: String, key: String)? = nil,
                 modes: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws {
        _ = try Requirement.tool("python3")
        let folder = try TestPaths.temporaryFolder(test).path
        logPath = folder + "/requests.log"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let script = TestPaths.packageRoot.appendingPathComponent("Scripts/flickr-stand-in.py").path
        var arguments = [script, "--mode", mode, "--log", logPath]
        if let delay { arguments += ["--delay", String(delay)] }
        if let tls { arguments += ["--tls", tls.cert, tls.key] }
        if let modes { arguments += ["--modes", modes] }
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let process = process
        test.addTeardownBlock {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            _ = ChildProcess.waitForExit(process)
        }
        // The first line, `listening on PORT`: read byte by byte, so that nothing after it is taken.
        var firstLine = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
            firstLine.append(byte)
        }
        guard let text = String(data: firstLine, encoding: .utf8), text.hasPrefix("listening on "),
              let port = Int(text.dropFirst("listening on ".count)) else {
            XCTFail("the Flickr stand-in did not start: \(String(decoding: firstLine, as: UTF8.self))", file: file, line: line)
            throw CocoaError(.featureUnsupported)
        }
        self.port = port
    }

    /// The file of its requests, one line each.
    package var log: String { logPath }

    /// The requests it got so far, each `<path>?<query>`.
    package var requests: [String] {
        ((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// Ends it now (a Flickr that went away).
    package func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        _ = ChildProcess.waitForExit(process)
    }

    /// The built `moviesearch-fetch`, beside the `moviesearch` the tests run.
    package static var fetchProgram: String {
        TestPaths.binary.deletingLastPathComponent().appendingPathComponent("moviesearch-fetch").path
    }

    /// The environment of a `moviesearch` that asks this stand-in with the real `moviesearch-fetch` and keeps its
    /// cache in `cacheHome`.
    package func environment(cacheHome: String) -> [String: String] {
        ["MOVIESEARCH_FETCH": Self.fetchProgram, "XDG_CACHE_HOME": cacheHome]
    }
}
