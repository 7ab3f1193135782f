/// The optimal-string-alignment rows of one query token against a growing prefix of a term (SEARCH-SPEC,
/// "Typo tolerance"): push the term's scalars one by one, pop back to a shared prefix, and read the prefix distance
/// so far and whether going deeper could still lower it.
///
///     var rows = AlignmentRows(query: Array("darkenss".unicodeScalars.map(\.value)), budget: 1)
///     for scalar in "darkness".unicodeScalars { rows.push(scalar.value) }
///     rows.prefixDistance     // 1: one swap
///
/// Row j holds d(q[0..<i], t[0..<j]) for every i, but only the band |i − j| ≤ budget is computed: outside it the
/// distance is more than the budget, which is all the search needs to know (every value is capped at budget + 1).
/// The band has at most 7 cells (budget ≤ 3), each below 16, so a row is one `UInt64` with a cell per byte and a
/// push works on all cells at once: the diagonal, upper and transposition candidates lane by lane, then the
/// left-to-right dependency (d(i, j) ≤ d(i − 1, j) + 1) as a prefix minimum in three shifted steps. A push costs
/// a few dozen instructions whatever the token's length.
///
/// The rows are raw memory that the value owns (it is noncopyable and frees it in `deinit`): the typo walk pushes a
/// row for every term prefix it reads, and array bounds and uniqueness checks would cost more than the row. Every
/// index is below `capacity`, which `push` grows before it writes.
struct AlignmentRows: ~Copyable {
    private let query: UnsafeMutableBufferPointer<UInt32>
    let budget: Int
    private let width: Int
    /// `budget + 1` in every byte: "more than the budget".
    private let capLanes: UInt64
    private var capacity: Int
    /// Per row j: its cells (byte k: i = j − budget + k), the smallest last-column value of rows 0...j, the first
    /// row with that value, the scalar that made it, and a caller's tag.
    private var cells: UnsafeMutablePointer<UInt64>
    private var best: UnsafeMutablePointer<UInt8>
    private var bestRow: UnsafeMutablePointer<Int32>
    private var scalars: UnsafeMutablePointer<UInt32>
    private var tags: UnsafeMutablePointer<Int>
    /// For a token of at most `maskedLength` scalars: per ASCII scalar, and per other scalar of the token, the
    /// positions where the token has it, as bits from `maskOffset` on (so that a window that starts before the
    /// token is a plain shift). A push then reads a window's matches with a shift instead of comparing each cell.
    private let asciiMasks: UnsafeMutablePointer<UInt64>
    private let otherScalars: [UInt32]
    private let otherMasks: [UInt64]
    private static let maskOffset = 4
    private static let maskedLength = 64 - maskOffset
    /// The length of the term prefix the rows are for.
    private(set) var depth = 0

    private static let ones: UInt64 = 0x0101_0101_0101_0101

    /// Rows for `query` (its scalars) with `budget` edits (0 to 3), holding row 0 (the empty prefix).
    init(query scalars: [UInt32], budget: Int) {
        precondition(budget >= 0 && budget <= 3, "a typo budget is 0, 1 or 2")
        query = .allocate(capacity: scalars.count)
        _ = query.initialize(from: scalars)
        self.budget = budget
        width = 2 * budget + 1
        capLanes = UInt64(budget + 1) &* Self.ones
        capacity = 32
        cells = .allocate(capacity: capacity)
        best = .allocate(capacity: capacity)
        bestRow = .allocate(capacity: capacity)
        self.scalars = .allocate(capacity: capacity)
        tags = .allocate(capacity: capacity)
        var row = capLanes
        for k in 0..<width {
            let i = k - budget
            if i >= 0, i <= scalars.count { row = Self.setting(row, lane: k, to: UInt8(min(i, budget + 1))) }
        }
        cells[0] = row
        best[0] = UInt8(min(scalars.count, budget + 1))
        bestRow[0] = 0
        self.scalars[0] = 0
        tags[0] = 0
        asciiMasks = .allocate(capacity: 128)
        asciiMasks.initialize(repeating: 0, count: 128)
        var otherScalars: [UInt32] = [], otherMasks: [UInt64] = []
        if scalars.count <= Self.maskedLength {
            for (position, scalar) in scalars.enumerated() {
                let bit: UInt64 = 1 << UInt64(position + Self.maskOffset)
                if scalar < 128 {
                    asciiMasks[Int(scalar)] |= bit
                } else if let index = otherScalars.firstIndex(of: scalar) {
                    otherMasks[index] |= bit
                } else {
                    otherScalars.append(scalar)
                    otherMasks.append(bit)
                }
            }
        }
        self.otherScalars = otherScalars
        self.otherMasks = otherMasks
    }

