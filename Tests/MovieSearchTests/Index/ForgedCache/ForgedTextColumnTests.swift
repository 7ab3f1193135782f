import Foundation
import MovieSearch
@testable import MovieSearchCatalog
@_spi(Engine) @testable import MovieSearchIndex
@testable import MovieSearchQuery
import TestSupport
import XCTest

/// The compressed text columns (`CacheFormat`, "Compressed text columns": titles `TTL*`, names `NMS*`) forged and
/// sealed with fresh checksums, as a hostile writer would: deflated bytes changed, lengths and offsets that lie,
/// sections missing or of the wrong size. Each is a `CacheError.corrupt` (at open for a shape, when a movie of the
/// block is read otherwise), never a trap nor a huge allocation; searching, which reads no text, still answers.
final class ForgedTextColumnTests: XCTestCase {
    /// 150 movies: three blocks of titles; 160 names (three blocks), Unicode among them.
    private static let catalog = Catalog(movies: (0..<150).map { number in
        Movie(id: number, title: "Títle \(number) " + String(repeating: "ñ", count: number % 9),
              year: 2000 + number % 20, rating: nil, cast: ["Actor \(number % 7)", "Solo \(number) ß"],
              genres: ["Genre \(number % 3)"])
    })

    func testEveryTitleAndNameReadsBack() throws {
        let cache = try ForgedCache(Self.catalog)
        XCTAssertEqual(cache.entry(of: .titleBlockLengths).count, 3)
        XCTAssertEqual(cache.entry(of: .nameBlockLengths).count, 3)
        let index = try cache.opened(in: self)
        for movie in Self.catalog.movies { XCTAssertEqual(try index.movie(id: movie.id), movie) }
    }

    func testADamagedBlockIsCorruptForItsMoviesOnly() throws {
        var cache = try ForgedCache(Self.catalog)
        let blocks = cache.entry(of: .titleBlocks).offset
        let secondBlock = Int(cache.packed(.titleBlockOffsets, 1))
        for delta in [0, 3, 9] {
            let offset = blocks + secondBlock + delta
            cache.setU32(cache.u32(at: offset) ^ 0x5A5A_5A5A, at: offset)
        }
        let index = try cache.opened(in: self)
        assertCorrupt(try index.movie(id: 70), "a compressed block of titles is damaged")
        XCTAssertEqual(try index.movie(id: 10), Self.catalog.movies[10])
        XCTAssertEqual(try index.movie(id: 140), Self.catalog.movies[140])
        XCTAssertEqual(try index.search("title 70").total, 1)
    }

    func testLengthsAndOffsetsThatLieAreCorrupt() throws {
        let cases: [(String, (inout ForgedCache) -> Void)] = [
            ("one byte longer", { $0.setPacked(.titleBlockLengths, 1, to: $0.packed(.titleBlockLengths, 1) + 1) }),
            ("one byte shorter", { $0.setPacked(.titleBlockLengths, 1, to: $0.packed(.titleBlockLengths, 1) - 1) }),
            ("as long as the width holds", {
                let width = $0.entry(of: .titleBlockLengths).width
                $0.setPacked(.titleBlockLengths, 1, to: UInt32((UInt64(1) << UInt64(width)) - 1))
            }),
            ("a block cut short", { $0.setPacked(.titleBlockOffsets, 2, to: $0.packed(.titleBlockOffsets, 2) - 2) }),
            ("offsets out of order", { $0.setPacked(.titleBlockOffsets, 1, to: $0.packed(.titleBlockOffsets, 2) + 1) }),
        ]
        for (name, forge) in cases {
            var cache = try ForgedCache(Self.catalog)
            forge(&cache)
            let index = try cache.opened(in: self)
            XCTAssertThrowsError(try index.movie(id: 70), name) { error in
                guard case .corrupt = error as? CacheError else { return XCTFail("\(name): \(error)") }
            }
            XCTAssertEqual(try index.search("title 7").total, 11, name)
        }
    }

    func testADamagedDictionaryReadsBackWithoutATrap() throws {
        var cache = try ForgedCache(Self.catalog)
        let dictionary = cache.entry(of: .nameDictionary)
        for offset in stride(from: 0, to: dictionary.count - 4, by: 7) {
            cache.setU32(cache.u32(at: dictionary.offset + offset) ^ 0xFFFF_FFFF, at: dictionary.offset + offset)
        }
        let index = try cache.opened(in: self)
        // The names read back wrong, or their blocks as damaged: a forged file may answer wrongly, never crash.
        for id in [0, 75, 149] {
            do { _ = try index.movie(id: id) } catch { XCTAssertNotNil(error as? CacheError, "\(error)") }
        }
    }

    func testMissingOrMisshapenSectionsAreCorruptAtOpen() throws {
        let cases: [(String, (inout ForgedCache) -> Void)] = [
            ("section TTLZ is missing", { $0.rename(.titleBlocks, to: "XXXX") }),
            ("section NMSD is missing", { $0.rename(.nameDictionary, to: "XXXX") }),
            ("section NMSO is missing", { $0.rename(.nameBlockOffsets, to: "XXXX") }),
            // A section of another's tag: of the wrong size or kind (the titles are looked up before the names).
            ("section TTLL holds 4 entries, expected 3", {
                $0.rename(.titleBlockLengths, to: "XXXX")
                $0.rename(.nameBlockOffsets, to: "TTLL")
            }),
            ("section TTLD is not a byte section", {
                $0.rename(.titleDictionary, to: "XXXX")
                $0.rename(.nameBlockOffsets, to: "TTLD")
            }),
        ]
        try assertCorruptAtOpen(Self.catalog, cases)
    }
}
