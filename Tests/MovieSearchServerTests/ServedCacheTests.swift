import Foundation
import MovieSearch
import MovieSearchServer
import TestSupport
import XCTest

/// `ServedCache.reloadIfChanged`: a cache renamed over the path is served, a damaged one is refused and the old one
/// kept, and nothing happens when nothing changed; a cache written over in place is not intact (`isIntact`) until
/// a complete one is checked and swapped in.
final class ServedCacheTests: XCTestCase {
    private var folder = ""
    private var path = ""

    override func setUpWithError() throws {
        folder = try TestPaths.temporaryFolder(self).path
        path = folder + "/served.mscache"
        _ = try CacheWriter.write(Fixtures.small, to: path)
    }

    /// Writes `catalog` to a new file beside the cache and renames it over the cache, as `index` does.
    private func replace(with catalog: Catalog) throws {
        let temporary = folder + "/new.mscache"
        _ = try CacheWriter.write(catalog, to: temporary)
        XCTAssertEqual(rename(temporary, path), 0)
    }

    private func replace(withBytes bytes: [UInt8]) throws {
        let temporary = folder + "/garbage.tmp"
        try Data(bytes).write(to: URL(fileURLWithPath: temporary))
        XCTAssertEqual(rename(temporary, path), 0)
    }

    private static let other = Catalog(movies: [
        Movie(id: 0, title: "Heat", year: 1995, rating: 4),
        Movie(id: 1, title: "Gone Girl", year: 2014, rating: 4),
        Movie(id: 2, title: "Dark Shadows", year: 2012, rating: 3),
    ])

    func testNothingChangedIsNil() throws {
        let cache = try ServedCache(path: FilePath(path))
        XCTAssertNil(cache.reloadIfChanged())
        XCTAssertNil(cache.reloadIfChanged())
        XCTAssertEqual(cache.snapshot().generation, 0)
        XCTAssertEqual(cache.snapshot().index.movieCount, 16)
    }

    func testAReplacementByRenameIsServed() throws {
        let cache = try ServedCache(path: FilePath(path))
        let old = cache.snapshot()
        try replace(with: Self.other)
        XCTAssertEqual(cache.reloadIfChanged(), .reloaded(movies: 3))
        let new = cache.snapshot()
        XCTAssertEqual(new.generation, 1)
        XCTAssertEqual(new.index.movieCount, 3)
        XCTAssertEqual(try new.index.search("dark").total, 1)
        XCTAssertNil(cache.reloadIfChanged())
        // A request that took the old snapshot still answers from the old mapping.
        XCTAssertEqual(old.index.movieCount, 16)
        XCTAssertEqual(try old.index.movie(id: 7).title, "Brüno")
        XCTAssertGreaterThan(try old.index.search("dark").total, 5)

        try replace(with: Fixtures.small)
        XCTAssertEqual(cache.reloadIfChanged(), .reloaded(movies: 16))
        XCTAssertEqual(cache.snapshot().generation, 2)
    }

    func testADamagedReplacementFailsAndTheOldCacheStays() throws {
        let cache = try ServedCache(path: FilePath(path))
        let answer = try cache.snapshot().index.search("dark").total
        for bytes in [Array("not a cache at all, just garbage".utf8), [], Array(repeating: 0xFF, count: 4096)] {
            try replace(withBytes: bytes)
            guard case .failed(let reason)? = cache.reloadIfChanged() else {
                return XCTFail("a damaged replacement (\(bytes.count) bytes) was not refused")
            }
            XCTAssertFalse(reason.isEmpty)
            XCTAssertFalse(reason.contains("\n"), reason)
            // Refused once, not tried again until the path changes.
            XCTAssertNil(cache.reloadIfChanged())
            let snapshot = cache.snapshot()
            XCTAssertEqual(snapshot.generation, 0)
            XCTAssertEqual(snapshot.index.movieCount, 16)
            XCTAssertEqual(try snapshot.index.search("dark").total, answer)
        }
        // A good replacement after a damaged one is served.
        try replace(with: Self.other)
        XCTAssertEqual(cache.reloadIfChanged(), .reloaded(movies: 3))
        XCTAssertEqual(cache.snapshot().generation, 1)
    }

    func testAMissingPathIsAMomentBetweenTwoFiles() throws {
        let cache = try ServedCache(path: FilePath(path))
        XCTAssertEqual(unlink(path), 0)
        XCTAssertNil(cache.reloadIfChanged())
        XCTAssertEqual(cache.snapshot().index.movieCount, 16)
        try replace(with: Self.other)
        XCTAssertEqual(cache.reloadIfChanged(), .reloaded(movies: 3))
    }

