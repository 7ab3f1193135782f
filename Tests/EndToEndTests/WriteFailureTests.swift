import Foundation
import XCTest
import TestSupport

/// `index` that cannot write its cache (a read-only folder, a file size limit, a full disk) fails with one clear
/// line and exit status 1, and leaves the previous cache as it was and no temporary file.
///
/// The tests run as root in CI, and root writes into read-only folders: the read-only case runs the tool as an
/// unprivileged user (`setpriv`), in a read-only bind mount, or in a folder made immutable (`chattr +i`), whichever
/// this machine allows, and is skipped only when it allows none.
final class WriteFailureTests: XCTestCase {
    private let nobody = "65534"

    func testIndexIntoAReadOnlyFolderFailsAndKeepsThePreviousCache() throws {
        let setup = try Setup(self, movies: Setup.fewMovies)
        var ways: [String] = []
        var unavailable: [String] = []

        if geteuid() != 0 {
            try setup.makeReadOnly()
            try setup.checkRefused(try ChildProcess.run(setup.binary, setup.indexArguments), reason: "Permission denied")
            try setup.makeWritable()
            ways.append("folder mode 0555")
        } else if let setpriv = Self.executable("setpriv") {
            let asNobody = [setpriv, "--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups", "--"]
            let probe = try ChildProcess.run(setpriv, Array(asNobody.dropFirst()) + [setup.binary, "--help"])
            if probe.exited(0) {
                try setup.makeReadOnly()
                let outcome = try ChildProcess.run(setpriv, Array(asNobody.dropFirst()) + [setup.binary] + setup.indexArguments)
                try setup.checkRefused(outcome, reason: "Permission denied")
                try setup.makeWritable()
                ways.append("setpriv as uid \(nobody) on a folder of mode 0555")
            } else {
                unavailable.append("setpriv: \(probe.summary)")
            }
        } else {
            unavailable.append("setpriv not found")
        }

        // A read-only bind mount of the folder, in a mount namespace of its own (needs CAP_SYS_ADMIN).
        let script = """
            mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" || exit 99
            exec "$2" "${@:3}"
            """
        if let outcome = try Self.inPrivateMountNamespace(script, [setup.outputFolder, setup.binary] + setup.indexArguments) {
            if outcome.exited(99) {
                unavailable.append("read-only bind mount: \(outcome.summary)")
            } else {
                try setup.checkRefused(outcome, reason: "Read-only file system")
                ways.append("read-only bind mount")
            }
        } else {
            unavailable.append("unshare not found")
        }

        // An immutable folder: not even root can add a file (ext4, xfs, btrfs; not tmpfs or overlayfs).
        if geteuid() == 0, let chattr = Self.executable("chattr"),
           try ChildProcess.run(chattr, ["+i", setup.outputFolder]).exited(0) {
            addTeardownBlock { _ = try? ChildProcess.run(chattr, ["-i", setup.outputFolder]) }
            let outcome = try ChildProcess.run(setup.binary, setup.indexArguments)
            XCTAssertTrue(try ChildProcess.run(chattr, ["-i", setup.outputFolder]).exited(0))
            try setup.checkRefused(outcome, reason: "Operation not permitted")
            ways.append("chattr +i")
        } else {
            unavailable.append("chattr +i not available")
        }

        print("WriteFailureTests: read-only folder tested with \(ways); unavailable here: \(unavailable)")
        if ways.isEmpty {
            throw XCTSkip("no way to make a folder read-only for this process here: \(unavailable.joined(separator: "; "))")
        }
    }

    /// Over the file size limit, a write gets SIGXFSZ, which kills a process by default: the tool ignores it, so
    /// the write fails with EFBIG and the tool reports it.
    func testIndexPastTheFileSizeLimitFailsAndKeepsThePreviousCache() throws {
        let setup = try Setup(self, movies: 1_500)
        let bash = try Requirement.tool("bash")
        // 100 blocks of 1024 bytes: the previous cache fits, the new one (about 165 KB) does not.
        XCTAssertLessThan(setup.previousBytes.count, 100 * 1024)
        let outcome = try ChildProcess.run(bash, ["-c", "ulimit -f 100 && exec \"$0\" \"$@\"", setup.binary] + setup.indexArguments)
        try setup.checkRefused(outcome, operation: "write cache", reason: "File too large")
    }

