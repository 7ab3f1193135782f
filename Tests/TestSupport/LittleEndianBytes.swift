/// Little-endian integers in a byte array, read and written a byte at a time (the cache format's byte order), for
/// tests that inspect or forge cache files without going through the reader under test.
extension Array where Element == UInt8 {
    /// The little-endian `UInt32` at `offset`.
    package func u32(at offset: Int) -> UInt32 {
        // An explicit loop, not `reversed().reduce`: the forging tests read entries by the thousand, unoptimized.
        var value: UInt32 = 0
        for index in stride(from: 3, through: 0, by: -1) { value = value << 8 | UInt32(self[offset + index]) }
        return value
    }

    /// The little-endian `UInt64` at `offset`.
    package func u64(at offset: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in stride(from: 7, through: 0, by: -1) { value = value << 8 | UInt64(self[offset + index]) }
        return value
    }

    /// Writes `value` little-endian at `offset`.
    package mutating func setU32(_ value: UInt32, at offset: Int) {
        for index in 0..<4 { self[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(index))) }
    }

    /// Writes `value` little-endian at `offset`.
    package mutating func setU64(_ value: UInt64, at offset: Int) {
        for index in 0..<8 { self[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(index))) }
    }
}
