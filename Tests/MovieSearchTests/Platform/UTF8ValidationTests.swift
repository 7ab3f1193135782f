import MovieSearch
@testable import MovieSearchQuery
import XCTest

/// `UTF8.validSequenceLength(in:at:)` against the standard library's own UTF-8 decoder, on every lead byte and the
/// boundary values of each continuation byte.
final class UTF8ValidationTests: XCTestCase {
    func testAgreesWithTheStandardLibraryOnBoundarySequences() {
        let continuations: [UInt8] = [0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF]
        var checked = 0
        for lead in UInt8.min...UInt8.max {
            for second in continuations {
                for third in [0x80, 0xBF, 0xC0] as [UInt8] {
                    for fourth in [0x80, 0xBF, 0x41] as [UInt8] {
                        let bytes = [lead, second, third, fourth]
                        XCTAssertEqual(UTF8.validSequenceLength(in: bytes, at: 0), Self.expectedLength(bytes),
                                       "bytes \(bytes.map { String($0, radix: 16) })")
                        checked += 1
                    }
                }
            }
        }
        XCTAssertEqual(checked, 256 * 10 * 3 * 3)
    }

    func testATruncatedSequenceIsToldApartFromAnInvalidOne() {
        XCTAssertEqual(UTF8.validSequenceLength(in: [0xE2, 0x82], at: 0), -1)  // € cut short
        XCTAssertEqual(UTF8.validSequenceLength(in: [0xE2, 0x41], at: 0), 0)
        XCTAssertEqual(UTF8.validSequenceLength(in: [0x41, 0xF0, 0x9F, 0x98], at: 1), -1)
        XCTAssertEqual(UTF8.validSequenceLength(in: Array("a€".utf8)[...], at: 1), 3)  // an ArraySlice
    }

    /// The length of the one scalar the standard library decodes from the start of `bytes`, or 0 when it
    /// repairs the first byte.
    private static func expectedLength(_ bytes: [UInt8]) -> Int {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return 0 }
        return UTF8.width(scalar)
    }
}
