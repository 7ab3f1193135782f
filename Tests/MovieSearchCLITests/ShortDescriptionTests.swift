@testable import MovieSearchCLI
@testable import MovieSearchOutput
import XCTest

/// The short description under a top list's movie: the start of its overview on one line, cut with `…` to the
/// columns it has, white space as one space, control characters escaped, whatever the overview's length.
final class ShortDescriptionTests: XCTestCase {
    func testAShortOverviewIsShownWhole() {
        XCTAssertEqual(ShortDescription.line("A short one.", columns: 40), "A short one.")
        XCTAssertEqual(ShortDescription.line("abcd", columns: 4), "abcd")
    }

    func testALongerOneIsCutWithAnEllipsisToTheColumns() {
        XCTAssertEqual(ShortDescription.line("abcde", columns: 4), "abc…")
        XCTAssertEqual(ShortDescription.line("abcd efg", columns: 4), "abc…")
        XCTAssertEqual(ShortDescription.line("Eight years after the Joker's reign of anarchy,\nBatman", columns: 24),
                       "Eight years after the J…")
        XCTAssertEqual(ShortDescription.line("anything", columns: 1), "…")
        XCTAssertEqual(ShortDescription.line("anything", columns: 0), "")
        XCTAssertEqual(ShortDescription.line("anything", columns: -3), "")
    }

    func testWhiteSpaceReadsAsOneSpaceAndNoneAtTheStart() {
        XCTAssertEqual(ShortDescription.line(" \n\tOne.\n\n\tTwo  three \r\n", columns: 40), "One. Two three")
        XCTAssertEqual(ShortDescription.line("One.\n\nTwo", columns: 6), "One. …")
    }

    func testWideLettersCountTwoColumnsAndAreNeverSplit() {
        XCTAssertEqual(ShortDescription.line("十歳の少女", columns: 10), "十歳の少女")
        XCTAssertEqual(ShortDescription.line("十歳の少女", columns: 9), "十歳の少…")
        XCTAssertEqual(ShortDescription.line("十歳の少女", columns: 8), "十歳の…")
        XCTAssertEqual(ShortDescription.line("Ame\u{301}lie Poulain", columns: 5), "Ame\u{301}l…")
    }

    func testControlCharactersAreEscaped() {
        let line = ShortDescription.line("Bad\u{1B}]0;pwned\u{07} text\u{202E} here", columns: 80)
        XCTAssertEqual(line, "Bad\\e]0;pwned\\x07 text\\u{202E} here")
        XCTAssertFalse(line.unicodeScalars.contains(where: TerminalSafeText.isUnsafe))
        XCTAssertFalse(ShortDescription.line("a\u{1B}b\u{1B}c", columns: 4).unicodeScalars
            .contains(where: TerminalSafeText.isUnsafe))
    }

    func testAHugeOverviewGivesOneLine() {
        let overview = String(repeating: "word ", count: 200_000) + String(repeating: "字", count: 100_000)
        let line = ShortDescription.line(overview, columns: 80)
        XCTAssertEqual(DisplayWidth.columns(of: line), 80)
        XCTAssertTrue(line.hasPrefix("word word"))
        XCTAssertTrue(line.hasSuffix("…"))
    }

    func testOnlyAnOverviewWithTextHasALine() {
        XCTAssertFalse(ShortDescription.hasText(nil))
        XCTAssertFalse(ShortDescription.hasText(""))
        XCTAssertFalse(ShortDescription.hasText(" \n\t\r\n "))
        XCTAssertTrue(ShortDescription.hasText("\n x"))
    }
}
