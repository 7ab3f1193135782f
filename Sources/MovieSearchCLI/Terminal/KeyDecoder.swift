/// Turns the bytes a terminal sends in raw mode into `Key`s: pure, no I/O, no clock.
///
///     var decoder = KeyDecoder()
///     decoder.feed(Array("dark\u{1B}[A".utf8))   // [.text("dark"), .up]
///     decoder.feed([0x1B])                        // [] — Esc, or the start of a sequence?
///     decoder.pendingTimeout                      // 25 ms: wait that long for more bytes…
///     decoder.flushPending()                      // …none came: [.escape]
///
/// What it understands, as xterm, tmux, GNOME/VTE, iTerm2 and the Linux console send it:
/// - CSI (`ESC [`) and SS3 (`ESC O`) arrows, with or without modifiers (`ESC [1;5A`, Ctrl-↑, is ↑); Home and End as
///   `ESC [H`/`ESC [F`, `ESC OH`/`ESC OF`, `ESC [1~`/`ESC [4~` and `ESC [7~`/`ESC [8~` (rxvt); PgUp `ESC [5~`, PgDn
///   `ESC [6~`, Delete `ESC [3~`, Shift-Tab `ESC [Z`, keypad Enter `ESC OM`.
/// - CR is Enter, LF is Ctrl-J, Tab is Tab, DEL and BS (Ctrl-H) are Backspace; Ctrl-A … Ctrl-Z otherwise are
///   `.control(letter)`. NUL (Ctrl-Space) and the other C0 bytes (Ctrl-\ …) are ignored.
/// - Printable text, ASCII or UTF-8, one `.text` per run that arrived together; a character cut between two reads
///   waits for its end. Invalid UTF-8 and C1 control characters are dropped.
/// - Bracketed paste (`ESC [200~` … `ESC [201~`): one `.text` with each control character (newline, tab) made a
///   space, so that a pasted line never types Enter; at most `maximumPasteBytes` of it are kept.
/// - Any other escape sequence (function keys, focus reports, mouse reports) is swallowed whole: never text.
/// - Alt and a printable key (`ESC x`, `ESC é`) is swallowed, as fzf leaves Alt keys unbound by default: a person
///   who types Esc and a letter within one read of the terminal (a few milliseconds apart) loses both. Alt and a
///   control key (`ESC Enter`, `ESC DEL`, `ESC Ctrl-C`) is that control key, so that Ctrl-C typed right after Esc
///   is never lost. An ESC right before another ESC is the Esc key (`ESC ESC [A`: `.escape`, `.up`).
///
/// A lone ESC byte is either the Esc key or the first byte of a sequence whose rest has not arrived yet; like
/// fzf's ESCDELAY, the reader waits `escapeDelay` for more bytes and, when none come, calls `flushPending()`. A
/// paste is different: a terminal writes a long one in pieces, which can come far more than 25 ms apart (a slow
/// link, a busy terminal), and the end marker is certain to come, so inside a paste the reader waits
/// `pasteDelay` instead. `pendingTimeout` says which wait applies now.
struct KeyDecoder {
    /// How long a reader waits after an ESC (or an unfinished sequence) for the rest before calling
    /// `flushPending()`. A terminal sends a whole sequence in one write, so its bytes arrive within a millisecond
    /// even over a slow link's packet; 25 ms keeps a lone Esc well within 50 ms, past which a person notices the wait.
    static let escapeDelay = Duration.milliseconds(25)

    /// `escapeDelay` in milliseconds, for `poll`.
    static var escapeDelayMilliseconds: Int32 { 25 }

    /// How long a reader waits, inside a bracketed paste, for more of it before calling `flushPending()`, which
    /// ends the paste with what arrived. Long, as the end marker is sure to come unless the terminal stalled: a
    /// pause in a paste must not end it and have the rest typed as keys (a newline as Enter, a tab as Tab).
    static let pasteDelay = Duration.seconds(3)

    /// `pasteDelay` in milliseconds, for `poll`.
    static var pasteDelayMilliseconds: Int32 { 3000 }

    /// The most bytes of one paste kept (64 KiB); the rest is dropped. A query is a few words; this bounds the
    /// memory a runaway paste can take.
    static let maximumPasteBytes = 1 << 16

