import Foundation
import MovieSearch
@testable import MovieSearchCatalog
@_spi(Engine) @testable import MovieSearchIndex
@testable import MovieSearchQuery
import TestSupport
import XCTest

/// Critics' ratings in the cache (`CRIT`, `CRTV`, `TOPC`): read back as written, the critics' list against a
/// brute-force ranking (rating descending, id ascending on ties, only the movies that have one), and forged
/// sections refused as corrupt, never a trap.
final class CriticRatingCacheTests: XCTestCase {
    /// A seeded catalog: about half the movies with a critics' rating, many ties (ratings to one decimal, and 0.0
    /// beside -0.0), ids with gaps.
    private static func catalog(seed: UInt64, count: Int) -> Catalog {
        var random = SplitMix64(seed: seed)
        var movies: [Movie] = []
        var id = 0
        for number in 0..<count {
            id += 1 + Int(random.next() % 3)
            let critic: Double? = switch random.next() % 6 {
            case 0, 1, 2: nil
            case 3: Double(random.next() % 101) / 10
            case 4: [0.0, -0.0, 10.0][Int(random.next() % 3)]
            default: Double(random.next() % 11)
            }
            let rating: Double? = random.next() % 4 == 0 ? nil : Double(random.next() % 100) / 10
            movies.append(Movie(id: id, title: "Movie \(number)", year: 1990 + Int(random.next() % 30), rating: rating,
                                criticRating: critic))
        }
        return Catalog(movies: movies)
    }

    /// The ranking `top --by critic` promises, worked out by sorting the catalog.
    private func bruteForce(_ catalog: Catalog) -> [Int] {
        catalog.movies.filter { $0.criticRating != nil }
            .sorted { left, right in
                left.criticRating! != right.criticRating! ? left.criticRating! > right.criticRating! : left.id < right.id
            }
            .map(\.id)
    }

    func testTheCriticsListAndEveryRatingReadBack() throws {
        for seed: UInt64 in 1...5 {
            let catalog = Self.catalog(seed: seed, count: 300)
            let index = try ForgedCache(catalog).opened(in: self)
            let expected = bruteForce(catalog)
            XCTAssertTrue(index.hasCriticRatings)
            XCTAssertEqual(try index.topRated(by: .critic, limit: 1_000_000).map(\.id), expected, "seed \(seed)")
            XCTAssertEqual(try index.topRated(by: .critic, limit: 15).map(\.id), Array(expected.prefix(15)))
            XCTAssertEqual(try index.topRated(by: .critic, limit: 0), [])
            for movie in catalog.movies {
                let read = try index.movie(id: movie.id)
                XCTAssertEqual(read.criticRating?.bitPattern, movie.criticRating?.bitPattern, "movie \(movie.id)")
                XCTAssertEqual(read, movie)
            }
        }
    }

    func testACatalogWithoutCriticsHasNoSectionsAndAnEmptyList() throws {
        let catalog = Catalog(movies: [Movie(id: 0, title: "Alone", year: 2000, rating: 5)])
        let index = try ForgedCache(catalog).opened(in: self)
        XCTAssertFalse(index.hasCriticRatings)
        XCTAssertEqual(try index.topRated(by: .critic, limit: 15), [])
        XCTAssertEqual(try index.topRated(by: .rating, limit: 15).map(\.id), [0])
        XCTAssertNil(try index.movie(id: 0).criticRating)
    }

    private static let small = Catalog(movies: [
        Movie(id: 0, title: "Zero", year: 2000, rating: 1, criticRating: 7.5),
        Movie(id: 1, title: "One", year: 2001, rating: nil),
        Movie(id: 2, title: "Two", year: 2002, rating: 2, criticRating: 9),
    ])

    func testARatingNumberPastTheTableIsCorrupt() throws {
        var cache = try ForgedCache(Self.small)
        // Two distinct ratings: 2 means none, 3 is past the table.
        cache.setPacked(.criticRatingNumbers, 0, to: 3)
        let index = try cache.opened(in: self)
        XCTAssertThrowsError(try index.movie(id: 0)) { error in
            guard case .corrupt = error as? CacheError else { return XCTFail("\(error)") }
        }
        XCTAssertNil(try index.movie(id: 1).criticRating)
    }

    func testAListIDThatIsNoMovieIsAnError() throws {
        var cache = try ForgedCache(Self.small)
        cache.setPacked(.topCriticRated, 0, to: 1)  // a movie without a critics' rating: listed, as the list says
        XCTAssertEqual(try cache.opened(in: self).topRated(by: .critic, limit: 2).map(\.id), [1, 0])
        let width = cache.entry(of: .topCriticRated).width
        cache.setPacked(.topCriticRated, 0, to: UInt32((UInt64(1) << UInt64(width)) - 1))  // no such id
        XCTAssertThrowsError(try cache.opened(in: self).topRated(by: .critic, limit: 2))
    }

    func testMissingSectionsOfTheThreeAreCorrupt() throws {
        for tag in [CacheFormat.Tag.criticRatingNumbers, .criticRatingValues, .topCriticRated] {
            var cache = try ForgedCache(Self.small)
            let sections = Int(cache.u32(at: CacheFormat.HeaderField.sectionCount))
            for entry in 0..<sections {
                let start = CacheFormat.headerSize + entry * CacheFormat.directoryEntrySize
                if cache.u32(at: start) == tag.code { cache.setU32(0x5A5A_5A5A, at: start) }  // renamed: unknown
            }
            XCTAssertThrowsError(try cache.opened(in: self), "without \(tag.rawValue)") { error in
                guard case .corrupt = error as? CacheError else { return XCTFail("\(tag.rawValue): \(error)") }
            }
        }
    }
}
