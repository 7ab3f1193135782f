/// Reads the sorted term dictionary that `CacheSections` lays out (`TTXO`, `TTXT`, `TJMP`), where it lies.
///
/// Terms are sorted by their UTF-8 bytes, so the terms a prefix begins form one contiguous range of term ids.
/// The jump table narrows the search to the terms that share the prefix's first byte; a binary search finds the
/// range's start, and an exponential search from there its end, so a narrow range costs a few comparisons.
struct TermDictionary {
    private let file: MappedCacheFile
    private let terms: MappedCacheFile.Section
    private let text: MappedCacheFile.Section
    private let jump: MappedCacheFile.Section

    init(file: MappedCacheFile, sections: MappedSections) {
        self.file = file
        terms = sections.termTextOffsets
        text = sections.termText
        jump = sections.termJump
    }

    /// The ids of the terms that start with `prefix` (a token: not empty).
    func range(ofPrefix prefix: UnsafeBufferPointer<UInt8>) throws(CacheError) -> Range<Int> {
        let bucket = try file.packed(jump, Int(prefix[0])..<(Int(prefix[0]) + 2))
        let bucketStart = Int(bucket[0]), bucketEnd = Int(bucket[1])
        guard bucketStart <= bucketEnd, bucketEnd <= file.termCount else {
            throw .corrupt(path: file.path, detail: "term jump table out of order")
        }
        // The bucket's offsets and text, bounds- and checksum-checked once, not at every comparison.
        let offsets = try file.packed(self.terms, bucketStart..<(bucketEnd + 1))
        let terms = Bucket(first: bucketStart, offsets: offsets, text: try bucketText(offsets), prefix: prefix, path: file.path)
        var low = bucketStart, high = bucketEnd
        // First term not ordered before the prefix.
        while low < high {
            let middle = (low + high) / 2
            if try terms.compare(middle) < 0 { low = middle + 1 } else { high = middle }
        }
        let start = low
        if start == bucketEnd { return start..<start }
        if try terms.compare(start) != 0 { return start..<start }
        // Last term that starts with the prefix: gallop, then binary search.
        var step = 1
        while low + step < bucketEnd {
            if try terms.compare(low + step) != 0 { break }
            low += step
            step *= 2
        }
        high = min(low + step, bucketEnd)
        low += 1
        while low < high {
            let middle = (low + high) / 2
            if try terms.compare(middle) == 0 { low = middle + 1 } else { high = middle }
        }
        return start..<low
    }

    /// The text of the terms in `range` (a range `range(ofPrefix:)` returned), read where it lies: for walks over
    /// the terms themselves, such as the typo search's.
    func texts(of range: Range<Int>) throws(CacheError) -> Texts {
        guard range.lowerBound >= 0, range.upperBound <= file.termCount else {
            throw .corrupt(path: file.path, detail: "term range out of bounds")
        }
        let offsets = try file.packed(self.terms, range.lowerBound..<(range.upperBound + 1))
        return Texts(first: range.lowerBound, offsets: offsets, text: try bucketText(offsets), path: file.path)
    }

    /// The bytes of a range of terms.
    struct Texts {
        let first: Int
        let offsets: PackedView
        let text: (start: Int, bytes: UnsafeRawBufferPointer)
        let path: String

        /// The terms' ids.
        var ids: Range<Int> { first..<(first + offsets.count - 1) }

        /// The UTF-8 bytes of term `term` (one of `ids`).
        @inline(__always)
        func bytes(of term: Int) throws(CacheError) -> UnsafeRawBufferPointer {
            let start = Int(offsets[term - first]) - text.start, end = Int(offsets[term - first + 1]) - text.start
            guard start >= 0, start <= end, end <= text.bytes.count else {
                throw .corrupt(path: path, detail: "term text offsets out of order")
            }
            return UnsafeRawBufferPointer(rebasing: text.bytes[start..<end])
        }
    }

    /// The `TTXT` bytes of the terms whose text offsets are `offsets` (one more than the terms), from the first
    /// one's text.
    private func bucketText(_ offsets: PackedView) throws(CacheError) -> (start: Int, bytes: UnsafeRawBufferPointer) {
        let start = Int(offsets[0]), stop = Int(offsets[offsets.count - 1])
        guard start <= stop else { throw .corrupt(path: file.path, detail: "term text offsets out of order") }
        return (start, try file.bytes(text, start..<stop))
    }

    /// The terms of one jump-table bucket, compared with a query token.
    private struct Bucket {
        let first: Int
        let offsets: PackedView
        let text: (start: Int, bytes: UnsafeRawBufferPointer)
        let prefix: UnsafeBufferPointer<UInt8>
        let path: String

        /// Negative when term `term` sorts before `prefix`, 0 when it starts with `prefix`, positive otherwise.
        func compare(_ term: Int) throws(CacheError) -> Int {
            let start = Int(offsets[term - first]) - text.start, end = Int(offsets[term - first + 1]) - text.start
            guard start >= 0, start <= end, end <= text.bytes.count else {
                throw .corrupt(path: path, detail: "term text offsets out of order")
            }
            let length = end - start, shared = min(length, prefix.count)
            for position in 0..<shared where text.bytes[start + position] != prefix[position] {
                return text.bytes[start + position] < prefix[position] ? -1 : 1
            }
            return length >= prefix.count ? 0 : -1
        }
    }
}