    /// The longest escape sequence waited for (bytes); a longer one, which no key sends, is swallowed as it stands.
    static let maximumSequenceBytes = 64

    /// Bytes read but not decoded yet: an unfinished escape sequence or UTF-8 character, or the start of the
    /// end-of-paste marker.
    private var pending: [UInt8] = []
    /// Inside a bracketed paste: the pasted bytes so far.
    private var paste: [UInt8]? = nil

    init() {}

    /// Whether an ESC that may be the Esc key, or an unfinished escape sequence, waits for more bytes (outside a
    /// paste): `flushPending()` resolves it once `escapeDelay` has passed with nothing more to `feed`.
    var hasPendingEscape: Bool {
        paste == nil && pending.first == 0x1B
    }

    /// Whether a bracketed paste has begun and its end marker has not arrived yet.
    var isInsidePaste: Bool {
        paste != nil
    }

    /// How long the reader waits for more bytes before calling `flushPending()`: `pasteDelay` inside a paste,
    /// `escapeDelay` after an ESC or an unfinished sequence, `nil` when nothing pending needs a timeout (a UTF-8
    /// character cut between two reads waits for its end, however long).
    var pendingTimeout: Duration? {
        isInsidePaste ? Self.pasteDelay : hasPendingEscape ? Self.escapeDelay : nil
    }

    /// `pendingTimeout` in milliseconds, for `poll`; `nil` for no timeout.
    var pendingTimeoutMilliseconds: Int32? {
        isInsidePaste ? Self.pasteDelayMilliseconds : hasPendingEscape ? Self.escapeDelayMilliseconds : nil
    }

    /// Decodes `bytes`, the next bytes read from the terminal, together with what earlier calls left pending: the
    /// keys they complete, in order.
    mutating func feed(_ bytes: [UInt8]) -> [Key] {
        pending.append(contentsOf: bytes)
        var keys: [Key] = []
        var index = 0
        decoding: while index < pending.count {
            let step: Step
            let byte = pending[index]
            if paste != nil {
                step = consumePaste(from: index, into: &keys)
            } else if byte == 0x1B {
                step = consumeEscape(from: index, into: &keys)
            } else if byte < 0x20 || byte == 0x7F {
                if let key = Self.controlKey(byte) { keys.append(key) }
                step = .next(index + 1)
            } else {
                step = consumeText(from: index, into: &keys)
            }
            switch step {
            case let .next(next): index = next
            case let .wait(at):
                index = at
                break decoding
            }
        }
        pending.removeFirst(index)
        return keys
    }

    /// Where decoding goes on after one step.
    private enum Step {
        /// At this index.
        case next(Int)
        /// Nothing more can be decoded before more bytes come: what starts at this index stays pending.
        case wait(Int)
    }

    /// Resolves what is pending once `pendingTimeout` has passed with no more bytes: a lone ESC is the Esc key; an
    /// unfinished sequence (Alt and `[` or `O`, a sequence cut by a stalled link) is swallowed; an unfinished paste
    /// ends with what arrived of it (its end marker, should it come later, is swallowed). An unfinished UTF-8
    /// character keeps waiting.
    mutating func flushPending() -> [Key] {
        var keys: [Key] = []
        if let pasted = paste {
            // The end marker never came: what came is in `pasted`; what is pending may be the start of the marker.
            paste = nil
            let text = Self.pasteText(pasted)
            pending = []
            if !text.isEmpty { keys.append(.text(text)) }
            return keys
        }
        guard pending.first == 0x1B else { return keys }
        if pending.count == 1 { keys.append(.escape) }
        pending = []
        return keys
    }

    // MARK: Single bytes

    /// The key of a C0 control byte or DEL, or `nil` for one that is no key of ours.
    private static func controlKey(_ byte: UInt8) -> Key? {
        switch byte {
        case 0x0D: return .enter
        case 0x09: return .tab
        case 0x08, 0x7F: return .backspace
        case 0x01...0x1A: return .control(Character(Unicode.Scalar(byte + 0x60)))
        default: return nil  // NUL (Ctrl-Space, Ctrl-@), Ctrl-\ ] ^ _
        }
    }

    // MARK: Text

