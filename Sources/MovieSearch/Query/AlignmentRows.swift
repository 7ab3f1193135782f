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
/// So a row costs 2·budget + 1 cells whatever the token's length, and the rows are a flat byte array that a walk of
/// the term dictionary pops and pushes as consecutive terms share prefixes.
struct AlignmentRows {
    private let query: [UInt32]
    let budget: Int
    private let width: Int
    private let cap: UInt8
    /// Row j at `cells[j * width ..< (j + 1) * width]`; cell k holds i = j − budget + k.
    private var cells: [UInt8]
    /// The term's scalars so far: `path[j - 1]` made row j.
    private var path: [UInt32] = []
    /// Per row: its smallest cell, the smallest last-column value of rows 0...j, and the first row with that value.
    private var rowMinimum: [UInt8] = []
    private var pathMinimum: [UInt8] = []
    private var bestRow: [Int32] = []

    /// Rows for `query` (its scalars) with `budget` edits, holding row 0 (the empty prefix).
    init(query: [UInt32], budget: Int) {
        precondition(budget >= 0 && budget < 64, "a typo budget is 0, 1 or 2")
        self.query = query
        self.budget = budget
        width = 2 * budget + 1
        cap = UInt8(budget + 1)
        cells = []
        cells.reserveCapacity(width * 32)
        for k in 0..<width {
            let i = k - budget
            cells.append(i < 0 || i > query.count ? cap : UInt8(min(i, budget + 1)))
        }
        rowMinimum.append(0)
        let last = query.count <= budget ? UInt8(query.count) : cap
        pathMinimum.append(last)
        bestRow.append(0)
    }

    /// The length of the term prefix the rows are for.
    var depth: Int { path.count }

    /// The term prefix's scalar at `position` (below `depth`).
    func scalar(at position: Int) -> UInt32 { path[position] }

    /// pd(q, prefix): the smallest distance from the query to a prefix of the term prefix so far, capped at
    /// budget + 1.
    var prefixDistance: Int { Int(pathMinimum[depth]) }

    /// The shortest prefix length with that distance (the `m` of SEARCH-SPEC "Match spans").
    var bestLength: Int { Int(bestRow[depth]) }

    /// Whether a longer term prefix could have a smaller prefix distance: no row below can hold a value under
    /// the smaller of this row's minimum and the previous row's minimum + 1 (a transposition reaches back two
    /// rows). When it could not, every term that extends the prefix has exactly `prefixDistance`.
    var canImprove: Bool {
        let j = depth
        var bound = rowMinimum[j]
        if j > 0 { bound = min(bound, rowMinimum[j - 1] &+ 1) }
        return bound < pathMinimum[j]
    }

    /// Drops the rows beyond `depth` (at most the current depth).
    mutating func pop(to depth: Int) {
        let drop = path.count - depth
        guard drop > 0 else { return }
        path.removeLast(drop)
        rowMinimum.removeLast(drop)
        pathMinimum.removeLast(drop)
        bestRow.removeLast(drop)
        cells.removeLast(drop * width)
    }

    /// Computes the row of the term prefix extended by `scalar`.
    mutating func push(_ scalar: UInt32) {
        path.append(scalar)
        let j = path.count, n = query.count
        let previous = (j - 1) * width, twoBack = (j - 2) * width
        let before: UInt32? = j >= 2 ? path[j - 2] : nil
        var smallest = cap
        for k in 0..<width {
            let i = j - budget + k
            var value: UInt8
            if i < 0 || i > n {
                value = cap
            } else if i == 0 {
                value = UInt8(min(j, budget + 1))
            } else {
                value = cells[previous + k] &+ (query[i - 1] == scalar ? 0 : 1)
                if k + 1 < width { value = min(value, cells[previous + k + 1] &+ 1) }
                if k > 0 { value = min(value, cells[cells.count - 1] &+ 1) }
                if i >= 2, let before, query[i - 1] == before, query[i - 2] == scalar {
                    value = min(value, cells[twoBack + k] &+ 1)
                }
                value = min(value, cap)
            }
            cells.append(value)
            smallest = min(smallest, value)
        }
        rowMinimum.append(smallest)
        // The last column, d(q, t[0..<j]), is in the band when |n − j| ≤ budget.
        let lastCell = n - j + budget
        let last = lastCell >= 0 && lastCell < width ? cells[j * width + lastCell] : cap
        if last < pathMinimum[j - 1] {
            pathMinimum.append(last)
            bestRow.append(Int32(j))
        } else {
            pathMinimum.append(pathMinimum[j - 1])
            bestRow.append(bestRow[j - 1])
        }
    }
}
