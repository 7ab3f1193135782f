import MovieSearch
@_spi(Engine) @testable import MovieSearchIndex
@_spi(Engine) @testable import MovieSearchText
import TestSupport
import XCTest

/// `CacheHeader` parsed from bytes: each check of the header, on intact, cut-off and edited files.
final class CacheHeaderTests: XCTestCase {
    private func parse(_ bytes: [UInt8]) throws(CacheError) -> CacheHeader {
        try bytes.withUnsafeBytes { raw in
            Result { () throws(CacheError) in try CacheHeader(parsing: raw, path: "h.mscache") }
        }.get()
    }

    private func error(_ bytes: [UInt8]) -> CacheError? {
        do {
            _ = try parse(bytes)
            return nil
        } catch {
            return error
        }
    }

    /// The bytes with the header checksum recomputed after an edit of the header.
    private func resealedHeader(_ forged: ForgedCache) -> [UInt8] {
        var copy = forged
        copy.setU64(XXHash64.hash(Array(forged.bytes[0..<CacheFormat.HeaderField.headerChecksum])),
                    at: CacheFormat.HeaderField.headerChecksum)
        return copy.bytes
    }

    func testFieldsOfAnIntactHeader() throws {
        let forged = try ForgedCache(Fixtures.small)
        let header = try parse(forged.bytes)
        XCTAssertEqual(header.movieCount, 16)
        XCTAssertEqual(header.yearCount, 7)
        XCTAssertEqual(header.termCount, Set(Fixtures.small.movies.flatMap { Tokenizer.tokens(in: $0.title) }).count)
        XCTAssertEqual(header.sectionCount, CacheFormat.Tag.required.count)
        XCTAssertEqual(header.blockSize, CacheFormat.smallBlockSize)
        XCTAssertEqual(header.contentStart, CacheFormat.aligned(64 + 32 * CacheFormat.Tag.required.count))
        XCTAssertEqual(header.contentEnd, Int(forged.u64(at: CacheFormat.HeaderField.blockTableOffset)))
        XCTAssertEqual(forged.bytes.count - header.contentEnd, header.blockCount * 8)
        XCTAssertEqual(header.metadataChecksum, forged.u64(at: CacheFormat.HeaderField.metadataChecksum))
    }

    func testShortFilesAreForeignOrCutOff() throws {
        let bytes = try CacheWriter.encode(Fixtures.small)
        for length in 0..<CacheFormat.headerSize {
            XCTAssertEqual(error(Array(bytes[0..<length])), .truncated(path: "h.mscache", expectedBytes: 64, actualBytes: length))
        }
        XCTAssertEqual(error(Array("{\"movies\"".utf8)), .notACache(path: "h.mscache"))
        XCTAssertEqual(error([0x89, 0x4D, 0x53, 0x00]), .notACache(path: "h.mscache"))
    }

    func testCutOffAndLengthenedFiles() throws {
        let bytes = try CacheWriter.encode(Fixtures.small)
        for length in [64, 65, bytes.count / 2, bytes.count - 1] {
            XCTAssertEqual(error(Array(bytes[0..<length])),
                           .truncated(path: "h.mscache", expectedBytes: bytes.count, actualBytes: length))
        }
        XCTAssertEqual(error(bytes + [0, 0, 0]), .corrupt(path: "h.mscache", detail: "3 bytes follow the end its header gives"))
    }

    func testMagicVersionAndChecksum() throws {
        let bytes = try CacheWriter.encode(Fixtures.small)
        var foreign = bytes
        foreign[3] = UInt8(ascii: "X")
        XCTAssertEqual(error(foreign), .notACache(path: "h.mscache"))
        var old = ForgedCache(bytes)
        old.setU32(1, at: CacheFormat.HeaderField.version)
        // The version is checked before the checksum, so that an old cache gets "rebuild it", not "damaged".
        XCTAssertEqual(error(old.bytes), .unsupportedVersion(path: "h.mscache", found: 1, supported: CacheFormat.version))
        for position in 8..<CacheFormat.headerSize where !(8..<12).contains(position) {
            var flipped = bytes
            flipped[position] ^= 0x10
            XCTAssertEqual(error(flipped), .checksumMismatch(path: "h.mscache", region: "the header"), "byte \(position)")
        }
    }

    /// Fields out of range in a header whose checksum matches (forged): never trusted, never a trap.
    func testForgedFieldsOutOfRange() throws {
        let intact = try ForgedCache(Fixtures.small)
        let outOfRange = CacheError.corrupt(path: "h.mscache", detail: "header fields out of range")
        let edits: [(String, (inout ForgedCache) -> Void)] = [
            ("block size below the minimum", { $0.setU32(UInt32(CacheFormat.minimumBlockSize / 2), at: CacheFormat.HeaderField.blockSize) }),
            ("block size not a power of two", { $0.setU32(UInt32(CacheFormat.blockSize + 1), at: CacheFormat.HeaderField.blockSize) }),
            ("block size above the maximum", { $0.setU32(UInt32(CacheFormat.maximumBlockSize) * 2, at: CacheFormat.HeaderField.blockSize) }),
            ("zero block size", { $0.setU32(0, at: CacheFormat.HeaderField.blockSize) }),
            ("too many sections", { $0.setU32(UInt32(CacheFormat.maximumSectionCount + 1), at: CacheFormat.HeaderField.sectionCount) }),
            ("sections past the end", { $0.setU32(UInt32(CacheFormat.maximumSectionCount), at: CacheFormat.HeaderField.sectionCount) }),
            ("table before the content", { $0.setU64(8, at: CacheFormat.HeaderField.blockTableOffset) }),
            ("table past the end", { $0.setU64(UInt64.max, at: CacheFormat.HeaderField.blockTableOffset) }),
        ]
        for (name, edit) in edits {
            var forged = intact
            edit(&forged)
            XCTAssertEqual(error(resealedHeader(forged)), outOfRange, name)
        }
        var shortTable = intact
        shortTable.setU64(intact.u64(at: CacheFormat.HeaderField.blockTableOffset) - 8, at: CacheFormat.HeaderField.blockTableOffset)
        XCTAssertEqual(error(resealedHeader(shortTable)),
                       .corrupt(path: "h.mscache", detail: "block checksum table has the wrong size"))
    }
}
