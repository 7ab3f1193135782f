import MovieSearch
@testable import MovieSearchCLI
import XCTest

/// `KeyDecoder`: the bytes xterm and tmux send in raw mode, decoded into keys.
final class KeyDecoderTests: XCTestCase {
    private let esc = "\u{1B}"

    /// The keys of `input` fed in one piece, with what is pending then flushed (as after the escape delay).
    private func keys(_ input: String) -> [Key] {
        keys(Array(input.utf8))
    }

    private func keys(_ bytes: [UInt8]) -> [Key] {
        var decoder = KeyDecoder()
        return decoder.feed(bytes) + decoder.flushPending()
    }

    /// The keys of `bytes` fed one byte at a time, with no flush in between (bytes of one key split across reads).
    private func keysByteByByte(_ bytes: [UInt8]) -> [Key] {
        var decoder = KeyDecoder()
        var result: [Key] = []
        for byte in bytes { result += decoder.feed([byte]) }
        return result + decoder.flushPending()
    }

    func testArrowsInCSIAndSS3Forms() {
        XCTAssertEqual(keys("\(esc)[A\(esc)[B\(esc)[C\(esc)[D"), [.up, .down, .right, .left])
        XCTAssertEqual(keys("\(esc)OA\(esc)OB\(esc)OC\(esc)OD"), [.up, .down, .right, .left], "application cursor mode")
        XCTAssertEqual(keys("\(esc)[1;5A\(esc)[1;2D"), [.up, .left], "with modifiers (Ctrl-↑, Shift-←): the arrow")
    }

    func testHomeAndEndInEveryForm() {
        for home in ["\(esc)[H", "\(esc)OH", "\(esc)[1~", "\(esc)[7~"] {
            XCTAssertEqual(keys(home), [.home], home.debugDescription)
        }
        for end in ["\(esc)[F", "\(esc)OF", "\(esc)[4~", "\(esc)[8~"] {
            XCTAssertEqual(keys(end), [.end], end.debugDescription)
        }
    }

    func testPageKeysDeleteAndShiftTab() {
        XCTAssertEqual(keys("\(esc)[5~"), [.pageUp])
        XCTAssertEqual(keys("\(esc)[6~"), [.pageDown])
        XCTAssertEqual(keys("\(esc)[3~"), [.delete])
        XCTAssertEqual(keys("\(esc)[Z"), [.backTab])
        XCTAssertEqual(keys("\(esc)[5;5~"), [.pageUp], "Ctrl-PgUp")
    }

    func testEnterTabBackspaceAndLineFeed() {
        XCTAssertEqual(keys("\r"), [.enter], "CR is Enter in raw mode")
        XCTAssertEqual(keys("\n"), [.control("j")], "LF is Ctrl-J, not Enter")
        XCTAssertEqual(keys("\t"), [.tab])
        XCTAssertEqual(keys([0x7F]), [.backspace], "DEL")
        XCTAssertEqual(keys([0x08]), [.backspace], "Ctrl-H")
        XCTAssertEqual(keys("\(esc)OM"), [.enter], "keypad Enter in application keypad mode")
    }

    func testControlLetters() {
        for letter in UInt8(ascii: "a")...UInt8(ascii: "z") {
            let byte = letter - 0x60
            let expected: Key = switch byte {
            case 0x08: .backspace
            case 0x09: .tab
            case 0x0A: .control("j")
            case 0x0D: .enter
            default: .control(Character(Unicode.Scalar(letter)))
            }
            XCTAssertEqual(keys([byte]), [expected], "Ctrl-\(Character(Unicode.Scalar(letter)))")
        }
        XCTAssertEqual(keys([0x03, 0x15, 0x17, 0x10, 0x0E, 0x0B, 0x14]),
                       [.control("c"), .control("u"), .control("w"), .control("p"), .control("n"), .control("k"),
                        .control("t")])
        XCTAssertEqual(keys([0x00, 0x1C, 0x1D, 0x1E, 0x1F]), [], "NUL and Ctrl-\\ ] ^ _ are no keys of ours")
    }

