import MovieSearch
@testable import MovieSearchOutput
import TestSupport
import XCTest

/// Terminal columns of text, and cutting and wrapping it without splitting a grapheme cluster.
final class DisplayWidthTests: XCTestCase {
    func testASCIIIsOneColumnACharacter() {
        XCTAssertEqual(DisplayWidth.columns(of: ""), 0)
        XCTAssertEqual(DisplayWidth.columns(of: "The Dark Knight"), 15)
    }

    func testEastAsianWideAndFullwidthTakeTwo() {
        XCTAssertEqual(DisplayWidth.columns(of: "千と千尋の神隠し"), 16)
        XCTAssertEqual(DisplayWidth.columns(of: "기생충"), 6)
        XCTAssertEqual(DisplayWidth.columns(of: "ＡＢ"), 4)  // fullwidth Latin
        XCTAssertEqual(DisplayWidth.columns(of: "Ｃ級 movie"), 10)
    }

    func testEmojiTakeTwo() {
        XCTAssertEqual(DisplayWidth.columns(of: "🎬"), 2)
        XCTAssertEqual(DisplayWidth.columns(of: "❤️"), 2)  // a narrow heart made emoji by U+FE0F
        XCTAssertEqual(DisplayWidth.columns(of: "🇫🇷"), 2)  // a flag: two regional indicators
        XCTAssertEqual(DisplayWidth.columns(of: "👍🏽"), 4)  // the tone modifier is wide on its own: over, never under
    }

    func testCombiningMarksAndZeroWidthCharactersTakeNone() {
        XCTAssertEqual(DisplayWidth.columns(of: "Ame\u{301}lie"), 6)
        XCTAssertEqual(DisplayWidth.columns(of: "a\u{200B}b\u{200D}c\u{FEFF}"), 3)
        XCTAssertEqual(DisplayWidth.columns(of: "\u{FE0E}"), 0)
        XCTAssertEqual(DisplayWidth.columns(of: "\u{1100}\u{1161}\u{11A8}"), 2)  // a syllable of conjoining jamo
    }

    func testAmbiguousCharactersTakeOne() {
        XCTAssertEqual(DisplayWidth.columns(of: "…·♥–"), 4)
    }

    func testControlCharactersAreEscapedBeforeTheyAreMeasured() {
        let title = "Evil\u{1B}]0;pwned\u{07}"
        let escaped = TerminalSafeText.escaped(title)
        XCTAssertEqual(escaped, "Evil\\e]0;pwned\\x07")
        XCTAssertEqual(DisplayWidth.columns(of: escaped), escaped.count)
        XCTAssertEqual(DisplayWidth.columns(of: "\u{1B}\u{85}"), 0)  // and would count nothing if they were not
    }

    func testTruncatedKeepsTextThatFits() {
        XCTAssertEqual(DisplayWidth.truncated("Heat", toColumns: 4), "Heat")
        XCTAssertEqual(DisplayWidth.truncated("千と", toColumns: 4), "千と")
        XCTAssertEqual(DisplayWidth.truncated("Heat", toColumns: 0), "")
    }

    func testTruncatedCutsWithAnEllipsis() {
        XCTAssertEqual(DisplayWidth.truncated("The Dark Knight", toColumns: 8), "The Dar…")
        XCTAssertEqual(DisplayWidth.truncated("The Dark Knight", toColumns: 1), "…")
        // A wide character that would straddle the last column is left out whole.
        XCTAssertEqual(DisplayWidth.truncated("千と千尋の神隠し", toColumns: 7), "千と千…")
        XCTAssertEqual(DisplayWidth.truncated("千と千尋の神隠し", toColumns: 6), "千と…")
    }

    func testTruncatedNeverSplitsAGraphemeCluster() {
        let cut = DisplayWidth.truncated("Ame\u{301}lie Poulain", toColumns: 4)
        XCTAssertEqual(cut, "Ame\u{301}…")
        XCTAssertEqual(cut.unicodeScalars.count, 5)  // the accent stayed with its letter
        XCTAssertEqual(DisplayWidth.truncated("ab👍🏽cd", toColumns: 5), "ab…")
        XCTAssertEqual(DisplayWidth.truncated("🇫🇷🇩🇪🇮🇹", toColumns: 5), "🇫🇷🇩🇪…")
    }

    func testEveryCutFitsItsWidth() {
        let texts = ["千と千尋の神隠し", "Ame\u{301}lie", "🎬 Movie night 🍿", "ＡＢＣ abc", "👨‍👩‍👧 family"]
        for text in texts {
            for columns in 0...20 {
                let cut = DisplayWidth.truncated(text, toColumns: columns)
                XCTAssertLessThanOrEqual(DisplayWidth.columns(of: cut), columns, "\(text) at \(columns)")
                XCTAssertTrue(text.hasPrefix(cut) || cut.hasSuffix("…"), "\(cut)")
            }
        }
    }

