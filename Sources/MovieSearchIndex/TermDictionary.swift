/// Reads the sorted term dictionary that `CacheSections` lays out (`TTXO`, `TTXT`, `TJMP`), where it lies.
///
/// Terms are sorted by their UTF-8 bytes, so the terms a prefix begins form one contiguous range of term ids.
/// The jump table narrows the search to the terms that share the prefix's first byte (a one-byte prefix is that
/// bucket, found without a comparison); one binary search narrows both ends of the range until a term matches,
/// then one on each side of it finds each end. A comparison reads a term's two offsets with one load and compares
/// up to eight bytes at a time as big-endian words. Nothing is built at open: a process that answers one query
/// pays for its own look-ups only.
package struct TermDictionary {
    private let file: MappedCacheFile
    private let terms: MappedCacheFile.Section
    private let text: MappedCacheFile.Section
    private let jump: MappedCacheFile.Section

    package init(file: MappedCacheFile, sections: MappedSections) {
        self.file = file
        terms = sections.termTextOffsets
        text = sections.termText
        jump = sections.termJump
    }

    /// The ids of the terms that start with `prefix` (a token: not empty).
    package func range(ofPrefix prefix: UnsafeBufferPointer<UInt8>) throws(CacheError) -> Range<Int> {
        let bucket = try file.packed(jump, Int(prefix[0])..<(Int(prefix[0]) + 2))
        let bucketStart = Int(bucket[0]), bucketEnd = Int(bucket[1])
        guard bucketStart <= bucketEnd, bucketEnd <= file.termCount else {
            throw .corrupt(path: file.path, detail: "term jump table out of order")
        }
        // The bucket's offsets and text, bounds- and checksum-checked once, not at every comparison.
        let offsets = try file.packed(self.terms, bucketStart..<(bucketEnd + 1))
        let terms = Bucket(first: bucketStart, offsets: offsets, text: try bucketText(offsets), prefix: prefix)
        // Every term of a bucket starts with its byte, so a one-byte prefix is the whole bucket. Not for byte 0,
        // whose bucket would also hold an empty term (the writer files one there), which starts with no byte.
        if prefix.count == 1, prefix[0] != 0 { return bucketStart..<bucketEnd }
        // Both ends at once while they lie in the same half; from the first term that matches, each on its side.
        var low = bucketStart, high = bucketEnd
        while low < high {
            let middle = (low &+ high) &>> 1
            let order = try compare(terms, middle)
            if order < 0 {
                low = middle &+ 1
            } else if order > 0 {
                high = middle
            } else {
                var start = low, startHigh = middle  // the first match is in start...startHigh
                while start < startHigh {
                    let probe = (start &+ startHigh) &>> 1
                    if try compare(terms, probe) < 0 { start = probe &+ 1 } else { startHigh = probe }
                }
                var end = middle &+ 1  // the first term past the matches is in end...high
                while end < high {
                    let probe = (end &+ high) &>> 1
                    if try compare(terms, probe) == 0 { end = probe &+ 1 } else { high = probe }
                }
                return start..<end
            }
        }
        return low..<low
    }

    /// `terms.compare(term)`, with a damaged offset thrown as corrupt.
    @inline(__always)
    private func compare(_ terms: Bucket, _ term: Int) throws(CacheError) -> Int {
        guard let order = terms.compare(term) else {
            throw .corrupt(path: file.path, detail: "term text offsets out of order")
        }
        return order
    }

    /// The text of the terms in `range` (a range `range(ofPrefix:)` returned), read where it lies: for walks over
    /// the terms themselves, such as the typo search's.
    package func texts(of range: Range<Int>) throws(CacheError) -> Texts {
        guard range.lowerBound >= 0, range.upperBound <= file.termCount else {
            throw .corrupt(path: file.path, detail: "term range out of bounds")
        }
        let offsets = try file.packed(self.terms, range.lowerBound..<(range.upperBound + 1))
        return Texts(first: range.lowerBound, offsets: offsets, text: try bucketText(offsets), path: file.path)
    }

    /// The bytes of a range of terms.
    package struct Texts {
        let first: Int
        let offsets: PackedView
        let text: (start: Int, bytes: UnsafeRawBufferPointer)
        let path: String

        /// The terms' ids.
        package var ids: Range<Int> { first..<(first + offsets.count - 1) }

        /// Where term `term` (one of `ids`, or `ids.upperBound` for the end of the last) starts in `text.bytes`:
        /// a walk reads each boundary once, as the end of one term and the start of the next.
        @inline(__always)
        package func start(of term: Int) -> Int {
            Int(offsets[term - first]) - text.start
        }

        /// The UTF-8 bytes between two boundaries that `start(of:)` gave, checked.
        @inline(__always)
        package func bytes(from start: Int, to end: Int) throws(CacheError) -> UnsafeRawBufferPointer {
            guard start >= 0, start <= end, end <= text.bytes.count else {
                throw .corrupt(path: path, detail: "term text offsets out of order")
            }
            return UnsafeRawBufferPointer(rebasing: text.bytes[start..<end])
        }

        /// The UTF-8 bytes of term `term` (one of `ids`).
        @inline(__always)
        package func bytes(of term: Int) throws(CacheError) -> UnsafeRawBufferPointer {
            let start = Int(offsets[term - first]) - text.start, end = Int(offsets[term - first + 1]) - text.start
            guard start >= 0, start <= end, end <= text.bytes.count else {
                throw .corrupt(path: path, detail: "term text offsets out of order")
            }
            return UnsafeRawBufferPointer(rebasing: text.bytes[start..<end])
        }
    }

    /// The `TTXT` bytes of the terms whose text offsets are `offsets` (one more than the terms), from the first
    /// one's text.
    @inline(__always)
    private func bucketText(_ offsets: PackedView) throws(CacheError) -> (start: Int, bytes: UnsafeRawBufferPointer) {
        let start = Int(offsets[0]), stop = Int(offsets[offsets.count - 1])
        guard start <= stop else { throw .corrupt(path: file.path, detail: "term text offsets out of order") }
        return (start, try file.bytes(text, start..<stop))
    }

    /// The terms of one jump-table bucket, compared with a query token eight bytes at a time: each side's next
    /// eight bytes loaded as one big-endian word, whose order as a number is the bytes' order.
    private struct Bucket {
        let first: Int
        let offsets: PackedView
        let text: (start: Int, bytes: UnsafeRawBufferPointer)
        let prefix: UnsafeBufferPointer<UInt8>
        /// The prefix's first eight bytes as a big-endian word, zero after its end: the only word of most tokens.
        let head: UInt64
        /// For a prefix of up to eight bytes: the shift that leaves a word's first `prefix.count` bytes, and
        /// `head` so shifted.
        let headShift: UInt64, headBytes: UInt64

        init(first: Int, offsets: PackedView, text: (start: Int, bytes: UnsafeRawBufferPointer),
             prefix: UnsafeBufferPointer<UInt8>) {
            self.first = first
            self.offsets = offsets
            self.text = text
            self.prefix = prefix
            head = Self.word(UnsafeRawBufferPointer(prefix), at: 0, count: min(prefix.count, 8))
            headShift = UInt64(truncatingIfNeeded: 64 &- 8 &* min(prefix.count, 8))
            headBytes = head &>> headShift
        }

        /// Negative when term `term` sorts before `prefix`, 0 when it starts with `prefix`, positive otherwise;
        /// nil when its text offsets are out of order or outside the bucket's text.
        ///
        /// The common case in one load: a prefix of up to eight bytes, and eight bytes of text from the term's
        /// start (the term's own, then the next terms', which the shifts drop).
        @inline(__always)
        func compare(_ term: Int) -> Int? {
            let bounds = offsets.pair(at: term &- first)
            let start = Int(bounds.0) &- text.start, end = Int(bounds.1) &- text.start
            guard start >= 0, start <= end, end <= text.bytes.count else { return nil }
            let length = end &- start
            guard prefix.count <= 8, start &+ 8 <= text.bytes.count else {
                return compareLong(start: start, length: length)
            }
            let termWord = UInt64(bigEndian: text.bytes.loadUnaligned(fromByteOffset: start, as: UInt64.self))
            if length >= prefix.count {
                let termBytes = termWord &>> headShift
                return termBytes < headBytes ? -1 : (termBytes == headBytes ? 0 : 1)
            }
            // A term shorter than the prefix sorts before it, unless one of its bytes is greater than the prefix's.
            guard length > 0 else { return -1 }
            let shift = UInt64(truncatingIfNeeded: 64 &- 8 &* length)
            return termWord &>> shift > head &>> shift ? 1 : -1
        }

        /// `compare` for a prefix longer than a word, or a term less than eight bytes from the end of the bucket's
        /// text: word after word, each read no further than the term's end, the last one masked to the bytes shared.
        private func compareLong(start: Int, length: Int) -> Int {
            let shared = min(length, prefix.count)
            var position = 0
            while position < shared {
                let count = min(shared &- position, 8)
                // The top `count` bytes: those past the term's end (the next term's) or the prefix's drop out.
                let mask = ~UInt64(0) &<< UInt64(64 &- 8 &* count)
                let termWord = Self.word(text.bytes, at: start &+ position, count: count) & mask
                let prefixWord = Self.word(UnsafeRawBufferPointer(prefix), at: position, count: count) & mask
                if termWord != prefixWord { return termWord < prefixWord ? -1 : 1 }
                position &+= 8
            }
            return length >= prefix.count ? 0 : -1
        }

        /// Bytes `offset..<(offset + count)` of `bytes` (`count` in 1...8, the range inside `bytes`) as the high
        /// bytes of a big-endian word. One unaligned load when eight bytes from `offset` lie inside `bytes`, the
        /// bytes past `count` then left for the caller to drop; else byte by byte, zero past `count`.
        @inline(__always)
        static func word(_ bytes: UnsafeRawBufferPointer, at offset: Int, count: Int) -> UInt64 {
            if offset &+ 8 <= bytes.count {
                return UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            }
            var word: UInt64 = 0
            for index in 0..<count { word |= UInt64(bytes[offset &+ index]) &<< UInt64(56 &- 8 &* index) }
            return word
        }
    }
}
