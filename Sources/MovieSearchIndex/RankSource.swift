/// The ranks of the titles that have a term in a range of terms, as the typo pass reads them
/// (`PrefixSetReader.rankSource(of:)`): where they lie in the file, nothing merged, copied or allocated. A typo
/// pass meets dozens of small ranges per word, and merging each into a list of its own (as `RankSet` does for an
/// exact query's one range) cost more than the walk that found them; the pass sorts all of a word's ranks at once
/// instead.
///
/// Made only of views into the mapping, so an array of them is plain memory: no reference to retain or release
/// per element.
@_spi(Engine) public enum RankSource {
    /// Ascending ranks, each once: a stored list set, or one term's posting list, coded.
    case coded(EliasFanoList)
    /// Ascending ranks, each once: a long list set or posting list, packed.
    case sorted(PackedView)
    /// The posting lists of several terms end to end: each term's ascending, a title that has two of the terms
    /// listed twice.
    case postings(PostingLists)
    /// One bit per rank (a bitmap set), with its number of set bits.
    case bitmap(U64View, cardinality: Int)

    /// Whether its ranks come ascending, each once, as they are read: a list or a bitmap, not postings end to end.
    @inlinable public var isAscending: Bool {
        if case .postings = self { false } else { true }
    }

    /// How many ranks it lists (a title listed twice counted twice).
    @inlinable public var count: Int {
        switch self {
        case .coded(let list): list.count
        case .sorted(let list): list.count
        case .postings(let lists): lists.count
        case .bitmap(_, let cardinality): cardinality
        }
    }
}
