import Foundation
import MovieSearch
@testable import MovieSearchCatalog
@testable import MovieSearchInput
@_spi(Engine) @testable import MovieSearchIndex
@testable import MovieSearchQuery
import TestSupport
import XCTest

/// The rating scales a cache records (`RSCL`, `CacheFormat`, "Sections"): the smallest of 5, 10 and 100 that no
/// rating exceeds unless one is given, the users' and the critics' apart, read back as written, and a forged or
/// missing section a corrupt cache.
final class RatingScaleTests: XCTestCase {
    /// A catalog of these users' and critics' ratings, one movie each (ids in order).
    private func catalog(_ ratings: [Double?], critics: [Double?] = []) -> Catalog {
        Catalog(movies: ratings.enumerated().map { id, rating in
            Movie(id: id, title: "Film \(id)", year: 2000 + id % 3, rating: rating,
                  criticRating: id < critics.count ? critics[id] : nil)
        })
    }

    /// The scales the cache of `catalog` holds, through the file.
    private func storedScales(_ catalog: Catalog) throws -> RatingScales {
        try ForgedCache(catalog).opened(in: self).ratingScales
    }

    func testTheScaleIsTheSmallestOf5_10And100ThatNoRatingExceeds() throws {
        let cases: [([Double?], RatingScale?)] = [
            ([1, 2, 5, nil, 3], .five),   // the decade catalog's whole ratings from 1 to 5
            ([4.5, 5, -1], .five),        // a rating below 0 exceeds nothing
            ([1, 7.5, 3], .ten),
            ([5.000001], .ten),
            ([10, 9.9], .ten),
            ([87, 12, 3], .hundred),
            ([100], .hundred),
            ([100.5, 3], nil),            // on none of them: shown as they are
            ([nil, nil], .five),          // nothing rated
        ]
        for (ratings, expected) in cases {
            XCTAssertEqual(catalog(ratings).ratingScales.rating, expected, "\(ratings)")
            XCTAssertEqual(try storedScales(catalog(ratings)).rating, expected, "\(ratings) through the cache")
        }
    }

    func testTheCriticsScaleIsWorkedOutApart() throws {
        let fivePoint = catalog([8.5, 9, 7], critics: [4, 5, nil])
        XCTAssertEqual(try storedScales(fivePoint), RatingScales(rating: .ten, critic: .five))
        let tenPoint = catalog([1, 2, 3], critics: [4, 8.3])
        XCTAssertEqual(try storedScales(tenPoint), RatingScales(rating: .five, critic: .ten))
    }

    func testAGivenScaleIsKeptAndOneTooSmallIsRefused() throws {
        var given = catalog([1, 2, 3])
        given.ratingScale = .hundred
        XCTAssertEqual(try storedScales(given).rating, .hundred)

        var tooSmall = catalog([1, 7.5, 3])
        tooSmall.ratingScale = .five
        XCTAssertThrowsError(try CacheWriter.encode(tooSmall)) { error in
            XCTAssertEqual(error as? CacheError, .invalidMovieField(
                id: 1, field: "rating", reason: "7.5 exceeds the rating scale given, 5"))
        }
    }

    /// A CSV critics' column read with `--critic-scale` is stored on 0 to 10 whatever its scale: its ratings are out
    /// of 10 even when the ones this catalog has are all 5 or less (Metascores of 50 at most).
    func testACriticsColumnOfAGivenScaleIsOutOf10() throws {
        let cases: [(scale: Int?, scores: String, critics: RatingScale)] = [
            (100, "40,50", .ten), (10, "4,5", .ten), (nil, "4,5", .five),
        ]
        for (scale, scores, critics) in cases {
            var options = CatalogOptions(format: .csv, columns: ["critic_rating": "score"])
            options.criticScale = scale
            let pair = scores.split(separator: ",")
            let csv = "title,year,rating,score\nA,2001,3,\(pair[0])\nB,2002,4,\(pair[1])\n"
            let loaded = try CatalogDecoder.load(CatalogInput(bytes: Array(csv.utf8)), source: "movies.csv",
                                                 options: options)
            let label = "--critic-scale \(scale.map(String.init) ?? "none")"
            XCTAssertEqual(loaded.movies.map(\.criticRating), [4, 5], label)
            XCTAssertEqual(try storedScales(loaded), RatingScales(rating: .five, critic: critics), label)
        }
    }

    func testForgedScalesAreCorruptAtOpen() throws {
        let catalog = catalog([1, 7.5], critics: [8])
        var intact = try ForgedCache(catalog)
        XCTAssertEqual(intact.entry(of: .ratingScales).count, 2)
        XCTAssertEqual([intact.packed(.ratingScales, 0), intact.packed(.ratingScales, 1)], [10, 10])
        // 0 is no scale: ratings shown as they are.
        intact.setPacked(.ratingScales, 1, to: 0)
        XCTAssertEqual(try intact.opened(in: self).ratingScales, RatingScales(rating: .ten, critic: nil))

        try assertCorruptAtOpen(catalog, [
            ("the users' rating scale is 7, not 5, 10, 100 or 0 (none)", { $0.setPacked(.ratingScales, 0, to: 7) }),
            ("the critics' rating scale is 15, not 5, 10, 100 or 0 (none)", { $0.setPacked(.ratingScales, 1, to: 15) }),
            ("section RSCL holds 1 entries, expected 2", { $0.setCount(of: .ratingScales, to: 1) }),
            ("section RSCL holds 3 entries, expected 2", { $0.setCount(of: .ratingScales, to: 3) }),
        ])
        // Without the section (a version-8 layout under a version-9 header): corrupt, not read as out of 10.
        var missing = try ForgedCache(catalog)
        missing.rename(.ratingScales, to: "XSCL")
        assertCorrupt(try missing.opened(in: self))
    }
}
