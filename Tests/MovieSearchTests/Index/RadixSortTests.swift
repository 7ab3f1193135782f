@testable import MovieSearchIndex
import TestSupport
import XCTest

/// `RadixSort` orders like the standard library's sort: random values of every width a pass boundary can cut
/// (repeats included, and digits that are the same in every value, whose pass is skipped).
final class RadixSortTests: XCTestCase {
    func testSortsLikeTheStandardSort() {
        var random = SplitMix64(seed: 2048)
        let shapes: [(count: Int, bits: Int)] = [(0, 10), (1, 64), (2, 1), (50, 0), (1_000, 1), (1_000, 11),
                                                  (1_000, 12), (3_000, 22), (3_000, 23), (3_000, 39), (3_000, 63),
                                                  (3_000, 64)]
        for (count, bits) in shapes {
            let mask: UInt64 = bits == 64 ? ~0 : (1 << UInt64(bits)) - 1
            // Every third value a repeat of an earlier one; some runs share all but their lowest digit.
            var values: [UInt64] = []
            for index in 0..<count {
                if index % 3 == 2 { values.append(values[Int(random.next() % UInt64(index))]) }
                else if index % 7 == 0 { values.append(mask & (0xABC_DEF0_1234_5000 | random.next() % 2048)) }
                else { values.append(random.next() & mask) }
            }
            var sorted = values
            RadixSort.sort(&sorted, bits: 0..<bits)
            XCTAssertEqual(sorted, values.sorted(), "\(count) values of \(bits) bits")
        }
    }

    /// A digit that every value shares is passed over, not scattered: values that differ only above it still sort.
    func testASharedDigitIsSkipped() {
        let values: [UInt64] = [5 << 22 | 7, 1 << 22 | 7, 3 << 22 | 7, 0 << 22 | 7, 2 << 22 | 7]
        var sorted = values
        RadixSort.sort(&sorted, bits: 0..<25)
        XCTAssertEqual(sorted, values.sorted())
    }

    /// Sorted by a range of bits alone, values keep their order where those bits are equal (a stable sort): values
    /// that ascend by the bits below the range come out ascending whole.
    func testSortingByTheBitsAboveAnOrderedPartIsStable() {
        var random = SplitMix64(seed: 2049)
        for keyBits in [1, 9, 15, 23, 40] {
            let values = (0..<4_000).map { UInt64($0) | (random.next() % (1 << UInt64(keyBits))) << 22 }
            var sorted = values
            RadixSort.sort(&sorted, bits: 22..<(22 + keyBits))
            XCTAssertEqual(sorted, values.sorted(), "\(keyBits)-bit keys above 22 ordered bits")
        }
    }
}
