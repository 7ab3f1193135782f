@_spi(Engine) import MovieSearchIndex

/// One query token's matches in the typo pass as bitmaps over ranks, one per distance the token has: level k holds
/// the ranks whose smallest distance is at most `distances[k]`, so a rank's distance is that of the first level
/// that holds it. Used when the matches are many (`QueryExecutor+Typos`): meeting and ranking them word by word
/// then costs less than listing and sorting them.
struct TypoLevels {
    /// Ascending.
    private(set) var distances: [Int] = []
    /// Cumulative: each level holds the one before.
    private(set) var bitmaps: [[UInt64]] = []

    /// The levels of `sources` (ordered by distance).
    init(_ sources: ArraySlice<QueryExecutor.Source>, movieCount: Int, path: String) throws(CacheError) {
        let words = CacheFormat.bitmapWordCount(movieCount: movieCount)
        var current = [UInt64](repeating: 0, count: words)
        for position in sources.indices {
            var inRange: Bool
            switch sources[position].ranks {
            case .bitmap(let bits, _):
                guard bits.count == words else { throw .corrupt(path: path, detail: "a bitmap set has the wrong size") }
                current.withUnsafeMutableBufferPointer { current in
                    for word in 0..<words { current[word] |= bits[word] }
                }
                inRange = true
            case .coded(let list):
                inRange = Self.add({ StoredList.coded(list).forEachRank($0) }, below: movieCount, to: &current)
            case .sorted(let list):
                inRange = Self.add({ StoredList.packed(list).forEachRank($0) }, below: movieCount, to: &current)
            case .postings(let lists): inRange = Self.add(lists.forEachRank, below: movieCount, to: &current)
            }
            guard inRange else { throw .corrupt(path: path, detail: "rank out of range") }
            let distance = sources[position].distance
            if position == sources.endIndex - 1 || sources[position + 1].distance != distance {
                distances.append(distance)
                bitmaps.append(current)
            }
        }
    }

    /// Every rank the token matches.
    var all: [UInt64] { bitmaps.last ?? [] }

    /// The token's smallest distance to rank `rank`, one of its matches.
    @inline(__always)
    func distance(of rank: Int) -> Int {
        for level in bitmaps.indices where bitmaps[level][rank >> 6] >> UInt64(rank & 63) & 1 == 1 {
            return distances[level]
        }
        return distances.last ?? 0
    }

    /// Sets the bits of the ranks `each` gives in `words`; false when one is not below `limit` (a damaged file).
    @inline(__always)
    private static func add(_ each: ((UInt32) -> Bool) -> Void, below limit: Int, to words: inout [UInt64]) -> Bool {
        var inRange = true
        each { rank in
            let rank = Int(rank)
            guard rank < limit else { inRange = false; return false }
            words[rank >> 6] |= 1 << UInt64(rank & 63)
            return true
        }
        return inRange
    }
}
