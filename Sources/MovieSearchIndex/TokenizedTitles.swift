/// The terms of a catalog's titles, by movie in the catalog's order (`TitleTokenizer`): each title's distinct
/// tokens as provisional ids of `table`, those of movie i `terms[starts[i] ..< starts[i + 1]]`.
package struct TokenizedTitles: Sendable {
    let table: ByteStringTable
    let terms: [Int32]
    let starts: [UInt32]

    /// The number of titles.
    package var count: Int { starts.count - 1 }
}
