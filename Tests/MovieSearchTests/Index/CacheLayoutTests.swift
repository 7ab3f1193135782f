import Foundation
import MovieSearch
@_spi(Engine) @testable import MovieSearchIndex
@testable import MovieSearchQuery
import TestSupport
import XCTest

/// `CacheLayout` (`moviesearch info`): every directory entry once, with the directory's figures, the bytes that
/// add up to the file's length, the groups the brief names, and a newer writer's sections listed, not refused.
final class CacheLayoutTests: XCTestCase {
    /// The small fixture, and a catalog with every optional field (original titles, overviews, posters, both ids,
    /// an IMDb id of another form, critics' ratings, an empty text), so that every optional tag is laid out too.
    private static let catalogs: [(name: String, catalog: Catalog)] = [
        ("small", Fixtures.small),
        ("optional fields", Catalog(movies: [
            Movie(id: 0, title: "Heat", year: 1995, rating: 8.3, cast: ["Al Pacino"], genres: ["Crime"],
                  originalTitle: "Heat", overview: "A heist.", posterPath: "/heat.jpg", tmdbID: 949,
                  imdbID: "tt0113277", criticRating: 7.6),
            Movie(id: 1, title: "Amélie", year: 2001, rating: 7, originalTitle: "", overview: "",
                  posterPath: "", imdbID: "nm0000001", criticRating: 8.3),
            Movie(id: 2, title: "Untitled", year: 2001, rating: nil, imdbID: ""),
        ])),
        ("empty", Catalog(movies: [])),
    ]

    /// The directory as the file's bytes say, read here apart from the reader: tag, width, count, offset, length.
    private func directory(of bytes: [UInt8]) -> [(tag: UInt32, width: Int, count: Int, offset: Int, length: Int)] {
        let count = Int(bytes.u32(at: CacheFormat.HeaderField.sectionCount))
        return (0..<count).map { index in
            let entry = CacheFormat.headerSize + index * CacheFormat.directoryEntrySize
            return (bytes.u32(at: entry), Int(bytes.u32(at: entry + 4)), Int(bytes.u64(at: entry + 8)),
                    Int(bytes.u64(at: entry + 16)), Int(bytes.u64(at: entry + 24)))
        }
    }

    private func layout(of bytes: [UInt8], _ name: String) throws -> CacheLayout {
        let path = try TestPaths.temporaryFolder(self).appendingPathComponent("\(name).mscache").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return try MovieIndex(path: path).layout
    }

    func testTheRowsAddUpToTheFileLength() throws {
        for (name, catalog) in Self.catalogs {
            let bytes = try CacheWriter.encode(catalog)
            let layout = try layout(of: bytes, name)
            XCTAssertEqual(layout.fileLength, bytes.count, name)
            let rows = layout.sections.reduce(0) { $0 + $1.length } + layout.headerLength + layout.directoryLength
                + layout.paddingLength + layout.checksumLength
            XCTAssertEqual(rows, bytes.count, name)
            XCTAssertEqual(CacheLayout.Group.allCases.reduce(0) { $0 + layout.bytes(in: $1) }, bytes.count, name)
            XCTAssertEqual(layout.headerLength, 64, name)
            XCTAssertEqual(layout.directoryLength, 32 * layout.sections.count, name)
            // Padding aligns each section to 8: less than 8 bytes before each section (and before the table).
            XCTAssertLessThan(layout.paddingLength, 8 * (layout.sections.count + 1), name)
            let blockTable = Int(bytes.u64(at: CacheFormat.HeaderField.blockTableOffset))
            XCTAssertEqual(layout.checksumLength, bytes.count - blockTable, name)
        }
    }

    func testEveryDirectoryEntryAppearsOnceWithItsFigures() throws {
        for (name, catalog) in Self.catalogs {
            let bytes = try CacheWriter.encode(catalog)
            let layout = try layout(of: bytes, name)
            let entries = directory(of: bytes)
            XCTAssertEqual(layout.sections.count, entries.count, name)
            XCTAssertEqual(Set(layout.sections.map(\.tag)).count, entries.count, "\(name): a tag twice")
            for (section, entry) in zip(layout.sections, entries) {
                let tag = try XCTUnwrap(CacheFormat.Tag.allCases.first { $0.code == entry.tag }, name)
                XCTAssertEqual(section.tag, tag.rawValue, name)
                XCTAssertEqual(section.kind, entry.width == 0 ? .bytes : .packed, "\(name) \(tag)")
                XCTAssertEqual(section.width, entry.width, "\(name) \(tag)")
                XCTAssertEqual(section.count, entry.count, "\(name) \(tag)")
                XCTAssertEqual(section.offset, entry.offset, "\(name) \(tag)")
                XCTAssertEqual(section.length, entry.length, "\(name) \(tag)")
                XCTAssertEqual(section.summary, tag.summary, "\(name) \(tag)")
                XCTAssertEqual(section.group, tag.group, "\(name) \(tag)")
            }
            // Every required tag is there; the catalog with every optional field has every tag but the counts of
            // long lists, which only a large catalog has.
            XCTAssertTrue(Set(layout.sections.map(\.tag)).isSuperset(of: CacheFormat.Tag.required.map(\.rawValue)),
                          name)
            if name == "optional fields" {
                let longListTags: Set = ["YCRG", "YCNT", "YCID", "LBPR", "LBPC", "LBPW", "LBPO"]
                XCTAssertEqual(Set(layout.sections.map(\.tag)),
                               Set(CacheFormat.Tag.allCases.map(\.rawValue)).subtracting(longListTags))
            }
        }
    }