    /// Writes `bytes` over the cache in place, as `cp` or a shell redirect does: same inode, truncated first.
    private func overwriteInPlace(with bytes: [UInt8]) throws {
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(bytes))
        try handle.close()
    }

    /// A cache of 3,000 movies (many checksum blocks, most of which opening does not read) with one byte of the
    /// middle of its largest section flipped: the file opens (header, directory, block table and year table
    /// intact) but one block fails its checksum.
    static func damagedBlock(folder: String) throws -> [UInt8] {
        let scratch = folder + "/scratch.mscache"
        let catalog = Catalog(movies: (0..<3_000).map { id in
            Movie(id: id, title: "Title \(id) word\(id % 97)", year: 1950 + id % 70, rating: Double(id % 11),
                  cast: ["Actor \(id % 500)"], genres: ["Genre \(id % 9)"])
        })
        _ = try CacheWriter.write(catalog, to: scratch)
        var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: scratch)))
        let largest = try XCTUnwrap(try MovieIndex(path: scratch).layout.sections.max { $0.length < $1.length })
        bytes[largest.offset + largest.length / 2] ^= 0x10
        XCTAssertNoThrow(try Data(bytes).write(to: URL(fileURLWithPath: scratch)))
        XCTAssertNoThrow(try MovieIndex(path: scratch), "opens")
        XCTAssertThrowsError(try MovieIndex(path: scratch).verify(), "but fails its checks")
        try FileManager.default.removeItem(atPath: scratch)
        return bytes
    }

    func testARenameKeepsTheOldSnapshotIntact() throws {
        let cache = try ServedCache(path: FilePath(path))
        let old = cache.snapshot()
        XCTAssertTrue(cache.isIntact(old))
        XCTAssertEqual(cache.health(), .ok)
        try replace(with: Self.other)
        XCTAssertTrue(cache.isIntact(old), "the old file is unchanged, only unlinked")
        XCTAssertEqual(cache.reloadIfChanged(), .reloaded(movies: 3))
        XCTAssertTrue(cache.isIntact(old))
        XCTAssertTrue(cache.isIntact(cache.snapshot()))
    }

    /// `truncate -s 0`, then the new file written in place (`cp`): not intact from the truncation on, reported
    /// once as unavailable, and served once complete.
    func testACacheTruncatedThenRewrittenInPlace() throws {
        let cache = try ServedCache(path: FilePath(path))
        let old = cache.snapshot()
        XCTAssertEqual(truncate(path, 0), 0)
        XCTAssertFalse(cache.isIntact(old))
        guard case .unavailable(let reason)? = cache.reloadIfChanged() else { return XCTFail("not reported") }
        XCTAssertFalse(reason.contains("\n"), reason)
        guard case .unavailable = cache.health() else { return XCTFail("\(cache.health())") }
        // Half of the new file: still being written, not reported again.
        _ = try CacheWriter.write(Self.other, to: folder + "/other.mscache")
        let other = try Array(Data(contentsOf: URL(fileURLWithPath: folder + "/other.mscache")))
        try overwriteInPlace(with: Array(other[..<(other.count / 2)]))
        XCTAssertNil(cache.reloadIfChanged())
        XCTAssertEqual(cache.snapshot().generation, 0)
        XCTAssertFalse(cache.isIntact(cache.snapshot()))
        try overwriteInPlace(with: other)
        XCTAssertEqual(cache.reloadIfChanged(), .reloaded(movies: 3))
        let new = cache.snapshot()
        XCTAssertEqual(new.generation, 1)
        XCTAssertTrue(cache.isIntact(new))
        XCTAssertEqual(cache.health(), .ok)
        XCTAssertEqual(try new.index.search("dark").total, 1)
    }

    /// `cp other live` in one go, between two checks: the old snapshot is not intact, the new file is served.
    func testACacheCopiedOverInPlace() throws {
        let cache = try ServedCache(path: FilePath(path))
        let old = cache.snapshot()
        _ = try CacheWriter.write(Self.other, to: folder + "/other.mscache")
        try overwriteInPlace(with: try Array(Data(contentsOf: URL(fileURLWithPath: folder + "/other.mscache"))))
        XCTAssertFalse(cache.isIntact(old))
        XCTAssertEqual(cache.reloadIfChanged(), .reloaded(movies: 3))
        XCTAssertTrue(cache.isIntact(cache.snapshot()))
    }

    /// A cache that opens but has one damaged block, renamed into place: refused (every block is checked before
    /// the swap), the old cache served and intact, and `health` says why.
    func testAReplacementWithOneDamagedBlockIsRefused() throws {
        let cache = try ServedCache(path: FilePath(path))
        try replace(withBytes: try Self.damagedBlock(folder: folder))
        guard case .failed(let reason)? = cache.reloadIfChanged() else { return XCTFail("a damaged block was served") }
        XCTAssertTrue(reason.contains("checksum mismatch in block"), reason)
        XCTAssertEqual(cache.snapshot().generation, 0)
        XCTAssertTrue(cache.isIntact(cache.snapshot()))
        guard case .degraded(let problem) = cache.health() else { return XCTFail("\(cache.health())") }
        XCTAssertTrue(problem.contains("still serving the previous one"), problem)
        XCTAssertTrue(problem.contains(reason), problem)
        XCTAssertEqual(try cache.snapshot().index.movie(id: 7).title, "Brüno")
        // A good replacement clears it.
        try replace(with: Self.other)
        XCTAssertEqual(cache.reloadIfChanged(), .reloaded(movies: 3))
        XCTAssertEqual(cache.health(), .ok)
    }

    /// A cache with a damaged block is not served from the start either.
    func testADamagedCacheIsRefusedAtStart() throws {
        try replace(withBytes: try Self.damagedBlock(folder: folder))
        XCTAssertThrowsError(try ServedCache(path: FilePath(path))) { error in
            XCTAssertTrue("\(error)".contains("checksum mismatch in block"), "\(error)")
        }
    }
}
