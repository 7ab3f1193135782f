/// IMDb's ratings (`title.ratings.tsv`) by title, held compactly: the number of each `tconst` (`tt0111161` →
/// 111161) in one sorted array and its `averageRating` in another, 12 bytes a title and no `String`, so that
/// IMDb's ratings of 10 million titles fit in about 120 MB.
///
/// IMDb writes both files in `tconst` order, so the ratings are looked up with a cursor that walks forward
/// (`rating(for:)` is then constant time); a title out of order falls back to a binary search.
struct IMDbRatings {
    private var keys: [UInt32] = []
    private var values: [Double] = []
    private var sorted = true
    /// Where the last look-up ended: the next title most likely has its rating at or just after it.
    private var cursor = 0

    /// How many titles have a rating.
    var count: Int { keys.count }

    /// Adds the rating of title number `key`. Titles may come in any order; a title given twice keeps its first
    /// rating.
    mutating func append(_ key: UInt32, _ rating: Double) {
        if let last = keys.last, key <= last { sorted = false }
        keys.append(key)
        values.append(rating)
    }

    /// Sorts the ratings by title, once all are added (a no-op for IMDb's own files, which come sorted).
    mutating func finish() {
        guard !sorted else { return }
        // Positions break ties, so that of a title given twice the first rating comes first.
        let order = keys.indices.sorted { keys[$0] < keys[$1] || (keys[$0] == keys[$1] && $0 < $1) }
        keys = order.map { keys[$0] }
        values = order.map { values[$0] }
        sorted = true
    }

    /// The rating of title number `key`, or `nil` when it has none.
    mutating func rating(for key: UInt32) -> Double? {
        let count = keys.count
        guard count > 0 else { return nil }
        if cursor < count && keys[cursor] <= key {
            // Walk forward a few steps; a long gap is crossed by the binary search below.
            var position = cursor
            var steps = 0
            while position < count && keys[position] < key && steps < 8 {
                position += 1
                steps += 1
            }
            if position == count || keys[position] >= key {
                cursor = position
                return position < count && keys[position] == key ? values[position] : nil
            }
        }
        var lower = 0
        var upper = count
        while lower < upper {
            let middle = (lower + upper) / 2
            if keys[middle] < key { lower = middle + 1 } else { upper = middle }
        }
        cursor = lower
        return lower < count && keys[lower] == key ? values[lower] : nil
    }

    /// The number of a `tconst` (`tt` and up to ten digits that fit 32 bits), or `nil` for any other text.
    static func key(of tconst: UnsafeBufferPointer<UInt8>) -> UInt32? {
        guard tconst.count >= 3 && tconst.count <= 12, tconst[0] == UInt8(ascii: "t"), tconst[1] == UInt8(ascii: "t")
        else { return nil }
        var value: UInt64 = 0
        for byte in UnsafeBufferPointer(rebasing: tconst[2...]) {
            let digit = byte &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value * 10 + UInt64(digit)
        }
        return UInt32(exactly: value)
    }
}
