/// Cuts titles and queries into search tokens (SPEC.md, "Tokens"): compatibility-decomposed, stripped of
/// nonspacing marks, case-folded, without apostrophes, split at everything that is not a letter, number or
/// remaining mark.
///
///     Tokenizer.tokens(in: "Don’t Look Up")            // ["dont", "look", "up"]
///     Tokenizer.tokens(in: "Brüno")                    // ["bruno"]
///     Tokenizer.tokens(in: "(500) Days of Summer")     // ["500", "days", "of", "summer"]
///
/// Cost: linear in the text. Pure ASCII text takes a fast path that never touches the Unicode tables (and so never
/// decodes them: a process that only sees ASCII queries pays nothing for them); from the first non-ASCII scalar on,
/// each scalar costs a table lookup or a few (see `TextFolding`). `forEachToken(in:_:)` allocates nothing for short
/// text (its scratch buffer lives on the stack); `tokens(in:)` and `tokenBytes(in:)` allocate once per token plus
/// the result array.
public enum Tokenizer {
    /// The folded tokens of `text`, in order, duplicates kept; with `joiningWords`, a title's tokens: each joined
    /// token (step 6) follows the run it joins (`"Spider-Man 2"` gives `spider`, `man`, `spiderman`, `2`).
    public static func tokens(in text: String, joiningWords: Bool = false) -> [String] {
        var tokens: [String] = []
        forEachToken(in: text, joiningWords: joiningWords) { tokens.append(String(decoding: $0, as: UTF8.self)) }
        return tokens
    }

    /// The folded tokens of `text` as UTF-8 bytes, in order, duplicates kept: what the index stores and compares
    /// (byte order, never `String` order, which follows canonical equivalence).
    static func tokenBytes(in text: String, joiningWords: Bool = false) -> [[UInt8]] {
        var tokens: [[UInt8]] = []
        forEachToken(in: text, joiningWords: joiningWords) { tokens.append(Array($0)) }
        return tokens
    }

    /// Calls `body` with the UTF-8 bytes of each folded token of `text`, in order, duplicates kept; the same tokens
    /// as `tokenBytes(in:)` without allocating an array per token, for the query path.
    ///
    /// - Parameters:
    ///   - text: A title or a query.
    ///   - joiningWords: Whether to add the joined tokens of step 6 (titles only): after each maximal run of two or
    ///     more tokens with exactly one punctuation or symbol character between each pair, the run's tokens
    ///     concatenated (`Spider-Man` gives `spider`, `man`, `spiderman`). Costs one array for the run under way.
    ///   - body: Called once per token. The buffer is valid only during the call and never empty.
    package static func forEachToken(in text: String, joiningWords: Bool = false,
                             _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        var text = text
        text.withUTF8 { forEachToken(inUTF8: $0, joiningWords: joiningWords, body) }
    }

    /// `forEachToken(in:joiningWords:_:)` for text given as its UTF-8 bytes, which must be valid UTF-8 (a title
    /// the catalog holds as bytes, so that indexing makes no `String` per title).
    package static func forEachToken(inUTF8 utf8: UnsafeBufferPointer<UInt8>, joiningWords: Bool = false,
                             _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        withoutActuallyEscaping(body) { body in
            if joiningWords {
                var joiner = WordJoiner(body: body)
                forEachToken(inUTF8: utf8, into: &joiner)
                joiner.finish()
            } else {
                var plain = PlainTokens(body: body)
                forEachToken(inUTF8: utf8, into: &plain)
            }
        }
    }

    /// The tokens of `text` (without joined words) handed to `consumer` in order, duplicates kept: the query
    /// path. Its callers keep their state in a consumer rather than in a closure, and it is inlinable, so that the
    /// query module gets the ASCII loop specialized for its consumer, with no call per token.
    @_spi(Engine) @inlinable
    public static func forEachToken<Consumer: TokenConsumer>(in text: String, into consumer: inout Consumer) {
        var text = text
        text.withUTF8 { forEachToken(inUTF8: $0, into: &consumer) }
    }

