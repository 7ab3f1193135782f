/// How a run of screen text is drawn: the SGR attributes `FrameWriter` turns into escape codes.
///
/// Colours are only set by a renderer that was told colour is allowed (`--color`, `NO_COLOR`); bold and reverse
/// video are not colour and are always available, so the selection and the matched spans stay visible in black and
/// white, as in fzf's `NO_COLOR` theme.
struct TextStyle: Hashable, Sendable {
    /// One of the eight basic ANSI colours (SGR 30–37 for foreground).
    enum Color: UInt8, Hashable, Sendable {
        case black = 0, red, green, yellow, blue, magenta, cyan, white
    }

    var bold = false
    var dim = false
    var reverse = false
    var underline = false
    var foreground: Color? = nil

    /// No attribute: the terminal's default.
    static let plain = TextStyle()
}
