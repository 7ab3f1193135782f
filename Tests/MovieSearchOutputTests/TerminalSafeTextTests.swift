import Foundation
import MovieSearch
@testable import MovieSearchOutput
import XCTest

/// The escaping rule of `TerminalSafeText`, character class by character class, checked against expectations
/// written out here rather than derived from the code under test.
final class TerminalSafeTextTests: XCTestCase {
    private func scalarString(_ value: UInt32) -> String {
        String(Character(Unicode.Scalar(value)!))
    }

    /// Whether a terminal would act on `scalar`: a C0 control, DEL, a C1 control, or a bidirectional embedding,
    /// override or isolate (U+202A–U+202E, U+2066–U+2069); spelled out independently of the code.
    private func isControlOrBidi(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || value == 0x7F || (0x80...0x9F).contains(value)
            || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
    }

    func testEveryC0ControlIsEscaped() {
        let named: [UInt32: String] = [0x1B: #"\e"#, 0x0A: #"\n"#, 0x0D: #"\r"#, 0x09: #"\t"#]
        for value in UInt32(0x00)...0x1F {
            let expected = named[value] ?? String(format: #"\x%02X"#, value)
            XCTAssertEqual(TerminalSafeText.escaped(scalarString(value)), expected, "U+\(String(value, radix: 16))")
            XCTAssertEqual(TerminalSafeText.escapedMessage(scalarString(value)), expected)
            XCTAssertEqual(TerminalSafeText.quoted(scalarString(value)), "\"\(expected)\"")
        }
        XCTAssertEqual(TerminalSafeText.escaped("\u{00}"), #"\x00"#)
        XCTAssertEqual(TerminalSafeText.escaped("\u{07}"), #"\x07"#)
        XCTAssertEqual(TerminalSafeText.escaped("\u{1F}"), #"\x1F"#)
    }

    func testDeleteAndEveryC1ControlAreEscapedAsTwoHexDigits() {
        XCTAssertEqual(TerminalSafeText.escaped("\u{7F}"), #"\x7F"#)
        for value in UInt32(0x80)...0x9F {
            let expected = String(format: #"\x%02X"#, value)
            XCTAssertEqual(TerminalSafeText.escaped(scalarString(value)), expected)
            XCTAssertEqual(TerminalSafeText.escapedMessage("a" + scalarString(value) + "b"), "a\(expected)b")
        }
        XCTAssertEqual(TerminalSafeText.escaped("\u{9B}2J"), #"\x9B2J"#, "CSI, the one-character ESC [")
    }

    func testEachBidirectionalOverrideAndIsolateIsEscaped() {
        let bidi: [UInt32] = [0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069]
        for value in bidi {
            let expected = #"\u{"# + String(value, radix: 16, uppercase: true) + "}"
            XCTAssertEqual(TerminalSafeText.escaped("x" + scalarString(value) + "y"), "x\(expected)y")
            XCTAssertEqual(TerminalSafeText.escapedMessage(scalarString(value)), expected)
        }
        XCTAssertEqual(TerminalSafeText.escaped("abc\u{202E}fed"), #"abc\u{202E}fed"#)
    }

    func testOrdinaryUnicodeIsUntouched() {
        let texts = [
            "", "The Dark Knight", "Amélie", "Am\u{65}\u{301}lie", "千と千尋の神隠し", "기생충", "Ёжик в тумане",
            "עמק השבעה", "الرسالة", "👨‍👩‍👧 Family 🎬", "🇫🇷", "Face/Off", "Tom & Jerry's \"Cat\" 'n' mouse",
            // Neighbours of the escaped ranges, which must stay: space, tilde, NBSP, ¡ … ÿ (UTF-8 lead byte 0xC2/0xC3),
            // en dash, U+2029, U+202F, U+2065, U+206A, LRM/RLM (marks, not overrides), zero-width joiner.
            " ~", "\u{A0}\u{A1}©®°±µ¶·¿ÿ", "\u{2013}\u{2014}\u{2026}", "\u{2029}\u{202F}\u{2065}\u{206A}",
            "\u{200E}\u{200F}\u{200D}", "£€",
        ]
        for text in texts {
            XCTAssertEqual(TerminalSafeText.escaped(text), text)
            XCTAssertEqual(TerminalSafeText.escapedMessage(text), text)
        }
        // Every scalar from U+00A0 to U+2FFF outside the escaped set comes out as itself.
        for value in UInt32(0xA0)...0x2FFF {
            guard let scalar = Unicode.Scalar(value), !isControlOrBidi(scalar) else { continue }
            let text = String(Character(scalar))
            XCTAssertEqual(TerminalSafeText.escaped(text), text, "U+\(String(value, radix: 16))")
        }
    }

    func testATerminalTitleSequenceBecomesVisible() {
        XCTAssertEqual(TerminalSafeText.escaped("Evil\u{1B}]0;pwned\u{07}"), #"Evil\e]0;pwned\x07"#)
        XCTAssertEqual(TerminalSafeText.escaped("Line one\nmoviesearch: forged\r"), #"Line one\nmoviesearch: forged\r"#)
    }

    func testBackslashesAreDoubledInDataAndKeptInMessages() {
        XCTAssertEqual(TerminalSafeText.escaped(#"AC\DC"#), #"AC\\DC"#)
        XCTAssertEqual(TerminalSafeText.escaped(#"\e"#), #"\\e"#, "the two characters, not ESC")
        XCTAssertNotEqual(TerminalSafeText.escaped(#"\e"#), TerminalSafeText.escaped("\u{1B}"))
        XCTAssertEqual(TerminalSafeText.escapedMessage(#"got a string "a\"b\u001b""#), #"got a string "a\"b\u001b""#)
        XCTAssertEqual(TerminalSafeText.quoted(#"say "hi" \ bye"#), #""say \"hi\" \\ bye""#)
        XCTAssertEqual(TerminalSafeText.quoted("dark"), "\"dark\"")
    }

    func testAMessageIsAlwaysOneLine() {
        let message = TerminalSafeText.escapedMessage("cannot open cache a\nb\r\u{2028}c\u{85}d")
        XCTAssertFalse(message.contains("\n"))
        XCTAssertFalse(message.unicodeScalars.contains { isControlOrBidi($0) })
        XCTAssertEqual(message, "cannot open cache a\\nb\\r\u{2028}c\\x85d")
    }

    /// Data escapes read back to exactly the original string: a decoder of the documented rule inverts them.
    func testDataEscapesAreUnambiguous() {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [Unicode.Scalar] = ["\\", "e", "n", "x", "u", "{", "}", "0", "7", "A", "é", "\u{1B}", "\n", "\r",
                                          "\t", "\u{07}", "\u{7F}", "\u{9B}", "\u{202E}", "\u{2066}", "\"", " "]
        for _ in 0..<2000 {
            var text = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...12, using: &generator) {
                text.append(alphabet.randomElement(using: &generator)!)
            }
            let original = String(text)
            let escaped = TerminalSafeText.escaped(original)
            XCTAssertFalse(escaped.unicodeScalars.contains { isControlOrBidi($0) }, escaped)
            XCTAssertEqual(decode(escaped), original, escaped)
            let quoted = TerminalSafeText.quoted(original)
            XCTAssertEqual(decode(String(quoted.dropFirst().dropLast())), original, quoted)
        }
    }

    /// The inverse of the documented rule: `\\`, `\"`, `\e`, `\n`, `\r`, `\t`, `\xHH`, `\u{H…}`.
    private func decode(_ text: String) -> String? {
        var scalars = Array(text.unicodeScalars)[...]
        var result = String.UnicodeScalarView()
        while let scalar = scalars.popFirst() {
            guard scalar == "\\" else {
                result.append(scalar)
                continue
            }
            switch scalars.popFirst() {
            case "\\": result.append("\\")
            case "\"": result.append("\"")
            case "e": result.append("\u{1B}")
            case "n": result.append("\n")
            case "r": result.append("\r")
            case "t": result.append("\t")
            case "x":
                let digits = String(String.UnicodeScalarView(scalars.prefix(2)))
                scalars = scalars.dropFirst(2)
                guard digits.count == 2, let value = UInt32(digits, radix: 16) else { return nil }
                result.append(Unicode.Scalar(value)!)
            case "u":
                guard scalars.popFirst() == "{", let end = scalars.firstIndex(of: "}"),
                      let value = UInt32(String(String.UnicodeScalarView(scalars[..<end])), radix: 16),
                      let decoded = Unicode.Scalar(value) else { return nil }
                scalars = scalars[(end + 1)...]
                result.append(decoded)
            default: return nil
            }
        }
        return String(result)
    }
}
