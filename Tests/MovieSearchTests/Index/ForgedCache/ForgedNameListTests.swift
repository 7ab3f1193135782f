import Foundation
import MovieSearch
@testable import MovieSearchCatalog
@_spi(Engine) @testable import MovieSearchIndex
@testable import MovieSearchQuery
import TestSupport
import XCTest

/// A movie's name list (`CST*`: how many of its names are cast, then the names' numbers, as varints) forged inside
/// a block deflated anew and sealed: a cast count past the names, a number past the names, a varint cut short.
final class ForgedNameListTests: XCTestCase {
    /// 64 movies (one block) of 100 cast names each, every name in one movie only: more bytes of lists than the
    /// dictionary holds, so the block deflates to kilobytes and a forged one with a shorter first list fits in it.
    private static let catalog = Catalog(movies: (0..<64).map { id in
        Movie(id: id, title: "T\(id)", year: 2000, rating: nil, cast: (0..<100).map { "N\(id)-\($0)" }, genres: ["G"])
    })

    /// The cache with its one block of name lists made anew, the first movie's list replaced by `first`, deflated
    /// with the column's dictionary; the block offsets and length follow.
    private func forged(first: [UInt8]) throws -> ForgedCache {
        var cache = try ForgedCache(Self.catalog)
        let intact = try cache.opened(in: self)
        let block = try intact.sections.nameLists.block(holding: 0, in: intact.file)
        var lists = (0..<64).map { Array(block.text($0)) }
        lists[0] = first
        var bytes: [UInt8] = []
        LEB128.append(lists.count, to: &bytes)
        for list in lists { LEB128.append(list.count, to: &bytes) }
        for list in lists { bytes += list }
        let dictionary = cache.entry(of: .nameListDictionary)
        let preset = Array(cache.bytes[dictionary.offset..<(dictionary.offset + dictionary.count)])
        let deflated = try XCTUnwrap(TextBlockCodec.Deflater(dictionary: preset)?.deflate(bytes))
        let blocks = cache.entry(of: .nameListBlocks)
        XCTAssertLessThanOrEqual(deflated.count, blocks.count, "the forged block fits where the old one was")
        for (offset, byte) in deflated.enumerated() { cache.setU8(byte, at: blocks.offset + offset) }
        cache.setPacked(.nameListBlockOffsets, 1, to: UInt32(deflated.count))
        cache.setPacked(.nameListBlockLengths, 0, to: UInt32(bytes.count))
        return cache
    }

    func testTheForgeryItselfReadsBack() throws {
        let index = try ForgedCache(Self.catalog).opened(in: self)
        let intact = try index.sections.nameLists.block(holding: 0, in: index.file).text(0)
        let forgedIndex = try forged(first: Array(intact)).opened(in: self)
        for movie in Self.catalog.movies { XCTAssertEqual(try forgedIndex.movie(id: movie.id), movie) }
    }

    func testMalformedListsAreCorrupt() throws {
        let cases: [([UInt8], String)] = [
            ([3, 0], "a movie's cast and genre list is malformed"),  // three cast, one name
            ([], "a movie's cast and genre list is malformed"),  // not even a count
            ([1, 0x80], "a movie's cast and genre list is malformed"),  // a varint cut short
            ([1, 0xFF, 0xFF, 0x7F], "a reference points outside its section"),  // name 2,097,151 of 6,401
        ]
        for (list, detail) in cases {
            let index = try forged(first: list).opened(in: self)
            assertCorrupt(try index.movie(id: 0), detail)
            XCTAssertEqual(try index.movie(id: 1), Self.catalog.movies[1], "\(list)")
        }
    }
}
