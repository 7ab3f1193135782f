import Foundation
import MovieSearch
@testable import MovieSearchCatalog
@_spi(Engine) @testable import MovieSearchIndex
@testable import MovieSearchQuery
import TestSupport
import XCTest

/// Lists of more than `CacheFormat.codedListMaximum` ranks, up to the most a list set holds, stay packed among the
/// coded ones (`CacheFormat`, "Elias–Fano lists"): the sections lay them out at the width of the largest rank, the
/// starts count their bytes so, and a catalog large enough to have such a list set answers as the reference search
/// does.
final class PackedLongListTests: XCTestCase {
    func testLongListsArePackedBetweenCodedOnes() throws {
        let universe = 200_000, long = CacheFormat.codedListMaximum + 1
        var generator = SplitMix64(seed: 3)
        func ranks(_ count: Int) -> [UInt32] {
            var chosen = Set<UInt32>()
            while chosen.count < count { chosen.insert(UInt32(generator.next() % UInt64(universe))) }
            return chosen.sorted()
        }
        // 200,000 movies: a list set holds up to 2 × 3,125 ranks; a longer list (a frequent term's) is coded again.
        let frequent = CacheFormat.bitmapMinimum(movieCount: universe) + 1
        let lists = [ranks(5), ranks(long), ranks(CacheFormat.codedListMaximum), ranks(1), ranks(frequent)]
        var values: [UInt32] = [], offsets: [UInt32] = [0]
        for list in lists {
            values += list
            offsets.append(UInt32(values.count))
        }
        let (bytes, starts) = try EliasFanoList.encodeLists(values, offsets: offsets, universe: universe, what: "test")
        let lengths = lists.map { EliasFanoList.storedByteCount(count: $0.count, universe: universe) }
        XCTAssertEqual(lengths[1], (long * 18 + 7) / 8, "199,999 needs 18 bits")
        XCTAssertEqual(starts, [0, UInt32(lengths.reduce(0, +))], "one block of 8 lists: its start and the end")
        XCTAssertLessThan(lengths[4], frequent * 18 / 8 / 2, "the frequent term's list coded: 7.5 bits a rank, not 18")
        XCTAssertEqual(bytes.count, lengths.reduce(0, +) + CacheFormat.packedPadding)
        // The walks' lengths, with the universe's figures worked out once, are the same.
        let walk = EliasFanoList.Lengths(universe: universe)
        XCTAssertEqual(lists.map { walk.storedByteCount($0.count) }, lengths)
        // The lists end to end as a range of terms' postings: decoded into one array, and read rank by rank.
        let counts = ByteWriter.packed(offsets, width: 32)
        try bytes.withUnsafeBytes { raw in
            try counts.withUnsafeBytes { countBytes in
                let view = PackedView(base: try XCTUnwrap(countBytes.baseAddress), firstBit: 0, width: 32,
                                      count: offsets.count)
                let postings = PostingLists(base: try XCTUnwrap(raw.baseAddress), counts: view, lengths: walk)
                XCTAssertEqual(postings.concatenated(), values)
                var read: [UInt32] = []
                postings.forEachRank { read.append($0); return true }
                XCTAssertEqual(read, values)
            }
        }
        bytes.withUnsafeBytes { raw in
            var start = 0
            for (number, list) in lists.enumerated() {
                let stored = StoredList(base: raw.baseAddress! + start, count: list.count, universe: universe)
                switch stored {
                case .packed(let view):
                    XCTAssertEqual(number, 1, "only the list past the maximum is packed")
                    XCTAssertEqual(view.values(), list)
                case .coded(let coded):
                    XCTAssertNotEqual(number, 1)
                    XCTAssertEqual(coded.decoded(), list)
                }
                start += lengths[number]
            }
        }
    }

    /// 140,000 movies: `pa` and `pb` in 2,100 titles each make the list set of `p`, 4,200 ranks: past the coded
    /// maximum, within a list's (2 × 2,188 words' worth of ranks); `zz` in every third title is a bitmap.
    func testACatalogWithAPackedListSetAnswersLikeTheReference() throws {
        try TestScale.requireFullRun("a catalog of 140,000 movies encoded unoptimized")
        var random = SplitMix64(seed: 5)
        let catalog = Catalog(movies: (0..<140_000).map { id -> Movie in
            var words = ["w\(random.next() % 30_000)"]
            if id % 66 == 1 { words.append("pa") }
            if id % 66 == 2 { words.append("pb") }
            if id % 3 == 0 { words.append("zz") }
            let rating = random.next() % 4 == 0 ? nil : Double(random.next() % 50) / 10
            return Movie(id: id, title: words.joined(separator: " "), year: 1950 + Int(random.next() % 60), rating: rating)
        })
        let bytes = try CacheWriter.encode(catalog)
        let forged = ForgedCache(bytes)
        let lists = forged.entry(of: .listSetOffsets).count - 1
        var longest = 0
        for list in 0..<lists {
            let base = Int(forged.packed(.listSetOffsetBases, list / 64)), next = Int(forged.packed(.listSetOffsetBases, (list + 1) / 64))
            longest = max(longest, next + Int(forged.packed(.listSetOffsets, list + 1))
                          - base - Int(forged.packed(.listSetOffsets, list)))
        }
        XCTAssertGreaterThan(longest, CacheFormat.codedListMaximum, "the list set of p is packed")
        let index = try MovieIndex(bytes: bytes, self)
        let reference = ReferenceSearch(catalog)
        for query in ["p", "p zz", "zz p", "pa", "p w1", "p pb", "pa zz w2"] {
            for perYear in [3, CacheFormat.firstIDsPerYear + 1] {
                XCTAssertEqual(try index.search(query, perYear: perYear, typos: .off),
                               reference.search(query, perYear: perYear), "\(query) \(perYear)")
            }
        }
    }
}
