/// The typo counts of the movies listed for one year of a `SearchResult`, in the order of `YearMatches.movieIDs`:
/// position `i` is the typo count of `movieIDs[i]` (SPEC.md, "Typos": the sum over the query tokens
/// of the smallest distance to a title token each matches).
///
/// Every count of an exact answer is 0; such a list stores nothing, so that exact answers cost no more than before.
/// A typo answer's lists are views into one buffer that all its years share, like `MovieIDList`.
public struct TypoCountList: RandomAccessCollection, Hashable, Sendable, ExpressibleByArrayLiteral,
    CustomStringConvertible
{
    /// Empty for a list of zeros.
    private let storage: [UInt16]
    private let range: Range<Int>

    /// A view of `storage[range]`, or `range.count` zeros when `storage` is empty.
    init(storage: [UInt16], range: Range<Int>) {
        self.storage = storage
        self.range = range
    }

    /// `count` zeros: the counts of an exact answer.
    public init(zeros count: Int) {
        self.init(storage: [], range: 0..<Swift.max(count, 0))
    }

    /// A list of these counts (each at most `UInt16.max`: a query has far fewer typos than that).
    public init(_ counts: [Int]) {
        self.init(storage: counts.map { UInt16(clamping: $0) }, range: counts.indices)
    }

    /// A list of these counts.
    public init(arrayLiteral counts: Int...) {
        self.init(counts)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { range.count }

    /// The typo count at `position` (from 0).
    public subscript(position: Int) -> Int {
        precondition(position >= 0 && position < range.count, "TypoCountList index out of range")
        return storage.isEmpty ? 0 : Int(storage[range.lowerBound + position])
    }

    public static func == (lhs: TypoCountList, rhs: TypoCountList) -> Bool { lhs.elementsEqual(rhs) }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for typos in self { hasher.combine(typos) }
    }

    public var description: String { Array(self).description }
}
