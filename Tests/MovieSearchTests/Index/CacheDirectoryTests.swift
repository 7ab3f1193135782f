import MovieSearch
@_spi(Engine) @testable import MovieSearchIndex
import TestSupport
import XCTest

/// `CacheDirectory` parsed from bytes: the metadata checksum and every check of an entry.
final class CacheDirectoryTests: XCTestCase {
    private func parse(_ bytes: [UInt8]) throws -> CacheDirectory {
        try bytes.withUnsafeBytes { raw in
            let header = try CacheHeader(parsing: raw, path: "d.mscache")
            return try CacheDirectory(parsing: raw, header: header, path: "d.mscache")
        }
    }

    private func error(_ bytes: [UInt8]) -> CacheError? {
        do {
            _ = try parse(bytes)
            return nil
        } catch {
            return error as? CacheError ?? .corrupt(path: "", detail: "unexpected \(error)")
        }
    }

    /// The start of directory entry `index`.
    private func entry(_ index: Int) -> Int { CacheFormat.headerSize + index * CacheFormat.directoryEntrySize }

    func testEverySectionAsTheWriterLaidItOut() throws {
        let forged = try ForgedCache(Fixtures.small)
        let directory = try parse(forged.bytes)
        for tag in CacheFormat.Tag.required {
            let section = try XCTUnwrap(directory[tag], tag.rawValue)
            let (width, count, offset) = forged.entry(of: tag)
            XCTAssertEqual(section.width, width, tag.rawValue)
            XCTAssertEqual(section.count, count, tag.rawValue)
            XCTAssertEqual(section.offset, offset, tag.rawValue)
            XCTAssertEqual(section.length, width == 0 ? count : CacheFormat.packedLength(count: count, width: width), tag.rawValue)
            XCTAssertEqual(forged.u32(at: entry(section.number)), tag.code, tag.rawValue)
        }
    }

    func testDamagedDirectoryOrBlockTableFailsTheMetadataChecksum() throws {
        let bytes = try CacheWriter.encode(Fixtures.small)
        let header = try bytes.withUnsafeBytes { try CacheHeader(parsing: $0, path: "d.mscache") }
        let mismatch = CacheError.checksumMismatch(path: "d.mscache", region: "the section directory")
        for position in Array(entry(0)..<entry(header.sectionCount)) + Array(header.contentEnd..<bytes.count) {
            var damaged = bytes
            damaged[position] ^= 1 << UInt8(position % 8)
            XCTAssertEqual(error(damaged), mismatch, "byte \(position)")
        }
    }

    /// Entries edited and sealed with fresh checksums, as a hostile writer would: refused, never trusted.
    func testForgedEntries() throws {
        let intact = try ForgedCache(Fixtures.small)
        let contentEnd = intact.u64(at: CacheFormat.HeaderField.blockTableOffset)
        func corrupt(_ detail: String) -> CacheError { .corrupt(path: "d.mscache", detail: detail) }
        let cases: [(CacheError, (inout ForgedCache) -> Void)] = [
            (corrupt("section 2 lies outside the file"), { $0.setU64(8, at: self.entry(2) + CacheFormat.DirectoryField.offset) }),
            (corrupt("section 2 lies outside the file"), { $0.setU64(contentEnd + 8, at: self.entry(2) + CacheFormat.DirectoryField.offset) }),
            (corrupt("section 2 lies outside the file"), { $0.setU64(UInt64.max, at: self.entry(2) + CacheFormat.DirectoryField.length) }),
            (corrupt("section 3 has the wrong length"), { $0.setU32(33, at: self.entry(3) + CacheFormat.DirectoryField.width) }),
            (corrupt("section 3 has the wrong length"), { $0.setU64(UInt64.max, at: self.entry(3) + CacheFormat.DirectoryField.count) }),
            (corrupt("section 3 has the wrong length"), { forged in
                let count = forged.u64(at: self.entry(3) + CacheFormat.DirectoryField.count)
                forged.setU64(count + 1_000, at: self.entry(3) + CacheFormat.DirectoryField.count)
            }),
            (corrupt("section 5 appears twice"), { forged in
                forged.setU32(forged.u32(at: self.entry(1)), at: self.entry(5) + CacheFormat.DirectoryField.tag)
            }),
        ]
        for (expected, edit) in cases {
            var forged = intact
            edit(&forged)
            XCTAssertEqual(error(forged.sealed()), expected)
        }
    }

    func testUnknownTagsAreIgnored() throws {
        var forged = try ForgedCache(Fixtures.small)
        let sections = Int(forged.u32(at: CacheFormat.HeaderField.sectionCount))
        let lists = try XCTUnwrap((0..<sections).first { forged.u32(at: entry($0)) == CacheFormat.Tag.movieYears.code })
        forged.setU32(CacheFormat.Tag.movieYears.code ^ 0x2020_2020, at: entry(lists))  // "myrs": no such tag
        let directory = try parse(forged.sealed())
        XCTAssertNil(directory[.movieYears])
        XCTAssertNotNil(directory[.postings])
    }
}
