/// A folded query token's UTF-8 bytes as a dictionary key, hashed as one run of bytes: `[UInt8]`'s own hashing
/// feeds the hasher a byte at a time, which cost more than the look-up it served (the typo pass looks every
/// token up in `MovieIndex.typoWalks`, and in its table of repeated tokens).
struct TokenKey: Hashable, Sendable {
    let bytes: [UInt8]

    func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    static func == (lhs: TokenKey, rhs: TokenKey) -> Bool { lhs.bytes == rhs.bytes }
}
