import Foundation
import MovieSearch
@_spi(Engine) @testable import MovieSearchIndex
@testable import MovieSearchQuery
import TestSupport
import XCTest

/// The genre sections (`CacheFormat`, "Filter sections"; each genre's ranks Elias–Fano coded since format 12): the
/// worked example's bytes, and forged sections (missing, truncated, out of order, overlong, numbers out of range, a
/// list whose start or count disagrees with its length) refused as corrupt, never a trap.
final class GenreSectionTests: XCTestCase {
    /// The worked example's catalog: Drama; "drama " and Comedy; no genres.
    private let catalog = Catalog(movies: [
        Movie(id: 0, title: "First", year: 2012, rating: nil, cast: ["Ann Lee"], genres: ["Drama"]),
        Movie(id: 1, title: "Second", year: 2011, rating: nil, cast: [], genres: ["drama ", "Comedy"]),
        Movie(id: 2, title: "Third", year: 2010, rating: nil, cast: [], genres: []),
    ])

    private func values(_ cache: ForgedCache, _ tag: CacheFormat.Tag) -> [UInt32] {
        (0..<cache.entry(of: tag).count).map { cache.packed(tag, $0) }
    }

    func testWorkedExample() throws {
        let cache = try ForgedCache(catalog)
        XCTAssertEqual(values(cache, .genreNameOffsets), [0, 6, 12, 17, 22])
        let names = cache.entry(of: .genreNames)
        XCTAssertEqual(String(decoding: cache.bytes[names.offset..<(names.offset + names.count)], as: UTF8.self),
                       "ComedycomedyDramadrama")
        XCTAssertEqual(values(cache, .genreRankOffsets), [0, 1, 3])
        XCTAssertEqual(values(cache, .genreRankStarts), [0, 1, 2])
        let ranks = cache.entry(of: .genreRanks)
        XCTAssertEqual(Array(cache.bytes[ranks.offset..<(ranks.offset + ranks.count)]),
                       [0x05, 0x05] + [UInt8](repeating: 0, count: 8))
        XCTAssertEqual(values(cache, .genreSetOfRank), [1, 2, 0])
        XCTAssertEqual(values(cache, .genreSetOffsets), [0, 0, 1, 3])
        XCTAssertEqual(values(cache, .genreSetGenres), [1, 0, 1])
        let index = try cache.opened(in: self)
        let result = try index.search("", filters: SearchFilters(genres: ["DRAMA"]), genreFacet: true)
        XCTAssertEqual(result.total, 2)
        XCTAssertEqual(result.genreFacet, [FacetCount(name: "Drama", count: 2), FacetCount(name: "Comedy", count: 1)])
        XCTAssertEqual(try index.genreNames(), ["Comedy", "Drama"])
    }

    func testForgedShapesAreCorruptAtOpen() throws {
        try assertCorruptAtOpen(catalog, [
            ("section GNMO holds 4 entries, not 2G + 1", { $0.setCount(of: .genreNameOffsets, to: 4) }),
            ("section GNRO holds 2 entries, expected 3", { $0.setCount(of: .genreRankOffsets, to: 2) }),
            ("section GNRP holds 2 entries, expected 3", { $0.setCount(of: .genreRankStarts, to: 2) }),
            ("section GSET holds 2 entries, expected 3", { $0.setCount(of: .genreSetOfRank, to: 2) }),
            ("section GSTO holds 1 entries, not at least 2", { $0.setCount(of: .genreSetOffsets, to: 1) }),
        ])
        for tag in [CacheFormat.Tag.genreNameOffsets, .genreNames, .genreRankStarts, .genreRanks, .genreSetOfRank,
                    .genreSetGenres] {
            var missing = try ForgedCache(catalog)
            missing.rename(tag, to: "XXXX")
            assertCorrupt(try missing.opened(in: self))
        }
    }

