import Foundation
import MovieSearch
@testable import MovieSearchOutput
import XCTest

/// Bold spans over escaped text, in-process: the pure function behind `query`'s text output.
final class HighlightTests: XCTestCase {
    private let on = Highlight.boldOn, off = Highlight.boldOff

    /// The bold codes of `text`, in order, and the text without them; `nil` codes where an ESC starts neither.
    /// Works on bytes: a combining mark right after a code would join the code's last `Character`.
    private func split(_ text: String) -> (codes: [String?], plain: String) {
        var bytes = Array(text.utf8)[...]
        var codes: [String?] = []
        var plain: [UInt8] = []
        while let escape = bytes.firstIndex(of: 0x1B) {
            plain += bytes[..<escape]
            bytes = bytes[escape...]
            let code = [on, off].first { bytes.starts(with: $0.utf8) }
            codes.append(code)
            bytes = bytes.dropFirst(code?.utf8.count ?? 1)
        }
        plain += bytes
        return (codes, String(decoding: plain, as: UTF8.self))
    }

    func testSpansOfThePlainASCIITitle() {
        XCTAssertEqual(Highlight.escaped("The Dark Knight Rises", bold: [4..<8, 9..<12]),
                       "The \(on)Dark\(off) \(on)Kni\(off)ght Rises")
        XCTAssertEqual(Highlight.escaped("Spider-Man", bold: [0..<10]), "\(on)Spider-Man\(off)")
        XCTAssertEqual(Highlight.escaped("Dark", bold: [0..<2]), "\(on)Da\(off)rk")
        XCTAssertEqual(Highlight.escaped("Dark", bold: [2..<4]), "Da\(on)rk\(off)")
    }

    func testNoSpansIsTheEscapedTitle() {
        for title in ["The Dark Knight", "Evil\u{1B}]0;pwned\u{07}", #"AC\DC"#, ""] {
            XCTAssertEqual(Highlight.escaped(title, bold: []), TerminalSafeText.escaped(title))
            XCTAssertEqual(Highlight.escaped(title, bold: [3..<3]), TerminalSafeText.escaped(title))
        }
    }

    /// Spans count UTF-16 code units of the original title: an emoji takes two, a precomposed `ü` one, a
    /// decomposed one two (u + U+0308).
    func testSpansAreUTF16OffsetsOfTheOriginalTitle() {
        XCTAssertEqual(Highlight.escaped("😀 Dark", bold: [3..<7]), "😀 \(on)Dark\(off)")
        XCTAssertEqual(Highlight.escaped("Brüno", bold: [0..<3]), "\(on)Brü\(off)no")
        XCTAssertEqual(Highlight.escaped("Bru\u{308}no", bold: [0..<4]), "\(on)Bru\u{308}\(off)no")
        XCTAssertEqual(Highlight.escaped("Straße", bold: [0..<5]), "\(on)Straß\(off)e")
    }

    /// Each piece is escaped on its own: a control character inside or beside a span shows as its escape, and
    /// the codes sit around the escape, never inside it.
    func testEscapingAndSpansStayConsistent() {
        let title = "Evil\u{1B}]0;x\u{07} Dark\\Side"
        // "Evil" 0..<4, ESC 4, "]0;x" 5..<9, BEL 9, " " 10, "Dark" 11..<15, "\" 15, "Side" 16..<20.
        XCTAssertEqual(Highlight.escaped(title, bold: [11..<15]), #"Evil\e]0;x\x07 "# + "\(on)Dark\(off)" + #"\\Side"#)
        XCTAssertEqual(Highlight.escaped(title, bold: [3..<6]), "Evi\(on)l\\e]\(off)0;x\\x07 Dark\\\\Side")
        XCTAssertEqual(Highlight.escaped(title, bold: [11..<20]), #"Evil\e]0;x\x07 "# + "\(on)Dark\\\\Side\(off)")
        for spans in [[0..<20], [4..<5], [9..<10, 15..<16], [0..<1, 19..<20], [2..<7, 8..<12]] {
            let styled = Highlight.escaped(title, bold: spans)
            XCTAssertEqual(split(styled).plain, TerminalSafeText.escaped(title), "\(spans)")
            XCTAssertEqual(split(styled).codes, Array(repeating: [on, off], count: spans.count).flatMap { $0 },
                           "\(spans): only our codes, one pair a span")
        }
    }

    /// A bold run open at the end of the title is closed; runs that touch or overlap are one; unsorted spans and
    /// parts outside the title are harmless.
    func testOddSpans() {
        XCTAssertEqual(Highlight.escaped("Dark", bold: [2..<99]), "Da\(on)rk\(off)")
        XCTAssertEqual(Highlight.escaped("Dark", bold: [0..<2, 2..<3]), "\(on)Dar\(off)k")
        XCTAssertEqual(Highlight.escaped("Dark", bold: [1..<3, 0..<2]), "\(on)Dar\(off)k")
        XCTAssertEqual(Highlight.escaped("Dark", bold: [5..<9, -3..<0]), "Dark")
        XCTAssertEqual(Highlight.escaped("Dark", bold: [-3..<1]), "\(on)D\(off)ark")
        // A span that starts inside the surrogate pair of 😀 covers the scalars that start inside it.
        XCTAssertEqual(Highlight.escaped("😀 Dark", bold: [1..<4]), "😀\(on) D\(off)ark")
        XCTAssertEqual(MatchHighlighter.merged([3..<5, 0..<1, 1..<2, 4..<9, 7..<7]), [0..<2, 3..<9])
    }

    /// Whatever the spans, the codes alternate on, off, …, off, and removing them gives the escaped title.
    func testCodesAlwaysBalance() {
        let titles = ["The Dark Knight Rises", "😀 Dark", "Bru\u{308}no", "Evil\u{1B}\u{9B}x\u{202E}y", "", "ß"]
        var generator = SystemRandomNumberGenerator()
        for title in titles {
            let length = title.utf16.count
            for _ in 0..<200 {
                let spans = (0..<Int.random(in: 0...3, using: &generator)).map { _ -> Range<Int> in
                    let start = Int.random(in: -1...length + 1, using: &generator)
                    return start..<(start + Int.random(in: 0...4, using: &generator))
                }
                let (codes, plain) = split(Highlight.escaped(title, bold: spans))
                let label = "\(title.debugDescription) \(spans)"
                XCTAssertEqual(plain, TerminalSafeText.escaped(title), label)
                XCTAssertEqual(codes.count % 2, 0, "\(label): bold left open")
                for (index, code) in codes.enumerated() {
                    XCTAssertEqual(code, index % 2 == 0 ? on : off, "\(label): codes in order, no raw ESC")
                }
                // Bold exactly where a span covers the start of a scalar.
                let covered = Set(spans.flatMap { $0.clamped(to: 0..<max(title.utf16.count, 0)) })
                var offsets: [Int] = []
                var offset = 0
                for scalar in title.unicodeScalars {
                    if covered.contains(offset) { offsets.append(offset) }
                    offset += UTF16.width(scalar)
                }
                XCTAssertEqual(codes.isEmpty, offsets.isEmpty, label)
            }
        }
    }
}