    /// Steps 1–5 on valid UTF-8: hands each token, and each separator character, to `consumer` (a separator before the first
    /// token joins nothing: `WordJoiner` ignores it). ASCII bytes are cut here, inlined into the caller; from the
    /// first non-ASCII byte on, the rest goes through `foldedTokens(of:from:scratch:pendingCount:token:separator:)`,
    /// which is not inlinable (it needs the Unicode tables) and so takes the consumer as two closures.
    @_spi(Engine) @inlinable
    public static func forEachToken<Consumer: TokenConsumer>(inUTF8 utf8: UnsafeBufferPointer<UInt8>,
                                                             into consumer: inout Consumer) {
        // ASCII output is never longer than its input, so this scratch holds any ASCII token; the slack lets most
        // other text, which seldom grows when folded, fit too (`TokenSink` keeps 4 bytes free).
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: utf8.count + 8) { scratch in
            var length = 0
            for offset in utf8.indices {
                let byte = utf8[offset]
                if byte >= 0x80 {
                    foldedTokens(of: utf8, from: offset, scratch: scratch, pendingCount: length,
                                 token: { consumer.token($0) }, separator: { consumer.separator(joins: $0) })
                    return
                }
                switch ASCIIByte(byte) {
                case .token(let folded):
                    scratch[length] = folded
                    length += 1
                case .apostrophe:
                    break
                case .separator(let joins):
                    if length > 0 {
                        consumer.token(UnsafeBufferPointer(rebasing: scratch[..<length]))
                        length = 0
                    }
                    consumer.separator(joins: joins)
                }
            }
            if length > 0 { consumer.token(UnsafeBufferPointer(rebasing: scratch[..<length])) }
        }
    }

    /// The tokens of `utf8[start...]`, where `start` is the first non-ASCII byte, continuing the token whose first
    /// `pendingCount` bytes are in `scratch`, handed to `token` and `separator`.
    @usableFromInline
    static func foldedTokens(of utf8: UnsafeBufferPointer<UInt8>, from start: Int,
                             scratch: UnsafeMutableBufferPointer<UInt8>, pendingCount: Int,
                             token: (UnsafeBufferPointer<UInt8>) -> Void, separator: (Bool) -> Void) {
        withoutActuallyEscaping(token) { token in
            withoutActuallyEscaping(separator) { separator in
                var sink = TokenSink(scratch: scratch, pendingCount: pendingCount,
                                     consumer: ClosureConsumer(body: token, separatorBody: separator))
                foldedTokens(of: utf8, from: start, into: &sink)
                _ = sink.deallocate()
            }
        }
    }

    /// The general path: the tokens of `utf8[start...]`, where `start` is the first non-ASCII byte.
    private static func foldedTokens<Consumer: TokenConsumer>(of utf8: UnsafeBufferPointer<UInt8>, from start: Int,
                                                             into sink: inout TokenSink<Consumer>) {
        var folding = TextFolding()
        var offset = start
        while offset < utf8.count {
            let lead = utf8[offset]
            if lead < 0x80 {
                // An ASCII scalar is a starter without mappings but lowercasing: it releases what folding holds
                // back, then needs no tables.
                if !folding.isIdle { folding.finish(to: &sink) }
                switch ASCIIByte(lead) {
                case .token(let folded): sink.append(folded)
                case .apostrophe: break
                case .separator(let joins): sink.separator(joins: joins)
                }
                offset += 1
                continue
            }
            // `String` holds valid UTF-8; the length check only guards the reads.
            let length = lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
            guard offset + length <= utf8.count else { break }
            var scalar = UInt32(lead) & (0x7F >> length)
            for continuation in utf8[(offset + 1)..<(offset + length)] {
                scalar = scalar << 6 | UInt32(continuation) & 0x3F
            }
            folding.append(scalar, to: &sink)
            offset += length
        }
        folding.finish(to: &sink)
        sink.endToken()
    }
}

/// Receives what steps 1–5 cut a text into (`Tokenizer.forEachToken(in:into:)`).
@_spi(Engine)
public protocol TokenConsumer {
    /// A token: valid only during the call, never empty.
    mutating func token(_ bytes: UnsafeBufferPointer<UInt8>)
    /// A separator character (after folding); `joins` when it is punctuation or a symbol (general category P or S).
    mutating func separator(joins: Bool)
}

extension TokenConsumer {
    /// Separators mean nothing to a query's tokens.
    @inlinable @inline(__always)
    public mutating func separator(joins: Bool) {}
}

/// The tokens alone, for queries: separators cost nothing.
private struct PlainTokens: TokenConsumer {
    let body: (UnsafeBufferPointer<UInt8>) -> Void

    @inline(__always)
    mutating func token(_ bytes: UnsafeBufferPointer<UInt8>) { body(bytes) }

    @inline(__always)
    mutating func separator(joins: Bool) {}
}

/// The general path's consumer: two closures (`foldedTokens(of:from:scratch:pendingCount:token:separator:)`).
private struct ClosureConsumer: TokenConsumer {
    let body: (UnsafeBufferPointer<UInt8>) -> Void
    let separatorBody: (Bool) -> Void

    mutating func token(_ bytes: UnsafeBufferPointer<UInt8>) { body(bytes) }

    mutating func separator(joins: Bool) { separatorBody(joins) }
}

/// Step 6 (titles only): passes every token on, and after each maximal run of two or more tokens that exactly one
/// punctuation or symbol character separates pairwise, the run's tokens concatenated.
private struct WordJoiner: TokenConsumer {
    let body: (UnsafeBufferPointer<UInt8>) -> Void
    /// The run under way, concatenated.
    private var run: [UInt8] = []
    private var runTokens = 0
    /// Separators since the last token: whether they are exactly one that joins.
    private var gap = Gap.none

    private enum Gap {
        /// No separator since the last token (or no token yet).
        case none
        /// Exactly one punctuation or symbol character.
        case joining
        /// Anything else: the run is over.
        case broken
    }

    init(body: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
        self.body = body
    }