    /// The groups of the brief, written out here rather than taken from the code under test.
    func testTheGroupTotals() throws {
        let search: Set = ["TTXO", "TTXT", "TJMP", "TPST", "POST", "PRFO", "PRFE", "LSTO", "LSTD", "BMPN", "BMPC",
                           "BMPS", "BMPI", "BMPP", "BMPW", "BMPO", "YCRG", "YCNT", "YCID", "LBPR", "LBPC", "LBPW",
                           "RNKB", "BPRF", "BLST", "LSTP", "TPSP",
                           "LBPO", "RANK", "YEAR"]
        let topLists: Set = ["TOPR", "TOPC"]
        let filters: Set = ["GNMO", "GNMT", "GNRO", "GNRP", "GNRR", "GSET", "GSTO", "GSTG"]
        for tag in CacheFormat.Tag.allCases {
            let expected: CacheLayout.Group = search.contains(tag.rawValue) ? .search
                : topLists.contains(tag.rawValue) ? .topLists : filters.contains(tag.rawValue) ? .filters : .records
            XCTAssertEqual(tag.group, expected, tag.rawValue)
        }
        for (name, catalog) in Self.catalogs {
            let bytes = try CacheWriter.encode(catalog)
            let layout = try layout(of: bytes, name)
            let entries = directory(of: bytes)
            func total(_ keep: (String) -> Bool) -> Int {
                entries.filter { keep(CacheLayout.printableTag($0.tag)) }.reduce(0) { $0 + $1.length }
            }
            XCTAssertEqual(layout.bytes(in: .search), total { search.contains($0) }, name)
            XCTAssertEqual(layout.bytes(in: .topLists), total { topLists.contains($0) }, name)
            XCTAssertEqual(layout.bytes(in: .filters), total { filters.contains($0) }, name)
            XCTAssertEqual(layout.bytes(in: .records),
                           total { !search.contains($0) && !topLists.contains($0) && !filters.contains($0) }, name)
            XCTAssertEqual(layout.bytes(in: .unknown), 0, name)
            XCTAssertEqual(layout.bytes(in: .structure),
                           layout.headerLength + layout.directoryLength + layout.paddingLength + layout.checksumLength)
            XCTAssertGreaterThan(layout.bytes(in: .search), 0, name)
        }
    }

    func testEveryTagSaysWhatItHoldsInOneSentence() {
        let summaries = CacheFormat.Tag.allCases.map(\.summary)
        XCTAssertEqual(Set(summaries).count, summaries.count, "two tags say the same")
        for tag in CacheFormat.Tag.allCases {
            XCTAssertFalse(tag.summary.isEmpty, tag.rawValue)
            XCTAssertFalse(tag.summary.hasSuffix("."), tag.rawValue)
            XCTAssertLessThanOrEqual(tag.summary.count, 70, tag.rawValue)
        }
    }

    /// A newer writer's section (here the TMDb ids renamed to a tag with a control byte and a backslash) is listed
    /// as unknown, its tag escaped, and still counted.
    func testAnUnknownTagIsListedEscaped() throws {
        var forged = try ForgedCache(Self.catalogs[1].catalog)
        let entries = directory(of: forged.bytes)
        let index = try XCTUnwrap(entries.firstIndex { $0.tag == CacheFormat.Tag.tmdbIDs.code })
        let unknown = UInt32(ascii: "X") | UInt32(0x1B) << 8 | UInt32(ascii: "\\") << 16 | UInt32(0xE9) << 24
        forged.setU32(unknown, at: CacheFormat.headerSize + index * CacheFormat.directoryEntrySize)
        let bytes = forged.sealed()
        let layout = try layout(of: bytes, "unknown")
        let section = layout.sections[index]
        XCTAssertEqual(section.tag, #"X\x1B\x5C\xE9"#)
        XCTAssertEqual(section.summary, "unknown to this version")
        XCTAssertEqual(section.group, .unknown)
        XCTAssertEqual(section.length, entries[index].length)
        XCTAssertEqual(layout.bytes(in: .unknown), entries[index].length)
        XCTAssertEqual(CacheLayout.Group.allCases.reduce(0) { $0 + layout.bytes(in: $1) }, bytes.count)
    }
}

private extension UInt32 {
    init(ascii: Unicode.Scalar) { self = ascii.value }
}
