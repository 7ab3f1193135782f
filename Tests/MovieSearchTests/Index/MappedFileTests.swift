import Foundation
import MovieSearch
@testable import MovieSearchPlatform
import TestSupport
import XCTest

/// `MappedFile`: what it maps, what it refuses, bounds-checked access, and that it unmaps when it goes away.
final class MappedFileTests: XCTestCase {
    private func file(_ bytes: [UInt8], name: String = "mapped.bin") throws -> String {
        let path = try TestPaths.temporaryFolder(self).path + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func testMapsTheFileAndChecksEveryRange() throws {
        let contents = (0..<5_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let mapped = try MappedFile(path: FilePath(try file(contents)))
        XCTAssertEqual(mapped.size, contents.count)
        XCTAssertEqual(Array(mapped.bytes), contents)
        XCTAssertEqual(mapped.bytes(10..<20).map(Array.init), Array(contents[10..<20]))
        XCTAssertEqual(mapped.bytes(4_990..<5_000).map(Array.init), Array(contents[4_990...]))
        XCTAssertEqual(mapped.bytes(5_000..<5_000)?.count, 0)
        XCTAssertNil(mapped.bytes(4_990..<5_001))
        XCTAssertNil(mapped.bytes(-1..<3))
        XCTAssertNil(mapped.bytes(Int.max - 1..<Int.max))
    }

    func testEmptyFileHasNoBytes() throws {
        let mapped = try MappedFile(path: FilePath(try file([])))
        XCTAssertEqual(mapped.size, 0)
        XCTAssertEqual(mapped.bytes(0..<0)?.count, 0)
        XCTAssertNil(mapped.bytes(0..<1))
    }

    func testRefusesWhatIsNotARegularFile() throws {
        let folder = try TestPaths.temporaryFolder(self).path
        XCTAssertThrowsError(try MappedFile(path: FilePath(folder))) { error in
            XCTAssertEqual(error as? MappedFile.Failure, .notARegularFile(.directory))
        }
        let fifo = folder + "/fifo"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        // Would block for ever in a plain open(2) for reading, with no writer.
        XCTAssertThrowsError(try MappedFile(path: FilePath(fifo))) { error in
            XCTAssertEqual(error as? MappedFile.Failure, .notARegularFile(.fifo))
        }
        XCTAssertThrowsError(try MappedFile(path: FilePath(folder + "/missing"))) { error in
            guard case .open(let system)? = error as? MappedFile.Failure else { return XCTFail("\(error)") }
            XCTAssertEqual(system.code, ENOENT)
        }
    }

    func testMappingOutlivesTheFileName() throws {
        let path = try file([1, 2, 3, 4])
        let mapped = try MappedFile(path: FilePath(path))
        try FileManager.default.removeItem(atPath: path)
        try Data([9, 9]).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(Array(mapped.bytes), [1, 2, 3, 4])
    }

    #if os(Linux)
    /// The mapping shows in /proc/self/maps while the object lives, and is gone once it is released.
    func testDeinitUnmaps() throws {
        let name = "unmapped-\(UUID().uuidString).bin"
        let path = try file([UInt8](repeating: 7, count: 10_000), name: name)
        func isMapped() throws -> Bool {
            // Read to the end: /proc files report a size of 0, so size-based readers see nothing.
            let maps = try XCTUnwrap(FileHandle(forReadingAtPath: "/proc/self/maps")).readDataToEndOfFile()
            return String(decoding: maps, as: UTF8.self).contains(name)
        }
        var mapped: MappedFile? = try MappedFile(path: FilePath(path))
        XCTAssertEqual(mapped?.size, 10_000)
        XCTAssertTrue(try isMapped())
        mapped = nil
        XCTAssertFalse(try isMapped())
    }
    #endif
}
