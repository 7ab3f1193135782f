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

    /// The postings of "zanzibar": its two movies, each once, as the writer stores them.
    private func postings(in cache: ForgedCache) -> Range<Int> {
        let term = cache.termID("zanzibar")
        return Int(cache.packed(.postingOffsets, term))..<Int(cache.packed(.postingOffsets, term + 1))
    }

    func testAMovieListedTwiceInAWordsPostingsCountsOnce() throws {
        var cache = try ForgedCache(Self.catalog)
        let list = postings(in: cache)
        XCTAssertEqual(list.count, 2)
        let honest = try cache.opened(in: self).search("zanzibra")  // one swap: budget 1
        XCTAssertEqual(honest.mode, .typo)
        XCTAssertEqual(honest.total, 2)
        // The list's second rank made its first again: the one movie it names is one match, listed once.
        cache.setPacked(.postings, list.lowerBound + 1, to: cache.packed(.postings, list.lowerBound))
        let forged = try cache.opened(in: self).search("zanzibra")
        XCTAssertEqual(forged.mode, .typo)
        XCTAssertEqual(forged.total, 1)
        XCTAssertEqual(forged.years.flatMap(\.movieIDs).count, 1)
    }

    func testARankPastTheMoviesIsCorrupt() throws {
        var cache = try ForgedCache(Self.catalog)
        let list = postings(in: cache)
        cache.setPacked(.postings, list.upperBound - 1, to: UInt32(Self.catalog.movies.count))
        XCTAssertThrowsError(try cache.opened(in: self).search("zanzibra")) { error in
            guard case .corrupt? = error as? CacheError else { return XCTFail("not corrupt: \(error)") }
        }
    }
}