    /// Decodes the run of printable text starting at `start`, up to a control byte or a character cut at the end
    /// of what came (which waits for its end).
    private func consumeText(from start: Int, into keys: inout [Key]) -> Step {
        var scalars = String.UnicodeScalarView()
        var index = start
        var cut = false
        while index < pending.count {
            let byte = pending[index]
            if byte < 0x20 || byte == 0x7F { break }
            if byte < 0x80 {
                scalars.append(Unicode.Scalar(byte))
                index += 1
                continue
            }
            switch Self.decodeScalar(pending, at: index) {
            case let .scalar(scalar, length):
                if !(0x80...0x9F).contains(scalar.value) { scalars.append(scalar) }  // C1 controls dropped
                index += length
            case .invalid:
                index += 1
            case .incomplete:
                cut = true
            }
            if cut { break }
        }
        if !scalars.isEmpty { keys.append(.text(String(scalars))) }
        return cut ? .wait(index) : .next(index)
    }

    /// One UTF-8 character of `bytes` at `index`.
    private enum DecodedScalar {
        case scalar(Unicode.Scalar, length: Int)
        case invalid
        case incomplete
    }

    /// Decodes the UTF-8 character at `index` (whose first byte is not ASCII), strictly: no overlong forms, no
    /// surrogates, nothing past U+10FFFF.
    private static func decodeScalar(_ bytes: [UInt8], at index: Int) -> DecodedScalar {
        let lead = bytes[index]
        let length: Int
        var value: UInt32
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2; value = UInt32(lead & 0x1F)
        case 0xE0: length = 3; value = 0; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3; value = UInt32(lead & 0x0F)
        case 0xED: length = 3; value = 0x0D; secondRange = 0x80...0x9F
        case 0xF0: length = 4; value = 0; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4; value = UInt32(lead & 0x07)
        case 0xF4: length = 4; value = 4; secondRange = 0x80...0x8F
        default: return .invalid
        }
        for offset in 1..<length {
            guard index + offset < bytes.count else { return .incomplete }
            let byte = bytes[index + offset]
            guard (offset == 1 ? secondRange : 0x80...0xBF).contains(byte) else { return .invalid }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        guard let scalar = Unicode.Scalar(value) else { return .invalid }
        return .scalar(scalar, length: length)
    }

    // MARK: Escape sequences

    /// Decodes the escape sequence starting at `start` (an ESC), or waits for the rest of it.
    private mutating func consumeEscape(from start: Int, into keys: inout [Key]) -> Step {
        let next = start + 1
        guard next < pending.count else { return .wait(start) }
        switch pending[next] {
        case UInt8(ascii: "["):
            return consumeCSI(from: start, into: &keys)
        case UInt8(ascii: "O"):
            guard next + 1 < pending.count else { return .wait(start) }
            let final = pending[next + 1]
            // An SS3 sequence is one byte after `ESC O`; a control byte there is no sequence: leave it to decode.
            if final < 0x20 || final == 0x7F { return .next(next + 1) }
            if let key = Self.ss3Key(final) { keys.append(key) }
            return .next(next + 2)
        case 0x1B:
            keys.append(.escape)
            return .next(next)
        default:
            // Alt and a control key: that key. Alt and a printable one: swallowed with it (a whole UTF-8
            // character; wait for the rest of one).
            let byte = pending[next]
            if byte < 0x20 || byte == 0x7F { return .next(next) }
            guard byte >= 0x80 else { return .next(next + 1) }
            switch Self.decodeScalar(pending, at: next) {
            case let .scalar(_, length): return .next(next + length)
            case .invalid: return .next(next + 1)
            case .incomplete: return .wait(start)
            }
        }
    }

    /// Decodes a CSI sequence (`ESC [`, parameters 0x30–0x3F, intermediates 0x20–0x2F, a final byte 0x40–0x7E).
    private mutating func consumeCSI(from start: Int, into keys: inout [Key]) -> Step {
        var index = start + 2
        while index < pending.count {
            let byte = pending[index]
            switch byte {
            case 0x20...0x3F:
                index += 1
                if index - start > Self.maximumSequenceBytes { return .next(index) }  // no key is this long: swallow
            case 0x40...0x7E:
                let parameters = Array(pending[(start + 2)..<index])
                handleCSI(parameters: parameters, final: byte, into: &keys)
                return .next(index + 1)
            default:
                // A control byte or ESC inside: the sequence was cut; swallow what came and decode the rest.
                return .next(index)
            }
        }
        return .wait(start)
    }

