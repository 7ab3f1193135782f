/// The optimal-string-alignment rows of one query token against a growing prefix of a term (SPEC.md,
/// "Typos"): push the term's scalars one by one, pop back to a shared prefix, and read the prefix distance
/// so far and whether going deeper could still lower it.
///
///     var rows = AlignmentRows(query: Array("darkenss".unicodeScalars.map(\.value)), budget: 1)
///     for scalar in "darkness".unicodeScalars { rows.push(scalar.value) }
///     rows.prefixDistance     // 1: one swap
///
/// Row j holds d(q[0..<i], t[0..<j]) for every i, but only the band |i − j| ≤ budget is computed: outside it the
/// distance is more than the budget, which is all the search needs to know (every value is capped at budget + 1).
/// The band has at most 7 cells (budget ≤ 3), each at most budget + 1 ≤ 4, so a row is one `UInt64` with a cell
/// per 4-bit lane, each value v written as a thermometer, (1 << v) − 1: the smaller of two cells is then their
/// bitwise AND, and one more is a shift and an OR. A push works on all cells at once: the diagonal, upper and
/// transposition candidates lane by lane, then the left-to-right dependency (d(i, j) ≤ d(i − 1, j) + 1) as a
/// prefix minimum in two shifted steps. It costs a few dozen instructions whatever the token's length.
///
/// The rows are raw memory that the value owns (it is noncopyable and frees it in `deinit`): the walk of the sorted
/// terms (`SortedTermWalk`) pushes a row for every term prefix it reads, and array bounds and uniqueness checks
/// would cost more than the row. Every index is below `capacity`, which `push` grows before it writes.
///
/// The walk of a letter's trie (`walkTrie(of:_:maximumDepth:budget:into:)`) keeps other rows, the same distances
/// as a bit-parallel automaton, and needs no value of this type.
struct AlignmentRows: ~Copyable {
    private let query: UnsafeMutableBufferPointer<UInt32>
    let budget: Int
    private var capacity: Int
    /// Per row j: its cells (lane k: i = j − budget + k), the smallest last-column value of rows 0...j, the first
    /// row with that value, the scalar that made it, and that scalar's positions in the query (`mask(of:)`, for
    /// a short query), read again by the next row's transpositions.
    private var cells: UnsafeMutablePointer<UInt64>
    private var best: UnsafeMutablePointer<UInt8>
    private var bestRow: UnsafeMutablePointer<Int>
    private var scalars: UnsafeMutablePointer<UInt32>
    private var scalarMasks: UnsafeMutablePointer<UInt64>
    /// For a token of at most `maskedLength` scalars: per ASCII scalar, and per other scalar of the token, the
    /// positions where the token has it, as bits from `maskOffset` on (so that a window that starts before the
    /// token is a plain shift). A push then reads a window's matches with a shift instead of comparing each cell.
    private let asciiMasks: UnsafeMutablePointer<UInt64>
    private let otherScalars: [UInt32]
    private let otherMasks: [UInt64]
    private static let maskOffset = 4
    /// The longest token whose positions fit a mask (`push(_:budget:)`), and that a trie walk takes
    /// (`walkTrie(of:_:maximumDepth:budget:into:)`).
    static let maskedLength = 64 - maskOffset
    /// The length of the term prefix the rows are for.
    private(set) var depth = 0
    /// For `canImprove(within:)`, per excess e (0...maximumExcess, n − depth + budget − remaining, clamped) and
    /// best b (0...budget + 1), at `e × (budget + 2) + b`: bit b − 1 − max(0, e − k) of each lane k of this row
    /// (where that is ≥ 0), and bit b − 2 − max(0, e − k) of the previous row's.
    /// (Tables built once per process, `improvementMasks`.)
    private let rowMasks: UnsafeMutablePointer<UInt64>
    private let previousRowMasks: UnsafeMutablePointer<UInt64>
    /// `laneSpread`, read once here rather than through the global's lazy initializer at every push.
    private let spreadTable: UnsafeMutablePointer<UInt64>
    /// An excess from which no lane can count (every lane's extra edits reach the cap).
    private let maximumExcess: Int

    /// Bit 0 of every lane.
    private static let ones: UInt64 = 0x1111_1111_1111_1111