    func testPrintableTextComesAsOneRun() {
        XCTAssertEqual(keys("dark kni"), [.text("dark kni")])
        XCTAssertEqual(keys("a\rb"), [.text("a"), .enter, .text("b")])
        XCTAssertEqual(keys("Amélie 千と千尋 🎬"), [.text("Amélie 千と千尋 🎬")])
    }

    func testUTF8SplitAcrossReads() {
        let bytes = Array("é千🎬".utf8)
        XCTAssertEqual(keysByteByByte(bytes), [.text("é"), .text("千"), .text("🎬")])
        var decoder = KeyDecoder()
        XCTAssertEqual(decoder.feed(Array(bytes[0..<4])), [.text("é")], "é whole, 千 cut after its first 2 bytes")
        XCTAssertFalse(decoder.hasPendingEscape, "a cut character is no escape: no timeout applies")
        XCTAssertEqual(decoder.flushPending(), [], "a cut character keeps waiting")
        XCTAssertEqual(decoder.feed(Array(bytes[4...])), [.text("千🎬")])
    }

    func testInvalidUTF8AndC1ControlsAreDropped() {
        XCTAssertEqual(keys([0x61, 0xFF, 0x62, 0xC0, 0xAF, 0x63]), [.text("abc")], "0xFF, overlong C0 AF")
        XCTAssertEqual(keys([0xED, 0xA0, 0x80, 0x64]), [.text("d")], "a UTF-16 surrogate")
        XCTAssertEqual(keys([0x61, 0xC2, 0x9B, 0x62]), [.text("ab")], "C1 CSI (U+009B) is a control, not text")
        XCTAssertEqual(keys([0xE4, 0xB8, 0x41]), [.text("A")], "a cut character followed by ASCII")
    }

    func testLoneEscapeWaitsForTheDelay() {
        var decoder = KeyDecoder()
        XCTAssertEqual(decoder.feed([0x1B]), [])
        XCTAssertTrue(decoder.hasPendingEscape)
        XCTAssertEqual(decoder.flushPending(), [.escape])
        XCTAssertFalse(decoder.hasPendingEscape)
        XCTAssertEqual(decoder.flushPending(), [], "flushed once")
        XCTAssertEqual(KeyDecoder.escapeDelay, .milliseconds(25))
        XCTAssertEqual(KeyDecoder.escapeDelayMilliseconds, 25)
    }

    func testEscapeFollowedQuicklyByASequenceIsNotEsc() {
        // The rest of the sequence arrives in a later read, before the delay: one key, no Esc.
        for sequence in ["\(esc)[A", "\(esc)OH", "\(esc)[5~", "\(esc)[1;5C", "\(esc)[200~x\(esc)[201~"] {
            XCTAssertFalse(keysByteByByte(Array(sequence.utf8)).contains(.escape), sequence.debugDescription)
        }
        XCTAssertEqual(keysByteByByte(Array("\(esc)[A".utf8)), [.up])
        XCTAssertEqual(keysByteByByte(Array("\(esc)[6~".utf8)), [.pageDown])
        var decoder = KeyDecoder()
        XCTAssertEqual(decoder.feed(Array("\(esc)[".utf8)), [])
        XCTAssertTrue(decoder.hasPendingEscape)
        XCTAssertEqual(decoder.feed(Array("3~".utf8)), [.delete])
        XCTAssertFalse(decoder.hasPendingEscape)
    }

    func testTwoEscapesAndEscapeBeforeASequence() {
        XCTAssertEqual(keys("\(esc)\(esc)"), [.escape, .escape])
        XCTAssertEqual(keys("\(esc)\(esc)[A"), [.escape, .up])
    }

