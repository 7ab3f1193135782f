/// Cuts titles and queries into search tokens (SEARCH-SPEC, "Tokens"). (STUB: being implemented.)
public enum Tokenizer {
    /// The folded tokens of `text`, in order, duplicates kept.
    public static func tokens(in text: String) -> [String] {
        tokenBytes(in: text).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The folded tokens of `text` as UTF-8 bytes, in order, duplicates kept: what the index stores and compares
    /// (byte order, never `String` order, which follows canonical equivalence).
    static func tokenBytes(in text: String) -> [[UInt8]] { fatalError("not implemented yet") }
}
