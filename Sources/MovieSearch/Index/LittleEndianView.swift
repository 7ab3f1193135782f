/// A run of little-endian integers inside a checked, verified part of a mapping.
struct LittleEndianView<Element: FixedWidthInteger> {
    let base: UnsafeRawPointer
    /// Number of entries.
    let count: Int

    /// Entry `index`; traps on an index outside the view (a bug in the engine, not in the file: every range a
    /// view is made from has been checked).
    @inline(__always)
    subscript(index: Int) -> Element {
        precondition(index >= 0 && index < count, "LittleEndianView index out of range")
        return Element(littleEndian: base.loadUnaligned(fromByteOffset: index &* MemoryLayout<Element>.size, as: Element.self))
    }
}

/// u32 entries: the year table.
typealias U32View = LittleEndianView<UInt32>
/// u64 words: bitmaps.
typealias U64View = LittleEndianView<UInt64>

extension LittleEndianView where Element == UInt64 {
    /// The words, copied into an array.
    func copied() -> [UInt64] {
        [UInt64](unsafeUninitializedCapacity: count) { buffer, initialized in
            for index in 0..<count {
                buffer[index] = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index &* 8, as: UInt64.self))
            }
            initialized = count
        }
    }

    /// `words[i] &= self[i]` for every word (the two have the same count).
    func intersect(into words: inout [UInt64]) {
        precondition(words.count == count, "bitmaps of different sizes")
        words.withUnsafeMutableBufferPointer { target in
            for index in 0..<count {
                target[index] &= UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index &* 8, as: UInt64.self))
            }
        }
    }
}
