import MovieSearch
@_spi(Engine) @testable import MovieSearchIndex
import XCTest

final class XXHash64Tests: XCTestCase {
    /// Values computed by the reference implementation (Python's `xxhash` package), covering the short-input
    /// path, the 4- and 8-byte tails and the 32-byte stripes.
    func testPublishedValues() {
        XCTAssertEqual(XXHash64.hash([]), 0xEF46_DB37_51D8_E999)
        XCTAssertEqual(XXHash64.hash(Array("a".utf8)), 0xD24E_C4F1_A98C_6E5B)
        XCTAssertEqual(XXHash64.hash(Array("abc".utf8)), 0x44BC_2CF5_AD77_0999)
        XCTAssertEqual(XXHash64.hash(Array("0123456789abcdef0123456789abcdef0123456789".utf8)), 0xA761_90C3_ACF0_8A1C)
        let long = (0..<3).flatMap { _ in (0..<256).map(UInt8.init) }
        XCTAssertEqual(XXHash64.hash(long), 0x8E03_C838_C596_036F)
        XCTAssertEqual(XXHash64.hash([], seed: 2_654_435_761), 0xAC75_FDA2_929B_17EF)
        XCTAssertEqual(XXHash64.hash(long, seed: 2_654_435_761), 0x8E06_C6A0_27F6_B435)
    }

    func testEveryByteMatters() {
        let bytes = (0..<100).map { UInt8($0) }
        let original = XXHash64.hash(bytes)
        for position in bytes.indices {
            var changed = bytes
            changed[position] ^= 1
            XCTAssertNotEqual(XXHash64.hash(changed), original, "flip at \(position)")
        }
    }
}