    func testWrappedBreaksBetweenWordsAndLongWordsBetweenClusters() {
        XCTAssertEqual(DisplayWidth.wrapped("Christian Bale, Tom Hardy", toColumns: 15),
                       ["Christian Bale,", "Tom Hardy"])
        XCTAssertEqual(DisplayWidth.wrapped("https://example.com/abc", toColumns: 10),
                       ["https://ex", "ample.com/", "abc"])
        XCTAssertEqual(DisplayWidth.wrapped("千と千尋の", toColumns: 5), ["千と", "千尋", "の"])
        XCTAssertEqual(DisplayWidth.wrapped("", toColumns: 5), [""])
        // A wide character on a 1-column line still goes, alone, rather than looping for ever.
        XCTAssertEqual(DisplayWidth.wrapped("千と", toColumns: 1), ["千", "と"])
    }

    /// The wrapping of the type before it was made linear: each cut of a long word measured the rest of it again.
    /// Kept as the reference that the linear one must match line for line.
    private func referenceWrapped(_ text: String, toColumns columns: Int) -> [String] {
        guard columns > 0 else { return [""] }
        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            var word = String(word)
            var wordWidth = DisplayWidth.columns(of: word)
            if lineWidth > 0, lineWidth + 1 + wordWidth <= columns {
                line += " " + word
                lineWidth += 1 + wordWidth
                continue
            }
            if lineWidth > 0 {
                lines.append(line)
                line = ""
                lineWidth = 0
            }
            while wordWidth > columns {
                var piece = DisplayWidth.prefix(word, columns: columns)
                if piece.isEmpty { piece = String(word.first!) }
                lines.append(piece)
                word.removeFirst(piece.count)
                wordWidth = DisplayWidth.columns(of: word)
            }
            line = word
            lineWidth = wordWidth
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }

    /// Random texts of ASCII words, CJK runs, emoji, combining accents and runs of spaces, at every width from 1 to
    /// 40: the same lines as the reference, and no line wider than the width but a lone cluster wider than it. 400
    /// texts; 150 in a sampled run (`TestScale`).
    func testWrappedMatchesTheReferenceOnRandomTexts() {
        let pieces = ["a", "word", "longerword", "千と千尋の神隠し", "東京物語", "🎬", "❤️", "e\u{301}", "🇯🇵", " ", "  ",
                      "https://example.com/a/very/long/path?with=query", "x-y", "é"]
        var random = SystemRandomNumberGenerator()
        for _ in 0..<TestScale.pick(sampled: 150, full: 400) {
            let text = (0..<Int.random(in: 0...14, using: &random)).map { _ in pieces.randomElement(using: &random)! }
                .joined(separator: Bool.random(using: &random) ? " " : "")
            for columns in 1...40 {
                let lines = DisplayWidth.wrapped(text, toColumns: columns)
                XCTAssertEqual(lines, referenceWrapped(text, toColumns: columns), "\(text.debugDescription) at \(columns)")
                for line in lines where DisplayWidth.columns(of: line) > columns {
                    XCTAssertEqual(line.count, 1, "\(line.debugDescription) is wider than \(columns)")
                }
            }
        }
    }

    /// 80,000 characters of CJK without a space wrap into lines of exactly the width (two columns a character),
    /// every character kept in order.
    func testALongUnbrokenCJKTextWrapsToFullLines() {
        let text = String(repeating: "千と千尋の神隠し", count: 10_000)
        for columns in [1, 2, 7, 68, 80] {
            let lines = DisplayWidth.wrapped(text, toColumns: columns)
            XCTAssertEqual(lines.joined(), text)
            let full = max(2, columns - columns % 2)
            XCTAssertEqual(lines.dropLast().map { DisplayWidth.columns(of: $0) }, Array(repeating: full, count: lines.count - 1),
                           "at \(columns)")
            XCTAssertEqual(lines.count, (80_000 * 2 + full - 1) / full, "at \(columns)")
        }
    }

    /// A word of no width (a lone zero-width space) is text all the same: kept, with the space after it.
    func testAZeroWidthWordIsKept() {
        XCTAssertEqual(DisplayWidth.wrapped("\u{200B} word", toColumns: 10), ["\u{200B} word"])
        XCTAssertEqual(DisplayWidth.wrapped("\u{200B} longerword", toColumns: 10), ["\u{200B}", "longerword"])
    }
}
