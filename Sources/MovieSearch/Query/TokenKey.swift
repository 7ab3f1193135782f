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
        digest = Self.digest(of: bytes)
    }

    /// FNV-1a of `bytes`: equal bytes, equal digests (also `TypoWalkCache`'s, which compares digests before bytes).
    static func digest(of bytes: some Sequence<UInt8>) -> UInt64 {
        var digest = digestSeed
        for byte in bytes { digest = Self.digest(digest, adding: byte) }
        return digest
    }

    /// The digest of no bytes, FNV-1a's offset basis.
    static let digestSeed: UInt64 = 0xCBF2_9CE4_8422_2325

    /// `digest` with one more byte.
    @inline(__always) static func digest(_ digest: UInt64, adding byte: UInt8) -> UInt64 {
        (digest ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(digest)
    }

    static func == (lhs: TokenKey, rhs: TokenKey) -> Bool { lhs.digest == rhs.digest && lhs.bytes == rhs.bytes }
}
