import Foundation
import MovieSearch
@testable import MovieSearchCatalog
@_spi(Engine) @testable import MovieSearchIndex
@testable import MovieSearchQuery
import TestSupport
import XCTest

/// `RANK` holds each rank's id less its year's base (`RNKB`, `CacheFormat`, "Sections"): answers as the reference
/// does, and a forged base or table size is a wrong id or a corrupt cache, never a trap.
final class ForgedRankBasesTests: XCTestCase {
    /// 300 movies whose ids follow their years (ten years of 30), as most catalogs' roughly do.
    private static let catalog = Catalog(movies: (0..<300).map { id in
        Movie(id: id, title: "Film \(id % 7) part \(id)", year: 1990 + id / 30, rating: Double(id % 9))
    })

    func testRanksAreSmallAndAnswerLikeTheReference() throws {
        let cache = try ForgedCache(Self.catalog)
        XCTAssertEqual(cache.entry(of: .rankBases).count, 10)
        XCTAssertLessThanOrEqual(cache.entry(of: .ranks).width, 5, "a year's 30 ids less its smallest")
        XCTAssertEqual((0..<10).map { cache.packed(.rankBases, $0) }, (0..<10).reversed().map { UInt32($0 * 30) })
        let index = try cache.opened(in: self)
        let reference = ReferenceSearch(Self.catalog)
        for query in ["film", "film 3", "part 1", "f p", ""] {
            XCTAssertEqual(try index.search(query, perYear: 4, typos: .off), reference.search(query, perYear: 4), query)
        }
    }

    func testAForgedBaseListsOtherIdsWithoutATrap() throws {
        var cache = try ForgedCache(Self.catalog)
        let width = cache.entry(of: .rankBases).width
        cache.setPacked(.rankBases, 0, to: UInt32((UInt64(1) << UInt64(width)) - 1))
        let answer = try cache.opened(in: self).search("film", perYear: 2, typos: .off)
        XCTAssertEqual(answer.years.count, 10)
        XCTAssertNotEqual(Array(answer.years[0].movieIDs), [270, 271])
        XCTAssertEqual(Array(answer.years[1].movieIDs).count, 2)
    }

    func testATableOfTheWrongSizeIsCorruptAtOpen() throws {
        var cache = try ForgedCache(Self.catalog)
        cache.setCount(of: .rankBases, to: 9)
        assertCorrupt(try cache.opened(in: self), "section RNKB holds 9 entries, expected 10")
    }
}
