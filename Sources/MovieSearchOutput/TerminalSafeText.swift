import MovieSearchPlatform

/// Text from a catalog, a Flickr response, a file name or the command line, made safe to print: every character a
/// terminal would act on instead of showing is written as a visible escape, the way `ls -b` and `git` show odd
/// file names.
///
///     TerminalSafeText.escaped("Evil\u{1B}]0;pwned\u{07}")    // Evil\e]0;pwned\x07
///     TerminalSafeText.escaped("Two\nlines\r")                 // Two\nlines\r
///     TerminalSafeText.escaped("abc\u{202E}fed")               // abc\u{202E}fed
///     TerminalSafeText.escaped(#"AC\DC"#)                      // AC\\DC
///     TerminalSafeText.quoted("dark \"knight\"")               // "dark \"knight\""
///
/// The rule, the same in every text output (`index`, `query`, `show`, `top`, `photos`, `bench`, errors, warnings,
/// notes, usage errors):
///
/// | Characters                                        | Written as                              |
/// |---------------------------------------------------|-----------------------------------------|
/// | ESC (U+001B)                                      | `\e`                                    |
/// | line feed, carriage return, tab                   | `\n`, `\r`, `\t`                        |
/// | other C0 controls (U+0000–U+001F), DEL (U+007F)   | `\x00` … `\x1F`, `\x7F`                 |
/// | C1 controls (U+0080–U+009F)                       | `\x80` … `\x9F` (the code point, which  |
/// |                                                   | UTF-8 writes as two bytes)              |
/// | bidirectional embeddings, overrides and isolates  | `\u{202A}` … `\u{202E}`,                |
/// | (U+202A–U+202E, U+2066–U+2069)                    | `\u{2066}` … `\u{2069}`                 |
/// | a backslash, in data (`escaped`, `quoted`)        | `\\`                                    |
/// | a double quote, inside `quoted`                   | `\"`                                    |
/// | everything else (letters of any script, emoji,    | itself                                  |
/// | combining marks, `/`, quotes outside `quoted`)    |                                         |
///
/// Why each: ESC starts the sequences that set a window title (`ESC ] 0 ; … BEL`), move the cursor, clear the
/// screen or rewrite the clipboard; U+009B (CSI) and the other C1 controls do the same on terminals that honour
/// them; a line feed forges an output line and a carriage return overwrites the one being written; the
/// bidirectional overrides and isolates reorder what follows them, so that a line reads differently from what it
/// holds (the "Trojan Source" characters, CVE-2021-42574). Hex digits are upper case.
///
/// Why a backslash is doubled in data: so that what is printed reads back to exactly one string. Without it a
/// title that holds the two characters `\e` would print like a title that holds ESC. Backslashes are rare in
/// titles, names and URLs, so the cost in readability is small. Messages (`escapedMessage`) keep backslashes as
/// they are, because the values they quote are already JSON strings (`got a string "a\"b"`), whose escapes would
/// become unreadable doubled; a message is for reading, not for parsing back.
///
/// The tool escapes whenever it writes text, not only when standard output is a terminal: output piped into
/// `less -R`, or kept in a log that someone `cat`s later, reaches a terminal in the end. JSON output (`--json`,
/// `--stdin`) is not passed through here: it is for programs, which must get the original strings back, and JSON's
/// own escaping (`\u001b`, `\n`) keeps the C0 controls out of it; DEL, the C1 controls and the bidirectional
/// controls are valid in a JSON string and stay as they are, so JSON read on a terminal is read as data.
///
/// Cost: O(n) in the UTF-8 length of the text; a text with nothing to escape is returned as it is, after one scan
/// of its bytes.
package enum TerminalSafeText {
    /// A data string (a title, a name, a genre, a URL, a path) made safe to print: control characters and
    /// bidirectional controls escaped by the rule above, and every backslash doubled, so that the printed text
    /// reads back to exactly this string.
    ///
    /// - Parameter text: The string as the catalog, the response or the user gave it.
    /// - Returns: `text` with nothing a terminal would act on; unchanged when it holds nothing to escape.
    package static func escaped(_ text: String) -> String {
        escape(text, doublingBackslashes: true, inQuotes: false)
    }

    /// A file path made safe to print: its bytes that are not UTF-8 as `\xE9` (`FilePath.description`), then
    /// control and bidirectional characters escaped as in a message. Backslashes are kept, so that `\xE9` stays the
    /// one escape it is (a path with a real backslash followed by `xE9` reads the same: rare enough for names).
    ///
    /// - Parameter path: The path as the user or the environment gave it.
    /// - Returns: One line of text naming the path.
    package static func escaped(_ path: FilePath) -> String {
        escapedMessage(path.description)
    }

    /// A data string in double quotes, for quoting it inside a sentence (`"dark": 7 matches in 3 years`): escaped
    /// as `escaped(_:)` does, and a double quote inside it written as `\"`, so that the closing quote is the
    /// last character. For printable ASCII this is the same text as a JSON string.
    ///
    /// - Parameter text: The string to quote.
    /// - Returns: `"`, the escaped text, `"`.
    package static func quoted(_ text: String) -> String {
        "\"" + escape(text, doublingBackslashes: true, inQuotes: true) + "\""
    }

    /// A message made by the tool or the library (an error, a warning, a note) that may quote data: control
    /// characters and bidirectional controls escaped by the rule above, backslashes kept as they are, since the
    /// values a message quotes are already JSON strings. A line feed in a message becomes `\n`, so a message is
    /// always one line.
    ///
    /// - Parameter text: The message.
    /// - Returns: The message with nothing a terminal would act on; unchanged when it holds nothing to escape.
    package static func escapedMessage(_ text: String) -> String {
        escape(text, doublingBackslashes: false, inQuotes: false)
    }

    /// Whether the terminal would act on `scalar` instead of showing it: a C0 or C1 control, DEL, or a
    /// bidirectional embedding, override or isolate.
    package static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    private static func escape(_ text: String, doublingBackslashes: Bool, inQuotes: Bool) -> String {
        guard mayNeedEscaping(text, doublingBackslashes: doublingBackslashes, inQuotes: inQuotes) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\" where doublingBackslashes: result += "\\\\"
            case "\"" where inQuotes: result += "\\\""
            case "\u{1B}": result += "\\e"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x100 && isUnsafe(scalar): result += "\\x" + hex(scalar.value, digits: 2)
            case _ where isUnsafe(scalar): result += "\\u{" + hex(scalar.value, digits: 4) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A quick scan of the UTF-8 bytes that rules out most texts: everything escaped is ASCII below 0x20, DEL,
    /// `\`, `"`, or starts with the lead byte 0xC2 (U+0080–U+00BF) or 0xE2 (U+2000–U+2FFF).
    /// The bytes are scanned in place where the string has them contiguous (every native string does): walking
    /// `String.UTF8View` index by index costs several times more per byte, and every title printed is scanned.
    private static func mayNeedEscaping(_ text: String, doublingBackslashes: Bool, inQuotes: Bool) -> Bool {
        let mayNeed = { (byte: UInt8) -> Bool in
            switch byte {
            case 0x00...0x1F, 0x7F, 0xC2, 0xE2: return true
            case UInt8(ascii: "\\"): return doublingBackslashes
            case UInt8(ascii: "\""): return inQuotes
            default: return false
            }
        }
        return text.utf8.withContiguousStorageIfAvailable { $0.contains(where: mayNeed) }
            ?? text.utf8.contains(where: mayNeed)
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
