import MovieSearchOutput

/// The query line of `browse`: its text and the cursor in it, edited as in readline and fzf.
///
///     var editor = QueryEditor()
///     editor.insert("dark kni")          // "dark kni|"
///     editor.deleteWordBackward()        // "dark |"
///     editor.moveLeft()                  // "dark| "
///
/// The text is kept as grapheme clusters (`Character`), so the cursor never stands inside one: ← and Backspace move
/// over a letter with its accents, or an emoji with its modifiers, as one. Every editing method returns whether the
/// text changed, so the caller searches again only then.
struct QueryEditor: Equatable {
    /// The text, one grapheme cluster per element.
    private(set) var characters: [Character] = []
    /// Where the cursor stands: the number of characters before it (0 ... `characters.count`).
    private(set) var cursor = 0

    /// The query as one string.
    var text: String { String(characters) }

    /// Inserts `text` at the cursor and moves the cursor after it. Scalars a terminal would act on (controls,
    /// bidirectional overrides: `TerminalSafeText.isUnsafe`) are dropped, so the query line can be drawn as it is;
    /// a pasted line feed or tab becomes a space.
    @discardableResult
    mutating func insert(_ text: String) -> Bool {
        var clean = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "\n" || scalar == "\t" || scalar == "\r" {
                clean.append(" ")
            } else if !TerminalSafeText.isUnsafe(scalar) {
                clean.append(scalar)
            }
        }
        guard !clean.isEmpty else { return false }
        let before = String(characters[..<cursor]) + String(clean)
        let whole = before + String(characters[cursor...])
        characters = Array(whole)
        // A combining mark typed alone joins the character before it: count the clusters again.
        cursor = min(before.count, characters.count)
        return true
    }

    /// Backspace, Ctrl-H: deletes the character before the cursor.
    @discardableResult
    mutating func deleteBackward() -> Bool {
        guard cursor > 0 else { return false }
        characters.remove(at: cursor - 1)
        cursor -= 1
        return true
    }

    /// Delete: deletes the character under the cursor.
    @discardableResult
    mutating func deleteForward() -> Bool {
        guard cursor < characters.count else { return false }
        characters.remove(at: cursor)
        return true
    }

    /// Ctrl-U, as in readline and fzf (`unix-line-discard`): deletes everything before the cursor; with the cursor
    /// at the end, where it is after typing, that clears the line.
    @discardableResult
    mutating func deleteToStart() -> Bool {
        guard cursor > 0 else { return false }
        characters.removeFirst(cursor)
        cursor = 0
        return true
    }

    /// Ctrl-W, as in readline (`unix-word-rubout`): deletes the spaces before the cursor, then the word before them.
    @discardableResult
    mutating func deleteWordBackward() -> Bool {
        var start = cursor
        while start > 0, characters[start - 1].isWhitespace { start -= 1 }
        while start > 0, !characters[start - 1].isWhitespace { start -= 1 }
        guard start < cursor else { return false }
        characters.removeSubrange(start..<cursor)
        cursor = start
        return true
    }

    /// Empties the line.
    @discardableResult
    mutating func clear() -> Bool {
        guard !characters.isEmpty else { return false }
        characters = []
        cursor = 0
        return true
    }

    /// ←: one character to the left.
    mutating func moveLeft() { cursor = max(0, cursor - 1) }
    /// →: one character to the right.
    mutating func moveRight() { cursor = min(characters.count, cursor + 1) }
    /// Ctrl-A: to the start of the line.
    mutating func moveToStart() { cursor = 0 }
    /// Ctrl-E: to the end of the line.
    mutating func moveToEnd() { cursor = characters.count }
}
