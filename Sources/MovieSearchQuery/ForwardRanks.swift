@_spi(Engine) import MovieSearchIndex

/// Ascending ranks read forward: a block at a time by `BitKernels.intersection`, whole by the typo pass, one rank
/// looked for after another by its `mark`. A list in the file read at any position (`PositionedRanks`) or an
/// Elias–Fano list read by its cursor (`CodedRanks`) alike.
protocol ForwardRanks {
    /// The next rank, `Int.max` past the last.
    var next: Int { get }
    /// Moves past the ranks below `start`.
    mutating func skip(below start: Int)
    /// Calls `body` with the next ranks below `end` (the next one at least, when it is below `end`), moving past
    /// them; returns how many.
    mutating func read(below end: Int, _ body: (Int) -> Void) -> Int
    /// Whether a coded list ran out of the ranks it claims (a forged file): the intersection is corrupt.
    var isDamaged: Bool { get }
}

/// A list read at any position: galloped through to each block's start and end, then read in a loop.
struct PositionedRanks<Ranks: RankSequence>: ForwardRanks {
    let ranks: Ranks
    var position = 0

    init(_ ranks: Ranks) { self.ranks = ranks }

    var next: Int { position < ranks.count ? Int(ranks[unchecked: position]) : .max }
    var isDamaged: Bool { false }

    mutating func skip(below start: Int) {
        if position < ranks.count, Int(ranks[unchecked: position]) < start {
            position = AnswerBuilder.firstPosition(in: ranks, from: position, notBelow: start)
        }
    }

    mutating func read(below end: Int, _ body: (Int) -> Void) -> Int {
        guard position < ranks.count, Int(ranks[unchecked: position]) < end else { return 0 }
        let first = position
        // At least one further on: the rank at `position` is below `end`, so the loop ends on ranks out of order.
        position = AnswerBuilder.firstPosition(in: ranks, from: position, notBelow: end)
        for index in first..<position { body(Int(ranks[unchecked: index])) }
        return position &- first
    }
}

/// An Elias–Fano list read forward by a cursor: the ranks before a block skipped by its upper bits' zeros, the
/// block's read by `forEach(below:)`.
struct CodedRanks: ForwardRanks {
    var cursor: EliasFanoList.Cursor

    init(_ list: EliasFanoList) { cursor = EliasFanoList.Cursor(list) }

    var next: Int { cursor.isAtEnd ? .max : Int(cursor.rank) }
    var isDamaged: Bool { cursor.isDamaged }

    mutating func skip(below start: Int) { cursor.advance(to: UInt32(truncatingIfNeeded: start)) }

    mutating func read(below end: Int, _ body: (Int) -> Void) -> Int {
        cursor.forEach(below: UInt32(truncatingIfNeeded: end)) { body(Int($0)) }
    }
}