    deinit {
        asciiMasks.deallocate()
        query.deallocate()
        cells.deallocate()
        best.deallocate()
        bestRow.deallocate()
        scalars.deallocate()
        tags.deallocate()
    }

    /// pd(q, prefix): the smallest distance from the query to a prefix of the term prefix so far, capped at
    /// budget + 1.
    var prefixDistance: Int { Int(best[depth]) }

    /// The shortest prefix length with that distance (the `m` of SEARCH-SPEC "Match spans").
    var bestLength: Int { Int(bestRow[depth]) }

    /// Whether a longer term prefix could have a smaller prefix distance: no row below can hold a value under
    /// the smaller of this row's minimum and the previous row's minimum + 1 (a transposition reaches back two
    /// rows). When it could not, every term that extends the prefix has exactly `prefixDistance`.
    var canImprove: Bool {
        let limit = UInt64(best[depth]) &* Self.ones
        if Self.anyLane(of: cells[depth], below: limit) { return true }
        return depth > 0 && Self.anyLane(of: cells[depth - 1] &+ Self.ones, below: limit)
    }

    /// The caller's tag of row `row` (1...depth), set by `push(_:tag:)`.
    @inline(__always)
    func tag(of row: Int) -> Int { tags[row] }

    /// Drops the rows beyond `depth` (at most the current depth).
    @inline(__always)
    mutating func pop(to depth: Int) {
        self.depth = min(self.depth, depth)
    }

    /// Computes the row of the term prefix extended by `scalar`, and keeps `tag` with it.
    @inline(__always)
    mutating func push(_ scalar: UInt32, tag: Int = 0) {
        let j = depth + 1
        if j == capacity { grow() }
        let n = query.count, budget = self.budget, width = self.width, capLanes = self.capLanes
        let ones = Self.ones
        let before = j >= 2 ? scalars[j - 1] : UInt32.max
        // Bit k: whether q[j − budget − 2 + k] is `scalar` (resp. `before`), for k in 0...width.
        var scalarBits: UInt64 = 0, beforeBits: UInt64 = 0
        let base = j - budget - 2
        if n <= Self.maskedLength {
            let shift = UInt64(base + Self.maskOffset)  // ≥ 0: base ≥ −1 − budget ≥ −maskOffset
            scalarBits = mask(of: scalar) >> shift
            beforeBits = j >= 2 ? mask(of: before) >> shift : 0
        } else {
            for k in 0...width {
                let position = base &+ k
                if UInt(bitPattern: position) < UInt(n) {
                    let q = query[position]
                    scalarBits |= (q == scalar ? 1 : 0) << UInt64(k)
                    beforeBits |= (q == before ? 1 : 0) << UInt64(k)
                }
            }
        }
        let bandBits: UInt64 = (1 << UInt64(width)) - 1
        // Lane k is cell i = j − budget + k: the diagonal compares q[i − 1] with the scalar, a transposition needs
        // q[i − 1] = t[j − 2] and q[i − 2] = t[j − 1].
        let matches = Self.lanes(scalarBits >> 1 & bandBits)
        let transpositions = Self.lanes(beforeBits >> 1 & scalarBits & bandBits) &* 0xFF
        let previous = cells[j - 1]
        var row = Self.minimum(previous &+ (ones & ~matches), (previous >> 8 | capLanes << 56) &+ ones)
        if j >= 2 {
            let swap = (cells[j - 2] &+ ones) & transpositions | capLanes & ~transpositions
            row = Self.minimum(row, swap)
        }
        // d(i, j) ≤ d(i − 1, j) + 1, carried across the lanes in steps of 1, 2 and 4.
        row = Self.minimum(row, (row << 8 | capLanes >> 56) &+ ones)
        row = Self.minimum(row, (row << 16 | capLanes >> 48) &+ 2 &* ones)
        row = Self.minimum(row, (row << 32 | capLanes >> 32) &+ 4 &* ones)
        row = Self.minimum(row, capLanes)
        // Cells outside the band or past the query's end (i > n) are "more than the budget".
        let valid = min(width, max(0, n - j + budget + 1))
        let inside = Self.lanes((1 << UInt64(valid)) - 1) &* 0xFF
        row = row & inside | capLanes & ~inside
        cells[j] = row
        // The last column, d(q, t[0..<j]), is lane n − j + budget when that is in the band.
        let lastLane = n - j + budget
        let last = lastLane >= 0 && lastLane < width ? UInt8(truncatingIfNeeded: row >> UInt64(8 * lastLane)) : UInt8(budget + 1)
        if last < best[j - 1] {
            best[j] = last
            bestRow[j] = Int32(truncatingIfNeeded: j)
        } else {
            best[j] = best[j - 1]
            bestRow[j] = bestRow[j - 1]
        }
        scalars[j] = scalar
        tags[j] = tag
        depth = j
    }

