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
        for (name, bytes, reason) in [("crc.json.gz", damaged, "damaged data at byte \(damaged.count - 4): a checksum "
                                        + "does not match (the file is damaged)"),
                                      ("garbage.json.gz", withGarbage, "bytes that are not gzip follow the end of its "
                                        + "compressed data (trailing garbage; was something appended to the file?)")] {
            let catalog = try write(bytes, name)
            let run = try BinaryRun.run(["index", catalog, "-o", cache])
            XCTAssertEqual(run.status, 1, name)
            XCTAssertEqual(run.errorLines, ["moviesearch: cannot read catalog \(catalog): not valid gzip data: \(reason)"])
            XCTAssertEqual(try contents(cache), before, name)
        }
    }

    /// A flipped byte in the deflate data of a gzipped catalog, of every format (three places in each), is reported as damaged gzip data
    /// with its offset, never as the malformed JSON or bad row its wrong text would first look like to the reader
    /// (zlib meets the bad block or the checksum only later).
    func testAFlippedByteIsDamagedGzipNotMalformedText() throws {
        let cache = try indexedCache(TestPaths.sampleCatalog)
        let before = try contents(cache)
        // Catalogs of some MB, so that the text decoded before zlib meets the damage (or the checksum, at the end)
        // is far more than one read: the flips are in the first third.
        let count = 30_000
        var random = SplitMix64(seed: 12)
        func word() -> String { String(random.next() % 1_000_000, radix: 36) }
        let json = Array(("[" + (0..<count).map { #"{"title":"\#(word()) \#(word())","year":\#(1950 + $0 % 70)}"# }
            .joined(separator: ",\n") + "]").utf8)
        // The id padded by hand (the same bytes): String(format:) 30,000 times took some 0.1 s of the test.
        func padded(_ number: Int) -> String { String(String(10_000_000 + number).dropFirst()) }
        let rows = (0..<count).map { "tt\(padded($0))\tmovie\t\(word()) \(word())\tx\t0\t\(1950 + $0 % 70)\t\\N\t90\tDrama" }
        let tsv = Array(("tconst\ttitleType\tprimaryTitle\toriginalTitle\tisAdult\tstartYear\tendYear\truntimeMinutes\tgenres\n"
            + rows.joined(separator: "\n") + "\n").utf8)
        let csv = Array(("title,year,rating\n" + (0..<count).map { "\(word()) \(word()),\(1950 + $0 % 70),\($0 % 10)" }
            .joined(separator: "\n") + "\n").utf8)
        var checked = 0
        for (format, text) in [("json", json), ("imdb", tsv), ("csv", csv)] {
            let compressed = Gzip.compress(text)
            for step in 1...3 {
                var damaged = compressed
                let offset = 20 + (compressed.count / 3) * step / 4
                damaged[offset] ^= 0x55
                let catalog = try write(damaged, "flipped-\(format)-\(step).gz")
                let run = try BinaryRun.run(["index", catalog, "-o", cache, "--format", format])
                XCTAssertEqual(run.status, 1, "\(format) byte \(offset): \(run.standardError)")
                XCTAssertEqual(run.errorLines.count, 1, run.standardError)
                // Damaged where zlib stopped; or, when the flip made the data seem to go on past the trailer, cut
                // short: either way the gzip data, not the text it decoded to.
                let prefix = "moviesearch: cannot read catalog \(catalog): not valid gzip data: "
                XCTAssertTrue(run.standardError.hasPrefix(prefix + "damaged data at byte ")
                              || run.standardError.hasPrefix(prefix + "the input ends before"),
                              "\(format) byte \(offset): \(run.standardError)")
                XCTAssertEqual(try contents(cache), before)
                checked += 1
            }
        }
        XCTAssertEqual(checked, 9)
    }
}
