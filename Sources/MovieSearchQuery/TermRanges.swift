/// The term ranges of a query's tokens (`QueryExecutor.termRanges(of:lookedUp:)`): up to `inlineCapacity` held in
/// the value itself, more in an array.
///
/// A query is a few words, and an array of their ranges was an allocation and a free for every keystroke, about 2 %
/// of a small catalog's query (callgrind, the decade keystrokes). Past `inlineCapacity` ranges, all of them move to
/// the array, so that a long query costs what it did.
struct TermRanges: RandomAccessCollection, MutableCollection {
    /// Ranges held without an allocation.
    static let inlineCapacity = 4

    private var inline: (Range<Int>, Range<Int>, Range<Int>, Range<Int>) = (0..<0, 0..<0, 0..<0, 0..<0)
    /// Every range, once there are more than `inlineCapacity` (`inline` is then unused); empty before.
    private var spilled: [Range<Int>] = []
    /// How many ranges there are.
    private(set) var count = 0

    init() {}

    /// These ranges, in this order.
    init(_ ranges: some Sequence<Range<Int>>) {
        for range in ranges { append(range) }
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(position: Int) -> Range<Int> {
        get {
            precondition(position >= 0 && position < count, "TermRanges index out of range")
            if count > Self.inlineCapacity { return spilled[position] }
            switch position {
            case 0: return inline.0
            case 1: return inline.1
            case 2: return inline.2
            default: return inline.3
            }
        }
        set {
            precondition(position >= 0 && position < count, "TermRanges index out of range")
            if count > Self.inlineCapacity {
                spilled[position] = newValue
                return
            }
            switch position {
            case 0: inline.0 = newValue
            case 1: inline.1 = newValue
            case 2: inline.2 = newValue
            default: inline.3 = newValue
            }
        }
    }

    /// Adds `range` after the others.
    mutating func append(_ range: Range<Int>) {
        if count < Self.inlineCapacity {
            count += 1
            self[count - 1] = range
            return
        }
        if count == Self.inlineCapacity {
            spilled.reserveCapacity(2 * Self.inlineCapacity)
            spilled += [inline.0, inline.1, inline.2, inline.3]
        }
        spilled.append(range)
        count += 1
    }

    /// Removes the first `k` ranges (0 ≤ `k` ≤ `count`), keeping the order of the rest.
    mutating func removeFirst(_ k: Int) {
        precondition(k >= 0 && k <= count, "TermRanges: removing more ranges than there are")
        guard k > 0 else { return }
        if count > Self.inlineCapacity {
            spilled.removeFirst(k)
            count -= k
            guard count <= Self.inlineCapacity else { return }
            // Back to the inline ranges, so that `count` says where they are.
            let rest = spilled
            spilled = []
            for (position, range) in rest.enumerated() { self[position] = range }
            return
        }
        for position in 0..<(count - k) { self[position] = self[position + k] }
        count -= k
    }

    /// Sorts the ranges by `areInIncreasingOrder`: the inline ones in place (the standard library's sort would copy
    /// a collection that is not contiguous into an array first).
    mutating func sort(by areInIncreasingOrder: (Range<Int>, Range<Int>) -> Bool) {
        if count > Self.inlineCapacity {
            spilled.sort(by: areInIncreasingOrder)
            return
        }
        guard count > 1 else { return }
        for next in 1..<count {
            let range = self[next]
            var position = next
            while position > 0, areInIncreasingOrder(range, self[position - 1]) {
                self[position] = self[position - 1]
                position -= 1
            }
            self[position] = range
        }
    }

    /// The ranges as an array (the typo pass keeps the exact pass's ranges so).
    var array: [Range<Int>] { Array(self) }
}
