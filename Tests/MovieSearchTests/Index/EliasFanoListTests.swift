@_spi(Engine) @testable import MovieSearchIndex
import TestSupport
import XCTest

/// `EliasFanoList`, the coding of the list sets (`CacheFormat`, "Elias–Fano lists"): every read agrees with the
/// ranks encoded, at the edges of its blocks and its word sizes, and any bytes of the right length read back without
/// a trap or a read past them.
final class EliasFanoListTests: XCTestCase {
    /// `ranks` encoded, with the 8 zero bytes a section ends with, and read back.
    private func withList<Result>(_ ranks: [UInt32], universe: Int, bytes forged: [UInt8]? = nil,
                                  _ body: (EliasFanoList) throws -> Result) rethrows -> Result {
        var bytes: [UInt8] = []
        EliasFanoList.encode(ranks[...], universe: universe, into: &bytes)
        XCTAssertEqual(bytes.count, EliasFanoList.layout(count: ranks.count, universe: universe).byteCount)
        if let forged { bytes = forged }
        bytes += [UInt8](repeating: 0, count: 8)
        return try bytes.withUnsafeBytes { raw in
            try body(EliasFanoList(base: raw.baseAddress!, count: ranks.count, universe: universe))
        }
    }

    /// `count` distinct ranks below `universe`, ascending, from a seeded generator.
    private func sample(_ count: Int, below universe: Int, seed: UInt64) -> [UInt32] {
        var generator = SplitMix64(seed: seed)
        var chosen = Set<UInt32>()
        while chosen.count < count { chosen.insert(UInt32(generator.next() % UInt64(universe))) }
        return chosen.sorted()
    }

    func testTheWorkedExampleOfTheFormat() {
        // CacheFormat's example: ranks 3, 4, 9, 14 of 16. ⌊log₂(16 / 4)⌋ = 2 low bits; high parts 0, 1, 2, 3 set
        // bits 0, 2, 4, 6 of ((16 − 1) >> 2) + 4 = 7 upper bits; the low parts 3, 0, 1, 2 follow at 2 bits each
        // from bit 7: bits 7 and 8, 11, 14. Two bytes: 0b1101_0101, 0b0100_1001.
        var bytes: [UInt8] = []
        EliasFanoList.encode([3, 4, 9, 14], universe: 16, into: &bytes)
        XCTAssertEqual(bytes, [0b1101_0101, 0b0100_1001])
        let layout = EliasFanoList.layout(count: 4, universe: 16)
        XCTAssertEqual(layout, .init(lowBits: 2, sampleCount: 0, upperBitCount: 7, upperOffset: 0, byteCount: 2))
        withList([3, 4, 9, 14], universe: 16) { XCTAssertEqual($0.decoded(), [3, 4, 9, 14]) }
    }

    func testTheLowBitsAreTheFloorOfTheLogarithmWithoutADivision() {
        for universe in [1, 2, 3, 15, 16, 17, 1000, 36_273, 9_320_401] {
            for count in [1, 2, 3, 4, 7, 64, 1000, universe / 2, universe, universe + 1] where count > 0 {
                let quotient = universe / count
                let expected = quotient <= 1 ? 0 : Int.bitWidth - 1 - quotient.leadingZeroBitCount
                let layout = EliasFanoList.layout(count: count, universe: universe)
                XCTAssertEqual(layout.lowBits, expected, "\(count) of \(universe)")
                XCTAssertEqual(EliasFanoList.byteCount(count: count, universe: universe), layout.byteCount)
            }
        }
    }

    /// The lengths of short lists, which `Lengths` keeps in a table of bytes, are the layout's, up to the largest
    /// universe a cache can have, and past the table's end.
    func testShortListsLengthsAreTheLayouts() {
        for universe in [1, 2, 5, 16, 17, 100, 2_272, 36_273, 1 << 20, 9_320_401, 1 << 31, Int(UInt32.max)] {
            let lengths = EliasFanoList.Lengths(universe: universe)
            for count in 0...min(20, universe) {
                let layout = EliasFanoList.layout(count: count, universe: universe)
                XCTAssertEqual(lengths.storedByteCount(count), layout.byteCount, "\(count) of \(universe)")
            }
        }
    }

    /// The lengths the readers' walks add up (`Lengths`, the universe's figures worked out once) are the layout's,
    /// packed lists' included, and a view's parts lie where the layout puts them.
    func testTheWalksLengthsAreTheLayouts() {
        for universe in [1, 2, 3, 64, 1000, 2_272, 36_273, 200_000, 1_000_000, 9_320_401] {
            let lengths = EliasFanoList.Lengths(universe: universe)
            let limit = CacheFormat.bitmapMinimum(movieCount: universe)
            let counts = [0, 1, 2, 3, 63, 64, 65, 129, 1000, CacheFormat.codedListMaximum,
                          CacheFormat.codedListMaximum + 1, limit, limit + 1, universe / 2, universe]
            for count in counts where count <= universe {
                XCTAssertEqual(lengths.storedByteCount(count),
                               EliasFanoList.storedByteCount(count: count, universe: universe), "\(count) of \(universe)")
                guard count > 0, !EliasFanoList.isPacked(count: count, universe: universe) else { continue }
                let layout = EliasFanoList.layout(count: count, universe: universe)
                [UInt8](repeating: 0, count: layout.byteCount + 8).withUnsafeBytes { raw in
                    let list = EliasFanoList(base: raw.baseAddress!, count: count, universe: universe)
                    XCTAssertEqual(list.upper - raw.baseAddress!, layout.upperOffset, "\(count) of \(universe)")
                    XCTAssertEqual(list.upperBitCount, layout.upperBitCount)
                    XCTAssertEqual(list.lowBits, layout.lowBits)
                }
            }
        }
    }

