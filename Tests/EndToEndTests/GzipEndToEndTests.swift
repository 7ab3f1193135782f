import Foundation
import MovieSearch
import XCTest
import TestSupport

/// `index` on gzipped catalogs with the built binary: the same cache as the plain file, from a path or standard
/// input; a truncated or damaged gzip file one clear error, exit 1, and the previous cache left as it was.
final class GzipEndToEndTests: XCTestCase {
    private var folder: URL!
    private var plain: [UInt8] = []

    override func setUpWithError() throws {
        folder = try TestPaths.temporaryFolder(self)
        plain = try Array(Data(contentsOf: URL(fileURLWithPath: TestPaths.sampleCatalog)))
    }

    /// Writes `bytes` to `name` in the test's folder; returns its path.
    private func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func contents(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }

    func testAGzippedCatalogGivesTheSameCacheAsThePlainFile() throws {
        let plainCache = try indexedCache(TestPaths.sampleCatalog)
        let twoMembers = Gzip.compress(Array(plain[..<1000])) + Gzip.compress(Array(plain[1000...]))
        // Told by its first bytes, not its name.
        for (name, bytes) in [("sample.json.gz", Gzip.compress(plain)), ("two-members.json.gz", twoMembers),
                              ("no-extension", Gzip.compress(plain, level: 1))] {
            let catalog = try write(bytes, name)
            let cache = folder.appendingPathComponent("\(name).mscache").path
            let run = try BinaryRun.run(["index", catalog, "-o", cache])
            XCTAssertEqual(run.status, 0, run.standardError)
            XCTAssertEqual(run.standardError, "")
            XCTAssertTrue(run.standardOutput.hasPrefix("Indexed \(catalog) into \(cache)\n"), run.standardOutput)
            XCTAssertEqual(try contents(cache), try contents(plainCache), name)
        }
    }

    func testAGzippedCatalogOnStandardInputGivesTheSameCache() throws {
        let plainCache = try indexedCache(TestPaths.sampleCatalog)
        let cache = folder.appendingPathComponent("stdin.mscache").path
        let run = try BinaryRun.run(["index", "-", "-o", cache], input: Data(Gzip.compress(plain)))
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertEqual(try contents(cache), try contents(plainCache))
    }

    func testATruncatedGzipFileIsOneErrorAndThePreviousCacheStays() throws {
        let compressed = Gzip.compress(plain)
        let catalog = try write(Array(compressed[..<(compressed.count / 2)]), "cut.json.gz")
        let cache = try indexedCache(TestPaths.sampleCatalog)
        let before = try contents(cache)
        let run = try BinaryRun.run(["index", catalog, "-o", cache])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.standardOutput, "")
        XCTAssertEqual(run.errorLines, ["moviesearch: cannot read catalog \(catalog): not valid gzip data: the input "
            + "ends before the end of its compressed data (truncated? a download or copy that did not finish)"])
        XCTAssertEqual(try contents(cache), before)
        let cacheFolder = URL(fileURLWithPath: cache).deletingLastPathComponent().path
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: cacheFolder), ["test.mscache"],
                       "no temporary file is left")
    }

    func testADamagedGzipFileIsOneErrorAndThePreviousCacheStays() throws {
        let cache = try indexedCache(TestPaths.sampleCatalog)
        let before = try contents(cache)
        var damaged = Gzip.compress(plain)
        damaged[damaged.count - 6] ^= 0x01  // In the CRC-32 of the trailer.
        let withGarbage = Gzip.compress(plain) + Array("\nmore\n".utf8)
        for (name, bytes, reason) in [("crc.json.gz", damaged, "a checksum does not match (the file is damaged)"),
                                      ("garbage.json.gz", withGarbage, "bytes that are not gzip follow the end of its "
                                        + "compressed data (trailing garbage; was something appended to the file?)")] {
            let catalog = try write(bytes, name)
            let run = try BinaryRun.run(["index", catalog, "-o", cache])
            XCTAssertEqual(run.status, 1, name)
            XCTAssertEqual(run.errorLines, ["moviesearch: cannot read catalog \(catalog): not valid gzip data: \(reason)"])
            XCTAssertEqual(try contents(cache), before, name)
        }
    }
}
