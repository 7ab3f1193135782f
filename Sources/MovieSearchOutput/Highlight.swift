import MovieSearchQuery

/// Text made safe to print (`TerminalSafeText.escaped`) with some of its parts in bold: the match spans of a title.
///
///     Highlight.escaped("The Dark Knight Rises", bold: [4..<8, 9..<12])
///     // "The \e[1mDark\e[22m \e[1mKni\e[22mght Rises" (with real ESC characters)
///
/// The spans are UTF-16 offsets into the original text (what `MatchHighlighter.utf16Ranges(in:)` gives). Each run of
/// the text, bold or not, is escaped on its own, and escaping works one scalar at a time, so the printed text without
/// its codes is exactly `TerminalSafeText.escaped(text)`: an ESC in a title still shows as `\e`, and a title can
/// never open or close bold by itself. Bold is turned on with SGR 1 and off with SGR 22 (normal intensity), which
/// leaves any other attribute of the terminal alone; a bold run is always closed before the text ends.
///
/// Cost: O(n) in the text's length plus the number of spans.
package enum Highlight {
    /// SGR 1: bold on.
    static let boldOn = "\u{1B}[1m"
    /// SGR 22: bold (and faint) off.
    static let boldOff = "\u{1B}[22m"

    /// `text` escaped as `TerminalSafeText.escaped(_:)` does, with the scalars that start inside `spans` in bold.
    ///
    /// - Parameters:
    ///   - text: The text as the catalog gave it.
    ///   - spans: Half-open ranges of UTF-16 offsets into `text`. They need not be sorted or merged; parts outside
    ///     the text are ignored, and a span that starts or ends inside a surrogate pair covers the scalars that
    ///     start inside it.
    /// - Returns: The escaped text with `boldOn`/`boldOff` around each bold run; without spans, the escaped text.
    static func escaped(_ text: String, bold spans: [Range<Int>]) -> String {
        var result = ""
        for run in runs(text, bold: spans) {
            result += run.isBold ? boldOn + run.text + boldOff : run.text
        }
        return result
    }

    /// `text` cut into runs that are bold or not, each escaped on its own as `TerminalSafeText.escaped(_:)` does:
    /// what `escaped(_:bold:)` writes with codes, and browse draws as styled runs of a screen line.
    ///
    /// - Parameters: as for `escaped(_:bold:)`.
    /// - Returns: The runs in order, none empty, no two neighbours alike; joined, their texts are exactly
    ///   `TerminalSafeText.escaped(text)`.
    package static func runs(_ text: String, bold spans: [Range<Int>]) -> [(text: String, isBold: Bool)] {
        let spans = MatchHighlighter.merged(spans)
        guard !spans.isEmpty else { return text.isEmpty ? [] : [(TerminalSafeText.escaped(text), false)] }
        var result: [(text: String, isBold: Bool)] = []
        var run = String.UnicodeScalarView()
        var runIsBold = false
        var offset = 0
        var next = 0
        for scalar in text.unicodeScalars {
            // Sorted and apart, so a span that ends at or before `offset` is behind us for good.
            while next < spans.count, spans[next].upperBound <= offset { next += 1 }
            let isBold = next < spans.count && spans[next].lowerBound <= offset
            if isBold != runIsBold {
                if !run.isEmpty { result.append((TerminalSafeText.escaped(String(run)), runIsBold)) }
                run = String.UnicodeScalarView()
                runIsBold = isBold
            }
            run.append(scalar)
            offset += UTF16.width(scalar)
        }
        if !run.isEmpty { result.append((TerminalSafeText.escaped(String(run)), runIsBold)) }
        return result
    }
}