    /// The key of a finished CSI sequence, if it is one of ours; a bracketed paste's start.
    private mutating func handleCSI(parameters: [UInt8], final: UInt8, into keys: inout [Key]) {
        // Only plain decimal parameters (`1;5`) name keys; private ones (`?`, `<`, `>`: reports) are swallowed.
        guard parameters.allSatisfy({ (0x30...0x39).contains($0) || $0 == UInt8(ascii: ";") }) else { return }
        let first = parameters.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false).first
            .flatMap { Int(String(decoding: $0, as: UTF8.self)) }
        switch final {
        case UInt8(ascii: "A"): keys.append(.up)
        case UInt8(ascii: "B"): keys.append(.down)
        case UInt8(ascii: "C"): keys.append(.right)
        case UInt8(ascii: "D"): keys.append(.left)
        case UInt8(ascii: "H"): keys.append(.home)
        case UInt8(ascii: "F"): keys.append(.end)
        case UInt8(ascii: "Z"): keys.append(.backTab)
        case UInt8(ascii: "~"):
            switch first {
            case 1, 7: keys.append(.home)
            case 4, 8: keys.append(.end)
            case 3: keys.append(.delete)
            case 5: keys.append(.pageUp)
            case 6: keys.append(.pageDown)
            case 200: paste = []
            default: break  // Insert, F5–F12, a stray end of paste
            }
        default: break
        }
    }

    /// The key of `ESC O final`, if it is one of ours.
    private static func ss3Key(_ final: UInt8) -> Key? {
        switch final {
        case UInt8(ascii: "A"): .up
        case UInt8(ascii: "B"): .down
        case UInt8(ascii: "C"): .right
        case UInt8(ascii: "D"): .left
        case UInt8(ascii: "H"): .home
        case UInt8(ascii: "F"): .end
        case UInt8(ascii: "M"): .enter
        default: nil  // F1–F4, keypad digits
        }
    }

    // MARK: Bracketed paste

    /// The end of a bracketed paste.
    private static let pasteEnd: [UInt8] = Array("\u{1B}[201~".utf8)

    /// Takes paste bytes from `start`: up to the end marker (emitting the paste), or all that came but a tail that
    /// may be the start of the marker, which waits.
    private mutating func consumePaste(from start: Int, into keys: inout [Key]) -> Step {
        let bytes = pending[start...]
        if let end = Self.firstIndex(of: Self.pasteEnd, in: bytes) {
            appendPaste(pending[start..<end])
            let text = Self.pasteText(paste ?? [])
            paste = nil
            if !text.isEmpty { keys.append(.text(text)) }
            return .next(end + Self.pasteEnd.count)
        }
        var keep = min(Self.pasteEnd.count - 1, bytes.count)
        while keep > 0, !Self.pasteEnd.starts(with: pending[(pending.count - keep)...]) { keep -= 1 }
        appendPaste(pending[start..<(pending.count - keep)])
        return .wait(pending.count - keep)
    }

    private mutating func appendPaste(_ bytes: ArraySlice<UInt8>) {
        let room = Self.maximumPasteBytes - (paste?.count ?? 0)
        if room > 0 { paste?.append(contentsOf: bytes.prefix(room)) }
    }

    /// The first index of `needle` in `haystack`, or `nil`.
    private static func firstIndex(of needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        var index = haystack.startIndex
        while index + needle.count <= haystack.endIndex {
            if haystack[index] == needle[0], haystack[index..<(index + needle.count)].elementsEqual(needle) {
                return index
            }
            index += 1
        }
        return nil
    }

    /// Pasted bytes as text: valid UTF-8 kept, control characters (C0, DEL, C1) made spaces, invalid bytes
    /// dropped, so that a paste never acts as a key.
    private static func pasteText(_ bytes: [UInt8]) -> String {
        var scalars = String.UnicodeScalarView()
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                scalars.append(byte < 0x20 || byte == 0x7F ? " " : Unicode.Scalar(byte))
                index += 1
                continue
            }
            switch decodeScalar(bytes, at: index) {
            case let .scalar(scalar, length):
                scalars.append((0x80...0x9F).contains(scalar.value) ? " " : scalar)
                index += length
            case .invalid, .incomplete:
                index += 1
            }
        }
        return String(scalars)
    }
}