    /// Rows for `query` (its scalars) with `budget` edits (0 to 3), holding row 0 (the empty prefix).
    init(query scalars: [UInt32], budget: Int) {
        precondition(budget >= 0 && budget <= 3, "a typo budget is 0 to 3 (the spec's are 0, 1 and 2)")
        // The token and its ASCII masks in one block, the rows in another (`allocateRows`): a walk's rows cost
        // two allocations, not seven.
        let fixed = UnsafeMutableRawPointer.allocate(byteCount: 128 * 8 + scalars.count * 4, alignment: 8)
        asciiMasks = fixed.bindMemory(to: UInt64.self, capacity: 128)
        query = UnsafeMutableBufferPointer(start: (fixed + 128 * 8).bindMemory(to: UInt32.self,
                                                                             capacity: scalars.count),
                                           count: scalars.count)
        _ = query.initialize(from: scalars)
        self.budget = budget
        // Lanes, and "more than the budget" in every lane, as `push(_:budget:)` works them out.
        let width = 2 * budget + 1
        let capLanes = ((1 << UInt64(budget + 1)) - 1) &* Self.ones
        capacity = 32
        (cells, scalarMasks, bestRow, self.scalars, best) = Self.allocateRows(capacity: capacity)
        var row = capLanes
        for k in 0..<width {
            let i = k - budget
            if i >= 0, i <= scalars.count {
                let lane = UInt64(4 * k)
                row = row & ~(0xF << lane) | ((1 << UInt64(min(i, budget + 1))) - 1) << lane
            }
        }
        cells[0] = row
        best[0] = UInt8(min(scalars.count, budget + 1))
        bestRow[0] = 0
        self.scalars[0] = 0
        scalarMasks[0] = 0
        if scalars.count <= Self.maskedLength {
            (otherScalars, otherMasks) = Self.letterMasks(of: scalars, from: Self.maskOffset, ascii: asciiMasks)
        } else {
            asciiMasks.initialize(repeating: 0, count: 128)
            (otherScalars, otherMasks) = ([], [])
        }
        maximumExcess = width + budget + 1
        let masks = improvementMasks[budget]
        rowMasks = masks
        previousRowMasks = masks + (maximumExcess + 1) * (budget + 2)
        spreadTable = laneSpread
    }

    deinit {
        UnsafeMutableRawPointer(asciiMasks).deallocate()  // and the token after them
        UnsafeMutableRawPointer(cells).deallocate()  // and the other rows after them
    }

    /// One block for the rows of `capacity` depths: cells, scalar masks, best rows, scalars, then bests (each
    /// part's alignment divides the sizes before it). Freed through `cells`.
    private static func allocateRows(capacity: Int) -> (UnsafeMutablePointer<UInt64>, UnsafeMutablePointer<UInt64>,
                                                         UnsafeMutablePointer<Int>, UnsafeMutablePointer<UInt32>,
                                                         UnsafeMutablePointer<UInt8>) {
        let block = UnsafeMutableRawPointer.allocate(byteCount: capacity * 29, alignment: 8)
        return (block.bindMemory(to: UInt64.self, capacity: capacity),
                (block + 8 * capacity).bindMemory(to: UInt64.self, capacity: capacity),
                (block + 16 * capacity).bindMemory(to: Int.self, capacity: capacity),
                (block + 24 * capacity).bindMemory(to: UInt32.self, capacity: capacity),
                (block + 28 * capacity).bindMemory(to: UInt8.self, capacity: capacity))
    }

    /// pd(q, prefix): the smallest distance from the query to a prefix of the term prefix so far, capped at
    /// budget + 1.
    var prefixDistance: Int { Int(best[depth]) }

    /// The shortest prefix length with that distance (the `m` of SPEC.md "Match spans").
    var bestLength: Int { bestRow[depth] }

    /// Whether a longer term prefix could have a smaller prefix distance: no row below can hold a value under
    /// the smaller of this row's minimum and the previous row's minimum + 1 (a transposition reaches back two
    /// rows). When it could not, every term that extends the prefix has exactly `prefixDistance`.
    var canImprove: Bool { canImprove(within: Int.max / 2) }

    /// Whether a longer term prefix, at most `remaining` scalars longer, could have a smaller prefix distance.
    ///
    /// Reaching the query's end from cell i of this row takes at least n − i − remaining more edits (each query
    /// scalar left that no term scalar is left for is an edit): a cell counts only if its value plus that is
    /// below the prefix distance so far, and likewise a cell of the previous row, through a transposition, plus 1.
    /// So the typo walk skips a subtree whose terms are all too short for the query (`TypoTrie.Node.height`).
    @inline(__always)
    func canImprove(within remaining: Int) -> Bool { canImprove(within: remaining, budget: budget) }

