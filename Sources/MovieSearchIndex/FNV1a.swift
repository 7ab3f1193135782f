/// FNV-1a, a 64-bit digest of bytes: cheap per byte and good enough to tell short keys apart before their bytes are
/// compared. Titles are compared by it (`MovieRecords.titleDigest(slot:)`, against a favorite's title in
/// `FavoriteStore`), and so are the folded query tokens the typo pass keeps (`TokenKey`, `TypoWalkCache`). A digest
/// is never stored in the cache: equal digests only say that the bytes are worth comparing.
@_spi(Engine) public enum FNV1a {
    /// The digest of no bytes, FNV-1a's offset basis.
    public static let seed: UInt64 = 0xCBF2_9CE4_8422_2325

    /// `digest` with one more byte.
    @inlinable @inline(__always)
    public static func digest(_ digest: UInt64, adding byte: UInt8) -> UInt64 {
        (digest ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }

    /// The digest of `bytes`: equal bytes, equal digests.
    @inlinable
    public static func digest(of bytes: some Sequence<UInt8>) -> UInt64 {
        var digest = seed
        for byte in bytes { digest = Self.digest(digest, adding: byte) }
        return digest
    }
}
