/// The sorted term dictionary of a cache (`TERM` and `TTXT`), read where it lies.
///
/// Terms are sorted by their UTF-8 bytes, so the terms a prefix begins form one contiguous range of term ids,
/// found with two binary searches: O(log T) term comparisons, whatever the number of matching terms.
struct TermDictionary {
    let file: MappedCacheFile
    let terms: MappedCacheFile.Section
    let text: MappedCacheFile.Section
    let count: Int

    /// The ids of the terms that start with `prefix`.
    func range(ofPrefix prefix: [UInt8]) throws(CacheError) -> Range<Int> {
        // First term not ordered before the prefix.
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if try compare(term: middle, with: prefix) < 0 { low = middle + 1 } else { high = middle }
        }
        let start = low
        // First term from there on that does not start with the prefix.
        high = count
        while low < high {
            let middle = (low + high) / 2
            if try compare(term: middle, with: prefix) == 0 { low = middle + 1 } else { high = middle }
        }
        return start..<low
    }

    /// Negative when the term sorts before `prefix`, 0 when it starts with `prefix`, positive otherwise.
    private func compare(term: Int, with prefix: [UInt8]) throws(CacheError) -> Int {
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
