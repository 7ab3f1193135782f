@testable import MovieSearchQuery
import TestSupport
import XCTest

/// `TermRanges`, which holds a query's first four ranges inline and the rest in an array: every operation the
/// executor uses agrees with the same operations on an array, across the step from inline to spilled and back.
final class TermRangesTests: XCTestCase {
    func testOperationsAgreeWithAnArray() {
        var random = SplitMix64(seed: 21)
        for trial in 0..<400 {
            var ranges = TermRanges(), model: [Range<Int>] = []
            for step in 0..<(Int(random.next() % 24) + 1) {
                switch random.next() % 5 {
                case 0, 1, 2:
                    let low = Int(random.next() % 50)
                    let range = low..<(low + 1 + Int(random.next() % 9))
                    ranges.append(range)
                    model.append(range)
                case 3:
                    let k = model.isEmpty ? 0 : Int(random.next() % UInt64(model.count + 1))
                    ranges.removeFirst(k)
                    model.removeFirst(k)
                default:
                    if !model.isEmpty {
                        let position = Int(random.next() % UInt64(model.count))
                        let range = position..<(position + 3)
                        ranges[position] = range
                        model[position] = range
                    }
                }
                XCTAssertEqual(ranges.array, model, "trial \(trial), step \(step)")
                XCTAssertEqual(ranges.count, model.count, "trial \(trial), step \(step)")
            }
            let order: (Range<Int>, Range<Int>) -> Bool = {
                $0.lowerBound != $1.lowerBound ? $0.lowerBound < $1.lowerBound : $0.upperBound > $1.upperBound
            }
            ranges.sort(by: order)
            model.sort(by: order)
            XCTAssertEqual(ranges.array, model, "trial \(trial), sorted")
        }
    }

    func testTheFifthRangeSpillsAndRemovingGoesBackInline() {
        var ranges = TermRanges((0..<6).map { $0..<($0 + 1) })
        XCTAssertEqual(ranges.count, 6)
        XCTAssertEqual(ranges[5], 5..<6)
        ranges.removeFirst(3)
        XCTAssertEqual(ranges.array, [3..<4, 4..<5, 5..<6])
        ranges.append(9..<10)
        ranges.append(10..<11)
        XCTAssertEqual(ranges.array, [3..<4, 4..<5, 5..<6, 9..<10, 10..<11])
    }
}