    /// `canImprove(within:)`, given the rows' budget (see `push(_:budget:)`).
    @inline(__always)
    func canImprove(within remaining: Int, budget: Int) -> Bool {
        // A lane at most b has bit b of its thermometer clear: the masks hold, per lane, the bit of the largest
        // value that, with the lane's extra edits, is still below the best (`improvementMasks`).
        let maximumExcess = 3 &* budget &+ 2
        let excess = query.count &- depth &+ budget &- remaining
        let index = min(max(excess, 0), maximumExcess) &* (budget &+ 2) &+ Int(best[depth])
        if ~cells[depth] & rowMasks[index] != 0 { return true }
        return depth > 0 && ~cells[depth &- 1] & previousRowMasks[index] != 0
    }

    /// With the rows reset to the empty prefix and `term` pushed until nothing can improve: the length of the
    /// shortest prefix of `term` at the smallest distance, if that distance is within the budget.
    mutating func matchedLength(in term: ArraySlice<UInt32>) -> Int? {
        pop(to: 0)
        for scalar in term {
            push(scalar)
            if !canImprove { break }
        }
        return prefixDistance <= budget ? bestLength : nil
    }

    /// Drops the rows beyond `depth` (at most the current depth).
    @inline(__always)
    mutating func pop(to depth: Int) {
        self.depth = min(self.depth, depth)
    }

    /// Computes the row of the term prefix extended by `scalar`.
    @inline(__always)
    mutating func push(_ scalar: UInt32) { push(scalar, budget: budget) }

    /// `push(_:)`, given the rows' budget: a caller that passes a constant (the typo walk, one loop per budget)
    /// gets a push whose masks and widths are constants, not loads.
    @inline(__always)
    mutating func push(_ scalar: UInt32, budget: Int) {
        // Every shift below is a masking shift (`&<<`, `&>>`) by an amount proven below 64: Swift's smart shifts
        // check their amount, which doubled the cost of a push.
        let j = depth &+ 1
        if j == capacity { grow() }
        let width = 2 &* budget &+ 1
        let capLane: UInt64 = (1 &<< UInt64(budget &+ 1)) &- 1
        let capLanes = capLane &* Self.ones
        let bandBits: UInt64 = (1 &<< UInt64(width)) &- 1
        let bandLanes: UInt64 = (1 &<< UInt64(4 &* width)) &- 1
        let n = query.count
        // Bit k: whether q[j − budget − 2 + k] is `scalar` (resp. `before`), for k in 0...width.
        var scalarBits: UInt64 = 0, beforeBits: UInt64 = 0
        let base = j &- budget &- 2
        var scalarMask: UInt64 = 0
        if n <= Self.maskedLength {
            scalarMask = mask(of: scalar)
            let shift = base &+ Self.maskOffset  // ≥ 0: base ≥ −1 − budget ≥ −maskOffset
            if shift < 64 {
                scalarBits = scalarMask &>> UInt64(shift)
                // Row 0 has no scalar: its mask is 0.
                beforeBits = scalarMasks[j &- 1] &>> UInt64(shift)
            }
        } else {
            let before = j >= 2 ? scalars[j &- 1] : UInt32.max
            for k in 0...width {
                let position = base &+ k
                if UInt(bitPattern: position) < UInt(n) {
                    let q = query[position]
                    scalarBits |= (q == scalar ? 1 : 0) &<< UInt64(k)
                    beforeBits |= (q == before ? 1 : 0) &<< UInt64(k)
                }
            }
        }
        // Lane k is cell i = j − budget + k: the diagonal compares q[i − 1] with the scalar, a transposition needs
        // q[i − 1] = t[j − 2] and q[i − 2] = t[j − 1].
        let matches = spread(scalarBits &>> 1 & bandBits) &* 0xF
        let previous = cells[j &- 1]
        var row = Self.increment(capLanes, previous) & (previous | ~matches)
        row &= Self.increment(capLanes, previous &>> 4 | capLane &<< 60)
        let transpositions = beforeBits &>> 1 & scalarBits & bandBits
        if transpositions != 0 {
            row &= Self.increment(capLanes, cells[j &- 2]) | ~(spread(transpositions) &* 0xF)
        }
        // d(i, j) ≤ d(i − 1, j) + 1, carried across the lanes in steps of 1 and 2, which together carry 1 to 3
        // lanes: a carry of 4 or more adds at least the cap (at most 4), and changes nothing.
        row &= Self.increment(capLanes, row &<< 4 | capLane)
        if budget >= 2 { row &= Self.increment(capLanes, Self.increment(capLanes, row &<< 8 | capLane &* 0x11)) }
        let last = Self.capPastTheEnd(&row, lastLane: n &- j &+ budget, budget: budget, width: width,
                                      bandLanes: bandLanes, capLanes: capLanes)
        cells[j] = row
        let lastValue = UInt8(truncatingIfNeeded: last)
        if lastValue < best[j &- 1] {
            best[j] = lastValue
            bestRow[j] = j
        } else {
            best[j] = best[j &- 1]
            bestRow[j] = bestRow[j &- 1]
        }
        scalars[j] = scalar
        scalarMasks[j] = scalarMask
        depth = j
    }