    func testForgedContentIsCorruptWhenRead() throws {
        let drama = SearchFilters(genres: ["drama"])
        // Names out of order: the folded name of genre 0 ends before it starts.
        var names = try ForgedCache(catalog)
        names.setPacked(.genreNameOffsets, 2, to: 1)
        assertCorrupt(try names.opened(in: self).search("", filters: drama), "genre names out of order")
        // Ranks out of order: genre 1's list starts after it ends.
        var ranks = try ForgedCache(catalog)
        ranks.setPacked(.genreRankOffsets, 1, to: 3)
        ranks.setPacked(.genreRankOffsets, 2, to: 2)
        assertCorrupt(try ranks.opened(in: self).search("", filters: drama), "genre ranks out of order")
        // A count that disagrees with its list's bytes: comedy's 0 ranks in one byte.
        var count = try ForgedCache(catalog)
        count.setPacked(.genreRankOffsets, 1, to: 0)
        assertCorrupt(try count.opened(in: self).search("", filters: SearchFilters(genres: ["comedy"])),
                      "genre ranks disagree with their starts")
        // Starts that disagree with the lengths the counts give: drama's list no byte long, two, two from 0, and
        // starting after it ends.
        for (start, end) in [(1, 1), (1, 3), (0, 2), (2, 1)] {
            var starts = try ForgedCache(catalog)
            starts.setPacked(.genreRankStarts, 1, to: UInt32(start))
            starts.setPacked(.genreRankStarts, 2, to: UInt32(end))
            assertCorrupt(try starts.opened(in: self).search("", filters: drama),
                          "genre ranks disagree with their starts")
        }
        // A section cut short: drama's byte is there, the 8 bytes a load may read after it are not.
        var short = try ForgedCache(catalog)
        short.setU64(2, at: Self.directoryField(short, .genreRanks, CacheFormat.DirectoryField.count))
        short.setU64(2, at: Self.directoryField(short, .genreRanks, CacheFormat.DirectoryField.length))
        assertCorrupt(try short.opened(in: self).search("", filters: drama), "a reference points outside its section")
        // The right length but the bytes of another list (comedy's bits where drama's should be, then all ones):
        // a wrong or damaged answer is allowed, a trap or a read past the list is not.
        for byte: UInt8 in [0x01, 0xFF] {
            var bits = try ForgedCache(catalog)
            bits.setU8(byte, at: bits.entry(of: .genreRanks).offset + 1)
            let index = try bits.opened(in: self)
            for filters in [drama, SearchFilters(genres: ["drama", "comedy"]),
                            SearchFilters(lowestYear: 2011, genres: ["drama"])] {
                do {
                    _ = try index.search("", filters: filters, genreFacet: true)
                    _ = try index.search("f", typos: .auto, filters: filters)
                } catch let error as CacheError {
                    guard case .corrupt = error else { return XCTFail("\(error)") }
                }
            }
        }
        // Truncated names: the offsets point past the end of GNMT.
        var truncated = try ForgedCache(catalog)
        truncated.setU64(10, at: Self.directoryField(truncated, .genreNames, CacheFormat.DirectoryField.count))
        truncated.setU64(10, at: Self.directoryField(truncated, .genreNames, CacheFormat.DirectoryField.length))
        assertCorrupt(try truncated.opened(in: self).search("", filters: drama))
        // Overlong: a set number past the sets.
        var set = try ForgedCache(catalog)
        set.setPacked(.genreSetOfRank, 0, to: 3)
        assertCorrupt(try set.opened(in: self).search("", filters: drama, genreFacet: true), "a genre set is out of range")
    }

    /// The offset of field `field` of `tag`'s directory entry.
    private static func directoryField(_ cache: ForgedCache, _ tag: CacheFormat.Tag, _ field: Int) -> Int {
        let sections = Int(cache.u32(at: CacheFormat.HeaderField.sectionCount))
        for entry in 0..<sections {
            let start = CacheFormat.headerSize + entry * CacheFormat.directoryEntrySize
            if cache.u32(at: start) == tag.code { return start + field }
        }
        preconditionFailure("no section \(tag.rawValue)")
    }
}
