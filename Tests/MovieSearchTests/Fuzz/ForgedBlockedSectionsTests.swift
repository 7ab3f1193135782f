import Foundation
import MovieSearch
@testable import MovieSearchCatalog
@_spi(Engine) @testable import MovieSearchIndex
import TestSupport
import XCTest

/// The blocked sections (`CacheFormat`, "Blocked sections": `MIDS`, `MLST`, `IMDB`, each with its bases), written and read back across several blocks, then forged and sealed with fresh
/// checksums as a hostile writer would: a base out of range, bases missing or of the wrong size. Each is a
/// `CacheError.corrupt` (at open for a shape, when the movie is read for a range), never a trap.
final class ForgedBlockedSectionsTests: XCTestCase {
    /// 150 movies (three blocks of ids and titles), ids with gaps (every third id skipped), titles of growing
    /// length, cast names shared and not, overviews on some.
    private static let catalog: Catalog = {
        var movies: [Movie] = []
        var id = 0
        for number in 0..<150 {
            id += number % 3 == 2 ? 2 : 1
            movies.append(Movie(id: id, title: "Title " + String(repeating: "x", count: number % 40) + " \(number)",
                                year: 1990 + number % 30, rating: number % 4 == 0 ? nil : Double(number % 10),
                                cast: ["Actor \(number % 7)", "Solo \(number)"], genres: ["Genre \(number % 3)"],
                                overview: number % 5 == 0 ? "Plot \(number)." : nil))
        }
        return Catalog(movies: movies)
    }()

    func testEveryMovieReadsBackAcrossBlocks() throws {
        let cache = try ForgedCache(Self.catalog)
        XCTAssertEqual(cache.entry(of: .movieIDBases).count, 3)
        XCTAssertEqual(cache.entry(of: .listOffsetBases).count, 3, "151 offsets in blocks of 64")
        // Ids less their slots grow by one every third movie: within a block of 64 they spread over 21 at most.
        XCTAssertEqual(cache.entry(of: .movieIDs).width, 5)
        let index = try cache.opened(in: self)
        for movie in Self.catalog.movies { XCTAssertEqual(try index.movie(id: movie.id), movie) }
        for missing in [0, 3, 7, 10_000] { XCTAssertThrowsError(try index.movie(id: missing), "\(missing)") }
    }

    func testABaseOutOfRangeIsCorruptForItsBlockOnly() throws {
        var cache = try ForgedCache(Self.catalog)
        // The largest base the width of `BMLS` holds points past the end of `LIST` (3 names a movie).
        let (width, _, _) = cache.entry(of: .listOffsetBases)
        XCTAssertGreaterThan((1 << width) - 1, cache.entry(of: .lists).count)
        cache.setPacked(.listOffsetBases, 1, to: UInt32((UInt64(1) << UInt64(width)) - 1))
        let index = try cache.opened(in: self)
        let inSecondBlock = Self.catalog.movies[70], inFirstBlock = Self.catalog.movies[10]
        assertCorrupt(try index.movie(id: inSecondBlock.id), "a reference points outside its section")
        XCTAssertEqual(try index.movie(id: inFirstBlock.id), inFirstBlock)
    }

    func testABaseThatPutsAnOffsetBeforeTheLastIsCorrupt() throws {
        var cache = try ForgedCache(Self.catalog)
        // The second block's base lowered below the first block's last offset: slot 63 then ends before it starts.
        cache.setPacked(.listOffsetBases, 1, to: 0)
        let index = try cache.opened(in: self)
        assertCorrupt(try index.movie(id: Self.catalog.movies[63].id), "a movie's cast and genre list is malformed")
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
            ("section BMLS is missing", { $0.rename(.listOffsetBases, to: "XXXX") }),
            ("section BMID is missing", { $0.rename(.movieIDBases, to: "XXXX") }),
            // Two sections' tags swapped: the bases then have the other's count.
            ("section BMLS holds 257 entries, expected 3", {
                $0.rename(.listOffsetBases, to: "XXXX")
                $0.rename(.termJump, to: "BMLS")
            }),
            ("section BMID is not a packed section", {
                $0.rename(.movieIDBases, to: "XXXX")
                $0.rename(.titleDictionary, to: "BMID")
            }),
        ]
        for (detail, forge) in cases {
            var cache = try ForgedCache(Self.catalog)
            forge(&cache)
            assertCorrupt(try cache.opened(in: self), detail)
        }
    }
}

extension ForgedCache {
    /// Renames section `tag` to `name` in the directory (an unknown tag is ignored by the reader).
    mutating func rename(_ tag: CacheFormat.Tag, to name: String) {
        let sections = Int(u32(at: CacheFormat.HeaderField.sectionCount))
        let code = name.utf8.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
        for entry in 0..<sections {
            let start = CacheFormat.headerSize + entry * CacheFormat.directoryEntrySize
            if u32(at: start) == tag.code { return setU32(code, at: start) }
        }
        preconditionFailure("no section \(tag.rawValue)")
    }
}
