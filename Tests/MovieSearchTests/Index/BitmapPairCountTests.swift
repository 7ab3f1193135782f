import Foundation
import MovieSearch
@testable import MovieSearchCatalog
@_spi(Engine) @testable import MovieSearchIndex
@testable import MovieSearchQuery
import TestSupport
import XCTest

/// Every pair of bitmap sets has the counts per year of its intersection (`BMPP`): they are the counts of the two
/// bitmaps ANDed, a query of two bitmap sets answers exactly as the reference search does from them, and a count
/// that does not fit its year (a forged file) is a corrupt cache, never a trap.
final class BitmapPairCountTests: XCTestCase {
    /// 6,400 movies over 20 years (⌈N / 64⌉ = 100 words, so sets of more than 200 ranks are bitmaps): `aa` in every
    /// second title, `bb` every third, `cc` every fifth, `dd` every seventh (four bitmaps, six pairs), and one of
    /// 3,000 rare words in each; and one movie alone in 1950 with all four.
    private static let catalog: Catalog = {
        var random = SplitMix64(seed: 21)
        let movies = (0..<6_400).map { id -> Movie in
            var words = ["r\(random.next() % 3_000)"]
            for (word, every) in [("aa", 2), ("bb", 3), ("cc", 5), ("dd", 7)] where id % every == 0 { words.append(word) }
            words.shuffle(using: &random)
            let rating = random.next() % 4 == 0 ? nil : Double(random.next() % 50) / 10
            return Movie(id: id, title: words.joined(separator: " "), year: 2000 + Int(random.next() % 20), rating: rating)
        }
        return Catalog(movies: movies + [Movie(id: 6_400, title: "dd cc bb aa", year: 1950, rating: 3)])
    }()

    /// The catalog's cache, encoded once; an encoding error fails each test that reads it.
    private static let encoded = Result { try CacheWriter.encode(catalog) }

    func testPairCountsAreTheIntersectionsAndAnswerLikeTheReference() throws {
        try TestScale.requireFullRun("every pair of bitmap sets counted bit by bit, year by year")
        let forged = try ForgedCache(Self.encoded.get())
        let bitmaps = forged.entry(of: .bitmapCardinalities).count
        let years = Int(forged.u32(at: CacheFormat.HeaderField.yearCount))
        XCTAssertGreaterThanOrEqual(bitmaps, 4, "aa, bb, cc, dd (and the prefixes that hold all titles)")
        XCTAssertEqual(forged.rowCount(.bitmapPairCounts), bitmaps * (bitmaps - 1) / 2)
        // Each pair's counts, against the two bitmaps read bit by bit.
        let movieCount = Self.catalog.movies.count
        let words = CacheFormat.bitmapWordCount(movieCount: movieCount)
        let bitmapBytes = forged.entry(of: .bitmaps).offset
        func bit(_ set: Int, _ rank: Int) -> Bool {
            forged.bytes[bitmapBytes + set * words * 8 + rank / 8] & (1 << UInt8(rank % 8)) != 0
        }
        let yearTable = forged.entry(of: .years).offset
        let firstRanks = (0..<years).map { Int(forged.u32(at: yearTable + $0 * 8 + 4)) }
        for a in 0..<bitmaps {
            for b in (a + 1)..<bitmaps {
                let pair = CacheFormat.bitmapPairIndex(a, b, bitmapCount: bitmaps)
                for year in 0..<years {
                    let end = year + 1 < years ? firstRanks[year + 1] : movieCount
                    let expected = (firstRanks[year]..<end).filter { bit(a, $0) && bit(b, $0) }.count
                    XCTAssertEqual(Int(forged.rowEntry(.bitmapPairCounts, pair, year)), expected, "\(a) \(b) \(year)")
                }
            }
        }
        let index = try MovieIndex(bytes: Self.encoded.get(), self)
        let reference = ReferenceSearch(Self.catalog)
        for query in ["aa bb", "bb aa", "aa cc", "bb dd", "cc dd", "aa bb cc", "a b", "aa r1", "dd r12 bb"] {
            for perYear in [0, 1, 5, 40] {
                XCTAssertEqual(try index.search(query, perYear: perYear, typos: .off),
                               reference.search(query, perYear: perYear), "\(query) \(perYear)")
            }
        }
    }

    func testAPairCountLargerThanItsYearIsCorrupt() throws {
        var forged = try ForgedCache(Self.encoded.get())
        // The widest value each row holds, in every year: more than 1950 holds (one movie), and more than most
        // years' matches, which the listing must not run past the bitmaps for.
        let years = Int(forged.u32(at: CacheFormat.HeaderField.yearCount))
        var widestOfAll: UInt32 = 0
        for row in 0..<forged.rowCount(.bitmapPairCounts) {
            let widest = UInt32((1 << UInt64(forged.rowWidth(.bitmapPairCounts, row))) - 1)
            widestOfAll = max(widestOfAll, widest)
            for year in 0..<years { forged.setRowEntry(.bitmapPairCounts, row, year, to: widest) }
        }
        XCTAssertGreaterThan(widestOfAll, 1)
        let index = try MovieIndex(bytes: forged.sealed(), self)
        XCTAssertThrowsError(try index.search("aa bb", perYear: 1_000, typos: .off)) { error in
            guard case CacheError.corrupt = error else { return XCTFail("\(error)") }
        }
    }
}