    /// The typo walk of a trie's nodes in preorder, its sentinel last (`TypoTermWalk`), for a trie whose nodes
    /// are at most `maximumDepth` deep: each node's row is made from its parent's, and a subtree whose distance is
    /// settled is one range of `found` and is jumped over. For a token of at most `maskedLength` scalars (a longer
    /// one pushes band rows node by node, `push(_:budget:)`) and a budget of 1 or more.
    ///
    /// The rows here are not the band of cells that `push(_:budget:)` keeps but the automaton of the same
    /// distance, bit-parallel (Wu and Manber's, with the transposition of optimal string alignment): per row j and
    /// per e ≤ budget one word R_e, whose bit i says d(q[0..<i], t[0..<j]) ≤ e (a token has at most 60 scalars,
    /// so bits 0...n fit). With M the positions i where q[i − 1] is the node's scalar, and M′ where it is the
    /// parent's, each term of the recurrence is a shift and a mask:
    ///
    ///     R_0 = (R_0′ << 1) & M                                  the scalar matches q[i − 1]
    ///     R_e = (R_e′ << 1) & M                                  match, or, one edit more than R_(e−1):
    ///         | R_(e−1)′ | R_(e−1)′ << 1 | R_(e−1) << 1          insertion, substitution, deletion
    ///         | (R_(e−1)″ << 2) & M′ & (M << 1)                  transposition (rows j − 1 and j − 2)
    ///
    /// The last column is bit n, and the test of `canImprove(within:budget:)` (a cell counts when its value, plus
    /// the edits it still needs to reach the query's end within `height` more scalars, is below the prefix
    /// distance) is one shifted mask per level: the settled subtrees, and so the ranges, are those of the band.
    /// A row costs a few instructions per level where the band's cost about a hundred, all lanes and carries. Most
    /// nodes take less: a dead end (no cell within the budget reachable) is settled without its row, its dead
    /// siblings after it in one loop over their labels, and a row that only continues an exact spelling of the
    /// rest of the token is written without the general steps (a walk's cost in instructions: PERFORMANCE.md,
    /// "Figures behind the code").
    ///
    /// Needs no `AlignmentRows` value: its masks and rows are one block, allocated here (on the heap: a temporary
    /// allocation too large for the stack, as a deep trie's, calls its closure out of line, where the budget is
    /// not a constant).
    @inline(__always)
    static func walkTrie(of token: [UInt32], _ nodes: UnsafeBufferPointer<TypoTrie.Node>, maximumDepth: Int,
                         budget: Int, into found: inout [(terms: Range<Int>, distance: Int)]) {
        let n = token.count
        precondition(n <= maskedLength && budget >= 1, "a trie walk is for a token of at most 60 scalars")
        let full: UInt64 = (1 &<< UInt64(n &+ 1)) &- 1  // bits 0...n (n ≤ 60)
        // Per row: R_0...R_budget, the row's M, its prefix distance. Row −1 (all 0) stands before row 0, so that
        // row 1's transposition reads a row of nothing (and row 0's M is 0 besides). The rows follow the masks.
        let stride = budget &+ 3
        let block = UnsafeMutablePointer<UInt64>.allocate(capacity: 128 &+ (maximumDepth &+ 2) &* stride)
        defer { block.deallocate() }
        // Per ASCII scalar, and per other scalar of the token, bit i: q[i − 1] is that scalar.
        let asciiMasks = block
        let (otherScalars, otherMasks) = letterMasks(of: token, from: 1, ascii: asciiMasks)
        let storage = block + 128
        do {
            let rows = storage + stride
            // Rows −1 and 0; a deeper row is written before it is read (a node's parent and grandparent are the
            // last nodes met one and two levels up). A continuation row writes levels budget − 1 to budget + 2
            // only: its descendants read no others.
            storage.initialize(repeating: 0, count: 2 &* stride)
            for e in 0...budget { rows[e] = (1 &<< UInt64(min(e, n) &+ 1)) &- 1 }
            rows[budget &+ 2] = UInt64(min(n, budget &+ 1))
            let count = nodes.count &- 1  // the last node is the sentinel
            var node = 0
            while node < count {
                let entry = nodes[node]
                let j = Int(entry.depth)  // 1...maximumDepth
                let parent = rows + (j &- 1) &* stride
                let row = parent + stride
                let grandparent = parent - stride
                let scalar = entry.label
                // Bit i: q[i − 1] is the scalar.
                let m = letterMask(of: scalar, ascii: asciiMasks, others: otherScalars, masks: otherMasks)
                let transposed = parent[budget &+ 1] & (m &<< 1)
                if parent[budget &- 1] == 0 {
                    // The parent's cells are all at least the budget (its levels below the budget are empty): this
                    // row's cells within the budget can only come from a match that extends one of the parent's
                    // cells at the budget, or a transposition from a cell of the grandparent's below it.
                    let matched = (parent[budget] &<< 1) & m
                    let swapped = grandparent[budget &- 1] &<< 2 & transposed
                    let end = Int(entry.end)  // after `node`, at most `count`: the trie is built so
                    if matched | swapped == 0 {
                        // A dead end: every level of this row is empty, nothing below can improve, and the subtree
                        // is settled at the parent's prefix distance. Most nodes a walk meets are such dead ends;
                        // this skips their row.
                        let prefixDistance = Int(parent[budget &+ 2])
                        node = end
                        if prefixDistance <= budget {
                            found.append((Int(entry.termLow)..<Int(nodes[end].termLow), prefixDistance))
                            continue
                        }
                        // No prefix within the budget yet, so a dead end adds nothing: its next siblings (the nodes
                        // at its depth until the walk leaves the parent) are tested against the parent's rows in a
                        // loop that reads only their labels, depths and ends, and skipped while they are dead too.
                        let matching = parent[budget] &<< 1
                        let swapping = grandparent[budget &- 1] &<< 2 & parent[budget &+ 1]
                        while node < count {
                            let sibling = nodes[node]
                            if sibling.depth != entry.depth { break }
                            let mask = letterMask(of: sibling.label, ascii: asciiMasks, others: otherScalars,
                                                  masks: otherMasks)
                            if matching & mask | swapping & (mask &<< 1) != 0 { break }
                            node = Int(sibling.end)
                        }
                        continue
                    }
                    if swapped == 0, parent[budget &+ 2] > UInt64(budget) {
                        // No transposition, and no prefix within the budget yet: the only cells of this row
                        // within it are `matched`, at the budget, and every edit below would pass it. Each term
                        // below matches only by spelling the rest of the token from one of those cells, and its
                        // descendants stay in this case: so the row is that level alone (the rows below read no
                        // other), written without the general steps. It reaches the token's end (a prefix at the
                        // budget: the subtree settles at it), or the cells still count when the subtree's terms
                        // are long enough to spell the token's rest from one of them (else it settles with none).
                        row[budget &- 1] = 0
                        row[budget] = matched
                        row[budget &+ 1] = m
                        row[budget &+ 2] = UInt64(budget &+ 1)
                        if matched &>> UInt64(n) & 1 == 1 {
                            found.append((Int(entry.termLow)..<Int(nodes[end].termLow), budget))
                            node = end
                        } else if matched & ~0 &<< UInt64(min(max(n &- Int(entry.height), 0), 63)) == 0 {
                            node = end
                        } else {
                            node &+= 1
                        }
                        continue
                    }
                }
                var level = (parent[0] &<< 1) & m
                row[0] = level
                var reached = level &>> UInt64(n) & 1  // levels whose bit n is set: d(q, t[0..<j]) ≤ e
                for level1 in 0..<budget {
                    let e = level1 &+ 1
                    let below = parent[e &- 1]
                    level = (parent[e] &<< 1) & m | below | below &<< 1 | level &<< 1
                        | grandparent[e &- 1] &<< 2 & transposed
                    level &= full
                    row[e] = level
                    reached &+= level &>> UInt64(n) & 1
                }
                row[budget &+ 1] = m
                // The levels are nested (R_(e−1) ⊆ R_e): the last column is budget + 1 − the levels reaching it.
                let prefixDistance = min(budget &+ 1 &- Int(truncatingIfNeeded: reached), Int(parent[budget &+ 2]))
                row[budget &+ 2] = UInt64(truncatingIfNeeded: prefixDistance)
                // A cell i of level e < prefixDistance counts when e + max(0, n − i − height) < prefixDistance:
                // i ≥ n − height − prefixDistance + 1 + e. A cell of the parent's row, through a transposition
                // (one edit, and two scalars of each), counts at the same bound for e < prefixDistance − 1.
                let bound = n &- Int(entry.height) &- prefixDistance &+ 1
                var counting: UInt64 = 0
                for e in 0...budget where e < prefixDistance {
                    let cells = e &+ 1 < prefixDistance ? row[e] | parent[e] : row[e]
                    counting |= cells & ~0 &<< UInt64(min(max(bound &+ e, 0), 63))
                }
                let termLow = Int(entry.termLow)
                if counting == 0 {
                    // Settled: every term below has this distance (or none is within the budget).
                    let end = Int(entry.end)  // after `node`, at most `count`: the trie is built so
                    if prefixDistance <= budget { found.append((termLow..<Int(nodes[end].termLow), prefixDistance)) }
                    node = end
                    continue
                }
                // A term ends here when the next node in preorder starts a later one.
                if prefixDistance <= budget, Int(nodes[node &+ 1].termLow) != termLow {
                    found.append((termLow..<(termLow &+ 1), prefixDistance))
                }
                node &+= 1
            }
        }
    }