    func testAnUnfinishedSequenceFlushedIsSwallowed() {
        var decoder = KeyDecoder()
        XCTAssertEqual(decoder.feed(Array("\(esc)[1;".utf8)), [])
        XCTAssertEqual(decoder.flushPending(), [], "a stalled sequence is not Esc and not text")
        XCTAssertEqual(decoder.feed(Array("x".utf8)), [.text("x")], "decoding goes on after it")
    }

    func testUnknownSequencesAreSwallowedWhole() {
        let unknown = [
            "\(esc)[2~", "\(esc)[15~", "\(esc)[24~", "\(esc)OP", "\(esc)OS", "\(esc)[I", "\(esc)[O",
            "\(esc)[<0;10;5M", "\(esc)[?1;2c", "\(esc)[12;40R", "\(esc)[201~", "\(esc)[99X",
        ]
        for sequence in unknown {
            XCTAssertEqual(keys("a\(sequence)b"), [.text("a"), .text("b")], sequence.debugDescription)
        }
        let long = esc + "[" + String(repeating: "1;", count: 100) + "A"
        XCTAssertFalse(keys(long).contains(.up), "longer than any key: swallowed, not decoded")
        XCTAssertFalse(keys(long).contains { if case let .text(text) = $0 { text.contains("[") } else { false } })
    }

    func testACutSequenceIsSwallowedAndTheRestDecoded() {
        XCTAssertEqual(keys("\(esc)[1\r"), [.enter], "a control byte inside a CSI ends it")
        XCTAssertEqual(keys("\(esc)[1\(esc)[B"), [.down])
    }

    func testAltKeysAreSwallowed() {
        XCTAssertEqual(keys("\(esc)x"), [])
        XCTAssertEqual(keys("\(esc)éa"), [.text("a")])
        XCTAssertEqual(keys("\(esc)\r"), [.enter], "Alt and a control key: that key")
        XCTAssertEqual(keys([0x1B, 0x7F]), [.backspace], "Alt-Backspace")
        XCTAssertEqual(keys([0x1B, 0x03]), [.control("c")], "Ctrl-C right after Esc is never lost")
        XCTAssertEqual(keysByteByByte(Array("\(esc)é!".utf8)), [.text("!")], "Alt and a cut character")
    }

    func testBracketedPasteIsOneTextWithControlsMadeSpaces() {
        XCTAssertEqual(keys("\(esc)[200~dark knight\(esc)[201~"), [.text("dark knight")])
        XCTAssertEqual(keys("\(esc)[200~a\rb\nc\td\(esc)e\(esc)[201~\r"), [.text("a b c d e"), .enter],
                       "no Enter, Tab or Esc from inside a paste")
        XCTAssertEqual(keys("\(esc)[200~\(esc)[201~"), [], "an empty paste")
        XCTAssertEqual(keys("\(esc)[200~千\(esc)[A\(esc)[201~"), [.text("千 [A")], "a sequence inside is text")
        let split = Array("\(esc)[200~Amélie\(esc)[201~x".utf8)
        XCTAssertEqual(keysByteByByte(split), [.text("Amélie"), .text("x")], "marker and characters split")
    }

    func testAPasteWithoutItsEndEndsAtTheFlush() {
        var decoder = KeyDecoder()
        XCTAssertEqual(decoder.feed(Array("\(esc)[200~abc\(esc)[20".utf8)), [])
        XCTAssertTrue(decoder.isInsidePaste, "waiting for the end of the paste")
        XCTAssertEqual(decoder.pendingTimeout, KeyDecoder.pasteDelay)
        XCTAssertEqual(decoder.flushPending(), [.text("abc")])
        XCTAssertFalse(decoder.isInsidePaste)
        XCTAssertEqual(decoder.feed(Array("x".utf8)), [.text("x")], "out of paste mode")
    }

