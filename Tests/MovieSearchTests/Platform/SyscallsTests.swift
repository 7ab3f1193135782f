import Foundation
import MovieSearch
@testable import MovieSearchPlatform
import TestSupport
import XCTest

/// The wrappers of `Syscalls`: what they return for each kind of file, and errors worded as the C library words
/// them, so that messages read as they did when each file called the C library itself.
final class SyscallsTests: XCTestCase {
    func testStatusNamesEachKindAndFollowsLinksOnlyWhenAsked() throws {
        let folder = try TestPaths.temporaryFolder(self).path
        let file = FilePath(folder + "/file"), link = FilePath(folder + "/link"), fifo = folder + "/fifo"
        try [UInt8](repeating: 7, count: 1234).withUnsafeBytes { bytes in
            let descriptor = try Syscalls.openFile(file, for: .creatingNew).get()
            defer { Syscalls.closeDescriptor(descriptor) }
            try Syscalls.writeAll(descriptor, bytes).get()
        }
        XCTAssertEqual(symlink("file", folder + "/link"), 0)
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)

        let regular = try Syscalls.status(ofPath: file, followingLinks: true).get()
        XCTAssertEqual(regular.kind, .regular)
        XCTAssertEqual(regular.size, 1234)
        XCTAssertEqual(try Syscalls.status(ofPath: link, followingLinks: false).get().kind, .symbolicLink)
        let followed = try Syscalls.status(ofPath: link, followingLinks: true).get()
        XCTAssertEqual(followed, regular, "the link's target: same kind, size, device and inode")
        XCTAssertEqual(try Syscalls.status(ofPath: FilePath(folder), followingLinks: true).get().kind,
                       .notRegular(.directory))
        XCTAssertEqual(try Syscalls.status(ofPath: FilePath(fifo), followingLinks: true).get().kind, .notRegular(.fifo))
        XCTAssertEqual(try Syscalls.status(ofPath: FilePath("/dev/null"), followingLinks: true).get().kind,
                       .notRegular(.characterDevice))

        // A FIFO without a writer opens at once without blocking, and its descriptor says what it is.
        let descriptor = try Syscalls.openFile(FilePath(fifo), for: .readingWithoutBlocking).get()
        defer { Syscalls.closeDescriptor(descriptor) }
        XCTAssertEqual(try Syscalls.status(ofDescriptor: descriptor).get().kind, .notRegular(.fifo))
    }

    func testFailuresCarryTheErrnoAndTheSystemsWords() throws {
        let folder = try TestPaths.temporaryFolder(self).path
        let missing = FilePath(folder + "/missing")
        XCTAssertEqual(Syscalls.openFile(missing, for: .reading), .failure(SystemError(code: ENOENT, call: "open")))
        XCTAssertEqual(SystemError(code: ENOENT).description, "No such file or directory")
        // The call's name is kept beside the errno, never in the words a message prints.
        XCTAssertEqual(SystemError(code: ENOENT, call: "open").description, "No such file or directory")
        XCTAssertEqual(Syscalls.status(ofPath: missing, followingLinks: false),
                       .failure(SystemError(code: ENOENT, call: "lstat")))
        XCTAssertEqual(Syscalls.status(ofPath: missing, followingLinks: true),
                       .failure(SystemError(code: ENOENT, call: "stat")))
        XCTAssertFalse(Syscalls.isReadable(missing))
        XCTAssertTrue(Syscalls.isReadable(FilePath(folder)))

        let file = FilePath(folder + "/file")
        let descriptor = try Syscalls.openFile(file, for: .creatingNew).get()
        Syscalls.closeDescriptor(descriptor)
        guard case let .failure(error) = Syscalls.openFile(file, for: .creatingNew) else {
            return XCTFail("a second creation of the same file succeeded")
        }
        XCTAssertEqual(error.code, EEXIST)
        XCTAssertEqual(error.reason, "File exists")
        guard case let .failure(removal) = Syscalls.removeFile(missing) else { return XCTFail("removed nothing") }
        XCTAssertEqual(removal, SystemError(code: ENOENT, call: "unlink"))

        XCTAssertTrue(SystemError(code: EPIPE).isBrokenPipe)
        XCTAssertFalse(SystemError(code: EIO).isBrokenPipe)
        XCTAssertEqual(FileFailure.system(SystemError(code: EISDIR)).reason, "Is a directory")
        XCTAssertEqual(FileFailure.tooLarge(16 << 20).reason, "larger than 16 MiB")
    }

    /// Bytes written in calls of at most 16 MiB come back whole, from the start or from an offset; a read at the
    /// end reads 0 bytes.
    func testWriteAllThenReadBack() throws {
        let folder = try TestPaths.temporaryFolder(self).path
        let path = FilePath(folder + "/data")
        // 17 MiB, each MiB a different byte, so that a part lost or repeated at a call boundary shows.
        let written = (0..<17).flatMap { [UInt8](repeating: UInt8($0 * 13), count: 1 << 20) }
        let output = try Syscalls.openFile(path, for: .creatingNew).get()
        try written.withUnsafeBytes { try Syscalls.writeAll(output, $0).get() }
        try Syscalls.flushToDisk(output).get()
        try Syscalls.closeDescriptor(output).get()

        let input = try Syscalls.openFile(path, for: .reading).get()
        defer { Syscalls.closeDescriptor(input) }
        var read: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = try chunk.withUnsafeMutableBytes { try Syscalls.readSome(input, into: $0).get() }
            if count == 0 { break }
            read += chunk[..<count]
        }
        XCTAssertEqual(read.count, written.count)
        XCTAssertTrue(read == written, "the bytes read back differ from those written")
    }

    func testFolderEntriesAreTheNamesBytes() throws {
        let folder = try TestPaths.temporaryFolder(self).path
        let name: [UInt8] = Array("lat".utf8) + [0xE9]
        let descriptor = try Syscalls.openFile(FilePath(bytes: Array((folder + "/").utf8) + name), for: .creatingNew).get()
        Syscalls.closeDescriptor(descriptor)
        let entries = try XCTUnwrap(Syscalls.folderEntries(FilePath(folder)))
        XCTAssertEqual(Set(entries.map(\.bytes)), [Array(".".utf8), Array("..".utf8), name])
        XCTAssertNil(Syscalls.folderEntries(FilePath(folder + "/missing")))
    }
}