    /// `walkTrie(of:_:maximumDepth:budget:into:)` with a budget of 1, compiled on its own with the budget a
    /// constant.
    @inline(never)
    static func walkTrieWithBudget1(of token: [UInt32], _ nodes: UnsafeBufferPointer<TypoTrie.Node>,
                                    maximumDepth: Int, into found: inout [(terms: Range<Int>, distance: Int)]) {
        walkTrie(of: token, nodes, maximumDepth: maximumDepth, budget: 1, into: &found)
    }

    /// `walkTrie(of:_:maximumDepth:budget:into:)` with a budget of 2, compiled on its own with the budget a
    /// constant.
    @inline(never)
    static func walkTrieWithBudget2(of token: [UInt32], _ nodes: UnsafeBufferPointer<TypoTrie.Node>,
                                    maximumDepth: Int, into found: inout [(terms: Range<Int>, distance: Int)]) {
        walkTrie(of: token, nodes, maximumDepth: maximumDepth, budget: 2, into: &found)
    }

    /// The positions of each scalar in `token` (at most 64 − `offset` scalars) as bits from `offset` on: in
    /// `ascii` (128 words, initialized here) for an ASCII scalar, else in the returned masks, one per other scalar
    /// of the token (a token has few).
    static func letterMasks(of token: [UInt32], from offset: Int, ascii: UnsafeMutablePointer<UInt64>)
        -> (scalars: [UInt32], masks: [UInt64])
    {
        precondition(token.count + offset <= 64, "a token too long for a mask of its positions")
        ascii.initialize(repeating: 0, count: 128)
        var scalars: [UInt32] = [], masks: [UInt64] = []
        for (position, scalar) in token.enumerated() {
            let bit: UInt64 = 1 &<< UInt64(position &+ offset)
            if scalar < 128 {
                ascii[Int(scalar)] |= bit
            } else if let index = scalars.firstIndex(of: scalar) {
                masks[index] |= bit
            } else {
                scalars.append(scalar)
                masks.append(bit)
            }
        }
        return (scalars, masks)
    }

