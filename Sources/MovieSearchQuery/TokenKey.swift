@_spi(Engine) import MovieSearchIndex

/// A folded query token's UTF-8 bytes as a dictionary key, hashed once, when the key is made: the typo pass's
/// table of repeated tokens (`QueryExecutor.runWithTypos`, for a query of many words) looks each token up.
/// `[UInt8]`'s own hashing feeds the hasher a byte at a time, and even one run of bytes (`Hasher.combine(bytes:)`)
/// cost more per look-up than a word made up front (FNV-1a over the bytes), which the hasher then mixes with its
/// per-process seed as it would the bytes.
struct TokenKey: Hashable, Sendable {
    let bytes: [UInt8]
    /// FNV-1a of `bytes`: equal bytes, equal digests.
    private let digest: UInt64

    init(bytes: [UInt8]) {
        self.bytes = bytes
        digest = FNV1a.digest(of: bytes)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(digest)
    }

    static func == (lhs: TokenKey, rhs: TokenKey) -> Bool { lhs.digest == rhs.digest && lhs.bytes == rhs.bytes }
}
