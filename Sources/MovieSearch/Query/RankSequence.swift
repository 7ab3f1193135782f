/// Ascending ranks, read one at a time: a posting list or prefix set in the file, or matches in memory.
protocol RankSequence {
    var count: Int { get }
    subscript(position: Int) -> UInt32 { get }
}

extension PackedView: RankSequence {}
extension Array: RankSequence where Element == UInt32 {}