    /// The mask of `scalar` among those `letterMasks(of:from:ascii:)` made: its positions in the token, 0 when
    /// the token has none.
    @inline(__always)
    static func letterMask(of scalar: UInt32, ascii: UnsafeMutablePointer<UInt64>, others: [UInt32],
                           masks: [UInt64]) -> UInt64 {
        if scalar < 128 { return ascii[Int(scalar)] }
        for index in others.indices where others[index] == scalar { return masks[index] }
        return 0
    }

    /// The positions of `scalar` in a token of at most `maskedLength` scalars, as bits from `maskOffset` on.
    @inline(__always)
    private func mask(of scalar: UInt32) -> UInt64 {
        Self.letterMask(of: scalar, ascii: asciiMasks, others: otherScalars, masks: otherMasks)
    }

    /// Each lane one more, up to the cap (`capLanes`): the thermometer shifted up, with bit 0 set.
    /// Sets the cells of `row` outside the band or past the query's end (i > n) to "more than the budget", and
    /// returns the last column, d(q, t[0..<j]) (`budget + 1` when more): lane `lastLane` = n − j + budget, in the
    /// band only when j ≥ n − budget.
    @inline(__always)
    private static func capPastTheEnd(_ row: inout UInt64, lastLane: Int, budget: Int, width: Int,
                                      bandLanes: UInt64, capLanes: UInt64) -> Int {
        guard lastLane < width else {
            row = row & bandLanes | capLanes & ~bandLanes
            return budget &+ 1
        }
        let inside: UInt64 = (1 &<< UInt64(4 &* max(0, lastLane &+ 1))) &- 1
        row = row & inside | capLanes & ~inside
        return lastLane >= 0 ? (row &>> UInt64(4 &* lastLane) & 0xF).nonzeroBitCount : budget &+ 1
    }

