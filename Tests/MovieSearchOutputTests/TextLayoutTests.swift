import MovieSearch
@testable import MovieSearchOutput
import XCTest

final class TextLayoutTests: XCTestCase {
    func testNumbers() {
        XCTAssertEqual(TextLayout.grouped(0), "0")
        XCTAssertEqual(TextLayout.grouped(999), "999")
        XCTAssertEqual(TextLayout.grouped(2272), "2,272")
        XCTAssertEqual(TextLayout.grouped(1_234_567), "1,234,567")
        XCTAssertEqual(TextLayout.grouped(-36273), "-36,273")
        XCTAssertEqual(TextLayout.count(1, "match", "matches"), "1 match")
        XCTAssertEqual(TextLayout.count(1000, "match", "matches"), "1,000 matches")
    }

    func testSizesAndDurations() {
        XCTAssertEqual(TextLayout.byteSize(812), "812 bytes")
        XCTAssertEqual(TextLayout.byteSize(1), "1 byte")
        XCTAssertEqual(TextLayout.byteSize(14_250), "14.3 KB")
        XCTAssertEqual(TextLayout.byteSize(999_999), "1.0 MB")
        XCTAssertEqual(TextLayout.byteSize(3_140_000), "3.1 MB")
        XCTAssertEqual(TextLayout.duration(nanoseconds: 400_000), "0.4 ms")
        XCTAssertEqual(TextLayout.duration(nanoseconds: 38_400_000), "38 ms")
        XCTAssertEqual(TextLayout.duration(nanoseconds: 2_345_000_000), "2.35 s")
        XCTAssertEqual(TextLayout.duration(nanoseconds: 2_050_000_000), "2.05 s")
    }

    func testRatings() {
        XCTAssertNil(TextLayout.rating(nil))
        XCTAssertEqual(TextLayout.rating(5), "5")
        XCTAssertEqual(TextLayout.rating(0), "0")
        XCTAssertEqual(TextLayout.rating(-0.0), "0")
        XCTAssertEqual(TextLayout.rating(3.5), "3.5")
        XCTAssertEqual(TextLayout.rating(-2), "-2")
        XCTAssertEqual(TextLayout.rating(1e20), "1e+20")
    }

    func testPadding() {
        XCTAssertEqual(TextLayout.padLeft("5", 3), "  5")
        XCTAssertEqual(TextLayout.padRight("5", 3), "5  ")
        XCTAssertEqual(TextLayout.padLeft("unrated", 3), "unrated")
    }

    func testWrap() {
        XCTAssertEqual(TextLayout.wrap("one two three", width: 9, firstPrefix: "> ", indent: "  "),
                       "> one two\n  three\n")
        XCTAssertEqual(TextLayout.wrap("unbreakablewordhere", width: 5, firstPrefix: "", indent: ""),
                       "unbreakablewordhere\n")
        XCTAssertEqual(TextLayout.wrap("", width: 5, firstPrefix: "x", indent: ""), "x\n")
    }

    func testTwoColumnsFillTheWidthOrFallBackToOne() {
        let urls = ["aaaa", "bbbbbb", "cc"]
        XCTAssertEqual(TextLayout.twoColumns(urls, width: 20), ["aaaa      bbbbbb", "cc"])
        // Too narrow for two columns with a gap: one a line.
        XCTAssertEqual(TextLayout.twoColumns(urls, width: 13), urls)
        XCTAssertEqual(TextLayout.twoColumns(urls, width: 14), ["aaaa    bbbbbb", "cc"])
        XCTAssertEqual(TextLayout.twoColumns(["only"], width: 80), ["only"])
        XCTAssertEqual(TextLayout.twoColumns([], width: 80), [])
    }
}
