import Foundation
import MovieSearch
@testable import MovieSearchCatalog
@_spi(Engine) @testable import MovieSearchIndex
@testable import MovieSearchQuery
import TestSupport
import XCTest

/// The inflated blocks a compressed text column keeps (`TextBlockCache`): a kept block gives the same texts as one
/// inflated anew, a reference past the end of a kept block is as corrupt as one past an inflated block, and a slot
/// holds only its last block.
final class TextBlockCacheTests: XCTestCase {
    /// 70 movies with a name each of their own and one genre they share: 71 names, in two blocks, the second of 7.
    private static let catalog = Catalog(movies: (0..<70).map { id in
        Movie(id: id, title: "Title \(id)", year: 2000 + id % 3, rating: nil, cast: ["Name \(id)"], genres: ["G"])
    })

    func testKeptBlocksGiveTheTextsOfBlocksInflatedAnew() throws {
        let index = try ForgedCache(Self.catalog).opened(in: self)
        let fresh = try ForgedCache(Self.catalog).opened(in: self)
        // Every movie twice, the second time from kept blocks, against a second opening read once.
        for _ in 0..<2 {
            for movie in Self.catalog.movies {
                XCTAssertEqual(try index.decodedMovie(id: movie.id), movie)
            }
        }
        for number in [0, 63, 64, 69] {
            let kept = try index.sections.titles.block(holding: number, in: index.file)
            let inflated = try fresh.sections.titles.block(holding: number, in: fresh.file)
            XCTAssertEqual(kept.text(number), inflated.text(number))
            XCTAssertEqual(String(decoding: kept.text(number), as: UTF8.self), "Title \(number)")
        }
    }

    func testAReferencePastTheLastBlockIsCorruptInflatedOrKept() throws {
        let index = try ForgedCache(Self.catalog).opened(in: self)
        let names = index.sections.names
        XCTAssertEqual(names.blockCount, 2)
        // Inflated: the second block holds the 7 names numbered 64…70.
        assertCorrupt(try names.block(holding: 75, in: index.file), "a reference points outside its section")
        let last = try names.block(holding: 64, in: index.file)
        XCTAssertTrue(last.holds(70))
        XCTAssertFalse(last.holds(71))
        // Kept, the same reference fails the same way, and a good one still reads.
        assertCorrupt(try names.block(holding: 75, in: index.file), "a reference points outside its section")
        assertCorrupt(try names.block(holding: 71, in: index.file), "a reference points outside its section")
        XCTAssertEqual(try names.block(holding: 70, in: index.file).text(70), last.text(70))
    }

    func testASlotHoldsItsLastBlock() throws {
        let index = try ForgedCache(Self.catalog).opened(in: self)
        let first = try index.sections.titles.block(holding: 0, in: index.file)
        let second = try index.sections.titles.block(holding: 64, in: index.file)
        let cache = TextBlockCache(capacity: 1)
        XCTAssertNil(cache.block(0), "an empty cache holds nothing")
        cache.keep(first)
        XCTAssertEqual(cache.block(0)?.first, 0)
        XCTAssertNil(cache.block(1), "block 1 shares block 0's slot but is not there")
        cache.keep(second)
        XCTAssertNil(cache.block(0), "block 1 took block 0's slot")
        XCTAssertEqual(cache.block(1)?.text(64), second.text(64))
    }
}
