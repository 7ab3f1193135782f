import Foundation
import MovieSearch
@testable import MovieSearchCatalog
@_spi(Engine) @testable import MovieSearchIndex
import TestSupport
import XCTest

/// `TOPR` lists the rated movies only; the unrated ones follow in id order (`CacheFormat`, "Sections").
final class TopListTests: XCTestCase {
    private static let catalog = Catalog(movies: [
        Movie(id: 0, title: "A", year: 2000, rating: nil), Movie(id: 2, title: "B", year: 2001, rating: 5),
        Movie(id: 3, title: "C", year: 2002, rating: nil), Movie(id: 7, title: "D", year: 2003, rating: 9),
        Movie(id: 8, title: "E", year: 2004, rating: 5), Movie(id: 9, title: "F", year: 1999, rating: nil),
    ])

    func testTheTopListIsTheRatedThenTheUnratedInIDOrder() throws {
        let cache = try ForgedCache(Self.catalog)
        XCTAssertEqual(cache.entry(of: .topRated).count, 3, "only the rated movies are stored")
        let index = try cache.opened(in: self)
        for limit in 0...8 {
            XCTAssertEqual(try index.topRated(limit: limit).map(\.id), Array([7, 2, 8, 0, 3, 9].prefix(limit)),
                           "\(limit)")
        }
        let unrated = Catalog(movies: (0..<70).map { Movie(id: $0 * 2, title: "T\($0)", year: 2000, rating: nil) })
        let all = try ForgedCache(unrated).opened(in: self)
        XCTAssertEqual(try all.topRated(limit: 70).map(\.id), (0..<70).map { $0 * 2 })
    }

    func testATopListLongerThanTheCatalogIsCorruptAtOpen() throws {
        var cache = try ForgedCache(Self.catalog)
        cache.setCount(of: .topRated, to: 7)  // 7 entries of 6 movies
        assertCorrupt(try cache.opened(in: self), "the top list is longer than the catalog")
    }
}
