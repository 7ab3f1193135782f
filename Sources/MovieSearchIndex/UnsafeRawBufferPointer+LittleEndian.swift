/// Little-endian loads at offsets a reader has already checked: the header, directory and checksum table.
extension UnsafeRawBufferPointer {
    /// The little-endian u32 at byte `offset`, which the caller has checked lies inside (traps otherwise: a bug in
    /// the reader, not in the file).
    func littleEndianU32(at offset: Int) -> UInt32 {
        precondition(offset >= 0 && offset <= count - 4, "read past the end of a checked range")
        return UInt32(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    /// The little-endian u64 at byte `offset`, which the caller has checked lies inside.
    func littleEndianU64(at offset: Int) -> UInt64 {
        precondition(offset >= 0 && offset <= count - 8, "read past the end of a checked range")
        return UInt64(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
}
