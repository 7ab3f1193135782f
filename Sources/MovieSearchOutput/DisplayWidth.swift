/// How many terminal columns a text takes, and how to cut or wrap it to a number of columns without ever cutting
/// inside a grapheme cluster (a letter and its accents, an emoji and its modifiers stay whole).
///
///     DisplayWidth.columns(of: "The Dark Knight")          // 15
///     DisplayWidth.columns(of: "千と千尋の神隠し")            // 16: East Asian Wide characters take two
///     DisplayWidth.columns(of: "Ame\u{301}lie")            // 6: a combining accent takes none
///     DisplayWidth.truncated("千と千尋の神隠し", toColumns: 7) // "千と千…" (6 columns + the 1-column ellipsis)
///
/// The rule, per Unicode scalar, as the `wcwidth` implementations terminals use:
///
/// | Scalars                                                                  | Columns |
/// |--------------------------------------------------------------------------|---------|
/// | East Asian Wide and Fullwidth (CJK, kana, Hangul syllables, fullwidth    | 2       |
/// | forms) and emoji with default emoji presentation (`EastAsianWidth.txt`)  |         |
/// | combining marks (Mn, Me), format characters (Cf: ZWJ, ZWNJ, ZWSP, BOM…), | 0       |
/// | variation selectors, Hangul medial and final jamo                        |         |
/// | C0 and C1 controls and DEL (callers escape them first, see below)        | 0       |
/// | everything else                                                          | 1       |
///
/// A grapheme cluster takes the sum of its scalars' columns, and at least 2 when it holds the emoji presentation
/// selector U+FE0F (`❤️`) or is a flag (two regional indicators). The sum is what terminals that advance one code
/// point at a time (xterm, tmux) draw; terminals that draw a ZWJ emoji sequence as one picture draw it narrower,
/// which only leaves a blank column. Over-estimating is the safe side: a line measured too wide is cut a little
/// early, a line measured too narrow would wrap and break the layout.
///
/// East Asian Ambiguous characters (`…`, `·`, `♥`, Greek, Cyrillic) count one column, as in every locale but the
/// CJK legacy ones.
///
/// Control characters are measured as zero columns because they must never reach this type: escape data first
/// (`TerminalSafeText.escaped`), then measure the escaped text, whose `\e` and `\x07` are plain ASCII.
///
/// Cost: O(n) in the text's length; ASCII text is measured from its UTF-8 bytes without forming grapheme clusters.
package enum DisplayWidth {
    /// The ellipsis that marks a cut: U+2026, one column.
    package static let ellipsis = "…"

    /// The columns `text` takes on a terminal.
    package static func columns(of text: String) -> Int {
        if let ascii = asciiColumns(text) { return ascii }
        var total = 0
        for character in text { total += columns(of: character) }
        return total
    }

    /// The columns one grapheme cluster takes: the sum of its scalars' columns, and at least 2 for an emoji
    /// presentation sequence (U+FE0F) or a flag.
    package static func columns(of character: Character) -> Int {
        var sum = 0
        var isEmojiPresentation = false
        var regionalIndicators = 0
        for scalar in character.unicodeScalars {
            sum += columns(of: scalar)
            if scalar.value == 0xFE0F { isEmojiPresentation = true }
            if (0x1F1E6...0x1F1FF).contains(scalar.value) { regionalIndicators += 1 }
        }
        if isEmojiPresentation || regionalIndicators >= 2 { return max(sum, 2) }
        return sum
    }

    /// The columns one scalar takes (0, 1 or 2) by the table in the type's discussion.
    static func columns(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x7F { return value < 0x20 ? 0 : 1 }
        if value < 0xA0 { return 0 }  // DEL and the C1 controls
        if value == 0xAD { return 1 }  // the soft hyphen is Cf but terminals show it
        if (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) { return 0 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if value < 0x1100 { return 1 }
        return isWide(value) ? 2 : 1
    }

    /// `text` cut to at most `columns` columns: unchanged when it fits, else the longest run of whole grapheme
    /// clusters that leaves one column for `…`, then `…`. Empty when `columns` is 0 or less.
    package static func truncated(_ text: String, toColumns columns: Int) -> String {
        guard columns > 0 else { return "" }
        if let ascii = asciiColumns(text) {
            guard ascii > columns else { return text }
            return String(text.utf8.prefix(columns - 1))! + ellipsis
        }
        guard Self.columns(of: text) > columns else { return text }
        return prefix(text, columns: columns - 1) + ellipsis
    }

    /// The longest prefix of `text`, in whole grapheme clusters, that takes at most `columns` columns (no ellipsis).
    package static func prefix(_ text: String, columns: Int) -> String {
        guard columns > 0 else { return "" }
        var kept = ""
        var width = 0
        for character in text {
            let characterWidth = Self.columns(of: character)
            if width + characterWidth > columns { break }
            kept.append(character)
            width += characterWidth
        }
        return kept
    }

    /// `text` cut into lines of at most `columns` columns: words (runs without spaces) are kept whole on a line when
    /// they fit it, a word longer than a line is broken between grapheme clusters (a URL stays readable in full).
    /// Spaces between words are kept as one; an empty text gives one empty line. A word for which `keptWhole` is
    /// true (a URL, which must stay whole to be copied) is never broken: longer than a line, it has a line of its own.
    ///
    /// Cost: O(n) in the text's length: each grapheme cluster is measured once, and a long word is cut as it is
    /// walked, never measured again from the cut (an 80,000-character overview without a space is one word).
    package static func wrapped(_ text: String, toColumns columns: Int,
                        keptWhole: (Substring) -> Bool = { _ in false }) -> [String] {
        guard columns > 0 else { return [""] }
        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            // Measured once: ASCII a column a byte, else cluster by cluster, the widths kept to cut the word with.
            var clusters: [Character] = [], widths: [Int] = []
            let wordWidth: Int
            if let ascii = asciiColumns(word) {
                wordWidth = ascii
            } else {
                clusters = Array(word)
                widths = clusters.map { Self.columns(of: $0) }
                wordWidth = widths.reduce(0, +)
            }
            // A line with text (even of no width, a lone zero-width space) takes the word after a space if it fits.
            if !line.isEmpty, lineWidth + 1 + wordWidth <= columns {
                line += " "
                line += word
                lineWidth += 1 + wordWidth
                continue
            }
            if !line.isEmpty {
                lines.append(line)
                line = ""
                lineWidth = 0
            }
            if wordWidth <= columns || keptWhole(word) {
                line = String(word)
                lineWidth = wordWidth
                continue
            }
            // The word alone, longer than a line: cut into pieces of at most `columns`; the last piece starts the
            // next line. A cluster wider than the whole line (a 2-column character on 1 column) is a piece alone.
            if clusters.isEmpty {
                clusters = Array(word)
                widths = Array(repeating: 1, count: clusters.count)
            }
            for (cluster, width) in zip(clusters, widths) {
                if !line.isEmpty, lineWidth + width > columns {
                    lines.append(line)
                    line = ""
                    lineWidth = 0
                }
                line.append(cluster)
                lineWidth += width
            }
        }
        // An empty text still gives its one line.
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }

    /// Whether `word` is a URL (`https://…`, `http://…`): what `wrapped`'s callers keep whole, to be copied.
    package static func isURL(_ word: Substring) -> Bool {
        word.hasPrefix("https://") || word.hasPrefix("http://")
    }

    /// The width of printable ASCII text (one column a byte), or `nil` when `text` holds anything else.
    private static func asciiColumns(_ text: some StringProtocol) -> Int? {
        var count = 0
        for byte in text.utf8 {
            guard byte >= 0x20, byte < 0x7F else { return nil }
            count += 1
        }
        return count
    }

    /// Whether `value` is East Asian Wide or Fullwidth, or an emoji shown wide by default.
    private static func isWide(_ value: UInt32) -> Bool {
        // Binary search over the sorted, disjoint ranges.
        var low = 0, high = wideRanges.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let range = wideRanges[middle]
            if value < range.lowerBound {
                high = middle - 1
            } else if value > range.upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }

    /// The scalars of East Asian Width W or F (Unicode 15.1's `EastAsianWidth.txt`, as `wcwidth` implementations
    /// list them), sorted and disjoint. Emoji with default emoji presentation are W there.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0, 0x23F3...0x23F3,
        0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F, 0x2693...0x2693, 0x26A1...0x26A1,
        0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA,
        0x26F2...0x26F3, 0x26F5...0x26F5, 0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B,
        0x2728...0x2728, 0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
        0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,
        0x2E80...0x2E99, 0x2E9B...0x2EF3, 0x2F00...0x2FD5, 0x2FF0...0x2FFF, 0x3000...0x303E, 0x3041...0x3096,
        0x3099...0x30FF, 0x3105...0x312F, 0x3131...0x318E, 0x3190...0x31E3, 0x31EF...0x321E, 0x3220...0x3247,
        0x3250...0x4DBF, 0x4E00...0xA48C, 0xA490...0xA4C6, 0xA960...0xA97C, 0xAC00...0xD7A3, 0xF900...0xFAFF,
        0xFE10...0xFE19, 0xFE30...0xFE52, 0xFE54...0xFE66, 0xFE68...0xFE6B, 0xFF01...0xFF60, 0xFFE0...0xFFE6,
        0x16FE0...0x16FE4, 0x16FF0...0x16FF1, 0x17000...0x187F7, 0x18800...0x18CD5, 0x18D00...0x18D08,
        0x1AFF0...0x1AFF3, 0x1AFF5...0x1AFFB, 0x1AFFD...0x1AFFE, 0x1B000...0x1B122, 0x1B132...0x1B132,
        0x1B150...0x1B152, 0x1B155...0x1B155, 0x1B164...0x1B167, 0x1B170...0x1B2FB,
        0x1F004...0x1F004, 0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F202,
        0x1F210...0x1F23B, 0x1F240...0x1F248, 0x1F250...0x1F251, 0x1F260...0x1F265, 0x1F300...0x1F320,
        0x1F32D...0x1F335, 0x1F337...0x1F37C, 0x1F37E...0x1F393, 0x1F3A0...0x1F3CA, 0x1F3CF...0x1F3D3,
        0x1F3E0...0x1F3F0, 0x1F3F4...0x1F3F4, 0x1F3F8...0x1F43E, 0x1F440...0x1F440, 0x1F442...0x1F4FC,
        0x1F4FF...0x1F53D, 0x1F54B...0x1F54E, 0x1F550...0x1F567, 0x1F57A...0x1F57A, 0x1F595...0x1F596,
        0x1F5A4...0x1F5A4, 0x1F5FB...0x1F64F, 0x1F680...0x1F6C5, 0x1F6CC...0x1F6CC, 0x1F6D0...0x1F6D2,
        0x1F6D5...0x1F6D7, 0x1F6DC...0x1F6DF, 0x1F6EB...0x1F6EC, 0x1F6F4...0x1F6FC, 0x1F7E0...0x1F7EB,
        0x1F7F0...0x1F7F0, 0x1F90C...0x1F93A, 0x1F93C...0x1F945, 0x1F947...0x1F9FF, 0x1FA70...0x1FA7C,
        0x1FA80...0x1FA88, 0x1FA90...0x1FABD, 0x1FABF...0x1FAC5, 0x1FACE...0x1FADB, 0x1FAE0...0x1FAE8,
        0x1FAF0...0x1FAF8, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]
}