    mutating func token(_ bytes: UnsafeBufferPointer<UInt8>) {
        if gap != .joining { finish() }
        body(bytes)
        run.append(contentsOf: bytes)
        runTokens += 1
        gap = .none
    }

    mutating func separator(joins: Bool) {
        gap = gap == .none && joins && runTokens > 0 ? .joining : .broken
    }

    /// Ends the run under way, passing on its concatenation if it joined two tokens or more.
    mutating func finish() {
        if runTokens >= 2 { run.withUnsafeBufferPointer { body($0) } }
        run.removeAll(keepingCapacity: true)
        runTokens = 0
    }
}

/// What an ASCII byte is to tokenization: exactly what the tables say of it, without the tables.
@usableFromInline
enum ASCIIByte {
    /// A letter or digit, with the byte it folds to.
    case token(UInt8)
    /// U+0027, deleted.
    case apostrophe
    /// Anything else: ends the token under way. `joins` for punctuation and symbols (every printable ASCII
    /// character but letters, digits, the space and the apostrophe: general category P or S).
    case separator(joins: Bool)

    @inlinable @inline(__always)
    init(_ byte: UInt8) {
        if byte &- UInt8(ascii: "A") < 26 {
            self = .token(byte | 0x20)
        } else if byte &- UInt8(ascii: "a") < 26 || byte &- UInt8(ascii: "0") < 10 {
            self = .token(byte)
        } else {
            self = byte == UInt8(ascii: "'") ? .apostrophe : .separator(joins: byte > 0x20 && byte < 0x7F)
        }
    }
}

/// Steps 4 and 5 of SPEC.md "Tokens" on folded scalars: drops apostrophes, collects token characters as UTF-8,
/// and hands each finished token, and each separator, to its consumer.
///
/// The bytes go to the caller's scratch buffer while they fit (always, unless decomposition or folding made the text
/// longer than its UTF-8 input), then to a heap buffer of the sink's own: call `deallocate()` when done.
private struct TokenSink<Consumer: TokenConsumer>: FoldedScalarSink {
    private var bytes: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var count: Int
    private var ownsBytes = false
    private var consumer: Consumer

    /// A sink that continues the token whose first `pendingCount` bytes are in `scratch`.
    init(scratch: UnsafeMutableBufferPointer<UInt8>, pendingCount: Int, consumer: Consumer) {
        bytes = scratch.baseAddress.unsafelyUnwrapped
        capacity = scratch.count
        count = pendingCount
        self.consumer = consumer
    }

    /// Frees the heap buffer, if any, and gives the consumer back.
    mutating func deallocate() -> Consumer {
        if ownsBytes { bytes.deallocate() }
        ownsBytes = false
        capacity = 0
        count = 0
        return consumer
    }

    mutating func accept(_ scalar: UInt32, word: UInt32) {
        switch UnicodeProperties.scalarClass(of: word) {
        case .token: appendUTF8(scalar)
        case .apostrophe: break
        case .separator: separator(joins: UnicodeProperties.joinsWords(word))
        case .nonspacingMark: separator(joins: false)
        }
    }

    /// Ends the token under way, if any, at a separator character.
    mutating func separator(joins: Bool) {
        endToken()
        consumer.separator(joins: joins)
    }

    /// Appends an ASCII byte to the token under way.
    @inline(__always)
    mutating func append(_ byte: UInt8) {
        if count == capacity { grow() }
        bytes[count] = byte
        count += 1
    }

    /// Hands the token under way, if any, to the consumer.
    mutating func endToken() {
        if count == 0 { return }
        consumer.token(UnsafeBufferPointer(start: bytes, count: count))
        count = 0
    }

    @inline(__always)
    private mutating func appendUTF8(_ scalar: UInt32) {
        if capacity - count < 4 { grow() }
        if scalar < 0x80 {
            bytes[count] = UInt8(scalar)
            count += 1
        } else if scalar < 0x800 {
            bytes[count] = UInt8(0xC0 | scalar >> 6)
            bytes[count + 1] = UInt8(0x80 | scalar & 0x3F)
            count += 2
        } else if scalar < 0x10000 {
            bytes[count] = UInt8(0xE0 | scalar >> 12)
            bytes[count + 1] = UInt8(0x80 | scalar >> 6 & 0x3F)
            bytes[count + 2] = UInt8(0x80 | scalar & 0x3F)
            count += 3
        } else {
            bytes[count] = UInt8(0xF0 | scalar >> 18)
            bytes[count + 1] = UInt8(0x80 | scalar >> 12 & 0x3F)
            bytes[count + 2] = UInt8(0x80 | scalar >> 6 & 0x3F)
            bytes[count + 3] = UInt8(0x80 | scalar & 0x3F)
            count += 4
        }
    }

    /// Moves the bytes to a heap buffer at least twice as large, with room for 4 more bytes at least.
    @inline(never)
    private mutating func grow() {
        let newCapacity = max(capacity * 2, 64)
        let newBytes = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBytes.initialize(from: bytes, count: count)
        if ownsBytes { bytes.deallocate() }
        bytes = newBytes
        capacity = newCapacity
        ownsBytes = true
    }
}