    /// An output that is a named pipe (like /dev/null, a device) is refused, not replaced by a file.
    func testIndexOntoAPipeIsRefusedAndLeavesThePipe() throws {
        let setup = try Setup(self, movies: Setup.fewMovies)
        let pipe = setup.outputFolder + "/pipe.mscache"
        XCTAssertEqual(mkfifo(pipe, 0o644), 0)
        let outcome = try ChildProcess.run(setup.binary, ["index", setup.catalog, "-o", pipe])
        XCTAssertTrue(outcome.exited(1), outcome.summary)
        XCTAssertEqual(outcome.errorLines, ["moviesearch: cannot replace cache \(pipe): it is a FIFO (named pipe), "
                                            + "not a regular file; give a file path"])
        var status = stat()
        XCTAssertEqual(lstat(pipe, &status), 0)
        XCTAssertEqual(status.st_mode & S_IFMT, S_IFIFO)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: setup.outputFolder).sorted(), ["movies.mscache", "pipe.mscache"])
    }

    /// A disk that fills up during the write: a 256 KiB tmpfs (the new cache is about 320 KB), in a mount namespace of its own (needs
    /// CAP_SYS_ADMIN; skipped without it, since the file size limit test covers the same path).
    func testIndexOntoAFullDiskFailsAndKeepsThePreviousCache() throws {
        let setup = try Setup(self, movies: 3_500)
        let report = try TestPaths.temporaryFolder(self).path
        let script = """
            mount -t tmpfs -o size=256k moviesearch-full-disk "$1" || exit 99
            cp "$2" "$1/movies.mscache" || exit 98
            "$3" "${@:5}" > "$4/stdout" 2> "$4/stderr"
            echo $? > "$4/status"
            cp "$1/movies.mscache" "$4/after.mscache"
            ls -A "$1" > "$4/listing"
            """
        let previous = report + "/previous.mscache"
        try setup.previousBytes.write(to: URL(fileURLWithPath: previous))
        guard let outcome = try Self.inPrivateMountNamespace(
            script, [setup.outputFolder, previous, setup.binary, report] + setup.indexArguments) else {
            throw XCTSkip("unshare not found: cannot mount a small file system to fill")
        }
        if !outcome.exited(0) {
            throw XCTSkip("cannot mount a small file system to fill here (\(outcome.summary)); the file size limit test covers a failed write")
        }
        func read(_ name: String) throws -> String { try String(contentsOfFile: report + "/" + name, encoding: .utf8) }
        XCTAssertEqual(try read("status"), "1\n")
        XCTAssertEqual(try read("stdout"), "")
        XCTAssertEqual(try read("stderr"),
                       "moviesearch: cannot write cache \(setup.output): No space left on device\n")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: report + "/after.mscache")), setup.previousBytes)
        XCTAssertEqual(try read("listing"), "movies.mscache\n")
    }

    // MARK: Setup

    /// A folder holding a previous cache, and a catalog whose cache is larger.
    private struct Setup {
        /// The catalog's movies where its size does not matter (the run fails before it writes a byte of the
        /// cache): `index` reads the whole catalog first, and the debug binary takes some 0.6 s for 5,000 movies.
        static let fewMovies = 300

        let test: XCTestCase
        let binary: String
        let outputFolder: String
        let output: String
        let catalog: String
        let previousBytes: Data

        var indexArguments: [String] { ["index", catalog, "-o", output] }

        /// `movies`: the catalog's size (1,500 movies make a cache of about 165 KB, 3,500 about 320 KB).
        init(_ test: XCTestCase, movies: Int) throws {
            self.test = test
            binary = try ChildProcess.binary()
            let folder = try TestPaths.temporaryFolder(test).path
            outputFolder = folder + "/out"
            try FileManager.default.createDirectory(atPath: outputFolder, withIntermediateDirectories: true)
            output = outputFolder + "/movies.mscache"
            catalog = folder + "/catalog.json"
            try GeneratedCatalog(movies: movies, seed: 3).write(to: catalog)
            let previousCatalog = folder + "/previous.json"
            try GeneratedCatalog(movies: 100, seed: 4).write(to: previousCatalog)
            let first = try ChildProcess.run(binary, ["index", previousCatalog, "-o", output])
            XCTAssertTrue(first.exited(0), first.summary)
            previousBytes = try Data(contentsOf: URL(fileURLWithPath: output))
        }

        func makeReadOnly() throws {
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: outputFolder)
        }

        func makeWritable() throws {
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: outputFolder)
        }

        /// The run failed with exit status 1 and one line naming the cache and `reason`, and left the folder as it
        /// was.
        func checkRefused(_ outcome: ChildProcess.Outcome, operation: String = "create a temporary file beside cache",
                          reason: String, file: StaticString = #filePath, line: UInt = #line) throws {
            XCTAssertTrue(outcome.exited(1), outcome.summary, file: file, line: line)
            XCTAssertEqual(outcome.standardOutput, "", file: file, line: line)
            XCTAssertEqual(outcome.errorLines, ["moviesearch: cannot \(operation) \(output): \(reason)"], file: file, line: line)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: output)), previousBytes, file: file, line: line)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outputFolder), ["movies.mscache"],
                           file: file, line: line)
        }
    }

    /// Runs a bash `script` (with `arguments` as `$1`…) in a mount namespace of its own, so that what it mounts is
    /// seen by nothing else and goes when it ends. `nil` when `unshare` or `bash` is missing.
    private static func inPrivateMountNamespace(_ script: String, _ arguments: [String]) throws -> ChildProcess.Outcome? {
        guard let unshare = executable("unshare"), let bash = executable("bash") else { return nil }
        return try ChildProcess.run(unshare, ["--mount", "--propagation", "private", bash, "-c", script, "bash"] + arguments)
    }

    /// The path of a program found in the usual system folders.
    private static func executable(_ name: String) -> String? {
        ["/usr/bin", "/bin", "/usr/sbin", "/sbin"].map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
