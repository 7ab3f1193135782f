import MovieSearch
@testable import MovieSearchCLI
import XCTest

/// `FrameWriter`: the bytes that take the terminal from one screen to the next.
final class FrameWriterTests: XCTestCase {
    private static let begin = "\u{1B}[?2026h\u{1B}[?25l"
    private static let end = "\u{1B}[?2026l"
    private static let clear = "\u{1B}[0m\u{1B}[H\u{1B}[2J"

    private func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    private func screen(_ rows: [String], cursor: Screen.Position? = nil) -> Screen {
        Screen(lines: rows.map { ScreenLine($0) }, cursor: cursor)
    }

    func testFirstFrameClearsAndDrawsEveryNonEmptyRow() {
        var writer = FrameWriter(withColor: true)
        let bytes = writer.frame(screen(["> dark", "", "2012"], cursor: .init(row: 0, column: 6)))
        XCTAssertEqual(text(bytes), Self.begin + Self.clear
            + "\u{1B}[1;1H> dark" + "\u{1B}[3;1H2012"
            + "\u{1B}[1;7H\u{1B}[?25h" + Self.end)
    }

    func testOnlyChangedRowsAreWritten() {
        var writer = FrameWriter(withColor: true)
        _ = writer.frame(screen(["> d", "row one", "row two", "row three"], cursor: .init(row: 0, column: 3)))
        let bytes = writer.frame(screen(["> da", "row one", "row 2", "row three"], cursor: .init(row: 0, column: 4)))
        XCTAssertEqual(text(bytes), Self.begin
            + "\u{1B}[1;1H\u{1B}[2K> da" + "\u{1B}[3;1H\u{1B}[2Krow 2"
            + "\u{1B}[1;5H\u{1B}[?25h" + Self.end)
    }

    func testARowThatBecameEmptyIsCleared() {
        var writer = FrameWriter(withColor: true)
        _ = writer.frame(screen(["a", "b"]))
        XCTAssertEqual(text(writer.frame(screen(["a", ""]))), Self.begin + "\u{1B}[2;1H\u{1B}[2K" + Self.end)
    }

    func testAnUnchangedScreenWritesNothing() {
        var writer = FrameWriter(withColor: true)
        let first = screen(["a", "b"], cursor: .init(row: 0, column: 1))
        XCTAssertFalse(writer.frame(first).isEmpty)
        XCTAssertEqual(writer.frame(first), [])
    }

    func testOnlyTheCursorMovedOrHid() {
        var writer = FrameWriter(withColor: true)
        _ = writer.frame(screen(["ab"], cursor: .init(row: 0, column: 2)))
        XCTAssertEqual(text(writer.frame(screen(["ab"], cursor: .init(row: 0, column: 1)))),
                       Self.begin + "\u{1B}[1;2H\u{1B}[?25h" + Self.end)
        XCTAssertEqual(text(writer.frame(screen(["ab"]))), Self.begin + Self.end, "hidden: stays hidden")
    }

    func testInvalidateRedrawsEverything() {
        var writer = FrameWriter(withColor: true)
        let same = screen(["a", "b"])
        _ = writer.frame(same)
        writer.invalidate()
        XCTAssertEqual(text(writer.frame(same)), Self.begin + Self.clear
            + "\u{1B}[1;1Ha\u{1B}[2;1Hb" + Self.end)
    }

    func testADifferentRowCountRedrawsEverything() {
        var writer = FrameWriter(withColor: true)
        _ = writer.frame(screen(["a", "b", "c"]))
        XCTAssertEqual(text(writer.frame(screen(["a", "b"]))), Self.begin + Self.clear
            + "\u{1B}[1;1Ha\u{1B}[2;1Hb" + Self.end)
    }

    func testStylesPerRunResetAtTheEndOfTheRow() {
        var writer = FrameWriter(withColor: true)
        var line = ScreenLine()
        line.append("8.4 ")
        line.append("Dark", TextStyle(bold: true))
        line.append(" ")
        line.append("Kni", TextStyle(bold: true, foreground: .yellow))
        line.append("ght", TextStyle(bold: true, foreground: .yellow))
        line.append(" ♥", TextStyle(foreground: .red))
        let bytes = writer.frame(Screen(lines: [line]))
        XCTAssertEqual(text(bytes), Self.begin + Self.clear
            + "\u{1B}[1;1H8.4 \u{1B}[0;1mDark\u{1B}[0m \u{1B}[0;1;33mKnight\u{1B}[0;31m ♥\u{1B}[0m" + Self.end,
            "same style in a row: one code; plain after styled: a reset; a reset at the end of the row")
    }

    func testEveryAttribute() {
        var writer = FrameWriter(withColor: true)
        let style = TextStyle(bold: true, dim: true, reverse: true, underline: true, foreground: .cyan)
        XCTAssertEqual(text(writer.frame(Screen(lines: [ScreenLine("x", style)]))),
                       Self.begin + Self.clear + "\u{1B}[1;1H\u{1B}[0;1;2;4;7;36mx\u{1B}[0m" + Self.end)
    }

    func testWithoutColorForegroundsAreDroppedAndTheRestKept() {
        var writer = FrameWriter(withColor: false)
        var line = ScreenLine()
        line.append("sel", TextStyle(reverse: true, foreground: .green))
        line.append("red", TextStyle(foreground: .red))
        line.append("bold", TextStyle(bold: true, underline: true, foreground: .blue))
        let bytes = text(writer.frame(Screen(lines: [line])))
        XCTAssertEqual(bytes, Self.begin + Self.clear + "\u{1B}[1;1H\u{1B}[0;7msel\u{1B}[0mred\u{1B}[0;1;4mbold"
            + "\u{1B}[0m" + Self.end)
        for color in 30...37 { XCTAssertFalse(bytes.contains(";\(color)m"), "no colour code \(color)") }
    }

    /// With line wrapping off, the cursor stays on the last cell after a row as wide as the screen: an erase to
    /// the end of the line written after the text would blank that cell (the `♥` or `…` that ends a cut title).
    func testAFullWidthRowIsErasedBeforeItsTextSoItsLastCellStays() {
        var writer = FrameWriter(withColor: true)
        let wide = "Dark Knight Rises, The…"
        _ = writer.frame(screen([wide, "x"]))
        var line = ScreenLine("The Dark Knight Ri… ")
        line.append("♥", TextStyle(foreground: .red))
        let bytes = text(writer.frame(Screen(lines: [line, ScreenLine("x")])))
        XCTAssertEqual(bytes, Self.begin
            + "\u{1B}[1;1H\u{1B}[2KThe Dark Knight Ri… \u{1B}[0;31m♥\u{1B}[0m" + Self.end)
        XCTAssertFalse(bytes.contains("\u{1B}[K"), "no erase after the text: it would take the last cell")
        XCTAssertTrue(bytes.hasSuffix("♥\u{1B}[0m" + Self.end), "nothing erases after the last cell is drawn")
        var fresh = FrameWriter(withColor: true)
        let first = text(fresh.frame(screen([wide])))
        XCTAssertTrue(first.hasSuffix(wide + Self.end), "a full redraw: the clear comes first, nothing after the row")
    }

    func testAFrameIsOneBufferWithTheTextAsGiven() {
        var writer = FrameWriter(withColor: true)
        let title = "千と千尋の神隠し · Amélie"
        let bytes = writer.frame(screen([title]))
        XCTAssertTrue(text(bytes).contains(title))
        XCTAssertEqual(bytes.filter { $0 == 0x0A || $0 == 0x0D }, [], "rows are placed, never reached by newlines")
    }
}
