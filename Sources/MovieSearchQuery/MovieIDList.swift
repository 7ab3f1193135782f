/// The ids listed for one year of a `SearchResult`: a zero-based, random-access view into a buffer that all
/// years of one result share, so an answer costs two allocations however many years it has.
///
///     for id in result.years[0].movieIDs { … }    // or movieIDs[0], movieIDs.count, Array(movieIDs)
public struct MovieIDList: RandomAccessCollection, Hashable, Sendable, ExpressibleByArrayLiteral, CustomStringConvertible {
    private let storage: [Int]
    private let range: Range<Int>

    /// A list of the ids `storage[range]`.
    init(storage: [Int], range: Range<Int>) {
        self.storage = storage
        self.range = range
    }

    /// A list of these ids.
    public init(_ ids: [Int]) {
        self.init(storage: ids, range: ids.indices)
    }

    /// A list of these ids.
    public init(arrayLiteral ids: Int...) {
        self.init(ids)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { range.count }

    /// The id at `position` (from 0).
    public subscript(position: Int) -> Int {
        precondition(position >= 0 && position < range.count, "MovieIDList index out of range")
        return storage[range.lowerBound + position]
    }

    public static func == (lhs: MovieIDList, rhs: MovieIDList) -> Bool { lhs.elementsEqual(rhs) }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for id in self { hasher.combine(id) }
    }

    public var description: String { Array(self).description }
}
