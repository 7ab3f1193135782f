@_spi(Engine) import MovieSearchIndex

/// Ascending ranks, read one at a time: a posting list or prefix set in the file, or matches in memory.
protocol RankSequence {
    var count: Int { get }
    subscript(position: Int) -> UInt32 { get }
    /// Entry `position`, which the caller has checked is below `count`: for the inner loops of the intersection
    /// kernels (`BitKernels`), whose ranges are checked once for the loop.
    subscript(unchecked position: Int) -> UInt32 { get }
}

extension PackedView: RankSequence {}
extension BytePackedView: RankSequence {}

extension Array: RankSequence where Element == UInt32 {
    @inline(__always)
    subscript(unchecked position: Int) -> UInt32 {
        withUnsafeBufferPointer { $0[position] }
    }
}

/// Ascending ranks read forward from a position (`AnswerBuilder.addFiltered`): an Elias–Fano list steps from one
/// set bit to the next where a random read would select each again.
protocol RankCursor {
    /// The rank at the cursor (past the end: `UInt32.max`).
    var rank: UInt32 { get }
    /// Moves to position `position`, at or past the current one.
    mutating func seek(to position: Int)
    /// Moves to the next position.
    mutating func next()
}

/// A cursor over a list read at any position (a packed list, an array).
struct PositionCursor<Ranks: RankSequence>: RankCursor {
    let ranks: Ranks
    var position = 0

    init(_ ranks: Ranks) { self.ranks = ranks }

    var rank: UInt32 { position < ranks.count ? ranks[unchecked: position] : .max }
    mutating func seek(to position: Int) { self.position = position }
    mutating func next() { position += 1 }
}

extension EliasFanoList.Cursor: RankCursor {}
