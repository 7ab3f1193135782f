/// A whole screen as a renderer builds it: exactly as many lines as the terminal has rows, each fitting its width,
/// and where the cursor stands (on the prompt), or `nil` to hide it.
///
/// `FrameWriter` compares a screen with the one drawn before and writes only the rows that changed.
struct Screen: Hashable, Sendable {
    /// A position on the screen, counted from 0 (the writer adds 1 for the terminal's own counting).
    struct Position: Hashable, Sendable {
        var row: Int
        var column: Int
    }

    var lines: [ScreenLine]
    var cursor: Position?

    init(lines: [ScreenLine], cursor: Position? = nil) {
        self.lines = lines
        self.cursor = cursor
    }

    /// The lines without styles, one string per row: what snapshot tests compare.
    var plainText: [String] { lines.map(\.plainText) }
}
