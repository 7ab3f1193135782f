import Foundation
import TestSupport
import XCTest

/// `Scripts/install.sh PREFIX` and `--uninstall`, with the binary the tests built (`MOVIESEARCH_BINARY`), so that no
/// release build is needed here; `.ci/run` runs the script's own build (the static binary) and the tests against it.
final class InstallScriptEndToEndTests: XCTestCase {
    private let files = [
        "bin/moviesearch",
        "bin/moviesearch-fetch",
        "share/man/man1/moviesearch.1",
        "share/bash-completion/completions/moviesearch",
        "share/zsh/site-functions/_moviesearch",
        "share/fish/vendor_completions.d/moviesearch.fish",
    ]

    private func install(_ arguments: [String]) throws -> ChildProcess.Outcome {
        let script = TestPaths.packageRoot.appendingPathComponent("Scripts/install.sh").path
        return try ChildProcess.run("/bin/bash", [script] + arguments,
                                    environment: ["MOVIESEARCH_BINARY": try ChildProcess.binary()], timeLimit: 60)
    }

    func testInstallsBinaryCompletionsAndManPageThenUninstalls() throws {
        let prefix = try TestPaths.temporaryFolder(self).appendingPathComponent("prefix with space").path
        let run = try install([prefix])
        XCTAssertTrue(run.exited(0), "\(run.summary) \(run.standardError)")
        for file in files {
            XCTAssertTrue(FileManager.default.fileExists(atPath: "\(prefix)/\(file)"), file)
        }
        let installed = "\(prefix)/bin/moviesearch"
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: installed))
        let version = try ChildProcess.run(installed, ["--version"])
        XCTAssertTrue(version.exited(0))
        XCTAssertEqual(version.standardOutput, try BinaryRun.run(["--version"]).standardOutput)
        // moviesearch-fetch beside it, which the installed binary finds there (a fetch of a closed port: its error,
        // not "cannot run").
        let fetch = try ChildProcess.run(installed, ["photos", "0", "--flickr-key", "k", "--flickr-endpoint",
                                                     "http://127.0.0.1:9/", "--cache", TestPaths.sampleCache],
                                         environment: ["MOVIESEARCH_FETCH": ""], timeLimit: 30)
        XCTAssertTrue(fetch.standardError.contains("cannot get photos from Flickr: unreachable"), fetch.standardError)
        // What was installed is what the binary generates.
        XCTAssertEqual(try String(contentsOfFile: "\(prefix)/share/man/man1/moviesearch.1", encoding: .utf8),
                       try BinaryRun.run(["man"]).standardOutput)
        XCTAssertEqual(try String(contentsOfFile: "\(prefix)/share/zsh/site-functions/_moviesearch", encoding: .utf8),
                       try BinaryRun.run(["completions", "zsh"]).standardOutput)
        // No temporary file left behind.
        let leftovers = FileManager.default.enumerator(atPath: prefix)?.compactMap { $0 as? String }
            .filter { $0.contains(".moviesearch-install.") } ?? []
        XCTAssertEqual(leftovers, [])

        // Installing again replaces the files.
        XCTAssertTrue(try install([prefix]).exited(0))

        let removed = try install(["--uninstall", prefix])
        XCTAssertTrue(removed.exited(0), "\(removed.summary) \(removed.standardError)")
        for file in files {
            XCTAssertFalse(FileManager.default.fileExists(atPath: "\(prefix)/\(file)"), file)
        }
    }

    func testUsageErrors() throws {
        let unknown = try install(["--frobnicate"])
        XCTAssertTrue(unknown.exited(2), unknown.summary)
        XCTAssertTrue(unknown.standardError.contains("unknown option '--frobnicate'"), unknown.standardError)
        let two = try install(["/tmp/a", "/tmp/b"])
        XCTAssertTrue(two.exited(2), two.summary)
    }
}
