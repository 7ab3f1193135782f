import Foundation
import MovieSearch
import TestSupport
import XCTest

/// A cache that is not a regular file, through the built binary: a FIFO fails at once instead of waiting for a
/// writer, a character device, a directory and a socket are named as what they are, and the library reports the kind
/// as a typed error.
final class NonRegularCacheEndToEndTests: XCTestCase {
    private static func notACacheFile(_ path: String, _ kind: String) -> String {
        "\(path) is \(kind), not a cache file; give --cache a file built by 'moviesearch index <catalog.json>'"
    }

    func testAFIFOAsTheCacheFailsAtOnceInsteadOfWaitingForAWriter() throws {
        let folder = try TestPaths.temporaryFolder(self)
        let fifo = folder.appendingPathComponent("cache.fifo").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0, String(cString: strerror(errno)))
        let queries = folder.appendingPathComponent("queries.txt").path
        try Data("dark\n".utf8).write(to: URL(fileURLWithPath: queries))
        let message = Self.notACacheFile(fifo, "a FIFO (named pipe)")
        for arguments in [["query", "dark", "--cache", fifo], ["show", "1", "--cache", fifo], ["top", "--cache", fifo],
                          ["photos", "1", "--cache", fifo], ["bench", "--cache", fifo, "--queries", queries]] {
            try assertDataError(arguments, message)
        }
        try assertDataError(["query", "dark"], environment: ["MOVIESEARCH_CACHE": fifo], message)
        try assertDataError(["top"], environment: ["MOVIESEARCH_CACHE": fifo], message)
    }

    func testACharacterDeviceIsNamedAsOneNotReadAsATruncatedCache() throws {
        try assertDataError(["query", "dark", "--cache", "/dev/zero"], Self.notACacheFile("/dev/zero", "a character device"))
        try assertDataError(["show", "0", "--cache", "/dev/null"], Self.notACacheFile("/dev/null", "a character device"))
    }

    func testADirectoryAndASocketAreNamed() throws {
        let folder = try TestPaths.temporaryFolder(self)
        try assertDataError(["top", "--cache", folder.path], Self.notACacheFile(folder.path, "a directory"))

        let socketPath = folder.appendingPathComponent("s").path
        let socketDescriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        XCTAssertGreaterThanOrEqual(socketDescriptor, 0)
        defer { close(socketDescriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(socketPath.utf8)
        try XCTSkipIf(pathBytes.count >= MemoryLayout.size(ofValue: address.sun_path), "temporary path too long for a socket")
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: pathBytes)
            buffer[pathBytes.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        XCTAssertEqual(bound, 0, String(cString: strerror(errno)))
        try assertDataError(["query", "x", "--cache", socketPath], Self.notACacheFile(socketPath, "a socket"))
    }

    func testTheLibraryReportsTheKindAsATypedError() throws {
        let folder = try TestPaths.temporaryFolder(self)
        let fifo = folder.appendingPathComponent("f").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        XCTAssertThrowsError(try MovieIndex(path: fifo)) { error in
            XCTAssertEqual(error as? CacheError, .notARegularFile(path: fifo, kind: .fifo))
        }
        XCTAssertThrowsError(try MovieIndex(path: "/dev/zero")) { error in
            XCTAssertEqual(error as? CacheError, .notARegularFile(path: "/dev/zero", kind: .characterDevice))
        }
        XCTAssertThrowsError(try MovieIndex(path: folder.path)) { error in
            XCTAssertEqual(error as? CacheError, .notARegularFile(path: folder.path, kind: .directory))
        }
    }
}