    @inline(__always)
    private static func increment(_ capLanes: UInt64, _ row: UInt64) -> UInt64 {
        (row &<< 1 | ones) & capLanes
    }

    /// Bits 0–6 of `bits` on bit 0 of lanes 0–6.
    @inline(__always)
    private func spread(_ bits: UInt64) -> UInt64 {
        spreadTable[Int(truncatingIfNeeded: bits & 0x7F)]
    }

    /// Doubles the room for rows (a term longer than any seen so far).
    @inline(never)
    private mutating func grow() {
        let newCapacity = capacity * 2
        let (newCells, newScalarMasks, newBestRow, newScalars, newBest) = Self.allocateRows(capacity: newCapacity)
        newCells.initialize(from: cells, count: capacity)
        newScalarMasks.initialize(from: scalarMasks, count: capacity)
        newBestRow.initialize(from: bestRow, count: capacity)
        newScalars.initialize(from: scalars, count: capacity)
        newBest.initialize(from: best, count: capacity)
        UnsafeMutableRawPointer(cells).deallocate()
        (cells, scalarMasks, bestRow, scalars, best) = (newCells, newScalarMasks, newBestRow, newScalars, newBest)
        capacity = newCapacity
    }
}

/// `AlignmentRows.spread` for every 7-bit value, built once per process (1 KB).
nonisolated(unsafe) private let laneSpread: UnsafeMutablePointer<UInt64> = {
    let table = UnsafeMutablePointer<UInt64>.allocate(capacity: 128)
    for bits in 0..<128 {
        var lanes: UInt64 = 0
        for k in 0..<7 where bits >> k & 1 == 1 { lanes |= 1 << UInt64(4 * k) }
        table[bits] = lanes
    }
    return table
}()

/// `AlignmentRows`' masks for `canImprove(within:)`, per budget 0...3, built once per process: for budget b
/// (width w = 2b + 1, maximum excess m = w + b + 1), (m + 1) × (b + 2) masks of a row, then as many of the
/// previous row (see `AlignmentRows.rowMasks`).
nonisolated(unsafe) private let improvementMasks: [UnsafeMutablePointer<UInt64>] = (0...3).map { budget in
    let width = 2 * budget + 1, maximumExcess = width + budget + 1
    let count = (maximumExcess + 1) * (budget + 2)
    let table = UnsafeMutablePointer<UInt64>.allocate(capacity: 2 * count)
    for excess in 0...maximumExcess {
        for best in 0...(budget + 1) {
            var row: UInt64 = 0, previous: UInt64 = 0
            for k in 0..<width {
                let bound = best - 1 - max(0, excess - k)
                if bound >= 0 { row |= 1 << UInt64(4 * k + bound) }
                if bound >= 1 { previous |= 1 << UInt64(4 * k + bound - 1) }
            }
            table[excess * (budget + 2) + best] = row
            table[count + excess * (budget + 2) + best] = previous
        }
    }
    return table
}
