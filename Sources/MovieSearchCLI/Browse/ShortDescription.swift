import MovieSearchOutput

/// A movie's short description, as the top lists of `browse` show it on the second line of a movie's row: the start
/// of its overview on one line, cut to the width with `…`.
///
///     ShortDescription.line("Eight years after the Joker's reign of anarchy,\nBatman…", columns: 24)
///     // "Eight years after the J…"
///
/// White space of any kind (line breaks, tabs, runs of spaces) reads as one space, so that an overview written in
/// paragraphs still starts on its one line; every other character is escaped as in all text output
/// (`TerminalSafeText`). Cost: O(columns), not O(overview): only the characters that can show are read (an overview
/// can be 80,000 characters long, and each of the rows on screen is drawn at every key).
enum ShortDescription {
    /// Whether `overview` has any text to show (a movie without one has no second line).
    static func hasText(_ overview: String?) -> Bool {
        overview?.contains { !$0.isWhitespace } ?? false
    }

    /// The start of `overview` in at most `columns` columns: white space as one space (none at the start), the rest
    /// escaped; unchanged when that fits, else cut with `…` (`DisplayWidth.truncated`). Empty when `columns` is 0
    /// or less.
    static func line(_ overview: String, columns: Int) -> String {
        guard columns > 0 else { return "" }
        var text = ""
        var width = 0
        var spaceBefore = false
        for character in overview {
            if character.isWhitespace {
                spaceBefore = !text.isEmpty
                continue
            }
            if spaceBefore {
                text.append(" ")
                width += 1
                spaceBefore = false
            }
            let piece = TerminalSafeText.escaped(String(character))
            text += piece
            width += DisplayWidth.columns(of: piece)
            // One column more than fits is enough for `truncated` to know that the text goes on.
            if width > columns { break }
        }
        return DisplayWidth.truncated(text, toColumns: columns)
    }
}
