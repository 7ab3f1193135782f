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
            XCTAssertEqual(error as? FileFailure, .notARegularFile(.directory))
        }
        let fifo = folder + "/fifo"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        // Would block for ever in a plain open(2) for reading, with no writer.
        XCTAssertThrowsError(try MappedFile(path: FilePath(fifo))) { error in
            XCTAssertEqual(error as? FileFailure, .notARegularFile(.fifo))
        }
        XCTAssertThrowsError(try MappedFile(path: FilePath(folder + "/missing"))) { error in
            guard case .system(let system)? = error as? FileFailure else { return XCTFail("\(error)") }
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

    // MARK: The SIGBUS guard

    /// 256 KiB: four pages of 64 KiB, the largest page size of the platforms (16 KiB on Apple silicon, 4 KiB on
    /// x86), so that the truncations below leave whole pages past the end whatever the machine.
    private static let guardedSize = 1 << 18

    /// A file cut short under a guarded mapping: a read past its new end does not end the process (SIGBUS); it
    /// reads zeros and marks the mapping damaged. A read that stays inside the file does not. Without the guard
    /// this test dies with SIGBUS.
    func testAGuardedMappingSurvivesItsFileCutShort() throws {
        let contents = (0..<Self.guardedSize).map { UInt8(truncatingIfNeeded: $0 % 251 + 1) }
        let path = try file(contents, name: "guarded.bin")
        let mapped = try MappedFile(path: FilePath(path), guarded: true)
        XCTAssertTrue(mapped.isGuarded)
        XCTAssertFalse(mapped.isDamaged)
        let opened = try XCTUnwrap(mapped.currentStatus())
        XCTAssertEqual(opened.size, contents.count)

        XCTAssertEqual(truncate(path, off_t(Self.guardedSize / 2)), 0)
        XCTAssertEqual(mapped.bytes[10], contents[10], "a byte still in the file")
        XCTAssertFalse(mapped.isDamaged, "no read past the end yet")
        XCTAssertEqual(mapped.currentStatus()?.size, Self.guardedSize / 2, "fstat follows the file")
        XCTAssertNotEqual(mapped.currentStatus(), opened)

        // Past the new end: SIGBUS, caught; zeros mapped over the whole mapping.
        XCTAssertEqual(mapped.bytes[Self.guardedSize - 1], 0)
        XCTAssertTrue(mapped.isDamaged)
        XCTAssertEqual(mapped.bytes[10], 0, "the whole mapping is zeros now, not a mix of old and new bytes")
        XCTAssertTrue(mapped.bytes.allSatisfy { $0 == 0 })
    }

    /// Truncated to nothing, then written again with other bytes (`truncate -s 0`, then `cp`): reads never crash,
    /// and the mapping stays damaged (zeros), never showing the new bytes as if they were the file opened.
    func testAGuardedMappingOfAFileTruncatedThenRewritten() throws {
        let path = try file([UInt8](repeating: 0xAB, count: Self.guardedSize), name: "rewritten.bin")
        let mapped = try MappedFile(path: FilePath(path), guarded: true)
        XCTAssertEqual(truncate(path, 0), 0)
        XCTAssertEqual(mapped.bytes[Self.guardedSize / 2], 0)
        XCTAssertTrue(mapped.isDamaged)
        try Data(repeating: 0xCD, count: Self.guardedSize).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(mapped.bytes[0], 0)
        XCTAssertEqual(mapped.bytes[Self.guardedSize - 1], 0)
        XCTAssertTrue(mapped.isDamaged)
    }

    /// A file rewritten in place with other bytes of the same size raises no SIGBUS: the mapping shows them, and
    /// only its status tells (size, modification and change times); an unguarded mapping has no status to ask.
    func testARewriteInPlaceChangesTheStatusNotTheDamagedFlag() throws {
        let path = try file([UInt8](repeating: 1, count: 8192), name: "same-size.bin")
        let mapped = try MappedFile(path: FilePath(path), guarded: true)
        let opened = try XCTUnwrap(mapped.currentStatus())
        usleep(20_000)  // past the file system's clock tick, so that the times differ
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        try handle.write(contentsOf: Data(repeating: 2, count: 8192))
        try handle.close()
        XCTAssertEqual(mapped.bytes[0], 2)
        XCTAssertFalse(mapped.isDamaged)
        let now = try XCTUnwrap(mapped.currentStatus())
        XCTAssertEqual(now.inode, opened.inode)
        XCTAssertEqual(now.size, opened.size)
        XCTAssertNotEqual(now.modified, opened.modified)

        let unguarded = try MappedFile(path: FilePath(path))
        XCTAssertFalse(unguarded.isGuarded)
        XCTAssertNil(unguarded.currentStatus())
        XCTAssertFalse(unguarded.isDamaged)
    }

    /// The guard's table is fixed (`MAPPING_GUARD_CAPACITY`): a mapping gives its slot back when it goes away, so
    /// that a long-running server that opens many caches in turn keeps every one guarded.
    func testGuardSlotsAreGivenBack() throws {
        let path = try file([UInt8](repeating: 3, count: 4096), name: "slots.bin")
        for round in 0..<200 {
            let mapped = try MappedFile(path: FilePath(path), guarded: true)
            XCTAssertTrue(mapped.isGuarded, "round \(round)")
            XCTAssertFalse(mapped.isDamaged, "round \(round): a slot reused with the last user's flag")
            if round % 2 == 0 { mapped.markDamaged() }
        }
        // Held at once: the table fills; past it a mapping still opens, unguarded.
        let held = try (0..<70).map { _ in try MappedFile(path: FilePath(path), guarded: true) }
        XCTAssertGreaterThan(held.filter(\.isGuarded).count, 32)
        XCTAssertTrue(held.contains { !$0.isGuarded })
        XCTAssertTrue(held.allSatisfy { $0.currentStatus() != nil }, "status is kept whether or not guarded")
    }
}
