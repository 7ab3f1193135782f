import Foundation
import MovieSearch
@testable import MovieSearchCatalog
@_spi(Engine) @testable import MovieSearchIndex
import TestSupport
import XCTest

/// The typo pass on posting lists a hostile writer forged: a word's list that names a movie twice still lists and
/// counts it once, and a rank past the movies is a corrupt cache, not a trap.
final class ForgedTypoPostingsTests: XCTestCase {
    private static let catalog = Catalog(movies: [
        Movie(id: 0, title: "Zanzibar Nights", year: 2001, rating: 4),
        Movie(id: 1, title: "Zanzibar", year: 1999, rating: 3),
        Movie(id: 2, title: "Other Film", year: 1999, rating: 2),
    ])

    /// Where the postings of "zanzibar" lie in the file, and its count: its two movies, each once, as the writer
    /// stores them. Its list's start is its block's (`TPSP`) plus the lengths of the terms' lists before it.
    private func postings(in cache: ForgedCache) -> (offset: Int, count: Int) {
        let term = cache.termID("zanzibar")
        let movies = Self.catalog.movies.count, per = EliasFanoList.listsPerStart
        var start = Int(cache.packed(.postingPositions, term / per))
        for before in (term / per * per)..<term {
            let count = Int(cache.packed(.postingOffsets, before + 1)) - Int(cache.packed(.postingOffsets, before))
            start += EliasFanoList.layout(count: count, universe: movies).byteCount
        }
        let count = Int(cache.packed(.postingOffsets, term + 1)) - Int(cache.packed(.postingOffsets, term))
        return (cache.entry(of: .postings).offset + start, count)
    }

    /// The bytes of a list of `count` ranks among the catalog's movies whose upper bits are `upper` and whose low
    /// bits are all 0 (the layout's low bits follow its upper bits).
    private func list(count: Int, upperBits upper: [Int]) -> [UInt8] {
        let layout = EliasFanoList.layout(count: count, universe: Self.catalog.movies.count)
        var bytes = [UInt8](repeating: 0, count: layout.byteCount)
        for bit in upper { bytes[layout.upperOffset + bit / 8] |= 1 << UInt8(bit % 8) }
        return bytes
    }

    func testAMovieListedTwiceInAWordsPostingsCountsOnce() throws {
        var cache = try ForgedCache(Self.catalog)
        let (offset, count) = postings(in: cache)
        XCTAssertEqual(count, 2)
        XCTAssertEqual(EliasFanoList.layout(count: 2, universe: 3).lowBits, 0, "ranks are their high parts")
        let honest = try cache.opened(in: self).search("zanzibra")  // one swap: budget 1
        XCTAssertEqual(honest.mode, .typo)
        XCTAssertEqual(honest.total, 2)
        // Ranks [0, 0] (bits 0 + 0 and 0 + 1) where the writer stores [0, 1] (bits 0 and 2): the one movie it names
        // is one match, listed once.
        for (index, byte) in list(count: 2, upperBits: [0, 1]).enumerated() { cache.setU8(byte, at: offset + index) }
        let forged = try cache.opened(in: self).search("zanzibra")
        XCTAssertEqual(forged.mode, .typo)
        XCTAssertEqual(forged.total, 1)
        XCTAssertEqual(forged.years.flatMap(\.movieIDs).count, 1)
    }

    func testARankPastTheMoviesIsCorrupt() throws {
        // The list's last bit cleared: its second rank is past every bit the list has, which reads as no movie.
        var cache = try ForgedCache(Self.catalog)
        let (offset, count) = postings(in: cache)
        for (index, byte) in list(count: count, upperBits: [0]).enumerated() { cache.setU8(byte, at: offset + index) }
        XCTAssertThrowsError(try cache.opened(in: self).search("zanzibra")) { error in
            guard case .corrupt? = error as? CacheError else { return XCTFail("not corrupt: \(error)") }
        }
    }
}