    /// A paste that comes in pieces far apart: the short Esc wait must not apply inside it, or the rest would be
    /// decoded as keys (a CR as Enter, a tab as Tab, `1~` as text).
    func testInsideAPasteTheWaitIsThePasteDelayNotTheEscapeDelay() {
        var decoder = KeyDecoder()
        XCTAssertNil(decoder.pendingTimeout, "nothing pending")
        XCTAssertEqual(decoder.feed([0x1B]), [])
        XCTAssertEqual(decoder.pendingTimeout, KeyDecoder.escapeDelay, "a lone ESC: the short wait")
        XCTAssertEqual(decoder.pendingTimeoutMilliseconds, KeyDecoder.escapeDelayMilliseconds)
        XCTAssertEqual(decoder.feed(Array("[200~dark\r".utf8)), [])
        XCTAssertTrue(decoder.isInsidePaste)
        XCTAssertFalse(decoder.hasPendingEscape, "inside a paste no Esc is pending")
        XCTAssertEqual(decoder.pendingTimeout, KeyDecoder.pasteDelay)
        XCTAssertEqual(decoder.pendingTimeoutMilliseconds, KeyDecoder.pasteDelayMilliseconds)
        XCTAssertGreaterThanOrEqual(KeyDecoder.pasteDelay, .seconds(1), "long enough for a paste in pieces")
        XCTAssertEqual(Duration.milliseconds(KeyDecoder.pasteDelayMilliseconds), KeyDecoder.pasteDelay)
        XCTAssertEqual(Duration.milliseconds(KeyDecoder.escapeDelayMilliseconds), KeyDecoder.escapeDelay)
        XCTAssertEqual(decoder.feed(Array("\u{1B}[20".utf8)), [], "the start of the end marker, or of text")
        XCTAssertEqual(decoder.pendingTimeout, KeyDecoder.pasteDelay, "still inside the paste")
        XCTAssertEqual(decoder.feed(Array("1~\r".utf8)), [.text("dark "), .enter], "one text, then a real Enter")
        XCTAssertFalse(decoder.isInsidePaste)
        XCTAssertNil(decoder.pendingTimeout)
        XCTAssertEqual(decoder.feed(Array("\u{E5}".utf8.prefix(1))), [])
        XCTAssertNil(decoder.pendingTimeout, "a cut character waits without a timeout")
    }

    func testAHugePasteIsCut() {
        let big = String(repeating: "a", count: KeyDecoder.maximumPasteBytes + 100)
        XCTAssertEqual(keys("\(esc)[200~\(big)\(esc)[201~"),
                       [.text(String(repeating: "a", count: KeyDecoder.maximumPasteBytes))])
    }

    func testMixedInputInOneRead() {
        XCTAssertEqual(
            keys("dark\(esc)[Dx\u{7F}\(esc)[B\t\(esc)[Z\u{14}\r"),
            [.text("dark"), .left, .text("x"), .backspace, .down, .tab, .backTab, .control("t"), .enter])
    }

    func testEveryByteSplitGivesTheSameKeys() {
        let input = Array("ab\(esc)[A\(esc)OH\(esc)[5~é\(esc)[200~p\rq\(esc)[201~\(esc)[3~\r".utf8)
        let whole = keys(input)
        XCTAssertEqual(whole, [.text("ab"), .up, .home, .pageUp, .text("é"), .text("p q"), .delete, .enter])
        for cut in 1..<input.count {
            var decoder = KeyDecoder()
            let parts = decoder.feed(Array(input[..<cut])) + decoder.feed(Array(input[cut...]))
                + decoder.flushPending()
            XCTAssertEqual(Self.joiningText(parts), Self.joiningText(whole), "cut at \(cut)")
        }
    }

    /// Keys with adjacent texts joined: a cut may split one text run into two.
    private static func joiningText(_ keys: [Key]) -> [Key] {
        var result: [Key] = []
        for key in keys {
            if case let .text(next) = key, case let .text(previous)? = result.last {
                result[result.count - 1] = .text(previous + next)
            } else {
                result.append(key)
            }
        }
        return result
    }
}