extension BitmapPairCountTests {
    /// A count that fits its year but is more than the year's matches (a forged file whose checksums were made
    /// anew) is corrupt when the year is listed: the listing never goes on into the next year's movies.
    func testAPairCountAboveTheYearsMatchesIsCorruptNotTheNextYearsMovies() throws {
        var forged = try ForgedCache(Self.encoded.get())
        let years = Int(forged.u32(at: CacheFormat.HeaderField.yearCount))
        let yearTable = forged.entry(of: .years).offset
        let firstRanks = (0..<years).map { Int(forged.u32(at: yearTable + $0 * 8 + 4)) } + [Self.catalog.movies.count]
        // Every pair's count one more than its matches, in every year whose movies can still hold that many.
        var forgedCounts = 0
        for position in 0..<(forged.rowCount(.bitmapPairCounts) * years) {
            let row = position / years, year = position % years
            let count = forged.rowEntry(.bitmapPairCounts, row, year)
            let fits = count + 1 < 1 << UInt32(forged.rowWidth(.bitmapPairCounts, row))
            if count > 0, fits, Int(count) < firstRanks[year + 1] - firstRanks[year] {
                forged.setRowEntry(.bitmapPairCounts, row, year, to: count + 1)
                forgedCounts += 1
            }
        }
        XCTAssertGreaterThan(forgedCounts, 0)
        let index = try MovieIndex(bytes: forged.sealed(), self)
        XCTAssertThrowsError(try index.search("aa bb", perYear: 1_000, typos: .off)) { error in
            guard case CacheError.corrupt = error else { return XCTFail("\(error)") }
        }
    }

    /// Many frequent words make many bitmaps, and `BMPP` would grow with the square of their number: it holds the
    /// pairs of the first Q only, within its bound, and two bitmaps past Q are met word by word, answering as the
    /// reference does.
    func testPairsAreBoundedAndUnpairedBitmapsAnswerLikeTheReference() throws {
        // 640 movies over 10 years; 40 words each in every title with its id's residue (so a bitmap each).
        let movies = (0..<640).map { id in
            Movie(id: id, title: (0..<40).filter { id % ($0 % 3 + 2) == 0 }.map { "w\($0)" }.joined(separator: " ") + " x",
                  year: 2000 + id % 10, rating: Double(id % 50) / 10)
        }
        let catalog = Catalog(movies: movies)
        let limit = 10 * 45  // the pairs of 10 bitmaps over 10 years
        let bytes = try CacheWriter.encodeWithStatistics(catalog, maximumPairEntries: limit).bytes
        let forged = ForgedCache(bytes)
        let bitmaps = forged.entry(of: .bitmapCardinalities).count
        XCTAssertGreaterThan(bitmaps, 30)
        XCTAssertEqual(forged.rowCount(.bitmapPairCounts) * 10, limit)
        XCTAssertEqual(CacheFormat.pairedBitmapCount(bitmapCount: bitmaps, yearCount: 10, maximumEntries: limit), 10)
        let index = try MovieIndex(bytes: bytes, self)
        let full = try MovieIndex(bytes: try CacheWriter.encode(catalog), self)
        let reference = ReferenceSearch(catalog)
        for query in ["w1 w2", "w30 w38", "w0 w39", "w5 x", "w12 w13 w14"] {
            for perYear in [0, 3, 100] {
                let expected = reference.search(query, perYear: perYear)
                XCTAssertEqual(try index.search(query, perYear: perYear, typos: .off), expected, "\(query) \(perYear)")
                XCTAssertEqual(try full.search(query, perYear: perYear, typos: .off), expected, "\(query) \(perYear)")
            }
        }
    }

    /// The bound itself: Q(Q − 1)/2 × Y within `maximumPairEntries`, Q + 1 past it; and the reader's Q from a
    /// section's size, `nil` for a size no Q makes.
    func testPairedBitmapCount() {
        for years in [1, 7, 157, 1_000] {
            let paired = CacheFormat.pairedBitmapCount(bitmapCount: 100_000, yearCount: years)
            XCTAssertLessThanOrEqual(paired * (paired - 1) / 2 * years, CacheFormat.maximumPairEntries)
            XCTAssertGreaterThan((paired + 1) * paired / 2 * years, CacheFormat.maximumPairEntries)
            XCTAssertEqual(CacheFormat.pairedBitmapCount(pairEntries: paired * (paired - 1) / 2 * years, yearCount: years),
                           paired)
        }
        XCTAssertEqual(CacheFormat.pairedBitmapCount(bitmapCount: 239, yearCount: 157), 239, "all of 10M IMDb")
        XCTAssertEqual(CacheFormat.pairedBitmapCount(pairEntries: 0, yearCount: 5), 0)
        XCTAssertNil(CacheFormat.pairedBitmapCount(pairEntries: 7, yearCount: 5))
        XCTAssertNil(CacheFormat.pairedBitmapCount(pairEntries: 2 * 5, yearCount: 5), "2 is no Q(Q − 1)/2")
        XCTAssertNil(CacheFormat.pairedBitmapCount(pairEntries: 5, yearCount: 0))
    }
}
