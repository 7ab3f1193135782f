/// A run of little-endian integers inside a checked, verified part of a mapping.
@_spi(Engine) public struct LittleEndianView<Element: FixedWidthInteger> {
    public let base: UnsafeRawPointer
    /// Number of entries.
    public let count: Int

    /// Entry `index`; traps on an index outside the view (a bug in the engine, not in the file: every range a
    /// view is made from has been checked).
    @inlinable @inline(__always)
    public subscript(index: Int) -> Element {
        precondition(index >= 0 && index < count, "LittleEndianView index out of range")
        return Element(littleEndian: base.loadUnaligned(fromByteOffset: index &* MemoryLayout<Element>.size,
                                                        as: Element.self))
    }
}

/// u32 entries: the year table.
@_spi(Engine) public typealias U32View = LittleEndianView<UInt32>
/// u64 words: bitmaps.
@_spi(Engine) public typealias U64View = LittleEndianView<UInt64>

extension LittleEndianView where Element == UInt64 {
    /// The words, copied into an array.
    @inlinable
    public func copied() -> [UInt64] {
        [UInt64](unsafeUninitializedCapacity: count) { buffer, initialized in
            for index in 0..<count {
                buffer[index] = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index &* 8, as: UInt64.self))
            }
            initialized = count
        }
    }

    /// `words[i] &= self[i]` for every word (the two have the same count).
    @inlinable
    public func intersect(into words: inout [UInt64]) {
        precondition(words.count == count, "bitmaps of different sizes")
        words.withUnsafeMutableBufferPointer { target in
            for index in 0..<count {
                target[index] &= UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index &* 8, as: UInt64.self))
            }
        }
    }

    /// Set bits of `a & b` in the bit range `range` of two bitmaps of the same size, which cover it: a year's
    /// matches of a two-bitmap query (`AnswerBuilder`). (The writer's stored counts of bitmap pairs are counted
    /// from each rank's side instead, `PrefixSetWriter`.) Inlinable, as the query's hot loop in another module
    /// calls it.
    ///
    /// The words inside the range are counted in a loop of nothing but loads, an AND and a count, which the
    /// compiler vectorizes (with plain SSE2 on x86-64, which has no popcount instruction in its baseline: a
    /// scalar count is a dozen instructions a word, and it was most of a two-bitmap query).
    @inlinable
    public static func intersectionCount(_ a: U64View, _ b: U64View, _ range: Range<Int>) -> Int {
        if range.isEmpty { return 0 }
        precondition(a.count == b.count && range.lowerBound >= 0 && range.upperBound <= a.count &* 64,
                     "a bit range outside the bitmaps")
        let firstWord = range.lowerBound &>> 6, lastWord = (range.upperBound &- 1) &>> 6
        let head: UInt64 = ~0 &<< UInt64(range.lowerBound & 63)
        let tail: UInt64 = ~0 &>> UInt64(63 &- ((range.upperBound &- 1) & 63))
        if firstWord == lastWord { return (a[firstWord] & b[firstWord] & head & tail).nonzeroBitCount }
        var count = (a[firstWord] & b[firstWord] & head).nonzeroBitCount
            &+ (a[lastWord] & b[lastWord] & tail).nonzeroBitCount
        // Words firstWord + 1 ..< lastWord, inside both views (checked above). The count of an AND does not depend
        // on the byte order, so the words are not swapped to little-endian.
        let left = a.base + (firstWord &+ 1) &* 8, right = b.base + (firstWord &+ 1) &* 8
        for word in 0..<(lastWord &- firstWord &- 1) {
            let offset = word &* 8
            count &+= (left.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                & right.loadUnaligned(fromByteOffset: offset, as: UInt64.self)).nonzeroBitCount
        }
        return count
    }
}
