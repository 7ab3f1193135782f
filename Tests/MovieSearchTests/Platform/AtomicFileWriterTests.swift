import Foundation
import MovieSearch
@testable import MovieSearchPlatform
import TestSupport
import XCTest

/// The atomic writer: the files it replaces and the permissions it keeps, its temporary files' names, and the
/// removal of those that killed writers left behind.
final class AtomicFileWriterTests: XCTestCase {
    /// A device, pipe or folder is never replaced by a file (`index -o /dev/null` as root once turned /dev/null
    /// into a regular file; a named pipe stands in for the device here, which the test must not risk); a symbolic
    /// link stays a link and its target gets the new content.
    func testOnlyRegularFilesAreReplacedAndLinksAreFollowed() throws {
        let folder = try TestPaths.temporaryFolder(self).path
        let pipe = folder + "/pipe", directory = folder + "/folder"
        XCTAssertEqual(mkfifo(pipe, 0o644), 0)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        for (path, reason) in [(pipe, "it is a FIFO (named pipe), not a regular file; give a file path"),
                               (directory, "it is a folder")] {
            XCTAssertThrowsError(try AtomicFileWriter.replaceFile(at: path, with: [[1, 2, 3]]), path) { error in
                guard let error = error as? AtomicFileWriter.AtomicWriteError else { return XCTFail("\(error)") }
                XCTAssertEqual(error.operation, "replace")
                XCTAssertTrue(error.error.reason.hasPrefix(reason), error.error.reason)
            }
        }
        var status = stat()
        XCTAssertEqual(stat(pipe, &status), 0)
        XCTAssertEqual(status.st_mode & S_IFMT, S_IFIFO)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder).sorted(), ["folder", "pipe"])

        let target = folder + "/target.mscache", link = folder + "/link.mscache"
        try AtomicFileWriter.replaceFile(at: target, with: [[1]])
        XCTAssertEqual(symlink("target.mscache", link), 0)
        try AtomicFileWriter.replaceFile(at: link, with: [[7, 8]])
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), "target.mscache")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: target)), Data([7, 8]))

        // A dangling link (through a second link) names the file to create; links in a loop are refused.
        let dangling = folder + "/dangling.mscache"
        XCTAssertEqual(symlink("hop.mscache", dangling), 0)
        XCTAssertEqual(symlink(folder + "/new.mscache", folder + "/hop.mscache"), 0)
        try AtomicFileWriter.replaceFile(at: dangling, with: [[9]])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: folder + "/new.mscache")), Data([9]))
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: dangling), "hop.mscache")
        XCTAssertEqual(symlink("loop-b", folder + "/loop-a"), 0)
        XCTAssertEqual(symlink("loop-a", folder + "/loop-b"), 0)
        XCTAssertThrowsError(try AtomicFileWriter.replaceFile(at: folder + "/loop-a", with: [[1]]))
    }

    /// The permission bits of the file written over are kept (through a link, the target's); a new file gets
    /// 0644 less the umask, as before.
    func testTheReplacedFilesPermissionsAreKept() throws {
        let folder = try TestPaths.temporaryFolder(self).path
        let private_ = folder + "/private.json", fresh = folder + "/fresh.json", link = folder + "/link.json"
        try AtomicFileWriter.replaceFile(at: fresh, with: [[1]])
        let mask = umask(0o022)
        umask(mask)
        XCTAssertEqual(try Self.permissions(fresh), 0o644 & ~Int(mask))

        try AtomicFileWriter.replaceFile(at: private_, with: [[1]])
        XCTAssertEqual(chmod(private_, 0o600), 0)
        try AtomicFileWriter.replaceFile(at: private_, with: [[2, 3]])
        XCTAssertEqual(try Self.permissions(private_), 0o600)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: private_)), Data([2, 3]))

        XCTAssertEqual(chmod(private_, 0o640), 0)
        XCTAssertEqual(symlink("private.json", link), 0)
        try AtomicFileWriter.replaceFile(at: link, with: [[4]])
        XCTAssertEqual(try Self.permissions(private_), 0o640)
        // A file its owner made read-only is replaced (as before) and stays read-only.
        XCTAssertEqual(chmod(private_, 0o400), 0)
        try AtomicFileWriter.replaceFile(at: private_, with: [[5]])
        XCTAssertEqual(try Self.permissions(private_), 0o400)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: private_)), Data([5]))
    }

    private static func permissions(_ path: String) throws -> Int {
        try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) & 0o7777
    }

    func testTemporaryOwnerAcceptsOnlyTheWritersOwnNames() {
        let name = "movies.mscache"
        XCTAssertEqual(AtomicFileWriter.temporaryOwner(".movies.mscache.tmp-4242-1", of: name), 4242)
        XCTAssertEqual(AtomicFileWriter.temporaryOwner(".movies.mscache.tmp-1-987654", of: name), 1)
        let foreign = [
            "movies.mscache",
            "movies.mscache.tmp-4242-1",  // not hidden
            ".movies.mscache.tmp-4242",  // no serial
            ".movies.mscache.tmp-4242-",
            ".movies.mscache.tmp--1",
            ".movies.mscache.tmp-4242-1-2",
            ".movies.mscache.tmp-4242-1x",
            ".movies.mscache.tmp-+4242-1",
            ".movies.mscache.tmp-04242-1",  // never written with a leading zero
            ".movies.mscache.tmp-0-1",  // kill(0, 0) would mean the process group
            ".movies.mscache.tmp--5-1",
            ".movies.mscache.tmp-99999999999-1",  // does not fit a pid_t
            ".movies.mscache.tmp-٤٢-1",  // digits of another script
            ".other.mscache.tmp-4242-1",
            ".movies.mscache.tmp-1.tmp-4242-1",  // a temporary file of "movies.mscache.tmp-1"
            ".Movies.mscache.tmp-4242-1",
        ]
        for entry in foreign {
            XCTAssertNil(AtomicFileWriter.temporaryOwner(entry, of: name), entry)
        }
        XCTAssertEqual(AtomicFileWriter.temporaryOwner(".movies.mscache.tmp-1.tmp-4242-1", of: "movies.mscache.tmp-1"), 4242)
        XCTAssertNil(AtomicFileWriter.temporaryOwner("..tmp-4242-1", of: ""))
    }

    func testTemporaryPathsAreHiddenBesideTheFileAndNameThisProcess() {
        let first = AtomicFileWriter.temporaryPath(beside: "/some/folder/movies.mscache")
        let second = AtomicFileWriter.temporaryPath(beside: "/some/folder/movies.mscache")
        XCTAssertNotEqual(first, second)
        for path in [first, second] {
            XCTAssertTrue(path.hasPrefix("/some/folder/.movies.mscache.tmp-\(getpid())-"), path)
            let entry = String(path.dropFirst("/some/folder/".count))
            XCTAssertEqual(AtomicFileWriter.temporaryOwner(entry, of: "movies.mscache"), getpid())
        }
        XCTAssertTrue(AtomicFileWriter.temporaryPath(beside: "movies.mscache").hasPrefix(".movies.mscache.tmp-"))
    }

    /// A killed writer's temporary files go on the next write; everything else in the folder stays.
    func testReplaceFileRemovesOnlyTheTemporaryFilesOfDeadWriters() throws {
        let folder = try TestPaths.temporaryFolder(self).path
        let path = folder + "/movies.mscache"
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        let dead = try Self.deadProcessID()
        let live = try Self.startSleeper()
        defer { Self.stop(live) }
        let removed = [
            ".movies.mscache.tmp-\(dead)-1",
            ".movies.mscache.tmp-\(dead)-12",
            ".movies.mscache.tmp-\(Self.processIDAboveMaximum())-3",
        ]
        let kept = [
            "movies.mscache",
            ".movies.mscache.tmp-\(getpid())-999999",  // this process: maybe another thread's write in progress
            ".movies.mscache.tmp-\(live.processIdentifier)-1",  // another live writer
            ".movies.mscache.tmp-1-1",  // pid 1 always exists
            ".other.mscache.tmp-\(dead)-1",  // another file's
            ".movies.mscache.tmp-\(dead)",
            ".movies.mscache.tmp-0\(dead)-1",
            "movies.mscache.tmp-\(dead)-1",
            "notes.txt",
        ]
        for name in removed + kept where name != "movies.mscache" {
            try Data("partial".utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
        }

        try AtomicFileWriter.replaceFile(at: path, with: [Array("new".utf8)])
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "new")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder).sorted(), kept.sorted())
        XCTAssertEqual(try String(contentsOfFile: folder + "/.movies.mscache.tmp-1-1", encoding: .utf8), "partial")
    }

    /// A writer's temporary file survives other writes while the writer lives, and goes once it has died.
    func testALiveWritersTemporaryFileIsRemovedOnlyAfterItDies() throws {
        let folder = try TestPaths.temporaryFolder(self).path
        let path = folder + "/movies.mscache"
        let writer = try Self.startSleeper()
        let temporary = ".movies.mscache.tmp-\(writer.processIdentifier)-1"
        try Data("partial".utf8).write(to: URL(fileURLWithPath: folder + "/" + temporary))

        XCTAssertEqual(AtomicFileWriter.removeStaleTemporaries(beside: path), 0)
        try AtomicFileWriter.replaceFile(at: path, with: [[1, 2], [3]])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder).sorted(), [temporary, "movies.mscache"])

        Self.stop(writer)
        XCTAssertEqual(AtomicFileWriter.removeStaleTemporaries(beside: path), 1)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), ["movies.mscache"])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), Data([1, 2, 3]))
    }

    /// Cleaning a folder that does not exist, or cannot be listed, does nothing and does not fail.
    func testCleanupIsBestEffort() throws {
        XCTAssertEqual(AtomicFileWriter.removeStaleTemporaries(beside: "/nonexistent/folder/movies.mscache"), 0)
        let folder = try TestPaths.temporaryFolder(self).path
        let file = folder + "/plain"
        try Data().write(to: URL(fileURLWithPath: file))
        XCTAssertEqual(AtomicFileWriter.removeStaleTemporaries(beside: file + "/movies.mscache"), 0)
        XCTAssertThrowsError(try AtomicFileWriter.replaceFile(at: "/nonexistent/folder/movies.mscache", with: [[1]]))
    }

    // MARK: Processes

    /// The PID of a process that has exited and been reaped.
    private static func deadProcessID() throws -> pid_t {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exit 0"]
        try process.run()
        ChildProcess.waitForExit(process)
        return process.processIdentifier
    }

    /// A PID no process can have: one above the kernel's limit (`/proc/sys/kernel/pid_max`).
    private static func processIDAboveMaximum() -> pid_t {
        let text = try? String(contentsOfFile: "/proc/sys/kernel/pid_max", encoding: .utf8)
        let maximum = text.flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 99_999
        return maximum + 1
    }

    /// A process that lives until `stop` ends it.
    private static func startSleeper() throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec sleep 300"]
        try process.run()
        return process
    }

    private static func stop(_ process: Process) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        ChildProcess.waitForExit(process)
    }
}
