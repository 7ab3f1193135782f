/// One row of a screen, as a renderer builds it and `FrameWriter` draws it: runs of text, each with its style.
///
/// The text of every run is already safe to print (control characters made visible, see `TerminalSafeText`) and the
/// whole line already fits its screen's width in terminal columns (`DisplayWidth`): the writer never measures,
/// cuts or escapes, it only adds the style codes and clears what is left of the row.
struct ScreenLine: Hashable, Sendable {
    /// A run of text drawn in one style.
    struct Run: Hashable, Sendable {
        var text: String
        var style: TextStyle

        init(_ text: String, _ style: TextStyle = .plain) {
            self.text = text
            self.style = style
        }
    }

    var runs: [Run]

    init(_ runs: [Run] = []) {
        self.runs = runs
    }

    /// A line of one run.
    init(_ text: String, _ style: TextStyle = .plain) {
        self.runs = text.isEmpty ? [] : [Run(text, style)]
    }

    /// The text without styles: what a person reads, and what snapshot tests compare.
    var plainText: String { runs.map(\.text).joined() }

    /// Adds a run at the end.
    mutating func append(_ text: String, _ style: TextStyle = .plain) {
        guard !text.isEmpty else { return }
        runs.append(Run(text, style))
    }
}
