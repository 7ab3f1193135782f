import Foundation
import MovieSearch
@testable import MovieSearchCatalog
@_spi(Engine) @testable import MovieSearchIndex
@testable import MovieSearchQuery
import TestSupport
import XCTest

/// Long lists carry their counts and first ids per year (`YCRG`, `YCNT`, `YCID`; `CacheFormat.yearCountMinimum`):
/// a catalog large enough to have such lists answers exactly as the reference search does, whether the answer is
/// read from the first ids (at most `CacheFormat.firstIDsPerYear` listed a year) or from the list; counts that
/// disagree with their list (a forged file) are a corrupt cache where the list is read, and never a trap.
final class ListYearCountTests: XCTestCase {
    /// 80,000 movies over 40 years: `alpha` in 2,500 titles (a single term's posting list, between the counts'
    /// minimum and the bitmap size of 2 × 1,250 words), the `beta…` words 2,222 titles in all (a list set for the
    /// prefix `be`), and `gamma` in 300 (a list too short for counts).
    private static let catalog: Catalog = {
        var random = SplitMix64(seed: 11)
        let movies = (0..<80_000).map { id -> Movie in
            var words = ["w\(random.next() % 20_000)"]
            if id % 32 == 5 { words.append("alpha") }
            if id % 36 == 7 { words.append("beta\(random.next() % 9)") }
            if id % 267 == 3 { words.append("gamma") }
            let rating = random.next() % 4 == 0 ? nil : Double(random.next() % 50) / 10
            return Movie(id: id, title: words.joined(separator: " "), year: 1980 + Int(random.next() % 40), rating: rating)
        }
        return Catalog(movies: movies)
    }()

    /// The catalog's cache, encoded once for all the tests (encoding 80,000 movies is most of their time); an
    /// encoding error fails each test that reads it.
    private static let encoded = Result { try CacheWriter.encode(catalog) }

    /// Why a plain `swift test` skips these: encoding the catalog unoptimized takes seconds (the full steps run them).
    private static let fullRunReason = "a catalog of 80,000 movies encoded unoptimized"

    func testLongListsHaveCountsAndAnswerLikeTheReference() throws {
        try TestScale.requireFullRun(Self.fullRunReason)
        let bytes = try Self.encoded.get()
        let forged = ForgedCache(bytes)
        let counted = forged.entry(of: .rangeYearCountKeys).count / 2
        XCTAssertEqual(counted, 2, "alpha's posting list and the list set of be/bet/beta")
        XCTAssertEqual(forged.entry(of: .rangeFirstIDs).count,
                       forged.entry(of: .rangeYearCounts).count * CacheFormat.firstIDsPerYear)
        let index = try MovieIndex(bytes: bytes, self)
        let reference = ReferenceSearch(Self.catalog)
        let slots = CacheFormat.firstIDsPerYear
        for query in ["alpha", "alp", "be", "bet", "beta", "beta3", "gamma", "alpha w1", "be w1", "alpha gamma", "beta gamma"] {
            // Up to `slots` a year from the first ids, one more from the list.
            for perYear in [0, 3, slots, slots + 1] {
                XCTAssertEqual(try index.search(query, perYear: perYear, typos: .off),
                               reference.search(query, perYear: perYear), "\(query) \(perYear)")
            }
        }
    }

    func testCountsThatDisagreeWithTheirListAreCorrupt() throws {
        try TestScale.requireFullRun(Self.fullRunReason)
        var forged = try ForgedCache(Self.encoded.get())
        // Move one match of the first counted range from one year to the next: the sum stays, the years do not fit.
        let years = Int(forged.u32(at: CacheFormat.HeaderField.yearCount))
        let first = try XCTUnwrap((0..<years).first {
            forged.packed(.rangeYearCounts, $0) > 0 && forged.packed(.rangeYearCounts, $0 + 1) > 0
        }, "no two years in a row with counted matches")
        forged.setPacked(.rangeYearCounts, first, to: forged.packed(.rangeYearCounts, first) - 1)
        forged.setPacked(.rangeYearCounts, first + 1, to: forged.packed(.rangeYearCounts, first + 1) + 1)
        let index = try MovieIndex(bytes: forged.sealed(), self)
        // Read through the list (more listed a year than the first ids hold), the moved match is out of its year.
        XCTAssertThrowsError(try index.search("alpha", perYear: CacheFormat.firstIDsPerYear + 1)) { error in
            guard case CacheError.corrupt = error else { return XCTFail("\(error)") }
        }
        // Read from the counts and first ids alone, the counts still fit their years and add up: a forged file may
        // answer wrongly there (`MappedCacheFile`), but it answers, without a trap.
        XCTAssertNoThrow(try index.search("alpha"))
        // Counts that add up to less than the list: corrupt too (the list's rest would belong to no year).
        var fewer = try ForgedCache(Self.encoded.get())
        fewer.setPacked(.rangeYearCounts, first, to: fewer.packed(.rangeYearCounts, first) - 1)
        XCTAssertThrowsError(try MovieIndex(bytes: fewer.sealed(), self).search("alpha")) { error in
            guard case CacheError.corrupt = error else { return XCTFail("\(error)") }
        }
        // Counts that add up to more than the list: corrupt, from the first ids as from the list.
        var overfull = try ForgedCache(Self.encoded.get())
        overfull.setPacked(.rangeYearCounts, first, to: overfull.packed(.rangeYearCounts, first) + 1)
        for perYear in [3, CacheFormat.firstIDsPerYear + 1] {
            XCTAssertThrowsError(try MovieIndex(bytes: overfull.sealed(), self).search("alpha", perYear: perYear)) { error in
                guard case CacheError.corrupt = error else { return XCTFail("\(error)") }
            }
        }
    }