    /// The positions of `scalar` in a token of at most `maskedLength` scalars, as bits from `maskOffset` on.
    @inline(__always)
    private func mask(of scalar: UInt32) -> UInt64 {
        if scalar < 128 { return asciiMasks[Int(scalar)] }
        for index in otherScalars.indices where otherScalars[index] == scalar { return otherMasks[index] }
        return 0
    }

    /// Bits 0–6 of `bits` spread to bytes 0–6 (1 where set): each bit k lands on bit 8k, and no two partial
    /// products meet below bit 56 while bit 7 is clear.
    @inline(__always)
    private static func lanes(_ bits: UInt64) -> UInt64 {
        (bits &* 0x0002_0408_1020_4081) & ones
    }

    /// Lane by lane, the smaller of `a` and `b` (every lane below 128): the high bit of (a | 0x80) − b tells
    /// whether a ≥ b, and no lane borrows from the next. General-purpose registers only: a push is one chain of
    /// dependent steps, and moving to vector registers and back at each step costs more than it saves.
    @inline(__always)
    private static func minimum(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let high: UInt64 = 0x8080_8080_8080_8080
        let atLeast = ((a | high) &- b) & high
        let mask = (atLeast << 1) &- (atLeast >> 7)  // 0xFF where a ≥ b
        return b & mask | a & ~mask
    }

    /// Whether some lane of `row` is below the same lane of `limit` (every lane below 128).
    @inline(__always)
    private static func anyLane(of row: UInt64, below limit: UInt64) -> Bool {
        let high: UInt64 = 0x8080_8080_8080_8080
        return ((row | high) &- limit) & high != high
    }

    private static func setting(_ row: UInt64, lane: Int, to value: UInt8) -> UInt64 {
        row & ~(0xFF << UInt64(8 * lane)) | UInt64(value) << UInt64(8 * lane)
    }

    /// Doubles the room for rows (a term longer than any seen so far).
    @inline(never)
    private mutating func grow() {
        let newCapacity = capacity * 2
        Self.move(&cells, count: capacity, to: newCapacity)
        Self.move(&best, count: capacity, to: newCapacity)
        Self.move(&bestRow, count: capacity, to: newCapacity)
        Self.move(&scalars, count: capacity, to: newCapacity)
        Self.move(&tags, count: capacity, to: newCapacity)
        capacity = newCapacity
    }

    private static func move<Element>(_ pointer: inout UnsafeMutablePointer<Element>, count: Int, to capacity: Int) {
        let moved = UnsafeMutablePointer<Element>.allocate(capacity: capacity)
        moved.moveInitialize(from: pointer, count: count)
        pointer.deallocate()
        pointer = moved
    }
}
