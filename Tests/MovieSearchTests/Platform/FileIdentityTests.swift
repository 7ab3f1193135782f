import Foundation
import MovieSearchInput
@testable import MovieSearchPlatform
import TestSupport
import XCTest

/// The one identity of a file (`FileIdentity`) and the one way reading a file fails (`FileFailure`), each with one
/// wording of "not a regular file".
final class FileIdentityTests: XCTestCase {
    /// A path and a descriptor of one file agree; a hard link is the same file; a file renamed into place is another
    /// file; a rewrite in place is the same file with other bytes; a rename away keeps its bytes' identity.
    func testIdentityTellsReplacedRewrittenAndLinkedFiles() throws {
        let folder = try TestPaths.temporaryFolder(self).path
        let path = FilePath(folder + "/cache"), hardLink = FilePath(folder + "/link"), away = FilePath(folder + "/away")
        try AtomicFileWriter.replaceFile(at: path, with: [[1, 2, 3]])
        let first = try XCTUnwrap(FileIdentity.of(path))
        XCTAssertEqual(first.size, 3)
        let descriptor = try Syscalls.openFile(path, for: .reading).get()
        defer { Syscalls.closeDescriptor(descriptor) }
        XCTAssertEqual(FileIdentity.of(descriptor: descriptor), first)
        XCTAssertEqual(link(folder + "/cache", folder + "/link"), 0)
        XCTAssertTrue(try XCTUnwrap(FileIdentity.of(hardLink)).isSameFile(as: first))
        XCTAssertNil(FileIdentity.of(FilePath(folder + "/missing")))

        // Replaced by a rename: another inode at the path.
        try AtomicFileWriter.replaceFile(at: path, with: [[4, 5, 6]])
        let replaced = try XCTUnwrap(FileIdentity.of(path))
        XCTAssertFalse(replaced.isSameFile(as: first))
        XCTAssertNotEqual(replaced, first)
        XCTAssertFalse(replaced.hasSameBytes(as: first))

        // The old file, still open and linked, renamed away: its bytes' identity holds (only its change time moved).
        XCTAssertEqual(rename(folder + "/link", folder + "/away"), 0)
        let moved = try XCTUnwrap(FileIdentity.of(away))
        XCTAssertTrue(moved.hasSameBytes(as: first))
        XCTAssertTrue(moved.isSameFile(as: first))

        // Rewritten in place (a shell redirect): the same file, other bytes.
        let rewriting = open(folder + "/cache", O_WRONLY | O_TRUNC)
        XCTAssertGreaterThanOrEqual(rewriting, 0)
        XCTAssertEqual([UInt8]([7, 8, 9, 10]).withUnsafeBytes { write(rewriting, $0.baseAddress, $0.count) }, 4)
        close(rewriting)
        let rewritten = try XCTUnwrap(FileIdentity.of(path))
        XCTAssertTrue(rewritten.isSameFile(as: replaced))
        XCTAssertFalse(rewritten.hasSameBytes(as: replaced))
        XCTAssertNotEqual(rewritten, replaced)
    }

    /// One wording per case, whoever reads: `FileReader`, `MappedFile`, and the layers that map the failure.
    func testFileFailureWordsEachCaseOnce() throws {
        XCTAssertEqual(FileFailure.notARegularFile(.fifo).reason, "it is a FIFO (named pipe), not a regular file")
        XCTAssertEqual(FileFailure.notARegularFile(.characterDevice).description,
                       "it is a character device, not a regular file")
        // A kind this build does not name is not said twice.
        XCTAssertEqual(FileFailure.notARegularFile(.other).reason, "it is not a regular file")
        XCTAssertEqual(FileKind.socket.notARegularFile, "a socket, not a regular file")
        XCTAssertEqual(FileFailure.tooLarge(2 << 30).reason, "larger than 2 GiB")
        XCTAssertEqual(InputError.tooLarge(16 << 20), .file(.tooLarge(16 << 20)))
        XCTAssertEqual(InputError.system(SystemError(code: ENOENT)).reason, "No such file or directory")

        let folder = try TestPaths.temporaryFolder(self).path
        let fifo = folder + "/fifo", missing = FilePath(folder + "/missing")
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        XCTAssertThrowsError(try FileReader.readRegularFile(path: FilePath(fifo), maximumBytes: 10)) {
            XCTAssertEqual($0 as? FileFailure, .notARegularFile(.fifo))
        }
        XCTAssertThrowsError(try MappedFile(path: FilePath(fifo))) {
            XCTAssertEqual($0 as? FileFailure, .notARegularFile(.fifo))
        }
        XCTAssertThrowsError(try MappedFile(path: missing)) {
            XCTAssertEqual($0 as? FileFailure, .system(SystemError(code: ENOENT, call: "open")))
            XCTAssertEqual(($0 as? FileFailure)?.isNoSuchFile, true)
        }
        XCTAssertThrowsError(try FileReader.open(path: FilePath(folder))) {
            XCTAssertEqual(($0 as? FileFailure)?.reason, "Is a directory")
        }
        XCTAssertThrowsError(try CatalogInput(path: FilePath(folder))) {
            XCTAssertEqual($0 as? InputError, .system(SystemError(code: EISDIR)))
        }
    }
}
