/// Entries of a packed section that are 24 bits wide and start on a byte (`PackedView.bytePacked`): the ranks of a
/// catalog of 8 to 16 million movies, whose lists the slowest queries of such a catalog read entry by entry. Each
/// entry is a 4-byte load and a mask, where a `PackedView` entry also works out its bit offset and shifts by it.
/// The load reads one byte past the last entry's, which the section's 8 bytes of padding keep in bounds.
@_spi(Engine) public struct BytePackedView {
    @usableFromInline let base: UnsafeRawPointer
    /// Number of entries.
    public let count: Int

    /// The view of `count` entries of 3 bytes from `base`, a range `MappedCacheFile.packed` has checked.
    @usableFromInline init(base: UnsafeRawPointer, count: Int) {
        self.base = base
        self.count = count
    }

    /// Entry `index`; traps on an index outside the view, as `PackedView` does.
    @inlinable @inline(__always)
    public subscript(index: Int) -> UInt32 {
        precondition(index >= 0 && index < count, "BytePackedView index out of range")
        return self[unchecked: index]
    }

    /// Entry `index`, which the caller has checked is inside the view.
    @inlinable @inline(__always)
    public subscript(unchecked index: Int) -> UInt32 {
        UInt32(littleEndian: base.loadUnaligned(fromByteOffset: index &* 3, as: UInt32.self)) & 0xFF_FFFF
    }
}

extension PackedView {
    /// The same entries as a `BytePackedView`, when they are 24 bits wide from a byte boundary; else `nil`.
    @inlinable public var bytePacked: BytePackedView? {
        guard width == 24, firstBit & 7 == 0 else { return nil }
        return BytePackedView(base: base + (firstBit &>> 3), count: count)
    }
}