    func testEveryReadAgreesWithTheRanksEncoded() {
        let shapes: [(count: Int, universe: Int)] = [
            (1, 1), (1, 10), (2, 2), (63, 100), (64, 64), (65, 1000), (127, 128), (128, 5000), (129, 300),
            (500, 36_273), (1_134, 36_273), (3_000, 1_000_000), (2_048, 2_048),
        ]
        for (round, shape) in shapes.enumerated() {
            let ranks = sample(shape.count, below: shape.universe, seed: UInt64(round))
            withList(ranks, universe: shape.universe) { list in
                XCTAssertEqual(list.decoded(), ranks, "\(shape)")
                for index in ranks.indices where list[index] != ranks[index] {
                    XCTFail("\(shape): rank \(index) reads \(list[index]), not \(ranks[index])")
                    break
                }
                var visited: [UInt32] = []
                XCTAssertEqual(list.forEachRank(from: ranks.count / 3) { visited.append($0); return true }, ranks.count)
                XCTAssertEqual(visited, Array(ranks[(ranks.count / 3)...]), "\(shape)")
            }
        }
    }

    func testSearchesAndCursorsAgreeWithAScan() {
        var generator = SplitMix64(seed: 7)
        for (round, shape) in [(70, 200), (700, 50_000), (4_000, 9_000), (300, 1 << 24)].enumerated() {
            let ranks = sample(shape.0, below: shape.1, seed: 100 + UInt64(round))
            withList(ranks, universe: shape.1) { list in
                for _ in 0..<300 {
                    let start = Int(generator.next() % UInt64(ranks.count + 1))
                    let bound = UInt32(generator.next() % UInt64(shape.1 + 2))
                    let expected = ranks[start...].firstIndex { $0 >= bound } ?? ranks.count
                    var cursor = EliasFanoList.Cursor(list)
                    cursor.seek(to: start)
                    cursor.advance(to: bound)
                    XCTAssertEqual(cursor.index, expected, "\(shape): first from \(start) not below \(bound)")
                }
                // A cursor advanced to ascending bounds, with steps and jumps between them.
                var cursor = EliasFanoList.Cursor(list)
                var bound: UInt32 = 0
                while !cursor.isAtEnd {
                    bound += UInt32(generator.next() % (generator.next() % 2 == 0 ? 4 : UInt64(shape.1 / 8 + 1)))
                    // A cursor moves forward only: from where it is.
                    let expected = ranks[cursor.index...].firstIndex { $0 >= bound }
                    let rank = cursor.advance(to: bound)
                    XCTAssertEqual(cursor.index, expected ?? ranks.count, "\(shape): advance to \(bound)")
                    XCTAssertEqual(rank, expected.map { ranks[$0] } ?? .max)
                    if let expected, generator.next() % 3 == 0 {
                        cursor.next()
                        XCTAssertEqual(cursor.rank, expected + 1 < ranks.count ? ranks[expected + 1] : .max)
                    }
                }
                cursor.seek(to: ranks.count / 2)
                XCTAssertEqual(cursor.rank, ranks[ranks.count / 2])
                // Blocks of ranks read by `forEach(below:)`, as an intersection reads them.
                var blocks = EliasFanoList.Cursor(list), seen: [UInt32] = []
                var end: UInt32 = 0
                while !blocks.isAtEnd {
                    end += UInt32(generator.next() % UInt64(shape.1 / 4 + 1)) + 1
                    let before = seen.count
                    XCTAssertEqual(blocks.forEach(below: end) { seen.append($0) }, seen.count - before)
                    XCTAssertTrue(blocks.isAtEnd || blocks.rank >= end)
                }
                XCTAssertEqual(seen, ranks, "\(shape): every rank once, in order, block by block")
            }
        }
    }

    func testAnEmptyListHasNoBytes() {
        XCTAssertEqual(EliasFanoList.layout(count: 0, universe: 1000).byteCount, 0)
        withList([], universe: 1000) { list in
            XCTAssertEqual(list.decoded(), [])
            XCTAssertEqual(EliasFanoList.Cursor(list).index, 0)
            XCTAssertTrue(EliasFanoList.Cursor(list).isAtEnd)
        }
    }

    /// Any bytes of the list's length (a forged file's, checksums made again) read back as ranks or as `UInt32.max`,
    /// in bounded time, never past the list and its padding: zeros (no upper bit at all), ones (every bit), noise.
    func testForgedBytesReadBackWithoutATrap() {
        var generator = SplitMix64(seed: 11)
        for (count, universe) in [(1, 50), (65, 500), (300, 40_000), (1_000, 1_000)] {
            let ranks = sample(count, below: universe, seed: UInt64(count))
            let length = EliasFanoList.layout(count: count, universe: universe).byteCount
            let forgeries: [[UInt8]] = [
                [UInt8](repeating: 0, count: length),
                [UInt8](repeating: 0xFF, count: length),
                (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) },
            ]
            for forged in forgeries {
                withList(ranks, universe: universe, bytes: forged) { list in
                    let decoded = list.decoded()
                    XCTAssertEqual(decoded.count, count)
                    for index in 0..<count { _ = list[index] }
                    var skipping = EliasFanoList.Cursor(list)
                    skipping.advance(to: UInt32(universe / 2))
                    skipping.seek(to: count - 1)
                    var cursor = EliasFanoList.Cursor(list)
                    var steps = 0
                    while !cursor.isAtEnd, steps <= count { cursor.next(); steps += 1 }
                    XCTAssertLessThanOrEqual(steps, count, "a cursor ends within the list")
                    if forged.allSatisfy({ $0 == 0 }) {
                        XCTAssertEqual(decoded, [UInt32](repeating: .max, count: count), "no upper bit: no rank")
                    }
                }
            }
        }
    }
}
