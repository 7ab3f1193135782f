@testable import MovieSearchIndex
import TestSupport
import XCTest

/// A large catalog's prefix sets are found on two cores (`PrefixSetWriter.add(terms:postings:starts:splitAbove:)`):
/// the terms cut in two, the second half's sets found by a writer of its own and appended renumbered. The sections
/// must be the very bytes one pass makes, with every kind of set in the catalog and a range across the cut.
final class PrefixSetSplitTests: XCTestCase {
    /// 70,000 ranks over 20 years (W = 1,094 words: sets of more than 2,188 ranks are bitmaps, and lists of 2,048
    /// to 2,188 ranks have counts per year): 600 words of one to six letters of "abcd", most with a few ranks, every
    /// 40th with 2,050 to 2,150 (a counted list), every 150th with 3,000 to 6,000 (a bitmap); the shortest prefixes'
    /// unions are bitmaps too.
    private static let input: (terms: [[UInt8]], postings: [UInt32], starts: [Int]) = {
        var random = SplitMix64(seed: 38)
        var words: Set<[UInt8]> = []
        while words.count < 600 {
            words.insert((0...random.below(6)).map { _ in UInt8(ascii: "a") + UInt8(random.below(4)) })
        }
        let terms = words.sorted { $0.lexicographicallyPrecedes($1) }
        var postings: [UInt32] = [], starts = [0]
        for number in terms.indices {
            let count = number % 150 == 0 ? 3_000 + random.below(3_000)
                : number % 40 == 0 ? 2_050 + random.below(100) : 1 + random.below(30)
            var ranks: Set<UInt32> = []
            while ranks.count < count { ranks.insert(UInt32(random.below(movieCount))) }
            postings += ranks.sorted()
            starts.append(postings.count)
        }
        return (terms, postings, starts)
    }()
    private static let movieCount = 70_000
    private static let yearFirstRanks = (0..<20).map { $0 * 3_500 }

    private func parts(splitAbove: Int, pairBlockRanks: Int = PrefixSetWriter.blockRanks) throws
        -> [CacheSections.Part]
    {
        var writer = PrefixSetWriter(movieCount: Self.movieCount, yearFirstRanks: Self.yearFirstRanks,
                                     idOfRank: (0..<Self.movieCount).map { UInt32($0 * 7 % Self.movieCount) },
                                     pairBlockRanks: pairBlockRanks)
        let input = Self.input
        try writer.add(terms: input.terms, postings: input.postings, starts: input.starts, splitAbove: splitAbove)
        return try writer.parts()
    }

    func testTwoHalvesGiveTheSectionsOnePassGives() throws {
        let (terms, _, starts) = Self.input
        // Where `add` cuts (the first term at half the postings) falls inside a family of terms of one first
        // letter, whose one-letter prefix set holds terms of both halves.
        let cut = PrefixSetWriter.cut(starts: starts, termCount: terms.count)
        XCTAssertEqual(terms[cut - 1].first, terms[cut].first, "a prefix range across the cut")

        let whole = try parts(splitAbove: Int.max)
        let split = try parts(splitAbove: 0)
        let tags = whole.map(\.tag.rawValue)
        XCTAssertEqual(split.map(\.tag.rawValue), tags)
        for (one, two) in zip(whole, split) {
            XCTAssertEqual(one.width, two.width, one.tag.rawValue)
            XCTAssertEqual(one.count, two.count, one.tag.rawValue)
            XCTAssertTrue(one.bytes == two.bytes, "\(one.tag.rawValue) differs")
        }
        // Every kind of set is there to be renumbered: list sets, bitmap sets, counted lists, lists met with the
        // bitmaps.
        for tag in [CacheFormat.Tag.listSetData, .bitmaps, .rangeYearCounts, .listPairCounts] {
            XCTAssertGreaterThan(whole.first { $0.tag == tag }?.count ?? 0, 0, tag.rawValue)
        }
    }

    /// The pairs' counts (`BMPP`, `LBPC`) are the same whatever the blocks of ranks they are counted in: a block
    /// of one word, blocks that end inside a word, one block per half of the years.
    func testPairCountsDoNotDependOnTheirBlocks() throws {
        let whole = try parts(splitAbove: Int.max)
        for blockRanks in [64, 1_000, 33_333] {
            let blocked = try parts(splitAbove: Int.max, pairBlockRanks: blockRanks)
            for tag in [CacheFormat.Tag.bitmapPairCounts, .listPairCounts] {
                let one = whole.first { $0.tag == tag }, two = blocked.first { $0.tag == tag }
                XCTAssertGreaterThan(one?.count ?? 0, 0, tag.rawValue)
                XCTAssertTrue(one?.bytes == two?.bytes, "\(tag.rawValue) differs in blocks of \(blockRanks)")
            }
        }
    }
}
