import Foundation
import MovieSearch
@testable import MovieSearchCatalog
@_spi(Engine) @testable import MovieSearchIndex
import TestSupport
import XCTest

/// Forged optional sections (`CacheFormat`, "Optional sections"), sealed with fresh checksums as a hostile writer
/// would: offsets out of range or out of order, sections missing, of the wrong kind or size, absurd numbers. Each
/// is a `CacheError.corrupt` (at open for a section's shape, when the movie is read for its content) or, for a
/// number that is any number, a value read back without a trap; never a crash.
final class ForgedOptionalSectionsTests: XCTestCase {
    /// Four movies with every optional field; movie 1's texts are longer than the others, so that its ranges
    /// end past the others' starts.
    private static let catalog = Catalog(movies: [
        Movie(id: 0, title: "Zero", year: 2000, rating: 1, overview: "First plot.", tmdbID: 10, imdbID: "tt0000010"),
        Movie(id: 1, title: "One", year: 2001, rating: nil, originalTitle: "Uno più", overview: "A much longer second plot.",
              posterPath: "/one.jpg", tmdbID: 4_294_967_294, imdbID: "tt4294967294"),
        Movie(id: 2, title: "Two", year: 2002, rating: 2, overview: "", imdbID: "ev0000002"),
        Movie(id: 3, title: "Three", year: 2003, rating: nil, overview: "Last.", imdbID: ""),
    ])

    func testTheIntactCacheReadsBack() throws {
        let index = try ForgedCache(Self.catalog).opened(in: self)
        for movie in Self.catalog.movies { XCTAssertEqual(try index.movie(id: movie.id), movie) }
    }

    /// Each field is a compressed text column of one block here (4 movies): its block's end moved past the deflated
    /// bytes is out of its section (when the offsets' width can say so), its start moved into them a damaged block.
    /// Either way the field's movies cannot be read, and searching, which reads no field, still answers.
    func testABlockOffsetPastTheEndOfTheTextIsCorrupt() throws {
        var pastTheEnd = 0
        for field in CacheFormat.TextField.allCases {
            let intact = try ForgedCache(Self.catalog)
            let (width, count, _) = intact.entry(of: field.offsets)
            XCTAssertEqual(count, 2, "\(field): one block")
            let textLength = intact.entry(of: field.text).count
            let widest = UInt32((UInt64(1) << UInt64(width)) - 1)
            let movie = field == .imdbID ? 2 : 1
            if Int(widest) > textLength {
                var cache = intact
                cache.setPacked(field.offsets, 1, to: widest)
                let index = try cache.opened(in: self)
                assertCorrupt(try index.movie(id: movie), "a reference points outside its section")
                XCTAssertNoThrow(try index.search("zero"))
                pastTheEnd += 1
            }
            var cache = intact
            cache.setPacked(field.offsets, 0, to: 1)
            let index = try cache.opened(in: self)
            assertCorrupt(try index.movie(id: movie), "a compressed block of \(field.name) is damaged")
            XCTAssertNoThrow(try index.search("zero"))
        }
        XCTAssertGreaterThan(pastTheEnd, 0)
    }

    func testOffsetsOutOfOrderAreCorrupt() throws {
        var cache = try ForgedCache(Self.catalog)
        let end = cache.packed(.overviewOffsets, 1)
        XCTAssertGreaterThan(end, 0)
        cache.setPacked(.overviewOffsets, 0, to: end + 1)  // the block now starts after it ends
        let index = try cache.opened(in: self)
        assertCorrupt(try index.movie(id: 0), "a compressed block of overviews is damaged")
        XCTAssertEqual(try index.search("one").total, 1)
    }

    func testMissingOrMisshapenSectionsAreCorruptAtOpen() throws {
        let n = Self.catalog.movies.count
        let cases: [(String, (inout ForgedCache) -> Void)] = [
            ("section OVWT is missing", { $0.rename(.overviewText, to: "XXXX") }),
            ("section OVWT without OVWO", { $0.rename(.overviewOffsets, to: "XXXX") }),
            ("section OVWL without OVWO", {
                $0.rename(.overviewOffsets, to: "XXXX")
                $0.rename(.overviewText, to: "YYYY")
            }),
            ("section OVWE without OVWO", {
                for (tag, name) in zip(CacheFormat.TextField.overview.column.tags, ["XXXX", "YYYY", "ZZZZ", "WWWW"]) {
                    $0.rename(tag, to: name)
                }
            }),
            ("section IMDT without IMDO", { $0.rename(.imdbTextOffsets, to: "XXXX") }),
            // Two sections' tags swapped: each is then the other's size or kind.
            ("section OVWO holds \(n) entries, expected 2", {
                $0.rename(.overviewOffsets, to: "XXXX")
                $0.rename(.overviewEmpty, to: "OVWO")
            }),
            ("section OTLT is not a byte section", {
                $0.rename(.originalTitleText, to: "XXXX")
                $0.rename(.tmdbIDs, to: "OTLT")
            }),
            ("section TMDB holds 2 entries, expected \(n)", {
                $0.rename(.tmdbIDs, to: "XXXX")
                $0.rename(.posterPathOffsets, to: "TMDB")
                for (tag, name) in zip([CacheFormat.Tag.posterPathText, .posterPathLengths, .posterPathDictionary],
                                       ["YYYY", "ZZZZ", "WWWW"]) {
                    $0.rename(tag, to: name)
                }
            }),
            ("section IMDB is not a packed section", {
                $0.rename(.imdbNumbers, to: "XXXX")
                $0.rename(.imdbText, to: "IMDB")
                for (tag, name) in zip([CacheFormat.Tag.imdbTextOffsets, .imdbTextEmpty, .imdbTextLengths,
                                        .imdbTextDictionary], ["YYYY", "ZZZZ", "WWWW", "VVVV"]) {
                    $0.rename(tag, to: name)
                }
            }),
        ]
        try assertCorruptAtOpen(Self.catalog, cases)
    }

    /// A TMDb id, an IMDb number or an empty-text flag can be any number: the largest ones read back as values,
    /// without a trap (a forged file may answer wrongly, but never crash).
    func testAbsurdNumbersReadBackWithoutATrap() throws {
        var cache = try ForgedCache(Self.catalog)
        XCTAssertEqual(cache.entry(of: .tmdbIDs).width, 32)
        XCTAssertEqual(cache.entry(of: .imdbNumbers).width, 32)
        cache.setPacked(.tmdbIDs, 0, to: .max)
        cache.setPacked(.imdbNumbers, 0, to: .max)
        cache.setPacked(.imdbNumbers, 3, to: .max)  // movie 3's empty IMDb text is passed over for the number
        cache.setPacked(.overviewEmpty, 0, to: 1)   // a flag on a slot whose text is not empty: the text wins
        let index = try cache.opened(in: self)
        let movie = try index.movie(id: 0)
        XCTAssertEqual(movie.tmdbID, 4_294_967_294)
        XCTAssertEqual(movie.imdbID, "tt4294967294")
        XCTAssertEqual(movie.overview, "First plot.")
        XCTAssertEqual(try index.movie(id: 3).imdbID, "tt4294967294")
        XCTAssertEqual(try index.movie(id: 2).imdbID, "ev0000002")
    }
}
