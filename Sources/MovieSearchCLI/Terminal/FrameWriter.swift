/// Turns screens into the bytes that draw them, writing only what changed since the frame before.
///
///     var writer = FrameWriter(withColor: true)
///     try terminal.write(writer.frame(screen))   // first frame: clears and draws every row
///     try terminal.write(writer.frame(next))     // only the rows that differ, and the cursor
///     writer.invalidate()                        // after a resize: the next frame draws everything again
///
/// A frame is one buffer, for one `write`: the synchronized-update brackets (`ESC[?2026h` … `ESC[?2026l`, which a
/// terminal that knows them uses to show the frame at once, and any other ignores as an unknown mode), the cursor
/// hidden while rows are drawn, then for each changed row its position (`ESC[row;1H`), the row erased (`ESC[2K`,
/// with the default background: the row before ended with its attributes reset), each run's attributes (`ESC[0;…m`,
/// only where they change), and a reset at the end of the row if any attribute is on. Last the cursor is placed and
/// shown, or left hidden. Rows are drawn whole: a row is short (one screen width), and drawing it whole keeps the
/// writer from measuring text, which the renderer already did.
///
/// The row is erased before its text, not after it (`ESC[K`): line wrapping is off, so after a row exactly as wide
/// as the screen the cursor stays on the last cell, and an erase to the end of the line there would blank that cell
/// (the `♥` or `…` a cut title ends with). A frame that redraws everything clears the screen first and skips the
/// per-row erase.
///
/// Without colour (`withColor` false) foreground colours are dropped; bold, dim, underline and reverse video are
/// kept, as they are not colour.
struct FrameWriter {
    /// Whether foreground colours are written.
    var withColor: Bool

    /// What the terminal shows: the last frame written, or `nil` when unknown (the next frame draws everything).
    private var previous: Screen?

    init(withColor: Bool) {
        self.withColor = withColor
    }

    /// Forgets what the terminal shows, so that the next frame clears the screen and draws every row (after a
    /// resize, or when something else wrote to the terminal).
    mutating func invalidate() {
        previous = nil
    }

    /// The bytes that take the terminal from the previous frame to `screen`; empty when nothing changed.
    mutating func frame(_ screen: Screen) -> [UInt8] {
        if let previous, previous == screen { return [] }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256 + screen.lines.count * 128)
        bytes.append(contentsOf: Self.beginUpdate)
        bytes.append(contentsOf: Self.hideCursor)
        let redrawAll = previous == nil || previous?.lines.count != screen.lines.count
        if redrawAll {
            bytes.append(contentsOf: Self.clearScreen)
        }
        for (row, line) in screen.lines.enumerated() {
            if !redrawAll, let previous, previous.lines[row] == line { continue }
            if redrawAll, line.runs.isEmpty { continue }  // the clear left it blank
            appendMove(row: row, column: 0, to: &bytes)
            if !redrawAll { bytes.append(contentsOf: Self.eraseLine) }
            appendLine(line, to: &bytes)
        }
        if let cursor = screen.cursor {
            appendMove(row: cursor.row, column: cursor.column, to: &bytes)
            bytes.append(contentsOf: Self.showCursor)
        }
        bytes.append(contentsOf: Self.endUpdate)
        previous = screen
        return bytes
    }

    // MARK: Escape codes

    private static let beginUpdate = Array("\u{1B}[?2026h".utf8)
    private static let endUpdate = Array("\u{1B}[?2026l".utf8)
    private static let hideCursor = Array("\u{1B}[?25l".utf8)
    private static let showCursor = Array("\u{1B}[?25h".utf8)
    /// Attributes off, cursor home, whole screen cleared.
    private static let clearScreen = Array("\u{1B}[0m\u{1B}[H\u{1B}[2J".utf8)
    /// The whole row the cursor is on erased (the cursor does not move).
    private static let eraseLine = Array("\u{1B}[2K".utf8)
    private static let resetAttributes = Array("\u{1B}[0m".utf8)

    /// `ESC[row;columnH`, counted from 1.
    private func appendMove(row: Int, column: Int, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: "\u{1B}[\(row + 1);\(column + 1)H".utf8)
    }

    /// One row's runs, each in its style, then the reset if an attribute is on.
    private func appendLine(_ line: ScreenLine, to bytes: inout [UInt8]) {
        var current = TextStyle.plain
        for run in line.runs where !run.text.isEmpty {
            let style = effective(run.style)
            if style != current {
                appendStyle(style, to: &bytes)
                current = style
            }
            bytes.append(contentsOf: run.text.utf8)
        }
        if current != .plain { bytes.append(contentsOf: Self.resetAttributes) }
    }

    /// `style` as written: without its colour when colour is off.
    private func effective(_ style: TextStyle) -> TextStyle {
        var style = style
        if !withColor { style.foreground = nil }
        return style
    }

    /// `ESC[0;…m`: every attribute reset, then those of `style` set, so that no attribute of the run before
    /// carries over.
    private func appendStyle(_ style: TextStyle, to bytes: inout [UInt8]) {
        var codes = ["0"]
        if style.bold { codes.append("1") }
        if style.dim { codes.append("2") }
        if style.underline { codes.append("4") }
        if style.reverse { codes.append("7") }
        if let color = style.foreground { codes.append(String(30 + Int(color.rawValue))) }
        bytes.append(contentsOf: "\u{1B}[\(codes.joined(separator: ";"))m".utf8)
    }
}
