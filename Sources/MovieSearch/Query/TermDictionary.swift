/// The sorted term dictionary of a cache (`TERM`, `TJMP`, `TTXT`), read where it lies.
///
/// Terms are sorted by their UTF-8 bytes, so the terms a prefix begins form one contiguous range of term ids.
/// The jump table narrows the search to the terms that share the prefix's first byte; a binary search finds the
/// range's start, and an exponential search from there its end, so a narrow range costs a few comparisons.
struct TermDictionary {
    private let file: MappedCacheFile
    private let terms: MappedCacheFile.Section
    private let text: MappedCacheFile.Section
    private let jump: MappedCacheFile.Section

    init(index: MovieIndex) {
        file = index.file
        terms = index.sections.terms
        text = index.sections.termText
        jump = index.sections.termJump
    }

    /// The ids of the terms that start with `prefix` (a token: not empty).
    func range(ofPrefix prefix: UnsafeBufferPointer<UInt8>) throws(CacheError) -> Range<Int> {
        let bucket = try file.u32s(jump, Int(prefix[0])..<(Int(prefix[0]) + 2))
        var low = Int(bucket[0]), high = Int(bucket[1])
        guard low <= high, high <= file.termCount else { throw .corrupt(path: file.path, detail: "term jump table out of order") }
        let bucketEnd = high
        // First term not ordered before the prefix.
        while low < high {
            let middle = (low + high) / 2
            if try compare(term: middle, with: prefix) < 0 { low = middle + 1 } else { high = middle }
        }
        let start = low
        if start == bucketEnd { return start..<start }
        if try compare(term: start, with: prefix) != 0 { return start..<start }
        // Last term that starts with the prefix: gallop, then binary search.
        var step = 1
        while low + step < bucketEnd {
            if try compare(term: low + step, with: prefix) != 0 { break }
            low += step
            step *= 2
        }
        high = min(low + step, bucketEnd)
        low += 1
        while low < high {
            let middle = (low + high) / 2
            if try compare(term: middle, with: prefix) == 0 { low = middle + 1 } else { high = middle }
        }
        return start..<low
    }

    /// Negative when the term sorts before `prefix`, 0 when it starts with `prefix`, positive otherwise.
    private func compare(term: Int, with prefix: UnsafeBufferPointer<UInt8>) throws(CacheError) -> Int {
        let bounds = try file.u32s(terms, (term * 2)..<(term * 2 + 3))
        let start = Int(bounds[0]), end = Int(bounds[2])
        guard start <= end else { throw .corrupt(path: file.path, detail: "term text offsets out of order") }
        let bytes = try file.bytes(text, start..<end)
        let shared = min(bytes.count, prefix.count)
        for position in 0..<shared where bytes[position] != prefix[position] {
            return bytes[position] < prefix[position] ? -1 : 1
        }
        return bytes.count >= prefix.count ? 0 : -1
    }
}
