/// The optimal string alignment distance of SPEC.md "Typos", by the full dynamic-programming table:
/// insert, delete or substitute one scalar, or swap two adjacent scalars, each costing 1, no substring edited twice.
package enum OptimalStringAlignment {
    /// `d(q, t[0..<j])` for every `j` in `0...t.count`: the last row of the table of `q` against `t`.
    package static func prefixDistances(_ q: [Unicode.Scalar], _ t: [Unicode.Scalar]) -> [Int] {
        // table[i * width + j] = d(q[0..<i], t[0..<j]), every cell computed (no pruning).
        let width = t.count + 1
        var table = [Int](repeating: 0, count: (q.count + 1) * width)
        for i in 0...q.count { table[i * width] = i }
        for j in 0...t.count { table[j] = j }
        for i in 1..<(q.count + 1) {
            for j in 1..<(t.count + 1) {
                var best = min(table[(i - 1) * width + j] + 1,                                  // delete q[i - 1]
                               table[i * width + j - 1] + 1,                                    // insert t[j - 1]
                               table[(i - 1) * width + j - 1] + (q[i - 1] == t[j - 1] ? 0 : 1))  // keep or substitute
                if i > 1 && j > 1 && q[i - 1] == t[j - 2] && q[i - 2] == t[j - 1] {
                    best = min(best, table[(i - 2) * width + j - 2] + 1)                        // swap
                }
                table[i * width + j] = best
            }
        }
        return Array(table[(q.count * width)...])
    }

    /// `d(q, t)`.
    package static func distance(_ q: [Unicode.Scalar], _ t: [Unicode.Scalar]) -> Int {
        prefixDistances(q, t)[t.count]
    }

    /// `pd(q, t)`, the distance of `q` to the closest prefix of `t`, and the length of the shortest prefix at that
    /// distance (the matched part of a typo match, "Match spans").
    package static func prefixDistance(_ q: [Unicode.Scalar], _ t: [Unicode.Scalar]) -> (distance: Int, length: Int) {
        let row = prefixDistances(q, t)
        let distance = row.min()!
        return (distance, row.firstIndex(of: distance)!)
    }
}