    /// Both counted lists are long enough to be paired with every bitmap set (`LBPR`, `LBPC`): a query of one of
    /// them and a bitmap (`alpha w1`: `w1…` is in more than half the titles) answers from the pair's counts exactly
    /// as the reference search does, whatever it lists a year; the counts are what it reads (zeroed, the answer
    /// is empty); counts that promise more matches than a year of the list holds, and a row past `LBPC`, are a
    /// corrupt cache, never a trap.
    func testListsMetWithBitmapsAnswerFromTheirPairCounts() throws {
        try TestScale.requireFullRun(Self.fullRunReason)
        let forged = try ForgedCache(Self.encoded.get())
        let bitmaps = forged.entry(of: .bitmapCardinalities).count
        let years = Int(forged.u32(at: CacheFormat.HeaderField.yearCount))
        XCTAssertEqual((0..<2).map { forged.packed(.listPairRows, $0) }.sorted(), [1, 2], "both lists are paired")
        XCTAssertEqual(forged.rowCount(.listPairCounts), 2 * bitmaps)
        let index = try MovieIndex(bytes: Self.encoded.get(), self)
        let reference = ReferenceSearch(Self.catalog)
        // `w` holds every title, `w1` 55 %, `w2`…`w9` and `w10`…`w19` 5.6 % each: all bitmaps (over 2,500 titles).
        let words = ["w", "w1", "w2", "w5", "w9", "w10", "w15", "w19"]
        let perYears = [0, 1, 3, CacheFormat.firstIDsPerYear + 1, 1_000]
        for list in ["alpha", "be", "beta"] {
            for bitmap in words {
                for query in ["\(list) \(bitmap)", "\(bitmap) \(list)"] {
                    for perYear in perYears {
                        XCTAssertEqual(try index.search(query, perYear: perYear, typos: .off),
                                       reference.search(query, perYear: perYear), "\(query) \(perYear)")
                    }
                }
            }
        }
        XCTAssertGreaterThan(try index.search("alpha w1", typos: .off).total, 0)
        var zeroed = try ForgedCache(Self.encoded.get())
        for row in 0..<zeroed.rowCount(.listPairCounts) {
            for year in 0..<years { zeroed.setRowEntry(.listPairCounts, row, year, to: 0) }
        }
        XCTAssertEqual(try MovieIndex(bytes: zeroed.sealed(), self).search("alpha w1", typos: .off).total, 0)
        // Every pair count raised to its list's count in the year: the ranks of a year run out before its matches.
        var overfull = try ForgedCache(Self.encoded.get())
        for counted in 0..<2 {
            let row = Int(overfull.packed(.listPairRows, counted)) - 1
            for bitmap in 0..<bitmaps {
                let width = overfull.rowWidth(.listPairCounts, row * bitmaps + bitmap)
                for year in 0..<years {
                    // The list's count in the year, or as much of it as the row's width holds.
                    let count = min(overfull.packed(.rangeYearCounts, counted * years + year), (1 << UInt32(width)) - 1)
                    overfull.setRowEntry(.listPairCounts, row * bitmaps + bitmap, year, to: count)
                }
            }
        }
        var pastTheRows = try ForgedCache(Self.encoded.get())
        pastTheRows.setPacked(.listPairRows, 0, to: 3)
        for bytes in [overfull.sealed(), pastTheRows.sealed()] {
            XCTAssertThrowsError(try MovieIndex(bytes: bytes, self).search("alpha w1", perYear: 1_000, typos: .off)) { error in
                guard case CacheError.corrupt = error else { return XCTFail("\(error)") }
            }
        }
    }

    /// The first ids are what `RANK` gives for the first ranks of each year; a forged first id changes the movie
    /// listed, nothing else (ids are only listed, never followed).
    func testFirstIDsAreTheListsFirstRanksAndAForgedOneIsOnlyListed() throws {
        try TestScale.requireFullRun(Self.fullRunReason)
        var forged = try ForgedCache(Self.encoded.get())
        let slots = CacheFormat.firstIDsPerYear
        let years = Int(forged.u32(at: CacheFormat.HeaderField.yearCount))
        let year = try XCTUnwrap((0..<years).first { forged.packed(.rangeYearCounts, $0) > 0 }, "no counted year")
        let original = forged.packed(.rangeFirstIDs, year * slots)
        let index = try MovieIndex(bytes: Self.encoded.get(), self)
        let answer = try index.search("alpha", perYear: 1, typos: .off)
        XCTAssertEqual(answer.years.first.map { UInt32($0.movieIDs[0]) }, original)
        forged.setPacked(.rangeFirstIDs, year * slots, to: 77_777)
        let changed = try MovieIndex(bytes: forged.sealed(), self).search("alpha", perYear: 1, typos: .off)
        XCTAssertEqual(changed.years.first?.movieIDs[0], 77_777)
        XCTAssertEqual(changed.total, answer.total)
    }
}
