import Foundation
import MovieSearch
@_spi(Engine) @testable import MovieSearchIndex
@testable import MovieSearchQuery
import TestSupport
import XCTest

/// The genre sections of format 10 (`CacheFormat`, "Filter sections"): the worked example's bytes, and forged
/// sections (missing, truncated, out of order, overlong, numbers out of range) refused as corrupt, never a trap.
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
        XCTAssertEqual(values(cache, .genreRanks), [1, 0, 1])
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
            ("section GSET holds 2 entries, expected 3", { $0.setCount(of: .genreSetOfRank, to: 2) }),
            ("section GSTO holds 1 entries, not at least 2", { $0.setCount(of: .genreSetOffsets, to: 1) }),
        ])
        for tag in [CacheFormat.Tag.genreNameOffsets, .genreNames, .genreRanks, .genreSetOfRank, .genreSetGenres] {
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
