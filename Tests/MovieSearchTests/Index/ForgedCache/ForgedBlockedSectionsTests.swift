import Foundation
import MovieSearch
@testable import MovieSearchCatalog
@_spi(Engine) @testable import MovieSearchIndex
import TestSupport
import XCTest

/// The blocked sections (`CacheFormat`, "Blocked sections": `MIDS` and `IMDB`, each with its bases), written and
/// read back across several blocks, then forged and sealed with fresh checksums as a hostile writer would: a base
/// out of range, bases missing or of the wrong kind. A shape is a `CacheError.corrupt` at open; a number is read
/// back as another number, never a trap.
final class ForgedBlockedSectionsTests: XCTestCase {
    /// 150 movies (three blocks), ids with gaps (every third id skipped), IMDb ids ascending with them, titles of
    /// growing length, cast names shared and not.
    private static let catalog: Catalog = {
        var movies: [Movie] = []
        var id = 0
        for number in 0..<150 {
            id += number % 3 == 2 ? 2 : 1
            movies.append(Movie(id: id, title: "Title " + String(repeating: "x", count: number % 40) + " \(number)",
                                year: 1990 + number % 30, rating: number % 4 == 0 ? nil : Double(number % 10),
                                cast: ["Actor \(number % 7)", "Solo \(number)"], genres: ["Genre \(number % 3)"],
                                overview: number % 5 == 0 ? "Plot \(number)." : nil,
                                imdbID: CacheFormat.imdbID(number: UInt32(1_000_000 + number * 37))))
        }
        return Catalog(movies: movies)
    }()

    func testEveryMovieReadsBackAcrossBlocks() throws {
        let cache = try ForgedCache(Self.catalog)
        XCTAssertEqual(cache.entry(of: .movieIDBases).count, 3)
        XCTAssertEqual(cache.entry(of: .imdbNumberBases).count, 3)
        // Ids less their slots grow by one every third movie: within a block of 64 they spread over 21 at most.
        XCTAssertEqual(cache.entry(of: .movieIDs).width, 5)
        // IMDb numbers grow by 37 a movie: 63 steps within a block, 12 bits, where the numbers take 21.
        XCTAssertEqual(cache.entry(of: .imdbNumbers).width, CacheFormat.width(of: 63 * 37))
        let index = try cache.opened(in: self)
        for movie in Self.catalog.movies { XCTAssertEqual(try index.movie(id: movie.id), movie) }
        for missing in [0, 3, 7, 10_000] { XCTAssertThrowsError(try index.movie(id: missing), "\(missing)") }
    }

    /// A forged base changes the numbers of its block only, read back as other numbers without a trap (a forged
    /// file may answer wrongly, but never crash).
    func testABaseChangesItsBlockOnly() throws {
        var cache = try ForgedCache(Self.catalog)
        let (width, _, _) = cache.entry(of: .imdbNumberBases)
        cache.setPacked(.imdbNumberBases, 1, to: UInt32((UInt64(1) << UInt64(width)) - 1))
        let index = try cache.opened(in: self)
        let inSecondBlock = Self.catalog.movies[70], inFirstBlock = Self.catalog.movies[10]
        XCTAssertNotEqual(try index.movie(id: inSecondBlock.id).imdbID, inSecondBlock.imdbID)
        XCTAssertEqual(try index.movie(id: inFirstBlock.id), inFirstBlock)
    }

    func testAnAbsurdIDBaseReadsBackWithoutATrap() throws {
        var cache = try ForgedCache(Self.catalog)
        let (width, _, _) = cache.entry(of: .movieIDBases)
        cache.setPacked(.movieIDBases, 2, to: UInt32((UInt64(1) << UInt64(width)) - 1))
        let index = try cache.opened(in: self)
        // Slot of an id in the last block: not found (its ids are now far larger), and no trap.
        XCTAssertThrowsError(try index.movie(id: Self.catalog.movies[140].id))
        XCTAssertEqual(try index.movie(id: Self.catalog.movies[5].id).title, Self.catalog.movies[5].title)
    }

    func testMissingOrMisshapenBasesAreCorruptAtOpen() throws {
        let cases: [(String, (inout ForgedCache) -> Void)] = [
            ("section BMID is missing", { $0.rename(.movieIDBases, to: "XXXX") }),
            ("section BIMN is missing", { $0.rename(.imdbNumberBases, to: "XXXX") }),
            ("section BMID is not a packed section", {
                $0.rename(.movieIDBases, to: "XXXX")
                $0.rename(.titleDictionary, to: "BMID")
            }),
        ]
        try assertCorruptAtOpen(Self.catalog, cases)
    }
}
